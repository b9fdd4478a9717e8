/*
 * cli_validate.c -- `ccsim validate`: every modelled algorithm of seeds 000
 * and 001 (validate/validate.h, table val_algos) run on a machine for a list of
 * thread counts; the simulated min / median / max beside the model's band
 * [T_min, T_max], whether the median is in the band, and the error against
 * T_min, as a table and as JSON.
 */
#include "cli.h"
#include "microbench.h"
#include "plot.h"
#include "validate.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define VAL_MAX_W     16
#define VAL_MAX_T     64
#define VAL_FIT_ITERS 9

struct val_args {
    const char *config, *json, *params; /* params: NULL (auto), "paper", "fitted" */
    const char *plot;                   /* --plot DIR */
    bool optimize;                      /* --optimize */
    bool threads_given;                 /* --threads (else the defaults) */
    const char *gens[VAL_MAX_W];
    int ngens;
    int threads[VAL_MAX_T];
    int nthreads;
    uint64_t iterations;
    double tolerance; /* fraction */
    const char *sets[64];
    size_t nsets;
};

struct val_row {
    const struct val_algo *algo;
    int threads;
    double min, median, max;
    bool modelled, in_band;
    bool min_in_band, max_in_band; /* sim min >= T_min (1 - tol), sim max <= T_max (1 + tol) */
    struct val_band band;
    const char *why; /* no model: the reason */
};

static bool given_before(const struct val_args *a, int threads)
{
    for (int i = 0; i < a->nthreads; i++)
        if (a->threads[i] == threads)
            return true;
    return false;
}

static int parse_threads(const char *text, struct val_args *a)
{
    size_t len = strlen(text);
    /* strtok_r would skip an empty count (",2", "2,,4", "2,") unsaid */
    if (len && (text[0] == ',' || text[len - 1] == ',' || strstr(text, ",,")))
        return cli_usage_error("validate",
                               "--threads %s: an empty count (give a list such as "
                               "2,4,8)",
                               text);
    char *copy = strdup(text), *save = NULL;
    int bad = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok && !bad; tok = strtok_r(NULL, ",", &save)) {
        uint64_t v;
        if (a->nthreads == VAL_MAX_T)
            bad = cli_usage_error("validate", "--threads: at most %d counts", VAL_MAX_T);
        else if (!cli_parse_u64("validate", "--threads", tok, 2, 4096, &v))
            bad = SIM_EXIT_INPUT;
        else if (given_before(a, (int)v)) /* a point twice would be counted twice */
            bad = cli_usage_error("validate", "--threads: %d is given twice", (int)v);
        else
            a->threads[a->nthreads++] = (int)v;
    }
    free(copy);
    if (!bad && a->nthreads == 0)
        bad = cli_usage_error("validate", "--threads: give a list such as 2,4,8");
    return bad;
}

static int parse_opt(int c, struct val_args *a)
{
    uint64_t v;
    switch (c) {
    case 'c':
        a->config = optarg;
        return 0;
    case 'w':
        if (a->ngens == VAL_MAX_W)
            return cli_usage_error("validate", "too many -w (at most %d)", VAL_MAX_W);
        a->gens[a->ngens++] = optarg;
        return 0;
    case 'P':
        if (strcmp(optarg, "paper") && strcmp(optarg, "fitted"))
            return cli_usage_error("validate", "--params is paper or fitted, not '%s'", optarg);
        a->params = optarg;
        return 0;
    case 't':
        return parse_threads(optarg, a);
    case 'i':
        return cli_parse_u64("validate", "-i", optarg, 2, 1000000, &a->iterations) ? 0
                                                                                   : SIM_EXIT_INPUT;
    case 'T':
        if (!cli_parse_u64("validate", "--tolerance", optarg, 0, 1000, &v))
            return SIM_EXIT_INPUT;
        a->tolerance = (double)v / 100.0;
        return 0;
    case 'J':
        a->json = optarg;
        return 0;
    case 'p':
        a->plot = optarg;
        return 0;
    case 'O':
        a->optimize = true;
        return 0;
    case 's':
        if (a->nsets == SIM_COUNT_OF(a->sets))
            return cli_usage_error("validate", "too many --set (at most 64)");
        a->sets[a->nsets++] = optarg;
        return 0;
    }
    return 0;
}

/* --plot DIR: gnuplot on PATH, DIR a directory (made if missing). */
static int check_plot(const struct val_args *a)
{
    if (!a->plot)
        return 0;
    if (!plot_have_gnuplot()) {
        fprintf(stderr, "ccsim validate: --plot needs gnuplot, which is not on PATH (Debian: "
                        "apt-get install gnuplot-nox)\n");
        return SIM_EXIT_INPUT;
    }
    struct stat st;
    if (mkdir(a->plot, 0777) != 0 && (stat(a->plot, &st) != 0 || !S_ISDIR(st.st_mode))) {
        fprintf(stderr, "ccsim validate: --plot %s: not a directory and cannot be made: %s\n",
                a->plot, strerror(errno));
        return SIM_EXIT_INPUT;
    }
    return 0;
}

static int parse_args(int argc, char **argv, struct val_args *a)
{
    static const struct option longs[] = {{"config", required_argument, NULL, 'c'},
                                          {"workload", required_argument, NULL, 'w'},
                                          {"params", required_argument, NULL, 'P'},
                                          {"threads", required_argument, NULL, 't'},
                                          {"iterations", required_argument, NULL, 'i'},
                                          {"tolerance", required_argument, NULL, 'T'},
                                          {"json", required_argument, NULL, 'J'},
                                          {"plot", required_argument, NULL, 'p'},
                                          {"optimize", no_argument, NULL, 'O'},
                                          {"set", required_argument, NULL, 's'},
                                          {0}};
    int c, bad = 0;
    optind = 1;
    while ((c = cli_next_opt("validate", argc, argv, ":c:w:t:i:s:", longs, &bad)) != -1) {
        if (bad || (bad = parse_opt(c, a)))
            return bad;
    }
    if (optind < argc)
        return cli_usage_error("validate", "unexpected argument '%s'", argv[optind]);
    if (!a->config)
        return cli_usage_error("validate", "-c CONFIG is required");
    return check_plot(a);
}

/* True if -w names this algorithm: its whole spec or its generator. */
static bool selected(const struct val_args *a, const struct val_algo *al)
{
    if (a->ngens == 0)
        return true;
    size_t glen = strcspn(al->spec, ":");
    for (int i = 0; i < a->ngens; i++)
        if (!strcmp(a->gens[i], al->spec) ||
            (strlen(a->gens[i]) == glen && !strncmp(a->gens[i], al->spec, glen)))
            return true;
    return false;
}

/* -w GEN:PARAMS where GEN is modelled but not with these parameters: the
 * forms it is modelled in (0 if GEN has none). */
static int wrong_params(const char *w)
{
    size_t glen = strcspn(w, ":");
    char forms[1024] = "";
    size_t len = 0;
    for (int k = 0; k < val_nalgos && len < sizeof forms - 64; k++) {
        const char *spec = val_algos[k].spec;
        if (w[glen] != ':' || strcspn(spec, ":") != glen || strncmp(spec, w, glen) != 0 ||
            strstr(forms, spec))
            continue;
        len += (size_t)snprintf(forms + len, sizeof forms - len, "%s%s", len ? ", " : "", spec);
    }
    if (!len)
        return 0;
    return cli_usage_error("validate",
                           "'%s': validate models %.*s only as %s (or -w %.*s for all of them)", w,
                           (int)glen, w, forms, (int)glen, w);
}

static int check_gens(const struct val_args *a)
{
    for (int i = 0; i < a->ngens; i++) {
        struct val_args one = {.gens = {a->gens[i]}, .ngens = 1};
        bool any = false;
        for (int k = 0; k < val_nalgos; k++)
            any = any || selected(&one, &val_algos[k]);
        int bad = any ? 0 : wrong_params(a->gens[i]);
        if (bad)
            return bad;
        if (!any)
            return cli_usage_error("validate",
                                   "no model for '%s' (modelled: pingpong, m2o, o2m, "
                                   "barrier-dissemination, barrier-multim, barrier-pairwise, "
                                   "barrier-socketroot, m2o-tree, o2m-tree, bcast-tree, "
                                   "bcast-multiline, reduce-tree, reduce-binomial, mpi-shm; see "
                                   "--help)",
                                   a->gens[i]);
    }
    return 0;
}

static void default_threads(struct val_args *a, int cores)
{
    for (int t = 2; t <= cores && a->nthreads < VAL_MAX_T; t *= 2)
        a->threads[a->nthreads++] = t;
    if (a->nthreads && a->threads[a->nthreads - 1] != cores && cores > 2)
        a->threads[a->nthreads++] = cores;
}

/* Seed 001's throughputs, measured by simulation once per message size. */
struct rates_cache {
    const struct machine_cfg *m;
    long bytes[8];
    struct val_copy_rates r[8];
    int n;
};

static bool measure_rates(void *ctx, long bytes, struct val_copy_rates *out)
{
    struct rates_cache *c = ctx;
    for (int i = 0; i < c->n; i++)
        if (c->bytes[i] == bytes) {
            *out = c->r[i];
            return true;
        }
    struct sim_diag d;
    sim_diag_init(&d);
    if (!mb_copy_rates(c->m, bytes, VAL_FIT_ITERS, out, &d)) {
        sim_diag_print(&d);
        return false;
    }
    if (c->n < 8) {
        c->bytes[c->n] = bytes;
        c->r[c->n++] = *out;
    }
    return true;
}

static bool has_paper(const struct machine_model_sec *m)
{
    return m->R_R_ns > 0 && m->R_I_ns > 0;
}

/* --params fitted: Table 1's reads, and the slopes and intercepts the
 * paper's way (microbench's tables): c from Table 2 E/E (Fig 2: both
 * buffers in E); q and o from Table 3's intra row, Table 4 E/E's on a
 * tag-directory machine (the KNC's multi-line model); across sockets Table
 * 3's inter row (n pairs: q + o N + c n N). */
static int fitted(const struct machine_cfg *m, struct val_params *p)
{
    struct mb_result r;
    struct mb_tables *t = malloc(sizeof *t);
    struct sim_diag d;
    sim_diag_init(&d);
    bool ok = mb_singles(m, VAL_FIT_ITERS, &r, &d) && mb_tables(m, VAL_FIT_ITERS, t, &d);
    sim_diag_print(&d);
    if (ok) {
        const struct mb_row *ml = m->memsys->tag_directory ? &t->table4[MB_EE] : &t->table3_intra;
        val_params_fitted(r.r_l, r.r_r, r.r_q, r.r_i, r.r_qi, t->table2[MB_EE].k[1], ml->k[0],
                          ml->k[1], p);
        if (m->memsys->tag_directory)
            p->mp = ml->k[2]; /* Eq 5's p */
    }
    if (ok && m->machine.sockets > 1 && t->table3_inter.n > 0) {
        p->xq = t->table3_inter.k[0];
        p->xo = t->table3_inter.k[1];
        p->xc = t->table3_inter.k[2];
    }
    free(t);
    return ok ? 0 : SIM_EXIT_INPUT;
}

static int get_params(struct val_args *a, const struct machine_cfg *m, struct val_params *p)
{
    if (!a->params)
        a->params = has_paper(&m->model) ? "paper" : "fitted";
    if (!strcmp(a->params, "paper")) {
        if (!has_paper(&m->model))
            return cli_usage_error("validate",
                                   "%s has no model section (R_R, R_I): use "
                                   "--params fitted",
                                   m->path);
        const struct machine_model_sec *f = &m->model;
        *p = (struct val_params){.r_l = f->R_L_ns,
                                 .r_r = f->R_R_ns,
                                 .r_q = f->R_Q_ns,
                                 .r_i = f->R_I_ns,
                                 .r_qi = f->R_QI_ns,
                                 .b = f->contention_b_ns,
                                 .c = f->contention_c_ns,
                                 .mq = f->multiline_q_ns,
                                 .mo = f->multiline_o_ns};
        if (f->n_table3_inter == 3) {
            p->xq = f->table3_inter[0];
            p->xo = f->table3_inter[1];
            p->xc = f->table3_inter[2];
        }
        if (m->memsys->tag_directory && f->n_table4_EE == 3)
            p->mp = f->table4_EE[2]; /* Table 4 E/E's p: the multi-line model is Eq 5 */
        return 0;
    }
    return fitted(m, p);
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* min / median / max of the iterations, the first (a cold start) dropped. */
static void stats(const struct core_result *r, struct val_row *row)
{
    size_t n = r->iterations, skip = n > 1 ? 1 : 0;
    double *v = malloc((n ? n : 1) * sizeof *v);
    memcpy(v, r->latency_ns + skip, (n - skip) * sizeof *v);
    n -= skip;
    qsort(v, n, sizeof *v, cmp_double);
    row->min = n ? v[0] : NAN;
    row->max = n ? v[n - 1] : NAN;
    row->median = !n ? NAN : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    free(v);
}

/* Runs one generator; 0, or an exit status. */
static int simulate(const struct val_args *a, struct val_row *row)
{
    struct cli_run_args ra = {.config = a->config,
                              .gen = row->algo->spec,
                              .threads = (uint64_t)row->threads,
                              .iterations = a->iterations,
                              .seed = 1};
    memcpy(ra.sets, a->sets, a->nsets * sizeof a->sets[0]);
    ra.nsets = a->nsets;
    struct cli_session ss;
    int bad = cli_session_open(&ra, &ss);
    if (bad)
        return bad;
    struct core_run_opts o = {.watchdog_ps = machine_watchdog_ps(ss.mc, MACHINE_WATCHDOG_PS),
                              .max_reports = 10};
    struct core_result r;
    core_run(&ss.w, ss.p, &o, &r, &ss.d);
    int status = r.input_error ? SIM_EXIT_INPUT : r.deadlock || r.time_limit ? SIM_EXIT_FAIL : 0;
    if (status == SIM_EXIT_FAIL)
        fprintf(stderr,
                "ccsim validate: %s at %d threads did not finish (%s, above): no "
                "measurement, and validate stops\n",
                row->algo->spec, row->threads,
                r.deadlock ? "a deadlock" : "its simulated-time limit");
    if (!status && r.value_errors) { /* a run that read wrong values measures nothing */
        fprintf(stderr,
                "ccsim validate: %s at %d threads read %llu wrong value%s (above): no "
                "measurement\n",
                row->algo->spec, row->threads, (unsigned long long)r.value_errors,
                r.value_errors == 1 ? "" : "s");
        status = SIM_EXIT_FAIL;
    }
    if (!status)
        stats(&r, row);
    core_result_free(&r);
    cli_session_close(&ss);
    return status;
}

/* Why a model gives no band: a parameter it needs is NaN on this machine. */
static const char no_value[] = "a parameter its equations need has no value here";

static void judge(const struct val_args *a, const struct val_machine *vm,
                  const struct val_params *p, struct val_row *row)
{
    row->modelled = val_model(row->algo, row->threads, vm, p, &row->band, &row->why);
    if (row->modelled && !(isfinite(row->band.min) && isfinite(row->band.max))) {
        row->modelled = false; /* a parameter it needs has no value on this machine */
        row->why = no_value;
    }
    /* fitted parameters can invert a band (T_min > T_max): judge the interval */
    double lo = fmin(row->band.min, row->band.max), hi = fmax(row->band.min, row->band.max);
    row->in_band = row->modelled && row->median >= lo * (1 - a->tolerance) &&
                   row->median <= hi * (1 + a->tolerance);
    row->min_in_band = row->modelled && row->min >= lo * (1 - a->tolerance);
    row->max_in_band = row->modelled && row->max <= hi * (1 + a->tolerance);
}

static void print_header(const struct val_args *a, const struct machine_cfg *m,
                         const struct val_params *p, bool table)
{
    printf("ccsim validate: %s (%s, %s, %lld cores, %lld socket%s), params %s, %llu iterations "
           "(the first dropped), seed 1, tolerance %.0f %%\n",
           m->machine.name, m->machine.protocol, m->machine.topology, (long long)m->machine.cores,
           (long long)m->machine.sockets, m->machine.sockets == 1 ? "" : "s", a->params,
           (unsigned long long)a->iterations, 100 * a->tolerance);
    const char *names[] = {"R_L", "R_R", "R_Q", "R_I", "R_QI", "b", "c", "q", "o"};
    const double v[] = {p->r_l, p->r_r, p->r_q, p->r_i, p->r_qi, p->b, p->c, p->mq, p->mo};
    printf("params (ns):");
    for (size_t i = 0; i < SIM_COUNT_OF(v); i++)
        if (isfinite(v[i]) && v[i] != 0)
            printf("  %s %.2f", names[i], v[i]);
        else
            printf("  %s -", names[i]);
    if (p->xq > 0 || p->xo > 0)
        printf("  inter-socket q %.2f o %.2f c %.2f", p->xq, p->xo, p->xc);
    printf("\n");
    if (strcmp(a->params, "fitted") == 0)
        printf("(fitted: ccsim microbench's figures, measured the paper's way: c from Table 2 "
               "E/E, q and o from Table 3 intra (Table 4 E/E on a tag-directory machine); b by "
               "Eq 2's definition R_L + R_R - c, not its least-squares b)\n");
    else if (p->c > 0 && fabs(p->b - (p->r_l + p->r_r - p->c)) > 0.05)
        printf("(contention T_C(n) by Eq 2's definition R_L + R_R + c (n - 1): %.1f ns at one "
               "reader; the table's least-squares b gives b + c = %.1f there, and is used only "
               "where the paper names b: Sec 4.2.2's multi-line copy)\n",
               p->r_l + p->r_r, p->b + p->c);
    if (!table)
        return;
    printf("in band: T_min (1 - tol) <= median <= T_max (1 + tol) (min and max swapped if "
           "T_min > T_max); error = (median - T_min) / T_min;\nmin, max: whether the simulated "
           "min >= T_min (1 - tol) and the simulated max <= T_max (1 + tol), swapped alike\n");
    printf("%-26s %7s %9s %9s %9s %9s %9s %7s %8s %4s %4s\n", "algorithm (times in ns)", "threads",
           "sim min", "median", "max", "T_min", "T_max", "in band", "error", "min", "max");
}

/* A figure in a column of `width`: "-" when there is none (never nan). */
static void print_num(int width, double v)
{
    if (isfinite(v))
        printf(" %*.1f", width, v);
    else
        printf(" %*s", width, "-");
}

static void print_row(const struct val_row *r)
{
    printf("%-26s %7d", r->algo->spec, r->threads);
    print_num(9, r->min);
    print_num(9, r->median);
    print_num(9, r->max);
    if (r->modelled)
        printf(" %9.1f %9.1f %7s %+7.1f%% %4s %4s%s\n", r->band.min, r->band.max,
               r->in_band ? "yes" : "no", 100 * (r->median - r->band.min) / r->band.min,
               r->min_in_band ? "yes" : "no", r->max_in_band ? "yes" : "no",
               r->band.min > r->band.max ? "  (T_min > T_max)" : "");
    else
        printf("  no model: %s\n", r->why);
}

static void json_num(FILE *f, const char *key, double v)
{
    if (isfinite(v))
        fprintf(f, ", \"%s\": %.3f", key, v);
    else
        fprintf(f, ", \"%s\": null", key);
}

static void json_row(FILE *f, const struct val_row *r)
{
    fprintf(f, "{\"algorithm\": ");
    cli_json_string(f, r->algo->spec);
    fprintf(f, ", \"threads\": %d", r->threads);
    json_num(f, "sim_min_ns", r->min);
    json_num(f, "sim_median_ns", r->median);
    json_num(f, "sim_max_ns", r->max);
    json_num(f, "model_min_ns", r->modelled ? r->band.min : NAN);
    json_num(f, "model_max_ns", r->modelled ? r->band.max : NAN);
    fprintf(f, ", \"in_band\": %s", !r->modelled ? "null" : r->in_band ? "true" : "false");
    fprintf(f, ", \"min_in_band\": %s", !r->modelled ? "null" : r->min_in_band ? "true" : "false");
    fprintf(f, ", \"max_in_band\": %s}", !r->modelled ? "null" : r->max_in_band ? "true" : "false");
}

static bool write_json(const struct val_args *a, const struct machine_cfg *m,
                       const struct val_row *rows, int n, const double fraction[3])
{
    FILE *f = cli_json_open(a->json);
    if (!f)
        return false;
    fprintf(f, "{");
    cli_json_config(f, m->path, a->sets, a->nsets);
    fprintf(f, ", \"machine\": ");
    cli_json_string(f, m->machine.name);
    fprintf(f, ", \"params\": ");
    cli_json_string(f, a->params);
    fprintf(f, ", \"seed\": 1, \"tolerance\": %.3f,\n \"rows\": [", a->tolerance);
    for (int i = 0; i < n; i++) {
        fprintf(f, "%s\n  ", i ? "," : "");
        json_row(f, &rows[i]);
    }
    const char *keys[3] = {"in_band_fraction", "min_in_band_fraction", "max_in_band_fraction"};
    for (int i = 0; i < 3; i++) {
        fprintf(f, "%s\"%s\": ", i ? ", " : "],\n ", keys[i]);
        if (isfinite(fraction[i]))
            fprintf(f, "%.4f", fraction[i]);
        else
            fprintf(f, "null");
    }
    fprintf(f, "}\n");
    return cli_json_close(f, a->json);
}

/* Runs every selected algorithm at every thread count; fills rows. */
static int run_all(const struct val_args *a, const struct val_machine *vm,
                   const struct val_params *p, struct val_row *rows, int *n)
{
    /* thread counts were checked against the machine when read */
    for (int k = 0; k < val_nalgos; k++) {
        if (!selected(a, &val_algos[k]))
            continue;
        for (int t = 0; t < a->nthreads; t++) {
            if (!val_runs(&val_algos[k], a->threads[t])) {
                if (a->threads_given) /* asked for: not dropped unsaid */
                    fprintf(stderr, "ccsim validate: %s runs exactly 2 threads: left out at %d\n",
                            val_algos[k].spec, a->threads[t]);
                continue;
            }
            struct val_row *r = &rows[*n];
            *r = (struct val_row){.algo = &val_algos[k], .threads = a->threads[t]};
            int bad = simulate(a, r);
            if (bad)
                return bad;
            judge(a, vm, p, r);
            print_row(r);
            fflush(stdout);
            ++*n;
        }
    }
    return 0;
}

/* --plot: one PNG per algorithm (rows of one algorithm are consecutive). */
static bool plot_all(const struct val_args *a, const struct machine_cfg *m,
                     const struct val_row *rows, int n)
{
    struct plot_band_point *pts = calloc((size_t)(n ? n : 1), sizeof *pts);
    char about[300];
    snprintf(about, sizeof about, "%s, params %s, %llu iterations; in band: within %.0f %%",
             m->machine.name, a->params, (unsigned long long)a->iterations, 100 * a->tolerance);
    bool ok = true;
    int plots = 0;
    for (int i = 0, j; i < n && ok; i = j, plots++) {
        int k = 0;
        for (j = i; j < n && rows[j].algo == rows[i].algo; j++, k++) {
            const struct val_row *r = &rows[j];
            pts[k] = (struct plot_band_point){r->threads,  r->min,      r->median,  r->max,
                                              r->band.min, r->band.max, r->modelled};
        }
        ok = plot_validate(a->plot, rows[i].algo->spec, about, pts, k);
    }
    free(pts);
    if (ok && plots)
        printf("plots: %d in %s/ (NAME.png, with NAME.dat and NAME.gp)\n", plots, a->plot);
    else if (ok)
        printf("plots: none (no point ran)\n");
    return ok;
}

/* ---------------------------------------------------------------- --optimize */

#define VAL_OPT_MAX 8

/* One family of candidates: generator specs, their model and the simulation. */
struct val_opt {
    const char *title, *eqs;
    struct val_algo cand[VAL_OPT_MAX];
    char specs[VAL_OPT_MAX][8192];
    char names[VAL_OPT_MAX][64]; /* for the table */
    int *parents[VAL_OPT_MAX];   /* a searched tree: its parents (its model) */
    int n;
    char left_out[160]; /* a candidate not run, and why ("" when none) */
};

static void opt_diss(struct val_opt *o)
{
    *o = (struct val_opt){.title = "barrier-dissemination", .eqs = "Eq 27 (Eq 29 on GOLS)"};
    for (int m = 1; m <= 7; m++, o->n++) {
        snprintf(o->specs[o->n], sizeof o->specs[0], "barrier-dissemination:m=%d", m);
        snprintf(o->names[o->n], sizeof o->names[0], "barrier-dissemination:m=%d", m);
        o->cand[o->n] = (struct val_algo){o->specs[o->n], VAL_DISS, m, "", VAL_SHAPE_FLAT};
    }
}

/* flat, binary, binomial, and the tree Eq 32's search picks (one socket). */
static void opt_bcast(struct val_opt *o, const struct val_machine *vm, const struct val_params *p,
                      int threads)
{
    static const char *names[] = {"flat", "binary", "binomial"};
    *o = (struct val_opt){.title = "bcast-tree", .eqs = "Eq 32"};
    for (int k = 0; k < 3; k++, o->n++) {
        snprintf(o->specs[o->n], sizeof o->specs[0], "bcast-tree:shape=%s", names[k]);
        snprintf(o->names[o->n], sizeof o->names[0], "bcast-tree:shape=%s", names[k]);
        o->cand[o->n] = (struct val_algo){o->specs[o->n], VAL_BCAST_TREE, 0, "", (enum val_shape)k};
    }
    if (threads > vm->cores / vm->sockets) {
        snprintf(o->left_out, sizeof o->left_out,
                 "the searched tree is left out: its search models one socket (%d threads, %d "
                 "cores a socket)",
                 threads, vm->cores / vm->sockets);
        return;
    }
    if (threads > 1024) {
        snprintf(o->left_out, sizeof o->left_out,
                 "the searched tree is left out: its search covers up to 1024 threads");
        return;
    }
    int *parent = malloc((size_t)threads * sizeof *parent);
    val_bcast_search(p, threads, vm->phi, parent);
    int len = snprintf(o->specs[o->n], sizeof o->specs[0], "bcast-tree:shape=parents:");
    int kids = 0;
    for (int t = 0; t < threads && len < (int)sizeof o->specs[0]; t++) {
        len += snprintf(o->specs[o->n] + len, sizeof o->specs[0] - (size_t)len, "%s%d",
                        t ? "/" : "", parent[t]);
        kids += parent[t] == 0;
    }
    if (len >= (int)sizeof o->specs[0]) {
        snprintf(o->left_out, sizeof o->left_out,
                 "the searched tree is left out: its parents do not fit a generator spec");
        free(parent);
        return;
    }
    snprintf(o->names[o->n], sizeof o->names[0], "searched (root has %d children)", kids);
    o->cand[o->n] = (struct val_algo){o->specs[o->n], VAL_BCAST_TREE, 0, "", VAL_SHAPE_FLAT};
    o->parents[o->n++] = parent;
}

static void opt_free(struct val_opt *o)
{
    for (int i = 0; i < o->n; i++)
        free(o->parents[i]);
}

/* How the model's pick (simulated median `pick`) compares with the
 * baseline's (`base`): faster, slower or the same, never "0.86x faster". */
static void print_pick(double pick, double base, const char *base_name)
{
    if (pick < base)
        printf("  the model's pick simulates %.2fx faster than %s\n", base / pick, base_name);
    else if (pick > base)
        printf("  the model's pick simulates %.2fx slower than %s\n", pick / base, base_name);
    else
        printf("  the model's pick simulates as fast as %s\n", base_name);
}

/* Simulates and models every candidate; prints the table and the choices. */
static int opt_run(const struct val_args *a, const struct val_machine *vm,
                   const struct val_params *p, const struct val_opt *o, int threads)
{
    int best_model = -1, best_sim = -1;
    double tmin[VAL_OPT_MAX] = {0}, med[VAL_OPT_MAX] = {0};
    printf("\n%s, %d threads: model T_min (%s) and simulated median\n", o->title, threads, o->eqs);
    printf("  %-34s %10s %10s\n", "candidate", "T_min", "median");
    for (int i = 0; i < o->n; i++) {
        struct val_row r = {.algo = &o->cand[i], .threads = threads};
        int bad = simulate(a, &r);
        if (bad)
            return bad;
        const char *why = NULL;
        struct val_band b;
        if (o->parents[i])
            tmin[i] = val_bcast_parents(p, o->parents[i], threads, vm->phi).min;
        else
            tmin[i] = val_model(&o->cand[i], threads, vm, p, &b, &why) ? b.min : NAN;
        med[i] = r.median;
        if (isfinite(tmin[i]) && (best_model < 0 || tmin[i] < tmin[best_model]))
            best_model = i;
        if (best_sim < 0 || med[i] < med[best_sim])
            best_sim = i;
        printf("  %-34s", o->names[i]);
        print_num(10, tmin[i]);
        print_num(10, med[i]);
        if (!isfinite(tmin[i]))
            printf("   (no model: %s)", why ? why : no_value);
        printf("\n");
    }
    if (o->left_out[0])
        printf("  (%s)\n", o->left_out);
    printf("  model's best: %s; simulated best: %s; speed-up of the simulated best over %s: "
           "%.2fx\n",
           best_model >= 0 ? o->names[best_model] : "- (no model)", o->names[best_sim], o->names[0],
           med[0] / med[best_sim]);
    if (best_model == 0)
        printf("  the model's pick is %s itself\n", o->names[0]);
    else if (best_model > 0)
        print_pick(med[best_model], med[0], o->names[0]);
    for (int i = 0; i < o->n; i++)
        if (o->parents[i])
            printf("  the searched tree: %s\n", o->specs[i] + strlen("bcast-tree:shape="));
    return 0;
}

static int optimize(const struct val_args *a, const struct val_machine *vm,
                    const struct val_params *p)
{
    struct val_opt o;
    int threads = a->threads_given ? a->threads[0] : vm->cores; /* as --help says */
    opt_diss(&o);
    int bad = opt_run(a, vm, p, &o, threads);
    if (!bad) {
        opt_bcast(&o, vm, p, threads);
        bad = opt_run(a, vm, p, &o, threads);
        opt_free(&o);
    }
    return bad;
}

static int finish(const struct val_args *a, const struct machine_cfg *m, const struct val_row *rows,
                  int n)
{
    int in = 0, min_in = 0, max_in = 0, modelled = 0;
    for (int i = 0; i < n; i++) {
        modelled += rows[i].modelled;
        in += rows[i].in_band;
        min_in += rows[i].min_in_band;
        max_in += rows[i].max_in_band;
    }
    if (n == 0) { /* "0 of 0 points in band" would be a claim about nothing */
        fprintf(stderr,
                "ccsim validate: no algorithm ran at these thread counts on %s: nothing "
                "to compare\n",
                m->machine.name);
        return SIM_EXIT_INPUT;
    }
    double fraction[3] = {NAN, NAN, NAN};
    if (modelled)
        fraction[0] = (double)in / modelled, fraction[1] = (double)min_in / modelled,
        fraction[2] = (double)max_in / modelled;
    if (!modelled) /* "0 of 0 points in band (0 %)" would be a claim about nothing */
        printf("no point has a model here (the rows say why): nothing in or out of band\n");
    else {
        printf("%d of %d points in band (%.0f %%)\n", in, modelled, 100 * fraction[0]);
        printf("simulated min >= T_min (1 - tol) at %d of %d points (%.0f %%), simulated max <= "
               "T_max (1 + tol) at %d (%.0f %%)\n",
               min_in, modelled, 100 * fraction[1], max_in, 100 * fraction[2]);
    }
    if (a->json && !write_json(a, m, rows, n, fraction))
        return SIM_EXIT_INPUT;
    if (a->plot && !plot_all(a, m, rows, n))
        return SIM_EXIT_INPUT; /* a chart that cannot be drawn is the output's fault, not a check */
    return SIM_EXIT_OK;
}

/* Where a generator's threads run (validate.h, struct val_machine). */
static void machine_of(const struct machine_cfg *m, struct val_machine *vm)
{
    vm->cores = (int)m->machine.cores;
    vm->sockets = m->machine.sockets > 0 ? (int)m->machine.sockets : 1;
    vm->phi = m->memsys->tag_directory;
}

int cli_validate(int argc, char **argv)
{
    struct val_args a = {.iterations = 20, .tolerance = 0.10};
    int bad = parse_args(argc, argv, &a);
    if (bad || (bad = check_gens(&a)))
        return bad;
    static struct machine_cfg m;
    if (!cli_load_machine(a.config, a.sets, a.nsets, &m))
        return SIM_EXIT_INPUT;
    if (!m.memsys->coherent)
        return cli_usage_error("validate",
                               "%s keeps no coherence (protocol %s): the models validate checks "
                               "are for coherent machines; ccsim microbench -c %s compares its "
                               "figures with the paper's",
                               m.machine.name, m.machine.protocol, a.config);
    if (a.optimize && (a.json || a.plot || a.ngens))
        return cli_usage_error("validate", "--optimize prints its own comparison: --json, --plot "
                                           "and -w do not apply to it");
    struct val_machine vm;
    machine_of(&m, &vm);
    if (a.json && !cli_check_output("validate", "--json", a.json))
        return SIM_EXIT_INPUT;
    if (a.json && strcmp(a.json, "-") == 0 && !cli_json_stdout("validate"))
        return SIM_EXIT_INPUT;
    a.threads_given = a.nthreads > 0;
    long long cap = m.machine.cores * m.machine.threads_per_core;
    for (int i = 0; i < a.nthreads; i++)
        if (a.threads[i] > cap)
            return cli_usage_error("validate",
                                   "--threads %d: %s runs at most %lld threads (%lld cores x %lld "
                                   "hardware thread(s))",
                                   a.threads[i], m.machine.name, cap, (long long)m.machine.cores,
                                   (long long)m.machine.threads_per_core);
    if (a.nthreads == 0)
        default_threads(&a, vm.cores);
    struct val_params p;
    if ((bad = get_params(&a, &m, &p)))
        return bad;
    struct rates_cache rates = {.m = &m};
    p.rates = measure_rates;
    p.rates_ctx = &rates;
    if (a.optimize) {
        print_header(&a, &m, &p, false);
        return optimize(&a, &vm, &p);
    }
    print_header(&a, &m, &p, true);
    struct val_row *rows = calloc((size_t)val_nalgos * VAL_MAX_T, sizeof *rows);
    int n = 0;
    bad = run_all(&a, &vm, &p, rows, &n);
    if (!bad)
        bad = finish(&a, &m, rows, n);
    free(rows);
    return bad;
}
