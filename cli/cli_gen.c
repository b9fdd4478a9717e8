/*
 * cli_gen.c -- `ccsim gen`: print a built-in generator's trace, and the
 * glue `ccsim run -w` uses to turn a generator spec into a program.
 */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cli_gen_machine(const struct machine_cfg *m, struct gen_machine *g)
{
    g->cores = (int)m->machine.cores;
    g->sockets = (int)m->machine.sockets;
    g->threads_per_core = (int)m->machine.threads_per_core;
    g->line_bytes = (int)m->machine.line_bytes;
    g->atomic_store_bytes = (int)m->core.atomic_store_bytes;
    g->mpb_lines = (long)machine_mpb_lines(m);
}

struct wl_program *cli_generate(const char *spec, int threads, long iterations,
                                const struct machine_cfg *m, struct sim_diag *d)
{
    struct gen_machine g;
    cli_gen_machine(m, &g);
    char *text = gen_trace(spec, threads, iterations, &g, d);
    if (!text)
        return NULL;
    char name[300];
    snprintf(name, sizeof name, "gen:%s", spec);
    struct wl_parse_opts po = {g.line_bytes, g.cores, g.threads_per_core};
    struct wl_program *p = wl_parse_text(name, text, strlen(text), &po, d);
    free(text);
    return p;
}

int cli_gen(int argc, char **argv)
{
    static const struct option longs[] = {{"threads", required_argument, NULL, 't'},
                                          {"iterations", required_argument, NULL, 'i'},
                                          {"config", required_argument, NULL, 'c'},
                                          {"set", required_argument, NULL, 's'},
                                          {0}};
    uint64_t threads = 0, iters = 100;
    const char *config = NULL, *sets[64];
    size_t nsets = 0;
    int c, bad = 0;
    optind = 1;
    while ((c = cli_next_opt("gen", argc, argv, ":t:i:c:s:", longs, &bad)) != -1) {
        if (bad)
            return bad;
        if (c == 't' && !cli_parse_u64("gen", "-t", optarg, 1, 4096, &threads))
            return SIM_EXIT_INPUT;
        if (c == 'i' && !cli_parse_u64("gen", "-i", optarg, 1, 1000000000, &iters))
            return SIM_EXIT_INPUT;
        if (c == 'c')
            config = optarg;
        if (c == 's') {
            if (nsets == SIM_COUNT_OF(sets))
                return cli_usage_error("gen", "too many --set (at most 64)");
            sets[nsets++] = optarg;
        }
    }
    if (optind >= argc)
        return cli_usage_error("gen", "name a GENERATOR (ccsim list generators)");
    const char *spec = argv[optind++];
    if (optind < argc)
        return cli_usage_error("gen", "unexpected argument '%s'", argv[optind]);
    if (!threads)
        return cli_usage_error("gen", "-t THREADS is required");
    struct machine_cfg m;
    struct gen_machine g = {0, 1, 1, 64, 8, 0};
    if (config) {
        if (!cli_load_machine(config, sets, nsets, &m))
            return SIM_EXIT_INPUT;
        cli_gen_machine(&m, &g);
    }
    struct sim_diag d;
    sim_diag_init(&d);
    char *text = gen_trace(spec, (int)threads, (long)iters, config ? &g : NULL, &d);
    if (!text) {
        sim_diag_print(&d);
        return SIM_EXIT_INPUT;
    }
    fputs(text, stdout);
    free(text);
    return SIM_EXIT_OK;
}
