/*
 * cli_bench_workloads.c -- `ccsim bench workloads`: the simulator's speed on
 * a fixed set of reference runs (the "Hardening and speed" figures).
 *
 * Each reference runs in a forked child, so that its peak resident set
 * (getrusage of that child, through wait4) is its own. The child sends its
 * figures back through a pipe; the parent prints one line per reference:
 *   NAME wall_s=... events_per_s=... simulated_ns=... slowdown=... peak_rss_mb=...
 * slowdown is wall time / simulated time; peak_rss_mb is in MiB (ru_maxrss
 * KiB / 1024), the name kept as the contract has it.
 */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

struct bench_ref {
    const char *name;
    const char *config; /* a shipped config name */
    const char *spec;   /* generator spec */
    int threads;
    long iterations;
};

static const struct bench_ref bench_refs[] = {
    {"knc-barrier-240", "knc-5110p", "barrier-dissemination", 240, 1000},
    {"snb-bcast-8k", "snb-e5-2660", "bcast-multiline:lines=128", 16, 1000},
    {"mesh1024-barrier", "mesh-1024", "barrier-dissemination", 1024, 100},
    {"scc-allreduce-552", "scc", "scc-allreduce:elements=552", 48, 1000},
};

/* What a child sends back. */
struct bench_figures {
    int status; /* enum sim_exit */
    uint64_t events, simulated_ns;
    double wall_s;
};

#define QUICK_ITERATIONS 2

/* Runs one reference in this process. */
static struct bench_figures bench_run_ref(const struct bench_ref *b, long iterations)
{
    struct bench_figures f = {.status = SIM_EXIT_INPUT};
    struct machine_cfg m;
    if (!cli_load_machine(b->config, NULL, 0, &m))
        return f;
    struct sim_diag d;
    sim_diag_init(&d);
    struct wl_program *p = machine_generate(b->spec, b->threads, iterations, &m, &d);
    struct machine *mc = p ? machine_build(&m, 1, &d) : NULL;
    if (mc) {
        struct core_machine w;
        machine_view(mc, &w);
        struct core_run_opts o = {.watchdog_ps = machine_watchdog_ps(mc, MACHINE_WATCHDOG_PS),
                                  .max_reports = 10};
        struct core_result r;
        core_run(&w, p, &o, &r, &d);
        f.status = r.input_error            ? SIM_EXIT_INPUT
                   : core_result_failed(&r) ? SIM_EXIT_FAIL
                                            : SIM_EXIT_OK;
        f.events = r.events;
        f.simulated_ns = r.simulated_ns;
        f.wall_s = r.wall_s;
        core_result_free(&r);
        machine_free(mc);
    }
    sim_diag_print(&d);
    wl_program_free(p);
    return f;
}

/* The child: runs the reference, writes its figures to fd, exits. */
static _Noreturn void bench_child(const struct bench_ref *b, long iterations, int fd)
{
    struct bench_figures f = bench_run_ref(b, iterations);
    ssize_t n = write(fd, &f, sizeof f);
    _exit(n == (ssize_t)sizeof f ? 0 : SIM_EXIT_FAIL);
}

static void bench_print(const struct bench_ref *b, const struct bench_figures *f, long maxrss_kb,
                        long iterations)
{
    double sim_s = (double)f->simulated_ns * 1e-9;
    printf("%s wall_s=%.3f events_per_s=%.0f simulated_ns=%llu slowdown=%.0f peak_rss_mb=%.1f "
           "iterations=%ld\n",
           b->name, f->wall_s, f->wall_s > 0 ? (double)f->events / f->wall_s : 0.0,
           (unsigned long long)f->simulated_ns, sim_s > 0 ? f->wall_s / sim_s : 0.0,
           (double)maxrss_kb / 1024.0, iterations);
}

/* Runs one reference in a child and prints its line; returns an exit status. */
static int bench_one(const struct bench_ref *b, bool quick)
{
    long iterations = quick && b->iterations > QUICK_ITERATIONS ? QUICK_ITERATIONS : b->iterations;
    int fds[2];
    if (pipe(fds) != 0)
        sim_panic("bench workloads: pipe failed");
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        sim_panic("bench workloads: fork failed");
    if (pid == 0) {
        close(fds[0]);
        bench_child(b, iterations, fds[1]);
    }
    close(fds[1]);
    struct bench_figures f;
    ssize_t n = read(fds[0], &f, sizeof f);
    close(fds[0]);
    int wstatus = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    while (wait4(pid, &wstatus, 0, &ru) < 0)
        ;
    if (n != (ssize_t)sizeof f || !WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0 ||
        f.status != SIM_EXIT_OK) {
        printf("%s failed (see the messages above)\n", b->name);
        if (n != (ssize_t)sizeof f) /* the run died: ccsim's own failure */
            return SIM_EXIT_INTERNAL;
        return f.status == SIM_EXIT_INPUT ? SIM_EXIT_INPUT : SIM_EXIT_FAIL;
    }
    bench_print(b, &f, ru.ru_maxrss, iterations);
    return SIM_EXIT_OK;
}

static const struct bench_ref *bench_find(const char *name)
{
    for (size_t i = 0; i < SIM_COUNT_OF(bench_refs); i++)
        if (strcmp(bench_refs[i].name, name) == 0)
            return &bench_refs[i];
    return NULL;
}

/* argv[0] is "workloads". */
int cli_bench_workloads(int argc, char **argv)
{
    static const struct option longs[] = {
        {"quick", no_argument, NULL, 'q'}, {"only", required_argument, NULL, 'o'}, {0}};
    bool quick = false;
    const struct bench_ref *only = NULL;
    int c, bad = 0;
    optind = 1;
    while ((c = cli_next_opt("bench", argc, argv, ":", longs, &bad)) != -1) {
        if (bad)
            return bad;
        if (c == 'q')
            quick = true;
        else if (c == 'o' && !(only = bench_find(optarg))) /* once: cli_next_opt */
            return cli_usage_error("bench", "no reference run '%s' (ccsim bench --help)", optarg);
    }
    if (optind < argc)
        return cli_usage_error("bench", "unexpected argument '%s'", argv[optind]);
    if (only)
        return bench_one(only, quick);
    int status = SIM_EXIT_OK;
    for (size_t i = 0; i < SIM_COUNT_OF(bench_refs); i++) {
        int s = bench_one(&bench_refs[i], quick);
        if (s > status)
            status = s;
    }
    return status;
}
