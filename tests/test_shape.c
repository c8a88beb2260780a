/*
 * test_shape.c - hybrid event shaping: the eigenvalue-perturbation gradient
 * against central differences of psi where every psi is a full re-analysis
 * (orbit, monodromy, multipliers), the fallback at coalescing multipliers,
 * the shape-parameter property, and the optimiser against the juggler's
 * closed-form optimum and the SLIP's stabilisation (paper Sec. III-IV).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"
#include "testmodels.h"
#include "testutil.h"

/* ------------------------------------------------------------ helpers */

static hes_system *make(const char *problem, int n, const char *const *names, const double *v)
{
    hes_system *sys = test_system_of(hes_problem_find(problem));
    ck_assert_ptr_nonnull(sys);
    for (int i = 0; i < n; i++)
        ck_assert_msg(hes_system_set_param(sys, names[i], v[i]) == HES_OK, "%s",
                      hes_system_errmsg(sys));
    return sys;
}

/* psi (or |lambda_k|) from a full re-analysis at the given values. */
static double full_modulus(const char *problem, int n, const char *const *names,
                           const double *v, int k)
{
    hes_system *sys = make(problem, n, names, v);
    hes_analysis res;
    ck_assert_msg(hes_analyze(sys, 0, &res) == HES_OK, "%s", hes_system_errmsg(sys));
    ck_assert_int_gt(res.stab.n_mult, k);
    double m = res.stab.abs[k];
    hes_analysis_free(&res);
    hes_system_destroy(sys);
    return m;
}

/* Central difference with Richardson extrapolation, O(d^4): accurate to
 * ~1e-9 with psi accurate to ~1e-12. */
static double reference_derivative(const char *problem, int n, const char *const *names,
                                   const double *v, int j, int k)
{
    double w[8], D[2];
    for (int r = 0; r < 2; r++) {
        double d = (r ? 0.5e-3 : 1e-3) * fmax(1.0, fabs(v[j]));
        memcpy(w, v, sizeof(double) * (size_t)n);
        w[j] = v[j] + d;
        double fp = full_modulus(problem, n, names, w, k);
        w[j] = v[j] - d;
        double fm = full_modulus(problem, n, names, w, k);
        D[r] = (fp - fm) / (2 * d);
    }
    return (4 * D[1] - D[0]) / 3;
}

static unsigned long long rng = 12345;
static double uniform(double lo, double hi)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * (double)(rng >> 11) * 0x1.0p-53;
}

/* Analytic gradient at v; returns 0 when the point is near a coalescence of
 * the largest multipliers (the test is about smooth points). */
static int analytic_gradient(const char *problem, int n, const char *const *names,
                             const double *v, double *dpsi, double *dabs, int *n_mult)
{
    hes_system *sys = make(problem, n, names, v);
    hes_analysis res;
    hes_shape *sh;
    hes_shape_eval_result ev;
    ck_assert_int_eq(hes_analyze(sys, 0, &res), HES_OK);
    ck_assert_int_eq(hes_shape_new(sys, &res, n, names, &sh), HES_OK);
    ck_assert_int_eq(hes_shape_eval(sh, NULL, 1, &ev), HES_OK);
    ck_assert_double_eq_tol(ev.psi, res.stab.psi, 1e-12);
    int smooth = !ev.fallback && ev.cond < 1e3;
    for (int k = 1; k < ev.n_mult; k++) /* coalescing real multipliers nearby */
        if (ev.im[0] == 0 && fabs(ev.abs[k] - ev.abs[0]) < 1e-2 * ev.abs[0])
            smooth = 0;
    memcpy(dpsi, ev.dpsi, sizeof(double) * (size_t)n);
    if (dabs)
        memcpy(dabs, ev.dabs, sizeof(double) * (size_t)n * ev.n_mult);
    *n_mult = ev.n_mult;
    hes_shape_destroy(sh);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
    return smooth;
}

static void assert_close(double a, double r, const char *what, const double *v, int n)
{
    ck_assert_msg(fabs(a - r) <= 1e-6 * fmax(fabs(r), 1e-2),
                  "%s at (%g%s%g): analytic %.12g, differences of full re-analyses %.12g",
                  what, v[0], n > 1 ? ", " : "", n > 1 ? v[1] : 0.0, a, r);
}

/* ------------------------------------------------------------- gradient */

START_TEST(test_juggler_gradient_equals_differences_of_full_reanalyses)
{
    const char *names[] = { "paddle_accel" };
    int tested = 0;
    for (int i = 0; i < 12; i++) {
        double v[1] = { uniform(-20.0, 10.0) }, g[1];
        int nm;
        if (!analytic_gradient("paddle-juggler", 1, names, v, g, NULL, &nm))
            continue;
        assert_close(g[0], reference_derivative("paddle-juggler", 1, names, v, 0, 0),
                     "dpsi/dpaddle_accel", v, 1);
        tested++;
    }
    ck_assert_int_ge(tested, 6);
}
END_TEST

START_TEST(test_slip_gradient_equals_differences_of_full_reanalyses)
{
    const char *names[] = { "K", "thetadot" };
    int tested = 0;
    for (int i = 0; i < 10; i++) {
        double v[2] = { uniform(-0.2, 0.6), uniform(-3.0, 1.0) }, g[2];
        int nm;
        if (!analytic_gradient("slip-hopper", 2, names, v, g, NULL, &nm))
            continue;
        for (int j = 0; j < 2; j++)
            assert_close(g[j], reference_derivative("slip-hopper", 2, names, v, j, 0),
                         j ? "dpsi/dthetadot" : "dpsi/dK", v, 2);
        tested++;
    }
    ck_assert_int_ge(tested, 5);
}
END_TEST

START_TEST(test_every_multiplier_modulus_has_its_gradient)
{
    const char *names[] = { "K", "thetadot" };
    const double points[][2] = { { 0.05, -0.4 }, { 0.3, 0.2 } };
    for (int p = 0; p < 2; p++) {
        double g[2], dabs[2 * 8];
        int nm;
        ck_assert(analytic_gradient("slip-hopper", 2, names, points[p], g, dabs, &nm));
        ck_assert_int_eq(nm, 2);
        for (int k = 0; k < nm; k++)
            for (int j = 0; j < 2; j++)
                assert_close(dabs[k + nm * j],
                             reference_derivative("slip-hopper", 2, names, points[p], j, k),
                             k ? "d|lambda_2|" : "d|lambda_1|", points[p], 2);
    }
}
END_TEST

/*
 * At paddle_accel = -g the impact saltation matrix is -alpha I, so
 * Phi = -alpha A(T) is a Jordan block: the multipliers coalesce into a
 * defective -alpha.  psi = alpha on the plateau to the right and grows like
 * a square root to the left, so psi has its minimum there and the element of
 * least magnitude of its generalized gradient is 0.  The same holds at the
 * other end of the plateau, -g (1 - alpha)^2 / (1 + alpha)^2 (double +alpha).
 */
START_TEST(test_fallback_engages_where_multipliers_coalesce)
{
    const double g = 9.81, alpha = 0.5;
    const double ends[] = { -g, -g * (1 - alpha) * (1 - alpha) / ((1 + alpha) * (1 + alpha)) };
    for (int e = 0; e < 2; e++) {
        hes_system *sys = make("paddle-juggler", 1, (const char *[]){ "paddle_accel" }, &ends[e]);
        hes_analysis res;
        hes_shape *sh;
        hes_shape_eval_result ev;
        ck_assert_int_eq(hes_analyze(sys, 0, &res), HES_OK);
        ck_assert_int_eq(hes_shape_new(sys, &res, 0, NULL, &sh), HES_OK);
        ck_assert_int_eq(hes_shape_eval(sh, NULL, 1, &ev), HES_OK);
        ck_assert_msg(ev.fallback, "end %g: cond %g, no fallback", ends[e], ev.cond);
        ck_assert(ev.nonsmooth);
        ck_assert_msg(fabs(ev.dpsi[0]) < 1e-2, "end %g: dpsi %g", ends[e], ev.dpsi[0]);
        ck_assert_double_eq_tol(ev.psi, alpha, 1e-5); /* defective: ~sqrt(eps) accurate */
        /* away from the ends, on the plateau, psi = alpha exactly: dpsi = 0 */
        double mid = 0.5 * (ends[0] + ends[1]);
        ck_assert_int_eq(hes_shape_eval(sh, &mid, 1, &ev), HES_OK);
        ck_assert(!ev.fallback);
        ck_assert_double_eq_tol(ev.dpsi[0], 0.0, 1e-12);
        hes_shape_destroy(sh);
        hes_analysis_free(&res);
        hes_system_destroy(sys);
    }
}
END_TEST

/* 20 shape parameters, each in one saltation matrix: psi and its gradient
 * against the closed form of tests/hopf_kicks.c. */
START_TEST(test_twenty_virtual_events_gradient_matches_closed_form)
{
    hes_system *sys = test_system_of(&test_hopf_kicks);
    hes_analysis res;
    hes_shape *sh;
    hes_shape_eval_result ev;
    ck_assert_int_eq(hes_analyze(sys, 1, &res), HES_OK);
    ck_assert(res.check_max_abs_diff < 1e-6);
    ck_assert_int_eq(hes_shape_new(sys, &res, 0, NULL, &sh), HES_OK);
    ck_assert_int_eq(hes_shape_count(sh), TEST_HOPF_EVENTS);
    const double mu = 0.05, omega = 1.0;
    for (int trial = 0; trial < 5; trial++) {
        double h[TEST_HOPF_EVENTS], psi = exp(-4 * 3.141592653589793 * mu / omega);
        for (int k = 0; k < TEST_HOPF_EVENTS; k++) {
            h[k] = uniform(-0.5, 0.5);
            psi *= 1 + h[k];
        }
        ck_assert_int_eq(hes_shape_eval(sh, h, 1, &ev), HES_OK);
        ck_assert_int_eq(ev.n_mult, 1);
        ck_assert_msg(fabs(ev.psi - psi) < 1e-9 * psi, "psi %.15g, closed form %.15g", ev.psi, psi);
        for (int k = 0; k < TEST_HOPF_EVENTS; k++)
            ck_assert_msg(fabs(ev.dpsi[k] - psi / (1 + h[k])) < 1e-6 * psi / (1 + h[k]),
                          "dpsi/dh%d = %.12g, closed form %.12g", k, ev.dpsi[k], psi / (1 + h[k]));
        /* psi's gradient alone (HES_SHAPE_GRAD_PSI): the same numbers, no dabs */
        double d1[TEST_HOPF_EVENTS];
        memcpy(d1, ev.dpsi, sizeof d1);
        ck_assert_int_eq(hes_shape_eval(sh, h, HES_SHAPE_GRAD_PSI, &ev), HES_OK);
        ck_assert(ev.dabs == NULL && memcmp(d1, ev.dpsi, sizeof d1) == 0);
    }
    hes_shape_destroy(sh);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

/* ------------------------------------------------------------ property */

START_TEST(test_parameter_that_moves_the_orbit_is_refused)
{
    struct { const char *problem, *param, *why; } cases[] = {
        { "slip-hopper", "l_td", "solved for" },
        { "slip-hopper", "k", "vector field" },
        { "slip-hopper", "apex_speed", "section state" }, /* at K = 0 only the orbit's start sees it */
        { "paddle-juggler", "g", "reset" },       /* through the paddle speed vP* */
        { "paddle-juggler", "period", "guard value" },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        hes_system *sys = test_system_of(hes_problem_find(cases[c].problem));
        hes_analysis res;
        hes_shape *sh = NULL;
        ck_assert_int_eq(hes_analyze(sys, 0, &res), HES_OK);
        ck_assert_msg(hes_shape_new(sys, &res, 1, &cases[c].param, &sh) == HES_EINVAL,
                      "%s of %s accepted as a shape parameter", cases[c].param, cases[c].problem);
        ck_assert_ptr_null(sh);
        const char *msg = hes_system_errmsg(sys);
        ck_assert_msg(strstr(msg, cases[c].param) && strstr(msg, "not a shape parameter"),
                      "message: %s", msg);
        ck_assert_ptr_nonnull(strstr(msg, cases[c].why));
        hes_analysis_free(&res);
        /* and the optimiser refuses it too */
        hes_shape_options o;
        hes_shape_options_init(&o);
        double lo = -1, hi = 2, start;
        hes_system_get_param(sys, cases[c].param, &start);
        lo = start - 0.1;
        hi = start + 0.1;
        o.n = 1;
        o.names = &cases[c].param;
        o.lo = &lo;
        o.hi = &hi;
        hes_shape_result r;
        hes_status st = hes_shape_optimize(sys, &o, &r);
        if (strcmp(cases[c].why, "solved for") == 0) {
            ck_assert_int_eq(st, HES_EINVAL);
            ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "solved by the orbit search"));
        } else {       /* optimised by re-analyses, as a parameter that moves the orbit */
            ck_assert_msg(st == HES_OK, "%s: %s", cases[c].param, hes_system_errmsg(sys));
            ck_assert_int_eq(r.moves_orbit, 1);
            ck_assert_str_eq(r.algorithm, "LN_NELDERMEAD");
            ck_assert_int_eq(r.gradient, -1);
            hes_shape_result_free(&r);
        }
        hes_system_destroy(sys);
    }
}
END_TEST

/* hes_shape_optimize over the one parameter *name (it moves the orbit)
 * within [lo, hi] from start (NULL: its value), the result checked OK. */
static void optimise_one(hes_system *sys, const char *const *name, const double *lo,
                         const double *hi, const double *start, hes_shape_result *r)
{
    hes_shape_options o;
    hes_shape_options_init(&o);
    o.n = 1;
    o.names = name;
    o.lo = lo;
    o.hi = hi;
    o.start = start;
    ck_assert_msg(hes_shape_optimize(sys, &o, r) == HES_OK, "%s", hes_system_errmsg(sys));
    ck_assert_int_eq(r->moves_orbit, 1);
}

/* A parameter that moves the orbit: the juggler's restitution alpha, the
 * paddle's acceleration at impact a fixed.  Phi = A Xi A has det alpha^2
 * and trace c (1 + alpha)^2 - 2 alpha, c = (a + g) / g, so psi = alpha
 * while the multipliers are complex and more below, where they turn real:
 * its minimum is the kink c (1 + alpha)^2 = 4 alpha, the smaller root
 * alpha* = ((2 - c) - 2 sqrt(1 - c)) / c, and psi* = alpha* there. */
START_TEST(test_juggler_restitution_moves_the_orbit_to_its_closed_form_optimum)
{
    hes_system *sys = test_system_of(hes_problem_find("paddle-juggler"));
    double a, g;
    ck_assert_int_eq(hes_system_get_param(sys, "paddle_accel", &a), HES_OK);
    ck_assert_int_eq(hes_system_get_param(sys, "g", &g), HES_OK);
    double c = (a + g) / g, star = ((2 - c) - 2 * sqrt(1 - c)) / c;
    const char *name = "alpha";
    double lo = 0.05, hi = 0.6;
    hes_shape_result r;
    optimise_one(sys, &name, &lo, &hi, NULL, &r);
    ck_assert_int_eq(r.lost, 0);
    ck_assert_ptr_null(r.lost_at);
    ck_assert_msg(fabs(r.psi_initial - 0.5) < 1e-9, "psi at alpha 0.5: %.12g", r.psi_initial);
    ck_assert_msg(fabs(r.h[0] - star) < 1e-5, "alpha %.10g, closed form %.10g", r.h[0], star);
    ck_assert_msg(fabs(r.psi - star) < 1e-5, "psi %.10g, closed form %.10g", r.psi, star);
    /* the optimum's parameters are the result's, and the system's are not */
    double now;
    hes_system_get_param(sys, "alpha", &now);
    ck_assert_double_eq(now, 0.5);
    ck_assert_double_eq(r.params[hes_model_param_index(hes_system_model(sys), "alpha")], r.h[0]);
    hes_shape_result_free(&r);
    hes_system_destroy(sys);
}
END_TEST

/* Where the orbit is lost: the SLIP's apex height, which the model refuses
 * below the touchdown height.  The search steps there, and the lost
 * evaluation nearest the optimum says why; the optimum is a kink of psi
 * just above it, where no analysis of a fine scan is lower. */
START_TEST(test_an_optimum_at_the_orbit_s_edge_says_why)
{
    hes_system *sys = test_system_of(hes_problem_find("slip-hopper"));
    const char *name = "apex_height";
    double lo = 0.5, hi = 2.5, start = 2.0;
    hes_shape_result r;
    optimise_one(sys, &name, &lo, &hi, &start, &r);
    printf("slip: apex_height %.10g, psi %.10g from %.10g, %d of %d evaluations lost; the "
           "nearest at %.10g: %s\n", r.h[0], r.psi, r.psi_initial, r.lost, r.evaluations,
           r.lost_at ? r.lost_at[0] : NAN, r.lost_why);
    ck_assert_int_gt(r.lost, 0);
    ck_assert_ptr_nonnull(r.lost_at);
    ck_assert_msg(r.lost_at[0] < r.h[0], "optimum %.10g, lost at %.10g", r.h[0], r.lost_at[0]);
    ck_assert_msg(strstr(r.lost_why, "apex_height") && strstr(r.lost_why, "touchdown height"),
                  "%s", r.lost_why);
    ck_assert_msg(r.psi < r.psi_initial, "psi %g from %g", r.psi, r.psi_initial);
    /* a scan of full analyses, each from the model's guess, finds nothing lower */
    double lowest = HUGE_VAL, at = NAN;
    for (double v = r.lost_at[0]; v <= r.h[0] + 0.05; v += 1e-4) {
        hes_system *s2 = test_system_of(hes_problem_find("slip-hopper"));
        hes_analysis a;
        if (hes_system_set_param(s2, "apex_height", v) == HES_OK && hes_analyze(s2, 0, &a) == HES_OK) {
            if (a.stab.psi < lowest)
                lowest = a.stab.psi, at = v;
            hes_analysis_free(&a);
        }
        hes_system_destroy(s2);
    }
    ck_assert_msg(r.psi <= lowest + 1e-6, "optimum psi %.10g at %.10g; the scan's %.10g at %.10g",
                  r.psi, r.h[0], lowest, at);
    ck_assert_msg(fabs(at - r.h[0]) < 2e-4, "the scan's lowest at %.10g, the optimum at %.10g",
                  at, r.h[0]);
    hes_shape_result_free(&r);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_declared_shape_parameters_pass_the_property_check)
{
    const char *problems[] = { "paddle-juggler", "slip-hopper" };
    for (int p = 0; p < 2; p++) {
        hes_system *sys = test_system_of(hes_problem_find(problems[p]));
        hes_analysis res;
        hes_shape *sh;
        ck_assert_int_eq(hes_analyze(sys, 0, &res), HES_OK);
        ck_assert_msg(hes_shape_new(sys, &res, 0, NULL, &sh) == HES_OK, "%s",
                      hes_system_errmsg(sys));
        ck_assert_int_eq(hes_shape_count(sh), p ? 2 : 1);
        hes_shape_destroy(sh);
        hes_analysis_free(&res);
        hes_system_destroy(sys);
    }
}
END_TEST

START_TEST(test_fast_reevaluation_equals_full_reanalysis)
{
    /* psi over the stored factors at new shape values equals a re-analysis
     * from scratch: shape parameters do not move the orbit */
    hes_system *sys = test_system_of(hes_problem_find("slip-hopper"));
    hes_analysis res;
    hes_shape *sh;
    hes_shape_eval_result ev;
    ck_assert_int_eq(hes_analyze(sys, 0, &res), HES_OK);
    ck_assert_int_eq(hes_shape_new(sys, &res, 0, NULL, &sh), HES_OK);
    const char *names[] = { "K", "thetadot" };
    const double pts[][2] = { { 0.1, -0.3 }, { 0.45, 0.9 }, { -0.15, -2.5 } };
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(hes_shape_eval(sh, pts[i], 0, &ev), HES_OK);
        double full = full_modulus("slip-hopper", 2, names, pts[i], 0);
        ck_assert_double_eq_tol(ev.psi, full, 1e-9);
    }
    hes_shape_destroy(sh);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

/* ------------------------------------------------------------ optimiser */

/*
 * Closed form (paper eq. 9): Phi = A Xi A is similar to Xi A(T) with
 * det = alpha^2 and trace c T - 2 alpha, c T = (1 + alpha)^2 (g + a) / g.
 * The multipliers are complex with |lambda| = alpha while the discriminant
 * (c T - 2 alpha)^2 - 4 alpha^2 < 0, i.e. 0 < c T < 4 alpha, i.e.
 *     -g < a < -g (1 - alpha)^2 / (1 + alpha)^2,
 * and real with product alpha^2 (so max |lambda| > alpha) outside; hence
 * min psi = alpha, attained exactly on the closed interval.
 */
START_TEST(test_juggler_optimum_is_alpha_on_the_closed_form_interval)
{
    const double alphas[] = { 0.5, 0.3, 0.7 }, g = 9.81;
    for (int k = 0; k < 3; k++) {
        double alpha = alphas[k], start = 5.0;
        hes_system *sys = make("paddle-juggler", 1, (const char *[]){ "alpha" }, &alpha);
        hes_shape_options o;
        hes_shape_options_init(&o);
        o.start = &start;
        hes_shape_result r;
        ck_assert_msg(hes_shape_optimize(sys, &o, &r) == HES_OK, "%s", hes_system_errmsg(sys));
        double lo = -g, hi = -g * (1 - alpha) * (1 - alpha) / ((1 + alpha) * (1 + alpha));
        ck_assert(r.psi_initial > 1.0);
        ck_assert_msg(fabs(r.psi - alpha) < 1e-9, "alpha %g: psi %.15g", alpha, r.psi);
        ck_assert_msg(r.h[0] >= lo - 1e-6 && r.h[0] <= hi + 1e-6,
                      "alpha %g: paddle_accel %g outside [%g, %g]", alpha, r.h[0], lo, hi);
        double a, a0;
        hes_system_get_param(sys, "paddle_accel", &a0);
        ck_assert_double_eq(a0, -5.45); /* the system optimised is not changed ... */
        ck_assert_int_eq(hes_shape_result_apply(sys, &r), HES_OK);
        hes_system_get_param(sys, "paddle_accel", &a);
        ck_assert_double_eq(a, r.h[0]); /* ... until the optimum is applied */
        ck_assert_int_eq(r.gradient, 1);
        hes_shape_result_free(&r);
        hes_system_destroy(sys);
    }
}
END_TEST

START_TEST(test_slip_optimizer_stabilizes_from_zero_shape_parameters)
{
    hes_system *sys = test_system_of(hes_problem_find("slip-hopper"));
    hes_shape_options o;
    hes_shape_options_init(&o);
    hes_shape_result r;
    ck_assert_int_eq(hes_shape_optimize(sys, &o, &r), HES_OK);
    ck_assert(r.psi_initial > 2.0);   /* K = thetadot = 0: unstable */
    ck_assert(r.psi < 1.0);
    ck_assert(r.h[0] > 0.0);          /* K > 0, Raibert-like */
    ck_assert_double_eq_tol(r.measure, r.psi, 1e-9); /* fast path = full re-analysis */
    /* the perturbation experiment of the paper's Fig. 3 at the optimum
       (applied: the shape parameters and the solved ones of its orbit) ... */
    ck_assert_int_eq(hes_shape_result_apply(sys, &r), HES_OK);
    hes_trials t;
    ck_assert_int_eq(hes_trials_run(sys, &r.analysis.orbit, 20, 0.1, 100, 1, 1e-6, &t), HES_OK);
    ck_assert_int_eq(t.converged, 20);
    hes_trials_free(&t);
    hes_shape_result_free(&r);
    hes_system_destroy(sys);
    /* ... and at zero shape parameters every trial diverges or falls */
    sys = test_system_of(hes_problem_find("slip-hopper"));
    hes_orbit orbit;
    ck_assert_int_eq(hes_orbit_find(sys, &orbit), HES_OK);
    ck_assert_int_eq(hes_trials_run(sys, &orbit, 20, 0.1, 100, 1, 1e-6, &t), HES_OK);
    ck_assert_int_eq(t.converged, 0);
    hes_trials_free(&t);
    hes_orbit_free(&orbit);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_gradient_kinds_reach_the_same_optimum)
{
    const char *algorithms[] = { NULL, NULL, "LN_BOBYQA" };
    const int gradient[] = { 1, 0, 1 };
    double psi[3];
    for (int k = 0; k < 3; k++) {
        hes_system *sys = test_system_of(hes_problem_find("slip-hopper"));
        hes_shape_options o;
        hes_shape_options_init(&o);
        o.algorithm = algorithms[k];
        o.gradient = gradient[k];
        hes_shape_result r;
        ck_assert_int_eq(hes_shape_optimize(sys, &o, &r), HES_OK);
        ck_assert_int_eq(r.gradient, k == 2 ? -1 : gradient[k]);
        psi[k] = r.psi;
        hes_shape_result_free(&r);
        hes_system_destroy(sys);
    }
    /* the SLIP optimum sits where two multipliers coalesce, a square-root
     * kink of psi: a step tolerance e in h limits psi to ~sqrt(e), so the
     * gradient-based runs agree to 1e-5, not to the 1e-12 of a smooth optimum */
    ck_assert_double_eq_tol(psi[1], psi[0], 1e-5);
    /* derivative-free stops short of the kink within the same budget */
    ck_assert(psi[2] >= psi[0] - 1e-9 && psi[2] - psi[0] < 1e-3);
}
END_TEST

START_TEST(test_smooth_measure_bounds_psi_from_above_and_reports_true_psi)
{
    hes_system *sys = test_system_of(hes_problem_find("slip-hopper"));
    hes_shape_options o;
    hes_shape_options_init(&o);
    o.measure = HES_MEASURE_SMOOTH;
    hes_shape_result r;
    ck_assert_int_eq(hes_shape_optimize(sys, &o, &r), HES_OK);
    ck_assert(r.psi < 1.0);
    ck_assert(r.measure >= r.psi * (1 - 1e-12));
    ck_assert(r.measure <= r.psi * pow(2.0, 1.0 / HES_SMOOTH_P) * (1 + 1e-12));
    ck_assert_double_eq(r.psi, r.analysis.stab.psi);
    hes_shape_result_free(&r);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_optimizer_rejects_bad_options)
{
    hes_system *sys = test_system_of(hes_problem_find("slip-hopper"));
    hes_shape_options o;
    hes_shape_options_init(&o);
    hes_shape_result r;
    o.algorithm = "NO_SUCH_ALGORITHM";
    ck_assert_int_eq(hes_shape_optimize(sys, &o, &r), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "NO_SUCH_ALGORITHM"));
    hes_shape_options_init(&o);
    double lo[2] = { 0.5, -1 }, hi[2] = { 0.1, 1 }; /* K: LO > HI */
    o.lo = lo;
    o.hi = hi;
    ck_assert_int_eq(hes_shape_optimize(sys, &o, &r), HES_EINVAL);
    hes_shape_options_init(&o);
    double start[2] = { 5.0, 0.0 }; /* K outside its default bounds */
    o.start = start;
    ck_assert_int_eq(hes_shape_optimize(sys, &o, &r), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "K"));
    hes_shape_options_init(&o);
    o.starts = 0;
    ck_assert_int_eq(hes_shape_optimize(sys, &o, &r), HES_EINVAL);
    hes_system_destroy(sys);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("shape");
    TCase *tg = tcase_create("gradient");
    tcase_set_timeout(tg, 300);
    tcase_add_test(tg, test_juggler_gradient_equals_differences_of_full_reanalyses);
    tcase_add_test(tg, test_slip_gradient_equals_differences_of_full_reanalyses);
    tcase_add_test(tg, test_every_multiplier_modulus_has_its_gradient);
    tcase_add_test(tg, test_fallback_engages_where_multipliers_coalesce);
    tcase_add_test(tg, test_twenty_virtual_events_gradient_matches_closed_form);
    suite_add_tcase(s, tg);
    TCase *tp = tcase_create("property");
    tcase_set_timeout(tp, 120);
    tcase_add_test(tp, test_parameter_that_moves_the_orbit_is_refused);
    tcase_add_test(tp, test_declared_shape_parameters_pass_the_property_check);
    tcase_add_test(tp, test_fast_reevaluation_equals_full_reanalysis);
    suite_add_tcase(s, tp);
    TCase *to = tcase_create("optimiser");
    tcase_set_timeout(to, 300);
    tcase_add_test(to, test_juggler_optimum_is_alpha_on_the_closed_form_interval);
    tcase_add_test(to, test_slip_optimizer_stabilizes_from_zero_shape_parameters);
    tcase_add_test(to, test_gradient_kinds_reach_the_same_optimum);
    tcase_add_test(to, test_smooth_measure_bounds_psi_from_above_and_reports_true_psi);
    tcase_add_test(to, test_optimizer_rejects_bad_options);
    tcase_add_test(to, test_juggler_restitution_moves_the_orbit_to_its_closed_form_optimum);
    tcase_add_test(to, test_an_optimum_at_the_orbit_s_edge_says_why);
    suite_add_tcase(s, to);
    return test_run_suite(s);
}
