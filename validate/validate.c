/*
 * validate.c -- which model of seed 000 applies to which generator and thread
 * count (the table val_algos), where a generator's threads run, and the two
 * parametrisations: the config's `model` section (the paper's Tables 1-2)
 * and the simulator's own microbenchmark (`ccsim microbench`).
 *
 * Placement: the generators pin thread t to core t % cores, and cores fill
 * socket 0 first (cores / sockets per socket). Thread 0 is t_0 (the notified
 * thread of m2o, the notifier of o2m); s counts the other threads in its
 * socket, q those in other sockets.
 */
#include "validate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Eq 2 defines T_C(n) = R_L + R_R + c (n - 1) = b + c n: the fit gives the
 * slope c, and b is R_L + R_R - c by that definition (the least-squares
 * intercept the microbenchmark also prints is not the equation's b: the
 * simulated curve has a step at the second reader). */
void val_params_fitted(double r_l, double r_r, double r_q, double r_i, double r_qi, double c,
                       double q, double o, struct val_params *p)
{
    double eq2_b = r_l + r_r - c; /* Eq 2: T_C(1) = R_L + R_R */
    *p = (struct val_params){.r_l = r_l,
                             .r_r = r_r,
                             .r_q = r_q,
                             .r_i = r_i,
                             .r_qi = r_qi,
                             .b = eq2_b,
                             .c = c,
                             .mq = q,
                             .mo = o};
}

/*
 * The modelled algorithms. Columns of Tables 5-6: "intra" when every thread
 * is in socket 0 (and not Xeon Phi), "inter" when some are in socket 1,
 * "phi" on a GOLS machine (one socket). Table 5 has one column for intra and
 * Xeon Phi.
 *
 *   generator                   intra    inter    phi
 *   m2o:lines=same              6, 8     7, 9     6, 8
 *   m2o:lines=diff              10, 12   11, 13   10, 12
 *   o2m:lines=same              14, 17   15, 18   16, 19
 *   o2m:lines=diff              20, 23   21, 24   22, 25
 *   barrier-dissemination:m=K   27, 28   none     29, 28
 *   barrier-socketroot:m=K      27, 28   31       29, 28 (one socket: dissemination)
 *   m2o-tree (k=4)              6/8 a group, along the tree (Sec 3.1); none across sockets
 *   o2m-tree (k=4)              26       none     26
 *   bcast-tree:shape=S          32       32 *     32 (T_lev from Eq 14/17 or 16/19, 6/8)
 *   reduce-tree:shape=S         33-34    33-34 *  33-34
 *     (* Sec 4.1.1: a child in the other socket costs R_Q, its level takes
 *        the inter columns 15/18 and 7/9; for the reduction, my reading)
 *   reduce-binomial:lines=N     35       35 (QPI) 35 (T_min only: the band is a point)
 *   pingpong (2 threads)        1        1 (R_Q)  1 (the band is a point: 2 RTT/2)
 *   barrier-multim (m=auto)     R_I + m_i R_R (Sec 3.3.1's text, also on Xeon
 *                               Phi) and 28, summed per round; none across sockets
 *   barrier-pairwise:m=K        27, 28   30       29, 28 (one socket: dissemination)
 *   bcast-multiline:lines=N     32 with T_data = T_m(N), Eq 4 (across sockets Table 3's
 *                               inter row, without QPI congestion: Sec 4.2.1)
 *   mpi-shm:bytes=B (2 threads) seed 001 Eq 1-3, throughputs measured at size B
 *                               by simulation (--params paper too: the paper
 *                               measures them with its own microbenchmarks)
 */
const struct val_algo val_algos[] = {
    {"m2o:lines=same", VAL_M2O_SAME, 0, "Eq 6/8 (intra, Phi), 7/9 (inter)", VAL_SHAPE_FLAT},
    {"m2o:lines=diff", VAL_M2O_DIFF, 0, "Eq 10/12 (intra, Phi), 11/13 (inter)", VAL_SHAPE_FLAT},
    {"o2m:lines=same", VAL_O2M_SAME, 0, "Eq 14/17 (intra), 15/18 (inter), 16/19 (Phi)",
     VAL_SHAPE_FLAT},
    {"o2m:lines=diff", VAL_O2M_DIFF, 0, "Eq 20/23 (intra), 21/24 (inter), 22/25 (Phi)",
     VAL_SHAPE_FLAT},
    {"barrier-dissemination:m=1", VAL_DISS, 1, "Eq 27/28 (intra), 29/28 (Phi)", VAL_SHAPE_FLAT},
    {"barrier-dissemination:m=2", VAL_DISS, 2, "Eq 27/28 (intra), 29/28 (Phi)", VAL_SHAPE_FLAT},
    {"barrier-socketroot:m=1", VAL_SOCKETROOT, 1, "Eq 31 (two sockets), else 27/28",
     VAL_SHAPE_FLAT},
    {"m2o-tree", VAL_M2O_NTREE, 4, "Sec 3.1: Eq 6/8 a group (one socket)", VAL_SHAPE_FLAT},
    {"o2m-tree", VAL_NTREE, 4, "Eq 26 (one socket)", VAL_SHAPE_FLAT},
    {"bcast-tree:shape=flat", VAL_BCAST_TREE, 0, "Eq 32 (one socket)", VAL_SHAPE_FLAT},
    {"bcast-tree:shape=binary", VAL_BCAST_TREE, 0, "Eq 32 (one socket)", VAL_SHAPE_BINARY},
    {"bcast-tree:shape=binomial", VAL_BCAST_TREE, 0, "Eq 32 (one socket)", VAL_SHAPE_BINOMIAL},
    {"reduce-tree:shape=flat", VAL_REDUCE_TREE, 0, "Eq 33-34 (one socket)", VAL_SHAPE_FLAT},
    {"reduce-tree:shape=binary", VAL_REDUCE_TREE, 0, "Eq 33-34 (one socket)", VAL_SHAPE_BINARY},
    {"reduce-tree:shape=binomial", VAL_REDUCE_TREE, 0, "Eq 33-34 (one socket)", VAL_SHAPE_BINOMIAL},
    {"reduce-binomial:lines=64", VAL_REDUCE_BINOMIAL, 64, "Eq 35 (T_min)", VAL_SHAPE_BINOMIAL},
    {"pingpong", VAL_PINGPONG, 0, "Eq 1 (the iteration is the RTT)", VAL_SHAPE_FLAT},
    {"barrier-multim", VAL_MULTIM, 0, "Sec 3.3.1: R_I + m_i R_R, Eq 28, summed over rounds",
     VAL_SHAPE_FLAT},
    {"barrier-pairwise:m=1", VAL_PAIRWISE, 1, "Eq 30 (two sockets), else 27/28", VAL_SHAPE_FLAT},
    {"bcast-multiline:lines=128", VAL_BCAST_MULTILINE, 128, "Eq 32 with Eq 4", VAL_SHAPE_FLAT},
    {"mpi-shm:bytes=4096", VAL_MPI_SHM, 4096, "seed 001 Eq 1-3", VAL_SHAPE_FLAT},
    {"mpi-shm:bytes=16384", VAL_MPI_SHM, 16384, "seed 001 Eq 1-3", VAL_SHAPE_FLAT},
    {"mpi-shm:bytes=65536", VAL_MPI_SHM, 65536, "seed 001 Eq 1-3", VAL_SHAPE_FLAT},
    {"mpi-shm:bytes=262144", VAL_MPI_SHM, 262144, "seed 001 Eq 1-3", VAL_SHAPE_FLAT},
};
const int val_nalgos = (int)(sizeof val_algos / sizeof val_algos[0]);

bool val_runs(const struct val_algo *a, int threads)
{
    return (a->kind != VAL_PINGPONG && a->kind != VAL_MPI_SHM) || threads == 2;
}

static int socket_of(const struct val_machine *vm, int t)
{
    int per = vm->cores / vm->sockets;
    return per > 0 ? (t % vm->cores) / per : 0;
}

/* The sockets threads 0..threads-1 run in. */
static int sockets_used(const struct val_machine *vm, int threads)
{
    int used = 0;
    for (int sock = 0; sock < vm->sockets; sock++)
        for (int t = 0; t < threads; t++)
            if (socket_of(vm, t) == sock) {
                used++;
                break;
            }
    return used;
}

/* s: threads 1..threads-1 in thread 0's socket; q: the others. */
static void split(const struct val_machine *vm, int threads, int *s, int *q)
{
    *s = *q = 0;
    for (int t = 1; t < threads; t++) {
        if (socket_of(vm, t) == socket_of(vm, 0))
            ++*s;
        else
            ++*q;
    }
}

static bool diss_model(const struct val_algo *a, int threads, int s, int q,
                       const struct val_machine *vm, const struct val_params *p,
                       struct val_band *out, const char **why)
{
    if (q == 0) {
        *out = val_diss(p, threads, a->m, vm->phi);
        return true;
    }
    bool two = sockets_used(vm, threads) == 2; /* Eq 30 and 31: two sockets */
    if (a->kind == VAL_SOCKETROOT && two) {
        *out = val_diss_socketroot(p, s + 1, q, a->m);
        return true;
    }
    if (a->kind == VAL_PAIRWISE && two) {
        if (!(p->mq > 0 || p->mo > 0)) {
            *why = "no multi-line figures (q, o of Eq 4) for Eq 30's T_m(n, 1)";
            return false;
        }
        *out = val_diss_pairwise(p, s + 1, q, a->m);
        return true;
    }
    *why = a->kind == VAL_DISS ? "across sockets: the paper gives no equation (Sec 3.3.2)"
                               : "across more than two sockets: the paper gives no equation "
                                 "(Eq 30, 31 are for two)";
    return false;
}

static bool tree_model(const struct val_algo *a, int threads, int s, int q,
                       const struct val_machine *vm, const struct val_params *p,
                       struct val_band *out, const char **why)
{
    if (a->kind == VAL_REDUCE_BINOMIAL) {
        if (!(p->mq > 0 || p->mo > 0)) {
            *why = "no multi-line figures (q, o of Eq 4)";
            return false;
        }
        if (sockets_used(vm, threads) > 2) { /* the generator's tree of socket roots */
            *why = "across more than two sockets: Eq 35 prices one stage between sockets";
            return false;
        }
        *out = val_reduce_binomial(p, s + 1, q, a->m);
        return true;
    }
    if (a->kind == VAL_BCAST_MULTILINE && !(p->mq > 0 || p->mo > 0)) {
        *why = "no multi-line figures (q, o of Eq 4)";
        return false;
    }
    if (q > 0 && a->kind != VAL_NTREE && a->kind != VAL_M2O_NTREE) {
        /* Sec 4.1.1, 4.2.1: the same equations, cross-socket edges at R_Q
         * (N lines: Table 3's inter row) */
        int *socket = malloc((size_t)threads * sizeof *socket);
        for (int t = 0; t < threads; t++)
            socket[t] = socket_of(vm, t);
        *out = a->kind == VAL_BCAST_TREE ? val_bcast_tree_sockets(p, a->shape, threads, socket)
               : a->kind == VAL_REDUCE_TREE
                   ? val_reduce_tree_sockets(p, a->shape, threads, socket)
                   : val_bcast_multiline_sockets(p, a->shape, threads, a->m, socket);
        free(socket);
        return true;
    }
    if (q > 0) {
        *why = "across sockets: the paper gives no equation for this tree";
        return false;
    }
    if (a->kind == VAL_BCAST_MULTILINE) {
        *out = val_bcast_multiline(p, a->shape, threads, a->m, vm->phi);
        return true;
    }
    if (a->kind == VAL_NTREE && !(p->b != 0 || p->c > 0)) {
        *why = "no contention figures (b, c of Eq 2) for Eq 26's T_C(k)";
        return false;
    }
    if (a->kind == VAL_NTREE)
        *out = val_ntree(p, threads, a->m);
    else if (a->kind == VAL_M2O_NTREE)
        *out = val_m2o_ntree(p, threads, a->m);
    else if (a->kind == VAL_BCAST_TREE)
        *out = val_bcast_tree(p, a->shape, threads, vm->phi);
    else
        *out = val_reduce_tree(p, a->shape, threads);
    return true;
}

bool val_model(const struct val_algo *a, int threads, const struct val_machine *vm,
               const struct val_params *p, struct val_band *out, const char **why)
{
    int s, q;
    split(vm, threads, &s, &q);
    *why = NULL;
    if (threads > vm->cores) {
        *why = "threads share cores (more than the machine's cores): the models price a thread "
               "a core";
        return false;
    }
    if (q > 0 && !(p->r_q > 0)) {
        *why = "inter-socket, but no R_Q";
        return false;
    }
    switch (a->kind) {
    case VAL_M2O_SAME:
        *out = val_m2o_same(p, s, q);
        return true;
    case VAL_M2O_DIFF:
        *out = val_m2o_diff(p, s, q);
        return true;
    case VAL_O2M_SAME:
        *out = val_o2m_same(p, s, q, vm->phi);
        return true;
    case VAL_O2M_DIFF:
        *out = val_o2m_diff(p, s, q, vm->phi);
        return true;
    case VAL_DISS:
    case VAL_SOCKETROOT:
    case VAL_PAIRWISE:
        return diss_model(a, threads, s, q, vm, p, out, why);
    case VAL_MPI_SHM: {
        struct val_copy_rates r;
        if (!p->rates || !p->rates(p->rates_ctx, a->m, &r)) {
            *why = "no load/store throughputs by cache state (seed 001's microbenchmarks)";
            return false;
        }
        double t = val_mpi_shm(a->m, 32768, &r); /* the generator's default chunk */
        *out = (struct val_band){t, t};
        return true;
    }
    case VAL_PINGPONG:
        if (threads != 2) {
            *why = "pingpong runs exactly 2 threads";
            return false;
        }
        *out = val_pingpong(p, q > 0);
        return true;
    case VAL_MULTIM: {
        if (q > 0) {
            *why = "across sockets: the paper gives no equation (Sec 3.3.2)";
            return false;
        }
        int ms[64];
        *out = val_diss_multim(p, threads, ms, val_multim_auto(threads, ms, 64));
        return true;
    }
    default:
        return tree_model(a, threads, s, q, vm, p, out, why);
    }
}
