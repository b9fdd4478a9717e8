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

/* Runs trace text on a fresh machine; the median iteration latency (ns)
 * without the cold first iteration, or NAN (b->failed set). */
double mb_measure(struct mb *b, const char *text);

#endif
