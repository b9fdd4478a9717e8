/*
 * stress.c -- the random tester: random loads, stores, atomic adds and
 * exchanges from every core on a few lines, with tiny caches (to force
 * evictions) and random extra message delays (to force races), every value
 * checked.
 *
 * Every core keeps `mlp` requests in flight (memory-level parallelism: a
 * full set with a fill in flight must still make progress).
 *
 * Word 0 of every line only ever gets atomic adds of 1 (and line adds of 0),
 * so its final value must equal the number of adds done on it; the other
 * words get loads, stores, exchanges, line loads and line adds, and lines
 * are flushed;
 * every value is checked by the invariant checker against the coherence
 * order.
 */
#include "stress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct stress_core {
    struct stress *st;
    struct cc_req req;
    uint8_t buf[SIM_MAX_LINE_BYTES];
    struct sim_rng rng;
    bool busy;
};

struct stress {
    struct machine *mc;
    struct stress_core *cores;
    uint64_t *lines; /* the line numbers used */
    uint64_t *adds;  /* adds done per line */
    uint64_t issued, done;
    struct stress_opts o;
};

static void issue(struct sim_kernel *k, void *obj, uint64_t arg);

/* cc_set_line_map's: the tester's lines in order, for a prefetcher. */
static bool map_line(void *ctx, int core, uint64_t index, uint64_t *line)
{
    const struct stress *st = ctx;
    (void)core;
    if (index >= st->o.lines)
        return false;
    *line = st->lines[index];
    return true;
}

static void op_done(struct sim_kernel *k, struct cc_req *r)
{
    struct stress_core *c = r->ctx;
    struct stress *st = c->st;
    st->done++;
    sim_progress(k);
    if (r->op == CC_ADD)
        st->adds[r->value2]++; /* value2 holds the line's index for adds */
    c->busy = false;
    uint64_t think = sim_rng_below(&c->rng, st->o.max_think_cycles + 1);
    sim_schedule(k, think * st->mc->params.clock.period_ps, issue, c, 0);
}

static void issue(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct stress_core *c = obj;
    struct stress *st = c->st;
    (void)arg;
    if (st->issued >= st->o.ops)
        return;
    st->issued++;
    unsigned li = (unsigned)sim_rng_below(&c->rng, st->o.lines);
    unsigned words = st->mc->params.line_bytes / 8;
    unsigned roll = (unsigned)sim_rng_below(&c->rng, 100);
    struct cc_req *r = &c->req;
    memset(r, 0, sizeof *r);
    r->core = (int)(c - st->cores) / (int)st->o.mlp; /* mlp agents share a core */
    r->line = st->lines[li];
    r->vline = li + 1; /* the lines in order, for the hardware prefetchers */
    r->done = op_done;
    r->ctx = c;
    if (roll < 20) {
        r->op = CC_ADD;
        r->word = 0;
        r->value = 1;
        r->value2 = li;
    } else if (roll < 25) {
        r->op = CC_FLUSH;
    } else if (roll < 30) {
        r->op = CC_LOAD_LINE;
        r->buf = c->buf;
    } else if (roll < 35) {
        /* word 0 gets + 0: the add counters stay exact */
        r->op = CC_ADD_LINE;
        r->buf = c->buf;
        memset(c->buf, 0, sizeof c->buf);
        for (unsigned w = 1; w < words; w++) {
            uint64_t v = sim_rng_next(&c->rng);
            memcpy(c->buf + 8 * w, &v, 8);
        }
    } else {
        r->op = roll < 65 ? CC_LOAD : roll < 90 ? CC_STORE : CC_XCHG;
        r->word = 1 + (unsigned)sim_rng_below(&c->rng, words - 1);
        r->value = sim_rng_next(&c->rng);
    }
    c->busy = true;
    cc_access(st->mc->cc, r);
    (void)k;
}

/* What an operation of the tester is, for a deadlock report. */
static const char *op_name(enum cc_op op)
{
    static const char *const names[] = {[CC_LOAD] = "load",
                                        [CC_STORE] = "store",
                                        [CC_ADD] = "atomic add",
                                        [CC_CAS] = "compare-and-swap",
                                        [CC_XCHG] = "exchange",
                                        [CC_LOAD_LINE] = "line load",
                                        [CC_STORE_LINE] = "line store",
                                        [CC_ADD_LINE] = "line add",
                                        [CC_FLUSH] = "flush"};
    return (unsigned)op < SIM_COUNT_OF(names) && names[op] ? names[op] : "operation";
}

/* ------------------------------------------------------------ the deadlock watch */

/* The reason, what each agent waits for, the transactions in flight. */
static void watch_report(struct stress_watch *w, const char *why)
{
    fprintf(stderr, "ccsim stress: deadlock: %s (at %.3f ns)\n", why,
            (double)sim_now(w->mc->k) / SIM_PS_PER_NS);
    if (w->waits)
        w->waits(w->ctx);
    cc_print_outstanding(w->mc->cc, stderr);
}

static void on_stall(struct sim_kernel *k, void *ctx)
{
    struct stress_watch *w = ctx;
    char why[96];
    snprintf(why, sizeof why, "no operation finished for %.0f ns",
             (double)w->interval_ps / SIM_PS_PER_NS);
    watch_report(w, why);
    (void)k;
}

/* watchdog_ns, or longer on a slow machine (machine_watchdog_ps) or with
 * a long jitter (1000 of it: an operation's few messages, each delayed up
 * to it, never take a deadlock's time). */
void stress_watch_arm(struct stress_watch *w)
{
    sim_time_t floor = (sim_time_t)w->watchdog_ns * SIM_PS_PER_NS;
    if (w->jitter_ps > floor / 1000)
        floor = w->jitter_ps * 1000;
    w->interval_ps = machine_watchdog_ps(w->mc, floor);
    sim_watchdog(w->mc->k, w->interval_ps, on_stall, w);
}

bool stress_watch_deadlock(struct stress_watch *w, enum sim_run_status rs, bool unfinished)
{
    if (rs != SIM_RUN_STALLED && unfinished) /* the watchdog did not see it */
        watch_report(w, "nothing more will happen, and operations are unfinished");
    return rs == SIM_RUN_STALLED || unfinished;
}

/* ------------------------------------------------------------ the coherent tester */

/* Each agent's request in flight, for a deadlock report. */
static void report_waiting(void *ctx)
{
    struct stress *st = ctx;
    for (int i = 0; i < st->mc->params.cores * (int)st->o.mlp; i++)
        if (st->cores[i].busy)
            fprintf(stderr, "  core %d waits for its %s of line 0x%llx\n", st->cores[i].req.core,
                    op_name(st->cores[i].req.op), (unsigned long long)st->cores[i].req.line);
}

int stress_run(struct machine *mc, const struct stress_opts *o, struct stress_result *res)
{
    if (!mc->cfg->memsys->coherent)
        return stress_run_scc(mc, o, res);
    struct stress st = {.mc = mc, .o = *o};
    if (st.o.mlp == 0)
        st.o.mlp = 1;
    int agents = mc->params.cores * (int)st.o.mlp;
    st.cores = sim_xcalloc((size_t)agents, sizeof *st.cores);
    st.lines = sim_xcalloc(o->lines, sizeof *st.lines);
    st.adds = sim_xcalloc(o->lines, sizeof *st.adds);
    /* lines crowd into two sets so that tiny caches must evict */
    for (unsigned i = 0; i < o->lines; i++)
        st.lines[i] = (uint64_t)(i / 2) * mc->params.sets + (i % 2) + 7;
    cc_check_enable(mc->cc, false);
    net_set_jitter(mc->net, o->jitter_ps, o->seed);
    struct stress_watch watch = {mc, o->watchdog_ns, report_waiting, &st, o->jitter_ps, 0};
    stress_watch_arm(&watch);
    for (int i = 0; i < agents; i++) {
        st.cores[i].st = &st;
        sim_rng_init(&st.cores[i].rng, o->seed, 1000 + (uint64_t)i);
        sim_schedule(mc->k, 0, issue, &st.cores[i], 0);
    }
    cc_set_line_map(mc->cc, map_line, &st);
    enum sim_run_status rs = sim_run(mc->k, SIM_TIME_MAX);
    cc_set_line_map(mc->cc, NULL, NULL);
    struct cc_stats cs;
    cc_get_stats(mc->cc, &cs);
    memset(res, 0, sizeof *res);
    res->ops = st.done;
    res->checks = cs.checks;
    res->violations = cs.violations;
    res->unexpected = cs.unexpected;
    res->deadlock = stress_watch_deadlock(&watch, rs, st.done != st.issued);
    res->simulated_ps = sim_now(mc->k);
    res->events = sim_events_fired(mc->k);
    res->misses = cs.misses;
    res->invalidations = cs.invalidations;
    res->writebacks = cs.writebacks;
    res->prefetches = cs.prefetches;
    res->has_coverage = cc_row_coverage(mc->cc, &res->coverage);
    /* word 0 of every line holds the number of adds done on it */
    if (!res->deadlock)
        for (unsigned i = 0; i < o->lines; i++) {
            uint64_t v = cc_peek_word(mc->cc, st.lines[i], 0);
            res->checks++;
            if (v != st.adds[i]) {
                fprintf(stderr, "ccsim stress: line 0x%llx counts %llu adds, %llu were done\n",
                        (unsigned long long)st.lines[i], (unsigned long long)v,
                        (unsigned long long)st.adds[i]);
                res->violations++;
            }
        }
    free(st.cores);
    free(st.lines);
    free(st.adds);
    return res->violations || res->unexpected || res->deadlock ? SIM_EXIT_FAIL : SIM_EXIT_OK;
}
