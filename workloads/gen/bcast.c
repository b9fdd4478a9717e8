/*
 * bcast.c -- the broadcasts of seed 000 Sec 4: the one-line broadcast
 * down a tree (Alg. 6) and the multi-line broadcast in which children copy
 * straight from their parent's buffer (Sec 4.2). The tree comes from the
 * shape= parameter (workloads/gen/tree.c), the flags from gen_tree_flag_*
 * (one pair a parent, or a pair a parent and socket of its children on
 * several sockets, Sec 4.1.1).
 *
 * Every thread checks after its mark that its copy holds the root's message
 * of this iteration, which changes every iteration; in bcast-multiline,
 * whose children copy the root's buffer itself, the message's last word of
 * line 0 is the root's entry stamp (gen_stamp_clear), so the check also
 * shows each copy was taken after the root entered.
 */
#include "gen_impl.h"

#include <stdio.h>
#include <stdlib.h>

/* The threads with children (parents), in a list. */
static int parents_of(const struct gen *g, const struct gen_tree *tr, int *ids)
{
    int cnt = 0;
    for (int t = 0; t < g->n; t++)
        if (tr->kids[t] > 0)
            ids[cnt++] = t;
    return cnt;
}

static void sync_decls(struct gen *g)
{
    gen_tree_flag_decls(g, "it+1 once thread t's data is ready (one-to-many)",
                        "its children add 1 once they copied (many-to-one)");
}

/*
 * bcast-tree (seed 000 Sec 4.1, Alg. 6 / Fig 12), read literally: a child
 * waits for its parent's flag (one-to-many) and copies the parent's data
 * line into its own buffer; a parent copies its buffer into the line it
 * publishes, data[me], sets its flag and waits until its children have
 * added their count (many-to-one on one line); a child then adds 1 to its
 * parent's count. The root's buffer holds the message: word w is
 * it*W+w+1 for a line of W words.
 */
bool gen_emit_bcast_tree(struct gen *g)
{
    struct gen_tree tr;
    bool ok = gen_tree_init(g, &tr);
    int *ids = sim_xmalloc((size_t)g->n * sizeof *ids);
    char last[16];
    snprintf(last, sizeof last, "%d", g->words - 1);
    if (ok) {
        gen_line(g, "mine", g->n,
                 "mine[t]: thread t's buffer (user data, M); the root's is the "
                 "message");
        gen_line(g, "data", g->n, "data[t]: the line thread t publishes to its children");
        sync_decls(g);
        gen_iter_open(g);
        gen_for(g, "w", "0", last);
        gen_out(g, "%d: write mine[%d].(w) it*%d+w+1", tr.root, tr.root, g->words);
        gen_end(g);
        gen_sync(g);
        gen_evict(g, "data", g->n);
        gen_tree_flag_evicts(g);
        gen_prime_own(g, "mine", 1);
        gen_tree_child_wait(g, &tr);
        gen_peer_stmt(g, tr.parent, 1, "copy data[@] mine[t] 1");
        gen_set_stmt(g, ids, parents_of(g, &tr, ids), "copy mine[t] data[t] 1");
        gen_tree_notify(g, &tr);
        gen_tree_child_done(g, &tr);
        gen_mark(g);
        gen_for(g, "w", "0", last);
        gen_out(g, "all: expect mine[t].(w) == it*%d+w+1", g->words);
        gen_end(g);
        gen_end(g);
    }
    free(ids);
    gen_tree_free(&tr);
    return ok;
}

/* The root's entry stamp (gen_stamp_clear): the last word of its line 0. */
static void message_stamp(const struct gen *g, int root, long lines, char *who, char *stamp,
                          size_t size)
{
    snprintf(who, size, "%d", root);
    snprintf(stamp, size, "buf[%ld].%d", root * lines, g->words - 1);
}

/* The root's message: word 0 of line j is it*N+j+1, the last word it+1;
 * the last word of line 0 is the root's entry stamp, left 0 here. */
static void message_produce(struct gen *g, int root, long lines)
{
    char to[32];
    snprintf(to, sizeof to, "%ld", lines - 1);
    gen_for(g, "j", "0", to);
    char at[32] = "j";
    if (root > 0)
        snprintf(at, sizeof at, "%ld+j", root * lines);
    gen_out(g, "%d: write buf[%s] it*%ld+j+1", root, at, lines);
    gen_out(g, "%d: write buf[%s].%d it+1", root, at, g->words - 1);
    gen_end(g);
    char who[48], stamp[48];
    message_stamp(g, root, lines, who, stamp, sizeof stamp);
    gen_stamp_clear(g, who, stamp);
}

static void message_check(struct gen *g, long lines)
{
    char to[32];
    snprintf(to, sizeof to, "%ld", lines - 1);
    gen_for(g, "j", "0", to);
    gen_out(g, "all: expect buf[t*%ld+j] == it*%ld+j+1", lines, lines);
    gen_out(g, "all: expect buf[t*%ld+j].%d == it+1", lines, g->words - 1);
    gen_end(g);
}

/*
 * bcast-multiline (seed 000 Sec 4.2): "children copy data directly from the
 * original location" -- no shared intermediate line as in Alg. 6: a child
 * waits for its parent's flag and copies the parent's N-line buffer into
 * its own in one stream (a multi-line transfer); the parent keeps its
 * buffer until its children have added their count. The synchronisation is
 * Alg. 6's. The root writes its entry stamp (the last word of its line 0,
 * gen_stamp_enter) right after the resets, so every thread's check of its
 * copy shows it was taken after the root entered (a child of the root that
 * did not wait for its flag copies a stamp of 0).
 */
bool gen_emit_bcast_multiline(struct gen *g)
{
    struct gen_tree tr;
    bool ok = gen_tree_init(g, &tr);
    int *ids = sim_xmalloc((size_t)g->n * sizeof *ids);
    long lines = g->a->lines;
    if (ok) {
        gen_line(g, "buf", g->n * lines,
                 "buf[t*N .. t*N+N-1]: thread t's buffer (user data, M); the root's is the "
                 "message");
        sync_decls(g);
        gen_iter_open(g);
        message_produce(g, tr.root, lines);
        gen_sync(g);
        gen_tree_flag_evicts(g);
        gen_prime_own(g, "buf", lines);
        char who[48], stamp[48];
        message_stamp(g, tr.root, lines, who, stamp, sizeof stamp);
        gen_stamp_enter(g, who, stamp, "it+1");
        char copy[64];
        snprintf(copy, sizeof copy, "copy buf[$] buf[t*%ld] %ld", lines, lines);
        gen_tree_child_wait(g, &tr);
        gen_peer_stmt(g, tr.parent, lines, copy);
        gen_tree_notify(g, &tr);
        gen_tree_child_done(g, &tr);
        gen_mark(g);
        message_check(g, lines);
        gen_end(g);
    }
    free(ids);
    gen_tree_free(&tr);
    return ok;
}
