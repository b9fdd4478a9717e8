/*
 * trace.h -- the trace language (prefix wl_): the trace format, versions 1
 * and 2 (parse and print), and the per-thread evaluation of a parsed program. It
 * needs only the kernel (sim/sim.h): the core model (workloads/core) runs a
 * program on a machine, the generators (workloads/gen) write programs.
 *
 * A trace (docs/DESIGN.md, "Workloads: the trace format") describes all
 * threads at once. wl_parse_file() / wl_parse_text() turn it into a struct
 * wl_program; wl_program_print() writes the canonical text back; a struct
 * wl_cursor walks one thread's operations in program order, one at a time.
 *
 * Syntax details the DESIGN page leaves open (all checked by tests):
 *  - `threads N` is an integer literal and comes right after the header; `pin`
 *    and `line` only at top level (not in loops), each line declared before
 *    use. `line NAME [COUNT] [home=H] [mpb=T|tas=T]`: COUNT, H and T are
 *    constant expressions (integers and n); a bare `name` means `name[0]`.
 *    mpb=T puts the lines in the message-passing buffer of thread T's core,
 *    tas=T makes them thread T's core's test-and-set register (SCC only,
 *    checked when a run places them); T may be `each`: element i belongs to
 *    thread i / (COUNT / threads), and COUNT must be a multiple of threads.
 *    home= and mpb=/tas= exclude each other.
 *  - A word is `.K` (a literal) or `.(expr)`: `flag.1`, `data[t].(i)`.
 *  - `for VAR A..B {` alone on its line, `}` alone on its line. A and B are
 *    evaluated per thread when the loop starts (t, outer variables and
 *    registers allowed).
 *  - Selectors may use n, loop variables and registers, not t
 *    (`i: ...` runs on thread i in iteration i).
 *
 * Version 2 (header `ccsim-trace 2`) adds, on top of all of the above:
 *  - Blocks: `if COND {`, `} else if COND {`, `} else {` and `while COND {`,
 *    each alone on its line like `for` (an if's `}` and its `else` share a
 *    line), closed by `}`. A block has no selector: every thread that
 *    reaches it evaluates COND with its own t, loop variables and
 *    registers; the statements inside keep their selectors. COND reads no
 *    memory (a loop that polls memory reads it with `read ... -> r` in its
 *    body). for, if and while nest WL_MAX_DEPTH deep together.
 *  - A while must be able to end and to run: its COND is no constant and
 *    reads a register that a statement of its body sets (`-> r` or
 *    `let r =`).
 *  - Conditions and numbers are two types. A condition is a comparison
 *    (== != < <= > >=) of numbers, or conditions joined by && || and
 *    negated by !. Numbers: + - * / % as in v1, << >> (counts 0..63, else an
 *    error; << overflowing is an error like *, >> keeps the sign), & | ^ ~
 *    (two's complement), min(a, b), max(a, b). Arguments, indices,
 *    selectors and bounds are numbers; COND is a condition (`if r != 0`,
 *    not `if r`). A mix-up is a type error at the operator.
 *  - C's precedence, loosest first: || && | ^ & (== !=) (< <= > >=)
 *    (<< >>) (+ -) (* / %), then unary - ! ~; binary operators associate
 *    to the left; && and || skip their right side when the left decides.
 *    The printer puts spaces around comparisons, && and ||, none around
 *    arithmetic: `if t+1 < n && r != 0 {`.
 *  - Operations (WL_OPS, version 2 rows): `xchg A V -> r`, `cmpxchg A OLD
 *    NEW -> r`, `fence` and `let r = EXPR` (see Registers).
 *  - if, else, while, let, min and max are reserved words (a version-1 file
 *    may still use them as names).
 *  - Version-2 syntax in a version-1 file is an error that says it needs
 *    ccsim-trace 2.
 *
 * The program (opaque, read through the accessors below) keeps these
 * invariants once a parse has succeeded:
 *  - 1 <= threads <= WL_MAX_THREADS. The pin table, if given, names one
 *    distinct (core, hardware thread) per thread; without one the machine
 *    places thread i (core i % cores, hardware thread i / cores: core.c). A
 *    pin entry is written `c` or `c.h`.
 *  - Lines: declarations in file order; declaration i owns the line indices
 *    first .. first+count-1 with first(0) = 0, first(i+1) = first(i) +
 *    count(i); so line indices 0 .. wl_program_line_count()-1 are dense and a
 *    simulator maps index k to address k * line_bytes. A home is a checked
 *    constant >= 0, or -1 when not declared (first touch).
 *  - The body is a flat statement list in file order; every `for` and
 *    `while` and its `}` point at each other, an if chain's branches point
 *    each at the next and its `}` at its `if`; blocks nest at most
 *    WL_MAX_DEPTH deep; bounds are inclusive (`0..999` runs 1000 times,
 *    `5..4` none).
 *  - Every name is resolved: addresses to declarations, expression names to
 *    t, n, an enclosing loop's variable or a register; every expression has
 *    its type. Everything the parser can see as a constant (selector
 *    threads, indices, words, copy ranges, counts, divisors, shift counts,
 *    homes) has been checked; only values that depend on t, loop variables
 *    or registers are checked at run time, by wl_next().
 *  - The program keeps its header's version and prints it.
 *  - Expressions are kept as written (a small tree), so printing gives back
 *    `n-1`, not 3. Nothing is unrolled: a program's size is its text's size,
 *    whatever its loop counts.
 *
 * Names.  t, n, all, others, threads, pin, line, for and home are reserved
 * (in version 2 also if, else, while, let, min and max): no line, loop
 * variable or register may take them. A loop variable may not shadow an
 * enclosing loop's variable or a register, nor a register a loop variable
 * in scope. Labels (`mark LABEL`) have their own name space.
 *
 * Registers.  `-> r` (or, in version 2, `let r = EXPR`) names a register
 * (thread-local, 64-bit). A register must be set by a `-> r` or a `let r =`
 * textually earlier in the file than any expression that reads it (this
 * catches misspellings; `let i = i + 1` needs an earlier i). At run time
 * every thread's registers start at 0, so a thread whose selector skipped
 * the setting statement reads 0. The value is delivered by the core model
 * through wl_set_reg(): read gives the value read, add the value before the
 * add (fetch-and-add: the old value), cas 1 if it stored and 0 if not, wait
 * the value that satisfied the condition, xchg and cmpxchg the word before
 * them (cmpxchg stored iff that equals OLD). `let` is done by the cursor
 * itself: it reads no memory, takes no simulated time and is never yielded
 * as an operation (a while that goes WL_MAX_IDLE_LOOPS rounds without an
 * operation for the thread, lets alone, is a run-time error).
 *
 * Arguments.  Arguments are separated by spaces and expressions are greedy:
 * `cas x 0 -1` reads as `cas x 0-1`; write a negative argument after another
 * expression in parentheses, `cas x 0 (-1)` (the printer does).
 *
 * Errors.  Every message is "FILE:LINE:COL: text" (COL counts bytes from 1).
 * The parser reports every error it finds: after one it skips to the next
 * source line; it stops after WL_MAX_ERRORS, at a limit it cannot go past
 * (statements, expression nodes, loop depth, declarations, labels) and at a
 * first line that is no header. It never crashes and never reads outside its
 * input, whatever the bytes.
 */
#ifndef CCSIM_TRACE_H
#define CCSIM_TRACE_H

#include "sim.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* ---------------------------------------------------------------- limits */

#define WL_VERSION        1         /* the version generators write (and v1 programs print) */
#define WL_VERSION_MAX    2         /* the newest trace format version read */
#define WL_MAX_LINE_CHARS 4096      /* characters in one source line */
#define WL_MAX_NAME       63        /* characters in a name */
#define WL_MAX_THREADS    4096      /* threads N */
#define WL_MAX_CORE       65535     /* pin: core numbers 0 .. WL_MAX_CORE */
#define WL_MAX_HW         255       /* pin: hardware threads 0 .. WL_MAX_HW */
#define WL_MAX_DEPTH      16        /* block nesting (for, if, while) */
#define WL_MAX_STMTS      65536     /* statements, counting each loop's `for` and `}` */
#define WL_MAX_EXPRS      (1 << 20) /* expression nodes in a program */
#define WL_MAX_EXPR_DEPTH 64        /* nesting of one expression */
#define WL_MAX_DECLS      4096      /* line declarations */
#define WL_MAX_LINES      (1 << 20) /* lines of all declarations together */
#define WL_MAX_REGS       64        /* registers */
#define WL_MAX_LABELS     256       /* distinct mark labels */
#define WL_MAX_ERRORS     50        /* the parser stops after this many */
#define WL_MAX_IDLE_STEPS (1 << 26) /* statements one wl_next() passes without an op */
#define WL_MAX_IDLE_LOOPS (1 << 16) /* while rounds one wl_next() goes without an op */
#define WL_MAX_ZERO_OPS   (1 << 20) /* ops of a while loop a thread does at one instant */
#define WL_MAX_FILE_BYTES (64 << 20)
#define WL_WORD_BYTES     8

/* ---------------------------------------------------------------- catalogues */

/*
 * The operations: X(ENUM, name, argument kinds, takes `-> REG`, the trace
 * version that has it, usage). Argument kinds, one letter each, in written
 * order:
 *   A  a word: `name`, `name[i]`, `name[i].w`     -> wl_op.addr[]
 *   R  a word, or that word of lines i..j:
 *      `name[i..j].w`                             -> wl_op.addr[0], wl_op.count
 *   B  a whole line: `name`, `name[i]`            -> wl_op.addr[]
 *   V  a value                                    -> wl_op.value[]
 *   N  a number of lines (>= 1)                   -> wl_op.count
 *   Y  a number of cycles (>= 0)                  -> wl_op.count
 *   C  a comparison (== != < <= > >=)             -> wl_op.cmp
 *   L  a label                                    -> wl_op.label
 *   S  a cache state (M, E, S)                    -> wl_op.state
 *   G  the register a `let` sets, then `=`        -> wl_op.reg
 */
#define WL_OPS(X)                                                                                  \
    X(READ, "read", "A", true, 1, "read ADDR [-> REG]")                                            \
    X(WRITE, "write", "AV", false, 1, "write ADDR VALUE")                                          \
    X(ADD, "add", "AV", true, 1, "add ADDR VALUE [-> REG]")                                        \
    X(CAS, "cas", "AVV", true, 1, "cas ADDR OLD NEW [-> REG]")                                     \
    X(WAIT, "wait", "ACV", true, 1, "wait ADDR CMP VALUE [-> REG]")                                \
    X(COPY, "copy", "BBN", false, 1, "copy SRC DST LINES")                                         \
    X(ADDLINE, "addline", "BBN", false, 1, "addline DST SRC LINES")                                \
    X(FLUSH, "flush", "B", false, 1, "flush LINE")                                                 \
    X(COMPUTE, "compute", "Y", false, 1, "compute CYCLES")                                         \
    X(MARK, "mark", "L", false, 1, "mark LABEL")                                                   \
    X(INVMB, "invmb", "", false, 1, "invmb")                                                       \
    X(SYNC, "sync", "", false, 1, "sync")                                                          \
    X(EVICT, "evict", "B", false, 1, "evict LINE")                                                 \
    X(PRIME, "prime", "BS", false, 1, "prime LINE STATE")                                          \
    X(EXPECT, "expect", "RCV", false, 1, "expect ADDR CMP VALUE")                                  \
    X(XCHG, "xchg", "AV", true, 2, "xchg ADDR VALUE [-> REG]")                                     \
    X(CMPXCHG, "cmpxchg", "AVV", true, 2, "cmpxchg ADDR OLD NEW [-> REG]")                         \
    X(FENCE, "fence", "", false, 2, "fence")                                                       \
    X(LET, "let", "GV", false, 2, "let REG = VALUE")

enum wl_opcode {
#define WL_X_ENUM(e, name, args, reg, since, usage) WL_OP_##e,
    WL_OPS(WL_X_ENUM)
#undef WL_X_ENUM
        WL_OP_COUNT
};

/* Comparisons of wait and expect: X(ENUM, text). */
#define WL_CMPS(X) X(EQ, "==") X(NE, "!=") X(LT, "<") X(LE, "<=") X(GT, ">") X(GE, ">=")
enum wl_cmp {
#define WL_X_ENUM(e, text) WL_CMP_##e,
    WL_CMPS(WL_X_ENUM)
#undef WL_X_ENUM
        WL_CMP_COUNT
};

/* States of prime: X(ENUM, text). */
#define WL_STATES(X) X(M, "M") X(E, "E") X(S, "S")
enum wl_state {
#define WL_X_ENUM(e, text) WL_STATE_##e,
    WL_STATES(WL_X_ENUM)
#undef WL_X_ENUM
        WL_STATE_COUNT
};

const char *wl_op_name(enum wl_opcode op);
const char *wl_op_args(enum wl_opcode op); /* the argument kinds, "AVV" */
const char *wl_cmp_text(enum wl_cmp c);
const char *wl_state_text(enum wl_state s);
/* Whether `a CMP b` holds. */
static inline bool wl_cmp_holds(enum wl_cmp c, int64_t a, int64_t b)
{
    switch (c) {
    case WL_CMP_EQ:
        return a == b;
    case WL_CMP_NE:
        return a != b;
    case WL_CMP_LT:
        return a < b;
    case WL_CMP_LE:
        return a <= b;
    case WL_CMP_GT:
        return a > b;
    case WL_CMP_GE:
        return a >= b;
    default:
        return false;
    }
}

/* ---------------------------------------------------------------- parsing */

struct wl_parse_opts {
    int line_bytes;       /* the machine's line size: a multiple of 8, 8..4096; 0 means 64 */
    int cores;            /* > 0: pin cores must be below it; 0: not checked */
    int threads_per_core; /* > 0: pin hardware threads must be below it; 0: not checked */
};

/* Parses a trace file (opts may be NULL: the defaults). Returns NULL with
 * every error in d. */
struct wl_program *wl_parse_file(const char *path, const struct wl_parse_opts *opts,
                                 struct sim_diag *d);
/* The same on text[0 .. len) (any bytes, NUL included), named `name` in messages. */
struct wl_program *wl_parse_text(const char *name, const char *text, size_t len,
                                 const struct wl_parse_opts *opts, struct sim_diag *d);
void wl_program_free(struct wl_program *p);

/* Writes the canonical text: header, threads, pin (if given), every line
 * declaration, then the body, two spaces per loop level, no comments.
 * Parsing it gives a program wl_program_equal() to p. */
void wl_program_print(FILE *f, const struct wl_program *p);
/* Same threads, pins, declarations, statements and expressions (as written);
 * source positions and file names are not compared. */
bool wl_program_equal(const struct wl_program *a, const struct wl_program *b);

/* ---------------------------------------------------------------- reading */

struct wl_pin {
    int core;
    int hw; /* hardware thread within the core */
};

/* Where a declaration's lines live: memory (the default), the SCC's
 * message-passing buffers (`mpb=`), or its test-and-set registers (`tas=`). */
enum wl_place { WL_PLACE_MEMORY, WL_PLACE_MPB, WL_PLACE_TAS };
#define WL_PLACE_EACH (-1) /* mpb=each / tas=each: spread over the threads */

struct wl_line {
    const char *name;
    int64_t first; /* line index of element 0 */
    int64_t count; /* elements; 1 for a variable */
    int64_t home;  /* memory node, or -1: not declared */
    bool is_array; /* declared with a COUNT */
    int src_line;
    enum wl_place place;
    /* mpb= / tas=: the thread whose core holds the lines, or WL_PLACE_EACH:
     * element i belongs to thread i / (count / threads) */
    int64_t place_thread;
};

const char *wl_program_file(const struct wl_program *p);
int wl_program_threads(const struct wl_program *p);
int wl_program_threads_line(const struct wl_program *p); /* the `threads N` line (0: none) */
bool wl_program_pinned(const struct wl_program *p);      /* a pin statement was given */
struct wl_pin wl_program_pin(const struct wl_program *p, int thread);
int wl_program_words(const struct wl_program *p); /* words per line */

/* Total number of declared lines (the dense line indices' bound). */
int64_t wl_program_line_count(const struct wl_program *p);
int wl_program_decl_count(const struct wl_program *p);
const struct wl_line *wl_program_decl(const struct wl_program *p, int i);
/* The declaration named `name`, or -1. */
int wl_program_decl_find(const struct wl_program *p, const char *name);
/* The declaration holding line index `line`, or -1 if out of range. */
int wl_program_decl_of(const struct wl_program *p, int64_t line);
/* A line index as the user wrote it: "flag", "data[3]", or "#LINE" if out of range. */
void wl_line_name(const struct wl_program *p, int64_t line, char *buf, size_t size);

int wl_program_label_count(const struct wl_program *p); /* `mark` labels, first use order */
const char *wl_program_label(const struct wl_program *p, int i);
int wl_program_reg_count(const struct wl_program *p); /* registers, first `->` order */
const char *wl_program_reg(const struct wl_program *p, int i);
int wl_program_stmt_count(const struct wl_program *p);
/* The source position of statement `stmt` (wl_op.stmt). */
void wl_program_where(const struct wl_program *p, int stmt, int *line, int *col);

/* ---------------------------------------------------------------- evaluation */

struct wl_loc {
    int64_t line; /* line index */
    int word;     /* 0 .. words-1 */
};

/* One concrete operation of one thread. Fields an op does not use are 0. */
struct wl_op {
    enum wl_opcode op;
    int stmt;              /* statement index, for wl_program_where() */
    int naddr, nvalue;     /* how many of addr[] and value[] are set */
    struct wl_loc addr[2]; /* A and B arguments in written order (copy: SRC, DST;
                              addline: DST, SRC) */
    int64_t value[2];      /* V arguments in written order (cas: OLD, NEW) */
    int64_t count;         /* N (lines of copy/addline), Y (compute cycles), or the
                              lines an expect checks from addr[0] on (1 without a range) */
    enum wl_cmp cmp;       /* wait, expect */
    enum wl_state state;   /* prime */
    int label;             /* mark: index for wl_program_label() */
    int reg;               /* the register to set with wl_set_reg(), or -1 */
    bool in_while;         /* issued from a while's body (at any depth) */
    int loop;              /* in_while: the outermost while's statement (-1 outside) */
    uint64_t loop_entry;   /* in_while: which of the thread's entries into an outermost
                              while it is in (each entry from outside counts one; a new
                              round of the same entry does not) */
};

enum wl_next_result {
    WL_NEXT_END = 0, /* the thread has no more operations */
    WL_NEXT_OP,      /* *out holds the next operation */
    WL_NEXT_ERROR,   /* a run-time error, reported into d; the cursor stays failed */
};

/* One thread's position in the program: O(WL_MAX_DEPTH + WL_MAX_REGS) bytes,
 * whatever the loop counts (an if or while needs nothing but its depth); no
 * allocation, nothing to free. Fields are private. */
struct wl_cursor {
    const struct wl_program *prog;
    int thread;
    int pc;    /* next statement */
    int depth; /* open loops */
    int state; /* running, ended, failed */
    int64_t loop_val[WL_MAX_DEPTH];
    int64_t loop_end[WL_MAX_DEPTH];
    int64_t reg[WL_MAX_REGS];
    int back_to;            /* a while whose '}' just sent the cursor back to it, or -1 */
    uint64_t while_entries; /* entries into whiles from outside (a new round is none) */
    uint64_t outer_entries; /* of those, entries into outermost whiles */
};

void wl_cursor_init(struct wl_cursor *c, const struct wl_program *p, int thread);
/* Yields the thread's next operation: runs loops, ifs and whiles, does lets
 * and skips statements whose selector excludes the thread, evaluating
 * lazily (an op's expressions and a block's condition see every
 * wl_set_reg() made before the call). Run-time errors (index, word, thread
 * or count out of range, division by zero, overflow, a shift count out of
 * range) are reported as "FILE:LINE:COL: thread T: text" at the offending
 * expression. The cost of a call is the number of statements it passes; a
 * loop whose body selects the thread nowhere (by constant selectors) is
 * passed in O(body), not run. */
enum wl_next_result wl_next(struct wl_cursor *c, struct wl_op *out, struct sim_diag *d);
/* Delivers a result into register reg (0 .. wl_program_reg_count()-1). */
void wl_set_reg(struct wl_cursor *c, int reg, int64_t value);
/* The outermost loop the cursor is in: its variable's name and its value
 * now (an iteration as the trace counts it, `it` in `for it 0..99`); false
 * outside every loop. */
bool wl_cursor_outer_loop(const struct wl_cursor *c, const char **name, int64_t *value);

/* Where an operation is in one walk of the program, as the text orders
 * the threads' operations: the blocks around its statement, outermost
 * first, each with its loop variable's value (0 for an if or while), then
 * the statement. Two threads' operations compare as a single reader of the
 * trace meets them: `all: evict x` before a later `0: prime x M`; in a
 * loop, iteration by iteration. */
struct wl_pos {
    int n, stmt;
    int blk[WL_MAX_DEPTH];
    int64_t val[WL_MAX_DEPTH];
};
/* The position of the op statement stmt the cursor has just yielded. */
void wl_cursor_pos(const struct wl_cursor *c, int stmt, struct wl_pos *out);
/* <0, 0 or >0 as a comes before, is, or comes after b. */
int wl_pos_cmp(const struct wl_pos *a, const struct wl_pos *b);

#endif /* CCSIM_TRACE_H */
