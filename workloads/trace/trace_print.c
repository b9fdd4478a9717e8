/*
 * trace_print.c -- the canonical text of a program: the header (the
 * program's own version), threads, pin (if given), every line declaration,
 * then the body with two spaces per block level (`} else {` at the if's
 * level). Expressions print as written, with the fewest parentheses that
 * keep their tree; an expression argument that starts with '-' after another
 * expression argument is parenthesised, since arguments are greedy.
 */
#include "trace_impl.h"

static void print_indent(FILE *f, int depth)
{
    for (int i = 0; i < depth; i++)
        fputs("  ", f);
}

static void print_pins(FILE *f, const struct wl_program *p)
{
    if (!p->pinned)
        return;
    fputs("pin", f);
    for (int i = 0; i < p->threads; i++) {
        fprintf(f, " %d", p->pin[i].core);
        if (p->pin[i].hw)
            fprintf(f, ".%d", p->pin[i].hw);
    }
    fputc('\n', f);
}

static void print_decl(FILE *f, const struct wl_program *p, const struct wl_decl *d)
{
    fprintf(f, "line %s", d->pub.name);
    if (d->count_expr >= 0) {
        fputc(' ', f);
        wl_expr_print(f, p, d->count_expr);
    }
    if (d->home_expr >= 0) {
        fputs(" home=", f);
        wl_expr_print(f, p, d->home_expr);
    }
    if (d->pub.place != WL_PLACE_MEMORY) {
        fputs(d->pub.place == WL_PLACE_MPB ? " mpb=" : " tas=", f);
        if (d->place_expr >= 0)
            wl_expr_print(f, p, d->place_expr);
        else
            fputs("each", f);
    }
    fputc('\n', f);
}

static void print_sel(FILE *f, const struct wl_program *p, const struct wl_sel *sel)
{
    if (sel->kind != WL_SEL_LIST) {
        fputs(sel->kind == WL_SEL_ALL ? "all" : "others", f);
        return;
    }
    for (int i = 0; i < sel->count; i++) {
        const struct wl_sel_item *it = &p->items[sel->first + i];
        if (i)
            fputc(',', f);
        wl_expr_print(f, p, it->lo);
        if (it->hi >= 0) {
            fputs("..", f);
            wl_expr_print(f, p, it->hi);
        }
    }
}

static void print_addr(FILE *f, const struct wl_program *p, const struct wl_addr *a)
{
    fputs(p->decls[a->decl].pub.name, f);
    if (a->index >= 0) {
        fputc('[', f);
        wl_expr_print(f, p, a->index);
        if (a->index_hi >= 0) {
            fputs("..", f);
            wl_expr_print(f, p, a->index_hi);
        }
        fputc(']', f);
    }
    if (a->word < 0)
        return;
    bool literal = p->exprs[a->word].kind == WL_E_CONST;
    fputs(literal ? "." : ".(", f);
    wl_expr_print(f, p, a->word);
    if (!literal)
        fputc(')', f);
}

static bool is_expr_arg(enum wl_arg_kind k)
{
    return k == WL_ARG_VALUE || k == WL_ARG_COUNT || k == WL_ARG_CYCLES;
}

static void print_arg(FILE *f, const struct wl_program *p, const struct wl_arg *a, bool after_expr)
{
    switch (a->kind) {
    case WL_ARG_WORD:
    case WL_ARG_LINE:
        print_addr(f, p, &a->addr);
        break;
    case WL_ARG_CMP:
        fputs(wl_cmp_text((enum wl_cmp)a->small), f);
        break;
    case WL_ARG_LABEL:
        fputs(p->labels.v[a->small], f);
        break;
    case WL_ARG_STATE:
        fputs(wl_state_text((enum wl_state)a->small), f);
        break;
    case WL_ARG_REG:
        fprintf(f, "%s =", p->regs.v[a->small]);
        break;
    default: {
        bool parens = after_expr && wl_expr_starts_with_minus(p, a->expr);
        fputs(parens ? "(" : "", f);
        wl_expr_print(f, p, a->expr);
        fputs(parens ? ")" : "", f);
    }
    }
}

static void print_op(FILE *f, const struct wl_program *p, const struct wl_stmt *s)
{
    print_sel(f, p, &s->sel);
    fprintf(f, ": %s", wl_op_name(s->op));
    for (int i = 0; i < s->nargs; i++) {
        fputc(' ', f);
        print_arg(f, p, &s->arg[i], i > 0 && is_expr_arg(s->arg[i - 1].kind));
    }
    if (s->reg >= 0 && s->op != WL_OP_LET)
        fprintf(f, " -> %s", p->regs.v[s->reg]);
}

static void print_for(FILE *f, const struct wl_program *p, const struct wl_stmt *s)
{
    fprintf(f, "for %s ", p->vars.v[s->var]);
    wl_expr_print(f, p, s->from);
    fputs("..", f);
    wl_expr_print(f, p, s->to);
    fputs(" {", f);
}

/* if, } else if, while: the word and the condition, then '{'. */
static void print_cond(FILE *f, const struct wl_program *p, const char *word,
                       const struct wl_stmt *s)
{
    fprintf(f, "%s ", word);
    wl_expr_print(f, p, s->cond);
    fputs(" {", f);
}

static void print_stmt(FILE *f, const struct wl_program *p, const struct wl_stmt *s)
{
    switch (s->kind) {
    case WL_S_OP:
        print_op(f, p, s);
        break;
    case WL_S_FOR:
        print_for(f, p, s);
        break;
    case WL_S_IF:
        print_cond(f, p, "if", s);
        break;
    case WL_S_ELIF:
        print_cond(f, p, "} else if", s);
        break;
    case WL_S_ELSE:
        fputs("} else {", f);
        break;
    case WL_S_WHILE:
        print_cond(f, p, "while", s);
        break;
    case WL_S_END:
        fputc('}', f);
        break;
    }
}

static void print_body(FILE *f, const struct wl_program *p)
{
    int depth = 0;
    for (int i = 0; i < p->nstmts; i++) {
        const struct wl_stmt *s = &p->stmts[i];
        bool closes = s->kind == WL_S_END || s->kind == WL_S_ELIF || s->kind == WL_S_ELSE;
        depth -= closes;
        print_indent(f, depth);
        print_stmt(f, p, s);
        fputc('\n', f);
        depth += s->kind != WL_S_OP && s->kind != WL_S_END;
    }
}

void wl_program_print(FILE *f, const struct wl_program *p)
{
    fprintf(f, "ccsim-trace %d\nthreads %d\n", p->version, p->threads);
    print_pins(f, p);
    for (int i = 0; i < p->ndecls; i++)
        print_decl(f, p, &p->decls[i]);
    print_body(f, p);
}
