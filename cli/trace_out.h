/*
 * trace_out.h -- `ccsim run --trace-out FILE.json`: a run as a Chrome
 * trace-event file (the JSON the Perfetto UI and chrome://tracing open).
 *
 * What is written (times in microseconds, as floats, picosecond exact):
 *  - process 1 "threads": one track per simulated thread ("thread T (core
 *    C.H)", H its hardware thread) with each operation as a complete event ("ph":"X", cat "op", the
 *    op's name: read, write, add, wait, copy, sync, ...; args name the line);
 *  - one process per line, named as the trace names it ("line flag"), with
 *    one track per cache or home that touches it ("core C" or "cache C",
 *    "home H"; on the SCC "tile T" and "mc M"): the line's state there over
 *    time, one "X" span per state (state I is not drawn; the SCC's tiles and
 *    controllers have none, only messages; a reset's state shows from the
 *    reset on), and a counter "copies" ("ph":"C": caches holding a copy a load may read, an
 * upgrade's SM_D too);
 *  - message flows ("ph":"s" then "ph":"f", same "id", "bp":"e"), one per
 *    message, named as the protocol tables name it (GetS, GetX, Fwd_GetX,
 *    Data_M, Inv_Ack, Unblock, ...; the start's args "means" glosses it):
 *    from the sender's track when it was
 *    sent to the first row it drives at the receiver (a request a busy home
 *    parks ends where it was parked). A flow is written only with both
 *    ends, so every "s" has its "f".
 *  - "M" metadata events naming every process and track.
 * Events are buffered and written sorted by time (stable), so every track is
 * in time order. A window [from, to] (ps) keeps only what lies in it (spans
 * are clipped to it; flows need both ends in it). Once the events reach
 * max_bytes, recording stops with a message on stderr; the file written at
 * the end is still valid JSON and the run itself is not affected.
 */
#ifndef CCSIM_TRACE_OUT_H
#define CCSIM_TRACE_OUT_H

#include "core.h"

#include <stdbool.h>
#include <stdint.h>

struct trace_out_opts {
    const char *path;
    sim_time_t from, to; /* the window, ps; to = UINT64_MAX: to the end */
    uint64_t max_bytes;  /* cap on the events written */
    int tiles;           /* the SCC: the nodes after the caches are tiles, then memory
                            controllers (else homes); 0 elsewhere */
};

struct trace_out;

/* Parses "FROM:TO" or "FROM:" (ns) into ps; false on a malformed window. */
bool trace_out_parse_window(const char *text, sim_time_t *from, sim_time_t *to);
/* Opens the file (NULL, with a message on stderr, if it cannot be written). */
struct trace_out *trace_out_open(const struct trace_out_opts *o, const struct wl_program *p,
                                 const struct core_machine *w);
/* Observes the coherence system and sets o's on_place and on_op. */
void trace_out_attach(struct trace_out *t, struct core_run_opts *o);
/* Closes the open spans at `end`, writes the file and frees t; false (with a
 * message) if the file could not be written. */
bool trace_out_close(struct trace_out *t, sim_time_t end);

#endif
