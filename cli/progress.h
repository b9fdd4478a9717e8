/*
 * progress.h -- a one-line progress report on stderr for long commands
 * (`ccsim run`): units done / total, simulated time, events/s and ETA.
 * Part of the top layer.
 *
 * Silent unless stderr is a terminal, and silent for the first second, so
 * short runs, tests, CI and redirected output never see it. The line is
 * redrawn in place (\r) at most ten times a second and erased at the end.
 */
#ifndef CCSIM_PROGRESS_H
#define CCSIM_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#define PROGRESS_DELAY_S 1.0 /* nothing is shown before this */
/* The environment variable CCSIM_PROGRESS_DELAY_S=SECONDS replaces that
 * delay; only tests set it (a short run can then show the line). */

struct progress {
    const char *what; /* the line's prefix, "ccsim run" */
    const char *unit; /* "iterations" */
    uint64_t total;   /* 0: unknown (no ETA) */
    bool bound;       /* total is a most (a budget the work may stop before): said so */
    double start, last;
    double delay; /* seconds before the first line */
    int width;    /* characters of the last line drawn (0: none shown) */
    bool on;      /* stderr is a terminal */
};

void progress_init(struct progress *p, const char *what, const char *unit, uint64_t total);
/* done units so far, sim_ns simulated, events fired. */
void progress_update(struct progress *p, uint64_t done, uint64_t sim_ns, uint64_t events);
/* The same with a detail of the caller's instead of simulated time and
 * events/s ("best error 3.2 %"). */
void progress_note(struct progress *p, uint64_t done, const char *detail);
/* Erases the line if one was drawn. */
void progress_end(struct progress *p);

#endif
