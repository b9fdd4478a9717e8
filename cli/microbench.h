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

/*
 * Seed 000's Tables 2-4 measured the paper's way (Sec 2.2.2-2.2.3, Fig 2):
 * each row's buffer states, each row fitted to the row's own equation.
 *   Table 2 (contention): n threads copy one line (the send buffer, of
 *   thread 0) into their own receive lines, the send line E in thread 0's
 *   cache or I (in memory), the receive lines E in their readers' caches or
 *   I. E rows: Eq 2, b + c n; I rows: Eq 3, b + c n - a/n.
 *   Table 3 (multi-line, cached lines, Sandy Bridge): n threads each copy N
 *   lines modified in another core, of the same socket (intra: n = 1) or of
 *   the other (inter). Eq 4: q + o N + c n N.
 *   Table 4 (multi-line, Xeon Phi): thread 0 copies N lines of its send
 *   buffer into thread 1's receive buffer while thread 1 polls the last
 *   line; one transfer, the buffers E or I as in Table 2. Eq 5: q + o N - p/N.
 * The equations only fit the simulated points (for the reader beside the
 * paper's); nothing in the simulation uses them.
 */
enum mb_states { MB_EE, MB_EI, MB_IE, MB_II, MB_NSTATES }; /* sendbuf, recvbuf */

struct mb_row {
    double
        k[3]; /* Table 2: b, c, a; Table 3: q, o, c; Table 4: q, o, p (as the paper writes them) */
    struct mb_point pts[MB_MAX_POINTS]; /* x: n threads (Table 2) or N lines (Tables 3, 4) */
    int threads[MB_MAX_POINTS];         /* Table 3: the copying threads of each point */
    int n;
};

struct mb_tables {
    struct mb_row table2[MB_NSTATES];
    struct mb_row table3_intra, table3_inter; /* inter: n = 0 on one socket */
    struct mb_row table4[MB_NSTATES];
};

extern const char *const mb_state_names[MB_NSTATES]; /* "E/E", "E/I", "I/E", "I/I" */

/* Least squares of a row's points: k0 + k1 x, and - k2 / x when `inverse`
 * (Eq 2; Eq 3 and Eq 5); k2 = 0 without it or with fewer than 3 points. */
void mb_fit_row(struct mb_row *row, bool inverse);
/* Least squares q + o N + c n N (n: row->threads); c = 0 without `congestion`. */
void mb_fit_table3(struct mb_row *row, bool congestion);

/* A row's model curve at a point, k as the paper writes the row (Tables 2
 * and 4: k0 + k1 x - k2 / x; Table 3: q + o N + c n N). */
double mb_model(int table, const double k[3], double x, int threads);
/* The deviation of a row's points from the curve k where the slope
 * dominates (x >= 8), as fractions: the largest (signed) and the mean of
 * the squares; both NAN without such a point. */
double mb_curve_error(int table, const struct mb_row *row, const double k[3]);
double mb_curve_mse(int table, const struct mb_row *row, const double k[3]);

/* Measures the tables on a coherent machine (false with a message in d). */
bool mb_tables(const struct machine_cfg *m, int iterations, struct mb_tables *t,
               struct sim_diag *d);

/* Least squares y = a + s x over n points (x, ns); n >= 1 (one point: s = 0). */
void mb_fit(const struct mb_point *p, int n, double *a, double *s);
/* On the SCC, contention is n threads reading one line of a remote MPB and
 * multi-line is N lines copied out of a remote MPB into private memory (an
 * RCCE get); R_R, R_Q and R_QI do not exist (no coherence): NAN. */
/* Runs every measurement with `iterations` iterations each. */
bool mb_run(const struct machine_cfg *m, int iterations, struct mb_result *res, struct sim_diag *d);
/* Only Table 1's single-line reads (R_L .. R_QI) of a coherent machine: the
 * rest of res stays 0. */
bool mb_singles(const struct machine_cfg *m, int iterations, struct mb_result *res,
                struct sim_diag *d);
/* False (the reason in d) if a coherent machine has one core in a socket:
 * R_R and the tables read a line from another core of it (another cache
 * where the socket has one, else a sibling of the shared cache). */
bool mb_machine_fits(const struct machine_cfg *m, struct sim_diag *d);

#endif
