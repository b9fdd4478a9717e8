/*
 * machine.h -- the machine description read from a config file, and the
 * assembly of a machine from it. This is the top layer: it is the only code
 * (with the CLI) that sees every module.
 *
 * Sections owned here: machine, core, l1, l2, memory. Later layers add the
 * protocol's and the topology's sections through their ops tables.
 */
#ifndef CCSIM_MACHINE_H
#define CCSIM_MACHINE_H

#include "protocol.h"
#include "sim.h"
#include "topology.h"
#include "workload.h"

struct sim_machine_sec {
    char name[64];
    char description[256];
    char protocol[16];
    char topology[16];
    int64_t sockets;
    int64_t cores; /* in all sockets */
    int64_t threads_per_core;
    double clock_ghz;
    int64_t line_bytes;
};

struct sim_core_sec {
    int64_t mshrs;              /* outstanding misses of a copy stream */
    int64_t poll_cycles;        /* between a failed wait's wake-up and its re-load */
    int64_t snoop_cycles;       /* a forwarded request or invalidation at a cache; 0: hit latency */
    int64_t atomic_store_bytes; /* what one store writes atomically (seed 002 Table I) */
};

struct sim_cache_sec {
    int64_t size_kb; /* 0: the level does not exist */
    int64_t ways;
    int64_t latency_cycles; /* hit latency, core cycles */
};

struct sim_memory_sec {
    int64_t controllers;
    double latency_ns;    /* DRAM access at the controller */
    double bandwidth_gbs; /* per controller */
};

struct sim_home_sec {
    int64_t count;              /* home controllers (LLC slices, tag directories) */
    int64_t occupancy_cycles;   /* per message handled */
    int64_t lookup_cycles;      /* from a message's turn to its first action */
    int64_t llc_cycles;         /* a read the home's inclusive LLC serves; 0: no LLC */
    bool probe_filter;          /* false: every request probes every cache (HyperTransport) */
    bool owned_write_writeback; /* MOESI (Bulldozer): writing an O line writes it back */
};

/* The SCC's message-passing buffers (protocol scc only; seed 004 Sec II, IV-D). */
struct sim_mpb_sec {
    int64_t size_kb;       /* per core */
    int64_t miu_cycles;    /* core cycles: the mesh interface packs a miss and unpacks the answer */
    int64_t access_cycles; /* core cycles: one MPB SRAM access at its tile */
    int64_t tas_cycles;    /* core cycles: one test-and-set register access */
    bool local_mpb_via_router; /* the bug workaround: the own tile's MPB through the router */
};

/* The papers' measured figures for this machine (seed 000 Tables 1-4), for
 * comparison and for validate's `--params paper`; 0: not given. */
struct sim_model_sec {
    double R_L_ns, R_R_ns, R_Q_ns, R_I_ns, R_QI_ns;
    double contention_b_ns, contention_c_ns;
    double congestion_c_ns;
    double multiline_q_ns, multiline_o_ns;
};

struct sim_machine_cfg {
    char path[512]; /* the file it came from */
    struct sim_model_sec model;
    struct sim_machine_sec machine;
    struct sim_core_sec core;
    struct sim_cache_sec l1, l2;
    struct sim_memory_sec memory;
    struct sim_home_sec home;
    struct sim_mpb_sec mpb;
    int protocol_line, topology_line;         /* where they are named, for messages */
    const struct net_ops *topo;               /* NULL if the topology is not built */
    _Alignas(16) unsigned char topo_cfg[256]; /* the topology's own section */
};

/* A machine built from a config: the kernel, the network, the coherence system. */
struct sim_machine {
    struct sim_kernel *k;
    struct net *net;
    struct cc_system *cc;
    struct cc_params params;
    const struct sim_machine_cfg *cfg;
};

/* The protocol and topology names a config may give (DESIGN.md). */
extern const char *const sim_protocol_names[];
extern const char *const sim_topology_names[];

/* Loads and checks a machine config; `sets` are --set overrides
 * ("group.key=value"). Returns false with every error in d. */
bool sim_machine_load(struct sim_machine_cfg *m, const char *path, const char *const *sets,
                      size_t nsets, struct sim_diag *d);
/* Builds the machine (seeded). Returns NULL with a FILE:LINE message if the
 * config names a protocol or topology that is not built. */
struct sim_machine *sim_machine_build(const struct sim_machine_cfg *m, uint64_t seed,
                                      struct sim_diag *d);
/* The same with coherence parameters the caller adjusted (the stress
 * tester's tiny caches). */
struct sim_machine *sim_machine_build_with(const struct sim_machine_cfg *m,
                                           const struct cc_params *p, uint64_t seed,
                                           struct sim_diag *d);
void sim_machine_free(struct sim_machine *mc);
/* The core model's view of a built machine. */
void sim_machine_view(const struct sim_machine *mc, struct wl_machine *w);
/* The coherence parameters the config gives (before any override). */
bool sim_machine_params(const struct sim_machine_cfg *m, struct cc_params *p, struct sim_diag *d);
/* A float key of any section, by "section.key" (the topology's too), or
 * NAN if there is none. */
double sim_machine_float(struct sim_machine_cfg *m, const char *path);
/* Prints the machine as a readable table (every key, its unit and meaning). */
void sim_machine_print(struct sim_machine_cfg *m);

/* Finds a config by path or by shipped name ("knc-5110p"); writes the path
 * into buf. Returns false if there is no such file. */
bool sim_config_find(const char *name, char *buf, size_t size);
/* The folder of shipped configs. */
const char *sim_config_dir(void);

#endif
