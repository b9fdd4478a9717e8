/*
 * test_event.c -- the event kernel: order, ties, cancel, run limits,
 * determinism, free-list reuse, the watchdog, clocks and random streams.
 */
#include "sim.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#ifdef TU_ASAN
#include <sanitizer/lsan_interface.h>
#endif

/* A log of fired events: (time, tag). */
struct log {
    sim_time_t time[20000];
    uint64_t tag[20000];
    size_t n;
};

static void record(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct log *l = obj;
    ck_assert_uint_lt(l->n, 20000);
    l->time[l->n] = sim_now(k);
    l->tag[l->n] = arg;
    l->n++;
}

START_TEST(test_time_order)
{
    struct sim_kernel *k = sim_kernel_new();
    static struct log l;
    l.n = 0;
    sim_schedule_at(k, 5000, record, &l, 3);
    sim_schedule_at(k, 1000, record, &l, 1);
    sim_schedule_at(k, 3000, record, &l, 2);
    ck_assert_int_eq(sim_run(k, SIM_TIME_MAX), SIM_RUN_EMPTY);
    ck_assert_uint_eq(l.n, 3);
    for (size_t i = 0; i < 3; i++)
        ck_assert_uint_eq(l.tag[i], i + 1);
    ck_assert_uint_eq(sim_now(k), 5000);
    sim_kernel_free(k);
}
END_TEST

START_TEST(test_ties_in_schedule_order)
{
    struct sim_kernel *k = sim_kernel_new();
    static struct log l;
    l.n = 0;
    for (uint64_t i = 0; i < 100; i++)
        sim_schedule_at(k, 7777, record, &l, i);
    sim_run(k, SIM_TIME_MAX);
    ck_assert_uint_eq(l.n, 100);
    for (uint64_t i = 0; i < 100; i++)
        ck_assert_uint_eq(l.tag[i], i);
    sim_kernel_free(k);
}
END_TEST

/* A handler that schedules at its own time: it goes after what is already there. */
static struct log chain_log;
static void chain(struct sim_kernel *k, void *obj, uint64_t arg)
{
    record(k, &chain_log, arg);
    if (arg == 1)
        sim_schedule(k, 0, chain, obj, 100);
}

START_TEST(test_zero_delay_goes_last)
{
    struct sim_kernel *k = sim_kernel_new();
    chain_log.n = 0;
    sim_schedule_at(k, 500, chain, NULL, 1);
    sim_schedule_at(k, 500, chain, NULL, 2);
    sim_schedule_at(k, 500, chain, NULL, 3);
    sim_run(k, SIM_TIME_MAX);
    uint64_t want[] = {1, 2, 3, 100};
    ck_assert_uint_eq(chain_log.n, 4);
    for (size_t i = 0; i < 4; i++)
        ck_assert_uint_eq(chain_log.tag[i], want[i]);
    sim_kernel_free(k);
}
END_TEST

/* Random schedules over every range (same slot, wheel, far heap), some from
 * inside handlers: the fired order must equal a reference sort on (time, seq). */
struct ref {
    sim_time_t time;
    uint64_t seq;
};
static struct ref refs[20000];
static size_t nrefs;
static uint64_t ref_seq;
static struct log rlog;
static struct sim_rng trng;

static sim_time_t random_delay(void)
{
    switch (sim_rng_below(&trng, 4)) {
    case 0:
        return sim_rng_below(&trng, 300); /* same or next slot */
    case 1:
        return sim_rng_below(&trng, 100000); /* the wheel */
    case 2:
        return 3000000 + sim_rng_below(&trng, 50000000); /* beyond the horizon */
    default:
        return 950 * (1 + sim_rng_below(&trng, 20)); /* a 1.053 GHz clock */
    }
}

static void spawn(struct sim_kernel *k, void *obj, uint64_t arg)
{
    record(k, &rlog, arg);
    if (nrefs < 19000 && sim_rng_below(&trng, 3) != 0) {
        sim_time_t t = sim_now(k) + random_delay();
        refs[nrefs++] = (struct ref){t, ref_seq};
        sim_schedule_at(k, t, spawn, obj, ref_seq++);
    }
}

static int ref_cmp(const void *a, const void *b)
{
    const struct ref *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

START_TEST(test_random_against_reference)
{
    struct sim_kernel *k = sim_kernel_new();
    sim_rng_init(&trng, (uint64_t)_i + 1, 7);
    nrefs = 0;
    ref_seq = 0;
    rlog.n = 0;
    for (int i = 0; i < 3000; i++) {
        sim_time_t t = random_delay();
        refs[nrefs++] = (struct ref){t, ref_seq};
        sim_schedule_at(k, t, spawn, NULL, ref_seq++);
    }
    ck_assert_int_eq(sim_run(k, SIM_TIME_MAX), SIM_RUN_EMPTY);
    ck_assert_uint_eq(rlog.n, nrefs);
    qsort(refs, nrefs, sizeof refs[0], ref_cmp);
    for (size_t i = 0; i < nrefs; i++) {
        ck_assert_uint_eq(rlog.time[i], refs[i].time);
        ck_assert_uint_eq(rlog.tag[i], refs[i].seq);
    }
    sim_kernel_free(k);
}
END_TEST

START_TEST(test_cancel)
{
    struct sim_kernel *k = sim_kernel_new();
    static struct log l;
    l.n = 0;
    sim_event_id a = sim_timer_at(k, 100, record, &l, 1);
    sim_event_id b = sim_timer_at(k, 200, record, &l, 2);
    sim_event_id far = sim_timer_at(k, 900000000, record, &l, 3);
    sim_schedule_at(k, 150, record, &l, 5); /* plain events interleave */
    ck_assert(sim_cancel(k, b));
    ck_assert(!sim_cancel(k, b)); /* twice */
    ck_assert(sim_cancel(k, far));
    ck_assert_uint_eq(sim_events_pending(k), 2);
    sim_run(k, SIM_TIME_MAX);
    ck_assert_uint_eq(l.n, 2);
    ck_assert_uint_eq(l.tag[0], 1);
    ck_assert_uint_eq(l.tag[1], 5);
    ck_assert(!sim_cancel(k, a)); /* already fired */
    /* a stale handle whose event was reused for a new schedule */
    sim_event_id c = sim_timer_at(k, sim_now(k) + 10, record, &l, 4);
    ck_assert(c.timer == a.timer); /* the ticket was reused */
    ck_assert(!sim_cancel(k, a));
    ck_assert(sim_cancel(k, c));
    ck_assert_int_eq(sim_run(k, SIM_TIME_MAX), SIM_RUN_EMPTY);
    ck_assert_uint_eq(l.n, 2);
    ck_assert_uint_eq(sim_events_fired(k), 2);
    sim_kernel_free(k);
}
END_TEST

START_TEST(test_run_until)
{
    struct sim_kernel *k = sim_kernel_new();
    static struct log l;
    l.n = 0;
    sim_schedule_at(k, 1000, record, &l, 1);
    sim_schedule_at(k, 2000, record, &l, 2);
    sim_schedule_at(k, 3000, record, &l, 3);
    ck_assert_int_eq(sim_run(k, 2000), SIM_RUN_UNTIL);
    ck_assert_uint_eq(l.n, 2); /* <= until fires */
    ck_assert_uint_eq(sim_now(k), 2000);
    /* scheduling after a stop must still be ordered before the pending event */
    sim_schedule_at(k, 2500, record, &l, 9);
    sim_run(k, SIM_TIME_MAX);
    ck_assert_uint_eq(l.n, 4);
    ck_assert_uint_eq(l.tag[2], 9);
    ck_assert_uint_eq(l.tag[3], 3);
    sim_kernel_free(k);
}
END_TEST

static void stopper(struct sim_kernel *k, void *obj, uint64_t arg)
{
    record(k, obj, arg);
    if (arg == 2)
        sim_stop(k);
}

START_TEST(test_stop)
{
    struct sim_kernel *k = sim_kernel_new();
    static struct log l;
    l.n = 0;
    for (uint64_t i = 1; i <= 4; i++)
        sim_schedule_at(k, i * 10, stopper, &l, i);
    ck_assert_int_eq(sim_run(k, SIM_TIME_MAX), SIM_RUN_STOPPED);
    ck_assert_uint_eq(l.n, 2);
    ck_assert_int_eq(sim_run(k, SIM_TIME_MAX), SIM_RUN_EMPTY);
    ck_assert_uint_eq(l.n, 4);
    sim_kernel_free(k);
}
END_TEST

/* The hold model: what every fired event does is schedule one more. */
struct hold {
    struct sim_rng rng;
    uint64_t hash;
};
static void hold_fire(struct sim_kernel *k, void *obj, uint64_t arg)
{
    struct hold *h = obj;
    h->hash = (h->hash ^ (sim_now(k) + arg * 31)) * 0x100000001b3ull;
    sim_schedule(k, (1 + sim_rng_below(&h->rng, 100)) * 1000, hold_fire, h, arg);
}

static uint64_t hold_run(uint64_t seed, size_t pending, uint64_t events, size_t *memory)
{
    struct sim_kernel *k = sim_kernel_new();
    struct hold h = {.hash = 14695981039346656037ull};
    sim_rng_init(&h.rng, seed, 0);
    for (size_t i = 0; i < pending; i++)
        sim_schedule(k, (1 + sim_rng_below(&h.rng, 100)) * 1000, hold_fire, &h, i);
    while (sim_events_fired(k) < events)
        sim_run(k, sim_now(k) + 10000);
    *memory = sim_events_memory(k);
    sim_kernel_free(k);
    return h.hash;
}

START_TEST(test_determinism)
{
    size_t mem;
    uint64_t a = hold_run(42, 1000, 200000, &mem);
    uint64_t b = hold_run(42, 1000, 200000, &mem);
    uint64_t c = hold_run(43, 1000, 200000, &mem);
    ck_assert_uint_eq(a, b);
    ck_assert_uint_ne(a, c);
}
END_TEST

START_TEST(test_free_list_reuse)
{
    size_t small, large;
    hold_run(1, 5000, 200000, &small);
    hold_run(1, 5000, 2000000, &large);
    /* ten times the events through the same 5000 pending: the kernel holds
     * no more memory (blocks and arrays are reused from free lists) */
    ck_assert_uint_eq(small, large);
    ck_assert_uint_lt(large, 5000 * 200);
}
END_TEST

/* Watchdog: a model that keeps firing events but never progresses. */
static int stalls;
static void on_stall(struct sim_kernel *k, void *ctx)
{
    (void)k;
    (void)ctx;
    stalls++;
}
static void spin(struct sim_kernel *k, void *obj, uint64_t arg)
{
    (void)obj;
    if (arg)
        sim_progress(k);
    sim_schedule(k, 1000, spin, NULL, arg);
}
static void finish_after(struct sim_kernel *k, void *obj, uint64_t arg)
{
    (void)obj;
    sim_progress(k);
    if (arg)
        sim_schedule(k, 1000, finish_after, NULL, arg - 1);
}

START_TEST(test_watchdog)
{
    struct sim_kernel *k = sim_kernel_new();
    stalls = 0;
    sim_watchdog(k, 1000000, on_stall, NULL);
    sim_schedule(k, 1000, spin, NULL, 0); /* no progress */
    ck_assert_int_eq(sim_run(k, SIM_TIME_MAX), SIM_RUN_STALLED);
    ck_assert_int_eq(stalls, 1);
    ck_assert_uint_le(sim_now(k), 2000000); /* within two intervals */
    sim_kernel_free(k);

    k = sim_kernel_new();
    sim_watchdog(k, 1000000, on_stall, NULL);
    sim_schedule(k, 1000, spin, NULL, 1); /* progress every event */
    ck_assert_int_eq(sim_run(k, 50000000), SIM_RUN_UNTIL);
    ck_assert_int_eq(stalls, 1);
    sim_kernel_free(k);

    /* the watchdog alone does not keep the run alive */
    k = sim_kernel_new();
    sim_watchdog(k, 1000000, on_stall, NULL);
    sim_schedule(k, 1000, finish_after, NULL, 5000);
    ck_assert_int_eq(sim_run(k, SIM_TIME_MAX), SIM_RUN_EMPTY);
    ck_assert_uint_eq(sim_now(k), 5001000);
    ck_assert_int_eq(stalls, 1);
    sim_kernel_free(k);

    /* work under way for 10^6 intervals: the watchdog looks once at its
     * end, not every interval (a long compute took an event per 10 ms) */
    k = sim_kernel_new();
    sim_watchdog(k, 1000000, on_stall, NULL);
    sim_busy_until(k, 1000000000000);
    sim_schedule(k, 1000000000000, finish_after, NULL, 0);
    ck_assert_int_eq(sim_run(k, SIM_TIME_MAX), SIM_RUN_EMPTY);
    ck_assert_uint_le(sim_events_fired(k), 4);
    ck_assert_int_eq(stalls, 1);
    sim_kernel_free(k);
}
END_TEST

static void noop(struct sim_kernel *k, void *obj, uint64_t arg)
{
    (void)k;
    (void)obj;
    (void)arg;
}

START_TEST(test_past_is_fatal)
{
#ifdef TU_ASAN
    __lsan_disable(); /* the panic ends the run by exit(), its kernel allocated */
#endif
    struct sim_kernel *k = sim_kernel_new();
    sim_schedule_at(k, 1000, noop, NULL, 0);
    sim_run(k, SIM_TIME_MAX);
    sim_schedule_at(k, 10, noop, NULL, 0); /* exits 4 (an internal error) with a message */
}
END_TEST

START_TEST(test_clock)
{
    struct sim_clock knc = sim_clock_ghz(1.053);
    ck_assert_uint_eq(knc.period_ps, 950);
    struct sim_clock c = sim_clock_ghz(1.0);
    ck_assert_uint_eq(sim_clock_edge(c, 0), 0);
    ck_assert_uint_eq(sim_clock_edge(c, 1), 1000);
    ck_assert_uint_eq(sim_clock_edge(c, 1000), 1000);
    ck_assert_uint_eq(sim_clock_after(c, 1500, 3), 5000);
}
END_TEST

START_TEST(test_rng)
{
    struct sim_rng a, b, c;
    sim_rng_init(&a, 1, 0);
    sim_rng_init(&b, 1, 0);
    sim_rng_init(&c, 1, 1);
    int same_stream = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = sim_rng_next(&a);
        ck_assert_uint_eq(x, sim_rng_next(&b));
        same_stream += x == sim_rng_next(&c);
    }
    ck_assert_int_eq(same_stream, 0);
    int hist[10] = {0};
    for (int i = 0; i < 100000; i++) {
        uint64_t v = sim_rng_below(&a, 10);
        TU_CHECK(v < 10, "sim_rng_below(10) gave %llu", (unsigned long long)v);
        hist[v]++;
        double u = sim_rng_unit(&a);
        TU_CHECK(u >= 0.0 && u < 1.0, "sim_rng_unit gave %f", u);
    }
    for (int i = 0; i < 10; i++)
        ck_assert(hist[i] > 9000 && hist[i] < 11000);
}
END_TEST

/* The line map: sim_map_slot makes or finds a slot in one probe, and the
 * map then holds what sim_map_get/put would have, through growth. */
START_TEST(test_map_slot)
{
    struct sim_map m;
    sim_map_init(&m);
    for (uint64_t k = 1; k <= 1000; k++) {
        void **v = sim_map_slot(&m, k * 7919);
        ck_assert_ptr_null(*v);
        *v = (void *)(uintptr_t)k;
    }
    ck_assert_uint_eq(m.len, 1000);
    for (uint64_t k = 1; k <= 1000; k++) {
        void **v = sim_map_slot(&m, k * 7919);
        ck_assert_uint_eq((uintptr_t)*v, k);
        *v = (void *)(uintptr_t)(k + 1);
    }
    ck_assert_uint_eq(m.len, 1000);
    for (uint64_t k = 1; k <= 1000; k++)
        ck_assert_uint_eq((uintptr_t)sim_map_get(&m, k * 7919), k + 1);
    ck_assert_ptr_null(sim_map_get(&m, 3));
    sim_map_destroy(&m);
}
END_TEST

/* sim_xzeroed: zeroed below and above SIM_ZEROED_MIN, writable, freed. */
START_TEST(test_zeroed)
{
    size_t counts[] = {1, SIM_ZEROED_MIN / 8 - 1, SIM_ZEROED_MIN / 8, 1u << 20};
    for (size_t i = 0; i < SIM_COUNT_OF(counts); i++) {
        uint64_t *a = sim_xzeroed(counts[i], sizeof *a);
        ck_assert_uint_eq(a[0], 0);
        ck_assert_uint_eq(a[counts[i] - 1], 0);
        a[0] = a[counts[i] - 1] = 7;
        ck_assert_uint_eq(a[0] + a[counts[i] - 1], 14);
        sim_free_zeroed(a, counts[i], sizeof *a);
    }
    sim_free_zeroed(NULL, 1, 1);
}
END_TEST

static Suite *event_suite(void)
{
    Suite *s = suite_create("event");
    TCase *tc = tcase_create("kernel");
    tcase_add_test(tc, test_time_order);
    tcase_add_test(tc, test_ties_in_schedule_order);
    tcase_add_test(tc, test_zero_delay_goes_last);
    tcase_add_loop_test(tc, test_random_against_reference, 0, 8);
    tcase_add_test(tc, test_cancel);
    tcase_add_test(tc, test_run_until);
    tcase_add_test(tc, test_stop);
    tcase_add_test(tc, test_determinism);
    tcase_add_test(tc, test_free_list_reuse);
    tcase_add_test(tc, test_watchdog);
    tcase_add_exit_test(tc, test_past_is_fatal, SIM_EXIT_INTERNAL);
    tcase_add_test(tc, test_clock);
    tcase_add_test(tc, test_rng);
    tcase_add_test(tc, test_map_slot);
    tcase_add_test(tc, test_zeroed);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite_forked(event_suite()); /* test_past_is_fatal exits */
}
