/*
 * cli_gen.c -- `ccsim gen`: print a built-in generator's trace (for a
 * machine with -c: machine_gen_view).
 */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The trace, its "# ccsim gen ..." line completed with the -c and --set
 * that shaped it (line size, pinning), so that the line rebuilds it. */
static void print_trace(const char *text, const char *config, const char *const *sets, size_t nsets)
{
    const char *head = strstr(text, "\n# ccsim gen ");
    if (!config || !head) {
        fputs(text, stdout);
        return;
    }
    const char *end = strchr(head + 1, '\n');
    end = end ? end : head + strlen(head);
    fwrite(text, 1, (size_t)(end - text), stdout);
    size_t len = (size_t)(end - head) + strlen(config) + 4;
    for (size_t i = 0; i < nsets; i++)
        len += strlen(sets[i]) + 10;
    if (len >= WL_MAX_LINE_CHARS) { /* a trace's line has a bound: say so, not break the trace */
        printf(" -c ... --set ... (%zu characters: too long for one line)", len);
        fputs(end, stdout);
        return;
    }
    printf(" -c %s", config);
    for (size_t i = 0; i < nsets; i++) /* quoted for a shell where it needs it */
        printf(strpbrk(sets[i], " \"$\\") ? " --set '%s'" : " --set %s", sets[i]);
    fputs(end, stdout);
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
    if (nsets && !config) /* nothing to set them in: not silently dropped */
        return cli_usage_error("gen", "--set needs -c CONFIG (the machine it changes)");
    struct machine_cfg m;
    struct gen_machine g = {0, 1, 1, 64, 8, 0};
    if (config) {
        if (!cli_load_machine(config, sets, nsets, &m))
            return SIM_EXIT_INPUT;
        machine_gen_view(&m, &g);
    }
    struct sim_diag d;
    sim_diag_init(&d);
    char where[WL_MAX_LINE_CHARS + 16];
    snprintf(where, sizeof where, "ccsim gen %s", spec);
    char *text = gen_trace_at(where, spec, (int)threads, (long)iters, config ? &g : NULL, &d);
    if (!text) {
        sim_diag_print(&d);
        return SIM_EXIT_INPUT;
    }
    print_trace(text, config, sets, nsets);
    free(text);
    return SIM_EXIT_OK;
}
