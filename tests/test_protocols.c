/*
 * test_protocols.c -- every stable-state transition of MSI, MESI, MESIF,
 * MOESI and GOLS, driven by hand on the teaching machine (configs/teach-xbar.cfg:
 * 4 cores on a crossbar): two or three caches take turns, and after each
 * step the test asserts the caches' states, the values loaded, the
 * statistics and, where the step is about messages, the messages sent.
 *
 * The checker runs in fatal mode on every machine: a coherence violation
 * or a (state, event) pair with no row ends the test's process with
 * status 1, which fails the test. The random tester closes the suite.
 *
 * Behaviour the protocols share is one test looped over `expects` (one
 * row per protocol); behaviour only one protocol has is its own test.
 */
#include "machine.h"
#include "stress.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef TU_ASAN
#include <sanitizer/lsan_interface.h>
#endif

#define CORES 4
#define LINE  0x40ull /* the line under test */

/* ------------------------------------------------------------ expectations */

/* What each protocol does where they differ. */
struct expect {
    const char *proto;
    /* a load miss on a line another core holds in E: requester, old owner */
    char e_req, e_old;
    const char *e_data; /* the data message the requester gets */
    /* the same on a line held in M */
    char m_req, m_old;
    uint64_t m_writebacks;
    const char *m_ack; /* the owner's answer to the home */
    /* a load miss on a line two cores share (loaded by core 0, then 1) */
    char sh_req, sh_prev; /* requester, the previous reader (core 1) */
    uint64_t sh_forwards, sh_memory_reads;
};

static const struct expect expects[] = {
    {"mesi", 'S', 'S', "DATA_S", 'S', 'S', 1, "FWD_ACK_DATA", 'S', 'S', 0, 1},
    {"mesif", 'F', 'S', "DATA_F", 'F', 'S', 1, "FWD_ACK_DATA", 'F', 'S', 1, 0},
    {"moesi", 'S', 'S', "DATA_S", 'S', 'O', 0, "FWD_ACK_OWNED", 'S', 'S', 0, 1},
    {"gols", 'S', 'S', "DATA_S", 'S', 'S', 0, "FWD_ACK_DIRTY", 'S', 'S', 1, 0},
};
#define NPROTOS ((int)SIM_COUNT_OF(expects))

/* Every protocol built (MSI has tests of its own: it has no E). */
static int built_count(void)
{
    int n = 0;
    while (cc_built_protocols[n])
        n++;
    return n;
}
#define NBUILT built_count()

/* The message types: the runtime's catalogue (cc_msg_names). */
#define MAX_MSG_TYPES 64

/* ------------------------------------------------------------ the machine */

struct rig {
    struct machine_cfg cfg; /* the machine keeps a pointer to it */
    struct machine *mc;
    const char *proto;
};

/* teach-xbar running `proto`, built with `seed`; sets/ways 0 keep the
 * config's caches, else the coherent cache is sets x ways, without an L1
 * filter (tiny caches force evictions). The checker is on, fatal. */
static struct rig *rig_build(const char *proto, bool owned_wb, unsigned sets, unsigned ways,
                             uint64_t seed, const struct cc_protocol *tables)
{
    struct rig *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    r->proto = proto;
    char set_proto[64];
    snprintf(set_proto, sizeof set_proto, "machine.protocol=\"%s\"", proto);
    /* mesif-llc's home is an LLC: it needs a hit time */
    bool llc = strcmp(proto, "mesif-llc") == 0;
    const char *overrides[] = {set_proto, llc ? "home.llc_cycles=20" : "home.llc_cycles=0",
                               "home.owned_write_writeback=true"};
    struct sim_diag d;
    sim_diag_init(&d);
    ck_assert_msg(
        machine_load(&r->cfg, CCSIM_CONFIGS "/teach-xbar.cfg", overrides, owned_wb ? 3 : 2, &d),
        "%s", d.text);
    struct cc_params p;
    ck_assert_msg(machine_params(&r->cfg, &p, &d), "%s", d.text);
    ck_assert_int_eq(p.cores, CORES);
    if (sets) {
        p.sets = sets;
        p.ways = ways;
        p.l1_sets = p.l1_ways = 0;
    }
    if (tables)
        p.protocol = tables;
    r->mc = machine_build_with(&r->cfg, &p, seed, &d);
    ck_assert_msg(r->mc != NULL, "%s", d.text);
    cc_check_enable(r->mc->cc, true);
    return r;
}

static struct rig *rig_new_seeded(const char *proto, bool owned_wb, unsigned sets, unsigned ways,
                                  uint64_t seed)
{
    return rig_build(proto, owned_wb, sets, ways, seed, NULL);
}

static struct rig *rig_new(const char *proto, bool owned_wb, unsigned sets, unsigned ways)
{
    return rig_new_seeded(proto, owned_wb, sets, ways, 1);
}

static void rig_free(struct rig *r)
{
    machine_free(r->mc);
    free(r);
}

static struct cc_stats stats(const struct rig *r)
{
    struct cc_stats s;
    cc_get_stats(r->mc->cc, &s);
    return s;
}

static uint64_t msg(const struct rig *r, const char *type)
{
    return cc_msg_count(r->mc->cc, type);
}

/* After every step: no missing row, no violation. */
static void assert_clean(const struct rig *r)
{
    struct cc_stats s = stats(r);
    ck_assert_uint_eq(s.unexpected, 0);
    ck_assert_uint_eq(s.violations, 0);
}

/* ------------------------------------------------------------ requests */

struct done_flag {
    bool done;
    sim_time_t at;
};

static void on_done(struct sim_kernel *k, struct cc_req *q)
{
    struct done_flag *f = q->ctx;
    f->done = true;
    f->at = sim_now(k);
}

/* Runs q until the machine is quiet; returns its result and, if latency
 * is not NULL, the time from issue to completion. */
static uint64_t run_req(struct rig *r, struct cc_req *q, sim_time_t *latency)
{
    struct done_flag f = {false, 0};
    q->done = on_done;
    q->ctx = &f;
    sim_time_t t0 = sim_now(r->mc->k);
    cc_access(r->mc->cc, q);
    ck_assert_int_eq(sim_run(r->mc->k, SIM_TIME_MAX), SIM_RUN_EMPTY);
    ck_assert_msg(f.done, "%s: core %d's request never completed", r->proto, q->core);
    assert_clean(r);
    if (latency)
        *latency = f.at - t0;
    return q->result;
}

/* One request on LINE. */
static uint64_t access_at(struct rig *r, int core, enum cc_op op, unsigned word, uint64_t v,
                          uint64_t v2, sim_time_t *latency)
{
    struct cc_req q = {.op = op, .core = core, .line = LINE, .word = word, .value = v};
    q.value2 = v2;
    return run_req(r, &q, latency);
}

/* A load of word 0 of any line. */
static void load_line(struct rig *r, int core, uint64_t line)
{
    struct cc_req q = {.op = CC_LOAD, .core = core, .line = line};
    run_req(r, &q, NULL);
}

static uint64_t ld(struct rig *r, int core, unsigned word)
{
    return access_at(r, core, CC_LOAD, word, 0, 0, NULL);
}

static void st(struct rig *r, int core, unsigned word, uint64_t v)
{
    access_at(r, core, CC_STORE, word, v, 0, NULL);
}

/* Memory holds v in LINE's word (a real store by core 3, then the
 * zero-cost reset to memory). */
static void seed_memory(struct rig *r, unsigned word, uint64_t v)
{
    st(r, 3, word, v);
    cc_evict_line(r->mc->cc, LINE);
    ck_assert_uint_eq(cc_peek_word(r->mc->cc, LINE, word), v);
}

/* Core `core` loads `ways` other lines of LINE's set (its own ones), so
 * the LRU policy must evict LINE from its cache: a real eviction. */
static void evict_by_conflict(struct rig *r, int core)
{
    unsigned sets = r->mc->params.sets, ways = r->mc->params.ways;
    for (unsigned k = 0; k < ways; k++)
        load_line(r, core, LINE + (uint64_t)sets * (1 + (unsigned)core * ways + k));
    ck_assert_int_eq(cc_state_of(r->mc->cc, core, LINE), 'I');
}

/* Each core's state for LINE, core 0 first: e.g. "SSII". */
static void expect_states(const struct rig *r, const char *want)
{
    char got[CORES + 1];
    for (int c = 0; c < CORES; c++)
        got[c] = cc_state_of(r->mc->cc, c, LINE);
    got[CORES] = '\0';
    ck_assert_msg(strcmp(got, want) == 0, "%s: states %s, want %s", r->proto, got, want);
}

/* Counters and messages since a snapshot. */
struct snap {
    struct cc_stats st;
    uint64_t msgs[MAX_MSG_TYPES];
};

static struct snap snap_take(const struct rig *r)
{
    struct snap s;
    s.st = stats(r);
    size_t i = 0;
    for (; cc_msg_names[i]; i++)
        s.msgs[i] = msg(r, cc_msg_names[i]);
    ck_assert_uint_le(i, MAX_MSG_TYPES);
    return s;
}

/* Messages of `type` sent since the snapshot (NULL: of every type). */
static uint64_t msgs_since(const struct rig *r, const struct snap *s, const char *type)
{
    uint64_t n = 0;
    for (size_t i = 0; cc_msg_names[i]; i++)
        if (!type || strcmp(type, cc_msg_names[i]) == 0)
            n += msg(r, cc_msg_names[i]) - s->msgs[i];
    return n;
}

#define SINCE(r, s, field) (stats(r).field - (s)->st.field)

/* The per-step counters most tests assert, since a snapshot. */
static void expect_counts(const struct rig *r, const struct snap *s, uint64_t misses,
                          uint64_t forwards, uint64_t invalidations, uint64_t writebacks,
                          uint64_t memory_reads)
{
    ck_assert_uint_eq(SINCE(r, s, misses), misses);
    ck_assert_uint_eq(SINCE(r, s, forwards), forwards);
    ck_assert_uint_eq(SINCE(r, s, invalidations), invalidations);
    ck_assert_uint_eq(SINCE(r, s, writebacks), writebacks);
    ck_assert_uint_eq(SINCE(r, s, memory_reads), memory_reads);
}

/* Whether the (state, event) row of one side ran: cc_print_row_counters
 * lists the rows that ran, under "cache rows" and "home rows". */
static bool row_ran(const struct rig *r, const char *side, const char *state, const char *event)
{
    char *buf = NULL, *save = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    cc_print_row_counters(r->mc->cc, f);
    fclose(f);
    bool in_side = false, ran = false;
    for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char s[32], e[32];
        if (l[0] != ' ')
            in_side = strncmp(l, side, strlen(side)) == 0;
        else if (in_side && sscanf(l, "%31s %31s", s, e) == 2)
            ran |= strcmp(s, state) == 0 && strcmp(e, event) == 0;
    }
    free(buf);
    return ran;
}

/* ------------------------------------------------------------ loads */

START_TEST(test_load_miss_invalid)
{
    struct rig *r = rig_new(expects[_i].proto, false, 0, 0);
    seed_memory(r, 0, 42);
    struct snap s = snap_take(r);
    ck_assert_uint_eq(ld(r, 0, 0), 42);
    expect_states(r, "EIII");
    expect_counts(r, &s, 1, 0, 0, 0, 1);
    ck_assert_uint_eq(msgs_since(r, &s, "GETS"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "DATA_E"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "UNBLOCK"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, NULL), 3);
    /* a second load hits */
    s = snap_take(r);
    ck_assert_uint_eq(ld(r, 0, 0), 42);
    ck_assert_uint_eq(SINCE(r, &s, hits), 1);
    ck_assert_uint_eq(msgs_since(r, &s, NULL), 0);
    rig_free(r);
}
END_TEST

START_TEST(test_load_miss_exclusive)
{
    const struct expect *x = &expects[_i];
    struct rig *r = rig_new(x->proto, false, 0, 0);
    seed_memory(r, 0, 7);
    ld(r, 0, 0);
    expect_states(r, "EIII");
    struct snap s = snap_take(r);
    ck_assert_uint_eq(ld(r, 1, 0), 7);
    char want[] = {x->e_old, x->e_req, 'I', 'I', '\0'};
    expect_states(r, want);
    expect_counts(r, &s, 1, 1, 0, 0, 0);
    ck_assert_uint_eq(msgs_since(r, &s, "FWD_GETS"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, x->e_data), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "FWD_ACK"), 1);
    /* both copies read the value */
    ck_assert_uint_eq(ld(r, 0, 0), 7);
    ck_assert_uint_eq(ld(r, 1, 0), 7);
    rig_free(r);
}
END_TEST

START_TEST(test_load_miss_modified)
{
    const struct expect *x = &expects[_i];
    struct rig *r = rig_new(x->proto, false, 0, 0);
    st(r, 0, 0, 1234);
    expect_states(r, "MIII");
    struct snap s = snap_take(r);
    ck_assert_uint_eq(ld(r, 1, 0), 1234);
    char want[] = {x->m_old, x->m_req, 'I', 'I', '\0'};
    expect_states(r, want);
    expect_counts(r, &s, 1, 1, 0, x->m_writebacks, 0);
    ck_assert_uint_eq(msgs_since(r, &s, "FWD_GETS"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, x->m_ack), 1);
    ck_assert_uint_eq(msgs_since(r, &s, x->e_data), 1);
    ck_assert_uint_eq(ld(r, 0, 0), 1234);
    /* memory's copy: the reset to memory writes back only O copies and
     * S copies of a GOLS line, so for MESI and MESIF this is the value
     * the read wrote back */
    cc_evict_line(r->mc->cc, LINE);
    ck_assert_uint_eq(cc_peek_word(r->mc->cc, LINE, 0), 1234);
    rig_free(r);
}
END_TEST

START_TEST(test_load_miss_shared)
{
    const struct expect *x = &expects[_i];
    struct rig *r = rig_new(x->proto, false, 0, 0);
    seed_memory(r, 0, 5);
    ld(r, 0, 0);
    ld(r, 1, 0);
    struct snap s = snap_take(r);
    ck_assert_uint_eq(ld(r, 2, 0), 5);
    char want[] = {'S', x->sh_prev, x->sh_req, 'I', '\0'};
    expect_states(r, want);
    expect_counts(r, &s, 1, x->sh_forwards, 0, 0, x->sh_memory_reads);
    ck_assert_uint_eq(msgs_since(r, &s, "FWD_GETS"), x->sh_forwards);
    ck_assert_uint_eq(msgs_since(r, &s, x->e_data), 1);
    rig_free(r);
}
END_TEST

/* MESIF: sharers without a forwarder (primed S copies): the home answers
 * from memory and the reader becomes F. */
START_TEST(test_mesif_shared_without_forwarder)
{
    struct rig *r = rig_new("mesif", false, 0, 0);
    seed_memory(r, 0, 17);
    cc_prime_line(r->mc->cc, 0, LINE, 'S');
    cc_prime_line(r->mc->cc, 1, LINE, 'S');
    expect_states(r, "SSII");
    struct snap s = snap_take(r);
    ck_assert_uint_eq(ld(r, 2, 0), 17);
    expect_states(r, "SSFI");
    expect_counts(r, &s, 1, 0, 0, 0, 1);
    ck_assert_uint_eq(msgs_since(r, &s, "DATA_F"), 1);
    /* the next reader is served by that F copy */
    s = snap_take(r);
    ck_assert_uint_eq(ld(r, 3, 0), 17);
    expect_states(r, "SSSF");
    expect_counts(r, &s, 1, 1, 0, 0, 0);
    rig_free(r);
}
END_TEST

/* GOLS: a modified line read by another core: both S, the directory
 * GOLS, no write-back; a third reader is served by a sharer. */
START_TEST(test_gols_dirty_sharing)
{
    struct rig *r = rig_new("gols", false, 0, 0);
    st(r, 0, 0, 555);
    ld(r, 1, 0);
    expect_states(r, "SSII");
    ck_assert_uint_eq(stats(r).writebacks, 0);
    ck_assert(row_ran(r, "home", "MS_F", "Fwd_Ack_Dirty"));
    ck_assert(row_ran(r, "home", "MG_F", "Done")); /* -> GOLS */
    struct snap s = snap_take(r);
    ck_assert_uint_eq(ld(r, 2, 0), 555);
    expect_states(r, "SSSI");
    expect_counts(r, &s, 1, 1, 0, 0, 0);
    ck_assert_uint_eq(msgs_since(r, &s, "FWD_GETS"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "FWD_ACK"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "DATA_S"), 1);
    ck_assert(row_ran(r, "home", "GOLS", "GetS"));
    ck_assert(row_ran(r, "home", "GG_N", "Done"));
    rig_free(r);
}
END_TEST

/* Loads of LINE by cores first..last issued at once; each one's latency. */
static void loads_at_once(struct rig *r, int first, int last, uint64_t want, sim_time_t *lat)
{
    struct cc_req q[CORES];
    struct done_flag f[CORES];
    sim_time_t t0 = sim_now(r->mc->k);
    for (int c = first; c <= last; c++) {
        f[c] = (struct done_flag){false, 0};
        q[c] =
            (struct cc_req){.op = CC_LOAD, .core = c, .line = LINE, .done = on_done, .ctx = &f[c]};
        cc_access(r->mc->cc, &q[c]);
    }
    ck_assert_int_eq(sim_run(r->mc->k, SIM_TIME_MAX), SIM_RUN_EMPTY);
    assert_clean(r);
    for (int c = first; c <= last; c++) {
        ck_assert_msg(f[c].done && q[c].result == want, "core %d: done %d, read %llu", c, f[c].done,
                      (unsigned long long)q[c].result);
        lat[c] = f[c].at - t0;
    }
}

/* GOLS: reads of a clean shared line (GS) pipeline at the tag directory,
 * each supplied by a sharer (SS_N), the supplier taking one forward after
 * another; reads of an uncached line that meet a memory read go to memory
 * each (IS_M) and every reader ends shared. */
START_TEST(test_gols_concurrent_reads)
{
    struct rig *r = rig_new("gols", false, 0, 0);
    seed_memory(r, 0, 7);
    sim_time_t lat[CORES];
    struct snap s = snap_take(r);
    loads_at_once(r, 1, 3, 7, lat);
    expect_states(r, "ISSS");
    expect_counts(r, &s, 3, 0, 0, 0, 3);
    ck_assert(row_ran(r, "home", "IE_M", "GetS") && row_ran(r, "home", "IS_M", "Mem_Data"));
    rig_free(r);

    r = rig_new("gols", false, 0, 0);
    seed_memory(r, 0, 9);
    ld(r, 0, 0);
    ld(r, 1, 0); /* GS: cores 0 and 1 */
    s = snap_take(r);
    loads_at_once(r, 2, 3, 9, lat);
    expect_states(r, "SSSS");
    expect_counts(r, &s, 2, 2, 0, 0, 0);
    ck_assert(row_ran(r, "home", "SS_N", "GetS"));
    /* the second reader waits for the supplier's forward before it, not a
     * whole transaction: its latency differs by the supplier's busy time */
    sim_time_t busy = (sim_time_t)r->mc->params.fwd_busy_cycles * r->mc->params.clock.period_ps;
    sim_time_t lo = lat[2] < lat[3] ? lat[2] : lat[3], hi = lat[2] < lat[3] ? lat[3] : lat[2];
    ck_assert_msg(hi - lo <= busy + r->mc->params.clock.period_ps, "latencies %llu %llu",
                  (unsigned long long)lo, (unsigned long long)hi);
    rig_free(r);
}
END_TEST

/* MOESI: a read of an O line is answered by the owner, which stays O. */
START_TEST(test_moesi_read_owned)
{
    struct rig *r = rig_new("moesi", false, 0, 0);
    st(r, 0, 0, 31);
    ld(r, 1, 0);
    expect_states(r, "OSII");
    struct snap s = snap_take(r);
    ck_assert_uint_eq(ld(r, 2, 0), 31);
    expect_states(r, "OSSI");
    expect_counts(r, &s, 1, 1, 0, 0, 0);
    ck_assert_uint_eq(msgs_since(r, &s, "FWD_GETS"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "FWD_ACK_OWNED"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "DATA_S"), 1);
    rig_free(r);
}
END_TEST

/* ------------------------------------------------------------ stores */

START_TEST(test_store_miss_invalid)
{
    struct rig *r = rig_new(expects[_i].proto, false, 0, 0);
    seed_memory(r, 1, 8);
    struct snap s = snap_take(r);
    st(r, 0, 0, 3);
    expect_states(r, "MIII");
    expect_counts(r, &s, 1, 0, 0, 0, 1);
    ck_assert_uint_eq(msgs_since(r, &s, "GETX"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "DATA_M"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, NULL), 3);
    ck_assert_uint_eq(ld(r, 0, 1), 8); /* the rest of the line came along */
    ck_assert_uint_eq(ld(r, 0, 0), 3);
    rig_free(r);
}
END_TEST

START_TEST(test_store_hit_exclusive_is_silent)
{
    struct rig *r = rig_new(expects[_i].proto, false, 0, 0);
    ld(r, 0, 0);
    expect_states(r, "EIII");
    struct snap s = snap_take(r);
    st(r, 0, 0, 77);
    expect_states(r, "MIII");
    ck_assert_uint_eq(msgs_since(r, &s, NULL), 0);
    ck_assert_uint_eq(SINCE(r, &s, misses), 0);
    ck_assert_uint_eq(SINCE(r, &s, hits), 1);
    st(r, 0, 1, 78); /* M stays M, silently */
    expect_states(r, "MIII");
    ck_assert_uint_eq(msgs_since(r, &s, NULL), 0);
    ck_assert_uint_eq(SINCE(r, &s, hits), 2);
    ck_assert_uint_eq(ld(r, 1, 0), 77);
    ck_assert_uint_eq(ld(r, 1, 1), 78);
    rig_free(r);
}
END_TEST

/* Whether the protocol's writer collects the acks of a shared line's
 * invalidations (GOLS: Inv_R, acked to the writer) rather than its home. */
static bool writer_collects_acks(const char *proto)
{
    return strcmp(proto, "gols") == 0;
}

/* Store Hit Shared: three copies, core 0 writes. */
START_TEST(test_store_hit_shared)
{
    struct rig *r = rig_new(expects[_i].proto, false, 0, 0);
    bool to_writer = writer_collects_acks(expects[_i].proto);
    seed_memory(r, 0, 1);
    for (int c = 0; c < 3; c++)
        ld(r, c, 0);
    struct snap s = snap_take(r);
    st(r, 0, 0, 11);
    expect_states(r, "MIII");
    expect_counts(r, &s, 1, 0, 2, 0, 0);
    ck_assert_uint_eq(msgs_since(r, &s, "GETX"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "INV"), to_writer ? 0 : 2);
    ck_assert_uint_eq(msgs_since(r, &s, "INV_R"), to_writer ? 2 : 0);
    ck_assert_uint_eq(msgs_since(r, &s, "INV_ACK"), 2);
    ck_assert_uint_eq(msgs_since(r, &s, "GRANT"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "DATA_M"), 0);
    ck_assert_uint_eq(ld(r, 1, 0), 11);
    ck_assert_uint_eq(ld(r, 2, 0), 11);
    rig_free(r);
}
END_TEST

/* MESIF: the F copy writes: the S copy is invalidated, F -> M. */
START_TEST(test_mesif_store_forwarder)
{
    struct rig *r = rig_new("mesif", false, 0, 0);
    ld(r, 0, 0);
    ld(r, 1, 0);
    expect_states(r, "SFII");
    struct snap s = snap_take(r);
    st(r, 1, 0, 12);
    expect_states(r, "IMII");
    expect_counts(r, &s, 1, 0, 1, 0, 0);
    ck_assert_uint_eq(msgs_since(r, &s, "GRANT"), 1);
    ck_assert_uint_eq(ld(r, 0, 0), 12);
    rig_free(r);
}
END_TEST

/* A store by a core that holds nothing, on a line two cores share: the
 * home sends memory's copy, or (GOLS, as it does for reads) has a sharer
 * supply it while the other is invalidated and acks the writer. */
START_TEST(test_store_miss_shared)
{
    struct rig *r = rig_new(expects[_i].proto, false, 0, 0);
    bool to_writer = writer_collects_acks(expects[_i].proto);
    seed_memory(r, 1, 66);
    ld(r, 0, 0);
    ld(r, 1, 0);
    struct snap s = snap_take(r);
    st(r, 2, 0, 13);
    expect_states(r, "IIMI");
    expect_counts(r, &s, 1, to_writer ? 1 : 0, 2, 0, to_writer ? 0 : 1);
    ck_assert_uint_eq(msgs_since(r, &s, "INV_R"), to_writer ? 1 : 0);
    ck_assert_uint_eq(msgs_since(r, &s, "DATA_M"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "GRANT"), 0);
    ck_assert_uint_eq(ld(r, 2, 1), 66);
    ck_assert_uint_eq(ld(r, 0, 0), 13);
    rig_free(r);
}
END_TEST

/* A store miss on a line another core owns (_i / 2: the protocol;
 * _i % 2: the owner is in E, or in M). */
START_TEST(test_store_miss_owned_elsewhere)
{
    bool dirty = _i % 2;
    struct rig *r = rig_new(expects[_i / 2].proto, false, 0, 0);
    seed_memory(r, 0, 20);
    if (dirty)
        st(r, 0, 0, 21);
    else
        ld(r, 0, 0);
    expect_states(r, dirty ? "MIII" : "EIII");
    struct snap s = snap_take(r);
    st(r, 1, 1, 22);
    expect_states(r, "IMII");
    /* the owner's copy is taken away by the Fwd_GetX: an invalidation, and
     * the line, to write, goes from cache to cache: a hand-off */
    expect_counts(r, &s, 1, 1, 1, 0, 0);
    ck_assert_uint_eq(SINCE(r, &s, handoffs), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "FWD_GETX"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "DATA_M"), 1);
    ck_assert_uint_eq(ld(r, 1, 0), dirty ? 21 : 20); /* preserved */
    ck_assert_uint_eq(ld(r, 1, 1), 22);              /* updated */
    ck_assert_uint_eq(ld(r, 0, 1), 22);
    rig_free(r);
}
END_TEST

/* MOESI: the O owner writes (core 0 O, cores 1 and 2 S). Returns the
 * store's latency; owned_wb: Bulldozer's write-back on an Owned write. */
static sim_time_t moesi_owned_write(bool owned_wb)
{
    struct rig *r = rig_new("moesi", owned_wb, 0, 0);
    st(r, 0, 0, 7);
    ld(r, 1, 0);
    ld(r, 2, 0);
    expect_states(r, "OSSI");
    struct snap s = snap_take(r);
    sim_time_t latency;
    access_at(r, 0, CC_STORE, 0, 8, 0, &latency);
    expect_states(r, "MIII");
    expect_counts(r, &s, 1, 0, 2, owned_wb ? 1 : 0, 0);
    ck_assert_uint_eq(msgs_since(r, &s, "GRANT"), 1);
    ck_assert_uint_eq(ld(r, 1, 0), 8);
    expect_states(r, "OSII");
    rig_free(r);
    return latency;
}

START_TEST(test_moesi_owned_write)
{
    sim_time_t plain = moesi_owned_write(false);
    sim_time_t with_wb = moesi_owned_write(true);
    ck_assert_msg(with_wb > plain, "owned write: %llu ps with the write-back, %llu ps without",
                  (unsigned long long)with_wb, (unsigned long long)plain);
}
END_TEST

/* MOESI: a core that holds nothing writes an O line: the sharer is
 * invalidated and the owner supplies the data. */
START_TEST(test_moesi_store_miss_owned)
{
    struct rig *r = rig_new("moesi", false, 0, 0);
    st(r, 0, 0, 41);
    ld(r, 1, 0);
    expect_states(r, "OSII");
    struct snap s = snap_take(r);
    st(r, 3, 1, 42);
    expect_states(r, "IIIM");
    expect_counts(r, &s, 1, 1, 2, 0, 0); /* the sharer's Inv and the owner's Fwd_GetX */
    ck_assert_uint_eq(SINCE(r, &s, handoffs), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "FWD_GETX"), 1);
    /* the tables' name counts the same messages */
    ck_assert_uint_eq(cc_msg_count(r->mc->cc, "Fwd_GetX"), cc_msg_count(r->mc->cc, "FWD_GETX"));
    ck_assert_uint_eq(ld(r, 3, 0), 41);
    ck_assert_uint_eq(ld(r, 1, 1), 42);
    rig_free(r);
}
END_TEST

/* MOESI: a sharer of an O line writes: the owner is invalidated (its
 * dirty copy is not needed: the writer's copy is current). */
START_TEST(test_moesi_store_by_sharer)
{
    struct rig *r = rig_new("moesi", false, 0, 0);
    st(r, 0, 0, 43);
    ld(r, 1, 0);
    struct snap s = snap_take(r);
    st(r, 1, 1, 44);
    expect_states(r, "IMII");
    expect_counts(r, &s, 1, 0, 1, 0, 0);
    ck_assert_uint_eq(msgs_since(r, &s, "GRANT"), 1);
    ck_assert_uint_eq(ld(r, 0, 0), 43);
    ck_assert_uint_eq(ld(r, 0, 1), 44);
    rig_free(r);
}
END_TEST

/* What a GOLS write of a line another core holds modified costs: the
 * reference for the writes of shared lines below (one transfer). */
static sim_time_t gols_owned_write_ps(void)
{
    struct rig *r = rig_new("gols", false, 0, 0);
    sim_time_t t;
    st(r, 0, 0, 1);
    access_at(r, 1, CC_STORE, 0, 2, 0, &t);
    rig_free(r);
    return t;
}

/* GOLS: a sharer of a GOLS line writes: the other sharer goes and acks
 * the writer, which the grant told to await it; no write-back; the write
 * costs what a write to a line another core holds modified costs. */
START_TEST(test_gols_store_by_sharer)
{
    struct rig *r = rig_new("gols", false, 0, 0);
    st(r, 0, 0, 61);
    ld(r, 1, 0);
    struct snap s = snap_take(r);
    sim_time_t shared;
    access_at(r, 1, CC_STORE, 1, 62, 0, &shared);
    expect_states(r, "IMII");
    expect_counts(r, &s, 1, 0, 1, 0, 0);
    ck_assert_uint_eq(msgs_since(r, &s, "GRANT"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "INV_R"), 1);
    ck_assert(row_ran(r, "home", "GOLS", "Upgrade"));
    ck_assert(!row_ran(r, "home", "MM_U", "Inv_Ack")); /* the ack went to the writer */
    sim_time_t owned = gols_owned_write_ps();
    ck_assert_msg(shared <= owned + owned / 10,
                  "a sharer's write of a GOLS line: %lld ps, of a modified line: %lld ps",
                  (long long)shared, (long long)owned);
    ck_assert_uint_eq(ld(r, 0, 0), 61);
    ck_assert_uint_eq(ld(r, 0, 1), 62);
    rig_free(r);
}
END_TEST

/* GOLS: a core that holds nothing writes a GOLS line: one sharer
 * supplies, the other is invalidated and acks the writer, not the tag
 * directory, memory is not read; the write costs what a write to a line
 * another core holds modified costs (seed 000 Sec 2.3: on the Xeon Phi an
 * RFO of a shared line costs R_R, "arbitrated by the DTD"). */
START_TEST(test_gols_store_miss)
{
    struct rig *r = rig_new("gols", false, 0, 0);
    st(r, 0, 0, 71);
    ld(r, 1, 0);
    struct snap s = snap_take(r);
    sim_time_t shared;
    access_at(r, 2, CC_STORE, 1, 72, 0, &shared);
    expect_states(r, "IIMI");
    expect_counts(r, &s, 1, 1, 2, 0, 0); /* both copies leave: an Inv_R and the Fwd_GetX */
    ck_assert_uint_eq(SINCE(r, &s, handoffs), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "FWD_GETX"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "INV_R"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "INV_ACK"), 1);
    ck_assert(row_ran(r, "home", "GOLS", "GetX"));
    ck_assert(!row_ran(r, "home", "MM_U", "Inv_Ack")); /* the ack went to the writer */
    ck_assert(row_ran(r, "cache", "IM_A", "Last_Ack") || row_ran(r, "cache", "IM_D", "Inv_Ack"));
    ck_assert_uint_eq(ld(r, 2, 0), 71);
    sim_time_t owned = gols_owned_write_ps();
    ck_assert_msg(shared <= owned + owned / 10,
                  "a non-holder's write of a GOLS line: %lld ps, of a modified line: %lld ps",
                  (long long)shared, (long long)owned);
    rig_free(r);
}
END_TEST

/* GOLS on the 1024-core mesh: a write of a line 298 other cores share
 * collects 297 acks (the counts outgrew a byte once: an internal error at
 * 255), then a sharer's read and another core's write; checked. */
START_TEST(test_gols_many_sharers)
{
    struct tu_run run;
    const char *trace = tu_write("many.trace", "ccsim-trace 1\nthreads 300\nline x\nall: sync\n"
                                               "0: write x 1\nall: sync\n1..298: read x\n"
                                               "all: sync\n299: write x 2\nall: sync\n"
                                               "0: read x\n5: write x 3\nall: mark done\n");
    tu_ccsim(&run, "run -c mesh-1024 --set 'machine.protocol=\"gols\"' %s --check", trace);
    ck_assert_msg(run.status == 0, "%s", run.err);
    ck_assert_msg(strstr(run.out, "invalidations 301 ") &&
                      strstr(run.out, "value errors 0  coherence violations 0"),
                  "%s", run.out);
}
END_TEST

/* ------------------------------------------------------------ evictions */

START_TEST(test_evict_modified)
{
    struct rig *r = rig_new(expects[_i].proto, false, 2, 2);
    st(r, 0, 0, 81);
    struct snap s = snap_take(r);
    evict_by_conflict(r, 0);
    expect_states(r, "IIII");
    ck_assert_uint_eq(SINCE(r, &s, writebacks), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "PUTX"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "PUT_ACK"), 1);
    ck_assert_uint_eq(cc_peek_word(r->mc->cc, LINE, 0), 81); /* memory's copy */
    ck_assert_uint_eq(ld(r, 1, 0), 81);
    rig_free(r);
}
END_TEST

START_TEST(test_evict_exclusive)
{
    struct rig *r = rig_new(expects[_i].proto, false, 2, 2);
    seed_memory(r, 0, 82);
    ld(r, 0, 0);
    struct snap s = snap_take(r);
    evict_by_conflict(r, 0);
    expect_states(r, "IIII");
    ck_assert_uint_eq(SINCE(r, &s, writebacks), 0);
    ck_assert_uint_eq(msgs_since(r, &s, "PUTX"), 1);
    ck_assert_uint_eq(ld(r, 1, 0), 82);
    expect_states(r, "IEII");
    rig_free(r);
}
END_TEST

/* Two clean shared copies leave one after the other: no write-back. */
START_TEST(test_evict_shared)
{
    const struct expect *x = &expects[_i];
    struct rig *r = rig_new(x->proto, false, 2, 2);
    seed_memory(r, 0, 83);
    ld(r, 0, 0);
    ld(r, 1, 0);
    struct snap s = snap_take(r);
    evict_by_conflict(r, 0);
    char want[] = {'I', x->e_req, 'I', 'I', '\0'};
    expect_states(r, want);
    ck_assert_uint_eq(SINCE(r, &s, writebacks), 0);
    ck_assert_uint_eq(msgs_since(r, &s, "PUTS"), 1);
    evict_by_conflict(r, 1);
    expect_states(r, "IIII");
    ck_assert_uint_eq(SINCE(r, &s, writebacks), 0);
    ck_assert_uint_eq(msgs_since(r, &s, "PUTS"), 2);
    ck_assert_uint_eq(ld(r, 2, 0), 83);
    expect_states(r, "IIEI"); /* the directory forgot both */
    rig_free(r);
}
END_TEST

/* MOESI: the O owner evicts: the line is written back, the sharer stays. */
START_TEST(test_moesi_evict_owned)
{
    struct rig *r = rig_new("moesi", false, 2, 2);
    st(r, 0, 0, 51);
    ld(r, 1, 0);
    expect_states(r, "OSII");
    struct snap s = snap_take(r);
    evict_by_conflict(r, 0);
    expect_states(r, "ISII");
    ck_assert_uint_eq(SINCE(r, &s, writebacks), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "PUTX"), 1);
    evict_by_conflict(r, 1); /* the last, clean, copy */
    expect_states(r, "IIII");
    ck_assert_uint_eq(SINCE(r, &s, writebacks), 1);
    ck_assert_uint_eq(cc_peek_word(r->mc->cc, LINE, 0), 51); /* memory's copy */
    rig_free(r);
}
END_TEST

/* MOESI: the sharer of an O line leaves (the line stays O), then the
 * owner, the last copy, writes it back. */
START_TEST(test_moesi_evict_sharer_of_owned)
{
    struct rig *r = rig_new("moesi", false, 2, 2);
    st(r, 0, 0, 52);
    ld(r, 1, 0);
    struct snap s = snap_take(r);
    evict_by_conflict(r, 1);
    expect_states(r, "OIII");
    ck_assert_uint_eq(SINCE(r, &s, writebacks), 0);
    ck_assert_uint_eq(msgs_since(r, &s, "PUTS"), 1);
    evict_by_conflict(r, 0);
    expect_states(r, "IIII");
    ck_assert_uint_eq(SINCE(r, &s, writebacks), 1);
    ck_assert_uint_eq(cc_peek_word(r->mc->cc, LINE, 0), 52); /* memory's copy */
    ck_assert_uint_eq(ld(r, 2, 0), 52);
    expect_states(r, "IIEI");
    rig_free(r);
}
END_TEST

/* MESIF: the F copy leaves while an S copy stays: the next reader is
 * served by the home and becomes F. */
START_TEST(test_mesif_evict_forwarder)
{
    struct rig *r = rig_new("mesif", false, 2, 2);
    seed_memory(r, 0, 84);
    ld(r, 0, 0);
    ld(r, 1, 0);
    struct snap s = snap_take(r);
    evict_by_conflict(r, 1);
    expect_states(r, "SIII");
    ck_assert_uint_eq(SINCE(r, &s, writebacks), 0);
    ck_assert(row_ran(r, "home", "SF", "PutF"));
    s = snap_take(r);
    ck_assert_uint_eq(ld(r, 2, 0), 84);
    expect_states(r, "SIFI");
    expect_counts(r, &s, 1, 0, 0, 0, 1);
    rig_free(r);
}
END_TEST

/* GOLS: sharers of a dirty line leave; the last one writes it back. */
START_TEST(test_gols_last_sharer_writes_back)
{
    struct rig *r = rig_new("gols", false, 2, 2);
    st(r, 0, 0, 91);
    ld(r, 1, 0);
    expect_states(r, "SSII");
    struct snap s = snap_take(r);
    evict_by_conflict(r, 0);
    expect_states(r, "ISII");
    ck_assert_uint_eq(SINCE(r, &s, writebacks), 0);
    ck_assert_uint_eq(msgs_since(r, &s, "PUTS"), 1);
    evict_by_conflict(r, 1);
    expect_states(r, "IIII");
    ck_assert_uint_eq(SINCE(r, &s, writebacks), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "PUTS"), 2);
    ck_assert(row_ran(r, "home", "GOLS", "PutS_Last"));
    ck_assert_uint_eq(cc_peek_word(r->mc->cc, LINE, 0), 91); /* memory's copy */
    s = snap_take(r);
    ck_assert_uint_eq(ld(r, 2, 0), 91);
    ck_assert_uint_eq(SINCE(r, &s, memory_reads), 1);
    rig_free(r);
}
END_TEST

/* ------------------------------------------------------------ atomics */

START_TEST(test_atomics)
{
    struct rig *r = rig_new(expects[_i].proto, false, 0, 0);
    seed_memory(r, 2, 5);
    ck_assert_uint_eq(access_at(r, 1, CC_ADD, 2, 3, 0, NULL), 5);
    expect_states(r, "IMII");
    ck_assert_uint_eq(ld(r, 2, 2), 8);
    ck_assert_uint_eq(access_at(r, 0, CC_CAS, 2, 8, 100, NULL), 8); /* succeeds */
    expect_states(r, "MIII");
    ck_assert_uint_eq(ld(r, 1, 2), 100);
    ck_assert_uint_eq(access_at(r, 2, CC_CAS, 2, 7, 1, NULL), 100); /* fails */
    ck_assert_uint_eq(ld(r, 3, 2), 100);
    ck_assert_uint_eq(stats(r).atomics, 3);
    rig_free(r);
}
END_TEST

/* Every core adds to one word at the same time, round after round. */
START_TEST(test_concurrent_adds)
{
    enum { ROUNDS = 25 };
    struct rig *r = rig_new(expects[_i].proto, false, 0, 0);
    uint64_t sum = 0;
    for (int round = 0; round < ROUNDS; round++) {
        struct cc_req q[CORES];
        struct done_flag f[CORES];
        for (int c = 0; c < CORES; c++) {
            f[c] = (struct done_flag){false, 0};
            q[c] = (struct cc_req){.op = CC_ADD, .core = c, .line = LINE, .value = 1 + (unsigned)c};
            q[c].done = on_done;
            q[c].ctx = &f[c];
            cc_access(r->mc->cc, &q[c]);
            sum += q[c].value;
        }
        ck_assert_int_eq(sim_run(r->mc->k, SIM_TIME_MAX), SIM_RUN_EMPTY);
        for (int c = 0; c < CORES; c++)
            ck_assert_msg(f[c].done, "round %d: core %d's add never completed", round, c);
        assert_clean(r);
    }
    ck_assert_uint_eq(ld(r, 0, 0), sum);
    ck_assert_uint_eq(stats(r).atomics, ROUNDS * CORES);
    rig_free(r);
}
END_TEST

/* ------------------------------------------------------------ MSI */

/* MSI: a read miss on a line nobody holds gets S (no E). */
START_TEST(test_msi_load_miss_invalid)
{
    struct rig *r = rig_new("msi", false, 0, 0);
    seed_memory(r, 0, 42);
    struct snap s = snap_take(r);
    ck_assert_uint_eq(ld(r, 0, 0), 42);
    expect_states(r, "SIII");
    expect_counts(r, &s, 1, 0, 0, 0, 1);
    ck_assert_uint_eq(msgs_since(r, &s, "GETS"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "DATA_S"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "DATA_E"), 0);
    ck_assert_uint_eq(msgs_since(r, &s, "UNBLOCK"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, NULL), 3);
    rig_free(r);
}
END_TEST

/* What E saves: a read then a write of a private line is one transaction
 * on MESI (the write hits E) and two on MSI (the write upgrades S). */
START_TEST(test_msi_read_then_write)
{
    const char *protos[] = {"msi", "mesi"};
    for (int i = 0; i < 2; i++) {
        struct rig *r = rig_new(protos[i], false, 0, 0);
        struct snap s = snap_take(r);
        ld(r, 0, 0);
        st(r, 0, 0, 5);
        expect_states(r, "MIII");
        ck_assert_uint_eq(SINCE(r, &s, misses), i == 0 ? 2 : 1);
        ck_assert_uint_eq(msgs_since(r, &s, "GETX"), i == 0 ? 1 : 0);
        ck_assert_uint_eq(msgs_since(r, &s, "GRANT"), i == 0 ? 1 : 0);
        ck_assert_uint_eq(msgs_since(r, &s, NULL), i == 0 ? 6 : 3);
        ck_assert_uint_eq(ld(r, 1, 0), 5);
        rig_free(r);
    }
}
END_TEST

/* MSI: a read of an M line: the owner sends the data to the reader and
 * writes it back (the Primer's S^D); both end S. */
START_TEST(test_msi_load_miss_modified)
{
    struct rig *r = rig_new("msi", false, 0, 0);
    st(r, 0, 0, 1234);
    expect_states(r, "MIII");
    struct snap s = snap_take(r);
    ck_assert_uint_eq(ld(r, 1, 0), 1234);
    expect_states(r, "SSII");
    expect_counts(r, &s, 1, 1, 0, 1, 0);
    ck_assert_uint_eq(msgs_since(r, &s, "FWD_GETS"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "FWD_ACK_DATA"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "DATA_S"), 1);
    /* and a third reader is served by memory, which the owner updated */
    s = snap_take(r);
    ck_assert_uint_eq(ld(r, 2, 0), 1234);
    expect_states(r, "SSSI");
    expect_counts(r, &s, 1, 0, 0, 0, 1);
    rig_free(r);
}
END_TEST

/* MSI: a write of an M line is forwarded; a write of an S line invalidates. */
START_TEST(test_msi_store_misses)
{
    struct rig *r = rig_new("msi", false, 0, 0);
    st(r, 0, 0, 1);
    struct snap s = snap_take(r);
    st(r, 1, 0, 2);
    expect_states(r, "IMII");
    expect_counts(r, &s, 1, 1, 1, 0, 0); /* the owner's copy goes with the Fwd_GetX */
    ck_assert_uint_eq(msgs_since(r, &s, "FWD_GETX"), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "DATA_M"), 1);
    ld(r, 0, 0);
    ld(r, 2, 0);
    expect_states(r, "SSSI");
    s = snap_take(r);
    st(r, 3, 0, 3);
    expect_states(r, "IIIM");
    expect_counts(r, &s, 1, 0, 3, 0, 1);
    ck_assert_uint_eq(ld(r, 0, 0), 3);
    rig_free(r);
}
END_TEST

/* MSI: evicting M writes back; evicting S is acknowledged without data. */
START_TEST(test_msi_evictions)
{
    struct rig *r = rig_new("msi", false, 2, 2);
    st(r, 0, 0, 81);
    struct snap s = snap_take(r);
    evict_by_conflict(r, 0);
    ck_assert_uint_eq(SINCE(r, &s, writebacks), 1);
    ck_assert_uint_eq(msgs_since(r, &s, "PUTX"), 1);
    ck_assert_uint_eq(cc_peek_word(r->mc->cc, LINE, 0), 81);
    ld(r, 1, 0);
    s = snap_take(r);
    evict_by_conflict(r, 1);
    expect_states(r, "IIII");
    ck_assert_uint_eq(SINCE(r, &s, writebacks), 0);
    ck_assert_uint_eq(msgs_since(r, &s, "PUTS"), 1);
    ck_assert_uint_eq(ld(r, 2, 0), 81);
    rig_free(r);
}
END_TEST

/* ------------------------------------------------------------ printing */

/* What `ccsim protocol NAME` prints. */
START_TEST(test_protocol_print)
{
    const struct cc_protocol *p = cc_protocol_find(cc_built_protocols[_i]);
    ck_assert_ptr_nonnull(p);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    cc_protocol_print(p, f);
    fclose(f);
    ck_assert_msg(strstr(buf, "## Cache controller") != NULL, "%s", cc_built_protocols[_i]);
    ck_assert_msg(strstr(buf, "## Home controller") != NULL, "%s", cc_built_protocols[_i]);
    ck_assert_msg(strstr(buf, "\n| 1 | I | Load | send_gets, stall | IS_D |\n") != NULL, "%s: %s",
                  cc_built_protocols[_i], buf);
    free(buf);
    char overlap[160];
    ck_assert_msg(cc_protocol_rows_disjoint(p, overlap, sizeof overlap), "%s: %s",
                  cc_built_protocols[_i], overlap);
}
END_TEST

/* ------------------------------------------------------------ random tester */

/* The random tester's run in these tests: 20 000 ops, 3 in flight a core,
 * over 8 lines, with message jitter and a watchdog. */
static struct stress_opts tester_opts(uint64_t seed)
{
    return (struct stress_opts){.mlp = 3,
                                .ops = 20000,
                                .seed = seed,
                                .lines = 8,
                                .max_think_cycles = 20,
                                .jitter_ps = 20000,
                                .watchdog_ns = 1000000};
}

/* As `ccsim stress` runs it: tiny caches, jitter, a watchdog (a deadlock
 * is reported by stress_run, not hung). */
START_TEST(test_stress)
{
    for (uint64_t seed = 1; seed <= 3; seed++) {
        /* stress_run turns the checker to non-fatal: it counts violations */
        struct rig *r = rig_new_seeded(cc_built_protocols[_i], false, 2, 2, seed);
        struct stress_opts o = tester_opts(seed);
        struct stress_result res;
        int status = stress_run(r->mc, &o, &res);
        ck_assert_msg(!res.deadlock, "%s seed %llu: deadlock", cc_built_protocols[_i],
                      (unsigned long long)seed);
        ck_assert_uint_eq(res.violations, 0);
        ck_assert_uint_eq(res.unexpected, 0);
        ck_assert_uint_eq(res.ops, o.ops);
        ck_assert_uint_gt(res.checks, o.ops);
        ck_assert_int_eq(status, SIM_EXIT_OK);
        rig_free(r);
    }
}
END_TEST

/* Runs mutant m as test_stress runs the real tables, in a child whose
 * stderr goes to `path` (a broken table may stop the run later with a
 * table error, which exits); the child exits 0 if stress_run came back. */
static void stress_child(const char *proto, const struct cc_protocol *m, const char *path)
{
    if (!freopen(path, "w", stderr))
        _exit(9);
#ifdef TU_ASAN
    __lsan_disable(); /* a table error ends the run by exit(), its machine allocated */
#endif
    struct rig *r = rig_build(proto, false, 2, 2, 1, m);
    struct stress_opts o = tester_opts(1);
    struct stress_result res;
    stress_run(r->mc, &o, &res);
    fflush(stderr); /* _exit flushes nothing */
    _exit(res.deadlock ? 4 : res.violations > 0 ? 0 : 3);
}

/* Runs mutant k of proto under the random tester in a child (stress_child);
 * its stderr, and its exit status in *status. */
static const char *run_mutant(const char *proto, int k, int *status)
{
    char what[256], path[600];
    struct cc_protocol *m = cc_mutant_make(cc_protocol_find(proto), k, what, sizeof what);
    ck_assert_ptr_nonnull(m);
    snprintf(path, sizeof path, "%s/%s-mutant%d.err", tu_dir(), proto, k);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0)
        stress_child(proto, m, path);
    ck_assert_int_eq(waitpid(pid, status, 0), pid);
    cc_mutant_free(m);
    return tu_slurp(path);
}

/* A home that forgets to count an answer (MESI's mutant 30, `ccsim verify
 * mesi --mutants`: home row 6) waits forever: the tester reports the
 * deadlock with each waiting request and the transactions in flight, and
 * says so in its result. */
START_TEST(test_stress_reports_deadlock)
{
    int status;
    const char *err = run_mutant("mesi", 30, &status);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 4, "status %d: %s", status, err);
    ck_assert_msg(strstr(err, "ccsim stress: deadlock: ") && strstr(err, " waits for its ") &&
                      strstr(err, "awaiting"),
                  "%s", err);
}
END_TEST

/* The checker bites: every "missing invalidation" mutant of every protocol
 * (a home row that forgets to invalidate the sharers, `ccsim verify
 * --mutants`), run by the random tester as test_stress runs the real
 * tables, is reported as a coherence violation (two writable copies, or a
 * write while another core holds a copy) before anything else goes wrong;
 * the real tables never are (test_stress). */
START_TEST(test_checker_catches_missing_invalidation)
{
    const struct cc_protocol *base = cc_protocol_find(cc_built_protocols[_i]);
    int tried = 0;
    for (int k = 0; k < cc_mutant_count(base); k++) {
        char what[256];
        cc_mutant_free(cc_mutant_make(base, k, what, sizeof what));
        if (!strstr(what, "missing invalidation"))
            continue;
        int status;
        const char *err = run_mutant(cc_built_protocols[_i], k, &status);
        const char *first = strstr(err, "ccsim: ");
        ck_assert_msg(WIFEXITED(status) && first &&
                          !strncmp(first, "ccsim: coherence violation", 26),
                      "%s: %s: exit %d, %s", cc_built_protocols[_i], what, status, err);
        tried++;
    }
    ck_assert_int_gt(tried, 0);
}
END_TEST

/* ------------------------------------------------------------ suite */

/* cc_set_line_map's: layout place k is line k. */
static bool line_is_index(void *ctx, int core, uint64_t index, uint64_t *line)
{
    (void)ctx;
    (void)core;
    *line = index;
    return true;
}

/* An L1 holds nothing its coherent level lost: after core 1's store took
 * the line from core 0, a prefetch brings it back into core 0's L2 only,
 * and core 0's load of it costs the L2's hit (12 cycles), not the L1's
 * (2): a tag left in the L1 filter made it an L1 hit. */
START_TEST(test_l1_forgets_lost_lines)
{
    struct machine_cfg cfg;
    struct sim_diag d;
    sim_diag_init(&d);
    const char *l2[] = {"l2.size_kb=64", "l2.ways=8", "l2.latency_cycles=12"};
    ck_assert_msg(machine_load(&cfg, CCSIM_CONFIGS "/teach-xbar.cfg", l2, 3, &d), "%s", d.text);
    struct cc_params p;
    ck_assert_msg(machine_params(&cfg, &p, &d), "%s", d.text);
    struct rig r = {.proto = "mesi"};
    r.mc = machine_build_with(&cfg, &p, 1, &d);
    ck_assert_msg(r.mc != NULL, "%s", d.text);
    cc_set_line_map(r.mc->cc, line_is_index, NULL);
    sim_time_t t;
    ld(&r, 0, 0);
    access_at(&r, 0, CC_LOAD, 0, 0, 0, &t);
    ck_assert_uint_eq(t, 2 * p.clock.period_ps); /* in the L1 */
    access_at(&r, 1, CC_STORE, 0, 7, 0, NULL);
    ck_assert(cc_prefetch(r.mc->cc, 0, LINE + 1, false, -1));
    ck_assert_int_eq(sim_run(r.mc->k, SIM_TIME_MAX), SIM_RUN_EMPTY);
    ck_assert_uint_eq(access_at(&r, 0, CC_LOAD, 0, 0, 0, &t), 7);
    ck_assert_uint_eq(t, 12 * p.clock.period_ps); /* in the L2 only */
    machine_free(r.mc);
}
END_TEST

/* A row that parks a request and leaves its line stable would replay it
 * forever inside one event (no simulated time passes, the watchdog never
 * fires, memory grows): the runtime stops with a message instead. MESI's
 * mutant 5 (cache row 4, S + Store, with a wrong next state: S) is such a row;
 * the run is a child process, which the message ends. */
START_TEST(test_parked_on_stable_stops)
{
    char path[600];
    snprintf(path, sizeof path, "%s/parked.err", tu_dir());
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (!freopen(path, "w", stderr))
            _exit(9);
#ifdef TU_ASAN
        __lsan_disable(); /* the run ends by exit(), its machine still allocated */
#endif
        struct rig *r = rig_new("mesi", false, 0, 0);
        char what[256];
        struct cc_protocol *m = cc_mutant_make(cc_protocol_find("mesi"), 5, what, sizeof what);
        struct cc_params p;
        struct sim_diag d;
        sim_diag_init(&d);
        if (!m || !machine_params(&r->cfg, &p, &d))
            _exit(8);
        p.protocol = m;
        struct machine *mc = machine_build_with(&r->cfg, &p, 1, &d);
        struct done_flag f = {false, 0};
        struct cc_req q1 = {.op = CC_LOAD, .core = 1, .line = LINE, .done = on_done, .ctx = &f};
        cc_access(mc->cc, &q1); /* core 1 holds it E */
        sim_run(mc->k, SIM_TIME_MAX);
        /* core 0 reads (IS_D) and, meanwhile, writes: the store waits on the line, which
         * becomes S when the data comes; the store's replay then parks it in S */
        struct cc_req q = {.op = CC_LOAD, .core = 0, .line = LINE, .done = on_done, .ctx = &f};
        struct cc_req w = {
            .op = CC_STORE, .core = 0, .line = LINE, .value = 1, .done = on_done, .ctx = &f};
        cc_access(mc->cc, &q);
        cc_access(mc->cc, &w);
        sim_run(mc->k, SIM_TIME_MAX);
        _exit(0); /* not reached: the guard ends the run */
    }
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    const char *text = tu_slurp(path);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == SIM_EXIT_FAIL, "status %d: %s", st, text);
    ck_assert_msg(strstr(text, "would be replayed forever"), "%s", text);
}
END_TEST

static Suite *protocols_suite(void)
{
    Suite *s = suite_create("protocols");
    TCase *tc = tcase_create("transitions");
    tcase_add_loop_test(tc, test_load_miss_invalid, 0, NPROTOS);
    tcase_add_loop_test(tc, test_load_miss_exclusive, 0, NPROTOS);
    tcase_add_loop_test(tc, test_load_miss_modified, 0, NPROTOS);
    tcase_add_loop_test(tc, test_load_miss_shared, 0, NPROTOS);
    tcase_add_test(tc, test_mesif_shared_without_forwarder);
    tcase_add_test(tc, test_gols_dirty_sharing);
    tcase_add_test(tc, test_gols_concurrent_reads);
    tcase_add_test(tc, test_moesi_read_owned);
    tcase_add_loop_test(tc, test_store_miss_invalid, 0, NPROTOS);
    tcase_add_loop_test(tc, test_store_hit_exclusive_is_silent, 0, NPROTOS);
    tcase_add_loop_test(tc, test_store_hit_shared, 0, NPROTOS);
    tcase_add_test(tc, test_mesif_store_forwarder);
    tcase_add_loop_test(tc, test_store_miss_shared, 0, NPROTOS);
    tcase_add_loop_test(tc, test_store_miss_owned_elsewhere, 0, 2 * NPROTOS);
    tcase_add_test(tc, test_moesi_owned_write);
    tcase_add_test(tc, test_moesi_store_miss_owned);
    tcase_add_test(tc, test_moesi_store_by_sharer);
    tcase_add_test(tc, test_gols_store_by_sharer);
    tcase_add_test(tc, test_gols_store_miss);
    tcase_add_test(tc, test_gols_many_sharers);
    tcase_add_loop_test(tc, test_evict_modified, 0, NPROTOS);
    tcase_add_loop_test(tc, test_evict_exclusive, 0, NPROTOS);
    tcase_add_loop_test(tc, test_evict_shared, 0, NPROTOS);
    tcase_add_test(tc, test_moesi_evict_owned);
    tcase_add_test(tc, test_moesi_evict_sharer_of_owned);
    tcase_add_test(tc, test_mesif_evict_forwarder);
    tcase_add_test(tc, test_gols_last_sharer_writes_back);
    tcase_add_loop_test(tc, test_atomics, 0, NPROTOS);
    tcase_add_loop_test(tc, test_concurrent_adds, 0, NPROTOS);
    tcase_add_test(tc, test_msi_load_miss_invalid);
    tcase_add_test(tc, test_msi_read_then_write);
    tcase_add_test(tc, test_msi_load_miss_modified);
    tcase_add_test(tc, test_msi_store_misses);
    tcase_add_test(tc, test_msi_evictions);
    tcase_add_test(tc, test_parked_on_stable_stops);
    tcase_add_test(tc, test_l1_forgets_lost_lines);
    tcase_add_loop_test(tc, test_checker_catches_missing_invalidation, 0, NPROTOS);
    tcase_add_test(tc, test_stress_reports_deadlock);
    tcase_add_loop_test(tc, test_protocol_print, 0, NBUILT);
    suite_add_tcase(s, tc);
    TCase *stress = tcase_create("stress");
    tcase_add_loop_test(stress, test_stress, 0, NBUILT);
    suite_add_tcase(s, stress);
    return s;
}

int main(void)
{
    return tu_run_suite(protocols_suite());
}
