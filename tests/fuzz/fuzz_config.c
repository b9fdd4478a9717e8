/*
 * fuzz_config.c -- libFuzzer target for the machine config loader.
 *
 * The bytes are written to a config file in a private temporary folder and
 * loaded with machine_load(). It must return true, or false with at least
 * one message naming a file ("FILE:LINE: ..." or "FILE: ...": the input, or
 * a file it includes, where the error is); any crash, exit or a
 * message-less failure is a finding.
 */
#include "machine.h"

#include "fuzz_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file("fuzz.cfg", data, size);
    struct machine_cfg m;
    struct sim_diag d;
    sim_diag_init(&d);
    if (machine_load(&m, path, NULL, 0, &d))
        return 0;
    /* a message names a file: the input, or one it includes (as fuzz_sweep) */
    if (d.count == 0 || strncmp(d.text, "ccsim:", 6) == 0 || !strchr(d.text, ':')) {
        fprintf(stderr, "fuzz_config: a failed load without a FILE message:\n%s\n", d.text);
        abort();
    }
    return 0;
}
