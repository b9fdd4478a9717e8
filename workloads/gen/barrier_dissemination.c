/*
 * barrier_dissemination.c -- the many-to-many synchronisations of seed 000 Sec 3.3:
 * the m-way dissemination barrier with single-use lines per round, its
 * multi-m generalisation, and the two dual-socket variants (pair-wise and
 * socket-root) that run a dissemination barrier inside every socket first.
 *
 * Every barrier is checked the same way: thread t writes it+1 to its own
 * arrival line (M in its cache) before entering, and after leaving expects
 * every thread's arrival line to hold it+1.
 */
#include "gen_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- rounds */

/* The m-way dissemination rounds for `size` threads: ceil(log_{m+1} size). */
static int mway_rounds(int m, int size, int *ms)
{
    int r = 0;
    for (long reach = 1; reach < size; reach *= m + 1)
        ms[r++] = m;
    return r;
}

/* barrier-multim's rounds: the list given (its (m_i+1) must reach n), or
 * auto: m=2 while three times the reach stays below n, then the least m
 * that reaches n. */
static const char *mlist_text(const struct gen_args *a, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < a->nm && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%d", i ? "/" : "", a->mlist[i]);
    return buf;
}

static int multim_rounds(struct gen *g, int *ms)
{
    char buf[256];
    const struct gen_args *a = g->a;
    long reach = 1;
    if (a->nm == 0) {
        int r = 0;
        for (; reach * 3 < g->n; reach *= 3)
            ms[r++] = 2;
        ms[r++] = (int)((g->n + reach - 1) / reach - 1);
        return r;
    }
    int used = 0;
    for (; used < a->nm && reach < g->n; used++)
        reach *= a->mlist[used] + 1;
    if (used < a->nm) { /* the rounds after it would only wait on their own flags */
        gen_fail(g,
                 "m=%s reaches the %d threads after %d round%s (%ld threads): drop the %d "
                 "round%s after it",
                 mlist_text(a, buf, sizeof buf), g->n, used, used == 1 ? "" : "s", reach,
                 a->nm - used, a->nm - used == 1 ? "" : "s");
        return -1;
    }
    if (reach < g->n) {
        gen_fail(g,
                 "m=%s reaches %ld threads, fewer than %d (the (m_i+1) must multiply to at "
                 "least the thread count)",
                 mlist_text(a, buf, sizeof buf), reach, g->n);
        return -1;
    }
    for (int i = 0; i < a->nm; i++)
        ms[i] = a->mlist[i];
    return a->nm;
}

/* ---------------------------------------------------------------- dissemination */

/* A round's lines: `r0` for a barrier of all threads (socket -1), `s1r0`
 * for socket 1's. */
static void flag_name(const struct gen_group *gr, const char *what, int round, char *buf,
                      size_t size)
{
    if (gr->socket < 0)
        snprintf(buf, size, "%s%d", what, round);
    else
        snprintf(buf, size, "s%d%s%d", gr->socket, what, round);
}

static void diss_decls(struct gen *g, const struct gen_group *gr, int rounds)
{
    for (int k = 0; k < rounds; k++) {
        char name[32], what[96];
        flag_name(gr, "r", k, name, sizeof name);
        if (gr->socket < 0)
            snprintf(what, sizeof what, "round %d: the flag of every thread", k);
        else
            snprintf(what, sizeof what, "socket %d, round %d: the flag of each of its threads",
                     gr->socket, k);
        gen_line(g, name, gr->size, what);
    }
}

static void diss_evicts(struct gen *g, const struct gen_group *gr, int rounds)
{
    for (int k = 0; k < rounds; k++) {
        char name[32], idx[96];
        flag_name(gr, "r", k, name, sizeof name);
        gen_local(g, gr, 0, idx, sizeof idx);
        gen_set_stmt(g, gr->members, gr->size, "evict %s[%s]", name, idx);
    }
}

/*
 * One group's m-way dissemination (seed 000 Sec 3.3.1, Fig 10a): in round
 * k, with reach W = prod_{i<k} (m_i+1), a thread writes its own line of the
 * round (flag[n][r]: single-use, read only by that round's m peers) and
 * waits for the lines of the threads W, 2W, ..., m_k W before it (modulo
 * the group size). Every round does all m reads, as the paper counts them
 * ((m+1)^r notifications in all); a peer that wraps onto the thread itself
 * is a local read.
 */
static void diss_rounds(struct gen *g, const struct gen_group *gr, const int *ms, int rounds)
{
    long reach = 1;
    char me[96], peer[128], name[32];
    gen_local(g, gr, 0, me, sizeof me);
    for (int k = 0; k < rounds; k++) {
        flag_name(gr, "r", k, name, sizeof name);
        gen_set_stmt(g, gr->members, gr->size, "write %s[%s] it+1", name, me);
        for (int j = 1; j <= ms[k]; j++) {
            long c = (long)j * reach % gr->size;
            char up[96];
            gen_local(g, gr, gr->size - c, up, sizeof up);
            if (c == 0)
                snprintf(peer, sizeof peer, "%s", me);
            else
                snprintf(peer, sizeof peer, "(%s)%%%d", up, gr->size);
            gen_set_stmt(g, gr->members, gr->size, "wait %s[%s] >= it+1", name, peer);
        }
        reach = reach * (ms[k] + 1) % gr->size;
    }
}

/* ---------------------------------------------------------------- frame */

/* A dissemination barrier over all threads with the given rounds. */
static bool whole_barrier(struct gen *g, const int *ms, int rounds)
{
    struct gen_group all = {.socket = -1, .size = g->n, .first = 0, .contiguous = true};
    gen_arrive_decl(g);
    diss_decls(g, &all, rounds);
    gen_iter_open(g);
    gen_sync(g);
    int *ids = sim_xmalloc((size_t)g->n * sizeof *ids);
    for (int t = 0; t < g->n; t++)
        ids[t] = t;
    all.members = ids;
    diss_evicts(g, &all, rounds);
    gen_arrive_enter(g);
    diss_rounds(g, &all, ms, rounds);
    gen_arrive_check(g);
    free(ids);
    return true;
}

/* barrier-dissemination (seed 000 Sec 3.3.1, Fig 10a, Eq 27): m-way
 * dissemination, r = ceil(log_{m+1} n) rounds of m peers each. */
bool gen_emit_barrier_diss(struct gen *g)
{
    int ms[64];
    int rounds = mway_rounds(g->a->m, g->n, ms);
    return whole_barrier(g, ms, rounds);
}

/* barrier-multim (seed 000 Sec 3.3.1, last paragraph; Fig 11d): the same
 * algorithm with m_i peers in round i, so that prod (m_i+1) can be close to
 * n instead of (m+1)^r. */
bool gen_emit_barrier_multim(struct gen *g)
{
    int ms[GEN_MAX_ROUNDS + 32];
    int rounds = multim_rounds(g, ms);
    return rounds >= 0 && whole_barrier(g, ms, rounds);
}

/* ---------------------------------------------------------------- dual socket */

/* The lines of every socket's barrier; rounds[i] of socket group i. */
static void socket_decls(struct gen *g, int rounds[])
{
    for (int i = 0; i < g->ngroups; i++) {
        int ms[64];
        rounds[i] = mway_rounds(g->a->m, g->groups[i].size, ms);
        diss_decls(g, &g->groups[i], rounds[i]);
    }
}

static void socket_barriers(struct gen *g, const int rounds[])
{
    for (int i = 0; i < g->ngroups; i++) {
        int ms[64];
        mway_rounds(g->a->m, g->groups[i].size, ms);
        gen_note(g, "socket %d: threads of this socket, dissemination (m=%d)", g->groups[i].socket,
                 g->a->m);
        diss_rounds(g, &g->groups[i], ms, rounds[i]);
    }
}

static void socket_evicts(struct gen *g, const int rounds[])
{
    for (int i = 0; i < g->ngroups; i++)
        diss_evicts(g, &g->groups[i], rounds[i]);
}

/* One socket's final exchange: write its own final line, wait for its
 * peer's in every other socket (local index i reads index i mod size). */
static void pairwise_exchange(struct gen *g, const struct gen_group *gr)
{
    char me[96];
    gen_local(g, gr, 0, me, sizeof me);
    gen_set_stmt(g, gr->members, gr->size, "write s%dfinal[%s] it+1", gr->socket, me);
    for (int o = 0; o < g->ngroups; o++) {
        const struct gen_group *other = &g->groups[o];
        if (other == gr)
            continue;
        if (gr->size <= other->size)
            gen_set_stmt(g, gr->members, gr->size, "wait s%dfinal[%s] >= it+1", other->socket, me);
        else if (strpbrk(me, "+-"))
            gen_set_stmt(g, gr->members, gr->size, "wait s%dfinal[(%s)%%%d] >= it+1", other->socket,
                         me, other->size);
        else
            gen_set_stmt(g, gr->members, gr->size, "wait s%dfinal[%s%%%d] >= it+1", other->socket,
                         me, other->size);
    }
}

/*
 * barrier-pairwise (seed 000 Sec 3.3.2, Eq 30): "one barrier per socket
 * with a final exchange of flags using pair-wise communications: each
 * thread selects a peer from the other socket". After its socket's barrier,
 * the thread of local index i writes its final line and waits for the final
 * line of the thread of index i mod n_s in every other socket s (so with
 * unequal sockets up to ceil(n0/n1) threads read one line; Eq 30 prices
 * that stealing with |n0-n1|, "the maximum number of threads reading the
 * same flag", an upper bound of it).
 */
bool gen_emit_barrier_pairwise(struct gen *g)
{
    if (g->ngroups == 1)
        return gen_emit_barrier_diss(g);
    int *rounds = sim_xmalloc((size_t)g->ngroups * sizeof *rounds);
    gen_arrive_decl(g);
    socket_decls(g, rounds);
    for (int i = 0; i < g->ngroups; i++) {
        char name[32], what[96];
        snprintf(name, sizeof name, "s%dfinal", g->groups[i].socket);
        snprintf(what, sizeof what, "socket %d: the final flag of each of its threads",
                 g->groups[i].socket);
        gen_line(g, name, g->groups[i].size, what);
    }
    gen_iter_open(g);
    gen_sync(g);
    socket_evicts(g, rounds);
    for (int i = 0; i < g->ngroups; i++) {
        char me[96];
        gen_local(g, &g->groups[i], 0, me, sizeof me);
        gen_set_stmt(g, g->groups[i].members, g->groups[i].size, "evict s%dfinal[%s]",
                     g->groups[i].socket, me);
    }
    gen_arrive_enter(g);
    socket_barriers(g, rounds);
    gen_note(g, "pair-wise exchange across sockets");
    for (int i = 0; i < g->ngroups; i++)
        pairwise_exchange(g, &g->groups[i]);
    gen_arrive_check(g);
    free(rounds);
    return true;
}

/*
 * barrier-socketroot (seed 000 Sec 3.3.2, Eq 31): "a root per socket that
 * sets a flag read by all threads from the other socket". After its
 * socket's barrier, the socket's first thread writes the socket's line;
 * every thread waits for the lines of all other sockets.
 */
bool gen_emit_barrier_socketroot(struct gen *g)
{
    if (g->ngroups == 1)
        return gen_emit_barrier_diss(g);
    int *rounds = sim_xmalloc((size_t)g->ngroups * sizeof *rounds);
    gen_arrive_decl(g);
    socket_decls(g, rounds);
    gen_line(g, "root", g->ngroups, "root[s]: written by the first thread of socket s");
    gen_iter_open(g);
    gen_sync(g);
    socket_evicts(g, rounds);
    gen_evict(g, "root", g->ngroups);
    gen_arrive_enter(g);
    socket_barriers(g, rounds);
    gen_note(g, "socket roots notify the other sockets");
    for (int i = 0; i < g->ngroups; i++) {
        const struct gen_group *gr = &g->groups[i];
        gen_out(g, "%d: write root[%d] it+1", gr->first, i);
        for (int o = 0; o < g->ngroups; o++)
            if (o != i)
                gen_set_stmt(g, gr->members, gr->size, "wait root[%d] >= it+1", o);
    }
    gen_arrive_check(g);
    free(rounds);
    return true;
}
