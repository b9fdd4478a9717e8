/*
 * test_seed002.c -- seed 002's barrier and reduction claims on seed 002's own
 * SKL (configs/skylake-6140.cfg, 18 cores on a mesh), KNL (knl-7290.cfg, 72
 * cores in two-core tiles) and Milan (milan-7763.cfg, 64 cores in 8
 * complexes), as relations between simulated runs with --check on, after
 * every seed 002 generator has run clean at the full core count
 * (reduce-extbutterfly-separate runs checked in its claim's test). The SKL
 * part: What holds: the extended butterfly beats
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

/* ---------------------------------------------------------------- KNL, Milan */

/* 64 and 72 threads, checked: few iterations (fewer in the sanitizer pass) */
#define BIG_ITERS (tu_small_scale() ? 3 : 8)
/* the barriers' close race (3 %) needs its 8 iterations in both passes */
#define FASTEST_ITERS 8

/* Every seed 002 generator runs clean on KNL (72 threads) and Milan (64),
 * checked; the butterfly at 64 on KNL (a power of two). The barriers run
 * checked in the next test too, so the sanitizer pass runs the reductions
 * only. */
START_TEST(test_knl_milan_every_seed002_generator)
{
    static const char *const specs[] = {
        "reduce-linear:values=7", "reduce-extbutterfly:values=7",
        "barrier-central",        "barrier-linear",
        "barrier-combining",      "barrier-extbutterfly",
    };
    size_t n = tu_small_scale() ? 2 : SIM_COUNT_OF(specs);
    for (size_t i = 0; i < n; i++) {
        ck_assert(median_on("knl-7290", specs[i], 72, BIG_ITERS) > 0);
        ck_assert(median_on("milan-7763", specs[i], 64, BIG_ITERS) > 0);
    }
    ck_assert(median_on("knl-7290", "barrier-butterfly", 64, BIG_ITERS) > 0);
}
END_TEST

/* Seed 002 Fig 11-12 and Sec V: at the full core count the extended
 * butterfly is the fastest barrier, "better than the Dissemination barrier",
 * which is close behind: KNL 72 threads 1 713 against 1 824 ns (+6 %;
 * combining 2 478), Milan 64 threads 1 212 against 1 399 ns (+15 %;
 * combining 1 852). (Before the methodology's resets moved to the sync's
 * release, a thread's late evict undid an early thread's work and the two
 * were within 3 %.) */
static void extbutterfly_fastest(const char *machine, int n)
{
    static const char *const others[] = {"barrier-central", "barrier-linear", "barrier-combining"};
    double ext = median_on(machine, "barrier-extbutterfly", n, FASTEST_ITERS);
    for (size_t i = 0; i < SIM_COUNT_OF(others); i++)
        ck_assert(ext < median_on(machine, others[i], n, FASTEST_ITERS));
    double dis = median_on(machine, "barrier-dissemination", n, FASTEST_ITERS);
    ck_assert_msg(ext < dis && dis < 1.2 * ext, "%s: extended butterfly %.0f, dissemination %.0f",
                  machine, ext, dis);
}

START_TEST(test_knl_milan_extbutterfly_fastest)
{
    extbutterfly_fastest("knl-7290", 72);
    extbutterfly_fastest("milan-7763", 64);
}
END_TEST

/* Seed 002 Fig 12 (Milan, below 30 threads): the linear centralized barrier
 * is ahead of the extended butterfly for small counts: within one core
 * complex 175 against 269 ns at 2, 297 against 574 at 8. Reproduced at 4
 * and 8 threads (214 against 311, 296 against 463 ns). CLAIM NOT
 * REPRODUCED at 2 threads (linear 175, extended butterfly 160 ns): at a
 * power of two the butterfly is one exchange of flags, both lines crossing
 * at once, where the linear barrier's counter takes two atomics one after
 * the other and then its flag. Nor beyond one complex: the paper has the two
 * close up to 30 threads; here at 16 threads the linear barrier costs 3.2
 * times the extended butterfly (2 262 against 707 ns): every arrival at the
 * root's counter in another complex crosses the I/O die and back, one after
 * the other, where Milan's fabric may keep several in flight. Asserted as
 * the simulator has it. */
START_TEST(test_milan_linear_small_counts)
{
    for (int n = 4; n <= 8; n *= 2)
        ck_assert(median_on("milan-7763", "barrier-linear", n, ITERS) <
                  median_on("milan-7763", "barrier-extbutterfly", n, ITERS));
    ck_assert(median_on("milan-7763", "barrier-linear", 2, ITERS) >
              median_on("milan-7763", "barrier-extbutterfly", 2, ITERS));
    ck_assert(median_on("milan-7763", "barrier-linear", 16, ITERS) >
              2 * median_on("milan-7763", "barrier-extbutterfly", 16, ITERS));
}
END_TEST

/* Seed 002 Fig 13 (KNL, 72 threads): 7 values carried with the flag cost
 * little more than 1 (1 776 ns each: one 512-bit store carries them all).
 * CLAIM NOT REPRODUCED: the paper has all three below 2 000 cycles; here
 * they take about 2 660 cycles at 1.5 GHz: KNL's core-to-core
 * latency is fitted to a published 91 ns median (configs/targets), and the
 * reduction's 8 rounds of transfers cost about that each. Asserted as the
 * simulator has it (below 3 500 cycles). And the flag-carried reduction
 * beats the separate one on both machines (KNL 1 776 against 12 123 ns;
 * Milan 1 237 against 8 130). */
START_TEST(test_knl_milan_reductions)
{
    double one = median_on("knl-7290", "reduce-extbutterfly:values=1", 72, BIG_ITERS);
    double seven = median_on("knl-7290", "reduce-extbutterfly:values=7", 72, BIG_ITERS);
    ck_assert_msg(seven >= one && seven < 1.25 * one, "7 values %.0f ns, 1 value %.0f ns", seven,
                  one);
    double cycles = seven * 1.5; /* the KNL's 1.5 GHz */
    ck_assert_msg(cycles > 2000 && cycles < 3500, "7 values: %.0f cycles", cycles);
    flag_beats_separate("knl-7290", 72, tu_small_scale() ? 2 : 3);
    flag_beats_separate("milan-7763", 64, tu_small_scale() ? 2 : 3);
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
    TCase *big = tcase_create("knl-milan");
    tcase_set_timeout(big, 120);
    tcase_add_test(big, test_knl_milan_every_seed002_generator);
    tcase_add_test(big, test_knl_milan_extbutterfly_fastest);
    tcase_add_test(big, test_milan_linear_small_counts);
    tcase_add_test(big, test_knl_milan_reductions);
    suite_add_tcase(s, big);
    return s;
}

int main(void)
{
    return tu_run_suite(seed002_suite());
}
