/*
 * notify.c -- the basic patterns of seed 000: the ping-pong that defines
 * the single- and multi-line transfer costs (Sec 2.2.1, 2.2.3, Eq 1) and
 * the two synchronisation modes with one notified or one notifying thread,
 * many-to-one (Sec 3.1) and one-to-many (Sec 3.2), on one line or on one
 * line per thread.
 */
#include "gen_impl.h"

#include <stdio.h>

/* `for j 0..count-1 {` when there are several lines; one line needs no loop. */
static void jloop_open(struct gen *g, long count)
{
    char to[32];
    snprintf(to, sizeof to, "%ld", count - 1);
    if (count > 1)
        gen_for(g, "j", "0", to);
}

static void jloop_close(struct gen *g, long count)
{
    if (count > 1)
        gen_end(g);
}

/* Word 0 of line j of thread x's message: (2*it+x)*N+j+1, new every
 * iteration and different for the two threads. */
static void message_value(char *buf, size_t size, int x, long lines)
{
    if (lines == 1)
        snprintf(buf, size, "2*it+%d", x + 1);
    else if (x == 0)
        snprintf(buf, size, "2*it*%ld+j+1", lines);
    else
        snprintf(buf, size, "(2*it+%d)*%ld+j+1", x, lines);
}

/* The computation phase: thread x writes its message, word 0 of every line
 * and it+1 in the last word (the word the receiver polls). */
static void pingpong_produce(struct gen *g, long lines, const char *J)
{
    jloop_open(g, lines);
    for (int x = 0; x < 2; x++) {
        char v[64];
        message_value(v, sizeof v, x, lines);
        gen_out(g, "%d: write send%d%s %s", x, x, J, v);
        if (g->words > 1)
            gen_out(g, "%d: write send%d%s.%d it+1", x, x, J, g->words - 1);
    }
    jloop_close(g, lines);
}

static void pingpong_check(struct gen *g, long lines, const char *J, const char *last)
{
    jloop_open(g, lines);
    for (int x = 0; x < 2; x++) {
        char v[64];
        message_value(v, sizeof v, 1 - x, lines);
        gen_out(g, "%d: expect recv%d%s == %s", x, x, J, v);
    }
    jloop_close(g, lines);
    for (int x = 0; x < 2; x++)
        gen_out(g, "%d: expect recv%d%s.%d == it+1", x, x, last, g->words - 1);
}

/*
 * pingpong (seed 000 Sec 2.2.1, Eq 1; Sec 2.2.3 for N lines): thread 0
 * copies its send buffer (M in its cache) into the receive buffer owned by
 * thread 1 (M in thread 1's cache) while thread 1 polls the last word of
 * it; then they switch roles with different buffers. One iteration is the
 * round trip. The polled word carries it+1, so nothing is reset.
 */
bool gen_emit_pingpong(struct gen *g)
{
    long n = g->a->lines;
    char J[8] = "", last[32] = "";
    if (n > 1) {
        snprintf(J, sizeof J, "[j]");
        snprintf(last, sizeof last, "[%ld]", n - 1);
    }
    for (int x = 0; x < 2; x++) {
        char name[16], what[96];
        snprintf(name, sizeof name, "send%d", x);
        snprintf(what, sizeof what, "thread %d's message (user data, M in its cache)", x);
        gen_line(g, name, n, what);
        snprintf(name, sizeof name, "recv%d", x);
        snprintf(what, sizeof what, "thread %d's receive buffer (M in its cache)", x);
        gen_line(g, name, n, what);
    }
    gen_iter_open(g);
    pingpong_produce(g, n, J);
    gen_sync(g);
    jloop_open(g, n);
    for (int x = 0; x < 2; x++) {
        gen_out(g, "%d: prime send%d%s M", x, x, J);
        gen_out(g, "%d: prime recv%d%s M", x, x, J);
    }
    jloop_close(g, n);
    gen_out(g, "0: copy send0 recv1 %ld", n);
    gen_out(g, "1: wait recv1%s.%d >= it+1", last, g->words - 1);
    gen_out(g, "1: copy send1 recv0 %ld", n);
    gen_out(g, "0: wait recv0%s.%d >= it+1", last, g->words - 1);
    gen_mark(g);
    pingpong_check(g, n, J, last);
    gen_end(g);
    return true;
}

/*
 * m2o (seed 000 Sec 3.1, Fig 4, Table 5): threads 1..n-1 notify thread 0.
 * same (Fig 4a): every notifier adds 1 to one line, thread 0 waits for
 * (it+1)*(n-1); diff (Fig 4b): each notifier writes it+1 to its own line,
 * thread 0 checks each line once, waiting until it is set before the next.
 */
bool gen_emit_m2o(struct gen *g)
{
    if (!g->a->diff) {
        gen_line(g, "flag", 1, "the line every notifier adds to (Fig 4a)");
        gen_iter_open(g);
        gen_sync(g);
        gen_evict(g, "flag", 1);
        gen_out(g, "others: add flag 1");
        gen_out(g, "0: wait flag >= (it+1)*(n-1)");
        gen_mark(g);
        gen_out(g, "0: expect flag == (it+1)*(n-1)");
        gen_end(g);
        return true;
    }
    gen_line(g, "flag", g->n - 1, "flag[t-1]: the line of notifier t (Fig 4b)");
    gen_iter_open(g);
    gen_sync(g);
    gen_evict(g, "flag", g->n - 1);
    gen_out(g, "others: write flag[t-1] it+1");
    gen_for(g, "j", "0", "n-2");
    gen_out(g, "0: wait flag[j] >= it+1");
    gen_end(g);
    gen_mark(g);
    gen_for(g, "j", "0", "n-2");
    gen_out(g, "0: expect flag[j] == it+1");
    gen_end(g);
    gen_end(g);
    return true;
}

/*
 * o2m (seed 000 Sec 3.2, Fig 8, Table 6): thread 0 notifies threads
 * 1..n-1. same (Fig 8a): it writes it+1 to one line all readers poll;
 * diff (Fig 8b): it writes one line per reader, each reader polls its own.
 */
bool gen_emit_o2m(struct gen *g)
{
    if (!g->a->diff) {
        gen_line(g, "flag", 1, "the line thread 0 writes and every reader polls (Fig 8a)");
        gen_iter_open(g);
        gen_sync(g);
        gen_evict(g, "flag", 1);
        gen_out(g, "0: write flag it+1");
        gen_out(g, "others: wait flag >= it+1");
        gen_mark(g);
        gen_out(g, "others: expect flag == it+1");
        gen_end(g);
        return true;
    }
    gen_line(g, "flag", g->n - 1, "flag[t-1]: the line of reader t (Fig 8b)");
    gen_iter_open(g);
    gen_sync(g);
    gen_evict(g, "flag", g->n - 1);
    gen_for(g, "j", "0", "n-2");
    gen_out(g, "0: write flag[j] it+1");
    gen_end(g);
    gen_out(g, "others: wait flag[t-1] >= it+1");
    gen_mark(g);
    gen_out(g, "others: expect flag[t-1] == it+1");
    gen_end(g);
    return true;
}
