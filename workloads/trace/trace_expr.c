/*
 * trace_expr.c -- expression trees once parsed: checked arithmetic,
 * evaluation for one thread, printing with the fewest parentheses that keep
 * the tree, and structural comparison.
 *
 * Arithmetic is 64-bit signed; overflow, division by zero and a shift count
 * outside 0..63 are errors, never undefined behaviour. Division truncates
 * toward zero, % takes the dividend's sign (as in C); a << b is a * 2^b
 * (overflow checked), a >> b keeps the sign (floor(a / 2^b)); & | ^ ~ work
 * on the two's complement bits. Comparisons, && || and ! give 0 or 1, and
 * && || do not evaluate their right side when the left decides.
 */
#include "trace_impl.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const binop_text[] = {
#define WL_X_ROW(e, text, prec, cls) [WL_E_##e] = text,
    WL_BINOPS(WL_X_ROW)
#undef WL_X_ROW
};

static const int binop_prec[] = {
#define WL_X_ROW(e, text, prec, cls) [WL_E_##e] = prec,
    WL_BINOPS(WL_X_ROW)
#undef WL_X_ROW
};

static const char binop_class[] = {
#define WL_X_ROW(e, text, prec, cls) [WL_E_##e] = cls,
    WL_BINOPS(WL_X_ROW)
#undef WL_X_ROW
};

bool wl_expr_is_binary(enum wl_expr_kind k)
{
    return k >= WL_E_ADD && k < (int)SIM_COUNT_OF(binop_text);
}

bool wl_expr_is_unary(enum wl_expr_kind k)
{
    return k == WL_E_NEG || k == WL_E_NOT || k == WL_E_BNOT;
}

char wl_expr_class(enum wl_expr_kind k)
{
    if (wl_expr_is_binary(k))
        return binop_class[k];
    return k == WL_E_NOT ? 'l' : 'a';
}

const char *wl_expr_op_text(enum wl_expr_kind k)
{
    switch (k) {
    case WL_E_NEG:
        return "-";
    case WL_E_NOT:
        return "!";
    case WL_E_BNOT:
        return "~";
    case WL_E_MIN:
        return "min";
    case WL_E_MAX:
        return "max";
    default:
        return wl_expr_is_binary(k) ? binop_text[k] : "?";
    }
}

static enum wl_arith divide(enum wl_expr_kind k, int64_t a, int64_t b, int64_t *out)
{
    if (b == 0)
        return WL_ARITH_DIV0;
    if (a == INT64_MIN && b == -1) { /* the quotient 2^63 does not fit; the remainder is 0 */
        *out = 0;
        return k == WL_E_DIV ? WL_ARITH_OVERFLOW : WL_ARITH_OK;
    }
    *out = k == WL_E_DIV ? a / b : a % b;
    return WL_ARITH_OK;
}

/* a << b is a * 2^b (an error if that overflows), a >> b floor(a / 2^b):
 * the sign stays. Counts outside 0..63 are errors. */
static enum wl_arith shift(enum wl_expr_kind k, int64_t a, int64_t b, int64_t *out)
{
    if (b < 0 || b > 63)
        return WL_ARITH_SHIFT;
    if (k == WL_E_SHR) {
        *out = a >= 0 ? a >> b : ~(~a >> b); /* arithmetic, without relying on the compiler */
        return WL_ARITH_OK;
    }
    if (b == 63) { /* 2^63 is no int64: only 0 and -1 fit */
        *out = a == -1 ? INT64_MIN : 0;
        return a == 0 || a == -1 ? WL_ARITH_OK : WL_ARITH_OVERFLOW;
    }
    return __builtin_mul_overflow(a, (int64_t)1 << b, out) ? WL_ARITH_OVERFLOW : WL_ARITH_OK;
}

/* Comparisons and logic: 0 or 1. */
static int64_t truth(enum wl_expr_kind k, int64_t a, int64_t b)
{
    switch (k) {
    case WL_E_LT:
        return a < b;
    case WL_E_LE:
        return a <= b;
    case WL_E_GT:
        return a > b;
    case WL_E_GE:
        return a >= b;
    case WL_E_EQ:
        return a == b;
    case WL_E_NE:
        return a != b;
    case WL_E_LAND:
        return a && b;
    case WL_E_LOR:
        return a || b;
    default: /* WL_E_NOT */
        return !a;
    }
}

/* The bitwise operators and min/max: they cannot fail. */
static int64_t bits(enum wl_expr_kind k, int64_t a, int64_t b)
{
    switch (k) {
    case WL_E_BAND:
        return a & b;
    case WL_E_BOR:
        return a | b;
    case WL_E_BXOR:
        return a ^ b;
    case WL_E_BNOT:
        return ~a;
    case WL_E_MIN:
        return a < b ? a : b;
    default: /* WL_E_MAX */
        return a > b ? a : b;
    }
}

static bool is_basic(enum wl_expr_kind k)
{
    return k == WL_E_ADD || k == WL_E_SUB || k == WL_E_MUL || k == WL_E_DIV || k == WL_E_MOD;
}

/* + - * / %, the arithmetic of addresses: apart from wl_arith's switch, so
 * that the postfix code (run_code) has it inline at every operation. */
static inline enum wl_arith basic_arith(enum wl_expr_kind k, int64_t a, int64_t b, int64_t *out)
{
    switch (k) {
    case WL_E_ADD:
        return __builtin_add_overflow(a, b, out) ? WL_ARITH_OVERFLOW : WL_ARITH_OK;
    case WL_E_SUB:
        return __builtin_sub_overflow(a, b, out) ? WL_ARITH_OVERFLOW : WL_ARITH_OK;
    case WL_E_MUL:
        return __builtin_mul_overflow(a, b, out) ? WL_ARITH_OVERFLOW : WL_ARITH_OK;
    default: /* WL_E_DIV, WL_E_MOD */
        return divide(k, a, b, out);
    }
}

enum wl_arith wl_arith(enum wl_expr_kind k, int64_t a, int64_t b, int64_t *out)
{
    bool over = false;
    *out = 0;
    if (is_basic(k))
        return basic_arith(k, a, b, out);
    switch (k) {
    case WL_E_NEG:
        over = __builtin_sub_overflow((int64_t)0, a, out);
        break;
    case WL_E_SHL:
    case WL_E_SHR:
        return shift(k, a, b, out);
    case WL_E_BAND:
    case WL_E_BOR:
    case WL_E_BXOR:
    case WL_E_BNOT:
    case WL_E_MIN:
    case WL_E_MAX:
        *out = bits(k, a, b);
        break;
    default:
        if (wl_expr_class(k) != 'a')
            *out = truth(k, a, b);
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

static bool eval_fault(const struct wl_expr *x, enum wl_arith r, int64_t a, int64_t b,
                       struct wl_fault *f)
{
    f->col = x->opcol;
    if (r == WL_ARITH_DIV0)
        snprintf(f->msg, sizeof f->msg, "division by zero (%" PRId64 " %s 0)", a,
                 binop_text[x->kind]);
    else if (r == WL_ARITH_SHIFT)
        snprintf(f->msg, sizeof f->msg,
                 "shift count %" PRId64 " is out of range (%" PRId64 " %s %" PRId64
                 ": counts are 0..63)",
                 b, a, binop_text[x->kind], b);
    else
        snprintf(f->msg, sizeof f->msg, "integer overflow (beyond 64-bit signed)");
    return false;
}

/* ------------------------------------------------------------- postfix code */

#define WL_CODE_END (-1)

static bool is_operator(enum wl_expr_kind k)
{
    return wl_expr_is_binary(k) || wl_expr_is_unary(k) || k == WL_E_MIN || k == WL_E_MAX;
}

static void emit(struct wl_program *p, int kind, int64_t arg)
{
    p->code = wl_grow(p->code, &p->cap_code, p->ncode + 1, sizeof *p->code);
    p->code[p->ncode++] = (struct wl_code){kind, arg};
}

/* Appends e's postfix code; false if e holds what the code does not run. */
static bool emit_tree(struct wl_program *p, int e)
{
    const struct wl_expr *x = &p->exprs[e];
    if (x->is_const) {
        emit(p, WL_E_CONST, x->value);
        return true;
    }
    switch (x->kind) {
    case WL_E_T:
        emit(p, WL_E_T, 0);
        return true;
    case WL_E_LOOP:
    case WL_E_REG:
        emit(p, x->kind, x->a);
        return true;
    case WL_E_LAND:
    case WL_E_LOR: /* short-circuit: left to the tree walk */
        return false;
    default:
        break;
    }
    if (!is_operator(x->kind) || !emit_tree(p, x->a))
        return false;
    if (!wl_expr_is_unary(x->kind) && !emit_tree(p, x->b))
        return false;
    emit(p, x->kind, 0);
    return true;
}

void wl_expr_compile(struct wl_program *p)
{
    bool *operand_of = sim_xcalloc((size_t)p->nexprs + 1, sizeof *operand_of);
    for (int e = 0; e < p->nexprs; e++) {
        const struct wl_expr *x = &p->exprs[e];
        if (is_operator(x->kind) && x->a >= 0)
            operand_of[x->a] = true;
        if (is_operator(x->kind) && x->b >= 0)
            operand_of[x->b] = true;
    }
    p->code_at = sim_xmalloc(((size_t)p->nexprs + 1) * sizeof *p->code_at);
    for (int e = 0; e < p->nexprs; e++) {
        p->code_at[e] = -1;
        if (operand_of[e] || p->exprs[e].is_const || !is_operator(p->exprs[e].kind))
            continue;
        int start = p->ncode;
        if (emit_tree(p, e)) {
            emit(p, WL_CODE_END, 0);
            p->code_at[e] = start;
        } else {
            p->ncode = start;
        }
    }
    free(operand_of);
}

/* Runs a root's code; false on a fault. The stack never holds more than
 * the tree is high (WL_MAX_EXPR_DEPTH). */
static bool run_code(const struct wl_code *c, const struct wl_env *env, int64_t *out)
{
    int64_t st[WL_MAX_EXPR_DEPTH + 2];
    int sp = 0;
    for (;; c++) {
        switch (c->kind) {
        case WL_CODE_END:
            *out = st[0];
            return true;
        case WL_E_CONST:
            st[sp++] = c->arg;
            continue;
        case WL_E_T:
            st[sp++] = env->thread;
            continue;
        case WL_E_LOOP:
            st[sp++] = env->loop[c->arg];
            continue;
        case WL_E_REG:
            st[sp++] = env->reg[c->arg];
            continue;
        case WL_E_NEG:
        case WL_E_NOT:
        case WL_E_BNOT:
            if (wl_arith(c->kind, st[sp - 1], 0, &st[sp - 1]) != WL_ARITH_OK)
                return false;
            continue;
        default: /* a binary operator */
            sp--;
            if ((is_basic(c->kind)
                     ? basic_arith(c->kind, st[sp - 1], st[sp], &st[sp - 1])
                     : wl_arith(c->kind, st[sp - 1], st[sp], &st[sp - 1])) != WL_ARITH_OK)
                return false;
            continue;
        }
    }
}

bool wl_expr_eval(const struct wl_program *p, int e, const struct wl_env *env, int64_t *out,
                  struct wl_fault *f)
{
    const struct wl_expr *x = &p->exprs[e];
    if (x->is_const) {
        *out = x->value;
        return true;
    }
    if (p->code_at && p->code_at[e] >= 0 && run_code(&p->code[p->code_at[e]], env, out))
        return true;
    if (leaf_value(x, env, out))
        return true;
    int64_t a = 0, b = 0;
    if (!operand(p, x->a, env, &a, f))
        return false;
    if ((x->kind == WL_E_LAND && !a) || (x->kind == WL_E_LOR && a)) {
        *out = x->kind == WL_E_LOR; /* short-circuit: b is not evaluated */
        return true;
    }
    if (!wl_expr_is_unary(x->kind) && !operand(p, x->b, env, &b, f))
        return false;
    if (x->kind == WL_E_ADD && !__builtin_add_overflow(a, b, out))
        return true; /* the common case, without the general switch */
    enum wl_arith r = wl_arith(x->kind, a, b, out);
    return r == WL_ARITH_OK || eval_fault(x, r, a, b, f);
}

/* ------------------------------------------------------------- printing */

static int prec(const struct wl_expr *x)
{
    if (wl_expr_is_binary(x->kind))
        return binop_prec[x->kind];
    return wl_expr_is_unary(x->kind) ? WL_PREC_UNARY : WL_PREC_LEAF;
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

/* Whether e's text starts with '-' (a negation or a negative number). */
static bool starts_with_minus(const struct wl_program *p, int e)
{
    const struct wl_expr *x = &p->exprs[e];
    return x->kind == WL_E_NEG || (x->kind == WL_E_CONST && x->value < 0);
}

/* Comparisons and && || print with spaces around them (`pred != 0`),
 * arithmetic without (`t+1`); a '-' after a '-' is set apart by a space
 * (`a- -b`), not parentheses, which would nest the printed text deeper
 * than the parsed one (WL_MAX_EXPR_DEPTH counts both). */
static void print_binary(FILE *f, const struct wl_program *p, const struct wl_expr *x)
{
    const struct wl_expr *l = &p->exprs[x->a], *r = &p->exprs[x->b];
    bool spaced = binop_class[x->kind] != 'a';
    print_operand(f, p, x->a, prec(l) < prec(x));
    fprintf(f, spaced ? " %s " : "%s", binop_text[x->kind]);
    if (x->kind == WL_E_SUB && starts_with_minus(p, x->b))
        fputc(' ', f);
    print_operand(f, p, x->b, prec(r) <= prec(x));
}

void wl_expr_print(FILE *f, const struct wl_program *p, int e)
{
    const struct wl_expr *x = &p->exprs[e];
    if (wl_expr_is_unary(x->kind)) {
        fputs(wl_expr_op_text(x->kind), f);
        if (x->kind == WL_E_NEG && starts_with_minus(p, x->a))
            fputc(' ', f); /* - -1, not --1 (nor -(-1): see print_binary) */
        print_operand(f, p, x->a, prec(&p->exprs[x->a]) < WL_PREC_UNARY);
    } else if (x->kind == WL_E_MIN || x->kind == WL_E_MAX) {
        fprintf(f, "%s(", wl_expr_op_text(x->kind));
        wl_expr_print(f, p, x->a);
        fputs(", ", f);
        wl_expr_print(f, p, x->b);
        fputc(')', f);
    } else if (wl_expr_is_binary(x->kind))
        print_binary(f, p, x);
    else
        print_leaf(f, p, x);
}

bool wl_expr_starts_with_minus(const struct wl_program *p, int e)
{
    const struct wl_expr *x = &p->exprs[e];
    while (wl_expr_is_binary(x->kind) && prec(&p->exprs[x->a]) >= prec(x))
        x = &p->exprs[x->a];
    return x->kind == WL_E_NEG;
}

bool wl_expr_reads_reg(const struct wl_program *p, int e, int reg)
{
    const struct wl_expr *x = &p->exprs[e];
    if (x->kind == WL_E_REG)
        return reg < 0 || x->a == reg;
    if (x->is_const || x->a < 0 || x->kind == WL_E_LOOP)
        return false;
    return wl_expr_reads_reg(p, x->a, reg) || (x->b >= 0 && wl_expr_reads_reg(p, x->b, reg));
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
    if (wl_expr_is_unary(x->kind))
        return wl_expr_equal(pa, x->a, pb, y->a);
    if (wl_expr_is_binary(x->kind) || x->kind == WL_E_MIN || x->kind == WL_E_MAX)
        return wl_expr_equal(pa, x->a, pb, y->a) && wl_expr_equal(pa, x->b, pb, y->b);
    return leaf_equal(pa, x, pb, y);
}
