/*
 * plot.c -- gnuplot run as a child process (cli/plot.h): file names beside
 * the PNG, the script's terminal lines, fork/exec with a timeout, and a
 * clear message when gnuplot is not installed.
 */
#include "plot.h"
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

bool plot_files(const char *png_path, struct plot_files *f)
{
    memset(f, 0, sizeof *f);
    const char *slash = strrchr(png_path, '/');
    const char *base = slash ? slash + 1 : png_path;
    size_t dlen = slash ? (size_t)(slash - png_path) : 0;
    size_t blen = strlen(base);
    if (!blen || dlen >= sizeof f->dir || blen + 5 > sizeof f->png) {
        fprintf(stderr, "--plot '%s': expected a file name such as latency.png\n", png_path);
        return false;
    }
    if (slash)
        memcpy(f->dir, png_path, dlen ? dlen : 1); /* "/x.png": the folder is "/" */
    else
        strcpy(f->dir, ".");
    size_t stem = blen > 4 && strcmp(base + blen - 4, ".png") == 0 ? blen - 4 : blen;
    snprintf(f->png, sizeof f->png, "%s", base);
    snprintf(f->dat, sizeof f->dat, "%.*s.dat", (int)stem, base);
    snprintf(f->gp, sizeof f->gp, "%.*s.gp", (int)stem, base);
    return true;
}

bool plot_have_gnuplot(void)
{
    return cli_on_path("gnuplot");
}

bool plot_available(void)
{
    if (cli_on_path("gnuplot"))
        return true;
    fprintf(stderr, "%s\n", PLOT_MISSING);
    return false;
}

static void join(char *buf, size_t n, const char *dir, const char *name)
{
    snprintf(buf, n, "%s/%s", dir, name);
}

FILE *plot_open(const char *dir, const char *name)
{
    char path[1400];
    join(path, sizeof path, dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "%s: cannot write the plot: %s\n", path, strerror(errno));
    return f;
}

bool plot_close(FILE *f, const char *dir, const char *name)
{
    bool ok = !ferror(f);
    if (fclose(f) != 0)
        ok = false;
    if (!ok) {
        char path[1400];
        join(path, sizeof path, dir, name);
        fprintf(stderr, "%s: cannot write the plot: %s\n", path, strerror(errno));
    }
    return ok;
}

void plot_quote(FILE *script, const char *s)
{
    fputc('\'', script);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', script); /* '' is a quote inside '...' */
        fputc(*s, script);
    }
    fputc('\'', script);
}

void plot_png(FILE *script, const char *png_name, int width, int height)
{
    fprintf(script,
            "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) "
            "{ set terminal pngcairo size %d,%d font ',10' } "
            "else { set terminal png size %d,%d }\n",
            width, height, width, height);
    fputs("set output ", script);
    plot_quote(script, png_name);
    fputc('\n', script);
}

/* The child: into dir, stdout to /dev/null, exec; on failure errno goes
 * back through the close-on-exec pipe. */
static void child(const char *dir, const char *script, int errfd)
{
    int e = 0;
    if (chdir(dir) != 0)
        e = -errno; /* negative: the folder, not gnuplot */
    if (!e) {
        int nul = open("/dev/null", O_RDWR);
        if (nul >= 0) {
            dup2(nul, STDIN_FILENO);
            dup2(nul, STDOUT_FILENO);
            close(nul);
        }
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        e = errno;
    }
    if (write(errfd, &e, sizeof e) < 0)
        _exit(126);
    _exit(127);
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Waits for pid at most timeout_s; kills it after. -1: timed out. */
static int wait_child(pid_t pid, unsigned timeout_s)
{
    double until = mono_s() + timeout_s;
    int st = 0;
    for (;;) {
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid)
            return st;
        if (w < 0 && errno != EINTR)
            return st;
        if (mono_s() > until) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            return -1;
        }
        struct timespec nap = {0, 10 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
}

static bool report(const char *dir, const char *script, int exec_errno, int st)
{
    if (exec_errno < 0) {
        fprintf(stderr, "%s: cannot run gnuplot there: %s\n", dir, strerror(-exec_errno));
        return false;
    }
    if (exec_errno == ENOENT) {
        fprintf(stderr, "%s\n", PLOT_MISSING);
        return false;
    }
    if (exec_errno) {
        fprintf(stderr, "%s: cannot run gnuplot: %s\n", dir, strerror(exec_errno));
        return false;
    }
    if (st == -1)
        fprintf(stderr, "%s/%s: gnuplot did not finish in time; killed\n", dir, script);
    else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fprintf(stderr, "%s/%s: gnuplot failed (its messages are above)\n", dir, script);
    else
        return true;
    return false;
}

bool plot_run(const char *dir, const char *script, unsigned timeout_s)
{
    int fds[2];
    if (pipe(fds) != 0 || fcntl(fds[1], F_SETFD, FD_CLOEXEC) != 0) {
        fprintf(stderr, "cannot run gnuplot: %s\n", strerror(errno));
        return false;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "cannot run gnuplot: %s\n", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return false;
    }
    if (pid == 0) {
        close(fds[0]);
        child(dir, script, fds[1]);
    }
    close(fds[1]);
    int e = 0;
    ssize_t got;
    while ((got = read(fds[0], &e, sizeof e)) < 0 && errno == EINTR)
        ;
    close(fds[0]);
    if (got != (ssize_t)sizeof e)
        e = 0;
    int st = wait_child(pid, timeout_s);
    return report(dir, script, e, st);
}
