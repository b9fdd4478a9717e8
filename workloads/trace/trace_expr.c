/*
 * trace_expr.c -- expression trees once parsed: checked arithmetic,
 * evaluation for one thread, printing with the fewest parentheses that keep
 * the tree, and structural comparison.
 *
 * Arithmetic is 64-bit signed; overflow and division by zero are errors, never
 * undefined behaviour. Division truncates toward zero, % takes the dividend's
 * sign (as in C).
 */
#include "trace_impl.h"

#include <inttypes.h>
#include <string.h>

static const char binop_char[] = {
#define WL_X_ROW(e, ch, prec) [WL_E_##e] = ch,
    WL_BINOPS(WL_X_ROW)
#undef WL_X_ROW
};

static const int binop_prec[] = {
#define WL_X_ROW(e, ch, prec) [WL_E_##e] = prec,
    WL_BINOPS(WL_X_ROW)
#undef WL_X_ROW
};

bool wl_expr_is_binary(enum wl_expr_kind k)
{
    return k >= WL_E_ADD && k <= WL_E_MOD;
}

static enum wl_arith divide(enum wl_expr_kind k, int64_t a, int64_t b, int64_t *out)
{
    if (b == 0)
        return WL_ARITH_DIV0;
    if (a == INT64_MIN && b == -1)
        return WL_ARITH_OVERFLOW;
    *out = k == WL_E_DIV ? a / b : a % b;
    return WL_ARITH_OK;
}

enum wl_arith wl_arith(enum wl_expr_kind k, int64_t a, int64_t b, int64_t *out)
{
    bool over = false;
    switch (k) {
    case WL_E_NEG:
        over = __builtin_sub_overflow((int64_t)0, a, out);
        break;
    case WL_E_ADD:
        over = __builtin_add_overflow(a, b, out);
        break;
    case WL_E_SUB:
        over = __builtin_sub_overflow(a, b, out);
        break;
    case WL_E_MUL:
        over = __builtin_mul_overflow(a, b, out);
        break;
    case WL_E_DIV:
    case WL_E_MOD:
        return divide(k, a, b, out);
    default:
        *out = 0;
        break;
    }
    return over ? WL_ARITH_OVERFLOW : WL_ARITH_OK;
}

/* ------------------------------------------------------------- evaluation */

static bool leaf_value(const struct wl_expr *x, const struct wl_env *env, int64_t *out)
{
    switch (x->kind) {
    case WL_E_T:
        *out = env->thread;
        return true;
    case WL_E_LOOP:
        *out = env->loop[x->a];
        return true;
    case WL_E_REG:
        *out = env->reg[x->a];
        return true;
    default:
        return false;
    }
}

/* An operand: constants and leaves inline, deeper trees by recursion. */
static inline bool operand(const struct wl_program *p, int e, const struct wl_env *env,
                           int64_t *out, struct wl_fault *f)
{
    const struct wl_expr *x = &p->exprs[e];
    if (x->is_const) {
        *out = x->value;
        return true;
    }
    return leaf_value(x, env, out) || wl_expr_eval(p, e, env, out, f);
}

bool wl_expr_eval(const struct wl_program *p, int e, const struct wl_env *env, int64_t *out,
                  struct wl_fault *f)
{
    const struct wl_expr *x = &p->exprs[e];
    if (x->is_const) {
        *out = x->value;
        return true;
    }
    if (leaf_value(x, env, out))
        return true;
    int64_t a = 0, b = 0;
    if (!operand(p, x->a, env, &a, f))
        return false;
    if (x->kind != WL_E_NEG && !operand(p, x->b, env, &b, f))
        return false;
    if (x->kind == WL_E_ADD && !__builtin_add_overflow(a, b, out))
        return true; /* the common case, without the general switch */
    enum wl_arith r = wl_arith(x->kind, a, b, out);
    if (r == WL_ARITH_OK)
        return true;
    f->col = x->opcol;
    if (r == WL_ARITH_DIV0)
        snprintf(f->msg, sizeof f->msg, "division by zero (%" PRId64 " %c 0)", a,
                 binop_char[x->kind]);
    else
        snprintf(f->msg, sizeof f->msg, "integer overflow (beyond 64-bit signed)");
    return false;
}

/* ------------------------------------------------------------- printing */

static int prec(const struct wl_expr *x)
{
    if (wl_expr_is_binary(x->kind))
        return binop_prec[x->kind];
    return x->kind == WL_E_NEG ? 3 : 4;
}

static void print_leaf(FILE *f, const struct wl_program *p, const struct wl_expr *x)
{
    switch (x->kind) {
    case WL_E_CONST:
        fprintf(f, "%" PRId64, x->value);
        break;
    case WL_E_T:
        fputc('t', f);
        break;
    case WL_E_N:
        fputc('n', f);
        break;
    case WL_E_LOOP:
        fputs(p->vars.v[x->b], f); /* b: the variable's name */
        break;
    case WL_E_REG:
        fputs(p->regs.v[x->a], f);
        break;
    default:
        break;
    }
}

static void print_operand(FILE *f, const struct wl_program *p, int e, bool parens)
{
    if (parens)
        fputc('(', f);
    wl_expr_print(f, p, e);
    if (parens)
        fputc(')', f);
}

void wl_expr_print(FILE *f, const struct wl_program *p, int e)
{
    const struct wl_expr *x = &p->exprs[e];
    if (x->kind == WL_E_NEG) {
        fputc('-', f);
        print_operand(f, p, x->a, prec(&p->exprs[x->a]) <= 3); /* -(-1), not --1 */
    } else if (wl_expr_is_binary(x->kind)) {
        const struct wl_expr *l = &p->exprs[x->a], *r = &p->exprs[x->b];
        print_operand(f, p, x->a, prec(l) < prec(x));
        fputc(binop_char[x->kind], f);
        print_operand(f, p, x->b, prec(r) <= prec(x) || r->kind == WL_E_NEG);
    } else
        print_leaf(f, p, x);
}

bool wl_expr_starts_with_minus(const struct wl_program *p, int e)
{
    const struct wl_expr *x = &p->exprs[e];
    while (wl_expr_is_binary(x->kind) && prec(&p->exprs[x->a]) >= prec(x))
        x = &p->exprs[x->a];
    return x->kind == WL_E_NEG;
}

/* ------------------------------------------------------------- equality */

static bool leaf_equal(const struct wl_program *pa, const struct wl_expr *a,
                       const struct wl_program *pb, const struct wl_expr *b)
{
    switch (a->kind) {
    case WL_E_CONST:
        return a->value == b->value;
    case WL_E_LOOP:
        return a->a == b->a && strcmp(pa->vars.v[a->b], pb->vars.v[b->b]) == 0;
    case WL_E_REG:
        return strcmp(pa->regs.v[a->a], pb->regs.v[b->a]) == 0;
    default:
        return true;
    }
}

bool wl_expr_equal(const struct wl_program *pa, int a, const struct wl_program *pb, int b)
{
    if (a < 0 || b < 0)
        return a == b;
    const struct wl_expr *x = &pa->exprs[a], *y = &pb->exprs[b];
    if (x->kind != y->kind)
        return false;
    if (x->kind == WL_E_NEG)
        return wl_expr_equal(pa, x->a, pb, y->a);
    if (wl_expr_is_binary(x->kind))
        return wl_expr_equal(pa, x->a, pb, y->a) && wl_expr_equal(pa, x->b, pb, y->b);
    return leaf_equal(pa, x, pb, y);
}
