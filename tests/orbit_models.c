/*
 * orbit_models.c - test-only models with a periodic orbit (testmodels.h),
 * each written the way a user writes a plugin, each exercising one way an
 * orbit analysis can go wrong.
 *
 * test_zeno_ball: a ball bouncing on a floor with restitution e, state
 * [y, v]; "bounce" (guard y crossed downward, reset [y, -e v]) and "apex"
 * (guard v crossed downward, identity; the section).  The apex height is the
 * unknown: for e < 1 the only "orbit" is the Zeno rest point y = 0 (every
 * apex is e^2 times the last), for e = 1 every height is an orbit (a neutral
 * family, psi = 1 exactly).
 *
 * test_drifting_counter: state [a, c], a' = 1, c' = 0; "tick" (guard a - 1
 * crossed upward) resets to [0, c / 2 + 1].  The orbit spec solves for a and
 * checks only a; c does not return (0 -> 1), so the trajectory from the
 * guess is not periodic although the residual vanishes.
 */
#include <math.h>
#include <stddef.h>

#include "testmodels.h"

/* ------------------------------------------------------------ Zeno ball */

enum { Z_E, Z_G, Z_NPARAMS };

static int ball_field(double t, const double *x, const double *p, double *f, void *d)
{
    (void)t; (void)d;
    f[0] = x[1];
    f[1] = -p[Z_G];
    return 0;
}

static int ball_floor(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)p; (void)d;
    g[0] = x[0];
    return 0;
}

static int ball_bounce(double t, const double *x, const double *p, double *r, void *d)
{
    (void)t; (void)d;
    r[0] = x[0];
    r[1] = -p[Z_E] * x[1];
    return 0;
}

static int ball_apex(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)p; (void)d;
    g[0] = x[1];
    return 0;
}

static int ball_guess(double *p, double *x0, void *d)
{
    (void)p; (void)d;
    x0[0] = 1.0;
    x0[1] = 0.0;
    return 0;
}

static const hes_mode ball_modes[] = { { .name = "air", .dim = 2, .field = ball_field } };
static const hes_transition ball_transitions[] = {
    { "bounce", 0, 0, HES_DOWN, ball_floor, ball_bounce, NULL, NULL, NULL, NULL, 0, NULL },
    { "apex", 0, 0, HES_DOWN, ball_apex, NULL, NULL, NULL, NULL, NULL, 0, NULL },
};
static const hes_param ball_params[] = {
    { "e", 0.7, "", "coefficient of restitution", 0, 0.0, 1.0, 0, 0 },
    { "g", 9.81, "m/s^2", "gravity", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
};
static const int ball_sequence[] = { 0, 1 };
static const int ball_free[] = { 0 };

const hes_model test_zeno_ball = {
    .abi = HES_MODEL_ABI,
    .name = "zeno-ball",
    .description = "bouncing ball with its apex height as the orbit's unknown",
    .n_modes = 1, .modes = ball_modes,
    .n_transitions = 2, .transitions = ball_transitions,
    .n_params = Z_NPARAMS, .params = ball_params,
    .orbit = { .mode = 0, .section = 1, .n_sequence = 2, .sequence = ball_sequence,
               .n_free_states = 1, .free_states = ball_free,
               .n_residual = 1, .residual = ball_free, .guess = ball_guess },
    .integrator = HES_ADAMS,
};

/* ------------------------------------------------------ drifting counter */

static int counter_field(double t, const double *x, const double *p, double *f, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    f[0] = 1.0;
    f[1] = 0.0;
    return 0;
}

static int counter_guard(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)p; (void)d;
    g[0] = x[0] - 1.0;
    return 0;
}

static int counter_reset(double t, const double *x, const double *p, double *r, void *d)
{
    (void)t; (void)p; (void)d;
    r[0] = 0.0;
    r[1] = 0.5 * x[1] + 1.0;
    return 0;
}

static int counter_guess(double *p, double *x0, void *d)
{
    (void)p; (void)d;
    x0[0] = 0.0;
    x0[1] = 0.0;
    return 0;
}

static const hes_mode counter_modes[] = { { .name = "count", .dim = 2, .field = counter_field } };
static const hes_transition counter_transitions[] = {
    { "tick", 0, 0, HES_UP, counter_guard, counter_reset, NULL, NULL, NULL, NULL, 0, NULL },
};
static const int counter_sequence[] = { 0 };
static const int counter_free[] = { 0 };

const hes_model test_drifting_counter = {
    .abi = HES_MODEL_ABI,
    .name = "drifting-counter",
    .description = "an orbit residual that misses a state the reset changes",
    .n_modes = 1, .modes = counter_modes,
    .n_transitions = 1, .transitions = counter_transitions,
    .n_params = 0, .params = NULL,
    .orbit = { .mode = 0, .section = 0, .n_sequence = 1, .sequence = counter_sequence,
               .n_free_states = 1, .free_states = counter_free,
               .n_residual = 1, .residual = counter_free, .guess = counter_guess },
    .integrator = HES_ADAMS,
};
