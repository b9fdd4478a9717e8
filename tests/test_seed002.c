/*
 * test_seed002.c -- seed 002's barrier and reduction claims on seed 002's own
 * SKL (configs/skylake-6140.cfg, 18 cores on a mesh), as relations between
 * simulated runs with --check on, after every seed 002 generator has run clean
 * at the full core count (reduce-extbutterfly-separate runs checked in its
 * claim's test). What holds: the extended butterfly beats
 * the centralized barriers at the full core count, and its reduction of 7
 * values costs little more than of 1 (Fig 13's shape), and the reduction
 * carried with the flag beats a barrier then a separate reduction (also on
 * KNC at 60 threads). What does not: the
 * dissemination barrier is faster than the extended butterfly here, where the
 * paper measured the extended butterfly ahead (README says why).
 */
#include "cli.h"
#include "testutil.h"

#include <stdio.h>

#define ITERS 20

/* The median latency (ns) of spec at n threads over iters iterations on a
 * shipped machine, checked: no value error, no violation, every iteration
 * done. */
static double median_on(const char *machine, const char *spec, int n, long iters)
{
    struct machine_cfg m;
    tu_load_config(machine, NULL, 0, &m);
    double med = tu_median(&m, spec, n, iters, true);
    printf("%s -t %d %-30s %8.1f ns\n", machine, n, spec, med);
    return med;
}

/* The same on SKL over ITERS iterations. */
static double skl_median(const char *spec, int n)
{
    return median_on("skylake-6140", spec, n, ITERS);
}

/* Every seed 002 generator runs clean on SKL at its full core count (the
 * butterfly at 16: it needs a power of two), checked. */
START_TEST(test_skl_every_seed002_generator)
{
    static const char *const specs[] = {
        "barrier-central",      "barrier-linear",         "barrier-combining",
        "barrier-extbutterfly", "reduce-linear:values=7", "reduce-extbutterfly:values=7",
        "reduce-linear",        "reduce-extbutterfly",
    };
    for (size_t i = 0; i < SIM_COUNT_OF(specs); i++)
        ck_assert(skl_median(specs[i], 18) > 0);
    ck_assert(skl_median("barrier-butterfly", 16) > 0);
}
END_TEST

/* Seed 002 Sec V-B (Fig 10, SKL): at the full core count the extended
 * butterfly barrier and reduction beat the linear centralized ones, and the
 * barrier beats the sense-reversing centralized one. */
START_TEST(test_skl_extbutterfly_beats_centralized)
{
    double ext = skl_median("barrier-extbutterfly", 18);
    ck_assert(ext < skl_median("barrier-linear", 18));
    ck_assert(ext < skl_median("barrier-central", 18));
    ck_assert(skl_median("reduce-extbutterfly:values=7", 18) <
              skl_median("reduce-linear:values=7", 18));
}
END_TEST

/* Seed 002 Fig 13: 7 values carried with the flag cost little more than 1
 * (they travel in the flag's line): within 25 %. */
START_TEST(test_skl_seven_values_cost_little_more)
{
    double one = skl_median("reduce-extbutterfly:values=1", 18);
    double seven = skl_median("reduce-extbutterfly:values=7", 18);
    ck_assert_msg(seven >= one && seven < 1.25 * one, "7 values %.0f ns, 1 value %.0f ns", seven,
                  one);
}
END_TEST

/* Not reproduced (README): on the simulated SKL the dissemination barrier
 * (5 rounds of one line each at 18 threads) is faster than the extended
 * butterfly (a pair step, 4 rounds among 9 masters, a release step). Asserted
 * as it stands, so that a change that reproduces the paper shows here. */
START_TEST(test_skl_dissemination_ahead_of_extbutterfly)
{
    ck_assert(skl_median("barrier-dissemination", 18) < skl_median("barrier-extbutterfly", 18));
}
END_TEST

/* Seed 002 Sec IV: the reduction carried with the flag (values in the
 * flag's line through the extended butterfly) beats a barrier followed by
 * a separate reduction (the same barrier with bare flags, then every thread
 * adds every thread's values line, Alg. 1 with local sums), for 1 and 7
 * values, on SKL at 18 threads and on KNC at 60 (5 iterations there: the
 * separate one is several times slower, and 60 threads reading 59 lines
 * each is the slowest run of the file). */
static void flag_beats_separate(const char *machine, int n, long iters)
{
    for (int v = 1; v <= 7; v += 6) {
        char flag[64], sep[64];
        snprintf(flag, sizeof flag, "reduce-extbutterfly:values=%d", v);
        snprintf(sep, sizeof sep, "reduce-extbutterfly-separate:values=%d", v);
        double tf = median_on(machine, flag, n, iters), ts = median_on(machine, sep, n, iters);
        ck_assert_msg(tf < ts, "%s -t %d, %d values: flag-carried %.0f ns, separate %.0f ns",
                      machine, n, v, tf, ts);
    }
}

START_TEST(test_flag_carried_beats_separate_reduction)
{
    flag_beats_separate("skylake-6140", 18, ITERS);
    flag_beats_separate("knc-5110p", 60, 5);
}
END_TEST

static Suite *seed002_suite(void)
{
    Suite *s = suite_create("seed002");
    TCase *tc = tcase_create("skylake");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_skl_every_seed002_generator);
    tcase_add_test(tc, test_skl_extbutterfly_beats_centralized);
    tcase_add_test(tc, test_skl_seven_values_cost_little_more);
    tcase_add_test(tc, test_skl_dissemination_ahead_of_extbutterfly);
    tcase_add_test(tc, test_flag_carried_beats_separate_reduction);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(seed002_suite());
}
