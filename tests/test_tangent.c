/*
 * test_tangent.c - a mode whose state lives on a manifold (hes_mode's
 * tangent-space chart): a torque-free rigid body whose attitude is a unit
 * quaternion, analysed in tangent coordinates.
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
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

enum { P_I1, P_I2, P_I3, P_SPIN, P_T, P_AXIS, P_PERTURB, N_PARAMS };
enum { NX = 8, NT = 7 };

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
static const char *const tnames[] = { "rx", "ry", "rz", "wx", "wy", "wz", "tau" };

static const hes_mode modes[] = {
    { .name = "spin", .dim = NX, .state_names = states, .field = field, .field_dx = field_dx,
      .tdim = NT, .retract = retract, .local = local, .tangent = tangent,
      .normalize = normalize, .tangent_names = tnames },
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

static hes_model body_model(int axis)
{
    hes_model m = {
        .abi = HES_MODEL_ABI,
        .name = "rigid-body",
        .description = "torque-free rigid body, attitude as a unit quaternion",
        .n_modes = 1,
        .modes = modes,
        .n_transitions = 1,
        .transitions = transitions,
        .n_params = N_PARAMS,
        .params = params,
        .orbit = { .mode = 0, .section = 0, .n_sequence = 1, .sequence = sequence,
                   .n_free_states = 2, .free_states = axis == 1 ? transverse_y : transverse_z,
                   .n_residual = 2, .residual = axis == 1 ? transverse_y : transverse_z,
                   .guess = guess },
        .integrator = HES_ADAMS,
    };
    return m;
}

static hes_system *body(const hes_model *m, int axis, double I3)
{
    hes_system *sys = test_system_of(m);
    ck_assert_ptr_nonnull(sys);
    ck_assert_int_eq(hes_system_set_param(sys, "axis", axis), HES_OK);
    ck_assert_int_eq(hes_system_set_param(sys, "I3", I3), HES_OK);
    return sys;
}

static double qnorm_err(const double *x)
{
    return fabs(sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3]) - 1.0);
}

/* The multipliers within tol of 1. */
static int count_at_one(const hes_stability *st, double tol)
{
    int k = 0;
    for (int i = 0; i < st->n_mult; i++)
        k += hypot(st->re[i] - 1.0, st->im[i]) < tol;
    return k;
}

/* max |M - M_fd| / max(1, max |M_fd|), and the fd matrix's size */
static double check_rel(const hes_analysis *a)
{
    int n = a->mono.n;
    const double *M = a->mono.proj;
    double big = 1.0;
    for (int i = 0; i < n * n; i++)
        big = fmax(big, fabs(M[i]));
    return a->check_max_abs_diff / big;
}

START_TEST(intermediate_axis_is_unstable)
{
    hes_model m = body_model(1);
    hes_system *sys = body(&m, 1, 3.0);
    hes_analysis a;
    ck_assert_msg(hes_analyze(sys, 1, &a) == HES_OK, "%s", hes_system_errmsg(sys));
    double I1 = 1, I2 = 2, I3 = 3, W = 1, T = 2 * M_PI;
    double lambda = W * sqrt((I2 - I1) * (I3 - I2) / (I1 * I3)), mu = exp(lambda * T);
    ck_assert_int_eq(a.orbit.n, NX);
    ck_assert_int_eq(a.mono.n, NT);
    ck_assert_int_eq(hes_analysis_dim(&a), NX);
    ck_assert_int_eq(hes_analysis_tangent_dim(&a), NT);
    ck_assert_int_ge(a.orbit.iterations, 1); /* the guess was off */
    ck_assert_int_eq(a.stab.n_mult, NT - 1);
    double rel = fabs(a.stab.re[0] - mu) / mu;
    printf("intermediate axis: leading multiplier %.15g, exp(lambda T) = %.15g (rel. %.2g); "
           "smallest %.15g, exp(-lambda T) = %.15g\n", a.stab.re[0], mu, rel,
           a.stab.re[NT - 2], 1 / mu);
    ck_assert_msg(rel < 1e-8, "leading multiplier %.15g, exp(lambda T) = %.15g",
                  a.stab.re[0], mu);
    ck_assert(fabs(a.stab.im[0]) == 0.0);
    ck_assert_msg(fabs(a.stab.re[NT - 2] * mu - 1.0) < 1e-8, "smallest %.15g, exp(-lambda T) %.15g",
                  a.stab.re[NT - 2], 1 / mu);
    /* the four symmetry multipliers: three attitudes, the spin rate */
    ck_assert_int_eq(count_at_one(&a.stab, 1e-5), 4);
    ck_assert_int_eq(a.stab.verdict, HES_UNSTABLE);
    /* the analysed matrix against central differences of the full flow */
    ck_assert(a.have_check);
    printf("intermediate axis: max |P - P_fd| = %.3g (relative %.3g)\n", a.check_max_abs_diff,
           check_rel(&a));
    ck_assert_msg(check_rel(&a) < 1e-6, "fd check %.3g", check_rel(&a));
    /* the orbit: spin about y, transverse rates solved to 0 */
    ck_assert(fabs(a.orbit.x0[5] - W) < 1e-12);
    ck_assert(fabs(a.orbit.x0[4]) < 1e-12 && fabs(a.orbit.x0[6]) < 1e-12);
    for (int k = 0; k < a.orbit.traj.n_events; k++)
        ck_assert(qnorm_err(a.orbit.traj.events[k].x_plus) < 1e-12);
    char *json = hes_analysis_json(sys, &a);
    ck_assert_ptr_nonnull(json);
    const char *names = strstr(json, "\"tangent_names\": [");
    ck_assert_ptr_nonnull(names);
    for (int k = 0; k < NT; k++) { /* in order, before the next key */
        char quoted[16];
        snprintf(quoted, sizeof quoted, "\"%s\"", tnames[k]);
        const char *at = strstr(names, quoted);
        ck_assert_ptr_nonnull(at);
        ck_assert(at < strstr(names, "]"));
        names = at;
    }
    free(json);
    hes_analysis_free(&a);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(major_axis_is_marginal)
{
    hes_model m = body_model(2);
    hes_system *sys = body(&m, 2, 4.0);
    hes_analysis a;
    ck_assert_msg(hes_analyze(sys, 1, &a) == HES_OK, "%s", hes_system_errmsg(sys));
    double I1 = 1, I2 = 2, I3 = 4, W = 1, T = 2 * M_PI;
    double mu = W * sqrt((I3 - I2) * (I3 - I1) / (I1 * I2));
    double complex e = cexp(I * mu * T);
    ck_assert_int_eq(a.stab.n_mult, NT - 1);
    for (int i = 0; i < a.stab.n_mult; i++)
        ck_assert_msg(fabs(a.stab.abs[i] - 1.0) < 1e-8, "|multiplier %d| = %.15g", i,
                      a.stab.abs[i]);
    ck_assert_int_eq(count_at_one(&a.stab, 1e-5), 4);
    int pair = 0;
    for (int i = 0; i < a.stab.n_mult; i++)
        pair += cabs(a.stab.re[i] + I * fabs(a.stab.im[i]) - (creal(e) + I * fabs(cimag(e)))) <
                1e-8;
    printf("major axis: psi %.15g, psi_tol %.3g, the pair exp(+-i mu T) = %.15g +- %.15gi "
           "found %d times, fd check %.3g\n", a.stab.psi, a.stab.psi_tol, creal(e),
           fabs(cimag(e)), pair, check_rel(&a));
    ck_assert_int_eq(pair, 2);
    ck_assert_int_eq(a.stab.verdict, HES_MARGINAL);
    ck_assert_msg(check_rel(&a) < 1e-6, "fd check %.3g", check_rel(&a));
    hes_analysis_free(&a);
    hes_system_destroy(sys);
}
END_TEST

/* normalize: every event's post-event state and every start lie on the
 * unit sphere, over many periods from a start off it. */
START_TEST(normalize_keeps_the_quaternion_unit)
{
    hes_model m = body_model(1);
    hes_system *sys = body(&m, 1, 3.0);
    double x0[NX] = { 1.1, 0.02, 0.0, 0.0, 0.01, 1.0, 0.02, 0.0 };
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.section = 0;
    o.n_section = 20;
    hes_traj tr;
    ck_assert_msg(hes_simulate(sys, 0, 0.0, 0.0, x0, &o, &tr) == HES_OK, "%s",
                  hes_system_errmsg(sys));
    ck_assert_int_eq(tr.n_events, 20);
    double worst = 0;
    for (int k = 0; k < tr.n_phases; k++)
        worst = fmax(worst, qnorm_err(tr.phases[k].x0));
    for (int k = 0; k < tr.n_events; k++)
        worst = fmax(worst, qnorm_err(tr.events[k].x_plus));
    printf("normalize: worst | |q| - 1 | at starts and events over 20 periods: %.3g\n", worst);
    ck_assert(worst < 1e-12);
    hes_traj_free(&tr);
    hes_system_destroy(sys);
}
END_TEST

/* A perturbed start's error after a period, through retract and local,
 * grows as the unstable multiplier says. */
START_TEST(trials_perturb_in_tangent_coordinates)
{
    hes_model m = body_model(1);
    hes_system *sys = body(&m, 1, 3.0);
    hes_analysis a;
    ck_assert_msg(hes_analyze(sys, 0, &a) == HES_OK, "%s", hes_system_errmsg(sys));
    hes_trials t;
    ck_assert_int_eq(hes_trials_run(sys, &a.orbit, 4, 1e-6, 2, 7, 1e-9, &t), HES_OK);
    for (int i = 0; i < 4; i++) {
        const hes_trial *tr = &t.trials[i];
        ck_assert_int_eq(tr->failure, HES_OK);
        ck_assert(qnorm_err(tr->x0) < 1e-15);
        ck_assert(tr->error[1] < 1e-6 * a.stab.psi * a.stab.psi * 2 + 1e-9);
    }
    ck_assert_int_eq(t.converged, 0);
    hes_trials_free(&t);
    hes_analysis_free(&a);
    hes_system_destroy(sys);
}
END_TEST

static hes_status validate(hes_model *m, char *msg)
{
    hes_error err;
    hes_system *sys = NULL;
    hes_status st = hes_system_new(m, &sys, &err);
    snprintf(msg, 512, "%s", err.message);
    hes_system_destroy(sys);
    return st;
}

START_TEST(validation_of_charts)
{
    hes_model m = body_model(1);
    hes_mode md = modes[0];
    char msg[512];
    m.modes = &md;
    ck_assert_int_eq(validate(&m, msg), HES_OK);
    md.local = NULL; /* a chart is all three */
    ck_assert_int_eq(validate(&m, msg), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg, "local is NULL"));
    md = modes[0];
    md.retract = NULL;
    md.local = NULL;
    md.tangent = NULL; /* tdim < dim without a chart */
    ck_assert_int_eq(validate(&m, msg), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg, "needs a chart"));
    md = modes[0];
    md.tdim = NX + 1;
    ck_assert_int_eq(validate(&m, msg), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg, "tdim"));
    md = modes[0];
    static const int beyond[] = { 3, 7 }; /* 7 is a state index, not a tangent one */
    m.orbit.free_states = beyond;
    ck_assert_int_eq(validate(&m, msg), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg, "tangent space"));
}
END_TEST

/* What does not support a state on a manifold says so, naming the mode. */
START_TEST(refusals_name_the_mode)
{
    hes_model m = body_model(1);
    hes_system *sys = body(&m, 1, 3.0);
    hes_colloc *c = NULL;
    ck_assert_int_eq(hes_colloc_new(sys, NULL, &c), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "mode 'spin'"));
    hes_analysis a;
    ck_assert_msg(hes_analyze(sys, 0, &a) == HES_OK, "%s", hes_system_errmsg(sys));
    hes_shape *sh = NULL;
    ck_assert_int_eq(hes_shape_new(sys, &a, 0, NULL, &sh), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "mode 'spin'"));
    hes_continuation cont;
    hes_error err;
    ck_assert_int_eq(hes_continue(sys, "I1", 1.0, 1.1, NULL, &cont, &err), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.message, "mode 'spin'"));
    hes_continuation_free(&cont);
    hes_analysis_free(&a);
    hes_system_destroy(sys);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("tangent");
    TCase *tc = tcase_create("rigid body");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, intermediate_axis_is_unstable);
    tcase_add_test(tc, major_axis_is_marginal);
    tcase_add_test(tc, normalize_keeps_the_quaternion_unit);
    tcase_add_test(tc, trials_perturb_in_tangent_coordinates);
    tcase_add_test(tc, validation_of_charts);
    tcase_add_test(tc, refusals_name_the_mode);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(suite());
}
