/*
 * validate.h -- the analytic models of seed 000 (Ramos & Hoefler, "Cache Line
 * Aware Algorithm Design for Cache-Coherent Architectures", Sec 2.2, 3) and
 * the table saying which model applies to which generator and thread count.
 *
 * This is the only place the paper's equations live; the simulator's timing
 * never uses them. Every model is a function of struct val_params (the
 * paper's Table 1-2 numbers, or the same figures measured by `ccsim
 * microbench`) and thread counts, and gives a band [T_min, T_max] in ns.
 *
 * validate/ is pure models (prefix val_): it runs no simulation and knows no
 * machine config. The application (cli/cli_validate.c) measures the figures
 * by simulation and hands them over as numbers.
 */
#ifndef CCSIM_VALIDATE_H
#define CCSIM_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>

/* The model parameters (ns); NAN or 0 where a machine has no such figure. */
/* Seed 001's throughputs (bytes/ns) of a copy's loads and stores by cache
 * state, for a buffer of the message's size (Sec III-B/C, Table II): load
 * hit modified, store hit shared, load miss modified, store hit modified. */
struct val_copy_rates {
    double lhm, shs, lmm, shm;
};
/* Measures them for a message of `bytes` (by simulation: the paper's
 * microbenchmarks); false if it cannot. */
typedef bool (*val_rates_fn)(void *ctx, long bytes, struct val_copy_rates *out);

struct val_params {
    double r_l, r_r, r_q, r_i, r_qi; /* Table 1 */
    double b, c;        /* contention: Table 2's slope c (Eq 2: T_C(n) = R_L + R_R + c (n - 1)) and
                           intercept b (only where the paper names b: Sec 4.2.2) */
    double mq, mo;      /* multi-line copy T_m(N) = q + o N, Eq 4 */
    double mp;          /* on Xeon Phi, Eq 5's p: T_N = q + o N - p / N (0: Eq 4) */
    val_rates_fn rates; /* seed 001: NULL if not available */
    void *rates_ctx;
    /* Table 3's inter-socket row, T_m(n, N) = q + o N + c n N (Eq 4, c the
     * QPI congestion); all 0 where there is none: the intra q, o stand in */
    double xq, xo, xc;
};

/* Seed 001, Eq 1-3: a message of `bytes` moved in chunks of `chunk` through
 * a shared buffer, sender and receiver buffers recently used: S(C) = C /
 * min(LHM, SHS), R(C) = C / min(LMM, SHM), and
 * T = S(C_1) + sum_{i=2..n} max(S(C_i), R(C_{i-1})) + R(C_n). */
double val_mpi_shm(long bytes, long chunk, const struct val_copy_rates *r);

struct val_band {
    double min, max; /* ns */
};

/* The model parameters from measured figures (--params fitted: the
 * simulator's microbenchmark): Eq 2 defines T_C(n) = R_L + R_R + c (n - 1),
 * so b is R_L + R_R - c for the measured slope c. */
void val_params_fitted(double r_l, double r_r, double r_q, double r_i, double r_qi, double c,
                       double q, double o, struct val_params *p);

/* Seed 004 (SCC, Sec IV-D, after [5]): an MPB access through the router,
 * 45 core cycles + 8 mesh cycles per router crossed (one for the own tile:
 * the paper's "45 core cycles plus 8 mesh cycles"), and a DRAM access, 40
 * core cycles + 8 d mesh cycles, d "the number of hops" in the paper, read
 * here as the routers crossed (hops + 1, as the own MPB's 8 mesh cycles
 * cross one router; the paper gives no other MPB's figure). In core cycles
 * at core_ghz with the mesh at mesh_ghz. */
double val_scc_mpb_cycles(int routers, double core_ghz, double mesh_ghz);
double val_scc_dram_cycles(int routers, double core_ghz, double mesh_ghz);

/* Eq 2: contention of n_th threads reading one line, R_L + R_R + c (n_th - 1)
 * (b + c n_th where b is R_L + R_R - c, as --params fitted makes it). */
double val_contention(const struct val_params *p, int nth);
/* r = ceil(log_{m+1} n): the least r with (m+1)^r >= n (0 for n <= 1). */
int val_diss_rounds(int n, int m);

/* Many-to-one (Table 5): s notifiers in t_0's socket, q in the other (q = 0:
 * intra-socket or Xeon Phi, Eq 6/8 and 10/12; q > 0: Eq 7/9 and 11/13). */
struct val_band val_m2o_same(const struct val_params *p, int s, int q);
struct val_band val_m2o_diff(const struct val_params *p, int s, int q);
/* One-to-many (Table 6): s readers in t_0's socket, q in the other; phi
 * selects the Xeon Phi column (Eq 16/19, 22/25; q must be 0). */
struct val_band val_o2m_same(const struct val_params *p, int s, int q, bool phi);
struct val_band val_o2m_diff(const struct val_params *p, int s, int q, bool phi);
/* m-way dissemination barrier of n threads in one socket (Eq 27-28; Eq 29's
 * T_min with contention when phi). A round's peer that wraps onto the thread
 * itself (j (m+1)^i = 0 mod n: the generator reads its own line) costs R_L. */
struct val_band val_diss(const struct val_params *p, int n, int m, bool phi);
/* Socket-root dissemination (Eq 31): n0 threads in socket 0, n1 in socket 1. */
struct val_band val_diss_socketroot(const struct val_params *p, int n0, int n1, int m);

/* The tree shapes of the broadcast and reduction generators (workloads/gen/tree.c). */
enum val_shape { VAL_SHAPE_FLAT, VAL_SHAPE_BINARY, VAL_SHAPE_BINOMIAL };
/* The parent of thread t (-1 for the root, thread 0) as workloads/gen/tree.c builds it. */
int val_tree_parent(enum val_shape s, int t);
/* Eq 26: one-to-many notification tree of n threads (root included), k
 * readers per flag, built as workloads/gen/tree.c builds o2m-tree (one socket). */
struct val_band val_ntree(const struct val_params *p, int n, int k);
/* Sec 3.1: many-to-one notification tree of n threads, k notifiers per
 * line, built as workloads/gen/tree.c builds m2o-tree (one socket); each
 * group a same-line m2o of Table 5 (Eq 6/8), the tree composed as Eq 26's. */
struct val_band val_m2o_ntree(const struct val_params *p, int n, int k);
/* Eq 32: one-line tree broadcast of n threads, T_lev(k) = T_o2m(k) + T_data
 * + T_m2o(k) with the single-line rows of Tables 5-6 (one socket); T_data
 * the line's copy, R_R (Xeon Phi: with contention, T_C(k), Sec 4.1.2). */
struct val_band val_bcast_tree(const struct val_params *p, enum val_shape s, int n, bool phi);
/* Eq 32 over any tree: parent[t] < t for t > 0, parent[0] = -1. */
struct val_band val_bcast_parents(const struct val_params *p, const int *parent, int n, bool phi);
/* Eq 32's minimisation (Sec 4): the tree of n threads with the least T_min.
 * Eq 32 makes a tree's cost its root level plus its costliest subtree, so
 * the best tree of n is a root with k children whose subtrees are best trees
 * of their sizes: a search over the partitions of n-1 into subtree sizes.
 * Up to VAL_SEARCH_ALL threads every partition is tried (that covers every
 * structurally different tree); above, only even splits (the paper's
 * pruning, Sec 3.1 and 4.1.2). Writes parent[0..n) (preorder: parent[t] <
 * t) and returns the band of that tree. */
#define VAL_SEARCH_ALL 40
struct val_band val_bcast_search(const struct val_params *p, int n, bool phi, int *parent);

/* Eq 32 and Eq 33-34 across sockets: socket[t] is thread t's socket; a
 * child in another socket than its parent costs R_Q where one in the same
 * socket costs R_R, and its level takes the inter-socket columns of Tables
 * 5-6 (Sec 4.1.1; for the reduction, my reading). */
struct val_band val_bcast_tree_sockets(const struct val_params *p, enum val_shape s, int n,
                                       const int *socket);
struct val_band val_reduce_tree_sockets(const struct val_params *p, enum val_shape s, int n,
                                        const int *socket);

/* Eq 33-34: one-line tree reduction of n threads (one socket). */
struct val_band val_reduce_tree(const struct val_params *p, enum val_shape s, int n);
/* Eq 4: T_m(N) = q + o N. */
double val_multiline(const struct val_params *p, int lines);
/* Eq 4 across sockets, n threads copying N lines each: Table 3's inter row,
 * q + o N + c n N (the intra q + o N where the machine has no inter row). */
double val_multiline_inter(const struct val_params *p, int n, int lines);
/* Eq 35: binomial reduction of `lines` lines, n0 threads in the root's socket,
 * n1 in the other (0: one socket; T_inter's copy crosses sockets: T_m(1, N)
 * of val_multiline_inter); T_min only, so min == max. */
struct val_band val_reduce_binomial(const struct val_params *p, int n0, int n1, int lines);

/* Eq 1 (Sec 2.2.1): one ping-pong iteration is the round trip, 2 (RTT/2) with
 * RTT/2 = R_L + R_R + R_R (peer in the same socket) or R_L + 2 R_Q (the
 * other): the message is cached in the sender (R_L), the receive buffer is M
 * in the receiver's cache, and the receiver polls it (R_{R,M}). A point band. */
struct val_band val_pingpong(const struct val_params *p, bool inter);
/* barrier-multim's m=auto rounds as workloads/gen/barrier_dissemination.c builds them: m = 2 while
 * 3 times the reach stays below n, then the least m reaching n; the count of rounds (at most max
 * written to ms). */
int val_multim_auto(int n, int *ms, int max);
/* Sec 3.3.1, multi-m dissemination of n threads (the Xeon Phi design): the
 * sum over rounds of the paper's "cost R_I + m_{t,i} R_R" (it writes R_R,
 * not Eq 29's T_C, for this variant) and Eq 28's (R_I + 2 R_R)(m_i + 1). */
struct val_band val_diss_multim(const struct val_params *p, int n, const int *ms, int rounds);
/* Eq 30: pair-wise dual-socket barrier, n0 threads in socket 0, n1 in socket
 * 1, m-way dissemination inside each; T_m(n, 1) of Eq 4 across sockets, n =
 * n0 + n1 (val_multiline_inter). */
struct val_band val_diss_pairwise(const struct val_params *p, int n0, int n1, int m);
/* Eq 32 with T_data of N lines (Sec 4.2, multi-line broadcast, children copy
 * from the parent's buffer): T_lev(k) = T_o2m(k) + T_data + T_m2o(k), T_data =
 * T_m(N) of Eq 4, or on Xeon Phi b + c k + o N (Sec 4.2.2). */
struct val_band val_bcast_multiline(const struct val_params *p, enum val_shape s, int n, int lines,
                                    bool phi);

/* The same across sockets (Sec 4.2.1): socket[t] as val_bcast_tree_sockets;
 * a copy from the other socket's parent takes Table 3's inter row without
 * its congestion term ("we ignore QPI congestion"), the level the inter
 * columns of Tables 5-6. */
struct val_band val_bcast_multiline_sockets(const struct val_params *p, enum val_shape s, int n,
                                            int lines, const int *socket);

/* ---------------------------------------------------------------- the table */

/* Where the threads of a generator run (generators pin thread t to core
 * t % cores; cores fill socket 0 first). */
struct val_machine {
    int cores, sockets;
    bool phi; /* the Xeon Phi columns apply (a GOLS tag-directory machine) */
};

enum val_kind {
    VAL_M2O_SAME,
    VAL_M2O_DIFF,
    VAL_O2M_SAME,
    VAL_O2M_DIFF,
    VAL_DISS,
    VAL_SOCKETROOT,
    VAL_NTREE,           /* o2m-tree: Eq 26 */
    VAL_M2O_NTREE,       /* m2o-tree: Eq 6/8 per group (Sec 3.1) */
    VAL_BCAST_TREE,      /* Eq 32 */
    VAL_REDUCE_TREE,     /* Eq 33-34 */
    VAL_REDUCE_BINOMIAL, /* Eq 35 */
    VAL_PINGPONG,        /* Eq 1 (2 threads) */
    VAL_MULTIM,          /* Sec 3.3.1 multi-m dissemination (m = 0: auto) */
    VAL_PAIRWISE,        /* Eq 30 (two sockets), else 27/28 */
    VAL_BCAST_MULTILINE, /* Eq 32 with Eq 4 (one socket) */
    VAL_MPI_SHM          /* seed 001 Eq 1-3 (2 threads; m: bytes) */
};

/* One modelled algorithm: the generator spec and which equations apply. */
struct val_algo {
    const char *spec; /* generator spec, e.g. "m2o:lines=same" */
    enum val_kind kind;
    int m; /* dissemination: peers per round; trees: k; reduce-binomial, bcast-multiline: lines */
    const char *eqs;      /* the equations, for the reader */
    enum val_shape shape; /* bcast-tree, reduce-tree */
};
extern const struct val_algo val_algos[];
extern const int val_nalgos;

/* False if the generator of a cannot run with `threads` threads (pingpong
 * needs exactly 2): the row is skipped, not simulated. */
bool val_runs(const struct val_algo *a, int threads);

/* The model band of algorithm a with `threads` threads on vm; false (and
 * a reason in why) if no model applies (e.g. dissemination across sockets). */
bool val_model(const struct val_algo *a, int threads, const struct val_machine *vm,
               const struct val_params *p, struct val_band *out, const char **why);

#endif /* CCSIM_VALIDATE_H */
