/*
 * test_core.c -- the core model: waits sleep until invalidated, copy streams
 * overlap misses, polling makes stealing emerge, sync opens iterations,
 * deadlocks and value errors are reported, runs are deterministic.
 * Every relation is between two simulated runs, never a hard-coded latency.
 */
#include "machine.h"
#include "core.h"
#include "gen.h"
#include "testutil.h"

#include <stdio.h>
#include <string.h>

/* Runs trace text on teach-xbar with the given --set overrides. */
static void run_text(const char *text, const char *const *sets, size_t nsets,
                     struct core_result *res, struct sim_diag *d)
{
    struct machine_cfg m;
    tu_load_config("teach-xbar", sets, nsets, &m);
    tu_run_text(&m, "test.trace", text, res, d);
}

static struct core_result res, res2;
static struct sim_diag diag;

START_TEST(test_wait_wakes_on_invalidation)
{
    run_text("ccsim-trace 1\nthreads 2\nline flag\n"
             "1: wait flag == 1\n"
             "0: compute 500\n0: write flag 1\n",
             NULL, 0, &res, &diag);
    ck_assert(!res.deadlock && !res.input_error);
    /* the waiter slept through the compute: one load before, one after */
    ck_assert_uint_eq(res.loads, 2);
    ck_assert_uint_ge(res.simulated_ns, 500);
    core_result_free(&res);
}
END_TEST

START_TEST(test_mshr_overlap)
{
    const char *one = "ccsim-trace 1\nthreads 1\nline a 16\nline b 16\n"
                      "0: sync\n0: copy a[0] b[0] 16\n0: mark done\n";
    const char *each = "ccsim-trace 1\nthreads 1\nline a 16\nline b 16\n"
                       "0: sync\nfor i 0..15 {\n0: copy a[i] b[i] 1\n}\n0: mark done\n";
    run_text(one, NULL, 0, &res, &diag);
    run_text(each, NULL, 0, &res2, &diag);
    ck_assert_uint_eq(res.iterations, 1);
    /* 16 lines in one stream, 4 misses in flight, beat 16 one-line copies */
    ck_assert_msg(res.latency.max * 2 < res2.latency.max, "stream %.1f ns, one by one %.1f ns",
                  res.latency.max, res2.latency.max);
    core_result_free(&res);
    core_result_free(&res2);
    /* with one MSHR they cost the same */
    const char *sets[] = {"core.mshrs=1"};
    run_text(one, sets, 1, &res, &diag);
    run_text(each, sets, 1, &res2, &diag);
    ck_assert_msg(res.latency.max > 0.9 * res2.latency.max, "%.1f vs %.1f", res.latency.max,
                  res2.latency.max);
    core_result_free(&res);
    core_result_free(&res2);
}
END_TEST

/* seed 000 Sec 2.3: pollers racing a writer that writes the flag's line word
 * by word take the line away between writes. */
static const char *polled =
    "ccsim-trace 1\nthreads 4\nline msg\n"
    "for it 0..49 {\n  all: sync\n  all: evict msg\n"
    "  0: write msg.1 it\n  0: compute 100\n  0: write msg.2 it\n  0: compute 100\n"
    "  0: write msg it+1\n"
    "  others: wait msg >= it+1\n  others: read msg.2 -> v\n"
    "  all: mark done\n  others: expect msg.2 == it\n}\n";
static const char *unpolled =
    "ccsim-trace 1\nthreads 4\nline msg\n"
    "for it 0..49 {\n  all: sync\n  all: evict msg\n"
    "  0: write msg.1 it\n  0: compute 100\n  0: write msg.2 it\n  0: compute 100\n"
    "  0: write msg it+1\n"
    "  all: mark done\n}\n";

START_TEST(test_stealing_emerges)
{
    run_text(polled, NULL, 0, &res, &diag);
    run_text(unpolled, NULL, 0, &res2, &diag);
    ck_assert_uint_eq(res.value_errors, 0);
    ck_assert_uint_gt(res.steals, 0);
    ck_assert_uint_gt(res.poll_refetches, 0);
    ck_assert_uint_gt(res.misses, 2 * res2.misses);
    ck_assert_msg(res.latency.median > res2.latency.median, "polled %.1f, unpolled %.1f",
                  res.latency.median, res2.latency.median);
    ck_assert_uint_eq(res2.steals, 0);
    core_result_free(&res);
    core_result_free(&res2);
}
END_TEST

START_TEST(test_sync_opens_iterations)
{
    run_text("ccsim-trace 1\nthreads 3\nline x 3\n"
             "for it 0..9 {\n  all: sync\n  all: compute 10*t\n  all: mark m\n}\n",
             NULL, 0, &res, &diag);
    ck_assert_uint_eq(res.iterations, 10);
    /* the slowest thread computes 20 cycles of 1 ns; the sync costs nothing */
    ck_assert(res.latency.min == res.latency.max);
    ck_assert(res.latency.median >= 20.0 && res.latency.median < 25.0);
    core_result_free(&res);
}
END_TEST

START_TEST(test_deadlock_reported)
{
    run_text("ccsim-trace 1\nthreads 2\nline flag\n0: write flag 1\n1: wait flag == 2\n", NULL, 0,
             &res, &diag);
    ck_assert(res.deadlock);
    core_result_free(&res);
    run_text("ccsim-trace 1\nthreads 2\nline a\nline b\n"
             "0: wait a == 1\n0: write b 1\n1: wait b == 1\n1: write a 1\n",
             NULL, 0, &res, &diag);
    ck_assert(res.deadlock);
    core_result_free(&res);
    /* a computation longer than the watchdog's interval (100 ms here) is work, not a deadlock,
     * and the thread waiting for it waits for work */
    run_text("ccsim-trace 1\nthreads 2\nline x\n0: compute 300000000\n0: write x 1\n"
             "1: wait x == 1\n",
             NULL, 0, &res, &diag);
    ck_assert_msg(!res.deadlock, "%s", diag.text);
    core_result_free(&res);
}
END_TEST

START_TEST(test_values_and_errors)
{
    run_text("ccsim-trace 1\nthreads 4\nline c\n"
             "all: add c 1 -> old\nall: sync\n0: expect c == 4\n1: expect c == 5\n",
             NULL, 0, &res, &diag);
    ck_assert_uint_eq(res.value_errors, 1);
    core_result_free(&res);
    /* a ticket lock: every thread gets a distinct ticket and a turn */
    run_text("ccsim-trace 1\nthreads 4\nline next\nline serving\nline sum\n"
             "all: add next 1 -> my\nall: wait serving == my\nall: add sum t+1\n"
             "all: add serving 1\nall: sync\n0: expect sum == 10\n0: expect serving == 4\n",
             NULL, 0, &res, &diag);
    ck_assert_uint_eq(res.value_errors, 0);
    ck_assert(!res.deadlock);
    core_result_free(&res);
    /* a range checks every line in it: one error per line that fails */
    run_text("ccsim-trace 1\nthreads 4\nline a 4\n"
             "all: write a[t].1 t*t\nall: sync\nall: expect a[0..n-1].1 <= 4\n"
             "0: expect a[1..2].1 >= 1\n",
             NULL, 0, &res, &diag);
    ck_assert_uint_eq(res.value_errors, 4); /* a[3] holds 9, seen by each thread */
    core_result_free(&res);
}
END_TEST

START_TEST(test_hardware_threads_share_a_cache)
{
    const char *sets[] = {"machine.threads_per_core=2"};
    run_text("ccsim-trace 1\nthreads 2\npin 0.0 0.1\nline x\n"
             "0: write x 5\nall: sync\n1: read x -> v\n1: expect x == 5\n",
             sets, 1, &res, &diag);
    ck_assert_uint_eq(res.value_errors, 0);
    ck_assert_uint_eq(res.misses, 1); /* only the write missed */
    core_result_free(&res);
}
END_TEST

/* A wait on a line its own core's sibling thread writes: the copy is never
 * invalidated, only updated in place, and the waiter must still wake. */
START_TEST(test_sibling_write_wakes_waiter)
{
    const char *sets[] = {"machine.threads_per_core=2"};
    run_text("ccsim-trace 1\nthreads 2\npin 0.0 0.1\nline x\n"
             "0: write x 0\nall: sync\n1: wait x == 1\n0: compute 50\n0: write x 1\n",
             sets, 1, &res, &diag);
    ck_assert(!res.deadlock);
    core_result_free(&res);
}
END_TEST

/* A copy stream much larger than the cache, with misses in flight,
 * completes. (The set-waiting deadlock it was written for needs a longer
 * stream: tests/test_seed001.c's 64 KB transfer catches it.) */
START_TEST(test_stream_through_a_full_cache)
{
    const char *sets[] = {"l1.size_kb=1", "l1.ways=2", "core.mshrs=4"};
    run_text("ccsim-trace 1\nthreads 1\nline a 64\nline b 64\n"
             "0: sync\n0: copy a[0] b[0] 64\n0: copy b[0] a[0] 64\n0: mark done\n",
             sets, 3, &res, &diag);
    ck_assert(!res.deadlock);
    ck_assert_uint_eq(res.iterations, 1);
    core_result_free(&res);
}
END_TEST

START_TEST(test_input_errors)
{
    run_text("ccsim-trace 1\nthreads 1\nline x\n0: invmb\n", NULL, 0, &res, &diag);
    ck_assert(res.input_error);
    ck_assert_msg(strstr(diag.text, "test.trace:4:1: thread 0: invmb needs") != NULL, "%s",
                  diag.text);
    core_result_free(&res);
    run_text("ccsim-trace 1\nthreads 1\nline x home=1\n0: read x\n", NULL, 0, &res, &diag);
    ck_assert(res.input_error);
    ck_assert_msg(strstr(diag.text, "test.trace:3: line x: home=1, but the machine has 1 memory "
                                    "node(s)") != NULL,
                  "%s", diag.text);
    core_result_free(&res);
    const char *two[] = {"machine.sockets=2", "home.count=2"};
    run_text("ccsim-trace 1\nthreads 2\nline x home=1\nline y home=0\nline z 4\n"
             "0: write x 1\n1: write y 2\nall: sync\n0: expect y == 2\n1: expect x == 1\n",
             two, 2, &res, &diag);
    ck_assert_msg(!res.input_error && res.value_errors == 0, "%s", diag.text);
    core_result_free(&res);
    run_text("ccsim-trace 1\nthreads 9\nline x\nall: read x\n", NULL, 0, &res, &diag);
    ck_assert(res.input_error);
    ck_assert_msg(strstr(diag.text, "test.trace:2: threads 9 do not fit the machine's 4 cores of "
                                    "1 hardware thread: without a pin line thread i runs on core "
                                    "i % 4, hardware thread i / 4, so thread 4 would need hardware "
                                    "thread 1 of core 0 (fewer threads, or a larger machine: --set "
                                    "machine.cores=9)") != NULL,
                  "%s", diag.text);
    core_result_free(&res);
    /* a compute past the last instant of simulated time: an error, not a wrapped time (it was
     * measured as 0.4 ns) nor an internal error (an event in the past) */
    const char *late[] = {"ccsim-trace 1\nthreads 1\nline x\nall: compute 18446744073709552\n"
                          "all: mark done\n",
                          "ccsim-trace 1\nthreads 1\nline x\n0: write x 1\n"
                          "0: compute 18446744073709551\n0: mark done\n"};
    for (int i = 0; i < 2; i++) {
        run_text(late[i], NULL, 0, &res, &diag);
        ck_assert_msg(res.input_error && strstr(diag.text, "would end past the simulator's last "
                                                           "instant"),
                      "%s", diag.text);
        core_result_free(&res);
    }
    /* a run that goes on past 2^63 ps stops there, before a step wraps the
     * kernel's time (that was an internal error, a spin a false deadlock);
     * under the time limit (10 s unless set) it stops at the limit first */
    const char *past = "ccsim-trace 2\nthreads 1\nline x\n0: compute 9223372036000000\n"
                       "0: read x -> v\nwhile v == 0 {\n  0: read x -> v\n}\n";
    tu_max_time_ps = SIM_TIME_MAX;
    run_text(past, NULL, 0, &res, &diag);
    tu_max_time_ps = 0;
    ck_assert_msg(res.input_error && strstr(diag.text, "the run reached the simulator's last "
                                                       "instant (2^63 ps"),
                  "%s", diag.text);
    core_result_free(&res);
    run_text(past, NULL, 0, &res, &diag);
    ck_assert(res.time_limit && !res.input_error && !res.deadlock);
    ck_assert_uint_eq(res.simulated_ns, CORE_MAX_TIME_PS / SIM_PS_PER_NS);
    core_result_free(&res);
}
END_TEST

START_TEST(test_deterministic)
{
    run_text(polled, NULL, 0, &res, &diag);
    run_text(polled, NULL, 0, &res2, &diag);
    ck_assert_uint_eq(res.events, res2.events);
    ck_assert_uint_eq(res.simulated_ns, res2.simulated_ns);
    ck_assert_uint_eq(res.steals, res2.steals);
    for (size_t i = 0; i < res.iterations; i++)
        ck_assert(res.latency_ns[i] == res2.latency_ns[i]);
    core_result_free(&res);
    core_result_free(&res2);
}
END_TEST

START_TEST(test_shipped_traces_run_on_every_protocol)
{
    const char *names[] = {"many-to-one.trace", "pingpong.trace"};
    const char *protos[] = {"machine.protocol=\"mesi\"", "machine.protocol=\"mesif\"",
                            "machine.protocol=\"moesi\"", "machine.protocol=\"gols\""};
    for (size_t i = 0; i < SIM_COUNT_OF(names); i++) {
        char path[1024], text[8192];
        snprintf(path, sizeof path, "%s/../workloads/traces/%s", CCSIM_CONFIGS, names[i]);
        FILE *f = fopen(path, "r");
        ck_assert_msg(f != NULL, "%s", path);
        size_t n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[n] = '\0';
        for (size_t j = 0; j < SIM_COUNT_OF(protos); j++) {
            run_text(text, &protos[j], 1, &res, &diag);
            ck_assert_msg(!res.deadlock && !res.input_error && res.value_errors == 0, "%s %s: %s",
                          names[i], protos[j], diag.text);
            ck_assert_uint_gt(res.iterations, 0);
            core_result_free(&res);
        }
    }
}
END_TEST

/* An inclusive LLC at the home serves a shared line faster than memory, and
 * the methodology's evict puts the line back in memory. */
START_TEST(test_llc_serves_shared_reads)
{
    const char *text = "ccsim-trace 1\nthreads 3\nline x\n"
                       "0: read x\nall: sync\n2: read x\nall: sync\n1: read x\n1: mark m\n"
                       "all: sync\nall: evict x\n1: read x\n1: mark m\n";
    const char *llc[] = {"home.llc_cycles=5"};
    run_text(text, llc, 1, &res, &diag);
    run_text(text, NULL, 0, &res2, &diag);
    ck_assert_uint_eq(res.iterations, 2);
    ck_assert(res.latency_ns[0] < res2.latency_ns[0]);  /* served by the LLC */
    ck_assert(res.latency_ns[1] == res2.latency_ns[1]); /* evicted: from memory */
    core_result_free(&res);
    core_result_free(&res2);
}
END_TEST

/* A bounded LLC (home.llc_kb) keeps what fits: 256 lines read twice by one
 * core whose L1 holds 16 come back from the LLC if it holds them all (as an
 * unbounded one does), from memory if it holds half (each set's least
 * recently used line gives way to the next: a cyclic sweep misses). */
START_TEST(test_llc_capacity)
{
    const char *text = "ccsim-trace 1\nthreads 1\nline a 256\n"
                       "for r 0..1 {\n  for i 0..255 {\n    0: read a[i]\n  }\n  0: mark pass\n}\n";
    const char *unbounded[] = {"home.llc_cycles=5", "l1.size_kb=1", "l1.ways=2"};
    run_text(text, unbounded, 3, &res, &diag);
    ck_assert_uint_eq(res.llc_hits, 256);
    ck_assert_uint_eq(res.llc_evictions, 0);
    /* 2 homes x 16 KiB: room for every line, the same run */
    const char *roomy[] = {"home.llc_cycles=5", "l1.size_kb=1", "l1.ways=2", "home.llc_kb=16"};
    run_text(text, roomy, 4, &res2, &diag);
    ck_assert_uint_eq(res2.llc_hits, 256);
    ck_assert_uint_eq(res2.llc_evictions, 0);
    ck_assert(res2.latency_ns[res2.iterations - 1] == res.latency_ns[res.iterations - 1]);
    core_result_free(&res2);
    /* 2 homes x 4 KiB: half the lines */
    const char *small[] = {"home.llc_cycles=5", "l1.size_kb=1", "l1.ways=2", "home.llc_kb=4",
                           "home.llc_ways=4"};
    run_text(text, small, 5, &res2, &diag);
    ck_assert_msg(!res2.deadlock && res2.value_errors == 0, "%s", diag.text);
    ck_assert_uint_ge(res2.llc_evictions, 256);
    ck_assert_uint_lt(res2.llc_hits, 64);
    ck_assert(res2.latency_ns[res2.iterations - 1] > res.latency_ns[res.iterations - 1]);
    core_result_free(&res);
    core_result_free(&res2);
}
END_TEST

/* Write-back buffers (l1.writeback_buffers: teach-xbar's l1 is its coherent
 * level): a copy of 64 lines through a 1 KB 2-way cache (16 lines) full of
 * dirty lines evicts one for nearly every line it reads or writes. Without
 * buffers each such miss waits until its victim's put is answered; with
 * four it goes on at once: the same misses, write-backs and values (and
 * no violation: tu_run_text checks every access), in less time. */
START_TEST(test_writeback_buffers)
{
    const char *text = "ccsim-trace 1\nthreads 1\nline src 64\nline dst 64\nfor it 0..1 {\n"
                       "  for j 0..63 {\n    0: write src[j] it*64+j+1\n  }\n  all: sync\n"
                       "  0: copy src[0] dst[0] 64\n  all: mark done\n"
                       "  for j 0..63 {\n    0: expect dst[j] == it*64+j+1\n  }\n}\n";
    const char *none[] = {"l1.size_kb=1", "l1.ways=2"};
    const char *four[] = {"l1.size_kb=1", "l1.ways=2", "l1.writeback_buffers=4"};
    run_text(text, none, 2, &res, &diag);
    run_text(text, four, 3, &res2, &diag);
    ck_assert_msg(!res.deadlock && !res2.deadlock && res.value_errors == 0 &&
                      res2.value_errors == 0,
                  "%s", diag.text);
    ck_assert_uint_eq(res2.misses, res.misses);
    ck_assert_uint_eq(res2.writebacks, res.writebacks);
    ck_assert_uint_ge(res.writebacks, 2 * 64);
    for (int i = 0; i < 2; i++)
        ck_assert_msg(res2.latency_ns[i] < 0.9 * res.latency_ns[i],
                      "iteration %d: %.1f ns with buffers, %.1f without", i, res2.latency_ns[i],
                      res.latency_ns[i]);
    core_result_free(&res);
    core_result_free(&res2);
}
END_TEST

/* A full set's waiters are served oldest first: on niagara2 with a 1 KB
 * 2-way L2 shared by 8 threads, pollers' re-loads took every way that freed
 * while older adds waited (tests/traces/set-waiters.trace says how); with
 * no write-back buffer and with one, the trace finishes, every value right. */
START_TEST(test_set_waiters_served_in_order)
{
    const char *small = "--set l2.size_kb=1 --set l2.ways=2 --set l1.size_kb=1 --set l1.ways=2";
    for (int wb = 0; wb <= 1; wb++) {
        struct tu_run r;
        tu_ccsim(&r,
                 "run -c niagara2 %s/traces/set-waiters.trace --check %s "
                 "--set l2.writeback_buffers=%d",
                 CCSIM_TEST_DIR, small, wb);
        ck_assert_msg(r.status == 0 && strstr(r.out, "value errors 0  coherence violations 0\n"),
                      "write-back buffers %d: %s%s", wb, r.out, r.err);
    }
}
END_TEST

/* A line's waiters follow the misses waiting for a way of its set: a
 * poller's re-load that met its line leaving took the freed way from the
 * store whose eviction freed it, every round (tests/traces/
 * poll-behind-miss.trace), on every protocol. */
START_TEST(test_line_waiters_behind_set_waiters)
{
    static const char *const protocols[] = {"msi", "mesi", "mesif", "moesi", "gols"};
    for (size_t i = 0; i < SIM_COUNT_OF(protocols); i++) {
        struct tu_run r;
        tu_ccsim(&r,
                 "run -c teach-xbar %s/traces/poll-behind-miss.trace --check --set "
                 "machine.protocol=%s --set machine.threads_per_core=2 --set "
                 "l1.size_kb=1 --set l1.ways=1",
                 CCSIM_TEST_DIR, protocols[i]);
        ck_assert_msg(r.status == 0 && strstr(r.out, "value errors 0  coherence violations 0\n"),
                      "%s: %s%s", protocols[i], r.out, r.err);
    }
}
END_TEST

static void refused(const char *args, const char *want, const char *want2);

/* Where they belong, refused elsewhere with the key's place; explain says
 * where the victim went and that the way is free. */
START_TEST(test_writeback_buffers_config_and_narration)
{
    refused("-c snb-e5-2660 --set l1.writeback_buffers=4", "l1.writeback_buffers = 4",
            "l2.writeback_buffers");
    refused("-c teach-xbar --set l2.writeback_buffers=4", "this machine has no l2",
            "l1.writeback_buffers");
    refused("-c scc --set l2.writeback_buffers=4", "l2.writeback_buffers = 4",
            "needs the coherent runtime");
    refused("-c scc --set l1.writeback_buffers=4", "l1.writeback_buffers = 4",
            "the scc memory system has none");
    const char *path = tu_write("wb.trace", "ccsim-trace 1\nthreads 1\nline a 20\n"
                                            "for j 0..19 {\n  0: write a[j] j+1\n}\n");
    struct tu_run r;
    const char *small = "--set l1.size_kb=1 --set l1.ways=2";
    tu_ccsim(&r, "explain -c teach-xbar %s --set l1.writeback_buffers=2 --line a[0] %s", small,
             path);
    ck_assert_msg(r.status == 0 && strstr(r.out, "Replace (to free a way of this full set for "
                                                 "thread 0, j 16: write a[16] 17: the line\n"
                                                 "                                    moves to "
                                                 "a write-back buffer"),
                  "%s", r.out);
    tu_ccsim(&r, "explain -c teach-xbar %s --line a[0] %s", small, path);
    ck_assert_msg(r.status == 0 &&
                      strstr(r.out, "Replace (to free a way of this full set; "
                                    "waiting for one: thread 0, j 16") &&
                      !strstr(r.out, "write-back buffer"),
                  "%s", r.out);
}
END_TEST

/* The shipped Sandy Bridge's LLC holds 8 MB read by one core (40 % of its
 * socket's 20 MB): its sets are used evenly. The set was cc_home_node's
 * hash with the home's part divided out, which for the lines of one
 * socket's homes used a quarter of the sets: 49 044 lines dropped. */
START_TEST(test_llc_sets_used_evenly)
{
    const char *text = "ccsim-trace 1\nthreads 1\nline a 131072\n"
                       "for i 0..131071 {\n  0: read a[i]\n}\n0: mark pass\n";
    struct machine_cfg m;
    tu_load_config("snb-e5-2660", NULL, 0, &m);
    ck_assert_int_eq(m.home.llc_kb, 2560);
    tu_run_text(&m, "test.trace", text, &res, &diag);
    ck_assert_msg(!res.deadlock && res.value_errors == 0, "%s", diag.text);
    ck_assert_uint_lt(res.llc_evictions, 100);
    core_result_free(&res);
}
END_TEST

/* A memory controller moves one line at a time (memory.bandwidth_gbs):
 * four cores reading four lines from memory at once queue at the one
 * controller of the teaching machine, 64 ns a line at 1 GB/s; unlimited
 * (the default, 0) they do not. On two sockets with a controller each, the
 * lines of one socket's memory do not wait for the other's. */
START_TEST(test_memory_bandwidth_queues)
{
    const char *text = "ccsim-trace 1\nthreads 4\nline a 4\nall: sync\nall: read a[t]\n"
                       "all: mark done\n";
    run_text(text, NULL, 0, &res, &diag);
    const char *slow[] = {"memory.bandwidth_gbs=1"};
    run_text(text, slow, 1, &res2, &diag);
    ck_assert_double_eq_tol(res.latency_ns[0], 79.0, 1e-9);
    ck_assert_double_eq_tol(res2.latency_ns[0], 79.0 + 188.0, 1e-9); /* three lines before */
    ck_assert(res2.home_queue_ns > res.home_queue_ns + 3 * 64.0);
    core_result_free(&res);
    core_result_free(&res2);
    /* 2 sockets of 4 cores, a controller each: a line homed in each socket */
    const char *two = "ccsim-trace 1\nthreads 2\nline a home=0\nline b home=1\nall: sync\n"
                      "0: read a\n1: read b\nall: mark done\n";
    char path[512];
    snprintf(path, sizeof path, "%s/configs/qpi2x4.cfg", CCSIM_TEST_DIR);
    const char *one[] = {"memory.bandwidth_gbs=0.1", "memory.controllers=1"};
    const char *per_socket[] = {"memory.bandwidth_gbs=0.1", "memory.controllers=2"};
    struct machine_cfg m;
    struct sim_diag d;
    sim_diag_init(&d);
    ck_assert_msg(machine_load(&m, path, one, 2, &d), "%s", d.text);
    tu_run_text(&m, "two.trace", two, &res, &diag);
    ck_assert_msg(machine_load(&m, path, per_socket, 2, &d), "%s", d.text);
    tu_run_text(&m, "two.trace", two, &res2, &diag);
    ck_assert(res.latency_ns[0] > res2.latency_ns[0] + 600.0); /* 640 ns a line */
    core_result_free(&res);
    core_result_free(&res2);
}
END_TEST

/* A home without a probe filter probes every cache on every request and waits
 * for their answers: the same read costs more, and the values stay right. */
START_TEST(test_broadcast_home)
{
    /* memory faster than a probe's round trip, so the probes show */
    const char *text = "ccsim-trace 1\nthreads 2\nline x 8\n"
                       "for it 0..7 {\n  all: sync\n  0: evict x[it]\n"
                       "  all: sync\n  1: read x[it]\n  1: mark m\n  1: expect x[it] == 0\n}\n";
    const char *bcast[] = {"home.probe_filter=false", "memory.latency_ns=5.0"};
    const char *filter[] = {"home.probe_filter=true", "memory.latency_ns=5.0"};
    run_text(text, bcast, 2, &res, &diag);
    run_text(text, filter, 2, &res2, &diag);
    ck_assert_uint_eq(res.value_errors, 0);
    ck_assert(res.latency.median > res2.latency.median);
    ck_assert_uint_gt(res.network_bytes, res2.network_bytes);
    core_result_free(&res);
    core_result_free(&res2);
}
END_TEST

/* Two cores sharing one cache (l2 shared, an l1 each): a line one writes
 * the other reads from the shared cache, without a coherence message, at
 * the shared level's latency the first time and its own l1's after; a core
 * of the other cache misses. Relations against the same trace with a
 * cache per core. */
START_TEST(test_cores_share_a_cache)
{
    const char *text = "ccsim-trace 1\nthreads 3\nline x\n"
                       "0: write x 7\nall: sync\n1: read x\n1: mark m\n"
                       "all: sync\n1: read x\n1: mark m\n"
                       "all: sync\n0: write x 8\nall: sync\n1: read x -> v\n1: expect x == 8\n"
                       "1: mark m\nall: sync\n2: read x\n2: mark m\n";
    const char *shared[] = {"machine.cores_per_cache=2", "l2.size_kb=64", "l2.ways=8",
                            "l2.latency_cycles=12"};
    const char *priv[] = {"l2.size_kb=64", "l2.ways=8", "l2.latency_cycles=12"};
    run_text(text, shared, 4, &res, &diag);
    run_text(text, priv, 3, &res2, &diag);
    ck_assert_uint_eq(res.value_errors, 0);
    ck_assert_uint_eq(res.iterations, 4);
    /* the sibling's write is in the shared cache: a hit, not a transfer */
    ck_assert(res.latency_ns[0] < res2.latency_ns[0]);
    ck_assert(res.latency_ns[1] < res.latency_ns[0]); /* then in its own l1 */
    /* a store by the sibling drops the copy from this core's l1 */
    ck_assert(res.latency_ns[2] > res.latency_ns[1]);
    ck_assert(res.latency_ns[2] < res2.latency_ns[2]);
    ck_assert(res.latency_ns[3] > res.latency_ns[0]); /* core 2: the other cache */
    ck_assert_uint_lt(res.misses, res2.misses);
    core_result_free(&res);
    core_result_free(&res2);
}
END_TEST

/* A write-through L1: a store that hits its L1 still goes on to the L2
 * and waits for it; a read that hits its L1 does not. */
START_TEST(test_write_through_l1)
{
    const char *text = "ccsim-trace 1\nthreads 1\nline x\n0: write x 1\n"
                       "all: sync\n0: write x 2\n0: mark m\nall: sync\n0: read x\n0: mark m\n";
    const char *wt[] = {"l2.size_kb=64", "l2.ways=8", "l2.latency_cycles=12",
                        "l1.write_through=true"};
    run_text(text, wt, 4, &res, &diag);
    run_text(text, wt, 3, &res2, &diag);
    ck_assert_uint_eq(res.iterations, 2);
    ck_assert(res.latency_ns[0] > res2.latency_ns[0]);  /* the store went on to the l2 */
    ck_assert(res.latency_ns[1] == res2.latency_ns[1]); /* the read hit its l1 */
    core_result_free(&res);
    core_result_free(&res2);
}
END_TEST

/* A shared cache's banks: the readers a write woke reach the line's bank
 * together and are served one at a time, so the last waits; without banks
 * they are served at once. */
START_TEST(test_shared_cache_banks_queue)
{
    const char *text = "ccsim-trace 1\nthreads 4\nline x\n0: write x 0\nall: read x\n"
                       "all: sync\n1..3: wait x == 1\n0: write x 1\nall: mark m\n";
    const char *banked[] = {"machine.cores_per_cache=4", "l2.size_kb=64", "l2.ways=8",
                            "l2.latency_cycles=12",      "l2.banks=8",    "l2.bank_busy_cycles=10"};
    run_text(text, banked, 6, &res, &diag);
    run_text(text, banked, 4, &res2, &diag);
    ck_assert(!res.deadlock && !res2.deadlock);
    ck_assert(res.latency_ns[0] >= res2.latency_ns[0] + 20.0); /* the third waits 2 x 10 cycles */
    core_result_free(&res);
    core_result_free(&res2);
}
END_TEST

/* A cache answers forwarded requests one at a time when fwd_port_cycles is
 * set: a reader copying 16 lines modified in one other cache gets them at
 * that rate (the last starts 15 x 20 cycles after the first, at 1 GHz),
 * where without it four overlap (core.mshrs). */
START_TEST(test_forward_port_paces_copies)
{
    const char *text = "ccsim-trace 1\nthreads 2\nline src 16\nline dst 16\n"
                       "for j 0..15 {\n  0: prime src[j] M\n  1: prime dst[j] M\n}\n"
                       "all: sync\n1: copy src dst 16\n1: mark m\n";
    const char *port[] = {"core.fwd_port_cycles=20"};
    run_text(text, port, 1, &res, &diag);
    run_text(text, NULL, 0, &res2, &diag);
    ck_assert_uint_eq(res.value_errors, 0);
    ck_assert_msg(res.latency_ns[0] >= 15 * 20.0 && res.latency_ns[0] > res2.latency_ns[0] + 100.0,
                  "with the port %.1f ns, without %.1f ns", res.latency_ns[0], res2.latency_ns[0]);
    core_result_free(&res);
    core_result_free(&res2);
}
END_TEST

/* `ccsim config ARGS` refuses the setting (exit 2) with a message holding
 * want and, if not NULL, want2. */
static void refused(const char *args, const char *want, const char *want2)
{
    struct tu_run r;
    tu_config_refused(&r, args, want, want2);
}

/* What a shared cache, a write-through L1 and a broadcast home need,
 * refused with the key's place. */
START_TEST(test_sharing_and_broadcast_refusals)
{
    refused("-c teach-xbar --set machine.cores_per_cache=2", "machine.cores_per_cache = 2",
            "no l2 section");
    refused("-c teach-xbar --set machine.cores_per_cache=3 --set l2.size_kb=64 "
            "--set l2.ways=8 --set l2.latency_cycles=12",
            "do not divide into whole caches", NULL);
    refused("-c scc --set machine.cores_per_cache=2", "no shared cache level", NULL);
    refused("-c teach-xbar --set machine.protocol=gols --set home.probe_filter=false",
            "gols is the KNC's tag directory", NULL);
    refused("-c teach-xbar --set l1.write_through=true", "no l2 section", NULL);
    refused("-c teach-xbar --set machine.protocol=mesif-llc", "home.llc_cycles = 0",
            "give its hit time");
    refused("-c snb-e5-2660 --set home.probe_filter=false", "home.probe_filter = false",
            "mesif-llc's home is an inclusive LLC");
}
END_TEST

/* explain names a shared cache as a cache, never as one of its cores. */
START_TEST(test_explain_names_shared_caches)
{
    const char *path = tu_write("shared.trace", "ccsim-trace 1\nthreads 3\nline x\n"
                                                "0: write x 7\nall: sync\n2: read x\n");
    struct tu_run r;
    tu_ccsim(&r,
             "explain -c teach-xbar --set machine.cores_per_cache=2 --set l2.size_kb=64 "
             "--set l2.ways=8 --set l2.latency_cycles=12 %s",
             path);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "cache N serves cores 2*N..2*N+1"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "Fwd_GetS from home 0 in M: sends Data_S to cache 1"), "%s", r.out);
    ck_assert_msg(!strstr(r.out, "core 1"), "%s", r.out);
}
END_TEST

/* The stream prefetcher: a thread reading 32 lines one at a time (no
 * overlap of its own) finds most of them already in once a stream is
 * found: the first two reads miss (prefetch_train = 2), the prefetcher
 * reads ahead of the others; off, every read misses. Counted apart from
 * loads and misses, values unchanged, the checker clean. */
static const char *reads32 =
    "ccsim-trace 1\nthreads 2\nline data 32\n"
    "for i 0..31 {\n  1: write data[i] i+1\n}\n"
    "for i 0..31 {\n  1: evict data[i]\n}\nall: sync\n"
    "for i 0..31 {\n  0: read data[i] -> v\n  0: expect data[i] == i+1\n}\n"
    "0: mark m\n";

START_TEST(test_prefetcher_reads_ahead)
{
    const char *on[] = {"l1.prefetch_streams=4", "l1.prefetch_depth=8"};
    run_text(reads32, on, 2, &res, &diag);
    run_text(reads32, NULL, 0, &res2, &diag);
    ck_assert(!res.deadlock && !res.input_error && res.value_errors == 0);
    ck_assert_uint_eq(res.loads, res2.loads);
    ck_assert_uint_eq(res2.prefetches, 0);
    ck_assert_uint_ge(res.prefetches, 30);     /* lines 2..31, and a few past the array */
    ck_assert_uint_le(res.prefetches, 32 + 8); /* each line once */
    ck_assert_uint_eq(res.misses - 32, res2.misses - 32 - 30); /* the writes' 32 misses, twice */
    ck_assert_msg(res.latency_ns[0] * 2 < res2.latency_ns[0], "on %.1f ns, off %.1f ns",
                  res.latency_ns[0], res2.latency_ns[0]);
    core_result_free(&res);
    core_result_free(&res2);
}
END_TEST

/* Only reads train it, strides other than one line do not make a stream,
 * and a deeper prefetcher reads further ahead (fewer late arrivals). */
START_TEST(test_prefetcher_streams_only)
{
    const char *on[] = {"l1.prefetch_streams=4"};
    const char *writes = "ccsim-trace 1\nthreads 1\nline data 32\n"
                         "all: sync\nfor i 0..31 {\n  0: write data[i] 1\n}\n0: mark m\n"
                         "0: expect data[0..31] == 1\n";
    run_text(writes, on, 1, &res, &diag);
    ck_assert_uint_eq(res.prefetches, 0);
    /* with prefetch_rfo stores make streams too: the lines come to write */
    const char *rfo[] = {"l1.prefetch_streams=4", "l1.prefetch_rfo=true"};
    run_text(writes, rfo, 2, &res2, &diag);
    ck_assert_uint_ge(res2.prefetches, 30);
    ck_assert_uint_eq(res2.value_errors, 0);
    ck_assert_msg(res2.latency_ns[0] * 2 < res.latency_ns[0], "rfo %.1f ns, reads only %.1f ns",
                  res2.latency_ns[0], res.latency_ns[0]);
    core_result_free(&res);
    core_result_free(&res2);
    const char *stride = "ccsim-trace 1\nthreads 1\nline data 64\n"
                         "all: sync\nfor i 0..31 {\n  0: read data[2*i]\n}\n0: mark m\n";
    run_text(stride, on, 1, &res, &diag);
    ck_assert_uint_eq(res.prefetches, 0);
    core_result_free(&res);
    const char *shallow[] = {"l1.prefetch_streams=4", "l1.prefetch_depth=1"};
    const char *deep[] = {"l1.prefetch_streams=4", "l1.prefetch_depth=16"};
    run_text(reads32, shallow, 2, &res, &diag);
    run_text(reads32, deep, 2, &res2, &diag);
    ck_assert_msg(res2.latency_ns[0] < res.latency_ns[0], "depth 16 %.1f ns, depth 1 %.1f ns",
                  res2.latency_ns[0], res.latency_ns[0]);
    core_result_free(&res);
    core_result_free(&res2);
}
END_TEST

/* Where it belongs, refused elsewhere with the key's place; explain says
 * the prefetcher's requests are the prefetcher's, never a core's load. */
START_TEST(test_prefetcher_config_and_narration)
{
    refused("-c snb-e5-2660 --set l1.prefetch_streams=4", "l1.prefetch_streams = 4",
            "l2.prefetch_streams");
    refused("-c scc --set l2.prefetch_streams=4", "needs the coherent runtime", NULL);
    struct tu_run r;
    const char *path = tu_write("pf.trace", "ccsim-trace 1\nthreads 1\nline data 8\n"
                                            "for i 0..7 {\n  0: read data[i]\n}\n");
    tu_ccsim(&r, "explain -c teach-xbar --set l1.prefetch_streams=2 %s", path);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "Load (the cache's stream prefetcher reads") &&
                      strstr(r.out, "GetS from core 0 (its stream prefetcher reads ahead)"),
                  "%.3000s", r.out);
    tu_ccsim(&r, "run -c teach-xbar --set l1.prefetch_streams=2 %s", path);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "prefetcher: ") && strstr(r.out, "lines fetched ahead"), "%.3000s",
                  r.out);
    tu_ccsim(&r, "run -c teach-xbar %s", path);
    ck_assert_msg(!strstr(r.out, "prefetcher"), "%.3000s", r.out);
    /* tu_write's path is its own buffer: the reads' trace is done with */
    const char *wpath = tu_write("pfw.trace", "ccsim-trace 1\nthreads 1\nline data 8\n"
                                              "for i 0..7 {\n  0: write data[i] 1\n}\n");
    tu_ccsim(&r, "explain -c teach-xbar --set l1.prefetch_streams=2 --set l1.prefetch_rfo=true %s",
             wpath);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(
        strstr(r.out, "Store (the cache's stream prefetcher fetches data[2] ahead, to write)") &&
            strstr(r.out, "GetX from core 0 (its stream prefetcher fetches ahead, to write)") &&
            !strstr(r.out, "writes data[2]: 0 -> 0"),
        "%.3000s", r.out);
    /* the random tester races prefetches against everything else */
    tu_ccsim(&r, "stress -c snb-e5-2660 --ops 20000 --set l2.prefetch_streams=4");
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "violations 0  unexpected 0  deadlock no") &&
                      strstr(r.out, "prefetcher: "),
                  "%.3000s", r.out);
}
END_TEST

/* The next-line prefetcher: a read that misses (or finds its line still on
 * its way) fetches the N lines after it, so a scan whose reads find their
 * lines on their way keeps it going and misses only at its start; further
 * ahead (N = 4) the lines wait less. Counted with the prefetchers'
 * fetches, values unchanged; explain names it. */
START_TEST(test_next_line_prefetcher)
{
    const char *one[] = {"l1.prefetch_next=1"};
    const char *four[] = {"l1.prefetch_next=4"};
    run_text(reads32, NULL, 0, &res, &diag);
    run_text(reads32, one, 1, &res2, &diag);
    ck_assert(!res2.deadlock && res2.value_errors == 0);
    ck_assert_uint_eq(res.prefetches, 0);
    ck_assert_uint_ge(res2.prefetches, 16);
    ck_assert_uint_le(res2.misses - 32, 4); /* the writes' 32, then the scan's first reads */
    ck_assert_msg(res2.latency_ns[0] < res.latency_ns[0], "next 1 %.1f ns, off %.1f ns",
                  res2.latency_ns[0], res.latency_ns[0]);
    double lat1 = res2.latency_ns[0];
    core_result_free(&res);
    core_result_free(&res2);
    run_text(reads32, four, 1, &res, &diag);
    ck_assert_uint_eq(res.value_errors, 0);
    ck_assert_uint_le(res.misses - 32, 4);
    ck_assert_msg(res.latency_ns[0] < lat1, "next 4 %.1f ns, next 1 %.1f ns", res.latency_ns[0],
                  lat1);
    core_result_free(&res);
    struct tu_run r;
    const char *path = tu_write("nl.trace", "ccsim-trace 1\nthreads 1\nline data 8\n"
                                            "for i 0..7 {\n  0: read data[i]\n}\n");
    tu_ccsim(&r, "explain --wide -c teach-xbar --set l1.prefetch_next=2 %s", path);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "Load (the cache's next-line prefetcher reads data[1] ahead)") &&
                      strstr(r.out, "GetS from core 0 (its next-line prefetcher reads ahead)") &&
                      !strstr(r.out, "stream prefetcher"),
                  "%.3000s", r.out);
    refused("-c snb-e5-2660 --set l1.prefetch_next=2", "l1.prefetch_next = 2", "l2.prefetch_next");
    refused("-c scc --set l2.prefetch_next=2", "a next-line prefetcher needs the coherent runtime",
            NULL);
    refused("-c scc --set l1.prefetch_next=2", "a next-line prefetcher needs the coherent runtime",
            NULL);
    refused("-c teach-xbar --set l2.prefetch_next=2", "this machine has no l2",
            "its l1 is the coherent level: l1.prefetch_next");
}
END_TEST

/* The adjacent-line prefetcher: a missed read of a[2] fetches a[3], one of
 * a[5] fetches a[4] (aligned pairs of the layout), and the read of a[3]
 * then finds it in; explain names it, a machine without coherent caches
 * refuses it. */
START_TEST(test_adjacent_line_prefetcher)
{
    const char *text = "ccsim-trace 1\nthreads 1\nline a 8\n"
                       "0: read a[2]\n0: read a[5]\n0: read a[3]\n0: mark m\n";
    const char *pair[] = {"l1.prefetch_pair=true"};
    run_text(text, pair, 1, &res, &diag);
    ck_assert_uint_eq(res.prefetches, 2);
    ck_assert_uint_eq(res.misses, 2);
    core_result_free(&res);
    /* with prefetch_rfo every access that fetches its line to write sets it
     * off: a store, an atomic add and an addline, each a[3] in its turn */
    const char *writes = "ccsim-trace 1\nthreads 1\nline a 8\nline b\n"
                         "0: write a[2] 1\n0: evict a[2]\n0: evict a[3]\n0: add a[2] 1\n"
                         "0: evict a[2]\n0: evict a[3]\n0: addline a[2] b 1\n0: mark m\n";
    const char *pair_rfo[] = {"l1.prefetch_pair=true", "l1.prefetch_rfo=true"};
    run_text(writes, pair_rfo, 2, &res, &diag);
    ck_assert_uint_eq(res.value_errors, 0);
    ck_assert_uint_eq(res.prefetches, 3);
    core_result_free(&res);
    struct tu_run r;
    const char *path = tu_write("pair.trace", text);
    tu_ccsim(&r, "explain --wide -c teach-xbar --set l1.prefetch_pair=true %s", path);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(
        strstr(r.out, "Load (the cache's adjacent-line prefetcher reads a[3] ahead)") &&
            strstr(r.out, "Load (the cache's adjacent-line prefetcher reads a[4] ahead)") &&
            strstr(r.out, "GetS from core 0 (its adjacent-line prefetcher reads ahead)"),
        "%.3000s", r.out);
    /* an aligned pair never straddles a page: pages change nothing for it alone */
    tu_ccsim(&r, "config -c teach-xbar --set l1.prefetch_pair=true --set l1.prefetch_page_kb=4");
    ck_assert_msg(strstr(r.out, "prefetch_page_kb   4 KiB           # (--set; not used by this "),
                  "%.3000s", r.out);
    refused("-c scc --set l2.prefetch_pair=true", "an adjacent-line prefetcher needs the coherent",
            "(use false)");
    refused("-c snb-e5-2660 --set l1.prefetch_pair=true", "l1.prefetch_pair = true",
            "l2.prefetch_pair");
}
END_TEST

/* A stream sends at most prefetch_degree prefetches for one read (the
 * nearest first), and neither prefetcher fetches past the page of the
 * read that set it off (prefetch_page_kb): 64 lines of 64 bytes are one
 * 4 KiB page, and the array after them is in the next. */
START_TEST(test_prefetch_degree_and_pages)
{
    const char *three = "ccsim-trace 1\nthreads 1\nline data 64\n"
                        "for i 0..2 {\n  0: read data[i]\n}\n0: mark m\n";
    const char *deep[] = {"l1.prefetch_streams=4", "l1.prefetch_depth=20"};
    const char *two[] = {"l1.prefetch_streams=4", "l1.prefetch_depth=20", "l1.prefetch_degree=2"};
    run_text(three, deep, 2, &res, &diag);
    run_text(three, two, 3, &res2, &diag);
    ck_assert_uint_eq(res.prefetches, 21); /* the second read: 20 ahead; the third: 1 more */
    ck_assert_uint_eq(res2.prefetches, 4); /* two a read */
    core_result_free(&res);
    core_result_free(&res2);
    const char *page = "ccsim-trace 1\nthreads 1\nline a 64\nline b 64\n"
                       "for i 0..63 {\n  0: read a[i]\n}\n0: mark m\n";
    const char *free_[] = {"l1.prefetch_streams=4", "l1.prefetch_depth=8"};
    const char *paged[] = {"l1.prefetch_streams=4", "l1.prefetch_depth=8", "l1.prefetch_page_kb=4"};
    run_text(page, free_, 2, &res, &diag);
    run_text(page, paged, 3, &res2, &diag);
    ck_assert_uint_eq(res.prefetches, 62 + 8); /* a[2..63], then b[0..7] */
    ck_assert_uint_eq(res2.prefetches, 62);    /* a[2..63] only */
    core_result_free(&res);
    core_result_free(&res2);
    const char *next_paged[] = {"l1.prefetch_next=4", "l1.prefetch_page_kb=4"};
    run_text(page, next_paged, 2, &res, &diag);
    ck_assert_uint_eq(res.misses + res.prefetches, 64); /* nothing of b fetched */
    core_result_free(&res);
}
END_TEST

/* An L2's prefetchers see only what its L1 did not answer (Intel's streamer
 * watches the L1's requests): a read of x[4] that misses, then one of x[3]
 * the L1 holds, is no descending stream there; on a machine whose L1 is
 * the coherent level the same two reads are one, and x[2..0] are fetched. */
START_TEST(test_l2_prefetcher_sees_l1_misses)
{
    const char *text = "ccsim-trace 1\nthreads 1\nline x 8\n"
                       "0: write x[3] 1\n0: read x[4]\n0: read x[3]\n0: mark m\n";
    const char *l1_only[] = {"l1.prefetch_streams=4"};
    const char *with_l2[] = {"l2.size_kb=64", "l2.ways=8", "l2.latency_cycles=12",
                             "l2.prefetch_streams=4"};
    run_text(text, l1_only, 1, &res, &diag);
    run_text(text, with_l2, 4, &res2, &diag);
    ck_assert_uint_eq(res.prefetches, 3);
    ck_assert_uint_eq(res2.prefetches, 0);
    core_result_free(&res);
    core_result_free(&res2);
}
END_TEST

/* A --set of a key the machine does not use changes nothing, and run (and
 * every subcommand that loads one machine) and sweep say so on stderr; a
 * used one draws no note. */
START_TEST(test_unused_set_noted)
{
    struct tu_run r;
    tu_ccsim(&r, "run -c snb-e5-2660 -w pingpong -t 2 -i 2 --set l2.prefetch_depth=8 "
                 "--set core.fwd_port_reads=false");
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.err, "note: --set l2.prefetch_depth=8 changes nothing: snb-e5-2660 "
                                "does not use l2.prefetch_depth") &&
                      !strstr(r.err, "fwd_port_reads"),
                  "%.3000s", r.err);
    /* validate loads its machine for every point: one note all the same */
    tu_ccsim(&r, "validate -c snb-e5-2660 -w m2o -t 2,4 -i 3 --set l2.prefetch_depth=8");
    const char *first = strstr(r.err, "note: --set l2.prefetch_depth=8");
    ck_assert_msg(first && !strstr(first + 1, "note: --set"), "%.3000s", r.err);
    const char *path = tu_write("unused.sweep", "sweep = {\n  configs = [\"knc-5110p --set "
                                                "core.fwd_port_reads=false\"];\n"
                                                "  workloads = [\"pingpong\"];\n  threads = [2];\n"
                                                "  iterations = 2;\n};\n");
    tu_ccsim(&r, "sweep %s", path);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.err, "--set core.fwd_port_reads=false changes nothing: knc-5110p does "
                                "not use core.fwd_port_reads"),
                  "%.3000s", r.err);
}
END_TEST

/* core.fwd_port_reads = false: a core's port paces only the forwards that
 * take lines to write; a reader copying lines out of its cache is not held
 * to its turns, a writer still is. */
START_TEST(test_fwd_port_reads)
{
    const char *reads = "ccsim-trace 1\nthreads 2\nline data 32\n"
                        "for i 0..31 {\n  1: write data[i] i+1\n}\nall: sync\n"
                        "for i 0..31 {\n  0: read data[i]\n}\n0: mark m\n";
    const char *writes = "ccsim-trace 1\nthreads 2\nline data 32\n"
                         "for i 0..31 {\n  1: write data[i] i+1\n}\nall: sync\n"
                         "for i 0..31 {\n  0: write data[i] 7\n}\n0: mark m\n";
    const char *port[] = {"core.fwd_port_cycles=100"};
    const char *writes_only[] = {"core.fwd_port_cycles=100", "core.fwd_port_reads=false"};
    run_text(reads, port, 1, &res, &diag);
    run_text(reads, writes_only, 2, &res2, &diag);
    ck_assert_msg(res2.latency_ns[0] * 2 < res.latency_ns[0], "reads: %.1f ns, %.1f ns paced",
                  res2.latency_ns[0], res.latency_ns[0]);
    core_result_free(&res);
    core_result_free(&res2);
    run_text(writes, port, 1, &res, &diag);
    run_text(writes, writes_only, 2, &res2, &diag);
    ck_assert_msg(res2.latency_ns[0] == res.latency_ns[0], "writes: %.1f ns, %.1f ns",
                  res2.latency_ns[0], res.latency_ns[0]);
    core_result_free(&res);
    core_result_free(&res2);
}
END_TEST

/* A copy loop's prefetch instructions (core.prefetch_distance): a core
 * that waits for each load (mshrs = 1) copies 32 lines; loading line i it
 * prefetches line i + 4 of the source and, to write, of the destination,
 * so that only lines 0..3 of each miss. Counted apart from loads and
 * misses (the stream prefetcher's counter stays 0), values unchanged. */
static const char *copy32 = "ccsim-trace 1\nthreads 2\nline src 32\nline dst 32\n"
                            "for i 0..31 {\n  1: write src[i] i+1\n}\nall: sync\n"
                            "0: copy src[0] dst[0] 32\n0: mark m\n"
                            "for i 0..31 {\n  0: expect dst[i] == i+1\n}\n";

START_TEST(test_copy_prefetch_instructions)
{
    const char *on[] = {"core.mshrs=1", "core.prefetch_distance=4"};
    run_text(copy32, on, 2, &res, &diag);
    run_text(copy32, on, 1, &res2, &diag);
    ck_assert(!res.deadlock && !res.input_error && res.value_errors == 0);
    ck_assert_uint_eq(res2.value_errors, 0);
    ck_assert_uint_eq(res.loads, res2.loads);
    ck_assert_uint_eq(res.sw_prefetches, 2 * 28); /* lines 4..31 of each */
    ck_assert_uint_eq(res2.sw_prefetches, 0);
    ck_assert_uint_eq(res.prefetches, 0);
    ck_assert_uint_eq(res.misses + 2 * 28, res2.misses);
    ck_assert_msg(res.latency_ns[0] * 2 < res2.latency_ns[0], "on %.1f ns, off %.1f ns",
                  res.latency_ns[0], res2.latency_ns[0]);
    core_result_free(&res);
    core_result_free(&res2);
    refused("-c scc --set core.prefetch_distance=2", "core.prefetch_distance = 2",
            "needs the coherent runtime");
    struct tu_run r;
    const char *path = tu_write("cp.trace", copy32);
    tu_ccsim(&r, "explain -c teach-xbar --set core.mshrs=1 --set core.prefetch_distance=4 %s",
             path);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(
        strstr(
            r.out,
            "Load (thread 0's copy or addline loop's prefetch instruction reads src[4] ahead)") &&
            strstr(r.out,
                   "Store (thread 0's copy or addline loop's prefetch instruction fetches dst[4] "
                   "ahead,") &&
            strstr(r.out,
                   "GetS from core 0 (a prefetch instruction of its core's copy or addline loop") &&
            !strstr(r.out, "stream prefetcher"),
        "%.3000s", r.out);
    tu_ccsim(&r, "run -c teach-xbar --set core.mshrs=1 --set core.prefetch_distance=4 %s", path);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(
        strstr(r.out, "prefetch instructions: 56 lines fetched ahead by copy and addline loops") &&
            !strstr(r.out, "prefetcher:"),
        "%.3000s", r.out);
    tu_ccsim(&r, "run -c teach-xbar --json - %s", path);
    ck_assert_msg(strstr(r.out, "\"sw_prefetches\": 0,") && !strstr(r.out, "prefetch instr"),
                  "%.3000s", r.out);
}
END_TEST

/* Prefetch slots (core.prefetch_read_slots, prefetch_write_slots): a
 * core keeps that many of its copy loops' prefetches of each kind in
 * flight, and the loop waits at the next one for a slot: the same
 * prefetches, values and loads, later; slots the loop never fills change
 * nothing. */
START_TEST(test_copy_prefetch_slots)
{
    const char *free_[] = {"core.mshrs=1", "core.prefetch_distance=4"};
    const char *one[] = {"core.mshrs=1", "core.prefetch_distance=4", "core.prefetch_read_slots=1",
                         "core.prefetch_write_slots=1"};
    const char *many[] = {"core.mshrs=1", "core.prefetch_distance=4", "core.prefetch_read_slots=32",
                          "core.prefetch_write_slots=32"};
    run_text(copy32, free_, 2, &res, &diag);
    run_text(copy32, one, 4, &res2, &diag);
    ck_assert(!res2.deadlock && !res2.input_error && res2.value_errors == 0);
    ck_assert_uint_eq(res2.sw_prefetches, res.sw_prefetches); /* waited for, not dropped */
    ck_assert_uint_eq(res2.loads, res.loads);
    ck_assert_msg(res2.latency_ns[0] > res.latency_ns[0] * 1.5, "one slot %.1f ns, free %.1f ns",
                  res2.latency_ns[0], res.latency_ns[0]);
    double free_ns = res.latency_ns[0];
    core_result_free(&res);
    core_result_free(&res2);
    run_text(copy32, many, 4, &res, &diag);
    ck_assert_msg(res.latency_ns[0] == free_ns, "32 slots %.1f ns, free %.1f ns", res.latency_ns[0],
                  free_ns);
    core_result_free(&res);
    /* two hardware threads of one core share its slots, served in the
     * order they stalled: neither copy waits for the other's to end (by
     * thread number, the second took 1.45x the first's time) */
    const char *smt[] = {"core.mshrs=1", "core.prefetch_distance=4", "core.prefetch_read_slots=1",
                         "core.prefetch_write_slots=1", "machine.threads_per_core=2"};
    run_text("ccsim-trace 1\nthreads 3\npin 0.0 0.1 1.0\nline src 64\nline dst 64\n"
             "for i 0..63 {\n  2: write src[i] i+1\n}\nall: sync\n"
             "0: copy src[0] dst[0] 32\n0: mark m\n1: copy src[32] dst[32] 32\n1: mark m\n",
             smt, 5, &res, &diag);
    ck_assert_msg(!res.deadlock && !res.input_error && res.value_errors == 0, "%s", diag.text);
    double a = res.thread_latency[0].ns[0], b = res.thread_latency[1].ns[0];
    ck_assert_msg(b < a * 1.2 && a < b * 1.2, "thread 0 %.1f ns, thread 1 %.1f ns", a, b);
    core_result_free(&res);
}
END_TEST

static Suite *core_suite(void)
{
    Suite *s = suite_create("core");
    TCase *tc = tcase_create("model");
    tcase_add_test(tc, test_wait_wakes_on_invalidation);
    tcase_add_test(tc, test_mshr_overlap);
    tcase_add_test(tc, test_stealing_emerges);
    tcase_add_test(tc, test_sync_opens_iterations);
    tcase_add_test(tc, test_deadlock_reported);
    tcase_add_test(tc, test_values_and_errors);
    tcase_add_test(tc, test_hardware_threads_share_a_cache);
    tcase_add_test(tc, test_sibling_write_wakes_waiter);
    tcase_add_test(tc, test_stream_through_a_full_cache);
    tcase_add_test(tc, test_input_errors);
    tcase_add_test(tc, test_deterministic);
    tcase_add_test(tc, test_llc_serves_shared_reads);
    tcase_add_test(tc, test_llc_capacity);
    tcase_add_test(tc, test_writeback_buffers);
    tcase_add_test(tc, test_writeback_buffers_config_and_narration);
    tcase_add_test(tc, test_set_waiters_served_in_order);
    tcase_add_test(tc, test_line_waiters_behind_set_waiters);
    tcase_add_test(tc, test_llc_sets_used_evenly);
    tcase_add_test(tc, test_memory_bandwidth_queues);
    tcase_add_test(tc, test_broadcast_home);
    tcase_add_test(tc, test_cores_share_a_cache);
    tcase_add_test(tc, test_sharing_and_broadcast_refusals);
    tcase_add_test(tc, test_write_through_l1);
    tcase_add_test(tc, test_prefetcher_reads_ahead);
    tcase_add_test(tc, test_prefetcher_streams_only);
    tcase_add_test(tc, test_prefetcher_config_and_narration);
    tcase_add_test(tc, test_next_line_prefetcher);
    tcase_add_test(tc, test_adjacent_line_prefetcher);
    tcase_add_test(tc, test_prefetch_degree_and_pages);
    tcase_add_test(tc, test_l2_prefetcher_sees_l1_misses);
    tcase_add_test(tc, test_fwd_port_reads);
    tcase_add_test(tc, test_unused_set_noted);
    tcase_add_test(tc, test_copy_prefetch_instructions);
    tcase_add_test(tc, test_copy_prefetch_slots);
    tcase_add_test(tc, test_forward_port_paces_copies);
    tcase_add_test(tc, test_shared_cache_banks_queue);
    tcase_add_test(tc, test_explain_names_shared_caches);
    tcase_add_test(tc, test_shipped_traces_run_on_every_protocol);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(core_suite());
}
