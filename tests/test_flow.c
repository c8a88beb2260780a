/*
 * test_flow.c - the derivative of a hybrid flow over a time interval
 * (hes_flow_jacobian) against central differences of the full nonlinear
 * flow, and the decoupled-limbs result through it: the soft trotter dropped
 * level lands both feet at once, and since its limbs are decoupled the
 * flow is differentiable there (differences taken across the change of
 * touchdown order agree with the saltation product); the rigid trotter's
 * coupled legs give two different derivatives, one per order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* x(time) from (mode, x0) by a plain simulation. */
static void end_state(hes_system *sys, int mode, const double *x0, double time, double *x)
{
    hes_sim_options so;
    hes_sim_options_init(&so);
    so.t_end = time;
    hes_traj tr;
    ck_assert_int_eq(hes_simulate(sys, mode, 0.0, 0.0, x0, &so, &tr), HES_OK);
    const hes_phase *ph = &tr.phases[tr.n_phases - 1];
    memcpy(x, ph->x1, sizeof(double) * (size_t)hes_system_model(sys)->modes[ph->mode].dim);
    hes_traj_free(&tr);
}

/* max |J - central differences of the flow| / max(1, |fd|). */
static double jacobian_vs_flow(hes_system *sys, const double *x0, int n, double time,
                               const double *J)
{
    double worst = 0, xp[16], xm[16], a[16], b[16];
    for (int j = 0; j < n; j++) {
        double h = 1e-6 * fmax(1, fabs(x0[j]));
        memcpy(xp, x0, sizeof(double) * (size_t)n);
        memcpy(xm, x0, sizeof(double) * (size_t)n);
        xp[j] += h;
        xm[j] -= h;
        end_state(sys, 0, xp, time, a);
        end_state(sys, 0, xm, time, b);
        for (int i = 0; i < n; i++) {
            double fd = (a[i] - b[i]) / (2 * h);
            worst = fmax(worst, fabs(J[i + (size_t)n * j] - fd) / fmax(1, fabs(fd)));
        }
    }
    return worst;
}

START_TEST(test_soft_trotter_flow_is_differentiable_through_simultaneous_touchdown)
{
    hes_system *sys = test_system("trot-soft");
    const double x0[8] = { 0.6, 0, 0.3, 0.3, 0, 0, 0, 0 };
    hes_flow f;
    ck_assert_int_eq(hes_flow_jacobian(sys, 0, x0, 0.4, &f), HES_OK);
    ck_assert_int_eq(f.n, 8);
    ck_assert_int_ge(f.n_simultaneous, 1);
    const hes_simultaneous *s = &f.simultaneous[0];
    ck_assert(s->decoupled);
    ck_assert(s->continuous);
    ck_assert(s->differentiable);
    /* differences across the change of order (theta0 = +-h) agree with the
       saltation product: the paper's Theorem 1 */
    double err = jacobian_vs_flow(sys, x0, 8, 0.4, f.jac);
    ck_assert_msg(err < 1e-4, "d x(T) / d x0 against central differences: %g", err);
    hes_flow_free(&f);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_rigid_trotter_flow_has_one_derivative_per_touchdown_order)
{
    hes_system *sys = test_system("trot-rigid");
    const double x0[4] = { 0.6, 0, 0, 0 };
    hes_flow f;
    ck_assert_int_eq(hes_flow_jacobian(sys, 0, x0, 0.4, &f), HES_OK);
    ck_assert_int_eq(f.n_simultaneous, 1);
    const hes_simultaneous *s = &f.simultaneous[0];
    ck_assert(!s->decoupled);
    ck_assert(!s->continuous);
    ck_assert(!s->differentiable);
    /* eq. 6's cosine: Da_f M^-1 Da_r^T / |.||.| = (1/m - d^2/J) / (1/m + d^2/J) */
    const hes_model *m = hes_system_model(sys);
    const double *p = hes_system_params(sys);
    double mm = p[hes_model_param_index(m, "m")], J = p[hes_model_param_index(m, "J")],
           d = p[hes_model_param_index(m, "d")];
    ck_assert_double_eq_tol(s->coupling, (1 / mm - d * d / J) / (1 / mm + d * d / J), 1e-12);
    /* away from the simultaneous touchdown the product is the flow's
       derivative again */
    hes_flow_free(&f);
    const double tilted[4] = { 0.6, -0.01, 0, 0 };
    ck_assert_int_eq(hes_flow_jacobian(sys, 0, tilted, 0.4, &f), HES_OK);
    double err = jacobian_vs_flow(sys, tilted, 4, 0.4, f.jac);
    ck_assert_msg(err < 1e-4, "tilted: d x(T) / d x0 against central differences: %g", err);
    hes_flow_free(&f);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_flow_jacobian_refuses_bad_arguments)
{
    hes_system *sys = test_system("trot-rigid");
    const double x0[4] = { 0.6, 0, 0, 0 }, bad[4] = { NAN, 0, 0, 0 };
    hes_flow f;
    ck_assert_int_eq(hes_flow_jacobian(sys, 0, x0, 0, &f), HES_EINVAL);
    ck_assert_int_eq(hes_flow_jacobian(sys, 0, x0, INFINITY, &f), HES_EINVAL);
    ck_assert_int_eq(hes_flow_jacobian(sys, 3, x0, 0.4, &f), HES_EINVAL);
    ck_assert_int_eq(hes_flow_jacobian(sys, 0, bad, 0.4, &f), HES_EINVAL);
    ck_assert_int_eq(hes_flow_jacobian(sys, 0, NULL, 0.4, &f), HES_EINVAL);
    ck_assert_int_eq(hes_flow_jacobian(NULL, 0, x0, 0.4, &f), HES_EINVAL);
    ck_assert_int_eq(hes_flow_jacobian(sys, 0, x0, 0.4, NULL), HES_EINVAL);
    hes_flow_free(NULL);
    hes_system_destroy(sys);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("flow");
    TCase *tc = tcase_create("trotters");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_soft_trotter_flow_is_differentiable_through_simultaneous_touchdown);
    tcase_add_test(tc, test_rigid_trotter_flow_has_one_derivative_per_touchdown_order);
    tcase_add_test(tc, test_flow_jacobian_refuses_bad_arguments);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
