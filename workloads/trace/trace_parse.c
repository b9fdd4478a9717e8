/*
 * trace_parse.c -- the trace parser's top level: reading the text line by
 * line, the header, `threads`, `pin`, line declarations, the blocks (`for`,
 * and in version 2 `if`, `} else {`, `} else if`, `while`) and `}`, and the
 * checks at the end of the file. Operation statements are in
 * trace_parse_op.c, expressions in trace_parse_expr.c.
 *
 * Recovery: an error ends its source line; the next line is parsed afresh. A
 * block's line with an error that ends in `{` still opens a (dummy) block so
 * its `}` matches; so does a version-2 block in a version-1 file, after the
 * error that says it needs ccsim-trace 2. A missing or wrong header, a limit
 * that cannot be passed (statements, expression nodes, block depth) or
 * WL_MAX_ERRORS errors stop the parse.
 */
#include "trace_impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------- helpers */

static uint32_t hash_name(const char *s, size_t len)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

int wl_decl_lookup(const struct wl_parser *ps, const char *name, size_t len)
{
    uint32_t mask = (uint32_t)ps->hash_cap - 1;
    for (uint32_t h = hash_name(name, len) & mask;; h = (h + 1) & mask) {
        int i = ps->decl_hash[h] - 1;
        if (i < 0)
            return -1;
        const char *s = ps->p->decls[i].pub.name;
        if (strlen(s) == len && memcmp(s, name, len) == 0)
            return i;
    }
}

static void decl_insert(struct wl_parser *ps, int i)
{
    const char *s = ps->p->decls[i].pub.name;
    uint32_t mask = (uint32_t)ps->hash_cap - 1;
    uint32_t h = hash_name(s, strlen(s)) & mask;
    while (ps->decl_hash[h])
        h = (h + 1) & mask;
    ps->decl_hash[h] = i + 1;
}

int wl_add_stmt(struct wl_parser *ps, enum wl_stmt_kind kind, int col)
{
    struct wl_program *p = ps->p;
    if (p->nstmts >= WL_MAX_STMTS) {
        wl_perr(ps, col, "program too large: more than %d statements (WL_MAX_STMTS)", WL_MAX_STMTS);
        ps->stop = true;
        return -1;
    }
    p->stmts = wl_grow(p->stmts, &p->cap_stmts, p->nstmts + 1, sizeof *p->stmts);
    bool in_while = false;
    int loop = -1; /* (-1 too after an error in the while's header) */
    for (int i = ps->depth - 1; i >= 0; i--)
        if (ps->scope[i].kind == WL_S_WHILE) {
            in_while = true;
            loop = ps->scope[i].stmt;
        }
    p->stmts[p->nstmts] = (struct wl_stmt){.kind = kind,
                                           .line = ps->line,
                                           .col = col,
                                           .in_while = in_while,
                                           .loop = loop,
                                           .reg = -1,
                                           .match = -1,
                                           .cond = -1};
    return p->nstmts++;
}

static bool at_top_level(struct wl_parser *ps, const struct wl_tok *t)
{
    if (ps->depth == 0)
        return true;
    wl_perr(ps, t->col, "'%.*s' must be at top level, outside loops%s", t->len, t->text,
            ps->version >= 2 ? " and ifs" : "");
    return false;
}

/* ------------------------------------------------------------- header */

static bool is_header(const struct wl_parser *ps)
{
    const struct wl_tok *t = ps->toks;
    return ps->ntoks >= 4 && wl_tok_is(&t[0], "ccsim") && t[1].kind == WL_TK_MINUS &&
           wl_tok_is(&t[2], "trace") && t[1].col == t[0].col + 5 && t[2].col == t[1].col + 1 &&
           t[3].kind == WL_TK_INT;
}

static bool parse_header(struct wl_parser *ps)
{
    ps->stop = true; /* not a trace, or a version we cannot read */
    if (!is_header(ps)) {
        wl_perr(ps, ps->toks[0].col, "expected the header 'ccsim-trace %d' as the first line",
                WL_VERSION);
        return false;
    }
    if (ps->toks[3].value < 1 || ps->toks[3].value > WL_VERSION_MAX) {
        wl_perr(ps, ps->toks[3].col,
                "unsupported trace version %lld (this ccsim reads versions 1..%d)",
                (long long)ps->toks[3].value, WL_VERSION_MAX);
        return false;
    }
    ps->version = ps->p->version = (int)ps->toks[3].value;
    ps->stop = false;
    ps->header_seen = true;
    ps->header_line = ps->line;
    ps->pos = 4;
    return true;
}

/* ------------------------------------------------------------- threads, pin */

static bool parse_threads(struct wl_parser *ps)
{
    const struct wl_tok *kw = wl_take(ps);
    if (ps->threads_seen || ps->missing_threads) {
        wl_perr(ps, kw->col, "'threads' must come once, right after the header");
        return false;
    }
    ps->threads_seen = true;
    ps->p->threads = WL_MAX_THREADS; /* if the number is wrong: no cascade of range errors */
    const struct wl_tok *t = wl_peek(ps);
    if (t->kind != WL_TK_INT || t->value < 1 || t->value > WL_MAX_THREADS) {
        char buf[64];
        bool negative = t->kind == WL_TK_MINUS && t[1].kind == WL_TK_INT && !t[1].space_before;
        if (negative)
            snprintf(buf, sizeof buf, "-%lld", (long long)t[1].value);
        wl_perr(ps, t->col, "threads takes an integer from 1 to %d (WL_MAX_THREADS), found %s",
                WL_MAX_THREADS, negative ? buf : wl_tok_describe(t, buf, sizeof buf));
        return false;
    }
    wl_take(ps);
    ps->p->threads = (int)t->value;
    ps->p->threads_line = ps->line;
    return true;
}

static void missing_threads(struct wl_parser *ps, int line)
{
    int here = ps->line;
    ps->line = line;
    wl_perr(ps, 1, "missing 'threads N' (required, right after the header)");
    ps->line = here;
    ps->missing_threads = true;
    ps->p->threads = WL_MAX_THREADS;
}

/* One pin entry, `c` or `c.h`; bounds from the options, else the limits. */
static bool parse_pin_entry(struct wl_parser *ps, struct wl_pin *pin)
{
    int cores = ps->opts->cores > 0 ? ps->opts->cores : WL_MAX_CORE + 1;
    int hws = ps->opts->threads_per_core > 0 ? ps->opts->threads_per_core : WL_MAX_HW + 1;
    const struct wl_tok *c = wl_peek(ps);
    if (!wl_expect(ps, WL_TK_INT, "a core number (c or c.h)"))
        return false;
    int64_t hw = 0;
    const struct wl_tok *h = wl_peek(ps);
    if (h->kind == WL_TK_DOT && !h->space_before) {
        wl_take(ps);
        h = wl_peek(ps);
        if (h->kind != WL_TK_INT || h->space_before) {
            char buf[64];
            wl_perr(ps, h->col, "expected a hardware thread number right after '.', found %s",
                    wl_tok_describe(h, buf, sizeof buf));
            return false;
        }
        wl_take(ps);
        hw = h->value;
    }
    if (c->value >= cores) {
        char fix[96] = "";
        if (ps->opts->cores > 0) /* a machine's: say how to get a larger one */
            snprintf(fix, sizeof fix,
                     "; the machine has %d cores (--set machine.cores=%lld for more)", cores,
                     (long long)c->value + 1);
        wl_perr(ps, c->col, "core %lld is out of range (0..%d)%s", (long long)c->value, cores - 1,
                fix);
        return false;
    }
    if (hw >= hws) {
        char fix[128] = "";
        if (ps->opts->threads_per_core > 0)
            snprintf(fix, sizeof fix,
                     "; the machine's cores have %d (--set machine.threads_per_core=%lld for more)",
                     hws, (long long)hw + 1);
        wl_perr(ps, h->col, "hardware thread %lld is out of range (0..%d)%s", (long long)hw,
                hws - 1, fix);
        return false;
    }
    *pin = (struct wl_pin){(int)c->value, (int)hw};
    return true;
}

static bool pins_distinct(struct wl_parser *ps, const int *cols)
{
    const struct wl_pin *pin = ps->p->pin;
    for (int i = 0; i < ps->p->threads; i++)
        for (int j = 0; j < i; j++)
            if (pin[i].core == pin[j].core && pin[i].hw == pin[j].hw) {
                wl_perr(ps, cols[i], "threads %d and %d are both pinned to core %d.%d", j, i,
                        pin[i].core, pin[i].hw);
                return false;
            }
    return true;
}

static bool parse_pin(struct wl_parser *ps)
{
    const struct wl_tok *kw = wl_take(ps);
    if (!at_top_level(ps, kw))
        return false;
    if (ps->pin_seen) {
        wl_perr(ps, kw->col, "'pin' is given twice");
        return false;
    }
    ps->pin_seen = true;
    int n = ps->p->threads, k = 0;
    struct wl_pin *pin = sim_xcalloc((size_t)n, sizeof *pin);
    int *cols = sim_xcalloc((size_t)n, sizeof *cols);
    bool ok = true;
    for (; ok && wl_peek(ps)->kind != WL_TK_END && k < n; k++) {
        cols[k] = wl_peek(ps)->col;
        ok = parse_pin_entry(ps, &pin[k]);
    }
    if (ok && (k != n || wl_peek(ps)->kind != WL_TK_END)) {
        wl_perr(ps, kw->col, "pin gives %s%d cores for %d threads (one core per thread)",
                k < n ? "" : "more than ", k, n);
        ok = false;
    }
    ps->p->pin = pin;
    ps->p->pinned = ok;
    ok = ok && pins_distinct(ps, cols);
    free(cols);
    return ok;
}

/* ------------------------------------------------------------- line declarations */

static bool parse_home(struct wl_parser *ps, struct wl_decl *d)
{
    wl_take(ps);
    if (!wl_expect(ps, WL_TK_ASSIGN, "'=' after home (home=NODE)"))
        return false;
    int col = wl_peek(ps)->col;
    if (!wl_parse_const(ps, "a home", &d->home_expr, &d->pub.home))
        return false;
    if (d->pub.home < 0 || d->pub.home > WL_MAX_CORE) {
        wl_perr(ps, col, "home %lld is out of range (a memory node 0..%d)", (long long)d->pub.home,
                WL_MAX_CORE);
        return false;
    }
    return true;
}

static bool parse_count(struct wl_parser *ps, struct wl_decl *d)
{
    int col = wl_peek(ps)->col;
    if (!wl_parse_const(ps, "a line count", &d->count_expr, &d->pub.count))
        return false;
    d->pub.is_array = true;
    if (d->pub.count < 1 || d->pub.count > WL_MAX_LINES) {
        wl_perr(ps, col, "line count %lld is out of range (1..%d, WL_MAX_LINES)",
                (long long)d->pub.count, WL_MAX_LINES);
        return false;
    }
    if (ps->p->total_lines + d->pub.count > WL_MAX_LINES) {
        wl_perr(ps, col, "too many lines: %lld in all (at most %d, WL_MAX_LINES)",
                (long long)(ps->p->total_lines + d->pub.count), WL_MAX_LINES);
        return false;
    }
    return true;
}

static bool is_attr(const struct wl_parser *ps, const char *name)
{
    return wl_tok_is(wl_peek(ps), name) && ps->toks[ps->pos + 1].kind == WL_TK_ASSIGN;
}

static bool is_home(const struct wl_parser *ps)
{
    return is_attr(ps, "home");
}

static bool is_place(const struct wl_parser *ps)
{
    return is_attr(ps, "mpb") || is_attr(ps, "tas");
}

/* NAME= that is not a line's option (home=, mpb=, tas=): says so. */
static bool unknown_attr(struct wl_parser *ps)
{
    const struct wl_tok *t = wl_peek(ps);
    if (t->kind != WL_TK_NAME || ps->toks[ps->pos + 1].kind != WL_TK_ASSIGN || is_home(ps) ||
        is_place(ps))
        return false;
    wl_perr(ps, t->col, "unknown option '%.*s=' of a line (home=NODE, mpb=T or tas=T)", t->len,
            t->text);
    return true;
}

/* mpb=T / tas=T / mpb=each / tas=each */
static bool parse_place(struct wl_parser *ps, struct wl_decl *d)
{
    const struct wl_tok *kw = wl_take(ps);
    bool mpb = wl_tok_is(kw, "mpb");
    wl_take(ps); /* '=' */
    if (d->pub.place != WL_PLACE_MEMORY || d->home_expr >= 0) {
        wl_perr(ps, kw->col, "a line lives in one place: home=, mpb= and tas= exclude each other");
        return false;
    }
    d->pub.place = mpb ? WL_PLACE_MPB : WL_PLACE_TAS;
    int col = wl_peek(ps)->col;
    if (wl_tok_is(wl_peek(ps), "each")) {
        wl_take(ps);
        d->pub.place_thread = WL_PLACE_EACH;
        if (d->pub.count % ps->p->threads != 0) {
            wl_perr(ps, col,
                    "%s=each spreads the lines over the threads: the count %lld is not a "
                    "multiple of %d threads",
                    mpb ? "mpb" : "tas", (long long)d->pub.count, ps->p->threads);
            return false;
        }
        return true;
    }
    if (!wl_parse_const(ps, mpb ? "an MPB's thread" : "a register's thread", &d->place_expr,
                        &d->pub.place_thread))
        return false;
    if (d->pub.place_thread < 0 || d->pub.place_thread >= ps->p->threads) {
        wl_perr(ps, col, "%s=%lld: no such thread (0..%d)", mpb ? "mpb" : "tas",
                (long long)d->pub.place_thread, ps->p->threads - 1);
        return false;
    }
    return true;
}

static bool decl_name(struct wl_parser *ps, const struct wl_tok *t)
{
    if (!wl_check_name(ps, t, "line"))
        return false;
    int old = wl_decl_lookup(ps, t->text, (size_t)t->len);
    if (old >= 0) {
        wl_perr(ps, t->col, "line '%.*s' is declared twice (first on line %d)", t->len, t->text,
                ps->p->decls[old].pub.src_line);
        return false;
    }
    if (ps->p->ndecls >= WL_MAX_DECLS) {
        wl_perr(ps, t->col, "too many line declarations (at most %d, WL_MAX_DECLS)", WL_MAX_DECLS);
        ps->stop = true;
        return false;
    }
    return true;
}

/* A declaration's count, home= and place options. */
static bool parse_decl_options(struct wl_parser *ps, struct wl_decl *d)
{
    if (unknown_attr(ps))
        return false;
    if (wl_peek(ps)->kind != WL_TK_END && !is_home(ps) && !is_place(ps) && !parse_count(ps, d))
        return false;
    for (;;) {
        if (unknown_attr(ps))
            return false;
        if (!is_home(ps) && !is_place(ps))
            return true;
        if (is_home(ps) && (d->pub.place != WL_PLACE_MEMORY || d->home_expr >= 0)) {
            wl_perr(ps, wl_peek(ps)->col,
                    d->home_expr >= 0 ? "home= is given twice (a line has one home)"
                                      : "a line lives in one place: home=, mpb= and tas= "
                                        "exclude each other");
            return false;
        }
        if (is_home(ps) ? !parse_home(ps, d) : !parse_place(ps, d))
            return false;
    }
}

static bool parse_decl(struct wl_parser *ps)
{
    const struct wl_tok *kw = wl_take(ps);
    const struct wl_tok *t = wl_peek(ps);
    if (!at_top_level(ps, kw) || !wl_expect(ps, WL_TK_NAME, "a line name") || !decl_name(ps, t))
        return false;
    struct wl_decl d = {.pub = {.count = 1, .home = -1, .src_line = ps->line},
                        .count_expr = -1,
                        .home_expr = -1,
                        .place_expr = -1,
                        .col = t->col};
    if (!parse_decl_options(ps, &d)) {
        /* its uses are not reported again as unknown lines */
        wl_names_add(&ps->broken_decls, t->text, (size_t)t->len);
        return false;
    }
    struct wl_program *p = ps->p;
    p->decls = wl_grow(p->decls, &p->cap_decls, p->ndecls + 1, sizeof *p->decls);
    d.pub.first = p->total_lines;
    char *name = sim_xmalloc((size_t)t->len + 1);
    memcpy(name, t->text, (size_t)t->len);
    name[t->len] = '\0';
    d.pub.name = name;
    p->decls[p->ndecls] = d;
    p->total_lines += d.pub.count;
    decl_insert(ps, p->ndecls++);
    return true;
}

/* ------------------------------------------------------------- loops */

static bool loop_var(struct wl_parser *ps, const struct wl_tok *t)
{
    if (!wl_check_name(ps, t, "loop variable"))
        return false;
    int outer = wl_scope_find(ps, t->text, (size_t)t->len);
    if (outer >= 0) {
        wl_perr(ps, t->col, "loop variable '%.*s' shadows the variable of the loop on line %d",
                t->len, t->text, ps->scope[outer].line);
        return false;
    }
    if (wl_names_find(&ps->p->regs, t->text, (size_t)t->len) >= 0) {
        wl_perr(ps, t->col, "loop variable '%.*s' shadows the register %.*s", t->len, t->text,
                t->len, t->text);
        return false;
    }
    return true;
}

static void push_scope(struct wl_parser *ps, enum wl_stmt_kind kind, const struct wl_tok *var,
                       int stmt, int col)
{
    struct wl_scope *s = &ps->scope[ps->depth++];
    *s = (struct wl_scope){.kind = kind, .stmt = stmt, .var = -1, .line = ps->line, .col = col};
    if (kind == WL_S_FOR && var->kind == WL_TK_NAME)
        snprintf(s->name, sizeof s->name, "%.*s", var->len, var->text);
    if (kind == WL_S_FOR && stmt >= 0)
        s->var = ps->p->stmts[stmt].var;
    s->head = kind == WL_S_IF ? stmt : -1; /* an else's: set by parse_else */
}

/* Room for one more block; `for` keeps its version-1 message. */
static bool block_room(struct wl_parser *ps, const struct wl_tok *kw)
{
    if (ps->depth < WL_MAX_DEPTH)
        return true;
    if (wl_tok_is(kw, "for") && ps->version < 2) /* version 1 has only loops */
        wl_perr(ps, kw->col, "loops nest too deeply (more than %d levels, WL_MAX_DEPTH)",
                WL_MAX_DEPTH);
    else
        wl_perr(ps, kw->col,
                "blocks nest too deeply (more than %d levels of for, if and while, "
                "WL_MAX_DEPTH)",
                WL_MAX_DEPTH);
    ps->stop = true;
    return false;
}

static bool parse_for(struct wl_parser *ps)
{
    const struct wl_tok *kw = wl_take(ps);
    const struct wl_tok *var = wl_peek(ps);
    if (!block_room(ps, kw))
        return false;
    if (!wl_expect(ps, WL_TK_NAME, "a loop variable name") || !loop_var(ps, var))
        return false;
    int from = wl_parse_expr(ps);
    if (from < 0 || !wl_expect(ps, WL_TK_DOTDOT, "'..' between the loop's bounds (A..B)"))
        return false;
    int to = wl_parse_expr(ps);
    if (to < 0 || !wl_expect(ps, WL_TK_LBRACE, "'{' at the end of the loop's line"))
        return false;
    int s = wl_add_stmt(ps, WL_S_FOR, kw->col);
    if (s < 0)
        return false;
    struct wl_stmt *st = &ps->p->stmts[s];
    st->depth = ps->depth;
    st->from = from;
    st->to = to;
    int v = wl_names_find(&ps->p->vars, var->text, (size_t)var->len);
    st->var = v >= 0 ? v : wl_names_add(&ps->p->vars, var->text, (size_t)var->len);
    push_scope(ps, WL_S_FOR, var, s, kw->col);
    return true;
}

/* `COND {` after if, else if or while: the condition's node, or -1. */
static int parse_cond_line(struct wl_parser *ps, const char *what)
{
    int cond = wl_parse_cond(ps, what);
    char buf[64];
    snprintf(buf, sizeof buf, "'{' at the end of the %s line", what);
    return cond >= 0 && wl_expect(ps, WL_TK_LBRACE, buf) ? cond : -1;
}

static bool parse_if(struct wl_parser *ps)
{
    const struct wl_tok *kw = wl_take(ps);
    if (!wl_need_v2(ps, kw->col, "'if'") || !block_room(ps, kw))
        return false;
    int cond = parse_cond_line(ps, "'if'");
    int s = cond >= 0 ? wl_add_stmt(ps, WL_S_IF, kw->col) : -1;
    if (s < 0)
        return false;
    ps->p->stmts[s].cond = cond;
    push_scope(ps, WL_S_IF, kw, s, kw->col);
    return true;
}

/* A while's condition must be able to change: not a constant, and reading
 * a register (checked again at its '}': set in the body). */
static bool while_cond_ok(struct wl_parser *ps, int cond)
{
    const struct wl_expr *x = &ps->p->exprs[cond];
    if (x->is_const) {
        wl_perr(ps, x->col,
                x->value ? "this while's condition is always true: the loop would never end"
                         : "this while's condition is always false: the loop would never run");
        return false;
    }
    if (wl_expr_reads_reg(ps->p, cond, -1))
        return true;
    wl_perr(ps, x->col,
            "this while's condition reads no register, so nothing in the loop can change it: "
            "it would run never or forever (a for loop counts; a while waits for a register "
            "its body sets)");
    return false;
}

static bool parse_while(struct wl_parser *ps)
{
    const struct wl_tok *kw = wl_take(ps);
    if (!wl_need_v2(ps, kw->col, "'while'") || !block_room(ps, kw))
        return false;
    int cond = parse_cond_line(ps, "'while'");
    if (cond < 0 || !while_cond_ok(ps, cond))
        return false;
    int s = wl_add_stmt(ps, WL_S_WHILE, kw->col);
    if (s < 0)
        return false;
    ps->p->stmts[s].cond = cond;
    push_scope(ps, WL_S_WHILE, kw, s, kw->col);
    return true;
}

static void close_loop(struct wl_program *p, int begin, int end)
{
    p->stmts[begin].match = end;
    p->stmts[end].match = begin;
    p->stmts[begin].static_sel = true;
    for (int i = begin + 1; i < end; i++) {
        if (p->stmts[i].kind != WL_S_OP)
            continue;
        p->stmts[begin].has_ops = true;
        if (!p->stmts[i].sel.is_const)
            p->stmts[begin].static_sel = false;
    }
}

/* At a while's '}': some statement of the body sets a register the
 * condition reads (else the loop runs never or forever). */
static void check_while_body(struct wl_parser *ps, const struct wl_scope *sc, int end)
{
    const struct wl_program *p = ps->p;
    int cond = p->stmts[sc->stmt].cond;
    for (int i = sc->stmt + 1; i < end; i++)
        if (p->stmts[i].kind == WL_S_OP && p->stmts[i].reg >= 0 &&
            wl_expr_reads_reg(p, cond, p->stmts[i].reg))
            return;
    int here = ps->line;
    ps->line = sc->line;
    wl_perr(ps, p->exprs[cond].col,
            "nothing in this while's body sets a register its condition reads (with '-> r' or "
            "'let r ='): the loop would run never or forever");
    ps->line = here;
}

/* The END of block sc at statement end. */
static void close_block(struct wl_parser *ps, const struct wl_scope *sc, int end)
{
    struct wl_program *p = ps->p;
    if (sc->kind == WL_S_FOR) {
        close_loop(p, sc->stmt, end);
        return;
    }
    p->stmts[sc->stmt].match = end;
    if (sc->kind == WL_S_WHILE) {
        p->stmts[end].match = sc->stmt;
        check_while_body(ps, sc, end);
        return;
    }
    p->stmts[end].match = sc->head; /* an if chain: END points back at its IF */
}

/* `} else {` or `} else if COND {`: the next branch of the chain whose
 * branch sc the '}' closed. */
static bool parse_else(struct wl_parser *ps, const struct wl_scope *sc)
{
    const struct wl_tok *kw = wl_take(ps);
    if (!wl_need_v2(ps, kw->col, "'else'"))
        return false;
    if (sc->kind != WL_S_IF) {
        wl_perr(ps, kw->col,
                "'else' follows the '}' of an if or an else if, and this '}' closes %s",
                sc->kind == WL_S_ELSE  ? "an else"
                : sc->kind == WL_S_FOR ? "a for"
                                       : "a while");
        return false;
    }
    bool elif = wl_tok_is(wl_peek(ps), "if");
    if (elif)
        wl_take(ps);
    int cond = elif ? parse_cond_line(ps, "'else if'") : 0;
    if (cond < 0 || (!elif && !wl_expect(ps, WL_TK_LBRACE, "'{' after else: } else {")))
        return false;
    int s = sc->stmt >= 0 ? wl_add_stmt(ps, elif ? WL_S_ELIF : WL_S_ELSE, kw->col) : -1;
    if (s < 0 && sc->stmt >= 0)
        return false;
    if (s >= 0) { /* not after an error in the chain */
        ps->p->stmts[s].cond = elif ? cond : -1;
        ps->p->stmts[sc->stmt].match = s;
    }
    push_scope(ps, elif ? WL_S_IF : WL_S_ELSE, kw, s, kw->col);
    ps->scope[ps->depth - 1].head = sc->head;
    return true;
}

static bool parse_close(struct wl_parser *ps)
{
    const struct wl_tok *t = wl_take(ps);
    if (ps->depth == 0) {
        wl_perr(ps, t->col, "unmatched '}' (no %s is open)", ps->version >= 2 ? "block" : "loop");
        return false;
    }
    struct wl_scope sc = ps->scope[--ps->depth];
    if (wl_tok_is(wl_peek(ps), "else"))
        return parse_else(ps, &sc);
    if (sc.stmt < 0)
        return true;
    int end = wl_add_stmt(ps, WL_S_END, t->col);
    if (end < 0)
        return false;
    close_block(ps, &sc, end);
    return true;
}

/* ------------------------------------------------------------- lines */

/* Whether a line that starts with `word` is that block statement: always in
 * version 2 (the words are reserved), in version 1 only when the line has
 * no selector (`if: read x` with a loop variable named if stays valid). */
static bool is_block(const struct wl_parser *ps, const struct wl_tok *t, const char *word)
{
    return wl_tok_is(t, word) && (ps->version >= 2 || !wl_line_has_colon(ps));
}

/* A block's line; one with an error that ends in '{' still opens a dummy
 * block, so that its '}' matches. */
static bool parse_block(struct wl_parser *ps, enum wl_stmt_kind kind)
{
    const struct wl_tok *t = wl_peek(ps);
    int depth = ps->depth;
    bool ok = kind == WL_S_FOR ? parse_for(ps) : kind == WL_S_IF ? parse_if(ps) : parse_while(ps);
    if (!ok && ps->depth == depth && depth < WL_MAX_DEPTH &&
        ps->toks[ps->ntoks - 1].kind == WL_TK_LBRACE)
        push_scope(ps, kind, &ps->toks[1], -1, t->col);
    return ok;
}

/* The '}' of a block, or `} else ...`; a failed else still opens its block. */
static bool parse_closing(struct wl_parser *ps)
{
    int depth = ps->depth;
    bool ok = parse_close(ps);
    if (!ok && depth > 0 && ps->depth == depth - 1 && ps->ntoks > 1 &&
        wl_tok_is(&ps->toks[1], "else") && ps->toks[ps->ntoks - 1].kind == WL_TK_LBRACE)
        push_scope(ps, WL_S_ELSE, &ps->toks[1], -1, ps->toks[1].col);
    return ok;
}

static bool parse_statement(struct wl_parser *ps)
{
    const struct wl_tok *t = wl_peek(ps);
    if (wl_tok_is(t, "threads"))
        return parse_threads(ps);
    if (!ps->threads_seen && !ps->missing_threads)
        missing_threads(ps, ps->line);
    if (wl_tok_is(t, "pin"))
        return parse_pin(ps);
    if (wl_tok_is(t, "line"))
        return parse_decl(ps);
    if (wl_tok_is(t, "for"))
        return parse_block(ps, WL_S_FOR);
    if (is_block(ps, t, "if"))
        return parse_block(ps, WL_S_IF);
    if (is_block(ps, t, "while"))
        return parse_block(ps, WL_S_WHILE);
    if (t->kind == WL_TK_RBRACE)
        return parse_closing(ps);
    if (is_block(ps, t, "else")) {
        wl_perr(ps, t->col, "'else' goes on the line of the '}' that closes its if: } else {");
        if (ps->depth < WL_MAX_DEPTH && ps->toks[ps->ntoks - 1].kind == WL_TK_LBRACE)
            push_scope(ps, WL_S_ELSE, t, -1, t->col); /* its '}' matches */
        return false;
    }
    return wl_parse_op_stmt(ps);
}

static void parse_source_line(struct wl_parser *ps, const char *s, size_t len)
{
    if (len > WL_MAX_LINE_CHARS) {
        wl_perr(ps, WL_MAX_LINE_CHARS + 1, "line is longer than %d characters (WL_MAX_LINE_CHARS)",
                WL_MAX_LINE_CHARS);
        return;
    }
    ps->minus_hint = false;
    if (!wl_lex_line(ps, s, len)) {
        ps->stop = ps->stop || !ps->header_seen; /* no header: not a trace */
        if (ps->header_seen && !ps->threads_seen && len > 8 && !strncmp(s, "threads", 7) &&
            (s[7] == ' ' || s[7] == '\t')) { /* `threads 2 @`: said; no "missing threads" */
            char num[32], *end;              /* the line is a slice of the text, not a string */
            size_t k = len - 8 < sizeof num - 1 ? len - 8 : sizeof num - 1;
            memcpy(num, s + 8, k);
            num[k] = '\0';
            long n = strtol(num, &end, 10); /* the count it gives, if it gives one */
            ps->threads_seen = true;
            ps->p->threads = n >= 1 && n <= WL_MAX_THREADS && end > num ? (int)n : WL_MAX_THREADS;
        }
        return;
    }
    if (ps->ntoks == 0)
        return;
    bool ok = ps->header_seen ? parse_statement(ps) : parse_header(ps);
    if (!ok && ps->header_seen)
        wl_keep_failed_reg(ps);
    const struct wl_tok *t = wl_peek(ps);
    if (ok && t->kind != WL_TK_END) {
        char buf[64];
        bool cmp = t->kind == WL_TK_EQEQ || t->kind == WL_TK_NE || t->kind == WL_TK_LT ||
                   t->kind == WL_TK_LE || t->kind == WL_TK_GT || t->kind == WL_TK_GE;
        wl_perr(ps, t->col, "unexpected %s after the statement%s",
                wl_tok_describe(t, buf, sizeof buf),
                cmp && ps->version < 2 ? " (comparisons in expressions need ccsim-trace 2)" : "");
    }
}

/* ------------------------------------------------------------- whole text */

static void finish(struct wl_parser *ps)
{
    if (!ps->header_seen && !ps->stop) {
        ps->line = 1;
        wl_perr(ps, 1, "empty trace (expected the header 'ccsim-trace %d')", WL_VERSION);
    }
    if (ps->stop || !ps->header_seen)
        return;
    if (!ps->threads_seen && !ps->missing_threads)
        missing_threads(ps, ps->header_line);
    for (int i = ps->depth - 1; i >= 0; i--) {
        const struct wl_scope *sc = &ps->scope[i];
        ps->line = sc->line;
        if (sc->kind == WL_S_FOR)
            wl_perr(ps, sc->col, "loop 'for %s' is never closed (a '}' is missing)", sc->name);
        else
            wl_perr(ps, sc->col, "this '%s' is never closed (a '}' is missing)",
                    sc->kind == WL_S_WHILE ? "while"
                    : sc->kind == WL_S_IF  ? "if"
                                           : "else");
    }
}

/* The thread bitmap of constant list s, at the end of p->sel_bits; the
 * previous list's when they are equal (generated traces repeat one list). */
static int sel_bitmap(struct wl_program *p, const struct wl_sel *s)
{
    int w = p->sel_words, at = p->nsel_bits;
    p->sel_bits = wl_grow(p->sel_bits, &p->cap_sel_bits, at + w, sizeof *p->sel_bits);
    uint64_t *b = &p->sel_bits[at];
    memset(b, 0, (size_t)w * sizeof *b);
    for (int i = 0; i < s->count; i++) {
        const struct wl_sel_item *it = &p->items[s->first + i];
        int64_t lo = p->exprs[it->lo].value, hi = p->exprs[it->hi >= 0 ? it->hi : it->lo].value;
        for (int64_t t = lo; t <= hi; t++) /* in range: the parser checked */
            b[t / 64] |= 1ull << (t % 64);
    }
    if (at >= w && memcmp(b - w, b, (size_t)w * sizeof *b) == 0)
        return at - w;
    p->nsel_bits += w;
    return at;
}

/* After a parse without errors: a bitmap for every constant selector list
 * of two or more items, so that a thread finds out in one step whether a
 * statement names it (an SCC collective's statements name every other
 * thread one by one). */
static void build_sel_bits(struct wl_program *p)
{
    p->sel_words = (p->threads + 63) / 64;
    for (int i = 0; i < p->nstmts; i++) {
        struct wl_sel *s = &p->stmts[i].sel;
        s->bits = -1;
        if (p->stmts[i].kind == WL_S_OP && s->kind == WL_SEL_LIST && s->is_const && s->count >= 2)
            s->bits = sel_bitmap(p, s);
    }
}

static void parse_lines(struct wl_parser *ps, const char *text, size_t len)
{
    size_t pos = 0;
    while (pos < len && !ps->stop) {
        const char *s = text + pos;
        const char *nl = memchr(s, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - s) : len - pos;
        ps->line++;
        parse_source_line(ps, s, n);
        pos += n + 1;
    }
}

static bool check_opts(const char *name, const struct wl_parse_opts *o, struct sim_diag *d)
{
    if (o->line_bytes >= 8 && o->line_bytes <= 4096 && o->line_bytes % 8 == 0 && o->cores >= 0 &&
        o->threads_per_core >= 0)
        return true;
    sim_diag_add(d, name, 0,
                 "bad parse options: line size %d bytes (expected a multiple of 8 "
                 "from 8 to 4096)",
                 o->line_bytes);
    return false;
}

struct wl_program *wl_parse_text(const char *name, const char *text, size_t len,
                                 const struct wl_parse_opts *opts, struct sim_diag *d)
{
    struct wl_parse_opts o = opts ? *opts : (struct wl_parse_opts){0};
    if (o.line_bytes == 0)
        o.line_bytes = 64;
    if (!check_opts(name, &o, d))
        return NULL;
    if (len > WL_MAX_FILE_BYTES) {
        sim_diag_add(d, name, 0, "trace is larger than %d bytes (WL_MAX_FILE_BYTES)",
                     WL_MAX_FILE_BYTES);
        return NULL;
    }
    struct wl_parser ps = {.p = wl_program_new(name, o.line_bytes / WL_WORD_BYTES),
                           .d = d,
                           .opts = &o,
                           .version = 1,
                           .hash_cap = 2 * WL_MAX_DECLS};
    ps.toks = sim_xzeroed(WL_MAX_LINE_CHARS + 1, sizeof *ps.toks); /* a line's: most untouched */
    ps.decl_hash = sim_xzeroed((size_t)ps.hash_cap, sizeof *ps.decl_hash);
    parse_lines(&ps, text, len);
    finish(&ps);
    sim_free_zeroed(ps.toks, WL_MAX_LINE_CHARS + 1, sizeof *ps.toks);
    sim_free_zeroed(ps.decl_hash, (size_t)ps.hash_cap, sizeof *ps.decl_hash);
    wl_names_free(&ps.broken_decls);
    if (ps.errors == 0) {
        build_sel_bits(ps.p);
        wl_expr_compile(ps.p);
        return ps.p;
    }
    wl_program_free(ps.p);
    return NULL;
}

struct wl_program *wl_parse_file(const char *path, const struct wl_parse_opts *opts,
                                 struct sim_diag *d)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        sim_diag_add(d, path, 0, "cannot read trace: it is a directory, not a trace file");
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        sim_diag_add(d, path, 0, "cannot open trace: %s", strerror(errno));
        return NULL;
    }
    size_t n = 0, cap = 1 << 16;
    char *buf = sim_xmalloc(cap);
    for (size_t got = 1; got > 0 && n <= (size_t)WL_MAX_FILE_BYTES;) {
        if (n == cap)
            buf = sim_xrealloc(buf, cap *= 2);
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    }
    bool bad = ferror(f) != 0;
    int err = errno;
    fclose(f);
    struct wl_program *p = NULL;
    if (bad)
        sim_diag_add(d, path, 0, "cannot read trace: %s", strerror(err));
    else
        p = wl_parse_text(path, buf, n, opts, d);
    free(buf);
    return p;
}
