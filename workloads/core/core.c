/*
 * core.c -- the core model: threads executing a program's operations on the
 * machine's caches. core.h describes the model; this file is its mechanics:
 * one state machine per thread, driven by the events of its operations.
 */
#include "core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum thr_state {
    T_RUN,    /* between operations, or in one */
    T_POLL,   /* a wait sleeping until its copy changes */
    T_SYNC,   /* arrived at a sync */
    T_DONE,   /* no more operations */
    T_FAILED, /* a run-time error */
};

struct stream; /* a copy/addline in flight */

struct thr {
    struct run *run;
    int id, core, hw;
    enum thr_state st;
    struct wl_cursor cur;
    struct wl_op op;
    struct cc_req req;       /* scalar operations */
    uint64_t iter;           /* syncs passed */
    struct sim_rng skew_rng; /* its start skews */
    bool skewing;            /* in one: it has begun no operation since the sync (or start) */
    bool way_wait;           /* its prime has waited for a way in its cache (methodology) */
    bool reload;             /* the wait's next load is a re-load */
    /* the while loop it is in (the outermost's statement, -1: none), since
     * it entered it: whether it has touched memory there, and its computes
     * there (note_loop) */
    int loop;
    uint64_t loop_entry; /* which entry into it (wl_op's loop_entry) */
    bool loop_read;
    int loop_computes;
    /* the states (registers, loop values, statement) of its last computes
     * in while loops since its last progress, a ring; how many were new
     * (compute_busy) */
    uint64_t spin_seen[16];
    int spin_next, spin_len;
    uint32_t spin_novel;
    bool compute_novel;     /* its compute under way is in such a loop, in a new state */
    sim_time_t progress_at; /* its last progress (made_progress), for compute_novel's grace */
    /* the ops of while loops it did at one instant (zero_time_ok) */
    sim_time_t zero_at;
    long zero_ops;
    /* the next op, already taken from the cursor at a sync's release
     * (run_resets): step starts it instead of taking another; a reset's
     * place in the trace, while it waits its turn there */
    struct wl_pos reset_pos;
    bool fetched;
    enum wl_next_result fetched_nr;

    sim_time_t op_start; /* when the current op started (on_op) */
    /* its latencies: the one of the iteration it last marked in (not yet
     * kept while that iteration may still see a mark), those kept */
    bool marked;
    uint64_t mark_iter;
    double mark_ns;
    double *lat;
    size_t nlat, cap_lat;
    /* the copy/addline stream */
    struct cc_req *sreq;    /* mshrs slots */
    uint8_t *sbuf;          /* mshrs lines */
    bool *s_loaded;         /* per slot: its source line is in, its store waits its turn */
    int64_t s_next, s_done; /* lines loads were started for; stores completed */
    int64_t s_commit;       /* the next line to store: stores go in program order */
    int s_inflight;
    bool s_storing; /* line s_commit - 1's store is not yet performed */
    bool s_changed; /* a store of the stream changed its line's bytes */
    /* the loop's prefetch instructions for line s_next: 0 none sent yet, 1
     * the read's, 2 both; pf_stalled: it waits at one for a slot */
    int pf_stage;
    bool pf_stalled;
    uint64_t pf_since;      /* when it stalled (a count): the first to stall goes on first */
    sim_time_t pf_stall_at; /* and when (the time) */
    uint64_t pf_stall_line; /* the line its prefetch instruction fetches */
    bool pf_stall_write;    /* to write (else to read) */
};

/* A core's prefetch slots (core.prefetch_read_slots, prefetch_write_slots):
 * its copy loops' prefetches in flight, and its threads that wait for one
 * to end. Invariant: 0 <= reads, writes <= the limits (when there are). */
struct pf_core {
    int reads, writes, stalled;
    bool waking;     /* a pf_wake_at is scheduled */
    uint64_t stalls; /* stalls counted, for pf_since */
};

struct iteration {
    sim_time_t start, end;
    bool marked;
};

struct run {
    const struct core_machine *m;
    const struct wl_program *prog;
    struct core_run_opts o;
    struct core_result *res;
    struct sim_diag *d;
    struct thr *thr;
    int nthr, live, at_sync;
    bool release_pending;   /* a release_sync is scheduled */
    sim_time_t *core_issue; /* per core: its next free issue slot */
    struct iteration *iters;
    size_t niters, cap_iters;
    uint64_t *lines;     /* line index -> line number, or UNPLACED */
    struct sim_map used; /* line numbers taken */
    uint64_t *low;       /* per home (+1): below it every number is taken */
    /* a release's resets: the threads whose next op (t->op) is one, a heap
     * by the trace's order (run_resets); nthr entries, allocated once */
    int *heap;
    size_t nresets;
    bool stopped;
    struct pf_core *pf; /* per core, with prefetch slots (else NULL) */
    uint64_t pf_waits;  /* stops at a prefetch instruction for a slot */
    sim_time_t pf_wait_ps;
};

static void step(struct thr *t);

static void step_at(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct thr *t = obj;
    (void)k;
    (void)arg;
    t->skewing = false;
    step(t);
}

/* The thread starts (the run's start, a sync's release): after its skew. */
static void start_thread(struct thr *t)
{
    const struct core_machine *m = t->run->m;
    if (!m->start_skew_ps) {
        step(t);
        return;
    }
    t->skewing = true;
    sim_schedule(m->k, sim_rng_below(&t->skew_rng, m->start_skew_ps + 1), step_at, t, 0);
}

/* Tells the on_op callback that the current op has ended now. */
static void op_ended(struct thr *t)
{
    struct run *r = t->run;
    if (r->o.on_op)
        r->o.on_op(r->o.op_ctx, t->id, t->core, &t->op, t->op_start, sim_now(r->m->k),
                   CORE_OP_ENDED);
}

/* After a deadlock or at the time limit: each thread's operation still under way (a sync it
 * waits at, a wait, a spin's access), to the on_op callback, unfinished. */
static void ops_unfinished(struct run *r, enum core_op_end how)
{
    for (int i = 0; i < r->nthr && r->o.on_op; i++) {
        struct thr *t = &r->thr[i];
        if ((t->st == T_RUN && !t->skewing) || t->st == T_POLL || t->st == T_SYNC)
            r->o.on_op(r->o.op_ctx, t->id, t->core, &t->op, t->op_start, sim_now(r->m->k), how);
    }
}

static sim_time_t cycles(const struct run *r, uint64_t n)
{
    return n * r->m->clock.period_ps;
}

#define UNPLACED UINT64_MAX /* a line without home=, not yet touched */

static uint64_t take_line(struct run *r, int64_t home);

/* The line number of a line index as thread t uses it: a line without a
 * declared home is placed on first touch, in the socket of t's core (the
 * papers' first-touch policy). */
static void placed(struct run *r, int64_t line_index)
{
    if (r->o.on_place)
        r->o.on_place(r->o.place_ctx, line_index, r->lines[line_index]);
}

/* The line number of a line index as core touches it: placed in core's
 * memory node the first time (first touch). */
static uint64_t line_number_of(struct run *r, int core, int64_t line_index)
{
    if (r->lines[line_index] == UNPLACED) {
        r->lines[line_index] = take_line(r, cc_core_memory_node(r->m->cc, core));
        placed(r, line_index);
    }
    return r->lines[line_index];
}

static uint64_t line_number(struct thr *t, int64_t line_index)
{
    return line_number_of(t->run, t->core, line_index);
}

/* cc_set_line_map's: a prefetcher's next line, placed as its core's
 * own touch would place it. */
static bool map_line(void *ctx, int core, uint64_t index, uint64_t *line)
{
    struct run *r = ctx;
    if (index >= (uint64_t)wl_program_line_count(r->prog))
        return false;
    *line = line_number_of(r, core, (int64_t)index);
    return true;
}

/* The trace's name of line number `line`, for the memory system's reports
 * (cc_set_line_namer); a search, as reports are rare. */
static bool name_line(void *ctx, uint64_t line, char *buf, size_t size)
{
    const struct run *r = ctx;
    int64_t n = wl_program_line_count(r->prog);
    for (int64_t i = 0; i < n; i++)
        if (r->lines[i] == line) {
            wl_line_name(r->prog, i, buf, size);
            return true;
        }
    return false;
}

/* ------------------------------------------------------------ errors */

/* ", iteration K" as the trace counts it (its outermost loop's variable:
 * ", iteration 5" for `it`, ", iteration i=5" for another name), or ""
 * outside loops. */
static void iteration_text(const struct thr *t, char *buf, size_t size)
{
    const char *var;
    int64_t value;
    if (!wl_cursor_outer_loop(&t->cur, &var, &value))
        buf[0] = '\0';
    else if (strcmp(var, "it") == 0)
        snprintf(buf, size, ", iteration %lld", (long long)value);
    else
        snprintf(buf, size, ", iteration %s=%lld", var, (long long)value);
}

static void fail(struct thr *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct thr *t, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int line = 0, col = 0;
    char where[600];
    wl_program_where(t->run->prog, t->op.stmt, &line, &col);
    snprintf(where, sizeof where, "%s:%d:%d", wl_program_file(t->run->prog), line, col);
    char when[96];
    iteration_text(t, when, sizeof when);
    sim_diag_add(t->run->d, where, 0, "thread %d%s: %s", t->id, when, msg);
    t->st = T_FAILED;
    t->run->res->input_error = true;
    t->run->stopped = true;
    sim_stop(t->run->m->k);
}

/* The last instant an operation may start or a compute end: 2^63 ps
 * (about 107 days), half the kernel's range, so that no step the machine
 * takes after it can pass the kernel's last instant (2^64 ps) and wrap. */
#define CORE_LAST_PS   (SIM_TIME_MAX / 2 + 1)
#define CORE_LAST_TEXT "2^63 ps, about 107 days of simulated time"

/* A compute of n cycles ends before CORE_LAST_PS; else the thread fails
 * (a wrapped time was measured as 0.4 ns once). */
static bool compute_fits(struct thr *t, uint64_t n)
{
    struct run *r = t->run;
    sim_time_t now = sim_now(r->m->k);
    uint64_t left = now < CORE_LAST_PS ? CORE_LAST_PS - now : 0;
    if (n <= left / r->m->clock.period_ps)
        return true;
    fail(t, "compute %llu would end past the simulator's last instant (" CORE_LAST_TEXT ")",
         (unsigned long long)n);
    return false;
}

/* An operation starts before CORE_LAST_PS; else the thread fails. */
static bool time_left(struct thr *t)
{
    if (sim_now(t->run->m->k) < CORE_LAST_PS)
        return true;
    fail(t, "the run reached the simulator's last instant (" CORE_LAST_TEXT ")");
    return false;
}

/* ------------------------------------------------------------ iterations */

static struct iteration *iteration(struct run *r, uint64_t k)
{
    while (r->niters <= k) {
        if (r->niters == r->cap_iters) {
            r->cap_iters = r->cap_iters ? 2 * r->cap_iters : 64;
            r->iters = sim_xrealloc(r->iters, r->cap_iters * sizeof *r->iters);
        }
        r->iters[r->niters++] = (struct iteration){0, 0, false};
    }
    return &r->iters[k];
}

/* Keeps the thread's latency of the iteration it last marked in. */
static void keep_thread_latency(struct thr *t)
{
    if (!t->marked)
        return;
    if (t->nlat == t->cap_lat) {
        t->cap_lat = t->cap_lat ? 2 * t->cap_lat : 64;
        t->lat = sim_xrealloc(t->lat, t->cap_lat * sizeof *t->lat);
    }
    t->lat[t->nlat++] = t->mark_ns;
    t->marked = false;
}

static void do_mark(struct thr *t)
{
    struct iteration *it = iteration(t->run, t->iter);
    sim_time_t now = sim_now(t->run->m->k);
    if (!it->marked || now > it->end)
        it->end = now;
    it->marked = true;
    if (t->marked && t->mark_iter != t->iter)
        keep_thread_latency(t);
    t->marked = true;
    t->mark_iter = t->iter;
    t->mark_ns = (double)(now - it->start) / SIM_PS_PER_NS;
}

/* ------------------------------------------------------------ sync */

static void take_reset(struct thr *t);
static void place_reset_lines(struct thr *t);
static void run_resets(struct run *r);

static void release_sync(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct run *r = obj;
    (void)arg;
    if (r->stopped)
        return;
    if (!cc_quiet(r->m->cc)) { /* a perfect barrier also waits for the machine */
        sim_schedule(k, cycles(r, 1), release_sync, r, 0);
        return;
    }
    uint64_t next = 0;
    const char *var = NULL;
    int64_t value = 0;
    bool spinning = false; /* a sync in a while loop is no progress, as its reads are not */
    for (int i = 0; i < r->nthr; i++) {
        if (r->thr[i].st != T_SYNC)
            continue;
        if (r->thr[i].iter + 1 > next)
            next = r->thr[i].iter + 1;
        if (!var && !wl_cursor_outer_loop(&r->thr[i].cur, &var, &value))
            var = NULL;
        spinning |= r->thr[i].op.in_while;
    }
    cc_settle(r->m->cc); /* buffered writes reach memory (the SCC's write-combining buffers) */
    if (!spinning)       /* every live thread arrived: the sync retires */
        sim_progress(k);
    iteration(r, next)->start = sim_now(k);
    if (r->o.on_iteration)
        r->o.on_iteration(r->o.iteration_ctx, next, var, value);
    r->at_sync = 0;
    r->release_pending = false;
    r->nresets = 0;
    for (int i = 0; i < r->nthr; i++) {
        struct thr *t = &r->thr[i];
        if (t->st != T_SYNC)
            continue;
        t->st = T_RUN;
        t->iter = next;
        op_ended(t);
        place_reset_lines(t);
    }
    for (int i = 0; i < r->nthr; i++)
        if (r->thr[i].st == T_RUN && r->thr[i].iter == next)
            take_reset(&r->thr[i]);
    run_resets(r);
    for (int i = 0; i < r->nthr && !r->stopped; i++)
        if (r->thr[i].st == T_RUN && r->thr[i].iter == next)
            start_thread(&r->thr[i]);
}

static void maybe_release(struct run *r)
{
    if (r->live > 0 && r->at_sync == r->live && !r->release_pending) {
        r->release_pending = true;
        sim_schedule(r->m->k, 0, release_sync, r, 0);
    }
}

/* ------------------------------------------------------------ issuing */

/* The core's issue slot, shared by its threads: an operation holds it for
 * `n` cycles (one a cycle). */
static sim_time_t issue_time_n(struct thr *t, uint64_t n)
{
    struct run *r = t->run;
    sim_time_t now = sim_clock_edge(r->m->clock, sim_now(r->m->k));
    sim_time_t at = now > r->core_issue[t->core] ? now : r->core_issue[t->core];
    r->core_issue[t->core] = at + cycles(r, n);
    return at;
}

static sim_time_t issue_time(struct thr *t)
{
    return issue_time_n(t, 1);
}

/* Issue cycles of an access: a line op is the loads and stores of its
 * words where the machine counts them (word_issue_cycles), else one. */
static uint64_t issue_cycles(const struct thr *t, enum cc_op op)
{
    const struct core_machine *m = t->run->m;
    if (!m->word_issue_cycles)
        return 1;
    uint64_t words = m->line_bytes / 8, per_word = op == CC_ADD_LINE ? 2 : 1;
    if (op == CC_LOAD_LINE || op == CC_STORE_LINE || op == CC_ADD_LINE)
        return words * per_word * m->word_issue_cycles;
    return 1;
}

static void op_done(struct sim_kernel *k, struct cc_req *req);

static void access_at(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct cc_req *req = obj;
    struct thr *t = req->ctx;
    (void)arg;
    (void)k;
    cc_access(t->run->m->cc, req);
}

/* req goes to the cache at the core's next issue slot, by fn. */
static void issue_access(struct thr *t, struct cc_req *req, sim_handler_fn fn)
{
    const struct core_machine *m = t->run->m;
    sim_time_t at = issue_time_n(t, issue_cycles(t, req->op));
    if (!m->arbitration) {
        sim_schedule_at(m->k, at, fn, req, 0);
        return;
    }
    sim_schedule_shuffled(m->k, at, m->seed ^ 0x636f7265 /* "core" */, (uint64_t)t->core, fn, req,
                          0);
}

static void start_access(struct thr *t, struct cc_req *req)
{
    issue_access(t, req, access_at);
}

static void scalar(struct thr *t, enum cc_op op, const struct wl_loc *a, uint64_t v, uint64_t v2)
{
    struct cc_req *req = &t->req;
    memset(req, 0, sizeof *req);
    req->op = op;
    req->core = t->core;
    req->line = line_number(t, a->line);
    req->vline = (uint64_t)a->line + 1;
    req->word = (unsigned)a->word;
    req->value = v;
    req->value2 = v2;
    req->done = op_done;
    req->ctx = t;
    start_access(t, req);
}

/* Whether the finished scalar op changed the word (old value in result). */
static bool changed_word(const struct thr *t)
{
    const struct wl_op *op = &t->op;
    uint64_t old = t->req.result;
    switch (op->op) {
    case WL_OP_WRITE:
    case WL_OP_XCHG:
        return old != (uint64_t)op->value[0];
    case WL_OP_ADD:
        return op->value[0] != 0;
    case WL_OP_CAS:
    case WL_OP_CMPXCHG:
        return old == (uint64_t)op->value[0] && op->value[0] != op->value[1];
    default:
        return false;
    }
}

/* Computes a while loop that touches no memory may do in a row: such a
 * loop counts as progress (local_work), so a thread looping over its own
 * registers for ever would never be stopped; past this many (a delay loop
 * of a million rounds) the run stops it, as a loop of lets alone is after
 * WL_MAX_IDLE_LOOPS rounds. */
#define WL_MAX_IDLE_COMPUTES (1 << 20)

/* Notes what the op about to start does to its thread's while loop; false
 * (the run failed) past WL_MAX_IDLE_COMPUTES computes in a row in a loop
 * that touches no memory. */
static bool note_loop(struct thr *t)
{
    int loop = t->op.in_while ? t->op.loop : -1;
    if (loop != t->loop || loop < 0 || t->op.loop_entry != t->loop_entry) {
        /* another loop, another entry into it, or none: from the start */
        t->loop = loop;
        t->loop_entry = t->op.loop_entry;
        t->loop_read = false;
        t->loop_computes = 0;
    }
    if (loop < 0 || t->loop_read || t->op.naddr > 0) {
        t->loop_read = loop >= 0;
        return true;
    }
    if (t->op.op != WL_OP_COMPUTE || ++t->loop_computes <= WL_MAX_IDLE_COMPUTES)
        return true;
    fail(t,
         "%d computes in a row in a while loop that touches no memory: ccsim stops such a loop "
         "here, as it might never end (one `compute N` of the total does the same work)",
         WL_MAX_IDLE_COMPUTES);
    return false;
}

/* Computes in while loops whose states may be new before the watchdog no
 * longer takes them for work under way (a loop counting a register in a
 * spin would never repeat one). */
#define WL_MAX_NOVEL_COMPUTES (1 << 16)

/* A compute in a while loop that reads memory is work under way (the
 * watchdog does not judge the run in its middle) when the loop's state is
 * new: its registers, loop values and statement differ from those of the
 * thread's last 16 such computes since its progress. A loop that works its
 * way through rounds (a counter, a growing backoff) is not stopped in a
 * long compute; a spin repeats its state (a ticket waited on, a backoff at
 * its cap), and is judged between its computes as before. */
static bool compute_busy(struct thr *t)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)t->op.stmt; /* FNV-1a over the state */
    for (int i = 0, n = wl_program_reg_count(t->run->prog); i < n; i++)
        h = (h ^ (uint64_t)t->cur.reg[i]) * 1099511628211ull;
    for (int i = 0; i < t->cur.depth; i++) /* the open blocks' slots: loop values */
        h = (h ^ (uint64_t)t->cur.loop_val[i]) * 1099511628211ull;
    for (int i = 0; i < t->spin_len; i++)
        if (t->spin_seen[i] == h)
            return false;
    t->spin_seen[t->spin_next] = h;
    t->spin_next = (t->spin_next + 1) % (int)SIM_COUNT_OF(t->spin_seen);
    if (t->spin_len < (int)SIM_COUNT_OF(t->spin_seen))
        t->spin_len++;
    return ++t->spin_novel <= WL_MAX_NOVEL_COMPUTES;
}

/* A compute in a while loop that has touched no memory since the thread
 * entered it: nothing another thread does can end such a loop, so it is
 * the thread's own work (a loop over its variables), not a spin, and
 * counts as progress and as work under way, as a compute outside loops
 * does. */
static bool local_work(const struct thr *t)
{
    return t->op.in_while && t->op.op == WL_OP_COMPUTE && !t->loop_read;
}

/* The ops of while loops a thread does at one instant, across its steps (a
 * compute 0 ends in an event of its own): past WL_MAX_ZERO_OPS the loop
 * never waits for anything, and simulated time would never move on. */
static bool zero_time_ok(struct thr *t)
{
    if (!t->op.in_while)
        return true;
    sim_time_t now = sim_now(t->run->m->k);
    if (now != t->zero_at) {
        t->zero_at = now;
        t->zero_ops = 0;
    }
    if (++t->zero_ops <= WL_MAX_ZERO_OPS)
        return true;
    fail(t,
         "%d operations in a while loop without simulated time passing (WL_MAX_ZERO_OPS): the "
         "loop never waits for anything",
         WL_MAX_ZERO_OPS);
    return false;
}

/* What the watchdog counts as progress. Outside while loops, every op that
 * finishes (as in version 1). Inside one, only an op that changes memory
 * (a copy or addline that changed a line's bytes): a thread that spins
 * reading (or failing its cas, or exchanging a lock
 * word for itself) makes none, so a spin that can never end is reported as
 * a deadlock after the watchdog's interval, like a wait that never ends. */
static bool made_progress(const struct thr *t)
{
    if (!t->op.in_while || local_work(t))
        return true;
    if (t->op.op == WL_OP_COPY || t->op.op == WL_OP_ADDLINE)
        return t->s_changed;
    return changed_word(t);
}

/* Watchdog intervals after a thread's last progress during which its
 * while loop's computes in new states still count as progress. */
#define NOVEL_GRACE_INTERVALS 2

/* A compute in a while loop, in a new state, within NOVEL_GRACE_INTERVALS
 * of the thread's progress (and at most WL_MAX_NOVEL_COMPUTES since it): a
 * loop working through rounds that changes memory now and then is not
 * stopped by a look between two computes; a spin on a lock never released
 * that counts its rounds is judged within a few intervals, not after 2^16
 * computes of any length. */
static bool novel_progress(const struct thr *t, sim_time_t now)
{
    sim_time_t grace = NOVEL_GRACE_INTERVALS * t->run->o.watchdog_ps;
    return t->op.op == WL_OP_COMPUTE && t->compute_novel && now - t->progress_at <= grace;
}

/* An op that ended as it started (a mark, an expect, a fence, a reset):
 * outside while loops it retired, progress for the watchdog. */
static void retired_at_once(struct thr *t)
{
    if (!t->op.in_while)
        sim_progress(t->run->m->k);
    op_ended(t);
}

static void finish_op(struct thr *t)
{
    sim_time_t now = sim_now(t->run->m->k);
    if (made_progress(t)) {
        sim_progress(t->run->m->k);
        t->progress_at = now;
        t->spin_len = 0; /* its loops' states start afresh */
        t->spin_novel = 0;
    } else if (novel_progress(t, now))
        sim_progress(t->run->m->k);
    op_ended(t);
    step(t);
}

static void set_reg(struct thr *t, int64_t v)
{
    if (t->op.reg >= 0)
        wl_set_reg(&t->cur, t->op.reg, v);
}

/* ------------------------------------------------------------ wait */

static void poll_again(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct thr *t = obj;
    (void)k;
    (void)arg;
    t->st = T_RUN;
    t->reload = true;
    scalar(t, CC_LOAD, &t->op.addr[0], 0, 0);
}

static void copy_changed(struct sim_kernel *k, void *ctx)
{
    struct thr *t = ctx;
    sim_schedule(k, cycles(t->run, t->run->m->poll_cycles), poll_again, t, 0);
}

static void wait_loaded(struct thr *t)
{
    struct run *r = t->run;
    int64_t v = (int64_t)t->req.result;
    if (t->reload) /* a re-load after the copy changed or left, whatever it reads */
        r->res->poll_refetches++;
    if (wl_cmp_holds(t->op.cmp, v, t->op.value[0])) {
        set_reg(t, v);
        finish_op(t);
        return;
    }
    /* the fetch took the line from its writer: one steal a fetch */
    if (t->req.from_writer && cc_claim_steal(r->m->cc, t->core, t->req.line))
        r->res->steals++;
    t->st = T_POLL;
    /* a sibling hardware thread may have written the core's copy between
     * the load and now: then it has changed already */
    uint64_t now;
    if (cc_local_word(r->m->cc, t->core, t->req.line, t->req.word, &now) && now != t->req.result) {
        copy_changed(r->m->k, t);
        return;
    }
    cc_watch(r->m->cc, t->core, t->req.line, copy_changed, t);
}

/* ------------------------------------------------------------ copy streams */

static void stream_issue(struct thr *t);

/* Slot req's source line is in: its store, now if it is the oldest. A
 * core's stores become visible in program order (x86's TSO: a poller of
 * the last line must not see it before the lines above it); one that
 * waits has its line fetched to write meanwhile, as a store buffer does. */
static void stream_store(struct thr *t, struct cc_req *req);

/* The loaded slot whose line is the next to store, if the store before it
 * is performed: its store goes. */
static void next_store(struct thr *t)
{
    for (int i = 0; i < t->run->m->mshrs && !t->s_storing; i++)
        if (t->s_loaded[i] && (int64_t)t->sreq[i].value == t->s_commit) {
            stream_store(t, &t->sreq[i]);
            return;
        }
}

/* Whether the stream's store req changes its line's bytes as its core
 * sees them now (its own copy, on the SCC too, where memory may be
 * behind it): an add of a line not all zero, a copy of a line other than
 * the one there. */
static bool store_changes(const struct thr *t, const struct cc_req *req)
{
    unsigned words = t->run->m->line_bytes / 8;
    for (unsigned w = 0; w < words; w++) {
        uint64_t v;
        memcpy(&v, req->buf + (size_t)w * 8, sizeof v);
        if (req->op == CC_ADD_LINE ? v != 0
                                   : v != cc_core_word(t->run->m->cc, t->core, req->line, w))
            return true;
    }
    return false;
}

/* A line of a copy or addline stored is progress (a long copy is work
 * under way, line by line); in a while loop only a line it changed is
 * (a loop that copies the same bytes for ever is a spin). */
static void stream_progress(struct thr *t, const struct cc_req *req)
{
    if (!t->op.in_while) {
        sim_progress(t->run->m->k);
        return;
    }
    if (store_changes(t, req)) {
        t->s_changed = true;
        sim_progress(t->run->m->k);
    }
}

/* A stream's store reaches the cache: a hit is performed now, and the
 * next store may follow at once; a miss is performed at its fill (its
 * completion, stream_slot_done). */
static void store_at(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct cc_req *req = obj;
    struct thr *t = req->ctx;
    (void)k;
    (void)arg;
    stream_progress(t, req);
    cc_access(t->run->m->cc, req);
    if (!req->missed) {
        t->s_storing = false;
        next_store(t);
    }
}

static void stream_store(struct thr *t, struct cc_req *req)
{
    const struct wl_loc *dst = &t->op.addr[t->op.op == WL_OP_COPY ? 1 : 0];
    int64_t i = (int64_t)req->value;
    int slot = (int)(req - t->sreq);
    if (i != t->s_commit || t->s_storing) {
        t->s_loaded[slot] = true;
        cc_prefetch_store(t->run->m->cc, t->core, (uint64_t)(dst->line + i) + 1, t->id);
        return;
    }
    t->s_loaded[slot] = false;
    t->s_storing = true;
    t->s_commit++;
    req->op = t->op.op == WL_OP_COPY ? CC_STORE_LINE : CC_ADD_LINE;
    req->line = line_number(t, dst->line + i);
    req->vline = (uint64_t)(dst->line + i) + 1;
    issue_access(t, req, store_at);
}

static void stream_slot_done(struct sim_kernel *k, struct cc_req *req)
{
    struct thr *t = req->ctx;
    (void)k;
    if (cc_op_reads(req->op)) { /* the source line is in: write the destination */
        stream_store(t, req);
        return;
    }
    if (req->missed && (int64_t)req->value == t->s_commit - 1)
        t->s_storing = false; /* the missed store is performed now */
    req->ctx = NULL;          /* the slot is free */
    t->s_inflight--;
    t->s_done++;
    if (t->s_done == t->op.count) {
        finish_op(t);
        return;
    }
    next_store(t);
    stream_issue(t);
}

/* Whether core's prefetch slots to write (or read) have room. */
static bool pf_slot_free(const struct run *r, int core, bool write)
{
    int limit = write ? r->m->prefetch_write_slots : r->m->prefetch_read_slots;
    const struct pf_core *p = &r->pf[core];
    return !limit || (write ? p->writes : p->reads) < limit;
}

/* A slot freed: the core's stopped threads try again, each once, in the
 * order they stopped (as a queue for the miss slots would serve them; by
 * thread number the last ones starved), whatever kind each waits for. */
static void pf_wake_at(struct sim_kernel *k, void *obj, uint64_t core)
{
    struct run *r = obj;
    (void)k;
    r->pf[core].waking = false;
    struct thr *order[8]; /* a core's hardware threads: machine.threads_per_core <= 8 */
    int n = 0;
    for (int i = 0; i < r->nthr; i++) {
        struct thr *t = &r->thr[i];
        if (!t->pf_stalled || t->core != (int)core)
            continue;
        SIM_ASSERT(n < (int)SIM_COUNT_OF(order));
        int at = n++;
        for (; at > 0 && order[at - 1]->pf_since > t->pf_since; at--)
            order[at] = order[at - 1];
        order[at] = t;
    }
    for (int i = 0; i < n; i++)
        if (order[i]->pf_stalled)
            stream_issue(order[i]);
}

/* cc_set_prefetch_done's: a prefetch ended, its slot is free; the threads
 * that wait for one go on in an event of their own. */
static void pf_done(void *ctx, int core, bool to_write)
{
    struct run *r = ctx;
    struct pf_core *p = &r->pf[core];
    *(to_write ? &p->writes : &p->reads) -= 1;
    SIM_ASSERT(p->reads >= 0 && p->writes >= 0);
    if (p->stalled && !p->waking) {
        p->waking = true;
        sim_schedule(r->m->k, 0, pf_wake_at, r, (uint64_t)core);
    }
}

/* Sends a prefetch of layout place vline; it holds a slot while sent. */
static void pf_send(struct thr *t, uint64_t vline, bool write)
{
    struct run *r = t->run;
    if (!cc_prefetch(r->m->cc, t->core, vline, write, t->id) || !r->pf)
        return; /* held already, or fetched: no slot taken */
    *(write ? &r->pf[t->core].writes : &r->pf[t->core].reads) += 1;
}

/* Tells the on_prefetch_wait callback what the thread did at its prefetch
 * instruction (t->pf_stall_line, pf_stall_write). */
static void pf_tell(struct thr *t, enum core_pf_wait what)
{
    struct run *r = t->run;
    bool w = t->pf_stall_write;
    if (r->o.on_prefetch_wait)
        r->o.on_prefetch_wait(r->o.prefetch_wait_ctx, t->id, t->core, t->pf_stall_line, w,
                              w ? r->m->prefetch_write_slots : r->m->prefetch_read_slots,
                              t->op.op == WL_OP_ADDLINE, what);
}

/* The thread's loop stops at the prefetch instruction of line (to write
 * or to read): its core's slots of that kind are taken. Again at the same
 * one: nothing new. */
static void pf_stop(struct thr *t, uint64_t line, bool write)
{
    if (t->pf_stalled)
        return;
    struct pf_core *p = &t->run->pf[t->core];
    p->stalled++;
    t->pf_stalled = true;
    t->pf_since = p->stalls++;
    t->pf_stall_at = sim_now(t->run->m->k);
    t->pf_stall_line = line;
    t->pf_stall_write = write;
    t->run->pf_waits++;
    pf_tell(t, CORE_PF_STOPS);
}

/* The loop goes on from the instruction it stopped at: a slot is free
 * (slot), or its line needs none now (its cache holds or fetches it). */
static void pf_go_on(struct thr *t, bool slot)
{
    t->run->pf[t->core].stalled--;
    t->pf_stalled = false;
    t->run->pf_wait_ps += sim_now(t->run->m->k) - t->pf_stall_at;
    pf_tell(t, slot ? CORE_PF_SLOT_FREE : CORE_PF_LINE_HELD);
}

/* The loop's prefetch instructions as it loads source line i: lines
 * i + prefetch_distance of the source and, to write, of the destination.
 * Each holds one of its core's slots of its kind until it is done
 * (core.prefetch_read_slots, prefetch_write_slots); with none free the
 * in-order loop stops at the instruction: false (pf_stage says which
 * prefetch is next), and the thread is tried again when one frees. A
 * line its cache holds or fetches takes no slot. */
static bool stream_prefetch(struct thr *t, int64_t i)
{
    int64_t ahead = i + t->run->m->prefetch_distance;
    if (!t->run->m->prefetch_distance || ahead >= t->op.count)
        return true;
    bool copy = t->op.op == WL_OP_COPY;
    const struct wl_loc *src = &t->op.addr[copy ? 0 : 1], *dst = &t->op.addr[copy ? 1 : 0];
    for (; t->pf_stage < 2; t->pf_stage++) {
        bool write = t->pf_stage == 1;
        uint64_t vline = (uint64_t)((write ? dst : src)->line + ahead) + 1;
        bool wanted = t->run->pf && cc_prefetch_wanted(t->run->m->cc, t->core, vline);
        if (wanted && !pf_slot_free(t->run, t->core, write)) {
            pf_stop(t, line_number(t, (int64_t)vline - 1), write);
            return false;
        }
        if (t->pf_stalled) /* it passes the instruction it stopped at */
            pf_go_on(t, wanted);
        if (wanted || !t->run->pf) /* else known to send nothing: not looked up twice */
            pf_send(t, vline, write);
    }
    return true;
}

static void stream_issue(struct thr *t)
{
    const struct wl_loc *src = &t->op.addr[t->op.op == WL_OP_COPY ? 0 : 1];
    int mshrs = t->run->m->mshrs;
    while (t->s_inflight < mshrs && t->s_next < t->op.count) {
        if (!stream_prefetch(t, t->s_next))
            return; /* stopped at a prefetch instruction: pf_wake_at tries again */
        t->pf_stage = 0;
        int slot = -1;
        for (int i = 0; i < mshrs && slot < 0; i++)
            if (t->sreq[i].ctx == NULL)
                slot = i;
        SIM_ASSERT(slot >= 0);
        struct cc_req *req = &t->sreq[slot];
        memset(req, 0, sizeof *req);
        req->op = CC_LOAD_LINE;
        req->core = t->core;
        req->line = line_number(t, src->line + t->s_next);
        req->vline = (uint64_t)(src->line + t->s_next) + 1;
        req->buf = t->sbuf + (size_t)slot * t->run->m->line_bytes;
        req->value = (uint64_t)t->s_next;
        req->done = stream_slot_done;
        req->ctx = t;
        t->s_next++;
        t->s_inflight++;
        start_access(t, req);
    }
}

static void start_stream(struct thr *t)
{
    for (int i = 0; i < t->run->m->mshrs; i++) {
        t->sreq[i].ctx = NULL;
        t->s_loaded[i] = false;
    }
    t->s_next = t->s_done = t->s_commit = 0;
    t->s_inflight = 0;
    t->s_storing = false;
    t->s_changed = false;
    t->pf_stage = 0;
    stream_issue(t);
}

/* ------------------------------------------------------------ operations */

static void op_done(struct sim_kernel *k, struct cc_req *req)
{
    struct thr *t = req->ctx;
    (void)k;
    switch (t->op.op) {
    case WL_OP_READ:
        set_reg(t, (int64_t)req->result);
        break;
    case WL_OP_ADD:
        set_reg(t, (int64_t)req->result);
        break;
    case WL_OP_CAS:
        set_reg(t, req->result == (uint64_t)t->op.value[0] ? 1 : 0);
        break;
    case WL_OP_XCHG:
    case WL_OP_CMPXCHG:
        set_reg(t, (int64_t)req->result); /* the old word */
        break;
    case WL_OP_WAIT:
        wait_loaded(t);
        return;
    default:
        break;
    }
    finish_op(t);
}

static void compute_done(struct sim_kernel *k, void *obj, uint64_t arg)
{
    (void)k;
    (void)arg;
    finish_op(obj);
}

static const char state_letter[] = {[WL_STATE_M] = 'M', [WL_STATE_E] = 'E', [WL_STATE_S] = 'S'};

static bool methodology(struct thr *t);

static void retry_methodology(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct thr *t = obj;
    (void)k;
    (void)arg;
    if (methodology(t)) {
        retired_at_once(t);
        step(t);
    }
}

/* Methodology ops need the line quiet (a prime also a way for it in its
 * core's cache); else they are retried next cycle. */
static bool methodology(struct thr *t)
{
    struct run *r = t->run;
    uint64_t line = line_number(t, t->op.addr[0].line);
    bool quiet = cc_line_quiet(r->m->cc, line);
    if (quiet && t->op.op == WL_OP_PRIME && !cc_prime_ready(r->m->cc, t->core, line)) {
        t->way_wait = true;
        quiet = false;
    }
    if (!quiet) {
        sim_schedule(r->m->k, cycles(r, 1), retry_methodology, t, 0);
        return false;
    }
    if (r->o.on_reset)
        r->o.on_reset(r->o.reset_ctx, t->id, t->core, &t->op, line, t->op_start, t->way_wait,
                      false);
    if (t->op.op == WL_OP_EVICT)
        cc_evict_line(r->m->cc, line);
    else
        cc_prime_line(r->m->cc, t->core, line, state_letter[t->op.state]);
    if (r->o.on_reset)
        r->o.on_reset(r->o.reset_ctx, t->id, t->core, &t->op, line, t->op_start, t->way_wait, true);
    t->way_wait = false;
    return true;
}

/* Checks word a.word of `count` lines from a.line on: a value error for
 * every line whose value fails the comparison. */
static void do_expect(struct thr *t)
{
    struct run *r = t->run;
    const struct wl_loc *a = &t->op.addr[0];
    SIM_ASSERT(t->op.count >= 1);
    for (int64_t i = 0; i < t->op.count; i++) {
        int64_t li = a->line + i;
        int64_t v = (int64_t)cc_core_word(r->m->cc, t->core, line_number(t, li), (unsigned)a->word);
        if (wl_cmp_holds(t->op.cmp, v, t->op.value[0]))
            continue;
        if (r->res->value_errors++ >= (uint64_t)r->o.max_reports)
            continue;
        char name[128], when[96] = "";
        int line = 0, col = 0;
        wl_line_name(r->prog, li, name, sizeof name);
        wl_program_where(r->prog, t->op.stmt, &line, &col);
        iteration_text(t, when, sizeof when);
        fprintf(stderr,
                "%s:%d:%d: value error: thread %d%s: expect %s.%d %s %lld, but it is %lld\n",
                wl_program_file(r->prog), line, col, t->id, when, name, a->word,
                wl_cmp_text(t->op.cmp), (long long)t->op.value[0], (long long)v);
    }
}

/* A test-and-set register is read (test and set), written, waited on
 * (tested until the condition holds), compared-and-swapped (cas R 0 1 and
 * cmpxchg R 0 1: test and set) or exchanged with 1 (xchg R 1: test and
 * set); nothing else means anything to it. */
static bool register_op_ok(struct thr *t)
{
    const struct wl_op *op = &t->op;
    if (op->naddr == 0 || !cc_place_count(t->run->m->cc, CC_LINE_TAS))
        return true;
    bool test_and_set = ((op->op == WL_OP_CAS || op->op == WL_OP_CMPXCHG) && op->value[0] == 0 &&
                         op->value[1] == 1) ||
                        (op->op == WL_OP_XCHG && op->value[0] == 1);
    bool allowed = op->op == WL_OP_READ || op->op == WL_OP_WRITE || op->op == WL_OP_WAIT ||
                   op->op == WL_OP_EXPECT || op->op == WL_OP_EVICT || test_and_set;
    for (int i = 0; i < op->naddr; i++) {
        uint64_t line = line_number(t, op->addr[i].line);
        if (cc_line_kind(t->run->m->cc, line) != CC_LINE_TAS || (allowed && op->addr[i].word == 0))
            continue;
        fail(t,
             "%s on a test-and-set register: a register takes read (test and set), write, "
             "wait, cas R 0 1, cmpxchg R 0 1, xchg R 1, on word 0 only",
             wl_op_name(op->op));
        return false;
    }
    return true;
}

/* A prime puts a line in a state its protocol has (MSI has no E; the SCC
 * only S and M, and an MPB line's copy is clean). */
static bool prime_ok(struct thr *t)
{
    struct run *r = t->run;
    char state = state_letter[t->op.state];
    if (t->op.op != WL_OP_PRIME)
        return true;
    if (!cc_can_hold(r->m->cc, state)) {
        char can[16] = "";
        for (const char *c = "MES"; *c; c++)
            if (cc_can_hold(r->m->cc, *c))
                snprintf(can + strlen(can), sizeof can - strlen(can), "%s%c", can[0] ? ", " : "",
                         *c);
        fail(t, "prime %c: the machine's protocol has no %c state (it can prime %s)", state, state,
             can);
        return false;
    }
    if (state != 'M' || cc_line_kind(r->m->cc, line_number(t, t->op.addr[0].line)) != CC_LINE_MPB)
        return true;
    fail(t, "prime M: an MPB line's copy is never dirty (its stores go through the write-combining "
            "buffer to the MPB): prime S");
    return false;
}

/* The evicts and primes that open an iteration (the ops right after its
 * sync) are the methodology's reset of the lines' states: they happen at
 * the sync's release, the machine quiet, before any thread leaves after its
 * start skew. Done by each thread when it left, one thread's reset could
 * wipe out what a thread that left earlier had already done in the
 * iteration. They run in the trace's order (wl_pos_cmp: `all: evict x`
 * before a later `0: prime x M`, whichever thread evicts), then by thread
 * number: run_resets merges the threads' runs of resets, each already in
 * that order (loops count up), holding one reset a thread. A thread's first
 * op that is not a reset is kept for step. */

/* Whether thread a's next reset runs before thread b's. */
static bool reset_before(const struct run *r, int a, int b)
{
    int c = wl_pos_cmp(&r->thr[a].reset_pos, &r->thr[b].reset_pos);
    return c ? c < 0 : a < b;
}

static void heap_swap(int *h, size_t i, size_t j)
{
    int x = h[i];
    h[i] = h[j];
    h[j] = x;
}

static void heap_push(struct run *r, int thread)
{
    int *h = r->heap;
    size_t i = r->nresets++;
    h[i] = thread;
    for (; i > 0 && reset_before(r, h[i], h[(i - 1) / 2]); i = (i - 1) / 2)
        heap_swap(h, i, (i - 1) / 2);
}

/* The thread whose reset runs first, taken off the heap. */
static int heap_pop(struct run *r)
{
    int *h = r->heap, top = h[0];
    h[0] = h[--r->nresets];
    for (size_t i = 0, c; (c = 2 * i + 1) < r->nresets; i = c) {
        if (c + 1 < r->nresets && reset_before(r, h[c + 1], h[c]))
            c++;
        if (!reset_before(r, h[c], h[i]))
            break;
        heap_swap(h, i, c);
    }
    return top;
}

static bool is_reset(const struct wl_op *op)
{
    return !op->in_while && (op->op == WL_OP_EVICT || op->op == WL_OP_PRIME);
}

/* Takes the thread's next op from its cursor (kept in t->op for step, or
 * for run_resets); a reset puts the thread into the heap. */
static void take_reset(struct thr *t)
{
    t->fetched_nr = wl_next(&t->cur, &t->op, t->run->d);
    t->fetched = true;
    if (t->fetched_nr != WL_NEXT_OP || !is_reset(&t->op))
        return;
    wl_cursor_pos(&t->cur, t->op.stmt, &t->reset_pos);
    heap_push(t->run, t->id);
}

/* Places the lines the thread's coming resets touch first, before any
 * runs: thread by thread, as a run of the threads one after the other
 * would, so that the order the resets run in does not renumber the lines
 * (and rehash them to other homes). On a copy of the cursor: the resets
 * themselves are taken later (an error is reported then). */
static void place_reset_lines(struct thr *t)
{
    struct wl_cursor c = t->cur;
    struct wl_op op;
    struct sim_diag scratch;
    sim_diag_init(&scratch);
    while (wl_next(&c, &op, &scratch) == WL_NEXT_OP && is_reset(&op))
        (void)line_number(t, op.addr[0].line);
}

/* Runs the reset the thread took (its t->op). */
static bool run_reset(struct thr *t)
{
    t->fetched = false;
    t->op_start = sim_now(t->run->m->k);
    if (!register_op_ok(t) || !prime_ok(t)) /* the run stops: the failed op stays */
        return false;
    bool done = methodology(t);
    SIM_ASSERT(done); /* the machine is quiet at a release */
    op_ended(t);
    return true;
}

static void run_resets(struct run *r)
{
    while (r->nresets > 0) {
        struct thr *t = &r->thr[heap_pop(r)];
        if (!run_reset(t))
            return;
        take_reset(t);
    }
}

/* Starts the current op; returns true if it finished at once (zero cost). */
static bool start_op(struct thr *t)
{
    struct run *r = t->run;
    struct wl_op *op = &t->op;
    if (!register_op_ok(t) || !prime_ok(t) || !note_loop(t))
        return false;
    switch (op->op) {
    case WL_OP_READ:
        scalar(t, CC_LOAD, &op->addr[0], 0, 0);
        return false;
    case WL_OP_WRITE:
        scalar(t, CC_STORE, &op->addr[0], (uint64_t)op->value[0], 0);
        return false;
    case WL_OP_ADD:
        scalar(t, CC_ADD, &op->addr[0], (uint64_t)op->value[0], 0);
        return false;
    case WL_OP_CAS:
    case WL_OP_CMPXCHG:
        scalar(t, CC_CAS, &op->addr[0], (uint64_t)op->value[0], (uint64_t)op->value[1]);
        return false;
    case WL_OP_XCHG:
        scalar(t, CC_XCHG, &op->addr[0], (uint64_t)op->value[0], 0);
        return false;
    case WL_OP_FENCE: /* in-order cores, no store buffer: nothing to order */
        return true;
    case WL_OP_WAIT:
        t->reload = false;
        if (cc_line_kind(r->m->cc, line_number(t, op->addr[0].line)) == CC_LINE_MPB)
            cc_drop_noncoherent(r->m->cc, t->core, /* RCCE's flag wait: invalidate, then read */
                                "the wait runs invmb before its first read");
        scalar(t, CC_LOAD, &op->addr[0], 0, 0);
        return false;
    case WL_OP_COPY:
    case WL_OP_ADDLINE:
        start_stream(t);
        return false;
    case WL_OP_FLUSH:
        scalar(t, CC_FLUSH, &op->addr[0], 0, 0);
        return false;
    case WL_OP_COMPUTE:
        if (!compute_fits(t, (uint64_t)op->count))
            return false;
        sim_schedule(r->m->k, cycles(r, (uint64_t)op->count), compute_done, t, 0);
        t->compute_novel = op->in_while && !local_work(t) && compute_busy(t);
        if (!op->in_while || local_work(t) || t->compute_novel)
            sim_busy_until(r->m->k, sim_now(r->m->k) + cycles(r, (uint64_t)op->count));
        return false;
    case WL_OP_MARK:
        do_mark(t);
        return true;
    case WL_OP_INVMB:
        if (!cc_place_count(r->m->cc, CC_LINE_MPB)) {
            fail(t, "invmb needs a machine with message-passing buffers (protocol scc)");
            return false;
        }
        cc_drop_noncoherent(r->m->cc, t->core, "the core runs invmb");
        sim_schedule_at(r->m->k, issue_time(t) + cycles(r, 1), compute_done, t, 0);
        return false;
    case WL_OP_SYNC:
        t->st = T_SYNC;
        r->at_sync++;
        maybe_release(r);
        return false;
    case WL_OP_EVICT:
    case WL_OP_PRIME:
        return methodology(t);
    case WL_OP_EXPECT:
        do_expect(t);
        return true;
    case WL_OP_LET: /* done by the cursor: never yielded */
    case WL_OP_COUNT:
        break;
    }
    sim_panic("unknown operation %d", (int)op->op);
}

/* Runs the thread until it starts an operation that takes time. A while
 * loop whose ops all cost nothing (mark, expect, fence) would go round
 * without simulated time passing: after WL_MAX_ZERO_OPS such ops in a
 * row it is an error, not a hang. */
static void step(struct thr *t)
{
    struct run *r = t->run;
    for (;;) {
        if (r->stopped || t->st != T_RUN)
            return;
        enum wl_next_result nr = t->fetched ? t->fetched_nr : wl_next(&t->cur, &t->op, r->d);
        t->fetched = false;
        if (nr == WL_NEXT_ERROR) {
            t->st = T_FAILED;
            r->res->input_error = true;
            r->stopped = true;
            sim_stop(r->m->k);
            return;
        }
        if (nr == WL_NEXT_END) {
            t->st = T_DONE;
            if (r->o.on_done)
                r->o.on_done(r->o.done_ctx, t->id, t->cur.reg, wl_program_reg_count(r->prog));
            r->live--;
            maybe_release(r);
            return;
        }
        t->op_start = sim_now(r->m->k);
        if (!time_left(t) || !zero_time_ok(t) || !start_op(t))
            return;
        retired_at_once(t);
    }
}

/* A stuck copy or addline: how far it got, and a stop at a prefetch slot. */
static void report_stream(FILE *f, const struct thr *t, const char *name)
{
    /* performed stores: a hit's is performed before its access ends (s_done
     * counted those ended, and read 0 after a store had changed the line) */
    int64_t stored = t->s_commit - (t->s_storing ? 1 : 0);
    fprintf(f, "in %s %s: %lld of its %lld lines stored", wl_op_name(t->op.op), name,
            (long long)stored, (long long)t->op.count);
    if (stored == t->op.count)
        fprintf(f, ", its last store's access not yet ended");
    if (t->pf_stalled) {
        bool w = t->pf_stall_write;
        int slots = w ? t->run->m->prefetch_write_slots : t->run->m->prefetch_read_slots;
        fprintf(f,
                "; its loop waits at a prefetch instruction for one of core %d's %d prefetch "
                "slot%s to %s",
                t->core, slots, slots == 1 ? "" : "s", w ? "write" : "read");
    }
    fputc('\n', f);
}

/* Prints the op's word as its core reads it (returned), and what the line holds where that
 * differs (on a machine without coherence: its copy, stale or written
 * since its fill, or its own write still on its way, beside the value
 * memory or the MPB holds). */
static int64_t print_word_seen(FILE *f, struct thr *t)
{
    const struct run *r = t->run;
    uint64_t line = line_number(t, t->op.addr[0].line);
    unsigned word = (unsigned)t->op.addr[0].word;
    long long seen = (long long)cc_core_word(r->m->cc, t->core, line, word),
              held = (long long)cc_peek_word(r->m->cc, line, word);
    fprintf(f, "%lld", seen);
    if (seen == held)
        return seen;
    enum cc_word_source from = cc_core_word_source(r->m->cc, t->core, line, word);
    const char *what = from == CC_WORD_OWN_WRITE ? "its own write, still on its way"
                       : from == CC_WORD_WRITTEN ? "its copy, written since its fill"
                       : from == CC_WORD_COPY    ? "its stale copy"
                                                 : "what it reads";
    fprintf(f, " to its core (%s; the line holds %lld)", what, held);
    return seen;
}

static void report_wait(FILE *f, struct thr *t, const char *name)
{
    const struct run *r = t->run;
    uint64_t line = line_number(t, t->op.addr[0].line);
    fprintf(f, "waits for %s.%d %s %lld; ", name, t->op.addr[0].word, wl_cmp_text(t->op.cmp),
            (long long)t->op.value[0]);
    char st = cc_state_of(r->m->cc, t->core, line);
    if (st == 'T') { /* no copy to read the word from: what the line holds */
        fprintf(f,
                "its core's copy is in transition (a request for the line in flight; the "
                "line holds %lld)\n",
                (long long)cc_peek_word(r->m->cc, line, (unsigned)t->op.addr[0].word));
        return;
    }
    fprintf(f, "the word is ");
    int64_t seen = print_word_seen(f, t);
    fprintf(f, ", its copy %c%s\n", st,
            wl_cmp_holds(t->op.cmp, seen, t->op.value[0])
                ? " (which meets the condition: the poll under way, or due, reads it and ends "
                  "the wait)"
                : "");
}

/* ------------------------------------------------------------ reports */

/* What thread t, at a line of the trace, is doing when the run stops with
 * it not done; `spins`: a while loop that reads memory is called a spin
 * (the watchdog judged it one), else only where it is. */
static void report_doing(FILE *f, struct thr *t, const char *name, bool spins)
{
    struct run *r = t->run;
    if (t->st == T_SYNC)
        fprintf(f, "waits at sync (%d of %d live threads arrived%s)\n", r->at_sync, r->live,
                r->release_pending ? "; the release waits for the machine to be quiet" : "");
    else if (t->op.op == WL_OP_WAIT)
        report_wait(f, t, name);
    else if (t->op.op == WL_OP_COPY || t->op.op == WL_OP_ADDLINE)
        report_stream(f, t, name);
    else if (is_reset(&t->op)) /* a reset under way is one that waits (methodology) */
        fprintf(f, "in %s %s: waits for %s\n", wl_op_name(t->op.op), name,
                t->way_wait ? "a way in its core's cache (its set's lines busy)"
                            : "its line to be quiet");
    else if (t->op.in_while && t->op.naddr > 0) {
        fprintf(f, "%s a while loop, in %s %s; the word %s.%d is ", spins ? "spins in" : "runs",
                wl_op_name(t->op.op), name, name, t->op.addr[0].word);
        print_word_seen(f, t);
        fprintf(f, "\n");
    } else if (local_work(t))
        fprintf(f, "computes in a while loop that touches no memory (its own work)\n");
    else if (t->op.in_while)
        fprintf(f, "%s a while loop, in %s\n", spins ? "spins in" : "runs", wl_op_name(t->op.op));
    else
        fprintf(f, "in %s%s%s\n", wl_op_name(t->op.op), *name ? " " : "", name);
}

/* Thread t's line of such a report: who, where, doing what. */
static void report_thread(FILE *f, struct thr *t, bool spins)
{
    struct run *r = t->run;
    char when[96];
    iteration_text(t, when, sizeof when);
    fprintf(f, "  thread %d (core %d.%d%s)", t->id, t->core, t->hw, when);
    if (t->skewing) { /* no op of its own under way, and none begun: no line to name */
        fprintf(f, ": leaves %s after its start skew; it has begun no operation since\n",
                t->iter ? "the sync" : "the run's start");
        return;
    }
    int line = 0, col = 0;
    wl_program_where(r->prog, t->op.stmt, &line, &col);
    char name[128] = "";
    if (t->op.naddr > 0)
        wl_line_name(r->prog, t->op.addr[0].line, name, sizeof name);
    fprintf(f, " at %s:%d: ", wl_program_file(r->prog), line);
    report_doing(f, t, name, spins);
}

static bool some_thread_spins(const struct run *r);

/* A spin is judged, not proven, endless (a loop can read memory and still
 * end on its own variables): the header says so when one is in it. */
static void report_deadlock(struct run *r, FILE *f)
{
    double ns = (double)sim_now(r->m->k) / SIM_PS_PER_NS;
    if (some_thread_spins(r))
        fprintf(f,
                "ccsim: deadlock at %.3f ns, as the watchdog judges it (a while loop that "
                "changes no memory for its interval is taken for a spin without end): these "
                "threads look stuck\n",
                ns);
    else
        fprintf(f, "ccsim: deadlock at %.3f ns: these threads cannot finish\n", ns);
    for (int i = 0; i < r->nthr; i++)
        if (r->thr[i].st != T_DONE)
            report_thread(f, &r->thr[i], true);
    cc_print_outstanding(r->m->cc, f);
}

/* The run was still going at its time limit: what each thread not done
 * was doing, with no judgement (the watchdog had not found it stuck; a
 * limit under its interval leaves that open). */
static void report_time_limit(struct run *r, FILE *f)
{
    double ns = (double)sim_now(r->m->k) / SIM_PS_PER_NS;
    fprintf(f,
            "ccsim: the run reached its simulated-time limit, %.3f ns, not finished; the "
            "watchdog (%.0f ns without progress is a deadlock) had not judged it stuck, and a "
            "loop that changes memory for ever ends so (run, explain and tune take --max-time "
            "NS, a sweep file max_time_ns; the other subcommands run under the default, %.0f "
            "s); these threads had not finished:\n",
            ns, (double)r->o.watchdog_ps / SIM_PS_PER_NS, (double)CORE_MAX_TIME_PS / 1e12);
    for (int i = 0; i < r->nthr; i++)
        if (r->thr[i].st != T_DONE)
            report_thread(f, &r->thr[i], false);
}

static bool some_thread_spins(const struct run *r)
{
    for (int i = 0; i < r->nthr; i++)
        if (r->thr[i].st == T_RUN && r->thr[i].op.in_while)
            return true;
    return false;
}

static void on_stall(struct sim_kernel *k, void *ctx)
{
    struct run *r = ctx;
    (void)k;
    r->res->deadlock = true;
    double ns = (double)r->o.watchdog_ps / SIM_PS_PER_NS;
    if (some_thread_spins(r))
        fprintf(stderr,
                "ccsim: for %.0f ns of simulated time no operation finished outside a while "
                "loop and none in one changed memory\n",
                ns);
    else
        fprintf(stderr, "ccsim: no operation finished for %.0f ns of simulated time\n", ns);
    report_deadlock(r, stderr);
}

/* ------------------------------------------------------------ results */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The value at rank q (0..1) of sorted v, interpolated between neighbours. */
static double quantile(const double *v, size_t n, double q)
{
    double pos = q * (double)(n - 1);
    size_t lo = (size_t)floor(pos);
    size_t hi = lo + 1 < n ? lo + 1 : lo;
    return v[lo] + (v[hi] - v[lo]) * (pos - (double)lo);
}

/* The statistics of n latencies whose exact sum is sum_ps (the mean from
 * the exact sum, so it never leaves [min, max] by rounding). */
static struct core_stats stats_of(const double *v, size_t n)
{
    double *sorted = sim_xmalloc(n * sizeof *sorted);
    memcpy(sorted, v, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_double);
    long double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += (long double)llround(sorted[i] * SIM_PS_PER_NS); /* whole ps */
    double mean = (double)(sum / (long double)n / SIM_PS_PER_NS);
    if (mean < sorted[0])
        mean = sorted[0];
    if (mean > sorted[n - 1])
        mean = sorted[n - 1];
    struct core_stats st = {mean,          quantile(sorted, n, 0.5), sorted[0],
                            sorted[n - 1], quantile(sorted, n, 0.1), quantile(sorted, n, 0.9)};
    free(sorted);
    return st;
}

static void thread_latencies(struct run *r)
{
    struct core_result *res = r->res;
    res->threads = r->nthr;
    res->thread_latency = sim_xcalloc((size_t)r->nthr, sizeof *res->thread_latency);
    for (int i = 0; i < r->nthr; i++) {
        struct thr *t = &r->thr[i];
        struct core_thread_latency *tl = &res->thread_latency[i];
        keep_thread_latency(t);
        tl->iterations = t->nlat;
        tl->ns = t->lat; /* the result owns them now */
        t->lat = NULL;
        if (tl->iterations)
            tl->stats = stats_of(tl->ns, tl->iterations);
    }
}

/* A run that deadlocked (or stopped at its time limit) leaves its last
 * iteration unfinished unless every thread still alive waits at a sync (it
 * was over for all of them). */
static bool last_unfinished(const struct run *r)
{
    if (!r->res->deadlock && !r->res->time_limit)
        return false;
    for (int i = 0; i < r->nthr; i++)
        if (r->thr[i].st != T_SYNC && r->thr[i].st != T_DONE)
            return true;
    return false;
}

static void latencies(struct run *r)
{
    struct core_result *res = r->res;
    if (r->niters && last_unfinished(r)) { /* not measured: some thread never got to its end */
        r->iters[r->niters - 1].marked = false;
        for (int i = 0; i < r->nthr; i++)
            if (r->thr[i].marked && r->thr[i].mark_iter == r->niters - 1)
                r->thr[i].marked = false;
    }
    res->latency_ns = sim_xcalloc(r->niters ? r->niters : 1, sizeof *res->latency_ns);
    for (size_t k = 0; k < r->niters; k++)
        if (r->iters[k].marked)
            res->latency_ns[res->iterations++] =
                (double)(r->iters[k].end - r->iters[k].start) / SIM_PS_PER_NS;
    if (res->iterations)
        res->latency = stats_of(res->latency_ns, res->iterations);
    thread_latencies(r);
}

static void counters(struct run *r)
{
    struct cc_stats cs;
    cc_get_stats(r->m->cc, &cs);
    struct core_result *res = r->res;
    res->loads = cs.loads;
    res->stores = cs.stores;
    res->atomics = cs.atomics;
    res->misses = cs.misses;
    res->invalidations = cs.invalidations;
    res->handoffs = cs.handoffs;
    res->writebacks = cs.writebacks;
    res->prefetches = cs.prefetches;
    res->sw_prefetches = cs.sw_prefetches;
    sim_time_t waited = r->pf_wait_ps; /* with the waits a deadlock cut short */
    for (int i = 0; i < r->nthr; i++)
        if (r->thr[i].pf_stalled)
            waited += sim_now(r->m->k) - r->thr[i].pf_stall_at;
    res->sw_prefetch_waits = r->pf_waits;
    res->sw_prefetch_wait_ns = (double)waited / SIM_PS_PER_NS;
    res->store_prefetches = cs.store_prefetches;
    res->line_busy = cs.line_busy;
    res->fill_conflicts = cs.fill_conflicts;
    res->llc_hits = cs.llc_hits;
    res->llc_evictions = cs.llc_evictions;
    res->home_queue_ns = (double)cs.home_queue_ps / SIM_PS_PER_NS;
    res->coherence_violations = cs.violations;
    res->network_bytes = r->m->net->stats.bytes;
    res->link_queue_ns = (double)r->m->net->stats.queue_ps / SIM_PS_PER_NS;
    res->events = sim_events_fired(r->m->k);
    res->simulated_ps = sim_now(r->m->k);
    res->simulated_ns = res->simulated_ps / SIM_PS_PER_NS;
}

/* ------------------------------------------------------------ the run */

/* The line numbers of the program's lines: a line declared with home=S takes
 * the smallest unused number whose home is in socket S (NUMA placement); the
 * others are placed on first touch (line_number). */
static uint64_t take_line(struct run *r, int64_t home)
{
    /* low[home + 1]: below it, every number of that kind is taken (the set
     * only grows), so each search starts there */
    uint64_t n = r->low[home + 1];
    while (sim_map_get(&r->used, n) || (home >= 0 && cc_home_socket(r->m->cc, n) != (int)home))
        n++;
    sim_map_put(&r->used, n, (void *)1);
    r->low[home + 1] = n + 1;
    return n;
}

/* mpb= and tas= lines: in the MPB (or as the register) of the core of
 * their thread, MPB slots taken in declaration order. */
static bool place_on_chip(struct run *r, const struct wl_line *l, int64_t *mpb_used, bool *tas_used)
{
    struct cc_system *cc = r->m->cc;
    const char *what = l->place == WL_PLACE_MPB ? "mpb=" : "tas=";
    enum cc_line_kind kind = l->place == WL_PLACE_MPB ? CC_LINE_MPB : CC_LINE_TAS;
    if (!cc_place_count(cc, kind)) {
        sim_diag_add(r->d, wl_program_file(r->prog), l->src_line,
                     "line %s: %s needs a machine with message-passing buffers (protocol scc)",
                     l->name, what);
        return false;
    }
    int64_t per = l->place_thread == WL_PLACE_EACH ? l->count / r->nthr : l->count;
    for (int64_t k = 0; k < l->count; k++) {
        int64_t thread = l->place_thread == WL_PLACE_EACH ? k / per : l->place_thread;
        int core = r->thr[thread].core;
        uint64_t *line = &r->lines[l->first + k];
        bool ok = l->place == WL_PLACE_MPB
                      ? cc_place_line(cc, kind, core, mpb_used[core]++, line)
                      : !tas_used[core] && cc_place_line(cc, kind, core, 0, line);
        if (!ok) {
            if (l->place == WL_PLACE_MPB)
                sim_diag_add(r->d, wl_program_file(r->prog), l->src_line,
                             "line %s: the MPB of core %d (thread %lld) is full: it holds %lld "
                             "lines of %u B",
                             l->name, core, (long long)thread,
                             (long long)cc_place_count(cc, CC_LINE_MPB), r->m->line_bytes);
            else
                sim_diag_add(r->d, wl_program_file(r->prog), l->src_line,
                             "line %s: core %d (thread %lld) has one test-and-set register, "
                             "already taken",
                             l->name, core, (long long)thread);
            return false;
        }
        if (l->place == WL_PLACE_TAS)
            tas_used[core] = true;
        placed(r, l->first + k);
    }
    return true;
}

static bool place_lines(struct run *r)
{
    int64_t n = wl_program_line_count(r->prog);
    r->lines = sim_xcalloc(n ? (size_t)n : 1, sizeof *r->lines);
    int64_t *mpb_used = sim_xcalloc((size_t)r->m->cores, sizeof *mpb_used);
    bool *tas_used = sim_xcalloc((size_t)r->m->cores, sizeof *tas_used);
    bool ok = true;
    for (int i = 0; i < wl_program_decl_count(r->prog) && ok; i++) {
        const struct wl_line *l = wl_program_decl(r->prog, i);
        if (l->place != WL_PLACE_MEMORY) {
            ok = place_on_chip(r, l, mpb_used, tas_used);
            continue;
        }
        if (l->home >= r->m->memory_nodes) {
            sim_diag_add(r->d, wl_program_file(r->prog), l->src_line,
                         "line %s: home=%lld, but the machine has %d memory node(s) (sockets)",
                         l->name, (long long)l->home, r->m->memory_nodes);
            ok = false;
        }
        for (int64_t k = 0; k < l->count && ok; k++)
            if (l->home >= 0) {
                r->lines[l->first + k] = take_line(r, l->home);
                placed(r, l->first + k);
            } else
                r->lines[l->first + k] = UNPLACED;
    }
    free(mpb_used);
    free(tas_used);
    return ok;
}

/* Unpinned, thread i goes to core i % cores, hardware thread i / cores:
 * every core's first hardware thread fills first. */
struct wl_pin core_thread_place(const struct wl_program *p, int i, int cores)
{
    if (wl_program_pinned(p))
        return wl_program_pin(p, i);
    return (struct wl_pin){.core = i % cores, .hw = i / cores};
}

/* Thread i, at `at`, does not fit the machine: says where it would run, at
 * the trace's `threads` line, and how to fit them. */
static void unfit(const struct wl_program *p, int cores, int tpc, int i, struct wl_pin at,
                  struct sim_diag *d)
{
    int nthr = wl_program_threads(p);
    if (wl_program_pinned(p)) {
        sim_diag_add(d, wl_program_file(p), 0,
                     "thread %d is pinned to core %d.%d, but the machine has %d cores of %d "
                     "hardware thread(s)",
                     i, at.core, at.hw, cores, tpc);
        return;
    }
    sim_diag_add(d, wl_program_file(p), wl_program_threads_line(p),
                 "threads %d do not fit the machine's %d cores of %d hardware thread%s: without a "
                 "pin line thread i runs on core i %% %d, hardware thread i / %d, so thread %d "
                 "would need hardware thread %d of core %d (fewer threads, or a larger machine: "
                 "--set machine.cores=%d)",
                 nthr, cores, tpc, tpc == 1 ? "" : "s", cores, cores, i, at.hw, at.core,
                 (nthr + tpc - 1) / tpc);
}

bool core_threads_fit(const struct wl_program *p, int cores, int threads_per_core,
                      struct sim_diag *d)
{
    for (int i = 0; i < wl_program_threads(p); i++) {
        struct wl_pin at = core_thread_place(p, i, cores);
        if (at.core >= cores || at.hw >= threads_per_core) {
            unfit(p, cores, threads_per_core, i, at, d);
            return false;
        }
    }
    return true;
}

static bool place_threads(struct run *r)
{
    if (!core_threads_fit(r->prog, r->m->cores, r->m->threads_per_core, r->d))
        return false;
    for (int i = 0; i < r->nthr; i++) {
        struct wl_pin at = core_thread_place(r->prog, i, r->m->cores);
        r->thr[i].core = at.core;
        r->thr[i].hw = at.hw;
    }
    return true;
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static sim_time_t max_time(const struct core_run_opts *o)
{
    return o->max_time_ps ? o->max_time_ps : CORE_MAX_TIME_PS;
}

void core_run(const struct core_machine *m, const struct wl_program *prog,
              const struct core_run_opts *o, struct core_result *res, struct sim_diag *d)
{
    memset(res, 0, sizeof *res);
    struct run r = {.m = m, .prog = prog, .o = *o, .res = res, .d = d};
    r.nthr = wl_program_threads(prog);
    r.live = r.nthr;
    r.thr = sim_xcalloc((size_t)r.nthr, sizeof *r.thr);
    r.heap = sim_xcalloc((size_t)r.nthr, sizeof *r.heap);
    r.core_issue = sim_xcalloc((size_t)m->cores, sizeof *r.core_issue);
    sim_map_init(&r.used);
    r.low = sim_xcalloc((size_t)m->memory_nodes + 1, sizeof *r.low);
    if (wl_program_words(prog) * 8 != (int)m->line_bytes) {
        sim_diag_add(d, wl_program_file(prog), 0,
                     "the trace was read for %d-byte lines, the machine has %u-byte lines",
                     wl_program_words(prog) * 8, m->line_bytes);
        res->input_error = true;
    } else if (!place_threads(&r) || !place_lines(&r))
        res->input_error = true;
    if (res->input_error)
        goto free_threads;
    for (int i = 0; i < r.nthr; i++) {
        struct thr *t = &r.thr[i];
        t->run = &r;
        t->id = i;
        t->st = T_RUN;
        t->loop = -1;
        t->sreq = sim_xcalloc((size_t)m->mshrs, sizeof *t->sreq);
        t->sbuf = sim_xcalloc((size_t)m->mshrs, m->line_bytes);
        t->s_loaded = sim_xcalloc((size_t)m->mshrs, sizeof *t->s_loaded);
        wl_cursor_init(&t->cur, prog, i);
        sim_rng_init(&t->skew_rng, m->seed, 0x736b6577 /* "skew" */ + (uint64_t)i);
    }
    iteration(&r, 0)->start = 0;
    if (m->prefetch_distance && (m->prefetch_read_slots || m->prefetch_write_slots)) {
        r.pf = sim_xcalloc((size_t)m->cores, sizeof *r.pf);
        cc_set_prefetch_done(m->cc, pf_done, &r);
    }
    cc_set_line_map(m->cc, map_line, &r);
    cc_set_line_namer(m->cc, name_line, &r);
    double t0 = wall_now();
    sim_watchdog(m->k, o->watchdog_ps, on_stall, &r);
    for (int i = 0; i < r.nthr; i++)
        start_thread(&r.thr[i]);
    enum sim_run_status rs = r.stopped ? SIM_RUN_STOPPED : sim_run(m->k, max_time(o));
    if (rs == SIM_RUN_UNTIL && r.live == 0) /* the threads ended: what they left finishes */
        rs = sim_run(m->k, SIM_TIME_MAX);
    res->wall_s = wall_now() - t0;
    if (rs == SIM_RUN_EMPTY && r.live > 0 && !res->input_error) {
        res->deadlock = true;
        report_deadlock(&r, stderr);
    }
    if (rs == SIM_RUN_UNTIL) {
        res->time_limit = true;
        report_time_limit(&r, stderr);
    }
    if (res->deadlock || res->time_limit)
        ops_unfinished(&r, res->deadlock ? CORE_OP_DEADLOCK : CORE_OP_TIME_LIMIT);
    cc_set_line_map(m->cc, NULL, NULL); /* r goes away with this call */
    cc_set_line_namer(m->cc, NULL, NULL);
    cc_set_prefetch_done(m->cc, NULL, NULL);
    for (int c = 0; r.pf && rs == SIM_RUN_EMPTY && !res->deadlock && c < m->cores; c++)
        SIM_ASSERT(r.pf[c].reads == 0 && r.pf[c].writes == 0); /* every prefetch ended */
    counters(&r);
    latencies(&r);
    if (o->max_reports > 0 && res->value_errors > (uint64_t)o->max_reports)
        fprintf(stderr, "ccsim: %llu more value error(s) not shown (%s%d %s above)\n",
                (unsigned long long)(res->value_errors - (uint64_t)o->max_reports),
                o->max_reports == 1 ? "" : "the first ", o->max_reports,
                o->max_reports == 1 ? "is" : "are");
    for (int i = 0; i < r.nthr; i++) {
        free(r.thr[i].sreq);
        free(r.thr[i].sbuf);
        free(r.thr[i].s_loaded);
        free(r.thr[i].lat);
    }
free_threads:
    free(r.lines);
    free(r.low);
    sim_map_destroy(&r.used);
    free(r.iters);
    free(r.heap);
    free(r.thr);
    free(r.core_issue);
    free(r.pf);
}

bool core_result_failed(const struct core_result *res)
{
    return res->deadlock || res->time_limit || res->value_errors || res->coherence_violations;
}

void core_result_free(struct core_result *res)
{
    free(res->latency_ns);
    res->latency_ns = NULL;
    for (int i = 0; i < res->threads && res->thread_latency; i++)
        free(res->thread_latency[i].ns);
    free(res->thread_latency);
    res->thread_latency = NULL;
    res->threads = 0;
}

static bool from_thread(const struct cc_req *r)
{
    return r && r->ctx && (r->done == op_done || r->done == stream_slot_done);
}

const struct wl_op *core_req_op(const struct cc_req *r)
{
    return from_thread(r) ? &((const struct thr *)r->ctx)->op : NULL;
}

bool core_req_origin(const struct cc_req *r, int *thread, const char **loop_var,
                     int64_t *loop_value)
{
    if (!from_thread(r))
        return false;
    const struct thr *t = r->ctx;
    *thread = t->id;
    if (!wl_cursor_outer_loop(&t->cur, loop_var, loop_value))
        *loop_var = NULL;
    return true;
}
