/*
 * status_models.c - test-only models of tests/test_statuses.c (declared in
 * testmodels.h), each a way to provoke one error status with a real input.
 *
 * test_status_probe: a ball kicked at every bounce, state [y, v] in mode
 * "air" (y' = v, v' = -g).  Transitions:
 *   "bounce": guard y + h_bounce (v + v*) crossed downward, reset
 *             [y, -e v + w] (the kick w keeps it bouncing);
 *   "apex":   guard (1 - h_apex) v + h_apex (y - y*) crossed downward,
 *             identity (the section);
 * with v* = w / (1 - e) the landing speed and y* = v*^2 / (2 g) the apex
 * height of the orbit (psi = e).  Both guards vanish at the orbit's events
 * ([0, -v*] and [y*, 0]) whatever h_bounce and h_apex, which only turn the
 * guards' gradients there, Dxg = [1, h_bounce] and [h_apex, 1 - h_apex]:
 * shape parameters.  With the defaults (e = 0.5, w = 2, g = 9.81) v* = 4
 * and y* = 0.8155; the bounce grazes (Dxg F = -4 - 9.81 h_bounce = 0) at
 * h_bounce = -0.408, the apex section (Dxg F = -9.81 (1 - h_apex)) at
 * h_apex = 1.
 * The parameter "fault" (a bit mask, STATUS_FAULT_*) breaks one callback
 * each: reset_dx fails (code 5) or is NaN, the guess fails, refuses any
 * h_bounce other than 0 or is 10% off, the field is NaN below y = -0.25, or
 * it refuses states below y = -1000 (code 3, "the ball is inside the
 * floor"), as a model refuses states off its physical domain.  (Far below
 * the floor: the integrator's trial steps must not reach the refused region
 * before the bounce is found, and still may after a fall of some 100 m.)  Besides, reset_dx fails (code 5) for
 * h_bounce > 0.5 and is NaN for h_bounce < -0.5, so that shape values, not
 * only faults, reach them.
 *
 * test_status_spin: x'' = -omega^2 x with omega = 1e4 and no event: far too
 * many steps for any budget over a long time.
 *
 * test_status_mech_mode: a point mass on a line (d = 1) whose mass is the
 * parameter p[0] (a negative one is not positive definite).
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "testmodels.h"

enum { P_E, P_W, P_G, P_HB, P_HA, P_FAULT, P_N };

static int faulty(const double *p, int bit) { return ((int)p[P_FAULT] & bit) != 0; }

static int probe_field(double t, const double *x, const double *p, double *f, void *d)
{
    (void)t; (void)d;
    if (faulty(p, STATUS_FAULT_FLOOR) && x[0] < -1000.0)
        return 3;
    f[0] = x[1];
    f[1] = faulty(p, STATUS_FAULT_FIELD_NAN) && x[0] < -0.25 ? NAN : -p[P_G];
    return 0;
}

/* The landing speed of the orbit, v* = w / (1 - e). */
static double vstar(const double *p) { return p[P_W] / (1.0 - p[P_E]); }

static int bounce_guard(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)d;
    g[0] = x[0] + p[P_HB] * (x[1] + vstar(p));
    return 0;
}

static int bounce_guard_dx(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)x; (void)d;
    g[0] = 1.0;
    g[1] = p[P_HB];
    return 0;
}

static int zero_dt(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    g[0] = 0.0;
    return 0;
}

static int bounce_reset(double t, const double *x, const double *p, double *r, void *d)
{
    (void)t; (void)d;
    r[0] = x[0];
    r[1] = -p[P_E] * x[1] + p[P_W];
    return 0;
}

static int bounce_reset_dx(double t, const double *x, const double *p, double *R, void *d)
{
    (void)t; (void)x; (void)d;
    int nan = faulty(p, STATUS_FAULT_RESET_DX_NAN) || p[P_HB] < -0.5;
    R[0] = 1.0; R[1] = 0.0;
    R[2] = 0.0; R[3] = nan ? NAN : -p[P_E];
    return faulty(p, STATUS_FAULT_RESET_DX_FAILS) || p[P_HB] > 0.5 ? 5 : 0;
}

static int bounce_reset_dt(double t, const double *x, const double *p, double *r, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    r[0] = r[1] = 0.0;
    return 0;
}

static int apex_guard(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)d;
    double v = vstar(p);
    g[0] = x[1] * (1.0 - p[P_HA]) + p[P_HA] * (x[0] - v * v / (2.0 * p[P_G]));
    return 0;
}

static int apex_guard_dx(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)x; (void)d;
    g[0] = p[P_HA];
    g[1] = 1.0 - p[P_HA];
    return 0;
}

static int probe_guess(double *p, double *x0, void *d)
{
    (void)d;
    double v = vstar(p);
    if (faulty(p, STATUS_FAULT_GUESS_FAILS) || !(v > 0) ||
        (faulty(p, STATUS_FAULT_GUESS_PICKY) && p[P_HB] != 0.0))
        return 1;
    x0[0] = v * v / (2.0 * p[P_G]) * (faulty(p, STATUS_FAULT_GUESS_OFF) ? 1.1 : 1.0);
    x0[1] = 0.0;
    return 0;
}

static const char *probe_describe(int code, void *d)
{
    (void)d;
    return code == 3 ? "the ball is inside the floor"
         : code == 5 ? "the floor sensor is saturated" : NULL;
}

static const char *const probe_states[] = { "y", "v" };
static const hes_mode probe_modes[] = {
    { .name = "air", .dim = 2, .state_names = probe_states, .field = probe_field },
};
static const hes_transition probe_transitions[] = {
    { "bounce", 0, 0, HES_DOWN, bounce_guard, bounce_reset, bounce_guard_dx, zero_dt,
      bounce_reset_dx, bounce_reset_dt, 0, NULL },
    { "apex", 0, 0, HES_DOWN, apex_guard, NULL, apex_guard_dx, zero_dt, NULL, NULL, 0, NULL },
};
static const hes_param probe_params[P_N] = {
    { "e", 0.5, "1", "coefficient of restitution", 0, 0.0, 3.0, 0, 0 },
    { "w", 2.0, "m/s", "kick at every bounce", 0, -10.0, 10.0, 0, 0 },
    { "g", 9.81, "m/s^2", "gravity", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "h_bounce", 0.0, "s/m", "tilt of the floor guard's gradient", HES_PARAM_SHAPE,
      -HUGE_VAL, HUGE_VAL, -0.1, 0.1 },
    { "h_apex", 0.0, "1/m", "tilt of the apex guard's gradient", HES_PARAM_SHAPE,
      -HUGE_VAL, HUGE_VAL, -0.1, 0.1 },
    { "fault", 0.0, "1", "bit mask of broken callbacks (STATUS_FAULT_*)", 0, 0.0, 127.0, 0, 0 },
};
static const int probe_sequence[] = { 0, 1 };
static const int probe_free[] = { 0 };

const hes_model test_status_probe = {
    .abi = HES_MODEL_ABI,
    .name = "status-probe",
    .description = "kicked bouncing ball with switchable faults (test model)",
    .n_modes = 1, .modes = probe_modes,
    .n_transitions = 2, .transitions = probe_transitions,
    .n_params = P_N, .params = probe_params,
    .orbit = { .mode = 0, .section = 1, .n_sequence = 2, .sequence = probe_sequence,
               .n_free_states = 1, .free_states = probe_free,
               .n_residual = 1, .residual = probe_free, .guess = probe_guess },
    .integrator = HES_ADAMS,
    .max_phase_time = 100.0,
    .describe_error = probe_describe,
};

/* ------------------------------------------------------------------ spin */

static int spin_field(double t, const double *x, const double *p, double *f, void *d)
{
    (void)t; (void)d;
    f[0] = x[1];
    f[1] = -p[0] * p[0] * x[0];
    return 0;
}

static const hes_mode spin_modes[] = { { .name = "spin", .dim = 2, .field = spin_field } };
static const hes_param spin_params[] = {
    { "omega", 1e4, "1/s", "angular frequency", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
};

const hes_model test_status_spin = {
    .abi = HES_MODEL_ABI, .name = "status-spin", .description = "a fast oscillator (test model)",
    .n_modes = 1, .modes = spin_modes, .n_params = 1, .params = spin_params,
    .integrator = HES_ADAMS, .max_phase_time = 100.0,
};

/* ---------------------------------------------------------- point mass */

static int mass_of(const double *q, const double *p, double *out, void *d)
{
    (void)q; (void)d;
    out[0] = p[0];
    return 0;
}

static int no_force(const double *q, const double *qd, const double *u, const double *p,
                    double *out, void *d)
{
    (void)q; (void)qd; (void)u; (void)p; (void)d;
    out[0] = 0.0;
    return 0;
}

static const hes_mech point_mass = {
    .name = "point-mass", .d = 1, .mass = mass_of, .force = no_force,
};

const hes_mech_mode test_status_mech_mode = {
    .mech = &point_mass, .n_active = 0, .active = NULL, .k = 1,
};
