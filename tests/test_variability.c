/*
 * test_variability.c -- seeded timing variation (the config's variability
 * section): on a shipped machine five seeds give a spread and the same seed
 * gives the same bytes; with the sizes at 0 every seed gives the same run;
 * the loader bounds the sizes; the kernel's ranked events fire after the
 * plain ones of their time, in rank order.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEEDS 5

static struct tu_run r;

/* The median latency of a run of `cfg` with seed s (and extra options),
 * and its JSON without the wall-clock fields in json (if not NULL). */
static double run_median(const char *cfg, int s, const char *extra, char *json, size_t size)
{
    tu_ccsim(&r, "run -c %s -w barrier-dissemination -t 8 -i 5 --seed %d %s --json %s/v%d.json",
             cfg, s, extra, tu_dir(), s);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    char path[600];
    snprintf(path, sizeof path, "%s/v%d.json", tu_dir(), s);
    const char *text = tu_slurp(path);
    double median;
    ck_assert(tu_json_number(strstr(text, "\"latency_ns\""), "median", &median));
    if (json) {
        snprintf(json, size, "%s", text);
        char *w = strstr(json, "\"wall_s\""); /* the wall-clock part of "sim" */
        if (w)
            *w = '\0';
    }
    return median;
}

static int distinct(const double *v, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        bool seen = false;
        for (int j = 0; j < i; j++)
            seen |= v[j] == v[i];
        k += !seen;
    }
    return k;
}

static const char *const machines[] = {"knc-5110p", "snb-e5-2660"};

START_TEST(test_seeds_spread)
{
    if (tu_small_scale() && _i > 0)
        return; /* the sanitizer pass: the KNC only */
    double m[SEEDS];
    for (int s = 0; s < SEEDS; s++)
        m[s] = run_median(machines[_i], s + 1, "", NULL, 0);
    ck_assert_msg(distinct(m, SEEDS) >= 3, "%s: medians %.2f %.2f %.2f %.2f %.2f", machines[_i],
                  m[0], m[1], m[2], m[3], m[4]);
}
END_TEST

START_TEST(test_same_seed_same_bytes)
{
    if (tu_small_scale() && _i > 0)
        return;
    static char a[65536], b[65536];
    run_median(machines[_i], 7, "", a, sizeof a);
    run_median(machines[_i], 7, "", b, sizeof b);
    ck_assert_str_eq(a, b);
}
END_TEST

/* Sizes at 0: the seed changes nothing. */
START_TEST(test_zero_is_deterministic)
{
    const char *zero = "--set variability.start_skew_ns=0 --set variability.jitter_ns=0 --set "
                       "variability.arbitration=false";
    static char a[65536], b[65536];
    run_median("knc-5110p", 1, zero, a, sizeof a);
    run_median("knc-5110p", 2, zero, b, sizeof b);
    char *sa = strstr(a, "\"latency_ns\""), *sb = strstr(b, "\"latency_ns\"");
    ck_assert(sa && sb);
    ck_assert_str_eq(sa, sb); /* all but the seed itself */
}
END_TEST

START_TEST(test_loader_bounds)
{
    tu_ccsim(&r, "config -c teach-xbar --set variability.start_skew_ns=-1");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "variability.start_skew_ns = -1 is out of range"), "%s", r.err);
    tu_ccsim(&r, "config -c teach-xbar --set variability.jitter_ns=20000");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "variability.jitter_ns"), "%s", r.err);
    tu_ccsim(&r, "config -c scc --set variability.jitter_ns=1");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "relies on"), "%s", r.err);
}
END_TEST

static char order[16];
static int norder;

static void note(struct sim_kernel *k, void *obj, uint64_t arg)
{
    (void)k;
    (void)obj;
    order[norder++] = (char)arg;
}

START_TEST(test_ranked_events)
{
    struct sim_kernel *k = sim_kernel_new();
    norder = 0;
    sim_schedule_ranked(k, 1000, 7, note, NULL, 'c');
    sim_schedule_ranked(k, 1000, 3, note, NULL, 'b');
    sim_schedule_at(k, 1000, note, NULL, 'a');
    sim_schedule_ranked(k, 1000, 7, note, NULL, 'd');
    sim_schedule_at(k, 999, note, NULL, '0');
    sim_run(k, SIM_TIME_MAX);
    order[norder] = '\0';
    ck_assert_str_eq(order, "0abcd");
    sim_kernel_free(k);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("variability");
    TCase *tc = tcase_create("variability");
    tcase_add_loop_test(tc, test_seeds_spread, 0, 2);
    tcase_add_loop_test(tc, test_same_seed_same_bytes, 0, 2);
    tcase_add_test(tc, test_zero_is_deterministic);
    tcase_add_test(tc, test_loader_bounds);
    tcase_add_test(tc, test_ranked_events);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
