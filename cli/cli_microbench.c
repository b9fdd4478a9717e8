/*
 * cli_microbench.c -- `ccsim microbench`: the measured line-transfer costs as
 * a table beside the papers' figures, and as JSON (docs/DESIGN.md).
 */
#include "cli.h"
#include "microbench.h"
#include "validate.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* One figure beside the paper's; a figure the machine does not have is
 * "-", never nan. */
static void row_why(const char *name, double sim, double paper, const char *why)
{
    if (isnan(sim)) {
        printf("  %-31s %10s   (%s)\n", name, "-", why);
        return;
    }
    printf("  %-31s %10.1f", name, sim);
    if (paper > 0)
        printf(" %10.1f %+8.1f %%\n", paper, 100.0 * (sim - paper) / paper);
    else
        printf("          -        -\n");
}

static void row(const char *name, double sim, double paper)
{
    row_why(name, sim, paper, "not on this machine");
}

/* A figure measured unlike the paper's (another buffer state, no polling):
 * no paper figure or error beside it, and where the paper's way is. A row
 * the config has no paper figure for is an ordinary one. */
static void row_unlike(const char *name, double sim, double paper, const char *note)
{
    if (isnan(sim)) { /* a fit of points all at one x (one reader on 2 cores) */
        row_why(name, sim, paper, "measured at one size only: no line to fit");
        return;
    }
    if (!(paper > 0)) {
        row(name, sim, paper);
        return;
    }
    printf("  %-31s %10.1f          -        -     %s\n", name, sim, note);
}

static void points(const char *what, const struct mb_point *p, int n)
{
    printf("  %s:", what);
    for (int i = 0; i < n; i++)
        printf(" %g:%.0f", p[i].x, p[i].ns);
    printf("\n");
}

/* The SCC's figures in core cycles beside seed 004's. The paper gives the
 * own tile's MPB (45 core + 8 mesh cycles, through its own router) and
 * DRAM (40 core + 8 d mesh cycles, d "the number of hops"), which ccsim
 * reads as routers crossed, hops + 1, as the own tile's 8 mesh cycles
 * cross one router; an MPB further away has no paper figure. */
static void print_scc(struct machine_cfg *m, const struct mb_result *r)
{
    double core = m->machine.clock_ghz, mesh = machine_float(m, "mesh.clock_ghz");
    printf("  SCC latencies, core cycles (paper: seed 004 Sec IV-D: the own tile's MPB 45 core + "
           "8 mesh cycles; no other MPB;\n  DRAM 40 core + 8 d mesh cycles, d the hops, read as "
           "routers crossed, hops + 1, as the own MPB's 8 cross one router)\n");
    printf("  %-31s %10s %10s %10s\n", "", "simulated", "paper", "error");
    char name[64];
    row("MPB, own tile (cycles)", r->mpb_local_cycles, val_scc_mpb_cycles(1, core, mesh));
    for (int i = 0; i < r->nmpb; i++) {
        snprintf(name, sizeof name, "MPB, %g hop(s) (cycles)", r->mpb[i].x);
        row(name, r->mpb[i].ns, NAN); /* the paper measured the own tile's only */
    }
    for (int i = 0; i < r->ndram; i++) {
        snprintf(name, sizeof name, "DRAM, %g hop(s) to MC (cycles)", r->dram[i].x);
        row(name, r->dram[i].ns, val_scc_dram_cycles((int)r->dram[i].x + 1, core, mesh));
    }
}

static void print_table(struct machine_cfg *m, const struct mb_result *r)
{
    const struct machine_model_sec *p = &m->model;
    printf("microbench %s (%s, %s, %lld cores)\n", m->machine.name, m->machine.protocol,
           m->machine.topology, (long long)m->machine.cores);
    printf("  %-31s %10s %10s %10s\n", "", "simulated", "paper", "error");
    row("R_L  own cache (ns)", r->r_l, p->R_L_ns);
    long long cps = m->machine.cores / m->machine.sockets, cpc = m->machine.cores_per_cache;
    row(cps > cpc ? "R_R  other core (ns)" : "R_R  same-cache core (ns)", r->r_r, p->R_R_ns);
    row("R_Q  other socket (ns)", r->r_q, p->R_Q_ns);
    row("R_I  memory (ns)", r->r_i, p->R_I_ns);
    row("R_QI other socket's memory (ns)", r->r_qi, p->R_QI_ns);
    const char *t2 = "(send line M: Table 2 E/E below is the paper's)";
    row_unlike("contention b (ns)", r->contention_b, p->contention_b_ns, t2);
    row_unlike("contention c (ns/thread)", r->contention_c, p->contention_c_ns, t2);
    if (r->ncongestion)
        row_unlike("congestion c (ns/pair)", r->congestion_c, p->congestion_c_ns,
                   "(one line each: Table 3 inter below is the paper's)");
    const char *ml = p->n_table4_EE == 3      ? "(a copy, no polling: Table 4 E/E below)"
                     : p->n_table3_intra == 3 ? "(a copy, no polling: Table 3 intra below)"
                                              : "(a copy, not the paper's ping-pong)";
    row_unlike("multi-line q (ns)", r->multiline_q, p->multiline_q_ns, ml);
    row_unlike("multi-line o (ns/line)", r->multiline_o, p->multiline_o_ns, ml);
    points("contention threads:ns", r->contention, r->ncontention);
    if (r->ncongestion)
        points("congestion pairs:ns", r->congestion, r->ncongestion);
    points(r->scc ? "multi-line lines:ns (core 0 copies N lines out of the last core's MPB)"
                  : "multi-line lines:ns (N lines another core modified, in socket 0's memory, "
                    "copied)",
           r->multiline, r->nmultiline);
    if (r->scc)
        print_scc(m, r);
}

/* ------------------------------------------------------------ Tables 2-4 */

/* The paper's row (3 numbers) from the config's model section, or NULL. */
static const double *paper_row(const struct machine_model_sec *p, int table, int row)
{
    const double *t2[] = {p->table2_EE, p->table2_EI, p->table2_IE, p->table2_II};
    const int n2[] = {p->n_table2_EE, p->n_table2_EI, p->n_table2_IE, p->n_table2_II};
    const double *t4[] = {p->table4_EE, p->table4_EI, p->table4_IE, p->table4_II};
    const int n4[] = {p->n_table4_EE, p->n_table4_EI, p->n_table4_IE, p->n_table4_II};
    if (table == 2)
        return n2[row] == 3 ? t2[row] : NULL;
    if (table == 4)
        return n4[row] == 3 ? t4[row] : NULL;
    const double *t3 = row ? p->table3_inter : p->table3_intra;
    return (row ? p->n_table3_inter : p->n_table3_intra) == 3 ? t3 : NULL;
}

/* One coefficient: simulated (paper, error). */
static void coef(const char *name, double sim, const double *paper, int i, bool error)
{
    if (isnan(sim)) { /* not fitted (e.g. Eq 2 has no a): no figure */
        printf("  %s %7s", name, "-");
        error = false;
    } else
        printf("  %s %7.1f", name, sim);
    if (!paper)
        printf(" (     -)");
    else if (error && paper[i] != 0)
        printf(" (%6.1f %+6.1f %%)", paper[i], 100.0 * (sim - paper[i]) / paper[i]);
    else
        printf(" (%6.1f)", paper[i]);
}

static void curve(int table, const struct mb_row *row, const double *paper)
{
    double worst = paper ? mb_curve_error(table, row, paper) : NAN;
    if (isnan(worst))
        printf("  curve x>=8      -\n");
    else
        printf("  curve x>=8 %+6.1f %%\n", 100.0 * worst);
}

static void table_row(int table, const char *name, const struct mb_row *row, const double *paper,
                      const char *const names[3], const bool errors[3])
{
    printf("    %-5s", name);
    for (int i = 0; i < 3; i++)
        coef(names[i], row->k[i], paper, i, errors[i]);
    curve(table, row, paper);
}

static void print_tables(const struct machine_cfg *m, const struct mb_tables *t)
{
    const struct machine_model_sec *p = &m->model;
    static const char *const t2[3] = {"b", "c", "a"}, *const t3[3] = {"q", "o", "c"},
                             *const t4[3] = {"q", "o", "p"};
    /* the errors of what a targets file may fit to: the slopes, and Eq 3's
     * b and a in the I rows (calibrate.h's table2_IE_b_ns ...) */
    static const bool slopes[3] = {false, true, false}, t3e[3] = {false, true, true},
                      eq3[3] = {true, true, true};
    printf("  seed 000 Table 2, contention: n threads copy one line (send/receive buffer E or I);\n"
           "  ns, b + c n (- a/n when the send line is in memory), simulated (paper, error: the\n"
           "  slopes', and Eq 3's b and a of the I rows, which a targets file may fit; the other\n"
           "  intercepts' errors are in the JSON)\n");
    for (int s = 0; s < MB_NSTATES; s++)
        table_row(2, mb_state_names[s], &t->table2[s], paper_row(p, 2, s), t2,
                  s == MB_IE || s == MB_II ? eq3 : slopes);
    printf("  seed 000 Table 3, multi-line ping-pong: n pairs at once, each sender copies N lines "
           "into its\n  receiver's buffer, which polls the last (buffers in E); q + o N + c n N\n");
    table_row(3, "intra", &t->table3_intra, paper_row(p, 3, 0), t3, t3e);
    if (t->table3_inter.n)
        table_row(3, "inter", &t->table3_inter, paper_row(p, 3, 1), t3, t3e);
    printf("  seed 000 Table 4, multi-line transfer: N lines copied to a polling thread;\n"
           "  q + o N - p/N\n");
    for (int s = 0; s < MB_NSTATES; s++)
        table_row(4, mb_state_names[s], &t->table4[s], paper_row(p, 4, s), t4, slopes);
}

static void json_num(FILE *f, const char *key, double v)
{
    if (isnan(v))
        fprintf(f, "\"%s\": null", key);
    else
        fprintf(f, "\"%s\": %.3f", key, v);
}

static void json_points(FILE *f, const struct mb_point *p, int n)
{
    fprintf(f, "\"points\": [");
    for (int i = 0; i < n; i++)
        fprintf(f, "%s[%g, %.3f]", i ? ", " : "", p[i].x, p[i].ns);
    fprintf(f, "]");
}

/* The paper's coefficients of a row and the error of each simulated one
 * (percent; null where the paper's is 0 or absent), and the curve's. */
static void json_paper(FILE *f, int table, const struct mb_row *row, const double *paper,
                       const char *const keys[3])
{
    if (!paper) {
        fprintf(f, "\"paper\": null, \"error_pct\": null, \"curve_error_pct\": null, ");
        return;
    }
    fprintf(f, "\"paper\": {");
    for (int i = 0; i < 3; i++) {
        fprintf(f, "%s", i ? ", " : "");
        json_num(f, keys[i], paper[i]);
    }
    fprintf(f, "}, \"error_pct\": {");
    for (int i = 0; i < 3; i++) {
        fprintf(f, "%s", i ? ", " : "");
        json_num(f, keys[i], paper[i] != 0 ? 100.0 * (row->k[i] - paper[i]) / paper[i] : NAN);
    }
    fprintf(f, "}, ");
    json_num(f, "curve_error_pct", 100.0 * mb_curve_error(table, row, paper));
    fprintf(f, ", ");
}

/* One row of Tables 2-4: its coefficients by name, the paper's with the
 * errors, and its points. */
static void json_row(FILE *f, int table, const char *name, const struct mb_row *row,
                     const double *paper, const char *const keys[3], bool threads)
{
    fprintf(f, "\"%s\": {", name);
    for (int i = 0; i < 3; i++) {
        json_num(f, keys[i], row->k[i]);
        fprintf(f, ", ");
    }
    json_paper(f, table, row, paper, keys);
    fprintf(f, "\"points\": [");
    for (int i = 0; i < row->n; i++) {
        fprintf(f, "%s[", i ? ", " : "");
        if (threads)
            fprintf(f, "%d, ", row->threads[i]);
        fprintf(f, "%g, %.3f]", row->pts[i].x, row->pts[i].ns);
    }
    fprintf(f, "]}");
}

/* Table 1: each figure with the paper's and its error (null where the
 * machine or the paper has none). */
static void json_table1(FILE *f, const struct machine_model_sec *p, const struct mb_result *r)
{
    const char *names[] = {"R_L", "R_R", "R_Q", "R_I", "R_QI"};
    const double sim[] = {r->r_l, r->r_r, r->r_q, r->r_i, r->r_qi};
    const double paper[] = {p->R_L_ns, p->R_R_ns, p->R_Q_ns, p->R_I_ns, p->R_QI_ns};
    fprintf(f, "\"table1\": {");
    for (int i = 0; i < 5; i++) {
        fprintf(f, "%s\"%s\": {", i ? ", " : "", names[i]);
        json_num(f, "ns", sim[i]);
        fprintf(f, ", ");
        json_num(f, "paper_ns", paper[i] > 0 ? paper[i] : NAN);
        fprintf(f, ", ");
        json_num(f, "error_pct",
                 paper[i] > 0 && !isnan(sim[i]) ? 100.0 * (sim[i] - paper[i]) / paper[i] : NAN);
        fprintf(f, "}");
    }
    fprintf(f, "},\n  ");
}

static void json_tables(FILE *f, const struct machine_model_sec *p, const struct mb_result *r,
                        const struct mb_tables *t)
{
    static const char *const ids[MB_NSTATES] = {"EE", "EI", "IE", "II"};
    static const char *const t2[3] = {"b_ns", "c_ns_per_thread", "a_ns_thread"};
    static const char *const t3[3] = {"q_ns", "o_ns_per_line", "c_ns_per_line_thread"};
    static const char *const t4[3] = {"q_ns", "o_ns_per_line", "p_ns_line"};
    fprintf(f, ",\n \"tables\": {");
    json_table1(f, p, r);
    fprintf(f, "\"table2\": {");
    for (int s = 0; s < MB_NSTATES; s++) {
        fprintf(f, "%s", s ? ", " : "");
        json_row(f, 2, ids[s], &t->table2[s], paper_row(p, 2, s), t2, false);
    }
    fprintf(f, "},\n  \"table3\": {");
    json_row(f, 3, "intra", &t->table3_intra, paper_row(p, 3, 0), t3, true);
    if (t->table3_inter.n) {
        fprintf(f, ", ");
        json_row(f, 3, "inter", &t->table3_inter, paper_row(p, 3, 1), t3, true);
    } else
        fprintf(f, ", \"inter\": null");
    fprintf(f, "},\n  \"table4\": {");
    for (int s = 0; s < MB_NSTATES; s++) {
        fprintf(f, "%s", s ? ", " : "");
        json_row(f, 4, ids[s], &t->table4[s], paper_row(p, 4, s), t4, false);
    }
    fprintf(f, "}}");
}

static bool write_json(const char *path, struct machine_cfg *m, const char *const *sets,
                       size_t nsets, const struct mb_result *r, const struct mb_tables *t)
{
    FILE *f = cli_json_open(path);
    if (!f)
        return false;
    fprintf(f, "{");
    cli_json_config(f, m->path, sets, nsets);
    fprintf(f, ", ");
    json_num(f, "R_L_ns", r->r_l);
    fprintf(f, ", ");
    json_num(f, "R_R_ns", r->r_r);
    fprintf(f, ", ");
    json_num(f, "R_Q_ns", r->r_q);
    fprintf(f, ", ");
    json_num(f, "R_I_ns", r->r_i);
    fprintf(f, ", ");
    json_num(f, "R_QI_ns", r->r_qi);
    fprintf(f, ",\n \"contention\": {");
    json_num(f, "b_ns", r->contention_b);
    fprintf(f, ", ");
    json_num(f, "c_ns_per_thread", r->contention_c);
    fprintf(f, ", ");
    json_points(f, r->contention, r->ncontention);
    if (r->ncongestion) {
        fprintf(f, "},\n \"congestion\": {");
        json_num(f, "c_ns_per_line_thread", r->congestion_c);
        fprintf(f, ", ");
        json_points(f, r->congestion, r->ncongestion);
        fprintf(f, "}");
    } else
        fprintf(f, "},\n \"congestion\": null");
    fprintf(f, ",\n \"multiline\": {");
    json_num(f, "q_ns", r->multiline_q);
    fprintf(f, ", ");
    json_num(f, "o_ns_per_line", r->multiline_o);
    fprintf(f, ", ");
    json_points(f, r->multiline, r->nmultiline);
    if (!r->scc) {
        fprintf(f, "},\n \"mpb\": null, \"dram\": null");
        if (t)
            json_tables(f, &m->model, r, t);
        else
            fprintf(f, ",\n \"tables\": null");
        fprintf(f, "}\n");
        return cli_json_close(f, path);
    }
    fprintf(f, "},\n \"mpb\": {");
    json_num(f, "local_cycles", r->mpb_local_cycles);
    fprintf(f, ", \"remote_cycles\": [");
    for (int i = 0; i < r->nmpb; i++)
        fprintf(f, "%s[%g, %.3f]", i ? ", " : "", r->mpb[i].x, r->mpb[i].ns);
    fprintf(f, "]},\n \"dram\": {\"cycles\": [");
    for (int i = 0; i < r->ndram; i++)
        fprintf(f, "%s[%g, %.3f]", i ? ", " : "", r->dram[i].x, r->dram[i].ns);
    fprintf(f, "]},\n \"tables\": null}\n");
    return cli_json_close(f, path);
}

int cli_microbench(int argc, char **argv)
{
    static const struct option longs[] = {{"config", required_argument, NULL, 'c'},
                                          {"set", required_argument, NULL, 's'},
                                          {"json", required_argument, NULL, 'J'},
                                          {"iterations", required_argument, NULL, 'i'},
                                          {0}};
    const char *config = NULL, *json = NULL, *sets[64];
    size_t nsets = 0;
    uint64_t iters = 21;
    int c, bad = 0;
    optind = 1;
    while ((c = cli_next_opt("microbench", argc, argv, ":c:s:i:", longs, &bad)) != -1) {
        if (bad)
            return bad;
        if (c == 'c')
            config = optarg;
        else if (c == 'J')
            json = optarg;
        else if (c == 'i' && !cli_parse_u64("microbench", "-i", optarg, 2, 100000, &iters))
            return SIM_EXIT_INPUT;
        else if (c == 's') {
            if (nsets == SIM_COUNT_OF(sets))
                return cli_usage_error("microbench", "too many --set (at most 64)");
            sets[nsets++] = optarg;
        }
    }
    if (optind < argc)
        return cli_usage_error("microbench", "unexpected argument '%s'", argv[optind]);
    if (!config)
        return cli_usage_error("microbench", "-c CONFIG is required");
    if (json && !cli_check_output("microbench", "--json", json))
        return SIM_EXIT_INPUT;
    if (json && strcmp(json, "-") == 0 && !cli_json_stdout("microbench"))
        return SIM_EXIT_INPUT;
    struct machine_cfg m;
    if (!cli_load_machine(config, sets, nsets, &m))
        return SIM_EXIT_INPUT;
    struct sim_diag d;
    sim_diag_init(&d);
    if (!mb_machine_fits(&m, &d)) { /* refused before anything was measured */
        sim_diag_print(&d);
        return SIM_EXIT_INPUT;
    }
    struct mb_result r;
    if (!mb_run(&m, (int)iters, &r, &d)) {
        sim_diag_print(&d);
        fprintf(stderr, "ccsim microbench: a measurement failed (see above)\n");
        return d.count ? SIM_EXIT_INPUT : SIM_EXIT_FAIL;
    }
    print_table(&m, &r);
    static struct mb_tables t;
    bool tables = m.memsys->coherent;
    if (tables && !mb_tables(&m, (int)iters, &t, &d)) {
        sim_diag_print(&d);
        fprintf(stderr,
                "ccsim microbench: a measurement of seed 000's tables failed (see above)\n");
        return d.count ? SIM_EXIT_INPUT : SIM_EXIT_FAIL;
    }
    if (tables)
        print_tables(&m, &t);
    else
        printf("  seed 000's Tables 2-4: not measured (they need a coherent machine; %s is not)\n",
               m.machine.name);
    if (json && !write_json(json, &m, sets, nsets, &r, tables ? &t : NULL))
        return SIM_EXIT_INPUT;
    return SIM_EXIT_OK;
}
