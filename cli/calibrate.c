/*
 * calibrate.c -- the targets file, the compass search and the fitted config
 * of `ccsim calibrate` (cli/calibrate.h).
 */
#include "calibrate.h"
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ targets */

static const char *const fig_names[] = {
#define CAL_X_NAME(key, field, doc) #key,
    CAL_FIGURES(CAL_X_NAME)
#undef CAL_X_NAME
#define CAL_X_TNAME(key, table, row, coef, doc) #key,
        CAL_TABLE_FIGURES(CAL_X_TNAME)
#undef CAL_X_TNAME
};
static const char *const fig_docs[] = {
#define CAL_X_DOC(key, field, doc) doc,
    CAL_FIGURES(CAL_X_DOC)
#undef CAL_X_DOC
#define CAL_X_TDOC(key, table, row, coef, doc) doc,
        CAL_TABLE_FIGURES(CAL_X_TDOC)
#undef CAL_X_TDOC
};

const char *cal_figure_name(enum cal_figure f)
{
    return fig_names[f];
}

const char *cal_figure_doc(enum cal_figure f)
{
    return fig_docs[f];
}

static const char *const curve_names[] = {
#define CAL_X_CNAME(key, table, row, doc) #key,
    CAL_CURVES(CAL_X_CNAME)
#undef CAL_X_CNAME
};
static const char *const curve_docs[] = {
#define CAL_X_CDOC(key, table, row, doc) doc,
    CAL_CURVES(CAL_X_CDOC)
#undef CAL_X_CDOC
};

const char *cal_curve_name(enum cal_curve c)
{
    return curve_names[c];
}

#define T struct cal_targets
static const struct cfg_key target_keys[] = {
    CFG_STRING_KEY(T, source, true, "what the figures are (a paper's table, a machine)"),
    CFG_STRING_ARRAY_KEY(T, params, nparams, false,
                         "the config parameters to fit when --params is not given"),
#define CAL_X_KEY(key, field, doc)                                                                 \
    {#key, CFG_FLOAT, false, 1e-6, 1e9, 0, NULL, offsetof(T, fig) + CAL_##key * sizeof(double),    \
     0,    "ns",      doc},
    CAL_FIGURES(CAL_X_KEY)
#undef CAL_X_KEY
#define CAL_X_TKEY(key, table, row, coef, doc) CAL_X_KEY(key, 0, doc)
#define CAL_X_KEY(key, field, doc)                                                                 \
    {#key, CFG_FLOAT, false, 1e-6, 1e9, 0, NULL, offsetof(T, fig) + CAL_##key * sizeof(double),    \
     0,    "ns",      doc},
        CAL_TABLE_FIGURES(CAL_X_TKEY)
#undef CAL_X_KEY
#undef CAL_X_TKEY
#define CAL_X_CKEY(key, table, row, doc)                                                           \
    {#key,                                                                                         \
     CFG_FLOAT_ARRAY,                                                                              \
     false,                                                                                        \
     -1e9,                                                                                         \
     1e9,                                                                                          \
     3,                                                                                            \
     NULL,                                                                                         \
     offsetof(T, curve) + CAL_CURVE_##key * sizeof(double[3]),                                     \
     offsetof(T, ncurve) + CAL_CURVE_##key * sizeof(int),                                          \
     NULL,                                                                                         \
     "the row's model curve, [k0, k1, k2] as the paper writes it: " doc},
            CAL_CURVES(CAL_X_CKEY)
#undef CAL_X_CKEY
};
#undef T

/* Each target's line, for messages; false if a curve has not 3 numbers. */
static bool note_lines(struct cal_targets *t, struct cfg_file *cf, struct sim_diag *d)
{
    char key[96];
    for (int f = 0; f < CAL_NFIG; f++) {
        snprintf(key, sizeof key, "targets.%s", fig_names[f]);
        t->line[f] = cfg_line(cf, key);
    }
    bool ok = true;
    for (int c = 0; c < CAL_NCURVE; c++) {
        snprintf(key, sizeof key, "targets.%s", curve_names[c]);
        t->curve_line[c] = cfg_line(cf, key);
        if (t->ncurve[c] == 3 || t->curve_line[c] == 0) /* given whole, or not at all */
            continue;
        sim_diag_add(d, t->path, t->curve_line[c],
                     "targets.%s: expected the row's 3 numbers as the paper writes them (%s), "
                     "not %d",
                     curve_names[c], curve_docs[c], t->ncurve[c]);
        ok = false;
    }
    return ok;
}

bool cal_targets_load(struct cal_targets *t, const char *path, struct sim_diag *d)
{
    memset(t, 0, sizeof *t);
    snprintf(t->path, sizeof t->path, "%s", path);
    struct cfg_file *cf = cfg_open_kind(path, "targets file", d);
    if (!cf)
        return false;
    const struct cfg_section sec = {
        "targets", true, target_keys, SIM_COUNT_OF(target_keys), t, "the measured figures to fit"};
    bool ok = cfg_apply(cf, &sec, 1, d) && note_lines(t, cf, d);
    int given = 0;
    for (int f = 0; f < CAL_NFIG; f++)
        given += t->fig[f] > 0;
    for (int c = 0; c < CAL_NCURVE; c++)
        given += t->ncurve[c] > 0;
    if (ok && given == 0) {
        sim_diag_add(d, path, cfg_line(cf, "targets"),
                     "targets: no figure given (expected one or more of R_L_ns, R_R_ns, ..., "
                     "multiline_o_ns, or a row's curve such as table3_inter = [q, o, c])");
        ok = false;
    }
    cfg_close(cf);
    return ok;
}

/* ------------------------------------------------------------ parameters */

/* What calibrate may fit: physical parameters (latencies, occupancies,
 * service times, buffer counts, bandwidths), not the paper's figures kept
 * for comparison (model) nor the machine's structure (machine.*: cores,
 * sockets, line size; its clock is physical). NULL, or why not. */
static const char *not_physical(const char *name)
{
    if (strncmp(name, "model.", 6) == 0)
        return "the model section holds the paper's figures for comparison, never used for "
               "timing";
    if (strncmp(name, "machine.", 8) == 0 && strcmp(name, "machine.clock_ghz") != 0)
        return "it is the machine's structure, not a physical parameter (latencies, occupancies, "
               "service times, buffer counts, bandwidths)";
    return NULL;
}

static bool add_param(struct cal_problem *pb, struct machine_cfg *m, const char *name,
                      const char *from, struct sim_diag *d)
{
    const char *why = not_physical(name);
    if (why) {
        sim_diag_add(d, "ccsim calibrate", 0, "%s %s: not a parameter to fit: %s", from, name, why);
        return false;
    }
    const struct cfg_key *key;
    void *value;
    if (!machine_key(m, name, &key, &value)) {
        sim_diag_add(d, "ccsim calibrate", 0,
                     "%s %s: no number setting of that name in %s (expected SECTION.KEY "
                     "of an int or float key: ccsim config -c CONFIG lists them)",
                     from, name, m->path);
        return false;
    }
    if (!machine_key_used(m, name)) {
        sim_diag_add(d, "ccsim calibrate", 0,
                     "%s %s: %s does not use this setting (ccsim config -c CONFIG lists the ones "
                     "it uses): fitting it would change nothing",
                     from, name, m->machine.name);
        return false;
    }
    for (int i = 0; i < pb->nparams; i++)
        if (strcmp(pb->params[i].path, name) == 0) {
            sim_diag_add(d, "ccsim calibrate", 0, "%s %s: named twice", from, name);
            return false;
        }
    if (pb->nparams == CAL_MAX_PARAMS) {
        sim_diag_add(d, "ccsim calibrate", 0, "%s: at most %d parameters", from, CAL_MAX_PARAMS);
        return false;
    }
    struct cal_param *p = &pb->params[pb->nparams++];
    snprintf(p->path, sizeof p->path, "%s", name);
    p->integer = key->type == CFG_INT;
    p->lo = key->min;
    p->hi = key->max;
    p->unit = key->unit;
    p->start = p->value = p->integer ? (double)*(int64_t *)value : *(double *)value;
    p->tries = 0;
    return true;
}

bool cal_add_params(struct cal_problem *pb, struct machine_cfg *m, char names[][64], int n,
                    const char *from, struct sim_diag *d)
{
    for (int i = 0; i < n; i++)
        if (!add_param(pb, m, names[i], from, d))
            return false;
    return true;
}

/* ------------------------------------------------------------ evaluation */

/* A row of the tables: Table 2 and 4 by buffer states, Table 3 by 0/1. */
static const struct mb_row *table_row(const struct mb_tables *t, int table, int row)
{
    if (table == 2)
        return &t->table2[row];
    if (table == 4)
        return &t->table4[row];
    return row ? &t->table3_inter : &t->table3_intra;
}

/* Figure f from the microbenchmarks (r) or the tables (t, NULL when they
 * were not measured); NAN where the machine has none. */
static double figure_of(const struct mb_result *r, const struct mb_tables *t, enum cal_figure f)
{
    const struct mb_row *row;
    switch (f) {
#define CAL_X_CASE(key, field, doc)                                                                \
    case CAL_##key:                                                                                \
        return r->field;
        CAL_FIGURES(CAL_X_CASE)
#undef CAL_X_CASE
#define CAL_X_TCASE(key, table, rw, coef, doc)                                                     \
    case CAL_##key:                                                                                \
        row = t ? table_row(t, table, rw) : NULL;                                                  \
        return row && row->n ? row->k[coef] : NAN;
        CAL_TABLE_FIGURES(CAL_X_TCASE)
#undef CAL_X_TCASE
    default:
        return NAN;
    }
}

/* Curve c's table and row. */
static const int curve_table[] = {
#define CAL_X_CTABLE(key, table, row, doc) table,
    CAL_CURVES(CAL_X_CTABLE)
#undef CAL_X_CTABLE
};
static const int curve_row[] = {
#define CAL_X_CROW(key, table, row, doc) row,
    CAL_CURVES(CAL_X_CROW)
#undef CAL_X_CROW
};

/* The x of a point of row (x >= 8) where the curve k is 0 or below (no
 * relative error there), or 0. */
static double nonpositive_at(int table, const struct mb_row *row, const double k[3])
{
    for (int i = 0; i < row->n; i++)
        if (row->pts[i].x >= 8 && mb_model(table, k, row->pts[i].x, row->threads[i]) <= 0)
            return row->pts[i].x;
    return 0;
}

/* Whether some target is a figure or a curve of the tables (they take
 * longer). */
static bool needs_tables(const struct cal_targets *t)
{
    for (int f = CAL_FIRST_TABLE_FIGURE; f < CAL_NFIG; f++)
        if (t->fig[f] > 0)
            return true;
    return cal_targets_have_curves(t);
}

bool cal_targets_have_curves(const struct cal_targets *t)
{
    for (int c = 0; c < CAL_NCURVE; c++)
        if (t->ncurve[c])
            return true;
    return false;
}

static void format_value(const struct cal_param *p, double v, char *buf, size_t size)
{
    if (p->integer)
        snprintf(buf, size, "%lld", (long long)llround(v));
    else
        snprintf(buf, size, "%.6g", v);
}

/* What one evaluation measured: the figures, and each curve's deviations
 * (the largest and the mean of the squares). */
struct cal_eval {
    double fig[CAL_NFIG];
    double worst[CAL_NCURVE], mse[CAL_NCURVE];
    double nonpositive_at[CAL_NCURVE]; /* a point's x where the curve is <= 0, or 0 */
    bool has_row[CAL_NCURVE];          /* the machine measured the curve's row */
};

/* Curve c's deviations from the target's model (NAN where the machine has
 * no such row). */
static void curve_of(const struct mb_tables *t, const struct cal_targets *tg, int c,
                     struct cal_eval *e)
{
    const struct mb_row *row = t ? table_row(t, curve_table[c], curve_row[c]) : NULL;
    bool given = row && row->n && tg->ncurve[c] == 3;
    e->mse[c] = given ? mb_curve_mse(curve_table[c], row, tg->curve[c]) : NAN;
    bool has = e->has_row[c] = !isnan(e->mse[c]); /* NAN: no point of 8 or more */
    e->worst[c] = has ? mb_curve_error(curve_table[c], row, tg->curve[c]) : NAN;
    e->nonpositive_at[c] = has ? nonpositive_at(curve_table[c], row, tg->curve[c]) : 0;
}

/* The figures with the parameters at x; false if the config refuses x or a
 * measurement fails (the messages in d). */
static bool measure(const struct cal_problem *pb, const double *x, struct cal_eval *e,
                    struct sim_diag *d)
{
    char buf[CAL_MAX_PARAMS][128];
    const char *sets[CAL_MAX_SETS + CAL_MAX_PARAMS];
    size_t n = 0;
    for (size_t i = 0; i < pb->nsets; i++)
        sets[n++] = pb->sets[i];
    for (int i = 0; i < pb->nparams; i++) {
        char v[64];
        format_value(&pb->params[i], x[i], v, sizeof v);
        snprintf(buf[i], sizeof buf[i], "%s=%s", pb->params[i].path, v);
        sets[n++] = buf[i];
    }
    static struct machine_cfg m;
    static struct mb_tables t;
    struct mb_result r;
    if (!machine_load(&m, pb->config, sets, n, d) || !mb_run(&m, pb->iterations, &r, d))
        return false;
    bool tables = needs_tables(&pb->targets);
    if (tables && !mb_tables(&m, pb->iterations, &t, d))
        return false;
    for (int f = 0; f < CAL_NFIG; f++)
        e->fig[f] = figure_of(&r, tables ? &t : NULL, f);
    for (int c = 0; c < CAL_NCURVE; c++)
        curve_of(tables ? &t : NULL, &pb->targets, c, e);
    return true;
}

static double objective(const struct cal_targets *t, const struct cal_eval *ev)
{
    double sum = 0;
    for (int f = 0; f < CAL_NFIG; f++)
        if (t->fig[f] > 0) {
            double e = (ev->fig[f] - t->fig[f]) / t->fig[f];
            sum += isfinite(e) ? e * e : INFINITY;
        }
    for (int c = 0; c < CAL_NCURVE; c++)
        if (t->ncurve[c])
            sum += isfinite(ev->mse[c]) ? ev->mse[c] : INFINITY;
    return sum;
}

/* One evaluation of the search: the objective at x (INFINITY where the
 * config refuses x), its figures in e. */
static double evaluate(struct cal_problem *pb, struct cal_result *r, const double *x,
                       struct cal_eval *e)
{
    struct sim_diag d;
    sim_diag_init(&d);
    r->evals++;
    double v = INFINITY;
    if (measure(pb, x, e, &d))
        v = objective(&pb->targets, e);
    else
        r->refused++;
    return v;
}

/* ------------------------------------------------------------ the search */

static double clamp_param(const struct cal_param *p, double v)
{
    v = fmin(fmax(v, p->lo), p->hi);
    return p->integer ? (double)llround(v) : v;
}

static double first_step(const struct cal_param *p)
{
    double s = fabs(p->start) / 2;
    if (s == 0)
        s = (p->hi - p->lo) / 100;
    return p->integer ? fmax(1, round(s)) : s;
}

/* A step too small to matter: under one unit for an integer, under a
 * thousandth of the value for a float. */
static bool step_done(const struct cal_param *p, double step, double x)
{
    return p->integer ? step < 1 : step < 1e-3 * fmax(fabs(x), 1e-9);
}

struct search {
    struct cal_problem *pb;
    struct cal_result *r;
    double x[CAL_MAX_PARAMS], step[CAL_MAX_PARAMS];
    double best;
    struct cal_eval at; /* the figures at x */
    bool cut;           /* --max-evals left a step of the current round untried */
};

/* Tries x +- step on parameter i; keeps the first that lowers the objective. */
static bool try_param(struct search *s, int i)
{
    const struct cal_param *p = &s->pb->params[i];
    for (int dir = 1; dir >= -1; dir -= 2) {
        double y[CAL_MAX_PARAMS];
        struct cal_eval e;
        memcpy(y, s->x, sizeof y);
        y[i] = clamp_param(p, s->x[i] + dir * s->step[i]);
        if (y[i] == s->x[i])
            continue;
        if (s->r->evals >= s->pb->max_evals) {
            s->cut = true; /* a step the budget left untried */
            continue;
        }
        s->pb->params[i].tries++;
        double v = evaluate(s->pb, s->r, y, &e);
        if (s->pb->on_eval)
            s->pb->on_eval(s->pb->eval_ctx, s->r->evals, fmin(v, s->best));
        if (v < s->best) {
            s->best = v;
            memcpy(s->x, y, sizeof y);
            s->at = e;
            return true;
        }
    }
    return false;
}

/* Halves every step; false once every step is too small to matter. */
static bool shrink(struct search *s)
{
    bool any = false;
    for (int i = 0; i < s->pb->nparams; i++) {
        const struct cal_param *p = &s->pb->params[i];
        s->step[i] = p->integer ? floor(s->step[i] / 2) : s->step[i] / 2;
        any |= !step_done(p, s->step[i], s->x[i]);
    }
    return any;
}

/* Steps every parameter until no step matters (converged) or the budget
 * of evaluations is spent (r->converged stays false). */
static void compass(struct search *s)
{
    bool going = true;
    while (going && !s->cut && s->r->evals < s->pb->max_evals) {
        bool improved = false;
        for (int i = 0; i < s->pb->nparams; i++)
            if (!step_done(&s->pb->params[i], s->step[i], s->x[i]))
                improved |= try_param(s, i);
        if (!improved && !s->cut) /* every step of the round tried: none helped */
            going = shrink(s);
    }
    s->r->converged = !going;
}

/* Whether every target is measurable at the start (a message in d for the
 * first that is not). */
static bool measurable(const struct cal_problem *pb, const struct cal_eval *e, struct sim_diag *d)
{
    const struct cal_targets *t = &pb->targets;
    for (int f = 0; f < CAL_NFIG; f++)
        if (t->fig[f] > 0 && !isfinite(e->fig[f])) {
            sim_diag_add(d, t->path, t->line[f],
                         "target %s: %s has no such figure (%s); remove it from the targets",
                         fig_names[f], pb->config, fig_docs[f]);
            return false;
        }
    for (int c = 0; c < CAL_NCURVE; c++)
        if (t->ncurve[c] && !e->has_row[c]) {
            sim_diag_add(d, t->path, t->curve_line[c],
                         "target %s: %s has no such row, or none of its points has 8 or more "
                         "readers or lines (%s); remove it from the targets",
                         curve_names[c], pb->config, curve_docs[c]);
            return false;
        }
    for (int c = 0; c < CAL_NCURVE; c++)
        if (t->ncurve[c] && e->nonpositive_at[c] > 0) {
            sim_diag_add(d, t->path, t->curve_line[c],
                         "target %s: the curve [%g, %g, %g] (%s) is 0 or below at x = %g, where "
                         "it is to be compared with a simulated time",
                         curve_names[c], t->curve[c][0], t->curve[c][1], t->curve[c][2],
                         curve_docs[c], e->nonpositive_at[c]);
            return false;
        }
    for (int c = 0; c < CAL_NCURVE; c++)
        if (t->ncurve[c] && !isfinite(e->mse[c])) {
            sim_diag_add(d, t->path, t->curve_line[c],
                         "target %s: the curve [%g, %g, %g] is so close to 0 at a point that "
                         "the relative errors overflow",
                         curve_names[c], t->curve[c][0], t->curve[c][1], t->curve[c][2]);
            return false;
        }
    return true;
}

/* The starting point: every target must be measurable there. */
static bool start(struct search *s, struct sim_diag *d)
{
    struct cal_problem *pb = s->pb;
    for (int i = 0; i < pb->nparams; i++) {
        s->x[i] = pb->params[i].start;
        s->step[i] = first_step(&pb->params[i]);
    }
    s->r->evals++;
    if (!measure(pb, s->x, &s->at, d) || !measurable(pb, &s->at, d))
        return false;
    s->best = s->r->objective_before = objective(&pb->targets, &s->at);
    memcpy(s->r->before, s->at.fig, sizeof s->r->before);
    memcpy(s->r->curve_before, s->at.worst, sizeof s->r->curve_before);
    return true;
}

bool cal_run(struct cal_problem *pb, struct cal_result *r, struct sim_diag *d)
{
    memset(r, 0, sizeof *r);
    struct search s = {.pb = pb, .r = r};
    if (!start(&s, d))
        return false;
    compass(&s);
    for (int i = 0; i < pb->nparams; i++)
        pb->params[i].value = s.x[i];
    memcpy(r->after, s.at.fig, sizeof r->after);
    memcpy(r->curve_after, s.at.worst, sizeof r->curve_after);
    r->objective_after = s.best;
    return true;
}

bool cal_param_moved(const struct cal_param *p)
{
    char a[64], b[64];
    format_value(p, p->start, a, sizeof a);
    format_value(p, p->value, b, sizeof b);
    return strcmp(a, b) != 0;
}

/* ------------------------------------------------------------ the fitted config */

/* A file's lines: text split in place. */
struct lines {
    char *text;
    char **line;
    int n;
};

static bool read_lines(const char *path, struct lines *l)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t cap = 4096, len = 0, got;
    l->text = sim_xmalloc(cap + 1);
    while ((got = fread(l->text + len, 1, cap - len, f)) > 0)
        if ((len += got) == cap)
            l->text = sim_xrealloc(l->text, (cap *= 2) + 1);
    fclose(f);
    l->text[len] = '\0';
    l->line = sim_xmalloc((len + 2) * sizeof *l->line);
    l->n = 0;
    for (char *p = l->text; *p || p == l->text; l->n++) {
        l->line[l->n] = p;
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = '\0';
        p = nl + 1;
    }
    return true;
}

/* The note that marks a fitted value. */
static void note(const struct cal_problem *pb, const struct cal_param *p, char *buf, size_t size)
{
    char was[64];
    format_value(p, p->start, was, sizeof was);
    snprintf(buf, size, "# calibrated: %s (ccsim calibrate, %s; %s was %s)", pb->targets.source,
             pb->targets.path, p->path, was);
}

/* Where the value at v ends on its line: after a list's ']' or a string's
 * closing quote (commas inside them are the value's), else at the first
 * ';' ',' '}' or '#'; NULL if a list or a string does not end on the line. */
static const char *value_end(const char *v)
{
    if (*v == '"') {
        const char *q = strchr(v + 1, '"');
        return q ? q + 1 : NULL;
    }
    if (*v != '[' && *v != '(')
        return v + strcspn(v, ";,}#");
    bool quoted = false;
    for (const char *c = v + 1; *c; c++) {
        if (*c == '"')
            quoted = !quoted;
        else if (!quoted && (*c == ']' || *c == ')'))
            return c + 1;
    }
    return NULL;
}

/* The line with KEY = VALUE replaced by the fitted value, its comment by
 * the note (the old comment kept after "before:"); NULL if the key is not
 * on the line. */
static char *replace_on_line(const char *line, const char *key, const char *value, const char *mark)
{
    size_t klen = strlen(key);
    for (const char *k = strstr(line, key); k; k = strstr(k + 1, key)) {
        bool word = (k == line || !(k[-1] == '_' || isalnum((unsigned char)k[-1]))) &&
                    !(k[klen] == '_' || isalnum((unsigned char)k[klen]));
        const char *eq = k + klen + strspn(k + klen, " \t");
        if (!word || (*eq != '=' && *eq != ':'))
            continue;
        const char *v = eq + 1 + strspn(eq + 1, " \t");
        const char *end = value_end(v);
        if (!end)
            return NULL; /* a list over several lines: not replaced in place */
        const char *hash = strchr(end, '#');
        size_t size = strlen(line) + strlen(value) + strlen(mark) + 32;
        char *out = sim_xmalloc(size);
        snprintf(out, size, "%.*s%s%.*s  %s%s%s", (int)(v - line), line, value,
                 (int)((hash ? hash : end + strlen(end)) - end), end, mark,
                 hash ? "; before: " : "", hash ? hash + 1 + strspn(hash + 1, " ") : "");
        return out;
    }
    return NULL;
}

/* The section's opening line with KEY = VALUE put first in it, the note
 * after the line's own comment; NULL if the line has no '{'. */
static char *insert_in_section(const char *line, const char *key, const char *value,
                               const char *mark)
{
    const char *brace = strchr(line, '{');
    if (!brace)
        return NULL;
    const char *hash = strchr(brace, '#');
    size_t size = strlen(line) + strlen(key) + strlen(value) + strlen(mark) + 32;
    char *out = sim_xmalloc(size);
    snprintf(out, size, "%.*s %s = %s;%.*s  %s%s%s", (int)(brace + 1 - line), line, key, value,
             (int)((hash ? hash : brace + strlen(brace)) - (brace + 1)), brace + 1, mark,
             hash ? "; before: " : "", hash ? hash + 1 + strspn(hash + 1, " ") : "");
    return out;
}

/* Whether path's setting comes from the config file itself (not from a
 * file it includes). */
static bool set_here(const struct cal_problem *pb, struct cfg_file *cf, const char *path)
{
    char src[1024];
    return cfg_line(cf, path) > 0 && cfg_source(cf, path, src, sizeof src) &&
           strcmp(src, pb->config) == 0;
}

/* The line (from 1) where the file's own text opens `SECTION = {` at the
 * start of a line, or 0 (a merged section's line may be an included
 * file's: the file's text says where its own is). */
static int own_section_line(const struct lines *l, const char *section)
{
    size_t n = strlen(section);
    for (int i = 0; i < l->n; i++) {
        const char *p = l->line[i] + strspn(l->line[i], " \t");
        if (strncmp(p, section, n) != 0)
            continue;
        p += n + strspn(p + n, " \t");
        if ((*p == '=' || *p == ':') && p[1 + strspn(p + 1, " \t")] == '{')
            return i + 1;
    }
    return 0;
}

/* Puts one value (path = value, then the note) into the file's lines: on
 * the key's own line if the file sets it, else first in the file's own
 * section; false if the file has neither (then the caller appends the
 * section, which overrides an included file's key by key). */
static bool place_value(const struct cal_problem *pb, struct cfg_file *cf, const struct lines *l,
                        char **edited, const char *path, const char *value, const char *mark)
{
    const char *key = strchr(path, '.') + 1;
    char section[64];
    snprintf(section, sizeof section, "%.*s", (int)(key - 1 - path), path);
    bool own = set_here(pb, cf, path);
    int at = own ? cfg_line(cf, path) : own_section_line(l, section);
    if (at <= 0 || at > l->n)
        return false;
    const char *base = edited[at - 1] ? edited[at - 1] : l->line[at - 1];
    char *line =
        own ? replace_on_line(base, key, value, mark) : insert_in_section(base, key, value, mark);
    if (!line)
        return false;
    free(edited[at - 1]);
    edited[at - 1] = line;
    return true;
}

/* Whether path is one of the fitted parameters (its fitted value wins
 * over a --set of it). */
static bool fitted(const struct cal_problem *pb, const char *path)
{
    for (int i = 0; i < pb->nparams; i++)
        if (strcmp(pb->params[i].path, path) == 0)
            return true;
    return false;
}

/* A --set value as a config file writes it: a bare word, which --set
 * takes as a string (cfg_bare_word), in quotes; anything else as given. */
static void set_value_text(const char *v, char *buf, size_t size)
{
    snprintf(buf, size, cfg_bare_word(v) ? "\"%s\"" : "%s", v);
}

/* One value into the lines, or into a new section at the end (extra). */
static void put(const struct cal_problem *pb, struct cfg_file *cf, const struct lines *l,
                char **edited, const char *path, const char *value, const char *mark,
                char (*extra)[1400], int *nextra)
{
    if (place_value(pb, cf, l, edited, path, value, mark))
        return;
    const char *key = strchr(path, '.') + 1;
    snprintf(extra[(*nextra)++], sizeof extra[0], "%.*s = { %s = %s; };  %s", (int)(key - 1 - path),
             path, key, value, mark);
}

/* The folder of a file, resolved (realpath), into buf; false if it cannot. */
static bool real_folder(const char *file, char *buf)
{
    char dir[PATH_MAX];
    cli_path_folder(file, dir, sizeof dir);
    return realpath(dir, buf) != NULL;
}

/* A relative `@include "NAME"` line, written to another folder than the
 * config's, names its file by its absolute path (it was copied word for word
 * and no longer resolved); NULL if the line is none or needs nothing. */
static char *include_moved(const char *line, const char *from_dir, const char *to_dir)
{
    const char *p = line + strspn(line, " \t");
    if (strncmp(p, "@include", 8) != 0 || strcmp(from_dir, to_dir) == 0)
        return NULL;
    const char *q = p + 8 + strspn(p + 8, " \t"), *e = *q == '"' ? strchr(q + 1, '"') : NULL;
    if (!e || q[1] == '/')
        return NULL;
    size_t size = strlen(line) + strlen(from_dir) + 8;
    char *out = sim_xmalloc(size);
    snprintf(out, size, "%.*s\"%s/%.*s%s", (int)(q - line), line, from_dir, (int)(e - q - 1), q + 1,
             e);
    return out;
}

/* Writes the config with every fitted value in place (a key the file does
 * not set goes into its section, or a new section at the end), and every
 * --set the measurements used, so that the file gives the figures printed. */
static void emit(const struct cal_problem *pb, struct cfg_file *cf, const struct lines *l, FILE *f,
                 const char *out)
{
    char **edited = sim_xcalloc((size_t)l->n + 1, sizeof *edited);
    char from_dir[PATH_MAX], to_dir[PATH_MAX];
    if (real_folder(pb->config, from_dir) && real_folder(out, to_dir))
        for (int i = 0; i < l->n; i++)
            edited[i] = include_moved(l->line[i], from_dir, to_dir);
    char extra[CAL_MAX_PARAMS + CAL_MAX_SETS][1400];
    int nextra = 0;
    for (int i = 0; i < pb->nparams; i++) {
        const struct cal_param *p = &pb->params[i];
        char value[64], mark[1200];
        if (!cal_param_moved(p))
            continue; /* the fit kept the config's value: nothing calibrated to mark */
        format_value(p, p->value, value, sizeof value);
        note(pb, p, mark, sizeof mark);
        put(pb, cf, l, edited, p->path, value, mark, extra, &nextra);
    }
    for (size_t i = 0; i < pb->nsets; i++) {
        char path[64], value[512];
        size_t n = strcspn(pb->sets[i], "=");
        snprintf(path, sizeof path, "%.*s", (int)n, pb->sets[i]);
        set_value_text(pb->sets[i] + n + (pb->sets[i][n] == '='), value, sizeof value);
        if (strchr(path, '.') && !fitted(pb, path))
            put(pb, cf, l, edited, path, value,
                "# --set of ccsim calibrate (its measurements used it)", extra, &nextra);
    }
    int moved = 0;
    for (int i = 0; i < pb->nparams; i++)
        moved += cal_param_moved(&pb->params[i]);
    if (moved)
        fprintf(f, "# Fitted by ccsim calibrate to %s (%s).\n", pb->targets.path,
                pb->targets.source);
    else
        fprintf(f, "# Written by ccsim calibrate against %s (%s): no parameter moved.\n",
                pb->targets.path, pb->targets.source);
    fprintf(f,
            "# Its figures were measured with -i %d: ccsim microbench -c THIS -i %d gives them.\n",
            pb->iterations, pb->iterations);
    for (int i = 0; i < l->n; i++)
        fprintf(f, "%s\n", edited[i] ? edited[i] : l->line[i]);
    for (int i = 0; i < nextra; i++)
        fprintf(f, "%s\n", extra[i]);
    for (int i = 0; i < l->n; i++)
        free(edited[i]);
    free(edited);
}

bool cal_write_config(const struct cal_problem *pb, const char *out, struct sim_diag *d)
{
    struct lines l = {0};
    struct cfg_file *cf = cfg_open(pb->config, d);
    if (!cf)
        return false;
    bool ok = read_lines(pb->config, &l);
    FILE *f = ok ? fopen(out, "w") : NULL;
    if (!f)
        sim_diag_add(d, out, 0, "cannot write the fitted config: %s", strerror(errno));
    else {
        errno = 0;
        emit(pb, cf, &l, f, out);
        bool written = !ferror(f);
        ok = fclose(f) == 0 && written;
        if (!ok) /* a full disk: say so, the file is cut short */
            sim_diag_add(d, out, 0, "cannot write the fitted config: %s",
                         strerror(errno ? errno : EIO));
        struct cfg_file *back = ok ? cfg_open(out, d) : NULL; /* the file it says it wrote loads */
        if (ok && !back)
            sim_diag_add(d, out, 0, "the fitted config was written but does not load (above)");
        ok = ok && back;
        if (back)
            cfg_close(back);
    }
    cfg_close(cf);
    free(l.text);
    free(l.line);
    return ok && f;
}
