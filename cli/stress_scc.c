/*
 * stress_scc.c -- the random tester on the SCC (protocol scc), where there
 * is no coherence to check but the memory still owes every program three
 * things, each checked on every value:
 *
 *   - private memory: a core reads back what it last wrote to its own lines
 *     (tiny caches: fills, write-backs, stores that miss and go to memory,
 *     flushes), against a shadow copy per core;
 *   - MPB lines with one writer each: the writer stores increasing values
 *     (through its write-combining buffer), readers invmb and read; a value
 *     read is never ahead of the writer's last store, never older than what
 *     the same reader saw before, and never older than what the writer had
 *     committed (flushed, or written as a whole line) when the read began;
 *   - a lock: cores take core 0's test-and-set register, read a counter in
 *     an MPB (after invmb), write it + 1, flush it and release; no two hold
 *     the lock at once, and the counter ends equal to the increments done.
 *
 * One agent per core (the P54C runs one thread and blocks on a miss).
 * --jitter-ns does not apply (see stress_run_scc).
 */
#include "stress.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum agent_step {
    S_PRIVATE,
    S_MPB_WRITE,
    S_MPB_READ,
    S_LOCK_TRY,
    S_LOCK_READ,
    S_LOCK_WRITE,
    S_LOCK_FLUSH,
    S_LOCK_RELEASE,
};

struct agent {
    struct scc_stress *st;
    int core;
    struct cc_req req;
    uint8_t buf[SIM_MAX_LINE_BYTES];
    struct sim_rng rng;
    enum agent_step step;
    int x, i;        /* MPB reads: the writer and its line */
    uint64_t floor;  /* MPB reads: the writer's committed value at issue */
    uint64_t expect; /* private loads: the shadow's word */
    bool busy;
};

struct scc_stress {
    struct machine *mc;
    struct stress_opts o;
    struct agent *agents;
    int cores, words, mlines;
    uint8_t *shadow;     /* cores * lines * line_bytes: private lines */
    uint64_t *latest;    /* cores * mlines * words: the writers' last stores */
    uint64_t *committed; /* the same, as far as they are surely in the MPB */
    uint64_t *seen;      /* cores (reader) * cores * mlines * words */
    uint64_t lock_line, counter_line;
    int holder; /* the lock's holder, or -1 */
    uint64_t increments;
    uint64_t issued, done, checks, violations;
};

static uint64_t private_line(const struct scc_stress *st, int core, int i)
{
    /* a core's lines crowd into two sets so that tiny caches must evict */
    return ((uint64_t)core * st->o.lines + (uint64_t)i / 2) * st->mc->params.sets + (uint64_t)i % 2;
}

static uint64_t mpb_line(const struct scc_stress *st, int writer, int i)
{
    uint64_t line = 0;
    int owner = (writer + 1 + i) % st->cores; /* spread over the tiles */
    bool ok =
        cc_place_line(st->mc->cc, CC_LINE_MPB, owner, (int64_t)writer * st->mlines + i, &line);
    SIM_ASSERT(ok);
    return line;
}

static uint8_t *shadow_of(struct scc_stress *st, int core, int i)
{
    return st->shadow + ((size_t)core * st->o.lines + (size_t)i) * st->mc->params.line_bytes;
}

static uint64_t *latest_of(struct scc_stress *st, int x, int i)
{
    return st->latest + ((size_t)x * (size_t)st->mlines + (size_t)i) * (size_t)st->words;
}

static uint64_t *committed_of(struct scc_stress *st, int x, int i)
{
    return st->committed + ((size_t)x * (size_t)st->mlines + (size_t)i) * (size_t)st->words;
}

static uint64_t *seen_of(struct scc_stress *st, int reader, int x, int i)
{
    size_t per_reader = (size_t)st->cores * (size_t)st->mlines * (size_t)st->words;
    return st->seen + (size_t)reader * per_reader +
           ((size_t)x * st->mlines + (size_t)i) * st->words;
}

static void violation(struct scc_stress *st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
#define SHOWN_VIOLATIONS 10 /* the first ones are printed; the count says the rest */

static void violation(struct scc_stress *st, const char *fmt, ...)
{
    if (st->violations++ < SHOWN_VIOLATIONS) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "ccsim stress: at %.3f ns: ", (double)sim_now(st->mc->k) / SIM_PS_PER_NS);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
}

static uint64_t word_of(const uint8_t *b, int w)
{
    uint64_t v;
    memcpy(&v, b + 8 * w, 8);
    return v;
}

static void issue(struct sim_kernel *k, void *obj, uint64_t arg);

static void access(struct agent *a, enum cc_op op, uint64_t line, int word, uint64_t value)
{
    struct cc_req *r = &a->req;
    memset(r, 0, sizeof *r);
    r->op = op;
    r->core = a->core;
    r->line = line;
    r->word = (unsigned)word;
    r->value = value;
    r->buf = a->buf;
    r->done = NULL;
    r->ctx = a;
    a->busy = true;
    a->st->issued++;
}

/* ---- private lines */

static void private_op(struct agent *a)
{
    struct scc_stress *st = a->st;
    int i = (int)sim_rng_below(&a->rng, st->o.lines), w = (int)sim_rng_below(&a->rng, st->words);
    uint8_t *sh = shadow_of(st, a->core, i);
    uint64_t line = private_line(st, a->core, i);
    unsigned roll = (unsigned)sim_rng_below(&a->rng, 100);
    a->step = S_PRIVATE;
    if (roll < 35) {
        access(a, CC_LOAD, line, w, 0);
        a->expect = word_of(sh, w);
    } else if (roll < 65) {
        uint64_t v = sim_rng_next(&a->rng);
        access(a, roll < 58 ? CC_STORE : CC_XCHG, line, w, v);
        a->expect = word_of(sh, w); /* what an exchange returns */
        memcpy(sh + 8 * w, &v, 8);
    } else if (roll < 75) {
        access(a, CC_ADD, line, w, 3);
        a->expect = word_of(sh, w);
        uint64_t v = a->expect + 3;
        memcpy(sh + 8 * w, &v, 8);
    } else if (roll < 85) {
        access(a, CC_LOAD_LINE, line, 0, 0);
    } else if (roll < 92) {
        access(a, CC_ADD_LINE, line, 0, 0);
        for (int k = 0; k < st->words; k++) {
            uint64_t d = sim_rng_below(&a->rng, 1000), v = word_of(sh, k) + d;
            memcpy(a->buf + 8 * k, &d, 8);
            memcpy(sh + 8 * k, &v, 8);
        }
    } else
        access(a, CC_FLUSH, line, 0, 0);
    a->i = i;
}

static void private_done(struct agent *a)
{
    struct scc_stress *st = a->st;
    struct cc_req *r = &a->req;
    if (r->op == CC_LOAD || r->op == CC_ADD || r->op == CC_XCHG) {
        st->checks++;
        if (r->result != a->expect)
            violation(st, "core %d read %llu from its private line 0x%llx word %u, it wrote %llu",
                      a->core, (unsigned long long)r->result, (unsigned long long)r->line, r->word,
                      (unsigned long long)a->expect);
    } else if (r->op == CC_LOAD_LINE) {
        const uint8_t *sh = shadow_of(st, a->core, a->i);
        st->checks++;
        if (memcmp(a->buf, sh, (size_t)st->words * 8) != 0)
            violation(st,
                      "core %d read its private line 0x%llx whole, and it differs from what "
                      "it wrote",
                      a->core, (unsigned long long)r->line);
    }
}

/* ---- MPB lines */

static void mpb_write(struct agent *a)
{
    struct scc_stress *st = a->st;
    int i = (int)sim_rng_below(&a->rng, st->mlines);
    uint64_t line = mpb_line(st, a->core, i), *lat = latest_of(st, a->core, i);
    unsigned roll = (unsigned)sim_rng_below(&a->rng, 100);
    a->step = S_MPB_WRITE;
    a->i = i;
    if (roll < 15) {
        access(a, CC_FLUSH, line, 0, 0);
        return;
    }
    if (roll < 35) {
        for (int w = 0; w < st->words; w++) {
            uint64_t v = ++lat[w];
            memcpy(a->buf + 8 * w, &v, 8);
        }
        access(a, CC_STORE_LINE, line, 0, 0);
        return;
    }
    int w = (int)sim_rng_below(&a->rng, st->words);
    access(a, CC_STORE, line, w, ++lat[w]);
}

static void mpb_read(struct agent *a)
{
    struct scc_stress *st = a->st;
    a->x = (int)sim_rng_below(&a->rng, st->cores);
    a->i = (int)sim_rng_below(&a->rng, st->mlines);
    a->step = S_MPB_READ;
    cc_drop_noncoherent(st->mc->cc, a->core, "the tester runs invmb");
    int w = (int)sim_rng_below(&a->rng, st->words);
    a->floor = committed_of(st, a->x, a->i)[w];
    access(a, CC_LOAD, mpb_line(st, a->x, a->i), w, 0);
}

/* A flush, or a whole line (it leaves the buffer at once), has put every
 * store so far into the MPB. */
static void mpb_write_done(struct agent *a)
{
    struct scc_stress *st = a->st;
    if (a->req.op == CC_FLUSH || a->req.op == CC_STORE_LINE)
        memcpy(committed_of(st, a->core, a->i), latest_of(st, a->core, a->i),
               (size_t)st->words * sizeof(uint64_t));
}

static void mpb_read_done(struct agent *a)
{
    struct scc_stress *st = a->st;
    struct cc_req *r = &a->req;
    uint64_t latest = latest_of(st, a->x, a->i)[r->word];
    uint64_t *seen = &seen_of(st, a->core, a->x, a->i)[r->word];
    st->checks++;
    if (r->result > latest)
        violation(st,
                  "core %d read %llu from MPB line 0x%llx word %u; its writer (core %d) has "
                  "stored only up to %llu",
                  a->core, (unsigned long long)r->result, (unsigned long long)r->line, r->word,
                  a->x, (unsigned long long)latest);
    else if (r->result < a->floor)
        violation(st,
                  "core %d read %llu from MPB line 0x%llx word %u; its writer (core %d) had "
                  "flushed %llu before the read began (a stale copy?)",
                  a->core, (unsigned long long)r->result, (unsigned long long)r->line, r->word,
                  a->x, (unsigned long long)a->floor);
    else if (r->result < *seen)
        violation(st, "core %d read %llu from MPB line 0x%llx word %u after it had read %llu",
                  a->core, (unsigned long long)r->result, (unsigned long long)r->line, r->word,
                  (unsigned long long)*seen);
    else
        *seen = r->result;
}

/* ---- the lock */

static void lock_next(struct agent *a)
{
    struct scc_stress *st = a->st;
    struct cc_req *r = &a->req;
    switch (a->step) {
    case S_LOCK_TRY:
        if (r->result != 0) { /* taken: try again later */
            a->busy = false;
            return;
        }
        st->checks++;
        if (st->holder >= 0)
            violation(st, "core %d took the lock while core %d holds it", a->core, st->holder);
        st->holder = a->core;
        a->step = S_LOCK_READ;
        cc_drop_noncoherent(st->mc->cc, a->core, "the tester runs invmb");
        access(a, CC_LOAD, st->counter_line, 0, 0);
        return;
    case S_LOCK_READ:
        a->step = S_LOCK_WRITE;
        access(a, CC_STORE, st->counter_line, 0, r->result + 1);
        return;
    case S_LOCK_WRITE:
        a->step = S_LOCK_FLUSH;
        access(a, CC_FLUSH, st->counter_line, 0, 0);
        return;
    case S_LOCK_FLUSH:
        st->increments++;
        st->holder = -1; /* released from here on: the register write is under way */
        a->step = S_LOCK_RELEASE;
        access(a, CC_STORE, st->lock_line, 0, 0);
        return;
    default:
        a->busy = false;
        return;
    }
}

/* ---- the agents */

static void op_done(struct sim_kernel *k, struct cc_req *r)
{
    struct agent *a = r->ctx;
    struct scc_stress *st = a->st;
    st->done++;
    sim_progress(k);
    a->busy = false;
    if (a->step == S_PRIVATE)
        private_done(a);
    else if (a->step == S_MPB_READ)
        mpb_read_done(a);
    else if (a->step == S_MPB_WRITE)
        mpb_write_done(a);
    else if (a->step >= S_LOCK_TRY) {
        a->busy = true;
        lock_next(a);
        if (a->busy) {
            a->req.done = op_done;
            cc_access(st->mc->cc, &a->req);
            return;
        }
    }
    uint64_t think = sim_rng_below(&a->rng, st->o.max_think_cycles + 1);
    sim_schedule(k, think * st->mc->params.clock.period_ps, issue, a, 0);
}

static void issue(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct agent *a = obj;
    struct scc_stress *st = a->st;
    (void)k;
    (void)arg;
    if (st->issued >= st->o.ops)
        return;
    unsigned roll = (unsigned)sim_rng_below(&a->rng, 100);
    if (roll < 40)
        private_op(a);
    else if (roll < 65)
        mpb_write(a);
    else if (roll < 90)
        mpb_read(a);
    else {
        a->step = S_LOCK_TRY;
        access(a, CC_LOAD, st->lock_line, 0, 0);
    }
    a->req.done = op_done;
    cc_access(st->mc->cc, &a->req);
}

int stress_run_scc(struct machine *mc, const struct stress_opts *o, struct stress_result *res)
{
    struct scc_stress st = {.mc = mc, .o = *o, .holder = -1};
    st.cores = mc->params.cores;
    st.words = (int)mc->params.line_bytes / 8;
    /* every writer's lines, then the counter, fit the MPBs */
    int64_t room = (cc_place_count(mc->cc, CC_LINE_MPB) - 1) / st.cores;
    st.mlines = (int)(o->lines < room ? o->lines : room);
    SIM_ASSERT(st.mlines >= 1);
    st.shadow = sim_xcalloc((size_t)st.cores * o->lines, mc->params.line_bytes);
    st.latest = sim_xcalloc((size_t)st.cores * st.mlines * st.words, sizeof *st.latest);
    st.committed = sim_xcalloc((size_t)st.cores * st.mlines * st.words, sizeof *st.committed);
    st.seen = sim_xcalloc((size_t)st.cores * st.cores * st.mlines * st.words, sizeof *st.seen);
    st.agents = sim_xcalloc((size_t)st.cores, sizeof *st.agents);
    bool ok = cc_place_line(mc->cc, CC_LINE_TAS, 0, 0, &st.lock_line) &&
              cc_place_line(mc->cc, CC_LINE_MPB, 0, cc_place_count(mc->cc, CC_LINE_MPB) - 1,
                            &st.counter_line);
    SIM_ASSERT(ok);
    /* No jitter: it delays each message at random and so reorders one
     * source's packets to one destination, which the SCC's mesh (XY routes,
     * FIFO links) never does and its memory relies on: a write-back and a
     * later store of the same line must reach the controller in order. The
     * races come from the agents' random timing and the mesh's queues. */
    struct stress_watch watch = {mc, o->watchdog_ns, NULL, NULL, 0, 0};
    stress_watch_arm(&watch);
    for (int i = 0; i < st.cores; i++) {
        st.agents[i] = (struct agent){.st = &st, .core = i};
        sim_rng_init(&st.agents[i].rng, o->seed, 2000 + (uint64_t)i);
        sim_schedule(mc->k, 0, issue, &st.agents[i], 0);
    }
    enum sim_run_status rs = sim_run(mc->k, SIM_TIME_MAX);
    cc_settle(mc->cc);
    struct cc_stats cs;
    cc_get_stats(mc->cc, &cs);
    memset(res, 0, sizeof *res);
    res->deadlock = stress_watch_deadlock(&watch, rs, st.done != st.issued);
    if (!res->deadlock) {
        uint64_t v = cc_peek_word(mc->cc, st.counter_line, 0);
        st.checks++;
        if (v != st.increments)
            violation(&st, "the counter under the lock is %llu after %llu increments",
                      (unsigned long long)v, (unsigned long long)st.increments);
    }
    if (st.violations > SHOWN_VIOLATIONS)
        fprintf(stderr, "ccsim stress: ... and %llu more violations (the first %d shown)\n",
                (unsigned long long)(st.violations - SHOWN_VIOLATIONS), SHOWN_VIOLATIONS);
    res->ops = st.done;
    res->checks = st.checks;
    res->violations = st.violations;
    res->simulated_ps = sim_now(mc->k);
    res->events = sim_events_fired(mc->k);
    res->misses = cs.misses;
    res->writebacks = cs.writebacks;
    free(st.shadow);
    free(st.latest);
    free(st.committed);
    free(st.seen);
    free(st.agents);
    return res->violations || res->deadlock ? SIM_EXIT_FAIL : SIM_EXIT_OK;
}
