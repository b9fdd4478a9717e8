/*
 * backend.h -- for a memory system with a backend of its own (the SCC's
 * non-coherent memory, protocols/scc): the operations it implements behind
 * the public cc_ API (protocol.h), and how it makes its struct cc_system.
 * The coherent runtime is one such backend (cc_internal.h); the layers
 * above see protocol.h alone and never know which backend runs.
 *
 * Every public cc_ function whose work differs between backends calls
 * through struct cc_backend. The optional operations may be NULL: settle
 * and drop_noncoherent then do nothing, place_count gives 0, place_line
 * false and line_kind CC_LINE_MEMORY (a memory system with no places of its
 * own), prime_victim false (a prime displaces nothing), claim_steal true
 * (every such poll a steal), prime_ready true (a prime always finds a way),
 * core_word_source CC_WORD_LINE (a core reads the line itself),
 * home_state_of NULL (no directory state to name), llc_holds, llc_dirty and
 * llc_reset_drop false (no LLC at the home), row_coverage false and
 * each_cell_run nothing (no tables).
 */
#ifndef CCSIM_BACKEND_H
#define CCSIM_BACKEND_H

#include "protocol.h"

struct cc_backend {
    void (*destroy)(struct cc_system *s); /* its state; not s itself */
    void (*access)(struct cc_system *s, struct cc_req *r);
    void (*observe)(struct cc_system *s, cc_observer_fn fn, void *ctx);
    int (*home_socket)(const struct cc_system *s, uint64_t line);
    int (*core_memory_node)(const struct cc_system *s, int core);
    void (*get_stats)(const struct cc_system *s, struct cc_stats *out);
    void (*print_row_counters)(const struct cc_system *s, FILE *f);
    void (*print_outstanding)(const struct cc_system *s, FILE *f);
    char (*state_of)(const struct cc_system *s, int core, uint64_t line);
    uint64_t (*peek_word)(const struct cc_system *s, uint64_t line, unsigned word);
    uint64_t (*core_word)(const struct cc_system *s, int core, uint64_t line, unsigned word);
    bool (*local_word)(const struct cc_system *s, int core, uint64_t line, unsigned word,
                       uint64_t *value);
    void (*watch)(struct cc_system *s, int core, uint64_t line, cc_watch_fn fn, void *ctx);
    bool (*line_quiet)(const struct cc_system *s, uint64_t line);
    bool (*quiet)(const struct cc_system *s);
    void (*evict_line)(struct cc_system *s, uint64_t line);
    void (*prime_line)(struct cc_system *s, int core, uint64_t line, char state);
    /* optional */
    bool (*prime_victim)(const struct cc_system *s, int core, uint64_t line, uint64_t *victim);
    bool (*prime_ready)(const struct cc_system *s, int core, uint64_t line); /* NULL: true */
    bool (*claim_steal)(struct cc_system *s, int core, uint64_t line);       /* NULL: true */
    enum cc_word_source (*core_word_source)(const struct cc_system *s, int core, uint64_t line,
                                            unsigned word); /* NULL: CC_WORD_LINE */
    void (*settle)(struct cc_system *s);
    void (*drop_noncoherent)(struct cc_system *s, int core, const char *why);
    int64_t (*place_count)(const struct cc_system *s, enum cc_line_kind kind);
    bool (*place_line)(const struct cc_system *s, enum cc_line_kind kind, int core, int64_t slot,
                       uint64_t *line);
    enum cc_line_kind (*line_kind)(const struct cc_system *s, uint64_t line);
    const char *(*home_state_of)(const struct cc_system *s, uint64_t line);
    int (*home_node_of)(const struct cc_system *s, uint64_t line); /* NULL: no such home */
    bool (*llc_holds)(const struct cc_system *s, uint64_t line);   /* NULL: no LLC at the home */
    /* NULL: none. Whether the LLC's copy holds a write-back memory has not
     * got; and the line the last reset's fill of the LLC dropped, if one */
    bool (*llc_dirty)(const struct cc_system *s, uint64_t line);
    bool (*llc_reset_drop)(const struct cc_system *s, uint64_t *line, bool *dirty);
    bool (*can_hold)(const struct cc_system *s, char state); /* NULL: every state */
    bool (*row_coverage)(const struct cc_system *s, struct cc_coverage *out); /* NULL: no tables */
    void (*each_cell_run)(const struct cc_system *s, cc_cell_fn fn, void *ctx); /* NULL: none */
};

/* A system run by `be` with the backend's own state (cc_destroy calls
 * be->destroy, then frees the system). */
struct cc_system *cc_system_new(struct sim_kernel *k, struct net *net, const struct cc_params *p,
                                const struct cc_backend *be, void *state);
/* The state given to cc_system_new. */
void *cc_backend_state(const struct cc_system *s);

#endif
