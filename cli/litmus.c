/*
 * litmus.c -- reading herdtools7's x86 litmus tests and translating them
 * into version-2 traces (litmus.h says which subset).
 */
#include "litmus.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing string. */
struct buf {
    char *s;
    size_t len, cap;
};

static void buf_add(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void buf_add(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->len + (size_t)n + 1 > b->cap) {
        b->cap = (b->len + (size_t)n + 1) * 2;
        b->s = sim_xrealloc(b->s, b->cap);
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* The reader's state: the text, the line it is on, the trace being built. */
struct rd {
    struct lit_test *t;
    struct sim_diag *d;
    char *text;  /* comments blanked out */
    char **line; /* the lines of text */
    int nlines, at;
    bool failed;
    int64_t init_loc[LIT_MAX_LOCS];
    int64_t init_reg[LIT_MAX_THREADS][LIT_MAX_REGS];
    int reg_init[LIT_MAX_THREADS][LIT_MAX_REGS]; /* the init's line (0: not initialised) */
    struct buf code[LIT_MAX_THREADS];
};

static void err(struct rd *r, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void err(struct rd *r, int line, const char *fmt, ...)
{
    if (r->failed)
        return;
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sim_diag_add(r->d, r->t->file, line, "%s", msg);
    r->failed = true;
}

/* ------------------------------------------------------------ text */

static char *skip_ws(char *p)
{
    while (*p && isspace((unsigned char)*p))
        p++;
    return p;
}

static void trim(char *s)
{
    char *p = skip_ws(s);
    memmove(s, p, strlen(p) + 1);
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
}

/* Reads a (* ccsim-expect: Ok|No *) comment's verdict. */
static void expect_comment(struct rd *r, const char *c, size_t len, int line)
{
    const char *key = "ccsim-expect:";
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%.*s", (int)(len < 255 ? len : 255), c);
    char *k = strstr(tmp, key);
    if (!k)
        return;
    char *v = skip_ws(k + strlen(key));
    if (strncmp(v, "Ok", 2) == 0)
        r->t->expect = 1;
    else if (strncmp(v, "No", 2) == 0)
        r->t->expect = 0;
    else
        err(r, line, "ccsim-expect: expected Ok or No");
}

/* The '*)' that closes the comment whose text starts at p, comments
 * nesting as in herd's lexer (OCaml's); NULL if none does. */
static char *comment_end(char *p)
{
    for (int depth = 1; *p; p++) {
        if (p[0] == '(' && p[1] == '*') {
            depth++;
            p++;
        } else if (p[0] == '*' && p[1] == ')' && --depth == 0)
            return p;
        else if (p[0] == '*' && p[1] == ')')
            p++;
    }
    return NULL;
}

/* Blanks out (* ... *) comments (keeping newlines), noting an expected
 * verdict, and splits the text into lines. */
static void split_lines(struct rd *r)
{
    int line = 1;
    for (char *p = r->text; *p; p++) {
        if (*p == '\n')
            line++;
        if (p[0] != '(' || p[1] != '*')
            continue;
        char *end = comment_end(p + 2);
        if (!end) {
            err(r, line, "a comment '(*' without its '*)'");
            return;
        }
        expect_comment(r, p + 2, (size_t)(end - p - 2), line);
        for (char *q = p; q < end + 2; q++)
            if (*q != '\n')
                *q = ' ';
            else
                line++;
        p = end + 1;
    }
    r->nlines = 0;
    for (char *p = r->text;;) {
        r->line = sim_xrealloc(r->line, (size_t)(r->nlines + 1) * sizeof *r->line);
        r->line[r->nlines++] = p;
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = '\0';
        p = nl + 1;
    }
}

/* The next line that is not blank (its index), or nlines. */
static int next_line(struct rd *r)
{
    while (r->at < r->nlines && !*skip_ws(r->line[r->at]))
        r->at++;
    return r->at;
}

/* The last line that is not blank (1-based), for "missing at the end". */
static int last_line(const struct rd *r)
{
    int i = r->nlines;
    while (i > 1 && !*skip_ws(r->line[i - 1]))
        i--;
    return i;
}

/* ------------------------------------------------------------ names */

static bool is_ident(const char *s)
{
    if (!isalpha((unsigned char)*s) && *s != '_')
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return false;
    return true;
}

static int find_or_add(char names[][32], int *n, int max, size_t width, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (strcmp((char *)names + (size_t)i * width, name) == 0)
            return i;
    if (*n == max)
        return -1;
    snprintf((char *)names + (size_t)*n * width, width, "%s", name);
    return (*n)++;
}

static int loc_index(struct rd *r, const char *name, int line)
{
    if (!is_ident(name) || strlen(name) >= 24) {
        err(r, line, "'%s' is not a location name (letters, digits, '_')", name);
        return -1;
    }
    int i = find_or_add(r->t->locs, &r->t->nlocs, LIT_MAX_LOCS, 32, name);
    if (i < 0)
        err(r, line, "more than %d locations", LIT_MAX_LOCS);
    return i;
}

/* herd's x86 registers (its X86 architecture, 32-bit names, any case). */
static const char *const x86_regs[] = {"EAX", "EBX", "ECX", "EDX", "ESI", "EDI", "EBP", "ESP"};
#define X86_REG_LIST "EAX, EBX, ECX, EDX, ESI, EDI, EBP, ESP"

/* name in upper case into up (size 16), if it is one of x86_regs. */
static bool x86_reg(const char *name, char *up)
{
    size_t n = strlen(name);
    if (n >= 16)
        return false;
    for (size_t i = 0; i <= n; i++)
        up[i] = (char)toupper((unsigned char)name[i]);
    for (size_t i = 0; i < SIM_COUNT_OF(x86_regs); i++)
        if (strcmp(up, x86_regs[i]) == 0)
            return true;
    return false;
}

/* Register name's index (added if new), or -1 with a message; in an
 * instruction's operand (operand) a bare name is taken for a location
 * missing its brackets, elsewhere (P:REG) for a register misspelt. */
static int reg_index(struct rd *r, const char *name, int line, bool operand)
{
    char up[16];
    if (!x86_reg(name, up)) {
        err(r, line, "'%s' is not an x86 register (" X86_REG_LIST ")%s%s%s", name,
            operand ? "; a location is written [" : "", operand ? name : "", operand ? "]" : "");
        return -1;
    }
    for (int i = 0; i < r->t->nregs; i++)
        if (strcmp(r->t->regs[i], up) == 0)
            return i;
    if (r->t->nregs == LIT_MAX_REGS) {
        err(r, line, "more than %d registers", LIT_MAX_REGS);
        return -1;
    }
    snprintf(r->t->regs[r->t->nregs], sizeof r->t->regs[0], "%s", up);
    return r->t->nregs++;
}

/* A number as herd reads it: decimal (a leading 0 is not octal), or
 * hexadecimal after 0x; errno ERANGE if it does not fit. */
static long long lit_strtoll(const char *s, char **end)
{
    const char *p = s;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '-' || *p == '+')
        p++;
    bool hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
    return strtoll(s, end, hex ? 16 : 10);
}

static bool parse_int(const char *s, int64_t *v)
{
    char *end;
    errno = 0;
    long long x = lit_strtoll(s, &end);
    if (end == s || errno)
        return false;
    end = skip_ws(end);
    *v = x;
    return *end == '\0';
}

void lit_reg_name(const struct lit_test *t, int reg, char *buf, size_t size)
{
    snprintf(buf, size, "r_%s", t->regs[reg]);
}

void lit_loc_end_name(const struct lit_test *t, int l, char *buf, size_t size)
{
    snprintf(buf, size, "end_%s", t->locs[l]);
}

/* ------------------------------------------------------------ header, init */

static void read_header(struct rd *r)
{
    if (next_line(r) == r->nlines) {
        err(r, 1, "empty file: expected 'X86 NAME'");
        return;
    }
    int line = r->at + 1;
    char arch[16] = "", name[64] = "";
    if (sscanf(r->line[r->at], " %15s %63s", arch, name) != 2 || strcasecmp(arch, "X86") != 0) {
        err(r, line, "expected 'X86 NAME' (ccsim reads x86 litmus tests)");
        return;
    }
    snprintf(r->t->name, sizeof r->t->name, "%s", name);
    r->at++;
    /* doc strings and diy's KEY=VALUE lines, up to the init block */
    while (next_line(r) < r->nlines) {
        char *p = skip_ws(r->line[r->at]);
        if (*p == '{')
            return;
        if (*p != '"' && !strchr(p, '=')) {
            err(r, r->at + 1, "expected the init block '{ x=0; ... }' here");
            return;
        }
        r->at++;
    }
    err(r, last_line(r), "no init block '{ ... }'");
}

/* "P:REG" (P a thread number) or a location, in an init item or an atom. */
static bool parse_var(struct rd *r, char *s, int line, struct lit_var *v)
{
    trim(s);
    size_t n = strlen(s);
    if (n > 2 && s[0] == '[' && s[n - 1] == ']') {
        s[n - 1] = '\0';
        s++;
        trim(s);
    }
    char *colon = strchr(s, ':');
    if (!colon) {
        v->thread = -1;
        v->index = loc_index(r, s, line);
        return v->index >= 0;
    }
    *colon = '\0';
    int64_t th;
    if (!parse_int(s, &th) || th < 0 || th >= LIT_MAX_THREADS) {
        err(r, line, "'%s': a thread number 0..%d before ':'", s, LIT_MAX_THREADS - 1);
        return false;
    }
    char *reg = colon + 1;
    trim(reg);
    v->thread = (int)th;
    v->index = reg_index(r, reg, line, false);
    return v->index >= 0;
}

static void init_item(struct rd *r, char *item, int line)
{
    trim(item);
    if (!*item)
        return;
    char *eq = strchr(item, '=');
    if (!eq) {
        err(r, line, "init '%s': expected LOCATION=VALUE or P:REG=VALUE", item);
        return;
    }
    *eq = '\0';
    int64_t v;
    char *val = eq + 1;
    trim(val);
    if (!parse_int(val, &v)) {
        err(r, line, "init '%s': '%s' is not a number (ccsim reads integer values only)", item,
            val);
        return;
    }
    /* a type before the name (`int x`) changes nothing */
    trim(item);
    char *sp = strrchr(item, ' ');
    if (sp && !strchr(sp, ':'))
        item = sp + 1;
    struct lit_var var;
    if (!parse_var(r, item, line, &var))
        return;
    if (var.thread < 0)
        r->init_loc[var.index] = v;
    else {
        r->init_reg[var.thread][var.index] = v;
        r->reg_init[var.thread][var.index] = line;
    }
}

static void read_init(struct rd *r)
{
    char *p = strchr(r->line[r->at], '{') + 1;
    for (;;) {
        int line = r->at + 1;
        char *close = strchr(p, '}');
        if (close)
            *close = '\0';
        for (char *item = strtok(p, ";"); item && !r->failed; item = strtok(NULL, ";"))
            init_item(r, item, line);
        if (close) {
            if (*skip_ws(close + 1))
                err(r, line, "unexpected '%s' after the init block", skip_ws(close + 1));
            r->at++;
            return;
        }
        if (++r->at == r->nlines) {
            err(r, line, "the init block has no closing '}'");
            return;
        }
        p = r->line[r->at];
    }
}

/* ------------------------------------------------------------ programs */

/* Splits a row "a | b | c ;" into cells; false if it has no final ';'. */
static int split_row(char *row, char **cells, int max)
{
    char *semi = strrchr(row, ';');
    if (!semi || *skip_ws(semi + 1))
        return -1;
    *semi = '\0';
    int n = 0;
    for (char *p = row;;) {
        char *bar = strchr(p, '|');
        if (bar)
            *bar = '\0';
        if (n == max)
            return max + 1;
        cells[n++] = p;
        trim(p);
        if (!bar)
            return n;
        p = bar + 1;
    }
}

static void read_threads(struct rd *r)
{
    if (next_line(r) == r->nlines) {
        err(r, last_line(r), "no program: expected 'P0 | P1 ... ;'");
        return;
    }
    char *cells[LIT_MAX_THREADS + 1];
    int n = split_row(r->line[r->at], cells, LIT_MAX_THREADS);
    if (n < 0) {
        err(r, r->at + 1, "expected 'P0 | P1 ... ;' (a row ends with ';')");
        return;
    }
    if (n > LIT_MAX_THREADS) {
        err(r, r->at + 1, "more than %d threads", LIT_MAX_THREADS);
        return;
    }
    for (int i = 0; i < n; i++) {
        char want[8];
        snprintf(want, sizeof want, "P%d", i);
        if (strcmp(cells[i], want) != 0) {
            err(r, r->at + 1, "column %d is '%s', expected '%s'", i + 1, cells[i], want);
            return;
        }
    }
    r->t->threads = n;
    r->t->threads_line = r->at + 1;
    r->at++;
}

/* An operand: [loc], $imm or a register. */
enum opnd_kind { OP_NONE, OP_LOC, OP_IMM, OP_REG };
struct opnd {
    enum opnd_kind kind;
    int index;
    int64_t imm;
};

static bool parse_opnd(struct rd *r, char *s, int line, struct opnd *o)
{
    trim(s);
    size_t n = strlen(s);
    if (n >= 2 && s[0] == '[' && s[n - 1] == ']') {
        s[n - 1] = '\0';
        char *name = s + 1, up[16];
        trim(name);
        if (x86_reg(name, up)) {
            err(r, line,
                "'[%s]': ccsim reads no addressing through a register (write [x] for "
                "location x)",
                name);
            return false;
        }
        o->kind = OP_LOC;
        o->index = loc_index(r, name, line);
        return o->index >= 0;
    }
    if (s[0] == '$') {
        o->kind = OP_IMM;
        if (!parse_int(s + 1, &o->imm)) {
            err(r, line, "'%s' is not an immediate ($ and an integer)", s);
            return false;
        }
        return true;
    }
    o->kind = OP_REG;
    o->index = reg_index(r, s, line, true);
    return o->index >= 0;
}

/* An operand as a trace expression: a register or a number. */
static void expr(const struct lit_test *t, const struct opnd *o, char *buf, size_t size)
{
    if (o->kind == OP_REG)
        lit_reg_name(t, o->index, buf, size);
    else
        snprintf(buf, size, o->imm < 0 ? "(%lld)" : "%lld", (long long)o->imm);
}

static const char *const subset =
    "ccsim reads MOV, MFENCE (LFENCE, SFENCE), XCHG and LOCK XCHG, XADD, ADD, INC, DEC, CMPXCHG";

/* MOV: a load, a store, or register arithmetic. */
static void emit_mov(struct rd *r, struct buf *b, int th, struct opnd *a, struct opnd *c, int line)
{
    const struct lit_test *t = r->t;
    char x[40], y[40];
    if (a->kind == OP_REG && c->kind == OP_LOC) {
        lit_reg_name(t, a->index, x, sizeof x);
        buf_add(b, "%d: read loc_%s -> %s\n", th, t->locs[c->index], x);
    } else if (a->kind == OP_LOC && (c->kind == OP_IMM || c->kind == OP_REG)) {
        expr(t, c, y, sizeof y);
        buf_add(b, "%d: write loc_%s %s\n", th, t->locs[a->index], y);
    } else if (a->kind == OP_REG && (c->kind == OP_IMM || c->kind == OP_REG)) {
        lit_reg_name(t, a->index, x, sizeof x);
        expr(t, c, y, sizeof y);
        buf_add(b, "%d: let %s = %s\n", th, x, y);
    } else
        err(r, line,
            "MOV needs a register or [location] first and a register, $value or "
            "[location] second, not two locations or a value first");
}

/* The read-modify-writes, all atomic (LOCK'd; XCHG with memory is
 * LOCK'd by itself). */
static void emit_rmw(struct rd *r, struct buf *b, int th, const char *mn, bool lock, struct opnd *a,
                     struct opnd *c, int line)
{
    const struct lit_test *t = r->t;
    if (a->kind == OP_REG && c->kind == OP_LOC && strcmp(mn, "XCHG") == 0) {
        struct opnd s = *a;
        *a = *c;
        *c = s;
    }
    if (a->kind != OP_LOC) {
        err(r, line, "%s with a register destination: %s", mn, subset);
        return;
    }
    if (!lock && strcmp(mn, "XCHG") != 0) {
        err(r, line,
            "%s on memory without LOCK is not atomic: ccsim runs LOCK'd "
            "read-modify-writes only",
            mn);
        return;
    }
    const char *loc = t->locs[a->index];
    char x[40], y[40];
    bool one = strcmp(mn, "INC") == 0 || strcmp(mn, "DEC") == 0;
    if (one != (c->kind == OP_NONE) || (!one && c->kind == OP_LOC)) {
        err(r, line, "%s: wrong operands (%s)", mn, one ? "one: [x]" : "two: [x], a register");
        return;
    }
    if (one) {
        buf_add(b, "%d: add loc_%s %s\n", th, loc, mn[0] == 'I' ? "1" : "(-1)");
        return;
    }
    expr(t, c, y, sizeof y);
    if (strcmp(mn, "ADD") == 0) {
        buf_add(b, "%d: add loc_%s %s\n", th, loc, y);
        return;
    }
    if (c->kind != OP_REG) {
        err(r, line, "%s [x] needs a register as its second operand", mn);
        return;
    }
    lit_reg_name(t, c->index, x, sizeof x);
    if (strcmp(mn, "XCHG") == 0)
        buf_add(b, "%d: xchg loc_%s %s -> %s\n", th, loc, x, x);
    else if (strcmp(mn, "XADD") == 0)
        buf_add(b, "%d: add loc_%s %s -> %s\n", th, loc, x, x);
    else { /* CMPXCHG: compares with EAX; EAX gets the old word either way */
        char eax[40];
        int reg = reg_index(r, "EAX", line, false);
        if (reg < 0)
            return;
        lit_reg_name(t, reg, eax, sizeof eax);
        buf_add(b, "%d: cmpxchg loc_%s %s %s -> %s\n", th, loc, eax, x, eax);
    }
}

/* Whether mnemonic mn (upper case) is one ccsim reads (`subset`). */
static bool in_subset(const char *mn)
{
    static const char *const known[] = {"MOV",  "MFENCE", "LFENCE", "SFENCE", "XCHG",
                                        "XADD", "ADD",    "INC",    "DEC",    "CMPXCHG"};
    for (size_t i = 0; i < SIM_COUNT_OF(known); i++)
        if (strcmp(mn, known[i]) == 0)
            return true;
    return false;
}

/* One cell: an instruction of thread th. */
static void instruction(struct rd *r, int th, char *cell, int line)
{
    if (!*cell)
        return;
    char whole[256]; /* as written, for messages: the operands are split below */
    snprintf(whole, sizeof whole, "%s", cell);
    char *p = cell;
    bool lock = false;
    if (strncasecmp(p, "LOCK", 4) == 0 && isspace((unsigned char)p[4])) {
        lock = true;
        p = skip_ws(p + 4);
    }
    char mn[16] = "";
    size_t n = 0;
    while (p[n] && !isspace((unsigned char)p[n]) && n < sizeof mn - 1) {
        mn[n] = (char)toupper((unsigned char)p[n]);
        n++;
    }
    p = skip_ws(p + n);
    if (!in_subset(mn)) { /* before the operands: a label is no register */
        err(r, line, "P%d: '%s' is not in the subset: %s", th, whole, subset);
        return;
    }
    struct opnd a = {OP_NONE, 0, 0}, c = {OP_NONE, 0, 0};
    char *comma = strchr(p, ',');
    if (comma)
        *comma = '\0';
    if (*p && !parse_opnd(r, p, line, &a))
        return;
    if (comma && !parse_opnd(r, comma + 1, line, &c))
        return;
    struct buf *b = &r->code[th];
    if (strcmp(mn, "MFENCE") == 0 || strcmp(mn, "LFENCE") == 0 || strcmp(mn, "SFENCE") == 0) {
        if (a.kind != OP_NONE || lock)
            err(r, line, "%s takes no operand and no LOCK", mn);
        buf_add(b, "%d: fence\n", th);
    } else if (strcmp(mn, "MOV") == 0 && !lock)
        emit_mov(r, b, th, &a, &c, line);
    else if (strcmp(mn, "MOV") != 0)
        emit_rmw(r, b, th, mn, lock, &a, &c, line);
    else
        err(r, line, "P%d: '%s' is not in the subset: %s", th, whole, subset);
}

/* The condition's first word, at the start of a line. */
static bool is_condition(const char *p)
{
    return strncmp(p, "exists", 6) == 0 || strncmp(p, "forall", 6) == 0 ||
           (*p == '~' && strncmp(skip_ws((char *)p + 1), "exists", 6) == 0) ||
           strncmp(p, "locations", 9) == 0;
}

static void read_program(struct rd *r)
{
    while (!r->failed && next_line(r) < r->nlines) {
        char *p = skip_ws(r->line[r->at]);
        if (is_condition(p))
            return;
        int line = r->at + 1;
        char *cells[LIT_MAX_THREADS + 1];
        int n = split_row(p, cells, LIT_MAX_THREADS);
        if (n != r->t->threads) {
            err(r, line,
                n < 0 ? "expected a row of instructions ending with ';', or the condition"
                      : "a row of %d column(s), the test has %d thread(s)",
                n, r->t->threads);
            return;
        }
        for (int i = 0; i < n && !r->failed; i++)
            instruction(r, i, cells[i], line);
        r->at++;
    }
    if (!r->failed)
        err(r, last_line(r), "no final condition (exists, ~exists or forall)");
}

/* ------------------------------------------------------------ condition */

struct cp {
    struct rd *r;
    const char *s; /* the condition text (lines joined) */
    size_t pos;
    const int *line_of; /* per byte of s, its line */
    int depth;          /* ~ and ( open around the cursor: at most CP_MAX_DEPTH */
};

/* Nesting the parser (a recursive descent) follows: deeper is refused,
 * not a stack overflow. */
#define CP_MAX_DEPTH 64

static void cp_ws(struct cp *c)
{
    while (c->s[c->pos] && isspace((unsigned char)c->s[c->pos]))
        c->pos++;
}

static int cp_line(const struct cp *c)
{
    return c->line_of[c->pos];
}

static bool cp_eat(struct cp *c, const char *tok)
{
    cp_ws(c);
    size_t n = strlen(tok);
    if (strncmp(c->s + c->pos, tok, n) != 0)
        return false;
    c->pos += n;
    return true;
}

static int node(struct cp *c, struct lit_node nd)
{
    struct lit_test *t = c->r->t;
    if (t->nnodes == LIT_MAX_NODES) {
        err(c->r, cp_line(c), "the condition has more than %d terms", LIT_MAX_NODES);
        return 0;
    }
    t->nodes[t->nnodes] = nd;
    return t->nnodes++;
}

static int cp_or(struct cp *c);

static int cp_atom(struct cp *c)
{
    cp_ws(c);
    size_t start = c->pos;
    while (c->s[c->pos] && c->s[c->pos] != '=' && c->s[c->pos] != ')' && c->s[c->pos] != '\\' &&
           c->s[c->pos] != '/')
        c->pos++;
    char lhs[64];
    snprintf(lhs, sizeof lhs, "%.*s", (int)(c->pos - start), c->s + start);
    trim(lhs);
    if (strcmp(lhs, "true") == 0 || strcmp(lhs, "false") == 0)
        return node(c, (struct lit_node){.kind = lhs[0] == 't' ? LIT_TRUE : LIT_FALSE});
    int line = c->s[start] ? c->line_of[start] : last_line(c->r); /* nothing left: the end */
    if (!cp_eat(c, "=") || !*lhs) {
        err(c->r, line, "condition: expected P:REG=VALUE or LOCATION=VALUE at '%s'", c->s + start);
        return 0;
    }
    cp_ws(c);
    char *end;
    errno = 0;
    long long v = lit_strtoll(c->s + c->pos, &end);
    if (end == c->s + c->pos) {
        err(c->r, line, "condition: '%s=' needs an integer value", lhs);
        return 0;
    }
    if (errno == ERANGE) {
        err(c->r, line, "condition: '%s=%.*s' is out of range (a 64-bit integer)", lhs,
            (int)(end - (c->s + c->pos)), c->s + c->pos);
        return 0;
    }
    c->pos = (size_t)(end - c->s);
    struct lit_node nd = {.kind = LIT_ATOM, .value = v};
    if (!parse_var(c->r, lhs, line, &nd.var))
        return 0;
    if (nd.var.thread >= c->r->t->threads) {
        err(c->r, line, "condition: thread %d, but the test has %d thread(s)", nd.var.thread,
            c->r->t->threads);
        return 0;
    }
    return node(c, nd);
}

/* Enters one more level of ~ or parentheses: false (said) past
 * CP_MAX_DEPTH of them. */
static bool cp_deeper(struct cp *c)
{
    if (c->depth == CP_MAX_DEPTH) {
        err(c->r, cp_line(c), "condition: nested more than %d deep (~ and parentheses)",
            CP_MAX_DEPTH);
        return false;
    }
    c->depth++;
    return true;
}

static int cp_unary(struct cp *c)
{
    int n;
    if (cp_eat(c, "~")) {
        if (!cp_deeper(c))
            return 0;
        n = node(c, (struct lit_node){.kind = LIT_NOT, .a = cp_unary(c)});
    } else if (cp_eat(c, "(")) {
        if (!cp_deeper(c))
            return 0;
        n = cp_or(c);
        if (!cp_eat(c, ")"))
            err(c->r, cp_line(c), "condition: expected ')'");
    } else
        return cp_atom(c);
    c->depth--;
    return n;
}

static int cp_and(struct cp *c)
{
    int n = cp_unary(c);
    while (!c->r->failed && cp_eat(c, "/\\"))
        n = node(c, (struct lit_node){.kind = LIT_AND, .a = n, .b = cp_unary(c)});
    return n;
}

static int cp_or(struct cp *c)
{
    int n = cp_and(c);
    while (!c->r->failed && cp_eat(c, "\\/"))
        n = node(c, (struct lit_node){.kind = LIT_OR, .a = n, .b = cp_and(c)});
    return n;
}

/* `locations [x; 0:EAX;]` */
static void read_locations(struct rd *r, char *p, int line)
{
    char *open = strchr(p, '['), *close = strrchr(p, ']');
    if (!open || !close || close < open) {
        err(r, line, "expected 'locations [x; 0:EAX; ...]'");
        return;
    }
    *close = '\0';
    for (char *it = strtok(open + 1, ";"); it && !r->failed; it = strtok(NULL, ";")) {
        trim(it);
        if (!*it)
            continue;
        struct lit_var v;
        if (!parse_var(r, it, line, &v))
            continue;
        if (v.thread >= r->t->threads) {
            err(r, line, "locations: thread %d, but the test has %d thread(s)", v.thread,
                r->t->threads);
            return;
        }
        if (r->t->nshow == LIT_MAX_SHOW) {
            err(r, line, "locations: more than %d values", LIT_MAX_SHOW);
            return;
        }
        r->t->show[r->t->nshow++] = v;
    }
}

/* The atoms' variables, in order, after the locations line's. */
static void show_atoms(struct lit_test *t)
{
    for (int i = 0; i < t->nnodes; i++) {
        if (t->nodes[i].kind != LIT_ATOM)
            continue;
        bool seen = false;
        for (int k = 0; k < t->nshow; k++)
            seen |= t->show[k].thread == t->nodes[i].var.thread &&
                    t->show[k].index == t->nodes[i].var.index;
        if (!seen && t->nshow < LIT_MAX_SHOW)
            t->show[t->nshow++] = t->nodes[i].var;
    }
}

/* The rest of the file from p (on the current line), lines joined by
 * spaces, and the line of each of its bytes. */
static struct buf join_rest(struct rd *r, const char *p, int **line_of)
{
    struct buf b = {0};
    size_t cap = 0;
    for (int i = r->at; i < r->nlines; i++) {
        size_t before = b.len;
        buf_add(&b, "%s ", i == r->at ? p : r->line[i]);
        if (b.len + 1 > cap) {
            cap = 2 * (b.len + 1);
            *line_of = sim_xrealloc(*line_of, cap * sizeof **line_of);
        }
        for (size_t k = before; k <= b.len; k++)
            (*line_of)[k] = i + 1;
    }
    return b;
}

static void read_condition(struct rd *r)
{
    char *p = skip_ws(r->line[r->at]);
    if (strncmp(p, "locations", 9) == 0) {
        read_locations(r, p, r->at + 1);
        r->at++;
        if (r->failed || next_line(r) == r->nlines) {
            err(r, last_line(r), "no final condition (exists, ~exists or forall)");
            return;
        }
        p = skip_ws(r->line[r->at]);
    }
    int *line_of = NULL;
    struct buf b = join_rest(r, p, &line_of);
    struct cp c = {r, b.s, 0, line_of, 0};
    struct lit_test *t = r->t;
    if (cp_eat(&c, "exists"))
        t->quant = LIT_EXISTS;
    else if (cp_eat(&c, "forall"))
        t->quant = LIT_FORALL;
    else if (cp_eat(&c, "~") && cp_eat(&c, "exists"))
        t->quant = LIT_NOT_EXISTS;
    else
        err(r, cp_line(&c), "expected exists, ~exists or forall");
    size_t body = c.pos;
    if (!r->failed)
        t->root = cp_or(&c);
    cp_ws(&c);
    if (!r->failed && c.s[c.pos]) {
        char rest[128];
        snprintf(rest, sizeof rest, "%s", c.s + c.pos);
        trim(rest);
        err(r, cp_line(&c), "condition: unexpected '%s'", rest);
    }
    char cond[sizeof t->condition - 16];
    snprintf(cond, sizeof cond, "%s", b.s + body);
    trim(cond);
    snprintf(t->condition, sizeof t->condition, "%s %s",
             t->quant == LIT_EXISTS   ? "exists"
             : t->quant == LIT_FORALL ? "forall"
                                      : "~exists",
             cond);
    show_atoms(t);
    free(b.s);
    free(line_of);
}

/* ------------------------------------------------------------ the trace */

static void write_trace(struct rd *r)
{
    struct lit_test *t = r->t;
    struct buf b = {0};
    char x[40];
    buf_add(&b, "# %s (litmus test %s), translated by ccsim litmus\nccsim-trace 2\nthreads %d\n",
            t->file, t->name, t->threads);
    for (int l = 0; l < t->nlocs; l++)
        buf_add(&b, "line loc_%s\n", t->locs[l]);
    for (int g = 0; g < t->nregs; g++) {
        lit_reg_name(t, g, x, sizeof x);
        buf_add(&b, "all: let %s = 0\n", x);
    }
    for (int l = 0; l < t->nlocs; l++)
        if (r->init_loc[l])
            buf_add(&b, "0: write loc_%s %s%lld%s\n", t->locs[l], r->init_loc[l] < 0 ? "(" : "",
                    (long long)r->init_loc[l], r->init_loc[l] < 0 ? ")" : "");
    for (int th = 0; th < t->threads; th++)
        for (int g = 0; g < t->nregs; g++)
            if (r->reg_init[th][g]) {
                lit_reg_name(t, g, x, sizeof x);
                buf_add(&b, "%d: let %s = (%lld)\n", th, x, (long long)r->init_reg[th][g]);
            }
    buf_add(&b, "all: sync   # the start: each thread leaves after its start skew\n");
    for (int th = 0; th < t->threads; th++)
        if (r->code[th].s)
            buf_add(&b, "%s", r->code[th].s);
    buf_add(&b, "all: sync   # the end: every thread done, the machine quiet\n");
    for (int l = 0; l < t->nlocs; l++) {
        lit_loc_end_name(t, l, x, sizeof x);
        buf_add(&b, "0: read loc_%s -> %s\n", t->locs[l], x);
    }
    t->trace = b.s;
}

bool lit_parse(const char *name, const char *text, struct lit_test *t, struct sim_diag *d)
{
    memset(t, 0, sizeof *t);
    snprintf(t->file, sizeof t->file, "%s", name);
    t->expect = -1;
    struct rd r = {.t = t, .d = d, .text = sim_xstrdup(text)};
    split_lines(&r);
    if (!r.failed)
        read_header(&r);
    if (!r.failed)
        read_init(&r);
    if (!r.failed)
        read_threads(&r);
    if (!r.failed)
        read_program(&r);
    if (!r.failed)
        read_condition(&r);
    for (int th = t->threads; th < LIT_MAX_THREADS && !r.failed; th++)
        for (int g = 0; g < t->nregs; g++)
            if (r.reg_init[th][g])
                err(&r, r.reg_init[th][g], "init: register %d:%s, but the test has %d thread(s)",
                    th, t->regs[g], t->threads);
    if (!r.failed)
        write_trace(&r);
    for (int i = 0; i < LIT_MAX_THREADS; i++)
        free(r.code[i].s);
    free(r.line);
    free(r.text);
    return !r.failed;
}

bool lit_read(const char *path, struct lit_test *t, struct sim_diag *d)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        memset(t, 0, sizeof *t);
        sim_diag_add(d, path, 0, "cannot read: %s", strerror(errno));
        return false;
    }
    struct buf b = {0};
    char chunk[4096];
    size_t n;
    buf_add(&b, "%s", "");
    errno = 0;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_add(&b, "%.*s", (int)n, chunk);
    int e = errno;
    if (ferror(f)) { /* a directory opens, and its read fails (EISDIR) */
        sim_diag_add(d, path, 0, "cannot read: %s", strerror(e));
        fclose(f);
        free(b.s);
        memset(t, 0, sizeof *t);
        return false;
    }
    fclose(f);
    bool ok = lit_parse(path, b.s, t, d);
    free(b.s);
    return ok;
}

void lit_free(struct lit_test *t)
{
    free(t->trace);
    t->trace = NULL;
}

/* ------------------------------------------------------------ judging */

static int64_t value_of(const struct lit_var *v, const struct lit_outcome *o)
{
    return v->thread < 0 ? o->loc[v->index] : o->reg[v->thread][v->index];
}

static bool eval(const struct lit_test *t, int n, const struct lit_outcome *o)
{
    const struct lit_node *nd = &t->nodes[n];
    switch (nd->kind) {
    case LIT_TRUE:
        return true;
    case LIT_FALSE:
        return false;
    case LIT_ATOM:
        return value_of(&nd->var, o) == nd->value;
    case LIT_NOT:
        return !eval(t, nd->a, o);
    case LIT_AND:
        return eval(t, nd->a, o) && eval(t, nd->b, o);
    case LIT_OR:
        return eval(t, nd->a, o) || eval(t, nd->b, o);
    }
    return false;
}

bool lit_holds(const struct lit_test *t, const struct lit_outcome *o)
{
    return eval(t, t->root, o);
}

void lit_format(const struct lit_test *t, const struct lit_outcome *o, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < t->nshow && len < size; i++) {
        const struct lit_var *v = &t->show[i];
        int n = v->thread < 0
                    ? snprintf(buf + len, size - len, "%s=%lld;%s", t->locs[v->index],
                               (long long)value_of(v, o), i + 1 < t->nshow ? " " : "")
                    : snprintf(buf + len, size - len, "%d:%s=%lld;%s", v->thread, t->regs[v->index],
                               (long long)value_of(v, o), i + 1 < t->nshow ? " " : "");
        len += n > 0 ? (size_t)n : 0;
    }
}
