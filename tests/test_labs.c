/*
 * test_labs.c -- the course labs of docs/labs/ observe what their READMEs
 * say they observe. Each test runs the lab's two (or four) commands and
 * asserts a relation between the runs' JSON results, never a latency.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LABS CCSIM_TEST_DIR "/../docs/labs"

struct figures {
    double median, link_queue_ns;
    double misses, steals, poll_refetches;
    double value_errors, network_bytes;
};

static struct tu_run r;

/* The number after "key": in the JSON text. */
static double field(const char *json, const char *key)
{
    double v = 0;
    ck_assert_msg(tu_json_number(json, key, &v), "no %s in %s", key, json);
    return v;
}

/* Runs `ccsim run -c CONFIG LAB/TRACE --json` and reads the figures. */
static struct figures run_lab_set(const char *config, const char *trace, const char *set,
                                  int status)
{
    char json[4096];
    snprintf(json, sizeof json, "%s/lab.json", tu_dir());
    tu_ccsim(&r, "run -c %s/%s %s/%s --json %s %s", CCSIM_CONFIGS, config, LABS, trace, json, set);
    ck_assert_msg(r.status == status, "%s: exit %d\n%s", trace, r.status, r.err);
    const char *j = tu_slurp(json);
    const char *lat = strstr(j, "\"latency_ns\"");
    ck_assert(lat != NULL);
    struct figures f = {.median = field(lat, "median"),
                        .link_queue_ns = field(j, "link_queue_ns"),
                        .misses = field(j, "misses"),
                        .steals = field(j, "steals"),
                        .poll_refetches = field(j, "poll_refetches"),
                        .value_errors = field(j, "value_errors"),
                        .network_bytes = field(j, "network_bytes")};
    return f;
}

static struct figures run_lab(const char *config, const char *trace)
{
    return run_lab_set(config, trace, "", 0);
}

/* Lab 1: two threads adding to two words of one line take longer and miss
 * more than the same adds on two lines. */
START_TEST(test_lab1_false_sharing)
{
    struct figures same = run_lab("teach-xbar.cfg", "01-false-sharing/same-line.trace");
    struct figures apart = run_lab("teach-xbar.cfg", "01-false-sharing/two-lines.trace");
    ck_assert_msg(same.median > apart.median, "%.1f vs %.1f", same.median, apart.median);
    ck_assert_msg(same.misses > apart.misses, "%.0f vs %.0f", same.misses, apart.misses);
}
END_TEST

/* Lab 2: polling during the writes steals the line; without polls nothing does. */
START_TEST(test_lab2_line_stealing)
{
    struct figures polled = run_lab("teach-xbar.cfg", "02-line-stealing/polled.trace");
    struct figures quiet = run_lab("teach-xbar.cfg", "02-line-stealing/unpolled.trace");
    ck_assert_msg(polled.steals > quiet.steals, "%.0f vs %.0f", polled.steals, quiet.steals);
    ck_assert(polled.poll_refetches > quiet.poll_refetches);
    ck_assert(polled.misses > quiet.misses);
}
END_TEST

/* Lab 3: on KNC, each added reader of one line costs far more than each
 * added reader of a line of its own (they queue at the supplier). Without
 * the start skew: the slowest of n skews grows with n on both sides (2.3 ns
 * a reader of its own line with the shipped 20 ns), which is not the
 * queueing the lab is about. */
START_TEST(test_lab3_knc_contention)
{
    const char *cfg = "knc-5110p.cfg", *set = "--set variability.start_skew_ns=0";
    double one4 = run_lab_set(cfg, "03-knc-contention/one-line-4.trace", set, 0).median;
    double one32 = run_lab_set(cfg, "03-knc-contention/one-line-32.trace", set, 0).median;
    double own4 = run_lab_set(cfg, "03-knc-contention/own-lines-4.trace", set, 0).median;
    double own32 = run_lab_set(cfg, "03-knc-contention/own-lines-32.trace", set, 0).median;
    double per_one = (one32 - one4) / 28, per_own = (own32 - own4) / 28;
    ck_assert_msg(per_one > 0 && per_one > 10 * per_own, "%.2f vs %.2f ns per reader", per_one,
                  per_own);
}
END_TEST

/* Lab 4: on Sandy Bridge, pairs whose data crosses QPI slow down more per
 * added pair than pairs that stay in a socket, and queue on links. */
START_TEST(test_lab4_snb_congestion)
{
    const char *cfg = "snb-e5-2660.cfg";
    struct figures c1 = run_lab(cfg, "04-snb-congestion/cross-1.trace");
    struct figures c8 = run_lab(cfg, "04-snb-congestion/cross-8.trace");
    struct figures l1 = run_lab(cfg, "04-snb-congestion/local-1.trace");
    struct figures l8 = run_lab(cfg, "04-snb-congestion/local-8.trace");
    ck_assert_msg(c8.median - c1.median > l8.median - l1.median, "%.1f vs %.1f",
                  c8.median - c1.median, l8.median - l1.median);
    ck_assert(c8.link_queue_ns > l8.link_queue_ns);
}
END_TEST

/* Lab 5: on the SCC, with the bug workaround an MPB transfer costs about
 * what a DRAM transfer costs, and less without it; a stale DRAM copy gives
 * value errors; the write-combining buffer sends a line of word stores as
 * one packet; a partial line left in it ends in a deadlock report. */
START_TEST(test_lab5_scc_mpb)
{
    const char *cfg = "scc.cfg";
    struct figures mpb = run_lab(cfg, "05-scc-mpb/mpb.trace");
    struct figures dram = run_lab(cfg, "05-scc-mpb/dram.trace");
    struct figures fixed =
        run_lab_set(cfg, "05-scc-mpb/mpb.trace", "--set mpb.local_mpb_via_router=false", 0);
    ck_assert_msg(mpb.median < 1.15 * dram.median && dram.median < 1.15 * mpb.median,
                  "mpb %.1f, dram %.1f", mpb.median, dram.median);
    ck_assert_msg(fixed.median < 0.9 * mpb.median && fixed.median < 0.9 * dram.median,
                  "without the bug %.1f, mpb %.1f, dram %.1f", fixed.median, mpb.median,
                  dram.median);
    ck_assert(mpb.value_errors == 0 && dram.value_errors == 0);
    struct figures stale = run_lab_set(cfg, "05-scc-mpb/dram-stale.trace", "", 1);
    ck_assert(stale.value_errors > 0);
    struct figures line = run_lab(cfg, "05-scc-mpb/wcb-line.trace");
    struct figures words = run_lab(cfg, "05-scc-mpb/wcb-words.trace");
    ck_assert_msg(line.median < words.median && line.network_bytes < words.network_bytes,
                  "line %.1f ns %.0f B, words %.1f ns %.0f B", line.median, line.network_bytes,
                  words.median, words.network_bytes);
    tu_ccsim(&r, "run -c %s/%s %s/05-scc-mpb/wcb-stuck.trace", CCSIM_CONFIGS, cfg, LABS);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "write-combining buffer holds") != NULL, "%s", r.err);
}
END_TEST

/* Lab 6: a read then a write of private lines costs two transactions per
 * line on MSI (GetS, then an upgrade) and one on MESI (the write hits E);
 * reading only, the two protocols do the same. */
START_TEST(test_lab6_msi_vs_mesi)
{
    const char *cfg = "teach-xbar.cfg";
    const char *msi = "--set 'machine.protocol=\"msi\"'";
    const char *mesi = "--set 'machine.protocol=\"mesi\"'";
    struct figures rw_msi = run_lab_set(cfg, "06-msi-vs-mesi/read-write.trace", msi, 0);
    struct figures rw_mesi = run_lab_set(cfg, "06-msi-vs-mesi/read-write.trace", mesi, 0);
    ck_assert_msg(rw_msi.misses == 2 * rw_mesi.misses, "%.0f vs %.0f", rw_msi.misses,
                  rw_mesi.misses);
    ck_assert_msg(rw_msi.median > rw_mesi.median, "%.1f vs %.1f", rw_msi.median, rw_mesi.median);
    ck_assert(rw_msi.network_bytes > rw_mesi.network_bytes);
    struct figures ro_msi = run_lab_set(cfg, "06-msi-vs-mesi/read-only.trace", msi, 0);
    struct figures ro_mesi = run_lab_set(cfg, "06-msi-vs-mesi/read-only.trace", mesi, 0);
    ck_assert_msg(ro_msi.median == ro_mesi.median && ro_msi.misses == ro_mesi.misses,
                  "%.1f ns %.0f misses vs %.1f ns %.0f", ro_msi.median, ro_msi.misses,
                  ro_mesi.median, ro_mesi.misses);
}
END_TEST

static Suite *labs_suite(void)
{
    Suite *s = suite_create("labs");
    TCase *tc = tcase_create("labs");
    tcase_add_test(tc, test_lab1_false_sharing);
    tcase_add_test(tc, test_lab2_line_stealing);
    tcase_add_test(tc, test_lab3_knc_contention);
    tcase_add_test(tc, test_lab4_snb_congestion);
    tcase_add_test(tc, test_lab5_scc_mpb);
    tcase_add_test(tc, test_lab6_msi_vs_mesi);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(labs_suite());
}
