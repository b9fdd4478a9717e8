/*
 * cli_verify.c -- `ccsim verify NAME`: model-checks the tables the
 * simulator runs. It writes the Murphi model (protocols/murphi.c), has
 * rumur turn it into a verifier, compiles that with cc, runs it, and prints
 * the states explored, the time and the verdict; a violation's
 * counterexample is printed as the table rows that ran, in the names
 * `ccsim protocol` and `ccsim explain` use (exit 1).
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct verify_args {
    const char *name;
    struct cc_murphi_opts mo;
    int mutant; /* -1: the protocol as built */
    bool list_mutants;
    const char *keep; /* a folder to keep the model and verifier in */
};

/* ------------------------------------------------------------ processes */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* SIGTERM or Ctrl-C while rumur, cc or the verifier runs: the child is
 * ended too (it would run on, an orphan), the folder removed, and then
 * the signal ends ccsim as it would have. */
static volatile sig_atomic_t stop_signal;
static volatile pid_t running_child;

static void on_stop(int sig)
{
    stop_signal = sig;
    if (running_child > 0)
        kill(running_child, SIGTERM);
}

/* Runs argv with stdout and stderr to files (and `env`, NAME=VALUE, if
 * not NULL); returns its exit status, or -1 if it could not run (127 from
 * the child: not found). */
static int run(char *const argv[], const char *out, const char *err, const char *env)
{
    fflush(stdout);
    if (stop_signal)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int in = open("/dev/null", O_RDONLY);
        if (o < 0 || e < 0 || in < 0)
            _exit(126);
        dup2(in, 0);
        dup2(o, 1);
        dup2(e, 2);
        if (env)
            putenv((char *)env);
        execvp(argv[0], argv);
        _exit(127);
    }
    running_child = pid;
    if (stop_signal) /* it came between the fork and now */
        kill(pid, SIGTERM);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            running_child = 0;
            return -1;
        }
    running_child = 0;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static void print_file(const char *path, FILE *to, int max_lines)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    for (int n = 0; f && n < max_lines && fgets(line, sizeof line, f); n++)
        fputs(line, to);
    if (f)
        fclose(f);
}

/* ------------------------------------------------------------ the verifier's output */

/* The model's state as the counterexample goes: name -> value. */
struct comp {
    char name[96], value[40];
};

struct state_map {
    struct comp *c;
    size_t n, cap;
};

/* A view of one state for cc_murphi_step: the map, and the step's rule
 * parameters ("param:NAME"). */
struct view {
    const struct state_map *m;
    const struct comp *params;
    int nparams;
};

struct trace {
    struct state_map cur, before;
    char rule[32];
    struct comp params[4];
    int nparams;
    bool pending; /* a step whose after-state is still being read */
};

static void map_set(struct state_map *m, const char *name, const char *value)
{
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->c[i].name, name) == 0) {
            snprintf(m->c[i].value, sizeof m->c[i].value, "%.39s", value);
            return;
        }
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 256;
        m->c = realloc(m->c, m->cap * sizeof *m->c);
        if (!m->c)
            sim_panic("out of memory");
    }
    snprintf(m->c[m->n].name, sizeof m->c[m->n].name, "%.95s", name);
    snprintf(m->c[m->n].value, sizeof m->c[m->n].value, "%.39s", value);
    m->n++;
}

static void map_copy(struct state_map *dst, const struct state_map *src)
{
    if (dst->cap < src->n) {
        dst->cap = src->cap;
        dst->c = realloc(dst->c, dst->cap * sizeof *dst->c);
        if (!dst->c)
            sim_panic("out of memory");
    }
    if (src->n)
        memcpy(dst->c, src->c, src->n * sizeof *src->c);
    dst->n = src->n;
}

static const char *view_get(void *ctx, const char *name)
{
    const struct view *v = ctx;
    if (strncmp(name, "param:", 6) == 0) {
        for (int i = 0; i < v->nparams; i++)
            if (strcmp(v->params[i].name, name + 6) == 0)
                return v->params[i].value;
        return NULL;
    }
    for (size_t i = 0; i < v->m->n; i++)
        if (strcmp(v->m->c[i].name, name) == 0)
            return v->m->c[i].value;
    return NULL;
}

/* The text of attribute `key` in an XML line, unescaped, into buf. */
static bool attr(const char *line, const char *key, char *buf, size_t size)
{
    char pat[48];
    snprintf(pat, sizeof pat, "%s=\"", key);
    const char *p = strstr(line, pat);
    if (!p)
        return false;
    p += strlen(pat);
    size_t n = 0;
    for (; *p && *p != '"' && n + 1 < size; p++, n++)
        buf[n] = *p;
    buf[n] = '\0';
    return true;
}

/* &quot; &gt; &lt; &amp; in place. */
static void unescape(char *s)
{
    static const char *const from[] = {"&quot;", "&gt;", "&lt;", "&amp;", "&apos;"};
    static const char to[] = {'"', '>', '<', '&', '\''};
    char *w = s;
    while (*s) {
        size_t i = 0;
        for (; i < SIM_COUNT_OF(from); i++)
            if (strncmp(s, from[i], strlen(from[i])) == 0)
                break;
        if (i < SIM_COUNT_OF(from)) {
            *w++ = to[i];
            s += strlen(from[i]);
        } else
            *w++ = *s++;
    }
    *w = '\0';
}

/* A <transition> line: the rule's name and parameters. */
static void read_transition(struct trace *t, const char *line)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", strstr(line, "<transition>") + 12);
    unescape(buf);
    t->rule[0] = '\0';
    t->nparams = 0;
    const char *q = strchr(buf, '"');
    if (strncmp(buf, "Rule ", 5) == 0 && q) {
        const char *e = strchr(q + 1, '"');
        snprintf(t->rule, sizeof t->rule, "%.*s", e ? (int)(e - q - 1) : 0, q + 1);
    }
    for (const char *p = strstr(line, "<parameter name=\""); p && t->nparams < 4;
         p = strstr(p + 1, "<parameter name=\"")) {
        struct comp *c = &t->params[t->nparams++];
        p += strlen("<parameter name=\"");
        const char *e = strchr(p, '"');
        snprintf(c->name, sizeof c->name, "%.*s", e ? (int)(e - p) : 0, p);
        const char *v = e ? strchr(e, '>') : NULL;
        const char *ve = v ? strchr(v, '<') : NULL;
        snprintf(c->value, sizeof c->value, "%.*s", v && ve ? (int)(ve - v - 1) : 0,
                 v ? v + 1 : "");
    }
}

struct outcome {
    bool summary;
    unsigned long long states, rules;
    char message[512];
    int steps;
};

/* "Assertion failed: /tmp/x/model.m:517.3-81: text" -> "assertion failed:
 * text" (the model is a temporary file); "deadlock" says what it means. */
static void tidy_message(char *m)
{
    static const char pre[] = "Assertion failed: ";
    if (strncmp(m, pre, strlen(pre)) == 0) {
        const char *text = strstr(m + strlen(pre), ": ");
        if (text) {
            char buf[512];
            snprintf(buf, sizeof buf, "assertion failed: %s", text + 2);
            strcpy(m, buf);
        }
    } else if (strcmp(m, "deadlock") == 0)
        strcpy(m, "deadlock: no rule can fire");
}

/* The pending step, now that its after-state is read: its rows. */
static void flush_step(struct trace *t, const struct cc_protocol *p,
                       const struct cc_murphi_opts *mo, struct outcome *oc, FILE *steps)
{
    if (!t->pending)
        return;
    t->pending = false;
    struct view before = {&t->before, t->params, t->nparams}, after = {&t->cur, NULL, 0};
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f || !cc_murphi_step(p, mo, t->rule, view_get, &before, &after, f)) {
        if (f)
            fclose(f);
        free(text);
        return;
    }
    fclose(f);
    oc->steps++;
    int row = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
        if (row++)
            fprintf(steps, "       %s\n", line);
        else
            fprintf(steps, "  %3d  %s\n", oc->steps, line);
    free(text);
}

/* Reads the verifier's XML: the summary, and an error's trace printed as
 * the rows that ran. */
static void read_output(const char *path, const struct cc_protocol *p,
                        const struct cc_murphi_opts *mo, struct outcome *oc, FILE *steps)
{
    FILE *f = fopen(path, "r");
    char line[2048], buf[512];
    struct trace t = {0};
    while (f && fgets(line, sizeof line, f)) {
        if (strstr(line, "<message>")) {
            snprintf(oc->message, sizeof oc->message, "%s", strstr(line, "<message>") + 9);
            char *e = strstr(oc->message, "</message>");
            if (e)
                *e = '\0';
            unescape(oc->message);
            tidy_message(oc->message);
        } else if (strstr(line, "<transition>")) {
            flush_step(&t, p, mo, oc, steps);
            map_copy(&t.before, &t.cur);
            read_transition(&t, line);
            t.pending = t.rule[0] != '\0';
        } else if (strstr(line, "<state_component") && attr(line, "name", buf, sizeof buf)) {
            char value[64] = "";
            attr(line, "value", value, sizeof value);
            map_set(&t.cur, buf, value);
        } else if (strstr(line, "</error>")) {
            flush_step(&t, p, mo, oc, steps);
        } else if (strstr(line, "<summary")) {
            oc->summary = true;
            if (attr(line, "states", buf, sizeof buf))
                oc->states = strtoull(buf, NULL, 10);
            if (attr(line, "rules_fired", buf, sizeof buf))
                oc->rules = strtoull(buf, NULL, 10);
        }
    }
    if (f)
        fclose(f);
    free(t.cur.c);
    free(t.before.c);
}

/* ------------------------------------------------------------ the run */

/* The model's invariants, as it names them, joined by "; ". */
static void invariants(const char *model, char *buf, size_t size)
{
    FILE *f = fopen(model, "r");
    char line[512];
    size_t n = 0;
    buf[0] = '\0';
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "invariant \"", 11) != 0)
            continue;
        char *e = strchr(line + 11, '"');
        if (e && n < size)
            n += (size_t)snprintf(buf + n, size - n, "%s%.*s", n ? "; " : "", (int)(e - line - 11),
                                  line + 11);
    }
    if (f)
        fclose(f);
    if (n < size)
        snprintf(buf + n, size - n, "%severy (state, event) that happens has a row", n ? "; " : "");
}

static void print_header(const struct verify_args *a, const char *what)
{
    const struct cc_murphi_opts *o = &a->mo;
    printf("ccsim verify %s: %d cache%s, %d line%s, %d data values (ages of the last write); "
           "a %s home%s%s; messages delivered in any order\n",
           a->name, o->caches, o->caches > 1 ? "s" : "", o->lines, o->lines > 1 ? "s" : "",
           o->values, o->broadcast ? "broadcast" : "directory",
           o->owned_write_writeback ? ", owned_write_writeback" : "",
           o->retry ? ", a request for a busy line refused and retried" : "");
    if (what)
        printf("mutant %d: %s\n", a->mutant, what);
}

static int tool_failed(const char *tool, int status, const char *err)
{
    if (status == 127)
        fprintf(stderr,
                "ccsim verify: %s is not installed (scripts/setup.sh installs it; Debian: "
                "apt-get install %s)\n",
                tool, strcmp(tool, "gcc") == 0 || strcmp(tool, "cc") == 0 ? "gcc" : tool);
    else {
        fprintf(stderr, "ccsim verify: %s failed (exit %d):\n", tool, status);
        print_file(err, stderr, 30);
    }
    return SIM_EXIT_INPUT;
}

/* The verifier's compiler: $CC; else clang where it is installed (it
 * compiles rumur's megabyte of C at -O0 in a third of gcc's time, 1.3 s
 * against 4.0 for GOLS at 3 caches, and the -O1 builds with their checks
 * take about as long as gcc's); else cc. */
static const char *verifier_cc(void)
{
    const char *cc = getenv("CC");
    if (cc && *cc)
        return cc;
    return cli_on_path("clang") ? "clang" : "cc";
}

static bool write_model(const char *path, const struct cc_protocol *p,
                        const struct cc_murphi_opts *mo)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    cc_protocol_murphi(p, mo, f);
    return fclose(f) == 0;
}

static int verify_in(const char *dir, const struct verify_args *a, const struct cc_protocol *p)
{
    char model[1024], csrc[1024], bin[1024], out[1024], err[1024];
    snprintf(model, sizeof model, "%.900s/model.m", dir);
    snprintf(csrc, sizeof csrc, "%.900s/model.c", dir);
    snprintf(bin, sizeof bin, "%.900s/verifier", dir);
    snprintf(out, sizeof out, "%.900s/verifier.xml", dir);
    snprintf(err, sizeof err, "%.900s/stderr.txt", dir);
    if (!write_model(model, p, &a->mo)) {
        fprintf(stderr, "ccsim verify: cannot write %s: %s\n", model, strerror(errno));
        return SIM_EXIT_INPUT;
    }
    double t0 = now_s();
    char *rumur[] = {"rumur", "--quiet", "--threads", "1", "--deadlock-detection", "stuck",
                     /* every state whole: rumur's changes-only trace can leave out a
                      * change (a channel's slot refilled by the next message), and the
                      * counterexample then names a wrong sender */
                     "--counterexample-trace", "full", "--output-format", "machine-readable",
                     "--output", csrc, model, NULL};
    /* rumur spends most of its time in malloc_consolidate: without fast
     * bins it takes half as long */
    int st = run(rumur, out, err, "GLIBC_TUNABLES=glibc.malloc.mxfast=0");
    if (st != 0)
        return tool_failed("rumur", st, err);
    double t1 = now_s();
    const char *cc = verifier_cc();
    /* a small model checks in well under a second, and a mutant usually
     * fails within its first states: optimising them would take longer than
     * the checking saves (GOLS at 3 caches: gcc 4.0 s at -O0, 4.8 at -O1;
     * clang 1.3 and 7.4) */
    char *opt = (a->mo.caches <= 2 && a->mo.lines == 1) || a->mutant >= 0 ? "-O0" : "-O1";
    char *ccv[] = {(char *)cc, "-std=c11", opt, "-mcx16", "-w", "-o", bin, csrc, "-lpthread", NULL};
    st = run(ccv, out, err, NULL);
    if (st != 0)
        return tool_failed(cc, st, err);
    double t2 = now_s();
    char *ver[] = {bin, NULL};
    st = run(ver, out, err, NULL);
    double t3 = now_s();
    printf("model: rumur %.1f s, %s %.1f s\n", t1 - t0, cc, t2 - t1);
    char *steps = NULL;
    size_t len = 0;
    FILE *sf = open_memstream(&steps, &len);
    struct outcome oc = {0};
    read_output(out, p, &a->mo, &oc, sf);
    fclose(sf);
    if (!oc.summary) {
        fprintf(stderr, "ccsim verify: the verifier ended without a summary (exit %d)\n", st);
        print_file(err, stderr, 30);
        free(steps);
        return SIM_EXIT_INPUT;
    }
    printf("checked: %llu states, %llu rules fired in %.1f s\n", oc.states, oc.rules, t3 - t2);
    if (st == 0 && !oc.message[0]) {
        char inv[1024];
        invariants(model, inv, sizeof inv);
        printf("verdict: pass: %s\n", inv);
        free(steps);
        return SIM_EXIT_OK;
    }
    /* a message channel's bound is the model's; the home's park queue's
     * (HQMAX, a request a cache) is not: past it the tables flood, FAIL */
    bool bound = strstr(oc.message, "channel holds more messages than its bound") != NULL;
    const char *what = oc.message; /* rumur's words for its assert, not a failed property */
    if (bound && strncmp(what, "assertion failed: ", 18) == 0)
        what += 18;
    if (bound)
        printf("verdict: undecided: %s; the check stopped there, before every state was "
               "explored\n"
               "note: the bound is the model's, not a property of the protocol: either the\n"
               "tables send messages without end (a flood), or this size needs more room\n"
               "(--queue N gives every channel N messages; here QC %d, QH %d)\n",
               what, cc_murphi_cache_queue(p, &a->mo), cc_murphi_home_queue(&a->mo));
    else
        printf("verdict: FAIL: %s\n", oc.message[0] ? oc.message : "the verifier failed");
    printf("%s, %d step%s (the rows that ran, in order):\n%s",
           bound ? "the steps that filled it" : "counterexample", oc.steps,
           oc.steps == 1 ? "" : "s", steps);
    free(steps);
    return bound ? SIM_EXIT_UNDECIDED : SIM_EXIT_FAIL;
}

static void remove_dir(const char *dir)
{
    static const char *const files[] = {"model.m", "model.c", "verifier", "verifier.xml",
                                        "stderr.txt"};
    char path[1024];
    for (size_t i = 0; i < SIM_COUNT_OF(files); i++) {
        snprintf(path, sizeof path, "%.900s/%s", dir, files[i]);
        unlink(path);
    }
    rmdir(dir);
}

static int verify(const struct verify_args *a, const struct cc_protocol *p, const char *what)
{
    char dir[1024];
    if (a->keep) {
        snprintf(dir, sizeof dir, "%s", a->keep);
        if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
            fprintf(stderr, "ccsim verify: cannot make %s: %s\n", dir, strerror(errno));
            return SIM_EXIT_INPUT;
        }
    } else {
        const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
        snprintf(dir, sizeof dir, "%s/ccsim-verify-XXXXXX", tmp);
        if (!mkdtemp(dir)) {
            fprintf(stderr, "ccsim verify: cannot make a folder in %s: %s\n", tmp, strerror(errno));
            return SIM_EXIT_INPUT;
        }
    }
    print_header(a, what);
    signal(SIGTERM, on_stop);
    signal(SIGINT, on_stop);
    int status = verify_in(dir, a, p);
    if (!a->keep)
        remove_dir(dir);
    if (stop_signal) {
        fprintf(stderr, "ccsim verify: stopped by signal %d; the check did not finish\n",
                (int)stop_signal);
        fflush(NULL);
        signal(stop_signal, SIG_DFL);
        raise(stop_signal);
    }
    return status;
}

/* ------------------------------------------------------------ the command */

static int parse(int argc, char **argv, struct verify_args *a)
{
    static const struct option longs[] = {{"caches", required_argument, NULL, 'C'},
                                          {"lines", required_argument, NULL, 'L'},
                                          {"values", required_argument, NULL, 'V'},
                                          {"broadcast", no_argument, NULL, 'B'},
                                          {"retry", no_argument, NULL, 'R'},
                                          {"owned-write-writeback", no_argument, NULL, 'W'},
                                          {"mutant", required_argument, NULL, 'm'},
                                          {"mutants", no_argument, NULL, 'l'},
                                          {"keep", required_argument, NULL, 'k'},
                                          {"queue", required_argument, NULL, 'Q'},
                                          {0}};
    int c, bad = 0;
    uint64_t v;
    optind = 1;
    while ((c = cli_next_opt("verify", argc, argv, ":", longs, &bad)) != -1) {
        if (bad)
            return bad;
        if (c == 'B')
            a->mo.broadcast = true;
        else if (c == 'W')
            a->mo.owned_write_writeback = true;
        else if (c == 'l')
            a->list_mutants = true;
        else if (c == 'k')
            a->keep = optarg;
        else if (c == 'm') {
            if (!cli_parse_u64("verify", "--mutant", optarg, 0, 9999, &v))
                return SIM_EXIT_INPUT;
            a->mutant = (int)v;
        } else if (!cli_murphi_opt("verify", c, optarg, &a->mo))
            return SIM_EXIT_INPUT;
    }
    if (optind + 1 < argc)
        return cli_usage_error("verify", "unexpected argument '%s'", argv[optind + 1]);
    if (optind + 1 != argc)
        return cli_usage_error(
            "verify", "name one table protocol (msi, mesi, mesif, mesif-llc, moesi, gols)");
    if (a->list_mutants && a->mutant >= 0)
        return cli_usage_error("verify", "--mutant K or --mutants, not both");
    a->name = argv[optind];
    return 0;
}

static int list_mutants(const struct cc_protocol *p)
{
    char what[256];
    for (int i = 0; i < cc_mutant_count(p); i++) {
        struct cc_protocol *m = cc_mutant_make(p, i, what, sizeof what);
        printf("%3d  %s\n", i, what);
        cc_mutant_free(m);
    }
    return SIM_EXIT_OK;
}

/* Whether the machine the options describe is one a config may build:
 * a model of a home the simulator refuses would check what nobody runs. */
static bool home_options_ok(const struct verify_args *a)
{
    const struct machine_memsys *ms = machine_memsys_find(a->name);
    const char *why = a->mo.owned_write_writeback ? machine_owned_writeback_refusal(ms) : NULL;
    if (why) {
        cli_usage_error("verify", "--owned-write-writeback: %s", why);
        return false;
    }
    why = a->mo.broadcast ? machine_broadcast_refusal(ms) : NULL;
    if (why) {
        cli_usage_error("verify", "--broadcast: %s", why);
        return false;
    }
    return true;
}

int cli_verify(int argc, char **argv)
{
    struct verify_args a = {.mo = {.caches = 3, .lines = 1, .values = 2}, .mutant = -1};
    int status = parse(argc, argv, &a);
    if (status)
        return status;
    const struct cc_protocol *p = cli_table_protocol("verify", a.name);
    if (!p)
        return SIM_EXIT_INPUT;
    if (!home_options_ok(&a))
        return SIM_EXIT_INPUT;
    if (a.list_mutants)
        return list_mutants(p);
    if (a.mutant < 0)
        return verify(&a, p, NULL);
    char what[256];
    struct cc_protocol *m = cc_mutant_make(p, a.mutant, what, sizeof what);
    if (!m)
        return cli_usage_error("verify", "%s has %d mutants (0 to %d)", a.name, cc_mutant_count(p),
                               cc_mutant_count(p) - 1);
    status = verify(&a, m, what);
    cc_mutant_free(m);
    return status;
}
