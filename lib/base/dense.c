/*
 * dense.c - small dense factorisations written out in a fixed order of
 * operations: Cholesky (factor, solve, inverse), LU with partial pivoting,
 * and the symmetric eigenproblem by cyclic Jacobi rotations.
 *
 * Why not LAPACK: OpenBLAS's LAPACK and the BLAS under it choose their
 * kernels and split their sums by the number of threads (OPENBLAS_NUM_
 * THREADS), even for 8 x 8 matrices: dpotri, dsyev and dgesv return other
 * bits with 2 threads than with 1.  The contact problems (impact laws,
 * inverse dynamics, their LCPs) branch on those bits (active sets, pivots,
 * null-space ranks), so whole answers moved with the thread count.  These
 * routines give the same bits on every machine setting, and at the sizes
 * of a robot's contact problems (tens of rows) cost no more.
 *
 * Storage is column-major, as LAPACK's.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

int hes__chol(double *A, int n)
{
    assert(n >= 0 && (n == 0 || A));
    for (int j = 0; j < n; j++) {
        double d = A[j + (size_t)j * n];
        for (int k = 0; k < j; k++)
            d -= A[j + (size_t)k * n] * A[j + (size_t)k * n];
        if (!(d > 0))
            return j + 1;
        double ljj = sqrt(d);
        A[j + (size_t)j * n] = ljj;
        for (int i = j + 1; i < n; i++) {
            double s = A[i + (size_t)j * n];
            for (int k = 0; k < j; k++)
                s -= A[i + (size_t)k * n] * A[j + (size_t)k * n];
            A[i + (size_t)j * n] = s / ljj;
        }
    }
    return 0;
}

void hes__chol_solve(const double *L, int n, double *B, int nrhs)
{
    for (int c = 0; c < nrhs; c++) {
        double *b = B + (size_t)c * n;
        for (int i = 0; i < n; i++) {
            double s = b[i];
            for (int k = 0; k < i; k++)
                s -= L[i + (size_t)k * n] * b[k];
            b[i] = s / L[i + (size_t)i * n];
        }
        for (int i = n - 1; i >= 0; i--) {
            double s = b[i];
            for (int k = i + 1; k < n; k++)
                s -= L[k + (size_t)i * n] * b[k];
            b[i] = s / L[i + (size_t)i * n];
        }
    }
}

int hes__chol_inverse(double *A, int n)
{
    double *L = malloc(sizeof(double) * (size_t)n * (size_t)n);
    if (!L)
        return -1;
    memcpy(L, A, sizeof(double) * (size_t)n * (size_t)n);
    int rc = hes__chol(L, n);
    if (rc == 0) {
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                A[i + (size_t)j * n] = i == j;
        hes__chol_solve(L, n, A, n);
        /* symmetric to rounding: the mean of the two triangles */
        for (int j = 0; j < n; j++)
            for (int i = 0; i < j; i++)
                A[i + (size_t)j * n] = A[j + (size_t)i * n] =
                    0.5 * (A[i + (size_t)j * n] + A[j + (size_t)i * n]);
    }
    free(L);
    return rc;
}

int hes__lu_solve(int n, double *A, double *b)
{
    assert(n >= 0 && (n == 0 || (A && b)));
    for (int j = 0; j < n; j++) {
        int p = j;
        for (int i = j + 1; i < n; i++)
            if (fabs(A[i + (size_t)j * n]) > fabs(A[p + (size_t)j * n]))
                p = i;
        if (!(A[p + (size_t)j * n] != 0) || !isfinite(A[p + (size_t)j * n]))
            return j + 1;
        if (p != j) {
            for (int k = 0; k < n; k++) {
                double t = A[j + (size_t)k * n];
                A[j + (size_t)k * n] = A[p + (size_t)k * n];
                A[p + (size_t)k * n] = t;
            }
            double t = b[j];
            b[j] = b[p];
            b[p] = t;
        }
        for (int i = j + 1; i < n; i++) {
            double f = A[i + (size_t)j * n] / A[j + (size_t)j * n];
            A[i + (size_t)j * n] = f;
            for (int k = j + 1; k < n; k++)
                A[i + (size_t)k * n] -= f * A[j + (size_t)k * n];
            b[i] -= f * b[j];
        }
    }
    for (int i = n - 1; i >= 0; i--) {
        double s = b[i];
        for (int k = i + 1; k < n; k++)
            s -= A[i + (size_t)k * n] * b[k];
        b[i] = s / A[i + (size_t)i * n];
    }
    return 0;
}

/*
 * Cyclic Jacobi (Golub & Van Loan, Matrix Computations, Alg. 8.5.3, with
 * the stable rotation of Sec. 8.5.2): sweep over the pairs (p, q) in
 * order, annihilating A_pq by a rotation, until the off-diagonal part is
 * below eps times the matrix's Frobenius norm (quadratic convergence: a
 * handful of sweeps; at most 100).  Each eigenvalue comes out with an
 * absolute error of a few eps |A|, as with LAPACK's dsyev.  Eigenvalues
 * ascending into ev, their eigenvectors the columns of A (as dsyev).
 */
int hes__sym_eig(int n, double *A, double *ev)
{
    double *V = malloc(sizeof(double) * (size_t)n * (size_t)n);
    if (!V)
        return -1;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            V[i + (size_t)j * n] = i == j;
    double fro = 0;
    for (size_t e = 0; e < (size_t)n * (size_t)n; e++)
        fro += A[e] * A[e];
    fro = sqrt(fro);
    int sweep;
    for (sweep = 0; sweep < 100; sweep++) {
        double off = 0;
        for (int q = 0; q < n; q++)
            for (int p = 0; p < q; p++)
                off += 2 * A[p + (size_t)q * n] * A[p + (size_t)q * n];
        if (!(sqrt(off) > 1e-17 * fro))
            break;
        for (int p = 0; p < n - 1; p++)
            for (int q = p + 1; q < n; q++) {
                double apq = A[p + (size_t)q * n];
                if (apq == 0)
                    continue;
                double app = A[p + (size_t)p * n], aqq = A[q + (size_t)q * n];
                double tau = (aqq - app) / (2 * apq);
                double t = (tau >= 0 ? 1 : -1) / (fabs(tau) + sqrt(1 + tau * tau));
                double c = 1 / sqrt(1 + t * t), s = t * c;
                /* A <- J^T A J with J the rotation in (p, q) */
                for (int k = 0; k < n; k++) {
                    double akp = A[k + (size_t)p * n], akq = A[k + (size_t)q * n];
                    A[k + (size_t)p * n] = c * akp - s * akq;
                    A[k + (size_t)q * n] = s * akp + c * akq;
                }
                for (int k = 0; k < n; k++) {
                    double apk = A[p + (size_t)k * n], aqk = A[q + (size_t)k * n];
                    A[p + (size_t)k * n] = c * apk - s * aqk;
                    A[q + (size_t)k * n] = s * apk + c * aqk;
                }
                A[p + (size_t)q * n] = A[q + (size_t)p * n] = 0;
                for (int k = 0; k < n; k++) {
                    double vkp = V[k + (size_t)p * n], vkq = V[k + (size_t)q * n];
                    V[k + (size_t)p * n] = c * vkp - s * vkq;
                    V[k + (size_t)q * n] = s * vkp + c * vkq;
                }
            }
    }
    /* ascending, by selection (stable for equal eigenvalues) */
    for (int i = 0; i < n; i++)
        ev[i] = A[i + (size_t)i * n];
    int rc = sweep == 100 ? 1 : 0;
    for (int i = 0; i < n; i++) {
        int m = i;
        for (int j = i + 1; j < n; j++)
            if (ev[j] < ev[m])
                m = j;
        if (m != i) {
            double t = ev[i];
            ev[i] = ev[m];
            ev[m] = t;
            for (int k = 0; k < n; k++) {
                t = V[k + (size_t)i * n];
                V[k + (size_t)i * n] = V[k + (size_t)m * n];
                V[k + (size_t)m * n] = t;
            }
        }
    }
    memcpy(A, V, sizeof(double) * (size_t)n * (size_t)n);
    free(V);
    return rc;
}
