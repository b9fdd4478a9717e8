/*
 * test_progress.c -- the progress line of `ccsim run` (cli/progress.h):
 * shown on a terminal once a run is longer than a second, never when
 * stderr is a file. The tests shorten that second to nothing
 * (CCSIM_PROGRESS_DELAY_S=0), so that short runs can show the line.
 */
#include "progress.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* About 0.4 s of simulation (3 M events at 7-14 M events/s): the line is
 * drawn at the first iteration and redrawn every 0.1 s, ETA included. */
#define LONG_RUN "run -c knc-5110p -w barrier-dissemination -t 60 -i 400"

static struct tu_run r;

START_TEST(test_silent_when_not_a_terminal)
{
    tu_ccsim(&r, LONG_RUN);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.err, "ccsim run:") == NULL, "progress in a file: %s", r.err);
    ck_assert(strchr(r.err, '\r') == NULL);
    ck_assert(strstr(r.out, "latency over 400 iterations") != NULL);
}
END_TEST

/* The terminal path through util-linux `script`, which gives the run a
 * pseudo-terminal; skipped where `script` is missing or has no pty. */
START_TEST(test_shown_on_a_terminal)
{
    if (system("command -v script >/dev/null 2>&1") != 0 ||
        system("script -qec true /dev/null </dev/null >/dev/null 2>&1") != 0)
        return; /* no `script`, or no pseudo-terminal here */
    char cmd[2048], out[1024];
    snprintf(out, sizeof out, "%s/tty.out", tu_dir());
    snprintf(cmd, sizeof cmd, "script -qec '%s " LONG_RUN "' /dev/null </dev/null >%s 2>&1",
             CCSIM_BIN, out);
    ck_assert_msg(system(cmd) == 0, "%s failed (script passes its exit status on)", cmd);
    FILE *f = fopen(out, "r");
    ck_assert(f != NULL);
    static char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    ck_assert_msg(strstr(text, "/400 iterations, ") != NULL, "%s", text);
    ck_assert(strstr(text, "M events/s, ETA ") != NULL);
    ck_assert(strstr(text, "latency over 400 iterations") != NULL);
}
END_TEST

START_TEST(test_off_without_terminal)
{
    struct progress p;
    progress_init(&p, "t", "units", 10);
    p.on = false;
    progress_update(&p, 5, 1000, 1000);
    progress_end(&p);
    ck_assert_int_eq(p.width, 0);
}
END_TEST

START_TEST(test_delay_from_the_environment)
{
    struct progress p;
    const char *cases[][2] = {{"0", "0"}, {"2.5", "2.5"}, {"x", "1"}, {"-1", "1"}, {"", "1"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        setenv("CCSIM_PROGRESS_DELAY_S", cases[i][0], 1);
        progress_init(&p, "t", "units", 10);
        ck_assert_msg(p.delay == atof(cases[i][1]), "'%s': %f", cases[i][0], p.delay);
    }
    unsetenv("CCSIM_PROGRESS_DELAY_S");
    progress_init(&p, "t", "units", 10);
    ck_assert(p.delay == PROGRESS_DELAY_S);
    setenv("CCSIM_PROGRESS_DELAY_S", "0", 1);
}
END_TEST

int main(void)
{
    setenv("CCSIM_PROGRESS_DELAY_S", "0", 1);
    Suite *s = suite_create("progress");
    TCase *tc = tcase_create("progress");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_silent_when_not_a_terminal);
    tcase_add_test(tc, test_shown_on_a_terminal);
    tcase_add_test(tc, test_off_without_terminal);
    tcase_add_test(tc, test_delay_from_the_environment);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
