/*
 * impact.c - impact laws for sets of frictional contacts (Halm & Posa,
 * set-valued simultaneous impacts, Sec. 2.2.2).
 *
 * Planar contacts i = 1..k at a configuration with mass matrix M (n x n,
 * symmetric positive definite), normal and tangent Jacobians J_n, J_t
 * (k x n: the rows map the generalised velocity v to each contact's normal
 * and tangential velocity) and friction coefficients mu_i.  With the
 * linearised (planar: exact) friction cone D = [J_t; -J_t] and W = M^-1:
 *
 * Anitescu and Potra (1997), the simultaneous inelastic impact (paper eq.
 * 31): impulses c_n >= 0 (normal), beta >= 0 (2k, the two tangent
 * directions), lambda >= 0 (k, the sliding speeds) with
 *     v+ = v- + W (J_n^T c_n + D^T beta)
 *     0 <= c_n    _|_  J_n v+              >= 0   (inelastic, no penetration)
 *     0 <= beta   _|_  E lambda + D v+     >= 0   (friction opposes sliding)
 *     0 <= lambda _|_  mu c_n - E^T beta   >= 0   (Coulomb's cone)
 * (E: 2k x k, E_{i,i} = E_{k+i,i} = 1), one LCP in z = (c_n, beta, lambda):
 *     w = [ J_n W J_n^T  J_n W D^T  0 ] z + [ J_n v- ]
 *         [ D W J_n^T    D W D^T    E ]     [ D v-   ]
 *         [ diag(mu)     -E^T       0 ]     [ 0      ]
 * which is copositive and solved by Lemke's method (hes_lcp_solve, which
 * also checks complementarity).  Its solutions never gain kinetic energy
 * (Anitescu and Potra 1997); the result carries both energies so that
 * callers and tests can see it.
 *
 * Sequential impacts (the paper's Sec. 2.2.2 comparison): the contacts in
 * a given order, each resolved alone by the law above when it approaches
 * (J_n,i v < 0), in passes over the order until none approaches.  Each
 * single impact dissipates, so the sequence does; the number of passes is
 * bounded (HES_EMAXITER past it: the sequence need not terminate).
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"

static void contact_velocity(const hes_contact_set *c, int i, const double *v, double *un,
                             double *ut);

/* v^T M v / 2 */
double hes__impact_kinetic(int n, const double *M, const double *v)
{
    double e = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            e += v[i] * M[i + (size_t)j * n] * v[j];
    return 0.5 * e;
}

hes_status hes__impact_check(const hes_contact_set *c, const double *v, char *msg, size_t len)
{
    if (!c || !v || c->n < 1 || c->k < 1 || !c->M || !c->Jn || !c->Jt || !c->mu)
        return hes__say(msg, len, HES_EINVAL, "impact: the contact set needs n >= 1, k >= 1, M, "
                        "J_n, J_t, mu and the pre-impact velocity");
    int n = c->n, k = c->k;
    if (!hes__all_finite(c->M, n * n) || !hes__all_finite(c->Jn, k * n) ||
        !hes__all_finite(c->Jt, k * n) || !hes__all_finite(v, n))
        return hes__say(msg, len, HES_EINVAL, "impact: M, J_n, J_t or v is not finite");
    for (int i = 0; i < k; i++)
        if (!(c->mu[i] >= 0) || !isfinite(c->mu[i]))
            return hes__say(msg, len, HES_EINVAL, "impact: contact %d has friction coefficient "
                            "mu = %g (must be finite and >= 0)", i, c->mu[i]);
    /* The laws' LCPs hold Coulomb's cone as the row mu c_n - (beta+ + beta-)
       >= 0 and the tangential impulse as the difference beta+ - beta- of two
       one-sided impulses that may each grow to mu c_n: both are resolved
       only to eps mu c_n.  At mu <= 1e6 that is 2.2e-10 of the normal
       impulse, below the LCPs' tolerance 1e-9; at 1e17 it is ten times the
       normal impulse, and the friction comes out as noise (a slide with
       its speed unchanged, energy gained). */
    for (int i = 0; i < k; i++)
        if (c->mu[i] > HES_IMPACT_MU_MAX)
            return hes__say(msg, len, HES_EINVAL, "impact: contact %d has friction coefficient "
                            "mu = %g, beyond %g, the largest whose tangential impulse double "
                            "precision resolves (to eps mu times the normal impulse); a contact "
                            "that must not slip needs no more than that", i, c->mu[i],
                            HES_IMPACT_MU_MAX);
    return HES_OK;
}

/*
 * Whether the contacts' friction cone is pointed (the paper's Assumption
 * 2): some velocity direction d has d^T g > 0 for every edge g of every
 * contact's linearised cone, g = J_n,i^T +- mu_i J_t,i^T (the generalised
 * impulse of a unit normal impulse at the cone's edges).  If none exists,
 * impulses in the cones can cancel (jamming: a 1-dof slider whose friction
 * pushes it both ways), the Anitescu-Potra LCP has solutions with
 * arbitrarily large impulses, and the v+ of a large one is rounding.
 *
 * With the edges normalised in the kinetic metric (g^T M^-1 g = 1), the
 * point of their convex hull nearest the origin in that metric,
 *     p = G^T y,  y = argmin 1/2 y^T H y  over y >= 0, sum y >= 1,
 *     H = G M^-1 G^T
 * (Gordan's alternative: the cone is pointed exactly when the hull misses
 * the origin), is found as the LCP of its KKT conditions (hes__qp_lcp,
 * always feasible).  d = M^-1 p is then a certificate that needs no trust
 * in the solver: g_j^T d = (H y)_j for every edge, and
 *     delta = min_j (H y)_j / |p|_{M^-1}
 * is the margin by which every edge clears the plane normal to d (at
 * most the hull's distance from the origin, <= 1).  A unit change of
 * velocity needs impulses of about 1 / delta, whose rounding, eps / delta
 * relative, must stay near the LCPs' tolerance 1e-9: the cone is refused
 * when delta < HES_IMPACT_POINTED_MIN (1e-7).  The certificate is exact
 * up to the rounding of H y (1e-16, against delta^2 >= 1e-14), so a cone
 * that is not pointed is never passed; an inexact y (the LCP's tolerance,
 * the regularisation 1e-12 of H's unit diagonal) can only lower delta.
 */
hes_status hes__impact_pointed(const hes_contact_set *c, const double *WG, char *msg, size_t len)
{
    int n = c->n, k = c->k, m = 0;
    size_t K = 2 * (size_t)k;
    /* P: the edges' M^-1 g (n x 2k); E: the edges g (n x 2k); H (2k x 2k) */
    double *E = malloc(sizeof(double) * (2 * K * (size_t)n + K * K + 3 * K + 1));
    int *nonneg = malloc(sizeof(int) * K);
    if (!E || !nonneg) {
        free(E), free(nonneg);
        return hes__say(msg, len, HES_ENOMEM, "out of memory for the friction cone's check");
    }
    double *P = E + K * n, *H = P + K * n, *zero = H + K * K, *y = zero + K, *Hy = y + K,
           *mone = Hy + K;
    for (int i = 0; i < k; i++)
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            double nn = 0, *e = E + (size_t)m * n, *pw = P + (size_t)m * n;
            for (int j = 0; j < n; j++) {
                e[j] = c->Jn[i + (size_t)j * k] + sgn * c->mu[i] * c->Jt[i + (size_t)j * k];
                pw[j] = WG[j + (size_t)i * n] + sgn * c->mu[i] * WG[j + (size_t)(k + i) * n];
                nn += e[j] * pw[j];
            }
            if (!(nn > 0))       /* a contact that does not act on the system */
                continue;
            nn = sqrt(nn);
            for (int j = 0; j < n; j++)
                e[j] /= nn, pw[j] /= nn;
            m++;
        }
    hes_status st = HES_OK;
    if (m > 0) {
        for (int a = 0; a < m; a++) {
            for (int b = 0; b < m; b++) {
                double s = 0;
                for (int j = 0; j < n; j++)
                    s += E[j + (size_t)a * n] * P[j + (size_t)b * n];
                H[a + (size_t)b * m] = s;
            }
            zero[a] = 0, nonneg[a] = 1;
        }
        /* symmetric to rounding: take the mean */
        for (int a = 0; a < m; a++)
            for (int b = 0; b < a; b++)
                H[a + (size_t)b * m] = H[b + (size_t)a * m] =
                    0.5 * (H[a + (size_t)b * m] + H[b + (size_t)a * m]);
        for (int a = 0; a < m; a++)
            Hy[a] = 1;                  /* the constraint's row (1 x m): sum y >= 1 */
        *mone = -1;
        char why[256] = "";
        st = hes__qp_lcp(m, H, zero, nonneg, 1, Hy, mone, 1e-12, 1e-9, 0, y, NULL, why, sizeof why);
        double delta = 0, pp = 0, low = INFINITY;
        if (st == HES_OK) {
            for (int a = 0; a < m; a++) {
                double s = 0;
                for (int b = 0; b < m; b++)
                    s += H[a + (size_t)b * m] * fmax(y[b], 0);
                Hy[a] = s;
                low = fmin(low, s);
                pp += fmax(y[a], 0) * s;
            }
            delta = pp > 0 ? low / sqrt(pp) : 0;
        }
        if (st == HES_OK && !(delta >= HES_IMPACT_POINTED_MIN))
            st = hes__say(msg, len, HES_EINVAL, "impact: the contacts' friction cone is not "
                          "pointed to within double precision (margin %.3g < %g): impulses within the cones can cancel "
                          "each other (jamming), so they are unbounded and the outcome would "
                          "be rounding; the simultaneous law needs a pointed cone (Halm & Posa, "
                          "Assumption 2): lower the friction or resolve the contacts in "
                          "sequence", delta, HES_IMPACT_POINTED_MIN);
        else if (st != HES_OK)
            st = hes__say(msg, len, st, "impact: the friction cone's check failed: %s", why);
    }
    free(E), free(nonneg);
    return st;
}

/* The outcome, checked physically: no contact penetrating after the
 * impact where the law ends every approach (normals: J_n v+ >= -tol, the
 * laws' termination tolerance), and no kinetic energy gained (every law
 * here dissipates: Anitescu and Potra 1997; Halm & Posa Theorem 7) beyond
 * 1e-8 of the energy before, the laws' tolerance on the velocities'
 * scale.  HES_ESOLVER otherwise: the LCPs' solutions passed their check
 * but do not mean a physical impact. */
hes_status hes__impact_verify(const hes_contact_set *c, const double *v_minus,
                              const double *v_plus, int normals, char *msg, size_t len)
{
    if (!hes__all_finite(v_plus, c->n))
        return hes__say(msg, len, HES_ESOLVER, "impact: the post-impact velocity is not finite");
    double tol = hes__impact_tolerance(c, v_minus, 0), un, ut;
    for (int i = 0; normals && i < c->k; i++) {
        contact_velocity(c, i, v_plus, &un, &ut);
        if (un < -tol)
            return hes__say(msg, len, HES_ESOLVER, "impact: contact %d still approaches after "
                            "the impact (normal velocity %.3g < -%.3g): the solution of the "
                            "law's LCP is not a physical impact", i, un, tol);
    }
    double e0 = hes__impact_kinetic(c->n, c->M, v_minus), e1 = hes__impact_kinetic(c->n, c->M,
                                                                                   v_plus);
    if (!(e1 <= e0 * (1 + 1e-8)))
        return hes__say(msg, len, HES_ESOLVER, "impact: kinetic energy %.6g after the impact, "
                        "%.6g before (a gain of %.3g relative): impacts dissipate, so the "
                        "solution of the law's LCP is not a physical impact", e1, e0,
                        e0 > 0 ? (e1 - e0) / e0 : INFINITY);
    return HES_OK;
}

/* The matrix of eq. 31 into A (leading dimension lda, from its top-left
 * corner: rows and columns c_n, beta, lambda) and WG = M^-1 [J_n; J_t]^T
 * (n x 2k); L is n x n workspace.  HES_EINVAL if M is not positive
 * definite. */
hes_status hes__impact_ap_matrix(const hes_contact_set *c, double *A, int lda, double *WG,
                                 double *L)
{
    return hes__ap_matrix(c->n, c->k, 1, c->M, c->Jn, c->Jt, c->mu, A, lda, WG, L);
}

void hes__impact_finish(const hes_contact_set *c, const double *v_minus, const double *v_plus,
                        const hes_impact_info *total, hes_impact_info *info)
{
    if (!info)
        return;
    *info = *total;
    info->energy_before = hes__impact_kinetic(c->n, c->M, v_minus);
    info->energy_after = hes__impact_kinetic(c->n, c->M, v_plus);
}

/* contact i's normal and tangential velocity */
static void contact_velocity(const hes_contact_set *c, int i, const double *v, double *un,
                             double *ut)
{
    assert(i >= 0 && i < c->k && c->n >= 1);
    double sn = 0, st = 0;
    for (int j = 0; j < c->n; j++) {
        sn += c->Jn[i + (size_t)j * c->k] * v[j];
        st += c->Jt[i + (size_t)j * c->k] * v[j];
    }
    *un = sn;
    *ut = st;
}

double hes__impact_tolerance(const hes_contact_set *c, const double *v_minus, double tol)
{
    double scale = 1, un, ut;
    for (int i = 0; i < c->k; i++) {
        contact_velocity(c, i, v_minus, &un, &ut);
        scale = fmax(scale, fmax(fabs(un), fabs(ut)));
    }
    return (tol > 0 ? tol : 1e-8) * scale;
}

/* The constant of eq. 31 at velocity v: q = (J_n v, D v, 0) (4k). */
void hes__impact_ap_q(const hes_contact_set *c, const double *v, double *q)
{
    hes__ap_q(c->n, c->k, 1, c->Jn, c->Jt, v, q);
}

/* dv = WG (c_n, beta+ - beta-) for z = (c_n, beta+, beta-, ...) */
void hes__impact_dv(int n, int k, const double *WG, const double *z, double *dv)
{
    assert(n >= 1 && k >= 0);
    hes__ap_dv(n, k, 1, WG, z, dv);
}

hes_status hes_impact_anitescu_potra(const hes_contact_set *c, const double *v_minus,
                                     double *v_plus, double *pn, double *pt,
                                     hes_impact_info *info, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (info)
        memset(info, 0, sizeof *info);
    hes_status st = hes__impact_check(c, v_minus, msg, len);
    if (st != HES_OK)
        return st;
    if (!v_plus)
        return hes__say(msg, len, HES_EINVAL, "impact: v_plus is NULL");
    int n = c->n, k = c->k, nz = 4 * k;
    double *L = malloc(sizeof(double) * ((size_t)n * n + (size_t)n * 2 * k + (size_t)nz * nz +
                                         4 * (size_t)nz + (size_t)n));
    if (!L)
        return hes__say(msg, len, HES_ENOMEM, "out of memory for the impact LCP");
    double *WG = L + (size_t)n * n, *A = WG + (size_t)n * 2 * k, *q = A + (size_t)nz * nz,
           *z = q + nz, *w = z + nz, *dv = w + nz;
    memset(A, 0, sizeof(double) * (size_t)nz * nz);
    hes__impact_ap_q(c, v_minus, q);
    if (hes__impact_ap_matrix(c, A, nz, WG, L) != HES_OK) {
        free(L);
        return hes__say(msg, len, HES_EINVAL, "impact: the mass matrix is not positive definite");
    }
    if ((st = hes__impact_pointed(c, WG, msg, len)) != HES_OK) {
        free(L);
        return st;
    }
    hes_lcp_info li;
    st = hes_lcp_solve(nz, A, q, 1e-9, z, w, &li, err);
    if (st == HES_OK) {
        hes__impact_dv(n, k, WG, z, dv);
        for (int j = 0; j < n; j++)
            v_plus[j] = v_minus[j] + dv[j];
        st = hes__impact_verify(c, v_minus, v_plus, 1, msg, len);
    }
    if (st == HES_OK) {
        for (int i = 0; pn && i < k; i++)
            pn[i] = z[i];
        for (int i = 0; pt && i < k; i++)
            pt[i] = z[k + i] - z[2 * k + i];
    }
    if (info) {
        info->lcps = 1;
        info->pivots = li.pivots;
        info->residual = li.residual;
        info->solver = li.solver;
        info->energy_before = hes__impact_kinetic(n, c->M, v_minus);
        info->energy_after = st == HES_OK ? hes__impact_kinetic(n, c->M, v_plus) : NAN;
    }
    free(L);
    return st;
}

hes_status hes_impact_sequential(const hes_contact_set *c, const int *order, int n_order,
                                 int max_passes, const double *v_minus, double *v_plus,
                                 double *pn, double *pt, hes_impact_info *info, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (info)
        memset(info, 0, sizeof *info);
    hes_status st = hes__impact_check(c, v_minus, msg, len);
    if (st != HES_OK)
        return st;
    if (!v_plus || !order || n_order < 1 || max_passes < 1)
        return hes__say(msg, len, HES_EINVAL, "sequential impact: needs v_plus, an order of at "
                        "least one contact and max_passes >= 1");
    int n = c->n, k = c->k;
    for (int q = 0; q < n_order; q++)
        if (order[q] < 0 || order[q] >= k)
            return hes__say(msg, len, HES_EINVAL, "sequential impact: order[%d] = %d is not a "
                            "contact (0 to %d)", q, order[q], k - 1);
    double *v = malloc(sizeof(double) * 4 * (size_t)n);   /* v, v1, contact i's rows */
    if (!v)
        return hes__say(msg, len, HES_ENOMEM, "out of memory for the sequential impact");
    double *v1 = v + n, *rows = v1 + n;
    memcpy(v, v_minus, sizeof(double) * (size_t)n);
    for (int i = 0; pn && i < k; i++)
        pn[i] = 0;
    for (int i = 0; pt && i < k; i++)
        pt[i] = 0;
    hes_impact_info total = { 0, 0, 0, 0, 0, 0 };
    /* "approaching": J_n v < -tol, the impulse-stepping law's termination
       tolerance, so that a Zeno sequence of impacts (a flat rod, a ball in
       a V) ends at its limit to that tolerance instead of never */
    double tol = hes__impact_tolerance(c, v_minus, 0);
    int approaching = 1, pass;
    for (pass = 0; pass < max_passes && approaching; pass++) {
        approaching = 0;
        for (int q = 0; q < n_order; q++) {
            int i = order[q];
            double vn = 0;
            for (int j = 0; j < n; j++)
                vn += c->Jn[i + (size_t)j * k] * v[j];
            if (!(vn < -tol))
                continue;
            approaching = 1;
            /* contact i alone: its rows of J_n and J_t */
            for (int j = 0; j < n; j++) {
                rows[j] = c->Jn[i + (size_t)j * k];
                rows[n + j] = c->Jt[i + (size_t)j * k];
            }
            hes_contact_set one = { n, 1, c->M, rows, rows + n, c->mu + i };
            double p1, t1;
            hes_impact_info ii;
            st = hes_impact_anitescu_potra(&one, v, v1, &p1, &t1, &ii, err);
            if (st != HES_OK) {
                free(v);
                return st;
            }
            memcpy(v, v1, sizeof(double) * (size_t)n);
            if (pn)
                pn[i] += p1;
            if (pt)
                pt[i] += t1;
            total.lcps++;
            total.pivots += ii.pivots;
            total.residual = fmax(total.residual, ii.residual);
            total.solver = ii.solver;
        }
    }
    int still = 0;   /* a contact of the order approaching after the last pass */
    for (int q = 0; q < n_order && !still && approaching; q++) {
        double vn = 0;
        for (int j = 0; j < n; j++)
            vn += c->Jn[order[q] + (size_t)j * k] * v[j];
        still = vn < -tol;
    }
    if (still) {
        free(v);
        return hes__say(msg, len, HES_EMAXITER, "sequential impact: contacts still approach after "
                        "%d passes over the order", max_passes);
    }
    memcpy(v_plus, v, sizeof(double) * (size_t)n);
    hes__impact_finish(c, v_minus, v_plus, &total, info);
    free(v);
    return hes__impact_verify(c, v_minus, v_plus, 0, msg, len);
}

void hes_contact_velocities(const hes_contact_set *c, const double *v, double *u)
{
    if (!c || !v || !u)
        return;
    for (int i = 0; i < c->k; i++)
        contact_velocity(c, i, v, &u[i], &u[c->k + i]);
}

const char *hes_contact_mode_name(hes_contact_mode mode)
{
    switch (mode) {
    case HES_CONTACT_STICK: return "stick";
    case HES_CONTACT_SLIDE: return "slide";
    case HES_CONTACT_LIFT: return "lift";
    }
    return "unknown";
}

void hes_contact_modes(const hes_contact_set *c, const double *v, double tol,
                       hes_contact_mode *modes)
{
    if (!c || !v || !modes)
        return;
    double un, ut;
    if (!(tol > 0)) {
        double scale = 1;
        for (int i = 0; i < c->k; i++) {
            contact_velocity(c, i, v, &un, &ut);
            scale = fmax(scale, fmax(fabs(un), fabs(ut)));
        }
        tol = 1e-6 * scale;
    }
    for (int i = 0; i < c->k; i++) {
        contact_velocity(c, i, v, &un, &ut);
        modes[i] = un > tol ? HES_CONTACT_LIFT
                 : fabs(ut) > tol ? HES_CONTACT_SLIDE : HES_CONTACT_STICK;
    }
}
