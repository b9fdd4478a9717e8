/*
 * fuzz_sweep.c -- libFuzzer target for the sweep-file loader.
 *
 * The bytes are written to a sweep file in a private temporary folder and
 * loaded with sweep_load() (which also expands the workload ranges and
 * loads every config named). It must return true, or false with at least
 * one message naming a file ("FILE:LINE: ..." or "FILE: ..."); any crash,
 * exit or a message-less failure is a finding.
 */
#include "sweep.h"

#include "fuzz_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file("fuzz.sweep", data, size);
    static struct sweep sw; /* large: not on the stack */
    struct sim_diag d;
    sim_diag_init(&d);
    if (sweep_load(&sw, path, &d)) {
        sweep_free(&sw);
        return 0;
    }
    if (d.count == 0 || strncmp(d.text, "ccsim:", 6) == 0 || !strchr(d.text, ':')) {
        fprintf(stderr, "fuzz_sweep: a failed load without a FILE message:\n%s\n", d.text);
        abort();
    }
    return 0;
}
