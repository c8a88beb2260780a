/*
 * simplest_walker.c - a walking model for hes, written as a user writes one:
 * the simplest walking model (Garcia, Chatterjee, Ruina, Coleman, "The
 * simplest walking model: stability, complexity, and scaling", J. Biomech.
 * Eng. 120, 1998, eqs. 3-4: a point-mass hip, infinitesimal feet), analysed
 * at the standard section of walking papers, just after the plastic
 * heelstrike, and at a section in mid-step.
 *
 * Mode "walk", state [theta, phi, theta', phi'] (stance-leg angle from the
 * slope normal, angle between the legs; rad and rad/s), slope gamma:
 *     theta'' = sin(theta - gamma)
 *     phi''   = sin(theta - gamma) + (theta'^2 - cos(theta - gamma)) sin(phi)
 * "heelstrike": guard phi - 2 theta crossed upward (the swing foot reaches
 * the slope behind the stance foot; the downward crossing near theta = 0 is
 * the foot scuffing, which the model ignores); plastic impact and leg swap
 *     theta+ = -theta,  phi+ = -2 theta,  theta'+ = c theta',
 *     phi'+ = c (1 - c) theta',  c = cos(2 theta),
 * a reset whose Jacobian has rank 2 (the post-impact state does not depend on
 * phi and phi'), so one multiplier is exactly 0.  "midstance": guard theta
 * crossed downward, identity reset.
 *
 * At gamma = 0.009 (paper Fig. 4) there are two gaits: the long-period gait,
 * theta = 0.2003109, theta' = -0.1998325 just after heelstrike, stable
 * (multipliers -0.1901 +- 0.5576i and 0), and the short-period gait,
 * theta = 0.1939374, theta' = -0.2038669, unstable.  The orbit search starts
 * from the long gait; --x0 (hes analyze) or hes_system_set_orbit_start
 * selects the other.
 *
 * Build and run against the installed library (or see README.md for the
 * build tree):
 *     cc simplest_walker.c $(pkg-config --cflags --libs hes) -lm -o simplest_walker
 *     ./simplest_walker      (exit status 0 when both sections agree to 1e-9)
 * Or as a plugin:
 *     cc -shared -fPIC -DHES_PLUGIN simplest_walker.c $(pkg-config --cflags hes) \
 *        -o simplest_walker.so
 *     hes analyze --model ./simplest_walker.so
 *     hes analyze --model ./simplest_walker.so --x0 0.1939374,0.3878747,-0.2038669,-0.0145
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <hes.h>

extern const hes_model simplest_walker_heelstrike, simplest_walker_midstance;

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
    { .name = "walk", .dim = 4, .state_names = walk_states,
      .field = walk_field, .field_dx = walk_field_dx },
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

const hes_model simplest_walker_heelstrike = {
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

const hes_model simplest_walker_midstance = {
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


#ifdef HES_PLUGIN
/* Built as a plugin (-DHES_PLUGIN): the section just after heelstrike. */
const hes_model *hes_plugin_model(void)
{
    return &simplest_walker_heelstrike;
}
#elif !defined(SIMPLEST_WALKER_NO_MAIN) /* the test suite links the models only */

/* Analyses one model (from x0 when not NULL); prints and returns the status. */
static hes_status analyse(const hes_model *m, const double *x0, hes_analysis *a)
{
    hes_system *sys;
    hes_status made = hes_system_new(m, &sys, NULL);
    if (made != HES_OK)
        return made;
    hes_status st = x0 ? hes_system_set_orbit_start(sys, x0) : HES_OK;
    if (st == HES_OK)
        st = hes_analyze(sys, 0, a);
    if (st != HES_OK) {
        fprintf(stderr, "%s: %s: %s\n", m->name, hes_strerror(st), hes_system_errmsg(sys));
    } else {
        printf("%s: period %.9f s, theta %.9f, theta' %.9f\n", m->name, a->orbit.period,
               a->orbit.x0[0], a->orbit.x0[2]);
        for (int k = 0; k < a->stab.n_mult; k++)
            printf("  multiplier %d: % .12f %+.12fi  |.| = %.12f\n", k + 1, a->stab.re[k],
                   a->stab.im[k], a->stab.abs[k]);
        printf("  %s: psi = %.12f\n", hes_verdict_name(a->stab.verdict), a->stab.psi);
    }
    hes_system_destroy(sys);
    return st;
}

int main(void)
{
    hes_analysis heel, mid, shortgait;
    if (analyse(&simplest_walker_heelstrike, NULL, &heel) != HES_OK)
        return 1;
    if (analyse(&simplest_walker_midstance, NULL, &mid) != HES_OK) {
        hes_analysis_free(&heel);
        return 1;
    }
    /* the same orbit seen at two sections: the same multipliers (sorted by
     * modulus; a complex pair may come in either order) */
    double worst = 0;
    for (int k = 0; k < heel.stab.n_mult && k < mid.stab.n_mult; k++)
        worst = fmax(worst, fmin(hypot(heel.stab.re[k] - mid.stab.re[k], heel.stab.im[k] - mid.stab.im[k]),
                                 hypot(heel.stab.re[k] - mid.stab.re[k], heel.stab.im[k] + mid.stab.im[k])));
    printf("largest difference between the sections' multipliers: %.2e\n", worst);
    /* the short-period gait, from its state just after heelstrike */
    double th = 0.1939374, thd = -0.2038669;
    const double x0[4] = { th, 2.0 * th, thd, (1.0 - cos(2.0 * th)) * thd };
    int ok = heel.stab.n_mult == mid.stab.n_mult && worst < 1e-9 &&
             heel.stab.verdict == HES_STABLE &&
             analyse(&simplest_walker_heelstrike, x0, &shortgait) == HES_OK;
    if (ok) {
        ok = shortgait.stab.verdict == HES_UNSTABLE && shortgait.orbit.period < heel.orbit.period;
        hes_analysis_free(&shortgait);
    }
    hes_analysis_free(&heel);
    hes_analysis_free(&mid);
    return ok ? 0 : 1;
}
#endif
