/*
 * test_seed001.c -- seed 001's shared-memory MPI transfer (mpi-shm): the
 * message arrives intact whatever the options, and the Bulldozer result of
 * Sec IV-E / Fig. 14 emerges as a relation between two simulated runs: with
 * the Owned-write write-back on, alternating the shared buffers' direction is
 * faster than reusing them the same way; with it off (Intel, older AMD) the
 * direction hardly matters. And Fig. 13's store to an Owned line against a
 * store to its Shared copy.
 */
#include "cli.h"
#include "testutil.h"

#include <stdio.h>
#include <string.h>

/* The median of spec for 2 threads, checked (testutil's tu_median). */
static double median_of(const struct machine_cfg *m, const char *spec, int iters)
{
    return tu_median(m, spec, 2, iters, true);
}

START_TEST(test_every_option_delivers_the_message)
{
    static const char *const specs[] = {
        "mpi-shm:bytes=4096,chunk=1024,buffers=2",
        "mpi-shm:bytes=5000,chunk=1024,buffers=3,reuse=alternate",
        "mpi-shm:bytes=8192,chunk=2048,recv=cold,send=cold",
        "mpi-shm:bytes=8192,chunk=4096,buffers=1,flush=sender",
        "mpi-shm:bytes=65536",
    };
    static const char *const configs[] = {"teach-xbar", "snb-e5-2660", "opteron-6272"};
    for (size_t c = 0; c < SIM_COUNT_OF(configs); c++) {
        struct machine_cfg m;
        tu_load_config(configs[c], NULL, 0, &m);
        for (size_t s = 0; s < SIM_COUNT_OF(specs); s++)
            median_of(&m, specs[s], 4);
    }
}
END_TEST

START_TEST(test_alternating_reuse_on_bulldozer)
{
    struct machine_cfg on, off;
    const char *no_wb[] = {"home.owned_write_writeback=false"};
    tu_load_config("opteron-6272", NULL, 0, &on);
    tu_load_config("opteron-6272", no_wb, 1, &off);
    const char *same = "mpi-shm:bytes=131072,reuse=same";
    const char *alt = "mpi-shm:bytes=131072,reuse=alternate";
    double s_on = median_of(&on, same, 8), a_on = median_of(&on, alt, 8);
    double s_off = median_of(&off, same, 8), a_off = median_of(&off, alt, 8);
    /* Fig. 14: faster in alternating direction (5 to 50 %) */
    ck_assert_msg(a_on < 0.95 * s_on, "owned write-back on: alternate %.0f ns, same %.0f ns", a_on,
                  s_on);
    /* without the write-back the direction does not matter much */
    ck_assert_msg(a_off > 0.97 * s_off && a_off < 1.03 * s_off,
                  "owned write-back off: alternate %.0f ns, same %.0f ns", a_off, s_off);
}
END_TEST

/* Fig. 13 (Sec IV-E): a store to the Owned copy of a line, with a Shared
 * copy in another core, against a store to that Shared copy; `who` is the
 * writer (0: the Owned holder, core 0; 1: the sharer on core `peer`). The
 * median of the store (ns). */
static double store_hit(const struct machine_cfg *m, int who, int peer)
{
    char text[512];
    snprintf(text, sizeof text,
             "ccsim-trace 1\nthreads 2\npin 0 %d\nline x home=0\nfor it 0..20 {\n"
             "  all: sync\n  0: write x it+1\n  all: sync\n  1: read x\n  all: sync\n"
             "  %d: write x it+100\n  %d: mark done\n}\n",
             peer, who, who);
    struct core_result r;
    struct sim_diag d;
    sim_diag_init(&d);
    tu_run_text(m, "fig13.trace", text, &r, &d);
    ck_assert_msg(r.value_errors == 0 && !r.deadlock, "%s", d.text);
    double t = r.latency.median;
    core_result_free(&r);
    return t;
}

/* Inside a socket writing the Shared copy is much faster (the paper: 3x)
 * with Bulldozer's write-back of the Owned line, and the same without it.
 * Between sockets the paper has 4x; here they tie (README: not reproduced
 * there), which is asserted as it stands. */
START_TEST(test_store_owned_slower_than_shared)
{
    struct machine_cfg on, off;
    const char *no_wb[] = {"home.owned_write_writeback=false"};
    tu_load_config("opteron-6272", NULL, 0, &on);
    tu_load_config("opteron-6272", no_wb, 1, &off);
    double o = store_hit(&on, 0, 1), sh = store_hit(&on, 1, 1);
    ck_assert_msg(o > 2 * sh, "inside a socket: Owned %.1f ns, Shared %.1f ns", o, sh);
    double o_off = store_hit(&off, 0, 1), s_off = store_hit(&off, 1, 1);
    ck_assert_msg(o_off < 1.1 * s_off && s_off < 1.1 * o_off, "no write-back: %.1f, %.1f ns", o_off,
                  s_off);
    double ox = store_hit(&on, 0, 16), sx = store_hit(&on, 1, 16);
    ck_assert_msg(ox < 1.2 * sx && sx < 1.2 * ox, "between sockets: Owned %.1f, Shared %.1f ns", ox,
                  sx);
}
END_TEST

START_TEST(test_refusals)
{
    struct sim_diag d;
    sim_diag_init(&d);
    ck_assert(gen_trace("mpi-shm:nt=sender", 2, 2, NULL, &d) == NULL);
    ck_assert_msg(strstr(d.text, "non-temporal stores") != NULL, "%s", d.text);
    sim_diag_init(&d);
    ck_assert(gen_trace("mpi-shm", 3, 2, NULL, &d) == NULL);
    ck_assert_msg(strstr(d.text, "needs exactly 2 threads") != NULL, "%s", d.text);
    sim_diag_init(&d);
    ck_assert(gen_trace("mpi-shm:reuse=sideways", 2, 2, NULL, &d) == NULL);
    ck_assert_msg(strstr(d.text, "same or alternate") != NULL, "%s", d.text);
}
END_TEST

static Suite *seed001_suite(void)
{
    Suite *s = suite_create("seed001");
    TCase *tc = tcase_create("mpi-shm");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_every_option_delivers_the_message);
    tcase_add_test(tc, test_alternating_reuse_on_bulldozer);
    tcase_add_test(tc, test_store_owned_slower_than_shared);
    tcase_add_test(tc, test_refusals);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(seed001_suite());
}
