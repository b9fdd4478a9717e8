/*
 * machine.h -- the composition root (prefix machine_): the machine
 * description read from a config file, and the assembly of a machine from
 * it: the kernel, the topology (topologies/), the memory system (the
 * coherent protocols of protocols/ or the SCC of protocols/scc/, chosen
 * from the one registry in registry.c) and the core model's view
 * (workloads/core). Only this folder and the application above it
 * (cli/) see every module.
 *
 * Sections owned here: machine, core, l1, l2, memory, home, model,
 * variability. The
 * memory system's own section (the SCC's `mpb`) and the topology's come
 * from their modules through the registry and struct net_ops.
 */
#ifndef CCSIM_MACHINE_H
#define CCSIM_MACHINE_H

#include "config.h"
#include "core.h"
#include "gen.h"
#include "protocol.h"
#include "sim.h"
#include "topology.h"

#include <stdio.h>

struct machine_sec {
    char name[64];
    char description[256];
    char protocol[16];
    char topology[16];
    int64_t sockets;
    int64_t cores; /* in all sockets */
    int64_t threads_per_core;
    int64_t cores_per_cache; /* cores sharing one coherent (l2) cache; >= 1 */
    double clock_ghz;
    int64_t line_bytes;
};

struct machine_core_sec {
    int64_t mshrs;                /* outstanding misses of a copy stream */
    int64_t prefetch_distance;    /* a copy loop prefetches this far ahead (0: not) */
    int64_t prefetch_read_slots;  /* a core's such prefetches to read in flight at most (0: any) */
    int64_t prefetch_write_slots; /* ... to write */
    int64_t poll_cycles;          /* between a failed wait's wake-up and its re-load */
    int64_t
        word_issue_cycles; /* a line op's issue cycles per word and load or store (0: 1 an op) */
    int64_t snoop_cycles;  /* a forwarded request or invalidation at a cache; 0: hit latency */
    int64_t atomic_store_bytes; /* what one store writes atomically (seed 002 Table I) */
    int64_t fwd_busy_cycles; /* a cache busy with one forwarded request of a line; 0: hit latency */
    int64_t fwd_port_cycles; /* a cache answers one forwarded request at a time, any line; 0: no
                                limit */
    bool fwd_port_reads;     /* forwards to read take the port's turns too (default true) */
};

struct machine_cache_sec {
    int64_t size_kb; /* 0: the level does not exist */
    int64_t ways;
    int64_t latency_cycles;   /* hit latency, core cycles */
    bool write_through;       /* l1 only: every store goes on to the l2 */
    int64_t banks;            /* l2 only: banks serving one access at a time (0: no queueing) */
    int64_t bank_busy_cycles; /* l2 only: a bank's time per access */
    /* the stream prefetcher of the coherent level (l2, or l1 without one):
     * streams followed (0: none), reads that make a stream, lines ahead,
     * prefetches sent for one read at most (0: no limit) */
    int64_t prefetch_streams, prefetch_train, prefetch_depth, prefetch_degree;
    int64_t prefetch_next;     /* the next-line prefetcher: lines after a missed read (0: none) */
    bool prefetch_pair;        /* the adjacent-line prefetcher: a missed read's pair line */
    int64_t prefetch_page_kb;  /* the prefetchers do not cross a page of this size (0: no pages) */
    bool prefetch_rfo;         /* stores set the prefetchers off too, fetched to write */
    int64_t writeback_buffers; /* the coherent level's: victims whose put is under way (0: none) */
};

struct machine_memory_sec {
    int64_t controllers;
    double latency_ns;    /* DRAM access at the controller */
    double bandwidth_gbs; /* per controller */
    double bank_busy_ns; /* a line's bank serves one access at a time (coherent runtime); 0: none */
    double fill_conflict_ns; /* a read meeting the home's fill backs off up to this long; 0: none */
};

struct machine_home_sec {
    int64_t count;            /* home controllers (LLC slices, tag directories) */
    int64_t occupancy_cycles; /* per message handled */
    int64_t lookup_cycles;    /* from a message's turn to its first action */
    int64_t llc_cycles;       /* a read the home's inclusive LLC serves; 0: no LLC */
    int64_t llc_kb;           /* its LLC's capacity, a home's share; 0: unbounded */
    int64_t llc_ways;         /* its LLC's associativity (LRU within a set) */
    bool probe_filter;        /* false: every request probes every cache (HyperTransport) */
    bool probe_per_socket;    /* a broadcast home probes one cache of each socket */
    bool remote_early_read; /* another socket's request reads memory in parallel with the lookup */
    bool owned_write_writeback; /* MOESI (Bulldozer): writing an O line writes it back */
    int64_t retry_cycles;       /* a request for a busy line retries after this; 0: it queues */
};

/* Seeded timing variation (all 0 / false: every seed gives the same run,
 * but for memory.fill_conflict_ns's backoffs, which draw from it too).
 * Each source draws from its own stream of the run's seed. */
struct machine_variability_sec {
    double start_skew_ns; /* each thread leaves the run's start and every sync after a
                             delay uniform in [0, start_skew_ns] */
    double jitter_ns;     /* each message arrives after an extra delay uniform in [0, jitter_ns] */
    bool arbitration;     /* simultaneous arrivals at a node or a link in a random order */
};

/* The papers' measured figures for this machine (seed 000 Tables 1-4), for
 * comparison and for validate's `--params paper`; 0: not given. */
struct machine_model_sec {
    double R_L_ns, R_R_ns, R_Q_ns, R_I_ns, R_QI_ns;
    double contention_b_ns, contention_c_ns;
    double congestion_c_ns;
    double multiline_q_ns, multiline_o_ns;
    /* The rows of Tables 2-4 as the paper gives them (n_*: 3 if given, else 0):
     * Table 2 (contention, sendbuf/recvbuf states): b, c, a;
     * Table 3 (Sandy Bridge multi-line, intra and inter socket): q, o, c;
     * Table 4 (Xeon Phi multi-line, sendbuf/recvbuf states): q, o, p. */
    double table2_EE[3], table2_EI[3], table2_IE[3], table2_II[3];
    double table3_intra[3], table3_inter[3];
    double table4_EE[3], table4_EI[3], table4_IE[3], table4_II[3];
    int n_table2_EE, n_table2_EI, n_table2_IE, n_table2_II;
    int n_table3_intra, n_table3_inter;
    int n_table4_EE, n_table4_EI, n_table4_IE, n_table4_II;
};

struct machine_cfg {
    char path[512]; /* the file it came from */
    struct machine_model_sec model;
    struct machine_sec machine;
    struct machine_core_sec core;
    struct machine_cache_sec l1, l2;
    struct machine_memory_sec memory;
    struct machine_home_sec home;
    struct machine_variability_sec variability;
    int protocol_line, topology_line;           /* where they are named, for messages */
    const struct machine_memsys *memsys;        /* NULL if the protocol is not built */
    _Alignas(16) unsigned char memsys_cfg[128]; /* the memory system's own section */
    const struct net_ops *topo;                 /* NULL if the topology is not built */
    _Alignas(16) unsigned char topo_cfg[256];   /* the topology's own section */
    /* per section (machine_sections' order), a bit per key the file or a
     * --set gave: the others hold their defaults */
    uint64_t given[16];
    uint64_t by_set[16]; /* per section, a bit per key: given by a --set (machine_print marks it) */
};

/* A memory system a config may name (registry.c): a coherence protocol's
 * tables on the coherent runtime, or a backend of its own (the SCC). */
struct machine_memsys {
    const char *name;
    bool coherent;           /* tables on the coherent runtime: cc_protocol_find(name) */
    bool tag_directory;      /* GOLS's tag directories: seed 000's Xeon Phi columns apply */
    bool owned_state;        /* an O state: home.owned_write_writeback applies */
    bool llc_answers_reads;  /* its home's LLC answers reads: home.llc_cycles > 0 */
    bool memory_controllers; /* memory controllers are nodes of the network */
    /* a backend's own (NULL / 0 for the coherent protocols) */
    size_t cfg_size;                 /* its config section's struct, in memsys_cfg */
    void (*cfg_defaults)(void *cfg); /* fills defaults before loading */
    size_t (*cfg_sections)(void *cfg, struct cfg_section *out, size_t max);
    /* checks against the rest of the machine: false with FILE:LINE messages */
    bool (*check)(const struct machine_cfg *m, const struct cfg_file *cf, struct sim_diag *d);
    struct cc_system *(*create)(struct sim_kernel *k, struct net *net, const struct cc_params *p,
                                const void *cfg);
    int64_t (*mpb_lines)(const void *cfg, unsigned line_bytes); /* MPB lines per core */
    const char *summary, *reading; /* what `ccsim protocol NAME` prints */
};

/* The value of integer key section.key of m (a topology's or memory
 * system's section too); false if m has no such key. */
bool machine_int_key(const struct machine_cfg *m, const char *section, const char *key, int64_t *v);
/* The memory systems, NULL-terminated, in the registry's order. */
extern const char *const machine_memsys_names[];
/* The row named `name`, or NULL. */
const struct machine_memsys *machine_memsys_find(const char *name);
/* Its one-line summary (`ccsim list protocols`). */
const char *machine_memsys_summary(const struct machine_memsys *ms);
/* What `ccsim protocol NAME` prints: the tables as Markdown, or a
 * backend's reading. */
void machine_memsys_print(const struct machine_memsys *ms, FILE *f);
/* The memory system on a built network. */
struct cc_system *machine_memsys_create(const struct machine_memsys *ms, struct sim_kernel *k,
                                        struct net *net, const struct cc_params *p,
                                        const void *cfg);
/* Why memory system ms has no broadcast home (home.probe_filter = false),
 * and no home.owned_write_writeback; NULL if it has. Config checks and
 * verify's models keep these rules. */
const char *machine_broadcast_refusal(const struct machine_memsys *ms);
const char *machine_owned_writeback_refusal(const struct machine_memsys *ms);
/* MPB lines per core the machine's memory system has (0: none). */
int64_t machine_mpb_lines(const struct machine_cfg *m);

/* A machine built from a config: the kernel, the network, the coherence system. */
struct machine {
    struct sim_kernel *k;
    struct net *net;
    struct cc_system *cc;
    struct cc_params params;
    const struct machine_cfg *cfg;
    uint64_t seed; /* the run's: the variability's streams */
};

/* Loads and checks a machine config; `sets` are --set overrides
 * ("group.key=value"). Returns false with every error in d. */
bool machine_load(struct machine_cfg *m, const char *path, const char *const *sets, size_t nsets,
                  struct sim_diag *d);
/* Builds the machine (seeded). Returns NULL with a FILE:LINE message if the
 * config names a protocol or topology that is not built. */
struct machine *machine_build(const struct machine_cfg *m, uint64_t seed, struct sim_diag *d);
/* The same with coherence parameters the caller adjusted (the stress
 * tester's tiny caches). */
struct machine *machine_build_with(const struct machine_cfg *m, const struct cc_params *p,
                                   uint64_t seed, struct sim_diag *d);
void machine_free(struct machine *mc);
/* The watchdog's interval for runs of traces (machine_watchdog_ps
 * lengthens it on a slow machine): no progress for this long is a
 * deadlock. */
#define MACHINE_WATCHDOG_PS (10000000ull * SIM_PS_PER_NS)
/* The watchdog's interval for a run on mc: floor_ps, or longer on a slow
 * machine, where one operation may outlast it (10 x the network's nodes x
 * the sum of every time its config gives, in cycles or ns, and of a line's
 * time through each of its bandwidths: a bound of one
 * operation's path, so that no slow but moving run is taken for a
 * deadlock). */
sim_time_t machine_watchdog_ps(const struct machine *mc, sim_time_t floor_ps);
/* The core model's view of a built machine. */
void machine_view(const struct machine *mc, struct core_machine *w);
/* The coherence parameters the config gives (before any override). */
bool machine_params(const struct machine_cfg *m, struct cc_params *p, struct sim_diag *d);
/* A float key of any section, by "section.key" (the topology's too), or
 * NAN if there is none. */
double machine_float(struct machine_cfg *m, const char *path);
/* A number setting (int or float) of any section by "section.key": its
 * schema entry (type, bounds, unit) and where m holds its value; false if
 * there is no such number setting. */
bool machine_key(struct machine_cfg *m, const char *path, const struct cfg_key **key, void **value);
/* Whether the setting SECTION.KEY changes anything on this machine (not a
 * key of a section it has not, such as an absent l2, nor one its memory
 * system ignores): what `ccsim config` prints. */
bool machine_key_used(struct machine_cfg *m, const char *path);
/* Says on stderr, after `lead`, which of the --set overrides (G.K=V) name a
 * setting m does not use: they change nothing. */
void machine_note_unused_sets(struct machine_cfg *m, const char *const *sets, size_t nsets,
                              const char *lead);
/* Prints the machine as a readable table (every key, its unit and meaning;
 * a key left out at the value the run resolves it to). */
void machine_print(struct machine_cfg *m);

/* What a generator needs to know of the machine (workloads/gen/gen.h). */
void machine_gen_view(const struct machine_cfg *m, struct gen_machine *g);
/* The generator's trace for the machine, pinned and parsed (`run -w`); NULL
 * with the generator's or the parser's messages in d. */
struct wl_program *machine_generate(const char *spec, int threads, long iterations,
                                    const struct machine_cfg *m, struct sim_diag *d);
/* machine_generate, the generator's messages headed `where` instead of
 * "-w SPEC" (a sweep file's workload). */
struct wl_program *machine_generate_at(const char *where, const char *spec, int threads,
                                       long iterations, const struct machine_cfg *m,
                                       struct sim_diag *d);

/* Finds a config by path or by shipped name ("knc-5110p"); writes the path
 * into buf. Returns false if there is no such file. */
bool machine_config_find(const char *name, char *buf, size_t size);
/* The folder of shipped configs. */
const char *machine_config_dir(void);

#endif
