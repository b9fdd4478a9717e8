/*
 * cli_run.c -- `ccsim run`: a trace on a machine, a readable summary and the
 * JSON result of docs/DESIGN.md.
 */
#include "cli.h"
#include "plot.h"
#include "progress.h"
#include "trace_out.h"
#include "core.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One option of run or explain into a; 0 or an exit status. */
static int run_opt(const char *sub, int c, struct cli_run_args *a)
{
    switch (c) {
    case 'F':
        if (!cli_parse_ns(sub, "--from", optarg, &a->explain_from))
            return SIM_EXIT_INPUT;
        return 0;
    case 'U':
        if (!cli_parse_ns(sub, "--to", optarg, &a->explain_to))
            return SIM_EXIT_INPUT;
        return 0;
    case 'H': {
        uint64_t v;
        if (!cli_parse_u64(sub, "--thread", optarg, 0, WL_MAX_THREADS - 1, &v))
            return SIM_EXIT_INPUT;
        a->explain_thread = (int64_t)v;
        return 0;
    }
    case 'I': { /* the trace's own loop value: a loop may count below 0 */
        char *end;
        errno = 0;
        long long v = strtoll(optarg, &end, 10);
        if (errno || end == optarg || *end || isspace((unsigned char)optarg[0]))
            return cli_usage_error(sub,
                                   "--iteration '%s' is %s (a loop's value, from %lld to %lld)",
                                   optarg, errno == ERANGE ? "out of range" : "not a whole number",
                                   (long long)INT64_MIN, (long long)INT64_MAX);
        a->explain_iteration = (int64_t)v;
        a->explain_want_iteration = true;
        return 0;
    }
    case 'D':
        a->wide = true;
        return 0;
    case 'X':
        return cli_parse_max_time(sub, optarg, &a->max_time) ? 0 : SIM_EXIT_INPUT;
    case 'R':
        a->per_iteration = true;
        return 0;
    case 'O':
        a->rows = true;
        return 0;
    case 'E':
        return cli_parse_u64(sub, "--max-errors", optarg, 0, 1000000000, &a->max_errors)
                   ? 0
                   : SIM_EXIT_INPUT;
    case 'c':
        a->config = optarg;
        return 0;
    case 's':
        if (a->nsets == SIM_COUNT_OF(a->sets))
            return cli_usage_error(sub, "too many --set (at most 64)");
        a->sets[a->nsets++] = optarg;
        return 0;
    case 'S':
        if (!cli_parse_u64(sub, "--seed", optarg, 0, UINT64_MAX, &a->seed))
            return SIM_EXIT_INPUT;
        return 0;
    case 'J':
        a->json = optarg;
        return 0;
    case 'C':
        a->check = true;
        return 0;
    case 'L':
        a->links = true;
        return 0;
    case 'w':
        a->gen = optarg;
        return 0;
    case 't':
        if (!cli_parse_u64(sub, "-t", optarg, 1, 4096, &a->threads))
            return SIM_EXIT_INPUT;
        return 0;
    case 'i':
        if (!cli_parse_u64(sub, "-i", optarg, 1, 1000000000, &a->iterations))
            return SIM_EXIT_INPUT;
        return 0;
    case 'M':
        if (!cli_parse_u64(sub, "--max-lines", optarg, 1, UINT64_MAX, &a->max_lines))
            return SIM_EXIT_INPUT;
        return 0;
    case 'N':
        a->only_line = optarg;
        return 0;
    case 'T':
        a->trace_out = optarg;
        return 0;
    case 'W':
        if (!trace_out_parse_window(optarg, &a->trace_from, &a->trace_to))
            return cli_usage_error(sub,
                                   "--trace-window '%s': expected FROM:TO or FROM: in ns, "
                                   "FROM < TO",
                                   optarg);
        a->trace_window_given = true;
        return 0;
    case 'P':
        a->plot = optarg;
        return 0;
    case 'B':
        if (!cli_parse_u64(sub, "--trace-max-bytes", optarg, 1024, UINT64_MAX, &a->trace_max_bytes))
            return SIM_EXIT_INPUT;
        a->trace_max_bytes_given = true;
        return 0;
    }
    return 0;
}

/* What the options say together. */
static int check_run_args(const char *sub, bool explain, struct cli_run_args *a)
{
    if (!a->config)
        return cli_usage_error(sub, "-c CONFIG is required");
    if (a->trace && a->gen)
        return cli_usage_error(sub, "give a TRACE or -w GENERATOR, not both");
    if (!a->trace && !a->gen)
        return cli_usage_error(sub, "name a TRACE file or a generator (-w NAME)");
    if (a->trace && (a->threads || a->iterations))
        return cli_usage_error(sub, "-t and -i go with -w; a trace says its own threads "
                                    "and loops");
    if (a->gen && !a->threads)
        return cli_usage_error(sub, "-w needs -t THREADS");
    if (a->gen && !a->iterations)
        a->iterations = 100;
    if (explain && a->explain_to < a->explain_from)
        return cli_usage_error(sub, "--to comes before --from");
    if (!a->trace_out && a->trace_window_given)
        return cli_usage_error(sub, "--trace-window needs --trace-out FILE (it limits what that "
                                    "file gets)");
    if (!a->trace_out && a->trace_max_bytes_given)
        return cli_usage_error(sub, "--trace-max-bytes needs --trace-out FILE");
    if (a->per_iteration && !a->json)
        return cli_usage_error(sub, "--per-iteration adds to the JSON: give --json FILE too");
    return 0;
}
/* Whether the run's coherence was checked: --check ran the checker, or the
 * machine keeps nothing coherent (nothing to check, 0 violations). */
static bool coherence_checked(const struct machine_cfg *m, const struct cli_run_args *a)
{
    return a->check || !m->memsys->coherent;
}

/* The long name of option value c in longs (each of these has one). */
static const char *long_name(const struct option *longs, int c)
{
    for (; longs->name; longs++)
        if (longs->val == c)
            return longs->name;
    return "?";
}

int cli_parse_run_args(const char *sub, int argc, char **argv, struct cli_run_args *a)
{
    static const struct option longs[] = {{"config", required_argument, NULL, 'c'},
                                          {"set", required_argument, NULL, 's'},
                                          {"seed", required_argument, NULL, 'S'},
                                          {"json", required_argument, NULL, 'J'},
                                          {"check", no_argument, NULL, 'C'},
                                          {"links", no_argument, NULL, 'L'},
                                          {"workload", required_argument, NULL, 'w'},
                                          {"threads", required_argument, NULL, 't'},
                                          {"iterations", required_argument, NULL, 'i'},
                                          {"max-lines", required_argument, NULL, 'M'},
                                          {"line", required_argument, NULL, 'N'},
                                          {"trace-out", required_argument, NULL, 'T'},
                                          {"trace-window", required_argument, NULL, 'W'},
                                          {"trace-max-bytes", required_argument, NULL, 'B'},
                                          {"plot", required_argument, NULL, 'P'},
                                          {"from", required_argument, NULL, 'F'},
                                          {"to", required_argument, NULL, 'U'},
                                          {"thread", required_argument, NULL, 'H'},
                                          {"iteration", required_argument, NULL, 'I'},
                                          {"wide", no_argument, NULL, 'D'},
                                          {"per-iteration", no_argument, NULL, 'R'},
                                          {"rows", no_argument, NULL, 'O'},
                                          {"max-errors", required_argument, NULL, 'E'},
                                          {"max-time", required_argument, NULL, 'X'},
                                          {0}};
    int c, bad = 0;
    optind = 1;
    bool explain = strcmp(sub, "explain") == 0;
    while ((c = cli_next_opt(sub, argc, argv, ":c:s:w:t:i:", longs, &bad)) != -1) {
        if (bad)
            return bad;
        if (strchr("MNFUHID", c) && !explain)
            return cli_usage_error(sub, "unknown option '--%s' (an option of ccsim explain)",
                                   long_name(longs, c));
        if (strchr("JLTWBPROE", c) && explain)
            return cli_usage_error(sub, "unknown option '--%s' (an option of ccsim run)",
                                   long_name(longs, c));
        if ((bad = run_opt(sub, c, a)))
            return bad;
    }
    if (optind < argc)
        a->trace = argv[optind++];
    if (optind < argc)
        return cli_usage_error(sub, "unexpected argument '%s'", argv[optind]);
    return check_run_args(sub, explain, a);
}

const char *cli_workload_name(const struct cli_run_args *a)
{
    return a->gen ? a->gen : a->trace;
}

static void print_summary(const struct machine_cfg *m, const struct cli_run_args *a,
                          const struct wl_program *p, const struct core_result *r)
{
    int threads = wl_program_threads(p);
    printf("ccsim run: %s on %s (%s, %s, %lld cores), %d thread%s, seed %llu\n",
           cli_workload_name(a), m->machine.name, m->machine.protocol, m->machine.topology,
           (long long)m->machine.cores, threads, threads == 1 ? "" : "s",
           (unsigned long long)a->seed);
    if (r->iterations)
        printf("latency over %llu iteration%s (ns): median %.1f  min %.1f  max %.1f  mean %.1f  "
               "p10 %.1f  p90 %.1f\n",
               (unsigned long long)r->iterations, r->iterations == 1 ? "" : "s", r->latency.median,
               r->latency.min, r->latency.max, r->latency.mean, r->latency.p10, r->latency.p90);
    else if (r->deadlock && wl_program_label_count(p) > 0)
        printf("latency: no iteration completed before the deadlock\n");
    else if (r->deadlock) /* iterations may have ended: none is measured without a mark */
        printf("latency: no iteration was measured (no `mark`); the run ended in a deadlock\n");
    else if (r->time_limit && wl_program_label_count(p) > 0)
        printf("latency: no iteration completed before the time limit\n");
    else if (r->time_limit)
        printf("latency: no iteration was measured (no `mark`); the run stopped at its time "
               "limit\n");
    else
        printf("latency: no iteration was measured (no `mark`)\n");
    printf("counters: loads %llu  stores %llu  atomics %llu  misses %llu  invalidations %llu  "
           "handoffs %llu  poll_refetches %llu  steals %llu  writebacks %llu\n",
           (unsigned long long)r->loads, (unsigned long long)r->stores,
           (unsigned long long)r->atomics, (unsigned long long)r->misses,
           (unsigned long long)r->invalidations, (unsigned long long)r->handoffs,
           (unsigned long long)r->poll_refetches, (unsigned long long)r->steals,
           (unsigned long long)r->writebacks);
    if (r->prefetches) /* only machines with a hardware prefetcher (l2.prefetch_*) */
        printf("prefetcher: %llu line%s fetched ahead (not counted in loads or misses)\n",
               (unsigned long long)r->prefetches, r->prefetches == 1 ? "" : "s");
    if (r->sw_prefetches) /* only machines whose copy loops prefetch (core.prefetch_distance) */
        printf("prefetch instructions: %llu line%s fetched ahead by copy and addline loops "
               "(not counted in loads or misses)\n",
               (unsigned long long)r->sw_prefetches, r->sw_prefetches == 1 ? "" : "s");
    if (r->sw_prefetch_waits) /* only cores with prefetch slots (core.prefetch_*_slots) */
        printf("prefetch slots: the loops stopped %llu time%s at a prefetch instruction for one of "
               "their core's slots, %.1f ns in all\n",
               (unsigned long long)r->sw_prefetch_waits, r->sw_prefetch_waits == 1 ? "" : "s",
               r->sw_prefetch_wait_ns);
    if (r->store_prefetches) /* copies on cores with several misses in flight (core.mshrs) */
        printf("store fetches: %llu line%s fetched to write ahead of stores waiting for the ones "
               "before them (a core's stores become visible in order)\n",
               (unsigned long long)r->store_prefetches, r->store_prefetches == 1 ? "" : "s");
    printf("network: %llu bytes  home queueing %.1f ns  link queueing %.1f ns\n",
           (unsigned long long)r->network_bytes, r->home_queue_ns, r->link_queue_ns);
    if (r->line_busy) /* contention: a request met another transaction on its line */
        printf("busy lines: %llu time%s a request met its line busy at its home (%s)\n",
               (unsigned long long)r->line_busy, r->line_busy == 1 ? "" : "s",
               m->home.retry_cycles ? "refused, it came back after home.retry_cycles"
                                    : "it waited in the line's queue");
    if (r->fill_conflicts) /* only machines with memory.fill_conflict_ns have any */
        printf("fill conflicts: %llu time%s memory refused a read during its line's fill "
               "(retried after a random backoff, memory.fill_conflict_ns)\n",
               (unsigned long long)r->fill_conflicts, r->fill_conflicts == 1 ? "" : "s");
    if (r->llc_evictions) /* only a bounded LLC (home.llc_kb) drops lines */
        printf("llc: %llu read%s served by the homes' LLCs; %llu line%s dropped from a full set "
               "for another (home.llc_kb)\n",
               (unsigned long long)r->llc_hits, r->llc_hits == 1 ? "" : "s",
               (unsigned long long)r->llc_evictions, r->llc_evictions == 1 ? "" : "s");
    /* a non-coherent memory (the SCC) has no coherence invariant: --check has nothing to add */
    printf("checks: value errors %llu  ", (unsigned long long)r->value_errors);
    if (!coherence_checked(m, a)) /* nothing was checked: no count */
        printf("coherence not checked (--check checks it)");
    else if (!m->memsys->coherent)
        printf("coherence: none on this machine, nothing to check");
    else
        printf("coherence violations %llu", (unsigned long long)r->coherence_violations);
    printf("%s\n", r->deadlock ? "  DEADLOCK" : r->time_limit ? "  TIME LIMIT (not finished)" : "");
    /* whole ns as such; a fraction to the ps (it printed 74 for 74.999) */
    if (r->simulated_ps % SIM_PS_PER_NS)
        printf("simulation: %llu events, %.3f ns simulated", (unsigned long long)r->events,
               (double)r->simulated_ps / SIM_PS_PER_NS);
    else
        printf("simulation: %llu events, %llu ns simulated", (unsigned long long)r->events,
               (unsigned long long)r->simulated_ns);
    printf(", %.3f s wall, %.2f M events/s\n", r->wall_s,
           r->wall_s > 0 ? (double)r->events / r->wall_s / 1e6 : 0.0);
}

static void json_numbers(FILE *f, const double *v, uint64_t n)
{
    fputc('[', f);
    for (uint64_t i = 0; i < n; i++)
        fprintf(f, "%s%.3f", i ? ", " : "", v[i]);
    fputc(']', f);
}

/* Every thread's latencies (from each sync to its own last mark): min,
 * median, max and mean over the iterations it marked in; null for a thread
 * that never marked; with --per-iteration, every one. */
static void write_thread_latency(FILE *f, const struct core_result *r, bool per_iteration)
{
    fprintf(f, " \"thread_latency_ns\": [");
    for (int i = 0; i < r->threads; i++) {
        const struct core_thread_latency *t = &r->thread_latency[i];
        fprintf(f, "%s\n  {\"thread\": %d, \"iterations\": %llu", i ? "," : "", i,
                (unsigned long long)t->iterations);
        if (t->iterations)
            fprintf(f, ", \"min\": %.3f, \"median\": %.3f, \"max\": %.3f, \"mean\": %.3f",
                    t->stats.min, t->stats.median, t->stats.max, t->stats.mean);
        else
            fprintf(f, ", \"min\": null, \"median\": null, \"max\": null, \"mean\": null");
        if (per_iteration) {
            fprintf(f, ", \"per_iteration_ns\": ");
            json_numbers(f, t->ns, t->iterations);
        }
        fputc('}', f);
    }
    fprintf(f, "],\n");
}

static void print_cell(void *ctx, const char *side, int row, const char *state, const char *event,
                       uint64_t times)
{
    (void)ctx;
    printf("  %-5s row %2d  %-7s %-15s %llu\n", side, row, state, event, (unsigned long long)times);
}

/* --rows: every (state, event) cell of the protocol's tables that ran. */
static void print_rows(const struct cli_session *ss)
{
    if (!ss->m.memsys->coherent) {
        printf("rows: %s runs no protocol tables\n", ss->m.machine.name);
        return;
    }
    printf("rows run (%s's tables, as ccsim protocol %s numbers them: state, event, times; a "
           "message that waits is classified again when it is served)\n",
           ss->m.machine.protocol, ss->m.machine.protocol);
    cc_each_cell_run(ss->mc->cc, print_cell, NULL);
}

struct json_cells {
    FILE *f;
    int n;
};

static void json_cell(void *ctx, const char *side, int row, const char *state, const char *event,
                      uint64_t times)
{
    struct json_cells *j = ctx;
    fprintf(j->f, "%s\n  {\"table\": \"%s\", \"row\": %d, \"state\": ", j->n++ ? "," : "", side,
            row);
    cli_json_string(j->f, state);
    fprintf(j->f, ", \"event\": ");
    cli_json_string(j->f, event);
    fprintf(j->f, ", \"times\": %llu}", (unsigned long long)times);
}

/* "rows": the cells that ran, or null where there are no tables (the SCC). */
static void json_rows(FILE *f, const struct cli_session *ss)
{
    if (!ss->m.memsys->coherent) {
        fprintf(f, " \"rows\": null,\n");
        return;
    }
    struct json_cells j = {f, 0};
    fprintf(f, " \"rows\": [");
    cc_each_cell_run(ss->mc->cc, json_cell, &j);
    fprintf(f, "],\n");
}

static bool write_json(const char *path, const struct cli_session *ss, const struct cli_run_args *a,
                       const struct core_result *r)
{
    const struct machine_cfg *m = &ss->m;
    const struct wl_program *p = ss->p;
    FILE *f = cli_json_open(path);
    if (!f)
        return false;
    fprintf(f, "{\"ccsim\": ");
    cli_json_string(f, sim_version());
    fprintf(f, ", ");
    cli_json_config(f, m->path, a->sets, a->nsets);
    fprintf(f, ", \"machine\": ");
    cli_json_string(f, m->machine.name);
    fprintf(f, ", \"protocol\": ");
    cli_json_string(f, m->machine.protocol);
    fprintf(f, ", \"topology\": ");
    cli_json_string(f, m->machine.topology);
    fprintf(f, ",\n \"workload\": ");
    cli_json_string(f, cli_workload_name(a));
    fprintf(f, ", \"threads\": %d, \"iterations\": %llu, \"seed\": %llu,\n", wl_program_threads(p),
            (unsigned long long)r->iterations, (unsigned long long)a->seed);
    if (r->iterations)
        fprintf(f,
                " \"latency_ns\": {\"mean\": %.3f, \"median\": %.3f, \"min\": %.3f, \"max\": "
                "%.3f, \"p10\": %.3f, \"p90\": %.3f},\n",
                r->latency.mean, r->latency.median, r->latency.min, r->latency.max, r->latency.p10,
                r->latency.p90);
    else /* nothing measured: no figure, not 0 */
        fprintf(f, " \"latency_ns\": {\"mean\": null, \"median\": null, \"min\": null, "
                   "\"max\": null, \"p10\": null, \"p90\": null},\n");
    fprintf(f,
            " \"counters\": {\"loads\": %llu, \"stores\": %llu, \"misses\": %llu, "
            "\"invalidations\": %llu, \"poll_refetches\": %llu, \"steals\": %llu, "
            "\"writebacks\": %llu, \"network_bytes\": %llu, \"home_queue_ns\": %.3f, "
            "\"link_queue_ns\": %.3f, \"atomics\": %llu, \"handoffs\": %llu, "
            "\"prefetches\": %llu, \"sw_prefetches\": %llu, \"line_busy\": %llu, "
            "\"fill_conflicts\": %llu, \"store_prefetches\": %llu, \"sw_prefetch_waits\": %llu, "
            "\"sw_prefetch_wait_ns\": %.3f, \"llc_hits\": %llu, \"llc_evictions\": %llu},\n",
            (unsigned long long)r->loads, (unsigned long long)r->stores,
            (unsigned long long)r->misses, (unsigned long long)r->invalidations,
            (unsigned long long)r->poll_refetches, (unsigned long long)r->steals,
            (unsigned long long)r->writebacks, (unsigned long long)r->network_bytes,
            r->home_queue_ns, r->link_queue_ns, (unsigned long long)r->atomics,
            (unsigned long long)r->handoffs, (unsigned long long)r->prefetches,
            (unsigned long long)r->sw_prefetches, (unsigned long long)r->line_busy,
            (unsigned long long)r->fill_conflicts, (unsigned long long)r->store_prefetches,
            (unsigned long long)r->sw_prefetch_waits, r->sw_prefetch_wait_ns,
            (unsigned long long)r->llc_hits, (unsigned long long)r->llc_evictions);
    write_thread_latency(f, r, a->per_iteration);
    if (a->per_iteration) {
        fprintf(f, " \"per_iteration_ns\": ");
        json_numbers(f, r->latency_ns, r->iterations);
        fprintf(f, ",\n");
    }
    char violations[32] = "null"; /* the checker off: nothing was checked, no count */
    if (coherence_checked(m, a))
        snprintf(violations, sizeof violations, "%llu",
                 (unsigned long long)r->coherence_violations);
    fprintf(f,
            " \"checks\": {\"coherence_violations\": %s, \"value_errors\": %llu, "
            "\"deadlock\": %s, \"time_limit\": %s},\n",
            violations, (unsigned long long)r->value_errors, r->deadlock ? "true" : "false",
            r->time_limit ? "true" : "false");
    json_rows(f, ss);
    fprintf(f,
            " \"sim\": {\"events\": %llu, \"wall_s\": %.6f, \"events_per_s\": %.0f, "
            "\"simulated_ns\": %llu}}\n",
            (unsigned long long)r->events, r->wall_s,
            r->wall_s > 0 ? (double)r->events / r->wall_s : 0.0,
            (unsigned long long)r->simulated_ns);
    return cli_json_close(f, path);
}

static void print_links(const struct cli_session *ss)
{
    if (ss->mc->net->ops->print_links) {
        printf("links (a link that carried no message is not listed):\n");
        ss->mc->net->ops->print_links(ss->mc->net, stdout);
    } else
        printf("links: the %s topology has none\n", ss->m.machine.topology);
}

int cli_session_open(const struct cli_run_args *a, struct cli_session *ss)
{
    memset(ss, 0, sizeof *ss);
    sim_diag_init(&ss->d);
    if (!cli_load_machine(a->config, a->sets, a->nsets, &ss->m))
        return SIM_EXIT_INPUT;
    struct wl_parse_opts po = {(int)ss->m.machine.line_bytes, (int)ss->m.machine.cores,
                               (int)ss->m.machine.threads_per_core};
    ss->p = a->gen ? machine_generate(a->gen, (int)a->threads, (long)a->iterations, &ss->m, &ss->d)
                   : wl_parse_file(a->trace, &po, &ss->d);
    if (ss->p)
        ss->mc = machine_build(&ss->m, a->seed, &ss->d);
    if (!ss->mc) {
        cli_session_close(ss);
        return SIM_EXIT_INPUT;
    }
    if (a->check)
        cc_check_enable(ss->mc->cc, false);
    machine_view(ss->mc, &ss->w);
    return 0;
}

void cli_session_close(struct cli_session *ss)
{
    sim_diag_print(&ss->d);
    sim_diag_init(&ss->d);
    machine_free(ss->mc);
    wl_program_free(ss->p);
    ss->mc = NULL;
    ss->p = NULL;
}

/* --trace-out: the writer, attached to o (NULL: none or it failed). */
static struct trace_out *open_trace(const struct cli_run_args *a, struct cli_session *ss,
                                    struct core_run_opts *o, bool *failed)
{
    *failed = false;
    if (!a->trace_out)
        return NULL;
    struct trace_out_opts to = {a->trace_out, a->trace_from, a->trace_to, a->trace_max_bytes,
                                cc_place_count(ss->mc->cc, CC_LINE_MPB) > 0 ? ss->mc->params.homes
                                                                            : 0};
    struct trace_out *t = trace_out_open(&to, ss->p, &ss->w);
    if (t)
        trace_out_attach(t, o);
    *failed = !t;
    return t;
}

/* The progress line (cli/progress.h), redrawn when an iteration opens. */
struct run_progress {
    struct progress p;
    const struct sim_kernel *k;
};

static void on_iteration(void *ctx, uint64_t iteration, const char *loop_var, int64_t loop_value)
{
    struct run_progress *rp = ctx;
    (void)loop_var;
    (void)loop_value;
    progress_update(&rp->p, iteration ? iteration - 1 : 0, sim_now(rp->k) / SIM_PS_PER_NS,
                    sim_events_fired(rp->k));
}

/* --plot: the histogram of the iteration latencies. */
static bool plot_latency(const struct cli_run_args *a, const struct machine_cfg *m,
                         const struct core_result *r)
{
    char sets[700] = "";
    size_t len = 0;
    for (size_t i = 0; i < a->nsets && len < sizeof sets; i++)
        len += (size_t)snprintf(sets + len, sizeof sets - len, " --set %s", a->sets[i]);
    char title[1024];
    snprintf(title, sizeof title, "%s on %s (%s)%s, %d thread%s: %llu iteration%s",
             cli_workload_name(a), m->machine.name, m->machine.protocol, sets, r->threads,
             r->threads == 1 ? "" : "s", (unsigned long long)r->iterations,
             r->iterations == 1 ? "" : "s");
    return plot_histogram(a->plot, title, "iteration latency (ns)", r->latency_ns, r->iterations);
}

/* On the SCC nothing keeps copies coherent: a trace that shares no line
 * through an MPB (or a test-and-set register) and fails its checks most
 * likely expected coherence. Says so once. */
static void hint_noncoherent(const struct cli_session *ss, const struct core_result *r)
{
    if (ss->m.memsys->coherent || (!r->value_errors && !r->deadlock && !r->time_limit))
        return;
    for (int i = 0; i < wl_program_decl_count(ss->p); i++)
        if (wl_program_decl(ss->p, i)->place != WL_PLACE_MEMORY)
            return;
    fprintf(stderr, "ccsim run: note: the scc protocol keeps no copies coherent, and this trace "
                    "puts no line in a message-passing buffer (line NAME mpb=T): a thread sees "
                    "another's store only through memory, if the store went there (a store that "
                    "misses does; a cached copy goes back when evicted or flushed) and its own "
                    "copy is not a stale one (docs/labs/05-scc-mpb, the scc-* generators)\n");
}

/* An output path with its folder resolved (the folder exists: checked). */
static void resolved(const char *dir, const char *name, char *buf, size_t size)
{
    char real[PATH_MAX];
    if (!realpath(dir, real))
        snprintf(real, sizeof real, "%s", dir);
    snprintf(buf, size, "%s/%s", real, name);
}

static void resolved_path(const char *path, char *buf, size_t size)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    cli_path_folder(path, dir, sizeof dir);
    resolved(dir, slash ? slash + 1 : path, buf, size);
}

/* No two outputs in one file (one would overwrite the other): --json,
 * --trace-out, and --plot's FILE.png with its FILE.dat and FILE.gp
 * (plot_files names them). */
static int check_distinct(const struct cli_run_args *a)
{
    enum { N = 5 };
    static const char *const name[N] = {"--json", "--trace-out", "--plot", "--plot's data",
                                        "--plot's script"};
    char path[N][PATH_MAX + 300] = {""};
    struct plot_files pf;
    if (a->json && strcmp(a->json, "-") != 0)
        resolved_path(a->json, path[0], sizeof path[0]);
    if (a->trace_out)
        resolved_path(a->trace_out, path[1], sizeof path[1]);
    if (a->plot && plot_files(a->plot, &pf)) {
        resolved(pf.dir, pf.png, path[2], sizeof path[2]);
        resolved(pf.dir, pf.dat, path[3], sizeof path[3]);
        resolved(pf.dir, pf.gp, path[4], sizeof path[4]);
    }
    const char *given[N] = {a->json, a->trace_out, a->plot}; /* the first of a pair is one */
    for (int i = 0; i < N; i++)
        for (int j = i + 1; j < N; j++)
            if (path[i][0] && strcmp(path[i], path[j]) == 0)
                return cli_usage_error("run",
                                       "%s and %s both write %s: one would overwrite the "
                                       "other",
                                       name[i], name[j], given[i] ? given[i] : path[i]);
    return 0;
}

/* The output files, checked before the run rather than after it; --plot
 * writes PNG only; --json - takes stdout (the summary goes to stderr). */
static int check_outputs(const struct cli_run_args *a)
{
    if (a->json && !cli_check_output("run", "--json", a->json))
        return SIM_EXIT_INPUT;
    if (a->plot) {
        const char *base = strrchr(a->plot, '/') ? strrchr(a->plot, '/') + 1 : a->plot;
        const char *dot = strrchr(base, '.');
        if (!dot || strcmp(dot, ".png") != 0)
            return cli_usage_error("run", "--plot %s: ccsim draws PNG only; name the file .png",
                                   a->plot);
        if (!cli_check_output("run", "--plot", a->plot) || !plot_available())
            return SIM_EXIT_INPUT;
    }
    if (a->trace_out && !cli_check_output("run", "--trace-out", a->trace_out))
        return SIM_EXIT_INPUT;
    int bad = check_distinct(a);
    if (bad)
        return bad;
    if (a->json && strcmp(a->json, "-") == 0 && !cli_json_stdout("run"))
        return SIM_EXIT_INPUT;
    return 0;
}

int cli_run(int argc, char **argv)
{
    struct cli_run_args a = {
        .seed = 1, .trace_to = UINT64_MAX, .trace_max_bytes = 200000000, .max_errors = 10};
    int bad = cli_parse_run_args("run", argc, argv, &a);
    if (bad)
        return bad;
    if ((bad = check_outputs(&a)))
        return bad;
    struct cli_session ss;
    if ((bad = cli_session_open(&a, &ss)))
        return bad;
    struct core_run_opts o = {.watchdog_ps = machine_watchdog_ps(ss.mc, MACHINE_WATCHDOG_PS),
                              .max_time_ps = a.max_time,
                              .max_reports = a.max_errors ? (int)a.max_errors : INT_MAX};
    bool trace_failed;
    struct trace_out *tr = open_trace(&a, &ss, &o, &trace_failed);
    if (trace_failed) {
        cli_session_close(&ss);
        return SIM_EXIT_INPUT;
    }
    struct run_progress rp = {.k = ss.w.k};
    progress_init(&rp.p, "ccsim run", "iterations", a.gen ? a.iterations : 0);
    o.on_iteration = on_iteration;
    o.iteration_ctx = &rp;
    struct core_result r;
    core_run(&ss.w, ss.p, &o, &r, &ss.d);
    progress_end(&rp.p);
    /* a trace that could not be written is told (trace_out) and in the
     * status; the run's summary and other outputs stand */
    bool trace_ok = !tr || trace_out_close(tr, sim_now(ss.w.k));
    int status = SIM_EXIT_INPUT;
    if (!r.input_error) {
        print_summary(&ss.m, &a, ss.p, &r);
        if (a.links)
            print_links(&ss);
        if (a.rows)
            print_rows(&ss);
        hint_noncoherent(&ss, &r);
        bool json_ok = !a.json || write_json(a.json, &ss, &a, &r);
        bool plot_ok = !a.plot || plot_latency(&a, &ss.m, &r);
        /* the simulated program's failure is the status, whatever else
         * failed: a deadlock leaves nothing to plot */
        status = core_result_failed(&r)           ? SIM_EXIT_FAIL
                 : json_ok && plot_ok && trace_ok ? SIM_EXIT_OK
                                                  : SIM_EXIT_INPUT;
    }
    core_result_free(&r);
    cli_session_close(&ss);
    return status;
}
