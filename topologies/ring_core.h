/*
 * ring_core.h -- the mechanics of a bidirectional ring of stops (internal
 * to topologies/), shared by the `ring` backend and the socket rings of
 * `qpi`.
 *
 * A ring has `stops` stops; between neighbouring stops each direction is
 * one link (struct net_link), and with 3 rings (request, data and
 * acknowledge, as KNC's AD, BL and AK rings) each ring has its own links; a
 * message rides the ring of its m->vnet. The owner says where a message
 * leaves the ring (target) and what happens then (leave).
 *
 * Timing, all on the ring's clock: a message reaching stop s at time t is
 * ready to get on at the first edge at or after t plus stop_cycles. It
 * takes the shorter direction toward its target (a tie goes clockwise, the
 * direction of increasing stop numbers) and d hops. On every link it holds
 * ceil(bytes / link_bytes) consecutive cycles (its slots), and it reaches
 * the next stop hop_cycles after it started on a link (cut-through: the
 * next link can start as soon as the head arrives). At its target it gets
 * off stop_cycles later. A message whose target is its entry stop only
 * pays stop_cycles once. Unloaded: ready + d * hop_cycles + stop_cycles.
 *
 * A slotted ring: a message on the ring never waits;
 * the traffic already on the ring has the right of way and a message waits
 * at its entry stop until its slots are free on every link of its way.
 * It is decided when the message is handed to the ring (net_ring_enter):
 * it gets the earliest start >= ready at which its slots on all d links
 * are free of every reservation made before it, and reserves them. So
 * messages get slots in the order they are handed to the ring (equal times
 * in event order), and queueing shows at the entry link (its queue_ps).
 *
 * One event per message (its delivery), none per hop, and no work per hop
 * either: that is what makes a 60-stop ring cheap to simulate. The slots a
 * message holds lie on diagonals of the (link, cycle) plane (struct
 * net_ring_diag), so checking and reserving a way costs a few mask tests
 * per cycle a message occupies a link, and the per-link statistics are
 * kept as differences (+ at the first link, - after the last). Diagonal
 * tables have `window` entries indexed by key % window, each stamped with
 * its key; an entry for an older key is stale and nothing is ever cleared.
 * Invariant: every key held is below now's cycle + window (the tables
 * double before a reservation would break it), so no two live keys share
 * an entry; keys below now's cycle hold only past cycles.
 */
#ifndef CCSIM_RING_CORE_H
#define CCSIM_RING_CORE_H

#include "net_link.h"

#include <stdio.h>

enum { NET_RING_CW, NET_RING_CCW };

struct net_ring;
/* The stop where m leaves ring r. */
typedef int (*net_ring_target_fn)(void *owner, const struct net_ring *r, const struct sim_msg *m);
/* m got off ring r at its target stop; t (>= now) is when it is off. */
typedef void (*net_ring_leave_fn)(void *owner, struct net_ring *r, struct sim_msg *m, sim_time_t t);

struct net_ring_params {
    int stops; /* >= 1 */
    int rings; /* 1, or 3: one per SIM_VNET_* */
    double clock_ghz;
    int hop_cycles;  /* per hop */
    int link_bytes;  /* per link per cycle */
    int stop_cycles; /* to get on or off at a stop */
};

/* The reservations of one direction of one ring, by diagonal. A message
 * that holds link L at cycle x holds diagonal key(x, L) = x + (stops - 1 -
 * L) * hop_cycles clockwise, x + L * hop_cycles counter-clockwise: the key
 * stays the same hop after hop (it grows by stops * hop_cycles where the
 * way wraps past stop 0), so a message's slots are a few (key, range of
 * stops) pairs whatever its length. */
struct net_ring_diag {
    uint64_t *stamp; /* [window]: key + 1 of the entry, else stale (no stop held) */
    uint64_t *held;  /* [window][words]: bit L: link L is held */
};

struct net_ring {
    struct net *net; /* the backend the ring belongs to: kernel, stats */
    void *owner;
    int id; /* the owner's number for the ring (a socket), for names */
    net_ring_target_fn target;
    net_ring_leave_fn leave;
    struct sim_clock clk;
    int stops, rings;
    uint32_t link_bytes;
    uint64_t hop_cycles;
    sim_time_t hop_ps, stop_ps;
    struct net_link *links;      /* [ring][direction][stop]: the link leaving stop; only
                                    queue_ps is kept here, the rest in diff */
    int64_t (*diff)[3];          /* the same index: messages, bytes, busy_ps, as differences
                                    along the direction (summed when printed) */
    struct net_ring_diag *diags; /* [ring][direction] */
    int words;                   /* 64-bit words of a held mask: ceil(stops / 64) */
    uint64_t window;             /* keys per diag table, a power of two */
};

void net_ring_init(struct net_ring *r, struct net *n, const struct net_ring_params *p, void *owner,
                   net_ring_target_fn target, net_ring_leave_fn leave);
void net_ring_free(struct net_ring *r);
/* m is at stop `stop` at time t (>= now) and gets on the ring there. */
void net_ring_enter(struct net_ring *r, struct sim_msg *m, int stop, sim_time_t t);
/* Hops from stop a to stop b in direction dir. */
int net_ring_distance(const struct net_ring *r, int a, int b, int dir);
/* Every link that carried traffic, named "PREFIXringR cw A->B". */
void net_ring_print(const struct net_ring *r, const char *prefix, FILE *f);

#endif
