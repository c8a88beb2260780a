/*
 * test_simulate.c - hes_simulate: the events, phases and stop rules of a
 * hybrid execution (n_section, t_end, sequence_only, after_transition,
 * absolute and model time, sensitivities), and the statuses of a model
 * callback that fails or returns a non-finite value.  (The statuses of bad
 * arguments, a non-finite start, Zeno, no event, grazing and the step and
 * wall-time budgets are in test_errors.c and test_orbit.c.)
 *
 * Independent computations: the closed forms of a ball in free fall, y' = v,
 * v' = -g, bouncing on a floor with restitution alpha: dropped from rest at
 * height h it lands at t_1 = sqrt(2 h / g) with speed g t_1, leaves with
 * alpha g t_1 and then flies for 2 alpha^k t_1 after bounce k; the state at
 * time s after leaving with speed u is (u s - g s^2 / 2, u - g s); the
 * variational matrix of a flight of duration s is [[1, s], [0, 1]]; and an
 * elastic ball (alpha = 1) conserves g y + v^2 / 2.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testmodels.h"
#include "testutil.h"

#define G 9.81

static hes_system *create(const hes_model *m)
{
    ck_assert_ptr_nonnull(m);
    hes_system *sys = test_system_of(m);
    ck_assert_ptr_nonnull(sys);
    return sys;
}

/* Event times come from CVODES root finding at rtol = atol = 1e-12 on
 * O(1) states and times: 1e-9 absolute leaves a wide margin and still
 * separates any wrong closed form (the quantities differ by >= 1e-2). */
#define TOL 1e-9

START_TEST(test_bounces_follow_the_closed_form_times_and_speeds)
{
    hes_system *sys = create(&test_bouncing_ball); /* alpha = 0.5 */
    const double h = 1.0, alpha = 0.5, t1 = sqrt(2 * h / G);
    const double x0[2] = { h, 0.0 };
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.section = 0;
    o.n_section = 4;
    hes_traj traj;
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, &o, &traj), HES_OK);
    ck_assert_int_eq(traj.status, HES_OK);
    ck_assert_int_eq(traj.n_events, 4); /* stops at the 4th section event */
    ck_assert_int_eq(traj.n_phases, 4);
    double t = t1, speed = G * t1;
    for (int k = 0; k < 4; k++) {
        const hes_event *ev = &traj.events[k];
        const hes_phase *ph = &traj.phases[k];
        ck_assert_int_eq(ev->transition, 0);
        ck_assert_double_eq_tol(ev->t, t, TOL);
        ck_assert_double_eq_tol(ev->x_minus[0], 0.0, TOL);
        ck_assert_double_eq_tol(ev->x_minus[1], -speed, TOL);
        ck_assert_double_eq_tol(ev->x_plus[1], alpha * speed, TOL);
        /* phase k ends with event k and phase k + 1 starts from its image */
        ck_assert_double_eq(ph->t1, ev->t);
        ck_assert_double_eq(ph->x1[1], ev->x_minus[1]);
        if (k + 1 < traj.n_phases) {
            ck_assert_double_eq(traj.phases[k + 1].t0, ev->t);
            ck_assert_double_eq(traj.phases[k + 1].x0[1], ev->x_plus[1]);
        }
        ck_assert_ptr_null(ph->A); /* no sensitivities asked for */
        speed *= alpha;
        t += 2 * speed / G;
    }
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_simulation_stops_exactly_at_t_end_in_the_closed_form_state)
{
    hes_system *sys = create(&test_bouncing_ball);
    const double h = 1.0, alpha = 0.5, t1 = sqrt(2 * h / G), t_end = 1.0;
    const double x0[2] = { h, 0.0 };
    hes_sim_options o;
    hes_sim_options_init(&o); /* n_section 0: only t_end stops it */
    o.t_end = t_end;
    hes_traj traj;
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, &o, &traj), HES_OK);
    /* bounces at t1 = 0.452 and t1 + 2 alpha t1 = 0.903, the next at 1.129 */
    ck_assert_int_eq(traj.n_events, 2);
    ck_assert_int_eq(traj.n_phases, 3);
    const hes_phase *last = &traj.phases[2];
    ck_assert_double_eq_tol(last->t1, t_end, 1e-14);
    double u = alpha * alpha * G * t1, s = t_end - (t1 + 2 * alpha * t1);
    ck_assert_double_eq_tol(last->x1[0], u * s - G * s * s / 2, TOL);
    ck_assert_double_eq_tol(last->x1[1], u - G * s, TOL);
    hes_traj_free(&traj);

    /* a t_end before the first event: one phase of free fall */
    o.t_end = 0.25;
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, &o, &traj), HES_OK);
    ck_assert_int_eq(traj.n_events, 0);
    ck_assert_int_eq(traj.n_phases, 1);
    ck_assert_double_eq_tol(traj.phases[0].x1[0], h - G * 0.25 * 0.25 / 2, TOL);
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

/* Absolute time t and model time tm run in step from their own origins
 * (no transition of the ball restarts the clock). */
START_TEST(test_event_times_are_offset_by_the_start_times)
{
    hes_system *sys = create(&test_bouncing_ball);
    const double x0[2] = { 1.0, 0.0 }, t0 = 100.0, tm0 = -3.0, t1 = sqrt(2 / G);
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.section = 0;
    o.n_section = 2;
    hes_traj traj;
    ck_assert_int_eq(hes_simulate(sys, 0, t0, tm0, x0, &o, &traj), HES_OK);
    ck_assert_int_eq(traj.n_events, 2);
    ck_assert_double_eq(traj.phases[0].t0, t0);
    ck_assert_double_eq(traj.phases[0].tm0, tm0);
    ck_assert_double_eq_tol(traj.events[0].t, t0 + t1, TOL);
    ck_assert_double_eq_tol(traj.events[0].tm, tm0 + t1, TOL);
    ck_assert_double_eq_tol(traj.events[1].t, t0 + 2 * t1, TOL); /* 1 + 2 alpha = 2 */
    ck_assert_double_eq_tol(traj.events[1].tm, tm0 + 2 * t1, TOL);
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_elastic_bounces_conserve_energy_and_keep_their_period)
{
    hes_system *sys = create(&test_bouncing_ball);
    ck_assert_int_eq(hes_system_set_param(sys, "alpha", 1.0), HES_OK);
    const double h = 1.0, t1 = sqrt(2 * h / G), t_end = 20.0;
    const double x0[2] = { h, 0.0 };
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.t_end = t_end;
    hes_traj traj;
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, &o, &traj), HES_OK);
    /* bounces at t1 (2k + 1): floor((t_end / t1 - 1) / 2) + 1 of them */
    int n = (int)floor((t_end / t1 - 1) / 2) + 1;
    ck_assert_int_eq(traj.n_events, n);
    /* energy per unit mass, g h = 9.81, at every event and at the end: the
     * integrator's local errors (1e-12) accumulate over ~20 bounces */
    for (int k = 0; k < traj.n_events; k++) {
        const double *x = traj.events[k].x_plus;
        ck_assert_double_eq_tol(G * x[0] + x[1] * x[1] / 2, G * h, 1e-8);
        ck_assert_double_eq_tol(traj.events[k].t, t1 * (2 * k + 1), 1e-8);
    }
    const double *x = traj.phases[traj.n_phases - 1].x1;
    ck_assert_double_eq_tol(G * x[0] + x[1] * x[1] / 2, G * h, 1e-8);
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_sensitivities_of_each_flight_are_the_closed_form_shear)
{
    hes_system *sys = create(&test_bouncing_ball);
    const double x0[2] = { 1.0, 0.0 };
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.t_end = 1.0;
    o.sensitivities = 1;
    hes_traj traj;
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, &o, &traj), HES_OK);
    ck_assert_int_eq(traj.n_phases, 3);
    for (int k = 0; k < traj.n_phases; k++) {
        const hes_phase *ph = &traj.phases[k];
        double s = ph->t1 - ph->t0;
        ck_assert_ptr_nonnull(ph->A);
        ck_assert_double_eq_tol(ph->A[0], 1.0, TOL);
        ck_assert_double_eq_tol(ph->A[1], 0.0, TOL);
        ck_assert_double_eq_tol(ph->A[2], s, TOL);
        ck_assert_double_eq_tol(ph->A[3], 1.0, TOL);
    }
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

/* test_zeno_ball (e = 0.7) thrown upward from y = 1 with v = 1: with every
 * guard armed its apex comes first, at t = 1/g; with sequence_only only the
 * sequence's next transition (bounce, then apex) is armed, so it first lands
 * at t_b = (1 + sqrt(1 + 2 g)) / g and then rises to its apex after
 * e sqrt(1 + 2 g) / g more. */
START_TEST(test_sequence_only_arms_the_sequence_in_order)
{
    hes_system *sys = create(&test_zeno_ball);
    const hes_model *m = &test_zeno_ball;
    int bounce = hes_model_transition_index(m, "bounce"), apex = hes_model_transition_index(m, "apex");
    const double x0[2] = { 1.0, 1.0 }, e = 0.7, w = sqrt(1 + 2 * G);
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.section = apex;
    o.n_section = 1;
    hes_traj traj;
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, &o, &traj), HES_OK);
    ck_assert_int_eq(traj.n_events, 1);
    ck_assert_int_eq(traj.events[0].transition, apex);
    ck_assert_double_eq_tol(traj.events[0].t, 1 / G, TOL);
    hes_traj_free(&traj);

    o.sequence_only = 1;
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, &o, &traj), HES_OK);
    ck_assert_int_eq(traj.n_events, 2);
    ck_assert_int_eq(traj.events[0].transition, bounce);
    ck_assert_double_eq_tol(traj.events[0].t, (1 + w) / G, TOL);
    ck_assert_double_eq_tol(traj.events[0].x_minus[1], -w, TOL);
    ck_assert_int_eq(traj.events[1].transition, apex);
    ck_assert_double_eq_tol(traj.events[1].t, (1 + w) / G + e * w / G, TOL);
    ck_assert_double_eq_tol(traj.events[1].x_minus[0], (e * w) * (e * w) / (2 * G), TOL);
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

/* A start at the apex, v = 0 with v decreasing, lies on the apex guard:
 * the start's own root is an event at once unless the start is declared to
 * lie just after an apex, in which case the first event is the landing at
 * sqrt(2 h / g). */
START_TEST(test_after_transition_ignores_only_the_root_at_the_start)
{
    hes_system *sys = create(&test_zeno_ball);
    const hes_model *m = &test_zeno_ball;
    int bounce = hes_model_transition_index(m, "bounce"), apex = hes_model_transition_index(m, "apex");
    const double x0[2] = { 1.0, 0.0 };
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.t_end = 0.1;
    hes_traj traj;
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, &o, &traj), HES_OK);
    ck_assert_int_ge(traj.n_events, 1);
    ck_assert_int_eq(traj.events[0].transition, apex);
    ck_assert_double_eq(traj.events[0].t, 0.0);
    hes_traj_free(&traj);

    hes_sim_options_init(&o);
    o.after_transition = apex;
    o.section = apex;
    o.n_section = 1;
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, &o, &traj), HES_OK);
    ck_assert_int_eq(traj.n_events, 2); /* the landing, then the next apex */
    ck_assert_int_eq(traj.events[0].transition, bounce);
    ck_assert_double_eq_tol(traj.events[0].t, sqrt(2 / G), TOL);
    ck_assert_int_eq(traj.events[1].transition, apex);
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

/* ------------------------------------------------------ failing callbacks */

/* The ball of testmodels.c with a parameter "fault" that breaks one
 * callback below y = 0.5 (the field, the guard) or at the bounce (the
 * reset): 0 none, 1 the reset fails, 2 the reset returns NaN, 3 the guard
 * fails, 4 the vector field returns NaN. */
enum { F_NONE, F_RESET_FAILS, F_RESET_NAN, F_GUARD_FAILS, F_FIELD_NAN };
enum { FP_G, FP_FAULT };

static int fault(const double *p, int which)
{
    return (int)p[FP_FAULT] == which;
}

static int faulty_field(double t, const double *x, const double *p, double *f, void *d)
{
    (void)t; (void)d;
    f[0] = x[1];
    f[1] = fault(p, F_FIELD_NAN) && x[0] < 0.5 ? NAN : -p[FP_G];
    return 0;
}

static int faulty_guard(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)d;
    g[0] = x[0];
    return fault(p, F_GUARD_FAILS) && x[0] < 0.5 ? 42 : 0;
}

static int faulty_reset(double t, const double *x, const double *p, double *r, void *d)
{
    (void)t; (void)d;
    r[0] = x[0];
    r[1] = fault(p, F_RESET_NAN) ? NAN : -0.5 * x[1];
    return fault(p, F_RESET_FAILS) ? 7 : 0;
}

static const char *faulty_describe(int code, void *d)
{
    (void)d;
    return code == 7 ? "the floor broke" : code == 42 ? "the sensor broke" : NULL;
}

static const hes_mode faulty_modes[] = { { .name = "air", .dim = 2, .field = faulty_field } };
static const hes_transition faulty_transitions[] = {
    { "bounce", 0, 0, HES_DOWN, faulty_guard, faulty_reset, NULL, NULL, NULL, NULL, 0, NULL },
};
static const hes_param faulty_params[] = {
    { "g", G, "m/s^2", "gravity", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "fault", 0, "1", "which callback fails", 0, 0.0, 4.0, 0, 0 },
};
static const hes_model faulty_ball = {
    .abi = HES_MODEL_ABI, .name = "faulty-ball", .description = "a ball with a faulty callback",
    .n_modes = 1, .modes = faulty_modes, .n_transitions = 1, .transitions = faulty_transitions,
    .n_params = 2, .params = faulty_params, .integrator = HES_ADAMS, .max_phase_time = 100.0,
    .describe_error = faulty_describe,
};

static hes_status drop_faulty(hes_system *sys, int which, hes_traj *traj)
{
    ck_assert_int_eq(hes_system_set_param(sys, "fault", which), HES_OK);
    const double x0[2] = { 1.0, 0.0 };
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.t_end = 1.0;
    return hes_simulate(sys, 0, 0.0, 0.0, x0, &o, traj);
}

START_TEST(test_faulty_ball_without_a_fault_bounces_at_the_closed_form_time)
{
    /* control: with no fault the same drop bounces at sqrt(2/g) */
    hes_system *sys = create(&faulty_ball);
    hes_traj traj;
    ck_assert_int_eq(drop_faulty(sys, F_NONE, &traj), HES_OK);
    ck_assert_int_eq(traj.n_events, 2);
    ck_assert_double_eq_tol(traj.events[0].t, sqrt(2 / G), TOL);
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_failing_reset_is_a_model_failure_that_logs_no_event)
{
    hes_system *sys = create(&faulty_ball);
    hes_traj traj;
    ck_assert_int_eq(drop_faulty(sys, F_RESET_FAILS, &traj), HES_EMODEL);
    ck_assert_int_eq(traj.status, HES_EMODEL);
    const char *msg = hes_system_errmsg(sys);
    ck_assert_ptr_nonnull(strstr(msg, "bounce"));
    ck_assert_ptr_nonnull(strstr(msg, "the floor broke")); /* describe_error */
    /* the fall up to the floor is kept, the event without an image is not */
    ck_assert_int_eq(traj.n_events, 0);
    ck_assert_int_eq(traj.n_phases, 1);
    ck_assert_double_eq_tol(traj.phases[0].t1, sqrt(2 / G), TOL);
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_non_finite_reset_image_is_reported_as_non_finite)
{
    hes_system *sys = create(&faulty_ball);
    hes_traj traj;
    ck_assert_int_eq(drop_faulty(sys, F_RESET_NAN, &traj), HES_ENONFINITE);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "bounce"));
    ck_assert_int_eq(traj.n_events, 0);
    ck_assert_int_eq(traj.n_phases, 1);
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_failing_guard_is_a_model_failure)
{
    hes_system *sys = create(&faulty_ball);
    hes_traj traj;
    ck_assert_int_eq(drop_faulty(sys, F_GUARD_FAILS, &traj), HES_EMODEL);
    const char *msg = hes_system_errmsg(sys);
    ck_assert_ptr_nonnull(strstr(msg, "guard"));
    ck_assert_ptr_nonnull(strstr(msg, "the sensor broke"));
    ck_assert_int_eq(traj.n_events, 0);
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_non_finite_vector_field_is_reported_as_non_finite)
{
    hes_system *sys = create(&faulty_ball);
    hes_traj traj;
    hes_status st = drop_faulty(sys, F_FIELD_NAN, &traj);
    ck_assert_msg(st == HES_ENONFINITE, "status %s: %s", hes_strerror(st), hes_system_errmsg(sys));
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "air"));
    ck_assert_int_eq(traj.n_events, 0);
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

/* ------------------------------------------- trials of a forced switch */

/* A forced first-order system that switches with the clock: y' = -y +
 * sin(2 pi t / T) + u, u = +1 in mode "up" and -1 in mode "down", "up"
 * giving way to "down" where the sine falls through 0 (t = T/2 mod T) and
 * back where it rises (t = 0 mod T), T = 1 (the parameter "period").  Its orbit is non-autonomous, of period 1,
 * its section the return to "up" at t = 1, exactly where the stroboscopic
 * map t0 + k T samples; a perturbation dy decays as dy e^(-t) in either
 * mode. */
static int forced_field(double t, const double *x, const double *p, double *f, void *d)
{
    f[0] = -x[0] + sin(2 * M_PI * t / p[0]) + *(const double *)d;
    return 0;
}

static int clock_guard(double t, const double *x, const double *p, double *g, void *d)
{
    (void)x, (void)d;
    g[0] = sin(2 * M_PI * t / p[0]);
    return 0;
}

static int same(double t, const double *x, const double *p, double *r, void *d)
{
    (void)t, (void)p, (void)d;
    r[0] = x[0];
    return 0;
}

static int forced_guess(double *p, double *x0, void *d)
{
    (void)p, (void)d;
    x0[0] = 0.3;
    return 0;
}

static const double plus_one = 1, minus_one = -1;
static const char *const y_name[] = { "y" };
static const hes_mode forced_modes[] = {
    { .name = "up", .dim = 1, .state_names = y_name, .field = forced_field,
      .data = (void *)&plus_one },
    { .name = "down", .dim = 1, .state_names = y_name, .field = forced_field,
      .data = (void *)&minus_one },
};
static const hes_transition forced_transitions[] = {
    { .name = "fall", .from = 0, .to = 1, .direction = HES_DOWN, .guard = clock_guard,
      .reset = same },
    { .name = "rise", .from = 1, .to = 0, .direction = HES_UP, .guard = clock_guard,
      .reset = same },
};
static const int forced_sequence[] = { 0, 1 }, forced_free[] = { 0 };
static const hes_param forced_params[] = {
    { .name = "period", .value = 1.0, .min = 0.1, .max = 10.0 },
};
static const hes_model forced_switch = {
    .abi = HES_MODEL_ABI, .name = "forced-switch",
    .description = "a forced first-order system switched by the clock",
    .n_modes = 2, .modes = forced_modes, .n_transitions = 2, .transitions = forced_transitions,
    .n_params = 1, .params = forced_params,
    .orbit = { .mode = 0, .section = 1, .n_sequence = 2, .sequence = forced_sequence,
               .period_param = "period",
               .n_free_states = 1, .free_states = forced_free, .n_residual = 1,
               .residual = forced_free, .guess = forced_guess },
    .integrator = HES_ADAMS, .max_phase_time = 10.0,
};

/* Trials of an orbit through several modes whose section falls on t0 + k T
 * are sampled half its first phase later (tau = 1/4), against the orbit's
 * own state there: from the orbit itself every period returns (at t0 + k T
 * the run may end on either side of the section event, in either mode),
 * and a start moved by dy is off by |dy| e^(-(k + tau)) after period k. */
START_TEST(test_trials_of_a_forced_switch_follow_the_closed_form)
{
    hes_system *sys = create(&forced_switch);
    hes_analysis a;
    ck_assert_msg(hes_analyze(sys, 0, &a) == HES_OK, "%s", hes_system_errmsg(sys));
    ck_assert(!a.orbit.autonomous);
    ck_assert_msg(fabs(a.stab.psi - exp(-1)) < 1e-8, "psi %.12g", a.stab.psi);
    hes_trials t;
    ck_assert_msg(hes_trials_run(sys, &a.orbit, 1, 0, 4, 1, 1e-6, &t) == HES_OK, "%s",
                  hes_system_errmsg(sys));
    ck_assert_msg(t.trials[0].failure == HES_OK && t.converged == 1, "from the orbit: %s",
                  t.trials[0].failure_msg);
    hes_trials_free(&t);
    ck_assert(hes_trials_run(sys, &a.orbit, 5, 0.2, 4, 3, 1e-6, &t) == HES_OK);
    double worst = 0;
    for (int i = 0; i < t.n_trials; i++) {
        const hes_trial *tr = &t.trials[i];
        ck_assert_msg(tr->failure == HES_OK && tr->steps_completed == 4, "%s",
                      tr->failure_msg);
        double dy = fabs(tr->x0[0] - a.orbit.x0[0]);
        for (int k = 0; k < 4; k++)
            worst = fmax(worst, fabs(tr->error[k] - dy * exp(-(k + 1.25))));
    }
    ck_assert_msg(worst < 1e-8, "errors against |dy| e^-(k + 1/4): %g", worst);
    hes_trials_free(&t);
    hes_analysis_free(&a);
    hes_system_destroy(sys);
}
END_TEST

static Suite *simulate_suite(void)
{
    Suite *s = suite_create("simulate");
    TCase *ball = tcase_create("closed forms");
    tcase_set_timeout(ball, 60);
    tcase_add_test(ball, test_bounces_follow_the_closed_form_times_and_speeds);
    tcase_add_test(ball, test_simulation_stops_exactly_at_t_end_in_the_closed_form_state);
    tcase_add_test(ball, test_event_times_are_offset_by_the_start_times);
    tcase_add_test(ball, test_elastic_bounces_conserve_energy_and_keep_their_period);
    tcase_add_test(ball, test_sensitivities_of_each_flight_are_the_closed_form_shear);
    suite_add_tcase(s, ball);
    TCase *arm = tcase_create("arming");
    tcase_add_test(arm, test_sequence_only_arms_the_sequence_in_order);
    tcase_add_test(arm, test_after_transition_ignores_only_the_root_at_the_start);
    suite_add_tcase(s, arm);
    TCase *fail = tcase_create("failing callbacks");
    tcase_add_test(fail, test_faulty_ball_without_a_fault_bounces_at_the_closed_form_time);
    tcase_add_test(fail, test_failing_reset_is_a_model_failure_that_logs_no_event);
    tcase_add_test(fail, test_non_finite_reset_image_is_reported_as_non_finite);
    tcase_add_test(fail, test_failing_guard_is_a_model_failure);
    tcase_add_test(fail, test_non_finite_vector_field_is_reported_as_non_finite);
    suite_add_tcase(s, fail);
    TCase *trials = tcase_create("trials");
    tcase_set_timeout(trials, 60);
    tcase_add_test(trials, test_trials_of_a_forced_switch_follow_the_closed_form);
    suite_add_tcase(s, trials);
    return s;
}

int main(void)
{
    return test_run_suite(simulate_suite());
}
