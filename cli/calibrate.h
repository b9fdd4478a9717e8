/*
 * calibrate.h -- `ccsim calibrate` (part of the application, prefix cal_):
 * fits named physical parameters of a machine config by simulation, so
 * that its microbenchmark figures (cli/microbench.h) come close to the
 * figures of a targets file (measurements of a real machine: seed 000
 * Tables 1-4 ship as configs/targets/).
 *
 * The search is deterministic, bounded and derivative-free: a compass
 * (pattern) search over the parameters, each kept within the bounds its
 * config schema declares, on the sum of the squared relative errors of the
 * target figures (a target curve counts as one figure: the mean of its
 * points' squared relative errors). Every evaluation loads the config with the candidate
 * values as --set overrides, so every check of the config applies (a
 * candidate the config refuses is never taken), and runs the
 * microbenchmarks. Nothing else is fitted: the figures come from the
 * simulated mechanisms alone.
 */
#ifndef CCSIM_CALIBRATE_H
#define CCSIM_CALIBRATE_H

#include "machine.h"
#include "microbench.h"

#define CAL_MAX_PARAMS 16
#define CAL_MAX_SETS   64

/* The figures a targets file may give: X(key, field of struct mb_result,
 * what it is). The keys are those of a config's `model` section. */
#define CAL_FIGURES(X)                                                                             \
    X(R_L_ns, r_l, "a line in the own cache")                                                      \
    X(R_R_ns, r_r, "a line modified in another core of the socket")                                \
    X(R_Q_ns, r_q, "a line modified in a core of the other socket")                                \
    X(R_I_ns, r_i, "a line in the own socket's memory")                                            \
    X(R_QI_ns, r_qi, "a line in the other socket's memory")                                        \
    X(contention_b_ns, contention_b, "contention b + c n: b")                                      \
    X(contention_c_ns, contention_c, "contention b + c n: c per reader")                           \
    X(congestion_c_ns, congestion_c, "congestion across sockets: c per line and thread")           \
    X(multiline_q_ns, multiline_q, "multi-line q + o N: q")                                        \
    X(multiline_o_ns, multiline_o, "multi-line q + o N: o per line")

/* The slopes of seed 000 Tables 2-4 measured the paper's way (struct
 * mb_tables): X(key, table, row, coefficient, what it is); row is the
 * buffer states (enum mb_states) or, in Table 3, 0 intra and 1 inter. */
#define CAL_TABLE_FIGURES(X)                                                                       \
    X(table2_EE_c_ns, 2, MB_EE, 1, "Table 2 E/E: c per reader")                                    \
    X(table2_EI_c_ns, 2, MB_EI, 1, "Table 2 E/I: c per reader")                                    \
    X(table2_IE_c_ns, 2, MB_IE, 1, "Table 2 I/E: c per reader")                                    \
    X(table2_II_c_ns, 2, MB_II, 1, "Table 2 I/I: c per reader")                                    \
    X(table2_IE_b_ns, 2, MB_IE, 0, "Table 2 I/E: b, the intercept of Eq 3")                        \
    X(table2_II_b_ns, 2, MB_II, 0, "Table 2 I/I: b, the intercept of Eq 3")                        \
    X(table2_IE_a_ns, 2, MB_IE, 2, "Table 2 I/E: a (ns thread), the a/n term of Eq 3")             \
    X(table2_II_a_ns, 2, MB_II, 2, "Table 2 I/I: a (ns thread), the a/n term of Eq 3")             \
    X(table3_intra_o_ns, 3, 0, 1, "Table 3 intra socket: o per line")                              \
    X(table3_inter_o_ns, 3, 1, 1, "Table 3 inter socket: o per line")                              \
    X(table3_inter_c_ns, 3, 1, 2, "Table 3 inter socket: c per line and thread (QPI)")             \
    X(table4_EE_o_ns, 4, MB_EE, 1, "Table 4 E/E: o per line")                                      \
    X(table4_EI_o_ns, 4, MB_EI, 1, "Table 4 E/I: o per line")                                      \
    X(table4_IE_o_ns, 4, MB_IE, 1, "Table 4 I/E: o per line")                                      \
    X(table4_II_o_ns, 4, MB_II, 1, "Table 4 I/I: o per line")

/* The curves of seed 000 Tables 2-4 a targets file may give, each as its
 * row's model as the paper writes it, [k0, k1, k2] (the keys and the order
 * of a config's `model` section: Table 2 [b, c, a], Table 3 [q, o, c],
 * Table 4 [q, o, p]): X(key, table, row, what). The simulated points where
 * the slope dominates (x >= 8: readers or lines) are then fitted to that
 * curve, each an error relative to it; the row's intercepts, which the
 * curve includes, are fitted only as far as the points need them. */
#define CAL_CURVES(X)                                                                              \
    X(table2_EE, 2, MB_EE, "Table 2 E/E: b + c n")                                                 \
    X(table2_EI, 2, MB_EI, "Table 2 E/I: b + c n")                                                 \
    X(table2_IE, 2, MB_IE, "Table 2 I/E: b + c n - a/n")                                           \
    X(table2_II, 2, MB_II, "Table 2 I/I: b + c n - a/n")                                           \
    X(table3_intra, 3, 0, "Table 3 intra socket: q + o N")                                         \
    X(table3_inter, 3, 1, "Table 3 inter socket: q + o N + c n N")                                 \
    X(table4_EE, 4, MB_EE, "Table 4 E/E: q + o N - p/N")                                           \
    X(table4_EI, 4, MB_EI, "Table 4 E/I: q + o N - p/N")                                           \
    X(table4_IE, 4, MB_IE, "Table 4 I/E: q + o N - p/N")                                           \
    X(table4_II, 4, MB_II, "Table 4 I/I: q + o N - p/N")

enum cal_curve {
#define CAL_X_CENUM(key, table, row, doc) CAL_CURVE_##key,
    CAL_CURVES(CAL_X_CENUM)
#undef CAL_X_CENUM
        CAL_NCURVE
};

enum cal_figure {
#define CAL_X_ENUM(key, field, doc) CAL_##key,
    CAL_FIGURES(CAL_X_ENUM)
#undef CAL_X_ENUM
#define CAL_X_TENUM(key, table, row, coef, doc) CAL_##key,
        CAL_TABLE_FIGURES(CAL_X_TENUM)
#undef CAL_X_TENUM
            CAL_NFIG
};
#define CAL_FIRST_TABLE_FIGURE CAL_table2_EE_c_ns

/* A targets file: `targets = { source = "..."; R_R_ns = 235.8; ...;
 * table3_inter = [180.65, 7.5, 3.0]; params = ["home.occupancy_cycles", ...];
 * };` (every figure optional, > 0; every curve optional, 3 numbers). */
struct cal_targets {
    char path[512];
    char source[256];                /* what the figures are, named in the fitted config */
    double fig[CAL_NFIG];            /* 0: not a target */
    double curve[CAL_NCURVE][3];     /* a row's model, when ncurve[c] == 3 */
    int ncurve[CAL_NCURVE];          /* 0: not a target */
    char params[CAL_MAX_PARAMS][64]; /* the parameters to fit by default */
    int nparams;
    int line[CAL_NFIG];         /* each figure's line in the file, for messages */
    int curve_line[CAL_NCURVE]; /* each curve's */
};

/* Loads and checks a targets file; false with FILE:LINE messages in d. */
bool cal_targets_load(struct cal_targets *t, const char *path, struct sim_diag *d);
const char *cal_figure_name(enum cal_figure f);
const char *cal_figure_doc(enum cal_figure f);
const char *cal_curve_name(enum cal_curve c);
/* Whether the targets give a curve. */
bool cal_targets_have_curves(const struct cal_targets *t);

/* A parameter being fitted: its config key and the schema's bounds. */
struct cal_param {
    char path[64]; /* "section.key" */
    bool integer;
    double lo, hi;
    const char *unit;
    double start, value; /* in the config; the fitted one */
    int tries;           /* evaluations with it moved from where the search stood */
};

struct cal_problem {
    char config[1024];              /* the config file */
    const char *sets[CAL_MAX_SETS]; /* the user's --set overrides, kept */
    size_t nsets;
    struct cal_targets targets;
    struct cal_param params[CAL_MAX_PARAMS];
    int nparams;
    int iterations; /* of each microbenchmark */
    int max_evals;
    /* optional: told after every evaluation (for a progress line) */
    void (*on_eval)(void *ctx, int evals, double best);
    void *eval_ctx;
};

/* Sets up the parameters by name from m's schema (numbers only, with their
 * bounds); false with a message for a name that is no number setting, one
 * the machine does not use, or one given twice. FROM says where the names
 * came from ("--params", or the targets file's params), for the messages. */
bool cal_add_params(struct cal_problem *pb, struct machine_cfg *m, char names[][64], int n,
                    const char *from, struct sim_diag *d);

struct cal_result {
    double before[CAL_NFIG], after[CAL_NFIG]; /* the simulated figures */
    /* each target curve's largest deviation (a fraction, signed) */
    double curve_before[CAL_NCURVE], curve_after[CAL_NCURVE];
    /* the sum of the figures' squared relative errors and, for each curve,
     * the mean of its points' */
    double objective_before, objective_after;
    int evals;
    int refused;    /* candidates the config refused (out of a check) */
    bool converged; /* no step mattered any more; false: --max-evals ended the search */
};

/* Runs the search from the config's values; false with a message if the
 * starting point cannot be measured or lacks a target figure. */
bool cal_run(struct cal_problem *pb, struct cal_result *r, struct sim_diag *d);

/* True if the fit moved p from the config's value (as the config writes it). */
bool cal_param_moved(const struct cal_param *p);

/* Writes the config with the fitted values, each marked `calibrated:
 * SOURCE (ccsim calibrate)`; false with a message if it cannot. */
bool cal_write_config(const struct cal_problem *pb, const char *out, struct sim_diag *d);

#endif
