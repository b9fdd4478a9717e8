/*
 * test_papercuts.c -- a user's first hour with the CLI (issue 22 item 5):
 * output paths checked before a run, --json - on stdout, --plot PNG only,
 * options that need another, suggestions for a misspelt subcommand, a bad
 * option named, clear messages for a missing sweep file and a directory
 * given as a trace, value errors by the trace's own iteration, a deadlock
 * that measured nothing, the pinning error with its line and fix,
 * validate's --optimize thread count and one-point plots, tune's --json
 * and a fixed parameter, sweeps of trace files with --set per config.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LAB2 CCSIM_TEST_DIR "/../docs/labs/02-line-stealing/polled.trace"

static struct tu_run r;

START_TEST(test_outputs_checked_before_the_run)
{
    tu_ccsim(&r, "run -c teach-xbar %s --json /no/such/dir/x.json", LAB2);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--json /no/such/dir/x.json: cannot write there: its folder does "
                                "not exist"),
                  "%s", r.err);
    ck_assert_msg(strstr(r.out, "latency") == NULL, "it ran first: %s", r.out);
    tu_ccsim(&r, "run -c teach-xbar %s --plot /no/such/dir/x.png", LAB2);
    ck_assert_int_eq(r.status, 2);
    ck_assert(strstr(r.out, "latency") == NULL);
    tu_ccsim(&r, "microbench -c teach-xbar --json %s", tu_dir()); /* a directory */
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "cannot write there: it is a directory"), "%s", r.err);
    tu_ccsim(&r, "run -c teach-xbar %s --plot %s/x.jpg", LAB2, tu_dir());
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "draws PNG only"), "%s", r.err);
    /* two outputs in one file: one would overwrite the other (the JSON was lost) */
    tu_ccsim(&r, "run -c teach-xbar %s --json %s/same.json --trace-out %s/./same.json", LAB2,
             tu_dir(), tu_dir());
    ck_assert_msg(r.status == 2 && strstr(r.err, "--json and --trace-out both write") &&
                      !strstr(r.out, "latency"),
                  "%s%s", r.out, r.err);
}
END_TEST

START_TEST(test_json_to_stdout)
{
    tu_ccsim(&r, "run -c teach-xbar %s --json -", LAB2);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(r.out[0] == '{' && strstr(r.out, "\"latency_ns\"") &&
                      !strstr(r.out, "ccsim run:"),
                  "%s", r.out);
    ck_assert(strstr(r.err, "ccsim run: ") != NULL); /* the summary went to stderr */
    tu_ccsim(&r, "tune -c teach-xbar -w m2o -t 4 -i 3 --json -");
    ck_assert_msg(r.status == 0 && r.out[0] == '{' && strstr(r.out, "\"best\": {\"workload\": "),
                  "%s", r.out);
}
END_TEST

START_TEST(test_option_errors)
{
    tu_ccsim(&r, "run -c teach-xbar %s --trace-window 0:100", LAB2);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--trace-window needs --trace-out FILE"), "%s", r.err);
    tu_ccsim(&r, "runn -c teach-xbar");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "unknown subcommand 'runn' (did you mean 'run'?)"), "%s", r.err);
    tu_ccsim(&r, "protocol gols --bogus");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "unknown option '--bogus'"), "%s", r.err);
    tu_ccsim(&r, "sweep %s/no-such.sweep", tu_dir());
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "no-such.sweep: cannot open sweep file: "), "%s", r.err);
    tu_ccsim(&r, "run -c teach-xbar %s", tu_dir());
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "it is a directory, not a trace file"), "%s", r.err);
    /* a prime into a state the protocol lacks is the trace's error, at its line */
    const char *pe = tu_write("pe.trace", "ccsim-trace 1\nthreads 1\nline x\nfor it 0..1 {\n"
                                          "  all: sync\n  all: prime x E\n  all: read x\n"
                                          "  all: mark d\n}\n");
    tu_ccsim(&r, "run -c teach-xbar %s --set machine.protocol=msi", pe);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "pe.trace:6:3: thread 0, iteration 0: prime E: the machine's "
                                "protocol has no E state (it can prime M, S)"),
                  "%s", r.err);
    /* the other subcommand's option is named, not its value */
    tu_ccsim(&r, "explain -c teach-xbar %s --json x.json", LAB2);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "unknown option '--json' (an option of ccsim run)"), "%s", r.err);
    tu_ccsim(&r, "run -c teach-xbar %s --line flag", LAB2);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "unknown option '--line' (an option of ccsim explain)"), "%s",
                  r.err);
    /* a misspelt option: the nearest of the subcommand's */
    tu_ccsim(&r, "run -c teach-xbar %s --chek", LAB2);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "unknown option '--chek' (did you mean '--check'?)"), "%s", r.err);
}
END_TEST

/* Value errors name the iteration as the trace counts it and how many more
 * there were; a deadlock before any iteration ended measures nothing. */
START_TEST(test_run_failures_say_what_happened)
{
    const char *bad = tu_write("bad.trace", "ccsim-trace 1\nthreads 1\nline x\nfor it 3..14 {\n"
                                            "  all: sync\n  all: write x it\n  all: mark m\n"
                                            "  all: expect x == 0\n}\n");
    tu_ccsim(&r, "run -c teach-xbar %s", bad);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "value error: thread 0, iteration 3: expect x.0 == 0, but it is 3"),
                  "%s", r.err);
    ck_assert_msg(strstr(r.err, "2 more value error(s) not shown"), "%s", r.err);
    tu_ccsim(&r, "run -c teach-xbar %s --max-errors 0", bad); /* every one of them */
    ck_assert_msg(strstr(r.err, "iteration 14: expect x.0 == 0, but it is 14") &&
                      !strstr(r.err, "not shown"),
                  "%s", r.err);
    /* a loop inside an if is still the outermost loop: its value names the
     * iteration, in messages and in explain */
    const char *inif =
        tu_write("inif.trace", "ccsim-trace 2\nthreads 1\nline x\nif n > 0 {\n"
                               "  for it 3..5 {\n    all: sync\n    all: write x it\n"
                               "    all: mark m\n    all: expect x == 0\n  }\n}\n");
    tu_ccsim(&r, "run -c teach-xbar %s", inif);
    ck_assert_msg(strstr(r.err, "value error: thread 0, iteration 3: expect x.0 == 0"), "%s",
                  r.err);
    tu_ccsim(&r, "explain -c teach-xbar %s --iteration 4", inif);
    ck_assert_msg(r.status == 1 && strstr(r.out, "iteration 4 opens: the sync releases") &&
                      strstr(r.out, "(thread 0, it 4: write x 4)"),
                  "%s%s", r.out, r.err);
    const char *dl = tu_write("dl.trace", "ccsim-trace 1\nthreads 2\nline f\nfor it 0..3 {\n"
                                          "  all: sync\n  1: wait f == 5\n  all: mark d\n}\n");
    tu_ccsim(&r, "run -c teach-xbar %s", dl);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.out, "latency: no iteration completed before the deadlock") &&
                      !strstr(r.out, "latency over"),
                  "%s", r.out);
    /* no mark: iterations ended (thread 1 is in iteration 4), none measured */
    const char *nm = tu_write("nm.trace", "ccsim-trace 1\nthreads 2\nline flag\nfor it 0..9 {\n"
                                          "  all: sync\n  0: write flag it\n  1: wait flag == it\n"
                                          "  1: wait flag <= 3\n}\n");
    tu_ccsim(&r, "run -c teach-xbar %s", nm);
    ck_assert_msg(r.status == 1 && strstr(r.out, "latency: no iteration was measured (no `mark`); "
                                                 "the run ended in a deadlock\n"),
                  "%s", r.out);
    /* on the SCC a spin reads its core's stale copy: the report gives that
     * word and what the line holds (it gave the line's 1 alone) */
    const char *spin =
        tu_write("sccspin.trace", "ccsim-trace 2\nthreads 2\nline flag\n"
                                  "all: let v = 0\n1: read flag -> v\n"
                                  "0: write flag 1\nif t == 1 {\n"
                                  "  while v == 0 {\n    1: read flag -> v\n  }\n}\n");
    tu_ccsim(&r, "run -c scc %s", spin);
    ck_assert_msg(r.status == 1 && strstr(r.err, "spins in a while loop, in read flag; the word "
                                                 "flag.0 is 0 to its core (its stale copy; the "
                                                 "line holds 1)\n"),
                  "%s", r.err);
}
END_TEST

/* More threads than the machine has places: the trace's threads line, where
 * thread i goes, and the fix. */
START_TEST(test_pinning_error)
{
    const char *t8 = tu_write("t8.trace", "ccsim-trace 1\nthreads 8\nline f\nall: write f 1\n");
    tu_ccsim(&r, "run -c teach-xbar %s", t8);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "t8.trace:2: threads 8 do not fit the machine's 4 cores") &&
                      strstr(r.err, "--set machine.cores=8"),
                  "%s", r.err);
    tu_ccsim(&r, "run -c teach-xbar %s --set machine.cores=8", t8);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *pin =
        tu_write("pin.trace", "ccsim-trace 1\nthreads 2\npin 0 7\nline f\nall: write f 1\n");
    tu_ccsim(&r, "run -c teach-xbar %s", pin);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "pin.trace:3:7: core 7 is out of range (0..3); the machine has 4 "
                                "cores (--set machine.cores=8 for more)"),
                  "%s", r.err);
}
END_TEST

/* validate: --optimize runs at the core count as its help says; a plot of
 * one point has a range around it and a box for the band; powers of two get
 * a log2 axis. */
START_TEST(test_validate_optimize_and_plots)
{
    tu_ccsim(&r, "validate -c teach-xbar --optimize");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "barrier-dissemination, 4 threads:"), "%s", r.out);
    /* a ratio below 1 is never called "faster" */
    for (const char *x = strstr(r.out, "x faster"); x; x = strstr(x + 1, "x faster"))
        ck_assert_msg(!(x[-4] == '0' && x[-3] == '.'), "%s", r.out);
    char dir[600], gp[700];
    snprintf(dir, sizeof dir, "%s/plots", tu_dir());
    tu_ccsim(&r, "validate -c teach-xbar -w m2o:lines=same --threads 4 --plot %s", dir);
    if (r.status == 2 && strstr(r.err, "gnuplot"))
        return; /* no gnuplot here: nothing to draw */
    ck_assert_msg(r.status == 0, "%s", r.err);
    snprintf(gp, sizeof gp, "%s/m2o_lines_same.gp", dir);
    FILE *f = fopen(gp, "r");
    ck_assert(f != NULL);
    char text[4096];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    /* one point: a box for its band, threads from 0 with a tick at the count, the
     * machine and params in the title */
    ck_assert_msg(strstr(text, "set xrange [0:") && strstr(text, "set xtics (4)") &&
                      strstr(text, "boxxyerror") &&
                      strstr(text, "m2o:lines=same: teach-xbar, params "),
                  "%s", text);
}
END_TEST

START_TEST(test_tune_fixed_parameter)
{
    tu_ccsim(&r, "tune -c teach-xbar -w bcast-tree:shape=binary -t 4 -i 3");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "shape is fixed by -w bcast-tree:shape=binary") &&
                      !strstr(r.out, "no candidate ran"),
                  "%s", r.out);
}
END_TEST

/* A sweep runs trace files (one point per config and seed, the trace's
 * threads) and configs with their own --set overrides. */
START_TEST(test_sweep_traces_and_sets)
{
    char text[1200];
    snprintf(text, sizeof text,
             "sweep = { configs = [\"teach-xbar\", \"teach-xbar --set xbar.latency_ns=20\"];\n"
             "  workloads = [\"%s\", \"m2o\"]; threads = [2, 4]; iterations = 3; };\n",
             LAB2);
    const char *sweep = tu_write("tr.sweep", text);
    tu_ccsim(&r, "sweep %s -j 1", sweep);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char row[1400];
    snprintf(row, sizeof row, "\nteach-xbar,%s,4,0,1,993.000,", LAB2);
    ck_assert_msg(strstr(r.out, row), "%s", r.out);
    snprintf(row, sizeof row, "\nteach-xbar --set xbar.latency_ns=20,%s,4,0,1,", LAB2);
    ck_assert_msg(strstr(r.out, row), "%s", r.out);
    ck_assert_msg(strstr(r.err, "6 points: 6 run"), "%s", r.err);
    const char *bad = tu_write("bad.sweep", "sweep = { configs = [\"teach-xbar --set l1.ways=0\"]; "
                                            "workloads = [\"m2o\"]; threads = [2]; };\n");
    tu_ccsim(&r, "sweep %s", bad);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--set: l1.ways = 0 is out of range") &&
                      strstr(r.err, "'teach-xbar --set l1.ways=0' does not load"),
                  "%s", r.err);
}
END_TEST

static Suite *papercuts_suite(void)
{
    Suite *s = suite_create("papercuts");
    TCase *tc = tcase_create("papercuts");
    tcase_add_test(tc, test_outputs_checked_before_the_run);
    tcase_add_test(tc, test_json_to_stdout);
    tcase_add_test(tc, test_option_errors);
    tcase_add_test(tc, test_run_failures_say_what_happened);
    tcase_add_test(tc, test_pinning_error);
    tcase_add_test(tc, test_validate_optimize_and_plots);
    tcase_add_test(tc, test_tune_fixed_parameter);
    tcase_add_test(tc, test_sweep_traces_and_sets);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(papercuts_suite());
}
