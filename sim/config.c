/*
 * config.c -- libconfig files checked against a schema (struct cfg_section).
 *
 * Every message names the file and line of the offending setting; a value set
 * with --set names "--set" instead. All errors of a file are reported, not
 * only the first.
 */
#include "config.h"

#include <errno.h>
#include <libconfig.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct cfg_file {
    config_t cfg;
    char *path;
    char *dir;
};

/* ------------------------------------------------------------- helpers */

/* The file a setting came from, as the user can open it: an @include'd file
 * is named relative to the including file's folder. */
static void setting_file(const struct cfg_file *cf, const config_setting_t *s, char *buf,
                         size_t size)
{
    const char *f = config_setting_source_file(s);
    if (s->line == 0)
        snprintf(buf, size, "--set");
    else if (!f || strcmp(f, cf->path) == 0)
        snprintf(buf, size, "%s", cf->path);
    else if (f[0] == '/' || strcmp(cf->dir, ".") == 0)
        snprintf(buf, size, "%s", f);
    else
        snprintf(buf, size, "%s/%s", cf->dir, f);
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

struct cfg_file *cfg_open(const char *path, struct sim_diag *d)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        sim_diag_add(d, path, 0, "cannot open config: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    bool regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
    fclose(f);
    if (!regular) { /* a device or a pipe could be endless: never wait on one */
        sim_diag_add(d, path, 0, "cannot read config: not a regular file");
        return NULL;
    }

    struct cfg_file *cf = sim_xcalloc(1, sizeof *cf);
    cf->path = sim_xstrdup(path);
    cf->dir = sim_xstrdup(path);
    char *slash = strrchr(cf->dir, '/');
    if (slash)
        *slash = '\0';
    else
        strcpy(cf->dir, ".");

    config_init(&cf->cfg);
    config_set_include_dir(&cf->cfg, cf->dir);
    if (config_read_file(&cf->cfg, path) != CONFIG_TRUE) {
        const char *file = config_error_file(&cf->cfg);
        if (config_error_type(&cf->cfg) == CONFIG_ERR_FILE_IO)
            sim_diag_add(d, file ? file : path, 0, "cannot read config: %s",
                         config_error_text(&cf->cfg));
        else
            sim_diag_add(d, file ? file : path, config_error_line(&cf->cfg),
                         "syntax error: %s (expected `name = value;` or `name = { ... };`)",
                         config_error_text(&cf->cfg));
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

bool cfg_source(const struct cfg_file *cf, const char *path, char *buf, size_t size)
{
    config_setting_t *s = config_lookup(&cf->cfg, path);
    if (!s || s->line == 0)
        return false;
    setting_file(cf, s, buf, size);
    return true;
}

/* ------------------------------------------------------------- --set */

/* Copies a scalar or array setting src into parent under name. */
static bool copy_setting(config_setting_t *parent, const char *name, const config_setting_t *src)
{
    int type = config_setting_type(src);
    config_setting_t *dst = config_setting_add(parent, name, type);
    if (!dst)
        return false;
    switch (type) {
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

    config_t tmp;
    config_init(&tmp);
    char *text = sim_xmalloc(strlen(eq) + 16);
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
    for (int i = 0; i < n; i++) {
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
            sim_suggest(hint, sizeof hint, v, strlen(v), k->choices, n, "known:");
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

bool cfg_apply(struct cfg_file *cf, const struct cfg_section *secs, size_t nsecs,
               struct sim_diag *d)
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
        PUT("%g", *(const double *)f);
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
                PUT("%s%g", i ? ", " : "", ((const double *)f)[i]);
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

void cfg_print(const struct cfg_section *secs, size_t nsecs)
{
    for (size_t i = 0; i < nsecs; i++) {
        const struct cfg_section *sec = &secs[i];
        printf("%s:%s%s\n", sec->name, sec->help ? "  # " : "", sec->help ? sec->help : "");
        for (size_t j = 0; j < sec->nkeys; j++) {
            const struct cfg_key *k = &sec->keys[j];
            char val[512];
            format_value(val, sizeof val, k, sec->dst);
            printf("  %-18s %-14s%s%s\n", k->name, val, k->help ? "  # " : "",
                   k->help ? k->help : "");
        }
    }
}
