/*
 * test_sweep.c -- `ccsim sweep`: the sweep file's errors (FILE:LINE), range
 * expansion, the schema loader's string arrays, identical rows whatever -j,
 * --resume after a torn row, refused points skipped; `ccsim tune`; mpirun.
 */
#include "sim.h"
#include "sweep.h"
#include "testutil.h"

#include <sys/stat.h>
#include <unistd.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct tu_run r;

/* A sweep file on teach-xbar with the given sweep body. */
static const char *sweep_file(const char *name, const char *body)
{
    char text[2048];
    snprintf(text, sizeof text, "# a test sweep\nsweep = {\n%s};\n", body);
    return tu_write(name, text);
}

static void slurp(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
    fclose(f);
}

/* The CSV without its wall_s column (the eighth from the end: atomics,
 * handoffs, home_queue_ns, link_queue_ns, prefetches, sw_prefetches and
 * line_busy came after it). */
static void strip_wall(const char *in, char *out, size_t size)
{
    enum { AFTER = 7 }; /* columns after wall_s: atomics .. line_busy */
    size_t len = 0;
    for (const char *p = in; *p;) {
        const char *nl = strchr(p, '\n');
        size_t ll = nl ? (size_t)(nl - p) : strlen(p);
        const char *cut[AFTER + 1] = {NULL}; /* the last commas, nearest first */
        int found = 0;
        for (const char *c = p + ll - 1; c >= p && found < AFTER + 1; c--)
            if (*c == ',')
                cut[found++] = c;
        size_t keep = found == AFTER + 1 ? (size_t)(cut[AFTER] - p) : ll;
        ck_assert(len + ll + 2 < size);
        memcpy(out + len, p, keep);
        len += keep;
        if (found == AFTER + 1) { /* the columns after wall_s */
            size_t rest = (size_t)(p + ll - cut[AFTER - 1]);
            memcpy(out + len, cut[AFTER - 1], rest);
            len += rest;
        }
        out[len++] = '\n';
        p += ll + (nl ? 1 : 0);
    }
    out[len] = '\0';
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static char path_buf[600];
static const char *tmp_path(const char *name)
{
    snprintf(path_buf, sizeof path_buf, "%s/%s", tu_dir(), name);
    return path_buf;
}

static const char small_sweep[] = "  configs = [\"teach-xbar\"];\n"
                                  "  workloads = [\"barrier-dissemination:m=1..2\", \"m2o\"];\n"
                                  "  threads = [2, 4];\n"
                                  "  iterations = 20;\n"
                                  "  seeds = [1, 2];\n";

/* ------------------------------------------------------------- errors */

static void expect_error(const char *body, int line, const char *what)
{
    const char *path = sweep_file("bad.sweep", body);
    char want[1200];
    snprintf(want, sizeof want, "%s:%d: ", path, line);
    tu_ccsim(&r, "sweep %s", path);
    ck_assert_int_eq(r.status, 2);
    const char *at = strstr(r.err, want);
    ck_assert_msg(at != NULL, "want '%s' in:\n%s", want, r.err);
    const char *found = strstr(at, what), *nl = strchr(at, '\n');
    ck_assert_msg(found && (!nl || found < nl), "want '%s%s' in:\n%s", want, what, r.err);
    ck_assert_str_eq(r.out, "");
}

START_TEST(test_file_errors)
{
    expect_error("  configs = [\"teach-xbar\"];\n  workloads = [\"m2o\"];\n  threads = [2];\n"
                 "  colour = 3;\n",
                 6, "unknown key 'colour' in section 'sweep'");
    expect_error("  configs = [\"teach-xbar\"];\n  workloads = [\"m2o\"];\n  threads = \"two\";\n",
                 5, "sweep.threads is a string");
    expect_error("  configs = [\"teach-xbar\"];\n  workloads = (\"m2o\", 7);\n  threads = [2];\n",
                 4, "sweep.workloads has an integer element");
    expect_error(
        "  configs = [\"teach-xbar\"];\n  workloads = [\"barrier-dissemination:m=4..1\"];\n"
        "  threads = [2];\n",
        4, "range 4..1 is empty");
    expect_error(
        "  configs = [\"teach-xbar\"];\n  workloads = [\"barrier-dissemination:m=1..x\"];\n"
        "  threads = [2];\n",
        4, "a range is two integers A..B");
    expect_error(
        "  configs = [\"teach-xbar\"];\n  workloads = [\"frobnicate\"];\n  threads = [2];\n", 4,
        "'frobnicate' names no generator");
    expect_error("  configs = [\"no-such-machine\"];\n  workloads = [\"m2o\"];\n  threads = [2];\n",
                 3, "'no-such-machine' is neither a config file nor a shipped config");
    expect_error("  configs = [\"teach-xbar --sett x\"];\n  workloads = [\"m2o\"];\n"
                 "  threads = [2];\n",
                 3, "'teach-xbar --sett x': a config's name may be followed only by");
    /* a word after the last override, or an override without its value: not dropped */
    expect_error("  configs = [\"teach-xbar --set xbar.latency_ns=20 garbage\"];\n"
                 "  workloads = [\"m2o\"];\n  threads = [2];\n",
                 3, "'teach-xbar --set xbar.latency_ns=20 garbage': a config's name may be");
    expect_error("  configs = [\"teach-xbar --set xbar.latency_ns=20 --set\"];\n"
                 "  workloads = [\"m2o\"];\n  threads = [2];\n",
                 3, "'teach-xbar --set xbar.latency_ns=20 --set': a config's name may be");
    expect_error("  configs = [\"teach-xbar\"];\n  workloads = [\"m2o\"];\n  threads = [];\n", 5,
                 "sweep.threads is empty");
    expect_error("  configs = [\"teach-xbar\"];\n  threads = [2];\n", 2,
                 "section 'sweep' lacks the required key 'workloads'");
    /* a misspelt parameter or value is the file's, not a refused point */
    expect_error("  configs = [\"teach-xbar\"];\n  workloads = [\"pingpong:foo=1\"];\n"
                 "  threads = [2];\n",
                 4, "sweep.workloads: 'pingpong:foo=1': pingpong has no parameter 'foo'");
    expect_error("  configs = [\"teach-xbar\"];\n  workloads = [\"m2o:lines=x..y\"];\n"
                 "  threads = [2];\n",
                 4, "a range is two integers A..B");
    expect_error("  configs = [\"teach-xbar\"];\n  workloads = [\"pingpong:lines=x\"];\n"
                 "  threads = [2];\n",
                 4, "'pingpong:lines=x': bad value for lines: 'x'");
    /* an entry on a line of its own: that line, not the list's first */
    expect_error("  configs = [\"teach-xbar\",\n    \"no-such-machine\"];\n"
                 "  workloads = [\"m2o\",\n    \"pingpong:lines=x\"];\n  threads = [2];\n",
                 4, "'no-such-machine' is neither a config file nor a shipped config");
    expect_error("  configs = [\"teach-xbar\"];\n  workloads = [\"m2o\",\n"
                 "    \"pingpong:lines=x\"];\n  threads = [2];\n",
                 5, "'pingpong:lines=x': bad value for lines: 'x'");
    /* a point listed twice is one CSV row: -o kept one, --resume then ran
     * the other for ever */
    expect_error("  configs = [\"teach-xbar\"];\n  workloads = [\"m2o\"];\n  threads = [2, 4,\n"
                 "    2];\n",
                 6, "sweep.threads: 2 is listed twice (a point is one CSV row)");
    expect_error("  configs = [\"teach-xbar\",\n    \"teach-xbar\"];\n"
                 "  workloads = [\"m2o\"];\n  threads = [2];\n",
                 4, "sweep.configs: 'teach-xbar' is listed twice");
    expect_error("  configs = [\"teach-xbar\"];\n  workloads = [\"pingpong:lines=1..2\",\n"
                 "    \"pingpong:lines=2\"];\n  threads = [2];\n",
                 5, "sweep.workloads: 'pingpong:lines=2' is listed twice");
    /* a trace whose threads the machine cannot place */
    char body[1024];
    snprintf(body, sizeof body,
             "  configs = [\"teach-xbar\"];\n  workloads = [\"%s\"];\n  threads = [2];\n",
             tu_write("nine.trace", "ccsim-trace 1\nthreads 9\nline x\nall: mark d\n"));
    expect_error(body, 4, "cannot run on config 'teach-xbar'");
    ck_assert_msg(strstr(r.err, "threads 9 do not fit the machine's 4 cores"), "%s", r.err);
    tu_ccsim(&r, "sweep");
    ck_assert_int_eq(r.status, 2);
    tu_ccsim(&r, "sweep x.sweep --resume");
    ck_assert_int_eq(r.status, 2);
    ck_assert(strstr(r.err, "--resume needs -o CSV") != NULL);
}
END_TEST

/* ------------------------------------------------------------- units */

START_TEST(test_range_expansion)
{
    char **specs = NULL, err[256];
    size_t n = 0;
    ck_assert(sweep_expand("m2o", &specs, &n, err, sizeof err));
    ck_assert(sweep_expand("barrier-dissemination:m=1..3", &specs, &n, err, sizeof err));
    ck_assert(sweep_expand("x:a=1..2,b=lo,c=7..8", &specs, &n, err, sizeof err));
    ck_assert(sweep_expand("bcast-tree:shape=kary:2..3", &specs, &n, err, sizeof err));
    /* a negative first value keeps its sign (m=-1..0 gave m=-1, m=-0), after
     * '=' or ':' */
    ck_assert(sweep_expand("y:m=-1..0", &specs, &n, err, sizeof err));
    ck_assert(sweep_expand("z:shape=kary:-1..-1", &specs, &n, err, sizeof err));
    const char *want[] = {"m2o",
                          "barrier-dissemination:m=1",
                          "barrier-dissemination:m=2",
                          "barrier-dissemination:m=3",
                          "x:a=1,b=lo,c=7",
                          "x:a=1,b=lo,c=8",
                          "x:a=2,b=lo,c=7",
                          "x:a=2,b=lo,c=8",
                          "bcast-tree:shape=kary:2",
                          "bcast-tree:shape=kary:3",
                          "y:m=-1",
                          "y:m=0",
                          "z:shape=kary:-1"};
    ck_assert_uint_eq(n, SIM_COUNT_OF(want));
    for (size_t i = 0; i < n; i++) {
        ck_assert_str_eq(specs[i], want[i]);
        free(specs[i]);
    }
    free(specs);
    specs = NULL;
    n = 0;
    ck_assert(!sweep_expand("x:m=3..1", &specs, &n, err, sizeof err));
    ck_assert(!sweep_expand("x:m=-2..-3", &specs, &n, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "range -2..-3 is empty"));
    ck_assert(!sweep_expand("x:m=-..2", &specs, &n, err, sizeof err)); /* a sign, no digits */
    ck_assert_ptr_nonnull(strstr(err, "a range is two integers"));
    /* B - A past LONG_MAX: too long, said at once (it overflowed) */
    ck_assert(!sweep_expand("x:m=-9223372036854775000..9223372036854775000", &specs, &n, err,
                            sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "longer than 10000 values"));
    ck_assert(!sweep_expand("x:m=..4", &specs, &n, err, sizeof err));
    ck_assert(!sweep_expand("x:m=1..4z", &specs, &n, err, sizeof err));
    ck_assert(!sweep_expand("x:m=1..99999", &specs, &n, err, sizeof err));
    /* three ranges of 9 000: each allowed, their product refused */
    ck_assert(!sweep_expand("x:a=1..9000,b=1..9000,c=1..9000", &specs, &n, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "more than 100000 workloads"));
    ck_assert_uint_le(n, SWEEP_MAX_POINTS);
    /* a row's key: five columns, a quoted workload's commas not counted */
    const char *row = "teach-xbar,\"bcast-multiline:lines=1,shape=flat\",4,10,2,1.0,2\n";
    const char *key = "teach-xbar,\"bcast-multiline:lines=1,shape=flat\",4,10,2";
    ck_assert_uint_eq(sweep_row_key_len(row, strlen(row)), strlen(key));
    ck_assert_uint_eq(sweep_row_key_len("a,b,c\n", 6), 0);
    for (size_t i = 0; i < n; i++)
        free(specs[i]);
    free(specs);
}
END_TEST

struct names {
    char names[3][8];
    int n;
};

START_TEST(test_string_array_key)
{
    static const struct cfg_key keys[] = {
        CFG_STRING_ARRAY_KEY(struct names, names, n, true, "names")};
    struct names v = {0};
    const struct cfg_section sec = {"s", true, keys, 1, &v, NULL};
    const char *ok = tu_write("ok.cfg", "s = { names = [\"a\", \"bcdefgh\"]; };\n");
    struct sim_diag d;
    sim_diag_init(&d);
    struct cfg_file *cf = cfg_open(ok, &d);
    ck_assert(cf != NULL);
    ck_assert_msg(cfg_apply(cf, &sec, 1, &d), "%s", d.text);
    cfg_close(cf);
    ck_assert_int_eq(v.n, 2);
    ck_assert_str_eq(v.names[0], "a");
    ck_assert_str_eq(v.names[1], "bcdefgh");
    const char *bad[] = {"s = { names = [\"a\", \"b\", \"c\", \"d\"]; };\n",
                         "s = { names = [\"abcdefgh\"]; };\n", "s = { names = [\"\"]; };\n",
                         "s = { names = \"a\"; };\n"};
    const char *what[] = {"has 4 elements", "has a string of 8 characters",
                          "has a string of 0 characters", "is a string"};
    for (size_t i = 0; i < SIM_COUNT_OF(bad); i++) {
        const char *p = tu_write("bad.cfg", bad[i]);
        sim_diag_init(&d);
        cf = cfg_open(p, &d);
        ck_assert(cf != NULL);
        ck_assert(!cfg_apply(cf, &sec, 1, &d));
        cfg_close(cf);
        ck_assert_msg(strstr(d.text, ":1: s.names ") && strstr(d.text, what[i]), "%s", d.text);
        ck_assert(strstr(d.text, "strings of 1 to 7 characters") != NULL);
    }
}
END_TEST

/* ------------------------------------------------------------- runs */

static char csv_a[65536], csv_b[65536], rows_a[65536], rows_b[65536];

START_TEST(test_jobs_give_same_rows)
{
    const char *sw = sweep_file("small.sweep", small_sweep);
    char file[600];
    snprintf(file, sizeof file, "%s", sw);
    tu_ccsim(&r, "sweep %s -j 1 -o %s", file, tmp_path("j1.csv"));
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.err, "12 points: 12 run, 0 already in the CSV, 0 skipped, 0 failed"),
                  "%s", r.err);
    slurp(tmp_path("j1.csv"), csv_a, sizeof csv_a);
    tu_ccsim(&r, "sweep %s -j 2 -o %s", file, tmp_path("j2.csv"));
    ck_assert_msg(r.status == 0, "%s", r.err);
    slurp(tmp_path("j2.csv"), csv_b, sizeof csv_b);
    ck_assert_int_eq(count_lines(csv_a), 13);
    ck_assert(strncmp(csv_a, sweep_csv_header, strlen(sweep_csv_header)) == 0);
    ck_assert(strstr(csv_a, "\nteach-xbar,barrier-dissemination:m=1,2,20,1,") != NULL);
    strip_wall(csv_a, rows_a, sizeof rows_a);
    strip_wall(csv_b, rows_b, sizeof rows_b);
    ck_assert_str_eq(rows_a, rows_b);
    /* the same rows on stdout, and the first is the first point */
    tu_ccsim(&r, "sweep %s -j 3", file);
    ck_assert_msg(r.status == 0, "%s", r.err);
    strip_wall(r.out, rows_b, sizeof rows_b);
    ck_assert_str_eq(rows_a, rows_b);
}
END_TEST

START_TEST(test_resume_after_torn_row)
{
    const char *sw = sweep_file("small.sweep", small_sweep);
    char file[600];
    snprintf(file, sizeof file, "%s", sw);
    tu_ccsim(&r, "sweep %s -j 2 -o %s", file, tmp_path("full.csv"));
    ck_assert_msg(r.status == 0, "%s", r.err);
    slurp(tmp_path("full.csv"), csv_a, sizeof csv_a);
    /* header + 5 rows + half of the sixth, no newline */
    const char *p = csv_a;
    for (int i = 0; i < 6; i++)
        p = strchr(p, '\n') + 1;
    size_t cut = (size_t)(p - csv_a) + 20;
    FILE *f = fopen(tmp_path("torn.csv"), "w");
    fwrite(csv_a, 1, cut, f);
    fclose(f);
    tu_ccsim(&r, "sweep %s -j 2 --resume -o %s", file, tmp_path("torn.csv"));
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.err, "12 points: 7 run, 5 already in the CSV"), "%s", r.err);
    slurp(tmp_path("torn.csv"), csv_b, sizeof csv_b);
    strip_wall(csv_a, rows_a, sizeof rows_a);
    strip_wall(csv_b, rows_b, sizeof rows_b);
    ck_assert_str_eq(rows_a, rows_b);
    /* everything done: a second resume runs nothing and keeps the rows */
    tu_ccsim(&r, "sweep %s --resume -o %s", file, tmp_path("torn.csv"));
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.err, "12 points: 0 run, 12 already in the CSV"), "%s", r.err);
    slurp(tmp_path("torn.csv"), csv_a, sizeof csv_a);
    ck_assert_str_eq(csv_a, csv_b);
    /* a file with bytes but no line is no torn CSV: refused, kept (it was
     * cut to nothing and rewritten) */
    f = fopen(tmp_path("other.csv"), "w");
    fputs("my notes, not a sweep's rows", f);
    fclose(f);
    tu_ccsim(&r, "sweep %s --resume -o %s", file, tmp_path("other.csv"));
    ck_assert_msg(r.status == 2 && strstr(r.err, "not this ccsim's sweep CSV"), "%s", r.err);
    slurp(tmp_path("other.csv"), csv_a, sizeof csv_a);
    ck_assert_str_eq(csv_a, "my notes, not a sweep's rows");
    /* -o through a link to a file not made yet writes the file; the link
     * stays (the sorted rows' rename replaced it) */
    char link[600];
    snprintf(link, sizeof link, "%s", tmp_path("link.csv"));
    unlink(link);
    unlink(tmp_path("made.csv"));
    ck_assert_int_eq(symlink("made.csv", link), 0);
    tu_ccsim(&r, "sweep %s -o %s", file, link);
    struct stat st;
    ck_assert_msg(r.status == 0 && lstat(link, &st) == 0 && S_ISLNK(st.st_mode) &&
                      stat(tmp_path("made.csv"), &st) == 0 && st.st_size > 0,
                  "%s", r.err);
}
END_TEST

/* --resume refuses a CSV with a row a sweep does not write (it counted a
 * row with "hello" for its mean as a point run, and kept rows of five
 * columns under a 30-column header) or a second row of a point (dropped in
 * silence, even one that recorded value errors), and leaves the file as it
 * was. */
START_TEST(test_resume_refuses_broken_rows)
{
    const char *sw = sweep_file("small.sweep", small_sweep), *good = tmp_path("good.csv");
    char file[600];
    snprintf(file, sizeof file, "%s", sw);
    tu_ccsim(&r, "sweep %s -o %s", file, good);
    ck_assert_msg(r.status == 0, "%s", r.err);
    slurp(good, csv_a, sizeof csv_a);
    const char *row2 = strchr(csv_a, '\n') + 1, *row3 = strchr(row2, '\n') + 1;
    static const struct {
        const char *name, *why;
    } cases[] = {{"mean", ":2: column mean_ns is 'hello', not the number a sweep writes there"},
                 {"short", ":2: a row of 5 columns where the header has 30"},
                 {"twice", ":3: a second row of the point of line 2"}};
    for (size_t i = 0; i < SIM_COUNT_OF(cases); i++) {
        char text[sizeof csv_a];
        const char *key_end = row2; /* the key: the five columns before mean_ns */
        for (int c = 0; c < 5; c++)
            key_end = strchr(key_end + (c > 0), ',');
        int hl = (int)(row2 - csv_a), kl = (int)(key_end - row2);
        if (i == 0) /* the row's mean replaced */
            snprintf(text, sizeof text, "%.*s%.*s,hello%s", hl, csv_a, kl, row2,
                     strchr(key_end + 1, ','));
        else if (i == 1) /* the key alone */
            snprintf(text, sizeof text, "%.*s%.*s\n%s", hl, csv_a, kl, row2, row3);
        else /* the first row twice */
            snprintf(text, sizeof text, "%.*s%.*s%s", (int)(row3 - csv_a), csv_a,
                     (int)(row3 - row2), row2, row3);
        const char *path = tmp_path(cases[i].name);
        FILE *f = fopen(path, "w");
        fputs(text, f);
        fclose(f);
        tu_ccsim(&r, "sweep %s --resume -o %s", file, path);
        ck_assert_msg(r.status == 2 && strstr(r.err, cases[i].why) &&
                          strstr(r.err, "; not resuming"),
                      "%s: %s", cases[i].name, r.err);
        slurp(path, csv_b, sizeof csv_b);
        ck_assert_str_eq(csv_b, text);
    }
}
END_TEST

/* The summary's counts are disjoint: a point that ran and failed a check
 * (it has its row) is failed, not also run. */
START_TEST(test_failed_point_counted_once)
{
    char trace[600];
    snprintf(trace, sizeof trace, "%s",
             tu_write("wrong.trace", "ccsim-trace 1\nthreads 1\nline x\nall: sync\n"
                                     "all: write x 1\nall: mark d\nall: expect x == 2\n"));
    char body[1024];
    snprintf(body, sizeof body,
             "  configs = [\"teach-xbar\"];\n  workloads = [\"m2o\", \"%s\"];\n"
             "  threads = [2];\n  iterations = 3;\n",
             trace);
    tu_ccsim(&r, "sweep %s -j 1", sweep_file("wrong.sweep", body));
    ck_assert_msg(r.status == 1, "%s", r.err);
    ck_assert_msg(strstr(r.err, "2 points: 1 run, 0 already in the CSV, 0 skipped, 1 failed"), "%s",
                  r.err);
    ck_assert_int_eq(count_lines(r.out), 3); /* the failed point keeps its row */
    /* what a point prints comes under its name, in one piece (jobs at once do not
     * interleave their lines) */
    const char *head = strstr(r.err, "ccsim sweep: teach-xbar, ");
    const char *err = strstr(r.err, "value error: thread 0");
    ck_assert_msg(head && strstr(head, ", 1 thread, seed 1:\n") && err && head < err, "%s", r.err);
}
END_TEST

/* -o must be a regular file: the sweep reads its CSV back and rewrites it
 * (a device read back never ends; a pipe never answers); a symbolic link to
 * one is followed and stays a link. */
START_TEST(test_csv_regular_file)
{
    char sw[600];
    snprintf(sw, sizeof sw, "%s",
             sweep_file("o.sweep", "  configs = [\"teach-xbar\"];\n  workloads = [\"m2o\"];\n"
                                   "  threads = [2];\n  iterations = 3;\n"));
    tu_ccsim(&r, "sweep %s -o /dev/null", sw);
    ck_assert_msg(r.status == 2 && strstr(r.err, "/dev/null: not a regular file"), "%s", r.err);
    char target[600], link[600];
    snprintf(target, sizeof target, "%s", tu_write("target.csv", ""));
    snprintf(link, sizeof link, "%s/link.csv", tu_dir());
    unlink(link);
    ck_assert(symlink(target, link) == 0);
    tu_ccsim(&r, "sweep %s -o %s", sw, link);
    ck_assert_msg(r.status == 0, "%s", r.err);
    struct stat st;
    ck_assert(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    ck_assert_int_eq(count_lines(tu_slurp(target)), 2); /* the header and the row */
    /* a row of no point of this sweep, kept on --resume, is said */
    FILE *f = fopen(target, "a");
    ck_assert(
        f &&
        fputs("knc-5110p,foo,2,5,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,,1,0.1,0,0,0,0,0,0,0\n", f) >= 0 &&
        fclose(f) == 0);
    tu_ccsim(&r, "sweep %s -o %s --resume", sw, link);
    ck_assert_msg(r.status == 0 && strstr(r.err, "1 row of no point of this sweep kept"), "%s",
                  r.err);
}
END_TEST

/* A resumed sweep counts a kept row that failed a check as failed (and
 * exits 1, as the sweep that ran it did); a row of a point the generator
 * refuses counts as skipped only: the counts stay disjoint. */
START_TEST(test_resume_counts_failed_rows)
{
    char trace[600];
    snprintf(trace, sizeof trace, "%s",
             tu_write("wrong2.trace", "ccsim-trace 1\nthreads 1\nline x\nall: sync\n"
                                      "all: write x 1\nall: mark d\nall: expect x == 2\n"));
    char body[1024];
    snprintf(body, sizeof body,
             "  configs = [\"teach-xbar\"];\n  workloads = [\"pingpong\", \"%s\"];\n"
             "  threads = [2, 4];\n  iterations = 3;\n",
             trace);
    const char *sw = sweep_file("resume-failed.sweep", body), *csv = tmp_path("rf.csv");
    tu_ccsim(&r, "sweep %s -j 1 -o %s", sw, csv);
    ck_assert_msg(r.status == 1, "%s", r.err);
    ck_assert_msg(strstr(r.err, "3 points: 1 run, 0 already in the CSV, 1 skipped, 1 failed"), "%s",
                  r.err);
    FILE *f = fopen(csv, "a"); /* a row for the refused point (pingpong on 4 threads) */
    ck_assert_ptr_nonnull(f);
    fputs("teach-xbar,pingpong,4,3,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,,0,0,0,0,0,0,0,0,0\n", f);
    fclose(f);
    tu_ccsim(&r, "sweep %s --resume -o %s", sw, csv);
    ck_assert_msg(r.status == 1, "%s", r.err);
    ck_assert_msg(strstr(r.err, "failed a check (its row is in the CSV)"), "%s", r.err);
    ck_assert_msg(strstr(r.err, "3 points: 0 run, 1 already in the CSV, 1 skipped, 1 failed"), "%s",
                  r.err);
}
END_TEST

START_TEST(test_refused_point_skipped)
{
    const char *sw = sweep_file("ping.sweep", "  configs = [\"teach-xbar\"];\n"
                                              "  workloads = [\"pingpong\"];\n"
                                              "  threads = [2, 4];\n"
                                              "  iterations = 10;\n"
                                              "  seeds = [1, 2, 3];\n");
    tu_ccsim(&r, "sweep %s -j 2", sw);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.err, "6 points: 3 run, 0 already in the CSV, 3 skipped, 0 failed"), "%s",
                  r.err);
    const char *first = strstr(r.err, "skipped: ");
    ck_assert(first != NULL);
    ck_assert_msg(strstr(first + 1, "skipped: ") == NULL, "message printed twice:\n%s", r.err);
    ck_assert_int_eq(count_lines(r.out), 4);
    ck_assert(strstr(r.out, "\nteach-xbar,pingpong,2,10,3,") != NULL);
    ck_assert(strstr(r.out, ",4,10,") == NULL);
}
END_TEST

/* A sweep file's max_time_ns and tune's --max-time bound every run: a
 * point or candidate not finished there fails (no row), exit 1; a point
 * that finishes under it has its row. */
START_TEST(test_sweep_and_tune_time_limit)
{
    const char *spin = tu_write("spin.trace", "ccsim-trace 2\nthreads 2\nline x\nline y\n"
                                              "all: let r = t\nwhile r == 0 {\n"
                                              "  0: write x 1\n  0: write x 2\n"
                                              "  0: read y -> r\n}\nall: mark done\n");
    char body[1024];
    snprintf(body, sizeof body,
             "  configs = [\"teach-xbar\"];\n  workloads = [\"%s\", \"pingpong\"];\n"
             "  threads = [2];\n  iterations = 10;\n  max_time_ns = 50000;\n",
             spin);
    const char *sw = sweep_file("limit.sweep", body);
    tu_ccsim(&r, "sweep %s -j 1", sw);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "not finished at its simulated-time limit; no row") &&
                      strstr(r.err, "simulated-time limit, 50000.000 ns") &&
                      strstr(r.err, "2 points: 1 run, 0 already in the CSV, 0 skipped, 1 failed"),
                  "%s", r.err);
    ck_assert_msg(strstr(r.out, "\nteach-xbar,pingpong,2,10,1,") && !strstr(r.out, "spin.trace"),
                  "%s", r.out);
    tu_ccsim(&r, "tune -c teach-xbar -w m2o -t 4 -i 5 --max-time 100");
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.out, "FAILED: not finished at its simulated-time limit"), "%s", r.out);
    tu_ccsim(&r, "tune -c teach-xbar -w m2o -t 4 -i 5 --max-time 0");
    ck_assert_int_eq(r.status, 2);
    tu_ccsim(&r, "tune -c teach-xbar -w m2o -t 4 -i 5 --max-time 0.0005"); /* under 1 ps */
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "at least 0.001 ns"), "%s", r.err);
}
END_TEST

/* Without MPI, --mpi says so; with it, mpirun -n 2 gives the local rows. */
START_TEST(test_mpi_same_rows)
{
    const char *sw = sweep_file("small.sweep", small_sweep);
    char file[600], cmd[2400];
    snprintf(file, sizeof file, "%s", sw);
    if (!sweep_mpi_built()) {
        tu_ccsim(&r, "sweep %s --mpi", file);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, "built without MPI") != NULL, "%s", r.err);
        return;
    }
    if (system("command -v mpirun >/dev/null 2>&1") != 0)
        return; /* built with MPI, but no launcher here */
    tu_ccsim(&r, "sweep %s -j 1 -o %s", file, tmp_path("local.csv"));
    ck_assert_msg(r.status == 0, "%s", r.err);
    snprintf(cmd, sizeof cmd,
             "mpirun --allow-run-as-root --oversubscribe -n 2 %s sweep %s -o %s "
             ">%s/mpi.out 2>&1 </dev/null",
             CCSIM_BIN, file, tmp_path("mpi.csv"), tu_dir());
    ck_assert_int_eq(system(cmd), 0);
    slurp(tmp_path("local.csv"), csv_a, sizeof csv_a);
    slurp(tmp_path("mpi.csv"), csv_b, sizeof csv_b);
    strip_wall(csv_a, rows_a, sizeof rows_a);
    strip_wall(csv_b, rows_b, sizeof rows_b);
    ck_assert_str_eq(rows_a, rows_b);
}
END_TEST

/* ------------------------------------------------------------- tune */

/* The median printed on a line of tune's output. */
static double median_of(const char *line)
{
    const char *m = strstr(line, "median ");
    const char *nl = strchr(line, '\n');
    ck_assert_msg(m && (!nl || m < nl), "no median in %.80s", line);
    return strtod(m + 7, NULL);
}

START_TEST(test_tune_finds_best)
{
    tu_ccsim(&r, "tune -c teach-xbar -w m2o-tree -t 4 -i 20");
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    const char *best = strstr(r.out, "\nbest:");
    ck_assert_msg(best != NULL, "%s", r.out);
    double b = median_of(best + 1);
    int n = 0;
    for (const char *p = strstr(r.out, "\n  m2o-tree:k="); p && p < best;
         p = strstr(p + 1, "\n  m2o-tree:k=")) {
        double v = median_of(p + 1);
        ck_assert_msg(b <= v, "best %.1f slower than %.80s", b, p + 1);
        n++;
    }
    ck_assert_int_eq(n, 8);
    ck_assert(strstr(r.out, "\nworst:") != NULL);
    ck_assert(strstr(r.out, "\ndefault: m2o-tree ") != NULL);
    /* ties are said: a "best" that was also the "worst" (every candidate at
     * 223.0 ns), and a best shared by three shapes */
    tu_ccsim(&r, "tune -c teach-xbar -w m2o -t 4 -i 5 --json -");
    ck_assert_msg(r.status == 0 &&
                      strstr(r.err, "every candidate that ran has the same median, 223.0 ns: "
                                    "none is best") &&
                      !strstr(r.err, "\nbest:") &&
                      strstr(r.out, "\"best_ties\": [\"m2o:lines=diff\"]"),
                  "%s%s", r.out, r.err);
    tu_ccsim(&r, "tune -c teach-xbar -w bcast-tree -t 4 -i 5");
    ck_assert_msg(strstr(r.out, "\nbest:    bcast-tree:shape=binary ") &&
                      strstr(r.out, "a tie: 3 candidates have that median (also "
                                    "bcast-tree:shape=binomial, bcast-tree:shape=kary:2)\n"),
                  "%s", r.out);
    tu_ccsim(&r, "tune -c teach-xbar -w reduce-binomial -t 4 -i 5");
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    ck_assert_msg(strstr(r.out, "reduce-binomial has nothing to tune") != NULL, "%s", r.out);
    ck_assert(strstr(r.out, "\ndefault: reduce-binomial ") != NULL);
    /* seed 003's radix search: a chain, 2..8 and the flat tree (radix n-1) */
    tu_ccsim(&r, "tune -c knc-5110p -w barrier-radix -t 12 -i 3");
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    ck_assert_msg(strstr(r.out, ": 9 candidates,") && strstr(r.out, "\n  barrier-radix:radix=1 ") &&
                      strstr(r.out, "\n  barrier-radix:radix=8 ") &&
                      strstr(r.out, "\n  barrier-radix:radix=11 ") && !strstr(r.out, "radix=16") &&
                      !strstr(r.out, "nothing to tune"),
                  "%s", r.out);
    tu_ccsim(&r, "tune -c teach-xbar -w pingpong -t 4");
    ck_assert_int_eq(r.status, 2);
    tu_ccsim(&r, "tune -c teach-xbar -w barrier-dissemination");
    ck_assert_int_eq(r.status, 2);
    /* a -w that fixes the parameter is measured as given, not as the default */
    tu_ccsim(&r, "tune -c teach-xbar -w bcast-tree:shape=binary -t 4 -i 3");
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    ck_assert_msg(strstr(r.out, "\ngiven:   bcast-tree:shape=binary "), "%s", r.out);
    ck_assert(strstr(r.out, "default:") == NULL);
    /* a candidate that ran and failed its check says so (tune runs no coherence checker) */
    tu_ccsim(&r, "tune -c teach-xbar -w reduce-dissemination -t 3 -i 3");
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.out, "FAILED a check (value errors 9)\n"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "(ran, and failed a check: see above)"), "%s", r.out);
    ck_assert(strstr(r.out, "violations") == NULL);
}
END_TEST

static Suite *sweep_suite(void)
{
    Suite *s = suite_create("sweep");
    TCase *tc = tcase_create("sweep");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_file_errors);
    tcase_add_test(tc, test_range_expansion);
    tcase_add_test(tc, test_string_array_key);
    tcase_add_test(tc, test_jobs_give_same_rows);
    tcase_add_test(tc, test_resume_after_torn_row);
    tcase_add_test(tc, test_refused_point_skipped);
    tcase_add_test(tc, test_resume_counts_failed_rows);
    tcase_add_test(tc, test_resume_refuses_broken_rows);
    tcase_add_test(tc, test_failed_point_counted_once);
    tcase_add_test(tc, test_csv_regular_file);
    tcase_add_test(tc, test_tune_finds_best);
    tcase_add_test(tc, test_sweep_and_tune_time_limit);
    tcase_add_test(tc, test_mpi_same_rows);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(sweep_suite());
}
