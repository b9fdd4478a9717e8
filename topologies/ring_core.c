/*
 * ring_core.c -- the shared bidirectional ring (see ring_core.h).
 */
#include "ring_core.h"

#include <stdlib.h>

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
    r->hop_ps = (sim_time_t)p->hop_cycles * r->clk.period_ps;
    r->stop_ps = (sim_time_t)p->stop_cycles * r->clk.period_ps;
    r->links = sim_xcalloc((size_t)r->rings * 2 * (size_t)r->stops, sizeof *r->links);
    r->stop = sim_xcalloc((size_t)r->stops, sizeof *r->stop);
    for (int s = 0; s < r->stops; s++)
        r->stop[s] = (struct net_ring_stop){r, s};
}

void net_ring_free(struct net_ring *r)
{
    free(r->links);
    free(r->stop);
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

static void ride_at(struct sim_kernel *k, void *obj, uint64_t arg);

/* m is at stop s now (on a clock edge), on the ring: off, or one hop on. */
static void ride(struct net_ring *r, struct sim_msg *m, int s)
{
    sim_time_t now = sim_now(r->net->k);
    int target = r->target(r->owner, r, m);
    if (s == target) {
        r->leave(r->owner, r, m, now + r->stop_ps);
        return;
    }
    int cw = net_ring_distance(r, s, target, NET_RING_CW);
    int dir = cw <= r->stops - cw ? NET_RING_CW : NET_RING_CCW; /* a tie goes clockwise */
    SIM_ASSERT(m->vnet < SIM_VNETS);
    int ring = r->rings == 1 ? 0 : m->vnet;
    sim_time_t occupy = net_link_cycles(m->bytes, r->link_bytes) * r->clk.period_ps;
    struct net_link *l = &r->links[link_index(r, ring, dir, s)];
    sim_time_t start = net_link_take(r->net, l, now, occupy, m->bytes);
    sim_schedule_at(r->net->k, start + r->hop_ps, ride_at, &r->stop[neighbour(r, s, dir)],
                    (uint64_t)(uintptr_t)m);
}

static void ride_at(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct net_ring_stop *st = obj;
    (void)k;
    ride(st->ring, (struct sim_msg *)(uintptr_t)arg, st->index);
}

void net_ring_enter(struct net_ring *r, struct sim_msg *m, int stop, sim_time_t t)
{
    SIM_ASSERT(stop >= 0 && stop < r->stops);
    sim_time_t ready = sim_clock_edge(r->clk, t) + r->stop_ps;
    if (r->target(r->owner, r, m) == stop)
        r->leave(r->owner, r, m, ready); /* through the stop: stop_cycles once */
    else if (ready == sim_now(r->net->k))
        ride(r, m, stop);
    else
        sim_schedule_at(r->net->k, ready, ride_at, &r->stop[stop], (uint64_t)(uintptr_t)m);
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
