/*
 * barrier_flags.c -- the barriers and the combined barrier/reductions of seed
 * 002 (Mohamed El Maarouf, Giraud, Guermouche & Guignon, "Combining
 * reduction with synchronization barrier on multi-core processors"):
 * Sec II's sense-reversing centralized, linear centralized, software
 * combining tree and butterfly barriers, Sec III's extended butterfly
 * barrier, and Sec IV's reductions that carry the values in the flag's own
 * line (linear centralized, extended butterfly, and the dissemination
 * barrier whose redundant paths make the sum wrong, Fig 8), and the
 * separate reduction after a barrier they are compared with (Alg. 1).
 *
 * The paper's sense flags become epochs: a flag carries it+1 (or 2it+1 for
 * "arrived" and 2it+2 for "go" when one line serves both phases), so no
 * line is ever reset. Barriers are checked with arrive[] (gen_arrive_*);
 * reductions are all-reduces: thread t contributes t+1+it+w in word w
 * (1..V) of its private line acc[t] and every thread expects
 * n(n+1)/2 + n(it+w) there after the mark (the separate reduction, whose
 * values are read where they were written before the sync, also sums the
 * threads' entry stamps, gen_stamp_*). Values are 64-bit integers where
 * the paper sums doubles.
 */
#include "gen_impl.h"

#include <stdio.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- payload */

/* What a notification carries: a bare flag (values 0, the barriers) or the
 * flag in word 0 and values in words 1..values of the sender's acc[t]. */
struct payload {
    int values;
    bool split; /* 8*(values+1) bytes exceed one atomic store: word stores, flag last */
};

static struct payload payload_of(const struct gen *g, int values)
{
    struct payload pl = {values, WL_WORD_BYTES * (values + 1) > g->atomic_bytes};
    return pl;
}

/* Flag and values must fit one line. */
static bool payload_fits(struct gen *g, int values)
{
    if (values < g->words)
        return true;
    return gen_fail(g,
                    "values=%d needs lines of %d bytes or more (the flag and %d words); this "
                    "machine's lines hold %d words (expected values=1..%d)",
                    values, WL_WORD_BYTES * (values + 1), values, g->words, g->words - 1);
}

/*
 * Sends flag (and values) to line dst (Alg. 3 line 15, Alg. 4 line 9,
 * Alg. 5 line 9). Whole line: the flag is written into the private staging
 * line acc[t] beside the values and the line copied with one line store, so
 * flag and values arrive together (the paper's _mm512_store). Split (Sec
 * IV-D, for machines whose stores are atomic on fewer bytes, Table I): the
 * values are stored word by word, the flag last, so a reader that sees the
 * flag sees the values.
 */
static void send(struct gen *g, const struct payload *pl, const struct gen_who *who,
                 const char *dst, const char *flag)
{
    if (pl->values == 0) {
        gen_who_stmt(g, who, "write %s %s", dst, flag);
        return;
    }
    if (!pl->split) {
        gen_who_stmt(g, who, "write acc[t] %s", flag);
        gen_who_stmt(g, who, "copy acc[t] %s 1", dst);
        return;
    }
    char last[16];
    snprintf(last, sizeof last, "%d", pl->values);
    gen_for(g, "w", "1", last);
    gen_who_stmt(g, who, "read acc[t].(w) -> v");
    gen_who_stmt(g, who, "write %s.(w) v", dst);
    gen_end(g);
    gen_who_stmt(g, who, "write %s %s", dst, flag);
}

/* Waits until line src holds flag, then adds its values into acc[t] (the
 * paper's SIMD add; word 0 gets the flag added, and is overwritten before
 * acc[t] is sent) or, with add false, copies them (Alg. 5 line 14). */
static void receive(struct gen *g, const struct payload *pl, const struct gen_who *who,
                    const char *src, const char *flag, bool add)
{
    gen_who_stmt(g, who, "wait %s >= %s", src, flag);
    if (pl->values == 0)
        return;
    if (add)
        gen_who_stmt(g, who, "addline acc[t] %s 1", src);
    else
        gen_who_stmt(g, who, "copy %s acc[t] 1", src);
}

/* ---------------------------------------------------------------- frame */

/* The declarations and the iteration's opening: barrier check or values. */
static void frame_decl(struct gen *g, const struct payload *pl)
{
    if (pl->values == 0) {
        gen_arrive_decl(g);
        return;
    }
    gen_line(g, "acc", g->n,
             "acc[t]: thread t's values in words 1..V, then the sum (user data, M; the "
             "private staging line, word 0 the flag)");
}

/* Opens the iteration: produce the values, sync, evict the flag lines
 * (names[0..cnt), lines_each lines each: n, a line a thread, or 1), prime
 * the user data. */
static void frame_open(struct gen *g, const struct payload *pl, const char *const *names, int cnt,
                       long lines_each)
{
    gen_iter_open(g);
    if (pl->values) {
        char last[16];
        snprintf(last, sizeof last, "%d", pl->values);
        gen_out(g, "all: write acc[t] 0");
        gen_for(g, "w", "1", last);
        gen_out(g, "all: write acc[t].(w) t+1+it+w");
        gen_end(g);
    }
    gen_sync(g);
    for (int i = 0; i < cnt; i++)
        gen_evict(g, names[i], lines_each);
    if (pl->values)
        gen_prime_own(g, "acc", 1);
    else
        gen_arrive_enter(g);
}

static void frame_close(struct gen *g, const struct payload *pl)
{
    if (pl->values == 0) {
        gen_arrive_check(g);
        return;
    }
    char last[16];
    snprintf(last, sizeof last, "%d", pl->values);
    gen_mark(g);
    gen_for(g, "w", "1", last);
    gen_out(g, "all: expect acc[t].(w) == n*(n+1)/2+n*(it+w)");
    gen_end(g);
    gen_end(g);
}

/* ---------------------------------------------------------------- centralized */

/*
 * barrier-central (seed 002 Sec II-A; Mellor-Crummey & Scott Alg. 7): every
 * thread decrements the shared counter (fetch-and-add -1); the one that
 * sees 1 is the last: it sets the counter back to n and writes the global
 * flag (the sense, here the epoch it+1); every thread spins on the global
 * flag. "If last" is a loop `for j 1..2-c`, which runs once for c == 1.
 */
bool gen_emit_barrier_central(struct gen *g)
{
    struct payload pl = payload_of(g, 0);
    static const char *const names[] = {"counter", "gflag"};
    frame_decl(g, &pl);
    gen_line(g, "counter", 1, "n minus the threads that arrived (reset by the last)");
    gen_line(g, "gflag", 1, "the global flag: it+1 once the last thread arrived");
    gen_out(g, "0: write counter n");
    frame_open(g, &pl, names, 2, 1); /* the counter and the flag evicted at the opening */
    gen_out(g, "all: add counter (-1) -> c");
    gen_for(g, "j", "1", "2-c");
    gen_note(g, "the last thread: reset the counter, release everyone");
    gen_out(g, "all: write counter n");
    gen_out(g, "all: write gflag it+1");
    gen_end(g);
    gen_out(g, "all: wait gflag >= it+1");
    frame_close(g, &pl);
    return true;
}

/* The linear centralized pattern over all threads, master 0 (Fig 2): the
 * others send on their own flag line (2it+1), thread 0 receives each in
 * turn, then sends each the release (2it+2) which its owner receives. */
static bool linear(struct gen *g, int values)
{
    if (!payload_fits(g, values))
        return false;
    struct payload pl = payload_of(g, values);
    static const char *const names[] = {"flag"};
    int *ids = gen_all_ids(g);
    struct gen_who others = {ids + 1, g->n - 1, NULL}, master = {ids, 1, NULL};
    frame_decl(g, &pl);
    gen_line(g, "flag", g->n, "flag[t]: 2it+1 once t arrived, 2it+2 once thread 0 released it");
    frame_open(g, &pl, names, 1, g->n);
    send(g, &pl, &others, "flag[t]", "2*it+1");
    gen_for(g, "j", "1", "n-1");
    receive(g, &pl, &master, "flag[j]", "2*it+1", true);
    gen_end(g);
    gen_for(g, "j", "1", "n-1");
    send(g, &pl, &master, "flag[j]", "2*it+2");
    gen_end(g);
    receive(g, &pl, &others, "flag[t]", "2*it+2", false);
    frame_close(g, &pl);
    free(ids);
    return true;
}

/* barrier-linear (seed 002 Sec II-C, Fig 2): no atomic operation; thread 0
 * checks every flag in order, then writes every flag in order. */
bool gen_emit_barrier_linear(struct gen *g)
{
    return linear(g, 0);
}

/* reduce-linear (seed 002 Sec IV and V-B, "reduction combined with the
 * Linear Centralized barrier"): the same, with the values in the flag
 * lines; thread 0 adds them as it checks the flags and writes the sum back
 * with the release. */
bool gen_emit_reduce_linear(struct gen *g)
{
    return linear(g, g->a->values);
}

/* ---------------------------------------------------------------- combining tree */

/* Nodes of each level: level 0 groups G threads, level l+1 groups G nodes
 * of level l; the last level has one node. Returns the number of levels. */
static int comb_levels(int n, int group, long *nodes, long *span)
{
    int levels = 0;
    long below = n, s = 1;
    do {
        s *= group;
        below = (below + group - 1) / group;
        span[levels] = s;
        nodes[levels++] = below;
    } while (below > 1);
    return levels;
}

/* Before the iterations: every node's counter (word 0) and size (word 1). */
static void comb_setup(struct gen *g, int levels, const long *nodes)
{
    long below = g->n;
    int group = g->a->group;
    for (int l = 0; l < levels; l++) {
        long last = below - (nodes[l] - 1) * group;
        if (nodes[l] > 1) {
            char to[32];
            snprintf(to, sizeof to, "%ld", nodes[l] - 2);
            gen_for(g, "x", "0", to);
            gen_out(g, "0: write cnt%d[x] %d", l, group);
            gen_out(g, "0: write cnt%d[x].1 %d", l, group);
            gen_end(g);
        }
        gen_out(g, "0: write cnt%d[%ld] %ld", l, nodes[l] - 1, last);
        gen_out(g, "0: write cnt%d[%ld].1 %ld", l, nodes[l] - 1, last);
        below = nodes[l];
    }
}

/* Level l of the climb: decrement the node's counter; the last (c == 1)
 * climbs to level l+1, then resets the counter to the node's size and
 * writes the node's release flag; everyone waits for that flag. */
static void comb_level(struct gen *g, int l, int levels, const long *span)
{
    char c[16], to[16], u[16];
    snprintf(c, sizeof c, "c%d", l);
    snprintf(to, sizeof to, "2-c%d", l);
    snprintf(u, sizeof u, "u%d", l);
    gen_out(g, "all: add cnt%d[t/%ld] (-1) -> %s", l, span[l], c);
    gen_for(g, u, "1", to);
    if (l + 1 < levels)
        comb_level(g, l + 1, levels, span);
    gen_out(g, "all: read cnt%d[t/%ld].1 -> sz", l, span[l]);
    gen_out(g, "all: write cnt%d[t/%ld] sz", l, span[l]);
    gen_out(g, "all: write rel%d[t/%ld] it+1", l, span[l]);
    gen_end(g);
    gen_out(g, "all: wait rel%d[t/%ld] >= it+1", l, span[l]);
}

/*
 * barrier-combining (seed 002 Sec II-B, Fig 1; Mellor-Crummey & Scott Alg.
 * 8, software combining tree of Yew et al.): threads are grouped G to a
 * node, nodes G to a parent node. A thread decrements its leaf node's
 * counter; the last to arrive climbs to the parent node and so on; the one
 * that is last at the root turns back, and on the way down each climber
 * resets its node (counter back to the node's size, kept in word 1) and
 * toggles the node's flag (the epoch it+1), releasing the node's waiters.
 * Who climbs is decided at run time: each level is a loop `for u 1..2-c`.
 */
bool gen_emit_barrier_combining(struct gen *g)
{
    long nodes[64], span[64];
    int levels = comb_levels(g->n, g->a->group, nodes, span);
    if (levels + 1 > WL_MAX_DEPTH)
        return gen_fail(g,
                        "group=%d gives %d tree levels for %d threads, more than %d (the "
                        "loop nesting limit): use a larger group",
                        g->a->group, levels, g->n, WL_MAX_DEPTH - 1);
    gen_arrive_decl(g);
    for (int l = 0; l < levels; l++) {
        char name[16], what[128];
        snprintf(name, sizeof name, "cnt%d", l);
        snprintf(what, sizeof what, "level %d: per node, arrivals to come (word 1: node size)", l);
        gen_line(g, name, nodes[l], what);
        snprintf(name, sizeof name, "rel%d", l);
        snprintf(what, sizeof what, "level %d: per node, it+1 once released", l);
        gen_line(g, name, nodes[l], what);
    }
    comb_setup(g, levels, nodes);
    gen_iter_open(g);
    gen_sync(g);
    for (int l = 0; l < levels; l++) {
        char name[16];
        snprintf(name, sizeof name, "cnt%d", l);
        gen_evict(g, name, nodes[l]);
        snprintf(name, sizeof name, "rel%d", l);
        gen_evict(g, name, nodes[l]);
    }
    gen_arrive_enter(g);
    comb_level(g, 0, levels, span);
    gen_arrive_check(g);
    return true;
}

/* ---------------------------------------------------------------- butterflies */

/* Groups of the extended butterfly (Sec III): Gm = the largest power of two
 * <= n groups; the first n-Gm are pairs of consecutive threads (2i, 2i+1),
 * the others single threads. master[i] is group i's master; mate[t] is the
 * second thread of master t's pair, or -1. */
struct ebf {
    int groups, steps;
    int *master, *mate;
    int *masters, nm;   /* masters with a mate */
    int *members, nmem; /* the second threads */
    int *allmasters, nall;
};

static void ebf_init(const struct gen *g, struct ebf *e)
{
    e->groups = 1;
    e->steps = 0;
    while (e->groups * 2 <= g->n) {
        e->groups *= 2;
        e->steps++;
    }
    int pairs = g->n - e->groups;
    e->master = sim_xmalloc((size_t)e->groups * sizeof *e->master);
    e->mate = sim_xmalloc((size_t)g->n * sizeof *e->mate);
    e->masters = sim_xmalloc((size_t)g->n * sizeof *e->masters);
    e->members = sim_xmalloc((size_t)g->n * sizeof *e->members);
    e->allmasters = sim_xmalloc((size_t)g->n * sizeof *e->allmasters);
    e->nm = e->nmem = e->nall = 0;
    for (int t = 0; t < g->n; t++)
        e->mate[t] = -1;
    for (int i = 0; i < e->groups; i++) {
        int m = i < pairs ? 2 * i : i + pairs;
        e->master[i] = m;
        e->allmasters[e->nall++] = m;
        if (i < pairs) {
            e->mate[m] = m + 1;
            e->masters[e->nm++] = m;
            e->members[e->nmem++] = m + 1;
        }
    }
}

static void ebf_free(struct ebf *e)
{
    free(e->master);
    free(e->mate);
    free(e->masters);
    free(e->members);
    free(e->allmasters);
}

/* Alg. 4: in step s the master of group i sends to the master of group
 * i xor 2^s (its line of the step) and receives on its own. */
static void ebf_butterfly(struct gen *g, const struct ebf *e, const struct payload *pl)
{
    int *peer = sim_xmalloc((size_t)g->n * sizeof *peer);
    struct gen_who masters = {e->allmasters, e->nall, NULL}, to = {NULL, 0, peer};
    for (int s = 0; s < e->steps; s++) {
        char dst[32], own[32];
        for (int t = 0; t < g->n; t++)
            peer[t] = -1;
        for (int i = 0; i < e->groups; i++)
            peer[e->master[i]] = e->master[i ^ (1 << s)];
        snprintf(dst, sizeof dst, "step%d[@]", s);
        snprintf(own, sizeof own, "step%d[t]", s);
        if (e->nm)
            gen_note(g, "butterfly step %d: the groups' masters (groups %d apart)", s, 1 << s);
        else
            gen_note(g, "butterfly step %d: partners %d apart", s, 1 << s);
        send(g, pl, &to, dst, "it+1");
        receive(g, pl, &masters, own, "it+1", true);
    }
    free(peer);
}

/* The separate reduction's lines: acc in two halves of n lines, the
 * iteration's parity choosing the half (ACC), so that a thread that writes
 * the next iteration's values does not overwrite a line another thread is
 * still adding (Alg. 1's second barrier does that job in the paper). */
#define SEP_ACC "acc[%s+it%%2*n]"

static void separate_decl(struct gen *g)
{
    gen_line(g, "acc", 2L * g->n,
             "acc[t+it%2*n]: thread t's values in words 1..V, word 0 its entry stamp (user "
             "data, M), a half per iteration parity");
    gen_line(g, "sum", g->n, "sum[t]: thread t's sum (its own line, M)");
}

/* Opens the iteration: values into this parity's acc line, sync, evict the
 * flag lines (names[0..cnt), n lines each), prime acc and sum. Word 0 of
 * acc, unused by the values, is the thread's entry stamp (gen_stamp_clear),
 * written on entry to the barrier: the sum of the stamps shows that every
 * line was added after its thread entered, which the barrier is for. */
static void separate_open(struct gen *g, int values, const char *const *names, int cnt)
{
    char last[16], own[32];
    snprintf(last, sizeof last, "%d", values);
    snprintf(own, sizeof own, SEP_ACC, "t");
    gen_iter_open(g);
    gen_stamp_clear(g, "all", own);
    gen_for(g, "w", "1", last);
    gen_out(g, "all: write %s.(w) t+1+it+w", own);
    gen_end(g);
    gen_sync(g);
    for (int i = 0; i < cnt; i++)
        gen_evict(g, names[i], g->n);
    gen_out(g, "all: prime %s M", own);
    gen_out(g, "all: prime sum[t] M");
    gen_stamp_enter(g, "all", own, "it+1");
}

/* Seed 002 Sec IV, Alg. 1 with the local sums its text proposes: after the
 * barrier every thread adds every other thread's values line into its own
 * sum[t] (its copy of its own values to start with). Word 0 sums the entry
 * stamps: n(it+1) once every line was added after its thread entered. */
static void separate_sum(struct gen *g, const struct payload *pl)
{
    char last[16], own[32], other[32];
    snprintf(last, sizeof last, "%d", pl->values);
    snprintf(own, sizeof own, SEP_ACC, "t");
    snprintf(other, sizeof other, SEP_ACC, "j");
    gen_note(g, "the separate reduction: every thread adds every other thread's values line");
    gen_out(g, "all: copy %s sum[t] 1", own);
    gen_for(g, "j", "0", "t-1");
    gen_out(g, "all: addline sum[t] %s 1", other);
    gen_end(g);
    gen_for(g, "j", "t+1", "n-1");
    gen_out(g, "all: addline sum[t] %s 1", other);
    gen_end(g);
    gen_mark(g);
    gen_out(g, "all: expect sum[t] == n*(it+1)");
    gen_for(g, "w", "1", last);
    gen_out(g, "all: expect sum[t].(w) == n*(n+1)/2+n*(it+w)");
    gen_end(g);
    gen_end(g);
}

/* The whole extended butterfly (Alg. 2): incoming phase (Alg. 3), the
 * masters' butterfly (Alg. 4), outgoing phase (Alg. 5). With `separate`
 * the flags travel bare and the values are reduced after the barrier
 * (separate_sum). */
static bool ebf_emit(struct gen *g, int values, bool separate)
{
    if (separate && values >= g->words)
        return gen_fail(g,
                        "values=%d needs lines of %d bytes or more (words 1..%d; word 0 is the "
                        "entry stamp, where reduce-extbutterfly carries the flag); this "
                        "machine's lines hold %d words (expected values=1..%d)",
                        values, WL_WORD_BYTES * (values + 1), values, g->words, g->words - 1);
    if (!payload_fits(g, values))
        return false;
    struct payload vals = payload_of(g, values);
    struct payload pl = payload_of(g, separate ? 0 : values);
    struct ebf e;
    ebf_init(g, &e);
    const char *names[1 + 32];
    char steps[32][16];
    names[0] = "flag";
    for (int s = 0; s < e.steps; s++) {
        snprintf(steps[s], sizeof steps[s], "step%d", s);
        names[1 + s] = steps[s];
    }
    if (separate)
        separate_decl(g);
    else
        frame_decl(g, &vals);
    gen_line(g, "flag", g->n,
             e.nmem ? "flag[t]: 2it+1 once t arrived at its master, 2it+2 released"
                    : "flag[t]: a pair's flag; no thread has a mate here, so none is used");
    for (int s = 0; s < e.steps; s++)
        gen_line(g, steps[s], g->n,
                 e.nmem ? "step line of each master, written by its partner"
                        : "step line of each thread, written by its partner");
    if (separate)
        separate_open(g, values, names, 1 + e.steps);
    else
        frame_open(g, &vals, names, 1 + e.steps, g->n);
    struct gen_who members = {e.members, e.nmem, NULL}, masters = {e.masters, e.nm, NULL};
    if (e.nmem) {
        gen_note(g, "incoming: the second thread of each pair notifies its master");
        send(g, &pl, &members, "flag[t]", "2*it+1");
        receive(g, &pl, &masters, "flag[t+1]", "2*it+1", true);
    }
    ebf_butterfly(g, &e, &pl);
    if (e.nmem) {
        gen_note(g, "outgoing: masters release their pair");
        send(g, &pl, &masters, "flag[t+1]", "2*it+2");
        receive(g, &pl, &members, "flag[t]", "2*it+2", false);
    }
    if (separate)
        separate_sum(g, &vals);
    else
        frame_close(g, &vals);
    ebf_free(&e);
    return true;
}

/* barrier-butterfly (seed 002 Sec II-D, Fig 3; Alg. 4 without values):
 * log2 n steps of pair-wise exchange; only for a power-of-two count, as
 * the paper uses it ("the Butterfly barrier will refer only to the version
 * with a number of threads equal to a power of two"). */
bool gen_emit_barrier_butterfly(struct gen *g)
{
    if (g->n & (g->n - 1))
        return gen_fail(g,
                        "barrier-butterfly needs a power-of-two thread count, not %d threads "
                        "(barrier-extbutterfly takes any count)",
                        g->n);
    return ebf_emit(g, 0, false);
}

/* barrier-extbutterfly (seed 002 Sec III, Fig 5): groups of at most two
 * threads, the number of groups the largest power of two <= n (the text's
 * "previous power of two"); pairs are consecutive threads (neighbours, as
 * with compact affinity). On a power of two it is the butterfly. */
bool gen_emit_barrier_extbutterfly(struct gen *g)
{
    return ebf_emit(g, 0, false);
}

/* reduce-extbutterfly (seed 002 Sec IV-D, Alg. 2-5): the extended
 * butterfly with flag and values in one line at every step: the pair's
 * second thread sends its values with its arrival, masters add what they
 * receive at every butterfly step, and the release carries the sum. */
bool gen_emit_reduce_extbutterfly(struct gen *g)
{
    return ebf_emit(g, g->a->values, false);
}

/* reduce-extbutterfly-separate (seed 002 Sec IV, Alg. 1; the comparison
 * of Sec IV's first paragraph): the same sum done apart from the
 * synchronisation. Each thread's values are in its own line acc[t] before
 * the extended butterfly barrier, whose flags travel bare; after it every
 * thread adds the n-1 other lines into its own sum[t] (the text's "each
 * thread reduces the values into a local variable", so no second
 * barrier). */
bool gen_emit_reduce_extbutterfly_separate(struct gen *g)
{
    return ebf_emit(g, g->a->values, true);
}

/* ---------------------------------------------------------------- dissemination */

/*
 * reduce-dissemination (seed 002 Sec IV-C, Fig 8): the dissemination
 * barrier (Sec II-E: in step r thread t notifies (t+2^r) % n) with the
 * partial sum carried in the flag's line and added on receipt. For n not a
 * power of two the paths are redundant (some threads are counted twice:
 * five ones sum to 8), so the run reports value errors; for powers of two
 * it is the butterfly's pattern and the sum is right. One value.
 */
bool gen_emit_reduce_diss(struct gen *g)
{
    struct payload pl = payload_of(g, 1);
    int rounds = 0;
    while ((1L << rounds) < g->n)
        rounds++;
    const char *names[32] = {NULL};
    char steps[32][16];
    for (int r = 0; r < rounds; r++) {
        snprintf(steps[r], sizeof steps[r], "step%d", r);
        names[r] = steps[r];
    }
    frame_decl(g, &pl);
    for (int r = 0; r < rounds; r++)
        gen_line(g, steps[r], g->n, "step line of each thread, written by t-2^r (mod n)");
    frame_open(g, &pl, names, rounds, g->n);
    int *peer = sim_xmalloc((size_t)g->n * sizeof *peer), *ids = gen_all_ids(g);
    struct gen_who all = {ids, g->n, NULL}, to = {NULL, 0, peer};
    for (int r = 0; r < rounds; r++) {
        char dst[32], own[32];
        for (int t = 0; t < g->n; t++)
            peer[t] = (int)((t + (1L << r)) % g->n);
        snprintf(dst, sizeof dst, "step%d[@]", r);
        snprintf(own, sizeof own, "step%d[t]", r);
        send(g, &pl, &to, dst, "it+1");
        receive(g, &pl, &all, own, "it+1", true);
    }
    frame_close(g, &pl);
    free(peer);
    free(ids);
    return true;
}
