/*
 * scc.c -- the SCC's non-coherent memory: private caches, message-passing
 * buffers, write-combining buffers, test-and-set registers (see scc.h).
 *
 * A core serves its requests one at a time. A request runs through phases:
 * the write-combining buffer drains if the request is not a store to its
 * line; then the request goes by the line's kind (private, MPB, register),
 * hitting a copy or sending one packet and waiting for its answer. Every
 * delay is a clock, an occupancy or a mesh crossing; nothing is a formula.
 */
#include "scc.h"

#include "backend.h"

#include <stdlib.h>
#include <string.h>

/* The messages: X(name, carries a line). */
#define SCC_MSGS(X)                                                                                \
    X(RD_MPB, false)                                                                               \
    X(WR_MPB, true)                                                                                \
    X(RD_MEM, false)                                                                               \
    X(WR_MEM, true)                                                                                \
    X(TAS, false)                                                                                  \
    X(DATA, true)                                                                                  \
    X(ACK, false)

#define SCC_ENUM(name, data) SM_##name,
enum scc_msg_type { SCC_MSGS(SCC_ENUM) SM_COUNT };
#undef SCC_ENUM
#define SCC_NAME(name, data) #name,
static const char *const scc_msg_names[SM_COUNT] = {SCC_MSGS(SCC_NAME)};
#undef SCC_NAME

#define DIRECT 0x80000000u /* flags: a local access that skipped the mesh */

/* A set-associative store of lines, LRU. */
struct scc_way {
    uint64_t line;
    uint64_t lru;
    bool valid, dirty;
};

#define SCC_FILLED_MAX 16

struct scc_store {
    unsigned sets, ways, line_bytes; /* line_bytes 0: tags only */
    struct scc_way *w;
    uint8_t *data; /* NULL: tags only */
    uint64_t tick;
    /* the ways filled since store_drop_all, so that a drop (invmb, at every
     * poll of an MPB flag) clears those and not the whole store; nfilled >
     * SCC_FILLED_MAX: too many to list, the drop clears every way */
    unsigned nfilled;
    unsigned filled[SCC_FILLED_MAX];
};

/* The write-combining buffer: one line, the words written so far. */
struct scc_wcb {
    bool valid;
    uint64_t line;
    uint32_t mask; /* words written */
    uint8_t data[SIM_MAX_LINE_BYTES];
};

/* X(phase, what the core waits for) */
#define SCC_PHASES(X)                                                                              \
    X(START, "nothing yet")                                                                        \
    X(WCB_ACK, "its write-combining buffer's write to be acknowledged")                            \
    X(POSTED, "its posted writes to memory to be acknowledged")                                    \
    X(READ, "the line's data")                                                                     \
    X(STORE_ACK, "the write of its full buffer to be acknowledged")                                \
    X(TAS, "the test-and-set register's answer")
#define SCC_PHASE_ENUM(name, doc) P_##name,
enum scc_phase { SCC_PHASES(SCC_PHASE_ENUM) };
#undef SCC_PHASE_ENUM
#define SCC_PHASE_DOC(name, doc) doc,
static const char *const scc_phase_docs[] = {SCC_PHASES(SCC_PHASE_DOC)};
#undef SCC_PHASE_DOC

struct scc;
struct scc_core {
    struct scc *sys;
    int id;
    int mc;   /* its first-touch memory controller */
    int tile; /* home index of its MPB */
    struct scc_store priv, l1, mpbc;
    struct scc_wcb wcb;
    struct cc_req *q, *q_tail; /* q is in service when busy */
    bool busy;
    enum scc_phase phase;
    /* writes to memory not yet acknowledged (its write buffer), oldest
     * first: the packets themselves, for what the core itself would read */
    struct sim_msg **posted;
    int nposted, cap_posted;
};

/* A server: an MPB, a register file or a memory controller. */
struct scc_server {
    sim_time_t busy_until;
    uint64_t accesses;
    sim_time_t queue_ps;
};

struct scc {
    struct sim_kernel *k;
    struct net *net;
    struct cc_params p;
    unsigned words;
    unsigned mpb_lines;        /* MPB lines per core */
    unsigned miu_cycles;       /* a miss turned into a mesh packet and back */
    unsigned mpb_cycles;       /* an MPB SRAM access at its tile */
    unsigned tas_cycles;       /* a test-and-set register access at its tile */
    bool local_mpb_via_router; /* the bug workaround: own MPB through the router */
    struct scc_core *cores;
    struct scc_server *tiles, *mcs;
    uint8_t *mpb;        /* cores * mpb_lines * line_bytes */
    uint64_t *tas;       /* per core */
    struct sim_map mem;  /* private line -> bytes (absent: zeros) */
    struct sim_map busy; /* line -> 1 + requests and messages under way */
    uint64_t active;     /* requests in service */
    struct sim_msg_pool msgs;
    struct cc_stats stats;
    uint64_t sent[SM_COUNT];
    cc_observer_fn observer; /* explain, timelines */
    void *observer_ctx;
};

static const uint8_t zero_line[SIM_MAX_LINE_BYTES];

static struct scc *scc_of(const struct cc_system *sys)
{
    return cc_backend_state(sys);
}

/* ------------------------------------------------------------ narration */

/* What a copy's state letter means, for the narration's legend (NULL: a
 * server's "-", no state). */
static const char *copy_doc(const char *state)
{
    switch (state[0]) {
    case 'I':
        return "no copy in the core's L1";
    case 'S':
        return "a clean copy in the core's L1 (no other core's stores reach it)";
    case 'M':
        return "a copy in the core's L1 with writes memory has not yet";
    default:
        return NULL;
    }
}

/* Step st to the observer, its common fields filled: the message that
 * raised it (NULL: none), what was done, the glosses of its states. The
 * caller gives who (home, node), the line, the event, the copy's state
 * before and after ("I" none, "S" a clean copy, "M" a dirty one; servers:
 * "-"), and where it has them the request and the line's bytes. */
static void emit(struct scc *s, struct cc_step *st, const struct sim_msg *m, const char *did)
{
    st->time = sim_now(s->k);
    st->event_doc = st->event;
    st->from_doc = copy_doc(st->from);
    st->to_doc = copy_doc(st->to);
    st->msg_src = m ? m->src : -1;
    if (m) { /* the message that drove it, for timelines' arrows */
        st->msg_type = scc_msg_names[m->type];
        st->msg_sent = m->sent;
        st->msg_first = true;
    }
    st->actions[0] = st->action_docs[0] = did;
    st->line_bytes = s->p.line_bytes;
    s->observer(s->observer_ctx, st);
}

/* One step for the observer: at a core's cache or a server (home). */
static void step(struct scc *s, bool home, int node, uint64_t line, const struct sim_msg *m,
                 const char *event, const char *from, const char *to, const char *did)
{
    if (!s->observer)
        return;
    struct cc_step st = {.home = home,
                         .node = node,
                         .line = line,
                         .event = event,
                         .from = from,
                         .to = to,
                         .requester = -1,
                         .owner = -1};
    emit(s, &st, m, did);
}

static const char *copy_state(const struct scc_way *w)
{
    return !w ? "I" : w->dirty ? "M" : "S";
}

/* ------------------------------------------------------------ lines */

static enum cc_line_kind kind_of(const struct scc *s, uint64_t line)
{
    (void)s;
    if (line >= SCC_TAS_BASE)
        return CC_LINE_TAS;
    return line >= SCC_MPB_BASE ? CC_LINE_MPB : CC_LINE_MEMORY;
}

/* The memory controller (its "socket") that holds a memory line. */
static int line_socket(const struct scc *s, uint64_t line)
{
    if (kind_of(s, line) != CC_LINE_MEMORY)
        return 0;
    return (int)(line % (uint64_t)s->p.mcs);
}

static int mpb_owner(const struct scc *s, uint64_t line)
{
    return (int)((line - SCC_MPB_BASE) / s->mpb_lines);
}

static uint8_t *mpb_bytes(const struct scc *s, uint64_t line)
{
    return s->mpb + (line - SCC_MPB_BASE) * s->p.line_bytes;
}

/* The home index (tile) of core c's MPB and register. */
static int tile_of_core(const struct scc *s, int c)
{
    return (int)((int64_t)c * s->p.homes / s->p.cores);
}

static int tile_node(const struct scc *s, int tile)
{
    return s->p.first_home_node + tile;
}

static int mc_node(const struct scc *s, int mc)
{
    return s->p.first_home_node + s->p.homes + mc;
}

static const uint8_t *mem_bytes(const struct scc *s, uint64_t line)
{
    const uint8_t *b = sim_map_get(&s->mem, line);
    return b ? b : zero_line;
}

static uint8_t *mem_bytes_rw(struct scc *s, uint64_t line)
{
    uint8_t *b = sim_map_get(&s->mem, line);
    if (!b) {
        b = sim_xcalloc(1, s->p.line_bytes);
        sim_map_put(&s->mem, line, b);
    }
    return b;
}

static void busy_add(struct scc *s, uint64_t line, int d)
{
    void **slot = sim_map_slot(&s->busy, line);
    uintptr_t v = *slot ? (uintptr_t)*slot : 1;
    SIM_ASSERT(d > 0 || v > 1);
    *slot = (void *)(v + (uintptr_t)(intptr_t)d);
}

/* ------------------------------------------------------------ stores */

static void store_init(struct scc_store *st, unsigned sets, unsigned ways, unsigned line_bytes)
{
    st->sets = sets;
    st->ways = ways;
    st->line_bytes = line_bytes;
    /* the kernel's zero pages (sim_xzeroed): a run touches few of a
     * core's 256 KB of L2 data, 12 MB over 48 cores */
    st->w = sim_xzeroed((size_t)sets * ways, sizeof *st->w);
    if (line_bytes)
        st->data = sim_xzeroed((size_t)sets * ways, line_bytes);
}

static void store_free(struct scc_store *st)
{
    sim_free_zeroed(st->w, (size_t)st->sets * st->ways, sizeof *st->w);
    sim_free_zeroed(st->data, (size_t)st->sets * st->ways, st->line_bytes);
}

static struct scc_way *store_find(struct scc_store *st, uint64_t line)
{
    struct scc_way *set = &st->w[(size_t)(line & (st->sets - 1)) * st->ways];
    for (unsigned i = 0; i < st->ways; i++)
        if (set[i].valid && set[i].line == line) {
            set[i].lru = ++st->tick;
            return &set[i];
        }
    return NULL;
}

static const struct scc_way *store_peek(const struct scc_store *st, uint64_t line)
{
    const struct scc_way *set = &st->w[(size_t)(line & (st->sets - 1)) * st->ways];
    for (unsigned i = 0; i < st->ways; i++)
        if (set[i].valid && set[i].line == line)
            return &set[i];
    return NULL;
}

static uint8_t *way_data(const struct scc_store *st, const struct scc_way *w, unsigned line_bytes)
{
    return st->data + (size_t)(w - st->w) * line_bytes;
}

/* A way for line: a free one, else the LRU one, whose old content is
 * returned in *victim (valid if it held a line). */
/* The way a line takes in its set: the first free one, else the LRU one. */
static struct scc_way *store_way_for(const struct scc_store *st, uint64_t line)
{
    struct scc_way *set = &st->w[(size_t)(line & (st->sets - 1)) * st->ways], *v = &set[0];
    for (unsigned i = 0; i < st->ways; i++) {
        if (!set[i].valid)
            return &set[i];
        if (set[i].lru < v->lru)
            v = &set[i];
    }
    return v;
}

static struct scc_way *store_take(struct scc_store *st, uint64_t line, struct scc_way *victim)
{
    struct scc_way *v = store_way_for(st, line);
    *victim = *v;
    *v = (struct scc_way){.line = line, .lru = ++st->tick, .valid = true};
    if (st->nfilled < SCC_FILLED_MAX)
        st->filled[st->nfilled] = (unsigned)(v - st->w);
    if (st->nfilled <= SCC_FILLED_MAX)
        st->nfilled++;
    return v;
}

/* Invalidates every way (a way is valid only if filled since the last drop). */
static void store_drop_all(struct scc_store *st)
{
    if (st->nfilled > SCC_FILLED_MAX)
        for (size_t i = 0; i < (size_t)st->sets * st->ways; i++)
            st->w[i].valid = false;
    else
        for (unsigned i = 0; i < st->nfilled; i++)
            st->w[st->filled[i]].valid = false;
    st->nfilled = 0;
}

/* ------------------------------------------------------------ messages */

static struct sim_msg *new_msg(struct scc *s, int type, int src, int dst, uint64_t line)
{
    struct sim_msg *m = sim_msg_new(&s->msgs);
    m->type = type;
    m->src = src;
    m->dst = dst;
    m->line = line;
    m->requester = src;
    m->flags = 0;
    m->has_data = false;
    m->vnet = SIM_VNET_REQ;
    m->bytes = s->p.ctrl_bytes;
    return m;
}

static void with_data(struct scc *s, struct sim_msg *m, const uint8_t *data)
{
    m->has_data = true;
    m->vnet = SIM_VNET_DATA;
    m->bytes = s->p.data_bytes;
    memcpy(m->data, data, s->p.line_bytes);
}

static void core_deliver(struct sim_kernel *k, void *node, struct sim_msg *m);

/* Sends m over the mesh, or hands it over directly (a local access that
 * skips the mesh). */
static void send(struct scc *s, struct sim_msg *m)
{
    s->sent[m->type]++;
    m->sent = sim_now(s->k);
    if (m->flags & DIRECT) {
        s->net->deliver[m->dst](s->k, s->net->node[m->dst], m);
        return;
    }
    net_send(s->net, m);
}

/* ------------------------------------------------------------ servers */

/* The server takes m at the first moment it is free; returns when the
 * access starts. */
static sim_time_t serve(struct scc_server *sv, sim_time_t now, sim_time_t occupy)
{
    sim_time_t start = now > sv->busy_until ? now : sv->busy_until;
    sv->queue_ps += start - now;
    sv->busy_until = start + occupy;
    sv->accesses++;
    return start;
}

/* The answer goes back to the requester the way the request came. */
static void answer(struct scc *s, struct sim_msg *m, int type)
{
    int from = m->dst;
    m->dst = m->src;
    m->src = from;
    m->type = type;
    if (type == SM_ACK) {
        m->has_data = false;
        m->vnet = SIM_VNET_ACK;
        m->bytes = s->p.ctrl_bytes;
    } else {
        m->has_data = true;
        m->vnet = SIM_VNET_DATA;
        m->bytes = s->p.data_bytes;
    }
    send(s, m);
}

/* Writes the masked words of data into dst. */
static void write_masked(struct scc *s, uint8_t *dst, const uint8_t *data, uint32_t mask)
{
    for (unsigned w = 0; w < s->words; w++)
        if (mask & (1u << w))
            memcpy(dst + 8 * w, data + 8 * w, 8);
}

/* A core's step for its request r (the narration names its thread). */
static void step_req(struct scc *s, int node, const struct cc_req *r, const char *event,
                     const char *from, const char *to, const char *did)
{
    if (!s->observer)
        return;
    struct cc_step st = {.node = node,
                         .line = r->line,
                         .event = event,
                         .from = from,
                         .to = to,
                         .req = r,
                         .requester = -1,
                         .owner = -1};
    emit(s, &st, NULL, did);
}

/* A server's step that changed the line's bytes (before, after): the
 * narration names the words it changed. */
static void step_bytes(struct scc *s, const struct sim_msg *m, const char *event, const char *did,
                       const uint8_t *before, const uint8_t *after)
{
    if (!s->observer)
        return;
    struct cc_step st = {.home = true,
                         .node = m->dst,
                         .line = m->line,
                         .event = event,
                         .from = "-",
                         .to = "-",
                         .requester = -1,
                         .owner = -1,
                         .data_before = before,
                         .data_after = after};
    emit(s, &st, m, did);
}

/* A write of m's words into `bytes` at a server, narrated with the words
 * it changed. */
static void server_write(struct scc *s, const struct sim_msg *m, uint8_t *bytes, const char *event,
                         const char *did)
{
    if (!s->observer) {
        write_masked(s, bytes, m->data, (uint32_t)m->acks);
        return;
    }
    uint8_t before[SIM_MAX_LINE_BYTES];
    memcpy(before, bytes, s->p.line_bytes);
    write_masked(s, bytes, m->data, (uint32_t)m->acks);
    step_bytes(s, m, event, did, before, bytes);
}

/* An MPB or register access, at its end: do it and answer. */
static void tile_access_done(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct scc *s = obj;
    struct sim_msg *m = (struct sim_msg *)(uintptr_t)arg;
    (void)k;
    if (m->type == SM_RD_MPB) {
        step(s, true, m->dst, m->line, m, "an MPB read", "-", "-",
             "read the SRAM, send the line back");
        memcpy(m->data, mpb_bytes(s, m->line), s->p.line_bytes);
        answer(s, m, SM_DATA);
        return;
    }
    if (m->type == SM_WR_MPB) {
        server_write(s, m, mpb_bytes(s, m->line), "an MPB write",
                     "write the words into the SRAM, acknowledge");
        answer(s, m, SM_ACK);
        return;
    }
    SIM_ASSERT(m->type == SM_TAS);
    uint64_t *reg = &s->tas[m->line - SCC_TAS_BASE];
    uint64_t old = *reg;
    *reg = m->has_data ? cc_word_get(m->data, 0) : 1; /* a write sets, a read tests and sets */
    if (s->observer) { /* the register as a line: word 0 before and after */
        uint8_t before[SIM_MAX_LINE_BYTES] = {0}, after[SIM_MAX_LINE_BYTES] = {0};
        cc_word_set(before, 0, old);
        cc_word_set(after, 0, *reg);
        step_bytes(s, m,
                   m->has_data ? "a test-and-set register write" : "a test-and-set register read",
                   m->has_data ? "set the register, answer"
                               : "answer the old value, set the register to 1",
                   before, after);
    }
    memset(m->data, 0, s->p.line_bytes);
    cc_word_set(m->data, 0, old);
    answer(s, m, SM_DATA);
}

/* A memory controller's access, at its end. */
static void mem_access_done(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct scc *s = obj;
    struct sim_msg *m = (struct sim_msg *)(uintptr_t)arg;
    (void)k;
    if (m->type == SM_RD_MEM) {
        step(s, true, m->dst, m->line, m, "a memory read", "-", "-",
             "read DRAM, send the line back");
        memcpy(m->data, mem_bytes(s, m->line), s->p.line_bytes);
        s->stats.memory_reads++;
        answer(s, m, SM_DATA);
        return;
    }
    SIM_ASSERT(m->type == SM_WR_MEM);
    server_write(s, m, mem_bytes_rw(s, m->line), "a memory write",
                 "write the words into DRAM, acknowledge");
    answer(s, m, SM_ACK);
}

/* Tiles (MPB and registers) and memory controllers: one server each. A
 * tile serves an access in mpb_cycles (tas_cycles for a register); a
 * controller takes a line per bandwidth slot and answers after latency. */
static void server_deliver(struct sim_kernel *k, void *node, struct sim_msg *m)
{
    struct scc *s = node;
    int idx = m->dst - s->p.first_home_node;
    sim_time_t now = sim_now(k);
    if (idx < s->p.homes) {
        unsigned cyc = m->type == SM_TAS ? s->tas_cycles : s->mpb_cycles;
        SIM_ASSERT(m->type == SM_TAS || m->type == SM_RD_MPB || m->type == SM_WR_MPB);
        sim_time_t occupy = (sim_time_t)cyc * s->p.clock.period_ps;
        sim_time_t start = serve(&s->tiles[idx], sim_clock_edge(s->p.clock, now), occupy);
        sim_schedule_at(k, start + occupy, tile_access_done, s, (uint64_t)(uintptr_t)m);
        return;
    }
    idx -= s->p.homes;
    SIM_ASSERT(idx >= 0 && idx < s->p.mcs && (m->type == SM_RD_MEM || m->type == SM_WR_MEM));
    sim_time_t start = serve(&s->mcs[idx], now, s->p.memory_occupancy_ps);
    sim_schedule_at(k, start + s->p.memory_ps, mem_access_done, s, (uint64_t)(uintptr_t)m);
}

/* ------------------------------------------------------------ the core */

static sim_time_t after_cycles(const struct scc *s, uint64_t n)
{
    return sim_clock_after(s->p.clock, sim_now(s->k), n);
}

/* The core's mesh interface: m leaves miu_cycles from now. */
static void miu_send_at(struct sim_kernel *k, void *obj, uint64_t arg)
{
    (void)k;
    send(obj, (struct sim_msg *)(uintptr_t)arg);
}

static void via_miu(struct scc *s, struct sim_msg *m)
{
    sim_schedule_at(s->k, after_cycles(s, s->miu_cycles), miu_send_at, s, (uint64_t)(uintptr_t)m);
}

static void start_request(struct scc *s, struct scc_core *c);

static void request_done(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct scc_core *c = obj;
    struct scc *s = c->sys;
    (void)arg;
    struct cc_req *r = c->q;
    c->q = r->next;
    if (!c->q)
        c->q_tail = NULL;
    c->busy = false;
    s->active--;
    busy_add(s, r->line, -1);
    r->done(k, r);
    if (!c->busy && c->q)
        start_request(s, c);
}

static void finish_after(struct scc *s, struct scc_core *c, unsigned n)
{
    sim_schedule_at(s->k, after_cycles(s, n), request_done, c, 0);
}

static bool is_store(enum cc_op op)
{
    return op == CC_STORE || op == CC_STORE_LINE;
}

static uint32_t full_mask(const struct scc *s)
{
    return s->words >= 32 ? 0xffffffffu : (1u << s->words) - 1;
}

/* The words r writes (none for reads). */
static uint32_t written_mask(const struct scc *s, const struct cc_req *r)
{
    switch (r->op) {
    case CC_STORE_LINE:
    case CC_ADD_LINE:
        return full_mask(s);
    case CC_STORE:
    case CC_ADD:
    case CC_CAS:
    case CC_XCHG:
        return 1u << r->word;
    default:
        return 0;
    }
}

static bool mpb_direct(const struct scc *s, const struct scc_core *c, uint64_t line)
{
    return !s->local_mpb_via_router && tile_of_core(s, mpb_owner(s, line)) == c->tile;
}

/* An MPB line's request packet from core c (through the MIU, or directly). */
static void send_to_mpb(struct scc *s, struct scc_core *c, struct sim_msg *m)
{
    busy_add(s, m->line, 1);
    if (mpb_direct(s, c, m->line)) {
        m->flags |= DIRECT;
        send(s, m);
        return;
    }
    via_miu(s, m);
}

/* The write-combining buffer leaves for its MPB; the core waits for the
 * acknowledgement in phase `then`. */
static void drain_wcb(struct scc *s, struct scc_core *c, enum scc_phase then)
{
    uint64_t line = c->wcb.line;
    step(s, false, c->id, line, NULL, "the write-combining buffer must leave", "-", "-",
         "send its words to the line's MPB, wait for the acknowledgement");
    int tile = tile_of_core(s, mpb_owner(s, line));
    struct sim_msg *m = new_msg(s, SM_WR_MPB, c->id, tile_node(s, tile), line);
    with_data(s, m, c->wcb.data);
    m->acks = (int32_t)c->wcb.mask;
    c->wcb.valid = false;
    c->phase = then;
    send_to_mpb(s, c, m);
}

/* Merges r's written words (already done on buf) into the buffer; true if
 * the line is now full and leaves. */
static bool merge_wcb(struct scc *s, struct scc_core *c, const struct cc_req *r,
                      const uint8_t *line_bytes)
{
    struct scc_wcb *b = &c->wcb;
    if (!b->valid) {
        b->valid = true;
        b->line = r->line;
        b->mask = 0;
    }
    SIM_ASSERT(b->line == r->line);
    uint32_t mask = written_mask(s, r);
    write_masked(s, b->data, line_bytes, mask);
    b->mask |= mask;
    return b->mask == full_mask(s);
}

/* ---- private lines */

/* The L1 tag filter: true if line was in the L1 (then an L1 hit). */
static bool l1_touch(struct scc_core *c, uint64_t line)
{
    if (store_find(&c->l1, line))
        return true;
    struct scc_way victim;
    store_take(&c->l1, line, &victim);
    return false;
}

/* A posted write: the core goes on; its next read miss waits for the
 * acknowledgement (the P54C's write buffer drains before a read goes out). */
static void write_to_memory(struct scc *s, struct scc_core *c, uint64_t line, const uint8_t *data,
                            uint32_t mask)
{
    struct sim_msg *m = new_msg(s, SM_WR_MEM, c->id, mc_node(s, line_socket(s, line)), line);
    with_data(s, m, data);
    m->acks = (int32_t)mask;
    busy_add(s, line, 1);
    if (c->nposted == c->cap_posted) {
        c->cap_posted = c->cap_posted ? 2 * c->cap_posted : 8;
        c->posted = sim_xrealloc(c->posted, (size_t)c->cap_posted * sizeof *c->posted);
    }
    c->posted[c->nposted++] = m;
    via_miu(s, m);
}

/* The acknowledgement of posted write m: it leaves the core's list. */
static void posted_done(struct scc_core *c, const struct sim_msg *m)
{
    int i = 0;
    while (i < c->nposted && c->posted[i] != m)
        i++;
    SIM_ASSERT(i < c->nposted);
    memmove(&c->posted[i], &c->posted[i + 1], (size_t)(c->nposted - i - 1) * sizeof *c->posted);
    c->nposted--;
}

static void fill_private(struct scc *s, struct scc_core *c, uint64_t line, const uint8_t *data)
{
    struct scc_way victim;
    struct scc_way *w = store_take(&c->priv, line, &victim);
    uint8_t *d = way_data(&c->priv, w, s->p.line_bytes);
    if (victim.valid && victim.dirty) {
        s->stats.writebacks++;
        write_to_memory(s, c, victim.line, d, full_mask(s));
    }
    memcpy(d, data, s->p.line_bytes);
    l1_touch(c, line);
}

static void read_memory(struct scc *s, struct scc_core *c, struct cc_req *r)
{
    struct sim_msg *m = new_msg(s, SM_RD_MEM, c->id, mc_node(s, line_socket(s, r->line)), r->line);
    c->phase = P_READ;
    busy_add(s, r->line, 1);
    via_miu(s, m);
}

static void private_request(struct scc *s, struct scc_core *c, struct cc_req *r)
{
    struct scc_way *w = store_find(&c->priv, r->line);
    if (r->op == CC_FLUSH) {
        if (w && w->dirty) {
            s->stats.writebacks++;
            write_to_memory(s, c, r->line, way_data(&c->priv, w, s->p.line_bytes), full_mask(s));
        }
        if (w)
            w->valid = false;
        if (c->nposted) { /* a fence too: done when its writes are in memory */
            c->phase = P_POSTED;
            return;
        }
        finish_after(s, c, s->p.l1_cycles ? s->p.l1_cycles : 1);
        return;
    }
    if (w) {
        s->stats.hits++;
        unsigned n = l1_touch(c, r->line) && s->p.l1_cycles ? s->p.l1_cycles : s->p.hit_cycles;
        cc_op_apply(r, way_data(&c->priv, w, s->p.line_bytes), s->p.line_bytes);
        w->dirty |= written_mask(s, r) != 0;
        finish_after(s, c, n);
        return;
    }
    r->missed = true;
    s->stats.misses++;
    if (is_store(r->op)) { /* no write-allocate: the store goes to memory */
        uint8_t buf[SIM_MAX_LINE_BYTES] = {0};
        cc_op_apply(r, buf, s->p.line_bytes);
        write_to_memory(s, c, r->line, buf, written_mask(s, r));
        finish_after(s, c, s->miu_cycles);
        return;
    }
    if (c->nposted) {
        c->phase = P_POSTED;
        return;
    }
    read_memory(s, c, r);
}

/* ---- MPB lines */

static void mpb_request(struct scc *s, struct scc_core *c, struct cc_req *r)
{
    struct scc_way *w = store_find(&c->mpbc, r->line);
    if (r->op == CC_FLUSH) { /* the buffer has drained already */
        if (w)
            w->valid = false;
        finish_after(s, c, 1);
        return;
    }
    if (is_store(r->op)) {
        uint8_t buf[SIM_MAX_LINE_BYTES];
        memcpy(buf, c->wcb.valid ? c->wcb.data : zero_line, s->p.line_bytes);
        cc_op_apply(r, buf, s->p.line_bytes);
        if (w) /* the L1 copy follows its own core's stores */
            cc_op_apply(r, way_data(&c->mpbc, w, s->p.line_bytes), s->p.line_bytes);
        if (merge_wcb(s, c, r, buf)) {
            drain_wcb(s, c, P_STORE_ACK);
            return;
        }
        finish_after(s, c, s->p.l1_cycles ? s->p.l1_cycles : 1);
        return;
    }
    if (w) { /* a read, or the read of a read-modify-write, hits the L1 copy */
        s->stats.hits++;
        uint8_t *d = way_data(&c->mpbc, w, s->p.line_bytes);
        cc_op_apply(r, d, s->p.line_bytes);
        if (written_mask(s, r) && merge_wcb(s, c, r, d)) {
            drain_wcb(s, c, P_STORE_ACK);
            return;
        }
        finish_after(s, c, s->p.l1_cycles ? s->p.l1_cycles : 1);
        return;
    }
    r->missed = true;
    s->stats.misses++;
    int tile = tile_of_core(s, mpb_owner(s, r->line));
    struct sim_msg *m = new_msg(s, SM_RD_MPB, c->id, tile_node(s, tile), r->line);
    c->phase = P_READ;
    send_to_mpb(s, c, m);
}

/* ---- registers */

static void tas_request(struct scc *s, struct scc_core *c, struct cc_req *r)
{
    int owner = (int)(r->line - SCC_TAS_BASE);
    struct sim_msg *m = new_msg(s, SM_TAS, c->id, tile_node(s, tile_of_core(s, owner)), r->line);
    if (r->op == CC_STORE) {
        uint8_t buf[SIM_MAX_LINE_BYTES] = {0};
        cc_word_set(buf, 0, r->value);
        with_data(s, m, buf);
    }
    c->phase = P_TAS;
    busy_add(s, r->line, 1);
    via_miu(s, m); /* registers are reached through the mesh, always */
}

/* ---- phases */

/* What a flush does with the copy w (NULL: none) it finds. */
static const char *flush_text(const struct scc_core *c, enum cc_line_kind kind,
                              const struct scc_way *w)
{
    if (kind == CC_LINE_MPB)
        return w ? "drop the L1 copy" : "no L1 copy to drop";
    if (w && w->dirty)
        return "write the copy back (dirty), drop it; wait for the posted writes";
    if (w)
        return c->nposted ? "drop the copy (clean); wait for the posted writes"
                          : "drop the copy (clean)";
    return c->nposted ? "no copy to drop; wait for the posted writes" : "no copy to drop";
}

/* What a request does with the copy it finds, for the narration. */
static void narrate_request(struct scc *s, struct scc_core *c, const struct cc_req *r)
{
    if (!s->observer)
        return;
    enum cc_line_kind kind = kind_of(s, r->line);
    const struct scc_way *w = kind == CC_LINE_MPB      ? store_peek(&c->mpbc, r->line)
                              : kind == CC_LINE_MEMORY ? store_peek(&c->priv, r->line)
                                                       : NULL;
    bool rmw = kind != CC_LINE_TAS && (r->op == CC_ADD || r->op == CC_CAS || r->op == CC_XCHG);
    const char *ev = r->op == CC_FLUSH ? "the core flushes"
                     : rmw ? "the core reads and writes (not atomic across cores: on the SCC "
                             "only the test-and-set registers are)"
                     : written_mask(s, r) == 0 ? "the core reads"
                                               : "the core writes";
    const char *did, *to = copy_state(w);
    if (kind == CC_LINE_TAS)
        did = "ask the test-and-set register over the mesh (never cached)";
    else if (r->op == CC_FLUSH)
        did = flush_text(c, kind, w), to = "I";
    else if (kind == CC_LINE_MPB && is_store(r->op))
        did = w ? "merge the words into the write-combining buffer and the L1 copy"
                : "merge the words into the write-combining buffer (no L1 copy)";
    else if (w)
        did = "use the copy", to = written_mask(s, r) && kind == CC_LINE_MEMORY ? "M" : to;
    else if (kind == CC_LINE_MPB)
        did = "no copy: ask the line's MPB over the mesh";
    else if (is_store(r->op))
        did = "no copy: write to memory, posted (no write-allocate)";
    else
        did = "no copy: ask the memory controller over the mesh";
    step_req(s, c->id, r, ev, copy_state(w), to, did);
}

static void start_request(struct scc *s, struct scc_core *c)
{
    struct cc_req *r = c->q;
    c->busy = true;
    c->phase = P_START;
    if (c->wcb.valid && !(is_store(r->op) && c->wcb.line == r->line)) {
        drain_wcb(s, c, P_WCB_ACK);
        return;
    }
    narrate_request(s, c, r);
    switch (kind_of(s, r->line)) {
    case CC_LINE_MEMORY:
        private_request(s, c, r);
        return;
    case CC_LINE_MPB:
        mpb_request(s, c, r);
        return;
    case CC_LINE_TAS:
        tas_request(s, c, r);
        return;
    }
}

/* An answer reached core c. */
/* An answer that changes no copy (an acknowledgement, the test-and-set
 * register's word): a step of its own, so that every message has its
 * arrival (timelines draw each as an arrow). A line's data is the fill's
 * step. */
static void narrate_answer(struct scc *s, const struct scc_core *c, const struct sim_msg *m)
{
    if (m->type == SM_ACK)
        step(s, false, c->id, m->line, m, "the write is acknowledged", "-", "-",
             kind_of(s, m->line) == CC_LINE_MEMORY ? "a posted write to memory is done"
                                                   : "the write is done");
    else if (c->busy && c->phase == P_TAS)
        step(s, false, c->id, m->line, m, "the test-and-set register answered", "-", "-",
             "take the word it held");
}

static void core_deliver(struct sim_kernel *k, void *node, struct sim_msg *m)
{
    struct scc_core *c = node;
    struct scc *s = c->sys;
    struct cc_req *r = c->q;
    (void)k;
    busy_add(s, m->line, -1); /* every packet a core sends is answered */
    narrate_answer(s, c, m);
    if (m->type == SM_ACK && kind_of(s, m->line) == CC_LINE_MEMORY) {
        posted_done(c, m);
        sim_msg_free(&s->msgs, m);
        if (c->nposted == 0 && c->busy && c->phase == P_POSTED) {
            if (r->op == CC_FLUSH)
                finish_after(s, c, 0);
            else
                read_memory(s, c, r);
        }
        return;
    }
    SIM_ASSERT(c->busy && r != NULL);
    switch (c->phase) {
    case P_WCB_ACK: /* the buffer drained: now the request itself */
        SIM_ASSERT(m->type == SM_ACK);
        sim_msg_free(&s->msgs, m);
        c->busy = false;
        start_request(s, c);
        return;
    case P_STORE_ACK:
        SIM_ASSERT(m->type == SM_ACK);
        sim_msg_free(&s->msgs, m);
        finish_after(s, c, 0);
        return;
    case P_TAS:
        SIM_ASSERT(m->type == SM_DATA);
        r->result = cc_word_get(m->data, 0);
        sim_msg_free(&s->msgs, m);
        finish_after(s, c, 0);
        return;
    case P_READ:
        break;
    case P_START:
    case P_POSTED:
        sim_panic("scc: core %d got %s while starting", c->id, scc_msg_names[m->type]);
    }
    SIM_ASSERT(m->type == SM_DATA && m->line == r->line);
    step(s, false, c->id, r->line, m, "the data arrived", "I",
         written_mask(s, r) && kind_of(s, r->line) == CC_LINE_MEMORY ? "M" : "S",
         kind_of(s, r->line) == CC_LINE_MPB ? "fill the L1 copy (MPB lines live in the L1 only)"
                                            : "fill the copy, do the operation");
    uint8_t *d;
    if (kind_of(s, r->line) == CC_LINE_MPB) {
        struct scc_way victim;
        struct scc_way *w = store_take(&c->mpbc, r->line, &victim);
        d = way_data(&c->mpbc, w, s->p.line_bytes);
        memcpy(d, m->data, s->p.line_bytes);
    } else {
        fill_private(s, c, r->line, m->data);
        struct scc_way *w = store_find(&c->priv, r->line);
        d = way_data(&c->priv, w, s->p.line_bytes);
    }
    sim_msg_free(&s->msgs, m);
    cc_op_apply(r, d, s->p.line_bytes);
    uint32_t wm = written_mask(s, r);
    if (wm && kind_of(s, r->line) == CC_LINE_MEMORY)
        store_find(&c->priv, r->line)->dirty = true;
    if (wm && kind_of(s, r->line) == CC_LINE_MPB && merge_wcb(s, c, r, d)) {
        drain_wcb(s, c, P_STORE_ACK);
        return;
    }
    finish_after(s, c, 0);
}

static void scc_access(struct cc_system *sys, struct cc_req *r)
{
    struct scc *s = scc_of(sys);
    SIM_ASSERT(r->core >= 0 && r->core < s->p.cores);
    SIM_ASSERT(r->word < s->words);
    if (r->op == CC_LOAD || r->op == CC_LOAD_LINE)
        s->stats.loads++;
    else if (r->op == CC_ADD || r->op == CC_CAS || r->op == CC_XCHG)
        s->stats.atomics++;
    else
        s->stats.stores++;
    r->missed = r->from_writer = false;
    r->next = NULL;
    struct scc_core *c = &s->cores[r->core];
    if (c->q_tail)
        c->q_tail->next = r;
    else
        c->q = r;
    c->q_tail = r;
    s->active++;
    busy_add(s, r->line, 1);
    if (!c->busy)
        start_request(s, c);
}

/* ------------------------------------------------------------ queries */

static bool line_idle(const struct scc *s, uint64_t line)
{
    return (uintptr_t)sim_map_get(&s->busy, line) <= 1;
}

static bool scc_quiet(const struct cc_system *sys)
{
    const struct scc *s = scc_of(sys);
    return !s->msgs.in_use && !s->active;
}

static int scc_core_memory_node(const struct cc_system *sys, int core)
{
    const struct scc *s = scc_of(sys);
    return s->cores[core].mc;
}

/* The memory's (or MPB's, or register's) value of a line. */
static const uint8_t *backing(const struct scc *s, uint64_t line, uint8_t *tmp)
{
    switch (kind_of(s, line)) {
    case CC_LINE_MPB:
        return mpb_bytes(s, line);
    case CC_LINE_TAS:
        memset(tmp, 0, s->p.line_bytes);
        cc_word_set(tmp, 0, s->tas[line - SCC_TAS_BASE]);
        return tmp;
    case CC_LINE_MEMORY:
        break;
    }
    return mem_bytes(s, line);
}

static uint64_t memory_word(const struct scc *s, uint64_t line, unsigned word)
{
    uint8_t tmp[SIM_MAX_LINE_BYTES];
    return cc_word_get(backing(s, line, tmp), word);
}

/* The word core would read now, and where it comes from: its
 * write-combining buffer, its copy (the words a drained buffer sent on
 * are its own write until acknowledged), its posted writes, else memory
 * or the MPB. */
static enum cc_word_source word_seen(const struct scc *s, const struct scc_core *c, uint64_t line,
                                     unsigned word, uint64_t *v)
{
    bool in_wcb = c->wcb.line == line && (c->wcb.mask & (1u << word));
    if (c->wcb.valid && in_wcb) {
        *v = cc_word_get(c->wcb.data, word);
        return CC_WORD_OWN_WRITE;
    }
    const struct scc_store *st = kind_of(s, line) == CC_LINE_MPB ? &c->mpbc : &c->priv;
    const struct scc_way *w = kind_of(s, line) == CC_LINE_TAS ? NULL : store_peek(st, line);
    if (w) {
        *v = cc_word_get(way_data(st, w, s->p.line_bytes), word);
        bool drained = c->busy && (c->phase == P_WCB_ACK || c->phase == P_STORE_ACK);
        return drained && in_wcb ? CC_WORD_OWN_WRITE : w->dirty ? CC_WORD_WRITTEN : CC_WORD_COPY;
    }
    for (int i = c->nposted - 1; i >= 0; i--) /* its own writes on their way to memory */
        if (c->posted[i]->line == line && ((uint32_t)c->posted[i]->acks & (1u << word))) {
            *v = cc_word_get(c->posted[i]->data, word);
            return CC_WORD_OWN_WRITE;
        }
    *v = memory_word(s, line, word);
    return CC_WORD_LINE;
}

static uint64_t scc_core_word(const struct cc_system *sys, int core, uint64_t line, unsigned word)
{
    const struct scc *s = scc_of(sys);
    uint64_t v;
    word_seen(s, &s->cores[core], line, word, &v);
    return v;
}

static enum cc_word_source scc_core_word_source(const struct cc_system *sys, int core,
                                                uint64_t line, unsigned word)
{
    const struct scc *s = scc_of(sys);
    uint64_t v;
    return word_seen(s, &s->cores[core], line, word, &v);
}

/* Whether way k of the drop list comes up for the first time at its
 * place i (a way refilled since the last drop is listed twice). */
static bool first_listed(const struct scc_store *st, unsigned i)
{
    for (unsigned j = 0; j < i; j++)
        if (st->filled[j] == st->filled[i])
            return false;
    return true;
}

/* Each copy invmb is about to drop, to the observer ("why": what ran it). */
static void narrate_drops(struct scc *s, int core, const char *why)
{
    const struct scc_store *st = &s->cores[core].mpbc;
    bool all = st->nfilled > SCC_FILLED_MAX;
    size_t n = all ? (size_t)st->sets * st->ways : st->nfilled;
    for (size_t i = 0; i < n; i++) {
        const struct scc_way *w = &st->w[all ? i : st->filled[i]];
        if (w->valid && (all || first_listed(st, (unsigned)i)))
            step(s, false, s->cores[core].id, w->line, NULL, why, copy_state(w), "I",
                 "drop the L1 copy (MPB lines are not kept coherent)");
    }
}

/* invmb: the core drops its L1 copies of MPB lines. */
static void drop_mpb_copies(struct scc *s, int core, const char *why)
{
    if (s->observer)
        narrate_drops(s, core, why);
    store_drop_all(&s->cores[core].mpbc);
}

/* A wait on an MPB line polls as RCCE does: invmb, then read again; a
 * register is tested again. A private copy changes only when its own core
 * writes it, so a wait on one never wakes (the run ends in a deadlock
 * report, as the real chip would hang). */
static void scc_watch(struct cc_system *sys, int core, uint64_t line, cc_watch_fn fn, void *ctx)
{
    struct scc *s = scc_of(sys);
    switch (kind_of(s, line)) {
    case CC_LINE_MPB:
        drop_mpb_copies(s, core, "the wait's poll runs invmb");
        fn(s->k, ctx);
        return;
    case CC_LINE_TAS:
        fn(s->k, ctx);
        return;
    case CC_LINE_MEMORY:
        return;
    }
}

static char scc_state_of(const struct cc_system *sys, int core, uint64_t line)
{
    const struct scc *s = scc_of(sys);
    const struct scc_core *c = &s->cores[core];
    if (c->busy && c->q->line == line)
        return 'T';
    const struct scc_way *w = NULL;
    if (kind_of(s, line) == CC_LINE_MPB)
        w = store_peek(&c->mpbc, line);
    else if (kind_of(s, line) == CC_LINE_MEMORY)
        w = store_peek(&c->priv, line);
    if (!w)
        return 'I';
    return w->dirty ? 'M' : 'S';
}

/* ------------------------------------------------------------ methodology */

/* A write-combining buffer's words go into their MPB at no cost (a sync's
 * or an evict's methodology), narrated as the core's step and the tile's
 * write with the words it changed. */
static void settle_wcb(struct scc *s, struct scc_core *c, const char *why)
{
    if (!c->wcb.valid)
        return;
    uint64_t line = c->wcb.line;
    uint8_t *bytes = mpb_bytes(s, line), before[SIM_MAX_LINE_BYTES];
    if (s->observer)
        memcpy(before, bytes, s->p.line_bytes);
    write_masked(s, bytes, c->wcb.data, c->wcb.mask);
    c->wcb.valid = false;
    if (!s->observer)
        return;
    step(s, false, c->id, line, NULL, why, "-", "-",
         "the write-combining buffer's words go into the line's MPB (at no cost)");
    struct cc_step st = {.home = true,
                         .node = tile_node(s, tile_of_core(s, mpb_owner(s, line))),
                         .line = line,
                         .event = "an MPB write (a drained buffer)",
                         .from = "-",
                         .to = "-",
                         .requester = c->id, /* the core whose buffer it is (--thread) */
                         .owner = -1,
                         .data_before = before,
                         .data_after = bytes};
    emit(s, &st, NULL, "write the words into the SRAM");
}

static void scc_settle(struct cc_system *sys)
{
    struct scc *s = scc_of(sys);
    for (int i = 0; i < s->p.cores; i++)
        settle_wcb(s, &s->cores[i], "the sync drains the write-combining buffer");
}

/* Every copy leaves; dirty private copies are written back in core order. */
static void scc_evict_line(struct cc_system *sys, uint64_t line)
{
    struct scc *s = scc_of(sys);
    SIM_ASSERT(line_idle(s, line));
    enum cc_line_kind kind = kind_of(s, line);
    for (int i = 0; i < s->p.cores; i++) {
        struct scc_core *c = &s->cores[i];
        if (c->wcb.valid && c->wcb.line == line)
            settle_wcb(s, c, "the evict drains the write-combining buffer");
        struct scc_store *st = kind == CC_LINE_MPB ? &c->mpbc : &c->priv;
        struct scc_way *w = kind == CC_LINE_TAS ? NULL : store_find(st, line);
        if (!w)
            continue;
        if (w->dirty)
            memcpy(mem_bytes_rw(s, line), way_data(st, w, s->p.line_bytes), s->p.line_bytes);
        w->valid = false;
    }
}

/* A private line's copy is clean (S) or dirty (M); there is no E, O or F
 * without coherence (an MPB line's copy is clean only: core.c prime_ok). */
static bool scc_can_hold(const struct cc_system *sys, char state)
{
    (void)sys;
    return state == 'S' || state == 'M';
}

/* The line in core's cache with the memory's value ('M': dirty). */
static void scc_prime_line(struct cc_system *sys, int core, uint64_t line, char state)
{
    struct scc *s = scc_of(sys);
    enum cc_line_kind kind = kind_of(s, line);
    if (kind == CC_LINE_TAS)
        return;
    struct scc_core *c = &s->cores[core];
    struct scc_store *st = kind == CC_LINE_MPB ? &c->mpbc : &c->priv;
    struct scc_way *w = store_find(st, line);
    if (!w) {
        struct scc_way victim;
        w = store_take(st, line, &victim);
        if (victim.valid && victim.dirty) /* at no cost, like the rest of prime */
            memcpy(mem_bytes_rw(s, victim.line), way_data(st, w, s->p.line_bytes), s->p.line_bytes);
        uint8_t tmp[SIM_MAX_LINE_BYTES];
        memcpy(way_data(st, w, s->p.line_bytes), backing(s, line, tmp), s->p.line_bytes);
    }
    w->dirty = kind == CC_LINE_MEMORY && state == 'M';
    if (kind == CC_LINE_MEMORY)
        l1_touch(c, line);
}

/* What scc_prime_line will displace: the LRU line of a full set of the
 * core's private cache (or its MPB lines' cache). */
static bool scc_prime_victim(const struct cc_system *sys, int core, uint64_t line, uint64_t *victim)
{
    const struct scc *s = scc_of(sys);
    enum cc_line_kind kind = kind_of(s, line);
    if (kind == CC_LINE_TAS)
        return false;
    const struct scc_core *c = &s->cores[core];
    const struct scc_store *st = kind == CC_LINE_MPB ? &c->mpbc : &c->priv;
    if (store_peek(st, line))
        return false;
    const struct scc_way *w = store_way_for(st, line);
    if (!w->valid)
        return false;
    *victim = w->line;
    return true;
}

/* ------------------------------------------------------------ statistics */

static void scc_get_stats(const struct cc_system *sys, struct cc_stats *out)
{
    const struct scc *s = scc_of(sys);
    *out = s->stats;
    out->home_queue_ps = 0;
    for (int i = 0; i < s->p.homes; i++)
        out->home_queue_ps += s->tiles[i].queue_ps;
    for (int i = 0; i < s->p.mcs; i++)
        out->home_queue_ps += s->mcs[i].queue_ps;
}

static void scc_print_row_counters(const struct cc_system *sys, FILE *f)
{
    const struct scc *s = scc_of(sys);
    fprintf(f, "scc messages (type: sent)\n");
    for (int t = 0; t < SM_COUNT; t++)
        if (s->sent[t])
            fprintf(f, "  %-7s %llu\n", scc_msg_names[t], (unsigned long long)s->sent[t]);
    fprintf(f, "MPB accesses (tile: accesses, queueing ns)\n");
    for (int i = 0; i < s->p.homes; i++)
        if (s->tiles[i].accesses)
            fprintf(f, "  tile %-3d %llu %.1f\n", i, (unsigned long long)s->tiles[i].accesses,
                    (double)s->tiles[i].queue_ps / SIM_PS_PER_NS);
    fprintf(f, "memory controllers (controller: accesses, queueing ns)\n");
    for (int i = 0; i < s->p.mcs; i++)
        if (s->mcs[i].accesses)
            fprintf(f, "  mc %-3d %llu %.1f\n", i, (unsigned long long)s->mcs[i].accesses,
                    (double)s->mcs[i].queue_ps / SIM_PS_PER_NS);
    fprintf(f, "unexpected 0\n");
}

static void scc_print_outstanding(const struct cc_system *sys, FILE *f)
{
    const struct scc *s = scc_of(sys);
    int shown = 0;
    fprintf(f, "requests in service and write-combining buffers:\n");
    for (int i = 0; i < s->p.cores; i++) {
        const struct scc_core *c = &s->cores[i];
        char name[128];
        if (c->busy) {
            cc_line_label(sys, c->q->line, name, sizeof name);
            fprintf(f, "  core %d: line %s, waiting for %s\n", i, name, scc_phase_docs[c->phase]);
            shown++;
        }
        if (c->wcb.valid) {
            cc_line_label(sys, c->wcb.line, name, sizeof name);
            fprintf(f,
                    "  core %d: write-combining buffer holds MPB line %s (words 0x%x), "
                    "not yet written: a partial line leaves only when the core touches "
                    "memory again\n",
                    i, name, c->wcb.mask);
            shown++;
        }
    }
    if (!shown)
        fprintf(f, "  none\n");
}

/* ------------------------------------------------------------ life */

/* The memory controller nearest to core c (fewest hops; ties: lowest). */
static int nearest_mc(const struct scc *s, int c)
{
    int best = 0, best_hops = -1;
    for (int m = 0; m < s->p.mcs; m++) {
        int h = net_hops(s->net, c, mc_node(s, m));
        if (best_hops < 0 || h < best_hops) {
            best = m;
            best_hops = h;
        }
    }
    return best;
}

static const struct cc_backend scc_backend;

struct cc_system *scc_create(struct sim_kernel *k, struct net *net, const struct cc_params *p,
                             const struct scc_cfg *cfg)
{
    struct scc *s = sim_xcalloc(1, sizeof *s);
    s->mpb_lines = (unsigned)(cfg->size_kb * 1024 / p->line_bytes);
    s->miu_cycles = (unsigned)cfg->miu_cycles;
    s->mpb_cycles = (unsigned)cfg->access_cycles;
    s->tas_cycles = (unsigned)cfg->tas_cycles;
    s->local_mpb_via_router = cfg->local_mpb_via_router;
    SIM_ASSERT(p->mcs >= 1 && s->mpb_lines >= 1 && p->homes >= 1);
    SIM_ASSERT(net->nnodes >= p->first_home_node + p->homes + p->mcs);
    s->k = k;
    s->net = net;
    s->p = *p;
    s->words = p->line_bytes / 8;
    SIM_ASSERT(s->words <= 32);
    s->cores = sim_xcalloc((size_t)p->cores, sizeof *s->cores);
    s->tiles = sim_xcalloc((size_t)p->homes, sizeof *s->tiles);
    s->mcs = sim_xcalloc((size_t)p->mcs, sizeof *s->mcs);
    s->mpb = sim_xcalloc((size_t)p->cores * s->mpb_lines, p->line_bytes);
    s->tas = sim_xcalloc((size_t)p->cores, sizeof *s->tas);
    sim_map_init(&s->mem);
    sim_map_init(&s->busy);
    for (int i = 0; i < p->cores; i++) {
        struct scc_core *c = &s->cores[i];
        c->sys = s;
        c->id = i;
        c->tile = tile_of_core(s, i);
        c->mc = nearest_mc(s, i);
        store_init(&c->priv, p->sets, p->ways, p->line_bytes);
        store_init(&c->l1, p->l1_sets ? p->l1_sets : 1, p->l1_ways ? p->l1_ways : 1, 0);
        store_init(&c->mpbc, p->l1_sets ? p->l1_sets : p->sets, p->l1_ways ? p->l1_ways : p->ways,
                   p->line_bytes);
        net_attach(net, i, core_deliver, c);
    }
    for (int i = 0; i < p->homes + p->mcs; i++)
        net_attach(net, p->first_home_node + i, server_deliver, s);
    return cc_system_new(k, net, p, &scc_backend, s);
}

static void free_bytes(uint64_t key, void *val, void *ctx)
{
    (void)key;
    (void)ctx;
    free(val);
}

static void scc_destroy(struct cc_system *sys)
{
    struct scc *s = scc_of(sys);
    if (!s)
        return;
    for (int i = 0; i < s->p.cores; i++) {
        store_free(&s->cores[i].priv);
        store_free(&s->cores[i].l1);
        store_free(&s->cores[i].mpbc);
        free(s->cores[i].posted);
    }
    sim_map_each(&s->mem, free_bytes, NULL);
    sim_map_destroy(&s->mem);
    sim_map_destroy(&s->busy);
    sim_msg_pool_destroy(&s->msgs);
    free(s->cores);
    free(s->tiles);
    free(s->mcs);
    free(s->mpb);
    free(s->tas);
    free(s);
}

static void scc_observe(struct cc_system *sys, cc_observer_fn fn, void *ctx)
{
    struct scc *s = scc_of(sys);
    s->observer = fn;
    s->observer_ctx = ctx;
}

/* ------------------------------------------------------------ the backend */

static int scc_home_socket(const struct cc_system *sys, uint64_t line)
{
    return line_socket(scc_of(sys), line);
}

static uint64_t scc_peek_word(const struct cc_system *sys, uint64_t line, unsigned word)
{
    return memory_word(scc_of(sys), line, word);
}

static bool scc_line_quiet(const struct cc_system *sys, uint64_t line)
{
    return line_idle(scc_of(sys), line);
}

static void scc_drop_noncoherent(struct cc_system *sys, int core, const char *why)
{
    drop_mpb_copies(scc_of(sys), core, why);
}

static int64_t scc_place_count(const struct cc_system *sys, enum cc_line_kind kind)
{
    return kind == CC_LINE_MPB ? (int64_t)scc_of(sys)->mpb_lines : kind == CC_LINE_TAS ? 1 : 0;
}

static bool scc_place_line(const struct cc_system *sys, enum cc_line_kind kind, int core,
                           int64_t slot, uint64_t *line)
{
    const struct scc *s = scc_of(sys);
    if (core < 0 || core >= s->p.cores || slot < 0 || slot >= scc_place_count(sys, kind))
        return false;
    *line = kind == CC_LINE_MPB ? SCC_MPB_BASE + (uint64_t)core * s->mpb_lines + (uint64_t)slot
                                : SCC_TAS_BASE + (uint64_t)core;
    return true;
}

static enum cc_line_kind scc_line_kind(const struct cc_system *sys, uint64_t line)
{
    return kind_of(scc_of(sys), line);
}

static bool scc_local_word(const struct cc_system *sys, int core, uint64_t line, unsigned word,
                           uint64_t *value)
{
    (void)sys, (void)core, (void)line, (void)word, (void)value;
    return false; /* one thread a core: nobody else writes its copy */
}

static const struct cc_backend scc_backend = {
    .destroy = scc_destroy,
    .access = scc_access,
    .observe = scc_observe,
    .home_socket = scc_home_socket,
    .core_memory_node = scc_core_memory_node,
    .get_stats = scc_get_stats,
    .print_row_counters = scc_print_row_counters,
    .print_outstanding = scc_print_outstanding,
    .state_of = scc_state_of,
    .peek_word = scc_peek_word,
    .core_word = scc_core_word,
    .core_word_source = scc_core_word_source,
    .local_word = scc_local_word,
    .watch = scc_watch,
    .line_quiet = scc_line_quiet,
    .quiet = scc_quiet,
    .evict_line = scc_evict_line,
    .prime_line = scc_prime_line,
    .prime_victim = scc_prime_victim,
    .can_hold = scc_can_hold,
    .settle = scc_settle,
    .drop_noncoherent = scc_drop_noncoherent,
    .place_count = scc_place_count,
    .place_line = scc_place_line,
    .line_kind = scc_line_kind,
};

/* ------------------------------------------------------------ config */

const char scc_summary[] = "no coherence: the Intel SCC's private caches, message-passing "
                           "buffers, write-combining buffers and test-and-set registers";
const char scc_reading[] =
    "The SCC keeps no copies coherent, so there are no tables: a copy changes only when its own "
    "core writes it. MPB lines are cached in the L1 only and dropped by invmb; stores to them go "
    "through a one-line write-combining buffer. protocols/scc/scc.h describes the model.";

#define T struct scc_cfg
static const struct cfg_key mpb_keys[] = {
    CFG_INT_KEY(T, size_kb, false, 1, 1024, "KiB", "message-passing buffer SRAM per core"),
    CFG_INT_KEY(T, miu_cycles, false, 0, 100000, "cycles",
                "the mesh interface: a miss packed into a packet and its answer unpacked"),
    CFG_INT_KEY(T, access_cycles, false, 1, 100000, "cycles",
                "one MPB SRAM access at its tile (the tile serves one at a time)"),
    CFG_INT_KEY(T, tas_cycles, false, 1, 100000, "cycles",
                "one test-and-set register access at its tile"),
    CFG_BOOL_KEY(T, local_mpb_via_router, false,
                 "the own tile's MPB through the router, as the SCC's bug workaround needs "
                 "(true, default); false: a direct access of access_cycles"),
};
#undef T

void scc_cfg_defaults(struct scc_cfg *c)
{
    *c = (struct scc_cfg){.size_kb = 8,
                          .miu_cycles = 30,
                          .access_cycles = 15,
                          .tas_cycles = 15,
                          .local_mpb_via_router = true};
}

size_t scc_cfg_sections(struct scc_cfg *c, struct cfg_section *out, size_t max)
{
    if (max < 1)
        return 0;
    out[0] = (struct cfg_section){
        "mpb", false, mpb_keys, SIM_COUNT_OF(mpb_keys), c, "message-passing buffers (scc)"};
    return 1;
}
