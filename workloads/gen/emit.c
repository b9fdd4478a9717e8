/*
 * emit.c -- the emit helpers of the trace generators: the growable text
 * buffer, messages, the prologue (header, threads, pin), declarations,
 * statements with thread selectors, statements whose addresses name a peer
 * thread, and the methodology statements (evict, prime, sync, mark).
 */
#include "gen_impl.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define SEL_MAX_CHARS       2000 /* a selector list longer than this is split (WL_MAX_LINE_CHARS) */
#define PIN_MAX_CHARS       4000
#define HEAD_SPEC_MAX_CHARS 1000 /* the "# ccsim gen SPEC" line's spec, and room for -c, --set */
#define COMMENT_COLS        76

/* ---------------------------------------------------------------- text */

static void gb_vprintf(struct gen_buf *b, const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int need = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    SIM_ASSERT(need >= 0);
    if (b->len + (size_t)need + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + (size_t)need + 1)
            cap *= 2;
        b->s = sim_xrealloc(b->s, cap);
        b->cap = cap;
    }
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    b->len += (size_t)need;
}

void gb_printf(struct gen_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gb_vprintf(b, fmt, ap);
    va_end(ap);
}

bool gen_fail(struct gen *g, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sim_diag_add(g->d, g->where, 0, "%s", msg);
    return false;
}

/* ---------------------------------------------------------------- statements */

static void indent(struct gen *g)
{
    for (int i = 0; i < g->depth; i++)
        gb_printf(&g->out, "  ");
}

void gen_out(struct gen *g, const char *fmt, ...)
{
    indent(g);
    va_list ap;
    va_start(ap, fmt);
    gb_vprintf(&g->out, fmt, ap);
    va_end(ap);
    gb_printf(&g->out, "\n");
}

void gen_note(struct gen *g, const char *fmt, ...)
{
    indent(g);
    gb_printf(&g->out, "# ");
    va_list ap;
    va_start(ap, fmt);
    gb_vprintf(&g->out, fmt, ap);
    va_end(ap);
    gb_printf(&g->out, "\n");
}

void gen_for(struct gen *g, const char *var, const char *from, const char *to)
{
    gen_out(g, "for %s %s..%s {", var, from, to);
    g->depth++;
}

void gen_end(struct gen *g)
{
    g->depth--;
    gen_out(g, "}");
}

void gen_iter_open(struct gen *g)
{
    char to[32];
    snprintf(to, sizeof to, "%ld", g->iters - 1);
    gen_for(g, "it", "0", to);
}

void gen_sync(struct gen *g)
{
    gen_out(g, "all: sync");
}

void gen_mark(struct gen *g)
{
    gen_out(g, "all: mark done");
}

/* ---------------------------------------------------------------- prologue */

static void pin_line(struct gen *g)
{
    struct gen_buf pin = {0};
    gb_printf(&pin, "pin");
    for (int t = 0; t < g->n; t++) {
        int core = t % g->cores, hw = t / g->cores;
        if (hw)
            gb_printf(&pin, " %d.%d", core, hw);
        else
            gb_printf(&pin, " %d", core);
    }
    if (pin.len <= PIN_MAX_CHARS)
        gb_printf(&g->out, "%s\n", pin.s);
    else
        gb_printf(&g->out,
                  "# no pin line (too long): thread t runs on core t %% %d, hardware "
                  "thread t / %d, the default placement\n",
                  g->cores, g->cores);
    free(pin.s);
}

/* `what` as comment lines of at most COMMENT_COLS characters, broken at spaces. */
static void comment_wrapped(struct gen *g, const char *what)
{
    const char *p = what;
    while (*p) {
        int len = (int)strlen(p);
        if (len > COMMENT_COLS) {
            len = COMMENT_COLS;
            while (len > 0 && p[len] != ' ')
                len--;
            if (len == 0)
                len = (int)strcspn(p, " ");
        }
        gb_printf(&g->out, "# %.*s\n", len, p);
        p += len;
        while (*p == ' ')
            p++;
    }
}

void gen_head(struct gen *g, const char *spec, const char *what)
{
    gb_printf(&g->out, "ccsim-trace %d\n", WL_VERSION);
    if (strlen(spec) <= HEAD_SPEC_MAX_CHARS)
        gb_printf(&g->out, "# ccsim gen %s -t %d -i %ld\n", spec, g->n, g->iters);
    else /* a shape=parents: list of a thousand threads: the line would be too long */
        gb_printf(&g->out,
                  "# ccsim gen %.*s... (a spec of %zu characters, cut here) -t %d -i %ld\n",
                  HEAD_SPEC_MAX_CHARS, spec, strlen(spec), g->n, g->iters);
    comment_wrapped(g, what);
    gb_printf(&g->out, "threads %d\n", g->n);
    if (!g->pinned)
        return;
    if (g->ngroups > 1)
        comment_wrapped(g, g->tpc > 1 ? "one socket's cores are filled before the next's, a "
                                        "thread a core; more threads than cores take the "
                                        "cores' next hardware threads in the same order (seed "
                                        "000 Sec 2.5: packing)"
                                      : "one socket is filled before the next (seed 000 Sec "
                                        "2.5: packing)");
    pin_line(g);
}

void gen_line(struct gen *g, const char *name, long count, const char *comment)
{
    g->lines += count;
    if (g->lines > WL_MAX_LINES && !g->too_many_lines) {
        g->too_many_lines = true;
        gen_fail(g,
                 "line %s (%ld lines for %d threads) brings the trace to %ld lines, more than a "
                 "trace may declare (%d in all, WL_MAX_LINES): fewer lines or threads",
                 name, count, g->n, g->lines, WL_MAX_LINES);
    }
    char decl[128];
    if (count == 1)
        snprintf(decl, sizeof decl, "line %s", name);
    else
        snprintf(decl, sizeof decl, "line %s %ld", name, count);
    gb_printf(&g->out, "%-24s # %s\n", decl, comment);
}

/* ---------------------------------------------------------------- selectors */

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* One statement per chunk of the sorted list, ranges compressed. */
static void list_stmts(struct gen *g, const int *ids, int cnt, const char *text)
{
    struct gen_buf sel = {0};
    for (int i = 0; i < cnt;) {
        int j = i;
        while (j + 1 < cnt && ids[j + 1] == ids[j] + 1)
            j++;
        if (sel.len)
            gb_printf(&sel, ",");
        if (j == i)
            gb_printf(&sel, "%d", ids[i]);
        else if (j == i + 1)
            gb_printf(&sel, "%d,%d", ids[i], ids[j]);
        else
            gb_printf(&sel, "%d..%d", ids[i], ids[j]);
        i = j + 1;
        if (sel.len > SEL_MAX_CHARS || i == cnt) {
            gen_out(g, "%s: %s", sel.s, text);
            sel.len = 0;
        }
    }
    free(sel.s);
}

void gen_set_stmt(struct gen *g, const int *ids, int cnt, const char *fmt, ...)
{
    if (cnt <= 0)
        return;
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    int *s = sim_xmalloc((size_t)cnt * sizeof *s);
    memcpy(s, ids, (size_t)cnt * sizeof *s);
    qsort(s, (size_t)cnt, sizeof *s, cmp_int);
    bool dense = s[cnt - 1] - s[0] == cnt - 1;
    if (dense && s[0] == 0 && cnt == g->n)
        gen_out(g, "all: %s", text);
    else if (dense && s[0] == 1 && cnt == g->n - 1)
        gen_out(g, "others: %s", text);
    else
        list_stmts(g, s, cnt, text);
    free(s);
}

/* ---------------------------------------------------------------- peers */

/* The template with `@` replaced by the peer and `$` by the peer times
 * scale: a constant peer v (by_offset false) or the peer t+v. */
static void fill(const char *tmpl, bool by_offset, long v, long scale, char *out, size_t size)
{
    char bare[48], scaled[64];
    if (!by_offset)
        snprintf(bare, sizeof bare, "%ld", v);
    else if (v == 0)
        snprintf(bare, sizeof bare, "t");
    else
        snprintf(bare, sizeof bare, "t%+ld", v);
    if (!by_offset)
        snprintf(scaled, sizeof scaled, "%ld", v * scale);
    else if (scale == 1)
        snprintf(scaled, sizeof scaled, "%s", bare);
    else if (v == 0)
        snprintf(scaled, sizeof scaled, "t*%ld", scale);
    else
        snprintf(scaled, sizeof scaled, "(%s)*%ld", bare, scale);
    size_t len = 0;
    for (const char *p = tmpl; *p && len + 1 < size; p++) {
        const char *sub = *p == '@' ? bare : *p == '$' ? scaled : NULL;
        if (!sub) {
            out[len++] = *p;
            continue;
        }
        size_t sl = strlen(sub);
        if (len + sl + 1 >= size)
            break;
        memcpy(out + len, sub, sl);
        len += sl;
    }
    out[len] = '\0';
}

/* Distinct values of key(t) over the participating threads. */
static int distinct(const struct gen *g, const int *peer, bool by_offset, char *seen)
{
    int count = 0;
    memset(seen, 0, 2 * (size_t)g->n + 1);
    for (int t = 0; t < g->n; t++) {
        if (peer[t] < 0)
            continue;
        int slot = (by_offset ? peer[t] - t : peer[t]) + g->n;
        count += !seen[slot];
        seen[slot] = 1;
    }
    return count;
}

void gen_peer_stmt(struct gen *g, const int *peer, long scale, const char *tmpl)
{
    char *seen = sim_xmalloc(2 * (size_t)g->n + 1);
    bool by_offset = distinct(g, peer, true, seen) < distinct(g, peer, false, seen);
    distinct(g, peer, by_offset, seen);
    int *ids = sim_xmalloc((size_t)g->n * sizeof *ids);
    for (int slot = 0; slot <= 2 * g->n; slot++) {
        if (!seen[slot])
            continue;
        long v = slot - g->n;
        int cnt = 0;
        for (int t = 0; t < g->n; t++)
            if (peer[t] >= 0 && (by_offset ? peer[t] - t : peer[t]) == v)
                ids[cnt++] = t;
        char text[512];
        fill(tmpl, by_offset, v, scale, text, sizeof text);
        gen_set_stmt(g, ids, cnt, "%s", text);
    }
    free(ids);
    free(seen);
}

void gen_count_stmt(struct gen *g, const int *count, const char *tmpl)
{
    int *ids = sim_xmalloc((size_t)g->n * sizeof *ids);
    for (int k = 1; k <= g->n; k++) {
        int cnt = 0;
        for (int t = 0; t < g->n; t++)
            if (count[t] == k)
                ids[cnt++] = t;
        if (!cnt)
            continue;
        char text[512], num[16];
        snprintf(num, sizeof num, "%d", k);
        size_t len = 0;
        for (const char *p = tmpl; *p && len + sizeof num < sizeof text; p++) {
            if (*p != '#') {
                text[len++] = *p;
                continue;
            }
            memcpy(text + len, num, strlen(num));
            len += strlen(num);
        }
        text[len] = '\0';
        gen_set_stmt(g, ids, cnt, "%s", text);
    }
    free(ids);
}

/* ---------------------------------------------------------------- methodology */

void gen_evict(struct gen *g, const char *name, long count)
{
    if (count == 1) {
        gen_out(g, "all: evict %s", name);
        return;
    }
    if (count % g->n == 0) {
        long per = count / g->n;
        if (per == 1) {
            gen_out(g, "all: evict %s[t]", name);
            return;
        }
        char to[32];
        snprintf(to, sizeof to, "%ld", per - 1);
        gen_for(g, "j", "0", to);
        gen_out(g, "all: evict %s[t*%ld+j]", name, per);
        gen_end(g);
        return;
    }
    char to[32];
    snprintf(to, sizeof to, "%ld", count - 1);
    gen_for(g, "j", "0", to);
    gen_out(g, "0: evict %s[j]", name);
    gen_end(g);
}

void gen_prime_own(struct gen *g, const char *name, long per)
{
    if (per == 1) {
        gen_out(g, "all: prime %s[t] M", name);
        return;
    }
    char to[32];
    snprintf(to, sizeof to, "%ld", per - 1);
    gen_for(g, "j", "0", to);
    gen_out(g, "all: prime %s[t*%ld+j] M", name, per);
    gen_end(g);
}

/* ---------------------------------------------------------------- groups */

void gen_local(const struct gen *g, const struct gen_group *gr, long k, char *buf, size_t size)
{
    char base[64];
    long c = k;
    if (gr->contiguous) {
        snprintf(base, sizeof base, "t");
        c -= gr->first;
    } else {
        /* thread t is on core t % cores, hardware thread t / cores */
        snprintf(base, sizeof base, "t/%d*%d+t%%%d", g->cores, g->per_socket, g->cores);
        c -= (long)gr->socket * g->per_socket;
    }
    if (c == 0)
        snprintf(buf, size, "%s", base);
    else
        snprintf(buf, size, "%s%+ld", base, c);
}

/* ---------------------------------------------------------------- who */

void gen_who_stmt(struct gen *g, const struct gen_who *who, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (who->peer)
        gen_peer_stmt(g, who->peer, 1, text);
    else
        gen_set_stmt(g, who->ids, who->cnt, "%s", text);
}

/* ---------------------------------------------------------------- barrier check */

void gen_arrive_decl(struct gen *g)
{
    gen_line(g, "arrive", g->n, "arrive[t]: it+1 once thread t entered (user data, M)");
}

void gen_arrive_enter(struct gen *g)
{
    gen_prime_own(g, "arrive", 1);
    gen_out(g, "all: write arrive[t] it+1");
}

void gen_arrive_check(struct gen *g)
{
    gen_mark(g);
    gen_out(g, "all: expect arrive[0..n-1] == it+1");
    gen_end(g);
}

/* ---------------------------------------------------------------- entry stamp */

void gen_stamp_clear(struct gen *g, const char *who, const char *stamp)
{
    gen_note(g, "%s is written on entry (after the sync): a read before its thread entered finds 0",
             stamp);
    gen_out(g, "%s: write %s 0", who, stamp);
}

void gen_stamp_enter(struct gen *g, const char *who, const char *stamp, const char *value)
{
    gen_out(g, "%s: write %s %s", who, stamp, value);
}

int *gen_all_ids(const struct gen *g)
{
    int *ids = sim_xmalloc((size_t)g->n * sizeof *ids);
    for (int t = 0; t < g->n; t++)
        ids[t] = t;
    return ids;
}
