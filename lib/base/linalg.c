/*
 * linalg.c - the small dense linear algebra every layer shares (column-major
 * storage, as LAPACK): a matrix product, an identity test and a finiteness
 * test.  Anything
 * larger (eigenvalues, SVD, solves) goes to LAPACKE.
 */
#include <math.h>
#include <stddef.h>

#include <lapacke.h>

#include "base/base.h"

/* c (m x n) = a (m x k) b (k x n). */
void hes__matmul(int m, int k, int n, const double *a, const double *b, double *c)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double s = 0.0;
            for (int l = 0; l < k; l++)
                s += a[i + (size_t)l * m] * b[l + (size_t)j * k];
            c[i + (size_t)j * m] = s;
        }
}

int hes__is_identity(const double *a, int n)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if (a[i + (size_t)j * n] != (i == j))
                return 0;
    return 1;
}

/* The projection along the flow onto a section with normal g:
 *   proj (n x n) = I - F g^T / gF,   gF = g^T F (nonzero, the caller's test),
 * which maps the variation of a state to the variation of where its flow
 * meets the section (Aizerman and Gantmacher; the section matrix of
 * hybrid/monodromy.c and the return map of hybrid/ess_orbit.c). */
void hes__flow_projector(int n, const double *F, const double *g, double gF, double *proj)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            proj[i + (size_t)j * n] = (i == j) - F[i] * g[j] / gF;
}

/* 1 when all n values are finite (no NaN, no infinity), else 0. */
int hes__all_finite(const double *v, int n)
{
    /* v_i * 0 is 0 for a finite v_i and NaN for NaN or an infinity: four
     * branch-free sums instead of a test per value (the ESS integrator checks
     * every m x n event Jacobian a model returns) */
    double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        a0 += v[i] * 0.0;
        a1 += v[i + 1] * 0.0;
        a2 += v[i + 2] * 0.0;
        a3 += v[i + 3] * 0.0;
    }
    for (; i < n; i++)
        a0 += v[i] * 0.0;
    return a0 + a1 + a2 + a3 == 0;
}

/* A dgesvd workspace length (jobu 'A', jobvt 'N') that serves every m x n
 * matrix with m, n <= nmax: LAPACK's optimum for nmax x nmax, and at least
 * its minimum max(3 min(m,n) + max(m,n), 5 min(m,n)) <= 5 nmax. */
int hes__svd_lwork(int nmax)
{
    double q = 0, dummy = 0;
    int n = nmax > 0 ? nmax : 1;
    if (LAPACKE_dgesvd_work(LAPACK_COL_MAJOR, 'A', 'N', n, n, &dummy, n, &dummy, &dummy, n,
                            NULL, 1, &q, -1) != 0)
        q = 0;
    return (int)fmax(q, 5.0 * n + 1.0);
}
