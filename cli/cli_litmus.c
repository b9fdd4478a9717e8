/*
 * cli_litmus.c -- `ccsim litmus FILE.litmus ... [-c CONFIG] [--runs N]`:
 * each x86 litmus test (litmus.h) translated into a trace and run N times,
 * seeds 1..N, with the threads' start skewed and simultaneous arrivals
 * arbitrated at random; the outcome histogram and herd's verdict.
 */
#include "cli.h"
#include "litmus.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define LITMUS_DEFAULT_RUNS 100
#define LITMUS_DEFAULT_SKEW 500 /* ns */

struct litmus_args {
    const char *config;
    const char *files[64];
    int nfiles;
    const char *sets[64];
    size_t nsets;
    uint64_t runs;
    uint64_t skew_ns;
    int expect; /* -1: the file's */
    bool print_trace;
};

/* One distinct outcome and how many runs gave it. */
struct state {
    char *text; /* the whole outcome (lit_format), the key of the histogram */
    bool holds;
    uint64_t count;
};

/* What the runs of one test collect. */
struct tally {
    const struct lit_test *t;
    int reg_at[LIT_MAX_REGS], end_at[LIT_MAX_LOCS]; /* the trace's register indices */
    struct lit_outcome o;                           /* the run's */
    struct state *states;
    int nstates;
    uint64_t positive, negative;
};

static void on_done(void *ctx, int thread, const int64_t *regs, int nregs)
{
    struct tally *ty = ctx;
    for (int g = 0; g < ty->t->nregs; g++)
        if (ty->reg_at[g] >= 0 && ty->reg_at[g] < nregs)
            ty->o.reg[thread][g] = regs[ty->reg_at[g]];
    if (thread != 0)
        return;
    for (int l = 0; l < ty->t->nlocs; l++)
        if (ty->end_at[l] >= 0 && ty->end_at[l] < nregs)
            ty->o.loc[l] = regs[ty->end_at[l]];
}

static int reg_at(const struct wl_program *p, const char *name)
{
    for (int i = 0; i < wl_program_reg_count(p); i++)
        if (strcmp(wl_program_reg(p, i), name) == 0)
            return i;
    return -1;
}

static void map_regs(struct tally *ty, const struct wl_program *p)
{
    char name[64];
    for (int g = 0; g < ty->t->nregs; g++) {
        lit_reg_name(ty->t, g, name, sizeof name);
        ty->reg_at[g] = reg_at(p, name);
    }
    for (int l = 0; l < ty->t->nlocs; l++) {
        lit_loc_end_name(ty->t, l, name, sizeof name);
        ty->end_at[l] = reg_at(p, name);
    }
}

/* Room for every value an outcome can show: a location's name (31) or a
 * thread and register (2 + 15), "=", a 64-bit number (20) and "; ". */
#define STATE_TEXT (LIT_MAX_SHOW * 56)

static void count(struct tally *ty)
{
    static char text[STATE_TEXT];
    lit_format(ty->t, &ty->o, text, sizeof text);
    bool holds = lit_holds(ty->t, &ty->o);
    if (holds)
        ty->positive++;
    else
        ty->negative++;
    for (int i = 0; i < ty->nstates; i++)
        if (strcmp(ty->states[i].text, text) == 0) {
            ty->states[i].count++;
            return;
        }
    ty->states = sim_xrealloc(ty->states, (size_t)(ty->nstates + 1) * sizeof *ty->states);
    struct state *s = &ty->states[ty->nstates++];
    s->text = sim_xstrdup(text);
    s->holds = holds;
    s->count = 1;
}

/* The caches cut to LITMUS_SETS sets, their ways and latencies kept: a
 * test touches at most LIT_MAX_LOCS lines, consecutive line numbers in
 * distinct sets, so nothing is evicted either way, and building the full
 * caches of a large machine for every run would cost more than the run. */
#define LITMUS_SETS 64
static const struct cc_params *small(struct cc_params *p)
{
    if (p->sets > LITMUS_SETS)
        p->sets = LITMUS_SETS;
    if (p->l1_sets > LITMUS_SETS)
        p->l1_sets = LITMUS_SETS;
    return p;
}

/* One run with seed `seed`: 0, or an exit status (its reason printed). */
static int run_once(const struct machine_cfg *m, const struct wl_program *p, uint64_t seed,
                    struct tally *ty)
{
    struct sim_diag d;
    sim_diag_init(&d);
    struct cc_params cp;
    struct machine *mc =
        machine_params(m, &cp, &d) ? machine_build_with(m, small(&cp), seed, &d) : NULL;
    if (!mc) {
        sim_diag_print(&d);
        return SIM_EXIT_INPUT;
    }
    cc_check_enable(mc->cc, false);
    struct core_machine w;
    machine_view(mc, &w);
    memset(&ty->o, 0, sizeof ty->o);
    struct core_run_opts o = {.watchdog_ps = machine_watchdog_ps(mc, 1000000ull * SIM_PS_PER_NS),
                              .max_reports = 10,
                              .on_done = on_done,
                              .done_ctx = ty};
    struct core_result res;
    core_run(&w, p, &o, &res, &d);
    sim_diag_print(&d);
    int status = res.input_error ? SIM_EXIT_INPUT : core_result_failed(&res) ? SIM_EXIT_FAIL : 0;
    if (status == SIM_EXIT_FAIL)
        fprintf(stderr,
                "ccsim litmus: seed %llu: the run failed a check (%llu coherence violation(s), "
                "%s)\n",
                (unsigned long long)seed, (unsigned long long)res.coherence_violations,
                res.deadlock     ? "a deadlock"
                : res.time_limit ? "not finished at its simulated-time limit"
                                 : "no deadlock");
    if (!status)
        count(ty);
    core_result_free(&res);
    machine_free(mc);
    return status;
}

static int cmp_state(const void *a, const void *b)
{
    return strcmp(((const struct state *)a)->text, ((const struct state *)b)->text);
}

/* herd's report; returns whether the condition is validated (Ok). */
static bool report(const struct lit_test *t, struct tally *ty, const struct machine_cfg *m,
                   const struct litmus_args *a)
{
    static const char *const kind[] = {"Allowed", "Forbidden", "Required"};
    printf("Test %s %s\n", t->name, kind[t->quant]);
    printf("Histogram (%d state%s)\n", ty->nstates, ty->nstates == 1 ? "" : "s");
    qsort(ty->states, (size_t)ty->nstates, sizeof *ty->states, cmp_state);
    for (int i = 0; i < ty->nstates; i++)
        printf("%-6llu%c>%s\n", (unsigned long long)ty->states[i].count,
               ty->states[i].holds ? '*' : ':', ty->states[i].text);
    bool ok = t->quant == LIT_EXISTS       ? ty->positive > 0
              : t->quant == LIT_NOT_EXISTS ? ty->positive == 0
                                           : ty->negative == 0;
    printf("%s\n", ok ? "Ok" : "No");
    /* as herd and litmus7 count them: for ~exists, the runs that satisfy the
     * condition are those where its proposition does not hold */
    bool swap = t->quant == LIT_NOT_EXISTS;
    printf("Witnesses\nPositive: %llu, Negative: %llu\n",
           (unsigned long long)(swap ? ty->negative : ty->positive),
           (unsigned long long)(swap ? ty->positive : ty->negative));
    printf("Condition %s is %svalidated\n", t->condition, ok ? "" : "NOT ");
    printf("Observation %s %s %llu %llu\n", t->name,
           ty->positive == 0   ? "Never"
           : ty->negative == 0 ? "Always"
                               : "Sometimes",
           (unsigned long long)ty->positive, (unsigned long long)ty->negative);
    char seeds[64] = "seed 1";
    if (a->runs > 1)
        snprintf(seeds, sizeof seeds, "seeds 1..%llu", (unsigned long long)a->runs);
    printf("ccsim: %s (%s), %llu run%s (%s), start skew up to %llu ns\n", m->machine.name,
           m->machine.protocol, (unsigned long long)a->runs, a->runs == 1 ? "" : "s", seeds,
           (unsigned long long)a->skew_ns);
    return ok;
}

/* Runs one test; 0, or an exit status. */
static int run_test(const char *file, const struct machine_cfg *m, const struct litmus_args *a)
{
    static struct lit_test t;
    struct sim_diag d;
    sim_diag_init(&d);
    if (!lit_read(file, &t, &d)) {
        sim_diag_print(&d);
        return SIM_EXIT_INPUT;
    }
    if (a->print_trace)
        printf("%s", t.trace);
    if (t.threads > m->machine.cores) {
        sim_diag_add(&d, file, t.threads_line,
                     "%d threads, but %s has %lld cores (a thread a core: use a larger machine)",
                     t.threads, m->machine.name, (long long)m->machine.cores);
        sim_diag_print(&d);
        lit_free(&t);
        return SIM_EXIT_INPUT;
    }
    struct wl_parse_opts po = {(int)m->machine.line_bytes, (int)m->machine.cores,
                               (int)m->machine.threads_per_core};
    /* the trace's own lines in its messages (--print-trace shows them) */
    char name[600];
    snprintf(name, sizeof name, "%s (as a trace)", file);
    struct wl_program *p = wl_parse_text(name, t.trace, strlen(t.trace), &po, &d);
    if (!p) {
        sim_diag_print(&d);
        lit_free(&t);
        return SIM_EXIT_INPUT;
    }
    struct tally ty = {.t = &t};
    map_regs(&ty, p);
    int status = 0;
    for (uint64_t seed = 1; seed <= a->runs && !status; seed++)
        status = run_once(m, p, seed, &ty);
    if (!status) {
        bool ok = report(&t, &ty, m, a);
        int expect = a->expect >= 0 ? a->expect : t.expect;
        if (expect >= 0) {
            printf("Expected %s: %s\n", expect ? "Ok" : "No",
                   ok == (expect == 1) ? "met" : "NOT met");
            if (ok != (expect == 1))
                status = SIM_EXIT_FAIL;
        }
    }
    for (int i = 0; i < ty.nstates; i++)
        free(ty.states[i].text);
    free(ty.states);
    wl_program_free(p);
    lit_free(&t);
    return status;
}

static int parse_args(int argc, char **argv, struct litmus_args *a)
{
    static const struct option longs[] = {{"config", required_argument, NULL, 'c'},
                                          {"runs", required_argument, NULL, 'n'},
                                          {"skew", required_argument, NULL, 'k'},
                                          {"expect", required_argument, NULL, 'e'},
                                          {"print-trace", no_argument, NULL, 'p'},
                                          {"set", required_argument, NULL, 's'},
                                          {NULL, 0, NULL, 0}};
    int c, bad = 0;
    while ((c = cli_next_opt("litmus", argc, argv, ":c:n:s:", longs, &bad)) != -1) {
        if (bad)
            return bad;
        if (c == 'c')
            a->config = optarg;
        else if (c == 'n' && !cli_parse_u64("litmus", "--runs", optarg, 1, 100000, &a->runs))
            return SIM_EXIT_INPUT;
        else if (c == 'k' && !cli_parse_u64("litmus", "--skew", optarg, 0, 100000, &a->skew_ns))
            return SIM_EXIT_INPUT;
        else if (c == 'e') {
            if (strcmp(optarg, "Ok") != 0 && strcmp(optarg, "No") != 0)
                return cli_usage_error("litmus", "--expect takes Ok or No, not '%s'", optarg);
            a->expect = strcmp(optarg, "Ok") == 0;
        } else if (c == 'p')
            a->print_trace = true;
        else if (c == 's') {
            if (a->nsets == SIM_COUNT_OF(a->sets) - 2)
                return cli_usage_error("litmus", "too many --set options");
            a->sets[a->nsets++] = optarg;
        }
    }
    if (bad)
        return bad;
    for (int i = optind; i < argc; i++) {
        if (a->nfiles == (int)SIM_COUNT_OF(a->files))
            return cli_usage_error("litmus", "more than %d files", (int)SIM_COUNT_OF(a->files));
        a->files[a->nfiles++] = argv[i];
    }
    if (!a->nfiles)
        return cli_usage_error("litmus", "no litmus file given");
    return 0;
}

/* The machine, with the start skew and random arbitration on (after the
 * user's --set, so --skew decides). */
static bool load(struct litmus_args *a, struct machine_cfg *m)
{
    static char skew[64];
    snprintf(skew, sizeof skew, "variability.start_skew_ns=%llu", (unsigned long long)a->skew_ns);
    a->sets[a->nsets++] = skew;
    a->sets[a->nsets++] = "variability.arbitration=true";
    if (!cli_load_machine(a->config, a->sets, a->nsets, m))
        return false;
    if (m->memsys->coherent)
        return true;
    struct sim_diag d;
    sim_diag_init(&d);
    sim_diag_add(&d, m->path, m->protocol_line,
                 "machine.protocol = \"%s\": this memory system is not coherent; a litmus test "
                 "asks what a coherent shared memory may show (use a coherent config: ccsim "
                 "list configs)",
                 m->machine.protocol);
    sim_diag_print(&d);
    return false;
}

int cli_litmus(int argc, char **argv)
{
    struct litmus_args a = {.config = "teach-xbar",
                            .runs = LITMUS_DEFAULT_RUNS,
                            .skew_ns = LITMUS_DEFAULT_SKEW,
                            .expect = -1};
    int bad = parse_args(argc, argv, &a);
    if (bad)
        return bad;
    static struct machine_cfg m;
    if (!load(&a, &m))
        return SIM_EXIT_INPUT;
    int status = 0;
    for (int i = 0; i < a.nfiles; i++) {
        if (i)
            printf("\n");
        int s = run_test(a.files[i], &m, &a);
        if (s > status)
            status = s;
    }
    return status;
}
