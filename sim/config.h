/*
 * config.h -- the config loader (prefix cfg_): libconfig files checked
 * against a schema that each module declares for the sections it owns.
 * Part of the kernel folder (sim/): it needs sim.h's diagnostics only.
 */
#ifndef CCSIM_CONFIG_H
#define CCSIM_CONFIG_H

#include "sim.h"

#include <stddef.h>

/*
 * Config loading is schema-driven. A module describes each top-level group
 * it owns as a struct cfg_section: its keys, their types and ranges, and
 * where in a C struct each value goes. cfg_apply() checks the file
 * against the sections: every group and key must be known, typed and in
 * range; required keys must be present. An optional key that is absent
 * leaves the struct's field as the caller initialised it (the default).
 */
enum cfg_type {
    CFG_INT,          /* int64_t; range [min, max] */
    CFG_FLOAT,        /* double; range [min, max]; an integer is accepted */
    CFG_BOOL,         /* bool */
    CFG_STRING,       /* char[len] */
    CFG_CHOICE,       /* char[len], one of choices */
    CFG_INT_ARRAY,    /* int64_t[len], count at count_offset (int) */
    CFG_FLOAT_ARRAY,  /* double[len], count at count_offset (int) */
    CFG_STRING_ARRAY, /* char[len][max + 1], count at count_offset (int); each
                             string has min to max characters */
};

struct cfg_key {
    const char *name;
    enum cfg_type type;
    bool required;
    double min, max;            /* numbers, and each array element */
    size_t len;                 /* string buffer size, or array capacity */
    const char *const *choices; /* CFG_CHOICE: NULL-terminated */
    size_t offset;              /* of the field in the section's struct */
    size_t count_offset;        /* arrays: of the int element count */
    const char *unit;           /* for printing, may be NULL */
    const char *help;           /* one line, for printing */
};

struct cfg_section {
    const char *name; /* top-level group */
    bool required;
    const struct cfg_key *keys;
    size_t nkeys;
    void *dst; /* the struct that receives the values */
    const char *help;
};

struct cfg_file; /* an opened (parsed) config file */

/* Parses path. A top-level `@include "FILE"` line (a path relative to the
 * including file's folder, or absolute) reads FILE first: the including
 * file's own settings override the included ones key by key (a group
 * merges into the group of its name), later includes override earlier
 * ones; within one file a setting appears once. On a syntax or I/O error
 * (a missing include named at its @include line) returns NULL and adds
 * "FILE:LINE: ..." to d. */
struct cfg_file *cfg_open(const char *path, struct sim_diag *d);
/* The same for a file that is not a machine config: `kind` names it in the
 * messages ("cannot open sweep file: ..."). */
struct cfg_file *cfg_open_kind(const char *path, const char *kind, struct sim_diag *d);
void cfg_close(struct cfg_file *cf);
const char *cfg_path(const struct cfg_file *cf);
/* A string setting by dotted path ("machine.protocol"), or NULL. */
const char *cfg_string(const struct cfg_file *cf, const char *path);
/* Overrides one setting, "group.key=value", before cfg_apply; the value
 * is parsed as in a config file. Errors go to d as "--set: ...". */
bool cfg_set(struct cfg_file *cf, const char *assignment, struct sim_diag *d);
/* Checks the whole file against the sections and fills their structs.
 * Returns true if there was no error; otherwise every error is in d. */
bool cfg_apply(struct cfg_file *cf, const struct cfg_section *secs, size_t nsecs,
               struct sim_diag *d);
/* The same for the given sections only, the file's others let be (for the
 * machine section alone, when the rest cannot be known). */
bool cfg_apply_listed(struct cfg_file *cf, const struct cfg_section *secs, size_t nsecs,
                      struct sim_diag *d);
/* Whether a dotted path is set (in the file or by --set). */
bool cfg_has(const struct cfg_file *cf, const char *path);
/* Source line of a dotted path, 0 if absent or set by --set (for later
 * semantic errors). */
int cfg_line(const struct cfg_file *cf, const char *path);
/* Source line of element i of the list or array at path (the line its
 * value is on), else cfg_line(path). */
int cfg_elem_line(const struct cfg_file *cf, const char *path, int i);
/* The file a dotted path is set in (the config itself or a file it
 * @includes, as the user can open it) into buf; false if it is absent or
 * set by --set. */
bool cfg_source(const struct cfg_file *cf, const char *path, char *buf, size_t size);
/* Whether a --set value is a bare word (a letter or '_', then letters,
 * digits, _ - . :; not true or false), which --set takes as a string. */
bool cfg_bare_word(const char *v);
/* Adds "FILE:LINE: message" for a semantic error about a dotted path: the
 * file (the config or one it includes) and line where it was set, "--set",
 * or, when it is not set, where its section is (else the config alone).
 * An error about several keys together lists them, comma-separated
 * ("l1.size_kb,l1.ways"): it goes to "--set" if one of them was set
 * there, else to one the config file itself sets, else to the first one
 * set. cf may be NULL (a check run outside
 * loading): "ccsim: message". */
void cfg_diag(struct sim_diag *d, const struct cfg_file *cf, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Prints the sections' values as a readable table (after apply). */
void cfg_print(const struct cfg_section *secs, size_t nsecs);
/* The same piece by piece: a section's heading, then one key's line with
 * its value, unit and meaning; `note` (NULL: none) goes before the
 * meaning ("(default)"). */
void cfg_print_section(const struct cfg_section *sec);
void cfg_print_key(const struct cfg_section *sec, const struct cfg_key *k, const char *note);

/* Helpers to declare keys (the struct type is given as T). */
#define CFG_INT_KEY(T, field, req, lo, hi, unit, help)                                             \
    {                                                                                              \
#field, CFG_INT, req, lo, hi, 0, NULL, offsetof(T, field), 0, unit, help                   \
    }
#define CFG_FLOAT_KEY(T, field, req, lo, hi, unit, help)                                           \
    {                                                                                              \
#field, CFG_FLOAT, req, lo, hi, 0, NULL, offsetof(T, field), 0, unit, help                 \
    }
#define CFG_BOOL_KEY(T, field, req, help)                                                          \
    {                                                                                              \
#field, CFG_BOOL, req, 0, 1, 0, NULL, offsetof(T, field), 0, NULL, help                    \
    }
#define CFG_STRING_KEY(T, field, req, help)                                                        \
    {                                                                                              \
#field, CFG_STRING, req, 0, 0, sizeof(((T *)0)->field), NULL, offsetof(T, field), 0, NULL, \
            help                                                                                   \
    }
#define CFG_CHOICE_KEY(T, field, req, choices, help)                                               \
    {                                                                                              \
#field, CFG_CHOICE, req, 0, 0, sizeof(((T *)0)->field), choices, offsetof(T, field), 0,    \
            NULL, help                                                                             \
    }
#define CFG_INT_ARRAY_KEY(T, field, count, req, lo, hi, unit, help)                                \
    {                                                                                              \
#field, CFG_INT_ARRAY, req, lo, hi, sizeof(((T *)0)->field) / sizeof(int64_t), NULL,       \
            offsetof(T, field), offsetof(T, count), unit, help                                     \
    }
#define CFG_FLOAT_ARRAY_KEY(T, field, count, req, lo, hi, unit, help)                              \
    {                                                                                              \
#field, CFG_FLOAT_ARRAY, req, lo, hi, sizeof(((T *)0)->field) / sizeof(double), NULL,      \
            offsetof(T, field), offsetof(T, count), unit, help                                     \
    }
#define CFG_STRING_ARRAY_KEY(T, field, count, req, help)                                           \
    {                                                                                              \
#field, CFG_STRING_ARRAY, req, 1, (double)(sizeof(((T *)0)->field[0]) - 1),                \
            sizeof(((T *)0)->field) / sizeof(((T *)0)->field[0]), NULL, offsetof(T, field),        \
            offsetof(T, count), NULL, help                                                         \
    }
#endif /* CCSIM_CONFIG_H */
