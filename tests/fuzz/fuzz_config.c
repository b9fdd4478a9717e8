/*
 * fuzz_config.c -- libFuzzer target for the machine config loader.
 *
 * The bytes are written to a config file in a private temporary folder and
 * loaded with machine_load(). It must return true, or false with at least
 * one message naming the file ("FILE:LINE: ..." or "FILE: ..."); any crash,
 * exit or a message-less failure is a finding.
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
    if (d.count == 0 || !strstr(d.text, path)) {
        fprintf(stderr, "fuzz_config: a failed load without a FILE message:\n%s\n", d.text);
        abort();
    }
    return 0;
}
