/*
 * gen.h -- the built-in generators (prefix gen_): each writes the trace of
 * one algorithm of the seeds in the trace format (workloads/trace/trace.h).
 * One file per algorithm family (barrier_dissemination.c, barrier_flags.c,
 * radix.c, bcast.c, reduce.c, notify.c, tree.c, mpi_shm.c, rcce.c); the
 * catalogue, with the paper behind each generator, is registry.c.
 */
#ifndef CCSIM_GEN_H
#define CCSIM_GEN_H

#include "sim.h"

#include <stdio.h>

/*
 * Built-in generators (workloads/gen/): each writes the trace of one
 * algorithm of seed 000 (Ramos & Hoefler, "Cache Line Aware Algorithm
 * Design for Cache-Coherent Architectures"), seed 002 (barriers with
 * combined reductions) or seed 003 (Nishtala & Yelick, collectives on
 * multicores) in the format above, so that
 * `ccsim gen` can dump it for a user to read, change and run. A generator
 * emits a program of cache-line operations only: no timing, no model.
 *
 * Every generated trace follows the paper's measurement method (Sec 2.5):
 * data is produced before `all: sync`, which opens each iteration;
 * synchronisation lines are evicted (state I) and user data primed in M in
 * its owner's cache; flags carry it+1 (or a multiple), so nothing is reset;
 * every thread ends with `all: mark done`; `expect`s after the mark check
 * the result with values that change every iteration. With a machine whose
 * cores are known, a `pin` line places thread t on core t % cores, hardware
 * thread t / cores, which fills one socket before the next (Sec 2.5).
 * Generation is deterministic: the same arguments give the same text.
 */
struct gen_machine {
    int cores;              /* physical cores (0: unknown, emit no pin) */
    int sockets;            /* >= 1 */
    int threads_per_core;   /* >= 1 */
    int line_bytes;         /* 0 means 64 */
    int atomic_store_bytes; /* what one store writes atomically; 0 means 8 */
    long mpb_lines;         /* message-passing buffer lines per core (0: none or unknown) */
};
/* The trace of generator spec "NAME[:k=v,...]" for `threads` threads and
 * `iterations` iterations, as a malloc'ed NUL-terminated string (free()
 * it); NULL with messages in d ("-w SPEC: what is wrong (what is
 * expected)") for an unknown name, an unknown or malformed parameter, a
 * value out of range, or a thread count the algorithm cannot take. m may
 * be NULL (no pin line, 64-byte lines). */
char *gen_trace(const char *spec, int threads, long iterations, const struct gen_machine *m,
                struct sim_diag *d);
/* gen_trace, its messages headed `where` instead of "-w SPEC" (`ccsim gen`
 * takes the spec as its argument). */
char *gen_trace_at(const char *where, const char *spec, int threads, long iterations,
                   const struct gen_machine *m, struct sim_diag *d);
/* True if spec names a generator and its parameters are known and well
 * formed (what does not depend on the threads or the machine); else the
 * messages, headed `where`, are in d. */
bool gen_check_spec(const char *where, const char *spec, struct sim_diag *d);
/* For `ccsim list generators`: every generator, its one-line summary, the
 * paper section it comes from, and each parameter with its default and
 * meaning. */
void gen_list(FILE *f);
/* Names of the generators, NULL-terminated (for tests and completion). */
extern const char *const gen_names[];

#endif /* CCSIM_GEN_H */
