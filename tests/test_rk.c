/*
 * test_rk.c - the explicit integrators HES_RK8 (lib/ode/rk78.c) and
 * HES_DOPRI5 (lib/ode/step_dopri5.c) through hes_simulate and
 * hes_variational, against closed forms, and against CVODES (HES_ADAMS) on
 * the SLIP hopper.
 *
 * Independent computations:
 *  - the oscillator x' = v, v' = -w^2 x from (1, 0): x = cos wt, its first
 *    crossing of x = 0 downwards at t = pi / (2 w) with v = -w, and the
 *    variational matrix [[cos wt, sin(wt)/w], [-w sin wt, cos wt]];
 *  - the blow-up equation x' = x^2 from x0: x = x0 / (1 - x0 t), crossing
 *    x = 2 upwards at t = 1/x0 - 1/2, with dx/dx0 = 1 / (1 - x0 t)^2; past
 *    t = 1/x0 the solution does not exist, and that must be reported;
 *  - the same SLIP orbit and multipliers computed by CVODES's Adams method
 *    and by DOPRI5.
 * Each test runs the same model under rk8, adams and dopri5, so that a
 * wrong closed form cannot pass with one integrator only.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

enum { P_W };

static int osc_field(double t, const double *x, const double *p, double *f, void *d)
{
    (void)t; (void)d;
    f[0] = x[1];
    f[1] = -p[P_W] * p[P_W] * x[0];
    return 0;
}

static int osc_field_dx(double t, const double *x, const double *p, double *J, void *d)
{
    (void)t; (void)x; (void)d;
    J[0] = 0;
    J[1] = -p[P_W] * p[P_W];
    J[2] = 1;
    J[3] = 0;
    return 0;
}

static int cross_zero(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)p; (void)d;
    g[0] = x[0];
    return 0;
}

static const hes_mode osc_modes[] = { { .name = "swing", .dim = 2,
                                        .field = osc_field, .field_dx = osc_field_dx } };
static const hes_transition osc_transitions[] = {
    { "down", 0, 0, HES_DOWN, cross_zero, NULL, NULL, NULL, NULL, NULL, 0, NULL },
};
static const hes_param osc_params[] = {
    { "w", 3.0, "1/s", "angular frequency", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
};

static int blow_field(double t, const double *x, const double *p, double *f, void *d)
{
    (void)t; (void)p; (void)d;
    f[0] = x[0] * x[0];
    return 0;
}

static int cross_two(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)p; (void)d;
    g[0] = x[0] - 2;
    return 0;
}

/* no Jacobian: the variational equations use central differences of F */
static const hes_mode blow_modes[] = { { .name = "grow", .dim = 1, .field = blow_field } };
static const hes_transition blow_transitions[] = {
    { "two", 0, 0, HES_UP, cross_two, NULL, NULL, NULL, NULL, NULL, 0, NULL },
};

static hes_model model_with(const hes_model *base, hes_integrator integrator)
{
    hes_model m = *base;
    m.integrator = integrator;
    return m;
}

static const hes_model oscillator = {
    .abi = HES_MODEL_ABI, .name = "oscillator", .description = "harmonic oscillator",
    .n_modes = 1, .modes = osc_modes, .n_transitions = 1, .transitions = osc_transitions,
    .n_params = 1, .params = osc_params, .max_phase_time = 100.0,
};

static const hes_model blowup = {
    .abi = HES_MODEL_ABI, .name = "blowup", .description = "x' = x^2",
    .n_modes = 1, .modes = blow_modes, .n_transitions = 1, .transitions = blow_transitions,
    .max_phase_time = 100.0,
};

static const hes_integrator integrators[] = { HES_RK8, HES_ADAMS, HES_DOPRI5 };

/* The first downward crossing, its state and the phase's variational
 * matrix against the closed form, for each integrator (loop index _i). */
START_TEST(test_oscillator_event_state_and_variational_matrix_are_the_closed_form)
{
    hes_model m = model_with(&oscillator, integrators[_i]);
    hes_system *sys = test_system_of(&m);
    ck_assert_ptr_nonnull(sys);
    const double w = 3.0, x0[2] = { 1.0, 0.0 }, tc = M_PI / (2 * w);
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.section = 0;
    o.n_section = 1;
    o.sensitivities = 1;
    hes_traj tr;
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, &o, &tr), HES_OK);
    ck_assert_int_eq(tr.n_events, 1);
    /* rtol = atol = 1e-12 over one quarter period */
    ck_assert_double_eq_tol(tr.events[0].t, tc, 1e-11);
    ck_assert_double_eq_tol(tr.events[0].x_minus[0], 0.0, 1e-11);
    ck_assert_double_eq_tol(tr.events[0].x_minus[1], -w, 1e-10);
    const double *A = tr.phases[0].A, t = tr.events[0].t;
    const double want[4] = { cos(w * t), -w * sin(w * t), sin(w * t) / w, cos(w * t) };
    for (int i = 0; i < 4; i++)
        ck_assert_msg(fabs(A[i] - want[i]) < 1e-10, "%s: A[%d] = %.15g, closed form %.15g",
                      hes_integrator_name(integrators[_i]), i, A[i], want[i]);
    hes_traj_free(&tr);

    /* ten periods to t_end: the state and its energy w^2 x^2 + v^2 = w^2 */
    hes_sim_options_init(&o);
    o.t_end = 20 * M_PI / w + 0.3;
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, &o, &tr), HES_OK);
    ck_assert_int_eq(tr.n_events, 10);
    for (int k = 0; k < 10; k++)
        ck_assert_double_eq_tol(tr.events[k].t, tc + 2 * M_PI * k / w, 1e-9);
    const double *x1 = tr.phases[tr.n_phases - 1].x1;
    ck_assert_double_eq_tol(x1[0], cos(w * o.t_end), 1e-9);
    ck_assert_double_eq_tol(x1[1], -w * sin(w * o.t_end), 1e-9);
    hes_traj_free(&tr);
    hes_system_destroy(sys);
}
END_TEST

/* hes_variational forwards and backwards in time (the saltation checks
 * integrate backwards from an event). */
START_TEST(test_oscillator_variational_matrix_backwards_in_time)
{
    hes_model m = model_with(&oscillator, integrators[_i]);
    hes_system *sys = test_system_of(&m);
    const double w = 3.0, x0[2] = { 0.2, -0.7 };
    for (int s = -1; s <= 1; s += 2) {
        double d = 0.83 * s, x1[2], A[4];
        ck_assert_int_eq(hes_variational(sys, 0, 1.0, d, x0, x1, A), HES_OK);
        double c = cos(w * d), sn = sin(w * d);
        ck_assert_double_eq_tol(x1[0], c * x0[0] + sn / w * x0[1], 1e-11);
        ck_assert_double_eq_tol(x1[1], -w * sn * x0[0] + c * x0[1], 1e-10);
        const double want[4] = { c, -w * sn, sn / w, c };
        for (int i = 0; i < 4; i++)
            ck_assert_double_eq_tol(A[i], want[i], 1e-10);
    }
    hes_system_destroy(sys);
}
END_TEST

/* x' = x^2: a nonlinear closed form, its crossing, and dx/dx0 by the
 * variational equations from central differences of F (no field_dx). */
START_TEST(test_blowup_crossing_and_sensitivity_are_the_closed_form)
{
    hes_model m = model_with(&blowup, integrators[_i]);
    hes_system *sys = test_system_of(&m);
    ck_assert_ptr_nonnull(sys);
    const double x0 = 0.8, tc = 1 / x0 - 0.5;
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.section = 0;
    o.n_section = 1;
    o.sensitivities = 1;
    hes_traj tr;
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, &x0, &o, &tr), HES_OK);
    ck_assert_int_eq(tr.n_events, 1);
    /* the crossing time within rounding of the state's accuracy: x' = 4 */
    ck_assert_double_eq_tol(tr.events[0].t, tc, 1e-11);
    double q = 1 - x0 * tr.events[0].t;
    ck_assert_double_eq_tol(tr.events[0].x_minus[0], x0 / q, 1e-10);
    /* central differences of F carry their own error, ~1e-10 relative */
    ck_assert_double_eq_tol(tr.phases[0].A[0], 1 / (q * q), 1e-7);
    hes_traj_free(&tr);

    /* past t = 1/x0 the solution does not exist: a clear failure, no hang */
    double x1;
    hes_status st = hes_variational(sys, 0, 0.0, 2 / x0, &x0, &x1, NULL);
    ck_assert_msg(st == HES_ESOLVER || st == HES_ENONFINITE, "%s: %s",
                  hes_strerror(st), hes_system_errmsg(sys));
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "grow"));
    hes_system_destroy(sys);
}
END_TEST

static int stiff_field(double t, const double *x, const double *p, double *f, void *d)
{
    (void)p; (void)d;
    f[0] = -1e6 * (x[0] - cos(t));
    return 0;
}

static const hes_mode stiff_modes[] = { { .name = "relax", .dim = 1, .field = stiff_field } };

/* A stiff phase, y' = -L (y - cos t) with L = 1e6: BDF follows the closed
 * form y = (L^2 cos t + L sin t) / (L^2 + 1) + C e^(-L t); rk8, explicit,
 * runs out of steps, and the message says that the phase may be stiff. */
START_TEST(test_stiff_phase_is_refused_by_rk8_with_the_reason)
{
    hes_model m = { .abi = HES_MODEL_ABI, .name = "stiff", .description = "stiff relaxation",
                    .n_modes = 1, .modes = stiff_modes, .max_phase_time = 10.0 };
    const double L = 1e6, x0 = 1.0, T = 0.5;
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.t_end = T;
    hes_traj tr;
    m.integrator = HES_BDF;
    hes_system *sys = test_system_of(&m);
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, &x0, &o, &tr), HES_OK);
    double want = (L * L * cos(T) + L * sin(T)) / (L * L + 1);
    ck_assert_double_eq_tol(tr.phases[0].x1[0], want, 1e-10);
    hes_traj_free(&tr);
    hes_system_destroy(sys);
    m.integrator = HES_RK8;
    sys = test_system_of(&m);
    hes_settings set = hes_system_get_settings(sys);
    set.max_steps = 20000;
    ck_assert_int_eq(hes_system_set_settings(sys, &set), HES_OK);
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, &x0, &o, &tr), HES_ESOLVER);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "stiff"));
    hes_traj_free(&tr);
    hes_system_destroy(sys);
}
END_TEST

/* The SLIP hopper (rk8 by default) against the same model under CVODES
 * and under DOPRI5 (loop index _i): orbit, period and multipliers at two
 * shape settings. */
START_TEST(test_slip_orbit_and_multipliers_agree_with_cvodes)
{
    const hes_model *slip = hes_problem_find("slip-hopper");
    ck_assert_int_eq(slip->integrator, HES_RK8);
    hes_model adams = model_with(slip, _i ? HES_DOPRI5 : HES_ADAMS);
    const double shapes[2][2] = { { 0.0, 0.0 }, { 0.3, -1.5 } };
    for (int s = 0; s < 2; s++) {
        hes_analysis r[2];
        for (int k = 0; k < 2; k++) {
            hes_system *sys = test_system_of(k ? &adams : slip);
            ck_assert_int_eq(hes_system_set_param(sys, "K", shapes[s][0]), HES_OK);
            ck_assert_int_eq(hes_system_set_param(sys, "thetadot", shapes[s][1]), HES_OK);
            ck_assert_msg(hes_analyze(sys, 0, &r[k]) == HES_OK, "%s", hes_system_errmsg(sys));
            hes_system_destroy(sys);
        }
        ck_assert_int_eq(r[0].orbit.traj.n_events, r[1].orbit.traj.n_events);
        ck_assert_double_eq_tol(r[0].orbit.period, r[1].orbit.period, 1e-10);
        ck_assert_msg(fabs(r[0].stab.psi - r[1].stab.psi) < 1e-9, "psi %.15g (rk8) vs %.15g (%s)",
                      r[0].stab.psi, r[1].stab.psi, hes_integrator_name(adams.integrator));
        for (int i = 0; i < r[0].orbit.n; i++)
            ck_assert_double_eq_tol(r[0].orbit.x0[i], r[1].orbit.x0[i], 1e-10);
        hes_analysis_free(&r[0]);
        hes_analysis_free(&r[1]);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rk");
    TCase *tc = tcase_create("rk");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_oscillator_event_state_and_variational_matrix_are_the_closed_form,
                        0, 3);
    tcase_add_loop_test(tc, test_oscillator_variational_matrix_backwards_in_time, 0, 3);
    tcase_add_loop_test(tc, test_blowup_crossing_and_sensitivity_are_the_closed_form, 0, 3);
    tcase_add_loop_test(tc, test_slip_orbit_and_multipliers_agree_with_cvodes, 0, 2);
    tcase_add_test(tc, test_stiff_phase_is_refused_by_rk8_with_the_reason);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
