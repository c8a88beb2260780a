/*
 * base/base.h - the base layer's internals, shared by every layer above it:
 * the one finite-difference step rule and central differences (fd.c), small
 * dense linear algebra (linalg.c), and a seedable random generator
 * (random.c).  Nothing here knows what a model is.
 */
#ifndef HES_BASE_H
#define HES_BASE_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "hes.h"

/* The step of a central difference in a value v: cbrt(eps) max(1, |v|),
 * which balances the O(h^2) truncation error against the O(eps / h)
 * rounding error (fd.c).  Every central difference of the library uses it,
 * except where a rule of its own is stated (the fourth-order differences of
 * the mass matrix, the user-set relative step settings.fd_step of the
 * shooting Jacobian and the return-map check, the larger steps of fallbacks
 * across a non-smooth psi). */
double hes__fd_step(double v);
/* The step of a one-sided (forward) difference at v. */
double hes__fd_step_forward(double v);

/* Central differences (fd.c).  f maps (t, x) to n_out values; the Jacobian
 * d f / d x is n_out x n_in column-major.  work needs 2*n_out + n_in doubles.
 * Return the callback's first nonzero return value, else 0. */
typedef int (*hes__vec_fn)(void *ctx, double t, const double *x, double *out);
int hes__fd_dx(hes__vec_fn f, void *ctx, double t, const double *x, int n_in,
               int n_out, double *jac, double *work);
int hes__fd_dt(hes__vec_fn f, void *ctx, double t, const double *x, int n_in,
               int n_out, double *out, double *work);

/* Small dense linear algebra (column-major). */
void hes__matmul(int m, int k, int n, const double *a, const double *b, double *c);
/* Whether the n x n matrix a is exactly the identity. */
int hes__is_identity(const double *a, int n);
/* Small dense factorisations in a fixed order of operations (dense.c):
 * the same bits whatever BLAS's thread count.  Column-major.
 *   hes__chol: A = L L^T in place (lower; the upper triangle untouched);
 *     0, or j + 1 when pivot j is not positive (or NaN).
 *   hes__chol_solve: B (n x nrhs) <- (L L^T)^-1 B.
 *   hes__chol_inverse: A (SPD) <- A^-1, full and symmetric; 0, j + 1 as
 *     hes__chol, -1 out of memory.
 *   hes__lu_solve: A x = b by LU with partial pivoting (A overwritten, b
 *     becomes x); 0, or j + 1 for a zero pivot.
 *   hes__sym_eig: A symmetric -> eigenvalues ascending in ev, eigenvectors
 *     in A's columns (as LAPACK's dsyev); 0, 1 without convergence, -1 out
 *     of memory. */
int hes__chol(double *A, int n);
void hes__chol_solve(const double *L, int n, double *B, int nrhs);
int hes__chol_inverse(double *A, int n);
int hes__lu_solve(int n, double *A, double *b);
int hes__sym_eig(int n, double *A, double *ev);
/* proj = I - F g^T / gF (n x n), gF = g^T F nonzero (linalg.c). */
void hes__flow_projector(int n, const double *F, const double *g, double gF, double *proj);
int hes__all_finite(const double *v, int n);
/* A workspace length for LAPACK dgesvd (jobu 'A', jobvt 'N') of any
 * matrix of at most nmax rows and columns (linalg.c). */
int hes__svd_lwork(int nmax);

/* Least squares over nonnegative variables (nnls.c), A (p x n, leading
 * dimension lda) column-major, for workspaces of at most pmax rows (with
 * the equalities' rows) and nmax columns.  hes__nnls: min |A x - b|, x >=
 * 0; passive (n flags) the warm start when warm, on return the final
 * passive set; the iterations, or -1 (no convergence, rounding).
 * hes__nnls_eq: the same with C x = e (k rows, leading dimension ldc) by
 * the method of multipliers; 0, or -1 when the equalities are not met to
 * 1e-13 of their terms (an infeasible problem among the causes); adds the
 * inner iterations to *iterations (may be NULL). */
typedef struct hes__nnls_ws hes__nnls_ws;
hes__nnls_ws *hes__nnls_alloc(int pmax, int nmax);
void hes__nnls_free(hes__nnls_ws *ws);
int hes__nnls(hes__nnls_ws *ws, int p, int n, const double *A, int lda, const double *b,
              double *x, int *passive, int warm);
int hes__nnls_eq(hes__nnls_ws *ws, int p, int k, int n, const double *A, int lda,
                 const double *b, const double *C, int ldc, const double *e, double *x,
                 int *passive, int warm, int *iterations);

/* splitmix64: a small, seedable generator kept by the caller (random.c). */
/* fn(args + t size) for t < threads, on as many threads, joined before the
 * return; pieces whose thread cannot start run here (parallel.c) */
void hes__run_parallel(int threads, void *(*fn)(void *), void *args, size_t size);

/* CLOCK_MONOTONIC in seconds (clock.c) */
double hes__monotonic_seconds(void);

unsigned long long hes__rng_next(unsigned long long *state);
double hes__rng_uniform(unsigned long long *state);   /* in [0, 1) */
double hes__rng_gaussian(unsigned long long *state);

/* Index of `name` in the table names[0..n-1] (exact match), or -1 when it
 * is not there or NULL: the from-name lookups of the enums (status.c). */
int hes__name_index(const char *const *names, int n, const char *name);

/* Whether a name appears twice among names[0..n-1] (NULL entries
 * skipped): 1 with *dup that name, 0 without, -1 out of memory (names.c). */
int hes__duplicate_name(const char *const *names, int n, const char **dup);

/* The message of a failure into the caller's buffer msg (len bytes; either
 * may be NULL/0: nothing written), returning status (status.c).  For the
 * functions that report through a msg argument rather than an object. */
hes_status hes__say(char *msg, size_t len, hes_status status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The message buffer of a hes_error, emptied (NULL for none), and its
 * size (0 for none): what a call that reports through a hes_error passes
 * on to hes__say and to its helpers' (msg, len) arguments (base/error.c). */
char *hes__errbuf(hes_error *e);
size_t hes__errlen(const hes_error *e);

/* For a helper that reports through (msg, len) and calls a function that
 * reports through a hes_error e: the call's status st, its message copied
 * into msg when it failed. */
hes_status hes__err_pass(hes_status st, const hes_error *e, char *msg, size_t len);

#endif
