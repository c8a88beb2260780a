/*
 * invdyn_algebra.c - the algebra the inverse-dynamics formulations share
 * (Zapolsky & Drumwright, "Inverse dynamics with rigid contact and
 * friction", Sec. 3-6; invdyn.c gives the elimination's formulas): the
 * Cholesky test of Algorithm 1, the pseudo-inverse solve, the elimination
 * against equality columns, the contact rows' projection U W U^T, the
 * torques and accelerations from net forces, and the friction pyramid's
 * rows and net forces.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "invdyn/invdyn_ws.h"

/* ------------------------------------------------------------ algebra */

/* Cholesky (lower) of the n x n matrix A in place; 0 when A is positive
 * definite with every pivot L_jj^2 >= 1e-10 A_jj (a column that is not
 * nearly dependent on those before it: the paper's "not singular" test of
 * Algorithm 1, relative to each column's own scale). */
int hes__invdyn_chol(int n, double *A)
{
    if (n <= 0)
        return 0;
    double *d = malloc(sizeof(double) * (size_t)n);
    if (!d)
        return -1;
    for (int j = 0; j < n; j++)
        d[j] = A[j + (size_t)j * n];
    int info = hes__chol(A, n);
    for (int j = 0; info == 0 && j < n; j++) {
        double l = A[j + (size_t)j * n];
        if (!(l * l >= 1e-10 * d[j]))
            info = j + 1;
    }
    free(d);
    return info;
}

/* A (n x n PSD) z = rhs by the pseudo-inverse (minimum norm, eigenvalues
 * below 1e-10 of the largest dropped); A is overwritten. */
int hes__invdyn_pinv_solve(int n, double *A, const double *rhs, double *z, double *ev, double *tmp)
{
    if (n == 0)
        return 0;
    if (hes__sym_eig(n, A, ev) != 0)
        return -1;
    double thr = 1e-10 * fmax(ev[n - 1], 0);
    for (int k = 0; k < n; k++) {
        tmp[k] = 0;
        if (ev[k] > thr && ev[k] > 0) {
            for (int i = 0; i < n; i++)
                tmp[k] += A[i + (size_t)k * n] * rhs[i];
            tmp[k] /= ev[k];
        }
    }
    for (int i = 0; i < n; i++) {
        z[i] = 0;
        for (int k = 0; k < n; k++)
            z[i] += A[i + (size_t)k * n] * tmp[k];
    }
    return 0;
}

/* The elimination against the equality columns X (nv x ne) and targets
 * re: W (nv x nv), a0 (nv), and Y = Ge^-1 (M^-1 X)^T (ne x nv) with Ge's
 * Cholesky factor in id->Ge.  Nonzero when Ge is singular. */
int hes__invdyn_eliminate(hes_invdyn *id, const double *h, int ne, const double *X, const double *re,
                     double *MiX, double *W, double *a0)
{
    int nv = id->nv;
    double *Ge = id->Ge, *Y = id->Y;
    if (ne < 0 || ne > id->ne_max)
        return 1;
    hes__matmul(nv, nv, ne, id->Minv, X, MiX);
    for (int k = 0; k < ne; k++)
        for (int l = 0; l < ne; l++) {
            double s = 0;
            for (int i = 0; i < nv; i++)
                s += X[i + (size_t)k * nv] * MiX[i + (size_t)l * nv];
            Ge[k + (size_t)l * ne] = s;
        }
    if (hes__invdyn_chol(ne, Ge) != 0)
        return 1;
    for (int i = 0; i < nv; i++)
        for (int k = 0; k < ne; k++)
            Y[k + (size_t)i * ne] = MiX[i + (size_t)k * nv];
    if (ne > 0)
        hes__chol_solve(Ge, ne, Y, nv);
    for (int j = 0; j < nv; j++)
        for (int i = 0; i < nv; i++) {
            double s = id->Minv[i + (size_t)j * nv];
            for (int k = 0; k < ne; k++)
                s -= MiX[i + (size_t)k * nv] * Y[k + (size_t)j * ne];
            W[i + (size_t)j * nv] = s;
        }
    /* a0 = -W h + M^-1 X Ge^-1 re */
    double *gr = id->tmp;
    memcpy(gr, re, sizeof(double) * (size_t)ne);
    if (ne > 0)
        hes__chol_solve(Ge, ne, gr, 1);
    for (int i = 0; i < nv; i++) {
        double s = 0;
        for (int j = 0; j < nv; j++)
            s -= W[i + (size_t)j * nv] * h[j];
        for (int k = 0; k < ne; k++)
            s += MiX[i + (size_t)k * nv] * gr[k];
        a0[i] = s;
    }
    return 0;
}

/* Rows U (nr x nv, column-major) of the force directions: WUt = W U^T,
 * H = U W U^T, and the rows' accelerations U a0 into ua (may be NULL). */
void hes__invdyn_project(hes_invdyn *id, int nr, const double *U, const double *W, const double *a0,
                    double *ua)
{
    int nv = id->nv;
    assert(nr >= 0 && nr <= id->u_max);
    for (int k = 0; k < nr; k++)
        for (int i = 0; i < nv; i++) {
            double s = 0;
            for (int j = 0; j < nv; j++)
                s += W[i + (size_t)j * nv] * U[k + (size_t)j * nr];
            id->WUt[i + (size_t)k * nv] = s;
        }
    for (int l = 0; l < nr; l++)
        for (int k = 0; k < nr; k++) {
            double s = 0;
            for (int i = 0; i < nv; i++)
                s += U[k + (size_t)i * nr] * id->WUt[i + (size_t)l * nv];
            id->H[k + (size_t)l * nr] = s;
        }
    /* W = M^-1 - M^-1 X Ge^-1 X^T M^-1 is a difference: where the equality
       columns span every direction (every coordinate driven), it vanishes
       and what is left is rounding, which the contact problems must not
       invert.  Entries below 1e-12 of U M^-1 U^T's scale are zero. */
    double ref = 0;
    for (int k = 0; k < nr; k++)
        for (int i = 0; i < nv; i++)
            for (int j = 0; j < nv; j++)
                ref = fmax(ref, fabs(U[k + (size_t)i * nr] * id->Minv[i + (size_t)j * nv] *
                                     U[k + (size_t)j * nr]));
    for (size_t e = 0; e < (size_t)nr * (size_t)nr; e++)
        if (fabs(id->H[e]) <= 1e-12 * ref)
            id->H[e] = 0;
    for (int k = 0; ua && k < nr; k++) {
        double s = 0;
        for (int i = 0; i < nv; i++)
            s += U[k + (size_t)i * nr] * a0[i];
        ua[k] = s;
    }
}

/* Net contact forces f (rows) -> tau, a, w: tau = G^-1 (B^T a_des -
 * B^T M^-1 g), a = M^-1 (g + B tau), g = J^T f - h. */
void hes__invdyn_finish(hes_invdyn *id, const hes_invdyn_problem *pb)
{
    int nv = id->nv, nu = id->nu, rows = id->rows;
    double *g = id->tmp2;
    for (int j = 0; j < nv; j++) {
        double s = -pb->h[j];
        for (int r = 0; r < rows; r++)
            s += pb->J[r + (size_t)j * rows] * id->f[r];
        g[j] = s;
    }
    for (int k = 0; k < nu; k++) {
        double s = 0;
        for (int i = 0; i < nv; i++)
            s += pb->B[i + (size_t)k * nv] * pb->a_des[i] - id->MiB[i + (size_t)k * nv] * g[i];
        id->tau[k] = s;
    }
    hes__chol_solve(id->G, nu, id->tau, 1);
    for (int i = 0; i < nv; i++) {
        double s = 0;
        for (int j = 0; j < nv; j++)
            s += id->Minv[i + (size_t)j * nv] * g[j];
        for (int k = 0; k < nu; k++)
            s += id->MiB[i + (size_t)k * nv] * id->tau[k];
        id->a[i] = s;
    }
    for (int r = 0; r < rows; r++) {
        double s = pb->b[r];
        for (int j = 0; j < nv; j++)
            s += pb->J[r + (size_t)j * rows] * id->a[j];
        id->w[r] = s;
    }
}

/* The pyramid's force rows U (nc (1 + 2t) x nv): N, then per tangent
 * direction +S, -S (and +T, -T), with their offsets bu. */
int hes__invdyn_pyramid_rows(hes_invdyn *id, const hes_invdyn_problem *pb, double *bu)
{
    int nv = id->nv, nc = id->nc, t = id->t, rows = id->rows, nr = nc * (1 + 2 * t);
    for (int c = 0; c < nc; c++) {
        for (int j = 0; j < nv; j++)
            id->U[c + (size_t)j * nr] = pb->J[c + (size_t)j * rows];
        bu[c] = pb->b[c];
        for (int d = 0; d < t; d++)
            for (int sgn = 0; sgn < 2; sgn++) {
                int r = nc + (2 * d + sgn) * nc + c, src = (1 + d) * nc + c;
                double s = sgn ? -1 : 1;
                for (int j = 0; j < nv; j++)
                    id->U[r + (size_t)j * nr] = s * pb->J[src + (size_t)j * rows];
                bu[r] = s * pb->b[src];
            }
    }
    return nr;
}

/* Net forces from the pyramid's x: f_N, then f_S = x(+S) - x(-S), ... */
void hes__invdyn_pyramid_net(hes_invdyn *id, const double *x)
{
    int nc = id->nc, t = id->t;
    for (int c = 0; c < nc; c++) {
        id->f[c] = fmax(x[c], 0);
        for (int d = 0; d < t; d++)
            id->f[(1 + d) * nc + c] = x[nc + 2 * d * nc + c] - x[nc + (2 * d + 1) * nc + c];
    }
}
