/*
 * checker.c -- the invariant checker: single writer or many readers, every
 * load returns the last store's value, every fill brings the current value.
 *
 * It keeps a shadow copy of every line, updated when a store performs (the
 * line's coherence order is the order in which stores perform, and SWMR
 * makes that order total). A violation prints a report: the line, every
 * cache's state for it, the directory, and the last messages on the line.
 */
#include "cc_internal.h"

#include <stdlib.h>
#include <string.h>

uint8_t *cc_shadow(struct cc_system *s, uint64_t line)
{
    uint8_t *b = sim_map_get(&s->shadow, line);
    if (!b) {
        /* a line the checker has not seen holds what memory holds */
        struct cc_dir *d = cc_dir_get(s, cc_home_of(s, line), line);
        b = sim_xmalloc(s->p.line_bytes);
        memcpy(b, d->memory, s->p.line_bytes);
        sim_map_put(&s->shadow, line, b);
    }
    return b;
}

static void report_line(struct cc_system *s, uint64_t line)
{
    fprintf(stderr, "  caches:");
    for (int c = 0; c < s->ncaches; c++) {
        char st = cc_cache_state_of(s, c, line);
        if (st != 'I')
            fprintf(stderr, " %d:%c", c, st);
    }
    struct cc_dir *d = cc_dir_get(s, cc_home_of(s, line), line);
    fprintf(stderr, "\n  home %d (node %d): state %s, owner %d, forwarder %d, sharers %d\n",
            d->home->index, d->home->id, cc_home_state_name(s, d->state), d->owner, d->forwarder,
            cc_sharer_count(s, d));
    fprintf(stderr, "  last messages on the line (newest first; SRC -> DST are nodes):\n");
    const struct cc_hist *h;
    for (int i = 0; (h = cc_dir_hist(d, i)) != NULL; i++)
        fprintf(stderr, "    %.3f ns %s %d -> %d\n", (double)h->time / SIM_PS_PER_NS,
                cc_msg_table_names[h->type], h->src, h->dst);
}

void cc_violation(struct cc_system *s, uint64_t line, const char *fmt, ...)
{
    va_list ap;
    s->stats.violations++;
    fflush(stdout);
    fprintf(stderr,
            "ccsim: coherence violation (protocol %s) on line 0x%llx at %.3f ns: ", s->proto->name,
            (unsigned long long)line, (double)sim_now(s->k) / SIM_PS_PER_NS);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    report_line(s, line);
    if (s->check_fatal)
        exit(SIM_EXIT_FAIL);
}

void cc_check_load(struct cc_system *s, int core, uint64_t line, unsigned word, uint64_t value)
{
    uint64_t want;
    s->stats.checks++;
    memcpy(&want, cc_shadow(s, line) + 8 * word, 8);
    if (value != want)
        cc_violation(s, line, "core %d read word %u = %llu, the last write was %llu", core, word,
                     (unsigned long long)value, (unsigned long long)want);
}

void cc_check_store(struct cc_system *s, int cache, uint64_t line, const uint8_t *data)
{
    s->stats.checks++;
    for (int c = 0; c < s->ncaches; c++) {
        char st = cc_cache_state_of(s, c, line);
        if (c != cache && st != 'I' && st != 'T')
            cc_violation(s, line, "%s %d wrote while %s %d holds a %c copy", cc_cache_word(s),
                         cache, cc_cache_word(s), c, st);
    }
    memcpy(cc_shadow(s, line), data, s->p.line_bytes);
}

void cc_check_fill(struct cc_system *s, int cache, uint64_t line, const uint8_t *data)
{
    s->stats.checks++;
    if (memcmp(cc_shadow(s, line), data, s->p.line_bytes) != 0)
        cc_violation(s, line, "%s %d was filled with a stale copy", cc_cache_word(s), cache);
}

/* Counts a copy (NULL: none) of cache c as a writer or a reader. */
static void count_copy(const struct cc_line *cl, int c, int *writers, int *readers, int *writer)
{
    if (cl && cc_state_writable(cl->state)) {
        (*writers)++;
        *writer = c;
    } else if (cl && cc_state_readable(cl->state))
        (*readers)++;
}

/* Single writer or many readers. Transient states that can still be read
 * (SM_D, SM_A, FM_D, OM_D) count as readers. */
void cc_check_states(struct cc_system *s, uint64_t line)
{
    int writers = 0, readers = 0, writer = -1;
    s->stats.checks++;
    size_t base = (size_t)(line & (s->p.sets - 1)) * s->p.ways;
    for (int c = 0; c < s->ncaches; c++) {
        const struct cc_cache *cache = &s->caches[c];
        for (unsigned w = 0; w < s->p.ways; w++) /* the compact tags, then the way itself */
            if (cache->tags[base + w] == line + 1)
                count_copy(&cache->lines[base + w], c, &writers, &readers, &writer);
        count_copy(cc_wb_find(s, cache, line), c, &writers, &readers, &writer);
    }
    if (writers > 1 || (writers == 1 && readers > 0))
        cc_violation(s, line, "%d writable and %d readable copies (a writer: %s %d)", writers,
                     readers, cc_cache_word(s), writer);
}
