/*
 * narrate.h -- one coherence step (struct cc_step, protocols/protocol.h) as
 * text for `ccsim explain` (prefix narrate_).
 *
 * A narration says what the row did in this instance and nothing it could
 * have done elsewhere: the messages it sent (by the tables' names), the
 * memory it read or wrote, the directory entry's owner, sharers and
 * awaited answers where they changed, the words of the line that changed,
 * the state it moved to. An action that did nothing says nothing. Names
 * are the tables' (`ccsim protocol NAME`); each one's gloss goes beside it
 * where the line has room (always with `wide`) and into a legend.
 */
#ifndef CCSIM_NARRATE_H
#define CCSIM_NARRATE_H

#include "core.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define NARRATE_WIDTH  120 /* characters a line keeps under (unless wide) */
#define NARRATE_LEGEND 192 /* names a legend holds */

/* The names used so far, each with its gloss, for the legend. */
struct narrate_legend {
    const char *kind[NARRATE_LEGEND]; /* "state", "event", "message" */
    const char *name[NARRATE_LEGEND];
    const char *gloss[NARRATE_LEGEND];
    int n;
};

struct narrate_ctx {
    const struct wl_program *p;
    const struct sim_map *names; /* line number -> line index + 1 */
    int cores;                   /* cache nodes: 0..cores-1 (a core's own, or shared by several) */
    bool shared_caches;          /* caches serve several cores: a cache node is "cache N" */
    int tiles;                   /* the SCC: homes are tiles, then memory controllers; else 0 */
    bool wide;                   /* every gloss inline, no wrapping */
    int who_width;               /* the who column's width (narrate_who_width; at least 8) */
    struct narrate_legend legend;
};

/* A reset's line in its home's LLC (mesif-llc's inclusive LLC). */
struct narrate_llc {
    bool held, after;   /* the LLC held the line before, after */
    bool dirty;         /* before: its copy held a write-back memory had not got */
    bool drop;          /* a prime's fill of a full set dropped `dropped` from it */
    bool dropped_dirty; /* ... its copy there held a write-back, now put in memory */
    uint64_t dropped;
};

/* A reset: the methodology's evict or prime of a line, at no cost. */
struct narrate_reset {
    sim_time_t time;
    int thread, cache; /* who, and the cache node of its core */
    char prime;        /* 0 for an evict, else the state primed: 'M', 'E' or 'S' */
    uint64_t line;
    sim_time_t waited_ps;   /* the thread waited this long for the line to be quiet (0: a reset
                               that opens an iteration, at the sync's release) */
    bool way_wait;          /* a prime's wait was also for a way in its cache (a full set whose
                               every way had a transaction under way) */
    const char *held;       /* [cores]: each cache node's state letter before, 'I' for none */
    const char *after;      /* [cores]: the same after */
    struct narrate_llc llc; /* the home's LLC (mesif-llc's inclusive one) */
    bool gols_dirty;        /* before: GOLS sharers of a dirty line (memory stale, no M copy) */
    bool displaced;         /* line left cache's full set to make room for the prime of primed */
    uint64_t primed;
};

/* A thread's copy (addline) loop stops at a prefetch instruction for one
 * of its core's slots, or goes on from it (core_run_opts' on_prefetch_wait). */
struct narrate_prefetch_wait {
    sim_time_t time;
    int thread, core;
    uint64_t line; /* the line the instruction fetches */
    bool write;    /* to write (else to read) */
    int slots;     /* the core's slots of that kind */
    bool addline;  /* an addline's loop (else a copy's) */
    enum core_pf_wait what;
};

/* The who column's width that holds every name the run can print: "thread
 * N" of its threads, the caches' or cores' names, "home N" (or "tile N")
 * of its homes; at least 8. */
int narrate_who_width(int threads, int caches, bool shared, int homes);
/* Prints one step, wrapped under NARRATE_WIDTH (unless wide). */
void narrate_step(struct narrate_ctx *n, const struct cc_step *st, FILE *f);
/* Prints a reset: what holds the line now and what became of every other
 * copy (dropped, kept, or changed). */
void narrate_reset(struct narrate_ctx *n, const struct narrate_reset *r, FILE *f);
/* Prints a copy loop's stop at a prefetch instruction, or its going on. */
void narrate_prefetch_wait(struct narrate_ctx *n, const struct narrate_prefetch_wait *w, FILE *f);
/* Prints an iteration's opening (its sync's release); skew_ps: the
 * machine's start skew, 0 for none. */
/* How a sync's release is labelled: a loop's next value, a further sync
 * with the label the last one had, or a sync outside loops (labelled by
 * its count among the syncs). */
enum narrate_sync { NARRATE_SYNC_LOOP, NARRATE_SYNC_AGAIN, NARRATE_SYNC_TOP };
void narrate_iteration(sim_time_t time, int64_t label, enum narrate_sync kind, sim_time_t skew_ps,
                       FILE *f);
/* Prints the legend of the names the steps used. */
void narrate_legend_print(const struct narrate_ctx *n, FILE *f);
/* A node as explain and the timelines name it: below `caches` a cache node,
 * "core N" ("cache N" where cores share caches); then "home N", or on the
 * SCC (tiles > 0) "tile N" and after the tiles "mc N". */
void narrate_node_name(int node, int caches, bool shared, int tiles, char *buf, size_t size);
/* A node as a reader names it: "core 3" ("cache 3" where cores share
 * caches), "home 0", "tile 5", "mc 1". */
void narrate_who(const struct narrate_ctx *n, int node, bool home, char *buf, size_t size);
/* A line by the trace's name ("data[2]"), or "#N" for a line it does not name. */
void narrate_line_name(const struct narrate_ctx *n, uint64_t line, char *buf, size_t size);

#endif
