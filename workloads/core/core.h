/*
 * core.h -- the core model (prefix core_): the threads of a parsed program
 * (workloads/trace/trace.h) executing their operations on a machine's
 * caches (protocols/protocol.h) and network (topologies/topology.h), and
 * what a run measures.
 */
#ifndef CCSIM_CORE_H
#define CCSIM_CORE_H

#include "protocol.h"
#include "sim.h"
#include "topology.h"
#include "trace.h"

/*
 * The threads of a parsed program executing its operations on a machine, and
 * what a run measures. The machine is handed over as a struct core_machine by
 * the top layer, so this module needs only the kernel, the network and the
 * coherence system's public headers.
 *
 * The model (docs/DESIGN.md, "Machine model"):
 *   - A thread issues its operations in order; hardware threads of one core
 *     share its cache and its issue slot (one operation a core cycle).
 *   - copy/addline stream their lines with up to `mshrs` lines in flight;
 *     with prefetch_distance N, loading source line i also prefetches
 *     line i + N of the source and (to write) of the destination, as the
 *     prefetch instructions a compiler puts in such a loop (cc_prefetch).
 *   - wait loads; while the condition is false it sleeps until its copy is
 *     invalidated or updated, then re-loads after poll_cycles. Each re-load
 *     counts in poll_refetches (the one that succeeds too: the poller lost
 *     its copy and fetched the line again); a failed poll whose data came from a
 *     core that held the line writable counts as a steal.
 *   - sync, evict, prime, expect and fence cost no simulated time (neither
 *     does let, done by the cursor); sync releases every live thread at
 *     once, when all have arrived and the machine is quiet, and opens an
 *     iteration.
 *   - xchg is one atomic exchange (CC_XCHG), cmpxchg a CC_CAS; both keep the
 *     old word. fence orders nothing: the cores are in order, with no store
 *     buffer.
 *   - The watchdog (core_run_opts.watchdog_ps) sees progress when an op
 *     finishes outside a while loop, or when one inside a while changes
 *     memory: a spin that can never end is a deadlock. A while loop doing
 *     WL_MAX_ZERO_OPS zero-time ops in a row is a run-time error.
 *   - A run not over at max_time_ps stops there (time_limit): a loop that
 *     changes memory for ever never ends on the watchdog.
 *   - An iteration's latency runs from the sync that opens it to the last
 *     mark in it (the slowest thread).
 *   - With start_skew_ps, each thread starts (at the run's start and after
 *     every sync) after its own random delay: threads never leave a real
 *     barrier in the same cycle.
 * Invariant: a run is a pure function of (machine, program, seed).
 */
/* The simulated-time limit of a run that sets none: 10 s, some twenty
 * times the longest `ccsim bench workloads` reference (scc-allreduce, 0.52 s),
 * and minutes of wall time for a two-thread loop that writes for ever
 * (about 55 s a simulated second on snb-e5-2660). */
#define CORE_MAX_TIME_PS (10000000000ull * SIM_PS_PER_NS)

struct core_machine {
    struct sim_kernel *k;
    struct cc_system *cc;
    struct net *net;
    int cores, threads_per_core;
    int cores_per_cache; /* cores sharing one coherent cache (its node: core / cores_per_cache) */
    int mshrs;
    int64_t prefetch_distance; /* loading line i of a stream, prefetch line i + this (0: none) */
    /* a core's such prefetches to read (to write) in flight at most: the
     * loop waits at one that finds them all taken (0: no limit) */
    int prefetch_read_slots, prefetch_write_slots;
    unsigned poll_cycles;
    /* a line op holds its core's issue slot for this many cycles per word
     * and load or store (read: a load; write: a store; add into: a load and
     * a store), 0: one cycle an op */
    unsigned word_issue_cycles;
    unsigned line_bytes;
    int memory_nodes; /* sockets: a line's declared home=S must be below it; a
                         line without home= lives in the socket of the first
                         thread that touches it */
    struct sim_clock clock;
    /* seeded variation (0 / false: none; machine.h's variability section) */
    uint64_t seed;
    sim_time_t start_skew_ps; /* a thread leaves the start and each sync after a delay
                                 uniform in [0, start_skew_ps], drawn from its own stream */
    bool arbitration;         /* cores issuing in the same instant reach their caches in an
                                 order drawn from (seed, core, time), not thread order */
};

/* What a copy loop did at a prefetch instruction (on_prefetch_wait). */
enum core_pf_wait {
    CORE_PF_STOPS,     /* stops: its core's slots of that kind are taken */
    CORE_PF_SLOT_FREE, /* goes on: a slot is free */
    CORE_PF_LINE_HELD  /* goes on: its line needs no slot now (held, or fetched) */
};

/* How an operation on_op reports came to its end. */
enum core_op_end {
    CORE_OP_ENDED,     /* it did */
    CORE_OP_DEADLOCK,  /* it was under way when the run ended in a deadlock */
    CORE_OP_TIME_LIMIT /* it was under way when the run stopped at its time limit */
};

struct core_run_opts {
    sim_time_t watchdog_ps; /* no operation done for this long: deadlock */
    /* the run stops at this simulated time if it has not ended (a loop that
     * changes memory for ever is progress to the watchdog, so this bounds
     * it): res->time_limit, with a report of the threads still running;
     * 0: CORE_MAX_TIME_PS */
    sim_time_t max_time_ps;
    int max_reports; /* value errors printed in full */
    /* optional: told where each line index was placed (for narration) */
    void (*on_place)(void *ctx, int64_t line_index, uint64_t line_number);
    void *place_ctx;
    /* optional: called when a thread's operation finishes (zero-cost ops
     * too, with start == end; a sync ends at its release), for timelines,
     * with CORE_OP_ENDED; after a deadlock or at the time limit, once for
     * each operation still under way (not for a thread in its start skew,
     * which has begun none), with end the run's last instant and why it
     * did not end */
    void (*on_op)(void *ctx, int thread, int core, const struct wl_op *op, sim_time_t start,
                  sim_time_t end, enum core_op_end how);
    void *op_ctx;
    /* optional: called when a sync opens an iteration (the first sync opens
     * iteration 1; 0 is what runs before it), for progress lines and
     * narration; loop_var and loop_value name it as the trace counts it (the
     * outermost loop around the sync: `it` = 5), loop_var NULL outside loops */
    void (*on_iteration)(void *ctx, uint64_t iteration, const char *loop_var, int64_t loop_value);
    void *iteration_ctx;
    /* optional: called twice for a thread's evict or prime (the
     * methodology's reset of a line, at no cost), the line quiet: before it
     * runs (done false: the caches still hold what it will change) and
     * after (done true); started: when the op began (a reset not at an
     * iteration's opening waits for its line to be quiet: now - started;
     * way_wait: a prime also waited, the line quiet, for a way in its
     * core's cache) */
    void (*on_reset)(void *ctx, int thread, int core, const struct wl_op *op, uint64_t line,
                     sim_time_t started, bool way_wait, bool done);
    void *reset_ctx;
    /* optional: called when a thread has run out of operations, with its
     * registers (wl_program_reg's order), e.g. a litmus test's outcome */
    void (*on_done)(void *ctx, int thread, const int64_t *regs, int nregs);
    void *done_ctx;
    /* optional: a thread's copy (addline) loop stops at the prefetch
     * instruction of line (to write, or to read) because its core's `slots`
     * prefetches of that kind are in flight, or goes on from it */
    void (*on_prefetch_wait)(void *ctx, int thread, int core, uint64_t line, bool write, int slots,
                             bool addline, enum core_pf_wait what);
    void *prefetch_wait_ctx;
};

struct core_stats {
    double mean, median, min, max, p10, p90; /* ns */
};

/* One thread's latencies: per iteration in which it marked, from the sync
 * that opened the iteration to its own last mark in it. */
struct core_thread_latency {
    uint64_t iterations; /* iterations it marked in */
    double *ns;          /* per such iteration, in order */
    struct core_stats stats;
};

struct core_result {
    uint64_t iterations; /* measured (iterations with a mark) */
    double *latency_ns;  /* per measured iteration */
    struct core_stats latency;
    int threads;
    struct core_thread_latency *thread_latency; /* per thread */
    /* counters (docs/DESIGN.md "Counters" says what increments each) */
    uint64_t loads, stores, atomics, misses, invalidations, handoffs, poll_refetches, steals,
        writebacks;
    uint64_t prefetches;    /* the caches' hardware prefetchers' fetches (not in loads, misses) */
    uint64_t sw_prefetches; /* copy loops' prefetches sent to a home (prefetch_distance) */
    uint64_t sw_prefetch_waits; /* a loop stopped at a prefetch instruction for a slot */
    double sw_prefetch_wait_ns; /* the time such stops lasted, in all */
    uint64_t store_prefetches;  /* waiting stores' fetches ahead sent to a home (TSO order) */
    uint64_t line_busy;         /* requests that met their line busy at its home */
    uint64_t fill_conflicts;    /* reads memory refused while their line's fill was under way */
    uint64_t llc_hits;          /* reads the homes' LLCs served (home.llc_cycles) */
    uint64_t llc_evictions;     /* lines a bounded LLC (home.llc_kb) dropped for room */
    uint64_t network_bytes;
    double home_queue_ns, link_queue_ns;
    uint64_t coherence_violations, value_errors;
    bool deadlock;    /* a run that could not finish */
    bool time_limit;  /* a run stopped at its max_time_ps, not finished */
    bool input_error; /* a run-time error in the trace (exit 2) */
    uint64_t events;
    double wall_s;
    uint64_t simulated_ns; /* whole ns (the JSON's); simulated_ps exactly */
    uint64_t simulated_ps;
};

/* The thread that issued r, a request of the program core_run is running
 * (for narration), and its outermost loop's variable and value (*loop_var
 * NULL outside loops); false if r is not such a request. */
bool core_req_origin(const struct cc_req *r, int *thread, const char **loop_var,
                     int64_t *loop_value);

/* The trace operation whose thread issued r (as core_req_origin), or NULL:
 * an in-order core has one operation at a time, so it is the thread's
 * current one while r is under way (a wait's poll, a copy's line). */
const struct wl_op *core_req_op(const struct cc_req *r);

/* Where thread i of p runs on a machine of `cores` cores: its pin line's
 * place, else core i % cores, hardware thread i / cores. */
struct wl_pin core_thread_place(const struct wl_program *p, int i, int cores);

/* True if every thread of p has a hardware thread on a machine of `cores`
 * cores of threads_per_core each (its pin line's, else core i % cores,
 * hardware thread i / cores); else says which does not, in d. core_run
 * checks it first; a caller may check a trace against a machine before. */
bool core_threads_fit(const struct wl_program *p, int cores, int threads_per_core,
                      struct sim_diag *d);

/* Runs prog on the machine; errors and reports go to stderr / d. */
void core_run(const struct core_machine *m, const struct wl_program *prog,
              const struct core_run_opts *o, struct core_result *res, struct sim_diag *d);
void core_result_free(struct core_result *res);
/* Whether the run failed (exit 1): a deadlock, the time limit, a value
 * error or a coherence violation. */
bool core_result_failed(const struct core_result *res);

#endif /* CCSIM_CORE_H */
