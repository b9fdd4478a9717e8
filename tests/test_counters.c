/*
 * test_counters.c -- counters that mean their names (docs/DESIGN.md
 * "Counters"): a copy a forwarded GetX takes away is an invalidation,
 * atomics are not stores, ownership hand-offs are counted; per-thread
 * latencies and (on request) every iteration's in the JSON; the printed
 * mean lies within [min, max]; the sweep CSV has the queueing columns; a
 * request that waited for a way is still a miss.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LAB1 CCSIM_TEST_DIR "/../docs/labs/01-false-sharing/same-line.trace"
#define LAB3 CCSIM_TEST_DIR "/../docs/labs/03-knc-contention/own-lines-4.trace"

static struct tu_run r;

/* The number after `"key": ` in text (the first one), or -1. */
static double json_field(const char *text, const char *key)
{
    double v = -1;
    tu_json_number(text, key, &v);
    return v;
}

/* Lab 1: two threads add to their own words of one line. Each add takes
 * the line from the other core with a Fwd_GetX: the other's copy is
 * invalidated and ownership is handed off; the adds are atomics, not
 * stores. */
START_TEST(test_lab1_counters)
{
    const char *json = tu_write("lab1.json", "");
    tu_ccsim(&r, "run -c teach-xbar %s --json %s", LAB1, json);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "counters: loads 0  stores 0  atomics 4000  misses 4000  "
                                "invalidations 3900  handoffs 3900"),
                  "%s", r.out);
    const char *text = tu_slurp(json);
    ck_assert(json_field(text, "atomics") == 4000);
    ck_assert(json_field(text, "stores") == 0);
    ck_assert(json_field(text, "invalidations") == 3900);
    ck_assert(json_field(text, "handoffs") == 3900);
    /* the tables' cells agree: every add missed (I, Store), every loss of
     * the line is a Fwd_GetX at the M copy, every hand-off the home's GetX
     * on an owner */
    ck_assert_msg(strstr(text, "{\"table\": \"cache\", \"row\": 2, \"state\": \"I\", \"event\": "
                               "\"Store\", \"times\": 4000}") &&
                      strstr(text, "{\"table\": \"cache\", \"row\": 21, \"state\": \"M\", "
                                   "\"event\": \"Fwd_GetX\", \"times\": 3900}") &&
                      strstr(text, "{\"table\": \"home\", \"row\": 15, \"state\": \"EM\", "
                                   "\"event\": \"GetX\", \"times\": 3900}"),
                  "%s", text);
    /* a poller on a sibling hardware thread re-loads when the line's bytes
     * change, not on every write of its core (failed cas, same value) */
    const char *sib = tu_write("sib.trace", "ccsim-trace 1\nthreads 2\npin 0 0.1\nline x\n"
                                            "all: sync\n1: wait x >= 1\n0: compute 500\n"
                                            "0: cas x 5 6\n0: compute 500\n0: write x 0\n"
                                            "0: compute 500\n0: write x 1\nall: mark done\n");
    tu_ccsim(&r, "run -c knc-5110p %s", sib);
    ck_assert_msg(r.status == 0 && strstr(r.out, "poll_refetches 1 "), "%s%s", r.out, r.err);
    /* on Sandy Bridge an expect can fall while the line's only copy is in
     * a Data_M on its way between the cores: it reads that copy, not the
     * memory's stale one (4 false value errors before) */
    tu_ccsim(&r, "run -c snb-e5-2660 %s", LAB1);
    ck_assert_msg(r.status == 0 && strstr(r.out, "checks: value errors 0"), "%s%s", r.out, r.err);
    tu_ccsim(&r, "run -c teach-xbar %s --rows", LAB1);
    ck_assert_msg(r.status == 0 &&
                      strstr(r.out, "\n  cache row 21  M       Fwd_GetX        3900\n"),
                  "%s", r.out);
    /* a clean E copy on its way out that answers a read (EI_A, Fwd_GetS)
     * writes nothing back: it counted a writeback and said the home wrote the
     * line to memory */
    const char *race = tu_write("race.trace", "ccsim-trace 1\nthreads 2\nline x 9216\nall: sync\n"
                                              "for j 0..9215 {\n  0: evict x[j]\n}\nall: sync\n"
                                              "0: read x[0]\nfor j 1..8 {\n  0: read x[j*1024]\n}\n"
                                              "1: compute 2320\n1: read x[0]\nall: mark done\n");
    tu_ccsim(&r, "explain -c knc-5110p %s --line x[0]", race);
    ck_assert_msg(r.status == 0 && strstr(r.out, "Fwd_Ack_Data from core 0 in MS_F") &&
                      strstr(r.out, "Replace") && !strstr(r.out, "writes the line to memory"),
                  "%s", r.out);
    tu_ccsim(&r, "run -c knc-5110p %s", race);
    ck_assert_msg(strstr(r.out, "writebacks 0\n"), "%s", r.out);
    /* a PutX that meets its sender's own transaction (B_EM, the unblock on
     * its way) waits as a Put_Stale and is served as a PutX_Last: the
     * header says a waiting message is classified again */
    const char *flush =
        tu_write("flush.trace", "ccsim-trace 1\nthreads 2\nline x\n"
                                "for it 0..1 {\n  all: sync\n  0: write x it+1\n"
                                "  0: flush x\n  1: compute 500\n  1: read x\n"
                                "  0: compute 600\n  0: read x\n  all: mark d\n}\n");
    tu_ccsim(&r, "run -c snb-e5-2660 %s --rows", flush);
    ck_assert_msg(r.status == 0 &&
                      strstr(r.out, "state, event, times; a message that waits is classified "
                                    "again when it is served)\n") &&
                      strstr(r.out, "B_EM    Put_Stale       1\n") &&
                      strstr(r.out, "EM      PutX_Last       2\n"),
                  "%s", r.out);
    tu_ccsim(&r, "run -c scc -w scc-barrier -t 2 -i 2 --rows --json -");
    ck_assert_msg(r.status == 0 && strstr(r.out, "\"rows\": null") &&
                      strstr(r.err, "rows: scc runs no protocol tables"),
                  "%s%s", r.out, r.err);
}
END_TEST

/* n-writers (seed 000 Sec 2.3): three threads add to one line while
 * thread 0 polls it. Its re-load after losing the line is a poll
 * re-fetch (one an iteration). A home that queues requests for a busy
 * line serves the poller's re-load after the adds (no steal); one that
 * refuses and retries them lets the re-load in between two adds: it
 * takes the line from a writer and must re-load again. */
START_TEST(test_n_writers_refetch_and_retry)
{
    tu_ccsim(&r, "run -c teach-xbar -w m2o -t 4 -i 20");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "poll_refetches 20  steals 0 "), "%s", r.out);
    tu_ccsim(&r, "run -c teach-xbar -w m2o -t 4 -i 20 --set home.retry_cycles=5");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "poll_refetches 60  steals 40 "), "%s", r.out);
}
END_TEST

/* One steal a fetch that takes the line from its writer, whichever poll
 * of the cache fails on it: two pollers sharing a KNL tile's cache counted
 * two; a failing sibling of the poll that asked, a poll joining a
 * prefetch's fetch and one hitting a prefetch's fill no access had read
 * must count one each. */
START_TEST(test_one_steal_a_fetch)
{
    static const struct {
        const char *config, *name, *text;
    } cases[] = {
        {"knl-7290", "steal2.trace", /* two pollers of one tile's cache */
         "ccsim-trace 1\nthreads 3\npin 0 1 2\nline flag home=0\nall: sync\n"
         "2: write flag 1\n2: compute 400\n2: write flag 2\n0,1: wait flag >= 2\n"
         "all: mark m\n"},
        {"knc-5110p", "steal3.trace", /* the poll that asked succeeds, its sibling's fails */
         "ccsim-trace 1\nthreads 3\npin 0.0 0.1 1.0\nline flag home=0\nall: sync\n"
         "2: write flag 1\n2: compute 2000\n2: write flag 2\n0: compute 5\n"
         "0: wait flag >= 1\n1: wait flag >= 2\nall: mark m\n"},
        {"knc-5110p", "pfsteal.trace", /* the poll joins a sibling's copy loop's prefetch */
         "ccsim-trace 1\nthreads 3\npin 0.0 0.1 1.0\nline a 16 home=0\nline b 16 home=0\n"
         "all: sync\n2: write a[6] 1\nall: sync\n2: compute 3000\n2: write a[6] 2\n"
         "0: compute 600\n0: wait a[6] >= 2\n1: copy a[0] b[0] 8\nall: mark m\n"},
        /* the poll hits the copy a next-line prefetch took from the writer
         * (a hit counted nothing) */
        {"teach-xbar --set l1.prefetch_next=1", "pfhit.trace",
         "ccsim-trace 1\nthreads 2\nline x 2\n0: write x[1] 1\n0: compute 300\n"
         "0: write x[1] 2\n1: compute 150\n1: read x[0]\n1: wait x[1] == 2\n"},
    };
    for (size_t i = 0; i < SIM_COUNT_OF(cases); i++) {
        tu_ccsim(&r, "run -c %s %s", cases[i].config, tu_write(cases[i].name, cases[i].text));
        ck_assert_msg(r.status == 0 && strstr(r.out, " steals 1 "), "%s: %s%s", cases[i].name,
                      r.out, r.err);
    }
    /* a flag handed off (read by the poll that succeeded) is no steal when
     * the next iteration's poll hits it and fails (the guide's handoff) */
    tu_ccsim(&r, "run -c teach-xbar %s",
             tu_write("handoff.trace", "ccsim-trace 1\nthreads 2\nline data\nline flag\n"
                                       "for it 0..99 {\n  all: sync\n  0: write data it\n"
                                       "  0: write flag it+1\n  1: wait flag >= it+1\n"
                                       "  1: read data -> v\n  all: mark done\n}\n"));
    ck_assert_msg(r.status == 0 && strstr(r.out, "poll_refetches 100  steals 0 "), "%s", r.out);
    /* a copy this cache wrote since its fill is its own: no steal */
    tu_ccsim(&r, "run -c teach-xbar %s",
             tu_write("own.trace", "ccsim-trace 1\nthreads 2\nline x\n1: write x.0 1\n"
                                   "1: compute 100\n0: compute 50\n0: write x.1 1\n"
                                   "0: wait x.0 == 2\n1: compute 300\n1: write x.0 2\n"));
    ck_assert_msg(r.status == 0 && strstr(r.out, "poll_refetches 1  steals 0 "), "%s", r.out);
}
END_TEST

/* line_busy: every time a request meets its line busy at the home, queued
 * or refused; a thread alone never does, and the text says which. */
START_TEST(test_line_busy)
{
    char path[512];
    snprintf(path, sizeof path, "%s/busy.json", tu_dir());
    tu_ccsim(&r, "run -c teach-xbar -w m2o -t 4 -i 20 --json %s", path);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *text = tu_slurp(path);
    double queued = json_field(text, "line_busy");
    ck_assert_msg(queued > 0 && strstr(r.out, "times a request met its line busy at its home (it "
                                              "waited in the line's queue)"),
                  "%s", r.out);
    tu_ccsim(&r, "run -c teach-xbar -w m2o -t 4 -i 20 --set home.retry_cycles=5 --json %s", path);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(json_field(tu_slurp(path), "line_busy") > queued &&
                      strstr(r.out, "(refused, it came back after home.retry_cycles)"),
                  "%s", r.out);
    const char *alone = tu_write("alone.trace", "ccsim-trace 1\nthreads 1\nline x\n"
                                                "for it 0..4 {\n  all: sync\n  0: add x 1\n"
                                                "  0: read x\n  all: mark done\n}\n");
    tu_ccsim(&r, "run -c teach-xbar %s --json %s", alone, path);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert(json_field(tu_slurp(path), "line_busy") == 0 && !strstr(r.out, "busy lines"));
}
END_TEST

/* fill_conflicts: three threads read a line in memory at once on GOLS
 * (the first read is the fill, the others join it and go to memory);
 * with memory.fill_conflict_ns the joined reads that meet the fill under
 * way are refused and tried again after a random backoff: counted, named
 * on a line of their own, seeded (the same seed gives the same bytes);
 * without it none is. */
START_TEST(test_fill_conflicts)
{
    char path[512];
    snprintf(path, sizeof path, "%s/fill.json", tu_dir());
    const char *t = tu_write("fill.trace", "ccsim-trace 1\nthreads 3\nline x\n"
                                           "for it 0..9 {\n  0: evict x\n  all: sync\n"
                                           "  all: read x\n  all: mark done\n}\n");
    const char *gols = "--set machine.protocol=\"gols\" --set memory.bank_busy_ns=5";
    tu_ccsim(&r, "run -c teach-xbar %s %s --json %s", t, gols, path);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert(json_field(tu_slurp(path), "fill_conflicts") == 0 && !strstr(r.out, "fill conf"));
    tu_ccsim(&r, "run -c teach-xbar %s %s --set memory.fill_conflict_ns=400 --json %s", t, gols,
             path);
    ck_assert_msg(r.status == 0, "%s", r.err);
    double refused = json_field(tu_slurp(path), "fill_conflicts");
    ck_assert_msg(refused >= 20 && strstr(r.out, "times memory refused a read during its line's "
                                                 "fill (retried after a random backoff"),
                  "%g\n%s", refused, r.out);
    char *first = strdup(r.out);
    tu_ccsim(&r, "run -c teach-xbar %s %s --set memory.fill_conflict_ns=400 --json %s", t, gols,
             path);
    char *wall = strstr(first, "simulation:"), *wall2 = strstr(r.out, "simulation:");
    ck_assert(wall && wall2);
    *wall = *wall2 = 0; /* the wall time differs */
    ck_assert_str_eq(first, r.out);
    tu_ccsim(&r, "run -c teach-xbar %s %s --set memory.fill_conflict_ns=400 --seed 7", t, gols);
    ck_assert_msg(r.status == 0 && strncmp(first, r.out, strlen(first)) != 0, "%s", r.out);
    free(first);
}
END_TEST

/* A store that waits for a free way in a full set, then asks the home,
 * is a miss like any other: 100 stores to 100 lines through a 1 KB
 * 2-way cache (16 lines) are 100 misses an iteration, and every line
 * that leaves the full cache dirty is written back. */
START_TEST(test_miss_after_full_set)
{
    const char *trace = tu_write("full.trace", "ccsim-trace 1\nthreads 1\nline a 100\n"
                                               "for it 0..1 {\n  all: sync\n"
                                               "  for j 0..99 {\n    all: write a[j] 1\n  }\n"
                                               "  all: mark done\n}\n");
    tu_ccsim(&r, "run -c teach-xbar %s --set l1.size_kb=1 --set l1.ways=2", trace);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "stores 200  atomics 0  misses 200 "), "%s", r.out);
    ck_assert_msg(strstr(r.out, "writebacks 184"), "%s", r.out);
}
END_TEST

/* Two threads of one cache (Clovertown's pairs of cores share an L2)
 * read a line at once: one asks the home, the other waits for that
 * transaction; both missed (DESIGN's misses: "also when it first waited
 * for its line's transaction"). */
START_TEST(test_miss_waiting_for_sibling)
{
    const char *trace =
        tu_write("sib.trace", "ccsim-trace 1\nthreads 2\npin 0 1\nline x\nall: read x\n");
    tu_ccsim(&r, "run -c clovertown %s", trace);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "loads 2  stores 0  atomics 0  misses 2 "), "%s", r.out);
}
END_TEST

/* A steal is a poll that took the line from its writer: a poll served by
 * another poller that holds the line E after its own read from memory
 * took nothing from a writer (Sandy Bridge, the flag in memory, two
 * pollers, one writer that writes it after they asked). */
START_TEST(test_steal_needs_a_writer)
{
    const char *trace = tu_write(
        "wr.trace", "ccsim-trace 1\nthreads 3\nline flag\nline data 2\nfor it 0..1 {\n"
                    "  all: sync\n  all: evict flag\n  all: evict data[0]\n  all: evict data[1]\n"
                    "  0: write data[0] it+5\n  0: write flag it+1\n  1..2: wait flag >= it+1\n"
                    "  1..2: read data[0]\n  all: mark done\n}\n");
    tu_ccsim(&r, "run -c snb-e5-2660 %s", trace);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "poll_refetches 4  steals 0 "), "%s", r.out);
}
END_TEST

/* The resets that open an iteration run in the trace's order, whichever
 * thread runs them: `all: evict x` and then `0: prime x M` leave x in core
 * 0's cache (thread 1's evict ran after thread 0's prime before), so the
 * read hits. */
START_TEST(test_resets_in_trace_order)
{
    const char *trace =
        tu_write("ep.trace", "ccsim-trace 1\nthreads 2\nline x\nfor it 0..1 {\n  all: sync\n"
                             "  all: evict x\n  0: prime x M\n  0: read x\n  all: mark m\n}\n");
    tu_ccsim(&r, "run -c teach-xbar %s", trace);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "loads 2  stores 0  atomics 0  misses 0 "), "%s", r.out);
}
END_TEST

/* A core's stores become visible in program order (x86's TSO): the
 * poller of a copy's last line then reads every line above it written, on
 * Sandy Bridge's 10 misses in flight too. Here the copy's first source
 * line is in the other socket's memory and the rest in the copier's cache:
 * when a store was performed as its load came in, lines 1-7 were written
 * first and the poller, seeing line 7, read its own stale line 0. The
 * stores that wait have their lines fetched ahead (store fetches), which
 * the KNC's one miss at a time never needs. */
START_TEST(test_copy_stores_in_order)
{
    const char *trace = tu_write(
        "tso.trace", "ccsim-trace 1\nthreads 2\npin 0 1\nline s 8 home=1\nline d 8\n"
                     "for it 0..3 {\n  all: sync\n  for i 0..7 {\n    0: write s[i] it*8+i+1\n"
                     "  }\n  all: sync\n  0: evict s[0]\n  for i 0..7 {\n    1: prime d[i] M\n"
                     "  }\n  0: copy s[0] d[0] 8\n  1: wait d[7] == it*8+8\n  for i 0..7 {\n"
                     "    1: expect d[i] == it*8+i+1\n  }\n  all: mark m\n}\n");
    tu_ccsim(&r, "run -c snb-e5-2660 %s", trace);
    ck_assert_msg(r.status == 0 && strstr(r.out, "value errors 0") &&
                      strstr(r.out, "store fetches: "),
                  "%s%s", r.out, r.err);
    tu_ccsim(&r, "run -c snb-e5-2660 -w pingpong:lines=8 -t 2 -i 4");
    ck_assert_msg(r.status == 0 && strstr(r.out, "value errors 0"), "%s%s", r.out, r.err);
    tu_ccsim(&r, "run -c knc-5110p -w pingpong:lines=8 -t 2 -i 4 --json -");
    ck_assert_msg(r.status == 0 && strstr(r.out, "\"store_prefetches\": 0,"), "%s%s", r.out, r.err);
}
END_TEST

/* Home queueing is the wait for the messages before it, not the wait for
 * the home's clock edge: one thread's misses on the KNC (whose messages
 * arrive off the edges, with its 1 ns jitter) queue for nothing. */
START_TEST(test_home_queue_no_edge_wait)
{
    const char *one = tu_write("one.trace", "ccsim-trace 1\nthreads 1\nline a\nfor it 0..9 {\n"
                                            "  all: sync\n  all: evict a\n  all: read a\n"
                                            "  all: mark d\n}\n");
    tu_ccsim(&r, "run -c knc-5110p %s", one);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "home queueing 0.0 ns"), "%s", r.out);
}
END_TEST

/* Per-thread latency in every JSON; every iteration's with --per-iteration. */
START_TEST(test_per_thread_and_iteration_latency)
{
    const char *json = tu_write("pt.json", "");
    tu_ccsim(&r, "run -c teach-xbar %s --json %s", LAB1, json);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *text = tu_slurp(json);
    ck_assert_msg(strstr(text, "\"thread_latency_ns\": [") &&
                      strstr(text, "{\"thread\": 0, \"iterations\": 100, \"min\": 1596.000, "
                                   "\"median\": 1596.000, \"max\": 1596.000") &&
                      strstr(text, "{\"thread\": 1, \"iterations\": 100, \"min\": 1635.000"),
                  "%s", text);
    ck_assert(strstr(text, "per_iteration_ns") == NULL);
    tu_ccsim(&r, "run -c teach-xbar %s --json %s --per-iteration", LAB1, json);
    ck_assert_msg(r.status == 0, "%s", r.err);
    text = tu_slurp(json);
    const char *all = strstr(text, "\n \"per_iteration_ns\": [");
    ck_assert_msg(all != NULL, "%s", text);
    int n = 1;
    for (const char *p = all; *p != ']'; p++)
        n += *p == ',';
    ck_assert_int_eq(n, 100);
    ck_assert(strstr(text, "\"per_iteration_ns\": [1596.000, 1596.000") != NULL);
    tu_ccsim(&r, "explain -c teach-xbar %s --per-iteration", LAB1);
    ck_assert_int_eq(r.status, 2);
}
END_TEST

/* Lab 3's own-lines-4 printed mean 244.1 with every value 244.15 (min,
 * median and max 244.2): the mean comes from the exact sum now. */
START_TEST(test_mean_within_min_max)
{
    tu_ccsim(&r, "run -c knc-5110p %s", LAB3);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *l = strstr(r.out, "latency over");
    ck_assert(l != NULL);
    double mn = -1, md = -1, mx = -1, mean = -1;
    ck_assert(sscanf(strstr(l, "median"), "median %lf  min %lf  max %lf  mean %lf", &md, &mn, &mx,
                     &mean) == 4);
    ck_assert_msg(mean >= mn && mean <= mx, "%s", l);
}
END_TEST

/* Field k (from 0) of a CSV row without quoted fields, as a number. */
static double csv_field(const char *row, int k)
{
    for (; k > 0 && row; k--) {
        row = strchr(row, ',');
        row = row ? row + 1 : NULL;
    }
    return row ? strtod(row, NULL) : -1;
}

/* The sweep CSV has the queueing columns and every counter of `run`
 * (DESIGN's counters table defines them for both); a point with no mark
 * has empty latency fields, as run's JSON has nulls, never 0. */
START_TEST(test_sweep_queueing_columns)
{
    const char *sweep = tu_write("q.sweep", "sweep = { configs = [\"teach-xbar\"]; workloads = "
                                            "[\"m2o\"]; threads = [4]; iterations = 5; };\n");
    tu_ccsim(&r, "sweep %s -j 1", sweep);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, ",wall_s,atomics,handoffs,home_queue_ns,link_queue_ns,prefetches,"
                                "sw_prefetches,line_busy\n"),
                  "%s", r.out);
    const char *row = strchr(r.out, '\n') + 1;
    int commas = 0;
    for (const char *p = row; *p && *p != '\n'; p++)
        commas += *p == ',';
    ck_assert_int_eq(commas, 29);
    /* home queueing is there and not zero: three readers queue at one home */
    ck_assert_msg(csv_field(row, 25) > 0, "%s", row);
    /* no mark: no latency */
    char nomark[512], json[512];
    snprintf(nomark, sizeof nomark, "%s",
             tu_write("nomark.trace", "ccsim-trace 1\nthreads 1\nline x\nall: sync\n"
                                      "all: write x 1\n"));
    snprintf(json, sizeof json, "%s", tu_write("nomark.json", ""));
    tu_ccsim(&r, "run -c teach-xbar %s --json %s", nomark, json);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(tu_slurp(json), "\"latency_ns\": {\"mean\": null, \"median\": null,"),
                  "%s", tu_slurp(json));
    sweep = tu_write("n.sweep", "sweep = { configs = [\"teach-xbar\"]; workloads = [\"");
    FILE *f = fopen(sweep, "a");
    ck_assert(f != NULL);
    fprintf(f, "%s\"]; threads = [1]; iterations = 1; };\n", nomark);
    fclose(f);
    tu_ccsim(&r, "sweep %s -j 1", sweep);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, ",1,0,1,,,,,,,0,1,"), "%s", r.out); /* a trace: iterations 0 */
}
END_TEST

/* A figure a machine does not have is "-", never nan; every row has a unit. */
START_TEST(test_missing_figures_dash)
{
    tu_ccsim(&r, "microbench -c teach-xbar -i 3");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "nan") == NULL, "%s", r.out);
    ck_assert_msg(
        strstr(r.out, "R_QI other socket's memory (ns)          -   (not on this machine)"), "%s",
        r.out);
}
END_TEST

static Suite *counters_suite(void)
{
    Suite *s = suite_create("counters");
    TCase *tc = tcase_create("counters");
    tcase_add_test(tc, test_lab1_counters);
    tcase_add_test(tc, test_n_writers_refetch_and_retry);
    tcase_add_test(tc, test_line_busy);
    tcase_add_test(tc, test_fill_conflicts);
    tcase_add_test(tc, test_miss_after_full_set);
    tcase_add_test(tc, test_miss_waiting_for_sibling);
    tcase_add_test(tc, test_steal_needs_a_writer);
    tcase_add_test(tc, test_resets_in_trace_order);
    tcase_add_test(tc, test_copy_stores_in_order);
    tcase_add_test(tc, test_home_queue_no_edge_wait);
    tcase_add_test(tc, test_per_thread_and_iteration_latency);
    tcase_add_test(tc, test_mean_within_min_max);
    tcase_add_test(tc, test_sweep_queueing_columns);
    tcase_add_test(tc, test_missing_figures_dash);
    tcase_add_test(tc, test_one_steal_a_fetch);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(counters_suite());
}
