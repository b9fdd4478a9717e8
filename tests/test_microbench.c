/*
 * test_microbench.c -- the least-squares fit behind microbench's b + c n and
 * q + o N (and so behind validate's fitted parameters), on synthetic points.
 */
#include "microbench.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

START_TEST(test_fit_exact_line)
{
    /* y = 320.5 + 56.2 x, the paper's KNC contention line (Table 2, E/E) */
    struct mb_point p[8];
    for (int i = 0; i < 8; i++)
        p[i] = (struct mb_point){i + 1, 320.5 + 56.2 * (i + 1)};
    double a, s;
    mb_fit(p, 8, &a, &s);
    ck_assert(fabs(a - 320.5) < 1e-9 && fabs(s - 56.2) < 1e-9);
}
END_TEST

START_TEST(test_fit_symmetric_noise)
{
    /* y = 10 + 2x with +1, -1 alternating on x = 1..4 (sum of noise 0, sum of
     * x*noise = 1 - 2 + 3 - 4 = -2): by hand, s = 2 + (-2 - 0) / (sum (x - 2.5)^2 = 5)
     * = 1.6 and a = mean(y) - s * 2.5 = 15 - 4 = 11. */
    struct mb_point p[4] = {{1, 13}, {2, 13}, {3, 17}, {4, 17}};
    double a, s;
    mb_fit(p, 4, &a, &s);
    ck_assert(fabs(s - 1.6) < 1e-9);
    ck_assert(fabs(a - 11.0) < 1e-9);
}
END_TEST

START_TEST(test_fit_one_point)
{
    struct mb_point p[1] = {{5, 42}};
    double a, s;
    mb_fit(p, 1, &a, &s);
    ck_assert(isnan(s) && isnan(a)); /* no line through one point: no figure, not 0 */
}
END_TEST

/* A machine of 2 cores has one reader to measure contention with: the
 * fits have no figure, printed "-" and null, never a measured 0. */
START_TEST(test_one_reader_no_fit)
{
    static struct tu_run r;
    tu_ccsim(&r, "microbench -c teach-xbar --set machine.cores=2 --json %s/two.json", tu_dir());
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "(measured at one size only: no line to fit)") &&
                      !strstr(r.out, "c     0.0"),
                  "%s", r.out);
    /* the multi-line points say what they measure: lines of socket 0's memory
     * (on the 1024-core mesh a 1-line copy's home is next to the copier: 30 ns
     * where R_R, over homes in turn, is 220) */
    ck_assert_msg(strstr(r.out, "multi-line lines:ns (N lines another core modified, in socket "
                                "0's memory, copied):"),
                  "%s", r.out);
    char path[1024];
    snprintf(path, sizeof path, "%s/two.json", tu_dir());
    const char *json = tu_slurp(path);
    ck_assert_msg(strstr(json, "\"c_ns_per_thread\": null"), "%s", json);
    /* one core in a socket (two sockets of one): no other core to read from, said as such;
     * one cache shared by a socket's cores (niagara2) measures its sibling */
    tu_ccsim(&r, "microbench -c snb-e5-2660 --set machine.cores=2");
    ck_assert_msg(r.status == 2 && strstr(r.err, "has 1 core in a socket") &&
                      !strstr(r.err, "pinned"),
                  "%s", r.err);
    tu_ccsim(&r, "microbench -c niagara2 -i 3");
    ck_assert_msg(r.status == 0 && strstr(r.out, "same-cache core"), "%s%s", r.out, r.err);
}
END_TEST

/* Eq 5's shape: y = q + o N - p/N, the paper's KNC E/E row (Table 4). */
START_TEST(test_fit_inverse_term)
{
    struct mb_row row = {0};
    static const int sizes[] = {1, 2, 4, 8, 16, 32, 64, 128};
    for (int i = 0; i < 8; i++)
        row.pts[row.n++] =
            (struct mb_point){sizes[i], 1521.0 + 76.0 * sizes[i] - 1096.0 / sizes[i]};
    mb_fit_row(&row, true);
    ck_assert_msg(fabs(row.k[0] - 1521.0) < 1e-6 && fabs(row.k[1] - 76.0) < 1e-9 &&
                      fabs(row.k[2] - 1096.0) < 1e-6,
                  "%f %f %f", row.k[0], row.k[1], row.k[2]);
    mb_fit_row(&row, false);                       /* Eq 2: no inverse term */
    ck_assert(isnan(row.k[2]) && row.k[1] > 75.0); /* not fitted: no figure */
}
END_TEST

/* Eq 4: y = q + o N + c n N, Table 3's inter-socket row. */
START_TEST(test_fit_congestion_term)
{
    struct mb_row row = {0};
    for (int n = 1; n <= 8; n *= 2)
        for (int lines = 1; lines <= 64; lines *= 2) {
            row.threads[row.n] = n;
            row.pts[row.n++] = (struct mb_point){lines, 180.65 + 7.5 * lines + 3.0 * n * lines};
        }
    mb_fit_table3(&row, true);
    ck_assert_msg(fabs(row.k[0] - 180.65) < 1e-6 && fabs(row.k[1] - 7.5) < 1e-9 &&
                      fabs(row.k[2] - 3.0) < 1e-9,
                  "%f %f %f", row.k[0], row.k[1], row.k[2]);
}
END_TEST

/* The tables measured on the teaching machine: every row, its points,
 * and rows that differ where the buffers' states differ. */
START_TEST(test_tables_measured)
{
    struct machine_cfg m;
    tu_load_config("teach-xbar", NULL, 0, &m);
    static struct mb_tables t;
    struct sim_diag d;
    sim_diag_init(&d);
    ck_assert_msg(mb_tables(&m, 5, &t, &d), "%s", d.text);
    for (int s = 0; s < MB_NSTATES; s++) {
        ck_assert_int_eq(t.table2[s].n, 3); /* 1..3 readers on 4 cores */
        ck_assert_int_eq(t.table4[s].n, 8);
        for (int i = 0; i < t.table4[s].n; i++)
            ck_assert(t.table4[s].pts[i].ns > 0);
        ck_assert(t.table2[s].k[1] > 0); /* every added reader costs */
    }
    ck_assert_int_eq(t.table3_inter.n, 0); /* one socket */
    ck_assert(t.table3_intra.n == 7 && t.table3_intra.k[1] > 0);
    /* Table 3 is the paper's ping-pong with the buffers in E, as Table 4's
     * E/E row: the same transfer, one line at a time the same time */
    for (int i = 0; i < t.table3_intra.n; i++)
        ck_assert_msg(t.table3_intra.pts[i].ns == t.table4[MB_EE].pts[i].ns, "N=%g: %g vs %g",
                      t.table3_intra.pts[i].x, t.table3_intra.pts[i].ns, t.table4[MB_EE].pts[i].ns);
    /* a send line in memory costs more than one in a cache */
    ck_assert(t.table2[MB_II].pts[0].ns > t.table2[MB_EE].pts[0].ns);
    ck_assert(t.table4[MB_II].pts[7].ns > t.table4[MB_EE].pts[7].ns);
}
END_TEST

START_TEST(test_tables_json)
{
    static struct tu_run r;
    /* the teaching machine with a paper's row of Table 2 and Table 1's R_L */
    const char *cfg =
        tu_write("paper.cfg", "@include \"" CCSIM_CONFIGS "/teach-xbar.cfg\"\n"
                              "model = { R_L_ns = 2.0; table2_EE = [100.0, 10.0, 0.0];\n"
                              "  table2_IE = [800.0, 20.0, 600.0]; };\n");
    tu_ccsim(&r, "microbench -c %s -i 4 --json %s/mb.json", cfg, tu_dir());
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert(strstr(r.out, "seed 000 Table 2") && strstr(r.out, "seed 000 Table 4"));
    /* the I rows' b and a are targets a targets file may fit: their errors
     * are printed (the text said no intercept was a target) */
    const char *ie = strstr(r.out, "    I/E ");
    ck_assert_msg(ie && strstr(ie, "( 800.0 ") && strstr(ie, " %)  c") && strstr(ie, "( 600.0 ") &&
                      !strstr(r.out, "the intercepts are not targets"),
                  "%s", r.out);
    char path[600];
    snprintf(path, sizeof path, "%s/mb.json", tu_dir());
    const char *json = tu_slurp(path);
    ck_assert_msg(
        strstr(json, "\"tables\": {\"table1\": {\"R_L\": {\"ns\": ") &&
            strstr(json, "\"paper_ns\": 2.000, \"error_pct\": ") &&
            strstr(json, "\"R_Q\": {\"ns\": null, \"paper_ns\": null, \"error_pct\": null}"),
        "%s", json);
    ck_assert_msg(strstr(json, "\"table2\": {\"EE\": {\"b_ns\": ") &&
                      strstr(json, "\"paper\": {\"b_ns\": 100.000, \"c_ns_per_thread\": 10.000, "
                                   "\"a_ns_thread\": 0.000}, \"error_pct\": {\"b_ns\": ") &&
                      strstr(json, "\"a_ns_thread\": null}, \"curve_error_pct\": "),
                  "%s", json);
    ck_assert(strstr(json, "\"EI\": {\"b_ns\": ") &&
              strstr(json, "\"paper\": null, \"error_pct\": null"));
    ck_assert(strstr(json, "\"inter\": null") && strstr(json, "\"p_ns_line\": "));
    tu_ccsim(&r, "microbench -c scc -i 3 --json %s/mb.json", tu_dir());
    ck_assert_int_eq(r.status, 0);
    json = tu_slurp(path);
    ck_assert(strstr(json, "\"tables\": null") != NULL); /* no coherence: no tables */
}
END_TEST

/* Where cores share caches, "another core" is a core of another cache:
 * R_R is a transfer between caches, as with a cache per core, not a hit in
 * the shared cache. */
START_TEST(test_other_core_is_another_cache)
{
    const char *l2 = "-c teach-xbar --set l2.size_kb=64 --set l2.ways=8 --set l2.latency_cycles=12";
    struct tu_run r;
    double shared, own;
    tu_ccsim(&r, "microbench %s --set machine.cores_per_cache=2 --json %s/s.json", l2, tu_dir());
    ck_assert_int_eq(r.status, 0);
    char path[512];
    snprintf(path, sizeof path, "%s/s.json", tu_dir());
    ck_assert(tu_json_number(tu_slurp(path), "R_R_ns", &shared));
    tu_ccsim(&r, "microbench %s --json %s/s.json", l2, tu_dir());
    ck_assert_int_eq(r.status, 0);
    ck_assert(tu_json_number(tu_slurp(path), "R_R_ns", &own));
    ck_assert_msg(shared == own, "R_R %.1f ns with shared caches, %.1f ns without", shared, own);
}
END_TEST

/* The home agent's early read (home.remote_early_read): a read from the
 * other socket of a line in memory starts its DRAM access on arrival, so
 * R_QI shrinks by the lookup (24 cycles at 2.2 GHz), and a local read, which
 * reaches the home agent only after its LLC slice missed, does not change.
 * And seed 000 Sec 2.2.2: "Intra-socket results on Sandy Bridge show very
 * low contention": the shipped SNB's inclusive LLC answers reads of a clean
 * shared line, pipelined (mesif-llc), 4.7 ns a reader; on plain MESIF each
 * read is forwarded to the F copy, one transaction at a time, 88 ns (that
 * run in the normal pass only). */
START_TEST(test_snb_homes)
{
    struct tu_run r;
    double qi_on, qi_off, i_on, i_off, llc, forwarder;
    char path[512];
    snprintf(path, sizeof path, "%s/e.json", tu_dir());
    tu_ccsim(&r, "microbench -c snb-e5-2660 -i 3 --json %s", path); /* few: a sanitized pass */
    ck_assert_int_eq(r.status, 0);
    ck_assert(tu_json_number(tu_slurp(path), "R_QI_ns", &qi_on));
    ck_assert(tu_json_number(tu_slurp(path), "R_I_ns", &i_on));
    ck_assert(tu_json_number(tu_slurp(path), "c_ns_per_thread", &llc));
    ck_assert_msg(llc < 10.0, "c %.1f ns a reader behind the LLC", llc);
    tu_ccsim(&r, "microbench -c snb-e5-2660 -i 3 --set home.remote_early_read=false --json %s",
             path);
    ck_assert_int_eq(r.status, 0);
    ck_assert(tu_json_number(tu_slurp(path), "R_QI_ns", &qi_off));
    ck_assert(tu_json_number(tu_slurp(path), "R_I_ns", &i_off));
    ck_assert_msg(i_on == i_off, "R_I %.2f with the early read, %.2f without", i_on, i_off);
    ck_assert_msg(qi_off - qi_on > 10.0 && qi_off - qi_on < 12.0,
                  "R_QI %.2f with the early read, %.2f without", qi_on, qi_off);
    if (tu_small_scale())
        return;
    tu_ccsim(&r, "microbench -c snb-e5-2660 -i 3 --set machine.protocol=\"mesif\" --json %s", path);
    ck_assert_int_eq(r.status, 0);
    ck_assert(tu_json_number(tu_slurp(path), "c_ns_per_thread", &forwarder));
    ck_assert_msg(forwarder > 50.0, "c %.1f ns a reader on plain MESIF", forwarder);
}
END_TEST

static Suite *microbench_suite(void)
{
    Suite *s = suite_create("microbench");
    TCase *tc = tcase_create("fit");
    tcase_add_test(tc, test_fit_exact_line);
    tcase_add_test(tc, test_fit_symmetric_noise);
    tcase_add_test(tc, test_fit_one_point);
    tcase_add_test(tc, test_fit_inverse_term);
    tcase_add_test(tc, test_fit_congestion_term);
    tcase_add_test(tc, test_tables_measured);
    tcase_add_test(tc, test_tables_json);
    tcase_add_test(tc, test_other_core_is_another_cache);
    tcase_add_test(tc, test_snb_homes);
    tcase_add_test(tc, test_one_reader_no_fit);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(microbench_suite());
}
