/*
 * cli_calibrate.c -- `ccsim calibrate`: fits named parameters of a config
 * to a targets file (cli/calibrate.h), prints every target figure before
 * and after and every parameter's old and new value, and writes the fitted
 * config with -o.
 */
#include "calibrate.h"
#include "cli.h"
#include "progress.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

struct cal_args {
    const char *config, *targets, *out, *params;
    const char *sets[CAL_MAX_SETS];
    size_t nsets;
    uint64_t iterations, max_evals;
};

static int parse_opt(int c, struct cal_args *a)
{
    if (c == 'c')
        a->config = optarg;
    else if (c == 'T')
        a->targets = optarg;
    else if (c == 'o')
        a->out = optarg;
    else if (c == 'P')
        a->params = optarg;
    else if (c == 'i' && !cli_parse_u64("calibrate", "-i", optarg, 2, 100000, &a->iterations))
        return SIM_EXIT_INPUT;
    else if (c == 'E' &&
             !cli_parse_u64("calibrate", "--max-evals", optarg, 1, 100000, &a->max_evals))
        return SIM_EXIT_INPUT;
    else if (c == 's') {
        if (a->nsets == CAL_MAX_SETS)
            return cli_usage_error("calibrate", "too many --set (at most %d)", CAL_MAX_SETS);
        a->sets[a->nsets++] = optarg;
    }
    return 0;
}

static int parse_args(int argc, char **argv, struct cal_args *a)
{
    static const struct option longs[] = {
        {"config", required_argument, NULL, 'c'},     {"targets", required_argument, NULL, 'T'},
        {"params", required_argument, NULL, 'P'},     {"output", required_argument, NULL, 'o'},
        {"iterations", required_argument, NULL, 'i'}, {"max-evals", required_argument, NULL, 'E'},
        {"set", required_argument, NULL, 's'},        {0}};
    int c, bad = 0;
    optind = 1;
    while ((c = cli_next_opt("calibrate", argc, argv, ":c:o:i:s:", longs, &bad)) != -1)
        if (bad || (bad = parse_opt(c, a)))
            return bad;
    if (optind < argc)
        return cli_usage_error("calibrate", "unexpected argument '%s'", argv[optind]);
    if (!a->config)
        return cli_usage_error("calibrate", "-c CONFIG is required");
    if (!a->targets)
        return cli_usage_error("calibrate", "--targets FILE is required (configs/targets/ "
                                            "has seed 000's tables)");
    return 0;
}

/* --params A,B,... or the targets file's params list. */
static int param_names(const struct cal_args *a, const struct cal_targets *t, char names[][64],
                       int *n)
{
    *n = 0;
    if (!a->params) {
        for (int i = 0; i < t->nparams; i++)
            snprintf(names[(*n)++], 64, "%s", t->params[i]);
        return *n ? 0
                  : cli_usage_error("calibrate",
                                    "name the parameters to fit: --params "
                                    "SECTION.KEY,... (or params = [...] in %s)",
                                    t->path);
    }
    if (!*a->params)
        return cli_usage_error("calibrate", "--params is empty: name the parameters to fit, "
                                            "SECTION.KEY,...");
    for (const char *p = a->params; *p;) {
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= 64 || *n == CAL_MAX_PARAMS)
            return cli_usage_error("calibrate",
                                   "--params %s: expected SECTION.KEY,... (at most "
                                   "%d, each under 64 characters)",
                                   a->params, CAL_MAX_PARAMS);
        snprintf(names[(*n)++], 64, "%.*s", (int)len, p);
        p += len + (p[len] == ',');
        if (p[-1] == ',' && !*p) /* a trailing comma: an empty name, as ",," is */
            return cli_usage_error("calibrate", "--params %s: an empty name after the last comma",
                                   a->params);
    }
    return 0;
}

static void on_eval(void *ctx, int evals, double best)
{
    char detail[64];
    snprintf(detail, sizeof detail, "best objective %.4g", best);
    progress_note(ctx, (uint64_t)evals, detail);
}

static void print_value(const struct cal_param *p, double v)
{
    if (p->integer)
        printf(" %12lld", (long long)llround(v));
    else
        printf(" %12.4g", v);
}

/* Each target curve: its model and the points' largest deviation from it
 * (x >= 8) before and after. */
static void print_curves(const struct cal_problem *pb, const struct cal_result *r)
{
    const struct cal_targets *t = &pb->targets;
    if (cal_targets_have_curves(t))
        printf("  %-17s %38s %12s %12s\n", "curve (x >= 8)", "target model [k0, k1, k2]", "before",
               "after");
    for (int c = 0; c < CAL_NCURVE; c++) {
        if (!t->ncurve[c])
            continue;
        char model[64];
        snprintf(model, sizeof model, "[%g, %g, %g]", t->curve[c][0], t->curve[c][1],
                 t->curve[c][2]);
        printf("  %-17s %38s %+10.1f %% %+10.1f %%\n", cal_curve_name(c), model,
               100.0 * r->curve_before[c], 100.0 * r->curve_after[c]);
    }
}

/* Why a parameter the fit did not move is where it was. */
static const char *unchanged_note(const struct cal_param *p, const struct cal_result *r)
{
    if (cal_param_moved(p))
        return "";
    if (!p->tries)
        return "  (unchanged: the search ended before it tried another value)";
    return r->converged ? "  (unchanged: the fit kept it)"
                        : "  (unchanged: no value tried was better; the search did not converge)";
}

static void print_result(const struct cal_problem *pb, const struct cal_result *r)
{
    printf("calibrate %s against %s (%s)\n", pb->config, pb->targets.path, pb->targets.source);
    bool figures = false;
    for (int f = 0; f < CAL_NFIG; f++)
        figures |= pb->targets.fig[f] > 0;
    if (figures)
        printf("  %-17s %12s %12s %12s %12s\n", "figure (ns)", "target", "before", "after",
               "error");
    for (int f = 0; f < CAL_NFIG; f++) {
        double t = pb->targets.fig[f];
        if (t > 0)
            printf("  %-17s %12.2f %12.2f %12.2f %+11.1f %%\n", cal_figure_name(f), t, r->before[f],
                   r->after[f], 100.0 * (r->after[f] - t) / t);
    }
    print_curves(pb, r);
    printf("  %-30s %12s %12s   %s\n", "parameter", "before", "after", "bounds");
    for (int i = 0; i < pb->nparams; i++) {
        const struct cal_param *p = &pb->params[i];
        printf("  %-30s", p->path);
        print_value(p, p->start);
        print_value(p, p->value);
        printf("   [%g, %g]%s%s%s\n", p->lo, p->hi, p->unit ? " " : "", p->unit ? p->unit : "",
               unchanged_note(p, r));
    }
    printf("objective (sum of squared relative errors%s): %.6g -> %.6g after %d evaluation%s",
           cal_targets_have_curves(&pb->targets) ? "; a curve adds its points' mean" : "",
           r->objective_before, r->objective_after, r->evals, r->evals == 1 ? "" : "s");
    if (r->refused)
        printf(" (%d candidates the config refused)", r->refused);
    printf("\n");
    if (!r->converged)
        printf("the search stopped at --max-evals %d before it converged: a larger budget may "
               "fit better\n",
               pb->max_evals);
}

/* Everything before the search: the targets, the config, the parameters. */
static int setup(const struct cal_args *a, struct cal_problem *pb, struct sim_diag *d)
{
    if (!machine_config_find(a->config, pb->config, sizeof pb->config)) {
        fprintf(stderr, "ccsim calibrate: -c %s: no such config file or shipped config\n",
                a->config);
        return SIM_EXIT_INPUT;
    }
    static struct machine_cfg m;
    if (!cal_targets_load(&pb->targets, a->targets, d) ||
        !machine_load(&m, pb->config, a->sets, a->nsets, d))
        return SIM_EXIT_INPUT;
    cli_note_unused_sets(&m, a->sets, a->nsets);
    char names[CAL_MAX_PARAMS][64];
    int n, bad = param_names(a, &pb->targets, names, &n);
    if (bad)
        return bad;
    char from[1100]; /* where the names came from, for the messages */
    snprintf(from, sizeof from, "%s%s", a->params ? "--params" : pb->targets.path,
             a->params ? "" : ": params");
    return cal_add_params(pb, &m, names, n, from, d) ? 0 : SIM_EXIT_INPUT;
}

/* Whether two names are one existing file (whatever the path). */
static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

int cli_calibrate(int argc, char **argv)
{
    struct cal_args a = {.iterations = 21, .max_evals = 200};
    int bad = parse_args(argc, argv, &a);
    if (bad)
        return bad;
    static struct cal_problem pb;
    memset(&pb, 0, sizeof pb);
    memcpy(pb.sets, a.sets, sizeof a.sets);
    pb.nsets = a.nsets;
    pb.iterations = (int)a.iterations;
    pb.max_evals = (int)a.max_evals;
    struct sim_diag d;
    sim_diag_init(&d);
    if ((bad = setup(&a, &pb, &d))) {
        sim_diag_print(&d);
        return bad;
    }
    if (a.out && !cli_check_output("calibrate", "-o", a.out)) /* before the search, not after */
        return SIM_EXIT_INPUT;
    if (a.out && same_file(a.out, a.targets))
        return cli_usage_error("calibrate",
                               "-o %s is the --targets file: the fitted config would "
                               "overwrite the figures it was fitted to",
                               a.out);
    struct progress p;
    progress_init(&p, "ccsim calibrate", "evaluations", pb.max_evals);
    p.bound = true; /* --max-evals: the search may converge before */
    pb.on_eval = on_eval;
    pb.eval_ctx = &p;
    struct cal_result r;
    bool ok = cal_run(&pb, &r, &d);
    progress_end(&p);
    if (ok)
        print_result(&pb, &r);
    if (ok && a.out && (ok = cal_write_config(&pb, a.out, &d)))
        printf("fitted config: %s\n", a.out);
    sim_diag_print(&d);
    return ok ? SIM_EXIT_OK : SIM_EXIT_INPUT;
}
