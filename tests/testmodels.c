/*
 * testmodels.c - the test-only models of testmodels.h: a ball bouncing on a
 * fixed floor.
 *
 * Mode "air", state x = [y, v] (height, m; velocity, m/s):
 *   y' = v,  v' = -g.
 * Transition "bounce" air -> air: guard g = y, crossed downward (or upward in
 *   test_bouncing_ball_up); reset [y, -alpha v].
 * Parameters: alpha (coefficient of restitution, [0, 1]), g (m/s^2, > 0).
 *
 * Dropped from rest at height h, the ball hits the floor at t_1 = sqrt(2h/g)
 * with speed sqrt(2 g h); after bounce k it flies for 2 alpha^k sqrt(2h/g),
 * so the events accumulate at t = t_1 (1 + alpha) / (1 - alpha): a Zeno
 * execution.  The variants with a wrong Jacobian differ from the good ball
 * in that one callback only.
 */
#include <math.h>
#include <stddef.h>

#include "testmodels.h"

enum { P_ALPHA = TEST_BALL_ALPHA, P_G = TEST_BALL_G };

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
    J[0] = 0.0; J[1] = 0.0;   /* column y */
    J[2] = 1.0; J[3] = 0.0;   /* column v */
    return 0;
}

/* Wrong on purpose: dy'/dv = 2. */
static int bad_field_dx(double t, const double *x, const double *p, double *J, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    J[0] = 0.0; J[1] = 0.0;
    J[2] = 2.0; J[3] = 0.0;
    return 0;
}

static int guard(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)p; (void)d;
    g[0] = x[0];
    return 0;
}

static int guard_dx(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    g[0] = 1.0;
    g[1] = 0.0;
    return 0;
}

static int guard_dt(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    g[0] = 0.0;
    return 0;
}

static int reset(double t, const double *x, const double *p, double *r, void *d)
{
    (void)t; (void)d;
    r[0] = x[0];
    r[1] = -p[P_ALPHA] * x[1];
    return 0;
}

static int reset_dx(double t, const double *x, const double *p, double *R, void *d)
{
    (void)t; (void)x; (void)d;
    R[0] = 1.0; R[1] = 0.0;
    R[2] = 0.0; R[3] = -p[P_ALPHA];
    return 0;
}

/* Wrong on purpose: the sign of dv+/dv-. */
static int bad_reset_dx(double t, const double *x, const double *p, double *R, void *d)
{
    (void)t; (void)x; (void)d;
    R[0] = 1.0; R[1] = 0.0;
    R[2] = 0.0; R[3] = p[P_ALPHA];
    return 0;
}

static int reset_dt(double t, const double *x, const double *p, double *r, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    r[0] = 0.0;
    r[1] = 0.0;
    return 0;
}

static const char *const state_names[] = { "y", "v" };

static const hes_mode modes[] = {
    { .name = "air", .dim = 2, .state_names = state_names, .field = field, .field_dx = field_dx },
};

static const hes_mode bad_field_modes[] = {
    { .name = "air", .dim = 2, .state_names = state_names,
      .field = field, .field_dx = bad_field_dx },
};

static const hes_transition down[] = {
    { "bounce", 0, 0, HES_DOWN, guard, reset, guard_dx, guard_dt, reset_dx, reset_dt, 0, NULL },
};

static const hes_transition up[] = {
    { "bounce", 0, 0, HES_UP, guard, reset, guard_dx, guard_dt, reset_dx, reset_dt, 0, NULL },
};

static const hes_transition bad_reset[] = {
    { "bounce", 0, 0, HES_DOWN, guard, reset, guard_dx, guard_dt, bad_reset_dx, reset_dt, 0, NULL },
};

static const hes_param params[TEST_BALL_NPARAMS] = {
    { "alpha", 0.5, "1", "coefficient of restitution", 0, 0.0, 1.0, 0, 0 },
    { "g", 9.81, "m/s^2", "gravitational acceleration", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
};

#define BALL(NAME, DESC, MODES, TRANSITIONS)                                   \
    {                                                                          \
        .abi = HES_MODEL_ABI,                                                  \
        .name = NAME,                                                          \
        .description = DESC,                                                   \
        .n_modes = 1,                                                          \
        .modes = MODES,                                                        \
        .n_transitions = 1,                                                    \
        .transitions = TRANSITIONS,                                            \
        .n_params = TEST_BALL_NPARAMS,                                         \
        .params = params,                                                      \
        .orbit = { .guess = NULL },                                            \
        .integrator = HES_ADAMS,                                               \
        .max_phase_time = 100.0,                                               \
        .validate = NULL,                                                      \
        .data = NULL,                                                          \
    }

const hes_model test_bouncing_ball =
    BALL("test-bouncing-ball", "ball bouncing on a fixed floor (test model)", modes, down);

const hes_model test_bouncing_ball_up =
    BALL("test-bouncing-ball-up", "ball whose floor only catches it from below (test model)",
         modes, up);

const hes_model test_bouncing_ball_bad_field_dx =
    BALL("test-bouncing-ball-bad-field-dx", "bouncing ball with a wrong dF/dx (test model)",
         bad_field_modes, down);

const hes_model test_bouncing_ball_bad_reset_dx =
    BALL("test-bouncing-ball-bad-reset-dx", "bouncing ball with a wrong DxR (test model)",
         modes, bad_reset);
