/*
 * trace_eval.c -- running one thread's program: struct wl_cursor walks the
 * flat statement list with a stack of open blocks, evaluates selectors,
 * conditions and arguments for its thread only when it reaches them, and
 * yields one concrete struct wl_op per call. Nothing is unrolled or
 * allocated: a block's record is its depth's loop_val/loop_end (a `for`'s
 * variable and last value; if and while need none, their statements know
 * where they go).
 *
 * Loop bounds are evaluated once, when the loop starts; the variable goes
 * from the first bound to the second inclusive. A loop with no operation, or
 * whose constant selectors never name the thread, is passed in one step.
 * An if chain runs its first branch whose condition holds (else the else
 * branch, if any); a while tests its condition before every round. `let` is
 * done here, at no cost: it sets the register and yields nothing.
 * A call that passes WL_MAX_IDLE_STEPS statements, or WL_MAX_IDLE_LOOPS
 * rounds of whiles, without an operation is an error (a loop that selects
 * the thread nowhere, at run time, or a while that only sets registers), so
 * no program can hang the caller.
 */
#include "trace_impl.h"

#include <stdarg.h>
#include <string.h>

enum { CUR_RUNNING, CUR_ENDED, CUR_FAILED };

void wl_cursor_init(struct wl_cursor *c, const struct wl_program *p, int thread)
{
    SIM_ASSERT(thread >= 0 && thread < p->threads);
    memset(c, 0, sizeof *c);
    c->prog = p;
    c->thread = thread;
    c->state = CUR_RUNNING;
    c->back_to = -1;
}

void wl_set_reg(struct wl_cursor *c, int reg, int64_t value)
{
    SIM_ASSERT(reg >= 0 && reg < c->prog->regs.n);
    c->reg[reg] = value;
}

__attribute__((format(printf, 5, 6))) static void fail(struct wl_cursor *c, struct sim_diag *d,
                                                       const struct wl_stmt *s, int col,
                                                       const char *fmt, ...)
{
    char msg[512];
    const char *var;
    int64_t it;
    int n;
    if (!wl_cursor_outer_loop(c, &var, &it)) /* the iteration as the trace counts it */
        n = snprintf(msg, sizeof msg, "thread %d: ", c->thread);
    else if (strcmp(var, "it") == 0)
        n = snprintf(msg, sizeof msg, "thread %d, iteration %lld: ", c->thread, (long long)it);
    else
        n = snprintf(msg, sizeof msg, "thread %d, iteration %s=%lld: ", c->thread, var,
                     (long long)it);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    wl_diag_at(d, c->prog->file, s->line, col, msg);
    c->state = CUR_FAILED;
}

static bool eval(struct wl_cursor *c, struct sim_diag *d, const struct wl_stmt *s, int e,
                 int64_t *out)
{
    const struct wl_expr *x = &c->prog->exprs[e];
    if (x->is_const) { /* the common cases first: a constant, a loop variable */
        *out = x->value;
        return true;
    }
    if (x->kind == WL_E_LOOP) {
        *out = c->loop_val[x->a];
        return true;
    }
    struct wl_env env = {c->thread, c->loop_val, c->reg};
    struct wl_fault f;
    if (wl_expr_eval(c->prog, e, &env, out, &f))
        return true;
    fail(c, d, s, f.col, "%s", f.msg);
    return false;
}

/* ------------------------------------------------------------- selectors */

static bool thread_ok(struct wl_cursor *c, struct sim_diag *d, const struct wl_stmt *s, int e,
                      int64_t v)
{
    if (v >= 0 && v < c->prog->threads)
        return true;
    fail(c, d, s, c->prog->exprs[e].col, "the selector gives thread %lld, out of range (0..%d)",
         (long long)v, c->prog->threads - 1);
    return false;
}

/* Whether item `it` names the thread; false with *ok = false on an error. */
static bool item_selects(struct wl_cursor *c, struct sim_diag *d, const struct wl_stmt *s,
                         const struct wl_sel_item *it, bool *ok)
{
    int64_t lo = 0, hi = 0;
    int hi_expr = it->hi >= 0 ? it->hi : it->lo;
    *ok = eval(c, d, s, it->lo, &lo) && eval(c, d, s, hi_expr, &hi);
    if (*ok && lo <= hi)
        *ok = thread_ok(c, d, s, it->lo, lo) && thread_ok(c, d, s, hi_expr, hi);
    return *ok && lo <= c->thread && c->thread <= hi;
}

static bool selects(struct wl_cursor *c, struct sim_diag *d, const struct wl_stmt *s, bool *ok)
{
    *ok = true;
    if (s->sel.kind != WL_SEL_LIST)
        return s->sel.kind == WL_SEL_ALL || c->thread != 0;
    if (s->sel.bits >= 0) {
        const uint64_t *b = &c->prog->sel_bits[s->sel.bits];
        return (b[c->thread / 64] >> (c->thread % 64)) & 1;
    }
    for (int i = 0; i < s->sel.count && *ok; i++)
        if (item_selects(c, d, s, &c->prog->items[s->sel.first + i], ok))
            return true;
    return false;
}

/* ------------------------------------------------------------- loops */

/* Whether a loop's body holds an op for the thread. Only for bodies whose
 * selectors are all constants: those were checked by the parser and cannot
 * fail, so there is no diagnostics sink. */
static bool body_selects(struct wl_cursor *c, const struct wl_stmt *loop)
{
    const struct wl_stmt *st = c->prog->stmts;
    for (int i = (int)(loop - st) + 1; i < loop->match; i++) {
        bool ok;
        if (st[i].kind == WL_S_OP && selects(c, NULL, &st[i], &ok))
            return true;
    }
    return false;
}

static bool enter_loop(struct wl_cursor *c, struct sim_diag *d, const struct wl_stmt *s)
{
    int64_t from, to;
    if (!eval(c, d, s, s->from, &from) || !eval(c, d, s, s->to, &to))
        return false;
    if (from > to || !s->has_ops || (s->static_sel && !body_selects(c, s))) {
        c->pc = s->match + 1;
        return true;
    }
    c->loop_val[c->depth] = from;
    c->loop_end[c->depth] = to;
    c->depth++;
    c->pc++;
    return true;
}

void wl_cursor_pos(const struct wl_cursor *c, int stmt, struct wl_pos *out)
{
    const struct wl_stmt *st = c->prog->stmts;
    int inner[WL_MAX_DEPTH], n = 0;
    for (int i = stmt - 1; i >= 0 && n < WL_MAX_DEPTH; i--) /* a body ends at its match */
        if (st[i].kind != WL_S_OP && st[i].kind != WL_S_END && st[i].match > stmt)
            inner[n++] = i;
    out->n = n;
    out->stmt = stmt;
    for (int k = 0; k < n; k++) {
        const struct wl_stmt *b = &st[inner[n - 1 - k]];
        out->blk[k] = inner[n - 1 - k];
        out->val[k] = b->kind == WL_S_FOR ? c->loop_val[b->depth] : 0;
    }
}

static int cmp_int(int64_t a, int64_t b)
{
    return (a > b) - (a < b);
}

int wl_pos_cmp(const struct wl_pos *a, const struct wl_pos *b)
{
    int n = a->n < b->n ? a->n : b->n;
    for (int k = 0; k < n; k++) {
        if (a->blk[k] != b->blk[k]) /* sibling blocks: the earlier one runs first */
            return cmp_int(a->blk[k], b->blk[k]);
        if (a->val[k] != b->val[k])
            return cmp_int(a->val[k], b->val[k]);
    }
    /* in one body: the op or block that comes first in it */
    int sa = a->n > n ? a->blk[n] : a->stmt, sb = b->n > n ? b->blk[n] : b->stmt;
    return cmp_int(sa, sb);
}

static void end_loop(struct wl_cursor *c, const struct wl_stmt *s)
{
    int top = c->depth - 1;
    if (c->loop_val[top] == c->loop_end[top]) {
        c->depth--;
        c->pc++;
    } else {
        c->loop_val[top]++;
        c->pc = s->match + 1;
    }
}

/* ------------------------------------------------------------- if and while */

/* Enters the first branch, from statement b of an if chain on, whose
 * condition holds; past the chain's END if none does. */
static bool take_branch(struct wl_cursor *c, struct sim_diag *d, int b)
{
    const struct wl_stmt *st = c->prog->stmts;
    for (;;) {
        const struct wl_stmt *s = &st[b];
        if (s->kind == WL_S_END) {
            c->pc = b + 1;
            return true;
        }
        int64_t holds = 1;
        if (s->kind != WL_S_ELSE && !eval(c, d, s, s->cond, &holds))
            return false;
        if (holds) {
            SIM_ASSERT(c->depth < WL_MAX_DEPTH);
            c->depth++;
            c->pc = b + 1;
            return true;
        }
        b = s->match;
    }
}

/* An else or else-if reached from the branch before it: that branch ran,
 * so the chain is done. */
static void leave_branch(struct wl_cursor *c, const struct wl_stmt *s)
{
    const struct wl_stmt *st = c->prog->stmts;
    int end = s->match;
    while (st[end].kind != WL_S_END)
        end = st[end].match;
    c->depth--;
    c->pc = end + 1;
}

static bool enter_while(struct wl_cursor *c, struct sim_diag *d, const struct wl_stmt *s)
{
    bool again = c->back_to == (int)(s - c->prog->stmts); /* a new round, not an entry */
    c->back_to = -1;
    c->while_entries += !again;
    c->outer_entries += !again && !s->in_while;
    int64_t holds = 0;
    if (!eval(c, d, s, s->cond, &holds))
        return false;
    if (!holds) {
        c->pc = s->match + 1;
        return true;
    }
    SIM_ASSERT(c->depth < WL_MAX_DEPTH);
    c->depth++;
    c->pc++;
    return true;
}

/* A block's '}': a for counts, a while tests again, an if chain is done. */
static void end_block(struct wl_cursor *c, const struct wl_stmt *s)
{
    const struct wl_stmt *open = &c->prog->stmts[s->match];
    if (open->kind == WL_S_FOR) {
        end_loop(c, s);
        return;
    }
    c->depth--;
    c->pc = open->kind == WL_S_WHILE ? s->match : c->pc + 1;
    c->back_to = open->kind == WL_S_WHILE ? s->match : -1;
}

bool wl_cursor_outer_loop(const struct wl_cursor *c, const char **name, int64_t *value)
{
    if (c->depth < 1)
        return false;
    /* the first for in the program that holds pc is the outermost: an if or
     * a while may stand around it (its variable is in its depth's slot) */
    const struct wl_stmt *st = c->prog->stmts;
    for (int i = 0; i < c->prog->nstmts; i++) {
        if (st[i].kind != WL_S_FOR)
            continue;
        if (i < c->pc && c->pc <= st[i].match) {
            *name = c->prog->vars.v[st[i].var];
            *value = c->loop_val[st[i].depth];
            return true;
        }
        i = st[i].match; /* not in this loop: skip its body */
    }
    return false;
}

/* ------------------------------------------------------------- operations */

/* Evaluates index expression e of line array l into *index, in range. */
static bool eval_index(struct wl_cursor *c, struct sim_diag *d, const struct wl_stmt *s,
                       const struct wl_line *l, int e, int64_t *index)
{
    if (!eval(c, d, s, e, index))
        return false;
    if (*index >= 0 && *index < l->count)
        return true;
    fail(c, d, s, c->prog->exprs[e].col, "index %lld is out of range for '%s' (0..%lld)",
         (long long)*index, l->name, (long long)(l->count - 1));
    return false;
}

/* A range name[lo..hi] (expect): *count lines from element lo on. */
static bool resolve_range(struct wl_cursor *c, struct sim_diag *d, const struct wl_stmt *s,
                          const struct wl_addr *a, int64_t lo, int64_t *count)
{
    const struct wl_line *l = &c->prog->decls[a->decl].pub;
    int64_t hi = 0;
    if (!eval_index(c, d, s, l, a->index_hi, &hi))
        return false;
    if (lo <= hi) {
        *count = hi - lo + 1;
        return true;
    }
    fail(c, d, s, c->prog->exprs[a->index_hi].col, "the range %lld..%lld of '%s' is empty",
         (long long)lo, (long long)hi, l->name);
    return false;
}

static bool resolve_addr(struct wl_cursor *c, struct sim_diag *d, const struct wl_stmt *s,
                         const struct wl_addr *a, struct wl_loc *loc, int64_t *count)
{
    const struct wl_program *p = c->prog;
    const struct wl_line *l = &p->decls[a->decl].pub;
    int64_t index = 0, word = 0;
    if (a->index >= 0 && !eval_index(c, d, s, l, a->index, &index))
        return false;
    if (a->index_hi >= 0 && !resolve_range(c, d, s, a, index, count))
        return false;
    if (a->word >= 0 && !eval(c, d, s, a->word, &word))
        return false;
    if (word < 0 || word >= p->words) {
        fail(c, d, s, p->exprs[a->word].col,
             "word %lld is out of range (a %d-byte line has words 0..%d)", (long long)word,
             p->words * WL_WORD_BYTES, p->words - 1);
        return false;
    }
    *loc = (struct wl_loc){l->first + index, (int)word};
    return true;
}

static bool count_arg(struct wl_cursor *c, struct sim_diag *d, const struct wl_stmt *s,
                      const struct wl_arg *a, struct wl_op *out)
{
    int64_t min = a->kind == WL_ARG_COUNT ? 1 : 0;
    if (!eval(c, d, s, a->expr, &out->count))
        return false;
    if (out->count >= min)
        return true;
    fail(c, d, s, a->col, "the number of %s must be at least %lld, found %lld",
         a->kind == WL_ARG_COUNT ? "lines" : "cycles", (long long)min, (long long)out->count);
    return false;
}

static bool take_arg(struct wl_cursor *c, struct sim_diag *d, const struct wl_stmt *s,
                     const struct wl_arg *a, struct wl_op *out)
{
    switch (a->kind) {
    case WL_ARG_WORD:
    case WL_ARG_LINE:
        return resolve_addr(c, d, s, &a->addr, &out->addr[out->naddr++], &out->count);
    case WL_ARG_VALUE:
        return eval(c, d, s, a->expr, &out->value[out->nvalue++]);
    case WL_ARG_COUNT:
    case WL_ARG_CYCLES:
        return count_arg(c, d, s, a, out);
    case WL_ARG_CMP:
        out->cmp = (enum wl_cmp)a->small;
        return true;
    case WL_ARG_LABEL:
        out->label = a->small;
        return true;
    case WL_ARG_STATE:
        out->state = (enum wl_state)a->small;
        return true;
    case WL_ARG_REG: /* let: done by the cursor, never yielded */
        return true;
    }
    return false;
}

/* copy and addline: both ranges of `count` lines stay inside their arrays. */
static bool check_ranges(struct wl_cursor *c, struct sim_diag *d, const struct wl_stmt *s,
                         const struct wl_op *out)
{
    for (int i = 0; i < out->naddr; i++) {
        const struct wl_line *l = &c->prog->decls[s->arg[i].addr.decl].pub;
        int64_t index = out->addr[i].line - l->first;
        if (out->count <= l->count - index)
            continue;
        fail(c, d, s, s->arg[i].col, "%lld lines from %s[%lld] run past the end of '%s' (0..%lld)",
             (long long)out->count, l->name, (long long)index, l->name, (long long)(l->count - 1));
        return false;
    }
    return true;
}

static bool make_op(struct wl_cursor *c, struct sim_diag *d, int i, struct wl_op *out)
{
    const struct wl_stmt *s = &c->prog->stmts[i];
    memset(out, 0, sizeof *out);
    out->op = s->op;
    out->stmt = i;
    out->reg = s->reg;
    out->in_while = s->in_while;
    out->loop = s->loop;
    out->loop_entry = c->outer_entries;
    for (int k = 0; k < s->nargs; k++)
        if (!take_arg(c, d, s, &s->arg[k], out))
            return false;
    if (s->op == WL_OP_COPY || s->op == WL_OP_ADDLINE)
        return check_ranges(c, d, s, out);
    if (s->op == WL_OP_EXPECT && out->count == 0)
        out->count = 1; /* no range: one line */
    return true;
}

/* ------------------------------------------------------------- stepping */

/* One block statement (it yields nothing); false on an error. */
static bool pass(struct wl_cursor *c, struct sim_diag *d, const struct wl_stmt *s)
{
    switch (s->kind) {
    case WL_S_FOR:
        return enter_loop(c, d, s);
    case WL_S_IF:
        return take_branch(c, d, c->pc);
    case WL_S_ELIF:
    case WL_S_ELSE:
        leave_branch(c, s);
        return true;
    case WL_S_WHILE:
        return enter_while(c, d, s);
    case WL_S_END:
        end_block(c, s);
        return true;
    case WL_S_OP:
        break;
    }
    SIM_ASSERT(false);
    return false;
}

/* let REG = VALUE: a register set, no operation. */
static bool let(struct wl_cursor *c, struct sim_diag *d, const struct wl_stmt *s)
{
    return eval(c, d, s, s->arg[1].expr, &c->reg[s->reg]);
}

/* A while's '}' ends one more round without an operation; false (after an
 * error) at WL_MAX_IDLE_LOOPS of them since the last entry into a while
 * (wl_next starts the count again at each: a nested while entered again
 * and again by its outer one too). */
static bool idle_round(struct wl_cursor *c, struct sim_diag *d, const struct wl_stmt *s,
                       long *rounds)
{
    const struct wl_stmt *open = &c->prog->stmts[s->match];
    if (open->kind != WL_S_WHILE || ++*rounds < WL_MAX_IDLE_LOOPS)
        return true;
    fail(c, d, open, open->col,
         "%d rounds of this while without an operation (WL_MAX_IDLE_LOOPS): it is stuck, or "
         "it computes what a let could",
         WL_MAX_IDLE_LOOPS);
    return false;
}

enum wl_next_result wl_next(struct wl_cursor *c, struct wl_op *out, struct sim_diag *d)
{
    const struct wl_program *p = c->prog;
    long rounds = 0;
    uint64_t entry = c->while_entries;
    for (long steps = 0; c->state == CUR_RUNNING && c->pc < p->nstmts; steps++) {
        const struct wl_stmt *s = &p->stmts[c->pc];
        if (steps >= WL_MAX_IDLE_STEPS) {
            fail(c, d, s, s->col, "%d statements passed without an operation (WL_MAX_IDLE_STEPS)",
                 WL_MAX_IDLE_STEPS);
            break;
        }
        if (c->while_entries != entry) /* a new entry: its own rounds */
            entry = c->while_entries, rounds = 0;
        if (s->kind == WL_S_END && !idle_round(c, d, s, &rounds))
            break;
        if (s->kind != WL_S_OP) {
            (void)pass(c, d, s);
            continue;
        }
        bool ok;
        int i = c->pc++;
        if (!selects(c, d, s, &ok))
            continue;
        if (s->op != WL_OP_LET)
            return make_op(c, d, i, out) ? WL_NEXT_OP : WL_NEXT_ERROR;
        (void)let(c, d, s);
    }
    if (c->state == CUR_RUNNING)
        c->state = CUR_ENDED;
    return c->state == CUR_FAILED ? WL_NEXT_ERROR : WL_NEXT_END;
}
