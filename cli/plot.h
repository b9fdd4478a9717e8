/*
 * plot.h -- pictures through gnuplot (prefix plot_), shared by the
 * subcommands that take --plot (run's latency histogram, validate's model
 * bands). Part of the application (cli/).
 *
 * A plot is three files in one folder: a data file and a gnuplot script the
 * caller writes (plot_open / plot_close), and the PNG the script
 * draws when plot_run runs gnuplot on it in that folder. The data and the
 * script stay beside the PNG, so a user can edit the script and run
 * `gnuplot NAME.gp` again. gnuplot is optional: when it is not installed the
 * functions print PLOT_MISSING on stderr and return false; nothing
 * crashes. Every failure is printed on stderr.
 */
#ifndef CCSIM_PLOT_H
#define CCSIM_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define PLOT_MISSING   "gnuplot is not installed (apt-get install gnuplot-nox)"
#define PLOT_TIMEOUT_S 60 /* a default for plot_run */

/* Where a plot's files go for `--plot PATH.png`: dir is PATH's folder ("."
 * when none); png, dat and gp are the file names in it (lat.png, lat.dat,
 * lat.gp; a PATH without .png keeps its name and adds .dat and .gp). */
struct plot_files {
    char dir[1024];
    char png[256], dat[256], gp[256];
};
/* False with a message when PATH is empty or too long. */
bool plot_files(const char *png_path, struct plot_files *f);

/* True if a gnuplot executable is on PATH (prints nothing). */
bool plot_have_gnuplot(void);
/* True if a gnuplot executable is on PATH; else prints PLOT_MISSING.
 * (Callers check before a long run; plot_run checks again.) */
bool plot_available(void);

/* Opens dir/name for writing (NULL with a message). */
FILE *plot_open(const char *dir, const char *name);
/* Closes what plot_open gave; false with a message on a write error. */
bool plot_close(FILE *f, const char *dir, const char *name);

/* Writes s as a gnuplot single-quoted string. */
void plot_quote(FILE *script, const char *s);
/* Writes the script's first lines: a PNG terminal (pngcairo if gnuplot has
 * it, else png) of width x height pixels, output to png_name. */
void plot_png(FILE *script, const char *png_name, int width, int height);

/* Runs `gnuplot SCRIPT` with dir as its working directory, killing it after
 * timeout_s seconds. False with a message if gnuplot is missing, fails or
 * times out. */
bool plot_run(const char *dir, const char *script, unsigned timeout_s);

/* All of the above for one picture: a histogram of v[0 .. n) (about sqrt(n)
 * bins, at most 50) with a dashed line at the median, written to png_path
 * with its .dat and .gp beside it. False with a message (n == 0 included). */
bool plot_histogram(const char *png_path, const char *title, const char *xlabel, const double *v,
                    size_t n);

/* validate --plot (plot_validate.c): one point of an algorithm's figure,
 * the simulated min / median / max and the model's band. */
struct plot_band_point {
    int threads;
    double min, median, max, tmin, tmax;
    bool modelled;
};
/* The file name (without extension) of spec's plot: [A-Za-z0-9-], others '_'. */
void plot_validate_name(const char *spec, char *out, size_t size);
/* Writes DIR/NAME.{dat,gp} and runs gnuplot for DIR/NAME.png, its points
 * in thread order (pts is sorted); `about` follows the spec in the title
 * (the machine, the params, the tolerance). False (and a message on stderr)
 * on failure. */
bool plot_validate(const char *dir, const char *spec, const char *about,
                   struct plot_band_point *pts, int n);

#endif
