/*
 * sweep.c -- the sweep file (schema-checked), range expansion, the points,
 * one point run in-process, and the CSV row format (sweep.h).
 */
#include "cli.h"
#include "sweep.h"

#include <stdint.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------- the file */

static const struct cfg_key sweep_keys[] = {
    CFG_STRING_ARRAY_KEY(struct sweep, configs, nconfigs, true,
                         "machine configs: shipped names or paths, each with optional "
                         "overrides: \"CONFIG --set G.K=V ...\""),
    CFG_STRING_ARRAY_KEY(struct sweep, workloads, nworkloads, true,
                         "generator specs NAME[:k=v,...] (a value A..B is a range) or trace "
                         "files"),
    CFG_INT_ARRAY_KEY(struct sweep, threads, nthreads, true, 1, 4096, NULL, "thread counts"),
    CFG_INT_KEY(struct sweep, iterations, false, 1, 1000000000, NULL, "iterations of every point"),
    CFG_INT_ARRAY_KEY(struct sweep, seeds, nseeds, false, 0, 9007199254740991.0, NULL,
                      "random seeds"),
    CFG_FLOAT_KEY(struct sweep, max_time_ns, false, 0.001, 1e15, "ns",
                  "simulated-time limit of every point's run (default 1e10: 10 s)"),
};

/* Reports an empty list at its line. */
static bool check_nonempty(const struct cfg_file *cf, const char *path, int n, struct sim_diag *d)
{
    if (n > 0)
        return true;
    sim_diag_add(d, cfg_path(cf), cfg_line(cf, path), "%s is empty (list at least one)", path);
    return false;
}

/* A file named in the sweep: as given (a shipped config's name too, for
 * configs), else relative to the sweep file's folder; false if neither is
 * a regular file. */
static bool sweep_file(const struct sweep *sw, const char *name, char *path, size_t size)
{
    struct stat st;
    snprintf(path, size, "%s", name);
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
        return true;
    if (name[0] == '/')
        return false;
    const char *slash = strrchr(sw->path, '/');
    int dl = slash ? (int)(slash - sw->path) : 1;
    snprintf(path, size, "%.*s/%s", dl, slash ? sw->path : ".", name);
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* "NAME --set G.K=V --set ...": NAME stays in buf, the values go to sets
 * (all split in place, at spaces); false if anything else is there (a word
 * after NAME that is no --set, a --set without its value, more than max). */
static bool split_sets(char *buf, const char **sets, size_t max, size_t *n)
{
    char *save = NULL;
    *n = 0;
    if (buf[0] == ' ' || !strtok_r(buf, " ", &save))
        return false;
    for (char *tok; (tok = strtok_r(NULL, " ", &save));) {
        char *value = strcmp(tok, "--set") == 0 ? strtok_r(NULL, " ", &save) : NULL;
        if (!value || strcmp(value, "--set") == 0 || *n == max)
            return false;
        sets[(*n)++] = value;
    }
    return true;
}

/* A config: a shipped name, a path, or a path relative to the sweep file's
 * folder, with its --set overrides. */
static bool load_config(struct sweep *sw, int i, int line, struct sim_diag *d)
{
    char path[1200], name[SWEEP_NAME_MAX];
    const char *sets[16];
    snprintf(name, sizeof name, "%s", sw->configs[i]);
    size_t nsets;
    if (!split_sets(name, sets, SIM_COUNT_OF(sets), &nsets) || strchr(name, '\t')) {
        sim_diag_add(d, sw->path, line,
                     "sweep.configs: '%s': a config's name may be followed only by up to %zu "
                     "' --set G.K=V'",
                     sw->configs[i], SIM_COUNT_OF(sets));
        return false;
    }
    if (!machine_config_find(name, path, sizeof path) && !sweep_file(sw, name, path, sizeof path)) {
        char hint[1024];
        cli_config_hint(name, NULL, hint, sizeof hint);
        sim_diag_add(d, sw->path, line,
                     "sweep.configs: '%s' is neither a config file nor a shipped config (ccsim "
                     "list configs)%s",
                     name, hint);
        return false;
    }
    if (machine_load(&sw->machines[i], path, sets, nsets, d))
        return true;
    sim_diag_add(d, sw->path, line, "sweep.configs: '%s' does not load (the messages above)",
                 sw->configs[i]);
    return false;
}

void sweep_note_unused_sets(struct sweep *sw)
{
    for (int i = 0; i < sw->nconfigs; i++) {
        char name[SWEEP_NAME_MAX];
        const char *sets[16];
        size_t nsets;
        snprintf(name, sizeof name, "%s", sw->configs[i]);
        if (!split_sets(name, sets, SIM_COUNT_OF(sets), &nsets))
            continue; /* refused by sweep_load */
        char lead[SWEEP_NAME_MAX + 1200];
        snprintf(lead, sizeof lead, "%s: note: sweep.configs: '%s': ", sw->path, sw->configs[i]);
        machine_note_unused_sets(&sw->machines[i], sets, nsets, lead);
    }
}

static bool known_generator(const char *spec)
{
    size_t len = strcspn(spec, ":");
    for (const char *const *g = gen_names; *g; g++)
        if (strlen(*g) == len && strncmp(*g, spec, len) == 0)
            return true;
    return false;
}

/* A trace workload: parsed for every config (its line size, cores), so a
 * trace a machine cannot run is an error of the sweep file, not of a
 * point; its thread count is the trace's. */
static bool add_trace(struct sweep *sw, const char *w, const char *path, int line,
                      struct sim_diag *d)
{
    bool ok = true;
    int threads = 0;
    for (int c = 0; c < sw->nconfigs && ok; c++) {
        const struct machine_cfg *m = &sw->machines[c];
        struct wl_parse_opts po = {(int)m->machine.line_bytes, (int)m->machine.cores,
                                   (int)m->machine.threads_per_core};
        struct wl_program *p = wl_parse_file(path, &po, d);
        ok = p != NULL &&
             core_threads_fit(p, (int)m->machine.cores, (int)m->machine.threads_per_core, d);
        threads = p ? wl_program_threads(p) : 0;
        wl_program_free(p);
        if (!ok)
            sim_diag_add(d, sw->path, line, "sweep.workloads: '%s' cannot run on config '%s'", w,
                         sw->configs[c]);
    }
    char err[128];
    if (ok && !sweep_expand(w, &sw->specs, &sw->nspecs, err, sizeof err)) {
        sim_diag_add(d, sw->path, line, "sweep.workloads: '%s': %s", w, err);
        return false;
    }
    if (!ok)
        return false;
    sw->trace_path = sim_xrealloc(sw->trace_path, sw->nspecs * sizeof *sw->trace_path);
    sw->trace_threads = sim_xrealloc(sw->trace_threads, sw->nspecs * sizeof *sw->trace_threads);
    sw->trace_path[sw->nspecs - 1] = sim_xstrdup(path);
    sw->trace_threads[sw->nspecs - 1] = threads;
    return true;
}

/* The generator specs expanded from one workload (from index `first`): a
 * misspelt parameter or a malformed value is an error of the sweep file;
 * only a point's threads or machine can make a generator refuse it. */
static bool check_specs(const struct sweep *sw, size_t first, int line, struct sim_diag *d)
{
    char where[1400];
    for (size_t k = first; k < sw->nspecs; k++) {
        snprintf(where, sizeof where, "%s:%d: sweep.workloads: '%s'", sw->path, line, sw->specs[k]);
        if (!gen_check_spec(where, sw->specs[k], d))
            return false;
    }
    return true;
}

/* A spec and its place, sorted by the spec, then the place. */
struct spec_at {
    const char *spec;
    size_t k;
};

static int spec_at_cmp(const void *a, const void *b)
{
    const struct spec_at *x = a, *y = b;
    int c = strcmp(x->spec, y->spec);
    return c ? c : (x->k > y->k) - (x->k < y->k);
}

/* A point is one CSV row, found again by its columns on --resume, so a
 * workload listed twice (by two entries, or a range that expands to
 * another entry) would make two points of one row (-o kept one; --resume
 * then ran the other for ever): the first repeated spec is an error of
 * its entry's line (line[k]). Sorted: ranges may give 100000 specs. */
static bool unique_specs(const struct sweep *sw, const int *line, struct sim_diag *d)
{
    struct spec_at *v = sim_xmalloc((sw->nspecs ? sw->nspecs : 1) * sizeof *v);
    for (size_t k = 0; k < sw->nspecs; k++)
        v[k] = (struct spec_at){sw->specs[k], k};
    if (sw->nspecs > 1)
        qsort(v, sw->nspecs, sizeof *v, spec_at_cmp);
    size_t first = SIZE_MAX; /* the earliest spec that repeats one before it */
    for (size_t i = 1; i < sw->nspecs; i++)
        if (strcmp(v[i].spec, v[i - 1].spec) == 0 && v[i].k < first)
            first = v[i].k;
    free(v);
    if (first == SIZE_MAX)
        return true;
    sim_diag_add(d, sw->path, line[first],
                 "sweep.workloads: '%s' is listed twice (a point is one CSV row)",
                 sw->specs[first]);
    return false;
}

/* The same for a list of numbers (threads, seeds). */
static bool unique_numbers(const struct sweep *sw, const struct cfg_file *cf, const char *key,
                           const int64_t *v, int n, struct sim_diag *d)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (v[i] == v[j]) {
                sim_diag_add(d, sw->path, cfg_elem_line(cf, key, i),
                             "%s: %lld is listed twice (a point is one CSV row)", key,
                             (long long)v[i]);
                return false;
            }
    return true;
}

/* The same for the configs, as written (the CSV's config column: one
 * file under two names, or with other --set, are other rows). */
static bool unique_configs(const struct sweep *sw, const struct cfg_file *cf, struct sim_diag *d)
{
    for (int i = 0; i < sw->nconfigs; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(sw->configs[i], sw->configs[j]) == 0) {
                sim_diag_add(d, sw->path, cfg_elem_line(cf, "sweep.configs", i),
                             "sweep.configs: '%s' is listed twice (a point is one CSV row)",
                             sw->configs[i]);
                return false;
            }
    return true;
}

/* Specs first..end-1 come from the entry on `line`. */
static void entry_lines(int **lines, size_t first, size_t end, int line)
{
    *lines = sim_xrealloc(*lines, (end ? end : 1) * sizeof **lines);
    for (size_t k = first; k < end; k++)
        (*lines)[k] = line;
}

/* A workload is a generator spec (its ranges expanded) or a trace file. */
static bool expand_workloads(struct sweep *sw, const struct cfg_file *cf, struct sim_diag *d)
{
    bool ok = true;
    int *lines = NULL; /* each spec's entry's line */
    for (int i = 0; i < sw->nworkloads; i++) {
        const char *w = sw->workloads[i];
        int line = cfg_elem_line(cf, "sweep.workloads", i); /* the entry's own line */
        char err[512], path[1200];
        size_t before = sw->nspecs;
        if (!known_generator(w) && sweep_file(sw, w, path, sizeof path)) {
            ok &= add_trace(sw, w, path, line, d);
            entry_lines(&lines, before, sw->nspecs, line);
            continue;
        }
        if (!known_generator(w)) {
            char hint[256] = "";
            size_t n = 0;
            while (gen_names[n])
                n++;
            sim_suggest(hint, sizeof hint, w, strcspn(w, ":"), gen_names, n, NULL);
            sim_diag_add(d, sw->path, line,
                         "sweep.workloads: '%s' names no generator (ccsim list generators) and no "
                         "trace file%s",
                         w, hint);
            ok = false;
        } else if (!sweep_expand(w, &sw->specs, &sw->nspecs, err, sizeof err)) {
            sim_diag_add(d, sw->path, line, "sweep.workloads: '%s': %s", w, err);
            ok = false;
        } else
            ok &= check_specs(sw, before, line, d);
        entry_lines(&lines, before, sw->nspecs, line);
        sw->trace_path = sim_xrealloc(sw->trace_path, (sw->nspecs + 1) * sizeof *sw->trace_path);
        sw->trace_threads =
            sim_xrealloc(sw->trace_threads, (sw->nspecs + 1) * sizeof *sw->trace_threads);
        for (size_t k = before; k < sw->nspecs; k++) {
            sw->trace_path[k] = NULL;
            sw->trace_threads[k] = 0;
        }
    }
    ok = ok && unique_specs(sw, lines, d);
    free(lines);
    return ok;
}

static bool make_points(struct sweep *sw, int line, struct sim_diag *d)
{
    size_t n = 0; /* a trace is one point per config and seed: its threads are its own */
    for (size_t w = 0; w < sw->nspecs; w++)
        n += (size_t)sw->nconfigs * (sw->trace_path[w] ? 1 : (size_t)sw->nthreads) *
             (size_t)sw->nseeds;
    if (n > SWEEP_MAX_POINTS) {
        sim_diag_add(d, sw->path, line, "the sweep has %zu points (at most %d)", n,
                     SWEEP_MAX_POINTS);
        return false;
    }
    sw->points = sim_xcalloc(n ? n : 1, sizeof *sw->points);
    for (int c = 0; c < sw->nconfigs; c++)
        for (size_t w = 0; w < sw->nspecs; w++)
            for (int t = 0; t < (sw->trace_path[w] ? 1 : sw->nthreads); t++)
                for (int s = 0; s < sw->nseeds; s++)
                    sw->points[sw->npoints++] = (struct sweep_point){
                        c, (int)w, sw->trace_path[w] ? sw->trace_threads[w] : (int)sw->threads[t],
                        sw->trace_path[w] ? 0 : (long)sw->iterations, (uint64_t)sw->seeds[s]};
    return true;
}

static bool check_and_expand(struct sweep *sw, struct cfg_file *cf, struct sim_diag *d)
{
    bool ok = check_nonempty(cf, "sweep.configs", sw->nconfigs, d);
    ok &= check_nonempty(cf, "sweep.workloads", sw->nworkloads, d);
    ok &= check_nonempty(cf, "sweep.threads", sw->nthreads, d);
    ok &= check_nonempty(cf, "sweep.seeds", sw->nseeds, d);
    if (!ok)
        return false;
    ok &= unique_numbers(sw, cf, "sweep.threads", sw->threads, sw->nthreads, d);
    ok &= unique_numbers(sw, cf, "sweep.seeds", sw->seeds, sw->nseeds, d);
    ok &= unique_configs(sw, cf, d);
    sw->machines = sim_xcalloc((size_t)sw->nconfigs, sizeof *sw->machines);
    for (int i = 0; i < sw->nconfigs; i++)
        ok &= load_config(sw, i, cfg_elem_line(cf, "sweep.configs", i), d);
    if (ok) /* traces are parsed for the machines */
        ok = expand_workloads(sw, cf, d);
    return ok && make_points(sw, cfg_line(cf, "sweep"), d);
}

bool sweep_load(struct sweep *sw, const char *path, struct sim_diag *d)
{
    memset(sw, 0, sizeof *sw);
    snprintf(sw->path, sizeof sw->path, "%s", path);
    sw->iterations = 100;
    sw->seeds[0] = 1;
    sw->nseeds = 1;
    struct cfg_file *cf = cfg_open_kind(path, "sweep file", d);
    if (!cf)
        return false;
    const struct cfg_section sec = {
        "sweep", true, sweep_keys, SIM_COUNT_OF(sweep_keys), sw, "the points to run"};
    bool ok = cfg_apply(cf, &sec, 1, d) && check_and_expand(sw, cf, d);
    cfg_close(cf);
    if (!ok)
        sweep_free(sw);
    return ok;
}

void sweep_free(struct sweep *sw)
{
    for (size_t i = 0; i < sw->nspecs; i++) {
        free(sw->specs[i]);
        if (sw->trace_path)
            free(sw->trace_path[i]);
    }
    free(sw->specs);
    free(sw->trace_path);
    free(sw->trace_threads);
    sw->trace_path = NULL;
    sw->trace_threads = NULL;
    free(sw->machines);
    free(sw->points);
    sw->specs = NULL;
    sw->machines = NULL;
    sw->points = NULL;
    sw->nspecs = sw->npoints = 0;
}

/* ------------------------------------------------------------- ranges */

/* Finds the first range "A..B" in a parameter value of spec (after the
 * first ':'); sets [*start, *end) to it. Returns 0 none, 1 found, -1 bad. */
static int find_range(const char *spec, size_t *start, size_t *end, long *a, long *b)
{
    const char *params = strchr(spec, ':');
    const char *dots = params ? strstr(params, "..") : NULL;
    if (!dots)
        return 0;
    const char *s = dots;
    while (s > params + 1 && s[-1] >= '0' && s[-1] <= '9')
        s--;
    if (s < dots && s > params + 2 && s[-1] == '-' && (s[-2] == '=' || s[-2] == ':'))
        s--; /* a negative first value: its sign */
    char *e;
    const char *b_digits = dots + 2 + (dots[2] == '-');
    if (s == dots || *b_digits < '0' || *b_digits > '9')
        return -1;
    errno = 0;
    *a = strtol(s, NULL, 10);
    *b = strtol(dots + 2, &e, 10);
    if (errno || (*e && *e != ',' && *e != '/')) /* errno: past a long, not saturated */
        return -1;
    *start = (size_t)(s - spec);
    *end = (size_t)(e - spec);
    return 1;
}

bool sweep_expand(const char *spec, char ***out, size_t *n, char *err, size_t errsize)
{
    size_t start, end;
    long a, b;
    int found = find_range(spec, &start, &end, &a, &b);
    if (found < 0) {
        snprintf(err, errsize, "a range is two integers A..B (e.g. m=1..4)");
        return false;
    }
    if (found == 0) {
        if (*n >= SWEEP_MAX_POINTS) { /* ranges multiply: stop before memory runs out */
            snprintf(err, errsize, "the ranges expand to more than %d workloads", SWEEP_MAX_POINTS);
            return false;
        }
        if ((*n & (*n - 1)) == 0) /* 0, 1, 2, 4, ...: the array doubles (only this grows it) */
            *out = sim_xrealloc(*out, (*n ? 2 * *n : 1) * sizeof **out);
        (*out)[(*n)++] = sim_xstrdup(spec);
        return true;
    }
    if (a > b || (unsigned long)b - (unsigned long)a >= 10000) { /* b - a may pass LONG_MAX */
        snprintf(err, errsize, "range %ld..%ld is empty or longer than 10000 values", a, b);
        return false;
    }
    size_t len = strlen(spec) + 32;
    char *buf = sim_xmalloc(len);
    bool ok = true;
    for (long k = 0; k <= b - a && ok; k++) { /* by offset: b may be LONG_MAX */
        snprintf(buf, len, "%.*s%ld%s", (int)start, spec, a + k, spec + end);
        ok = sweep_expand(buf, out, n, err, errsize);
    }
    free(buf);
    return ok;
}

/* ------------------------------------------------------------- running */

/* Whether the generator accepts the point; its refusal headed `where`. */
static bool accepts_at(const char *where, const struct machine_cfg *m, const char *spec,
                       int threads, long iterations, struct sim_diag *d)
{
    struct wl_program *p = machine_generate_at(where, spec, threads, iterations, m, d);
    wl_program_free(p);
    return p != NULL;
}

bool sweep_accepts(const struct machine_cfg *m, const char *spec, int threads, long iterations,
                   struct sim_diag *d)
{
    char where[WL_MAX_LINE_CHARS + 8];
    snprintf(where, sizeof where, "-w %s", spec);
    return accepts_at(where, m, spec, threads, iterations, d);
}

static void copy_result(const struct core_result *w, struct sweep_result *r)
{
    r->latency = w->latency;
    r->loads = w->loads;
    r->stores = w->stores;
    r->misses = w->misses;
    r->invalidations = w->invalidations;
    r->poll_refetches = w->poll_refetches;
    r->steals = w->steals;
    r->writebacks = w->writebacks;
    r->network_bytes = w->network_bytes;
    r->value_errors = w->value_errors;
    r->coherence_violations = w->coherence_violations;
    r->events = w->events;
    r->deadlock = w->deadlock;
    r->time_limit = w->time_limit;
    r->wall_s = w->wall_s;
    r->atomics = w->atomics;
    r->handoffs = w->handoffs;
    r->home_queue_ns = w->home_queue_ns;
    r->link_queue_ns = w->link_queue_ns;
    r->measured = w->iterations;
    r->prefetches = w->prefetches;
    r->sw_prefetches = w->sw_prefetches;
    r->line_busy = w->line_busy;
    r->status = w->input_error ? SWEEP_INPUT : core_result_failed(w) ? SWEEP_FAILED : SWEEP_OK;
}

/* A trace's point: parsed for the machine and run as `ccsim run` does. */
/* Builds the machine (seed), runs p on it and keeps the result in r (whose
 * status stays SWEEP_FAILED if the machine cannot be built). */
static void run_program(const struct machine_cfg *m, const struct wl_program *p, uint64_t seed,
                        sim_time_t max_time_ps, struct sweep_result *r, struct sim_diag *d)
{
    struct machine *mc = machine_build(m, seed, d);
    if (!mc)
        return;
    struct core_machine w;
    machine_view(mc, &w);
    struct core_run_opts o = {.watchdog_ps = machine_watchdog_ps(mc, MACHINE_WATCHDOG_PS),
                              .max_time_ps = max_time_ps,
                              .max_reports = 10};
    struct core_result res;
    core_run(&w, p, &o, &res, d);
    copy_result(&res, r);
    core_result_free(&res);
    machine_free(mc);
}

static void run_trace(const struct machine_cfg *m, const char *path, uint64_t seed,
                      sim_time_t max_time_ps, struct sweep_result *r, struct sim_diag *d)
{
    memset(r, 0, sizeof *r);
    r->status = SWEEP_FAILED;
    struct wl_parse_opts po = {(int)m->machine.line_bytes, (int)m->machine.cores,
                               (int)m->machine.threads_per_core};
    struct wl_program *p = wl_parse_file(path, &po, d);
    if (p)
        run_program(m, p, seed, max_time_ps, r, d);
    wl_program_free(p);
}

void sweep_run_point(const struct sweep *sw, const struct sweep_point *p, struct sweep_result *r,
                     struct sim_diag *d)
{
    const struct machine_cfg *m = &sw->machines[p->config];
    sim_time_t max_time = (sim_time_t)(sw->max_time_ns * SIM_PS_PER_NS + 0.5);
    if (sw->trace_path[p->workload])
        run_trace(m, sw->trace_path[p->workload], p->seed, max_time, r, d);
    else
        sweep_run_spec(m, sw->specs[p->workload], p->threads, p->iterations, p->seed, max_time, r,
                       d);
}

bool sweep_point_accepted(const struct sweep *sw, const struct sweep_point *p, struct sim_diag *d)
{
    if (sw->trace_path[p->workload]) /* checked when the sweep was loaded */
        return true;
    char where[WL_MAX_LINE_CHARS + 64];
    snprintf(where, sizeof where, "sweep.workloads '%s'", sw->specs[p->workload]);
    return accepts_at(where, &sw->machines[p->config], sw->specs[p->workload], p->threads,
                      p->iterations, d);
}

void sweep_run_spec(const struct machine_cfg *m, const char *spec, int threads, long iterations,
                    uint64_t seed, sim_time_t max_time_ps, struct sweep_result *r,
                    struct sim_diag *d)
{
    memset(r, 0, sizeof *r);
    r->status = SWEEP_SKIPPED;
    struct wl_program *p = machine_generate(spec, threads, iterations, m, d);
    if (!p)
        return;
    r->status = SWEEP_FAILED;
    run_program(m, p, seed, max_time_ps, r, d);
    wl_program_free(p);
}

/* ------------------------------------------------------------- CSV */

const char sweep_csv_header[] =
    "config,workload,threads,iterations,seed,mean_ns,median_ns,min_ns,max_ns,p10_ns,p90_ns,"
    "loads,stores,misses,invalidations,poll_refetches,steals,writebacks,network_bytes,"
    "value_errors,coherence_violations,events,wall_s,atomics,handoffs,home_queue_ns,"
    "link_queue_ns,prefetches,sw_prefetches,line_busy\n";

/* Appends a CSV field, quoted if it holds a comma, quote or newline. */
static size_t put_field(char *buf, size_t size, size_t len, const char *s)
{
    bool quote = strpbrk(s, ",\"\n\r") != NULL;
    if (quote && len < size)
        buf[len++] = '"';
    for (; *s && len + 2 < size; s++) {
        if (*s == '"')
            buf[len++] = '"';
        buf[len++] = *s;
    }
    if (quote && len < size)
        buf[len++] = '"';
    if (len < size)
        buf[len] = '\0';
    return len;
}

void sweep_point_key(const struct sweep *sw, const struct sweep_point *p, char *buf, size_t size)
{
    size_t len = put_field(buf, size, 0, sw->configs[p->config]);
    if (len < size)
        buf[len++] = ',';
    len = put_field(buf, size, len, sw->specs[p->workload]);
    snprintf(buf + len, len < size ? size - len : 0, ",%d,%ld,%llu", p->threads, p->iterations,
             (unsigned long long)p->seed);
}

size_t sweep_csv_row(const struct sweep *sw, const struct sweep_point *p,
                     const struct sweep_result *r, char *buf, size_t size)
{
    char key[2 * SWEEP_NAME_MAX + 128];
    sweep_point_key(sw, p, key, sizeof key);
    const struct core_stats *l = &r->latency;
    char lat[256] = ",,,,,"; /* no iteration measured: no latency, not 0 */
    if (r->measured)
        snprintf(lat, sizeof lat, "%.3f,%.3f,%.3f,%.3f,%.3f,%.3f", l->mean, l->median, l->min,
                 l->max, l->p10, l->p90);
    /* coherence_violations stays empty: a sweep runs without the checker */
    int n = snprintf(buf, size,
                     "%s,%s,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,"
                     "%llu,,%llu,%.6f,%llu,%llu,%.3f,%.3f,%llu,%llu,%llu\n",
                     key, lat, (unsigned long long)r->loads, (unsigned long long)r->stores,
                     (unsigned long long)r->misses, (unsigned long long)r->invalidations,
                     (unsigned long long)r->poll_refetches, (unsigned long long)r->steals,
                     (unsigned long long)r->writebacks, (unsigned long long)r->network_bytes,
                     (unsigned long long)r->value_errors, (unsigned long long)r->events, r->wall_s,
                     (unsigned long long)r->atomics, (unsigned long long)r->handoffs,
                     r->home_queue_ns, r->link_queue_ns, (unsigned long long)r->prefetches,
                     (unsigned long long)r->sw_prefetches, (unsigned long long)r->line_busy);
    return n > 0 && (size_t)n < size ? (size_t)n : 0;
}

/* Where a row's column `col` (0-based) starts: after `col` unquoted commas;
 * len if the line has fewer. */
static size_t column_start(const char *line, size_t len, int col)
{
    bool quoted = false;
    int commas = 0;
    if (col == 0)
        return 0;
    for (size_t i = 0; i < len && line[i] != '\n'; i++) {
        if (line[i] == '"')
            quoted = !quoted;
        else if (line[i] == ',' && !quoted && ++commas == col)
            return i + 1;
    }
    return len;
}

size_t sweep_row_key_len(const char *line, size_t len)
{
    size_t start = column_start(line, len, 5); /* the key: the five columns before mean_ns */
    return start < len ? start - 1 : 0;
}

/* The index of a column of sweep_csv_header. */
static int header_column(const char *name)
{
    size_t n = strlen(name);
    const char *h = sweep_csv_header;
    for (int col = 0; *h; col++) {
        size_t len = strcspn(h, ",\n");
        if (len == n && strncmp(h, name, n) == 0)
            return col;
        h += len + (h[len] != '\0');
    }
    SIM_ASSERT(!"not a column of the CSV header");
    return -1;
}

/* Column col's text, unquoted columns only (the key's may be quoted). */
static size_t column_text(const char *line, size_t len, int col, char *buf, size_t size)
{
    size_t at = column_start(line, len, col), end = at;
    while (end < len && line[end] != ',' && line[end] != '\n' && line[end] != '\r')
        end++;
    snprintf(buf, size, "%.*s", (int)(end - at), line + at);
    return end - at;
}

static int header_columns(void)
{
    int n = 1;
    for (const char *h = sweep_csv_header; *h; h++)
        n += *h == ',';
    return n;
}

/* Columns after the key, as column_start counts them (the last: its end). */
static int row_columns(const char *line, size_t len)
{
    int col = 1;
    while (column_start(line, len, col) < len)
        col++;
    return col;
}

static bool number_field(const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    return *s >= '0' && *s <= '9' && *end == '\0' && !errno && isfinite(v) && v >= 0;
}

bool sweep_row_valid(const char *line, size_t len, char *why, size_t size)
{
    int want = header_columns(), have = row_columns(line, len);
    if (have != want) {
        snprintf(why, size, "a row of %d column%s where the header has %d", have,
                 have == 1 ? "" : "s", want);
        return false;
    }
    int mean = header_column("mean_ns"), latencies = 0;
    int unchecked = header_column("coherence_violations"); /* a sweep runs no checker */
    for (int col = header_column("threads"); col < want; col++) {
        char f[64];
        size_t n = column_text(line, len, col, f, sizeof f);
        bool latency = col >= mean && col < mean + 6;
        latencies += latency && n == 0;
        if ((n == 0 && (latency || col == unchecked)) ||
            (n > 0 && n < sizeof f - 1 && number_field(f)))
            continue;
        const char *h = sweep_csv_header;
        for (int c = 0; c < col; c++)
            h += strcspn(h, ",") + 1;
        snprintf(why, size, "column %.*s is '%.*s', not the number a sweep writes there",
                 (int)strcspn(h, ",\n"), h, (int)(n < 40 ? n : 40),
                 line + column_start(line, len, col));
        return false;
    }
    if (latencies != 0 && latencies != 6) {
        snprintf(why, size, "%d of the six latency columns are empty (all six are, or none)",
                 latencies);
        return false;
    }
    return true;
}

bool sweep_row_failed(const char *line, size_t len)
{
    size_t at = column_start(line, len, header_column("value_errors"));
    return at < len && line[at] >= '1' && line[at] <= '9';
}
