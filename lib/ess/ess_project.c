/*
 * ess_project.c - the projection step of the ESS integrator and its exact
 * Jacobian (the event-selected integrator paper, Sec. 3.1, from
 * the prose; its Listing 1 tests the band on the crossed guards, which reads
 * inverted: the band that matters is that of the candidates).
 *
 * At (t, x) with sign pattern s, B the candidate guards in their band
 * (h_i >= -eps):
 *
 *   G = f(x, s),  a_i = Dh_i(x) G,  dt_i = -h_i(x) / a_i   (i in B)
 *   j = argmin_i dt_i,  x+ = x + G dt_j,  t+ = t + dt_j,  s_j = +1.
 *
 * This is the exact impact map of the constant field G on the tangent plane
 * of guard j (first order in the distance to the guard, error O(eps^2) per
 * crossing).  Liveness (the paper's requirement 4) must hold for every i in
 * B: a_i > live_tol |Dh_i| |G|; with options.near_miss (the default) such
 * a guard is left out and watched instead (ess.c says why), and under
 * strict liveness (near_miss = 0) it is HES_EGRAZING naming the guard, the
 * check then covering the watched candidates in the band too.
 *
 * The second-order test (not in the paper).  The O(eps^2) error needs
 * dt_j = O(eps), i.e. a_j bounded away from zero on the scale of eps; a
 * live but slow approach (a leg met at a very flat angle) gives a long dt_j
 * along a G that the flow leaves: the plate is carried far, or across a
 * guard the flow turns away from.  Along the flow h_j(t + tau) = h_j + a_j
 * tau + adot tau^2 / 2 + ..., and the projection drops the tau^2 term.  It
 * is taken only if the approach rate at the projected point,
 *   a+ = Dh_j(x+) f(x+, s),  x+ = x + G dt_j   (a+ - a_j = adot dt_j + ...),
 * satisfies |a+ - a_j| <= a_j / 2, i.e. |adot| dt_j^2 <= |h_j| / 2: the
 * dropped term is at most a quarter of the distance crossed.  For a
 * decelerating approach (adot < 0) this is a_j^2 >= 2 |adot| |h_j|, exactly
 * the condition that the quadratic model reaches h_j = 0.  The same bound
 * holds for the guard's own curvature along the straight path (the
 * projection lands on the tangent plane, not on the guard):
 *   |h_j(x+)| <= |h_j| / 4,
 * and no other guard within reach of a level may be carried by the
 * projection further than a quarter of the band from where its linear
 * model puts it, along the path and along the flow:
 *   |h_i(x+) - h_i - a_i dt_j| + |a_i+ - a_i| dt_j / 2 <= eps / 4,
 *   a_i+ = Dh_i(x+) f(x+, s),
 * so that a projection long enough for the flow to change the stance of
 * another contact (a leg met slowly while the plate rocks on three others)
 * is not taken.  Within reach: the interval between h_i and h_i(x+),
 * widened by the flow term |a_i+ - a_i| dt_j / 2, meets the levels [-eps,
 * 0]; a guard beyond them keeps its stance whatever the projection's error,
 * and its curvature says nothing about the contacts (the test would
 * otherwise grow stricter with every leg added far from the plate, and
 * need every guard at every projection).  Each bound is a constant times dt_j^2 against a constant
 * times eps: with a_j bounded below they hold for eps small enough, so the
 * order of the method is untouched.  A candidate that fails them is marked
 * late and watched by
 * the integration step, which locates its crossing exactly (ess.c); the
 * argmin is then taken over the others.  dt_j is
 * positive for h_j < 0; when a candidate is already past its guard (h_j >= 0,
 * e.g. moved there by the projection across another guard) dt_j <= 0 and the
 * step moves back onto the guard: the same formula, so the same Jacobian.
 *
 * Jacobian.  The integrator carries J = dx/dx0 and the row w = dt/dx0 of
 * the current (t, x).  With s fixed within the step, dt(x) = -h_j(x) / a(x),
 * a(x) = Dh_j(x) G(x):
 *
 *   Ddt = -Dh_j / a + (h_j / a^2) Da,   Da = G^T Hess(h_j) + Dh_j DG,
 *   DP  = I + G Ddt + dt DG,            (DG = df/dx at s)
 *   J+  = DP J,   w+ = w + Ddt J.
 *
 * G^T Hess(h_j) is the derivative of Dh_j along G (the Hessian is
 * symmetric), by a central difference of Dh_j at x -+ delta G; it is
 * multiplied by h_j = O(eps), so its O(delta^2) error does not matter.
 *
 * The first guard met along G.  The constant field may reach the zero of
 * another guard before that of j: a guard not in the pool (crossed before:
 * h_i may return to zero either way, as a leg's liftoff guard when its force
 * turns positive again), a candidate not yet in its band that approaches
 * fast, or a watched candidate (late: its own projection was refused, but
 * this shorter one along G passed).  Left alone, its sign would be stale
 * for the rest of a chain of projections (the state carried past its zero while the field still has
 * the old s_i: a lifted leg pushing, or a leg that has left the plate
 * pulling), so the step stops at the first zero met, i in place of j, with
 * the same formulas: dt_i = -h_i / a_i > 0, s_i = sign(a_i) (a sign change
 * for a guard not in the pool, *j = m + i; a crossing for a candidate).
 *
 * When t + dt_j passes t_stop (the run's end) the step stops there:
 * x+ = x + G (t_stop - t), J+ = J + (t_stop - t) DG J - G w, w+ = 0.
 */
#include <assert.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "ess/ess.h"

static double norm2(const double *v, int n, int stride)
{
    double s = 0;
    for (int k = 0; k < n; k++)
        s += v[(size_t)k * stride] * v[(size_t)k * stride];
    return sqrt(s);
}

/* The projection from x to xp = x + G dt: every guard that may meet a
 * level on its way made active, with h and Dh at x (ess_active.c).  Its
 * way is the straight segment and, with Fp = f(xp, s) given, the flow's
 * path too: the segment's box widened by |Fp - G| dt per component (twice
 * the flow's first-order departure from the segment), so that every guard
 * whose stance the flow could change during the projection is among those
 * the second-order test looks at. */
static hes_status reach(hes_ess *e, const double *x, const double *xp, const double *Fp,
                        double dt)
{
    int n_new;
    if (!e->sparse)
        return HES_OK;
    for (int k = 0; k < e->n; k++) {
        double w = Fp ? fabs(Fp[k] - e->G[k]) * fabs(dt) : 0;
        e->lo[k] = fmin(x[k], xp[k]) - w;
        e->hi[k] = fmax(x[k], xp[k]) + w;
    }
    return hes__ess_activate(e, e->lo, e->hi, x, e->h, e->Dh, &n_new);
}

/* The second-order test of the projection across j (dt = dt_j > 0,
 * a = a_j) from x: 1 in *ok when it may be taken.  At xp = x + G dt (Dh2,
 * Fp = f(xp, s) and hp = h(xp) are left there) the value of every guard
 * must be what the linear model of the projection says, up to a quarter of
 * the band (a quarter of the distance crossed for j itself), both along the
 * straight path (h_i(xp) - h_i - a_i dt: the guard's curvature) and along
 * the flow (|a_i(xp) - a_i| dt / 2, with a_i(xp) = Dh_i(xp) f(xp, s): the
 * field's change); for j the second reads |a_j(xp) - a_j| <= a_j / 2. */
static hes_status second_order_test(hes_ess *e, const double *x, const int *s, int j,
                                    double dt, double a, int *ok)
{
    int n = e->n, m = e->m;
    hes_status st;
    *ok = 0;
    for (int k = 0; k < n; k++)
        e->xp[k] = x[k] + e->G[k] * dt;
    if ((st = hes__ess_f(e, e->xp, s, e->Fp)) != HES_OK ||
        (st = reach(e, x, e->xp, e->Fp, dt)) != HES_OK)
        return st;
    e->dh2_valid = 0;
    if ((st = hes__ess_Dh(e, e->xp, e->Dh2)) != HES_OK ||
        (st = hes__ess_h(e, e->xp, e->hp)) != HES_OK)
        return st;
    e->dh2_valid = 1;   /* Dh at xp (the next step's x if j is taken) */
    double xinf = 0;
    for (int k = 0; k < n; k++)
        xinf = fmax(xinf, fabs(e->xp[k]));
    for (int q = 0; q < e->n_act; q++) {
        int i = e->act[q];
        double ai = 0, ap = 0, d1 = 0;
        for (int k = 0; k < n; k++) {
            ai += e->Dh[i + (size_t)k * m] * e->G[k];
            ap += e->Dh2[i + (size_t)k * m] * e->Fp[k];
            d1 += fabs(e->Dh2[i + (size_t)k * m]);
        }
        double path = fabs(e->hp[i] - e->h[i] - ai * dt), flow = 0.5 * fabs(ap - ai) * dt;
        double round = 1e3 * DBL_EPSILON * (1 + d1 * xinf);
        if (i != j && (fmin(e->h[i], e->hp[i]) - flow > 0 ||
                       fmax(e->h[i], e->hp[i]) + flow < -e->eps))
            continue;   /* no level within its reach: its stance cannot change */
        if (i == j ? !(fabs(ap - a) <= 0.5 * a) || !(path <= fmax(0.25 * fabs(e->h[j]), round))
                   : !(path + flow <= 0.25 * e->eps + round))
            return HES_OK;
    }
    *ok = 1;
    return HES_OK;
}

/* One pass over the candidates in the band at time t (under strict
 * liveness the watched ones in it too): each must be live, a_i = Dh_i G >
 * live_tol |Dh_i| |G| (|G| = gnorm); one that is not is watched instead
 * (e->late) with options.near_miss, HES_EGRAZING without.  Among the
 * others not watched the least dt_i = -h_i / a_i gives *j (-1: none),
 * *dtj and *aj; *any is set when a candidate not watched was met. */
static hes_status band_argmin(hes_ess *e, double t, const int *inband, double live_tol,
                              double gnorm, int *j, double *dtj, double *aj, int *any)
{
    int n = e->n, m = e->m;
    *j = -1;
    *dtj = HUGE_VAL;
    assert(e->n_act >= 0 && e->n_act <= e->m);
    for (int q = 0; q < e->n_act; q++) {   /* candidates in the band are active */
        int i = e->act[q];
        assert(i >= 0 && i < e->m);
        int watched = e->late[i];   /* checked for liveness too, by default */
        if (watched ? e->near_miss || !(e->h[i] >= -e->eps) : !inband[i])
            continue;
        *any |= !watched;
        double a = 0;
        for (int k = 0; k < n; k++)
            a += e->Dh[i + (size_t)k * m] * e->G[k];
        if (!(a > live_tol * norm2(e->Dh + i, n, m) * gnorm)) {
            if (e->near_miss) {  /* watched at h_i = 0 instead (ess.c) */
                e->late[i] = 1;
                continue;
            }
            char buf[32];
            return hes__ess_fail(e, HES_EGRAZING, "liveness violated at t = %.10g: guard "
                                 "'%s' (event %d) is in its band (h = %.6g >= -eps = %.6g) "
                                 "but the field does not cross it: Dh f = %.6g <= %g |Dh| "
                                 "|f| (the ESS requirement Dh_i f > 0 on the band, refused under strict "
                                 "liveness, options.near_miss = 0; by default such a guard "
                                 "is watched)", t,
                                 hes__ess_event_name(e, i, buf, sizeof buf), i, e->h[i],
                                 -e->eps, a, live_tol);
        }
        if (watched)
            continue;
        double dt = -e->h[i] / a;
        if (dt < *dtj) {
            *dtj = dt;
            *j = i;
            *aj = a;
        }
    }
    return HES_OK;
}

/* The guard met first along G before the zero of candidate j (dt_j > 0):
 * a guard not in the pool, a candidate outside the band or watched,
 * moving toward its zero from beyond it (a candidate only upward), a guard
 * not in the pool not already at its zero.  It replaces *j, *dtj and *aj,
 * *flip saying whether it is not in the pool (a sign change, not a
 * crossing). */
static hes_status first_met(hes_ess *e, const double *x, const int *inband, int *j,
                            double *dtj, double *aj, int *flip)
{
    int n = e->n, m = e->m;
    hes_status st;
    double xinf = 0;
    for (int k = 0; k < n; k++)
        xinf = fmax(xinf, fabs(x[k]));
    for (int k = 0; k < n; k++)
        e->xp[k] = x[k] + e->G[k] * *dtj;
    if ((st = reach(e, x, e->xp, NULL, 0)) != HES_OK)   /* (the test's box holds it) */
        return st;
    for (int q = 0; q < e->n_act; q++) {
        int i = e->act[q];
        if (i == *j || (e->pool[i] && inband[i] && !e->late[i]))
            continue;   /* (those are the argmin's; a watched one is met here) */
        double a = 0;
        for (int k = 0; k < n; k++)
            a += e->Dh[i + (size_t)k * m] * e->G[k];
        /* moving toward its zero from beyond it, and a candidate only
         * upward; a guard not in the pool at its zero has the sign of its
         * rate (ess.c), but a candidate at its zero, a watched one within
         * a projection's landing error of it, is met here: carried past
         * its zero, it would be projected back along its slow approach */
        if (!(e->h[i] * a < 0) || (e->pool[i] && !(a > 0)) ||
            (!e->pool[i] && hes__ess_at_zero(e, i, xinf)))
            continue;
        double dt = -e->h[i] / a;
        if (dt < *dtj) {
            *dtj = dt;
            *j = i;
            *aj = a;
            *flip = !e->pool[i];
        }
    }
    return HES_OK;
}

/* The step stopped at t_stop, inside the projection: x <- x + G tau (tau =
 * t_stop - t), J <- J + tau DG J - G w and w <- 0, the energy over the
 * segment; *jout = -1, *dtout = tau. */
static hes_status stop_inside(hes_ess *e, double *t, double *x, const int *s, double t_stop,
                              double *J, double *w, int *jout, double *dtout)
{
    int n = e->n;
    hes_status st;
    double tau = t_stop - *t;
    if (J) { /* J <- J + tau DG J - G w,  w <- 0 */
        if ((st = hes__ess_f_dx(e, x, s, e->DG)) != HES_OK)
            return st;
        hes__matmul(n, n, n, e->DG, J, e->Jtmp);
        for (int k = 0; k < n; k++)
            for (int i = 0; i < n; i++)
                J[i + (size_t)k * n] += tau * e->Jtmp[i + (size_t)k * n] - e->G[i] * w[k];
        memset(w, 0, (size_t)n * sizeof *w);
    }
    memcpy(e->en_y, x, (size_t)n * sizeof *x);
    for (int k = 0; k < n; k++)
        x[k] += e->G[k] * tau;
    if (e->en_on && (st = hes__ess_energy_step(e, e->en_y, NULL, x, tau)) != HES_OK)
        return st;
    *t = t_stop;
    *jout = -1;
    *dtout = tau;
    return HES_OK;
}

/* The row Ddt = -Dh_j / a + (h_j / a^2) (G^T Hess h_j + Dh_j DG) into
 * e->row (a = a_j), DG = df/dx at (x, s) left in e->DG; G^T Hess h_j by a
 * central difference of Dh_j at x -+ delta G (only when h_j != 0). */
static hes_status ddt_row(hes_ess *e, const double *x, const int *s, int j, double aj)
{
    int n = e->n, m = e->m;
    hes_status st;
    if ((st = hes__ess_f_dx(e, x, s, e->DG)) != HES_OK)
        return st;
    double hj = e->h[j], c = hj / (aj * aj);
    for (int k = 0; k < n; k++) {
        double dgk = 0; /* (Dh_j DG)_k */
        for (int l = 0; l < n; l++)
            dgk += e->Dh[j + (size_t)l * m] * e->DG[l + (size_t)k * n];
        e->row[k] = -e->Dh[j + (size_t)k * m] / aj + c * dgk;
    }
    if (hj != 0) {
        double xinf = 0, ginf = 0;
        for (int k = 0; k < n; k++) {
            xinf = fmax(xinf, fabs(x[k]));
            ginf = fmax(ginf, fabs(e->G[k]));
        }
        double delta = hes__fd_step(xinf) / fmax(ginf, DBL_MIN);
        e->dh2_valid = 0;   /* Dh2 and xp serve the difference below */
        for (int k = 0; k < n; k++)
            e->xp[k] = x[k] + delta * e->G[k];
        if ((st = hes__ess_Dh(e, e->xp, e->Dh2)) != HES_OK)
            return st;
        for (int k = 0; k < n; k++)
            e->tmpn[k] = e->Dh2[j + (size_t)k * m];
        for (int k = 0; k < n; k++)
            e->xp[k] = x[k] - delta * e->G[k];
        if ((st = hes__ess_Dh(e, e->xp, e->Dh2)) != HES_OK)
            return st;
        for (int k = 0; k < n; k++)
            e->row[k] += c * (e->tmpn[k] - e->Dh2[j + (size_t)k * m]) / (2 * delta);
    }
    return HES_OK;
}

/* The Jacobian through the projection across j by dt_j: w += Ddt J,
 * J <- (I + G Ddt + dt DG) J. */
static hes_status project_jacobian(hes_ess *e, const double *x, const int *s, int j,
                                   double dtj, double aj, double *J, double *w)
{
    int n = e->n;
    hes_status st;
    if ((st = ddt_row(e, x, s, j, aj)) != HES_OK)
        return st;
    for (int k = 0; k < n; k++) {
        double r = 0;
        for (int l = 0; l < n; l++)
            r += e->row[l] * J[l + (size_t)k * n];
        e->tmpn[k] = r;                         /* (Ddt J)_k */
    }
    hes__matmul(n, n, n, e->DG, J, e->Jtmp);    /* DG J */
    for (int k = 0; k < n; k++) {
        w[k] += e->tmpn[k];
        for (int i = 0; i < n; i++)
            J[i + (size_t)k * n] += e->G[i] * e->tmpn[k] + dtj * e->Jtmp[i + (size_t)k * n];
    }
    return HES_OK;
}

hes_status hes__ess_project(hes_ess *e, double *t, double *x, int *s, const int *inband,
                            double live_tol, double t_stop, double *J, double *w, int *jout,
                            double *dtout)
{
    int n = e->n, m = e->m;
    hes_status st;
    /* e->h is h(x) (the caller's); Dh(x) may be that of the signs' check
     * or of the second-order test of the projection that led here */
    if ((st = hes__ess_Dh_at(e, x)) != HES_OK)
        return st;
    if ((st = hes__ess_f(e, x, s, e->G)) != HES_OK)
        return st;
    double gnorm = norm2(e->G, n, 1);
    int j = -1, any = 0, ok;
    double dtj = HUGE_VAL, aj = 0;
    for (;;) { /* the argmin, less each candidate the second-order test refuses */
        if ((st = band_argmin(e, *t, inband, live_tol, gnorm, &j, &dtj, &aj, &any)) != HES_OK)
            return st;
        if (j < 0 || !(dtj > 0))
            break;
        if ((st = second_order_test(e, x, s, j, dtj, aj, &ok)) != HES_OK)
            return st;
        if (ok)
            break;
        e->late[j] = 1;     /* crossed exactly by the integration step, or missed */
        e->n_refused++;
    }
    if (j < 0 && any) {   /* every candidate in the band is watched */
        *jout = -2;
        *dtout = 0;
        return HES_OK;
    }
    if (j >= 0 && dtj < 0 && -dtj * aj > 2 * e->eps)
        /* a candidate is past its zero only by rounding, or by at most its
         * band after a projection across a guard with the same surface */
        return hes__ess_fail(e, HES_ESOLVER, "internal: candidate %d is %.3g past its zero "
                             "at t = %.10g (more than twice the band eps = %g)", j, -dtj * aj,
                             *t, e->eps);
    int flip = 0;         /* stop at a guard other than a candidate of the band */
    if (j >= 0 && dtj > 0 && (st = first_met(e, x, inband, &j, &dtj, &aj, &flip)) != HES_OK)
        return st;
    if (j < 0)
        return hes__ess_fail(e, HES_EINVAL, "projection step without a candidate in the band");
    if (*t + dtj > t_stop) /* stop inside the step: x + G (t_stop - t) */
        return stop_inside(e, t, x, s, t_stop, J, w, jout, dtout);
    if (J && (st = project_jacobian(e, x, s, j, dtj, aj, J, w)) != HES_OK)
        return st;
    memcpy(e->en_y, x, (size_t)n * sizeof *x);
    for (int k = 0; k < n; k++)
        x[k] += e->G[k] * dtj;
    if (e->en_on && (st = hes__ess_energy_step(e, e->en_y, NULL, x, dtj)) != HES_OK)
        return st;   /* (with s before the crossing: the field of the segment) */
    *t += dtj;
    (void)s;   /* e->s, with the sums */
    if ((st = hes__ess_set_sign(e, j, aj > 0 ? 1 : -1)) != HES_OK)
        return st;
    *jout = flip ? m + j : j;
    *dtout = dtj;
    return HES_OK;
}
