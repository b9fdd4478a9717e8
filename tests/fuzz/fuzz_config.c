/*
 * fuzz_config.c -- libFuzzer target for the machine config loader.
 *
 * The bytes are written to a config file in a private temporary folder and
 * loaded with sim_machine_load(). It must return true, or false with at least
 * one message naming the file ("FILE:LINE: ..." or "FILE: ..."); any crash,
 * exit or a message-less failure is a finding.
 */
#include "machine.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char cfg_path[512];

/* The file the inputs go to, in a folder made once per process. */
static const char *input_path(void)
{
    if (cfg_path[0])
        return cfg_path;
    char dir[] = "/tmp/ccsim-fuzz-config-XXXXXX";
    if (!mkdtemp(dir))
        abort();
    snprintf(cfg_path, sizeof cfg_path, "%s/fuzz.cfg", dir);
    return cfg_path;
}

static void write_input(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = input_path();
    write_input(path, data, size);
    struct sim_machine_cfg m;
    struct sim_diag d;
    sim_diag_init(&d);
    if (sim_machine_load(&m, path, NULL, 0, &d))
        return 0;
    if (d.count == 0 || !strstr(d.text, path)) {
        fprintf(stderr, "fuzz_config: a failed load without a FILE message:\n%s\n", d.text);
        abort();
    }
    return 0;
}
