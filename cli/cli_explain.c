/*
 * cli_explain.c -- `ccsim explain`: a narrated log of every coherence step of
 * a run, one entry a step, readable by a student: when, who (a core's cache
 * or a home), which line (by the trace's own name), what happened (the
 * event, by the tables' name), the state it met and what the row did there
 * (cli/narrate.h: only what it did in this instance). Filters choose the
 * steps: a line or one element of an array, a thread, an iteration as the
 * trace counts it, a time window.
 */
#include "cli.h"
#include "narrate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A reset's line, before and after it, by cache node. */
struct reset_snap {
    bool taken;             /* snapped before (the line is narrated) */
    char *held, *after;     /* [cache nodes]: its state letter before and after */
    struct narrate_llc llc; /* the line in its home's LLC, before and after */
    bool gols_dirty;        /* its home was GOLS before: shared, dirty */
};

struct narrator {
    struct narrate_ctx nc;
    struct sim_map names; /* line number -> line index + 1 */
    const struct wl_program *p;
    uint64_t max_lines, printed, skipped;
    int only_decl;       /* -1: every declaration */
    int64_t only_line;   /* -1: every line of it */
    sim_time_t from, to; /* the window, ps */
    int thread, core;    /* --thread and its core's cache node, or -1 */
    bool cache_shared;   /* another thread of the trace runs on that cache */
    bool want_iteration; /* --iteration */
    int64_t iteration;   /* as the trace counts it */
    bool in_iteration;   /* the iteration that is open is the one asked for */
    uint64_t opened;     /* iterations opened */
    int64_t first_label, last_label;
    bool wanted_opened; /* --iteration's label was opened (labels can skip: see on_iteration) */
    struct sim_kernel *k;
    struct cc_system *cc;
    sim_time_t skew_ps; /* the machine's start skew */
    int cores_per_cache;
    struct reset_snap own, moved; /* a reset's line; the line its prime displaces */
    bool displaces;               /* the prime under way displaces victim (narrated) */
    uint64_t victim;
};

/* One more narrated entry, if --max-lines leaves room (else counted as
 * skipped, for the footer). */
static bool take_line(struct narrator *n)
{
    if (n->printed >= n->max_lines) {
        n->skipped++;
        return false;
    }
    n->printed++;
    return true;
}

/* Within --from / --to, and in the iteration --iteration asks for. */
static bool in_scope(const struct narrator *n, sim_time_t t)
{
    return t >= n->from && t <= n->to && (!n->want_iteration || n->in_iteration);
}

static void on_place(void *ctx, int64_t index, uint64_t number)
{
    struct narrator *n = ctx;
    sim_map_put(&n->names, number, (void *)(uintptr_t)(index + 1));
}

/* An iteration opens: the one asked for, or another. Its label is the
 * trace's loop variable (`it`) or, outside loops, the sync's count. */
static void on_iteration(void *ctx, uint64_t iteration, const char *var, int64_t value)
{
    struct narrator *n = ctx;
    int64_t label = var ? value : (int64_t)iteration;
    enum narrate_sync kind = n->opened && label == n->last_label ? NARRATE_SYNC_AGAIN
                             : var                               ? NARRATE_SYNC_LOOP
                                                                 : NARRATE_SYNC_TOP;
    if (!n->opened++)
        n->first_label = label;
    n->last_label = label;
    n->in_iteration = label == n->iteration;
    n->wanted_opened |= n->in_iteration;
    sim_time_t now = sim_now(n->k);
    if (!in_scope(n, now) || !take_line(n))
        return;
    narrate_iteration(now, label, kind, n->skew_ps, stdout);
}

static bool line_wanted(const struct narrator *n, uint64_t line)
{
    if (n->only_decl < 0)
        return true;
    uintptr_t v = (uintptr_t)sim_map_get(&n->names, line);
    if (!v)
        return false;
    if (n->only_line >= 0)
        return (int64_t)v - 1 == n->only_line;
    return wl_program_decl_of(n->p, (int64_t)v - 1) == n->only_decl;
}

/* Whether a cache row changed its copy: its state, or its bytes. */
static bool changed_copy(const struct cc_step *st)
{
    if (st->from != st->to && strcmp(st->from, st->to) != 0)
        return true;
    return st->data_before && st->data_after &&
           memcmp(st->data_before, st->data_after, st->line_bytes) != 0;
}

/* --thread: the home rows of its core's transactions; at its cache, its
 * own requests' rows and the cache's message rows, and the rows of another
 * thread's request that changed the copy it shares (a sibling's store: a
 * copy never changes unsaid). */
static bool thread_wanted(const struct narrator *n, const struct cc_step *st)
{
    if (n->thread < 0)
        return true;
    if (st->home)
        return st->requester == n->core || st->msg_src == n->core;
    int thread;
    const char *var;
    int64_t value;
    if (st->req && core_req_origin(st->req, &thread, &var, &value))
        return thread == n->thread || (st->node == n->core && changed_copy(st));
    return st->node == n->core;
}

static bool wanted(const struct narrator *n, const struct cc_step *st)
{
    return line_wanted(n, st->line) && in_scope(n, st->time) && thread_wanted(n, st);
}

/* A reset's line before it runs, and after. */
static void snap_before(struct narrator *n, uint64_t line, struct reset_snap *r)
{
    for (int c = 0; c < n->nc.cores; c++)
        r->held[c] = cc_state_of(n->cc, c * n->cores_per_cache, line);
    r->llc.held = cc_llc_holds(n->cc, line);
    r->llc.dirty = cc_llc_dirty(n->cc, line);
    const char *home = cc_home_state_of(n->cc, line);
    r->gols_dirty = home && strcmp(home, "GOLS") == 0;
}

static void snap_after(struct narrator *n, uint64_t line, struct reset_snap *r)
{
    for (int c = 0; c < n->nc.cores; c++)
        r->after[c] = cc_state_of(n->cc, c * n->cores_per_cache, line);
    r->llc.after = cc_llc_holds(n->cc, line);
    r->llc.drop = cc_llc_reset_drop(n->cc, &r->llc.dropped, &r->llc.dropped_dirty);
}

/* --thread: the thread's own resets, and another's that changed its
 * core's copy (a copy never vanishes between two steps unsaid). */
static bool reset_wanted(const struct narrator *n, int thread, const struct reset_snap *r)
{
    return n->thread < 0 || thread == n->thread || r->held[n->core] != r->after[n->core];
}

static void print_reset(struct narrator *n, struct narrate_reset *r, const struct reset_snap *sn)
{
    if (!take_line(n))
        return;
    r->held = sn->held;
    r->after = sn->after;
    r->llc = sn->llc;
    r->gols_dirty = sn->gols_dirty;
    narrate_reset(&n->nc, r, stdout);
}

/* A reset (evict or prime): the caches' copies of the line before it runs
 * and after; narrated after, with the copies it dropped. A prime that
 * needs a way of a full set displaces another line: narrated next, as a
 * reset of that line. */
static void on_reset(void *ctx, int thread, int core, const struct wl_op *op, uint64_t line,
                     sim_time_t started, bool way_wait, bool done)
{
    struct narrator *n = ctx;
    sim_time_t now = sim_now(n->k);
    if (!in_scope(n, now))
        return;
    if (!done) {
        n->own.taken = line_wanted(n, line);
        if (n->own.taken)
            snap_before(n, line, &n->own);
        n->displaces = op->op == WL_OP_PRIME && cc_prime_victim(n->cc, core, line, &n->victim) &&
                       line_wanted(n, n->victim);
        if (n->displaces)
            snap_before(n, n->victim, &n->moved);
        return;
    }
    char prime = op->op == WL_OP_PRIME ? wl_state_text(op->state)[0] : 0;
    struct narrate_reset r = {.time = now,
                              .thread = thread,
                              .cache = core / n->cores_per_cache,
                              .prime = prime,
                              .line = line,
                              .waited_ps = now - started,
                              .way_wait = way_wait};
    if (n->own.taken) {
        snap_after(n, line, &n->own);
        if (reset_wanted(n, thread, &n->own))
            print_reset(n, &r, &n->own);
    }
    if (n->displaces) {
        snap_after(n, n->victim, &n->moved);
        r.prime = 0;
        r.displaced = true;
        r.primed = line;
        r.line = n->victim;
        if (reset_wanted(n, thread, &n->moved))
            print_reset(n, &r, &n->moved);
    }
}

/* core_run_opts' on_prefetch_wait: narrated as the thread's step. */
static void on_prefetch_wait(void *ctx, int thread, int core, uint64_t line, bool write, int slots,
                             bool addline, enum core_pf_wait what)
{
    struct narrator *n = ctx;
    sim_time_t now = sim_now(n->k);
    if (!line_wanted(n, line) || !in_scope(n, now) || (n->thread >= 0 && thread != n->thread) ||
        !take_line(n))
        return;
    struct narrate_prefetch_wait w = {now, thread, core, line, write, slots, addline, what};
    narrate_prefetch_wait(&n->nc, &w, stdout);
}

static void narrate(void *ctx, const struct cc_step *st)
{
    struct narrator *n = ctx;
    if (!wanted(n, st))
        return;
    if (!take_line(n))
        return;
    narrate_step(&n->nc, st, stdout);
}

/* --line NAME or NAME[i]: a declaration, or one element of an array. */
static int resolve_line(struct narrator *n, const char *spec)
{
    char name[128];
    const char *br = strchr(spec, '[');
    size_t len = br ? (size_t)(br - spec) : strlen(spec);
    if (len == 0 || len >= sizeof name)
        return cli_usage_error("explain", "--line '%s': expected NAME or NAME[INDEX]", spec);
    memcpy(name, spec, len);
    name[len] = '\0';
    n->only_decl = wl_program_decl_find(n->p, name);
    if (n->only_decl < 0)
        return cli_usage_error("explain", "--line %s: the trace declares no line '%s'", spec, name);
    if (!br)
        return 0;
    const struct wl_line *l = wl_program_decl(n->p, n->only_decl);
    char *end;
    long long i = strtoll(br + 1, &end, 10);
    if (end == br + 1 || strcmp(end, "]") != 0)
        return cli_usage_error("explain", "--line '%s': expected NAME[INDEX] with a number", spec);
    if (i < 0 || i >= l->count)
        return cli_usage_error("explain", "--line %s: '%s' has %lld line%s (0..%lld)", spec, name,
                               (long long)l->count, l->count == 1 ? "" : "s",
                               (long long)l->count - 1);
    n->only_line = l->first + i;
    return 0;
}

/* The cache of trace thread t (as cc numbers caches). */
static int cache_of_thread(const struct narrator *n, const struct cli_session *ss, int t)
{
    int core = core_thread_place(n->p, t, ss->w.cores).core;
    return core / ss->w.cores_per_cache;
}

/* Another trace thread shares --thread's cache: the homes' rows of the
 * cache's requests are its too (a home knows caches, not threads). */
static bool cache_shared(const struct narrator *n, const struct cli_session *ss)
{
    for (int t = 0; t < wl_program_threads(n->p); t++)
        if (t != n->thread && cache_of_thread(n, ss, t) == n->core)
            return true;
    return false;
}

/* --thread T: the thread must exist; its core as the run pins it. */
static int resolve_thread(struct narrator *n, const struct cli_session *ss, int64_t thread)
{
    int threads = wl_program_threads(n->p);
    if (thread >= threads)
        return cli_usage_error("explain", "--thread %lld: the trace has %d thread%s (0..%d)",
                               (long long)thread, threads, threads == 1 ? "" : "s", threads - 1);
    n->thread = (int)thread;
    n->core = cache_of_thread(n, ss, n->thread);
    n->cache_shared = cache_shared(n, ss);
    return 0;
}

static void print_header(const struct cli_run_args *a, const struct cli_session *ss,
                         const struct narrator *n)
{
    printf("ccsim explain: %s on %s (%s, %s); times in ns\n", cli_workload_name(a),
           ss->m.machine.name, ss->m.machine.protocol, ss->m.machine.topology);
    int cpc = ss->w.cores_per_cache;
    if (cpc > 1)
        printf("  cores share caches: cache N serves cores %d*N..%d*N+%d\n", cpc, cpc, cpc - 1);
    if (a->only_line)
        printf("  only line %s\n", a->only_line);
    if (a->explain_thread >= 0 && n->cache_shared) /* a home knows caches, not threads */
        printf("  only thread %lld; at the homes, every request of its cache, which other threads "
               "of the trace share; other threads' resets where they change its copy, and their "
               "requests' rows that change it\n",
               (long long)a->explain_thread);
    else if (a->explain_thread >= 0)
        printf("  only thread %lld (and other threads' resets where they change its core's copy)\n",
               (long long)a->explain_thread);
    if (a->explain_want_iteration && a->explain_iteration == 0)
        printf("  only iteration 0 (as the trace counts it), from the run's start (what runs "
               "before the first sync is iteration 0) to a sync of another:\n  a step before a "
               "loop's sync is labelled with the loop's next value\n");
    else if (a->explain_want_iteration)
        printf("  only iteration %lld (as the trace counts it), from the sync that opens it to the "
               "next:\n  a step before a loop's sync is labelled with the loop's next value\n",
               (long long)a->explain_iteration);
    if (a->explain_from || a->explain_to != SIM_TIME_MAX) {
        printf("  only from %.3f ns", (double)a->explain_from / SIM_PS_PER_NS);
        if (a->explain_to == SIM_TIME_MAX)
            printf(" to the end\n");
        else
            printf(" to %.3f ns\n", (double)a->explain_to / SIM_PS_PER_NS);
    }
}

/* --iteration K that never opened says why (iteration 0 opens at the
 * run's start: what runs before the first sync); true if it did. */
static bool iteration_unopened(const struct narrator *n)
{
    if (!n->want_iteration || n->iteration == 0 || n->wanted_opened)
        return false;
    if (!n->opened)
        printf("no step: the trace opens no iteration (no sync)\n");
    else if (n->iteration < n->first_label || n->iteration > n->last_label)
        printf("no step: iteration %lld never opened (the run's iterations: %lld .. %lld)\n",
               (long long)n->iteration, (long long)n->first_label, (long long)n->last_label);
    else
        printf("no step: iteration %lld never opened (the run's are labelled %lld to %lld with "
               "gaps:\n  a sync in a loop takes its loop variable's value, one outside loops its "
               "count among the syncs)\n",
               (long long)n->iteration, (long long)n->first_label, (long long)n->last_label);
    return true;
}

static void print_footer(const struct narrator *n, const struct core_result *r)
{
    if (n->skipped)
        printf("... %llu more steps (raise --max-lines)\n", (unsigned long long)n->skipped);
    if (r->time_limit) /* what was not narrated did not happen: the run was cut */
        printf("the run stopped at its simulated-time limit (%.3f ns), not finished\n",
               (double)sim_now(n->k) / SIM_PS_PER_NS);
    else if (r->deadlock)
        printf("the run ended in a deadlock (the report is on stderr)\n");
    if (!iteration_unopened(n) && !n->printed)
        printf("no step matched\n");
    narrate_legend_print(&n->nc, stdout);
}

static int explain_run(struct narrator *n, struct cli_session *ss, sim_time_t max_time)
{
    cc_observe(ss->mc->cc, narrate, n);
    struct core_run_opts o = {.watchdog_ps = machine_watchdog_ps(ss->mc, MACHINE_WATCHDOG_PS),
                              .max_time_ps = max_time,
                              .max_reports = 10,
                              .on_place = on_place,
                              .place_ctx = n,
                              .on_iteration = on_iteration,
                              .iteration_ctx = n,
                              .on_reset = on_reset,
                              .reset_ctx = n,
                              .on_prefetch_wait = on_prefetch_wait,
                              .prefetch_wait_ctx = n};
    struct core_result r;
    core_run(&ss->w, ss->p, &o, &r, &ss->d);
    if (!r.input_error) /* nothing ran: no footer about steps that did not happen */
        print_footer(n, &r);
    int status = r.input_error            ? SIM_EXIT_INPUT
                 : core_result_failed(&r) ? SIM_EXIT_FAIL
                                          : SIM_EXIT_OK;
    core_result_free(&r);
    return status;
}

int cli_explain(int argc, char **argv)
{
    struct cli_run_args a = {
        .seed = 1, .max_lines = 2000, .explain_to = SIM_TIME_MAX, .explain_thread = -1};
    int bad = cli_parse_run_args("explain", argc, argv, &a);
    if (bad)
        return bad;
    struct cli_session ss;
    if ((bad = cli_session_open(&a, &ss)))
        return bad;
    struct narrator n = {.p = ss.p,
                         .max_lines = a.max_lines,
                         .only_decl = -1,
                         .only_line = -1,
                         .from = a.explain_from,
                         .to = a.explain_to,
                         .thread = -1,
                         .core = -1,
                         .want_iteration = a.explain_want_iteration,
                         .iteration = a.explain_iteration,
                         .in_iteration = a.explain_want_iteration && a.explain_iteration == 0,
                         .k = ss.mc->k,
                         .cc = ss.mc->cc,
                         .skew_ps = ss.w.start_skew_ps,
                         .cores_per_cache = ss.w.cores_per_cache};
    sim_map_init(&n.names);
    size_t nodes = (size_t)(ss.w.cores / ss.w.cores_per_cache);
    struct reset_snap *snaps[] = {&n.own, &n.moved};
    for (int i = 0; i < 2; i++) {
        snaps[i]->held = sim_xcalloc(nodes, 1);
        snaps[i]->after = sim_xcalloc(nodes, 1);
    }
    n.nc = (struct narrate_ctx){
        .p = ss.p,
        .names = &n.names,
        .cores = ss.w.cores / ss.w.cores_per_cache,
        .shared_caches = ss.w.cores_per_cache > 1,
        .tiles = cc_place_count(ss.mc->cc, CC_LINE_MPB) > 0 ? ss.mc->params.homes : 0,
        .wide = a.wide};
    n.nc.who_width = narrate_who_width(wl_program_threads(ss.p), n.nc.cores, n.nc.shared_caches,
                                       ss.mc->params.homes);
    if (a.only_line)
        bad = resolve_line(&n, a.only_line);
    if (!bad && a.explain_thread >= 0)
        bad = resolve_thread(&n, &ss, a.explain_thread);
    if (!bad) {
        print_header(&a, &ss, &n);
        bad = explain_run(&n, &ss, a.max_time);
    }
    for (int i = 0; i < 2; i++) {
        free(snaps[i]->held);
        free(snaps[i]->after);
    }
    sim_map_destroy(&n.names);
    cli_session_close(&ss);
    return bad;
}
