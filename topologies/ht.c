/*
 * ht.c -- `ht`: sockets joined by point-to-point links that need not be
 * fully connected (HyperTransport on eight-socket Opterons), with
 * multi-hop routes.
 *
 * Owns the `ht` config section: the links as a list of socket pairs
 * ("0-1"), each one link per direction; the on-die crossbar's latency; a
 * link's latency and bandwidth. With cps = cores / sockets and hps = homes
 * / sockets, core c is in socket c / cps and home h in socket h / hps.
 * Layouts whose cores or homes do not divide among the sockets, links that
 * name a socket that is not there, a link to itself or twice, and a graph
 * that does not reach every socket are refused.
 *
 * Route: the shortest way in links, computed once at create by a
 * breadth-first search from every destination; among equally short ways
 * the next socket is the lowest-numbered neighbour (deterministic, as the
 * Opteron's routing tables are fixed at boot). A message crosses its own
 * socket's crossbar (xbar_ns); within a socket that is all. Across
 * sockets, at each hop it waits until the directed link is free, occupies
 * it bytes / link_bytes_per_ns (rounded up to whole ps), reaches the next
 * socket link_latency_ns after its last byte went on, and crosses that
 * socket's crossbar (a pass-through socket forwards through its crossbar,
 * as the Opteron's northbridge does). Links queue first come, first served
 * (net_link.h); the crossbars do not queue.
 *
 * Timing choice: one event per hop (a message takes a link at the time it
 * reaches it, so the links' order is the arrival order) and one to
 * deliver. Routing is memoryless (the next socket comes from the table for
 * the socket a message is at), so no per-message state or allocation.
 */
#include "net_link.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const struct net_ops net_ht_ops;

#define HT_MAX_LINKS 24 /* the config struct must fit machine.h's topo_cfg */

struct ht_cfg {
    char links[HT_MAX_LINKS][8];
    int nlinks;
    double xbar_ns;
    double link_latency_ns;
    double link_bytes_per_ns;
};

struct ht;
struct ht_socket { /* the object of a hop's event: which socket it is at */
    struct ht *h;
    int id;
};

struct ht {
    struct net base;
    int sockets;
    sim_time_t xbar_ps, latency_ps;
    double ps_per_byte;
    int *socket_of;           /* per node */
    int *next;                /* [from * sockets + to]: the next socket on the way */
    int *dist;                /* [from * sockets + to]: links on the way */
    struct net_link *link;    /* [from * sockets + to]; used only where a link is */
    struct ht_socket *socket; /* per socket */
};

#define T struct ht_cfg
static const struct cfg_key ht_keys[] = {
    CFG_STRING_ARRAY_KEY(T, links, nlinks, true,
                         "the links as socket pairs \"A-B\", one link each way"),
    CFG_FLOAT_KEY(T, xbar_ns, true, 0.0, 100000.0, "ns",
                  "a socket's on-die crossbar, crossed on entry, at every socket on the way "
                  "and within a socket"),
    CFG_FLOAT_KEY(T, link_latency_ns, true, 0.0, 100000.0, "ns",
                  "a link's latency after serialisation"),
    CFG_FLOAT_KEY(T, link_bytes_per_ns, true, 0.001, 10000.0, "B/ns",
                  "a link's bandwidth per direction"),
};
#undef T

static void ht_defaults(void *cfg)
{
    struct ht_cfg *c = cfg;
    memset(c, 0, sizeof *c);
    c->xbar_ns = 2.0;
    c->link_latency_ns = 20.0;
    c->link_bytes_per_ns = 4.0;
}

static size_t ht_sections(void *cfg, struct cfg_section *out, size_t max)
{
    if (max < 1)
        return 0;
    out[0] = (struct cfg_section){"ht",
                                  true,
                                  ht_keys,
                                  SIM_COUNT_OF(ht_keys),
                                  cfg,
                                  "sockets joined by point-to-point links, multi-hop "
                                  "routes"};
    return 1;
}

/* Link i's sockets into *a and *b; false if it is not "A-B" in range. */
static bool ht_pair(const struct ht_cfg *c, int i, int sockets, int *a, int *b)
{
    char end;
    if (sscanf(c->links[i], "%d-%d%c", a, b, &end) != 2)
        return false;
    return *a >= 0 && *a < sockets && *b >= 0 && *b < sockets;
}

/* Links from every socket to `to` (-1: unreachable), breadth-first; queue
 * has room for s sockets. Returns how many sockets reach `to`. */
static int ht_bfs(const bool *adj, int s, int to, int *dist, int *queue)
{
    for (int a = 0; a < s; a++)
        dist[a * s + to] = -1;
    dist[to * s + to] = 0;
    int head = 0, tail = 0;
    queue[tail++] = to;
    while (head < tail) {
        int b = queue[head++];
        for (int a = 0; a < s; a++)
            if (adj[a * s + b] && dist[a * s + to] < 0) {
                dist[a * s + to] = dist[b * s + to] + 1;
                queue[tail++] = a;
            }
    }
    return tail;
}

/* dist and next for every pair: the next socket from a toward `to` is the
 * lowest-numbered neighbour one link nearer. Returns false if some socket
 * cannot reach another. adj[a * s + b]: a link joins a and b. */
static bool ht_routes(const bool *adj, int s, int *dist, int *next)
{
    int *queue = sim_xmalloc((size_t)s * sizeof *queue);
    bool ok = true;
    for (int to = 0; to < s; to++) {
        ok = ok && ht_bfs(adj, s, to, dist, queue) == s;
        for (int a = 0; a < s; a++) {
            next[a * s + to] = a == to ? to : -1;
            for (int b = 0; b < s && next[a * s + to] < 0; b++)
                if (adj[a * s + b] && dist[a * s + to] > 0 &&
                    dist[b * s + to] == dist[a * s + to] - 1)
                    next[a * s + to] = b;
        }
    }
    free(queue);
    return ok;
}

/* The adjacency of the config's links (sockets x sockets), or NULL with a
 * message naming the bad link. */
static bool *ht_adjacency(const struct ht_cfg *c, int s, const struct cfg_file *cf,
                          struct sim_diag *d)
{
    bool *adj = sim_xcalloc((size_t)s * (size_t)s, sizeof *adj);
    for (int i = 0; i < c->nlinks; i++) {
        int a, b;
        const char *why = NULL;
        if (!ht_pair(c, i, s, &a, &b))
            why = "is not two sockets \"A-B\" of the machine's";
        else if (a == b)
            why = "joins a socket to itself";
        else if (adj[a * s + b])
            why = "is listed twice";
        if (why) {
            cfg_diag(d, cf, "ht.links", "ht.links: link \"%s\" %s (sockets 0 to %d)", c->links[i],
                     why, s - 1);
            free(adj);
            return NULL;
        }
        adj[a * s + b] = adj[b * s + a] = true;
    }
    return adj;
}

static bool ht_check(const void *cfg, const struct net_layout *l, const struct cfg_file *cf,
                     struct sim_diag *d)
{
    const struct ht_cfg *c = cfg;
    SIM_ASSERT(l->sockets >= 1 && l->cores >= 1 && l->homes >= 1);
    if (l->cores % l->sockets || l->homes % l->sockets) {
        cfg_diag(d, cf, "machine.sockets",
                 "ht: %d cores and %d homes do not divide among %d sockets (machine.cores, "
                 "home.count, machine.sockets)",
                 l->cores, l->homes, l->sockets);
        return false;
    }
    int s = l->sockets;
    bool *adj = ht_adjacency(c, s, cf, d);
    if (!adj)
        return false;
    int *dist = sim_xmalloc((size_t)s * (size_t)s * sizeof *dist);
    int *next = sim_xmalloc((size_t)s * (size_t)s * sizeof *next);
    bool ok = ht_routes(adj, s, dist, next);
    if (!ok)
        cfg_diag(d, cf, "ht.links", "ht.links: the links do not join all %d sockets", s);
    free(adj);
    free(dist);
    free(next);
    return ok;
}

static void ht_place(struct ht *h, const struct net_layout *l)
{
    int cps = l->cores / l->sockets, hps = l->homes / l->sockets;
    h->socket_of = sim_xcalloc((size_t)h->base.nnodes, sizeof *h->socket_of);
    for (int c = 0; c < l->cores; c++)
        h->socket_of[c] = c / cps;
    for (int i = 0; i < l->homes; i++)
        h->socket_of[l->cores + i] = i / hps;
}

static struct net *ht_create(struct sim_kernel *k, const void *cfg, const struct net_layout *layout,
                             uint64_t seed, struct sim_diag *d)
{
    const struct ht_cfg *c = cfg;
    (void)seed;
    if (!ht_check(c, layout, NULL, d))
        return NULL;
    struct ht *h = sim_xcalloc(1, sizeof *h);
    int s = layout->sockets;
    net_base_init(&h->base, &net_ht_ops, k, layout->cores + layout->homes);
    h->sockets = s;
    h->xbar_ps = (sim_time_t)(c->xbar_ns * SIM_PS_PER_NS + 0.5);
    h->latency_ps = (sim_time_t)(c->link_latency_ns * SIM_PS_PER_NS + 0.5);
    h->ps_per_byte = SIM_PS_PER_NS / c->link_bytes_per_ns;
    ht_place(h, layout);
    bool *adj = ht_adjacency(c, s, NULL, d);
    h->dist = sim_xmalloc((size_t)s * (size_t)s * sizeof *h->dist);
    h->next = sim_xmalloc((size_t)s * (size_t)s * sizeof *h->next);
    ht_routes(adj, s, h->dist, h->next);
    free(adj);
    h->link = sim_xcalloc((size_t)s * (size_t)s, sizeof *h->link);
    h->socket = sim_xcalloc((size_t)s, sizeof *h->socket);
    for (int i = 0; i < s; i++)
        h->socket[i] = (struct ht_socket){h, i};
    return &h->base;
}

static void ht_hop_at(struct sim_kernel *k, void *obj, uint64_t arg);

/* m has crossed socket s's crossbar now: delivered if s is its
 * destination's, else onto the link to the next socket on its way. */
static void ht_at(struct ht *h, struct sim_msg *m, int s)
{
    int to = h->socket_of[m->dst];
    sim_time_t now = sim_now(h->base.k);
    if (s == to) {
        net_deliver_at(&h->base, m, now);
        return;
    }
    int nx = h->next[s * h->sockets + to];
    struct net_link *l = &h->link[(size_t)s * (size_t)h->sockets + (size_t)nx];
    sim_time_t ser = (sim_time_t)ceil((double)m->bytes * h->ps_per_byte);
    sim_time_t start = net_link_take(&h->base, l, now, ser, m->bytes);
    net_schedule_hop(&h->base, start + ser + h->latency_ps + h->xbar_ps, ht_hop_at, &h->socket[nx],
                     m);
}

static void ht_hop_at(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct ht_socket *s = obj;
    (void)k;
    ht_at(s->h, (struct sim_msg *)(uintptr_t)arg, s->id);
}

static void ht_send(struct net *n, struct sim_msg *m)
{
    struct ht *h = (struct ht *)n;
    SIM_ASSERT(m->src >= 0 && m->src < n->nnodes && m->dst >= 0 && m->dst < n->nnodes);
    m->sent = sim_now(n->k);
    int s = h->socket_of[m->src];
    if (s == h->socket_of[m->dst]) {
        net_deliver_at(n, m, m->sent + h->xbar_ps);
        return;
    }
    net_schedule_hop(n, m->sent + h->xbar_ps, ht_hop_at, &h->socket[s], m);
}

static int ht_hops(const struct net *n, int a, int b)
{
    const struct ht *h = (const struct ht *)n;
    return h->dist[h->socket_of[a] * h->sockets + h->socket_of[b]];
}

static void ht_print_links(const struct net *n, FILE *f)
{
    const struct ht *h = (const struct ht *)n;
    char name[64];
    for (int s = 0; s < h->sockets; s++)
        for (int t = 0; t < h->sockets; t++) {
            snprintf(name, sizeof name, "ht %d->%d", s, t);
            net_link_print(&h->link[(size_t)s * (size_t)h->sockets + (size_t)t], name,
                           sim_now(n->k), f);
        }
}

static void ht_destroy(struct net *n)
{
    struct ht *h = (struct ht *)n;
    free(h->socket_of);
    free(h->next);
    free(h->dist);
    free(h->link);
    free(h->socket);
    net_base_destroy(n);
    free(h);
}

const struct net_ops net_ht_ops = {
    .name = "ht",
    .summary = "sockets joined by point-to-point links, not fully connected, shortest "
               "multi-hop routes (eight-socket Opteron, HyperTransport)",
    .cfg_size = sizeof(struct ht_cfg),
    .cfg_defaults = ht_defaults,
    .cfg_sections = ht_sections,
    .check = ht_check,
    .create = ht_create,
    .send = ht_send,
    .destroy = ht_destroy,
    .print_links = ht_print_links,
    .hops = ht_hops,
};
