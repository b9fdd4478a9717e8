/*
 * progress.c -- the progress line of cli/progress.h.
 */
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* PROGRESS_DELAY_S, or the tests' CCSIM_PROGRESS_DELAY_S (seconds, >= 0). */
static double delay_s(void)
{
    const char *env = getenv("CCSIM_PROGRESS_DELAY_S");
    char *end;
    double d = env && *env ? strtod(env, &end) : -1;
    return env && *env && !*end && d >= 0 ? d : PROGRESS_DELAY_S;
}

void progress_init(struct progress *p, const char *what, const char *unit, uint64_t total)
{
    *p = (struct progress){.what = what,
                           .unit = unit,
                           .total = total,
                           .start = now_s(),
                           .delay = delay_s(),
                           .on = isatty(STDERR_FILENO) == 1};
}

/* "12.3 us" for a simulated time in ns. */
static void format_ns(char *buf, size_t n, uint64_t ns)
{
    if (ns >= 1000000000ull)
        snprintf(buf, n, "%.2f s", (double)ns * 1e-9);
    else if (ns >= 1000000ull)
        snprintf(buf, n, "%.2f ms", (double)ns * 1e-6);
    else
        snprintf(buf, n, "%.2f us", (double)ns * 1e-3);
}

static void draw(struct progress *p, const char *line, int len)
{
    int pad = p->width > len ? p->width - len : 0;
    fprintf(stderr, "\r%s%*s", line, pad, "");
    fflush(stderr);
    p->width = len;
}

/* True when a line is due: a terminal, past the delay, 0.1 s since the last. */
static bool due(struct progress *p, double *elapsed)
{
    if (!p->on)
        return false;
    double t = now_s();
    *elapsed = t - p->start;
    if (*elapsed < p->delay || t - p->last < 0.1)
        return false;
    p->last = t;
    return true;
}

/* "prefix: done/total unit, detail, ETA s" */
static void show(struct progress *p, uint64_t done, double el, const char *detail)
{
    char line[256], eta[48] = "", tot[40] = "";
    double left = done ? el / (double)done * (double)(p->total - done) : 0;
    if (p->total && done && done <= p->total)
        snprintf(eta, sizeof eta, p->bound ? ", at most %.0f s more" : ", ETA %.0f s", left);
    if (p->total)
        snprintf(tot, sizeof tot, p->bound ? " of at most %llu" : "/%llu",
                 (unsigned long long)p->total);
    int len = snprintf(line, sizeof line, "%s: %llu%s %s, %s%s", p->what, (unsigned long long)done,
                       tot, p->unit, detail, eta);
    draw(p, line, len < (int)sizeof line ? len : (int)sizeof line - 1);
}

void progress_update(struct progress *p, uint64_t done, uint64_t sim_ns, uint64_t events)
{
    double el;
    if (!due(p, &el))
        return;
    char sim[32], detail[96];
    format_ns(sim, sizeof sim, sim_ns);
    snprintf(detail, sizeof detail, "%s simulated, %.2f M events/s", sim,
             (double)events / el / 1e6);
    show(p, done, el, detail);
}

void progress_note(struct progress *p, uint64_t done, const char *detail)
{
    double el;
    if (due(p, &el))
        show(p, done, el, detail);
}

void progress_end(struct progress *p)
{
    if (!p->on || !p->width)
        return;
    fprintf(stderr, "\r%*s\r", p->width, "");
    fflush(stderr);
    p->width = 0;
}
