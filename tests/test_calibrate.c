/*
 * test_calibrate.c -- `ccsim calibrate` (cli/calibrate.h): targets produced
 * by simulating a tiny machine with known parameters are recovered from
 * other starting values, the fitted config loads and measures the targets,
 * and bad targets files, parameters and options are refused with messages.
 */
#include "calibrate.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct tu_run r;

/* A teaching machine whose home occupancy and crossbar latency are given. */
static const char *machine_text(const char *name, int occupancy, double latency)
{
    static char text[1024];
    snprintf(text, sizeof text,
             "machine = { name = \"%s\"; protocol = \"mesi\"; topology = \"xbar\";\n"
             "  cores = 4; clock_ghz = 1.0; line_bytes = 64; };\n"
             "core = { mshrs = 4; poll_cycles = 0; };\n"
             "l1 = { size_kb = 32; ways = 8; latency_cycles = 2; };\n"
             "memory = { latency_ns = 50.0; };\n"
             "home = { count = 2; occupancy_cycles = %d; lookup_cycles = 3; };\n"
             "xbar = { latency_ns = %.1f; };\n",
             name, occupancy, latency);
    return text;
}

/* The machine in `path` (a config calibrate wrote), loaded. */
static void load_fitted(const char *path, struct machine_cfg *m)
{
    struct sim_diag d;
    sim_diag_init(&d);
    ck_assert_msg(machine_load(m, path, NULL, 0, &d), "%s", d.text);
}

/* The microbenchmark figures of the machine in `path`. */
static struct mb_result measure(const char *path)
{
    static struct machine_cfg m;
    load_fitted(path, &m);
    struct sim_diag d;
    sim_diag_init(&d);
    struct mb_result res;
    ck_assert_msg(mb_run(&m, 21, &res, &d), "%s", d.text);
    return res;
}

/* A test's files, named with its tag: the starting config (machine_text's
 * "start" unless start_text says otherwise), a targets file of
 * targets_text, and where the fitted config goes. */
struct case_files {
    char start[512], targets[512], out[512];
};

static void case_files(const char *tag, const char *start_text, const char *targets_text,
                       struct case_files *f)
{
    char name[64];
    snprintf(name, sizeof name, "start-%s.cfg", tag);
    snprintf(f->start, sizeof f->start, "%s",
             tu_write(name, start_text ? start_text : machine_text("start", 1, 5.0)));
    snprintf(name, sizeof name, "targets-%s.cfg", tag);
    snprintf(f->targets, sizeof f->targets, "%s", tu_write(name, targets_text));
    snprintf(f->out, sizeof f->out, "%s/fitted-%s.cfg", tu_dir(), tag);
}

START_TEST(test_recovers_known_parameters)
{
    char truth[512];
    snprintf(truth, sizeof truth, "%s", tu_write("truth.cfg", machine_text("truth", 7, 23.0)));
    struct mb_result t = measure(truth);
    char text[1024];
    snprintf(text, sizeof text,
             "targets = { source = \"truth.cfg\";\n"
             "  R_R_ns = %.17g; R_I_ns = %.17g; contention_c_ns = %.17g;\n"
             "  multiline_o_ns = %.17g;\n"
             "  params = [\"home.occupancy_cycles\", \"xbar.latency_ns\"]; };\n",
             t.r_r, t.r_i, t.contention_c, t.multiline_o);
    struct case_files files;
    case_files("known", NULL, text, &files);
    tu_ccsim(&r, "calibrate -c %s --targets %s -o %s", files.start, files.targets, files.out);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    ck_assert_msg(strstr(r.out, "home.occupancy_cycles") && strstr(r.out, "fitted config:"), "%s",
                  r.out);
    /* the fitted config holds the truth and measures the targets */
    struct machine_cfg m;
    load_fitted(files.out, &m);
    ck_assert_int_eq(m.home.occupancy_cycles, 7);
    double lat = machine_float(&m, "xbar.latency_ns");
    ck_assert_msg(fabs(lat - 23.0) < 0.5, "xbar.latency_ns %f, want 23", lat);
    struct mb_result f = measure(files.out);
    ck_assert_msg(fabs(f.r_r - t.r_r) < 0.01 * t.r_r && fabs(f.r_i - t.r_i) < 0.01 * t.r_i &&
                      fabs(f.contention_c - t.contention_c) < 0.01 * t.contention_c &&
                      fabs(f.multiline_o - t.multiline_o) < 0.01 * t.multiline_o,
                  "R_R %f/%f R_I %f/%f c %f/%f o %f/%f", f.r_r, t.r_r, f.r_i, t.r_i, f.contention_c,
                  t.contention_c, f.multiline_o, t.multiline_o);
    /* every fitted value is marked with the targets' source */
    FILE *fp = fopen(files.out, "r");
    char line[2048];
    int marked = 0;
    while (fgets(line, sizeof line, fp))
        marked += strstr(line, "# calibrated: truth.cfg (ccsim calibrate") != NULL;
    fclose(fp);
    ck_assert_int_eq(marked, 2);
}
END_TEST

/* A row's curve as the target: the truth's Table 4 rows, fitted to Eq 5,
 * are recovered from another L1 latency (an integer: few evaluations); the
 * output gives each curve's largest deviation before and after. */
START_TEST(test_curve_targets)
{
    static struct machine_cfg m;
    static struct mb_tables t;
    load_fitted(tu_write("truth-c.cfg", machine_text("truth", 1, 5.0)), &m);
    struct sim_diag d;
    sim_diag_init(&d);
    ck_assert_msg(mb_tables(&m, 2, &t, &d), "%s", d.text);
    const double *ee = t.table4[MB_EE].k, *ii = t.table4[MB_II].k;
    char text[512];
    snprintf(text, sizeof text,
             "targets = { source = \"truth\";\n  table4_EE = [%.17g, %.17g, %.17g];\n"
             "  table4_II = [%.17g, %.17g, %.17g]; };\n",
             ee[0], ee[1], ee[2], ii[0], ii[1], ii[2]);
    char start[1024];
    snprintf(start, sizeof start, "%s", machine_text("start", 1, 5.0));
    char *l1 = strstr(start, "latency_cycles = 2;"); /* the l1's: the truth's 2, here 6 */
    ck_assert(l1 != NULL);
    l1[strlen("latency_cycles = ")] = '6';
    struct case_files f;
    case_files("curve", start, text, &f);
    tu_ccsim(&r, "calibrate -c %s --targets %s --params l1.latency_cycles -i 2 -o %s", f.start,
             f.targets, f.out);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    double before = 0, after = 0;
    const char *row = strstr(r.out, "\n  table4_EE ");
    ck_assert_msg(row && sscanf(strchr(row, ']') + 1, "%lf %% %lf %%", &before, &after) == 2, "%s",
                  r.out);
    ck_assert_msg(fabs(before) > 20 && fabs(after) < 5, "%s", r.out);
    ck_assert_msg(!strstr(r.out, "figure (ns)"), "%s", r.out); /* no figure given: no header */
    load_fitted(f.out, &m);
    ck_assert_int_eq(m.l1.latency_cycles, 2);
}
END_TEST

/* A key the file does not set goes into its section. */
START_TEST(test_absent_key_goes_into_its_section)
{
    struct case_files f;
    case_files("absent", NULL, "targets = { source = \"a test\"; R_R_ns = 60.0; };\n", &f);
    tu_ccsim(&r, "calibrate -c %s --targets %s --params core.snoop_cycles -o %s --max-evals 8",
             f.start, f.targets, f.out);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    struct machine_cfg m;
    load_fitted(f.out, &m);
    ck_assert_int_gt(m.core.snoop_cycles, 0);
}
END_TEST

/* A config that includes another: a key set only in the included file,
 * or a section only it has, is written as an override section into the
 * config itself (never onto a line of the wrong file); every --set the
 * measurements used is written too, so the file gives the figures printed. */
START_TEST(test_include_and_set_written)
{
    char base[512], text[2048];
    snprintf(base, sizeof base, "%s", tu_write("base3.cfg", machine_text("base", 1, 5.0)));
    snprintf(text, sizeof text, "@include \"%s\"\nmachine = { name = \"inc\"; };\n", base);
    struct case_files f;
    case_files("include", text, "targets = { source = \"a test\"; R_R_ns = 60.0; };\n", &f);
    tu_ccsim(&r,
             "calibrate -c %s --targets %s --params core.snoop_cycles -o %s --max-evals 12 "
             "--set home.lookup_cycles=9 --set machine.protocol=msi",
             f.start, f.targets, f.out);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    struct machine_cfg m;
    load_fitted(f.out, &m);
    ck_assert_int_gt(m.core.snoop_cycles, 0);
    ck_assert_int_eq(m.home.lookup_cycles, 9);
    ck_assert_int_eq(m.home.occupancy_cycles, 1); /* the included file's, kept */
    ck_assert_str_eq(m.machine.protocol, "msi");  /* a bare word --set, written quoted */
    /* a list's --set replaces the whole list on its line (its commas are its own) */
    snprintf(text, sizeof text, "%smodel = { table2_EE = [1.0, 2.0, 3.0]; };\n",
             machine_text("list", 1, 5.0));
    case_files("list", text, "targets = { source = \"a test\"; R_R_ns = 60.0; };\n", &f);
    tu_ccsim(&r,
             "calibrate -c %s --targets %s --params core.snoop_cycles -o %s --max-evals 4 "
             "--set 'model.table2_EE=[4.0, 5.0, 6.0]'",
             f.start, f.targets, f.out);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    load_fitted(f.out, &m);
    ck_assert(m.model.n_table2_EE == 3 && m.model.table2_EE[1] == 5.0);
    /* a relative @include written into another folder names its file by its
     * path (copied word for word it no longer resolved: the fitted config
     * did not load); the head says which -i the figures used */
    tu_write("base4.cfg", machine_text("base", 1, 5.0));
    case_files("relinc", "@include \"base4.cfg\"\nmachine = { name = \"inc\"; };\n",
               "targets = { source = \"a test\"; R_R_ns = 60.0; };\n", &f);
    char sub[400];
    snprintf(sub, sizeof sub, "%.380s/elsewhere", tu_dir());
    mkdir(sub, 0755);
    snprintf(f.out, sizeof f.out, "%s/fitted-relinc.cfg", sub);
    tu_ccsim(&r, "calibrate -c %s --targets %s --params core.snoop_cycles -o %s --max-evals 4 -i 3",
             f.start, f.targets, f.out);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    load_fitted(f.out, &m);
    ck_assert_int_eq(m.home.occupancy_cycles, 1); /* the included file's */
    FILE *in = fopen(f.out, "r");
    char head[4096] = "";
    ck_assert(in && fread(head, 1, sizeof head - 1, in) > 0);
    fclose(in);
    ck_assert_msg(strstr(head, "# Its figures were measured with -i 3: ccsim microbench -c THIS "
                               "-i 3 gives them.\n") &&
                      strstr(head, "base4.cfg\"") && strstr(head, "@include \"/"),
                  "%s", head);
}
END_TEST

START_TEST(test_bad_input)
{
    const char *start = tu_write("s3.cfg", machine_text("start", 1, 5.0));
    char s[512];
    snprintf(s, sizeof s, "%s", start);
    const char *bad = tu_write("bad.cfg", "targets = { source = \"x\"; R_X_ns = 3.0; };\n");
    tu_ccsim(&r, "calibrate -c %s --targets %s --params home.occupancy_cycles", s, bad);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "bad.cfg:1: ") && strstr(r.err, "R_X_ns"), "%s", r.err);
    const char *none = tu_write("none.cfg", "targets = { source = \"x\"; };\n");
    tu_ccsim(&r, "calibrate -c %s --targets %s --params home.occupancy_cycles", s, none);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "no figure given"), "%s", r.err);
    /* a trailing comma names nothing: refused, as ",," is (it was taken) */
    const char *good = tu_write("good.cfg", "targets = { source = \"x\"; R_R_ns = 60.0; };\n");
    tu_ccsim(&r, "calibrate -c %s --targets %s --params home.occupancy_cycles,", s, good);
    ck_assert_msg(r.status == 2 && strstr(r.err, "an empty name after the last comma"), "%s",
                  r.err);
    char ok[512];
    snprintf(ok, sizeof ok, "%s",
             tu_write("ok.cfg", "targets = { source = \"x\"; R_Q_ns = 90.0; };\n"));
    tu_ccsim(&r, "calibrate -c %s --targets %s --params home.occupancy_cycles", s, ok);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "ok.cfg:1: target R_Q_ns") && strstr(r.err, "has no such figure"),
                  "%s", r.err);
    tu_ccsim(&r, "calibrate -c %s --targets %s --params home.colour", s, ok);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "ccsim calibrate: --params home.colour: no number setting"), "%s",
                  r.err);
    /* the paper's figures and the machine's structure are not parameters to fit */
    tu_ccsim(&r, "calibrate -c teach-xbar --targets %s --params model.R_L_ns", ok);
    ck_assert_msg(r.status == 2 && strstr(r.err, "--params model.R_L_ns: not a parameter to fit: "
                                                 "the model section holds the paper's figures"),
                  "%s", r.err);
    tu_ccsim(&r, "calibrate -c teach-xbar --targets %s --params machine.cores", ok);
    ck_assert_msg(r.status == 2 && strstr(r.err, "machine's structure"), "%s", r.err);
    /* a setting the machine does not use (teach-xbar has no l2) would change nothing */
    tu_ccsim(&r, "calibrate -c teach-xbar --targets %s --params l2.latency_cycles", ok);
    ck_assert_msg(r.status == 2 && strstr(r.err, "--params l2.latency_cycles: teach-xbar does not "
                                                 "use this setting"),
                  "%s", r.err);
    /* names from the targets file are blamed on it, not on --params */
    const char *twice = tu_write("twice.cfg", "targets = { source = \"t\"; R_R_ns = 40.0;\n"
                                              "  params = [\"home.occupancy_cycles\", "
                                              "\"home.occupancy_cycles\"]; };\n");
    tu_ccsim(&r, "calibrate -c %s --targets %s", s, twice);
    ck_assert_msg(r.status == 2 &&
                      strstr(r.err, "twice.cfg: params home.occupancy_cycles: named "
                                    "twice") &&
                      !strstr(r.err, "--params"),
                  "%s", r.err);
    tu_ccsim(&r, "calibrate -c %s --targets nosuch-targets.cfg --params home.occupancy_cycles", s);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "nosuch-targets.cfg: cannot open targets file"), "%s", r.err);
    /* an -o that cannot be written is refused before the search */
    tu_ccsim(&r,
             "calibrate -c %s --targets %s --params home.occupancy_cycles -o /nonexistent/x.cfg", s,
             ok);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "-o /nonexistent/x.cfg: cannot write there: "), "%s", r.err);
    ck_assert_msg(strstr(r.out, "objective") == NULL, "%s", r.out);
    /* nor may it overwrite the figures it fits to (here through another name) */
    char g[600];
    snprintf(g, sizeof g, "%s",
             tu_write("good.cfg", "targets = { source = \"x\"; R_R_ns = 60.0; };\n"));
    tu_ccsim(&r, "calibrate -c %s --targets %s --params home.occupancy_cycles -o %s/./good.cfg", s,
             g, tu_dir());
    ck_assert_msg(r.status == 2 && strstr(r.err, "is the --targets file") &&
                      !strstr(r.out, "objective"),
                  "%s", r.err);
    tu_ccsim(&r, "calibrate -c %s --targets %s --params machine.name", s, ok);
    ck_assert_int_eq(r.status, 2);
    tu_ccsim(&r, "calibrate -c %s --targets %s", s, ok);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "name the parameters to fit"), "%s", r.err);
    tu_ccsim(&r, "calibrate -c %s --params home.occupancy_cycles", s);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--targets FILE is required"), "%s", r.err);
    /* a curve is a row's 3 numbers; a row the machine lacks is named */
    const char *two =
        tu_write("two.cfg", "targets = { source = \"x\";\n table4_EE = [1.0, 2.0]; };\n");
    tu_ccsim(&r, "calibrate -c %s --targets %s --params home.occupancy_cycles", s, two);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "two.cfg:2: targets.table4_EE: expected the row's 3 numbers"), "%s",
                  r.err);
    const char *empty =
        tu_write("empty.cfg", "targets = { source = \"x\";\n table4_EE = [];\n};\n");
    tu_ccsim(&r, "calibrate -c %s --targets %s --params home.occupancy_cycles", s, empty);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "empty.cfg:2: targets.table4_EE: expected the row's 3 numbers") &&
                      strstr(r.err, "not 0"),
                  "%s", r.err);
    const char *neg =
        tu_write("neg.cfg", "targets = { source = \"x\";\n table4_EE = [-100.0, 1.0, 0.0];\n};\n");
    tu_ccsim(&r, "calibrate -c %s --targets %s --params home.occupancy_cycles -i 2", s, neg);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "neg.cfg:2: target table4_EE: the curve [-100, 1, 0]") &&
                      strstr(r.err, "is 0 or below at x = 8"),
                  "%s", r.err);
    const char *inter = tu_write(
        "inter.cfg", "targets = { source = \"x\"; table3_inter = [180.65, 7.5, 3.0]; };\n");
    tu_ccsim(&r, "calibrate -c %s --targets %s --params home.occupancy_cycles -i 2", s, inter);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "inter.cfg:1: target table3_inter: ") &&
                      strstr(r.err, "has no such row"),
                  "%s", r.err);
}
END_TEST

/* A parameter the fit leaves where it was is said to be unchanged and not
 * marked calibrated in the written config; a search that --max-evals ends
 * says it did not converge. */
START_TEST(test_unchanged_and_budget_said)
{
    struct case_files f;
    case_files("unchanged", NULL, "targets = { source = \"x\"; R_R_ns = 500.0; };\n", &f);
    /* l1.ways has nothing to do with R_R; one evaluation is the starting point */
    tu_ccsim(&r, "calibrate -c %s --targets %s --params l1.ways -i 2 --max-evals 1 -o %s", f.start,
             f.targets, f.out);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    ck_assert_msg(strstr(r.out, "(unchanged: the search ended before it tried another value)"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "stopped at --max-evals 1 before it converged"), "%s", r.out);
    const char *text = tu_slurp(f.out), *moved = strstr(text, "no parameter moved");
    ck_assert_msg(!strstr(text, "# calibrated:") && moved &&
                      !strstr(moved + 1, "no parameter moved"),
                  "%s", text);
    /* tried on both sides until the steps stopped mattering, and kept */
    tu_ccsim(&r, "calibrate -c %s --targets %s --params l1.ways -i 2 --max-evals 20", f.start,
             f.targets);
    ck_assert_msg(r.status == 0 && strstr(r.out, "(unchanged: the fit kept it)"), "%s%s", r.out,
                  r.err);
    ck_assert_msg(!strstr(r.out, "stopped at --max-evals"), "%s", r.out);
    if (access("/dev/full", W_OK) == 0) { /* a full disk says so (it exited 2 in silence) */
        tu_ccsim(&r,
                 "calibrate -c %s --targets %s --params l1.ways -i 2 --max-evals 1 -o /dev/full",
                 f.start, f.targets);
        ck_assert_msg(r.status == 2 && strstr(r.err, "/dev/full: cannot write the fitted config"),
                      "%s", r.err);
    }
    /* a budget that ends inside a round is no convergence (integer steps
     * shrunk to 0 once said so), and a parameter it left untried says so */
    const char *low = tu_write("low.cfg", "targets = { source = \"x\"; R_R_ns = 1.0; };\n");
    /* occupancy 1 -> 2 raises R_R: worse; 0 and the latency are past the budget */
    tu_ccsim(&r,
             "calibrate -c %s --targets %s --params home.occupancy_cycles,l1.latency_cycles -i 2 "
             "--max-evals 2",
             f.start, low);
    ck_assert_msg(r.status == 0 && strstr(r.out, "stopped at --max-evals 2 before it converged") &&
                      strstr(r.out, "l1.latency_cycles") &&
                      strstr(strstr(r.out, "l1.latency_cycles"),
                             "(unchanged: the search ended before it tried another value)"),
                  "%s%s", r.out, r.err);
}
END_TEST

/* The shipped targets files load, and name only figures their machines have. */
START_TEST(test_shipped_targets)
{
    const char *names[] = {"knc-5110p", "snb-e5-2660"};
    for (size_t i = 0; i < SIM_COUNT_OF(names); i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/targets/%s.cfg", CCSIM_CONFIGS, names[i]);
        struct cal_targets t;
        struct sim_diag d;
        sim_diag_init(&d);
        ck_assert_msg(cal_targets_load(&t, path, &d), "%s", d.text);
        ck_assert(t.fig[CAL_R_R_ns] > 0 && strstr(t.source, "seed 000") != NULL);
        if (i == 0) /* the KNC's I rows: b and a fit memory.fill_conflict_ns */
            ck_assert(t.fig[CAL_table2_IE_b_ns] > 0 && t.fig[CAL_table2_II_a_ns] > 0);
        else /* SNB: Table 3's curves, as the paper gives them */
            ck_assert(t.ncurve[CAL_CURVE_table3_inter] == 3 &&
                      t.curve[CAL_CURVE_table3_inter][0] == 180.65);
    }
}
END_TEST

/* A target among the slopes of Tables 2-4 measures the tables: the
 * figure is printed with its value (one evaluation on the teaching
 * machine). */
START_TEST(test_table_targets)
{
    const char *targets = tu_write("t2.cfg", "targets = { source = \"made up\";\n"
                                             "  table2_EE_c_ns = 30.0; table4_EE_o_ns = 5.0;\n"
                                             "  table2_IE_b_ns = 100.0; };\n");
    tu_ccsim(&r,
             "calibrate -c teach-xbar --targets %s --params core.fwd_busy_cycles -i 2 "
             "--max-evals 1",
             targets);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    double c = 0, o = 0;
    const char *l2 = strstr(r.out, "table2_EE_c_ns"), *l4 = strstr(r.out, "table4_EE_o_ns");
    ck_assert_msg(l2 && l4 && sscanf(l2, "table2_EE_c_ns %*f %lf", &c) == 1 &&
                      sscanf(l4, "table4_EE_o_ns %*f %lf", &o) == 1,
                  "%s", r.out);
    ck_assert_msg(c > 0 && o > 0, "%s", r.out); /* measured, not left out */
    const char *lb = strstr(r.out, "table2_IE_b_ns");
    double b = 0;
    ck_assert_msg(lb && sscanf(lb, "table2_IE_b_ns %*f %lf", &b) == 1 && b != 0, "%s", r.out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("calibrate");
    TCase *tc = tcase_create("calibrate");
    /* the search's recovery is a relation between runs, checked in the normal
     * pass; the sanitizer pass runs calibrate's code in the cases below (3 s) */
    if (!tu_small_scale())
        tcase_add_test(tc, test_recovers_known_parameters);
    tcase_add_test(tc, test_absent_key_goes_into_its_section);
    tcase_add_test(tc, test_include_and_set_written);
    tcase_add_test(tc, test_bad_input);
    tcase_add_test(tc, test_unchanged_and_budget_said);
    tcase_add_test(tc, test_shipped_targets);
    tcase_add_test(tc, test_table_targets);
    tcase_add_test(tc, test_curve_targets);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
