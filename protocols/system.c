/*
 * system.c -- the coherence protocols' list, statistics and reports,
 * watches, the methodology operations (zero-cost evict and prime), and the
 * public cc_ functions, which call through the system's backend
 * (backend.h).
 */
#include "cc_internal.h"

#include <stdlib.h>
#include <string.h>

static const struct cc_protocol *const protocols[] = {&cc_msi,       &cc_mesi,  &cc_mesif,
                                                      &cc_mesif_llc, &cc_moesi, &cc_gols};
const char *const cc_built_protocols[] = {"msi",   "mesi", "mesif", "mesif-llc",
                                          "moesi", "gols", NULL};

const struct cc_protocol *cc_protocol_find(const char *name)
{
    for (size_t i = 0; i < SIM_COUNT_OF(protocols); i++)
        if (strcmp(protocols[i]->name, name) == 0)
            return protocols[i];
    return NULL;
}

const char *cc_protocol_summary(const struct cc_protocol *p)
{
    return p->summary;
}

/* ------------------------------------------------------------ statistics */

static void coh_get_stats(const struct cc_system *s, struct cc_stats *out)
{
    *out = s->stats;
}

static void coh_print_row_counters(const struct cc_system *s, FILE *f)
{
    fprintf(f, "cache rows (state, event: times)\n");
    for (int st = 0; st < CS_COUNT; st++)
        for (int ev = 0; ev < CE_COUNT; ev++)
            if (s->counters.cache[st][ev])
                fprintf(f, "  %-5s %-9s %llu\n", cc_cache_state_names[st], cc_cache_event_names[ev],
                        (unsigned long long)s->counters.cache[st][ev]);
    fprintf(f, "home rows (state, event: times)\n");
    for (int st = 0; st < HS_COUNT; st++)
        for (int ev = 0; ev < HE_COUNT; ev++)
            if (s->counters.home[st][ev])
                fprintf(f, "  %-5s %-13s %llu\n", cc_home_state_name(s, st),
                        cc_home_event_names[ev], (unsigned long long)s->counters.home[st][ev]);
    fprintf(f, "unexpected %llu\n", (unsigned long long)s->stats.unexpected);
}

/* Whether row i of a table ran: one of its cells counted (cells: the
 * table's cell map, nstates x nevents; counts likewise). */
static bool row_ran(const struct cc_row *row, const struct cc_row *const *cells,
                    const uint64_t *counts, int ncells)
{
    for (int c = 0; c < ncells; c++)
        if (cells[c] == row && counts[c])
            return true;
    return false;
}

static void table_coverage(const struct cc_table *t, const struct cc_row *const *cells,
                           const uint64_t *counts, int ncells, struct cc_coverage *out, int which)
{
    size_t len = 0, cap = sizeof out->never[which];
    out->rows[which] = (int)t->nrows;
    out->run[which] = 0;
    out->never[which][0] = '\0';
    for (size_t i = 0; i < t->nrows; i++) {
        if (row_ran(&t->rows[i], cells, counts, ncells)) {
            out->run[which]++;
            continue;
        }
        if (len + 16 >= cap) {
            if (len + 4 < cap)
                len +=
                    (size_t)snprintf(out->never[which] + len, cap - len, "%s...", len ? " " : "");
            continue;
        }
        len += (size_t)snprintf(out->never[which] + len, cap - len, "%s%zu", len ? " " : "", i + 1);
    }
}

static bool coh_row_coverage(const struct cc_system *s, struct cc_coverage *out)
{
    table_coverage(&s->proto->cache, &s->cache_cell[0][0], &s->counters.cache[0][0],
                   CS_COUNT * CE_COUNT, out, 0);
    table_coverage(&s->proto->home, &s->home_cell[0][0], &s->counters.home[0][0],
                   HS_COUNT * HE_COUNT, out, 1);
    return true;
}

/* One table's cells that ran, in row order (cells and counts: the table's
 * cell map and counters, nst states x nev events). */
static void table_cells(const struct cc_system *s, bool home, const struct cc_row *const *cells,
                        const uint64_t *counts, int nst, int nev, cc_cell_fn fn, void *ctx)
{
    const struct cc_table *t = home ? &s->proto->home : &s->proto->cache;
    for (size_t i = 0; i < t->nrows; i++)
        for (int c = 0; c < nst * nev; c++) {
            if (cells[c] != &t->rows[i] || !counts[c])
                continue;
            int st = c / nev, ev = c % nev;
            fn(ctx, home ? "home" : "cache", (int)i + 1,
               home ? cc_home_state_name(s, st) : cc_cache_state_names[st],
               home ? cc_home_event_names[ev] : cc_cache_event_names[ev], counts[c]);
        }
}

static void coh_each_cell_run(const struct cc_system *s, cc_cell_fn fn, void *ctx)
{
    table_cells(s, false, &s->cache_cell[0][0], &s->counters.cache[0][0], CS_COUNT, CE_COUNT, fn,
                ctx);
    table_cells(s, true, &s->home_cell[0][0], &s->counters.home[0][0], HS_COUNT, HE_COUNT, fn, ctx);
}

/* ------------------------------------------------------------ reports */

struct outstanding_ctx {
    const struct cc_system *s;
    FILE *f;
    int shown;
};

static void print_dir(uint64_t key, void *val, void *ctx)
{
    struct outstanding_ctx *o = ctx;
    const struct cc_dir *d = val;
    (void)key;
    if (d->state < HS_IE_M && !d->queue)
        return;
    if (o->shown++ > 64)
        return;
    int queued = 0;
    for (const struct sim_msg *m = d->queue; m; m = m->next)
        queued++;
    char name[128];
    cc_line_label(o->s, d->line, name, sizeof name);
    fprintf(o->f, "  home %d line %s: %s, requester %d, awaiting %d answer(s), %d queued\n",
            d->home->index, name, cc_home_state_name(o->s, d->state), d->tx.requester,
            d->tx.pending, queued);
    const struct cc_hist *h;
    for (int i = 0; (h = cc_dir_hist(d, i)) != NULL; i++)
        fprintf(o->f, "    %.3f ns %s %d -> %d\n", (double)h->time / SIM_PS_PER_NS,
                cc_msg_table_names[h->type], h->src, h->dst);
}

static void coh_print_outstanding(const struct cc_system *s, FILE *f)
{
    fprintf(f, "transactions in flight:\n");
    int shown = 0;
    for (int i = 0; i < s->ncaches; i++) {
        const struct cc_cache *c = &s->caches[i];
        size_t ways = (size_t)s->p.sets * s->p.ways;
        for (size_t j = 0; j < ways + s->p.wb_entries; j++) { /* the ways, then the buffers */
            const struct cc_line *cl = j < ways ? &c->lines[j] : &c->wb[j - ways];
            if (!cl->valid || (cl->state < CS_IS_D && !cl->waiting))
                continue;
            int waiting = 0;
            for (const struct cc_req *r = cl->waiting; r; r = r->next)
                waiting++;
            char name[128];
            cc_line_label(s, cl->line, name, sizeof name);
            if (shown++ < 64)
                fprintf(f, "  %s %d line %s: %s, %d request(s) waiting\n", cc_cache_word(s), i,
                        name, cc_cache_state_names[cl->state], waiting);
        }
    }
    struct outstanding_ctx o = {s, f, 0};
    for (int i = 0; i < s->p.homes; i++)
        sim_map_each(&s->homes[i].dirs, print_dir, &o);
    if (shown + o.shown == 0)
        fprintf(f, "  none\n");
}

/* ------------------------------------------------------------ queries */

static struct cc_line *find_line(const struct cc_system *s, int cache, uint64_t line)
{
    return cc_way_find(s, &s->caches[cache], line);
}

char cc_cache_state_of(const struct cc_system *s, int cache, uint64_t line)
{
    const struct cc_line *cl = find_line(s, cache, line);
    if (!cl)
        return 'I';
    if (cl->state >= CS_IS_D)
        return 'T';
    return cc_cache_state_names[cl->state][0];
}

static char coh_state_of(const struct cc_system *s, int core, uint64_t line)
{
    return cc_cache_state_of(s, cc_cache_of_core(s, core), line);
}

/* The cache that holds the current value of a quiet line, or -1 for memory:
 * the owner (E, M, O), else any sharer of a GOLS line (dirty, shared). */
static int current_holder(const struct cc_system *s, const struct cc_dir *d)
{
    if (d->owner >= 0)
        return d->owner;
    if (d->state == HS_GOLS)
        return cc_first_sharer(s, d, -1);
    return -1;
}

/* No transaction, no transient copy, nothing queued: the directory is exact. */
static bool dir_quiet(const struct cc_dir *d)
{
    return d->transient_caches == 0 && d->state < HS_IE_M && !d->queue;
}

static uint64_t coh_peek_word(const struct cc_system *s, uint64_t line, unsigned word)
{
    uint64_t v;
    struct cc_dir *q = cc_dir_find((struct cc_system *)s, line);
    if (!q)
        return 0;
    if (dir_quiet(q)) { /* the directory is exact: ask it, not every cache */
        int holder = current_holder(s, q);
        const struct cc_line *cl = holder >= 0 ? find_line(s, holder, line) : NULL;
        memcpy(&v, (cl ? cl->data : q->memory) + 8 * word, 8);
        return v;
    }
    for (int c = 0; c < s->ncaches; c++) {
        const struct cc_line *cl = find_line(s, c, line);
        if (cl && (cl->state == CS_M || cl->state == CS_O || cl->state == CS_E ||
                   cl->state == CS_MI_A || cl->state == CS_OI_A || cl->state == CS_IM_A)) {
            memcpy(&v, cl->data + 8 * word, 8);
            return v;
        }
    }
    /* GOLS: a dirty line shared by caches; any holder has it */
    for (int c = 0; c < s->ncaches; c++) {
        const struct cc_line *cl = find_line(s, c, line);
        if (cl && cc_state_readable(cl->state)) {
            memcpy(&v, cl->data + 8 * word, 8);
            return v;
        }
    }
    /* the only copy on its way from its owner to the requester */
    memcpy(&v, (q->flight_valid ? q->flight : q->memory) + 8 * word, 8);
    return v;
}

static bool coh_local_word(const struct cc_system *s, int core, uint64_t line, unsigned word,
                           uint64_t *value)
{
    const struct cc_line *cl = find_line(s, cc_cache_of_core(s, core), line);
    if (!cl || !cc_state_readable(cl->state))
        return false;
    memcpy(value, cl->data + 8 * word, 8);
    return true;
}

static void coh_watch(struct cc_system *s, int core, uint64_t line, cc_watch_fn fn, void *ctx)
{
    int cache = cc_cache_of_core(s, core);
    const struct cc_line *cl = find_line(s, cache, line);
    if (!cl || !cc_state_readable(cl->state)) {
        fn(s->k, ctx);
        return;
    }
    struct cc_watch *w = sim_xmalloc(sizeof *w);
    w->line = line;
    w->fn = fn;
    w->ctx = ctx;
    w->next = s->caches[cache].watches;
    s->caches[cache].watches = w;
}

/* ------------------------------------------------------------ methodology */

/* A cache enters a transient state only through a row, which counts it on
 * the line's directory entry (created then), so no entry means no cache ever
 * had the line in flight. Requests park only on transient lines. */
static bool coh_line_quiet(const struct cc_system *s, uint64_t line)
{
    const struct cc_dir *d = cc_dir_find((struct cc_system *)s, line);
    return !d || dir_quiet(d);
}

static bool coh_quiet(const struct cc_system *s)
{
    return !s->msgs.in_use && !s->memory_pending && !s->transient_lines;
}

static struct cc_dir *dir_of(struct cc_system *s, uint64_t line)
{
    return cc_dir_get(s, cc_home_of(s, line), line);
}

static void drop_copy(struct cc_system *s, int cache, struct cc_line *cl, struct cc_dir *d)
{
    if (cl->state == CS_M || cl->state == CS_O || (cl->state == CS_S && d->state == HS_GOLS))
        memcpy(d->memory, cl->data, s->p.line_bytes);
    cl->state = CS_I;
    struct cc_cache *c = &s->caches[cache];
    cc_l1_drop(s, c, cl->line);
    cc_way_free(c, cl);
    struct cc_watch **pp = &c->watches;
    while (*pp) {
        struct cc_watch *w = *pp;
        if (w->line == cl->line) {
            *pp = w->next;
            w->fn(s->k, w->ctx);
            free(w);
        } else
            pp = &w->next;
    }
}

static void coh_evict_line(struct cc_system *s, uint64_t line)
{
    s->llc_drop.dir = NULL; /* a reset begins */
    SIM_ASSERT(coh_line_quiet(s, line));
    struct cc_dir *d = dir_of(s, line);
    /* the line is quiet, so the directory names every holder */
    if (d->owner >= 0) {
        struct cc_line *cl = find_line(s, d->owner, line);
        SIM_ASSERT(cl != NULL);
        drop_copy(s, d->owner, cl, d);
    }
    for (size_t w = 0; w < s->sharer_words; w++)
        for (uint64_t bits = d->sharers[w]; bits; bits &= bits - 1) {
            int c = (int)(w * 64 + (size_t)__builtin_ctzll(bits));
            struct cc_line *cl = find_line(s, c, line);
            SIM_ASSERT(cl != NULL);
            drop_copy(s, c, cl, d);
        }
    cc_clear_sharers(s, d);
    d->owner = d->forwarder = -1;
    d->state = HS_I;
    cc_llc_drop(s, d); /* back in memory */
}

/* The way a line would take in a cache: a free one, else the LRU stable
 * line of the full set (*full set), NULL if every way is busy. */
static struct cc_line *way_for(const struct cc_system *s, int cache, uint64_t line, bool *full)
{
    struct cc_line *set = &s->caches[cache].lines[(size_t)(line & (s->p.sets - 1)) * s->p.ways];
    struct cc_line *victim = NULL;
    *full = false;
    for (unsigned w = 0; w < s->p.ways; w++) {
        if (!set[w].valid)
            return &set[w];
        if (set[w].state < CS_IS_D && !set[w].waiting && coh_line_quiet(s, set[w].line) &&
            (!victim || set[w].lru < victim->lru))
            victim = &set[w];
    }
    *full = victim != NULL;
    return victim;
}

/* A way for the line in a cache, dropping the LRU stable line of a full
 * set at no cost (every copy of it leaves the caches; its data goes home). */
static struct cc_line *place_line(struct cc_system *s, int cache, uint64_t line)
{
    bool full;
    struct cc_line *way = way_for(s, cache, line, &full);
    if (full)
        coh_evict_line(s, way->line);
    return way;
}

/* What coh_prime_line will displace: a line the primer's cache does not
 * hold goes into a full set's LRU way (a prime that evicts the line first
 * frees no way of a cache that did not hold it). */
static bool coh_prime_victim(const struct cc_system *s, int core, uint64_t line, uint64_t *victim)
{
    int cache = cc_cache_of_core(s, core);
    bool full;
    if (find_line(s, cache, line))
        return false;
    struct cc_line *way = way_for(s, cache, line, &full);
    if (full)
        *victim = way->line;
    return full;
}

/* The fill the poll read is the line's copy in core's cache (gone since:
 * counted, as before). */
static bool coh_claim_steal(struct cc_system *s, int core, uint64_t line)
{
    struct cc_line *cl = find_line(s, cc_cache_of_core(s, core), line);
    if (!cl)
        return true;
    bool first = !cl->steal_claimed;
    cl->steal_claimed = true;
    return first;
}

static bool coh_prime_ready(const struct cc_system *s, int core, uint64_t line)
{
    int cache = cc_cache_of_core(s, core);
    bool full;
    return find_line(s, cache, line) || way_for(s, cache, line, &full) != NULL;
}

static const char *coh_home_state_of(const struct cc_system *s, uint64_t line)
{
    struct cc_dir *d = cc_dir_find((struct cc_system *)s, line);
    return cc_home_state_name(s, d ? d->state : HS_I);
}

static bool coh_llc_holds(const struct cc_system *s, uint64_t line)
{
    struct cc_dir *d = cc_dir_find((struct cc_system *)s, line);
    return s->p.llc_ps && d && d->in_llc;
}

static bool coh_llc_dirty(const struct cc_system *s, uint64_t line)
{
    struct cc_dir *d = cc_dir_find((struct cc_system *)s, line);
    return s->p.llc_ps && d && d->in_llc && d->llc_dirty;
}

static bool coh_llc_reset_drop(const struct cc_system *s, uint64_t *line, bool *dirty)
{
    if (s->llc_drop.dir) {
        *line = s->llc_drop.dir->line;
        *dirty = s->llc_drop.dirty;
    }
    return s->llc_drop.dir != NULL;
}

/* A prime's state letter ('M', 'E' or 'S') as the caches' state. */
static int prime_state(char state)
{
    return state == 'M' ? CS_M : state == 'E' ? CS_E : CS_S;
}

static bool coh_can_hold(const struct cc_system *s, char state)
{
    int st = prime_state(state);
    for (int ev = 0; ev < CE_COUNT; ev++)
        if (s->cache_cell[st][ev])
            return true;
    return false;
}

static void coh_prime_line(struct cc_system *s, int core, uint64_t line, char state)
{
    s->llc_drop.dir = NULL; /* a reset begins */
    SIM_ASSERT(coh_line_quiet(s, line));
    struct cc_dir *d = dir_of(s, line);
    bool shared_ok = state == 'S' && (d->state == HS_I || d->state == HS_S);
    if (!shared_ok)
        coh_evict_line(s, line);
    int cache = cc_cache_of_core(s, core);
    struct cc_cache *c = &s->caches[cache];
    struct cc_line *cl = find_line(s, cache, line);
    if (!cl) {
        cl = place_line(s, cache, line);
        if (!cl)
            sim_panic("prime: no way for line 0x%llx in core %d", (unsigned long long)line, core);
        cc_way_fill(c, cl, line);
        cl->waiting = cl->waiting_tail = NULL;
        memcpy(cl->data, d->memory, s->p.line_bytes);
    }
    cl->from_writer = false; /* a reset's copy: no fill took it from a writer */
    cl->lru = ++c->tick;
    if (s->proto == &cc_mesif_llc) /* an inclusive LLC holds what its cores hold (the others'
                                      home LLCs stand for non-inclusive L3s: filled by reads) */
        cc_llc_fill_reset(s, d);
    if (state != 'S')
        cc_l1_drop_others(s, c, core, line);
    cc_l1_touch(s, c, core, line); /* primed into the whole private hierarchy */
    if (state == 'S') {
        cl->state = CS_S;
        cc_set_sharer(s, d, cache, true);
        d->state = HS_S;
    } else {
        cl->state = (uint8_t)prime_state(state);
        d->owner = cache;
        d->state = HS_EM;
    }
    if (s->check)
        cc_check_states(s, line);
}

void cc_check_enable(struct cc_system *s, bool fatal)
{
    s->check = true;
    s->check_fatal = fatal;
}

static int coh_core_memory_node(const struct cc_system *s, int core)
{
    int sockets = s->p.sockets > 0 ? s->p.sockets : 1;
    return core / (s->p.cores / sockets);
}

/* Coherent: what any core reads is the machine's value. */
static uint64_t coh_core_word(const struct cc_system *s, int core, uint64_t line, unsigned word)
{
    (void)core;
    return coh_peek_word(s, line, word);
}

/* ------------------------------------------------------------ the backends */

const struct cc_backend cc_coherent_backend = {
    .destroy = cc_coh_destroy,
    .access = cc_coh_access,
    .observe = cc_coh_observe,
    .home_socket = cc_coh_home_socket,
    .core_memory_node = coh_core_memory_node,
    .get_stats = coh_get_stats,
    .print_row_counters = coh_print_row_counters,
    .print_outstanding = coh_print_outstanding,
    .state_of = coh_state_of,
    .peek_word = coh_peek_word,
    .core_word = coh_core_word,
    .local_word = coh_local_word,
    .watch = coh_watch,
    .line_quiet = coh_line_quiet,
    .quiet = coh_quiet,
    .evict_line = coh_evict_line,
    .prime_line = coh_prime_line,
    .prime_victim = coh_prime_victim,
    .prime_ready = coh_prime_ready,
    .claim_steal = coh_claim_steal,
    .can_hold = coh_can_hold,
    .home_node_of = cc_home_node,
    .home_state_of = coh_home_state_of,
    .llc_holds = coh_llc_holds,
    .llc_dirty = coh_llc_dirty,
    .llc_reset_drop = coh_llc_reset_drop,
    .row_coverage = coh_row_coverage,
    .each_cell_run = coh_each_cell_run,
};

struct cc_system *cc_system_new(struct sim_kernel *k, struct net *net, const struct cc_params *p,
                                const struct cc_backend *be, void *state)
{
    struct cc_system *s = sim_xcalloc(1, sizeof *s);
    s->k = k;
    s->net = net;
    s->p = *p;
    if (s->p.cores_per_cache < 1)
        s->p.cores_per_cache = 1; /* a cache per core */
    s->be = be;
    s->state = state;
    return s;
}

void *cc_backend_state(const struct cc_system *s)
{
    return s->state;
}

void cc_destroy(struct cc_system *s)
{
    if (!s)
        return;
    s->be->destroy(s);
    free(s);
}

void cc_access(struct cc_system *s, struct cc_req *r)
{
    s->be->access(s, r);
}

void cc_set_line_map(struct cc_system *s, cc_line_map_fn fn, void *ctx)
{
    s->line_map = fn;
    s->line_map_ctx = ctx;
}

void cc_set_prefetch_done(struct cc_system *s, cc_prefetch_done_fn fn, void *ctx)
{
    s->prefetch_done = fn;
    s->prefetch_done_ctx = ctx;
}

void cc_set_line_namer(struct cc_system *s, cc_line_name_fn fn, void *ctx)
{
    s->line_namer = fn;
    s->line_namer_ctx = ctx;
}

void cc_line_label(const struct cc_system *s, uint64_t line, char *buf, size_t size)
{
    if (!s->line_namer || !s->line_namer(s->line_namer_ctx, line, buf, size))
        snprintf(buf, size, "0x%llx", (unsigned long long)line);
}

void cc_observe(struct cc_system *s, cc_observer_fn fn, void *ctx)
{
    s->be->observe(s, fn, ctx);
}

int cc_home_socket(const struct cc_system *s, uint64_t line)
{
    return s->be->home_socket(s, line);
}

int cc_core_memory_node(const struct cc_system *s, int core)
{
    return s->be->core_memory_node(s, core);
}

void cc_get_stats(const struct cc_system *s, struct cc_stats *out)
{
    s->be->get_stats(s, out);
}

void cc_print_row_counters(const struct cc_system *s, FILE *f)
{
    s->be->print_row_counters(s, f);
}

void cc_each_cell_run(const struct cc_system *s, cc_cell_fn fn, void *ctx)
{
    if (s->be->each_cell_run)
        s->be->each_cell_run(s, fn, ctx);
}

bool cc_row_coverage(const struct cc_system *s, struct cc_coverage *out)
{
    return s->be->row_coverage && s->be->row_coverage(s, out);
}

void cc_print_outstanding(const struct cc_system *s, FILE *f)
{
    s->be->print_outstanding(s, f);
}

char cc_state_of(const struct cc_system *s, int core, uint64_t line)
{
    return s->be->state_of(s, core, line);
}

bool cc_llc_holds(const struct cc_system *s, uint64_t line)
{
    return s->be->llc_holds && s->be->llc_holds(s, line);
}

bool cc_llc_dirty(const struct cc_system *s, uint64_t line)
{
    return s->be->llc_dirty && s->be->llc_dirty(s, line);
}

bool cc_llc_reset_drop(const struct cc_system *s, uint64_t *line, bool *dirty)
{
    return s->be->llc_reset_drop && s->be->llc_reset_drop(s, line, dirty);
}

int cc_home_node_of(const struct cc_system *s, uint64_t line)
{
    return s->be->home_node_of ? s->be->home_node_of(s, line) : -1;
}

const char *cc_home_state_of(const struct cc_system *s, uint64_t line)
{
    return s->be->home_state_of ? s->be->home_state_of(s, line) : NULL;
}

uint64_t cc_peek_word(const struct cc_system *s, uint64_t line, unsigned word)
{
    return s->be->peek_word(s, line, word);
}

uint64_t cc_core_word(const struct cc_system *s, int core, uint64_t line, unsigned word)
{
    return s->be->core_word(s, core, line, word);
}

enum cc_word_source cc_core_word_source(const struct cc_system *s, int core, uint64_t line,
                                        unsigned word)
{
    return s->be->core_word_source ? s->be->core_word_source(s, core, line, word) : CC_WORD_LINE;
}

bool cc_local_word(const struct cc_system *s, int core, uint64_t line, unsigned word,
                   uint64_t *value)
{
    return s->be->local_word(s, core, line, word, value);
}

void cc_watch(struct cc_system *s, int core, uint64_t line, cc_watch_fn fn, void *ctx)
{
    s->be->watch(s, core, line, fn, ctx);
}

bool cc_line_quiet(const struct cc_system *s, uint64_t line)
{
    return s->be->line_quiet(s, line);
}

bool cc_quiet(const struct cc_system *s)
{
    return s->be->quiet(s);
}

void cc_evict_line(struct cc_system *s, uint64_t line)
{
    s->be->evict_line(s, line);
}

void cc_prime_line(struct cc_system *s, int core, uint64_t line, char state)
{
    s->be->prime_line(s, core, line, state);
}

bool cc_claim_steal(struct cc_system *s, int core, uint64_t line)
{
    return !s->be->claim_steal || s->be->claim_steal(s, core, line);
}

bool cc_prime_ready(const struct cc_system *s, int core, uint64_t line)
{
    return !s->be->prime_ready || s->be->prime_ready(s, core, line);
}

bool cc_prime_victim(const struct cc_system *s, int core, uint64_t line, uint64_t *victim)
{
    return s->be->prime_victim && s->be->prime_victim(s, core, line, victim);
}

bool cc_can_hold(const struct cc_system *s, char state)
{
    return !s->be->can_hold || s->be->can_hold(s, state);
}

void cc_drop_noncoherent(struct cc_system *s, int core, const char *why)
{
    if (s->be->drop_noncoherent)
        s->be->drop_noncoherent(s, core, why);
}

int64_t cc_place_count(const struct cc_system *s, enum cc_line_kind kind)
{
    return s->be->place_count && kind != CC_LINE_MEMORY ? s->be->place_count(s, kind) : 0;
}

bool cc_place_line(const struct cc_system *s, enum cc_line_kind kind, int core, int64_t slot,
                   uint64_t *line)
{
    return s->be->place_line && s->be->place_line(s, kind, core, slot, line);
}

enum cc_line_kind cc_line_kind(const struct cc_system *s, uint64_t line)
{
    return s->be->line_kind ? s->be->line_kind(s, line) : CC_LINE_MEMORY;
}

void cc_settle(struct cc_system *s)
{
    if (s->be->settle)
        s->be->settle(s);
}
