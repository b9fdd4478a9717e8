/*
 * testutil.h -- helpers shared by the Check suites: temporary files, running
 * the ccsim binary and capturing its output, running a suite.
 */
#ifndef CCSIM_TESTUTIL_H
#define CCSIM_TESTUTIL_H

#include "machine.h"

#include <check.h>
#include <stddef.h>

/* An assertion for loops over many items: Check's ck_assert records its
 * place on every call (a write to the parent process), which costs seconds
 * in a loop over 10^5 events; this one calls Check only when it fails. */
#define TU_CHECK(cond, ...)                                                                        \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ck_abort_msg(__VA_ARGS__);                                                             \
    } while (0)

/* Writes text to a fresh file named `name` in a per-process temp folder;
 * returns its path (static storage, valid until the next call). */
const char *tu_write(const char *name, const char *text);
/* The per-process temp folder. */
const char *tu_dir(void);
/* How often needle occurs in text (not overlapping). */
int tu_count(const char *text, const char *needle);

struct tu_run {
    int status; /* exit status, or 128 + signal */
    char out[65536];
    char err[65536];
};
/* Runs `CCSIM_BIN args` through the shell with stdin from /dev/null. */
void tu_ccsim(struct tu_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* `ccsim config ARGS` must be refused (exit 2) with want, and want2 if not
 * NULL, in its stderr; r keeps the run for further assertions. */
void tu_config_refused(struct tu_run *r, const char *args, const char *want, const char *want2);

/* The simulated-time limit tu_run_program runs under (core_run_opts
 * max_time_ps; 0, the default: core's). */
extern sim_time_t tu_max_time_ps;
/* Loads CCSIM_CONFIGS/NAME.cfg with --set overrides (fails the test on error). */
void tu_load_config(const char *name, const char *const *sets, size_t nsets, struct machine_cfg *m);
/* Builds the machine m describes (seed 1), turns the checker on (fatal:
 * a violation exits, failing the test), runs p and frees the machine. The
 * watchdog is 100 ms of simulated time. */
void tu_run_program(const struct machine_cfg *m, const struct wl_program *p, bool check_fatal,
                    struct core_result *res, struct sim_diag *d);
/* Generates spec (a generator with its options) for n threads and `iters`
 * iterations, runs it as tu_run_program does (the checker on and fatal when
 * `check`) and returns the median latency (ns); the run must end right: no
 * deadlock, input error, value error or violation, every iteration done. */
double tu_median(const struct machine_cfg *m, const char *spec, int n, long iters, bool check);
/* Parses trace text (named `name`) for m and runs it as tu_run_program does
 * with a fatal checker. */
void tu_run_text(const struct machine_cfg *m, const char *name, const char *text,
                 struct core_result *res, struct sim_diag *d);

/* Parses trace text (failing the test with `what` on an error), prints it,
 * parses the print and asserts the two programs are equal; returns the
 * first parse (the caller frees it). */
struct wl_program *tu_round_trip(const char *text, const struct wl_parse_opts *po,
                                 const char *what);

/* TU_ASAN: built with AddressSanitizer (gcc says so with __SANITIZE_ADDRESS__,
 * clang with __has_feature(address_sanitizer)); a test's child that ends by
 * exit() with its machine allocated turns LeakSanitizer off under it. */
#if defined(__SANITIZE_ADDRESS__)
#define TU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TU_ASAN 1
#endif
#endif

/* True in the sanitizer pass of scripts/test.sh (CCSIM_TEST_SCALE=small):
 * the scale runs (240 threads) take a smaller form there; the normal pass
 * runs them whole. */
bool tu_small_scale(void);

/* The whole file as a NUL-terminated string in a buffer of the helper's
 * (valid until the next call); fails the test if it cannot be read. */
const char *tu_slurp(const char *path);
/* The number after the first `"key": ` in JSON text; false if there is none. */
bool tu_json_number(const char *json, const char *key, double *out);

/* The program as wl_program_print writes it (malloc'ed). */
char *tu_print_program(const struct wl_program *p);
/* parse -> print -> parse -> print: equal programs, identical texts (the
 * reparse with p's line size). */
void tu_check_roundtrip(const struct wl_program *p);
/* Fails unless the diagnostics hold a line that starts with `prefix`
 * ("FILE:LINE: " or "FILE:LINE:COL: ") and contains `what` on that line. */
void tu_expect_diag(const struct sim_diag *d, const char *prefix, const char *what);

/* Runs a suite with Check's default runner; returns the process exit status. */
int tu_run_suite(Suite *s);
/* The same, each test in a child process whatever CK_FORK says: for suites
 * with tests that must end the process (tcase_add_exit_test). */
int tu_run_suite_forked(Suite *s);

#endif
