/*
 * microbench_tables.c -- seed 000's Tables 2-4 measured the paper's way
 * (cli/microbench.h, struct mb_tables): every row's buffer states, every
 * point a small trace run through the simulator, every row fitted to its
 * own equation by least squares.
 */
#include "microbench_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const mb_state_names[MB_NSTATES] = {"E/E", "E/I", "I/E", "I/I"};

static bool send_e(enum mb_states s)
{
    return s == MB_EE || s == MB_EI;
}

static bool recv_e(enum mb_states s)
{
    return s == MB_EE || s == MB_IE;
}

/* ------------------------------------------------------------ fitting */

/* Least squares y = sum_j coef[j] basis_j over n points, k <= 3 basis
 * functions (x[i][j]: basis j at point i); Gaussian elimination on the
 * normal equations. A singular system leaves the coefficients 0. */
static void least_squares(double x[][3], const double *y, int n, int k, double *coef)
{
    double a[3][4] = {{0}};
    for (int i = 0; i < n; i++)
        for (int r = 0; r < k; r++) {
            for (int c = 0; c < k; c++)
                a[r][c] += x[i][r] * x[i][c];
            a[r][k] += x[i][r] * y[i];
        }
    for (int c = 0; c < k; c++) {
        int piv = c;
        for (int r = c + 1; r < k; r++)
            if (fabs(a[r][c]) > fabs(a[piv][c]))
                piv = r;
        for (int j = 0; j <= k; j++) {
            double t = a[c][j];
            a[c][j] = a[piv][j];
            a[piv][j] = t;
        }
        if (fabs(a[c][c]) < 1e-12) { /* too few distinct points: no figure, not 0 */
            for (int j = 0; j < k; j++)
                coef[j] = NAN;
            return;
        }
        for (int r = 0; r < k; r++)
            if (r != c) {
                double f = a[r][c] / a[c][c];
                for (int j = c; j <= k; j++)
                    a[r][j] -= f * a[c][j];
            }
    }
    for (int r = 0; r < k; r++)
        coef[r] = a[r][k] / a[r][r];
}

void mb_fit_row(struct mb_row *row, bool inverse)
{
    double x[MB_MAX_POINTS][3], y[MB_MAX_POINTS], c[3] = {0};
    for (int i = 0; i < row->n; i++) {
        x[i][0] = 1;
        x[i][1] = row->pts[i].x;
        x[i][2] = -1 / row->pts[i].x;
        y[i] = row->pts[i].ns;
    }
    least_squares(x, y, row->n, inverse && row->n > 2 ? 3 : 2, c);
    memcpy(row->k, c, sizeof c);
    if (!(inverse && row->n > 2))
        row->k[2] = NAN; /* not fitted: no figure, not 0 */
}

void mb_fit_table3(struct mb_row *row, bool congestion)
{
    double x[MB_MAX_POINTS][3], y[MB_MAX_POINTS], c[3] = {0};
    for (int i = 0; i < row->n; i++) {
        x[i][0] = 1;
        x[i][1] = row->pts[i].x;
        x[i][2] = row->pts[i].x * row->threads[i];
        y[i] = row->pts[i].ns;
    }
    least_squares(x, y, row->n, congestion ? 3 : 2, c);
    memcpy(row->k, c, sizeof c);
    if (!congestion)
        row->k[2] = NAN; /* one pair only: c is not fitted */
}

double mb_model(int table, const double k[3], double x, int threads)
{
    return table == 3 ? k[0] + k[1] * x + k[2] * threads * x : k[0] + k[1] * x - k[2] / x;
}

/* The relative deviation of point i from the curve k. */
static double deviation(int table, const struct mb_row *row, const double k[3], int i)
{
    double model = mb_model(table, k, row->pts[i].x, row->threads[i]);
    return (row->pts[i].ns - model) / model;
}

double mb_curve_error(int table, const struct mb_row *row, const double k[3])
{
    double worst = NAN;
    for (int i = 0; i < row->n; i++) {
        double e = row->pts[i].x >= 8 ? deviation(table, row, k, i) : NAN;
        if (!isnan(e) && (isnan(worst) || fabs(e) > fabs(worst)))
            worst = e;
    }
    return worst;
}

double mb_curve_mse(int table, const struct mb_row *row, const double k[3])
{
    double sum = 0;
    int n = 0;
    for (int i = 0; i < row->n; i++)
        if (row->pts[i].x >= 8) {
            double e = deviation(table, row, k, i);
            sum += e * e;
            n++;
        }
    return n ? sum / n : NAN;
}

/* ------------------------------------------------------------ traces */

/* "pin" and the cores of threads 0 .. n-1 (mb_machine_core's). */
static void pin_line(const struct mb *b, int threads, char *buf, size_t size)
{
    int len = snprintf(buf, size, "pin");
    for (int t = 0; t < threads && len < (int)size - 8; t++)
        len += snprintf(buf + len, size - (size_t)len, " %d", mb_machine_core(b, t));
}

/* Table 2: n readers copy thread 0's send line into their own lines. */
static double contention_row(struct mb *b, enum mb_states s, int n)
{
    char text[16384], pin[8192];
    pin_line(b, n + 1, pin, sizeof pin);
    snprintf(text, sizeof text,
             "ccsim-trace 1\nthreads %d\n%s\nline x 64 home=0\nline r %d home=0\n"
             "for it 0..%d {\n  all: sync\n  0: evict x[it%%64]\n%s%s  all: sync\n"
             "  others: copy x[it%%64] r[t] 1\n  others: mark done\n}\n",
             n + 1, pin, n + 1, b->iters - 1, send_e(s) ? "  0: prime x[it%64] E\n" : "",
             recv_e(s) ? "  others: prime r[t] E\n" : "  others: evict r[t]\n");
    return mb_measure(b, text);
}

/* A side's reset of line L (a trace expression) for the row's state: E
 * primes it into its thread's cache, I evicts it to memory. */
static void reset_line(char *buf, size_t size, bool e, const char *sel, const char *line)
{
    snprintf(buf, size, "    %s: %s %s%s\n", sel, e ? "prime" : "evict", line, e ? " E" : "");
}

/* Tables 3 and 4, as the paper's multi-line ping-pong (seed 000 Sec
 * 2.2.3.1; Fig 2: the buffers in E; Table 4 with each row's send and
 * receive buffer states): n pairs at once, the senders in socket `from`,
 * the receivers in socket `to` (one thread a core); each sender copies N
 * lines of its send buffer into its receiver's buffer, which polls the last
 * line (one transfer). Pair p's buffers in iteration it are block it*n+p
 * of N lines, fresh ones each iteration: a line's tag directory (KNC) or
 * LLC slice (SNB) is chosen by a hash of its address, and the paper
 * randomized its buffers' addresses to average over their places (seed 000
 * Sec 2.1.2), where one buffer reused would measure one draw of them. */
static double multiline_row(struct mb *b, enum mb_states s, int n, int lines, int from, int to)
{
    char text[8192], pin[4096], snd[160], rcv[160], sel[32], line[64];
    int len = snprintf(pin, sizeof pin, "pin");
    for (int i = 0; i < n; i++) /* senders, then receivers; within a socket on other cores */
        len += snprintf(pin + len, sizeof pin - (size_t)len, " %d", mb_core(b, from, i));
    for (int i = 0; i < n; i++)
        len += snprintf(pin + len, sizeof pin - (size_t)len, " %d",
                        mb_core(b, to, from == to ? n + i : i));
    snprintf(sel, sizeof sel, "0..%d", n - 1);
    snprintf(line, sizeof line, "snd[(it*%d+t)*%d+j]", n, lines);
    reset_line(snd, sizeof snd, send_e(s), sel, line);
    snprintf(sel, sizeof sel, "%d..%d", n, 2 * n - 1);
    snprintf(line, sizeof line, "rcv[(it*%d+t-%d)*%d+j]", n, n, lines);
    reset_line(rcv, sizeof rcv, recv_e(s), sel, line);
    int total = n * lines * b->iters;
    snprintf(text, sizeof text,
             "ccsim-trace 1\nthreads %d\n%s\nline snd %d home=%d\nline rcv %d home=%d\n"
             "for it 0..%d {\n  all: sync\n  for j 0..%d {\n"
             "    0..%d: write snd[(it*%d+t)*%d+j] it+1\n  }\n  all: sync\n  for j 0..%d {\n"
             "%s%s  }\n  all: sync\n"
             "  0..%d: copy snd[(it*%d+t)*%d] rcv[(it*%d+t)*%d] %d\n"
             "  %d..%d: wait rcv[(it*%d+t-%d)*%d+%d] == it+1\n  %d..%d: mark done\n}\n",
             2 * n, pin, total, from, total, to, b->iters - 1, lines - 1, n - 1, n, lines,
             lines - 1, snd, rcv, n - 1, n, lines, n, lines, lines, n, 2 * n - 1, n, n, lines,
             lines - 1, n, 2 * n - 1);
    return mb_measure(b, text);
}

/* ------------------------------------------------------------ the tables */

static void table2(struct mb *b, struct mb_tables *t)
{
    static const int ns[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 40, 48, 56, 59, 63};
    int maxn = (int)b->m->machine.cores - 1;
    for (int s = 0; s < MB_NSTATES; s++) {
        struct mb_row *row = &t->table2[s];
        for (size_t i = 0; i < SIM_COUNT_OF(ns) && ns[i] <= maxn && !b->failed; i++)
            row->pts[row->n++] = (struct mb_point){ns[i], contention_row(b, s, ns[i])};
        mb_fit_row(row, !send_e(s)); /* the send line in memory: Eq 3's a/n term */
    }
}

static void table4(struct mb *b, struct mb_tables *t)
{
    static const int sizes[] = {1, 2, 4, 8, 16, 32, 64, 128};
    for (int s = 0; s < MB_NSTATES; s++) {
        struct mb_row *row = &t->table4[s];
        for (size_t i = 0; i < SIM_COUNT_OF(sizes) && !b->failed; i++)
            row->pts[row->n++] =
                (struct mb_point){sizes[i], multiline_row(b, s, 1, sizes[i], 0, 0)};
        mb_fit_row(row, true);
    }
}

static void table3(struct mb *b, struct mb_tables *t)
{
    static const int sizes[] = {1, 2, 4, 8, 16, 32, 64};
    static const int threads[] = {1, 2, 4, 8};
    struct mb_row *in = &t->table3_intra, *out = &t->table3_inter;
    for (size_t i = 0; i < SIM_COUNT_OF(sizes) && !b->failed; i++) {
        in->threads[in->n] = 1;
        in->pts[in->n++] = (struct mb_point){sizes[i], multiline_row(b, MB_EE, 1, sizes[i], 0, 0)};
    }
    mb_fit_table3(in, false);
    if (b->m->machine.sockets < 2)
        return;
    for (size_t k = 0; k < SIM_COUNT_OF(threads) && threads[k] <= b->cps; k++)
        for (size_t i = 0; i < SIM_COUNT_OF(sizes) && !b->failed && out->n < MB_MAX_POINTS; i++) {
            out->threads[out->n] = threads[k];
            out->pts[out->n++] =
                (struct mb_point){sizes[i], multiline_row(b, MB_EE, threads[k], sizes[i], 0, 1)};
        }
    mb_fit_table3(out, true);
}

bool mb_tables(const struct machine_cfg *m, int iterations, struct mb_tables *t, struct sim_diag *d)
{
    struct mb b = {m, (int)(m->machine.cores / m->machine.sockets), iterations, d, false};
    memset(t, 0, sizeof *t);
    if (!m->memsys->coherent) {
        sim_diag_add(d, m->path, 0, "seed 000's tables need a coherent machine");
        return false;
    }
    if (!mb_machine_fits(m, d))
        return false;
    table2(&b, t);
    table3(&b, t);
    table4(&b, t);
    return !b.failed;
}
