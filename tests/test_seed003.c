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
 * iteration) at n threads on a shipped machine, the checker on but not
 * fatal; the run must end right (no violation, no value error). */
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
 * 110 us against 306 (chain) and 213 (radix 16); here at 8 KB 26.8 against
 * 57.7 and 52.8 us (and 29.8 for radix 4, which the cut-down run does not
 * order).
 *
 * Loose against strict: the loosely synchronised chain beats the strictly
 * synchronised one (paper: 46.4 against 306 us).
 *
 * Loose: the chain is the best tree once its pipeline is full (paper: 46.4
 * us against 52.9 for radix 2; here at 8 KB and 40 collectives 26.1
 * against 29.1). With 2 collectives an iteration the chain's 31 levels are
 * not amortised and radix 2 wins. With every core probed rather than every
 * socket (--set home.probe_per_socket=false) the homes and links saturate
 * and radix 2 wins at 40 too (92.5 against 98.0 us). */
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
 * 643 against 3745 ns, strict 3506 against 7815 ns, 10 collectives).
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

/* Each spec at n threads on a shipped machine with the invariant checker
 * on every access: no deadlock, value error or violation. */
static void run_checked(const char *machine, const char *const *specs, size_t nspecs, int n)
{
    struct machine_cfg m;
    tu_load_config(machine, NULL, 0, &m);
    for (size_t i = 0; i < nspecs; i++) {
        struct sim_diag d;
        sim_diag_init(&d);
        struct wl_program *p = machine_generate(specs[i], n, ITERS, &m, &d);
        ck_assert_msg(p != NULL, "%s: %s", specs[i], d.text);
        struct core_result r;
        tu_run_program(&m, p, true, &r, &d);
        TU_CHECK(!r.deadlock && r.value_errors == 0 && r.coherence_violations == 0 &&
                     r.iterations == ITERS,
                 "%s %s -t %d: deadlock %d, value errors %llu, violations %llu: %s", machine,
                 specs[i], n, r.deadlock, (unsigned long long)r.value_errors,
                 (unsigned long long)r.coherence_violations, d.text);
        core_result_free(&r);
        wl_program_free(p);
    }
}

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
    run_checked("barcelona", specs, SIM_COUNT_OF(specs), 32);
}
END_TEST

/* On Niagara2 (configs/niagara2.cfg) at the paper's 256 threads: one
 * collective of spec, `count` an iteration. */
static double niagara2(const char *spec, int count)
{
    double t = per_collective("niagara2", spec, 256, count);
    printf("niagara2 -t 256 %s: %.0f ns a collective\n", spec, t);
    return t;
}

/* Fig 3, 5 (Niagara2): trees beat the flat reduction at every vector size
 * (here 1 double: radix 4 3.4 against 65 us; 8 KB: 183 against 4 432 us),
 * and loose synchronisation beats strict where latency dominates (1
 * double, radix 2: 1.11 against 2.71 us), the gap closing as the vector
 * grows (64 doubles: 7.3 against 8.4 us). Table 2, strict: a tree beats the
 * chain (8 KB: radix 2 118, radix 4 183, chain 1 659 us; the paper 2 115,
 * 1 774, 3 103 us).
 *
 * CLAIM NOT REPRODUCED (Table 2): the paper's best strict radix is 4 and
 * its best loose tree the chain; here radix 2 wins both (8 KB strict: 118
 * against 183 us; loose, 10 collectives: 138 against the chain's 417 and
 * radix 4's 244 us). A parent adds its children's vectors one after the
 * other through its core's one load/store unit, which its 7 sibling
 * threads share, so a wider tree costs more than its lost depth saves.
 * What the model lacks to weigh depth as the machine does is not known:
 * the paper's figures are 10 to 20 times ours for the trees (ms for an 8 KB
 * reduction), which no mechanism here accounts for. Asserted as the
 * simulator has it, cut to 16 doubles. */
START_TEST(test_niagara2_reductions)
{
    double flat = niagara2("reduce-flat:sync=strict,elements=1,count=2", 2);
    double r4 = niagara2("reduce-radix:radix=4,sync=strict,elements=1,count=2", 2);
    ck_assert_msg(r4 < flat, "1 double, strict: radix 4 %.0f, flat %.0f ns", r4, flat);
    double strict = niagara2("reduce-radix:radix=2,sync=strict,elements=1,count=10", 10);
    double loose = niagara2("reduce-radix:radix=2,sync=loose,elements=1,count=10", 10);
    ck_assert_msg(loose < strict, "radix 2, 1 double: loose %.0f, strict %.0f ns", loose, strict);
    double chain = niagara2("reduce-radix:radix=1,sync=strict,elements=16,count=2", 2);
    double t2 = niagara2("reduce-radix:radix=2,sync=strict,elements=16,count=2", 2);
    double t4 = niagara2("reduce-radix:radix=4,sync=strict,elements=16,count=2", 2);
    ck_assert_msg(t2 < chain && t4 < chain, "16 doubles, strict: chain %.0f, radix 2 %.0f, 4 %.0f",
                  chain, t2, t4);
    ck_assert_msg(t2 < t4, "16 doubles, strict: radix 2 %.0f, radix 4 %.0f ns", t2, t4);
}
END_TEST

/* CLAIM NOT REPRODUCED (Fig 2): on the paper's Niagara2 the tree barrier
 * beats the flat one by an order of magnitude at 256 threads; here the flat
 * barrier is faster (1.76 against 2.07 us for radix 4, start skew 0). The
 * root's counter is added to at its chip's L2 bank, one access every
 * bank_busy_cycles, and the 255 waiting threads sleep until their line
 * changes. Missing: spinning threads take their core's issue and
 * load/store slots from the root and from each other (a T2 core has one
 * load/store unit for its 8 threads), and an atomic holds its L2 bank for a
 * read and a write. Asserted as the simulator has it. */
START_TEST(test_niagara2_flat_barrier)
{
    const char *const skew0[] = {"variability.start_skew_ns=0"};
    struct machine_cfg m;
    tu_load_config("niagara2", skew0, 1, &m);
    double flat = tu_median(&m, "barrier-radix:radix=255", 256, 4, false);
    double tree = tu_median(&m, "barrier-radix:radix=4", 256, 4, false);
    printf("niagara2 -t 256 barrier: flat %.0f, radix 4 %.0f ns\n", flat, tree);
    ck_assert_msg(flat < tree, "barrier: flat %.0f, radix 4 %.0f ns", flat, tree);
}
END_TEST

/* Seed 003's generators on Niagara2 at 256 threads (every chip, core and
 * hardware thread) with the invariant checker on every access. */
START_TEST(test_niagara2_checked)
{
    static const char *const specs[] = {
        "reduce-radix:radix=4,sync=strict,elements=9,count=2",
        "reduce-radix:radix=1,sync=loose,elements=9,count=2",
        "reduce-flat:sync=loose,elements=9,count=2",
        "barrier-radix:radix=8",
    };
    /* the sanitizer pass: two of the four chips */
    run_checked("niagara2", specs, SIM_COUNT_OF(specs), tu_small_scale() ? 64 : 256);
}
END_TEST

/* Seed 003 Sec 4 (Fig 5-6) on its Clovertown (configs/clovertown.cfg, 8
 * threads: two sockets of two dies sharing an L2 each, front-side buses):
 * the flat barrier beats the binary tree (1 316 against 1 645 ns, seed 1;
 * every seed of 1-5 the same way): at low thread counts the tree's extra
 * level of point-to-point synchronisation costs more than the root's
 * serial work.
 *
 * CLAIM NOT REPRODUCED for the reduction: the radix-2 tree beats the flat
 * one (strict, 1 double, 2 collectives an iteration as here: 1 946 against
 * 2 648 ns a collective; 10 collectives, 40 iterations: 1 703 against 2 441;
 * loose: 426 against 862). As on Barcelona (Fig 4 above), the flat root waits for its
 * 7 children's flags and loads their lines one after the other in the
 * in-order core model, where the real core overlaps them. Asserted as the
 * simulator has it. */
START_TEST(test_clovertown_flat_and_tree)
{
    struct machine_cfg m;
    tu_load_config("clovertown", NULL, 0, &m);
    double flat = tu_median(&m, "barrier-radix:radix=7", 8, 40, false);
    double tree = tu_median(&m, "barrier-radix:radix=2", 8, 40, false);
    printf("clovertown -t 8 barrier: flat %.0f, radix 2 %.0f ns\n", flat, tree);
    ck_assert_msg(flat < tree, "barrier: flat %.0f, radix 2 %.0f ns", flat, tree);
    double rflat = per_collective("clovertown", "reduce-flat:sync=strict,elements=1,count=2", 8, 2);
    double rtree =
        per_collective("clovertown", "reduce-radix:radix=2,sync=strict,elements=1,count=2", 8, 2);
    printf("clovertown -t 8 reduction: flat %.0f, radix 2 %.0f ns\n", rflat, rtree);
    ck_assert_msg(rtree < rflat, "reduction: flat %.0f, radix 2 %.0f ns", rflat, rtree);
}
END_TEST

/* Seed 003's generators on Clovertown at its 8 threads, checked. */
START_TEST(test_clovertown_checked)
{
    static const char *const specs[] = {
        "reduce-radix:radix=2,sync=strict,elements=9,count=2",
        "reduce-radix:radix=1,sync=loose,elements=9,count=2",
        "reduce-flat:sync=strict,elements=9,count=2",
        "barrier-radix:radix=7",
    };
    run_checked("clovertown", specs, SIM_COUNT_OF(specs), 8);
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
    TCase *n2 = tcase_create("niagara2");
    tcase_set_timeout(n2, 120);
    tcase_add_test(n2, test_niagara2_reductions);
    tcase_add_test(n2, test_niagara2_flat_barrier);
    tcase_add_test(n2, test_niagara2_checked);
    suite_add_tcase(s, n2);
    TCase *cl = tcase_create("clovertown");
    tcase_set_timeout(cl, 120);
    tcase_add_test(cl, test_clovertown_flat_and_tree);
    tcase_add_test(cl, test_clovertown_checked);
    suite_add_tcase(s, cl);
    return s;
}

int main(void)
{
    return tu_run_suite(seed003_suite());
}
