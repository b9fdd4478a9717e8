/*
 * testutil.h -- helpers shared by the Check suites: temporary files, running
 * the ccsim binary and capturing its output, running a suite.
 */
#ifndef CCSIM_TESTUTIL_H
#define CCSIM_TESTUTIL_H

#include <check.h>
#include <stddef.h>

/* Writes text to a fresh file named `name` in a per-process temp folder;
 * returns its path (static storage, valid until the next call). */
const char *tu_write(const char *name, const char *text);
/* The per-process temp folder. */
const char *tu_dir(void);

struct tu_run {
    int status; /* exit status, or 128 + signal */
    char out[65536];
    char err[65536];
};
/* Runs `CCSIM_BIN args` through the shell with stdin from /dev/null. */
void tu_ccsim(struct tu_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Runs a suite with Check's default runner; returns the process exit status. */
int tu_run_suite(Suite *s);

#endif
