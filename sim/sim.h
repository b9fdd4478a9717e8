/*
 * sim.h -- the simulation kernel and the shared machine parts.
 *
 * This module owns simulated time, the discrete-event kernel, random number
 * streams, error reporting and config loading. It knows nothing of any
 * protocol, topology or workload: those plug in from their own modules.
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
 * sim_panic(), which prints a report and exits with SIM_EXIT_FAIL (never a
 * signal).
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

/* Prints "ccsim: internal error at FILE:LINE: ..." and exits SIM_EXIT_FAIL. */
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
/* Visits every entry; fn may not modify the map. */
void sim_map_each(const struct sim_map *m, void (*fn)(uint64_t key, void *val, void *ctx),
                  void *ctx);

/* ---------------------------------------------------------------- config */

/*
 * Config loading is schema-driven. A module describes each top-level group
 * it owns as a struct sim_cfg_section: its keys, their types and ranges, and
 * where in a C struct each value goes. sim_cfg_apply() checks the file
 * against the sections: every group and key must be known, typed and in
 * range; required keys must be present. An optional key that is absent
 * leaves the struct's field as the caller initialised it (the default).
 */
enum sim_cfg_type {
    SIM_CFG_INT,          /* int64_t; range [min, max] */
    SIM_CFG_FLOAT,        /* double; range [min, max]; an integer is accepted */
    SIM_CFG_BOOL,         /* bool */
    SIM_CFG_STRING,       /* char[len] */
    SIM_CFG_CHOICE,       /* char[len], one of choices */
    SIM_CFG_INT_ARRAY,    /* int64_t[len], count at count_offset (int) */
    SIM_CFG_FLOAT_ARRAY,  /* double[len], count at count_offset (int) */
    SIM_CFG_STRING_ARRAY, /* char[len][max + 1], count at count_offset (int); each
                             string has min to max characters */
};

struct sim_cfg_key {
    const char *name;
    enum sim_cfg_type type;
    bool required;
    double min, max;            /* numbers, and each array element */
    size_t len;                 /* string buffer size, or array capacity */
    const char *const *choices; /* SIM_CFG_CHOICE: NULL-terminated */
    size_t offset;              /* of the field in the section's struct */
    size_t count_offset;        /* arrays: of the int element count */
    const char *unit;           /* for printing, may be NULL */
    const char *help;           /* one line, for printing */
};

struct sim_cfg_section {
    const char *name; /* top-level group */
    bool required;
    const struct sim_cfg_key *keys;
    size_t nkeys;
    void *dst; /* the struct that receives the values */
    const char *help;
};

struct sim_cfg_file; /* an opened (parsed) config file */

/* Parses path (with @include relative to its folder). On a syntax or I/O
 * error returns NULL and adds "FILE:LINE: ..." to d. */
struct sim_cfg_file *sim_cfg_open(const char *path, struct sim_diag *d);
void sim_cfg_close(struct sim_cfg_file *cf);
const char *sim_cfg_path(const struct sim_cfg_file *cf);
/* A string setting by dotted path ("machine.protocol"), or NULL. */
const char *sim_cfg_string(const struct sim_cfg_file *cf, const char *path);
/* Overrides one setting, "group.key=value", before sim_cfg_apply; the value
 * is parsed as in a config file. Errors go to d as "--set: ...". */
bool sim_cfg_set(struct sim_cfg_file *cf, const char *assignment, struct sim_diag *d);
/* Checks the whole file against the sections and fills their structs.
 * Returns true if there was no error; otherwise every error is in d. */
bool sim_cfg_apply(struct sim_cfg_file *cf, const struct sim_cfg_section *secs, size_t nsecs,
                   struct sim_diag *d);
/* Whether a dotted path is set (in the file or by --set). */
bool sim_cfg_has(const struct sim_cfg_file *cf, const char *path);
/* Source line of a dotted path, 0 if absent or set by --set (for later
 * semantic errors). */
int sim_cfg_line(const struct sim_cfg_file *cf, const char *path);
/* Prints the sections' values as a readable table (after apply). */
void sim_cfg_print(const struct sim_cfg_section *secs, size_t nsecs);

/* Helpers to declare keys (the struct type is given as T). */
#define SIM_CFG_INT_KEY(T, field, req, lo, hi, unit, help)                                         \
    {                                                                                              \
#field, SIM_CFG_INT, req, lo, hi, 0, NULL, offsetof(T, field), 0, unit, help               \
    }
#define SIM_CFG_FLOAT_KEY(T, field, req, lo, hi, unit, help)                                       \
    {                                                                                              \
#field, SIM_CFG_FLOAT, req, lo, hi, 0, NULL, offsetof(T, field), 0, unit, help             \
    }
#define SIM_CFG_BOOL_KEY(T, field, req, help)                                                      \
    {                                                                                              \
#field, SIM_CFG_BOOL, req, 0, 1, 0, NULL, offsetof(T, field), 0, NULL, help                \
    }
#define SIM_CFG_STRING_KEY(T, field, req, help)                                                    \
    {                                                                                              \
#field, SIM_CFG_STRING, req, 0, 0, sizeof(((T *)0)->field), NULL, offsetof(T, field), 0,   \
            NULL, help                                                                             \
    }
#define SIM_CFG_CHOICE_KEY(T, field, req, choices, help)                                           \
    {                                                                                              \
#field, SIM_CFG_CHOICE, req, 0, 0, sizeof(((T *)0)->field), choices, offsetof(T, field),   \
            0, NULL, help                                                                          \
    }
#define SIM_CFG_INT_ARRAY_KEY(T, field, count, req, lo, hi, unit, help)                            \
    {                                                                                              \
#field, SIM_CFG_INT_ARRAY, req, lo, hi, sizeof(((T *)0)->field) / sizeof(int64_t), NULL,   \
            offsetof(T, field), offsetof(T, count), unit, help                                     \
    }
#define SIM_CFG_FLOAT_ARRAY_KEY(T, field, count, req, lo, hi, unit, help)                          \
    {                                                                                              \
#field, SIM_CFG_FLOAT_ARRAY, req, lo, hi, sizeof(((T *)0)->field) / sizeof(double), NULL,  \
            offsetof(T, field), offsetof(T, count), unit, help                                     \
    }
#define SIM_CFG_STRING_ARRAY_KEY(T, field, count, req, help)                                       \
    {                                                                                              \
#field, SIM_CFG_STRING_ARRAY, req, 1, (double)(sizeof(((T *)0)->field[0]) - 1),            \
            sizeof(((T *)0)->field) / sizeof(((T *)0)->field[0]), NULL, offsetof(T, field),        \
            offsetof(T, count), NULL, help                                                         \
    }
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
