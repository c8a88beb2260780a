/*
 * bouncing_ball.c - the bouncing ball on a sinusoidally vibrating table
 * (Holmes, "The dynamics of repeated impacts with a sinusoidally vibrating
 * table", J. Sound Vib. 84, 1982), written as a user writes a model: the
 * paddle juggler with the table's amplitude as its parameter, so that its
 * period-1 orbits are born in a fold.
 *
 * Mode "flight", state [xB, vB] (ball height, m; velocity, m/s):
 *     xB' = vB,  vB' = -g.
 * The table: xP(t) = -A cos(w t), w = 2 pi / T (lowest at t = 0).
 * "impact": guard xB - xP(t) crossed downward; reset
 *     vB+ = (1 + alpha) vP(t) - alpha vB-.
 * "apex": guard vB crossed downward, identity reset.
 * The orbit is stroboscopic over the table's period T, from t = 0.
 *
 * Period-1 orbits: the ball leaves each impact with g T / 2 and meets the
 * table again one period later with -g T / 2, which needs the table's
 * velocity vP* = g T (1 - alpha) / (2 (1 + alpha)) at the impact: A w
 * sin(w t_i) = vP*.  For A w > vP* there are two impact phases w t_i in
 * (0, pi): one in (pi/2, pi), where the table decelerates (its acceleration
 * a = A w^2 cos(w t_i) < 0), and one in (0, pi/2) (a > 0, a saddle).  They
 * meet in a fold at A = vP* / w, where a = 0 and a multiplier is +1.  The
 * first orbit is stable for -2 g (1 + alpha^2) / (1 + alpha)^2 < a < 0 and
 * loses its stability in a period doubling at the lower end (the HES
 * paper's eq. 10 for the paddle juggler, whose shape parameter is a),
 * that is at the amplitude A with (A w)^2 = vP*^2 + (a / w)^2.
 *
 * Build it as a plugin and follow the stable orbit down to the fold:
 *     cc -shared -fPIC -DHES_PLUGIN bouncing_ball.c $(pkg-config --cflags hes) \
 *        -o bouncing_ball.so
 *     hes continue --model ./bouncing_ball.so --param amplitude=0.08:0.03
 */
#include <math.h>
#include <stdio.h>

#include <hes.h>

extern const hes_model bouncing_ball;

enum { B_ALPHA, B_G, B_T, B_A, B_NPARAMS };
enum { B_IMPACT, B_APEX };

/* The table's position, velocity and acceleration at time t. */
static void table(double t, const double *p, double *xp, double *vp, double *ap)
{
    double w = 2.0 * M_PI / p[B_T], c = cos(w * t), s = sin(w * t);
    *xp = -p[B_A] * c;
    *vp = p[B_A] * w * s;
    *ap = p[B_A] * w * w * c;
}

static int field(double t, const double *x, const double *p, double *f, void *d)
{
    (void)t; (void)d;
    f[0] = x[1];
    f[1] = -p[B_G];
    return 0;
}

static int field_dx(double t, const double *x, const double *p, double *J, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    J[0] = 0; J[1] = 0;
    J[2] = 1; J[3] = 0;
    return 0;
}

static int impact_guard(double t, const double *x, const double *p, double *g, void *d)
{
    double xp, vp, ap;
    (void)d;
    table(t, p, &xp, &vp, &ap);
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
    table(t, p, &xp, &vp, &ap);
    g[0] = -vp;
    return 0;
}

static int impact_reset(double t, const double *x, const double *p, double *r, void *d)
{
    double xp, vp, ap;
    (void)d;
    table(t, p, &xp, &vp, &ap);
    r[0] = x[0];
    r[1] = (1.0 + p[B_ALPHA]) * vp - p[B_ALPHA] * x[1];
    return 0;
}

static int impact_reset_dx(double t, const double *x, const double *p, double *R, void *d)
{
    (void)t; (void)x; (void)d;
    R[0] = 1; R[1] = 0;
    R[2] = 0; R[3] = -p[B_ALPHA];
    return 0;
}

static int impact_reset_dt(double t, const double *x, const double *p, double *r, void *d)
{
    double xp, vp, ap;
    (void)x; (void)d;
    table(t, p, &xp, &vp, &ap);
    r[0] = 0;
    r[1] = (1.0 + p[B_ALPHA]) * ap;
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

/* The decelerating period-1 orbit (or the fold's, below it): the ball at
 * t = 0 falls towards the impact at t_i with -g T / 2. */
static int guess(double *p, double *x0, void *d)
{
    (void)d;
    double g = p[B_G], T = p[B_T], w = 2.0 * M_PI / T;
    double vstar = g * T * (1.0 - p[B_ALPHA]) / (2.0 * (1.0 + p[B_ALPHA]));
    double s = vstar / (p[B_A] * w), th = s < 1 ? M_PI - asin(s) : M_PI / 2;
    double ti = th / w, hi = -p[B_A] * cos(th);
    x0[0] = hi + 0.5 * g * T * ti - 0.5 * g * ti * ti;
    x0[1] = -0.5 * g * T + g * ti;
    return 0;
}

static int validate(const double *p, char *msg, size_t len, void *d)
{
    (void)d;
    if (p[B_ALPHA] < 0 || p[B_ALPHA] >= 1) {
        snprintf(msg, len, "alpha = %g must lie in [0, 1)", p[B_ALPHA]);
        return 1;
    }
    return 0;
}

static const char *const state_names[] = { "xB", "vB" };
static const hes_mode modes[] = {
    { .name = "flight", .dim = 2, .state_names = state_names,
      .field = field, .field_dx = field_dx },
};
static const hes_transition transitions[] = {
    [B_IMPACT] = { "impact", 0, 0, HES_DOWN, impact_guard, impact_reset, impact_guard_dx,
                   impact_guard_dt, impact_reset_dx, impact_reset_dt, 0, NULL },
    [B_APEX] = { "apex", 0, 0, HES_DOWN, apex_guard, NULL, apex_guard_dx, zero_dt, NULL, NULL,
                 0, NULL },
};
static const hes_param params[] = {
    { "alpha", 0.5, "1", "coefficient of restitution of the ball on the table", 0, 0.0, 1.0,
      0, 0 },
    { "g", 9.81, "m/s^2", "gravitational acceleration", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "period", 0.5, "s", "period of the table", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "amplitude", 0.08, "m", "amplitude of the table's motion", HES_PARAM_POSITIVE, 0.0,
      HUGE_VAL, 0, 0 },
};
static const int sequence[] = { B_IMPACT, B_APEX };
static const int free_states[] = { 0, 1 };

const hes_model bouncing_ball = {
    .abi = HES_MODEL_ABI,
    .name = "bouncing-ball",
    .description = "ball on a sinusoidally vibrating table, amplitude as parameter (Holmes 1982)",
    .n_modes = 1, .modes = modes,
    .n_transitions = 2, .transitions = transitions,
    .n_params = B_NPARAMS, .params = params,
    .orbit = { .mode = 0, .section = B_APEX, .n_sequence = 2, .sequence = sequence,
               .period_param = "period", .n_free_states = 2, .free_states = free_states,
               .n_residual = 2, .residual = free_states, .guess = guess },
    .integrator = HES_ADAMS,
    .max_phase_time = 100.0,
    .validate = validate,
};

#ifdef HES_PLUGIN
const hes_model *hes_plugin_model(void)
{
    return &bouncing_ball;
}
#endif
