/*
 * chiplet.c -- `chiplet`: core complexes (CCX) on their own dies, each
 * joined by one link per direction (AMD's Infinity Fabric) to a central
 * I/O die that holds the homes (the memory controllers and the probe
 * filter / directory): EPYC Milan.
 *
 * Owns the `chiplet` config section: the cache nodes a CCX holds, the
 * crossing of a CCX's own interconnect, the I/O die's switch, and a link's
 * latency and bandwidth. Cache node c (a core's cache, or a cache the cores
 * of machine.cores_per_cache share) is in CCX c / caches_per_ccx; every
 * home is on the I/O die. One socket: layouts with more sockets, with
 * memory-controller nodes (the SCC's), or whose caches do not fill whole
 * CCXs are refused.
 *
 * Route: between two caches of one CCX, the CCX's interconnect (ccx_ns).
 * From a cache to anything outside its CCX: the CCX's interconnect to its
 * link port, the CCX's up link (waits until the link is free, occupies it
 * bytes / link_bytes_per_ns, rounded up to whole ps, arrives
 * link_latency_ns after its last byte went on; link_up_bytes_per_ns
 * toward the I/O die if set, as Milan's links read twice as wide as they
 * write), the I/O die's switch
 * (iod_ns); there a home is reached, and a cache of another CCX through
 * that CCX's down link and its interconnect. From a home: the I/O die's
 * switch, then as above. Links queue first come, first served
 * (net_link.h); the CCXs' interconnects and the I/O die's switch do not
 * queue.
 *
 * Timing choice: one event per link taken (a message takes a link at the
 * time it reaches it, so a link's order is the arrival order) and one to
 * deliver; the route is memoryless (from where the message is and its
 * destination), so no per-message state or allocation.
 */
#include "net_link.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern const struct net_ops net_chiplet_ops;

struct chiplet_cfg {
    int64_t caches_per_ccx;
    double ccx_ns;
    double iod_ns;
    double link_latency_ns;
    double link_bytes_per_ns;
    double link_up_bytes_per_ns;
};

struct chiplet;
struct chiplet_ccx { /* the object of a message's event at the CCX's up link */
    struct chiplet *c;
    int id;
};

struct chiplet {
    struct net base;
    int caches, ccxs;
    int caches_per_ccx;
    sim_time_t ccx_ps, iod_ps, latency_ps;
    double ps_per_byte, up_ps_per_byte; /* down (to a CCX), up (to the I/O die) */
    struct net_link *up, *down;         /* per CCX: to the I/O die, from it */
    struct chiplet_ccx *ccx;            /* per CCX */
};

#define T struct chiplet_cfg
static const struct cfg_key chiplet_keys[] = {
    CFG_INT_KEY(T, caches_per_ccx, true, 1, 1024, NULL,
                "cache nodes in a core complex (machine.cores / machine.cores_per_cache of them "
                "in all)"),
    CFG_FLOAT_KEY(T, ccx_ns, true, 0.0, 100000.0, "ns",
                  "a CCX's own interconnect: between two of its caches, or between a cache and "
                  "the CCX's link"),
    CFG_FLOAT_KEY(T, iod_ns, true, 0.0, 100000.0, "ns",
                  "the I/O die's switch, crossed by every message that reaches the I/O die or "
                  "leaves a home"),
    CFG_FLOAT_KEY(T, link_latency_ns, true, 0.0, 100000.0, "ns",
                  "a CCX-to-I/O-die link's latency after serialisation"),
    CFG_FLOAT_KEY(T, link_bytes_per_ns, true, 0.001, 10000.0, "B/ns",
                  "a link's bandwidth from the I/O die to a CCX (and toward it, unless "
                  "link_up_bytes_per_ns)"),
    CFG_FLOAT_KEY(T, link_up_bytes_per_ns, false, 0.0, 10000.0, "B/ns",
                  "a link's bandwidth from a CCX to the I/O die (default 0: link_bytes_per_ns)"),
};
#undef T

static void chiplet_defaults(void *cfg)
{
    struct chiplet_cfg *c = cfg;
    *c = (struct chiplet_cfg){.caches_per_ccx = 1,
                              .ccx_ns = 5.0,
                              .iod_ns = 10.0,
                              .link_latency_ns = 10.0,
                              .link_bytes_per_ns = 32.0};
}

static size_t chiplet_sections(void *cfg, struct cfg_section *out, size_t max)
{
    if (max < 1)
        return 0;
    out[0] =
        (struct cfg_section){"chiplet",    true,
                             chiplet_keys, SIM_COUNT_OF(chiplet_keys),
                             cfg,          "core complexes linked to an I/O die holding the homes"};
    return 1;
}

static bool chiplet_check(const void *cfg, const struct net_layout *l, const struct cfg_file *cf,
                          struct sim_diag *d)
{
    const struct chiplet_cfg *c = cfg;
    SIM_ASSERT(l->cores >= 1 && l->homes >= 1);
    if (l->sockets != 1) {
        cfg_diag(d, cf, "machine.sockets",
                 "chiplet: one socket only (machine.sockets = %d): the I/O die joins the CCXs of "
                 "one package",
                 l->sockets);
        return false;
    }
    if (l->mcs) {
        cfg_diag(d, cf, "machine.topology",
                 "chiplet: the layout has %d memory-controller nodes; the chiplet topology puts "
                 "memory at the homes on the I/O die",
                 l->mcs);
        return false;
    }
    if (l->cores % c->caches_per_ccx) {
        cfg_diag(d, cf, "chiplet.caches_per_ccx",
                 "chiplet: %d cache nodes (machine.cores / machine.cores_per_cache) do not fill "
                 "whole CCXs of chiplet.caches_per_ccx = %lld",
                 l->cores, (long long)c->caches_per_ccx);
        return false;
    }
    return true;
}

static sim_time_t ns_to_ps(double ns)
{
    return (sim_time_t)(ns * SIM_PS_PER_NS + 0.5);
}

static struct net *chiplet_create(struct sim_kernel *k, const void *cfg,
                                  const struct net_layout *layout, uint64_t seed,
                                  struct sim_diag *d)
{
    const struct chiplet_cfg *c = cfg;
    (void)seed;
    if (!chiplet_check(c, layout, NULL, d))
        return NULL;
    struct chiplet *ch = sim_xcalloc(1, sizeof *ch);
    net_base_init(&ch->base, &net_chiplet_ops, k, layout->cores + layout->homes);
    ch->caches = layout->cores;
    ch->caches_per_ccx = (int)c->caches_per_ccx;
    ch->ccxs = layout->cores / ch->caches_per_ccx;
    ch->ccx_ps = ns_to_ps(c->ccx_ns);
    ch->iod_ps = ns_to_ps(c->iod_ns);
    ch->latency_ps = ns_to_ps(c->link_latency_ns);
    ch->ps_per_byte = SIM_PS_PER_NS / c->link_bytes_per_ns;
    ch->up_ps_per_byte =
        c->link_up_bytes_per_ns > 0 ? SIM_PS_PER_NS / c->link_up_bytes_per_ns : ch->ps_per_byte;
    ch->up = sim_xcalloc((size_t)ch->ccxs, sizeof *ch->up);
    ch->down = sim_xcalloc((size_t)ch->ccxs, sizeof *ch->down);
    ch->ccx = sim_xcalloc((size_t)ch->ccxs, sizeof *ch->ccx);
    for (int i = 0; i < ch->ccxs; i++)
        ch->ccx[i] = (struct chiplet_ccx){ch, i};
    return &ch->base;
}

/* The CCX of a node, or -1 for a home (on the I/O die). */
static int ccx_of(const struct chiplet *ch, int node)
{
    return node < ch->caches ? node / ch->caches_per_ccx : -1;
}

/* m reaches link l (ps_per_byte its bandwidth) now: returns when it has
 * crossed (its last byte went on, plus the link's latency). */
static sim_time_t cross(struct chiplet *ch, struct net_link *l, double ps_per_byte,
                        struct sim_msg *m)
{
    sim_time_t ser = (sim_time_t)ceil((double)m->bytes * ps_per_byte);
    sim_time_t start = net_link_take(&ch->base, l, sim_now(ch->base.k), ser, m->bytes);
    return start + ser + ch->latency_ps;
}

/* m is through the I/O die's switch now: delivered to a home, or down the
 * link of its destination's CCX and through that CCX's interconnect. */
static void iod_at(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct chiplet *ch = obj;
    struct sim_msg *m = (struct sim_msg *)(uintptr_t)arg;
    int to = ccx_of(ch, m->dst);
    if (to < 0) {
        net_deliver_at(&ch->base, m, sim_now(k));
        return;
    }
    net_deliver_at(&ch->base, m, cross(ch, &ch->down[to], ch->ps_per_byte, m) + ch->ccx_ps);
}

/* m has crossed its CCX's interconnect to the CCX's link port now. */
static void up_at(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct chiplet_ccx *x = obj;
    struct sim_msg *m = (struct sim_msg *)(uintptr_t)arg;
    (void)k;
    struct chiplet *ch = x->c;
    sim_time_t t = cross(ch, &ch->up[x->id], ch->up_ps_per_byte, m);
    net_schedule_hop(&ch->base, t + ch->iod_ps, iod_at, ch, m);
}

static void chiplet_send(struct net *n, struct sim_msg *m)
{
    struct chiplet *ch = (struct chiplet *)n;
    SIM_ASSERT(m->src >= 0 && m->src < n->nnodes && m->dst >= 0 && m->dst < n->nnodes);
    m->sent = sim_now(n->k);
    int from = ccx_of(ch, m->src), to = ccx_of(ch, m->dst);
    if (from < 0)
        net_schedule_hop(n, m->sent + ch->iod_ps, iod_at, ch, m);
    else if (from == to)
        net_deliver_at(n, m, m->sent + ch->ccx_ps);
    else
        net_schedule_hop(n, m->sent + ch->ccx_ps, up_at, &ch->ccx[from], m);
}

/* Links crossed: none within a CCX or among homes, one between a CCX and
 * the I/O die, two between CCXs. */
static int chiplet_hops(const struct net *n, int a, int b)
{
    const struct chiplet *ch = (const struct chiplet *)n;
    int ca = ccx_of(ch, a), cb = ccx_of(ch, b);
    if (ca == cb)
        return 0;
    return (ca >= 0) + (cb >= 0);
}

static void chiplet_print_links(const struct net *n, FILE *f)
{
    const struct chiplet *ch = (const struct chiplet *)n;
    char name[64];
    for (int i = 0; i < ch->ccxs; i++) {
        snprintf(name, sizeof name, "chiplet ccx %d->iod", i);
        net_link_print(&ch->up[i], name, sim_now(n->k), f);
        snprintf(name, sizeof name, "chiplet iod->ccx %d", i);
        net_link_print(&ch->down[i], name, sim_now(n->k), f);
    }
}

static void chiplet_destroy(struct net *n)
{
    struct chiplet *ch = (struct chiplet *)n;
    free(ch->up);
    free(ch->down);
    free(ch->ccx);
    net_base_destroy(n);
    free(ch);
}

const struct net_ops net_chiplet_ops = {
    .name = "chiplet",
    .summary = "core complexes linked to a central I/O die holding the homes (EPYC Milan, "
               "Infinity Fabric)",
    .cfg_size = sizeof(struct chiplet_cfg),
    .cfg_defaults = chiplet_defaults,
    .cfg_sections = chiplet_sections,
    .check = chiplet_check,
    .create = chiplet_create,
    .send = chiplet_send,
    .destroy = chiplet_destroy,
    .print_links = chiplet_print_links,
    .hops = chiplet_hops,
};
