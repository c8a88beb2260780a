/*
 * test_collocation.c - multi-phase Hermite-Simpson collocation of the SLIP
 * orbit against the foundation's shooting solution: the exact constraint
 * Jacobian against central differences, the orbit reproduced, and the
 * fourth-order convergence of the discretisation error.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"
#include "shaping/colloc_internal.h"
#include "testutil.h"

/* A collocation of sys with `nodes` nodes and the other options' defaults. */
static hes_status colloc_nodes(hes_system *sys, int nodes, hes_colloc **out)
{
    hes_colloc_options o;
    hes_colloc_options_init(&o);
    o.nodes = nodes;
    return hes_colloc_new(sys, &o, out);
}

typedef struct {
    double l_td, theta_td, period;
} slip_orbit;

/* The shooting orbit; then the system's solved parameters are moved off it
 * so that collocation has to find them again. */
static hes_system *slip_off_orbit(slip_orbit *ref)
{
    hes_system *sys = test_system_of(hes_problem_find("slip-hopper"));
    hes_orbit orb;
    ck_assert_int_eq(hes_orbit_find(sys, &orb), HES_OK);
    hes_system_get_param(sys, "l_td", &ref->l_td);
    hes_system_get_param(sys, "theta_td", &ref->theta_td);
    ref->period = orb.period;
    hes_orbit_free(&orb);
    ck_assert_int_eq(hes_system_set_param(sys, "l_td", ref->l_td + 0.003), HES_OK);
    ck_assert_int_eq(hes_system_set_param(sys, "theta_td", ref->theta_td - 0.002), HES_OK);
    return sys;
}

/* Collocates with N nodes per phase; the largest error against shooting. */
static double collocation_error(int nodes)
{
    slip_orbit ref;
    hes_system *sys = slip_off_orbit(&ref);
    hes_colloc *c;
    ck_assert_int_eq(colloc_nodes(sys, nodes, &c), HES_OK);
    int nv = hes_colloc_nvars(c);
    ck_assert_int_eq(hes_colloc_ncons(c), nv); /* as many equations as unknowns */
    double *z = malloc(sizeof(double) * (size_t)nv), viol, l, th, T = 0;
    ck_assert_int_eq(hes_colloc_guess(c, z), HES_OK);
    ck_assert_msg(hes_colloc_solve(c, z, 1e-11, &viol) == HES_OK, "%s", hes_system_errmsg(sys));
    ck_assert(viol < 1e-10);
    hes_system_get_param(sys, "l_td", &l);
    hes_system_get_param(sys, "theta_td", &th);
    for (int i = 0; i < 3; i++)
        T += hes_colloc_duration(c, z, i);
    /* the apex state is where the orbit spec anchors it */
    const double *x0 = hes_colloc_state(c, z, 0, 0);
    ck_assert_double_eq_tol(x0[0], 2.0, 1e-10);
    ck_assert_double_eq_tol(x0[1], 2.5, 1e-10);
    double err = fmax(fabs(l - ref.l_td), fmax(fabs(th - ref.theta_td), fabs(T - ref.period)));
    free(z);
    hes_colloc_destroy(c);
    hes_system_destroy(sys);
    return err;
}

/* The reduced space's feasibility solve (Newton's method on the
 * equalities, colloc_reduced.c) finds the orbit SLSQP's feasibility solve
 * finds; with nothing free (the SLIP's program without design parameters)
 * its minimisation is refused with a message, and the hybrid's goes on in
 * the full space (to the same orbit: nothing is free). */
START_TEST(test_reduced_newton_finds_the_orbit_slsqp_finds)
{
    slip_orbit ref;
    hes_system *sys = slip_off_orbit(&ref);
    hes_colloc_options o;
    hes_colloc_options_init(&o);
    o.nodes = 9;
    hes_colloc *c[2];
    double *z[2], viol;
    for (int k = 0; k < 2; k++) {
        o.solver = k ? HES_NLP_SLSQP : HES_NLP_REDUCED;
        ck_assert_int_eq(hes_colloc_new(sys, &o, &c[k]), HES_OK);
        z[k] = malloc(sizeof(double) * (size_t)hes_colloc_nvars(c[k]));
        ck_assert_int_eq(hes_colloc_guess(c[k], z[k]), HES_OK);
        ck_assert_msg(hes_colloc_solve(c[k], z[k], 1e-11, &viol) == HES_OK, "%s",
                      hes_system_errmsg(sys));
        ck_assert(viol < 1e-10);
    }
    double d = 0;
    for (int j = 0; j < hes_colloc_nvars(c[0]); j++)
        d = fmax(d, fabs(z[0][j] - z[1][j]));
    ck_assert_msg(d < 1e-8, "Newton and SLSQP differ by %g", d);
    hes_colloc_result res;
    ck_assert_int_eq(hes_colloc_minimize(c[0], z[0], HES_COLLOC_STABILITY, 0, 1e-9, 50, &res),
                     HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "no free variables"));
    hes_colloc *h;
    o.solver = HES_NLP_HYBRID;
    ck_assert_int_eq(hes_colloc_new(sys, &o, &h), HES_OK);
    double *zh = malloc(sizeof(double) * (size_t)hes_colloc_nvars(h));
    memcpy(zh, z[1], sizeof(double) * (size_t)hes_colloc_nvars(h));
    ck_assert_msg(hes_colloc_minimize(h, zh, HES_COLLOC_STABILITY, 0, 1e-9, 50, &res) == HES_OK,
                  "%s", hes_system_errmsg(sys));
    d = 0;
    for (int j = 0; j < hes_colloc_nvars(h); j++)
        d = fmax(d, fabs(zh[j] - z[1][j]));
    ck_assert_msg(d < 1e-7 && res.violation < 1e-8, "the hybrid moved by %g (violation %g)", d,
                  res.violation);
    free(zh);
    hes_colloc_destroy(h);
    for (int k = 0; k < 2; k++) {
        free(z[k]);
        hes_colloc_destroy(c[k]);
    }
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_collocation_jacobian_equals_central_differences)
{
    slip_orbit ref;
    hes_system *sys = slip_off_orbit(&ref);
    hes_colloc *c;
    ck_assert_int_eq(colloc_nodes(sys, 7, &c), HES_OK);
    int nv = hes_colloc_nvars(c), nc = hes_colloc_ncons(c);
    double *z = malloc(sizeof(double) * (size_t)nv), *cv = malloc(sizeof(double) * (size_t)nc),
           *J = malloc(sizeof(double) * (size_t)nc * nv), *cp = malloc(sizeof(double) * (size_t)nc),
           *cm = malloc(sizeof(double) * (size_t)nc);
    ck_assert_int_eq(hes_colloc_guess(c, z), HES_OK);
    ck_assert_int_eq(hes__colloc_constraints(c, z, cv, J), HES_OK);
    double worst = 0, scale = 0;
    for (int j = 0; j < nv; j++) {
        double h = 1e-6 * fmax(1.0, fabs(z[j])), zj = z[j];
        z[j] = zj + h;
        ck_assert_int_eq(hes__colloc_constraints(c, z, cp, NULL), HES_OK);
        z[j] = zj - h;
        ck_assert_int_eq(hes__colloc_constraints(c, z, cm, NULL), HES_OK);
        z[j] = zj;
        for (int i = 0; i < nc; i++) {
            double fd = (cp[i] - cm[i]) / (2 * h);
            worst = fmax(worst, fabs(fd - J[i + (size_t)j * nc]));
            scale = fmax(scale, fabs(fd));
        }
    }
    ck_assert_msg(worst < 1e-7 * scale, "|J - FD| = %g, scale %g", worst, scale);
    free(z);
    free(cv);
    free(J);
    free(cp);
    free(cm);
    hes_colloc_destroy(c);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_collocation_reproduces_the_slip_orbit_at_fourth_order)
{
    double e11 = collocation_error(11), e21 = collocation_error(21);
    ck_assert_msg(e11 < 5e-6 && e21 < 3e-7, "errors %g (N = 11), %g (N = 21)", e11, e21);
    /* halving h divides a fourth-order error by 16 */
    ck_assert_msg(e11 / e21 > 12 && e11 / e21 < 20, "error ratio %g", e11 / e21);
}
END_TEST

/* The SLIP at shape values (K, thetadot) with them as design variables,
 * collocated with N nodes; z returned (caller frees). */
/* The largest difference between g and central differences of psi (as
 * hes_colloc_psi gives it, smoothed when c->psi_mu > 0) at z, and in
 * *scale the largest difference quotient. */
static double gradient_error(hes_colloc *c, double *z, const double *g, double *scale)
{
    double worst = 0;
    *scale = 0;
    for (int v = 0; v < hes_colloc_nvars(c); v++) {
        double h = 1e-6 * fmax(1.0, fabs(z[v])), zv = z[v], pp, pm;
        z[v] = zv + h;
        ck_assert_int_eq(hes_colloc_psi(c, z, &pp, NULL, NULL), HES_OK);
        z[v] = zv - h;
        ck_assert_int_eq(hes_colloc_psi(c, z, &pm, NULL, NULL), HES_OK);
        z[v] = zv;
        worst = fmax(worst, fabs((pp - pm) / (2 * h) - g[v]));
        *scale = fmax(*scale, fabs((pp - pm) / (2 * h)));
    }
    return worst;
}

static double *collocate(hes_system *sys, int nodes, hes_colloc **out)
{
    const char *names[] = { "K", "thetadot" };
    const double lo[] = { -0.2, -3.0 }, hi[] = { 0.6, 1.0 };
    ck_assert_int_eq(colloc_nodes(sys, nodes, out), HES_OK);
    ck_assert_int_eq(hes_colloc_set_design(*out, 2, names, lo, hi), HES_OK);
    int nv = hes_colloc_nvars(*out);
    ck_assert_int_eq(nv, hes_colloc_ncons(*out) + 2);
    double *z = malloc(sizeof(double) * (size_t)nv), viol;
    ck_assert_int_eq(hes_colloc_guess(*out, z), HES_OK);
    ck_assert_int_eq(hes_colloc_solve(*out, z, 1e-12, &viol), HES_OK);
    return z;
}

START_TEST(test_collocation_psi_matches_shooting_and_its_gradient_differences)
{
    hes_system *sys = test_system_of(hes_problem_find("slip-hopper"));
    ck_assert_int_eq(hes_system_set_param(sys, "K", 0.1), HES_OK);
    ck_assert_int_eq(hes_system_set_param(sys, "thetadot", -0.3), HES_OK);
    hes_analysis res;
    ck_assert_int_eq(hes_analyze(sys, 0, &res), HES_OK);
    hes_colloc *c;
    double *z = collocate(sys, 21, &c), psi;
    int nv = hes_colloc_nvars(c), fb;
    double *g = malloc(sizeof(double) * (size_t)nv);
    ck_assert_int_eq(hes_colloc_psi(c, z, &psi, g, &fb), HES_OK);
    ck_assert(!fb);
    /* the discrete monodromy converges to the shooting one at fourth order */
    ck_assert_msg(fabs(psi - res.stab.psi) < 1e-5 * res.stab.psi, "collocation %.12g, shooting %.12g",
                  psi, res.stab.psi);
    /* the gradient against central differences of psi(z), every variable */
    double scale, worst = gradient_error(c, z, g, &scale);
    ck_assert_msg(worst < 1e-6 * scale, "|grad - FD| = %g (scale %g)", worst, scale);
    /* and dpsi/dK, dpsi/dthetadot against the shape gradient (shape.c),
     * computed over the shooting orbit's factors */
    hes_shape *sh;
    hes_shape_eval_result ev;
    ck_assert_int_eq(hes_shape_new(sys, &res, 0, NULL, &sh), HES_OK);
    ck_assert_int_eq(hes_shape_eval(sh, NULL, 1, &ev), HES_OK);
    for (int j = 0; j < 2; j++)
        ck_assert_msg(fabs(g[nv - 2 + j] - ev.dpsi[j]) < 1e-4 * fmax(1.0, fabs(ev.dpsi[j])),
                      "shape gradient %d: collocation %.10g, shooting %.10g", j, g[nv - 2 + j],
                      ev.dpsi[j]);
    hes_shape_destroy(sh);
    free(g);
    free(z);
    hes_colloc_destroy(c);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_collocation_with_psi_in_the_cost_finds_the_shape_optimum)
{
    hes_system *sys = test_system_of(hes_problem_find("slip-hopper"));
    ck_assert_int_eq(hes_system_set_param(sys, "K", 0.05), HES_OK);
    ck_assert_int_eq(hes_system_set_param(sys, "thetadot", -0.3), HES_OK);
    hes_colloc *c;
    double *z = collocate(sys, 21, &c), psi, viol;
    int evals;
    ck_assert_int_eq(hes_colloc_optimize(c, z, 1e-10, &psi, &viol, &evals), HES_OK);
    ck_assert(viol < 1e-9);
    /* the optimum of hes shape: psi 0.66236 at K = 0.11875,
     * thetadot = 1 (the bound), found here through the orbit's own NLP */
    hes_shape_options o;
    hes_shape_options_init(&o);
    hes_shape_result r;
    hes_system *ref = test_system_of(hes_problem_find("slip-hopper"));
    ck_assert_int_eq(hes_shape_optimize(ref, &o, &r), HES_OK);
    ck_assert_msg(fabs(psi - r.psi) < 1e-4, "collocation psi %.10g, shape optimum %.10g", psi, r.psi);
    /* There two multipliers meet (a real pair turns complex), and at the
     * kink itself (found by bisection in K) the gradient falls back to
     * central differences of psi, taken from the factors that move: the
     * same numbers as re-evaluating everything (the differences here), and
     * the same on a team of 3 threads. */
    int nv = hes_colloc_nvars(c), fb = 0;
    double *g = malloc(sizeof(double) * (size_t)nv), *g3 = malloc(sizeof(double) * (size_t)nv), p0;
    double lo = z[nv - 2] - 1e-3, hi = z[nv - 2] + 1e-3, K0 = z[nv - 2];
    for (int i = 0; i < 60; i++) {
        double mid = 0.5 * (lo + hi), pl, pr;
        z[nv - 2] = mid - 1e-12;
        ck_assert_int_eq(hes_colloc_psi(c, z, &pl, NULL, NULL), HES_OK);
        z[nv - 2] = mid + 1e-12;
        ck_assert_int_eq(hes_colloc_psi(c, z, &pr, NULL, NULL), HES_OK);
        if (pr < pl)
            lo = mid;
        else
            hi = mid;
    }
    z[nv - 2] = 0.5 * (lo + hi);
    ck_assert_int_eq(hes_colloc_psi(c, z, &p0, g, &fb), HES_OK);
    ck_assert_msg(fb, "no fallback at the kink K = %.15g (psi %.12g)", z[nv - 2], p0);
    for (int v = 0; v < nv; v++) { /* the steps as represented, as the library takes them */
        double h = 1e-6 * fmax(1.0, fabs(z[v])), zv = z[v], pp, pm;
        volatile double zp = zv + h, zm = zv - h;
        z[v] = zp;
        ck_assert_int_eq(hes_colloc_psi(c, z, &pp, NULL, NULL), HES_OK);
        z[v] = zm;
        ck_assert_int_eq(hes_colloc_psi(c, z, &pm, NULL, NULL), HES_OK);
        z[v] = zv;
        ck_assert_msg(g[v] == (pp - pm) / (zp - zm), "variable %d: %.17g vs %.17g", v, g[v],
                      (pp - pm) / (zp - zm));
    }
    hes_colloc_options o3;
    hes_colloc_options_init(&o3);
    o3.nodes = 21;
    o3.jobs = 3;
    hes_colloc *c3;
    const char *names[] = { "K", "thetadot" };
    const double dlo[] = { -0.2, -3.0 }, dhi[] = { 0.6, 1.0 };
    ck_assert_int_eq(hes_colloc_new(sys, &o3, &c3), HES_OK);
    ck_assert_int_eq(hes_colloc_set_design(c3, 2, names, dlo, dhi), HES_OK);
    ck_assert_int_eq(hes_colloc_nvars(c3), nv);
    ck_assert_int_eq(hes_colloc_psi(c3, z, &p0, g3, &fb), HES_OK);
    ck_assert(fb);
    ck_assert_msg(memcmp(g, g3, sizeof(double) * (size_t)nv) == 0,
                  "the fallback gradient on 3 threads differs from the serial one");
    hes_colloc_destroy(c3);
    z[nv - 2] = K0;
    ck_assert_int_eq(hes_colloc_psi(c, z, &p0, NULL, NULL), HES_OK); /* c's parameters at z */
    free(g);
    free(g3);
    double K;
    hes_system_get_param(sys, "K", &K);
    ck_assert_double_eq_tol(K, r.h[0], 1e-4);
    /* the independent shooting analysis of the same orbit agrees to 1e-3 */
    hes_analysis res;
    ck_assert_int_eq(hes_analyze(sys, 0, &res), HES_OK);
    ck_assert_msg(fabs(res.stab.psi - psi) < 1e-3 * psi, "shooting %.10g vs collocation %.10g",
                  res.stab.psi, psi);
    hes_analysis_free(&res);
    hes_shape_result_free(&r);
    hes_system_destroy(ref);
    free(z);
    hes_colloc_destroy(c);
    hes_system_destroy(sys);
}
END_TEST

/* The psi floor's term (hes__colloc_floor): max(psi, floor) exactly without
 * smoothing; with it, above max(psi, floor) by at most mu / 4 (at the
 * floor), equal to it with the same slope (0 and 1) at psi = floor -+ mu,
 * and its slope the central difference of its value. */
START_TEST(test_psi_floor_smoothing_is_c1_and_above_the_floor)
{
    const double floor = 0.15, mu = 0.03, h = 1e-7;
    double s, s2, worst = 0;
    for (int k = 0; k <= 400; k++) {
        double psi = 0.05 + 0.2 * k / 400.0, v = hes__colloc_floor(psi, floor, 0, &s);
        ck_assert(v == fmax(psi, floor) && s == (psi < floor ? 0.0 : 1.0));
        double w = hes__colloc_floor(psi, floor, mu, &s);
        ck_assert(w >= v && w - v <= mu / 4 * (1 + 1e-12));
        worst = fmax(worst, w - v);
        double fd = (hes__colloc_floor(psi + h, floor, mu, &s2) -
                     hes__colloc_floor(psi - h, floor, mu, &s2)) / (2 * h);
        if (fabs(fabs(psi - floor) - mu) > 2 * h) /* not across the joins */
            ck_assert_msg(fabs(fd - s) < 1e-6, "psi %.6f: slope %.9f, differences %.9f", psi,
                          s, fd);
    }
    ck_assert_double_eq_tol(worst, mu / 4, 1e-6);  /* reached at psi = floor */
    for (int side = -1; side <= 1; side += 2) {    /* the joins: value and slope */
        double at = floor + side * mu, a, b;
        double va = hes__colloc_floor(at - 1e-9, floor, mu, &a);
        double vb = hes__colloc_floor(at + 1e-9, floor, mu, &b);
        ck_assert(fabs(va - vb) < 1e-8 && fabs(a - b) < 1e-6);
        ck_assert_double_eq_tol(a, side < 0 ? 0.0 : 1.0, 1e-6);
    }
}
END_TEST

/* The smoothed maximum (hes__colloc_smax), on random sets of 2 to 6
 * numbers: its weights are on the simplex and are the central differences
 * of its value; it is the maximum exactly where the largest leads the
 * others by mu, above it by at most mu/2 (1 - 1/m) elsewhere (reached when
 * all are equal); the same in any order; for two numbers the floor's
 * quadratic (test_psi_floor_smoothing_is_c1_and_above_the_floor). */
START_TEST(test_smoothed_maximum_is_c1_exact_away_from_ties_and_bounded)
{
    unsigned long long seed = 7;
    const double mu = 0.05, h = 1e-7;
    for (int trial = 0; trial < 400; trial++) {
        int m = 2 + trial % 5;
        double a[6], w[6], wp[6], b[6], wb[6], top = -HUGE_VAL;
        for (int k = 0; k < m; k++) { /* clustered within a few mu, often in the band */
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            a[k] = 0.5 + 0.1 * (double)(seed >> 11) / 9007199254740992.0;
            top = fmax(top, a[k]);
        }
        double v = hes__colloc_smax(a, m, mu, w), sum = 0;
        int near = 0; /* within mu of the largest, itself included */
        for (int k = 0; k < m; k++) {
            ck_assert(w[k] >= 0 && w[k] <= 1);
            sum += w[k];
            near += top - a[k] < mu;
        }
        ck_assert_double_eq_tol(sum, 1.0, 1e-12);
        ck_assert(v >= top - 1e-15 && v <= top + mu / 2 * (1 - 1.0 / m) + 1e-15);
        if (near == 1)
            ck_assert(v == top);
        for (int k = 0; k < m; k++) { /* gradient = central differences */
            double keep = a[k], vp, vm;
            a[k] = keep + h;
            vp = hes__colloc_smax(a, m, mu, wp);
            a[k] = keep - h;
            vm = hes__colloc_smax(a, m, mu, wp);
            a[k] = keep;
            ck_assert_msg(fabs((vp - vm) / (2 * h) - w[k]) < 1e-6, "m %d, k %d: %.9f vs %.9f", m,
                          k, w[k], (vp - vm) / (2 * h));
        }
        for (int k = 0; k < m; k++) /* reversed order: the same value and weights */
            b[k] = a[m - 1 - k];
        ck_assert_double_eq_tol(hes__colloc_smax(b, m, mu, wb), v, 1e-15);
        for (int k = 0; k < m; k++)
            ck_assert_double_eq_tol(wb[k], w[m - 1 - k], 1e-12);
        if (m == 2) { /* the floor's term, and its quadratic as written before */
            double slope, f = hes__colloc_floor(a[0], a[1], mu, &slope), d = a[0] - a[1] + mu;
            ck_assert(f == v && slope == w[0]);
            if (d > 0 && d < 2 * mu)
                ck_assert(f == a[1] + d * d / (4 * mu) && slope == d / (2 * mu));
        }
    }
    double same[4] = { 0.3, 0.3, 0.3, 0.3 }, w[4];  /* the largest excess */
    ck_assert_double_eq_tol(hes__colloc_smax(same, 4, mu, w), 0.3 + mu / 2 * 0.75, 1e-15);
    ck_assert_double_eq_tol(w[2], 0.25, 1e-15);
    ck_assert(hes__colloc_smax(same, 4, 0.0, w) == 0.3 && w[0] == 1 && w[1] == 0); /* mu 0: max */
}
END_TEST

/* psi's own smoothing (hes_colloc_options.psi_smoothing): the SLIP from K =
 * thetadot = 0 (psi 2.006), whose optimum lies where a real pair of
 * multipliers turns complex.  SLSQP on 11 nodes crawls there without it
 * (0.662866 at the 1000-evaluation cap; from K within 3e-7 of 0, 5 of 8
 * runs miss by up to 3.5e-3, the reduced space on 21 nodes 3 of 8); with
 * psi_smoothing 0.05 SLSQP and the reduced space reach the optimum of the
 * same grid, here by IPOPT (unsmoothed), or without IPOPT the shape
 * optimum by shooting within the grid's error. */
static double slip_optimum(int nodes, hes_nlp_solver solver, double smoothing, double K,
                           int *evals)
{
    hes_system *sys = test_system_of(hes_problem_find("slip-hopper"));
    ck_assert_int_eq(hes_system_set_param(sys, "K", K), HES_OK);
    const char *names[] = { "K", "thetadot" };
    const double lo[] = { -0.2, -3.0 }, hi[] = { 0.6, 1.0 };
    hes_colloc_options o;
    hes_colloc_options_init(&o);
    o.nodes = nodes;
    o.solver = solver;
    o.psi_smoothing = smoothing;
    hes_colloc *c;
    double viol, psi;
    ck_assert_int_eq(hes_colloc_new(sys, &o, &c), HES_OK);
    ck_assert_int_eq(hes_colloc_set_design(c, 2, names, lo, hi), HES_OK);
    double *z = malloc(sizeof(double) * (size_t)hes_colloc_nvars(c));
    ck_assert_int_eq(hes_colloc_guess(c, z), HES_OK);
    ck_assert_int_eq(hes_colloc_solve(c, z, 1e-10, &viol), HES_OK);
    ck_assert_int_eq(hes_colloc_optimize(c, z, 1e-10, &psi, &viol, evals), HES_OK);
    ck_assert(viol < 1e-9);
    free(z);
    hes_colloc_destroy(c);
    hes_system_destroy(sys);
    return psi;
}

START_TEST(test_psi_smoothing_reaches_the_slip_optimum)
{
    static const struct { int nodes; hes_nlp_solver solver; double K; } run[] = {
        { 11, HES_NLP_SLSQP, 0 }, { 21, HES_NLP_REDUCED, 3e-7 } };
    for (int r = 0; r < 2; r++) {
        int e, e_ref;
        double psi = slip_optimum(run[r].nodes, run[r].solver, 0.05, run[r].K, &e), ref;
        if (hes_nlp_solver_available(HES_NLP_IPOPT)) {
            ref = slip_optimum(run[r].nodes, HES_NLP_IPOPT, 0.0, run[r].K, &e_ref);
            ck_assert_msg(fabs(psi - ref) < 1e-6, "%s on %d nodes: psi %.9f, IPOPT %.9f",
                          hes_nlp_solver_name(run[r].solver), run[r].nodes, psi, ref);
        } else { /* the shape optimum by shooting, 0.662362 */
            hes_shape_result sr;
            hes_shape_options so;
            hes_shape_options_init(&so);
            hes_system *ref_sys = test_system_of(hes_problem_find("slip-hopper"));
            ck_assert_int_eq(hes_shape_optimize(ref_sys, &so, &sr), HES_OK);
            ck_assert_msg(fabs(psi - sr.psi) < 2e-5, "psi %.9f, shape optimum %.9f", psi,
                          sr.psi);
            hes_shape_result_free(&sr);
            hes_system_destroy(ref_sys);
        }
        printf("test_collocation: psi smoothing 0.05, %s on %d nodes: psi %.9f in %d "
               "evaluations\n", hes_nlp_solver_name(run[r].solver), run[r].nodes, psi, e);
    }
}
END_TEST

/* The smoothed psi's gradient (what the rounds minimise with psi_mu > 0)
 * against central differences of its value, where the SLIP's two
 * multipliers are a complex pair (K = 0.11: the value |lambda| + mu/4, the
 * pair counted twice) and where they are real and within mu (K = 0.2:
 * 1.039 and 0.852), on 21 nodes; the smoothed value lies above psi. */
START_TEST(test_smoothed_psi_gradient_equals_central_differences)
{
    const double Ks[2] = { 0.11, 0.2 }, mu = 0.5;
    for (int t = 0; t < 2; t++) {
        hes_system *sys = test_system_of(hes_problem_find("slip-hopper"));
        ck_assert_int_eq(hes_system_set_param(sys, "K", Ks[t]), HES_OK);
        ck_assert_int_eq(hes_system_set_param(sys, "thetadot", 1.0), HES_OK);
        hes_colloc *c;
        double *z = collocate(sys, 21, &c), psi, v;
        int nv = hes_colloc_nvars(c), fb;
        double *g = malloc(sizeof(double) * (size_t)nv);
        ck_assert_int_eq(hes_colloc_psi(c, z, &psi, NULL, NULL), HES_OK);
        c->psi_mu = mu;
        ck_assert_int_eq(hes_colloc_psi(c, z, &v, g, &fb), HES_OK);
        /* in the band: two eigenvalues weigh (a pair counts once there) */
        ck_assert_msg(!fb && c->psi_band == (t == 1) && v > psi, "K %g: fallback %d band %d",
                      Ks[t], fb, c->psi_band);
        if (t == 0)
            ck_assert_double_eq_tol(v, psi + mu / 4, 1e-12);
        double scale, worst = gradient_error(c, z, g, &scale);
        c->psi_mu = 0;
        ck_assert_msg(worst < 1e-6 * scale, "K %g: gradient off by %.3g of %.3g", Ks[t], worst,
                      scale);
        free(g);
        free(z);
        hes_colloc_destroy(c);
        hes_system_destroy(sys);
    }
}
END_TEST

START_TEST(test_collocation_refuses_what_it_does_not_handle_yet)
{
    hes_system *sys = test_system_of(hes_problem_find("paddle-juggler"));
    hes_colloc *c = NULL;
    ck_assert_int_eq(colloc_nodes(sys, 11, &c), HES_EINVAL); /* non-autonomous */
    ck_assert_ptr_null(c);
    hes_system_destroy(sys);
    sys = test_system_of(hes_problem_find("slip-hopper"));
    ck_assert_int_eq(colloc_nodes(sys, 1, &c), HES_EINVAL);
    hes_system_destroy(sys);
}
END_TEST

/* A collocation's failure is its own last message too (hes_colloc_errmsg):
 * a design parameter the model does not have is refused naming it. */
START_TEST(test_a_refused_design_is_the_collocations_message)
{
    hes_system *sys = test_system("slip-hopper");
    hes_colloc *c = NULL;
    ck_assert_int_eq(hes_colloc_new(sys, NULL, &c), HES_OK);
    const char *names[] = { "nosuch" };
    const double lo[] = { 0 }, hi[] = { 1 };
    ck_assert_int_eq(hes_colloc_set_design(c, 1, names, lo, hi), HES_ENOTFOUND);
    ck_assert_msg(strstr(hes_colloc_errmsg(c), "'nosuch'"), "%s", hes_colloc_errmsg(c));
    hes_colloc_destroy(c);
    hes_system_destroy(sys);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("collocation");
    TCase *tc = tcase_create("collocation");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_collocation_jacobian_equals_central_differences);
    tcase_add_test(tc, test_reduced_newton_finds_the_orbit_slsqp_finds);
    tcase_add_test(tc, test_collocation_reproduces_the_slip_orbit_at_fourth_order);
    tcase_add_test(tc, test_collocation_psi_matches_shooting_and_its_gradient_differences);
    tcase_add_test(tc, test_collocation_with_psi_in_the_cost_finds_the_shape_optimum);
    tcase_add_test(tc, test_collocation_refuses_what_it_does_not_handle_yet);
    tcase_add_test(tc, test_psi_floor_smoothing_is_c1_and_above_the_floor);
    tcase_add_test(tc, test_smoothed_maximum_is_c1_exact_away_from_ties_and_bounded);
    tcase_add_test(tc, test_psi_smoothing_reaches_the_slip_optimum);
    tcase_add_test(tc, test_smoothed_psi_gradient_equals_central_differences);
    tcase_add_test(tc, test_a_refused_design_is_the_collocations_message);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
