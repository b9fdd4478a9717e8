/*
 * ring_core.c -- the shared bidirectional ring (see ring_core.h).
 */
#include "ring_core.h"

#include <stdlib.h>

#define FIRST_WINDOW 256 /* cycles; grows when a burst queues longer */

static size_t nlinks(const struct net_ring *r)
{
    return (size_t)r->rings * 2 * (size_t)r->stops;
}

void net_ring_init(struct net_ring *r, struct net *n, const struct net_ring_params *p, void *owner,
                   net_ring_target_fn target, net_ring_leave_fn leave)
{
    SIM_ASSERT(p->stops >= 1 && (p->rings == 1 || p->rings == SIM_VNETS) && p->link_bytes >= 1);
    r->net = n;
    r->owner = owner;
    r->target = target;
    r->leave = leave;
    r->clk = sim_clock_ghz(p->clock_ghz);
    r->stops = p->stops;
    r->rings = p->rings;
    r->link_bytes = (uint32_t)p->link_bytes;
    r->hop_cycles = (uint64_t)p->hop_cycles;
    r->hop_ps = (sim_time_t)p->hop_cycles * r->clk.period_ps;
    r->stop_ps = (sim_time_t)p->stop_cycles * r->clk.period_ps;
    r->links = sim_xcalloc(nlinks(r), sizeof *r->links);
    r->window = FIRST_WINDOW;
    r->reserved = sim_xcalloc(nlinks(r) * r->window, sizeof *r->reserved);
}

void net_ring_free(struct net_ring *r)
{
    free(r->reserved);
    free(r->links);
}

int net_ring_distance(const struct net_ring *r, int a, int b, int dir)
{
    int cw = ((b - a) % r->stops + r->stops) % r->stops;
    return dir == NET_RING_CW || cw == 0 ? cw : r->stops - cw;
}

static size_t link_index(const struct net_ring *r, int ring, int dir, int stop)
{
    return ((size_t)ring * 2 + (size_t)dir) * (size_t)r->stops + (size_t)stop;
}

static int neighbour(const struct net_ring *r, int s, int dir)
{
    return dir == NET_RING_CW ? (s + 1) % r->stops : (s + r->stops - 1) % r->stops;
}

/* ------------------------------------------------------------- the way */

/* A message's way: its links' indices, in order, and its slots' length. */
struct way {
    size_t link[2048]; /* hops <= stops / 2 <= 2048 */
    int hops;
    uint64_t occupy; /* cycles on each link */
};

static void way_init(const struct net_ring *r, struct way *w, int ring, int dir, int stop, int hops)
{
    SIM_ASSERT(hops >= 1 && hops <= (int)SIM_COUNT_OF(w->link));
    size_t base = link_index(r, ring, dir, 0);
    int s = stop;
    for (int j = 0; j < hops; j++) {
        w->link[j] = base + (size_t)s;
        s = dir == NET_RING_CW ? (s + 1 == r->stops ? 0 : s + 1) : (s ? s - 1 : r->stops - 1);
    }
    w->hops = hops;
}

/* The earliest cycle >= ready at which the message can start: on its j-th
 * link it holds cycles start + j * hop_cycles + [0, occupy), and all of
 * them must be free. */
static uint64_t first_free_start(const struct net_ring *r, const struct way *w, uint64_t ready)
{
    const uint64_t *reserved = r->reserved, window = r->window, mask = window - 1;
    const uint64_t hop = r->hop_cycles, occupy = w->occupy;
    uint64_t start = ready;
    for (int j = 0; j < w->hops; j++) {
        const uint64_t *row = reserved + w->link[j] * window;
        uint64_t at = start + (uint64_t)j * hop;
        for (uint64_t c = at; c < at + occupy; c++)
            if (row[c & mask] == c + 1) { /* busy: start after it, recheck all */
                start = c + 1 - (uint64_t)j * hop;
                j = -1;
                break;
            }
    }
    return start;
}

/* Doubles the window until cycles below now + window hold `last`; moves
 * the live reservations (those at now or later) to their new entries. */
static void grow_window(struct net_ring *r, uint64_t now, uint64_t last)
{
    uint64_t w = r->window;
    while (last - now >= w)
        w *= 2;
    uint64_t *t = sim_xcalloc(nlinks(r) * w, sizeof *t);
    for (size_t l = 0; l < nlinks(r); l++)
        for (uint64_t i = 0; i < r->window; i++) {
            uint64_t stamp = r->reserved[l * r->window + i];
            if (stamp && stamp - 1 >= now)
                t[l * w + ((stamp - 1) & (w - 1))] = stamp;
        }
    free(r->reserved);
    r->reserved = t;
    r->window = w;
}

static void reserve_way(struct net_ring *r, const struct way *w, uint64_t start, uint32_t bytes)
{
    uint64_t now = sim_now(r->net->k) / r->clk.period_ps;
    uint64_t last = start + (uint64_t)(w->hops - 1) * r->hop_cycles + w->occupy - 1;
    if (last - now >= r->window)
        grow_window(r, now, last);
    const uint64_t window = r->window, mask = window - 1;
    sim_time_t occupy_ps = w->occupy * r->clk.period_ps;
    for (int j = 0; j < w->hops; j++) {
        uint64_t at = start + (uint64_t)j * r->hop_cycles;
        uint64_t *row = r->reserved + w->link[j] * window;
        for (uint64_t c = at; c < at + w->occupy; c++)
            row[c & mask] = c + 1;
        struct net_link *l = &r->links[w->link[j]];
        sim_time_t until = (at + w->occupy) * r->clk.period_ps;
        l->busy_until = until > l->busy_until ? until : l->busy_until;
        l->busy_ps += occupy_ps;
        l->messages++;
        l->bytes += bytes;
    }
}

void net_ring_enter(struct net_ring *r, struct sim_msg *m, int stop, sim_time_t t)
{
    SIM_ASSERT(stop >= 0 && stop < r->stops && t >= sim_now(r->net->k));
    SIM_ASSERT(m->vnet < SIM_VNETS);
    sim_time_t ready = sim_clock_edge(r->clk, t) + r->stop_ps;
    int target = r->target(r->owner, r, m);
    if (target == stop) {
        r->leave(r->owner, r, m, ready); /* through the stop: stop_cycles once */
        return;
    }
    int cw = net_ring_distance(r, stop, target, NET_RING_CW);
    int dir = cw <= r->stops - cw ? NET_RING_CW : NET_RING_CCW; /* a tie goes clockwise */
    struct way w;
    way_init(r, &w, r->rings == 1 ? 0 : m->vnet, dir, stop,
             dir == NET_RING_CW ? cw : r->stops - cw);
    w.occupy = net_link_cycles(m->bytes, r->link_bytes);
    uint64_t ready_cycle = ready / r->clk.period_ps;
    uint64_t start = first_free_start(r, &w, ready_cycle);
    reserve_way(r, &w, start, m->bytes);
    sim_time_t wait = (start - ready_cycle) * r->clk.period_ps;
    r->links[w.link[0]].queue_ps += wait;
    r->net->stats.queue_ps += wait;
    r->leave(r->owner, r, m,
             start * r->clk.period_ps + (sim_time_t)w.hops * r->hop_ps + r->stop_ps);
}

void net_ring_print(const struct net_ring *r, const char *prefix, FILE *f)
{
    static const char *const dirs[] = {"cw", "ccw"};
    sim_time_t now = sim_now(r->net->k);
    for (int ring = 0; ring < r->rings; ring++)
        for (int dir = 0; dir < 2; dir++)
            for (int s = 0; s < r->stops; s++) {
                char name[64];
                snprintf(name, sizeof name, "%sring%d %s %d->%d", prefix, ring, dirs[dir], s,
                         neighbour(r, s, dir));
                net_link_print(&r->links[link_index(r, ring, dir, s)], name, now, f);
            }
}
