/*
 * microbench.c -- `ccsim microbench`: the machine's line-transfer costs,
 * measured BenchIT-style (seed 000 Sec 2.2) by running small traces through
 * the simulator, never computed: single-line reads by location and state
 * (R_L, R_R, R_Q, R_I, R_QI), contention (n readers of one line), congestion
 * (n pairs across sockets on different lines) and multi-line transfers.
 * Fits (least squares) give b, c, q and o; the papers' figures come from the
 * config's `model` section and are printed beside them.
 *
 * Every measurement builds a fresh machine, runs its trace for `iterations`
 * iterations (the first is a cold start and is dropped) and takes the median.
 * The threads start without the config's start skew: seed 000 times each
 * measurement from its own thread's start (Sec 2.2: "timed separately using
 * x86 RDTSC"), so a thread leaving late is not in its figure, where an
 * algorithm's latency counts from the agreed start (Sec 2.5) and does
 * include it. Jitter and arbitration stay on.
 * On KNC seed 000 randomises addresses to average over tag directories: each
 * iteration here uses another line of an array, with the same effect.
 *
 * On the SCC (no coherence) the measurements are its own (seed 004 Sec II,
 * IV-D): an MPB line read by core 0 from its own tile and from tiles 1..8
 * hops away, a private line read from memory controller 0 by cores 0..8
 * hops from it (every read after invmb or an eviction, so it misses), n
 * cores reading one remote MPB line at once, and N lines copied out of a
 * remote MPB (an RCCE get).
 */
#include "microbench_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double mb_measure(struct mb *b, const char *text)
{
    if (b->failed)
        return NAN;
    struct wl_parse_opts po = {(int)b->m->machine.line_bytes, (int)b->m->machine.cores,
                               (int)b->m->machine.threads_per_core};
    struct wl_program *p = wl_parse_text("microbench", text, strlen(text), &po, b->d);
    struct machine *mc = p ? machine_build(b->m, 1, b->d) : NULL;
    double median = NAN;
    if (mc) {
        struct core_machine w;
        machine_view(mc, &w);
        w.start_skew_ps = 0; /* timed from each thread's own start (above) */
        struct core_run_opts o = {.watchdog_ps = machine_watchdog_ps(mc, MACHINE_WATCHDOG_PS),
                                  .max_reports = 3};
        struct core_result r;
        core_run(&w, p, &o, &r, b->d);
        if (!r.input_error && !core_result_failed(&r) && r.iterations > 1) {
            /* drop the cold first iteration */
            size_t n = r.iterations - 1;
            double *v = r.latency_ns + 1;
            for (size_t i = 1; i < n; i++)
                for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
                    double t = v[j];
                    v[j] = v[j - 1];
                    v[j - 1] = t;
                }
            median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        }
        core_result_free(&r);
        machine_free(mc);
    }
    if (!mc || isnan(median))
        b->failed = true;
    wl_program_free(p);
    return median;
}

int mb_core(const struct mb *b, int s, int i)
{
    int cpc = (int)b->m->machine.cores_per_cache, caches = b->cps / cpc;
    return s * b->cps + (i % caches) * cpc + (i / caches) % cpc;
}

int mb_machine_core(const struct mb *b, int t)
{
    t %= (int)b->m->machine.cores;
    return mb_core(b, t / b->cps, t % b->cps);
}

/* One line read by thread 1 after thread 0 set it up; home: the socket of
 * its memory. */
static double single(struct mb *b, int reader_core, int owner_core, const char *setup, int home)
{
    char text[2048], homes[32];
    snprintf(homes, sizeof homes, " home=%d", home);
    snprintf(text, sizeof text,
             "ccsim-trace 1\nthreads 2\npin %d %d\nline x 64%s\n"
             "for it 0..%d {\n  all: sync\n  0: evict x[it%%64]\n%s"
             "  all: sync\n  1: read x[it%%64]\n  1: mark done\n}\n",
             owner_core, reader_core, homes, b->iters - 1, setup);
    return mb_measure(b, text);
}

/* R_L: a line in the reader's own cache. */
static double r_local(struct mb *b)
{
    return single(b, 0, 1, "  1: prime x[it%64] M\n", 0);
}

/* R_R / R_Q: a line modified in another core of the same / the other socket. */
static double r_remote(struct mb *b, int socket)
{
    /* first touch: the line's memory is in its owner's socket */
    return single(b, 0, mb_core(b, socket, socket ? 0 : 1), "  0: prime x[it%64] M\n", socket);
}

/* R_I / R_QI: a line in memory of this / the other socket. */
static double r_invalid(struct mb *b, int socket)
{
    return single(b, 0, 1, "", socket);
}

/* Contention (seed 000 Sec 2.2.2): n threads copy one line modified in
 * another core into their own receive lines, at once. */
static double contention(struct mb *b, int n)
{
    char text[8192], pin[4096] = "";
    int len = 0;
    for (int t = 0; t <= n && len < (int)sizeof pin - 16; t++)
        len += snprintf(pin + len, sizeof pin - (size_t)len, " %d", mb_machine_core(b, t));
    snprintf(text, sizeof text,
             "ccsim-trace 1\nthreads %d\npin%s\nline x 64 home=0\nline r %d home=0\n"
             "for it 0..%d {\n  all: sync\n  0: evict x[it%%64]\n  0: prime x[it%%64] M\n"
             "  others: prime r[t] M\n  all: sync\n  others: copy x[it%%64] r[t] 1\n"
             "  others: mark done\n}\n",
             n + 1, pin, n + 1, b->iters - 1);
    return mb_measure(b, text);
}

/* Congestion: n pairs, each copies its own line modified across sockets. */
static double congestion(struct mb *b, int n)
{
    char text[8192], pin[4096] = "";
    int len = 0;
    for (int i = 0; i < n; i++)
        len += snprintf(pin + len, sizeof pin - (size_t)len, " %d", mb_core(b, 1, i));
    for (int i = 0; i < n; i++)
        len += snprintf(pin + len, sizeof pin - (size_t)len, " %d", mb_core(b, 0, i));
    snprintf(text, sizeof text,
             "ccsim-trace 1\nthreads %d\npin%s\nline x %d home=1\nline r %d home=0\n"
             "for it 0..%d {\n  all: sync\n  0..%d: prime x[t] M\n  %d..%d: prime r[t-%d] M\n"
             "  all: sync\n  %d..%d: copy x[t-%d] r[t-%d] 1\n  %d..%d: mark done\n}\n",
             2 * n, pin, n, n, b->iters - 1, n - 1, n, 2 * n - 1, n, n, 2 * n - 1, n, n, n,
             2 * n - 1);
    return mb_measure(b, text);
}

/* Multi-line: N lines modified in another core copied into own buffer. */
static double multiline(struct mb *b, int lines)
{
    char text[2048];
    snprintf(text, sizeof text,
             "ccsim-trace 1\nthreads 2\npin %d %d\nline src %d home=0\nline dst %d home=0\n"
             "for it 0..%d {\n  all: sync\n  for i 0..%d {\n    0: prime src[i] M\n"
             "    1: prime dst[i] M\n  }\n  all: sync\n  1: copy src[0] dst[0] %d\n"
             "  1: mark done\n}\n",
             mb_core(b, 0, 1), mb_core(b, 0, 0), lines, lines, b->iters - 1, lines - 1, lines);
    return mb_measure(b, text);
}

/* ------------------------------------------------------------ the SCC */

/* The first core at each hop distance from core 0 or from memory
 * controller 0, by building the
 * machine once and asking its network. */
static int cores_by_hops(struct mb *b, bool from_mc, int *core_at, int max)
{
    struct machine *mc = machine_build(b->m, 1, b->d);
    if (!mc) {
        b->failed = true;
        return 0;
    }
    int n = 0;
    for (int i = 0; i < max; i++)
        core_at[i] = -1;
    for (int c = 0; c < (int)b->m->machine.cores; c++) {
        /* memory controller 0 is the node after the homes */
        int to = from_mc ? mc->params.first_home_node + mc->params.homes : 0;
        int h = net_hops(mc->net, c, to);
        if (h < max && core_at[h] < 0) {
            core_at[h] = c;
            n = h + 1 > n ? h + 1 : n;
        }
    }
    machine_free(mc);
    return n;
}

static double cycles_of(const struct mb *b, double ns)
{
    return ns * b->m->machine.clock_ghz;
}

/* Core `reader` reads a line of core `owner`'s MPB (after invmb); owner ==
 * reader: its own (a tile of one core has no other). */
static double mpb_read(struct mb *b, int owner, int reader)
{
    char text[1024];
    if (owner == reader)
        snprintf(text, sizeof text,
                 "ccsim-trace 1\nthreads 1\npin %d\nline x 64 mpb=0\nfor it 0..%d {\n"
                 "  0: invmb\n  all: sync\n  0: read x[it%%64]\n  0: mark done\n}\n",
                 reader, b->iters - 1);
    else
        snprintf(text, sizeof text,
                 "ccsim-trace 1\nthreads 2\npin %d %d\nline x 64 mpb=0\nfor it 0..%d {\n"
                 "  1: invmb\n  all: sync\n  1: read x[it%%64]\n  1: mark done\n}\n",
                 owner, reader, b->iters - 1);
    return cycles_of(b, mb_measure(b, text));
}

/* Core `reader` reads a private line whose memory is controller 0. */
static double dram_read(struct mb *b, int reader)
{
    char text[1024];
    snprintf(text, sizeof text,
             "ccsim-trace 1\nthreads 1\npin %d\nline x 64 home=0\n"
             "for it 0..%d {\n  all: evict x[it%%64]\n  all: sync\n  all: read x[it%%64]\n"
             "  all: mark done\n}\n",
             reader, b->iters - 1);
    return cycles_of(b, mb_measure(b, text));
}

/* n cores read one line of the last core's MPB at once, into private lines. */
static double scc_contention(struct mb *b, int n)
{
    char text[8192], pin[4096];
    int cores = (int)b->m->machine.cores, len = snprintf(pin, sizeof pin, "%d", cores - 1);
    for (int i = 0; i < n; i++)
        len += snprintf(pin + len, sizeof pin - (size_t)len, " %d", i);
    snprintf(text, sizeof text,
             "ccsim-trace 1\nthreads %d\npin %s\nline x 64 mpb=0\nline rcv %d\n"
             "for it 0..%d {\n  others: invmb\n  all: sync\n  others: copy x[it%%64] rcv[t] 1\n"
             "  others: mark done\n}\n",
             n + 1, pin, n + 1, b->iters - 1);
    return mb_measure(b, text);
}

/* N lines copied out of the last core's MPB by core 0 (an RCCE get). */
static double scc_multiline(struct mb *b, int lines)
{
    char text[2048];
    snprintf(text, sizeof text,
             "ccsim-trace 1\nthreads 2\npin %d 0\nline src %d mpb=0\nline dst %d\n"
             "for it 0..%d {\n  1: invmb\n  all: sync\n  1: copy src dst %d\n  1: mark done\n}\n",
             (int)b->m->machine.cores - 1, lines, lines, b->iters - 1, lines);
    return mb_measure(b, text);
}

static void scc_run(struct mb *b, struct mb_result *res)
{
    int at[MB_MAX_POINTS];
    res->scc = true;
    res->r_l = r_local(b);
    res->r_r = res->r_q = res->r_qi = NAN;
    res->r_i = dram_read(b, 0) / b->m->machine.clock_ghz;
    int n = cores_by_hops(b, false, at, MB_MAX_POINTS);
    res->mpb_local_cycles = mpb_read(b, at[0], 0); /* at[0]: core 0 itself if alone */
    for (int h = 1; h < n; h++)
        if (at[h] >= 0)
            res->mpb[res->nmpb++] = (struct mb_point){h, mpb_read(b, at[h], 0)};
    n = cores_by_hops(b, true, at, MB_MAX_POINTS);
    for (int h = 0; h < n; h++)
        if (at[h] >= 0)
            res->dram[res->ndram++] = (struct mb_point){h, dram_read(b, at[h])};
    int maxn = (int)b->m->machine.cores - 1;
    maxn = maxn < MB_MAX_POINTS ? maxn : MB_MAX_POINTS;
    for (int k = 1; k <= maxn; k++)
        res->contention[res->ncontention++] = (struct mb_point){k, scc_contention(b, k)};
    mb_fit(res->contention, res->ncontention, &res->contention_b, &res->contention_c);
    static const int sizes[] = {1, 2, 4, 8, 16, 32, 64, 128};
    for (size_t i = 0; i < SIM_COUNT_OF(sizes); i++)
        res->multiline[res->nmultiline++] = (struct mb_point){sizes[i], scc_multiline(b, sizes[i])};
    mb_fit(res->multiline, res->nmultiline, &res->multiline_q, &res->multiline_o);
}

/* ------------------------------------------------------------ seed 001 */

/* Core 0 copies src into dst (lines of each), after `setup` (statements
 * per line j) in the untimed phase; bytes / median ns. The sync after the
 * mark keeps core 1's next set-up out of the timed copy (the iteration it
 * opens has no mark, so it is not measured). */
static double copy_rate(struct mb *b, long lines, const char *setup)
{
    char text[4096];
    snprintf(text, sizeof text,
             "ccsim-trace 1\nthreads 2\npin %d %d\nline src %ld\nline dst %ld\n"
             "for it 0..%d {\n  for j 0..%ld {\n%s  }\n  all: sync\n  0: copy src dst %ld\n"
             "  0: mark done\n  all: sync\n}\n",
             mb_core(b, 0, 0), mb_core(b, 0, 1), lines, lines, b->iters - 1, lines - 1, setup,
             lines);
    double ns = mb_measure(b, text);
    return (double)lines * (double)b->m->machine.line_bytes / ns;
}

bool mb_copy_rates(const struct machine_cfg *m, long bytes, int iterations,
                   struct val_copy_rates *out, struct sim_diag *d)
{
    struct mb b = {m, (int)(m->machine.cores / m->machine.sockets), iterations, d, false};
    long lines = (bytes + m->machine.line_bytes - 1) / m->machine.line_bytes;
    out->lhm = out->shm = copy_rate(&b, lines, "    0: prime src[j] M\n    0: prime dst[j] M\n");
    /* shared as the transfer shares it: written by core 0, read by core 1
     * (S, or O where MOESI keeps the dirty copy: Bulldozer's case) */
    out->shs =
        copy_rate(&b, lines, "    0: prime src[j] M\n    0: prime dst[j] M\n    1: read dst[j]\n");
    out->lmm = copy_rate(&b, lines, "    1: prime src[j] M\n    0: prime dst[j] M\n");
    return !b.failed;
}

void mb_fit(const struct mb_point *p, int n, double *a, double *s)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        sx += p[i].x;
        sy += p[i].ns;
        sxx += p[i].x * p[i].x;
        sxy += p[i].x * p[i].ns;
    }
    double den = n * sxx - sx * sx;
    if (den == 0) { /* one x (one point, or one reader count): no line to fit */
        *a = *s = NAN;
        return;
    }
    *s = (n * sxy - sx * sy) / den;
    *a = (sy - *s * sx) / n;
}

bool mb_machine_fits(const struct machine_cfg *m, struct sim_diag *d)
{
    long long cps = m->machine.cores / m->machine.sockets;
    if (!m->memsys->coherent || cps >= 2)
        return true;
    sim_diag_add(d, m->path, 0,
                 "%s has 1 core in a socket: the measurements read a line from another core of "
                 "the same socket (R_R), so they need two",
                 m->machine.name);
    return false;
}

/* Table 1's single-line reads (R_L .. R_QI) into res. */
static void singles(struct mb *b, struct mb_result *res)
{
    int sockets = (int)b->m->machine.sockets;
    res->r_l = r_local(b);
    res->r_r = r_remote(b, 0);
    res->r_i = r_invalid(b, 0);
    res->r_q = sockets > 1 ? r_remote(b, 1) : NAN;
    res->r_qi = sockets > 1 ? r_invalid(b, 1) : NAN;
}

bool mb_singles(const struct machine_cfg *m, int iterations, struct mb_result *res,
                struct sim_diag *d)
{
    struct mb b = {m, (int)(m->machine.cores / m->machine.sockets), iterations, d, false};
    memset(res, 0, sizeof *res);
    if (!mb_machine_fits(m, d))
        return false;
    singles(&b, res);
    return !b.failed;
}

bool mb_run(const struct machine_cfg *m, int iterations, struct mb_result *res, struct sim_diag *d)
{
    struct mb b = {m, (int)(m->machine.cores / m->machine.sockets), iterations, d, false};
    memset(res, 0, sizeof *res);
    if (!mb_machine_fits(m, d))
        return false;
    if (machine_mpb_lines(m) > 0) { /* a machine with MPBs: their latencies, by hops */
        scc_run(&b, res);
        return !b.failed;
    }
    int sockets = (int)m->machine.sockets;
    singles(&b, res);
    int cores = (int)m->machine.cores;
    int maxn = cores - 1 < MB_MAX_POINTS ? cores - 1 : MB_MAX_POINTS;
    for (int n = 1; n <= maxn; n++)
        res->contention[res->ncontention++] = (struct mb_point){n, contention(&b, n)};
    mb_fit(res->contention, res->ncontention, &res->contention_b, &res->contention_c);
    if (sockets > 1) {
        int maxp = b.cps < MB_MAX_POINTS ? b.cps : MB_MAX_POINTS;
        for (int n = 1; n <= maxp; n++)
            res->congestion[res->ncongestion++] = (struct mb_point){n, congestion(&b, n)};
        double a;
        mb_fit(res->congestion, res->ncongestion, &a, &res->congestion_c);
    }
    static const int sizes[] = {1, 2, 4, 8, 16, 32, 64, 128};
    for (size_t i = 0; i < SIM_COUNT_OF(sizes); i++)
        res->multiline[res->nmultiline++] = (struct mb_point){sizes[i], multiline(&b, sizes[i])};
    mb_fit(res->multiline, res->nmultiline, &res->multiline_q, &res->multiline_o);
    return !b.failed;
}
