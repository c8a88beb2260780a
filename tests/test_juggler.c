/*
 * test_juggler.c - the paddle juggler against its closed form (paper Sec.
 * IV-A): the monodromy Phi = A Xi A with A = [[1, T/2], [0, 1]] and Xi of
 * eq. (9), psi from the quadratic formula, and the stable interval
 * -2 g (1 + alpha^2) / (1 + alpha)^2 < paddle_accel < 0 of eq. (10).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"
#include "testutil.h"

typedef struct { double alpha, g, T, a; } jparams;

static jparams defaults(void)
{
    jparams p = { 0.5, 9.81, 0.5, -5.45 };
    return p;
}

/* Phi = A Xi A by hand (column-major 2x2). */
static void closed_form_phi(jparams p, double *phi)
{
    double vP = p.g * p.T * (1 - p.alpha) / (2 * (1 + p.alpha)), vB = -p.g * p.T / 2;
    double xi21 = (1 + p.alpha) * (p.a + p.g) / (vP - vB);
    double A[4] = { 1, 0, p.T / 2, 1 };
    double X[4] = { -p.alpha, xi21, 0, -p.alpha };
    double XA[4], AXA[4];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            XA[i + 2 * j] = X[i] * A[2 * j] + X[i + 2] * A[1 + 2 * j];
        }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            AXA[i + 2 * j] = A[i] * XA[2 * j] + A[i + 2] * XA[1 + 2 * j];
    memcpy(phi, AXA, sizeof AXA);
}

/* Spectral radius of a real 2x2 from its trace and determinant. */
static double psi_2x2(const double *m)
{
    double tr = m[0] + m[3], det = m[0] * m[3] - m[1] * m[2], disc = tr * tr - 4 * det;
    if (disc < 0)
        return sqrt(det);
    return fmax(fabs(tr + sqrt(disc)), fabs(tr - sqrt(disc))) / 2;
}

static double lower_end(jparams p)
{
    return -2 * p.g * (1 + p.alpha * p.alpha) / ((1 + p.alpha) * (1 + p.alpha));
}

static hes_system *juggler(jparams p)
{
    hes_system *sys = test_system_of(hes_problem_find("paddle-juggler"));
    ck_assert_ptr_nonnull(sys);
    ck_assert_int_eq(hes_system_set_param(sys, "alpha", p.alpha), HES_OK);
    ck_assert_int_eq(hes_system_set_param(sys, "g", p.g), HES_OK);
    ck_assert_int_eq(hes_system_set_param(sys, "period", p.T), HES_OK);
    ck_assert_int_eq(hes_system_set_param(sys, "paddle_accel", p.a), HES_OK);
    return sys;
}

static void analyze(jparams p, hes_analysis *res)
{
    hes_system *sys = juggler(p);
    hes_status st = hes_analyze(sys, 0, res);
    ck_assert_msg(st == HES_OK, "a = %g: %s", p.a, hes_system_errmsg(sys));
    hes_system_destroy(sys);
}

START_TEST(test_juggler_monodromy_equals_closed_form_AXiA)
{
    jparams p = defaults();
    double alphas[] = { 0.5, 0.2, 0.8 };
    for (int k = 0; k < 3; k++) {
        p.alpha = alphas[k];
        hes_analysis res;
        analyze(p, &res);
        double phi[4];
        closed_form_phi(p, phi);
        ck_assert_int_eq(res.mono.n, 2);
        ck_assert_int_eq(res.mono.autonomous, 0);
        for (int i = 0; i < 4; i++)
            ck_assert_msg(fabs(res.mono.phi[i] - phi[i]) < 1e-9 * fmax(1, fabs(phi[i])),
                          "alpha %g Phi[%d] = %.15g, closed form %.15g", p.alpha, i,
                          res.mono.phi[i], phi[i]);
        ck_assert_int_eq(res.stab.n_mult, 2); /* non-autonomous: no multiplier dropped */
        hes_analysis_free(&res);
    }
}
END_TEST

START_TEST(test_juggler_psi_matches_closed_form_across_stable_interval)
{
    jparams p = defaults();
    double lo = lower_end(p);
    int n = 0;
    for (double a = lo - 4.0; a <= 3.0; a += 0.37, n++) {
        p.a = a;
        hes_analysis res;
        analyze(p, &res);
        double phi[4];
        closed_form_phi(p, phi);
        double want = psi_2x2(phi);
        ck_assert_msg(fabs(res.stab.psi - want) <= 1e-9 * fmax(1, want),
                      "a = %g: psi %.15g, closed form %.15g", a, res.stab.psi, want);
        ck_assert_int_eq(res.stab.stable, a > lo && a < 0);
        hes_analysis_free(&res);
    }
    ck_assert_int_gt(n, 20);
}
END_TEST

START_TEST(test_juggler_verdict_flips_exactly_at_both_ends_of_eq10)
{
    double alphas[] = { 0.5, 0.3 };
    for (int k = 0; k < 2; k++) {
        jparams p = defaults();
        p.alpha = alphas[k];
        double ends[2] = { lower_end(p), 0.0 };
        for (int e = 0; e < 2; e++) {
            hes_analysis in, out;
            double eps = 1e-6;
            p.a = ends[e] + (e == 0 ? eps : -eps);
            analyze(p, &in);
            p.a = ends[e] + (e == 0 ? -eps : eps);
            analyze(p, &out);
            ck_assert_msg(in.stab.stable && in.stab.psi < 1.0,
                          "alpha %g inside end %g: psi %.15g", p.alpha, ends[e], in.stab.psi);
            ck_assert_msg(!out.stab.stable && out.stab.psi > 1.0,
                          "alpha %g outside end %g: psi %.15g", p.alpha, ends[e], out.stab.psi);
            hes_analysis_free(&in);
            hes_analysis_free(&out);
        }
    }
}
END_TEST

START_TEST(test_juggler_minimum_psi_is_alpha_inside_interval)
{
    /* Inside eq. (10) near its middle the multipliers are a complex pair
     * with |lambda|^2 = det(Phi) = alpha^2. */
    jparams p = defaults();
    hes_analysis res;
    analyze(p, &res);
    ck_assert_double_eq_tol(res.stab.psi, p.alpha, 1e-12);
    ck_assert(fabs(res.stab.im[0]) > 0.1);
    hes_analysis_free(&res);
}
END_TEST

START_TEST(test_juggler_monodromy_equals_finite_differences_of_stroboscopic_map)
{
    double accels[] = { -5.45, -10.0, 2.0 };
    for (int k = 0; k < 3; k++) {
        jparams p = defaults();
        p.a = accels[k];
        hes_system *sys = juggler(p);
        hes_analysis res;
        ck_assert_int_eq(hes_analyze(sys, 1, &res), HES_OK);
        ck_assert(res.have_check);
        ck_assert_msg(res.check_max_abs_diff < 1e-6, "a = %g: |Phi - FD| = %g", p.a,
                      res.check_max_abs_diff);
        hes_analysis_free(&res);
        hes_system_destroy(sys);
    }
}
END_TEST

START_TEST(test_juggler_orbit_is_the_bounce_of_period_T)
{
    jparams p = defaults();
    hes_analysis res;
    analyze(p, &res);
    ck_assert_double_eq_tol(res.orbit.period, p.T, 1e-14);
    ck_assert_double_eq_tol(res.orbit.x0[0], p.g * p.T * p.T / 8, 1e-10);
    ck_assert_double_eq_tol(res.orbit.x0[1], 0.0, 1e-10);
    ck_assert_int_ge(res.orbit.traj.n_events, 2);
    const hes_event *impact = &res.orbit.traj.events[0];
    ck_assert_double_eq_tol(impact->t, p.T / 2, 1e-9);
    ck_assert_double_eq_tol(impact->x_minus[1], -p.g * p.T / 2, 1e-9);
    ck_assert_double_eq_tol(impact->x_plus[1], p.g * p.T / 2, 1e-9);
    hes_analysis_free(&res);
}
END_TEST

/* The juggler with a poor initial guess: Newton must find the same orbit. */
static int bad_guess(double *p, double *x0, void *d)
{
    (void)d;
    x0[0] = p[1] * p[2] * p[2] / 8 + 0.05;
    x0[1] = 0.4;
    return 0;
}

START_TEST(test_juggler_newton_converges_from_a_poor_guess)
{
    hes_model m = *hes_problem_find("paddle-juggler");
    m.orbit.guess = bad_guess;
    hes_system *sys = test_system_of(&m);
    ck_assert_ptr_nonnull(sys);
    hes_orbit o;
    ck_assert_int_eq(hes_orbit_find(sys, &o), HES_OK);
    ck_assert_int_gt(o.iterations, 0);
    ck_assert(o.residual < 1e-10);
    ck_assert_double_eq_tol(o.x0[0], 9.81 * 0.25 / 8, 1e-9);
    ck_assert_double_eq_tol(o.x0[1], 0.0, 1e-9);
    hes_orbit_free(&o);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_juggler_large_paddle_accel_has_no_period1_orbit)
{
    jparams p = defaults();
    p.a = 60.0; /* the paddle rises through the ball's flight path */
    hes_system *sys = juggler(p);
    hes_analysis res;
    ck_assert_int_eq(hes_analyze(sys, 0, &res), HES_ENOORBIT);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "does not exist"));
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_juggler_perturbed_bounces_converge_only_when_stable)
{
    jparams p = defaults();
    hes_system *sys = juggler(p);
    hes_orbit o;
    hes_trials t;
    ck_assert_int_eq(hes_orbit_find(sys, &o), HES_OK);
    ck_assert_int_eq(hes_trials_run(sys, &o, 8, 0.01, 40, 7, 1e-6, &t), HES_OK);
    ck_assert_int_eq(t.converged, 8);
    for (int i = 0; i < 8; i++)
        ck_assert(t.trials[i].error[39] < 1e-9); /* 0.5^40 * 0.01 */
    /* the mean over the trials that completed, period by period */
    ck_assert_int_eq(t.n_complete, 8);
    for (int k = 0; k < 40; k++) {
        double s = 0;
        for (int i = 0; i < 8; i++)
            s += t.trials[i].error[k];
        ck_assert_double_eq_tol(t.mean_error[k], s / 8, 1e-15 * (s / 8));
    }
    /* the trials agree with the closed-form verdict, and would contradict
       the other one */
    ck_assert_ptr_null(hes_trials_contradiction(HES_STABLE, &t));
    ck_assert_ptr_nonnull(hes_trials_contradiction(HES_UNSTABLE, &t));
    hes_trials_free(&t);
    hes_orbit_free(&o);
    ck_assert_int_eq(hes_system_set_param(sys, "paddle_accel", 2.0), HES_OK);
    ck_assert_int_eq(hes_orbit_find(sys, &o), HES_OK);
    ck_assert_int_eq(hes_trials_run(sys, &o, 8, 0.01, 40, 7, 1e-6, &t), HES_OK);
    ck_assert_int_eq(t.converged, 0);
    ck_assert_ptr_null(hes_trials_contradiction(HES_UNSTABLE, &t));
    ck_assert_ptr_nonnull(hes_trials_contradiction(HES_STABLE, &t));
    ck_assert_ptr_null(hes_trials_contradiction(HES_MARGINAL, &t));
    hes_trials_free(&t);
    hes_orbit_free(&o);
    hes_system_destroy(sys);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("juggler");
    TCase *tc = tcase_create("closed form");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_juggler_monodromy_equals_closed_form_AXiA);
    tcase_add_test(tc, test_juggler_psi_matches_closed_form_across_stable_interval);
    tcase_add_test(tc, test_juggler_verdict_flips_exactly_at_both_ends_of_eq10);
    tcase_add_test(tc, test_juggler_minimum_psi_is_alpha_inside_interval);
    tcase_add_test(tc, test_juggler_monodromy_equals_finite_differences_of_stroboscopic_map);
    tcase_add_test(tc, test_juggler_orbit_is_the_bounce_of_period_T);
    tcase_add_test(tc, test_juggler_newton_converges_from_a_poor_guess);
    tcase_add_test(tc, test_juggler_large_paddle_accel_has_no_period1_orbit);
    tcase_add_test(tc, test_juggler_perturbed_bounces_converge_only_when_stable);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
