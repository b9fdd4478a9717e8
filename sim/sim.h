/*
 * sim.h -- the simulation kernel and the shared machine parts.
 *
 * This module (prefix sim_) owns simulated time, the discrete-event kernel,
 * random number streams, messages and the line map, and error reporting;
 * config.h beside it (prefix cfg_) is the config loader. It includes no
 * header of another module and knows nothing of any protocol, topology or
 * workload: those plug in from their own modules.
 *
 * Time.  sim_time_t counts picoseconds. A clocked part has a period
 * (struct sim_clock); an action that takes k cycles ends k periods after the
 * clock edge on which it starts.
 *
 * Events.  An event is (time, sequence, handler, object, argument). Events
 * fire in increasing time; events with equal times fire in the order they
 * were scheduled (increasing sequence number). A run is therefore a pure
 * function of its inputs: no wall clock, no addresses, no hash order.
 *
 * Errors.  Bad input is reported into a struct sim_diag as
 * "FILE:LINE: what is wrong (what is expected)"; the CLI prints it and
 * exits with SIM_EXIT_INPUT. Internal invariant failures go through
 * sim_panic(), which prints a report and exits with SIM_EXIT_INTERNAL (never
 * a signal).
 */
#ifndef CCSIM_SIM_H
#define CCSIM_SIM_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------- exits */

enum sim_exit {
    SIM_EXIT_OK = 0,    /* success */
    SIM_EXIT_FAIL = 1,  /* the simulated program failed a check */
    SIM_EXIT_INPUT = 2, /* bad input: usage, config, trace */
    /* verify: a bound of the model (a message channel's) stopped the check
     * before it had explored every state; no property failed */
    SIM_EXIT_UNDECIDED = 3,
    /* ccsim itself failed: an internal error (a bug in ccsim) or out of
     * memory; not the simulated program's failure */
    SIM_EXIT_INTERNAL = 4,
};

const char *sim_version(void);

/* ---------------------------------------------------------------- errors */

/* Collected diagnostics: every message is one line, "FILE:LINE: text". */
struct sim_diag {
    char text[4096]; /* messages, newline-separated; truncated if longer */
    size_t len;
    int count; /* number of messages, including truncated ones */
};

void sim_diag_init(struct sim_diag *d);
/* Adds one message. file may be NULL (then "ccsim: text"), line 0 omits it. */
void sim_diag_add(struct sim_diag *d, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void sim_diag_print(const struct sim_diag *d);

/* Prints "ccsim: internal error at FILE:LINE: ..." and exits SIM_EXIT_INTERNAL. */
_Noreturn void sim_panic_at(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define sim_panic(...) sim_panic_at(__FILE__, __LINE__, __VA_ARGS__)
/* A post-condition; stays on in release builds (cheap, and the point). */
#define SIM_ASSERT(cond)                                                                           \
    do {                                                                                           \
        if (!(cond))                                                                               \
            sim_panic_at(__FILE__, __LINE__, "assertion failed: %s", #cond);                       \
    } while (0)

/* Levenshtein distance between a[0..la) and the string b, for "did you
 * mean" hints; names longer than 63 characters are 99 apart. */
size_t sim_edit_distance(const char *a, size_t la, const char *b);
/* Writes " (did you mean 'x'?)" for the nearest of names (distance < 3) to
 * name[0..len), else " (LEAD a, b, c)", or nothing if lead is NULL. */
void sim_suggest(char *buf, size_t size, const char *name, size_t len, const char *const *names,
                 size_t n, const char *lead);

/* Allocation that never returns NULL: out of memory ends the run (exit 1). */
void *sim_xmalloc(size_t n);
void *sim_xcalloc(size_t count, size_t size);
void *sim_xrealloc(void *p, size_t n);
char *sim_xstrdup(const char *s);
/* A zeroed array of count * size bytes whose pages most runs never touch (a
 * cache's ways): from SIM_ZEROED_MIN bytes on, the kernel's zero pages,
 * mapped on first touch, where calloc under a sanitizer would write every
 * byte; below it calloc. Freed with sim_free_zeroed and the same sizes. */
#define SIM_ZEROED_MIN (16u * 1024u)
void *sim_xzeroed(size_t count, size_t size);
void sim_free_zeroed(void *p, size_t count, size_t size);

/* ---------------------------------------------------------------- time */

typedef uint64_t sim_time_t; /* picoseconds */
#define SIM_TIME_MAX  UINT64_MAX
#define SIM_PS_PER_NS 1000u

struct sim_clock {
    sim_time_t period_ps; /* > 0 */
};

/* A clock of the given frequency; the period is rounded to whole ps. */
struct sim_clock sim_clock_ghz(double ghz);
/* The first edge at or after t. */
static inline sim_time_t sim_clock_edge(struct sim_clock c, sim_time_t t)
{
    sim_time_t r = t % c.period_ps;
    return r ? t + (c.period_ps - r) : t;
}
/* When an action of k cycles started at t (on its next edge) ends. */
static inline sim_time_t sim_clock_after(struct sim_clock c, sim_time_t t, uint64_t k)
{
    return sim_clock_edge(c, t) + k * c.period_ps;
}

/* ---------------------------------------------------------------- rng */

/* xoshiro256**: one independent stream per component, seeded from
 * (run seed, stream id) by splitmix64, so adding a component does not shift
 * another's numbers. */
struct sim_rng {
    uint64_t s[4];
};

void sim_rng_init(struct sim_rng *r, uint64_t seed, uint64_t stream);
uint64_t sim_rng_next(struct sim_rng *r);
/* Uniform in [0, n), n > 0 (Lemire's multiply-shift, unbiased). */
uint64_t sim_rng_below(struct sim_rng *r, uint64_t n);
/* Uniform in [0, 1). */
double sim_rng_unit(struct sim_rng *r);
/* A number that depends on (seed, a, b) alone (a counter-based generator:
 * no state, so drawing one shifts no stream), e.g. the arbitration rank of
 * node a at time b. */
uint64_t sim_rng_hash(uint64_t seed, uint64_t a, uint64_t b);

/* ---------------------------------------------------------------- kernel */

struct sim_kernel;
typedef void (*sim_handler_fn)(struct sim_kernel *k, void *obj, uint64_t arg);

/* A handle to a cancellable event (a timer), for sim_cancel(). Stale handles
 * (the timer fired or was cancelled) are recognised and ignored. */
typedef struct {
    void *timer;
    uint64_t seq;
} sim_event_id;

enum sim_run_status {
    SIM_RUN_EMPTY,   /* no event left */
    SIM_RUN_UNTIL,   /* reached the time limit */
    SIM_RUN_STOPPED, /* a handler called sim_stop() */
    SIM_RUN_STALLED, /* the watchdog saw no progress for a whole interval */
};

struct sim_kernel *sim_kernel_new(void);
void sim_kernel_free(struct sim_kernel *k);

static inline sim_time_t sim_now(const struct sim_kernel *k);
/* Schedules fn(k, obj, arg) at absolute time t >= now. The hot path: such an
 * event cannot be cancelled (the handler can ignore a stale one). */
void sim_schedule_at(struct sim_kernel *k, sim_time_t t, sim_handler_fn fn, void *obj,
                     uint64_t arg);
static inline void sim_schedule(struct sim_kernel *k, sim_time_t delay, sim_handler_fn fn,
                                void *obj, uint64_t arg)
{
    sim_schedule_at(k, sim_now(k) + delay, fn, obj, arg);
}
/* Like sim_schedule_at, but among the events of time t the ranked ones
 * fire after the plain ones, in increasing rank (equal ranks in scheduling
 * order). A random rank is random arbitration among simultaneous arrivals
 * (the machine's `variability.arbitration`). rank < SIM_RANK_LIMIT. */
#define SIM_RANK_LIMIT (1u << 23)
void sim_schedule_ranked(struct sim_kernel *k, sim_time_t t, uint32_t rank, sim_handler_fn fn,
                         void *obj, uint64_t arg);
/* sim_schedule_ranked with the rank sim_rng_hash(seed, who, t) draws: where
 * several `who`s act at the same t, their order is the seed's. */
void sim_schedule_shuffled(struct sim_kernel *k, sim_time_t t, uint64_t seed, uint64_t who,
                           sim_handler_fn fn, void *obj, uint64_t arg);
/* A cancellable event: like sim_schedule_at, plus a handle for sim_cancel. */
sim_event_id sim_timer_at(struct sim_kernel *k, sim_time_t t, sim_handler_fn fn, void *obj,
                          uint64_t arg);
/* Removes a pending timer; returns false if it already fired or was cancelled. */
bool sim_cancel(struct sim_kernel *k, sim_event_id id);
/* Fires events in (time, sequence) order while their time is <= until; on
 * SIM_RUN_UNTIL, now becomes until. */
enum sim_run_status sim_run(struct sim_kernel *k, sim_time_t until);
/* Makes sim_run return SIM_RUN_STOPPED after the current handler. */
void sim_stop(struct sim_kernel *k);

uint64_t sim_events_fired(const struct sim_kernel *k);
size_t sim_events_pending(const struct sim_kernel *k); /* watchdog excluded */
size_t sim_events_memory(const struct sim_kernel *k);  /* bytes held, for tests */

/* Progress and the watchdog. The model calls sim_progress() whenever it does
 * useful work (an operation retires). Every `interval` ps the watchdog
 * compares; after a whole interval without progress it calls
 * on_stall(k, ctx) (which writes the deadlock report) and sim_run returns
 * SIM_RUN_STALLED. The watchdog alone never keeps a run alive: when it is
 * the only pending event, sim_run returns SIM_RUN_EMPTY. */
typedef void (*sim_stall_fn)(struct sim_kernel *k, void *ctx);
void sim_watchdog(struct sim_kernel *k, sim_time_t interval, sim_stall_fn on_stall, void *ctx);
/* The model knows work is under way until time t (a computation that
 * retires nothing meanwhile): the watchdog does not call that a stall, and
 * does not look again before t. */
void sim_busy_until(struct sim_kernel *k, sim_time_t t);
static inline void sim_progress(struct sim_kernel *k);

/* ---------------------------------------------------------------- messages */

/* A coherence message. Its type is the protocol's (protocols/ gives the
 * catalogue); the kernel and the network only look at src, dst and bytes.
 * Messages come from a pool with a free list: no malloc on the hot path. */
#define SIM_MAX_LINE_BYTES 256
struct sim_msg {
    struct sim_msg *next; /* free list, queues */
    uint64_t line;        /* line number (address / line size) */
    int32_t type;
    int32_t src, dst;  /* node ids */
    int32_t requester; /* the core a forwarded request is for */
    int32_t acks;      /* acknowledgements the receiver must still collect */
    uint32_t bytes;    /* on the wire: header + data */
    uint32_t flags;    /* protocol-defined */
    uint8_t vnet;      /* traffic class: SIM_VNET_REQ, _DATA or _ACK (for networks with
                          separate rings or virtual networks) */
    sim_time_t sent;   /* for tracing and queueing statistics */
    bool has_data;
    uint8_t data[SIM_MAX_LINE_BYTES];
};

enum { SIM_VNET_REQ, SIM_VNET_DATA, SIM_VNET_ACK, SIM_VNETS };

/* Messages come in blocks the pool owns: destroying it frees every message
 * it ever gave out, also those still in flight when a run stopped. */
struct sim_msg_block;
struct sim_msg_pool {
    struct sim_msg *free;
    struct sim_msg_block *blocks;
    size_t allocated, in_use;
};

struct sim_msg *sim_msg_new(struct sim_msg_pool *p);
void sim_msg_free(struct sim_msg_pool *p, struct sim_msg *m);
void sim_msg_pool_destroy(struct sim_msg_pool *p); /* frees every message of the pool */

/* ---------------------------------------------------------------- line map */

/* An open-addressing hash map from a line number to a pointer. Iteration
 * order is insertion-independent but deterministic for the same inserts. */
struct sim_map {
    uint64_t *keys;
    void **vals;
    size_t cap, len; /* cap is a power of two; slot empty iff vals[i] == NULL */
};

void sim_map_init(struct sim_map *m);
void sim_map_destroy(struct sim_map *m);
void *sim_map_get(const struct sim_map *m, uint64_t key);
void sim_map_put(struct sim_map *m, uint64_t key, void *val); /* val != NULL */
/* The value slot of key, made (holding NULL) if key is absent: one probe
 * for a read-modify-write. The caller stores a non-NULL value in a made
 * slot before any other call on the map. It grows when an insert would
 * fill it past half. */
void **sim_map_slot(struct sim_map *m, uint64_t key);
/* Visits every entry; fn may not modify the map. */
void sim_map_each(const struct sim_map *m, void (*fn)(uint64_t key, void *val, void *ctx),
                  void *ctx);

#define SIM_COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------ inline internals */

/* The first fields of struct sim_kernel, visible so that now() and
 * progress() inline on the hot path. */
struct sim_kernel_head {
    uint64_t progress;
    sim_time_t now;
};
static inline sim_time_t sim_now(const struct sim_kernel *k)
{
    return ((const struct sim_kernel_head *)(const void *)k)->now;
}
static inline void sim_progress(struct sim_kernel *k)
{
    ((struct sim_kernel_head *)(void *)k)->progress++;
}

#endif /* CCSIM_SIM_H */
