/*
 * bus.c -- `bus`: a shared front-side bus per socket, joined by a hub (the
 * memory controller hub, which holds the homes), as on a dual-socket
 * Clovertown with an Intel 5000-series chipset.
 *
 * Owns the `bus` config section. Socket s's caches (nodes s * cps ..
 * s * cps + cps - 1, cps = cores / sockets) sit on bus s; every home sits
 * in the hub. A bus carries one transaction at a time: a message holds it
 * for arbitration_ns (arbitration, request and snoop phases) plus its bytes
 * at bytes_per_ns (the data phase), first come, first served (net_link.h).
 *
 * Route: a cache's message takes its bus; it is delivered at the end of the
 * transaction if its destination is on that bus (a cache-to-cache transfer
 * on a bus is one transaction: every agent sees it), else it crosses the
 * hub (hub_ns) to a home there or onto the destination's bus. A home's
 * message crosses the hub, then takes the destination's bus.
 *
 * A bus broadcasts: the messages one source puts on a bus in the same
 * instant with the same size (a home's probes or invalidations of several
 * caches of that bus), reaching it in the same instant, ride one
 * transaction. That is read off src, send time and bytes only; the network
 * still never looks inside a message.
 *
 * Timing choice: one event per bus taken and one to deliver, as `ht` has
 * one a hop, so a bus is taken in the order messages reach it.
 */
#include "net_link.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern const struct net_ops net_bus_ops;

struct bus_cfg {
    double arbitration_ns;
    double bytes_per_ns;
    double hub_ns;
};

/* The last transaction a bus carried, for broadcasts. */
struct bus_last {
    int src;
    uint32_t bytes;
    sim_time_t sent, at, end; /* sent, reached the bus, ended */
    bool valid;
};

struct bus_net;
struct bus_stop { /* the object of an event: the bus a message reaches */
    struct bus_net *b;
    int id;
};

struct bus_net {
    struct net base;
    int sockets, cps, caches;
    sim_time_t arb_ps, hub_ps;
    double ps_per_byte;
    struct net_link *bus;  /* per socket */
    struct bus_last *last; /* per socket */
    struct bus_stop *stop; /* per socket */
};

#define T struct bus_cfg
static const struct cfg_key bus_keys[] = {
    CFG_FLOAT_KEY(T, arbitration_ns, true, 0.0, 100000.0, "ns",
                  "a transaction's time on the bus besides its data: arbitration, request and "
                  "snoop phases"),
    CFG_FLOAT_KEY(T, bytes_per_ns, true, 0.001, 10000.0, "B/ns", "the bus's data bandwidth"),
    CFG_FLOAT_KEY(T, hub_ns, true, 0.0, 100000.0, "ns",
                  "crossing the hub: between a bus and the homes, or to the other bus"),
};
#undef T

static void bus_defaults(void *cfg)
{
    struct bus_cfg *c = cfg;
    c->arbitration_ns = 10.0;
    c->bytes_per_ns = 10.0;
    c->hub_ns = 10.0;
}

static size_t bus_sections(void *cfg, struct cfg_section *out, size_t max)
{
    if (max < 1)
        return 0;
    out[0] = (struct cfg_section){
        "bus",    true,
        bus_keys, SIM_COUNT_OF(bus_keys),
        cfg,      "a shared bus per socket, joined by a hub holding the homes"};
    return 1;
}

static bool bus_check(const void *cfg, const struct net_layout *l, const struct cfg_file *cf,
                      struct sim_diag *d)
{
    (void)cfg;
    if (l->cores % l->sockets == 0 && l->mcs == 0)
        return true;
    cfg_diag(d, cf, "machine.sockets",
             "bus: %d caches do not divide among %d sockets' buses (machine.cores, "
             "machine.sockets)",
             l->cores, l->sockets);
    return false;
}

static struct net *bus_create(struct sim_kernel *k, const void *cfg,
                              const struct net_layout *layout, uint64_t seed, struct sim_diag *d)
{
    const struct bus_cfg *c = cfg;
    (void)seed;
    if (!bus_check(c, layout, NULL, d))
        return NULL;
    struct bus_net *b = sim_xcalloc(1, sizeof *b);
    net_base_init(&b->base, &net_bus_ops, k, layout->cores + layout->homes);
    b->sockets = layout->sockets;
    b->caches = layout->cores;
    b->cps = layout->cores / layout->sockets;
    b->arb_ps = (sim_time_t)(c->arbitration_ns * SIM_PS_PER_NS + 0.5);
    b->hub_ps = (sim_time_t)(c->hub_ns * SIM_PS_PER_NS + 0.5);
    b->ps_per_byte = SIM_PS_PER_NS / c->bytes_per_ns;
    b->bus = sim_xcalloc((size_t)b->sockets, sizeof *b->bus);
    b->last = sim_xcalloc((size_t)b->sockets, sizeof *b->last);
    b->stop = sim_xcalloc((size_t)b->sockets, sizeof *b->stop);
    for (int i = 0; i < b->sockets; i++)
        b->stop[i] = (struct bus_stop){b, i};
    return &b->base;
}

/* The bus a node sits on, or -1 for the hub (a home). */
static int bus_of(const struct bus_net *b, int node)
{
    return node < b->caches ? node / b->cps : -1;
}

static void bus_reach(struct sim_kernel *k, void *obj, uint64_t arg);

/* m takes bus s now; returns when its transaction ends. A message that
 * reaches the bus in the same instant as its last transaction, from the
 * same source, sent at the same time with the same size, is part of that
 * broadcast and ends with it. */
static sim_time_t bus_take(struct bus_net *b, int s, const struct sim_msg *m)
{
    struct bus_last *last = &b->last[s];
    sim_time_t now = sim_now(b->base.k);
    if (last->valid && last->at == now && last->src == m->src && last->sent == m->sent &&
        last->bytes == m->bytes)
        return last->end;
    sim_time_t occupy = b->arb_ps + (sim_time_t)ceil((double)m->bytes * b->ps_per_byte);
    sim_time_t start = net_link_take(&b->base, &b->bus[s], now, occupy, m->bytes);
    *last = (struct bus_last){m->src, m->bytes, m->sent, now, start + occupy, true};
    return start + occupy;
}

/* m is at the hub now: to a home there, or onto its destination's bus. */
static void bus_at_hub(struct bus_net *b, struct sim_msg *m, sim_time_t now)
{
    int to = bus_of(b, m->dst);
    if (to < 0)
        net_deliver_at(&b->base, m, now);
    else
        net_schedule_hop(&b->base, now, bus_reach, &b->stop[to], m);
}

/* m reaches bus s: delivered at the end of its transaction if its
 * destination is on s, else across the hub. */
static void bus_reach(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct bus_stop *stop = obj;
    struct bus_net *b = stop->b;
    struct sim_msg *m = (struct sim_msg *)(uintptr_t)arg;
    (void)k;
    sim_time_t end = bus_take(b, stop->id, m);
    if (bus_of(b, m->dst) == stop->id)
        net_deliver_at(&b->base, m, end);
    else
        bus_at_hub(b, m, end + b->hub_ps);
}

static void bus_send(struct net *n, struct sim_msg *m)
{
    struct bus_net *b = (struct bus_net *)n;
    SIM_ASSERT(m->src >= 0 && m->src < n->nnodes && m->dst >= 0 && m->dst < n->nnodes);
    m->sent = sim_now(n->k);
    int s = bus_of(b, m->src);
    if (s >= 0)
        bus_reach(n->k, &b->stop[s], (uint64_t)(uintptr_t)m);
    else
        bus_at_hub(b, m, m->sent + b->hub_ps);
}

/* Buses crossed from a to b. */
static int bus_hops(const struct net *n, int a, int b)
{
    const struct bus_net *bn = (const struct bus_net *)n;
    int sa = bus_of(bn, a), sb = bus_of(bn, b);
    if (sa == sb)
        return sa < 0 ? 0 : 1;
    return (sa >= 0) + (sb >= 0);
}

static void bus_print_links(const struct net *n, FILE *f)
{
    const struct bus_net *b = (const struct bus_net *)n;
    char name[32];
    fprintf(f, "(a bus counts transactions: the messages of one broadcast ride one, its bytes "
               "counted once)\n");
    for (int s = 0; s < b->sockets; s++) {
        snprintf(name, sizeof name, "bus %d", s);
        net_link_print(&b->bus[s], name, sim_now(n->k), f);
    }
}

static void bus_destroy(struct net *n)
{
    struct bus_net *b = (struct bus_net *)n;
    free(b->bus);
    free(b->last);
    free(b->stop);
    net_base_destroy(n);
    free(b);
}

const struct net_ops net_bus_ops = {
    .name = "bus",
    .summary = "a shared front-side bus per socket, joined by a hub that holds the homes "
               "(dual-socket Clovertown, Intel 5000-series chipset)",
    .cfg_size = sizeof(struct bus_cfg),
    .cfg_defaults = bus_defaults,
    .cfg_sections = bus_sections,
    .check = bus_check,
    .create = bus_create,
    .send = bus_send,
    .destroy = bus_destroy,
    .print_links = bus_print_links,
    .hops = bus_hops,
};
