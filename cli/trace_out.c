/*
 * trace_out.c -- the Chrome trace-event writer of `ccsim run --trace-out`
 * (the format is described in trace_out.h). Events are formatted as they
 * happen into one growing buffer, indexed by time, and written sorted at the
 * end, so that every track is in time order whatever order they came in.
 */
#include "trace_out.h"
#include "narrate.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PID_THREADS 1
#define PID_LINE0   2 /* line index i is process PID_LINE0 + i */
#define NODE_KEYS   65536u

struct sbuf {
    char *s;
    size_t len, cap;
};

struct ev {
    sim_time_t ts;
    uint64_t seq;
    size_t off, len;
};

/* One line at one cache or home: its state and the flows waiting on it. */
struct track {
    const char *state; /* NULL until its first row */
    sim_time_t since;
    int node;
    int64_t line;
};

struct trace_out {
    struct trace_out_opts o;
    FILE *f;
    const struct wl_program *p;
    const struct core_machine *w;
    struct sim_map names;  /* line number -> line index + 1 */
    struct sim_map tracks; /* line index * NODE_KEYS + node -> struct track */
    int *copies;           /* per line index: caches holding a valid copy */
    bool *copies_at_from;  /* per line index: its count at the window's start is written */
    bool *line_named;
    struct sbuf meta, body;
    size_t thread_names; /* meta's first bytes, the threads' track names: not
                            counted against the cap (they come on top) */
    struct ev *evs;
    size_t nev, cap_ev;
    uint64_t next_flow;
    bool full;      /* past the cap: nothing more is recorded */
    bool cutting;   /* at the cap, the state bars still open are written (cut_open_spans) */
    bool displaces; /* the prime under way takes the way of victim (on_reset) */
    uint64_t victim;
};

/* ------------------------------------------------------------ buffers */

static void sb_vprintf(struct sbuf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        sim_panic("trace_out: bad format");
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + (size_t)n + 1)
            cap *= 2;
        b->s = sim_xrealloc(b->s, cap);
        b->cap = cap;
    }
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

static void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(b, fmt, ap);
    va_end(ap);
}

/* A JSON string (names are the trace's identifiers, but escape anyway). */
static void sb_string(struct sbuf *b, const char *s)
{
    sb_printf(b, "\"");
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            sb_printf(b, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            sb_printf(b, "\\u%04x", (unsigned)*s);
        else
            sb_printf(b, "%c", *s);
    }
    sb_printf(b, "\"");
}

/* Picoseconds as exact microseconds: 1234567 ps -> 1.234567 */
static void sb_us(struct sbuf *b, const char *key, sim_time_t ps)
{
    sb_printf(b, ",\"%s\":%" PRIu64 ".%06" PRIu64, key, ps / 1000000u, ps % 1000000u);
}

/* ------------------------------------------------------------ events */

static bool in_window(const struct trace_out *t, sim_time_t ts)
{
    return ts >= t->o.from && ts <= t->o.to;
}

/* Starts an event at ts; false if nothing more is recorded. */
static bool ev_begin(struct trace_out *t, sim_time_t ts)
{
    if (t->full && !t->cutting)
        return false;
    if (t->nev == t->cap_ev) {
        t->cap_ev = t->cap_ev ? 2 * t->cap_ev : 1024;
        t->evs = sim_xrealloc(t->evs, t->cap_ev * sizeof *t->evs);
    }
    t->evs[t->nev] = (struct ev){.ts = ts, .seq = t->nev, .off = t->body.len};
    return true;
}

static void cut_open_spans(struct trace_out *t);

static void ev_end(struct trace_out *t)
{
    struct ev *e = &t->evs[t->nev++];
    e->len = t->body.len - e->off;
    if (t->full || t->body.len + t->meta.len - t->thread_names + 2 * t->nev + 256 <=
                       t->o.max_bytes) /* + separators, end */
        return;
    t->full = true;
    cut_open_spans(t);
    fprintf(stderr,
            "ccsim run: --trace-out %s: the trace reached its cap of %" PRIu64
            " bytes at %.3f ns simulated; nothing recorded after that is written, the state "
            "bars still open then included (not the operations under way) (raise "
            "--trace-max-bytes); the run goes on\n",
            t->o.path, t->o.max_bytes, (double)sim_now(t->w->k) / SIM_PS_PER_NS);
}

static void ev_head(struct trace_out *t, const char *ph, const char *cat, const char *name, int pid,
                    int tid, sim_time_t ts)
{
    sb_printf(&t->body, "{\"ph\":\"%s\",\"cat\":\"%s\",\"name\":", ph, cat);
    sb_string(&t->body, name);
    sb_printf(&t->body, ",\"pid\":%d,\"tid\":%d", pid, tid);
    sb_us(&t->body, "ts", ts);
}

/* A complete event clipped to the window; args is "" or ",\"args\":{...}". */
static void span(struct trace_out *t, int pid, int tid, const char *cat, const char *name,
                 sim_time_t start, sim_time_t end, const char *args)
{
    if (end < t->o.from || start > t->o.to)
        return;
    sim_time_t s = start > t->o.from ? start : t->o.from;
    sim_time_t e = end < t->o.to ? end : t->o.to;
    if (!ev_begin(t, s))
        return;
    ev_head(t, "X", cat, name, pid, tid, s);
    sb_us(&t->body, "dur", e - s);
    sb_printf(&t->body, "%s}", args);
    ev_end(t);
}

static void meta_name(struct trace_out *t, const char *what, int pid, int tid, const char *name)
{
    if (t->full) /* past the cap: no event of this track will be written */
        return;
    sb_printf(&t->meta,
              "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":", what, pid,
              tid);
    sb_string(&t->meta, name);
    sb_printf(&t->meta, "}},\n");
}

/* ------------------------------------------------------------ threads */

static void on_op(void *ctx, int thread, int core, const struct wl_op *op, sim_time_t start,
                  sim_time_t end, enum core_op_end how)
{
    struct trace_out *t = ctx;
    (void)core;
    char args[512], name[128];
    int n = snprintf(args, sizeof args, ",\"args\":{");
    for (int i = 0; i < op->naddr && n < 400; i++) {
        wl_line_name(t->p, op->addr[i].line, name, sizeof name);
        n += snprintf(args + n, sizeof args - (size_t)n, "%s\"addr%d\":\"%s.%d\"", i ? "," : "", i,
                      name, op->addr[i].word);
    }
    for (int i = 0; i < op->nvalue && n < 450; i++)
        n += snprintf(args + n, sizeof args - (size_t)n, "%s\"value%d\":%" PRId64,
                      op->naddr || i ? "," : "", i, op->value[i]);
    if (op->op == WL_OP_MARK)
        snprintf(name, sizeof name, "mark %s", wl_program_label(t->p, op->label));
    else if (how != CORE_OP_ENDED) /* the run ended with it under way */
        snprintf(name, sizeof name, "%s (unfinished: the run %s)", wl_op_name(op->op),
                 how == CORE_OP_DEADLOCK ? "deadlocked" : "stopped at its time limit");
    snprintf(args + n, sizeof args - (size_t)n, "}");
    span(t, PID_THREADS, thread, "op",
         op->op == WL_OP_MARK || how != CORE_OP_ENDED ? name : wl_op_name(op->op), start, end,
         args);
}

static void on_place(void *ctx, int64_t index, uint64_t number)
{
    struct trace_out *t = ctx;
    sim_map_put(&t->names, number, (void *)(uintptr_t)(index + 1));
}

/* ------------------------------------------------------------ lines */

static int line_pid(int64_t line)
{
    return PID_LINE0 + (int)line;
}

static uint64_t track_key(int64_t line, int node)
{
    return (uint64_t)line * NODE_KEYS + (uint64_t)node;
}

/* The line's track at node, or NULL if the timeline has none yet. */
static struct track *track_find(struct trace_out *t, int64_t line, int node)
{
    return sim_map_get(&t->tracks, track_key(line, node));
}

static struct track *track_get(struct trace_out *t, int64_t line, int node)
{
    struct track *tr = track_find(t, line, node);
    if (tr)
        return tr;
    tr = sim_xcalloc(1, sizeof *tr);
    tr->node = node;
    tr->line = line;
    sim_map_put(&t->tracks, track_key(line, node), tr);
    char name[160];
    if (!t->line_named[line]) {
        t->line_named[line] = true;
        char lname[128];
        wl_line_name(t->p, line, lname, sizeof lname);
        snprintf(name, sizeof name, "line %s", lname);
        meta_name(t, "process_name", line_pid(line), 0, name);
    }
    int cpc = t->w->cores_per_cache > 1 ? t->w->cores_per_cache : 1;
    narrate_node_name(node, t->w->cores / cpc, cpc > 1, t->o.tiles, name, sizeof name);
    meta_name(t, "thread_name", line_pid(line), node, name);
    return tr;
}

/* A copy a load may read: the stable ones and the transients that keep
 * their data (an upgrade's SM_D is still a copy). */
static bool valid_copy(const char *state)
{
    return cc_state_name_readable(state);
}

/* Ends the track's bar; the track has no state until it is given one (a
 * cap this bar reaches cuts the open bars: not this one a second time). */
static void close_state(struct trace_out *t, struct track *tr, sim_time_t now)
{
    const char *state = tr->state;
    tr->state = NULL;
    if (state && strcmp(state, "I") != 0)
        span(t, line_pid(tr->line), tr->node, "state", state, tr->since, now, "");
}

/* A sample of line's "copies" counter: `valid` from ts on. */
static void copies_sample(struct trace_out *t, int64_t line, int valid, sim_time_t ts)
{
    if (!ev_begin(t, ts))
        return;
    ev_head(t, "C", "state", "copies", line_pid(line), 0, ts);
    sb_printf(&t->body, ",\"args\":{\"valid\":%d}}", valid);
    ev_end(t);
}

/* line's copies went from `before` to its count now: a sample if in the
 * window, and first, for a window that opens later than 0, the count it
 * opened with (a bar is cut at the window's start; the counter was not). */
static void copies_changed(struct trace_out *t, int64_t line, int before, sim_time_t now)
{
    if (t->o.from && !t->copies_at_from[line] && now >= t->o.from) {
        t->copies_at_from[line] = true;
        if (before)
            copies_sample(t, line, before, t->o.from);
    }
    if (in_window(t, now))
        copies_sample(t, line, t->copies[line], now);
}

static void set_state(struct trace_out *t, struct track *tr, const char *state, sim_time_t now,
                      bool cache)
{
    const char *was = tr->state;
    close_state(t, tr, now);
    int before = t->copies[tr->line];
    if (cache)
        t->copies[tr->line] += (int)valid_copy(state) - (int)valid_copy(was);
    tr->state = state;
    tr->since = now;
    if (t->copies[tr->line] != before)
        copies_changed(t, tr->line, before, now);
}

/* One end of a flow; the start carries the message's gloss ("means"). */
static void flow_end(struct trace_out *t, const char *ph, uint64_t id, int pid, int tid,
                     sim_time_t ts, const char *name, const char *gloss)
{
    if (!ev_begin(t, ts))
        return;
    ev_head(t, ph, "msg", name, pid, tid, ts);
    sb_printf(&t->body, ",\"id\":%" PRIu64 ",\"bp\":\"e\"", id);
    if (gloss) {
        sb_printf(&t->body, ",\"args\":{\"means\":");
        sb_string(&t->body, gloss);
        sb_printf(&t->body, "}");
    }
    sb_printf(&t->body, "}");
    ev_end(t);
}

/* A flow's end binds to the slice around it on its track ("bp":"e"):
 * where no state bar is drawn there (a server with no state, the SCC's
 * tiles; a copy in I), the end gets a slice of its own, a picosecond
 * long, named by the message (else Perfetto drops the arrow). */
static void flow_anchor(struct trace_out *t, int64_t line, int node, sim_time_t ts,
                        const char *name)
{
    const struct track *tr = track_get(t, line, node);
    if (!tr->state || (strcmp(tr->state, "I") == 0 && tr->since <= ts))
        span(t, line_pid(line), node, "msg", name, ts, ts + 1, "");
}

/* A flow from (from_node, t0) to (to_node, t1) on one line, both ends or none. */
static void flow(struct trace_out *t, int64_t line, int from_node, sim_time_t t0, int to_node,
                 sim_time_t t1, const char *name, const char *gloss)
{
    if (!in_window(t, t0) || !in_window(t, t1) || t->full)
        return;
    uint64_t id = ++t->next_flow;
    size_t start = t->nev;
    flow_end(t, "s", id, line_pid(line), from_node, t0, name, gloss);
    if (t->full) { /* the start reached the cap: drop it, keep the bars cut after it */
        memmove(&t->evs[start], &t->evs[start + 1], (t->nev - start - 1) * sizeof *t->evs);
        t->nev--;
        return;
    }
    flow_end(t, "f", id, line_pid(line), to_node, t1, name, NULL);
    flow_anchor(t, line, from_node, t0, name);
    flow_anchor(t, line, to_node, t1, name);
}

/* Every message is an arrow, named as the tables name it: from its sender
 * when it was sent to the first row it drives at its receiver (a request a
 * busy home parks is drawn to where it was parked). */
static void message_flow(struct trace_out *t, int64_t line, const struct cc_step *st)
{
    if (!st->msg_type || !st->msg_first || st->msg_src < 0 || (unsigned)st->msg_src >= NODE_KEYS)
        return;
    track_get(t, line, st->msg_src); /* names both ends' tracks */
    track_get(t, line, st->node);
    flow(t, line, st->msg_src, st->msg_sent, st->node, st->time, st->msg_type, st->msg_gloss);
}

static void on_step(void *ctx, const struct cc_step *st)
{
    struct trace_out *t = ctx;
    uintptr_t v = (uintptr_t)sim_map_get(&t->names, st->line);
    if (!v || st->node < 0 || (unsigned)st->node >= NODE_KEYS)
        return; /* not a line of the trace */
    int64_t line = (int64_t)v - 1;
    if (strcmp(st->from, "-") == 0) { /* a server with no state (the SCC's): messages only */
        message_flow(t, line, st);
        return;
    }
    struct track *tr = track_get(t, line, st->node);
    if (!tr->state) { /* first seen */
        tr->state = st->from;
        tr->since = st->time;
        int before = t->copies[line];
        t->copies[line] += !st->home && valid_copy(st->from);
        if (t->copies[line] != before)
            copies_changed(t, line, before, st->time);
    }
    if (strcmp(tr->state, st->from) != 0) /* changed with no step (on_reset keeps it so) */
        set_state(t, tr, st->from, st->time, !st->home);
    if (strcmp(st->from, st->to) != 0)
        set_state(t, tr, st->to, st->time, !st->home);
    message_flow(t, line, st);
}

/* ------------------------------------------------------------ open, close */

bool trace_out_parse_window(const char *text, sim_time_t *from, sim_time_t *to)
{
    char *end;
    errno = 0;
    if (!text || *text < '0' || *text > '9')
        return false;
    unsigned long long a = strtoull(text, &end, 10);
    if (errno || *end != ':' || a > UINT64_MAX / SIM_PS_PER_NS)
        return false;
    *from = (sim_time_t)a * SIM_PS_PER_NS;
    *to = UINT64_MAX;
    if (end[1] == '\0')
        return true;
    if (end[1] < '0' || end[1] > '9')
        return false;
    unsigned long long b = strtoull(end + 1, &end, 10);
    if (errno || *end != '\0' || b <= a || b > UINT64_MAX / SIM_PS_PER_NS)
        return false;
    *to = (sim_time_t)b * SIM_PS_PER_NS;
    return true;
}

struct trace_out *trace_out_open(const struct trace_out_opts *o, const struct wl_program *p,
                                 const struct core_machine *w)
{
    FILE *f = fopen(o->path, "w");
    if (!f) {
        fprintf(stderr, "%s: cannot write the trace: %s\n", o->path, strerror(errno));
        return NULL;
    }
    struct trace_out *t = sim_xcalloc(1, sizeof *t);
    t->o = *o;
    t->f = f;
    t->p = p;
    t->w = w;
    sim_map_init(&t->names);
    sim_map_init(&t->tracks);
    size_t lines = (size_t)wl_program_line_count(p) + 1;
    t->copies = sim_xcalloc(lines, sizeof *t->copies);
    t->copies_at_from = sim_xcalloc(lines, sizeof *t->copies_at_from);
    t->line_named = sim_xcalloc(lines, sizeof *t->line_named);
    meta_name(t, "process_name", PID_THREADS, 0, "threads");
    for (int i = 0; i < wl_program_threads(p); i++) {
        char name[64];
        struct wl_pin pin = core_thread_place(p, i, w->cores); /* as the run places it */
        snprintf(name, sizeof name, "thread %d (core %d.%d)", i, pin.core, pin.hw);
        meta_name(t, "thread_name", PID_THREADS, i, name);
    }
    t->thread_names = t->meta.len;
    return t;
}

/* A cache's state letter (cc_state_of) as the tables name the state; NULL
 * for a transient one (a reset runs on a quiet line only). */
static const char *letter_state(char c)
{
    static const char letters[] = "MESOFI";
    static const char *const names[] = {"M", "E", "S", "O", "F", "I"};
    const char *p = c ? strchr(letters, c) : NULL;
    return p ? names[p - letters] : NULL;
}

/* After a reset, every cache and the home of the line take their states
 * now, so that no bar shows a copy the reset dropped. */
static void refresh_tracks(struct trace_out *t, uint64_t line)
{
    uintptr_t v = (uintptr_t)sim_map_get(&t->names, line);
    if (!v)
        return;
    int64_t index = (int64_t)v - 1;
    sim_time_t now = sim_now(t->w->k);
    int cpc = t->w->cores_per_cache > 1 ? t->w->cores_per_cache : 1, caches = t->w->cores / cpc;
    for (int c = 0; c < caches; c++) {
        const char *state = letter_state(cc_state_of(t->w->cc, c * cpc, line));
        struct track *tr = track_find(t, index, c);
        if (!state || (!tr && strcmp(state, "I") == 0))
            continue;
        tr = tr ? tr : track_get(t, index, c);
        if (!tr->state || strcmp(tr->state, state) != 0)
            set_state(t, tr, state, now, true);
    }
    const char *home = cc_home_state_of(t->w->cc, line);
    int node = cc_home_node_of(t->w->cc, line);
    if (home && node >= 0) {
        struct track *tr = track_get(t, index, node);
        if (!tr->state || strcmp(tr->state, home) != 0)
            set_state(t, tr, home, now, false);
    }
}

/* A reset (evict or prime) changes the line's states without a step, and
 * a prime that takes a way of a full set those of the line it displaces. */
static void on_reset(void *ctx, int thread, int core, const struct wl_op *op, uint64_t line,
                     sim_time_t started, bool way_wait, bool done)
{
    struct trace_out *t = ctx;
    (void)thread;
    (void)started;
    (void)way_wait;
    if (!done) {
        t->displaces = op->op == WL_OP_PRIME && cc_prime_victim(t->w->cc, core, line, &t->victim);
        return;
    }
    refresh_tracks(t, line);
    if (t->displaces)
        refresh_tracks(t, t->victim);
}

void trace_out_attach(struct trace_out *t, struct core_run_opts *o)
{
    o->on_place = on_place;
    o->place_ctx = t;
    o->on_op = on_op;
    o->op_ctx = t;
    o->on_reset = on_reset;
    o->reset_ctx = t;
    cc_observe(t->w->cc, on_step, t);
}

struct closing {
    struct trace_out *t;
    sim_time_t end;
};

/* Ends a track's open state bar at c->end; nothing of the track after. */
static void close_track(uint64_t key, void *val, void *ctx)
{
    struct closing *c = ctx;
    struct track *tr = val;
    (void)key;
    close_state(c->t, tr, c->end);
}

/* The cap is reached: every state bar still open ends there, written past
 * the cap (a bar a track each), so that the timeline shows the states up to
 * the cap whole. */
static void cut_open_spans(struct trace_out *t)
{
    struct closing c = {t, sim_now(t->w->k)};
    t->cutting = true;
    sim_map_each(&t->tracks, close_track, &c);
    t->cutting = false;
}

static void free_track(uint64_t key, void *val, void *ctx)
{
    (void)key;
    (void)ctx;
    free(val);
}

static int cmp_ev(const void *a, const void *b)
{
    const struct ev *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void write_events(struct trace_out *t)
{
    qsort(t->evs, t->nev, sizeof *t->evs, cmp_ev);
    fprintf(t->f, "{\"traceEvents\":[\n");
    fwrite(t->meta.s, 1, t->meta.len, t->f);
    fprintf(t->f,
            "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%d,\"tid\":0,"
            "\"args\":{\"sort_index\":-1}}",
            PID_THREADS);
    for (size_t i = 0; i < t->nev; i++) {
        fputs(",\n", t->f);
        fwrite(t->body.s + t->evs[i].off, 1, t->evs[i].len, t->f);
    }
    fprintf(t->f,
            "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"ccsim\":\"%s\",\"truncated\":%s}}\n",
            sim_version(), t->full ? "true" : "false");
}

/* The lines whose count did not change from the window's start on: the
 * count they had then is their count now (a window after the run's end
 * shows nothing, as its bars are not drawn). */
static void copies_at_window_start(struct trace_out *t, sim_time_t end)
{
    if (!t->o.from || t->o.from > end)
        return;
    for (int64_t l = 0; l < wl_program_line_count(t->p); l++)
        if (!t->copies_at_from[l] && t->copies[l])
            copies_sample(t, l, t->copies[l], t->o.from);
}

bool trace_out_close(struct trace_out *t, sim_time_t end)
{
    struct closing c = {t, end};
    copies_at_window_start(t, end);
    sim_map_each(&t->tracks, close_track, &c);
    write_events(t);
    bool ok = !ferror(t->f);
    if (fclose(t->f) != 0)
        ok = false;
    if (!ok)
        fprintf(stderr, "%s: cannot write the trace: %s\n", t->o.path, strerror(errno));
    sim_map_each(&t->tracks, free_track, NULL);
    sim_map_destroy(&t->tracks);
    sim_map_destroy(&t->names);
    free(t->copies);
    free(t->copies_at_from);
    free(t->line_named);
    free(t->meta.s);
    free(t->body.s);
    free(t->evs);
    free(t);
    return ok;
}
