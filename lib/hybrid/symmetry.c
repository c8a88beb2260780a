/*
 * symmetry.c - the return map's quotient by the model's symmetries.
 *
 * A symmetry of a hybrid model (a floating robot's translation along level
 * ground, its turn about the vertical) maps orbits to orbits: with xi its
 * generator at x0 (hes_orbit_spec.symmetries), the return map P of an orbit
 * that repeats up to that symmetry satisfies P Y = Y A, Y = [xi_1 .. xi_s]:
 * the span of Y is invariant, and A holds the symmetric multipliers (1,
 * with Jordan blocks where a turn shifts the walk sideways).  They say
 * nothing of the gait's stability: a neighbouring orbit that is the same
 * gait translated or turned stays so.  The stability is the quotient map's
 * (Ott, "Chaos in Dynamical Systems", 2nd ed., 2002, Sec. 7.3; Coleman,
 * Chatterjee and Ruina, Dynamics and Stability of Systems 12, 1997, whose
 * rimless wheel's heading is such a direction).
 *
 * In an orthonormal basis [U, W] of R^n with span U = span Y (Householder
 * QR of Y), P = [[A, B], [0, D]] with A = U^T P U, B = U^T P W, D = W^T P W
 * and W^T P U = 0; eig(P) = eig(A) + eig(D), and D is the quotient's
 * matrix.  A left eigenvector w of D gives W w, one of P; a right one y
 * gives W y + U x with x = (lambda - A)^-1 B y (not formed: the quotient's
 * vectors are reported, lifted by W).  When P maps into a section
 * (normal^T P = 0) and the symmetries are tangent to it (normal^T Y = 0),
 * D maps into the quotient's section: (W^T normal)^T D = normal^T P W = 0.
 * |W^T P U| / max(1, |P|) measures how far the declared symmetries are
 * from invariant: the caller refuses them above the matrix's accuracy.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>

#include "hybrid/hybrid.h"

size_t hes__symmetry_work(int n, int s)
{
    (void)s;
    /* Qf n^2, tau n, D n^2, the product P Qf n^2, normal_q n, A n^2, dgeqrf/dorgqr's work 64 n */
    return 4 * (size_t)n * n + 66 * (size_t)n;
}

/* [U, W] into Qf (n x n): the Householder QR of Y (n x s), its Q completed
 * to n columns; tau n and w 64 n doubles of work.  HES_EDEFECTIVE when a
 * generator depends on the others. */
static hes_status basis(const double *Y, int n, int s, double *Qf, double *tau, double *w)
{
    int lw = 64 * n;
    memset(Qf, 0, sizeof(double) * (size_t)n * n);
    for (int j = 0; j < s; j++)
        memcpy(Qf + (size_t)j * n, Y + (size_t)j * n, sizeof(double) * (size_t)n);
    if (s > 0 && LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, n, s, Qf, n, tau, w, lw) != 0)
        return HES_ESOLVER;
    for (int j = 0; j < s; j++)
        if (!(fabs(Qf[j + (size_t)j * n]) > 1e-12 * fmax(1.0, fabs(Qf[0]))))
            return HES_EDEFECTIVE;
    if (LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, n, n, s, Qf, n, tau, w, lw) != 0)
        return HES_ESOLVER;
    return HES_OK;
}

hes_status hes__symmetry_quotient(const double *P, const double *normal, int n, const double *Y,
                                  int s, double *work, hes_symmetry_quotient *q)
{
    size_t nn = (size_t)n * n;
    int m = n - s;
    if (s < 1 || s >= n)
        return HES_EINVAL;
    double *Qf = work, *tau = Qf + nn, *D = tau + n, *PQ = D + nn, *nq = PQ + nn, *A = nq + n,
           *w = A + nn;
    hes_status st = basis(Y, n, s, Qf, tau, w);
    if (st != HES_OK)
        return st;
    const double *U = Qf, *W = Qf + (size_t)s * n;
    hes__matmul(n, n, n, P, Qf, PQ);
    double res = 0, pf = 0;
    for (size_t i = 0; i < nn; i++)
        pf += P[i] * P[i];
    /* D = W^T P W, A = U^T P U, and the residual W^T P U */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            double v = 0;
            for (int l = 0; l < n; l++)
                v += Qf[l + (size_t)i * n] * PQ[l + (size_t)j * n];
            if (i >= s && j >= s)
                D[(i - s) + (size_t)(j - s) * m] = v;
            else if (i < s && j < s)
                A[i + (size_t)j * s] = v;
            else if (i >= s && j < s)
                res += v * v;
        }
    q->residual = sqrt(res) / fmax(1.0, sqrt(pf));
    for (int i = 0; normal && i < m; i++) {
        double v = 0;
        for (int l = 0; l < n; l++)
            v += W[l + (size_t)i * n] * normal[l];
        nq[i] = v;
    }
    q->n = m;
    q->s = s;
    q->U = U;
    q->W = W;
    q->D = D;
    q->A = A;
    q->normal = normal ? nq : NULL;
    return HES_OK;
}

hes_status hes__symmetry_remove(hes_system *sys, const double *x0, double *d, double *work,
                                int n)
{
    const hes_model *m = sys->model;
    const hes_orbit_spec *o = &m->orbit;
    int s = o->symmetries ? o->n_symmetries : 0;
    if (s < 1)
        return HES_OK;
    double *Y = work;
    if (s >= n || o->symmetries(x0, sys->p, Y, hes__mode_data(m, o->mode)) != 0 ||
        !hes__all_finite(Y, n * s))
        return hes__fail(sys, HES_EMODEL, "model %s: its symmetries' generators at the "
                         "orbit's start failed or are not finite", m->name);
    /* Gram-Schmidt, twice for orthogonality to rounding, then d -= U U^T d */
    for (int j = 0; j < s; j++) {
        double *y = Y + (size_t)j * n;
        for (int pass = 0; pass < 2; pass++)
            for (int l = 0; l < j; l++) {
                const double *u = Y + (size_t)l * n;
                double c = 0;
                for (int i = 0; i < n; i++)
                    c += u[i] * y[i];
                for (int i = 0; i < n; i++)
                    y[i] -= c * u[i];
            }
        double nrm = 0;
        for (int i = 0; i < n; i++)
            nrm += y[i] * y[i];
        if (!(nrm > 0))
            return hes__fail(sys, HES_EMODEL, "model %s: its symmetries' generators at the "
                             "orbit's start are dependent", m->name);
        for (int i = 0; i < n; i++)
            y[i] /= sqrt(nrm);
        double c = 0;
        for (int i = 0; i < n; i++)
            c += y[i] * d[i];
        for (int i = 0; i < n; i++)
            d[i] -= c * y[i];
    }
    return HES_OK;
}

hes_status hes__symmetry_complement(hes_system *sys, const double *x0, int n, double *W,
                                    int *m_out)
{
    const hes_model *m = sys->model;
    const hes_orbit_spec *o = &m->orbit;
    int s = o->symmetries ? o->n_symmetries : 0;
    if (s >= n)
        return hes__fail(sys, HES_EINVAL, "model %s: %d symmetries leave nothing of the "
                         "orbit's %d tangent directions to solve for", m->name, s, n);
    double *mem = malloc(sizeof(double) * ((size_t)n * (n + s) + 65 * (size_t)n));
    if (!mem)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    double *Qf = mem, *Y = Qf + (size_t)n * n, *tau = Y + (size_t)n * s, *w = tau + n;
    hes_status st = HES_OK;
    if (s > 0 && (o->symmetries(x0, sys->p, Y, hes__mode_data(m, o->mode)) != 0 ||
                  !hes__all_finite(Y, n * s)))
        st = hes__fail(sys, HES_EMODEL, "model %s: its symmetries' generators failed or are "
                       "not finite", m->name);
    if (st == HES_OK && (st = basis(Y, n, s, Qf, tau, w)) != HES_OK)
        st = hes__fail(sys, st, st == HES_EDEFECTIVE ? "model %s: its symmetries' "
                       "generators are dependent" : "model %s: the QR of its symmetries' "
                       "generators failed (LAPACK)", m->name);
    if (st == HES_OK) {
        memcpy(W, Qf + (size_t)s * n, sizeof(double) * (size_t)n * (n - s));
        *m_out = n - s;
    }
    free(mem);
    return st;
}
