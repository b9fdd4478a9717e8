/*
 * test_determinism.c -- a run is a pure function of (config, workload, seed):
 * every generator of gen_names (read at run time, so new generators are
 * covered), run twice with the ccsim binary on teach-xbar and on knc-5110p,
 * gives byte-identical JSON results once the wall-clock fields (wall_s,
 * events_per_s) are removed, and identical summaries; `ccsim stress` gives
 * identical output lines but for the wall time. The sanitizer pass
 * (tu_small_scale) leaves knc-5110p out.
 */
#include "testutil.h"
#include "core.h"
#include "gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ITERATIONS 2

static const char *const det_configs[] = {"teach-xbar", "knc-5110p", "scc"};
static const int det_threads[] = {4, 2}; /* the first count a generator takes */

static struct tu_run r1, r2;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "no JSON result %s", path);
    static char buf[2][65536];
    static int which;
    char *b = buf[which ^= 1];
    size_t n = fread(b, 1, sizeof buf[0] - 1, f);
    fclose(f);
    b[n] = '\0';
    return b;
}

/* Removes `"key": VALUE` (up to the next , or }) from s, in place. */
static void drop_key(char *s, const char *key)
{
    char *k = strstr(s, key);
    if (!k)
        return;
    char *end = k + strlen(key);
    while (*end && *end != ',' && *end != '}')
        end++;
    memmove(k, end, strlen(end) + 1);
}

/* Cuts every line holding `marker` at the marker (the wall-clock part). */
static void cut_at(char *s, const char *marker)
{
    char *m;
    while ((m = strstr(s, marker))) {
        char *eol = strchr(m, '\n');
        if (!eol)
            eol = m + strlen(m);
        memmove(m, eol, strlen(eol) + 1);
        s = m;
    }
}

static bool run_gen(struct tu_run *r, const char *cfg, const char *gen, int threads,
                    const char *json)
{
    tu_ccsim(r, "run -c %s/%s.cfg -w %s -t %d -i %d --json %s", CCSIM_CONFIGS, cfg, gen, threads,
             ITERATIONS, json);
    return !(r->status == 2 && strstr(r->err, "-w ") != NULL); /* refused: skip */
}

static void check_generator(const char *cfg, const char *gen)
{
    if (!strcmp(cfg, "scc") != !strncmp(gen, "scc-", 4))
        return; /* the SCC's collectives need it; the others need coherence */
    if (tu_small_scale() && strcmp(cfg, "knc-5110p") == 0)
        return; /* the sanitizer pass: teach-xbar runs every coherent generator */
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/%s-%s-a.json", tu_dir(), cfg, gen);
    snprintf(b, sizeof b, "%s/%s-%s-b.json", tu_dir(), cfg, gen);
    for (size_t i = 0; i < sizeof det_threads / sizeof det_threads[0]; i++) {
        if (!run_gen(&r1, cfg, gen, det_threads[i], a))
            continue;
        ck_assert_msg(r1.status != 2, "%s on %s: %s", gen, cfg, r1.err);
        run_gen(&r2, cfg, gen, det_threads[i], b);
        ck_assert_int_eq(r1.status, r2.status);
        char *ja = slurp(a), *jb = slurp(b);
        drop_key(ja, "\"wall_s\":");
        drop_key(ja, "\"events_per_s\":");
        drop_key(jb, "\"wall_s\":");
        drop_key(jb, "\"events_per_s\":");
        ck_assert_msg(strcmp(ja, jb) == 0, "%s on %s: JSON differs:\n%s\n%s", gen, cfg, ja, jb);
        cut_at(r1.out, "simulation: ");
        cut_at(r2.out, "simulation: ");
        ck_assert_msg(strcmp(r1.out, r2.out) == 0, "%s on %s: output differs", gen, cfg);
        return;
    }
    ck_abort_msg("%s on %s: refused at every thread count tried, nothing compared", gen, cfg);
}

/* Loop test: _i is the generator's index in gen_names. */
START_TEST(test_generator_twice)
{
    for (size_t c = 0; c < sizeof det_configs / sizeof det_configs[0]; c++)
        check_generator(det_configs[c], gen_names[_i]);
}
END_TEST

START_TEST(test_stress_twice)
{
    for (size_t c = 0; c < sizeof det_configs / sizeof det_configs[0]; c++) {
        tu_ccsim(&r1, "stress -c %s/%s.cfg --ops 3000 --seed 7", CCSIM_CONFIGS, det_configs[c]);
        tu_ccsim(&r2, "stress -c %s/%s.cfg --ops 3000 --seed 7", CCSIM_CONFIGS, det_configs[c]);
        ck_assert_msg(r1.status == 0, "%s: %s%s", det_configs[c], r1.out, r1.err);
        ck_assert_int_eq(r1.status, r2.status);
        ck_assert_msg(strstr(r1.out, " wall ") != NULL, "%s", r1.out);
        cut_at(r1.out, " wall ");
        cut_at(r2.out, " wall ");
        ck_assert_msg(strcmp(r1.out, r2.out) == 0, "%s: stress output differs:\n%s\n%s",
                      det_configs[c], r1.out, r2.out);
    }
}
END_TEST

int main(void)
{
    int ngen = 0;
    while (gen_names[ngen])
        ngen++;
    Suite *s = suite_create("determinism");
    TCase *tc = tcase_create("twice");
    tcase_add_loop_test(tc, test_generator_twice, 0, ngen);
    tcase_add_test(tc, test_stress_twice);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
