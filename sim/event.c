/*
 * event.c -- the discrete-event kernel: schedule, cancel, run, now.
 *
 * Data structure: a timing wheel of 2^WHEEL_BITS slots, each 2^SLOT_SHIFT ps
 * wide, for the near future, and a binary heap for events beyond the wheel's
 * horizon (DRAM tails, the watchdog). Delays in this simulator are mostly a
 * few clock cycles, so nearly every event goes to the wheel in O(1).
 *
 * Events are stored by value (struct ev, 40 bytes) so that both appending
 * and firing walk memory sequentially: a wheel slot is a chain of blocks
 * drawn from a free list; when a slot is opened its events are copied into
 * one contiguous array (cur), sorted if needed, and fired from there.
 * Cancellable events (timers) carry a pointer to a ticket that says whether
 * they are still wanted.
 *
 * Invariants:
 *   - cur[cur_pos..cur_len) holds the events of the open slot (absolute
 *     slot number `cursor`) and any later-scheduled event whose slot is
 *     <= cursor, sorted by (time, seq).
 *   - every event in the wheel has an absolute slot in (cursor,
 *     cursor + WHEEL_SLOTS); every event in the heap has one >= cursor +
 *     WHEEL_SLOTS as of the last cursor move, and is migrated into the wheel
 *     before the cursor gets within WHEEL_SLOTS of it.
 *   - a wheel slot's blocks hold its events in insertion order; `unsorted`
 *     records whether an append broke (time, seq) order, and only then is the
 *     slot sorted when opened (appends are nearly always in order).
 *   - bitmap bit i is set iff wheel slot i is non-empty.
 *   - pending counts scheduled events not yet fired nor cancelled.
 * Ties: equal times fire in increasing seq, i.e. in scheduling order. A
 * ranked event (sim_schedule_ranked) carries its rank above RANK_SHIFT in
 * its seq, so at its time it fires after the plain events, in rank order.
 */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

#define WHEEL_BITS   14
#define WHEEL_SLOTS  (1u << WHEEL_BITS)
#define WHEEL_MASK   (WHEEL_SLOTS - 1)
#define SLOT_SHIFT   8 /* 256 ps per slot: below every clock period we model */
#define BLOCK_EVENTS 50
#define TICKET_CHUNK 256
#define RANK_SHIFT   40 /* seqs of plain events stay below 2^40 */

struct ev {
    sim_time_t time;
    uint64_t seq;
    sim_handler_fn fn;
    void *obj;
    uint64_t arg;
};

struct block {
    struct block *next;
    unsigned n;
    struct ev ev[BLOCK_EVENTS];
};

struct slot {
    struct block *head, *tail;
    bool unsorted;
};

/* A cancellable event's handle target. live: not fired, not cancelled. */
struct ticket {
    uint64_t seq;
    sim_handler_fn fn;
    void *obj;
    uint64_t arg;
    bool live;
    struct ticket *next_free;
};

struct sim_kernel {
    struct sim_kernel_head head; /* first: now and progress, inlined in sim.h */
    uint64_t next_seq;
    uint64_t fired;
    size_t pending;
    bool stop;
    bool stalled;

    uint64_t cursor; /* absolute slot number of the open slot */
    struct ev *cur;
    size_t cur_pos, cur_len, cur_cap;

    struct slot wheel[WHEEL_SLOTS];
    uint64_t bitmap[WHEEL_SLOTS / 64];
    struct block *free_blocks;
    size_t blocks;

    struct ev *heap; /* far future: binary min-heap on (time, seq) */
    size_t heap_len, heap_cap;

    struct ticket *free_tickets;
    void **ticket_chunks;
    size_t nticket_chunks;

    /* the watchdog (a timer) */
    sim_time_t wd_interval;
    sim_stall_fn wd_fn;
    void *wd_ctx;
    uint64_t wd_last_progress;
    sim_time_t wd_busy_until; /* sim_busy_until: work under way until then counts as progress */
    sim_event_id wd_timer;
    bool wd_armed;
};

static inline bool ev_before(const struct ev *a, const struct ev *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static inline uint64_t slot_of(sim_time_t t)
{
    return t >> SLOT_SHIFT;
}

/* ------------------------------------------------------------- blocks */

static struct block *block_get(struct sim_kernel *k)
{
    struct block *b = k->free_blocks;
    if (b)
        k->free_blocks = b->next;
    else {
        b = sim_xmalloc(sizeof *b);
        k->blocks++;
    }
    b->next = NULL;
    b->n = 0;
    return b;
}

static void block_put(struct sim_kernel *k, struct block *b)
{
    b->next = k->free_blocks;
    k->free_blocks = b;
}

static void blocks_free(struct block *b)
{
    while (b) {
        struct block *n = b->next;
        free(b);
        b = n;
    }
}

/* ------------------------------------------------------------- the heap */

static void heap_push(struct sim_kernel *k, const struct ev *e)
{
    if (k->heap_len == k->heap_cap) {
        k->heap_cap = k->heap_cap ? 2 * k->heap_cap : 64;
        k->heap = sim_xrealloc(k->heap, k->heap_cap * sizeof *k->heap);
    }
    size_t i = k->heap_len++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!ev_before(e, &k->heap[p]))
            break;
        k->heap[i] = k->heap[p];
        i = p;
    }
    k->heap[i] = *e;
}

static struct ev heap_pop(struct sim_kernel *k)
{
    struct ev top = k->heap[0];
    struct ev last = k->heap[--k->heap_len];
    size_t i = 0, n = k->heap_len;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && ev_before(&k->heap[c + 1], &k->heap[c]))
            c++;
        if (!ev_before(&k->heap[c], &last))
            break;
        k->heap[i] = k->heap[c];
        i = c;
    }
    if (n)
        k->heap[i] = last;
    return top;
}

/* ------------------------------------------------------------- the wheel */

static inline void wheel_append(struct sim_kernel *k, uint64_t abs_slot, const struct ev *e)
{
    unsigned i = (unsigned)(abs_slot & WHEEL_MASK);
    struct slot *s = &k->wheel[i];
    struct block *t = s->tail;
    if (!t) {
        t = s->head = s->tail = block_get(k);
        k->bitmap[i / 64] |= 1ull << (i % 64);
    } else {
        s->unsorted |= ev_before(e, &t->ev[t->n - 1]);
        if (t->n == BLOCK_EVENTS) {
            t->next = block_get(k);
            t = s->tail = t->next;
        }
    }
    t->ev[t->n++] = *e;
}

static void cur_reserve(struct sim_kernel *k, size_t n)
{
    if (n <= k->cur_cap)
        return;
    size_t cap = k->cur_cap ? k->cur_cap : 256;
    while (cap < n)
        cap *= 2;
    k->cur = sim_xrealloc(k->cur, cap * sizeof *k->cur);
    k->cur_cap = cap;
}

/* Inserts into the open slot's sorted array. A plain e has the largest
 * seq of the plain events, so it goes after every event with time <=
 * e->time but the ranked ones of its time; usually that is the end. */
static void cur_insert(struct sim_kernel *k, const struct ev *e)
{
    if (k->cur_pos == k->cur_len)
        k->cur_pos = k->cur_len = 0;
    cur_reserve(k, k->cur_len + 1);
    size_t i = k->cur_len;
    while (i > k->cur_pos && ev_before(e, &k->cur[i - 1]))
        i--;
    memmove(&k->cur[i + 1], &k->cur[i], (k->cur_len - i) * sizeof *k->cur);
    k->cur[i] = *e;
    k->cur_len++;
}

static inline void place(struct sim_kernel *k, const struct ev *e)
{
    uint64_t s = slot_of(e->time);
    if (s - k->cursor - 1 < WHEEL_SLOTS - 1) /* cursor < s < cursor + WHEEL_SLOTS */
        wheel_append(k, s, e);
    else if (s <= k->cursor)
        cur_insert(k, e);
    else
        heap_push(k, e);
}

/* The next non-empty wheel slot after the cursor, as an absolute slot number,
 * or 0 if the wheel is empty (slot numbers after the cursor are never 0). */
static uint64_t wheel_next(const struct sim_kernel *k)
{
    unsigned start = (unsigned)((k->cursor + 1) & WHEEL_MASK);
    unsigned w = start / 64;
    uint64_t bits = k->bitmap[w] & (~0ull << (start % 64));
    for (unsigned n = 0; n <= WHEEL_SLOTS / 64; n++) {
        if (bits) {
            unsigned i = w * 64 + (unsigned)__builtin_ctzll(bits);
            return k->cursor + 1 + ((i - start) & WHEEL_MASK);
        }
        w = (w + 1) % (WHEEL_SLOTS / 64);
        bits = k->bitmap[w];
    }
    return 0;
}

static int ev_cmp(const void *a, const void *b)
{
    const struct ev *x = a, *y = b;
    return ev_before(x, y) ? -1 : ev_before(y, x) ? 1 : 0;
}

/* Sorts cur by (time, seq). A slot's events arrive nearly in order (a few
 * ranked or late ones out of place), so insertion sort, whose compare is
 * inlined, does it in a few passes; qsort only for a long slot. The order
 * is total (seqs are unique), so either gives the same result. */
static void sort_cur(struct sim_kernel *k)
{
    if (k->cur_len > 64) {
        qsort(k->cur, k->cur_len, sizeof *k->cur, ev_cmp);
        return;
    }
    for (size_t i = 1; i < k->cur_len; i++) {
        struct ev e = k->cur[i];
        size_t j = i;
        for (; j > 0 && ev_before(&e, &k->cur[j - 1]); j--)
            k->cur[j] = k->cur[j - 1];
        k->cur[j] = e;
    }
}

/* Moves the cursor to abs slot s (cur is empty), pulls heap events into the
 * new horizon, and copies slot s into cur. */
static void open_slot(struct sim_kernel *k, uint64_t s)
{
    k->cursor = s;
    while (k->heap_len && slot_of(k->heap[0].time) - s < WHEEL_SLOTS) {
        struct ev e = heap_pop(k);
        wheel_append(k, slot_of(e.time), &e); /* slot s itself is opened below */
    }
    unsigned i = (unsigned)(s & WHEEL_MASK);
    struct slot *sl = &k->wheel[i];
    k->bitmap[i / 64] &= ~(1ull << (i % 64));
    k->cur_pos = k->cur_len = 0;
    for (struct block *b = sl->head, *next; b; b = next) {
        next = b->next;
        cur_reserve(k, k->cur_len + b->n);
        memcpy(&k->cur[k->cur_len], b->ev, b->n * sizeof *b->ev);
        k->cur_len += b->n;
        block_put(k, b);
    }
    if (sl->unsorted)
        sort_cur(k);
    sl->head = sl->tail = NULL;
    sl->unsorted = false;
}

/* The earliest pending event (possibly a cancelled timer), or NULL. */
static inline struct ev *peek(struct sim_kernel *k)
{
    while (k->cur_pos == k->cur_len) {
        uint64_t s = wheel_next(k);
        if (!s) {
            if (!k->heap_len)
                return NULL;
            s = slot_of(k->heap[0].time);
        }
        open_slot(k, s);
    }
    return &k->cur[k->cur_pos];
}

/* ------------------------------------------------------------- the API */

struct sim_kernel *sim_kernel_new(void)
{
    struct sim_kernel *k = sim_xzeroed(1, sizeof *k); /* its wheel: 400 KB */
    k->next_seq = 1;
    return k;
}

void sim_kernel_free(struct sim_kernel *k)
{
    if (!k)
        return;
    for (unsigned i = 0; i < WHEEL_SLOTS; i++)
        blocks_free(k->wheel[i].head);
    blocks_free(k->free_blocks);
    for (size_t i = 0; i < k->nticket_chunks; i++)
        free(k->ticket_chunks[i]);
    free(k->ticket_chunks);
    free(k->cur);
    free(k->heap);
    sim_free_zeroed(k, 1, sizeof *k);
}

void sim_schedule_at(struct sim_kernel *k, sim_time_t t, sim_handler_fn fn, void *obj, uint64_t arg)
{
    if (t < k->head.now || !fn)
        sim_panic("event scheduled in the past or without a handler (%llu ps, now %llu ps)",
                  (unsigned long long)t, (unsigned long long)k->head.now);
    struct ev e = {t, k->next_seq++, fn, obj, arg};
    place(k, &e);
    k->pending++;
}

void sim_schedule_ranked(struct sim_kernel *k, sim_time_t t, uint32_t rank, sim_handler_fn fn,
                         void *obj, uint64_t arg)
{
    if (t < k->head.now || !fn || rank >= SIM_RANK_LIMIT)
        sim_panic("ranked event in the past, without a handler or of rank %u (%llu ps, now %llu "
                  "ps)",
                  rank, (unsigned long long)t, (unsigned long long)k->head.now);
    SIM_ASSERT(k->next_seq < 1ull << RANK_SHIFT);
    struct ev e = {t, ((uint64_t)rank + 1) << RANK_SHIFT | k->next_seq++, fn, obj, arg};
    place(k, &e);
    k->pending++;
}

void sim_schedule_shuffled(struct sim_kernel *k, sim_time_t t, uint64_t seed, uint64_t who,
                           sim_handler_fn fn, void *obj, uint64_t arg)
{
    uint64_t h = sim_rng_hash(seed, who, t);
    sim_schedule_ranked(k, t, (uint32_t)(h % SIM_RANK_LIMIT), fn, obj, arg);
}

/* ------------------------------------------------------------- timers */

static struct ticket *ticket_get(struct sim_kernel *k)
{
    if (!k->free_tickets) {
        struct ticket *c = sim_xcalloc(TICKET_CHUNK, sizeof *c);
        k->ticket_chunks =
            sim_xrealloc(k->ticket_chunks, (k->nticket_chunks + 1) * sizeof *k->ticket_chunks);
        k->ticket_chunks[k->nticket_chunks++] = c;
        for (size_t i = TICKET_CHUNK; i-- > 0;) {
            c[i].next_free = k->free_tickets;
            k->free_tickets = &c[i];
        }
    }
    struct ticket *t = k->free_tickets;
    k->free_tickets = t->next_free;
    return t;
}

static void ticket_fire(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct ticket *t = obj;
    (void)arg;
    sim_handler_fn fn = t->fn;
    void *tobj = t->obj;
    uint64_t targ = t->arg;
    t->live = false;
    t->next_free = k->free_tickets;
    k->free_tickets = t;
    fn(k, tobj, targ);
}

sim_event_id sim_timer_at(struct sim_kernel *k, sim_time_t t, sim_handler_fn fn, void *obj,
                          uint64_t arg)
{
    struct ticket *tk = ticket_get(k);
    tk->fn = fn;
    tk->obj = obj;
    tk->arg = arg;
    tk->live = true;
    tk->seq = k->next_seq; /* the seq its event is about to get */
    sim_schedule_at(k, t, ticket_fire, tk, 0);
    return (sim_event_id){tk, tk->seq};
}

bool sim_cancel(struct sim_kernel *k, sim_event_id id)
{
    struct ticket *t = id.timer;
    if (!t || t->seq != id.seq || !t->live)
        return false;
    t->live = false; /* its event is dropped, uncounted, when its time comes */
    k->pending--;
    return true;
}

/* A cancelled timer's event: release the ticket, fire nothing. */
static inline bool is_dead_timer(struct sim_kernel *k, const struct ev *e)
{
    if (e->fn != ticket_fire)
        return false;
    struct ticket *t = e->obj;
    if (t->live && t->seq == e->seq)
        return false;
    t->next_free = k->free_tickets;
    k->free_tickets = t;
    return true;
}

/* ------------------------------------------------------------- running */

void sim_stop(struct sim_kernel *k)
{
    k->stop = true;
}

uint64_t sim_events_fired(const struct sim_kernel *k)
{
    return k->fired;
}

size_t sim_events_pending(const struct sim_kernel *k)
{
    return k->pending - (k->wd_armed ? 1 : 0);
}

size_t sim_events_memory(const struct sim_kernel *k)
{
    return k->blocks * sizeof(struct block) + k->cur_cap * sizeof(struct ev) +
           k->heap_cap * sizeof(struct ev) +
           k->nticket_chunks * TICKET_CHUNK * sizeof(struct ticket);
}

enum sim_run_status sim_run(struct sim_kernel *k, sim_time_t until)
{
    k->stop = false;
    k->stalled = false;
    for (;;) {
        if (k->pending == (k->wd_armed ? 1u : 0u))
            return SIM_RUN_EMPTY;
        struct ev *e = peek(k);
        if (e->time > until) {
            if (until > k->head.now)
                k->head.now = until;
            return SIM_RUN_UNTIL;
        }
        struct ev ev = *e;
        k->cur_pos++;
        if (ev.fn == ticket_fire && is_dead_timer(k, &ev))
            continue;
        k->head.now = ev.time;
        k->pending--;
        k->fired++;
        ev.fn(k, ev.obj, ev.arg);
        if (k->stalled)
            return SIM_RUN_STALLED;
        if (k->stop)
            return SIM_RUN_STOPPED;
    }
}

/* ------------------------------------------------------------- watchdog */

/* One watchdog interval after t, or the kernel's last instant. */
static sim_time_t interval_after(const struct sim_kernel *k, sim_time_t t)
{
    return t > SIM_TIME_MAX - k->wd_interval ? SIM_TIME_MAX : t + k->wd_interval;
}

static void watchdog_fire(struct sim_kernel *k, void *obj, uint64_t arg)
{
    (void)obj;
    (void)arg;
    k->wd_armed = false;
    if (k->head.progress == k->wd_last_progress && k->head.now >= k->wd_busy_until) {
        k->stalled = true;
        k->wd_fn(k, k->wd_ctx);
        return;
    }
    k->wd_last_progress = k->head.progress;
    /* work under way past the next look: the interval to judge starts at
     * its end (one look, not one every interval of a long compute) */
    sim_time_t next = interval_after(k, k->head.now);
    if (k->wd_busy_until > next)
        next = interval_after(k, k->wd_busy_until);
    k->wd_timer = sim_timer_at(k, next, watchdog_fire, NULL, 0);
    k->wd_armed = true;
}

void sim_busy_until(struct sim_kernel *k, sim_time_t t)
{
    if (t > k->wd_busy_until)
        k->wd_busy_until = t;
}

void sim_watchdog(struct sim_kernel *k, sim_time_t interval, sim_stall_fn on_stall, void *ctx)
{
    if (k->wd_armed)
        sim_cancel(k, k->wd_timer);
    k->wd_armed = false;
    k->wd_fn = on_stall;
    k->wd_ctx = ctx;
    k->wd_interval = interval;
    k->wd_last_progress = k->head.progress;
    if (on_stall && interval > 0) {
        k->wd_timer = sim_timer_at(k, k->head.now + interval, watchdog_fire, NULL, 0);
        k->wd_armed = true;
    }
}
