/*
 * test_errors.c - Check suite for the error paths of the library: each
 * failure is provoked on purpose and must come back with its own status
 * AND a message from hes_system_errmsg() that names what went wrong
 * (Zeno executions, guards never reached, grazing events, missing orbits,
 * non-finite or invalid input, invalid parameters and settings, the step
 * and wall-time budgets of a simulation), plus the names and exit codes of
 * every status (lib/README.md, sections 3 and 5).
 */
#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hes.h"
#include "testutil.h"
#include "testmodels.h"

/* ---------------------------------------------------------------- helpers */

/* Nonzero when `word` occurs in s delimited by non-identifier characters. */
static int has_word(const char *s, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(s, word); p; p = strstr(p + 1, word)) {
        int before = p == s || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        int after = !(isalnum((unsigned char)p[n]) || p[n] == '_');
        if (before && after)
            return 1;
    }
    return 0;
}

#define ck_assert_errmsg_names(sys, word)                                      \
    ck_assert_msg(has_word(hes_system_errmsg(sys), (word)),                    \
                  "message does not name '%s': '%s'", (word),                  \
                  hes_system_errmsg(sys))

#define ck_assert_errmsg_nonempty(sys)                                         \
    ck_assert_msg(hes_system_errmsg(sys)[0] != '\0', "empty error message")

static hes_system *create(const char *problem)
{
    const hes_model *m = hes_problem_find(problem);
    ck_assert_ptr_nonnull(m);
    hes_system *sys = test_system_of(m);
    ck_assert_ptr_nonnull(sys);
    return sys;
}

static hes_system *create_model(const hes_model *m)
{
    hes_system *sys = test_system_of(m);
    ck_assert_ptr_nonnull(sys);
    return sys;
}

static double get(const hes_system *sys, const char *name)
{
    double v = NAN;
    ck_assert_int_eq(hes_system_get_param(sys, name, &v), HES_OK);
    return v;
}

/* ------------------------------------------------------------------- Zeno */

/*
 * Dropped from rest at h = 1, the ball lands at t_1 = sqrt(2 h / g) and
 * after bounce k flies for 2 t_1 alpha^k, so the events accumulate at
 *   t_inf = t_1 (1 + alpha) / (1 - alpha).
 * alpha = 0.8: 10 events fall within zeno_window = 1e-3 about 1e-4 before
 * t_inf, while the impact speed (1.5e-4 m/s) is still far above the grazing
 * threshold (graze_tol |(1, F)| ~ 1e-5 m/s).  (With alpha = 0.5 the two
 * criteria trip at the same, 20th, event; Zeno is judged first, see
 * test_zeno_is_reported_before_the_bounces_become_grazing.)
 */
START_TEST(test_zeno_bouncing_ball_is_reported)
{
    hes_system *sys = create_model(&test_bouncing_ball);
    const double alpha = 0.8, g = 9.81, h = 1.0;
    ck_assert_int_eq(hes_system_set_param(sys, "alpha", alpha), HES_OK);
    hes_settings set = hes_system_get_settings(sys);
    const double x0[2] = { h, 0.0 };
    hes_sim_options opts;
    hes_sim_options_init(&opts);
    hes_traj traj;

    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, &opts, &traj), HES_EZENO);
    ck_assert_int_eq(traj.status, HES_EZENO);
    ck_assert_errmsg_names(sys, "bounce");
    ck_assert_int_ge(traj.n_events, set.zeno_events);

    double t1 = sqrt(2.0 * h / g), t_inf = t1 * (1.0 + alpha) / (1.0 - alpha);
    const hes_event *last = &traj.events[traj.n_events - 1];
    const hes_event *first = &traj.events[traj.n_events - set.zeno_events];
    ck_assert_msg(last->t < t_inf && t_inf - last->t < set.zeno_window,
                  "last event at %.12g, accumulation point %.12g", last->t, t_inf);
    ck_assert_double_le(last->t - first->t, set.zeno_window);
    /* the first bounce is where the closed form says */
    ck_assert_double_eq_tol(traj.events[0].t, t1, 1e-9);
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_zeno_is_reported_before_the_bounces_become_grazing)
{
    hes_system *sys = create_model(&test_bouncing_ball); /* alpha = 0.5 */
    const double x0[2] = { 1.0, 0.0 };
    hes_sim_options opts;
    hes_sim_options_init(&opts);
    hes_traj traj;
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, &opts, &traj), HES_EZENO);
    ck_assert_int_eq(traj.n_events, 20);
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_event_limit_is_reported_as_zeno)
{
    hes_system *sys = create_model(&test_bouncing_ball);
    hes_settings set = hes_system_get_settings(sys);
    set.max_events = 5;
    ck_assert_int_eq(hes_system_set_settings(sys, &set), HES_OK);
    const double x0[2] = { 1.0, 0.0 };
    hes_traj traj;
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, NULL, &traj), HES_EZENO);
    ck_assert_errmsg_nonempty(sys);
    ck_assert_int_le(traj.n_events, 6);
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

/* --------------------------------------------------------------- no event */

START_TEST(test_guard_never_reached_reports_no_event)
{
    hes_system *sys = create_model(&test_bouncing_ball_up);
    hes_settings set = hes_system_get_settings(sys);
    set.max_phase_time = 5.0;
    ck_assert_int_eq(hes_system_set_settings(sys, &set), HES_OK);
    const double x0[2] = { 1.0, 0.0 };
    hes_traj traj;
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, NULL, &traj), HES_ENOEVENT);
    ck_assert_int_eq(traj.status, HES_ENOEVENT);
    ck_assert_int_eq(traj.n_events, 0);
    ck_assert_errmsg_names(sys, "air");
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

/* Control for the test above: the same fall with the guard armed downward
 * takes its event at t = sqrt(2 h / g). */
START_TEST(test_guard_crossed_downward_is_found_at_closed_form_time)
{
    hes_system *sys = create_model(&test_bouncing_ball);
    const double x0[2] = { 1.0, 0.0 };
    hes_sim_options opts;
    hes_sim_options_init(&opts);
    opts.section = 0;
    opts.n_section = 1;
    hes_traj traj;
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, &opts, &traj), HES_OK);
    ck_assert_int_eq(traj.n_events, 1);
    ck_assert_double_eq_tol(traj.events[0].t, sqrt(2.0 / 9.81), 1e-9);
    ck_assert_double_eq_tol(traj.events[0].x_minus[1], -sqrt(2.0 * 9.81), 1e-8);
    ck_assert_double_eq_tol(traj.events[0].x_plus[1], 0.5 * sqrt(2.0 * 9.81), 1e-8);
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

/* ---------------------------------------------------------------- grazing */

/*
 * SLIP from rest (vertically) a height dh above the touchdown height
 * l_td cos(theta_td): the leg touches down with vertical speed
 * sqrt(2 g dh).  The flow F = (0, vy, -g) meets the guard y - const at an
 * angle whose sine is |vy| / |(1, F)| ~ |vy| / 9.86: grazing (below 1e-6)
 * for dh = 1e-12 (vy ~ 4.4e-6), transversal for dh = 1e-6 (vy ~ 4.4e-3).
 */
static hes_status touchdown_from_above(hes_system *sys, double dh, hes_traj *traj)
{
    const hes_model *m = hes_system_model(sys);
    double l_td = get(sys, "l_td"), th = get(sys, "theta_td");
    const double x0[3] = { get(sys, "apex_speed"), l_td * cos(th) + dh, 0.0 };
    hes_sim_options opts;
    hes_sim_options_init(&opts);
    opts.section = hes_model_transition_index(m, "touchdown");
    opts.n_section = 1;
    ck_assert_int_ge(opts.section, 0);
    return hes_simulate(sys, hes_model_mode_index(m, "descent"), 0.0, 0.0, x0, &opts, traj);
}

static hes_system *slip_on_orbit(void)
{
    hes_system *sys = create("slip-hopper");
    hes_orbit orbit;
    ck_assert_int_eq(hes_orbit_find(sys, &orbit), HES_OK);
    hes_orbit_free(&orbit);
    ck_assert_double_eq_tol(get(sys, "l_td"), 0.9097, 1e-3);
    ck_assert_double_eq_tol(get(sys, "theta_td"), 0.1131, 1e-3);
    return sys;
}

START_TEST(test_tangential_touchdown_is_reported_as_grazing)
{
    hes_system *sys = slip_on_orbit();
    hes_traj traj;
    ck_assert_int_eq(touchdown_from_above(sys, 1e-12, &traj), HES_EGRAZING);
    ck_assert_int_eq(traj.status, HES_EGRAZING);
    ck_assert_errmsg_names(sys, "touchdown");
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_touchdown_one_micrometre_above_is_not_grazing)
{
    hes_system *sys = slip_on_orbit();
    const double dh = 1e-6, g = 9.81;
    double l_td = get(sys, "l_td"), th = get(sys, "theta_td");
    hes_traj traj;
    ck_assert_int_eq(touchdown_from_above(sys, dh, &traj), HES_OK);
    ck_assert_int_eq(traj.n_events, 1);
    const hes_event *ev = &traj.events[0];
    ck_assert_int_eq(ev->transition, hes_model_transition_index(hes_system_model(sys), "touchdown"));
    /* free fall from rest through dh */
    ck_assert_double_eq_tol(ev->t, sqrt(2.0 * dh / g), 1e-9);
    ck_assert_double_eq_tol(ev->x_minus[2] / -sqrt(2.0 * g * dh), 1.0, 1e-6);
    /* the toe lands l_td sin(theta_td) ahead of the body */
    ck_assert_double_eq_tol(ev->x_plus[0], -l_td * sin(th), 1e-12);
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_saltation_at_tangential_bounce_is_grazing)
{
    hes_system *sys = create_model(&test_bouncing_ball);
    const double x[2] = { 0.0, 0.0 }; /* on the floor at rest: Dxg F = v = 0 */
    double xi[4];
    ck_assert_int_eq(hes_saltation(sys, 0, 0.0, x, xi), HES_EGRAZING);
    ck_assert_errmsg_names(sys, "bounce");
    hes_system_destroy(sys);
}
END_TEST

/* --------------------------------------------------------------- no orbit */

START_TEST(test_soft_slip_spring_has_no_orbit)
{
    hes_system *sys = create("slip-hopper");
    hes_orbit orbit;
    ck_assert_int_eq(hes_system_set_param(sys, "k", 50.0), HES_OK);
    ck_assert_int_eq(hes_orbit_find(sys, &orbit), HES_ENOORBIT);
    ck_assert_errmsg_nonempty(sys);
    ck_assert_ptr_null(orbit.x0);
    hes_orbit_free(&orbit); /* harmless after a failure */
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_paddle_sweeping_through_flight_has_no_orbit)
{
    hes_system *sys = create("paddle-juggler");
    hes_orbit orbit;
    /* control: the orbit exists at the default paddle */
    ck_assert_int_eq(hes_orbit_find(sys, &orbit), HES_OK);
    hes_orbit_free(&orbit);

    /* a strongly accelerating paddle rises through the ball's flight and
     * meets it before the apex: the ball's period-1 orbit is unchanged
     * (paddle_accel is a shape parameter) but not an orbit of the full
     * system */
    ck_assert_int_eq(hes_system_set_param(sys, "paddle_accel", 60.0), HES_OK);
    ck_assert_int_eq(hes_orbit_find(sys, &orbit), HES_ENOORBIT);
    ck_assert_msg(strstr(hes_system_errmsg(sys), "does not exist"),
                  "message: '%s'", hes_system_errmsg(sys));
    hes_orbit_free(&orbit);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_newton_iteration_limit_reports_no_orbit_with_residual)
{
    hes_system *sys = create("slip-hopper");
    hes_settings set = hes_system_get_settings(sys);
    hes_orbit orbit;
    set.newton_maxiter = 1;
    ck_assert_int_eq(hes_system_set_settings(sys, &set), HES_OK);
    ck_assert_int_eq(hes_orbit_find(sys, &orbit), HES_ENOORBIT);
    ck_assert_errmsg_names(sys, "residual");
    hes_orbit_free(&orbit);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_orbit_of_simulation_only_model_is_invalid)
{
    hes_system *sys = create_model(&test_bouncing_ball);
    hes_orbit orbit;
    const double x0[2] = { 1.0, 0.0 };
    double xr[2];
    ck_assert_int_eq(hes_orbit_find(sys, &orbit), HES_EINVAL);
    ck_assert_errmsg_nonempty(sys);
    ck_assert_int_eq(hes_orbit_return_map(sys, x0, xr), HES_EINVAL);
    hes_system_destroy(sys);
}
END_TEST

/* ------------------------------------------------------ invalid arguments */

START_TEST(test_non_finite_initial_state_is_rejected)
{
    hes_system *sys = create_model(&test_bouncing_ball);
    const double bad[][2] = { { NAN, 0.0 }, { 1.0, INFINITY }, { -INFINITY, 0.0 } };
    for (int i = 0; i < 3; i++) {
        hes_traj traj;
        ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, bad[i], NULL, &traj), HES_ENONFINITE);
        ck_assert_int_eq(traj.status, HES_ENONFINITE);
        ck_assert_int_eq(traj.n_events, 0);
        ck_assert_errmsg_nonempty(sys);
        hes_traj_free(&traj);
    }
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_invalid_simulation_arguments_are_rejected)
{
    hes_system *sys = create("slip-hopper");
    const double x0[4] = { 2.0, 2.5, 0.0, 0.0 };
    hes_sim_options opts;
    hes_sim_options_init(&opts);
    hes_traj traj;

    ck_assert_int_eq(hes_simulate(sys, -1, 0.0, 0.0, x0, NULL, &traj), HES_EINVAL);
    ck_assert_int_eq(traj.status, HES_EINVAL);
    ck_assert_errmsg_nonempty(sys);
    hes_traj_free(&traj);
    ck_assert_int_eq(hes_simulate(sys, 3, 0.0, 0.0, x0, NULL, &traj), HES_EINVAL); /* 3 modes */
    hes_traj_free(&traj);
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, NULL, NULL, &traj), HES_EINVAL);
    hes_traj_free(&traj);
    ck_assert_int_eq(hes_simulate(sys, 0, NAN, 0.0, x0, NULL, &traj), HES_EINVAL);
    hes_traj_free(&traj);
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, INFINITY, x0, NULL, &traj), HES_EINVAL);
    hes_traj_free(&traj);
    opts.section = 3; /* 3 transitions */
    opts.n_section = 1;
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, &opts, &traj), HES_EINVAL);
    hes_traj_free(&traj);
    hes_sim_options_init(&opts);
    opts.t_end = NAN;
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, &opts, &traj), HES_EINVAL);
    hes_traj_free(&traj);
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, NULL, NULL), HES_EINVAL);

    double xi[12];
    ck_assert_int_eq(hes_saltation(sys, 3, 0.0, x0, xi), HES_EINVAL);
    ck_assert_int_eq(hes_saltation(sys, -1, 0.0, x0, xi), HES_EINVAL);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_model_callback_failure_is_reported)
{
    /* the SLIP stance field refuses a body below the ground (ys <= 0) */
    hes_system *sys = create("slip-hopper");
    const double x0[4] = { 0.0, 0.0, -0.1, 0.0 };
    hes_traj traj;
    ck_assert_int_eq(hes_simulate(sys, 2, 0.0, 0.0, x0, NULL, &traj), HES_EMODEL);
    ck_assert_errmsg_names(sys, "stance");
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

/* ----------------------------------------------------- invalid parameters */

START_TEST(test_invalid_parameter_values_are_rejected)
{
    hes_system *slip = create("slip-hopper");
    hes_system *jug = create("paddle-juggler");

    ck_assert_int_eq(hes_system_set_param(slip, "k", -100.0), HES_EINVAL);
    ck_assert_errmsg_names(slip, "k");
    ck_assert_int_eq(hes_system_set_param(slip, "m", NAN), HES_EINVAL);
    ck_assert_errmsg_names(slip, "m");
    ck_assert_int_eq(hes_system_set_param(jug, "alpha", 2.0), HES_EINVAL);
    ck_assert_errmsg_names(jug, "alpha");
    ck_assert_int_eq(hes_system_set_param(jug, "alpha", -0.1), HES_EINVAL);

    /* rejected values leave the old ones in place */
    ck_assert_double_eq(get(slip, "k"), 500.0);
    ck_assert_double_eq(get(slip, "m"), 1.0);
    ck_assert_double_eq(get(jug, "alpha"), 0.5);
    ck_assert_int_eq(hes_system_check_params(slip), HES_OK);
    ck_assert_int_eq(hes_system_check_params(jug), HES_OK);
    hes_system_destroy(slip);
    hes_system_destroy(jug);
}
END_TEST

START_TEST(test_analyze_refuses_parameters_failing_model_validate)
{
    hes_system *sys = create("slip-hopper");
    hes_analysis res;
    /* each value is valid alone (positive) but the apex lies below the
     * touchdown height l_td cos(theta_td) ~ 0.88 */
    ck_assert_int_eq(hes_system_set_param(sys, "apex_height", 0.5), HES_OK);
    ck_assert_int_eq(hes_system_check_params(sys), HES_EINVAL);
    ck_assert_errmsg_names(sys, "apex_height");
    ck_assert_int_eq(hes_analyze(sys, 0, &res), HES_EINVAL);
    ck_assert_errmsg_names(sys, "apex_height");
    ck_assert_ptr_null(res.stab.re);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_invalid_settings_are_rejected_and_not_applied)
{
    hes_system *sys = create_model(&test_bouncing_ball);
    hes_settings good = hes_system_get_settings(sys), bad;

    bad = good; bad.rtol = 0.0;
    ck_assert_int_eq(hes_system_set_settings(sys, &bad), HES_EINVAL);
    ck_assert_errmsg_nonempty(sys);
    bad = good; bad.max_phase_time = -1.0;
    ck_assert_int_eq(hes_system_set_settings(sys, &bad), HES_EINVAL);
    bad = good; bad.zeno_events = 1;
    ck_assert_int_eq(hes_system_set_settings(sys, &bad), HES_EINVAL);
    bad = good; bad.fd_step = NAN;
    ck_assert_int_eq(hes_system_set_settings(sys, &bad), HES_EINVAL);
    bad = good; bad.fd_order = 3;
    ck_assert_int_eq(hes_system_set_settings(sys, &bad), HES_EINVAL);
    ck_assert_msg(strstr(hes_system_errmsg(sys), "fd_order 2 or 4"), "%s", hes_system_errmsg(sys));

    hes_settings now = hes_system_get_settings(sys);
    ck_assert_double_eq(now.rtol, good.rtol);
    ck_assert_double_eq(now.max_phase_time, good.max_phase_time);
    ck_assert_int_eq(now.zeno_events, good.zeno_events);
    ck_assert_double_eq(now.fd_step, good.fd_step);
    ck_assert_int_eq(now.fd_order, 2);
    hes_system_destroy(sys);
}
END_TEST

/* ---------------------------------------------------------------- budgets */

/* A fast oscillator, x'' = -omega^2 x with omega = 1e4, and no event: over
 * its 100 time units the integrator needs some 10^8 steps, far beyond either
 * budget, so a simulation must stop at the budget with a message. */
static int spin_field(double t, const double *x, const double *p, double *f, void *data)
{
    (void)t; (void)data;
    f[0] = x[1];
    f[1] = -p[0] * p[0] * x[0];
    return 0;
}

static const char *const spin_states[] = { "x", "v" };
static const hes_mode spin_modes[] = { { .name = "spin", .dim = 2,
                                         .state_names = spin_states, .field = spin_field } };
static const hes_param spin_params[] = {
    { "omega", 1e4, "1/s", "angular frequency", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
};
static const hes_model spin_model = {
    .abi = HES_MODEL_ABI, .name = "fast-spin", .description = "a fast oscillator",
    .n_modes = 1, .modes = spin_modes, .n_params = 1, .params = spin_params,
    .integrator = HES_ADAMS, .max_phase_time = 100.0,
};

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

START_TEST(test_step_budget_stops_a_simulation_with_its_message)
{
    hes_system *sys = create_model(&spin_model);
    hes_settings set = hes_system_get_settings(sys);
    ck_assert_int_eq(set.max_steps, 100000);       /* the documented defaults */
    ck_assert_double_eq(set.max_wall_time, 10.0);
    set.max_steps = 3000;
    ck_assert_int_eq(hes_system_set_settings(sys, &set), HES_OK);
    const double x0[2] = { 1.0, 0.0 };
    hes_traj traj;
    double t0 = seconds();
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, NULL, &traj), HES_ESOLVER);
    ck_assert_errmsg_names(sys, "max_steps");
    ck_assert_errmsg_names(sys, "spin");
    hes_traj_free(&traj);
    /* the same for the variational matrix over the same time */
    double x1[2], A[4];
    ck_assert_int_eq(hes_variational(sys, 0, 0.0, 100.0, x0, x1, A), HES_ESOLVER);
    ck_assert_errmsg_names(sys, "max_steps");
    ck_assert_msg(seconds() - t0 < 20.0, "3000 steps took %g s", seconds() - t0);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_wall_time_budget_stops_a_simulation_with_its_message)
{
    hes_system *sys = create_model(&spin_model);
    hes_settings set = hes_system_get_settings(sys);
    set.max_steps = 2000000000;
    set.max_wall_time = 0.2;
    ck_assert_int_eq(hes_system_set_settings(sys, &set), HES_OK);
    const double x0[2] = { 1.0, 0.0 };
    hes_traj traj;
    double t0 = seconds();
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, NULL, &traj), HES_ESOLVER);
    double took = seconds() - t0;
    ck_assert_errmsg_names(sys, "max_wall_time");
    ck_assert_msg(strstr(hes_system_errmsg(sys), "wall-time budget"),
                  "message does not say the budget ran out: '%s'", hes_system_errmsg(sys));
    ck_assert_msg(took >= 0.2 && took < 20.0, "a 0.2 s budget stopped after %g s", took);
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_invalid_budgets_are_rejected)
{
    hes_system *sys = create_model(&spin_model);
    hes_settings set = hes_system_get_settings(sys);
    set.max_steps = 0;
    ck_assert_int_eq(hes_system_set_settings(sys, &set), HES_EINVAL);
    set = hes_system_get_settings(sys);
    set.max_wall_time = NAN;
    ck_assert_int_eq(hes_system_set_settings(sys, &set), HES_EINVAL);
    set.max_wall_time = -1.0;
    ck_assert_int_eq(hes_system_set_settings(sys, &set), HES_EINVAL);
    set.max_wall_time = HUGE_VAL; /* no limit */
    ck_assert_int_eq(hes_system_set_settings(sys, &set), HES_OK);
    hes_system_destroy(sys);
}
END_TEST

/* ------------------------------------------------------ statuses, exits */

static const hes_status all_statuses[] = {
    HES_OK, HES_EINVAL, HES_ENOMEM, HES_ESOLVER, HES_EGRAZING, HES_EZENO,
    HES_ENOEVENT, HES_ENONFINITE, HES_EMODEL, HES_ENOORBIT, HES_EMAXITER,
    HES_EDEFECTIVE, HES_ENOTFOUND, HES_EDIVERGED, HES_EIO, HES_ELCP, HES_EINFEASIBLE,
};
enum { N_STATUSES = sizeof all_statuses / sizeof all_statuses[0] };

START_TEST(test_strerror_names_every_status_distinctly)
{
    ck_assert_int_eq(N_STATUSES, HES_EINFEASIBLE + 1); /* the list above is complete */
    for (int i = 0; i < N_STATUSES; i++) {
        const char *a = hes_strerror(all_statuses[i]);
        ck_assert_ptr_nonnull(a);
        ck_assert_msg(a[0] != '\0', "status %d has an empty name", (int)all_statuses[i]);
        for (int j = 0; j < i; j++)
            ck_assert_msg(strcmp(a, hes_strerror(all_statuses[j])) != 0,
                          "statuses %d and %d share the name '%s'", (int)all_statuses[i],
                          (int)all_statuses[j], a);
    }
    /* a value outside the enum still gets a string */
    const char *u = hes_strerror((hes_status)999);
    ck_assert_ptr_nonnull(u);
    ck_assert_msg(u[0] != '\0', "unknown status has an empty name");
}
END_TEST

START_TEST(test_exit_codes_follow_program_contract)
{
    for (int i = 0; i < N_STATUSES; i++) {
        hes_status s = all_statuses[i];
        int want = s == HES_OK ? 0 : (s == HES_EINVAL || s == HES_ENOTFOUND) ? 2 : 1;
        ck_assert_msg(hes_status_exit_code(s) == want, "status %s: exit %d, expected %d",
                      hes_strerror(s), hes_status_exit_code(s), want);
    }
}
END_TEST

/* ------------------------------------------------------------------ suite */

static Suite *errors_suite(void)
{
    Suite *s = suite_create("errors");
    TCase *tc;

    tc = tcase_create("simulation");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_zeno_bouncing_ball_is_reported);
    tcase_add_test(tc, test_zeno_is_reported_before_the_bounces_become_grazing);
    tcase_add_test(tc, test_event_limit_is_reported_as_zeno);
    tcase_add_test(tc, test_guard_never_reached_reports_no_event);
    tcase_add_test(tc, test_guard_crossed_downward_is_found_at_closed_form_time);
    tcase_add_test(tc, test_tangential_touchdown_is_reported_as_grazing);
    tcase_add_test(tc, test_touchdown_one_micrometre_above_is_not_grazing);
    tcase_add_test(tc, test_saltation_at_tangential_bounce_is_grazing);
    tcase_add_test(tc, test_model_callback_failure_is_reported);
    suite_add_tcase(s, tc);

    tc = tcase_create("orbit");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_soft_slip_spring_has_no_orbit);
    tcase_add_test(tc, test_paddle_sweeping_through_flight_has_no_orbit);
    tcase_add_test(tc, test_newton_iteration_limit_reports_no_orbit_with_residual);
    tcase_add_test(tc, test_orbit_of_simulation_only_model_is_invalid);
    suite_add_tcase(s, tc);

    tc = tcase_create("input");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_non_finite_initial_state_is_rejected);
    tcase_add_test(tc, test_invalid_simulation_arguments_are_rejected);
    tcase_add_test(tc, test_invalid_parameter_values_are_rejected);
    tcase_add_test(tc, test_analyze_refuses_parameters_failing_model_validate);
    tcase_add_test(tc, test_invalid_settings_are_rejected_and_not_applied);
    suite_add_tcase(s, tc);

    tc = tcase_create("budgets");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_step_budget_stops_a_simulation_with_its_message);
    tcase_add_test(tc, test_wall_time_budget_stops_a_simulation_with_its_message);
    tcase_add_test(tc, test_invalid_budgets_are_rejected);
    suite_add_tcase(s, tc);

    tc = tcase_create("status");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_strerror_names_every_status_distinctly);
    tcase_add_test(tc, test_exit_codes_follow_program_contract);
    suite_add_tcase(s, tc);

    return s;
}

int main(void)
{
    return test_run_suite(errors_suite());
}
