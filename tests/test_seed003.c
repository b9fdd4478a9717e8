/*
 * test_seed003.c -- seed 003's claims (Nishtala & Yelick) on seed 003's
 * own machines, as relations between simulated runs: Table 2 (the
 * reduction's radix, loose and strict) and the flat/tree crossover of Fig 4
 * on the eight-socket Barcelona (configs/barcelona.cfg, 32 threads). The
 * runs are cut small to stay fast: a 512-byte reduction (64 doubles), 2
 * collectives an iteration strict, 40 loose, 2 iterations; README quotes
 * the 8 KB figures of `ccsim run`. Claims that do not hold are asserted as the simulator has
 * them, with the missing physics named. And the generators at 32 threads
 * with the invariant checker on.
 */
#include "cli.h"
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#define ITERS       2
#define COUNT       2  /* collectives an iteration (the generators' count=) */
#define LOOSE_COUNT 40 /* enough for the loose chain's pipeline to fill */

/* The median time (ns) of one collective of spec (count collectives an
 * iteration) at n threads on a shipped machine, the checker off as in
 * timing runs; the run must end right. */
static double per_collective(const char *machine, const char *spec, int n, int count)
{
    struct machine_cfg m;
    tu_load_config(machine, NULL, 0, &m);
    return tu_median(&m, spec, n, ITERS, false) / count;
}

/* On Barcelona at 32 threads, reduce-radix:radix=R,sync=SYNC,elements=E
 * (radix 0: reduce-flat), COUNT collectives an iteration strict,
 * LOOSE_COUNT loose. */
static double barcelona(int radix, const char *sync, int elements)
{
    char spec[128];
    int count = strcmp(sync, "loose") == 0 ? LOOSE_COUNT : COUNT;
    if (radix)
        snprintf(spec, sizeof spec, "reduce-radix:radix=%d,sync=%s,elements=%d,count=%d", radix,
                 sync, elements, count);
    else
        snprintf(spec, sizeof spec, "reduce-flat:sync=%s,elements=%d,count=%d", sync, elements,
                 count);
    double t = per_collective("barcelona", spec, 32, count);
    printf("barcelona -t 32 %s: %.0f ns a collective\n", spec, t);
    return t;
}

/* Table 2 (one test: the chain's strict run serves two claims).
 *
 * Strict: a shallow tree beats the chain (deep: latency) and the radix-16
 * tree (wide: a parent adds many children in turn); the paper: radix 2 at
 * 110 us against 306 (chain) and 213 (radix 16); here at 8 KB 26.6 against
 * 57.5 and 52.7 us (and 29.8 for radix 4, which the cut-down run does not
 * order).
 *
 * Loose against strict: the loosely synchronised chain beats the strictly
 * synchronised one (paper: 46.4 against 306 us).
 *
 * Loose: the chain is the best tree once its pipeline is full (paper: 46.4
 * us against 52.9 for radix 2; here at 8 KB and 40 collectives 26.7
 * against 29.3). With 2 collectives an iteration the chain's 31 levels are
 * not amortised and radix 2 wins. With every core probed rather than every
 * socket (--set home.probe_per_socket=false) the homes and links saturate
 * and radix 2 wins at 40 too (93.2 against 103.8 us). */
START_TEST(test_barcelona_table2)
{
    double chain = barcelona(1, "strict", 64), r2 = barcelona(2, "strict", 64);
    double r16 = barcelona(16, "strict", 64);
    ck_assert_msg(r2 < chain && r2 < r16, "strict: radix 2 %.0f, chain %.0f, radix 16 %.0f ns", r2,
                  chain, r16);
    double loose_chain = barcelona(1, "loose", 64), loose_r2 = barcelona(2, "loose", 64);
    ck_assert_msg(loose_chain < chain, "chain: loose %.0f, strict %.0f ns", loose_chain, chain);
    ck_assert_msg(loose_chain < loose_r2, "loose: chain %.0f, radix 2 %.0f ns", loose_chain,
                  loose_r2);
}
END_TEST

/* CLAIM NOT REPRODUCED (Fig 4): on the paper's Barcelona the flat
 * reduction beats the best tree below about 8 doubles (loose) and 32
 * (strict); here a tree beats flat at every size down to one double (loose
 * 632 against 3694 ns, strict 3380 against 7683 ns, 10 collectives).
 * Missing physics: the flat root waits for its 31 children's flags and
 * loads their lines one after the other (the core model is in order; a
 * copy stream overlaps misses, a wait does not), so it pays 31 remote
 * misses in series, where an out-of-order Opteron keeps up to 8 such loads
 * in flight. This asserts what the simulator does. */
START_TEST(test_barcelona_flat_tree_crossover)
{
    double flat = barcelona(0, "strict", 1), tree = barcelona(2, "strict", 1);
    ck_assert_msg(tree < flat, "1 double, strict: radix 2 %.0f, flat %.0f ns", tree, flat);
}
END_TEST

/* Seed 003's generators at the paper's 32 threads with the invariant
 * checker on every access (test_shipped runs them all at 2, 5 and 16). */
START_TEST(test_barcelona_checked)
{
    static const char *const specs[] = {
        "reduce-radix:radix=2,sync=strict,elements=9,count=2",
        "reduce-radix:radix=1,sync=loose,elements=9,count=2",
        "reduce-radix:radix=16,sync=loose,elements=9,count=2",
        "reduce-flat:sync=strict,elements=9,count=2",
        "barrier-radix:radix=4",
    };
    struct machine_cfg m;
    tu_load_config("barcelona", NULL, 0, &m);
    for (size_t i = 0; i < SIM_COUNT_OF(specs); i++) {
        struct sim_diag d;
        sim_diag_init(&d);
        struct wl_program *p = machine_generate(specs[i], 32, ITERS, &m, &d);
        ck_assert_msg(p != NULL, "%s: %s", specs[i], d.text);
        struct core_result r;
        tu_run_program(&m, p, true, &r, &d);
        TU_CHECK(!r.deadlock && r.value_errors == 0 && r.coherence_violations == 0 &&
                     r.iterations == ITERS,
                 "%s -t 32: deadlock %d, value errors %llu, violations %llu: %s", specs[i],
                 r.deadlock, (unsigned long long)r.value_errors,
                 (unsigned long long)r.coherence_violations, d.text);
        core_result_free(&r);
        wl_program_free(p);
    }
}
END_TEST

/* The per-socket probe is a broadcast home's: refused with a probe filter. */
START_TEST(test_probe_per_socket_needs_a_broadcast_home)
{
    struct tu_run run;
    tu_ccsim(&run, "config -c barcelona --set home.probe_filter=true");
    ck_assert_int_eq(run.status, 2);
    ck_assert_msg(strstr(run.err, "home.probe_per_socket applies to a broadcast home only") != NULL,
                  "%s", run.err);
}
END_TEST

static Suite *seed003_suite(void)
{
    Suite *s = suite_create("seed003");
    TCase *tc = tcase_create("barcelona");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_barcelona_table2);
    tcase_add_test(tc, test_barcelona_flat_tree_crossover);
    tcase_add_test(tc, test_barcelona_checked);
    tcase_add_test(tc, test_probe_per_socket_needs_a_broadcast_home);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(seed003_suite());
}
