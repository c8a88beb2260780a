/*
 * rigid_body.c - a test model whose state lives on a manifold (hes_mode's
 * tangent-space chart): a torque-free rigid body whose attitude is a unit
 * quaternion (tests/test_tangent.c; built with -DHES_PLUGIN it is a plugin
 * of the intermediate-axis orbit for the program's tests).
 *
 * Model (one mode "spin", dim 8, tdim 7): x = [q (4: w, x, y, z), omega (3,
 * body frame), tau (a clock)],
 *     q' = 1/2 q (x) (0, omega),   I omega' = (I omega) x omega,   tau' = 1,
 * principal inertias I1 < I2 < I3.  The section "tick" fires at tau = T
 * (crossed upward) and resets tau to 0, leaving q and omega: an autonomous
 * orbit whose period is the clock's.  The chart: retract(x, d) =
 * [q (x) exp(d_theta / 2), omega + d_omega, tau + d_tau], local its inverse
 * (2 log of q0^-1 (x) q1, the sign of the quaternion chosen with w >= 0: q
 * and -q are one attitude), E = d retract / d d at 0; no cotangent (the
 * library's least-squares P), normalize q / |q|.
 *
 * Orbits: steady rotation omega = Omega e_k about principal axis k, with
 * Omega T = 2 pi, so that the attitude returns (q(T) = -q(0), the same
 * rotation).  Linearising Euler's equations about omega = (0, Omega, 0)
 * (the intermediate axis):
 *     I1 dw1' = (I2 - I3) Omega dw3,   I3 dw3' = (I1 - I2) Omega dw1,
 *     dw2' = 0,
 * so dw1'' = (I2 - I3)(I1 - I2) Omega^2 / (I1 I3) dw1
 *          = (I2 - I1)(I3 - I2) Omega^2 / (I1 I3) dw1 = lambda^2 dw1,
 *     lambda = Omega sqrt((I2 - I1)(I3 - I2) / (I1 I3)):
 * multipliers exp(+-lambda T).  About the major axis (omega = Omega e_3)
 *     I1 dw1' = (I2 - I3) Omega dw2,   I2 dw2' = (I3 - I1) Omega dw1,
 * so dw1'' = -mu^2 dw1, mu = Omega sqrt((I3 - I2)(I3 - I1) / (I1 I2)):
 * multipliers exp(+-i mu T) on the unit circle (with I = 1, 2, 3 mu = Omega
 * exactly, and mu T = 2 pi makes them 1; the test takes I3 = 4 there).
 * The other four multipliers are 1: the body-frame attitude error obeys
 * d_theta' = -omega x d_theta + d_omega, which after a whole turn returns
 * every attitude error (3: left-invariance, any rotated start is an orbit
 * too), and the spin rate's own perturbation stays (energy and angular
 * momentum conserved; it shifts the attitude along the axis: a Jordan
 * block).  The section's trivial 0 (the clock) is deflated: 6 multipliers.
 */
#include <math.h>
#include <string.h>

#include "rigid_body.h"

enum { P_I1, P_I2, P_I3, P_SPIN, P_T, P_AXIS, P_PERTURB, N_PARAMS };
enum { NX = RB_NX, NT = RB_NT };

/* q (x) p for quaternions (w, x, y, z). */
static void qmul(const double *q, const double *p, double *out)
{
    double w = q[0] * p[0] - q[1] * p[1] - q[2] * p[2] - q[3] * p[3];
    double x = q[0] * p[1] + p[0] * q[1] + q[2] * p[3] - q[3] * p[2];
    double y = q[0] * p[2] + p[0] * q[2] + q[3] * p[1] - q[1] * p[3];
    double z = q[0] * p[3] + p[0] * q[3] + q[1] * p[2] - q[2] * p[1];
    out[0] = w;
    out[1] = x;
    out[2] = y;
    out[3] = z;
}

/* exp(v / 2) = (cos(|v| / 2), sin(|v| / 2) v / |v|), by its series near 0. */
static void qexp_half(const double *v, double *out)
{
    double a = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    double s = a < 1e-4 ? 0.5 - a * a / 48.0 : sin(a / 2) / a;
    out[0] = cos(a / 2);
    for (int i = 0; i < 3; i++)
        out[i + 1] = s * v[i];
}

/* 2 log(u) for a unit quaternion u with u_w >= 0: the rotation vector. */
static void qlog2(const double *u, double *v)
{
    double s = sqrt(u[1] * u[1] + u[2] * u[2] + u[3] * u[3]);
    double f = s < 1e-8 ? 2.0 / u[0] * (1.0 - s * s / (3.0 * u[0] * u[0]))
                        : 2.0 * atan2(s, u[0]) / s;
    for (int i = 0; i < 3; i++)
        v[i] = f * u[i + 1];
}

/* The 4 x 3 matrix G(q) with G v = q (x) (0, v) (column-major). */
static void qright(const double *q, double *G)
{
    double g[12] = { -q[1], q[0], q[3], -q[2],
                     -q[2], -q[3], q[0], q[1],
                     -q[3], q[2], -q[1], q[0] };
    memcpy(G, g, sizeof g);
}

static int field(double t, const double *x, const double *p, double *f, void *d)
{
    (void)t; (void)d;
    const double *w = x + 4;
    double G[12];
    qright(x, G);
    for (int i = 0; i < 4; i++)
        f[i] = 0.5 * (G[i] * w[0] + G[i + 4] * w[1] + G[i + 8] * w[2]);
    f[4] = (p[P_I2] - p[P_I3]) / p[P_I1] * w[1] * w[2];
    f[5] = (p[P_I3] - p[P_I1]) / p[P_I2] * w[2] * w[0];
    f[6] = (p[P_I1] - p[P_I2]) / p[P_I3] * w[0] * w[1];
    f[7] = 1.0;
    return 0;
}

static int field_dx(double t, const double *x, const double *p, double *J, void *d)
{
    (void)t; (void)d;
    const double *w = x + 4;
    double a1 = (p[P_I2] - p[P_I3]) / p[P_I1], a2 = (p[P_I3] - p[P_I1]) / p[P_I2],
           a3 = (p[P_I1] - p[P_I2]) / p[P_I3], G[12];
    /* d q' / d q = 1/2 [q -> q (x) (0, w)], a 4 x 4 matrix */
    double R[16] = { 0, w[0], w[1], w[2],
                     -w[0], 0, -w[2], w[1],
                     -w[1], w[2], 0, -w[0],
                     -w[2], -w[1], w[0], 0 };
    memset(J, 0, sizeof(double) * NX * NX);
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++)
            J[i + NX * j] = 0.5 * R[i + 4 * j];
    qright(x, G);
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 4; i++)
            J[i + NX * (4 + j)] = 0.5 * G[i + 4 * j];
    J[4 + NX * 5] = a1 * w[2];
    J[4 + NX * 6] = a1 * w[1];
    J[5 + NX * 4] = a2 * w[2];
    J[5 + NX * 6] = a2 * w[0];
    J[6 + NX * 4] = a3 * w[1];
    J[6 + NX * 5] = a3 * w[0];
    return 0;
}

static int retract(const double *x, const double *dl, const double *p, double *out, void *d)
{
    (void)p; (void)d;
    double e[4];
    qexp_half(dl, e);
    qmul(x, e, out);
    for (int i = 0; i < 3; i++)
        out[4 + i] = x[4 + i] + dl[3 + i];
    out[7] = x[7] + dl[6];
    return 0;
}

static int local(const double *x1, const double *x0, const double *p, double *out, void *d)
{
    (void)p; (void)d;
    double c[4] = { x0[0], -x0[1], -x0[2], -x0[3] }, u[4];
    qmul(c, x1, u);
    if (u[0] < 0)
        for (int i = 0; i < 4; i++)
            u[i] = -u[i];
    qlog2(u, out);
    for (int i = 0; i < 3; i++)
        out[3 + i] = x1[4 + i] - x0[4 + i];
    out[6] = x1[7] - x0[7];
    return 0;
}

static int tangent(const double *x, const double *p, double *E, void *d)
{
    (void)p; (void)d;
    double G[12];
    qright(x, G);
    memset(E, 0, sizeof(double) * NX * NT);
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 4; i++)
            E[i + NX * j] = 0.5 * G[i + 4 * j];
    for (int j = 3; j < NT; j++)
        E[j + 1 + NX * j] = 1.0;
    return 0;
}

static int normalize(double *x, const double *p, void *d)
{
    (void)p; (void)d;
    double n = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3]);
    if (!(n > 0))
        return 1;
    for (int i = 0; i < 4; i++)
        x[i] /= n;
    return 0;
}

static int tick(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)d;
    g[0] = x[7] - p[P_T];
    return 0;
}

static int restart(double t, const double *x, const double *p, double *r, void *d)
{
    (void)t; (void)p; (void)d;
    memcpy(r, x, sizeof(double) * 7);
    r[7] = 0.0;
    return 0;
}

/* Steady spin about the axis p[P_AXIS] (0, 1, 2), attitude the identity,
 * the first transverse rate off by p[P_PERTURB] for Newton to correct. */
static int guess(double *p, double *x0, void *d)
{
    (void)d;
    int k = (int)p[P_AXIS];
    memset(x0, 0, sizeof(double) * NX);
    x0[0] = 1.0;
    x0[4 + k] = p[P_SPIN];
    x0[4 + (k + 1) % 3] = p[P_PERTURB];
    return 0;
}

static const char *const states[] = { "qw", "qx", "qy", "qz", "wx", "wy", "wz", "tau" };
const char *const test_rigid_body_tangent_names[] = { "rx", "ry", "rz", "wx", "wy", "wz", "tau" };

const hes_mode test_rigid_body_modes[] = {
    { .name = "spin", .dim = NX, .state_names = states, .field = field, .field_dx = field_dx,
      .tdim = NT, .retract = retract, .local = local, .tangent = tangent,
      .normalize = normalize, .tangent_names = test_rigid_body_tangent_names },
};

static const hes_transition transitions[] = {
    { .name = "tick", .from = 0, .to = 0, .direction = HES_UP, .guard = tick,
      .reset = restart },
};

static const hes_param params[N_PARAMS] = {
    { "I1", 1.0, "kg m^2", "least principal inertia", HES_PARAM_POSITIVE, 0, HUGE_VAL, 0, 0 },
    { "I2", 2.0, "kg m^2", "intermediate principal inertia", HES_PARAM_POSITIVE, 0, HUGE_VAL,
      0, 0 },
    { "I3", 3.0, "kg m^2", "largest principal inertia", HES_PARAM_POSITIVE, 0, HUGE_VAL, 0, 0 },
    { "spin", 1.0, "rad/s", "spin rate Omega", HES_PARAM_POSITIVE, 0, HUGE_VAL, 0, 0 },
    { "T", 2 * M_PI, "s", "the clock's period", HES_PARAM_POSITIVE, 0, HUGE_VAL, 0, 0 },
    { "axis", 1.0, "1", "the spin axis of the guess: 0, 1 or 2", 0, 0, 2, 0, 0 },
    { "perturb", 1e-3, "rad/s", "the guess's error in a transverse rate", 0, -HUGE_VAL,
      HUGE_VAL, 0, 0 },
};

static const int sequence[] = { 0 };
/* tangent indices of the transverse rates about axis 1 (y) and axis 2 (z) */
static const int transverse_y[] = { 3, 5 };
static const int transverse_z[] = { 3, 4 };

#define RIGID_BODY(axis_states)                                                             \
    {                                                                                       \
        .abi = HES_MODEL_ABI,                                                               \
        .name = "rigid-body",                                                               \
        .description = "torque-free rigid body, attitude as a unit quaternion",             \
        .n_modes = 1,                                                                       \
        .modes = test_rigid_body_modes,                                                     \
        .n_transitions = 1,                                                                 \
        .transitions = transitions,                                                         \
        .n_params = N_PARAMS,                                                               \
        .params = params,                                                                   \
        .orbit = { .mode = 0, .section = 0, .n_sequence = 1, .sequence = sequence,          \
                   .n_free_states = 2, .free_states = axis_states, .n_residual = 2,         \
                   .residual = axis_states, .guess = guess },                               \
        .integrator = HES_ADAMS,                                                            \
    }

static const hes_model about_y = RIGID_BODY(transverse_y);
static const hes_model about_z = RIGID_BODY(transverse_z);

const hes_model *test_rigid_body_model(int axis)
{
    return axis == 1 ? &about_y : &about_z;
}

#ifdef HES_PLUGIN
/* the plugin: the orbit about the intermediate axis (parameter axis = 1) */
const hes_model *hes_plugin_model(void);
const hes_model *hes_plugin_model(void)
{
    return &about_y;
}
#endif
