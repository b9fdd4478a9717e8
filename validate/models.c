/*
 * models.c -- the equations of seed 000 as the paper writes them (Sec 2.2.2
 * Eq 2; Table 5 Eq 6-13; Table 6 Eq 14-25; Sec 3.3 Eq 27-29, 31). Each
 * function names its equations; n = s + q is the number of notifiers (m2o)
 * or readers (o2m), not counting t_0. Nothing here feeds the simulator.
 */
#include "validate.h"

#include <math.h>
#include <string.h>
#include <stdlib.h>

/* Eq 2 as the paper defines it: T_C(n_th) = R_L + R_R + c (n_th - 1), which
 * is b + c n_th only for b = R_L + R_R - c. Table 2's b is its fit's
 * least-squares intercept over 1..59 readers, not that: b + c = 376.7 ns at
 * one reader where Table 1 measured R_L + R_R = 244.4 (the paper's own
 * tables disagree; the fit's line does not pass through one reader). */
double val_contention(const struct val_params *p, int nth)
{
    return p->r_l + p->r_r + p->c * (nth - 1);
}

int val_diss_rounds(int n, int m)
{
    int r = 0;
    for (long long reach = 1; reach < n; reach *= m + 1)
        r++; /* Eq 27: r = ceil(log_{m+1} n), (m+1)^r >= n */
    return r;
}

struct val_band val_m2o_same(const struct val_params *p, int s, int q)
{
    int n = s + q;
    if (q == 0)
        return (struct val_band){
            p->r_i + n * p->r_r,    /* Eq 6: R_I + n R_R */
            p->r_i + 2 * n * p->r_r /* Eq 8: R_I + 2n R_R */
        };
    return (struct val_band){
        p->r_i + s * p->r_r + q * p->r_q, /* Eq 7: R_I + s R_R + q R_Q */
        p->r_i + 2 * (s + q) * p->r_q     /* Eq 9: R_I + 2(s+q) R_Q */
    };
}

struct val_band val_m2o_diff(const struct val_params *p, int s, int q)
{
    int n = s + q;
    if (q == 0)
        return (struct val_band){
            p->r_i + n * p->r_r,        /* Eq 10: R_I + n R_R */
            n * p->r_i + 2 * n * p->r_r /* Eq 12: n R_I + 2n R_R */
        };
    return (struct val_band){
        p->r_i + s * p->r_r + q * p->r_q,                /* Eq 11: R_I + s R_R + q R_Q */
        (s + q) * p->r_i + 2 * (s * p->r_r + q * p->r_q) /* Eq 13: (s+q) R_I + 2(s R_R + q R_Q) */
    };
}

struct val_band val_o2m_same(const struct val_params *p, int s, int q, bool phi)
{
    int n = s + q;
    if (phi)
        return (struct val_band){
            p->r_i + val_contention(p, n), /* Eq 16: R_I + T_C(n_th) */
            p->r_i + n * p->r_r            /* Eq 19: R_I + n_th R_R */
        };
    if (q == 0)
        return (struct val_band){
            p->r_i + p->r_r,    /* Eq 14: R_I + R_R */
            p->r_i + n * p->r_r /* Eq 17: R_I + n R_R */
        };
    return (struct val_band){
        p->r_i + p->r_q,             /* Eq 15: R_I + R_Q */
        p->r_i + n * p->r_r + p->r_q /* Eq 18: R_I + n R_R + R_Q */
    };
}

struct val_band val_o2m_diff(const struct val_params *p, int s, int q, bool phi)
{
    int n = s + q;
    if (phi)
        return (struct val_band){
            n * p->r_i + p->r_r,    /* Eq 22: n_th R_I + R_R */
            p->r_i + 2 * n * p->r_r /* Eq 25: R_I + 2 n_th R_R */
        };
    if (q == 0)
        return (struct val_band){
            n * p->r_i + p->r_r,    /* Eq 20: n R_I + R_R */
            p->r_i + 2 * s * p->r_r /* Eq 23: R_I + 2s R_R */
        };
    return (struct val_band){
        (s + q) * p->r_i + p->r_q,                       /* Eq 21: (s+q) R_I + R_Q */
        (s + q) * p->r_i + 2 * (s * p->r_r + q * p->r_q) /* Eq 24: (s+q) R_I + 2(s R_R + q R_Q) */
    };
}

/* One round's T_min, Eq 27's R_I + m R_R (Eq 29's R_I + m T_C(m) with
 * contention), over the peers the generator reads: peer j is j * reach
 * threads back (mod n), and one that wraps onto the thread itself is a read
 * of its own line, R_L, not another notification (barrier_dissemination.c
 * keeps all m reads). */
static double diss_round_min(const struct val_params *p, int n, long reach, int m, bool contend)
{
    int own = 0;
    for (int j = 1; j <= m; j++)
        own += (long)j * reach % n == 0;
    int far = m - own;
    double per_peer = contend ? val_contention(p, far) : p->r_r;
    return p->r_i + far * per_peer + own * p->r_l;
}

struct val_band val_diss(const struct val_params *p, int n, int m, bool phi)
{
    int r = val_diss_rounds(n, m);
    struct val_band t = {0,
                         r * (p->r_i + 2 * p->r_r) * (m + 1)}; /* Eq 28: r (R_I + 2 R_R)(m + 1) */
    long reach = 1;
    for (int i = 0; i < r; i++) {
        t.min += diss_round_min(p, n, reach, m, phi); /* Eq 27 (Eq 29 on Xeon Phi) */
        reach = reach * (m + 1) % n;
    }
    return t;
}

struct val_band val_diss_socketroot(const struct val_params *p, int n0, int n1, int m)
{
    struct val_band a = val_diss(p, n0, m, false), b = val_diss(p, n1, m, false);
    return (struct val_band){
        fmax(a.min, b.min) + p->r_i + p->r_q, /* Eq 31: max T_diss,min + R_I + R_Q */
        fmax(a.max, b.max) + 2 * p->r_i +
            (n0 + n1) * p->r_q /* Eq 31: max T_diss,max + 2R_I + nR_Q */
    };
}

/* ---------------------------------------------------------------- trees (Sec 3.2, 4.1, 5) */

/*
 * The notification trees along the tree workloads/gen/tree.c builds:
 * threads lo .. hi-1 below `parent`; the first c = min(k, hi - lo) form the
 * parent's group (one line), the rest are split evenly into c + 1 subtrees
 * (the parent's further groups and each child's), each built the same way.
 * A level's cost comes from its group's size c (level()); a tree costs its
 * top level plus its costliest subtree.
 */
typedef struct val_band (*level_fn)(const struct val_params *p, int c);

static struct val_band ntree(const struct val_params *p, int lo, int hi, int k, level_fn level)
{
    if (lo >= hi)
        return (struct val_band){0, 0};
    int c = hi - lo < k ? hi - lo : k;
    int rest = hi - lo - c, parts = c + 1, at = lo + c;
    struct val_band worst = {0, 0};
    for (int i = 0; i < parts; i++) {
        int len = rest / parts + (i < rest % parts);
        struct val_band sub = ntree(p, at, at + len, k, level);
        worst = (struct val_band){fmax(worst.min, sub.min), fmax(worst.max, sub.max)};
        at += len;
    }
    struct val_band top = level(p, c);
    return (struct val_band){top.min + worst.min, top.max + worst.max};
}

/* Eq 26 (Sec 3.2, the one-to-many tree): the parent writes the group's
 * line, its c readers contend: R_R + T_C(c); R_R + 2c R_R. */
static struct val_band o2m_level(const struct val_params *p, int c)
{
    return (struct val_band){p->r_r + val_contention(p, c), p->r_r + 2 * c * p->r_r};
}

/* Sec 3.1 (the many-to-one tree, Fig 7b): "each group of children and
 * parent behaves like the single-line synchronization", Table 5's same-line
 * row for the group's c notifiers: Eq 6 R_I + c R_R; Eq 8 R_I + 2c R_R. */
static struct val_band m2o_level(const struct val_params *p, int c)
{
    return val_m2o_same(p, c, 0);
}

struct val_band val_ntree(const struct val_params *p, int n, int k)
{
    return ntree(p, 1, n, k > 0 ? k : 1, o2m_level);
}

struct val_band val_m2o_ntree(const struct val_params *p, int n, int k)
{
    return ntree(p, 1, n, k > 0 ? k : 1, m2o_level);
}

int val_tree_parent(enum val_shape s, int t)
{
    if (t <= 0)
        return -1;
    int high = 1;
    while (high * 2 <= t)
        high *= 2;
    switch (s) {
    case VAL_SHAPE_FLAT:
        return 0;
    case VAL_SHAPE_BINARY:
        return (t - 1) / 2;
    case VAL_SHAPE_BINOMIAL:
        break;
    }
    return t - high; /* binomial: t without its highest bit */
}

/* Eq 33: one level of the reduction tree, a parent with k = s + q children,
 * q of them in the other socket: their transfers cost R_Q, not R_R (Sec
 * 4.1.1's rule, my reading for Eq 33). */
static struct val_band red_level(const struct val_params *p, int s, int q)
{
    double far = q ? q * p->r_q : 0; /* R_Q is NaN on one socket */
    return (struct val_band){p->r_i + 2 * ((s + 1) * p->r_r + far + p->r_l),
                             p->r_i + 2 * ((2 * s + 1) * p->r_r + 2 * far + p->r_l)};
}

/* Eq 32's T_data for a parent with k children, q of them in the other
 * socket, copying `lines` lines (0: the one line of a single-line
 * broadcast). Sandy Bridge: R_R (R_Q across sockets, Sec 4.1.1), or Eq 4's
 * q + o N. Xeon Phi: "the copy of the data involves contention" (Sec 4.1.2),
 * Eq 2's T_C(k); for N lines the slope o of the multi-line model with b as
 * the intercept, "affected by the contention caused by the rest of
 * children" (Sec 4.2.2; Sec 2.2.3.2: o "can be combined with the c, b, and
 * a terms from the contention model"): b + c k + o N. */
static double bcast_data(const struct val_params *p, int k, int q, bool phi, int lines)
{
    if (phi)
        return lines ? p->b + p->c * k + p->mo * lines : val_contention(p, k);
    if (lines) /* across sockets Table 3's inter row; "we ignore QPI congestion" (Sec 4.2.1) */
        return q ? fmax(val_multiline(p, lines), val_multiline_inter(p, 0, lines))
                 : val_multiline(p, lines);
    return q ? fmax(p->r_r, p->r_q) : p->r_r;
}

/* Eq 32's level with Tables 5-6 (single line): T_o2m + T_data + T_m2o, the
 * inter-socket columns when q of the children are in the other socket. */
static struct val_band bcast_level2(const struct val_params *p, int s, int q, bool phi, int lines)
{
    struct val_band o = val_o2m_same(p, s, q, phi), m = val_m2o_same(p, s, q);
    double d = bcast_data(p, s + q, q, phi, lines);
    return (struct val_band){o.min + d + m.min, o.max + d + m.max};
}

static struct val_band bcast_level(const struct val_params *p, int k, bool phi)
{
    return bcast_level2(p, k, 0, phi, 0);
}

/* T(node) = T_lev(k_node) + max over children T(child), T(leaf) = 0, over
 * the tree parent[] (parent[t] < t, so children come after parents);
 * socket[t] (NULL: one socket) splits each node's children into those of
 * its own socket and the others. */
static struct val_band parents_cost(const struct val_params *p, const int *parent,
                                    const int *socket, int n, bool phi, bool reduce, int lines)
{
    int *kids = calloc((size_t)n, sizeof *kids), *far = calloc((size_t)n, sizeof *far);
    struct val_band *worst = calloc((size_t)n, sizeof *worst), root = {0, 0};
    for (int t = 1; t < n; t++) {
        kids[parent[t]]++;
        far[parent[t]] += socket && socket[t] != socket[parent[t]];
    }
    for (int t = n - 1; t >= 0; t--) {
        int s = kids[t] - far[t], q = far[t];
        struct val_band lev = !kids[t] ? (struct val_band){0, 0}
                              : reduce ? red_level(p, s, q)
                                       : bcast_level2(p, s, q, phi, lines);
        struct val_band c = {lev.min + worst[t].min, lev.max + worst[t].max};
        if (t == 0) {
            root = c;
            break;
        }
        struct val_band *w = &worst[parent[t]];
        *w = (struct val_band){fmax(w->min, c.min), fmax(w->max, c.max)};
    }
    free(kids);
    free(far);
    free(worst);
    return root;
}

static struct val_band tree_cost(const struct val_params *p, enum val_shape s, int n,
                                 const int *socket, bool phi, bool reduce, int lines)
{
    int *parent = malloc((size_t)n * sizeof *parent);
    for (int t = 0; t < n; t++)
        parent[t] = t ? val_tree_parent(s, t) : -1;
    struct val_band b = parents_cost(p, parent, socket, n, phi, reduce, lines);
    free(parent);
    return b;
}

struct val_band val_bcast_parents(const struct val_params *p, const int *parent, int n, bool phi)
{
    return parents_cost(p, parent, NULL, n, phi, false, 0);
}

struct val_band val_bcast_tree_sockets(const struct val_params *p, enum val_shape s, int n,
                                       const int *socket)
{
    return tree_cost(p, s, n, socket, false, false, 0);
}

struct val_band val_reduce_tree_sockets(const struct val_params *p, enum val_shape s, int n,
                                        const int *socket)
{
    return tree_cost(p, s, n, socket, false, true, 0);
}

/* ---- Eq 32's search */

struct search {
    const struct val_params *p;
    bool phi;
    double *best; /* best[s]: T_min of the best tree of s threads */
    int **split;  /* split[s]: its subtree sizes, 0-terminated */
    int part[VAL_SEARCH_ALL + 1], cand[VAL_SEARCH_ALL + 1];
};

/* Every partition of `left` into parts of at most `max`, non-increasing,
 * after the k parts in x->part: keeps the cheapest for size s. */
static void partitions(struct search *x, int s, int left, int max, int k)
{
    if (left == 0) {
        double worst = 0;
        for (int i = 0; i < k; i++)
            worst = fmax(worst, x->best[x->part[i]]);
        double t = bcast_level(x->p, k, x->phi).min + worst;
        if (t < x->best[s]) {
            x->best[s] = t;
            memcpy(x->split[s], x->part, (size_t)k * sizeof(int));
            x->split[s][k] = 0;
        }
        return;
    }
    for (int v = max < left ? max : left; v >= 1; v--) {
        x->part[k] = v;
        partitions(x, s, left - v, v, k + 1);
    }
}

/* Even splits of s-1 into k subtrees, k = 1..s-1. */
static void even_splits(struct search *x, int s)
{
    for (int k = 1; k < s; k++) {
        int base = (s - 1) / k, extra = (s - 1) % k;
        double t = bcast_level(x->p, k, x->phi).min + x->best[base + (extra > 0)];
        if (t < x->best[s]) {
            x->best[s] = t;
            for (int i = 0; i < k; i++)
                x->split[s][i] = base + (i < extra);
            x->split[s][k] = 0;
        }
    }
}

/* Lays out the best tree of s threads from id `root` in preorder; returns
 * the next free id. */
static int lay_out(const struct search *x, int s, int root, int *parent)
{
    int next = root + 1;
    for (int i = 0; x->split[s][i]; i++) {
        parent[next] = root;
        next = lay_out(x, x->split[s][i], next, parent);
    }
    return next;
}

struct val_band val_bcast_search(const struct val_params *p, int n, bool phi, int *parent)
{
    struct search x = {.p = p, .phi = phi};
    x.best = malloc((size_t)(n + 1) * sizeof *x.best);
    x.split = malloc((size_t)(n + 1) * sizeof *x.split);
    for (int s = 0; s <= n; s++) {
        x.split[s] = calloc((size_t)s + 1, sizeof **x.split);
        x.best[s] = s <= 1 ? 0 : INFINITY;
        if (s <= 1)
            continue;
        if (s <= VAL_SEARCH_ALL)
            partitions(&x, s, s - 1, s - 1, 0);
        else
            even_splits(&x, s);
    }
    parent[0] = -1;
    lay_out(&x, n, 0, parent);
    for (int s = 0; s <= n; s++)
        free(x.split[s]);
    free(x.split);
    free(x.best);
    return val_bcast_parents(p, parent, n, phi);
}

struct val_band val_bcast_tree(const struct val_params *p, enum val_shape s, int n, bool phi)
{
    return tree_cost(p, s, n, NULL, phi, false, 0); /* T_data: the one line */
}

struct val_band val_reduce_tree(const struct val_params *p, enum val_shape s, int n)
{
    return tree_cost(p, s, n, NULL, false, true, 0);
}

/* T_m(N), N lines copied by one thread: Eq 4 (Sandy Bridge), q + o N, or
 * Eq 5 (Xeon Phi, p > 0), q + o N - p / N. */
double val_multiline(const struct val_params *p, int lines)
{
    return p->mq + p->mo * lines - (lines > 0 ? p->mp / lines : 0);
}

double val_multiline_inter(const struct val_params *p, int n, int lines)
{
    if (!(p->xq > 0 || p->xo > 0))
        return val_multiline(p, lines);
    return p->xq + p->xo * lines + p->xc * n * lines; /* Eq 4: q + o N + c n N */
}

/* Eq 35 (T_min only; the band is the point [T_min, T_min]). */
struct val_band val_reduce_binomial(const struct val_params *p, int n0, int n1, int lines)
{
    double tm = val_multiline(p, lines);
    double stage = 2 * (p->r_i + p->r_r) + tm; /* T_stage = 2(R_I + R_R) + T_m(1, N) */
    int n = n0 > n1 ? n0 : n1;
    double t = val_diss_rounds(n, 1) * stage; /* ceil(log2(n + 1)) T_stage */
    if (n1 > 0)
        t += 2 * (p->r_i + p->r_q) +
             val_multiline_inter(p, 1, lines); /* T_inter = 2(R_I + R_Q) + T_m(1, N) */
    return (struct val_band){t, t};
}

/* ---------------------------------------------------------------- more (Eq 1, 30, 32; Sec 3.3.1)
 */

struct val_band val_pingpong(const struct val_params *p, bool inter)
{
    double x = inter ? p->r_q : p->r_r;
    double half = p->r_l + 2 * x; /* Eq 1: RTT/2 = R_L + R_{R,*} + R_{R,M} (or R_Q) */
    return (struct val_band){2 * half, 2 * half}; /* one iteration: the whole RTT */
}

int val_multim_auto(int n, int *ms, int max)
{
    int r = 0;
    long long reach = 1;
    for (; reach * 3 < n && r < max; reach *= 3)
        ms[r++] = 2;
    if (r < max)
        ms[r++] = (int)((n + reach - 1) / reach - 1); /* the least m with (m+1) reach >= n */
    return r;
}

struct val_band val_diss_multim(const struct val_params *p, int n, const int *ms, int rounds)
{
    struct val_band t = {0, 0};
    long reach = 1;
    for (int i = 0; i < rounds; i++) {
        int m = ms[i];
        t.min += diss_round_min(p, n, reach, m, false); /* Sec 3.3.1: R_I + m_i R_R */
        t.max += (p->r_i + 2 * p->r_r) * (m + 1);       /* Eq 28 with round i's m */
        reach = reach * (m + 1) % n;
    }
    return t;
}

struct val_band val_diss_pairwise(const struct val_params *p, int n0, int n1, int m)
{
    struct val_band a = val_diss(p, n0, m, false), b = val_diss(p, n1, m, false);
    double tm1 = val_multiline_inter(p, n0 + n1, 1); /* T_m(n, 1) */
    return (struct val_band){
        fmax(a.min, b.min) + p->r_i + p->r_q, /* Eq 30: max T_diss,min + R_I + R_Q */
        fmax(a.max, b.max) + 2 * (p->r_i + 2 * tm1) +
            abs(n0 - n1) * p->r_q /* Eq 30: max T_diss,max + 2(R_I + 2T_m(n,1)) + |n0-n1| R_Q */
    };
}

struct val_band val_bcast_multiline(const struct val_params *p, enum val_shape s, int n, int lines,
                                    bool phi)
{
    return tree_cost(p, s, n, NULL, phi, false, lines); /* Eq 32, T_data of N lines */
}

struct val_band val_bcast_multiline_sockets(const struct val_params *p, enum val_shape s, int n,
                                            int lines, const int *socket)
{
    return tree_cost(p, s, n, socket, false, false, lines);
}

/* ------------------------------------------------------------ seed 004 */

double val_scc_mpb_cycles(int routers, double core_ghz, double mesh_ghz)
{
    return 45.0 + 8.0 * routers * core_ghz / mesh_ghz;
}

double val_scc_dram_cycles(int routers, double core_ghz, double mesh_ghz)
{
    return 40.0 + 8.0 * routers * core_ghz / mesh_ghz;
}

/* ------------------------------------------------------------ seed 001 */

double val_mpi_shm(long bytes, long chunk, const struct val_copy_rates *r)
{
    double send_rate = fmin(r->lhm, r->shs), recv_rate = fmin(r->lmm, r->shm); /* Eq 2, 3 */
    long n = (bytes + chunk - 1) / chunk;
    double t = 0, prev_r = 0;
    for (long i = 0; i < n; i++) {
        long c = i < n - 1 ? chunk : bytes - chunk * (n - 1);
        double s = (double)c / send_rate, rr = (double)c / recv_rate;
        t += i == 0 ? s : fmax(s, prev_r); /* Eq 1 */
        prev_r = rr;
    }
    return t + prev_r;
}
