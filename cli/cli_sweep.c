/*
 * cli_sweep.c -- `ccsim sweep FILE [-j JOBS] [-o CSV] [--resume]`: runs every
 * point of a sweep file (cli/sweep.h), JOBS at a time, one CSV row each.
 *
 * Process model: each point runs in a forked child, in-process (no exec):
 * the child generates the workload, builds the machine, runs it and sends
 * its struct sweep_result to the parent through a pipe in one write of
 * fewer than PIPE_BUF bytes, then _exits. A child that dies (a signal, an
 * internal error), deadlocks or reaches its simulated-time limit is a
 * failed point with a message; it has no row, so --resume runs it again.
 *
 * Rows: the parent appends each complete row with one write(2) on an
 * O_APPEND descriptor, then fsync; a killed sweep leaves at most a torn
 * last line, which --resume drops. When every point is done the CSV is
 * rewritten in point order (temp file + rename), so the rows do not depend
 * on -j. Without -o, rows go to stdout in point order at the end.
 */
#include "cli.h"
#include "sweep.h"

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

struct sweep_args {
    const char *file, *csv;
    uint64_t jobs;
    bool resume;
    bool mpi;
};

struct job {
    pid_t pid;
    int fd; /* read end of the child's pipe */
    size_t point;
};

struct sweep_run {
    struct sweep sw;
    const struct sweep_args *a;
    int out;         /* O_APPEND fd of the CSV, -1 for stdout */
    char csv[4096];  /* the CSV's path (-o, a link followed) */
    char **rows;     /* per point: its row (stdout mode, or done this run) */
    uint8_t *done;   /* per point: ROW_NONE, or its row in the CSV (--resume): ROW_OK, ROW_FAILED */
    bool *refused;   /* per point: the generator refuses it (skipped) */
    char **messages; /* refusals already printed */
    size_t nmessages;
    char **keys;    /* per point: its CSV key */
    size_t *by_key; /* point indices sorted by key */
    size_t ran, resumed, skipped, failed, finished, todo;
    struct job *jobs;
    double start;
    bool io_error;
    bool input_error; /* a point's run found its input wrong: exit 2 */
    bool died;        /* a point's run died (ccsim's own failure, a signal): exit 4 */
    struct sweep_mpi mpi;
    int peers_done; /* rank 0: ranks that sent their last message */
};

enum { ROW_NONE, ROW_OK, ROW_FAILED };

/* Ctrl-C: launch no more points, let the running ones finish. SIGTERM (a
 * job scheduler's, timeout's) or a second Ctrl-C: stop the running ones
 * too (no row: --resume runs them again). */
static volatile sig_atomic_t interrupted, terminated, term_by_sigterm;

static void on_signal(int sig)
{
    if (sig == SIGTERM || interrupted) {
        term_by_sigterm = term_by_sigterm || sig == SIGTERM;
        terminated = 1;
    }
    interrupted = 1;
}

/* on_signal for sig, without SA_RESTART: waiting for a point is
 * interrupted (EINTR) and the sweep acts at once (signal() restarts the
 * wait, so a SIGTERM to the sweep alone waited for its points to end). */
static void catch_signal(int sig, bool restart)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = restart ? SA_RESTART : 0;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

/* After a SIGTERM: the running points are ended (once). */
static void stop_jobs(struct sweep_run *r, size_t njobs)
{
    static bool stopped;
    if (!terminated || stopped)
        return;
    stopped = true;
    for (size_t k = 0; k < njobs; k++)
        if (r->jobs[k].pid)
            kill(r->jobs[k].pid, SIGTERM);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------- arguments */

static int parse_sweep_args(int argc, char **argv, struct sweep_args *a)
{
    static const struct option longs[] = {{"jobs", required_argument, NULL, 'j'},
                                          {"output", required_argument, NULL, 'o'},
                                          {"resume", no_argument, NULL, 'R'},
                                          {"mpi", no_argument, NULL, 'M'},
                                          {0}};
    int c, bad = 0;
    optind = 1;
    while ((c = cli_next_opt("sweep", argc, argv, ":j:o:", longs, &bad)) != -1) {
        if (bad)
            return bad;
        if (c == 'j' && !cli_parse_u64("sweep", "-j", optarg, 1, 4096, &a->jobs))
            return SIM_EXIT_INPUT;
        if (c == 'o')
            a->csv = optarg;
        if (c == 'R')
            a->resume = true;
        if (c == 'M' && !sweep_mpi_built())
            return cli_usage_error("sweep", "--mpi: this ccsim was built without MPI (install "
                                            "libopenmpi-dev and rebuild: docs/cluster.md)");
        if (c == 'M')
            a->mpi = true;
    }
    if (optind < argc)
        a->file = argv[optind++];
    if (optind < argc)
        return cli_usage_error("sweep", "unexpected argument '%s'", argv[optind]);
    if (!a->file)
        return cli_usage_error("sweep", "name a SWEEPFILE");
    if (a->resume && !a->csv)
        return cli_usage_error("sweep", "--resume needs -o CSV (the file to continue)");
    return 0;
}

/* ------------------------------------------------------------- the CSV */

static char *read_all(int fd, size_t *len)
{
    size_t cap = 65536;
    char *buf = sim_xmalloc(cap + 1);
    *len = 0;
    ssize_t n;
    while ((n = read(fd, buf + *len, cap - *len)) > 0 || (n < 0 && errno == EINTR)) {
        *len += n > 0 ? (size_t)n : 0;
        if (*len == cap)
            buf = sim_xrealloc(buf, (cap *= 2) + 1);
    }
    buf[*len] = '\0';
    return buf;
}

static bool write_all(int fd, const char *s, size_t len)
{
    while (len) {
        ssize_t n = write(fd, s, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        s += n;
        len -= (size_t)n;
    }
    return true;
}

/* The points' keys, sorted, for find_point. */
static const struct sweep_run *sorting;

static int key_cmp(const void *a, const void *b)
{
    return strcmp(sorting->keys[*(const size_t *)a], sorting->keys[*(const size_t *)b]);
}

static void make_keys(struct sweep_run *r)
{
    size_t n = r->sw.npoints;
    r->keys = sim_xcalloc(n + 1, sizeof *r->keys);
    r->by_key = sim_xcalloc(n + 1, sizeof *r->by_key);
    for (size_t i = 0; i < n; i++) {
        char key[2 * SWEEP_NAME_MAX + 128];
        sweep_point_key(&r->sw, &r->sw.points[i], key, sizeof key);
        r->keys[i] = sim_xstrdup(key);
        r->by_key[i] = i;
    }
    sorting = r;
    qsort(r->by_key, n, sizeof *r->by_key, key_cmp);
}

/* Index of the point whose key is line's key prefix, or npoints. */
static size_t find_point(struct sweep_run *r, const char *line, size_t len)
{
    size_t kl = sweep_row_key_len(line, len);
    size_t lo = 0, hi = kl ? r->sw.npoints : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *k = r->keys[r->by_key[mid]];
        int c = strncmp(k, line, kl);
        if (c == 0 && k[kl] == '\0')
            return r->by_key[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return r->sw.npoints;
}

/* Marks the points the CSV already has, and whether each failed a check
 * (count_todo counts them). A row a sweep does not write, or a second row
 * of a point, is refused with its line: resuming would count a point as
 * run that never ran, or drop a row (rows start on line 2). */
static bool mark_done(struct sweep_run *r, const char *text, size_t len)
{
    const char *p = text;
    size_t *first = sim_xcalloc(r->sw.npoints + 1, sizeof *first); /* a point's row's line */
    bool ok = true;
    for (size_t line = 2; ok && p < text + len; line++) {
        const char *nl = memchr(p, '\n', (size_t)(text + len - p));
        size_t ll = (size_t)(nl - p) + 1;
        size_t i = find_point(r, p, ll);
        char why[256];
        if (!sweep_row_valid(p, ll, why, sizeof why)) {
            fprintf(stderr, "%s:%zu: %s; not resuming (remove the row, or start afresh)\n", r->csv,
                    line, why);
            ok = false;
        } else if (i < r->sw.npoints && first[i]) {
            fprintf(stderr,
                    "%s:%zu: a second row of the point of line %zu; not resuming (keep one of "
                    "them)\n",
                    r->csv, line, first[i]);
            ok = false;
        } else if (i < r->sw.npoints) {
            first[i] = line;
            r->done[i] = sweep_row_failed(p, ll) ? ROW_FAILED : ROW_OK;
        }
        p += ll;
    }
    free(first);
    return ok;
}

/* The CSV is read back and rewritten (temp file + rename): it must be a
 * regular file; a symbolic link to one is followed (the link stays). */
static bool csv_path(struct sweep_run *r)
{
    struct stat st, lst;
    const char *path = r->a->csv;
    snprintf(r->csv, sizeof r->csv, "%s", path);
    if (stat(path, &st) != 0) { /* a new file, or a link to one: the file, so the link stays */
        const char *why = NULL;
        if (cli_written_file(path, r->csv, sizeof r->csv, &why))
            return true;
        fprintf(stderr, "%s: cannot follow the link: %s\n", path, why);
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        fprintf(stderr,
                "%s: not a regular file: the sweep reads its CSV back and rewrites it in "
                "point order (leave out -o for the rows on stdout)\n",
                path);
        return false;
    }
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) && !realpath(path, r->csv)) {
        fprintf(stderr, "%s: cannot follow the link: %s\n", path, strerror(errno));
        return false;
    }
    return true;
}

/* Opens the CSV: fresh, or (--resume) kept with a torn last line dropped. */
static bool open_csv(struct sweep_run *r)
{
    if (!csv_path(r))
        return false;
    const char *path = r->csv;
    int fd = open(path, O_RDWR | O_CREAT | (r->a->resume ? 0 : O_TRUNC), 0644);
    if (fd < 0) {
        fprintf(stderr, "%s: cannot write the CSV: %s\n", path, strerror(errno));
        return false;
    }
    size_t len;
    char *text = read_all(fd, &len);
    size_t hl = strlen(sweep_csv_header);
    /* the header first: a file that is not a sweep's CSV (or has bytes but
     * no line) is left as it is, never cut to the rows it seems to hold */
    if (len < hl && memcmp(text, sweep_csv_header, len) == 0)
        len = 0; /* a torn header: nothing written yet */
    bool ok = !len || (len >= hl && memcmp(text, sweep_csv_header, hl) == 0);
    while (ok && len > hl && text[len - 1] != '\n')
        len--; /* a torn last row */
    if (!ok)
        fprintf(stderr,
                "%s:1: not this ccsim's sweep CSV (the header differs: another file, or an "
                "older ccsim's columns); not resuming\n",
                path);
    if (ok && len) /* before anything is cut: a refused file stays as it was */
        ok = mark_done(r, text + hl, len - hl);
    if (ok && ftruncate(fd, (off_t)len) != 0) {
        fprintf(stderr, "%s: cannot drop the torn last row: %s\n", path, strerror(errno));
        ok = false;
    }
    free(text);
    close(fd);
    r->out = ok ? open(path, O_WRONLY | O_APPEND) : -1;
    if (ok && (r->out < 0 || (!len && !write_all(r->out, sweep_csv_header, hl)))) {
        fprintf(stderr, "%s: cannot write the CSV: %s\n", path, strerror(errno));
        ok = false;
    }
    return ok;
}

/* Writes the rows of text (after the header) to out: rows of no point of
 * this sweep first, in file order, then the points' rows in point order
 * (the first row of a point wins). */
static bool write_sorted(struct sweep_run *r, int out, const char *text, size_t len)
{
    const char **row = sim_xcalloc(r->sw.npoints + 1, sizeof *row);
    size_t *rowlen = sim_xcalloc(r->sw.npoints + 1, sizeof *rowlen);
    bool ok = true;
    size_t foreign = 0;
    for (const char *p = text; ok && p < text + len;) {
        const char *nl = memchr(p, '\n', (size_t)(text + len - p));
        size_t ll = nl ? (size_t)(nl - p) + 1 : (size_t)(text + len - p);
        size_t i = find_point(r, p, ll);
        foreign += i == r->sw.npoints;
        if (i == r->sw.npoints)
            ok = write_all(out, p, ll); /* a row of another sweep: kept */
        else if (!row[i])
            row[i] = p, rowlen[i] = ll;
        p += ll;
    }
    for (size_t i = 0; ok && i < r->sw.npoints; i++)
        ok = !row[i] || write_all(out, row[i], rowlen[i]);
    if (foreign) /* said, not silently carried */
        fprintf(stderr,
                "ccsim sweep: %zu row%s of no point of this sweep kept in the CSV (first: "
                "another sweep's, or points this file no longer has)\n",
                foreign, foreign == 1 ? "" : "s");
    free(row);
    free(rowlen);
    return ok;
}

/* Rewrites the CSV in point order, atomically (temp file + rename). */
static bool sort_csv(struct sweep_run *r)
{
    const char *path = r->csv;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return false;
    size_t len, hl = strlen(sweep_csv_header);
    char *text = read_all(fd, &len);
    close(fd);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    int out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    bool ok = out >= 0 && len >= hl && write_all(out, sweep_csv_header, hl) &&
              write_sorted(r, out, text + hl, len - hl) && fsync(out) == 0;
    if (out >= 0)
        ok &= close(out) == 0;
    ok = ok && rename(tmp, path) == 0;
    if (!ok) {
        fprintf(stderr, "%s: cannot rewrite the CSV in point order: %s\n", path, strerror(errno));
        unlink(tmp);
    }
    free(text);
    return ok;
}

/* Appends a row to the CSV (one write, then fsync), or keeps it for stdout. */
static void put_row(struct sweep_run *r, size_t i, const char *row, size_t len)
{
    if (r->out < 0) {
        r->rows[i] = sim_xstrdup(row);
        return;
    }
    if (!write_all(r->out, row, len) || fsync(r->out) != 0) {
        if (!r->io_error)
            fprintf(stderr, "%s: cannot append a row: %s\n", r->a->csv, strerror(errno));
        r->io_error = true;
    }
}

/* ------------------------------------------------------------- points */

static void point_name(struct sweep_run *r, size_t i, char *buf, size_t size)
{
    const struct sweep_point *p = &r->sw.points[i];
    if (r->sw.trace_path[p->workload]) /* a trace says its own threads and loops */
        snprintf(buf, size, "%s %s --seed %llu", r->sw.configs[p->config], r->sw.specs[p->workload],
                 (unsigned long long)p->seed);
    else
        snprintf(buf, size, "%s %s -t %d -i %ld --seed %llu", r->sw.configs[p->config],
                 r->sw.specs[p->workload], p->threads, p->iterations, (unsigned long long)p->seed);
}

/* Prints a refusal once. */
static void refusal(struct sweep_run *r, const struct sim_diag *d)
{
    if (r->mpi.rank)
        return; /* rank 0 speaks for all */
    for (size_t i = 0; i < r->nmessages; i++)
        if (strcmp(r->messages[i], d->text) == 0)
            return;
    r->messages = sim_xrealloc(r->messages, (r->nmessages + 1) * sizeof *r->messages);
    r->messages[r->nmessages++] = sim_xstrdup(d->text);
    fprintf(stderr, "ccsim sweep: skipped: %s", d->text);
    if (d->len && d->text[d->len - 1] != '\n')
        fputc('\n', stderr);
}

/* True if the generator accepts point i; a refusal is printed once. Points
 * differing only in seed (neighbours: seeds vary fastest) share the answer. */
static bool accepted(struct sweep_run *r, size_t i)
{
    const struct sweep_point *p = &r->sw.points[i], *q = i ? p - 1 : NULL;
    if (q && q->config == p->config && q->workload == p->workload && q->threads == p->threads)
        return !r->refused[i - 1];
    struct sim_diag d;
    sim_diag_init(&d);
    bool ok = sweep_point_accepted(&r->sw, p, &d);
    if (!ok)
        refusal(r, &d);
    return ok;
}

/* The child's stderr, held in a file while its point runs (held.tmp). */
static struct {
    const struct sweep *sw;
    const struct sweep_point *p;
    FILE *tmp;
    int to; /* the sweep's stderr */
} held;

/* What the point printed, passed on to the sweep's stderr in one write
 * under the point's name, so that jobs running at once (-j) do not
 * interleave their lines; once: at the child's end, or by exit() (an
 * internal error's message is not lost). */
static void pass_on_held(void)
{
    FILE *tmp = held.tmp;
    held.tmp = NULL;
    fflush(stderr);
    long n = tmp ? ftell(tmp) : 0;
    if (n <= 0 || fseek(tmp, 0, SEEK_SET) != 0)
        return;
    const struct sweep_point *p = held.p;
    char head[2 * SWEEP_NAME_MAX + 96];
    int h = snprintf(head, sizeof head, "ccsim sweep: %s, %s, %d thread%s, seed %llu:\n",
                     held.sw->configs[p->config], held.sw->specs[p->workload], p->threads,
                     p->threads == 1 ? "" : "s", (unsigned long long)p->seed);
    h = h < (int)sizeof head ? h : (int)sizeof head - 1;
    char *all = sim_xmalloc((size_t)h + (size_t)n);
    memcpy(all, head, (size_t)h);
    size_t got = fread(all + h, 1, (size_t)n, tmp);
    write_all(held.to, all, (size_t)h + got);
    free(all);
}

/* The child: runs point i and sends the result; never returns. */
static _Noreturn void child(struct sweep_run *r, size_t i, int fd)
{
    signal(SIGINT, SIG_IGN);  /* finish the point; the parent stops the sweep */
    signal(SIGTERM, SIG_DFL); /* the parent's SIGTERM (stop_jobs) ends it */
    const struct sweep_point *p = &r->sw.points[i];
    int to = dup(STDERR_FILENO);
    FILE *tmp = to >= 0 ? tmpfile() : NULL;
    if (tmp) {
        held.sw = &r->sw, held.p = p, held.tmp = tmp, held.to = to;
        atexit(pass_on_held);
        dup2(fileno(tmp), STDERR_FILENO);
    }
    dup2(STDERR_FILENO, STDOUT_FILENO); /* stdout may be the CSV */
    struct sweep_result res;
    struct sim_diag d;
    sim_diag_init(&d);
    sweep_run_point(&r->sw, p, &res, &d);
    if (d.count)
        sim_diag_print(&d);
    pass_on_held();
    bool ok = write_all(fd, (const char *)&res, sizeof res);
    _exit(ok ? 0 : SIM_EXIT_FAIL);
}

static bool start_job(struct sweep_run *r, struct job *j, size_t i)
{
    int fds[2];
    if (pipe(fds) != 0)
        return false;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return false;
    }
    if (pid == 0) {
        close(fds[0]);
        child(r, i, fds[1]);
    }
    close(fds[1]);
    *j = (struct job){pid, fds[0], i};
    return true;
}

static void progress(struct sweep_run *r)
{
    if (!isatty(STDERR_FILENO) || !r->todo)
        return;
    double el = now_s() - r->start;
    double eta = r->finished ? el / (double)r->finished * (double)(r->todo - r->finished) : 0;
    fprintf(stderr, "\rccsim sweep: %zu/%zu points, %.0f s elapsed, ETA %.0f s   ", r->finished,
            r->todo, el, eta);
    if (r->finished == r->todo)
        fputc('\n', stderr);
}

/* A finished point's row: to the CSV on rank 0, else to rank 0 (len 0:
 * the point has no row, rank 0 only counts it). */
static void deliver(struct sweep_run *r, size_t point, const char *row, size_t len)
{
    if (r->mpi.rank)
        sweep_mpi_send_row(point, row, len);
    else if (len)
        put_row(r, point, row, len);
}

/* Reads a child's result; false if it sent less than a whole one. */
static bool read_result(int fd, struct sweep_result *res)
{
    size_t got = 0;
    ssize_t n;
    while (got < sizeof *res &&
           ((n = read(fd, (char *)res + got, sizeof *res - got)) > 0 || (n < 0 && errno == EINTR)))
        got += n > 0 ? (size_t)n : 0;
    close(fd);
    return got == sizeof *res;
}

/* A child ended with status st: collect its result, deliver its row. */
static void finish_job(struct sweep_run *r, struct job *j, int st)
{
    struct sweep_result res;
    bool whole = read_result(j->fd, &res) && WIFEXITED(st);
    char name[600], row[SWEEP_ROW_MAX] = "";
    size_t len = 0;
    point_name(r, j->point, name, sizeof name);
    if (!whole && terminated && WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM) {
        fprintf(stderr, "ccsim sweep: %s: stopped (the sweep got %s); no row\n", name,
                term_by_sigterm ? "SIGTERM" : "a second Ctrl-C");
        r->failed++;
    } else if (!whole) {
        fprintf(stderr, "ccsim sweep: %s: the run died (%s %d); no row\n", name,
                WIFSIGNALED(st) ? "signal" : "exit status",
                WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
        r->failed++;
        r->died = true;
    } else if (res.deadlock || res.time_limit) {
        fprintf(stderr, "ccsim sweep: %s: %s; no row\n", name,
                res.deadlock ? "deadlock" : "not finished at its simulated-time limit");
        r->failed++;
    } else if (res.status == SWEEP_INPUT) {
        fprintf(stderr, "ccsim sweep: %s: its input is wrong (the messages above); no row\n", name);
        r->failed++;
        r->input_error = true;
    } else {
        len = sweep_csv_row(&r->sw, &r->sw.points[j->point], &res, row, sizeof row);
        if (res.status != SWEEP_OK)
            fprintf(stderr, "ccsim sweep: %s: failed a check\n", name);
        r->failed += res.status != SWEEP_OK; /* the summary's counts are disjoint */
        r->ran += res.status == SWEEP_OK;
    }
    deliver(r, j->point, row, len);
    j->pid = 0;
    r->finished++;
    progress(r);
}

/* The job of child pid ended with status st. */
static void reaped(struct sweep_run *r, size_t njobs, pid_t pid, int st)
{
    for (size_t k = 0; k < njobs; k++)
        if (r->jobs[k].pid == pid)
            finish_job(r, &r->jobs[k], st);
}

/* Rank 0 of an MPI sweep: handles one message from another rank. */
static bool serve_peer(struct sweep_run *r)
{
    char row[SWEEP_ROW_MAX];
    size_t len = 0, point = 0;
    uint64_t counts[SWEEP_MPI_COUNTS];
    int got = sweep_mpi_poll(row, &len, &point, counts);
    if (got == 1) {
        if (len && point < r->sw.npoints)
            put_row(r, point, row, len);
        r->finished++;
        progress(r);
    } else if (got == 2) {
        r->ran += counts[0];
        r->failed += counts[1];
        r->input_error |= counts[2] != 0;
        r->died |= counts[3] != 0;
        r->peers_done++;
    }
    return got != 0;
}

/* Waits for a child to end, or (rank 0 of an MPI sweep) for either a child
 * or a message from another rank. */
static void wait_some(struct sweep_run *r, size_t njobs, size_t running)
{
    int st;
    if (!r->mpi.on || r->mpi.rank) {
        pid_t pid = waitpid(-1, &st, 0);
        if (pid > 0) /* else EINTR: the caller loops */
            reaped(r, njobs, pid, st);
        return;
    }
    pid_t pid = running ? waitpid(-1, &st, WNOHANG) : 0;
    if (pid > 0)
        reaped(r, njobs, pid, st);
    else if (!serve_peer(r))
        nanosleep(&(struct timespec){0, 1000000}, NULL);
}

static size_t running_jobs(const struct sweep_run *r, size_t njobs)
{
    size_t n = 0;
    for (size_t k = 0; k < njobs; k++)
        n += r->jobs[k].pid != 0;
    return n;
}

/* Runs this rank's points: the k-th point to run goes to rank k % size. */
static void run_points(struct sweep_run *r, size_t njobs)
{
    size_t next = 0, k = 0;
    for (;;) {
        size_t running = running_jobs(r, njobs);
        while (running < njobs && next < r->sw.npoints && !interrupted) {
            size_t i = next++;
            if (r->done[i] || r->refused[i] || k++ % (size_t)r->mpi.size != (size_t)r->mpi.rank)
                continue;
            size_t j = 0;
            while (r->jobs[j].pid)
                j++;
            if (start_job(r, &r->jobs[j], i)) {
                running++;
                continue;
            }
            fprintf(stderr, "ccsim sweep: cannot start a process: %s\n", strerror(errno));
            r->failed++;
            r->finished++;
            deliver(r, i, "", 0);
        }
        bool peers = r->mpi.on && !r->mpi.rank && r->peers_done < r->mpi.size - 1;
        if (!running && !peers)
            return;
        stop_jobs(r, njobs);
        wait_some(r, njobs, running);
    }
}

/* ------------------------------------------------------------- main */

/* The points to run; counts the others once each: skipped (the generator
 * refuses it, whatever the CSV holds), already in the CSV, or failed (its
 * row in the CSV records a failed check). */
static size_t count_todo(struct sweep_run *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->sw.npoints; i++) {
        r->refused[i] = !accepted(r, i);
        if (r->refused[i]) {
            r->skipped++;
        } else if (r->done[i] == ROW_FAILED && !r->mpi.rank) {
            char name[600];
            point_name(r, i, name, sizeof name);
            fprintf(stderr, "ccsim sweep: %s: failed a check (its row is in the CSV)\n", name);
            r->failed++;
        } else if (r->done[i] == ROW_OK) {
            r->resumed++;
        } else if (!r->done[i]) {
            n++;
        }
    }
    return n;
}

static void print_stdout(struct sweep_run *r)
{
    fputs(sweep_csv_header, stdout);
    for (size_t i = 0; i < r->sw.npoints; i++)
        if (r->rows[i])
            fputs(r->rows[i], stdout);
    fflush(stdout);
}

static void free_run(struct sweep_run *r)
{
    for (size_t i = 0; i < r->sw.npoints; i++)
        free(r->rows[i]);
    for (size_t i = 0; i < r->nmessages; i++)
        free(r->messages[i]);
    for (size_t i = 0; r->keys && i < r->sw.npoints; i++)
        free(r->keys[i]);
    free(r->keys);
    free(r->by_key);
    free(r->messages);
    free(r->rows);
    free(r->done);
    free(r->refused);
    free(r->jobs);
    if (r->out >= 0)
        close(r->out);
    sweep_free(&r->sw);
}

static int sweep_status(struct sweep_run *r)
{
    fprintf(stderr,
            "ccsim sweep: %zu point%s: %zu run, %zu already in the CSV, %zu skipped, %zu "
            "failed%s\n",
            r->sw.npoints, r->sw.npoints == 1 ? "" : "s", r->ran, r->resumed, r->skipped, r->failed,
            !interrupted ? ""
            : r->a->csv  ? " (interrupted: --resume continues)"
                         : " (interrupted)");
    if (r->io_error || r->input_error)
        return SIM_EXIT_INPUT;
    if (r->died && !interrupted)
        return SIM_EXIT_INTERNAL;
    return r->failed || interrupted ? SIM_EXIT_FAIL : SIM_EXIT_OK;
}

/* Opens the CSV on rank 0 and tells every rank which points it holds.
 * False (on every rank) if rank 0 could not. */
static bool share_csv(struct sweep_run *r)
{
    int ok = !r->a->csv || r->mpi.rank || open_csv(r);
    if (r->mpi.on)
        sweep_mpi_bcast(&ok, sizeof ok);
    if (ok && r->mpi.on)
        sweep_mpi_bcast(r->done, r->sw.npoints * sizeof *r->done);
    return ok;
}

/* Ends the run: rows in point order, the summary, the exit status. */
static int end_run(struct sweep_run *r)
{
    int status = SIM_EXIT_OK;
    if (r->mpi.rank) {
        uint64_t counts[SWEEP_MPI_COUNTS] = {r->ran, r->failed, r->input_error, r->died};
        sweep_mpi_send_done(counts);
    } else {
        if (r->a->csv && !interrupted && !sort_csv(r))
            r->io_error = true;
        if (!r->a->csv)
            print_stdout(r);
        status = sweep_status(r);
    }
    return sweep_mpi_finish(&r->mpi, status);
}

static int setup_run(struct sweep_run *r)
{
    struct sim_diag d;
    sim_diag_init(&d);
    if (!sweep_load(&r->sw, r->a->file, &d)) {
        if (!r->mpi.rank)
            sim_diag_print(&d);
        return SIM_EXIT_INPUT;
    }
    if (!r->mpi.rank)
        sweep_note_unused_sets(&r->sw);
    size_t n = r->sw.npoints;
    r->rows = sim_xcalloc(n + 1, sizeof *r->rows);
    r->done = sim_xcalloc(n + 1, sizeof *r->done);
    r->refused = sim_xcalloc(n + 1, sizeof *r->refused);
    r->jobs = sim_xcalloc(r->a->jobs, sizeof *r->jobs);
    make_keys(r);
    return share_csv(r) ? 0 : SIM_EXIT_INPUT;
}

int cli_sweep(int argc, char **argv)
{
    struct sweep_args a = {0};
    int bad = parse_sweep_args(argc, argv, &a);
    if (bad)
        return bad;
    struct sweep_run r = {.a = &a, .out = -1, .mpi = {0, 1, false}};
    if (a.mpi || (sweep_mpi_built() && sweep_mpi_launched()))
        sweep_mpi_init(&r.mpi);
    if (!a.jobs) { /* under MPI the ranks are the parallelism */
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        a.jobs = r.mpi.on ? 1 : cpus > 0 ? (uint64_t)cpus : 1;
    }
    int status = setup_run(&r);
    if (status) {
        free_run(&r);
        return sweep_mpi_finish(&r.mpi, status);
    }
    catch_signal(SIGINT, false);
    catch_signal(SIGTERM, false);
    signal(SIGPIPE, SIG_IGN);
    r.todo = count_todo(&r);
    r.start = now_s();
    run_points(&r, (size_t)a.jobs);
    catch_signal(SIGINT, true); /* the rows' output is stdio's, which an EINTR would cut */
    catch_signal(SIGTERM, true);
    status = end_run(&r);
    free_run(&r);
    return status;
}
