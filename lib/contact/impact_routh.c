/*
 * impact_routh.c - the impulse-stepping model of Routh's method for many
 * frictional contacts (Halm & Posa, set-valued simultaneous impacts, Sec. 5.1, eqs. 72-75,
 * Algorithm 1, Theorem 6-7).
 *
 * Step s from velocity v with normal impulse caps lmax = h p_s (p_s in
 * [0, 1]^k) finds increments c_n, beta, lambda and slacks sigma with
 *     v+ = v + W (J_n^T c_n + D^T beta)                            (72b)
 *     0 <= beta   _|_  E lambda + D v+       >= 0   friction at v+ (72d)
 *     0 <= lambda _|_  mu c_n - E^T beta     >= 0   Coulomb's cone
 *     0 <= sigma  _|_  lmax - c_n            >= 0                   (73)
 *     0 <= c_n    _|_  J_n v+ + sigma        >= 0                   (74)
 * so each contact either takes its whole cap (c_n = lmax, J_n v+ = -sigma
 * <= 0: still approaching or just stopped) or stops approaching with a
 * smaller increment (sigma = 0: J_n v+ >= 0 complementary to c_n, as in
 * eq. 31).  As one LCP in z = (sigma, c_n, beta+, beta-, lambda) (eq. 75):
 *     w = [ 0   -I   0 ] z + [ lmax  ]
 *         [ I'   A31   ]     [ q31(v) ]
 * with A31, q31 the matrix and constant of Anitescu and Potra's eq. 31
 * (impact.c) and I' the identity in the normal rows only.  The matrix is
 * copositive (Theorem 6: Lemke's method finds a solution) and the same at
 * every step (the configuration does not move during an impact), so it is
 * built once; only the constant changes.  Every step dissipates kinetic
 * energy (Theorem 7).  The impact ends when no contact approaches,
 * J_n v >= -tol (Algorithm 1, line 3).
 *
 * One contact: the increments follow Routh's graphical method exactly
 * (sliding at the incremented velocity is Routh's sliding; sticking holds
 * within the cone), except where the sliding direction reverses within a
 * step, where the step ends in one regime (an O(h) difference).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"

void hes_routh_options_init(hes_routh_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->steps = 20;
    o->tol = 1e-8;
}

hes_status hes_impact_routh(const hes_contact_set *c, const double *v_minus,
                            const hes_routh_options *o, const double *caps, double *v_plus,
                            double *pn, double *pt, double *path, hes_impact_info *info,
                            hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (info)
        memset(info, 0, sizeof *info);
    hes_status st = hes__impact_check(c, v_minus, msg, len);
    if (st != HES_OK)
        return st;
    if (!o || !caps || !v_plus)
        return hes__say(msg, len, HES_EINVAL, "impulse stepping: needs options, caps and v_plus");
    if (!(o->h > 0) || !isfinite(o->h) || o->steps < 1 || !(o->tol >= 0) || !isfinite(o->tol))
        return hes__say(msg, len, HES_EINVAL, "impulse stepping: needs a step size h > 0 (got %g), "
                        "a step limit >= 1 (got %d) and a tolerance >= 0", o->h, o->steps);
    int n = c->n, k = c->k, nz = 5 * k;
    for (int s = 0; s < o->steps * k; s++)
        if (!(caps[s] >= 0 && caps[s] <= 1))
            return hes__say(msg, len, HES_EINVAL, "impulse stepping: cap %d of step %d is %g (must "
                            "be in [0, 1])", s % k, s / k, caps[s]);
    double *L = malloc(sizeof(double) * ((size_t)n * n + (size_t)n * 2 * k + (size_t)nz * nz +
                                         4 * (size_t)nz + 2 * (size_t)n));
    if (!L)
        return hes__say(msg, len, HES_ENOMEM, "out of memory for the impulse-stepping LCP");
    double *WG = L + (size_t)n * n, *A = WG + (size_t)n * 2 * k, *q = A + (size_t)nz * nz,
           *z = q + nz, *w = z + nz, *dv = w + nz, *v = dv + n;
    memset(A, 0, sizeof(double) * (size_t)nz * nz);
    if (hes__impact_ap_matrix(c, A + k + (size_t)k * nz, nz, WG, L) != HES_OK) {
        free(L);
        return hes__say(msg, len, HES_EINVAL, "impact: the mass matrix is not positive definite");
    }
    for (int i = 0; i < k; i++) {
        A[i + (size_t)(k + i) * nz] = -1;     /* lmax - c_n */
        A[(k + i) + (size_t)i * nz] = 1;      /* J_n v+ + sigma */
    }
    double tol = hes__impact_tolerance(c, v_minus, o->tol);

    memcpy(v, v_minus, sizeof(double) * (size_t)n);
    for (int i = 0; pn && i < k; i++)
        pn[i] = 0;
    for (int i = 0; pt && i < k; i++)
        pt[i] = 0;
    hes_impact_info total = { 0, 0, 0, 0, 0, 0 };
    unsigned long long sel = o->select;
    int approaching = 0;
    for (int s = 0;; s++) {
        if (path)
            memcpy(path + (size_t)s * n, v, sizeof(double) * (size_t)n);
        hes__impact_ap_q(c, v, q + k);
        approaching = 0;
        for (int i = 0; i < k; i++)
            approaching |= q[k + i] < -tol;
        if (!approaching || s == o->steps)
            break;
        for (int i = 0; i < k; i++)
            q[i] = o->h * caps[(size_t)s * k + i];
        hes_lcp_info li;
        unsigned long start = 0;
        if (o->select) {
            unsigned long long r = hes__rng_next(&sel);
            start = (r & 1) ? (unsigned long)(r >> 1) | 1ul : 0;
        }
        st = hes_lcp_solve_from(nz, A, q, 1e-9, start, z, w, &li, err);
        total.pivots += li.pivots;
        total.residual = fmax(total.residual, li.residual);
        total.solver = li.solver;
        if (st != HES_OK)
            break;
        total.lcps++;
        hes__impact_dv(n, k, WG, z + k, dv);
        for (int j = 0; j < n; j++)
            v[j] += dv[j];
        for (int i = 0; pn && i < k; i++)
            pn[i] += z[k + i];
        for (int i = 0; pt && i < k; i++)
            pt[i] += z[2 * k + i] - z[3 * k + i];
    }
    /* the loop ended with contacts approaching only at the step limit */
    if (st == HES_OK && approaching)
        st = hes__say(msg, len, HES_EMAXITER, "impulse stepping: contacts still approach after "
                      "%d steps of h = %g", o->steps, o->h);
    memcpy(v_plus, v, sizeof(double) * (size_t)n);
    hes__impact_finish(c, v_minus, v, &total, info);
    /* every step dissipates (Theorem 7); a finished impact ends every
       approach (its loop's condition) */
    if (st == HES_OK || st == HES_EMAXITER) {
        hes_status sv = hes__impact_verify(c, v_minus, v, 0, msg, len);
        if (sv != HES_OK)
            st = sv;
    }
    free(L);
    return st;
}
