/*
 * runtime.c -- the one runtime that executes every protocol's tables.
 *
 * Cache side: a processor request or an incoming message becomes an event on
 * a line; the row for (line state, event) runs its actions and sets the next
 * state. Requests that meet a transient state are parked on the line (stall
 * rows) and replayed, in order, the moment the line reaches a stable state.
 * A request that needs a way in a full set parks on the set and evicts the
 * least recently used stable line (a Replace event), one at a time; where
 * the cache has a free write-back buffer (p.wb_entries), the victim moves
 * into it to await its put's answer and the way is free at once.
 *
 * Home side: every message waits for the home's input server (occupancy per
 * message: queueing at a busy home is where contention comes from), is
 * classified into an event using the directory entry, and runs its row.
 * Requests for a line in a transient state are parked (stall rows) and
 * served in arrival order when the line's transaction ends. A transaction
 * counts the answers it awaits; when the count reaches zero in a transient
 * state the runtime raises the internal Done event.
 *
 * Races live here and in the rows, nowhere else; post-conditions are
 * asserted after every row.
 */
#include "cc_internal.h"

#include <stdarg.h>

#include <stdlib.h>
#include <string.h>

#define NAMES(name, doc) #name,
#define DOCS(name, doc)  doc,
const char *const cc_cache_state_names[CS_COUNT] = {CC_CACHE_STATES(NAMES)};
const char *const cc_cache_state_docs[CS_COUNT] = {CC_CACHE_STATES(DOCS)};
const char *const cc_home_state_names[HS_COUNT] = {CC_HOME_STATES(NAMES)};
const char *const cc_home_state_docs[HS_COUNT] = {CC_HOME_STATES(DOCS)};
const char *const cc_cache_event_names[CE_COUNT] = {CC_CACHE_EVENTS(NAMES)};
const char *const cc_cache_event_docs[CE_COUNT] = {CC_CACHE_EVENTS(DOCS)};
const char *const cc_home_event_names[HE_COUNT] = {CC_HOME_EVENTS(NAMES)};
const char *const cc_home_event_docs[HE_COUNT] = {CC_HOME_EVENTS(DOCS)};
#undef NAMES
#undef DOCS
#define MSG_NAME(name, table, doc)  #name,
#define MSG_TABLE(name, table, doc) table,
#define MSG_DOC(name, table, doc)   doc,
const char *const cc_msg_names[M_COUNT + 1] = {CC_MSGS(MSG_NAME) NULL};
const char *const cc_msg_table_names[M_COUNT] = {CC_MSGS(MSG_TABLE)};
const char *const cc_msg_docs[M_COUNT] = {CC_MSGS(MSG_DOC)};
#undef MSG_NAME
#undef MSG_TABLE
#undef MSG_DOC

/* ------------------------------------------------------------ state sets */

bool cc_state_readable(int st)
{
    return st == CS_S || st == CS_E || st == CS_M || st == CS_O || st == CS_F || st == CS_SM_D ||
           st == CS_SM_A || st == CS_FM_D || st == CS_OM_D;
}

bool cc_state_name_readable(const char *name)
{
    for (int st = 0; name && st < CS_COUNT; st++)
        if (strcmp(cc_cache_state_names[st], name) == 0)
            return cc_state_readable(st);
    return false;
}

bool cc_state_writable(int st)
{
    return st == CS_E || st == CS_M;
}

static bool cache_transient(int st)
{
    return st >= CS_IS_D;
}

bool cc_state_stable(int st)
{
    return !cache_transient(st);
}

static bool home_transient(int st)
{
    return st >= HS_IE_M;
}

static bool is_request_event(int ev)
{
    return ev <= HE_Put_Stale;
}

/* ------------------------------------------------------------ tables */

/* Each (state, event) of the table to its row (cc_protocol_rows_disjoint
 * has checked that no two rows share one). */
static void expand_table(const struct cc_table *t, const struct cc_row **cells, int nstates,
                         int nevents)
{
    for (size_t i = 0; i < t->nrows; i++) {
        const struct cc_row *r = &t->rows[i];
        for (int st = 0; st < nstates; st++)
            for (int ev = 0; ev < nevents; ev++)
                if ((r->states & CC_BIT(st)) && (r->events & CC_BIT(ev)))
                    cells[st * nevents + ev] = r;
    }
}

/* ------------------------------------------------------------ lookup */

static unsigned set_of(const struct cc_system *s, uint64_t line)
{
    return (unsigned)(line & (s->p.sets - 1));
}

static struct cc_line *cache_find(struct cc_system *s, struct cc_cache *c, uint64_t line)
{
    return cc_way_find(s, c, line);
}

int cc_home_node(const struct cc_system *s, uint64_t line)
{
    uint64_t h = line * 0x9e3779b97f4a7c15ull;
    return s->p.first_home_node + (int)((h >> 32) % (uint64_t)s->p.homes);
}

int cc_coh_home_socket(const struct cc_system *s, uint64_t line)
{
    int sockets = s->p.sockets > 0 ? s->p.sockets : 1;
    return (cc_home_node(s, line) - s->p.first_home_node) / (s->p.homes / sockets);
}

struct cc_home *cc_home_of(struct cc_system *s, uint64_t line)
{
    return &s->homes[cc_home_node(s, line) - s->p.first_home_node];
}

/* cc_dir_find's lines at or past CC_DIR_ARRAY_MAX: in their home's map. */
struct cc_dir *cc_dir_find_large(struct cc_system *s, uint64_t line)
{
    return sim_map_get(&cc_home_of(s, line)->dirs, line);
}

/* Room in dir_of for line (below CC_DIR_ARRAY_MAX). */
static void dir_array_grow(struct cc_system *s, uint64_t line)
{
    uint64_t cap = s->dir_cap ? s->dir_cap : 1024;
    while (cap <= line)
        cap *= 2;
    s->dir_of = sim_xrealloc(s->dir_of, cap * sizeof *s->dir_of);
    memset(s->dir_of + s->dir_cap, 0, (cap - s->dir_cap) * sizeof *s->dir_of);
    s->dir_cap = cap;
}

struct cc_dir *cc_dir_get(struct cc_system *s, struct cc_home *h, uint64_t line)
{
    struct cc_dir *d = cc_dir_find(s, line);
    if (d) {
        SIM_ASSERT(d->home == h);
        return d;
    }
    d = sim_xcalloc(1, sizeof *d);
    d->home = h;
    d->line = line;
    d->state = HS_I;
    d->owner = -1;
    d->forwarder = -1;
    d->tx.supplier = -1;
    d->tx.requester = -1;
    d->sharers = sim_xcalloc(s->sharer_words, sizeof *d->sharers);
    d->memory = sim_xcalloc(1, s->p.line_bytes);
    sim_map_put(&h->dirs, line, d);
    if (line < CC_DIR_ARRAY_MAX) {
        if (line >= s->dir_cap)
            dir_array_grow(s, line);
        s->dir_of[line] = d;
    }
    return d;
}

bool cc_is_sharer(const struct cc_system *s, const struct cc_dir *d, int core)
{
    (void)s;
    return (d->sharers[core / 64] >> (core % 64)) & 1;
}

void cc_set_sharer(struct cc_system *s, struct cc_dir *d, int core, bool on)
{
    (void)s;
    uint64_t bit = 1ull << (core % 64), *w = &d->sharers[core / 64];
    if (on == ((*w & bit) != 0))
        return;
    *w ^= bit;
    d->nsharers += on ? 1 : -1;
}

void cc_clear_sharers(struct cc_system *s, struct cc_dir *d)
{
    memset(d->sharers, 0, s->sharer_words * sizeof *d->sharers);
    d->nsharers = 0;
}

/* Kept as a count (a home asks at every event); the checker recounts. */
int cc_sharer_count(const struct cc_system *s, const struct cc_dir *d)
{
    if (s->check) {
        int n = 0;
        for (size_t i = 0; i < s->sharer_words; i++)
            n += __builtin_popcountll(d->sharers[i]);
        SIM_ASSERT(n == d->nsharers);
    }
    return d->nsharers;
}

int cc_first_sharer(const struct cc_system *s, const struct cc_dir *d, int except)
{
    for (int c = 0; c < s->ncaches; c++)
        if (c != except && cc_is_sharer(s, d, c))
            return c;
    return -1;
}

/* ------------------------------------------------------------ messages */

static void log_message(struct cc_system *s, struct sim_msg *m)
{
    struct cc_dir *d = cc_dir_get(s, cc_home_of(s, m->line), m->line);
    d->hist[d->hist_next] = (struct cc_hist){sim_now(s->k), m->type, m->src, m->dst};
    d->hist_next = (uint8_t)((d->hist_next + 1) % CC_HIST);
    if (d->hist_len < CC_HIST)
        d->hist_len++;
}

/* Requests and snoops travel as requests; answers without data as acks. */
static uint8_t vnet_of(int type)
{
    switch (type) {
    case M_GETS:
    case M_GETX:
    case M_PUTS:
    case M_PUTX:
    case M_INV:
    case M_INV_R:
    case M_FWD_GETS:
    case M_FWD_GETX:
    case M_PROBE:
        return SIM_VNET_REQ;
    default:
        return SIM_VNET_ACK;
    }
}

void cc_send(struct cc_system *s, int type, int src, int dst, uint64_t line, int requester,
             const uint8_t *data, uint32_t flags)
{
    cc_send_counted(s, type, src, dst, line, requester, data, flags, 0);
}

void cc_send_counted(struct cc_system *s, int type, int src, int dst, uint64_t line, int requester,
                     const uint8_t *data, uint32_t flags, int acks)
{
    struct sim_msg *m = sim_msg_new(&s->msgs);
    m->type = type;
    m->src = src;
    m->dst = dst;
    m->line = line;
    m->requester = requester;
    m->flags = flags;
    m->acks = acks;
    m->has_data = data != NULL;
    m->vnet = data ? SIM_VNET_DATA : vnet_of(type);
    m->bytes = data ? s->p.data_bytes : s->p.ctrl_bytes;
    if (data)
        memcpy(m->data, data, s->p.line_bytes);
    m->sent = sim_now(s->k);
    s->sent[type]++;
    if (type == M_INV || type == M_INV_R || type == M_FWD_GETX)
        s->stats.invalidations++; /* a copy taken away for a write */
    if (type == M_DATA_M && src < s->ncaches)
        s->stats.handoffs++; /* the line, to write, from cache to cache */
    if (s->check)
        log_message(s, m);
    if (s->observer) {
        if (s->obs_nsent < CC_STEP_SENT)
            s->obs_sent[s->obs_nsent++] =
                (struct cc_sent){cc_msg_table_names[type], cc_msg_docs[type], dst, data != NULL};
        s->obs_total++;
    }
    net_send(s->net, m);
}

uint64_t cc_msg_count(const struct cc_system *s, const char *type_name)
{
    for (int t = 0; t < M_COUNT; t++)
        if (strcmp(cc_msg_names[t], type_name) == 0 ||
            strcmp(cc_msg_table_names[t], type_name) == 0)
            return s->sent[t];
    sim_panic("cc_msg_count: no message type '%s'", type_name);
}

void cc_note_flight(struct cc_system *s, uint64_t line, const uint8_t *data)
{
    struct cc_dir *d = cc_dir_find(s, line);
    if (!d)
        return;
    if (!d->flight)
        d->flight = sim_xmalloc(s->p.line_bytes);
    memcpy(d->flight, data, s->p.line_bytes);
    d->flight_valid = true;
}

/* ------------------------------------------------------------ fatal rows */

/* A table error ends the run: "ccsim: protocol NAME" and the message, which
 * leaves a parenthesis open for the time ("at T ns)"), then the
 * transactions in flight; exit 1. */
static _Noreturn __attribute__((format(printf, 2, 3))) void table_error(struct cc_system *s,
                                                                        const char *fmt, ...)
{
    fflush(stdout);
    fprintf(stderr, "ccsim: protocol %s", s->proto->name);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "at %.3f ns)\n", (double)sim_now(s->k) / SIM_PS_PER_NS);
    cc_print_outstanding(s, stderr);
    exit(SIM_EXIT_FAIL);
}

static _Noreturn void no_row(struct cc_system *s, const char *side, int node, uint64_t line,
                             const char *state, const char *event)
{
    s->stats.unexpected++;
    table_error(s, " has no %s row for state %s, event %s (line 0x%llx, node %d, ", side, state,
                event, (unsigned long long)line, node);
}

/* ------------------------------------------------------------ cache side */

void cc_fire_watches(struct cc_system *s, struct cc_cache *c, uint64_t line)
{
    struct cc_watch **pp = &c->watches;
    while (*pp) {
        struct cc_watch *w = *pp;
        if (w->line == line) {
            *pp = w->next;
            w->fn(s->k, w->ctx);
            free(w);
        } else
            pp = &w->next;
    }
}

static void replay_waiting(struct cc_system *s, struct cc_cache *c, struct cc_line *cl);
static void free_way(struct cc_system *s, struct cc_cache *c, struct cc_line *cl);
static void retry_set(struct cc_system *s, struct cc_cache *c, unsigned set);
static void wb_leave(struct cc_system *s, struct cc_cache *c, struct cc_line *cl);

/* The requests parked on cl, taken off it (their list, in order). */
static struct cc_req *take_waiters(struct cc_line *cl)
{
    struct cc_req *r = cl->waiting;
    cl->waiting = cl->waiting_tail = NULL;
    return r;
}

/* Requests that met their line leaving start again, in their order, each
 * through its set as a miss does (a way, or a place behind the set's
 * waiters). */
static void start_again(struct cc_system *s, struct cc_cache *c, struct cc_req *r)
{
    while (r) {
        struct cc_req *next = r->next;
        r->next = NULL;
        cc_process_request(s, c, r);
        r = next;
    }
}

/* A line gone to I with requests waiting on it while misses wait for a way
 * of its set (they came first: a line chosen as a victim had no waiters):
 * the way goes to those misses, and the line's waiters follow them
 * through the set, as a buffered eviction's do (replayed on the way, a
 * poller's re-load took it from the miss whose eviction freed it, again
 * and again). */
static bool queue_behind_set(struct cc_system *s, struct cc_cache *c, struct cc_line *cl)
{
    if (cl->state != CS_I || !cl->waiting || !c->set_waiting[set_of(s, cl->line)] || cl->replaying)
        return false;
    struct cc_req *r = take_waiters(cl);
    free_way(s, c, cl);
    start_again(s, c, r);
    return true;
}

static void after_cache_row(struct cc_system *s, struct cc_cache *c, struct cc_line *cl, int old)
{
    int now_st = cl->state;
    if (cache_transient(now_st) != cache_transient(old)) {
        s->transient_lines += cache_transient(now_st) ? 1 : (uint64_t)-1;
        /* per line too, so a methodology op can ask whether it is quiet in O(1) */
        cc_dir_get(s, cc_home_of(s, cl->line), cl->line)->transient_caches +=
            cache_transient(now_st) ? 1 : -1;
    }
    if (s->check && old != now_st)
        cc_check_states(s, cl->line);
    if (cc_state_readable(old) && !cc_state_readable(now_st)) {
        cc_l1_drop(s, c, cl->line);
        cc_fire_watches(s, c, cl->line);
    }
    if (cc_way_in_wb(c, cl) && !cache_transient(now_st)) {
        wb_leave(s, c, cl); /* the eviction is over */
        return;
    }
    if (queue_behind_set(s, c, cl))
        return;
    if (old != now_st && !cache_transient(now_st))
        replay_waiting(s, c, cl);
    if (cl->state == CS_I && !cl->waiting)
        free_way(s, c, cl);
    else if (cache_transient(old) && !cache_transient(now_st) &&
             c->set_waiting[set_of(s, cl->line)])
        /* a victim search waited for this line's transaction: it can choose now */
        retry_set(s, c, set_of(s, cl->line));
}

void cc_coh_observe(struct cc_system *s, cc_observer_fn fn, void *ctx)
{
    s->observer = fn;
    s->observer_ctx = ctx;
}

/* ------------------------------------------------------------ memory controllers */

/* The memory controller that serves a line: its home socket's (one of
 * them, by a hash of the line) where the controllers divide among the
 * sockets, else any of them (a memory hub the sockets share). */
static sim_time_t *channel_of(struct cc_system *s, uint64_t line)
{
    int sockets = s->p.sockets > 0 ? s->p.sockets : 1;
    uint64_t h = sim_rng_hash(1, line, 0);
    if (s->p.channels % sockets)
        return &s->channel_until[h % (uint64_t)s->p.channels];
    int per = s->p.channels / sockets;
    return &s->channel_until[cc_coh_home_socket(s, line) * per + (int)(h % (uint64_t)per)];
}

/* The line's controller moves it, from `from` on or when it is free:
 * when the transfer starts. */
static sim_time_t channel_take(struct cc_system *s, uint64_t line, sim_time_t from)
{
    sim_time_t *until = channel_of(s, line), start = *until > from ? *until : from;
    *until = start + s->p.channel_ps;
    return start;
}

/* A line's write to DRAM no one waits for: its controller's time. */
static void post_dram_write(struct cc_system *s, uint64_t line)
{
    if (s->p.channel_ps)
        channel_take(s, line, sim_now(s->k));
}

/* ------------------------------------------------------------ the LLC */

/* The first way of the LLC set a line falls in: a hash of its address of
 * its own (cc_home_node's, whose low bits pick the home, spreads the lines
 * of one home over a few sets only: consecutive lines of a 16-home
 * machine's first socket filled a quarter of its sets). */
static size_t llc_set(const struct cc_system *s, uint64_t line)
{
    return (size_t)(sim_rng_hash(0, line, 0) % s->p.llc_sets) * s->p.llc_ways;
}

/* A line that may leave the LLC without a core losing its copy (the LLC
 * does not back-invalidate): no core holds it, no transaction is on it. */
static bool llc_droppable(const struct cc_dir *d)
{
    return d->state == HS_I && d->transient_caches == 0 && !d->queue;
}

/* The way for a line coming into a full set: the least recently used line
 * no core holds, else (every line of the set held by a core) the least
 * recently used one, which leaves the LLC but not the cores. */
static size_t llc_victim(const struct cc_home *h, size_t set, unsigned ways)
{
    size_t best = set, any = set;
    bool found = false;
    for (size_t w = set; w < set + ways; w++) {
        if (h->llc_use[w] < h->llc_use[any])
            any = w;
        if (llc_droppable(h->llc[w]) && (!found || h->llc_use[w] < h->llc_use[best])) {
            best = w;
            found = true;
        }
    }
    return found ? best : any;
}

/* d's way in its set: the one it holds, else a free one, else end. */
static size_t llc_way_of(const struct cc_home *h, const struct cc_dir *d, size_t set, size_t end)
{
    size_t free_way = end;
    for (size_t w = set; w < end; w++) {
        if (h->llc[w] == d)
            return w;
        if (!h->llc[w] && free_way == end)
            free_way = w;
    }
    return free_way;
}

/* d's line is no longer in the LLC (its way is the caller's to free). */
static void llc_forget(struct cc_dir *d)
{
    d->in_llc = d->llc_dirty = false;
    d->llc_fill_at = 0;
}

/* A line leaves the LLC for another: a written-back copy goes to DRAM
 * (for a reset, outside the timing: at no cost, and not counted). */
static void llc_evict(struct cc_system *s, struct cc_dir *v, bool reset)
{
    s->llc_drop.dir = v;
    s->llc_drop.dirty = v->llc_dirty;
    if (!reset) {
        if (v->llc_dirty)
            post_dram_write(s, v->line);
        s->stats.llc_evictions++;
    }
    llc_forget(v);
}

/* The LLC reads d's line in (or uses it again): it holds it from now. */
static void llc_fill(struct cc_system *s, struct cc_dir *d, bool reset)
{
    d->in_llc = s->p.llc_ps != 0;
    if (!s->p.llc_sets || !d->in_llc)
        return;
    struct cc_home *h = d->home;
    size_t set = llc_set(s, d->line), end = set + s->p.llc_ways;
    size_t way = llc_way_of(h, d, set, end);
    if (way == end) { /* a full set: a line leaves for this one */
        way = llc_victim(h, set, s->p.llc_ways);
        llc_evict(s, h->llc[way], reset);
    }
    h->llc[way] = d;
    h->llc_use[way] = ++h->llc_tick;
}

void cc_llc_fill(struct cc_system *s, struct cc_dir *d)
{
    llc_fill(s, d, false);
}

void cc_llc_fill_reset(struct cc_system *s, struct cc_dir *d)
{
    llc_fill(s, d, true);
}

/* d's line leaves the LLC (the methodology's evict puts it in memory,
 * outside the timing). */
void cc_llc_drop(struct cc_system *s, struct cc_dir *d)
{
    llc_forget(d);
    if (!s->p.llc_sets)
        return;
    size_t set = llc_set(s, d->line);
    for (size_t w = set; w < set + s->p.llc_ways; w++)
        if (d->home->llc[w] == d)
            d->home->llc[w] = NULL;
}

/* ------------------------------------------------------------ observing */

/* What a row is measured against: the counters and the line before it. */
struct obs_mark {
    uint64_t memory_reads, llc_hits, llc_fill_waits, writebacks;
    bool data; /* obs_data holds the line's bytes */
    struct cc_dir_view dir;
};

static struct cc_dir_view dir_view(const struct cc_system *s, const struct cc_dir *d,
                                   const uint64_t *bits)
{
    return (struct cc_dir_view){d->owner, d->forwarder,  cc_sharer_count(s, d),
                                bits,     d->tx.pending, d->tx.gone};
}

/* Before a row's actions: the counters, the line's bytes (NULL: none worth
 * comparing) and, at a home, the directory entry. */
static void obs_begin(struct cc_system *s, struct obs_mark *mk, const uint8_t *data,
                      const struct cc_dir *d)
{
    s->obs_nsent = s->obs_total = 0;
    s->obs_fill_backoff = 0;
    s->llc_drop.dir = NULL;
    s->obs_bank_wait = s->obs_channel_wait = 0;
    s->obs_llc_writebacks = 0;
    mk->memory_reads = s->stats.memory_reads;
    mk->llc_hits = s->stats.llc_hits;
    mk->llc_fill_waits = s->stats.llc_fill_waits;
    mk->writebacks = s->stats.writebacks;
    mk->data = data != NULL;
    if (data)
        memcpy(s->obs_data, data, s->p.line_bytes);
    if (d) {
        memcpy(s->obs_bits, d->sharers, s->sharer_words * sizeof *d->sharers);
        mk->dir = dir_view(s, d, s->obs_bits);
    }
}

static void obs_message(struct cc_step *st, struct sim_msg *m)
{
    if (!m)
        return;
    st->msg_type = cc_msg_table_names[m->type];
    st->msg_gloss = cc_msg_docs[m->type];
    st->msg_sent = m->sent;
    st->msg_acks = m->acks;
    st->msg_first = !(m->flags & CC_FLAG_SEEN);
    m->flags |= CC_FLAG_SEEN;
}

/* After the actions: what the row did (row NULL: no row ran), to the observer. */
static void observe(struct cc_system *s, const struct cc_row *row, struct cc_step *st,
                    const struct obs_mark *mk, const uint8_t *data_after)
{
    st->time = sim_now(s->k);
    for (int i = 0; row && i < CC_MAX_ACTIONS && row->actions[i]; i++) {
        st->actions[i] = row->actions[i]->name;
        st->action_docs[i] = row->actions[i]->doc;
    }
    st->detailed = true;
    st->sent = s->obs_sent;
    st->nsent = s->obs_nsent;
    st->nsent_total = s->obs_total;
    st->memory_reads = (unsigned)(s->stats.memory_reads - mk->memory_reads);
    st->llc_reads = (unsigned)(s->stats.llc_hits - mk->llc_hits);
    st->llc_fill_waits = (unsigned)(s->stats.llc_fill_waits - mk->llc_fill_waits);
    st->writebacks = (unsigned)(s->stats.writebacks - mk->writebacks);
    st->fill_backoff_ps = s->obs_fill_backoff;
    st->llc_writebacks = s->obs_llc_writebacks;
    st->bank_wait_ps = s->obs_bank_wait;
    st->channel_wait_ps = s->obs_channel_wait;
    if (s->llc_drop.dir) {
        st->llc_drop = true;
        st->llc_dropped = s->llc_drop.dir->line;
        st->llc_dropped_held = !llc_droppable(s->llc_drop.dir);
        st->llc_dropped_dirty = s->llc_drop.dirty;
    }
    st->line_bytes = s->p.line_bytes;
    if (mk->data && data_after) {
        st->data_before = s->obs_data;
        st->data_after = data_after;
    }
    s->observer(s->observer_ctx, st);
}

static const char *cache_state_name(const struct cc_system *s, int st)
{
    (void)s;
    return cc_cache_state_names[st];
}

/* Whether a victim that a Replace row has just run on moves into a free
 * write-back buffer (wb_enter): its put is under way, and one is free. */
static bool wb_takes(const struct cc_system *s, const struct cc_cache *c, const struct cc_line *v)
{
    return v->valid && cache_transient(v->state) && c->wb_used < s->p.wb_entries;
}

static void observe_cache(struct cc_system *s, struct cc_cache *c, const struct cc_line *cl,
                          const struct cc_row *row, int from, const struct cc_ctx *ctx,
                          struct sim_msg *m, const struct obs_mark *mk)
{
    int ev = ctx->event;
    struct cc_step st = {.home = false,
                         .node = c->id,
                         .line = cl->line,
                         .from = cache_state_name(s, from),
                         .to = cache_state_name(s, cl->state),
                         .from_doc = cc_cache_state_docs[from],
                         .to_doc = cc_cache_state_docs[cl->state],
                         .event = cc_cache_event_names[ev],
                         .event_doc = cc_cache_event_docs[ev],
                         .msg_src = m ? m->src : -1,
                         .requester = m ? m->requester : -1,
                         .owner = -1,
                         .req = ctx->req && !ctx->req->prefetch ? ctx->req : NULL,
                         .for_req = ev == CE_Replace ? s->replace_for : NULL,
                         .to_wb = ev == CE_Replace && s->replace_for && wb_takes(s, c, cl),
                         .prefetch = ctx->req ? ctx->req->prefetch : CC_PF_NONE,
                         .prefetch_tag = ctx->req && ctx->req->prefetch ? ctx->req->tag : -1,
                         .stalled = ctx->stalled,
                         .performed = ctx->performed,
                         .acks_got = cl->acks_got,
                         .acks_need = cl->acks_need};
    obs_message(&st, m);
    observe(s, row, &st, mk, cl->data);
}

const char *cc_home_state_name(const struct cc_system *s, int st)
{
    const char *const *alias = s->proto->home.state_alias;
    return alias && alias[st] ? alias[st] : cc_home_state_names[st];
}

static void observe_home(struct cc_system *s, struct cc_home *h, struct cc_dir *d,
                         const struct cc_row *row, int from, const struct cc_ctx *ctx,
                         struct sim_msg *m, const struct obs_mark *mk)
{
    int ev = ctx->event;
    uint8_t pf = m ? (uint8_t)((m->flags & CC_FLAG_PREFETCH_MASK) >> CC_FLAG_PREFETCH_SHIFT) : 0;
    struct cc_step st = {.home = true,
                         .node = h->id,
                         .line = d->line,
                         .from = cc_home_state_name(s, from),
                         .to = cc_home_state_name(s, d->state),
                         .from_doc = cc_home_state_docs[from],
                         .to_doc = cc_home_state_docs[d->state],
                         .event = cc_home_event_names[ev],
                         .event_doc = cc_home_event_docs[ev],
                         .msg_src = m ? m->src : -1,
                         .requester = d->tx.requester,
                         .owner = d->owner,
                         .sharers = cc_sharer_count(s, d),
                         .prefetch = pf,
                         .prefetch_tag = -1,
                         .stalled = ctx->stalled,
                         .retry_ps = ctx->stalled ? s->p.home_retry_ps : 0,
                         .dir_before = mk->dir,
                         .dir_after = dir_view(s, d, d->sharers)};
    obs_message(&st, m);
    observe(s, row, &st, mk, d->memory);
}

static void run_cache(struct cc_system *s, struct cc_cache *c, struct cc_line *cl, int ev,
                      struct cc_req *r, struct sim_msg *m)
{
    int st = cl->state;
    const struct cc_row *row = s->cache_cell[st][ev];
    if (!row)
        no_row(s, "cache", c->id, cl->line, cc_cache_state_names[st], cc_cache_event_names[ev]);
    s->counters.cache[st][ev]++;
    struct cc_ctx ctx = {
        .sys = s, .cache = c, .cl = cl, .req = r, .msg = m, .line = cl->line, .event = ev};
    struct obs_mark mk;
    if (s->observer) /* a copy's bytes are worth comparing only while it is readable */
        obs_begin(s, &mk, cl->data && cc_state_readable(st) ? cl->data : NULL, NULL);
    for (int i = 0; i < CC_MAX_ACTIONS && row->actions[i]; i++)
        row->actions[i]->fn(&ctx);
    if (row->next != CC_SAME)
        cl->state = (uint8_t)row->next;
    if (s->observer)
        observe_cache(s, c, cl, row, st, &ctx, m, &mk);
    SIM_ASSERT(!r || ctx.stalled || ctx.performed || cache_transient(cl->state));
    after_cache_row(s, c, cl, st);
    if (ctx.performed && r->op == CC_FLUSH && cl->valid && !cache_transient(cl->state))
        run_cache(s, c, cl, CE_Replace, NULL, NULL); /* clflush: now it leaves */
}

/* Every request waiting for a way in the set tries again, the oldest first
 * (each allocates, or parks again, in the same order, and may start an
 * eviction). */
static void retry_set(struct cc_system *s, struct cc_cache *c, unsigned set)
{
    struct cc_req *waiting = c->set_waiting[set];
    c->set_waiting[set] = NULL;
    while (waiting) {
        struct cc_req *r = waiting;
        waiting = r->next;
        r->next = NULL;
        cc_process_request(s, c, r);
    }
}

/* ------------------------------------------------------------ write-back buffers */

/* A victim whose put is under way (cl, a way of its set) moves into a free
 * write-back buffer with its state, its data and its snoop order: the
 * buffer answers what reaches the line until the put is acknowledged, and
 * the way is free for the misses waiting in its set at once. (With none
 * free, the caller leaves the victim in its way, and they wait for it.) */
static void wb_enter(struct cc_system *s, struct cc_cache *c, struct cc_line *cl)
{
    unsigned i = 0;
    while (i < s->p.wb_entries && c->wb[i].valid)
        i++;
    SIM_ASSERT(i < s->p.wb_entries && !cl->waiting && cache_transient(cl->state));
    struct cc_line *e = &c->wb[i];
    *e = *cl;
    e->data = c->wb_data + (size_t)i * s->p.line_bytes;
    memcpy(e->data, cl->data, s->p.line_bytes);
    c->wb_used++;
    free_way(s, c, cl);
}

/* A buffered eviction is over (its line I in this cache): the buffer is
 * free, and the requests that met the line leaving (parked on it) start
 * again, in their order, each through its set as a miss does. */
static void wb_leave(struct cc_system *s, struct cc_cache *c, struct cc_line *cl)
{
    SIM_ASSERT(cl->state == CS_I);
    struct cc_req *r = take_waiters(cl);
    cc_way_free(c, cl);
    start_again(s, c, r);
}

static void free_way(struct cc_system *s, struct cc_cache *c, struct cc_line *cl)
{
    if (!cl->valid)
        return;
    cc_way_free(c, cl);
    retry_set(s, c, set_of(s, cl->line));
}

void cc_count_miss(struct cc_system *s, struct cc_req *r)
{
    if (r->counted || r->prefetch != CC_PF_NONE)
        return;
    r->counted = true;
    s->stats.misses++;
}

void cc_park_request(struct cc_system *s, struct cc_line *cl, struct cc_req *r)
{
    r->missed = true;
    if (!cl->waiting || cl->waiting->prefetch == CC_PF_NONE) /* a prefetch's line on its
                                                                 way is not a miss */
        cc_count_miss(s, r);
    r->next = NULL;
    if (cl->replaying) { /* keep its place at the head */
        r->next = cl->waiting;
        cl->waiting = r;
        if (!cl->waiting_tail)
            cl->waiting_tail = r;
        return;
    }
    if (cl->waiting_tail)
        cl->waiting_tail->next = r;
    else
        cl->waiting = r;
    cl->waiting_tail = r;
}

/* A row parked a request and left its line stable: nothing will move the
 * line, so the replay below would run the row forever (a table's error,
 * such as a mutant's: `ccsim verify` finds it too). */
static _Noreturn void parked_on_stable(struct cc_system *s, struct cc_cache *c,
                                       const struct cc_line *cl, const struct cc_req *r)
{
    table_error(s,
                ": cache %d parks a %s of line 0x%llx in the stable state %s, so it would be "
                "replayed forever (a stall row must leave the line transient; ",
                c->id, cc_op_reads(r->op) ? "read" : "write", (unsigned long long)cl->line,
                cc_cache_state_names[cl->state]);
}

static void replay_waiting(struct cc_system *s, struct cc_cache *c, struct cc_line *cl)
{
    if (cl->replaying)
        return;
    cl->replaying = true;
    while (cl->waiting && !cache_transient(cl->state) && cl->valid) {
        struct cc_req *r = cl->waiting;
        cl->waiting = r->next;
        if (!cl->waiting)
            cl->waiting_tail = NULL;
        r->next = NULL;
        run_cache(s, c, cl, cc_op_reads(r->op) ? CE_Load : CE_Store, r, NULL);
        if (cl->waiting_tail == r && cl->valid && !cache_transient(cl->state))
            parked_on_stable(s, c, cl, r);
    }
    cl->replaying = false;
}

/* The least recently used stable line of a set, or NULL. */
static struct cc_line *victim_of(struct cc_system *s, struct cc_cache *c, unsigned set)
{
    struct cc_line *ways = &c->lines[(size_t)set * s->p.ways], *best = NULL;
    for (unsigned w = 0; w < s->p.ways; w++) {
        struct cc_line *cl = &ways[w];
        if (cache_transient(cl->state) && cl->valid)
            return NULL; /* an eviction is already under way: wait for it */
        if (cl->valid && !cl->waiting && (!best || cl->lru < best->lru))
            best = cl;
    }
    return best;
}

static struct cc_line *allocate(struct cc_system *s, struct cc_cache *c, uint64_t line)
{
    struct cc_line *ways = &c->lines[(size_t)set_of(s, line) * s->p.ways];
    for (unsigned w = 0; w < s->p.ways; w++) {
        if (!ways[w].valid) {
            struct cc_line *cl = &ways[w];
            cc_way_fill(c, cl, line);
            cl->state = CS_I;
            cl->waiting = cl->waiting_tail = NULL;
            cl->snoop_until = 0;
            return cl;
        }
    }
    return NULL;
}

/* r waits for a way of the full set: behind the requests that waited
 * before it, as a cache's misses are served in order (a newest-first list
 * let a poller's re-loads take every way that freed while an older add
 * waited for ever). A set's waiters are few: the list is walked. */
static void park_on_set(struct cc_cache *c, unsigned set, struct cc_req *r)
{
    struct cc_req **at = &c->set_waiting[set];
    while (*at)
        at = &(*at)->next;
    r->next = NULL;
    *at = r;
}

void cc_process_request(struct cc_system *s, struct cc_cache *c, struct cc_req *r)
{
    struct cc_line *cl = cache_find(s, c, r->line);
    if (!cl)
        cl = allocate(s, c, r->line);
    if (!cl) {
        unsigned set = set_of(s, r->line);
        r->missed = true;
        cc_count_miss(s, r);
        park_on_set(c, set, r);
        struct cc_line *v = victim_of(s, c, set);
        if (v) {
            s->replace_for = r;
            run_cache(s, c, v, CE_Replace, NULL, NULL);
            s->replace_for = NULL;
            if (wb_takes(s, c, v))
                wb_enter(s, c, v); /* as the observer was told (cc_step.to_wb) */
        }
        return;
    }
    run_cache(s, c, cl, cc_op_reads(r->op) ? CE_Load : CE_Store, r, NULL);
}

void cc_coh_access(struct cc_system *s, struct cc_req *r)
{
    SIM_ASSERT(r->core >= 0 && r->core < s->p.cores);
    SIM_ASSERT(r->word < s->p.line_bytes / 8);
    if (cc_op_reads(r->op))
        s->stats.loads++;
    else if (r->op == CC_STORE || r->op == CC_STORE_LINE || r->op == CC_ADD_LINE ||
             r->op == CC_FLUSH)
        s->stats.stores++;
    else
        s->stats.atomics++;
    r->from_writer = false;
    r->missed = false;
    r->asked = false;
    r->counted = false;
    r->prefetch = CC_PF_NONE;
    r->next = NULL;
    struct cc_cache *c = &s->caches[cc_cache_of_core(s, r->core)];
    /* a store, an atomic or a line op that writes: the line is fetched to write */
    bool rfo = !cc_op_reads(r->op) && r->op != CC_FLUSH;
    bool trains = (c->streams || s->p.prefetch_next || s->p.prefetch_pair) && r->vline &&
                  s->line_map && (cc_op_reads(r->op) || (rfo && s->p.prefetch_rfo));
    /* the coherent level's prefetchers see what reaches it: not what the
     * core's L1 answered (a write-through L1 answers no store) */
    bool in_l1 = trains && cc_l1_holds(s, c, r->core, r->line) && !(rfo && s->p.l1_write_through);
    cc_process_request(s, c, r);
    if (trains && (r->missed || !in_l1)) /* r is answered by an event, later: its fields hold */
        cc_prefetch_observe(s, c, r->core, r->vline, rfo, r->missed);
}

int cc_cache_event_of(int type)
{
    switch (type) {
    case M_DATA_S:
        return CE_Data_S;
    case M_DATA_E:
        return CE_Data_E;
    case M_DATA_M:
        return CE_Data_M;
    case M_DATA_F:
        return CE_Data_F;
    case M_GRANT:
        return CE_Grant;
    case M_INV:
        return CE_Inv;
    case M_INV_R:
        return CE_Inv_R;
    case M_INV_ACK:
        return CE_Inv_Ack;
    case M_FWD_GETS:
        return CE_Fwd_GetS;
    case M_FWD_GETX:
        return CE_Fwd_GetX;
    case M_PUT_ACK:
        return CE_Put_Ack;
    case M_PROBE:
        return CE_Probe;
    default:
        return -1;
    }
}

/* Data, grants and acks where the requester collects invalidation acks:
 * data or a grant that says more acks are due than are in is Data_A or
 * Grant_A, the ack that completes the count they gave is Last_Ack
 * (murphi.c's cache_event mirrors it). */
int cc_cache_event_counted(int ev, int acks, const struct cc_line *cl)
{
    if (ev == CE_Data_M && acks > cl->acks_got)
        return CE_Data_A;
    if (ev == CE_Grant && acks > cl->acks_got)
        return CE_Grant_A;
    bool awaiting = cl->state == CS_IM_A || cl->state == CS_SM_A;
    if (ev == CE_Inv_Ack && awaiting && cl->acks_got + 1 == cl->acks_need)
        return CE_Last_Ack;
    return ev;
}

static void cache_handle(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct cc_cache *c = obj;
    struct sim_msg *m = (struct sim_msg *)(uintptr_t)arg;
    struct cc_system *s = c->sys;
    (void)k;
    int ev = cc_cache_event_of(m->type);
    if (ev < 0)
        no_row(s, "cache", c->id, m->line, "-", cc_msg_table_names[m->type]);
    struct cc_line *cl = cache_find(s, c, m->line);
    struct cc_line ghost = {.line = m->line, .state = CS_I};
    if (!cl) /* no way holds it: the row for state I decides (usually: no row) */
        cl = &ghost;
    run_cache(s, c, cl, cc_cache_event_counted(ev, m->acks, cl), NULL, m);
    SIM_ASSERT(cl != &ghost || ghost.state == CS_I);
    sim_msg_free(&s->msgs, m);
}

/* When a forwarded request that could start at `start` starts: the cache
 * answers them one at a time, whatever the line (fwd_port_cycles each;
 * with fwd_port_writes_only, only those to write take turns). */
static sim_time_t fwd_port_start(struct cc_system *s, struct cc_cache *c, sim_time_t start)
{
    if (start < c->fwd_port_until)
        start = c->fwd_port_until;
    c->fwd_port_until = start + (sim_time_t)s->p.fwd_port_cycles * s->p.clock.period_ps;
    return start;
}

/* Snoops take snoop_cycles. A cache takes the snoops of one line in order,
 * and a forwarded request reads the line out of the data array for
 * fwd_busy_cycles (default: a hit's) before the next snoop of that line starts (same-address
 * requests serialise in a cache controller; other lines pipeline, one
 * forward every fwd_port_cycles where that is set): forwards of a shared line to its
 * supplier queue there, which is where contention on one line emerges. Invalidations and probes use
 * the tags only. */
static void cache_deliver(struct sim_kernel *k, void *node, struct sim_msg *m)
{
    struct cc_cache *c = node;
    struct cc_system *s = c->sys;
    bool forward = m->type == M_FWD_GETS || m->type == M_FWD_GETX;
    bool snoop = forward || m->type == M_INV || m->type == M_INV_R || m->type == M_PROBE;
    sim_time_t start = sim_now(k);
    struct cc_line *cl = snoop ? cache_find(s, c, m->line) : NULL;
    if (cl) {
        start = sim_clock_edge(s->p.clock, start > cl->snoop_until ? start : cl->snoop_until);
        if (forward && s->p.fwd_port_cycles &&
            (m->type == M_FWD_GETX || !s->p.fwd_port_writes_only))
            start = fwd_port_start(s, c, start);
        cl->snoop_until =
            start + (forward ? (sim_time_t)s->p.fwd_busy_cycles * s->p.clock.period_ps : 0);
    }
    if (snoop && (s->p.snoop_cycles || start > sim_now(k)))
        sim_schedule_at(k, sim_clock_after(s->p.clock, start, s->p.snoop_cycles), cache_handle, c,
                        (uint64_t)(uintptr_t)m);
    else
        cache_handle(k, c, (uint64_t)(uintptr_t)m);
}

/* ------------------------------------------------------------ home side */

int cc_home_event_for(int type, const struct cc_sender *w)
{
    switch (type) {
    case M_GETS:
        return HE_GetS;
    case M_GETX:
        return (w->sharer || w->owner) ? HE_Upgrade : HE_GetX;
    case M_PUTS:
        if (!w->sharer)
            return HE_Put_Stale;
        if (w->sharers == 1 && !w->any_owner)
            return HE_PutS_Last;
        return w->forwarder ? HE_PutF : HE_PutS;
    case M_PUTX:
        if (!w->owner)
            return HE_Put_Stale;
        return w->sharers == 0 ? HE_PutX_Last : HE_PutX;
    case M_INV_ACK:
        return HE_Inv_Ack;
    case M_FWD_ACK:
        return HE_Fwd_Ack;
    case M_FWD_ACK_DATA:
        return HE_Fwd_Ack_Data;
    case M_FWD_ACK_OWNED:
        return HE_Fwd_Ack_Owned;
    case M_FWD_ACK_DIRTY:
        return HE_Fwd_Ack_Dirty;
    case M_UNBLOCK:
        return HE_Unblock;
    case M_PROBE_ACK:
        return HE_Probe_Ack;
    default:
        return -1;
    }
}

static int home_event_of(struct cc_system *s, struct cc_dir *d, struct sim_msg *m)
{
    int src = m->src;
    struct cc_sender w = {.sharer = src >= 0 && src < s->ncaches && cc_is_sharer(s, d, src),
                          .owner = d->owner == src,
                          .forwarder = d->forwarder == src,
                          .any_owner = d->owner >= 0,
                          .sharers = cc_sharer_count(s, d)};
    return cc_home_event_for(m->type, &w);
}

/* home_event_of in Murphi, for the model murphi.c writes: keep the two alike. */
const char cc_murphi_home_event[] =
    "function home_event(m: Msg): HEvent;\n"
    "var sharer: boolean; n: 0..NC; others: 0..NC;\n"
    "begin\n"
    "  sharer := D[m.ln].sharer[m.src];\n"
    "  n := 0;\n"
    "  for k: Cache do if D[m.ln].sharer[k] then n := n + 1; endif; end;\n"
    "  others := n - (sharer ? 1 : 0);\n"
    "  switch m.t\n"
    "  case M_GETS: return HE_GetS;\n"
    "  case M_GETX:\n"
    "    if sharer | is(D[m.ln].owner, m.src) then return HE_Upgrade; endif;\n"
    "    return HE_GetX;\n"
    "  case M_PUTS:\n"
    "    if !sharer then return HE_Put_Stale; endif;\n"
    "    if others = 0 & isundefined(D[m.ln].owner) then return HE_PutS_Last; endif;\n"
    "    if is(D[m.ln].fwd, m.src) then return HE_PutF; endif;\n"
    "    return HE_PutS;\n"
    "  case M_PUTX:\n"
    "    if !is(D[m.ln].owner, m.src) then return HE_Put_Stale; endif;\n"
    "    if n = 0 then return HE_PutX_Last; endif;\n"
    "    return HE_PutX;\n"
    "  case M_INV_ACK: return HE_Inv_Ack;\n"
    "  case M_FWD_ACK: return HE_Fwd_Ack;\n"
    "  case M_FWD_ACK_DATA: return HE_Fwd_Ack_Data;\n"
    "  case M_FWD_ACK_OWNED: return HE_Fwd_Ack_Owned;\n"
    "  case M_FWD_ACK_DIRTY: return HE_Fwd_Ack_Dirty;\n"
    "  case M_UNBLOCK: return HE_Unblock;\n"
    "  case M_PROBE_ACK: return HE_Probe_Ack;\n"
    "  else error \"the home got a message it has no event for\";\n"
    "  endswitch;\n"
    "  return HE_Done;\n"
    "end;\n\n";

static void drain_queue(struct cc_system *s, struct cc_home *h, struct cc_dir *d);
static void readmit_queue(struct cc_system *s, struct cc_home *h, struct cc_dir *d);

static void run_home(struct cc_system *s, struct cc_home *h, struct cc_dir *d, int ev,
                     struct sim_msg *m)
{
    for (;;) {
        int st = d->state;
        const struct cc_row *row = s->home_cell[st][ev];
        if (!row)
            no_row(s, "home", h->id, d->line, cc_home_state_name(s, st), cc_home_event_names[ev]);
        s->counters.home[st][ev]++;
        struct cc_ctx ctx = {.sys = s, .home = h, .dir = d, .msg = m, .line = d->line, .event = ev};
        struct obs_mark mk;
        if (s->observer)
            obs_begin(s, &mk, d->memory, d);
        for (int i = 0; i < CC_MAX_ACTIONS && row->actions[i]; i++)
            row->actions[i]->fn(&ctx);
        if (row->next != CC_SAME)
            d->state = (uint8_t)row->next;
        if (s->observer)
            observe_home(s, h, d, row, st, &ctx, m, &mk);
        SIM_ASSERT(d->tx.pending >= 0);
        SIM_ASSERT(!home_transient(d->state) || d->tx.requester >= 0);
        SIM_ASSERT(!ctx.stalled || is_request_event(ev));
        if (m && !ctx.stalled)
            sim_msg_free(&s->msgs, m);
        m = NULL;
        if (home_transient(d->state) && d->tx.pending == 0 && ev != HE_Done) {
            ev = HE_Done; /* every awaited answer is in */
            continue;
        }
        break;
    }
    if (!home_transient(d->state)) {
        d->tx.requester = -1;
        d->tx.acks = 0;
        d->flight_valid = false; /* the requester holds what was in flight */
        drain_queue(s, h, d);
    } else
        readmit_queue(s, h, d);
}

static void home_handle_msg(struct cc_system *s, struct cc_home *h, struct sim_msg *m)
{
    struct cc_dir *d = cc_dir_get(s, h, m->line);
    int ev = home_event_of(s, d, m);
    if (ev < 0)
        no_row(s, "home", h->id, m->line, cc_home_state_name(s, d->state),
               cc_msg_table_names[m->type]);
    run_home(s, h, d, ev, m);
}

static void home_deliver(struct sim_kernel *k, void *node, struct sim_msg *m);

/* A transient state that takes some requests (GOLS reads joining GG_N):
 * the parked ones at the head of the queue that it takes go back through
 * the home's input server, in order, paying its occupancy again. */
static void readmit_queue(struct cc_system *s, struct cc_home *h, struct cc_dir *d)
{
    while (d->queue) {
        struct sim_msg *m = d->queue;
        int ev = home_event_of(s, d, m);
        const struct cc_row *row = ev >= 0 ? s->home_cell[d->state][ev] : NULL;
        bool stalls = !row;
        for (int i = 0; row && i < CC_MAX_ACTIONS && row->actions[i]; i++)
            stalls |= row->actions[i] == &hc_act_stall;
        if (stalls)
            return;
        d->queue = m->next;
        if (!d->queue)
            d->queue_tail = NULL;
        m->next = NULL;
        home_deliver(s->k, h, m);
    }
}

static void drain_queue(struct cc_system *s, struct cc_home *h, struct cc_dir *d)
{
    if (d->draining)
        return;
    d->draining = true;
    while (d->queue && !home_transient(d->state)) {
        struct sim_msg *m = d->queue;
        d->queue = m->next;
        if (!d->queue)
            d->queue_tail = NULL;
        m->next = NULL;
        home_handle_msg(s, h, m);
    }
    d->draining = false;
}

static void home_retry(struct sim_kernel *k, void *obj, uint64_t arg)
{
    home_deliver(k, obj, (struct sim_msg *)(uintptr_t)arg);
}

/* A request for a busy line waits in the line's queue (served in arrival
 * order when the line is quiet) or, with home_retry_ps, is refused and
 * comes back through the home's input after that long (ring-based
 * homes retry a request that meets a busy address: the first retry after
 * the line is free wins, whoever sent it first). */
void cc_park_message(struct cc_dir *d, struct sim_msg *m)
{
    struct cc_system *s = d->home->sys;
    if (s->p.home_retry_ps) {
        sim_schedule(s->k, s->p.home_retry_ps, home_retry, d->home, (uint64_t)(uintptr_t)m);
        return;
    }
    m->next = NULL;
    if (d->queue_tail)
        d->queue_tail->next = m;
    else
        d->queue = m;
    d->queue_tail = m;
}

static void home_handle(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct cc_home *h = obj;
    (void)k;
    struct sim_msg *m = (struct sim_msg *)(uintptr_t)arg;
    h->arriving = m;
    home_handle_msg(h->sys, h, m);
    h->arriving = NULL;
}

/* Every message waits for the home's input server, then takes
 * occupancy + lookup cycles before its row runs. */
static void home_deliver(struct sim_kernel *k, void *node, struct sim_msg *m)
{
    struct cc_home *h = node;
    struct cc_system *s = h->sys;
    /* busy_until is on an edge (a start plus whole cycles): the later of it and the
     * next edge is when the input takes m; the wait for the edge is not queueing */
    sim_time_t edge = sim_clock_edge(s->p.clock, sim_now(k));
    sim_time_t start = h->busy_until > edge ? h->busy_until : edge;
    s->stats.home_queue_ps += start - edge;
    h->busy_until = start + s->p.home_occupancy_cycles * s->p.clock.period_ps;
    sim_time_t at =
        start + (s->p.home_occupancy_cycles + s->p.home_lookup_cycles) * s->p.clock.period_ps;
    sim_schedule_at(k, at, home_handle, h, (uint64_t)(uintptr_t)m);
}

/* Memory: a read or write at the home takes memory_ps; then Mem_Data or
 * Mem_Ack is raised on the line. */
static void memory_done(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct cc_dir *d = obj;
    (void)k;
    d->home->sys->memory_pending--;
    struct cc_home *h = d->home;
    run_home(h->sys, h, d, (int)(arg & 0xff), NULL);
}

/* The wait for the line's DRAM bank, then for its controller: a bank
 * serves one access at a time (bank_busy_ps: the row cycle of a
 * closed-page controller), so accesses to one line queue there; a
 * controller moves one line every channel_ps (its bandwidth), so accesses
 * to many lines queue there. Both waits are counted as home queueing. */
static sim_time_t memory_wait(struct cc_system *s, struct cc_dir *d)
{
    sim_time_t now = sim_now(s->k), start = now;
    if (s->p.bank_busy_ps) {
        start = d->bank_until > now ? d->bank_until : now;
        d->bank_until = start + s->p.bank_busy_ps;
    }
    s->obs_bank_wait += start - now;
    if (s->p.channel_ps) {
        sim_time_t banked = start;
        start = channel_take(s, d->line, banked);
        s->obs_channel_wait += start - banked;
    }
    s->stats.home_queue_ps += start - now;
    return start - now;
}

/* A write-back no one waits for: the home's LLC takes it where it holds
 * the line (and writes it to DRAM when it drops the line, cc_llc_fill),
 * else it goes to DRAM, taking its controller's time all the same. */
void cc_post_memory_write(struct cc_system *s, struct cc_dir *d)
{
    if (s->p.llc_ps && d->in_llc) {
        d->llc_dirty = true;
        s->obs_llc_writebacks++;
    } else {
        post_dram_write(s, d->line);
    }
}

/* How long a read at the home takes: from its LLC if it has one and the
 * line is there (an unbounded LLC keeps every line once read, until the
 * methodology's evict puts it back in memory; a bounded one until a line
 * of its set takes its way, cc_llc_fill), else from
 * memory, after the line's bank is free. A read that finds the LLC's own
 * read of the line from memory still under way gets the line when it
 * comes (the LLC's miss is outstanding; the line is not there before). */
static sim_time_t read_time(struct cc_system *s, struct cc_dir *d, sim_time_t early)
{
    sim_time_t now = sim_now(s->k);
    sim_time_t t = s->p.memory_ps - (early < s->p.memory_ps ? early : s->p.memory_ps);
    if (s->p.llc_ps && d->in_llc && d->llc_fill_at > now + s->p.llc_ps) {
        t = d->llc_fill_at - now;
        s->stats.llc_fill_waits++;
    } else if (s->p.llc_ps && d->in_llc) {
        t = s->p.llc_ps;
        s->stats.llc_hits++;
    } else {
        t += memory_wait(s, d);
        s->stats.memory_reads++;
        d->llc_fill_at = now + t;
    }
    cc_llc_fill(s, d);
    return t;
}

/* How much earlier than its row a read started: with remote_early_read, a
 * request from another socket, its row driven by its own arrival, started
 * the read at the home agent on arrival, in parallel with the lookup (a
 * local request's read waits for its LLC slice to miss). */
static sim_time_t early_read_ps(const struct cc_ctx *c)
{
    const struct cc_system *s = c->sys;
    const struct sim_msg *m = c->msg;
    if (!s->p.remote_early_read || !m || m != c->home->arriving || m->src >= s->ncaches)
        return 0;
    int sockets = s->p.sockets > 0 ? s->p.sockets : 1;
    if (m->src / (s->ncaches / sockets) == cc_coh_home_socket(s, c->line))
        return 0;
    return (sim_time_t)s->p.home_lookup_cycles * s->p.clock.period_ps;
}

void cc_read_memory(struct cc_ctx *c)
{
    struct cc_system *s = c->sys;
    c->dir->tx.pending++;
    s->memory_pending++;
    sim_time_t t = read_time(s, c->dir, early_read_ps(c));
    c->dir->fill_until = sim_now(s->k) + t; /* the reads that join it meet it until then */
    sim_schedule(s->k, t, memory_done, c->dir, HE_Mem_Data);
}

/* What memory did outside any row, to the observer: its answer to a
 * reader that joined (memory_for_reader, from memory or the LLC), or a
 * refused read tried again (MEM_RETRY; msg_src: the reader). The steps
 * have names no table has, and no actions. */
static void observe_memory(struct cc_system *s, struct cc_dir *d, int reader,
                           const struct obs_mark *mk, bool retry)
{
    const char *state = cc_home_state_name(s, d->state);
    struct cc_step st = {.home = true,
                         .node = d->home->id,
                         .line = d->line,
                         .from = state,
                         .to = state,
                         .from_doc = cc_home_state_docs[d->state],
                         .to_doc = cc_home_state_docs[d->state],
                         .event = retry ? "Mem_Retry" : "Mem_Supply",
                         .event_doc =
                             retry ? "a read memory refused while the line's fill was under way is "
                                     "tried again (memory.fill_conflict_ns; no row)"
                                   : "memory or the LLC answered a reader that joined "
                                     "(share_read_memory; no row)",
                         .msg_src = retry ? reader : -1,
                         .requester = reader,
                         .owner = d->owner,
                         .sharers = cc_sharer_count(s, d),
                         .dir_before = mk->dir,
                         .dir_after = dir_view(s, d, d->sharers)};
    observe(s, NULL, &st, mk, retry ? NULL : d->memory);
}

static void supply_read(struct cc_system *s, struct cc_dir *d, int reader);

#define MEM_RETRY (1ull << 32) /* memory_for_reader: a refused read tried again */

/* Memory's event for a reader that joined the line's fill (arg: the
 * reader, | MEM_RETRY for a try): its answer, the line as Data_S, or
 * another try of a read it refused (supply_read). */
static void memory_for_reader(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct cc_dir *d = obj;
    struct cc_system *s = d->home->sys;
    int reader = (int)(arg & 0xffffffffu);
    bool retry = (arg & MEM_RETRY) != 0;
    (void)k;
    s->memory_pending--;
    struct obs_mark mk;
    if (s->observer)
        obs_begin(s, &mk, retry ? NULL : d->memory, d);
    if (retry)
        supply_read(s, d, reader);
    else
        cc_send(s, M_DATA_S, d->home->id, reader, d->line, reader, d->memory, 0);
    if (s->observer)
        observe_memory(s, d, reader, &mk, retry);
}

/* A read for a reader that joined the line's fill (share_read_memory)
 * meets the fill still under way (fill_conflict_ps): memory refuses it and
 * it is tried again after a random backoff, uniform in 0..fill_conflict_ps,
 * until the fill is back; then it queues at the line's bank as any read.
 * The backoff keeps memory_pending up: something is still to happen. */
static void supply_read(struct cc_system *s, struct cc_dir *d, int reader)
{
    s->memory_pending++;
    if (s->p.fill_conflict_ps && d->fill_until > sim_now(s->k)) {
        sim_time_t backoff = (sim_time_t)sim_rng_below(&s->fill_rng, s->p.fill_conflict_ps + 1);
        s->stats.fill_conflicts++;
        s->obs_fill_backoff = backoff;
        sim_schedule(s->k, backoff, memory_for_reader, d, (uint64_t)reader | MEM_RETRY);
        return;
    }
    sim_schedule(s->k, read_time(s, d, 0), memory_for_reader, d, (uint64_t)reader);
}

void cc_supply_from_memory(struct cc_ctx *c, int reader)
{
    supply_read(c->sys, c->dir, reader);
}

void cc_write_memory_event(struct cc_ctx *c)
{
    struct cc_system *s = c->sys;
    c->dir->llc_dirty = false; /* DRAM has the line now: the LLC's copy is clean */
    c->dir->tx.pending++;
    s->memory_pending++;
    sim_schedule(s->k, s->p.memory_ps + memory_wait(s, c->dir), memory_done, c->dir, HE_Mem_Ack);
}

/* ------------------------------------------------------------ lifecycle */

struct cc_system *cc_create(struct sim_kernel *k, struct net *net, const struct cc_params *p)
{
    struct cc_system *s = cc_system_new(k, net, p, &cc_coherent_backend, NULL);
    s->proto = p->protocol;
    SIM_ASSERT(p->sets > 0 && (p->sets & (p->sets - 1)) == 0 && p->ways > 0);
    SIM_ASSERT(p->line_bytes >= 16 && p->line_bytes <= SIM_MAX_LINE_BYTES);
    SIM_ASSERT(p->cores > 0 && p->homes > 0);
    char overlap[160];
    if (!cc_protocol_rows_disjoint(s->proto, overlap, sizeof overlap))
        sim_panic("protocol %s: two rows for one (state, event): %s", s->proto->name, overlap);
    expand_table(&s->proto->cache, &s->cache_cell[0][0], CS_COUNT, CE_COUNT);
    expand_table(&s->proto->home, &s->home_cell[0][0], HS_COUNT, HE_COUNT);
    SIM_ASSERT(p->cores % s->p.cores_per_cache == 0);
    s->ncaches = p->cores / s->p.cores_per_cache;
    sim_rng_init(&s->fill_rng, p->seed, 0x66696c6c /* "fill" */);
    s->sharer_words = ((size_t)s->ncaches + 63) / 64;
    s->obs_bits = sim_xcalloc(s->sharer_words, sizeof *s->obs_bits);
    s->caches = sim_xcalloc((size_t)s->ncaches, sizeof *s->caches);
    size_t nlines = (size_t)p->sets * p->ways;
    size_t l1_tags = (size_t)p->l1_sets * p->l1_ways * (size_t)s->p.cores_per_cache;
    for (int i = 0; i < s->ncaches; i++) {
        struct cc_cache *c = &s->caches[i];
        c->id = i;
        c->sys = s;
        c->lines = sim_xzeroed(nlines, sizeof *c->lines);
        c->tags = sim_xzeroed(nlines, sizeof *c->tags);
        c->data = sim_xzeroed(nlines, p->line_bytes);
        c->set_waiting = sim_xcalloc(p->sets, sizeof *c->set_waiting);
        if (p->banks)
            c->bank_until = sim_xcalloc(p->banks, sizeof *c->bank_until);
        if (p->prefetch_streams)
            c->streams = sim_xcalloc(p->prefetch_streams, sizeof *c->streams);
        if (p->wb_entries) {
            c->wb = sim_xcalloc(p->wb_entries, sizeof *c->wb);
            c->wb_data = sim_xcalloc(p->wb_entries, p->line_bytes);
        }
        if (p->l1_sets && p->l1_ways) {
            c->l1_tags = sim_xcalloc(l1_tags, sizeof *c->l1_tags);
            c->l1_lru = sim_xcalloc(l1_tags, sizeof *c->l1_lru);
        }
        net_attach(net, i, cache_deliver, c);
    }
    if (p->channels)
        s->channel_until = sim_xcalloc((size_t)p->channels, sizeof *s->channel_until);
    s->homes = sim_xcalloc((size_t)p->homes, sizeof *s->homes);
    for (int i = 0; i < p->homes; i++) {
        struct cc_home *h = &s->homes[i];
        h->id = p->first_home_node + i;
        h->index = i;
        h->sys = s;
        sim_map_init(&h->dirs);
        if (p->llc_sets) {
            size_t ways = (size_t)p->llc_sets * p->llc_ways;
            h->llc = sim_xzeroed(ways, sizeof *h->llc);
            h->llc_use = sim_xzeroed(ways, sizeof *h->llc_use);
        }
        net_attach(net, h->id, home_deliver, h);
    }
    sim_map_init(&s->shadow);
    return s;
}

static void free_dir(uint64_t key, void *val, void *ctx)
{
    struct cc_dir *d = val;
    struct cc_system *s = ctx;
    (void)key;
    while (d->queue) {
        struct sim_msg *m = d->queue;
        d->queue = m->next;
        sim_msg_free(&s->msgs, m);
    }
    free(d->sharers);
    free(d->memory);
    free(d->flight);
    free(d);
}

static void free_bytes(uint64_t key, void *val, void *ctx)
{
    (void)key;
    (void)ctx;
    free(val);
}

void cc_coh_destroy(struct cc_system *s)
{
    for (int i = 0; i < s->ncaches; i++) {
        struct cc_cache *c = &s->caches[i];
        while (c->watches) {
            struct cc_watch *w = c->watches;
            c->watches = w->next;
            free(w);
        }
        size_t nlines = (size_t)s->p.sets * s->p.ways;
        sim_free_zeroed(c->lines, nlines, sizeof *c->lines);
        sim_free_zeroed(c->tags, nlines, sizeof *c->tags);
        sim_free_zeroed(c->data, nlines, s->p.line_bytes);
        free(c->set_waiting);
        free(c->bank_until);
        free(c->l1_tags);
        free(c->l1_lru);
        free(c->streams);
        free(c->wb);
        free(c->wb_data);
    }
    cc_prefetch_free(s);
    for (int i = 0; i < s->p.homes; i++) {
        sim_map_each(&s->homes[i].dirs, free_dir, s);
        sim_map_destroy(&s->homes[i].dirs);
        if (s->p.llc_sets) {
            size_t ways = (size_t)s->p.llc_sets * s->p.llc_ways;
            sim_free_zeroed(s->homes[i].llc, ways, sizeof *s->homes[i].llc);
            sim_free_zeroed(s->homes[i].llc_use, ways, sizeof *s->homes[i].llc_use);
        }
    }
    free(s->channel_until);
    free(s->dir_of);
    sim_map_each(&s->shadow, free_bytes, NULL);
    sim_map_destroy(&s->shadow);
    sim_msg_pool_destroy(&s->msgs);
    free(s->obs_bits);
    free(s->caches);
    free(s->homes);
}
