/*
 * microbench.h -- `ccsim microbench` (top layer): a machine's measured
 * line-transfer costs. See microbench.c.
 */
#ifndef CCSIM_MICROBENCH_H
#define CCSIM_MICROBENCH_H

#include "machine.h"
#include "validate.h"

#define MB_MAX_POINTS 64

struct mb_point {
    double x;  /* threads, pairs or lines */
    double ns; /* the median latency */
};

struct mb_result {
    double r_l, r_r, r_q, r_i, r_qi; /* ns; NAN where it does not apply */
    struct mb_point contention[MB_MAX_POINTS], congestion[MB_MAX_POINTS], multiline[MB_MAX_POINTS];
    int ncontention, ncongestion, nmultiline;
    double contention_b, contention_c; /* T = b + c n */
    double congestion_c;               /* ns per line-thread pair */
    double multiline_q, multiline_o;   /* T = q + o N */
    /* the SCC (protocol scc): latencies in core cycles by hops from the
     * reader's tile; on other machines scc is false and these are empty */
    bool scc;
    double mpb_local_cycles;                                 /* the own tile's MPB */
    struct mb_point mpb[MB_MAX_POINTS], dram[MB_MAX_POINTS]; /* x: hops */
    int nmpb, ndram;
};

/* Seed 001's microbenchmarks (Sec III-B, Table II): throughputs (bytes/ns)
 * of a copy stream of `bytes` by the state of the lines it touches, core 0
 * copying while core 1 holds what the state needs: load hit modified and
 * store hit modified (both sides in M in core 0: one run gives both), store
 * hit shared (the destination written by core 0 and read by core 1, as the
 * transfer leaves it: S, or O under MOESI), load miss modified (the source
 * in M in core 1). */
bool mb_copy_rates(const struct machine_cfg *m, long bytes, int iterations,
                   struct val_copy_rates *out, struct sim_diag *d);

/* Least squares y = a + s x over n points (x, ns); n >= 1 (one point: s = 0). */
void mb_fit(const struct mb_point *p, int n, double *a, double *s);
/* On the SCC, contention is n threads reading one line of a remote MPB and
 * multi-line is N lines copied out of a remote MPB into private memory (an
 * RCCE get); R_R, R_Q and R_QI do not exist (no coherence): NAN. */
/* Runs every measurement with `iterations` iterations each. */
bool mb_run(const struct machine_cfg *m, int iterations, struct mb_result *res, struct sim_diag *d);

#endif
