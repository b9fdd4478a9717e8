/*
 * topology.c -- the backend registry (the one list of topologies) and the
 * parts every backend shares.
 */
#include "topology.h"

#include <stdlib.h>
#include <string.h>

/* The backends, one file each (NAME.c defines net_NAME_ops). */
#define NET_BACKENDS(X) X(xbar) X(ring) X(mesh) X(qpi) X(ht) X(bus) X(chiplet)

#define DECLARE(name) extern const struct net_ops net_##name##_ops;
NET_BACKENDS(DECLARE)
#undef DECLARE
#define ENTRY(name) &net_##name##_ops,
static const struct net_ops *const backends[] = {NET_BACKENDS(ENTRY)};
#undef ENTRY
#define NAME(name) #name,
const char *const net_built_names[] = {NET_BACKENDS(NAME) NULL};
#undef NAME

const struct net_ops *net_find(const char *name)
{
    for (size_t i = 0; i < SIM_COUNT_OF(backends); i++)
        if (strcmp(backends[i]->name, name) == 0)
            return backends[i];
    return NULL;
}

void net_base_init(struct net *n, const struct net_ops *ops, struct sim_kernel *k, int nodes)
{
    n->ops = ops;
    n->k = k;
    n->nnodes = nodes;
    n->deliver = sim_xcalloc((size_t)nodes, sizeof *n->deliver);
    n->node = sim_xcalloc((size_t)nodes, sizeof *n->node);
    memset(&n->stats, 0, sizeof n->stats);
}

void net_base_destroy(struct net *n)
{
    free(n->deliver);
    free(n->node);
}

void net_attach(struct net *n, int id, net_deliver_fn fn, void *node)
{
    SIM_ASSERT(id >= 0 && id < n->nnodes);
    n->deliver[id] = fn;
    n->node[id] = node;
}

void net_destroy(struct net *n)
{
    if (n)
        n->ops->destroy(n);
}

static void arrive(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct net *n = obj;
    struct sim_msg *m = (struct sim_msg *)(uintptr_t)arg;
    n->deliver[m->dst](k, n->node[m->dst], m);
}

void net_set_jitter(struct net *n, sim_time_t ps, uint64_t seed)
{
    n->jitter = ps;
    sim_rng_init(&n->jitter_rng, seed, 0x6a6974 /* "jit" */);
}

void net_set_arbitration(struct net *n, uint64_t seed)
{
    n->arbitration = true;
    n->arb_seed = seed;
}

void net_deliver_at(struct net *n, struct sim_msg *m, sim_time_t t)
{
    SIM_ASSERT(m->dst >= 0 && m->dst < n->nnodes && n->deliver[m->dst]);
    if (n->jitter)
        t += sim_rng_below(&n->jitter_rng, n->jitter + 1);
    n->stats.messages++;
    n->stats.bytes += m->bytes;
    net_schedule_hop(n, t, arrive, n, m);
}

int net_hops(const struct net *n, int a, int b)
{
    return n->ops->hops ? n->ops->hops(n, a, b) : 0;
}
