/*
 * tree.c -- trees: the parent of every thread for a shape= parameter
 * (flat, binary, binomial, kary:K, parents:...), used by the broadcast and
 * reduction generators, and the notification trees of seed 000 Sec 3.1-3.2
 * (m2o-tree, o2m-tree) with the paper's tree-building heuristic.
 */
#include "gen_impl.h"

#include <stdlib.h>

/* ---------------------------------------------------------------- shapes */

static bool check_parents(struct gen *g, const struct gen_shape *s, int *parent)
{
    if (s->nparents != g->n)
        return gen_fail(g,
                        "shape=parents: gives %d parents for %d threads (expected one per "
                        "thread)",
                        s->nparents, g->n);
    int roots = 0;
    for (int t = 0; t < g->n; t++) {
        int p = s->parents[t];
        if (p >= g->n)
            return gen_fail(g,
                            "shape=parents: the parent of thread %d is %d, not a thread "
                            "(expected -1..%d)",
                            t, p, g->n - 1);
        parent[t] = p == t ? -1 : p;
        roots += parent[t] < 0;
    }
    if (roots != 1)
        return gen_fail(g,
                        "shape=parents: %d roots (expected exactly one thread whose parent is "
                        "-1 or itself)",
                        roots);
    for (int t = 0; t < g->n; t++) {
        int steps = 0;
        for (int u = t; parent[u] >= 0; u = parent[u])
            if (++steps > g->n)
                return gen_fail(g, "shape=parents: thread %d does not lead to the root (a cycle)",
                                t);
    }
    return true;
}

static bool tree_parents(struct gen *g, const struct gen_shape *s, int *parent)
{
    if (s->kind == GEN_SHAPE_PARENTS)
        return check_parents(g, s, parent);
    parent[0] = -1;
    for (int t = 1; t < g->n; t++) {
        int high = 1;
        while (high * 2 <= t)
            high *= 2;
        switch (s->kind) {
        case GEN_SHAPE_FLAT:
            parent[t] = 0;
            break;
        case GEN_SHAPE_BINARY:
            parent[t] = (t - 1) / 2;
            break;
        case GEN_SHAPE_KARY:
            parent[t] = (t - 1) / s->k;
            break;
        case GEN_SHAPE_BINOMIAL: /* t without its highest bit */
        default:
            parent[t] = t - high;
            break;
        }
    }
    return true;
}

bool gen_tree_init(struct gen *g, struct gen_tree *tr)
{
    tr->parent = sim_xmalloc((size_t)g->n * sizeof *tr->parent);
    tr->kids = sim_xcalloc((size_t)g->n, sizeof *tr->kids);
    tr->root = 0;
    if (!tree_parents(g, &g->a->shape, tr->parent))
        return false;
    for (int t = 0; t < g->n; t++) {
        if (tr->parent[t] < 0)
            tr->root = t;
        else
            tr->kids[tr->parent[t]]++;
    }
    return true;
}

void gen_tree_free(struct gen_tree *tr)
{
    free(tr->parent);
    free(tr->kids);
}

/* ---------------------------------------------------------------- a tree's flags */

/* Thread t's socket group, and how many there are (1 when unknown). */
static int sockets_of(const struct gen *g)
{
    return g->ngroups > 1 && g->group_of ? g->ngroups : 1;
}

static int group(const struct gen *g, int t)
{
    return sockets_of(g) > 1 ? g->group_of[t] : 0;
}

void gen_tree_flag_decls(struct gen *g, const char *pwhat, const char *swhat)
{
    int S = sockets_of(g);
    char pc[200], sc[200];
    if (S == 1) {
        snprintf(pc, sizeof pc, "pflag[t]: %s", pwhat);
        snprintf(sc, sizeof sc, "sflag[t]: %s", swhat);
    } else {
        snprintf(pc, sizeof pc, "pflag[t*%d+s]: %s, for its children in socket s", S, pwhat);
        snprintf(sc, sizeof sc, "sflag[t*%d+s]: %s, its children in socket s", S, swhat);
    }
    gen_line(g, "pflag", (long)g->n * S, pc);
    gen_line(g, "sflag", (long)g->n * S, sc);
}

void gen_tree_flag_evicts(struct gen *g)
{
    gen_evict(g, "pflag", (long)g->n * sockets_of(g));
    gen_evict(g, "sflag", (long)g->n * sockets_of(g));
}

/* count[t]: t's children in socket group s. */
static void kids_in(const struct gen *g, const struct gen_tree *tr, int s, int *count)
{
    for (int t = 0; t < g->n; t++)
        count[t] = 0;
    for (int c = 0; c < g->n; c++)
        if (tr->parent[c] >= 0 && group(g, c) == s)
            count[tr->parent[c]]++;
}

/* "NAME[t]", or with S sockets "NAME[t*S+s]". */
static void flag_at(int S, int s, const char *name, char *buf, size_t size)
{
    if (S == 1)
        snprintf(buf, size, "%s[t]", name);
    else if (s == 0)
        snprintf(buf, size, "%s[t*%d]", name, S);
    else
        snprintf(buf, size, "%s[t*%d+%d]", name, S, s);
}

/* Every pflag first, then the waits: a parent's children in one socket do
 * not wait for those in the other. */
void gen_tree_notify(struct gen *g, const struct gen_tree *tr)
{
    int S = sockets_of(g);
    int *ids = sim_xmalloc((size_t)g->n * sizeof *ids);
    int *count = sim_xmalloc((size_t)g->n * sizeof *count);
    char flag[48], text[96];
    for (int s = 0; s < S; s++) {
        kids_in(g, tr, s, count);
        int np = 0;
        for (int t = 0; t < g->n; t++)
            if (count[t])
                ids[np++] = t;
        flag_at(S, s, "pflag", flag, sizeof flag);
        gen_set_stmt(g, ids, np, "write %s it+1", flag);
    }
    for (int s = 0; s < S; s++) {
        kids_in(g, tr, s, count);
        flag_at(S, s, "sflag", flag, sizeof flag);
        snprintf(text, sizeof text, "wait %s >= (it+1)*#", flag);
        gen_count_stmt(g, count, text);
    }
    free(ids);
    free(count);
}

/* `tmpl` (with @ for the flag's index) for every child: the parent's flag,
 * or with several sockets the parent's flag for the child's socket. */
static void child_stmt(struct gen *g, const struct gen_tree *tr, const char *name, const char *rest)
{
    int S = sockets_of(g);
    if (S == 1) {
        char tmpl[96];
        snprintf(tmpl, sizeof tmpl, "%s[@]%s", name, rest);
        gen_peer_stmt(g, tr->parent, 1, tmpl);
        return;
    }
    int *ids = sim_xmalloc((size_t)g->n * sizeof *ids);
    for (int p = 0; p < g->n; p++)
        for (int s = 0; s < S; s++) {
            int cnt = 0;
            for (int t = 0; t < g->n; t++)
                if (tr->parent[t] == p && group(g, t) == s)
                    ids[cnt++] = t;
            if (cnt)
                gen_set_stmt(g, ids, cnt, "%s[%d]%s", name, p * S + s, rest);
        }
    free(ids);
}

void gen_tree_child_wait(struct gen *g, const struct gen_tree *tr)
{
    child_stmt(g, tr, "wait pflag", " >= it+1");
}

void gen_tree_child_done(struct gen *g, const struct gen_tree *tr)
{
    child_stmt(g, tr, "add sflag", " 1");
}

/* ---------------------------------------------------------------- notification trees */

/* Groups of a notification tree: group i is threads first[i] .. first[i] +
 * size[i] - 1, notified by (or notifying) parent[i] through line flag[i]. */
struct ntree {
    int count;
    int *parent, *first, *size;
};

/*
 * seed 000 Sec 3.2's simplification of the tree search (also used for the
 * m2o tree of Sec 3.1): the parent's flag is read by the next k threads;
 * the remaining ones are split evenly among the available parents (the
 * parent and the k threads just notified), and each part forms a subtree of
 * its parent built the same way. A parent may thus own several groups, each
 * with its own line (single-use synchronization lines); threads lo .. hi-1
 * are the descendants still to place.
 */
static void build(struct ntree *nt, int parent, int lo, int hi, int k)
{
    if (lo >= hi)
        return;
    int c = hi - lo < k ? hi - lo : k;
    int i = nt->count++;
    nt->parent[i] = parent;
    nt->first[i] = lo;
    nt->size[i] = c;
    int rest = hi - lo - c, parts = c + 1, at = lo + c;
    for (int p = 0; p < parts; p++) {
        int len = rest / parts + (p < rest % parts);
        build(nt, p == 0 ? parent : lo + p - 1, at, at + len, k);
        at += len;
    }
}

static void ntree_init(struct ntree *nt, int n, int k)
{
    nt->count = 0;
    nt->parent = sim_xmalloc((size_t)n * sizeof(int));
    nt->first = sim_xmalloc((size_t)n * sizeof(int));
    nt->size = sim_xmalloc((size_t)n * sizeof(int));
    build(nt, 0, 1, n, k);
}

static void ntree_free(struct ntree *nt)
{
    free(nt->parent);
    free(nt->first);
    free(nt->size);
}

static void group_stmt(struct gen *g, const struct ntree *nt, int i, const char *op)
{
    int lo = nt->first[i], hi = lo + nt->size[i] - 1;
    if (lo == hi)
        gen_out(g, "%d: %s", lo, op);
    else
        gen_out(g, "%d..%d: %s", lo, hi, op);
}

static void ntree_prologue(struct gen *g, const struct ntree *nt)
{
    gen_line(g, "flag", nt->count, "one line per group of children (single-use lines)");
    gen_iter_open(g);
    gen_sync(g);
    gen_evict(g, "flag", nt->count);
}

/*
 * m2o-tree (seed 000 Sec 3.1, Fig 7b): "each group of children and parent
 * behaves like the single-line synchronization" (Fig 4a): the children of a
 * group add 1 to the group's line once their own subtrees are done; the
 * parent waits for every group's line to reach its size. Lines accumulate
 * (it+1)*size, so nothing is reset between iterations.
 */
bool gen_emit_m2o_tree(struct gen *g)
{
    struct ntree nt;
    ntree_init(&nt, g->n, g->a->k);
    ntree_prologue(g, &nt);
    for (int i = nt.count - 1; i >= 0; i--) {
        gen_out(g, "%d: wait flag[%d] >= (it+1)*%d", nt.parent[i], i, nt.size[i]);
        char op[64];
        snprintf(op, sizeof op, "add flag[%d] 1", i);
        group_stmt(g, &nt, i, op);
    }
    gen_mark(g);
    for (int i = 0; i < nt.count; i++)
        gen_out(g, "0: expect flag[%d] == (it+1)*%d", i, nt.size[i]);
    gen_end(g);
    ntree_free(&nt);
    return true;
}

/*
 * o2m-tree (seed 000 Sec 3.2, Fig 7d, Eq 26): a parent writes one line per
 * group of children in the order the groups were formed; once a thread
 * reads its group's line it notifies its own groups.
 */
bool gen_emit_o2m_tree(struct gen *g)
{
    struct ntree nt;
    ntree_init(&nt, g->n, g->a->k);
    ntree_prologue(g, &nt);
    char op[64];
    for (int i = 0; i < nt.count; i++) {
        gen_out(g, "%d: write flag[%d] it+1", nt.parent[i], i);
        snprintf(op, sizeof op, "wait flag[%d] >= it+1", i);
        group_stmt(g, &nt, i, op);
    }
    gen_mark(g);
    for (int i = 0; i < nt.count; i++) {
        snprintf(op, sizeof op, "expect flag[%d] == it+1", i);
        group_stmt(g, &nt, i, op);
    }
    gen_end(g);
    ntree_free(&nt);
    return true;
}
