/*
 * ess_dopri.c - the integration step of the ESS integrator with
 * options.method = HES_ESS_DOPRI5: the explicit Runge-Kutta pair of Dormand
 * and Prince 5(4) with error control (Hairer, Norsett and Wanner, Solving
 * ODEs I, Sec. II.4-5, their DOPRI5: the same tableau, error estimate and
 * 4th-order continuous extension) in place of CVODES.
 *
 * A one-step method restarts for free: after a projection or a sign change
 * the next step starts with the last proposed step size (one evaluation of
 * f for the new first stage), where a multistep method restarts at order 1
 * with a small step.  Root slots are those of ess.c (e->watch): slot i is
 * h_i + eps rising, slot m + i is h_i either way.  After each accepted step
 * the slots are compared at its two ends (a slot exactly at zero at the
 * start is skipped for that step, as CVODES does); when some changed sign,
 * the earliest crossing among those slots (a slot that crosses twice
 * within one step is not seen, as with CVODES) is bracketed on the
 * continuous extension
 * (secant steps on the slot whose estimated root comes first, bisection
 * when the secant stalls) to (|t| + |step|) 100 DBL_EPSILON, as CVODES's
 * root tolerance, and the step ends at the bracket's upper end, where the
 * slots of the roots (e->roots: +1 rising, -1 falling) have crossed.
 * Output times within the step come from the continuous extension.  An
 * explicit method: on a stiff field its steps become small (the run's
 * max_wall_time then stops it).
 * With options.jacobian the state is augmented with the n x n sensitivity
 * matrix S = d x / d x(start of the integration step) and its variational
 * equation S' = (df/dx) S (the same stages, the error control and the
 * continuous extension over both), so that ess.c's step_jacobian gets
 * A = S at the step's end (e->A) as from CVODES's sensitivities.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "contact/contact.h"

#define C2 (1.0 / 5)
#define C3 (3.0 / 10)
#define C4 (4.0 / 5)
#define C5 (8.0 / 9)
#define A21 (1.0 / 5)
#define A31 (3.0 / 40)
#define A32 (9.0 / 40)
#define A41 (44.0 / 45)
#define A42 (-56.0 / 15)
#define A43 (32.0 / 9)
#define A51 (19372.0 / 6561)
#define A52 (-25360.0 / 2187)
#define A53 (64448.0 / 6561)
#define A54 (-212.0 / 729)
#define A61 (9017.0 / 3168)
#define A62 (-355.0 / 33)
#define A63 (46732.0 / 5247)
#define A64 (49.0 / 176)
#define A65 (-5103.0 / 18656)
#define A71 (35.0 / 384)
#define A73 (500.0 / 1113)
#define A74 (125.0 / 192)
#define A75 (-2187.0 / 6784)
#define A76 (11.0 / 84)
#define E1 (71.0 / 57600)
#define E3 (-71.0 / 16695)
#define E4 (71.0 / 1920)
#define E5 (-17253.0 / 339200)
#define E6 (22.0 / 525)
#define E7 (-1.0 / 40)
#define D1 (-12715105075.0 / 11282082432.0)
#define D3 (87487479700.0 / 32700410799.0)
#define D4 (-10690763975.0 / 1880347072.0)
#define D5 (701980252875.0 / 199316789632.0)
#define D6 (-1453857185.0 / 822651844.0)
#define D7 (69997945.0 / 29380423.0)

/* The value of root slot r from the event values h. */
static double slot(const hes_ess *e, const double *h, int r)
{
    return r < e->m ? h[r] + e->eps : h[r - e->m];
}

/* The direction in which watched slot r crosses between the event values a
 * and b (+1 rising, -1 falling), or 0. */
static int crossed(const hes_ess *e, const double *a, const double *b, int r)
{
    double ga = slot(e, a, r), gb = slot(e, b, r);
    if (ga < 0 && gb >= 0)
        return 1;
    if (r >= e->m && ga > 0 && gb <= 0)
        return -1;
    return 0;
}

/* The first n components of the state (of dimension nn) at
 * t = told + theta hstep from the continuous extension */
static void dense(int n, size_t nn, const double *rc, double theta, double *x)
{
    double th1 = 1 - theta;
    const double *r1 = rc, *r2 = rc + nn, *r3 = rc + 2 * nn, *r4 = rc + 3 * nn, *r5 = rc + 4 * nn;
    for (int k = 0; k < n; k++)
        x[k] = r1[k] + theta * (r2[k] + th1 * (r3[k] + theta * (r4[k] + th1 * r5[k])));
}

static double wrms(int n, const double *v, const double *y0, const double *y1, double rtol,
                   double atol)
{
    double s = 0;
    for (int k = 0; k < n; k++) {
        double sc = atol + rtol * fmax(fabs(y0[k]), y1 ? fabs(y1[k]) : 0);
        s += (v[k] / sc) * (v[k] / sc);
    }
    return sqrt(s / n);
}

/* The right-hand side: f(x, s), and with the sensitivities (aug) the
 * variational equation S' = df/dx S on the n x n matrix after x. */
static hes_status rhs(hes_ess *e, const double *y, double *out, int aug)
{
    hes_status st = hes__ess_f(e, y, e->s, out);
    if (st != HES_OK || !aug)
        return st;
    int n = e->n;
    if ((st = hes__ess_f_dx(e, y, e->s, e->DG)) != HES_OK)
        return st;
    hes__matmul(n, n, n, e->DG, y + n, out + n);
    return HES_OK;
}

hes_status hes__ess_dopri(hes_ess *e, const hes_ess_options *o, double *t, double t_end,
                          hes_ess_result *res, int *k_out, int *ended)
{
    int n0 = e->n, m = e->m, aug = o->jacobian != 0;
    int n = aug ? n0 * (n0 + 1) : n0;   /* the integrated dimension */
    size_t N = (size_t)n;
    if (e->dp_cap < 15 * N) { /* workspaces, grown on first use */
        double *w = realloc(e->dp_k, 15 * N * sizeof *w);
        if (!w)
            return hes__ess_fail(e, HES_ENOMEM, "out of memory for the DOPRI5 workspace");
        e->dp_k = w;
        e->dp_cap = 15 * N;
    }
    if (!e->dp_h0 && !(e->dp_h0 = malloc(5 * (size_t)m * sizeof *e->dp_h0)))
        return hes__ess_fail(e, HES_ENOMEM, "out of memory for the DOPRI5 workspace");
    e->dp_hm = e->dp_h0 + 4 * (size_t)m;
    if (!e->dp_cand && !(e->dp_cand = malloc(2 * (size_t)m * sizeof *e->dp_cand)))
        return hes__ess_fail(e, HES_ENOMEM, "out of memory for the DOPRI5 workspace");
    e->dp_y = e->dp_k + 14 * N;
    double *k1 = e->dp_k, *k2 = k1 + N, *k3 = k2 + N, *k4 = k3 + N, *k5 = k4 + N,
           *k6 = k5 + N, *k7 = k6 + N, *y1 = k7 + N, *yt = y1 + N, *rc = yt + N;
    double *h0 = e->dp_h0, *h1 = h0 + m, *hm = h1 + m, *hl = hm + m;
    double *y = e->dp_y, rtol = o->rtol, atol = o->atol;
    hes_status st;
    *ended = -1;
    memcpy(y, e->x, (size_t)n0 * sizeof *y);
    if (aug) { /* S = I at the start of the integration step */
        memset(y + n0, 0, (size_t)n0 * (size_t)n0 * sizeof *y);
        for (int k = 0; k < n0; k++)
            y[n0 + k + (size_t)k * n0] = 1;
    }
    if ((st = rhs(e, y, k1, aug)) != HES_OK || (st = hes__ess_h(e, y, h0)) != HES_OK)
        return st;
    double hs = e->dp_step;
    if (!(hs > 0)) { /* Hairer's first guess: 0.01 |y| / |f| */
        double d0 = wrms(n, y, y, NULL, rtol, atol), d1 = wrms(n, k1, y, NULL, rtol, atol);
        hs = d0 < 1e-5 || d1 < 1e-5 ? 1e-6 : 0.01 * d0 / d1;
        hs = fmin(hs, t_end - *t);
    }
    int rejected = 0;
    for (long step = 0;; step++) {
        if ((step & 1023) == 1023 && hes__monotonic_seconds() > e->deadline)
            return hes__ess_fail(e, HES_ESOLVER, "the ESS integrator exceeded its wall-time "
                                 "budget of %g s at t = %.10g (DOPRI5, %ld steps in this "
                                 "integration step: a stiff field?)", o->max_wall_time, *t,
                                 step);
        double tt = *t, h = hs, hprop = hs, rest = t_end - tt;
        int last = 0;
        if (h >= rest * (1 - 1e-12)) {
            h = rest;
            last = 1;
        }
        if (!(h > 16 * DBL_EPSILON * fmax(1, fabs(tt))))
            return hes__ess_fail(e, HES_ESOLVER, "DOPRI5: the step size %.3g at t = %.10g is "
                                 "too small for the tolerances", h, tt);
        for (int k = 0; k < n; k++) yt[k] = y[k] + h * A21 * k1[k];
        if ((st = rhs(e, yt, k2, aug)) != HES_OK) return st;
        for (int k = 0; k < n; k++) yt[k] = y[k] + h * (A31 * k1[k] + A32 * k2[k]);
        if ((st = rhs(e, yt, k3, aug)) != HES_OK) return st;
        for (int k = 0; k < n; k++) yt[k] = y[k] + h * (A41 * k1[k] + A42 * k2[k] + A43 * k3[k]);
        if ((st = rhs(e, yt, k4, aug)) != HES_OK) return st;
        for (int k = 0; k < n; k++)
            yt[k] = y[k] + h * (A51 * k1[k] + A52 * k2[k] + A53 * k3[k] + A54 * k4[k]);
        if ((st = rhs(e, yt, k5, aug)) != HES_OK) return st;
        for (int k = 0; k < n; k++)
            yt[k] = y[k] + h * (A61 * k1[k] + A62 * k2[k] + A63 * k3[k] + A64 * k4[k] +
                                A65 * k5[k]);
        if ((st = rhs(e, yt, k6, aug)) != HES_OK) return st;
        for (int k = 0; k < n; k++)
            y1[k] = y[k] + h * (A71 * k1[k] + A73 * k3[k] + A74 * k4[k] + A75 * k5[k] +
                                A76 * k6[k]);
        if ((st = rhs(e, y1, k7, aug)) != HES_OK) return st;
        for (int k = 0; k < n; k++)
            yt[k] = h * (E1 * k1[k] + E3 * k3[k] + E4 * k4[k] + E5 * k5[k] + E6 * k6[k] +
                         E7 * k7[k]);
        double err = wrms(n, yt, y, y1, rtol, atol);
        double fac = err > 0 ? 0.9 * pow(err, -0.2) : 10;
        fac = fmin(10, fmax(0.2, fac));
        if (!(err <= 1)) { /* rejected */
            hs = h * fmin(1, fac);
            rejected = 1;
            continue;
        }
        hs = rejected ? fmin(h, h * fac) : h * fac;
        if (last)
            hs = fmax(hs, hprop);  /* a step cut at t_end does not shrink the next */
        rejected = 0;
        /* continuous extension */
        for (int k = 0; k < n; k++) {
            double yd = y1[k] - y[k], bs = h * k1[k] - yd;
            rc[k] = y[k];
            rc[N + k] = yd;
            rc[2 * N + k] = bs;
            rc[3 * N + k] = yd - h * k7[k] - bs;
            rc[4 * N + k] = h * (D1 * k1[k] + D3 * k3[k] + D4 * k4[k] + D5 * k5[k] +
                                 D6 * k6[k] + D7 * k7[k]);
        }
        if ((st = hes__ess_h(e, y1, h1)) != HES_OK)
            return st;
        int nc = 0, *cand = e->dp_cand;   /* the slots crossed over the step */
        for (int r = 0; r < 2 * m; r++)
            if (e->watch[r] && crossed(e, h0, h1, r))
                cand[nc++] = r;
        double tstop = tt + h;
        if (nc > 0) { /* the earliest crossing on the continuous extension */
            double tlo = 0, thi = 1, tol = 100 * DBL_EPSILON * (fabs(tt) + fabs(h)) / h;
            int side = 0, same = 0;
            memcpy(hl, h0, (size_t)m * sizeof *hl);
            memcpy(hm, h1, (size_t)m * sizeof *hm);   /* hm: at thi */
            for (int it = 0; it < 200 && thi - tlo > tol; it++) {
                double frac = 1;
                for (int q = 0; q < nc; q++) {
                    int r = cand[q];
                    if (!crossed(e, hl, hm, r))
                        continue;
                    double ga = slot(e, hl, r), gb = slot(e, hm, r);
                    double fr = ga / (ga - gb);
                    if (fr < frac)
                        frac = fr;
                }
                if (same >= 2)
                    frac = 0.5;
                frac = fmin(0.99, fmax(0.01, frac));
                double th = tlo + frac * (thi - tlo);
                dense(n0, N, rc, th, yt);
                if ((st = hes__ess_h(e, yt, e->dp_hm)) != HES_OK)
                    return st;
                int c = 0;
                for (int q = 0; q < nc && !c; q++)
                    c = crossed(e, hl, e->dp_hm, cand[q]);
                int sd = c ? 1 : -1;
                same = sd == side ? same + 1 : 0;
                side = sd;
                if (c) {
                    thi = th;
                    memcpy(hm, e->dp_hm, (size_t)m * sizeof *hm);
                } else {
                    tlo = th;
                    memcpy(hl, e->dp_hm, (size_t)m * sizeof *hl);
                }
                if (same >= 3)
                    same = 0;
            }
            memset(e->roots, 0, 2 * (size_t)m * sizeof *e->roots);
            for (int q = 0; q < nc; q++)
                e->roots[cand[q]] = crossed(e, hl, hm, cand[q]);
            for (int r = 0; r < 2 * m && *ended < 0; r++)
                if (e->roots[r])
                    *ended = r;
            tstop = thi >= 1 ? tt + h : tt + thi * h;
            if (thi < 1)
                dense(n, N, rc, thi, y1);
        }
        for (; *k_out < o->n_out && o->t_out[*k_out] < t_end && o->t_out[*k_out] <= tstop;
             ++*k_out)
            dense(n0, N, rc, (o->t_out[*k_out] - tt) / h, res->x_out + (size_t)(*k_out) * n0);
        memcpy(y, y1, N * sizeof *y);
        memcpy(e->x, y, (size_t)n0 * sizeof *y);
        if (aug)
            memcpy(e->A, y + n0, (size_t)n0 * (size_t)n0 * sizeof *y);
        e->dp_step = hs;
        if (*ended >= 0) {
            *t = tstop;
            return HES_OK;
        }
        *t = last ? t_end : tt + h;
        if (last)
            return HES_OK;
        memcpy(k1, k7, N * sizeof *k1);  /* first same as last */
        memcpy(h0, h1, (size_t)m * sizeof *h0);
    }
}
