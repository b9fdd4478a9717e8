/*
 * radix.c -- the collectives of seed 003 (Nishtala & Yelick,
 * "Optimizing Collective Communication on Multicores"): the flat and tree
 * barriers of Sec 2.2 and the flat and radix-tree reductions of Sec 3-4,
 * strictly or loosely synchronised.
 *
 * Trees are k-nomial ("extensions of the binomial tree where a radix other
 * than 2 is used", Sec 2.2): with radix R the children of t are t + j*R^l
 * (j = 1..R-1) for every level l below t's lowest non-zero base-R digit; the
 * parent of t is t with that digit cleared. R >= n-1 makes every thread a
 * child of thread 0 (flat); R = 1 is a chain (the parent of t is t-1, Table
 * 2's radix 1).
 */
#include "gen_impl.h"

#include <stdio.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- trees */

struct rtree {
    int *parent; /* -1 for thread 0 */
    int *kids;
    int maxkids;
    int **child; /* child[i][p]: the i-th child of p (ascending), or -1 */
};

static int rtree_parent(int t, int radix)
{
    if (radix == 1)
        return t - 1;
    long s = 1;
    while ((t / s) % radix == 0)
        s *= radix;
    return (int)(t - (t / s) % radix * s);
}

static void rtree_init(const struct gen *g, int radix, struct rtree *tr)
{
    int n = g->n;
    tr->parent = sim_xmalloc((size_t)n * sizeof *tr->parent);
    tr->kids = sim_xcalloc((size_t)n, sizeof *tr->kids);
    tr->parent[0] = -1;
    tr->maxkids = 0;
    for (int t = 1; t < n; t++) {
        tr->parent[t] = rtree_parent(t, radix);
        int k = ++tr->kids[tr->parent[t]];
        tr->maxkids = k > tr->maxkids ? k : tr->maxkids;
    }
    tr->child = sim_xmalloc((size_t)(tr->maxkids + 1) * sizeof *tr->child);
    for (int i = 0; i < tr->maxkids; i++) {
        tr->child[i] = sim_xmalloc((size_t)n * sizeof **tr->child);
        for (int t = 0; t < n; t++)
            tr->child[i][t] = -1;
    }
    int *seen = sim_xcalloc((size_t)n, sizeof *seen);
    for (int t = 1; t < n; t++) /* ascending: children in ascending order */
        tr->child[seen[tr->parent[t]]++][tr->parent[t]] = t;
    free(seen);
}

static void rtree_free(struct rtree *tr)
{
    for (int i = 0; i < tr->maxkids; i++)
        free(tr->child[i]);
    free(tr->child);
    free(tr->parent);
    free(tr->kids);
}

/* ---------------------------------------------------------------- barrier */

/*
 * One tree barrier on lines up[] and down[] for epoch `epoch` (Sec 2.2:
 * "each thread signals its parent once its subtree has arrived and then
 * waits for the parent to signal it"; "flags declared as volatile ints and
 * atomic counters"): a thread with children waits until its counter up[t]
 * reaches epoch*children, adds 1 to its parent's counter, waits for the
 * parent's flag down[parent] and writes its own down[t] for its children.
 */
static void tree_barrier(struct gen *g, const struct rtree *tr, const char *up, const char *down,
                         const char *epoch)
{
    char text[128];
    int *ids = sim_xmalloc((size_t)g->n * sizeof *ids), np = 0;
    for (int t = 0; t < g->n; t++)
        if (tr->kids[t] > 0)
            ids[np++] = t;
    snprintf(text, sizeof text, "wait %s[t] >= (%s)*#", up, epoch);
    gen_count_stmt(g, tr->kids, text);
    snprintf(text, sizeof text, "add %s[@] 1", up);
    gen_peer_stmt(g, tr->parent, 1, text);
    snprintf(text, sizeof text, "wait %s[@] >= %s", down, epoch);
    gen_peer_stmt(g, tr->parent, 1, text);
    gen_set_stmt(g, ids, np, "write %s[t] %s", down, epoch);
    free(ids);
}

/* barrier-radix (seed 003 Sec 2.2, Fig 1-2: "Flat" is radix n-1, "Tree"
 * the other radices): the tree barrier above, once per iteration. */
bool gen_emit_barrier_radix(struct gen *g)
{
    struct rtree tr;
    rtree_init(g, g->a->radix, &tr);
    gen_arrive_decl(g);
    gen_line(g, "up", g->n, "up[t]: its children add 1 once their subtree arrived");
    gen_line(g, "down", g->n, "down[t]: it+1 once t is released (its children spin on it)");
    gen_iter_open(g);
    gen_sync(g);
    gen_evict(g, "up", g->n);
    gen_evict(g, "down", g->n);
    gen_arrive_enter(g);
    tree_barrier(g, &tr, "up", "down", "it+1");
    gen_arrive_check(g);
    rtree_free(&tr);
    return true;
}

/* ---------------------------------------------------------------- reduction */

/* The sizes of a reduction: E elements on L lines per contribution, K
 * collectives; thread t's buffer of collective k is lines
 * buf[(t*K+k)*L .. +L-1], element e in line e/W, word e%W. */
struct rsize {
    long elems, lines, per; /* per = K*L: lines of one thread */
    int count, words;
};

/* Thread t's entry stamp (gen_stamp_clear): element 0 of its collective 0,
 * word 0 of buf[t*K*L], t+1+it*K once t entered. */
static void reduce_stamp(const struct rsize *z, char *buf, size_t size)
{
    if (z->per == 1)
        snprintf(buf, size, "buf[t]");
    else
        snprintf(buf, size, "buf[t*%ld]", z->per);
}

/* The computation phase (before sync): thread t's element e of collective
 * k is t+1+(it*K+k)+e, changing every collective and iteration; element 0
 * of collective 0 is the entry stamp, left 0 here. */
static void reduce_produce(struct gen *g, const struct rsize *z)
{
    char stamp[48];
    reduce_stamp(z, stamp, sizeof stamp);
    char to[32];
    snprintf(to, sizeof to, "%d", z->count - 1);
    gen_for(g, "k", "0", to);
    snprintf(to, sizeof to, "%ld", z->elems - 1);
    gen_for(g, "e", "0", to);
    gen_out(g, "all: write buf[t*%ld+k*%ld+e/%d].(e%%%d) t+1+it*%d+k+e", z->per, z->lines, z->words,
            z->words, z->count);
    gen_end(g);
    gen_end(g);
    gen_stamp_clear(g, "all", stamp);
}

/* One collective k (inside `for k`): for each child in ascending order
 * (the smaller subtrees first), wait for its ready flag and add its lines
 * into the own buffer (the parent pulls, one-sided, Sec 4); then signal
 * the parent. */
static void reduce_one(struct gen *g, const struct rtree *tr, const struct rsize *z,
                       const char *epoch)
{
    char wait[128], add[256];
    snprintf(wait, sizeof wait, "wait ready[@] >= %s", epoch);
    snprintf(add, sizeof add, "addline buf[t*%ld+k*%ld] buf[$+k*%ld] %ld", z->per, z->lines,
             z->lines, z->lines);
    for (int i = 0; i < tr->maxkids; i++) {
        gen_peer_stmt(g, tr->child[i], 1, wait);
        gen_peer_stmt(g, tr->child[i], z->per, add);
    }
    gen_out(g, "others: write ready[t] %s", epoch);
}

/* The check after the mark: every element of every collective at the root,
 * where the entry stamps show that every contribution was taken after its
 * thread entered. Strict: every thread checks them, as after the closing
 * barrier every thread must see the root's sums (the root arrives at it
 * once they are complete), and a thread that left the barrier early does
 * not. */
static void reduce_check(struct gen *g, const struct rsize *z, bool strict)
{
    char to[32];
    gen_mark(g);
    snprintf(to, sizeof to, "%d", z->count - 1);
    gen_for(g, "k", "0", to);
    snprintf(to, sizeof to, "%ld", z->elems - 1);
    gen_for(g, "e", "0", to);
    gen_out(g, "%s: expect buf[k*%ld+e/%d].(e%%%d) == n*(n+1)/2+n*(it*%d+k+e)",
            strict ? "all" : "0", z->lines, z->words, z->words, z->count);
    gen_end(g);
    gen_end(g);
    gen_end(g);
}

/*
 * The reduction of seed 003 Sec 3-4 with radix `radix`: count collectives
 * per measured iteration, each on its own buffers (a PGAS collective's
 * source and destination, so a thread may run ahead without overwriting
 * data its parent still reads). sync=loose: no synchronisation between the
 * collectives ("data movement can begin as soon as any thread has entered
 * the collective"): a thread goes on with collective k+1 as soon as it has
 * signalled its parent, so collectives pipeline down the tree. sync=strict:
 * a tree barrier (radix `barrier`, its own lines) after every collective,
 * the paper's "tuned barrier between each collective". Both measure count
 * collectives (and strict count barriers) per iteration, so one
 * collective's time is the iteration latency / count in both; `all: sync`
 * only opens the iteration (it is free, and a barrier's cost is the point).
 * Since a loose thread may leave while its parent still reads its buffers,
 * an extra sync before the computation phase (an iteration without a mark,
 * so not measured) keeps the next iteration from overwriting them.
 * Epochs it*K+k+1 keep every flag monotone. Each thread writes its entry
 * stamp (element 0 of its collective 0, gen_stamp_enter) right after the
 * resets, so the root's sums show that every contribution was taken after
 * its thread entered; strict, every thread checks them after the closing
 * barrier (reduce_check).
 */
static bool reduce_radix(struct gen *g, int radix)
{
    const struct gen_args *a = g->a;
    struct rsize z = {a->elements, (a->elements + g->words - 1) / g->words, 0, a->count, g->words};
    z.per = z.lines * z.count;
    if (z.per * g->n > WL_MAX_LINES)
        return gen_fail(g, "elements=%ld and count=%d need %ld lines for %d threads, more than %d",
                        z.elems, z.count, z.per * g->n, g->n, WL_MAX_LINES);
    struct rtree tr, br;
    rtree_init(g, radix, &tr);
    rtree_init(g, a->bradix, &br);
    gen_line(g, "buf", z.per * g->n,
             "buf[(t*K+k)*L ..]: thread t's L lines of collective k (user data, M); thread 0's "
             "end with the sums");
    gen_line(g, "ready", g->n, "ready[t]: it*K+k+1 once t's buffer k holds its subtree's sum");
    if (a->strict) {
        gen_line(g, "bup", g->n, "strict barrier: children add 1 once their subtree arrived");
        gen_line(g, "bdown", g->n, "strict barrier: it*K+k+1 once t is released");
    }
    gen_iter_open(g);
    gen_note(g, "the buffers are reused: no thread rewrites them while a parent may still read "
                "them (an unmeasured sync: no mark follows it)");
    gen_sync(g);
    reduce_produce(g, &z);
    gen_sync(g);
    gen_evict(g, "ready", g->n);
    if (a->strict) {
        gen_evict(g, "bup", g->n);
        gen_evict(g, "bdown", g->n);
    }
    gen_prime_own(g, "buf", z.per);
    char stamp[48], value[48];
    reduce_stamp(&z, stamp, sizeof stamp);
    snprintf(value, sizeof value, "t+1+it*%d", z.count);
    gen_stamp_enter(g, "all", stamp, value);
    char to[32];
    snprintf(to, sizeof to, "%d", z.count - 1);
    char epoch[48];
    snprintf(epoch, sizeof epoch, "it*%d+k+1", z.count);
    gen_for(g, "k", "0", to);
    reduce_one(g, &tr, &z, epoch);
    if (a->strict) {
        gen_note(g, "strict: a tree barrier of radix %d after each collective", a->bradix);
        tree_barrier(g, &br, "bup", "bdown", epoch);
    }
    gen_end(g);
    reduce_check(g, &z, a->strict);
    rtree_free(&tr);
    rtree_free(&br);
    return true;
}

/* reduce-radix (seed 003 Sec 3, Fig 3; Sec 4.1, Table 2): radix=R. */
bool gen_emit_reduce_radix(struct gen *g)
{
    return reduce_radix(g, g->a->radix);
}

/* reduce-flat (seed 003 Sec 4, Fig 4-6 "Flat": "the root thread
 * accumulates the values from all the other threads"): radix n. */
bool gen_emit_reduce_flat(struct gen *g)
{
    return reduce_radix(g, g->n);
}
