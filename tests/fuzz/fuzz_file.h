/*
 * fuzz_file.h -- for the fuzz targets whose loaders read a file (config,
 * sweep): the input bytes are written to NAME in a private temporary
 * folder made once per process.
 */
#ifndef CCSIM_FUZZ_FILE_H
#define CCSIM_FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char fuzz_dir[32], fuzz_path[512];

/* At exit: the input file and its folder, which every run would otherwise
 * leave behind in /tmp. */
static void fuzz_remove_input(void)
{
    remove(fuzz_path);
    rmdir(fuzz_dir);
}

/* Writes data to the input file (its name `name`, fixed for the process)
 * and returns its path. */
static const char *fuzz_input_file(const char *name, const uint8_t *data, size_t size)
{
    if (!fuzz_path[0]) {
        snprintf(fuzz_dir, sizeof fuzz_dir, "/tmp/ccsim-fuzz-XXXXXX");
        if (!mkdtemp(fuzz_dir))
            abort();
        snprintf(fuzz_path, sizeof fuzz_path, "%s/%s", fuzz_dir, name);
        atexit(fuzz_remove_input);
    }
    FILE *f = fopen(fuzz_path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    return fuzz_path;
}

#endif
