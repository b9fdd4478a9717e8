/*
 * trace_parse_op.c -- parsing an operation statement,
 * `SELECTOR: OP ARGS [-> REG]`: the thread selector, the operation (from the
 * WL_OPS catalogue, each with the trace version that has it), its arguments
 * by kind, the register it sets (`-> REG`, or let's `REG =`), and the checks
 * of every constant among them (threads, indices, words, copy ranges,
 * counts).
 */
#include "trace_impl.h"

#include <string.h>

static const struct {
    const char *name, *args, *usage;
    bool reg;
    int since;
} ops[] = {
#define WL_X_ROW(e, name, args, reg, since, usage) {name, args, usage, reg, since},
    WL_OPS(WL_X_ROW)
#undef WL_X_ROW
};

static const char *const op_names[] = {
#define WL_X_ROW(e, name, args, reg, since, usage) name,
    WL_OPS(WL_X_ROW)
#undef WL_X_ROW
};

static const char *const statement_words[] = {"threads", "pin", "line", "for", "if", "while"};

/* What an argument kind letter expects, for messages. */
static const char *kind_text(char k)
{
    switch (k) {
    case 'A':
        return "an address (name, name[i] or name[i].w)";
    case 'R':
        return "an address (name, name[i], name[i].w or a range name[i..j].w)";
    case 'B':
        return "a line (name or name[i])";
    case 'C':
        return "a comparison (== != < <= > >=)";
    case 'L':
        return "a label";
    case 'S':
        return "a cache state (M, E or S)";
    case 'N':
        return "a number of lines";
    case 'Y':
        return "a number of cycles";
    case 'G':
        return "a register name and '='";
    default:
        return "a value";
    }
}

/* ------------------------------------------------------------- suggestions */

void wl_suggest(char *buf, size_t size, const char *name, size_t len, const char *const *cands,
                size_t n)
{
    const char *best = NULL;
    size_t best_d = len < 3 ? 0 : 3; /* no guesses for one- and two-letter names */
    for (size_t i = 0; i < n; i++) {
        size_t dist = sim_edit_distance(name, len, cands[i]);
        if (dist < best_d) {
            best_d = dist;
            best = cands[i];
        }
    }
    if (best)
        snprintf(buf, size, " (did you mean '%s'?)", best);
    else
        buf[0] = '\0';
}

/* ------------------------------------------------------------- selectors */

static bool check_thread(struct wl_parser *ps, int e)
{
    const struct wl_expr *x = &ps->p->exprs[e];
    if (!x->is_const || (x->value >= 0 && x->value < ps->p->threads))
        return true;
    wl_perr(ps, x->col, "thread %lld is out of range (threads %d: 0..%d)", (long long)x->value,
            ps->p->threads, ps->p->threads - 1);
    return false;
}

/* A constant list that names a thread twice (`0,0:`, `0..3,2:`) is a slip
 * of the pen, not another set: refused (a list of expressions is a set
 * when it runs: it selects each thread once). Marks threads lo..hi named. */
static bool named_before(struct wl_parser *ps, const struct wl_expr *lo, const struct wl_expr *hi)
{
    for (int64_t t = lo->value; t <= hi->value; t++) {
        uint64_t bit = 1ull << (t % 64);
        if (ps->sel_seen[t / 64] & bit) {
            wl_perr(ps, lo->col, "the selector names thread %lld twice", (long long)t);
            return true;
        }
        ps->sel_seen[t / 64] |= bit;
    }
    return false;
}

static bool parse_sel_item(struct wl_parser *ps, struct wl_sel *sel)
{
    struct wl_sel_item it = {wl_parse_expr(ps), -1};
    if (it.lo < 0 || !check_thread(ps, it.lo))
        return false;
    if (wl_accept(ps, WL_TK_DOTDOT)) {
        it.hi = wl_parse_expr(ps);
        if (it.hi < 0 || !check_thread(ps, it.hi))
            return false;
    }
    const struct wl_expr *lo = &ps->p->exprs[it.lo], *hi = it.hi >= 0 ? &ps->p->exprs[it.hi] : lo;
    if (lo->is_const && hi->is_const && lo->value > hi->value) {
        wl_perr(ps, lo->col, "empty thread range %lld..%lld", (long long)lo->value,
                (long long)hi->value);
        return false;
    }
    if (sel->is_const && lo->is_const && hi->is_const && named_before(ps, lo, hi))
        return false;
    sel->is_const = sel->is_const && lo->is_const && hi->is_const;
    struct wl_program *p = ps->p;
    p->items = wl_grow(p->items, &p->cap_items, p->nitems + 1, sizeof *p->items);
    p->items[p->nitems++] = it;
    sel->count++;
    return true;
}

static bool parse_selector(struct wl_parser *ps, struct wl_sel *sel)
{
    *sel =
        (struct wl_sel){.kind = WL_SEL_LIST, .first = ps->p->nitems, .is_const = true, .bits = -1};
    const struct wl_tok *t = wl_peek(ps);
    if (wl_tok_is(t, "all") || wl_tok_is(t, "others")) {
        wl_take(ps);
        sel->kind = wl_tok_is(t, "all") ? WL_SEL_ALL : WL_SEL_OTHERS;
    } else {
        ps->in_selector = true;
        memset(ps->sel_seen, 0, (size_t)(ps->p->threads + 63) / 64 * sizeof *ps->sel_seen);
        bool ok = parse_sel_item(ps, sel);
        while (ok && wl_accept(ps, WL_TK_COMMA))
            ok = parse_sel_item(ps, sel);
        ps->in_selector = false;
        if (!ok)
            return false;
    }
    return wl_expect(ps, WL_TK_COLON,
                     "':' after the thread selector (3, 1..3, all, others, or a list 0,2,5)");
}

/* ------------------------------------------------------------- addresses */

static bool check_range(struct wl_parser *ps, int e, int64_t count, const char *what,
                        const char *name)
{
    const struct wl_expr *x = &ps->p->exprs[e];
    if (!x->is_const || (x->value >= 0 && x->value < count))
        return true;
    wl_perr(ps, x->col, "%s %lld is out of range for '%s' (0..%lld)", what, (long long)x->value,
            name, (long long)(count - 1));
    return false;
}

static bool parse_word(struct wl_parser *ps, struct wl_addr *a, bool allow_word, int col)
{
    if (!allow_word) {
        wl_perr(ps, col, "this operation works on whole lines: no word index '.w' here");
        return false;
    }
    const struct wl_tok *t = wl_take(ps);
    if (t->kind == WL_TK_INT)
        a->word = wl_new_const(ps, t->value, t->col);
    else if (t->kind == WL_TK_LPAREN) {
        a->word = wl_parse_expr(ps);
        if (a->word < 0 || !wl_expect(ps, WL_TK_RPAREN, "')'"))
            return false;
    } else {
        wl_perr(ps, t->col, "expected a word index after '.': .3 or .(expr)");
        return false;
    }
    const struct wl_expr *x = a->word >= 0 ? &ps->p->exprs[a->word] : NULL;
    if (!x || !x->is_const || (x->value >= 0 && x->value < ps->p->words))
        return x != NULL;
    wl_perr(ps, x->col, "word %lld is out of range (a %d-byte line has words 0..%d)",
            (long long)x->value, ps->p->words * WL_WORD_BYTES, ps->p->words - 1);
    return false;
}

static bool unknown_line(struct wl_parser *ps, const struct wl_tok *t)
{
    if (wl_names_find(&ps->broken_decls, t->text, (size_t)t->len) >= 0)
        return false; /* its declaration's error said it */
    const char *best = NULL;
    size_t best_d = t->len < 3 ? 0 : 3;
    for (int i = 0; i < ps->p->ndecls; i++) {
        size_t dist = sim_edit_distance(t->text, (size_t)t->len, ps->p->decls[i].pub.name);
        if (dist < best_d) {
            best_d = dist;
            best = ps->p->decls[i].pub.name;
        }
    }
    char hint[128] = "";
    if (best)
        snprintf(hint, sizeof hint, "; did you mean '%s'?", best);
    wl_perr(ps, t->col, "unknown line '%.*s' (declare it first: line %.*s%s)", t->len, t->text,
            t->len, t->text, hint);
    return false;
}

/* `..hi` after an index: the last element of a range (expect only). */
static bool parse_range_end(struct wl_parser *ps, struct wl_addr *a, bool allow_range, int col)
{
    const struct wl_decl *d = &ps->p->decls[a->decl];
    if (!allow_range) {
        wl_perr(ps, col, "a range of lines i..j is only for expect");
        return false;
    }
    a->index_hi = wl_parse_expr(ps);
    if (a->index_hi < 0 || !check_range(ps, a->index_hi, d->pub.count, "index", d->pub.name))
        return false;
    const struct wl_expr *lo = &ps->p->exprs[a->index], *hi = &ps->p->exprs[a->index_hi];
    if (lo->is_const && hi->is_const && lo->value > hi->value) {
        wl_perr(ps, hi->col, "the range %lld..%lld is empty", (long long)lo->value,
                (long long)hi->value);
        return false;
    }
    return true;
}

static bool parse_addr(struct wl_parser *ps, struct wl_addr *a, bool allow_word, bool allow_range)
{
    const struct wl_tok *t = wl_take(ps);
    a->decl = wl_decl_lookup(ps, t->text, (size_t)t->len);
    if (a->decl < 0)
        return unknown_line(ps, t);
    const struct wl_decl *d = &ps->p->decls[a->decl];
    if (wl_accept(ps, WL_TK_LBRACK)) {
        a->index = wl_parse_expr(ps);
        if (a->index < 0 || !check_range(ps, a->index, d->pub.count, "index", d->pub.name))
            return false;
        const struct wl_tok *dots = wl_peek(ps);
        if (dots->kind == WL_TK_DOTDOT) {
            wl_take(ps);
            if (!parse_range_end(ps, a, allow_range, dots->col))
                return false;
        }
        if (!wl_expect(ps, WL_TK_RBRACK, "']'"))
            return false;
    }
    const struct wl_tok *dot = wl_peek(ps);
    if (dot->kind == WL_TK_DOT) {
        wl_take(ps);
        return parse_word(ps, a, allow_word, dot->col);
    }
    return true;
}

/* ------------------------------------------------------------- arguments */

static int cmp_of(const struct wl_tok *t)
{
    for (int c = 0; c < WL_CMP_COUNT && t->kind != WL_TK_NAME && t->kind != WL_TK_INT; c++) {
        const char *s = wl_cmp_text((enum wl_cmp)c);
        if ((size_t)t->len == strlen(s) && memcmp(t->text, s, strlen(s)) == 0)
            return c;
    }
    return -1;
}

static int state_of(const struct wl_tok *t)
{
    for (int s = 0; s < WL_STATE_COUNT; s++)
        if (wl_tok_is(t, wl_state_text((enum wl_state)s)))
            return s;
    return -1;
}

static bool parse_label(struct wl_parser *ps, struct wl_arg *arg)
{
    const struct wl_tok *t = wl_take(ps);
    struct wl_names *labels = &ps->p->labels;
    arg->small = wl_names_find(labels, t->text, (size_t)t->len);
    if (arg->small >= 0)
        return true;
    if (labels->n >= WL_MAX_LABELS) {
        wl_perr(ps, t->col, "too many labels (at most %d, WL_MAX_LABELS)", WL_MAX_LABELS);
        ps->stop = true;
        return false;
    }
    arg->small = wl_names_add(labels, t->text, (size_t)t->len);
    return true;
}

static bool check_count(struct wl_parser *ps, int e, int64_t min, const char *what)
{
    const struct wl_expr *x = &ps->p->exprs[e];
    if (!x->is_const || x->value >= min)
        return true;
    wl_perr(ps, x->col, "%s must be at least %lld, found %lld", what, (long long)min,
            (long long)x->value);
    return false;
}

static bool starts_expr(const struct wl_tok *t)
{
    return t->kind == WL_TK_INT || t->kind == WL_TK_NAME || t->kind == WL_TK_LPAREN ||
           t->kind == WL_TK_MINUS || t->kind == WL_TK_BANG || t->kind == WL_TK_TILDE;
}

static bool parse_expr_arg(struct wl_parser *ps, char kind, struct wl_arg *arg)
{
    arg->expr = wl_parse_expr(ps);
    if (arg->expr < 0)
        return false;
    if (kind == 'N')
        return check_count(ps, arg->expr, 1, "the number of lines");
    if (kind == 'Y')
        return check_count(ps, arg->expr, 0, "the number of cycles");
    return true;
}

static void arg_error(struct wl_parser *ps, int op, char kind)
{
    const struct wl_tok *t = wl_peek(ps);
    char buf[64];
    const char *minus =
        ps->minus_hint && strchr("VNY", kind) && (t->kind == WL_TK_END || t->kind == WL_TK_ARROW)
            ? "; a negative argument after another needs parentheses: (-1)"
            : "";
    if (t->kind == WL_TK_END)
        wl_perr(ps, t->col, "'%s' lacks %s%s (usage: %s)", ops[op].name, kind_text(kind), minus,
                ops[op].usage);
    else
        wl_perr(ps, t->col, "'%s' expects %s here, found %s%s (usage: %s)", ops[op].name,
                kind_text(kind),
                kind == 'C' && wl_cmp_slip(ps) ? wl_cmp_slip(ps)
                                               : wl_tok_describe(t, buf, sizeof buf),
                minus, ops[op].usage);
}

/* Whether t can start an argument of this kind. */
static bool fits(const struct wl_tok *t, char kind)
{
    switch (kind) {
    case 'A':
    case 'R':
    case 'B':
    case 'L':
    case 'G':
        return t->kind == WL_TK_NAME;
    case 'C':
        return cmp_of(t) >= 0;
    case 'S':
        return state_of(t) >= 0;
    default:
        return starts_expr(t);
    }
}

static bool parse_target(struct wl_parser *ps, struct wl_arg *arg);

static bool parse_arg(struct wl_parser *ps, int op, char kind, struct wl_arg *arg)
{
    static const enum wl_arg_kind kinds[] = {
        ['A'] = WL_ARG_WORD,  ['R'] = WL_ARG_WORD,   ['B'] = WL_ARG_LINE, ['V'] = WL_ARG_VALUE,
        ['N'] = WL_ARG_COUNT, ['Y'] = WL_ARG_CYCLES, ['C'] = WL_ARG_CMP,  ['L'] = WL_ARG_LABEL,
        ['S'] = WL_ARG_STATE, ['G'] = WL_ARG_REG};
    *arg = (struct wl_arg){.kind = kinds[(unsigned char)kind],
                           .col = wl_peek(ps)->col,
                           .addr = {-1, -1, -1, -1},
                           .expr = -1};
    if (!fits(wl_peek(ps), kind)) {
        arg_error(ps, op, kind);
        return false;
    }
    switch (kind) {
    case 'A':
    case 'R':
    case 'B':
        return parse_addr(ps, &arg->addr, kind != 'B', kind == 'R');
    case 'L':
        return parse_label(ps, arg);
    case 'C':
        arg->small = cmp_of(wl_take(ps));
        return true;
    case 'S':
        arg->small = state_of(wl_take(ps));
        return true;
    case 'G':
        return parse_target(ps, arg);
    default:
        return parse_expr_arg(ps, kind, arg);
    }
}

/* Copies of N lines must stay inside their arrays (when everything is constant). */
static bool check_copy(struct wl_parser *ps, const struct wl_stmt *s)
{
    const struct wl_expr *n = &ps->p->exprs[s->arg[2].expr];
    for (int i = 0; i < 2 && n->is_const; i++) {
        const struct wl_addr *a = &s->arg[i].addr;
        const struct wl_decl *d = &ps->p->decls[a->decl];
        const struct wl_expr *x = a->index >= 0 ? &ps->p->exprs[a->index] : NULL;
        int64_t first = x ? x->value : 0;
        /* compared without first + N, which may overflow */
        if ((x && !x->is_const) || (first <= d->pub.count && n->value <= d->pub.count - first))
            continue;
        wl_perr(ps, s->arg[i].col, "%lld lines from %s[%lld] run past the end of '%s' (0..%lld)",
                (long long)n->value, d->pub.name, (long long)first, d->pub.name,
                (long long)(d->pub.count - 1));
        return false;
    }
    return true;
}

static bool parse_args(struct wl_parser *ps, int op, struct wl_stmt *s)
{
    const char *sig = ops[op].args;
    for (s->nargs = 0; sig[s->nargs]; s->nargs++)
        if (!parse_arg(ps, op, sig[s->nargs], &s->arg[s->nargs]))
            return false;
    return strchr(sig, 'N') == NULL || check_copy(ps, s);
}

/* ------------------------------------------------------------- registers */

/* The register named by token t, added if new; -1 after an error. */
static int reg_of(struct wl_parser *ps, const struct wl_tok *t)
{
    if (!wl_check_name(ps, t, "register"))
        return -1;
    if (wl_scope_find(ps, t->text, (size_t)t->len) >= 0) {
        wl_perr(ps, t->col, "register '%.*s' shadows the loop variable %.*s", t->len, t->text,
                t->len, t->text);
        return -1;
    }
    struct wl_names *regs = &ps->p->regs;
    int reg = wl_names_find(regs, t->text, (size_t)t->len);
    if (reg >= 0)
        return reg;
    if (regs->n >= WL_MAX_REGS) {
        wl_perr(ps, t->col, "too many registers (at most %d, WL_MAX_REGS)", WL_MAX_REGS);
        return -1;
    }
    return wl_names_add(regs, t->text, (size_t)t->len);
}

/* let's `REG =`: the name is checked now, bound after the value is parsed
 * (bind_target), so that `let i = i + 1` needs an earlier i. */
static bool parse_target(struct wl_parser *ps, struct wl_arg *arg)
{
    const struct wl_tok *t = wl_take(ps);
    arg->small = ps->pos - 1; /* the name's token, until bind_target */
    if (!wl_check_name(ps, t, "register"))
        return false;
    return wl_expect(ps, WL_TK_ASSIGN, "'=' after the register (let REG = VALUE)");
}

/* Binds let's register, parsed by parse_target (args before s->nargs are
 * whole). */
static bool bind_target(struct wl_parser *ps, struct wl_stmt *s)
{
    for (int i = 0; i < s->nargs; i++) {
        if (s->arg[i].kind != WL_ARG_REG)
            continue;
        s->reg = reg_of(ps, &ps->toks[s->arg[i].small]);
        s->arg[i].small = s->reg;
        return s->reg >= 0;
    }
    return true;
}

static bool parse_reg(struct wl_parser *ps, int op, struct wl_stmt *s)
{
    const struct wl_tok *arrow = wl_peek(ps);
    if (!wl_accept(ps, WL_TK_ARROW))
        return true;
    if (!ops[op].reg) {
        wl_perr(ps, arrow->col, "'%s' gives no value to keep: '->' is not allowed here",
                ops[op].name);
        return false;
    }
    const struct wl_tok *t = wl_peek(ps);
    if (!wl_expect(ps, WL_TK_NAME, "a register name after '->'"))
        return false;
    s->reg = reg_of(ps, t);
    return s->reg >= 0;
}

/* ------------------------------------------------------------- statement */

static int find_op(const struct wl_tok *t)
{
    for (int i = 0; i < WL_OP_COUNT; i++)
        if (wl_tok_is(t, ops[i].name))
            return i;
    return -1;
}

void wl_keep_failed_reg(struct wl_parser *ps)
{
    for (int i = ps->ntoks - 2; i >= 0; i--) {
        const struct wl_tok *t = &ps->toks[i + 1];
        if (ps->toks[i].kind != WL_TK_ARROW || t->kind != WL_TK_NAME)
            continue;
        struct wl_names *regs = &ps->p->regs;
        if (wl_names_find(regs, t->text, (size_t)t->len) < 0 && regs->n < WL_MAX_REGS &&
            wl_scope_find(ps, t->text, (size_t)t->len) < 0)
            wl_names_add(regs, t->text, (size_t)t->len);
        return;
    }
}

bool wl_line_has_colon(const struct wl_parser *ps)
{
    for (int i = 0; i < ps->ntoks; i++)
        if (ps->toks[i].kind == WL_TK_COLON)
            return true;
    return false;
}

/* A line that is no statement at all: no `:`. */
static bool not_a_statement(struct wl_parser *ps)
{
    const struct wl_tok *t = wl_peek(ps);
    char buf[64], hint[96] = "";
    if (find_op(t) >= 0) {
        wl_perr(ps, t->col, "'%.*s' lacks its thread selector (write e.g. 'all: %.*s ...')", t->len,
                t->text, t->len, t->text);
        return false;
    }
    size_t words = ps->version >= 2 ? SIM_COUNT_OF(statement_words) : 4; /* v1: no if, while */
    if (t->kind == WL_TK_NAME)
        wl_suggest(hint, sizeof hint, t->text, (size_t)t->len, statement_words, words);
    wl_perr(ps, t->col,
            "expected a statement (threads, pin, line, for, %s'}' or 'SELECTOR: OP ARGS'), "
            "found %s%s",
            ps->version >= 2 ? "if, while, " : "", wl_tok_describe(t, buf, sizeof buf), hint);
    return false;
}

static int parse_opname(struct wl_parser *ps)
{
    const struct wl_tok *t = wl_peek(ps);
    int op = find_op(t);
    if (op >= 0) {
        char what[32];
        snprintf(what, sizeof what, "'%s'", ops[op].name);
        if (ops[op].since > ps->version && !wl_need_v2(ps, t->col, what))
            return -1;
        wl_take(ps);
        return op;
    }
    char buf[64], hint[96] = "";
    if (wl_tok_is(t, "if") || wl_tok_is(t, "while") || wl_tok_is(t, "else") || wl_tok_is(t, "for"))
        snprintf(hint, sizeof hint,
                 " (a block takes no selector: write '%.*s ...' alone, and "
                 "a selector on each statement in it)",
                 t->len, t->text);
    else if (t->kind == WL_TK_NAME)
        wl_suggest(hint, sizeof hint, t->text, (size_t)t->len, op_names, WL_OP_COUNT);
    wl_perr(ps, t->col, "unknown operation %s%s", wl_tok_describe(t, buf, sizeof buf), hint);
    return -1;
}

bool wl_parse_op_stmt(struct wl_parser *ps)
{
    if (!wl_line_has_colon(ps))
        return not_a_statement(ps);
    struct wl_stmt s = {.kind = WL_S_OP, .line = ps->line, .col = wl_peek(ps)->col, .reg = -1};
    if (!parse_selector(ps, &s.sel))
        return false;
    int op = parse_opname(ps);
    if (op >= 0 && !parse_args(ps, op, &s)) {
        bind_target(ps, &s); /* `let a = <an error>`: a is still a register (no follow-on errors) */
        return false;
    }
    if (op < 0 || !bind_target(ps, &s) || !parse_reg(ps, op, &s))
        return false;
    s.op = (enum wl_opcode)op;
    int i = wl_add_stmt(ps, WL_S_OP, s.col);
    if (i < 0)
        return false;
    s.match = s.cond = -1;
    s.in_while = ps->p->stmts[i].in_while;
    s.loop = ps->p->stmts[i].loop;
    ps->p->stmts[i] = s;
    return true;
}
