/*
 * val_plot.c -- `ccsim validate --plot DIR`: one PNG per algorithm drawn by
 * gnuplot, like the figures of seed 000: the model band [T_min, T_max]
 * shaded (filledcurves) and the simulated median with min..max error bars,
 * against the thread count. The data (NAME.dat) and the script (NAME.gp)
 * stay in DIR beside NAME.png. (sim/plot.h did not exist when this was
 * written, so validate has its own small helper.)
 */
#include "validate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

bool val_have_gnuplot(void)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        return false;
    char *copy = strdup(path), *save = NULL;
    bool found = false;
    for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
        char file[4096];
        snprintf(file, sizeof file, "%s/gnuplot", *d ? d : ".");
        found = access(file, X_OK) == 0;
    }
    free(copy);
    return found;
}

void val_plot_name(const char *spec, char *out, size_t size)
{
    size_t i = 0;
    for (; spec[i] && i + 1 < size; i++) {
        char c = spec[i];
        bool plain =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
        out[i] = plain ? c : '_';
    }
    out[i] = '\0';
}

static void put_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, " %.3f", v);
    else
        fprintf(f, " ?");
}

static bool write_data(const char *file, const struct val_point *pts, int n)
{
    FILE *f = fopen(file, "w");
    if (!f)
        return false;
    fprintf(f, "# threads T_min T_max sim_min sim_median sim_max (ns)\n");
    for (int i = 0; i < n; i++) {
        fprintf(f, "%d", pts[i].threads);
        put_num(f, pts[i].modelled ? fmin(pts[i].tmin, pts[i].tmax) : NAN);
        put_num(f, pts[i].modelled ? fmax(pts[i].tmin, pts[i].tmax) : NAN);
        put_num(f, pts[i].min);
        put_num(f, pts[i].median);
        put_num(f, pts[i].max);
        fputc('\n', f);
    }
    return fclose(f) == 0;
}

static bool write_script(const char *file, const char *dir, const char *name, const char *title)
{
    FILE *f = fopen(file, "w");
    if (!f)
        return false;
    fprintf(f,
            "set terminal png size 800,560\n"
            "set output '%s/%s.png'\n"
            "set datafile missing '?'\n"
            "set title '%s' noenhanced\n"
            "set xlabel 'threads'\nset ylabel 'latency (ns)'\n"
            "set key top left\nset grid\nset offsets graph 0.05, graph 0.05, 0, 0\n"
            "plot '%s/%s.dat' using 1:2:3 with filledcurves fs transparent solid 0.3 "
            "lc rgb '#4080c0' title 'model [T_{min}, T_{max}]', \\\n"
            "     '' using 1:5:4:6 with yerrorbars pt 7 lc rgb '#c03020' "
            "title 'simulated median (min..max)', \\\n"
            "     '' using 1:5 with lines lc rgb '#c03020' notitle\n",
            dir, name, title, dir, name);
    return fclose(f) == 0;
}

static int run_gnuplot(const char *script)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

bool val_plot(const char *dir, const char *spec, const struct val_point *pts, int n)
{
    char name[128], dat[4400], gp[4400];
    val_plot_name(spec, name, sizeof name);
    snprintf(dat, sizeof dat, "%s/%s.dat", dir, name);
    snprintf(gp, sizeof gp, "%s/%s.gp", dir, name);
    if (!write_data(dat, pts, n) || !write_script(gp, dir, name, spec)) {
        fprintf(stderr, "%s: cannot write the plot files: %s\n", dir, strerror(errno));
        return false;
    }
    int st = run_gnuplot(gp);
    if (st != 0) {
        fprintf(stderr, "%s: gnuplot failed (status %d)\n", gp, st);
        return false;
    }
    return true;
}
