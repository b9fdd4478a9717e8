/*
 * test_trace_out.c -- `ccsim run --trace-out`: the file is JSON (a small
 * syntax checker below), every track is in time order, every flow start has
 * exactly one finish, --trace-window keeps only its interval and
 * --trace-max-bytes stops the writing with a message, the run going on.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PINGPONG CCSIM_TEST_DIR "/../workloads/traces/pingpong.trace"

static struct tu_run r;

/* ------------------------------------------------------------ JSON syntax */

static const char *ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
        p++;
    return p;
}

static const char *value(const char *p, int depth);

static const char *string(const char *p)
{
    if (*p++ != '"')
        return NULL;
    for (; *p && *p != '"'; p++) {
        if ((unsigned char)*p < 0x20)
            return NULL;
        if (*p == '\\' && !*++p)
            return NULL;
    }
    return *p == '"' ? p + 1 : NULL;
}

static const char *number(const char *p)
{
    const char *s = p;
    if (*p == '-')
        p++;
    if (*p < '0' || *p > '9')
        return NULL;
    while ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E' || *p == '+' ||
           *p == '-')
        p++;
    return p > s ? p : NULL;
}

static const char *members(const char *p, int depth, char close, bool keyed)
{
    p = ws(p + 1);
    if (*p == close)
        return p + 1;
    for (;;) {
        if (keyed) {
            if (!(p = string(ws(p))) || *(p = ws(p)) != ':')
                return NULL;
            p++;
        }
        if (!(p = value(p, depth + 1)))
            return NULL;
        p = ws(p);
        if (*p == close)
            return p + 1;
        if (*p++ != ',')
            return NULL;
    }
}

static const char *value(const char *p, int depth)
{
    p = ws(p);
    if (depth > 64)
        return NULL;
    if (*p == '{')
        return members(p, depth, '}', true);
    if (*p == '[')
        return members(p, depth, ']', false);
    if (*p == '"')
        return string(p);
    for (const char *const *k = (const char *const[]){"true", "false", "null", NULL}; *k; k++)
        if (strncmp(p, *k, strlen(*k)) == 0)
            return p + strlen(*k);
    return number(p);
}

static bool json_valid(const char *text)
{
    const char *end = value(text, 0);
    return end && *ws(end) == '\0';
}

START_TEST(test_json_checker_itself)
{
    ck_assert(json_valid("{\"a\":[1,2.5,-3e2,\"x\\\"y\",true,null,{}]}"));
    ck_assert(!json_valid("{\"a\":[1,2,]}"));
    ck_assert(!json_valid("{\"a\":1"));
    ck_assert(!json_valid("{\"a\" 1}"));
    ck_assert(!json_valid("[1] x"));
}
END_TEST

/* ------------------------------------------------------------ the file */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    ck_assert(s != NULL);
    ck_assert(fread(s, 1, (size_t)n, f) == (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

static const char *trace_path(const char *name)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", tu_dir(), name);
    return path;
}

/* One event line's fields (the writer puts one event a line). */
struct event {
    char ph;
    int pid, tid;
    double ts, dur;
    long id;
};

/* The number after `key` within line[0 .. end), not beyond: a key one event
 * lacks is never taken from a later line. */
static bool num_after(const char *line, const char *end, const char *key, double *out)
{
    size_t k = strlen(key);
    for (const char *p = line; p + k <= end; p++)
        if (memcmp(p, key, k) == 0) {
            *out = strtod(p + k, NULL);
            return true;
        }
    return false;
}

/* Fields of the event on line[0 .. end); false if it is no event line. A
 * field the line lacks keeps its marker (-1). */
static bool parse_event(const char *line, const char *end, struct event *e)
{
    if (end - line < 8 || strncmp(line, "{\"ph\":\"", 7) != 0)
        return false;
    double v;
    memset(e, 0, sizeof *e);
    e->ph = line[7];
    e->ts = e->dur = -1;
    e->id = -1;
    if (num_after(line, end, ",\"pid\":", &v))
        e->pid = (int)v;
    if (num_after(line, end, ",\"tid\":", &v))
        e->tid = (int)v;
    num_after(line, end, ",\"ts\":", &e->ts);
    num_after(line, end, ",\"dur\":", &e->dur);
    if (num_after(line, end, ",\"id\":", &v))
        e->id = (long)v;
    return true;
}

/* The next state span named `name` at or after *at (start: *at = the
 * file's text), parsed into e; false when there is none. */
static bool next_state_span(const char **at, const char *name, struct event *e)
{
    char key[96];
    snprintf(key, sizeof key, "{\"ph\":\"X\",\"cat\":\"state\",\"name\":\"%s\"", name);
    const char *p = strstr(*at, key);
    if (!p)
        return false;
    ck_assert(parse_event(p, strchr(p, '\n'), e));
    *at = p + 1;
    return true;
}

/* Every event has a time; a complete event ('X') has its own duration, and
 * no other kind has one. */
static bool event_fields_ok(const struct event *e)
{
    return e->ts >= 0 && (e->ph == 'X' ? e->dur >= 0 : e->dur == -1);
}

START_TEST(test_event_parser_itself)
{
    /* an instant event, then a span: the instant's fields are its own */
    const char *doc = "{\"ph\":\"i\",\"cat\":\"c\",\"name\":\"x\",\"pid\":1,\"tid\":2,\"ts\":1.5}\n"
                      "{\"ph\":\"X\",\"cat\":\"c\",\"name\":\"y\",\"pid\":3,\"tid\":4,\"ts\":2.0,"
                      "\"dur\":0.25,\"id\":7}\n";
    const char *nl = strchr(doc, '\n');
    struct event e;
    ck_assert(parse_event(doc, nl, &e));
    ck_assert(e.ph == 'i' && e.pid == 1 && e.tid == 2 && e.ts == 1.5);
    ck_assert(e.dur == -1 && e.id == -1); /* not the next line's 0.25 and 7 */
    ck_assert(event_fields_ok(&e));
    ck_assert(parse_event(nl + 1, nl + strlen(nl), &e));
    ck_assert(e.ph == 'X' && e.dur == 0.25 && e.id == 7 && event_fields_ok(&e));
    /* a wrong duration is refused */
    ck_assert(!event_fields_ok(&(struct event){.ph = 'i', .ts = 1, .dur = 0.25}));
    ck_assert(!event_fields_ok(&(struct event){.ph = 'X', .ts = 1, .dur = -1}));
    ck_assert(!event_fields_ok(&(struct event){.ph = 's', .ts = -1, .dur = -1}));
    const char *other = "{\"a\":1}";
    ck_assert(!parse_event(other, other + strlen(other), &e));
}
END_TEST

struct summary {
    int events, spans, ops, flows_s, flows_f, counters;
    double min_ts, max_end;
};

#define MAX_TRACKS 4096
#define MAX_FLOWS  (1 << 20)

/* Checks track order and flow pairing; returns what it saw. */
static struct summary check_events(const char *text)
{
    static double last[MAX_TRACKS];
    static unsigned char s_seen[MAX_FLOWS], f_seen[MAX_FLOWS];
    memset(s_seen, 0, sizeof s_seen);
    memset(f_seen, 0, sizeof f_seen);
    for (int i = 0; i < MAX_TRACKS; i++)
        last[i] = -1;
    struct summary s = {.min_ts = 1e300, .max_end = -1};
    for (const char *line = text, *eol; *line; line = *eol ? eol + 1 : eol) {
        eol = strchr(line, '\n');
        if (!eol)
            eol = line + strlen(line);
        struct event e;
        if (!parse_event(line, eol, &e) || e.ph == 'M')
            continue;
        TU_CHECK(event_fields_ok(&e), "'%c' event with ts %f, dur %f: %.*s", e.ph, e.ts, e.dur,
                 (int)(eol - line), line);
        s.events++;
        int track = e.pid * 64 + e.tid;
        TU_CHECK(track >= 0 && track < MAX_TRACKS, "track %d", track);
        TU_CHECK(e.ts >= last[track], "track %d,%d: %f after %f", e.pid, e.tid, e.ts, last[track]);
        last[track] = e.ts;
        s.min_ts = e.ts < s.min_ts ? e.ts : s.min_ts;
        double end = e.ts + (e.dur > 0 ? e.dur : 0);
        s.max_end = end > s.max_end ? end : s.max_end;
        s.spans += e.ph == 'X';
        s.ops += e.ph == 'X' && e.pid == 1;
        s.counters += e.ph == 'C';
        if (e.ph == 's' || e.ph == 'f') {
            TU_CHECK(e.id > 0 && e.id < MAX_FLOWS, "flow id %ld", e.id);
            unsigned char *seen = e.ph == 's' ? s_seen : f_seen;
            TU_CHECK(!seen[e.id], "flow %ld: two '%c'", e.id, e.ph);
            seen[e.id] = 1;
            TU_CHECK(e.ph == 's' || s_seen[e.id], "flow %ld ends before it starts", e.id);
            s.flows_s += e.ph == 's';
            s.flows_f += e.ph == 'f';
        }
    }
    for (long i = 0; i < MAX_FLOWS; i++)
        TU_CHECK(s_seen[i] == f_seen[i], "flow %ld has no finish", i);
    return s;
}

static struct summary run_traced(const char *extra)
{
    const char *path = trace_path("t.json");
    remove(path);
    tu_ccsim(&r, "run -c %s/teach-xbar.cfg %s --trace-out %s %s", CCSIM_CONFIGS, PINGPONG, path,
             extra);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    char *text = slurp(path);
    ck_assert_msg(json_valid(text), "the trace is not JSON");
    ck_assert(strncmp(text, "{\"traceEvents\":[", 16) == 0);
    struct summary s = check_events(text);
    ck_assert(strstr(text, "\"name\":\"line ping\"") != NULL);
    ck_assert(strstr(text, "\"name\":\"thread 1 (core 1.0)\"") != NULL);
    free(text);
    return s;
}

START_TEST(test_trace_whole_run)
{
    struct summary s = run_traced("");
    ck_assert_int_eq(s.ops, 6000); /* on_op: once per op, 6 per thread and iteration */
    ck_assert_int_gt(s.spans, s.ops);
    ck_assert_int_gt(s.counters, 0);
    ck_assert_int_gt(s.flows_s, 100);
    ck_assert_int_eq(s.flows_s, s.flows_f);
    ck_assert(strstr(r.err, "trace-max-bytes") == NULL);
}
END_TEST

/* A reset changes states with no step: the timeline ends a dropped copy's
 * bar at the reset. On SNB, m2o at 2 threads, core 0 holds the flag in F
 * when iteration 1 opens at 174.265 ns, and the resets drop it there (before
 * its next step, the re-load at 183 ns, would have shown it). */
START_TEST(test_trace_reset_ends_copies)
{
    const char *path = trace_path("reset.json");
    tu_ccsim(&r, "run -c snb-e5-2660 -w m2o -t 2 -i 3 --trace-out %s", path);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *text = slurp(path);
    bool ends_at_reset = false;
    struct event e;
    for (const char *at = text; next_state_span(&at, "F", &e);) {
        ends_at_reset |= e.tid == 0 && e.ts < 0.174265 && fabs(e.ts + e.dur - 0.174265) < 1e-6;
    }
    ck_assert_msg(ends_at_reset, "no F bar of core 0 ends at 0.174265 us");
    free(text);
}
END_TEST

/* A prime into a full set displaces its LRU line: that line's bars end
 * there too. a[0], modified in core 0 (pid 2), leaves its cache at 90 ns
 * when the prime of a[16] takes its way (its M bar ran to the run's end). */
START_TEST(test_trace_displaced_line_ends)
{
    const char *path = trace_path("displace.json");
    const char *trace = tu_write("displace.trace", "ccsim-trace 1\nthreads 2\nline a 24\n"
                                                   "0: write a[0] 7\nall: sync\n"
                                                   "for k 1..23 {\n  0: prime a[k] M\n}\n"
                                                   "1: read a[0]\nall: mark d\n");
    tu_ccsim(&r, "run -c teach-xbar %s --set l1.size_kb=1 --set l1.ways=2 --trace-out %s", trace,
             path);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *text = slurp(path);
    int bars = 0;
    struct event e;
    for (const char *at = text; next_state_span(&at, "M", &e);)
        if (e.pid == 2 && e.tid == 0) {
            bars++;
            ck_assert_msg(fabs(e.ts - 0.075) < 1e-9 && fabs(e.dur - 0.015) < 1e-9,
                          "a[0]'s M bar in core 0: %f + %f us", e.ts, e.dur);
        }
    ck_assert_int_eq(bars, 1);
    free(text);
}
END_TEST

/* An upgrade keeps its copy readable: the "copies" counter of line data
 * (pid 3) counts core 0 in SM_D (it read 0 at 0.230 us, once core 1's copy
 * was invalidated, while core 0's S copy upgraded). Line flag's 0 at 0.104
 * us is true: its data is on its way from core 1 to core 0. */
START_TEST(test_trace_upgrade_keeps_a_copy)
{
    const char *path = trace_path("upgrade.json");
    const char *trace =
        tu_write("upgrade.trace", "ccsim-trace 1\nthreads 2\nline flag\nline data\n"
                                  "for it 0..1 {\n  all: sync\n  0: write data it+5\n"
                                  "  0: write flag it+1\n  1: wait flag >= it+1\n  1: read data\n"
                                  "  all: mark done\n}\n");
    tu_ccsim(&r, "run -c teach-xbar %s --trace-out %s", trace, path);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *text = slurp(path);
    int counters = 0;
    for (const char *at = strstr(text, "\"name\":\"copies\",\"pid\":3,"); at;
         at = strstr(at + 1, "\"name\":\"copies\",\"pid\":3,")) {
        const char *eol = strchr(at, '\n'), *v = strstr(at, "\"valid\":");
        ck_assert(v && v < eol);
        counters++;
        ck_assert_msg(atoi(v + 8) > 0, "a copy counter at 0 while a copy was readable: %.*s",
                      (int)(eol - at), at);
    }
    ck_assert_int_gt(counters, 2);
    free(text);
}
END_TEST

/* A reset sets the home's state too: pingpong's prime of recv1 at 90 ns
 * puts its home in EM, which the home's track shows from then on (it
 * began only at the home's first step, at 107 ns, with no length). */
START_TEST(test_trace_reset_sets_home)
{
    const char *path = trace_path("home.json");
    tu_ccsim(&r, "run -c teach-xbar -w pingpong -t 2 -i 2 --trace-out %s", path);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *text = slurp(path);
    bool from_prime = false, empty = false;
    struct event e;
    for (const char *at = text; next_state_span(&at, "EM", &e);) {
        from_prime |= fabs(e.ts - 0.090) < 1e-9 && e.dur > 0.01;
        empty |= e.dur == 0 && fabs(e.ts - 0.107) < 1e-9;
    }
    ck_assert_msg(from_prime && !empty, "%s", text);
    free(text);
}
END_TEST

/* The cap bounds the events whatever the number of tracks: past it no
 * track's name is written either (a 2000-byte cap wrote 1.9 MB of names). */
START_TEST(test_trace_cap_many_tracks)
{
    const char *path = trace_path("cap.json");
    tu_ccsim(&r,
             "run -c knc-5110p -w bcast-multiline:lines=128 -t 60 -i 2 --trace-out %s "
             "--trace-max-bytes 2000",
             path);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *text = slurp(path);
    ck_assert_msg(strlen(text) < 10000, "%zu bytes", strlen(text)); /* 2000 + 60 threads' names */
    free(text);
    /* the names come on top of the cap: 200 threads' names (18 KB) took a
     * cap of 8000 bytes whole, and the trace held one event */
    tu_ccsim(&r, "run -c knc-5110p -w o2m -t 200 -i 1 --trace-out %s --trace-max-bytes 8000", path);
    ck_assert_msg(r.status == 0, "%s", r.err);
    text = slurp(path);
    struct summary s = check_events(text);
    ck_assert_msg(s.events > 50, "%d events", s.events);
    free(text);
}
END_TEST

/* The SCC's nodes after the cores are tiles, then memory controllers, as
 * explain names them; its servers have no state, so no state bar. */
START_TEST(test_trace_scc_names)
{
    const char *path = trace_path("scc.json");
    tu_ccsim(&r, "run -c scc -w scc-bcast -t 4 -i 1 --trace-out %s", path);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *text = slurp(path);
    ck_assert_msg(strstr(text, "\"name\":\"mc 0\"") && strstr(text, "\"name\":\"tile 0\"") &&
                      !strstr(text, "\"name\":\"home ") &&
                      !strstr(text, "\"cat\":\"state\",\"name\":\"-\""),
                  "names or state bars wrong");
    /* a tile has no state bar: each arrow's end sits on a slice of its own
     * (an end with no slice around it is dropped by Perfetto) */
    ck_assert_msg(strstr(text, "\"ph\":\"X\",\"cat\":\"msg\""), "no anchor slice");
    free(text);
    /* every message has its arrow: the acknowledgements too (they reached
     * the core with no step, so none was drawn) */
    tu_ccsim(&r, "run -c scc -w scc-bcast -t 4 -i 1 --trace-out %s", path);
    text = slurp(path);
    ck_assert_msg(strstr(text, "\"ph\":\"s\",\"cat\":\"msg\",\"name\":\"ACK\""), "no ACK flow");
    free(text);
}
END_TEST

/* A deadlock: each thread's operation under way is drawn to the run's end,
 * named unfinished (it had no end to draw it with). */
START_TEST(test_trace_unfinished_ops)
{
    const char *path = trace_path("stuck.json");
    const char *t = tu_write("stuck.trace", "ccsim-trace 1\nthreads 2\nline f\nall: sync\n"
                                            "1: wait f == 1\nall: mark m\n");
    tu_ccsim(&r, "run -c teach-xbar %s --trace-out %s", t, path);
    ck_assert_int_eq(r.status, 1);
    char *text = slurp(path);
    ck_assert_msg(strstr(text, "\"name\":\"wait (unfinished: the run deadlocked)\""),
                  "no unfinished wait");
    free(text);
}
END_TEST

START_TEST(test_trace_window)
{
    struct summary all = run_traced("");
    struct summary w = run_traced("--trace-window 2000:3000");
    ck_assert_int_gt(w.events, 0);
    ck_assert_int_lt(w.events, all.events / 10);
    ck_assert_msg(w.min_ts >= 2.0 && w.max_end <= 3.0 + 1e-9, "%f..%f", w.min_ts, w.max_end);
    ck_assert_int_eq(w.flows_s, w.flows_f);
    struct summary open = run_traced("--trace-window 100000:");
    ck_assert(open.min_ts >= 100.0);
    ck_assert_int_lt(open.events, all.events);
}
END_TEST

/* A window that opens later than 0 gives each line's copies counter the
 * count it opened with, as it cuts the state bars there: the first sample
 * came at the line's next change (data[0]: from 1.0 to 2.14 us). */
START_TEST(test_trace_window_counter_starts)
{
    const char *path = trace_path("wc.json");
    const char *t = tu_write("wc.trace", "ccsim-trace 1\nthreads 4\npin 0 1 8 9\nline flag\n"
                                         "line data 2\nfor it 0..2 {\n  all: sync\n"
                                         "  0: write data[0] it+5\n  0: write flag it+1\n"
                                         "  1..3: wait flag >= it+1\n  2: read data[0]\n"
                                         "  3: add data[1] 1\n  1: read data[1]\n"
                                         "  all: mark done\n}\n");
    tu_ccsim(&r, "run -c knc-5110p %s --trace-out %s --trace-window 1000:3000", t, path);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *text = slurp(path);
    int at_start = tu_count(text, "\"tid\":0,\"ts\":1.000000,\"args\":{\"valid\"");
    ck_assert_msg(at_start == 2, "%d lines' counts at the window's start: %s", at_start, text);
    free(text);
}
END_TEST

/* Without a pin line the threads' tracks are named where the run puts
 * them: thread i on core i % cores, hardware thread i / cores (threads 4
 * and 5 were "core 4.0", "core 5.0" on a 4-core machine). */
START_TEST(test_trace_thread_names_unpinned)
{
    const char *path = trace_path("names.json");
    const char *t = tu_write("names.trace", "ccsim-trace 1\nthreads 6\nline x\nall: add x 1\n");
    tu_ccsim(&r, "run -c teach-xbar --set machine.threads_per_core=2 %s --trace-out %s", t, path);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *text = slurp(path);
    ck_assert_msg(strstr(text, "\"thread 4 (core 0.1)\"") &&
                      strstr(text, "\"thread 5 (core 1.1)\""),
                  "%s", text);
    free(text);
}
END_TEST

START_TEST(test_trace_size_cap)
{
    struct summary s = run_traced("--trace-max-bytes 64k");
    ck_assert_msg(strstr(r.err, "--trace-out") && strstr(r.err, "raise --trace-max-bytes"), "%s",
                  r.err);
    ck_assert(strstr(r.out, "latency over 500 iterations") != NULL); /* the run completed */
    ck_assert_int_gt(s.events, 0);
    char *text = slurp(trace_path("t.json"));
    ck_assert(strlen(text) < 80000);
    ck_assert(strstr(text, "\"truncated\":true") != NULL);
    /* the state bars open at the cap end there, as the message says (a flow's
     * start that reached the cap dropped them with it) */
    double cap_ns = 0;
    const char *at = strstr(r.err, " bytes at ");
    ck_assert_msg(at && sscanf(at, " bytes at %lf ns", &cap_ns) == 1, "%s", r.err);
    int cut = 0;
    const char *key = "{\"ph\":\"X\",\"cat\":\"state\"";
    for (const char *p = strstr(text, key); p; p = strstr(p + 1, key)) {
        struct event e;
        ck_assert(parse_event(p, strchr(p, '\n'), &e));
        cut += fabs(e.ts + e.dur - cap_ns / 1000) < 1e-6;
    }
    ck_assert_msg(cut > 0, "no state bar ends at the cap, %.3f ns", cap_ns);
    free(text);
}
END_TEST

/* A state bar whose own event reaches the cap is written once: the cut of
 * the bars still open at the cap took it for open (a duplicate bar, at
 * caps of 2000 and 3000 bytes on this trace). */
START_TEST(test_trace_cap_no_duplicate_bar)
{
    const char *trace = tu_write("poll.trace", "ccsim-trace 1\nthreads 3\npin 0 8 1\nline x\n"
                                               "for it 0..2 {\n  all: sync\n  0: write x it+1\n"
                                               "  1..2: wait x >= it+1\n  all: mark d\n}\n");
    const char *path = trace_path("cap.json");
    for (int cap = 2000; cap <= 6000; cap += 500) {
        tu_ccsim(&r, "run -c snb-e5-2660 %s --trace-out %s --trace-max-bytes %d", trace, path, cap);
        ck_assert_msg(r.status == 0, "%s", r.err);
        char *text = slurp(path);
        const char *key = "{\"ph\":\"X\",\"cat\":\"state\"";
        for (const char *p = strstr(text, key); p; p = strstr(p + 1, key)) {
            const char *eol = strchr(p, '\n');
            char bar[256];
            snprintf(bar, sizeof bar, "%.*s", (int)(eol - p), p);
            ck_assert_msg(!strstr(eol, bar), "cap %d: the bar %s twice", cap, bar);
        }
        free(text);
    }
}
END_TEST

START_TEST(test_trace_bad_options)
{
    const char *bad[] = {"--trace-window 5", "--trace-window 3:2", "--trace-window x:4",
                         "--trace-max-bytes 10"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        tu_ccsim(&r, "run -c %s/teach-xbar.cfg %s --trace-out %s %s", CCSIM_CONFIGS, PINGPONG,
                 trace_path("b.json"), bad[i]);
        ck_assert_msg(r.status == 2, "%s: %d", bad[i], r.status);
    }
    tu_ccsim(&r, "run -c %s/teach-xbar.cfg %s --trace-out /no/such/dir/t.json", CCSIM_CONFIGS,
             PINGPONG);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--trace-out /no/such/dir/t.json: cannot write there: its folder "
                                "does not exist"),
                  "%s", r.err);
    tu_ccsim(&r, "explain -c %s/teach-xbar.cfg %s --trace-out x.json", CCSIM_CONFIGS, PINGPONG);
    ck_assert_int_eq(r.status, 2);
}
END_TEST

/* Every message is an arrow named as the tables name it: a three-hop
 * transfer (lab 1: GetX, the home's Fwd_GetX to the owner, the owner's
 * Data_M, the requester's Unblock) shows all four, and no arrow carries an
 * action's name (send_getx). */
START_TEST(test_trace_every_message_an_arrow)
{
    const char *path = trace_path("hops.json");
    tu_ccsim(&r,
             "run -c %s/teach-xbar.cfg %s/../docs/labs/01-false-sharing/same-line.trace "
             "--trace-out %s --trace-window 0:400",
             CCSIM_CONFIGS, CCSIM_TEST_DIR, path);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *text = slurp(path);
    struct summary s = check_events(text);
    const char *names[] = {"GetX", "Fwd_GetX", "Data_M", "Unblock"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char want[64];
        snprintf(want, sizeof want, "{\"ph\":\"s\",\"cat\":\"msg\",\"name\":\"%s\"", names[i]);
        ck_assert_msg(strstr(text, want) != NULL, "no %s arrow", names[i]);
    }
    ck_assert(strstr(text, "\"name\":\"send_") == NULL);
    /* one arrow a message: lab 1's first 400 ns send 4 per transfer */
    ck_assert_int_ge(s.flows_s, 8);
    free(text);
}
END_TEST

static Suite *trace_out_suite(void)
{
    Suite *s = suite_create("trace_out");
    TCase *tc = tcase_create("trace_out");
    tcase_add_test(tc, test_json_checker_itself);
    tcase_add_test(tc, test_event_parser_itself);
    tcase_add_test(tc, test_trace_whole_run);
    tcase_add_test(tc, test_trace_reset_sets_home);
    tcase_add_test(tc, test_trace_cap_many_tracks);
    tcase_add_test(tc, test_trace_scc_names);
    tcase_add_test(tc, test_trace_unfinished_ops);
    tcase_add_test(tc, test_trace_window);
    tcase_add_test(tc, test_trace_window_counter_starts);
    tcase_add_test(tc, test_trace_thread_names_unpinned);
    tcase_add_test(tc, test_trace_reset_ends_copies);
    tcase_add_test(tc, test_trace_displaced_line_ends);
    tcase_add_test(tc, test_trace_upgrade_keeps_a_copy);
    tcase_add_test(tc, test_trace_size_cap);
    tcase_add_test(tc, test_trace_cap_no_duplicate_bar);
    tcase_add_test(tc, test_trace_bad_options);
    tcase_add_test(tc, test_trace_every_message_an_arrow);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(trace_out_suite());
}
