/*
 * test_impact.c - hes_impact_anitescu_potra (lib/contact/impact.c) against
 * independent computations:
 *   - one frictionless contact: the closed form v+ = v - W n^T (n v) /
 *     (n W n^T) on random masses, normals and velocities;
 *   - a point mass hitting the ground with friction: sticks when
 *     |v_t| <= mu |v_n| (v+ = 0), else slides with v_t reduced by mu |v_n|;
 *   - the paper's rocking block dropped flat (Sec. 5.4.1: 1 x 2, mass 1,
 *     friction 1): Anitescu-Potra brings it to rest;
 *   - random contact sets: complementarity to 1e-9 and no kinetic energy
 *     gained (Anitescu and Potra 1997), or refused where their friction
 *     cone is not pointed (Gilbert's algorithm, independently, brings the
 *     hull of the cone's edges to the origin);
 *   - friction beyond double precision (HES_IMPACT_MU_MAX) and a cone that
 *     is not pointed refused; below the bound, sticking as Coulomb says;
 *   - bad input refused.
 * Skipped with a message without Siconos numerics.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"
#include "testutil.h"

static int have_solver(void)
{
    return test_have_lcp("test_impact");
}

static unsigned long long rng = 987654321ULL;
static double uniform(double lo, double hi)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

/* M = B B^T + I (n <= 6) */
static void random_mass(int n, double *M)
{
    double B[36];
    for (int i = 0; i < n * n; i++)
        B[i] = uniform(-1, 1);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = i == j;
            for (int k = 0; k < n; k++)
                s += B[i + n * k] * B[j + n * k];
            M[i + n * j] = s;
        }
}

/* x = M^-1 b (n <= 6) */
static void spd_solve(int n, const double *M, const double *b, double *x)
{
    double A[36];
    memcpy(A, M, sizeof(double) * n * n);
    memcpy(x, b, sizeof(double) * n);
    ck_assert(test_solve(n, A, x));
}

START_TEST(test_one_frictionless_contact_is_the_closed_form)
{
    if (!have_solver())
        return;
    double worst = 0;
    for (int rep = 0; rep < 50; rep++) {
        int n = 2 + rep % 5;
        double M[36], Jn[6], Jt[6], v[6], vp[6], Wn[6], mu = 0;
        random_mass(n, M);
        double nv = 0;
        for (int j = 0; j < n; j++) {
            Jn[j] = uniform(-1, 1);
            Jt[j] = uniform(-1, 1);
            v[j] = uniform(-1, 1);
            nv += Jn[j] * v[j];
        }
        if (nv > 0)   /* approaching: n v < 0 */
            for (int j = 0; j < n; j++)
                v[j] = -v[j];
        nv = -fabs(nv);
        spd_solve(n, M, Jn, Wn);
        double nWn = 0;
        for (int j = 0; j < n; j++)
            nWn += Jn[j] * Wn[j];
        hes_contact_set cs = { n, 1, M, Jn, Jt, &mu };
        double pn, pt;
        hes_impact_info info;
        hes_error msg;
        ck_assert_msg(hes_impact_anitescu_potra(&cs, v, vp, &pn, &pt, &info, &msg) ==
                      HES_OK, "%s", msg.message);
        ck_assert_double_eq_tol(pn, -nv / nWn, 1e-10 * (1 + fabs(nv / nWn)));
        ck_assert_double_eq_tol(pt, 0, 1e-12);
        for (int j = 0; j < n; j++)
            worst = fmax(worst, fabs(vp[j] - (v[j] - Wn[j] * nv / nWn)));
    }
    ck_assert_msg(worst < 1e-10, "|v+ - closed form| = %g", worst);
}
END_TEST

START_TEST(test_point_mass_sticks_or_slides_by_coulomb)
{
    if (!have_solver())
        return;
    /* a unit point mass in the plane hitting the ground (normal y) at
     * v = (vx, -1), mu = 0.5: sticks for |vx| <= 0.5, else slides with
     * vx - 0.5 sign(vx) */
    const double M[4] = { 1, 0, 0, 1 }, Jn[2] = { 0, 1 }, Jt[2] = { 1, 0 }, mu = 0.5;
    hes_contact_set cs = { 2, 1, M, Jn, Jt, &mu };
    const double vxs[] = { -2, -0.7, -0.5, -0.2, 0, 0.3, 0.49, 0.8, 3 };
    for (size_t q = 0; q < sizeof vxs / sizeof *vxs; q++) {
        double v[2] = { vxs[q], -1 }, vp[2], pn, pt;
        hes_error msg;
        ck_assert_msg(hes_impact_anitescu_potra(&cs, v, vp, &pn, &pt, NULL, &msg) ==
                      HES_OK, "%s", msg.message);
        double want = fabs(vxs[q]) <= mu ? 0 : vxs[q] - mu * (vxs[q] > 0 ? 1 : -1);
        ck_assert_double_eq_tol(vp[0], want, 1e-12);
        ck_assert_double_eq_tol(vp[1], 0, 1e-12);
        ck_assert_double_eq_tol(pn, 1, 1e-12);
        ck_assert(fabs(pt) <= mu * pn + 1e-12);
    }
}
END_TEST

/* The rocking block of the paper's Sec. 5.4.1 and Table 1: width 1, height
 * 2, mass 1, inertia m (w^2 + h^2) / 12, friction 1, on its two bottom
 * corners (-w/2, -h/2), (w/2, -h/2); generalised velocity (vx, vy,
 * omega): a corner r moves at (vx - omega r_y, vy + omega r_x). */
static hes_contact_set rocking_block(double *M, double *Jn, double *Jt, double *mu, double *I)
{
    const double w = 1, h = 2, m = 1;
    *I = m * (w * w + h * h) / 12;
    memset(M, 0, 9 * sizeof *M);
    M[0] = M[4] = m;
    M[8] = *I;
    for (int i = 0; i < 2; i++) {
        double rx = i ? w / 2 : -w / 2, ry = -h / 2;
        Jn[i] = 0;      Jn[i + 2] = 1;     Jn[i + 4] = rx;
        Jt[i] = 1;      Jt[i + 2] = 0;     Jt[i + 4] = -ry;
        mu[i] = 1;
    }
    hes_contact_set cs = { 3, 2, M, Jn, Jt, mu };
    return cs;
}

/* The block dropped flat at 1 m/s. */
START_TEST(test_rocking_block_comes_to_rest_under_anitescu_potra)
{
    if (!have_solver())
        return;
    double M[9], Jn[6], Jt[6], mu[2], I;
    hes_contact_set cs = rocking_block(M, Jn, Jt, mu, &I);
    double v[3] = { 0, -1, 0 }, vp[3], pn[2], pt[2];
    hes_impact_info info;
    hes_error msg;
    ck_assert_msg(hes_impact_anitescu_potra(&cs, v, vp, pn, pt, &info, &msg) ==
                  HES_OK, "%s", msg.message);
    for (int j = 0; j < 3; j++)
        ck_assert_double_eq_tol(vp[j], 0, 1e-12);
    ck_assert_double_eq_tol(pn[0] + pn[1], 1, 1e-12);   /* the momentum m |vy| */
    ck_assert_double_eq_tol(info.energy_after, 0, 1e-20);
    ck_assert_double_eq_tol(info.energy_before, 0.5, 1e-15);
    ck_assert(info.residual <= 1e-9);
}
END_TEST

/* Sequential impacts of the same block (paper Fig. 1: "rolling off either
 * corner").  Corner A = (-1/2, -1) first, by hand: W = diag(1, 1, 12/5),
 * n_A = (0, 1, -1/2), t_A = (1, 0, 1); n W n = 1.6, n W t = -1.2,
 * t W t = 3.4; sticking (|p_t| <= p_n) solves -1 + 1.6 p_n - 1.2 p_t = 0,
 * -1.2 p_n + 3.4 p_t = 0: p_n = 0.85, p_t = 0.3, v = (0.3, -0.15, -0.3),
 * and corner B = (1/2, -1) then approaches at -0.3; B alone, the same way:
 * p_n = 0.255, p_t = -0.09, v+ = (0.21, 0.105, -0.21): B at rest, A
 * lifting at 0.21 (the block pivots about B).  The other order is the
 * mirror image (vx, omega change sign). */
START_TEST(test_rocking_block_sequential_orders_pivot_on_either_corner)
{
    if (!have_solver())
        return;
    double M[9], Jn[6], Jt[6], mu[2], I;
    hes_contact_set cs = rocking_block(M, Jn, Jt, mu, &I);
    for (int o = 0; o < 2; o++) {
        int order[2] = { o, 1 - o };
        double v[3] = { 0, -1, 0 }, vp[3], pn[2], pt[2], sg = o == 0 ? 1 : -1;
        hes_impact_info info;
        hes_error msg;
        ck_assert_msg(hes_impact_sequential(&cs, order, 2, 100, v, vp, pn, pt, &info, &msg) == HES_OK, "%s", msg.message);
        ck_assert_int_eq(info.lcps, 2);
        ck_assert_double_eq_tol(vp[0], sg * 0.21, 1e-12);
        ck_assert_double_eq_tol(vp[1], 0.105, 1e-12);
        ck_assert_double_eq_tol(vp[2], -sg * 0.21, 1e-12);
        ck_assert_double_eq_tol(pn[o], 0.85, 1e-12);
        ck_assert_double_eq_tol(pn[1 - o], 0.255, 1e-12);
        ck_assert_double_eq_tol(info.energy_after, 0.5 * (0.21 * 0.21 + 0.105 * 0.105) +
                                                       0.5 * I * 0.21 * 0.21, 1e-12);
    }
    /* an order naming no contact, and a pass limit too small */
    int bad[1] = { 2 }, ab[2] = { 0, 1 };
    double v[3] = { 0, -1, 0 }, vp[3];
    hes_error msg;
    ck_assert_int_eq(hes_impact_sequential(&cs, bad, 1, 10, v, vp, NULL, NULL, NULL, &msg), HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "order[0] = 2"), "%s", msg.message);
    /* one pass suffices for the block (B's impact leaves A lifting) */
    ck_assert_int_eq(hes_impact_sequential(&cs, ab, 2, 1, v, vp, NULL, NULL, NULL, &msg), HES_OK);
    /* a frictionless point mass in a V of walls at +-30 degrees from the
     * vertical: each impact sends it into the other wall with its speed
     * times cos(120 degrees) = -1/2 (Zeno), so the speed after p passes is
     * 4^-p of the first: refused after a pass limit too small, not looped
     * on; ended at the Zeno limit, rest, once the approach is below the
     * laws' tolerance 1e-8 |u-| (14 passes: 4^-14 = 3.7e-9) */
    const double Mp[4] = { 1, 0, 0, 1 }, c30 = sqrt(3) / 2;
    const double Jv[4] = { c30, -c30, 0.5, 0.5 }, Jw[4] = { 0.5, 0.5, -c30, c30 };
    const double mu0[2] = { 0, 0 };
    hes_contact_set vee = { 2, 2, Mp, Jv, Jw, mu0 };
    double u[2] = { 0.3, -1 };
    ck_assert_int_eq(hes_impact_sequential(&vee, ab, 2, 5, u, vp, NULL, NULL, NULL, &msg), HES_EMAXITER);
    ck_assert_msg(strstr(msg.message, "after 5 passes"), "%s", msg.message);
    hes_impact_info zi;
    ck_assert_int_eq(hes_impact_sequential(&vee, ab, 2, 50, u, vp, NULL, NULL, &zi, &msg), HES_OK);
    ck_assert_msg(hypot(vp[0], vp[1]) < 1e-7 && zi.lcps > 20 && zi.lcps < 40,
                  "Zeno limit: |v+| = %g after %d impacts", hypot(vp[0], vp[1]), zi.lcps);
}
END_TEST

/* The distance from the origin to the convex hull of the edges g = J_n,i
 * +- mu_i J_t,i of the contacts' cones, each scaled to g^T M^-1 g = 1, in
 * the metric M^-1 (zero exactly when the cone is not pointed), by
 * Gilbert's algorithm (1966): from an edge, step towards the edge of least
 * <x, g> with an exact line search, 200000 times (an upper bound that
 * converges; n <= 6, k <= 4). */
static double hull_distance(const hes_contact_set *c)
{
    int n = c->n, k = c->k, m = 0;
    double g[8][6], wg[8][6], x[6], wx[6];
    for (int i = 0; i < k; i++)
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            for (int j = 0; j < n; j++)
                g[m][j] = c->Jn[i + k * j] + sgn * c->mu[i] * c->Jt[i + k * j];
            spd_solve(n, c->M, g[m], wg[m]);
            double nn = 0;
            for (int j = 0; j < n; j++)
                nn += g[m][j] * wg[m][j];
            for (int j = 0; j < n; j++)
                g[m][j] /= sqrt(nn), wg[m][j] /= sqrt(nn);
            m++;
        }
    memcpy(x, g[0], sizeof x);
    memcpy(wx, wg[0], sizeof wx);
    for (int it = 0; it < 200000; it++) {
        int best = 0;
        double xb = INFINITY, xx = 0;
        for (int j = 0; j < n; j++)
            xx += x[j] * wx[j];
        for (int a = 0; a < m; a++) {
            double s = 0;
            for (int j = 0; j < n; j++)
                s += g[a][j] * wx[j];
            if (s < xb)
                xb = s, best = a;
        }
        /* t minimising |x + t (g - x)|^2 on [0, 1] */
        double dd = 0, xd = 0;
        for (int j = 0; j < n; j++) {
            double d = g[best][j] - x[j], wd = wg[best][j] - wx[j];
            dd += d * wd;
            xd += x[j] * wd;
        }
        if (!(dd > 0) || xx - xb <= 1e-30)
            break;
        double t = fmin(1, fmax(0, -xd / dd));
        for (int j = 0; j < n; j++) {
            x[j] += t * (g[best][j] - x[j]);
            wx[j] += t * (wg[best][j] - wx[j]);
        }
    }
    double xx = 0;
    for (int j = 0; j < n; j++)
        xx += x[j] * wx[j];
    return sqrt(fmax(xx, 0));
}

START_TEST(test_random_contact_sets_dissipate_and_complement)
{
    if (!have_solver())
        return;
    double worst_gain = -INFINITY, worst_res = 0;
    int solved = 0, rescued = 0, refused = 0;
    for (int rep = 0; rep < 200; rep++) {
        /* up to k = n contacts: redundant sets too (nonnegative impulses
         * that cancel).  Lemke's method alone ended on a ray for 10 of these
         * 200 (degenerate problems with solutions); enumeration found them */
        int n = 3 + rep % 4, k = 1 + rep % 4;
        double M[36], Jn[24], Jt[24], mu[4], v[6], vp[6], pn[4], pt[4];
        random_mass(n, M);
        for (int i = 0; i < k * n; i++) {
            Jn[i] = uniform(-1, 1);
            Jt[i] = uniform(-1, 1);
        }
        for (int i = 0; i < k; i++)
            mu[i] = uniform(0, 2);
        for (int j = 0; j < n; j++)
            v[j] = uniform(-2, 2);
        hes_contact_set cs = { n, k, M, Jn, Jt, mu };
        hes_impact_info info;
        hes_error msg;
        hes_status st = hes_impact_anitescu_potra(&cs, v, vp, pn, pt, &info, &msg);
        double dist = hull_distance(&cs);
        if (st == HES_EINVAL && strstr(msg.message, "not pointed")) {
            /* refused: Gilbert's algorithm brings the hull of its cones'
               edges (unit M^-1-length) to the origin (a pointed cone's
               hull stays away from it) */
            ck_assert_msg(dist < 1e-3, "rep %d refused with the hull %g from the origin", rep,
                          dist);
            refused++;
            continue;
        }
        ck_assert_msg(st == HES_OK, "rep %d (n %d, k %d): %s", rep, n, k, msg.message);
        ck_assert_msg(dist > 1e-7, "rep %d solved with the hull %g from the origin", rep, dist);
        solved++;
        rescued += info.solver >= 1;
        worst_gain = fmax(worst_gain, (info.energy_after - info.energy_before) /
                                          fmax(info.energy_before, 1e-300));
        worst_res = fmax(worst_res, info.residual);
        /* the law's conditions, checked on the result */
        for (int i = 0; i < k; i++) {
            double vn = 0, vt = 0;
            for (int j = 0; j < n; j++) {
                vn += Jn[i + k * j] * vp[j];
                vt += Jt[i + k * j] * vp[j];
            }
            ck_assert(pn[i] >= -1e-9 && vn >= -1e-8 && fabs(pn[i] * vn) <= 1e-8);
            ck_assert(fabs(pt[i]) <= mu[i] * pn[i] + 1e-8);
            /* sliding only at the cone's edge, against the motion */
            if (fabs(vt) > 1e-7)
                ck_assert(fabs(fabs(pt[i]) - mu[i] * pn[i]) <= 1e-7 && pt[i] * vt <= 1e-12);
        }
    }
    if (getenv("HES_TEST_VERBOSE"))
        printf("impact: %d random sets solved (%d after Lemke ended on a ray), %d refused as not "
               "pointed, energy change <= %.3e (relative), residual <= %.3e\n", solved, rescued,
               refused, worst_gain, worst_res);
    ck_assert_msg(solved >= 190 && refused >= 1, "%d solved, %d refused", solved, refused);
    ck_assert_msg(worst_gain <= 1e-12, "kinetic energy gained: %g", worst_gain);
    ck_assert_int_gt(rescued, 0);   /* the fallback was exercised */
    ck_assert_msg(worst_res <= 1e-9, "residual %g", worst_res);
}
END_TEST

START_TEST(test_friction_beyond_double_precision_is_refused)
{
    if (!have_solver())
        return;
    /* a unit point mass hitting the ground at v = (1, -1): with mu >= 1 it
     * sticks (|v_t| <= mu |v_n|), v+ = 0, and gains no energy, up to the
     * bound HES_IMPACT_MU_MAX; beyond it (1e17: a slide with v_t unchanged
     * and energy gained; 3e16: the slide reversed) every law refuses */
    const double M[4] = { 1, 0, 0, 1 }, Jn[2] = { 0, 1 }, Jt[2] = { 1, 0 };
    const double mus[] = { 1, 1e3, HES_IMPACT_MU_MAX, 3e16, 1e17 };
    for (size_t q = 0; q < sizeof mus / sizeof *mus; q++) {
        double mu = mus[q], v[2] = { 1, -1 }, vp[2] = { NAN, NAN }, caps[20];
        hes_contact_set cs = { 2, 1, M, Jn, Jt, &mu };
        hes_error msg;
        hes_impact_info info;
        hes_status st = hes_impact_anitescu_potra(&cs, v, vp, NULL, NULL, &info, &msg);
        for (int i = 0; i < 20; i++)
            caps[i] = 1;
        hes_routh_options ro = { 0.25, 20, 0, 0 };
        double vr[2] = { NAN, NAN };
        hes_status sr = hes_impact_routh(&cs, v, &ro, caps, vr, NULL, NULL, NULL, NULL, &msg);
        if (mu <= HES_IMPACT_MU_MAX) {
            ck_assert_msg(st == HES_OK && sr == HES_OK, "mu %g: %s", mu, msg.message);
            ck_assert_msg(fabs(vp[0]) < 1e-9 && fabs(vp[1]) < 1e-9 && fabs(vr[0]) < 1e-9 &&
                          fabs(vr[1]) < 1e-9, "mu %g: v+ (%g, %g), Routh (%g, %g): it sticks",
                          mu, vp[0], vp[1], vr[0], vr[1]);
            ck_assert(info.energy_after <= info.energy_before);
        } else {
            ck_assert_msg(st == HES_EINVAL && sr == HES_EINVAL && strstr(msg.message, "friction"),
                          "mu %g: statuses %d, %d, v+ (%g, %g): %s", mu, st, sr, vp[0], vp[1],
                          msg.message);
        }
    }
}
END_TEST

START_TEST(test_cone_that_is_not_pointed_is_refused)
{
    if (!have_solver())
        return;
    /* one coordinate, five contacts below it (J_n = 1), tangents of both
     * signs: with mu = 10 the edges 1 +- 10 J_t,i have both signs, so
     * friction impulses can cancel (the cone holds a line: not pointed);
     * with mu = 0.5 every edge is positive and the impact stops the body,
     * v+ = 0 (the only velocity with J_n v+ >= 0 complementary to a
     * positive impulse) */
    const double M[1] = { 1 }, Jn[5] = { 1, 1, 1, 1, 1 }, Jt[5] = { 0.5, -0.3, 0.8, -1, 0.2 };
    double mu[5], v[1] = { -1 }, vp[1], pn[5];
    hes_contact_set cs = { 1, 5, M, Jn, Jt, mu };
    hes_error msg;
    for (int i = 0; i < 5; i++)
        mu[i] = 10;
    ck_assert_int_eq(hes_impact_anitescu_potra(&cs, v, vp, pn, NULL, NULL, &msg),
                     HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "not pointed"), "%s", msg.message);
    for (int i = 0; i < 5; i++)
        mu[i] = 0.5;
    ck_assert_msg(hes_impact_anitescu_potra(&cs, v, vp, pn, NULL, NULL, &msg) ==
                  HES_OK, "%s", msg.message);
    double sum = 0;
    for (int i = 0; i < 5; i++)
        sum += pn[i];
    ck_assert_double_eq_tol(vp[0], 0, 1e-12);
    ck_assert_double_eq_tol(sum, 1, 1e-9);   /* the momentum removed */
}
END_TEST

START_TEST(test_bad_contact_sets_are_refused)
{
    const double M[4] = { 1, 0, 0, 1 }, Mbad[4] = { 1, 2, 2, 1 }, Jn[2] = { 0, 1 },
                 Jt[2] = { 1, 0 }, mu = 0.5, muneg = -1;
    double v[2] = { 0, -1 }, vp[2];
    hes_error msg;
    hes_contact_set cs = { 2, 1, M, Jn, Jt, &muneg };
    ck_assert_int_eq(hes_impact_anitescu_potra(&cs, v, vp, NULL, NULL, NULL, &msg),
                     HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "mu = -1"), "%s", msg.message);
    cs.mu = &mu;
    cs.M = Mbad;
    ck_assert_int_eq(hes_impact_anitescu_potra(&cs, v, vp, NULL, NULL, NULL, &msg),
                     HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "positive definite"), "%s", msg.message);
    cs.M = M;
    cs.k = 0;
    ck_assert_int_eq(hes_impact_anitescu_potra(&cs, v, vp, NULL, NULL, NULL, &msg),
                     HES_EINVAL);
    cs.k = 1;
    v[0] = NAN;
    ck_assert_int_eq(hes_impact_anitescu_potra(&cs, v, vp, NULL, NULL, NULL, &msg),
                     HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "not finite"), "%s", msg.message);
}
END_TEST

static Suite *impact_suite(void)
{
    Suite *s = suite_create("impact");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_one_frictionless_contact_is_the_closed_form);
    tcase_add_test(tc, test_point_mass_sticks_or_slides_by_coulomb);
    tcase_add_test(tc, test_rocking_block_comes_to_rest_under_anitescu_potra);
    tcase_add_test(tc, test_rocking_block_sequential_orders_pivot_on_either_corner);
    tcase_add_test(tc, test_random_contact_sets_dissipate_and_complement);
    tcase_add_test(tc, test_friction_beyond_double_precision_is_refused);
    tcase_add_test(tc, test_cone_that_is_not_pointed_is_refused);
    tcase_add_test(tc, test_bad_contact_sets_are_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(impact_suite());
}
