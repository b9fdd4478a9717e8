/*
 * prefetch.c -- the coherent level's hardware prefetchers (cc_params
 * prefetch_*), as the L2 streamers of Sandy Bridge and Knights Corner, a
 * next-line and an adjacent-line prefetcher: they watch their cores' reads,
 * and read ahead of them so that a copy loop finds its next lines already in.
 *
 * Lines are followed in the trace's layout (cc_req.vline: an array's lines
 * are consecutive, as in memory), not by line number: line numbers are
 * given on first touch, so they follow the order of first use, not the
 * layout. cc_set_line_map turns a layout place into the line to fetch.
 *
 * The stream prefetcher: a table of prefetch_streams streams per cache,
 * replaced LRU. A read that misses and follows no stream starts one. A
 * read of a line at most prefetch_depth + 1 lines past a stream's last (in
 * its direction; the second read of a stream fixes the direction, and must
 * be next to the first) follows it. From the prefetch_train-th read of a
 * stream on, each read that follows it sends the cache's own reads (GetS,
 * as a core's load) for the lines up to prefetch_depth past it not yet
 * prefetched, the nearest first, at most prefetch_degree of them (Intel's
 * streamer: two a lookup, up to 20 lines ahead; the rest wait for the
 * stream's next read).
 *
 * The next-line prefetcher (prefetch_next N): a read that missed, or found
 * its line still on its way, fetches the N lines after it. The
 * adjacent-line prefetcher (prefetch_pair, Intel's spatial prefetcher,
 * which completes a 128-byte chunk): such a read fetches the other line of
 * its aligned pair in the layout.
 *
 * Pages (prefetch_page_lines): as real prefetchers, which see physical
 * addresses, none fetches past the page of the read that set it off, and
 * a stream follows no read into another page (a new stream starts there).
 * Pages are cut in the layout: layout place v (1-based) is in page
 * (v - 1) / prefetch_page_lines.
 *
 * A prefetch of a line the cache holds, or is fetching, is not sent. A
 * prefetched line fills a way as any read does (evicting the LRU line of a
 * full set); a core's read of it while it is on its way waits for it.
 *
 * Reads set them off; with prefetch_rfo the accesses that fetch their line
 * to write (RFOs: stores, atomics, addlines) do too, in streams of their
 * own, and their lines are fetched to write (GetX, as a core's store,
 * writing nothing), as KNC's L2 prefetcher does. Prefetches are counted in
 * stats.prefetches, not as loads or misses.
 *
 * cc_prefetch is a core's prefetch instruction (a copy loop's, core.c):
 * the same fetch of a layout place, counted in stats.sw_prefetches.
 */
#include "cc_internal.h"

#include <stdlib.h>

#define PF_CHUNK 64

static struct cc_req *pf_get(struct cc_system *s)
{
    if (!s->pf_free) {
        struct cc_req *c = sim_xcalloc(PF_CHUNK, sizeof *c);
        s->pf_chunks = sim_xrealloc(s->pf_chunks, (s->pf_nchunks + 1) * sizeof *s->pf_chunks);
        s->pf_chunks[s->pf_nchunks++] = c;
        for (int i = PF_CHUNK - 1; i >= 0; i--) {
            c[i].next = s->pf_free;
            s->pf_free = &c[i];
        }
    }
    struct cc_req *r = s->pf_free;
    s->pf_free = r->next;
    return r;
}

static void pf_done(struct sim_kernel *k, struct cc_req *r)
{
    struct cc_system *s = r->ctx;
    (void)k;
    r->next = s->pf_free;
    s->pf_free = r;
    if (r->prefetch == CC_PF_SOFTWARE && s->prefetch_done)
        s->prefetch_done(s->prefetch_done_ctx, r->core, r->op == CC_STORE);
}

void cc_prefetch_free(struct cc_system *s)
{
    for (size_t i = 0; i < s->pf_nchunks; i++)
        free(s->pf_chunks[i]);
    free(s->pf_chunks);
    s->pf_chunks = NULL;
    s->pf_nchunks = 0;
    s->pf_free = NULL;
}

/* Whether cache c's copy of line spares a prefetch: the cache holds it or
 * is fetching it; for a waiting store's (CC_PF_STORE), only a copy it may
 * write or a fetch under way: a shared copy is asked to be made writable,
 * as the store itself would ask. */
static bool held(struct cc_system *s, struct cc_cache *c, uint64_t line, enum cc_prefetcher who)
{
    const struct cc_line *cl = cc_way_find(s, c, line);
    if (!cl || who != CC_PF_STORE)
        return cl != NULL;
    return cc_state_writable(cl->state) || !cc_state_stable(cl->state) || cl->waiting;
}

/* Whether core's cache c would fetch layout place vline for who: the
 * trace has such a line (placed now if it was not yet; *line its number)
 * and the cache does not hold it (held). */
static bool wanted(struct cc_system *s, struct cc_cache *c, int core, uint64_t vline,
                   enum cc_prefetcher who, uint64_t *line)
{
    return vline != 0 && s->line_map(s->line_map_ctx, core, vline - 1, line) &&
           !held(s, c, *line, who);
}

/* Sends cache c's read (rfo: fetch to write), by who, of layout place
 * vline for core, if it is wanted: whether it sent it. */
static bool prefetch_line(struct cc_system *s, struct cc_cache *c, int core, uint64_t vline,
                          bool rfo, enum cc_prefetcher who, int tag)
{
    uint64_t line;
    if (!wanted(s, c, core, vline, who, &line))
        return false;
    struct cc_req *r = pf_get(s);
    *r = (struct cc_req){.op = rfo ? CC_STORE : CC_LOAD,
                         .core = core,
                         .line = line,
                         .vline = vline,
                         .prefetch = (uint8_t)who,
                         .tag = tag,
                         .done = pf_done,
                         .ctx = s};
    cc_process_request(s, c, r);
    return true;
}

bool cc_prefetch_wanted(struct cc_system *s, int core, uint64_t vline)
{
    SIM_ASSERT(core >= 0 && core < s->p.cores && s->line_map);
    uint64_t line;
    return wanted(s, &s->caches[cc_cache_of_core(s, core)], core, vline, CC_PF_SOFTWARE, &line);
}

bool cc_prefetch(struct cc_system *s, int core, uint64_t vline, bool to_write, int tag)
{
    SIM_ASSERT(core >= 0 && core < s->p.cores && s->line_map);
    return prefetch_line(s, &s->caches[cc_cache_of_core(s, core)], core, vline, to_write,
                         CC_PF_SOFTWARE, tag);
}

void cc_prefetch_store(struct cc_system *s, int core, uint64_t vline, int tag)
{
    if (!s->proto) /* a memory system without coherent caches (the SCC's) */
        return;
    SIM_ASSERT(core >= 0 && core < s->p.cores && s->line_map);
    prefetch_line(s, &s->caches[cc_cache_of_core(s, core)], core, vline, true, CC_PF_STORE, tag);
}

/* Whether layout places a and b are in one page (prefetch_page_lines). */
static bool same_page(const struct cc_system *s, uint64_t a, uint64_t b)
{
    unsigned n = s->p.prefetch_page_lines;
    return n == 0 || (a - 1) / n == (b - 1) / n;
}

/* Whether a read (a store, rfo) of line follows stream st. */
static bool follows(const struct cc_system *s, const struct cc_stream *st, uint64_t line, bool rfo)
{
    if (st->rfo != rfo || !same_page(s, line, st->last))
        return false;
    if (st->dir == 0)
        return line == st->last + 1 || line + 1 == st->last;
    uint64_t reach = (uint64_t)s->p.prefetch_depth + 1;
    if (st->dir > 0)
        return line > st->last && line - st->last <= reach;
    return line < st->last && st->last - line <= reach;
}

static struct cc_stream *stream_of(struct cc_system *s, struct cc_cache *c, uint64_t line, bool rfo)
{
    for (unsigned i = 0; i < s->p.prefetch_streams; i++)
        if (c->streams[i].reads && follows(s, &c->streams[i], line, rfo))
            return &c->streams[i];
    return NULL;
}

static struct cc_stream *stream_new(struct cc_system *s, struct cc_cache *c, uint64_t line,
                                    bool rfo)
{
    struct cc_stream *v = &c->streams[0];
    for (unsigned i = 0; i < s->p.prefetch_streams && v->reads; i++)
        if (!c->streams[i].reads || c->streams[i].lru < v->lru)
            v = &c->streams[i];
    *v = (struct cc_stream){.rfo = rfo, .reads = 1, .last = line, .ahead = line};
    return v;
}

/* The lines past the stream's read, up to depth ahead and in its page, not
 * yet prefetched: the nearest first, at most prefetch_degree sent. */
static void read_ahead(struct cc_system *s, struct cc_cache *c, int core, struct cc_stream *st)
{
    unsigned sent = 0;
    for (unsigned i = 1; i <= s->p.prefetch_depth; i++) {
        if (st->dir < 0 && st->last <= i)
            break; /* past the first line of the layout */
        uint64_t line = st->dir > 0 ? st->last + i : st->last - i;
        if (!same_page(s, line, st->last))
            break;
        if (st->dir > 0 ? line <= st->ahead : line >= st->ahead)
            continue;
        if (s->p.prefetch_degree && sent == s->p.prefetch_degree)
            break;
        sent += prefetch_line(s, c, core, line, st->rfo, CC_PF_STREAM, -1);
        st->ahead = line;
    }
}

/* The stream prefetcher's part of cc_prefetch_observe. */
static void observe_streams(struct cc_system *s, struct cc_cache *c, int core, uint64_t line,
                            bool rfo, bool missed)
{
    struct cc_stream *st = stream_of(s, c, line, rfo);
    if (!st) {
        if (missed)
            stream_new(s, c, line, rfo)->lru = ++c->tick;
        return;
    }
    if (st->dir == 0)
        st->dir = line > st->last ? 1 : -1;
    if ((st->dir > 0 && st->ahead < line) || (st->dir < 0 && st->ahead > line))
        st->ahead = line;
    st->last = line;
    st->reads++;
    st->lru = ++c->tick;
    if (st->reads >= s->p.prefetch_train)
        read_ahead(s, c, core, st);
}

/* The next-line prefetcher: after a read that missed, its next lines. */
static void fetch_next_lines(struct cc_system *s, struct cc_cache *c, int core, uint64_t line,
                             bool rfo)
{
    for (unsigned i = 1; i <= s->p.prefetch_next && same_page(s, line + i, line); i++)
        prefetch_line(s, c, core, line + i, rfo, CC_PF_NEXT, -1);
}

/* The adjacent-line prefetcher: after a read that missed, the other line
 * of its pair (layout places are 1-based: 1 and 2, 3 and 4, ...). */
static void fetch_pair_line(struct cc_system *s, struct cc_cache *c, int core, uint64_t line,
                            bool rfo)
{
    prefetch_line(s, c, core, ((line - 1) ^ 1) + 1, rfo, CC_PF_PAIR, -1);
}

void cc_prefetch_observe(struct cc_system *s, struct cc_cache *c, int core, uint64_t line, bool rfo,
                         bool missed)
{
    if (c->streams)
        observe_streams(s, c, core, line, rfo, missed);
    if (s->p.prefetch_next && missed)
        fetch_next_lines(s, c, core, line, rfo);
    if (s->p.prefetch_pair && missed)
        fetch_pair_line(s, c, core, line, rfo);
}
