/*
 * mech_rimless_wheel.c - a mechanical model for the mechanical layer of hes,
 * as a complete program to copy: the rimless wheel of rimless_wheel.c, but
 * described by its mass matrix, gravity and contact constraints only.  The
 * library derives the stance dynamics, the heelstrike guard, the impact law
 * and the saltation matrix.
 *
 * Coordinates along the slope (x downhill, y normal to the slope), stance
 * foot at the origin.  The hub is a point mass m at q = (x, y); spokes of
 * length l, 2a apart, massless.  Gravity (g sin gamma, -g cos gamma) m.
 * Constraints (unilateral, plastic):
 *     "stance foot":  a_0(q) = |q| - l            (the stance spoke)
 *     "next foot":    a_1(q) = |q - F| - l,  F = (2 l sin a, 0)
 * Mode "stance" holds a_0 through the chart theta -> q = l (sin theta,
 * cos theta) (theta: stance spoke from the slope normal), so the library's
 * reduced dynamics is theta'' = (g / l) sin(theta + gamma).  Transition
 * "heelstrike": a_1 activates (the next spoke lands); the plastic impact
 * keeps the hub velocity perpendicular to the new spoke; the stance foot must
 * separate (d|q|/dt >= 0 afterwards); then the legs are relabelled:
 * theta+ = angle of q - F.  Closed form: omega+ = cos(2a) omega-, the single
 * nontrivial multiplier is cos^2(2a).
 *
 * Build against the installed library:
 *     cc mech_rimless_wheel.c $(pkg-config --cflags --libs hes) -lm
 * or as a plugin for `hes analyze --model ./mech_rimless_wheel.so --check`:
 *     cc -shared -fPIC -DHES_PLUGIN mech_rimless_wheel.c $(pkg-config --cflags hes) \
 *         -o mech_rimless_wheel.so
 */
#include <math.h>
#include <stdio.h>

#include <hes.h>

enum { P_M, P_G, P_L, P_A, P_GAMMA };

static int mass(const double *q, const double *p, double *M, void *data)
{
    (void)q; (void)data;
    M[0] = p[P_M]; M[1] = 0.0;
    M[2] = 0.0;    M[3] = p[P_M];
    return 0;
}

static int gravity(const double *q, const double *qd, const double *u, const double *p,
                   double *f, void *data)
{
    (void)q; (void)qd; (void)u; (void)data;
    f[0] = p[P_M] * p[P_G] * sin(p[P_GAMMA]);
    f[1] = -p[P_M] * p[P_G] * cos(p[P_GAMMA]);
    return 0;
}

static int stance_foot(const double *q, const double *p, double *a, void *data)
{
    (void)data;
    a[0] = hypot(q[0], q[1]) - p[P_L];
    return 0;
}

static int next_foot(const double *q, const double *p, double *a, void *data)
{
    (void)data;
    a[0] = hypot(q[0] - 2 * p[P_L] * sin(p[P_A]), q[1]) - p[P_L];
    return 0;
}

/* the stance spoke held: q = l (sin theta, cos theta) */
static int stance_chart(const double *z, const double *p, double *q, void *data)
{
    (void)data;
    q[0] = p[P_L] * sin(z[0]);
    q[1] = p[P_L] * cos(z[0]);
    return 0;
}

static int stance_chart_dz(const double *z, const double *p, double *J, void *data)
{
    (void)data;
    J[0] = p[P_L] * cos(z[0]);
    J[1] = -p[P_L] * sin(z[0]);
    return 0;
}

static int stance_chart_acc(const double *z, const double *zd, const double *p, double *a,
                            void *data)
{
    (void)data;
    a[0] = -p[P_L] * sin(z[0]) * zd[0] * zd[0];
    a[1] = -p[P_L] * cos(z[0]) * zd[0] * zd[0];
    return 0;
}

/* relabel: the new stance foot is F */
static int relabel(const double *q, const double *p, double *z, void *data)
{
    (void)data;
    z[0] = atan2(q[0] - 2 * p[P_L] * sin(p[P_A]), q[1]);
    return 0;
}

/* Jacobians left NULL: the library uses central differences. */
static const hes_mech_constraint constraints[] = {
    { "stance foot", stance_foot, NULL, 0.0, 1, 0, NULL, NULL, NULL, 0, 0, NULL },
    { "next foot", next_foot, NULL, 0.0, 1, 0, NULL, NULL, NULL, 0, 0, NULL },
};

static const hes_mech wheel = {
    .name = "rimless wheel hub", .d = 2, .mass = mass, .force = gravity,
    .n_constraints = 2, .constraints = constraints,
};

static const int held[] = { 0 };
static const hes_mech_mode stance = {
    .mech = &wheel, .n_active = 1, .active = held, .k = 1, .chart = stance_chart,
    .chart_dz = stance_chart_dz, .chart_acc = stance_chart_acc,
};

static const int after[] = { 1 }, separate[] = { 0 };
static const hes_mech_transition heelstrike = {
    .from = &stance, .to = &stance, .kind = HES_MECH_ACTIVATE, .constraint = 1,
    .n_after = 1, .after = after, .n_separate = 1, .separate = separate,
    .to_chart = relabel,
};

static const char *const names[] = { "theta", "omega" };
static const hes_mode modes[] = {
    { .name = "stance", .dim = 2, .state_names = names, .field = hes_mech_field,
      .field_dx = hes_mech_field_dx, .data = (void *)&stance },
};
static const hes_transition transitions[] = {
    { .name = "heelstrike", .from = 0, .to = 0, .direction = HES_DOWN,
      .guard = hes_mech_guard, .reset = hes_mech_reset, .data = (void *)&heelstrike },
};
static const hes_param params[] = {
    { "m", 1.0, "kg", "hub mass", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "g", 9.81, "m/s^2", "gravity", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "l", 1.0, "m", "spoke length", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "a", 0.3, "rad", "half the angle between spokes", HES_PARAM_POSITIVE, 0.0, 0.7, 0, 0 },
    { "gamma", 0.08, "rad", "slope angle", HES_PARAM_POSITIVE, 0.0, 0.5, 0, 0 },
};

static int guess(double *p, double *x0, void *data)
{
    (void)data;
    x0[0] = -p[P_A]; /* just after a heelstrike */
    x0[1] = 1.0;
    return 0;
}

static const int omega[] = { 1 }, sequence[] = { 0 };

static const hes_model model = {
    .abi = HES_MODEL_ABI,
    .name = "mech-rimless-wheel",
    .description = "rimless wheel from its mass matrix and contact constraints",
    .n_modes = 1, .modes = modes,
    .n_transitions = 1, .transitions = transitions,
    .n_params = 5, .params = params,
    .orbit = { .mode = 0, .section = 0, .n_sequence = 1, .sequence = sequence,
               .n_free_states = 1, .free_states = omega, .n_residual = 1,
               .residual = omega, .guess = guess },
    .integrator = HES_ADAMS,
    .describe_error = hes_mech_describe_error,
};

#ifdef HES_PLUGIN
/* Built as a plugin (-DHES_PLUGIN, a shared module): the entry point hes
 * calls. */
const hes_model *hes_plugin_model(void);
const hes_model *hes_plugin_model(void)
{
    return &model;
}
#else
int main(void)
{
    hes_system *sys;
    hes_analysis res;
    hes_error msg;
    hes_status st = hes_system_new(&model, &sys, &msg);
    if (st == HES_OK)
        st = hes_analyze(sys, 1, &res);
    if (st != HES_OK) {
        fprintf(stderr, "%s: %s\n", hes_strerror(st), sys ? hes_system_errmsg(sys) : msg.message);
        return 1;
    }
    const double *p = hes_system_params(sys);
    double closed = cos(2 * p[P_A]) * cos(2 * p[P_A]);
    /* the impact at the orbit's heelstrike, from the library's impact law */
    const hes_event *ev = &res.orbit.traj.events[res.orbit.traj.n_events - 1];
    double q[2], vm[2], vp[2], impulse[1];
    hes_mech_impact(&heelstrike, ev->x_minus, p, q, vm, vp, impulse);
    double ratio = hypot(vp[0], vp[1]) / hypot(vm[0], vm[1]);
    printf("step period %.6f s, omega after impact %.6f rad/s\n", res.orbit.period,
           res.orbit.x0[1]);
    printf("impact: |v+|/|v-| = %.12f (closed form cos 2a = %.12f), impulse %.4f N s\n",
           ratio, cos(2 * p[P_A]), impulse[0]);
    printf("psi = %.12f, closed form cos^2(2a) = %.12f, difference %.2e\n", res.stab.psi,
           closed, fabs(res.stab.psi - closed));
    printf("finite-difference check of the return map: %.2e\n", res.check_max_abs_diff);
    int ok = fabs(res.stab.psi - closed) < 1e-7 && fabs(ratio - cos(2 * p[P_A])) < 1e-9 &&
             res.check_max_abs_diff < 1e-6;
    hes_analysis_free(&res);
    hes_system_destroy(sys);
    return ok ? 0 : 1;
}
#endif
