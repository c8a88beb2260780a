/*
 * trot_rigid.c - rigid-leg trotter: a planar rigid body with two massless
 * rigid legs that hops on elastic feet (decoupled-limbs paper, Fig. 1 left,
 * adapted from Remy et al. 2010).  A mechanical model (hes_mech): the library
 * derives the vector field, the touchdown guards and the impact resets.
 *
 * Configuration q = (y, theta): height of the centre of mass and pitch
 * (positive: the front end up).  M = diag(m, J), applied force (-m g, 0).
 * The legs are at +d (front) and -d (rear) along the body, length l,
 * pointing straight down.  Constraints (unilateral, restitution e = 1):
 *     "front foot":  a_f(q) = y + d sin(theta) - l,  Da_f = (1,  d cos theta)
 *     "rear foot":   a_r(q) = y - d sin(theta) - l,  Da_r = (1, -d cos theta)
 * Mode "flight" (identity chart), state [y, theta, vy, omega]:
 *     y'' = -g, theta'' = 0.
 * Transitions "front" and "rear", flight -> flight: a_f (a_r) crosses zero
 * downward; elastic impact of that foot (paper eq. 3-4, gamma = 1):
 *     q'+ = q'- - 2 M^-1 Da^T (Da M^-1 Da^T)^-1 Da q'-.
 * The restitution is a constant of the constraint table (hes_mech_constraint
 * has no parameter for it), so it is not a parameter here.
 *
 * The legs are inertially coupled through the body: paper eq. 6 fails,
 *     Da_f M^-1 Da_r^T = 1/m - d^2 cos^2(theta) / J  (= -0.25 at the defaults),
 * so an impulse at one foot changes the velocity of the other.
 *
 * Expected behaviour (`hes simulate trot-rigid --sweep theta=-0.01:0.01:5
 * --x0 0.6,0,0,0 --time 0.4`): dropped level from rest at y0 = 0.6 m, both
 * feet land at t = sqrt(2 (y0 - l) / g) = 0.247 s with speed v = 2.43 m/s.
 * With theta0 < 0 the front foot lands first: its impact (e = 1) sends the
 * front foot up at v but speeds the rear foot down to v (1 + 2 |c| / A) with
 * c = -0.25, A = Da M^-1 Da^T = 2.25, so the rear foot lands immediately
 * after and the body leaves the ground pitching nose down: with
 * s = 2 |c| / A = 2/9, omega = -v s (2 + s) / (2 d) = -1.198 rad/s in the
 * limit theta0 -> 0- (-1.230 and -1.261 rad/s at theta0 = -0.005 and
 * -0.01), however small theta0 is; theta0 > 0 mirrors this (+1.198 rad/s).
 * Trajectory outcomes jump with the sign of theta0.  At
 * theta0 = 0 both guards fire at the same instant and the simulator takes
 * the lower transition index first ("front", then "rear"): the outcome of
 * theta0 -> 0-, not the zero pitch rate of a simultaneous two-foot impact.
 * Representative initial state (body at rest, level, falling):
 *     --x0 0.6,0,0,0   (mode flight)
 * No periodic orbit is declared (simulation only).
 */
#include <math.h>

#include "problems.h"

enum { P_M, P_J, P_D, P_L, P_G, P_N };
enum { C_FRONT, C_REAR };

static int mass(const double *q, const double *p, double *M, void *data)
{
    (void)q; (void)data;
    M[0] = p[P_M]; M[1] = 0.0;
    M[2] = 0.0;    M[3] = p[P_J];
    return 0;
}

/* M is constant. */
static int mass_dq(const double *q, const double *p, double *dM, void *data)
{
    (void)q; (void)p; (void)data;
    for (int i = 0; i < 8; i++)
        dM[i] = 0.0;
    return 0;
}

static int gravity(const double *q, const double *qd, const double *u, const double *p,
                   double *f, void *data)
{
    (void)q; (void)qd; (void)u; (void)data;
    f[0] = -p[P_M] * p[P_G];
    f[1] = 0.0;
    return 0;
}

static int front_foot(const double *q, const double *p, double *a, void *data)
{
    (void)data;
    a[0] = q[0] + p[P_D] * sin(q[1]) - p[P_L];
    return 0;
}

static int front_foot_dq(const double *q, const double *p, double *Da, void *data)
{
    (void)data;
    Da[0] = 1.0;
    Da[1] = p[P_D] * cos(q[1]);
    return 0;
}

static int rear_foot(const double *q, const double *p, double *a, void *data)
{
    (void)data;
    a[0] = q[0] - p[P_D] * sin(q[1]) - p[P_L];
    return 0;
}

static int rear_foot_dq(const double *q, const double *p, double *Da, void *data)
{
    (void)data;
    Da[0] = 1.0;
    Da[1] = -p[P_D] * cos(q[1]);
    return 0;
}

static const hes_mech_constraint constraints[] = {
    { "front foot", front_foot, front_foot_dq, 1.0, 1, 0, NULL, NULL, NULL, 0, 0, NULL },
    { "rear foot", rear_foot, rear_foot_dq, 1.0, 1, 0, NULL, NULL, NULL, 0, 0, NULL },
};

static const hes_mech body = {
    .name = "rigid-leg trotter", .d = 2, .mass = mass, .mass_dq = mass_dq,
    .force = gravity, .m = 0, .n_constraints = 2, .constraints = constraints,
    .data = NULL,
};

static const hes_mech_mode flight = {
    .mech = &body, .n_active = 0, .active = NULL, .k = 2, .chart = NULL,
    .chart_dz = NULL, .chart_acc = NULL, .input = NULL,
};

static const int after_front[] = { C_FRONT }, after_rear[] = { C_REAR };

static const hes_mech_transition front_impact = {
    .from = &flight, .to = &flight, .kind = HES_MECH_ACTIVATE, .constraint = C_FRONT,
    .mech = NULL, .lift = NULL, .lift_dz = NULL, .n_after = 1, .after = after_front,
    .n_separate = 0, .separate = NULL, .to_chart = NULL, .to_chart_dq = NULL,
};

static const hes_mech_transition rear_impact = {
    .from = &flight, .to = &flight, .kind = HES_MECH_ACTIVATE, .constraint = C_REAR,
    .mech = NULL, .lift = NULL, .lift_dz = NULL, .n_after = 1, .after = after_rear,
    .n_separate = 0, .separate = NULL, .to_chart = NULL, .to_chart_dq = NULL,
};

static const char *const flight_names[] = { "y", "theta", "vy", "omega" };

static const hes_mode modes[] = {
    { .name = "flight", .dim = 4, .state_names = flight_names,
      .field = hes_mech_field, .field_dx = hes_mech_field_dx, .data = (void *)&flight },
};

static const hes_transition transitions[] = {
    { "front", 0, 0, HES_DOWN, hes_mech_guard, hes_mech_reset, NULL, NULL, NULL, NULL,
      0, (void *)&front_impact },
    { "rear", 0, 0, HES_DOWN, hes_mech_guard, hes_mech_reset, NULL, NULL, NULL, NULL,
      0, (void *)&rear_impact },
};

static const hes_param params[P_N] = {
    { "m", 1.0, "kg", "body mass", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "J", 0.2, "kg m^2", "pitch moment of inertia about the centre of mass",
      HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "d", 0.5, "m", "distance of each hip from the centre of mass along the body",
      HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "l", 0.3, "m", "leg length", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "g", 9.81, "m/s^2", "gravitational acceleration", HES_PARAM_POSITIVE, 0.0, HUGE_VAL,
      0, 0 },
};

const hes_model hes__problem_trot_rigid = {
    .abi = HES_MODEL_ABI,
    .name = "trot-rigid",
    .description = "rigid-leg trotter, legs coupled through the body (decoupled-limbs paper Fig. 1 left)",
    .n_modes = 1,
    .modes = modes,
    .n_transitions = 2,
    .transitions = transitions,
    .n_params = P_N,
    .params = params,
    .orbit = {
        .mode = 0,
        .section = 0,
        .n_sequence = 0,
        .sequence = NULL,
        .period_param = NULL,
        .n_free_states = 0,
        .free_states = NULL,
        .n_free_params = 0,
        .free_params = NULL,
        .n_residual = 0,
        .residual = NULL,
        .guess = NULL,
    },
    .integrator = HES_ADAMS,
    .max_phase_time = 100.0,
    .validate = NULL,
    .data = NULL,
    .describe_error = hes_mech_describe_error,
};
