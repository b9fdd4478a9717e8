/*
 * test_topology.c -- the ring, mesh and qpi backends.
 *
 * Nets are built directly (net_find, the backend's config section applied
 * to a small config text, create with a layout); a recording handler is
 * attached to every node; hand-made messages are sent at time 0 and the
 * kernel runs. Every arrival time is asserted exactly, derived in the
 * comments from the config numbers (clocks, hop latencies, link widths):
 * hop counts both ways and the tie rule, messages to the same stop, XY
 * routes, queueing on a shared link, separate rings, the QPI crossing, and
 * layouts the backends refuse. Then every tests/configs/ machine runs the
 * random tester for every protocol.
 */
#include "machine.h"
#include "stress.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXGOT 400

struct got {
    uint64_t id; /* the message's line field: the test's name for it */
    int dst;
    sim_time_t t;
};

struct rig {
    struct sim_kernel *k;
    struct sim_msg_pool pool;
    struct net *net;
    struct sim_diag d;
    _Alignas(16) unsigned char cfg[256];
    int n;
    struct got got[MAXGOT];
};

static void record(struct sim_kernel *k, void *node, struct sim_msg *m)
{
    struct rig *r = node;
    ck_assert_int_lt(r->n, MAXGOT);
    r->got[r->n++] = (struct got){m->line, m->dst, sim_now(k)};
    sim_msg_free(&r->pool, m);
}

/* The backend `name` with its section read from `text`, for `l`; NULL (a
 * message in r->d) if the backend refuses the layout. */
static struct rig *rig_try(const char *name, const char *text, struct net_layout l)
{
    struct rig *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    sim_diag_init(&r->d);
    const struct net_ops *ops = net_find(name);
    ck_assert_ptr_nonnull(ops);
    ck_assert_uint_le(ops->cfg_size, sizeof r->cfg);
    ops->cfg_defaults(r->cfg);
    struct cfg_section secs[4];
    size_t nsecs = ops->cfg_sections(r->cfg, secs, SIM_COUNT_OF(secs));
    struct cfg_file *cf = cfg_open(tu_write("net.cfg", text), &r->d);
    ck_assert_msg(cf != NULL, "%s", r->d.text);
    ck_assert_msg(cfg_apply(cf, secs, nsecs, &r->d), "%s", r->d.text);
    cfg_close(cf);
    r->k = sim_kernel_new();
    r->net = ops->create(r->k, r->cfg, &l, 1, &r->d);
    if (r->net)
        for (int i = 0; i < r->net->nnodes; i++)
            net_attach(r->net, i, record, r);
    return r;
}

static struct rig *rig_new(const char *name, const char *text, struct net_layout l)
{
    struct rig *r = rig_try(name, text, l);
    ck_assert_msg(r->net != NULL, "%s", r->d.text);
    return r;
}

static void rig_free(struct rig *r)
{
    ck_assert_uint_eq(r->pool.in_use, 0);
    net_destroy(r->net);
    sim_kernel_free(r->k);
    sim_msg_pool_destroy(&r->pool);
    free(r);
}

static void send(struct rig *r, uint64_t id, int src, int dst, uint32_t bytes, int vnet)
{
    struct sim_msg *m = sim_msg_new(&r->pool);
    m->line = id;
    m->src = src;
    m->dst = dst;
    m->bytes = bytes;
    m->vnet = (uint8_t)vnet;
    net_send(r->net, m);
}

static void run(struct rig *r)
{
    ck_assert_int_eq(sim_run(r->k, SIM_TIME_MAX), SIM_RUN_EMPTY);
}

/* When message `id` arrived (it must have arrived once, at its dst). */
static sim_time_t arrival(const struct rig *r, uint64_t id, int dst)
{
    int found = -1;
    for (int i = 0; i < r->n; i++)
        if (r->got[i].id == id) {
            ck_assert_msg(found < 0, "message %llu delivered twice", (unsigned long long)id);
            found = i;
        }
    ck_assert_msg(found >= 0, "message %llu not delivered", (unsigned long long)id);
    ck_assert_int_eq(r->got[found].dst, dst);
    return r->got[found].t;
}

/* The print_links listing (caller frees). */
static char *listing(const struct rig *r)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    ck_assert_ptr_nonnull(f);
    ck_assert(r->net->ops->print_links != NULL);
    r->net->ops->print_links(r->net, f);
    fclose(f);
    return buf;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* A link's line, "NAME " followed by its counters, or NULL. */
static const char *link_line(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (strncmp(p, name, len) == 0 && p[len] == ' ')
            return p;
    return NULL;
}

static uint64_t link_messages(const char *list, const char *name)
{
    const char *p = link_line(list, name);
    ck_assert_msg(p != NULL, "no link \"%s\" in:\n%s", name, list);
    unsigned long long v = 0;
    ck_assert_int_eq(sscanf(strstr(p, "messages") + 8, "%llu", &v), 1);
    return v;
}

static double link_queue_ns(const char *list, const char *name)
{
    const char *p = link_line(list, name);
    ck_assert_msg(p != NULL, "no link \"%s\" in:\n%s", name, list);
    double v = -1;
    ck_assert_int_eq(sscanf(strstr(p, "queue") + 5, "%lf", &v), 1);
    return v;
}

/* ------------------------------------------------------------ ring */

/* 8 stops, one per core; 1 ring cycle = 1000 ps; a hop is 2 cycles, getting
 * on or off 1; an 8-byte message occupies a link 1 cycle, 72 bytes 5. */
#define RING_CFG                                                                                   \
    "ring = { clock_ghz = 1.0; hop_cycles = 2; link_bytes = 16; stop_cycles = 1; %s };\n"
#define CY 1000u
static const struct net_layout ring_layout = {8, 8, 1, 0};

static struct rig *ring_rig(const char *extra, struct net_layout l)
{
    char text[256];
    snprintf(text, sizeof text, RING_CFG, extra);
    return rig_new("ring", text, l);
}

START_TEST(test_ring_shorter_way)
{
    struct rig *r = ring_rig("", ring_layout);
    send(r, 1, 0, 3, 8, SIM_VNET_REQ); /* 3 hops clockwise (5 the other way) */
    send(r, 2, 0, 5, 8, SIM_VNET_REQ); /* 3 hops counter-clockwise */
    run(r);
    ck_assert_uint_eq(arrival(r, 1, 3), (1 + 3 * 2 + 1) * CY);
    ck_assert_uint_eq(arrival(r, 2, 5), (1 + 3 * 2 + 1) * CY);
    char *list = listing(r);
    ck_assert_int_eq(count_lines(list), 6);
    const char *used[] = {"ring0 cw 0->1",  "ring0 cw 1->2",  "ring0 cw 2->3",
                          "ring0 ccw 0->7", "ring0 ccw 7->6", "ring0 ccw 6->5"};
    for (size_t i = 0; i < SIM_COUNT_OF(used); i++)
        ck_assert_uint_eq(link_messages(list, used[i]), 1);
    ck_assert_uint_eq(r->net->stats.messages, 2);
    ck_assert_uint_eq(r->net->stats.bytes, 16);
    ck_assert_uint_eq(r->net->stats.queue_ps, 0);
    free(list);
    rig_free(r);
}
END_TEST

START_TEST(test_ring_tie_goes_clockwise)
{
    struct rig *r = ring_rig("", ring_layout);
    send(r, 1, 0, 4, 8, SIM_VNET_REQ); /* 4 hops either way */
    send(r, 2, 4, 0, 8, SIM_VNET_REQ);
    run(r);
    ck_assert_uint_eq(arrival(r, 1, 4), (1 + 4 * 2 + 1) * CY);
    ck_assert_uint_eq(arrival(r, 2, 0), (1 + 4 * 2 + 1) * CY);
    char *list = listing(r);
    ck_assert_ptr_null(strstr(list, "ccw"));
    ck_assert_uint_eq(link_messages(list, "ring0 cw 3->4"), 1);
    ck_assert_uint_eq(link_messages(list, "ring0 cw 7->0"), 1);
    free(list);
    rig_free(r);
}
END_TEST

START_TEST(test_ring_same_stop_and_placement)
{
    struct rig *r = ring_rig("", ring_layout);
    send(r, 1, 2, 8 + 2, 8, SIM_VNET_REQ); /* core 2 to home 2: the same stop */
    run(r);
    ck_assert_uint_eq(arrival(r, 1, 10), 1 * CY); /* stop_cycles once */
    ck_assert_uint_eq(r->net->stats.messages, 1);
    rig_free(r);

    r = rig_new("ring", "ring = { clock_ghz = 1.0; hop_cycles = 2; link_bytes = 16; };\n",
                ring_layout); /* stop_cycles 0 */
    send(r, 1, 2, 8 + 2, 8, SIM_VNET_REQ);
    run(r);
    ck_assert_uint_eq(arrival(r, 1, 10), 0);
    rig_free(r);

    /* 4 stops for 8 cores and 2 homes: core c at stop c / 2, home h at 2h */
    r = ring_rig("stops = 4;", (struct net_layout){8, 2, 1, 0});
    send(r, 1, 0, 1, 8, SIM_VNET_REQ);     /* stop 0 to stop 0 */
    send(r, 2, 0, 8 + 1, 8, SIM_VNET_REQ); /* stop 0 to stop 2: a tie, clockwise */
    send(r, 3, 7, 8 + 0, 8, SIM_VNET_REQ); /* stop 3 to stop 0: 1 hop clockwise */
    run(r);
    ck_assert_uint_eq(arrival(r, 1, 1), 1 * CY);
    ck_assert_uint_eq(arrival(r, 2, 9), (1 + 2 * 2 + 1) * CY);
    ck_assert_uint_eq(arrival(r, 3, 8), (1 + 2 + 1) * CY);
    char *list = listing(r);
    ck_assert_uint_eq(link_messages(list, "ring0 cw 3->0"), 1);
    free(list);
    rig_free(r);
}
END_TEST

START_TEST(test_ring_link_queue)
{
    struct rig *r = ring_rig("", ring_layout);
    send(r, 1, 0, 2, 72, SIM_VNET_DATA); /* 5 cycles on each link */
    send(r, 2, 0, 2, 72, SIM_VNET_DATA); /* waits 5 cycles for link 0->1 */
    run(r);
    ck_assert_uint_eq(arrival(r, 1, 2), (1 + 2 * 2 + 1) * CY);
    ck_assert_uint_eq(arrival(r, 2, 2), (1 + 5 + 2 * 2 + 1) * CY);
    ck_assert_uint_eq(r->net->stats.queue_ps, 5 * CY);
    char *list = listing(r);
    ck_assert_uint_eq(link_messages(list, "ring0 cw 0->1"), 2);
    ck_assert_double_eq(link_queue_ns(list, "ring0 cw 0->1"), 5.0);
    ck_assert_double_eq(link_queue_ns(list, "ring0 cw 1->2"), 0.0);
    free(list);
    rig_free(r);
}
END_TEST

START_TEST(test_ring_traffic_on_the_ring_has_right_of_way)
{
    /* a slotted ring: a message on the ring never waits; one getting on
     * waits at its stop until its slots are free on its whole way */
    struct rig *r = ring_rig("", ring_layout);
    send(r, 1, 0, 3, 72, SIM_VNET_DATA); /* ready at 1; holds link 2->3 from 5 to 10 */
    ck_assert_int_eq(sim_run(r->k, 2 * CY), SIM_RUN_UNTIL);
    send(r, 2, 2, 3, 72, SIM_VNET_DATA); /* ready at 3: 2->3 is taken until 10 */
    run(r);
    ck_assert_uint_eq(arrival(r, 1, 3), (1 + 3 * 2 + 1) * CY);
    ck_assert_uint_eq(arrival(r, 2, 3), (10 + 2 + 1) * CY);
    ck_assert_uint_eq(r->net->stats.queue_ps, 7 * CY);
    char *list = listing(r);
    ck_assert_double_eq(link_queue_ns(list, "ring0 cw 2->3"), 7.0);
    ck_assert_double_eq(link_queue_ns(list, "ring0 cw 0->1"), 0.0);
    free(list);
    rig_free(r);
}
END_TEST

START_TEST(test_ring_waits_for_the_whole_way)
{
    struct rig *r = ring_rig("", ring_layout);
    send(r, 1, 2, 3, 72, SIM_VNET_DATA); /* holds link 2->3 from 1 to 6 */
    /* starting at 1 it would need 2->3 from 5: it starts at 2 and holds
     * 0->1 from 2, 1->2 from 4 and 2->3 from 6 */
    send(r, 2, 0, 3, 72, SIM_VNET_DATA);
    run(r);
    ck_assert_uint_eq(arrival(r, 1, 3), (1 + 2 + 1) * CY);
    ck_assert_uint_eq(arrival(r, 2, 3), (2 + 3 * 2 + 1) * CY);
    ck_assert_uint_eq(r->net->stats.queue_ps, 1 * CY);
    char *list = listing(r);
    ck_assert_double_eq(link_queue_ns(list, "ring0 cw 0->1"), 1.0);
    ck_assert_double_eq(link_queue_ns(list, "ring0 cw 2->3"), 0.0);
    free(list);
    rig_free(r);
}
END_TEST

START_TEST(test_ring_long_burst)
{
    /* 60 messages of 5 cycles queue 300 cycles at one stop: longer than a
     * link's first table of reserved cycles, which grows and keeps them */
    struct rig *r = ring_rig("", ring_layout);
    send(r, 100, 4, 7, 72, SIM_VNET_DATA); /* holds 6->7 from 5 to 10 */
    for (uint64_t k = 0; k < 60; k++)
        send(r, k, 0, 2, 72, SIM_VNET_DATA);
    send(r, 101, 5, 7, 72, SIM_VNET_DATA); /* after the growth: waits for 100 */
    run(r);
    for (uint64_t k = 0; k < 60; k++)
        ck_assert_uint_eq(arrival(r, k, 2), (1 + 5 * k + 2 * 2 + 1) * CY);
    ck_assert_uint_eq(arrival(r, 100, 7), (1 + 3 * 2 + 1) * CY);
    /* 101 would hold 6->7 from 3; 100 holds it until 10: it starts at 8 */
    ck_assert_uint_eq(arrival(r, 101, 7), (8 + 2 * 2 + 1) * CY);
    rig_free(r);
}
END_TEST

/* The slotted ring by brute force: every (link, cycle) a message holds, on
 * 8 stops (1 ring cycle = CY, a hop 2 cycles, on and off 1, 16 bytes a
 * cycle), for messages handed to the ring in the order given. */
struct ring_ref {
    bool held[3][2][8][4096]; /* [ring][dir][link][cycle] */
};

static uint64_t ring_ref_send(struct ring_ref *f, int ring, int src, int dst, uint32_t bytes,
                              uint64_t now_cycle)
{
    uint64_t ready = now_cycle + 1, occupy = (bytes + 15) / 16;
    if (src == dst)
        return ready;
    int cw = (dst - src + 8) % 8, dir = cw <= 8 - cw ? 0 : 1, hops = dir ? 8 - cw : cw;
    for (uint64_t start = ready;; start++) {
        bool free_way = true;
        for (int j = 0; j < hops && free_way; j++) {
            int link = dir ? (src - j + 8) % 8 : (src + j) % 8;
            for (uint64_t i = 0; i < occupy; i++)
                free_way = free_way && !f->held[ring][dir][link][start + 2 * (uint64_t)j + i];
        }
        if (!free_way)
            continue;
        for (int j = 0; j < hops; j++) {
            int link = dir ? (src - j + 8) % 8 : (src + j) % 8;
            for (uint64_t i = 0; i < occupy; i++)
                f->held[ring][dir][link][start + 2 * (uint64_t)j + i] = true;
        }
        return start + 2 * (uint64_t)hops + 1;
    }
}

START_TEST(test_ring_matches_brute_force)
{
    /* random traffic, in waves, both directions, wrapping past stop 0,
     * 1 to 5 cycles a link: arrivals as the brute-force model says */
    static const uint32_t sizes[] = {8, 16, 40, 72};
    for (int rings = 1; rings <= 3; rings += 2) {
        struct ring_ref *f = calloc(1, sizeof *f);
        ck_assert_ptr_nonnull(f);
        char extra[32];
        snprintf(extra, sizeof extra, "rings = %d;", rings);
        struct rig *r = ring_rig(extra, ring_layout);
        uint64_t x = 12345, want[MAXGOT];
        int dst[MAXGOT];
        for (uint64_t id = 0; id < 384; id++) {
            if (id % 64 == 0 && id) /* the next wave while the last one rides */
                ck_assert_int_eq(sim_run(r->k, (id / 64) * 10 * CY), SIM_RUN_UNTIL);
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            int src = (int)((x >> 33) % 8), to = (int)((x >> 40) % 8), vnet = (int)((x >> 50) % 3);
            uint32_t bytes = sizes[(x >> 55) % 4];
            dst[id] = to;
            want[id] = ring_ref_send(f, rings == 1 ? 0 : vnet, src, to, bytes, sim_now(r->k) / CY);
            send(r, id, src, to, bytes, vnet);
        }
        run(r);
        ck_assert_int_eq(r->n, 384);
        ck_assert_uint_gt(r->net->stats.queue_ps, 100 * CY); /* it was crowded */
        for (uint64_t id = 0; id < 384; id++)
            ck_assert_msg(arrival(r, id, dst[id]) == want[id] * CY,
                          "rings %d: message %llu at %llu ps, the model says %llu cycles", rings,
                          (unsigned long long)id, (unsigned long long)arrival(r, id, dst[id]),
                          (unsigned long long)want[id]);
        rig_free(r);
        free(f);
    }
}
END_TEST

START_TEST(test_ring_three_rings)
{
    /* one ring: the request waits for the data message on link 0->1 */
    struct rig *r = ring_rig("rings = 1;", ring_layout);
    send(r, 1, 0, 2, 72, SIM_VNET_DATA);
    send(r, 2, 0, 2, 8, SIM_VNET_REQ);
    send(r, 3, 0, 2, 8, SIM_VNET_ACK);
    run(r);
    ck_assert_uint_eq(arrival(r, 1, 2), (1 + 2 * 2 + 1) * CY);
    ck_assert_uint_eq(arrival(r, 2, 2), (1 + 5 + 2 * 2 + 1) * CY);
    ck_assert_uint_eq(arrival(r, 3, 2), (1 + 6 + 2 * 2 + 1) * CY);
    ck_assert_uint_eq(r->net->stats.queue_ps, (5 + 6) * CY);
    rig_free(r);

    /* three rings: each message rides its own */
    r = ring_rig("rings = 3;", ring_layout);
    send(r, 1, 0, 2, 72, SIM_VNET_DATA);
    send(r, 2, 0, 2, 8, SIM_VNET_REQ);
    send(r, 3, 0, 2, 8, SIM_VNET_ACK);
    run(r);
    for (uint64_t id = 1; id <= 3; id++)
        ck_assert_uint_eq(arrival(r, id, 2), (1 + 2 * 2 + 1) * CY);
    ck_assert_uint_eq(r->net->stats.queue_ps, 0);
    char *list = listing(r);
    ck_assert_uint_eq(link_messages(list, "ring0 cw 0->1"), 1); /* request */
    ck_assert_uint_eq(link_messages(list, "ring1 cw 0->1"), 1); /* data */
    ck_assert_uint_eq(link_messages(list, "ring2 cw 0->1"), 1); /* acknowledge */
    free(list);
    rig_free(r);
}
END_TEST

START_TEST(test_ring_refused)
{
    struct rig *r = rig_try("ring",
                            "ring = { clock_ghz = 1.0; hop_cycles = 2; link_bytes = 16; "
                            "rings = 2; };\n",
                            ring_layout);
    ck_assert_ptr_null(r->net);
    ck_assert_ptr_nonnull(strstr(r->d.text, "ring.rings = 2"));
    sim_kernel_free(r->k);
    free(r);
    /* the schema: out of range, and required keys */
    const struct net_ops *ops = net_find("ring");
    _Alignas(16) unsigned char cfg[256];
    ops->cfg_defaults(cfg);
    struct cfg_section sec;
    ck_assert_uint_eq(ops->cfg_sections(cfg, &sec, 1), 1);
    struct sim_diag d;
    sim_diag_init(&d);
    struct cfg_file *cf =
        cfg_open(tu_write("bad.cfg", "ring = { clock_ghz = 1.0; hop_cycles = 0; };\n"), &d);
    ck_assert_ptr_nonnull(cf);
    ck_assert(!cfg_apply(cf, &sec, 1, &d));
    ck_assert_ptr_nonnull(strstr(d.text, "hop_cycles"));
    ck_assert_ptr_nonnull(strstr(d.text, "link_bytes"));
    cfg_close(cf);
}
END_TEST

/* ------------------------------------------------------------ mesh */

/* 4 x 2 tiles, 2 cores a tile (16 cores), 8 homes (home h on tile h); one
 * mesh cycle = 1250 ps; 3 cycles through a router, 1 on a link; 72 bytes
 * occupy a link 5 cycles. */
#define MESH_CFG                                                                                   \
    "mesh = { width = 4; height = 2; clock_ghz = 0.8; router_cycles = 3; link_bytes = 16; };\n"
#define MCY 1250u
static const struct net_layout mesh_layout = {16, 8, 1, 0};

START_TEST(test_mesh_hops)
{
    for (int t = 0; t < 9; t++) { /* core 0 on tile (0,0) to the first core of tile t */
        struct rig *r = rig_new("mesh", MESH_CFG, mesh_layout);
        int dst = t < 8 ? 2 * t : 16 + 3; /* last: home 3, on tile 3 */
        int tile = t < 8 ? t : 3;
        send(r, 1, 0, dst, 8, SIM_VNET_REQ);
        run(r);
        unsigned hops = (unsigned)(tile % 4 + tile / 4);
        ck_assert_uint_eq(arrival(r, 1, dst), ((hops + 1) * 3 + hops) * MCY);
        char *list = listing(r);
        ck_assert_int_eq(count_lines(list), (int)hops + 2); /* and the local ports */
        free(list);
        rig_free(r);
    }
}
END_TEST

START_TEST(test_mesh_xy_route)
{
    struct rig *r = rig_new("mesh", MESH_CFG, mesh_layout);
    send(r, 1, 0, 15, 8, SIM_VNET_REQ); /* tile (0,0) to tile (3,1) */
    send(r, 2, 15, 0, 8, SIM_VNET_REQ); /* and back */
    run(r);
    ck_assert_uint_eq(arrival(r, 1, 15), (5 * 3 + 4) * MCY);
    ck_assert_uint_eq(arrival(r, 2, 0), (5 * 3 + 4) * MCY);
    char *list = listing(r);
    const char *used[] = {"mesh (0,0) local in", "mesh (0,0)->(1,0)", "mesh (1,0)->(2,0)",
                          "mesh (2,0)->(3,0)",   "mesh (3,0)->(3,1)", "mesh (3,1) local out",
                          "mesh (3,1) local in", "mesh (3,1)->(2,1)", "mesh (2,1)->(1,1)",
                          "mesh (1,1)->(0,1)",   "mesh (0,1)->(0,0)", "mesh (0,0) local out"};
    for (size_t i = 0; i < SIM_COUNT_OF(used); i++)
        ck_assert_uint_eq(link_messages(list, used[i]), 1);
    ck_assert_int_eq(count_lines(list), (int)SIM_COUNT_OF(used));
    /* the y-first paths carry nothing */
    ck_assert_ptr_null(link_line(list, "mesh (0,0)->(0,1)"));
    ck_assert_ptr_null(link_line(list, "mesh (3,1)->(3,0)"));
    free(list);
    rig_free(r);
}
END_TEST

START_TEST(test_mesh_same_tile)
{
    struct rig *r = rig_new("mesh", MESH_CFG, mesh_layout);
    send(r, 1, 0, 1, 8, SIM_VNET_REQ);      /* both cores of tile 0 */
    send(r, 2, 2, 16 + 1, 8, SIM_VNET_REQ); /* core 2 and home 1 share tile 1 */
    run(r);
    ck_assert_uint_eq(arrival(r, 1, 1), 3 * MCY); /* one router */
    ck_assert_uint_eq(arrival(r, 2, 17), 3 * MCY);
    rig_free(r);
}
END_TEST

START_TEST(test_mesh_link_queue)
{
    struct rig *r = rig_new("mesh", MESH_CFG, mesh_layout);
    send(r, 1, 0, 2, 72, SIM_VNET_DATA); /* tile (0,0) to (1,0) */
    send(r, 2, 0, 2, 72, SIM_VNET_DATA); /* waits 5 cycles for the local port */
    run(r);
    ck_assert_uint_eq(arrival(r, 1, 2), (2 * 3 + 1) * MCY);
    ck_assert_uint_eq(arrival(r, 2, 2), (5 + 2 * 3 + 1) * MCY);
    ck_assert_uint_eq(r->net->stats.queue_ps, 5 * MCY);
    char *list = listing(r);
    ck_assert_uint_eq(link_messages(list, "mesh (0,0)->(1,0)"), 2);
    free(list);
    rig_free(r);
}
END_TEST

START_TEST(test_mesh_refused)
{
    struct rig *r = rig_try("mesh", MESH_CFG, (struct net_layout){17, 8, 1, 0});
    ck_assert_ptr_null(r->net);
    ck_assert_ptr_nonnull(strstr(r->d.text, "17 caches do not fit"));
    sim_kernel_free(r->k);
    free(r);
    r = rig_try("mesh",
                "mesh = { width = 4; height = 2; clock_ghz = 0.8; router_cycles = 3; "
                "link_bytes = 16; cores_per_tile = 1; };\n",
                mesh_layout);
    ck_assert_ptr_null(r->net);
    ck_assert_ptr_nonnull(strstr(r->d.text, "16 caches do not fit on 4 x 2 tiles of 1 ("));
    sim_kernel_free(r->k);
    free(r);
    r = rig_new("mesh", MESH_CFG, mesh_layout); /* exactly full */
    rig_free(r);
}
END_TEST

/* ------------------------------------------------------------ qpi */

/* 2 sockets of 4 cores, 1 home each; a ring of 5 stops per socket (the QPI
 * agent at stop 4); one ring cycle = 500 ps, a hop 1 cycle, on or off 1; 72
 * bytes occupy a ring link 3 cycles, the QPI link 72 / 16 = 4.5 ns; the QPI
 * latency is 20 ns. */
#define QPI_CFG                                                                                    \
    "qpi = { clock_ghz = 2.0; hop_cycles = 1; link_bytes = 32; stop_cycles = 1;\n"                 \
    "        qpi_latency_ns = 20.0; qpi_bytes_per_ns = 16.0; %s };\n"
static const struct net_layout qpi_layout = {8, 2, 2, 0};

static struct rig *qpi_rig(const char *extra, struct net_layout l, bool ok)
{
    char text[512];
    snprintf(text, sizeof text, QPI_CFG, extra);
    return ok ? rig_new("qpi", text, l) : rig_try("qpi", text, l);
}

START_TEST(test_qpi_within_socket)
{
    struct rig *r = qpi_rig("", qpi_layout, true);
    send(r, 1, 1, 3, 8, SIM_VNET_REQ); /* socket 0, stops 1 -> 3 */
    send(r, 2, 5, 7, 8, SIM_VNET_REQ); /* socket 1, stops 1 -> 3 */
    run(r);
    ck_assert_uint_eq(arrival(r, 1, 3), (1 + 2 + 1) * 500);
    ck_assert_uint_eq(arrival(r, 2, 7), (1 + 2 + 1) * 500);
    char *list = listing(r);
    ck_assert_uint_eq(link_messages(list, "socket0 ring0 cw 1->2"), 1);
    ck_assert_uint_eq(link_messages(list, "socket1 ring0 cw 2->3"), 1);
    ck_assert_ptr_null(strstr(list, "qpi"));
    free(list);
    rig_free(r);
}
END_TEST

START_TEST(test_qpi_crossing)
{
    struct rig *r = qpi_rig("", qpi_layout, true);
    send(r, 1, 0, 4, 72, SIM_VNET_DATA); /* socket 0 stop 0 -> socket 1 stop 0 */
    run(r);
    /* on at 500, 0->4 (1 hop ccw) at 1000, off at 1500; QPI 4500 + 20000;
     * on at 26500, 4->0 (1 hop cw) at 27000, off at 27500 */
    ck_assert_uint_eq(arrival(r, 1, 4), 27500);
    char *list = listing(r);
    ck_assert_int_eq(count_lines(list), 3);
    ck_assert_uint_eq(link_messages(list, "socket0 ring0 ccw 0->4"), 1);
    ck_assert_uint_eq(link_messages(list, "qpi 0->1"), 1);
    ck_assert_uint_eq(link_messages(list, "socket1 ring0 cw 4->0"), 1);
    free(list);
    rig_free(r);

    r = qpi_rig("", qpi_layout, true);
    send(r, 2, 1, 8 + 1, 8, SIM_VNET_REQ); /* core 1 -> home 1 (socket 1 stop 0) */
    run(r);
    /* on at 500, 1->0->4 (2 hops ccw) at 1500, off at 2000; QPI 500 + 20000;
     * on at 23000, 4->0 at 23500, off at 24000 */
    ck_assert_uint_eq(arrival(r, 2, 9), 24000);
    rig_free(r);
}
END_TEST

START_TEST(test_qpi_link_queue)
{
    struct rig *r = qpi_rig("", qpi_layout, true);
    send(r, 1, 0, 4, 72, SIM_VNET_DATA);
    send(r, 2, 0, 4, 72, SIM_VNET_DATA);
    run(r);
    ck_assert_uint_eq(arrival(r, 1, 4), 27500);
    /* waits 3 cycles (1500) for ring link 0->4, is off at 3000, waits for
     * the QPI link until 1500 + 4500: one QPI serialisation after the first */
    ck_assert_uint_eq(arrival(r, 2, 4), 27500 + 4500);
    ck_assert_uint_eq(r->net->stats.queue_ps, 1500 + 3000);
    char *list = listing(r);
    ck_assert_double_eq(link_queue_ns(list, "qpi 0->1"), 3.0);
    free(list);
    rig_free(r);
}
END_TEST

/* The links between sockets carry the config's name in --links (the
 * Opteron's HyperTransport links are "ht"). */
START_TEST(test_qpi_link_name)
{
    struct rig *r = qpi_rig("link_name = \"ht\";", qpi_layout, true);
    send(r, 1, 0, 4, 72, SIM_VNET_DATA);
    run(r);
    char *list = listing(r);
    ck_assert_uint_eq(link_messages(list, "ht 0->1"), 1);
    ck_assert_ptr_null(strstr(list, "qpi"));
    free(list);
    rig_free(r);
}
END_TEST

START_TEST(test_qpi_agent_stop)
{
    /* the QPI agent at stop 0, sharing it with core 0 (4 stops a ring) */
    struct rig *r = qpi_rig("stops_per_socket = 4; qpi_stop = 0;", qpi_layout, true);
    send(r, 1, 0, 4, 8, SIM_VNET_REQ); /* through stop 0 on both sides */
    send(r, 2, 6, 2, 8, SIM_VNET_REQ); /* socket 1 stop 2 -> socket 0 stop 2 */
    run(r);
    ck_assert_uint_eq(arrival(r, 1, 4), 500 + 500 + 20000 + 500);
    /* on 500, 2 hops (tie: cw 2->3->0) 1500, off 2000, QPI 22500; on 23000,
     * 0->1->2 at 24000, off 24500 */
    ck_assert_uint_eq(arrival(r, 2, 2), 24500);
    rig_free(r);
}
END_TEST

START_TEST(test_qpi_refused)
{
    struct {
        const char *extra;
        struct net_layout l;
        const char *msg;
    } bad[] = {
        {"", {6, 4, 4, 0}, "6 cores and 4 homes do not divide among 4 sockets"},
        {"", {8, 3, 2, 0}, "do not divide among 2 sockets"},
        {"stops_per_socket = 3;", qpi_layout,
         "qpi.stops_per_socket = 3: a socket's ring needs a stop for each of its 4 caches"},
        {"qpi_stop = 5;", qpi_layout, "qpi.qpi_stop = 5: a socket's ring has stops 0 to 4"},
        {"link_name = \"h t\";", qpi_layout,
         "qpi.link_name = \"h t\": a name for --links, one word"},
        {"link_name = \"\";", qpi_layout, "qpi.link_name = \"\": a name for --links, one word"},
    };
    for (size_t i = 0; i < SIM_COUNT_OF(bad); i++) {
        struct rig *r = qpi_rig(bad[i].extra, bad[i].l, false);
        ck_assert_ptr_null(r->net);
        ck_assert_msg(strstr(r->d.text, bad[i].msg) != NULL, "%s", r->d.text);
        sim_kernel_free(r->k);
        free(r);
    }
}
END_TEST

/* ------------------------------------------------------------ ht */

/* 4 sockets of 2 cores and 1 home; a crossbar is 1 ns, a link 10 ns after
 * serialisation at 8 B/ns (a 72-byte message occupies it 9 ns). */
#define HT_CFG                                                                                     \
    "ht = { links = [%s]; xbar_ns = 1.0; link_latency_ns = 10.0; link_bytes_per_ns = 8.0; };\n"
static const struct net_layout ht_layout = {8, 4, 4, 0};
#define HT_LINE "\"0-1\", \"1-2\", \"2-3\""
#define HT_RING "\"0-1\", \"1-2\", \"2-3\", \"3-0\""

static struct rig *ht_rig(const char *links, struct net_layout l, bool ok)
{
    char text[512];
    snprintf(text, sizeof text, HT_CFG, links);
    return ok ? rig_new("ht", text, l) : rig_try("ht", text, l);
}

START_TEST(test_ht_multi_hop)
{
    struct rig *r = ht_rig(HT_LINE, ht_layout, true);
    send(r, 1, 0, 1, 72, SIM_VNET_DATA); /* within socket 0: its crossbar */
    send(r, 2, 2, 7, 72, SIM_VNET_DATA); /* socket 1 -> socket 3: 2 hops */
    send(r, 3, 8, 6, 8, SIM_VNET_REQ);   /* home 0 (socket 0) -> socket 3: 3 hops */
    run(r);
    ck_assert_uint_eq(arrival(r, 1, 1), 1000);
    /* crossbar 1000, then per hop 9000 + 10000 and the next crossbar 1000 */
    ck_assert_uint_eq(arrival(r, 2, 7), 1000 + 2 * 20000);
    /* 8 bytes: 1000 a hop; at socket 2 at 25000 it waits for message 2 on
     * link 2->3 (busy from 21000 to 30000) */
    ck_assert_uint_eq(arrival(r, 3, 6), 30000 + 1000 + 10000 + 1000);
    ck_assert_int_eq(net_hops(r->net, 0, 7), 3);
    ck_assert_int_eq(net_hops(r->net, 2, 9), 0);
    ck_assert_int_eq(net_hops(r->net, 11, 0), 3);
    char *list = listing(r);
    ck_assert_uint_eq(link_messages(list, "ht 0->1"), 1);
    ck_assert_uint_eq(link_messages(list, "ht 1->2"), 2);
    ck_assert_uint_eq(link_messages(list, "ht 2->3"), 2);
    ck_assert_ptr_null(link_line(list, "ht 3->2"));
    free(list);
    rig_free(r);
}
END_TEST

/* With arbitration on, two messages of different sources that reach one
 * link in the same instant cross it in an order the seed draws (the ht
 * links kept the order they were sent in: only the delivery was drawn). */
START_TEST(test_ht_link_arbitration)
{
    bool first_of_0 = false, first_of_1 = false;
    for (uint64_t seed = 1; seed <= 32; seed++) {
        struct rig *r = ht_rig(HT_LINE, ht_layout, true);
        net_set_arbitration(r->net, seed);
        send(r, 1, 0, 2, 72, SIM_VNET_DATA); /* cores 0 and 1 (socket 0) -> socket 1 */
        send(r, 2, 1, 3, 72, SIM_VNET_DATA);
        run(r);
        sim_time_t a = arrival(r, 1, 2), b = arrival(r, 2, 3);
        ck_assert_uint_ne(a, b); /* the link serialises them */
        first_of_0 |= a < b;
        first_of_1 |= b < a;
        rig_free(r);
    }
    ck_assert_msg(first_of_0 && first_of_1, "the link's order never changed with the seed");
}
END_TEST

START_TEST(test_ht_tie_goes_to_the_lowest_neighbour)
{
    struct rig *r = ht_rig(HT_RING, ht_layout, true);
    send(r, 1, 0, 4, 8, SIM_VNET_REQ); /* socket 0 -> 2: via 1 or 3, equally short */
    send(r, 2, 6, 2, 8, SIM_VNET_REQ); /* socket 3 -> 1: via 0 or 2 */
    send(r, 3, 0, 6, 8, SIM_VNET_REQ); /* socket 0 -> 3: the direct link */
    send(r, 4, 4, 0, 8, SIM_VNET_REQ); /* socket 2 -> 0: via 1 or 3 */
    run(r);
    char *list = listing(r);
    ck_assert_uint_eq(link_messages(list, "ht 0->1"), 2);
    ck_assert_uint_eq(link_messages(list, "ht 1->2"), 1);
    ck_assert_uint_eq(link_messages(list, "ht 3->0"), 1);
    ck_assert_uint_eq(link_messages(list, "ht 0->3"), 1);
    ck_assert_uint_eq(link_messages(list, "ht 2->1"), 1);
    ck_assert_uint_eq(link_messages(list, "ht 1->0"), 1);
    ck_assert_int_eq(count_lines(list), 6);
    free(list);
    ck_assert_int_eq(net_hops(r->net, 0, 4), 2);
    rig_free(r);
}
END_TEST

START_TEST(test_ht_link_queue)
{
    struct rig *r = ht_rig(HT_LINE, ht_layout, true);
    send(r, 1, 0, 2, 72, SIM_VNET_DATA);
    send(r, 2, 1, 3, 72, SIM_VNET_DATA); /* the same link 0->1, 9 ns later */
    run(r);
    ck_assert_uint_eq(arrival(r, 1, 2), 21000);
    ck_assert_uint_eq(arrival(r, 2, 3), 30000);
    ck_assert_uint_eq(r->net->stats.queue_ps, 9000);
    char *list = listing(r);
    ck_assert_double_eq(link_queue_ns(list, "ht 0->1"), 9.0);
    free(list);
    rig_free(r);
}
END_TEST

START_TEST(test_ht_refused)
{
    struct {
        const char *links;
        struct net_layout l;
        const char *msg;
    } bad[] = {
        {HT_LINE, {6, 4, 4, 0}, "6 cores and 4 homes do not divide among 4 sockets"},
        {"\"0-4\"", ht_layout, "link \"0-4\" is not two sockets \"A-B\" of the machine's"},
        {"\"0+1\"", ht_layout, "link \"0+1\" is not two sockets"},
        {"\"0-1x\"", ht_layout, "link \"0-1x\" is not two sockets"},
        {"\"2-2\"", ht_layout, "link \"2-2\" joins a socket to itself"},
        {"\"0-1\", \"1-0\"", ht_layout, "link \"1-0\" is listed twice"},
        {"\"0-1\", \"2-3\"", ht_layout, "the links do not join all 4 sockets"},
    };
    for (size_t i = 0; i < SIM_COUNT_OF(bad); i++) {
        struct rig *r = ht_rig(bad[i].links, bad[i].l, false);
        ck_assert_ptr_null(r->net);
        ck_assert_msg(strstr(r->d.text, bad[i].msg) != NULL, "%s", r->d.text);
        sim_kernel_free(r->k);
        free(r);
    }
}
END_TEST

/* ------------------------------------------------------------ bus */

#define BUS_CFG "bus = { arbitration_ns = 10.0; bytes_per_ns = 8.0; hub_ns = 5.0; };\n"
/* caches 0, 1 on bus 0; 2, 3 on bus 1; homes 4, 5 in the hub */
static const struct net_layout bus_layout = {4, 2, 2, 0};

START_TEST(test_bus_routes_and_queue)
{
    struct rig *r = rig_new("bus", BUS_CFG, bus_layout);
    send(r, 1, 0, 1, 72, SIM_VNET_DATA); /* one bus: one transaction, 10 + 9 ns */
    send(r, 2, 2, 4, 8, SIM_VNET_REQ);   /* bus 1 (11 ns), then the hub (5) */
    send(r, 3, 4, 0, 8, SIM_VNET_REQ);   /* the hub, then bus 0, busy until 19 ns */
    send(r, 4, 3, 1, 8, SIM_VNET_REQ);   /* bus 1 after message 2, the hub, bus 0 after 3 */
    run(r);
    ck_assert_uint_eq(arrival(r, 1, 1), 19000);
    ck_assert_uint_eq(arrival(r, 2, 4), 16000);
    ck_assert_uint_eq(arrival(r, 3, 0), 30000);
    ck_assert_uint_eq(arrival(r, 4, 1), 41000);
    ck_assert_int_eq(net_hops(r->net, 0, 1), 1);
    ck_assert_int_eq(net_hops(r->net, 0, 3), 2);
    ck_assert_int_eq(net_hops(r->net, 4, 2), 1);
    char *list = listing(r);
    ck_assert_uint_eq(link_messages(list, "bus 0"), 3);
    ck_assert_uint_eq(link_messages(list, "bus 1"), 2);
    free(list);
    rig_free(r);
}
END_TEST

/* A bus broadcasts: one source's messages of one size put on a bus in the
 * same instant are one transaction; another size is another. */
START_TEST(test_bus_broadcast)
{
    struct rig *r = rig_new("bus", BUS_CFG, bus_layout);
    send(r, 1, 4, 0, 8, SIM_VNET_REQ);
    send(r, 2, 4, 1, 8, SIM_VNET_REQ);
    send(r, 3, 4, 2, 8, SIM_VNET_REQ);
    send(r, 4, 4, 1, 72, SIM_VNET_DATA);
    run(r);
    ck_assert_uint_eq(arrival(r, 1, 0), 16000);
    ck_assert_uint_eq(arrival(r, 2, 1), 16000);
    ck_assert_uint_eq(arrival(r, 3, 2), 16000);
    ck_assert_uint_eq(arrival(r, 4, 1), 16000 + 19000);
    char *list = listing(r);
    ck_assert_uint_eq(link_messages(list, "bus 0"), 2);
    ck_assert_uint_eq(link_messages(list, "bus 1"), 1);
    free(list);
    rig_free(r);
}
END_TEST

START_TEST(test_bus_refused)
{
    struct rig *r = rig_try("bus", BUS_CFG, (struct net_layout){3, 2, 2, 0});
    ck_assert_ptr_null(r->net);
    ck_assert_msg(strstr(r->d.text, "3 caches do not divide among 2 sockets"), "%s", r->d.text);
    sim_kernel_free(r->k);
    free(r);
}
END_TEST

/* ------------------------------------------------------------ chiplet */

#define CHIPLET_CFG                                                                                \
    "chiplet = { caches_per_ccx = 2; ccx_ns = 2.0; iod_ns = 10.0; link_latency_ns = 5.0;\n"        \
    "  link_bytes_per_ns = 8.0; link_up_bytes_per_ns = 4.0; };\n"
/* caches 0, 1 in CCX 0; 2, 3 in CCX 1; homes 4, 5 on the I/O die */
static const struct net_layout chiplet_layout = {4, 2, 1, 0};

START_TEST(test_chiplet_routes_and_queue)
{
    struct rig *r = rig_new("chiplet", CHIPLET_CFG, chiplet_layout);
    send(r, 1, 0, 1, 72, SIM_VNET_DATA); /* one CCX: its interconnect, 2 ns */
    send(r, 2, 0, 4, 8, SIM_VNET_REQ);   /* CCX 0 up (8 B at 4 B/ns) + 5, the I/O die 10 */
    send(r, 3, 4, 2, 72, SIM_VNET_DATA); /* the I/O die 10, down (72 B at 8 B/ns) + 5, CCX 2 */
    send(r, 4, 1, 3, 8, SIM_VNET_REQ);   /* up after message 2, the I/O die, down, CCX */
    run(r);
    ck_assert_uint_eq(arrival(r, 1, 1), 2000);
    ck_assert_uint_eq(arrival(r, 2, 4), 2000 + 2000 + 5000 + 10000);
    ck_assert_uint_eq(arrival(r, 3, 2), 10000 + 9000 + 5000 + 2000);
    /* up: waits for message 2 (2000..4000), on until 6000, +5, +10 = 21000;
     * down link 1 busy with message 3 until 19000: free, 1000 + 5 + 2 */
    ck_assert_uint_eq(arrival(r, 4, 3), 21000 + 1000 + 5000 + 2000);
    ck_assert_int_eq(net_hops(r->net, 0, 1), 0);
    ck_assert_int_eq(net_hops(r->net, 0, 3), 2);
    ck_assert_int_eq(net_hops(r->net, 5, 2), 1);
    char *list = listing(r);
    ck_assert_uint_eq(link_messages(list, "chiplet ccx 0->iod"), 2);
    ck_assert_double_eq(link_queue_ns(list, "chiplet ccx 0->iod"), 2.0);
    free(list);
    rig_free(r);
}
END_TEST

START_TEST(test_chiplet_refused)
{
    struct rig *r = rig_try("chiplet", CHIPLET_CFG, (struct net_layout){3, 2, 1, 0});
    ck_assert_ptr_null(r->net);
    ck_assert_msg(strstr(r->d.text, "do not fill whole CCXs"), "%s", r->d.text);
    sim_kernel_free(r->k);
    free(r);
    r = rig_try("chiplet", CHIPLET_CFG, (struct net_layout){4, 2, 2, 0});
    ck_assert_ptr_null(r->net);
    ck_assert_msg(strstr(r->d.text, "one socket only"), "%s", r->d.text);
    sim_kernel_free(r->k);
    free(r);
}
END_TEST

START_TEST(test_registry)
{
    const char *names[] = {"xbar", "ring", "mesh", "qpi", "ht", "bus", "chiplet"};
    for (size_t i = 0; i < SIM_COUNT_OF(names); i++) {
        ck_assert_ptr_nonnull(net_find(names[i]));
        ck_assert_str_eq(net_built_names[i], names[i]);
    }
    ck_assert_ptr_null(net_built_names[SIM_COUNT_OF(names)]);
    ck_assert(net_find("xbar")->print_links == NULL);
}
END_TEST

/* ------------------------------------------------------------ end to end */

static const char *const machines[] = {"ring4.cfg", "mesh4x2.cfg", "qpi2x4.cfg"};
static const char *const protocols[] = {"mesi", "mesif", "moesi", "gols"};

/* As `ccsim stress` runs it: tiny caches, jitter, a watchdog. */
START_TEST(test_stress)
{
    const char *file = machines[_i / 4], *proto = protocols[_i % 4];
    char path[512], set[64];
    snprintf(path, sizeof path, "%s/configs/%s", CCSIM_TEST_DIR, file);
    snprintf(set, sizeof set, "machine.protocol=\"%s\"", proto);
    const char *sets[] = {set};
    for (uint64_t seed = 1; seed <= 2; seed++) {
        struct machine_cfg m;
        struct sim_diag d;
        sim_diag_init(&d);
        ck_assert_msg(machine_load(&m, path, sets, 1, &d), "%s", d.text);
        struct cc_params p;
        ck_assert_msg(machine_params(&m, &p, &d), "%s", d.text);
        p.sets = 2;
        p.ways = 2;
        p.l1_sets = p.l1_ways = 0;
        struct machine *mc = machine_build_with(&m, &p, seed, &d);
        ck_assert_msg(mc != NULL, "%s", d.text);
        struct stress_opts o = {.mlp = 3,
                                .ops = 20000,
                                .seed = seed,
                                .lines = 8,
                                .max_think_cycles = 20,
                                .jitter_ps = 20000,
                                .watchdog_ns = 1000000};
        struct stress_result res;
        int status = stress_run(mc, &o, &res);
        ck_assert_msg(!res.deadlock, "%s %s seed %llu: deadlock", file, proto,
                      (unsigned long long)seed);
        ck_assert_msg(res.violations == 0 && res.unexpected == 0,
                      "%s %s seed %llu: %llu violations, %llu unexpected", file, proto,
                      (unsigned long long)seed, (unsigned long long)res.violations,
                      (unsigned long long)res.unexpected);
        ck_assert_uint_eq(res.ops, o.ops);
        ck_assert_int_eq(status, SIM_EXIT_OK);
        ck_assert_uint_gt(mc->net->stats.messages, 0);
        machine_free(mc);
    }
}
END_TEST

static Suite *topology_suite(void)
{
    Suite *s = suite_create("topology");
    TCase *ring = tcase_create("ring");
    tcase_add_test(ring, test_ring_shorter_way);
    tcase_add_test(ring, test_ring_tie_goes_clockwise);
    tcase_add_test(ring, test_ring_same_stop_and_placement);
    tcase_add_test(ring, test_ring_link_queue);
    tcase_add_test(ring, test_ring_traffic_on_the_ring_has_right_of_way);
    tcase_add_test(ring, test_ring_waits_for_the_whole_way);
    tcase_add_test(ring, test_ring_long_burst);
    tcase_add_test(ring, test_ring_matches_brute_force);
    tcase_add_test(ring, test_ring_three_rings);
    tcase_add_test(ring, test_ring_refused);
    suite_add_tcase(s, ring);
    TCase *mesh = tcase_create("mesh");
    tcase_add_test(mesh, test_mesh_hops);
    tcase_add_test(mesh, test_mesh_xy_route);
    tcase_add_test(mesh, test_mesh_same_tile);
    tcase_add_test(mesh, test_mesh_link_queue);
    tcase_add_test(mesh, test_mesh_refused);
    suite_add_tcase(s, mesh);
    TCase *qpi = tcase_create("qpi");
    tcase_add_test(qpi, test_qpi_within_socket);
    tcase_add_test(qpi, test_qpi_crossing);
    tcase_add_test(qpi, test_qpi_link_queue);
    tcase_add_test(qpi, test_qpi_link_name);
    tcase_add_test(qpi, test_qpi_agent_stop);
    tcase_add_test(qpi, test_qpi_refused);
    tcase_add_test(qpi, test_registry);
    suite_add_tcase(s, qpi);
    TCase *ht = tcase_create("ht");
    tcase_add_test(ht, test_ht_multi_hop);
    tcase_add_test(ht, test_ht_link_arbitration);
    tcase_add_test(ht, test_ht_tie_goes_to_the_lowest_neighbour);
    tcase_add_test(ht, test_ht_link_queue);
    tcase_add_test(ht, test_ht_refused);
    suite_add_tcase(s, ht);
    TCase *bus = tcase_create("bus");
    tcase_add_test(bus, test_bus_routes_and_queue);
    tcase_add_test(bus, test_bus_broadcast);
    tcase_add_test(bus, test_bus_refused);
    suite_add_tcase(s, bus);
    TCase *chiplet = tcase_create("chiplet");
    tcase_add_test(chiplet, test_chiplet_routes_and_queue);
    tcase_add_test(chiplet, test_chiplet_refused);
    suite_add_tcase(s, chiplet);
    TCase *stress = tcase_create("stress");
    tcase_add_loop_test(stress, test_stress, 0,
                        (int)(SIM_COUNT_OF(machines) * SIM_COUNT_OF(protocols)));
    suite_add_tcase(s, stress);
    return s;
}

int main(void)
{
    return tu_run_suite(topology_suite());
}
