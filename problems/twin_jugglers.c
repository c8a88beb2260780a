/*
 * twin_jugglers.c - an orbit whose events are exactly simultaneous: two
 * balls, state [x1, v1, x2, v2], over one
 * paddle (the paddle of problems/paddle_juggler.c).  On the symmetric
 * period-1 orbit both balls hit the paddle at the same instant.  The first
 * ball's impact also kicks the second ball by kappa (v1 + g T / 2), the first
 * ball's velocity error before its impact, and the second ball's impact kicks
 * the first by mu (v2 + g T / 2): zero on the orbit, and the outcome does not
 * depend on the order to first order in the errors only when kappa = mu = 0
 * (the balls are decoupled and the orders commute); otherwise the two
 * orders give different linearisations (a continuous, piecewise-linear
 * return map).  hes analyze reports both pieces.  The second model,
 * hes__problem_twin_jugglers_swapped (not registered; for the tests), lists
 * the two impacts in the other order, so its nominal orbit takes the other
 * piece.
 */
#include <math.h>

#include "problems.h"

enum { P_ALPHA, P_G, P_T, P_ACC, P_KAPPA, P_MU };

static void paddle(double t, const double *p, double *xp, double *vp, double *ap)
{
    double alpha = p[P_ALPHA], g = p[P_G], T = p[P_T], acc = p[P_ACC];
    double w = 6.283185307179586 / T, vstar = g * T * (1 - alpha) / (2 * (1 + alpha));
    double s = -acc / (w * w), c = vstar / w, amp = hypot(s, c);
    double ph = w * t + atan2(s, c) - w * T / 2;
    *xp = -s + amp * sin(ph);
    *vp = amp * w * cos(ph);
    *ap = -amp * w * w * sin(ph);
}

static int field(double t, const double *x, const double *p, double *f, void *d)
{
    (void)t; (void)d;
    f[0] = x[1];
    f[1] = -p[P_G];
    f[2] = x[3];
    f[3] = -p[P_G];
    return 0;
}

static int guard_ball(int b, double t, const double *x, const double *p, double *g)
{
    double xp, vp, ap;
    paddle(t, p, &xp, &vp, &ap);
    g[0] = x[2 * b] - xp;
    return 0;
}

static int reset_ball(int b, double t, const double *x, const double *p, double *r)
{
    double xp, vp, ap;
    paddle(t, p, &xp, &vp, &ap);
    for (int i = 0; i < 4; i++)
        r[i] = x[i];
    r[2 * b + 1] = (1 + p[P_ALPHA]) * vp - p[P_ALPHA] * x[2 * b + 1];
    if (b == 0)
        r[3] += p[P_KAPPA] * (x[1] + p[P_G] * p[P_T] / 2);
    else
        r[1] += p[P_MU] * (x[3] + p[P_G] * p[P_T] / 2);
    return 0;
}

static int g1(double t, const double *x, const double *p, double *g, void *d) { (void)d; return guard_ball(0, t, x, p, g); }
static int g2(double t, const double *x, const double *p, double *g, void *d) { (void)d; return guard_ball(1, t, x, p, g); }
static int r1(double t, const double *x, const double *p, double *r, void *d) { (void)d; return reset_ball(0, t, x, p, r); }
static int r2(double t, const double *x, const double *p, double *r, void *d) { (void)d; return reset_ball(1, t, x, p, r); }

static int apex(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)p; (void)d;
    g[0] = x[1];
    return 0;
}

static int guess(double *p, double *x0, void *d)
{
    (void)d;
    x0[0] = x0[2] = p[P_G] * p[P_T] * p[P_T] / 8;
    x0[1] = x0[3] = 0;
    return 0;
}

static const char *const names[] = { "x1", "v1", "x2", "v2" };
static const hes_mode modes[] = { { .name = "flight", .dim = 4, .state_names = names,
                                    .field = field } };
static const hes_transition in_order[] = {
    { "impact1", 0, 0, HES_DOWN, g1, r1, NULL, NULL, NULL, NULL, 0, NULL },
    { "impact2", 0, 0, HES_DOWN, g2, r2, NULL, NULL, NULL, NULL, 0, NULL },
    { "apex", 0, 0, HES_DOWN, apex, NULL, NULL, NULL, NULL, NULL, 0, NULL },
};
static const hes_transition swapped[] = {
    { "impact2", 0, 0, HES_DOWN, g2, r2, NULL, NULL, NULL, NULL, 0, NULL },
    { "impact1", 0, 0, HES_DOWN, g1, r1, NULL, NULL, NULL, NULL, 0, NULL },
    { "apex", 0, 0, HES_DOWN, apex, NULL, NULL, NULL, NULL, NULL, 0, NULL },
};
static const hes_param params[] = {
    { "alpha", 0.5, "1", "restitution", 0, 0.0, 1.0, 0, 0 },
    { "g", 9.81, "m/s^2", "gravity", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "period", 0.5, "s", "paddle period", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "paddle_accel", -3.0, "m/s^2", "paddle acceleration at impact", HES_PARAM_SHAPE,
      -HUGE_VAL, HUGE_VAL, -20, 10 },
    { "kappa", 0.0, "1", "kick of ball 2 by ball 1's impact", 0, -HUGE_VAL, HUGE_VAL, 0, 0 },
    { "mu", 0.0, "1", "kick of ball 1 by ball 2's impact", 0, -HUGE_VAL, HUGE_VAL, 0, 0 },
};
static const int sequence[] = { 0, 1, 2 }, any_order[] = { 1, 0, 0 };
static const int all[] = { 0, 1, 2, 3 };

#define TWIN(NAME, TRANSITIONS)                                                          \
    {                                                                                    \
        .abi = HES_MODEL_ABI, .name = NAME, .description = "two balls on one paddle, hitting it at the same instant (simultaneous events)",    \
        .n_modes = 1, .modes = modes, .n_transitions = 3, .transitions = TRANSITIONS,    \
        .n_params = 6, .params = params,                                                 \
        .orbit = { .mode = 0, .section = 2, .n_sequence = 3, .sequence = sequence,       \
                   .any_order = any_order,                                               \
                   .period_param = "period", .n_free_states = 4, .free_states = all,      \
                   .n_residual = 4, .residual = all, .guess = guess },                    \
        .integrator = HES_ADAMS,                                                         \
    }

const hes_model hes__problem_twin_jugglers = TWIN("twin-jugglers", in_order);
const hes_model hes__problem_twin_jugglers_swapped = TWIN("twin-jugglers-swapped", swapped);
