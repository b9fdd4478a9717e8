/*
 * test_trace.c -- the trace format (workloads/): every statement parses,
 * every mistake gives FILE:LINE:COL and says what is wrong, printing is
 * canonical and round-trips, the cursor yields each thread's operations with
 * lazily evaluated registers, loops cost no memory, and no input (truncated
 * or mutated) crashes the parser or the cursor.
 */
#include "testutil.h"
#include "core.h"
#include "gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct sim_diag diag;

static struct wl_program *parse_opts(const char *name, const char *text,
                                     const struct wl_parse_opts *opts)
{
    sim_diag_init(&diag);
    struct wl_program *p = wl_parse_text(name, text, strlen(text), opts, &diag);
    ck_assert_msg((p == NULL) == (diag.count > 0), "result and diagnostics disagree: %s",
                  diag.text);
    return p;
}

static struct wl_program *parse(const char *name, const char *text)
{
    return parse_opts(name, text, NULL);
}

static struct wl_program *parse_ok(const char *text)
{
    struct wl_program *p = parse("ok.trace", text);
    ck_assert_msg(p != NULL, "%s", diag.text);
    return p;
}

/* The diagnostics hold a line "NAME:LINE:COL: ..." containing `what`. */
static void expect_error_at(const char *name, int line, int col, const char *what)
{
    char prefix[700];
    snprintf(prefix, sizeof prefix, "%.600s:%d:%d: ", name, line, col);
    tu_expect_diag(&diag, prefix, what);
}

/* An operation as text: "read data[3].1 -> r". */
static void render(const struct wl_program *p, const struct wl_op *op, char *buf, size_t size)
{
    size_t n = (size_t)snprintf(buf, size, "%s", wl_op_name(op->op));
    int ia = 0, iv = 0;
    for (const char *k = wl_op_args(op->op); *k && n < size; k++) {
        char part[256];
        switch (*k) {
        case 'A':
        case 'R':
        case 'B': {
            char name[96], last[96] = "";
            const struct wl_loc *l = &op->addr[ia++];
            wl_line_name(p, l->line, name, sizeof name);
            if (*k == 'R' && op->count > 1) /* a range: "a[0]..a[3]" */
                wl_line_name(p, l->line + op->count - 1, last, sizeof last);
            snprintf(part, sizeof part, "%s%s%s", name, *last ? ".." : "", last);
            if (l->word)
                snprintf(part + strlen(part), sizeof part - strlen(part), ".%d", l->word);
            break;
        }
        case 'V':
            snprintf(part, sizeof part, "%lld", (long long)op->value[iv++]);
            break;
        case 'N':
        case 'Y':
            snprintf(part, sizeof part, "%lld", (long long)op->count);
            break;
        case 'C':
            snprintf(part, sizeof part, "%s", wl_cmp_text(op->cmp));
            break;
        case 'L':
            snprintf(part, sizeof part, "%s", wl_program_label(p, op->label));
            break;
        default:
            snprintf(part, sizeof part, "%s", wl_state_text(op->state));
            break;
        }
        n += (size_t)snprintf(buf + n, size - n, " %s", part);
    }
    if (op->reg >= 0 && n < size)
        snprintf(buf + n, size - n, " -> %s", wl_program_reg(p, op->reg));
}

/* Runs thread t to its end; every op that sets a register gets 1000 + its
 * position. Returns the ops joined by "; " (or stops at max ops). */
static enum wl_next_result run_thread(const struct wl_program *p, int t, char *out, size_t size,
                                      int max)
{
    struct wl_cursor c;
    struct wl_op op;
    enum wl_next_result r = WL_NEXT_END;
    size_t n = 0;
    out[0] = '\0';
    wl_cursor_init(&c, p, t);
    for (int k = 0; k < max && (r = wl_next(&c, &op, &diag)) == WL_NEXT_OP; k++) {
        char one[256];
        render(p, &op, one, sizeof one);
        if (n < size)
            n += (size_t)snprintf(out + n, size - n, "%s%s", k ? "; " : "", one);
        if (op.reg >= 0)
            wl_set_reg(&c, op.reg, 1000 + k);
    }
    return r;
}

/* ------------------------------------------------------------- parsing */

#define HDR "ccsim-trace 1\nthreads 4\nline x\nline data 8\n" /* statements from line 5 */

START_TEST(test_design_example)
{
    struct wl_program *p = parse_ok("ccsim-trace 1\n"
                                    "threads 4                  # required\n"
                                    "pin 0 1 2 3\n"
                                    "line flag home=0\n"
                                    "line data 8\n"
                                    "for it 0..999 {\n"
                                    "  all: sync\n"
                                    "  all: evict flag\n"
                                    "  0: write flag it+1\n"
                                    "  1..3: wait flag >= it+1\n"
                                    "  1..3: copy data[0] data[t] 1\n"
                                    "  all: mark done\n"
                                    "}\n");
    ck_assert_int_eq(wl_program_threads(p), 4);
    ck_assert(wl_program_pinned(p));
    ck_assert_int_eq(wl_program_line_count(p), 9);
    ck_assert_int_eq(wl_program_decl_count(p), 2);
    ck_assert_int_eq(wl_program_decl(p, 0)->home, 0);
    ck_assert_int_eq(wl_program_decl(p, 1)->home, -1);
    ck_assert_int_eq(wl_program_decl(p, 1)->first, 1);
    ck_assert_int_eq(wl_program_stmt_count(p), 8);
    ck_assert_int_eq(wl_program_label_count(p), 1);
    ck_assert_str_eq(wl_program_label(p, 0), "done");
    tu_check_roundtrip(p);
    wl_program_free(p);
}
END_TEST

/* A chain of unary minuses as deep as the parser takes prints as deep:
 * printed as -(-(-x)) it nested twice as deep and did not parse back
 * (fuzz_trace); and a binary minus before one. */
START_TEST(test_unary_chain_prints_as_deep)
{
    char text[512];
    int n = snprintf(text, sizeof text,
                     "ccsim-trace 2\nthreads 1\nline x\n0: read x -> r\n"
                     "0: let a = ");
    for (int i = 0; i < 60; i++)
        text[n++] = '-';
    n += snprintf(text + n, sizeof text - (size_t)n, "r\n0: let b = a - ");
    for (int i = 0; i < 60; i++)
        text[n++] = '-';
    snprintf(text + n, sizeof text - (size_t)n, "r\n");
    struct wl_program *p = parse_ok(text);
    tu_check_roundtrip(p);
    char *printed = tu_print_program(p);
    ck_assert_msg(strstr(printed, "0: let a = - - -") && strstr(printed, "0: let b = a- - -"), "%s",
                  printed);
    free(printed);
    wl_program_free(p);
}
END_TEST

/* Messy but valid text prints in the canonical form. */
START_TEST(test_canonical_print)
{
    struct wl_program *p = parse_ok("# a comment\n"
                                    "   ccsim-trace   1   # header\n"
                                    "\n"
                                    "threads 2\n"
                                    "pin 0.1\t3\r\n"
                                    "line   a     home = 2\n"
                                    "line b (1+1)*2\n"
                                    "for i 0 .. (n-1) {\n"
                                    "    0 , 1 : write a.(0) -(i)\n"
                                    "all:cas b[i] 0 (-1)->r\n"
                                    "  1: write b[(i)] ((r - -1))   # parentheses dropped\n"
                                    "  0: wait a.(i+1) != 2*(r+1) -> r\n"
                                    "}\n"
                                    "all: compute 1-(2-3)-4*(5%3)/-1\n"
                                    "all: write a --1+2*-(3)\n");
    char *text = tu_print_program(p);
    ck_assert_str_eq(text, "ccsim-trace 1\n"
                           "threads 2\n"
                           "pin 0.1 3\n"
                           "line a home=2\n"
                           "line b (1+1)*2\n"
                           "for i 0..n-1 {\n"
                           "  0,1: write a.0 -i\n"
                           "  all: cas b[i] 0 (-1) -> r\n"
                           "  1: write b[i] r- -1\n"
                           "  0: wait a.(i+1) != 2*(r+1) -> r\n"
                           "}\n"
                           "all: compute 1-(2-3)-4*(5%3)/-1\n"
                           "all: write a - -1+2*-3\n");
    free(text);
    tu_check_roundtrip(p);
    wl_program_free(p);
}
END_TEST

/* The operations thread t of p yields, marked in seen[] (registers: 0). */
static void mark_ops(const struct wl_program *p, bool *seen)
{
    for (int t = 0; t < wl_program_threads(p); t++) {
        struct wl_cursor c;
        struct wl_op op;
        wl_cursor_init(&c, p, t);
        while (wl_next(&c, &op, &diag) == WL_NEXT_OP)
            seen[op.op] = true;
        ck_assert_msg(diag.count == 0, "%s", diag.text);
    }
}

START_TEST(test_every_statement)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/traces/everything.trace", CCSIM_TEST_DIR);
    sim_diag_init(&diag);
    struct wl_program *p = wl_parse_file(path, NULL, &diag);
    ck_assert_msg(p != NULL, "%s", diag.text);
    ck_assert_int_eq(wl_program_threads(p), 8);
    ck_assert_int_eq(wl_program_pin(p, 3).core, 1);
    ck_assert_int_eq(wl_program_pin(p, 3).hw, 1);
    ck_assert_int_eq(wl_program_line_count(p), 1 + 16 + 4 + 1);
    ck_assert_int_eq(wl_program_decl(p, 1)->home, 7); /* n-1 */
    ck_assert_int_eq(wl_program_reg_count(p), 4);
    ck_assert_str_eq(wl_program_reg(p, 0), "seen");
    ck_assert_str_eq(wl_program_reg(p, 3), "ok");
    ck_assert_int_eq(wl_program_label_count(p), 2);
    /* every operation of the catalogue appears, in this file or its
     * version-2 sibling; let is done by the cursor and never yielded */
    bool seen[WL_OP_COUNT] = {false};
    mark_ops(p, seen);
    tu_check_roundtrip(p);
    wl_program_free(p);
    snprintf(path, sizeof path, "%s/traces/everything-v2.trace", CCSIM_TEST_DIR);
    p = wl_parse_file(path, NULL, &diag);
    ck_assert_msg(p != NULL, "%s", diag.text);
    mark_ops(p, seen);
    seen[WL_OP_LET] = !seen[WL_OP_LET];
    for (int i = 0; i < WL_OP_COUNT; i++)
        ck_assert_msg(seen[i], "operation %s %s", wl_op_name((enum wl_opcode)i),
                      i == WL_OP_LET ? "was yielded" : "never ran");
    tu_check_roundtrip(p);
    wl_program_free(p);
}
END_TEST

START_TEST(test_example_traces)
{
    const char *names[] = {"design", "ticket_lock", "everything", "everything-v2"};
    for (size_t i = 0; i < SIM_COUNT_OF(names); i++) {
        char path[1024], ops[4096];
        snprintf(path, sizeof path, "%s/traces/%s.trace", CCSIM_TEST_DIR, names[i]);
        sim_diag_init(&diag);
        struct wl_program *p = wl_parse_file(path, NULL, &diag);
        ck_assert_msg(p != NULL, "%s: %s", names[i], diag.text);
        tu_check_roundtrip(p);
        for (int t = 0; t < wl_program_threads(p); t++)
            ck_assert_msg(run_thread(p, t, ops, sizeof ops, 1 << 20) == WL_NEXT_END, "%s: %s",
                          names[i], diag.text);
        wl_program_free(p);
    }
}
END_TEST

START_TEST(test_accessors)
{
    struct wl_program *p = parse_ok("ccsim-trace 1\nthreads 3\nline a\nline b 4 home=2\nline c\n"
                                    "all: read b[1] -> v\nall: mark m1\n0: mark m2\n1: mark m1\n");
    ck_assert_int_eq(wl_program_line_count(p), 6);
    ck_assert_int_eq(wl_program_decl_find(p, "b"), 1);
    ck_assert_int_eq(wl_program_decl_find(p, "zz"), -1);
    ck_assert_int_eq(wl_program_decl_of(p, 0), 0);
    ck_assert_int_eq(wl_program_decl_of(p, 4), 1);
    ck_assert_int_eq(wl_program_decl_of(p, 5), 2);
    ck_assert_int_eq(wl_program_decl_of(p, 6), -1);
    ck_assert_int_eq(wl_program_decl_of(p, -1), -1);
    char buf[64];
    wl_line_name(p, 3, buf, sizeof buf);
    ck_assert_str_eq(buf, "b[2]");
    wl_line_name(p, 5, buf, sizeof buf);
    ck_assert_str_eq(buf, "c");
    wl_line_name(p, 99, buf, sizeof buf);
    ck_assert_str_eq(buf, "#99");
    ck_assert_int_eq(wl_program_decl(p, 1)->home, 2);
    ck_assert(!wl_program_pinned(p));
    ck_assert_int_eq(wl_program_pin(p, 2).core, 2);
    ck_assert_int_eq(wl_program_pin(p, 2).hw, 0);
    ck_assert_int_eq(wl_program_label_count(p), 2);
    ck_assert_str_eq(wl_program_label(p, 1), "m2");
    int line, col;
    wl_program_where(p, 1, &line, &col);
    ck_assert_int_eq(line, 7);
    ck_assert_int_eq(col, 1);
    ck_assert_str_eq(wl_program_file(p), "ok.trace");
    ck_assert_int_eq(wl_program_words(p), 8);
    ck_assert(wl_cmp_holds(WL_CMP_LE, 3, 3) && !wl_cmp_holds(WL_CMP_GT, 3, 3));
    wl_program_free(p);
}
END_TEST

START_TEST(test_parse_file)
{
    const char *path = tu_write("file.trace", "ccsim-trace 1\nthreads 2\nall: read nope\n");
    char name[600];
    snprintf(name, sizeof name, "%s", path);
    sim_diag_init(&diag);
    ck_assert(wl_parse_file(name, NULL, &diag) == NULL);
    expect_error_at(name, 3, 11, "unknown line 'nope'");
    sim_diag_init(&diag);
    ck_assert(wl_parse_file("/nonexistent/x.trace", NULL, &diag) == NULL);
    ck_assert_msg(strstr(diag.text, "/nonexistent/x.trace: cannot open trace") != NULL, "%s",
                  diag.text);
}
END_TEST

/* ------------------------------------------------------------- errors */

struct error_case {
    const char *text;
    int line, col;
    const char *what;
};

static const struct error_case error_cases[] = {
    {HDR "all: raed x\n", 5, 6, "unknown operation 'raed' (did you mean 'read'?)"},
    {HDR "all: read y\n", 5, 11, "unknown line 'y' (declare it first: line y)"},
    {HDR "all: read dta[1]\n", 5, 11,
     "unknown line 'dta' (declare it first: line dta; did you mean 'data'?)"},
    {HDR "all: read data[8]\n", 5, 16, "index 8 is out of range for 'data' (0..7)"},
    {HDR "all: read x[1]\n", 5, 13, "index 1 is out of range for 'x' (0..0)"},
    {HDR "all: read x.8\n", 5, 13, "word 8 is out of range (a 64-byte line has words 0..7)"},
    {HDR "all: read x.\n", 5, 13, "expected a word index after '.'"},
    {HDR "all: flush data[1].2\n", 5, 19, "works on whole lines: no word index"},
    {HDR "4: read x\n", 5, 1, "thread 4 is out of range (threads 4: 0..3)"},
    {HDR "0,2,7: read x\n", 5, 5, "thread 7 is out of range"},
    {HDR "1..n: read x\n", 5, 4, "thread 4 is out of range"},
    {HDR "3..1: read x\n", 5, 1, "empty thread range 3..1"},
    {HDR "0,0: read x\n", 5, 3, "the selector names thread 0 twice"},
    {"ccsim-trace 1\nthreads -1\n", 2, 9,
     "threads takes an integer from 1 to 4096 (WL_MAX_THREADS), "
     "found -1"},
    {HDR "all: wait x =< 1\n", 5, 13, "found '=<' (less or equal is written '<=')"},
    {HDR "0..2,3,1..3: read x\n", 5, 8, "the selector names thread 1 twice"},
    {HDR "-1: read x\n", 5, 1, "thread -1 is out of range"},
    {HDR "0 1: read x\n", 5, 3, "expected ':' after the thread selector"},
    {HDR "t: read x\n", 5, 1, "t cannot be used in a selector"},
    {HDR "all, 1: read x\n", 5, 4, "expected ':' after the thread selector"},
    {HDR "all: write x 1/0\n", 5, 15, "division by zero"},
    {HDR "all: read x -> r\nall: write x r%(2-2)\n", 6, 15, "division by zero"},
    {HDR "all: write x 9223372036854775807+1\n", 5, 33, "integer overflow in a constant"},
    {HDR "for i 0..3 {\n  all: read x\n", 5, 1, "loop 'for i' is never closed (a '}' is missing)"},
    {HDR "}\n", 5, 1, "unmatched '}' (no loop is open)"},
    {HDR "all: read x y\n", 5, 13, "unexpected 'y' after the statement"},
    {HDR "for i 0..3 { all: sync\n}\n", 5, 14, "unexpected 'all' after the statement"},
    {"ccsim-trace 1\nline x\nall: read x\n", 2, 1, "missing 'threads N' (required"},
    {"ccsim-trace 1\n# nothing else\n", 1, 1, "missing 'threads N'"},
    {HDR "threads 5\n", 5, 1, "'threads' must come once, right after the header"},
    {"ccsim-trace 1\nthreads 0\n", 2, 9, "threads takes an integer from 1 to 4096"},
    {"ccsim-trace 1\nthreads n\n", 2, 9, "threads takes an integer from 1 to 4096"},
    {HDR "line x\n", 5, 6, "line 'x' is declared twice (first on line 3)"},
    {HDR "line line\n", 5, 6, "'line' is a reserved word and cannot name a line"},
    {HDR "for t 0..3 {\n}\n", 5, 5, "'t' is a reserved word and cannot name a loop variable"},
    {HDR "for i 0..3 {\n  for i 0..1 {\n  }\n}\n", 6, 7,
     "loop variable 'i' shadows the variable of the loop on line 5"},
    {HDR "for i 0..3 {\n  all: read x -> i\n}\n", 6, 18, "register 'i' shadows the loop variable"},
    {HDR "all: read x -> r\nfor r 0..3 {\n}\n", 6, 5, "loop variable 'r' shadows the register r"},
    {HDR "all: read x -> n\n", 5, 16, "'n' is a reserved word and cannot name a register"},
    {HDR "all: cas x 1\n", 5, 13, "'cas' lacks a value (usage: cas ADDR OLD NEW [-> REG])"},
    {HDR "all: cas x 0 -1\n", 5, 16, "a negative argument after another needs parentheses"},
    /* the same before its register (it said only "found '->'") */
    {HDR "all: cas x 0 -1 -> r\n", 5, 17,
     "found '->'; a negative argument after another needs parentheses"},
    {HDR "all: wait x 5 5\n", 5, 13,
     "'wait' expects a comparison (== != < <= > >=) here, found '5'"},
    {HDR "all: read 5\n", 5, 11, "'read' expects an address (name, name[i] or name[i].w)"},
    {HDR "all: write data[0..2] 1\n", 5, 18, "a range of lines i..j is only for expect"},
    {HDR "all: expect data[3..1] == 0\n", 5, 21, "the range 3..1 is empty"},
    {HDR "all: expect data[0..8] == 0\n", 5, 21, "index 8 is out of range for 'data' (0..7)"},
    {HDR "all: expect data[0..2 == 0\n", 5, 23, "expected ']', found '=='"},
    {HDR "all: prime x Q\n", 5, 14, "'prime' expects a cache state (M, E or S) here, found 'Q'"},
    {HDR "all: mark 5\n", 5, 11, "'mark' expects a label here"},
    {HDR "all: copy data[0] data[1]\n", 5, 26,
     "'copy' lacks a number of lines (usage: copy SRC DST LINES)"},
    {HDR "all: write x 1 -> r\n", 5, 16, "'write' gives no value to keep"},
    {HDR "all: write x r\n", 5, 14, "unknown name 'r' (not t, n, a loop variable in scope"},
    {HDR "for i 0..1 {\n}\nall: write x i\n", 7, 14, "unknown name 'i'"},
    {HDR "all: compute (1+2\n", 5, 18, "expected ')', found the end of the line"},
    {HDR "all: compute *2\n", 5, 14, "'compute' expects a number of cycles here, found '*'"},
    {HDR "all: compute 1+*2\n", 5, 16, "expected an expression (a number, t, n"},
    {"ccsim-trace 3\nthreads 1\n", 1, 13,
     "unsupported trace version 3 (this ccsim reads versions 1..2)"},
    {"ccsim-trace 0\nthreads 1\n", 1, 13, "unsupported trace version 0"},
    {"threads 4\n", 1, 1, "expected the header 'ccsim-trace 1' as the first line"},
    {"ccsim - trace 1\n", 1, 1, "expected the header 'ccsim-trace 1'"},
    {"", 1, 1, "empty trace (expected the header 'ccsim-trace 1')"},
    {"# only a comment\n\n", 1, 1, "empty trace"},
    {HDR "all: read x @\n", 5, 13, "unexpected character '@'"},
    {HDR "all: read x \x01\n", 5, 13, "unexpected byte 0x01"},
    {HDR "all: compute 12ab\n", 5, 14, "bad number '12ab' (numbers are decimal integers)"},
    {HDR "all: compute 99999999999999999999\n", 5, 14,
     "is too large (at most 9223372036854775807)"},
    {HDR "pin 0 1 2\n", 5, 1, "pin gives 3 cores for 4 threads (one core per thread)"},
    {HDR "pin 0 1 2 3 4\n", 5, 1, "pin gives more than 4 cores for 4 threads"},
    {HDR "pin 0 1 2 1\n", 5, 11, "threads 1 and 3 are both pinned to core 1.0"},
    {HDR "pin 0 1 2 3.\n", 5, 13, "expected a hardware thread number right after '.'"},
    {HDR "pin 0 1 2 70000\n", 5, 11, "core 70000 is out of range (0..65535)"},
    {HDR "pin 0 1 2 3\npin 0 1 2 3\n", 6, 1, "'pin' is given twice"},
    {HDR "all: copy data[6] data[0] 3\n", 5, 11,
     "3 lines from data[6] run past the end of 'data' (0..7)"},
    {HDR "all: copy data[0] x 2\n", 5, 19, "2 lines from x[0] run past the end of 'x' (0..0)"},
    {HDR "all: copy data[0] data[1] 0\n", 5, 27, "the number of lines must be at least 1, found 0"},
    {HDR "all: compute -1\n", 5, 14, "the number of cycles must be at least 0, found -1"},
    {HDR "line h home=t\n", 5, 13, "a home must be a constant"},
    {HDR "line h hom=1\n", 5, 8, "unknown option 'hom=' of a line (home=NODE, mpb=T or tas=T)"},
    {HDR "al: read x\n", 5, 1,
     "unknown name 'al' (not t, n, a loop variable in scope, or a "
     "register set by an earlier '-> al') (did you mean 'all'?)"},
    {HDR "line h 4 hom=1\n", 5, 10, "unknown option 'hom=' of a line"},
    {HDR "line h home=-1\n", 5, 13, "home -1 is out of range"},
    {HDR "line h 2 home=0 home=1\n", 5, 17, "home= is given twice (a line has one home)"},
    /* a count near 2^63 past a first index of 1: compared without overflow */
    {HDR "all: copy data[1] data[1] 9223372036854775807\n", 5, 11,
     "9223372036854775807 lines from data[1] run past the end of 'data' (0..7)"},
    {HDR "line h 0\n", 5, 8, "line count 0 is out of range (1..1048576, WL_MAX_LINES)"},
    {HDR "line h 1048577\n", 5, 8, "line count 1048577 is out of range"},
    {HDR "line h x\n", 5, 8, "'x' is a line, not a number"},
    {HDR "line h y\n", 5, 8, "unknown name 'y'"},
    {HDR "x: read data\n", 5, 1, "'x' is a line, not a thread: a selector names threads"},
    {HDR "line h home 3\n", 5, 8, "unknown name 'home'"},
    {HDR "for i 0..1 {\n  line z\n}\n", 6, 3, "'line' must be at top level, outside loops"},
    {HDR "for i 0..1 {\n  pin 0 1 2 3\n}\n", 6, 3, "'pin' must be at top level"},
    {HDR "for i 0 {\n}\n", 5, 9, "expected '..' between the loop's bounds"},
    {HDR "for i 0..1\n", 5, 11, "expected '{' at the end of the loop's line"},
    {HDR "read x\n", 5, 1, "'read' lacks its thread selector (write e.g. 'all: read ...')"},
    {HDR "fro i 0..1 {\n", 5, 1,
     "expected a statement (threads, pin, line, for, '}' or "
     "'SELECTOR: OP ARGS'), found 'fro' (did you mean 'for'?)"},
    {HDR "line "
         "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
     5, 6, "is longer than 63 characters (WL_MAX_NAME)"},
};

START_TEST(test_error)
{
    const struct error_case *ec = &error_cases[_i];
    struct wl_program *p = parse("bad.trace", ec->text);
    ck_assert_msg(p == NULL, "accepted: %s", ec->text);
    expect_error_at("bad.trace", ec->line, ec->col, ec->what);
}
END_TEST

START_TEST(test_line_too_long)
{
    size_t n = 5000;
    char *text = malloc(n + 128);
    strcpy(text, HDR "all: sync #");
    size_t len = strlen(text);
    memset(text + len, 'x', n);
    strcpy(text + len + n, "\nall: read y\n");
    ck_assert(parse("long.trace", text) == NULL);
    expect_error_at("long.trace", 5, 4097, "line is longer than 4096 characters");
    expect_error_at("long.trace", 6, 11, "unknown line 'y'"); /* and it goes on */
    free(text);
}
END_TEST

START_TEST(test_all_errors_reported)
{
    ck_assert(parse("many.trace", HDR "all: raed x\n"
                                      "all: read y\n"
                                      "all: sync\n"
                                      "9: read x\n"
                                      "}\n") == NULL);
    ck_assert_int_eq(diag.count, 4);
    expect_error_at("many.trace", 5, 6, "unknown operation");
    expect_error_at("many.trace", 6, 11, "unknown line");
    expect_error_at("many.trace", 8, 1, "thread 9 is out of range");
    expect_error_at("many.trace", 9, 1, "unmatched '}'");
    /* a statement that fails keeps its register: its uses add no "unknown
     * name" of their own (one error, not three) */
    ck_assert(parse("reg.trace", HDR "0: cas x 0 -1 -> q\n0: write x q\n0: write x q+1\n") == NULL);
    ck_assert_int_eq(diag.count, 1);
    expect_error_at("reg.trace", 5, 15, "found '->'");
}
END_TEST

START_TEST(test_too_many_errors)
{
    char *text = malloc(200 * 16 + 64);
    size_t n = (size_t)sprintf(text, HDR);
    for (int i = 0; i < 200; i++)
        n += (size_t)sprintf(text + n, "all: nop\n");
    ck_assert(parse("errs.trace", text) == NULL);
    ck_assert_int_eq(diag.count, WL_MAX_ERRORS + 1);
    ck_assert(strstr(diag.text, "too many errors (WL_MAX_ERRORS = 50), giving up") != NULL);
    free(text);
}
END_TEST

/* Bytes that are no trace: one message, then stop. */
START_TEST(test_junk_before_header)
{
    const char junk[] = "\x7f\x45LF\x02\nccsim-trace 1\nthreads 1\n";
    sim_diag_init(&diag);
    ck_assert(wl_parse_text("junk", junk, sizeof junk - 1, NULL, &diag) == NULL);
    ck_assert_int_eq(diag.count, 1);
    expect_error_at("junk", 1, 1, "unexpected byte 0x7f");
}
END_TEST

/* A broken loop header that ends in '{' still opens a loop: no cascade. */
START_TEST(test_broken_loop_keeps_braces)
{
    ck_assert(parse("brace.trace", HDR "for i 0..zz {\n"
                                       "  all: write x i\n"
                                       "}\n") == NULL);
    ck_assert_int_eq(diag.count, 1);
    expect_error_at("brace.trace", 5, 10, "unknown name 'zz'");
}
END_TEST

START_TEST(test_registers_textual_order)
{
    /* set textually before use: fine, even inside a later loop */
    struct wl_program *p = parse_ok(HDR "0: read x -> r\nfor i 0..1 {\n  1: write x r+i\n}\n");
    char ops[512];
    run_thread(p, 1, ops, sizeof ops, 100);
    ck_assert_str_eq(ops, "write x 0; write x 1"); /* thread 1 never set r: 0 */
    wl_program_free(p);
    /* used before its first `->`, even in a loop that sets it later: error */
    ck_assert(parse("reg.trace", HDR "for i 0..1 {\n  all: write x r\n  all: read x -> r\n}\n") ==
              NULL);
    expect_error_at("reg.trace", 6, 16, "unknown name 'r'");
}
END_TEST

START_TEST(test_parse_options)
{
    struct wl_parse_opts o = {.line_bytes = 32};
    ck_assert(parse_opts("o.trace", HDR "all: read x.4\n", &o) == NULL);
    expect_error_at("o.trace", 5, 13, "word 4 is out of range (a 32-byte line has words 0..3)");
    struct wl_program *p = parse_opts("o.trace", HDR "all: read x.3\n", &o);
    ck_assert(p != NULL);
    ck_assert_int_eq(wl_program_words(p), 4);
    tu_check_roundtrip(p);
    wl_program_free(p);
    o = (struct wl_parse_opts){.cores = 2, .threads_per_core = 2};
    ck_assert(parse_opts("o.trace", HDR "pin 0 0.1 1 2\n", &o) == NULL);
    expect_error_at("o.trace", 5, 13, "core 2 is out of range (0..1)");
    ck_assert(parse_opts("o.trace", HDR "pin 0 0.1 1 1.2\n", &o) == NULL);
    expect_error_at("o.trace", 5, 15, "hardware thread 2 is out of range (0..1)");
    p = parse_opts("o.trace", HDR "pin 0 0.1 1 1.1\n", &o);
    ck_assert(p != NULL);
    wl_program_free(p);
    o = (struct wl_parse_opts){.line_bytes = 12};
    ck_assert(parse_opts("o.trace", HDR, &o) == NULL);
    ck_assert(strstr(diag.text, "bad parse options: line size 12 bytes") != NULL);
}
END_TEST

/* ------------------------------------------------------------- limits */

START_TEST(test_limit_statements)
{
    size_t cap = (size_t)(WL_MAX_STMTS + 1) * 12 + 64;
    char *text = malloc(cap);
    size_t n = (size_t)sprintf(text, "ccsim-trace 1\nthreads 1\n");
    for (int i = 0; i <= WL_MAX_STMTS; i++)
        n += (size_t)sprintf(text + n, "all: sync\n");
    ck_assert(parse("big.trace", text) == NULL);
    ck_assert_int_eq(diag.count, 1);
    expect_error_at("big.trace", WL_MAX_STMTS + 3, 1,
                    "program too large: more than 65536 statements (WL_MAX_STMTS)");
    free(text);
}
END_TEST

/* A threads line the lexer refuses is its one error: no "missing 'threads
 * N'" after it. */
START_TEST(test_bad_threads_line_once)
{
    ck_assert(parse("t.trace", "ccsim-trace 1\nthreads 2x\nline x\nall: read x\n") == NULL);
    ck_assert_msg(diag.count == 1 && strstr(diag.text, "t.trace:2:9: bad number '2x'"), "%s",
                  diag.text);
}
END_TEST

/* A refused line declaration is its one error: its uses are not then
 * "unknown line"; a line never declared still is. */
START_TEST(test_bad_decl_once)
{
    ck_assert(parse("t.trace", "ccsim-trace 1\nthreads 1\nline x 99999999999\n0: read x[0]\n"
                               "0: write x[1] 1\n") == NULL);
    ck_assert_msg(diag.count == 1 && strstr(diag.text, "t.trace:3:8: line count 99999999999"), "%s",
                  diag.text);
    ck_assert(parse("t.trace", "ccsim-trace 1\nthreads 1\nline x 0\n0: read y\n") == NULL);
    ck_assert_msg(diag.count == 2 && strstr(diag.text, "unknown line 'y'"), "%s", diag.text);
}
END_TEST

START_TEST(test_limit_expressions)
{
    /* selector lists of ~2000 items a line reach WL_MAX_EXPRS; the items
     * are a loop variable (a constant list may not name a thread twice) */
    size_t per_line = 2040, lines = (size_t)WL_MAX_EXPRS / per_line + 2;
    char *text = malloc(lines * (per_line * 2 + 16) + 64);
    size_t n = (size_t)sprintf(text, "ccsim-trace 1\nthreads 1\nfor i 0..0 {\n");
    for (size_t l = 0; l < lines; l++) {
        for (size_t i = 0; i < per_line; i++)
            n += (size_t)sprintf(text + n, i ? ",i" : "i");
        n += (size_t)sprintf(text + n, ": sync\n");
    }
    n += (size_t)sprintf(text + n, "}\n");
    ck_assert(parse("exprs.trace", text) == NULL);
    ck_assert_int_eq(diag.count, 1);
    ck_assert_msg(strstr(diag.text, "more than 1048576 expression nodes (WL_MAX_EXPRS)"), "%s",
                  diag.text);
    free(text);
}
END_TEST

START_TEST(test_limit_depth)
{
    char text[2048];
    size_t n = (size_t)sprintf(text, HDR);
    for (int i = 0; i <= WL_MAX_DEPTH; i++)
        n += (size_t)sprintf(text + n, "for i%d 0..1 {\n", i);
    ck_assert(parse("deep.trace", text) == NULL);
    ck_assert_int_eq(diag.count, 1);
    expect_error_at("deep.trace", 5 + WL_MAX_DEPTH, 1,
                    "loops nest too deeply (more than 16 levels, WL_MAX_DEPTH)");
}
END_TEST

START_TEST(test_limit_expression_depth)
{
    char text[1024];
    char open[80], close[80];
    memset(open, '(', 70);
    open[70] = '\0';
    memset(close, ')', 70);
    close[70] = '\0';
    snprintf(text, sizeof text, HDR "all: compute %s1%s\n", open, close);
    ck_assert(parse("deep.trace", text) == NULL);
    ck_assert(strstr(diag.text, "expression nests too deeply (more than 64 levels") != NULL);
    memset(open, '-', 70);
    snprintf(text, sizeof text, HDR "all: compute %s1\n", open);
    ck_assert(parse("deep.trace", text) == NULL);
    ck_assert(strstr(diag.text, "expression nests too deeply") != NULL);
    size_t n = (size_t)snprintf(text, sizeof text, HDR "all: compute 1");
    for (int i = 0; i < 70; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "+1");
    snprintf(text + n, sizeof text - n, "\n");
    ck_assert(parse("deep.trace", text) == NULL);
    ck_assert(strstr(diag.text, "expression nests too deeply") != NULL);
}
END_TEST

START_TEST(test_limit_registers_lines_labels)
{
    char *text = malloc(64 * 1024);
    size_t n = (size_t)sprintf(text, HDR);
    for (int i = 0; i <= WL_MAX_REGS; i++)
        n += (size_t)sprintf(text + n, "all: read x -> r%d\n", i);
    ck_assert(parse("regs.trace", text) == NULL);
    expect_error_at("regs.trace", 5 + WL_MAX_REGS, 16, "too many registers (at most 64");
    n = (size_t)sprintf(text, HDR);
    for (int i = 0; i <= WL_MAX_LABELS; i++)
        n += (size_t)sprintf(text + n, "all: mark m%d\n", i);
    ck_assert(parse("labels.trace", text) == NULL);
    expect_error_at("labels.trace", 5 + WL_MAX_LABELS, 11, "too many labels (at most 256");
    ck_assert(parse("lines.trace", HDR "line big 1048500\nline more 100\n") == NULL);
    expect_error_at("lines.trace", 6, 11, "too many lines: 1048609 in all (at most 1048576");
    free(text);
}
END_TEST

/* Nothing is unrolled: a 240-thread program with 10^18 iterations is a few
 * statements, a cursor is a fixed small struct. */
START_TEST(test_huge_loop_constant_memory)
{
    struct wl_program *p = parse_ok("ccsim-trace 1\nthreads 240\nline data 8\n"
                                    "for i 0..999999999999 {\n"
                                    "  for j 0..999999 {\n"
                                    "    all: read data[(i+j+t)%8].(j%8)\n"
                                    "  }\n"
                                    "}\n");
    ck_assert_int_eq(wl_program_stmt_count(p), 5);
    ck_assert_uint_le(sizeof(struct wl_cursor), 1024);
    struct wl_cursor c;
    struct wl_op op;
    wl_cursor_init(&c, p, 239);
    int64_t bad = 0; /* one assertion at the end: Check's are slow in loops */
    for (int64_t k = 0; k < 2000000; k++) {
        int64_t i = k / 1000000, j = k % 1000000;
        bad += wl_next(&c, &op, &diag) != WL_NEXT_OP || op.addr[0].line != (i + j + 239) % 8 ||
               op.addr[0].word != j % 8;
    }
    ck_assert_int_eq(bad, 0);
    wl_program_free(p);
}
END_TEST

START_TEST(test_loops_skipped_and_bounds)
{
    struct wl_program *p = parse_ok(HDR "for i 0..9223372036854775806 {\n"
                                        "  0: read data[0]\n"
                                        "}\n"
                                        "for e 5..4 {\n"
                                        "  all: sync\n"
                                        "}\n"
                                        "for k 0..1000000000000 {\n"
                                        "}\n"
                                        "1: write data[1] 5\n"
                                        "for i 9223372036854775806..9223372036854775807 {\n"
                                        "  1: write x i\n"
                                        "}\n");
    char ops[512];
    ck_assert_int_eq(run_thread(p, 1, ops, sizeof ops, 100), WL_NEXT_END);
    ck_assert_str_eq(ops, "write data[1] 5; write x 9223372036854775806; "
                          "write x 9223372036854775807");
    ck_assert_int_eq(run_thread(p, 0, ops, sizeof ops, 3), WL_NEXT_OP);
    ck_assert_str_eq(ops, "read data[0]; read data[0]; read data[0]");
    wl_program_free(p);
}
END_TEST

START_TEST(test_idle_limit)
{
    struct wl_program *p = parse_ok(HDR "for i 0..1000000000000 {\n  i%3: read x\n}\n");
    char ops[512];
    sim_diag_init(&diag);
    ck_assert_int_eq(run_thread(p, 3, ops, sizeof ops, 100), WL_NEXT_ERROR);
    ck_assert_str_eq(ops, "");
    ck_assert_msg(strstr(diag.text, "thread 3, iteration i=33554431: 67108864 statements passed "
                                    "without an operation (WL_MAX_IDLE_STEPS)"),
                  "%s", diag.text);
    wl_program_free(p);
}
END_TEST

/* ------------------------------------------------------------- evaluation */

static const char *const four_threads = "ccsim-trace 1\n"
                                        "threads 4\n"
                                        "line flag\n"
                                        "line data 8\n"
                                        "line slot 4 home=1\n"
                                        "for it 0..1 {\n"
                                        "  all: sync\n"
                                        "  0: write flag it+1\n"
                                        "  others: wait flag >= it+1 -> seen\n"
                                        "  1,3: read data[t+it*2].(it) -> r\n"
                                        "  2..n-1: write slot[t].1 r+seen\n"
                                        "  for j 0..it {\n"
                                        "    0,2: add data[j] t*10+j -> old\n"
                                        "  }\n"
                                        "  it: compute old+1\n"
                                        "  all: mark done\n"
                                        "}\n"
                                        "0: expect flag == 2\n";

START_TEST(test_eval_four_threads)
{
    static const char *const want[4] = {
        "sync; write flag 1; add data[0] 0 -> old; compute 1003; mark done; "
        "sync; write flag 2; add data[0] 0 -> old; add data[1] 1 -> old; mark done; "
        "expect flag == 2",
        "sync; wait flag >= 1 -> seen; read data[1] -> r; mark done; "
        "sync; wait flag >= 2 -> seen; read data[3].1 -> r; compute 1; mark done",
        "sync; wait flag >= 1 -> seen; write slot[2].1 1001; add data[0] 20 -> old; mark done; "
        "sync; wait flag >= 2 -> seen; write slot[2].1 1006; add data[0] 20 -> old; "
        "add data[1] 21 -> old; mark done",
        "sync; wait flag >= 1 -> seen; read data[3] -> r; write slot[3].1 2003; mark done; "
        "sync; wait flag >= 2 -> seen; read data[5].1 -> r; write slot[3].1 2013; mark done",
    };
    struct wl_program *p = parse_ok(four_threads);
    for (int t = 0; t < 4; t++) {
        char ops[2048];
        ck_assert_int_eq(run_thread(p, t, ops, sizeof ops, 100), WL_NEXT_END);
        ck_assert_msg(strcmp(ops, want[t]) == 0, "thread %d:\n got %s\nwant %s", t, ops, want[t]);
    }
    tu_check_roundtrip(p);
    wl_program_free(p);
}
END_TEST

/* Constant selector lists (a thread bitmap each, built after the parse)
 * across several bitmap words, a list repeated, and non-constant items. */
START_TEST(test_eval_selector_lists)
{
    struct wl_program *p = parse_ok("ccsim-trace 1\n"
                                    "threads 200\n"
                                    "line x\n"
                                    "1,63..65,199: write x 1\n"
                                    "1,63..65,199: write x 2\n"
                                    "0,128: write x 3\n"
                                    "for i 0..1 {\n"
                                    "  i,64+i: write x 4\n"
                                    "}\n");
    static const struct {
        int thread;
        const char *ops;
    } want[] = {
        {0, "write x 3; write x 4"},
        {1, "write x 1; write x 2; write x 4"},
        {2, ""},
        {62, ""},
        {63, "write x 1; write x 2"},
        {64, "write x 1; write x 2; write x 4"},
        {65, "write x 1; write x 2; write x 4"},
        {66, ""},
        {128, "write x 3"},
        {199, "write x 1; write x 2"},
    };
    for (size_t i = 0; i < SIM_COUNT_OF(want); i++) {
        char ops[512];
        ck_assert_int_eq(run_thread(p, want[i].thread, ops, sizeof ops, 10), WL_NEXT_END);
        ck_assert_msg(strcmp(ops, want[i].ops) == 0, "thread %d: got '%s', want '%s'",
                      want[i].thread, ops, want[i].ops);
    }
    wl_program_free(p);
}
END_TEST

/* The fields of struct wl_op, and laziness: a register set after an op is
 * seen by the next one. */
START_TEST(test_eval_op_fields)
{
    struct wl_program *p = parse_ok(HDR "line m 4\n"
                                        "all: add x 1 -> tk\n"
                                        "all: wait data[tk%8].(tk%8) == tk -> got\n"
                                        "all: cas data[t] got 7 -> ok\n"
                                        "all: copy data[t] data[4] 2*(ok+1)\n"
                                        "all: addline m[0] data[1] 3\n"
                                        "all: prime m[3] S\n"
                                        "all: compute t*100\n"
                                        "all: expect data[1..t+4].2 != tk\n"
                                        "all: expect x >= 0\n");
    struct wl_cursor c;
    struct wl_op op;
    sim_diag_init(&diag);
    wl_cursor_init(&c, p, 2);
    ck_assert_int_eq(wl_next(&c, &op, &diag), WL_NEXT_OP);
    ck_assert_int_eq(op.op, WL_OP_ADD);
    ck_assert_int_eq(op.naddr, 1);
    ck_assert_int_eq(op.addr[0].line, 0);
    ck_assert_int_eq(op.nvalue, 1);
    ck_assert_int_eq(op.value[0], 1);
    ck_assert_int_eq(op.reg, 0);
    wl_set_reg(&c, op.reg, 13);
    ck_assert_int_eq(wl_next(&c, &op, &diag), WL_NEXT_OP);
    ck_assert_int_eq(op.op, WL_OP_WAIT);
    ck_assert_int_eq(op.addr[0].line, 1 + 5);
    ck_assert_int_eq(op.addr[0].word, 5);
    ck_assert_int_eq(op.cmp, WL_CMP_EQ);
    ck_assert_int_eq(op.value[0], 13);
    wl_set_reg(&c, op.reg, 42);
    ck_assert_int_eq(wl_next(&c, &op, &diag), WL_NEXT_OP);
    ck_assert_int_eq(op.op, WL_OP_CAS);
    ck_assert_int_eq(op.nvalue, 2);
    ck_assert_int_eq(op.value[0], 42);
    ck_assert_int_eq(op.value[1], 7);
    wl_set_reg(&c, op.reg, 1);
    ck_assert_int_eq(wl_next(&c, &op, &diag), WL_NEXT_OP);
    ck_assert_int_eq(op.op, WL_OP_COPY);
    ck_assert_int_eq(op.naddr, 2);
    ck_assert_int_eq(op.addr[0].line, 1 + 2);
    ck_assert_int_eq(op.addr[1].line, 1 + 4);
    ck_assert_int_eq(op.count, 4);
    ck_assert_int_eq(wl_next(&c, &op, &diag), WL_NEXT_OP);
    ck_assert_int_eq(op.op, WL_OP_ADDLINE);
    ck_assert_int_eq(op.addr[0].line, 9);
    ck_assert_int_eq(op.addr[1].line, 2);
    ck_assert_int_eq(op.count, 3);
    ck_assert_int_eq(op.reg, -1);
    ck_assert_int_eq(wl_next(&c, &op, &diag), WL_NEXT_OP);
    ck_assert_int_eq(op.op, WL_OP_PRIME);
    ck_assert_int_eq(op.addr[0].line, 12);
    ck_assert_int_eq(op.state, WL_STATE_S);
    ck_assert_int_eq(wl_next(&c, &op, &diag), WL_NEXT_OP);
    ck_assert_int_eq(op.op, WL_OP_COMPUTE);
    ck_assert_int_eq(op.count, 200);
    ck_assert_int_eq(wl_next(&c, &op, &diag), WL_NEXT_OP); /* data[1..6].2: six lines */
    ck_assert_int_eq(op.op, WL_OP_EXPECT);
    ck_assert_int_eq(op.addr[0].line, 1 + 1);
    ck_assert_int_eq(op.addr[0].word, 2);
    ck_assert_int_eq(op.count, 6);
    ck_assert_int_eq(op.cmp, WL_CMP_NE);
    ck_assert_int_eq(op.value[0], 13);
    ck_assert_int_eq(wl_next(&c, &op, &diag), WL_NEXT_OP); /* without a range: one line */
    ck_assert_int_eq(op.op, WL_OP_EXPECT);
    ck_assert_int_eq(op.count, 1);
    ck_assert_int_eq(wl_next(&c, &op, &diag), WL_NEXT_END);
    ck_assert_int_eq(wl_next(&c, &op, &diag), WL_NEXT_END);
    ck_assert_int_eq(diag.count, 0);
    tu_check_roundtrip(p);
    wl_program_free(p);
}
END_TEST

START_TEST(test_runtime_errors)
{
    static const struct {
        const char *stmt;
        int thread, line, col;
        const char *what;
    } cases[] = {
        {"all: read data[t+5]\n", 3, 5, 16, "thread 3: index 8 is out of range for 'data' (0..7)"},
        {"all: read x.(t*3)\n", 3, 5, 14, "thread 3: word 9 is out of range (a 64-byte line"},
        {"all: read x -> r\nall: compute 10/(r-1000)\n", 0, 6, 16,
         "thread 0: division by zero (10 / 0)"},
        {"for i 0..4 {\n  i: read x\n}\n", 0, 6, 3,
         "thread 0, iteration i=4: the selector gives thread 4, out of range (0..3)"},
        {"for i 2..5 {\n  0,i..i+1: read x\n}\n", 1, 6, 8, "the selector gives thread 4"},
        {"all: copy data[t*2] data[0] 3\n", 3, 5, 11,
         "thread 3: 3 lines from data[6] run past the end of 'data' (0..7)"},
        {"all: expect data[t..2] == 0\n", 3, 5, 21, "thread 3: the range 3..2 of 'data' is empty"},
        {"all: expect data[0..t+5] == 0\n", 3, 5, 21,
         "thread 3: index 8 is out of range for 'data' (0..7)"},
        {"all: compute t-2\n", 0, 5, 14, "thread 0: the number of cycles must be at least 0"},
        {"all: copy data[0] data[1] t\n", 0, 5, 27, "the number of lines must be at least 1"},
        {"all: compute 9223372036854775807+t\n", 1, 5, 33, "thread 1: integer overflow"},
        {"for i 0..-t {\n  all: sync\n}\nall: read x -> r\nfor i 0..10/(r-1000) {\n}\n", 2, 9, 12,
         "thread 2: division by zero"},
    };
    for (size_t i = 0; i < SIM_COUNT_OF(cases); i++) {
        char text[1024], ops[1024];
        snprintf(text, sizeof text, HDR "%s", cases[i].stmt);
        struct wl_program *p = parse("run.trace", text);
        ck_assert_msg(p != NULL, "%s", diag.text);
        sim_diag_init(&diag);
        ck_assert_msg(run_thread(p, cases[i].thread, ops, sizeof ops, 100) == WL_NEXT_ERROR,
                      "no error: %s", cases[i].stmt);
        ck_assert_int_eq(diag.count, 1);
        expect_error_at("run.trace", cases[i].line, cases[i].col, cases[i].what);
        /* a failed cursor stays failed, without new messages */
        struct wl_cursor c;
        struct wl_op op;
        wl_cursor_init(&c, p, cases[i].thread);
        while (wl_next(&c, &op, &diag) == WL_NEXT_OP)
            if (op.reg >= 0)
                wl_set_reg(&c, op.reg, 1000);
        int count = diag.count;
        ck_assert_int_eq(wl_next(&c, &op, &diag), WL_NEXT_ERROR);
        ck_assert_int_eq(diag.count, count);
        wl_program_free(p);
    }
}
END_TEST

/* ------------------------------------------------------------- fuzzing */

/* Every diagnostic line starts with the file name. */
static void check_diag_shape(const char *name)
{
    size_t nl = strlen(name);
    for (const char *at = diag.text; *at; at = strchr(at, '\n') + 1) {
        ck_assert_msg(strncmp(at, name, nl) == 0 && at[nl] == ':', "bad message: %s", at);
        if (!strchr(at, '\n'))
            break;
    }
}

/* Parses len bytes; a program must round-trip and run without crashing. */
static void fuzz_one(const char *text, size_t len)
{
    sim_diag_init(&diag);
    struct wl_program *p = wl_parse_text("fuzz.trace", text, len, NULL, &diag);
    ck_assert((p == NULL) == (diag.count > 0));
    check_diag_shape("fuzz.trace");
    if (!p)
        return;
    tu_check_roundtrip(p);
    for (int t = 0; t < wl_program_threads(p) && t < 8; t++) {
        char ops[256];
        run_thread(p, t, ops, sizeof ops, 300);
    }
    wl_program_free(p);
}

static void mutate(char *buf, size_t *len, size_t cap, struct sim_rng *r)
{
    static const char alphabet[] = "0123456789-+*/%()[]{}.:,#<>=!tn \n\tabxyz_\0\x80\xff";
    size_t at = *len ? (size_t)sim_rng_below(r, *len) : 0;
    char c = alphabet[sim_rng_below(r, sizeof alphabet - 1)];
    switch (sim_rng_below(r, 5)) {
    case 4: /* another digit: same syntax, other values */
        while (at < *len && (buf[at] < '0' || buf[at] > '9'))
            at++;
        if (at < *len)
            buf[at] = (char)('0' + sim_rng_below(r, 10));
        break;
    case 0: /* replace */
        if (*len)
            buf[at] = c;
        break;
    case 1: /* delete */
        if (*len) {
            memmove(buf + at, buf + at + 1, *len - at - 1);
            (*len)--;
        }
        break;
    case 2: /* insert */
        if (*len < cap) {
            memmove(buf + at + 1, buf + at, *len - at);
            buf[at] = c;
            (*len)++;
        }
        break;
    default: { /* duplicate a span */
        size_t span = (size_t)sim_rng_below(r, 40) + 1;
        if (at + span <= *len && *len + span <= cap) {
            memmove(buf + at + span, buf + at, *len - at);
            (*len) += span;
        }
    }
    }
}

START_TEST(test_fuzz)
{
    const char *seeds[] = {four_threads,
                           HDR "pin 0 1.1 2 3.3\nline h 2*n home=n-1\n"
                               "for i 0..t {\n  1..n-1,0: cas h[i%2].(i) 0 (-1) "
                               "-> r\n  all: copy data[r%4] data[4] 2\n}\n",
                           "ccsim-trace 2\nthreads 3\nline x 4\nall: xchg x[t] t+1 -> a\n"
                           "if a < 2 && !(a == 0) {\n  all: let b = a << 2 | 1\n} else if a > 0 {\n"
                           "  all: cmpxchg x[a%4] 0 ~a -> b\n} else {\n  all: let b = 7\n}\n"
                           "while b > 0 {\n  0..1: read x[b%4] -> c\n  all: fence\n"
                           "  all: let b = min(b >> 1, max(c, 3) - 4)\n}\n"};
    struct sim_rng r;
    sim_rng_init(&r, 1, 0);
    for (size_t s = 0; s < SIM_COUNT_OF(seeds); s++) {
        size_t len = strlen(seeds[s]), cap = len * 2 + 64;
        char *buf = malloc(cap);
        for (size_t cut = 0; cut <= len; cut++) { /* every truncation */
            memcpy(buf, seeds[s], cut);
            fuzz_one(buf, cut);
        }
        /* the sanitizer pass (tu_small_scale) takes a quarter: libFuzzer's
         * fuzz_trace goes on from there */
        int rounds = tu_small_scale() ? 2500 : 10000;
        for (int round = 0; round < rounds; round++) {
            size_t n = len;
            memcpy(buf, seeds[s], len);
            for (int k = (int)sim_rng_below(&r, 4); k >= 0; k--)
                mutate(buf, &n, cap, &r);
            fuzz_one(buf, n);
        }
        free(buf);
    }
    for (int round = 0; round < 500; round++) { /* random bytes after a good header */
        char buf[300] = HDR;
        size_t n = strlen(buf);
        while (n < sizeof buf)
            buf[n++] = (char)sim_rng_below(&r, 256);
        fuzz_one(buf, n);
    }
}
END_TEST

static Suite *trace_suite(void)
{
    Suite *s = suite_create("trace");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, test_design_example);
    tcase_add_test(tc, test_canonical_print);
    tcase_add_test(tc, test_unary_chain_prints_as_deep);
    tcase_add_test(tc, test_every_statement);
    tcase_add_test(tc, test_example_traces);
    tcase_add_test(tc, test_accessors);
    tcase_add_test(tc, test_parse_file);
    tcase_add_test(tc, test_registers_textual_order);
    tcase_add_test(tc, test_parse_options);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_loop_test(tc, test_error, 0, (int)SIM_COUNT_OF(error_cases));
    tcase_add_test(tc, test_line_too_long);
    tcase_add_test(tc, test_all_errors_reported);
    tcase_add_test(tc, test_too_many_errors);
    tcase_add_test(tc, test_broken_loop_keeps_braces);
    tcase_add_test(tc, test_junk_before_header);
    suite_add_tcase(s, tc);
    tc = tcase_create("limits");
    tcase_add_test(tc, test_limit_statements);
    tcase_add_test(tc, test_limit_expressions);
    tcase_add_test(tc, test_bad_threads_line_once);
    tcase_add_test(tc, test_bad_decl_once);
    tcase_add_test(tc, test_limit_depth);
    tcase_add_test(tc, test_limit_expression_depth);
    tcase_add_test(tc, test_limit_registers_lines_labels);
    tcase_add_test(tc, test_huge_loop_constant_memory);
    tcase_add_test(tc, test_loops_skipped_and_bounds);
    tcase_add_test(tc, test_idle_limit);
    suite_add_tcase(s, tc);
    tc = tcase_create("eval");
    tcase_add_test(tc, test_eval_four_threads);
    tcase_add_test(tc, test_eval_op_fields);
    tcase_add_test(tc, test_eval_selector_lists);
    tcase_add_test(tc, test_runtime_errors);
    suite_add_tcase(s, tc);
    tc = tcase_create("fuzz");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, test_fuzz);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(trace_suite());
}
