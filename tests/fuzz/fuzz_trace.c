/*
 * fuzz_trace.c -- libFuzzer target for the trace parser (wl_parse_text).
 *
 * Any bytes go in. A parse must either fail with messages or give a program
 * whose canonical print parses again to an equal program (wl_program_equal);
 * anything else aborts, which libFuzzer reports as a crash.
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
    wl_program_free(p);
    return 0;
}
