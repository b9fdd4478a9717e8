/*
 * fuzz_trace.c -- libFuzzer target for the trace parser (wl_parse_text) and
 * the cursor (wl_next), versions 1 and 2.
 *
 * Any bytes go in. A parse must either fail with messages or give a program
 * whose canonical print parses again to an equal program (wl_program_equal);
 * anything else aborts, which libFuzzer reports as a crash. A program then
 * runs on the cursor for its first and last threads, FUZZ_MAX_OPS operations
 * each, every register result taken from the input's bytes (so conditions,
 * shifts and divisions see arbitrary values): sanitizers catch undefined
 * behaviour in the evaluation, and an error must come with a message.
 */
#include "trace.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The canonical text of p, malloc'ed; *len its length. */
static char *print_program(const struct wl_program *p, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        abort();
    wl_program_print(f, p);
    if (fclose(f) != 0)
        abort();
    return buf;
}

static void check_round_trip(const struct wl_program *p)
{
    size_t len = 0;
    char *text = print_program(p, &len);
    struct sim_diag d;
    sim_diag_init(&d);
    struct wl_program *q = wl_parse_text("printed", text, len, NULL, &d);
    if (!q || !wl_program_equal(p, q)) {
        fprintf(stderr, "fuzz_trace: the printed program %s:\n%s\n%s\n",
                q ? "differs from the parsed one" : "does not parse", text, d.text);
        abort();
    }
    wl_program_free(q);
    free(text);
}

#define FUZZ_MAX_OPS 64

/* A register value from the input's byte k: mostly small numbers (loops
 * end), sometimes an extreme (overflow, shift counts). */
static int64_t reg_value(const uint8_t *data, size_t size, size_t k)
{
    static const int64_t extremes[] = {INT64_MIN, INT64_MAX, -1, 63, 64};
    unsigned b = size ? data[k % size] : 0;
    return b < 240 ? (int64_t)b - 8 : extremes[(b - 240) % 5];
}

/* Runs thread t for at most FUZZ_MAX_OPS operations. */
static void run_thread(const struct wl_program *p, int t, const uint8_t *data, size_t size)
{
    struct wl_cursor c;
    struct wl_op op;
    struct sim_diag d;
    sim_diag_init(&d);
    wl_cursor_init(&c, p, t);
    enum wl_next_result r = WL_NEXT_OP;
    for (size_t k = 0; k < FUZZ_MAX_OPS && (r = wl_next(&c, &op, &d)) == WL_NEXT_OP; k++)
        if (op.reg >= 0)
            wl_set_reg(&c, op.reg, reg_value(data, size, k));
    if (r == WL_NEXT_ERROR && d.count == 0) {
        fprintf(stderr, "fuzz_trace: a run-time error without a message\n");
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sim_diag d;
    sim_diag_init(&d);
    struct wl_program *p = wl_parse_text("fuzz", (const char *)data, size, NULL, &d);
    if (!p) {
        if (d.count == 0) {
            fprintf(stderr, "fuzz_trace: a parse failed without a message\n");
            abort();
        }
        return 0;
    }
    check_round_trip(p);
    run_thread(p, 0, data, size);
    if (wl_program_threads(p) > 1)
        run_thread(p, wl_program_threads(p) - 1, data, size);
    wl_program_free(p);
    return 0;
}
