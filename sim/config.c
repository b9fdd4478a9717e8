/*
 * config.c -- libconfig files checked against a schema (struct cfg_section).
 *
 * Every message names the file and line of the offending setting; a value set
 * with --set names "--set" instead. All errors of a file are reported, not
 * only the first.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <libconfig.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

struct cfg_file {
    config_t cfg; /* every file's settings, merged */
    char *path;
    char *dir;
    char **files; /* the files read (the top one and every @include), for settings' names */
    int nfiles;
    const char *chain[17]; /* the files being read, the top one first (cycles) */
    dev_t chain_dev[17];   /* ... and which files they are (st_dev, st_ino; a file named */
    ino_t chain_ino[17];   /* two ways, a//b and a/b, is one file) */
    const char *kind;      /* "config", "sweep file": what the messages call it */
};

#define CFG_MAX_BYTES    (16 << 20) /* a config file (and each one it includes) */
#define CFG_MAX_INCLUDES 64         /* files in all */

/* ------------------------------------------------------------- helpers */

/* The file a setting came from, as the user can open it: an @include'd file
 * is named relative to the including file's folder. */
static void setting_file(const struct cfg_file *cf, const config_setting_t *s, char *buf,
                         size_t size)
{
    const char *f = config_setting_source_file(s);
    if (s->line == 0)
        snprintf(buf, size, "--set");
    else if (!f)
        snprintf(buf, size, "%s", cf->path);
    else if (f[0] == '/' || strcmp(cf->dir, ".") == 0 || strncmp(f, cf->dir, strlen(cf->dir)) == 0)
        snprintf(buf, size, "%s", f); /* a file we read: named as we opened it */
    else
        snprintf(buf, size, "%s/%s", cf->dir, f); /* an @include inside a group (libconfig's) */
}

static int setting_line(const config_setting_t *s)
{
    return (int)config_setting_source_line(s);
}

__attribute__((format(printf, 4, 5))) static void diag_at(struct sim_diag *d,
                                                          const struct cfg_file *cf,
                                                          const config_setting_t *s,
                                                          const char *fmt, ...)
{
    char file[1024], msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    setting_file(cf, s, file, sizeof file);
    sim_diag_add(d, file, setting_line(s), "%s", msg);
}

static const char *type_name(int t)
{
    switch (t) {
    case CONFIG_TYPE_GROUP:
        return "a group";
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64:
        return "an integer";
    case CONFIG_TYPE_FLOAT:
        return "a number with a decimal point";
    case CONFIG_TYPE_STRING:
        return "a string";
    case CONFIG_TYPE_BOOL:
        return "a boolean";
    case CONFIG_TYPE_ARRAY:
        return "an array";
    case CONFIG_TYPE_LIST:
        return "a list";
    default:
        return "a setting of unknown type";
    }
}

/* What a key expects, for messages: "an integer from 1 to 64". */
static void expectation(char *buf, size_t size, const struct cfg_key *k)
{
    switch (k->type) {
    case CFG_INT:
        snprintf(buf, size, "an integer from %.0f to %.0f", k->min, k->max);
        break;
    case CFG_FLOAT:
        snprintf(buf, size, "a number from %g to %g", k->min, k->max);
        break;
    case CFG_BOOL:
        snprintf(buf, size, "true or false");
        break;
    case CFG_STRING:
        snprintf(buf, size, "a string of at most %zu characters", k->len - 1);
        break;
    case CFG_CHOICE: {
        size_t len = (size_t)snprintf(buf, size, "one of");
        for (size_t i = 0; k->choices[i] && len < size; i++)
            len +=
                (size_t)snprintf(buf + len, size - len, "%s \"%s\"", i ? "," : "", k->choices[i]);
        break;
    }
    case CFG_INT_ARRAY:
        snprintf(buf, size, "a list of at most %zu integers from %.0f to %.0f", k->len, k->min,
                 k->max);
        break;
    case CFG_FLOAT_ARRAY:
        snprintf(buf, size, "a list of at most %zu numbers from %g to %g", k->len, k->min, k->max);
        break;
    case CFG_STRING_ARRAY:
        snprintf(buf, size, "a list of at most %zu strings of %.0f to %.0f characters", k->len,
                 k->min, k->max);
        break;
    }
}

/* ------------------------------------------------------------- opening */

/* Copies setting src (any type, groups too) into parent under name (NULL:
 * an element of a list or array), keeping where it came from. A group
 * merges into a group of that name that is there already; any other
 * setting replaces the one of its name: a later setting wins. */
static bool copy_setting(config_setting_t *parent, const char *name, const config_setting_t *src);

static bool merge_group(config_setting_t *dst, const config_setting_t *src)
{
    for (int i = 0; i < config_setting_length(src); i++) {
        const config_setting_t *s = config_setting_get_elem(src, (unsigned)i);
        const char *name = config_setting_name(s);
        config_setting_t *old = config_setting_get_member(dst, name);
        if (old && config_setting_is_group(old) && config_setting_is_group(s)) {
            if (!merge_group(old, s))
                return false;
            continue;
        }
        if (old)
            config_setting_remove(dst, name);
        if (!copy_setting(dst, name, s))
            return false;
    }
    return true;
}

static bool copy_value(config_setting_t *dst, const config_setting_t *src)
{
    switch (config_setting_type(src)) {
    case CONFIG_TYPE_INT:
        return config_setting_set_int(dst, config_setting_get_int(src));
    case CONFIG_TYPE_INT64:
        return config_setting_set_int64(dst, config_setting_get_int64(src));
    case CONFIG_TYPE_FLOAT:
        return config_setting_set_float(dst, config_setting_get_float(src));
    case CONFIG_TYPE_BOOL:
        return config_setting_set_bool(dst, config_setting_get_bool(src));
    case CONFIG_TYPE_STRING:
        return config_setting_set_string(dst, config_setting_get_string(src));
    case CONFIG_TYPE_GROUP:
        return merge_group(dst, src);
    case CONFIG_TYPE_ARRAY:
    case CONFIG_TYPE_LIST:
        for (int i = 0; i < config_setting_length(src); i++)
            if (!copy_setting(dst, NULL, config_setting_get_elem(src, (unsigned)i)))
                return false;
        return true;
    default:
        return false;
    }
}

static bool copy_setting(config_setting_t *parent, const char *name, const config_setting_t *src)
{
    config_setting_t *dst = config_setting_add(parent, name, config_setting_type(src));
    if (!dst)
        return false;
    dst->line = src->line;
    dst->file = src->file;
    return copy_value(dst, src);
}

/* Marks every setting of a tree as read from `file` (a string cf keeps). */
static void mark_file(config_setting_t *s, const char *file)
{
    s->file = file;
    if (config_setting_is_group(s) || config_setting_is_aggregate(s))
        for (int i = 0; i < config_setting_length(s); i++)
            mark_file(config_setting_get_elem(s, (unsigned)i), file);
}

/* Reads a whole file: NULL (with a message) if it cannot be read, is not a
 * regular file (a device or a pipe could be endless: never wait on one),
 * or is too large. `inc` is the @include that names it (NULL: the top
 * file): the message is then at the @include's line. */
struct include_line;
static char *read_text(const char *path, const char *cf_kind, const char *inc_file,
                       const struct include_line *inc, size_t *len, struct sim_diag *d);

/* A top-level `@include "FILE"` line of text, found and blanked out (its
 * line stays, so line numbers do not move). */
struct include_line {
    int line;
    char name[1024];
};

/* Skips a string, a comment or one character of text at i; tracks braces
 * and lines. */
static size_t skip_token(const char *t, size_t len, size_t i, int *depth, int *line)
{
    if (t[i] == '"') {
        for (i++; i < len && t[i] != '"' && t[i] != '\n'; i++)
            if (t[i] == '\\' && i + 1 < len)
                i++;
        return i < len && t[i] == '"' ? i + 1 : i;
    }
    if (t[i] == '#' || (t[i] == '/' && i + 1 < len && t[i + 1] == '/')) {
        while (i < len && t[i] != '\n')
            i++;
        return i;
    }
    if (t[i] == '/' && i + 1 < len && t[i + 1] == '*') {
        for (i += 2; i + 1 < len && !(t[i] == '*' && t[i + 1] == '/'); i++)
            *line += t[i] == '\n';
        return i + 2 <= len ? i + 2 : len;
    }
    *depth += t[i] == '{' ? 1 : t[i] == '}' ? -1 : 0;
    *line += t[i] == '\n';
    return i + 1;
}

/* An `@include "NAME"` at the start of line i: its name into inc, and
 * *end past its closing quote. False if the line is no such directive. */
static bool include_at(const char *t, size_t len, size_t i, struct include_line *inc, size_t *end)
{
    size_t j = i;
    while (j < len && (t[j] == ' ' || t[j] == '\t'))
        j++;
    if (len - j < 8 || strncmp(t + j, "@include", 8) != 0)
        return false;
    size_t q = j + 8;
    while (q < len && (t[q] == ' ' || t[q] == '\t'))
        q++;
    if (q >= len || t[q] != '"')
        return false;
    size_t e = q + 1;
    while (e < len && t[e] != '"' && t[e] != '\n')
        e++;
    if (e >= len || t[e] != '"' || e - q - 1 >= sizeof inc->name)
        return false;
    memcpy(inc->name, t + q + 1, e - q - 1);
    inc->name[e - q - 1] = '\0';
    *end = e + 1;
    return true;
}

/* The same, and blanks the directive. */
static bool take_include(char *t, size_t len, size_t i, struct include_line *inc)
{
    size_t end;
    if (!include_at(t, len, i, inc, &end))
        return false;
    memset(t + i, ' ', end - i);
    return true;
}

/* Finds and blanks the top-level @include lines of text (an @include inside
 * a group is left to libconfig: its text goes in there). */
static int find_includes(char *t, size_t len, struct include_line *inc, int max)
{
    int n = 0, depth = 0, line = 1;
    bool line_start = true;
    for (size_t i = 0; i < len;) {
        if (line_start && depth == 0 && n < max && take_include(t, len, i, &inc[n])) {
            inc[n++].line = line;
            continue;
        }
        size_t next = skip_token(t, len, i, &depth, &line);
        line_start = t[next - 1] == '\n';
        i = next;
    }
    return n;
}

/* A NUL byte in a file's text, said at its line: a config or sweep file is
 * text (libconfig would read the @include name "a\0b" as "a" and, where
 * that names a directory, end the process from its scanner). */
static bool nul_byte(const char *text, size_t len, const char *path, const char *cf_kind,
                     struct sim_diag *d)
{
    const char *nul = memchr(text, '\0', len);
    if (!nul)
        return false;
    int line = 1;
    for (const char *c = text; c < nul; c++)
        line += *c == '\n';
    sim_diag_add(d, path, line, "a NUL byte: a %s is text", cf_kind);
    return true;
}

/* "cannot VERB WHAT: WHY" at the @include that names path (inc) or at
 * the top file; the names go in as arguments, never into the format (an
 * @include "a%n" must not be a format). */
static void say_cannot(struct sim_diag *d, const char *path, const char *cf_kind,
                       const char *inc_file, const struct include_line *inc, const char *verb,
                       const char *why)
{
    if (inc)
        sim_diag_add(d, inc_file, inc->line, "@include \"%s\": cannot %s %s: %s", inc->name, verb,
                     path, why);
    else
        sim_diag_add(d, path, 0, "cannot %s %s: %s", verb, cf_kind, why);
}

static char *read_text(const char *path, const char *cf_kind, const char *inc_file,
                       const struct include_line *inc, size_t *len, struct sim_diag *d)
{
    struct stat st;
    const char *why = NULL, *verb = "open";
    if (stat(path, &st) != 0)
        why = strerror(errno);
    else if (S_ISDIR(st.st_mode))
        why = "it is a directory", verb = "read";
    else if (!S_ISREG(st.st_mode))
        why = "not a regular file", verb = "read";
    FILE *f = why ? NULL : fopen(path, "rb");
    if (!why && !f)
        why = strerror(errno);
    if (why) {
        say_cannot(d, path, cf_kind, inc_file, inc, verb, why);
        return NULL;
    }
    size_t cap = st.st_size < CFG_MAX_BYTES ? (size_t)st.st_size + 1 : CFG_MAX_BYTES + 1;
    char *text = sim_xmalloc(cap + 1);
    *len = fread(text, 1, cap, f); /* one byte more than it had: it did not grow past the cap */
    fclose(f);
    if (*len > CFG_MAX_BYTES) {
        char big[32];
        snprintf(big, sizeof big, "larger than %d MB", CFG_MAX_BYTES >> 20);
        say_cannot(d, path, cf_kind, inc_file, inc, "read", big);
        free(text);
        return NULL;
    }
    text[*len] = '\0';
    if (nul_byte(text, *len, path, cf_kind, d)) {
        free(text);
        return NULL;
    }
    return text;
}

static const char *keep_name(struct cfg_file *cf, const char *path)
{
    for (int i = 0; i < cf->nfiles; i++)
        if (strcmp(cf->files[i], path) == 0)
            return cf->files[i];
    cf->files = sim_xrealloc(cf->files, (size_t)(cf->nfiles + 1) * sizeof *cf->files);
    return cf->files[cf->nfiles++] = sim_xstrdup(path);
}

/* The path of an @include: absolute as written, else relative to the
 * folder of the file that includes it. */
static void include_path(const char *includer, const char *name, char *buf, size_t size)
{
    const char *slash = strrchr(includer, '/');
    if (name[0] == '/' || !slash)
        snprintf(buf, size, "%s", name);
    else
        snprintf(buf, size, "%.*s/%s", (int)(slash - includer), includer, name);
}

static bool load_into(struct cfg_file *cf, const char *path, const char *inc_file,
                      const struct include_line *inc, int depth, struct sim_diag *d);

/* Skips a string or comment at t[i] (counting lines); the index past it,
 * or i if there is none there. */
static size_t skip_quoted(const char *t, size_t len, size_t i, int *line)
{
    size_t j = i;
    if (t[i] == '"') {
        for (j = i + 1; j < len && t[j] != '"'; j++)
            j += t[j] == '\\' && j + 1 < len;
        return j + 1;
    }
    if (t[i] == '#' || (t[i] == '/' && i + 1 < len && t[i + 1] == '/')) {
        while (j < len && t[j] != '\n')
            j++;
        return j;
    }
    if (t[i] == '/' && i + 1 < len && t[i + 1] == '*') {
        for (j = i + 2; j + 1 < len && !(t[j] == '*' && t[j + 1] == '/'); j++)
            *line += t[j] == '\n';
        return j + 2;
    }
    return i;
}

/* libconfig 1.5 reads an integer past 32 bits without an L as its low 32
 * bits (4294967298 as 2), silently: such a literal is an error here. */
static bool integers_fit(const char *t, size_t len, const char *file, struct sim_diag *d)
{
    int line = 1;
    for (size_t i = 0; i < len;) {
        size_t past = skip_quoted(t, len, i, &line);
        if (past != i) {
            i = past;
            continue;
        }
        bool starts =
            isdigit((unsigned char)t[i]) &&
            (i == 0 || (!isalnum((unsigned char)t[i - 1]) && t[i - 1] != '_' && t[i - 1] != '.'));
        if (!starts) {
            line += t[i++] == '\n';
            continue;
        }
        char *end;
        errno = 0;
        unsigned long long v = strtoull(t + i, &end, 0);
        size_t j = (size_t)(end - t);
        bool real = j < len && (t[j] == '.' || t[j] == 'e' || t[j] == 'E');
        bool wide = j < len && t[j] == 'L';
        bool neg = i > 0 && t[i - 1] == '-';
        size_t from = neg ? i - 1 : i; /* the number as written, with its sign */
        int n = (int)(j - from);
        if (!real && !wide && (errno == ERANGE || v > (neg ? 2147483648ull : 2147483647ull))) {
            sim_diag_add(d, file, strcmp(file, "--set") ? line : 0,
                         "the integer %.*s does not fit a plain integer (libconfig would keep its "
                         "low 32 bits): write %.*sL",
                         n, t + from, n, t + from);
            return false;
        }
        if (wide && (errno == ERANGE || v > (neg ? 9223372036854775808ull : INT64_MAX))) {
            /* libconfig would keep 9223372036854775807 (or -1 for 0xF...F): a
             * value nobody wrote */
            sim_diag_add(d, file, strcmp(file, "--set") ? line : 0,
                         "the integer %.*sL does not fit a 64-bit integer (-9223372036854775808 "
                         "to 9223372036854775807)",
                         n, t + from);
            return false;
        }
        i = j > i ? j : i + 1;
    }
    return true;
}

static bool libconfig_includes_ok(const char *t, size_t len, const char *file, const char *dir,
                                  int depth, struct sim_diag *d);

/* One @include that libconfig will open: dir (its include dir) joined to
 * the name, as libconfig 1.5 joins them, must be a regular file, and so
 * must the ones it names in turn. */
static bool libconfig_include_ok(const struct include_line *inc, const char *file, const char *dir,
                                 int depth, struct sim_diag *d)
{
    if (depth >= 8) {
        sim_diag_add(d, file, inc->line, "@include \"%s\": more than 8 nested includes", inc->name);
        return false;
    }
    char path[2100];
    snprintf(path, sizeof path, "%s/%s", dir, inc->name);
    size_t n;
    char *text = read_text(path, "config", file, inc, &n, d);
    if (!text)
        return false;
    bool ok = libconfig_includes_ok(text, n, path, dir, depth + 1, d);
    free(text);
    return ok;
}

/* The @include lines libconfig opens itself (those inside a group, and
 * every one in a file they name), checked before it does: one whose name
 * gives no regular file (a directory: "" or ".") ended the process from
 * libconfig's scanner ("input in flex scanner failed") where it is an error
 * at its line. */
static bool libconfig_includes_ok(const char *t, size_t len, const char *file, const char *dir,
                                  int depth, struct sim_diag *d)
{
    int line = 1, braces = 0;
    bool line_start = true;
    for (size_t i = 0; i < len;) {
        struct include_line inc;
        size_t end;
        if (line_start && include_at(t, len, i, &inc, &end)) {
            inc.line = line;
            if (!libconfig_include_ok(&inc, file, dir, depth, d))
                return false;
            i = end;
            line_start = false;
            continue;
        }
        size_t next = skip_token(t, len, i, &braces, &line);
        line_start = t[next - 1] == '\n';
        i = next;
    }
    return true;
}

/* Parses one file's own text (its top-level includes blanked) into a
 * config of its own, every setting marked with the file. */
static bool parse_own(struct cfg_file *cf, const char *path, char *text, size_t len, config_t *own,
                      struct sim_diag *d)
{
    config_init(own);
    if (len == 0) { /* libconfig's 'syntax error' would not say why */
        sim_diag_add(d, path, 0,
                     "the file is empty (expected `name = value;` or "
                     "`name = { ... };`)");
        return false;
    }
    if (!integers_fit(text, len, path, d))
        return false;
    char dir[1024];
    include_path(path, ".", dir, sizeof dir);
    if (!libconfig_includes_ok(text, len, path, dir, 0, d))
        return false;
    config_set_include_dir(own, dir);
    FILE *mem = fmemopen(text, len ? len : 1, "r");
    if (!mem)
        sim_panic("fmemopen: %s", strerror(errno));
    bool ok = config_read(own, mem) == CONFIG_TRUE;
    fclose(mem);
    if (!ok) {
        const char *file = config_error_file(own), *why = config_error_text(own);
        bool plain = why && strcmp(why, "syntax error") == 0;       /* libconfig's own words */
        bool mixed = why && strstr(why, "mismatched element type"); /* [39, 10.3] */
        sim_diag_add(d, file ? file : path, config_error_line(own), "syntax error%s%s (%s)",
                     plain ? "" : ": ", plain ? "" : why,
                     mixed ? "an array's numbers are all of one kind: all decimals (write "
                             "3.0, not 3), or all integers, and with an L on each (1L, "
                             "4294967296L) if one needs it"
                           : "expected `name = value;` or `name = { ... };`");
        return false;
    }
    mark_file(config_root_setting(own), keep_name(cf, path));
    return true;
}

/* Merges `path` into cf: first the files it includes (in order, each one
 * overriding the ones before), then its own settings over them. */
static bool load_into(struct cfg_file *cf, const char *path, const char *inc_file,
                      const struct include_line *from, int depth, struct sim_diag *d)
{
    if (depth >= (int)SIM_COUNT_OF(cf->chain) || cf->nfiles >= CFG_MAX_INCLUDES) {
        sim_diag_add(d, inc_file, from->line,
                     "@include \"%s\": more than %d files or %d nested includes", from->name,
                     CFG_MAX_INCLUDES, (int)SIM_COUNT_OF(cf->chain) - 1);
        return false;
    }
    struct stat st;
    bool known = stat(path, &st) == 0;
    for (int i = 0; i < depth; i++)
        if (strcmp(cf->chain[i], path) == 0 ||
            (known && cf->chain_dev[i] == st.st_dev && cf->chain_ino[i] == st.st_ino)) {
            sim_diag_add(d, inc_file, from->line, "@include \"%s\": a cycle (%s includes itself)",
                         from->name, path);
            return false;
        }
    size_t len;
    char *text = read_text(path, cf->kind, inc_file, from, &len, d);
    if (!text)
        return false;
    cf->chain[depth] = keep_name(cf, path);
    cf->chain_dev[depth] = known ? st.st_dev : 0;
    cf->chain_ino[depth] = known ? st.st_ino : 0;
    struct include_line inc[16];
    int ninc = find_includes(text, len, inc, (int)SIM_COUNT_OF(inc));
    config_t own;
    bool ok = parse_own(cf, path, text, len, &own, d);
    free(text);
    const char *me = keep_name(cf, path);
    for (int i = 0; i < ninc && ok; i++) {
        char sub[2048];
        include_path(path, inc[i].name, sub, sizeof sub);
        ok = load_into(cf, sub, me, &inc[i], depth + 1, d);
    }
    if (ok && !merge_group(config_root_setting(&cf->cfg), config_root_setting(&own)))
        sim_panic("config: cannot merge %s", path);
    config_destroy(&own);
    return ok;
}

struct cfg_file *cfg_open(const char *path, struct sim_diag *d)
{
    return cfg_open_kind(path, "config", d);
}

struct cfg_file *cfg_open_kind(const char *path, const char *kind, struct sim_diag *d)
{
    struct cfg_file *cf = sim_xcalloc(1, sizeof *cf);
    cf->kind = kind;
    cf->path = sim_xstrdup(path);
    cf->dir = sim_xstrdup(path);
    char *slash = strrchr(cf->dir, '/');
    if (slash)
        *slash = '\0';
    else
        strcpy(cf->dir, ".");
    config_init(&cf->cfg);
    if (!load_into(cf, path, NULL, NULL, 0, d)) {
        cfg_close(cf);
        return NULL;
    }
    return cf;
}

void cfg_close(struct cfg_file *cf)
{
    if (!cf)
        return;
    config_destroy(&cf->cfg);
    for (int i = 0; i < cf->nfiles; i++)
        free(cf->files[i]);
    free(cf->files);
    free(cf->path);
    free(cf->dir);
    free(cf);
}

const char *cfg_path(const struct cfg_file *cf)
{
    return cf->path;
}

const char *cfg_string(const struct cfg_file *cf, const char *path)
{
    const char *s = NULL;
    if (config_lookup_string(&cf->cfg, path, &s) != CONFIG_TRUE)
        return NULL;
    return s;
}

bool cfg_has(const struct cfg_file *cf, const char *path)
{
    return config_lookup(&cf->cfg, path) != NULL;
}

int cfg_line(const struct cfg_file *cf, const char *path)
{
    config_setting_t *s = config_lookup(&cf->cfg, path);
    return s ? setting_line(s) : 0;
}

int cfg_elem_line(const struct cfg_file *cf, const char *path, int i)
{
    config_setting_t *s = config_lookup(&cf->cfg, path);
    config_setting_t *e = s ? config_setting_get_elem(s, (unsigned)i) : NULL;
    int line = e ? setting_line(e) : 0;
    return line ? line : cfg_line(cf, path);
}

bool cfg_source(const struct cfg_file *cf, const char *path, char *buf, size_t size)
{
    config_setting_t *s = config_lookup(&cf->cfg, path);
    if (!s || s->line == 0)
        return false;
    setting_file(cf, s, buf, size);
    return true;
}

/* How likely a setting is to be the one a user just changed: 2 for --set,
 * 1 for the config file itself, 0 for a file it includes. */
static int setting_rank(const struct cfg_file *cf, const config_setting_t *s)
{
    char file[1024];
    setting_file(cf, s, file, sizeof file);
    return s->line == 0 ? 2 : strcmp(file, cf->path) == 0;
}

/* Of the comma-separated paths, the setting a diagnostic names: the first
 * of the highest setting_rank, or NULL if none is set; first gets the
 * first path. */
static config_setting_t *diag_setting(const struct cfg_file *cf, const char *paths, char *first,
                                      size_t size)
{
    config_setting_t *found = NULL;
    first[0] = '\0';
    for (const char *p = paths; *p;) {
        size_t n = strcspn(p, ",");
        char one[128];
        snprintf(one, sizeof one, "%.*s", (int)n, p);
        if (!first[0])
            snprintf(first, size, "%s", one);
        config_setting_t *s = config_lookup(&cf->cfg, one);
        if (s && (!found || setting_rank(cf, s) > setting_rank(cf, found)))
            found = s;
        p += n + (p[n] == ',');
    }
    return found;
}

void cfg_diag(struct sim_diag *d, const struct cfg_file *cf, const char *path, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!cf) {
        sim_diag_add(d, NULL, 0, "%s", msg);
        return;
    }
    char first[128];
    config_setting_t *s = diag_setting(cf, path, first, sizeof first);
    path = first;
    char section[128];
    const char *dot = strchr(path, '.');
    if (!s && dot && (size_t)(dot - path) < sizeof section) {
        snprintf(section, sizeof section, "%.*s", (int)(dot - path), path);
        s = config_lookup(&cf->cfg, section);
    }
    if (s)
        diag_at(d, cf, s, "%s", msg);
    else
        sim_diag_add(d, cf->path, 0, "%s", msg);
}

/* ------------------------------------------------------------- --set */

/* A value of --set that is one word (a letter, then letters, digits, _ - .
 * :), not true or false: a string written without its quotes. */
bool cfg_bare_word(const char *v)
{
    if (!((*v >= 'a' && *v <= 'z') || (*v >= 'A' && *v <= 'Z') || *v == '_'))
        return false;
    if (strcasecmp(v, "true") == 0 || strcasecmp(v, "false") == 0)
        return false;
    for (; *v; v++)
        if (!((*v >= 'a' && *v <= 'z') || (*v >= 'A' && *v <= 'Z') || (*v >= '0' && *v <= '9') ||
              strchr("_-.:", *v)))
            return false;
    return true;
}

/* A setting --set made: line 0 and no file, so messages name "--set". */
static void mark_set(config_setting_t *s)
{
    if (!s)
        return;
    s->line = 0;
    s->file = NULL;
    if (config_setting_is_aggregate(s))
        for (int i = 0; i < config_setting_length(s); i++)
            mark_set(config_setting_get_elem(s, (unsigned)i));
}

/* A group's or a key's name: a letter, then letters, digits and _. */
static bool is_name(const char *s)
{
    if (!isalpha((unsigned char)s[0]))
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return false;
    return true;
}

bool cfg_set(struct cfg_file *cf, const char *assignment, struct sim_diag *d)
{
    const char *eq = strchr(assignment, '=');
    const char *dot = strchr(assignment, '.');
    if (!eq || !dot || dot > eq || dot == assignment || dot + 1 == eq) {
        sim_diag_add(d, "--set", 0, "'%s' is not of the form group.key=value", assignment);
        return false;
    }
    char group[128], key[128];
    size_t gl = (size_t)(dot - assignment), kl = (size_t)(eq - dot - 1);
    if (gl >= sizeof group || kl >= sizeof key) {
        sim_diag_add(d, "--set", 0, "'%s': name too long", assignment);
        return false;
    }
    memcpy(group, assignment, gl);
    group[gl] = '\0';
    memcpy(key, dot + 1, kl);
    key[kl] = '\0';
    if (!is_name(group) || !is_name(key)) {
        sim_diag_add(d, "--set", 0,
                     "'%s': '%s' is not a setting's name (a group and a key of letters, digits "
                     "and _, joined by one '.': group.key=value, no spaces)",
                     assignment, is_name(group) ? key : group);
        return false;
    }

    if (!integers_fit(eq + 1, strlen(eq + 1), "--set", d))
        return false;
    config_t tmp;
    config_init(&tmp);
    char *text = sim_xmalloc(strlen(eq) + 16);
    if (cfg_bare_word(eq + 1)) /* machine.protocol=moesi: a word is a string */
        sprintf(text, "v = \"%s\";", eq + 1);
    else
        sprintf(text, "v %s;", eq);
    bool ok = config_read_string(&tmp, text) == CONFIG_TRUE;
    free(text);
    config_setting_t *value = ok ? config_lookup(&tmp, "v") : NULL;
    if (!value || config_setting_is_group(value)) {
        sim_diag_add(d, "--set", 0, "'%s': the value is not a number, string, boolean or list",
                     assignment);
        config_destroy(&tmp);
        return false;
    }
    config_setting_t *root = config_root_setting(&cf->cfg);
    config_setting_t *g = config_setting_get_member(root, group);
    if (!g)
        g = config_setting_add(root, group, CONFIG_TYPE_GROUP);
    if (!g || !config_setting_is_group(g)) {
        sim_diag_add(d, "--set", 0, "'%s': '%s' is not a group", assignment, group);
        config_destroy(&tmp);
        return false;
    }
    if (config_setting_get_member(g, key))
        config_setting_remove(g, key);
    ok = copy_setting(g, key, value);
    if (ok)
        mark_set(config_setting_get_member(g, key));
    config_destroy(&tmp);
    if (!ok)
        sim_diag_add(d, "--set", 0, "'%s': cannot set this value", assignment);
    return ok;
}

/* ------------------------------------------------------------- checking */

static bool get_number(const config_setting_t *s, bool integer, double *out, int64_t *iout)
{
    int t = config_setting_type(s);
    if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64) {
        *iout = (int64_t)config_setting_get_int64(s);
        *out = (double)*iout;
        return true;
    }
    if (t == CONFIG_TYPE_FLOAT && !integer) {
        *out = config_setting_get_float(s);
        return true;
    }
    return false;
}

static void key_error(struct sim_diag *d, const struct cfg_file *cf, const config_setting_t *s,
                      const char *section, const struct cfg_key *k, const char *what)
{
    char exp[512];
    expectation(exp, sizeof exp, k);
    diag_at(d, cf, s, "%s.%s %s (expected %s)", section, k->name, what, exp);
}

static bool apply_number(const struct cfg_file *cf, const config_setting_t *s, const char *section,
                         const struct cfg_key *k, void *field, struct sim_diag *d)
{
    bool integer = k->type == CFG_INT || k->type == CFG_INT_ARRAY;
    double v = 0;
    int64_t iv = 0;
    char what[160];
    if (!get_number(s, integer, &v, &iv)) {
        snprintf(what, sizeof what, "is %s", type_name(config_setting_type(s)));
        key_error(d, cf, s, section, k, what);
        return false;
    }
    if (!(v >= k->min && v <= k->max) || (!integer && !isfinite(v))) {
        if (integer)
            snprintf(what, sizeof what, "= %lld is out of range", (long long)iv);
        else
            snprintf(what, sizeof what, "= %g is out of range", v);
        key_error(d, cf, s, section, k, what);
        return false;
    }
    if (integer)
        *(int64_t *)field = iv;
    else
        *(double *)field = v;
    return true;
}

/* One string of a CFG_STRING_ARRAY: min to max characters. */
static bool apply_string_elem(const struct cfg_file *cf, const config_setting_t *s,
                              const char *section, const struct cfg_key *k, char *field,
                              struct sim_diag *d)
{
    char what[160];
    if (config_setting_type(s) != CONFIG_TYPE_STRING) {
        snprintf(what, sizeof what, "has %s element", type_name(config_setting_type(s)));
        key_error(d, cf, s, section, k, what);
        return false;
    }
    const char *v = config_setting_get_string(s);
    size_t len = strlen(v);
    if ((double)len < k->min || (double)len > k->max) {
        snprintf(what, sizeof what, "has a string of %zu characters", len);
        key_error(d, cf, s, section, k, what);
        return false;
    }
    memcpy(field, v, len + 1);
    return true;
}

static bool apply_array(const struct cfg_file *cf, const config_setting_t *s, const char *section,
                        const struct cfg_key *k, char *base, struct sim_diag *d)
{
    int t = config_setting_type(s);
    if (t != CONFIG_TYPE_ARRAY && t != CONFIG_TYPE_LIST) {
        char what[160];
        snprintf(what, sizeof what, "is %s", type_name(t));
        key_error(d, cf, s, section, k, what);
        return false;
    }
    int n = config_setting_length(s);
    if ((size_t)n > k->len) {
        char what[160];
        snprintf(what, sizeof what, "has %d elements", n);
        key_error(d, cf, s, section, k, what);
        return false;
    }
    size_t esize = k->type == CFG_INT_ARRAY     ? sizeof(int64_t)
                   : k->type == CFG_FLOAT_ARRAY ? sizeof(double)
                                                : (size_t)k->max + 1;
    bool ok = true;
    for (int i = 0; i < n && ok; i++) { /* the first bad element is said once, not each */
        config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
        char *field = base + k->offset + (size_t)i * esize;
        if (k->type == CFG_STRING_ARRAY)
            ok &= apply_string_elem(cf, e, section, k, field, d);
        else
            ok &= apply_number(cf, e, section, k, field, d);
    }
    if (ok)
        *(int *)(base + k->count_offset) = n;
    return ok;
}

static bool apply_string(const struct cfg_file *cf, const config_setting_t *s, const char *section,
                         const struct cfg_key *k, char *field, struct sim_diag *d)
{
    char what[512];
    if (config_setting_type(s) != CONFIG_TYPE_STRING) {
        snprintf(what, sizeof what, "is %s", type_name(config_setting_type(s)));
        key_error(d, cf, s, section, k, what);
        return false;
    }
    const char *v = config_setting_get_string(s);
    if (strlen(v) >= k->len) {
        snprintf(what, sizeof what, "is %zu characters long", strlen(v));
        key_error(d, cf, s, section, k, what);
        return false;
    }
    if (k->type == CFG_CHOICE) {
        size_t n = 0;
        while (k->choices[n])
            n++;
        bool found = false;
        for (size_t i = 0; i < n; i++)
            found |= strcmp(k->choices[i], v) == 0;
        if (!found) {
            char hint[400];
            /* no list: the expectation key_error adds is the list */
            sim_suggest(hint, sizeof hint, v, strlen(v), k->choices, n, NULL);
            snprintf(what, sizeof what, "= \"%.60s\" is not known%s", v, hint);
            key_error(d, cf, s, section, k, what);
            return false;
        }
    }
    strcpy(field, v);
    return true;
}

static bool apply_key(const struct cfg_file *cf, const config_setting_t *s,
                      const struct cfg_section *sec, const struct cfg_key *k, struct sim_diag *d)
{
    char *base = sec->dst;
    switch (k->type) {
    case CFG_INT:
    case CFG_FLOAT:
        return apply_number(cf, s, sec->name, k, base + k->offset, d);
    case CFG_BOOL:
        if (config_setting_type(s) != CONFIG_TYPE_BOOL) {
            char what[160];
            snprintf(what, sizeof what, "is %s", type_name(config_setting_type(s)));
            key_error(d, cf, s, sec->name, k, what);
            return false;
        }
        *(bool *)(base + k->offset) = config_setting_get_bool(s);
        return true;
    case CFG_STRING:
    case CFG_CHOICE:
        return apply_string(cf, s, sec->name, k, base + k->offset, d);
    case CFG_INT_ARRAY:
    case CFG_FLOAT_ARRAY:
    case CFG_STRING_ARRAY:
        return apply_array(cf, s, sec->name, k, base, d);
    }
    return false;
}

static bool apply_section(const struct cfg_file *cf, const config_setting_t *g,
                          const struct cfg_section *sec, struct sim_diag *d)
{
    bool ok = true;
    const char *names[64];
    size_t nn = sec->nkeys < 64 ? sec->nkeys : 64;
    for (size_t i = 0; i < nn; i++)
        names[i] = sec->keys[i].name;

    for (int i = 0; i < config_setting_length(g); i++) {
        config_setting_t *s = config_setting_get_elem(g, (unsigned)i);
        const char *name = config_setting_name(s);
        const struct cfg_key *k = NULL;
        for (size_t j = 0; j < sec->nkeys && !k; j++)
            if (strcmp(sec->keys[j].name, name) == 0)
                k = &sec->keys[j];
        if (!k) {
            char hint[600];
            sim_suggest(hint, sizeof hint, name, strlen(name), names, nn, "known:");
            diag_at(d, cf, s, "unknown key '%s' in section '%s'%s", name, sec->name, hint);
            ok = false;
            continue;
        }
        ok &= apply_key(cf, s, sec, k, d);
    }
    for (size_t j = 0; j < sec->nkeys; j++) {
        const struct cfg_key *k = &sec->keys[j];
        if (k->required && !config_setting_get_member(g, k->name)) {
            char exp[512];
            expectation(exp, sizeof exp, k);
            diag_at(d, cf, g, "section '%s' lacks the required key '%s' (%s: %s)", sec->name,
                    k->name, k->help ? k->help : k->name, exp);
            ok = false;
        }
    }
    return ok;
}

/* cfg_apply's work; every_section: a section not in secs is an error. */
static bool apply_sections(struct cfg_file *cf, const struct cfg_section *secs, size_t nsecs,
                           bool every_section, struct sim_diag *d)
{
    bool ok = true;
    config_setting_t *root = config_root_setting(&cf->cfg);
    const char *names[64];
    size_t nn = nsecs < 64 ? nsecs : 64;
    for (size_t i = 0; i < nn; i++)
        names[i] = secs[i].name;

    for (int i = 0; i < config_setting_length(root); i++) {
        config_setting_t *g = config_setting_get_elem(root, (unsigned)i);
        const char *name = config_setting_name(g);
        const struct cfg_section *sec = NULL;
        for (size_t j = 0; j < nsecs && !sec; j++)
            if (strcmp(secs[j].name, name) == 0)
                sec = &secs[j];
        if (!sec && !every_section)
            continue;
        if (!sec) {
            char hint[600];
            sim_suggest(hint, sizeof hint, name, strlen(name), names, nn, "known:");
            diag_at(d, cf, g, "unknown section '%s'%s", name, hint);
            ok = false;
            continue;
        }
        if (!config_setting_is_group(g)) {
            diag_at(d, cf, g, "'%s' is %s (expected a group: %s = { ... };)", name,
                    type_name(config_setting_type(g)), name);
            ok = false;
            continue;
        }
        ok &= apply_section(cf, g, sec, d);
    }
    for (size_t j = 0; j < nsecs; j++) {
        if (secs[j].required && !config_setting_get_member(root, secs[j].name)) {
            sim_diag_add(d, cf->path, 1, "the required section '%s' is missing (%s)", secs[j].name,
                         secs[j].help ? secs[j].help : "");
            ok = false;
        }
    }
    return ok;
}

bool cfg_apply(struct cfg_file *cf, const struct cfg_section *secs, size_t nsecs,
               struct sim_diag *d)
{
    return apply_sections(cf, secs, nsecs, true, d);
}

bool cfg_apply_listed(struct cfg_file *cf, const struct cfg_section *secs, size_t nsecs,
                      struct sim_diag *d)
{
    return apply_sections(cf, secs, nsecs, false, d);
}
/* ------------------------------------------------------------- printing */

/* Formats a key's value (and unit) into buf. */
static void format_value(char *buf, size_t size, const struct cfg_key *k, const char *base)
{
    const char *f = base + k->offset;
    size_t len = 0;
#define PUT(...) (len += (size_t)snprintf(buf + len, len < size ? size - len : 0, __VA_ARGS__))
    switch (k->type) {
    case CFG_INT:
        PUT("%lld", (long long)*(const int64_t *)f);
        break;
    case CFG_FLOAT:
        PUT("%.15g", *(const double *)f);
        break;
    case CFG_BOOL:
        PUT("%s", *(const bool *)f ? "true" : "false");
        break;
    case CFG_STRING:
    case CFG_CHOICE:
        PUT("\"%s\"", f);
        break;
    case CFG_INT_ARRAY:
    case CFG_FLOAT_ARRAY:
    case CFG_STRING_ARRAY: {
        int n = *(const int *)(base + k->count_offset);
        PUT("[");
        for (int i = 0; i < n; i++) {
            if (k->type == CFG_INT_ARRAY)
                PUT("%s%lld", i ? ", " : "", (long long)((const int64_t *)f)[i]);
            else if (k->type == CFG_FLOAT_ARRAY)
                PUT("%s%.15g", i ? ", " : "", ((const double *)f)[i]);
            else
                PUT("%s\"%s\"", i ? ", " : "", f + (size_t)i * ((size_t)k->max + 1));
        }
        PUT("]");
        break;
    }
    }
    if (k->unit)
        PUT(" %s", k->unit);
#undef PUT
}

void cfg_print_section(const struct cfg_section *sec)
{
    printf("%s:%s%s\n", sec->name, sec->help ? "  # " : "", sec->help ? sec->help : "");
}

void cfg_print_key(const struct cfg_section *sec, const struct cfg_key *k, const char *note)
{
    char val[512];
    format_value(val, sizeof val, k, sec->dst);
    int width = 18; /* the section's longest key, if longer: its values stay in a column */
    for (size_t i = 0; i < sec->nkeys; i++)
        width = (int)strlen(sec->keys[i].name) > width ? (int)strlen(sec->keys[i].name) : width;
    printf("  %-*s %-14s", width, k->name, val);
    if (note || k->help)
        printf("  # %s%s%s", note ? note : "", note && k->help ? " " : "", k->help ? k->help : "");
    printf("\n");
}

void cfg_print(const struct cfg_section *secs, size_t nsecs)
{
    for (size_t i = 0; i < nsecs; i++) {
        cfg_print_section(&secs[i]);
        for (size_t j = 0; j < secs[i].nkeys; j++)
            cfg_print_key(&secs[i], &secs[i].keys[j], NULL);
    }
}
