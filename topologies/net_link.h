/*
 * net_link.h -- one directed link of a network backend (internal to
 * topologies/): a resource that carries one message at a time.
 *
 * A message that reaches a link at time t starts on it at
 * max(t, busy_until): the difference is queueing, counted on the link and
 * in the network's stats.queue_ps. It then occupies the link for its
 * serialisation time. Messages therefore take a link in the order they
 * reach it (first come, first served; equal times in event order).
 *
 * Invariants: busy_until never decreases; busy_ps and queue_ps only grow;
 * a link's state is allocated with its backend, never per message.
 */
#ifndef CCSIM_NET_LINK_H
#define CCSIM_NET_LINK_H

#include "topology.h"

#include <stdio.h>

struct net_link {
    sim_time_t busy_until; /* the link is free from this time on */
    sim_time_t busy_ps;    /* sum of serialisation times: utilisation */
    sim_time_t queue_ps;   /* sum of the time messages waited for it */
    uint64_t messages, bytes;
};

/* A message of `bytes` reaches link l at time t and occupies it for
 * `occupy` ps; returns when it starts on the link. */
static inline sim_time_t net_link_take(struct net *n, struct net_link *l, sim_time_t t,
                                       sim_time_t occupy, uint32_t bytes)
{
    sim_time_t start = t > l->busy_until ? t : l->busy_until;
    l->queue_ps += start - t;
    n->stats.queue_ps += start - t;
    l->busy_until = start + occupy;
    l->busy_ps += occupy;
    l->messages++;
    l->bytes += bytes;
    return start;
}
/* Cycles a message of `bytes` needs on a link carrying `per_cycle` bytes a
 * cycle: ceil(bytes / per_cycle). */
static inline uint64_t net_link_cycles(uint32_t bytes, uint32_t per_cycle)
{
    return ((uint64_t)bytes + per_cycle - 1) / per_cycle;
}
/* One line for a link that carried traffic (nothing if it carried none):
 * name, messages, bytes, utilisation over `elapsed` ps, queueing. */
void net_link_print(const struct net_link *l, const char *name, sim_time_t elapsed, FILE *f);

#endif
