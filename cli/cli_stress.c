/*
 * cli_stress.c -- `ccsim stress`: the random tester from the command line.
 */
#include "cli.h"
#include "stress.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* What the command line asks for. */
struct stress_args {
    struct stress_opts o;
    const char *config, *sets[64];
    size_t nsets;
    bool keep;          /* --keep-caches */
    bool coherent_only; /* --jitter-ns or --mlp given */
};

/* One option into a; 0, or the exit status of a bad value. */
static int stress_opt(int c, struct stress_args *a)
{
    uint64_t v;
    switch (c) {
    case 'c':
        a->config = optarg;
        return 0;
    case 's':
        if (a->nsets == SIM_COUNT_OF(a->sets))
            return cli_usage_error("stress", "too many --set (at most 64)");
        a->sets[a->nsets++] = optarg;
        return 0;
    case 'n':
        return cli_parse_u64("stress", "--ops", optarg, 1, 1000000000000ull, &a->o.ops)
                   ? 0
                   : SIM_EXIT_INPUT;
    case 'S':
        return cli_parse_u64("stress", "--seed", optarg, 0, UINT64_MAX, &a->o.seed)
                   ? 0
                   : SIM_EXIT_INPUT;
    case 'l':
        if (!cli_parse_u64("stress", "--lines", optarg, 1, 4096, &v))
            return SIM_EXIT_INPUT;
        a->o.lines = (unsigned)v;
        return 0;
    case 'j':
        if (!cli_parse_u64("stress", "--jitter-ns", optarg, 0, 1000000, &v))
            return SIM_EXIT_INPUT;
        a->o.jitter_ps = v * SIM_PS_PER_NS;
        a->coherent_only = true;
        return 0;
    case 'k':
        a->keep = true;
        return 0;
    case 'm':
        if (!cli_parse_u64("stress", "--mlp", optarg, 1, 16, &v))
            return SIM_EXIT_INPUT;
        a->o.mlp = (unsigned)v;
        a->coherent_only = true;
        return 0;
    }
    return 0;
}

static int stress_parse(int argc, char **argv, struct stress_args *a)
{
    static const struct option longs[] = {{"config", required_argument, NULL, 'c'},
                                          {"set", required_argument, NULL, 's'},
                                          {"ops", required_argument, NULL, 'n'},
                                          {"seed", required_argument, NULL, 'S'},
                                          {"lines", required_argument, NULL, 'l'},
                                          {"jitter-ns", required_argument, NULL, 'j'},
                                          {"keep-caches", no_argument, NULL, 'k'},
                                          {"mlp", required_argument, NULL, 'm'},
                                          {0}};
    int c, bad = 0, status = 0;
    optind = 1;
    while ((c = cli_next_opt("stress", argc, argv, ":c:s:", longs, &bad)) != -1)
        if (bad || (status = stress_opt(c, a)) != 0)
            return bad ? bad : status;
    if (optind < argc)
        return cli_usage_error("stress", "unexpected argument '%s'", argv[optind]);
    if (!a->config)
        return cli_usage_error("stress", "-c CONFIG is required");
    return 0;
}

/* The tester's machine: the config's, with a 2-set, 2-way coherent cache
 * unless --keep-caches (small caches evict often: more races). */
static struct machine *stress_machine(const struct stress_args *a, struct machine_cfg *m,
                                      struct cc_params *p)
{
    struct sim_diag d;
    sim_diag_init(&d);
    if (!machine_params(m, p, &d)) {
        sim_diag_print(&d);
        return NULL;
    }
    if (!a->keep) {
        p->sets = 2;
        p->ways = 2;
        p->l1_sets = p->l1_ways = 0;
    }
    struct machine *mc = machine_build_with(m, p, a->o.seed, &d);
    if (!mc)
        sim_diag_print(&d);
    return mc;
}

/* Without --lines: 8 lines, or one a core on a coherent machine of more
 * cores (60 cores on 8 lines keep every line busy at its home, and the
 * eviction rows never run). */
static unsigned default_lines(const struct machine_cfg *m)
{
    int64_t cores = m->machine.cores;
    if (!m->memsys->coherent || cores <= 8)
        return 8;
    return cores < 4096 ? (unsigned)cores : 4096;
}

/* "rows run: cache 35 of 42 (not 10 18 ...), home 36 of 36" */
static void print_coverage(const struct cc_coverage *c)
{
    static const char *const side[] = {"cache", "home"};
    printf("rows run:");
    for (int i = 0; i < 2; i++) {
        printf("%s %s %d of %d", i ? "," : "", side[i], c->run[i], c->rows[i]);
        if (c->run[i] < c->rows[i])
            printf(" (not row%s %s)", c->rows[i] - c->run[i] == 1 ? "" : "s", c->never[i]);
    }
    printf("  (ccsim protocol NAME numbers them)\n");
}

static void print_stress(const struct stress_args *a, const struct machine_cfg *m,
                         const struct cc_params *p, const struct stress_result *r, double wall)
{
    char l1[64] = ""; /* --keep-caches keeps the config's l1 in front of the coherent level */
    if (p->l1_sets && p->l1_ways && m->memsys->coherent)
        snprintf(l1, sizeof l1, " behind a %u x %u-way l1", p->l1_sets, p->l1_ways);
    printf("stress %s (%s, %s, %d cores, %u x %u-way %s%s), %u line%s, seed %llu\n",
           m->machine.name, m->machine.protocol, m->machine.topology, p->cores, p->sets, p->ways,
           m->memsys->coherent ? "coherent cache" : "private cache, no coherence", l1, a->o.lines,
           a->o.lines == 1 ? "" : "s", (unsigned long long)a->o.seed);
    printf("ops %llu  checks %llu  violations %llu  unexpected %llu  deadlock %s\n",
           (unsigned long long)r->ops, (unsigned long long)r->checks,
           (unsigned long long)r->violations, (unsigned long long)r->unexpected,
           r->deadlock ? "yes" : "no");
    if (r->ops > a->o.ops) /* the SCC's lock: a holder finishes its sequence and releases */
        printf("(%llu ops asked: the lock sequences under way at the last one ran to their "
               "release)\n",
               (unsigned long long)a->o.ops);
    printf("misses %llu  invalidations %llu  writebacks %llu  simulated %.0f ns  events %llu  "
           "wall %.2f s\n",
           (unsigned long long)r->misses, (unsigned long long)r->invalidations,
           (unsigned long long)r->writebacks, (double)r->simulated_ps / SIM_PS_PER_NS,
           (unsigned long long)r->events, wall);
    if (r->prefetches)
        printf("prefetcher: %llu line%s fetched ahead\n", (unsigned long long)r->prefetches,
               r->prefetches == 1 ? "" : "s");
    if (r->has_coverage)
        print_coverage(&r->coverage);
}

int cli_stress(int argc, char **argv)
{
    struct stress_args a = {.o = {.ops = 100000,
                                  .seed = 1,
                                  .lines = 0, /* 8, or a line a core: default_lines */
                                  .max_think_cycles = 20,
                                  .jitter_ps = 20000,
                                  .watchdog_ns = 1000000,
                                  .mlp = 3}};
    int status = stress_parse(argc, argv, &a);
    if (status)
        return status;
    struct machine_cfg m;
    if (!cli_load_machine(a.config, a.sets, a.nsets, &m))
        return SIM_EXIT_INPUT;
    if (a.coherent_only && !m.memsys->coherent)
        return cli_usage_error("stress",
                               "--jitter-ns and --mlp apply to a coherent machine; %s's tester "
                               "runs one agent a core, without jitter (its memory relies on one "
                               "source's messages arriving in order)",
                               m.machine.name);
    if (a.o.lines == 0)
        a.o.lines = default_lines(&m);
    struct cc_params p;
    struct machine *mc = stress_machine(&a, &m, &p);
    if (!mc)
        return SIM_EXIT_INPUT;
    double t0 = wall_now();
    struct stress_result r;
    status = stress_run(mc, &a.o, &r);
    print_stress(&a, &m, &p, &r, wall_now() - t0);
    machine_free(mc);
    return status;
}
