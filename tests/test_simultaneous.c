/*
 * test_simultaneous.c - events that happen at once.  Two balls on one paddle
 * (problems/twin_jugglers.c) hit it at the same instant on their orbit.
 * Decoupled, the two activation orders give the same linearisation (the
 * ordinary monodromy is valid); coupled through the impacts, the return map
 * is continuous but only piecewise linear.  The psi reported for the other
 * piece is checked against the same orbit analysed with the two impacts
 * listed in the other order, an independent computation.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"
#include "testmodels.h"
#include "testutil.h"

static void analyse(const hes_model *m, double kappa, double mu, hes_analysis *res,
                    hes_simultaneous *s, int *n, hes_system **out)
{
    hes_system *sys = test_system_of(m);
    ck_assert_ptr_nonnull(sys);
    ck_assert_int_eq(hes_system_set_param(sys, "kappa", kappa), HES_OK);
    ck_assert_int_eq(hes_system_set_param(sys, "mu", mu), HES_OK);
    ck_assert_int_eq(hes_system_set_param(sys, "paddle_accel", 2.0), HES_OK);
    ck_assert_msg(hes_analyze(sys, 1, res) == HES_OK, "%s", hes_system_errmsg(sys));
    ck_assert_int_eq(hes_simultaneous_orbit(sys, res, s, 4, n), HES_OK);
    *out = sys;
}

START_TEST(test_decoupled_simultaneous_impacts_have_one_linearisation)
{
    hes_analysis res;
    hes_simultaneous s[4];
    hes_system *sys;
    int n;
    analyse(hes_problem_find("twin-jugglers"), 0.0, 0.0, &res, s, &n, &sys);
    ck_assert_int_eq(n, 1);
    ck_assert_double_eq(s[0].dt, 0.0);
    ck_assert_int_ge(s[0].alt_first, 0);
    ck_assert(s[0].continuous && s[0].differentiable);
    ck_assert(s[0].piece_gap < 1e-9);
    ck_assert_double_eq_tol(s[0].psi_other, s[0].psi_taken, 1e-10);
    /* the ordinary monodromy is valid: it matches the return map */
    ck_assert(res.check_max_abs_diff < 1e-6);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_coupled_simultaneous_impacts_give_two_pieces)
{
    hes_analysis ra, rb;
    hes_simultaneous sa[4], sb[4];
    hes_system *a, *b;
    int na, nb;
    analyse(hes_problem_find("twin-jugglers"), 3.0, -2.0, &ra, sa, &na, &a);
    analyse(&hes__problem_twin_jugglers_swapped, 3.0, -2.0, &rb, sb, &nb, &b);
    ck_assert_int_eq(na, 1);
    ck_assert_int_eq(nb, 1);
    /* same orbit, same outcome in either order, different linearisations */
    ck_assert(sa[0].continuous && !sa[0].differentiable);
    ck_assert(sa[0].piece_gap > 0.1);
    /* each nominal orbit takes its own order */
    ck_assert_str_ne(hes_system_model(a)->transitions[sa[0].first].name,
                     hes_system_model(b)->transitions[sb[0].first].name);
    ck_assert_double_eq_tol(sa[0].psi_other, rb.stab.psi, 1e-9 * rb.stab.psi);
    ck_assert_double_eq_tol(sb[0].psi_other, ra.stab.psi, 1e-9 * ra.stab.psi);
    /* the finite-difference return map straddles the kink: it matches
     * neither piece, which --check makes visible */
    ck_assert(ra.check_max_abs_diff > 1e-2);
    hes_analysis_free(&ra);
    hes_analysis_free(&rb);
    hes_system_destroy(a);
    hes_system_destroy(b);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("simultaneous");
    TCase *tc = tcase_create("simultaneous");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_decoupled_simultaneous_impacts_have_one_linearisation);
    tcase_add_test(tc, test_coupled_simultaneous_impacts_give_two_pieces);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
