/*
 * test_shipped.c -- every built-in generator, with the checker on, on every
 * shipped coherent machine at 2, 5 and 16 threads (and 240 on the Xeon Phi;
 * 120, two hardware threads a core, in the sanitizer pass: tu_small_scale):
 * zero value errors, zero coherence violations, no deadlock. Generated for
 * each machine through the same path as `ccsim run -w` (pinning, line size).
 */
#include "cli.h"
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#define ITERS 4

static void load(const char *name, struct machine_cfg *m)
{
    char path[1024];
    struct sim_diag d;
    sim_diag_init(&d);
    snprintf(path, sizeof path, "%s/%s.cfg", CCSIM_CONFIGS, name);
    ck_assert_msg(machine_load(m, path, NULL, 0, &d), "%s", d.text);
}

/* Runs one spec; returns false if the generator refuses the thread count. */
static bool run_one(const struct machine_cfg *m, const char *spec, int threads)
{
    struct sim_diag d;
    sim_diag_init(&d);
    struct wl_program *p = machine_generate(spec, threads, ITERS, m, &d);
    if (!p) {
        ck_assert_msg(strstr(d.text, "thread") != NULL, "%s -t %d on %s: %s", spec, threads,
                      m->machine.name, d.text);
        return false;
    }
    struct machine *mc = machine_build(m, 1, &d);
    ck_assert_msg(mc != NULL, "%s", d.text);
    cc_check_enable(mc->cc, false);
    struct core_machine w;
    machine_view(mc, &w);
    struct core_run_opts o = {.watchdog_ps = 100000000000ull, .max_reports = 3};
    struct core_result r;
    core_run(&w, p, &o, &r, &d);
    ck_assert_msg(!r.input_error && !r.deadlock && r.value_errors == 0 &&
                      r.coherence_violations == 0 && r.iterations == ITERS,
                  "%s -t %d on %s: input error %d, deadlock %d, value errors %llu, violations "
                  "%llu, iterations %llu: %s",
                  spec, threads, m->machine.name, r.input_error, r.deadlock,
                  (unsigned long long)r.value_errors, (unsigned long long)r.coherence_violations,
                  (unsigned long long)r.iterations, d.text);
    core_result_free(&r);
    machine_free(mc);
    wl_program_free(p);
    return true;
}

static const char *const specs[] = {
    "pingpong",
    "pingpong:lines=8",
    "m2o",
    "m2o:lines=diff",
    "o2m",
    "o2m:lines=diff",
    "m2o-tree",
    "o2m-tree",
    "barrier-dissemination",
    "barrier-dissemination:m=2",
    "barrier-multim",
    "barrier-pairwise",
    "barrier-socketroot",
    "bcast-tree:shape=flat",
    "bcast-tree:shape=binary",
    "bcast-tree:shape=binomial",
    "bcast-tree:shape=kary:3",
    "bcast-multiline:lines=16",
    "reduce-tree",
    "reduce-binomial:lines=4",
    "barrier-central",
    "barrier-linear",
    "barrier-combining",
    "barrier-butterfly",
    "barrier-extbutterfly",
    "reduce-linear:values=2",
    "reduce-extbutterfly:values=7",
    "reduce-flat:sync=loose",
    "reduce-radix:radix=2",
    "reduce-radix:radix=1,sync=loose,elements=12",
    "barrier-radix:radix=4",
};

static const char *const machines[] = {"snb-e5-2660", "knc-5110p", "opteron-6272", "barcelona"};

START_TEST(test_every_generator_every_machine)
{
    /* the sanitizer pass leaves out barcelona (16 s there): test_seed003
     * runs it under the sanitizers, and test_topology its network */
    if (tu_small_scale() && strcmp(machines[_i], "barcelona") == 0)
        return;
    struct machine_cfg m;
    load(machines[_i], &m);
    static const int counts[] = {2, 5, 16};
    /* the sanitizer pass (tu_small_scale) leaves out 5 threads */
    size_t ncounts = SIM_COUNT_OF(counts);
    int ran = 0, tried = 0;
    for (size_t s = 0; s < SIM_COUNT_OF(specs); s++)
        for (size_t c = 0; c < ncounts; c++) {
            if (tu_small_scale() && counts[c] == 5)
                continue;
            ran += run_one(&m, specs[s], counts[c]);
            tried++;
        }
    ck_assert_int_ge(ran, tried - 2 * (tried / (int)SIM_COUNT_OF(specs)));
}
END_TEST

START_TEST(test_knc_240_threads)
{
    struct machine_cfg m;
    load("knc-5110p", &m);
    static const char *const big[] = {"barrier-dissemination", "m2o",
                                      "o2m:lines=diff",        "bcast-tree:shape=binomial",
                                      "reduce-tree",           "reduce-binomial:lines=2"};
    int threads = tu_small_scale() ? 120 : 240;
    for (size_t s = 0; s < SIM_COUNT_OF(big); s++)
        ck_assert(run_one(&m, big[s], threads));
}
END_TEST

static Suite *shipped_suite(void)
{
    Suite *s = suite_create("shipped");
    TCase *tc = tcase_create("generators");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_every_generator_every_machine, 0, SIM_COUNT_OF(machines));
    tcase_add_test(tc, test_knc_240_threads);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(shipped_suite());
}
