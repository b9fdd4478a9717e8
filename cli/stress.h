/*
 * stress.h -- the random tester behind `ccsim stress` (top layer).
 */
#ifndef CCSIM_STRESS_H
#define CCSIM_STRESS_H

#include "machine.h"

struct stress_opts {
    uint64_t ops; /* operations in all */
    uint64_t seed;
    unsigned lines;            /* lines shared by all cores */
    unsigned max_think_cycles; /* random pause between a core's operations */
    sim_time_t jitter_ps;      /* random extra delay of every message */
    uint64_t watchdog_ns;      /* no operation done for this long: deadlock */
    unsigned mlp;              /* requests each core keeps in flight (0 means 1) */
};

struct stress_result {
    uint64_t ops, checks, violations, unexpected;
    bool deadlock;
    sim_time_t simulated_ps;
    uint64_t events, misses, invalidations, writebacks;
    uint64_t prefetches; /* the hardware prefetchers' fetches (l2.prefetch_*) */
    bool has_coverage;   /* the protocol's rows that ran (a memory system with tables) */
    struct cc_coverage coverage;
};

/* Both testers' deadlock watch (stress.c): the kernel's watchdog over the
 * run, and one report of a deadlock, whether the watchdog saw it or the
 * queue emptied with operations unfinished: the reason, what each agent
 * waits for (`waits`, NULL: nothing to add), the transactions in flight. */
struct stress_watch {
    struct machine *mc;
    uint64_t watchdog_ns;
    void (*waits)(void *ctx);
    void *ctx;
    sim_time_t jitter_ps;   /* the messages' jitter: the interval covers it */
    sim_time_t interval_ps; /* set by stress_watch_arm */
};
void stress_watch_arm(struct stress_watch *w);
/* After sim_run: whether the run deadlocked (reported if the watchdog did
 * not report it already). */
bool stress_watch_deadlock(struct stress_watch *w, enum sim_run_status rs, bool unfinished);

/* Runs on a built machine; returns SIM_EXIT_OK or SIM_EXIT_FAIL. On the
 * SCC (no coherence) it runs stress_run_scc's checks instead. */
int stress_run(struct machine *mc, const struct stress_opts *o, struct stress_result *res);
/* The SCC's: private memory, single-writer MPB lines, a lock (stress_scc.c). */
int stress_run_scc(struct machine *mc, const struct stress_opts *o, struct stress_result *res);

#endif
