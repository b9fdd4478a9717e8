/*
 * print.c -- a protocol's tables as Markdown: what `ccsim protocol NAME`
 * prints and docs/protocols.md is made of. It prints the rows the runtime
 * executes, so the handout and the code cannot disagree.
 */
#include "cc_internal.h"

#include <string.h>

static void print_set(FILE *f, uint64_t bits, const char *const *names, const char *const *alias,
                      int n)
{
    bool first = true;
    for (int i = 0; i < n; i++) {
        if (!(bits & CC_BIT(i)))
            continue;
        fprintf(f, "%s%s", first ? "" : ", ", alias && alias[i] ? alias[i] : names[i]);
        first = false;
    }
}

static void print_rows(FILE *f, const struct cc_table *t, const char *const *states, int nstates,
                       const char *const *events, int nevents)
{
    fprintf(f, "| row | state | event | actions | next |\n|---|---|---|---|---|\n");
    for (size_t i = 0; i < t->nrows; i++) {
        const struct cc_row *r = &t->rows[i];
        fprintf(f, "| %zu | ", i + 1);
        print_set(f, r->states, states, t->state_alias, nstates);
        fprintf(f, " | ");
        print_set(f, r->events, events, NULL, nevents);
        fprintf(f, " | ");
        for (int a = 0; a < CC_MAX_ACTIONS && r->actions[a]; a++)
            fprintf(f, "%s%s", a ? ", " : "", r->actions[a]->name);
        const char *next = "(same)";
        if (r->next != CC_SAME)
            next = t->state_alias && t->state_alias[r->next] ? t->state_alias[r->next]
                                                             : states[r->next];
        fprintf(f, " | %s |\n", next);
    }
}

/* The union of the states, events and actions a table uses. */
static void used(const struct cc_table *t, uint64_t *states, uint64_t *events)
{
    *states = *events = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        *states |= t->rows[i].states;
        *events |= t->rows[i].events;
        if (t->rows[i].next != CC_SAME)
            *states |= CC_BIT(t->rows[i].next);
    }
}

static void print_legend(FILE *f, const char *what, uint64_t bits, const char *const *names,
                         const char *const *docs, const char *const *alias, int n)
{
    fprintf(f, "\n%s:\n\n", what);
    for (int i = 0; i < n; i++)
        if (bits & CC_BIT(i))
            fprintf(f, "- `%s`: %s\n", alias && alias[i] ? alias[i] : names[i], docs[i]);
}

static void print_actions(FILE *f, const struct cc_table *t)
{
    const struct cc_action *seen[64];
    size_t n = 0;
    fprintf(f, "\nActions:\n\n");
    for (size_t i = 0; i < t->nrows; i++) {
        for (int a = 0; a < CC_MAX_ACTIONS && t->rows[i].actions[a]; a++) {
            const struct cc_action *act = t->rows[i].actions[a];
            bool dup = false;
            for (size_t j = 0; j < n; j++)
                dup |= seen[j] == act;
            if (dup || n == SIM_COUNT_OF(seen))
                continue;
            seen[n++] = act;
            fprintf(f, "- `%s`: %s\n", act->name, act->doc);
        }
    }
}

void cc_protocol_print(const struct cc_protocol *p, FILE *f)
{
    uint64_t st, ev;
    fprintf(f, "# %s\n\n%s\n\n", p->name, p->summary);
    fprintf(f, "%s\n", p->reading);
    fprintf(f, "\n");
    fprintf(f, "A row applies to every state and every event it lists. `stall` parks the "
               "request until the line's state changes. A (state, event) pair that is in no "
               "row ends the run with an error naming line, node, state and event. Rows are "
               "numbered from 1 in each table, as `ccsim verify` names them.\n");

    fprintf(f, "\n## Cache controller\n\n");
    print_rows(f, &p->cache, cc_cache_state_names, CS_COUNT, cc_cache_event_names, CE_COUNT);
    used(&p->cache, &st, &ev);
    print_legend(f, "States", st, cc_cache_state_names, cc_cache_state_docs, NULL, CS_COUNT);
    print_legend(f, "Events", ev, cc_cache_event_names, cc_cache_event_docs, NULL, CE_COUNT);
    print_actions(f, &p->cache);

    fprintf(f, "\n## Home controller\n\n");
    print_rows(f, &p->home, cc_home_state_names, HS_COUNT, cc_home_event_names, HE_COUNT);
    used(&p->home, &st, &ev);
    print_legend(f, "States", st, cc_home_state_names, cc_home_state_docs, p->home.state_alias,
                 HS_COUNT);
    print_legend(f, "Events", ev, cc_home_event_names, cc_home_event_docs, NULL, HE_COUNT);
    print_actions(f, &p->home);
}

/* The first pair of rows of t that share a (state, event), into buf. */
static bool table_disjoint(const struct cc_table *t, const char *side, const char *const *states,
                           int nstates, const char *const *events, int nevents, char *buf,
                           size_t size)
{
    for (size_t i = 0; i < t->nrows; i++)
        for (size_t j = i + 1; j < t->nrows; j++) {
            uint64_t st = t->rows[i].states & t->rows[j].states;
            uint64_t ev = t->rows[i].events & t->rows[j].events;
            if (!st || !ev)
                continue;
            int s0 = __builtin_ctzll(st), e0 = __builtin_ctzll(ev);
            SIM_ASSERT(s0 < nstates && e0 < nevents);
            snprintf(buf, size, "%s rows %zu and %zu: state %s, event %s", side, i + 1, j + 1,
                     states[s0], events[e0]);
            return false;
        }
    return true;
}

bool cc_protocol_rows_disjoint(const struct cc_protocol *p, char *buf, size_t size)
{
    return table_disjoint(&p->cache, "cache", cc_cache_state_names, CS_COUNT, cc_cache_event_names,
                          CE_COUNT, buf, size) &&
           table_disjoint(&p->home, "home", cc_home_state_names, HS_COUNT, cc_home_event_names,
                          HE_COUNT, buf, size);
}
