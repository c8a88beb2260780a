/*
 * test_impact_orbit.c - psi of a periodic orbit over the outcome set of its
 * simultaneous frictional impact (lib/hybrid/impact_orbit.c), on the knee
 * biped's heelstrike (the swing foot lands while the stance foot is down):
 *   - with the trailing foot's caps zero, the impulse-stepping outcome is
 *     the model's own plastic impact (the swing foot sticks within the
 *     friction cone), so its orbit's psi must equal the nominal psi: two
 *     independent paths (the model's closed-form law with its analytic
 *     Jacobian; the LCP steps with the saltation matrix's DxR by central
 *     differences);
 *   - the worst orbit's return map against central differences of the full
 *     nonlinear flow (the impact law included);
 *   - every outcome that continues the orbit gives an orbit; 1 and 2
 *     threads give the same psi; a model without such an impact is
 *     refused; when every outcome's orbit fails, an error (no NaN psi).
 * Skipped with a message without Siconos numerics or GSL.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hes.h"
#include "testutil.h"

static int analyze(const char *name, int samples, int threads, hes_impact_orbit *r,
                   hes_system **sys)
{
    *sys = test_system(name);
    hes_impact_orbit_options o = { -1, { samples, { 0, 0, 0, 1 }, 0, threads, 0, 0 } };
    hes_error msg;
    hes_status st = hes_impact_orbit_analyze(*sys, NULL, &o, r, &msg);
    if (st == HES_ESOLVER) {
        printf("test_impact_orbit: %s: skipped\n", msg.message);
        return 0;
    }
    ck_assert_msg(st == HES_OK, "%s", msg.message);
    return 1;
}

START_TEST(test_no_trailing_impulse_is_the_nominal_orbit)
{
    hes_system *sys;
    hes_impact_orbit r;
    if (!analyze("knee-biped", 8, 1, &r, &sys)) {
        hes_system_destroy(sys);
        return;
    }
    ck_assert_int_eq(r.k, 2);
    double caps[2 * 20];
    for (int s = 0; s < 20; s++) {
        caps[2 * s] = 1;        /* the swing foot, landing */
        caps[2 * s + 1] = 0;    /* the stance foot: no impulse */
    }
    hes_error msg;
    for (int e = 0; e < 2; e++) {
        hes_routh_options ro = { e ? 0.05 : 0.2, 20, 0, 0 };
        double psi;
        ck_assert_msg(hes_impact_orbit_psi(sys, &r, &ro, caps, &psi, &msg) == HES_OK,
                      "%s", msg.message);
        ck_assert_msg(fabs(psi - r.psi_nominal) < 1e-8, "h %g: psi %.12f, nominal %.12f", ro.h,
                      psi, r.psi_nominal);
    }
    hes_impact_orbit_free(&r);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_every_orbit_failing_is_an_error_not_nan)
{
    /* the nominal analysis first, then phases of at most a millisecond:
     * no outcome's orbit (each a perturbed orbit, found from the nominal
     * one) can be simulated, so there is no psi to report: HES_ENOORBIT with
     * the first failure, never a result whose worst psi is NaN */
    hes_system *sys = test_system("knee-biped");
    hes_analysis an;
    ck_assert_int_eq(hes_analyze(sys, 0, &an), HES_OK);
    hes_settings set = hes_system_get_settings(sys);
    set.max_phase_time = 1e-3;
    ck_assert_int_eq(hes_system_set_settings(sys, &set), HES_OK);
    hes_impact_orbit_options o = { -1, { 4, { 0, 0, 0, 1 }, 0, 1, 0, 0 } };
    hes_impact_orbit r;
    hes_error msg;
    hes_status st = hes_impact_orbit_analyze(sys, &an, &o, &r, &msg);
    if (st != HES_ESOLVER) {
        ck_assert_msg(st == HES_ENOORBIT && strstr(msg.message, "failed"), "status %d: %s", (int)st,
                      msg.message);
        ck_assert_ptr_null(r.psi);     /* freed: nothing to read */
    }
    hes_analysis_free(&an);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_every_outcome_gives_an_orbit_checked_by_differences)
{
    hes_system *sys;
    hes_impact_orbit r, r2;
    if (!analyze("knee-biped", 16, 1, &r, &sys)) {
        hes_system_destroy(sys);
        return;
    }
    ck_assert_int_gt(r.n_consistent, 8);
    ck_assert_int_eq(r.n_orbits, r.n_consistent);
    ck_assert_msg(r.n_failed == 0, "%s", r.message);
    ck_assert(r.worst >= 0 && r.best >= 0);
    for (int i = 0; i < r.set.samples; i++)
        if (r.consistent[i]) {
            ck_assert(isfinite(r.psi[i]));
            ck_assert(r.psi[i] <= r.psi_worst && r.psi[i] >= r.psi_best);
        }
    ck_assert_msg(r.worst_check < 1e-6, "worst orbit: return map vs differences %g",
                  r.worst_check);
    /* threads: the same orbits */
    hes_system *sys2;
    ck_assert(analyze("knee-biped", 16, 2, &r2, &sys2));
    ck_assert_msg(r2.n_failed == 0, "%s", r2.message);
    for (int i = 0; i < r.set.samples; i++)
        if (r.consistent[i])
            ck_assert_double_eq_tol(r.psi[i], r2.psi[i], 1e-12);
    hes_impact_orbit_free(&r2);
    hes_system_destroy(sys2);
    hes_impact_orbit_free(&r);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_a_model_without_a_frictional_impact_is_refused)
{
    hes_system *sys = test_system("slip-hopper");
    hes_impact_orbit_options o = { -1, { 4, { 0, 0, 0, 0 }, 0, 1, 0, 0 } };
    hes_impact_orbit r;
    hes_error msg;
    ck_assert_int_eq(hes_impact_orbit_analyze(sys, NULL, &o, &r, &msg), HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "frictional contacts"), "%s", msg.message);
    hes_system_destroy(sys);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("impact_orbit");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_no_trailing_impulse_is_the_nominal_orbit);
    tcase_add_test(tc, test_every_outcome_gives_an_orbit_checked_by_differences);
    tcase_add_test(tc, test_every_orbit_failing_is_an_error_not_nan);
    tcase_add_test(tc, test_a_model_without_a_frictional_impact_is_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(suite());
}
