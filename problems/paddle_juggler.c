/*
 * paddle_juggler.c - a ball bounced by a sinusoidal paddle (paper Sec. IV-A,
 * after Sternad et al. 2001).
 *
 * Mode "flight", state x = [xB, vB] (ball height, m; velocity, m/s):
 *   xB' = vB,  vB' = -g.
 * Transition "impact" flight -> flight: guard g = xB - xP(t), crossed
 *   downward; reset vB+ = (1 + alpha) vP(t) - alpha vB-.
 * Transition "apex" flight -> flight: guard vB, crossed downward; identity
 *   reset.  The apex is the orbit's section.
 *
 * Period-1 orbit: the ball is at its apex xB = g T^2 / 8 at t = 0 and meets
 * the paddle at height 0 at t = T/2 with vB- = -g T / 2 and leaves with
 * +g T / 2, which needs the paddle velocity vP* = g T (1 - alpha) /
 * (2 (1 + alpha)).  The paddle xP(t) = c + a_p sin(w t + phi), w = 2 pi / T,
 * has at t = T/2 position 0, velocity vP* and acceleration paddle_accel: the
 * shape parameter changes the paddle but not the ball's orbit.  The forcing
 * is periodic in t, so the orbit is non-autonomous: the full monodromy
 * Phi = A Xi A (paper eq. 9) decides stability, which holds for
 *   -2 g (1 + alpha^2) / (1 + alpha)^2 < paddle_accel < 0   (paper eq. 10).
 *
 * Parameters: alpha (restitution), g (m/s^2), period T (s), paddle_accel
 * (m/s^2, shape; searched in [-20, 10] by default, where the period-1 orbit
 * exists for the default alpha, g and T).
 */
#include <math.h>
#include <stdio.h>

#include "problems.h"

enum { P_ALPHA, P_G, P_T, P_ACC };

/* Paddle position, velocity and acceleration at time t. */
static void paddle(double t, const double *p, double *xp, double *vp, double *ap)
{
    double alpha = p[P_ALPHA], g = p[P_G], T = p[P_T], acc = p[P_ACC];
    double w = 2.0 * M_PI / T;
    double vstar = g * T * (1.0 - alpha) / (2.0 * (1.0 + alpha));
    double s = -acc / (w * w), c = vstar / w;  /* amp sin(th), amp cos(th) at T/2 */
    double amp = hypot(s, c), th_i = atan2(s, c);
    double phase = w * t + th_i - w * T / 2.0;
    *xp = -s + amp * sin(phase);
    *vp = amp * w * cos(phase);
    *ap = -amp * w * w * sin(phase);
}

static int field(double t, const double *x, const double *p, double *f, void *d)
{
    (void)t; (void)d;
    f[0] = x[1];
    f[1] = -p[P_G];
    return 0;
}

static int field_dx(double t, const double *x, const double *p, double *J, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    J[0] = 0; J[1] = 0;   /* column xB */
    J[2] = 1; J[3] = 0;   /* column vB */
    return 0;
}

static int impact_guard(double t, const double *x, const double *p, double *g, void *d)
{
    double xp, vp, ap;
    (void)d;
    paddle(t, p, &xp, &vp, &ap);
    g[0] = x[0] - xp;
    return 0;
}

static int impact_guard_dx(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    g[0] = 1;
    g[1] = 0;
    return 0;
}

static int impact_guard_dt(double t, const double *x, const double *p, double *g, void *d)
{
    double xp, vp, ap;
    (void)x; (void)d;
    paddle(t, p, &xp, &vp, &ap);
    g[0] = -vp;
    return 0;
}

static int impact_reset(double t, const double *x, const double *p, double *r, void *d)
{
    double xp, vp, ap;
    (void)d;
    paddle(t, p, &xp, &vp, &ap);
    r[0] = x[0];
    r[1] = (1.0 + p[P_ALPHA]) * vp - p[P_ALPHA] * x[1];
    return 0;
}

static int impact_reset_dx(double t, const double *x, const double *p, double *R, void *d)
{
    (void)t; (void)x; (void)d;
    R[0] = 1; R[1] = 0;
    R[2] = 0; R[3] = -p[P_ALPHA];
    return 0;
}

static int impact_reset_dt(double t, const double *x, const double *p, double *r, void *d)
{
    double xp, vp, ap;
    (void)x; (void)d;
    paddle(t, p, &xp, &vp, &ap);
    r[0] = 0;
    r[1] = (1.0 + p[P_ALPHA]) * ap;
    return 0;
}

static int apex_guard(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)p; (void)d;
    g[0] = x[1];
    return 0;
}

static int apex_guard_dx(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    g[0] = 0;
    g[1] = 1;
    return 0;
}

static int zero_dt(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    g[0] = 0;
    return 0;
}

static int guess(double *p, double *x0, void *d)
{
    (void)d;
    x0[0] = p[P_G] * p[P_T] * p[P_T] / 8.0;
    x0[1] = 0.0;
    return 0;
}

static int validate(const double *p, char *msg, size_t len, void *d)
{
    (void)d;
    if (p[P_ALPHA] < 0 || p[P_ALPHA] > 1) {
        snprintf(msg, len, "alpha = %g must lie in [0, 1]", p[P_ALPHA]);
        return 1;
    }
    return 0;
}

static const char *const state_names[] = { "xB", "vB" };

static const hes_mode modes[] = {
    { .name = "flight", .dim = 2, .state_names = state_names,
      .field = field, .field_dx = field_dx },
};

enum { T_IMPACT, T_APEX };

static const hes_transition transitions[] = {
    { "impact", 0, 0, HES_DOWN, impact_guard, impact_reset, impact_guard_dx,
      impact_guard_dt, impact_reset_dx, impact_reset_dt, 0, NULL },
    { "apex", 0, 0, HES_DOWN, apex_guard, NULL, apex_guard_dx, zero_dt, NULL, NULL, 0, NULL },
};

static const hes_param params[] = {
    { "alpha", 0.5, "1", "coefficient of restitution of the ball on the paddle",
      0, 0.0, 1.0, 0, 0 },
    { "g", 9.81, "m/s^2", "gravitational acceleration", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "period", 0.5, "s", "period of the paddle and of the bounce (flight time)",
      HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "paddle_accel", -5.45, "m/s^2", "paddle acceleration at impact",
      HES_PARAM_SHAPE, -HUGE_VAL, HUGE_VAL, -20.0, 10.0 },
};

static const int sequence[] = { T_IMPACT, T_APEX };
static const int free_states[] = { 0, 1 };

const hes_model hes__problem_paddle_juggler = {
    .abi = HES_MODEL_ABI,
    .name = "paddle-juggler",
    .description = "ball bounced by a sinusoidal paddle (Sternad 2001; HES paper Sec. IV-A)",
    .n_modes = 1,
    .modes = modes,
    .n_transitions = 2,
    .transitions = transitions,
    .n_params = 4,
    .params = params,
    .orbit = {
        .mode = 0,
        .section = T_APEX,
        .n_sequence = 2,
        .sequence = sequence,
        .period_param = "period",
        .n_free_states = 2,
        .free_states = free_states,
        .n_free_params = 0,
        .free_params = NULL,
        .n_residual = 2,
        .residual = free_states,
        .guess = guess,
    },
    .integrator = HES_ADAMS,
    .max_phase_time = 100.0,
    .validate = validate,
    .data = NULL,
};
