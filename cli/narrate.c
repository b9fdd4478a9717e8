/*
 * narrate.c -- a coherence step as text (narrate.h): what the row did, read
 * off the step's record of it (messages sent, memory reads and writes, the
 * directory and the line's words before and after), never off the row's
 * list of actions, which says what it may do.
 */
#include "narrate.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#define TEXT_MAX 8192
#define CHUNKS   48

/* A narration: chunks laid out one after another, wrapped between them. */
struct text {
    char buf[TEXT_MAX];
    size_t len;
    size_t start[CHUNKS]; /* where each chunk begins in buf */
    int n;
};

static void chunk(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void chunk(struct text *t, const char *fmt, ...)
{
    if (t->n == CHUNKS || t->len + 1 >= TEXT_MAX)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(t->buf + t->len, TEXT_MAX - t->len, fmt, ap);
    va_end(ap);
    if (w <= 0)
        return;
    t->start[t->n++] = t->len;
    t->len += (size_t)w < TEXT_MAX - t->len ? (size_t)w : TEXT_MAX - t->len - 1;
    t->buf[t->len++] = '\0';
}

static const char *chunk_at(const struct text *t, int i)
{
    return t->buf + t->start[i];
}

/* ------------------------------------------------------------ names */

/* What a cache node is called: a core's own cache is named by its core. */
static const char *cache_word(const struct narrate_ctx *n, bool plural)
{
    if (n->shared_caches)
        return plural ? "caches" : "cache";
    return plural ? "cores" : "core";
}

void narrate_node_name(int node, int caches, bool shared, int tiles, char *buf, size_t size)
{
    if (node < caches)
        snprintf(buf, size, "%s %d", shared ? "cache" : "core", node);
    else if (tiles && node - caches >= tiles)
        snprintf(buf, size, "mc %d", node - caches - tiles);
    else
        snprintf(buf, size, "%s %d", tiles ? "tile" : "home", node - caches);
}

void narrate_who(const struct narrate_ctx *n, int node, bool home, char *buf, size_t size)
{
    SIM_ASSERT(home == (node >= n->cores));
    narrate_node_name(node, n->cores, n->shared_caches, n->tiles, buf, size);
}

static void node_name(const struct narrate_ctx *n, int node, char *buf, size_t size)
{
    narrate_who(n, node, node >= n->cores, buf, size);
}

void narrate_line_name(const struct narrate_ctx *n, uint64_t line, char *buf, size_t size)
{
    uintptr_t v = (uintptr_t)sim_map_get(n->names, line);
    if (v)
        wl_line_name(n->p, (int64_t)v - 1, buf, size);
    else
        snprintf(buf, size, "#%llu", (unsigned long long)line);
}

/* A word as a trace writes it: "msg" for word 0, "msg.3" for another. */
static void word_name(const char *line, unsigned w, char *buf, size_t size)
{
    if (w == 0)
        snprintf(buf, size, "%s", line);
    else
        snprintf(buf, size, "%s.%u", line, w);
}

static void legend_add(struct narrate_ctx *n, const char *kind, const char *name, const char *gloss)
{
    struct narrate_legend *l = &n->legend;
    if (!name || !gloss)
        return;
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->kind[i], kind) == 0 && strcmp(l->name[i], name) == 0)
            return;
    if (l->n == NARRATE_LEGEND)
        return;
    l->kind[l->n] = kind;
    l->name[l->n] = name;
    l->gloss[l->n] = gloss;
    l->n++;
}

/* ------------------------------------------------------------ the event */

/* The statements whose requests look like others' (a wait polls with
 * loads, cmpxchg is a cas), by the trace's name; false for the rest. */
static bool statement_text(const struct wl_op *op, const char *w, char *buf, size_t size)
{
    if (op && op->op == WL_OP_WAIT) {
        snprintf(buf, size, "wait %s %s %lld", w, wl_cmp_text(op->cmp), (long long)op->value[0]);
        return true;
    }
    if (op && op->op == WL_OP_CMPXCHG) {
        snprintf(buf, size, "cmpxchg %s %lld %lld", w, (long long)op->value[0],
                 (long long)op->value[1]);
        return true;
    }
    return false;
}

static void op_text(const struct cc_req *r, const char *line, char *buf, size_t size)
{
    char w[160];
    word_name(line, r->word, w, sizeof w);
    const struct wl_op *op = core_req_op(r);
    if (statement_text(op, w, buf, size))
        return;
    long long v = (long long)r->value, v2 = (long long)r->value2;
    switch (r->op) {
    case CC_LOAD:
        snprintf(buf, size, "read %s", w);
        return;
    case CC_STORE:
        snprintf(buf, size, "write %s %lld", w, v);
        return;
    case CC_ADD:
        snprintf(buf, size, "add %s %lld", w, v);
        return;
    case CC_CAS:
        snprintf(buf, size, "cas %s %lld %lld", w, v, v2);
        return;
    case CC_XCHG:
        snprintf(buf, size, "xchg %s %lld", w, v);
        return;
    case CC_LOAD_LINE: /* a copy's or an addline's source line */
        snprintf(buf, size, "%s: load %s", op && op->op == WL_OP_ADDLINE ? "addline" : "copy",
                 line);
        return;
    case CC_STORE_LINE:
        snprintf(buf, size, "copy: store %s", line);
        return;
    case CC_ADD_LINE:
        snprintf(buf, size, "addline: add into %s", line);
        return;
    case CC_FLUSH:
        snprintf(buf, size, "flush %s", line);
        return;
    }
    snprintf(buf, size, "?");
}

/* "thread 2, it 3: write x 1": who asked and what, for request req. */
static void request_label(const struct cc_req *req, const char *line, char *buf, size_t size)
{
    char op[256], who[128] = "";
    int thread;
    const char *var;
    int64_t value;
    op_text(req, line, op, sizeof op);
    if (core_req_origin(req, &thread, &var, &value)) {
        if (var)
            snprintf(who, sizeof who, "thread %d, %s %lld: ", thread, var, (long long)value);
        else
            snprintf(who, sizeof who, "thread %d: ", thread);
    }
    snprintf(buf, size, "%s%s", who, op);
}

/* "Store (thread 0, it 3: write msg.1 3)" */
static void request_chunk(struct text *t, const struct cc_step *st, const char *line)
{
    char label[400];
    request_label(st->req, line, label, sizeof label);
    chunk(t, "%s (%s)", st->event, label);
}

/* The hardware prefetcher a prefetch of this kind is: "stream", "next-line"
 * or "adjacent-line". */
static const char *hardware_prefetcher(int prefetch)
{
    return prefetch == CC_PF_NEXT   ? "next-line"
           : prefetch == CC_PF_PAIR ? "adjacent-line"
                                    : "stream";
}

/* "Replace (to free a way of this full set; waiting for one: thread 0:
 * read big[16])": the request whose wait ran it, by its own line's name (an
 * earlier waiter of the set may take the way first: they are served oldest
 * first); with a write-back buffer free, that the line moves there and its
 * way is free at once. */
static void replace_chunk(struct narrate_ctx *n, struct text *t, const struct cc_step *st)
{
    const struct cc_req *r = st->for_req;
    char name[128], label[400];
    narrate_line_name(n, r->line, name, sizeof name);
    const char *to_write = cc_op_reads(r->op) ? "" : ", to write";
    if (r->prefetch == CC_PF_SOFTWARE)
        snprintf(label, sizeof label, "thread %d's copy or addline loop's prefetch of %s%s", r->tag,
                 name, to_write);
    else if (r->prefetch == CC_PF_STORE)
        snprintf(label, sizeof label,
                 "thread %d's store of %s, waiting for the stores before it, fetched ahead", r->tag,
                 name);
    else if (r->prefetch)
        snprintf(label, sizeof label, "the cache's %s prefetcher's fetch of %s%s",
                 hardware_prefetcher(r->prefetch), name, to_write);
    else
        request_label(r, name, label, sizeof label);
    if (st->to_wb)
        chunk(t,
              "%s (to free a way of this full set for %s: the line moves to a write-back buffer "
              "to await its put's answer, and its way is free now)",
              st->event, label);
    else
        chunk(t, "%s (to free a way of this full set; waiting for one: %s)", st->event, label);
}

/* Who sent a prefetch a cache row took: a thread's copy loop (its tag),
 * a thread's store fetched ahead, or one of the cache's hardware prefetchers. */
static void prefetcher_name(const struct cc_step *st, char *buf, size_t size)
{
    if (st->prefetch == CC_PF_SOFTWARE)
        snprintf(buf, size, "thread %d's copy or addline loop's prefetch instruction",
                 st->prefetch_tag);
    else if (st->prefetch == CC_PF_STORE)
        snprintf(buf, size, "a store of thread %d waiting for the stores before it: the core",
                 st->prefetch_tag);
    else
        snprintf(buf, size, "the cache's %s prefetcher", hardware_prefetcher(st->prefetch));
}

/* Who sent a prefetch's request a home row took, said of the requesting
 * core: its copy loop, its store waiting its turn, or its hardware prefetcher. */
static void sender_prefetcher_name(const struct cc_step *st, char *buf, size_t size)
{
    if (st->prefetch == CC_PF_SOFTWARE)
        snprintf(buf, size, "a prefetch instruction of its core's copy or addline loop");
    else if (st->prefetch == CC_PF_STORE)
        snprintf(buf, size, "a store of its core waiting its turn");
    else
        snprintf(buf, size, "its %s prefetcher", hardware_prefetcher(st->prefetch));
}

/* "Fwd_GetS from home 0", "Upgrade (GetX from core 0)", "Done"; the gloss
 * beside it when asked. */
static void event_chunk(struct narrate_ctx *n, struct text *t, const struct cc_step *st,
                        const char *line, bool gloss)
{
    char from[32] = "";
    if (st->home && st->stalled && st->msg_type && !st->prefetch) {
        /* a request that waits is classified afresh when it is served (a
         * PutX met in B_EM is no stale eviction: its sender is about to be
         * the owner): the message, not the provisional event */
        node_name(n, st->msg_src, from, sizeof from);
        legend_add(n, "message", st->msg_type, st->msg_gloss);
        const char *g = gloss ? st->msg_gloss : NULL;
        /* a request's event is its row's (an Upgrade: the GetX of a sharer),
         * as when it is served; a Put's is left out: provisional */
        if (strcmp(st->event, st->msg_type) != 0 && strncmp(st->event, "Put", 3) != 0) {
            legend_add(n, "home event", st->event, st->event_doc);
            chunk(t, "%s (%s from %s%s%s)", st->event, st->msg_type, from, g ? ": " : "",
                  g ? g : "");
        } else
            chunk(t, "%s from %s%s%s%s", st->msg_type, from, g ? " (" : "", g ? g : "",
                  g ? ")" : "");
        return;
    }
    legend_add(n, st->home ? "home event" : "cache event", st->event, st->event_doc);
    if (st->req) {
        request_chunk(t, st, line);
        return;
    }
    if (st->for_req && !st->home) {
        replace_chunk(n, t, st);
        return;
    }
    if (st->prefetch && !st->home) {
        char who[96];
        prefetcher_name(st, who, sizeof who);
        chunk(t, "%s (%s %s %s ahead%s)", st->event, who,
              strcmp(st->event, "Store") == 0 ? "fetches" : "reads", line,
              strcmp(st->event, "Store") == 0 ? ", to write" : "");
        return;
    }
    if (st->msg_src >= 0)
        node_name(n, st->msg_src, from, sizeof from);
    if (st->prefetch) { /* at the home: the request a prefetch sent */
        char who[96];
        sender_prefetcher_name(st, who, sizeof who);
        /* the message, not the row's event, says what it asks for (an
         * Upgrade is a sharer's GetX) */
        const char *msg = st->msg_type ? st->msg_type : st->event;
        const char *what = strcmp(msg, "GetX") == 0 ? "fetches ahead, to write" : "reads ahead";
        if (strcmp(msg, st->event) != 0) {
            legend_add(n, "message", msg, st->msg_gloss);
            chunk(t, "%s (%s from %s: %s %s)", st->event, msg, from, who, what);
        } else
            chunk(t, "%s from %s (%s %s)", st->event, from, who, what);
        return;
    }
    const char *g = gloss && st->event_doc ? st->event_doc : NULL;
    if (st->msg_type && strcmp(st->msg_type, st->event) != 0) {
        legend_add(n, "message", st->msg_type, st->msg_gloss);
        chunk(t, "%s (%s from %s%s%s)", st->event, st->msg_type, from, g ? ": " : "", g ? g : "");
    } else if (st->msg_src >= 0 && !st->msg_type) /* no message: memory's retry of a read */
        chunk(t, "%s (for %s)%s%s%s", st->event, from, g ? " (" : "", g ? g : "", g ? ")" : "");
    else if (st->msg_src >= 0)
        chunk(t, "%s from %s%s%s%s", st->event, from, g ? " (" : "", g ? g : "", g ? ")" : "");
    else
        chunk(t, "%s%s%s%s", st->event, g ? " (" : "", g ? g : "", g ? ")" : "");
}

/* ------------------------------------------------------------ the directory */

static bool bit(const uint64_t *bits, int i)
{
    return bits && (bits[i / 64] >> (i % 64)) & 1;
}

/* "{0, 2}", or "{12 cores}" when long. */
static void set_text(const struct narrate_ctx *n, const struct cc_dir_view *v, char *buf,
                     size_t size)
{
    if (v->sharers > 8) {
        snprintf(buf, size, "{%d %s}", v->sharers, cache_word(n, true));
        return;
    }
    size_t len = (size_t)snprintf(buf, size, "{");
    bool first = true;
    for (int c = 0; c < n->cores && len < size; c++)
        if (bit(v->sharer_bits, c)) {
            len += (size_t)snprintf(buf + len, size - len, "%s%d", first ? "" : ", ", c);
            first = false;
        }
    snprintf(buf + len, len < size ? size - len : 0, "}");
}

/* What the directory held when the row met it: " [owner core 0, sharers {1}]". */
static void dir_text(const struct narrate_ctx *n, const struct cc_dir_view *v, char *buf,
                     size_t size)
{
    char set[160];
    size_t len = 0;
    buf[0] = '\0';
    if (v->owner >= 0)
        len +=
            (size_t)snprintf(buf + len, size - len, "owner %s %d", cache_word(n, false), v->owner);
    if (v->forwarder >= 0 && len < size)
        len += (size_t)snprintf(buf + len, size - len, "%sforwarder %s %d", len ? ", " : "",
                                cache_word(n, false), v->forwarder);
    if (v->sharers > 0 && len < size) {
        set_text(n, v, set, sizeof set);
        snprintf(buf + len, size - len, "%ssharers %s", len ? ", " : "", set);
    }
}

static bool same_sharers(const struct narrate_ctx *n, const struct cc_dir_view *a,
                         const struct cc_dir_view *b)
{
    if (a->sharers != b->sharers)
        return false;
    for (int c = 0; c < n->cores; c++)
        if (bit(a->sharer_bits, c) != bit(b->sharer_bits, c))
            return false;
    return true;
}

static void core_or_none(const struct narrate_ctx *n, int core, char *buf, size_t size)
{
    if (core >= 0)
        snprintf(buf, size, "%s %d", cache_word(n, false), core);
    else
        snprintf(buf, size, "none");
}

static void dir_changes(const struct narrate_ctx *n, struct text *t, const struct cc_step *st)
{
    const struct cc_dir_view *a = &st->dir_before, *b = &st->dir_after;
    char x[32], y[32], sa[160], sb[160];
    if (!a->gone && b->gone) {
        node_name(n, st->msg_src, x, sizeof x);
        chunk(t, "%s was evicting: it keeps no copy", x);
    }
    if (a->owner != b->owner) {
        core_or_none(n, a->owner, x, sizeof x);
        core_or_none(n, b->owner, y, sizeof y);
        chunk(t, "owner %s -> %s", x, y);
    }
    if (a->forwarder != b->forwarder) {
        core_or_none(n, a->forwarder, x, sizeof x);
        core_or_none(n, b->forwarder, y, sizeof y);
        chunk(t, "forwarder %s -> %s", x, y);
    }
    if (!same_sharers(n, a, b)) {
        set_text(n, a, sa, sizeof sa);
        set_text(n, b, sb, sizeof sb);
        chunk(t, "sharers %s -> %s", sa, sb);
    }
}

static bool has_action(const struct cc_step *st, const char *name)
{
    for (int i = 0; i < 8 && st->actions[i]; i++)
        if (strcmp(st->actions[i], name) == 0)
            return true;
    return false;
}

static void pending_change(struct text *t, const struct cc_step *st)
{
    int a = st->dir_before.pending, b = st->dir_after.pending;
    if (b == a && b > 0 && has_action(st, "count_answer") && has_action(st, "await_unblock"))
        chunk(t, "the answer is in, its reader's unblock now awaited: still %d awaited", b);
    else if (b > a)
        chunk(t, "awaits %d answer%s", b, b == 1 ? "" : "s");
    else if (b < a && b > 0)
        chunk(t, "%d more awaited", b);
    else if (b < a)
        chunk(t, "every awaited answer is in");
}

/* ------------------------------------------------------------ the line's words */

/* "msg.1 0 -> 5, msg.2 0 -> 6" into buf (at most `most` words, then how
 * many more); false if no word changed. */
static bool word_changes(const struct cc_step *st, const char *line, int most, char *buf,
                         size_t size)
{
    size_t len = 0;
    int shown = 0, more = 0;
    buf[0] = '\0';
    if (!st->data_before || !st->data_after)
        return false;
    for (unsigned w = 0; w < st->line_bytes / 8; w++) {
        uint64_t a = cc_word_get(st->data_before, w), b = cc_word_get(st->data_after, w);
        if (a == b)
            continue;
        if (shown == most) {
            more++;
            continue;
        }
        char name[160];
        word_name(line, w, name, sizeof name);
        len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%s%s %lld -> %lld",
                                shown ? ", " : "", name, (long long)a, (long long)b);
        shown++;
    }
    if (more && len < size)
        snprintf(buf + len, size - len, ", %d more word%s", more, more == 1 ? "" : "s");
    return shown > 0;
}

/* Words a compact line lists before "N more words" (--wide lists all). */
static int words_listed(const struct narrate_ctx *n)
{
    return n->wide ? 1 << 30 : 2;
}

static void performed_chunk(const struct narrate_ctx *n, struct text *t, const struct cc_step *st,
                            const char *line)
{
    const struct cc_req *r = st->req;
    char w[160], ch[4096];
    word_name(line, r->word, w, sizeof w);
    const char *how = r->missed ? "" : " (a hit)";
    long long old = (long long)r->result, v = (long long)r->value;
    bool changed = word_changes(st, line, words_listed(n), ch, sizeof ch);
    switch (r->op) {
    case CC_LOAD:
        chunk(t, "reads %s = %lld%s", w, old, how);
        return;
    case CC_LOAD_LINE:
        chunk(t, "reads the line%s", how);
        return;
    case CC_STORE:
        if (changed)
            chunk(t, "writes %s: %lld -> %lld%s", w, old, v, how);
        else
            chunk(t, "writes %s = %lld (it was %lld already)%s", w, v, old, how);
        return;
    case CC_ADD:
        chunk(t, "adds %lld: %s %lld -> %lld%s", v, w, old, (long long)(r->result + r->value), how);
        return;
    case CC_CAS: {
        const struct wl_op *op = core_req_op(r);
        const char *name = op && op->op == WL_OP_CMPXCHG ? "cmpxchg" : "cas";
        if (r->result == r->value)
            chunk(t, "%s succeeds: %s %lld -> %lld%s", name, w, old, (long long)r->value2, how);
        else
            chunk(t, "%s fails: %s is %lld, not %lld%s", name, w, old, v, how);
        return;
    }
    case CC_XCHG:
        chunk(t, "exchanges: %s %lld -> %lld%s", w, old, v, how);
        return;
    case CC_STORE_LINE:
    case CC_ADD_LINE:
        chunk(t, "writes the line%s%s%s", how, changed ? ": " : " (no word changes)",
              changed ? ch : "");
        return;
    case CC_FLUSH:
        chunk(t, "the copy is to leave (flush)");
        return;
    }
}

/* ------------------------------------------------------------ messages sent */

static bool data_named(const char *type)
{
    return strncmp(type, "Data_", 5) == 0 || strcmp(type, "Fwd_Ack_Data") == 0;
}

/* "cores 1, 2, 3", or in runs when long: "63 cores: 1..63". */
static void node_list(const struct narrate_ctx *n, const struct cc_sent *s, int count, bool cores,
                      char *buf, size_t size)
{
    int base = cores ? 0 : n->cores;
    size_t len = 0;
    if (count > 4)
        len = (size_t)snprintf(buf, size, "%d %s: ", count, cores ? cache_word(n, true) : "homes");
    else
        len = (size_t)snprintf(buf, size, "%s ", cores ? cache_word(n, true) : "homes");
    for (int k = 0; k < count && len < size;) {
        int e = k;
        while (count > 4 && e + 1 < count && s[e + 1].dst == s[e].dst + 1)
            e++;
        len += (size_t)snprintf(buf + len, size - len, "%s%d", k ? ", " : "", s[k].dst - base);
        if (e > k && len < size)
            len += (size_t)snprintf(buf + len, size - len, "..%d", s[e].dst - base);
        k = e + 1;
    }
}

/* "sends Inv to cores 1, 2, 3": consecutive messages of one type, with or
 * without data, to nodes of one kind, in one chunk. */
static void sent_chunks(struct narrate_ctx *n, struct text *t, const struct cc_step *st, bool gloss)
{
    for (int i = 0; i < st->nsent;) {
        const struct cc_sent *s = &st->sent[i];
        bool to_core = s->dst < n->cores;
        int j = i + 1;
        while (j < st->nsent && strcmp(st->sent[j].type, s->type) == 0 &&
               st->sent[j].data == s->data && (st->sent[j].dst < n->cores) == to_core)
            j++;
        legend_add(n, "message", s->type, s->gloss);
        char to[512];
        if (j - i == 1)
            node_name(n, s->dst, to, sizeof to);
        else
            node_list(n, &st->sent[i], j - i, to_core, to, sizeof to);
        const char *with = s->data && !data_named(s->type) ? " with the line" : "";
        if (gloss)
            chunk(t, "sends %s (%s)%s to %s", s->type, s->gloss, with, to);
        else
            chunk(t, "sends %s%s to %s", s->type, with, to);
        i = j;
    }
    if (st->nsent_total > st->nsent)
        chunk(t, "and %d more message%s", st->nsent_total - st->nsent,
              st->nsent_total - st->nsent == 1 ? "" : "s");
}

/* ------------------------------------------------------------ a step */

static void memory_chunks(const struct narrate_ctx *n, struct text *t, const struct cc_step *st,
                          const char *line)
{
    char ch[4096];
    if (st->memory_reads)
        chunk(t, "reads memory");
    if (st->bank_wait_ps)
        chunk(t, "the line's DRAM bank is busy: the access waits %.3f ns (memory.bank_busy_ns)",
              (double)st->bank_wait_ps / SIM_PS_PER_NS);
    if (st->channel_wait_ps)
        chunk(t,
              "its memory controller is busy: the access waits %.3f ns (memory.bandwidth_gbs: "
              "a line at a time)",
              (double)st->channel_wait_ps / SIM_PS_PER_NS);
    if (st->llc_reads)
        chunk(t, "reads its LLC");
    if (st->llc_fill_waits)
        chunk(t, "the LLC's read of the line from memory is still under way: the line comes "
                 "with it");
    if (st->llc_drop) {
        char dropped[128];
        narrate_line_name(n, st->llc_dropped, dropped, sizeof dropped);
        chunk(t, "its LLC's set is full: %s leaves it for this line (home.llc_kb)%s", dropped,
              st->llc_dropped_held ? "; a core still holds it (every line of the set is held, "
                                     "and the LLC does not take copies back)"
                                   : ", the least recently used one no core holds");
        if (st->llc_dropped_dirty)
            chunk(t, "the LLC writes %s's written-back data to memory", dropped);
    }
    if (st->fill_backoff_ps) {
        chunk(t, "memory refuses the read: the line's fill is under way");
        chunk(t, "it is tried again %.3f ns later (memory.fill_conflict_ns)",
              (double)st->fill_backoff_ps / SIM_PS_PER_NS);
    }
    if (!st->writebacks)
        return;
    const char *where = st->llc_writebacks == st->writebacks ? "into its LLC" : "to memory";
    if (word_changes(st, line, words_listed(n), ch, sizeof ch))
        chunk(t, "writes the line %s: %s", where, ch);
    else
        chunk(t, "writes the line %s (no word changes)", where);
}

static const char *op_noun(enum cc_op op)
{
    switch (op) {
    case CC_LOAD:
    case CC_LOAD_LINE:
        return "load";
    case CC_STORE:
    case CC_STORE_LINE:
    case CC_ADD_LINE: /* addline writes its line: a store (DESIGN's counters) */
        return "store";
    case CC_FLUSH:
        return "flush";
    default:
        return "atomic";
    }
}

static void wait_chunk(const struct narrate_ctx *n, struct text *t, const struct cc_step *st)
{
    char who[32];
    if (!st->home && st->prefetch && st->nsent_total)
        chunk(t, "the prefetch is under way (no load waits for its line)");
    else if (!st->home && st->prefetch)
        chunk(t, "the prefetch waits until the line's transaction is over");
    else if (!st->home && st->nsent_total)
        chunk(t, "the %s waits for the answer", st->req ? op_noun(st->req->op) : "request");
    else if (!st->home)
        chunk(t, "the %s waits until the line's transaction is over",
              st->req ? op_noun(st->req->op) : "request");
    else if (st->retry_ps) { /* home.retry_cycles: refused, not queued */
        if (st->requester >= 0 && st->requester != st->msg_src) {
            narrate_who(n, st->requester, false, who, sizeof who);
            chunk(t, "busy with %s's request: this one is refused", who);
        } else
            chunk(t, "busy: this message is refused");
        chunk(t, "it comes back through the home's input %.3f ns later (home.retry_cycles)",
              (double)st->retry_ps / SIM_PS_PER_NS);
    } else if (st->requester >= 0 && st->requester != st->msg_src) {
        narrate_who(n, st->requester, false, who, sizeof who);
        chunk(t, "busy with %s's request: this one waits in the line's queue", who);
    } else
        chunk(t, "busy: this message waits in the line's queue");
}

/* A writer that collects the invalidated sharers' acks (GOLS's writes of
 * a shared line): what it counted, what it awaits. */
static void ack_chunks(struct text *t, const struct cc_step *st)
{
    const char *by = st->msg_type && strcmp(st->msg_type, "Grant") == 0 ? "grant" : "data";
    bool awaits = has_action(st, "await_acks");
    int said = awaits ? st->acks_need : st->msg_acks; /* the count the data or grant gave */
    const char *s = said == 1 ? "" : "s";
    if (awaits)
        chunk(t, "the %s says to await %d invalidation ack%s (%d in)", by, said, s, st->acks_got);
    else if (has_action(st, "count_ack") && st->acks_need)
        chunk(t, "counts the ack (%d of %d in)", st->acks_got, st->acks_need);
    else if (has_action(st, "count_ack"))
        chunk(t, "counts the ack (%d in, before the data or grant says how many)", st->acks_got);
    else if (has_action(st, "clear_acks") && said > 0) /* they came first */
        chunk(t, "the %s says to await %d invalidation ack%s: all are in", by, said, s);
}

/* Everything the row did, in the order a reader follows it. */
static void effect_chunks(struct narrate_ctx *n, struct text *t, const struct cc_step *st,
                          const char *line, bool gloss)
{
    if (!st->home && has_action(st, "write_data"))
        chunk(t, "fills its copy");
    if (!st->home)
        ack_chunks(t, st);
    if (st->performed && st->req)
        performed_chunk(n, t, st, line);
    else if (st->performed) /* the prefetcher's read: nobody waits for it */
        chunk(t, "the prefetch is done: the line is in");
    if (st->home)
        dir_changes(n, t, st);
    memory_chunks(n, t, st, line);
    sent_chunks(n, t, st, gloss);
    if (st->stalled)
        wait_chunk(n, t, st);
    if (st->home)
        pending_change(t, st);
}

/* A backend's step that says what it did in its own words (the SCC); a
 * core's request names its thread and operation, as a coherent one does. */
static void plain_chunks(struct narrate_ctx *n, struct text *t, const struct cc_step *st,
                         const char *line)
{
    char from[400] = "";
    if (st->req)
        request_label(st->req, line, from, sizeof from);
    else if (st->msg_src >= 0)
        node_name(n, st->msg_src, from, sizeof from);
    if (strcmp(st->from, "-") == 0) /* a server: it has no state to name */
        chunk(t, "%s%s%s%s", st->event_doc, from[0] ? " (" : "", from, from[0] ? ")" : "");
    else
        chunk(t, "%s%s%s%s in %s", st->event_doc, from[0] ? " (" : "", from, from[0] ? ")" : "",
              st->from);
    legend_add(n, "cache state", st->from, st->from_doc); /* NULL glosses add nothing */
    legend_add(n, "cache state", st->to, st->to_doc);
    for (int i = 0; i < 8 && st->action_docs[i]; i++)
        chunk(t, "%s", st->action_docs[i]);
}

static void build(struct narrate_ctx *n, struct text *t, const struct cc_step *st, const char *line,
                  bool gloss)
{
    t->len = 0;
    t->n = 0;
    if (!st->detailed) {
        char words[512];
        plain_chunks(n, t, st, line);
        if (word_changes(st, line, words_listed(n), words, sizeof words))
            chunk(t, "the words: %s", words);
        else if (st->data_before && st->data_after)
            chunk(t, "no word changes");
        if (strcmp(st->from, st->to) != 0)
            chunk(t, "now %s", st->to);
        return;
    }
    event_chunk(n, t, st, line, gloss);
    char dir[256] = "";
    if (st->home)
        dir_text(n, &st->dir_before, dir, sizeof dir);
    const char *kind = st->home ? "home state" : "cache state"; /* both have an S, an I ... */
    legend_add(n, kind, st->from, st->from_doc);
    legend_add(n, kind, st->to, st->to_doc);
    if (n->wide && st->from_doc)
        chunk(t, "in %s (%s)%s%s%s", st->from, st->from_doc, dir[0] ? " [" : "", dir,
              dir[0] ? "]" : "");
    else
        chunk(t, "in %s%s%s%s", st->from, dir[0] ? " [" : "", dir, dir[0] ? "]" : "");
    effect_chunks(n, t, st, line, n->wide);
    if (strcmp(st->from, st->to) == 0)
        return;
    if (n->wide && st->to_doc)
        chunk(t, "now %s (%s)", st->to, st->to_doc);
    else
        chunk(t, "now %s", st->to);
}

/* The separator before chunk i: the event and its state read as one
 * phrase, the state ends with a colon, effects are separated by "; ". */
static const char *sep_before(const struct text *t, int i, bool detailed)
{
    if (i == 0)
        return "";
    if (i == 1 && detailed)
        return " ";
    if (i == 2 && detailed)
        return strncmp(chunk_at(t, i), "now ", 4) == 0 ? ", " : ": ";
    return i == 1 ? ": " : "; ";
}

static size_t total_len(const struct text *t, size_t prefix, bool detailed)
{
    size_t len = prefix;
    for (int i = 0; i < t->n; i++)
        len += strlen(sep_before(t, i, detailed)) + strlen(chunk_at(t, i));
    return len;
}

/* Prints text from column *col, wrapping at its spaces under NARRATE_WIDTH
 * onto lines that start at column `indent` (a word longer than a line
 * stays whole). */
static void put_words(const char *text, size_t *col, size_t indent, FILE *f)
{
    for (const char *w = text; *w;) {
        size_t spaces = strspn(w, " "), word = strcspn(w + spaces, " ");
        if (*col > indent && *col + spaces + word >= NARRATE_WIDTH) {
            fprintf(f, "\n%*s", (int)indent, "");
            *col = indent;
            w += spaces; /* the space the wrap takes */
            spaces = 0;
        }
        fprintf(f, "%.*s", (int)(spaces + word), w);
        *col += spaces + word;
        w += spaces + word;
    }
}

/* The column continuation lines start at: under the prefix's end, unless
 * a long line name pushes that so far right that a name would not fit
 * after it (63 characters, its index and word): then under the time. */
static size_t continuation(size_t prefix)
{
    enum { ROOM = 75, UNDER_TIME = 16 };
    return prefix + 2 + ROOM <= NARRATE_WIDTH ? prefix + 2 : UNDER_TIME;
}

/* Prints the chunks after the prefix, starting a continuation line (see
 * continuation) before a chunk that would pass the width. */
static void lay_out(const struct text *t, const char *prefix, bool wide, bool detailed, FILE *f)
{
    size_t col = strlen(prefix), indent = continuation(col);
    fputs(prefix, f);
    for (int i = 0; i < t->n; i++) {
        const char *sep = sep_before(t, i, detailed), *c = chunk_at(t, i);
        size_t need = strlen(sep) + strlen(c);
        size_t after = i + 1 < t->n ? 1 : 0; /* room for the ';' a wrap after it leaves */
        if (!wide && i > 0 && col + need + after >= NARRATE_WIDTH) {
            /* the separator's punctuation ends the line, the chunk starts the next */
            fprintf(f, "%.*s\n%*s", sep[0] == ' ' ? 0 : 1, sep, (int)indent, "");
            /* (a comma or semicolon ends the line; a space is dropped) */
            col = indent;
            sep = "";
            need = strlen(c);
        }
        if (wide || col + need < NARRATE_WIDTH) {
            fprintf(f, "%s%s", sep, c);
            col += need;
        } else { /* a chunk longer than a line: at its spaces */
            put_words(sep, &col, indent, f);
            put_words(c, &col, indent, f);
        }
    }
    fputc('\n', f);
}

static int digits(int n)
{
    int d = 1;
    for (; n >= 10; n /= 10)
        d++;
    return d;
}

int narrate_who_width(int threads, int caches, bool shared, int homes)
{
    int w = 8;
    int widths[] = {7 + digits(threads - 1), (shared ? 6 : 5) + digits(caches - 1),
                    5 + digits(homes - 1)};
    for (size_t i = 0; i < SIM_COUNT_OF(widths); i++)
        w = widths[i] > w ? widths[i] : w;
    return w;
}

/* An entry's columns before its text: the time, who, the line. */
static void entry_prefix(const struct narrate_ctx *n, sim_time_t time, const char *who,
                         const char *line, char *buf, size_t size)
{
    int w = n->who_width > 8 ? n->who_width : 8;
    snprintf(buf, size, "%12.3f  %-*s %-10s ", (double)time / SIM_PS_PER_NS, w, who, line);
}

/* A thread's entry about line l at time: its line's name (line[128]), its
 * prefix (prefix[200]), and t emptied for its text. */
static void thread_entry(const struct narrate_ctx *n, sim_time_t time, int thread, uint64_t l,
                         char *line, char *prefix, struct text *t)
{
    char who[32];
    narrate_line_name(n, l, line, 128);
    snprintf(who, sizeof who, "thread %d", thread);
    entry_prefix(n, time, who, line, prefix, 200);
    t->n = 0;
    t->len = 0;
}

void narrate_step(struct narrate_ctx *n, const struct cc_step *st, FILE *f)
{
    static struct text t; /* large; one narration at a time */
    char line[128], who[32], prefix[200];
    narrate_line_name(n, st->line, line, sizeof line);
    narrate_who(n, st->node, st->home, who, sizeof who);
    entry_prefix(n, st->time, who, line, prefix, sizeof prefix);
    build(n, &t, st, line, true);
    if (!n->wide && total_len(&t, strlen(prefix), st->detailed) >= NARRATE_WIDTH)
        build(n, &t, st, line, false); /* no room for the gloss beside the event */
    lay_out(&t, prefix, n->wide, st->detailed, f);
}

/* What a reset did to the copies of caches other than the primer's:
 * dropped, kept or changed, one chunk each (past RESET_COPIES, a count of
 * the rest), and the home's LLC's. False if no other cache held the line. */
#define RESET_COPIES 32
static bool other_copies(const struct narrate_ctx *n, struct text *t, const struct narrate_reset *r)
{
    char node[32];
    int listed = 0, rest_dropped = 0, rest_kept = 0;
    for (int c = 0; c < n->cores; c++) {
        if (r->held[c] == 'I' || (r->prime && c == r->cache))
            continue;
        if (listed == RESET_COPIES) {
            rest_dropped += r->after[c] == 'I';
            rest_kept += r->after[c] != 'I';
            continue;
        }
        node_name(n, c, node, sizeof node);
        if (r->after[c] == 'I')
            chunk(t, "%s's copy (%c) dropped", node, r->held[c]);
        else if (r->after[c] == r->held[c])
            chunk(t, "%s's copy (%c) stays", node, r->held[c]);
        else
            chunk(t, "%s's copy %c -> %c", node, r->held[c], r->after[c]);
        listed++;
    }
    if (rest_dropped)
        chunk(t, "%d more %s' copies dropped", rest_dropped, cache_word(n, true));
    if (rest_kept)
        chunk(t, "%d more %s' copies kept or changed", rest_kept, cache_word(n, true));
    if (r->llc.held || r->llc.after) /* the home's inclusive LLC (mesif-llc) */
        chunk(t, !r->llc.after ? "the LLC's copy dropped"
                 : r->llc.held ? "the LLC's copy stays"
                               : "the LLC holds it too");
    if (r->llc.drop) {
        char dropped[128];
        narrate_line_name(n, r->llc.dropped, dropped, sizeof dropped);
        chunk(t, "its LLC's set was full: %s left it (home.llc_kb)%s", dropped,
              r->llc.dropped_dirty ? ", its written-back data put in memory" : "");
    }
    return listed > 0 || r->llc.held || r->llc.after || r->llc.drop;
}

static bool held_anywhere(const struct narrate_ctx *n, const struct narrate_reset *r)
{
    for (int c = 0; c < n->cores; c++)
        if (r->held[c] != 'I')
            return true;
    return r->llc.held;
}

/* A cache held the line modified (M, or MOESI's O, or GOLS's sharers of a
 * dirty line) before the reset: memory was stale. */
static bool held_dirty(const struct narrate_ctx *n, const struct narrate_reset *r)
{
    for (int c = 0; c < n->cores; c++)
        if (r->held[c] == 'M' || r->held[c] == 'O')
            return true;
    return r->gols_dirty;
}

/* Whether the reset put a modified copy's data into memory. Coherent: an
 * evict, a prime that is not a share (it evicts first) and a displacement
 * drop every copy. The SCC (tiles) keeps no copies coherent: a prime
 * touches its own core's copy alone and writes nothing back, a
 * displacement writes back the primer's copy if dirty, an evict every
 * dirty copy. */
static bool wrote_back(const struct narrate_ctx *n, const struct narrate_reset *r)
{
    if (n->tiles > 0 && r->displaced)
        return r->held[r->cache] == 'M';
    if (n->tiles > 0 && r->prime)
        return false;
    return held_dirty(n, r);
}

void narrate_reset(struct narrate_ctx *n, const struct narrate_reset *r, FILE *f)
{
    static struct text t;
    char line[128], prefix[200], node[32];
    thread_entry(n, r->time, r->thread, r->line, line, prefix, &t);
    char cost[128] = "a reset, at no cost";
    if (r->waited_ps) /* not at an iteration's opening: it waited for the line to be quiet */
        snprintf(cost, sizeof cost, "a reset, at no cost once the line was quiet%s: waited %.3f ns",
                 r->way_wait ? " and its cache had a way for it" : "",
                 (double)r->waited_ps / SIM_PS_PER_NS);
    node_name(n, r->cache, node, sizeof node);
    if (r->displaced) {
        char primed[128];
        narrate_line_name(n, r->primed, primed, sizeof primed);
        chunk(&t, "displaced (%s): the prime of %s takes its way of a full set in %s%s", cost,
              primed, node, n->shared_caches ? "" : "'s cache");
    } else if (r->prime)
        chunk(&t, "prime %c (%s)", r->prime, cost);
    else
        chunk(&t, "evict (%s)", cost);
    if (r->prime) {
        chunk(&t, "%s holds the line in %c", node, r->prime);
        if (wrote_back(n, r)) /* a prime that is not a share evicts first (as evict does) */
            chunk(&t, "the modified copy went back to memory first");
        else if (r->llc.dirty && !r->llc.after)
            chunk(&t, "the LLC's written-back copy went back to memory first");
        if (!other_copies(n, &t, r))
            chunk(&t, "no other copy");
    } else if (held_anywhere(n, r)) {
        /* a clean line's copies are only dropped: memory has it already */
        chunk(&t, wrote_back(n, r) ? "the modified line goes back to memory"
                  : r->llc.dirty   ? "the LLC's copy holds a write-back memory has not got: it "
                                     "goes back to memory, and the copies are dropped"
                  : r->displaced   ? "the copy was clean: nothing goes back"
                                   : "memory is up to date: the copies are dropped");
        other_copies(n, &t, r);
    } else /* nothing moved: not "goes back" */
        chunk(&t, "the line is in memory already: no cache held it");
    lay_out(&t, prefix, n->wide, false, f);
}

void narrate_prefetch_wait(struct narrate_ctx *n, const struct narrate_prefetch_wait *w, FILE *f)
{
    static struct text t;
    char line[128], prefix[200];
    thread_entry(n, w->time, w->thread, w->line, line, prefix, &t);
    const char *kind = w->write ? "to write" : "to read", *loop = w->addline ? "addline" : "copy";
    if (w->what == CORE_PF_STOPS)
        chunk(&t,
              "its %s loop stops at the prefetch instruction of %s (%s): core %d's %d "
              "prefetch slot%s %s %s (core.prefetch_%s_slots)",
              loop, line, kind, w->core, w->slots, w->slots == 1 ? "" : "s", kind,
              w->slots == 1 ? "is taken" : "are all taken", w->write ? "write" : "read");
    else if (w->what == CORE_PF_SLOT_FREE)
        chunk(&t, "a prefetch slot %s of core %d is free: its %s loop goes on (the prefetch of %s)",
              kind, w->core, loop, line);
    else
        chunk(&t,
              "%s is in core %d's cache or on its way there now: its prefetch needs no slot, "
              "and its %s loop goes on",
              line, w->core, loop);
    lay_out(&t, prefix, n->wide, false, f);
}

void narrate_iteration(sim_time_t time, int64_t label, enum narrate_sync kind, sim_time_t skew_ps,
                       FILE *f)
{
    char text[320], skew[96] = "";
    if (skew_ps)
        snprintf(skew, sizeof skew, " (each leaves after its start skew, 0 to %.3f ns)",
                 (double)skew_ps / SIM_PS_PER_NS);
    if (kind == NARRATE_SYNC_AGAIN)
        snprintf(text, sizeof text, "iteration %lld goes on: another sync releases the threads%s",
                 (long long)label, skew);
    else
        snprintf(text, sizeof text, "iteration %lld opens%s: the sync releases the threads%s",
                 (long long)label,
                 kind == NARRATE_SYNC_TOP ? " (a sync outside loops, labelled by its count)" : "",
                 skew);
    size_t col = (size_t)fprintf(f, "%12.3f  ", (double)time / SIM_PS_PER_NS);
    put_words(text, &col, col + 2, f);
    fputc('\n', f);
}

/* "    NAME           gloss", the gloss wrapped at spaces under
 * NARRATE_WIDTH, continued under its first word. */
static void legend_line(const char *name, const char *gloss, FILE *f)
{
    int indent = fprintf(f, "    %-14s ", name), col = indent;
    const char *g = gloss;
    while (*g) {
        size_t word = strcspn(g, " ");
        if (col > indent && col + (int)word + 1 >= NARRATE_WIDTH) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        }
        col += fprintf(f, "%s%.*s", col > indent ? " " : "", (int)word, g);
        g += word;
        g += strspn(g, " ");
    }
    fputc('\n', f);
}

void narrate_legend_print(const struct narrate_ctx *n, FILE *f)
{
    static const char *const kinds[] = {"cache state", "home state", "cache event", "home event",
                                        "message"};
    static const char *const titles[] = {"states of the caches", "states of the homes",
                                         "events at the caches", "events at the homes", "messages"};
    if (!n->legend.n)
        return;
    fprintf(f, "names used above%s:\n",
            n->tiles ? "" : " (`ccsim protocol NAME` has the tables)"); /* the SCC has none */
    for (size_t k = 0; k < SIM_COUNT_OF(kinds); k++) {
        bool any = false;
        for (int i = 0; i < n->legend.n; i++) {
            if (strcmp(n->legend.kind[i], kinds[k]) != 0)
                continue;
            if (!any)
                fprintf(f, "  %s:\n", titles[k]);
            any = true;
            legend_line(n->legend.name[i], n->legend.gloss[i], f);
        }
    }
}
