/*
 * test_variational.c - variational matrices from CVODES forward
 * sensitivities against closed forms (ballistic flight) and central
 * differences of the nonlinear flow (SLIP stance), and the composition law
 * A(t0, d1 + d2) = A(t0 + d1, d2) A(t0, d1).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"
#include "testutil.h"

START_TEST(test_ballistic_flight_variational_matrix_is_closed_form)
{
    hes_system *sys = test_system_of(hes_problem_find("paddle-juggler"));
    double x0[2] = { 0.3, 1.2 }, x1[2], A[4];
    double t = 0.37, g = 9.81;
    ck_assert_int_eq(hes_variational(sys, 0, 0.1, t, x0, x1, A), HES_OK);
    ck_assert_double_eq_tol(x1[0], 0.3 + 1.2 * t - 0.5 * g * t * t, 1e-11);
    ck_assert_double_eq_tol(x1[1], 1.2 - g * t, 1e-11);
    double want[4] = { 1, 0, t, 1 };
    for (int i = 0; i < 4; i++)
        ck_assert_double_eq_tol(A[i], want[i], 1e-11);
    /* backwards in time: the inverse */
    ck_assert_int_eq(hes_variational(sys, 0, 0.1, -t, x0, x1, A), HES_OK);
    ck_assert_double_eq_tol(A[2], -t, 1e-11);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_stance_variational_matrix_equals_fd_of_flow)
{
    hes_system *sys = test_system_of(hes_problem_find("slip-hopper"));
    int stance = hes_model_mode_index(hes_system_model(sys), "stance");
    double z[4] = { -0.12, 2.0, 0.9, -3.5 }, A[16], fp[4], fm[4], zz[4];
    double dur = 0.08;
    ck_assert_int_eq(hes_variational(sys, stance, 0.0, dur, z, NULL, A), HES_OK);
    double worst = 0, scale = 0;
    for (int j = 0; j < 4; j++) {
        double h = 1e-6 * fmax(1, fabs(z[j]));
        memcpy(zz, z, sizeof zz);
        zz[j] = z[j] + h;
        ck_assert_int_eq(hes_variational(sys, stance, 0.0, dur, zz, fp, NULL), HES_OK);
        zz[j] = z[j] - h;
        ck_assert_int_eq(hes_variational(sys, stance, 0.0, dur, zz, fm, NULL), HES_OK);
        for (int i = 0; i < 4; i++) {
            double fd = (fp[i] - fm[i]) / (2 * h);
            worst = fmax(worst, fabs(A[i + 4 * j] - fd));
            scale = fmax(scale, fabs(fd));
        }
    }
    ck_assert_msg(worst < 1e-6 * fmax(1, scale), "|A - FD| = %g (scale %g)", worst, scale);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_variational_matrices_compose_over_split_intervals)
{
    hes_system *sys = test_system_of(hes_problem_find("slip-hopper"));
    int stance = hes_model_mode_index(hes_system_model(sys), "stance");
    double z[4] = { -0.12, 2.0, 0.9, -3.5 }, zm[4], A[16], A1[16], A2[16];
    ck_assert_int_eq(hes_variational(sys, stance, 0.0, 0.1, z, NULL, A), HES_OK);
    ck_assert_int_eq(hes_variational(sys, stance, 0.0, 0.04, z, zm, A1), HES_OK);
    ck_assert_int_eq(hes_variational(sys, stance, 0.04, 0.06, zm, NULL, A2), HES_OK);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double s = 0;
            for (int l = 0; l < 4; l++)
                s += A2[i + 4 * l] * A1[l + 4 * j];
            ck_assert_double_eq_tol(s, A[i + 4 * j], 1e-8 * fmax(1, fabs(A[i + 4 * j])));
        }
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_zero_duration_variational_matrix_is_identity)
{
    hes_system *sys = test_system_of(hes_problem_find("slip-hopper"));
    double z[3] = { 2, 2, 0 }, x1[3], A[9];
    ck_assert_int_eq(hes_variational(sys, 0, 0.3, 0.0, z, x1, A), HES_OK);
    for (int i = 0; i < 9; i++)
        ck_assert_double_eq(A[i], (i % 4 == 0) ? 1.0 : 0.0);
    ck_assert_int_eq(hes_variational(sys, 7, 0.3, 0.1, z, x1, A), HES_EINVAL);
    hes_system_destroy(sys);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("variational");
    TCase *tc = tcase_create("variational");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_ballistic_flight_variational_matrix_is_closed_form);
    tcase_add_test(tc, test_stance_variational_matrix_equals_fd_of_flow);
    tcase_add_test(tc, test_variational_matrices_compose_over_split_intervals);
    tcase_add_test(tc, test_zero_duration_variational_matrix_is_identity);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
