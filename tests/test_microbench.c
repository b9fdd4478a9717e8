/*
 * test_microbench.c -- the least-squares fit behind microbench's b + c n and
 * q + o N (and so behind validate's fitted parameters), on synthetic points.
 */
#include "microbench.h"
#include "testutil.h"

#include <math.h>

START_TEST(test_fit_exact_line)
{
    /* y = 320.5 + 56.2 x, the paper's KNC contention line (Table 2, E/E) */
    struct mb_point p[8];
    for (int i = 0; i < 8; i++)
        p[i] = (struct mb_point){i + 1, 320.5 + 56.2 * (i + 1)};
    double a, s;
    mb_fit(p, 8, &a, &s);
    ck_assert(fabs(a - 320.5) < 1e-9 && fabs(s - 56.2) < 1e-9);
}
END_TEST

START_TEST(test_fit_symmetric_noise)
{
    /* y = 10 + 2x with +1, -1 alternating on x = 1..4 (sum of noise 0, sum of
     * x*noise = 1 - 2 + 3 - 4 = -2): by hand, s = 2 + (-2 - 0) / (sum (x - 2.5)^2 = 5)
     * = 1.6 and a = mean(y) - s * 2.5 = 15 - 4 = 11. */
    struct mb_point p[4] = {{1, 13}, {2, 13}, {3, 17}, {4, 17}};
    double a, s;
    mb_fit(p, 4, &a, &s);
    ck_assert(fabs(s - 1.6) < 1e-9);
    ck_assert(fabs(a - 11.0) < 1e-9);
}
END_TEST

START_TEST(test_fit_one_point)
{
    struct mb_point p[1] = {{5, 42}};
    double a, s;
    mb_fit(p, 1, &a, &s);
    ck_assert(s == 0.0 && a == 42.0);
}
END_TEST

static Suite *microbench_suite(void)
{
    Suite *s = suite_create("microbench");
    TCase *tc = tcase_create("fit");
    tcase_add_test(tc, test_fit_exact_line);
    tcase_add_test(tc, test_fit_symmetric_noise);
    tcase_add_test(tc, test_fit_one_point);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(microbench_suite());
}
