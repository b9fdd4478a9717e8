/*
 * cc_internal.h -- what the protocol tables and the runtime share: the
 * catalogues of states, events, messages and actions (X-macros: one list
 * gives the enum and the names), the row format, and the controllers.
 *
 * Not a public header: only files in protocols/ include it.
 */
#ifndef CCSIM_CC_INTERNAL_H
#define CCSIM_CC_INTERNAL_H

#include "backend.h"

/* ------------------------------------------------------------ catalogues */

/* Cache-side states: stable first, then transient, named by transition:
 * XY_W = going from X to Y, waiting for W (D data, A acknowledgement). */
#define CC_CACHE_STATES(X)                                                                         \
    X(I, "invalid")                                                                                \
    X(S, "shared: a copy to read (memory stale under MOESI's O owner or on a GOLS line)")          \
    X(E, "exclusive, clean")                                                                       \
    X(M, "modified")                                                                               \
    X(O, "owned: dirty and shared, answers requests")                                              \
    X(F, "forward: the shared copy that answers requests")                                         \
    X(IS_D, "I to a readable state, waiting for data")                                             \
    X(IM_D, "I to M, waiting for data")                                                            \
    X(IM_A, "I to M, data in, waiting for the invalidated sharers' acks")                          \
    X(SM_A, "S to M, granted, waiting for the invalidated sharers' acks (the copy is still read)") \
    X(SM_D, "S to M, waiting for a grant (an invalidation first makes it IM_D)")                   \
    X(FM_D, "F to M, waiting for a grant")                                                         \
    X(OM_D, "O to M, waiting for a grant")                                                         \
    X(MI_A, "evicting M, waiting for the put ack")                                                 \
    X(EI_A, "evicting E, waiting for the put ack")                                                 \
    X(OI_A, "evicting O, waiting for the put ack")                                                 \
    X(SI_A, "evicting S, waiting for the put ack")                                                 \
    X(FI_A, "evicting F, waiting for the put ack")                                                 \
    X(II_A, "evicting, copy already taken away, waiting for the put ack")

#define CC_CACHE_EVENTS(X)                                                                         \
    X(Load, "the core reads (or a prefetch reads ahead)")                                          \
    X(Store, "the core writes (stores and atomics; or a prefetch fetches ahead, to write)")        \
    X(Replace, "the line is chosen as a victim")                                                   \
    X(Data_S, "data, to be held shared")                                                           \
    X(Data_E, "data, exclusive and clean")                                                         \
    X(Data_M, "data, exclusive, to be written")                                                    \
    X(Data_F, "data, to be held as the forwarder")                                                 \
    X(Grant, "permission to write the copy held")                                                  \
    X(Grant_A, "permission to write the copy held once the invalidated sharers' acks are in")      \
    X(Inv, "invalidate your copy")                                                                 \
    X(Inv_R, "invalidate your copy; the requester collects the ack")                               \
    X(Inv_Ack, "an invalidated sharer's ack to this cache, counted (one that completes the count " \
               "the data or grant already gave is Last_Ack)")                                      \
    X(Last_Ack, "the last invalidated sharer's ack this cache awaited")                            \
    X(Data_A, "data, to be written once the invalidated sharers' acks are in")                     \
    X(Fwd_GetS, "another core reads: send it the data")                                            \
    X(Fwd_GetX, "another core writes: send it the data, drop yours")                               \
    X(Put_Ack, "the home accepted the eviction")                                                   \
    X(Probe, "a broadcast probe (a home without a probe filter asks every cache, or with "         \
             "probe_per_socket one cache a socket)")

/* Home-side states. Stable: what the directory knows. Transient: XY_W =
 * from X to Y waiting for W (M memory, A acks, F the forwarded-to cache's
 * answer, U the requester's unblock); B_Y = waiting for the unblock, then Y. */
#define CC_HOME_STATES(X)                                                                          \
    X(I, "no cached copy; memory is up to date")                                                   \
    X(S, "sharers; memory is up to date")                                                          \
    X(SF, "sharers, one of them the forwarder; memory is up to date")                              \
    X(EM, "one owner, with the only copy")                                                         \
    X(O, "an owner in O, maybe sharers; memory is stale")                                          \
    X(GOLS, "sharers of a dirty line, no owner; memory is stale")                                  \
    X(IE_M, "GetS on I: reading memory, then E (GOLS: IS_M if more reads join, then GS)")          \
    X(IM_M, "GetX on I: reading memory, then M")                                                   \
    X(SS_M, "GetS on a line nobody owns (S; I on MSI): reading memory, then shared")               \
    X(SM_A, "write on a shared line: collecting invalidation acks (and memory)")                   \
    X(MS_F, "GetS on an owner: waiting for its answer and the unblock, then shared (MOESI: MO_F "  \
            "if the owner keeps the line as O)")                                                   \
    X(MO_F, "GetS on an owner that keeps the line as O: waiting, then O")                          \
    X(MG_F, "GetS on a dirty owner (GOLS): waiting, then GOLS")                                    \
    X(MM_U, "a write under way (GetX forwarded to the owner or, GOLS, to the sharer that "         \
            "supplies; or, GOLS, an upgrade granted): waiting for the unblock")                    \
    X(FF_F, "GetS forwarded to the forwarder: waiting, then shared with a new forwarder")          \
    X(OO_F, "GetS forwarded to the O owner: waiting, then O (MS_F if it was evicting and wrote "   \
            "the line back)")                                                                      \
    X(GG_N, "GetS on a GOLS line forwarded to its supplier, more accepted: waiting for the "       \
            "readers' unblocks, then GOLS")                                                        \
    X(XF_A, "write from a non-holder on O (MOESI): collecting acks, then the owner answers")       \
    X(B_EM, "data (or, to a sharer that writes, a grant) sent: waiting for the unblock, then "     \
            "one owner")                                                                           \
    X(B_S, "data sent: waiting for the unblock, then shared")                                      \
    X(B_SF, "data sent: waiting for the unblock, then shared with the requester as forwarder")     \
    X(SS_N, "GetS on a clean shared line forwarded to a sharer, more accepted: waiting for the "   \
            "readers' unblocks, then shared")                                                      \
    X(FF_N, "GetS on a shared line answered by the LLC, more accepted: waiting for the readers' "  \
            "unblocks, then SF")                                                                   \
    X(IS_M, "GetS on I joined by more reads while memory is read: memory supplies every reader, "  \
            "waiting for it and the readers' unblocks, then shared")

#define CC_HOME_EVENTS(X)                                                                          \
    X(GetS, "a cache asks to read, for one of its cores")                                          \
    X(GetX, "a cache that holds nothing asks to write")                                            \
    X(Upgrade, "a cache the directory lists as holding a copy asks to write")                      \
    X(PutS, "a sharer evicts; others still hold the line")                                         \
    X(PutS_Last, "the last sharer evicts")                                                         \
    X(PutF, "the forwarder evicts; other sharers remain")                                          \
    X(PutX, "the owner evicts; sharers remain")                                                    \
    X(PutX_Last, "the owner evicts; nobody else holds the line")                                   \
    X(Put_Stale, "an eviction from a core the directory does not list as a holder")                \
    X(Inv_Ack, "a cache dropped its copy")                                                         \
    X(Mem_Data, "the line came back from memory or the home's LLC")                                \
    X(Mem_Ack, "memory finished a write")                                                          \
    X(Fwd_Ack, "the forwarded-to cache answered; it keeps its copy, shared")                       \
    X(Fwd_Ack_Data, "the owner answered, with the line to write back if it was dirty")             \
    X(Fwd_Ack_Owned, "the owner answered and keeps the line as O")                                 \
    X(Fwd_Ack_Dirty, "the owner answered; the line is dirty and stays in the caches (GOLS)")       \
    X(Unblock, "the requester has its data: the transaction is over")                              \
    X(Probe_Ack, "a probed cache answered")                                                        \
    X(Done, "internal: every awaited answer is in")

/* The messages on the wire: X(ENUM, the tables' name, what it says). The
 * tables' name is the event it raises at its receiver where that is one
 * event (a GetX from a core that holds a copy is the home's Upgrade event,
 * a PutS the last sharer sends its PutS_Last). */
#define CC_MSGS(X)                                                                                 \
    X(GETS, "GetS", "asks for a copy to read")                                                     \
    X(GETX, "GetX", "asks to write: for a copy, or for leave to write the one it holds")           \
    X(PUTS, "PutS", "a shared copy leaves")                                                        \
    X(PUTX, "PutX", "the owned copy leaves")                                                       \
    X(DATA_S, "Data_S", "the line, to hold shared")                                                \
    X(DATA_E, "Data_E", "the line, exclusive and clean")                                           \
    X(DATA_M, "Data_M", "the line, to write")                                                      \
    X(DATA_F, "Data_F", "the line, to hold as the forwarder")                                      \
    X(GRANT, "Grant", "permission to write the copy held")                                         \
    X(INV, "Inv", "drop your copy")                                                                \
    X(INV_R, "Inv_R", "drop your copy, ack the requester")                                         \
    X(INV_ACK, "Inv_Ack", "the copy is dropped")                                                   \
    X(FWD_GETS, "Fwd_GetS", "another core reads: send it the line")                                \
    X(FWD_GETX, "Fwd_GetX", "another core writes: send it the line, drop yours")                   \
    X(FWD_ACK, "Fwd_Ack", "answered; the copy stays, shared (memory as it was)")                   \
    X(FWD_ACK_DATA, "Fwd_Ack_Data", "answered, with the line for memory if dirty")                 \
    X(FWD_ACK_OWNED, "Fwd_Ack_Owned", "answered; the copy stays Owned")                            \
    X(FWD_ACK_DIRTY, "Fwd_Ack_Dirty", "answered; the line stays dirty in the caches")              \
    X(PUT_ACK, "Put_Ack", "the eviction is accepted")                                              \
    X(UNBLOCK, "Unblock", "the requester has its data: the transaction is over")                   \
    X(PROBE, "Probe", "a broadcast probe")                                                         \
    X(PROBE_ACK, "Probe_Ack", "the probe is answered")

#define CC_ENUM_STATE(name, doc) CS_##name,
enum cc_cache_state { CC_CACHE_STATES(CC_ENUM_STATE) CS_COUNT };
#undef CC_ENUM_STATE
#define CC_ENUM_STATE(name, doc) HS_##name,
enum cc_home_state { CC_HOME_STATES(CC_ENUM_STATE) HS_COUNT };
#undef CC_ENUM_STATE
#define CC_ENUM_EVENT(name, doc) CE_##name,
enum cc_cache_event { CC_CACHE_EVENTS(CC_ENUM_EVENT) CE_COUNT };
#undef CC_ENUM_EVENT
#define CC_ENUM_EVENT(name, doc) HE_##name,
enum cc_home_event { CC_HOME_EVENTS(CC_ENUM_EVENT) HE_COUNT };
#undef CC_ENUM_EVENT
#define CC_ENUM_MSG(name, table, doc) M_##name,
enum cc_msg_type { CC_MSGS(CC_ENUM_MSG) M_COUNT };
#undef CC_ENUM_MSG

extern const char *const cc_cache_state_names[CS_COUNT];
extern const char *const cc_cache_state_docs[CS_COUNT];
extern const char *const cc_home_state_names[HS_COUNT];
/* A home state's name as the machine's protocol calls it (its alias: GOLS's GI, GS...). */
const char *cc_home_state_name(const struct cc_system *s, int st);
extern const char *const cc_home_state_docs[HS_COUNT];
extern const char *const cc_cache_event_names[CE_COUNT];
extern const char *const cc_cache_event_docs[CE_COUNT];
extern const char *const cc_home_event_names[HE_COUNT];
extern const char *const cc_home_event_docs[HE_COUNT];
extern const char *const cc_msg_table_names[M_COUNT]; /* "GetS", "Fwd_GetX", ... */
extern const char *const cc_msg_docs[M_COUNT];

/* ------------------------------------------------------------ rows */

struct cc_ctx;

/* An action: a verb_object name, what it does, the code, and the same
 * action in Murphi (the model `ccsim protocol NAME --murphi` writes). */
struct cc_action {
    const char *name;
    const char *doc;
    void (*fn)(struct cc_ctx *c);
    const char *murphi;
};

#define CC_MAX_ACTIONS 6
#define CC_SAME        (-1) /* next state: unchanged */

/* A row: for every state in `states` and every event in `events`, run the
 * actions in order, then move to `next`. A row with the stall action parks
 * the request or message until the line's state changes. */
struct cc_row {
    uint64_t states; /* bit set of states */
    uint64_t events; /* bit set of events */
    const struct cc_action *actions[CC_MAX_ACTIONS];
    int next;
};

#define CC_BIT(x) (1ull << (x))

/* One side's table. */
struct cc_table {
    const struct cc_row *rows;
    size_t nrows;
    /* display names of states for this protocol (NULL: the catalogue's) */
    const char *const *state_alias;
};

struct cc_protocol {
    const char *name;
    const char *summary;
    const char *reading; /* how we read the protocol (for the printed tables) */
    struct cc_table cache, home;
    /* the state a cache line gets from each data message (for prime) */
    bool puts_carry_data; /* GOLS: a sharer's eviction carries the line */
    size_t removed[2];    /* a mutant's: the row it removed from the cache [0] or home [1]
                             table, numbered from 1 (0: none); the rows after it keep their
                             numbers in what is printed */
};

/* ------------------------------------------------------------ controllers */

struct cc_system;

/* A line in a private cache. */
struct cc_line {
    uint64_t line;
    uint8_t state;      /* enum cc_cache_state; CS_I and not valid = free way */
    bool valid;         /* the way is in use */
    bool replaying;     /* its parked requests are being replayed */
    bool from_writer;   /* the last fill came from a core that held it M */
    bool steal_claimed; /* a failed poll of this fill's has counted its steal (cc_claim_steal) */
    bool fill_read;     /* a core's own access has performed on this fill (not a prefetch) */
    uint16_t acks_got;  /* invalidation acks in (IM_D, IM_A, SM_D, SM_A; 0 in every other state;
                           machine.cores <= 4096 caches) */
    uint16_t acks_need; /* the acks the data or grant said to await (IM_A, SM_A; 0 otherwise) */
    uint64_t lru;       /* last use, for replacement */
    sim_time_t snoop_until; /* snoops of this line are taken in order; a forward reads the
                               line out for a hit's cycles, the next snoop waits for it */
    struct cc_req *waiting; /* requests parked on this line, FIFO */
    struct cc_req *waiting_tail;
    uint8_t *data; /* the way's bytes in the cache's data array, set when the way is first
                      filled (so a large cache's ways cost no memory until used) */
};

struct cc_watch {
    struct cc_watch *next;
    uint64_t line;
    cc_watch_fn fn;
    void *ctx;
};

struct cc_cache {
    struct cc_system *sys;
    int id;                /* = node id (= core where each core has its own cache) */
    struct cc_line *lines; /* sets * ways */
    uint64_t *tags;        /* sets * ways: line + 1 of a valid way, 0 for a free one (mirrors
                              lines[].valid and .line, compact for lookups) */
    uint8_t *data;         /* sets * ways * line_bytes */
    uint64_t *l1_tags;     /* per core of the cache: l1_sets * l1_ways, line+1 (0 = empty) */
    uint64_t *l1_lru;
    sim_time_t *bank_until;      /* per bank (p.banks): busy until then, one access at a time */
    struct cc_req **set_waiting; /* per set: requests waiting for a free way */
    struct cc_watch *watches;
    uint64_t tick;             /* LRU clock */
    sim_time_t fwd_port_until; /* the next forwarded request starts no earlier (fwd_port_cycles) */
    struct cc_stream *streams; /* the prefetcher's (p.prefetch_streams), NULL without one */
    /* the write-back buffers (p.wb_entries): lines in an eviction's
     * transient state (XI_A) only, each out of its set, found by address as
     * a way is; a free entry is not valid */
    struct cc_line *wb;
    uint8_t *wb_data; /* wb_entries * line_bytes */
    unsigned wb_used; /* valid entries */
};

/* A stream the prefetcher follows: reads of consecutive lines. */
struct cc_stream {
    bool rfo;       /* a stream of stores (prefetch_rfo): its lines are fetched to write */
    int dir;        /* +1, -1, or 0 while only one read is known */
    unsigned reads; /* reads that followed the stream, the first included; 0: a free entry */
    uint64_t last;  /* the line read last */
    uint64_t ahead; /* prefetched up to here (last, if nothing yet) */
    uint64_t lru;
};

/* A home's transaction on one line. */
struct cc_tx {
    int requester;
    int pending;  /* answers still awaited before Done */
    int supplier; /* the cache asked to supply data (GOLS, MESIF) */
    bool gone;    /* the forwarded-to owner left (it was evicting) */
    bool upgrade; /* the requester holds a copy: it gets a grant, not data */
    int acks;     /* invalidations the requester collects the acks of (GOLS's writes of a
                     shared line); the supplier's forward or the grant carries the count */
};

/* The last messages on a line, for violation and deadlock reports. */
struct cc_hist {
    sim_time_t time;
    int type, src, dst;
};
#define CC_HIST          8
#define CC_DIR_ARRAY_MAX (1u << 22) /* lines below it have their entry in dir_of */

/* A directory entry: one per line a home has seen. */
struct cc_dir {
    struct cc_home *home;
    uint64_t line;
    uint8_t state;     /* enum cc_home_state */
    int owner;         /* E/M/O owner, or -1 */
    int forwarder;     /* MESIF F, or -1 */
    uint64_t *sharers; /* bit set over cores (owner not included) */
    int nsharers;      /* bits set in sharers: changed only by cc_set_sharer, cc_clear_sharers */
    struct cc_tx tx;
    struct sim_msg *queue, *queue_tail; /* requests waiting for the line */
    bool draining;                      /* the queue is being served */
    bool in_llc;          /* the home's LLC holds the line (if it has one): with a bounded
                             LLC, exactly when a way of its home's llc is this dir */
    bool llc_dirty;       /* a write-back went into the LLC's copy, not yet to DRAM: the
                             LLC writes it there when it drops the line (only with in_llc) */
    int transient_caches; /* caches holding the line in a transient state */
    uint8_t *memory;      /* the memory's copy */
    /* the line's bytes a cache sent its requester in this transaction (a
     * forward's data): while an exclusive copy crosses the network no cache
     * holds it, and a peek (expect, reports) reads it here; NULL or not
     * valid outside such a transaction (cleared when the home is stable) */
    uint8_t *flight;
    bool flight_valid;
    sim_time_t bank_until;        /* the line's DRAM bank is busy until then */
    sim_time_t fill_until;        /* the home's own read of the line (its fill) ends then */
    sim_time_t llc_fill_at;       /* the LLC's read of the line from memory is back then:
                                     before, in_llc is set but the line not there yet */
    struct cc_hist hist[CC_HIST]; /* a ring: the newest at hist_next - 1 */
    uint8_t hist_next, hist_len;  /* hist_len <= CC_HIST */
};

/* A cache sends its copy of `line` to the transaction's requester: the
 * bytes in flight (d->flight), for peeks until the home's transaction ends
 * (runtime.c). */
void cc_note_flight(struct cc_system *s, uint64_t line, const uint8_t *data);

/* The i-th newest message on d's line (0: the newest), or NULL. */
static inline const struct cc_hist *cc_dir_hist(const struct cc_dir *d, int i)
{
    if (i >= d->hist_len)
        return NULL;
    return &d->hist[(d->hist_next + CC_HIST - 1 - i) % CC_HIST];
}

struct cc_home {
    struct cc_system *sys;
    int id;    /* node id */
    int index; /* 0..homes-1 */
    struct sim_map dirs;
    sim_time_t busy_until;          /* the input server */
    const struct sim_msg *arriving; /* the message whose arrival drives the row running now */
    /* its bounded LLC (p.llc_sets > 0): llc_sets x llc_ways lines, a set's
     * ways together; llc[w] is the line in way w (its dir has in_llc set),
     * NULL for a free way; llc_use[w] its last use (llc_tick) */
    struct cc_dir **llc;
    uint64_t *llc_use;
    uint64_t llc_tick;
};

/* The context an action runs in. */
struct cc_ctx {
    struct cc_system *sys;
    struct cc_cache *cache; /* cache side */
    struct cc_line *cl;
    struct cc_req *req;   /* the processor request, or NULL */
    struct cc_home *home; /* home side */
    struct cc_dir *dir;
    struct sim_msg *msg; /* the incoming message, or NULL */
    uint64_t line;
    int event;
    bool stalled;   /* the stall action ran */
    bool performed; /* the request was performed */
};

/* Counters per (state, event) cell of each side. */
struct cc_counters {
    uint64_t cache[CS_COUNT][CE_COUNT];
    uint64_t home[HS_COUNT][HE_COUNT];
};

/* The coherent runtime as a backend (backend.h): runtime.c and system.c. */
extern const struct cc_backend cc_coherent_backend;

/* The coherent backend's parts that live in runtime.c. */
void cc_coh_destroy(struct cc_system *s);
void cc_coh_access(struct cc_system *s, struct cc_req *r);
void cc_coh_observe(struct cc_system *s, cc_observer_fn fn, void *ctx);
int cc_coh_home_socket(const struct cc_system *s, uint64_t line);

struct cc_system {
    const struct cc_backend *be;
    void *state; /* a backend's own state (backend.h); NULL for the coherent runtime */
    struct sim_kernel *k;
    struct net *net;
    struct cc_params p;
    const struct cc_protocol *proto;
    const struct cc_row *cache_cell[CS_COUNT][CE_COUNT];
    const struct cc_row *home_cell[HS_COUNT][HE_COUNT];
    struct cc_cache *caches; /* ncaches: cache i serves cores i * cores_per_cache .. + cpc - 1 */
    int ncaches;             /* = p.cores / p.cores_per_cache; nodes 0..ncaches-1 */
    struct cc_home *homes;
    /* directory entries by line for lines below CC_DIR_ARRAY_MAX (line
     * numbers are dense: given on first touch), dir_cap of them, NULL where
     * no home has seen the line; an entry lives as long as the system.
     * Larger lines are found in their home's map (cc_dir_find, cc_dir_get). */
    struct cc_dir **dir_of;
    uint64_t dir_cap;
    size_t sharer_words;
    struct sim_msg_pool msgs;
    /* the prefetcher's requests (prefetch.c): a free list over chunks
     * owned by the system, so none is lost when a run ends with some out */
    cc_line_map_fn line_map; /* cc_set_line_map */
    void *line_map_ctx;
    cc_line_name_fn line_namer; /* cc_set_line_namer */
    void *line_namer_ctx;
    cc_prefetch_done_fn prefetch_done; /* cc_set_prefetch_done */
    void *prefetch_done_ctx;
    struct cc_req *pf_free;
    struct cc_req **pf_chunks;
    size_t pf_nchunks;
    uint64_t memory_pending;   /* memory reads and writes under way */
    sim_time_t *channel_until; /* per memory controller (p.channels): busy until then */
    uint64_t transient_lines;  /* cache lines in a transient state, all caches */
    struct cc_counters counters;
    struct cc_stats stats;
    struct sim_rng fill_rng; /* the backoffs of reads refused for a fill under way */
    uint64_t sent[M_COUNT];  /* messages sent, per type (cc_msg_count) */
    /* the checker */
    bool check, check_fatal;
    struct sim_map shadow; /* line -> golden bytes */
    cc_observer_fn observer;
    void *observer_ctx;
    const struct cc_req *replace_for; /* while a Replace row runs to free a way: the request
                                         that waits for it (observers' cc_step.for_req) */
    /* what the row being observed did (touched only while observing) */
    struct cc_sent obs_sent[CC_STEP_SENT];
    int obs_nsent, obs_total;
    sim_time_t obs_fill_backoff; /* a read the row sent to memory was refused: its backoff */
    /* the line the last LLC fill dropped from a full set (a row's read, or
     * a reset's prime), and whether its LLC copy held a write-back, sent to
     * memory then; cleared where a row or a reset begins */
    struct {
        struct cc_dir *dir;
        bool dirty;
    } llc_drop;
    unsigned obs_llc_writebacks;                /* the row's write-backs the LLC took (not DRAM) */
    sim_time_t obs_bank_wait, obs_channel_wait; /* its memory accesses' waits */
    uint64_t *obs_bits;                         /* the sharers before the row */
    uint8_t obs_data[SIM_MAX_LINE_BYTES];
};

/* ------------------------------------------------------------ runtime API */

/* The actions every protocol may use: X(name, what it does, its Murphi
 * body). The C code is in actions.c (cc_NAME, hc_NAME); the Murphi body is
 * the same action in the model `ccsim protocol NAME --murphi` writes
 * (murphi.c), so an action without one does not build (actions.c asserts
 * it is there). A body runs inside a procedure with these names:
 *   cache side: c (the cache), l (the line), cl (alias of C[c].ln[l]: .st,
 *     .v the copy's value, .got and .need the invalidation acks in and
 *     awaited), m (the message, or an empty one for a core's request: .t,
 *     .src the sending cache, .rq the requester, .data, .v, .gone, .acks the
 *     acks a forward or data says the requester awaits), f (the step:
 *     f.stalled, f.performed);
 *   home side: l, m, f, ev (the event), pick (a cache the step may choose),
 *     d (alias of D[l]: .st, .owner, .fwd, .sharer[], .mem, .requester,
 *     .pending, .supplier, .gone, .upgrade, .acks; owner, fwd, requester and
 *     supplier are undefined when there is none);
 * and the model's helpers: to_home(type, c, line, requester, data?, value,
 * gone?), to_cache(type, dst, line, requester, data?, value) (from the
 * home), to_peer(type, c, requester, line, value, acks) (data from cache c
 * to the requester), ack_peer(c, requester, line) (an invalidation ack from
 * cache c to the requester), is(x, k) (x is defined and is k), perform(c,
 * l, f), park(l, m), await_answers(l, k), forward(l, type, to, await?),
 * forward_acks(l, type, to, acks), to_cache_acks(type, dst, line, requester,
 * acks), pick_sharer(l, except, pick, var result), choose_supplier(l, pick)
 * (the owner, else a sharer), inv_holders(l, type, all?) (every holder but
 * the requester and, unless all, the supplier: Inv, the home awaits the
 * ack; Inv_R, the requester collects it),
 * clear_holders(l); NV, PUTS_CARRY_DATA, owned_write_writeback,
 * probe_filter. Caches are a scalarset: the model is symmetric in them. */
#define CC_CACHE_ACTIONS(X)                                                                        \
    X(perform_request, "do the load, store or atomic on the copy held; answer the core",           \
      "perform(c, l, f);")                                                                         \
    X(stall, "park the request or message until the line changes state",                           \
      "assert m.t = M_NONE \"a cache parks only its core's requests\"; f.stalled := true;")        \
    X(send_gets, "ask the home for a copy to read", "to_home(M_GETS, c, l, c, false, 0, false);")  \
    X(send_getx, "ask the home for a copy to write", "to_home(M_GETX, c, l, c, false, 0, false);") \
    X(send_upgrade, "ask the home for permission to write the copy held",                          \
      "to_home(M_GETX, c, l, c, false, 0, false);")                                                \
    X(send_upgrade_data, "ask to write; with owned_write_writeback the Owned line goes along",     \
      "to_home(M_GETX, c, l, c, owned_write_writeback, cl.v, false);")                             \
    X(send_puts, "tell the home this shared copy leaves (GOLS: with the line)",                    \
      "to_home(M_PUTS, c, l, c, PUTS_CARRY_DATA, cl.v, false);")                                   \
    X(send_putx, "tell the home the owned copy leaves (with the data if dirty)",                   \
      "to_home(M_PUTX, c, l, c, cl.st = C_M | cl.st = C_O, cl.v, false);")                         \
    X(write_data, "fill the copy from the message",                                                \
      "assert m.data \"write_data: the message carries no data\"; cl.v := m.v;")                   \
    X(send_unblock, "tell the home the transaction is over",                                       \
      "to_home(M_UNBLOCK, c, l, c, false, 0, false);")                                             \
    X(send_inv_ack, "tell the home the copy is dropped",                                           \
      "to_home(M_INV_ACK, c, l, m.rq, false, 0, false);")                                          \
    X(send_inv_ack_to_req, "tell the requester the copy is dropped", "ack_peer(c, m.rq, l);")      \
    X(count_ack, "one more invalidation ack is in",                                                \
      "assert cl.got < NC \"count_ack: more acks than caches\"; cl.got := cl.got + 1;")            \
    X(await_acks, "remember how many acks the data or the grant said to await",                    \
      "assert m.acks > cl.got \"await_acks: every ack is in\"; cl.need := m.acks;")                \
    X(clear_acks, "every awaited ack is in: forget the count", "cl.got := 0; cl.need := 0;")       \
    X(send_data_s_to_req, "send the requester the data, to hold shared",                           \
      "to_peer(M_DATA_S, c, m.rq, l, cl.v, 0);")                                                   \
    X(send_data_f_to_req, "send the requester the data, to hold as the forwarder",                 \
      "to_peer(M_DATA_F, c, m.rq, l, cl.v, 0);")                                                   \
    X(send_data_m_to_req,                                                                          \
      "send the requester the data, to write (with the count of acks it awaits, if any)",          \
      "to_peer(M_DATA_M, c, m.rq, l, cl.v, m.acks);")                                              \
    X(send_fwd_ack, "tell the home the request was answered; this copy stays, shared",             \
      "to_home(M_FWD_ACK, c, l, m.rq, false, 0, false);")                                          \
    X(send_fwd_ack_data, "tell the home the request was answered, writing the line back",          \
      "to_home(M_FWD_ACK_DATA, c, l, m.rq, true, cl.v, "                                           \
      "cl.st = C_MI_A | cl.st = C_EI_A | cl.st = C_OI_A);")                                        \
    X(send_fwd_ack_owned, "tell the home the request was answered; this copy stays Owned",         \
      "to_home(M_FWD_ACK_OWNED, c, l, m.rq, false, 0, false);")                                    \
    X(send_fwd_ack_dirty, "tell the home the request was answered; the line stays dirty (GOLS)",   \
      "to_home(M_FWD_ACK_DIRTY, c, l, m.rq, false, 0, false);")                                    \
    X(send_probe_ack, "answer a broadcast probe",                                                  \
      "to_home(M_PROBE_ACK, c, l, m.rq, false, 0, false);")

#define CC_HOME_ACTIONS(X)                                                                         \
    X(stall, "park the request until the line's transaction is over",                              \
      "assert m.t = M_GETS | m.t = M_GETX | m.t = M_PUTS | m.t = M_PUTX "                          \
      "\"a home parks only requests\"; park(l, m); f.stalled := true;")                            \
    X(start_tx, "remember the requester; the line is busy",                                        \
      "d.requester := m.src; d.pending := 0; undefine d.supplier; d.gone := false; "               \
      "d.upgrade := ev = HE_Upgrade; d.acks := 0;")                                                \
    X(probe_others,                                                                                \
      "(broadcast homes only) probe every cache the directory does not list (one a socket with "   \
      "probe_per_socket) and await their answers",                                                 \
      "if !probe_filter then for k: Cache do "                                                     \
      "if !is(d.requester, k) & !is(d.owner, k) & !d.sharer[k] then "                              \
      "to_cache(M_PROBE, k, l, d.requester, false, 0); await_answers(l, 1); "                      \
      "endif; endfor; endif;")                                                                     \
    X(read_memory, "read the line from memory (one answer awaited)",                               \
      "await_answers(l, 1); d.mem_reads := d.mem_reads + 1;")                                      \
    X(write_memory, "write the message's data to memory", "if m.data then d.mem := m.v; endif;")   \
    X(write_memory_wait, "if the request carries data, write it to memory and wait for it",        \
      "if m.data then d.mem := m.v; await_answers(l, 1); d.mem_acks := d.mem_acks + 1; endif;")    \
    X(take_fwd_data, "write the owner's data to memory", "if m.data then d.mem := m.v; endif;")    \
    X(inv_sharers, "send every other holder an invalidation; await their acks",                    \
      "inv_holders(l, M_INV, true);")                                                              \
    X(inv_sharers_but_supplier,                                                                    \
      "invalidate every sharer but the supplier (the owner, else a sharer)",                       \
      "choose_supplier(l, pick); inv_holders(l, M_INV, false);")                                   \
    X(pick_supplier, "choose the cache that supplies the line: the owner, else a sharer",          \
      "choose_supplier(l, pick);")                                                                 \
    X(inv_sharers_ack_requester,                                                                   \
      "invalidate every holder but the requester and the supplier (if any); each acks the "        \
      "requester, and the supplier's forward or the grant tells it how many",                      \
      "inv_holders(l, M_INV_R, false);")                                                           \
    X(send_data_e, "send the requester the data, exclusive",                                       \
      "to_cache(M_DATA_E, d.requester, l, d.requester, true, d.mem);")                             \
    X(send_data_s, "send the requester the data, shared",                                          \
      "to_cache(M_DATA_S, d.requester, l, d.requester, true, d.mem);")                             \
    X(send_data_f, "send the requester the data, as the new forwarder",                            \
      "to_cache(M_DATA_F, d.requester, l, d.requester, true, d.mem);")                             \
    X(send_data_m, "send the requester the data, to write",                                        \
      "to_cache(M_DATA_M, d.requester, l, d.requester, true, d.mem);")                             \
    X(send_grant,                                                                                  \
      "let the requester write the copy it holds (with the count of acks it collects, if any)",    \
      "to_cache_acks(M_GRANT, d.requester, l, d.requester, d.acks);")                              \
    X(send_data_or_grant, "data if the requester holds no copy any more, else a grant",            \
      "if d.upgrade then to_cache(M_GRANT, d.requester, l, d.requester, false, 0); "               \
      "else to_cache(M_DATA_M, d.requester, l, d.requester, true, d.mem); endif;")                 \
    X(fwd_gets_to_owner, "forward the read to the owner; await its answer",                        \
      "forward(l, M_FWD_GETS, d.owner, true);")                                                    \
    X(fwd_gets_to_forwarder, "forward the read to the forwarder; await its answer",                \
      "forward(l, M_FWD_GETS, d.fwd, true);")                                                      \
    X(share_read,                                                                                  \
      "make the reader a sharer now, forward the read to the line's supplier (one "                \
      "sharer, the same for every read until the line is quiet), await the reader's "              \
      "unblock and the supplier's answer",                                                         \
      "if isundefined(d.supplier) then pick_sharer(l, m.src, pick, d.supplier); endif; "           \
      "assert !isundefined(d.supplier) \"share_read: nobody to supply\"; "                         \
      "assert d.supplier != m.src \"share_read: the reader supplies itself\"; "                    \
      "d.sharer[m.src] := true; to_cache(M_FWD_GETS, d.supplier, l, m.src, false, 0); "            \
      "await_answers(l, 2);")                                                                      \
    X(share_read_memory,                                                                           \
      "make the reader a sharer now and have the home send it the data, a read of its own (from "  \
      "the home's LLC if it holds the line, else from memory, queued at the line's bank); await "  \
      "the reader's unblock",                                                                      \
      "d.sharer[m.src] := true; to_cache(M_DATA_S, m.src, l, m.src, true, d.mem); "                \
      "await_answers(l, 1);")                                                                      \
    X(fwd_getx_to_owner, "forward the write to the owner",                                         \
      "forward(l, M_FWD_GETX, d.owner, false);")                                                   \
    X(fwd_getx_to_supplier,                                                                        \
      "forward the write to the sharer chosen to supply (GOLS: with the count of acks the "        \
      "requester collects)",                                                                       \
      "forward_acks(l, M_FWD_GETX, d.supplier, d.acks);")                                          \
    X(await_unblock, "await the requester's unblock", "await_answers(l, 1);")                      \
    X(count_answer, "one awaited answer is in",                                                    \
      "assert d.pending > 0 \"count_answer: no answer was awaited\"; "                             \
      "d.pending := d.pending - 1;")                                                               \
    X(note_gone, "the answering owner was evicting: it keeps no copy",                             \
      "if m.gone then d.gone := true; endif;")                                                     \
    X(set_owner, "the requester is the owner; no sharers",                                         \
      "clear_holders(l); d.owner := d.requester;")                                                 \
    X(add_sharer, "the requester becomes a sharer", "d.sharer[d.requester] := true;")              \
    X(add_owner_as_sharer, "the old owner keeps a shared copy (unless it left)",                   \
      "assert !isundefined(d.owner) \"add_owner_as_sharer: no owner\"; "                           \
      "if !d.gone then d.sharer[d.owner] := true; endif; undefine d.owner;")                       \
    X(set_forwarder, "the requester is the forwarder", "d.fwd := d.requester;")                    \
    X(remove_sender, "the sender holds no copy any more",                                          \
      "d.sharer[m.src] := false; if is(d.owner, m.src) then undefine d.owner; endif; "             \
      "if is(d.fwd, m.src) then undefine d.fwd; endif;")                                           \
    X(send_put_ack, "accept the eviction", "to_cache(M_PUT_ACK, m.src, l, m.src, false, 0);")

#define CC_DECLARE_ACTION(name, doc, murphi) extern const struct cc_action cc_act_##name;
CC_CACHE_ACTIONS(CC_DECLARE_ACTION)
#undef CC_DECLARE_ACTION
#define CC_DECLARE_ACTION(name, doc, murphi) extern const struct cc_action hc_act_##name;
CC_HOME_ACTIONS(CC_DECLARE_ACTION)
#undef CC_DECLARE_ACTION

/* Helpers for actions (runtime.c). */
#define CC_FLAG_GONE        1u /* the answering owner keeps no copy */
#define CC_FLAG_FROM_WRITER 2u /* data from a core that held the line E or M */
#define CC_FLAG_SEEN        4u /* an observer has seen a row this message drove */
/* bits 3-5: the enum cc_prefetcher of a request a prefetch sent (narration only) */
#define CC_FLAG_PREFETCH_SHIFT 3
#define CC_FLAG_PREFETCH_MASK  (7u << CC_FLAG_PREFETCH_SHIFT)
void cc_send(struct cc_system *s, int type, int src, int dst, uint64_t line, int requester,
             const uint8_t *data, uint32_t flags);
/* cc_send with the count of acks the message tells its receiver to await. */
void cc_send_counted(struct cc_system *s, int type, int src, int dst, uint64_t line, int requester,
                     const uint8_t *data, uint32_t flags, int acks);
void cc_complete_request(struct cc_ctx *c);
void cc_park_request(struct cc_system *s, struct cc_line *cl, struct cc_req *r);
/* A demand request that could not be served from its own copy: counted
 * in misses once, whether it waited (parked, or for a way) or asked. */
void cc_count_miss(struct cc_system *s, struct cc_req *r);
void cc_park_message(struct cc_dir *d, struct sim_msg *m);
int cc_home_node(const struct cc_system *s, uint64_t line);
bool cc_is_sharer(const struct cc_system *s, const struct cc_dir *d, int core);
void cc_set_sharer(struct cc_system *s, struct cc_dir *d, int core, bool on);
int cc_sharer_count(const struct cc_system *s, const struct cc_dir *d);
void cc_clear_sharers(struct cc_system *s, struct cc_dir *d);
int cc_first_sharer(const struct cc_system *s, const struct cc_dir *d, int except);
void cc_read_memory(struct cc_ctx *c);
/* Memory sends `reader` the line as Data_S after its read (runtime.c). */
void cc_supply_from_memory(struct cc_ctx *c, int reader);
/* Wakes the watchers of line in cache c (its copy changed or left). */
void cc_fire_watches(struct cc_system *s, struct cc_cache *c, uint64_t line);
/* The cache that serves a core (its node id). */
static inline int cc_cache_of_core(const struct cc_system *s, int core)
{
    return core / s->p.cores_per_cache;
}
/* Whether core's L1 filter holds line (a hit there costs l1_cycles, else the
 * coherent level's hit_cycles); the line is in that core's L1 afterwards. */
bool cc_l1_touch(struct cc_system *s, struct cc_cache *cache, int core, uint64_t line);
/* Whether core's L1 filter holds line, touching nothing (no filter: false). */
bool cc_l1_holds(const struct cc_system *s, const struct cc_cache *cache, int core, uint64_t line);
/* The line leaves the L1 filters of all of cache's cores: the coherent
 * level's copy stopped being readable (invalidated, evicted or dropped), and
 * an L1 holds nothing its coherent level does not. */
void cc_l1_drop(struct cc_system *s, struct cc_cache *cache, uint64_t line);
/* The line leaves the L1 filters of cache's other cores (a store by core, or
 * a fill the others' stale copies predate). */
void cc_l1_drop_others(struct cc_system *s, struct cc_cache *cache, int core, uint64_t line);
/* "core" where each core has its own cache, "cache" where cores share one:
 * what a cache's number names in messages. */
static inline const char *cc_cache_word(const struct cc_system *s)
{
    return s->p.cores_per_cache > 1 ? "cache" : "core";
}
/* A write to DRAM the row waits for (Mem_Ack), past any LLC: MOESI's
 * write-back of an Owned line before its write (Bulldozer's, seed 001 Sec
 * IV-E, to memory); the LLC's copy is then clean. */
void cc_write_memory_event(struct cc_ctx *c);
struct cc_home *cc_home_of(struct cc_system *s, uint64_t line);
struct cc_dir *cc_dir_get(struct cc_system *s, struct cc_home *h, uint64_t line);
struct cc_dir *cc_dir_find_large(struct cc_system *s, uint64_t line);
/* The line's directory entry, or NULL if it has none yet. */
static inline struct cc_dir *cc_dir_find(struct cc_system *s, uint64_t line)
{
    if (line < s->dir_cap)
        return s->dir_of[line];
    return line < CC_DIR_ARRAY_MAX ? NULL : cc_dir_find_large(s, line);
}
/* prefetch.c: core's read of the line at layout place vline (cc_req.vline)
 * at cache c (missed: not readable there, or still on its way) trains c's
 * streams and may set off its next-line prefetcher: either may send
 * prefetches; cc_prefetch_free releases the system's prefetch requests. */
void cc_prefetch_observe(struct cc_system *s, struct cc_cache *c, int core, uint64_t vline,
                         bool rfo, bool missed);
void cc_prefetch_free(struct cc_system *s);
/* runtime.c: a request enters cache c (a core's, or the prefetcher's). */
void cc_process_request(struct cc_system *s, struct cc_cache *c, struct cc_req *r);

/* What the home knows of a message's sender, and the home event of a
 * message of `type` from it, or -1 (runtime.c). */
struct cc_sender {
    bool sharer, owner, forwarder; /* the sender is a sharer, the owner, the forwarder */
    bool any_owner;                /* the line has an owner */
    int sharers;                   /* sharers listed (the sender among them, if it is one) */
};
int cc_home_event_for(int type, const struct cc_sender *w);
/* The cache event of a message type, or -1 (runtime.c). */
int cc_cache_event_of(int type);
/* That event refined by the acks a message carries and the line's count
 * of acks (Data_M -> Data_A, Inv_Ack -> Last_Ack; runtime.c). */
int cc_cache_event_counted(int ev, int acks, const struct cc_line *cl);
/* runtime.c's home_event_of as a Murphi function (for murphi.c). */
extern const char cc_murphi_home_event[];

/* The checker (checker.c). */
void cc_check_load(struct cc_system *s, int core, uint64_t line, unsigned word, uint64_t value);
void cc_check_store(struct cc_system *s, int cache, uint64_t line, const uint8_t *data);
void cc_check_fill(struct cc_system *s, int cache, uint64_t line, const uint8_t *data);
/* The state letter of line in cache (cc_state_of's, by cache number). */
char cc_cache_state_of(const struct cc_system *s, int cache, uint64_t line);
void cc_check_states(struct cc_system *s, uint64_t line);
uint8_t *cc_shadow(struct cc_system *s, uint64_t line);
void cc_violation(struct cc_system *s, uint64_t line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* State properties. */
bool cc_state_readable(int state); /* a load may be served */
bool cc_state_writable(int state); /* a store may be performed (E or M) */
bool cc_state_stable(int state);   /* not a transient state (no transaction under way) */

/* Writing rows: S(I) | S(S) for state sets, E(Load) | E(Store) for event
 * sets, CA(send_gets) / HA(start_tx) for actions. */
#define CC_S(x)  CC_BIT(CS_##x)
#define CC_E(x)  CC_BIT(CE_##x)
#define CC_HS(x) CC_BIT(HS_##x)
#define CC_HE(x) CC_BIT(HE_##x)
#define CA(x)    &cc_act_##x
#define HA(x)    &hc_act_##x
#define CC_ROW(states, events, next, ...)                                                          \
    {                                                                                              \
        states, events, {__VA_ARGS__}, next                                                        \
    }
#define CC_ROW0(states, events, next)                                                              \
    {                                                                                              \
        states, events, {NULL}, next                                                               \
    } /* no action */
#define CC_TRANSIENT_CACHE                                                                         \
    (CC_S(IS_D) | CC_S(IM_D) | CC_S(IM_A) | CC_S(SM_A) | CC_S(SM_D) | CC_S(FM_D) | CC_S(OM_D) |    \
     CC_S(MI_A) | CC_S(EI_A) | CC_S(OI_A) | CC_S(SI_A) | CC_S(FI_A) | CC_S(II_A))
#define CC_HOME_TRANSIENT                                                                          \
    (CC_HS(IE_M) | CC_HS(IM_M) | CC_HS(SS_M) | CC_HS(SM_A) | CC_HS(MS_F) | CC_HS(MO_F) |           \
     CC_HS(MG_F) | CC_HS(MM_U) | CC_HS(FF_F) | CC_HS(OO_F) | CC_HS(GG_N) | CC_HS(XF_A) |           \
     CC_HS(B_EM) | CC_HS(B_S) | CC_HS(B_SF) | CC_HS(SS_N) | CC_HS(FF_N) | CC_HS(IS_M))
#define CC_HOME_REQUESTS                                                                           \
    (CC_HE(GetS) | CC_HE(GetX) | CC_HE(Upgrade) | CC_HE(PutS) | CC_HE(PutS_Last) | CC_HE(PutF) |   \
     CC_HE(PutX) | CC_HE(PutX_Last) | CC_HE(Put_Stale))
/* The requests a protocol's home can get: PutF only where there is a
 * forwarder (MESIF), PutX (an owner's eviction that leaves sharers) only
 * where an owner has sharers (MOESI's O); elsewhere an owner's eviction is
 * PutX_Last. A stall row names these, so that its table shows no event the
 * protocol cannot have. */
#define CC_HOME_REQUESTS_NO_SHARED_OWNER (CC_HOME_REQUESTS & ~(CC_HE(PutF) | CC_HE(PutX)))

/* The protocols. */
/* The home's LLC (p.llc_ps > 0) reads d's line in or uses it again
 * (bounded: a full set's least recently used line no core holds leaves
 * it); drop: the line leaves it, back in memory. */
/* A write-back no one waits for: into the home's LLC where it holds the
 * line (written to DRAM when the LLC drops it), else its controller's time. */
void cc_post_memory_write(struct cc_system *s, struct cc_dir *d);
void cc_llc_fill(struct cc_system *s, struct cc_dir *d);
/* The same for a reset (a prime), outside the timing: a line it drops is
 * not counted, its write-back goes to memory at no cost, and
 * s->llc_drop names it for the reset's narration. */
void cc_llc_fill_reset(struct cc_system *s, struct cc_dir *d);
void cc_llc_drop(struct cc_system *s, struct cc_dir *d);

extern const struct cc_protocol cc_msi, cc_mesi, cc_mesif, cc_mesif_llc, cc_moesi, cc_gols;

/* A cache's ways: fill and free keep c->tags in step with the ways; find
 * looks a line up in the tags alone (one host cache line per set). */
static inline void cc_way_fill(struct cc_cache *c, struct cc_line *cl, uint64_t line)
{
    cl->valid = true;
    cl->line = line;
    c->tags[cl - c->lines] = line + 1;
    cl->data = c->data + (size_t)(cl - c->lines) * c->sys->p.line_bytes;
}

/* Whether cl is one of c's write-back buffers (not a way of a set). */
static inline bool cc_way_in_wb(const struct cc_cache *c, const struct cc_line *cl)
{
    return c->wb && cl >= c->wb && cl < c->wb + c->sys->p.wb_entries;
}

static inline void cc_way_free(struct cc_cache *c, struct cc_line *cl)
{
    cl->valid = false;
    if (cc_way_in_wb(c, cl))
        c->wb_used--;
    else
        c->tags[cl - c->lines] = 0;
}

/* The write-back buffer that holds line in c, or NULL. */
static inline struct cc_line *cc_wb_find(const struct cc_system *s, const struct cc_cache *c,
                                         uint64_t line)
{
    for (unsigned i = 0; c->wb_used && i < s->p.wb_entries; i++)
        if (c->wb[i].valid && c->wb[i].line == line)
            return &c->wb[i];
    return NULL;
}

/* The way (or write-back buffer) that holds line in c, or NULL. */
static inline struct cc_line *cc_way_find(const struct cc_system *s, const struct cc_cache *c,
                                          uint64_t line)
{
    size_t base = (size_t)(line & (s->p.sets - 1)) * s->p.ways;
    for (unsigned w = 0; w < s->p.ways; w++)
        if (c->tags[base + w] == line + 1)
            return &c->lines[base + w];
    return cc_wb_find(s, c, line);
}

#endif
