/*
 * topology.h -- interconnects: how a message gets from one node to another
 * and how long it takes.
 *
 * A topology is a backend behind struct net_ops, chosen by the config's
 * machine.topology string, one file per backend. It owns its config section
 * (e.g. `xbar`), creates a struct net for a number of nodes, and delivers
 * every message sent to the destination node's handler at the time the
 * message arrives. Node ids are small integers handed out by the machine
 * assembly; a backend that has a geometry is told where each node sits.
 *
 * Invariant: every message sent is delivered exactly once, at a time >= the
 * time it was sent; the network never looks inside a message beyond src,
 * dst and bytes.
 */
#ifndef CCSIM_TOPOLOGY_H
#define CCSIM_TOPOLOGY_H

#include "config.h"
#include "sim.h"

#include <stdio.h>

struct net;
typedef void (*net_deliver_fn)(struct sim_kernel *k, void *node, struct sim_msg *m);

struct net_stats {
    uint64_t messages;
    uint64_t bytes;
    sim_time_t queue_ps; /* time messages waited for busy links */
};

/* What the machine assembly tells a backend about the nodes: cores' caches
 * are nodes 0..cores-1 (core c of socket c / (cores / sockets)), homes are
 * nodes cores..cores+homes-1 (home h of socket h / (homes / sockets)). A
 * backend places them on its stops/tiles by its own config. */
struct net_layout {
    int cores;
    int homes;
    int sockets;
    int mcs; /* memory controllers: nodes after the homes (the SCC's; 0 elsewhere) */
};

struct net_ops {
    const char *name;
    const char *summary;
    size_t cfg_size;                 /* the backend's config struct */
    void (*cfg_defaults)(void *cfg); /* fills defaults before loading */
    size_t (*cfg_sections)(void *cfg, struct cfg_section *out, size_t max);
    /* Optional: false, with messages naming the keys (cfg_diag: their
     * FILE:LINE when cf is the loaded file), if the config cannot hold the
     * layout. The loader calls it, so `ccsim config` refuses what a run
     * would; create calls it again (cf NULL) and refuses the same. */
    bool (*check)(const void *cfg, const struct net_layout *layout, const struct cfg_file *cf,
                  struct sim_diag *d);
    /* Optional: writes into cfg the values its left-out keys resolve to for
     * the layout (a ring's stops: one per cache), so that `ccsim config`
     * prints what a run uses, not the 0 that stands for "by the layout". */
    void (*resolve)(void *cfg, const struct net_layout *layout);
    /* NULL with a message in d if the config and the layout disagree */
    struct net *(*create)(struct sim_kernel *k, const void *cfg, const struct net_layout *layout,
                          uint64_t seed, struct sim_diag *d);
    void (*send)(struct net *n, struct sim_msg *m);
    void (*destroy)(struct net *n);
    /* Optional (NULL: the backend has no links): prints every link that
     * carried traffic, one a line: its name, messages, bytes, utilisation %
     * (busy time over the simulated time so far) and queueing ns. */
    void (*print_links)(const struct net *n, FILE *f);
    /* Optional (NULL: no geometry): links crossed from node a to node b. */
    int (*hops)(const struct net *n, int a, int b);
};

/* Fields every backend's struct net starts with. */
struct net {
    const struct net_ops *ops;
    struct sim_kernel *k;
    int nnodes;
    net_deliver_fn *deliver; /* per node */
    void **node;             /* per node */
    struct net_stats stats;
    sim_time_t jitter; /* random extra delay per message, uniform in [0, jitter] */
    struct sim_rng jitter_rng;
    bool arbitration; /* messages meeting at a node or a link in the same instant go
                         in a random order (seeded) instead of the order they were sent */
    uint64_t arb_seed;
};

/* The backends; NULL if name is not one. */
const struct net_ops *net_find(const char *name);
/* Names of the built backends, NULL-terminated. */
extern const char *const net_built_names[];

void net_attach(struct net *n, int id, net_deliver_fn fn, void *node);
static inline void net_send(struct net *n, struct sim_msg *m)
{
    n->ops->send(n, m);
}
void net_destroy(struct net *n);
/* Every message gets a random extra delay in [0, ps] at its destination (the
 * stress tester uses it to reorder messages and force protocol races). */
void net_set_jitter(struct net *n, sim_time_t ps, uint64_t seed);

/* Messages of different sources that arrive at a node, or at a link, at
 * the same instant go in an order drawn from (seed, source, time) instead
 * of the order they were sent; one source's messages keep their order. */
void net_set_arbitration(struct net *n, uint64_t seed);

/* Links from node a to node b, or 0 if the backend has no geometry. */
int net_hops(const struct net *n, int a, int b);

/* For backends: set up the common part; deliver m at absolute time t. */
void net_base_init(struct net *n, const struct net_ops *ops, struct sim_kernel *k, int nodes);
void net_base_destroy(struct net *n);
void net_deliver_at(struct net *n, struct sim_msg *m, sim_time_t t);
/* m's next hop at absolute time t: fn(k, obj, m) as sim_schedule_at, ranked
 * by its source when arbitration is on (a link's arbiter). */
static inline void net_schedule_hop(struct net *n, sim_time_t t, sim_handler_fn fn, void *obj,
                                    struct sim_msg *m)
{
    if (!n->arbitration)
        sim_schedule_at(n->k, t, fn, obj, (uint64_t)(uintptr_t)m);
    else
        sim_schedule_shuffled(n->k, t, n->arb_seed, (uint64_t)m->src, fn, obj,
                              (uint64_t)(uintptr_t)m);
}

#endif
