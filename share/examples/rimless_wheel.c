/*
 * rimless_wheel.c - how to write your own model for hes, as a complete
 * program: a rimless wheel rolling down a slope (McGeer 1990), defined as a
 * hes_model, analysed with hes_analyze(), and compared with its closed form.
 *
 * Model: a point mass on massless spokes of length l, spokes 2 a apart,
 * slope angle gamma.  Mode "stance", state [theta, omega], theta the stance
 * spoke's angle from vertical (positive downhill):
 *     theta' = omega,  omega' = (g / l) sin(theta)
 * Transition "heelstrike" stance -> stance: guard theta - (gamma + a),
 * crossed upward; reset [theta - 2 a, cos(2 a) omega] (angular momentum
 * about the new contact is conserved).
 * Closed form: omega+^2 after the next impact is cos^2(2a) (omega+^2 +
 * 4 (g/l) sin(gamma) sin(a)), a linear map in omega^2, so the steady gait has
 * the single nontrivial multiplier cos^2(2 a).
 *
 * Build against the installed library:
 *     cc rimless_wheel.c $(pkg-config --cflags --libs hes) -lm -o rimless_wheel
 * Run:  ./rimless_wheel [a gamma]      (exit status 0 when psi matches)
 * Or as a plugin for the hes program (share/examples/Makefile):
 *     cc -shared -fPIC -DHES_PLUGIN rimless_wheel.c $(pkg-config --cflags hes) \
 *        -o rimless_wheel.so
 *     hes analyze --model ./rimless_wheel.so -p a=0.3
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <hes.h>

enum { P_G, P_L, P_A, P_GAMMA };

static int field(double t, const double *x, const double *p, double *f, void *data)
{
    (void)t; (void)data;
    f[0] = x[1];
    f[1] = p[P_G] / p[P_L] * sin(x[0]);
    return 0;
}

/* Optional Jacobians: leave them NULL and hes uses central differences. */
static int field_dx(double t, const double *x, const double *p, double *J, void *data)
{
    (void)t; (void)data;
    J[0] = 0.0;                               /* d theta' / d theta  (column-major) */
    J[1] = p[P_G] / p[P_L] * cos(x[0]);       /* d omega' / d theta */
#ifdef WHEEL_WRONG_JACOBIAN
    J[1] *= 1.001;                            /* the test suite's wrong-Jacobian build */
#endif
    J[2] = 1.0;                               /* d theta' / d omega */
    J[3] = 0.0;                               /* d omega' / d omega */
    return 0;
}

static int heelstrike_guard(double t, const double *x, const double *p, double *g, void *data)
{
    (void)t; (void)data;
    g[0] = x[0] - (p[P_GAMMA] + p[P_A]);
    return 0;
}

static int heelstrike_reset(double t, const double *x, const double *p, double *r, void *data)
{
    (void)t; (void)data;
    r[0] = x[0] - 2.0 * p[P_A];
    r[1] = cos(2.0 * p[P_A]) * x[1];
    return 0;
}

/* Initial guess of the orbit: just after a heelstrike, rolling forward. */
static int guess(double *p, double *x0, void *data)
{
    (void)data;
    x0[0] = p[P_GAMMA] - p[P_A];
    x0[1] = 1.0;
    return 0;
}

static const char *const names[] = { "theta", "omega" };
static const hes_mode modes[] = { { .name = "stance", .dim = 2, .state_names = names,
                                    .field = field, .field_dx = field_dx } };
static const hes_transition transitions[] = {
    { .name = "heelstrike", .from = 0, .to = 0, .direction = HES_UP,
      .guard = heelstrike_guard, .reset = heelstrike_reset },
};
static const hes_param params[] = {
    { "g", 9.81, "m/s^2", "gravity", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "l", 1.0, "m", "spoke length", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "a", 0.3, "rad", "half the angle between spokes", HES_PARAM_POSITIVE, 0.0, 0.7, 0, 0 },
    { "gamma", 0.08, "rad", "slope angle", HES_PARAM_POSITIVE, 0.0, 0.5, 0, 0 },
};
static const int free_states[] = { 1 };   /* solve for omega at the section... */
static const int residual[] = { 1 };      /* ...so that it returns to itself */
static const int sequence[] = { 0 };

#ifndef WHEEL_ABI
#define WHEEL_ABI HES_MODEL_ABI /* the test of a wrong-version plugin sets another */
#endif
static const hes_model rimless_wheel = {
    .abi = WHEEL_ABI,
    .name = "rimless-wheel",
    .description = "rimless wheel rolling down a slope (McGeer 1990)",
    .n_modes = 1, .modes = modes,
    .n_transitions = 1, .transitions = transitions,
    .n_params = 4, .params = params,
    .orbit = {
        .mode = 0, .section = 0, .n_sequence = 1, .sequence = sequence,
        .period_param = NULL,                 /* autonomous */
        .n_free_states = 1, .free_states = free_states,
        .n_residual = 1, .residual = residual,
        .guess = guess,
    },
    .integrator = HES_ADAMS,
};

#ifdef HES_PLUGIN
/* Built as a plugin (-DHES_PLUGIN, a shared module): the entry point hes
 * calls for `hes analyze --model ./rimless_wheel.so`. */
const hes_model *hes_plugin_model(void);
const hes_model *hes_plugin_model(void)
{
    return &rimless_wheel;
}
#else
int main(int argc, char **argv)
{
    hes_system *sys;
    hes_error msg;
    if (hes_system_new(&rimless_wheel, &sys, &msg) != HES_OK) {
        fprintf(stderr, "could not create the system: %s\n", msg.message);
        return 2;
    }
    if (argc == 3 && (hes_system_set_param(sys, "a", atof(argv[1])) != HES_OK ||
                      hes_system_set_param(sys, "gamma", atof(argv[2])) != HES_OK)) {
        fprintf(stderr, "%s\n", hes_system_errmsg(sys));
        return 2;
    }
    hes_analysis res;
    hes_status st = hes_analyze(sys, 1, &res);
    if (st != HES_OK) {
        fprintf(stderr, "%s: %s\n", hes_strerror(st), hes_system_errmsg(sys));
        hes_system_destroy(sys);
        return hes_status_exit_code(st);
    }
    double a;
    hes_system_get_param(sys, "a", &a);
    double closed = cos(2 * a) * cos(2 * a);
    printf("rimless wheel: step period %.6f s, omega after impact %.6f rad/s\n",
           res.orbit.period, res.orbit.x0[1]);
    printf("psi = %.12f, closed form cos^2(2a) = %.12f, difference %.2e\n",
           res.stab.psi, closed, fabs(res.stab.psi - closed));
    printf("finite-difference check of the return map: %.2e\n", res.check_max_abs_diff);
    int ok = res.stab.n_mult == 1 && fabs(res.stab.psi - closed) < 1e-8 &&
             res.check_max_abs_diff < 1e-6;
    hes_analysis_free(&res);
    hes_system_destroy(sys);
    return ok ? 0 : 1;
}
#endif
