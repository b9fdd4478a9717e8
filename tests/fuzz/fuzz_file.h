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

/* Writes data to the input file (its name `name`, fixed for the process)
 * and returns its path. */
static const char *fuzz_input_file(const char *name, const uint8_t *data, size_t size)
{
    static char path[512];
    if (!path[0]) {
        char dir[] = "/tmp/ccsim-fuzz-XXXXXX";
        if (!mkdtemp(dir))
            abort();
        snprintf(path, sizeof path, "%s/%s", dir, name);
    }
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    return path;
}

#endif
