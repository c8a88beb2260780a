/*
 * slip_hopper.c - spring-loaded inverted pendulum hopper with a damper and a
 * preloading actuator in the leg (paper Sec. IV-B).
 *
 * Modes:
 *   "descent" and "ascent" (flight), state [vx, y, vy]:
 *       vx' = 0, y' = vy, vy' = -g
 *   "stance", state [xs, vxs, ys, vys] (body relative to the toe):
 *       l = sqrt(xs^2 + ys^2), ldot = (xs vxs + ys vys) / l,
 *       F = k (l0 - l) - b ldot,
 *       xs'' = F xs / (m l),  ys'' = F ys / (m l) - g
 * Transitions:
 *   "touchdown" descent -> stance: guard y - l_td cos(theta), crossed
 *       downward, with the touchdown law
 *           theta = theta_td + K (vx - vx_nom) + thetadot (t - t_td_nom),
 *       t the time since the most recent apex, vx_nom = apex_speed and
 *       t_td_nom = sqrt(2 (apex_height - l_td cos theta_td) / g) the nominal
 *       orbit's apex-to-touchdown time; reset [-l_td sin theta, vx, y, vy].
 *   "liftoff" stance -> ascent: guard F, crossed downward; reset
 *       [vx, y, vy] = [vxs, ys, vys].
 *   "apex" ascent -> descent: guard vy, crossed downward; identity reset
 *       (which reports a fall when the apex is below the touchdown height);
 *       restarts the model clock.  The apex is the orbit's section.
 * The leg is massless: K and thetadot change the leg angle only away from
 * the nominal touchdown, so they are shape parameters.  The preload length
 * l_td and nominal angle theta_td are solved for so that the apex-to-apex
 * map has the fixed point (apex_speed, apex_height).  Flight is split into
 * ascent and descent so the touchdown law only acts after an apex.
 */
#include <math.h>
#include <stdio.h>

#include "problems.h"

enum { P_M, P_G, P_L0, P_K, P_B, P_H, P_V, P_KGAIN, P_THDOT, P_LTD, P_THTD, P_N };
enum { M_DESCENT, M_ASCENT, M_STANCE };
enum { T_TOUCHDOWN, T_LIFTOFF, T_APEX };
/* failure codes of the callbacks */
enum { E_GROUND = 1, E_LEG = 2, E_FALL = 3, E_SINK = 4 };

static const char *describe_error(int code, void *d)
{
    (void)d;
    switch (code) {
    case E_GROUND: return "the body reached the ground during stance";
    case E_LEG: return "zero leg length";
    case E_FALL: return "the apex is below the touchdown height: the hopper fell";
    case E_SINK: return "liftoff while moving down: no apex follows, the hopper fell";
    }
    return NULL;
}

/* ------------------------------------------------------------- flight */

static int flight(double t, const double *x, const double *p, double *f, void *d)
{
    (void)t; (void)d;
    f[0] = 0.0;
    f[1] = x[2];
    f[2] = -p[P_G];
    return 0;
}

static int flight_dx(double t, const double *x, const double *p, double *J, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    for (int i = 0; i < 9; i++)
        J[i] = 0.0;
    J[1 + 3 * 2] = 1.0; /* dy'/dvy */
    return 0;
}

/* ------------------------------------------------------------- stance */

typedef struct {
    double l, ldot, F;
    double dl[4], dldot[4], dF[4]; /* gradients w.r.t. [xs, vxs, ys, vys] */
} leg_state;

static int leg(const double *x, const double *p, leg_state *s)
{
    double xs = x[0], vxs = x[1], ys = x[2], vys = x[3];
    s->l = hypot(xs, ys);
    if (!(s->l > 0.0))
        return E_LEG;
    s->ldot = (xs * vxs + ys * vys) / s->l;
    s->F = p[P_K] * (p[P_L0] - s->l) - p[P_B] * s->ldot;
    s->dl[0] = xs / s->l; s->dl[1] = 0.0; s->dl[2] = ys / s->l; s->dl[3] = 0.0;
    s->dldot[0] = (vxs - s->ldot * xs / s->l) / s->l;
    s->dldot[1] = xs / s->l;
    s->dldot[2] = (vys - s->ldot * ys / s->l) / s->l;
    s->dldot[3] = ys / s->l;
    for (int i = 0; i < 4; i++)
        s->dF[i] = -p[P_K] * s->dl[i] - p[P_B] * s->dldot[i];
    return 0;
}

static int stance(double t, const double *x, const double *p, double *f, void *d)
{
    leg_state s;
    (void)t; (void)d;
    if (x[2] <= 0.0)
        return E_GROUND;
    if (leg(x, p, &s))
        return E_LEG;
    double G = s.F / (p[P_M] * s.l);
    f[0] = x[1];
    f[1] = G * x[0];
    f[2] = x[3];
    f[3] = G * x[2] - p[P_G];
    return 0;
}

static int stance_dx(double t, const double *x, const double *p, double *J, void *d)
{
    leg_state s;
    (void)t; (void)d;
    if (leg(x, p, &s))
        return E_LEG;
    double ml = p[P_M] * s.l, G = s.F / ml;
    for (int j = 0; j < 4; j++) {
        double dG = s.dF[j] / ml - s.F / (ml * s.l) * s.dl[j];
        J[0 + 4 * j] = j == 1;
        J[1 + 4 * j] = dG * x[0] + (j == 0 ? G : 0.0);
        J[2 + 4 * j] = j == 3;
        J[3 + 4 * j] = dG * x[2] + (j == 2 ? G : 0.0);
    }
    return 0;
}

/* ----------------------------------------------------------- touchdown */

static double t_td_nominal(const double *p)
{
    return sqrt(2.0 * (p[P_H] - p[P_LTD] * cos(p[P_THTD])) / p[P_G]);
}

static double leg_angle(double t, const double *x, const double *p)
{
    return p[P_THTD] + p[P_KGAIN] * (x[0] - p[P_V]) + p[P_THDOT] * (t - t_td_nominal(p));
}

static int td_guard(double t, const double *x, const double *p, double *g, void *d)
{
    (void)d;
    g[0] = x[1] - p[P_LTD] * cos(leg_angle(t, x, p));
    return 0;
}

static int td_guard_dx(double t, const double *x, const double *p, double *g, void *d)
{
    double s = p[P_LTD] * sin(leg_angle(t, x, p));
    (void)d;
    g[0] = s * p[P_KGAIN];
    g[1] = 1.0;
    g[2] = 0.0;
    return 0;
}

static int td_guard_dt(double t, const double *x, const double *p, double *g, void *d)
{
    (void)d;
    g[0] = p[P_LTD] * sin(leg_angle(t, x, p)) * p[P_THDOT];
    return 0;
}

static int td_reset(double t, const double *x, const double *p, double *r, void *d)
{
    (void)d;
    r[0] = -p[P_LTD] * sin(leg_angle(t, x, p));
    r[1] = x[0];
    r[2] = x[1];
    r[3] = x[2];
    return 0;
}

static int td_reset_dx(double t, const double *x, const double *p, double *R, void *d)
{
    double c = -p[P_LTD] * cos(leg_angle(t, x, p));
    (void)d;
    for (int i = 0; i < 12; i++)
        R[i] = 0.0;
    R[0 + 4 * 0] = c * p[P_KGAIN];
    R[1 + 4 * 0] = 1.0;
    R[2 + 4 * 1] = 1.0;
    R[3 + 4 * 2] = 1.0;
    return 0;
}

static int td_reset_dt(double t, const double *x, const double *p, double *r, void *d)
{
    (void)d;
    r[0] = -p[P_LTD] * cos(leg_angle(t, x, p)) * p[P_THDOT];
    r[1] = r[2] = r[3] = 0.0;
    return 0;
}

/* ------------------------------------------------------------- liftoff */

static int lo_guard(double t, const double *x, const double *p, double *g, void *d)
{
    leg_state s;
    (void)t; (void)d;
    if (leg(x, p, &s))
        return E_LEG;
    g[0] = s.F;
    return 0;
}

static int lo_guard_dx(double t, const double *x, const double *p, double *g, void *d)
{
    leg_state s;
    (void)t; (void)d;
    if (leg(x, p, &s))
        return E_LEG;
    for (int i = 0; i < 4; i++)
        g[i] = s.dF[i];
    return 0;
}

static int zero_dt(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    g[0] = 0.0;
    return 0;
}

static int lo_reset(double t, const double *x, const double *p, double *r, void *d)
{
    (void)t; (void)p; (void)d;
    if (!(x[3] > 0.0))
        return E_SINK;
    r[0] = x[1];
    r[1] = x[2];
    r[2] = x[3];
    return 0;
}

static int lo_reset_dx(double t, const double *x, const double *p, double *R, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    for (int i = 0; i < 12; i++)
        R[i] = 0.0;
    R[0 + 3 * 1] = 1.0;
    R[1 + 3 * 2] = 1.0;
    R[2 + 3 * 3] = 1.0;
    return 0;
}

static int lo_reset_dt(double t, const double *x, const double *p, double *r, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    r[0] = r[1] = r[2] = 0.0;
    return 0;
}

/* ---------------------------------------------------------------- apex */

static int apex_guard(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)p; (void)d;
    g[0] = x[2];
    return 0;
}

static int apex_guard_dx(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    g[0] = 0.0;
    g[1] = 0.0;
    g[2] = 1.0;
    return 0;
}

/* The apex starts a descent; with the toe already below the ground there
 * is no touchdown to come. */
static int apex_reset(double t, const double *x, const double *p, double *r, void *d)
{
    (void)d;
    if (!(x[1] > p[P_LTD] * cos(leg_angle(0.0, x, p))))
        return E_FALL;
    (void)t;
    r[0] = x[0];
    r[1] = x[1];
    r[2] = x[2];
    return 0;
}

static int identity_dx(double t, const double *x, const double *p, double *R, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    for (int i = 0; i < 9; i++)
        R[i] = i % 4 == 0;
    return 0;
}

static int zero_dt3(double t, const double *x, const double *p, double *r, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    r[0] = r[1] = r[2] = 0.0;
    return 0;
}

/* --------------------------------------------------------------- model */

static int guess(double *p, double *x0, void *d)
{
    (void)d;
    x0[0] = p[P_V];
    x0[1] = p[P_H];
    x0[2] = 0.0;
    return 0;
}

static int validate(const double *p, char *msg, size_t len, void *d)
{
    (void)d;
    if (!(p[P_H] > p[P_LTD] * cos(p[P_THTD]))) {
        snprintf(msg, len, "apex_height = %g must exceed the touchdown height "
                 "l_td cos(theta_td) = %g", p[P_H], p[P_LTD] * cos(p[P_THTD]));
        return 1;
    }
    if (!(p[P_LTD] <= p[P_L0])) {
        snprintf(msg, len, "preload leg length l_td = %g exceeds the rest length l0 = %g",
                 p[P_LTD], p[P_L0]);
        return 1;
    }
    return 0;
}

static const char *const flight_names[] = { "vx", "y", "vy" };
static const char *const stance_names[] = { "xs", "vxs", "ys", "vys" };

static const hes_mode modes[] = {
    { .name = "descent", .dim = 3, .state_names = flight_names,
      .field = flight, .field_dx = flight_dx },
    { .name = "ascent", .dim = 3, .state_names = flight_names,
      .field = flight, .field_dx = flight_dx },
    { .name = "stance", .dim = 4, .state_names = stance_names,
      .field = stance, .field_dx = stance_dx },
};

static const hes_transition transitions[] = {
    { "touchdown", M_DESCENT, M_STANCE, HES_DOWN, td_guard, td_reset, td_guard_dx,
      td_guard_dt, td_reset_dx, td_reset_dt, 0, NULL },
    { "liftoff", M_STANCE, M_ASCENT, HES_DOWN, lo_guard, lo_reset, lo_guard_dx, zero_dt,
      lo_reset_dx, lo_reset_dt, 0, NULL },
    { "apex", M_ASCENT, M_DESCENT, HES_DOWN, apex_guard, apex_reset, apex_guard_dx, zero_dt,
      identity_dx, zero_dt3, 1, NULL },
};

static const hes_param params[P_N] = {
    { "m", 1.0, "kg", "body mass", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "g", 9.81, "m/s^2", "gravitational acceleration", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "l0", 1.0, "m", "rest length of the leg spring", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "k", 500.0, "N/m", "leg spring stiffness", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "b", 1.0, "N s/m", "leg damping", 0, 0.0, HUGE_VAL, 0, 0 },
    { "apex_height", 2.5, "m", "apex height of the nominal orbit", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "apex_speed", 2.0, "m/s", "forward speed of the nominal orbit", 0, -HUGE_VAL, HUGE_VAL, 0, 0 },
    { "K", 0.0, "rad s/m", "Raibert gain on the forward speed error (touchdown law)",
      HES_PARAM_SHAPE, -HUGE_VAL, HUGE_VAL, -0.2, 0.6 },
    { "thetadot", 0.0, "rad/s", "leg angular velocity at touchdown (negative: retraction)",
      HES_PARAM_SHAPE, -HUGE_VAL, HUGE_VAL, -3.0, 1.0 },
    { "l_td", 0.9, "m", "preload leg length at touchdown (solved)",
      HES_PARAM_SOLVED | HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "theta_td", 0.2, "rad", "nominal touchdown angle from vertical, toe ahead (solved)",
      HES_PARAM_SOLVED, -1.5707963267948966, 1.5707963267948966, 0, 0 },
};

static const int sequence[] = { T_TOUCHDOWN, T_LIFTOFF, T_APEX };
static const char *const free_params[] = { "l_td", "theta_td" };
static const int residual[] = { 0, 1 };

const hes_model hes__problem_slip_hopper = {
    .abi = HES_MODEL_ABI,
    .name = "slip-hopper",
    .description = "spring-loaded inverted pendulum hopper with damper and preload (HES paper Sec. IV-B)",
    .n_modes = 3,
    .modes = modes,
    .n_transitions = 3,
    .transitions = transitions,
    .n_params = P_N,
    .params = params,
    .orbit = {
        .mode = M_DESCENT,
        .section = T_APEX,
        .n_sequence = 3,
        .sequence = sequence,
        .period_param = NULL,
        .n_free_states = 0,
        .free_states = NULL,
        .n_free_params = 2,
        .free_params = free_params,
        .n_residual = 2,
        .residual = residual,
        .guess = guess,
    },
    .integrator = HES_RK8,
    .max_phase_time = 100.0,
    .validate = validate,
    .data = NULL,
    .describe_error = describe_error,
};
