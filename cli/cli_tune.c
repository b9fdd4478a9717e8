/*
 * cli_tune.c -- `ccsim tune -c CONFIG -w GEN -t N [-i K]`: a generator's best
 * parameter on a machine, found by simulating every candidate in-process.
 *
 * Search spaces (one parameter per generator):
 *   barrier-dissemination, barrier-pairwise, barrier-socketroot: m = 1..7
 *   barrier-multim: m = auto and the uniform lists K/K/... (K = 1..7) with
 *                   (K+1)^rounds >= threads
 *   bcast-tree, bcast-multiline, reduce-tree: shape = flat, binary,
 *                   binomial, kary:2..8
 *   m2o-tree, o2m-tree: k = 1..8
 *   m2o, o2m: lines = same, diff
 *   reduce-radix, barrier-radix: radix = 1 (a chain) .. 8, the powers of two
 *                   above, and threads - 1 (flat): seed 003's radix search
 *   barrier-combining: group = 2 .. 8 (at most the threads)
 * Any other generator (reduce-binomial, pingpong, newer ones) has nothing
 * to tune: tune says so and measures the default.
 */
#include "cli.h"
#include "sweep.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tune_args {
    const char *config, *gen, *json;
    uint64_t threads, iterations, seed;
    sim_time_t max_time; /* --max-time (ps; 0: core's default) */
    const char *sets[64];
    size_t nsets;
};

struct candidate {
    char spec[SWEEP_NAME_MAX + 64];
    struct sweep_result r;
};

enum space {
    SPACE_NONE,
    SPACE_M,
    SPACE_MULTIM,
    SPACE_SHAPE,
    SPACE_K,
    SPACE_LINES,
    SPACE_RADIX,
    SPACE_GROUP
};

/* The parameter each space varies. */
static const char *const space_param[] = {
    [SPACE_NONE] = NULL, [SPACE_M] = "m",         [SPACE_MULTIM] = "m",    [SPACE_SHAPE] = "shape",
    [SPACE_K] = "k",     [SPACE_LINES] = "lines", [SPACE_RADIX] = "radix", [SPACE_GROUP] = "group"};

static const struct {
    const char *gen;
    enum space space;
} spaces[] = {
    {"barrier-dissemination", SPACE_M},
    {"barrier-pairwise", SPACE_M},
    {"barrier-socketroot", SPACE_M},
    {"barrier-multim", SPACE_MULTIM},
    {"bcast-tree", SPACE_SHAPE},
    {"bcast-multiline", SPACE_SHAPE},
    {"reduce-tree", SPACE_SHAPE},
    {"m2o-tree", SPACE_K},
    {"o2m-tree", SPACE_K},
    {"m2o", SPACE_LINES},
    {"o2m", SPACE_LINES},
    {"reduce-radix", SPACE_RADIX},
    {"barrier-radix", SPACE_RADIX},
    {"barrier-combining", SPACE_GROUP},
};

static int parse_tune_args(int argc, char **argv, struct tune_args *a)
{
    static const struct option longs[] = {{"config", required_argument, NULL, 'c'},
                                          {"workload", required_argument, NULL, 'w'},
                                          {"threads", required_argument, NULL, 't'},
                                          {"iterations", required_argument, NULL, 'i'},
                                          {"seed", required_argument, NULL, 'S'},
                                          {"set", required_argument, NULL, 's'},
                                          {"json", required_argument, NULL, 'J'},
                                          {"max-time", required_argument, NULL, 'X'},
                                          {0}};
    int c, bad = 0;
    optind = 1;
    while ((c = cli_next_opt("tune", argc, argv, ":c:w:t:i:s:", longs, &bad)) != -1) {
        if (bad)
            return bad;
        bool ok = true;
        if (c == 'c')
            a->config = optarg;
        else if (c == 'w')
            a->gen = optarg;
        else if (c == 'J')
            a->json = optarg;
        else if (c == 't')
            ok = cli_parse_u64("tune", "-t", optarg, 1, 4096, &a->threads);
        else if (c == 'i')
            ok = cli_parse_u64("tune", "-i", optarg, 1, 1000000000, &a->iterations);
        else if (c == 'S')
            ok = cli_parse_u64("tune", "--seed", optarg, 0, UINT64_MAX, &a->seed);
        else if (c == 'X')
            ok = cli_parse_max_time("tune", optarg, &a->max_time);
        else if (c == 's' && a->nsets == SIM_COUNT_OF(a->sets))
            return cli_usage_error("tune", "too many --set (at most 64)");
        else if (c == 's')
            a->sets[a->nsets++] = optarg;
        if (!ok)
            return SIM_EXIT_INPUT;
    }
    if (optind < argc)
        return cli_usage_error("tune", "unexpected argument '%s'", argv[optind]);
    if (!a->config || !a->gen || !a->threads)
        return cli_usage_error("tune", "-c CONFIG, -w GENERATOR and -t THREADS are required");
    return 0;
}

static enum space space_of(const char *gen)
{
    size_t len = strcspn(gen, ":");
    for (size_t i = 0; i < SIM_COUNT_OF(spaces); i++)
        if (strlen(spaces[i].gen) == len && strncmp(spaces[i].gen, gen, len) == 0)
            return spaces[i].space;
    return SPACE_NONE;
}

static void add(struct candidate **c, size_t *n, const char *gen, const char *param)
{
    *c = sim_xrealloc(*c, (*n + 1) * sizeof **c);
    memset(&(*c)[*n], 0, sizeof **c);
    snprintf((*c)[*n].spec, sizeof(*c)[*n].spec, "%s%s%s", gen, strchr(gen, ':') ? "," : ":",
             param);
    (*n)++;
}

/* m = K/K/...: enough rounds of K for the thread count. */
static void multim_list(char *buf, size_t size, int k, int threads)
{
    size_t len = (size_t)snprintf(buf, size, "m=%d", k);
    for (long reach = k + 1; reach < threads && len < size; reach *= k + 1)
        len += (size_t)snprintf(buf + len, size - len, "/%d", k);
}

/* Whether -w fixes the parameter tune would vary (bcast-tree:shape=binary). */
static bool param_fixed(const char *gen)
{
    const char *p = space_param[space_of(gen)];
    const char *args = strchr(gen, ':');
    size_t len = p ? strlen(p) : 0;
    for (const char *a = args; p && a; a = strchr(a + 1, ','))
        if (strncmp(a + 1, p, len) == 0 && a[1 + len] == '=')
            return true;
    return false;
}

/* radix = 1 (a chain) .. 8, then the powers of two, then threads - 1 (the
 * flat tree: any larger radix is the same tree), each once. */
static void radix_candidates(struct candidate **c, size_t *n, const char *gen, int threads)
{
    char p[32];
    int flat = threads > 1 ? threads - 1 : 1;
    for (int r = 1; r < flat; r = r < 8 ? r + 1 : 2 * r) {
        snprintf(p, sizeof p, "radix=%d", r);
        add(c, n, gen, p);
    }
    snprintf(p, sizeof p, "radix=%d", flat);
    add(c, n, gen, p);
}

static size_t candidates(const char *gen, int threads, struct candidate **c)
{
    static const char *const shapes[] = {"flat", "binary", "binomial"};
    size_t n = 0;
    char p[128];
    if (param_fixed(gen))
        return 0;
    switch (space_of(gen)) {
    case SPACE_NONE:
        break;
    case SPACE_M:
    case SPACE_MULTIM:
        if (space_of(gen) == SPACE_MULTIM)
            add(c, &n, gen, "m=auto");
        for (int m = 1; m <= 7; m++) {
            if (space_of(gen) == SPACE_MULTIM)
                multim_list(p, sizeof p, m, threads);
            else
                snprintf(p, sizeof p, "m=%d", m);
            add(c, &n, gen, p);
        }
        break;
    case SPACE_SHAPE:
        for (size_t i = 0; i < SIM_COUNT_OF(shapes); i++) {
            snprintf(p, sizeof p, "shape=%s", shapes[i]);
            add(c, &n, gen, p);
        }
        for (int k = 2; k <= 8; k++) {
            snprintf(p, sizeof p, "shape=kary:%d", k);
            add(c, &n, gen, p);
        }
        break;
    case SPACE_K:
        for (int k = 1; k <= 8; k++) {
            snprintf(p, sizeof p, "k=%d", k);
            add(c, &n, gen, p);
        }
        break;
    case SPACE_LINES:
        add(c, &n, gen, "lines=same");
        add(c, &n, gen, "lines=diff");
        break;
    case SPACE_RADIX:
        radix_candidates(c, &n, gen, threads);
        break;
    case SPACE_GROUP:
        for (int g = 2; g <= 8 && g <= (threads > 2 ? threads : 2); g++) {
            snprintf(p, sizeof p, "group=%d", g);
            add(c, &n, gen, p);
        }
        break;
    }
    return n;
}

/* Runs one candidate; prints its line. */
static void measure(const struct machine_cfg *m, const struct tune_args *a, struct candidate *c)
{
    struct sim_diag d;
    sim_diag_init(&d);
    sweep_run_spec(m, c->spec, (int)a->threads, (long)a->iterations, a->seed, a->max_time, &c->r,
                   &d);
    if (c->r.status == SWEEP_SKIPPED) {
        printf("  %-40s refused: %s", c->spec, d.text);
        return;
    }
    sim_diag_print(&d);
    if (c->r.status == SWEEP_INPUT)
        printf("  %-40s its input is wrong (the messages above)\n", c->spec);
    else if (c->r.status == SWEEP_FAILED && c->r.deadlock)
        printf("  %-40s FAILED: deadlock\n", c->spec);
    else if (c->r.status == SWEEP_FAILED && c->r.time_limit)
        printf("  %-40s FAILED: not finished at its simulated-time limit\n", c->spec);
    else if (c->r.status == SWEEP_FAILED) /* tune runs no coherence checker */
        printf("  %-40s FAILED a check (value errors %llu)\n", c->spec,
               (unsigned long long)c->r.value_errors);
    else
        printf("  %-40s median %10.1f ns\n", c->spec, c->r.latency.median);
}

/* What became of a candidate that has no median, as its line above said. */
static const char *no_median(const struct candidate *c)
{
    switch (c->r.status) {
    case SWEEP_SKIPPED:
        return "(refused: see above)";
    case SWEEP_INPUT:
        return "(its input is wrong: see above)";
    default:
        return "(ran, and failed a check: see above)";
    }
}

static void report(const char *what, const struct candidate *c)
{
    if (c && c->r.status == SWEEP_OK)
        printf("%-8s %-40s median %10.1f ns\n", what, c->spec, c->r.latency.median);
    else if (c)
        printf("%-8s %-40s %s\n", what, c->spec, no_median(c));
}

/* Whether candidate i ran and has pick's median (pick itself included). */
static bool ties(const struct candidate *c, size_t i, const struct candidate *pick)
{
    return c[i].r.status == SWEEP_OK && c[i].r.latency.median == pick->r.latency.median;
}

static size_t tie_count(const struct candidate *c, size_t n, const struct candidate *pick)
{
    size_t k = 0;
    for (size_t i = 0; pick && i < n; i++)
        k += ties(c, i, pick);
    return k;
}

/* best: or worst:, and the candidates that tie with it, named (a tie is no
 * single best: "best" said one setting won where several had its median). */
static void report_pick(const char *what, const struct candidate *c, size_t n,
                        const struct candidate *pick)
{
    report(what, pick);
    size_t k = tie_count(c, n, pick), named = 0;
    if (k < 2)
        return;
    printf("         a tie: %zu candidates have that median (", k);
    for (size_t i = 0; i < n; i++)
        if (&c[i] != pick && ties(c, i, pick) && named++ < 3)
            printf("%s%s", named > 1 ? ", " : "also ", c[i].spec);
    if (named > 3)
        printf(" and %zu more", named - 3);
    printf(")\n");
}

static const char *status_name(const struct candidate *c)
{
    return c->r.status == SWEEP_OK ? "ok" : c->r.status == SWEEP_SKIPPED ? "refused" : "failed";
}

static void json_candidate(FILE *f, const struct candidate *c)
{
    if (!c) {
        fprintf(f, "null");
        return;
    }
    fprintf(f, "{\"workload\": ");
    cli_json_string(f, c->spec);
    fprintf(f, ", \"status\": \"%s\"", status_name(c));
    if (c->r.status == SWEEP_OK)
        fprintf(f, ", \"median_ns\": %.3f, \"min_ns\": %.3f, \"max_ns\": %.3f}",
                c->r.latency.median, c->r.latency.min, c->r.latency.max);
    else
        fprintf(f, ", \"median_ns\": null, \"min_ns\": null, \"max_ns\": null}");
}

/* The candidates other than pick with its median, as a JSON list of specs. */
static void json_ties(FILE *f, const struct candidate *c, size_t n, const struct candidate *pick)
{
    fprintf(f, "[");
    for (size_t i = 0, k = 0; pick && i < n; i++)
        if (&c[i] != pick && ties(c, i, pick)) {
            fprintf(f, "%s", k++ ? ", " : "");
            cli_json_string(f, c[i].spec);
        }
    fprintf(f, "]");
}

/* --json: every candidate, the best, the worst (each with its ties) and the
 * default. */
static bool write_json(const struct tune_args *a, const struct machine_cfg *m,
                       const struct candidate *c, size_t n, const struct candidate *best,
                       const struct candidate *worst, const struct candidate *def)
{
    FILE *f = cli_json_open(a->json);
    if (!f)
        return false;
    fprintf(f, "{");
    cli_json_config(f, m->path, a->sets, a->nsets);
    fprintf(f, ", \"generator\": ");
    cli_json_string(f, a->gen);
    fprintf(f, ", \"threads\": %llu, \"iterations\": %llu, \"seed\": %llu,\n \"candidates\": [",
            (unsigned long long)a->threads, (unsigned long long)a->iterations,
            (unsigned long long)a->seed);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s\n  ", i ? "," : "");
        json_candidate(f, &c[i]);
    }
    fprintf(f, "],\n \"best\": ");
    json_candidate(f, best);
    fprintf(f, ", \"best_ties\": ");
    json_ties(f, c, n, best);
    fprintf(f, ",\n \"worst\": ");
    json_candidate(f, worst);
    fprintf(f, ", \"worst_ties\": ");
    json_ties(f, c, n, worst);
    fprintf(f, ",\n \"default\": ");
    json_candidate(f, def);
    fprintf(f, "}\n");
    return cli_json_close(f, a->json);
}

/* Measures every candidate and the default; prints best, worst, default. */
static int tune(const struct machine_cfg *m, const struct tune_args *a, struct candidate *c,
                size_t n)
{
    struct candidate def = {0};
    snprintf(def.spec, sizeof def.spec, "%s", a->gen);
    const struct candidate *best = NULL, *worst = NULL;
    bool failed = false, input = false;
    for (size_t i = 0; i < n; i++) {
        measure(m, a, &c[i]);
        failed |= c[i].r.status == SWEEP_FAILED;
        input |= c[i].r.status == SWEEP_INPUT;
        if (c[i].r.status != SWEEP_OK)
            continue;
        if (!best || c[i].r.latency.median < best->r.latency.median)
            best = &c[i];
        if (!worst || c[i].r.latency.median > worst->r.latency.median)
            worst = &c[i];
    }
    measure(m, a, &def);
    failed |= def.r.status == SWEEP_FAILED;
    input |= def.r.status == SWEEP_INPUT;
    if (!n && param_fixed(a->gen))
        printf("%s is fixed by -w %s: nothing to tune (measured as given)\n",
               space_param[space_of(a->gen)], a->gen);
    else if (!n)
        printf("%s has nothing to tune\n", a->gen);
    else if (!best)
        printf("no candidate ran: every one was refused or failed (see above)\n");
    if (best && best->r.latency.median == worst->r.latency.median && tie_count(c, n, best) > 1)
        printf("every candidate that ran has the same median, %.1f ns: none is best\n",
               best->r.latency.median);
    else {
        report_pick("best:", c, n, best);
        report_pick("worst:", c, n, worst);
    }
    report(param_fixed(a->gen) ? "given:" : "default:", &def); /* -w fixed it: not the default */
    if (a->json && !write_json(a, m, c, n, best, worst, &def))
        return SIM_EXIT_INPUT;
    return input ? SIM_EXIT_INPUT : failed ? SIM_EXIT_FAIL : SIM_EXIT_OK;
}

int cli_tune(int argc, char **argv)
{
    struct tune_args a = {.iterations = 100, .seed = 1};
    int bad = parse_tune_args(argc, argv, &a);
    if (bad)
        return bad;
    if (strlen(a.gen) >= SWEEP_NAME_MAX)
        return cli_usage_error("tune", "-w '%.40s...' is too long", a.gen);
    if (a.json && !cli_check_output("tune", "--json", a.json))
        return SIM_EXIT_INPUT;
    if (a.json && strcmp(a.json, "-") == 0 && !cli_json_stdout("tune"))
        return SIM_EXIT_INPUT;
    struct machine_cfg m;
    if (!cli_load_machine(a.config, a.sets, a.nsets, &m))
        return SIM_EXIT_INPUT;
    struct sim_diag d;
    sim_diag_init(&d);
    if (!sweep_accepts(&m, a.gen, (int)a.threads, (long)a.iterations, &d)) {
        fputs("ccsim tune: ", stderr); /* the message names -w, not a file */
        sim_diag_print(&d);
        return SIM_EXIT_INPUT;
    }
    struct candidate *c = NULL;
    size_t n = candidates(a.gen, (int)a.threads, &c);
    printf("ccsim tune: %s on %s, %llu thread%s, %llu iteration%s, seed %llu: %zu candidate%s, "
           "then %s %s\n",
           a.gen, m.machine.name, (unsigned long long)a.threads, a.threads == 1 ? "" : "s",
           (unsigned long long)a.iterations, a.iterations == 1 ? "" : "s",
           (unsigned long long)a.seed, n, n == 1 ? "" : "s", a.gen,
           param_fixed(a.gen) ? "as given" : "as the default"); /* tune()'s last row */
    int status = tune(&m, &a, c, n);
    free(c);
    return status;
}
