/*
 * hopf_kicks.c - a synthetic problem with many shape parameters, for the
 * gradient tests and benchmarks: the Hopf normal form
 *     x' = mu x (1 - r^2) - omega y,   y' = mu y (1 - r^2) + omega x
 * (limit cycle r = 1, period 2 pi / omega) split by N = 20 virtual events at
 * the angles 2 pi (k + 1) / N.  Event k (mode k -> k + 1 mod N, guard
 * sin(phi) x - cos(phi) y crossed downward) kicks the radius,
 *     R(x) = x (1 + h_k (r - 1) / r),   i.e. r+ = r + h_k (r - 1),
 * which is the identity on the orbit: each h_k is a shape parameter that
 * appears in one saltation matrix only.  Radius and phase decouple, so the
 * single nontrivial multiplier is
 *     psi = exp(-4 pi mu / omega) prod_k |1 + h_k|,
 * and dpsi/dh_k = psi / (1 + h_k) where 1 + h_k > 0.
 */
#include <math.h>

#include "testmodels.h"

enum { P_MU, P_OMEGA, P_H0 };

static int field(double t, const double *x, const double *p, double *f, void *d)
{
    (void)t; (void)d;
    double s = p[P_MU] * (1.0 - x[0] * x[0] - x[1] * x[1]);
    f[0] = s * x[0] - p[P_OMEGA] * x[1];
    f[1] = s * x[1] + p[P_OMEGA] * x[0];
    return 0;
}

static int field_dx(double t, const double *x, const double *p, double *J, void *d)
{
    (void)t; (void)d;
    double mu = p[P_MU], s = mu * (1.0 - x[0] * x[0] - x[1] * x[1]);
    J[0] = s - 2 * mu * x[0] * x[0];
    J[1] = -2 * mu * x[0] * x[1] + p[P_OMEGA];
    J[2] = -2 * mu * x[0] * x[1] - p[P_OMEGA];
    J[3] = s - 2 * mu * x[1] * x[1];
    return 0;
}

static double angle(int k) { return 6.283185307179586 * (k + 1) / TEST_HOPF_EVENTS; }

static int guard_at(int k, const double *x, double *g)
{
    g[0] = sin(angle(k)) * x[0] - cos(angle(k)) * x[1];
    return 0;
}

static int guard_dx_at(int k, double *g)
{
    g[0] = sin(angle(k));
    g[1] = -cos(angle(k));
    return 0;
}

static int reset_at(int k, const double *x, const double *p, double *r)
{
    double h = p[P_H0 + k], rad = hypot(x[0], x[1]);
    if (!(rad > 0))
        return 1;
    double c = 1.0 + h * (rad - 1.0) / rad;
    r[0] = c * x[0];
    r[1] = c * x[1];
    return 0;
}

static int reset_dx_at(int k, const double *x, const double *p, double *R)
{
    double h = p[P_H0 + k], rad = hypot(x[0], x[1]);
    if (!(rad > 0))
        return 1;
    double c = 1.0 + h - h / rad, q = h / (rad * rad * rad);
    R[0] = c + q * x[0] * x[0];
    R[1] = q * x[0] * x[1];
    R[2] = q * x[0] * x[1];
    R[3] = c + q * x[1] * x[1];
    return 0;
}

static int zero_dt(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    g[0] = 0.0;
    return 0;
}

static int zero_dt2(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    g[0] = g[1] = 0.0;
    return 0;
}

/* one set of callbacks per event */
#define KICK(k)                                                                           \
    static int guard_##k(double t, const double *x, const double *p, double *g, void *d)  \
    { (void)t; (void)p; (void)d; return guard_at(k, x, g); }                              \
    static int guard_dx_##k(double t, const double *x, const double *p, double *g, void *d) \
    { (void)t; (void)x; (void)p; (void)d; return guard_dx_at(k, g); }                     \
    static int reset_##k(double t, const double *x, const double *p, double *r, void *d)  \
    { (void)t; (void)d; return reset_at(k, x, p, r); }                                    \
    static int reset_dx_##k(double t, const double *x, const double *p, double *R, void *d) \
    { (void)t; (void)d; return reset_dx_at(k, x, p, R); }
#define TRANSITION(k)                                                                     \
    { "kick" #k, k, (k + 1) % TEST_HOPF_EVENTS, HES_DOWN, guard_##k, reset_##k,          \
      guard_dx_##k, zero_dt, reset_dx_##k, zero_dt2, 0, NULL }
#define MODE(k) { .name = "arc" #k, .dim = 2, .state_names = names, .field = field,       \
                  .field_dx = field_dx }
#define KICK_PARAM(k)                                                                     \
    { "h" #k, 0.0, "1", "radial kick gain at virtual event " #k, HES_PARAM_SHAPE,         \
      -HUGE_VAL, HUGE_VAL, -0.5, 0.5 }

KICK(0) KICK(1) KICK(2) KICK(3) KICK(4) KICK(5) KICK(6) KICK(7) KICK(8) KICK(9)
KICK(10) KICK(11) KICK(12) KICK(13) KICK(14) KICK(15) KICK(16) KICK(17) KICK(18) KICK(19)

static const char *const names[] = { "x", "y" };

static const hes_mode modes[TEST_HOPF_EVENTS] = {
    MODE(0), MODE(1), MODE(2), MODE(3), MODE(4), MODE(5), MODE(6), MODE(7), MODE(8), MODE(9),
    MODE(10), MODE(11), MODE(12), MODE(13), MODE(14), MODE(15), MODE(16), MODE(17), MODE(18),
    MODE(19),
};

static const hes_transition transitions[TEST_HOPF_EVENTS] = {
    TRANSITION(0), TRANSITION(1), TRANSITION(2), TRANSITION(3), TRANSITION(4),
    TRANSITION(5), TRANSITION(6), TRANSITION(7), TRANSITION(8), TRANSITION(9),
    TRANSITION(10), TRANSITION(11), TRANSITION(12), TRANSITION(13), TRANSITION(14),
    TRANSITION(15), TRANSITION(16), TRANSITION(17), TRANSITION(18), TRANSITION(19),
};

static const hes_param params[2 + TEST_HOPF_EVENTS] = {
    { "mu", 0.05, "1/s", "radial attraction rate", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "omega", 1.0, "rad/s", "angular speed", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    KICK_PARAM(0), KICK_PARAM(1), KICK_PARAM(2), KICK_PARAM(3), KICK_PARAM(4),
    KICK_PARAM(5), KICK_PARAM(6), KICK_PARAM(7), KICK_PARAM(8), KICK_PARAM(9),
    KICK_PARAM(10), KICK_PARAM(11), KICK_PARAM(12), KICK_PARAM(13), KICK_PARAM(14),
    KICK_PARAM(15), KICK_PARAM(16), KICK_PARAM(17), KICK_PARAM(18), KICK_PARAM(19),
};

static const int sequence[TEST_HOPF_EVENTS] = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
};
static const int radius[] = { 0 };

static int guess(double *p, double *x0, void *d)
{
    (void)p; (void)d;
    x0[0] = 1.0;
    x0[1] = 0.0;
    return 0;
}

const hes_model test_hopf_kicks = {
    .abi = HES_MODEL_ABI,
    .name = "hopf-kicks",
    .description = "Hopf oscillator with 20 virtual events, one radial-kick shape parameter each",
    .n_modes = TEST_HOPF_EVENTS,
    .modes = modes,
    .n_transitions = TEST_HOPF_EVENTS,
    .transitions = transitions,
    .n_params = 2 + TEST_HOPF_EVENTS,
    .params = params,
    .orbit = {
        .mode = 0,
        .section = TEST_HOPF_EVENTS - 1,
        .n_sequence = TEST_HOPF_EVENTS,
        .sequence = sequence,
        .n_free_states = 1,
        .free_states = radius,
        .n_residual = 1,
        .residual = radius,
        .guess = guess,
    },
    .integrator = HES_ADAMS,
};
