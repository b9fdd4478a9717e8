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
};

static struct tu_run r;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* The number after "key": in the JSON text. */
static double field(const char *json, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *p = strstr(json, pat);
    ck_assert_msg(p != NULL, "no %s in %s", key, json);
    return strtod(p + strlen(pat), NULL);
}

/* Runs `ccsim run -c CONFIG LAB/TRACE --json` and reads the figures. */
static struct figures run_lab(const char *config, const char *trace)
{
    char json[4096];
    snprintf(json, sizeof json, "%s/lab.json", tu_dir());
    tu_ccsim(&r, "run -c %s/%s %s/%s --json %s", CCSIM_CONFIGS, config, LABS, trace, json);
    ck_assert_msg(r.status == 0, "%s: exit %d\n%s", trace, r.status, r.err);
    const char *j = slurp(json);
    const char *lat = strstr(j, "\"latency_ns\"");
    ck_assert(lat != NULL);
    struct figures f = {.median = field(lat, "median"),
                        .link_queue_ns = field(j, "link_queue_ns"),
                        .misses = field(j, "misses"),
                        .steals = field(j, "steals"),
                        .poll_refetches = field(j, "poll_refetches")};
    return f;
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

/* Lab 3: on KNC, each added reader of one line costs more than each added
 * reader of a line of its own. */
START_TEST(test_lab3_knc_contention)
{
    const char *cfg = "knc-5110p.cfg";
    double one4 = run_lab(cfg, "03-knc-contention/one-line-4.trace").median;
    double one32 = run_lab(cfg, "03-knc-contention/one-line-32.trace").median;
    double own4 = run_lab(cfg, "03-knc-contention/own-lines-4.trace").median;
    double own32 = run_lab(cfg, "03-knc-contention/own-lines-32.trace").median;
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

static Suite *labs_suite(void)
{
    Suite *s = suite_create("labs");
    TCase *tc = tcase_create("labs");
    tcase_add_test(tc, test_lab1_false_sharing);
    tcase_add_test(tc, test_lab2_line_stealing);
    tcase_add_test(tc, test_lab3_knc_contention);
    tcase_add_test(tc, test_lab4_snb_congestion);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(labs_suite());
}
