/*
 * test_explain.c -- `ccsim explain` says only what happened: an action that
 * did nothing in this instance says nothing (no broadcast probe on a
 * directory home, no evicting owner that was not evicting), the tables'
 * names with their glosses, the thread and iteration of a request, the
 * words that changed, lines under 120 characters, and the filters (--line
 * NAME[i], --thread, --iteration, --from/--to).
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LAB2 CCSIM_TEST_DIR "/../docs/labs/02-line-stealing/polled.trace"

static struct tu_run r;

/* Whether a line of output continues the step above it (it is indented
 * past the time column). */
static bool continues(const char *p)
{
    return strncmp(p, "             ", 13) == 0;
}

/* The step at `time` (its line and continuation lines) into buf, or NULL. */
static const char *line_at(const char *out, const char *time, char *buf, size_t size)
{
    for (const char *p = out; *p;) {
        const char *eol = strchr(p, '\n');
        const char *t = p + strspn(p, " ");
        if (strncmp(t, time, strlen(time)) == 0 && t - p < 13) {
            while (eol && continues(eol + 1))
                eol = strchr(eol + 1, '\n');
            snprintf(buf, size, "%.*s", eol ? (int)(eol - p) : (int)strlen(p), p);
            return buf;
        }
        if (!eol)
            break;
        p = eol + 1;
    }
    return NULL;
}

/* Lab 2 on teach-xbar, a directory home: no row narrates a probe it did not
 * send; at 117 ns core 0 was not evicting and keeps its copy shared. */
START_TEST(test_explain_says_only_what_happened)
{
    tu_ccsim(&r, "explain -c teach-xbar %s", LAB2);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "probe") == NULL && strstr(r.out, "Probe") == NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "evicting") == NULL, "%s", r.out);
    char buf[2048];
    const char *at117 = line_at(r.out, "117.000", buf, sizeof buf);
    ck_assert_msg(at117 && strstr(at117, "Fwd_Ack_Data from core 0 in MS_F [owner core 0]") &&
                      strstr(at117, "writes the line to memory"),
                  "%s", at117 ? at117 : r.out);
    /* the transaction ends with both cores sharing: core 0 kept its copy */
    const char *at127 = strstr(r.out, "Done in MS_F [owner core 0]: owner core 0 -> none; sharers "
                                      "{} -> {0, 1}; now S");
    ck_assert_msg(at127 != NULL, "%s", r.out);
    /* a broadcast home (no probe filter) does probe, and says so */
    tu_ccsim(&r, "explain -c teach-xbar %s --set home.probe_filter=false --max-lines 20", LAB2);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "sends Probe to cores 1, 2, 3"), "%s", r.out);
    /* a request for a busy line waits in the line's queue; with
     * home.retry_cycles it is refused and comes back, and says so */
    const char *race = tu_write("race.trace", "ccsim-trace 1\nthreads 2\nline x\nall: sync\n"
                                              "0: read x\n1: write x 1\n");
    tu_ccsim(&r, "explain -c teach-xbar %s", race);
    ck_assert_msg(strstr(r.out, "this one waits in the line's queue") && !strstr(r.out, "refused"),
                  "%.2000s", r.out);
    tu_ccsim(&r, "explain -c teach-xbar --set home.retry_cycles=5 %s", race);
    ck_assert_msg(strstr(r.out, "busy with core 0's request: this one is refused;") &&
                      strstr(r.out, "it comes back through the home's input 5.000 ns later "
                                    "(home.retry_cycles)") &&
                      !strstr(r.out, "line's queue"),
                  "%.2000s", r.out);
    /* GOLS memory's answer to a reader that joined a fill: counted in, and
     * the reader's unblock awaited instead (the total stays) */
    tu_ccsim(&r, "explain -c knc-5110p -w o2m -t 4 -i 3");
    ck_assert_msg(strstr(r.out, "Mem_Data in IS_M [sharers {1, 2}]: sends Data_S to core 3;") &&
                      strstr(r.out, "the answer is in, its reader's unblock now awaited: still 3 "
                                    "awaited"),
                  "%.3000s", r.out);
    /* a sharer's write that waits is narrated by its row's event, as when
     * it is served (--rows counts it as an Upgrade) */
    tu_ccsim(&r, "explain -c opteron-6272 %s --max-lines 100000", LAB2);
    ck_assert_msg(strstr(r.out, "Upgrade (GetX from core ") &&
                      strstr(r.out, ") in OO_F [owner core") &&
                      !strstr(r.out, "  GetX from core 0 in OO_F"),
                  "%.3000s", r.out);
}
END_TEST

/* Memory's answer to a reader that joined a read of an uncached line
 * (GOLS share_read_memory) runs no row, but it sends: every Data_S a core
 * gets was narrated as sent (it was not: the log showed data arriving
 * that nobody sent). */
START_TEST(test_explain_memory_supply)
{
    const char *three = tu_write("r3.trace", "ccsim-trace 1\nthreads 3\nline x\nall: sync\n"
                                             "all: read x\nall: mark d\n");
    tu_ccsim(&r, "explain -c teach-xbar %s --set machine.protocol=\"gols\"", three);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(
        strstr(r.out, "Mem_Supply in IS_M [sharers {1, 2}]: sends Data_S to core 1") &&
            strstr(r.out, "Mem_Supply in IS_M [sharers {1, 2}]: sends Data_S to core 2") &&
            strstr(r.out, "Mem_Supply     memory or the LLC answered a reader that joined"),
        "%s", r.out);
}
END_TEST

/* A read memory refused while the line's fill was under way
 * (memory.fill_conflict_ns) is said to be refused, when it comes back, and
 * its retry is a line of its own (Mem_Retry), so nothing reads memory
 * in the log that did not. */
START_TEST(test_explain_fill_conflict)
{
    const char *three = tu_write("r3f.trace", "ccsim-trace 1\nthreads 3\nline x\nall: sync\n"
                                              "all: read x\nall: mark d\n");
    tu_ccsim(&r,
             "explain -c teach-xbar %s --set machine.protocol=\"gols\" "
             "--set memory.fill_conflict_ns=300",
             three);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "memory refuses the read: the line's fill is under way;") &&
                      strstr(r.out, "ns later (memory.fill_conflict_ns)") &&
                      strstr(r.out, "Mem_Retry (for core ") &&
                      strstr(r.out, "Mem_Retry      a read memory refused while the line's fill"),
                  "%s", r.out);
    tu_ccsim(&r, "explain -c teach-xbar %s --set machine.protocol=\"gols\"", three);
    ck_assert_msg(!strstr(r.out, "refuses") && !strstr(r.out, "Mem_Retry"), "%s", r.out);
}
END_TEST

/* Sandy Bridge's LLC is inclusive: a line primed into a core (as after
 * that core read it) is in the LLC too, so a later reader of the shared
 * line is answered from the LLC, not from memory. */
START_TEST(test_explain_llc_fill)
{
    const char *t = tu_write("fc.trace", "ccsim-trace 1\nthreads 3\nline x\nall: sync\n"
                                         "0: prime x E\n1: read x\nall: sync\n2: read x\n"
                                         "all: mark d\n");
    tu_ccsim(&r, "explain -c snb-e5-2660 --line x %s", t);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "reads its LLC") && !strstr(r.out, "reads memory"), "%s", r.out);
}
END_TEST

/* A bounded LLC's full set gives a line up for the one read: narrated with
 * the line it drops, and whether a core still holds it (the LLC does not
 * take copies back: one core holding all 16 ways of its set). */
START_TEST(test_explain_llc_drops_a_line)
{
    const char *t = tu_write("drop.trace", "ccsim-trace 1\nthreads 1\nline a 40\n"
                                           "for i 0..39 {\n  0: read a[i]\n}\n0: mark d\n");
    tu_ccsim(&r,
             "explain --wide -c teach-xbar --set home.llc_cycles=5 --set home.llc_kb=1 %s --check",
             t);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "its LLC's set is full: a[1] leaves it for this line "
                                "(home.llc_kb); a core still holds it"),
                  "%.3000s", r.out);
    /* a 1 KiB L1 of 2 ways keeps 16 lines: the older ones no core holds */
    tu_ccsim(&r,
             "explain --wide -c teach-xbar --set home.llc_cycles=5 --set home.llc_kb=1 --set "
             "l1.size_kb=1 --set l1.ways=2 --from 2974 --max-lines 3 %s",
             t);
    ck_assert_msg(strstr(r.out, "leaves it for this line (home.llc_kb), the least recently used "
                                "one no core holds"),
                  "%.3000s", r.out);
    tu_ccsim(&r, "run -c teach-xbar --set home.llc_cycles=5 --set home.llc_kb=1 %s", t);
    ck_assert_msg(strstr(r.out, "llc: 0 reads served by the homes' LLCs; 8 lines dropped from a "
                                "full set for another (home.llc_kb)\n"),
                  "%.3000s", r.out);
    /* a line written back into the LLC goes to DRAM when the LLC drops it */
    const char *w = tu_write("wdrop.trace", "ccsim-trace 1\nthreads 1\nline a 64\n"
                                            "for i 0..63 {\n  0: write a[i] 1\n}\n0: mark d\n");
    tu_ccsim(&r,
             "explain --wide -c teach-xbar --set home.llc_cycles=5 --set home.llc_kb=1 --set "
             "l1.size_kb=1 --set l1.ways=2 --from 2772 --max-lines 3 %s",
             w);
    ck_assert_msg(strstr(r.out, "a[0] leaves it for this line (home.llc_kb), the least recently "
                                "used one no core holds; the LLC writes a[0]'s written-back data "
                                "to memory;"),
                  "%.3000s", r.out);
    /* a prime into mesif-llc's inclusive LLC may drop a line from a full
     * set: narrated with the prime, outside the timing, not counted */
    const char *p = tu_write("pdrop.trace", "ccsim-trace 1\nthreads 2\nline a 17\n"
                                            "for i 0..16 {\n  0: prime a[i] S\n}\nall: sync\n"
                                            "1: read a[0]\nall: mark m\n");
    const char *llc = "-c teach-xbar --set machine.protocol=mesif-llc --set home.llc_cycles=10 "
                      "--set home.llc_kb=1 --set home.count=1";
    tu_ccsim(&r, "explain --wide %s %s", llc, p);
    ck_assert_msg(strstr(r.out, "a[16]      prime S (a reset, at no cost): core 0 holds the line "
                                "in S; the LLC holds it too; its LLC's set was full: a[0] left it "
                                "(home.llc_kb)\n"),
                  "%.4000s", r.out);
    tu_ccsim(&r, "run %s %s", llc, p);
    ck_assert_msg(strstr(r.out, "; 1 line dropped from a full set"), "%s", r.out); /* the read's */
}
END_TEST

/* A read that waits for its memory controller says so, and how long. */
START_TEST(test_explain_memory_controller_wait)
{
    const char *t = tu_write("bw.trace", "ccsim-trace 1\nthreads 4\nline a 4\nall: sync\n"
                                         "all: read a[t]\nall: mark done\n");
    tu_ccsim(&r, "explain --wide -c teach-xbar --set memory.bandwidth_gbs=1 %s", t);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "home 0   a[3]       GetS from core 3") &&
                      strstr(r.out, "reads memory; its memory controller is busy: the access "
                                    "waits 188.000 ns (memory.bandwidth_gbs: a line at a time)"),
                  "%.3000s", r.out);
    tu_ccsim(&r, "explain -c teach-xbar %s", t);
    ck_assert_msg(!strstr(r.out, "controller is busy"), "%.3000s", r.out);
}
END_TEST

/* A request that waits at a busy home is named by its message: its event
 * is chosen when it is served (the Opteron's PutX, met while its sender's
 * write is being granted, would read as a stale eviction). */
START_TEST(test_explain_waiting_request_named_by_message)
{
    const char *t = tu_write("fl.trace", "ccsim-trace 1\nthreads 2\nline x\nall: sync\n"
                                         "all: prime x S\n0: flush x\nall: mark d\n");
    tu_ccsim(&r, "explain -c opteron-6272 %s", t);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "PutX from core 0 in B_EM") &&
                      strstr(r.out, "PutX_Last (PutX from core 0) in EM") &&
                      !strstr(r.out, "Put_Stale"),
                  "%s", r.out);
}
END_TEST

/* A prefetch is a request no core waits for: explain does not say one does. */
START_TEST(test_explain_prefetch_nobody_waits)
{
    /* a sharer's fetch ahead, to write, is an Upgrade at the home: it reads
     * nothing (it was told as "reads ahead", its GetX unnamed) */
    const char *up = tu_write("up.trace", "ccsim-trace 1\nthreads 2\nline src 4\nline dst 4\n"
                                          "all: read dst[0]\nall: read dst[1]\n"
                                          "0: compute 300\n0: copy src[0] dst[0] 2\n");
    tu_ccsim(&r, "explain -c teach-xbar %s --wide", up);
    ck_assert_msg(r.status == 0 &&
                      strstr(r.out, "Upgrade (GetX from core 0: a store of its core waiting its "
                                    "turn fetches ahead, to write)") &&
                      !strstr(r.out, "turn reads ahead"),
                  "%s", r.out);
    const char *t = tu_write("pf.trace", "ccsim-trace 1\nthreads 1\nline a 16\nline d 16\n"
                                         "0: copy a[0] d[0] 8\n");
    tu_ccsim(&r, "explain -c knc-5110p %s --set core.prefetch_distance=2", t);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "sends GetS to home") &&
                      strstr(r.out, "the prefetch is under way (no load waits for its line)") &&
                      !strstr(r.out, "the request waits for the answer"),
                  "%s", r.out);
    /* with one slot to read the loop stops at its next prefetch and goes on
     * when the slot is free; run counts the stops */
    tu_ccsim(&r,
             "explain -c knc-5110p %s --wide --set core.prefetch_distance=2 --set "
             "core.prefetch_read_slots=1",
             t);
    ck_assert_msg(
        strstr(r.out, "its copy loop stops at the prefetch instruction of a[") &&
            strstr(r.out, "core 0's 1 prefetch slot to read is taken") &&
            strstr(r.out, "a prefetch slot to read of core 0 is free: its copy loop goes on"),
        "%s", r.out);
    tu_ccsim(&r,
             "run -c knc-5110p %s --set core.prefetch_distance=2 --set core.prefetch_read_slots=1",
             t);
    ck_assert_msg(strstr(r.out, "prefetch slots: the loops stopped "), "%s", r.out);
    /* with one slot of each kind a loop that passes the read's instruction
     * may stop at the write's at once: each stop is narrated, each ends, and
     * run counts as many (a stop that became the next one's was told once) */
    const char *slots = "--set core.prefetch_distance=2 --set core.prefetch_read_slots=1 "
                        "--set core.prefetch_write_slots=1";
    tu_ccsim(&r, "explain -c knc-5110p %s --wide %s", t, slots);
    int stops = tu_count(r.out, "loop stops at the prefetch instruction"),
        ends = tu_count(r.out, "loop goes on");
    ck_assert_msg(stops > 1 && stops == ends, "%d stops, %d ends", stops, ends);
    tu_ccsim(&r, "run -c knc-5110p %s %s", t, slots);
    char want[96];
    snprintf(want, sizeof want, "the loops stopped %d times", stops);
    ck_assert_msg(strstr(r.out, want), "%s: %s", want, r.out);
    /* two threads of one core copy the same lines: one may find the line
     * its loop stopped for fetched by the other, and goes on needing no
     * slot (it was told a slot was free); an addline's loop is named so */
    const char *same = tu_write("same.trace", "ccsim-trace 1\nthreads 2\npin 0.0 0.1\nline s 64\n"
                                              "line d 64\nline e 64\n0: copy s[0] d[0] 40\n"
                                              "1: copy s[0] e[0] 40\n");
    tu_ccsim(&r,
             "explain -c knc-5110p %s --wide --set core.prefetch_read_slots=1 --set "
             "core.prefetch_write_slots=2",
             same);
    ck_assert_msg(strstr(r.out, "its prefetch needs no slot, and its copy loop goes on"), "%.2000s",
                  r.out);
    /* hardware threads of one core: each prefetch names its thread's loop
     * (it said "a copy or addline loop's" of both) */
    const char *sib = tu_write("sibpf.trace", "ccsim-trace 1\nthreads 2\npin 0.0 0.1\nline s0 16\n"
                                              "line d0 16\nline s1 16\nline d1 16\nall: sync\n"
                                              "0: copy s0 d0 16\n1: copy s1 d1 16\nall: mark d\n");
    tu_ccsim(&r, "explain -c knc-5110p %s --wide", sib);
    ck_assert_msg(strstr(r.out, "core 0   s1[5]      Load (thread 1's copy or addline loop's "
                                "prefetch instruction reads s1[5] ahead)") &&
                      strstr(r.out, "Load (thread 0's copy or addline loop's prefetch instruction "
                                    "reads s0[5] ahead)"),
                  "%.3000s", r.out);
    const char *add = tu_write("add.trace", "ccsim-trace 1\nthreads 1\nline s 64\nline d 64\n"
                                            "0: addline d[0] s[0] 30\n");
    tu_ccsim(&r, "explain -c knc-5110p %s --wide --set core.prefetch_read_slots=1", add);
    ck_assert_msg(
        strstr(r.out, "its addline loop stops at the prefetch instruction") &&
            strstr(r.out, "(thread 0's copy or addline loop's prefetch instruction reads"),
        "%.2000s", r.out);
}
END_TEST

/* --thread: a home knows caches, not threads; when another thread of the
 * trace shares the thread's cache (a KNC core's hardware threads), the
 * header says its homes' rows are the cache's. */
START_TEST(test_explain_thread_shared_cache)
{
    const char *t = tu_write("smt.trace", "ccsim-trace 1\nthreads 3\npin 0.0 0.1 5\nline f\n"
                                          "all: sync\n0: write f 1\n1..2: wait f >= 1\n"
                                          "all: mark d\n");
    tu_ccsim(&r, "explain -c knc-5110p %s --thread 1", t);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "only thread 1; at the homes, every request of its cache, which "
                                "other threads of the trace share"),
                  "%s", r.out);
    tu_ccsim(&r, "explain -c knc-5110p %s --thread 2", t);
    ck_assert_msg(strstr(r.out, "  only thread 2 (and other threads' resets where they change its "
                                "core's copy)\n"),
                  "%s", r.out);
}
END_TEST

/* An iteration opens once: a second sync in it goes on with it; a sync
 * outside loops says how it is labelled. */
START_TEST(test_explain_iteration_opens_once)
{
    const char *t = tu_write("iter.trace", "ccsim-trace 1\nthreads 2\nline x\nfor it 0..1 {\n"
                                           "  all: sync\n  0: write x it+1\n  all: sync\n"
                                           "  1: read x\n  all: mark d\n}\nall: sync\n"
                                           "1: read x\nall: mark end\n");
    tu_ccsim(&r, "explain -c teach-xbar %s", t);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *o = strstr(r.out, "iteration 0 opens: the sync releases the threads");
    const char *g = strstr(r.out, "iteration 0 goes on: another sync releases the threads");
    ck_assert_msg(o && g && o < g && !strstr(o + 1, "iteration 0 opens"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "opens (a sync outside loops, labelled by its count)"), "%s",
                  r.out);
}
END_TEST

/* --iteration 0 is what runs before the first sync, from the run's start
 * (run measures a mark there as iteration 0): it said "the trace opens no
 * iteration" of a trace with no sync, and skipped a setup before a sync. */
START_TEST(test_explain_iteration_zero_from_start)
{
    const char *t = tu_write("nosync.trace", "ccsim-trace 1\nthreads 2\nline x\n"
                                             "0: write x 1\n1: wait x >= 1\nall: mark d\n");
    tu_ccsim(&r, "explain -c teach-xbar %s --iteration 0", t);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(
        strstr(r.out, "only iteration 0 (as the trace counts it), from the run's start") &&
            strstr(r.out, "Store (thread 0: write x 1) in I") && !strstr(r.out, "no step"),
        "%s", r.out);
    tu_ccsim(&r, "explain -c teach-xbar %s --iteration 1", t);
    ck_assert_msg(strstr(r.out, "no step: the trace opens no iteration (no sync)"), "%s", r.out);
    const char *setup = tu_write("setup.trace", "ccsim-trace 1\nthreads 2\nline x\nline y\n"
                                                "0: write y 5\nall: sync\n0: write x 1\n"
                                                "1: wait x >= 1\nall: mark d\n");
    tu_ccsim(&r, "explain -c teach-xbar %s --iteration 0", setup);
    ck_assert_msg(strstr(r.out, "Store (thread 0: write y 5)") &&
                      !strstr(r.out, "Store (thread 0: write x 1)"),
                  "%s", r.out);
}
END_TEST

/* A request is named by the statement that issued it where the cache's
 * op would mislead: a wait's polls are loads, a cmpxchg is a cas; an
 * addline writes its line (a store, as the counters count it). */
START_TEST(test_explain_statement_names)
{
    const char *t = tu_write("cx.trace", "ccsim-trace 2\nthreads 2\nline z 2\nline f\nall: sync\n"
                                         "0: cmpxchg z 0 4 -> q\n1: addline z[0] z[1] 1\n"
                                         "1: wait f >= 0\nall: mark d\n");
    tu_ccsim(&r, "explain -c teach-xbar %s", t);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "Store (thread 0: cmpxchg z[0] 0 4)") &&
                      strstr(r.out, "Load (thread 1: addline: load z[1])") &&
                      strstr(r.out, "cmpxchg succeeds: z[0] 0 -> 4") &&
                      strstr(r.out, "Load (thread 1: wait f >= 0)") &&
                      strstr(r.out, "Store (thread 1: addline: add into z[0]) in I: sends GetX") &&
                      strstr(r.out, "the store waits for the answer") && !strstr(r.out, "cas ") &&
                      !strstr(r.out, "copy: load"),
                  "%.3000s", r.out);
}
END_TEST

/* The SCC: invmb (a wait's poll runs one before each read) drops the L1
 * copies of MPB lines, and each drop is a line; a flush with no copy says
 * there was none to drop. */
START_TEST(test_explain_scc_drops)
{
    tu_ccsim(&r, "explain -c scc -w scc-barrier -t 3 -i 1 --wide");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "the wait's poll runs invmb in S: drop the L1 copy (MPB lines are "
                                "not kept coherent); now I") &&
                      strstr(r.out, "the core flushes (thread 1, it 0: flush arrive[1]) in I: no "
                                    "L1 copy to drop") &&
                      !strstr(r.out, "in I: drop the L1 copy"),
                  "%.3000s", r.out);
    /* the invalidation that starts a wait is the wait's; the trace's own
     * invmb statements come only after its waits */
    const char *wait = strstr(r.out, "the wait runs invmb before its first read in S: drop"),
               *stmt = strstr(r.out, "the core runs invmb");
    ck_assert_msg(wait && (!stmt || stmt > wait), "%s", r.out);
}
END_TEST

/* The SCC: a sync drains the write-combining buffers into their MPBs at
 * no cost; the drain is narrated with the words it wrote (a later read
 * found m[1] = 1 in the MPB and nothing had said it was written there). */
START_TEST(test_explain_scc_sync_drains)
{
    const char *t = tu_write("drain.trace", "ccsim-trace 1\nthreads 2\nline m 2 mpb=each\n"
                                            "all: sync\n0: write m[1] 1\nall: sync\n"
                                            "1: read m[1]\n1: expect m[1] == 1\nall: mark d\n");
    tu_ccsim(&r, "explain -c scc %s --wide", t);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *core = strstr(r.out, "core 0   m[1]       the sync drains the write-combining "
                                     "buffer: the write-combining buffer's words go into the "
                                     "line's MPB (at no cost)"),
               *tile = strstr(r.out, "tile 0   m[1]       an MPB write (a drained buffer): write "
                                     "the words into the SRAM; the words: m[1] 0 -> 1");
    ck_assert_msg(core && tile && tile > core, "%s", r.out);
    /* --thread 0: its own buffer's write into the tile is its transaction */
    tu_ccsim(&r, "explain -c scc %s --wide --thread 0", t);
    ck_assert_msg(strstr(r.out, "an MPB write (a drained buffer): write the words into the SRAM; "
                                "the words: m[1] 0 -> 1"),
                  "%s", r.out);
}
END_TEST

/* The tables' names, the request's thread and iteration, the words the
 * store changed, and a legend of the names with their glosses. */
START_TEST(test_explain_names_threads_and_words)
{
    tu_ccsim(&r, "explain -c teach-xbar %s --max-lines 80", LAB2);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "core 0   msg        Store (thread 0, it 0: write msg.1 0) in I: "
                                "sends GetX to home 0"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "Store (thread 0, it 0: write msg.2 1) in M: writes msg.2: 0 -> 1"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "Upgrade (GetX from core 0)"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "sends Inv to cores 1, 2, 3"), "%s", r.out);
    ck_assert(strstr(r.out, "names used above") != NULL);
    ck_assert(strstr(r.out, "    IM_D           I to M, waiting for data") != NULL);
    ck_assert(strstr(r.out, "    Fwd_GetS       ") != NULL);
    /* no action names: the tables' message names only */
    ck_assert(strstr(r.out, "send_") == NULL && strstr(r.out, "fwd_gets_to_owner") == NULL);
}
END_TEST

/* The longest line after the header (which names the trace by the path it
 * was given: as long as the checkout's path, not the narration's). */
static int longest_line(const char *out)
{
    int longest = 0;
    const char *body = strchr(out, '\n');
    for (const char *p = body ? body + 1 : out; *p;) {
        const char *eol = strchr(p, '\n');
        int len = eol ? (int)(eol - p) : (int)strlen(p);
        longest = len > longest ? len : longest;
        p = eol ? eol + 1 : p + len;
    }
    return longest;
}

/* Lines stay under 120 characters; --wide puts every gloss inline. */
START_TEST(test_explain_width)
{
    tu_ccsim(&r, "explain -c teach-xbar %s --max-lines 300", LAB2);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_int_le(longest_line(r.out), 120);
    tu_ccsim(&r, "explain -c snb-e5-2660 -w bcast-tree -t 8 -i 2 --max-lines 300");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_int_le(longest_line(r.out), 120);
    /* a step whose one chunk is longer than a line (a store fetched ahead),
     * and an iteration's opening with its start skew: both ran past 120 */
    tu_ccsim(&r, "explain -c snb-e5-2660 -w mpi-shm:bytes=512 -t 2 -i 1 --max-lines 300");
    ck_assert_msg(r.status == 0 &&
                      strstr(r.out, "a store of thread 0 waiting for the stores before it"),
                  "%s", r.err);
    ck_assert_int_le(longest_line(r.out), 120);
    tu_ccsim(&r,
             "explain -c opteron-6272 %s/../workloads/traces/clh-lock.trace --iteration 5 "
             "--max-lines 300",
             CCSIM_CONFIGS);
    ck_assert_msg(r.status == 0 && strstr(r.out, "(a sync outside loops, labelled by its count)"),
                  "%s", r.err);
    ck_assert_int_le(longest_line(r.out), 120);
    /* a name of 63 characters, the longest: continued under the time, not
     * under the prefix it pushed to column 95 (lines of 164) */
    char name[64], text[512];
    memset(name, 'n', 63);
    name[63] = 0;
    snprintf(text, sizeof text,
             "ccsim-trace 1\nthreads 2\nline %s 1000\nall: sync\n0: write %s[999].7 1\n"
             "1: wait %s[999].7 == 1\nall: mark done\n",
             name, name, name);
    tu_ccsim(&r, "explain -c teach-xbar %s", tu_write("longname.trace", text));
    ck_assert_msg(r.status == 0 && strstr(r.out, "\n                nnnnnnnnnn"), "%s", r.out);
    ck_assert_int_le(longest_line(r.out), 120);
    tu_ccsim(&r, "explain -c teach-xbar %s --max-lines 40 --wide", LAB2);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_int_gt(longest_line(r.out), 120);
    ck_assert_msg(strstr(r.out, "now IM_D (I to M, waiting for data)") &&
                      strstr(r.out, "sends GetX (asks to write: for a copy, or for leave to write "
                                    "the one it holds) to home 0"),
                  "%s", r.out);
}
END_TEST

/* --line NAME[i] narrates one element of an array. */
START_TEST(test_explain_line_element)
{
    const char *trace =
        tu_write("arr.trace", "ccsim-trace 1\nthreads 2\nline data 4\n"
                              "for it 0..1 {\n  all: sync\n  0: write data[2] it+1\n"
                              "  1: write data[1] 5\n  1: read data[2]\n}\n");
    tu_ccsim(&r, "explain -c teach-xbar %s --line data[2]", trace);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, " data[2]  ") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, " data[1]  ") == NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "writes data[2]: 0 -> 1"), "%s", r.out);
    tu_ccsim(&r, "explain -c teach-xbar %s --line data", trace);
    ck_assert(strstr(r.out, " data[1]  ") != NULL && strstr(r.out, " data[2]  ") != NULL);
    tu_ccsim(&r, "explain -c teach-xbar %s --line data[4]", trace);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--line data[4]: 'data' has 4 lines (0..3)"), "%s", r.err);
    tu_ccsim(&r, "explain -c teach-xbar %s --line data[x]", trace);
    ck_assert_int_eq(r.status, 2);
}
END_TEST

/* --thread T: its own requests and its core's transactions; --iteration K
 * as the trace counts it; --from/--to a window of time. */
START_TEST(test_explain_thread_iteration_time)
{
    tu_ccsim(&r, "explain -c teach-xbar %s --thread 2 --max-lines 60", LAB2);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert(strstr(r.out, "core 2   msg") != NULL);
    ck_assert_msg(strstr(r.out, "core 1   msg") == NULL && strstr(r.out, "thread 1,") == NULL, "%s",
                  r.out);
    ck_assert(strstr(r.out, "GetS from core 2") != NULL);
    ck_assert(strstr(r.out, "GetS from core 1") == NULL);
    tu_ccsim(&r, "explain -c teach-xbar %s --iteration 3", LAB2);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert(strstr(r.out, "it 3:") != NULL);
    ck_assert(strstr(r.out, "it 2:") == NULL && strstr(r.out, "it 4:") == NULL);
    tu_ccsim(&r, "explain -c teach-xbar %s --iteration 500", LAB2);
    ck_assert_msg(strstr(r.out, "iteration 500 never opened (the run's iterations: 0 .. 199)"),
                  "%s", r.out);
    /* a loop may count below 0: its iterations are asked for by their values */
    const char *neg = tu_write("neg.trace", "ccsim-trace 1\nthreads 2\nline x\nfor it -3..-1 {\n"
                                            "  all: sync\n  0: write x 5\n  1: read x\n"
                                            "  all: mark d\n}\n");
    tu_ccsim(&r, "explain -c teach-xbar %s --iteration -2", neg);
    ck_assert_msg(r.status == 0 && strstr(r.out, "iteration -2 opens") && strstr(r.out, "it -2:") &&
                      !strstr(r.out, "it -3:") && !strstr(r.out, "it -1:"),
                  "%s%s", r.out, r.err);
    tu_ccsim(&r, "explain -c teach-xbar %s --iteration -9223372036854775809", neg);
    ck_assert_msg(r.status == 2 && strstr(r.err, "'-9223372036854775809' is out of range"), "%s",
                  r.err); /* the value as given, with its sign */
    /* mcs-lock: its loop's syncs are 0..3, the one after the loop its count, 5: no 4 */
    tu_ccsim(&r, "explain -c teach-xbar %s/../workloads/traces/mcs-lock.trace --iteration 4",
             CCSIM_CONFIGS);
    ck_assert_msg(
        strstr(r.out, "iteration 4 never opened (the run's are labelled 0 to 5 with gaps"), "%s",
        r.out);
    tu_ccsim(&r, "explain -c teach-xbar %s --from 100 --to 130", LAB2);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert(strstr(r.out, "  102.000  core 0") != NULL && strstr(r.out, "  127.000  home 0"));
    ck_assert(strstr(r.out, "   90.000  ") == NULL && strstr(r.out, "  175.000  ") == NULL);
    tu_ccsim(&r, "explain -c teach-xbar %s --from 200 --to 100", LAB2);
    ck_assert_int_eq(r.status, 2);
    tu_ccsim(&r, "explain -c teach-xbar %s --thread 9", LAB2);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "the trace has 4 threads"), "%s", r.err);
}
END_TEST

/* An iteration's opening and its resets are narrated, with the copies a
 * reset drops (the inclusive LLC's too): without them a copy would vanish
 * between two steps; a reset that moves nothing says so. */
START_TEST(test_explain_resets)
{
    /* the owner's write-back on the reader's fetch went into the LLC, not to
     * memory: the evict puts it in memory (it said "memory is up to date") */
    tu_ccsim(&r, "explain --wide -c snb-e5-2660 -w m2o -t 2 -i 3 --iteration 1");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "iteration 1 opens: the sync releases the threads (each leaves "
                                "after its start skew, 0 to 10.000 ns)") &&
                      strstr(r.out,
                             "thread 0 flag       evict (a reset, at no cost): the LLC's "
                             "copy holds a write-back memory has not got: it goes back to "
                             "memory, and the copies are dropped; core 0's copy (F) "
                             "dropped; core 1's copy (S) dropped; the LLC's copy dropped\n") &&
                      strstr(r.out, "thread 1 flag       evict (a reset, at no cost): the line "
                                    "is in memory already: no cache held it") &&
                      strstr(r.out, "writes the line into its LLC: flag") &&
                      !strstr(r.out, "the modified line goes back to memory"),
                  "%.4000s", r.out);
    /* a modified copy's line does go back (it said so of clean ones too) */
    const char *dirty = tu_write("dirty.trace", "ccsim-trace 1\nthreads 1\nline x\n"
                                                "0: prime x M\n0: evict x\n");
    tu_ccsim(&r, "explain -c teach-xbar %s", dirty);
    ck_assert_msg(r.status == 0 &&
                      strstr(r.out, "evict (a reset, at no cost): the modified line "
                                    "goes back to memory;\n") &&
                      strstr(r.out, "core 0's copy (M) dropped"),
                  "%s%s", r.out, r.err);
    tu_ccsim(&r, "explain -c snb-e5-2660 -w pingpong -t 2 -i 3 --iteration 1 --line recv0 "
                 "--set variability.start_skew_ns=0");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "iteration 1 opens: the sync releases the threads\n") &&
                      strstr(r.out, "thread 0 recv0      prime M (a reset, at no cost): core 0 "
                                    "holds the line in M; core 1's copy (S) dropped") &&
                      !strstr(r.out, "send0"),
                  "%s", r.out);
    /* a prime over another core's modified copy puts its data in memory
     * first, as an evict does (the next reads see it) */
    const char *t = tu_write("primeE.trace", "ccsim-trace 1\nthreads 3\nline x\nall: sync\n"
                                             "0: write x 8\nall: sync\n1: prime x E\n"
                                             "2: read x\n2: expect x == 8\nall: mark d\n");
    tu_ccsim(&r, "explain -c knc-5110p %s", t);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "core 1 holds the line in E;") &&
                      strstr(r.out, "the modified copy went back to memory first; core 0's copy "
                                    "(M) dropped"),
                  "%s", r.out);
}
END_TEST

/* A prime into a full set displaces its LRU line at no cost: narrated as a
 * reset of that line (it said nothing: a modified copy vanished, memory
 * changed), also under --line naming the displaced line alone. */
START_TEST(test_explain_prime_displaces)
{
    const char *t = tu_write("displace.trace", "ccsim-trace 1\nthreads 2\nline a 24\n"
                                               "0: write a[0] 7\nall: sync\n"
                                               "for k 1..23 {\n  0: prime a[k] M\n}\n"
                                               "1: read a[0]\n1: expect a[0] == 7\nall: mark d\n");
    tu_ccsim(&r, "explain -c teach-xbar %s --set l1.size_kb=1 --set l1.ways=2 --line a[0]", t);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "thread 0 a[0]       displaced (a reset, at no cost): the prime of "
                                "a[16] takes its way of a full set in\n") &&
                      strstr(r.out, "core 0's cache: the modified line goes back to memory; core "
                                    "0's copy (M) dropped\n"),
                  "%s", r.out);
    tu_ccsim(&r, "explain -c teach-xbar %s --set l1.size_kb=1 --set l1.ways=2 --wide", t);
    ck_assert_msg(strstr(r.out, "thread 0 a[1]       displaced (a reset, at no cost): the prime "
                                "of a[17] takes its way"),
                  "%s", r.out);
    /* the set had room: nothing displaced */
    tu_ccsim(&r, "explain -c teach-xbar %s", t);
    ck_assert_msg(r.status == 0 && !strstr(r.out, "displaced"), "%s", r.out);
    /* shared caches: "in cache 0" (it said "cache 0's cache") */
    tu_ccsim(&r,
             "explain -c clovertown %s --set l1.size_kb=1 --set l1.ways=2 --set l2.size_kb=1 "
             "--set l2.ways=2 --wide",
             t);
    ck_assert_msg(strstr(r.out, "takes its way of a full set in cache 0: ") &&
                      !strstr(r.out, "cache 0's cache"),
                  "%s", r.out);
    /* the SCC keeps no copies coherent: a prime touches its own core's copy
     * alone (another's M copy stays, nothing goes back), and a displaced
     * clean copy writes nothing (both said "went back to memory") */
    const char *scc = tu_write("sccdisp.trace", "ccsim-trace 1\nthreads 2\nline a 64\n"
                                                "1: write a[0] 7\n1: prime a[0] M\n"
                                                "0: prime a[0] S\nall: sync\n"
                                                "for k 1..63 {\n  0: prime a[k] S\n}\n"
                                                "all: mark d\n");
    tu_ccsim(&r, "explain -c scc %s --set l2.size_kb=1 --set l1.size_kb=1 --wide", scc);
    ck_assert_msg(r.status == 0 && !strstr(r.out, "went back to memory") &&
                      !strstr(r.out, "goes back to memory") &&
                      strstr(r.out, "prime S (a reset, at no cost once the line was quiet: waited "
                                    "82.544 ns): core 0 holds the line in S; core 1's copy (M) "
                                    "stays\n") &&
                      strstr(r.out, "the prime of a[8] takes its way of a full set in core 0's "
                                    "cache: the copy was clean: nothing goes back; core 0's copy "
                                    "(S) dropped; core 1's copy (M) stays\n"),
                  "%s", r.out);
}
END_TEST

/* --thread T: another thread's reset that drops T's copy is narrated (T's
 * copy went from S to I with no step). */
START_TEST(test_explain_thread_sees_resets_of_its_copy)
{
    tu_ccsim(&r, "explain -c teach-xbar -w o2m:lines=diff -t 3 -i 2 --thread 1");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "only thread 1 (and other threads' resets where they change its "
                                "core's copy)\n") &&
                      strstr(r.out, "thread 0 flag[0]    evict (a reset, at no cost): memory is up "
                                    "to date: the copies are dropped;\n") &&
                      !strstr(r.out, "thread 0 flag[1]"),
                  "%s", r.out);
}
END_TEST

/* A prime in the middle of an iteration whose set's every way has a
 * transaction under way waits for a way, as a miss does (it ended the run
 * with an internal error, exit 4), and explain says what it waited for. */
START_TEST(test_explain_prime_waits_for_a_way)
{
    const char *t = tu_write("noway.trace", "ccsim-trace 1\nthreads 3\nline big 17 home=0\n"
                                            "all: sync\n0: read big[0]\n0: read big[8]\n"
                                            "all: sync\n1: write big[0] 1\n2: write big[8] 1\n"
                                            "0: compute 12\n0: prime big[16] M\n"
                                            "0: expect big[16] == 0\nall: mark m\n");
    tu_ccsim(&r, "run -c teach-xbar --set l1.size_kb=1 --set l1.ways=2 %s", t);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    tu_ccsim(&r, "run -c teach-xbar --set l1.size_kb=1 --set l1.ways=2 %s --max-time 185", t);
    ck_assert_msg(strstr(r.err, "in prime big[16]: waits for a way in its core's cache (its set's "
                                "lines busy)"),
                  "%s", r.err);
    tu_ccsim(&r, "explain -c teach-xbar --set l1.size_kb=1 --set l1.ways=2 %s --wide", t);
    ck_assert_msg(r.status == 0 && strstr(r.out, "prime M (a reset, at no cost once the line was "
                                                 "quiet and its cache had a way for it: waited "
                                                 "15.000 ns)"),
                  "%s%s", r.out, r.err);
}
END_TEST

/* A capacity eviction says whose request waits for the way it frees (it
 * said only "Replace", and that request's wait was unsaid); a prefetch's
 * is named as the prefetch. */
START_TEST(test_explain_replace_names_its_request)
{
    const char *t = tu_write("repl.trace", "ccsim-trace 1\nthreads 1\nline big 17 home=0\n"
                                           "0: read big[0]\n0: read big[8]\n0: read big[16]\n");
    tu_ccsim(&r, "explain -c teach-xbar --set l1.size_kb=1 --set l1.ways=2 %s --wide", t);
    ck_assert_msg(r.status == 0 && strstr(r.out, "core 0   big[0]     Replace (to free a way of "
                                                 "this full set; waiting for one: thread 0: read "
                                                 "big[16]) in E"),
                  "%s%s", r.out, r.err);
    /* a prefetch's wait: named as the prefetch, not as a read or a write of 0 */
    const char *pf = tu_write("pfrepl.trace", "ccsim-trace 1\nthreads 1\nline a 16 home=0\n"
                                              "line b 16 home=0\n0: copy a[0] b[0] 16\n");
    tu_ccsim(&r,
             "explain -c teach-xbar --set core.prefetch_distance=2 --set l1.size_kb=1 --set "
             "l1.ways=2 %s --wide",
             pf);
    ck_assert_msg(r.status == 0 &&
                      strstr(r.out, "waiting for one: thread 0's copy or addline "
                                    "loop's prefetch of ") &&
                      !strstr(r.out, "waiting for one: read") &&
                      !strstr(r.out, "waiting for one: write"),
                  "%s%s", r.out, r.err);
}
END_TEST

/* --thread T on a cache T shares with another thread shows that thread's
 * store on the shared copy (T's copy went from E 0 to M 7 unsaid). */
START_TEST(test_explain_thread_sees_sibling_store)
{
    const char *t = tu_write("sib.trace", "ccsim-trace 1\nthreads 2\npin 0 1\nline x home=0\n"
                                          "all: sync\n1: read x\nall: sync\n0: write x 5\n"
                                          "0: add x 2\nall: sync\n1: read x\nall: mark m\n");
    tu_ccsim(&r, "explain -c milan-7763 %s --thread 1", t);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(
        strstr(r.out, "Store (thread 0: write x 5) in E: writes x: 0 -> 5 (a hit); now M") &&
            strstr(r.out, "adds 2: x 5 -> 7"),
        "%s", r.out);
    /* a sibling's hit that changes nothing stays out */
    tu_ccsim(&r, "explain -c milan-7763 %s --thread 0", t);
    ck_assert_msg(strstr(r.out, "Load (thread 1: read x) in I") &&
                      !strstr(r.out, "Load (thread 1: read x) in M"),
                  "%s", r.out);
}
END_TEST

/* A GOLS write of a shared line: the writer counts the invalidated
 * sharers' acks, and says whether the data or the grant gave the count. */
START_TEST(test_explain_writer_acks)
{
    const char *body = "ccsim-trace 1\nthreads 4\nline x\nall: sync\n0: write x 1\nall: sync\n"
                       "1: read x\n2: read x\nall: sync\n%d: write x 2\n";
    char text[256];
    snprintf(text, sizeof text, body, 3); /* a non-holder: a sharer supplies the line */
    tu_ccsim(&r, "explain -c teach-xbar --set 'machine.protocol=\"gols\"' %s",
             tu_write("miss.trace", text));
    ck_assert_msg(r.status == 0, "%s", r.err);
    /* on the crossbar the acks (two hops from the home) come before the
     * supplier's data (two hops too, and a read of the line) */
    ck_assert_msg(
        strstr(r.out, "sends Inv_R to cores 1, 2") &&
            strstr(r.out, "counts the ack (2 in, before the data or grant says how many)") &&
            strstr(r.out, "the data says to await 2 invalidation acks: all are in") &&
            !strstr(r.out, "the grant says"),
        "%.2000s", r.out);
    snprintf(text, sizeof text, body, 1); /* a sharer: granted */
    tu_ccsim(&r, "explain -c teach-xbar --set 'machine.protocol=\"gols\"' %s",
             tu_write("upgrade.trace", text));
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "Grant_A (Grant from home 0) in SM_D") &&
                      strstr(r.out, "the grant says to await 2 invalidation acks (0 in)") &&
                      strstr(r.out, "Last_Ack (Inv_Ack from core") &&
                      !strstr(r.out, "the data says"),
                  "%.2000s", r.out);
}
END_TEST

static Suite *explain_suite(void)
{
    Suite *s = suite_create("explain");
    TCase *tc = tcase_create("explain");
    tcase_add_test(tc, test_explain_says_only_what_happened);
    tcase_add_test(tc, test_explain_memory_supply);
    tcase_add_test(tc, test_explain_fill_conflict);
    tcase_add_test(tc, test_explain_llc_fill);
    tcase_add_test(tc, test_explain_llc_drops_a_line);
    tcase_add_test(tc, test_explain_memory_controller_wait);
    tcase_add_test(tc, test_explain_iteration_opens_once);
    tcase_add_test(tc, test_explain_iteration_zero_from_start);
    tcase_add_test(tc, test_explain_thread_shared_cache);
    tcase_add_test(tc, test_explain_prefetch_nobody_waits);
    tcase_add_test(tc, test_explain_waiting_request_named_by_message);
    tcase_add_test(tc, test_explain_scc_drops);
    tcase_add_test(tc, test_explain_scc_sync_drains);
    tcase_add_test(tc, test_explain_statement_names);
    tcase_add_test(tc, test_explain_names_threads_and_words);
    tcase_add_test(tc, test_explain_width);
    tcase_add_test(tc, test_explain_line_element);
    tcase_add_test(tc, test_explain_thread_iteration_time);
    tcase_add_test(tc, test_explain_resets);
    tcase_add_test(tc, test_explain_prime_displaces);
    tcase_add_test(tc, test_explain_thread_sees_resets_of_its_copy);
    tcase_add_test(tc, test_explain_writer_acks);
    tcase_add_test(tc, test_explain_prime_waits_for_a_way);
    tcase_add_test(tc, test_explain_replace_names_its_request);
    tcase_add_test(tc, test_explain_thread_sees_sibling_store);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(explain_suite());
}
