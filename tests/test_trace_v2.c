/*
 * test_trace_v2.c -- the trace format's version 2 (workloads/): if/else and
 * while, xchg, cmpxchg, let and fence, the operators of C with its
 * precedence, types (numbers and conditions), the errors of each, version 1
 * untouched (and telling its users what needs ccsim-trace 2), and the
 * shipped examples (workloads/traces/) clean on three machines at several
 * thread counts, while a mutation of each is caught.
 *
 * A trace cannot take its thread count from the command line (`ccsim run
 * -t` goes with generators only; a trace says `threads N`): the tests
 * substitute the `threads` line in the text before parsing, as a user would
 * edit it.
 */
#include "testutil.h"
#include "core.h"
#include "gen.h"
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct sim_diag diag;

static struct wl_program *parse(const char *name, const char *text)
{
    sim_diag_init(&diag);
    struct wl_program *p = wl_parse_text(name, text, strlen(text), NULL, &diag);
    ck_assert_msg((p == NULL) == (diag.count > 0), "result and diagnostics disagree: %s",
                  diag.text);
    return p;
}

static struct wl_program *parse_ok(const char *text)
{
    struct wl_program *p = parse("ok.trace", text);
    ck_assert_msg(p != NULL, "%s\n%s", diag.text, text);
    return p;
}

/* The diagnostics hold a line "NAME:LINE:COL: ..." containing `what`. */
static void expect_error_at(const char *name, int line, int col, const char *what)
{
    char prefix[700];
    snprintf(prefix, sizeof prefix, "%.600s:%d:%d: ", name, line, col);
    tu_expect_diag(&diag, prefix, what);
}

/* Thread t's operations as "op v0 v1" joined by "; "; every op that sets a
 * register gets regval(k) (k: its position). */
static enum wl_next_result ops_of(const struct wl_program *p, int t, char *out, size_t size,
                                  int max, int64_t (*regval)(int k))
{
    struct wl_cursor c;
    struct wl_op op;
    enum wl_next_result r = WL_NEXT_END;
    size_t n = 0;
    out[0] = '\0';
    wl_cursor_init(&c, p, t);
    for (int k = 0; k < max && (r = wl_next(&c, &op, &diag)) == WL_NEXT_OP; k++) {
        n += (size_t)snprintf(out + n, size - n, "%s%s%s", k ? "; " : "", wl_op_name(op.op),
                              op.in_while ? "(w)" : "");
        for (int i = 0; i < op.nvalue && n < size; i++)
            n += (size_t)snprintf(out + n, size - n, " %lld", (long long)op.value[i]);
        if (op.reg >= 0)
            wl_set_reg(&c, op.reg, regval ? regval(k) : 0);
        ck_assert(n < size);
    }
    return r;
}

/* ------------------------------------------------------------- parsing */

START_TEST(test_canonical_print)
{
    struct wl_program *p = parse_ok("ccsim-trace 2\n"
                                    "threads 4\n"
                                    "line x\nline y n\n"
                                    "all:xchg x t+1->old\n"
                                    "all: cmpxchg y[t] 0 (-1) -> was\n"
                                    "all:   let   k =((old<<2)|1)^~was\n"
                                    "all: fence\n"
                                    "if (old != 0) && !(was<0 || k>=min(3, max(t, 1))) {\n"
                                    "  for i 0..(k&3) {\n"
                                    "    0: write x (i)\n"
                                    "  }\n"
                                    "}   else   if old == 1 {\n"
                                    "all: write x -k >> 1\n"
                                    "} else {\n"
                                    "  while k > 0 {\n"
                                    "    all: let k = k - 1\n"
                                    "  }\n"
                                    "}\n");
    char *text = tu_print_program(p);
    ck_assert_str_eq(text, "ccsim-trace 2\n"
                           "threads 4\n"
                           "line x\n"
                           "line y n\n"
                           "all: xchg x t+1 -> old\n"
                           "all: cmpxchg y[t] 0 (-1) -> was\n"
                           "all: let k = (old<<2|1)^~was\n"
                           "all: fence\n"
                           "if old != 0 && !(was < 0 || k >= min(3, max(t, 1))) {\n"
                           "  for i 0..k&3 {\n"
                           "    0: write x i\n"
                           "  }\n"
                           "} else if old == 1 {\n"
                           "  all: write x -k>>1\n"
                           "} else {\n"
                           "  while k > 0 {\n"
                           "    all: let k = k-1\n"
                           "  }\n"
                           "}\n");
    free(text);
    tu_check_roundtrip(p);
    wl_program_free(p);
}
END_TEST

/* The same body under both headers: each prints its own version, and the
 * two are not equal (a v2 file's meaning may differ). */
START_TEST(test_version_kept)
{
    const char *body = "threads 2\nline x\nall: write x t*2+1\n";
    char one[128], two[128];
    snprintf(one, sizeof one, "ccsim-trace 1\n%s", body);
    snprintf(two, sizeof two, "ccsim-trace 2\n%s", body);
    struct wl_program *a = parse_ok(one), *b = parse_ok(two);
    char *ta = tu_print_program(a), *tb = tu_print_program(b);
    ck_assert_str_eq(ta, one);
    ck_assert_str_eq(tb, two);
    ck_assert(!wl_program_equal(a, b));
    free(ta);
    free(tb);
    wl_program_free(a);
    wl_program_free(b);
}
END_TEST

/* Generators still write version 1. */
START_TEST(test_generators_write_v1)
{
    for (int i = 0; gen_names[i]; i++) {
        int threads = strcmp(gen_names[i], "pingpong") == 0 ? 2 : 4;
        sim_diag_init(&diag);
        char *text = gen_trace(gen_names[i], threads, 2, NULL, &diag);
        if (!text)
            continue; /* a generator that needs a machine (mpi-shm) */
        TU_CHECK(strncmp(text, "ccsim-trace 1\n", 14) == 0, "%s: %.20s", gen_names[i], text);
        free(text);
    }
}
END_TEST

/* Version 1 keeps its names: if, while, else, let, min and max are
 * reserved only in version 2, and `while: ...` is a selector there. */
START_TEST(test_v1_names_stay_free)
{
    struct wl_program *p = parse_ok("ccsim-trace 1\nthreads 2\nline min\nline let 2\n"
                                    "for while 0..1 {\n"
                                    "  while: read min -> if\n"
                                    "  all: write let[while] if+1\n"
                                    "}\n");
    char *text = tu_print_program(p);
    ck_assert_str_eq(text, "ccsim-trace 1\nthreads 2\nline min\nline let 2\n"
                           "for while 0..1 {\n"
                           "  while: read min -> if\n"
                           "  all: write let[while] if+1\n"
                           "}\n");
    free(text);
    tu_check_roundtrip(p);
    wl_program_free(p);
}
END_TEST

/* ------------------------------------------------------------- expressions */

struct value_case {
    const char *expr; /* in registers A = 7, B = -3, C = 2 */
    int64_t want;
};

/* C's precedence and semantics. */
static const struct value_case values[] = {
    {"A + B * C", 1},
    {"A - B - C", 8},
    {"A / C * C + A % C", 7},
    {"B / C", -1},
    {"B % C", -1},
    {"A << C", 28},
    {"B << C", -12},
    {"B >> 1", -2},
    {"A >> C", 1},
    {"-A >> 63", -1},
    {"A >> 63", 0},
    {"1 + A << 1", 16},
    {"A & C | 1", 3},
    {"A ^ C & 3", 5},
    {"A | B ^ C", -1},
    {"~A", -8},
    {"~B & A", 2},
    {"-~A", 8},
    {"min(A, B)", -3},
    {"max(A, B * C)", 7},
    {"min(A, C) << 1 + 1", 8},
    {"max(min(A, C), min(B, C))", 2},
    {"-1 << 63", INT64_MIN},
    {"9223372036854775807 >> 62", 1},
};

/* Conditions: 1 or 0. */
static const struct value_case conds[] = {
    {"A > B && B < 0", 1}, {"A < B || C == 2", 1}, {"!(A == 7) || B >= -3 && C != 2", 0},
    {"A + 1 > C << 2", 0}, {"A + 1 >= C << 2", 1}, {"min(A, B) < 0 && max(A, B) > 0", 1},
    {"!(A < B)", 1},       {"!!(A < B)", 0},       {"(A & C) != 0 || C < 0", 1},
};

/* `expr` with A, B and C replaced by literals (folded by the parser) or
 * kept as registers (evaluated by the cursor). */
static void program_for(char *buf, size_t size, const char *expr, bool cond, bool literal)
{
    char e[256];
    size_t n = 0;
    for (const char *s = expr; *s && n + 8 < sizeof e; s++) {
        const char *lit = *s == 'A' ? "(7)" : *s == 'B' ? "(-3)" : *s == 'C' ? "(2)" : NULL;
        if (literal && lit)
            n += (size_t)snprintf(e + n, sizeof e - n, "%s", lit);
        else
            e[n++] = *s;
    }
    e[n] = '\0';
    if (cond)
        snprintf(buf, size,
                 "ccsim-trace 2\nthreads 1\nline x\nall: let A = 7\nall: let B = -3\n"
                 "all: let C = 2\nif %s {\n  all: write x 1\n} else {\n  all: write x 0\n}\n",
                 e);
    else
        snprintf(buf, size,
                 "ccsim-trace 2\nthreads 1\nline x\nall: let A = 7\nall: let B = -3\n"
                 "all: let C = 2\nall: write x %s\n",
                 e);
}

static void check_value(const char *expr, bool cond, int64_t want)
{
    for (int literal = 0; literal < 2; literal++) {
        char text[1024];
        program_for(text, sizeof text, expr, cond, literal);
        struct wl_program *p = parse_ok(text);
        struct wl_cursor c;
        struct wl_op op;
        wl_cursor_init(&c, p, 0);
        ck_assert_int_eq(wl_next(&c, &op, &diag), WL_NEXT_OP);
        ck_assert_msg(op.value[0] == want, "%s (%s): %lld, want %lld", expr,
                      literal ? "folded" : "evaluated", (long long)op.value[0], (long long)want);
        tu_check_roundtrip(p);
        wl_program_free(p);
    }
}

START_TEST(test_values)
{
    check_value(values[_i].expr, false, values[_i].want);
}
END_TEST

START_TEST(test_conditions)
{
    check_value(conds[_i].expr, true, conds[_i].want);
}
END_TEST

/* && and || do not evaluate their right side when the left decides: no
 * division by zero here. */
START_TEST(test_short_circuit)
{
    struct wl_program *p = parse_ok("ccsim-trace 2\nthreads 1\nline x\nall: let z = 0\n"
                                    "if z == 0 || 10 / z > 1 {\n  all: write x 1\n}\n"
                                    "if z != 0 && 10 / z > 1 {\n  all: write x 2\n}\n"
                                    "if z == 0 && 10 / z > 1 {\n  all: write x 3\n}\n");
    char ops[256];
    ck_assert_int_eq(ops_of(p, 0, ops, sizeof ops, 10, NULL), WL_NEXT_ERROR);
    ck_assert_str_eq(ops, "write 1");
    expect_error_at("ok.trace", 11, 17, "thread 0: division by zero (10 / 0)");
    wl_program_free(p);
    /* the same guards over constants (n): a constant left that decides
     * skips the right at parse time too, and one known only at run time
     * leaves the right to the run; INT64_MIN % -1 is 0, no overflow */
    p = parse_ok("ccsim-trace 2\nthreads 4\nline x\nif n > 4 && 100 / (n - 4) > 1 {\n"
                 "  all: write x 1\n}\nif n == 4 || 1 << 64 > 0 {\n  all: write x 2\n}\n"
                 "all: let z = 0\nif z != 0 && 1 / 0 > 0 {\n  all: write x 3\n}\n"
                 "all: write x (0 - 9223372036854775807 - 1) % (0 - 1)\n");
    ck_assert_int_eq(ops_of(p, 0, ops, sizeof ops, 10, NULL), WL_NEXT_END);
    ck_assert_str_eq(ops, "write 2; write 0");
    wl_program_free(p);
    /* a let whose value is wrong still names its register: one error */
    ck_assert(parse("la.trace", "ccsim-trace 2\nthreads 1\nline x\nall: let a = 1 << 64\n"
                                "all: write x a\n") == NULL);
    ck_assert_msg(diag.count == 1 && strstr(diag.text, "la.trace:4:16: shift count 64"), "%s",
                  diag.text);
}
END_TEST

START_TEST(test_runtime_errors)
{
    static const struct {
        const char *stmt;
        int line, col;
        const char *what;
    } cases[] = {
        {"all: write x 1 << z-1\n", 5, 16,
         "thread 0: shift count -1 is out of range (1 << -1: counts are 0..63)"},
        {"all: write x 1 >> z+64\n", 5, 16, "thread 0: shift count 64 is out of range"},
        {"all: write x z+7 << 61\n", 5, 18, "thread 0: integer overflow (beyond 64-bit signed)"},
        {"all: write x z+1 << 63\n", 5, 18, "thread 0: integer overflow"},
        {"all: write x -(z-9223372036854775807-1)\n", 5, 14, "thread 0: integer overflow"},
        {"if 1 << z-2 > 0 {\n}\n", 5, 6, "thread 0: shift count -2"},
        {"all: let y = 5 / z\n", 5, 16, "thread 0: division by zero (5 / 0)"},
        {"all: read x -> r\nwhile r == 0 {\n  all: let r = r / z\n}\n", 7, 18,
         "thread 0: division by zero"},
    };
    for (size_t i = 0; i < SIM_COUNT_OF(cases); i++) {
        char text[1024], ops[256];
        snprintf(text, sizeof text, "ccsim-trace 2\nthreads 1\nline x\nall: let z = 0\n%s",
                 cases[i].stmt);
        struct wl_program *p = parse("run.trace", text);
        ck_assert_msg(p != NULL, "%s", diag.text);
        sim_diag_init(&diag);
        ck_assert_msg(ops_of(p, 0, ops, sizeof ops, 10, NULL) == WL_NEXT_ERROR, "no error: %s",
                      cases[i].stmt);
        ck_assert_int_eq(diag.count, 1);
        expect_error_at("run.trace", cases[i].line, cases[i].col, cases[i].what);
        wl_program_free(p);
    }
}
END_TEST

/* ------------------------------------------------------------- errors */

struct error_case {
    const char *text;
    int line, col;
    const char *what;
};

#define V2 "ccsim-trace 2\nthreads 4\nline x\nline d 8\n" /* statements from line 5 */
#define V1 "ccsim-trace 1\nthreads 4\nline x\nline d 8\n"

static const struct error_case errors_v2[] = {
    /* types */
    {V2 "if t {\n}\n", 5, 4, "type error: the condition of 'if' is a number"},
    {V2 "if t = 0 {\n}\n", 5, 6, "the condition of 'if': found '=' ('=' sets, '==' compares)"},
    {V2 "if t => 0 {\n}\n", 5, 6, "found '=>' (greater or equal is written '>=')"},
    {V2 "0,others: read x\n", 5, 3, "'others' selects on its own ('others:'); in a list, name"},
    {V2 "all: if t == 0 {\n}\n", 5, 6, "unknown operation 'if' (a block takes no selector"},
    {V2 "all: write x t < 1\n", 5, 14, "type error: a number is expected here, and this is a"},
    {V2 "if t < 1 < 2 {\n}\n", 5, 10, "type error: '<' compares numbers, and its left side is a"},
    {V2 "if !t {\n}\n", 5, 4, "type error: '!' takes conditions, and its operand is a number"},
    {V2 "if t < 1 && n {\n}\n", 5, 10, "type error: '&&' takes conditions, and its right side"},
    {V2 "all: write x -(t < 1)\n", 5, 14, "type error: '-' takes numbers, and its operand is a"},
    {V2 "all: write x min(t < 1, 2)\n", 5, 14, "type error: 'min' takes numbers, and its first"},
    {V2 "all: read d[t == 1]\n", 5, 13, "type error: a number is expected here"},
    {V2 "n < 2: read x\n", 5, 1, "type error: a number is expected here"},
    {V2 "for i 0..t < 2 {\n}\n", 5, 10, "type error: a number is expected here"},
    {V2 "while t == 0 || 3 {\n}\n", 5, 14, "type error: '||' takes conditions"},
    /* while */
    {V2 "while 1 < 2 {\n}\n", 5, 7, "this while's condition is always true: the loop would never"},
    {V2 "while n < 2 {\n}\n", 5, 7, "this while's condition is always false: the loop would never"},
    {V2 "for i 0..3 {\n  while t < i {\n  }\n}\n", 6, 9,
     "this while's condition reads no register, so nothing in the loop can change it"},
    {V2 "all: read x -> r\nwhile r < 3 {\n  all: read x -> q\n}\n", 6, 7,
     "nothing in this while's body sets a register its condition reads"},
    {V2 "while r < 3 {\n}\n", 5, 7,
     "unknown name 'r' (not t, n, a loop variable in scope, or a "
     "register set by an earlier '-> r' or 'let r =')"},
    {V2 "all: let r = 1\nwhile r > 0 {\n", 6, 1, "this 'while' is never closed (a '}' is missing)"},
    /* a line in a condition: it said "unknown name", of a line it declared */
    {V2 "if x == 0 {\n}\n", 5, 4,
     "'x' is a line, not a number: an expression reads no memory (in a statement, read it into "
     "a register first: read x -> r, then use r)"},
    /* if, else */
    {V2 "if t == 0 {\n", 5, 1, "this 'if' is never closed"},
    {V2 "if t == 0 {\n} else {\n", 6, 3, "this 'else' is never closed"},
    {V2 "if t == 0\n", 5, 10, "expected '{' at the end of the 'if' line, found the end"},
    {V2 "if t == 0 {\n}\nelse {\n}\n", 7, 1, "'else' goes on the line of the '}' that closes its"},
    {V2 "for i 0..1 {\n} else {\n}\n", 6, 3,
     "'else' follows the '}' of an if or an else if, and this '}' closes a for"},
    {V2 "all: let r = 1\nwhile r > 0 {\n  all: let r = 0\n} else {\n}\n", 8, 3,
     "and this '}' closes a while"},
    {V2 "if t == 0 {\n} else {\n} else {\n}\n", 7, 3, "and this '}' closes an else"},
    {V2 "if t == 0 {\n} else\n", 6, 7, "expected '{' after else: } else {"},
    {V2 "if t == 0 {\n} else if t {\n}\n", 6, 11,
     "type error: the condition of 'else if' is a number"},
    {V2 "}\n", 5, 1, "unmatched '}' (no block is open)"},
    {V2 "iff t {\n", 5, 1, "found 'iff' (did you mean 'if'?)"},
    {V2 "if t == 0 {\n  line z\n}\n", 6, 3, "'line' must be at top level, outside loops and ifs"},
    /* let and the new operations */
    {V2 "all: let r = r + 1\n", 5, 14, "unknown name 'r'"},
    {V2 "all: let r 1\n", 5, 12, "expected '=' after the register (let REG = VALUE)"},
    {V2 "all: let = 1\n", 5, 10, "'let' expects a register name and '=' here, found '='"},
    {V2 "all: let r = 1 -> q\n", 5, 16, "'let' gives no value to keep"},
    {V2 "all: let t = 1\n", 5, 10, "'t' is a reserved word and cannot name a register"},
    {V2 "all: let while = 1\n", 5, 10, "'while' is a reserved word and cannot name a register"},
    {V2 "for i 0..1 {\n  all: let i = 2\n}\n", 6, 12, "register 'i' shadows the loop variable"},
    {V2 "all: xchg x\n", 5, 12, "'xchg' lacks a value (usage: xchg ADDR VALUE [-> REG])"},
    {V2 "all: cmpxchg x 1\n", 5, 17, "'cmpxchg' lacks a value (usage: cmpxchg ADDR OLD NEW"},
    {V2 "all: fence x\n", 5, 12, "unexpected 'x' after the statement"},
    {V2 "all: fence -> r\n", 5, 12, "'fence' gives no value to keep"},
    {V2 "all: xhcg x 1\n", 5, 6, "unknown operation 'xhcg' (did you mean 'xchg'?)"},
    /* reserved in version 2 */
    {V2 "line min\n", 5, 6, "'min' is a reserved word and cannot name a line"},
    {V2 "for if 0..1 {\n}\n", 5, 5, "'if' is a reserved word and cannot name a loop variable"},
    {V2 "all: read x -> max\n", 5, 16, "'max' is a reserved word and cannot name a register"},
    /* operators */
    {V2 "all: write x 1 << 64\n", 5, 16, "shift count 64 is out of range (0..63)"},
    {V2 "all: write x 1 >> -1\n", 5, 16, "shift count -1 is out of range (0..63)"},
    {V2 "all: write x 1 << 63\n", 5, 16, "integer overflow in a constant expression"},
    {V2 "all: write x 4611686018427387904 << 1\n", 5, 34, "integer overflow in a constant"},
    {V2 "all: write x min(1)\n", 5, 19, "expected ',' between the two values of min or max"},
    {V2 "all: write x max 1\n", 5, 18, "expected '(' after max: max(a, b)"},
    {V2 "all: write x min(1, 2\n", 5, 22, "expected ')', found the end of the line"},
    {V2 "all: write x 1 & & 2\n", 5, 18, "expected an expression"},
    {V2 "all: write x 1 ||| 2\n", 5, 18, "expected an expression (a number, t, n"},
    {V2 "all: write x 1 == 2 == 3\n", 5, 21, "type error: '==' compares numbers, and its left"},
    {V2 "if t & 1 != 0 {\n}\n", 5, 6,
     "type error: '&' takes numbers, and its right side is a condition"}, /* C's trap */
    /* blocks nest at most WL_MAX_DEPTH deep, whatever their kind (below) */
};

START_TEST(test_error_v2)
{
    const struct error_case *ec = &errors_v2[_i];
    struct wl_program *p = parse("bad.trace", ec->text);
    ck_assert_msg(p == NULL, "accepted: %s", ec->text);
    expect_error_at("bad.trace", ec->line, ec->col, ec->what);
}
END_TEST

/* Version 1 does not take version-2 syntax, and says what it needs. */
static const struct error_case needs_v2[] = {
    {V1 "all: xchg x 1\n", 5, 6,
     "'xchg' needs ccsim-trace 2 (this file's header says "
     "ccsim-trace 1)"},
    {V1 "all: cmpxchg x 0 1 -> r\n", 5, 6, "'cmpxchg' needs ccsim-trace 2"},
    {V1 "all: fence\n", 5, 6, "'fence' needs ccsim-trace 2"},
    {V1 "all: let r = 1\n", 5, 6, "'let' needs ccsim-trace 2"},
    {V1 "if 1 < 2 {\n}\n", 5, 1, "'if' needs ccsim-trace 2"},
    {V1 "all: read x -> r\nwhile r < 2 {\n  all: read x -> r\n}\n", 6, 1,
     "'while' needs ccsim-trace 2"},
    {V1 "for i 0..1 {\n} else {\n}\n", 6, 3, "'else' needs ccsim-trace 2"},
    {V1 "all: write x 1 << 2\n", 5, 16, "'<<' needs ccsim-trace 2"},
    {V1 "all: write x 8 >> 2\n", 5, 16, "'>>' needs ccsim-trace 2"},
    {V1 "all: write x 1 & 2\n", 5, 16, "'&' needs ccsim-trace 2"},
    {V1 "all: write x 1 | 2\n", 5, 16, "'|' needs ccsim-trace 2"},
    {V1 "all: write x 1 ^ 2\n", 5, 16, "'^' needs ccsim-trace 2"},
    {V1 "all: write x 1 && 2\n", 5, 16, "'&&' needs ccsim-trace 2"},
    {V1 "all: write x 1 || 2\n", 5, 16, "'||' needs ccsim-trace 2"},
    {V1 "all: write x !1\n", 5, 14, "'!' needs ccsim-trace 2"},
    {V1 "all: write x ~1\n", 5, 14, "'~' needs ccsim-trace 2"},
    {V1 "all: write x min(1, 2)\n", 5, 14, "min(a, b) and max(a, b) need ccsim-trace 2"},
    {V1 "all: write x 1 == 2\n", 5, 16, "comparisons in expressions need ccsim-trace 2"},
};

START_TEST(test_v1_needs_v2)
{
    const struct error_case *ec = &needs_v2[_i];
    struct wl_program *p = parse("v1.trace", ec->text);
    ck_assert_msg(p == NULL, "accepted: %s", ec->text);
    expect_error_at("v1.trace", ec->line, ec->col, ec->what);
    /* one mistake, one message: the block still matches its '}' */
    ck_assert_msg(diag.count == 1, "%s", diag.text);
    /* and the same text under a version-2 header goes further */
    char text[512];
    snprintf(text, sizeof text, "ccsim-trace 2%s", strchr(ec->text, '\n'));
    struct wl_program *q = parse("v2.trace", text);
    ck_assert_msg(q == NULL || diag.count == 0, "%s", diag.text);
    ck_assert(!strstr(diag.text, "needs ccsim-trace 2"));
    wl_program_free(q);
}
END_TEST

START_TEST(test_block_depth)
{
    char text[4096];
    size_t n = (size_t)snprintf(text, sizeof text, "ccsim-trace 2\nthreads 1\nline x\n");
    for (int i = 0; i < WL_MAX_DEPTH; i++)
        n += (size_t)snprintf(text + n, sizeof text - n,
                              i % 2 ? "if t == 0 {\n" : "for i%d 0..1 {\n", i);
    n += (size_t)snprintf(text + n, sizeof text - n, "all: let r = 1\nwhile r > 0 {\n");
    ck_assert(parse("deep.trace", text) == NULL);
    ck_assert_int_eq(diag.count, 1);
    expect_error_at("deep.trace", 5 + WL_MAX_DEPTH, 1,
                    "blocks nest too deeply (more than 16 levels of for, if and while");
}
END_TEST

/* ------------------------------------------------------------- the cursor */

static int64_t reg_is_position(int k)
{
    return k;
}

START_TEST(test_if_chain_per_thread)
{
    struct wl_program *p = parse_ok("ccsim-trace 2\nthreads 4\nline x\n"
                                    "if t == 0 {\n"
                                    "  all: write x 10\n"
                                    "} else if t == 1 || t == 3 {\n"
                                    "  all: write x 11\n"
                                    "  if t == 3 {\n"
                                    "    all: write x 13\n"
                                    "  }\n"
                                    "} else {\n"
                                    "  all: write x 12\n"
                                    "}\n"
                                    "if t > 1 {\n"
                                    "  for i 0..t-2 {\n"
                                    "    if i % 2 == 0 {\n"
                                    "      all: write x 100+i\n"
                                    "    } else {\n"
                                    "      all: write x 200+i\n"
                                    "    }\n"
                                    "  }\n"
                                    "}\n"
                                    "all: write x 99\n");
    static const char *const want[] = {"write 10; write 99", "write 11; write 99",
                                       "write 12; write 100; write 99",
                                       "write 11; write 13; write 100; write 201; write 99"};
    for (int t = 0; t < 4; t++) {
        char ops[512];
        ck_assert_int_eq(ops_of(p, t, ops, sizeof ops, 100, NULL), WL_NEXT_END);
        ck_assert_msg(strcmp(ops, want[t]) == 0, "thread %d: %s", t, ops);
    }
    wl_program_free(p);
}
END_TEST

/* A while tests its condition before every round, with the registers its
 * body's ops set (lazily, like every expression); loop variables of a for
 * inside it keep their slots. */
START_TEST(test_while_rounds)
{
    struct wl_program *p = parse_ok("ccsim-trace 2\nthreads 2\nline x\nline d 8\n"
                                    "all: read x -> r\n"
                                    "while r < 4 {\n"
                                    "  for i 0..1 {\n"
                                    "    all: write d[i] r*10+i\n"
                                    "  }\n"
                                    "  all: read x -> r\n"
                                    "}\n"
                                    "all: let k = 5\n"
                                    "while k > 0 {\n"
                                    "  all: let k = k - 2\n"
                                    "}\n"
                                    "all: write x k\n");
    char ops[1024];
    /* the n-th op's register gets n: read (0), then reads at 3 and 6 */
    ck_assert_int_eq(ops_of(p, 0, ops, sizeof ops, 100, reg_is_position), WL_NEXT_END);
    ck_assert_str_eq(ops, "read; write(w) 0; write(w) 1; read(w); write(w) 30; write(w) 31; "
                          "read(w); write -1");
    wl_program_free(p);
}
END_TEST

/* A while whose body never yields an op for the thread (its selectors, or
 * only lets) ends with the WL_MAX_IDLE_LOOPS error at the while, not a
 * hang. */
START_TEST(test_while_idle_limit)
{
    static const char *const bodies[] = {"  1: read x -> r\n", "  all: let r = 0\n"};
    for (size_t i = 0; i < SIM_COUNT_OF(bodies); i++) {
        char text[256], ops[64];
        snprintf(text, sizeof text,
                 "ccsim-trace 2\nthreads 2\nline x\nall: let r = 0\nwhile r == 0 {\n%s}\n",
                 bodies[i]);
        struct wl_program *p = parse_ok(text);
        sim_diag_init(&diag);
        ck_assert_int_eq(ops_of(p, 0, ops, sizeof ops, 10, NULL), WL_NEXT_ERROR);
        expect_error_at("ok.trace", 5, 1,
                        "thread 0: 65536 rounds of this while without an operation "
                        "(WL_MAX_IDLE_LOOPS): it is stuck, or it computes what a let could");
        wl_program_free(p);
    }
}
END_TEST

/* Each entry into a while starts its own count: a thread that leaves a
 * while and enters it again (a for around it) was judged by the earlier
 * entry's record: a delay loop after a round that read memory was a spin (a
 * false deadlock), and the compute and idle-round limits added up the
 * entries (each ends well under its limit). */
START_TEST(test_while_reentry_is_fresh)
{
    static const char *const traces[] = {
        /* round 0 reads, round 1 computes 100 001 times: its own work */
        "ccsim-trace 2\nthreads 2\nline x\nline flag\nall: let r = 0\nif t == 0 {\n"
        "  for i 0..1 {\n    0: let r = 0\n    while r < 1 + i*100000 {\n      if i == 0 {\n"
        "        0: read x -> q\n      }\n      0: compute 1000\n      0: let r = r + 1\n"
        "    }\n  }\n}\n0: write flag 1\n1: wait flag == 1\nall: expect flag == 1\n",
        /* four entries of 300 000 computes: 1.2 M in all, under 2^20 each */
        "ccsim-trace 2\nthreads 1\nline x\nall: let r = 0\nfor i 0..3 {\n  0: let r = 0\n"
        "  while r < 300000 {\n    0: compute 1\n    0: let r = r + 1\n  }\n}\n",
        /* 100 entries of 1 000 rounds without an operation: 100 000 in all */
        "ccsim-trace 2\nthreads 1\nline x\nall: let r = 0\nall: let s = 0\nfor i 0..99 {\n"
        "  0: let r = 0\n  while r < 1000 {\n    0: let r = r + 1\n    0: let s = s + 1\n"
        "  }\n}\n0: write x 1\n",
        /* the same inside a while: the nested while's entries start afresh too */
        "ccsim-trace 2\nthreads 1\nline x\nall: let r = 0\nall: let go = 1\nwhile go == 1 {\n"
        "  for i 0..99 {\n    0: let r = 0\n    while r < 1000 {\n      0: let r = r + 1\n"
        "    }\n  }\n  0: let go = 0\n}\n0: write x 1\n"};
    for (size_t i = 0; i < SIM_COUNT_OF(traces); i++) {
        struct tu_run r;
        tu_ccsim(&r, "run -c teach-xbar %s", tu_write("reentry.trace", traces[i]));
        ck_assert_msg(r.status == 0, "trace %zu: %s%s", i, r.out, r.err);
    }
}
END_TEST

/* The cursor's size does not depend on loop counts: if and while keep no
 * record besides the depth. */
START_TEST(test_cursor_constant_memory)
{
    ck_assert_uint_le(sizeof(struct wl_cursor),
                      64 + sizeof(int64_t) * (2 * WL_MAX_DEPTH + WL_MAX_REGS));
    struct wl_program *p = parse_ok("ccsim-trace 2\nthreads 1\nline x\nall: let i = 0\n"
                                    "while i < 1000000 {\n"
                                    "  if i % 1000 == 0 {\n"
                                    "    all: write x i\n"
                                    "  }\n"
                                    "  all: let i = i + 1\n"
                                    "}\n");
    struct wl_cursor c;
    struct wl_op op;
    wl_cursor_init(&c, p, 0);
    int n = 0;
    sim_diag_init(&diag);
    while (wl_next(&c, &op, &diag) == WL_NEXT_OP)
        TU_CHECK(op.value[0] == 1000 * n++, "op %d: %lld", n, (long long)op.value[0]);
    ck_assert_int_eq(n, 1000);
    ck_assert_int_eq(diag.count, 0);
    wl_program_free(p);
}
END_TEST

/* ------------------------------------------------------------- runs */

/* Parses text for config `cfg` (with sets), substituting `threads N` when
 * threads > 0, and runs it with the checker on (non-fatal: violations are
 * counted) and the given watchdog. */
static void run_text(const char *cfg, const char *const *sets, size_t nsets, const char *name,
                     const char *text, int threads, sim_time_t watchdog_ps, struct core_result *res)
{
    struct machine_cfg m;
    tu_load_config(cfg, sets, nsets, &m);
    char *copy = NULL;
    if (threads > 0) { /* the `threads` line, as a user would edit it */
        const char *at = strstr(text, "\nthreads ");
        ck_assert(at != NULL);
        const char *eol = strchr(at + 1, '\n');
        size_t len = strlen(text) + 32;
        copy = malloc(len);
        snprintf(copy, len, "%.*s\nthreads %d%s", (int)(at - text), text, threads, eol);
        text = copy;
    }
    struct wl_parse_opts po = {(int)m.machine.line_bytes, (int)m.machine.cores,
                               (int)m.machine.threads_per_core};
    sim_diag_init(&diag);
    struct wl_program *p = wl_parse_text(name, text, strlen(text), &po, &diag);
    ck_assert_msg(p != NULL, "%s: %s", name, diag.text);
    struct machine *mc = machine_build(&m, 1, &diag);
    ck_assert_msg(mc != NULL, "%s", diag.text);
    cc_check_enable(mc->cc, false);
    struct core_machine w;
    machine_view(mc, &w);
    struct core_run_opts o = {.watchdog_ps = watchdog_ps, .max_reports = 3};
    core_run(&w, p, &o, res, &diag);
    machine_free(mc);
    wl_program_free(p);
    free(copy);
}

#define WATCHDOG_PS (200ull * 1000 * 1000) /* 200 us of simulated time */

static const char *const protocols[] = {"machine.protocol=\"mesi\"", "machine.protocol=\"mesif\"",
                                        "machine.protocol=\"moesi\"", "machine.protocol=\"gols\""};

/* xchg and cmpxchg return the old word, cas 1 or 0, let sets a register,
 * fence does nothing: on every protocol, checked by expect. */
START_TEST(test_atomics_values)
{
    const char *fixed = "ccsim-trace 2\nthreads 2\nline x\nline y\n"
                        "0: write x 5\n"
                        "all: sync\n"
                        "0: xchg x 9 -> a\n"       /* a = 5, x = 9 */
                        "0: cmpxchg x 9 11 -> b\n" /* b = 9, x = 11 */
                        "0: cmpxchg x 3 4 -> c\n"  /* fails: c = 11 */
                        "0: cas x 11 12 -> d\n"    /* d = 1, x = 12 */
                        "0: cas x 11 13 -> e\n"    /* e = 0 */
                        "0: fence\n"
                        "0: let f = a*10000 + b*1000 + c*10 + d*2 + e\n" /* 59112 */
                        "0: write y f\n"
                        "all: sync\n"
                        "1: xchg y 0 -> g\n" /* another core's view: g = 59112 */
                        "1: add x g -> h\n"  /* fetch-and-add gives the old value: 12 */
                        "1: write y h\n"
                        "all: sync\n"
                        "all: expect x == 12 + 59112\n"
                        "all: expect y == 12\n";
    for (size_t i = 0; i < SIM_COUNT_OF(protocols); i++) {
        struct core_result res;
        run_text("teach-xbar", &protocols[i], 1, "atomics.trace", fixed, 0, WATCHDOG_PS, &res);
        ck_assert_msg(!res.deadlock && !res.input_error && res.value_errors == 0 &&
                          res.coherence_violations == 0,
                      "%s: %s", protocols[i], diag.text);
        core_result_free(&res);
    }
}
END_TEST

/* The SCC: xchg on private memory, and the test-and-set register takes
 * xchg R 1 and cmpxchg R 0 1 (test and set), nothing else of version 2. */
START_TEST(test_scc_exchange)
{
    struct core_result res;
    run_text("scc", NULL, 0, "scc.trace",
             "ccsim-trace 2\nthreads 2\nline lk tas=0\nline x\n"
             "0: xchg lk 1 -> a\n"
             "all: sync\n"
             "1: cmpxchg lk 0 1 -> b\n" /* held: b = 1 */
             "0: xchg x 7 -> c\n"
             "0: write x a*100 + c*10 + 3\n"
             "0: flush x\n"
             "all: sync\n"
             "1: flush x\n"
             "1: read x -> v\n"
             "1: write lk 0\n"
             "all: sync\n"
             "1: xchg lk 1 -> d\n" /* free again: d = 0 */
             "1: write x v + b*1000 + d\n"
             "1: flush x\n"
             "all: sync\n"
             "0: flush x\n"
             "0: expect x == 1003\n",
             0, WATCHDOG_PS, &res);
    ck_assert_msg(!res.deadlock && !res.input_error && res.value_errors == 0, "%s", diag.text);
    core_result_free(&res);
    run_text("scc", NULL, 0, "scc.trace",
             "ccsim-trace 2\nthreads 1\nline lk tas=0\n"
             "0: xchg lk 2 -> a\n",
             0, WATCHDOG_PS, &res);
    ck_assert(res.input_error);
    ck_assert_msg(strstr(diag.text, "scc.trace:4:1: thread 0: xchg on a test-and-set register: "
                                    "a register takes read (test and set), write, wait, cas R 0 "
                                    "1, cmpxchg R 0 1, xchg R 1, on word 0 only"),
                  "%s", diag.text);
    core_result_free(&res);
}
END_TEST

/* A test-and-set spin lock built from xchg keeps a counter right. */
START_TEST(test_xchg_spin_lock)
{
    const char *text = "ccsim-trace 2\nthreads 4\nline lock\nline counter\n"
                       "for it 0..2 {\n"
                       "  all: sync\n"
                       "  all: xchg lock 1 -> held\n"
                       "  while held != 0 {\n"
                       "    all: wait lock == 0\n"
                       "    all: xchg lock 1 -> held\n"
                       "  }\n"
                       "  all: read counter -> c\n"
                       "  all: write counter c+1\n"
                       "  all: write lock 0\n"
                       "  all: mark done\n"
                       "}\n"
                       "all: sync\n"
                       "0: expect counter == 3*n\n";
    for (size_t i = 0; i < SIM_COUNT_OF(protocols); i++) {
        struct core_result res;
        run_text("teach-xbar", &protocols[i], 1, "tas.trace", text, 0, WATCHDOG_PS, &res);
        ck_assert_msg(!res.deadlock && !res.input_error && res.value_errors == 0 &&
                          res.coherence_violations == 0 && res.iterations == 3,
                      "%s: %s", protocols[i], diag.text);
        core_result_free(&res);
    }
}
END_TEST

/* A spin that can never end is a deadlock (the watchdog), reported with
 * the spinning thread; the CLI's report names the loop. */
START_TEST(test_runaway_while_is_a_deadlock)
{
    const char *text = "ccsim-trace 2\nthreads 2\nline flag\nline other\n"
                       "0: write other 1\n"
                       "all: read flag -> f\n"
                       "while f == 0 {\n"
                       "  all: compute 20\n"
                       "  all: read flag -> f\n"
                       "  all: xchg other 1 -> o\n" /* writes, but changes nothing */
                       "}\n";
    struct core_result res;
    run_text("teach-xbar", NULL, 0, "spin.trace", text, 0, WATCHDOG_PS, &res);
    ck_assert(res.deadlock);
    ck_assert(!res.input_error);
    core_result_free(&res);
    const char *path = tu_write("spin.trace", text);
    struct tu_run r;
    tu_ccsim(&r, "run -c teach-xbar %s", path);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "no operation finished outside a while loop and none in one "
                                "changed memory"),
                  "%s", r.err);
    ck_assert_msg(strstr(r.err, "thread 0 (core 0.0) at ") &&
                      strstr(r.err, "spins in a while loop"),
                  "%s", r.err);
    ck_assert_msg(strstr(r.out, "DEADLOCK"), "%s", r.out);
}
END_TEST

/* A loop that changes memory in every round is progress to the watchdog:
 * one that never ends stopped only on a signal. The run stops at its
 * simulated-time limit (--max-time), says where each thread was without
 * calling it stuck, measures no unfinished iteration and exits 1; the
 * JSON and the timeline say so. */
START_TEST(test_endless_writer_stops_at_time_limit)
{
    const char *text = "ccsim-trace 2\nthreads 2\nline x\nline y\n"
                       "all: sync\n"
                       "all: let r = t\n"
                       "while r == 0 {\n"
                       "  0: write x 1\n"
                       "  0: write x 2\n"
                       "  0: read y -> r\n"
                       "}\n"
                       "all: mark done\n";
    const char *path = tu_write("writer.trace", text);
    char json[512], timeline[512];
    snprintf(json, sizeof json, "%s/writer.json", tu_dir());
    snprintf(timeline, sizeof timeline, "%s/writer-trace.json", tu_dir());
    struct tu_run r;
    tu_ccsim(&r, "run -c teach-xbar %s --max-time 20000 --json %s --trace-out %s", path, json,
             timeline);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "the run reached its simulated-time limit, 20000.000 ns, not "
                                "finished"),
                  "%s", r.err);
    ck_assert_msg(strstr(r.err, "thread 0 (core 0.0) at ") &&
                      strstr(r.err, "runs a while loop, in write x; the word x.0 is "),
                  "%s", r.err);
    ck_assert_msg(strstr(r.err, "had not judged it stuck") && !strstr(r.err, "ccsim: deadlock") &&
                      !strstr(r.err, "spins"),
                  "%s", r.err);
    ck_assert_msg(strstr(r.out, "latency: no iteration completed before the time limit") &&
                      strstr(r.out, "TIME LIMIT (not finished)") && !strstr(r.out, "DEADLOCK"),
                  "%s", r.out);
    const char *j = tu_slurp(json);
    ck_assert_msg(strstr(j, "\"deadlock\": false, \"time_limit\": true"), "%s", j);
    ck_assert_msg(strstr(j, "\"simulated_ns\": 20000}"), "%s", j);
    const char *tl = tu_slurp(timeline);
    ck_assert_msg(strstr(tl, "(unfinished: the run stopped at its time limit)"), "%.400s", tl);
    tu_ccsim(&r, "explain -c teach-xbar %s --max-time 2000 --max-lines 5", path);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "simulated-time limit, 2000.000 ns"), "%s", r.err);
    /* a limit of a fraction of a ns is printed whole (it read 74 ns) */
    tu_ccsim(&r, "run -c teach-xbar %s --max-time 74.999", path);
    ck_assert_msg(strstr(r.out, "events, 74.999 ns simulated, "), "%s", r.out);
    tu_ccsim(&r, "run -c teach-xbar %s --max-time 0", path);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--max-time '0'"), "%s", r.err);
    tu_ccsim(&r, "run -c teach-xbar %s --max-time soon", path);
    ck_assert_int_eq(r.status, 2);
    /* one that ends before the limit is a run like any other */
    tu_ccsim(&r, "run -c teach-xbar %s/../workloads/traces/pingpong.trace --max-time 1e9 --json -",
             CCSIM_TEST_DIR);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "\"deadlock\": false, \"time_limit\": false"), "%s", r.out);
}
END_TEST

/* What the time-limit report says of a thread is what it was doing: one
 * still in its start skew has begun nothing (its next op was read ahead);
 * a wait whose core's copy is in transition has not seen the word; a
 * copy in a while loop reports its lines; explain says where the run was
 * cut; on the SCC a word the core sees ahead of memory is its own posted
 * write, not a stale copy. */
START_TEST(test_time_limit_report_is_true)
{
    const char *text = "ccsim-trace 2\nthreads 2\nline x\nline y\nline a 8\nline b 8\n"
                       "all: sync\n"
                       "all: let r = t\n"
                       "while r == 0 {\n"
                       "  0: write x 1\n"
                       "  0: write x 2\n"
                       "  0: copy a b 8\n"
                       "  0: read y -> r\n"
                       "}\n"
                       "all: mark done\n";
    const char *path = tu_write("limit.trace", text);
    char timeline[512];
    snprintf(timeline, sizeof timeline, "%s/limit-trace.json", tu_dir());
    struct tu_run r;
    tu_ccsim(&r,
             "run -c teach-xbar --set variability.start_skew_ns=1000 %s --max-time 1 "
             "--trace-out %s",
             path, timeline);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "thread 0 (core 0.0): leaves the run's start after its start "
                                "skew; it has begun no operation since\n"),
                  "%s", r.err);
    ck_assert_msg(!strstr(tu_slurp(timeline), "unfinished"), "%.600s", tu_slurp(timeline));
    tu_ccsim(&r, "run -c teach-xbar -w pingpong -t 2 -i 100000000 --max-time 1000");
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "waits for recv1.7 >= 6; its core's copy is in transition (a "
                                "request for the line in flight; the line holds 6)"),
                  "%s", r.err);
    /* a wait whose word already meets its condition ends with its poll */
    tu_ccsim(&r, "run -c knl-7290 -w pingpong -t 2 -i 100000 --max-time 5000");
    ck_assert_msg(strstr(r.err, "waits for recv1.7 >= 121; the word is 121, its copy M (which "
                                "meets the condition: the poll under way, or due, reads it and "
                                "ends the wait)"),
                  "%s", r.err);
    tu_ccsim(&r, "run -c teach-xbar %s --max-time 300", path);
    ck_assert_msg(strstr(r.err, "in copy a[0]: 4 of its 8 lines stored"), "%s", r.err);
    /* a hit's store is performed (b[0] 5 -> 0) two cycles before its access
     * ends: stored, not "0 of its 1" */
    const char *hit = tu_write("copy-hit.trace", "ccsim-trace 1\nthreads 2\nline a 4\nline b 4\n"
                                                 "line x 1\n0: write b 5\n0: copy a b 1\n"
                                                 "1: wait x == 1\n");
    tu_ccsim(&r, "run -c teach-xbar %s --max-time 153", hit);
    ck_assert_msg(strstr(r.err, "in copy a[0]: 1 of its 1 lines stored, its last store's access "
                                "not yet ended\n"),
                  "%s", r.err);
    tu_ccsim(&r, "run -c teach-xbar %s --max-time 151", hit);
    ck_assert_msg(strstr(r.err, "in copy a[0]: 0 of its 1 lines stored\n"), "%s", r.err);
    ck_assert_msg(!strstr(r.err, "in mark \n") && !strstr(r.err, "in compute \n"), "%s", r.err);
    tu_ccsim(&r, "explain -c teach-xbar %s --max-time 30", path);
    ck_assert_msg(
        strstr(r.out, "the run stopped at its simulated-time limit (30.000 ns), not finished"),
        "%s", r.out);
    tu_ccsim(&r, "run -c teach-xbar %s --max-time 0x10", path);
    ck_assert_int_eq(r.status, 2);
    const char *scc = "ccsim-trace 2\nthreads 2\nline flag\nline cnt 2\n"
                      "0: read flag -> v\n0: compute 100\n0: write flag 1\n"
                      "1: read flag -> v\n1: let k = 0\n"
                      "while t == 1 && v == 0 {\n"
                      "  1: write cnt[1] k\n  1: let k = k + 1\n  1: read flag -> v\n}\n";
    tu_ccsim(&r, "run -c scc %s --max-time 2100", tu_write("posted.trace", scc));
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "to its core (its own write, still on its way; the line holds ") &&
                      !strstr(r.err, "its stale copy"),
                  "%s", r.err);
    ck_assert_msg(strstr(r.err, "the scc protocol keeps no copies coherent"), "%s", r.err);
    /* an MPB line's words drained from the combining buffer, on their way */
    const char *mpb = "ccsim-trace 2\nthreads 1\nline m 2 mpb=0\n0: read m[0] -> v\n"
                      "0: let k = 1\nwhile v == 0 {\n  0: write m[0].0 k\n  0: write m[0].1 k\n"
                      "  0: write m[0].2 k\n  0: write m[0].3 k\n  0: let k = k + 1\n"
                      "  0: read m[1] -> v\n}\n";
    tu_ccsim(&r, "run -c scc %s --max-time 500", tu_write("mpbw.trace", mpb));
    ck_assert_msg(strstr(r.err, "the word m[0].3 is 3 to its core (its own write, still on its "
                                "way; the line holds 2)"),
                  "%s", r.err);
    /* every thread at the sync, the release waiting for the machine */
    const char *pend = "ccsim-trace 1\nthreads 2\nline x home=0\nline big 17 home=0\n"
                       "all: sync\n0: read big[0]\n0: read big[8]\n0: write big[0] 1\n"
                       "0: write big[8] 1\n0: read big[16]\nall: sync\nall: mark m\n";
    tu_ccsim(&r, "run -c teach-xbar --set l1.size_kb=1 --set l1.ways=2 %s --max-time 265",
             tu_write("pend.trace", pend));
    ck_assert_msg(strstr(r.err, "waits at sync (2 of 2 live threads arrived; the release waits for "
                                "the machine to be quiet)"),
                  "%s", r.err);
}
END_TEST

/* A while loop over the thread's own variables that touches no memory is
 * the thread's own work, not a spin: its computes, together longer than
 * the watchdog's interval, run to the end (it was reported as a deadlock),
 * also right after a spin loop (a loop is the thread's outermost while);
 * 2^16 computes in a row are an error, also of compute 0 (that one hung:
 * simulated time never moved). */
START_TEST(test_local_while_is_work)
{
    char text[512];
    /* 3 computes of 1.5 watchdog intervals each (teach-xbar runs at 1 GHz) */
    snprintf(text, sizeof text,
             "ccsim-trace 2\nthreads 1\nline x\n0: let i = 0\nwhile i < 3 {\n"
             "  0: compute %llu\n  0: let i = i + 1\n}\n0: write x 1\n0: read x\n",
             (unsigned long long)(WATCHDOG_PS * 3 / 2 / SIM_PS_PER_NS));
    struct core_result res;
    run_text("teach-xbar", NULL, 0, "local.trace", text, 0, WATCHDOG_PS, &res);
    ck_assert_msg(!res.deadlock && !res.input_error, "%s", diag.text);
    core_result_free(&res);
    snprintf(text, sizeof text,
             "ccsim-trace 2\nthreads 1\nline x\n0: write x 1\n0: read x -> f\n"
             "while f == 0 {\n  0: read x -> f\n}\n0: let i = 0\nwhile i < 3 {\n"
             "  0: compute %llu\n  0: let i = i + 1\n}\n0: read x\n",
             (unsigned long long)(WATCHDOG_PS * 3 / 2 / SIM_PS_PER_NS));
    run_text("teach-xbar", NULL, 0, "after-spin.trace", text, 0, WATCHDOG_PS, &res);
    ck_assert_msg(!res.deadlock && !res.input_error, "%s", diag.text);
    core_result_free(&res);
    /* a loop that reads memory and computes longer than the watchdog's
     * interval in each round is work under way while its state is new (its
     * counter moves on), not a spin */
    snprintf(text, sizeof text,
             "ccsim-trace 2\nthreads 1\nline x\n0: let i = 0\nwhile i < 3 {\n  0: read x -> v\n"
             "  0: compute %llu\n  0: let i = i + 1\n}\n0: read x\n",
             (unsigned long long)(WATCHDOG_PS * 3 / 2 / SIM_PS_PER_NS));
    run_text("teach-xbar", NULL, 0, "work.trace", text, 0, WATCHDOG_PS, &res);
    ck_assert_msg(!res.deadlock && !res.input_error, "%s", diag.text);
    core_result_free(&res);
    /* a backoff that reaches its cap on a lock never released repeats its
     * state: a spin, stopped */
    snprintf(
        text, sizeof text,
        "ccsim-trace 2\nthreads 1\nline lock\n0: write lock 1\n0: let d = 10\n"
        "0: xchg lock 1 -> old\nwhile old != 0 {\n  0: compute d\n  0: let d = min(d * 2, %llu)\n"
        "  0: xchg lock 1 -> old\n}\n",
        (unsigned long long)(WATCHDOG_PS * 3 / 2 / SIM_PS_PER_NS));
    run_text("teach-xbar", NULL, 0, "capped.trace", text, 0, WATCHDOG_PS, &res);
    ck_assert_msg(res.deadlock && !res.input_error, "%s", diag.text);
    core_result_free(&res);
    for (int cycles = 0; cycles <= 1000; cycles += 1000) {
        snprintf(text, sizeof text,
                 "ccsim-trace 2\nthreads 1\nline x\n0: let i = 0\nwhile i >= 0 {\n"
                 "  0: compute %d\n  0: let i = i + 1\n}\n",
                 cycles);
        struct tu_run r;
        tu_ccsim(&r, "run -c teach-xbar %s", tu_write("endless.trace", text));
        ck_assert_int_eq(r.status, 2);
        /* compute 0 never moves time on; compute 1000 does, 2^20 times (1.05 s,
         * under the 10 s time limit) */
        ck_assert_msg(cycles == 0 ? strstr(r.err, "endless.trace:6:3: thread 0: 1048576 "
                                                  "operations in a while loop without simulated "
                                                  "time passing")
                                  : strstr(r.err, "endless.trace:6:3: thread 0: 1048576 computes "
                                                  "in a row in a while loop that touches no "
                                                  "memory: ccsim stops such a loop here"),
                      "%s", r.err);
    }
}
END_TEST

/* A copy is work under way line by line: one longer than the watchdog's
 * interval runs to its end (it was a deadlock that "cannot finish"); in a
 * while loop only a line it changes is progress, so a loop that copies the
 * same bytes for ever is a spin (it ran without end). */
/* Ops that end at once outside while loops retire (a sync's release, a
 * mark): a run whose other ops are all in while loops that only read went
 * past the watchdog's interval as a deadlock ("no operation finished
 * outside a while loop") with thousands of iterations done. And a while
 * loop that works through new states is not stopped when the watchdog
 * looks between two of its computes (it writes every 5 rounds, 16.7 ms,
 * past the 10 ms interval). */
START_TEST(test_retired_ops_are_progress)
{
    struct core_result res;
    run_text("teach-xbar", NULL, 0, "syncs.trace",
             "ccsim-trace 2\nthreads 2\nline x\nfor it 0..999 {\n  all: sync\n  all: let i = 0\n"
             "  while i < 200 {\n    all: read x -> v\n    all: let i = i + 1\n  }\n"
             "  all: mark done\n}\n",
             0, WATCHDOG_PS, &res);
    ck_assert_msg(!res.deadlock && res.iterations == 1000, "%s", diag.text);
    core_result_free(&res);
    struct tu_run r;
    tu_ccsim(&r, "run -c teach-xbar %s",
             tu_write("slow.trace", "ccsim-trace 2\nthreads 1\nline x\nline y\nall: write y 1\n"
                                    "all: let i = 0\nwhile i < 40 {\n  all: read x -> v\n"
                                    "  all: evict x\n  all: compute 3333240\n  all: let i = i + 1\n"
                                    "  if i % 5 == 0 {\n    all: write y i\n  }\n}\n"
                                    "all: mark done\n"));
    ck_assert_msg(r.status == 0 && !strstr(r.err, "deadlock"), "%s%s", r.out, r.err);
    /* but a sync inside a spin is no progress (its releases kept a spin on a
     * lock never released running, its memory growing), and a spin that
     * counts its rounds is judged within a few intervals: its new-state
     * computes count for two intervals after its last change to memory (it
     * ran 2^16 rounds of 1 000 reads, 65 M loads, before) */
    run_text("teach-xbar", NULL, 0, "syncspin.trace",
             "ccsim-trace 2\nthreads 2\nline lock\n0: write lock 1\nall: sync\nall: let v = 1\n"
             "while v != 0 {\n  all: sync\n  all: read lock -> v\n}\n",
             0, WATCHDOG_PS, &res);
    ck_assert_msg(res.deadlock && !res.input_error, "%s", diag.text);
    core_result_free(&res);
    run_text("teach-xbar", NULL, 0, "countspin.trace",
             "ccsim-trace 2\nthreads 1\nline lock\n0: write lock 1\n0: let v = 1\n0: let i = 0\n"
             "while v != 0 {\n  0: let k = 0\n  while v != 0 && k < 1000 {\n"
             "    0: read lock -> v\n    0: let k = k + 1\n  }\n  0: let i = i + 1\n"
             "  0: compute 1\n}\n",
             0, WATCHDOG_PS, &res);
    ck_assert_msg(res.deadlock && !res.input_error && res.loads < 2000000, "%llu loads: %s",
                  (unsigned long long)res.loads, diag.text);
    core_result_free(&res);
}
END_TEST

START_TEST(test_long_copy_is_work)
{
    struct core_result res;
    run_text("teach-xbar", NULL, 0, "long.trace",
             "ccsim-trace 1\nthreads 1\nline src 8192\nline dst 8192\n"
             "0: copy src[0] dst[0] 8192\n0: mark m\n",
             0, WATCHDOG_PS, &res);
    ck_assert_msg(!res.deadlock && !res.input_error && res.simulated_ns * 1000 > 2 * WATCHDOG_PS,
                  "%s", diag.text);
    core_result_free(&res);
    run_text("teach-xbar", NULL, 0, "copyspin.trace",
             "ccsim-trace 2\nthreads 1\nline src 8\nline dst 8\nline flag\n0: read flag -> f\n"
             "while f == 0 {\n  0: copy src[0] dst[0] 8\n  0: read flag -> f\n}\n",
             0, WATCHDOG_PS, &res);
    ck_assert_msg(res.deadlock && !res.input_error, "%s", diag.text);
    core_result_free(&res);
    /* on the SCC a line the core holds M is ahead of memory: the bytes
     * compared are the core's (against memory, each round was a change) */
    run_text("scc", NULL, 0, "sccspin.trace",
             "ccsim-trace 2\nthreads 1\nline flag\nline a 2\nline b 2\n0: write a[0].1 7\n"
             "0: prime b[0] M\n0: read flag -> v\nwhile v == 0 {\n  0: copy a[0] b[0] 1\n"
             "  0: read flag -> v\n}\n",
             0, WATCHDOG_PS, &res);
    ck_assert_msg(res.deadlock && !res.input_error, "%s", diag.text);
    core_result_free(&res);
}
END_TEST

/* The report's transactions in flight name lines as the trace does and
 * homes by their number (it gave the home's network node, "home 4" of a
 * machine of 2 homes, and "line 0x0"). */
START_TEST(test_deadlock_report_names)
{
    /* the report goes to stderr: into a file (the test runs in its own
     * process), with the short watchdog (a spin of 10 ms took 6 s under
     * the sanitizers) */
    char path[600];
    snprintf(path, sizeof path, "%s/report.txt", tu_dir());
    ck_assert(freopen(path, "w", stderr) != NULL);
    struct core_result res;
    run_text("teach-xbar", NULL, 0, "lock.trace",
             "ccsim-trace 2\nthreads 4\nline lock\n0: xchg lock 1 -> old\n1..3: let got = 1\n"
             "while got != 0 {\n  1..3: xchg lock 1 -> got\n}\n",
             0, WATCHDOG_PS, &res);
    fflush(stderr);
    ck_assert(res.deadlock);
    core_result_free(&res);
    const char *err = tu_slurp(path);
    ck_assert_msg(strstr(err, "  home 0 line lock: MM_U") && strstr(err, " line lock: IM_D") &&
                      !strstr(err, "0x"),
                  "%s", err);
}
END_TEST

/* A while whose ops all cost nothing ends with an error, not a hang. */
START_TEST(test_zero_time_while)
{
    struct core_result res;
    run_text("teach-xbar", NULL, 0, "zero.trace",
             "ccsim-trace 2\nthreads 1\nline x\nall: let r = 0\nwhile r == 0 {\n"
             "  all: fence\n  all: let r = 0\n}\n",
             0, WATCHDOG_PS, &res);
    ck_assert(res.input_error);
    ck_assert_msg(strstr(diag.text, "zero.trace:6:3: thread 0: 1048576 operations in a while "
                                    "loop without simulated time passing (WL_MAX_ZERO_OPS)"),
                  "%s", diag.text);
    core_result_free(&res);
}
END_TEST

/* ------------------------------------------------------------- examples */

struct example {
    const char *name;
    bool lock; /* also at 60 threads on the KNC */
    /* mutations: a line to remove or change (from -> to); each must end in
     * a value error or a deadlock */
    struct {
        const char *from, *to, *why;
    } mut[2];
};

static const struct example examples[] = {
    {"mcs-lock",
     true,
     {{"    all: write next[pred-1] t+1", "", "a missing link: the releaser waits forever"},
      {"all: write locked[succ-1] 0", "all: write locked[(succ)%n] 0",
       "a wrong successor: two threads in the critical section, or none"}}},
    {"clh-lock",
     true,
     {{"  all: write node[mine] 1", "", "a missing write: the successor does not wait"},
      {"all: wait node[pred] == 0", "all: wait node[mine] == 0",
       "a wrong predecessor: the thread waits for itself"}}},
    {"ticket-lock-backoff",
     true,
     {{"  all: write serving my+1", "", "a missing release: everyone spins forever"},
      {"while s != my {", "while s < my-1 {", "a wrong turn: two threads in at once"}}},
    {"sense-barrier",
     false,
     {{"    all: write count 0", "", "a missing reset: the next episode never completes"},
      {"if before == n-1 {", "if before == n-2 {", "a release one arrival early"}}},
    {"tournament-barrier",
     false,
     {{"      all: write arrive[t] it+1", "", "a missing arrival: the winner waits forever"},
      {"all: wait arrive[t+k] == it+1", "all: wait arrive[t+1] == it+1",
       "a wrong opponent: a winner leaves early"}}},
    {"spsc-ring",
     false,
     {{"      all: write tail[t/2] g+1", "", "a missing publish: the consumer waits forever"},
      {"all: read slot[4*(t/2) + g%4] -> v", "all: read slot[4*(t/2) + (g+1)%4] -> v",
       "a wrong slot: items out of order"}}},
};

static char *read_example(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/../workloads/traces/%s.trace", CCSIM_TEST_DIR, name);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "%s", path);
    char *buf = calloc(1, 1 << 16);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

/* teach-xbar has 4 cores of one thread: with 4 hardware threads a core it
 * takes 16. */
static const char *const xbar_threads[] = {"machine.threads_per_core=4"};

static void run_example(const char *cfg, const char *name, const char *text, int threads,
                        struct core_result *res)
{
    bool xbar = strcmp(cfg, "teach-xbar") == 0;
    run_text(cfg, xbar ? xbar_threads : NULL, xbar ? 1 : 0, name, text, threads, WATCHDOG_PS, res);
}

static const char *const machines[] = {"knc-5110p", "snb-e5-2660", "teach-xbar"};

START_TEST(test_example_clean)
{
    const struct example *ex = &examples[_i];
    char *text = read_example(ex->name);
    struct wl_program *p = parse_ok(text);
    tu_check_roundtrip(p);
    wl_program_free(p);
    for (size_t m = 0; m < SIM_COUNT_OF(machines); m++) {
        static const int counts[] = {2, 5, 16, 60};
        size_t ncounts = ex->lock && m == 0 ? 4 : 3;
        for (size_t k = 0; k < ncounts; k++) {
            struct core_result res;
            run_example(machines[m], ex->name, text, counts[k], &res);
            ck_assert_msg(!res.deadlock && !res.input_error && res.value_errors == 0 &&
                              res.coherence_violations == 0 && res.iterations > 0,
                          "%s on %s, %d threads: deadlock %d, value errors %llu, violations "
                          "%llu: %s",
                          ex->name, machines[m], counts[k], res.deadlock,
                          (unsigned long long)res.value_errors,
                          (unsigned long long)res.coherence_violations, diag.text);
            core_result_free(&res);
        }
    }
    free(text);
}
END_TEST

/* As shipped (4 threads), on the teaching machine under every protocol. */
START_TEST(test_example_every_protocol)
{
    const struct example *ex = &examples[_i];
    char *text = read_example(ex->name);
    for (size_t i = 0; i < SIM_COUNT_OF(protocols); i++) {
        struct core_result res;
        run_text("teach-xbar", &protocols[i], 1, ex->name, text, 0, WATCHDOG_PS, &res);
        ck_assert_msg(!res.deadlock && !res.input_error && res.value_errors == 0 &&
                          res.coherence_violations == 0 && res.iterations > 0,
                      "%s under %s: %s", ex->name, protocols[i], diag.text);
        core_result_free(&res);
    }
    free(text);
}
END_TEST

/* text with the line containing `from` replaced by `to` ("" removes it). */
static char *mutate(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    ck_assert_msg(at != NULL, "'%s' is not in the example", from);
    size_t len = strlen(text) + strlen(to) + 1;
    char *out = malloc(len);
    if (*to)
        snprintf(out, len, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    else { /* the whole line goes */
        const char *bol = at;
        while (bol > text && bol[-1] != '\n')
            bol--;
        const char *eol = strchr(at, '\n');
        snprintf(out, len, "%.*s%s", (int)(bol - text), text, eol ? eol + 1 : "");
    }
    return out;
}

START_TEST(test_example_mutations_caught)
{
    const struct example *ex = &examples[_i / 2];
    int k = _i % 2;
    char *text = read_example(ex->name);
    char *bad = mutate(text, ex->mut[k].from, ex->mut[k].to);
    for (size_t m = 0; m < SIM_COUNT_OF(machines); m++) {
        struct core_result res;
        run_example(machines[m], ex->name, bad, 5, &res);
        ck_assert_msg(!res.input_error, "%s: %s", ex->name, diag.text);
        ck_assert_msg(res.deadlock || res.value_errors > 0,
                      "%s on %s: the mutation (%s) went unnoticed", ex->name, machines[m],
                      ex->mut[k].why);
        core_result_free(&res);
    }
    free(bad);
    free(text);
}
END_TEST

static Suite *trace_v2_suite(void)
{
    Suite *s = suite_create("trace_v2");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, test_canonical_print);
    tcase_add_test(tc, test_version_kept);
    tcase_add_test(tc, test_generators_write_v1);
    tcase_add_test(tc, test_v1_names_stay_free);
    tcase_add_loop_test(tc, test_values, 0, (int)SIM_COUNT_OF(values));
    tcase_add_loop_test(tc, test_conditions, 0, (int)SIM_COUNT_OF(conds));
    tcase_add_test(tc, test_short_circuit);
    tcase_add_test(tc, test_runtime_errors);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_loop_test(tc, test_error_v2, 0, (int)SIM_COUNT_OF(errors_v2));
    tcase_add_loop_test(tc, test_v1_needs_v2, 0, (int)SIM_COUNT_OF(needs_v2));
    tcase_add_test(tc, test_block_depth);
    suite_add_tcase(s, tc);
    tc = tcase_create("cursor");
    tcase_add_test(tc, test_if_chain_per_thread);
    tcase_add_test(tc, test_while_rounds);
    tcase_add_test(tc, test_while_idle_limit);
    tcase_add_test(tc, test_while_reentry_is_fresh);
    tcase_add_test(tc, test_retired_ops_are_progress);
    tcase_add_test(tc, test_cursor_constant_memory);
    suite_add_tcase(s, tc);
    tc = tcase_create("runs");
    tcase_add_test(tc, test_atomics_values);
    tcase_add_test(tc, test_scc_exchange);
    tcase_add_test(tc, test_xchg_spin_lock);
    tcase_add_test(tc, test_runaway_while_is_a_deadlock);
    tcase_add_test(tc, test_endless_writer_stops_at_time_limit);
    tcase_add_test(tc, test_time_limit_report_is_true);
    tcase_add_test(tc, test_zero_time_while);
    tcase_add_test(tc, test_local_while_is_work);
    tcase_add_test(tc, test_long_copy_is_work);
    tcase_add_test(tc, test_deadlock_report_names);
    suite_add_tcase(s, tc);
    tc = tcase_create("examples");
    tcase_add_loop_test(tc, test_example_clean, 0, (int)SIM_COUNT_OF(examples));
    tcase_add_loop_test(tc, test_example_every_protocol, 0, (int)SIM_COUNT_OF(examples));
    tcase_add_loop_test(tc, test_example_mutations_caught, 0, 2 * (int)SIM_COUNT_OF(examples));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(trace_v2_suite());
}
