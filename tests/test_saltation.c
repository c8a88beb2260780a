/*
 * test_saltation.c - saltation matrices (paper eq. 2) against independent
 * computations: the juggler's closed form (eq. 9), and for every event of the
 * SLIP orbit central differences of the full nonlinear flow across that one
 * event, which must equal A_post(d) Xi A_pre(d) with the variational matrices
 * of the short phases on either side.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"
#include "testutil.h"

static void matmul(int m, int k, int n, const double *a, const double *b, double *c)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double s = 0;
            for (int l = 0; l < k; l++)
                s += a[i + l * m] * b[l + j * k];
            c[i + j * m] = s;
        }
}

START_TEST(test_juggler_impact_saltation_equals_eq9)
{
    const double accels[] = { -5.45, -12.0, 3.0 };
    for (int k = 0; k < 3; k++) {
        hes_system *sys = test_system_of(hes_problem_find("paddle-juggler"));
        double alpha = 0.5, g = 9.81, T = 0.5, a = accels[k];
        ck_assert_int_eq(hes_system_set_param(sys, "paddle_accel", a), HES_OK);
        double vP = g * T * (1 - alpha) / (2 * (1 + alpha)), vB = -g * T / 2;
        double x[2] = { 0.0, vB }, xi[4];
        int impact = hes_model_transition_index(hes_system_model(sys), "impact");
        ck_assert_int_eq(hes_saltation(sys, impact, T / 2, x, xi), HES_OK);
        double want[4] = { -alpha, (1 + alpha) * (a + g) / (vP - vB), 0, -alpha };
        for (int i = 0; i < 4; i++)
            ck_assert_msg(fabs(xi[i] - want[i]) < 1e-12 * fmax(1, fabs(want[i])),
                          "Xi[%d] = %.17g, eq. 9 gives %.17g", i, xi[i], want[i]);
        /* the apex event has identity reset and equal vector fields */
        int apex = hes_model_transition_index(hes_system_model(sys), "apex");
        double xa[2] = { g * T * T / 8, 0.0 };
        ck_assert_int_eq(hes_saltation(sys, apex, T, xa, xi), HES_OK);
        ck_assert_double_eq_tol(xi[0], 1, 1e-14);
        ck_assert_double_eq_tol(xi[1], 0, 1e-14);
        ck_assert_double_eq_tol(xi[2], 0, 1e-14);
        ck_assert_double_eq_tol(xi[3], 1, 1e-14);
        hes_system_destroy(sys);
    }
}
END_TEST

/* For every event of the SLIP orbit at these shape parameters: the largest
 * relative difference between A_post Xi A_pre and differences of the flow
 * (tests/testutil.c); returns the number of events checked. */
static int check_slip_events(double K, double thetadot, double *worst)
{
    hes_system *sys = test_system_of(hes_problem_find("slip-hopper"));
    ck_assert_int_eq(hes_system_set_param(sys, "K", K), HES_OK);
    ck_assert_int_eq(hes_system_set_param(sys, "thetadot", thetadot), HES_OK);
    hes_orbit orb;
    ck_assert_int_eq(hes_orbit_find(sys, &orb), HES_OK);
    int n = orb.traj.n_events;
    for (int k = 0; k < n; k++)
        *worst = fmax(*worst, test_saltation_vs_flow(sys, &orb.traj.events[k], 1e-3));
    hes_orbit_free(&orb);
    hes_system_destroy(sys);
    return n;
}

START_TEST(test_slip_saltation_equals_fd_of_flow_across_each_event)
{
    const double shapes[][2] = { { 0, 0 }, { 0.1, 0 }, { 0, -0.5 }, { 0.129, -0.015 }, { -0.2, 0.8 } };
    for (int s = 0; s < 5; s++) {
        double worst = 0;
        /* touchdown, liftoff, apex */
        ck_assert_int_eq(check_slip_events(shapes[s][0], shapes[s][1], &worst), 3);
        ck_assert_msg(worst < 1e-6, "K %g thetadot %g: relative difference %g", shapes[s][0],
                      shapes[s][1], worst);
    }
}
END_TEST

START_TEST(test_saltation_is_rectangular_when_dimension_changes)
{
    hes_system *sys = test_system_of(hes_problem_find("slip-hopper"));
    const hes_model *m = hes_system_model(sys);
    hes_orbit orb;
    ck_assert_int_eq(hes_orbit_find(sys, &orb), HES_OK);
    hes_monodromy mono;
    ck_assert_int_eq(hes_monodromy_compute(sys, &orb.traj, 1, &mono), HES_OK);
    /* A_descent, Xi_td (4x3), A_stance, Xi_lo (3x4), A_ascent, Xi_apex */
    ck_assert_int_eq(mono.n_factors, 6);
    ck_assert_int_eq(mono.factors[1].kind, HES_FACTOR_EVENT);
    ck_assert_str_eq(m->transitions[mono.factors[1].index].name, "touchdown");
    ck_assert_int_eq(mono.factors[1].rows, 4);
    ck_assert_int_eq(mono.factors[1].cols, 3);
    ck_assert_int_eq(mono.factors[3].rows, 3);
    ck_assert_int_eq(mono.factors[3].cols, 4);
    /* Phi is the product of the stored factors */
    double M[16] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, out[16];
    int rows = 3;
    for (int k = 0; k < mono.n_factors; k++) {
        ck_assert_int_eq(mono.factors[k].cols, rows);
        matmul(mono.factors[k].rows, rows, 3, mono.factors[k].m, M, out);
        rows = mono.factors[k].rows;
        memcpy(M, out, sizeof(double) * rows * 3);
    }
    for (int i = 0; i < 9; i++)
        ck_assert_double_eq_tol(M[i], mono.phi[i], 1e-12 * fmax(1, fabs(M[i])));
    hes_monodromy_free(&mono);
    hes_orbit_free(&orb);
    hes_system_destroy(sys);
}
END_TEST

/* The SLIP with no Jacobians at all: everything by central differences. */
START_TEST(test_saltation_without_model_jacobians_matches_analytic)
{
    const hes_model *ref = hes_problem_find("slip-hopper");
    hes_model m = *ref;
    hes_mode modes[3];
    hes_transition trs[3];
    memcpy(modes, ref->modes, sizeof modes);
    memcpy(trs, ref->transitions, sizeof trs);
    for (int i = 0; i < 3; i++) {
        modes[i].field_dx = NULL;
        trs[i].guard_dx = trs[i].guard_dt = NULL;
        trs[i].reset_dx = trs[i].reset_dt = NULL;
    }
    m.modes = modes;
    m.transitions = trs;
    hes_system *a = test_system_of(ref), *b = test_system_of(&m);
    ck_assert_ptr_nonnull(b);
    for (int s = 0; s < 2; s++) {
        hes_system *sys = s ? b : a;
        ck_assert_int_eq(hes_system_set_param(sys, "K", 0.1), HES_OK);
        ck_assert_int_eq(hes_system_set_param(sys, "thetadot", -0.4), HES_OK);
    }
    hes_analysis ra, rb;
    ck_assert_int_eq(hes_analyze(a, 0, &ra), HES_OK);
    ck_assert_int_eq(hes_analyze(b, 0, &rb), HES_OK);
    for (int i = 0; i < 9; i++)
        ck_assert_msg(fabs(ra.mono.proj[i] - rb.mono.proj[i]) < 1e-6 * fmax(1, fabs(ra.mono.proj[i])),
                      "P[%d]: analytic %.12g, finite differences %.12g", i, ra.mono.proj[i], rb.mono.proj[i]);
    ck_assert_double_eq_tol(ra.stab.psi, rb.stab.psi, 1e-6);
    hes_analysis_free(&ra);
    hes_analysis_free(&rb);
    hes_system_destroy(a);
    hes_system_destroy(b);
}
END_TEST

START_TEST(test_saltation_at_tangential_touchdown_is_grazing)
{
    hes_system *sys = test_system_of(hes_problem_find("slip-hopper"));
    int td = hes_model_transition_index(hes_system_model(sys), "touchdown");
    double x[3] = { 2.0, 0.9, 0.0 }, xi[12]; /* vy = 0: the body moves along the guard */
    ck_assert_int_eq(hes_saltation(sys, td, 0.5, x, xi), HES_EGRAZING);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "touchdown"));
    x[2] = -3.0;
    ck_assert_int_eq(hes_saltation(sys, td, 0.5, x, xi), HES_OK);
    hes_system_destroy(sys);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("saltation");
    TCase *tc = tcase_create("saltation");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_juggler_impact_saltation_equals_eq9);
    tcase_add_test(tc, test_slip_saltation_equals_fd_of_flow_across_each_event);
    tcase_add_test(tc, test_saltation_is_rectangular_when_dimension_changes);
    tcase_add_test(tc, test_saltation_without_model_jacobians_matches_analytic);
    tcase_add_test(tc, test_saltation_at_tangential_touchdown_is_grazing);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
