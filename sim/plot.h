/*
 * plot.h -- pictures through gnuplot, shared by the subcommands that take
 * --plot FILE.png (run, validate). Part of the top layer.
 *
 * A plot is three files in one folder: a data file and a gnuplot script the
 * caller writes (sim_plot_open / sim_plot_close), and the PNG the script
 * draws when sim_plot_run runs gnuplot on it in that folder. The data and the
 * script stay beside the PNG, so a user can edit the script and run
 * `gnuplot NAME.gp` again. gnuplot is optional: when it is not installed the
 * functions print SIM_PLOT_MISSING on stderr and return false; nothing
 * crashes. Every failure is printed on stderr.
 */
#ifndef CCSIM_PLOT_H
#define CCSIM_PLOT_H

#include <stdbool.h>
#include <stdio.h>

#define SIM_PLOT_MISSING   "gnuplot is not installed (apt-get install gnuplot-nox)"
#define SIM_PLOT_TIMEOUT_S 60 /* a default for sim_plot_run */

/* Where a plot's files go for `--plot PATH.png`: dir is PATH's folder ("."
 * when none); png, dat and gp are the file names in it (lat.png, lat.dat,
 * lat.gp; a PATH without .png keeps its name and adds .dat and .gp). */
struct sim_plot_files {
    char dir[1024];
    char png[256], dat[256], gp[256];
};
/* False with a message when PATH is empty or too long. */
bool sim_plot_files(const char *png_path, struct sim_plot_files *f);

/* True if a gnuplot executable is on PATH; else prints SIM_PLOT_MISSING.
 * (Callers check before a long run; sim_plot_run checks again.) */
bool sim_plot_available(void);

/* Opens dir/name for writing (NULL with a message). */
FILE *sim_plot_open(const char *dir, const char *name);
/* Closes what sim_plot_open gave; false with a message on a write error. */
bool sim_plot_close(FILE *f, const char *dir, const char *name);

/* Writes s as a gnuplot single-quoted string. */
void sim_plot_quote(FILE *script, const char *s);
/* Writes the script's first lines: a PNG terminal (pngcairo if gnuplot has
 * it, else png) of width x height pixels, output to png_name. */
void sim_plot_png(FILE *script, const char *png_name, int width, int height);

/* Runs `gnuplot SCRIPT` with dir as its working directory, killing it after
 * timeout_s seconds. False with a message if gnuplot is missing, fails or
 * times out. */
bool sim_plot_run(const char *dir, const char *script, unsigned timeout_s);

/* All of the above for one picture: a histogram of v[0 .. n) (about sqrt(n)
 * bins, at most 50) with a dashed line at the median, written to png_path
 * with its .dat and .gp beside it. False with a message (n == 0 included). */
bool sim_plot_histogram(const char *png_path, const char *title, const char *xlabel,
                        const double *v, size_t n);

#endif
