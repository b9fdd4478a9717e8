/*
 * scc.h -- the SCC's memory (prefix scc_; the memory system `scc`): no
 * coherence, message-passing buffers (MPBs), write-combining buffers,
 * test-and-set registers. A module of its own beside the coherent runtime:
 * it is a backend behind the public cc_ API (protocols/backend.h), so the
 * core model and the application reach it only through cc_ functions
 * (places, cc_drop_noncoherent, cc_settle). It owns its config section,
 * `mpb`.
 *
 * The machine (seed 004 Sec II, IV-D):
 *   - Each core has a private cache hierarchy that holds its private-memory
 *     lines (L2 geometry, write-back, no write-allocate: a store that misses
 *     goes to memory; an L1 tag filter decides the hit latency) and, in the
 *     L1 only, MPB lines (type MPBT). Nothing keeps copies coherent: a copy
 *     changes only when its own core writes it.
 *   - MPB lines live in the 8 KB of SRAM each core owns on its tile (home
 *     node `tile`), reached over the mesh: the core's mesh interface (MIU)
 *     turns a miss into a packet (miu_cycles), the packet crosses the mesh,
 *     the tile's MPB serves one access at a time (mpb_cycles), the answer
 *     crosses back. With local_mpb_via_router off, a core reaches its own
 *     tile's MPB directly (mpb_cycles, no MIU, no mesh): the chip without
 *     the bug seed 004 describes.
 *   - Stores to MPB lines go to the core's write-combining buffer (one
 *     line). The line leaves for the MPB when it is full, when the core
 *     stores to another line, or when the core does anything else with
 *     memory (a load, an atomic, a flush, invmb); the core waits for the
 *     MPB's acknowledgement. A `sync` (methodology) drains every buffer at
 *     no cost.
 *   - invmb (CL1INVMB) drops every MPB line from the core's L1. A `wait` on
 *     an MPB line is RCCE's flag wait: each poll does invmb, then reads.
 *   - Private memory: memory controllers at the mesh edge (nodes after the
 *     homes); a line's controller is line % controllers; a controller
 *     serves one line per bandwidth slot and answers after latency. Writes
 *     to memory (stores that miss, write-backs) are posted: the core goes
 *     on, and its next read miss waits until they are acknowledged. A flush
 *     of a private line also waits for them (a fence: what a program uses
 *     before it raises a flag for data it left in shared DRAM).
 *   - Test-and-set registers, one per core on its tile: read = test and
 *     set (the old value, then 1), write = set to the value. Never cached,
 *     always through the mesh.
 *
 * Line numbers: private lines below SCC_MPB_BASE; core c's MPB slot k is
 * SCC_MPB_BASE + c * mpb_lines + k; core c's register is SCC_TAS_BASE + c
 * (cc_place_line gives them).
 *
 * Invariants: a core serves its requests one at a time, in order (the P54C
 * blocks on a miss); `busy` counts, per line, the requests and messages
 * under way on it, so a line with none is quiet; every message sent is
 * answered or applied exactly once.
 */
#ifndef CCSIM_SCC_H
#define CCSIM_SCC_H

#include "config.h"
#include "protocol.h"

#define SCC_MPB_BASE (1ull << 40)
#define SCC_TAS_BASE (1ull << 41)

/* The `mpb` section (seed 004 Sec II, IV-D). */
struct scc_cfg {
    int64_t size_kb;       /* MPB SRAM per core */
    int64_t miu_cycles;    /* core cycles: the mesh interface packs a miss and unpacks the answer */
    int64_t access_cycles; /* core cycles: one MPB SRAM access at its tile */
    int64_t tas_cycles;    /* core cycles: one test-and-set register access */
    bool local_mpb_via_router; /* the bug workaround: the own tile's MPB through the router */
};

/* What `ccsim protocol scc` and `ccsim list protocols` say. */
extern const char scc_summary[], scc_reading[];

void scc_cfg_defaults(struct scc_cfg *c);
/* The `mpb` section's keys, for the config loader (config.h). */
size_t scc_cfg_sections(struct scc_cfg *c, struct cfg_section *out, size_t max);

/* The SCC's memory on a network whose nodes are laid out as p says: cores,
 * then p->homes tiles (their MPBs and registers), then p->mcs memory
 * controllers. */
struct cc_system *scc_create(struct sim_kernel *k, struct net *net, const struct cc_params *p,
                             const struct scc_cfg *c);

#endif
