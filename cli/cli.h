/*
 * cli.h -- the `ccsim` command line: one function per subcommand, and the
 * helpers they share (option errors, number parsing). Part of the top layer.
 *
 * Every subcommand returns an exit status of enum sim_exit. Usage errors
 * print "ccsim SUB: what is wrong" and a pointer to --help, and give 2.
 */
#ifndef CCSIM_CLI_H
#define CCSIM_CLI_H

#include "machine.h"
#include "core.h"
#include "gen.h"
#include "sim.h"

#include <stdio.h>

struct cli_cmd {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the subcommand's name */
    const char *summary;
    const char *usage; /* full help text */
};

/* The subcommands, NULL-terminated. */
extern const struct cli_cmd cli_cmds[];

int cli_main(int argc, char **argv);

/* Prints "ccsim SUB: message" and the --help hint; returns SIM_EXIT_INPUT. */
int cli_usage_error(const char *sub, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Parses a time in ns (a number >= 0, decimals allowed) into ps. */
bool cli_parse_ns(const char *sub, const char *opt, const char *text, sim_time_t *ps);
/* --max-time NS: a time in ns of at least a picosecond (a run needs some);
 * false with the error printed. */
bool cli_parse_max_time(const char *sub, const char *text, sim_time_t *ps);
/* Parses an unsigned integer in [lo, hi] (accepts k/M/G suffixes: 64k). */
bool cli_parse_u64(const char *sub, const char *opt, const char *text, uint64_t lo, uint64_t hi,
                   uint64_t *out);
/* True if argv holds -h or --help. */
bool cli_wants_help(int argc, char **argv);
/* Writes s to f as a quoted JSON string (quotes, backslashes and control
 * bytes escaped). */
void cli_json_string(FILE *f, const char *s);
/* Writes `"config": PATH, "sets": ["G.K=V", ...]`: the machine a result
 * is of, with the --set overrides it was loaded with. */
void cli_json_config(FILE *f, const char *path, const char *const *sets, size_t nsets);
/* Checks before a run that an output file (--json, --plot, -o) can be
 * written: its folder exists and is writable, and the file is not a
 * folder nor read-only. "-" passes where the option takes it (stdout).
 * Prints "ccsim SUB: OPT PATH: cannot write there: why" and returns false. */
/* True if an executable PROG is in a folder of $PATH (prints nothing). */
bool cli_on_path(const char *prog);
/* The folder of a file path ("." for a bare name, "/" for "/x"). */
void cli_path_folder(const char *path, char *buf, size_t size);
bool cli_check_output(const char *sub, const char *opt, const char *path);
/* The file writing path makes or writes (path, or where a chain of links
 * to a file not yet made ends) into buf; false with why if the chain
 * loops or cannot be followed. */
bool cli_written_file(const char *path, char *buf, size_t size, const char **why);
/* --json -: the JSON goes to stdout, so the rest of what the subcommand
 * prints to stdout goes to stderr from now on. Call before printing; false
 * with a message if there is no stdout to move. */
bool cli_json_stdout(const char *sub);
/* Opens the JSON output: "-" is stdout (after cli_json_stdout), else the
 * file; NULL with a message. cli_json_close closes it (false with a
 * message on a write error). */
FILE *cli_json_open(const char *path);
bool cli_json_close(FILE *f, const char *path);

int cli_bench(int argc, char **argv);
/* `ccsim bench workloads` (argv[0] is "workloads"): the reference runs. */
int cli_bench_workloads(int argc, char **argv);
int cli_list(int argc, char **argv);
int cli_config(int argc, char **argv);
int cli_stress(int argc, char **argv);
int cli_run(int argc, char **argv);
int cli_gen(int argc, char **argv);
int cli_explain(int argc, char **argv);

/* The options run and explain share (explain adds --max-lines and --line,
 * run adds --json and --links). */
struct cli_run_args {
    const char *config, *trace, *json;
    const char *gen; /* -w GENERATOR[:k=v,...] */
    uint64_t threads, iterations;
    const char *sets[64];
    size_t nsets;
    uint64_t seed;
    bool check;
    bool links;            /* print every link's traffic */
    uint64_t max_lines;    /* explain: steps narrated at most */
    const char *only_line; /* explain: narrate this line (NAME or NAME[i]) only */
    /* explain: --from/--to (ps; to = SIM_TIME_MAX when open), --thread T and
     * --iteration K (want_iteration: given; a loop's value, negative too),
     * --wide (glosses inline, no wrapping) */
    sim_time_t explain_from, explain_to;
    int64_t explain_thread, explain_iteration;
    bool explain_want_iteration;
    bool wide;
    bool per_iteration;  /* run: --per-iteration, every iteration's latency in the JSON */
    bool rows;           /* run: --rows, the tables' cells that ran and how often */
    uint64_t max_errors; /* run: value errors printed in full (--max-errors; 0: all) */
    /* run: --trace-out FILE, --trace-window FROM:TO (ps here; to = UINT64_MAX
     * when open), --trace-max-bytes N (cli/trace_out.h) */
    const char *trace_out;
    sim_time_t trace_from, trace_to;
    uint64_t trace_max_bytes;
    bool trace_max_bytes_given, trace_window_given;
    const char *plot;    /* run: --plot FILE.png, the latency histogram (cli/plot.h) */
    sim_time_t max_time; /* --max-time (ps): the run stops there unfinished (0: core's default) */
};
int cli_parse_run_args(const char *sub, int argc, char **argv, struct cli_run_args *a);
const char *cli_workload_name(const struct cli_run_args *a);

/* A machine and a program ready to run. open returns 0 or an exit status
 * (having printed the errors); close prints what is left in d and frees. */
struct cli_session {
    struct machine_cfg m;
    struct wl_program *p;
    struct machine *mc;
    struct core_machine w;
    struct sim_diag d;
};
int cli_session_open(const struct cli_run_args *a, struct cli_session *ss);
void cli_session_close(struct cli_session *ss);
int cli_microbench(int argc, char **argv);
int cli_validate(int argc, char **argv);
int cli_calibrate(int argc, char **argv);
int cli_protocol(int argc, char **argv);
int cli_verify(int argc, char **argv);
int cli_litmus(int argc, char **argv);
/* protocol --murphi and verify: --caches (C), --lines (L), --values (V);
 * false if c is none of them or its value is bad (the error printed). */
bool cli_murphi_opt(const char *sub, int c, const char *arg, struct cc_murphi_opts *o);
/* The table protocol (not the SCC) named `name`, or NULL with the error printed. */
const struct cc_protocol *cli_table_protocol(const char *sub, const char *name);
int cli_sweep(int argc, char **argv);
int cli_tune(int argc, char **argv);
/* Resolves -c (a path or a shipped name) and loads it with the --set
 * overrides; prints errors. */
/* " (did you mean 'knc-5110p'?)" for a name near a shipped config's, else
 * " (LEAD a, b, ...)", or "" when lead is NULL (sim_suggest). */
void cli_config_hint(const char *name, const char *lead, char *hint, size_t size);
bool cli_load_machine(const char *config, const char *const *sets, size_t nsets,
                      struct machine_cfg *m);
/* A --set of a key the machine does not use changes nothing: says so on
 * stderr (once a process), so that it is not taken for a setting that had
 * no effect. cli_load_machine calls it. */
void cli_note_unused_sets(struct machine_cfg *m, const char *const *sets, size_t nsets);
/* getopt_long without getopt's own messages: ours name the subcommand. */
struct option;
int cli_next_opt(const char *sub, int argc, char **argv, const char *shorts,
                 const struct option *longs, int *bad);

#endif
