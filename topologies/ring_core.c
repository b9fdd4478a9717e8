/*
 * ring_core.c -- the shared bidirectional ring (see ring_core.h).
 */
#include "ring_core.h"

#include <stdlib.h>
#include <string.h>

static size_t nlinks(const struct net_ring *r)
{
    return (size_t)r->rings * 2 * (size_t)r->stops;
}

static size_t ndiags(const struct net_ring *r)
{
    return (size_t)r->rings * 2;
}

static void diag_alloc(struct net_ring_diag *g, uint64_t window, int words)
{
    g->stamp = sim_xcalloc(window, sizeof *g->stamp);
    g->held = sim_xcalloc(window * (uint64_t)words, sizeof *g->held);
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
    r->diff = sim_xcalloc(nlinks(r), sizeof *r->diff);
    r->words = (r->stops + 63) / 64;
    /* a way's keys span up to 2 * stops * hop_cycles: room for that and more */
    r->window = 256;
    while (r->window < 4 * (uint64_t)r->stops * r->hop_cycles)
        r->window *= 2;
    r->diags = sim_xcalloc(ndiags(r), sizeof *r->diags);
    for (size_t i = 0; i < ndiags(r); i++)
        diag_alloc(&r->diags[i], r->window, r->words);
}

void net_ring_free(struct net_ring *r)
{
    for (size_t i = 0; i < ndiags(r); i++) {
        free(r->diags[i].stamp);
        free(r->diags[i].held);
    }
    free(r->diags);
    free(r->diff);
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

/* A message's way as at most two runs of links with ascending numbers, the
 * second where it wraps past stop 0; each run is one diagonal per cycle a
 * message occupies a link: keys key(start) + off + [0, occupy). */
struct way {
    int ring, dir, hops;
    int nruns;
    struct run {
        int lo, hi;    /* links [lo, hi) */
        uint64_t off;  /* key - start cycle */
        uint64_t bits; /* the links' bits, when a mask is one word */
    } run[2];
    uint64_t occupy; /* cycles on each link */
};

/* The bits of links [lo, hi) in mask word k. */
static uint64_t range_word(int lo, int hi, int k)
{
    int a = lo > 64 * k ? lo - 64 * k : 0, b = hi < 64 * (k + 1) ? hi - 64 * k : 64;
    if (a >= b)
        return 0;
    uint64_t upto_b = b == 64 ? ~0ull : (1ull << b) - 1;
    return upto_b & ~((1ull << a) - 1);
}

static void way_init(const struct net_ring *r, struct way *w, int ring, int dir, int stop, int hops)
{
    int n = r->stops;
    uint64_t h = r->hop_cycles, lap = (uint64_t)n * h;
    *w = (struct way){.ring = ring, .dir = dir, .hops = hops};
    if (dir == NET_RING_CW) {
        uint64_t off = (uint64_t)(n - 1 - stop) * h;
        w->run[w->nruns++] = (struct run){stop, stop + hops < n ? stop + hops : n, off, 0};
        if (stop + hops > n)
            w->run[w->nruns++] = (struct run){0, stop + hops - n, off + lap, 0};
    } else {
        uint64_t off = (uint64_t)stop * h;
        int lo = stop - hops + 1;
        w->run[w->nruns++] = (struct run){lo > 0 ? lo : 0, stop + 1, off, 0};
        if (lo < 0)
            w->run[w->nruns++] = (struct run){lo + n, n, off + lap, 0};
    }
    for (int k = 0; k < w->nruns; k++)
        w->run[k].bits = range_word(w->run[k].lo, w->run[k].hi, 0);
}

static struct net_ring_diag *way_diag(const struct net_ring *r, const struct way *w)
{
    return &r->diags[w->ring * 2 + w->dir];
}

/* Whether run k holds a link that entry e of g holds. */
static bool run_meets(const struct net_ring *r, const struct net_ring_diag *g, const struct run *k,
                      uint64_t e)
{
    const uint64_t *held = &g->held[e * (uint64_t)r->words];
    if (r->words == 1)
        return (held[0] & k->bits) != 0;
    for (int q = 0; q < r->words; q++)
        if (held[q] & range_word(k->lo, k->hi, q))
            return true;
    return false;
}

/* 0 if a message starting at cycle `start` finds all its slots free; else
 * how much later it must start at least (past the slot that is taken). */
static uint64_t way_conflict(const struct net_ring *r, const struct way *w, uint64_t start)
{
    const struct net_ring_diag *g = way_diag(r, w);
    uint64_t mask = r->window - 1;
    for (int k = 0; k < w->nruns; k++)
        for (uint64_t i = 0; i < w->occupy; i++) {
            uint64_t key = start + w->run[k].off + i, e = key & mask;
            if (g->stamp[e] == key + 1 && run_meets(r, g, &w->run[k], e))
                return i + 1;
        }
    return 0;
}

/* Doubles the window until keys below now + window hold `last`; moves the
 * live entries (keys at now or later) to their new places. */
static void grow_window(struct net_ring *r, uint64_t now, uint64_t last)
{
    uint64_t w = r->window;
    while (last - now >= w)
        w *= 2;
    size_t words = (size_t)r->words;
    for (size_t i = 0; i < ndiags(r); i++) {
        struct net_ring_diag old = r->diags[i], *g = &r->diags[i];
        diag_alloc(g, w, r->words);
        for (uint64_t e = 0; e < r->window; e++) {
            if (!old.stamp[e] || old.stamp[e] - 1 < now)
                continue;
            uint64_t ne = (old.stamp[e] - 1) & (w - 1);
            g->stamp[ne] = old.stamp[e];
            memcpy(&g->held[ne * words], &old.held[e * words], words * sizeof *g->held);
        }
        free(old.stamp);
        free(old.held);
    }
    r->window = w;
}

static void reserve_way(struct net_ring *r, const struct way *w, uint64_t start)
{
    uint64_t now = sim_now(r->net->k) / r->clk.period_ps;
    const struct run *top = &w->run[w->nruns - 1];
    uint64_t last = start + top->off + w->occupy - 1; /* the largest key */
    if (last - now >= r->window)
        grow_window(r, now, last);
    struct net_ring_diag *g = way_diag(r, w);
    uint64_t mask = r->window - 1;
    for (int k = 0; k < w->nruns; k++)
        for (uint64_t i = 0; i < w->occupy; i++) {
            uint64_t key = start + w->run[k].off + i, e = key & mask;
            uint64_t *held = &g->held[e * (uint64_t)r->words];
            bool stale = g->stamp[e] != key + 1; /* an older key's: past cycles only */
            g->stamp[e] = key + 1;
            if (r->words == 1)
                held[0] = (stale ? 0 : held[0]) | w->run[k].bits;
            else
                for (int q = 0; q < r->words; q++)
                    held[q] = (stale ? 0 : held[q]) | range_word(w->run[k].lo, w->run[k].hi, q);
        }
}

/* Adds the message to the statistics of every link of its way. */
static void count_way(struct net_ring *r, const struct way *w, uint32_t bytes)
{
    int64_t v[3] = {1, (int64_t)bytes, (int64_t)(w->occupy * r->clk.period_ps)};
    size_t base = link_index(r, w->ring, w->dir, 0);
    for (int k = 0; k < w->nruns; k++)
        for (int f = 0; f < 3; f++) {
            r->diff[base + (size_t)w->run[k].lo][f] += v[f];
            if (w->run[k].hi < r->stops)
                r->diff[base + (size_t)w->run[k].hi][f] -= v[f];
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
    uint64_t ready_cycle = ready / r->clk.period_ps, start = ready_cycle;
    for (uint64_t later; (later = way_conflict(r, &w, start)) != 0;)
        start += later;
    reserve_way(r, &w, start);
    count_way(r, &w, m->bytes);
    sim_time_t wait = (start - ready_cycle) * r->clk.period_ps;
    r->links[link_index(r, w.ring, dir, stop)].queue_ps += wait;
    r->net->stats.queue_ps += wait;
    r->leave(r->owner, r, m,
             start * r->clk.period_ps + (sim_time_t)w.hops * r->hop_ps + r->stop_ps);
}

void net_ring_print(const struct net_ring *r, const char *prefix, FILE *f)
{
    static const char *const dirs[] = {"cw", "ccw"};
    sim_time_t now = sim_now(r->net->k);
    for (int ring = 0; ring < r->rings; ring++)
        for (int dir = 0; dir < 2; dir++) {
            int64_t sum[3] = {0, 0, 0};
            for (int s = 0; s < r->stops; s++) {
                size_t i = link_index(r, ring, dir, s);
                for (int q = 0; q < 3; q++)
                    sum[q] += r->diff[i][q];
                struct net_link l = r->links[i];
                l.messages = (uint64_t)sum[0];
                l.bytes = (uint64_t)sum[1];
                l.busy_ps = (sim_time_t)sum[2];
                char name[64];
                snprintf(name, sizeof name, "%sring%d %s %d->%d", prefix, ring, dirs[dir], s,
                         neighbour(r, s, dir));
                net_link_print(&l, name, now, f);
            }
        }
}
