/*
 * trace_parse_expr.c -- parsing expressions and resolving the names in them.
 *
 *     sum     := product { (+|-) product }
 *     product := unary { (*|/|%) unary }
 *     unary   := - unary | primary
 *     primary := INTEGER | NAME | ( sum )
 *
 * A NAME is t, n, a loop variable in scope (innermost first) or a register
 * set earlier in the file. Constant subtrees are folded into each node's
 * value while the tree keeps its written shape; division by a constant zero
 * and overflow in a constant are errors here. Recursion and tree height are
 * bounded by WL_MAX_EXPR_DEPTH, so no input can exhaust the stack.
 */
#include "trace_impl.h"

#include <string.h>

static const char *const reserved[] = {"t",   "n",    "all", "others", "threads",
                                       "pin", "line", "for", "home"};

bool wl_reserved(const char *name, size_t len)
{
    for (size_t i = 0; i < SIM_COUNT_OF(reserved); i++)
        if (strlen(reserved[i]) == len && memcmp(reserved[i], name, len) == 0)
            return true;
    return false;
}

bool wl_check_name(struct wl_parser *ps, const struct wl_tok *t, const char *what)
{
    if (!wl_reserved(t->text, (size_t)t->len))
        return true;
    wl_perr(ps, t->col, "'%.*s' is a reserved word and cannot name a %s", t->len, t->text, what);
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

/* Folds node e if its operands are constants; reports errors. */
static bool fold(struct wl_parser *ps, int e)
{
    struct wl_expr *x = &ps->p->exprs[e];
    const struct wl_expr *a = &ps->p->exprs[x->a];
    const struct wl_expr *b = x->b >= 0 ? &ps->p->exprs[x->b] : NULL;
    if ((x->kind == WL_E_DIV || x->kind == WL_E_MOD) && b->is_const && b->value == 0) {
        wl_perr(ps, x->opcol, "division by zero");
        return false;
    }
    if (!a->is_const || (b && !b->is_const))
        return true;
    if (wl_arith(x->kind, a->value, b ? b->value : 0, &x->value) != WL_ARITH_OK) {
        wl_perr(ps, x->opcol, "integer overflow in a constant expression (beyond 64-bit signed)");
        return false;
    }
    x->is_const = true;
    return true;
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
    int da = ps->p->exprs[a].depth, db = b >= 0 ? ps->p->exprs[b].depth : 0;
    x->depth = 1 + (da > db ? da : db);
    if (x->depth > WL_MAX_EXPR_DEPTH) {
        wl_perr(ps, col, "expression nests too deeply (more than %d levels, WL_MAX_EXPR_DEPTH)",
                WL_MAX_EXPR_DEPTH);
        return -1;
    }
    return fold(ps, e) ? e : -1;
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
    wl_perr(ps, t->col,
            "unknown name '%.*s' (not t, n, a loop variable in scope, or a register set by an "
            "earlier '-> %.*s')",
            t->len, t->text, t->len, t->text);
    return -1;
}

/* ------------------------------------------------------------- grammar */

static int parse_sum(struct wl_parser *ps);

static bool nest(struct wl_parser *ps, int col)
{
    if (++ps->expr_nesting <= WL_MAX_EXPR_DEPTH)
        return true;
    wl_perr(ps, col, "expression nests too deeply (more than %d levels, WL_MAX_EXPR_DEPTH)",
            WL_MAX_EXPR_DEPTH);
    return false;
}

static int parse_paren(struct wl_parser *ps, const struct wl_tok *open)
{
    int e = nest(ps, open->col) ? parse_sum(ps) : -1;
    ps->expr_nesting--;
    if (e < 0 || !wl_expect(ps, WL_TK_RPAREN, "')'"))
        return -1;
    return e;
}

static int parse_primary(struct wl_parser *ps)
{
    const struct wl_tok *t = wl_take(ps);
    char buf[64];
    switch (t->kind) {
    case WL_TK_INT:
        return wl_new_const(ps, t->value, t->col);
    case WL_TK_NAME:
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

static int parse_unary(struct wl_parser *ps)
{
    const struct wl_tok *t = wl_peek(ps);
    if (t->kind != WL_TK_MINUS)
        return parse_primary(ps);
    wl_take(ps);
    int a = nest(ps, t->col) ? parse_unary(ps) : -1;
    ps->expr_nesting--;
    return a < 0 ? -1 : make_op(ps, WL_E_NEG, t->col, t->col, a, -1);
}

static enum wl_expr_kind binop_of(enum wl_tok_kind k, bool sum)
{
    if (sum)
        return k == WL_TK_PLUS ? WL_E_ADD : k == WL_TK_MINUS ? WL_E_SUB : WL_E_CONST;
    return k == WL_TK_STAR      ? WL_E_MUL
           : k == WL_TK_SLASH   ? WL_E_DIV
           : k == WL_TK_PERCENT ? WL_E_MOD
                                : WL_E_CONST;
}

/* One precedence level: operands by `operand`, operators by binop_of(sum). */
static int parse_level(struct wl_parser *ps, bool sum)
{
    int col = wl_peek(ps)->col;
    int a = sum ? parse_level(ps, false) : parse_unary(ps);
    for (;;) {
        const struct wl_tok *t = wl_peek(ps);
        enum wl_expr_kind k = binop_of(t->kind, sum);
        if (a < 0 || k == WL_E_CONST)
            return a;
        wl_take(ps);
        if (k == WL_E_SUB && t->space_before && !wl_peek(ps)->space_before)
            ps->minus_hint = true; /* `x -1`: perhaps meant as two arguments */
        int b = sum ? parse_level(ps, false) : parse_unary(ps);
        a = b < 0 ? -1 : make_op(ps, k, col, t->col, a, b);
    }
}

static int parse_sum(struct wl_parser *ps)
{
    return parse_level(ps, true);
}

int wl_parse_expr(struct wl_parser *ps)
{
    return parse_sum(ps);
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
