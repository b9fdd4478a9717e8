/*
 * test_seed001.c -- seed 001's shared-memory MPI transfer (mpi-shm): the
 * message arrives intact whatever the options, and the Bulldozer result of
 * Sec IV-E / Fig. 14 emerges as a relation between two simulated runs: with
 * the Owned-write write-back on, alternating the shared buffers' direction is
 * faster than reusing them the same way; with it off (Intel, older AMD) the
 * direction hardly matters.
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
    tcase_add_test(tc, test_refusals);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(seed001_suite());
}
