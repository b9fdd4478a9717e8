#define _XOPEN_SOURCE 700 /* nftw */
#include "testutil.h"

#include <ftw.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char tu_dir_path[256];
static pid_t tu_dir_owner;

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

/* At the exit of the process that made the directory (Check runs each
 * test in a child of its own, which makes its own): every test run would
 * otherwise leave its directories behind in /tmp. */
static void remove_dir(void)
{
    if (tu_dir_path[0] && tu_dir_owner == getpid())
        nftw(tu_dir_path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

const char *tu_dir(void)
{
    if (!tu_dir_path[0]) { /* a child of the process that made it shares it */
        const char *tmp = getenv("TMPDIR");
        tu_dir_owner = getpid();
        snprintf(tu_dir_path, sizeof tu_dir_path, "%s/ccsim-test-%ld", tmp && *tmp ? tmp : "/tmp",
                 (long)tu_dir_owner);
        mkdir(tu_dir_path, 0700); /* or left by an earlier run of this pid */
        atexit(remove_dir);
    }
    return tu_dir_path;
}

int tu_count(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

const char *tu_write(const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tu_dir(), name);
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
    return path;
}

static void slurp(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, size - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
}

void tu_ccsim(struct tu_run *r, const char *fmt, ...)
{
    char args[4096], cmd[8192], out[512], err[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(out, sizeof out, "%s/stdout", tu_dir());
    snprintf(err, sizeof err, "%s/stderr", tu_dir());
    snprintf(cmd, sizeof cmd, "%s %s </dev/null >%s 2>%s", CCSIM_BIN, args, out, err);
    int st = system(cmd);
    if (WIFEXITED(st))
        r->status = WEXITSTATUS(st);
    else
        r->status = 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    slurp(out, r->out, sizeof r->out);
    slurp(err, r->err, sizeof r->err);
}

void tu_config_refused(struct tu_run *r, const char *args, const char *want, const char *want2)
{
    tu_ccsim(r, "config %s", args);
    ck_assert_int_eq(r->status, 2);
    ck_assert_msg(strstr(r->err, want) && (!want2 || strstr(r->err, want2)), "%.3000s", r->err);
}

static int run_suite(Suite *s, bool force_fork)
{
    SRunner *sr = srunner_create(s);
    if (force_fork) /* whatever CK_FORK says */
        srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

int tu_run_suite(Suite *s)
{
    return run_suite(s, false);
}

int tu_run_suite_forked(Suite *s)
{
    return run_suite(s, true);
}

void tu_load_config(const char *name, const char *const *sets, size_t nsets, struct machine_cfg *m)
{
    char path[1024];
    struct sim_diag d;
    sim_diag_init(&d);
    snprintf(path, sizeof path, "%s/%s.cfg", CCSIM_CONFIGS, name);
    ck_assert_msg(machine_load(m, path, sets, nsets, &d), "%s", d.text);
}

const char *tu_slurp(const char *path)
{
    static char *buf;
    static size_t cap;
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    size_t n = 0, got;
    do {
        if (n + 1 >= cap)
            buf = realloc(buf, cap = cap ? 2 * cap : 65536);
        ck_assert(buf != NULL);
        got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
    } while (got > 0);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

bool tu_json_number(const char *json, const char *key, double *out)
{
    char want[128];
    snprintf(want, sizeof want, "\"%s\": ", key);
    const char *p = strstr(json, want);
    if (p)
        *out = strtod(p + strlen(want), NULL);
    return p != NULL;
}

char *tu_print_program(const struct wl_program *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert(f != NULL);
    wl_program_print(f, p);
    fclose(f);
    return buf;
}

void tu_check_roundtrip(const struct wl_program *p)
{
    struct wl_parse_opts opts = {.line_bytes = wl_program_words(p) * WL_WORD_BYTES};
    char *one = tu_print_program(p);
    struct sim_diag d2;
    sim_diag_init(&d2);
    struct wl_program *q = wl_parse_text("printed", one, strlen(one), &opts, &d2);
    ck_assert_msg(q != NULL, "the printed text does not parse:\n%s\n%s", d2.text, one);
    ck_assert_msg(wl_program_equal(p, q), "reparsed program differs:\n%s", one);
    char *two = tu_print_program(q);
    ck_assert_str_eq(one, two);
    free(one);
    free(two);
    wl_program_free(q);
}

/* Whether line[0 .. end) contains `what`. */
static bool line_has(const char *line, const char *end, const char *what)
{
    size_t n = strlen(what);
    for (const char *p = line; p + n <= end; p++)
        if (memcmp(p, what, n) == 0)
            return true;
    return false;
}

void tu_expect_diag(const struct sim_diag *d, const char *prefix, const char *what)
{
    ck_assert_msg(d->count > 0, "no error reported");
    size_t n = strlen(prefix);
    for (const char *line = d->text; *line;) {
        const char *eol = strchr(line, '\n');
        const char *end = eol ? eol : line + strlen(line);
        if (strncmp(line, prefix, n) == 0 && line_has(line, end, what))
            return;
        line = eol ? eol + 1 : end;
    }
    ck_abort_msg("want '%s' on a line starting '%s' in:\n%s", what, prefix, d->text);
}

struct wl_program *tu_round_trip(const char *text, const struct wl_parse_opts *po, const char *what)
{
    struct sim_diag d;
    sim_diag_init(&d);
    struct wl_program *a = wl_parse_text("gen.trace", text, strlen(text), po, &d);
    ck_assert_msg(a != NULL, "%s: %s\n%s", what, d.text, text);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert(f != NULL);
    wl_program_print(f, a);
    fclose(f);
    struct wl_program *b = wl_parse_text("printed.trace", buf, len, po, &d);
    ck_assert_msg(b != NULL, "%s: printed text does not parse: %s", what, d.text);
    ck_assert_msg(wl_program_equal(a, b), "%s: printed program differs", what);
    wl_program_free(b);
    free(buf);
    return a;
}

sim_time_t tu_max_time_ps;

void tu_run_program(const struct machine_cfg *m, const struct wl_program *p, bool check_fatal,
                    struct core_result *res, struct sim_diag *d)
{
    struct machine *mc = machine_build(m, 1, d);
    ck_assert_msg(mc != NULL, "%s", d->text);
    cc_check_enable(mc->cc, check_fatal);
    struct core_machine w;
    machine_view(mc, &w);
    struct core_run_opts o = {
        .watchdog_ps = 100000000000ull, .max_time_ps = tu_max_time_ps, .max_reports = 3};
    core_run(&w, p, &o, res, d);
    machine_free(mc);
}

double tu_median(const struct machine_cfg *m, const char *spec, int n, long iters, bool check)
{
    struct sim_diag d;
    sim_diag_init(&d);
    struct wl_program *p = machine_generate(spec, n, iters, m, &d);
    ck_assert_msg(p != NULL, "%s -t %d on %s: %s", spec, n, m->machine.name, d.text);
    struct core_result r;
    tu_run_program(m, p, check, &r, &d);
    ck_assert_msg(!r.deadlock && !r.input_error && r.value_errors == 0 &&
                      r.coherence_violations == 0 && r.iterations == (uint64_t)iters,
                  "%s -t %d on %s: deadlock %d, input error %d, value errors %llu, violations "
                  "%llu, iterations %llu: %s",
                  spec, n, m->machine.name, r.deadlock, r.input_error,
                  (unsigned long long)r.value_errors, (unsigned long long)r.coherence_violations,
                  (unsigned long long)r.iterations, d.text);
    double median = r.latency.median;
    core_result_free(&r);
    wl_program_free(p);
    return median;
}

void tu_run_text(const struct machine_cfg *m, const char *name, const char *text,
                 struct core_result *res, struct sim_diag *d)
{
    struct wl_parse_opts po = {(int)m->machine.line_bytes, (int)m->machine.cores,
                               (int)m->machine.threads_per_core};
    sim_diag_init(d);
    struct wl_program *p = wl_parse_text(name, text, strlen(text), &po, d);
    ck_assert_msg(p != NULL, "%s", d->text);
    tu_run_program(m, p, true, res, d);
    wl_program_free(p);
}

bool tu_small_scale(void)
{
    const char *scale = getenv("CCSIM_TEST_SCALE");
    return scale && strcmp(scale, "small") == 0;
}
