/*
 * protocol.h -- coherence: private caches, homes (directories), the protocol
 * tables they run, and the invariant checker.
 *
 * A protocol is data: two tables (cache side, home side) of
 * (state, event) -> (actions, next state), stable and transient states
 * alike, executed by one runtime (runtime.c). Adding a protocol means adding
 * a file of tables (mesi.c, mesif.c, moesi.c, gols.c), not branches here.
 *
 * The system: one cache controller per `cores_per_cache` cores (the coherent
 * level: private to a core, or shared by the cores of a die, a tile or a
 * core complex), each core with its own L1 tag filter in front of it that
 * only decides the hit latency (a store drops the line from the other
 * cores' filters: their next access pays the shared level's), and `homes`
 * home controllers. A line's home is chosen by a hash of its number. A home
 * keeps a directory entry per line, serves one transaction per line at a
 * time (others wait in the line's queue: contention emerges there) and
 * spends `occupancy` cycles on every message it handles (the home's input
 * queue: the busier the home, the longer a request waits). The home also
 * holds the memory's copy of its lines (values are real).
 *
 * Invariants (checked on every access by the checker when enabled):
 *   - single writer or many readers: at any instant a line is writable in at
 *     most one cache, and then readable in no other;
 *   - every load returns the value of the last store in the line's coherence
 *     order (the order in which stores performed);
 *   - every fill brings the line's current value;
 *   - a (state, event) pair with no row in the table never happens (it ends
 *     the run naming line, node, state and event), and `unexpected` stays 0.
 */
#ifndef CCSIM_PROTOCOL_H
#define CCSIM_PROTOCOL_H

#include "sim.h"
#include "topology.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ operations */

enum cc_op {
    CC_LOAD,       /* result = word */
    CC_STORE,      /* word = value */
    CC_ADD,        /* result = word; word += value (atomic) */
    CC_CAS,        /* result = word; if word == value then word = value2 (atomic) */
    CC_XCHG,       /* result = word; word = value (atomic exchange) */
    CC_LOAD_LINE,  /* buf = the whole line */
    CC_STORE_LINE, /* the whole line = buf */
    CC_ADD_LINE,   /* every 8-byte word of the line += the same word of buf */
    CC_FLUSH,      /* clflush: the line leaves every cache, written back if dirty */
};

/* The 8-byte word w of a line's bytes (unaligned-safe). */
static inline uint64_t cc_word_get(const uint8_t *line, unsigned w)
{
    uint64_t v;
    memcpy(&v, line + 8 * w, 8);
    return v;
}
static inline void cc_word_set(uint8_t *line, unsigned w, uint64_t v)
{
    memcpy(line + 8 * w, &v, 8);
}

struct cc_req;
/* Does r's operation on a line's bytes (r->result: the word before it);
 * the one definition of what each op does, for every memory system. */
void cc_op_apply(struct cc_req *r, uint8_t *line, unsigned line_bytes);

/* Whether an op only reads (a Load event) or needs the line writable. */
static inline bool cc_op_reads(enum cc_op op)
{
    return op == CC_LOAD || op == CC_LOAD_LINE;
}

struct cc_req;
typedef void (*cc_done_fn)(struct sim_kernel *k, struct cc_req *r);

/* Who sent a prefetch (cc_req.prefetch, cc_step.prefetch). */
enum cc_prefetcher {
    CC_PF_NONE,     /* a core's own access */
    CC_PF_STREAM,   /* the cache's stream prefetcher (p.prefetch_streams) */
    CC_PF_SOFTWARE, /* a copy loop's prefetch instruction (cc_prefetch) */
    CC_PF_STORE,    /* a store waiting for the stores before it: the line's fetch, to write,
                       ahead of it (cc_prefetch_store) */
    CC_PF_NEXT,     /* the cache's next-line prefetcher (p.prefetch_next) */
    CC_PF_PAIR,     /* the cache's adjacent-line prefetcher (p.prefetch_pair) */
};

/* A processor request. The caller owns it until done() is called. */
struct cc_req {
    struct cc_req *next; /* the cache's queues */
    enum cc_op op;
    int core;
    uint64_t line;
    unsigned word; /* 8-byte word within the line */
    uint64_t value, value2;
    uint64_t result;
    uint8_t *buf;     /* line ops: line_bytes bytes */
    bool missed;      /* set by the cache: the line was not readable/writable here */
    bool asked;       /* set by the cache: it asked the home for the line (once counted in
                         misses, prefetches or sw_prefetches, however often it asks) */
    bool counted;     /* set by the cache: counted in misses (once: when it first waited for
                         its line's transaction or a way, or asked the home) */
    uint8_t prefetch; /* enum cc_prefetcher: a prefetch, which no core waits for */
    uint64_t vline;   /* the line's place in the trace's layout (its line index + 1; 0: none):
                         what a cache's prefetchers follow (cc_set_line_map) */
    bool from_writer; /* set by the cache: a miss served by a core that held it M */
    int tag;          /* a prefetch the caller asked for (cc_prefetch, cc_prefetch_store): the
                         caller's label of who asked (a core's hardware thread), for narration;
                         -1 for the hardware prefetchers' */
    cc_done_fn done;
    void *ctx;
};

/* ------------------------------------------------------------ the system */

struct cc_protocol; /* a pair of tables */

struct cc_params {
    const struct cc_protocol *protocol;
    int cores;           /* physical cores: the ids cc_req.core and the calls below take */
    int cores_per_cache; /* cores sharing one coherent cache (0 or 1: a cache per core) */
    int homes;
    unsigned line_bytes;
    struct sim_clock clock; /* core, cache and home clock */
    /* the coherent private level (L2 if there is one, else L1) */
    unsigned sets, ways;
    unsigned hit_cycles;   /* a hit in the coherent level */
    unsigned snoop_cycles; /* a forwarded request or invalidation at a cache */
    /* a cache reads a line out of its data array for one forwarded request
     * before it takes the next forwarded request of that line */
    unsigned fwd_busy_cycles;
    /* a cache answers one forwarded request at a time, whatever the line:
     * the next starts fwd_port_cycles after the last (0: no limit) */
    unsigned fwd_port_cycles;
    bool fwd_port_writes_only; /* only forwards to write (Fwd_GetX) take the port's turns */
    /* the L1 tag filter: a hit in it costs l1_cycles */
    unsigned l1_sets, l1_ways, l1_cycles;
    bool l1_write_through; /* every store goes on to the coherent level (hit_cycles) */
    /* the coherent level's banks (line % banks): each serves one access the
     * L1 did not answer at a time, for bank_busy_cycles; 0: no queueing */
    unsigned banks, bank_busy_cycles;
    /* the coherent level's stream prefetcher (0 streams: none): a stream is
     * a run of reads of consecutive lines in one direction, found after
     * prefetch_train reads (the first a miss); then each read of the
     * stream reads ahead, up to prefetch_depth lines past it, as the
     * cache's own GetS requests */
    unsigned prefetch_streams, prefetch_train, prefetch_depth;
    unsigned prefetch_degree; /* a stream's prefetches sent for one read, at most (0: no limit) */
    /* the next-line prefetcher: a read that missed (or found its line still on
     * its way) fetches the next prefetch_next lines of the layout (0: none) */
    unsigned prefetch_next;
    /* the adjacent-line prefetcher: such a read fetches the other line of its
     * aligned pair (layout places 2k and 2k+1, 1-based 2k+1 and 2k+2) */
    bool prefetch_pair;
    /* the prefetchers stay in the page of the read that set them off, and a
     * stream follows no read into another page (lines a page; 0: no pages) */
    unsigned prefetch_page_lines;
    /* the coherent level's write-back buffers: a line chosen as a victim
     * moves into one while its put is answered, and its way takes the miss
     * that chose it at once; with none free (or 0 of them), the miss waits
     * until the victim's put is acknowledged and its way is free */
    unsigned wb_entries;
    bool prefetch_rfo; /* accesses that fetch their line to write (stores, atomics, addlines)
                          make streams and set off the other prefetchers too: their lines are
                          fetched as GetX (to write) */
    unsigned home_occupancy_cycles; /* per message handled */
    unsigned home_lookup_cycles;    /* from a request's turn to its first action */
    sim_time_t memory_ps;           /* a memory read or write at the home */
    sim_time_t home_retry_ps;       /* a request for a busy line retries after this; 0: it queues */
    /* a request from another socket starts its memory read on arrival, in
     * parallel with the lookup (the home agent's), a local one after it */
    bool remote_early_read;
    sim_time_t bank_busy_ps; /* a line's DRAM bank serves one access at a time; 0: no wait */
    /* the memory controllers at the homes (the coherent runtime's; the SCC
     * backend's are nodes, mcs): a line's access is served by one of them,
     * its home socket's if they divide among the sockets, one line every
     * channel_ps (line_bytes at the controller's bandwidth); 0: no queueing */
    int channels;
    sim_time_t channel_ps;
    /* a read a home sends to memory for a reader that joined its line's
     * fill (cc_supply_from_memory) while the fill (the home's own read,
     * cc_read_memory) is under way is refused and retried after a random
     * backoff, uniform in 0..fill_conflict_ps; 0: never refused */
    sim_time_t fill_conflict_ps;
    uint64_t seed;     /* the run's seed: the backoffs' random stream */
    sim_time_t llc_ps; /* a read of a line the home's LLC holds; 0: no LLC */
    /* the home's LLC: llc_sets sets of llc_ways lines, LRU among the lines
     * no core holds; 0 sets: unbounded (a line once read stays) */
    unsigned llc_sets, llc_ways;
    bool owned_write_writeback;      /* MOESI: a write to an Owned line writes it back */
    bool probe_filter;               /* false: a broadcast home probes every cache (HT) */
    bool probe_per_socket;           /* a broadcast home probes one cache of each socket */
    unsigned data_bytes, ctrl_bytes; /* message sizes on the wire */
    int first_home_node;             /* node ids: caches 0..cores/cores_per_cache-1, homes after */
    int sockets;                     /* homes and cores divide evenly among them */
    /* Memory controllers as nodes of their own (after the homes), for a
     * backend that models them (the SCC's, protocols/scc); 0 where memory
     * sits at the homes (the coherent runtime reads it in memory_ps). */
    int mcs;
    sim_time_t memory_occupancy_ps; /* a line's slot at a controller (its bandwidth) */
};

struct cc_system;

/* A system that runs p->protocol's tables on the coherent runtime. (A
 * memory system with a backend of its own makes its system itself:
 * protocols/backend.h.) */
struct cc_system *cc_create(struct sim_kernel *k, struct net *net, const struct cc_params *p);
void cc_destroy(struct cc_system *s);

/* The socket whose memory holds a line (its home's socket). */
int cc_home_socket(const struct cc_system *s, uint64_t line);

/* Starts a processor request on r->core's cache. */
void cc_access(struct cc_system *s, struct cc_req *r);

/* Methodology ops (zero simulated time). They need the line quiet: no
 * transaction on it anywhere. */
bool cc_line_quiet(const struct cc_system *s, uint64_t line);
/* No message in flight, no memory access pending, no request parked:
 * nothing will happen unless a core asks. */
bool cc_quiet(const struct cc_system *s);
/* Every copy leaves the caches; memory gets the current value. */
void cc_evict_line(struct cc_system *s, uint64_t line);
/* Places the line in core's cache in state 'M', 'E' or 'S'. Other caches
 * keep their copies only where that is coherent (S beside other sharers);
 * otherwise every copy is evicted first. */
void cc_prime_line(struct cc_system *s, int core, uint64_t line, char state);
/* Whether core's prime of a quiet line (cc_line_quiet, the caller's to
 * ask) can run now: core's cache holds it or has a way for it (a free way,
 * or a line it may displace: stable in the cache and quiet at its home; a
 * set with none waits). */
bool cc_prime_ready(const struct cc_system *s, int core, uint64_t line);
/* Whether that prime, run now, will make room for the line in a full set of
 * core's cache by displacing another line (*victim), at no cost like the
 * prime: its copy leaves the cache (on a coherent machine every copy of it
 * leaves the caches), its data going back to memory if modified. For
 * narration: the prime itself says nothing of it. */
bool cc_prime_victim(const struct cc_system *s, int core, uint64_t line, uint64_t *victim);
/* Whether a cache can hold a line in state 'M', 'E' or 'S' (its protocol's
 * table has rows for it: MSI has no E), so that a prime can put it there. */
bool cc_can_hold(const struct cc_system *s, char state);
/* Whether a cache state of that name (as steps name them) serves a load:
 * the stable copies and the transient ones that keep their data (SM_D, SM_A,
 * FM_D, OM_D). */
bool cc_state_name_readable(const char *name);
/* The value of a word as the machine sees it now (for checks and reports). */
uint64_t cc_peek_word(const struct cc_system *s, uint64_t line, unsigned word);

/* One-shot: fn(k, ctx) when core's copy of line stops being readable or is
 * written by this core (a sibling hardware thread), or at once if it is not
 * readable now. For `wait`. */
typedef void (*cc_watch_fn)(struct sim_kernel *k, void *ctx);
void cc_watch(struct cc_system *s, int core, uint64_t line, cc_watch_fn fn, void *ctx);

/* The value of a word in core's own readable copy; false if it has none. */
bool cc_local_word(const struct cc_system *s, int core, uint64_t line, unsigned word,
                   uint64_t *value);

/* The state letter of line in core's cache ('I', 'S', 'E', 'M', 'O', 'F',
 * or 'T' when in a transient state). */
char cc_state_of(const struct cc_system *s, int core, uint64_t line);
/* The node of line's home (the node its home rows' steps name), or -1 on a
 * machine whose homes are no table's (the SCC). */
int cc_home_node_of(const struct cc_system *s, uint64_t line);
/* The state of line at its home by the tables' name ("EM", "SF", ...; "I"
 * for a line the home has no entry for), or NULL on a memory system
 * without a directory state. */
const char *cc_home_state_of(const struct cc_system *s, uint64_t line);
/* True if line's home has an LLC that holds the line (mesif-llc's
 * inclusive LLC, home.llc_cycles), whatever the cores hold. */
bool cc_llc_holds(const struct cc_system *s, uint64_t line);
/* True if that copy holds a write-back memory has not got (the LLC writes
 * it to memory when it drops the line). */
bool cc_llc_dirty(const struct cc_system *s, uint64_t line);
/* The line the last reset (a prime into mesif-llc's inclusive LLC) dropped
 * from a full LLC set, if it dropped one, and whether the LLC's copy held a
 * write-back (then put in memory): outside the timing, as the reset, and
 * not in llc_evictions. */
bool cc_llc_reset_drop(const struct cc_system *s, uint64_t *line, bool *dirty);

/* ------------------------------------------------------------ places */

/* Where a line lives. Every memory system has ordinary memory; a backend
 * may offer places of its own on each core (the SCC's message-passing
 * buffers and test-and-set registers, protocols/scc/scc.h). */
enum cc_line_kind { CC_LINE_MEMORY, CC_LINE_MPB, CC_LINE_TAS };

/* Lines of a kind other than memory each core offers (0: none here). */
int64_t cc_place_count(const struct cc_system *s, enum cc_line_kind kind);
/* The line number of slot `slot` of that kind on core; false where the
 * memory system has none, or past its end. */
bool cc_place_line(const struct cc_system *s, enum cc_line_kind kind, int core, int64_t slot,
                   uint64_t *line);
enum cc_line_kind cc_line_kind(const struct cc_system *s, uint64_t line);
/* Drops core's copies of the lines its memory system does not keep
 * coherent (the SCC's CL1INVMB: every MPB line leaves the L1); nothing
 * where every line is coherent. why: what ran it, as explain says it (the
 * trace's invmb, or a wait's own invalidation before its first read). */
void cc_drop_noncoherent(struct cc_system *s, int core, const char *why);
/* Methodology: every buffered write reaches memory at no cost (the SCC's
 * write-combining buffers; nothing elsewhere). */
void cc_settle(struct cc_system *s);
/* The memory node (socket, or memory controller on the SCC) of a core's
 * first-touch placement. */
int cc_core_memory_node(const struct cc_system *s, int core);
/* The value of a word as core would read it now (on a coherent machine,
 * cc_peek_word; on the SCC, its own buffer or copy if it has one). */
uint64_t cc_core_word(const struct cc_system *s, int core, uint64_t line, unsigned word);
/* A poll of core's failed on a line its request's fill brought from the
 * line's writer (cc_req.from_writer): true if that fill's steal is not yet
 * counted (one steal a fetch, whichever thread of the cache polled: a
 * sibling's poll that joined the fetch, or a prefetch's, counts it when the
 * first poll to fail does), then false for the same fill. */
bool cc_claim_steal(struct cc_system *s, int core, uint64_t line);
/* Where cc_core_word's value comes from. */
enum cc_word_source {
    CC_WORD_LINE,     /* the line itself (every coherent machine; the SCC without a copy) */
    CC_WORD_COPY,     /* the core's own clean copy: where it differs from the line, stale */
    CC_WORD_WRITTEN,  /* the core's own copy, written since its fill (memory is behind it) */
    CC_WORD_OWN_WRITE /* the core's own write still on its way (the SCC's write-combining
                         buffer, or a posted write to memory) */
};
enum cc_word_source cc_core_word_source(const struct cc_system *s, int core, uint64_t line,
                                        unsigned word);

/* ------------------------------------------------------------ statistics */

struct cc_stats {
    uint64_t loads, stores, atomics;
    uint64_t hits, misses;
    uint64_t prefetches; /* fetches the hardware prefetchers (stream, next-line, adjacent) sent */
    uint64_t sw_prefetches;    /* the copy loops' prefetches (cc_prefetch) sent to a home */
    uint64_t store_prefetches; /* waiting stores' fetches ahead (cc_prefetch_store) sent */
    uint64_t invalidations;    /* copies taken away for a write: Inv and Fwd_GetX messages */
    uint64_t handoffs;         /* Data_M from a cache: the line, to write, from cache to cache */
    uint64_t forwards;         /* requests forwarded to a cache */
    uint64_t probes;           /* broadcast probes to caches the directory does not list */
    uint64_t writebacks;       /* dirty data written to memory */
    uint64_t line_busy;        /* requests that met their line busy at its home: each wait in the
                                  line's queue, each refusal (home_retry_ps) */
    uint64_t memory_reads;     /* reads that went to DRAM */
    uint64_t llc_hits;         /* reads the home's LLC served */
    uint64_t llc_fill_waits;   /* reads that met the LLC's own read of the line from memory under
                                  way: they got the line when it came (not in llc_hits) */
    uint64_t llc_evictions;    /* lines a bounded LLC dropped to make room for another */
    uint64_t fill_conflicts;   /* reads refused because the line's fill was under way, each try */
    uint64_t unexpected;       /* must stay 0 */
    sim_time_t home_queue_ps;
    uint64_t checks, violations;
};

void cc_get_stats(const struct cc_system *s, struct cc_stats *out);
/* The coherent runtime's message types as the tables' catalogue spells
 * them (CC_MSGS in cc_internal.h), NULL-terminated. */
extern const char *const cc_msg_names[];
/* How many messages of one type were sent so far, by its catalogue name
 * ("GETS", "DATA_S", "INV", "FWD_GETS", "PUT_ACK", ...; see CC_MSGS in
 * cc_internal.h) or the tables' name ("GetS", "Fwd_GetS"). An unknown name
 * is an internal error. */
uint64_t cc_msg_count(const struct cc_system *s, const char *type_name);
/* Prints every (controller, state, event) row's counter that is non-zero. */
void cc_print_row_counters(const struct cc_system *s, FILE *f);
/* Transactions in flight, per line and node (for deadlock reports). */
void cc_print_outstanding(const struct cc_system *s, FILE *f);
/* Which rows of the protocol's tables ran so far (a row ran when one of its
 * (state, event) cells did): per table (0 the cache's, 1 the home's) the
 * rows, how many ran, and the numbers of those that did not (from 1, as
 * `ccsim protocol` numbers them; "..." ends a list cut short). False, and
 * nothing filled, for a memory system without tables (the SCC's). */
struct cc_coverage {
    int rows[2], run[2];
    char never[2][256];
};
bool cc_row_coverage(const struct cc_system *s, struct cc_coverage *out);
/* Every (state, event) cell of the protocol's tables that ran so far, in
 * table order (the cache's rows, then the home's): fn(ctx, side "cache" or
 * "home", its row's number from 1, the state and event as the table names
 * them, the times it ran). Nothing for a memory system without tables. */
typedef void (*cc_cell_fn)(void *ctx, const char *side, int row, const char *state,
                           const char *event, uint64_t times);
void cc_each_cell_run(const struct cc_system *s, cc_cell_fn fn, void *ctx);

/* ------------------------------------------------------------ observing */

/* A message a row sent, as the tables name it. */
struct cc_sent {
    const char *type;  /* the tables' name: "GetS", "Fwd_GetX", "Data_M", ... */
    const char *gloss; /* what it says, in a few words */
    int dst;           /* node id */
    bool data;         /* it carries the line */
};

/* A directory entry as a home row met it or left it. */
struct cc_dir_view {
    int owner;                   /* the E/M/O owner, or -1 */
    int forwarder;               /* MESIF's F, or -1 */
    int sharers;                 /* how many sharers it lists (the owner not included) */
    const uint64_t *sharer_bits; /* bit set over cores: (cores + 63) / 64 words */
    int pending;                 /* answers the transaction still awaits */
    bool gone;                   /* the answering owner was evicting: it keeps no copy */
};

#define CC_STEP_SENT 4096 /* messages a step lists; nsent_total counts them all */

/* One row that ran: for narrated logs (ccsim explain) and timelines. A
 * backend fills what it knows; the coherent runtime fills everything,
 * so a narration can say what this row did in this instance and nothing
 * the row could have done elsewhere. */
struct cc_step {
    sim_time_t time;
    bool home; /* a home's row, else a cache's */
    int node;  /* the cache's core or the home's node id */
    uint64_t line;
    const char *from, *to;         /* state names (to == from: unchanged) */
    const char *from_doc, *to_doc; /* their glosses (NULL: none) */
    const char *event, *event_doc;
    const char *actions[8]; /* the row's actions, names, NULL-terminated */
    const char *action_docs[8];
    int msg_src;   /* the message's sender, or -1 (a core's request, an internal event) */
    int requester; /* the home's requester, or -1 */
    int owner;     /* home rows: the directory's owner after the row, or -1 */
    int sharers;   /* home rows: how many sharers it lists after the row */
    /* the message that raised the event (NULL type: none) */
    const char *msg_type, *msg_gloss;
    sim_time_t msg_sent; /* when it was sent */
    int msg_acks;        /* the invalidation acks it counted for the requester: a data or grant's
                            receiver awaits them, a forward's passes the count on (0: none) */
    bool msg_first;      /* the first row this message drives (a parked one runs again) */
    /* what the row did (the coherent runtime; 0 / NULL elsewhere) */
    bool detailed;                /* the fields below are filled */
    const struct cc_req *req;     /* the core's request the row took, or NULL */
    const struct cc_req *for_req; /* a Replace row: the request (a prefetch's too) whose wait
                                     for a way of the full set ran it (NULL: a flush's) */
    /* that Replace row's line moves into a write-back buffer to await its
     * put's answer (cc_params.wb_entries): its way is free at once */
    bool to_wb;
    uint8_t prefetch;        /* enum cc_prefetcher: the row took a prefetch request (cache rows: req
                                is NULL), or its message (home rows) */
    int prefetch_tag;        /* cache rows of a prefetch: its cc_req.tag (who asked), or -1 */
    bool stalled, performed; /* the request or message was parked; the request performed */
    int acks_got, acks_need; /* cache rows: the invalidation acks the line has in, and awaits
                                (known once the data came), after the row */
    sim_time_t retry_ps;     /* home rows that park a request with home_retry_ps: it was refused
                                and comes back through the home's input this much later (0: it
                                waits in the line's queue) */
    sim_time_t fill_backoff_ps; /* home steps: memory refused the read this step sent for a
                                   reader, the line's fill under way (memory.fill_conflict_ns):
                                   it is tried again this much later (0: not refused) */
    const struct cc_sent *sent; /* the messages it sent, in order */
    int nsent, nsent_total;     /* listed (at most CC_STEP_SENT), sent in all */
    unsigned memory_reads, llc_reads, writebacks; /* at the home, by this row */
    unsigned llc_fill_waits; /* reads by this row that wait for the LLC's fill from memory */
    unsigned llc_writebacks; /* of writebacks, those the home's LLC took (memory gets them when
                                the LLC drops the line) */
    /* the waits of the row's memory accesses: for the line's bank
     * (memory.bank_busy_ns), then for its memory controller (bandwidth) */
    sim_time_t bank_wait_ps, channel_wait_ps;
    /* llc_drop: a bounded LLC dropped a line from its full set for this
     * row's read, llc_dropped (a line number as `line` is), which a core
     * may still hold (llc_dropped_held: the LLC does not back-invalidate, so
     * only when every line of the set was held) */
    bool llc_drop, llc_dropped_held, llc_dropped_dirty; /* dirty: written to DRAM */
    uint64_t llc_dropped;
    struct cc_dir_view dir_before, dir_after; /* home rows */
    /* the line's bytes before and after the row: the copy (cache rows on a
     * line the cache holds) or the memory's copy (home rows); NULL if none */
    const uint8_t *data_before, *data_after;
    unsigned line_bytes;
};
typedef void (*cc_observer_fn)(void *ctx, const struct cc_step *step);
/* Calls fn after every row (NULL: off). */
void cc_observe(struct cc_system *s, cc_observer_fn fn, void *ctx);

/* The trace's line layout, for the caches' prefetchers: the line
 * number of line index `index` (cc_req.vline - 1) as core would touch it
 * (placed now if it was not yet); false if the trace has no such line.
 * NULL (the default): requests carry no layout and prefetchers stay idle. */
typedef bool (*cc_line_map_fn)(void *ctx, int core, uint64_t index, uint64_t *line);
void cc_set_line_map(struct cc_system *s, cc_line_map_fn fn, void *ctx);

/* The workload's name of line (as its trace writes it, "lock", "buf[3]"),
 * for reports; false if it has none. NULL (the default): reports give the
 * line's number. */
typedef bool (*cc_line_name_fn)(void *ctx, uint64_t line, char *buf, size_t size);
void cc_set_line_namer(struct cc_system *s, cc_line_name_fn fn, void *ctx);
/* "lock" (the namer's), or "0x40" (the line's number) without one. */
void cc_line_label(const struct cc_system *s, uint64_t line, char *buf, size_t size);

/* A core's prefetch instruction (a copy loop's, as compilers issue them
 * ahead of a stream): core's coherent cache fetches the line at layout
 * place vline (cc_set_line_map's; to write, as a store's fetch, if
 * to_write) unless it holds it or is fetching it; nobody waits for it.
 * Counted in stats.sw_prefetches when it goes to a home. True if it was
 * sent: then the cc_set_prefetch_done hook hears of its end. tag: who
 * asked, as the caller labels it (its cc_req.tag, which narration shows). */
bool cc_prefetch(struct cc_system *s, int core, uint64_t vline, bool to_write, int tag);
/* Whether cc_prefetch would send it: false if core's cache holds or is
 * fetching the line (a prefetch instruction then takes no miss slot). */
bool cc_prefetch_wanted(struct cc_system *s, int core, uint64_t vline);
/* Told when a prefetch cc_prefetch sent is done (its line in, or its
 * fetch over): the core that sent it and whether it was to write. NULL
 * (the default): nobody is. */
typedef void (*cc_prefetch_done_fn)(void *ctx, int core, bool to_write);
void cc_set_prefetch_done(struct cc_system *s, cc_prefetch_done_fn fn, void *ctx);
/* A store that waits for the stores before it (a core's stores become
 * visible in program order, x86's TSO) has its line fetched to write
 * meanwhile, as a store buffer fetches ahead of its oldest store; nobody
 * waits for it, the store then finds the line (or asks again). Counted in
 * stats.store_prefetches when it goes to a home. */
void cc_prefetch_store(struct cc_system *s, int core, uint64_t vline, int tag);

/* ------------------------------------------------------------ checker */

/* On: every access and every state change is checked; a violation prints a
 * report (line, nodes, states, the last messages on the line) and counts in
 * stats.violations; if fatal, the run ends with exit status 1. */
void cc_check_enable(struct cc_system *s, bool fatal);

/* ------------------------------------------------------------ protocols */

/* The coherence protocols (tables on the coherent runtime): msi, mesi,
 * mesif, mesif-llc, moesi, gols. The memory systems a machine may name (these and the SCC)
 * are listed once, in the machine's registry (cli/machine/registry.c). */
const struct cc_protocol *cc_protocol_find(const char *name);
const char *cc_protocol_summary(const struct cc_protocol *p);
extern const char *const cc_built_protocols[]; /* NULL-terminated */
/* The tables as Markdown: one table per controller, with a legend. */
void cc_protocol_print(const struct cc_protocol *p, FILE *f);
/* Whether two rows of a table share a (state, event), which no table may
 * (the runtime refuses it): if so, false with "cache rows 3 and 9: state
 * IS_D, event Inv" (home rows likewise) in buf. */
bool cc_protocol_rows_disjoint(const struct cc_protocol *p, char *buf, size_t size);

/* The tables as a Murphi model for Rumur (murphi.c says what it models):
 * `caches` caches (1..), `lines` lines, data values 0..values-1, channels
 * of `queue` messages (0: a bound that fits the protocols built); the
 * home.probe_filter = false (broadcast) and home.owned_write_writeback
 * settings. */
struct cc_murphi_opts {
    int caches, lines, values, queue;
    bool broadcast, owned_write_writeback;
    bool retry; /* home.retry_cycles: a request for a busy line goes back to the home's input */
};
void cc_protocol_murphi(const struct cc_protocol *p, const struct cc_murphi_opts *o, FILE *f);
/* That model's channel bounds: messages a cache's channel (QC) and the
 * home's (QH) hold. */
int cc_murphi_cache_queue(const struct cc_protocol *p, const struct cc_murphi_opts *o);
int cc_murphi_home_queue(const struct cc_murphi_opts *o);
/* One step of a counterexample of that model, printed to `out` as the
 * table rows that ran, a line each: "core 1  line 0  IS_D, Data_S (from
 * the home) -> S   (row 12: write_data, send_unblock)". `rule` is the rule
 * that fired ("cache" or "home"); get(before, NAME) and get(after, NAME)
 * give the model's states before and after the step by component name as
 * the verifier prints it ("C[Cache_1].ln[0].st"; NULL for one not seen),
 * and get(before, "param:NAME") the rule's parameters. False (nothing
 * printed) for another rule. */
typedef const char *(*cc_murphi_get)(void *ctx, const char *name);
bool cc_murphi_step(const struct cc_protocol *p, const struct cc_murphi_opts *o, const char *rule,
                    cc_murphi_get get, void *before, void *after, FILE *out);

/* Single-row mutations of p's tables (mutate.c: a stall row removed, a
 * missing invalidation, an ack not counted, a wrong next state), numbered
 * 0 .. cc_mutant_count(p) - 1. cc_mutant_make returns mutant i (a copy of
 * p, freed by cc_mutant_free) and says what changed in `what`, or NULL. */
int cc_mutant_count(const struct cc_protocol *p);
struct cc_protocol *cc_mutant_make(const struct cc_protocol *p, int i, char *what, size_t size);
void cc_mutant_free(struct cc_protocol *m);

#endif
