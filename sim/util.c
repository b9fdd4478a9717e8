/*
 * util.c -- diagnostics, the panic exit, allocation that cannot fail, clocks.
 */
#include "sim.h"
#include "version.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

const char *sim_version(void)
{
    return CCSIM_VERSION;
}

void sim_diag_init(struct sim_diag *d)
{
    d->text[0] = '\0';
    d->len = 0;
    d->count = 0;
}

void sim_diag_add(struct sim_diag *d, const char *file, int line, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    d->count++;
    size_t room = sizeof d->text - d->len;
    int n;
    if (file && line > 0)
        n = snprintf(d->text + d->len, room, "%s:%d: %s\n", file, line, msg);
    else if (file)
        n = snprintf(d->text + d->len, room, "%s: %s\n", file, msg);
    else
        n = snprintf(d->text + d->len, room, "ccsim: %s\n", msg);
    if (n < 0 || (size_t)n >= room) {
        d->len = sizeof d->text - 1; /* truncated: keep what fits */
        d->text[d->len] = '\0';
    } else
        d->len += (size_t)n;
}

void sim_diag_print(const struct sim_diag *d)
{
    fputs(d->text, stderr);
    if (d->len == sizeof d->text - 1)
        fprintf(stderr, "ccsim: (more messages; %d in all)\n", d->count);
}

_Noreturn void sim_panic_at(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "ccsim: internal error at %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(SIM_EXIT_INTERNAL);
}

static void *check_alloc(void *p, size_t n)
{
    if (!p && n) {
        fprintf(stderr, "ccsim: out of memory (asked for %zu bytes)\n", n);
        exit(SIM_EXIT_INTERNAL);
    }
    return p;
}

void *sim_xmalloc(size_t n)
{
    return check_alloc(malloc(n ? n : 1), n);
}

void *sim_xcalloc(size_t count, size_t size)
{
    return check_alloc(calloc(count ? count : 1, size ? size : 1), count * size);
}

void *sim_xzeroed(size_t count, size_t size)
{
    size_t n = count * size;
    SIM_ASSERT(size == 0 || n / size == count);
    if (n < SIM_ZEROED_MIN)
        return sim_xcalloc(count, size);
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return check_alloc(p == MAP_FAILED ? NULL : p, n);
}

void sim_free_zeroed(void *p, size_t count, size_t size)
{
    size_t n = count * size;
    if (!p)
        return;
    if (n < SIM_ZEROED_MIN)
        free(p);
    else
        munmap(p, n);
}

void *sim_xrealloc(void *p, size_t n)
{
    return check_alloc(realloc(p, n ? n : 1), n);
}

char *sim_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(sim_xmalloc(n), s, n);
}

struct sim_clock sim_clock_ghz(double ghz)
{
    SIM_ASSERT(ghz > 0);
    double ps = 1000.0 / ghz;
    struct sim_clock c = {(sim_time_t)llround(ps)};
    if (c.period_ps == 0)
        c.period_ps = 1;
    return c;
}

size_t sim_edit_distance(const char *a, size_t la, const char *b)
{
    size_t lb = strlen(b), row[64];
    if (la > 63 || lb > 63)
        return 99;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

void sim_suggest(char *buf, size_t size, const char *name, size_t len, const char *const *names,
                 size_t n, const char *lead)
{
    const char *best = NULL;
    size_t best_d = 3;
    for (size_t i = 0; i < n; i++) {
        size_t dist = sim_edit_distance(name, len, names[i]);
        if (dist < best_d) {
            best_d = dist;
            best = names[i];
        }
    }
    buf[0] = '\0';
    if (best) {
        snprintf(buf, size, " (did you mean '%s'?)", best);
        return;
    }
    if (!lead)
        return;
    size_t at = (size_t)snprintf(buf, size, " (%s", lead);
    for (size_t i = 0; i < n && at < size; i++)
        at += (size_t)snprintf(buf + at, size - at, " %s%s", names[i], i + 1 < n ? "," : "");
    if (at < size)
        snprintf(buf + at, size - at, ")");
}
