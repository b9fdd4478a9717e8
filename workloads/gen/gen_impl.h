/*
 * gen_impl.h -- internals shared by the trace generators (workloads/gen/):
 * the parsed parameters, the generation context, the text buffer and the
 * emit helpers every generator uses. Not a public header: only the files of
 * workloads/gen/ include it.
 *
 * A generator writes a program of cache-line operations in the trace format
 * (docs/DESIGN.md); it never computes a time. The frame every generator
 * follows is seed 000 Sec 2.5: data is produced before `all: sync` (the
 * computation phase, not timed), `all: sync` opens the iteration, flags are
 * evicted (state I) and user data primed in M in its owner's cache, every
 * thread ends with `all: mark done`, and `expect`s after the mark check the
 * result with values that change every iteration. A reader of data produced
 * before the sync finds it fresh whether or not it waited, so barriers are
 * checked with arrive[] and collectives that read such data with an entry
 * stamp (gen_arrive_*, gen_stamp_* below).
 */
#ifndef CCSIM_GEN_IMPL_H
#define CCSIM_GEN_IMPL_H

#include "gen.h"
#include "trace.h"

#include <stdbool.h>
#include <stddef.h>

#define GEN_MAX_ROUNDS 32 /* barrier-multim: values of m */
#define GEN_MAX_LINES  65536
#define GEN_MAX_FANOUT 4095
#define GEN_MAX_ITERS  1000000000L
#define GEN_MAX_VALUES 7    /* seed 002: values carried with a flag in one 64-byte line */
#define GEN_MAX_COUNT  1000 /* seed 003: collectives per iteration */

/* ---------------------------------------------------------------- text */

/* A growable NUL-terminated string. */
struct gen_buf {
    char *s;
    size_t len, cap;
};

void gb_printf(struct gen_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---------------------------------------------------------------- parameters */

enum gen_shape_kind {
    GEN_SHAPE_FLAT,
    GEN_SHAPE_BINARY,
    GEN_SHAPE_BINOMIAL,
    GEN_SHAPE_KARY,
    GEN_SHAPE_PARENTS
};

/* A tree shape (shape=...): the parent of every thread follows from it. */
struct gen_shape {
    enum gen_shape_kind kind;
    int k;        /* kary:K */
    int *parents; /* parents:P0/P1/...: malloc'ed, nparents entries */
    int nparents;
};

/* Every parameter of every generator, parsed; a generator reads its own. */
struct gen_args {
    long lines;                /* pingpong, bcast-multiline, reduce-binomial: lines */
    bool diff;                 /* m2o, o2m: lines=diff */
    int k;                     /* m2o-tree, o2m-tree: threads that read one flag */
    int m;                     /* dissemination barriers: m */
    int mlist[GEN_MAX_ROUNDS]; /* barrier-multim: m of each round */
    int nm;                    /* rounds in mlist; 0: auto */
    struct gen_shape shape;    /* bcast-*, reduce-tree */
    int group;                 /* barrier-combining: threads per node */
    int values;                /* reduce-linear, reduce-extbutterfly: values with the flag */
    int radix;                 /* reduce-radix, barrier-radix: tree radix */
    int bradix;                /* reduce-radix, reduce-flat: radix of the strict barrier */
    long elements;             /* reduce-radix, reduce-flat: 8-byte elements per thread */
    bool strict;               /* reduce-radix, reduce-flat: sync=strict */
    int count;                 /* reduce-radix, reduce-flat: collectives per iteration */
    long bytes, chunk;         /* mpi-shm: message and chunk sizes */
    int buffers;               /* mpi-shm: shared chunks */
    bool alternate;            /* mpi-shm: reuse=alternate */
    bool recv_cold, send_cold; /* mpi-shm: recv=cold, send=cold */
    bool flush, nt;            /* mpi-shm: flush=sender, nt=sender */
    int variant;               /* scc-*: blocking, nonblocking, lightweight, mpb */
    bool balanced;             /* scc-*: split=balanced */
    long overhead, request;    /* scc-*: software cycles (-1: auto) */
    long buffer;               /* scc-*: comm buffer lines (0: auto) */
};

/* ---------------------------------------------------------------- context */

/* The threads of one socket, in thread order (seed 000 Sec 2.5 packs one
 * socket first). Threads of a socket are contiguous unless hardware threads
 * are in use on a multi-socket machine. */
struct gen_group {
    int socket; /* the machine's socket number */
    int size;
    int *members;    /* thread ids, ascending */
    int first;       /* members[0] */
    bool contiguous; /* members are first .. first+size-1 */
};

struct gen {
    struct gen_buf out;
    const char *where; /* "-w SPEC" (or "ccsim gen SPEC"), the prefix of every message */
    struct sim_diag *d;
    const struct gen_args *a;
    int n;       /* threads */
    long iters;  /* iterations */
    int words;   /* 8-byte words per line */
    int depth;   /* indentation level of the next statement */
    bool pinned; /* a pin line is written */
    int cores, sockets, tpc;
    int per_socket; /* cores of one socket */
    int ngroups;    /* populated sockets */
    struct gen_group *groups;
    int *group_of;       /* the group of each thread */
    int atomic_bytes;    /* what one store writes atomically (the machine's, 8 if unknown) */
    long mpb_lines;      /* MPB lines per core (0: none or unknown) */
    long lines;          /* declared so far (gen_line) */
    bool too_many_lines; /* more than a trace may declare (the message is in d) */
};

/* Adds "-w SPEC: message" to the diagnostics; returns false. */
bool gen_fail(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The prologue: header, a comment naming the generator and its source,
 * `threads`, `pin` (when the machine is known). `what` is wrapped into
 * comment lines. */
void gen_head(struct gen *g, const char *spec, const char *what);
/* `line NAME COUNT  # comment` (count 1: a variable, no COUNT). */
void gen_line(struct gen *g, const char *name, long count, const char *comment);
/* One statement at the current depth (the text after the indentation). */
void gen_out(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A comment line at the current depth. */
void gen_note(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* `for VAR A..B {` and `}`, indenting what is between. */
void gen_for(struct gen *g, const char *var, const char *from, const char *to);
void gen_end(struct gen *g);
/* The iteration loop: `for it 0..I-1 {` (closed with gen_end). What comes
 * before gen_sync() in it is the computation phase that produces the data. */
void gen_iter_open(struct gen *g);
/* `all: sync`: opens the measured iteration. */
void gen_sync(struct gen *g);
/* `all: mark done`: every thread's finishing time (the slowest counts). */
void gen_mark(struct gen *g);

/* `SEL: text` for the threads ids[0..cnt) (any order, no repeats): `all`,
 * `others`, or a list of ranges; long lists are split into several
 * statements. Nothing is written for cnt == 0. */
void gen_set_stmt(struct gen *g, const int *ids, int cnt, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A statement for every thread t with peer[t] >= 0, where the template's
 * `@` stands for the peer and `$` for the peer times `scale` (an index into
 * an array of `scale` lines per thread): threads are grouped either by a
 * common peer (`@` is a number) or by a common distance (`@` is `t+D`),
 * whichever needs fewer statements. */
void gen_peer_stmt(struct gen *g, const int *peer, long scale, const char *tmpl);
/* `SEL: text` for the threads with count[t] == k, one statement per
 * distinct k > 0, where `#` in the template stands for k. */
void gen_count_stmt(struct gen *g, const int *count, const char *tmpl);
/* Evicts the lines name[0..count) at the start of an iteration (sync
 * structures are in memory, state I, seed 000 Sec 2.5). */
void gen_evict(struct gen *g, const char *name, long count);
/* Primes name[t*per .. t*per+per) in M in thread t's cache for every
 * thread t (user data, seed 000 Sec 2.5). */
void gen_prime_own(struct gen *g, const char *name, long per);

/* Writes an expression in t for (the thread's index in its group) + k,
 * folding constants: `t`, `t-8`, `t/16*8+t%16-8`. */
void gen_local(const struct gen *g, const struct gen_group *gr, long k, char *buf, size_t size);

/* The tree of the shape= parameter: every thread's parent (-1 for the
 * root) and number of children. */
struct gen_tree {
    int *parent, *kids;
    int root;
};
/* Builds it from g->a->shape; false with a message if the shape does not
 * fit the thread count. Free it with gen_tree_free() either way. */
bool gen_tree_init(struct gen *g, struct gen_tree *tr);
void gen_tree_free(struct gen_tree *tr);
/* The flags of Alg. 6-7 (seed 000 Sec 4.1, 5.1): pflag, a parent's "ready"
 * read by its children (one-to-many), and sflag, to which its children add
 * 1 when done (many-to-one). On a machine of several sockets each parent
 * has a pair per socket of its children (pflag[t*S+s], sflag[t*S+s]):
 * "single-use synchronization lines: each synchronization uses one line per
 * socket" (Sec 4.1.1, 5.1.1), so one socket's polls and adds do not take
 * the other's line. One socket: pflag[t], sflag[t]. */
void gen_tree_flag_decls(struct gen *g, const char *pwhat, const char *swhat);
void gen_tree_flag_evicts(struct gen *g);
/* The parents: write their pflags, wait until their sflags count their children. */
void gen_tree_notify(struct gen *g, const struct gen_tree *tr);
/* The children: wait for their parent's pflag; add 1 to its sflag. */
void gen_tree_child_wait(struct gen *g, const struct gen_tree *tr);
void gen_tree_child_done(struct gen *g, const struct gen_tree *tr);

/* Who executes a statement: the threads ids[0..cnt), or (peer != NULL)
 * every thread t with peer[t] >= 0, `@` in the text standing for peer[t]
 * (gen_peer_stmt). */
struct gen_who {
    const int *ids;
    int cnt;
    const int *peer;
};
/* `text` (at most 400 characters) for the threads of `who`. */
void gen_who_stmt(struct gen *g, const struct gen_who *who, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The barrier check (seed 000 Sec 2.5 frame): `arrive[t]`, primed in M and
 * set to it+1 on entry; after `all: mark done` every thread expects every
 * arrive[j] to hold it+1, in one `expect arrive[0..n-1]` (gen_arrive_check
 * also closes the iteration loop). */
void gen_arrive_decl(struct gen *g);
void gen_arrive_enter(struct gen *g);
void gen_arrive_check(struct gen *g);
/* The entry stamp, the check of a reduction or a broadcast whose readers
 * take data where it was produced, before `all: sync` (seed 000 Sec 2.5
 * frame; reduce-radix, reduce-flat, reduce-binomial,
 * reduce-extbutterfly-separate, bcast-multiline): a reader that did not wait
 * for its writer still finds it fresh, and an `expect` on the result cannot
 * tell the algorithm from one whose waits are gone. One word of a thread's
 * data that the collective carries to its result (`stamp`, in the thread's
 * own primed-M line) is therefore left 0 by the computation phase
 * (gen_stamp_clear, before the sync) and written on entry, right after the
 * resets (gen_stamp_enter: a local hit, the one timed addition, as
 * gen_arrive_enter's): a reader that took the line before its owner entered
 * carries 0 into the result, and the result's `expect` after the mark counts
 * it. Unlike arrive[], whose check only shows that a thread finished after
 * every thread entered, the stamp shows that each piece of the result was
 * read after its owner entered (a reduction whose root skips a wait but
 * waits in a later barrier finishes late enough for arrive[]). `who` is a
 * selector (`all`, a thread). */
void gen_stamp_clear(struct gen *g, const char *who, const char *stamp);
void gen_stamp_enter(struct gen *g, const char *who, const char *stamp, const char *value);
/* Every thread id 0..n-1 (malloc'ed). */
int *gen_all_ids(const struct gen *g);

/* ---------------------------------------------------------------- generators */

/* One emitter per generator (after the prologue): false with a message. */
bool gen_emit_pingpong(struct gen *g);
bool gen_emit_mpi_shm(struct gen *g);
bool gen_emit_m2o(struct gen *g);
bool gen_emit_o2m(struct gen *g);
bool gen_emit_m2o_tree(struct gen *g);
bool gen_emit_o2m_tree(struct gen *g);
bool gen_emit_barrier_diss(struct gen *g);
bool gen_emit_barrier_multim(struct gen *g);
bool gen_emit_barrier_pairwise(struct gen *g);
bool gen_emit_barrier_socketroot(struct gen *g);
bool gen_emit_bcast_tree(struct gen *g);
bool gen_emit_bcast_multiline(struct gen *g);
bool gen_emit_reduce_tree(struct gen *g);
bool gen_emit_reduce_binomial(struct gen *g);
bool gen_emit_barrier_central(struct gen *g);
bool gen_emit_barrier_linear(struct gen *g);
bool gen_emit_barrier_combining(struct gen *g);
bool gen_emit_barrier_butterfly(struct gen *g);
bool gen_emit_barrier_extbutterfly(struct gen *g);
bool gen_emit_reduce_linear(struct gen *g);
bool gen_emit_reduce_extbutterfly(struct gen *g);
bool gen_emit_reduce_extbutterfly_separate(struct gen *g);
bool gen_emit_reduce_diss(struct gen *g);
bool gen_emit_reduce_flat(struct gen *g);
bool gen_emit_reduce_radix(struct gen *g);
bool gen_emit_barrier_radix(struct gen *g);
bool gen_emit_scc_barrier(struct gen *g);
bool gen_emit_scc_bcast(struct gen *g);
bool gen_emit_scc_reduce(struct gen *g);
bool gen_emit_scc_allgather(struct gen *g);
bool gen_emit_scc_alltoall(struct gen *g);
bool gen_emit_scc_reducescatter(struct gen *g);
bool gen_emit_scc_allreduce(struct gen *g);

#endif /* CCSIM_GEN_IMPL_H */
