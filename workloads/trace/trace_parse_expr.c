/*
 * trace_parse_expr.c -- parsing expressions and resolving the names in them.
 *
 *     expr      := binary(1)
 *     binary(p) := unary { OP binary(prec(OP) + 1) }   OP of WL_BINOPS, prec(OP) >= p
 *     unary     := (- | ! | ~) unary | primary
 *     primary   := INTEGER | NAME | ( expr ) | (min | max) ( expr , expr )
 *
 * C's precedence, every binary operator left-associative: || && | ^ &
 * (== !=) (< <= > >=) (<< >>) (+ -) (* / %). Version 1 has + - * / % and
 * unary - only: there a comparison ends the expression (as it always did)
 * and any other version-2 operator is an error saying it needs ccsim-trace 2.
 *
 * Types: a node is a number or a condition (comparisons, && || !). Numbers
 * go into arithmetic, comparisons and arguments; conditions into && || !
 * and the conditions of if and while. A mix-up is a type error at the
 * operator (or at the expression, for an argument or a condition).
 *
 * A NAME is t, n, a loop variable in scope (innermost first) or a register
 * set earlier in the file. Constant subtrees are folded into each node's
 * value while the tree keeps its written shape; division by a constant zero,
 * a constant shift count outside 0..63 and overflow in a constant are errors
 * here. Recursion and tree height are bounded by WL_MAX_EXPR_DEPTH, so no
 * input can exhaust the stack.
 */
#include "trace_impl.h"

#include <string.h>

static const char *const reserved[] = {"t",   "n",    "all", "others", "threads",
                                       "pin", "line", "for", "home"};
/* Reserved in version 2 only: a version-1 file may use them as names. */
static const char *const reserved_v2[] = {"if", "else", "while", "let", "min", "max"};

static bool in_list(const char *const *words, size_t n, const char *name, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(words[i]) == len && memcmp(words[i], name, len) == 0)
            return true;
    return false;
}

bool wl_reserved(const char *name, size_t len)
{
    return in_list(reserved, SIM_COUNT_OF(reserved), name, len);
}

bool wl_check_name(struct wl_parser *ps, const struct wl_tok *t, const char *what)
{
    size_t len = (size_t)t->len;
    if (!wl_reserved(t->text, len) &&
        !(ps->version >= 2 && in_list(reserved_v2, SIM_COUNT_OF(reserved_v2), t->text, len)))
        return true;
    wl_perr(ps, t->col, "'%.*s' is a reserved word and cannot name a %s", t->len, t->text, what);
    return false;
}

bool wl_need_v2(struct wl_parser *ps, int col, const char *what)
{
    if (ps->version >= 2)
        return true;
    wl_perr(ps, col, "%s needs ccsim-trace 2 (this file's header says ccsim-trace %d)", what,
            ps->version);
    return false;
}

int wl_scope_find(const struct wl_parser *ps, const char *name, size_t len)
{
    for (int i = ps->depth - 1; i >= 0; i--)
        if (strlen(ps->scope[i].name) == len && memcmp(ps->scope[i].name, name, len) == 0)
            return i;
    return -1;
}

/* ------------------------------------------------------------- nodes */

static int new_node(struct wl_parser *ps, enum wl_expr_kind kind, int col)
{
    struct wl_program *p = ps->p;
    if (p->nexprs >= WL_MAX_EXPRS) {
        if (!ps->stop)
            wl_perr(ps, col, "program too large: more than %d expression nodes (WL_MAX_EXPRS)",
                    WL_MAX_EXPRS);
        ps->stop = true;
        return -1;
    }
    p->exprs = wl_grow(p->exprs, &p->cap_exprs, p->nexprs + 1, sizeof *p->exprs);
    p->exprs[p->nexprs] =
        (struct wl_expr){.kind = kind, .col = col, .opcol = col, .depth = 1, .a = -1, .b = -1};
    return p->nexprs++;
}

int wl_new_const(struct wl_parser *ps, int64_t value, int col)
{
    int e = new_node(ps, WL_E_CONST, col);
    if (e >= 0) {
        ps->p->exprs[e].is_const = true;
        ps->p->exprs[e].value = value;
    }
    return e;
}

/* Node x cannot be computed: the error waits for the whole expression
 * (report_deferred), which a constant && or || may skip. */
static void defer(struct wl_expr *x, int err, int col, int64_t arg)
{
    x->cerr = err;
    x->cerr_col = col;
    x->cerr_arg = arg;
}

/* An operand's deferred error, passed up to x. */
static bool inherit(struct wl_expr *x, const struct wl_expr *o)
{
    if (!o || !o->cerr)
        return false;
    defer(x, o->cerr, o->cerr_col, o->cerr_arg);
    return true;
}

/* && and || skip their right side where the left decides: a constant
 * left that decides makes the node that constant, whatever the right; a
 * left known only at run time leaves the right's error to the run (it may
 * never be evaluated). True if the node is settled here. */
static bool short_circuit(struct wl_expr *x, const struct wl_expr *a, const struct wl_expr *b)
{
    if (x->kind != WL_E_LAND && x->kind != WL_E_LOR)
        return false;
    if (a->cerr)
        return false; /* the left is always evaluated */
    if (a->is_const && (a->value != 0) == (x->kind == WL_E_LOR)) {
        x->is_const = true;
        x->value = a->value != 0;
        return true;
    }
    return b->cerr != 0 && !a->is_const; /* the run evaluates the right, if ever */
}

/* Folds node e if its operands are constants. A constant part that cannot
 * be computed (a zero divisor, a shift count out of range, an overflow) is
 * deferred, not folded: the run evaluates it if it is ever reached. */
static void fold(struct wl_parser *ps, int e)
{
    struct wl_expr *x = &ps->p->exprs[e];
    const struct wl_expr *a = &ps->p->exprs[x->a];
    const struct wl_expr *b = x->b >= 0 ? &ps->p->exprs[x->b] : NULL;
    if (b && short_circuit(x, a, b))
        return;
    if (inherit(x, a) || inherit(x, b))
        return;
    bool shifts = x->kind == WL_E_SHL || x->kind == WL_E_SHR;
    if (b && b->is_const && (x->kind == WL_E_DIV || x->kind == WL_E_MOD) && b->value == 0)
        defer(x, WL_ARITH_DIV0, x->opcol, 0);
    else if (b && b->is_const && shifts && (b->value < 0 || b->value > 63))
        defer(x, WL_ARITH_SHIFT, x->opcol, b->value);
    if (x->cerr || !a->is_const || (b && !b->is_const))
        return;
    int err = wl_arith(x->kind, a->value, b ? b->value : 0, &x->value);
    if (err != WL_ARITH_OK)
        defer(x, err, x->opcol, 0);
    else
        x->is_const = true;
}

/* The whole expression e: a deferred error no && or || skipped is one. */
static int report_deferred(struct wl_parser *ps, int e)
{
    const struct wl_expr *x = e >= 0 ? &ps->p->exprs[e] : NULL;
    if (!x || !x->cerr)
        return e;
    if (x->cerr == WL_ARITH_DIV0)
        wl_perr(ps, x->cerr_col, "division by zero");
    else if (x->cerr == WL_ARITH_SHIFT)
        wl_perr(ps, x->cerr_col, "shift count %lld is out of range (0..63)",
                (long long)x->cerr_arg);
    else
        wl_perr(ps, x->cerr_col,
                "integer overflow in a constant expression (beyond 64-bit signed)");
    return -1;
}

/* "its left side", "its operand", ... for type errors. */
static const char *side(enum wl_expr_kind k, bool right)
{
    if (k == WL_E_MIN || k == WL_E_MAX)
        return right ? "its second value" : "its first value";
    if (wl_expr_is_unary(k))
        return "its operand";
    return right ? "its right side" : "its left side";
}

/* Operand o of x has the type x's operator takes. */
static bool operand_type_ok(struct wl_parser *ps, const struct wl_expr *x, int o, bool right)
{
    char cls = wl_expr_class(x->kind);
    bool want_cond = cls == 'l';
    if (ps->p->exprs[o].is_cond == want_cond)
        return true;
    const char *op = wl_expr_op_text(x->kind);
    if (want_cond)
        wl_perr(ps, x->opcol,
                "type error: '%s' takes conditions, and %s is a number (compare it: x != 0)", op,
                side(x->kind, right));
    else if (cls == 'c')
        wl_perr(ps, x->opcol,
                "type error: '%s' compares numbers, and %s is a condition (a < b < c is no "
                "range test: write a < b && b < c)",
                op, side(x->kind, right));
    else
        wl_perr(ps, x->opcol, "type error: '%s' takes numbers, and %s is a condition", op,
                side(x->kind, right));
    return false;
}

static int make_op(struct wl_parser *ps, enum wl_expr_kind kind, int col, int opcol, int a, int b)
{
    int e = new_node(ps, kind, col);
    if (e < 0)
        return -1;
    struct wl_expr *x = &ps->p->exprs[e];
    x->opcol = opcol;
    x->a = a;
    x->b = b;
    x->is_cond = wl_expr_class(kind) != 'a';
    if (!operand_type_ok(ps, x, a, false) || (b >= 0 && !operand_type_ok(ps, x, b, true)))
        return -1;
    int da = ps->p->exprs[a].depth, db = b >= 0 ? ps->p->exprs[b].depth : 0;
    x->depth = 1 + (da > db ? da : db);
    if (x->depth > WL_MAX_EXPR_DEPTH) {
        wl_perr(ps, col, "expression nests too deeply (more than %d levels, WL_MAX_EXPR_DEPTH)",
                WL_MAX_EXPR_DEPTH);
        return -1;
    }
    fold(ps, e);
    return e;
}

/* ------------------------------------------------------------- names */

static int loop_node(struct wl_parser *ps, int slot, int col)
{
    int e = new_node(ps, WL_E_LOOP, col);
    if (e >= 0) {
        ps->p->exprs[e].a = slot;
        ps->p->exprs[e].b = ps->scope[slot].var;
    }
    return e;
}

static bool is_call_name(const struct wl_tok *t)
{
    return wl_tok_is(t, "min") || wl_tok_is(t, "max");
}

/* Whether t names a declared line (an expression reads no memory). */
static bool is_line_name(const struct wl_parser *ps, const struct wl_tok *t)
{
    for (int i = 0; i < ps->p->ndecls; i++)
        if (strlen(ps->p->decls[i].pub.name) == (size_t)t->len &&
            strncmp(ps->p->decls[i].pub.name, t->text, (size_t)t->len) == 0)
            return true;
    return false;
}

static int unknown_name(struct wl_parser *ps, const struct wl_tok *t)
{
    char let[WL_MAX_NAME + 16] = "", hint[96] = "";
    if (is_line_name(ps, t) && ps->in_selector) {
        wl_perr(ps, t->col,
                "'%.*s' is a line, not a thread: a selector names threads (all:, others:, 0,2,5 "
                "or 1..3)",
                t->len, t->text);
        return -1;
    }
    if (is_line_name(ps, t)) {
        wl_perr(ps, t->col,
                "'%.*s' is a line, not a number: an expression reads no memory (in a statement, "
                "read it into a register first: read %.*s -> r, then use r)",
                t->len, t->text, t->len, t->text);
        return -1;
    }
    static const char *const selectors[] = {"all", "others"};
    if (ps->version >= 2)
        snprintf(let, sizeof let, " or 'let %.*s ='", t->len, t->text);
    else if (is_call_name(t) && wl_peek(ps)->kind == WL_TK_LPAREN)
        snprintf(hint, sizeof hint, "; min(a, b) and max(a, b) need ccsim-trace 2");
    if (ps->in_selector && (wl_tok_is(t, "all") || wl_tok_is(t, "others"))) {
        wl_perr(ps, t->col,
                "'%.*s' selects on its own ('%.*s:'); in a list, name the threads (0,2,5 or 1..3)",
                t->len, t->text, t->len, t->text);
        return -1;
    }
    if (ps->in_selector) /* a misspelt all: or others: */
        sim_suggest(hint, sizeof hint, t->text, (size_t)t->len, selectors, SIM_COUNT_OF(selectors),
                    NULL);
    wl_perr(ps, t->col,
            "unknown name '%.*s' (not t, n, a loop variable in scope, or a register set by an "
            "earlier '-> %.*s'%s)%s",
            t->len, t->text, t->len, t->text, let, hint);
    return -1;
}

static int name_node(struct wl_parser *ps, const struct wl_tok *t)
{
    size_t len = (size_t)t->len;
    if (wl_tok_is(t, "t")) {
        if (!ps->in_selector)
            return new_node(ps, WL_E_T, t->col);
        wl_perr(ps, t->col, "t cannot be used in a selector (it is the thread being selected)");
        return -1;
    }
    if (wl_tok_is(t, "n")) {
        int e = wl_new_const(ps, ps->p->threads, t->col);
        if (e >= 0)
            ps->p->exprs[e].kind = WL_E_N;
        return e;
    }
    int slot = wl_scope_find(ps, t->text, len);
    if (slot >= 0)
        return loop_node(ps, slot, t->col);
    int reg = wl_names_find(&ps->p->regs, t->text, len);
    if (reg >= 0) {
        int e = new_node(ps, WL_E_REG, t->col);
        if (e >= 0)
            ps->p->exprs[e].a = reg;
        return e;
    }
    return unknown_name(ps, t);
}

/* ------------------------------------------------------------- grammar */

static int parse_binary(struct wl_parser *ps, int min_prec);

static bool nest(struct wl_parser *ps, int col)
{
    if (++ps->expr_nesting <= WL_MAX_EXPR_DEPTH)
        return true;
    wl_perr(ps, col, "expression nests too deeply (more than %d levels, WL_MAX_EXPR_DEPTH)",
            WL_MAX_EXPR_DEPTH);
    return false;
}

/* A whole expression inside parentheses or a call (either type). */
static int parse_nested(struct wl_parser *ps, int col)
{
    int e = nest(ps, col) ? parse_binary(ps, 1) : -1;
    ps->expr_nesting--;
    return e;
}

static int parse_paren(struct wl_parser *ps, const struct wl_tok *open)
{
    int e = parse_nested(ps, open->col);
    if (e < 0 || !wl_expect(ps, WL_TK_RPAREN, "')'"))
        return -1;
    return e;
}

/* min(a, b) and max(a, b). */
static int parse_call(struct wl_parser *ps, const struct wl_tok *name)
{
    enum wl_expr_kind k = wl_tok_is(name, "min") ? WL_E_MIN : WL_E_MAX;
    const struct wl_tok *open = wl_peek(ps);
    if (!wl_expect(ps, WL_TK_LPAREN,
                   k == WL_E_MIN ? "'(' after min: min(a, b)" : "'(' after max: max(a, b)"))
        return -1;
    int a = parse_nested(ps, open->col);
    if (a < 0 || !wl_expect(ps, WL_TK_COMMA, "',' between the two values of min or max"))
        return -1;
    int b = parse_nested(ps, open->col);
    if (b < 0 || !wl_expect(ps, WL_TK_RPAREN, "')'"))
        return -1;
    return make_op(ps, k, name->col, name->col, a, b);
}

static int parse_primary(struct wl_parser *ps)
{
    const struct wl_tok *t = wl_take(ps);
    char buf[64];
    switch (t->kind) {
    case WL_TK_INT:
        return wl_new_const(ps, t->value, t->col);
    case WL_TK_NAME:
        if (ps->version >= 2 && is_call_name(t))
            return parse_call(ps, t);
        return name_node(ps, t);
    case WL_TK_LPAREN:
        return parse_paren(ps, t);
    default:
        wl_perr(ps, t->col,
                "expected an expression (a number, t, n, a loop variable or a register), "
                "found %s",
                wl_tok_describe(t, buf, sizeof buf));
        return -1;
    }
}

static enum wl_expr_kind unop_of(enum wl_tok_kind k)
{
    return k == WL_TK_MINUS   ? WL_E_NEG
           : k == WL_TK_BANG  ? WL_E_NOT
           : k == WL_TK_TILDE ? WL_E_BNOT
                              : WL_E_CONST;
}

static int parse_unary(struct wl_parser *ps)
{
    const struct wl_tok *t = wl_peek(ps);
    enum wl_expr_kind k = unop_of(t->kind);
    if (k == WL_E_CONST)
        return parse_primary(ps);
    if (k != WL_E_NEG && !wl_need_v2(ps, t->col, k == WL_E_NOT ? "'!'" : "'~'"))
        return -1;
    wl_take(ps);
    int a = nest(ps, t->col) ? parse_unary(ps) : -1;
    ps->expr_nesting--;
    return a < 0 ? -1 : make_op(ps, k, t->col, t->col, a, -1);
}

static const struct {
    enum wl_tok_kind tok;
    enum wl_expr_kind kind;
} binop_toks[] = {
    {WL_TK_PLUS, WL_E_ADD},  {WL_TK_MINUS, WL_E_SUB},   {WL_TK_STAR, WL_E_MUL},
    {WL_TK_SLASH, WL_E_DIV}, {WL_TK_PERCENT, WL_E_MOD}, {WL_TK_SHL, WL_E_SHL},
    {WL_TK_SHR, WL_E_SHR},   {WL_TK_LT, WL_E_LT},       {WL_TK_LE, WL_E_LE},
    {WL_TK_GT, WL_E_GT},     {WL_TK_GE, WL_E_GE},       {WL_TK_EQEQ, WL_E_EQ},
    {WL_TK_NE, WL_E_NE},     {WL_TK_AMP, WL_E_BAND},    {WL_TK_CARET, WL_E_BXOR},
    {WL_TK_PIPE, WL_E_BOR},  {WL_TK_ANDAND, WL_E_LAND}, {WL_TK_OROR, WL_E_LOR},
};

static const int binop_prec[] = {
#define WL_X_ROW(e, text, prec, cls) [WL_E_##e] = prec,
    WL_BINOPS(WL_X_ROW)
#undef WL_X_ROW
};

/* The binary operator token t writes, or WL_E_CONST. In version 1 a
 * comparison ends the expression (the other version-2 operators are taken,
 * to say they need version 2). */
static enum wl_expr_kind binop_of(const struct wl_parser *ps, const struct wl_tok *t)
{
    for (size_t i = 0; i < SIM_COUNT_OF(binop_toks); i++) {
        enum wl_expr_kind k = binop_toks[i].kind;
        if (binop_toks[i].tok == t->kind)
            return ps->version >= 2 || wl_expr_class(k) != 'c' ? k : WL_E_CONST;
    }
    return WL_E_CONST;
}

static int parse_binary(struct wl_parser *ps, int min_prec)
{
    int col = wl_peek(ps)->col;
    int a = parse_unary(ps);
    for (;;) {
        const struct wl_tok *t = wl_peek(ps);
        enum wl_expr_kind k = binop_of(ps, t);
        if (a < 0 || k == WL_E_CONST || binop_prec[k] < min_prec)
            return a;
        char what[16];
        snprintf(what, sizeof what, "'%s'", wl_expr_op_text(k));
        if (k > WL_E_MOD && !wl_need_v2(ps, t->col, what))
            return -1;
        wl_take(ps);
        if (k == WL_E_SUB && t->space_before && !wl_peek(ps)->space_before)
            ps->minus_hint = true; /* `x -1`: perhaps meant as two arguments */
        int b = parse_binary(ps, binop_prec[k] + 1);
        a = b < 0 ? -1 : make_op(ps, k, col, t->col, a, b);
    }
}

int wl_parse_expr(struct wl_parser *ps)
{
    int col = wl_peek(ps)->col;
    int e = report_deferred(ps, parse_binary(ps, 1));
    if (e < 0 || !ps->p->exprs[e].is_cond)
        return e;
    wl_perr(ps, col,
            "type error: a number is expected here, and this is a condition (a comparison, "
            "&& || or !)");
    return -1;
}

int wl_parse_cond(struct wl_parser *ps, const char *what)
{
    int col = wl_peek(ps)->col;
    int e = report_deferred(ps, parse_binary(ps, 1));
    if (e < 0 || ps->p->exprs[e].is_cond)
        return e;
    if (wl_cmp_slip(ps)) {
        wl_perr(ps, wl_peek(ps)->col, "the condition of %s: found %s", what, wl_cmp_slip(ps));
        return -1;
    }
    wl_perr(ps, col,
            "type error: the condition of %s is a number; it must be a comparison or && || ! "
            "of comparisons (e.g. r != 0)",
            what);
    return -1;
}

bool wl_parse_const(struct wl_parser *ps, const char *what, int *e, int64_t *value)
{
    int col = wl_peek(ps)->col;
    *e = wl_parse_expr(ps);
    if (*e < 0)
        return false;
    const struct wl_expr *x = &ps->p->exprs[*e];
    if (!x->is_const) {
        wl_perr(ps, col, "%s must be a constant (integers, n, + - * / %% and parentheses)", what);
        return false;
    }
    *value = x->value;
    return true;
}
