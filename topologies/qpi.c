/*
 * qpi.c -- `qpi`: sockets, each a bidirectional ring (ring_core.c), fully
 * connected by QPI links (dual-socket Sandy Bridge).
 *
 * Owns the `qpi` config section and the placement: with cps = cores /
 * sockets and hps = homes / sockets, core c is in socket c / cps at stop
 * c % cps, home h in socket h / hps at stop (h % hps) * cps / hps; every
 * socket's QPI agent sits at stop qpi_stop (default the last; by default a
 * socket has cps + 1 stops, so the agent has its own). Layouts whose cores
 * or homes do not divide among the sockets are refused.
 *
 * Route: within a socket, the socket's ring (ring_core.h: shortest
 * direction, a tie clockwise, stop_cycles on and off). Between sockets:
 * source stop -> its socket's QPI stop on that ring -> the QPI link from
 * the source socket to the destination socket -> the other socket's QPI
 * stop -> the destination stop on that ring. Each direction of each
 * socket pair is one QPI link (struct net_link): a message waits until it
 * is free, occupies it bytes / qpi_bytes_per_ns (rounded up to whole ps)
 * and reaches the other side qpi_latency_ns after its last byte went on
 * (serialisation + latency: a QPI link is narrow and carries the whole
 * message before the far agent acts on it, unlike the cut-through rings).
 *
 * Timing choice: the socket rings are slotted rings (ring_core.h: a message
 * reserves its slots on its way when it gets to a ring, no event per hop);
 * one event for the QPI link when a message gets off a ring at the agent,
 * and one to deliver it. Routing is memoryless (recomputed from the socket
 * and stop a message is at), so no per-message state or allocation.
 */
#include "ring_core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const struct net_ops net_qpi_ops;

struct qpi_cfg {
    int64_t stops_per_socket; /* 0: cores per socket + 1 */
    double clock_ghz;
    int64_t hop_cycles;
    int64_t link_bytes;
    int64_t stop_cycles;
    double qpi_latency_ns;
    double qpi_bytes_per_ns;
    int64_t qpi_stop; /* -1: the last stop */
    char link_name[16];
};

struct qpi {
    struct net base;
    int sockets, qpi_stop;
    char link_name[16]; /* the links' name in --links: qpi, or the config's (ht) */
    sim_time_t latency_ps;
    double ps_per_byte;
    struct net_ring *ring; /* per socket; ring->id is the socket */
    int *socket_of;        /* per node */
    int *stop_of;          /* per node */
    struct net_link *qpi;  /* [from * sockets + to] */
};

#define T struct qpi_cfg
static const struct cfg_key qpi_keys[] = {
    CFG_INT_KEY(T, stops_per_socket, false, 1, 4096, NULL,
                "stops on a socket's ring (default: a stop per cache of the socket, + 1 for "
                "its link agent)"),
    CFG_FLOAT_KEY(T, clock_ghz, true, 0.01, 10.0, "GHz", "the socket rings' clock"),
    CFG_INT_KEY(T, hop_cycles, true, 1, 1000, "cycles", "ring cycles from a stop to the next"),
    CFG_INT_KEY(T, link_bytes, true, 1, 4096, "B",
                "bytes a ring link carries per cycle (a message occupies it "
                "ceil(B/link_bytes))"),
    CFG_INT_KEY(T, stop_cycles, false, 0, 1000, "cycles",
                "to get on or off a ring at a stop (default 0)"),
    CFG_FLOAT_KEY(T, qpi_latency_ns, true, 0.0, 100000.0, "ns",
                  "a socket-to-socket link's latency after serialisation (QPI or, link_name ht, "
                  "HyperTransport)"),
    CFG_FLOAT_KEY(T, qpi_bytes_per_ns, true, 0.001, 10000.0, "B/ns",
                  "a socket-to-socket link's bandwidth per direction"),
    CFG_INT_KEY(T, qpi_stop, false, 0, 4095, NULL,
                "the stop of each socket's ring where its link agent sits (default: the "
                "last)"),
    CFG_STRING_KEY(T, link_name, false,
                   "what --links calls the links between sockets (default qpi; ht for "
                   "HyperTransport)"),
};
#undef T

static void qpi_defaults(void *cfg)
{
    struct qpi_cfg *c = cfg;
    *c = (struct qpi_cfg){.stops_per_socket = 0,
                          .clock_ghz = 1.0,
                          .hop_cycles = 1,
                          .link_bytes = 32,
                          .stop_cycles = 0,
                          .qpi_latency_ns = 10.0,
                          .qpi_bytes_per_ns = 16.0,
                          .qpi_stop = -1,
                          .link_name = "qpi"};
}

static size_t qpi_sections(void *cfg, struct cfg_section *out, size_t max)
{
    if (max < 1)
        return 0;
    out[0] = (struct cfg_section){
        "qpi",
        true,
        qpi_keys,
        SIM_COUNT_OF(qpi_keys),
        cfg,
        "socket rings joined by point-to-point links (QPI; HyperTransport with link_name ht)"};
    return 1;
}

/* A socket ring's stops and the QPI agent's stop, as the config gives
 * them (defaults: cores per socket + 1, the last). */
static void qpi_stops(const struct qpi_cfg *c, const struct net_layout *l, int64_t *stops,
                      int64_t *qstop)
{
    int64_t cps = l->cores / l->sockets;
    *stops = c->stops_per_socket ? c->stops_per_socket : cps + 1;
    *qstop = c->qpi_stop >= 0 ? c->qpi_stop : *stops - 1;
}

/* Left-out stops_per_socket and qpi_stop: as qpi_stops places them. */
static void qpi_resolve(void *cfg, const struct net_layout *layout)
{
    struct qpi_cfg *c = cfg;
    int64_t stops, qstop;
    qpi_stops(c, layout, &stops, &qstop);
    c->stops_per_socket = stops;
    c->qpi_stop = qstop;
}

/* Refuses what does not fit: cores or homes that do not divide among the
 * sockets, a ring without a stop for every core, an agent off the ring, a
 * link name that is not one word. */
static bool qpi_check(const void *cfg, const struct net_layout *l, const struct cfg_file *cf,
                      struct sim_diag *d)
{
    const struct qpi_cfg *c = cfg;
    SIM_ASSERT(l->sockets >= 1 && l->cores >= 1 && l->homes >= 1);
    if (l->cores % l->sockets || l->homes % l->sockets) {
        cfg_diag(d, cf, "machine.sockets",
                 "qpi: %d cores and %d homes do not divide among %d sockets (machine.cores, "
                 "home.count, machine.sockets)",
                 l->cores, l->homes, l->sockets);
        return false;
    }
    int64_t stops, qstop, cps = l->cores / l->sockets;
    qpi_stops(c, l, &stops, &qstop);
    if (stops < cps) {
        cfg_diag(d, cf,
                 "qpi.stops_per_socket,machine.cores,machine.cores_per_cache,machine.sockets",
                 "qpi.stops_per_socket = %lld: a socket's ring needs a stop for each of its %lld "
                 "caches (machine.cores / machine.cores_per_cache / machine.sockets)",
                 (long long)stops, (long long)cps);
        return false;
    }
    if (qstop >= stops) {
        cfg_diag(d, cf, "qpi.qpi_stop,qpi.stops_per_socket",
                 "qpi.qpi_stop = %lld: a socket's ring has stops 0 to %lld "
                 "(qpi.stops_per_socket)",
                 (long long)qstop, (long long)stops - 1);
        return false;
    }
    if (!c->link_name[0] || strpbrk(c->link_name, " \t")) {
        cfg_diag(d, cf, "qpi.link_name",
                 "qpi.link_name = \"%s\": a name for --links, one word (qpi, ht)", c->link_name);
        return false;
    }
    return true;
}

static int qpi_target(void *owner, const struct net_ring *r, const struct sim_msg *m)
{
    const struct qpi *q = owner;
    return q->socket_of[m->dst] == r->id ? q->stop_of[m->dst] : q->qpi_stop;
}

/* m is at socket s's QPI agent now: across the link to the dst's socket. */
static void cross(struct qpi *q, struct sim_msg *m, int s)
{
    int to = q->socket_of[m->dst];
    struct net_link *l = &q->qpi[(size_t)s * (size_t)q->sockets + (size_t)to];
    sim_time_t ser = (sim_time_t)ceil((double)m->bytes * q->ps_per_byte);
    sim_time_t start = net_link_take(&q->base, l, sim_now(q->base.k), ser, m->bytes);
    net_ring_enter(&q->ring[to], m, q->qpi_stop, start + ser + q->latency_ps);
}

static void cross_at(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct net_ring *r = obj;
    (void)k;
    cross(r->owner, (struct sim_msg *)(uintptr_t)arg, r->id);
}

static void qpi_leave(void *owner, struct net_ring *r, struct sim_msg *m, sim_time_t t)
{
    struct qpi *q = owner;
    if (q->socket_of[m->dst] == r->id)
        net_deliver_at(&q->base, m, t);
    else if (t == sim_now(q->base.k))
        cross(q, m, r->id);
    else
        net_schedule_hop(&q->base, t, cross_at, r, m);
}

static void qpi_place(struct qpi *q, const struct net_layout *l)
{
    int cps = l->cores / l->sockets, hps = l->homes / l->sockets;
    q->socket_of = sim_xcalloc((size_t)q->base.nnodes, sizeof *q->socket_of);
    q->stop_of = sim_xcalloc((size_t)q->base.nnodes, sizeof *q->stop_of);
    for (int c = 0; c < l->cores; c++) {
        q->socket_of[c] = c / cps;
        q->stop_of[c] = c % cps;
    }
    for (int h = 0; h < l->homes; h++) {
        q->socket_of[l->cores + h] = h / hps;
        q->stop_of[l->cores + h] = (h % hps) * cps / hps;
    }
}

static struct net *qpi_create(struct sim_kernel *k, const void *cfg,
                              const struct net_layout *layout, uint64_t seed, struct sim_diag *d)
{
    const struct qpi_cfg *c = cfg;
    int64_t stops, qstop;
    (void)seed;
    if (!qpi_check(c, layout, NULL, d))
        return NULL;
    qpi_stops(c, layout, &stops, &qstop);
    struct qpi *q = sim_xcalloc(1, sizeof *q);
    net_base_init(&q->base, &net_qpi_ops, k, layout->cores + layout->homes);
    q->sockets = layout->sockets;
    q->qpi_stop = (int)qstop;
    snprintf(q->link_name, sizeof q->link_name, "%s", c->link_name);
    q->latency_ps = (sim_time_t)(c->qpi_latency_ns * SIM_PS_PER_NS + 0.5);
    q->ps_per_byte = SIM_PS_PER_NS / c->qpi_bytes_per_ns;
    qpi_place(q, layout);
    struct net_ring_params p = {
        (int)stops, 1, c->clock_ghz, (int)c->hop_cycles, (int)c->link_bytes, (int)c->stop_cycles};
    q->ring = sim_xcalloc((size_t)q->sockets, sizeof *q->ring);
    for (int s = 0; s < q->sockets; s++) {
        net_ring_init(&q->ring[s], &q->base, &p, q, qpi_target, qpi_leave);
        q->ring[s].id = s;
    }
    q->qpi = sim_xcalloc((size_t)q->sockets * (size_t)q->sockets, sizeof *q->qpi);
    return &q->base;
}

static void qpi_send(struct net *n, struct sim_msg *m)
{
    struct qpi *q = (struct qpi *)n;
    SIM_ASSERT(m->src >= 0 && m->src < n->nnodes && m->dst >= 0 && m->dst < n->nnodes);
    m->sent = sim_now(n->k);
    net_ring_enter(&q->ring[q->socket_of[m->src]], m, q->stop_of[m->src], m->sent);
}

static void qpi_print_links(const struct net *n, FILE *f)
{
    const struct qpi *q = (const struct qpi *)n;
    char name[64];
    for (int s = 0; s < q->sockets; s++) {
        snprintf(name, sizeof name, "socket%d ", s);
        net_ring_print(&q->ring[s], name, f);
    }
    for (int s = 0; s < q->sockets; s++)
        for (int t = 0; t < q->sockets; t++) {
            snprintf(name, sizeof name, "%s %d->%d", q->link_name, s, t);
            net_link_print(&q->qpi[(size_t)s * (size_t)q->sockets + (size_t)t], name, sim_now(n->k),
                           f);
        }
}

static void qpi_destroy(struct net *n)
{
    struct qpi *q = (struct qpi *)n;
    for (int s = 0; s < q->sockets; s++)
        net_ring_free(&q->ring[s]);
    free(q->ring);
    free(q->socket_of);
    free(q->stop_of);
    free(q->qpi);
    net_base_destroy(n);
    free(q);
}

const struct net_ops net_qpi_ops = {
    .name = "qpi",
    .summary = "socket rings joined by QPI links, fully connected (dual-socket Sandy Bridge)",
    .cfg_size = sizeof(struct qpi_cfg),
    .cfg_defaults = qpi_defaults,
    .cfg_sections = qpi_sections,
    .check = qpi_check,
    .resolve = qpi_resolve,
    .create = qpi_create,
    .send = qpi_send,
    .destroy = qpi_destroy,
    .print_links = qpi_print_links,
};
