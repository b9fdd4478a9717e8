/*
 * ring.c -- `ring`: a bidirectional ring of stops (KNC's ring, one socket
 * of Sandy Bridge), with one or three rings (request / data / acknowledge,
 * as KNC's AD, BL and AK rings; a message rides the ring of its m->vnet).
 *
 * Owns the `ring` config section and the placement of nodes on stops: core
 * c at stop c * stops / cores, home h at stop h * stops / homes (with
 * homes == cores == stops, home h sits at core h's stop, as KNC's tag
 * directories do). The mechanics are ring_core.c's: shortest direction, a
 * tie goes clockwise (toward increasing stop numbers); every direction of
 * every link of every ring is a resource a message queues for and occupies
 * ceil(bytes / link_bytes) ring cycles; a hop takes hop_cycles; getting on
 * and off a stop takes stop_cycles each (a message to its own stop pays it
 * once).
 *
 * Timing choice: a slotted ring (ring_core.h). Traffic on the ring has the
 * right of way; a message waits at its entry stop until its slots are free
 * on its whole way, reserves them, and is delivered by one event: no event
 * per hop, no allocation per message.
 *
 * Invariant: every message sent is delivered once, after at least
 * hops * hop_cycles (+ 2 * stop_cycles) ring cycles.
 */
#include "ring_core.h"

#include <stdlib.h>

extern const struct net_ops net_ring_ops;

struct ring_cfg {
    int64_t stops; /* 0: one per core */
    double clock_ghz;
    int64_t hop_cycles;
    int64_t link_bytes;
    int64_t rings;
    int64_t stop_cycles;
};

struct ring {
    struct net base;
    struct net_ring ring;
    int *stop_of; /* per node */
};

#define T struct ring_cfg
static const struct cfg_key ring_keys[] = {
    CFG_INT_KEY(T, stops, false, 1, 4096, NULL,
                "stops on the ring (default: one per cache, the cores' or one they share)"),
    CFG_FLOAT_KEY(T, clock_ghz, true, 0.01, 10.0, "GHz", "the ring's clock"),
    CFG_INT_KEY(T, hop_cycles, true, 1, 1000, "cycles", "ring cycles from a stop to the next"),
    CFG_INT_KEY(T, link_bytes, true, 1, 4096, "B",
                "bytes a link carries per ring cycle (a message occupies it ceil(B/link_bytes))"),
    CFG_INT_KEY(T, rings, false, 1, 3, NULL,
                "1, or 3: separate request / data / acknowledge rings (default 1)"),
    CFG_INT_KEY(T, stop_cycles, false, 0, 1000, "cycles",
                "to get on or off the ring at a stop (default 0)"),
};
#undef T

static void ring_defaults(void *cfg)
{
    struct ring_cfg *c = cfg;
    *c = (struct ring_cfg){.stops = 0,
                           .clock_ghz = 1.0,
                           .hop_cycles = 1,
                           .link_bytes = 32,
                           .rings = 1,
                           .stop_cycles = 0};
}

static size_t ring_sections(void *cfg, struct cfg_section *out, size_t max)
{
    if (max < 1)
        return 0;
    out[0] = (struct cfg_section){
        "ring", true, ring_keys, SIM_COUNT_OF(ring_keys), cfg, "bidirectional ring of stops"};
    return 1;
}

static int ring_target(void *owner, const struct net_ring *r, const struct sim_msg *m)
{
    const struct ring *rg = owner;
    (void)r;
    return rg->stop_of[m->dst];
}

static void ring_leave(void *owner, struct net_ring *r, struct sim_msg *m, sim_time_t t)
{
    struct ring *rg = owner;
    (void)r;
    net_deliver_at(&rg->base, m, t);
}

/* One ring or three (request, data, acknowledge). */
static bool ring_check(const void *cfg, const struct net_layout *layout, const struct cfg_file *cf,
                       struct sim_diag *d)
{
    const struct ring_cfg *c = cfg;
    (void)layout;
    if (c->rings == 1 || c->rings == SIM_VNETS)
        return true;
    cfg_diag(d, cf, "ring.rings",
             "ring.rings = %lld: a ring network has 1 ring, or 3 (request, data, acknowledge)",
             (long long)c->rings);
    return false;
}

/* The ring's stops: as given, else one per cache. */
static int64_t ring_stops(const struct ring_cfg *c, const struct net_layout *layout)
{
    return c->stops ? c->stops : layout->cores;
}

static void ring_resolve(void *cfg, const struct net_layout *layout)
{
    struct ring_cfg *c = cfg;
    c->stops = ring_stops(c, layout);
}

static struct net *ring_create(struct sim_kernel *k, const void *cfg,
                               const struct net_layout *layout, uint64_t seed, struct sim_diag *d)
{
    const struct ring_cfg *c = cfg;
    (void)seed;
    if (!ring_check(c, layout, NULL, d))
        return NULL;
    SIM_ASSERT(layout->cores >= 1 && layout->homes >= 1);
    int64_t stops = ring_stops(c, layout);
    struct ring *rg = sim_xcalloc(1, sizeof *rg);
    net_base_init(&rg->base, &net_ring_ops, k, layout->cores + layout->homes);
    struct net_ring_params p = {(int)stops,         (int)c->rings,      c->clock_ghz,
                                (int)c->hop_cycles, (int)c->link_bytes, (int)c->stop_cycles};
    net_ring_init(&rg->ring, &rg->base, &p, rg, ring_target, ring_leave);
    rg->stop_of = sim_xcalloc((size_t)rg->base.nnodes, sizeof *rg->stop_of);
    for (int i = 0; i < layout->cores; i++)
        rg->stop_of[i] = (int)(i * stops / layout->cores);
    for (int h = 0; h < layout->homes; h++)
        rg->stop_of[layout->cores + h] = (int)(h * stops / layout->homes);
    return &rg->base;
}

static void ring_send(struct net *n, struct sim_msg *m)
{
    struct ring *rg = (struct ring *)n;
    SIM_ASSERT(m->src >= 0 && m->src < n->nnodes && m->dst >= 0 && m->dst < n->nnodes);
    m->sent = sim_now(n->k);
    net_ring_enter(&rg->ring, m, rg->stop_of[m->src], m->sent);
}

static void ring_print_links(const struct net *n, FILE *f)
{
    const struct ring *rg = (const struct ring *)n;
    net_ring_print(&rg->ring, "", f);
}

static void ring_destroy(struct net *n)
{
    struct ring *rg = (struct ring *)n;
    net_ring_free(&rg->ring);
    free(rg->stop_of);
    net_base_destroy(n);
    free(rg);
}

const struct net_ops net_ring_ops = {
    .name = "ring",
    .summary = "bidirectional ring of stops, 1 or 3 rings (KNC, a Sandy Bridge socket)",
    .cfg_size = sizeof(struct ring_cfg),
    .cfg_defaults = ring_defaults,
    .cfg_sections = ring_sections,
    .check = ring_check,
    .resolve = ring_resolve,
    .create = ring_create,
    .send = ring_send,
    .destroy = ring_destroy,
    .print_links = ring_print_links,
};
