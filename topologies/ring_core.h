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
 * Timing, all on the ring's clock: a message reaching stop s at time t gets
 * on at the first edge at or after t plus stop_cycles; at every stop it
 * takes the link toward its target in the shorter direction (a tie goes
 * clockwise, the direction of increasing stop numbers), waits until the link
 * is free, occupies it ceil(bytes / link_bytes) cycles and reaches the next
 * stop hop_cycles after it started on the link (cut-through: the next link
 * can start as soon as the head arrives). At its target it gets off
 * stop_cycles later. A message whose target is its entry stop only pays
 * stop_cycles once.
 *
 * Per-hop events: a message is re-scheduled at every stop and takes the
 * next link when it gets there, so links serve messages in the order they
 * reach them and a later message can overtake an earlier one at a
 * downstream link. Routing is memoryless (the direction is recomputed from
 * the current stop and the target), so a message carries no routing state:
 * the event's object is the stop, its argument the message.
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

struct net_ring_stop {
    struct net_ring *ring;
    int index;
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
    sim_time_t hop_ps, stop_ps;
    struct net_link *links;     /* [ring][direction][stop]: the link leaving stop */
    struct net_ring_stop *stop; /* per stop: the object of its events */
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
