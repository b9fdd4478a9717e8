/*
 * xbar.c -- the trivial topology: every message takes one fixed latency.
 * For unit tests and for teaching the protocols alone; it has no links, so
 * no congestion.
 */
#include "topology.h"

#include <stdlib.h>

extern const struct net_ops net_xbar_ops;

struct xbar_cfg {
    double latency_ns;
};

struct xbar {
    struct net base;
    sim_time_t latency;
};

#define T struct xbar_cfg
static const struct cfg_key xbar_keys[] = {
    CFG_FLOAT_KEY(T, latency_ns, true, 0.0, 100000.0, "ns", "every message's latency"),
};
#undef T

static void xbar_defaults(void *cfg)
{
    struct xbar_cfg *c = cfg;
    c->latency_ns = 10.0;
}

static size_t xbar_sections(void *cfg, struct cfg_section *out, size_t max)
{
    if (max < 1)
        return 0;
    out[0] = (struct cfg_section){
        "xbar", true, xbar_keys, SIM_COUNT_OF(xbar_keys), cfg, "crossbar: one fixed latency"};
    return 1;
}

static struct net *xbar_create(struct sim_kernel *k, const void *cfg,
                               const struct net_layout *layout, uint64_t seed, struct sim_diag *d)
{
    const struct xbar_cfg *c = cfg;
    struct xbar *x = sim_xcalloc(1, sizeof *x);
    net_base_init(&x->base, &net_xbar_ops, k, layout->cores + layout->homes);
    (void)seed;
    (void)d;
    x->latency = (sim_time_t)(c->latency_ns * SIM_PS_PER_NS + 0.5);
    return &x->base;
}

static void xbar_send(struct net *n, struct sim_msg *m)
{
    struct xbar *x = (struct xbar *)n;
    m->sent = sim_now(n->k);
    net_deliver_at(n, m, m->sent + x->latency);
}

static void xbar_destroy(struct net *n)
{
    net_base_destroy(n);
    free(n);
}

const struct net_ops net_xbar_ops = {
    .name = "xbar",
    .summary = "one fixed latency for every message (tests, teaching)",
    .cfg_size = sizeof(struct xbar_cfg),
    .cfg_defaults = xbar_defaults,
    .cfg_sections = xbar_sections,
    .create = xbar_create,
    .send = xbar_send,
    .destroy = xbar_destroy,
    .print_links = NULL,
};
