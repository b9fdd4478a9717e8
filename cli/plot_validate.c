/*
 * plot_validate.c -- `ccsim validate --plot DIR` (cli/plot.h): one PNG per
 * algorithm, like the figures of seed 000: the model band [T_min, T_max]
 * shaded (filledcurves) and the simulated median with min..max error bars,
 * against the thread count. The data (NAME.dat) and the script (NAME.gp)
 * stay in DIR beside NAME.png; gnuplot runs through plot_run (a timeout, a
 * clear message when it is missing).
 */
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void plot_validate_name(const char *spec, char *out, size_t size)
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

static void write_data(FILE *f, const struct plot_band_point *pts, int n)
{
    fprintf(f, "# threads band_low band_high sim_min sim_median sim_max (ns; the band: T_min and "
               "T_max, the lower first)\n");
    for (int i = 0; i < n; i++) {
        fprintf(f, "%d", pts[i].threads);
        put_num(f, pts[i].modelled ? fmin(pts[i].tmin, pts[i].tmax) : NAN);
        put_num(f, pts[i].modelled ? fmax(pts[i].tmin, pts[i].tmax) : NAN);
        put_num(f, pts[i].min);
        put_num(f, pts[i].median);
        put_num(f, pts[i].max);
        fputc('\n', f);
    }
}

static bool pow2(int v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

/* The x axis: log2 when every thread count is a power of two (the seeds'
 * figures double the threads), else linear from 0; ticks at the counts
 * (whole threads). Latency from 0, with a margin on top (one value alone
 * is then not an empty range). */
static void write_axis(FILE *f, const struct plot_band_point *pts, int n)
{
    int lo = n ? pts[0].threads : 1, hi = lo;
    bool all_pow2 = n > 0;
    for (int i = 0; i < n; i++) {
        lo = pts[i].threads < lo ? pts[i].threads : lo;
        hi = pts[i].threads > hi ? pts[i].threads : hi;
        all_pow2 &= pow2(pts[i].threads);
    }
    if (all_pow2 && lo != hi)
        fprintf(f, "set logscale x 2\nset xrange [%g:%g]\n", lo / 1.5, hi * 1.5);
    else
        fprintf(f, "set xrange [0:%d]\n", hi + hi / 10 + 1);
    fprintf(f, "set xtics (");
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%d", i ? ", " : "", pts[i].threads);
    fprintf(f, ")\nset yrange [0:*]\nset offsets 0, 0, graph 0.1, 0\n");
}

/* What the model gives here: nothing, one value a point (an equation with
 * T_min only), or a band. */
enum model_kind { MODEL_NONE, MODEL_POINT, MODEL_BAND };

static enum model_kind model_kind(const struct plot_band_point *pts, int n)
{
    enum model_kind k = MODEL_NONE;
    for (int i = 0; i < n; i++)
        if (pts[i].modelled)
            k = pts[i].tmin != pts[i].tmax ? MODEL_BAND : k == MODEL_NONE ? MODEL_POINT : k;
    return k;
}

static void write_model(FILE *f, const char *dat, enum model_kind k, int n)
{
    plot_quote(f, dat);
    if (k == MODEL_POINT)
        fprintf(f, " using 1:2 with linespoints pt 5 lc rgb '#4080c0' "
                   "title 'model (T_{min} = T_{max} at every point)', \\\n     ''");
    else if (n == 1) /* a band needs two points: one point's band is a box */
        fprintf(f, " using 1:(($2+$3)/2):($1*0.9):($1*1.1):2:3 with boxxyerror "
                   "fs transparent solid 0.3 lc rgb '#4080c0' title 'model [T_{min}, T_{max}]', "
                   "\\\n     ''");
    else
        fprintf(f, " using 1:2:3 with filledcurves fs transparent solid 0.3 "
                   "lc rgb '#4080c0' title 'model [T_{min}, T_{max}]', \\\n     ''");
}

static void write_script(FILE *f, const char *png, const char *dat, const char *title,
                         const struct plot_band_point *pts, int n)
{
    enum model_kind k = model_kind(pts, n);
    plot_png(f, png, 800, 560);
    fprintf(f, "set datafile missing '?'\nset title ");
    plot_quote(f, title);
    fprintf(f, " noenhanced\n"
               "set xlabel 'threads'\nset ylabel 'latency (ns)'\n"
               "set key top left\nset grid\n");
    write_axis(f, pts, n);
    fprintf(f, "plot ");
    if (k == MODEL_NONE) /* nothing to draw of a model: the key says so */
        fprintf(f, "NaN title 'no model for these points', ");
    if (k != MODEL_NONE)
        write_model(f, dat, k, n);
    else
        plot_quote(f, dat);
    fprintf(f, " using 1:5:4:6 with yerrorbars pt 7 lc rgb '#c03020' "
               "title 'simulated median (min..max)', \\\n"
               "     '' using 1:5 with lines lc rgb '#c03020' notitle\n");
}

static int by_threads(const void *a, const void *b)
{
    const struct plot_band_point *x = a, *y = b;
    return (x->threads > y->threads) - (x->threads < y->threads);
}

bool plot_validate(const char *dir, const char *spec, const char *about,
                   struct plot_band_point *pts, int n)
{
    qsort(pts, (size_t)n, sizeof *pts, by_threads); /* a band joins its points in order */
    char title[600];
    snprintf(title, sizeof title, "%s: %s", spec, about);
    char name[128], png[160], dat[160], gp[160];
    plot_validate_name(spec, name, sizeof name);
    snprintf(png, sizeof png, "%s.png", name);
    snprintf(dat, sizeof dat, "%s.dat", name);
    snprintf(gp, sizeof gp, "%s.gp", name);
    FILE *f = plot_open(dir, dat);
    if (!f)
        return false;
    write_data(f, pts, n);
    if (!plot_close(f, dir, dat) || !(f = plot_open(dir, gp)))
        return false;
    write_script(f, png, dat, title, pts, n);
    return plot_close(f, dir, gp) && plot_run(dir, gp, PLOT_TIMEOUT_S);
}
