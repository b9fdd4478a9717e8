/*
 * microbench_impl.h -- what the microbenchmark files share (microbench.c,
 * microbench_tables.c): a measurement's context and the trace runner.
 */
#ifndef CCSIM_MICROBENCH_IMPL_H
#define CCSIM_MICROBENCH_IMPL_H

#include "microbench.h"

struct mb {
    const struct machine_cfg *m;
    int cps; /* cores per socket */
    int iters;
    struct sim_diag *d;
    bool failed;
};

/* The i-th core of socket s (i below cps) as the benchmarks pick them:
 * one core of each cache before a second one of any, so that "another
 * core" holds its own cache where cores share caches (the paper's methods
 * move lines between caches); core s * cps + i where each core has its own. */
int mb_core(const struct mb *b, int s, int i);
/* The core of thread t of a benchmark that spreads over the whole machine:
 * every socket's cores in mb_core's order, t wrapping around. */
int mb_machine_core(const struct mb *b, int t);

/* Runs trace text on a fresh machine; the median iteration latency (ns)
 * without the cold first iteration, or NAN (b->failed set). */
double mb_measure(struct mb *b, const char *text);

#endif
