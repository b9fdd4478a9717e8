/*
 * test_plot.c -- `ccsim run --plot FILE.png`: a PNG when gnuplot is there,
 * exit 2 and an install hint when it is not (never a crash); the file
 * names of cli/plot.h.
 */
#include "plot.h"
#include "sim.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static struct tu_run r;

static bool have_gnuplot(void)
{
    return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

START_TEST(test_files_beside_png)
{
    struct plot_files f;
    ck_assert(plot_files("out/lat.png", &f));
    ck_assert_str_eq(f.dir, "out");
    ck_assert_str_eq(f.png, "lat.png");
    ck_assert_str_eq(f.dat, "lat.dat");
    ck_assert_str_eq(f.gp, "lat.gp");
    ck_assert(plot_files("pic", &f));
    ck_assert_str_eq(f.dir, ".");
    ck_assert_str_eq(f.gp, "pic.gp");
    ck_assert(plot_files("/x.png", &f));
    ck_assert_str_eq(f.dir, "/");
    ck_assert(!plot_files("out/", &f));
}
END_TEST

START_TEST(test_run_plot_png)
{
    if (!have_gnuplot())
        return; /* gnuplot-nox is in scripts/setup.sh; without it see the next test */
    char png[1024];
    snprintf(png, sizeof png, "%s/lat.png", tu_dir());
    tu_ccsim(&r,
             "run -c teach-xbar %s/workloads/traces/pingpong.trace --plot %s "
             "--set xbar.latency_ns=10",
             CCSIM_TEST_DIR "/..", png);
    ck_assert_msg(r.status == 0, "%s", r.err);
    FILE *f = fopen(png, "rb");
    ck_assert_msg(f != NULL, "no %s", png);
    unsigned char sig[8] = {0};
    size_t got = fread(sig, 1, sizeof sig, f);
    fclose(f);
    ck_assert_uint_eq(got, 8);
    ck_assert(memcmp(sig, "\x89PNG\r\n\x1a\n", 8) == 0);
    snprintf(png, sizeof png, "%s/lat.gp", tu_dir());
    ck_assert(access(png, R_OK) == 0);
    /* the title names the threads and the overrides of the machine run */
    const char *gp = tu_slurp(png);
    ck_assert_msg(strstr(gp, "on teach-xbar (mesi) --set xbar.latency_ns=10, 2 threads: 500 "
                             "iterations"),
                  "%s", gp);
    /* a name with no extension is refused, as one with another */
    tu_ccsim(&r, "run -c teach-xbar -w pingpong -t 2 --plot %s/noext", tu_dir());
    ck_assert_msg(r.status == 2 && strstr(r.err, "draws PNG only"), "%s", r.err);
}
END_TEST

START_TEST(test_run_plot_without_gnuplot)
{
    char cmd[2048], err[1024];
    snprintf(err, sizeof err, "%s/nognuplot.err", tu_dir());
    snprintf(cmd, sizeof cmd,
             "env PATH=/nonexistent %s run -c teach-xbar %s/../workloads/traces/pingpong.trace "
             "--plot %s/none.png </dev/null >/dev/null 2>%s",
             CCSIM_BIN, CCSIM_TEST_DIR, tu_dir(), err);
    int st = system(cmd);
    ck_assert(WIFEXITED(st));
    ck_assert_int_eq(WEXITSTATUS(st), 2);
    FILE *f = fopen(err, "r");
    ck_assert(f != NULL);
    char text[4096] = {0};
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    ck_assert_msg(strstr(text, PLOT_MISSING) != NULL, "%s", text);
}
END_TEST

START_TEST(test_plot_is_run_only)
{
    tu_ccsim(&r, "explain -c teach-xbar %s/../workloads/traces/pingpong.trace --plot x.png",
             CCSIM_TEST_DIR);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "unknown option") != NULL, "%s", r.err);
}
END_TEST

/* A run that failed exits 1, the plot it leaves nothing for beside it:
 * the failure is the status (a deadlock is not bad input); an output that
 * fails keeps the run's summary. */
START_TEST(test_failed_run_keeps_its_status)
{
    const char *path = tu_write("dl.trace", "ccsim-trace 1\nthreads 2\nline x\nall: sync\n"
                                            "0: wait x == 5\nall: mark done\n");
    tu_ccsim(&r, "run -c teach-xbar %s --plot %s/dl.png --json %s/dl.json", path, tu_dir(),
             tu_dir());
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.out, "DEADLOCK") && strstr(r.err, "nothing to plot"), "%s\n%s", r.out,
                  r.err);
    /* a trace that cannot be written keeps the run's summary and status */
    tu_ccsim(&r, "run -c teach-xbar %s --trace-out /dev/full", path);
    ck_assert_msg(r.status == 1 && strstr(r.out, "DEADLOCK") && strstr(r.err, "/dev/full"),
                  "%d %s\n%s", r.status, r.out, r.err);
    tu_ccsim(&r, "run -c teach-xbar -w m2o -t 2 -i 2 --trace-out /dev/full");
    ck_assert_msg(r.status == 2 && strstr(r.out, "latency over 2 iterations"), "%d %s\n%s",
                  r.status, r.out, r.err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("plot");
    TCase *tc = tcase_create("plot");
    tcase_add_test(tc, test_files_beside_png);
    tcase_add_test(tc, test_run_plot_png);
    tcase_add_test(tc, test_run_plot_without_gnuplot);
    tcase_add_test(tc, test_plot_is_run_only);
    tcase_add_test(tc, test_failed_run_keeps_its_status);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
