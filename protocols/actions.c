/*
 * actions.c -- the actions protocol rows are made of, one short function
 * each, named verb_object. Cache-side actions are cc_act_*, home-side hc_act_*.
 */
#include "cc_internal.h"

#include <string.h>

/* Every action has a Murphi body (cc_internal.h): an empty one does not build. */
#define CACHE_ACTION(name, doc, murphi)                                                            \
    static void cc_##name(struct cc_ctx *c);                                                       \
    _Static_assert(sizeof(murphi) > 1, "cache action " #name " has no Murphi body");               \
    const struct cc_action cc_act_##name = {#name, doc, cc_##name, murphi};
CC_CACHE_ACTIONS(CACHE_ACTION)
#undef CACHE_ACTION
#define HOME_ACTION(name, doc, murphi)                                                             \
    static void hc_##name(struct cc_ctx *c);                                                       \
    _Static_assert(sizeof(murphi) > 1, "home action " #name " has no Murphi body");                \
    const struct cc_action hc_act_##name = {#name, doc, hc_##name, murphi};
CC_HOME_ACTIONS(HOME_ACTION)
#undef HOME_ACTION

/* ------------------------------------------------------------ cache side */

static void request_done(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct cc_req *r = obj;
    (void)arg;
    r->done(k, r);
}

/* Core's L1 tag filter: l1_sets * l1_ways tags of its own among its cache's. */
static size_t l1_base(const struct cc_system *s, const struct cc_cache *cache, int core,
                      uint64_t line)
{
    size_t per_core = (size_t)s->p.l1_sets * s->p.l1_ways;
    size_t slot = (size_t)(core - cache->id * s->p.cores_per_cache);
    return slot * per_core + (size_t)(line & (s->p.l1_sets - 1)) * s->p.l1_ways;
}

bool cc_l1_holds(const struct cc_system *s, const struct cc_cache *cache, int core, uint64_t line)
{
    if (!cache->l1_tags)
        return false;
    const uint64_t *tags = &cache->l1_tags[l1_base(s, cache, core, line)];
    for (unsigned w = 0; w < s->p.l1_ways; w++)
        if (tags[w] == line + 1)
            return true;
    return false;
}

/* Whether core's L1 tag filter holds the line (no filter: false, the
 * coherent level answers); the line is in the L1 afterwards. */
bool cc_l1_touch(struct cc_system *s, struct cc_cache *cache, int core, uint64_t line)
{
    if (!cache->l1_tags)
        return false;
    size_t base = l1_base(s, cache, core, line);
    uint64_t *tags = &cache->l1_tags[base];
    uint64_t *lru = &cache->l1_lru[base];
    unsigned victim = 0;
    for (unsigned w = 0; w < s->p.l1_ways; w++) {
        if (tags[w] == line + 1) {
            lru[w] = ++cache->tick;
            return true;
        }
        if (lru[w] < lru[victim])
            victim = w;
    }
    tags[victim] = line + 1;
    lru[victim] = ++cache->tick;
    return false;
}

/* The line leaves the L1 filter of every core of cache but `keep` (-1: none). */
static void l1_forget(struct cc_system *s, struct cc_cache *cache, int keep, uint64_t line)
{
    int first = cache->id * s->p.cores_per_cache;
    for (int core = first; core < first + s->p.cores_per_cache; core++) {
        uint64_t *tags = &cache->l1_tags[l1_base(s, cache, core, line)];
        for (unsigned w = 0; w < s->p.l1_ways && core != keep; w++)
            if (tags[w] == line + 1)
                tags[w] = 0;
    }
}

void cc_l1_drop(struct cc_system *s, struct cc_cache *cache, uint64_t line)
{
    if (cache->l1_tags)
        l1_forget(s, cache, -1, line);
}

void cc_l1_drop_others(struct cc_system *s, struct cc_cache *cache, int core, uint64_t line)
{
    if (cache->l1_tags && s->p.cores_per_cache > 1)
        l1_forget(s, cache, core, line);
}

void cc_op_apply(struct cc_req *r, uint8_t *line, unsigned line_bytes)
{
    uint64_t old = cc_word_get(line, r->word);
    r->result = old;
    switch (r->op) {
    case CC_LOAD:
    case CC_FLUSH:
        return;
    case CC_LOAD_LINE:
        memcpy(r->buf, line, line_bytes);
        return;
    case CC_STORE:
        cc_word_set(line, r->word, r->value);
        return;
    case CC_ADD:
        cc_word_set(line, r->word, old + r->value);
        return;
    case CC_CAS:
        if (old == r->value)
            cc_word_set(line, r->word, r->value2);
        return;
    case CC_XCHG:
        cc_word_set(line, r->word, r->value);
        return;
    case CC_STORE_LINE:
        memcpy(line, r->buf, line_bytes);
        return;
    case CC_ADD_LINE:
        for (unsigned w = 0; w < line_bytes / 8; w++)
            cc_word_set(line, w, cc_word_get(line, w) + cc_word_get(r->buf, w));
        return;
    }
}

/* Does r's operation on the line's bytes; checks it when checking. */
static void perform_on_line(struct cc_system *s, struct cc_req *r, struct cc_line *cl)
{
    unsigned words = s->p.line_bytes / 8;
    bool writes = !cc_op_reads(r->op) && r->op != CC_FLUSH;
    if (s->check) {
        if (cc_op_reads(r->op) || r->op == CC_ADD_LINE)
            for (unsigned w = 0; w < words; w++)
                cc_check_load(s, r->core, cl->line, w, cc_word_get(cl->data, w));
        else
            cc_check_load(s, r->core, cl->line, r->word, cc_word_get(cl->data, r->word));
    }
    cc_op_apply(r, cl->data, s->p.line_bytes);
    if (!writes)
        return;
    SIM_ASSERT(cc_state_writable(cl->state));
    if (s->check)
        cc_check_store(s, cc_cache_of_core(s, r->core), cl->line, cl->data);
}

/* When an access the L1 did not serve starts at the coherent level: the
 * line's bank serves one access at a time, for bank_busy_cycles each (no
 * banks: at once). */
static sim_time_t bank_start(struct cc_system *s, struct cc_cache *cache, uint64_t line,
                             sim_time_t now)
{
    if (!s->p.banks)
        return now;
    sim_time_t *until = &cache->bank_until[line % s->p.banks];
    sim_time_t start = sim_clock_edge(s->p.clock, now > *until ? now : *until);
    *until = start + (sim_time_t)s->p.bank_busy_cycles * s->p.clock.period_ps;
    return start;
}

/* When a hit answers: from the core's L1, or from the coherent level (a
 * miss in the L1, or a store through a write-through L1) after its bank. */
static sim_time_t hit_done(struct cc_system *s, struct cc_cache *cache, int core, uint64_t line,
                           bool writes)
{
    bool in_l1 = cc_l1_touch(s, cache, core, line) && !(writes && s->p.l1_write_through);
    sim_time_t now = sim_now(s->k);
    if (in_l1)
        return sim_clock_after(s->p.clock, now, s->p.l1_cycles);
    return sim_clock_after(s->p.clock, bank_start(s, cache, line, now), s->p.hit_cycles);
}

static void cc_perform_request(struct cc_ctx *c)
{
    struct cc_system *s = c->sys;
    struct cc_req *r = c->req;
    struct cc_line *cl = c->cl;
    SIM_ASSERT(r && cc_state_readable(cl->state));
    if (r->prefetch) { /* the line is in: nobody waits, no L1 takes it */
        cl->lru = ++c->cache->tick;
        c->performed = true;
        sim_schedule_at(s->k, sim_now(s->k), request_done, r, 0);
        return;
    }
    /* the fill it missed on (or joined) took the line from its writer; a
     * hit, only on a prefetch's fill that no access has read yet (one that
     * was read, the handoff of a flag, is no steal when a later poll of
     * it fails), until this cache writes the line itself
     * (cc_claim_steal counts one steal a fill) */
    r->from_writer = cl->from_writer && (r->missed || !cl->fill_read);
    cl->fill_read = true;
    bool writes = !cc_op_reads(r->op) && r->op != CC_FLUSH;
    if (writes)
        cl->from_writer = false;
    /* a sibling thread or core waiting on the line is woken when its bytes
     * change (a failed cas or a write of the same value changes nothing) */
    bool watched = writes && c->cache->watches;
    uint8_t before[SIM_MAX_LINE_BYTES];
    if (watched)
        memcpy(before, cl->data, s->p.line_bytes);
    perform_on_line(s, r, cl);
    cl->lru = ++c->cache->tick;
    c->performed = true;
    if (watched && memcmp(before, cl->data, s->p.line_bytes) != 0)
        cc_fire_watches(s, c->cache, cl->line);
    if (writes || r->missed)
        cc_l1_drop_others(s, c->cache, r->core, cl->line);
    sim_time_t done;
    if (r->missed) { /* the fill brought it: answered with the fill */
        cc_l1_touch(s, c->cache, r->core, cl->line);
        done = sim_clock_after(s->p.clock, sim_now(s->k), 0);
    } else {
        s->stats.hits++;
        done = hit_done(s, c->cache, r->core, cl->line, writes);
    }
    sim_schedule_at(s->k, done, request_done, r, 0);
}

static void cc_stall(struct cc_ctx *c)
{
    SIM_ASSERT(c->req != NULL); /* caches never park messages */
    cc_park_request(c->sys, c->cl, c->req);
    c->stalled = true;
}

static int home_of(struct cc_ctx *c)
{
    return cc_home_node(c->sys, c->line);
}

static void send_request(struct cc_ctx *c, int type, const uint8_t *data)
{
    uint8_t pf = c->req ? c->req->prefetch : CC_PF_NONE;
    cc_send(c->sys, type, c->cache->id, home_of(c), c->line, c->cache->id, data,
            (uint32_t)pf << CC_FLAG_PREFETCH_SHIFT);
    if (c->req && !c->req->asked) { /* a parked request was missed, but not yet asked */
        c->req->asked = true;
        c->req->missed = true;
        if (pf == CC_PF_STREAM || pf == CC_PF_NEXT || pf == CC_PF_PAIR)
            c->sys->stats.prefetches++;
        else if (pf == CC_PF_SOFTWARE)
            c->sys->stats.sw_prefetches++;
        else if (pf == CC_PF_STORE)
            c->sys->stats.store_prefetches++;
        else
            cc_count_miss(c->sys, c->req);
    }
}

static void cc_send_gets(struct cc_ctx *c)
{
    send_request(c, M_GETS, NULL);
}

static void cc_send_getx(struct cc_ctx *c)
{
    send_request(c, M_GETX, NULL);
}

static void cc_send_upgrade(struct cc_ctx *c)
{
    send_request(c, M_GETX, NULL);
}

static void cc_send_upgrade_data(struct cc_ctx *c)
{
    bool wb = c->sys->p.owned_write_writeback;
    send_request(c, M_GETX, wb ? c->cl->data : NULL);
}

static void cc_send_puts(struct cc_ctx *c)
{
    send_request(c, M_PUTS, c->sys->proto->puts_carry_data ? c->cl->data : NULL);
}

static void cc_send_putx(struct cc_ctx *c)
{
    bool dirty = c->cl->state == CS_M || c->cl->state == CS_O;
    send_request(c, M_PUTX, dirty ? c->cl->data : NULL);
}

static void cc_write_data(struct cc_ctx *c)
{
    SIM_ASSERT(c->msg && c->msg->has_data);
    memcpy(c->cl->data, c->msg->data, c->sys->p.line_bytes);
    c->cl->from_writer = (c->msg->flags & CC_FLAG_FROM_WRITER) != 0;
    c->cl->steal_claimed = false;
    c->cl->fill_read = false;
    c->cl->lru = ++c->cache->tick;
    if (c->sys->check)
        cc_check_fill(c->sys, c->cache->id, c->line, c->cl->data);
}

static void cc_send_unblock(struct cc_ctx *c)
{
    cc_send(c->sys, M_UNBLOCK, c->cache->id, home_of(c), c->line, c->cache->id, NULL, 0);
}

static void cc_send_inv_ack(struct cc_ctx *c)
{
    cc_send(c->sys, M_INV_ACK, c->cache->id, home_of(c), c->line, c->msg->requester, NULL, 0);
}

/* An invalidation the requester collects: the ack goes to it, not home. */
static void cc_send_inv_ack_to_req(struct cc_ctx *c)
{
    SIM_ASSERT(c->msg && c->msg->requester >= 0);
    cc_send(c->sys, M_INV_ACK, c->cache->id, c->msg->requester, c->line, c->msg->requester, NULL,
            0);
}

static void cc_count_ack(struct cc_ctx *c)
{
    SIM_ASSERT(c->cl->acks_got < UINT16_MAX);
    c->cl->acks_got++;
}

static void cc_await_acks(struct cc_ctx *c)
{
    SIM_ASSERT(c->msg && c->msg->acks > c->cl->acks_got && c->msg->acks <= UINT16_MAX);
    c->cl->acks_need = (uint16_t)c->msg->acks;
}

static void cc_clear_acks(struct cc_ctx *c)
{
    c->cl->acks_got = 0;
    c->cl->acks_need = 0;
}

/* Data to the requester; a forwarded write's count of the acks the
 * requester collects (GOLS's write of a shared line) goes along. */
static void send_to_requester(struct cc_ctx *c, int type)
{
    SIM_ASSERT(c->msg && c->msg->requester >= 0);
    int st = c->cl->state;
    bool writer = st == CS_M || st == CS_MI_A; /* wrote it, or was given it to write */
    cc_note_flight(c->sys, c->line, c->cl->data);
    cc_send_counted(c->sys, type, c->cache->id, c->msg->requester, c->line, c->msg->requester,
                    c->cl->data, writer ? CC_FLAG_FROM_WRITER : 0,
                    type == M_DATA_M ? c->msg->acks : 0);
}

static void cc_send_data_s_to_req(struct cc_ctx *c)
{
    send_to_requester(c, M_DATA_S);
}

static void cc_send_data_f_to_req(struct cc_ctx *c)
{
    send_to_requester(c, M_DATA_F);
}

static void cc_send_data_m_to_req(struct cc_ctx *c)
{
    send_to_requester(c, M_DATA_M);
}

static void send_fwd_ack(struct cc_ctx *c, int type, bool with_data, uint32_t flags)
{
    cc_send(c->sys, type, c->cache->id, home_of(c), c->line, c->msg->requester,
            with_data ? c->cl->data : NULL, flags);
}

static void cc_send_fwd_ack(struct cc_ctx *c)
{
    send_fwd_ack(c, M_FWD_ACK, false, 0);
}

/* An owner on its way out (MI_A, EI_A, OI_A) says it keeps no copy; the
 * line goes with it if it is dirty (an E copy leaving is clean: memory has
 * it, and nothing is written back), as send_putx's does. */
static void cc_send_fwd_ack_data(struct cc_ctx *c)
{
    int st = c->cl->state;
    bool leaving = st == CS_MI_A || st == CS_EI_A || st == CS_OI_A;
    send_fwd_ack(c, M_FWD_ACK_DATA, st != CS_EI_A, leaving ? CC_FLAG_GONE : 0);
}

static void cc_send_fwd_ack_owned(struct cc_ctx *c)
{
    send_fwd_ack(c, M_FWD_ACK_OWNED, false, 0);
}

static void cc_send_fwd_ack_dirty(struct cc_ctx *c)
{
    send_fwd_ack(c, M_FWD_ACK_DIRTY, false, 0);
}

static void cc_send_probe_ack(struct cc_ctx *c)
{
    cc_send(c->sys, M_PROBE_ACK, c->cache->id, home_of(c), c->line, c->msg->requester, NULL, 0);
}

/* ------------------------------------------------------------ home side */

static void hc_stall(struct cc_ctx *c)
{
    SIM_ASSERT(c->msg != NULL);
    c->sys->stats.line_busy++;
    cc_park_message(c->dir, c->msg);
    c->stalled = true;
}

static void hc_start_tx(struct cc_ctx *c)
{
    struct cc_tx *tx = &c->dir->tx;
    tx->requester = c->msg->src;
    tx->pending = 0;
    tx->supplier = -1;
    tx->gone = false;
    tx->upgrade = c->event == HE_Upgrade;
    tx->acks = 0;
    c->dir->flight_valid = false; /* only this transaction's forward is in flight */
}

/* A broadcast home (no probe filter) asks every cache; those the directory
 * does not list answer at once (the listed ones get their invalidations and
 * forwards from the rows as usual). With probe_per_socket it asks one such
 * cache of each socket, the lowest-numbered: its answer stands for the
 * socket's northbridge, which probes its own cores and answers once. */
static void hc_probe_others(struct cc_ctx *c)
{
    struct cc_system *s = c->sys;
    struct cc_dir *d = c->dir;
    if (s->p.probe_filter)
        return;
    int cps = s->ncaches / (s->p.sockets > 0 ? s->p.sockets : 1), probed = -1;
    for (int cache = 0; cache < s->ncaches; cache++) {
        if (cache == d->tx.requester || cache == d->owner || cc_is_sharer(s, d, cache))
            continue;
        if (s->p.probe_per_socket && cache / cps == probed)
            continue;
        probed = cache / cps;
        cc_send(s, M_PROBE, c->home->id, cache, c->line, d->tx.requester, NULL, 0);
        d->tx.pending++;
        s->stats.probes++;
    }
}

static void hc_read_memory(struct cc_ctx *c)
{
    cc_read_memory(c);
}

/* The message's data into memory: true if it carried some. */
static bool store_memory(struct cc_ctx *c)
{
    if (!c->msg || !c->msg->has_data)
        return false;
    memcpy(c->dir->memory, c->msg->data, c->sys->p.line_bytes);
    c->sys->stats.writebacks++;
    return true;
}

static void hc_write_memory(struct cc_ctx *c)
{
    if (store_memory(c))
        cc_post_memory_write(c->sys, c->dir);
}

static void hc_write_memory_wait(struct cc_ctx *c)
{
    if (store_memory(c))
        cc_write_memory_event(c);
}

static void hc_take_fwd_data(struct cc_ctx *c)
{
    hc_write_memory(c);
}

/* An invalidation: Inv, whose ack the home awaits, or Inv_R, whose ack
 * the requester collects (counted in tx.acks for its data or grant). */
static void send_inv(struct cc_ctx *c, int type, int to)
{
    cc_send(c->sys, type, c->home->id, to, c->line, c->dir->tx.requester, NULL, 0);
    if (type == M_INV_R)
        c->dir->tx.acks++;
    else
        c->dir->tx.pending++;
}

/* Invalidates every holder but the requester and `keep` (-1: none). */
static void inv_all_but(struct cc_ctx *c, int type, int keep)
{
    struct cc_system *s = c->sys;
    struct cc_dir *d = c->dir;
    int req = d->tx.requester;
    for (int cache = 0; cache < s->ncaches; cache++)
        if (cache != req && cache != keep && (cc_is_sharer(s, d, cache) || d->owner == cache))
            send_inv(c, type, cache);
}

static void hc_inv_sharers(struct cc_ctx *c)
{
    inv_all_but(c, M_INV, -1);
}

static void hc_pick_supplier(struct cc_ctx *c)
{
    struct cc_dir *d = c->dir;
    d->tx.supplier = d->owner >= 0 ? d->owner : cc_first_sharer(c->sys, d, d->tx.requester);
    SIM_ASSERT(d->tx.supplier >= 0);
}

static void hc_inv_sharers_but_supplier(struct cc_ctx *c)
{
    hc_pick_supplier(c);
    inv_all_but(c, M_INV, c->dir->tx.supplier);
}

/* The invalidated holders ack the requester, which learns how many to
 * await from the supplier's data (tx.acks rides on the forward) or from
 * the grant (an upgrade: no supplier): the home awaits only the
 * requester's unblock. */
static void hc_inv_sharers_ack_requester(struct cc_ctx *c)
{
    inv_all_but(c, M_INV_R, c->dir->tx.supplier);
}

static void send_home_data(struct cc_ctx *c, int type)
{
    cc_send(c->sys, type, c->home->id, c->dir->tx.requester, c->line, c->dir->tx.requester,
            c->dir->memory, 0);
}

static void hc_send_data_e(struct cc_ctx *c)
{
    send_home_data(c, M_DATA_E);
}

static void hc_send_data_s(struct cc_ctx *c)
{
    send_home_data(c, M_DATA_S);
}

static void hc_send_data_f(struct cc_ctx *c)
{
    send_home_data(c, M_DATA_F);
}

static void hc_send_data_m(struct cc_ctx *c)
{
    send_home_data(c, M_DATA_M);
}

/* A grant; `acks`: the invalidation acks the requester collects first. */
static void send_grant(struct cc_ctx *c, int acks)
{
    cc_send_counted(c->sys, M_GRANT, c->home->id, c->dir->tx.requester, c->line,
                    c->dir->tx.requester, NULL, 0, acks);
}

static void hc_send_grant(struct cc_ctx *c)
{
    send_grant(c, c->dir->tx.acks);
}

static void hc_send_data_or_grant(struct cc_ctx *c)
{
    if (c->dir->tx.upgrade)
        send_grant(c, 0); /* the home collected the acks */
    else
        hc_send_data_m(c);
}

/* A forward; `acks`: the invalidation acks it tells the requester, through
 * the forwarded-to cache's data, to await (0: none). */
static void forward(struct cc_ctx *c, int type, int to, bool await, int acks)
{
    SIM_ASSERT(to >= 0 && to != c->dir->tx.requester);
    cc_send_counted(c->sys, type, c->home->id, to, c->line, c->dir->tx.requester, NULL, 0, acks);
    c->sys->stats.forwards++;
    if (await)
        c->dir->tx.pending++;
}

static void hc_fwd_gets_to_owner(struct cc_ctx *c)
{
    forward(c, M_FWD_GETS, c->dir->owner, true, 0);
}

static void hc_fwd_gets_to_forwarder(struct cc_ctx *c)
{
    forward(c, M_FWD_GETS, c->dir->forwarder, true, 0);
}

/* Reads of a GOLS line pipelined at the tag directory: the reader is a
 * sharer at once and the supplier (chosen when the first read arrives, from
 * the sharers that hold the line then) answers each; the directory counts
 * the readers' unblocks and the supplier's answers (they travel on
 * different rings, in either order) and takes nothing else on the line
 * meanwhile. */
static void hc_share_read(struct cc_ctx *c)
{
    struct cc_dir *d = c->dir;
    int reader = c->msg->src;
    if (d->tx.supplier < 0)
        d->tx.supplier = cc_first_sharer(c->sys, d, reader);
    SIM_ASSERT(d->tx.supplier >= 0 && d->tx.supplier != reader);
    cc_set_sharer(c->sys, d, reader, true);
    cc_send(c->sys, M_FWD_GETS, c->home->id, d->tx.supplier, c->line, reader, NULL, 0);
    c->sys->stats.forwards++;
    d->tx.pending += 2; /* the reader's unblock and the supplier's answer */
}

/* A read answered by the home with a read of its own (read_time: an LLC
 * hit, else memory, queued at the line's bank), straight to the reader, so
 * reads of one line pipeline at the home: GOLS's reads that join a read of
 * an uncached line, mesif-llc's reads of a clean shared line. The directory
 * awaits the reader's unblock. */
static void hc_share_read_memory(struct cc_ctx *c)
{
    int reader = c->msg->src;
    cc_set_sharer(c->sys, c->dir, reader, true);
    cc_supply_from_memory(c, reader);
    c->dir->tx.pending++; /* the reader's unblock */
}

static void hc_fwd_getx_to_owner(struct cc_ctx *c)
{
    forward(c, M_FWD_GETX, c->dir->owner, false, 0);
}

static void hc_fwd_getx_to_supplier(struct cc_ctx *c)
{
    forward(c, M_FWD_GETX, c->dir->tx.supplier, false, c->dir->tx.acks);
}

static void hc_await_unblock(struct cc_ctx *c)
{
    c->dir->tx.pending++;
}

static void hc_count_answer(struct cc_ctx *c)
{
    SIM_ASSERT(c->dir->tx.pending > 0);
    c->dir->tx.pending--;
}

static void hc_note_gone(struct cc_ctx *c)
{
    if (c->msg && (c->msg->flags & CC_FLAG_GONE))
        c->dir->tx.gone = true;
}

static void clear_holders(struct cc_system *s, struct cc_dir *d)
{
    cc_clear_sharers(s, d);
    d->owner = -1;
    d->forwarder = -1;
}

static void hc_set_owner(struct cc_ctx *c)
{
    clear_holders(c->sys, c->dir);
    c->dir->owner = c->dir->tx.requester;
}

static void hc_add_sharer(struct cc_ctx *c)
{
    cc_set_sharer(c->sys, c->dir, c->dir->tx.requester, true);
}

static void hc_add_owner_as_sharer(struct cc_ctx *c)
{
    struct cc_dir *d = c->dir;
    SIM_ASSERT(d->owner >= 0);
    if (!d->tx.gone)
        cc_set_sharer(c->sys, d, d->owner, true);
    d->owner = -1;
}

static void hc_set_forwarder(struct cc_ctx *c)
{
    c->dir->forwarder = c->dir->tx.requester;
}

static void hc_remove_sender(struct cc_ctx *c)
{
    struct cc_dir *d = c->dir;
    int src = c->msg->src;
    cc_set_sharer(c->sys, d, src, false);
    if (d->owner == src)
        d->owner = -1;
    if (d->forwarder == src)
        d->forwarder = -1;
}

static void hc_send_put_ack(struct cc_ctx *c)
{
    cc_send(c->sys, M_PUT_ACK, c->home->id, c->msg->src, c->line, c->msg->src, NULL, 0);
}
