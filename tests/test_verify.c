/*
 * test_verify.c -- the Murphi model `ccsim protocol NAME --murphi` writes,
 * and `ccsim verify`'s input checks. (The model checking itself runs in
 * ctest's verify_NAME and verify_mutants_NAME: tests/CMakeLists.txt.)
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct tu_run r;

static const char *const tables[] = {"msi", "mesi", "mesif", "mesif-llc", "moesi", "gols"};

/* Every action a protocol's tables use is a procedure of its model, with
 * the body from the catalogue; the model is sized as asked. */
START_TEST(test_model_has_every_action)
{
    const char *name = tables[_i];
    tu_ccsim(&r, "protocol %s", name);
    ck_assert_int_eq(r.status, 0);
    static char markdown[65536];
    snprintf(markdown, sizeof markdown, "%s", r.out);
    tu_ccsim(&r, "protocol %s --murphi --caches 2 --lines 1", name);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "Cache: scalarset(NC)") && strstr(r.out, "NC: 2;"), "%s", name);
    ck_assert(strstr(r.out, "procedure cache_run(") && strstr(r.out, "procedure home_run("));
    ck_assert(strstr(r.out, "invariant \"single writer or many readers\""));
    int actions = 0;
    bool home = false;
    for (const char *p = markdown; (p = strchr(p, '\n')) != NULL; p++) {
        home |= strncmp(p + 1, "## Home controller", 18) == 0;
        char act[64], want[96];
        if (sscanf(p + 1, "- `%63[a-z_]`: ", act) != 1 || !strstr(p + 1, "`: "))
            continue;
        snprintf(want, sizeof want, "procedure %s_%s(", home ? "ha" : "ca", act);
        if (strstr(markdown, "Actions:") < p) { /* a legend entry of the actions */
            actions++;
            TU_CHECK(strstr(r.out, want) != NULL, "%s: no %s", name, want);
        }
    }
    ck_assert_int_gt(actions, 5);
}
END_TEST

/* MOESI's owned_write_writeback and a broadcast home are the model's
 * constants; two lines double the line range. */
START_TEST(test_model_options)
{
    tu_ccsim(&r, "protocol moesi --murphi --lines 2 --values 3");
    ck_assert_int_eq(r.status, 0);
    ck_assert(strstr(r.out, "NL: 2;") && strstr(r.out, "NV: 3;"));
    ck_assert(strstr(r.out, "probe_filter: true;"));
    ck_assert(strstr(r.out, "invariant \"at most one O copy\""));
    ck_assert(!strstr(r.out, "invariant \"at most one F copy\""));
    ck_assert(strstr(r.out, "RETRY: false;"));
    /* home.retry_cycles: a parked request goes back to the home's channel,
     * whose bound grows by a request per cache and line */
    tu_ccsim(&r, "protocol mesif --murphi --retry --caches 2");
    ck_assert_int_eq(r.status, 0);
    ck_assert(strstr(r.out, "RETRY: true;") && strstr(r.out, "QH: 7;"));
    ck_assert(strstr(r.out, "  if RETRY then\n    deliver_h(m);\n"));
}
END_TEST

START_TEST(test_bad_input)
{
    tu_ccsim(&r, "protocol scc --murphi");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "no table protocol"), "%s", r.err);
    tu_ccsim(&r, "protocol mesi --caches 2");
    ck_assert_int_eq(r.status, 2);
    tu_ccsim(&r, "protocol mesi --murphi --values 1");
    ck_assert_int_eq(r.status, 2);
    tu_ccsim(&r, "verify");
    ck_assert_int_eq(r.status, 2);
    tu_ccsim(&r, "verify nosuch");
    ck_assert_int_eq(r.status, 2);
    tu_ccsim(&r, "verify mesi --caches 9");
    ck_assert_int_eq(r.status, 2);
    tu_ccsim(&r, "verify mesi --queue 1"); /* a channel of one has no room to shift */
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "from 2 to 64"), "%s", r.err);
    tu_ccsim(&r, "protocol mesi --murphi --queue 5");
    ck_assert_msg(r.status == 0 && strstr(r.out, "  QC: 5;") && strstr(r.out, "  QH: 5;"), "%s",
                  r.err);
    tu_ccsim(&r, "verify mesi --mutant 9999");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "mutants (0 to"), "%s", r.err);
    /* homes a config may not build: a model of one would check what nobody runs */
    tu_ccsim(&r, "verify gols --broadcast --caches 2");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--broadcast: home.probe_filter = false: gols"), "%s", r.err);
    tu_ccsim(&r, "verify mesif-llc --broadcast --caches 2");
    ck_assert_int_eq(r.status, 2);
    tu_ccsim(&r, "verify mesi --owned-write-writeback --caches 2");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "moesi protocol only"), "%s", r.err);
}
END_TEST

/* Without rumur the verifier says what is missing and how to get it. */
START_TEST(test_without_rumur)
{
    char cmd[1024], out[512];
    snprintf(out, sizeof out, "%s/err.txt", tu_dir());
    snprintf(cmd, sizeof cmd, "env PATH=/nonexistent %s verify msi --caches 2 >/dev/null 2>%s",
             CCSIM_BIN, out);
    int st = system(cmd);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 2);
    FILE *f = fopen(out, "r");
    ck_assert_ptr_nonnull(f);
    char buf[512] = "";
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    ck_assert_msg(strstr(buf, "rumur is not installed"), "%s", buf);
}
END_TEST

/* The mutants cover the four kinds on every protocol. */
START_TEST(test_mutant_kinds)
{
    tu_ccsim(&r, "verify %s --mutants", tables[_i]);
    ck_assert_int_eq(r.status, 0);
    ck_assert(strstr(r.out, ": stall row removed\n"));
    ck_assert(strstr(r.out, ": missing invalidation\n"));
    ck_assert(strstr(r.out, ": ack not counted\n"));
    ck_assert(strstr(r.out, ": wrong next state\n"));
}
END_TEST

static Suite *verify_suite(void)
{
    Suite *s = suite_create("verify");
    TCase *tc = tcase_create("model");
    tcase_add_loop_test(tc, test_model_has_every_action, 0, (int)SIM_COUNT_OF(tables));
    tcase_add_test(tc, test_model_options);
    tcase_add_test(tc, test_bad_input);
    tcase_add_test(tc, test_without_rumur);
    tcase_add_loop_test(tc, test_mutant_kinds, 0, (int)SIM_COUNT_OF(tables));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(verify_suite());
}
