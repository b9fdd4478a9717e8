/*
 * registry.c -- the generators' registry: the catalogue (every generator,
 * its summary, the paper and section it comes from, its parameters), spec
 * parsing ("NAME[:k=v,...]"), thread placement on the machine (sockets),
 * and the public entry points gen_trace(), gen_list() and gen_names. The
 * generators are in one file per algorithm family: notify.c (ping-pong,
 * many-to-one, one-to-many), tree.c (tree shapes, notification trees),
 * barrier_dissemination.c, barrier_flags.c (centralized, linear,
 * combining, butterfly barriers, the reductions carried in their flags
 * and the separate one after a barrier), radix.c (flat and k-nomial barriers and reductions),
 * bcast.c, reduce.c, mpi_shm.c (the shared-memory MPI transfer) and rcce.c (the SCC's RCCE
 * collectives); the emit helpers in emit.c.
 */
#include "gen_impl.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define LIST_COLS 79 /* `ccsim list generators` wraps its text here */

/* ---------------------------------------------------------------- parameter values */

/* An integer in lo..hi, the whole of v, written plainly: digits with a
 * '-' for a negative one, no space, '+' or leading zero (the trace's
 * header gives the spec as written). */
static bool parse_long(const char *v, long lo, long hi, long *out)
{
    const char *d = v + (*v == '-');
    if (!isdigit((unsigned char)*d) || (d[0] == '0' && d[1]))
        return false;
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (end == v || *end || errno || x < lo || x > hi)
        return false;
    *out = x;
    return true;
}

/* Splits v at '/' into at most max integers in lo..hi. */
static int parse_slashes(const char *v, long lo, long hi, int *out, int max)
{
    char item[32];
    int cnt = 0;
    for (const char *p = v;; p++) {
        const char *e = strchr(p, '/');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        long x;
        if (cnt == max || len == 0 || len >= sizeof item)
            return -1;
        memcpy(item, p, len);
        item[len] = '\0';
        if (!parse_long(item, lo, hi, &x))
            return -1;
        out[cnt++] = (int)x;
        if (!e)
            return cnt;
        p = e;
    }
}

static bool p_mlist(struct gen_args *a, const char *v)
{
    if (!strcmp(v, "auto")) {
        a->nm = 0;
        return true;
    }
    int cnt = parse_slashes(v, 1, GEN_MAX_FANOUT, a->mlist, GEN_MAX_ROUNDS);
    a->nm = cnt;
    return cnt > 0;
}

static bool p_shape_parents(struct gen_shape *s, const char *v)
{
    int *par = sim_xmalloc(WL_MAX_THREADS * sizeof *par);
    int cnt = parse_slashes(v, -1, WL_MAX_THREADS - 1, par, WL_MAX_THREADS);
    if (cnt <= 0) {
        free(par);
        return false;
    }
    s->kind = GEN_SHAPE_PARENTS;
    s->parents = par;
    s->nparents = cnt;
    return true;
}

static bool p_shape(struct gen_args *a, const char *v)
{
    struct gen_shape *s = &a->shape;
    static const char *const fixed[] = {"flat", "binary", "binomial"};
    static const enum gen_shape_kind kinds[] = {GEN_SHAPE_FLAT, GEN_SHAPE_BINARY,
                                                GEN_SHAPE_BINOMIAL};
    for (size_t i = 0; i < SIM_COUNT_OF(fixed); i++)
        if (!strcmp(v, fixed[i])) {
            s->kind = kinds[i];
            return true;
        }
    long k;
    if (!strncmp(v, "kary:", 5) && parse_long(v + 5, 1, GEN_MAX_FANOUT, &k)) {
        s->kind = GEN_SHAPE_KARY;
        s->k = (int)k;
        return true;
    }
    if (!strncmp(v, "parents:", 8))
        return p_shape_parents(s, v + 8);
    return false;
}

static bool p_variant(struct gen_args *a, const char *v)
{
    static const char *const names[] = {"blocking", "nonblocking", "lightweight", "mpb"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(v, names[i])) {
            a->variant = i;
            return true;
        }
    return false;
}

/* the variants of the collectives without a reduction: no mpb */
static bool p_variant3(struct gen_args *a, const char *v)
{
    return strcmp(v, "mpb") != 0 && p_variant(a, v);
}

/* auto (-1) or a number of cycles */
static bool p_cycles(long *out, const char *v)
{
    if (!strcmp(v, "auto")) {
        *out = -1;
        return true;
    }
    return parse_long(v, 0, 1000000, out);
}

static bool p_overhead(struct gen_args *a, const char *v)
{
    return p_cycles(&a->overhead, v);
}

static bool p_request(struct gen_args *a, const char *v)
{
    return p_cycles(&a->request, v);
}

static bool p_buffer(struct gen_args *a, const char *v)
{
    if (!strcmp(v, "auto")) {
        a->buffer = 0;
        return true;
    }
    return parse_long(v, 1, GEN_MAX_LINES, &a->buffer);
}

/* ---------------------------------------------------------------- the catalogue */

/* A parameter: its value goes into the gen_args field at `off`, by kind:
 * an int or a long in lo..hi, a flag set by the word `yes` and cleared by
 * `no`, or anything else through its own parse function. */
enum gen_param_kind { GP_PARSE, GP_INT, GP_LONG, GP_FLAG };
struct gen_param {
    const char *name, *def, *help;
    const char *expect;                               /* the accepted values, for messages */
    bool (*parse)(struct gen_args *a, const char *v); /* GP_PARSE */
    enum gen_param_kind kind;
    size_t off;
    long lo, hi;          /* GP_INT, GP_LONG */
    const char *no, *yes; /* GP_FLAG */
};

#define GP_FIELD(f, type)                                                                          \
    .off = offsetof(struct gen_args, f) +                                                          \
           0 * sizeof(struct {                                                                     \
               _Static_assert(_Generic(((struct gen_args *)0)->f, type : 1, default : 0),          \
                              "gen_args." #f " is not " #type);                                    \
               int x;                                                                              \
           })
#define GP_INT(f, l, h)  .kind = GP_INT, GP_FIELD(f, int), .lo = (l), .hi = (h)
#define GP_LONG(f, l, h) .kind = GP_LONG, GP_FIELD(f, long), .lo = (l), .hi = (h)
#define GP_FLAG(f, n, y) .kind = GP_FLAG, GP_FIELD(f, bool), .no = (n), .yes = (y)

/* Sets a's field for parameter p from the text v; false if v is not one
 * of p's values. */
static bool param_set(const struct gen_param *p, struct gen_args *a, const char *v)
{
    char *field = (char *)a + p->off;
    long x;
    switch (p->kind) {
    case GP_INT:
        if (!parse_long(v, p->lo, p->hi, &x))
            return false;
        *(int *)(void *)field = (int)x;
        return true;
    case GP_LONG:
        return parse_long(v, p->lo, p->hi, (long *)(void *)field);
    case GP_FLAG:
        if (strcmp(v, p->no) && strcmp(v, p->yes))
            return false;
        *(bool *)field = !strcmp(v, p->yes);
        return true;
    case GP_PARSE:
        break;
    }
    return p->parse(a, v);
}

#define LINES_EXPECT  "an integer 1..65536"
#define FANOUT_EXPECT "an integer 1..4095"
#define SHAPE_EXPECT                                                                               \
    "flat, binary, binomial, kary:K with K in 1..4095, or parents:P0/P1/... with one parent "      \
    "per thread"
#define SHAPE_HELP                                                                                 \
    "the tree: flat, binary, binomial (rooted at thread 0), kary:K, or parents:P0/P1/... (the "    \
    "parent of every thread, -1 or itself for the root)"

static const struct gen_param par_pingpong[] = {
    {"lines", "1", "lines per message; the receiver polls the last word of the last line",
     LINES_EXPECT, GP_LONG(lines, 1, GEN_MAX_LINES)},
};
static const struct gen_param par_m2o[] = {
    {"lines", "same",
     "same: every notifier adds 1 to one line (Fig 4a); diff: each writes its own line and "
     "thread 0 waits for them in turn (Fig 4b)",
     "same or diff", GP_FLAG(diff, "same", "diff")},
};
static const struct gen_param par_o2m[] = {
    {"lines", "same",
     "same: the readers poll the one line thread 0 writes (Fig 8a); diff: thread 0 writes one "
     "line per reader (Fig 8b)",
     "same or diff", GP_FLAG(diff, "same", "diff")},
};
static const struct gen_param par_tree[] = {
    {"k", "4",
     "threads that share one flag (the paper's k, Eq 26); the rest are split evenly among the "
     "parents, recursively",
     FANOUT_EXPECT, GP_INT(k, 1, GEN_MAX_FANOUT)},
};
static const struct gen_param par_diss[] = {
    {"m", "1",
     "peers per round (1: the classic dissemination barrier); every round reads m lines, those "
     "of the threads W, 2W, ..., mW before it (W: the round's reach, (m+1)^round), modulo the "
     "threads, so a read may land on the thread's own line or repeat a peer's (as the paper "
     "counts m reads a round); with m >= threads one always does",
     FANOUT_EXPECT, GP_INT(m, 1, GEN_MAX_FANOUT)},
};
static const struct gen_param par_multim[] = {
    {"m", "auto",
     "K1/K2/...: the m of each round, the (m_i+1) multiplying to at least the thread count, "
     "and no round after the one that reaches it; auto: m=2 in every round but the last, whose m "
     "is the least that reaches the thread count",
     "auto or K1/K2/... with every K in 1..4095, at most 32 rounds", .parse = p_mlist},
};
static const struct gen_param par_socket[] = {
    {"m", "1", "m of the dissemination barrier inside each socket", FANOUT_EXPECT,
     GP_INT(m, 1, GEN_MAX_FANOUT)},
};
static const struct gen_param par_bcast[] = {
    {"shape", "flat", SHAPE_HELP, SHAPE_EXPECT, .parse = p_shape},
};
static const struct gen_param par_bcast_ml[] = {
    {"lines", "128", "lines of the message (128: the 8 KB of Fig 14b)", LINES_EXPECT,
     GP_LONG(lines, 1, GEN_MAX_LINES)},
    {"shape", "flat", SHAPE_HELP, SHAPE_EXPECT, .parse = p_shape},
};
static const struct gen_param par_reduce[] = {
    {"shape", "binary", SHAPE_HELP " (binary: the tree of Fig 17)", SHAPE_EXPECT, .parse = p_shape},
};
static const struct gen_param par_reduce_bin[] = {
    {"lines", "64", "lines each thread contributes (64: the 4 KB of Fig 14d)", LINES_EXPECT,
     GP_LONG(lines, 1, GEN_MAX_LINES)},
};

static const struct gen_param par_group[] = {
    {"group", "2",
     "threads (or nodes) per node of the combining tree: the last of a node to arrive goes up, "
     "the others wait for the node's release",
     "an integer 2..4095", GP_INT(group, 2, GEN_MAX_FANOUT)},
};
#define VALUES_HELP                                                                                \
    "integers carried with the flag in one line (the paper's doubles, 1..7: words 1..V, the "      \
    "flag in word 0); when 8*(V+1) bytes exceed the machine's atomic_store_bytes the line is "     \
    "written word by word, the flag last (Sec IV-B, Table I); else staged privately and copied "   \
    "in one line store"
static const struct gen_param par_values[] = {
    {"values", "1", VALUES_HELP, "an integer 1..7", GP_INT(values, 1, GEN_MAX_VALUES)},
};
static const struct gen_param par_values_sep[] = {
    {"values", "1",
     "integers each thread contributes, in words 1..V of its own line (acc, one a thread and "
     "iteration parity, so the next iteration's values do not overwrite a line still being "
     "added); word 0 is the thread's entry stamp, where reduce-extbutterfly carries the flag, "
     "so the same V fit",
     "an integer 1..7", GP_INT(values, 1, GEN_MAX_VALUES)},
};
static const struct gen_param par_bradix[] = {
    {"radix", "2",
     "radix R of the k-nomial tree (children t+j*R^l, j=1..R-1); R >= n-1 is the flat "
     "barrier, R = 1 a chain",
     "an integer 1..4095", GP_INT(radix, 1, GEN_MAX_FANOUT)},
};
/* seed 003's reductions: what follows the radix. */
#define COLLECTIVE_PARAMS                                                                          \
    {"elements", "1",                                                                              \
     "8-byte integer elements per thread (the paper's doubles), on as many lines as needed",       \
     "an integer 1..65536", GP_LONG(elements, 1, GEN_MAX_LINES)},                                  \
        {"sync", "strict",                                                                         \
         "strict: a radix tree barrier after every collective; loose: none, the next collective "  \
         "starts as soon as a thread is free (Sec 3)",                                             \
         "strict or loose", GP_FLAG(strict, "loose", "strict")},                                   \
        {"count", "10",                                                                            \
         "collectives per measured iteration, each on its own buffers: the time of one "           \
         "collective is the iteration latency / count, in both modes",                             \
         "an integer 1..1000", GP_INT(count, 1, GEN_MAX_COUNT)},                                   \
    {                                                                                              \
        "barrier", "4", "radix of the tree barrier of sync=strict", "an integer 2..4095",          \
            GP_INT(bradix, 2, GEN_MAX_FANOUT)                                                      \
    }
static const struct gen_param par_rradix[] = {
    {"radix", "2",
     "radix R of the k-nomial reduction tree (children t+j*R^l, j=1..R-1); R = 1 a chain, R >= "
     "n-1 flat",
     "an integer 1..4095", GP_INT(radix, 1, GEN_MAX_FANOUT)},
    COLLECTIVE_PARAMS,
};
static const struct gen_param par_rflat[] = {COLLECTIVE_PARAMS};
static const struct gen_param par_mpi[] = {
    {"bytes", "65536", "the message size, moved in whole lines (rounded up to the line size)",
     "an integer 8..16777216 (a trace declares at most 2^20 lines in all, and the messages and "
     "receive buffers of both threads take 4 x bytes / line size of them: with 64-byte lines a "
     "message stays under 16 MB, 16 MB itself needs longer lines)",
     GP_LONG(bytes, 8, 1L << 24)},
    {"chunk", "32768",
     "the pipeline's chunk: 32768 (Open MPI fragments) or 65536 (MPICH cells); whole lines "
     "(rounded up)",
     "an integer 8..4194304", GP_LONG(chunk, 8, 1L << 22)},
    {"buffers", "4", "shared chunks the pipeline cycles through", "an integer 1..1024",
     GP_INT(buffers, 1, 1024)},
    {"reuse", "same",
     "same: thread 0 always sends; alternate: the threads swap roles every iteration through "
     "the same shared chunks (Sec IV-E, Fig. 14)",
     "same or alternate", GP_FLAG(alternate, "same", "alternate")},
    {"recv", "hot", "the receive buffer: hot (in the receiver's cache) or cold (evicted)",
     "hot or cold", GP_FLAG(recv_cold, "hot", "cold")},
    {"send", "hot", "the message: hot (just written by the sender) or cold (evicted)",
     "hot or cold", GP_FLAG(send_cold, "hot", "cold")},
    {"flush", "none", "sender: clflush every shared line after writing it (Sec IV-C)",
     "none or sender", GP_FLAG(flush, "none", "sender")},
    {"nt", "none", "sender: non-temporal stores (Sec IV-C; not modelled yet: refused)",
     "none or sender", GP_FLAG(nt, "none", "sender")},
};
/* seed 004's collectives on the SCC */
#define SCC_ELEMENTS(help)                                                                         \
    {                                                                                              \
        "elements", "552", help, "an integer 1..65536", GP_LONG(elements, 1, GEN_MAX_LINES)        \
    }
#define SCC_VECTOR_ELEMENTS                                                                        \
    SCC_ELEMENTS("8-byte integer elements of the vector (the paper's doubles; 552: the "           \
                 "thermodynamics application's Allreduce, Sec IV-C)")
#define SCC_VARIANT(variant_expect, variant_help, variant_parse)                                   \
    {                                                                                              \
        "variant", "blocking", variant_help, variant_expect, .parse = variant_parse                \
    }
#define SCC_SPLIT                                                                                  \
    {                                                                                              \
        "split", "rcce",                                                                           \
            "rcce: the remainder of elements/threads goes to the first block; balanced: one more " \
            "element to each of the first remainder blocks (Sec IV-C, Fig 6)",                     \
            "rcce or balanced", GP_FLAG(balanced, "rcce", "balanced")                              \
    }
#define SCC_COSTS                                                                                  \
    {"overhead", "auto",                                                                           \
     "cycles of software a put or get call costs (auto: 100); a guess, not measured",              \
     "auto or an integer 0..1000000", .parse = p_overhead},                                        \
        {"request", "auto",                                                                        \
         "cycles of software a send or receive request costs (auto, by the variant: blocking "     \
         "200, nonblocking 800, lightweight 100, mpb 100); a guess, not measured",                 \
         "auto or an integer 0..1000000", .parse = p_request},                                     \
    {                                                                                              \
        "buffer", "auto", "lines of each core's comm buffer (auto: what the MPB leaves)",          \
            "auto or an integer 1..65536", .parse = p_buffer                                       \
    }
#define SCC_VARIANT_HELP                                                                           \
    "blocking: RCCE send/recv, odd-even ring order (Fig 4); nonblocking: iRCCE isend/irecv "       \
    "(Fig 5); lightweight: the paper's one-send-one-receive primitives (Sec IV-B)"
#define SCC_VARIANT3                                                                               \
    SCC_VARIANT("blocking, nonblocking or lightweight", SCC_VARIANT_HELP, p_variant3)
static const struct gen_param par_scc[] = {
    SCC_VECTOR_ELEMENTS,
    SCC_VARIANT3,
    SCC_SPLIT,
    SCC_COSTS,
};
/* allgather and alltoall move whole blocks: no split of a vector */
static const struct gen_param par_scc_allgather[] = {
    SCC_ELEMENTS("8-byte integer elements of the block each thread contributes (the result holds "
                 "threads x elements)"),
    SCC_VARIANT3,
    SCC_COSTS,
};
static const struct gen_param par_scc_alltoall[] = {
    SCC_ELEMENTS("8-byte integer elements of each block a thread sends to one thread (its vector "
                 "holds threads x elements)"),
    SCC_VARIANT3,
    SCC_COSTS,
};
static const struct gen_param par_scc_reduce[] = {
    SCC_VECTOR_ELEMENTS,
    SCC_VARIANT("blocking, nonblocking, lightweight or mpb",
                SCC_VARIANT_HELP "; mpb: the reduce-scatter works on the MPBs, double-buffered "
                                 "(Sec IV-D, Fig 8)",
                p_variant),
    SCC_SPLIT,
    SCC_COSTS,
};
static const struct gen_param par_scc_barrier[] = {
    {"request", "auto",
     "cycles of software (RCCE's call) each thread spends once: a thread before it signals "
     "thread 0, thread 0 before its waits (auto: 200)",
     "auto or an integer 0..1000000", .parse = p_request},
};

/* The parameters column of the catalogue: an array, or none. */
#define PARAMS(par) par, (int)SIM_COUNT_OF(par)
#define NO_PARAMS   NULL, 0

#define TREE_FLAGS_NOTE                                                                            \
    "; on several sockets a parent's flags are one line per socket of its children (Sec 4.1.1, "   \
    "5.1.1)"
#define SOCKET_NOTE                                                                                \
    "; threads fill one socket's cores first, a thread a core (-c CONFIG gives the sockets); on "  \
    "one socket it is "                                                                            \
    "barrier-dissemination"

/* The papers of the catalogue, by their numbers among the seeds (titles: papers[] below). */
enum gen_paper { P000 = 0, P001 = 1, P002 = 2, P003 = 3, P004 = 4 };

/* X(name, emitter, parameters, fewest threads, most threads (0: no limit), paper, source,
 *   summary) */
#define GEN_CATALOGUE(X)                                                                           \
    X("pingpong", pingpong, PARAMS(par_pingpong), 2, 2, P000, "Sec 2.2.1, 2.2.3, Eq 1",            \
      "ping-pong: thread 0 copies its send buffer into thread 1's receive buffer, 1 polls the "    \
      "last word and copies back")                                                                 \
    X("m2o", m2o, PARAMS(par_m2o), 2, 0, P000, "Sec 3.1, Fig 4, Table 5",                          \
      "many-to-one: threads 1..n-1 notify thread 0")                                               \
    X("o2m", o2m, PARAMS(par_o2m), 2, 0, P000, "Sec 3.2, Fig 8, Table 6",                          \
      "one-to-many: thread 0 notifies threads 1..n-1")                                             \
    X("m2o-tree", m2o_tree, PARAMS(par_tree), 2, 0, P000, "Sec 3.1 (Fig 7b), tree of Sec 3.2",     \
      "many-to-one notification tree: each group of k children adds to one line of its parent "    \
      "(single-line m2o), a new line per group")                                                   \
    X("o2m-tree", o2m_tree, PARAMS(par_tree), 2, 0, P000, "Sec 3.2 (Fig 7d, Eq 26)",               \
      "one-to-many notification tree: a parent writes one line per group of k children, who "      \
      "then notify their own subtrees")                                                            \
    X("barrier-dissemination", barrier_diss, PARAMS(par_diss), 2, 0, P000,                         \
      "Sec 3.3.1, Fig 10a, Eq 27",                                                                 \
      "m-way dissemination barrier, a single-use line per thread and round (r0[t], r1[t], ...)")   \
    X("barrier-multim", barrier_multim, PARAMS(par_multim), 2, 0, P000, "Sec 3.3.1 (Fig 11d)",     \
      "multi-m dissemination barrier: round i notifies m_i peers")                                 \
    X("barrier-pairwise", barrier_pairwise, PARAMS(par_socket), 2, 0, P000, "Sec 3.3.2, Eq 30",    \
      "dissemination barrier per socket, then every thread writes a final flag and reads its "     \
      "peer's in each other socket (the thread at its place there, modulo that socket's threads: " \
      "with sockets of unequal threads, some flags of the larger are read by no one)" SOCKET_NOTE) \
    X("barrier-socketroot", barrier_socketroot, PARAMS(par_socket), 2, 0, P000,                    \
      "Sec 3.3.2, Eq 31",                                                                          \
      "dissemination barrier per socket, then each socket's first thread writes a flag every "     \
      "thread of the other sockets reads" SOCKET_NOTE)                                             \
    X("bcast-tree", bcast_tree, PARAMS(par_bcast), 2, 0, P000, "Sec 4.1, Alg. 6 (Fig 12)",         \
      "one-line broadcast: a child waits for its parent's flag and copies its line; a parent "     \
      "publishes its line, raises its flag and waits for its children" TREE_FLAGS_NOTE)            \
    X("bcast-multiline", bcast_multiline, PARAMS(par_bcast_ml), 2, 0, P000, "Sec 4.2",             \
      "multi-line broadcast: children copy N lines straight from their parent's "                  \
      "buffer" TREE_FLAGS_NOTE)                                                                    \
    X("reduce-tree", reduce_tree, PARAMS(par_reduce), 2, 0, P000, "Sec 5.1, Alg. 7 (Fig 16)",      \
      "one-line reduction with line privatisation: children copy their line into private "         \
      "buffers of the parent, who adds them" TREE_FLAGS_NOTE)                                      \
    X("reduce-binomial", reduce_binomial, PARAMS(par_reduce_bin), 2, 0, P000, "Sec 5.2, Eq 35",    \
      "multi-line binomial reduction: in stage s a thread adds the N lines of the thread 2^s "     \
      "places after it in its socket's order (t+2^s with one thread a core); one tree per "        \
      "socket, then one between the sockets")                                                      \
    X("mpi-shm", mpi_shm, PARAMS(par_mpi), 2, 2, P001, "Sec III-IV, Tables I-II, Figs 6 and 14",   \
      "shared-memory MPI transfer: the sender copies its message into shared chunks, the "         \
      "receiver copies them out, pipelined (Open MPI fragments, MPICH cells)")                     \
    X("barrier-central", barrier_central, NO_PARAMS, 2, 0, P002, "Sec II-A",                       \
      "centralized barrier (the paper's sense-reversing one, the sense an epoch number it+1): "    \
      "each thread decrements one counter; the last resets it and writes the global flag all "     \
      "others spin on")                                                                            \
    X("barrier-linear", barrier_linear, NO_PARAMS, 2, 0, P002, "Sec II-C, Fig 2",                  \
      "linear centralized barrier: every thread writes its own flag line; thread 0 checks each "   \
      "in turn, then writes each to release its owner")                                            \
    X("barrier-combining", barrier_combining, PARAMS(par_group), 2, 0, P002, "Sec II-B, Fig 1",    \
      "software combining tree barrier: a counter per node of G; the last to arrive climbs, "      \
      "resets the node and releases it on the way down")                                           \
    X("barrier-butterfly", barrier_butterfly, NO_PARAMS, 2, 0, P002, "Sec II-D, Fig 3, Alg. 4",    \
      "butterfly barrier (a power-of-two thread count): in step s thread t writes the step's "     \
      "line of thread t xor 2^s and spins on its own")                                             \
    X("barrier-extbutterfly", barrier_extbutterfly, NO_PARAMS, 2, 0, P002, "Sec III, Fig 5",       \
      "extended butterfly barrier: groups of at most 2 threads (consecutive) with a master; a "    \
      "butterfly among the masters, who then release their groups; any thread count")              \
    X("reduce-linear", reduce_linear, PARAMS(par_values), 2, 0, P002, "Sec IV, V-B",               \
      "all-reduce combined with the linear centralized barrier: each thread sends flag and "       \
      "values in its flag line; thread 0 adds them in turn and writes the sum back with the "      \
      "release")                                                                                   \
    X("reduce-extbutterfly", reduce_extbutterfly, PARAMS(par_values), 2, 0, P002,                  \
      "Sec IV-D, Alg. 2-5",                                                                        \
      "extended butterfly all-reduce: flag and up to 7 values travel in one line through the "     \
      "groups, the masters' butterfly and the release; every thread ends with the sum")            \
    X("reduce-extbutterfly-separate", reduce_extbutterfly_separate, PARAMS(par_values_sep), 2, 0,  \
      P002, "Sec IV, Alg. 1",                                                                      \
      "a barrier, then a separate reduction (what reduce-extbutterfly is compared with): the "     \
      "extended butterfly barrier with bare flags, each thread's values in its own line; after "   \
      "it every thread adds the other threads' lines into its own sum")                            \
    X("reduce-dissemination", reduce_diss, NO_PARAMS, 2, 0, P002, "Sec IV-C, Fig 8",               \
      "a sum carried through a dissemination barrier: redundant paths make it WRONG when the "     \
      "thread count is not a power of two (8 instead of 5 for five ones); its expect states the "  \
      "correct sum, so such runs report value errors on purpose")                                  \
    X("reduce-flat", reduce_flat, PARAMS(par_rflat), 2, 0, P003, "Sec 4, Fig 4-6 (Flat)",          \
      "flat reduction: thread 0 adds every other thread's elements once its ready flag is up; "    \
      "count collectives per iteration, strict or loose")                                          \
    X("reduce-radix", reduce_radix, PARAMS(par_rradix), 2, 0, P003, "Sec 3, 4.1, Table 2",         \
      "tree reduction of radix R: a thread adds its children's elements as each signals, then "    \
      "signals its parent; count collectives per iteration, strict or loose")                      \
    X("barrier-radix", barrier_radix, PARAMS(par_bradix), 2, 0, P003, "Sec 2.2, Fig 1-2",          \
      "tree barrier of radix R: children add 1 to their parent's counter once their subtree "      \
      "arrived, then wait for the parent's release flag (R >= n-1: flat)")                         \
    X("scc-barrier", scc_barrier, PARAMS(par_scc_barrier), 2, 0, P004, "Sec III (RCCE)",           \
      "RCCE's barrier on the MPBs: every thread sets its flag in thread 0's MPB, thread 0 "        \
      "waits for each and releases each (SCC only)")                                               \
    X("scc-bcast", scc_bcast, PARAMS(par_scc), 2, 0, P004, "Sec IV-C, V-A (Fig 9d)",               \
      "RCCE_comm broadcast: thread 0 scatters the blocks, then an allgather on the ring (SCC)")    \
    X("scc-reduce", scc_reduce, PARAMS(par_scc_reduce), 2, 0, P004, "Sec IV-C, V-A (Fig 9e)",      \
      "reduce-scatter on the ring, then every block's sum to thread 0 (SCC)")                      \
    X("scc-allgather", scc_allgather, PARAMS(par_scc_allgather), 2, 0, P004,                       \
      "Sec IV-A, V-A (Fig 9a)",                                                                    \
      "every thread's whole vector around the ring to every thread (SCC)")                         \
    X("scc-alltoall", scc_alltoall, PARAMS(par_scc_alltoall), 2, 0, P004,                          \
      "Sec IV-A, V-A (Fig 9b)",                                                                    \
      "block j of every thread to thread j, pairwise rounds t+r / t-r (SCC)")                      \
    X("scc-reducescatter", scc_reducescatter, PARAMS(par_scc_reduce), 2, 0, P004,                  \
      "Sec IV-A, Fig 2, V-A (Fig 9c)",                                                             \
      "the ring reduce-scatter: thread t ends with the sum of block t+1 (SCC)")                    \
    X("scc-allreduce", scc_allreduce, PARAMS(par_scc_reduce), 2, 0, P004,                          \
      "Sec IV, Figs 2-8, V-A (Fig 9f)",                                                            \
      "RCCE_comm's Allreduce: reduce-scatter then allgather on the ring, with the paper's "        \
      "variants and splits (SCC)")

struct gen_def {
    const char *name, *source, *summary;
    const struct gen_param *params;
    int nparams;
    int min_threads, max_threads;
    enum gen_paper paper;
    bool (*emit)(struct gen *g);
};

#define GEN_X_DEF(nm, id, par, lo, hi, pap, src, sum)                                              \
    {nm, src, sum, par, lo, hi, pap, gen_emit_##id},
static const struct gen_def catalogue[] = {GEN_CATALOGUE(GEN_X_DEF)};
#undef GEN_X_DEF

/* The papers the generators come from: short name, authors and title. */
static const struct {
    const char *seed, *cite;
} papers[] = {
    [P000] = {"seed 000", "Ramos & Hoefler, \"Cache Line Aware Algorithm Design for "
                          "Cache-Coherent Architectures\""},
    [P001] = {"seed 001", "Putigny, Ruelle & Goglin, \"Analysis of MPI Shared-Memory "
                          "Communication Performance from a Cache Coherence Perspective\""},
    [P002] = {"seed 002", "Mohamed El Maarouf, Giraud, Guermouche & Guignon, \"Combining "
                          "reduction with synchronization barrier on multi-core processors\""},
    [P003] = {"seed 003", "Nishtala & Yelick, \"Optimizing Collective Communication on "
                          "Multicores\""},
    [P004] = {"seed 004", "Kohler, Radetzki, Gschwandtner & Fahringer, \"Low-Latency "
                          "Collectives for the Intel SCC\""},
};

#define GEN_X_NAME(nm, ...) nm,
const char *const gen_names[] = {GEN_CATALOGUE(GEN_X_NAME) NULL};
#undef GEN_X_NAME

/* ---------------------------------------------------------------- spec parsing */

static const struct gen_def *find_gen(struct gen *g, const char *name, size_t len)
{
    for (size_t i = 0; i < SIM_COUNT_OF(catalogue); i++)
        if (strlen(catalogue[i].name) == len && !strncmp(catalogue[i].name, name, len))
            return &catalogue[i];
    char hint[1024];
    sim_suggest(hint, sizeof hint, name, len, gen_names, SIM_COUNT_OF(catalogue),
                "known generators:");
    gen_fail(g, "unknown generator '%.*s'%s", (int)len, name, hint);
    return NULL;
}

static int find_param(struct gen *g, const struct gen_def *def, const char *key)
{
    const char *names[8];
    for (int i = 0; i < def->nparams; i++) {
        names[i] = def->params[i].name;
        if (!strcmp(key, names[i]))
            return i;
    }
    char hint[512];
    if (def->nparams == 0)
        snprintf(hint, sizeof hint, " (it takes none)");
    else
        sim_suggest(hint, sizeof hint, key, strlen(key), names, (size_t)def->nparams,
                    "its parameters:");
    gen_fail(g, "%s has no parameter '%s'%s", def->name, key, hint);
    return -1;
}

/* One `k=v` item; val[] holds the values given so far. */
static bool parse_item(struct gen *g, const struct gen_def *def, char *item, const char **val,
                       struct gen_args *a)
{
    char *eq = strchr(item, '=');
    if (!eq || eq == item)
        return gen_fail(g, "'%s' is not k=v (expected NAME:k=v,...)", item);
    *eq = '\0';
    int i = find_param(g, def, item);
    if (i < 0)
        return false;
    if (val[i])
        return gen_fail(g, "parameter '%s' is given twice", item);
    val[i] = eq + 1;
    const struct gen_param *p = &def->params[i];
    if (!param_set(p, a, eq + 1))
        return gen_fail(g, "bad value for %s: '%s' (expected %s)", p->name, eq + 1, p->expect);
    return true;
}

/* A value the others leave unused is refused, not ignored: the tree
 * barrier's radix with sync=loose (which has no barrier). */
static bool check_unused(struct gen *g, const struct gen_def *def, const char *const *val,
                         const struct gen_args *a)
{
    for (int i = 0; i < def->nparams; i++)
        if (val[i] && !strcmp(def->params[i].name, "barrier") && !a->strict)
            return gen_fail(g,
                            "barrier=%s: sync=loose has no barrier (barrier is the radix of "
                            "sync=strict's tree barrier)",
                            val[i]);
    return true;
}

/* Parses the parameters after "NAME:" (NULL: none given) over the defaults;
 * writes the full spec, every parameter with its value, into full. */
static bool parse_params(struct gen *g, const struct gen_def *def, const char *params,
                         struct gen_args *a, struct gen_buf *full)
{
    const char *val[8] = {NULL};
    SIM_ASSERT(def->nparams <= (int)SIM_COUNT_OF(val));
    for (int i = 0; i < def->nparams; i++)
        SIM_ASSERT(param_set(&def->params[i], a, def->params[i].def));
    char *copy = sim_xstrdup(params ? params : "");
    bool ok = true;
    size_t len = strlen(copy);
    if (params && (len == 0 || copy[len - 1] == ',' || copy[0] == ',' || strstr(copy, ",,")))
        ok = gen_fail(g, "an empty parameter (expected NAME:k=v,...)");
    char *save = NULL;
    for (char *it = strtok_r(copy, ",", &save); ok && it; it = strtok_r(NULL, ",", &save))
        ok = parse_item(g, def, it, val, a);
    ok = ok && check_unused(g, def, val, a);
    gb_printf(full, "%s", def->name);
    for (int i = 0; ok && i < def->nparams; i++)
        gb_printf(full, "%s%s=%s", i ? "," : ":", def->params[i].name,
                  val[i] ? val[i] : def->params[i].def);
    free(copy);
    return ok;
}

/* ---------------------------------------------------------------- threads and machine */

static bool check_counts(struct gen *g, const struct gen_def *def, const struct gen_machine *m)
{
    if (def->max_threads && def->min_threads == def->max_threads && g->n != def->min_threads)
        return gen_fail(g, "%s needs exactly %d threads, not %d (-t %d)", def->name,
                        def->min_threads, g->n, def->min_threads);
    if (g->n < def->min_threads)
        return gen_fail(g, "%d thread%s too few (%s needs at least %d)", g->n,
                        g->n == 1 ? " is" : "s are", def->name, def->min_threads);
    if (g->n > WL_MAX_THREADS)
        return gen_fail(g, "%d threads are too many (at most %d)", g->n, WL_MAX_THREADS);
    if (g->iters < 1 || g->iters > GEN_MAX_ITERS)
        return gen_fail(g, "%ld iterations are out of range (expected 1..%ld)", g->iters,
                        GEN_MAX_ITERS);
    if (!m)
        return true;
    if (m->line_bytes && (m->line_bytes % 8 || m->line_bytes < 16 || m->line_bytes > 4096))
        return gen_fail(g,
                        "line_bytes %d is not a multiple of 8 in 16..4096 (a generated line "
                        "has data and a flag word)",
                        m->line_bytes);
    if (m->cores < 0 || m->sockets < 1 || m->threads_per_core < 1)
        return gen_fail(g, "the machine description is invalid (cores >= 0, sockets >= 1, "
                           "threads_per_core >= 1)");
    if (m->cores > 0 && (long)g->n > (long)m->cores * m->threads_per_core)
        return gen_fail(g, "%d threads do not fit the machine (%d cores of %d hardware thread%s)",
                        g->n, m->cores, m->threads_per_core, m->threads_per_core == 1 ? "" : "s");
    /* a machine with message-passing buffers (the SCC) keeps no copies
     * coherent: only the RCCE generators (seed 004) share data through them */
    if (m->mpb_lines > 0 && def->paper != P004)
        return gen_fail(g,
                        "%s shares plain lines between threads and needs coherent caches; this "
                        "machine keeps no copies coherent (its generators are the scc-* ones; a "
                        "trace of your own can put lines in its message-passing buffers, "
                        "docs/labs/05-scc-mpb)",
                        def->name);
    return true;
}

static void add_member(struct gen *g, int s, int t, int *group_of_socket)
{
    if (group_of_socket[s] < 0) {
        group_of_socket[s] = g->ngroups;
        g->groups[g->ngroups++] = (struct gen_group){.socket = s, .first = t};
        g->groups[g->ngroups - 1].members = sim_xmalloc((size_t)g->n * sizeof(int));
    }
    struct gen_group *gr = &g->groups[group_of_socket[s]];
    gr->members[gr->size++] = t;
    g->group_of[t] = group_of_socket[s];
}

/* Thread t on core t % cores, hardware thread t / cores; core c in socket
 * c / (cores / sockets): the first threads fill socket 0's cores, a thread
 * a core (seed 000 Sec 2.5), before socket 1's; then the cores' next
 * hardware threads, in the same order. */
static void layout(struct gen *g, const struct gen_machine *m)
{
    g->pinned = m && m->cores > 0;
    g->cores = g->pinned ? m->cores : g->n;
    g->sockets = g->pinned ? m->sockets : 1;
    g->tpc = m ? m->threads_per_core : 1;
    g->per_socket = g->cores / g->sockets > 0 ? g->cores / g->sockets : g->cores;
    g->group_of = sim_xmalloc((size_t)g->n * sizeof *g->group_of);
    g->groups = sim_xcalloc((size_t)g->sockets, sizeof *g->groups);
    int *group_of_socket = sim_xmalloc((size_t)g->sockets * sizeof *group_of_socket);
    for (int s = 0; s < g->sockets; s++)
        group_of_socket[s] = -1;
    for (int t = 0; t < g->n; t++) {
        int s = (t % g->cores) / g->per_socket;
        add_member(g, s < g->sockets ? s : g->sockets - 1, t, group_of_socket);
    }
    for (int i = 0; i < g->ngroups; i++) {
        struct gen_group *gr = &g->groups[i];
        gr->contiguous = gr->members[gr->size - 1] - gr->first == gr->size - 1;
    }
    free(group_of_socket);
}

static void free_gen(struct gen *g, struct gen_args *a)
{
    for (int i = 0; i < g->ngroups; i++)
        free(g->groups[i].members);
    free(g->groups);
    free(g->group_of);
    free(a->shape.parents);
}

/* ---------------------------------------------------------------- entry points */

static bool generate(struct gen *g, const char *spec, const struct gen_machine *m,
                     struct gen_args *a)
{
    size_t nlen = strcspn(spec, ":");
    const struct gen_def *def = find_gen(g, spec, nlen);
    struct gen_buf full = {0};
    bool ok = def && parse_params(g, def, spec[nlen] ? spec + nlen + 1 : NULL, a, &full) &&
              check_counts(g, def, m);
    if (ok) {
        layout(g, m);
        g->words = (m && m->line_bytes ? m->line_bytes : 64) / WL_WORD_BYTES;
        g->atomic_bytes = m && m->atomic_store_bytes ? m->atomic_store_bytes : WL_WORD_BYTES;
        g->mpb_lines = m ? m->mpb_lines : 0;
        char what[1024];
        snprintf(what, sizeof what, "%s (%s, %s, %s)", def->summary, papers[def->paper].seed,
                 papers[def->paper].cite, def->source);
        gen_head(g, full.s, what);
        ok = def->emit(g) && !g->too_many_lines;
    }
    free(full.s);
    return ok;
}

char *gen_trace(const char *spec, int threads, long iterations, const struct gen_machine *m,
                struct sim_diag *d)
{
    char where[WL_MAX_LINE_CHARS + 8];
    snprintf(where, sizeof where, "-w %s", spec);
    return gen_trace_at(where, spec, threads, iterations, m, d);
}

char *gen_trace_at(const char *where, const char *spec, int threads, long iterations,
                   const struct gen_machine *m, struct sim_diag *d)
{
    struct gen_args a = {0};
    struct gen g = {.where = where, .d = d, .a = &a, .n = threads, .iters = iterations};
    bool ok = generate(&g, spec, m, &a);
    free_gen(&g, &a);
    if (!ok) {
        free(g.out.s);
        return NULL;
    }
    return g.out.s;
}

bool gen_check_spec(const char *where, const char *spec, struct sim_diag *d)
{
    struct gen_args a = {0};
    struct gen g = {.where = where, .d = d, .a = &a, .n = 1, .iters = 1};
    size_t nlen = strcspn(spec, ":");
    const struct gen_def *def = find_gen(&g, spec, nlen);
    struct gen_buf full = {0};
    bool ok = def && parse_params(&g, def, spec[nlen] ? spec + nlen + 1 : NULL, &a, &full);
    free(full.s);
    free_gen(&g, &a);
    return ok;
}

/* text at the given indentation, wrapped at LIST_COLS columns. */
static void list_wrapped(FILE *f, int indent, const char *text)
{
    const int width = LIST_COLS - indent;
    while (*text) {
        int len = (int)strlen(text);
        if (len > width) {
            len = width;
            while (len > 0 && text[len] != ' ')
                len--;
            if (len == 0)
                len = (int)strcspn(text, " ");
        }
        fprintf(f, "%*s%.*s\n", indent, "", len, text);
        text += len;
        while (*text == ' ')
            text++;
    }
}

void gen_list(FILE *f)
{
    fprintf(f, "Generators: the algorithms of the seeds. Use NAME[:k=v,...] with `ccsim gen`\n"
               "and `ccsim run -w`. Data values are 64-bit integers: where a paper sums\n"
               "doubles, the generators sum integers.\n");
    for (size_t i = 0; i < SIM_COUNT_OF(papers); i++)
        if (papers[i].seed) {
            char line[512];
            snprintf(line, sizeof line, "%s: %s", papers[i].seed, papers[i].cite);
            list_wrapped(f, 2, line);
        }
    for (size_t i = 0; i < SIM_COUNT_OF(catalogue); i++) {
        const struct gen_def *def = &catalogue[i];
        fprintf(f, "\n%s  [%s %s]\n", def->name, papers[def->paper].seed, def->source);
        list_wrapped(f, 4, def->summary);
        if (def->max_threads)
            fprintf(f, "    threads: exactly %d\n", def->max_threads);
        for (int j = 0; j < def->nparams; j++) {
            const struct gen_param *p = &def->params[j];
            fprintf(f, "    %s=%s\n", p->name, p->def);
            list_wrapped(f, 8, p->help);
        }
    }
}
