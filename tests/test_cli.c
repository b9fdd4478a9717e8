/*
 * test_cli.c -- the ccsim binary as a user runs it: exit statuses 0 / 2,
 * messages that name the file and line, help and version, bench engine.
 */
#include "sim.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct tu_run r;

START_TEST(test_version_and_help)
{
    tu_ccsim(&r, "--version");
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strncmp(r.out, "ccsim ", 6) == 0, "%s", r.out);
    tu_ccsim(&r, "--help");
    ck_assert_int_eq(r.status, 0);
    ck_assert(strstr(r.out, "subcommands:") != NULL);
    ck_assert(strstr(r.out, "bench") != NULL);
    tu_ccsim(&r, "bench --help");
    ck_assert_int_eq(r.status, 0);
    ck_assert(strstr(r.out, "usage: ccsim bench engine") != NULL);
    tu_ccsim(&r, "config -h");
    ck_assert_int_eq(r.status, 0);
    ck_assert(strstr(r.out, "usage: ccsim config") != NULL);
}
END_TEST

START_TEST(test_usage_errors_exit_2)
{
    tu_ccsim(&r, "%s", "");
    ck_assert_int_eq(r.status, 2);
    tu_ccsim(&r, "frobnicate");
    ck_assert_int_eq(r.status, 2);
    ck_assert(strstr(r.err, "unknown subcommand 'frobnicate'") != NULL);
    tu_ccsim(&r, "bench engine --pending");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "needs a value") != NULL, "%s", r.err);
    tu_ccsim(&r, "bench engine --pending lots");
    ck_assert_int_eq(r.status, 2);
    ck_assert(strstr(r.err, "--pending 'lots' is not a whole number") != NULL);
    tu_ccsim(&r, "bench engine --colour red");
    ck_assert_int_eq(r.status, 2);
    ck_assert(strstr(r.err, "unknown option '--colour'") != NULL);
    tu_ccsim(&r, "bench warp");
    ck_assert_int_eq(r.status, 2);
    tu_ccsim(&r, "list gizmos");
    ck_assert_int_eq(r.status, 2);
    tu_ccsim(&r, "config");
    ck_assert_int_eq(r.status, 2);
    ck_assert(strstr(r.err, "-c CONFIG is required") != NULL);
}
END_TEST

START_TEST(test_missing_config_names_file)
{
    tu_ccsim(&r, "config -c /no/such/machine.cfg");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "/no/such/machine.cfg: no such config file") != NULL, "%s", r.err);
    tu_ccsim(&r, "config -c /dev/null"); /* it is there: not "no such file" */
    ck_assert_msg(r.status == 2 &&
                      strstr(r.err, "/dev/null: cannot read config: not a regular file"),
                  "%s", r.err);
}
END_TEST

START_TEST(test_bad_config_file_line)
{
    const char *path =
        tu_write("bad.cfg", "machine = {\n"
                            "  name = \"t\"; protocol = \"mesi\"; topology = \"xbar\";\n"
                            "  cores = 4; clock_ghz = 2.0; line_bytes = 64;\n"
                            "  colour = \"red\";\n"
                            "};\n"
                            "l1 = { size_kb = 32; ways = 8; latency_cycles = 4; };\n"
                            "memory = { latency_ns = 80.0; };\n");
    tu_ccsim(&r, "config -c %s", path);
    ck_assert_int_eq(r.status, 2);
    char want[600];
    snprintf(want, sizeof want, "%s:4: unknown key 'colour' in section 'machine'", path);
    ck_assert_msg(strstr(r.err, want) != NULL, "want %s in %s", want, r.err);
    ck_assert_str_eq(r.out, "");
}
END_TEST

START_TEST(test_config_prints_machine)
{
    tu_ccsim(&r, "config -c %s/knc-5110p.cfg", CCSIM_CONFIGS);
    ck_assert_int_eq(r.status, 0);
    ck_assert(strstr(r.out, "knc-5110p") != NULL);
    ck_assert(strstr(r.out, "threads_per_core") != NULL);
    /* by shipped name, with an override */
    tu_ccsim(&r, "config -c snb-e5-2660 --set l1.size_kb=1");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert(strstr(r.out, "size_kb            1 KiB") != NULL);
    /* the paper's figures it gives, none it has not (no "0 ns (default)") */
    ck_assert_msg(strstr(r.out, "R_QI_ns            107 ns") && !strstr(r.out, "contention_b_ns"),
                  "%s", r.out);
    /* libconfig keeps only the low 32 bits of a wider integer without L:
     * refused, not read as 8 */
    tu_ccsim(&r, "config -c teach-xbar --set l1.ways=4294967304");
    ck_assert_msg(r.status == 2 && strstr(r.err, "the integer 4294967304 does not fit a plain "
                                                 "integer"),
                  "%s", r.err);
    tu_ccsim(&r, "config -c teach-xbar --set l1.ways=-2147483649"); /* with its sign */
    ck_assert_msg(r.status == 2 && strstr(r.err, "the integer -2147483649 does not fit a plain "
                                                 "integer (libconfig would keep its low 32 bits): "
                                                 "write -2147483649L"),
                  "%s", r.err);
    /* past 64 bits libconfig keeps INT64_MAX (or -1): refused as written, not as that */
    tu_ccsim(&r, "config -c teach-xbar --set l1.ways=18446744073709551615L");
    ck_assert_msg(r.status == 2 && strstr(r.err, "the integer 18446744073709551615L does not fit "
                                                 "a 64-bit integer"),
                  "%s", r.err);
    const char *big = tu_write("big.cfg", "@include \"" CCSIM_CONFIGS "/teach-xbar.cfg\"\n"
                                          "# 99999999999 in a comment is fine\n"
                                          "l1 = { ways = 4294967304; };\n");
    tu_ccsim(&r, "config -c %s", big);
    ck_assert_msg(r.status == 2 && strstr(r.err, "big.cfg:3: the integer 4294967304"), "%s", r.err);
    /* an empty file says so (libconfig's words were 'syntax error: syntax error') */
    tu_ccsim(&r, "config -c %s", tu_write("empty.cfg", ""));
    ck_assert_msg(r.status == 2 && strstr(r.err, "empty.cfg: the file is empty"), "%s", r.err);
    tu_ccsim(&r, "config -c %s", tu_write("broken.cfg", "machine = { name = \"x\"\n"));
    ck_assert_msg(r.status == 2 && strstr(r.err, "broken.cfg:2: syntax error (expected") &&
                      !strstr(r.err, "syntax error: syntax error"),
                  "%s", r.err);
}
END_TEST

/* Options that would be dropped silently are refused: --set with nothing
 * to set, both of two exclusive options, an empty list, one option twice. */
START_TEST(test_nothing_silently_dropped)
{
    static const char *const cmds[][2] = {
        {"gen pingpong -t 2 --set xbar.latency_ns=5", "--set needs -c CONFIG"},
        {"verify mesi --mutants --mutant 3", "--mutant K or --mutants, not both"},
        {"verify mesi extra", "unexpected argument 'extra'"},
        {"bench workloads --only knc-barrier-240 --only snb-bcast-8k --quick",
         "--only is given twice"},
        /* the last of two values was taken, the first dropped unsaid */
        {"run -c teach-xbar -w m2o -t 2 --seed 1 --seed 2", "ccsim run: --seed is given twice"},
        {"run -c teach-xbar -w m2o -t 2 --json a.json --json b.json", "--json is given twice"},
        {"run -c teach-xbar -c snb-e5-2660 -w m2o -t 2", "--config is given twice"},
        {"tune -c teach-xbar -w m2o -w o2m -t 2", "ccsim tune: --workload is given twice"},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        tu_ccsim(&r, "%s", cmds[i][0]);
        ck_assert_msg(r.status == 2 && strstr(r.err, cmds[i][1]), "%s: %s", cmds[i][0], r.err);
    }
    /* --set, and validate's -w, are repeatable */
    tu_ccsim(&r, "validate -c teach-xbar -w m2o -w o2m -t 2 -i 3 --set xbar.latency_ns=5 "
                 "--set xbar.latency_ns=6");
    ck_assert_msg(r.status == 0 && strstr(r.out, "o2m"), "%s", r.err);
    tu_ccsim(&r, "calibrate -c teach-xbar --targets %s/targets/snb-e5-2660.cfg --params ''",
             CCSIM_CONFIGS);
    ck_assert_msg(r.status == 2 && strstr(r.err, "--params is empty"), "%s", r.err);
    /* an output that cannot be made is found before the fit, not after it */
    tu_ccsim(&r,
             "calibrate -c teach-xbar --targets %s/targets/snb-e5-2660.cfg "
             "--params core.snoop_cycles -o /proc/no-such.cfg",
             CCSIM_CONFIGS);
    ck_assert_msg(r.status == 2 && strstr(r.err, "cannot write there") && !strstr(r.out, "before"),
                  "%s%s", r.out, r.err);
    /* a link to a file not made yet is written through (it said "File exists") */
    char link[600], made[600];
    snprintf(link, sizeof link, "%s/link.json", tu_dir());
    snprintf(made, sizeof made, "%s/made.json", tu_dir());
    unlink(link);
    ck_assert_int_eq(symlink("made.json", link), 0);
    tu_ccsim(&r, "run -c teach-xbar -w m2o -t 2 -i 2 --json %s", link);
    ck_assert_msg(r.status == 0 && access(made, R_OK) == 0, "%s", r.err);
    /* a loop of links is refused, not followed for ever (that crashed) */
    char loop[600];
    snprintf(loop, sizeof loop, "%s/loop.json", tu_dir());
    unlink(loop);
    ck_assert_int_eq(symlink("loop.json", loop), 0);
    tu_ccsim(&r, "run -c teach-xbar -w m2o -t 2 -i 2 --json %s", loop);
    ck_assert_msg(r.status == 2 && strstr(r.err, "cannot write there: Too many levels"), "%s",
                  r.err);
}
END_TEST

START_TEST(test_list_configs)
{
    tu_ccsim(&r, "list configs");
    ck_assert_int_eq(r.status, 0);
    const char *names[] = {"snb-e5-2660.cfg", "knc-5110p.cfg",   "scc.cfg",      "opteron-6272.cfg",
                           "clovertown.cfg",  "niagara2.cfg",    "knl-7290.cfg", "milan-7763.cfg",
                           "barcelona.cfg",   "skylake-6140.cfg"};
    for (size_t i = 0; i < SIM_COUNT_OF(names); i++)
        ck_assert_msg(strstr(r.out, names[i]) != NULL, "%s missing from:\n%s", names[i], r.out);
}
END_TEST

/* The random tester is clean on the seeds' machines with shared caches,
 * buses and chiplets (bench/stress-long.sh runs it long). */
START_TEST(test_stress_new_machines)
{
    const char *names[] = {"clovertown", "niagara2", "knl-7290", "milan-7763"};
    for (size_t i = 0; i < SIM_COUNT_OF(names); i++) {
        tu_ccsim(&r, "stress -c %s --ops 20000 --seed %zu", names[i], i + 1);
        ck_assert_msg(r.status == 0 && strstr(r.out, "violations 0  unexpected 0  deadlock no"),
                      "%s: %s%s", names[i], r.out, r.err);
    }
    /* on the 60-core KNC the default is a line a core, and the tester then
     * reaches the tag directory's write-backs (home rows 28-30: the last
     * sharer of a GS or GOLS line leaves), which 8 lines never did */
    tu_ccsim(&r, "stress -c knc-5110p --ops 20000");
    ck_assert_msg(r.status == 0 && strstr(r.out, "2-way coherent cache), 60 lines, seed 1") &&
                      strstr(r.out, "\nrows run: cache ") &&
                      strstr(r.out, ", home 33 of 35 (not rows 9 35)"),
                  "%s%s", r.out, r.err);
    /* one row that never ran is "row", not "rows" */
    tu_ccsim(&r, "stress -c teach-xbar --ops 2000");
    ck_assert_msg(strstr(r.out, "cache 24 of 25 (not row 25), home 24 of 25 (not row 25)"), "%s",
                  r.out);
    tu_ccsim(&r, "stress -c scc --ops 2000");
    ck_assert_msg(r.status == 0 && strstr(r.out, "), 8 lines, seed 1") &&
                      !strstr(r.out, "rows run"),
                  "%s%s", r.out, r.err);
}
END_TEST

START_TEST(test_bench_engine_runs)
{
    tu_ccsim(&r, "bench engine --pending 4096 --events 200k");
    ck_assert_int_eq(r.status, 0);
    const char *last = strstr(r.out, "events_per_s=");
    ck_assert(last != NULL);
    ck_assert(strchr(last, '\n') == r.out + strlen(r.out) - 1); /* the last line */
    const char *ev = strstr(r.out, "\nevents=");
    ck_assert(ev != NULL);
    ck_assert_uint_ge(strtoull(ev + 8, NULL, 10), 200000);
}
END_TEST

START_TEST(test_run_trace)
{
    tu_ccsim(&r,
             "run -c teach-xbar %s/../workloads/traces/pingpong.trace --check --json %s/r.json "
             "--set xbar.latency_ns=10",
             CCSIM_CONFIGS, tu_dir());
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert(strstr(r.out, "latency over 500 iterations") != NULL);
    ck_assert(strstr(r.out, "value errors 0  coherence violations 0") != NULL);
    char path[600], json[8192];
    snprintf(path, sizeof path, "%s/r.json", tu_dir());
    FILE *f = fopen(path, "r");
    ck_assert(f != NULL);
    size_t n = fread(json, 1, sizeof json - 1, f);
    fclose(f);
    json[n] = '\0';
    const char *keys[] = {"\"ccsim\":",
                          "\"config\":",
                          "\"sets\": [\"xbar.latency_ns=10\"]",
                          "\"machine\":",
                          "\"protocol\": \"mesi\"",
                          "\"topology\": \"xbar\"",
                          "\"workload\":",
                          "\"threads\": 2",
                          "\"iterations\": 500",
                          "\"seed\": 1",
                          "\"latency_ns\":",
                          "\"median\":",
                          "\"p90\":",
                          "\"poll_refetches\":",
                          "\"steals\":",
                          "\"network_bytes\":",
                          "\"home_queue_ns\":",
                          "\"link_queue_ns\":",
                          "\"llc_hits\": 0",
                          "\"llc_evictions\": 0",
                          "\"value_errors\": 0",
                          "\"coherence_violations\": 0",
                          "\"events_per_s\":",
                          "\"simulated_ns\":"};
    for (size_t i = 0; i < SIM_COUNT_OF(keys); i++)
        ck_assert_msg(strstr(json, keys[i]) != NULL, "%s missing from %s", keys[i], json);
}
END_TEST

START_TEST(test_run_exit_statuses)
{
    const char *dead = tu_write("dead.trace", "ccsim-trace 1\nthreads 2\nline f\n"
                                              "0: write f 1\n1: wait f == 2\n");
    tu_ccsim(&r, "run -c teach-xbar %s", dead);
    ck_assert_int_eq(r.status, 1);
    ck_assert(strstr(r.err, "deadlock") != NULL);
    const char *wrong = tu_write("wrong.trace", "ccsim-trace 1\nthreads 1\nline f\n"
                                                "0: write f 1\n0: expect f == 2\n");
    tu_ccsim(&r, "run -c teach-xbar %s", wrong);
    ck_assert_int_eq(r.status, 1);
    ck_assert(strstr(r.err, "wrong.trace:5:1: value error") != NULL);
    const char *bad = tu_write("bad.trace", "ccsim-trace 1\nthreads 1\nline f\n0: jump f\n");
    tu_ccsim(&r, "run -c teach-xbar %s", bad);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "bad.trace:4:4: ") != NULL, "%s", r.err);
    tu_ccsim(&r, "run -c teach-xbar /no/such.trace");
    ck_assert_int_eq(r.status, 2);
    ck_assert(strstr(r.err, "/no/such.trace") != NULL);
    tu_ccsim(&r, "run -c teach-xbar");
    ck_assert_int_eq(r.status, 2);
}
END_TEST

START_TEST(test_microbench)
{
    tu_ccsim(&r, "microbench -c teach-xbar -i 3 --json %s/mb.json", tu_dir());
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert(strstr(r.out, "R_R  other core (ns)") != NULL);
    ck_assert(strstr(r.out, "(not on this machine)") != NULL); /* R_Q: one socket */
    char path[600], json[8192];
    snprintf(path, sizeof path, "%s/mb.json", tu_dir());
    FILE *f = fopen(path, "r");
    ck_assert(f != NULL);
    size_t n = fread(json, 1, sizeof json - 1, f);
    fclose(f);
    json[n] = '\0';
    const char *keys[] = {
        "\"R_L_ns\": ",        "\"R_Q_ns\": null",     "\"contention\": {\"b_ns\"",
        "\"c_ns_per_thread\"", "\"congestion\": null", "\"q_ns\"",
        "\"o_ns_per_line\"",   "\"points\": [[1, ",    "\"mpb\": null"};
    for (size_t i = 0; i < SIM_COUNT_OF(keys); i++)
        ck_assert_msg(strstr(json, keys[i]) != NULL, "%s missing from %s", keys[i], json);
}
END_TEST

START_TEST(test_gen_output_runs)
{
    tu_ccsim(&r, "gen bcast-tree:shape=binomial -t 5 -i 7 -c snb-e5-2660");
    ck_assert_msg(r.status == 0, "%s", r.err);
    /* the header line rebuilds the trace: the machine that shaped it is in it */
    ck_assert_msg(
        strstr(r.out, "\n# ccsim gen bcast-tree:shape=binomial -t 5 -i 7 -c snb-e5-2660\n"), "%s",
        r.out);
    const char *trace = tu_write("b.trace", r.out);
    tu_ccsim(&r, "run -c snb-e5-2660 %s --check", trace);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert(strstr(r.out, "latency over 7 iterations") != NULL);
    tu_ccsim(&r, "run -c snb-e5-2660 -w bcast-tree:shape=binomial -t 5 -i 7 --check");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert(strstr(r.out, "latency over 7 iterations") != NULL);
    tu_ccsim(&r, "run -c snb-e5-2660 -w bcast-tree:shape=binomail -t 5");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "-w bcast-tree:shape=binomail: ") != NULL, "%s", r.err);
    /* gen takes the spec as its argument: its messages name no -w */
    tu_ccsim(&r, "gen bcast-tree:shape=binomail -t 5");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(!strncmp(r.err, "ccsim gen bcast-tree:shape=binomail: ", 37), "%s", r.err);
    tu_ccsim(&r, "list generators");
    ck_assert_int_eq(r.status, 0);
    ck_assert(strstr(r.out, "barrier-dissemination") != NULL);
}
END_TEST

START_TEST(test_explain)
{
    const char *trace = tu_write("fs.trace", "ccsim-trace 1\nthreads 2\nline shared\nline other\n"
                                             "0: add shared.0 1\n1: add shared.1 1\n"
                                             "0: write other 1\n");
    tu_ccsim(&r, "explain -c teach-xbar %s", trace);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "core 0   shared     Store (thread 0: add shared 1) in I: sends "
                                "GetX to home 0") != NULL,
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "Fwd_GetX from home 0") != NULL, "%s", r.out);
    ck_assert(strstr(r.out, "now IM_D") != NULL);
    ck_assert(strstr(r.out, " other      ") != NULL);
    tu_ccsim(&r, "explain -c teach-xbar %s --line shared", trace);
    ck_assert_int_eq(r.status, 0);
    ck_assert(strstr(r.out, " other      ") == NULL);
    tu_ccsim(&r, "explain -c teach-xbar %s --max-lines 3", trace);
    ck_assert(strstr(r.out, "more steps (raise --max-lines)") != NULL);
    tu_ccsim(&r, "explain -c teach-xbar %s --line nothere", trace);
    ck_assert_int_eq(r.status, 2);
    tu_ccsim(&r, "explain -c teach-xbar %s --json x.json", trace);
    ck_assert_int_eq(r.status, 2);
}
END_TEST

static Suite *cli_suite(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("binary");
    tcase_add_test(tc, test_version_and_help);
    tcase_add_test(tc, test_usage_errors_exit_2);
    tcase_add_test(tc, test_missing_config_names_file);
    tcase_add_test(tc, test_bad_config_file_line);
    tcase_add_test(tc, test_config_prints_machine);
    tcase_add_test(tc, test_nothing_silently_dropped);
    tcase_add_test(tc, test_list_configs);
    tcase_add_test(tc, test_stress_new_machines);
    tcase_add_test(tc, test_bench_engine_runs);
    tcase_add_test(tc, test_run_trace);
    tcase_add_test(tc, test_run_exit_statuses);
    tcase_add_test(tc, test_microbench);
    tcase_add_test(tc, test_gen_output_runs);
    tcase_add_test(tc, test_explain);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(cli_suite());
}
