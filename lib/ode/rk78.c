/*
 * rk78.c - an explicit embedded Runge-Kutta integrator for the small,
 * non-stiff ODEs of legged-robot models (ode/rk78.h).
 *
 * Why: on 3- and 4-dimensional states CVODES spends its time in its own
 * bookkeeping (about 50 N_Vector calls and 20,000 instructions per
 * right-hand side at rtol = 1e-12, as profiled), not in the model.
 * An explicit method of high order has none of it: a step is a few
 * hundred multiply-adds.
 *
 * The method: the tableau ARKODE names FEHLBERG_13_7_8 (Fehlberg, NASA TR
 * R-287, 1968), 13 stages, order 8 with an embedded 7th-order solution,
 * taken from SUNDIALS (ARKodeButcherTable_LoadERK), not typed in.  The step
 * goes on with the 8th-order solution (local extrapolation).  Error control
 * (Hairer, Norsett & Wanner, Solving ODEs I, II.4):
 *     err = || h sum_s (b_s - d_s) k_s ||_w,   w_i = rtol max(|y_i|, |y1_i|) + atol,
 * the root mean square of err_i / w_i; a step is accepted when err <= 1,
 * and the next step is h min(5, max(0.2, 0.9 err^(-1/8))).  The first
 * step is Hairer's starting-step estimate (ibid., II.4, p. 169).
 * A known weakness of this pair: its error estimate,
 * h (41/840) (k_12 + k_13 - k_1 - k_11) (c = 0, 1, 0, 1), vanishes when
 * f depends on t alone (a pure quadrature), so HES_RK8 is for phases
 * driven by their state, not by an explicit forcing of time; test_rk's
 * closed forms and the SLIP's agreement with CVODES (1.7e-11 in psi) are
 * its checks.
 *
 * Roots: the root functions are evaluated after each accepted step; the
 * earliest sign change in a root's direction is located by the one root
 * locator (ode/root.c: regula falsi on the root that crosses first,
 * bisection when it stalls) on tau in (0, h], each trial state being one
 * step of size tau from the step's start (the method's own accuracy: no
 * interpolant), to CVODES's time tolerance 100 u (|t| + |h|).  The state returned is at the bracket's far end, as
 * CVODES returns it.  While roots are located, only the `lead` part of the
 * state is stepped (the variational equations are not needed for it).
 */
#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <stdio.h> /* arkode_butcher.h uses FILE without it */

#include <arkode/arkode_butcher_erk.h>

#include "ode/rk78.h"
#include "ode/root.h"

int hes__rk_create(hes__rk *r, int N, int lead, int n_roots, const int *dirs,
                   hes__rk_fn f, hes__rk_root_fn g, void *data)
{
    assert(lead > 0 && lead <= N && n_roots >= 0 && f && (n_roots == 0 || g));
    memset(r, 0, sizeof *r);
    ARKodeButcherTable B = ARKodeButcherTable_LoadERK(ARKODE_FEHLBERG_13_7_8);
    if (!B || !B->d) {
        if (B)
            ARKodeButcherTable_Free(B);
        return -1;
    }
    int s = B->stages;
    r->N = N;
    r->lead = lead;
    r->n_roots = n_roots;
    r->stages = s;
    r->order = B->q;
    r->f = f;
    r->g = g;
    r->data = data;
    int nr = n_roots > 0 ? n_roots : 1;
    r->A = malloc(sizeof(double) * (size_t)(s * s + 3 * s));
    r->k = malloc(sizeof(double) * (size_t)N * (size_t)(s + 4));
    r->g0 = malloc(sizeof(double) * (size_t)(5 * nr));
    r->dirs = malloc(sizeof(int) * (size_t)(2 * nr));
    if (!r->A || !r->k || !r->g0 || !r->dirs) {
        ARKodeButcherTable_Free(B);
        return -1;
    }
    r->b = r->A + s * s;
    r->e = r->b + s;
    r->c = r->e + s;
    for (int i = 0; i < s; i++) {
        for (int j = 0; j < s; j++)
            r->A[i * s + j] = B->A[i][j];
        r->b[i] = B->b[i];
        r->e[i] = B->b[i] - B->d[i];
        r->c[i] = B->c[i];
    }
    ARKodeButcherTable_Free(B);
    r->y = r->k + (size_t)N * s;
    r->y1 = r->y + N;
    r->yt = r->y1 + N;
    r->err = r->yt + N;
    r->g1 = r->g0 + nr;
    r->gt = r->g1 + nr;
    r->glo = r->gt + nr;
    r->ghi = r->glo + nr;
    r->found = r->dirs + nr;
    for (int i = 0; i < n_roots; i++)
        r->dirs[i] = dirs ? dirs[i] : 0;
    return 0;
}

void hes__rk_free(hes__rk *r)
{
    free(r->A);
    free(r->k);
    free(r->g0);
    free(r->dirs);
    memset(r, 0, sizeof *r);
}

/* The weighted root-mean-square norm of v over the first d components. */
static double wrms(const hes__rk *r, const double *v, const double *ya, const double *yb, int d)
{
    double s = 0;
    for (int i = 0; i < d; i++) {
        double w = r->rtol * fmax(fabs(ya[i]), fabs(yb[i])) + r->atol;
        double q = v[i] / w;
        s += q * q;
    }
    return sqrt(s / d);
}

/* One step of size h from (r->t, r->y) over the first d components into
 * y1; with err != NULL also the error estimate's norm in *errn.  k[0]
 * (the field at the start) is computed unless have_k0.  0 or HES__RK_EFN. */
static int step(hes__rk *r, double h, int d, int have_k0, double *y1, double *errn)
{
    int s = r->stages, N = r->N;
    double *k = r->k, *yt = r->yt;
    if (!have_k0 && r->f(r->t, r->y, k, d, r->data) != 0)
        return HES__RK_EFN;
    for (int i = 1; i < s; i++) {
        const double *a = r->A + i * s;
        for (int c = 0; c < d; c++) {
            double acc = 0;
            for (int j = 0; j < i; j++)
                acc += a[j] * k[(size_t)j * N + c];
            yt[c] = r->y[c] + h * acc;
        }
        if (r->f(r->t + r->c[i] * h, yt, k + (size_t)i * N, d, r->data) != 0)
            return HES__RK_EFN;
    }
    for (int c = 0; c < d; c++) {
        double acc = 0, ea = 0;
        for (int j = 0; j < s; j++) {
            acc += r->b[j] * k[(size_t)j * N + c];
            ea += r->e[j] * k[(size_t)j * N + c];
        }
        y1[c] = r->y[c] + h * acc;
        r->err[c] = h * ea;
    }
    if (errn)
        *errn = wrms(r, r->err, r->y, y1, d);
    return 0;
}

/* Hairer's starting step (Solving ODEs I, II.4): from the field at the
 * start and after an explicit Euler step of size h0. */
static int first_step(hes__rk *r, double span)
{
    int d = r->dim;
    double *f0 = r->k, *f1 = r->k + r->N, *yt = r->yt;
    if (r->f(r->t, r->y, f0, d, r->data) != 0)
        return HES__RK_EFN;
    double d0 = wrms(r, r->y, r->y, r->y, d), d1 = wrms(r, f0, r->y, r->y, d);
    double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
    h0 = fmin(h0, span);
    for (int i = 0; i < d; i++)
        yt[i] = r->y[i] + h0 * f0[i];
    if (r->f(r->t + h0, yt, f1, d, r->data) != 0)
        return HES__RK_EFN;
    for (int i = 0; i < d; i++)
        r->err[i] = (f1[i] - f0[i]) / h0;
    double d2 = wrms(r, r->err, r->y, r->y, d), dm = fmax(d1, d2);
    double h1 = dm <= 1e-15 ? fmax(1e-6, 1e-3 * h0) : pow(0.01 / dm, 1.0 / (r->order + 1));
    r->h = fmin(100 * h0, h1);
    if (!(r->h > 0) || !isfinite(r->h))
        r->h = h0 > 0 ? h0 : 1e-6;
    return 0;
}

int hes__rk_start(hes__rk *r, double t0, const double *y0, double rtol, double atol, int full)
{
    r->dim = full ? r->N : r->lead;
    r->t = t0;
    r->rtol = rtol;
    r->atol = atol;
    r->steps = 0;
    r->h = 0; /* first_step on the first advance, which knows tstop */
    memcpy(r->y, y0, sizeof(double) * (size_t)r->dim);
    if (r->n_roots > 0 && r->g(t0, r->y, r->g0, r->data) != 0)
        return HES__RK_EFN;
    return 0;
}


/* The root locator's view of the roots within an accepted step of size h
 * (ode/root.h): their values at the bracket's ends glo and ghi, at a trial
 * state gt, each trial state one step from the step's start. */
typedef struct {
    hes__rk *r;
    double h;
    int rc;           /* a trial's failure */
} rk_bracket;

static double rk_chord(void *data)
{
    const rk_bracket *b = data;
    const hes__rk *r = b->r;
    double frac = 1;
    for (int i = 0; i < r->n_roots; i++)
        if (hes__root_crosses(r->glo[i], r->ghi[i], r->dirs[i]))
            frac = fmin(frac, r->glo[i] / (r->glo[i] - r->ghi[i]));
    return frac;
}

static int rk_sample(void *data, double th)
{
    rk_bracket *b = data;
    hes__rk *r = b->r;
    /* the trial state goes to yt (free once the stages are done) */
    if ((b->rc = step(r, th * b->h, r->lead, 1, r->yt, NULL)) != 0)
        return -1;
    if (r->g(r->t + th * b->h, r->yt, r->gt, r->data) != 0) {
        b->rc = HES__RK_EFN;
        return -1;
    }
    for (int i = 0; i < r->n_roots; i++)
        if (hes__root_crosses(r->glo[i], r->gt[i], r->dirs[i]))
            return 1;
    return 0;
}

static void rk_keep(void *data, int high)
{
    hes__rk *r = ((rk_bracket *)data)->r;
    memcpy(high ? r->ghi : r->glo, r->gt, sizeof(double) * (size_t)r->n_roots);
}

/* The first crossing within the accepted step of size h: the whole state
 * (with the variational part) moved there, the roots crossed flagged. */
static int take_root(hes__rk *r, double h)
{
    static const hes__root_bracket roots = { rk_chord, rk_sample, rk_keep };
    double stol = 100 * DBL_EPSILON * (fabs(r->t) + fabs(h)) / fabs(h), best = 1;
    rk_bracket b = { r, h, 0 };
    memcpy(r->glo, r->g0, sizeof(double) * (size_t)r->n_roots);
    memcpy(r->ghi, r->g1, sizeof(double) * (size_t)r->n_roots);
    if (hes__root_narrow(&roots, &b, 0, &best, stol) != 0)
        return b.rc;
    int rc = step(r, best * h, r->dim, 1, r->y1, NULL);
    if (rc != 0)
        return rc;
    r->t += best * h;
    memcpy(r->y, r->y1, sizeof(double) * (size_t)r->dim);
    if (r->g(r->t, r->y, r->gt, r->data) != 0)
        return HES__RK_EFN;
    for (int i = 0; i < r->n_roots; i++) {
        /* crossed since the step's start, or within the final bracket */
        r->found[i] = hes__root_crosses(r->g0[i], r->gt[i], r->dirs[i]) ||
                      hes__root_crosses(r->glo[i], r->ghi[i], r->dirs[i]);
        r->g0[i] = r->gt[i];
    }
    return HES__RK_ROOT;
}

int hes__rk_advance(hes__rk *r, double tstop, long max_steps)
{
    int rc;
    double span = tstop - r->t;
    if (!(fabs(span) > 4 * DBL_EPSILON * fabs(tstop)))
        return HES__RK_TSTOP;
    if (r->h == 0 || (r->h > 0) != (span > 0)) { /* a start, or a turn */
        if ((rc = first_step(r, fabs(span))) != 0)
            return rc;
        r->h = copysign(r->h, span);
    }
    int have_k0 = 0;
    for (long taken = 0; taken < max_steps;) {
        span = tstop - r->t;
        int last = fabs(r->h) >= fabs(span) * (1 - 1e-12);
        double h = last ? span : r->h, errn;
        if ((rc = step(r, h, r->dim, have_k0, r->y1, &errn)) != 0)
            return rc;
        have_k0 = 1; /* k[0] is the field at (t, y) until the step is taken */
        double fac = errn > 0 ? 0.9 * pow(errn, -1.0 / r->order) : 5.0;
        if (!(errn <= 1.0)) {
            r->h = h * (isfinite(fac) ? fmax(0.1, fmin(0.9, fac)) : 0.25);
            if (fabs(r->h) < 16 * DBL_EPSILON * fmax(fabs(r->t), 1e-300))
                return HES__RK_ESTEP;
            continue;
        }
        taken++;
        r->steps++;
        double tn = last ? tstop : r->t + h;
        double hnext = h * fmin(5.0, fmax(0.2, fac));
        if (!last || fabs(hnext) < fabs(r->h))
            r->h = hnext;
        if (r->n_roots > 0 && r->g(tn, r->y1, r->g1, r->data) != 0)
            return HES__RK_EFN;
        int any = 0;
        for (int i = 0; i < r->n_roots; i++)
            any |= hes__root_crosses(r->g0[i], r->g1[i], r->dirs[i]);
        if (any)
            return take_root(r, h);
        r->t = tn;
        memcpy(r->y, r->y1, sizeof(double) * (size_t)r->dim);
        memcpy(r->g0, r->g1, sizeof(double) * (size_t)r->n_roots);
        have_k0 = 0;
        if (last)
            return HES__RK_TSTOP;
    }
    return HES__RK_CHUNK;
}
