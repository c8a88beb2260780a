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

static double max_abs(const double *a, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++)
        m = fmax(m, fabs(a[i]));
    return m;
}

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
        hes_system *sys = hes_system_create(hes_problem_find("paddle-juggler"));
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

/* Flow from (mode, model time tm) over `dur` with every guard armed; the
 * final state (after at most one event) goes to out. */
static void flow(hes_system *sys, int mode, double tm, const double *z, double dur,
                 int expect_mode, double *out)
{
    hes_sim_opts o = hes_sim_opts_default();
    hes_traj tr;
    o.t_end = dur;
    ck_assert_msg(hes_simulate(sys, mode, 0.0, tm, z, &o, &tr) == HES_OK, "%s",
                  hes_system_errmsg(sys));
    ck_assert_int_eq(tr.n_events, 1);
    const hes_phase *ph = &tr.phases[tr.n_phases - 1];
    ck_assert_int_eq(ph->mode, expect_mode);
    memcpy(out, ph->x1, sizeof(double) * hes_system_model(sys)->modes[expect_mode].dim);
    hes_traj_free(&tr);
}

/* For every event of the SLIP orbit: FD of the flow across it vs
 * A_post(d) Xi A_pre(d). */
static void check_slip_events(double K, double thetadot)
{
    hes_system *sys = hes_system_create(hes_problem_find("slip-hopper"));
    const hes_model *m = hes_system_model(sys);
    ck_assert_int_eq(hes_system_set_param(sys, "K", K), HES_OK);
    ck_assert_int_eq(hes_system_set_param(sys, "thetadot", thetadot), HES_OK);
    hes_orbit orb;
    ck_assert_int_eq(hes_orbit_find(sys, &orb), HES_OK);
    const double d = 1e-3;
    for (int k = 0; k < orb.traj.n_events; k++) {
        const hes_event *ev = &orb.traj.events[k];
        const hes_transition *T = &m->transitions[ev->transition];
        int ni = m->modes[T->from].dim, nj = m->modes[T->to].dim;
        double tm_after = T->clock_reset ? 0.0 : ev->tm;
        double z[4], zz[4], fp[4], fm[4], Apre[16], Apost[16], xi[16], tmp[16], lin[16], fd[16];
        /* the state d before the event, by integrating backwards */
        ck_assert_int_eq(hes_variational(sys, T->from, ev->tm, -d, ev->x_minus, z, NULL), HES_OK);
        ck_assert_int_eq(hes_variational(sys, T->from, ev->tm - d, d, z, NULL, Apre), HES_OK);
        ck_assert_int_eq(hes_saltation(sys, ev->transition, ev->tm, ev->x_minus, xi), HES_OK);
        ck_assert_int_eq(hes_variational(sys, T->to, tm_after, d, ev->x_plus, NULL, Apost), HES_OK);
        matmul(nj, ni, ni, xi, Apre, tmp);
        matmul(nj, nj, ni, Apost, tmp, lin);
        for (int j = 0; j < ni; j++) {
            double h = 1e-6 * fmax(1.0, fabs(z[j]));
            memcpy(zz, z, sizeof zz);
            zz[j] = z[j] + h;
            flow(sys, T->from, ev->tm - d, zz, 2 * d, T->to, fp);
            zz[j] = z[j] - h;
            flow(sys, T->from, ev->tm - d, zz, 2 * d, T->to, fm);
            for (int i = 0; i < nj; i++)
                fd[i + j * nj] = (fp[i] - fm[i]) / (2 * h);
        }
        double diff[16];
        for (int i = 0; i < ni * nj; i++)
            diff[i] = lin[i] - fd[i];
        double rel = max_abs(diff, ni * nj) / fmax(1.0, max_abs(fd, ni * nj));
        ck_assert_msg(rel < 1e-6, "K %g thetadot %g event '%s': relative difference %g",
                      K, thetadot, T->name, rel);
    }
    hes_orbit_free(&orb);
    hes_system_destroy(sys);
}

START_TEST(test_slip_saltation_equals_fd_of_flow_across_each_event)
{
    const double shapes[][2] = { { 0, 0 }, { 0.1, 0 }, { 0, -0.5 }, { 0.129, -0.015 }, { -0.2, 0.8 } };
    for (int s = 0; s < 5; s++)
        check_slip_events(shapes[s][0], shapes[s][1]);
}
END_TEST

START_TEST(test_saltation_is_rectangular_when_dimension_changes)
{
    hes_system *sys = hes_system_create(hes_problem_find("slip-hopper"));
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
    hes_system *a = hes_system_create(ref), *b = hes_system_create(&m);
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
    hes_system *sys = hes_system_create(hes_problem_find("slip-hopper"));
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
