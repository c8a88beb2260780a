/*
 * test_collocation.c - multi-phase Hermite-Simpson collocation of the SLIP
 * orbit against the foundation's shooting solution: the exact constraint
 * Jacobian against central differences, the orbit reproduced, and the
 * fourth-order convergence of the discretisation error.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"
#include "testutil.h"

typedef struct {
    double l_td, theta_td, period;
} slip_orbit;

/* The shooting orbit; then the system's solved parameters are moved off it
 * so that collocation has to find them again. */
static hes_system *slip_off_orbit(slip_orbit *ref)
{
    hes_system *sys = hes_system_create(hes_problem_find("slip-hopper"));
    hes_orbit orb;
    ck_assert_int_eq(hes_orbit_find(sys, &orb), HES_OK);
    hes_system_get_param(sys, "l_td", &ref->l_td);
    hes_system_get_param(sys, "theta_td", &ref->theta_td);
    ref->period = orb.period;
    hes_orbit_free(&orb);
    ck_assert_int_eq(hes_system_set_param(sys, "l_td", ref->l_td + 0.003), HES_OK);
    ck_assert_int_eq(hes_system_set_param(sys, "theta_td", ref->theta_td - 0.002), HES_OK);
    return sys;
}

/* Collocates with N nodes per phase; the largest error against shooting. */
static double collocation_error(int nodes)
{
    slip_orbit ref;
    hes_system *sys = slip_off_orbit(&ref);
    hes_colloc *c;
    ck_assert_int_eq(hes_colloc_create(sys, nodes, &c), HES_OK);
    int nv = hes_colloc_nvars(c);
    ck_assert_int_eq(hes_colloc_ncons(c), nv); /* as many equations as unknowns */
    double *z = malloc(sizeof(double) * (size_t)nv), viol, l, th, T = 0;
    ck_assert_int_eq(hes_colloc_guess(c, z), HES_OK);
    ck_assert_msg(hes_colloc_solve(c, z, 1e-11, &viol) == HES_OK, "%s", hes_system_errmsg(sys));
    ck_assert(viol < 1e-10);
    hes_system_get_param(sys, "l_td", &l);
    hes_system_get_param(sys, "theta_td", &th);
    for (int i = 0; i < 3; i++)
        T += hes_colloc_duration(c, z, i);
    /* the apex state is where the orbit spec anchors it */
    const double *x0 = hes_colloc_state(c, z, 0, 0);
    ck_assert_double_eq_tol(x0[0], 2.0, 1e-10);
    ck_assert_double_eq_tol(x0[1], 2.5, 1e-10);
    double err = fmax(fabs(l - ref.l_td), fmax(fabs(th - ref.theta_td), fabs(T - ref.period)));
    free(z);
    hes_colloc_destroy(c);
    hes_system_destroy(sys);
    return err;
}

START_TEST(test_collocation_jacobian_equals_central_differences)
{
    slip_orbit ref;
    hes_system *sys = slip_off_orbit(&ref);
    hes_colloc *c;
    ck_assert_int_eq(hes_colloc_create(sys, 7, &c), HES_OK);
    int nv = hes_colloc_nvars(c), nc = hes_colloc_ncons(c);
    double *z = malloc(sizeof(double) * (size_t)nv), *cv = malloc(sizeof(double) * (size_t)nc),
           *J = malloc(sizeof(double) * (size_t)nc * nv), *cp = malloc(sizeof(double) * (size_t)nc),
           *cm = malloc(sizeof(double) * (size_t)nc);
    ck_assert_int_eq(hes_colloc_guess(c, z), HES_OK);
    ck_assert_int_eq(hes_colloc_constraints(c, z, cv, J), HES_OK);
    double worst = 0, scale = 0;
    for (int j = 0; j < nv; j++) {
        double h = 1e-6 * fmax(1.0, fabs(z[j])), zj = z[j];
        z[j] = zj + h;
        ck_assert_int_eq(hes_colloc_constraints(c, z, cp, NULL), HES_OK);
        z[j] = zj - h;
        ck_assert_int_eq(hes_colloc_constraints(c, z, cm, NULL), HES_OK);
        z[j] = zj;
        for (int i = 0; i < nc; i++) {
            double fd = (cp[i] - cm[i]) / (2 * h);
            worst = fmax(worst, fabs(fd - J[i + (size_t)j * nc]));
            scale = fmax(scale, fabs(fd));
        }
    }
    ck_assert_msg(worst < 1e-7 * scale, "|J - FD| = %g, scale %g", worst, scale);
    free(z);
    free(cv);
    free(J);
    free(cp);
    free(cm);
    hes_colloc_destroy(c);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_collocation_reproduces_the_slip_orbit_at_fourth_order)
{
    double e11 = collocation_error(11), e21 = collocation_error(21);
    ck_assert_msg(e11 < 5e-6 && e21 < 3e-7, "errors %g (N = 11), %g (N = 21)", e11, e21);
    /* halving h divides a fourth-order error by 16 */
    ck_assert_msg(e11 / e21 > 12 && e11 / e21 < 20, "error ratio %g", e11 / e21);
}
END_TEST

START_TEST(test_collocation_refuses_what_it_does_not_handle_yet)
{
    hes_system *sys = hes_system_create(hes_problem_find("paddle-juggler"));
    hes_colloc *c = NULL;
    ck_assert_int_eq(hes_colloc_create(sys, 11, &c), HES_EINVAL); /* non-autonomous */
    ck_assert_ptr_null(c);
    hes_system_destroy(sys);
    sys = hes_system_create(hes_problem_find("slip-hopper"));
    ck_assert_int_eq(hes_colloc_create(sys, 1, &c), HES_EINVAL);
    hes_system_destroy(sys);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("collocation");
    TCase *tc = tcase_create("collocation");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_collocation_jacobian_equals_central_differences);
    tcase_add_test(tc, test_collocation_reproduces_the_slip_orbit_at_fourth_order);
    tcase_add_test(tc, test_collocation_refuses_what_it_does_not_handle_yet);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
