/*
 * registry.c -- the memory systems a machine config may name
 * (machine.protocol), listed once: the coherence protocols that run as
 * tables on the coherent runtime (protocols/protocol.h) and the SCC's
 * non-coherent memory, a backend of its own (protocols/scc/scc.h). Each row
 * says what the rest of ccsim may ask of a memory system; nothing outside
 * this file compares a protocol's name.
 */
#include "machine.h"
#include "scc.h"

#include <string.h>

/* ------------------------------------------------------------ the SCC */

static void scc_defaults(void *cfg)
{
    scc_cfg_defaults(cfg);
}

static size_t scc_sections(void *cfg, struct cfg_section *out, size_t max)
{
    return scc_cfg_sections(cfg, out, max);
}

static struct cc_system *scc_make(struct sim_kernel *k, struct net *net, const struct cc_params *p,
                                  const void *cfg)
{
    return scc_create(k, net, p, cfg);
}

static int64_t scc_mpb_lines(const void *cfg, unsigned line_bytes)
{
    const struct scc_cfg *c = cfg;
    return c->size_kb * 1024 / line_bytes;
}

/* The SCC sits on a mesh: its homes are the tiles' MPBs, which must divide
 * the cores evenly, and an MPB holds whole lines. */
static bool scc_check(const struct machine_cfg *m, const struct cfg_file *cf, struct sim_diag *d)
{
    const struct scc_cfg *c = (const void *)m->memsys_cfg;
    if (m->machine.threads_per_core != 1 || m->machine.sockets != 1) {
        cfg_diag(d, cf, "machine.threads_per_core,machine.sockets,machine.protocol",
                 "machine.threads_per_core = %lld, machine.sockets = %lld: the scc protocol "
                 "models one chip of single-thread cores (the SCC's P54C cores run one thread, "
                 "and its memory system keeps no copy coherent between a core's threads)",
                 (long long)m->machine.threads_per_core, (long long)m->machine.sockets);
        return false;
    }
    if (strcmp(m->machine.topology, "mesh") != 0) {
        cfg_diag(d, cf, "machine.topology,machine.protocol",
                 "machine.topology = \"%s\": the scc protocol needs a mesh (its MPBs and "
                 "memory controllers sit on tiles)",
                 m->machine.topology);
        return false;
    }
    if (m->machine.cores % m->home.count != 0) {
        cfg_diag(d, cf, "home.count,machine.cores",
                 "home.count = %lld: on the scc protocol the homes are the tiles' MPBs, and "
                 "they must divide machine.cores = %lld evenly",
                 (long long)m->home.count, (long long)m->machine.cores);
        return false;
    }
    int64_t per_tile; /* a core's MPB is its tile's: one home a tile */
    if (machine_int_key(m, "mesh", "cores_per_tile", &per_tile) &&
        m->machine.cores / m->home.count != per_tile) {
        cfg_diag(d, cf, "home.count,mesh.cores_per_tile",
                 "home.count = %lld: on the scc protocol the homes are the tiles' MPBs, one a "
                 "tile: machine.cores / mesh.cores_per_tile = %lld",
                 (long long)m->home.count, (long long)(m->machine.cores / per_tile));
        return false;
    }
    if ((c->size_kb * 1024) % m->machine.line_bytes != 0) {
        cfg_diag(d, cf, "mpb.size_kb",
                 "mpb.size_kb = %lld is not a whole number of %lld-byte lines",
                 (long long)c->size_kb, (long long)m->machine.line_bytes);
        return false;
    }
    return true;
}

#define SCC_BACKEND                                                                                \
    .cfg_size = sizeof(struct scc_cfg), .cfg_defaults = scc_defaults,                              \
    .cfg_sections = scc_sections, .check = scc_check, .create = scc_make,                          \
    .mpb_lines = scc_mpb_lines, .summary = scc_summary, .reading = scc_reading,                    \
    .memory_controllers = true

/* ------------------------------------------------------------ the table */

/* X(name, what the row says besides its name) */
#define MEMSYS_ROWS(X)                                                                             \
    X("msi", .coherent = true)                                                                     \
    X("mesi", .coherent = true)                                                                    \
    X("mesif", .coherent = true)                                                                   \
    X("mesif-llc", .coherent = true, .llc_answers_reads = true)                                    \
    X("moesi", .coherent = true, .owned_state = true)                                              \
    X("gols", .coherent = true, .tag_directory = true)                                             \
    X("scc", SCC_BACKEND)

#define ROW(name, ...) {name, __VA_ARGS__},
static const struct machine_memsys rows[] = {MEMSYS_ROWS(ROW)};
#undef ROW
#define NAME(name, ...) name,
const char *const machine_memsys_names[] = {MEMSYS_ROWS(NAME) NULL};
#undef NAME

const struct machine_memsys *machine_memsys_find(const char *name)
{
    for (size_t i = 0; i < SIM_COUNT_OF(rows); i++)
        if (strcmp(rows[i].name, name) == 0)
            return &rows[i];
    return NULL;
}

const char *machine_memsys_summary(const struct machine_memsys *ms)
{
    return ms->coherent ? cc_protocol_summary(cc_protocol_find(ms->name)) : ms->summary;
}

void machine_memsys_print(const struct machine_memsys *ms, FILE *f)
{
    if (ms->coherent) {
        cc_protocol_print(cc_protocol_find(ms->name), f);
        return;
    }
    fprintf(f, "# %s\n\n%s\n\n%s\n", ms->name, ms->summary, ms->reading);
}

struct cc_system *machine_memsys_create(const struct machine_memsys *ms, struct sim_kernel *k,
                                        struct net *net, const struct cc_params *p, const void *cfg)
{
    return ms->coherent ? cc_create(k, net, p) : ms->create(k, net, p, cfg);
}
