/*
 * sweep.h -- parameter sweeps: the sweep file, its expansion into points,
 * running one point in-process, and the CSV row of a point's result.
 *
 * A sweep file is libconfig, checked by the schema loader (cfg_*):
 *
 *     sweep = {
 *       configs   = ["teach-xbar", "knc-5110p --set ring.hop_cycles=2"]; # names or paths,
 *                                                            # each with --set overrides
 *       workloads = ["barrier-dissemination:m=1..4", "m2o", "my.trace"]; # specs or traces
 *       threads   = [2, 4, 8];
 *       iterations = 100;                                    # default 100
 *       seeds     = [1, 2];                                  # default [1]
 *     };
 *
 * The points are the cross product configs x workloads x threads x seeds, in
 * that nesting order (configs slowest, seeds fastest): the "point order". A
 * trace is one point per config and seed (its threads are its own; its
 * iterations column is 0: its loops say).
 * A parameter value `A..B` (integers, A <= B) in a workload spec expands to
 * one spec per value; several ranges multiply, the first varying slowest.
 *
 * The CSV key of a point is its first five columns (config, workload,
 * threads, iterations, seed) exactly as written in a row.
 */
#ifndef CCSIM_SWEEP_H
#define CCSIM_SWEEP_H

#include "machine.h"
#include "sim.h"
#include "core.h"

#define SWEEP_NAME_MAX   160 /* characters of a config or workload, + 1 */
#define SWEEP_MAX_POINTS 100000
#define SWEEP_ROW_MAX    4096 /* a CSV row, newline included, is shorter */

struct sweep_point {
    int config;   /* index into sweep.configs / sweep.machines */
    int workload; /* index into sweep.specs (expanded) */
    int threads;
    long iterations;
    uint64_t seed;
};

struct sweep {
    char path[1024];
    int nconfigs, nworkloads, nthreads, nseeds;
    char configs[64][SWEEP_NAME_MAX];
    char workloads[256][SWEEP_NAME_MAX];
    int64_t threads[64], seeds[64], iterations;
    double max_time_ns;           /* every point's simulated-time limit (0: core's default) */
    struct machine_cfg *machines; /* one per config, loaded */
    char **specs;                 /* expanded workloads */
    size_t nspecs;
    char **trace_path;  /* per spec: the trace file it names, or NULL (a generator) */
    int *trace_threads; /* per spec: a trace's threads */
    struct sweep_point *points;
    size_t npoints;
};

/* Loads, checks and expands a sweep file; loads every config. Errors go to
 * d as FILE:LINE: message. On failure the sweep is freed. */
bool sweep_load(struct sweep *sw, const char *path, struct sim_diag *d);
void sweep_free(struct sweep *sw);
/* Says on stderr which configs' --set overrides their machines do not use
 * (they change nothing; ccsim config marks them too). */
void sweep_note_unused_sets(struct sweep *sw);

/* Expands one workload spec's ranges into *out (malloc'ed strings appended,
 * *n updated; *out is NULL with *n = 0, or an array this function grew). Returns false with a
 * message in err for a bad range or when *n would pass SWEEP_MAX_POINTS. */
bool sweep_expand(const char *spec, char ***out, size_t *n, char *err, size_t errsize);

/* The result of one point. */
/* SWEEP_INPUT: the run found its input wrong (exit 2 of `run`, e.g. a
 * trace's run-time error): no row, and the sweep ends with exit 2. */
enum sweep_status { SWEEP_OK, SWEEP_FAILED, SWEEP_SKIPPED, SWEEP_INPUT };
struct sweep_result {
    int status; /* enum sweep_status */
    struct core_stats latency;
    uint64_t loads, stores, misses, invalidations, poll_refetches, steals, writebacks;
    uint64_t network_bytes, value_errors, coherence_violations, events;
    bool deadlock;
    bool time_limit; /* the run stopped at its simulated-time limit, not finished */
    double wall_s;
    uint64_t atomics, handoffs;
    double home_queue_ns, link_queue_ns;
    uint64_t measured; /* iterations measured (with a mark): 0 leaves latency empty */
    uint64_t prefetches, sw_prefetches, line_busy;
};

/* Runs point p (a generator spec or a trace file) in this process. */
void sweep_run_point(const struct sweep *sw, const struct sweep_point *p, struct sweep_result *r,
                     struct sim_diag *d);
/* True if point p can run (a generator may refuse its threads; a trace was
 * checked when the sweep loaded); else the refusal is in d. */
bool sweep_point_accepted(const struct sweep *sw, const struct sweep_point *p, struct sim_diag *d);

/* Runs a generator spec on a machine in this process. SWEEP_SKIPPED with
 * the generator's message in d if it refuses the point. */
void sweep_run_spec(const struct machine_cfg *m, const char *spec, int threads, long iterations,
                    uint64_t seed, sim_time_t max_time_ps, struct sweep_result *r,
                    struct sim_diag *d);
/* True if the generator accepts (spec, threads) on the machine; else the
 * refusal is in d. */
bool sweep_accepts(const struct machine_cfg *m, const char *spec, int threads, long iterations,
                   struct sim_diag *d);

/* The CSV header line (with its newline). */
extern const char sweep_csv_header[];
/* Writes a point's key columns (no trailing comma) into buf. */
void sweep_point_key(const struct sweep *sw, const struct sweep_point *p, char *buf, size_t size);
/* Writes the point's full row with its newline; returns its length, or 0
 * if it does not fit in size. */
size_t sweep_csv_row(const struct sweep *sw, const struct sweep_point *p,
                     const struct sweep_result *r, char *buf, size_t size);
/* Length of a row's key prefix (up to the fifth unquoted comma), 0 if the
 * line has fewer columns. */
size_t sweep_row_key_len(const char *line, size_t len);
/* True if a row records a failed check (value errors: a sweep runs no
 * coherence checker), as a resumed sweep counts it. */
bool sweep_row_failed(const char *line, size_t len);
/* Whether a line (its newline included, or not) is a row a sweep writes:
 * the header's columns, each after the key a non-negative number (the six
 * latencies all empty or all numbers: a run with no mark;
 * coherence_violations empty: a sweep runs no checker). Else why, for
 * --resume's refusal. */
bool sweep_row_valid(const char *line, size_t len, char *why, size_t size);

/* MPI (cli/sweep_mpi.c): rank 0 owns the CSV, the others send it rows. */
struct sweep_mpi {
    int rank, size;
    bool on; /* MPI_Init was called */
};
bool sweep_mpi_built(void);    /* CMake found MPI */
bool sweep_mpi_launched(void); /* started by mpirun (its environment variables) */
void sweep_mpi_init(struct sweep_mpi *m);
void sweep_mpi_bcast(void *buf, size_t len); /* from rank 0 */
/* Not rank 0: a finished point's row (len 0: it has none) to rank 0. */
void sweep_mpi_send_row(size_t point, const char *row, size_t len);
/* Not rank 0: the last message, SWEEP_MPI_COUNTS numbers: {points run,
 * points failed, an input error (0/1), a point's run died (0/1)}. */
#define SWEEP_MPI_COUNTS 4
void sweep_mpi_send_done(const uint64_t counts[SWEEP_MPI_COUNTS]);
/* Rank 0: 0 no message waiting; 1 a row (row[SWEEP_ROW_MAX], NUL-ended);
 * 2 a rank is done (counts). */
int sweep_mpi_poll(char *row, size_t *len, size_t *point, uint64_t counts[SWEEP_MPI_COUNTS]);
/* Every rank gets rank 0's status; finalises MPI. */
int sweep_mpi_finish(const struct sweep_mpi *m, int status);

#endif
