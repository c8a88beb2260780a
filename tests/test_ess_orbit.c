/*
 * test_ess_orbit.c - the Jacobian of the ESS integrator's flow against the
 * saltation pipeline of lib/hybrid:
 *
 * 1. a hopping orbit: the undamped hopper-1d is conservative, so every start
 *    is periodic; the same hopper written as a hybrid hes_model (flight and
 *    stance, touchdown and liftoff guards, identity resets) gives the
 *    full-state monodromy Phi = d x(T) / d x0 over one period T (hes_simulate
 *    with sensitivities, hes_saltation at every event); the ESS Jacobian over
 *    the same T converges to it as eps -> 0;
 * 2. the soft trotter's simultaneous touchdown: its ESS form (the body of
 *    trot-soft on massless spring-damper legs that push while compressed:
 *    the field depends on the signs of the two leg event functions) and the
 *    same system as a hybrid model with four contact modes; for a start
 *    perturbed so that the front leg lands first, the ESS Jacobian equals
 *    the B-derivative piece A_both Xi_rear|front Xi_front A_flight of the
 *    pipeline (hes_variational, hes_saltation), for rear-first the other
 *    piece.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hes.h"
#include "testutil.h"

static int verbose(void) { return getenv("HES_TEST_VERBOSE") != NULL; }

/* c = a b, n x n column-major */
static void mul(int n, const double *a, const double *b, double *c)
{
    double t[64];
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int l = 0; l < n; l++)
                s += a[i + n * l] * b[l + n * j];
            t[i + n * j] = s;
        }
    memcpy(c, t, (size_t)(n * n) * sizeof *c);
}

/* max |a - b| / max(1, max |b|) */
static double rel_diff(int n, const double *a, const double *b)
{
    double d = 0, s = 1;
    for (int i = 0; i < n * n; i++) {
        d = fmax(d, fabs(a[i] - b[i]));
        s = fmax(s, fabs(b[i]));
    }
    return d / s;
}

/* least-squares slope of log err against log eps */
static double fitted_order(int k, const double *eps, const double *err)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int q = 0; q < k; q++) {
        double lx = log(eps[q]), ly = log(err[q]);
        sx += lx; sy += ly; sxx += lx * lx; sxy += lx * ly;
    }
    return (k * sxy - sx * sy) / (k * sxx - sx * sx);
}

/* The ESS Jacobian d x(T) / d x0 from (0, x0); *proj: projections taken. */
static void ess_jacobian(hes_ess *ess, const double *x0, double T, double eps, double *J,
                         long *proj)
{
    int n = hes_ess_get_model(ess)->n;
    hes_ess_options o;
    hes_ess_options_init(&o);
    o.eps = eps;
    o.rtol = 1e-12;
    o.atol = 1e-14;
    o.jacobian = 1;
    hes_ess_result r;
    ck_assert_msg(hes_ess_run(ess, &o, 0.0, x0, T, &r) == HES_OK, "%s", hes_ess_errmsg(ess));
    memcpy(J, r.jac, (size_t)(n * n) * sizeof *J);
    *proj = r.n_projections;
    hes_ess_result_free(&r);
}

/* --------------------------------------------- the hopper as a hybrid model
 * Parameters g, k, mass, l0 as hopper-1d's.  Modes flight and stance, state
 * (y, v); touchdown: flight -> stance where g = y - l0 crosses downward;
 * liftoff: stance -> flight where y - l0 crosses upward; identity resets.
 * The two fields agree at y = l0, so the saltation matrices are the
 * identity and Phi is the product of the phases' variational matrices. */
enum { HP_G, HP_K, HP_MASS, HP_L0 };

static int hop_flight(double t, const double *x, const double *p, double *out, void *d)
{
    (void)t; (void)d;
    out[0] = x[1];
    out[1] = -p[HP_G];
    return 0;
}

static int hop_stance(double t, const double *x, const double *p, double *out, void *d)
{
    (void)t; (void)d;
    out[0] = x[1];
    out[1] = -p[HP_G] + p[HP_K] / p[HP_MASS] * (p[HP_L0] - x[0]);
    return 0;
}

static int hop_guard(double t, const double *x, const double *p, double *out, void *d)
{
    (void)t; (void)d;
    out[0] = x[0] - p[HP_L0];
    return 0;
}

static const char *const hop_states[] = { "y", "v" };
static const hes_mode hop_modes[] = {
    { .name = "flight", .dim = 2, .state_names = hop_states, .field = hop_flight },
    { .name = "stance", .dim = 2, .state_names = hop_states, .field = hop_stance },
};
static const hes_transition hop_transitions[] = {
    { "touchdown", 0, 1, HES_DOWN, hop_guard, NULL, NULL, NULL, NULL, NULL, 0, NULL },
    { "liftoff", 1, 0, HES_UP, hop_guard, NULL, NULL, NULL, NULL, NULL, 0, NULL },
};

/* A hybrid model of the given modes and transitions, identity resets,
 * no orbit spec (simulation only). */
static hes_model hybrid_model(const char *name, int n_modes, const hes_mode *modes,
                              int n_transitions, const hes_transition *transitions,
                              int n_params, const hes_param *params)
{
    hes_model m;
    memset(&m, 0, sizeof m);
    m.abi = HES_MODEL_ABI;
    m.name = name;
    m.description = name;
    m.n_modes = n_modes;
    m.modes = modes;
    m.n_transitions = n_transitions;
    m.transitions = transitions;
    m.n_params = n_params;
    m.params = params;
    m.integrator = HES_ADAMS;
    return m;
}

static hes_model hopper_hybrid(void)
{
    const hes_ess_model *e = hes_ess_problem_find("hopper-1d");
    ck_assert_ptr_nonnull(e);
    /* the same parameters (names, defaults) */
    return hybrid_model("hopper-1d-hybrid", 2, hop_modes, 2, hop_transitions, e->n_params,
                        e->params);
}

/* Phi = d x(T) / d x0 of a hybrid model from mode `mode`: the phases'
 * variational matrices and the saltation matrices of the events between
 * them.  *events: the number of events. */
static void pipeline_phi(hes_system *sys, int mode, const double *x0, double T, int n,
                         double *Phi, int *events)
{
    hes_sim_options so;
    hes_sim_options_init(&so);
    so.t_end = T;
    so.sensitivities = 1;
    hes_traj tr;
    ck_assert_msg(hes_simulate(sys, mode, 0.0, 0.0, x0, &so, &tr) == HES_OK, "%s",
                  hes_system_errmsg(sys));
    ck_assert_double_eq_tol(tr.phases[tr.n_phases - 1].t1, T, 1e-12);
    double xi[64];
    for (int i = 0; i < n * n; i++)
        Phi[i] = (i % (n + 1) == 0);
    for (int k = 0; k < tr.n_phases; k++) {
        mul(n, tr.phases[k].A, Phi, Phi);
        if (k < tr.n_events) {
            const hes_event *ev = &tr.events[k];
            ck_assert_int_eq(hes_saltation(sys, ev->transition, ev->tm, ev->x_minus, xi), HES_OK);
            mul(n, xi, Phi, Phi);
        }
    }
    *events = tr.n_events;
    hes_traj_free(&tr);
}

START_TEST(test_ess_jacobian_converges_to_the_monodromy_of_a_hopping_orbit)
{
    /* a start between apex and touchdown, rising: apex 1.1 + 0.5^2 / (2 g) */
    const double g = 9.81, k = 1000, l0 = 1, x0[2] = { 1.1, 0.5 };
    double ya = x0[0] + x0[1] * x0[1] / (2 * g), vt = sqrt(2 * g * (ya - l0));
    double w = sqrt(k), c = g / k, R = sqrt(c * c + vt * vt / (w * w));
    double T = 2 * sqrt(2 * (ya - l0) / g) + (2 * M_PI - 2 * acos(c / R)) / w;
    double y[2];
    ck_assert_int_eq(hes_hopper_1d_exact(NULL, T, x0, y), HES_OK);
    ck_assert_double_eq_tol(y[0], x0[0], 1e-12);   /* T is one period */
    ck_assert_double_eq_tol(y[1], x0[1], 1e-11);

    hes_model hm = hopper_hybrid();
    hes_system *sys;
    hes_error msg;
    ck_assert_msg(hes_system_new(&hm, &sys, &msg) == HES_OK, "%s", msg.message);
    double Phi[4];
    int events;
    pipeline_phi(sys, 0, x0, T, 2, Phi, &events);
    ck_assert_int_eq(events, 2);                   /* touchdown, liftoff */
    /* area preserving: det Phi = 1; the flow direction F(x0) is an
     * eigenvector with multiplier 1 (Phi F(x0) = F(x(T)) = F(x0)) */
    ck_assert_double_eq_tol(Phi[0] * Phi[3] - Phi[1] * Phi[2], 1.0, 1e-8);
    double F[2] = { x0[1], -g };
    ck_assert_double_eq_tol(Phi[0] * F[0] + Phi[2] * F[1], F[0], 1e-7);
    ck_assert_double_eq_tol(Phi[1] * F[0] + Phi[3] * F[1], F[1], 1e-7);

    hes_ess *ess;
    ck_assert_int_eq(hes_ess_new(hes_ess_problem_find("hopper-1d"), &ess, NULL), HES_OK);
    double eps[] = { 1e-2, 1e-3, 1e-4 }, err[3], J[4];
    for (int q = 0; q < 3; q++) {
        long proj;
        ess_jacobian(ess, x0, T, eps[q], J, &proj);
        ck_assert_int_eq(proj, 2);
        err[q] = rel_diff(2, J, Phi);
        if (verbose())
            printf("hopper orbit: eps %g |J_ess - Phi| / max(1, |Phi|) = %.3e\n", eps[q], err[q]);
    }
    double order = fitted_order(3, eps, err);
    if (verbose())
        printf("hopper orbit: T = %.10f, |Phi| = %.3g, fitted order %.3f\n", T,
               fmax(fmax(fabs(Phi[0]), fabs(Phi[1])), fmax(fabs(Phi[2]), fabs(Phi[3]))), order);
    /* measured: 1.4e-2, 1.5e-4, 1.5e-6 (order 2.0, as the trajectory's) */
    ck_assert_msg(err[1] < err[0] / 50 && err[2] < err[1] / 50, "errors %g, %g, %g", err[0],
                  err[1], err[2]);
    ck_assert_msg(order >= 1.9, "fitted order %g < 1.9", order);
    ck_assert_msg(err[2] < 1e-5, "|J_ess - Phi| = %g at eps 1e-4", err[2]);
    hes_ess_destroy(ess);
    hes_system_destroy(sys);
}
END_TEST

/* ------------------------------------- an ESS periodic orbit and its psi
 * hopper-pumped (problems/hopper_pumped.c) has an isolated, stable hopping
 * orbit.  Two independent computations of its nontrivial multiplier:
 *   - the hybrid pipeline (hes_analyze: orbit by shooting from liftoff,
 *     variational equations, saltation matrices, which are not the identity
 *     here: the field jumps by (pump + drag) v / mass at both events);
 *   - Liouville's formula on the pipeline's orbit: the flow is planar, so
 *     lambda = det Phi = exp((pump t_stance - drag t_flight) / mass) (the
 *     saltation determinants are g^T F+ / g^T F- = v / v = 1).
 * hes_ess_orbit_find's psi (Newton on the ESS flow, section v = 0) must
 * converge to them at order 2 in eps, and its period and apex too. */
enum { PP_G, PP_K, PP_MASS, PP_L0, PP_PUMP, PP_DRAG };

static int pump_flight(double t, const double *x, const double *p, double *out, void *d)
{
    (void)t; (void)d;
    out[0] = x[1];
    out[1] = -p[PP_G] - p[PP_DRAG] * x[1] / p[PP_MASS];
    return 0;
}

static int pump_stance(double t, const double *x, const double *p, double *out, void *d)
{
    (void)t; (void)d;
    out[0] = x[1];
    out[1] = -p[PP_G] + (p[PP_K] * (p[PP_L0] - x[0]) + p[PP_PUMP] * x[1]) / p[PP_MASS];
    return 0;
}

static int pump_guess(double *p, double *x0, void *d)
{
    (void)d;
    x0[0] = p[PP_L0];   /* just after liftoff */
    x0[1] = 3.4;
    return 0;
}

static const hes_mode pump_modes[] = {
    { .name = "flight", .dim = 2, .state_names = hop_states, .field = pump_flight },
    { .name = "stance", .dim = 2, .state_names = hop_states, .field = pump_stance },
};
static const int pump_sequence[] = { 0, 1 }, pump_free[] = { 1 };

START_TEST(test_ess_orbit_multiplier_converges_to_the_pipeline_and_liouville)
{
    const hes_ess_model *em = hes_ess_problem_find("hopper-pumped");
    ck_assert_ptr_nonnull(em);
    hes_model hm = hybrid_model("hopper-pumped-hybrid", 2, pump_modes, 2, hop_transitions,
                                em->n_params, em->params);
    hm.orbit.mode = 0;              /* flight, from liftoff to the next liftoff */
    hm.orbit.section = 1;
    hm.orbit.n_sequence = 2;
    hm.orbit.sequence = pump_sequence;
    hm.orbit.n_free_states = 1;
    hm.orbit.free_states = pump_free;
    hm.orbit.n_residual = 1;
    hm.orbit.residual = pump_free;
    hm.orbit.guess = pump_guess;
    hes_system *sys;
    hes_error msg;
    ck_assert_msg(hes_system_new(&hm, &sys, &msg) == HES_OK, "%s", msg.message);
    hes_settings set = hes_system_get_settings(sys);
    set.rtol = 1e-12;
    set.atol = 1e-14;
    ck_assert_int_eq(hes_system_set_settings(sys, &set), HES_OK);
    hes_analysis an;
    ck_assert_msg(hes_analyze(sys, 0, &an) == HES_OK, "%s", hes_system_errmsg(sys));
    const hes_traj *tr = &an.orbit.traj;
    ck_assert_int_eq(tr->n_phases, 2);
    double t_fl = tr->phases[0].t1 - tr->phases[0].t0, t_st = tr->phases[1].t1 - tr->phases[1].t0;
    const double *p = hes_system_params(sys);
    double lambda = exp((p[PP_PUMP] * t_st - p[PP_DRAG] * t_fl) / p[PP_MASS]);
    double psi_ref = an.stab.psi, T_ref = an.orbit.period;
    if (verbose())
        printf("pumped hopper: pipeline psi %.12f, Liouville %.12f, T %.10f (flight %.6f, "
               "stance %.6f)\n", psi_ref, lambda, T_ref, t_fl, t_st);
    ck_assert_int_eq(an.stab.n_mult, 1);
    ck_assert_msg(fabs(psi_ref - lambda) < 1e-8, "pipeline %.12f, Liouville %.12f", psi_ref,
                  lambda);
    ck_assert(psi_ref < 0.95 && psi_ref > 0.5);          /* stable, not trivially */
    /* the apex height of the pipeline's orbit: flight with linear drag from
     * liftoff speed v1, r = drag / mass: the apex at t_a = ln(1 + r v1 / g) / r */
    double v1 = an.orbit.x0[1], r = p[PP_DRAG] / p[PP_MASS], g = p[PP_G];
    double ta = log(1 + r * v1 / g) / r;
    double apex = p[PP_L0] + (v1 + g / r) * (1 - exp(-r * ta)) / r - g * ta / r;

    hes_ess *ess;
    ck_assert_int_eq(hes_ess_new(em, &ess, NULL), HES_OK);
    double eps[] = { 1e-2, 1e-3, 1e-4 }, err[3];
    for (int q = 0; q < 3; q++) {
        hes_ess_orbit_options o;
        hes_ess_orbit_options_init(&o);
        o.ess.eps = eps[q];
        o.ess.rtol = 1e-12;
        o.ess.atol = 1e-14;
        o.section = em->orbit_section;
        hes_ess_orbit orb;
        ck_assert_msg(hes_ess_orbit_find(ess, &o, em->orbit_x0, em->orbit_period, &orb) ==
                      HES_OK, "%s", hes_ess_errmsg(ess));
        ck_assert_int_eq(orb.n_projections, 2);
        ck_assert_int_eq(orb.stab.n_mult, 1);
        ck_assert_int_eq(orb.stab.verdict, HES_STABLE);
        ck_assert_double_eq_tol(orb.x0[1], 0, 1e-15);   /* on the section */
        err[q] = fabs(orb.stab.psi - psi_ref);
        /* the Richardson estimate from eps / 2 and eps / 4 is the error
         * actually made, within a quarter, and its order is 2 */
        if (verbose())
            printf("pumped hopper: eps %g estimated error %.3e (order %.3f)\n", eps[q],
                   orb.eps_error, orb.eps_order);
        ck_assert_msg(fabs(orb.eps_error - err[q]) < 0.25 * err[q], "estimated %g, actual %g",
                      orb.eps_error, err[q]);
        ck_assert_msg(fabs(orb.eps_order - 2) < 0.2, "observed order %g", orb.eps_order);
        ck_assert(orb.stab.psi_tol >= orb.eps_error);
        /* measured: psi errors 9.6e-3, 1.0e-4, 1.0e-6; T 2.1e-2, 2.2e-4, 2.2e-6 */
        if (verbose())
            printf("pumped hopper: eps %g psi %.12f |psi - ref| %.3e, T %.10f (%.2e), apex "
                   "%.10f (%.2e), %d iterations\n", eps[q], orb.stab.psi, err[q], orb.period,
                   orb.period - T_ref, orb.x0[0], orb.x0[0] - apex, orb.iterations);
        if (q == 2) {
            ck_assert_msg(fabs(orb.period - T_ref) < 1e-5, "T %.12f vs %.12f", orb.period, T_ref);
            ck_assert_msg(fabs(orb.x0[0] - apex) < 1e-5, "apex %.12f vs %.12f", orb.x0[0], apex);
            /* Phi F(x0) = F(x0): the flow direction is the trivial multiplier's */
            double PF0 = orb.mono.phi[0] * orb.flow[0] + orb.mono.phi[2] * orb.flow[1];
            double PF1 = orb.mono.phi[1] * orb.flow[0] + orb.mono.phi[3] * orb.flow[1];
            ck_assert_double_eq_tol(PF0, orb.flow[0], 1e-6 * (1 + fabs(orb.flow[1])));
            ck_assert_double_eq_tol(PF1, orb.flow[1], 1e-6 * (1 + fabs(orb.flow[1])));
        }
        hes_ess_orbit_free(&orb);
    }
    double order = fitted_order(3, eps, err);
    if (verbose())
        printf("pumped hopper: fitted order %.3f\n", order);
    ck_assert_msg(order >= 1.9, "fitted order %g < 1.9 (errors %g, %g, %g)", order, err[0],
                  err[1], err[2]);
    ck_assert_msg(err[2] < 1e-5, "|psi_ess - psi| = %g at eps 1e-4", err[2]);
    hes_ess_destroy(ess);
    hes_analysis_free(&an);
    hes_system_destroy(sys);
}
END_TEST

/* Bad guesses and arguments are refused with a message; an equilibrium is
 * not taken for an orbit. */
/* A stiff leg (k = 1e9, inside the parameter's range) makes every period
 * take tens of seconds: the search stops at its overall budget, with a
 * message that says so, instead of running for a quarter of an hour. */
START_TEST(test_ess_orbit_search_stops_at_its_overall_budget)
{
    const hes_ess_model *em = hes_ess_problem_find("hopper-pumped");
    hes_ess *ess;
    ck_assert_int_eq(hes_ess_new(em, &ess, NULL), HES_OK);
    ck_assert_int_eq(hes_ess_set_param(ess, "k", 1e9), HES_OK);
    hes_ess_orbit_options o;
    hes_ess_orbit_options_init(&o);
    ck_assert_double_eq(o.max_wall_time, 60);
    o.section = em->orbit_section;
    o.max_wall_time = 0.5;
    hes_ess_orbit orb;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ck_assert_int_eq(hes_ess_orbit_find(ess, &o, em->orbit_x0, em->orbit_period, &orb),
                     HES_ESOLVER);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double took = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    ck_assert_msg(took < 2.0, "the search took %g s on a budget of 0.5 s", took);
    ck_assert_msg(strstr(hes_ess_errmsg(ess), "used its budget of 0.5 s"), "%s", hes_ess_errmsg(ess));
    hes_ess_orbit_free(&orb);
    o.max_wall_time = 0;
    ck_assert_int_eq(hes_ess_orbit_find(ess, &o, em->orbit_x0, em->orbit_period, &orb),
                     HES_EINVAL);
    hes_ess_orbit_free(&orb);
    hes_ess_destroy(ess);
}
END_TEST

START_TEST(test_ess_orbit_refusals)
{
    const hes_ess_model *em = hes_ess_problem_find("hopper-pumped");
    hes_ess *ess;
    ck_assert_int_eq(hes_ess_new(em, &ess, NULL), HES_OK);
    hes_ess_orbit_options o;
    hes_ess_orbit_options_init(&o);
    o.section = 1;
    hes_ess_orbit orb;
    const double x[2] = { 1.55, 0 }, nan_x[2] = { NAN, 0 };
    ck_assert_int_eq(hes_ess_orbit_find(ess, &o, x, -1, &orb), HES_EINVAL);
    ck_assert_int_eq(hes_ess_orbit_find(ess, &o, nan_x, 0.78, &orb), HES_EINVAL);
    ck_assert_int_eq(hes_ess_orbit_find(ess, &o, NULL, 0.78, &orb), HES_EINVAL);
    o.section = 2;
    ck_assert_int_eq(hes_ess_orbit_find(ess, &o, x, 0.78, &orb), HES_EINVAL);
    ck_assert_msg(strstr(hes_ess_errmsg(ess), "section"), "%s", hes_ess_errmsg(ess));
    hes_ess_orbit_free(&orb);
    /* at rest on the spring: an equilibrium, periodic with any period */
    o.section = 1;
    const double rest[2] = { 1 - 9.81 / 1000, 0 };
    ck_assert_int_eq(hes_ess_orbit_find(ess, &o, rest, 0.3, &orb), HES_ENOORBIT);
    ck_assert_msg(strstr(hes_ess_errmsg(ess), "equilibrium"), "%s", hes_ess_errmsg(ess));
    hes_ess_orbit_free(&orb);
    /* without the pump no hopping orbit exists (the stance conserves energy,
     * the flight loses it); the ESS flow at eps = 1e-3 has one a few eps high
     * (apex 1.0058), whose psi changes at order 0.3 as eps halves: found
     * without check_eps, refused with it */
    ck_assert_int_eq(hes_ess_set_param(ess, "pump", 0), HES_OK);
    const double low[2] = { 1.01, 0 };
    o.ess.eps = 1e-3;
    o.check_eps = 0;
    ck_assert_int_eq(hes_ess_orbit_find(ess, &o, low, 0.22, &orb), HES_OK);
    ck_assert(orb.x0[0] < 1 + 10 * o.ess.eps);
    hes_ess_orbit_free(&orb);
    o.check_eps = 1;
    ck_assert_int_eq(hes_ess_orbit_find(ess, &o, low, 0.22, &orb), HES_ENOORBIT);
    ck_assert_msg(strstr(hes_ess_errmsg(ess), "does not converge as the band shrinks"), "%s",
                  hes_ess_errmsg(ess));
    hes_ess_orbit_free(&orb);
    /* the undamped hopper-1d's discrete flow gains or loses a little energy
     * per hop: from an apex, Newton finds no orbit nearby within a few
     * iterations, and says so */
    hes_ess *h1;
    ck_assert_int_eq(hes_ess_new(hes_ess_problem_find("hopper-1d"), &h1, NULL), HES_OK);
    o.max_iter = 3;
    o.ess.eps = 1e-3;
    const double apex[2] = { 1.5, 0 };
    hes_status st = hes_ess_orbit_find(h1, &o, apex, 0.74, &orb);
    ck_assert_int_eq(st, HES_ENOORBIT);
    ck_assert_msg(strstr(hes_ess_errmsg(h1), "Newton"), "%s", hes_ess_errmsg(h1));
    hes_ess_orbit_free(&orb);
    hes_ess_destroy(h1);
    hes_ess_destroy(ess);
}
END_TEST

/* ---------------------------------------- the soft trotter, ESS and hybrid
 * The body of trot-soft (parameters m, J, d, l, k, c, g, its defaults) on
 * massless legs: state (y, theta, vy, omega); hips at heights
 * y +- d sin(theta) (front +); leg i pushes while compressed, with the
 * force F_i = k (l - L_i) - c L_i', L_i the hip height; event functions
 * h_1 = l - L_1 (front), h_2 = l - L_2 (rear), positive in contact;
 *   vy' = -g + (F_1 + F_2) / m,  omega' = d cos(theta) (F_1 - F_2) / J.
 * The damping makes the field jump at touchdown (F_i = -c L_i' there), so
 * the saltation matrices are not the identity. */
enum { T_M, T_J, T_D, T_L, T_K, T_C, T_G, T_N };
static const char *const trot_param_names[T_N] = { "m", "J", "d", "l", "k", "c", "g" };

static void trot_field(const double *x, int front, int rear, const double *p, double *out)
{
    double s = sin(x[1]), co = cos(x[1]), d = p[T_D], F[2] = { 0, 0 };
    int on[2] = { front, rear };
    for (int i = 0; i < 2; i++) {
        double sg = i == 0 ? 1 : -1;
        double L = x[0] + sg * d * s, Ld = x[2] + sg * d * co * x[3];
        if (on[i])
            F[i] = p[T_K] * (p[T_L] - L) - p[T_C] * Ld;
    }
    out[0] = x[2];
    out[1] = x[3];
    out[2] = -p[T_G] + (F[0] + F[1]) / p[T_M];
    out[3] = d * co * (F[0] - F[1]) / p[T_J];
}

static int trot_ess_f(const double *x, const int *s, const double *p, double *out, void *data)
{
    (void)data;
    trot_field(x, s[0] > 0, s[1] > 0, p, out);
    return 0;
}

static int trot_ess_h(const double *x, const double *p, double *out, void *data)
{
    (void)data;
    out[0] = p[T_L] - (x[0] + p[T_D] * sin(x[1]));
    out[1] = p[T_L] - (x[0] - p[T_D] * sin(x[1]));
    return 0;
}

static int trot_ess_Dh(const double *x, const double *p, double *out, void *data)
{
    (void)data;
    double dc = p[T_D] * cos(x[1]);
    memset(out, 0, 8 * sizeof *out);
    out[0] = -1; out[1] = -1;     /* column y */
    out[2] = -dc; out[3] = dc;    /* column theta */
    return 0;
}

static hes_param trot_params[T_N];
static const char *const trot_states[] = { "y", "theta", "vy", "omega" };
static const char *const trot_events[] = { "front", "rear" };

/* trot-soft's parameters of the same names (its defaults) */
static void trot_params_init(void)
{
    const hes_model *soft = hes_problem_find("trot-soft");
    ck_assert_ptr_nonnull(soft);
    for (int i = 0; i < T_N; i++) {
        int k = hes_model_param_index(soft, trot_param_names[i]);
        ck_assert_int_ge(k, 0);
        trot_params[i] = soft->params[k];
    }
}

/* hybrid modes: which legs push, as the mode's data */
static const int legs_flight[2] = { 0, 0 }, legs_front[2] = { 1, 0 }, legs_rear[2] = { 0, 1 },
                 legs_both[2] = { 1, 1 };

static int trot_mode_f(double t, const double *x, const double *p, double *out, void *data)
{
    const int *legs = data;
    (void)t;
    trot_field(x, legs[0], legs[1], p, out);
    return 0;
}

/* guard of a touchdown: the hip height minus l, crossed downward; the
 * transition's data: 0 front, 1 rear */
static const int leg_front = 0, leg_rear = 1;

static int trot_guard(double t, const double *x, const double *p, double *out, void *data)
{
    (void)t;
    double sg = *(const int *)data == 0 ? 1 : -1;
    out[0] = x[0] + sg * p[T_D] * sin(x[1]) - p[T_L];
    return 0;
}

enum { TM_FLIGHT, TM_FRONT, TM_REAR, TM_BOTH };
enum { TT_FRONT, TT_REAR, TT_REAR_AFTER_FRONT, TT_FRONT_AFTER_REAR };
static const hes_mode trot_modes[] = {
    { .name = "flight", .dim = 4,
      .state_names = trot_states, .field = trot_mode_f, .data = (void *)legs_flight },
    { .name = "front", .dim = 4,
      .state_names = trot_states, .field = trot_mode_f, .data = (void *)legs_front },
    { .name = "rear", .dim = 4,
      .state_names = trot_states, .field = trot_mode_f, .data = (void *)legs_rear },
    { .name = "both", .dim = 4,
      .state_names = trot_states, .field = trot_mode_f, .data = (void *)legs_both },
};
static const hes_transition trot_transitions[] = {
    { "front touchdown", TM_FLIGHT, TM_FRONT, HES_DOWN, trot_guard, NULL, NULL, NULL, NULL, NULL,
      0, (void *)&leg_front },
    { "rear touchdown", TM_FLIGHT, TM_REAR, HES_DOWN, trot_guard, NULL, NULL, NULL, NULL, NULL,
      0, (void *)&leg_rear },
    { "rear touchdown (front stance)", TM_FRONT, TM_BOTH, HES_DOWN, trot_guard, NULL, NULL, NULL,
      NULL, NULL, 0, (void *)&leg_rear },
    { "front touchdown (rear stance)", TM_REAR, TM_BOTH, HES_DOWN, trot_guard, NULL, NULL, NULL,
      NULL, NULL, 0, (void *)&leg_front },
};

START_TEST(test_ess_jacobian_through_simultaneous_touchdown_is_the_piece_of_the_order_taken)
{
    trot_params_init();
    hes_ess_model em = { "trot-soft-ess", "soft trotter on massless legs", 4, 2, trot_states,
                         trot_events, T_N, trot_params, trot_ess_f, NULL, trot_ess_h,
                         trot_ess_Dh, NULL, NULL, NULL, 0, 0, .h_some = NULL };
    /* the same system with four contact modes */
    hes_model hm = hybrid_model("trot-soft-massless", 4, trot_modes, 4, trot_transitions, T_N,
                                trot_params);
    hes_system *sys;
    hes_error msg;
    ck_assert_msg(hes_system_new(&hm, &sys, &msg) == HES_OK, "%s", msg.message);
    const double *p = hes_system_params(sys);

    /* the symmetric start: body level at rest, hips 0.3 m above touchdown;
     * both legs land at t* = sqrt(2 (y0 - l) / g); T = t* + 0.015 s (inside
     * the stance, before any liftoff: the heave's half period is 0.05 s) */
    const double y0 = 0.6, xs0[4] = { y0, 0, 0, 0 };
    double ts = sqrt(2 * (y0 - p[T_L]) / p[T_G]), T = ts + 0.015;
    double xs[4] = { p[T_L], 0, -p[T_G] * ts, 0 }, x1[4];

    /* the pipeline's pieces at the simultaneous touchdown */
    double Af[16], Ab[16], Xf[16], Xr_f[16], Xr[16], Xf_r[16], FR[16], RF[16], smooth[16];
    ck_assert_int_eq(hes_variational(sys, TM_FLIGHT, 0, ts, xs0, x1, Af), HES_OK);
    for (int i = 0; i < 4; i++)
        ck_assert_double_eq_tol(x1[i], xs[i], 1e-9);
    ck_assert_int_eq(hes_variational(sys, TM_BOTH, ts, T - ts, xs, NULL, Ab), HES_OK);
    ck_assert_int_eq(hes_saltation(sys, TT_FRONT, ts, xs, Xf), HES_OK);
    ck_assert_int_eq(hes_saltation(sys, TT_REAR_AFTER_FRONT, ts, xs, Xr_f), HES_OK);
    ck_assert_int_eq(hes_saltation(sys, TT_REAR, ts, xs, Xr), HES_OK);
    ck_assert_int_eq(hes_saltation(sys, TT_FRONT_AFTER_REAR, ts, xs, Xf_r), HES_OK);
    mul(4, Xr_f, Xf, FR);           /* front, then rear */
    mul(4, FR, Af, FR);
    mul(4, Ab, FR, FR);
    mul(4, Xf_r, Xr, RF);           /* rear, then front */
    mul(4, RF, Af, RF);
    mul(4, Ab, RF, RF);
    mul(4, Ab, Af, smooth);         /* no saltation at all */
    double pieces = rel_diff(4, FR, RF), salt = rel_diff(4, smooth, FR);
    if (verbose())
        printf("trotter: |FR - RF| = %.3e, |A_both A_flight - FR| = %.3e (relative)\n", pieces,
               salt);
    /* the legs are decoupled: each leg's field jump acts on the velocities
     * only, the other leg's event function depends on positions only
     * (Dh_j dF_i = 0), so Xi_rear|front Xi_front = Xi_front|rear Xi_rear:
     * the two pieces are equal and the flow is C^1 there (decoupled-limbs
     * paper, Theorem 1) */
    ck_assert_msg(pieces < 1e-9, "|FR - RF| = %g", pieces);
    ck_assert_msg(salt > 1e-2, "the touchdown's saltation changes the Jacobian by only %g", salt);

    /* the ESS Jacobian from starts tilted by -+1e-9 rad: front first, rear
     * first */
    hes_ess *ess;
    ck_assert_int_eq(hes_ess_new(&em, &ess, &msg), HES_OK);
    double eps[] = { 1e-2, 1e-3, 1e-4 }, err[2][3], J[16];
    for (int side = 0; side < 2; side++) {
        double x0[4] = { y0, side == 0 ? -1e-9 : 1e-9, 0, 0 };
        for (int q = 0; q < 3; q++) {
            long proj;
            ess_jacobian(ess, x0, T, eps[q], J, &proj);
            ck_assert_int_eq(proj, 2);
            err[side][q] = rel_diff(4, J, side == 0 ? FR : RF);
            if (verbose())
                printf("trotter, %s first: eps %g |J_ess - piece| = %.3e\n",
                       side == 0 ? "front" : "rear", eps[q], err[side][q]);
        }
        double order = fitted_order(3, eps, err[side]);
        if (verbose())
            printf("trotter, %s first: fitted order %.3f\n", side == 0 ? "front" : "rear", order);
        /* measured: 1.4e-3, 1.3e-5, 1.3e-7 (order 2.0) on both sides */
        ck_assert_msg(order >= 1.9, "fitted order %g < 1.9", order);
        ck_assert_msg(err[side][2] < 1e-6, "|J_ess - piece| = %g at eps 1e-4", err[side][2]);
        ck_assert_msg(err[side][2] < salt / 100, "J_ess no closer to the piece (%g) than the "
                      "smooth product is (%g)", err[side][2], salt);
    }
    hes_ess_destroy(ess);
    hes_system_destroy(sys);
}
END_TEST

/* ------------------------------------ coupled pieces: the order matters
 * The soft trotter's two pieces are equal (decoupled limbs).  Here they are
 * not: a piecewise-constant field in the plane with the coordinate axes as
 * guards, h_1 = x_1, h_2 = x_2, F(s) = F00 in (-,-), F10 in (+,-), F01 in
 * (-,+), F11 in (+,+).  From the diagonal x_1 = x_2 < 0 the flow F00 =
 * (1, 1) reaches the corner, where both guards are crossed at once.  With
 * constant fields every phase's variational matrix is I, and the
 * saltation matrices (Aizerman and Gantmacher) give the two pieces
 *   P_12 = (I + (F11 - F10) e2^T / e2^T F10) (I + (F10 - F00) e1^T / e1^T F00)
 *   P_21 = (I + (F11 - F01) e1^T / e1^T F01) (I + (F01 - F00) e2^T / e2^T F00)
 * which differ here (Dh_2 (F10 - F00) != 0).  The ESS integrator moves
 * along constant fields exactly, so from a start 1e-9 off the diagonal its
 * Jacobian is the piece of the order it took, at any eps. */
static const double pc_F[4][2] = { { 1, 1 }, { 2, 0.5 }, { 0.5, 3 }, { 1.5, 2 } };

static int pc_f(const double *x, const int *s, const double *p, double *out, void *data)
{
    (void)x; (void)p; (void)data;
    int r = (s[0] > 0) + 2 * (s[1] > 0);
    out[0] = pc_F[r][0];
    out[1] = pc_F[r][1];
    return 0;
}

static int pc_h(const double *x, const double *p, double *out, void *data)
{
    (void)p; (void)data;
    out[0] = x[0];
    out[1] = x[1];
    return 0;
}

static int pc_Dh(const double *x, const double *p, double *out, void *data)
{
    (void)x; (void)p; (void)data;
    out[0] = 1; out[1] = 0; out[2] = 0; out[3] = 1;
    return 0;
}

/* I + (Fb - Fa) e_k^T / (e_k^T Fa), 2 x 2 column-major */
static void pc_saltation(const double *Fa, const double *Fb, int k, double *X)
{
    X[0] = 1; X[1] = 0; X[2] = 0; X[3] = 1;
    for (int i = 0; i < 2; i++)
        X[i + 2 * k] += (Fb[i] - Fa[i]) / Fa[k];
}

START_TEST(test_ess_jacobian_is_the_piece_of_the_order_taken_when_pieces_differ)
{
    hes_ess_model md = { "corner", "", 2, 2, NULL, NULL, 0, NULL, pc_f, NULL, pc_h, pc_Dh,
                         NULL, NULL, NULL, 0, 0, .h_some = NULL };
    double X1[4], X2after1[4], X2[4], X1after2[4], P12[4], P21[4];
    pc_saltation(pc_F[0], pc_F[1], 0, X1);
    pc_saltation(pc_F[1], pc_F[3], 1, X2after1);
    pc_saltation(pc_F[0], pc_F[2], 1, X2);
    pc_saltation(pc_F[2], pc_F[3], 0, X1after2);
    mul(2, X2after1, X1, P12);
    mul(2, X1after2, X2, P21);
    double pieces = rel_diff(2, P12, P21);
    ck_assert_msg(pieces > 0.1, "the pieces differ by only %g", pieces);
    hes_ess *ess;
    ck_assert_int_eq(hes_ess_new(&md, &ess, NULL), HES_OK);
    for (int q = 0; q < 3; q++) {
        double eps = q == 0 ? 1e-1 : q == 1 ? 1e-3 : 1e-5, J[4];
        for (int first = 0; first < 2; first++) {
            /* guard 1 first: x_1 a little nearer its zero */
            double x0[2] = { -1 + (first == 0 ? 1e-9 : 0), -1 + (first == 1 ? 1e-9 : 0) };
            long proj;
            ess_jacobian(ess, x0, 1.7, eps, J, &proj);
            ck_assert_int_eq(proj, 2);
            double err = rel_diff(2, J, first == 0 ? P12 : P21);
            if (verbose())
                printf("corner: eps %g, guard %d first: |J - piece| = %.3e (pieces %.3g apart)\n",
                       eps, first + 1, err, pieces);
            ck_assert_msg(err < 1e-7, "eps %g, guard %d first: |J - P| = %g", eps, first + 1,
                          err);
        }
    }
    hes_ess_destroy(ess);
}
END_TEST

static Suite *ess_orbit_suite(void)
{
    Suite *s = suite_create("ess_orbit");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_ess_jacobian_converges_to_the_monodromy_of_a_hopping_orbit);
    tcase_add_test(tc, test_ess_orbit_multiplier_converges_to_the_pipeline_and_liouville);
    tcase_add_test(tc, test_ess_orbit_refusals);
    tcase_add_test(tc, test_ess_orbit_search_stops_at_its_overall_budget);
    tcase_add_test(tc, test_ess_jacobian_through_simultaneous_touchdown_is_the_piece_of_the_order_taken);
    tcase_add_test(tc, test_ess_jacobian_is_the_piece_of_the_order_taken_when_pieces_differ);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(ess_orbit_suite());
}
