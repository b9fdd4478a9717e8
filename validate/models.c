/*
 * models.c -- the equations of seed 000 as the paper writes them (Sec 2.2.2
 * Eq 2; Table 5 Eq 6-13; Table 6 Eq 14-25; Sec 3.3 Eq 27-29, 31). Each
 * function names its equations; n = s + q is the number of notifiers (m2o)
 * or readers (o2m), not counting t_0. Nothing here feeds the simulator.
 */
#include "validate.h"

#include <math.h>

double val_contention(const struct val_params *p, int nth)
{
    return p->b + p->c * nth; /* Eq 2: T_C(n_th) = b + c n_th */
}

int val_diss_rounds(int n, int m)
{
    int r = 0;
    for (long long reach = 1; reach < n; reach *= m + 1)
        r++; /* Eq 27: r = ceil(log_{m+1} n), (m+1)^r >= n */
    return r;
}

struct val_band val_m2o_same(const struct val_params *p, int s, int q)
{
    int n = s + q;
    if (q == 0)
        return (struct val_band){
            p->r_i + n * p->r_r,    /* Eq 6: R_I + n R_R */
            p->r_i + 2 * n * p->r_r /* Eq 8: R_I + 2n R_R */
        };
    return (struct val_band){
        p->r_i + s * p->r_r + q * p->r_q, /* Eq 7: R_I + s R_R + q R_Q */
        p->r_i + 2 * (s + q) * p->r_q     /* Eq 9: R_I + 2(s+q) R_Q */
    };
}

struct val_band val_m2o_diff(const struct val_params *p, int s, int q)
{
    int n = s + q;
    if (q == 0)
        return (struct val_band){
            p->r_i + n * p->r_r,        /* Eq 10: R_I + n R_R */
            n * p->r_i + 2 * n * p->r_r /* Eq 12: n R_I + 2n R_R */
        };
    return (struct val_band){
        p->r_i + s * p->r_r + q * p->r_q,                /* Eq 11: R_I + s R_R + q R_Q */
        (s + q) * p->r_i + 2 * (s * p->r_r + q * p->r_q) /* Eq 13: (s+q) R_I + 2(s R_R + q R_Q) */
    };
}

struct val_band val_o2m_same(const struct val_params *p, int s, int q, bool phi)
{
    int n = s + q;
    if (phi)
        return (struct val_band){
            p->r_i + val_contention(p, n), /* Eq 16: R_I + T_C(n_th) */
            p->r_i + n * p->r_r            /* Eq 19: R_I + n_th R_R */
        };
    if (q == 0)
        return (struct val_band){
            p->r_i + p->r_r,    /* Eq 14: R_I + R_R */
            p->r_i + n * p->r_r /* Eq 17: R_I + n R_R */
        };
    return (struct val_band){
        p->r_i + p->r_q,             /* Eq 15: R_I + R_Q */
        p->r_i + n * p->r_r + p->r_q /* Eq 18: R_I + n R_R + R_Q */
    };
}

struct val_band val_o2m_diff(const struct val_params *p, int s, int q, bool phi)
{
    int n = s + q;
    if (phi)
        return (struct val_band){
            n * p->r_i + p->r_r,    /* Eq 22: n_th R_I + R_R */
            p->r_i + 2 * n * p->r_r /* Eq 25: R_I + 2 n_th R_R */
        };
    if (q == 0)
        return (struct val_band){
            n * p->r_i + p->r_r,    /* Eq 20: n R_I + R_R */
            p->r_i + 2 * s * p->r_r /* Eq 23: R_I + 2s R_R */
        };
    return (struct val_band){
        (s + q) * p->r_i + p->r_q,                       /* Eq 21: (s+q) R_I + R_Q */
        (s + q) * p->r_i + 2 * (s * p->r_r + q * p->r_q) /* Eq 24: (s+q) R_I + 2(s R_R + q R_Q) */
    };
}

struct val_band val_diss(const struct val_params *p, int n, int m, bool phi)
{
    int r = val_diss_rounds(n, m);
    /* Eq 27: r (R_I + m R_R); Eq 29 (Xeon Phi): r (R_I + m T_C(m)) */
    double per_peer = phi ? val_contention(p, m) : p->r_r;
    return (struct val_band){
        r * (p->r_i + m * per_peer),
        r * (p->r_i + 2 * p->r_r) * (m + 1) /* Eq 28: r (R_I + 2 R_R)(m + 1) */
    };
}

struct val_band val_diss_socketroot(const struct val_params *p, int n0, int n1, int m)
{
    struct val_band a = val_diss(p, n0, m, false), b = val_diss(p, n1, m, false);
    return (struct val_band){
        fmax(a.min, b.min) + p->r_i + p->r_q, /* Eq 31: max T_diss,min + R_I + R_Q */
        fmax(a.max, b.max) + 2 * p->r_i +
            (n0 + n1) * p->r_q /* Eq 31: max T_diss,max + 2R_I + nR_Q */
    };
}
