/*
 * qp_lcp.c - a convex quadratic program solved as the linear
 * complementarity problem of its optimality conditions (Cottle, Pang &
 * Stone 1992, Sec. 1.2; the route of Zapolsky & Drumwright Sec. 6.2.1,
 * footnote 1, to apply Lemke's method):
 *     minimise 1/2 x^T H x + c^T x
 *     subject to x_i >= 0 (i with nonneg[i]),  G x + g >= 0,
 * H symmetric positive semidefinite.  A free x_i is split into two
 * nonnegative parts, x = T x' (T: +1 on x_i's own column, -1 on its
 * second part), and the KKT conditions with multipliers y >= 0 are
 *     0 <= x' _|_ T^T H T x' + T^T c - (G T)^T y >= 0,
 *     0 <= y  _|_ G T x' + g >= 0,
 * an LCP whose matrix [[T^T H T, -(G T)^T], [G T, 0]] is positive
 * semidefinite, which Lemke's method solves whenever the program is
 * feasible and bounded (hes_lcp_solve).  reg >= 0 is added to the x
 * block's diagonal, T^T H T + reg I (Tikhonov regularisation, as the LEMKE
 * code the paper uses does; the y block stays 0): where H is singular, as
 * the contact problems' are (internal forces, the two parts of a free
 * variable), or constraints repeat (redundant contacts), the LCP is
 * degenerate and Lemke's method can pivot for thousands of steps.  reg
 * makes the program strictly convex (the smallest of the optimal
 * solutions) and moves the result by about reg relative to H's scale.  The contact problems use 1e-8 of the Hessian's
 * largest diagonal entry (HES__QP_REG): 1e-10 left Lemke's method at
 * 6,700 pivots on eight redundant contacts, 1e-8 takes it to 71.
 *
 * refine > 0 then removes reg's bias by that many proximal-point steps
 * (Rockafellar 1976): the program again with the linear term c - reg x_k
 * around the last solution x_k, which minimises 1/2 x^T H x + c^T x +
 * reg/2 |x - x_k|^2 and so converges to a solution of the program itself
 * (by a factor reg / (reg + lambda) per step along H's eigenvalue lambda;
 * not at all along its null space, where the first solution stays);
 * steps stop when x moves by less than 1e-14 of its size.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"

static hes_status qp_lcp_once(int n, const double *H, const double *c, const int *nonneg, int m,
                              const double *G, const double *g, double reg, double tol,
                              double *x, int *pivots, char *msg, size_t len)
{
    int nf = 0;
    for (int i = 0; i < n; i++)
        nf += !nonneg[i];
    int nx = n + nf, N = nx + m;
    /* col[i]: x_i's own column; neg[i]: its second part's (free), else -1 */
    int *neg = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    double *A = calloc((size_t)N * (size_t)N, sizeof(double));
    double *q = calloc((size_t)N, sizeof(double));
    double *z = malloc(sizeof(double) * (size_t)N), *w = malloc(sizeof(double) * (size_t)N);
    if (!neg || !A || !q || !z || !w) {
        free(neg), free(A), free(q), free(z), free(w);
        return hes__say(msg, len, HES_ENOMEM, "out of memory for a quadratic program");
    }
    for (int i = 0, e = n; i < n; i++)
        neg[i] = nonneg[i] ? -1 : e++;
    /* T^T H T and T^T c */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            double h = H[i + (size_t)j * n];
            A[i + (size_t)j * N] += h;
            if (neg[i] >= 0)
                A[neg[i] + (size_t)j * N] -= h;
            if (neg[j] >= 0)
                A[i + (size_t)neg[j] * N] -= h;
            if (neg[i] >= 0 && neg[j] >= 0)
                A[neg[i] + (size_t)neg[j] * N] += h;
        }
    for (int i = 0; i < nx; i++)
        A[i + (size_t)i * N] += reg;
    for (int i = 0; i < n; i++) {
        q[i] = c[i];
        if (neg[i] >= 0)
            q[neg[i]] = -c[i];
    }
    /* G T below, -(G T)^T to the right */
    for (int r = 0; r < m; r++) {
        for (int j = 0; j < n; j++) {
            double v = G[r + (size_t)j * m];
            A[nx + r + (size_t)j * N] = v;
            A[j + (size_t)(nx + r) * N] = -v;
            if (neg[j] >= 0) {
                A[nx + r + (size_t)neg[j] * N] = -v;
                A[neg[j] + (size_t)(nx + r) * N] = v;
            }
        }
        q[nx + r] = g[r];
    }
    hes_lcp_info info = { 0 };
    hes_error e;
    hes_status st = hes__err_pass(hes_lcp_solve(N, A, q, tol, z, w, &info, &e), &e, msg, len);
    if (pivots)
        *pivots += info.pivots;
    if (st == HES_OK)
        for (int i = 0; i < n; i++)
            x[i] = z[i] - (neg[i] >= 0 ? z[neg[i]] : 0);
    free(neg), free(A), free(q), free(z), free(w);
    return st;
}

hes_status hes__qp_lcp(int n, const double *H, const double *c, const int *nonneg, int m,
                       const double *G, const double *g, double reg, double tol, int refine,
                       double *x, int *pivots, char *msg, size_t len)
{
    hes_status st = qp_lcp_once(n, H, c, nonneg, m, G, g, reg, tol, x, pivots, msg, len);
    if (st != HES_OK || refine <= 0 || reg <= 0 || n == 0)
        return st;
    double *ck = calloc((size_t)n * 2, sizeof(double));
    if (!ck)
        return st;
    double *xk = ck + n;
    for (int k = 0; k < refine; k++) {
        double xs = 0, dx = 0;
        for (int i = 0; i < n; i++)
            ck[i] = c[i] - reg * x[i], xs = fmax(xs, fabs(x[i]));
        if (qp_lcp_once(n, H, ck, nonneg, m, G, g, reg, tol, xk, pivots, NULL, 0) != HES_OK)
            break;
        for (int i = 0; i < n; i++)
            dx = fmax(dx, fabs(xk[i] - x[i]));
        memcpy(x, xk, sizeof(double) * (size_t)n);
        if (dx <= 1e-14 * xs)
            break;
    }
    free(ck);
    return st;
}
