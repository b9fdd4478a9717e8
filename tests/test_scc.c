/*
 * test_scc.c -- the SCC's memory (protocol scc): MPB copies that go stale
 * until invmb, the write-combining buffer (a line leaves whole, a partial
 * line waits), test-and-set registers as a lock, the local-MPB switch, the
 * trace format's mpb= and tas=, their errors, and stress and microbench on
 * the SCC. Timing claims are relations between simulated runs.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static struct core_result run_scc(const char *const *sets, size_t nsets, const char *text,
                                  struct sim_diag *d)
{
    struct machine_cfg m;
    tu_load_config("scc", sets, nsets, &m);
    struct core_result r;
    tu_run_text(&m, "scc.trace", text, &r, d);
    return r;
}

static void assert_clean(const struct core_result *r, const struct sim_diag *d)
{
    ck_assert_msg(!r->deadlock && !r->input_error && r->value_errors == 0,
                  "deadlock %d, input error %d, value errors %llu: %s", r->deadlock, r->input_error,
                  (unsigned long long)r->value_errors, d->text);
}

/* A run that must end clean (no deadlock, input or value error); the
 * caller frees the result. */
static struct core_result run_clean(const char *const *sets, size_t nsets, const char *text)
{
    struct sim_diag d;
    sim_diag_init(&d);
    struct core_result r = run_scc(sets, nsets, text, &d);
    assert_clean(&r, &d);
    return r;
}

/* A copy in the L1 keeps the old value until invmb; then the read goes to
 * the MPB and sees the new one. */
/* A prime puts a line only in a state the SCC has (explain narrated "holds
 * the line in E" where the copy was a plain clean one, and a register
 * "in M" where nothing was cached). */
START_TEST(test_prime_only_states_it_has)
{
    static const struct {
        const char *decl, *prime, *what;
    } cases[] = {
        {"line x", "prime x E", "prime E: the machine's protocol has no E state"},
        {"line l tas=0", "prime l M", "prime on a test-and-set register"},
        {"line f mpb=0", "prime f M", "prime M: an MPB line's copy is never dirty"},
    };
    for (size_t i = 0; i < SIM_COUNT_OF(cases); i++) {
        char text[256];
        snprintf(text, sizeof text, "ccsim-trace 1\nthreads 1\n%s\nall: sync\n0: %s\n0: mark d\n",
                 cases[i].decl, cases[i].prime);
        struct sim_diag d;
        sim_diag_init(&d);
        struct core_result r = run_scc(NULL, 0, text, &d);
        ck_assert_msg(r.input_error && strstr(d.text, cases[i].what), "%s", d.text);
        core_result_free(&r);
    }
    struct sim_diag d;
    sim_diag_init(&d);
    struct core_result r = run_scc(NULL, 0,
                                   "ccsim-trace 1\nthreads 1\nline f mpb=0\nline x\nall: sync\n"
                                   "0: prime f S\n0: prime x M\n0: read f\n0: mark d\n",
                                   &d);
    assert_clean(&r, &d);
    core_result_free(&r);
    /* an add on an MPB line is a read and a write, said so (it was "the core writes") */
    struct tu_run run;
    tu_ccsim(&run, "explain -c scc %s",
             tu_write("add.trace", "ccsim-trace 1\nthreads 2\nline l mpb=0\nall: sync\n"
                                   "all: add l 1\nall: mark d\n"));
    ck_assert_msg(run.status == 0 && strstr(run.out, "the core reads and writes (not atomic across "
                                                     "cores"),
                  "%s%s", run.out, run.err);
}
END_TEST

/* The SCC's homes are its tiles' MPBs, one a tile: a home.count that is
 * not machine.cores / mesh.cores_per_tile is refused (home.count = 1 ran
 * one MPB server for the 48 cores, seven times slower, and was accepted). */
START_TEST(test_home_count_is_the_tiles)
{
    struct tu_run run;
    tu_ccsim(&run, "config -c scc --set home.count=1");
    ck_assert_int_eq(run.status, 2);
    ck_assert_msg(strstr(run.err, "home.count = 1: on the scc protocol the homes are the tiles' "
                                  "MPBs, one a tile: machine.cores / mesh.cores_per_tile = 24"),
                  "%s", run.err);
    tu_ccsim(&run, "config -c scc --set mesh.cores_per_tile=1 --set mesh.width=8 --set "
                   "mesh.height=6 --set home.count=48");
    ck_assert_msg(run.status == 0, "%s", run.err);
}
END_TEST

START_TEST(test_mpb_copy_is_stale_until_invmb)
{
    const char *text = "ccsim-trace 1\nthreads 2\npin 0 47\nline f mpb=0\n"
                       "all: sync\n1: read f\nall: sync\n0: write f 7\n0: flush f\nall: sync\n"
                       "1: read f -> v\n1: expect f == 0\n"
                       "1: invmb\n1: read f -> w\n1: expect f == 7\n";
    struct core_result r = run_clean(NULL, 0, text);
    core_result_free(&r);
}
END_TEST

/* Four word stores to one MPB line leave as one packet (and its ack); four
 * flushed one by one leave as four. */
START_TEST(test_wcb_combines_a_line)
{
    const char *combined = "ccsim-trace 1\nthreads 1\nline x mpb=0\n"
                           "0: write x.0 1\n0: write x.1 2\n0: write x.2 3\n0: write x.3 4\n"
                           "0: read x.0\n0: expect x.3 == 4\n";
    const char *separate = "ccsim-trace 1\nthreads 1\nline x mpb=0\n"
                           "0: write x.0 1\n0: flush x\n0: write x.1 2\n0: flush x\n"
                           "0: write x.2 3\n0: flush x\n0: write x.3 4\n0: flush x\n";
    struct core_result a = run_clean(NULL, 0, combined), b = run_clean(NULL, 0, separate);
    /* combined: the full line (8 + 32 B) and its ack (8 B), then the read
     * (8 B) and its data (40 B); separate: four lines and four acks */
    ck_assert_uint_eq(a.network_bytes, 48 + 48);
    ck_assert_uint_eq(b.network_bytes, 4 * 48);
    core_result_free(&a);
    core_result_free(&b);
}
END_TEST

/* A partial line stays in the buffer until its core touches memory again:
 * if the writer never does, the reader never sees it, and the run ends in a
 * deadlock report, as the chip would hang. */
START_TEST(test_partial_line_waits_in_the_wcb)
{
    const char *text = "ccsim-trace 1\nthreads 2\npin 0 47\nline f mpb=1\n"
                       "0: write f 1\n0: compute 10\n1: wait f == 1\n";
    struct sim_diag d;
    sim_diag_init(&d);
    struct core_result r = run_scc(NULL, 0, text, &d);
    ck_assert(r.deadlock);
    core_result_free(&r);
    /* with a flush after the write, it goes through */
    const char *fixed = "ccsim-trace 1\nthreads 2\npin 0 47\nline f mpb=1\n"
                        "0: write f 1\n0: flush f\n0: compute 10\n1: wait f == 1\n";
    r = run_clean(NULL, 0, fixed);
    core_result_free(&r);
}
END_TEST

/* Four cores increment an MPB counter under core 0's test-and-set register. */
START_TEST(test_tas_register_is_a_lock)
{
    const char *text = "ccsim-trace 1\nthreads 4\npin 0 13 30 47\nline lk tas=0\nline cnt mpb=2\n"
                       "for i 0..9 {\n"
                       "  all: wait lk == 0\n  all: invmb\n  all: read cnt -> c\n"
                       "  all: write cnt c+1\n  all: flush cnt\n  all: write lk 0\n}\n"
                       "all: sync\n0: invmb\n0: read cnt\n0: expect cnt == 40\n";
    struct core_result r = run_clean(NULL, 0, text);
    core_result_free(&r);
}
END_TEST

static double median(const char *const *sets, size_t nsets, const char *text)
{
    struct core_result r = run_clean(sets, nsets, text);
    double m = r.latency.median;
    core_result_free(&r);
    return m;
}

/* The own tile's MPB through the router (the bug workaround) costs more
 * than a direct access, and a far MPB more than the own tile's. Exact
 * cycles: without the config's start skew. */
START_TEST(test_local_mpb_via_router)
{
    char own[512], far[512];
    const char *fmt =
        "ccsim-trace 1\nthreads 2\npin %d 0\nline x 8 mpb=0\n"
        "for it 0..8 {\n  1: invmb\n  all: sync\n  1: read x[it%%8]\n  1: mark done\n}\n";
    snprintf(own, sizeof own, fmt, 1);
    snprintf(far, sizeof far, fmt, 47);
    const char *exact[] = {"variability.start_skew_ns=0", "mpb.local_mpb_via_router=false"};
    double routed = median(exact, 1, own), fast = median(exact, 2, own);
    double remote = median(exact, 1, far);
    ck_assert_msg(fast < routed && routed < remote, "direct %.1f, routed %.1f, 8 hops %.1f ns",
                  fast, routed, remote);
    /* seed 004: 15 core cycles direct, 45 + 8 mesh cycles routed */
    ck_assert_msg(fabs(fast * 0.533 - 15) <= 2, "direct: %.1f cycles", fast * 0.533);
}
END_TEST

START_TEST(test_placement_errors)
{
    struct tu_run r;
    tu_write("mesi.trace", "ccsim-trace 1\nthreads 2\nline x mpb=1\n0: read x\n");
    tu_ccsim(&r, "run -c teach-xbar %s/mesi.trace", tu_dir());
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "mpb= needs a machine with message-passing buffers"), "%s", r.err);
    tu_write("full.trace", "ccsim-trace 1\nthreads 2\nline x 257 mpb=1\n0: read x\n");
    tu_ccsim(&r, "run -c scc %s/full.trace", tu_dir());
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "the MPB of core 1 (thread 1) is full: it holds 256 lines"), "%s",
                  r.err);
    tu_write("tas2.trace", "ccsim-trace 1\nthreads 2\nline a tas=0\nline b tas=0\n0: read a\n");
    tu_ccsim(&r, "run -c scc %s/tas2.trace", tu_dir());
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "one test-and-set register, already taken"), "%s", r.err);
    tu_write("tasadd.trace", "ccsim-trace 1\nthreads 1\nline a tas=0\n0: add a 1\n");
    tu_ccsim(&r, "run -c scc %s/tasadd.trace", tu_dir());
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "add on a test-and-set register"), "%s", r.err);
    tu_write("invmb.trace", "ccsim-trace 1\nthreads 1\n0: invmb\n");
    tu_ccsim(&r, "run -c teach-xbar %s/invmb.trace", tu_dir());
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "invmb needs a machine with message-passing buffers"), "%s", r.err);
}
END_TEST

START_TEST(test_trace_syntax)
{
    struct sim_diag d;
    sim_diag_init(&d);
    struct wl_parse_opts po = {32, 0, 0};
    const char *text = "ccsim-trace 1\nthreads 3\nline buf 6 mpb=each\nline lk tas=2\n"
                       "line f 2 mpb=n-1\n0: read buf[5]\n";
    struct wl_program *p = wl_parse_text("each.trace", text, strlen(text), &po, &d);
    ck_assert_msg(p != NULL, "%s", d.text);
    const struct wl_line *buf = wl_program_decl(p, 0), *lk = wl_program_decl(p, 1),
                         *f = wl_program_decl(p, 2);
    ck_assert_int_eq(buf->place, WL_PLACE_MPB);
    ck_assert_int_eq(buf->place_thread, WL_PLACE_EACH);
    ck_assert_int_eq(lk->place, WL_PLACE_TAS);
    ck_assert_int_eq(lk->place_thread, 2);
    ck_assert_int_eq(f->place_thread, 2);
    char out[1024];
    FILE *mem = fmemopen(out, sizeof out, "w");
    wl_program_print(mem, p);
    fclose(mem);
    ck_assert_msg(strstr(out, "line buf 6 mpb=each\n") && strstr(out, "line lk tas=2\n") &&
                      strstr(out, "line f 2 mpb=n-1\n"),
                  "%s", out);
    wl_program_free(p);
    static const struct {
        const char *decl, *err;
    } bad[] = {
        {"line x 4 mpb=each", "count 4 is not a multiple of 3 threads"},
        {"line x mpb=3", "mpb=3: no such thread (0..2)"},
        {"line x home=0 mpb=1", "exclude each other"},
        {"line x tas=1 mpb=1", "exclude each other"},
        {"line x mpb=t", "must be a constant"},
    };
    for (size_t i = 0; i < SIM_COUNT_OF(bad); i++) {
        char t[256];
        snprintf(t, sizeof t, "ccsim-trace 1\nthreads 3\n%s\n0: read x\n", bad[i].decl);
        sim_diag_init(&d);
        p = wl_parse_text("bad.trace", t, strlen(t), &po, &d);
        ck_assert_msg(p == NULL && strstr(d.text, bad[i].err), "%s: %s", bad[i].decl, d.text);
    }
}
END_TEST

START_TEST(test_config_errors)
{
    struct tu_run r;
    tu_ccsim(&r, "config -c teach-xbar --set mpb.size_kb=8");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "mpb.size_kb applies to the scc protocol only"), "%s", r.err);
    /* a key of no one's in another protocol's section: the section is named */
    tu_ccsim(&r, "config -c teach-xbar --set mpb.sizekb=8");
    ck_assert_msg(r.status == 2 && strstr(r.err, "section 'mpb' applies to the scc protocol only"),
                  "%s", r.err);
    /* a misspelt protocol is named as such, not as the owner of the mpb section */
    tu_ccsim(&r, "config -c scc --set machine.protocol=sc");
    ck_assert_msg(r.status == 2 && strstr(r.err, "--set: machine.protocol = \"sc\" is not known "
                                                 "(did you mean 'scc'?)"),
                  "%s", r.err);
    /* one chip of single-thread cores: a sibling's store would wake no waiter */
    tu_ccsim(&r, "config -c scc --set machine.threads_per_core=2");
    ck_assert_msg(r.status == 2 && strstr(r.err, "--set: machine.threads_per_core = 2, "
                                                 "machine.sockets = 1: the scc protocol models"),
                  "%s", r.err);
    tu_ccsim(&r, "config -c scc --set machine.sockets=2");
    ck_assert_int_eq(r.status, 2);
    tu_write("ring-scc.cfg", "machine = { name = \"x\"; protocol = \"scc\"; topology = \"xbar\"; "
                             "cores = 2; clock_ghz = 1.0; line_bytes = 32; };\n"
                             "l1 = { size_kb = 1; ways = 1; latency_cycles = 1; };\n"
                             "memory = { latency_ns = 10.0; };\nxbar = { latency_ns = 1.0; };\n");
    tu_ccsim(&r, "config -c %s/ring-scc.cfg", tu_dir());
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "the scc protocol needs a mesh"), "%s", r.err);
}
END_TEST

/* explain narrates the SCC too: the buffer leaving, the tile serving. */
START_TEST(test_explain_narrates_the_scc)
{
    struct tu_run r;
    tu_ccsim(&r, "explain -c scc %s/../docs/labs/05-scc-mpb/wcb-line.trace", CCSIM_TEST_DIR);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "core 0   msg        the write-combining buffer must leave") &&
                      strstr(r.out, "tile 23  msg        an MPB write (core 0)") &&
                      strstr(r.out, "fill the L1 copy") &&
                      strstr(r.out, "the words: msg 0 -> 1, msg.1 0 -> 2, 2 more words") &&
                      strstr(r.out, "names used above:\n  states of the caches:\n") &&
                      strstr(r.out, "    I              no copy in the core's L1\n"),
                  "%s", r.out);
}
END_TEST

/* A coherent algorithm on the SCC fails its checks, and run says why; a
 * generator that needs coherence is refused there (a run of one passed
 * its checks by timing alone at some thread counts). */
START_TEST(test_hint_without_mpb)
{
    struct tu_run r;
    const char *t = tu_write("coherent.trace", "ccsim-trace 1\nthreads 2\nline x\n"
                                               "for it 0..2 {\n  all: sync\n  0: read x\n"
                                               "  0: write x it+1\n  1: read x\n"
                                               "  1: wait x >= it+1\n  all: mark d\n}\n");
    tu_ccsim(&r, "run -c scc %s", t);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "keeps no copies coherent, and this trace puts no line in a "
                                "message-passing buffer") &&
                      strstr(r.err, "a thread sees another's store only through memory"),
                  "%s", r.err);
    tu_ccsim(&r, "run -c scc -w reduce-extbutterfly -t 4 -i 2");
    ck_assert_msg(r.status == 2 && strstr(r.err, "reduce-extbutterfly shares plain lines between "
                                                 "threads and needs coherent caches"),
                  "%s", r.err);
    tu_ccsim(&r, "run -c scc -w scc-barrier -t 4 -i 3 --check");
    ck_assert_msg(r.status == 0 && !strstr(r.err, "keeps no copies coherent"), "%s", r.err);
    /* --check has no coherence invariant to check here, and says so */
    ck_assert_msg(strstr(r.out, "coherence: none on this machine, nothing to check") &&
                      !strstr(r.out, "coherence violations"),
                  "%s", r.out);
}
END_TEST

/* A wait that never wakes on a stale private copy: the deadlock report
 * gives the word as the waiting core sees it, beside what the line holds. */
START_TEST(test_stuck_wait_reports_the_core_view)
{
    struct tu_run r;
    const char *t = tu_write("stale.trace", "ccsim-trace 1\nthreads 2\nline p\nall: sync\n"
                                            "1: read p\nall: sync\n0: write p 1\n0: flush p\n"
                                            "all: sync\n1: wait p == 1\nall: mark d\n");
    tu_ccsim(&r, "run -c scc %s", t);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "waits for p.0 == 1; the word is 0 to its core (its stale copy; "
                                "the line holds 1)"),
                  "%s", r.err);
}
END_TEST

START_TEST(test_stress_and_microbench_run)
{
    struct tu_run r;
    tu_ccsim(&r, "stress -c scc --ops 30000 --seed 7");
    ck_assert_msg(r.status == 0 && strstr(r.out, "violations 0"), "%s%s", r.out, r.err);
    /* the coherent tester's options are refused, not silently ignored */
    tu_ccsim(&r, "stress -c scc --ops 100 --jitter-ns 500");
    ck_assert_msg(r.status == 2 && strstr(r.err, "apply to a coherent machine"), "%s", r.err);
    tu_ccsim(&r, "microbench -c scc -i 3 --json %s/mb.json", tu_dir());
    ck_assert_msg(r.status == 0 && strstr(r.out, "MPB, own tile") && strstr(r.out, "DRAM, 8 hop"),
                  "%s%s", r.out, r.err);
    char path[512], json[8192] = "";
    snprintf(path, sizeof path, "%s/mb.json", tu_dir());
    FILE *f = fopen(path, "r");
    ck_assert(f != NULL);
    size_t n = fread(json, 1, sizeof json - 1, f);
    json[n] = '\0';
    fclose(f);
    ck_assert_msg(
        strstr(json, "\"mpb\": {\"local_cycles\": ") && strstr(json, "\"remote_cycles\": [[1, ") &&
            strstr(json, "\"dram\": {\"cycles\": [[0, ") && strstr(json, "\"R_R_ns\": null"),
        "%s", json);
    /* a tile of one core: its own tile's MPB is its own, not a neighbour's a hop away */
    tu_ccsim(&r, "microbench -c scc -i 3 --set machine.cores=24 --set home.count=24 "
                 "--set mesh.cores_per_tile=1");
    double own = 0, hop = 0;
    const char *o = strstr(r.out, "MPB, own tile (cycles)"), *h = strstr(r.out, "MPB, 1 hop(s)");
    ck_assert_msg(o && h && sscanf(o + 22, "%lf", &own) == 1 && sscanf(h + 22, "%lf", &hop) == 1 &&
                      own < hop,
                  "%s%s", r.out, r.err);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("scc");
    TCase *tc = tcase_create("scc");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_mpb_copy_is_stale_until_invmb);
    tcase_add_test(tc, test_home_count_is_the_tiles);
    tcase_add_test(tc, test_prime_only_states_it_has);
    tcase_add_test(tc, test_wcb_combines_a_line);
    tcase_add_test(tc, test_partial_line_waits_in_the_wcb);
    tcase_add_test(tc, test_tas_register_is_a_lock);
    tcase_add_test(tc, test_local_mpb_via_router);
    tcase_add_test(tc, test_placement_errors);
    tcase_add_test(tc, test_trace_syntax);
    tcase_add_test(tc, test_config_errors);
    tcase_add_test(tc, test_explain_narrates_the_scc);
    tcase_add_test(tc, test_hint_without_mpb);
    tcase_add_test(tc, test_stuck_wait_reports_the_core_view);
    tcase_add_test(tc, test_stress_and_microbench_run);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
