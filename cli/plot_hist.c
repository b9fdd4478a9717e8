/*
 * plot_hist.c -- plot_histogram (cli/plot.h): bins computed here, drawn
 * by gnuplot as boxes, with the median marked.
 */
#include "plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(const double *v, size_t n)
{
    double *s = malloc(n * sizeof *s);
    if (!s)
        return v[0];
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    free(s);
    return m;
}

/* The data file: one row per bin, "centre width count". Returns the x
 * range to show (a margin of half the span, or 5% of the value when all
 * values are equal). */
static void write_bins(FILE *f, const double *v, size_t n, double range[2])
{
    double lo = v[0], hi = v[0];
    for (size_t i = 1; i < n; i++) {
        lo = v[i] < lo ? v[i] : lo;
        hi = v[i] > hi ? v[i] : hi;
    }
    size_t bins = (size_t)ceil(sqrt((double)n));
    bins = bins > 50 ? 50 : bins;
    double pad = hi > lo ? (hi - lo) / 2 : (fabs(lo) > 20 ? fabs(lo) / 20 : 1);
    range[0] = lo - pad;
    range[1] = hi + pad;
    if (hi <= lo) { /* every value equal: one bar */
        double w = pad / 5;
        fprintf(f, "# centre width count (%zu values, all %.3f)\n%.6f %.6f %zu\n", n, lo, lo, w, n);
        return;
    }
    double w = (hi - lo) / (double)bins;
    size_t *count = calloc(bins, sizeof *count);
    if (!count)
        return;
    for (size_t i = 0; i < n; i++) {
        size_t b = (size_t)((v[i] - lo) / w);
        count[b < bins ? b : bins - 1]++;
    }
    fprintf(f, "# centre width count (%zu values, %zu bins from %.3f to %.3f)\n", n, bins, lo, hi);
    for (size_t b = 0; b < bins; b++)
        fprintf(f, "%.6f %.6f %zu\n", lo + w * ((double)b + 0.5), w, count[b]);
    free(count);
}

static void write_script(FILE *f, const struct plot_files *pf, const char *title,
                         const char *xlabel, double median, const double range[2])
{
    plot_png(f, pf->png, 900, 560);
    fputs("set title ", f);
    plot_quote(f, title);
    fputs(" noenhanced\nset xlabel ", f);
    plot_quote(f, xlabel);
    fputs(" noenhanced\nset ylabel 'count'\nset yrange [0:*]\nset grid ytics\n"
          "set style fill solid 0.6 border -1\nset key top right\n",
          f);
    fprintf(f, "set xrange [%.6f:%.6f]\n", range[0], range[1]);
    fprintf(f,
            "set arrow from %.6f, graph 0 to %.6f, graph 1 nohead front dt 2 lw 2 lc rgb "
            "'#c00000'\n",
            median, median);
    fputs("plot ", f);
    plot_quote(f, pf->dat);
    fprintf(f,
            " using 1:3:2 with boxes lc rgb '#4472c4' notitle, \\\n"
            "     NaN with lines dt 2 lw 2 lc rgb '#c00000' title 'median %.1f'\n",
            median);
}

bool plot_histogram(const char *png_path, const char *title, const char *xlabel, const double *v,
                    size_t n)
{
    struct plot_files pf;
    if (!n) {
        fprintf(stderr, "%s: nothing to plot (no values)\n", png_path);
        return false;
    }
    if (!plot_files(png_path, &pf))
        return false;
    FILE *dat = plot_open(pf.dir, pf.dat);
    if (!dat)
        return false;
    double range[2];
    write_bins(dat, v, n, range);
    if (!plot_close(dat, pf.dir, pf.dat))
        return false;
    FILE *gp = plot_open(pf.dir, pf.gp);
    if (!gp)
        return false;
    write_script(gp, &pf, title, xlabel, median_of(v, n), range);
    if (!plot_close(gp, pf.dir, pf.gp))
        return false;
    return plot_run(pf.dir, pf.gp, PLOT_TIMEOUT_S);
}
