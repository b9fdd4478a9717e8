/*
 * trace_impl.h -- private to the workloads module: the program's inner
 * representation (statements, expression trees, selectors) and the parser's
 * state, shared by the trace_*.c files. Nothing outside workloads/ includes it.
 *
 * Indices, not pointers, link the parts (expression operands, selector items,
 * loop ends), so the arrays can grow while parsing; -1 means "absent".
 */
#ifndef CCSIM_TRACE_IMPL_H
#define CCSIM_TRACE_IMPL_H

#include "trace.h"

#define WL_MAX_ARGS 3

/* ---------------------------------------------------------------- expressions */

/*
 * Binary operators: X(ENUM, text, precedence, class), C's precedence (a
 * higher number binds tighter; all are left-associative). The class says
 * what an operator takes and gives: 'a' numbers to a number, 'c' numbers to
 * a condition (a comparison), 'l' conditions to a condition. Conditions are
 * the values 0 and 1, but the parser keeps them apart from numbers (a type
 * error otherwise). Version 1 has + - * / % only.
 */
#define WL_BINOPS(X)                                                                               \
    X(ADD, "+", 9, 'a')                                                                            \
    X(SUB, "-", 9, 'a')                                                                            \
    X(MUL, "*", 10, 'a')                                                                           \
    X(DIV, "/", 10, 'a')                                                                           \
    X(MOD, "%", 10, 'a')                                                                           \
    X(SHL, "<<", 8, 'a')                                                                           \
    X(SHR, ">>", 8, 'a')                                                                           \
    X(LT, "<", 7, 'c')                                                                             \
    X(LE, "<=", 7, 'c')                                                                            \
    X(GT, ">", 7, 'c')                                                                             \
    X(GE, ">=", 7, 'c')                                                                            \
    X(EQ, "==", 6, 'c')                                                                            \
    X(NE, "!=", 6, 'c')                                                                            \
    X(BAND, "&", 5, 'a')                                                                           \
    X(BXOR, "^", 4, 'a')                                                                           \
    X(BOR, "|", 3, 'a')                                                                            \
    X(LAND, "&&", 2, 'l')                                                                          \
    X(LOR, "||", 1, 'l')
#define WL_PREC_UNARY 11 /* - ! ~ */
#define WL_PREC_LEAF  12 /* numbers, names, min(), max() */

enum wl_expr_kind {
    WL_E_CONST, /* an integer literal (value) */
    WL_E_T,     /* own thread id */
    WL_E_N,     /* thread count */
    WL_E_LOOP,  /* a loop variable; a = its loop's depth (0 outermost), b = its name in vars */
    WL_E_REG,   /* a register; a = its index */
    WL_E_NEG,   /* -a */
    WL_E_NOT,   /* !a: a condition's negation */
    WL_E_BNOT,  /* ~a: bitwise complement */
    WL_E_MIN,   /* min(a, b) */
    WL_E_MAX,   /* max(a, b) */
#define WL_X_ENUM(e, text, prec, cls) WL_E_##e,
    WL_BINOPS(WL_X_ENUM)
#undef WL_X_ENUM
};

struct wl_expr {
    enum wl_expr_kind kind;
    bool is_const; /* value holds the result (no t, loop variable or register) */
    bool is_cond;  /* a condition (0 or 1: a comparison, && || !), not a number */
    int col;       /* where it starts */
    int opcol;     /* the operator's column (= col for a leaf) */
    int depth;     /* tree height, <= WL_MAX_EXPR_DEPTH */
    int a, b;      /* operands */
    int64_t value; /* the literal, or the folded value when is_const */
    /* a constant part that cannot be computed (enum wl_arith: a zero
     * divisor, a shift count out of range, an overflow), at cerr_col, with
     * cerr_arg (the shift count): reported when the whole expression is
     * parsed, unless a constant && or || skips that part (as it does at
     * run time); 0: none */
    int cerr, cerr_col;
    int64_t cerr_arg;
};

enum wl_arith { WL_ARITH_OK, WL_ARITH_DIV0, WL_ARITH_OVERFLOW, WL_ARITH_SHIFT };
/* a OP b (or OP a for the unary kinds), checked; && and || here evaluate
 * both sides (the evaluator short-circuits before calling). */
enum wl_arith wl_arith(enum wl_expr_kind k, int64_t a, int64_t b, int64_t *out);
bool wl_expr_is_binary(enum wl_expr_kind k); /* an infix operator */
bool wl_expr_is_unary(enum wl_expr_kind k);  /* - ! ~ */
/* What a unary or binary operator, or min/max, takes and gives: 'a', 'c', 'l'. */
char wl_expr_class(enum wl_expr_kind k);
/* How an operator is written: "<<", "min". */
const char *wl_expr_op_text(enum wl_expr_kind k);

/* What an expression may read at run time. */
struct wl_env {
    int thread;
    const int64_t *loop; /* loop variables by depth */
    const int64_t *reg;
};
/* A run-time failure: where and what. */
struct wl_fault {
    int col;
    char msg[160];
};
bool wl_expr_eval(const struct wl_program *p, int e, const struct wl_env *env, int64_t *out,
                  struct wl_fault *f);
/* After a parse without errors: every root expression (no other's operand)
 * that is not a constant and holds no && || becomes postfix code, which
 * wl_expr_eval runs without recursion (a trace's addresses and values are
 * evaluated at every operation); a fault there sends it to the tree walk,
 * which reports the fault. */
void wl_expr_compile(struct wl_program *p);
void wl_expr_print(FILE *f, const struct wl_program *p, int e);
/* Whether wl_expr_print(e) starts with '-'. */
bool wl_expr_starts_with_minus(const struct wl_program *p, int e);
bool wl_expr_equal(const struct wl_program *pa, int a, const struct wl_program *pb, int b);

/* ---------------------------------------------------------------- statements */

enum wl_arg_kind {
    WL_ARG_REG, /* let's target: `r =` (small: the register) */
    WL_ARG_WORD,
    WL_ARG_LINE,
    WL_ARG_VALUE,
    WL_ARG_COUNT,
    WL_ARG_CYCLES,
    WL_ARG_CMP,
    WL_ARG_LABEL,
    WL_ARG_STATE
};

struct wl_addr {
    int decl;     /* declaration */
    int index;    /* expression, or -1: element 0 */
    int index_hi; /* expression, or -1: one element (name[index..index_hi]: expect only) */
    int word;     /* expression, or -1: word 0 */
};

struct wl_arg {
    enum wl_arg_kind kind;
    int col;
    struct wl_addr addr; /* WORD, LINE */
    int expr;            /* VALUE, COUNT, CYCLES */
    int small;           /* CMP: enum wl_cmp; LABEL: label index; STATE: enum wl_state;
                            REG: the register */
};

enum wl_sel_kind { WL_SEL_ALL, WL_SEL_OTHERS, WL_SEL_LIST };

struct wl_sel_item {
    int lo, hi; /* expressions; hi == -1 for a single thread */
};

struct wl_sel {
    enum wl_sel_kind kind;
    int first, count; /* LIST: items first .. first+count-1 */
    bool is_const;    /* every item is a constant */
    int bits;         /* a constant LIST of 2 or more items: its threads as a bitmap at
                         prog->sel_bits[bits ..] (sel_words words), set when the parse
                         succeeds; else -1 (selects() evaluates the items) */
};

/*
 * Blocks. Every `for`, `while` and if chain ends with a WL_S_END; `match`
 * links them:
 *   FOR, WHILE <-> their END;
 *   an if chain IF [ELIF ...] [ELSE] END: each IF and ELIF points at the
 *   next branch (ELIF, ELSE or the END), the ELSE at the END, the END back
 *   at the IF.
 * A block's body is one level deeper; loop variables live in the slot of
 * their `for`'s depth, so depth counts every open block.
 */
enum wl_stmt_kind { WL_S_OP, WL_S_FOR, WL_S_END, WL_S_IF, WL_S_ELIF, WL_S_ELSE, WL_S_WHILE };

struct wl_stmt {
    enum wl_stmt_kind kind;
    int line, col; /* source position */
    bool in_while; /* inside a while's body (at any depth) */
    int loop;      /* in_while: the outermost while's statement; -1 outside */
    /* WL_S_OP */
    enum wl_opcode op;
    struct wl_sel sel;
    int nargs;
    struct wl_arg arg[WL_MAX_ARGS];
    int reg; /* register written, or -1 */
    /* blocks */
    int match;       /* see above */
    int depth;       /* FOR: its depth, the slot of its variable */
    int var;         /* FOR: name index into vars */
    int from, to;    /* FOR: bound expressions */
    int cond;        /* IF, ELIF, WHILE: the condition */
    bool has_ops;    /* FOR: the body holds an operation */
    bool static_sel; /* FOR: every selector in the body is a constant */
};

/* ---------------------------------------------------------------- program */

struct wl_names {
    char **v;
    int n, cap;
};
int wl_names_find(const struct wl_names *t, const char *name, size_t len);
int wl_names_add(struct wl_names *t, const char *name, size_t len);
void wl_names_free(struct wl_names *t);

struct wl_decl {
    struct wl_line pub;
    int count_expr, home_expr; /* as written, -1: absent */
    int place_expr;            /* mpb=/tas= as written; -1: absent or `each` */
    int col;
};

struct wl_program {
    char *file;
    int version; /* the header's: 1 or 2 (WL_VERSION_MAX) */
    int threads;
    int threads_line; /* where `threads N` is */
    int words;        /* per line */
    bool pinned;
    struct wl_pin *pin; /* threads entries when pinned */
    struct wl_decl *decls;
    int ndecls, cap_decls;
    int64_t total_lines;
    struct wl_stmt *stmts;
    int nstmts, cap_stmts;
    struct wl_expr *exprs;
    int nexprs, cap_exprs;
    struct wl_sel_item *items;
    int nitems, cap_items;
    uint64_t *sel_bits; /* the constant lists' thread bitmaps (struct wl_sel.bits) */
    struct wl_code {
        int kind;    /* enum wl_expr_kind; WL_CODE_END ends a root's code */
        int64_t arg; /* CONST: the value; LOOP: the depth; REG: the register */
    } * code;        /* wl_expr_compile's postfix code */
    int ncode, cap_code;
    int *code_at; /* per expression: where its code starts, or -1 (the tree walk) */
    int sel_words, nsel_bits, cap_sel_bits;
    struct wl_names regs, labels, vars;
};

/* Adds "FILE:LINE:COL: msg" to d. */
void wl_diag_at(struct sim_diag *d, const char *file, int line, int col, const char *msg);
/* Grows an array of elem-sized items so that it holds `need`. */
void *wl_grow(void *v, int *cap, int need, size_t elem);
struct wl_program *wl_program_new(const char *file, int words);

/* ---------------------------------------------------------------- parser */

/* Punctuation, longest first: X(ENUM, text). */
#define WL_PUNCTS(X)                                                                               \
    X(ARROW, "->")                                                                                 \
    X(DOTDOT, "..")                                                                                \
    X(EQEQ, "==")                                                                                  \
    X(NE, "!=")                                                                                    \
    X(LE, "<=")                                                                                    \
    X(GE, ">=")                                                                                    \
    X(SHL, "<<")                                                                                   \
    X(SHR, ">>")                                                                                   \
    X(ANDAND, "&&")                                                                                \
    X(OROR, "||")                                                                                  \
    X(COLON, ":")                                                                                  \
    X(DOT, ".")                                                                                    \
    X(COMMA, ",")                                                                                  \
    X(LBRACK, "[")                                                                                 \
    X(RBRACK, "]")                                                                                 \
    X(LPAREN, "(")                                                                                 \
    X(RPAREN, ")")                                                                                 \
    X(LBRACE, "{")                                                                                 \
    X(RBRACE, "}")                                                                                 \
    X(PLUS, "+")                                                                                   \
    X(MINUS, "-")                                                                                  \
    X(STAR, "*")                                                                                   \
    X(SLASH, "/")                                                                                  \
    X(PERCENT, "%")                                                                                \
    X(ASSIGN, "=")                                                                                 \
    X(LT, "<")                                                                                     \
    X(GT, ">")                                                                                     \
    X(AMP, "&")                                                                                    \
    X(PIPE, "|")                                                                                   \
    X(CARET, "^")                                                                                  \
    X(BANG, "!")                                                                                   \
    X(TILDE, "~")

enum wl_tok_kind {
    WL_TK_END,
    WL_TK_INT,
    WL_TK_NAME,
#define WL_X_ENUM(e, text) WL_TK_##e,
    WL_PUNCTS(WL_X_ENUM)
#undef WL_X_ENUM
};

struct wl_tok {
    enum wl_tok_kind kind;
    int col, len;
    const char *text; /* into the source; not terminated */
    int64_t value;    /* INT */
    bool space_before;
};

/* An open block. kind: WL_S_FOR, WL_S_WHILE, WL_S_IF (an if's or else-if's
 * branch) or WL_S_ELSE (the last branch of an if chain). */
struct wl_scope {
    enum wl_stmt_kind kind;
    char name[WL_MAX_NAME + 1]; /* FOR: its variable */
    int stmt; /* its FOR, WHILE or the branch's IF/ELIF/ELSE; -1 after an error in its header */
    int var;  /* FOR: its name in the program's vars, or -1 */
    int head; /* an if chain's IF (-1 after an error in it) */
    int line, col;
};

struct wl_parser {
    struct wl_program *p;
    struct sim_diag *d;
    const struct wl_parse_opts *opts;
    int version; /* the header's (1 until it is read) */
    int line;    /* current source line */
    struct wl_tok *toks;
    int ntoks, pos;
    int errors;
    bool stop; /* a limit or too many errors: parse no further */
    bool header_seen, threads_seen, pin_seen, missing_threads;
    int header_line;
    struct wl_scope scope[WL_MAX_DEPTH];
    int depth;
    int expr_nesting; /* recursion depth of the expression parser */
    bool in_selector; /* `t` is not allowed */
    /* the threads the constant items of the selector being parsed named */
    uint64_t sel_seen[WL_MAX_THREADS / 64];
    bool minus_hint; /* this line has `x -1`: a hint for a missing argument */
    int *decl_hash;  /* open addressing over declaration names */
    int hash_cap;
    struct wl_names broken_decls; /* lines whose declaration was refused */
};

void wl_perr(struct wl_parser *ps, int col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A token for messages: "'foo'" or "the end of the line". */
const char *wl_tok_describe(const struct wl_tok *t, char *buf, size_t size);
bool wl_tok_is(const struct wl_tok *t, const char *word);
/* The next token, when it is a comparison's slip ('=', '=>', '=<'): it
 * and what was meant, for messages; else NULL. */
const char *wl_cmp_slip(const struct wl_parser *ps);
/* Splits one source line into ps->toks (ending with WL_TK_END). */
bool wl_lex_line(struct wl_parser *ps, const char *s, size_t len);

static inline const struct wl_tok *wl_peek(const struct wl_parser *ps)
{
    return &ps->toks[ps->pos];
}
static inline const struct wl_tok *wl_take(struct wl_parser *ps)
{
    const struct wl_tok *t = &ps->toks[ps->pos];
    if (t->kind != WL_TK_END)
        ps->pos++;
    return t;
}
bool wl_accept(struct wl_parser *ps, enum wl_tok_kind k);
/* Takes a token of kind k or reports "expected WHAT, found X". */
bool wl_expect(struct wl_parser *ps, enum wl_tok_kind k, const char *what);

/* Reports "WHAT needs ccsim-trace 2" unless the file is version 2. */
bool wl_need_v2(struct wl_parser *ps, int col, const char *what);
/* Parses an expression that gives a number; returns its node or -1 (error
 * reported). */
int wl_parse_expr(struct wl_parser *ps);
/* Parses a condition (a comparison, or && || ! of them) for `what`
 * ("'if'"); returns its node or -1. */
int wl_parse_cond(struct wl_parser *ps, const char *what);
/* Whether expression e reads register reg (reg < 0: any register). */
bool wl_expr_reads_reg(const struct wl_program *p, int e, int reg);
/* Parses an expression that must be a constant; what names it in messages. */
bool wl_parse_const(struct wl_parser *ps, const char *what, int *e, int64_t *value);
int wl_new_const(struct wl_parser *ps, int64_t value, int col);
/* Whether `name` is a reserved word. */
bool wl_reserved(const char *name, size_t len);
/* Checks a new name (reserved, length); reports and returns false if bad. */
bool wl_check_name(struct wl_parser *ps, const struct wl_tok *t, const char *what);
/* Loop variable depth of a name, innermost first, or -1. */
int wl_scope_find(const struct wl_parser *ps, const char *name, size_t len);

/* Parses a `SELECTOR: OP ARGS [-> REG]` line. */
bool wl_parse_op_stmt(struct wl_parser *ps);
/* Whether the current source line has a ':' (a selector). */
bool wl_line_has_colon(const struct wl_parser *ps);
/* After a statement that failed to parse: the register its `-> NAME` would
 * have set is taken as set, so that its later uses add no "unknown name"
 * errors to the one the statement got. */
void wl_keep_failed_reg(struct wl_parser *ps);
int wl_decl_lookup(const struct wl_parser *ps, const char *name, size_t len);
int wl_add_stmt(struct wl_parser *ps, enum wl_stmt_kind kind, int col);
/* " (did you mean 'x'?)" when a candidate is close to name, else "". */
void wl_suggest(char *buf, size_t size, const char *name, size_t len, const char *const *cands,
                size_t n);

#endif
