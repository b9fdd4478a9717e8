/*
 * test_bench_workloads.c -- `ccsim bench workloads`: documented in --help,
 * reduced reference runs (--quick --only) print well-formed lines, the SCC's
 * too, bad names are usage errors.
 */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

static struct tu_run r;

START_TEST(test_help_documents_workloads)
{
    tu_ccsim(&r, "bench workloads --help");
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "ccsim bench workloads [--quick] [--only NAME]") != NULL, "%s",
                  r.out);
    const char *names[] = {"knc-barrier-240", "snb-bcast-8k", "mesh1024-barrier",
                           "scc-allreduce-552", "peak_rss_mb"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        ck_assert_msg(strstr(r.out, names[i]) != NULL, "no %s in %s", names[i], r.out);
}
END_TEST

static void quick_line(const char *ref)
{
    tu_ccsim(&r, "bench workloads --quick --only %s", ref);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    char name[64];
    double wall, eps, slowdown, rss;
    unsigned long long sim_ns;
    long iterations;
    int n = sscanf(r.out,
                   "%63s wall_s=%lf events_per_s=%lf simulated_ns=%llu slowdown=%lf "
                   "peak_rss_mb=%lf iterations=%ld",
                   name, &wall, &eps, &sim_ns, &slowdown, &rss, &iterations);
    ck_assert_msg(n == 7, "malformed: %s", r.out);
    ck_assert_int_eq(iterations, 2); /* --quick: said, not passed off as a full run */
    ck_assert_str_eq(name, ref);
    ck_assert(wall > 0 && eps > 0 && sim_ns > 0 && slowdown > 0 && rss > 0);
}

START_TEST(test_quick_run_prints_a_line)
{
    quick_line("snb-bcast-8k");
    quick_line("scc-allreduce-552");
}
END_TEST

START_TEST(test_bad_names)
{
    tu_ccsim(&r, "bench workloads --only warp-drive");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "no reference run 'warp-drive'") != NULL, "%s", r.err);
    tu_ccsim(&r, "bench workloads extra");
    ck_assert_int_eq(r.status, 2);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("bench_workloads");
    TCase *tc = tcase_create("cli");
    tcase_add_test(tc, test_help_documents_workloads);
    tcase_add_test(tc, test_quick_run_prints_a_line);
    tcase_add_test(tc, test_bad_names);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
