/*
 * test_gen.c -- the built-in generators (workloads/gen/): every generator
 * (but those listed in `elsewhere`) and variant at 2, 5 and 16 threads parses, prints back to an
 * equal program, and runs 20 iterations on the teaching machine (16 cores) with the checker on and
 * no value error, under every protocol; bad specs give
 * "-w SPEC: ..." messages; the pin line packs one socket first; generation
 * is deterministic.
 */
#include "machine.h"
#include "core.h"
#include "gen.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ITERS 20

/* Runs trace text on teach-xbar with the given --set overrides. */
static void run_text(const char *text, const char *const *sets, size_t nsets,
                     struct core_result *res, struct sim_diag *d)
{
    struct machine_cfg m;
    tu_load_config("teach-xbar", sets, nsets, &m);
    tu_run_text(&m, "gen.trace", text, res, d);
}

/* parse -> print -> parse gives an equal program. */
static void check_round_trip(const char *text, int line_bytes, const char *what)
{
    struct wl_parse_opts po = {line_bytes, 0, 0};
    wl_program_free(tu_round_trip(text, &po, what));
}

/* ---------------------------------------------------------------- the matrix */

/* The matrix's protocols; the sanitizer pass (tu_small_scale) runs the
 * first two, the richest tables (every action of mesi's and mesif's is in
 * them or in the other suites the pass runs). */
static const char *const protocols[] = {"gols", "moesi", "mesi", "mesif"};
static const int counts[] = {2, 5, 16};

struct variant {
    const char *spec; /* "parents" means a parents: shape built for the count */
    int sockets;      /* of the machine description (16 cores) */
    const char *refuse[SIM_COUNT_OF(counts)]; /* expected message per count, or NULL */
};

static const struct variant variants[] = {
    {"pingpong",
     1,
     {NULL, "pingpong needs exactly 2 threads, not 5 (-t 2)",
      "pingpong needs exactly 2 threads, not 16 (-t 2)"}},
    {"pingpong:lines=6", 1, {NULL, "needs exactly 2 threads", "needs exactly 2 threads"}},
    {"mpi-shm:bytes=4096,chunk=1024,buffers=2",
     1,
     {NULL, "needs exactly 2 threads", "needs exactly 2 threads"}},
    {"mpi-shm:bytes=8192,chunk=2048,reuse=alternate,recv=cold,send=cold,flush=sender",
     1,
     {NULL, "needs exactly 2 threads", "needs exactly 2 threads"}},
    {"m2o", 1, {NULL}},
    {"m2o:lines=diff", 1, {NULL}},
    {"o2m:lines=same", 1, {NULL}},
    {"o2m:lines=diff", 1, {NULL}},
    {"m2o-tree", 1, {NULL}},
    {"m2o-tree:k=2", 1, {NULL}},
    {"o2m-tree", 1, {NULL}},
    {"o2m-tree:k=1", 1, {NULL}},
    {"barrier-dissemination", 1, {NULL}},
    {"barrier-dissemination:m=2", 1, {NULL}},
    {"barrier-dissemination:m=3", 1, {NULL}},
    {"barrier-dissemination:m=7", 1, {NULL}},
    {"barrier-multim", 1, {NULL}},
    {"barrier-multim:m=2/1",
     1,
     {"m=2/1 reaches the 2 threads after 1 round (3 threads): drop the 1 round after it", NULL,
      "m=2/1 reaches 6 threads, fewer than 16 (the (m_i+1) must multiply to at least the "
      "thread count)"}},
    {"barrier-multim:m=3/3/1",
     1,
     {"reaches the 2 threads after 1 round", "reaches the 5 threads after 2 rounds (16 threads)",
      "m=3/3/1 reaches the 16 threads after 2 rounds (16 threads): drop the 1 round after it"}},
    {"barrier-multim:m=1/3/1", 1, {"after 1 round", "after 2 rounds", NULL}},
    {"barrier-pairwise", 1, {NULL}},
    {"barrier-pairwise", 2, {NULL}},
    {"barrier-pairwise:m=2", 4, {NULL}},
    {"barrier-socketroot", 1, {NULL}},
    {"barrier-socketroot", 2, {NULL}},
    {"barrier-socketroot:m=3", 4, {NULL}},
    {"bcast-tree", 1, {NULL}},
    {"bcast-tree:shape=binary", 1, {NULL}},
    {"bcast-tree:shape=binomial", 1, {NULL}},
    {"bcast-tree:shape=kary:3", 1, {NULL}},
    {"bcast-tree:shape=parents", 1, {NULL}},
    {"bcast-multiline:lines=8", 1, {NULL}},
    {"bcast-multiline:lines=3,shape=binomial", 1, {NULL}},
    {"bcast-multiline:shape=parents,lines=2", 1, {NULL}},
    {"reduce-tree", 1, {NULL}},
    {"reduce-tree:shape=flat", 1, {NULL}},
    {"reduce-tree:shape=kary:4", 1, {NULL}},
    {"reduce-tree:shape=parents", 1, {NULL}},
    {"reduce-binomial:lines=1", 1, {NULL}},
    {"reduce-binomial:lines=8", 1, {NULL}},
    {"reduce-binomial:lines=4", 2, {NULL}},
    {"reduce-binomial:lines=2", 4, {NULL}},
    /* seed 002 and 003 (tests/test_gen_seeds.c has their own suite) */
    {"barrier-central", 1, {NULL}},
    {"barrier-linear", 1, {NULL}},
    {"barrier-combining", 1, {NULL}},
    {"barrier-combining:group=4", 1, {NULL}},
    {"barrier-butterfly", 1, {NULL, "barrier-butterfly needs a power-of-two thread count", NULL}},
    {"barrier-extbutterfly", 1, {NULL}},
    {"reduce-linear:values=3", 1, {NULL}},
    {"reduce-extbutterfly:values=7", 1, {NULL}},
    {"reduce-extbutterfly-separate:values=7", 1, {NULL}},
    {"reduce-flat:sync=loose,count=3", 1, {NULL}},
    {"reduce-radix:radix=3,elements=12,count=2", 1, {NULL}},
    {"barrier-radix:radix=4", 1, {NULL}},
};

/* Generators whose runs are meant to fail a check at some thread counts:
 * tests/test_gen_seeds.c covers them. */
/* tested elsewhere: reduce-dissemination (test_gen_seeds.c: wrong on
 * purpose), the SCC's collectives (test_seed004.c: they need MPBs) */
static const char *const elsewhere[] = {"reduce-dissemination", "scc-barrier",   "scc-bcast",
                                        "scc-reduce",           "scc-allgather", "scc-alltoall",
                                        "scc-reducescatter",    "scc-allreduce"};

/* The spec of a variant for n threads: "parents" becomes a tree rooted at
 * thread n-1 (threads 0 and 1 its children, thread i >= 2 a child of
 * i/2-1). */
static void variant_spec(const char *spec, int n, char *out, size_t size)
{
    const char *at = strstr(spec, "parents");
    if (!at) {
        snprintf(out, size, "%s", spec);
        return;
    }
    size_t len = (size_t)snprintf(out, size, "%.*sparents:", (int)(at - spec), spec);
    for (int i = 0; i < n; i++) {
        int p = i == n - 1 ? -1 : i < 2 ? n - 1 : i / 2 - 1;
        len += (size_t)snprintf(out + len, size - len, "%s%d", i ? "/" : "", p);
    }
    snprintf(out + len, size - len, "%s", at + strlen("parents"));
}

static void run_generated(const char *text, const char *const *sets, size_t nsets, const char *what)
{
    struct core_result res;
    struct sim_diag d;
    run_text(text, sets, nsets, &res, &d);
    ck_assert_msg(!res.deadlock && !res.input_error, "%s: %s", what, d.text);
    ck_assert_msg(res.value_errors == 0, "%s: %llu value errors", what,
                  (unsigned long long)res.value_errors);
    ck_assert_msg(res.coherence_violations == 0, "%s: coherence violations", what);
    ck_assert_msg(res.iterations == ITERS, "%s: %llu iterations measured", what,
                  (unsigned long long)res.iterations);
    core_result_free(&res);
}

/* One variant at one thread count under one protocol. */
static void matrix_case(const struct variant *v, int ci, const char *protocol)
{
    int n = counts[ci];
    char spec[512], what[700];
    variant_spec(v->spec, n, spec, sizeof spec);
    snprintf(what, sizeof what, "%s -t %d (%d sockets) on %s", spec, n, v->sockets, protocol);
    struct gen_machine m = {16, v->sockets, 1, 64, 8, 0};
    struct sim_diag d;
    sim_diag_init(&d);
    char *text = gen_trace(spec, n, ITERS, &m, &d);
    if (v->refuse[ci]) {
        ck_assert_msg(text == NULL, "%s: not refused", what);
        ck_assert_msg(strstr(d.text, v->refuse[ci]) != NULL, "%s: %s", what, d.text);
        ck_assert_msg(!strncmp(d.text, "-w ", 3), "%s: %s", what, d.text);
        return;
    }
    ck_assert_msg(text != NULL, "%s: %s", what, d.text);
    check_round_trip(text, 64, what);
    char proto[64];
    snprintf(proto, sizeof proto, "machine.protocol=\"%s\"", protocol);
    const char *sets[] = {"machine.cores=16", "machine.threads_per_core=1", proto};
    run_generated(text, sets, SIM_COUNT_OF(sets), what);
    free(text);
}

START_TEST(test_matrix)
{
    for (size_t i = 0; i < SIM_COUNT_OF(variants); i++)
        for (size_t c = 0; c < SIM_COUNT_OF(counts); c++)
            matrix_case(&variants[i], (int)c, protocols[_i]);
}
END_TEST

/* Every generator appears in the matrix. */
START_TEST(test_matrix_covers_every_generator)
{
    for (const char *const *name = gen_names; *name; name++) {
        bool found = false;
        for (size_t i = 0; i < SIM_COUNT_OF(elsewhere); i++)
            found |= !strcmp(*name, elsewhere[i]);
        for (size_t i = 0; i < SIM_COUNT_OF(variants) && !found; i++) {
            size_t len = strcspn(variants[i].spec, ":");
            found = strlen(*name) == len && !strncmp(*name, variants[i].spec, len);
        }
        ck_assert_msg(found, "%s is not in the matrix", *name);
    }
}
END_TEST

/* Hardware threads on a two-socket machine: the sockets' threads are not
 * contiguous (threads 8..11 are the second threads of cores 0..3). Every
 * case parses, prints back and runs. (These cases found a core-model race,
 * since fixed: a wait whose load was in flight while the other hardware
 * thread of its core stored to the line slept on the old value.) */
START_TEST(test_hardware_threads_two_sockets)
{
    static const struct {
        const char *spec;
        int max_run; /* run up to this many threads */
    } cases[] = {{"barrier-pairwise", 16},
                 {"barrier-socketroot:m=2", 16},
                 {"barrier-dissemination:m=2", 16},
                 {"barrier-multim", 16},
                 {"m2o-tree", 16},
                 {"o2m-tree", 16},
                 {"reduce-tree", 16},
                 {"bcast-multiline:lines=4", 16},
                 {"reduce-binomial:lines=3", 16},
                 {"bcast-tree:shape=binomial", 16}};
    const char *sets[] = {"machine.cores=8", "machine.threads_per_core=2",
                          "machine.protocol=\"mesi\""};
    struct gen_machine m = {8, 2, 2, 64, 8, 0};
    for (size_t i = 0; i < SIM_COUNT_OF(cases); i++)
        for (int n = 10; n <= 16; n += 2) {
            struct sim_diag d;
            sim_diag_init(&d);
            char what[128];
            snprintf(what, sizeof what, "%s -t %d (8 cores x 2, 2 sockets)", cases[i].spec, n);
            char *text = gen_trace(cases[i].spec, n, ITERS, &m, &d);
            ck_assert_msg(text != NULL, "%s: %s", what, d.text);
            check_round_trip(text, 64, what);
            if (n <= cases[i].max_run)
                run_generated(text, sets, SIM_COUNT_OF(sets), what);
            free(text);
        }
}
END_TEST

/* Generators that refuse, or compute a wrong sum at, other thread counts
 * than powers of two. */
/* Generators that take exactly two threads. */
static bool two_threads(const char *name)
{
    return !strcmp(name, "pingpong") || !strcmp(name, "mpi-shm");
}

static bool pow2_only(const char *name)
{
    return !strcmp(name, "barrier-butterfly") || !strcmp(name, "reduce-dissemination");
}

/* 32-byte lines: words .0 .. .3. */
START_TEST(test_line_bytes)
{
    struct gen_machine m = {16, 1, 1, 32, 8, 0};
    const char *sets[] = {"machine.cores=16", "machine.line_bytes=32"};
    for (const char *const *name = gen_names; *name; name++) {
        if (!strncmp(*name, "scc-", 4))
            continue; /* 32-byte lines on the SCC itself: test_seed004.c */
        struct sim_diag d;
        sim_diag_init(&d);
        int n = two_threads(*name) ? 2 : pow2_only(*name) ? 4 : 6;
        char *text = gen_trace(*name, n, ITERS, &m, &d);
        ck_assert_msg(text != NULL, "%s: %s", *name, d.text);
        ck_assert_msg(strstr(text, ".7") == NULL, "%s uses word 7 of a 32-byte line", *name);
        check_round_trip(text, 32, *name);
        run_generated(text, sets, SIM_COUNT_OF(sets), *name);
        free(text);
    }
}
END_TEST

static char *gen_ok(const char *spec, int n, const struct gen_machine *m);

/* ---------------------------------------------------------------- the checks */

/* text with every line containing `drop` removed and `ins` put before the
 * first line containing `before` (either may be NULL). */
static char *edit(const char *text, const char *drop, const char *before, const char *ins)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    bool inserted = false;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
        char line[4200];
        snprintf(line, sizeof line, "%.*s", (int)n, p);
        if (before && !inserted && strstr(line, before)) {
            fputs(ins, f);
            inserted = true;
        }
        if (!drop || !strstr(line, drop))
            fputs(line, f);
        p += n;
    }
    fclose(f);
    ck_assert(!before || inserted);
    return out;
}

/* The value errors of a run of text (which must not deadlock). */
static uint64_t errors_of(const char *text)
{
    struct core_result res;
    struct sim_diag d;
    const char *sets[] = {"machine.cores=16"};
    run_text(text, sets, 1, &res, &d);
    ck_assert_msg(!res.deadlock && !res.input_error, "%s\n%s", d.text, text);
    uint64_t e = res.value_errors;
    core_result_free(&res);
    return e;
}

/* A generated algorithm runs without value errors, but broken by an edit
 * (dropping the lines with `drop`) it shows value errors. `ins` goes before
 * the line with `before`: in both runs if it is a delay (a compute), in the
 * broken one only if it replaces a dropped line. */
static void expect_broken(const char *spec, int n, const struct gen_machine *m, const char *drop,
                          const char *before, const char *ins)
{
    char *text = gen_ok(spec, n, m);
    bool delay = ins && strstr(ins, "compute");
    char *ok = edit(text, NULL, delay ? before : NULL, delay ? ins : NULL);
    char *bad = edit(ok, drop, delay ? NULL : before, delay ? NULL : ins);
    ck_assert_msg(errors_of(ok) == 0, "%s: intact\n%s", spec, ok);
    ck_assert_msg(errors_of(bad) > 0, "%s: broken, no value error\n%s", spec, bad);
    free(text);
    free(ok);
    free(bad);
}

START_TEST(test_checks_catch_broken_algorithms)
{
    struct gen_machine one = {16, 1, 1, 64, 8, 0}, two = {16, 2, 1, 64, 8, 0};
    /* barriers: one late thread; without the waits the others pass it */
    const char *late0 = "  0: compute 3000\n", *late9 = "  9: compute 3000\n";
    expect_broken("barrier-dissemination", 5, &one, ": wait r", "write arrive", late0);
    expect_broken("barrier-multim:m=1/3", 8, &one, ": wait r", "write arrive", late0);
    expect_broken("barrier-pairwise", 10, &two, "wait s0final", "write arrive", late0);
    expect_broken("barrier-socketroot", 10, &two, "wait root[1]", "write arrive", late9);
    /* seed 002's barriers: every wait dropped */
    expect_broken("barrier-central", 5, &one, ": wait ", "write arrive", late0);
    expect_broken("barrier-linear", 5, &one, ": wait ", "write arrive", late0);
    expect_broken("barrier-combining", 5, &one, ": wait ", "write arrive", late0);
    expect_broken("barrier-butterfly", 4, &one, ": wait ", "write arrive", late0);
    expect_broken("barrier-extbutterfly", 5, &one, ": wait ", "write arrive", late0);
    expect_broken("barrier-radix", 5, &one, ": wait ", "write arrive", late0);
    /* reductions and broadcasts whose data is written before the sync: the
     * entry stamp (gen_stamp_*) shows a read made before its writer entered;
     * without it each of these passed (a reader of fresh data cannot tell) */
    const char *late1 = "  1: compute 3000\n", *late3 = "  3: compute 3000\n",
               *late4 = "  4: compute 3000\n";
    const char *rstamp = "all: write buf[t*10] t+1", *bstamp = "0: write buf[0].7 it+1";
    expect_broken("reduce-flat", 5, &one, "wait ready", rstamp, late3);
    expect_broken("reduce-flat:sync=loose", 5, &one, "wait ready", rstamp, late3);
    /* strict: the barrier's result, every thread's check of the root's sums */
    expect_broken("reduce-radix", 5, &one, ": wait b", rstamp, late3);
    expect_broken("reduce-radix:sync=loose", 5, &one, "wait ready", rstamp, late3);
    expect_broken("reduce-extbutterfly-separate", 5, &one, ": wait ", "write acc[t+it%2*n] it+1",
                  late0);
    expect_broken("bcast-multiline:lines=4", 5, &one, "wait pflag", bstamp, late0);
    expect_broken("bcast-multiline:lines=4,shape=binary", 5, &one, "wait pflag[0]", bstamp, late0);
    /* the first stage's senders, and a leaf of a later stage */
    expect_broken("reduce-binomial:lines=2", 5, &one, "wait ready[t+1]", "write buf[t*2].7 it+1",
                  late1);
    expect_broken("reduce-binomial:lines=2", 5, &one, ": wait ", "write buf[t*2].7 it+1", late4);
    /* a lost contribution, a missing copy, a copy from the wrong buffer */
    expect_broken("reduce-tree", 5, &one, "addline mine[0] priv[2]", NULL, NULL);
    expect_broken("reduce-binomial:lines=2", 5, &one, "0,2: addline", NULL, NULL);
    expect_broken("bcast-tree:shape=binary", 5, &one, "3,4: copy data[1]", NULL, NULL);
    expect_broken("bcast-multiline:lines=4", 5, &one, "copy buf[0]", NULL, NULL);
    expect_broken("pingpong", 2, &one, "1: copy send1 recv0", "1: copy send1 recv0",
                  "  1: copy send0 recv0 1\n");
    /* a doubled notification */
    expect_broken("m2o", 5, &one, "others: add flag 1", "others: add flag 1",
                  "  others: add flag 2\n");
    expect_broken("m2o-tree", 16, &one, "add flag[0] 1", "add flag[0] 1",
                  "  1..4: add flag[0] 2\n");
}
END_TEST

/* Seed 000 Sec 4.1.1 and 5.1.1: on two sockets a tree's flags are one line
 * per parent and socket of its children. The binary tree of 12 threads on
 * 2 x 8 cores: thread 3's children 7 (socket 0) and 8 (socket 1) wait on
 * pflag[6] and pflag[7] and add to sflag[6] and sflag[7]; thread 3 writes
 * both before it waits on either. One socket keeps pflag[t]. */
START_TEST(test_tree_flags_per_socket)
{
    struct gen_machine two = {16, 2, 1, 64, 8, 0}, one = {16, 1, 1, 64, 8, 0};
    static const char *const specs[] = {"bcast-tree:shape=binary", "reduce-tree:shape=binary",
                                        "bcast-multiline:shape=binary,lines=2"};
    for (size_t i = 0; i < SIM_COUNT_OF(specs); i++) {
        char *text = gen_ok(specs[i], 12, &two);
        const char *want[] = {
            "line pflag 24",       "  7: wait pflag[6] >= it+1", "  8: wait pflag[7] >= it+1",
            "  7: add sflag[6] 1", "  8: add sflag[7] 1",        "3..5: write pflag[t*2+1] it+1"};
        for (size_t w = 0; w < SIM_COUNT_OF(want); w++)
            ck_assert_msg(strstr(text, want[w]), "%s: no '%s'\n%s", specs[i], want[w], text);
        const char *w1 = strstr(text, "write pflag[t*2+1]"),
                   *wait0 = strstr(text, "wait sflag[t*2]");
        ck_assert_msg(w1 && wait0 && w1 < wait0, "%s: a wait before the last write\n%s", specs[i],
                      text);
        free(text);
        text = gen_ok(specs[i], 12, &one);
        ck_assert_msg(strstr(text, "line pflag 12") && strstr(text, "write pflag[t] it+1"), "%s",
                      text);
        free(text);
    }
}
END_TEST

/* ---------------------------------------------------------------- messages */

static void expect_error(const char *spec, int threads, long iters, const struct gen_machine *m,
                         const char *msg)
{
    struct sim_diag d;
    sim_diag_init(&d);
    char *text = gen_trace(spec, threads, iters, m, &d);
    ck_assert_msg(text == NULL, "%s -t %d: not refused", spec, threads);
    ck_assert_msg(strstr(d.text, msg) != NULL, "%s -t %d: got %s", spec, threads, d.text);
    char prefix[600];
    snprintf(prefix, sizeof prefix, "-w %s: ", spec);
    ck_assert_msg(!strncmp(d.text, prefix, strlen(prefix)), "%s", d.text);
}

START_TEST(test_bad_specs)
{
    expect_error("pingpog", 2, 5, NULL, "unknown generator 'pingpog' (did you mean 'pingpong'?)");
    expect_error("barrier-disemination:m=2", 4, 5, NULL,
                 "unknown generator 'barrier-disemination' (did you mean "
                 "'barrier-dissemination'?)");
    expect_error("quicksort", 4, 5, NULL, "(known generators: pingpong, m2o,");
    expect_error("pingpong:line=2", 2, 5, NULL,
                 "pingpong has no parameter 'line' (did you mean 'lines'?)");
    expect_error("m2o:fanout=2", 4, 5, NULL,
                 "m2o has no parameter 'fanout' (its parameters: lines)");
    expect_error("pingpong:lines=0", 2, 5, NULL,
                 "bad value for lines: '0' (expected an integer 1..65536)");
    expect_error("pingpong:lines=x", 2, 5, NULL, "bad value for lines: 'x'");
    expect_error("m2o:lines=both", 4, 5, NULL,
                 "bad value for lines: 'both' (expected same or diff)");
    expect_error("bcast-tree:shape=kary:0", 4, 5, NULL, "bad value for shape: 'kary:0' (expected");
    expect_error("bcast-tree:shape=star", 4, 5, NULL, "bad value for shape: 'star'");
    expect_error("barrier-multim:m=2/0", 4, 5, NULL, "bad value for m: '2/0'");
    expect_error("barrier-dissemination:m=0", 4, 5, NULL, "bad value for m: '0'");
    expect_error("pingpong:lines", 2, 5, NULL, "'lines' is not k=v (expected NAME:k=v,...)");
    expect_error("pingpong:", 2, 5, NULL, "an empty parameter");
    expect_error("pingpong:lines=1,", 2, 5, NULL, "an empty parameter");
    expect_error("pingpong:lines=1,lines=2", 2, 5, NULL, "parameter 'lines' is given twice");
    /* an integer written plainly: the header gives the spec as written */
    expect_error("pingpong:lines=03", 2, 5, NULL, "bad value for lines: '03'");
    expect_error("pingpong:lines=+3", 2, 5, NULL, "bad value for lines: '+3'");
    expect_error("pingpong:lines= 3", 2, 5, NULL, "bad value for lines: ' 3'");
    /* a value the others leave unused is refused, not ignored */
    expect_error("reduce-radix:sync=loose,barrier=2", 8, 5, NULL,
                 "barrier=2: sync=loose has no barrier");
    expect_error("scc-allgather:split=balanced", 4, 5, NULL,
                 "scc-allgather has no parameter 'split'");
    expect_error("scc-alltoall:split=rcce", 4, 5, NULL, "scc-alltoall has no parameter 'split'");
    /* more lines than a trace may declare: refused here, not by the loader
     * (it read a cascade of unknown lines) */
    expect_error("bcast-multiline:lines=65536", 32, 1, NULL,
                 "line buf (2097152 lines for 32 threads) brings the trace to 2097152 lines, "
                 "more than a trace may declare");
    expect_error("reduce-binomial:lines=40000", 32, 1, NULL,
                 "line buf (1280000 lines for 32 threads)");
    expect_error("mpi-shm:bytes=16777216", 2, 1, NULL,
                 "the shared chunks (2048) and their flags are 1050632 lines");
}
END_TEST

START_TEST(test_bad_thread_counts)
{
    struct gen_machine m = {16, 2, 1, 64, 8, 0};
    expect_error("pingpong", 3, 5, NULL, "pingpong needs exactly 2 threads, not 3 (-t 2)");
    expect_error("m2o", 1, 5, NULL, "1 thread is too few (m2o needs at least 2)");
    expect_error("barrier-pairwise", 0, 5, NULL, "0 threads are too few");
    expect_error("o2m", WL_MAX_THREADS + 1, 5, NULL, "threads are too many (at most 4096)");
    expect_error("o2m", 17, 5, &m,
                 "17 threads do not fit the machine (16 cores of 1 hardware thread)");
    expect_error("o2m", 4, 0, NULL, "0 iterations are out of range");
    expect_error("barrier-multim:m=1/1/1", 9, 5, NULL, "m=1/1/1 reaches 8 threads, fewer than 9");
    expect_error("bcast-tree:shape=parents:-1/0/0", 5, 5, NULL,
                 "shape=parents: gives 3 parents for 5 threads (expected one per thread)");
    expect_error("reduce-tree:shape=parents:-1/0/-1", 3, 5, NULL, "shape=parents: 2 roots");
    expect_error("reduce-tree:shape=parents:-1/2/1", 3, 5, NULL,
                 "thread 1 does not lead to the root (a cycle)");
    expect_error("bcast-tree:shape=parents:-1/0/7", 3, 5, NULL,
                 "the parent of thread 2 is 7, not a thread");
}
END_TEST

/* ---------------------------------------------------------------- placement, list, determinism */

static char *gen_ok(const char *spec, int n, const struct gen_machine *m)
{
    struct sim_diag d;
    sim_diag_init(&d);
    char *text = gen_trace(spec, n, 3, m, &d);
    ck_assert_msg(text != NULL, "%s: %s", spec, d.text);
    return text;
}

START_TEST(test_pin_packs_one_socket_first)
{
    struct gen_machine snb = {16, 2, 1, 64, 8, 0};
    char *text = gen_ok("barrier-pairwise", 10, &snb);
    ck_assert_msg(strstr(text, "\npin 0 1 2 3 4 5 6 7 8 9\n") != NULL, "%s", text);
    /* threads 0..7 are socket 0 (cores 0..7), threads 8 and 9 socket 1 */
    ck_assert_msg(strstr(text, "0..7: write s0final[t] it+1") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "8,9: write s1final[t-8] it+1") != NULL, "%s", text);
    free(text);
    /* more threads than cores: the hardware threads, socket 0 first */
    struct gen_machine ht = {8, 2, 2, 64, 8, 0};
    text = gen_ok("barrier-socketroot", 12, &ht);
    ck_assert_msg(strstr(text, "\npin 0 1 2 3 4 5 6 7 0.1 1.1 2.1 3.1\n") != NULL, "%s", text);
    /* the comment says so (it said one socket is filled before the next,
     * which hardware threads contradict: thread 8 is socket 0's again) */
    ck_assert_msg(strstr(text, "# one socket's cores are filled before the next's, a thread a "
                               "core; more") &&
                      !strstr(text, "one socket is filled before the next"),
                  "%s", text);
    ck_assert_msg(strstr(text, "0..3,8..11: wait root[1] >= it+1") != NULL, "%s", text);
    free(text);
    /* one socket: the one-socket form */
    struct gen_machine one = {16, 1, 1, 64, 8, 0};
    char *a = gen_ok("barrier-pairwise", 10, &one);
    char *b = gen_ok("barrier-dissemination", 10, &one);
    ck_assert_msg(strstr(a, "s0final") == NULL, "%s", a);
    ck_assert_str_eq(strstr(a, "threads 10"), strstr(b, "threads 10"));
    free(a);
    free(b);
    /* no machine, or unknown cores: no pin line */
    struct gen_machine unknown = {0, 2, 1, 64, 8, 0};
    a = gen_ok("bcast-tree", 4, NULL);
    b = gen_ok("bcast-tree", 4, &unknown);
    ck_assert(strstr(a, "\npin") == NULL && strstr(b, "\npin") == NULL);
    free(a);
    free(b);
}
END_TEST

START_TEST(test_deterministic)
{
    struct gen_machine m = {16, 2, 1, 64, 8, 0}, scc = {48, 1, 1, 32, 8, 256};
    for (const char *const *name = gen_names; *name; name++) {
        int n = two_threads(*name) ? 2 : pow2_only(*name) ? 16 : 13;
        const struct gen_machine *on = strncmp(*name, "scc-", 4) ? &m : &scc;
        char *a = gen_ok(*name, n, on), *b = gen_ok(*name, n, on);
        ck_assert_str_eq(a, b);
        free(a);
        free(b);
    }
}
END_TEST

START_TEST(test_list)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    gen_list(f);
    fclose(f);
    int count = 0;
    for (const char *const *name = gen_names; *name; name++, count++) {
        char head[128];
        snprintf(head, sizeof head, "\n%s  [seed 00", *name);
        ck_assert_msg(strstr(buf, head) != NULL, "%s missing from:\n%s", *name, buf);
    }
    ck_assert_int_eq(count, 33);
    ck_assert(strstr(buf, "    lines=1\n") != NULL);
    ck_assert(strstr(buf, "    shape=flat\n") != NULL);
    /* the help text is wrapped: join its lines */
    char *flat = sim_xstrdup(buf);
    size_t k = 0;
    for (size_t i = 0; buf[i]; i++) {
        if (buf[i] == '\n' && buf[i + 1] == ' ') {
            while (buf[i + 1] == ' ')
                i++;
            flat[k++] = ' ';
        } else
            flat[k++] = buf[i];
    }
    flat[k] = '\0';
    const char *deg = strstr(flat, "on one socket it is barrier-dissemination");
    ck_assert_msg(deg && strstr(deg + 1, "on one socket it is barrier-dissemination"), "%s", flat);
    free(flat);
    free(buf);
}
END_TEST

/* The header names the full spec with defaults; the loop runs -i times. */
START_TEST(test_header)
{
    char *text = gen_ok("reduce-binomial", 4, NULL);
    ck_assert_msg(
        !strncmp(text, "ccsim-trace 1\n# ccsim gen reduce-binomial:lines=64 -t 4 -i 3\n", 60), "%s",
        text);
    ck_assert(strstr(text, "\nfor it 0..2 {\n") != NULL);
    ck_assert(strstr(text, "  all: sync\n") != NULL);
    ck_assert(strstr(text, "  all: mark done\n") != NULL);
    free(text);
    /* a spec too long for one line (shape=parents: of 1024 threads) is cut
     * in the header, and the trace still parses */
    size_t len = 0;
    char *spec = malloc(32 + 5 * 1024);
    len += (size_t)sprintf(spec, "reduce-tree:shape=parents:");
    for (int t = 0; t < 1023; t++)
        len += (size_t)sprintf(spec + len, "1023/");
    sprintf(spec + len, "-1");
    text = gen_ok(spec, 1024, NULL);
    ck_assert_msg(strstr(text, "... (a spec of 5143 characters, cut here) -t 1024 -i 3\n"),
                  "%.200s", text);
    struct sim_diag d;
    sim_diag_init(&d);
    struct wl_program *p = wl_parse_text("long", text, strlen(text), NULL, &d);
    ck_assert_msg(p != NULL, "%s", d.text);
    wl_program_free(p);
    free(text);
    free(spec);
}
END_TEST

static Suite *gen_suite(void)
{
    Suite *s = suite_create("gen");
    TCase *tc = tcase_create("generators");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_matrix, 0, tu_small_scale() ? 2 : (int)SIM_COUNT_OF(protocols));
    tcase_add_test(tc, test_matrix_covers_every_generator);
    tcase_add_test(tc, test_hardware_threads_two_sockets);
    tcase_add_test(tc, test_line_bytes);
    tcase_add_test(tc, test_checks_catch_broken_algorithms);
    tcase_add_test(tc, test_bad_specs);
    tcase_add_test(tc, test_tree_flags_per_socket);
    tcase_add_test(tc, test_bad_thread_counts);
    tcase_add_test(tc, test_pin_packs_one_socket_first);
    tcase_add_test(tc, test_deterministic);
    tcase_add_test(tc, test_list);
    tcase_add_test(tc, test_header);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(gen_suite());
}
