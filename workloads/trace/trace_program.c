/*
 * trace_program.c -- the parsed program as a whole: the catalogues (names of
 * operations, comparisons, states), storage (growth, name tables, freeing),
 * the read accessors of trace.h, and structural equality.
 */
#include "trace_impl.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- catalogues */

static const struct {
    const char *name, *args;
} ops[] = {
#define WL_X_ROW(e, name, args, reg, since, usage) {name, args},
    WL_OPS(WL_X_ROW)
#undef WL_X_ROW
};

static const char *const cmps[] = {
#define WL_X_ROW(e, text) text,
    WL_CMPS(WL_X_ROW)
#undef WL_X_ROW
};

static const char *const states[] = {
#define WL_X_ROW(e, text) text,
    WL_STATES(WL_X_ROW)
#undef WL_X_ROW
};

const char *wl_op_name(enum wl_opcode op)
{
    return (unsigned)op < WL_OP_COUNT ? ops[op].name : "?";
}

const char *wl_op_args(enum wl_opcode op)
{
    return (unsigned)op < WL_OP_COUNT ? ops[op].args : "";
}

const char *wl_cmp_text(enum wl_cmp c)
{
    return (unsigned)c < WL_CMP_COUNT ? cmps[c] : "?";
}

const char *wl_state_text(enum wl_state s)
{
    return (unsigned)s < WL_STATE_COUNT ? states[s] : "?";
}

/* ------------------------------------------------------------- messages */

void wl_diag_at(struct sim_diag *d, const char *file, int line, int col, const char *msg)
{
    char where[1024];
    snprintf(where, sizeof where, "%s:%d:%d", file, line, col);
    sim_diag_add(d, where, 0, "%s", msg);
}

/* ------------------------------------------------------------- storage */

void *wl_grow(void *v, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return v;
    int n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    *cap = n;
    return sim_xrealloc(v, (size_t)n * elem);
}

int wl_names_find(const struct wl_names *t, const char *name, size_t len)
{
    for (int i = 0; i < t->n; i++)
        if (strlen(t->v[i]) == len && memcmp(t->v[i], name, len) == 0)
            return i;
    return -1;
}

int wl_names_add(struct wl_names *t, const char *name, size_t len)
{
    t->v = wl_grow(t->v, &t->cap, t->n + 1, sizeof *t->v);
    char *s = sim_xmalloc(len + 1);
    memcpy(s, name, len);
    s[len] = '\0';
    t->v[t->n] = s;
    return t->n++;
}

void wl_names_free(struct wl_names *t)
{
    for (int i = 0; i < t->n; i++)
        free(t->v[i]);
    free(t->v);
}

struct wl_program *wl_program_new(const char *file, int words)
{
    struct wl_program *p = sim_xcalloc(1, sizeof *p);
    p->file = sim_xstrdup(file);
    p->version = 1;
    p->words = words;
    return p;
}

void wl_program_free(struct wl_program *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->ndecls; i++)
        free((char *)p->decls[i].pub.name);
    free(p->decls);
    free(p->stmts);
    free(p->exprs);
    free(p->items);
    free(p->sel_bits);
    free(p->code);
    free(p->code_at);
    free(p->pin);
    wl_names_free(&p->regs);
    wl_names_free(&p->labels);
    wl_names_free(&p->vars);
    free(p->file);
    free(p);
}

/* ------------------------------------------------------------- accessors */

const char *wl_program_file(const struct wl_program *p)
{
    return p->file;
}

int wl_program_threads(const struct wl_program *p)
{
    return p->threads;
}

int wl_program_threads_line(const struct wl_program *p)
{
    return p->threads_line;
}

bool wl_program_pinned(const struct wl_program *p)
{
    return p->pinned;
}

struct wl_pin wl_program_pin(const struct wl_program *p, int thread)
{
    SIM_ASSERT(thread >= 0 && thread < p->threads);
    if (p->pinned)
        return p->pin[thread];
    return (struct wl_pin){thread, 0};
}

int wl_program_words(const struct wl_program *p)
{
    return p->words;
}

int64_t wl_program_line_count(const struct wl_program *p)
{
    return p->total_lines;
}

int wl_program_decl_count(const struct wl_program *p)
{
    return p->ndecls;
}

const struct wl_line *wl_program_decl(const struct wl_program *p, int i)
{
    SIM_ASSERT(i >= 0 && i < p->ndecls);
    return &p->decls[i].pub;
}

int wl_program_decl_find(const struct wl_program *p, const char *name)
{
    for (int i = 0; i < p->ndecls; i++)
        if (strcmp(p->decls[i].pub.name, name) == 0)
            return i;
    return -1;
}

int wl_program_decl_of(const struct wl_program *p, int64_t line)
{
    int lo = 0, hi = p->ndecls - 1;
    if (line < 0 || line >= p->total_lines)
        return -1;
    while (lo < hi) { /* the last declaration whose first <= line */
        int mid = lo + (hi - lo + 1) / 2;
        if (p->decls[mid].pub.first <= line)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

void wl_line_name(const struct wl_program *p, int64_t line, char *buf, size_t size)
{
    int i = wl_program_decl_of(p, line);
    if (i < 0)
        snprintf(buf, size, "#%lld", (long long)line);
    else if (!p->decls[i].pub.is_array)
        snprintf(buf, size, "%s", p->decls[i].pub.name);
    else
        snprintf(buf, size, "%s[%lld]", p->decls[i].pub.name,
                 (long long)(line - p->decls[i].pub.first));
}

int wl_program_label_count(const struct wl_program *p)
{
    return p->labels.n;
}

const char *wl_program_label(const struct wl_program *p, int i)
{
    SIM_ASSERT(i >= 0 && i < p->labels.n);
    return p->labels.v[i];
}

int wl_program_reg_count(const struct wl_program *p)
{
    return p->regs.n;
}

const char *wl_program_reg(const struct wl_program *p, int i)
{
    SIM_ASSERT(i >= 0 && i < p->regs.n);
    return p->regs.v[i];
}

int wl_program_stmt_count(const struct wl_program *p)
{
    return p->nstmts;
}

void wl_program_where(const struct wl_program *p, int stmt, int *line, int *col)
{
    SIM_ASSERT(stmt >= 0 && stmt < p->nstmts);
    *line = p->stmts[stmt].line;
    *col = p->stmts[stmt].col;
}

/* ------------------------------------------------------------- equality */

static bool names_equal(const struct wl_names *a, const struct wl_names *b)
{
    if (a->n != b->n)
        return false;
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->v[i], b->v[i]) != 0)
            return false;
    return true;
}

static bool decl_equal(const struct wl_program *pa, const struct wl_decl *a,
                       const struct wl_program *pb, const struct wl_decl *b)
{
    return strcmp(a->pub.name, b->pub.name) == 0 && a->pub.first == b->pub.first &&
           a->pub.count == b->pub.count && a->pub.home == b->pub.home &&
           a->pub.is_array == b->pub.is_array &&
           wl_expr_equal(pa, a->count_expr, pb, b->count_expr) &&
           wl_expr_equal(pa, a->home_expr, pb, b->home_expr) && a->pub.place == b->pub.place &&
           a->pub.place_thread == b->pub.place_thread &&
           wl_expr_equal(pa, a->place_expr, pb, b->place_expr);
}

static bool header_equal(const struct wl_program *a, const struct wl_program *b)
{
    if (a->version != b->version || a->threads != b->threads || a->words != b->words ||
        a->pinned != b->pinned || a->ndecls != b->ndecls || a->nstmts != b->nstmts ||
        a->total_lines != b->total_lines)
        return false;
    for (int i = 0; a->pinned && i < a->threads; i++)
        if (a->pin[i].core != b->pin[i].core || a->pin[i].hw != b->pin[i].hw)
            return false;
    for (int i = 0; i < a->ndecls; i++)
        if (!decl_equal(a, &a->decls[i], b, &b->decls[i]))
            return false;
    return names_equal(&a->regs, &b->regs) && names_equal(&a->labels, &b->labels);
}

static bool sel_equal(const struct wl_program *pa, const struct wl_sel *a,
                      const struct wl_program *pb, const struct wl_sel *b)
{
    if (a->kind != b->kind || a->count != b->count)
        return false;
    for (int i = 0; a->kind == WL_SEL_LIST && i < a->count; i++) {
        const struct wl_sel_item *x = &pa->items[a->first + i], *y = &pb->items[b->first + i];
        if (!wl_expr_equal(pa, x->lo, pb, y->lo) || !wl_expr_equal(pa, x->hi, pb, y->hi))
            return false;
    }
    return true;
}

static bool arg_equal(const struct wl_program *pa, const struct wl_arg *a,
                      const struct wl_program *pb, const struct wl_arg *b)
{
    return a->kind == b->kind && a->small == b->small && a->addr.decl == b->addr.decl &&
           wl_expr_equal(pa, a->addr.index, pb, b->addr.index) &&
           wl_expr_equal(pa, a->addr.index_hi, pb, b->addr.index_hi) &&
           wl_expr_equal(pa, a->addr.word, pb, b->addr.word) &&
           wl_expr_equal(pa, a->expr, pb, b->expr);
}

static bool op_equal(const struct wl_program *pa, const struct wl_stmt *a,
                     const struct wl_program *pb, const struct wl_stmt *b)
{
    if (a->op != b->op || a->nargs != b->nargs || a->reg != b->reg ||
        !sel_equal(pa, &a->sel, pb, &b->sel))
        return false;
    for (int i = 0; i < a->nargs; i++)
        if (!arg_equal(pa, &a->arg[i], pb, &b->arg[i]))
            return false;
    return true;
}

static bool stmt_equal(const struct wl_program *pa, const struct wl_stmt *a,
                       const struct wl_program *pb, const struct wl_stmt *b)
{
    if (a->kind != b->kind || a->match != b->match)
        return false;
    switch (a->kind) {
    case WL_S_OP:
        return op_equal(pa, a, pb, b);
    case WL_S_FOR:
        return a->depth == b->depth && strcmp(pa->vars.v[a->var], pb->vars.v[b->var]) == 0 &&
               wl_expr_equal(pa, a->from, pb, b->from) && wl_expr_equal(pa, a->to, pb, b->to);
    case WL_S_IF:
    case WL_S_ELIF:
    case WL_S_WHILE:
        return wl_expr_equal(pa, a->cond, pb, b->cond);
    default: /* END, ELSE */
        return true;
    }
}

bool wl_program_equal(const struct wl_program *a, const struct wl_program *b)
{
    if (!header_equal(a, b))
        return false;
    for (int i = 0; i < a->nstmts; i++)
        if (!stmt_equal(a, &a->stmts[i], b, &b->stmts[i]))
            return false;
    return true;
}
