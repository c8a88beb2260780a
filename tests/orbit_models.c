/*
 * orbit_models.c - test-only models with a periodic orbit (testmodels.h),
 * each written the way a user writes a plugin, each exercising one way an
 * orbit analysis can go wrong.
 *
 * The simplest walking model (Garcia, Chatterjee, Ruina, Coleman, "The
 * simplest walking model: stability, complexity, and scaling", J. Biomech.
 * Eng. 120, 1998, eqs. 3-4, the limit of a point-mass hip and infinitesimal
 * feet): mode "walk", state [theta, phi, theta', phi'] (stance-leg angle from
 * the slope normal, angle between the legs, rad and rad/s), slope gamma:
 *     theta'' = sin(theta - gamma)
 *     phi''   = sin(theta - gamma) + (theta'^2 - cos(theta - gamma)) sin(phi)
 * "heelstrike": guard phi - 2 theta crossed upward (the swing foot reaches
 * the slope behind the stance foot; the downward crossing near theta = 0 is
 * the foot scuffing, which the model ignores); plastic impact and leg swap
 *     theta+ = -theta,  phi+ = -2 theta,  theta'+ = c theta',
 *     phi'+ = c (1 - c) theta',  c = cos(2 theta),
 * a reset whose Jacobian has rank 2: the post-impact state does not depend on
 * phi and phi'.  "midstance": guard theta crossed downward, identity reset
 * (a section in mid-step).  At gamma = 0.009 the long-period gait is stable
 * (paper Fig. 4); just after heelstrike theta = 0.2003109, theta' = -0.1998325.
 * test_walker_heelstrike takes its section just after heelstrike (the
 * standard section of walking papers), test_walker_midstance at midstance:
 * the two must have the same multipliers.
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

/* ---------------------------------------------------------------- walker */

enum { W_GAMMA, W_NPARAMS };
enum { W_HEEL, W_MID };

static int walk_field(double t, const double *x, const double *p, double *f, void *d)
{
    (void)t; (void)d;
    double s = sin(x[0] - p[W_GAMMA]), c = cos(x[0] - p[W_GAMMA]);
    f[0] = x[2];
    f[1] = x[3];
    f[2] = s;
    f[3] = s + (x[2] * x[2] - c) * sin(x[1]);
    return 0;
}

static int walk_field_dx(double t, const double *x, const double *p, double *J, void *d)
{
    (void)t; (void)d;
    double s = sin(x[0] - p[W_GAMMA]), c = cos(x[0] - p[W_GAMMA]);
    for (int i = 0; i < 16; i++)
        J[i] = 0.0;
    J[0 + 4 * 2] = 1.0;
    J[1 + 4 * 3] = 1.0;
    J[2 + 4 * 0] = c;
    J[3 + 4 * 0] = c + s * sin(x[1]);
    J[3 + 4 * 1] = (x[2] * x[2] - c) * cos(x[1]);
    J[3 + 4 * 2] = 2.0 * x[2] * sin(x[1]);
    return 0;
}

static int heel_guard(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)p; (void)d;
    g[0] = x[1] - 2.0 * x[0];
    return 0;
}

static int heel_guard_dx(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    g[0] = -2.0; g[1] = 1.0; g[2] = 0.0; g[3] = 0.0;
    return 0;
}

static int zero_dt(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    g[0] = 0.0;
    return 0;
}

static int heel_reset(double t, const double *x, const double *p, double *r, void *d)
{
    (void)t; (void)p; (void)d;
    double c = cos(2.0 * x[0]);
    r[0] = -x[0];
    r[1] = -2.0 * x[0];
    r[2] = c * x[2];
    r[3] = c * (1.0 - c) * x[2];
    return 0;
}

static int heel_reset_dx(double t, const double *x, const double *p, double *R, void *d)
{
    (void)t; (void)p; (void)d;
    double c = cos(2.0 * x[0]), dc = -2.0 * sin(2.0 * x[0]);
    for (int i = 0; i < 16; i++)
        R[i] = 0.0;
    R[0] = -1.0;
    R[1] = -2.0;
    R[2] = dc * x[2];
    R[3] = (1.0 - 2.0 * c) * dc * x[2];
    R[2 + 4 * 2] = c;
    R[3 + 4 * 2] = c * (1.0 - c);
    return 0;
}

static int zero_reset_dt(double t, const double *x, const double *p, double *r, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    for (int i = 0; i < 4; i++)
        r[i] = 0.0;
    return 0;
}

static int mid_guard(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)p; (void)d;
    g[0] = x[0];
    return 0;
}

static int mid_guard_dx(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    g[0] = 1.0; g[1] = 0.0; g[2] = 0.0; g[3] = 0.0;
    return 0;
}

static int heel_guess(double *p, double *x0, void *d)
{
    (void)p; (void)d;
    x0[0] = 0.2003;
    x0[1] = 2.0 * x0[0];
    x0[2] = -0.1998;
    x0[3] = (1.0 - cos(2.0 * x0[0])) * x0[2];
    return 0;
}

/* the gait at midstance, to about 1e-3 (from a simulation of the gait above) */
static int mid_guess(double *p, double *x0, void *d)
{
    (void)p; (void)d;
    x0[0] = 0.0;
    x0[1] = -0.0532;
    x0[2] = -0.0594;
    x0[3] = -0.3398;
    return 0;
}

static const char *const walk_states[] = { "theta", "phi", "thetadot", "phidot" };
static const hes_mode walk_modes[] = {
    { "walk", 4, walk_states, walk_field, walk_field_dx, NULL },
};
static const hes_transition walk_transitions[] = {
    [W_HEEL] = { "heelstrike", 0, 0, HES_UP, heel_guard, heel_reset, heel_guard_dx, zero_dt,
                 heel_reset_dx, zero_reset_dt, 0, NULL },
    [W_MID] = { "midstance", 0, 0, HES_DOWN, mid_guard, NULL, mid_guard_dx, zero_dt,
                NULL, NULL, 0, NULL },
};
static const hes_param walk_params[] = {
    { "gamma", 0.009, "rad", "slope", 0, 0.0, 0.1, 0, 0 },
};
static const int heel_sequence[] = { W_MID, W_HEEL };
static const int heel_free[] = { 0, 1, 2, 3 };
static const int mid_sequence[] = { W_HEEL, W_MID };
static const int mid_free[] = { 1, 2, 3 };

const hes_model test_walker_heelstrike = {
    .abi = HES_MODEL_ABI,
    .name = "walker-heelstrike",
    .description = "simplest walking model, section just after heelstrike",
    .n_modes = 1, .modes = walk_modes,
    .n_transitions = 2, .transitions = walk_transitions,
    .n_params = W_NPARAMS, .params = walk_params,
    .orbit = { .mode = 0, .section = W_HEEL, .n_sequence = 2, .sequence = heel_sequence,
               .n_free_states = 4, .free_states = heel_free,
               .n_residual = 4, .residual = heel_free, .guess = heel_guess },
    .integrator = HES_ADAMS,
};

const hes_model test_walker_midstance = {
    .abi = HES_MODEL_ABI,
    .name = "walker-midstance",
    .description = "simplest walking model, section at midstance",
    .n_modes = 1, .modes = walk_modes,
    .n_transitions = 2, .transitions = walk_transitions,
    .n_params = W_NPARAMS, .params = walk_params,
    .orbit = { .mode = 0, .section = W_MID, .n_sequence = 2, .sequence = mid_sequence,
               .n_free_states = 3, .free_states = mid_free,
               .n_residual = 3, .residual = mid_free, .guess = mid_guess },
    .integrator = HES_ADAMS,
};

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

static const hes_mode ball_modes[] = { { "air", 2, NULL, ball_field, NULL, NULL } };
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

static const hes_mode counter_modes[] = { { "count", 2, NULL, counter_field, NULL, NULL } };
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
