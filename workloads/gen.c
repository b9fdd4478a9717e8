/*
 * gen.c -- the generators' registry: the catalogue (every generator, its
 * summary, the section of seed 000 it comes from, its parameters), spec
 * parsing ("NAME[:k=v,...]"), thread placement on the machine (sockets),
 * and the public entry points wl_generate(), wl_gen_list() and
 * wl_gen_names. The generators themselves are in gen_basic.c, gen_tree.c,
 * gen_barrier.c, gen_bcast.c and gen_reduce.c; the emit helpers in
 * gen_emit.c.
 */
#include "gen_impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define LIST_COLS 79 /* `ccsim list generators` wraps its text here */

/* ---------------------------------------------------------------- parameter values */

/* An integer in lo..hi, the whole of v. */
static bool parse_long(const char *v, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (end == v || *end || errno || x < lo || x > hi)
        return false;
    *out = x;
    return true;
}

static bool p_lines(struct gen_args *a, const char *v)
{
    return parse_long(v, 1, GEN_MAX_LINES, &a->lines);
}

static bool p_same_diff(struct gen_args *a, const char *v)
{
    if (strcmp(v, "same") && strcmp(v, "diff"))
        return false;
    a->diff = !strcmp(v, "diff");
    return true;
}

static bool p_fanout(struct gen_args *a, const char *v)
{
    long x;
    if (!parse_long(v, 1, GEN_MAX_FANOUT, &x))
        return false;
    a->k = (int)x;
    return true;
}

static bool p_m(struct gen_args *a, const char *v)
{
    long x;
    if (!parse_long(v, 1, GEN_MAX_FANOUT, &x))
        return false;
    a->m = (int)x;
    return true;
}

/* Splits v at '/' into at most max integers in lo..hi. */
static int parse_slashes(const char *v, long lo, long hi, int *out, int max)
{
    char item[32];
    int cnt = 0;
    for (const char *p = v;; p++) {
        const char *e = strchr(p, '/');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        long x;
        if (cnt == max || len == 0 || len >= sizeof item)
            return -1;
        memcpy(item, p, len);
        item[len] = '\0';
        if (!parse_long(item, lo, hi, &x))
            return -1;
        out[cnt++] = (int)x;
        if (!e)
            return cnt;
        p = e;
    }
}

static bool p_mlist(struct gen_args *a, const char *v)
{
    if (!strcmp(v, "auto")) {
        a->nm = 0;
        return true;
    }
    int cnt = parse_slashes(v, 1, GEN_MAX_FANOUT, a->mlist, GEN_MAX_ROUNDS);
    a->nm = cnt;
    return cnt > 0;
}

static bool p_shape_parents(struct gen_shape *s, const char *v)
{
    int *par = sim_xmalloc(WL_MAX_THREADS * sizeof *par);
    int cnt = parse_slashes(v, -1, WL_MAX_THREADS - 1, par, WL_MAX_THREADS);
    if (cnt <= 0) {
        free(par);
        return false;
    }
    s->kind = GEN_SHAPE_PARENTS;
    s->parents = par;
    s->nparents = cnt;
    return true;
}

static bool p_shape(struct gen_args *a, const char *v)
{
    struct gen_shape *s = &a->shape;
    static const char *const fixed[] = {"flat", "binary", "binomial"};
    static const enum gen_shape_kind kinds[] = {GEN_SHAPE_FLAT, GEN_SHAPE_BINARY,
                                                GEN_SHAPE_BINOMIAL};
    for (size_t i = 0; i < SIM_COUNT_OF(fixed); i++)
        if (!strcmp(v, fixed[i])) {
            s->kind = kinds[i];
            return true;
        }
    long k;
    if (!strncmp(v, "kary:", 5) && parse_long(v + 5, 1, GEN_MAX_FANOUT, &k)) {
        s->kind = GEN_SHAPE_KARY;
        s->k = (int)k;
        return true;
    }
    if (!strncmp(v, "parents:", 8))
        return p_shape_parents(s, v + 8);
    return false;
}

/* ---------------------------------------------------------------- the catalogue */

struct gen_param {
    const char *name, *def, *help;
    const char *expect; /* the accepted values, for messages */
    bool (*parse)(struct gen_args *a, const char *v);
};

#define LINES_EXPECT  "an integer 1..65536"
#define FANOUT_EXPECT "an integer 1..4095"
#define SHAPE_EXPECT                                                                               \
    "flat, binary, binomial, kary:K with K in 1..4095, or parents:P0/P1/... with one parent "      \
    "per thread"
#define SHAPE_HELP                                                                                 \
    "the tree: flat, binary, binomial (rooted at thread 0), kary:K, or parents:P0/P1/... (the "    \
    "parent of every thread, -1 or itself for the root)"

static const struct gen_param par_pingpong[] = {
    {"lines", "1", "lines per message; the receiver polls the last word of the last line",
     LINES_EXPECT, p_lines},
};
static const struct gen_param par_m2o[] = {
    {"lines", "same",
     "same: every notifier adds 1 to one line (Fig 4a); diff: each writes its own line and "
     "thread 0 waits for them in turn (Fig 4b)",
     "same or diff", p_same_diff},
};
static const struct gen_param par_o2m[] = {
    {"lines", "same",
     "same: the readers poll the one line thread 0 writes (Fig 8a); diff: thread 0 writes one "
     "line per reader (Fig 8b)",
     "same or diff", p_same_diff},
};
static const struct gen_param par_tree[] = {
    {"k", "4",
     "threads that share one flag (the paper's k, Eq 26); the rest are split evenly among the "
     "parents, recursively",
     FANOUT_EXPECT, p_fanout},
};
static const struct gen_param par_diss[] = {
    {"m", "1", "peers per round (1: the classic dissemination barrier)", FANOUT_EXPECT, p_m},
};
static const struct gen_param par_multim[] = {
    {"m", "auto",
     "K1/K2/...: the m of each round, the (m_i+1) multiplying to at least the thread count; "
     "auto: m=2 in every round but the last, whose m is the least that reaches the thread count",
     "auto or K1/K2/... with every K in 1..4095, at most 32 rounds", p_mlist},
};
static const struct gen_param par_socket[] = {
    {"m", "1", "m of the dissemination barrier inside each socket", FANOUT_EXPECT, p_m},
};
static const struct gen_param par_bcast[] = {
    {"shape", "flat", SHAPE_HELP, SHAPE_EXPECT, p_shape},
};
static const struct gen_param par_bcast_ml[] = {
    {"lines", "128", "lines of the message (128: the 8 KB of Fig 14b)", LINES_EXPECT, p_lines},
    {"shape", "flat", SHAPE_HELP, SHAPE_EXPECT, p_shape},
};
static const struct gen_param par_reduce[] = {
    {"shape", "binary", SHAPE_HELP " (binary: the tree of Fig 17)", SHAPE_EXPECT, p_shape},
};
static const struct gen_param par_reduce_bin[] = {
    {"lines", "64", "lines each thread contributes (64: the 4 KB of Fig 14d)", LINES_EXPECT,
     p_lines},
};

#define SOCKET_NOTE                                                                                \
    "; threads fill one socket first (-c CONFIG gives the sockets); on one socket it is "          \
    "barrier-dissemination"

/* X(name, emitter, parameters, fewest threads, most threads (0: no limit), source, summary) */
#define GEN_CATALOGUE(X)                                                                           \
    X("pingpong", pingpong, par_pingpong, 2, 2, "Sec 2.2.1, 2.2.3, Eq 1",                          \
      "ping-pong: thread 0 copies its send buffer into thread 1's receive buffer, 1 polls the "    \
      "last word and copies back")                                                                 \
    X("m2o", m2o, par_m2o, 2, 0, "Sec 3.1, Fig 4, Table 5",                                        \
      "many-to-one: threads 1..n-1 notify thread 0")                                               \
    X("o2m", o2m, par_o2m, 2, 0, "Sec 3.2, Fig 8, Table 6",                                        \
      "one-to-many: thread 0 notifies threads 1..n-1")                                             \
    X("m2o-tree", m2o_tree, par_tree, 2, 0, "Sec 3.1 (Fig 7b), tree of Sec 3.2",                   \
      "many-to-one notification tree: each group of k children adds to one line of its parent "    \
      "(single-line m2o), a new line per group")                                                   \
    X("o2m-tree", o2m_tree, par_tree, 2, 0, "Sec 3.2 (Fig 7d, Eq 26)",                             \
      "one-to-many notification tree: a parent writes one line per group of k children, who "      \
      "then notify their own subtrees")                                                            \
    X("barrier-dissemination", barrier_diss, par_diss, 2, 0, "Sec 3.3.1, Fig 10a, Eq 27",          \
      "m-way dissemination barrier, a single-use line per thread and round (flag[n][r])")          \
    X("barrier-multim", barrier_multim, par_multim, 2, 0, "Sec 3.3.1 (Fig 11d)",                   \
      "multi-m dissemination barrier: round i notifies m_i peers")                                 \
    X("barrier-pairwise", barrier_pairwise, par_socket, 2, 0, "Sec 3.3.2, Eq 30",                  \
      "dissemination barrier per socket, then every thread exchanges a final flag with a peer "    \
      "in each other socket" SOCKET_NOTE)                                                          \
    X("barrier-socketroot", barrier_socketroot, par_socket, 2, 0, "Sec 3.3.2, Eq 31",              \
      "dissemination barrier per socket, then each socket's first thread writes a flag every "     \
      "thread of the other sockets reads" SOCKET_NOTE)                                             \
    X("bcast-tree", bcast_tree, par_bcast, 2, 0, "Sec 4.1, Alg. 6 (Fig 12)",                       \
      "one-line broadcast: a child waits for its parent's flag and copies its line; a parent "     \
      "publishes its line, raises its flag and waits for its children")                            \
    X("bcast-multiline", bcast_multiline, par_bcast_ml, 2, 0, "Sec 4.2",                           \
      "multi-line broadcast: children copy N lines straight from their parent's buffer")           \
    X("reduce-tree", reduce_tree, par_reduce, 2, 0, "Sec 5.1, Alg. 7 (Fig 16)",                    \
      "one-line reduction with line privatisation: children copy their line into private "         \
      "buffers of the parent, who adds them")                                                      \
    X("reduce-binomial", reduce_binomial, par_reduce_bin, 2, 0, "Sec 5.2, Eq 35",                  \
      "multi-line binomial reduction: in stage s thread t adds the N lines of thread t+2^s; "      \
      "one tree per socket, then one between the sockets")

struct gen_def {
    const char *name, *source, *summary;
    const struct gen_param *params;
    int nparams;
    int min_threads, max_threads;
    bool (*emit)(struct gen *g);
};

#define GEN_X_DEF(nm, id, par, lo, hi, src, sum)                                                   \
    {nm, src, sum, par, (int)SIM_COUNT_OF(par), lo, hi, gen_emit_##id},
static const struct gen_def catalogue[] = {GEN_CATALOGUE(GEN_X_DEF)};
#undef GEN_X_DEF

#define GEN_X_NAME(nm, ...) nm,
const char *const wl_gen_names[] = {GEN_CATALOGUE(GEN_X_NAME) NULL};
#undef GEN_X_NAME

/* ---------------------------------------------------------------- spec parsing */

/* Appends " (did you mean 'x'?)" or " (LEAD a, b, c)". */
static void suggest(char *buf, size_t size, const char *name, size_t len, const char *const *names,
                    size_t n, const char *lead)
{
    const char *best = NULL;
    size_t best_d = 3;
    for (size_t i = 0; i < n; i++) {
        size_t dist = sim_edit_distance(name, len, names[i]);
        if (dist < best_d) {
            best_d = dist;
            best = names[i];
        }
    }
    if (best) {
        snprintf(buf, size, " (did you mean '%s'?)", best);
        return;
    }
    size_t at = (size_t)snprintf(buf, size, " (%s", lead);
    for (size_t i = 0; i < n && at < size; i++)
        at += (size_t)snprintf(buf + at, size - at, " %s%s", names[i], i + 1 < n ? "," : ")");
}

static const struct gen_def *find_gen(struct gen *g, const char *name, size_t len)
{
    for (size_t i = 0; i < SIM_COUNT_OF(catalogue); i++)
        if (strlen(catalogue[i].name) == len && !strncmp(catalogue[i].name, name, len))
            return &catalogue[i];
    char hint[1024];
    suggest(hint, sizeof hint, name, len, wl_gen_names, SIM_COUNT_OF(catalogue),
            "known generators:");
    gen_fail(g, "unknown generator '%.*s'%s", (int)len, name, hint);
    return NULL;
}

static int find_param(struct gen *g, const struct gen_def *def, const char *key)
{
    const char *names[8];
    for (int i = 0; i < def->nparams; i++) {
        names[i] = def->params[i].name;
        if (!strcmp(key, names[i]))
            return i;
    }
    char hint[512];
    if (def->nparams == 0)
        snprintf(hint, sizeof hint, " (it takes none)");
    else
        suggest(hint, sizeof hint, key, strlen(key), names, (size_t)def->nparams,
                "its parameters:");
    gen_fail(g, "%s has no parameter '%s'%s", def->name, key, hint);
    return -1;
}

/* One `k=v` item; val[] holds the values given so far. */
static bool parse_item(struct gen *g, const struct gen_def *def, char *item, const char **val,
                       struct gen_args *a)
{
    char *eq = strchr(item, '=');
    if (!eq || eq == item)
        return gen_fail(g, "'%s' is not k=v (expected NAME:k=v,...)", item);
    *eq = '\0';
    int i = find_param(g, def, item);
    if (i < 0)
        return false;
    if (val[i])
        return gen_fail(g, "parameter '%s' is given twice", item);
    val[i] = eq + 1;
    const struct gen_param *p = &def->params[i];
    if (!p->parse(a, eq + 1))
        return gen_fail(g, "bad value for %s: '%s' (expected %s)", p->name, eq + 1, p->expect);
    return true;
}

/* Parses the parameters after "NAME:" (NULL: none given) over the defaults;
 * writes the full spec, every parameter with its value, into full. */
static bool parse_params(struct gen *g, const struct gen_def *def, const char *params,
                         struct gen_args *a, struct gen_buf *full)
{
    const char *val[8] = {NULL};
    SIM_ASSERT(def->nparams <= (int)SIM_COUNT_OF(val));
    for (int i = 0; i < def->nparams; i++)
        SIM_ASSERT(def->params[i].parse(a, def->params[i].def));
    char *copy = sim_xstrdup(params ? params : "");
    bool ok = true;
    size_t len = strlen(copy);
    if (params && (len == 0 || copy[len - 1] == ',' || copy[0] == ',' || strstr(copy, ",,")))
        ok = gen_fail(g, "an empty parameter (expected NAME:k=v,...)");
    char *save = NULL;
    for (char *it = strtok_r(copy, ",", &save); ok && it; it = strtok_r(NULL, ",", &save))
        ok = parse_item(g, def, it, val, a);
    gb_printf(full, "%s", def->name);
    for (int i = 0; ok && i < def->nparams; i++)
        gb_printf(full, "%s%s=%s", i ? "," : ":", def->params[i].name,
                  val[i] ? val[i] : def->params[i].def);
    free(copy);
    return ok;
}

/* ---------------------------------------------------------------- threads and machine */

static bool check_counts(struct gen *g, const struct gen_def *def, const struct wl_gen_machine *m)
{
    if (def->max_threads && def->min_threads == def->max_threads && g->n != def->min_threads)
        return gen_fail(g, "%s needs exactly %d threads, not %d (-t %d)", def->name,
                        def->min_threads, g->n, def->min_threads);
    if (g->n < def->min_threads)
        return gen_fail(g, "%d thread%s too few (%s needs at least %d)", g->n,
                        g->n == 1 ? " is" : "s are", def->name, def->min_threads);
    if (g->n > WL_MAX_THREADS)
        return gen_fail(g, "%d threads are too many (at most %d)", g->n, WL_MAX_THREADS);
    if (g->iters < 1 || g->iters > GEN_MAX_ITERS)
        return gen_fail(g, "%ld iterations are out of range (expected 1..%ld)", g->iters,
                        GEN_MAX_ITERS);
    if (!m)
        return true;
    if (m->line_bytes && (m->line_bytes % 8 || m->line_bytes < 16 || m->line_bytes > 4096))
        return gen_fail(g,
                        "line_bytes %d is not a multiple of 8 in 16..4096 (a generated line "
                        "has data and a flag word)",
                        m->line_bytes);
    if (m->cores < 0 || m->sockets < 1 || m->threads_per_core < 1)
        return gen_fail(g, "the machine description is invalid (cores >= 0, sockets >= 1, "
                           "threads_per_core >= 1)");
    if (m->cores > 0 && (long)g->n > (long)m->cores * m->threads_per_core)
        return gen_fail(g, "%d threads do not fit the machine (%d cores of %d hardware thread%s)",
                        g->n, m->cores, m->threads_per_core, m->threads_per_core == 1 ? "" : "s");
    return true;
}

static void add_member(struct gen *g, int s, int t, int *group_of_socket)
{
    if (group_of_socket[s] < 0) {
        group_of_socket[s] = g->ngroups;
        g->groups[g->ngroups++] = (struct gen_group){.socket = s, .first = t};
        g->groups[g->ngroups - 1].members = sim_xmalloc((size_t)g->n * sizeof(int));
    }
    struct gen_group *gr = &g->groups[group_of_socket[s]];
    gr->members[gr->size++] = t;
    g->group_of[t] = group_of_socket[s];
}

/* Thread t on core t % cores, hardware thread t / cores; core c in socket
 * c / (cores / sockets): the first threads fill socket 0 (seed 000 Sec 2.5). */
static void layout(struct gen *g, const struct wl_gen_machine *m)
{
    g->pinned = m && m->cores > 0;
    g->cores = g->pinned ? m->cores : g->n;
    g->sockets = g->pinned ? m->sockets : 1;
    g->tpc = m ? m->threads_per_core : 1;
    g->per_socket = g->cores / g->sockets > 0 ? g->cores / g->sockets : g->cores;
    g->group_of = sim_xmalloc((size_t)g->n * sizeof *g->group_of);
    g->groups = sim_xcalloc((size_t)g->sockets, sizeof *g->groups);
    int *group_of_socket = sim_xmalloc((size_t)g->sockets * sizeof *group_of_socket);
    for (int s = 0; s < g->sockets; s++)
        group_of_socket[s] = -1;
    for (int t = 0; t < g->n; t++) {
        int s = (t % g->cores) / g->per_socket;
        add_member(g, s < g->sockets ? s : g->sockets - 1, t, group_of_socket);
    }
    for (int i = 0; i < g->ngroups; i++) {
        struct gen_group *gr = &g->groups[i];
        gr->contiguous = gr->members[gr->size - 1] - gr->first == gr->size - 1;
    }
    free(group_of_socket);
}

static void free_gen(struct gen *g, struct gen_args *a)
{
    for (int i = 0; i < g->ngroups; i++)
        free(g->groups[i].members);
    free(g->groups);
    free(g->group_of);
    free(a->shape.parents);
}

/* ---------------------------------------------------------------- entry points */

static bool generate(struct gen *g, const char *spec, const struct wl_gen_machine *m,
                     struct gen_args *a)
{
    size_t nlen = strcspn(spec, ":");
    const struct gen_def *def = find_gen(g, spec, nlen);
    struct gen_buf full = {0};
    bool ok = def && parse_params(g, def, spec[nlen] ? spec + nlen + 1 : NULL, a, &full) &&
              check_counts(g, def, m);
    if (ok) {
        layout(g, m);
        g->words = (m && m->line_bytes ? m->line_bytes : 64) / WL_WORD_BYTES;
        char what[1024];
        snprintf(what, sizeof what, "%s (seed 000, Ramos & Hoefler, %s)", def->summary,
                 def->source);
        gen_head(g, full.s, what);
        ok = def->emit(g);
    }
    free(full.s);
    return ok;
}

char *wl_generate(const char *spec, int threads, long iterations, const struct wl_gen_machine *m,
                  struct sim_diag *d)
{
    char where[WL_MAX_LINE_CHARS + 8];
    snprintf(where, sizeof where, "-w %s", spec);
    struct gen_args a = {0};
    struct gen g = {.where = where, .d = d, .a = &a, .n = threads, .iters = iterations};
    bool ok = generate(&g, spec, m, &a);
    free_gen(&g, &a);
    if (!ok) {
        free(g.out.s);
        return NULL;
    }
    return g.out.s;
}

/* text at the given indentation, wrapped at LIST_COLS columns. */
static void list_wrapped(FILE *f, int indent, const char *text)
{
    const int width = LIST_COLS - indent;
    while (*text) {
        int len = (int)strlen(text);
        if (len > width) {
            len = width;
            while (len > 0 && text[len] != ' ')
                len--;
            if (len == 0)
                len = (int)strcspn(text, " ");
        }
        fprintf(f, "%*s%.*s\n", indent, "", len, text);
        text += len;
        while (*text == ' ')
            text++;
    }
}

void wl_gen_list(FILE *f)
{
    fprintf(f, "Generators: the algorithms of seed 000 (Ramos & Hoefler, \"Cache Line Aware\n"
               "Algorithm Design for Cache-Coherent Architectures\"). Use NAME[:k=v,...] with\n"
               "`ccsim gen` and `ccsim run -w`.\n");
    for (size_t i = 0; i < SIM_COUNT_OF(catalogue); i++) {
        const struct gen_def *def = &catalogue[i];
        fprintf(f, "\n%s  [seed 000 %s]\n", def->name, def->source);
        list_wrapped(f, 4, def->summary);
        if (def->max_threads)
            fprintf(f, "    threads: exactly %d\n", def->max_threads);
        for (int j = 0; j < def->nparams; j++) {
            const struct gen_param *p = &def->params[j];
            fprintf(f, "    %s=%s\n", p->name, p->def);
            list_wrapped(f, 8, p->help);
        }
    }
}
