/*
 * cli_cmds.c -- the subcommands that inspect configs and measure the engine.
 */
#include "cli.h"
#include "machine.h"

#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* "unknown option '--chek' (did you mean '--check'?)" for a long option
 * near one of the subcommand's. */
static int unknown_option(const char *sub, const char *what, const struct option *longs)
{
    const char *names[64];
    char spelt[64][40], hint[128] = "";
    size_t n = 0;
    for (; longs && longs[n].name && n < SIM_COUNT_OF(names); n++) {
        snprintf(spelt[n], sizeof spelt[n], "--%s", longs[n].name);
        names[n] = spelt[n];
    }
    size_t len = strcspn(what, "=");
    if (strncmp(what, "--", 2) == 0)
        sim_suggest(hint, sizeof hint, what, len, names, n, NULL);
    return cli_usage_error(sub, "unknown option '%s'%s", what, hint);
}

/* Whether option c of the subcommand takes a value. */
static bool takes_value(int c, const char *shorts, const struct option *longs)
{
    const char *at = c > 0 && c < 256 && c != ':' ? strchr(shorts, c) : NULL;
    if (at)
        return at[1] == ':';
    for (; longs && longs->name; longs++)
        if (longs->val == c)
            return longs->has_arg == required_argument;
    return false;
}

/* Whether option c may be given more than once: --set, and validate's
 * -w (one generator a -w). */
static bool repeatable(const char *sub, int c)
{
    return c == 's' || (c == 'w' && strcmp(sub, "validate") == 0);
}

/* Option c's name as the user may have written it: --NAME, else -C. */
static void option_name(int c, const struct option *longs, char *buf, size_t size)
{
    for (; longs && longs->name; longs++)
        if (longs->val == c) {
            snprintf(buf, size, "--%s", longs->name);
            return;
        }
    snprintf(buf, size, "-%c", c);
}

/* An option that takes one value, given again: refused, not the last one
 * silently kept (--json a --json b never wrote a). `seen` is reset for
 * every new argument vector. */
static int given_twice(const char *sub, char **argv, int c, const char *shorts,
                       const struct option *longs)
{
    static char **args;
    static bool seen[1024];
    if (argv != args) {
        args = argv;
        memset(seen, 0, sizeof seen);
    }
    if (c < 0 || c >= (int)SIM_COUNT_OF(seen) || !takes_value(c, shorts, longs) ||
        repeatable(sub, c))
        return 0;
    if (!seen[c]) {
        seen[c] = true;
        return 0;
    }
    char name[64];
    option_name(c, longs, name, sizeof name);
    return cli_usage_error(sub, "%s is given twice (it takes one value)", name);
}

int cli_next_opt(const char *sub, int argc, char **argv, const char *shorts,
                 const struct option *longs, int *bad)
{
    opterr = 0;
    int c = getopt_long(argc, argv, shorts, longs, NULL);
    if (c == '?' || c == ':') {
        const char *what = argv[optind - 1];
        if (c == ':' || (optopt && strchr(shorts, optopt)))
            *bad = cli_usage_error(sub, "option '%s' needs a value", what);
        else
            *bad = unknown_option(sub, what, longs);
    } else if (c != -1 && !*bad) {
        *bad = given_twice(sub, argv, c, shorts, longs);
    }
    return c;
}

/* ------------------------------------------------------------- list */

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_configs(void)
{
    const char *dir = machine_config_dir();
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "ccsim list: cannot open the configs folder %s\n", dir);
        return SIM_EXIT_INPUT;
    }
    char *names[512];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < SIM_COUNT_OF(names)) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".cfg") == 0)
            names[n++] = sim_xstrdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof names[0], name_cmp);
    printf("configs in %s:\n", dir);
    int status = SIM_EXIT_OK;
    for (size_t i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct machine_cfg m;
        struct sim_diag diag;
        sim_diag_init(&diag);
        if (machine_load(&m, path, NULL, 0, &diag))
            printf("  %-22s %-9s %-7s %4lld cores  %s\n", names[i], m.machine.protocol,
                   m.machine.topology, (long long)m.machine.cores, m.machine.description);
        else {
            printf("  %-22s (does not load: see below)\n", names[i]);
            sim_diag_print(&diag);
            status = SIM_EXIT_INPUT;
        }
        free(names[i]);
    }
    return status;
}

static int list_protocols(void)
{
    for (const char *const *n = machine_memsys_names; *n; n++)
        printf("  %-9s %s\n", *n, machine_memsys_summary(machine_memsys_find(*n)));
    return SIM_EXIT_OK;
}

int cli_list(int argc, char **argv)
{
    if (argc > 2)
        return cli_usage_error("list",
                               "unexpected argument '%s' (one of configs, protocols, "
                               "generators)",
                               argv[2]);
    if (argc != 2)
        return cli_usage_error("list", "say what to list: configs, protocols or generators");
    if (strcmp(argv[1], "configs") == 0)
        return list_configs();
    if (strcmp(argv[1], "protocols") == 0)
        return list_protocols();
    if (strcmp(argv[1], "generators") == 0) {
        gen_list(stdout);
        return SIM_EXIT_OK;
    }
    return cli_usage_error("list", "cannot list '%s' (known: configs, protocols, generators)",
                           argv[1]);
}

/* The memory systems' names, comma separated (for messages). */
static const char *memsys_list(void)
{
    static char buf[256];
    buf[0] = '\0';
    for (const char *const *n = machine_memsys_names; *n; n++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s",
                 n == machine_memsys_names ? "" : ", ", *n);
    return buf;
}

/* --caches, --lines, --values, --retry, --queue, shared by protocol --murphi and verify. */
bool cli_murphi_opt(const char *sub, int c, const char *arg, struct cc_murphi_opts *o)
{
    uint64_t v;
    if (c == 'R')
        o->retry = true;
    else if (c == 'C' && cli_parse_u64(sub, "--caches", arg, 2, 8, &v))
        o->caches = (int)v;
    else if (c == 'L' && cli_parse_u64(sub, "--lines", arg, 1, 4, &v))
        o->lines = (int)v;
    else if (c == 'V' && cli_parse_u64(sub, "--values", arg, 2, 16, &v))
        o->values = (int)v;
    else if (c == 'Q' && cli_parse_u64(sub, "--queue", arg, 2, 64, &v))
        o->queue = (int)v;
    else
        return false;
    return true;
}

/* The table protocol NAME, or NULL with a usage error printed. */
const struct cc_protocol *cli_table_protocol(const char *sub, const char *name)
{
    const struct machine_memsys *ms = machine_memsys_find(name);
    if (!ms) {
        cli_usage_error(sub, "no protocol '%s' (known: %s)", name, memsys_list());
        return NULL;
    }
    if (!ms->coherent) {
        cli_usage_error(sub, "%s is no table protocol: it has no Murphi model", name);
        return NULL;
    }
    const struct cc_protocol *p = cc_protocol_find(name);
    char overlap[160];
    if (!cc_protocol_rows_disjoint(p, overlap, sizeof overlap)) {
        /* the runtime refuses such a table: a model of it would check a
         * protocol nobody runs */
        fprintf(stderr, "ccsim %s: protocol %s: two rows for one (state, event): %s\n", sub, name,
                overlap);
        return NULL;
    }
    return p;
}

int cli_protocol(int argc, char **argv)
{
    static const struct option longs[] = {{"murphi", no_argument, NULL, 'M'},
                                          {"caches", required_argument, NULL, 'C'},
                                          {"lines", required_argument, NULL, 'L'},
                                          {"values", required_argument, NULL, 'V'},
                                          {"queue", required_argument, NULL, 'Q'},
                                          {"retry", no_argument, NULL, 'R'},
                                          {0}};
    struct cc_murphi_opts mo = {.caches = 3, .lines = 1, .values = 2};
    bool murphi = false, sized = false;
    int c, bad = 0;
    optind = 1;
    while ((c = cli_next_opt("protocol", argc, argv, ":", longs, &bad)) != -1) {
        if (bad)
            return bad;
        if (c == 'M')
            murphi = true;
        else if (!cli_murphi_opt("protocol", c, optarg, &mo))
            return SIM_EXIT_INPUT;
        else
            sized = true;
    }
    if (optind + 1 < argc)
        return cli_usage_error("protocol", "unexpected argument '%s' (name one protocol)",
                               argv[optind + 1]);
    if (optind + 1 != argc)
        return cli_usage_error("protocol", "name one protocol (%s)", memsys_list());
    if (sized && !murphi)
        return cli_usage_error("protocol",
                               "--caches, --lines, --values, --retry and --queue shape the "
                               "--murphi model");
    const char *name = argv[optind];
    if (murphi) {
        const struct cc_protocol *p = cli_table_protocol("protocol", name);
        if (!p)
            return SIM_EXIT_INPUT;
        cc_protocol_murphi(p, &mo, stdout);
        return SIM_EXIT_OK;
    }
    const struct machine_memsys *ms = machine_memsys_find(name);
    if (!ms)
        return cli_usage_error("protocol", "no protocol '%s' (known: %s)", name, memsys_list());
    machine_memsys_print(ms, stdout);
    return SIM_EXIT_OK;
}

/* ------------------------------------------------------------- config */

/* The shipped configs' names (without .cfg), sorted; the caller frees. */
static size_t shipped_names(char **names, size_t max)
{
    DIR *d = opendir(machine_config_dir());
    size_t n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) && n < max) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".cfg") == 0) {
            names[n] = sim_xstrdup(e->d_name);
            names[n++][len - 4] = '\0';
        }
    }
    if (d)
        closedir(d);
    qsort(names, n, sizeof names[0], name_cmp);
    return n;
}

/* Resolves -c: a path or a shipped name. Prints the error itself: a
 * folder says so, a near miss of a shipped name is suggested. */
static bool find_config(const char *sub, const char *name, char *path, size_t size)
{
    (void)sub;
    if (machine_config_find(name, path, size))
        return true;
    struct stat st;
    if (stat(name, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr,
                "%s: is a directory, not a config file (give a .cfg file, or a shipped name: "
                "ccsim list configs)\n",
                name);
        return false;
    }
    char hint[1024];
    cli_config_hint(name, "shipped:", hint, sizeof hint);
    fprintf(stderr, "%s: no such config file (nor a shipped config of that name in %s)%s\n", name,
            machine_config_dir(), hint);
    return false;
}

void cli_config_hint(const char *name, const char *lead, char *hint, size_t size)
{
    char *names[512];
    size_t n = shipped_names(names, SIM_COUNT_OF(names));
    hint[0] = '\0';
    sim_suggest(hint, size, name, strlen(name), (const char *const *)names, n, lead);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
}

void cli_note_unused_sets(struct machine_cfg *m, const char *const *sets, size_t nsets)
{
    static bool said; /* a subcommand that loads its machine again (validate: a point
                         each) says it once */
    if (said)
        return;
    said = true;
    machine_note_unused_sets(m, sets, nsets, "ccsim: note: ");
}

bool cli_load_machine(const char *config, const char *const *sets, size_t nsets,
                      struct machine_cfg *m)
{
    char path[1024];
    if (!find_config("", config, path, sizeof path))
        return false;
    struct sim_diag d;
    sim_diag_init(&d);
    if (!machine_load(m, path, sets, nsets, &d)) {
        sim_diag_print(&d);
        return false;
    }
    cli_note_unused_sets(m, sets, nsets);
    return true;
}

int cli_config(int argc, char **argv)
{
    static const struct option longs[] = {
        {"config", required_argument, NULL, 'c'}, {"set", required_argument, NULL, 's'}, {0}};
    const char *config = NULL;
    const char *sets[64];
    size_t nsets = 0;
    int c, bad = 0;
    optind = 1;
    while ((c = cli_next_opt("config", argc, argv, ":c:s:", longs, &bad)) != -1) {
        if (bad)
            return bad;
        if (c == 'c')
            config = optarg;
        else if (c == 's') {
            if (nsets == SIM_COUNT_OF(sets))
                return cli_usage_error("config", "too many --set (at most 64)");
            sets[nsets++] = optarg;
        }
    }
    if (optind < argc)
        return cli_usage_error("config", "unexpected argument '%s'", argv[optind]);
    if (!config)
        return cli_usage_error("config", "-c CONFIG is required");
    char path[1024];
    if (!find_config("config", config, path, sizeof path))
        return SIM_EXIT_INPUT;
    struct machine_cfg m;
    struct sim_diag d;
    sim_diag_init(&d);
    if (!machine_load(&m, path, sets, nsets, &d)) {
        sim_diag_print(&d);
        return SIM_EXIT_INPUT;
    }
    machine_print(&m);
    return SIM_EXIT_OK;
}

/* ------------------------------------------------------------- bench */

struct hold {
    struct sim_rng rng;
    sim_time_t cycle;
};

static void hold_fire(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct hold *h = obj;
    (void)arg;
    sim_schedule(k, (1 + sim_rng_below(&h->rng, 100)) * h->cycle, hold_fire, h, 0);
}

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int bench_engine(uint64_t pending, uint64_t events, uint64_t seed)
{
    struct sim_kernel *k = sim_kernel_new();
    struct hold h = {.cycle = 1000};
    sim_rng_init(&h.rng, seed, 0);
    for (uint64_t i = 0; i < pending; i++)
        sim_schedule(k, (1 + sim_rng_below(&h.rng, 100)) * h.cycle, hold_fire, &h, 0);
    /* warm up: every pending event fires once, the free lists reach steady state */
    while (sim_events_fired(k) < pending)
        sim_run(k, sim_now(k) + 100 * h.cycle);
    uint64_t start_fired = sim_events_fired(k);
    sim_time_t start_ps = sim_now(k); /* the figures are of the timed part only */
    double t0 = wall_seconds();
    while (sim_events_fired(k) - start_fired < events)
        sim_run(k, sim_now(k) + 1000 * h.cycle);
    double wall = wall_seconds() - t0;
    uint64_t fired = sim_events_fired(k) - start_fired;
    SIM_ASSERT(sim_events_pending(k) == pending);
    printf("bench engine: hold model, %llu pending, delays 1-100 cycles of 1 ns\n",
           (unsigned long long)pending);
    printf("events=%llu\n", (unsigned long long)fired);
    printf("wall_s=%.3f\n", wall);
    printf("simulated_ns=%llu\n", (unsigned long long)((sim_now(k) - start_ps) / SIM_PS_PER_NS));
    printf("kernel_memory_kb=%zu\n", sim_events_memory(k) / 1024); /* KiB, as the help says */
    printf("events_per_s=%.0f\n", (double)fired / wall);
    sim_kernel_free(k);
    return SIM_EXIT_OK;
}

int cli_bench(int argc, char **argv)
{
    static const struct option longs[] = {{"pending", required_argument, NULL, 'p'},
                                          {"events", required_argument, NULL, 'e'},
                                          {"seed", required_argument, NULL, 'S'},
                                          {0}};
    uint64_t pending = 65536, events = 20000000, seed = 1;
    if (argc < 2)
        return cli_usage_error("bench", "say what to measure: engine or workloads");
    if (strcmp(argv[1], "workloads") == 0)
        return cli_bench_workloads(argc - 1, argv + 1);
    if (strcmp(argv[1], "engine") != 0)
        return cli_usage_error("bench", "cannot measure '%s' (known: engine, workloads)", argv[1]);
    int c, bad = 0;
    optind = 2;
    while ((c = cli_next_opt("bench", argc, argv, ":", longs, &bad)) != -1) {
        if (bad)
            return bad;
        bool ok = true;
        if (c == 'p')
            ok = cli_parse_u64("bench", "--pending", optarg, 1, 100000000, &pending);
        else if (c == 'e')
            ok = cli_parse_u64("bench", "--events", optarg, 1, 1000000000000ull, &events);
        else if (c == 'S')
            ok = cli_parse_u64("bench", "--seed", optarg, 0, UINT64_MAX, &seed);
        if (!ok)
            return SIM_EXIT_INPUT;
    }
    if (optind < argc)
        return cli_usage_error("bench", "unexpected argument '%s'", argv[optind]);
    return bench_engine(pending, events, seed);
}
