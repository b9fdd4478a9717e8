/*
 * machine.c -- the machine config schema, its semantic checks, where
 * shipped configs are found, and the assembly of a machine (machine.h).
 */
#include "machine.h"
#include "version.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define T struct machine_sec
static const struct cfg_key machine_keys[] = {
    CFG_STRING_KEY(T, name, true, "short name of the machine"),
    CFG_STRING_KEY(T, description, false, "one line for people"),
    CFG_CHOICE_KEY(T, protocol, true, machine_memsys_names,
                   "coherence protocol (scc: the SCC's memory, which keeps nothing coherent)"),
    CFG_CHOICE_KEY(T, topology, true, net_built_names, "interconnect"),
    CFG_INT_KEY(T, sockets, false, 1, 64, NULL, "sockets (packages)"),
    CFG_INT_KEY(T, cores, true, 1, 4096, NULL, "cores in all sockets"),
    CFG_INT_KEY(T, threads_per_core, false, 1, 8, NULL, "hardware threads per core"),
    CFG_INT_KEY(T, cores_per_cache, false, 1, 64, NULL,
                "cores sharing one cache (the l2 section's, the coherent level where there is "
                "coherence; each core keeps its own private l1)"),
    CFG_FLOAT_KEY(T, clock_ghz, true, 0.01, 10.0, "GHz", "core clock"),
    CFG_INT_KEY(T, line_bytes, true, 16, 256, "B", "cache line size (a power of two)"),
};
#undef T
#define T struct machine_core_sec
static const struct cfg_key core_keys[] = {
    CFG_INT_KEY(T, mshrs, false, 1, 64, NULL, "outstanding misses of a copy stream"),
    CFG_INT_KEY(T, prefetch_distance, false, 0, 256, "lines",
                "a copy or addline loop's prefetch instructions, as a compiler puts them in a "
                "loop over lines: loading line i of its source it prefetches line i + N of the "
                "source, and of the destination to write; nothing waits for their lines (the loop "
                "may wait for a slot: prefetch_read_slots, prefetch_write_slots) (0: none)"),
    CFG_INT_KEY(T, prefetch_read_slots, false, 0, 64, NULL,
                "a core's copy-loop prefetches to read in flight at most (its hardware threads "
                "share them): the loop's next one waits at its instruction until one is in (0: "
                "no limit)"),
    CFG_INT_KEY(T, prefetch_write_slots, false, 0, 64, NULL,
                "a core's copy-loop prefetches to write in flight at most, as "
                "prefetch_read_slots (0: no limit)"),
    CFG_INT_KEY(T, word_issue_cycles, false, 0, 100, "cycles",
                "issue cycles of each load or store a line op stands for, per 8-byte word (a load "
                "a word to read a line, a store to write one, a load and a store to add into one: "
                "the add goes to the FP unit alongside), on the core's load/store issue slot its "
                "hardware threads share (0: one cycle an op)"),
    CFG_INT_KEY(T, poll_cycles, false, 0, 1000000, "cycles",
                "from a failed wait's wake-up to its re-load"),
    CFG_INT_KEY(T, snoop_cycles, false, 0, 100000, "cycles",
                "a forwarded request or invalidation at a cache (0: its hit latency)"),
    CFG_INT_KEY(T, atomic_store_bytes, false, 8, 256, "B",
                "bytes one store writes atomically: 8 (a word), 32 (256-bit vector stores) or 64 "
                "(a whole line, 512-bit; seed 002 Table I), for the generators that pack values "
                "beside a flag (reduce-linear, reduce-extbutterfly); a trace's copy stores its "
                "line whole whatever it says"),
    CFG_INT_KEY(T, fwd_port_cycles, false, 0, 100000, "cycles",
                "a cache answers forwarded requests one at a time, whatever their lines: the next "
                "starts this long after the last (its snoop data path; 0: no limit)"),
    CFG_BOOL_KEY(T, fwd_port_reads, false,
                 "forwarded requests to read take the port's turns as those to write do (false: "
                 "only forwards to write wait for fwd_port_cycles)"),
    CFG_INT_KEY(T, fwd_busy_cycles, false, 0, 100000, "cycles",
                "a cache reads a line out for one forwarded request before it takes the next "
                "of that line (0: its hit latency)"),
};
#undef T
#define T struct machine_cache_sec
#define CACHE_KEYS                                                                                 \
    CFG_INT_KEY(T, size_kb, true, 1, 1048576, "KiB", "capacity"),                                  \
        CFG_INT_KEY(T, ways, true, 1, 64, NULL, "associativity"),                                  \
        CFG_INT_KEY(T, latency_cycles, true, 1, 1000, "cycles", "hit latency"),                    \
        CFG_INT_KEY(T, prefetch_streams, false, 0, 64, NULL,                                       \
                    "streams of consecutive line reads its stream prefetcher follows (0: "         \
                    "none; only the coherent level, the l2 if there is one, has prefetchers)"),    \
        CFG_INT_KEY(T, prefetch_train, false, 1, 16, NULL,                                         \
                    "reads of consecutive lines, the first a miss, before a stream is "            \
                    "prefetched (default 2)"),                                                     \
        CFG_INT_KEY(T, prefetch_depth, false, 1, 64, "lines",                                      \
                    "how far ahead of a stream's last read it prefetches (default 4)"),            \
        CFG_INT_KEY(T, prefetch_degree, false, 0, 64, NULL,                                        \
                    "a stream's prefetches sent for one read at most, the nearest first (0: "      \
                    "every line up to prefetch_depth)"),                                           \
        CFG_INT_KEY(T, prefetch_next, false, 0, 64, "lines",                                       \
                    "a next-line prefetcher: a read that missed, or found its line still on its "  \
                    "way, fetches the lines after it (0: none; the coherent level's, as "          \
                    "prefetch_streams)"),                                                          \
        CFG_BOOL_KEY(T, prefetch_pair, false,                                                      \
                     "an adjacent-line prefetcher (Intel's spatial prefetcher): a read that "      \
                     "missed, or found its line still on its way, fetches the other line of its "  \
                     "aligned pair (lines 2k and 2k+1 of the layout)"),                            \
        CFG_INT_KEY(T, prefetch_page_kb, false, 0, 1048576, "KiB",                                 \
                    "the prefetchers fetch nothing past the page of the read that set them off, "  \
                    "and a stream follows no read into another page (0: no pages)"),               \
        CFG_BOOL_KEY(T, prefetch_rfo, false,                                                       \
                     "stores, atomics and addlines set the prefetchers off too (streams of "       \
                     "their own), their lines fetched ahead to write (GetX)"),                     \
        CFG_INT_KEY(T, writeback_buffers, false, 0, 64, NULL,                                      \
                    "write-back buffers: a victim moves into one while its write-back (put) is "   \
                    "answered, and the miss that chose it takes its way at once (0, default: "     \
                    "none; the miss waits until the put is acknowledged; the coherent level's, "   \
                    "as the prefetchers)")
static const struct cfg_key l1_keys[] = {
    CACHE_KEYS,
    CFG_BOOL_KEY(T, write_through, false,
                 "every store goes on to the l2, which answers it (l2.latency_cycles)"),
};
static const struct cfg_key l2_keys[] = {
    CACHE_KEYS,
    CFG_INT_KEY(T, banks, false, 0, 64, NULL,
                "banks (line number mod banks), each serving one hit the l1 did not answer at a "
                "time (misses and snoops pass them; 0: no queueing)"),
    CFG_INT_KEY(T, bank_busy_cycles, false, 0, 1000, "cycles", "a bank's time per access"),
};
#undef CACHE_KEYS
#undef T
#define T struct machine_memory_sec
static const struct cfg_key memory_keys[] = {
    CFG_INT_KEY(T, controllers, false, 1, 64, NULL, "memory controllers"),
    CFG_FLOAT_KEY(T, latency_ns, true, 1.0, 10000.0, "ns", "DRAM access latency"),
    CFG_FLOAT_KEY(T, bandwidth_gbs, false, 0.0, 10000.0, "GB/s",
                  "bandwidth per controller: a line's access takes its controller line_bytes at "
                  "this rate, the next waits (0, default: no limit, no queueing)"),
    CFG_FLOAT_KEY(T, bank_busy_ns, false, 0.0, 10000.0, "ns",
                  "a line's accesses at memory are served one at a time, this long each (a bank a "
                  "line: two lines never conflict; 0: no queueing)"),
    CFG_FLOAT_KEY(T, fill_conflict_ns, false, 0.0, 100000.0, "ns",
                  "a read of a line sent to memory while the home's own read of it (its fill) is "
                  "under way is refused and retried after a random backoff of up to this long "
                  "(0: it is not refused)"),
};
#undef T

#define T struct machine_home_sec
static const struct cfg_key home_keys[] = {
    CFG_INT_KEY(T, count, false, 1, 4096, NULL,
                "home controllers (LLC slices, tag directories; on the SCC, its tiles' MPBs)"),
    CFG_INT_KEY(T, occupancy_cycles, false, 0, 100000, "cycles",
                "per message handled: the next message's turn comes this long after one's, and "
                "its first action this long plus lookup_cycles after its turn"),
    CFG_INT_KEY(T, lookup_cycles, false, 0, 100000, "cycles",
                "added to occupancy_cycles from a message's turn to its first action"),
    CFG_INT_KEY(T, llc_cycles, false, 0, 100000, "cycles",
                "a read served by the home's inclusive LLC (0: no LLC, reads go to memory)"),
    CFG_INT_KEY(T, llc_kb, false, 0, 1048576, "KiB",
                "the home's LLC's capacity (its slice; 0, default: unbounded, a line once read "
                "stays until an evict); a line read into a full set replaces the least recently "
                "used one no core holds"),
    CFG_INT_KEY(T, llc_ways, false, 1, 64, NULL, "the home's LLC's associativity (default 16)"),
    CFG_BOOL_KEY(T, probe_filter, false,
                 "the home knows which caches hold a line (true, default); false: a "
                 "broadcast home probes every cache on every request (HyperTransport "
                 "without HT Assist)"),
    CFG_BOOL_KEY(T, probe_per_socket, false,
                 "a broadcast home sends one probe to each socket (to a cache there the "
                 "directory does not list; its answer stands for the socket's, as a "
                 "HyperTransport northbridge probes its cores and answers once); false "
                 "(default): one to every such cache"),
    CFG_BOOL_KEY(T, remote_early_read, false,
                 "a request from another socket starts its memory read on arrival, in parallel "
                 "with the lookup (a home agent beside the memory controller; a local request "
                 "reaches it only after its LLC slice missed)"),
    CFG_BOOL_KEY(T, owned_write_writeback, false,
                 "MOESI (Bulldozer): writing an Owned line writes it back first"),
    CFG_INT_KEY(T, retry_cycles, false, 0, 100000, "cycles",
                "a request for a busy line is refused and retries after this many cycles "
                "(0: it waits in the line's queue, served in arrival order)"),
};
#undef T

#define T                      struct machine_model_sec
#define MODEL_KEY(field, help) CFG_FLOAT_KEY(T, field, false, 0.0, 1e9, "ns", help)
static const struct cfg_key model_keys[] = {
    MODEL_KEY(R_L_ns, "read of a line in the own cache (seed 000 Table 1)"),
    MODEL_KEY(R_R_ns, "read of a line modified in another core of the socket"),
    MODEL_KEY(R_Q_ns, "read of a line modified in a core of the other socket"),
    MODEL_KEY(R_I_ns, "read of a line in memory of the own socket"),
    MODEL_KEY(R_QI_ns, "read of a line in memory of the other socket"),
    MODEL_KEY(contention_b_ns, "contention T = b + c n: b (seed 000 Table 2)"),
    MODEL_KEY(contention_c_ns, "contention T = b + c n: c per thread"),
    MODEL_KEY(congestion_c_ns, "QPI congestion per line-thread pair (seed 000 Table 3)"),
    MODEL_KEY(multiline_q_ns, "multi-line T = q + o N: q (seed 000 Tables 3-4)"),
    MODEL_KEY(multiline_o_ns, "multi-line T = q + o N: o per line"),
#define TABLE_KEY(field, help) CFG_FLOAT_ARRAY_KEY(T, field, n_##field, false, 0.0, 1e9, NULL, help)
    TABLE_KEY(table2_EE,
              "seed 000 Table 2, sendbuf E, recvbuf E: [b ns, c ns/thread, a ns thread]"),
    TABLE_KEY(table2_EI, "seed 000 Table 2, sendbuf E, recvbuf I: [b, c, a]"),
    TABLE_KEY(table2_IE, "seed 000 Table 2, sendbuf I, recvbuf E: [b, c, a]"),
    TABLE_KEY(table2_II, "seed 000 Table 2, sendbuf I, recvbuf I: [b, c, a]"),
    TABLE_KEY(table3_intra,
              "seed 000 Table 3, intra socket: [q ns, o ns/line, c ns/(line thread)]"),
    TABLE_KEY(table3_inter, "seed 000 Table 3, inter socket: [q, o, c]"),
    TABLE_KEY(table4_EE, "seed 000 Table 4, sendbuf E, recvbuf E: [q ns, o ns/line, p ns line]"),
    TABLE_KEY(table4_EI, "seed 000 Table 4, sendbuf E, recvbuf I: [q, o, p]"),
    TABLE_KEY(table4_IE, "seed 000 Table 4, sendbuf I, recvbuf E: [q, o, p]"),
    TABLE_KEY(table4_II, "seed 000 Table 4, sendbuf I, recvbuf I: [q, o, p]"),
#undef TABLE_KEY
};
#undef MODEL_KEY
#undef T

#define T struct machine_variability_sec
static const struct cfg_key variability_keys[] = {
    CFG_FLOAT_KEY(T, start_skew_ns, false, 0.0, 100000.0, "ns",
                  "each thread leaves the start and every sync after a random delay in [0, this]"),
    CFG_FLOAT_KEY(T, jitter_ns, false, 0.0, 10000.0, "ns",
                  "each message arrives after a random extra delay in [0, this]"),
    CFG_BOOL_KEY(T, arbitration, false,
                 "messages of different sources meeting at a node or a link in the same instant, "
                 "and cores issuing in the same instant, go in a random order (false: the order "
                 "they were sent)"),
};
#undef T

enum {
    SEC_MACHINE,
    SEC_CORE,
    SEC_L1,
    SEC_L2,
    SEC_MEMORY,
    SEC_HOME,
    SEC_MODEL,
    SEC_VARIABILITY,
    SEC_COUNT
};
#define SEC_MAX (SEC_COUNT + 8) /* room for the memory system's and the topology's sections */

/* The sections of a machine config: ours, the memory system's, the topology's. */
static size_t machine_sections(struct machine_cfg *m, struct cfg_section secs[SEC_MAX])
{
    secs[SEC_MACHINE] = (struct cfg_section){"machine",    true,
                                             machine_keys, SIM_COUNT_OF(machine_keys),
                                             &m->machine,  "what the machine is"};
    secs[SEC_CORE] = (struct cfg_section){
        "core", false, core_keys, SIM_COUNT_OF(core_keys), &m->core, "the core model"};
    secs[SEC_L1] = (struct cfg_section){
        "l1", true, l1_keys, SIM_COUNT_OF(l1_keys), &m->l1, "private level-1 data cache"};
    secs[SEC_L2] = (struct cfg_section){
        "l2",
        false,
        l2_keys,
        SIM_COUNT_OF(l2_keys),
        &m->l2,
        "level-2 cache, the coherent level where there is coherence (optional; shared by "
        "machine.cores_per_cache cores)"};
    secs[SEC_MEMORY] = (struct cfg_section){
        "memory", true, memory_keys, SIM_COUNT_OF(memory_keys), &m->memory, "DRAM"};
    secs[SEC_HOME] = (struct cfg_section){"home",    false,
                                          home_keys, SIM_COUNT_OF(home_keys),
                                          &m->home,  "the homes: directories, LLC slices"};
    secs[SEC_MODEL] =
        (struct cfg_section){"model",    false,
                             model_keys, SIM_COUNT_OF(model_keys),
                             &m->model,  "the papers' measured figures (for comparison)"};
    secs[SEC_VARIABILITY] =
        (struct cfg_section){"variability",
                             false,
                             variability_keys,
                             SIM_COUNT_OF(variability_keys),
                             &m->variability,
                             "seeded timing variation (0: every seed gives the same run, but for "
                             "memory.fill_conflict_ns's backoffs)"};
    size_t n = SEC_COUNT;
    if (m->memsys && m->memsys->cfg_sections)
        n += m->memsys->cfg_sections(m->memsys_cfg, secs + n, SEC_MAX - n);
    if (m->topo)
        n += m->topo->cfg_sections(m->topo_cfg, secs + n, SEC_MAX - n);
    return n;
}

/* The section of secs that path ("section.key") names, or n if none. */
static size_t section_of_path(const struct cfg_section *secs, size_t n, const char *path)
{
    const char *dot = strchr(path, '.');
    for (size_t i = 0; i < n && dot; i++)
        if (strlen(secs[i].name) == (size_t)(dot - path) &&
            strncmp(secs[i].name, path, (size_t)(dot - path)) == 0)
            return i;
    return n;
}

bool machine_int_key(const struct machine_cfg *m, const char *section, const char *key, int64_t *v)
{
    char path[128];
    snprintf(path, sizeof path, "%s.%s", section, key);
    const struct cfg_key *k;
    void *value;
    if (!machine_key((struct machine_cfg *)m, path, &k, &value) || k->type != CFG_INT)
        return false; /* (read only) */
    memcpy(v, value, sizeof *v);
    return true;
}

/* A section's clock: its own clock_ghz key (a ring's, a mesh's), else the
 * machine's. */
static double section_ghz(const struct cfg_section *sec, struct machine_cfg *m)
{
    char path[96];
    snprintf(path, sizeof path, "%s.clock_ghz", sec->name);
    double ghz = machine_float(m, path);
    return isnan(ghz) ? m->machine.clock_ghz : ghz;
}

/* One key's time in ps: a number in cycles (at ghz) or in ns, or a line's
 * time through a bandwidth (B/ns, GB/s: the same); 0 else. */
static double key_ps(const struct cfg_section *sec, const struct cfg_key *k, double ghz,
                     double line_bytes)
{
    if (!k->unit || (k->type != CFG_INT && k->type != CFG_FLOAT))
        return 0;
    const void *at = (const char *)sec->dst + k->offset;
    double v = k->type == CFG_INT ? (double)*(const int64_t *)at : *(const double *)at;
    if (strcmp(k->unit, "cycles") == 0)
        return v * 1000.0 / ghz;
    if (strcmp(k->unit, "B/ns") == 0 || strcmp(k->unit, "GB/s") == 0)
        return v > 0 ? line_bytes / v * 1000.0 : 0;
    return strcmp(k->unit, "ns") == 0 ? v * 1000.0 : 0;
}

/* Every time a step of the machine may take, summed: each key in cycles
 * or ns, and a line through each bandwidth, of every section but the
 * papers' figures. */
static double step_bound_ps(struct machine_cfg *m)
{
    struct cfg_section secs[SEC_MAX];
    size_t n = machine_sections(m, secs);
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(secs[i].name, "model") == 0)
            continue;
        double ghz = section_ghz(&secs[i], m);
        for (size_t j = 0; j < secs[i].nkeys; j++)
            sum += key_ps(&secs[i], &secs[i].keys[j], ghz, (double)m->machine.line_bytes);
    }
    return sum;
}

sim_time_t machine_watchdog_ps(const struct machine *mc, sim_time_t floor_ps)
{
    /* read only: machine_sections wants a machine_cfg it may describe */
    double bound = 10.0 * mc->net->nnodes * step_bound_ps((struct machine_cfg *)mc->cfg);
    if (bound <= (double)floor_ps)
        return floor_ps;
    return bound < 1e18 ? (sim_time_t)bound : (sim_time_t)1e18;
}

static void machine_defaults(struct machine_cfg *m)
{
    memset(m, 0, sizeof *m);
    m->machine.sockets = 1;
    m->machine.threads_per_core = 1;
    m->machine.cores_per_cache = 1;
    m->core.mshrs = 10;
    m->l1.prefetch_train = m->l2.prefetch_train = 2;
    m->l1.prefetch_depth = m->l2.prefetch_depth = 4;
    m->core.poll_cycles = 0;
    m->core.fwd_port_reads = true;
    m->core.atomic_store_bytes = 8;
    m->memory.controllers = 1;
    m->memory.bandwidth_gbs = 0; /* no limit */
    m->home.count = 0;           /* one per socket */
    m->home.occupancy_cycles = 1;
    m->home.lookup_cycles = 0;
    m->home.probe_filter = true;
    m->home.llc_ways = 16;
}

static bool is_pow2(int64_t v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

/* The coherent cache level: the l2 if the machine has one, else the l1. */
static const struct machine_cache_sec *coherent_level(const struct machine_cfg *m)
{
    return m->l2.size_kb ? &m->l2 : &m->l1;
}

/* Whether a cache key is the coherent level's alone (the l2's, else the
 * l1's): its prefetchers' and its write-back buffers. */
static bool coherent_level_key(const char *key)
{
    return strncmp(key, "prefetch_", 9) == 0 || strcmp(key, "writeback_buffers") == 0;
}

/* The prefetchers a cache section can turn on, each by one key. */
struct prefetcher_switch {
    const char *kind;            /* "stream", "next-line", "adjacent-line" */
    const char *l1_key, *l2_key; /* its key in either section */
    size_t offset;               /* in struct machine_cache_sec */
    bool is_bool;                /* a bool key (else an int64_t count) */
};
static const struct prefetcher_switch prefetcher_switches[] = {
    {"stream", "l1.prefetch_streams", "l2.prefetch_streams",
     offsetof(struct machine_cache_sec, prefetch_streams), false},
    {"next-line", "l1.prefetch_next", "l2.prefetch_next",
     offsetof(struct machine_cache_sec, prefetch_next), false},
    {"adjacent-line", "l1.prefetch_pair", "l2.prefetch_pair",
     offsetof(struct machine_cache_sec, prefetch_pair), true},
};

static bool switch_set(const struct machine_cache_sec *c, const struct prefetcher_switch *w)
{
    const char *at = (const char *)c + w->offset;
    return w->is_bool ? *(const bool *)at : *(const int64_t *)at != 0;
}

/* The first prefetcher section c turns on, or NULL. */
static const struct prefetcher_switch *prefetcher_on(const struct machine_cache_sec *c)
{
    for (size_t i = 0; i < SIM_COUNT_OF(prefetcher_switches); i++)
        if (switch_set(c, &prefetcher_switches[i]))
            return &prefetcher_switches[i];
    return NULL;
}

/* The switch's value in c as the config writes it ("4", "true"). */
static const char *switch_value(const struct machine_cache_sec *c,
                                const struct prefetcher_switch *w, char *buf, size_t size)
{
    if (w->is_bool)
        snprintf(buf, size, "true");
    else
        snprintf(buf, size, "%lld", (long long)*(const int64_t *)((const char *)c + w->offset));
    return buf;
}

/* An l2 key given to a machine without an l2 (none of the l2's required
 * keys): says that the l1 is its coherent level, rather than that an l2
 * lacks its size.
 * Checked before the schema, which would ask for the l2's required keys. */
static bool l2_keys_without_l2(const struct cfg_file *cf, struct sim_diag *d)
{
    if (cfg_has(cf, "l2.size_kb") || cfg_has(cf, "l2.ways") || cfg_has(cf, "l2.latency_cycles"))
        return true; /* an l2 meant: the schema names what it lacks */
    for (size_t k = 0; k < SIM_COUNT_OF(l2_keys); k++) {
        char key[64];
        snprintf(key, sizeof key, "l2.%s", l2_keys[k].name);
        if (!cfg_has(cf, key))
            continue;
        bool l1_too = coherent_level_key(l2_keys[k].name);
        cfg_diag(d, cf, key,
                 "%s: this machine has no l2 (its l1 is the coherent level%s%s); an l2 needs "
                 "l2.size_kb, l2.ways and l2.latency_cycles",
                 key, l1_too ? ": l1." : "", l1_too ? l2_keys[k].name : "");
        return false;
    }
    return true;
}

/* A section of another memory system than the machine's (the SCC's `mpb`
 * on a coherent machine): named with the protocol it belongs to. Checked
 * before the schema, which does not know such a section. */
static bool foreign_sections(const struct machine_cfg *m, const struct cfg_file *cf,
                             struct sim_diag *d)
{
    for (const char *const *n = machine_memsys_names; *n; n++) {
        const struct machine_memsys *ms = machine_memsys_find(*n);
        if (ms == m->memsys || !ms->cfg_sections)
            continue;
        _Alignas(16) unsigned char cfg[sizeof m->memsys_cfg];
        struct cfg_section secs[4];
        size_t nsecs = ms->cfg_sections(cfg, secs, SIM_COUNT_OF(secs));
        for (size_t i = 0; i < nsecs; i++) {
            for (size_t k = 0; k < secs[i].nkeys; k++) {
                char key[128];
                snprintf(key, sizeof key, "%s.%s", secs[i].name, secs[i].keys[k].name);
                if (!cfg_has(cf, key))
                    continue;
                cfg_diag(d, cf, key, "%s applies to the %s protocol only (this machine runs %s)",
                         key, ms->name, cfg_string(cf, "machine.protocol"));
                return false;
            }
            if (cfg_has(cf, secs[i].name)) { /* empty, or keys of no one's */
                cfg_diag(d, cf, secs[i].name,
                         "section '%s' applies to the %s protocol only (this machine runs %s)",
                         secs[i].name, ms->name, cfg_string(cf, "machine.protocol"));
                return false;
            }
        }
    }
    return true;
}

/* A section of another topology than the machine's (`ring` on a crossbar):
 * named with the topology it belongs to, not "unknown". */
static bool foreign_topology(const struct machine_cfg *m, const struct cfg_file *cf,
                             struct sim_diag *d)
{
    bool ok = true;
    for (const char *const *n = net_built_names; *n; n++) {
        const struct net_ops *t = net_find(*n);
        if (t == m->topo)
            continue;
        _Alignas(16) unsigned char cfg[sizeof m->topo_cfg];
        struct cfg_section secs[4];
        size_t nsecs = t->cfg_sections(cfg, secs, SIM_COUNT_OF(secs));
        for (size_t i = 0; i < nsecs; i++) {
            if (!cfg_has(cf, secs[i].name))
                continue;
            cfg_diag(d, cf, secs[i].name,
                     "section '%s' applies to the %s topology only (this machine's topology is "
                     "%s)",
                     secs[i].name, t->name,
                     cfg_string(cf, "machine.topology") ? cfg_string(cf, "machine.topology")
                                                        : "not set");
            ok = false;
        }
    }
    return ok;
}

/* The layout the network is built for (machine_build's). */
static struct net_layout layout_of(const struct machine_cfg *m)
{
    return (struct net_layout){(int)(m->machine.cores / m->machine.cores_per_cache),
                               (int)m->home.count, (int)m->machine.sockets,
                               m->memsys->memory_controllers ? (int)m->memory.controllers : 0};
}

/* A cache shared by several cores: the l2 section describes it (each core
 * keeps its own l1), the cores divide evenly among the caches and the
 * caches among the sockets, on the coherent runtime. */
static bool sharing_check(const struct machine_cfg *m, const struct cfg_file *cf,
                          struct sim_diag *d)
{
    long long cpc = (long long)m->machine.cores_per_cache;
    if (cpc == 1)
        return true;
    if (!m->memsys->coherent)
        cfg_diag(d, cf, "machine.cores_per_cache",
                 "machine.cores_per_cache = %lld: the %s memory system has no shared cache level",
                 cpc, m->machine.protocol);
    else if (!m->l2.size_kb)
        cfg_diag(d, cf, "machine.cores_per_cache",
                 "machine.cores_per_cache = %lld: the shared cache is the l2 section's level, "
                 "and this machine has no l2 section",
                 cpc);
    else if (m->machine.cores % (cpc * m->machine.sockets) != 0)
        cfg_diag(d, cf, "machine.cores_per_cache,machine.cores,machine.sockets",
                 "machine.cores_per_cache = %lld: machine.cores = %lld do not divide into whole "
                 "caches in each of the %lld sockets",
                 cpc, (long long)m->machine.cores, (long long)m->machine.sockets);
    else
        return true;
    return false;
}

/* Each cache level: a power-of-two number of sets; an L2 holds at least
 * what the L1 holds. */
static bool caches_check(const struct machine_cfg *m, const struct cfg_file *cf, struct sim_diag *d)
{
    bool ok = true;
    const struct {
        const char *name;
        const struct machine_cache_sec *c;
    } levels[] = {{"l1", &m->l1}, {"l2", &m->l2}};
    for (size_t i = 0; i < SIM_COUNT_OF(levels) && is_pow2(m->machine.line_bytes); i++) {
        const struct machine_cache_sec *c = levels[i].c;
        if (c->size_kb == 0)
            continue;
        int64_t lines = c->size_kb * 1024 / m->machine.line_bytes;
        if (lines % c->ways != 0 || !is_pow2(lines / c->ways)) {
            char key[64];
            snprintf(key, sizeof key, "%s.size_kb,%s.ways,machine.line_bytes", levels[i].name,
                     levels[i].name);
            cfg_diag(d, cf, key,
                     "%s: %lld KiB in %lld ways of %lld-byte lines does not give a "
                     "power-of-two number of sets",
                     levels[i].name, (long long)c->size_kb, (long long)c->ways,
                     (long long)m->machine.line_bytes);
            ok = false;
        }
    }
    if (m->l2.size_kb && m->l2.size_kb < m->l1.size_kb) {
        cfg_diag(d, cf, "l2.size_kb,l1.size_kb",
                 "l2.size_kb = %lld KiB is smaller than l1.size_kb = %lld KiB (the L2 holds "
                 "every line the L1 holds)",
                 (long long)m->l2.size_kb, (long long)m->l1.size_kb);
        ok = false;
    }
    if (m->l1.write_through && !m->l2.size_kb) {
        cfg_diag(d, cf, "l1.write_through",
                 "l1.write_through = true: the l1 writes through to the l2, and this machine has "
                 "no l2 section");
        ok = false;
    }
    const struct prefetcher_switch *l1_pf = prefetcher_on(&m->l1);
    if (m->memsys->coherent && m->l2.size_kb && l1_pf) {
        char value[24];
        cfg_diag(d, cf, l1_pf->l1_key,
                 "%s = %s: the prefetchers are the coherent level's, the l2's on this machine "
                 "(%s)",
                 l1_pf->l1_key, switch_value(&m->l1, l1_pf, value, sizeof value), l1_pf->l2_key);
        ok = false;
    }
    if (m->memsys->coherent && m->l2.size_kb && m->l1.writeback_buffers) {
        cfg_diag(d, cf, "l1.writeback_buffers",
                 "l1.writeback_buffers = %lld: the write-back buffers are the coherent level's, "
                 "the l2's on this machine (l2.writeback_buffers)",
                 (long long)m->l1.writeback_buffers);
        ok = false;
    }
    if (m->l2.banks && !m->l2.bank_busy_cycles) {
        cfg_diag(d, cf, "l2.banks,l2.bank_busy_cycles",
                 "l2.banks = %lld without l2.bank_busy_cycles: a bank's time per access is needed",
                 (long long)m->l2.banks);
        ok = false;
    }
    return ok;
}

/* A bounded LLC is whole sets of whole lines. */
static bool llc_check(const struct machine_cfg *m, const struct cfg_file *cf, struct sim_diag *d)
{
    int64_t set_bytes = m->home.llc_ways * m->machine.line_bytes;
    if (!m->home.llc_kb || !m->home.llc_cycles || !m->memsys->coherent ||
        (m->home.llc_kb * 1024) % set_bytes == 0)
        return true; /* no LLC here (the keys are not used), or whole sets */
    cfg_diag(d, cf, "home.llc_kb,home.llc_ways",
             "home.llc_kb = %lld is not a whole number of sets of home.llc_ways = %lld lines of "
             "%lld bytes",
             (long long)m->home.llc_kb, (long long)m->home.llc_ways,
             (long long)m->machine.line_bytes);
    return false;
}

/* Write-back buffers are the coherent runtime's (a victim waits in one for
 * the home's answer to its put): a machine without it has none to give. */
static bool no_writeback_buffers(const struct machine_cfg *m, const struct machine_cache_sec *c,
                                 const char *sec, const struct cfg_file *cf, struct sim_diag *d)
{
    if (!c->writeback_buffers || m->memsys->coherent)
        return true;
    char key[32];
    snprintf(key, sizeof key, "%s.writeback_buffers", sec);
    cfg_diag(d, cf, key,
             "%s = %lld: a write-back buffer holds a victim until the home answers its put, "
             "which needs the coherent runtime; the %s memory system has none (use 0)",
             key, (long long)c->writeback_buffers, m->machine.protocol);
    return false;
}

/* Checks that relate keys to each other, the memory system's and the
 * topology's among them: everything a run would refuse. */
/* The model's table rows are whole ([b, c, a] or [q, o, p]: as many
 * numbers as the schema's row holds, "n_*: 3 if given, else 0"): a shorter
 * one would be printed and then left out of every comparison. */
static bool model_rows_check(const struct machine_cfg *m, const struct cfg_file *cf,
                             struct sim_diag *d)
{
    for (size_t i = 0; i < SIM_COUNT_OF(model_keys); i++) {
        const struct cfg_key *k = &model_keys[i];
        if (k->type != CFG_FLOAT_ARRAY)
            continue;
        int n = *(const int *)((const char *)&m->model + k->count_offset);
        if (n == 0 || (size_t)n == k->len)
            continue;
        char key[64];
        snprintf(key, sizeof key, "model.%s", k->name);
        cfg_diag(d, cf, key,
                 "%s has %d number%s: a row of the paper's table has %zu (its intercept, slope "
                 "and third term)",
                 key, n, n == 1 ? "" : "s", k->len);
        return false;
    }
    return true;
}

/* A store writes a word, a 256-bit or a 512-bit vector, within one line;
 * a name prints on one line. */
static bool core_and_name_check(const struct machine_cfg *m, const struct cfg_file *cf,
                                struct sim_diag *d)
{
    int64_t b = m->core.atomic_store_bytes;
    if ((b != 8 && b != 32 && b != 64) || b > m->machine.line_bytes) {
        cfg_diag(d, cf, "core.atomic_store_bytes,machine.line_bytes",
                 "core.atomic_store_bytes = %lld: a store writes 8, 32 or 64 bytes at once, "
                 "within one %lld-byte line",
                 (long long)b, (long long)m->machine.line_bytes);
        return false;
    }
    for (const char *c = m->machine.name; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == '"' || *c == '\\') {
            cfg_diag(d, cf, "machine.name",
                     "machine.name has a control character, quote or backslash: it is printed "
                     "in headers and written into JSON and CSV");
            return false;
        }
    return true;
}

const char *machine_broadcast_refusal(const struct machine_memsys *ms)
{
    static char why[256];
    if (ms->tag_directory)
        /* its pipelined reads list a reader before its data arrives, which a
         * broadcast's invalidations then meet in IS_D (no row: the random
         * tester finds it at once) */
        return "home.probe_filter = false: gols is the KNC's tag directory, which tracks every "
               "copy; it has no broadcast form";
    if (!ms->llc_answers_reads)
        return NULL;
    /* as gols: its pipelined reads list a reader before its data arrives */
    snprintf(
        why, sizeof why,
        "home.probe_filter = false: %s's home is an inclusive LLC, which tracks every copy; it "
        "has no broadcast form",
        ms->name);
    return why;
}

const char *machine_owned_writeback_refusal(const struct machine_memsys *ms)
{
    static char why[256];
    if (ms->owned_state)
        return NULL;
    snprintf(why, sizeof why,
             "home.owned_write_writeback applies to the moesi protocol only (this machine runs %s)",
             ms->name);
    return why;
}

static bool machine_check(struct machine_cfg *m, const struct cfg_file *cf, struct sim_diag *d)
{
    bool ok = model_rows_check(m, cf, d) && core_and_name_check(m, cf, d);
    if (!is_pow2(m->machine.line_bytes)) {
        cfg_diag(d, cf, "machine.line_bytes", "machine.line_bytes = %lld is not a power of two",
                 (long long)m->machine.line_bytes);
        ok = false;
    }
    if (m->home.count == 0)
        m->home.count = m->machine.sockets;
    if (m->home.count % m->machine.sockets != 0) {
        cfg_diag(d, cf, "home.count,machine.sockets",
                 "home.count = %lld is not a multiple of machine.sockets = %lld",
                 (long long)m->home.count, (long long)m->machine.sockets);
        ok = false;
    }
    const char *why =
        m->home.owned_write_writeback ? machine_owned_writeback_refusal(m->memsys) : NULL;
    if (why) {
        cfg_diag(d, cf, "home.owned_write_writeback,machine.protocol", "%s", why);
        ok = false;
    }
    if (m->home.probe_per_socket && m->home.probe_filter) {
        cfg_diag(d, cf, "home.probe_per_socket,home.probe_filter",
                 "home.probe_per_socket applies to a broadcast home only (home.probe_filter = "
                 "false)");
        ok = false;
    }
    why = m->home.probe_filter ? NULL : machine_broadcast_refusal(m->memsys);
    if (why) {
        cfg_diag(d, cf, "home.probe_filter,machine.protocol", "%s", why);
        ok = false;
    }
    if (m->memsys->llc_answers_reads && m->home.llc_cycles == 0) {
        cfg_diag(d, cf, "home.llc_cycles,machine.protocol",
                 "home.llc_cycles = 0: %s's home is an LLC that answers reads; give its hit "
                 "time (cycles)",
                 m->machine.protocol);
        ok = false;
    }
    ok &= llc_check(m, cf, d);
    if (m->memsys->check)
        ok &= m->memsys->check(m, cf, d);
    if (m->machine.cores % m->machine.sockets != 0) {
        cfg_diag(d, cf, "machine.cores,machine.sockets",
                 "machine.cores = %lld is not a multiple of machine.sockets = %lld",
                 (long long)m->machine.cores, (long long)m->machine.sockets);
        ok = false;
    }
    ok &= caches_check(m, cf, d);
    ok &= sharing_check(m, cf, d);
    if (m->variability.jitter_ns > 0 && !m->memsys->coherent) {
        cfg_diag(d, cf, "variability.jitter_ns",
                 "variability.jitter_ns = %g: message jitter reorders one source's messages, "
                 "which the %s memory system relies on (use 0)",
                 m->variability.jitter_ns, m->machine.protocol);
        ok = false;
    }
    const struct machine_cache_sec *outer = coherent_level(m);
    if (m->core.prefetch_distance && !m->memsys->coherent) {
        cfg_diag(d, cf, "core.prefetch_distance",
                 "core.prefetch_distance = %lld: prefetching into the caches needs the coherent "
                 "runtime; the %s memory system has none (use 0)",
                 (long long)m->core.prefetch_distance, m->machine.protocol);
        ok = false;
    }
    const struct prefetcher_switch *on = prefetcher_on(&m->l1);
    bool in_l1 = on != NULL;
    if (!on)
        on = prefetcher_on(outer);
    if (on && !m->memsys->coherent) {
        cfg_diag(d, cf, in_l1 ? on->l1_key : on->l2_key,
                 "a%s %s prefetcher needs the coherent runtime; the %s memory system has none "
                 "(use %s)",
                 on->kind[0] == 'a' ? "n" : "", on->kind, m->machine.protocol,
                 on->is_bool ? "false" : "0");
        ok = false;
    }
    ok &= no_writeback_buffers(m, &m->l1, "l1", cf, d) &&
          no_writeback_buffers(m, &m->l2, "l2", cf, d);
    if (ok && m->topo && m->topo->check) {
        struct net_layout l = layout_of(m);
        ok = m->topo->check(m->topo_cfg, &l, cf, d);
    }
    return ok;
}

/* Which keys the file (or --set) gave: the rest keep their defaults. */
static void note_given(struct machine_cfg *m, const struct cfg_file *cf,
                       const struct cfg_section *secs, size_t n)
{
    for (size_t i = 0; i < n && i < SIM_COUNT_OF(m->given); i++) {
        m->given[i] = m->by_set[i] = 0;
        for (size_t k = 0; k < secs[i].nkeys && k < 64; k++) {
            char key[128];
            snprintf(key, sizeof key, "%s.%s", secs[i].name, secs[i].keys[k].name);
            if (cfg_has(cf, key))
                m->given[i] |= 1ull << k;
            if (cfg_has(cf, key) && cfg_line(cf, key) == 0) /* line 0: --set */
                m->by_set[i] |= 1ull << k;
        }
    }
}

bool machine_load(struct machine_cfg *m, const char *path, const char *const *sets, size_t nsets,
                  struct sim_diag *d)
{
    machine_defaults(m);
    snprintf(m->path, sizeof m->path, "%s", path);
    struct cfg_file *cf = cfg_open(path, d);
    if (!cf)
        return false;
    bool ok = true;
    for (size_t i = 0; i < nsets; i++)
        ok &= cfg_set(cf, sets[i], d);
    const char *topo = cfg_string(cf, "machine.topology");
    m->topo = topo ? net_find(topo) : NULL;
    if (m->topo) {
        SIM_ASSERT(m->topo->cfg_size <= sizeof m->topo_cfg);
        m->topo->cfg_defaults(m->topo_cfg);
    }
    const char *protocol = cfg_string(cf, "machine.protocol");
    m->memsys = protocol ? machine_memsys_find(protocol) : NULL;
    if (m->memsys && m->memsys->cfg_defaults) {
        SIM_ASSERT(m->memsys->cfg_size <= sizeof m->memsys_cfg);
        m->memsys->cfg_defaults(m->memsys_cfg);
    }
    /* another's section is named as such once the machine's own protocol and
     * topology are known; an unknown or missing one is the schema's error */
    if (ok && m->memsys)
        ok = foreign_sections(m, cf, d);
    if (ok && m->topo)
        ok = foreign_topology(m, cf, d);
    if (ok)
        ok = l2_keys_without_l2(cf, d);
    m->protocol_line = cfg_line(cf, "machine.protocol");
    m->topology_line = cfg_line(cf, "machine.topology");
    struct cfg_section secs[SEC_MAX];
    size_t n = machine_sections(m, secs);
    /* a protocol or topology not known: the machine section's errors alone
     * (the sections of the one meant would be "unknown" too) */
    if (ok && ((protocol && !m->memsys) || (topo && !m->topo)))
        ok = cfg_apply_listed(cf, &secs[SEC_MACHINE], 1, d);
    if (ok)
        ok = cfg_apply(cf, secs, n, d);
    if (ok)
        ok = machine_check(m, cf, d);
    if (ok)
        note_given(m, cf, secs, n);
    cfg_close(cf);
    return ok;
}

double machine_float(struct machine_cfg *m, const char *path)
{
    const struct cfg_key *k;
    void *value;
    if (!machine_key(m, path, &k, &value) || k->type != CFG_FLOAT)
        return NAN;
    return *(const double *)value;
}

bool machine_key(struct machine_cfg *m, const char *path, const struct cfg_key **key, void **value)
{
    struct cfg_section secs[SEC_MAX];
    size_t n = machine_sections(m, secs), i = section_of_path(secs, n, path);
    for (size_t k = 0; i < n && k < secs[i].nkeys; k++) {
        const struct cfg_key *ck = &secs[i].keys[k];
        if (strcmp(ck->name, strchr(path, '.') + 1) != 0 ||
            (ck->type != CFG_INT && ck->type != CFG_FLOAT))
            continue;
        *key = ck;
        *value = (char *)secs[i].dst + ck->offset;
        return true;
    }
    return false;
}

/* Whether a prefetcher key of cache section c counts: the switches always,
 * a stream's shape with streams, pages with streams or next-line, rfo with
 * any prefetcher on. */
static bool prefetch_key_used(const struct machine_cache_sec *c, const char *key)
{
    for (size_t i = 0; i < SIM_COUNT_OF(prefetcher_switches); i++)
        if (strcmp(key, prefetcher_switches[i].l2_key + 3) == 0)
            return true;
    if (strcmp(key, "prefetch_rfo") == 0)
        return prefetcher_on(c) != NULL;
    if (strcmp(key, "prefetch_page_kb") == 0) /* an aligned pair never straddles a page */
        return c->prefetch_streams > 0 || c->prefetch_next > 0;
    return c->prefetch_streams > 0;
}

/* A cache level's keys: its prefetchers and write-back buffers are the
 * coherent level's (the l2, else the l1; prefetch_key_used says which of
 * the prefetchers' keys count); write-through and the banks are the
 * coherent runtime's, a bank's time only with banks. */
static bool cache_key_used(const struct machine_cfg *m, const char *sec, const char *key)
{
    bool l1 = strcmp(sec, "l1") == 0;
    const struct machine_cache_sec *c = l1 ? &m->l1 : &m->l2;
    if (coherent_level_key(key))
        return m->memsys->coherent && (!l1 || !m->l2.size_kb) &&
               (strcmp(key, "writeback_buffers") == 0 || prefetch_key_used(c, key));
    if (strcmp(key, "write_through") == 0 || strcmp(key, "banks") == 0)
        return m->memsys->coherent;
    if (strcmp(key, "bank_busy_cycles") == 0)
        return m->memsys->coherent && c->banks > 0;
    return true;
}

/* Whether a key changes anything on this machine: the SCC's homes are its
 * tiles (only their count counts) and its caches take no snoops; only
 * MOESI has an Owned line to write back; only a broadcast home probes
 * per socket; an early remote read needs another socket; memory
 * controllers are nodes with a bandwidth only where the memory system
 * models them (the SCC); the coherent runtime reads memory at the homes. */
static bool key_used(const struct machine_cfg *m, const char *sec, const char *key)
{
    bool coherent = m->memsys->coherent;
    if (strcmp(sec, "l1") == 0 || strcmp(sec, "l2") == 0)
        return cache_key_used(m, sec, key);
    if (strcmp(sec, "home") == 0 && strncmp(key, "llc_", 4) == 0 && strcmp(key, "llc_cycles"))
        return coherent && m->home.llc_cycles > 0 && (!strcmp(key, "llc_kb") || m->home.llc_kb);
    if (strcmp(sec, "home") == 0 && strcmp(key, "remote_early_read") == 0)
        return coherent && m->machine.sockets > 1; /* a request from another socket */
    if (strcmp(sec, "home") == 0)
        return strcmp(key, "count") == 0 ||
               (coherent && (strcmp(key, "owned_write_writeback") != 0 || m->memsys->owned_state) &&
                (strcmp(key, "probe_per_socket") != 0 || !m->home.probe_filter));
    if (strcmp(sec, "core") == 0 && strcmp(key, "prefetch_distance") == 0)
        return coherent; /* refused elsewhere when non-zero */
    if (strcmp(sec, "core") == 0 && strncmp(key, "prefetch_", 9) == 0)
        return coherent && m->core.prefetch_distance; /* the slots of its prefetches */
    if (strcmp(sec, "memory") == 0 &&
        strcmp(key, "fill_conflict_ns") == 0) /* only GOLS's and mesif-llc's rows share a fill */
        return coherent && (strcmp(m->machine.protocol, "gols") == 0 ||
                            strcmp(m->machine.protocol, "mesif-llc") == 0);
    if (strcmp(sec, "memory") == 0 && strcmp(key, "bank_busy_ns") == 0)
        return coherent;
    if (strcmp(sec, "memory") == 0 && strcmp(key, "latency_ns") != 0)
        return m->memsys->memory_controllers || coherent;
    if (strcmp(sec, "core") == 0 &&
        (strcmp(key, "snoop_cycles") == 0 || strcmp(key, "fwd_busy_cycles") == 0 ||
         strcmp(key, "fwd_port_cycles") == 0))
        return coherent;
    if (strcmp(sec, "core") == 0 && strcmp(key, "fwd_port_reads") == 0)
        return coherent && m->core.fwd_port_cycles;
    if (strcmp(sec, "variability") == 0 && strcmp(key, "jitter_ns") == 0)
        return coherent; /* refused elsewhere: it would reorder one source's messages */
    return true;
}

/* Whether a section is printed: not an L2 the machine has not, nor the
 * papers' figures when the file gives none. */
static bool section_shown(const struct machine_cfg *m, size_t i)
{
    if (i == SEC_L2)
        return m->l2.size_kb != 0;
    if (i == SEC_MODEL)
        return m->given[i] != 0;
    return true;
}

bool machine_key_used(struct machine_cfg *m, const char *path)
{
    struct cfg_section secs[SEC_MAX];
    size_t n = machine_sections(m, secs), i = section_of_path(secs, n, path);
    return i < n && section_shown(m, i) && key_used(m, secs[i].name, strchr(path, '.') + 1);
}

void machine_note_unused_sets(struct machine_cfg *m, const char *const *sets, size_t nsets,
                              const char *lead)
{
    for (size_t i = 0; i < nsets; i++) {
        char key[128];
        snprintf(key, sizeof key, "%.*s", (int)strcspn(sets[i], "= \t"), sets[i]);
        if (!machine_key_used(m, key))
            fprintf(stderr,
                    "%s--set %s changes nothing: %s does not use %s (ccsim config lists what a "
                    "machine uses)\n",
                    lead, sets[i], m->machine.name, key);
    }
}

/* m as a run uses it: the topology's left-out keys resolved for the layout. */
static void machine_resolved(const struct machine_cfg *m, struct machine_cfg *out)
{
    *out = *m;
    struct net_layout l = layout_of(m);
    if (out->topo && out->topo->resolve)
        out->topo->resolve(out->topo_cfg, &l);
}

void machine_print(struct machine_cfg *loaded)
{
    struct machine_cfg shown, *m = &shown;
    machine_resolved(loaded, &shown);
    struct cfg_section secs[SEC_MAX];
    size_t n = machine_sections(m, secs);
    printf("# %s (%s)\n", m->machine.name, m->path);
    if (m->machine.description[0])
        printf("# %s\n", m->machine.description);
    printf("# (default) marks a setting the file leaves out, (--set) one an override gives; a "
           "setting this machine does not use is left out (or marked, if given)\n");
    for (size_t i = 0; i < n; i++) {
        if (!section_shown(m, i))
            continue;
        cfg_print_section(&secs[i]);
        for (size_t k = 0; k < secs[i].nkeys; k++) {
            const struct cfg_key *key = &secs[i].keys[k];
            bool given = i < SIM_COUNT_OF(m->given) && (m->given[i] >> k & 1);
            bool set = given && (m->by_set[i] >> k & 1);
            if (i == SEC_MODEL && !given) /* a figure the paper has not: none, not 0 */
                continue;
            if (!key_used(m, secs[i].name, key->name)) {
                if (given)
                    cfg_print_key(&secs[i], key,
                                  set ? "(--set; not used by this machine)"
                                      : "(given; not used by this machine)");
                continue;
            }
            cfg_print_key(&secs[i], key, set ? "(--set)" : given ? NULL : "(default)");
        }
    }
    if (m->l2.size_kb == 0)
        printf("# no l2: the l1 is the coherent level\n");
    struct sim_clock clk = sim_clock_ghz(m->machine.clock_ghz);
    printf("# core clock period: %llu ps\n", (unsigned long long)clk.period_ps);
}

/* ------------------------------------------------------------- finding */

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

const char *machine_config_dir(void)
{
    const char *env = getenv("CCSIM_CONFIG_DIR");
    if (env && *env)
        return env;
    if (is_dir(CCSIM_SOURCE_CONFIG_DIR))
        return CCSIM_SOURCE_CONFIG_DIR;
    return CCSIM_INSTALL_CONFIG_DIR;
}

/* A shipped config's path as the user would write it: relative to the
 * current folder when the configs folder is under it ("configs/x.cfg"), so
 * outputs do not show the absolute path of a checkout. */
static void as_user_path(char *buf, size_t size)
{
    char cwd[4096];
    if (buf[0] != '/' || !getcwd(cwd, sizeof cwd))
        return;
    size_t n = strlen(cwd);
    if (n > 1 && strncmp(buf, cwd, n) == 0 && buf[n] == '/')
        memmove(buf, buf + n + 1, strlen(buf + n + 1) + 1);
    (void)size;
}

/* A path -c may name: anything there but a folder (the loader then says
 * why it will not read a device or a pipe: not a regular file). */
static bool is_readable_kind(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && !S_ISDIR(st.st_mode);
}

bool machine_config_find(const char *name, char *buf, size_t size)
{
    if (is_file(name) || strchr(name, '/')) {
        snprintf(buf, size, "%s", name);
        return is_readable_kind(name);
    }
    const char *dir = machine_config_dir();
    snprintf(buf, size, "%s/%s", dir, name);
    if (is_file(buf)) {
        as_user_path(buf, size);
        return true;
    }
    snprintf(buf, size, "%s/%s.cfg", dir, name);
    if (is_file(buf)) {
        as_user_path(buf, size);
        return true;
    }
    snprintf(buf, size, "%s", name);
    return false;
}

/* ------------------------------------------------------------- building */

bool machine_params(const struct machine_cfg *m, struct cc_params *p, struct sim_diag *d)
{
    memset(p, 0, sizeof *p);
    if (!m->memsys) {
        sim_diag_add(d, m->path, m->protocol_line,
                     "machine.protocol = \"%s\": this protocol is not built yet (built: msi, "
                     "mesi, mesif, mesif-llc, moesi, gols, scc)",
                     m->machine.protocol);
        return false;
    }
    p->protocol = m->memsys->coherent ? cc_protocol_find(m->memsys->name) : NULL;
    unsigned line = (unsigned)m->machine.line_bytes;
    const struct machine_cache_sec *outer = coherent_level(m);
    p->cores = (int)m->machine.cores;
    p->cores_per_cache = (int)m->machine.cores_per_cache;
    p->homes = (int)m->home.count;
    p->line_bytes = line;
    p->clock = sim_clock_ghz(m->machine.clock_ghz);
    p->ways = (unsigned)outer->ways;
    p->sets = (unsigned)(outer->size_kb * 1024 / line / outer->ways);
    p->hit_cycles = (unsigned)outer->latency_cycles;
    p->prefetch_streams = (unsigned)outer->prefetch_streams;
    p->prefetch_train = (unsigned)outer->prefetch_train;
    p->prefetch_depth = (unsigned)outer->prefetch_depth;
    p->prefetch_degree = (unsigned)outer->prefetch_degree;
    p->prefetch_next = (unsigned)outer->prefetch_next;
    p->prefetch_pair = outer->prefetch_pair;
    p->prefetch_page_lines = (unsigned)(outer->prefetch_page_kb * 1024 / line);
    p->prefetch_rfo = outer->prefetch_rfo;
    p->wb_entries = (unsigned)outer->writeback_buffers;
    p->snoop_cycles =
        (unsigned)(m->core.snoop_cycles ? m->core.snoop_cycles : outer->latency_cycles);
    p->fwd_busy_cycles =
        (unsigned)(m->core.fwd_busy_cycles ? m->core.fwd_busy_cycles : outer->latency_cycles);
    p->fwd_port_cycles = (unsigned)m->core.fwd_port_cycles;
    p->fwd_port_writes_only = !m->core.fwd_port_reads;
    p->bank_busy_ps = (sim_time_t)(m->memory.bank_busy_ns * SIM_PS_PER_NS + 0.5);
    p->fill_conflict_ps = (sim_time_t)(m->memory.fill_conflict_ns * SIM_PS_PER_NS + 0.5);
    if (m->l2.size_kb) {
        p->l1_ways = (unsigned)m->l1.ways;
        p->l1_sets = (unsigned)(m->l1.size_kb * 1024 / line / m->l1.ways);
        p->l1_cycles = (unsigned)m->l1.latency_cycles;
        p->l1_write_through = m->l1.write_through;
        p->banks = (unsigned)m->l2.banks;
        p->bank_busy_cycles = (unsigned)m->l2.bank_busy_cycles;
    }
    p->home_occupancy_cycles = (unsigned)m->home.occupancy_cycles;
    p->home_lookup_cycles = (unsigned)m->home.lookup_cycles;
    p->home_retry_ps = (sim_time_t)m->home.retry_cycles * p->clock.period_ps;
    p->memory_ps = (sim_time_t)(m->memory.latency_ns * SIM_PS_PER_NS + 0.5);
    p->llc_ps = (sim_time_t)m->home.llc_cycles * p->clock.period_ps;
    if (m->home.llc_kb) {
        p->llc_ways = (unsigned)m->home.llc_ways;
        p->llc_sets = (unsigned)(m->home.llc_kb * 1024 / line / m->home.llc_ways);
    }
    p->owned_write_writeback = m->home.owned_write_writeback;
    p->probe_filter = m->home.probe_filter;
    p->probe_per_socket = m->home.probe_per_socket;
    p->remote_early_read = m->home.remote_early_read;
    p->ctrl_bytes = 8;
    p->data_bytes = 8 + line;
    p->first_home_node = p->cores / p->cores_per_cache;
    p->sockets = (int)m->machine.sockets;
    /* a line's time at a controller: bytes / (GB/s) = ns; 0: no limit */
    sim_time_t line_ps =
        m->memory.bandwidth_gbs > 0
            ? (sim_time_t)((double)line / m->memory.bandwidth_gbs * SIM_PS_PER_NS + 0.5)
            : 0;
    if (m->memsys->coherent && line_ps) { /* controllers at the homes */
        p->channels = (int)m->memory.controllers;
        p->channel_ps = line_ps;
    }
    if (m->memsys->memory_controllers) {
        p->mcs = (int)m->memory.controllers;
        p->memory_occupancy_ps = line_ps; /* a line's slot at a controller */
    }
    return true;
}

int64_t machine_mpb_lines(const struct machine_cfg *m)
{
    if (!m->memsys || !m->memsys->mpb_lines)
        return 0;
    return m->memsys->mpb_lines(m->memsys_cfg, (unsigned)m->machine.line_bytes);
}

struct machine *machine_build(const struct machine_cfg *m, uint64_t seed, struct sim_diag *d)
{
    struct cc_params p;
    if (!machine_params(m, &p, d))
        return NULL;
    return machine_build_with(m, &p, seed, d);
}

struct machine *machine_build_with(const struct machine_cfg *m, const struct cc_params *pp,
                                   uint64_t seed, struct sim_diag *d)
{
    struct cc_params p = *pp;
    p.seed = seed;
    if (!m->topo) {
        char built[256] = "";
        for (const char *const *n = net_built_names; *n; n++)
            snprintf(built + strlen(built), sizeof built - strlen(built), "%s%s",
                     built[0] ? ", " : "", *n);
        sim_diag_add(d, m->path, m->topology_line,
                     "machine.topology = \"%s\": this topology is not built yet (built: %s)",
                     m->machine.topology, built);
        return NULL;
    }
    struct machine *mc = sim_xcalloc(1, sizeof *mc);
    mc->cfg = m;
    mc->params = p;
    mc->k = sim_kernel_new();
    struct net_layout layout = layout_of(m);
    SIM_ASSERT(layout.homes == p.homes && layout.mcs == p.mcs);
    mc->net = m->topo->create(mc->k, m->topo_cfg, &layout, seed, d);
    if (!mc->net) {
        sim_kernel_free(mc->k);
        free(mc);
        return NULL;
    }
    mc->seed = seed;
    const struct machine_variability_sec *v = &m->variability;
    if (v->jitter_ns > 0)
        net_set_jitter(mc->net, (sim_time_t)(v->jitter_ns * SIM_PS_PER_NS + 0.5), seed);
    if (v->arbitration)
        net_set_arbitration(mc->net, seed);
    mc->cc = machine_memsys_create(m->memsys, mc->k, mc->net, &p, m->memsys_cfg);
    return mc;
}

void machine_free(struct machine *mc)
{
    if (!mc)
        return;
    cc_destroy(mc->cc);
    net_destroy(mc->net);
    sim_kernel_free(mc->k);
    free(mc);
}

void machine_view(const struct machine *mc, struct core_machine *w)
{
    const struct machine_cfg *m = mc->cfg;
    w->k = mc->k;
    w->cc = mc->cc;
    w->net = mc->net;
    w->cores = (int)m->machine.cores;
    w->threads_per_core = (int)m->machine.threads_per_core;
    w->cores_per_cache = (int)m->machine.cores_per_cache;
    w->mshrs = (int)m->core.mshrs;
    w->prefetch_distance = m->core.prefetch_distance;
    w->prefetch_read_slots = (int)m->core.prefetch_read_slots;
    w->prefetch_write_slots = (int)m->core.prefetch_write_slots;
    w->poll_cycles = (unsigned)m->core.poll_cycles;
    w->word_issue_cycles = (unsigned)m->core.word_issue_cycles;
    w->line_bytes = (unsigned)m->machine.line_bytes;
    w->memory_nodes = mc->params.mcs ? mc->params.mcs : (int)m->machine.sockets;
    w->clock = mc->params.clock;
    w->seed = mc->seed;
    w->start_skew_ps = (sim_time_t)(m->variability.start_skew_ns * SIM_PS_PER_NS + 0.5);
    w->arbitration = m->variability.arbitration;
}

/* ------------------------------------------------------------- generators */

void machine_gen_view(const struct machine_cfg *m, struct gen_machine *g)
{
    g->cores = (int)m->machine.cores;
    g->sockets = (int)m->machine.sockets;
    g->threads_per_core = (int)m->machine.threads_per_core;
    g->line_bytes = (int)m->machine.line_bytes;
    g->atomic_store_bytes = (int)m->core.atomic_store_bytes;
    g->mpb_lines = (long)machine_mpb_lines(m);
}

struct wl_program *machine_generate(const char *spec, int threads, long iterations,
                                    const struct machine_cfg *m, struct sim_diag *d)
{
    char where[WL_MAX_LINE_CHARS + 8];
    snprintf(where, sizeof where, "-w %s", spec);
    return machine_generate_at(where, spec, threads, iterations, m, d);
}

struct wl_program *machine_generate_at(const char *where, const char *spec, int threads,
                                       long iterations, const struct machine_cfg *m,
                                       struct sim_diag *d)
{
    struct gen_machine g;
    machine_gen_view(m, &g);
    char *text = gen_trace_at(where, spec, threads, iterations, &g, d);
    if (!text)
        return NULL;
    char name[300];
    snprintf(name, sizeof name, "gen:%s", spec);
    struct wl_parse_opts po = {g.line_bytes, g.cores, g.threads_per_core};
    struct wl_program *p = wl_parse_text(name, text, strlen(text), &po, d);
    free(text);
    return p;
}
