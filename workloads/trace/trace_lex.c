/*
 * trace_lex.c -- the trace lexer and the parser's token and error helpers.
 *
 * One source line at a time becomes tokens: decimal integers (64-bit signed,
 * overflow is an error), names ([A-Za-z_][A-Za-z0-9_]*, at most WL_MAX_NAME
 * characters), the punctuation of WL_PUNCTS (longest match first); spaces,
 * tabs and carriage returns separate tokens, `#` starts a comment. Any other
 * byte is an error. The lexer reads only s[0 .. len).
 */
#include "trace_impl.h"

#include <stdarg.h>
#include <string.h>

static const struct {
    enum wl_tok_kind kind;
    const char *text;
} puncts[] = {
#define WL_X_ROW(e, text) {WL_TK_##e, text},
    WL_PUNCTS(WL_X_ROW)
#undef WL_X_ROW
};

void wl_perr(struct wl_parser *ps, int col, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    wl_diag_at(ps->d, ps->p->file, ps->line, col, msg);
    if (++ps->errors >= WL_MAX_ERRORS && !ps->stop) {
        snprintf(msg, sizeof msg, "too many errors (WL_MAX_ERRORS = %d), giving up", WL_MAX_ERRORS);
        wl_diag_at(ps->d, ps->p->file, ps->line, col, msg);
        ps->stop = true;
    }
}

const char *wl_tok_describe(const struct wl_tok *t, char *buf, size_t size)
{
    if (t->kind == WL_TK_END)
        snprintf(buf, size, "the end of the line");
    else if (t->len > 40)
        snprintf(buf, size, "'%.40s...'", t->text);
    else
        snprintf(buf, size, "'%.*s'", t->len, t->text);
    return buf;
}

const char *wl_cmp_slip(const struct wl_parser *ps)
{
    const struct wl_tok *t = wl_peek(ps), *next = t + 1;
    if (t->kind != WL_TK_ASSIGN)
        return NULL;
    bool glued = next->kind != WL_TK_END && !next->space_before && next->len == 1;
    if (glued && next->text[0] == '>')
        return "'=>' (greater or equal is written '>=')";
    if (glued && next->text[0] == '<')
        return "'=<' (less or equal is written '<=')";
    return "'=' ('=' sets, '==' compares)";
}

bool wl_tok_is(const struct wl_tok *t, const char *word)
{
    size_t n = strlen(word);
    return t->kind == WL_TK_NAME && (size_t)t->len == n && memcmp(t->text, word, n) == 0;
}

bool wl_accept(struct wl_parser *ps, enum wl_tok_kind k)
{
    if (wl_peek(ps)->kind != k)
        return false;
    wl_take(ps);
    return true;
}

bool wl_expect(struct wl_parser *ps, enum wl_tok_kind k, const char *what)
{
    const struct wl_tok *t = wl_peek(ps);
    if (t->kind == k) {
        wl_take(ps);
        return true;
    }
    char buf[64];
    wl_perr(ps, t->col, "expected %s, found %s", what, wl_tok_describe(t, buf, sizeof buf));
    return false;
}

/* ------------------------------------------------------------- lexing */

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Each returns the length taken, or 0 after reporting an error. */
static size_t lex_int(struct wl_parser *ps, const char *s, size_t len, struct wl_tok *t)
{
    size_t i = 0;
    int64_t v = 0;
    bool overflow = false;
    for (; i < len && is_digit(s[i]); i++) {
        int dg = s[i] - '0';
        if (v > (INT64_MAX - dg) / 10)
            overflow = true;
        else
            v = v * 10 + dg;
    }
    size_t end = i;
    while (end < len && (is_alpha(s[end]) || is_digit(s[end])))
        end++;
    if (end > i) {
        wl_perr(ps, t->col, "bad number '%.*s' (numbers are decimal integers)",
                (int)(end > 40 ? 40 : end), s);
        return 0;
    }
    if (overflow) {
        wl_perr(ps, t->col, "integer '%.*s' is too large (at most %lld)", (int)(i > 40 ? 40 : i), s,
                (long long)INT64_MAX);
        return 0;
    }
    t->kind = WL_TK_INT;
    t->value = v;
    return i;
}

static size_t lex_name(struct wl_parser *ps, const char *s, size_t len, struct wl_tok *t)
{
    size_t i = 0;
    while (i < len && (is_alpha(s[i]) || is_digit(s[i])))
        i++;
    if (i > WL_MAX_NAME) {
        wl_perr(ps, t->col, "name '%.20s...' is longer than %d characters (WL_MAX_NAME)", s,
                WL_MAX_NAME);
        return 0;
    }
    t->kind = WL_TK_NAME;
    return i;
}

static size_t lex_punct(struct wl_parser *ps, const char *s, size_t len, struct wl_tok *t)
{
    for (size_t k = 0; k < SIM_COUNT_OF(puncts); k++) {
        size_t n = strlen(puncts[k].text);
        if (n <= len && memcmp(s, puncts[k].text, n) == 0) {
            t->kind = puncts[k].kind;
            return n;
        }
    }
    unsigned char c = (unsigned char)s[0];
    if (c > 32 && c < 127)
        wl_perr(ps, t->col, "unexpected character '%c'", c);
    else
        wl_perr(ps, t->col, "unexpected byte 0x%02x", c);
    return 0;
}

static size_t lex_token(struct wl_parser *ps, const char *s, size_t len, struct wl_tok *t)
{
    if (is_digit(s[0]))
        return lex_int(ps, s, len, t);
    if (is_alpha(s[0]))
        return lex_name(ps, s, len, t);
    return lex_punct(ps, s, len, t);
}

bool wl_lex_line(struct wl_parser *ps, const char *s, size_t len)
{
    size_t i = 0;
    bool space = true;
    ps->ntoks = 0;
    ps->pos = 0;
    while (i < len && s[i] != '#') {
        if (is_space(s[i])) {
            i++;
            space = true;
            continue;
        }
        struct wl_tok *t = &ps->toks[ps->ntoks];
        *t = (struct wl_tok){.col = (int)i + 1, .text = s + i, .space_before = space};
        size_t n = lex_token(ps, s + i, len - i, t);
        if (n == 0)
            return false;
        t->len = (int)n;
        i += n;
        ps->ntoks++;
        space = false;
    }
    ps->toks[ps->ntoks] = (struct wl_tok){.kind = WL_TK_END, .col = (int)i + 1, .text = s + i};
    return true;
}
