/*
 * test_slip.c - the SLIP hopper (paper Sec. IV-B): the orbit solved for
 * (l_td, theta_td), the monodromy against central differences of the full
 * nonlinear return map, the projection onto the Poincare section, and the
 * verdict against perturbed simulations (the paper's Fig. 3 experiment).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>

#include "hes.h"
#include "testutil.h"

static hes_system *slip(double K, double thetadot)
{
    hes_system *sys = test_system_of(hes_problem_find("slip-hopper"));
    ck_assert_ptr_nonnull(sys);
    ck_assert_int_eq(hes_system_set_param(sys, "K", K), HES_OK);
    ck_assert_int_eq(hes_system_set_param(sys, "thetadot", thetadot), HES_OK);
    return sys;
}

static double max_abs(const double *a, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++)
        m = fmax(m, fabs(a[i]));
    return m;
}

/* Eigenvalue moduli of the 2x2 block of M on the section coordinates (vx, y):
 * the section is vy = 0, and states on it map back onto it. */
static void section_moduli(const double *M, double *mod)
{
    double a = M[0], b = M[3], c = M[1], d = M[4]; /* M is 3x3 column-major */
    double tr = a + d, det = a * d - b * c, disc = tr * tr - 4 * det;
    if (disc < 0) {
        mod[0] = mod[1] = sqrt(det);
    } else {
        mod[0] = fabs(tr + sqrt(disc)) / 2;
        mod[1] = fabs(tr - sqrt(disc)) / 2;
        if (mod[1] > mod[0]) {
            double t = mod[0];
            mod[0] = mod[1];
            mod[1] = t;
        }
    }
}

static const double shapes[][2] = {
    { 0.0, 0.0 }, { 0.1, 0.0 }, { 0.0, -0.3 }, { 0.129, -0.015 }, { -0.05, 0.4 }, { 0.1, -0.6 },
};
#define N_SHAPES ((int)(sizeof shapes / sizeof shapes[0]))

START_TEST(test_slip_orbit_is_a_fixed_point_of_the_apex_map)
{
    hes_system *sys = slip(0, 0);
    hes_orbit o;
    ck_assert_int_eq(hes_orbit_find(sys, &o), HES_OK);
    ck_assert(o.residual < 1e-10);
    ck_assert_int_eq(o.autonomous, 1);
    ck_assert_double_eq_tol(o.x0[0], 2.0, 1e-12);
    ck_assert_double_eq_tol(o.x0[1], 2.5, 1e-12);
    double xr[3];
    ck_assert_int_eq(hes_orbit_return_map(sys, o.x0, xr), HES_OK);
    for (int i = 0; i < 3; i++)
        ck_assert_double_eq_tol(xr[i], o.x0[i], 1e-9);
    double ltd, th;
    hes_system_get_param(sys, "l_td", &ltd);
    hes_system_get_param(sys, "theta_td", &th);
    ck_assert(ltd > 0.5 && ltd < 1.0);  /* preloaded: shorter than l0 */
    ck_assert(th > 0.0 && th < 0.5);    /* toe ahead of the hip */
    /* event sequence touchdown, liftoff, apex; touchdown at the nominal time */
    const hes_model *m = hes_system_model(sys);
    ck_assert_int_eq(o.traj.n_events, 3);
    ck_assert_str_eq(m->transitions[o.traj.events[0].transition].name, "touchdown");
    ck_assert_str_eq(m->transitions[o.traj.events[1].transition].name, "liftoff");
    ck_assert_str_eq(m->transitions[o.traj.events[2].transition].name, "apex");
    ck_assert_double_eq_tol(o.traj.events[0].t, sqrt(2 * (2.5 - ltd * cos(th)) / 9.81), 1e-10);
    hes_orbit_free(&o);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_slip_newton_converges_from_a_poor_guess_to_the_same_orbit)
{
    hes_system *a = slip(0, 0), *b = slip(0, 0);
    ck_assert_int_eq(hes_system_set_param(b, "l_td", 0.95), HES_OK);
    ck_assert_int_eq(hes_system_set_param(b, "theta_td", 0.2), HES_OK);
    hes_orbit oa, ob;
    ck_assert_int_eq(hes_orbit_find(a, &oa), HES_OK);
    ck_assert_int_eq(hes_orbit_find(b, &ob), HES_OK);
    ck_assert_int_gt(ob.iterations, 2);
    const char *names[] = { "l_td", "theta_td" };
    for (int i = 0; i < 2; i++) {
        double va, vb;
        hes_system_get_param(a, names[i], &va);
        hes_system_get_param(b, names[i], &vb);
        ck_assert_double_eq_tol(va, vb, 1e-9);
    }
    hes_orbit_free(&oa);
    hes_orbit_free(&ob);
    hes_system_destroy(a);
    hes_system_destroy(b);
}
END_TEST

START_TEST(test_slip_shape_parameters_do_not_move_the_orbit)
{
    hes_system *a = slip(0, 0), *b = slip(0.17, -0.45);
    hes_orbit oa, ob;
    ck_assert_int_eq(hes_orbit_find(a, &oa), HES_OK);
    ck_assert_int_eq(hes_orbit_find(b, &ob), HES_OK);
    ck_assert_double_eq_tol(oa.period, ob.period, 1e-9);
    ck_assert_int_eq(oa.traj.n_events, ob.traj.n_events);
    for (int k = 0; k < oa.traj.n_events; k++)
        ck_assert_double_eq_tol(oa.traj.events[k].t, ob.traj.events[k].t, 1e-9);
    hes_orbit_free(&oa);
    hes_orbit_free(&ob);
    hes_system_destroy(a);
    hes_system_destroy(b);
}
END_TEST

START_TEST(test_slip_monodromy_equals_central_differences_of_return_map)
{
    for (int s = 0; s < N_SHAPES; s++) {
        hes_system *sys = slip(shapes[s][0], shapes[s][1]);
        hes_analysis res;
        ck_assert_msg(hes_analyze(sys, 0, &res) == HES_OK, "%s", hes_system_errmsg(sys));
        double fd[9];
        ck_assert_int_eq(hes_return_map_fd(sys, &res.orbit, fd), HES_OK);
        double diff[9];
        for (int i = 0; i < 9; i++)
            diff[i] = res.mono.proj[i] - fd[i];
        double rel = max_abs(diff, 9) / fmax(1.0, max_abs(fd, 9));
        ck_assert_msg(rel < 1e-6, "K %g thetadot %g: relative difference %g", shapes[s][0],
                      shapes[s][1], rel);
        /* the multipliers are those of the return map restricted to the
         * section, computed here from the finite differences alone */
        double mod[2];
        section_moduli(fd, mod);
        ck_assert_int_eq(res.stab.n_mult, 2);
        for (int k = 0; k < 2; k++)
            ck_assert_msg(fabs(hypot(res.stab.re[k], res.stab.im[k]) - mod[k]) < 1e-6 * fmax(1, mod[k]),
                          "K %g thetadot %g: |mult %d| = %.12g, FD section map %.12g", shapes[s][0],
                          shapes[s][1], k, hypot(res.stab.re[k], res.stab.im[k]), mod[k]);
        hes_analysis_free(&res);
        hes_system_destroy(sys);
    }
}
END_TEST

/* The check's fourth-order stencil: its error against the monodromy falls
 * as h^4 where the second-order one's falls as h^2 (halving h divides them
 * by about 16 and 4), and at each step it is the smaller. */
START_TEST(test_slip_fourth_order_differences_converge_as_h4)
{
    hes_system *sys = slip(shapes[0][0], shapes[0][1]);
    hes_analysis res;
    ck_assert_msg(hes_analyze(sys, 0, &res) == HES_OK, "%s", hes_system_errmsg(sys));
    const double steps[3] = { 4e-2, 2e-2, 1e-2 };
    double err[2][3];
    for (int o = 0; o < 2; o++)
        for (int k = 0; k < 3; k++) {
            hes_settings set = hes_system_get_settings(sys);
            set.fd_step = steps[k];
            set.fd_order = o ? 4 : 2;
            ck_assert_int_eq(hes_system_set_settings(sys, &set), HES_OK);
            double fd[9], diff[9];
            ck_assert_int_eq(hes_return_map_fd(sys, &res.orbit, fd), HES_OK);
            for (int i = 0; i < 9; i++)
                diff[i] = res.mono.proj[i] - fd[i];
            err[o][k] = max_abs(diff, 9);
            printf("slip: order %d, step %g: max |difference| %.3e\n", o ? 4 : 2, steps[k],
                   err[o][k]);
        }
    for (int k = 0; k < 3; k++)
        ck_assert_msg(err[1][k] < err[0][k] / 10, "step %g: order 4 %g, order 2 %g", steps[k],
                      err[1][k], err[0][k]);
    for (int k = 0; k < 2; k++) {
        double r2 = err[0][k] / err[0][k + 1], r4 = err[1][k] / err[1][k + 1];
        ck_assert_msg(r2 > 3 && r2 < 5.3, "order 2: ratio %g at %g", r2, steps[k]);
        ck_assert_msg(r4 > 11 && r4 < 21, "order 4: ratio %g at %g", r4, steps[k]);
    }
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_slip_multipliers_never_include_the_trivial_one)
{
    for (int s = 0; s < N_SHAPES; s++) {
        hes_system *sys = slip(shapes[s][0], shapes[s][1]);
        hes_analysis res;
        ck_assert_int_eq(hes_analyze(sys, 0, &res), HES_OK);
        ck_assert_int_eq(res.stab.n, 3);
        ck_assert_int_eq(res.stab.n_mult, 2);
        ck_assert(res.stab.trivial >= 0);
        ck_assert(res.stab.trivial_abs < 1e-8);
        for (int k = 0; k < 2; k++)
            ck_assert(hypot(res.stab.re[k], res.stab.im[k]) > 1e-3);
        hes_analysis_free(&res);
        hes_system_destroy(sys);
    }
}
END_TEST

/* Eigenvalues of a 3x3 matrix (dgeev) */
static void eig3(const double *M, double *wr, double *wi)
{
    double a[9];
    memcpy(a, M, sizeof a);
    ck_assert_int_eq(LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'N', 3, a, 3, wr, wi, NULL, 3, NULL, 3), 0);
}

START_TEST(test_slip_skipping_projection_reports_the_trivial_multiplier_and_a_wrong_verdict)
{
    /* K = 0.1 stabilises the hop: the nontrivial multipliers are inside the
     * unit circle, but the unprojected monodromy keeps the flow's multiplier
     * 1, so its spectral radius would call the orbit "not stable". */
    hes_system *sys = slip(0.1, 0.0);
    hes_analysis res;
    ck_assert_int_eq(hes_analyze(sys, 0, &res), HES_OK);
    ck_assert(res.stab.stable && res.stab.psi < 0.9);
    double wr[3], wi[3], rho = 0, nearest1 = INFINITY;
    eig3(res.mono.phi, wr, wi);
    for (int i = 0; i < 3; i++) {
        rho = fmax(rho, hypot(wr[i], wi[i]));
        nearest1 = fmin(nearest1, hypot(wr[i] - 1, wi[i]));
    }
    ck_assert(nearest1 < 1e-7);
    ck_assert(rho >= 1.0 - 1e-7); /* the naive verdict: not asymptotically stable */
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_slip_dropping_eigenvalue_nearest_one_is_wrong_with_leg_retraction)
{
    /* With thetadot != 0 the touchdown law depends on the time since apex,
     * so a shift along the flow is not a trivial perturbation: the full
     * monodromy's "other" eigenvalues are not the multipliers of the apex
     * map, which the projection gets right (checked against FD above). */
    hes_system *sys = slip(0.1, -0.6);
    hes_analysis res;
    ck_assert_int_eq(hes_analyze(sys, 0, &res), HES_OK);
    double wr[3], wi[3];
    eig3(res.mono.phi, wr, wi);
    int drop = 0;
    for (int i = 1; i < 3; i++)
        if (hypot(wr[i] - 1, wi[i]) < hypot(wr[drop] - 1, wi[drop]))
            drop = i;
    double naive_psi = 0;
    for (int i = 0; i < 3; i++)
        if (i != drop)
            naive_psi = fmax(naive_psi, hypot(wr[i], wi[i]));
    ck_assert_msg(fabs(naive_psi - res.stab.psi) > 1e-2, "naive %g projected %g", naive_psi,
                  res.stab.psi);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_slip_perturbed_hops_converge_with_gain_and_diverge_without)
{
    /* the paper's Fig. 3 experiment: 20 trials, radius 0.1, 100 apexes */
    hes_system *sys = slip(0.1, 0.0);
    hes_orbit o;
    hes_trials t;
    ck_assert_int_eq(hes_orbit_find(sys, &o), HES_OK);
    ck_assert_int_eq(hes_trials_run(sys, &o, 20, 0.1, 100, 1, 1e-6, &t), HES_OK);
    ck_assert_int_eq(t.converged, 20);
    hes_trials_free(&t);
    hes_orbit_free(&o);
    hes_system_destroy(sys);

    sys = slip(0.0, 0.0);
    ck_assert_int_eq(hes_orbit_find(sys, &o), HES_OK);
    ck_assert_int_eq(hes_trials_run(sys, &o, 20, 0.1, 100, 1, 1e-6, &t), HES_OK);
    ck_assert_int_eq(t.converged, 0);
    int failed = 0;
    for (int i = 0; i < 20; i++)
        failed += t.trials[i].failure != HES_OK;
    ck_assert_int_eq(failed, 20);
    hes_trials_free(&t);
    hes_orbit_free(&o);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_slip_fall_is_reported_and_leaves_no_half_event)
{
    /* an apex below the touchdown height: the apex reset refuses it */
    hes_system *sys = slip(0, 0);
    hes_orbit o;
    ck_assert_int_eq(hes_orbit_find(sys, &o), HES_OK);
    int ascent = hes_model_mode_index(hes_system_model(sys), "ascent");
    double x[3] = { 2.0, 0.5, 1.0 };
    hes_traj tr;
    ck_assert_int_eq(hes_simulate(sys, ascent, 0, 0, x, NULL, &tr), HES_EMODEL);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "fell"));
    ck_assert_int_eq(tr.n_events, 0); /* the refused apex is not in the log */
    ck_assert_int_eq(tr.n_phases, 1);
    ck_assert_double_eq_tol(tr.phases[0].x1[1], 0.5 + 1.0 / (2 * 9.81), 1e-9); /* at the apex */
    hes_traj_free(&tr);
    hes_orbit_free(&o);
    hes_system_destroy(sys);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("slip");
    TCase *tc = tcase_create("slip");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_slip_orbit_is_a_fixed_point_of_the_apex_map);
    tcase_add_test(tc, test_slip_newton_converges_from_a_poor_guess_to_the_same_orbit);
    tcase_add_test(tc, test_slip_shape_parameters_do_not_move_the_orbit);
    tcase_add_test(tc, test_slip_fourth_order_differences_converge_as_h4);
    tcase_add_test(tc, test_slip_monodromy_equals_central_differences_of_return_map);
    tcase_add_test(tc, test_slip_multipliers_never_include_the_trivial_one);
    tcase_add_test(tc, test_slip_skipping_projection_reports_the_trivial_multiplier_and_a_wrong_verdict);
    tcase_add_test(tc, test_slip_dropping_eigenvalue_nearest_one_is_wrong_with_leg_retraction);
    tcase_add_test(tc, test_slip_perturbed_hops_converge_with_gain_and_diverge_without);
    tcase_add_test(tc, test_slip_fall_is_reported_and_leaves_no_half_event);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
