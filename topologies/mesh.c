/*
 * mesh.c -- `mesh`: a width x height grid of routers with XY routing (the
 * SCC's 6 x 4 mesh, two cores per tile), on its own clock.
 *
 * Owns the `mesh` config section and the placement of nodes on tiles: cache
 * node c (a core's cache, or one its cores share) on tile c / cores_per_tile, home h on tile h *
 * tiles / homes; tile t is at x = t % width, y = t / width. Memory controllers (the SCC's), if the
 * layout has any, sit on the west and east edges: controller m at x = 0
 * for even m, x = width - 1 for odd m, in row (m / 2) * height / ceil(mcs
 * / 2) -- for the SCC's four, tiles (0,0) (5,0) (0,2) (5,2). A layout with
 * more cache nodes than tiles * cores_per_tile is refused.
 *
 * Resources (struct net_link, each with its own queue and statistics):
 * every router-to-router link in each direction, and each tile's local port
 * in both directions (tile to router, router to tile). A message occupies
 * each of them ceil(bytes / link_bytes) mesh cycles.
 *
 * Timing, on the mesh clock: a message takes its tile's local-in port (at
 * the first edge at or after it is sent), crosses the router in
 * router_cycles, then takes the output XY routing chooses (first along x,
 * then along y): a link to the next router, reached link_cycles after it
 * started on the link, which it crosses in router_cycles again, and so on;
 * at the destination's router the output is the local-out port, and the
 * message is delivered when it starts on it. A message crosses hops + 1
 * routers (hops = |dx| + |dy|): unloaded, it takes
 * (hops + 1) * router_cycles + hops * link_cycles.
 *
 * Timing choice: per-hop events: a message is re-scheduled at every router when it is ready to
 * leave it and takes the output link then, so links serve messages in the order they reach them and
 * a later message can overtake at a downstream link. One event per router crossed; routing is
 * memoryless (recomputed from the current router), so no per-message state or allocation.
 */
#include "net_link.h"

#include <stdlib.h>

extern const struct net_ops net_mesh_ops;

struct mesh_cfg {
    int64_t width, height;
    double clock_ghz;
    int64_t router_cycles;
    int64_t link_bytes;
    int64_t cores_per_tile;
    int64_t link_cycles;
};

/* A tile's ports: outputs toward +x, -x, +y, -y, to the tile; the input. */
enum { P_XPLUS, P_XMINUS, P_YPLUS, P_YMINUS, P_OUT, P_IN, NPORTS };

struct mesh;
struct mesh_router {
    struct mesh *mesh;
    int tile;
};

struct mesh {
    struct net base;
    struct sim_clock clk;
    int width, height, tiles;
    uint32_t link_bytes;
    sim_time_t router_ps, link_ps;
    int *tile_of;              /* per node */
    struct net_link *links;    /* [tile][port] */
    struct mesh_router *route; /* per tile: the object of its events */
};

#define T struct mesh_cfg
static const struct cfg_key mesh_keys[] = {
    CFG_INT_KEY(T, width, true, 1, 256, "tiles", "routers along x"),
    CFG_INT_KEY(T, height, true, 1, 256, "tiles", "routers along y"),
    CFG_FLOAT_KEY(T, clock_ghz, true, 0.01, 10.0, "GHz", "the mesh's clock"),
    CFG_INT_KEY(T, router_cycles, true, 0, 1000, "cycles", "a message's time through a router"),
    CFG_INT_KEY(T, link_bytes, true, 1, 4096, "B",
                "bytes a link carries per mesh cycle (a message occupies it ceil(B/link_bytes))"),
    CFG_INT_KEY(T, cores_per_tile, false, 1, 64, NULL,
                "caches on a tile, the cores' (one for cores that share a cache: "
                "machine.cores_per_cache; default 2)"),
    CFG_INT_KEY(T, link_cycles, false, 0, 1000, "cycles", "on a link between routers (default 1)"),
};
#undef T

static void mesh_defaults(void *cfg)
{
    struct mesh_cfg *c = cfg;
    *c = (struct mesh_cfg){.width = 1,
                           .height = 1,
                           .clock_ghz = 1.0,
                           .router_cycles = 1,
                           .link_bytes = 16,
                           .cores_per_tile = 2,
                           .link_cycles = 1};
}

static size_t mesh_sections(void *cfg, struct cfg_section *out, size_t max)
{
    if (max < 1)
        return 0;
    out[0] = (struct cfg_section){
        "mesh", true, mesh_keys, SIM_COUNT_OF(mesh_keys), cfg, "2-D mesh of routers, XY routing"};
    return 1;
}

static bool mesh_fits(const void *cfg, const struct net_layout *layout, const struct cfg_file *cf,
                      struct sim_diag *d)
{
    const struct mesh_cfg *c = cfg;
    int64_t room = c->width * c->height * c->cores_per_tile;
    if (layout->cores <= room)
        return true;
    cfg_diag(d, cf, "mesh.width,mesh.height,mesh.cores_per_tile,machine.cores",
             "mesh: %d caches do not fit on %lld x %lld tiles of %lld (mesh.width, "
             "mesh.height, mesh.cores_per_tile, which counts the cores' caches)",
             layout->cores, (long long)c->width, (long long)c->height,
             (long long)c->cores_per_tile);
    return false;
}

static void mesh_place(struct mesh *ms, const struct mesh_cfg *c, const struct net_layout *layout)
{
    ms->tile_of = sim_xcalloc((size_t)ms->base.nnodes, sizeof *ms->tile_of);
    for (int i = 0; i < layout->cores; i++)
        ms->tile_of[i] = (int)(i / c->cores_per_tile);
    for (int h = 0; h < layout->homes; h++)
        ms->tile_of[layout->cores + h] = (int)((int64_t)h * ms->tiles / layout->homes);
    int rows = (layout->mcs + 1) / 2;
    for (int m = 0; m < layout->mcs; m++) {
        int x = m % 2 ? ms->width - 1 : 0;
        int y = (m / 2) * ms->height / rows;
        ms->tile_of[layout->cores + layout->homes + m] = y * ms->width + x;
    }
}

static struct net *mesh_create(struct sim_kernel *k, const void *cfg,
                               const struct net_layout *layout, uint64_t seed, struct sim_diag *d)
{
    const struct mesh_cfg *c = cfg;
    (void)seed;
    SIM_ASSERT(layout->cores >= 1 && layout->homes >= 1);
    if (!mesh_fits(c, layout, NULL, d))
        return NULL;
    struct mesh *ms = sim_xcalloc(1, sizeof *ms);
    net_base_init(&ms->base, &net_mesh_ops, k, layout->cores + layout->homes + layout->mcs);
    ms->clk = sim_clock_ghz(c->clock_ghz);
    ms->width = (int)c->width;
    ms->height = (int)c->height;
    ms->tiles = ms->width * ms->height;
    ms->link_bytes = (uint32_t)c->link_bytes;
    ms->router_ps = (sim_time_t)c->router_cycles * ms->clk.period_ps;
    ms->link_ps = (sim_time_t)c->link_cycles * ms->clk.period_ps;
    mesh_place(ms, c, layout);
    ms->links = sim_xcalloc((size_t)ms->tiles * NPORTS, sizeof *ms->links);
    ms->route = sim_xcalloc((size_t)ms->tiles, sizeof *ms->route);
    for (int t = 0; t < ms->tiles; t++)
        ms->route[t] = (struct mesh_router){ms, t};
    return &ms->base;
}

/* XY routing: the output of tile t's router toward tile dst. */
static int xy_port(const struct mesh *ms, int t, int dst)
{
    int x = t % ms->width, y = t / ms->width;
    int dx = dst % ms->width, dy = dst / ms->width;
    if (x != dx)
        return dx > x ? P_XPLUS : P_XMINUS;
    if (y != dy)
        return dy > y ? P_YPLUS : P_YMINUS;
    return P_OUT;
}

static int next_tile(const struct mesh *ms, int t, int port)
{
    static const int step_x[] = {1, -1, 0, 0}, step_y[] = {0, 0, 1, -1};
    return t + step_x[port] + step_y[port] * ms->width;
}

static sim_time_t occupy(const struct mesh *ms, const struct sim_msg *m)
{
    return net_link_cycles(m->bytes, ms->link_bytes) * ms->clk.period_ps;
}

static void router_at(struct sim_kernel *k, void *obj, uint64_t arg);

/* m is ready to leave tile t's router now: it takes the XY output. */
static void router(struct mesh *ms, struct sim_msg *m, int t)
{
    int port = xy_port(ms, t, ms->tile_of[m->dst]);
    struct net_link *l = &ms->links[(size_t)t * NPORTS + (size_t)port];
    sim_time_t start = net_link_take(&ms->base, l, sim_now(ms->base.k), occupy(ms, m), m->bytes);
    if (port == P_OUT) {
        net_deliver_at(&ms->base, m, start);
        return;
    }
    net_schedule_hop(&ms->base, start + ms->link_ps + ms->router_ps, router_at,
                     &ms->route[next_tile(ms, t, port)], m);
}

static void router_at(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct mesh_router *r = obj;
    (void)k;
    router(r->mesh, (struct sim_msg *)(uintptr_t)arg, r->tile);
}

static void mesh_send(struct net *n, struct sim_msg *m)
{
    struct mesh *ms = (struct mesh *)n;
    SIM_ASSERT(m->src >= 0 && m->src < n->nnodes && m->dst >= 0 && m->dst < n->nnodes);
    m->sent = sim_now(n->k);
    int t = ms->tile_of[m->src];
    struct net_link *in = &ms->links[(size_t)t * NPORTS + P_IN];
    sim_time_t start =
        net_link_take(n, in, sim_clock_edge(ms->clk, m->sent), occupy(ms, m), m->bytes);
    net_schedule_hop(n, start + ms->router_ps, router_at, &ms->route[t], m);
}

static void port_name(const struct mesh *ms, int t, int port, char *buf, size_t size)
{
    int x = t % ms->width, y = t / ms->width;
    if (port == P_IN || port == P_OUT) {
        snprintf(buf, size, "mesh (%d,%d) local %s", x, y, port == P_IN ? "in" : "out");
        return;
    }
    int u = next_tile(ms, t, port);
    snprintf(buf, size, "mesh (%d,%d)->(%d,%d)", x, y, u % ms->width, u / ms->width);
}

static void mesh_print_links(const struct net *n, FILE *f)
{
    const struct mesh *ms = (const struct mesh *)n;
    for (int t = 0; t < ms->tiles; t++)
        for (int port = 0; port < NPORTS; port++) {
            const struct net_link *l = &ms->links[(size_t)t * NPORTS + (size_t)port];
            if (!l->messages)
                continue;
            char name[64];
            port_name(ms, t, port, name, sizeof name);
            net_link_print(l, name, sim_now(n->k), f);
        }
}

static int mesh_hops(const struct net *n, int a, int b)
{
    const struct mesh *ms = (const struct mesh *)n;
    int ta = ms->tile_of[a], tb = ms->tile_of[b];
    int dx = ta % ms->width - tb % ms->width, dy = ta / ms->width - tb / ms->width;
    return (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
}

static void mesh_destroy(struct net *n)
{
    struct mesh *ms = (struct mesh *)n;
    free(ms->tile_of);
    free(ms->links);
    free(ms->route);
    net_base_destroy(n);
    free(ms);
}

const struct net_ops net_mesh_ops = {
    .name = "mesh",
    .summary = "width x height routers, XY routing, own clock (SCC)",
    .cfg_size = sizeof(struct mesh_cfg),
    .cfg_defaults = mesh_defaults,
    .cfg_sections = mesh_sections,
    .check = mesh_fits,
    .create = mesh_create,
    .send = mesh_send,
    .destroy = mesh_destroy,
    .print_links = mesh_print_links,
    .hops = mesh_hops,
};
