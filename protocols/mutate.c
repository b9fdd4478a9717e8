/*
 * mutate.c -- single-row mutations of a protocol's tables, to show that
 * the model checker bites (`ccsim verify NAME --mutant K`): each mutant is
 * a copy of the protocol with one row changed in one way:
 *   - stall row removed: a row that parks requests is gone, so its cells
 *     have no row;
 *   - missing invalidation: a home row forgets inv_sharers (or
 *     inv_sharers_but_supplier, inv_sharers_ack_requester);
 *   - ack not counted: a home row forgets count_answer;
 *   - wrong next state: a row leaves the line in the state it met.
 * Mutants are numbered in table order (cache rows, then home rows), kind
 * by kind within a row.
 */
#include "cc_internal.h"

#include <stdlib.h>
#include <string.h>

enum kind { K_STALL, K_INV, K_COUNT, K_NEXT, K_KINDS };

static const char *const kind_names[K_KINDS] = {"stall row removed", "missing invalidation",
                                                "ack not counted", "wrong next state"};

static bool has(const struct cc_row *r, const struct cc_action *a)
{
    for (int i = 0; i < CC_MAX_ACTIONS && r->actions[i]; i++)
        if (r->actions[i] == a)
            return true;
    return false;
}

static bool applies(const struct cc_row *r, bool home, enum kind k)
{
    switch (k) {
    case K_STALL:
        return has(r, home ? &hc_act_stall : &cc_act_stall);
    case K_INV:
        return home && (has(r, &hc_act_inv_sharers) || has(r, &hc_act_inv_sharers_but_supplier) ||
                        has(r, &hc_act_inv_sharers_ack_requester));
    case K_COUNT:
        return home && has(r, &hc_act_count_answer);
    default:
        return r->next != CC_SAME;
    }
}

/* Mutant i's table side, row and kind; false if there is no mutant i. */
static bool locate(const struct cc_protocol *p, int i, bool *home, size_t *row, enum kind *k)
{
    for (int side = 0; side < 2; side++) {
        const struct cc_table *t = side ? &p->home : &p->cache;
        for (size_t r = 0; r < t->nrows; r++)
            for (int kk = 0; kk < K_KINDS; kk++)
                if (applies(&t->rows[r], side, kk) && i-- == 0) {
                    *home = side;
                    *row = r;
                    *k = kk;
                    return true;
                }
    }
    return false;
}

int cc_mutant_count(const struct cc_protocol *p)
{
    int n = 0;
    bool home;
    size_t row;
    enum kind k;
    while (locate(p, n, &home, &row, &k))
        n++;
    return n;
}

static void drop_action(struct cc_row *r, const struct cc_action *a)
{
    int j = 0;
    for (int i = 0; i < CC_MAX_ACTIONS && r->actions[i]; i++)
        if (r->actions[i] != a)
            r->actions[j++] = r->actions[i];
    while (j < CC_MAX_ACTIONS)
        r->actions[j++] = NULL;
}

static void mutate(struct cc_protocol *m, size_t row, bool home, enum kind k)
{
    struct cc_table *t = home ? &m->home : &m->cache;
    struct cc_row *rows = (struct cc_row *)t->rows, *r = &rows[row];
    switch (k) {
    case K_STALL:
        memmove(r, r + 1, (t->nrows - row - 1) * sizeof *r);
        t->nrows--;
        m->removed[home] = row + 1;
        return;
    case K_INV:
        drop_action(r, &hc_act_inv_sharers);
        drop_action(r, &hc_act_inv_sharers_but_supplier);
        drop_action(r, &hc_act_inv_sharers_ack_requester);
        return;
    case K_COUNT:
        drop_action(r, &hc_act_count_answer);
        return;
    default:
        r->next = CC_SAME;
        (void)home;
        return;
    }
}

static void copy_table(struct cc_table *dst, const struct cc_table *src)
{
    struct cc_row *rows = sim_xmalloc(src->nrows * sizeof *rows);
    memcpy(rows, src->rows, src->nrows * sizeof *rows);
    *dst = *src;
    dst->rows = rows;
}

struct cc_protocol *cc_mutant_make(const struct cc_protocol *p, int i, char *what, size_t size)
{
    bool home;
    size_t row;
    enum kind k;
    if (!locate(p, i, &home, &row, &k))
        return NULL;
    struct cc_protocol *m = sim_xmalloc(sizeof *m);
    *m = *p;
    copy_table(&m->cache, &p->cache);
    copy_table(&m->home, &p->home);
    snprintf(what, size, "%s %s row %zu: %s", p->name, home ? "home" : "cache", row + 1,
             kind_names[k]);
    mutate(m, row, home, k);
    return m;
}

void cc_mutant_free(struct cc_protocol *m)
{
    if (!m)
        return;
    free((void *)m->cache.rows);
    free((void *)m->home.rows);
    free(m);
}
