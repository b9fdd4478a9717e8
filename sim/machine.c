/*
 * machine.c -- the machine config schema, its semantic checks, and where
 * shipped configs are found.
 */
#include "machine.h"
#include "version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *const sim_protocol_names[] = {"mesi", "mesif", "moesi", "gols", "scc", NULL};
const char *const sim_topology_names[] = {"xbar", "ring", "qpi", "mesh", NULL};

#define T struct sim_machine_sec
static const struct sim_cfg_key machine_keys[] = {
    SIM_CFG_STRING_KEY(T, name, true, "short name of the machine"),
    SIM_CFG_STRING_KEY(T, description, false, "one line for people"),
    SIM_CFG_CHOICE_KEY(T, protocol, true, sim_protocol_names, "coherence protocol"),
    SIM_CFG_CHOICE_KEY(T, topology, true, sim_topology_names, "interconnect"),
    SIM_CFG_INT_KEY(T, sockets, false, 1, 64, NULL, "sockets (packages)"),
    SIM_CFG_INT_KEY(T, cores, true, 1, 4096, NULL, "cores in all sockets"),
    SIM_CFG_INT_KEY(T, threads_per_core, false, 1, 8, NULL, "hardware threads per core"),
    SIM_CFG_FLOAT_KEY(T, clock_ghz, true, 0.01, 10.0, "GHz", "core clock"),
    SIM_CFG_INT_KEY(T, line_bytes, true, 16, 256, "B", "cache line size (a power of two)"),
};
#undef T
#define T struct sim_core_sec
static const struct sim_cfg_key core_keys[] = {
    SIM_CFG_INT_KEY(T, mshrs, false, 1, 64, NULL, "outstanding misses of a copy stream"),
    SIM_CFG_INT_KEY(T, poll_cycles, false, 0, 1000000, "cycles",
                    "from a failed wait's wake-up to its re-load"),
};
#undef T
#define T struct sim_cache_sec
static const struct sim_cfg_key cache_keys[] = {
    SIM_CFG_INT_KEY(T, size_kb, true, 1, 1048576, "KiB", "capacity"),
    SIM_CFG_INT_KEY(T, ways, true, 1, 64, NULL, "associativity"),
    SIM_CFG_INT_KEY(T, latency_cycles, true, 1, 1000, "cycles", "hit latency"),
};
#undef T
#define T struct sim_memory_sec
static const struct sim_cfg_key memory_keys[] = {
    SIM_CFG_INT_KEY(T, controllers, false, 1, 64, NULL, "memory controllers"),
    SIM_CFG_FLOAT_KEY(T, latency_ns, true, 1.0, 10000.0, "ns", "DRAM access latency"),
    SIM_CFG_FLOAT_KEY(T, bandwidth_gbs, false, 0.1, 10000.0, "GB/s", "bandwidth per controller"),
};
#undef T

enum { SEC_MACHINE, SEC_CORE, SEC_L1, SEC_L2, SEC_MEMORY, SEC_COUNT };

static void machine_sections(struct sim_machine_cfg *m, struct sim_cfg_section secs[SEC_COUNT])
{
    secs[SEC_MACHINE] = (struct sim_cfg_section){"machine",    true,
                                                 machine_keys, SIM_COUNT_OF(machine_keys),
                                                 &m->machine,  "what the machine is"};
    secs[SEC_CORE] = (struct sim_cfg_section){
        "core", false, core_keys, SIM_COUNT_OF(core_keys), &m->core, "the core model"};
    secs[SEC_L1] = (struct sim_cfg_section){
        "l1", true, cache_keys, SIM_COUNT_OF(cache_keys), &m->l1, "private level-1 data cache"};
    secs[SEC_L2] = (struct sim_cfg_section){"l2",       false,
                                            cache_keys, SIM_COUNT_OF(cache_keys),
                                            &m->l2,     "private level-2 cache (optional)"};
    secs[SEC_MEMORY] = (struct sim_cfg_section){
        "memory", true, memory_keys, SIM_COUNT_OF(memory_keys), &m->memory, "DRAM"};
}

static void machine_defaults(struct sim_machine_cfg *m)
{
    memset(m, 0, sizeof *m);
    m->machine.sockets = 1;
    m->machine.threads_per_core = 1;
    m->core.mshrs = 10;
    m->core.poll_cycles = 0;
    m->memory.controllers = 1;
    m->memory.bandwidth_gbs = 10.0;
}

static bool is_pow2(int64_t v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

/* Checks that relate keys to each other. */
static bool machine_check(const struct sim_machine_cfg *m, const struct sim_cfg_file *cf,
                          struct sim_diag *d)
{
    bool ok = true;
    const char *path = sim_cfg_path(cf);
    if (!is_pow2(m->machine.line_bytes)) {
        sim_diag_add(d, path, sim_cfg_line(cf, "machine.line_bytes"),
                     "machine.line_bytes = %lld is not a power of two",
                     (long long)m->machine.line_bytes);
        ok = false;
    }
    if (m->machine.cores % m->machine.sockets != 0) {
        sim_diag_add(d, path, sim_cfg_line(cf, "machine.cores"),
                     "machine.cores = %lld is not a multiple of machine.sockets = %lld",
                     (long long)m->machine.cores, (long long)m->machine.sockets);
        ok = false;
    }
    const struct {
        const char *name;
        const struct sim_cache_sec *c;
    } levels[] = {{"l1", &m->l1}, {"l2", &m->l2}};
    for (size_t i = 0; i < SIM_COUNT_OF(levels) && is_pow2(m->machine.line_bytes); i++) {
        const struct sim_cache_sec *c = levels[i].c;
        if (c->size_kb == 0)
            continue;
        int64_t lines = c->size_kb * 1024 / m->machine.line_bytes;
        if (lines % c->ways != 0 || !is_pow2(lines / c->ways)) {
            char key[32];
            snprintf(key, sizeof key, "%s.size_kb", levels[i].name);
            sim_diag_add(d, path, sim_cfg_line(cf, key),
                         "%s: %lld KiB in %lld ways of %lld-byte lines does not give a "
                         "power-of-two number of sets",
                         levels[i].name, (long long)c->size_kb, (long long)c->ways,
                         (long long)m->machine.line_bytes);
            ok = false;
        }
    }
    return ok;
}

bool sim_machine_load(struct sim_machine_cfg *m, const char *path, const char *const *sets,
                      size_t nsets, struct sim_diag *d)
{
    machine_defaults(m);
    snprintf(m->path, sizeof m->path, "%s", path);
    struct sim_cfg_file *cf = sim_cfg_open(path, d);
    if (!cf)
        return false;
    bool ok = true;
    for (size_t i = 0; i < nsets; i++)
        ok &= sim_cfg_set(cf, sets[i], d);
    struct sim_cfg_section secs[SEC_COUNT];
    machine_sections(m, secs);
    if (ok)
        ok = sim_cfg_apply(cf, secs, SEC_COUNT, d);
    if (ok)
        ok = machine_check(m, cf, d);
    sim_cfg_close(cf);
    return ok;
}

void sim_machine_print(struct sim_machine_cfg *m)
{
    struct sim_cfg_section secs[SEC_COUNT];
    machine_sections(m, secs);
    printf("# %s (%s)\n", m->machine.name, m->path);
    if (m->machine.description[0])
        printf("# %s\n", m->machine.description);
    for (size_t i = 0; i < SEC_COUNT; i++) {
        if (i == SEC_L2 && m->l2.size_kb == 0) {
            printf("l2:  # none\n");
            continue;
        }
        sim_cfg_print(&secs[i], 1);
    }
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

const char *sim_config_dir(void)
{
    const char *env = getenv("CCSIM_CONFIG_DIR");
    if (env && *env)
        return env;
    if (is_dir(CCSIM_SOURCE_CONFIG_DIR))
        return CCSIM_SOURCE_CONFIG_DIR;
    return CCSIM_INSTALL_CONFIG_DIR;
}

bool sim_config_find(const char *name, char *buf, size_t size)
{
    if (is_file(name) || strchr(name, '/')) {
        snprintf(buf, size, "%s", name);
        return is_file(name);
    }
    const char *dir = sim_config_dir();
    snprintf(buf, size, "%s/%s", dir, name);
    if (is_file(buf))
        return true;
    snprintf(buf, size, "%s/%s.cfg", dir, name);
    if (is_file(buf))
        return true;
    snprintf(buf, size, "%s", name);
    return false;
}
