/*
 * cli_explain.c -- `ccsim explain`: a narrated log of every coherence step of
 * a run, one line a step, readable by a student: when, who (a core's cache or
 * a home), which line (by the trace's own name), what happened (the event),
 * what the row did (its actions) and the state change. The words come from
 * the catalogues' own descriptions, so every protocol narrates itself.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct narrator {
    const struct cli_session *ss;
    struct sim_map names; /* line number -> line index + 1 */
    uint64_t max_lines, printed, skipped;
    int only_decl; /* -1: every line */
    int cores;
    int tiles; /* the SCC: homes are tiles (their MPBs), then memory controllers; else 0 */
};

static void on_place(void *ctx, int64_t index, uint64_t number)
{
    struct narrator *n = ctx;
    sim_map_put(&n->names, number, (void *)(uintptr_t)(index + 1));
}

static void line_label(const struct narrator *n, uint64_t line, char *buf, size_t size)
{
    uintptr_t v = (uintptr_t)sim_map_get(&n->names, line);
    if (v)
        wl_line_name(n->ss->p, (int64_t)v - 1, buf, size);
    else
        snprintf(buf, size, "#%llu", (unsigned long long)line);
}

static bool wanted(const struct narrator *n, uint64_t line)
{
    if (n->only_decl < 0)
        return true;
    uintptr_t v = (uintptr_t)sim_map_get(&n->names, line);
    return v && wl_program_decl_of(n->ss->p, (int64_t)v - 1) == n->only_decl;
}

static void who(const struct narrator *n, int node, bool home, char *buf, size_t size)
{
    if (home && n->tiles && node - n->cores >= n->tiles)
        snprintf(buf, size, "mc %d", node - n->cores - n->tiles);
    else if (home && n->tiles)
        snprintf(buf, size, "tile %d", node - n->cores);
    else if (home)
        snprintf(buf, size, "home %d", node - n->cores);
    else
        snprintf(buf, size, "core %d", node);
}

static void narrate(void *ctx, const struct cc_step *st)
{
    struct narrator *n = ctx;
    if (!wanted(n, st->line))
        return;
    if (n->printed >= n->max_lines) {
        n->skipped++;
        return;
    }
    n->printed++;
    char line[128], node[32], from[32] = "";
    line_label(n, st->line, line, sizeof line);
    who(n, st->node, st->home, node, sizeof node);
    if (st->msg_src >= 0)
        who(n, st->msg_src, st->msg_src >= n->cores, from, sizeof from);
    printf("%12.3f  %-8s %-12s %s", (double)st->time / SIM_PS_PER_NS, node, line, st->event_doc);
    if (from[0] && strcmp(st->event, "Done") != 0)
        printf(" (%s)", from);
    printf("; in %s", st->from);
    if (st->home && st->owner >= 0)
        printf(" (owner core %d)", st->owner);
    if (st->home && st->sharers > 0)
        printf(" (%d sharer%s)", st->sharers, st->sharers > 1 ? "s" : "");
    for (int i = 0; i < 8 && st->actions[i]; i++)
        printf("%s %s", i ? "," : ":", st->action_docs[i]);
    if (strcmp(st->from, st->to) != 0)
        printf(" -> %s", st->to);
    printf("\n");
}

int cli_explain(int argc, char **argv)
{
    struct cli_run_args a = {.seed = 1, .max_lines = 2000};
    int bad = cli_parse_run_args("explain", argc, argv, &a);
    if (bad)
        return bad;
    struct cli_session ss;
    if ((bad = cli_session_open(&a, &ss)))
        return bad;
    struct narrator n = {.ss = &ss,
                         .max_lines = a.max_lines,
                         .only_decl = -1,
                         .cores = ss.w.cores,
                         .tiles =
                             cc_place_count(ss.mc->cc, CC_LINE_MPB) > 0 ? ss.mc->params.homes : 0};
    sim_map_init(&n.names);
    if (a.only_line) {
        n.only_decl = wl_program_decl_find(ss.p, a.only_line);
        if (n.only_decl < 0) {
            cli_session_close(&ss);
            sim_map_destroy(&n.names);
            return cli_usage_error("explain", "--line %s: the trace declares no such line",
                                   a.only_line);
        }
    }
    printf("ccsim explain: %s on %s (%s, %s); times in ns\n", cli_workload_name(&a),
           ss.m.machine.name, ss.m.machine.protocol, ss.m.machine.topology);
    cc_observe(ss.mc->cc, narrate, &n);
    struct core_run_opts o = {.watchdog_ps = 10000000ull * SIM_PS_PER_NS,
                              .max_reports = 10,
                              .on_place = on_place,
                              .place_ctx = &n};
    struct core_result r;
    core_run(&ss.w, ss.p, &o, &r, &ss.d);
    if (n.skipped)
        printf("... %llu more steps (raise --max-lines)\n", (unsigned long long)n.skipped);
    int status = r.input_error                                            ? SIM_EXIT_INPUT
                 : r.deadlock || r.value_errors || r.coherence_violations ? SIM_EXIT_FAIL
                                                                          : SIM_EXIT_OK;
    core_result_free(&r);
    sim_map_destroy(&n.names);
    cli_session_close(&ss);
    return status;
}
