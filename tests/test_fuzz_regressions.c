/*
 * test_fuzz_regressions.c -- replays the fuzzers' inputs in every build:
 * every file of tests/fuzz/regressions/trace/ and tests/fuzz/corpus/trace/
 * goes through the trace parser (and, when it parses, print + re-parse +
 * wl_program_equal, then the cursor of its first and last threads), every
 * file of tests/fuzz/regressions/config/ and
 * tests/fuzz/corpus/config/ through the config loader, and every file of
 * tests/fuzz/regressions/sweep/ and tests/fuzz/corpus/sweep/ through the
 * sweep loader, as the fuzz targets (tests/fuzz/fuzz_*.c) do. A crash input that scripts/fuzz.sh
 * finds goes into regressions/; one whose fix is not in yet waits in
 * tests/fuzz/regressions/pending/, which this test does not read.
 */
#include "machine.h"
#include "sweep.h"
#include "testutil.h"
#include "core.h"
#include "gen.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_DIR CCSIM_TEST_DIR "/fuzz"

/* The whole file, malloc'ed to its length; *len its length. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap)
            buf = realloc(buf, cap = cap * 2 + 4096);
        ck_assert(buf != NULL);
        size_t got = fread(buf + n, 1, cap - n, f);
        if (got == 0)
            break;
        n += got;
    }
    fclose(f);
    *len = n;
    /* exactly n bytes, as the fuzzer hands its input over: a read past the
     * text's end is one past the allocation, which ASan reports */
    char *exact = realloc(buf, n ? n : 1);
    ck_assert(exact != NULL);
    return exact;
}

/* Thread t's first 64 operations, as fuzz_trace runs them (registers: a
 * small value). */
static void run_thread(const char *path, const struct wl_program *p, int t)
{
    struct wl_cursor c;
    struct wl_op op;
    struct sim_diag d;
    sim_diag_init(&d);
    wl_cursor_init(&c, p, t);
    enum wl_next_result r = WL_NEXT_OP;
    for (int k = 0; k < 64 && (r = wl_next(&c, &op, &d)) == WL_NEXT_OP; k++)
        if (op.reg >= 0)
            wl_set_reg(&c, op.reg, k % 7);
    ck_assert_msg(r != WL_NEXT_ERROR || d.count > 0, "%s: a run-time error without a message",
                  path);
}

static void replay_trace(const char *path)
{
    size_t len;
    char *text = slurp(path, &len);
    struct sim_diag d;
    sim_diag_init(&d);
    struct wl_program *p = wl_parse_text(path, text, len, NULL, &d);
    free(text);
    if (!p) {
        ck_assert_msg(d.count > 0, "%s: the parse failed without a message", path);
        return;
    }
    char *out = NULL;
    size_t outlen = 0;
    FILE *f = open_memstream(&out, &outlen);
    ck_assert(f != NULL);
    wl_program_print(f, p);
    fclose(f);
    sim_diag_init(&d);
    struct wl_program *q = wl_parse_text("printed", out, outlen, NULL, &d);
    ck_assert_msg(q != NULL, "%s: the printed program does not parse: %s", path, d.text);
    ck_assert_msg(wl_program_equal(p, q), "%s: the printed program differs", path);
    wl_program_free(q);
    run_thread(path, p, 0);
    run_thread(path, p, wl_program_threads(p) - 1);
    wl_program_free(p);
    free(out);
}

static void replay_config(const char *path)
{
    struct machine_cfg m;
    struct sim_diag d;
    sim_diag_init(&d);
    if (machine_load(&m, path, NULL, 0, &d))
        return;
    ck_assert_msg(d.count > 0 && strstr(d.text, path) != NULL,
                  "%s: a failed load without a FILE message: %s", path, d.text);
}

static void replay_sweep(const char *path)
{
    static struct sweep sw;
    struct sim_diag d;
    sim_diag_init(&d);
    if (sweep_load(&sw, path, &d)) {
        sweep_free(&sw);
        return;
    }
    ck_assert_msg(d.count > 0 && strncmp(d.text, "ccsim:", 6) != 0 && strchr(d.text, ':'),
                  "%s: a failed load without a FILE message: %s", path, d.text);
}

/* Replays every regular file of dir; returns how many. */
static int replay_dir(const char *dir, void (*replay)(const char *path))
{
    DIR *dp = opendir(dir);
    if (!dp)
        return 0; /* an empty folder is not kept by git */
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dp))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        replay(path);
        n++;
    }
    closedir(dp);
    return n;
}

START_TEST(test_trace_inputs)
{
    int n = replay_dir(FUZZ_DIR "/regressions/trace", replay_trace);
    n += replay_dir(FUZZ_DIR "/corpus/trace", replay_trace);
    ck_assert_int_gt(n, 0);
}
END_TEST

START_TEST(test_config_inputs)
{
    int n = replay_dir(FUZZ_DIR "/regressions/config", replay_config);
    n += replay_dir(FUZZ_DIR "/corpus/config", replay_config);
    ck_assert_int_gt(n, 0);
}
END_TEST

START_TEST(test_sweep_inputs)
{
    int n = replay_dir(FUZZ_DIR "/regressions/sweep", replay_sweep);
    n += replay_dir(FUZZ_DIR "/corpus/sweep", replay_sweep);
    ck_assert_int_gt(n, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fuzz_regressions");
    TCase *tc = tcase_create("replay");
    tcase_add_test(tc, test_trace_inputs);
    tcase_add_test(tc, test_config_inputs);
    tcase_add_test(tc, test_sweep_inputs);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
