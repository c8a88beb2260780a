/*
 * test_statuses.c - a test per error status each public function can return
 * (item 6), for the (function, status) pairs no other suite
 * triggers.  Each test provokes its status with a real input (a callback
 * that fails or writes NaN at some state, a shape value where an event
 * grazes, a parameter or argument out of range, an unknown name, a file
 * that is no plugin, ...) and checks the exact status AND that the message
 * (hes_system_errmsg, or the function's msg buffer) names the problem.
 *
 * HES_ENOMEM is left out everywhere (no fault injection).  Out of scope
 * here: hes_colloc_*, trajopt, the JSON writers and readers, sweep grids
 * and hes_latin_hypercube.  "->" names the test that triggers a pair; a
 * name without a file is in this file.
 *
 * model layer
 *   hes_model_validate          EINVAL     test_model.c (every field)
 *   hes_model_check_derivatives EINVAL     test_model.c:test_check_derivatives_rejects_invalid_model;
 *                                          test_check_derivatives_says_why_it_refuses
 *                               EMODEL     test_check_derivatives_reports_failing_callback_as_emodel
 *   hes_mech_mode_state         EMODEL     test_mech_mode_state_reports_non_positive_mass_as_emodel
 *   hes_mech_impact             EMODEL     test_mech.c (wall that must separate)
 * hybrid layer
 *   hes_system_new              EINVAL     test_model.c (invalid model, NULL out)
 *   hes_system_set_settings     EINVAL     test_errors.c:test_invalid_settings_*;
 *                                          test_invalid_setting_is_named_in_the_message
 *   hes_system_set_param        EINVAL     test_errors.c:test_invalid_parameter_values_are_rejected
 *                               ENOTFOUND  test_model.c
 *   hes_system_get_param        ENOTFOUND  test_model.c
 *   hes_system_check_params     EINVAL     test_errors.c:test_analyze_refuses_parameters_failing_*
 *   hes_system_set_orbit_start  EINVAL     test_orbit_start_is_refused_without_an_orbit_or_when_not_finite
 *   hes_simulate                EINVAL, ENONFINITE, EMODEL, EZENO, ENOEVENT, EGRAZING, ESOLVER
 *                                          test_errors.c, test_simulate.c, test_orbit.c
 *   hes_saltation               EINVAL     test_errors.c:test_invalid_simulation_arguments_*
 *                               EGRAZING   test_errors.c, test_saltation.c
 *                               EMODEL     test_saltation_reports_failing_reset_jacobian_as_emodel
 *                               ENONFINITE test_saltation_reports_nan_reset_jacobian_as_enonfinite
 *   hes_variational             EINVAL     test_variational.c
 *                               EMODEL     test_variational_reports_model_failure_as_emodel
 *                               ENONFINITE test_variational_reports_nan_field_as_enonfinite
 *                               ESOLVER    test_variational_reports_exhausted_step_budget_as_esolver
 *   hes_monodromy_compute       EINVAL     test_monodromy.c
 *                               EMODEL     test_monodromy_reports_failing_reset_jacobian_as_emodel
 *   hes_stability_compute       EINVAL, EDEFECTIVE, ENONFINITE  test_stability.c
 *   hes_stability_update        EINVAL     test_stability.c
 *                               EDEFECTIVE, ENONFINITE
 *                                          test_stability_update_reports_defective_and_non_finite_matrices
 *   hes_orbit_find              EINVAL     test_errors.c (no orbit declared);
 *                                          test_orbit_find_reports_failing_guess_as_einval
 *                               ENOORBIT   test_errors.c, test_orbit.c
 *                               EZENO      test_orbit.c
 *                               EMODEL     test_orbit_find_reports_failing_jacobian_as_emodel
 *   hes_orbit_return_map        EINVAL     test_errors.c
 *                               ENOEVENT   test_return_map_reports_no_section_event_as_enoevent
 *   hes_return_map_fd           EMODEL     test_return_map_fd_reports_refused_perturbed_start_as_emodel
 *   hes_analyze                 EINVAL, ENOORBIT, EZENO  test_errors.c, test_orbit.c
 *                               EMODEL     test_analyze_reports_failing_reset_jacobian_as_emodel,
 *                                          test_analyze_check_reports_refused_perturbed_start_as_emodel
 *   hes_trials_run(_box)        EINVAL     test_trials_refuse_bad_arguments_as_einval
 *       trial.failure           EDIVERGED  test_trials_of_an_unstable_orbit_report_ediverged
 *                               EMODEL     test_trials_report_a_refused_start_as_emodel
 * shaping layer
 *   hes_shape_new            EINVAL     test_shape.c (not shape parameters);
 *                                          test_shape_new_needs_an_analysis_and_shape_parameters
 *                               ENOTFOUND  test_shape_new_reports_unknown_parameter_as_enotfound
 *                               EMODEL     test_shape_new_reports_failing_guess_as_emodel
 *   hes_shape_eval              EINVAL     test_shape_eval_refuses_non_finite_value_as_einval
 *                               EGRAZING   test_shape_eval_reports_grazing_bounce_as_egrazing,
 *                                          test_shape_eval_reports_grazing_section_as_egrazing
 *                               EMODEL     test_shape_eval_reports_failing_jacobian_as_emodel
 *                               ENONFINITE test_shape_eval_reports_nan_jacobian_as_enonfinite
 *   hes_shape_optimize          EINVAL     test_shape.c (options, bounds, start, algorithm)
 *                               ENOTFOUND  test_shape_optimize_reports_unknown_parameter_as_enotfound
 *                               EMODEL     test_shape_optimize_reports_failing_analysis_as_emodel
 *   hes_gait_model              EINVAL     test_gait_model_refuses_gaits_that_do_not_fit_the_model
 * batch layer
 *   hes_sweep_run               EINVAL     test_sweep.c (options); test_sweep_refuses_an_invalid_model
 *       row.status              EINVAL, ENOORBIT  test_sweep.c
 *                               EMODEL     test_sweep_row_reports_failing_jacobian_as_emodel
 *   hes_plugin_open             ENOTFOUND  test_plugin_load_reports_missing_file_as_enotfound
 *                               EINVAL     test_plugin_load_refuses_what_is_no_valid_plugin
 *   hes_plugin_open_ess,        ENOTFOUND, EINVAL  test_ess_plugins_load_and_refuse
 *   hes_plugin_open_any
 * contact layer
 *   hes_ess_validate, hes_ess_new  EINVAL  test_ess.c:test_bad_models_and_arguments_are_refused_with_a_reason
 *   hes_ess_run                 EINVAL     test_ess.c (bad arguments)
 *                               EGRAZING   test_ess.c (liveness), test_plate.c (near misses)
 *   hes_ess_orbit_find          EINVAL, ENOORBIT  test_ess_orbit.c:test_ess_orbit_refusals
 *   hes_lcp_solve               EINVAL, ELCP  test_lcp.c:test_infeasible_and_bad_problems_are_refused
 *   hes_impact_anitescu_potra   EINVAL     test_impact.c:test_bad_contact_sets_are_refused
 *   hes_impact_sequential       EINVAL, EMAXITER  test_impact.c:test_rocking_block_sequential_orders_pivot_on_either_corner
 *                               ESOLVER    test_lcp.c (built without Siconos numerics)
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hes.h"
#include "testmodels.h"
#include "testutil.h"

/* ---------------------------------------------------------------- helpers */

#define ck_assert_status(got, want, sys)                                            \
    do {                                                                            \
        hes_status got_ = (got);                                                    \
        ck_assert_msg(got_ == (want), "status '%s', expected '%s': %s",             \
                      hes_strerror(got_), hes_strerror(want), hes_system_errmsg(sys)); \
    } while (0)

#define ck_assert_says(text, word)                                                  \
    ck_assert_msg(strstr((text), (word)) != NULL, "message does not say '%s': '%s'", \
                  (word), (text))

#define ck_assert_errmsg_says(sys, word) ck_assert_says(hes_system_errmsg(sys), word)

static hes_system *probe(int fault)
{
    hes_system *sys = test_system_of(&test_status_probe);
    ck_assert_ptr_nonnull(sys);
    ck_assert_int_eq(hes_system_set_param(sys, "fault", fault), HES_OK);
    return sys;
}

/* The probe's orbit, analysed. */
static void probe_analysis(hes_system *sys, hes_analysis *res)
{
    hes_status st = hes_analyze(sys, 0, res);
    ck_assert_status(st, HES_OK, sys);
    ck_assert_double_eq_tol(res->stab.psi, 0.5, 1e-9); /* psi = e */
}

/* The state just before the probe's bounce on its orbit: [0, -4]. */
static const double probe_landing[2] = { 0.0, -4.0 };
/* The apex of the probe's orbit, y* = 16 / (2 g). */
#define PROBE_APEX (16.0 / (2 * 9.81))

/* ------------------------------------------------------------ model layer */

START_TEST(test_check_derivatives_reports_failing_callback_as_emodel)
{
    const hes_model *m = &test_status_probe;
    double p[6];
    for (int i = 0; i < m->n_params; i++)
        p[i] = m->params[i].value;
    p[5] = STATUS_FAULT_RESET_DX_FAILS;
    const double *xs[1] = { probe_landing };
    hes_deriv_report rep;
    ck_assert_int_eq(hes_model_check_derivatives(m, p, 0.0, xs, &rep), HES_EMODEL);
    /* where says which callback refused, and how */
    ck_assert_says(rep.where, "bounce");
    ck_assert_says(rep.where, "DxR");
    ck_assert_says(rep.where, "code 5");
    /* without the fault the same check passes */
    p[5] = 0;
    ck_assert_int_eq(hes_model_check_derivatives(m, p, 0.0, xs, &rep), HES_OK);
    ck_assert_double_lt(rep.max_rel_err, 1e-6);
}
END_TEST

START_TEST(test_check_derivatives_says_why_it_refuses)
{
    const hes_model *m = &test_status_probe;
    const double p[6] = { 0.5, 2.0, 9.81, 0.0, 0.0, 0.0 };
    const double *xs[1] = { probe_landing };
    hes_deriv_report rep;
    ck_assert_int_eq(hes_model_check_derivatives(m, p, 0.0, NULL, &rep), HES_EINVAL);
    ck_assert_says(rep.where, "no states given");
    ck_assert_int_eq(hes_model_check_derivatives(m, NULL, 0.0, xs, &rep), HES_EINVAL);
    ck_assert_says(rep.where, "no parameters given");
    hes_model bad = *m;
    bad.n_transitions = -1;
    ck_assert_int_eq(hes_model_check_derivatives(&bad, p, 0.0, xs, &rep), HES_EINVAL);
    ck_assert_says(rep.where, "n_transitions");
}
END_TEST

START_TEST(test_mech_mode_state_reports_non_positive_mass_as_emodel)
{
    const double x[2] = { 0.3, 1.0 }, good = 2.0, bad = -2.0;
    double q, qd, ke;
    ck_assert_int_eq(hes_mech_mode_state(&test_status_mech_mode, 0.0, x, &good, &q, &qd, NULL, &ke),
                     HES_OK);
    ck_assert_double_eq_tol(ke, 1.0, 1e-15);
    /* the status is the only report: the function has no message channel */
    ck_assert_int_eq(hes_mech_mode_state(&test_status_mech_mode, 0.0, x, &bad, &q, &qd, NULL, &ke),
                     HES_EMODEL);
}
END_TEST

/* ----------------------------------------------------------- hybrid layer */

START_TEST(test_invalid_setting_is_named_in_the_message)
{
    hes_system *sys = probe(0);
    hes_settings s = hes_system_get_settings(sys);
    s.rtol = -1.0;
    ck_assert_status(hes_system_set_settings(sys, &s), HES_EINVAL, sys);
    ck_assert_errmsg_says(sys, "rtol");
    s = hes_system_get_settings(sys);
    s.max_steps = 0;
    ck_assert_status(hes_system_set_settings(sys, &s), HES_EINVAL, sys);
    ck_assert_errmsg_says(sys, "max_steps");
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_orbit_start_is_refused_without_an_orbit_or_when_not_finite)
{
    hes_system *ball = test_system_of(&test_bouncing_ball);
    const double x0[2] = { 1.0, 0.0 }, bad[2] = { NAN, 0.0 };
    ck_assert_status(hes_system_set_orbit_start(ball, x0), HES_EINVAL, ball);
    ck_assert_errmsg_says(ball, "no periodic orbit");
    hes_system_destroy(ball);
    hes_system *sys = probe(0);
    ck_assert_status(hes_system_set_orbit_start(sys, bad), HES_EINVAL, sys);
    ck_assert_errmsg_says(sys, "finite");
    ck_assert_status(hes_system_set_orbit_start(sys, x0), HES_OK, sys);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_saltation_reports_failing_reset_jacobian_as_emodel)
{
    hes_system *sys = probe(0);
    double xi[4];
    ck_assert_status(hes_saltation(sys, 0, 0.0, probe_landing, xi), HES_OK, sys);
    ck_assert_double_eq_tol(xi[3], -0.5, 1e-12); /* dv+/dv- */
    ck_assert_int_eq(hes_system_set_param(sys, "fault", STATUS_FAULT_RESET_DX_FAILS), HES_OK);
    ck_assert_status(hes_saltation(sys, 0, 0.0, probe_landing, xi), HES_EMODEL, sys);
    ck_assert_errmsg_says(sys, "reset Jacobian DxR of 'bounce'");
    ck_assert_errmsg_says(sys, "the floor sensor is saturated");
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_saltation_reports_nan_reset_jacobian_as_enonfinite)
{
    hes_system *sys = probe(STATUS_FAULT_RESET_DX_NAN);
    double xi[4];
    ck_assert_status(hes_saltation(sys, 0, 0.0, probe_landing, xi), HES_ENONFINITE, sys);
    ck_assert_errmsg_says(sys, "reset Jacobian DxR of 'bounce' is not finite");
    hes_system_destroy(sys);
}
END_TEST

/* From the apex, with no guard armed, the ball falls through the floor
 * (y = 0 at t = 0.41) into the region the field refuses (y < -1000,
 * t = 14.3). */
START_TEST(test_variational_reports_model_failure_as_emodel)
{
    hes_system *sys = probe(STATUS_FAULT_FLOOR);
    const double apex[2] = { PROBE_APEX, 0.0 };
    double x1[2], A[4];
    ck_assert_status(hes_variational(sys, 0, 0.0, 0.3, apex, x1, A), HES_OK, sys);
    ck_assert_double_eq_tol(A[2], 0.3, 1e-10); /* dy/dv0 */
    ck_assert_status(hes_variational(sys, 0, 0.0, 20.0, apex, x1, A), HES_EMODEL, sys);
    ck_assert_errmsg_says(sys, "vector field of 'air'");
    ck_assert_errmsg_says(sys, "the ball is inside the floor");
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_variational_reports_nan_field_as_enonfinite)
{
    hes_system *sys = probe(STATUS_FAULT_FIELD_NAN);
    const double apex[2] = { PROBE_APEX, 0.0 };
    double x1[2], A[4];
    ck_assert_status(hes_variational(sys, 0, 0.0, 1.0, apex, x1, A), HES_ENONFINITE, sys);
    ck_assert_errmsg_says(sys, "vector field of 'air' is not finite");
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_variational_reports_exhausted_step_budget_as_esolver)
{
    hes_system *sys = test_system_of(&test_status_spin);
    hes_settings s = hes_system_get_settings(sys);
    s.max_steps = 3000;
    ck_assert_int_eq(hes_system_set_settings(sys, &s), HES_OK);
    const double x0[2] = { 1.0, 0.0 };
    double x1[2], A[4];
    ck_assert_status(hes_variational(sys, 0, 0.0, 100.0, x0, x1, A), HES_ESOLVER, sys);
    ck_assert_errmsg_says(sys, "max_steps = 3000");
    ck_assert_errmsg_says(sys, "'spin'");
    hes_system_destroy(sys);
}
END_TEST

/* One period of the probe's orbit with sensitivities: the simulation never
 * calls reset_dx, the monodromy does. */
START_TEST(test_monodromy_reports_failing_reset_jacobian_as_emodel)
{
    hes_system *sys = probe(STATUS_FAULT_RESET_DX_FAILS);
    const double apex[2] = { PROBE_APEX, 0.0 };
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.section = 1;
    o.n_section = 1;
    o.after_transition = 1;
    o.sensitivities = 1;
    hes_traj traj;
    ck_assert_status(hes_simulate(sys, 0, 0.0, 0.0, apex, &o, &traj), HES_OK, sys);
    ck_assert_int_eq(traj.n_events, 2);
    hes_monodromy mono;
    ck_assert_status(hes_monodromy_compute(sys, &traj, 1, &mono), HES_EMODEL, sys);
    ck_assert_errmsg_says(sys, "reset Jacobian DxR of 'bounce'");
    ck_assert_ptr_null(mono.factors);
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_stability_update_reports_defective_and_non_finite_matrices)
{
    /* P = I does not map into the section of normal (0, 1) */
    double P[4] = { 1, 0, 0, 1 }, normal[2] = { 0, 1 };
    hes_monodromy m;
    memset(&m, 0, sizeof m);
    m.n = 2;
    m.autonomous = 1;
    m.phi = m.proj = P;
    m.normal = normal;
    hes_stability st;
    memset(&st, 0, sizeof st);
    ck_assert_int_eq(hes_stability_update(&m, &st), HES_EDEFECTIVE);
    P[2] = NAN;
    ck_assert_int_eq(hes_stability_update(&m, &st), HES_ENONFINITE);
    /* and a good one into the same storage */
    P[2] = 0.0;
    P[3] = 0.0;
    P[0] = 0.25;
    ck_assert_int_eq(hes_stability_update(&m, &st), HES_OK);
    ck_assert_double_eq_tol(st.psi, 0.25, 1e-15);
    hes_stability_free(&st);
}
END_TEST

START_TEST(test_orbit_find_reports_failing_guess_as_einval)
{
    hes_system *sys = probe(STATUS_FAULT_GUESS_FAILS);
    hes_orbit orbit;
    ck_assert_status(hes_orbit_find(sys, &orbit), HES_EINVAL, sys);
    ck_assert_errmsg_says(sys, "could not make an initial guess");
    ck_assert_ptr_null(orbit.x0);
    hes_system_destroy(sys);
}
END_TEST

/* From a guess 10% off, Newton needs the return-map Jacobian, whose
 * saltation matrix calls the failing reset_dx. */
START_TEST(test_orbit_find_reports_failing_jacobian_as_emodel)
{
    hes_system *sys = probe(STATUS_FAULT_RESET_DX_FAILS | STATUS_FAULT_GUESS_OFF);
    hes_orbit orbit;
    ck_assert_status(hes_orbit_find(sys, &orbit), HES_EMODEL, sys);
    ck_assert_errmsg_says(sys, "reset Jacobian DxR of 'bounce'");
    ck_assert_errmsg_says(sys, "the floor sensor is saturated");
    ck_assert_ptr_null(orbit.x0);
    hes_system_destroy(sys);
    /* the same guess without the fault converges */
    sys = probe(STATUS_FAULT_GUESS_OFF);
    ck_assert_status(hes_orbit_find(sys, &orbit), HES_OK, sys);
    ck_assert_double_eq_tol(orbit.x0[0], PROBE_APEX, 1e-9);
    hes_orbit_free(&orbit);
    hes_system_destroy(sys);
}
END_TEST

/* Thrown up at 1000 m/s the ball is back after 204 s, beyond the phase time
 * limit of 100 s. */
START_TEST(test_return_map_reports_no_section_event_as_enoevent)
{
    hes_system *sys = probe(0);
    const double up[2] = { 0.0, 1000.0 };
    double xr[2];
    ck_assert_status(hes_orbit_return_map(sys, up, xr), HES_ENOEVENT, sys);
    ck_assert_errmsg_says(sys, "no event within 100");
    ck_assert_errmsg_says(sys, "'air'");
    hes_system_destroy(sys);
}
END_TEST

/* With settings.fd_step = 0.9 the perturbed start y* - 0.9 lies below the
 * floor, falls, and reaches the region the field refuses (y < -1000). */
START_TEST(test_return_map_fd_reports_refused_perturbed_start_as_emodel)
{
    hes_system *sys = probe(STATUS_FAULT_FLOOR);
    hes_analysis res;
    probe_analysis(sys, &res);
    hes_settings s = hes_system_get_settings(sys);
    s.fd_step = 0.9;
    ck_assert_int_eq(hes_system_set_settings(sys, &s), HES_OK);
    double fd[4];
    ck_assert_status(hes_return_map_fd(sys, &res.orbit, fd), HES_EMODEL, sys);
    ck_assert_errmsg_says(sys, "the ball is inside the floor");
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_analyze_reports_failing_reset_jacobian_as_emodel)
{
    hes_system *sys = probe(STATUS_FAULT_RESET_DX_FAILS);
    hes_analysis res;
    ck_assert_status(hes_analyze(sys, 0, &res), HES_EMODEL, sys);
    ck_assert_errmsg_says(sys, "reset Jacobian DxR of 'bounce'");
    ck_assert_ptr_null(res.orbit.x0);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_analyze_check_reports_refused_perturbed_start_as_emodel)
{
    hes_system *sys = probe(STATUS_FAULT_FLOOR);
    hes_settings s = hes_system_get_settings(sys);
    s.fd_step = 0.9;
    ck_assert_int_eq(hes_system_set_settings(sys, &s), HES_OK);
    hes_analysis res;
    ck_assert_status(hes_analyze(sys, 1, &res), HES_EMODEL, sys);
    ck_assert_errmsg_says(sys, "the ball is inside the floor");
    ck_assert_ptr_null(res.stab.re);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_trials_refuse_bad_arguments_as_einval)
{
    hes_system *sys = probe(0);
    hes_analysis res;
    probe_analysis(sys, &res);
    hes_trials t;
    ck_assert_status(hes_trials_run(sys, &res.orbit, 0, 0.01, 5, 1, 1e-6, &t), HES_EINVAL, sys);
    ck_assert_errmsg_says(sys, "trials >= 1");
    ck_assert_status(hes_trials_run(sys, &res.orbit, 3, 0.01, 0, 1, 1e-6, &t), HES_EINVAL, sys);
    ck_assert_errmsg_says(sys, "steps >= 1");
    ck_assert_status(hes_trials_run(sys, &res.orbit, 3, -0.01, 5, 1, 1e-6, &t), HES_EINVAL, sys);
    ck_assert_errmsg_says(sys, "radius >= 0");
    ck_assert_status(hes_trials_run(sys, &res.orbit, 3, 0.01, 5, 1, 0.0, &t), HES_EINVAL, sys);
    ck_assert_errmsg_says(sys, "tol > 0");
    /* the divergence bound is 1e3 (1 + |x*|) = 1815.5 */
    ck_assert_status(hes_trials_run(sys, &res.orbit, 3, 2000.0, 5, 1, 1e-6, &t), HES_EINVAL, sys);
    ck_assert_errmsg_says(sys, "divergence bound");
    ck_assert_status(hes_trials_run_box(sys, &res.orbit, 3, 1300.0, 5, 1, 1e-6, &t), HES_EINVAL,
                     sys); /* 1300 sqrt(2) > 1815.5 */
    ck_assert_errmsg_says(sys, "box of half-width 1300");
    ck_assert_ptr_null(t.trials);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

/* e = 2, w = -4: the same orbit (v* = 4) with multiplier 2.  A perturbation
 * doubles every period: upward, the apex height passes the divergence bound
 * 1e3 (1 + y*) within about 15 periods; downward, the kick eventually sends
 * the ball down through the floor, never to return (no event within the
 * phase time limit). */
START_TEST(test_trials_of_an_unstable_orbit_report_ediverged)
{
    hes_system *sys = probe(0);
    ck_assert_int_eq(hes_system_set_param(sys, "e", 2.0), HES_OK);
    ck_assert_int_eq(hes_system_set_param(sys, "w", -4.0), HES_OK);
    hes_analysis res;
    ck_assert_status(hes_analyze(sys, 0, &res), HES_OK, sys);
    ck_assert_double_eq_tol(res.stab.psi, 2.0, 1e-8);
    hes_trials t;
    ck_assert_status(hes_trials_run(sys, &res.orbit, 8, 0.01, 30, 3, 1e-6, &t), HES_OK, sys);
    int diverged = 0;
    for (int i = 0; i < t.n_trials; i++) {
        const hes_trial *tr = &t.trials[i];
        ck_assert_msg(tr->failure == HES_EDIVERGED || tr->failure == HES_ENOEVENT,
                      "trial %d: %s: %s", i, hes_strerror(tr->failure), tr->failure_msg);
        if (tr->failure == HES_EDIVERGED) {
            diverged++;
            ck_assert_says(tr->failure_msg, "divergence bound");
            ck_assert_double_gt(tr->error[tr->steps_completed - 1], 1815.0);
        } else {
            ck_assert_says(tr->failure_msg, "no event within 100");
        }
    }
    ck_assert_int_gt(diverged, 0);
    ck_assert_int_eq(t.converged, 0);
    hes_trials_free(&t);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

/* Starts in the box |dy| < 1.2 around y* = 0.82 include some below the
 * floor, which fall into the region the field refuses (y < -1000). */
START_TEST(test_trials_report_a_refused_start_as_emodel)
{
    hes_system *sys = probe(STATUS_FAULT_FLOOR);
    hes_analysis res;
    probe_analysis(sys, &res);
    hes_trials t;
    ck_assert_status(hes_trials_run_box(sys, &res.orbit, 12, 1.2, 3, 5, 1e-6, &t), HES_OK, sys);
    int refused = 0;
    for (int i = 0; i < t.n_trials; i++) {
        const hes_trial *tr = &t.trials[i];
        if (tr->failure == HES_OK)
            continue;
        ck_assert_msg(tr->failure == HES_EMODEL, "trial %d (y0 = %g): %s: %s", i, tr->x0[0],
                      hes_strerror(tr->failure), tr->failure_msg);
        ck_assert_says(tr->failure_msg, "the ball is inside the floor");
        ck_assert_double_lt(tr->x0[0], 0.0);
        refused++;
    }
    ck_assert_int_gt(refused, 0);
    hes_trials_free(&t);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

/* ---------------------------------------------------------- shaping layer */

START_TEST(test_shape_new_needs_an_analysis_and_shape_parameters)
{
    hes_system *sys = probe(0);
    hes_analysis none;
    hes_shape *sh = (hes_shape *)&none;
    memset(&none, 0, sizeof none);
    ck_assert_status(hes_shape_new(sys, &none, 0, NULL, &sh), HES_EINVAL, sys);
    ck_assert_errmsg_says(sys, "needs a completed analysis");
    ck_assert_ptr_null(sh);
    hes_system_destroy(sys);

    /* the elastic ball of test_zeno_ball has an orbit but no shape parameter */
    sys = test_system_of(&test_zeno_ball);
    ck_assert_int_eq(hes_system_set_param(sys, "e", 1.0), HES_OK);
    hes_analysis res;
    ck_assert_status(hes_analyze(sys, 0, &res), HES_OK, sys);
    ck_assert_status(hes_shape_new(sys, &res, 0, NULL, &sh), HES_EINVAL, sys);
    ck_assert_errmsg_says(sys, "has no shape parameters");
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_shape_new_reports_unknown_parameter_as_enotfound)
{
    hes_system *sys = probe(0);
    hes_analysis res;
    probe_analysis(sys, &res);
    const char *names[2] = { "h_bounce", "h_floor" };
    hes_shape *sh;
    ck_assert_status(hes_shape_new(sys, &res, 2, names, &sh), HES_ENOTFOUND, sys);
    ck_assert_errmsg_says(sys, "no parameter 'h_floor'");
    ck_assert_ptr_null(sh);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

/* The shape check moves h_bounce to see whether it moves the orbit; the
 * guess refuses any value but 0. */
START_TEST(test_shape_new_reports_failing_guess_as_emodel)
{
    hes_system *sys = probe(STATUS_FAULT_GUESS_PICKY);
    hes_analysis res;
    probe_analysis(sys, &res);
    hes_shape *sh;
    const char *name = "h_bounce";
    ck_assert_status(hes_shape_new(sys, &res, 1, &name, &sh), HES_EMODEL, sys);
    ck_assert_errmsg_says(sys, "initial guess failed");
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

static hes_shape *probe_shape(hes_system *sys, hes_analysis *res)
{
    probe_analysis(sys, res);
    hes_shape *sh = NULL;
    ck_assert_status(hes_shape_new(sys, res, 0, NULL, &sh), HES_OK, sys);
    ck_assert_int_eq(hes_shape_count(sh), 2); /* h_bounce, h_apex */
    return sh;
}

START_TEST(test_shape_eval_refuses_non_finite_value_as_einval)
{
    hes_system *sys = probe(0);
    hes_analysis res;
    hes_shape *sh = probe_shape(sys, &res);
    hes_shape_eval_result ev;
    const double h[2] = { 0.0, NAN };
    ck_assert_status(hes_shape_eval(sh, h, 0, &ev), HES_EINVAL, sys);
    ck_assert_errmsg_says(sys, "h_apex");
    ck_assert_errmsg_says(sys, "not finite");
    hes_shape_destroy(sh);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

/* Dxg F = v - g h_bounce = 0 at the landing [0, -4] for h_bounce = -4 / g:
 * the flow runs along the turned floor guard. */
START_TEST(test_shape_eval_reports_grazing_bounce_as_egrazing)
{
    hes_system *sys = probe(0);
    hes_analysis res;
    hes_shape *sh = probe_shape(sys, &res);
    hes_shape_eval_result ev;
    const double ok[2] = { 0.05, 0.0 }, graze[2] = { -4.0 / 9.81, 0.0 };
    ck_assert_status(hes_shape_eval(sh, ok, 1, &ev), HES_OK, sys);
    ck_assert_status(hes_shape_eval(sh, graze, 0, &ev), HES_EGRAZING, sys);
    ck_assert_errmsg_says(sys, "'bounce' reached tangentially");
    hes_shape_destroy(sh);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

/* h_apex = 1 turns the apex guard into y - y*, tangent to the flight at
 * the apex: the section matrix divides by Dxg F = 0. */
START_TEST(test_shape_eval_reports_grazing_section_as_egrazing)
{
    hes_system *sys = probe(0);
    hes_analysis res;
    hes_shape *sh = probe_shape(sys, &res);
    hes_shape_eval_result ev;
    const double ok[2] = { 0.0, 0.05 }, graze[2] = { 0.0, 1.0 };
    ck_assert_status(hes_shape_eval(sh, ok, 1, &ev), HES_OK, sys);
    ck_assert_status(hes_shape_eval(sh, graze, 0, &ev), HES_EGRAZING, sys);
    ck_assert_errmsg_says(sys, "'apex'");
    ck_assert_errmsg_says(sys, "section");
    hes_shape_destroy(sh);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_shape_eval_reports_failing_jacobian_as_emodel)
{
    hes_system *sys = probe(0);
    hes_analysis res;
    hes_shape *sh = probe_shape(sys, &res);
    hes_shape_eval_result ev;
    const double h[2] = { 0.6, 0.0 }; /* reset_dx fails above 0.5 */
    ck_assert_status(hes_shape_eval(sh, h, 0, &ev), HES_EMODEL, sys);
    ck_assert_errmsg_says(sys, "reset Jacobian DxR of 'bounce'");
    ck_assert_errmsg_says(sys, "the floor sensor is saturated");
    hes_shape_destroy(sh);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_shape_eval_reports_nan_jacobian_as_enonfinite)
{
    hes_system *sys = probe(0);
    hes_analysis res;
    hes_shape *sh = probe_shape(sys, &res);
    hes_shape_eval_result ev;
    const double h[2] = { -0.6, 0.0 }; /* reset_dx is NaN below -0.5 */
    ck_assert_status(hes_shape_eval(sh, h, 1, &ev), HES_ENONFINITE, sys);
    ck_assert_errmsg_says(sys, "reset Jacobian DxR of 'bounce' is not finite");
    hes_shape_destroy(sh);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_shape_optimize_reports_unknown_parameter_as_enotfound)
{
    hes_system *sys = probe(0);
    hes_shape_options o;
    hes_shape_options_init(&o);
    const char *names[1] = { "h_floor" };
    o.n = 1;
    o.names = names;
    hes_shape_result r;
    ck_assert_status(hes_shape_optimize(sys, &o, &r), HES_ENOTFOUND, sys);
    ck_assert_errmsg_says(sys, "no parameter 'h_floor'");
    ck_assert_ptr_null(r.h);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_shape_optimize_reports_failing_analysis_as_emodel)
{
    hes_system *sys = probe(STATUS_FAULT_RESET_DX_FAILS);
    hes_shape_result r;
    ck_assert_status(hes_shape_optimize(sys, NULL, &r), HES_EMODEL, sys);
    ck_assert_errmsg_says(sys, "reset Jacobian DxR of 'bounce'");
    ck_assert_ptr_null(r.h);
    hes_system_destroy(sys);
}
END_TEST

/* A gait of the probe: phase 1 ends with the bounce, phase 2 with the apex. */
typedef struct {
    hes_gait g;
    hes_gait_phase ph[2];
    double x[2][4];
    double params[6];
    int inputs[1];
    double u[2][2];
} probe_gait;

static void make_probe_gait(probe_gait *pg)
{
    memset(pg, 0, sizeof *pg);
    const hes_model *m = &test_status_probe;
    for (int i = 0; i < m->n_params; i++)
        pg->params[i] = m->params[i].value;
    const double x[2][4] = { { PROBE_APEX, 0.0, 0.0, -4.0 }, { 0.0, 4.0, PROBE_APEX, 0.0 } };
    memcpy(pg->x, x, sizeof x);
    for (int i = 0; i < 2; i++) {
        hes_gait_phase *ph = &pg->ph[i];
        ph->mode = 0;
        ph->transition = i;
        ph->direction = HES_DOWN;
        ph->duration = 4.0 / 9.81;
        ph->nodes = 2;
        ph->x = pg->x[i];
    }
    pg->g.params = pg->params;
    pg->g.n_params = m->n_params;
    pg->g.n_phases = 2;
    pg->g.phases = pg->ph;
    pg->g.inputs = pg->inputs;
}

START_TEST(test_gait_model_refuses_gaits_that_do_not_fit_the_model)
{
    const hes_model *base = &test_status_probe;
    probe_gait pg;
    hes_model *m = NULL;
    hes_error msg;

    make_probe_gait(&pg);
    ck_assert_msg(hes_gait_model(&pg.g, base, &m, &msg) == HES_OK, "%s", msg.message);
    hes_system *sys = test_system_of(m); /* the gait's model has the probe's orbit */
    hes_analysis res;
    ck_assert_status(hes_analyze(sys, 0, &res), HES_OK, sys);
    ck_assert_double_eq_tol(res.stab.psi, 0.5, 1e-8);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
    hes_model_destroy(m);

    pg.g.n_params = 5;
    ck_assert_int_eq(hes_gait_model(&pg.g, base, &m, &msg), HES_EINVAL);
    ck_assert_says(msg.message, "the gait has 5 parameters");
    ck_assert_ptr_null(m);

    make_probe_gait(&pg);
    pg.ph[0].transition = 2; /* the probe has 2 transitions */
    ck_assert_int_eq(hes_gait_model(&pg.g, base, &m, &msg), HES_EINVAL);
    ck_assert_says(msg.message, "gait phase 1: its end event does not leave its mode");

    make_probe_gait(&pg);
    pg.ph[0].transition = 1; /* apex, apex */
    ck_assert_int_eq(hes_gait_model(&pg.g, base, &m, &msg), HES_EINVAL);
    ck_assert_says(msg.message, "gait phase 1 ends with 'apex'");

    make_probe_gait(&pg);
    pg.g.n_phases = 1; /* the bounce only */
    ck_assert_int_eq(hes_gait_model(&pg.g, base, &m, &msg), HES_EINVAL);
    ck_assert_says(msg.message, "do not follow the orbit");

    make_probe_gait(&pg);
    pg.g.n_inputs = 1;
    pg.inputs[0] = 6; /* the probe has 6 parameters */
    pg.ph[0].u_rows = pg.ph[1].u_rows = 1;
    pg.ph[0].u = pg.u[0];
    pg.ph[1].u = pg.u[1];
    ck_assert_int_eq(hes_gait_model(&pg.g, base, &m, &msg), HES_EINVAL);
    ck_assert_says(msg.message, "gait input 1 is parameter 6");
    ck_assert_ptr_null(m);
    pg.inputs[0] = 1; /* w, with a row of inputs per phase: accepted */
    pg.u[0][0] = pg.u[1][0] = 2.0;
    ck_assert_msg(hes_gait_model(&pg.g, base, &m, &msg) == HES_OK, "%s", msg.message);
    hes_model_destroy(m);
    pg.ph[1].u_rows = 3; /* neither 1 nor nodes */
    ck_assert_int_eq(hes_gait_model(&pg.g, base, &m, &msg), HES_EINVAL);
    ck_assert_says(msg.message, "gait phase 2");
    ck_assert_says(msg.message, "rows of inputs (has 3)");

    make_probe_gait(&pg);
    pg.ph[1].nodes = 1;
    ck_assert_int_eq(hes_gait_model(&pg.g, base, &m, &msg), HES_EINVAL);
    ck_assert_says(msg.message, "gait phase 2");
    ck_assert_says(msg.message, "nodes >= 2 (has 1)");

    make_probe_gait(&pg);
    pg.ph[0].duration = -1.0;
    ck_assert_int_eq(hes_gait_model(&pg.g, base, &m, &msg), HES_EINVAL);
    ck_assert_says(msg.message, "gait phase 1");
    ck_assert_says(msg.message, "duration >= 0 (has -1)");
}
END_TEST

/* ------------------------------------------------------------ batch layer */

typedef struct {
    int n;
    hes_sweep_row rows[4];
} rows_seen;

static int keep_row(void *ctx, const hes_sweep_row *row)
{
    rows_seen *r = ctx;
    if (r->n < 4)
        r->rows[r->n++] = *row;
    return 0;
}

START_TEST(test_sweep_refuses_an_invalid_model)
{
    hes_model bad = test_status_probe;
    bad.n_modes = 0; /* and every point would fail to get a system */
    const int which[1] = { 0 };
    const double values[2] = { 0.5, 0.6 };
    rows_seen seen = { 0 };
    hes_sweep_options o = { .n_params = 1, .params = which, .n_points = 2, .values = values,
                         .jobs = 1, .row = keep_row, .ctx = &seen };
    hes_error msg;
    ck_assert_int_eq(hes_sweep_run(&bad, NULL, &o, &msg), HES_EINVAL);
    ck_assert_int_eq(seen.n, 0);
    ck_assert_msg(strstr(msg.message, "invalid model") && strstr(msg.message, "n_modes"), "%s", msg.message);
    /* bad options name what is wrong */
    o.jobs = 0;
    ck_assert_int_eq(hes_sweep_run(&test_status_probe, NULL, &o, &msg), HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "jobs = 0") != NULL, "%s", msg.message);
    o.jobs = 1;
    const int out_of_range[1] = { 999 };
    o.params = out_of_range;
    ck_assert_int_eq(hes_sweep_run(&test_status_probe, NULL, &o, &msg), HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "index 999") != NULL, "%s", msg.message);
}
END_TEST

START_TEST(test_sweep_row_reports_failing_jacobian_as_emodel)
{
    const int which[1] = { 5 }; /* fault */
    const double values[2] = { 0.0, STATUS_FAULT_RESET_DX_FAILS };
    rows_seen seen = { 0 };
    hes_sweep_options o = { .n_params = 1, .params = which, .n_points = 2, .values = values,
                         .jobs = 1, .row = keep_row, .ctx = &seen };
    ck_assert_int_eq(hes_sweep_run(&test_status_probe, NULL, &o, NULL), HES_OK);
    ck_assert_int_eq(seen.n, 2);
    for (int i = 0; i < 2; i++) {
        const hes_sweep_row *r = &seen.rows[i];
        if (r->index == 0) {
            ck_assert_msg(r->status == HES_OK, "%s", r->message);
            ck_assert_double_eq_tol(r->psi, 0.5, 1e-9);
        } else {
            ck_assert_int_eq(r->status, HES_EMODEL);
            ck_assert_says(r->message, "model failure");
            ck_assert_says(r->message, "reset Jacobian DxR of 'bounce'");
        }
    }
}
END_TEST

/* A built module of the build tree (make check builds them first). */
static void module_path(char *buf, size_t len, const char *name)
{
    const char *top = getenv("top_builddir");
    snprintf(buf, len, "%s/tests/.libs/%s", top ? top : ".", name);
}

START_TEST(test_plugin_load_reports_missing_file_as_enotfound)
{
    char path[1024];
    hes_error msg;
    hes_plugin *pl;
    const hes_model *m;
    module_path(path, sizeof path, "no_such_plugin.so");
    ck_assert_int_eq(hes_plugin_open(path, &pl, &m, &msg), HES_ENOTFOUND);
    ck_assert_says(msg.message, "no_such_plugin.so");
    ck_assert_says(msg.message, "No such file");
    ck_assert_ptr_null(pl);
    ck_assert_ptr_null(m);
}
END_TEST

START_TEST(test_plugin_load_refuses_what_is_no_valid_plugin)
{
    char path[1024];
    hes_error msg;
    hes_plugin *pl;
    const hes_model *m;

    ck_assert_int_eq(hes_plugin_open("", &pl, &m, &msg), HES_EINVAL);
    ck_assert_says(msg.message, "no plugin path");

    module_path(path, sizeof path, "");
    ck_assert_int_eq(hes_plugin_open(path, &pl, &m, &msg), HES_EINVAL);
    ck_assert_says(msg.message, "is a directory");

    char text[] = "/tmp/hes_status_textXXXXXX";
    int fd = mkstemp(text);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "not a library\n", 14), 14);
    close(fd);
    ck_assert_int_eq(hes_plugin_open(text, &pl, &m, &msg), HES_EINVAL);
    unlink(text);
    ck_assert_says(msg.message, "is not a shared library");

    module_path(path, sizeof path, "rimless_wheel_wrong_abi.so");
    ck_assert_int_eq(hes_plugin_open(path, &pl, &m, &msg), HES_EINVAL);
    ck_assert_says(msg.message, "ABI 999");
    ck_assert_ptr_null(pl);

    module_path(path, sizeof path, "bad_plugin.so");
    setenv("HES_TEST_BAD_MODEL", "direction", 1);
    ck_assert_int_eq(hes_plugin_open(path, &pl, &m, &msg), HES_EINVAL);
    unsetenv("HES_TEST_BAD_MODEL");
    ck_assert_says(msg.message, "direction = 5");
    ck_assert_ptr_null(m);

    /* the valid variant of the same module loads */
    ck_assert_int_eq(hes_plugin_open(path, &pl, &m, &msg), HES_OK);
    ck_assert_ptr_nonnull(m);
    hes_plugin_destroy(pl);
}
END_TEST

START_TEST(test_ess_plugins_load_and_refuse)
{
    char path[1024];
    hes_error msg;
    hes_plugin *pl;
    const hes_model *m;
    const hes_ess_model *em;

    module_path(path, sizeof path, "no_such_plugin.so");
    ck_assert_int_eq(hes_plugin_open_ess(path, &pl, &em, &msg), HES_ENOTFOUND);
    ck_assert_says(msg.message, "no_such_plugin.so");
    module_path(path, sizeof path, "ball_walls_wrong_abi.so");
    ck_assert_int_eq(hes_plugin_open_ess(path, &pl, &em, &msg), HES_EINVAL);
    ck_assert_says(msg.message, "ESS model ABI 999");
    ck_assert_ptr_null(pl);
    ck_assert_ptr_null(em);
    /* a hybrid plugin is no ESS plugin, and the other way round */
    module_path(path, sizeof path, "rimless_wheel_plugin.so");
    ck_assert_int_eq(hes_plugin_open_ess(path, &pl, &em, &msg), HES_EINVAL);
    ck_assert_says(msg.message, "exports no hes_plugin_ess_model()");
    module_path(path, sizeof path, "ball_walls_plugin.so");
    ck_assert_int_eq(hes_plugin_open(path, &pl, &m, &msg), HES_EINVAL);
    ck_assert_says(msg.message, "exports no hes_plugin_model()");
    /* either kind: exactly one model */
    ck_assert_int_eq(hes_plugin_open_any(path, &pl, &m, &em, &msg), HES_OK);
    ck_assert_ptr_null(m);
    ck_assert_ptr_nonnull(em);
    ck_assert_str_eq(em->name, "ball-walls");
    hes_plugin_destroy(pl);
    module_path(path, sizeof path, "rimless_wheel_plugin.so");
    ck_assert_int_eq(hes_plugin_open_any(path, &pl, &m, &em, &msg), HES_OK);
    ck_assert_ptr_nonnull(m);
    ck_assert_ptr_null(em);
    hes_plugin_destroy(pl);
    ck_assert_int_eq(hes_plugin_open_any("", &pl, &m, &em, &msg), HES_EINVAL);
}
END_TEST

/* ------------------------------------------------------------------ suite */

static Suite *statuses_suite(void)
{
    Suite *s = suite_create("statuses");
    TCase *model = tcase_create("model layer");
    tcase_add_test(model, test_check_derivatives_reports_failing_callback_as_emodel);
    tcase_add_test(model, test_check_derivatives_says_why_it_refuses);
    tcase_add_test(model, test_mech_mode_state_reports_non_positive_mass_as_emodel);
    suite_add_tcase(s, model);

    TCase *hybrid = tcase_create("hybrid layer");
    tcase_set_timeout(hybrid, 120);
    tcase_add_test(hybrid, test_invalid_setting_is_named_in_the_message);
    tcase_add_test(hybrid, test_orbit_start_is_refused_without_an_orbit_or_when_not_finite);
    tcase_add_test(hybrid, test_saltation_reports_failing_reset_jacobian_as_emodel);
    tcase_add_test(hybrid, test_saltation_reports_nan_reset_jacobian_as_enonfinite);
    tcase_add_test(hybrid, test_variational_reports_model_failure_as_emodel);
    tcase_add_test(hybrid, test_variational_reports_nan_field_as_enonfinite);
    tcase_add_test(hybrid, test_variational_reports_exhausted_step_budget_as_esolver);
    tcase_add_test(hybrid, test_monodromy_reports_failing_reset_jacobian_as_emodel);
    tcase_add_test(hybrid, test_stability_update_reports_defective_and_non_finite_matrices);
    tcase_add_test(hybrid, test_orbit_find_reports_failing_guess_as_einval);
    tcase_add_test(hybrid, test_orbit_find_reports_failing_jacobian_as_emodel);
    tcase_add_test(hybrid, test_return_map_reports_no_section_event_as_enoevent);
    tcase_add_test(hybrid, test_return_map_fd_reports_refused_perturbed_start_as_emodel);
    tcase_add_test(hybrid, test_analyze_reports_failing_reset_jacobian_as_emodel);
    tcase_add_test(hybrid, test_analyze_check_reports_refused_perturbed_start_as_emodel);
    tcase_add_test(hybrid, test_trials_refuse_bad_arguments_as_einval);
    tcase_add_test(hybrid, test_trials_of_an_unstable_orbit_report_ediverged);
    tcase_add_test(hybrid, test_trials_report_a_refused_start_as_emodel);
    suite_add_tcase(s, hybrid);

    TCase *shaping = tcase_create("shaping layer");
    tcase_set_timeout(shaping, 120);
    tcase_add_test(shaping, test_shape_new_needs_an_analysis_and_shape_parameters);
    tcase_add_test(shaping, test_shape_new_reports_unknown_parameter_as_enotfound);
    tcase_add_test(shaping, test_shape_new_reports_failing_guess_as_emodel);
    tcase_add_test(shaping, test_shape_eval_refuses_non_finite_value_as_einval);
    tcase_add_test(shaping, test_shape_eval_reports_grazing_bounce_as_egrazing);
    tcase_add_test(shaping, test_shape_eval_reports_grazing_section_as_egrazing);
    tcase_add_test(shaping, test_shape_eval_reports_failing_jacobian_as_emodel);
    tcase_add_test(shaping, test_shape_eval_reports_nan_jacobian_as_enonfinite);
    tcase_add_test(shaping, test_shape_optimize_reports_unknown_parameter_as_enotfound);
    tcase_add_test(shaping, test_shape_optimize_reports_failing_analysis_as_emodel);
    tcase_add_test(shaping, test_gait_model_refuses_gaits_that_do_not_fit_the_model);
    suite_add_tcase(s, shaping);

    TCase *batch = tcase_create("batch layer");
    tcase_set_timeout(batch, 120);
    tcase_add_test(batch, test_sweep_refuses_an_invalid_model);
    tcase_add_test(batch, test_sweep_row_reports_failing_jacobian_as_emodel);
    tcase_add_test(batch, test_plugin_load_reports_missing_file_as_enotfound);
    tcase_add_test(batch, test_ess_plugins_load_and_refuse);
    tcase_add_test(batch, test_plugin_load_refuses_what_is_no_valid_plugin);
    suite_add_tcase(s, batch);
    return s;
}

int main(void)
{
    return test_run_suite(statuses_suite());
}
