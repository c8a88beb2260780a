/*
 * test_ess.c - the event-selected-system (ESS) integrator (lib/contact):
 * its second order in eps against matrix exponentials of a piecewise-affine
 * system, the 1-D hopper against its closed form, the Jacobian of its
 * discrete flow against central differences of the integrator itself, a
 * liveness violation reported as an error, and bad input refused.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"
#include "testutil.h"

/* ------------------------------------------------ the piecewise-affine system
 * n = 3, guards the coordinate planes h_i = x_i, and in each of the 8 sign
 * regions (index k = [s_1 > 0] + 2 [s_2 > 0] + 4 [s_3 > 0]) the affine field
 *   f = A_k x + b_k,   A_k[i][j] = 0.05 sin(1 + i + 3 j + 7 k),
 *   b_k = (1 + 0.1 k, 0.8 + 0.05 k, 0.6 + 0.08 k).
 * Each component of f is at least 0.6 - 0.05 * 3 * 2.5 > 0.2 for |x_j| <=
 * 2.5, so every guard is live along the trajectory from x0 = (-0.3, -0.8,
 * -1.2), which crosses x_1 = 0, x_2 = 0 and x_3 = 0 in that order before
 * t = 2.5. */
static void affine_coef(int k, double A[9], double b[3])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            A[i + 3 * j] = 0.05 * sin(1.0 + i + 3 * j + 7 * k);
    b[0] = 1 + 0.1 * k;
    b[1] = 0.8 + 0.05 * k;
    b[2] = 0.6 + 0.08 * k;
}

static int region(const int *s) { return (s[0] > 0) + 2 * (s[1] > 0) + 4 * (s[2] > 0); }

static int aff_f(const double *x, const int *s, const double *p, double *out, void *d)
{
    double A[9], b[3];
    (void)p; (void)d;
    affine_coef(region(s), A, b);
    for (int i = 0; i < 3; i++)
        out[i] = b[i] + A[i] * x[0] + A[i + 3] * x[1] + A[i + 6] * x[2];
    return 0;
}

static int aff_f_dx(const double *x, const int *s, const double *p, double *out, void *d)
{
    double b[3];
    (void)x; (void)p; (void)d;
    affine_coef(region(s), out, b);
    return 0;
}

static int aff_h(const double *x, const double *p, double *out, void *d)
{
    (void)p; (void)d;
    memcpy(out, x, 3 * sizeof *x);
    return 0;
}

static int aff_Dh(const double *x, const double *p, double *out, void *d)
{
    (void)x; (void)p; (void)d;
    memset(out, 0, 9 * sizeof *out);
    out[0] = out[4] = out[8] = 1;
    return 0;
}

static const hes_ess_model affine = {
    "affine-3d", "piecewise-affine test system", 3, 3, NULL, NULL, 0, NULL,
    aff_f, aff_f_dx, aff_h, aff_Dh, NULL, NULL, NULL, 0, 0, .h_some = NULL,
};

/* exp(M) of a 4 x 4 matrix by scaling and squaring of its Taylor series
 * (30 terms after scaling to |M|_1 <= 1/2: truncation below 1e-40). */
static void expm4(const double *M, double *E)
{
    double norm = 0, S[16], T[16], P[16];
    for (int j = 0; j < 4; j++) {
        double c = 0;
        for (int i = 0; i < 4; i++)
            c += fabs(M[i + 4 * j]);
        norm = fmax(norm, c);
    }
    int sq = 0;
    while (norm > 0.5) {
        norm /= 2;
        sq++;
    }
    double scale = ldexp(1.0, -sq);
    for (int i = 0; i < 16; i++) {
        S[i] = M[i] * scale;
        E[i] = (i % 5 == 0);
        T[i] = (i % 5 == 0);
    }
    for (int k = 1; k <= 30; k++) {
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) {
                double s = 0;
                for (int l = 0; l < 4; l++)
                    s += T[i + 4 * l] * S[l + 4 * j];
                P[i + 4 * j] = s / k;
            }
        memcpy(T, P, sizeof T);
        for (int i = 0; i < 16; i++)
            E[i] += T[i];
    }
    for (int r = 0; r < sq; r++) {
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) {
                double s = 0;
                for (int l = 0; l < 4; l++)
                    s += E[i + 4 * l] * E[l + 4 * j];
                P[i + 4 * j] = s;
            }
        memcpy(E, P, sizeof P);
    }
}

/* The exact flow of region k for time tau: exp([[A, b], [0, 0]] tau). */
static void exact_flow(int k, double tau, const double *x, double *out)
{
    double A[9], b[3], M[16] = { 0 }, E[16];
    affine_coef(k, A, b);
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            M[i + 4 * j] = A[i + 3 * j] * tau;
        M[i + 12] = b[i] * tau;
    }
    expm4(M, E);
    for (int i = 0; i < 3; i++)
        out[i] = E[i + 12] + E[i] * x[0] + E[i + 4] * x[1] + E[i + 8] * x[2];
}

/* The exact piecewise solution: pieces start at ts[q] in xs[q] with region
 * ks[q]; crossing times by a scan (1e-3) and bisection to 1e-15. */
typedef struct { int np; double ts[4], xs[4][3]; int ks[4]; } exact_sol;

static void exact_solve(const double *x0, double t_end, exact_sol *E)
{
    int s[3];
    double x[3], t = 0;
    memcpy(x, x0, sizeof x);
    for (int i = 0; i < 3; i++)
        s[i] = x[i] >= 0 ? 1 : -1;
    E->np = 0;
    for (;;) {
        int k = region(s);
        E->ts[E->np] = t;
        memcpy(E->xs[E->np], x, sizeof x);
        E->ks[E->np++] = k;
        double lo = 0, hi = -1, y[3];
        int which = -1;
        for (double tau = 1e-3; t + tau <= t_end + 1e-3 && which < 0; tau += 1e-3) {
            exact_flow(k, tau, x, y);
            for (int i = 0; i < 3 && which < 0; i++)
                if (s[i] < 0 && y[i] >= 0) {
                    which = i;
                    hi = tau;
                    lo = tau - 1e-3;
                }
        }
        if (which < 0 || E->np == 4)
            return;
        while (hi - lo > 1e-15) {
            double mid = 0.5 * (lo + hi);
            exact_flow(k, mid, x, y);
            if (y[which] >= 0)
                hi = mid;
            else
                lo = mid;
        }
        exact_flow(k, hi, x, y);
        y[which] = 0;
        memcpy(x, y, sizeof x);
        t += hi;
        s[which] = 1;
    }
}

static void exact_at(const exact_sol *E, double t, double *out)
{
    int q = 0;
    while (q + 1 < E->np && E->ts[q + 1] <= t)
        q++;
    exact_flow(E->ks[q], t - E->ts[q], E->xs[q], out);
}

#define NOUT 101

/* The RMS over 101 evenly spaced times in [0, t_end] of the distance
 * |x_ess(t) - x_exact(t)|_2, with tight CVODES tolerances so that the
 * projections' error dominates; *proj: the projections taken. */
typedef void (*exact_fn)(const void *ctx, double t, double *out);

static double rms_vs_exact(hes_ess *ess, const double *x0, double t_end, double eps,
                           exact_fn exact, const void *ctx, long *proj)
{
    int n = hes_ess_get_model(ess)->n;
    double tout[NOUT], y[8], sum = 0;
    for (int k = 0; k < NOUT; k++)
        tout[k] = t_end * k / (NOUT - 1);
    hes_ess_options o;
    hes_ess_options_init(&o);
    o.eps = eps;
    o.rtol = 1e-12;
    o.atol = 1e-14;
    o.n_out = NOUT;
    o.t_out = tout;
    hes_ess_result r;
    ck_assert_msg(hes_ess_run(ess, &o, 0.0, x0, t_end, &r) == HES_OK, "%s", hes_ess_errmsg(ess));
    for (int k = 0; k < NOUT; k++) {
        exact(ctx, tout[k], y);
        for (int i = 0; i < n; i++)
            sum += pow(r.x_out[i + n * k] - y[i], 2);
    }
    *proj = r.n_projections;
    hes_ess_result_free(&r);
    return sqrt(sum / NOUT);
}

static void affine_exact(const void *ctx, double t, double *out) { exact_at(ctx, t, out); }

START_TEST(test_ess_error_is_second_order_in_eps_on_piecewise_affine_system)
{
    hes_ess *ess;
    ck_assert_int_eq(hes_ess_new(&affine, &ess, NULL), HES_OK);
    double x0[3] = { -0.3, -0.8, -1.2 };
    exact_sol E;
    exact_solve(x0, 2.5, &E);
    ck_assert_int_eq(E.np, 4); /* all three guards crossed before t = 2.5 */
    double eps[] = { 1e-1, 5e-2, 2e-2, 1e-2, 5e-3, 2e-3, 1e-3 };
    int ne = (int)(sizeof eps / sizeof eps[0]);
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int q = 0; q < ne; q++) {
        long proj;
        double err = rms_vs_exact(ess, x0, 2.5, eps[q], affine_exact, &E, &proj);
        ck_assert_int_eq(proj, 3);
        if (getenv("HES_TEST_VERBOSE"))
            printf("affine order test: eps %g RMS error %.3e\n", eps[q], err);
        double lx = log(eps[q]), ly = log(err);
        sx += lx; sy += ly; sxx += lx * lx; sxy += lx * ly;
    }
    double order = (ne * sxy - sx * sy) / (ne * sxx - sx * sx);
    if (getenv("HES_TEST_VERBOSE"))
        printf("affine order test: fitted order %.4f\n", order);
    ck_assert_msg(order >= 1.9, "fitted order %g < 1.9", order);
    hes_ess_destroy(ess);
}
END_TEST

/* ------------------------------------------------------------ the hopper */

static void hopper_exact(const void *ctx, double t, double *out)
{
    ck_assert_int_eq(hes_hopper_1d_exact(NULL, t, ctx, out), HES_OK);
}

START_TEST(test_hopper_matches_closed_form_better_as_eps_shrinks)
{
    const hes_ess_model *md = hes_ess_problem_find("hopper-1d");
    ck_assert_ptr_nonnull(md);
    hes_ess *ess;
    ck_assert_int_eq(hes_ess_new(md, &ess, NULL), HES_OK);
    /* closed form: energy is conserved, so the apex returns to 1.2 */
    double x0[2] = { 1.2, 0 }, y[2];
    double fall = sqrt(2 * 0.2 / 9.81), w = sqrt(1000.0), c = 9.81 / 1000.0;
    double vt = sqrt(2 * 9.81 * 0.2), R = sqrt(c * c + vt * vt / (w * w));
    double period = 2 * fall + (2 * M_PI - 2 * acos(c / R)) / w;
    ck_assert_int_eq(hes_hopper_1d_exact(NULL, period, x0, y), HES_OK);
    ck_assert_double_eq_tol(y[0], 1.2, 1e-12);
    ck_assert_double_eq_tol(y[1], 0.0, 1e-11);
    double e2, e3, e4;
    long p2, p3, p4;
    e2 = rms_vs_exact(ess, x0, 2.0, 1e-2, hopper_exact, x0, &p2);
    e3 = rms_vs_exact(ess, x0, 2.0, 1e-3, hopper_exact, x0, &p3);
    e4 = rms_vs_exact(ess, x0, 2.0, 1e-4, hopper_exact, x0, &p4);
    if (getenv("HES_TEST_VERBOSE"))
        printf("hopper: RMS error %.3e, %.3e, %.3e at eps 1e-2, 1e-3, 1e-4 (%ld crossings)\n",
               e2, e3, e4, p4);
    /* two crossings per hop: touchdowns and liftoffs before t = 2 */
    long want = 0;
    for (double tt = fall; tt < 2.0; tt += period)
        want += 1 + (tt + period - 2 * fall < 2.0);
    ck_assert_int_eq(p2, want);
    ck_assert_int_eq(p3, want);
    ck_assert_int_eq(p4, want);
    ck_assert_msg(e3 < e2 / 30 && e4 < e3 / 30 && e4 < 1e-4,
                  "RMS errors %g, %g, %g at eps 1e-2, 1e-3, 1e-4", e2, e3, e4);
    hes_ess_destroy(ess);
}
END_TEST

/* A hopper let go at rest with its leg just touching (y = l0, v = 0): both
 * guards are at their zeros with zero rate (h = l0 - y, Dh f = -v), and the
 * side the flow goes to (stance: y'' = -g) is decided by the rate's own
 * rate.  The run then follows the stance oscillation between l0 - 2 m g / k
 * and l0 (touching the liftoff guard tangentially at the top of each) and
 * converges to the closed form as eps shrinks; the first steps must not
 * take the flight side, where the body would fall through the ground. */
START_TEST(test_hopper_let_go_at_rest_on_its_guard)
{
    hes_ess *ess;
    ck_assert_int_eq(hes_ess_new(hes_ess_problem_find("hopper-1d"), &ess, NULL), HES_OK);
    double x0[2] = { 1.0, 0.0 }, y[2];
    ck_assert_int_eq(hes_hopper_1d_exact(NULL, 2.0, x0, y), HES_OK);
    double g = 9.81, k = 1000, w = sqrt(k), a = g / k;   /* m = 1, l0 = 1 */
    ck_assert_msg(fabs(y[0] - (1 - a + a * cos(2 * w))) < 1e-12 &&
                  fabs(y[1] + a * w * sin(2 * w)) < 1e-12, "closed form %g %g", y[0], y[1]);
    const double eps[2] = { 1e-4, 1e-5 }, within[2] = { 1e-2, 1e-4 };
    for (int q = 0; q < 2; q++) {
        hes_ess_options o;
        hes_ess_options_init(&o);
        o.eps = eps[q];
        hes_ess_result r;
        ck_assert_msg(hes_ess_run(ess, &o, 0.0, x0, 2.0, &r) == HES_OK, "%s",
                      hes_ess_errmsg(ess));
        double err = fmax(fabs(r.x_end[0] - y[0]), fabs(r.x_end[1] - y[1]));
        ck_assert_msg(err < within[q], "eps %g: end state %g %g, closed form %g %g", eps[q],
                      r.x_end[0], r.x_end[1], y[0], y[1]);
        hes_ess_result_free(&r);
    }
    hes_ess_destroy(ess);
}
END_TEST

/* The band's error estimate of a run's end state (eps/2, eps/4, Richardson)
 * against the closed form's true error: within a factor of 2 where the
 * observed order is 2, and large enough to be flagged at eps = 0.1. */
START_TEST(test_end_state_error_estimate_matches_the_closed_form)
{
    hes_ess *ess;
    ck_assert_int_eq(hes_ess_new(hes_ess_problem_find("hopper-1d"), &ess, NULL), HES_OK);
    double x0[2] = { 1.5, 0 }, y[2];
    ck_assert_int_eq(hes_hopper_1d_exact(NULL, 2.0, x0, y), HES_OK);
    const double eps[3] = { 1e-2, 1e-3, 1e-1 };
    for (int k = 0; k < 3; k++) {
        hes_ess_options o;
        hes_ess_options_init(&o);
        o.eps = eps[k];
        hes_ess_result r;
        ck_assert_int_eq(hes_ess_run(ess, &o, 0.0, x0, 2.0, &r), HES_OK);
        ck_assert(isnan(r.eps_error)); /* not estimated yet */
        ck_assert_int_eq(hes_ess_run_error(ess, &o, 0.0, x0, 2.0, &r), HES_OK);
        double truth = fmax(fabs(r.x_end[0] - y[0]), fabs(r.x_end[1] - y[1]));
        if (getenv("HES_TEST_VERBOSE"))
            printf("eps %g: estimated %.3e (order %.2f), true %.3e\n", eps[k], r.eps_error,
                   r.eps_order, truth);
        if (k < 2) {
            ck_assert_msg(fabs(r.eps_order - 2) < 0.2, "order %g at eps %g", r.eps_order, eps[k]);
            ck_assert_msg(r.eps_error > truth / 2 && r.eps_error < 2 * truth,
                          "eps %g: estimate %g, true error %g", eps[k], r.eps_error, truth);
        } else { /* far off: the estimate says so */
            ck_assert_msg(truth > 0.1 && r.eps_error > 0.1, "eps 0.1: estimate %g, true %g",
                          r.eps_error, truth);
        }
        hes_ess_result_free(&r);
    }
    hes_ess_destroy(ess);
}
END_TEST

/* ---------------------------------------------------------- the Jacobian */

static double jacobian_vs_fd(hes_ess *ess, const double *x0, double t_end, double eps)
{
    int n = hes_ess_get_model(ess)->n;
    hes_ess_options o;
    hes_ess_options_init(&o);
    o.eps = eps;
    o.rtol = 1e-12;
    o.atol = 1e-14;
    o.jacobian = 1;
    hes_ess_result r, rp, rm;
    ck_assert_msg(hes_ess_run(ess, &o, 0.0, x0, t_end, &r) == HES_OK, "%s", hes_ess_errmsg(ess));
    o.jacobian = 0;
    double worst = 0, xx[8];
    for (int j = 0; j < n; j++) {
        double hstep = 1e-5 * fmax(1, fabs(x0[j]));
        memcpy(xx, x0, (size_t)n * sizeof *xx);
        xx[j] = x0[j] + hstep;
        ck_assert_int_eq(hes_ess_run(ess, &o, 0.0, xx, t_end, &rp), HES_OK);
        xx[j] = x0[j] - hstep;
        ck_assert_int_eq(hes_ess_run(ess, &o, 0.0, xx, t_end, &rm), HES_OK);
        ck_assert_int_eq(rp.n_projections, r.n_projections); /* same crossings */
        ck_assert_int_eq(rm.n_projections, r.n_projections);
        for (int i = 0; i < n; i++) {
            double fd = (rp.x_end[i] - rm.x_end[i]) / (2 * hstep);
            worst = fmax(worst, fabs(r.jac[i + n * j] - fd) / fmax(1, fabs(fd)));
        }
        hes_ess_result_free(&rp);
        hes_ess_result_free(&rm);
    }
    hes_ess_result_free(&r);
    if (getenv("HES_TEST_VERBOSE"))
        printf("jacobian test: eps %g t_end %g: max |J - FD| / max(1, |FD|) = %.3e\n", eps,
               t_end, worst);
    return worst;
}

START_TEST(test_jacobian_equals_central_differences_of_the_integrator)
{
    hes_ess *ess;
    ck_assert_int_eq(hes_ess_new(&affine, &ess, NULL), HES_OK);
    double x0[3] = { -0.3, -0.8, -1.2 };
    /* a large eps, so that the projections' own terms matter */
    double d = jacobian_vs_fd(ess, x0, 2.5, 0.05);
    ck_assert_msg(d < 1e-6, "affine: |J - FD| / max(1, |FD|) = %g", d);
    /* the end time inside a projection step (the first crossing is near
     * t = 0.3; with eps = 0.2 its projection spans ~0.2) */
    d = jacobian_vs_fd(ess, x0, 0.25, 0.2);
    ck_assert_msg(d < 1e-6, "affine, end inside a projection: %g", d);
    hes_ess_destroy(ess);

    ck_assert_int_eq(hes_ess_new(hes_ess_problem_find("hopper-1d"), &ess, NULL), HES_OK);
    double y0[2] = { 1.2, 0.3 };
    d = jacobian_vs_fd(ess, y0, 1.0, 1e-2);   /* touchdowns, liftoffs, re-arming */
    ck_assert_msg(d < 1e-6, "hopper: |J - FD| / max(1, |FD|) = %g", d);
    hes_ess_destroy(ess);
}
END_TEST

/* ------------------------------------------------------------- liveness */

static int away_f(const double *x, const int *s, const double *p, double *out, void *d)
{
    (void)x; (void)s; (void)p; (void)d;
    out[0] = -1;
    return 0;
}

static int id_h(const double *x, const double *p, double *out, void *d)
{
    (void)p; (void)d;
    out[0] = x[0];
    return 0;
}

static int id_Dh(const double *x, const double *p, double *out, void *d)
{
    (void)x; (void)p; (void)d;
    out[0] = 1;
    return 0;
}

static const char *const wall_name[] = { "wall" };

START_TEST(test_field_leaving_guard_in_its_band_is_watched_or_a_strict_liveness_error)
{
    hes_ess_model md = { "away", "", 1, 1, NULL, wall_name, 0, NULL, away_f, NULL, id_h, id_Dh,
                         NULL, NULL, NULL, 0, 0, .h_some = NULL };
    hes_ess *ess;
    ck_assert_int_eq(hes_ess_new(&md, &ess, NULL), HES_OK);
    hes_ess_options o;
    hes_ess_options_init(&o);
    o.eps = 0.05;
    double x0 = -0.01;   /* in the band of a guard not yet crossed, moving away */
    hes_ess_result r;
    /* by default watched: never crossed, x(1) = x0 - 1 exactly */
    ck_assert_msg(hes_ess_run(ess, &o, 0, &x0, 1, &r) == HES_OK, "%s", hes_ess_errmsg(ess));
    ck_assert_int_eq(r.n_projections, 0);
    ck_assert_int_eq(r.n_sign_changes, 0);
    ck_assert_int_eq(r.s_end[0], -1);
    ck_assert_double_eq_tol(r.x_end[0], -1.01, 1e-12);
    hes_ess_result_free(&r);
    o.near_miss = 0;     /* strict liveness: refused, naming the guard */
    ck_assert_int_eq(hes_ess_run(ess, &o, 0, &x0, 1, &r), HES_EGRAZING);
    ck_assert_msg(strstr(hes_ess_errmsg(ess), "liveness") &&
                  strstr(hes_ess_errmsg(ess), "'wall'"), "%s", hes_ess_errmsg(ess));
    hes_ess_result_free(&r);
    hes_ess_destroy(ess);
}
END_TEST

/* ------------------------------------------------------------ bad input */

START_TEST(test_bad_models_and_arguments_are_refused_with_a_reason)
{
    hes_error msg;
    ck_assert_int_eq(hes_ess_validate(NULL, &msg), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg.message, "NULL"));
    hes_ess_model md = affine;
    md.m = 0;
    ck_assert_int_eq(hes_ess_validate(&md, &msg), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg.message, "m = 0"));
    md = affine;
    md.Dh = NULL;
    ck_assert_int_eq(hes_ess_validate(&md, &msg), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg.message, "Dh"));
    md = affine;
    md.n = 0;
    hes_ess *ess = (hes_ess *)1;
    ck_assert_int_eq(hes_ess_new(&md, &ess, &msg), HES_EINVAL);
    ck_assert_ptr_null(ess);

    ck_assert_int_eq(hes_ess_new(&affine, &ess, NULL), HES_OK);
    hes_ess_options o;
    hes_ess_result r;
    double x0[3] = { -1, -1, -1 };
    hes_ess_options_init(&o);
    o.eps = 0;
    ck_assert_int_eq(hes_ess_run(ess, &o, 0, x0, 1, &r), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(hes_ess_errmsg(ess), "eps"));
    o.eps = 1e-3;
    ck_assert_int_eq(hes_ess_run(ess, &o, 1, x0, 1, &r), HES_EINVAL);
    ck_assert_int_eq(hes_ess_run(ess, &o, 0, NULL, 1, &r), HES_EINVAL);
    ck_assert_int_eq(hes_ess_run(ess, &o, 0, x0, 1, NULL), HES_EINVAL);
    double bad_out[2] = { 0.5, 0.2 };
    o.n_out = 2;
    o.t_out = bad_out;
    ck_assert_int_eq(hes_ess_run(ess, &o, 0, x0, 1, &r), HES_EINVAL);
    ck_assert_int_eq(hes_ess_set_param(ess, "nope", 1), HES_ENOTFOUND);
    hes_ess_destroy(ess);

    ck_assert_int_eq(hes_ess_new(hes_ess_problem_find("hopper-1d"), &ess, NULL), HES_OK);
    ck_assert_int_eq(hes_ess_set_param(ess, "k", -5), HES_EINVAL);
    ck_assert_int_eq(hes_ess_set_param(ess, "k", 2000), HES_OK);
    ck_assert_double_eq(hes_ess_params(ess)[1], 2000);
    hes_ess_destroy(ess);
    ck_assert_ptr_null(hes_ess_problem_find("no-such-model"));
    double y[2];
    ck_assert_int_eq(hes_hopper_1d_exact(NULL, -1, x0, y), HES_EINVAL);
}
END_TEST

START_TEST(test_a_state_or_event_name_given_twice_is_refused)
{
    hes_error msg;
    static const char *const states[3] = { "x", "y", "x" };
    static const char *const events[3] = { "a", "b", "b" };
    hes_ess_model md = affine;
    md.state_names = states;
    ck_assert_int_eq(hes_ess_validate(&md, &msg), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg.message, "state name 'x' appears twice"));
    md = affine;
    md.event_names = events;
    ck_assert_int_eq(hes_ess_validate(&md, &msg), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg.message, "event name 'b' appears twice"));
}
END_TEST

/* A ball dropped on a bed of 8 springs whose tips are 2.5e-4 apart: at
 * eps = 1e-3 the band spans several tips at once and the end state sits on
 * a plateau; the runs at eps/2 and eps/4 alone showed order 2.02 and an
 * error of 3e-4 where the true error (against eps = 1e-6) is 7e-3.  The
 * third run must expose it: either the order is far from 2 or the
 * estimate reaches the true error's order of magnitude. */
#define BED_N 8
static int bed_f(const double *x, const int *s, const double *p, double *out, void *data)
{
    (void)p, (void)data;
    double F = -9.81;
    for (int k = 0; k < BED_N; k++)
        if (s[k] > 0)
            F += 2000 * (-k * 2.5e-4 - x[0]);
    out[0] = x[1];
    out[1] = F;
    return 0;
}
static int bed_h(const double *x, const double *p, double *out, void *data)
{
    (void)p, (void)data;
    for (int k = 0; k < BED_N; k++)
        out[k] = -k * 2.5e-4 - x[0];
    return 0;
}
static int bed_Dh(const double *x, const double *p, double *out, void *data)
{
    (void)x, (void)p, (void)data;
    for (int k = 0; k < BED_N; k++)
        out[k] = -1, out[BED_N + k] = 0;
    return 0;
}

START_TEST(test_end_state_error_estimate_on_a_bed_closer_than_eps)
{
    hes_ess_model bed = { "bed", "ball on springs 2.5e-4 apart", 2, BED_N, NULL, NULL, 0, NULL,
                          bed_f, NULL, bed_h, bed_Dh, NULL, NULL, NULL, 0, 0, .h_some = NULL };
    hes_ess *ess;
    ck_assert_int_eq(hes_ess_new(&bed, &ess, NULL), HES_OK);
    double x0[2] = { 0.05, 0 }, ref[2];
    hes_ess_options o;
    hes_ess_options_init(&o);
    o.eps = 1e-6;
    hes_ess_result r;
    ck_assert_int_eq(hes_ess_run(ess, &o, 0.0, x0, 0.5, &r), HES_OK);
    memcpy(ref, r.x_end, sizeof ref);
    hes_ess_result_free(&r);
    o.eps = 1e-3;
    ck_assert_int_eq(hes_ess_run(ess, &o, 0.0, x0, 0.5, &r), HES_OK);
    ck_assert_int_eq(hes_ess_run_error(ess, &o, 0.0, x0, 0.5, &r), HES_OK);
    double truth = fmax(fabs(r.x_end[0] - ref[0]), fabs(r.x_end[1] - ref[1]));
    printf("test_ess: bed closer than eps = 1e-3: estimate %.3g (order %.2f), true error %.3g\n",
           r.eps_error, r.eps_order, truth);
    ck_assert_double_gt(truth, 1e-3);                 /* the case is the one it claims */
    ck_assert_msg(!(fabs(r.eps_order - 2) <= 0.5) || r.eps_error > truth / 3,
                  "estimate %g at order %g trusted, true error %g", r.eps_error, r.eps_order,
                  truth);
    hes_ess_result_free(&r);
    hes_ess_destroy(ess);
}
END_TEST

static Suite *ess_suite(void)
{
    Suite *s = suite_create("ess");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_ess_error_is_second_order_in_eps_on_piecewise_affine_system);
    tcase_add_test(tc, test_hopper_matches_closed_form_better_as_eps_shrinks);
    tcase_add_test(tc, test_end_state_error_estimate_matches_the_closed_form);
    tcase_add_test(tc, test_hopper_let_go_at_rest_on_its_guard);
    tcase_add_test(tc, test_end_state_error_estimate_on_a_bed_closer_than_eps);
    tcase_add_test(tc, test_jacobian_equals_central_differences_of_the_integrator);
    tcase_add_test(tc, test_field_leaving_guard_in_its_band_is_watched_or_a_strict_liveness_error);
    tcase_add_test(tc, test_bad_models_and_arguments_are_refused_with_a_reason);
    tcase_add_test(tc, test_a_state_or_event_name_given_twice_is_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(ess_suite());
}
