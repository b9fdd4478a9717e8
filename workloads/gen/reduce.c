/*
 * reduce.c -- the reductions of seed 000 Sec 5: the one-line reduction
 * up a tree with line privatisation (Alg. 7) and the multi-line binomial
 * reduction (Sec 5.2), one binomial tree per socket and a final exchange
 * between the sockets' roots (Sec 5.2.1).
 *
 * Thread t contributes t+1+it (+ the word or line number), so the root
 * expects n(n+1)/2 + n*it (+ n times that number): a lost, doubled or stale
 * contribution is a value error.
 */
#include "gen_impl.h"

#include <stdio.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- one line, a tree */

/* The parent p adds the private lines of its children (Alg. 7 S3): a loop
 * over each run of consecutive children. */
static void add_children(struct gen *g, const int *parent, int p)
{
    for (int c = 0; c < g->n;) {
        if (parent[c] != p) {
            c++;
            continue;
        }
        int e = c;
        while (e + 1 < g->n && parent[e + 1] == p)
            e++;
        if (e - c >= 2) {
            char from[16], to[16];
            snprintf(from, sizeof from, "%d", c);
            snprintf(to, sizeof to, "%d", e);
            gen_for(g, "j", from, to);
            gen_out(g, "%d: addline mine[%d] priv[j] 1", p, p);
            gen_end(g);
        } else {
            for (int x = c; x <= e; x++)
                gen_out(g, "%d: addline mine[%d] priv[%d] 1", p, p, x);
        }
        c = e + 1;
    }
}

static void reduce_tree_decls(struct gen *g)
{
    gen_line(g, "mine", g->n,
             "mine[t]: thread t's contribution (user data, M); the root's ends "
             "with the sum");
    gen_line(g, "priv", g->n, "priv[c]: child c's private line at its parent (privatisation)");
    gen_tree_flag_decls(g, "it+1 once thread t takes its children's data",
                        "its children add 1 once their data is in priv");
}

/* Alg. 7's first block, for every thread with children. */
static void reduce_tree_parents(struct gen *g, const struct gen_tree *tr)
{
    gen_tree_notify(g, tr);
    for (int t = 0; t < g->n; t++)
        if (tr->kids[t] > 0)
            add_children(g, tr->parent, t);
}

/* Alg. 7's second block, for every thread with a parent. */
static void reduce_tree_children(struct gen *g, const struct gen_tree *tr)
{
    int *ids = sim_xmalloc((size_t)g->n * sizeof *ids), nc = 0;
    for (int t = 0; t < g->n; t++)
        if (tr->parent[t] >= 0)
            ids[nc++] = t;
    gen_tree_child_wait(g, tr);
    gen_set_stmt(g, ids, nc, "copy mine[t] priv[t] 1");
    gen_tree_child_done(g, tr);
    free(ids);
}

/*
 * reduce-tree (seed 000 Sec 5.1, Alg. 7 / Fig 16). The printed algorithm
 * nests the parent block inside `if nsons > 0`; the text says the second
 * block is for every thread with a parent, which is how it is read here. A
 * thread with children writes its pflag (its private buffers may be
 * filled), waits until its children have added their count to its sflag,
 * and adds each child's private line into its own (addline). A thread with
 * a parent then waits for the parent's pflag, copies its line into its
 * private line at the parent and adds 1 to the parent's sflag. On several
 * sockets the flags are one line a parent and socket of its children (Sec
 * 5.1.1: "single-use synchronization cache lines to isolate polling from
 * different sockets"; gen_tree_flag_*).
 */
bool gen_emit_reduce_tree(struct gen *g)
{
    struct gen_tree tr;
    bool ok = gen_tree_init(g, &tr);
    if (ok) {
        char last[16];
        snprintf(last, sizeof last, "%d", g->words - 1);
        reduce_tree_decls(g);
        gen_iter_open(g);
        gen_for(g, "w", "0", last);
        gen_out(g, "all: write mine[t].(w) t+1+it+w");
        gen_end(g);
        gen_sync(g);
        gen_evict(g, "priv", g->n);
        gen_tree_flag_evicts(g);
        gen_prime_own(g, "mine", 1);
        reduce_tree_parents(g, &tr);
        reduce_tree_children(g, &tr);
        gen_mark(g);
        gen_for(g, "w", "0", last);
        gen_out(g, "%d: expect mine[%d].(w) == n*(n+1)/2+n*(it+w)", tr.root, tr.root);
        gen_end(g);
        gen_end(g);
    }
    gen_tree_free(&tr);
    return ok;
}

/* ---------------------------------------------------------------- many lines, binomial */

/* One stage's pairs: recv[r] = the sender thread r adds, send[s] = the
 * receiver of s; -1 elsewhere. */
struct stage {
    int *recv, *send;
};

/* Binomial pairs among members[0..size) at distance d: (i, i+d) for i a
 * multiple of 2d; returns whether there was any. */
static bool pair_up(const int *members, int size, int d, struct stage *st)
{
    bool any = false;
    for (int i = 0; i + d < size; i += 2 * d) {
        st->recv[members[i]] = members[i + d];
        st->send[members[i + d]] = members[i];
        any = true;
    }
    return any;
}

static void stage_emit(struct gen *g, const struct stage *st, const char *what)
{
    long lines = g->a->lines;
    char add[96];
    if (lines == 1)
        snprintf(add, sizeof add, "addline buf[t] buf[$] 1");
    else
        snprintf(add, sizeof add, "addline buf[t*%ld] buf[$] %ld", lines, lines);
    int *ids = sim_xmalloc((size_t)g->n * sizeof *ids), cnt = 0;
    gen_note(g, "%s", what);
    gen_peer_stmt(g, st->recv, 1, "wait ready[@] >= it+1");
    gen_peer_stmt(g, st->recv, lines, add);
    gen_peer_stmt(g, st->recv, 1, "write done[@] it+1");
    for (int t = 0; t < g->n; t++)
        if (st->send[t] >= 0)
            ids[cnt++] = t;
    gen_set_stmt(g, ids, cnt, "write ready[t] it+1");
    gen_set_stmt(g, ids, cnt, "wait done[t] >= it+1");
    free(ids);
}

static void stage_clear(const struct gen *g, struct stage *st)
{
    for (int t = 0; t < g->n; t++)
        st->recv[t] = st->send[t] = -1;
}

/* Stages inside every socket (in parallel), then among the sockets' first
 * threads. */
static void binomial_stages(struct gen *g)
{
    struct stage st = {sim_xmalloc((size_t)g->n * sizeof(int)),
                       sim_xmalloc((size_t)g->n * sizeof(int))};
    int *roots = sim_xmalloc((size_t)g->ngroups * sizeof *roots);
    for (int i = 0; i < g->ngroups; i++)
        roots[i] = g->groups[i].first;
    for (int d = 1; d < g->n; d *= 2) {
        int with = 0; /* sockets with a pair at this distance */
        stage_clear(g, &st);
        for (int i = 0; i < g->ngroups; i++)
            with += pair_up(g->groups[i].members, g->groups[i].size, d, &st);
        if (!with)
            break;
        char what[256], where[48] = "";
        if (g->ngroups > 1 && with == g->ngroups)
            snprintf(where, sizeof where, " (in every socket)");
        else if (g->ngroups > 1)
            snprintf(where, sizeof where, " (in %d of the %d sockets)", with, g->ngroups);
        char whom[48] = "the next thread";
        if (d > 1)
            snprintf(whom, sizeof whom, "the thread %d places after it", d);
        snprintf(what, sizeof what,
                 "stage: a thread adds the lines of %s in its socket's order (the pin order)%s",
                 whom, where);
        stage_emit(g, &st, what);
    }
    for (int d = 1; d < g->ngroups; d *= 2) {
        stage_clear(g, &st);
        pair_up(roots, g->ngroups, d, &st);
        stage_emit(g, &st, "stage between the sockets' first threads (Sec 5.2.1)");
    }
    free(roots);
    free(st.recv);
    free(st.send);
}

/*
 * reduce-binomial (seed 000 Sec 5.2): at each stage the active threads pair
 * up; the receiver waits for the sender's ready flag (one-to-one), adds the
 * sender's N lines into its own straight from the sender's buffer (addline,
 * a multi-line transfer) and writes the sender's done flag; the sender
 * leaves after done. On several sockets, one binomial tree per socket and
 * then a final exchange between the sockets (Sec 5.2.1, Eq 35). Word 0 of
 * line j of thread t holds t+1+it+j, the last word it+1; the last word of
 * line 0 is the thread's entry stamp (gen_stamp_clear), written right after
 * the resets, so the root's sum also shows that every line was added after
 * its thread entered (the lines of a sender that receives none, a leaf of
 * the tree, are otherwise fresh before it enters).
 */
bool gen_emit_reduce_binomial(struct gen *g)
{
    long lines = g->a->lines;
    char to[32];
    snprintf(to, sizeof to, "%ld", lines - 1);
    gen_line(g, "buf", g->n * lines,
             "buf[t*N .. t*N+N-1]: thread t's lines (user data, M); thread 0's ends with the "
             "sum");
    gen_line(g, "ready", g->n, "ready[t]: it+1 once thread t's lines hold its partial sum");
    gen_line(g, "done", g->n, "done[t]: it+1 once its receiver added them");
    gen_iter_open(g);
    gen_for(g, "j", "0", to);
    gen_out(g, "all: write buf[t*%ld+j] t+1+it+j", lines);
    gen_out(g, "all: write buf[t*%ld+j].%d it+1", lines, g->words - 1);
    gen_end(g);
    char stamp[48];
    if (lines == 1)
        snprintf(stamp, sizeof stamp, "buf[t].%d", g->words - 1);
    else
        snprintf(stamp, sizeof stamp, "buf[t*%ld].%d", lines, g->words - 1);
    gen_stamp_clear(g, "all", stamp);
    gen_sync(g);
    gen_evict(g, "ready", g->n);
    gen_evict(g, "done", g->n);
    gen_prime_own(g, "buf", lines);
    gen_stamp_enter(g, "all", stamp, "it+1");
    binomial_stages(g);
    gen_mark(g);
    gen_for(g, "j", "0", to);
    gen_out(g, "0: expect buf[j] == n*(n+1)/2+n*(it+j)");
    gen_out(g, "0: expect buf[j].%d == n*(it+1)", g->words - 1);
    gen_end(g);
    gen_end(g);
    return true;
}
