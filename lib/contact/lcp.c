/*
 * lcp.c - linear complementarity problems by Lemke's method (the
 * impact laws of Halm & Posa, set-valued simultaneous impacts, eqs. 31
 * and 72-75, are one LCP each):
 *
 *     w = M z + q,  z >= 0,  w >= 0,  z_i w_i = 0.
 *
 * The solver is Siconos numerics' lexicographic Lemke method
 * (linearComplementarity_driver with SICONOS_LCP_LEMKE; Debian
 * libsiconos-numerics-dev, detected by configure), not one written here.
 * Lemke's method either ends at a solution or on a secondary ray.  For a
 * copositive-plus M the ray proves that no solution exists; the impact LCPs
 * are copositive but, with degenerate data (a separating contact whose
 * sliding speed is free), Siconos's Lemke was seen to end on a ray of a
 * problem that has solutions (10 of 200 random Anitescu-Potra impacts,
 * tests/test_impact.c), so a ray is followed by enumeration for n <= 20.
 *
 * The check is ours, not the solver's: w is recomputed from the returned z
 * as M z + q, and the residual of hes__lcp_residual (complementarity and
 * feasibility of z relative to |z| and of w relative to |q|, plus the
 * rounding error of w, eps (|M| |z| + |q|) entry by entry, relative to
 * |q|: zero, up to that rounding, exactly at a solution) must be at most
 * tol.
 *
 * Siconos numerics keeps its error-handling state thread-local; the Lemke
 * driver allocates its workspace per call from the options made here, so
 * concurrent calls on separate problems share nothing.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"

#ifdef HAVE_SICONOS
#include <siconos/numerics/LCP_Solvers.h>
#include <siconos/numerics/LinearComplementarityProblem.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/lcp_cst.h>
#endif

/* w = M z + q and the complementarity residual of (z, w), relative to the
 * size of the data and of the solution:
 *     zs = |z|_inf,  S = |q|_inf,  s_i = sum_k |M_ik z_k| + |q_i|,
 *     r  = max_i max(-z_i / zs, -w_i / S, min(z_i / zs, w_i / S))
 *          + eps max_i s_i / S
 * (a ratio with a zero denominator counts 0 where its numerator is 0 and
 * infinity otherwise).  The first term measures z against its own size
 * and w against the data's.  The second is what the arithmetic can
 * resolve: w_i is the sum of the terms M_ik z_k and q_i, so its rounding
 * error is about eps s_i, and a solution so large that this reaches the
 * tolerance (impulses that cancel each other, or the far end of a ray of
 * Lemke's method) has a w that means nothing, however small it comes out.
 * Both are scale-free: multiplying q by c and z by c leaves r unchanged. */
static double ratio(double num, double den)
{
    return den > 0 ? num / den : num == 0 ? 0 : num > 0 ? INFINITY : -INFINITY;
}

double hes__lcp_residual(int n, const double *M, const double *q, const double *z, double *w)
{
    double zs = 0, S = 0, smax = 0, r = 0;
    for (int k = 0; k < n; k++) {
        zs = fmax(zs, fabs(z[k]));
        S = fmax(S, fabs(q[k]));
    }
    for (int i = 0; i < n; i++) {
        double s = q[i], si = fabs(q[i]);
        for (int k = 0; k < n; k++) {
            double t = M[i + (size_t)k * n] * z[k];
            s += t;
            si += fabs(t);
        }
        w[i] = s;
        smax = fmax(smax, si);
        double zr = ratio(z[i], zs), wr = ratio(s, S);
        r = fmax(r, fmax(fmax(-zr, -wr), fmin(zr, wr)));
    }
    return r + ratio(DBL_EPSILON * smax, S);
}

hes_status hes_lcp_solve(int n, const double *M, const double *q, double tol, double *z,
                         double *w, hes_lcp_info *info, hes_error *err)
{
    return hes_lcp_solve_from(n, M, q, tol, 0, z, w, info, err);
}

hes_status hes_lcp_solve_from(int n, const double *M, const double *q, double tol,
                              unsigned long start, double *z, double *w, hes_lcp_info *info,
                              hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (msg && len > 0)
        msg[0] = '\0';
    if (info)
        memset(info, 0, sizeof *info);
    if (n < 1 || !M || !q || !z || !w || !(tol > 0))
        return hes__say(msg, len, HES_EINVAL, "hes_lcp_solve: n = %d must be >= 1, M, q, z and w "
                        "given, and tol = %g > 0", n, tol);
    if (!hes__all_finite(M, n * n) || !hes__all_finite(q, n))
        return hes__say(msg, len, HES_EINVAL, "hes_lcp_solve: M or q is not finite");
#ifdef HAVE_SICONOS
    NumericsMatrix *A = NM_create(NM_DENSE, n, n);
    if (!A)
        return hes__say(msg, len, HES_ENOMEM, "out of memory for the LCP");
    memcpy(A->matrix0, M, (size_t)n * (size_t)n * sizeof *M);
    LinearComplementarityProblem p = { n, A, (double *)q };
    /* Attempts in turn until one passes the check:
       1. Lemke's method on the problem;
       2. Lemke's method on q + delta, delta_i = 1e-10 |q|_inf (i + 1) / n
          (1e-10 (i + 1) / n for q = 0), below the check's tolerance relative to |q|:
          the impulse-stepping LCPs carry rounding-level entries (1e-17
          where a velocity is zero) that make them degenerate, and Siconos's
          Lemke then ends on a ray of a problem that has solutions (disk
          stack); the perturbation breaks the ties and polishing (below)
          returns to the problem itself;
       3. enumeration of the complementary index sets, for n <= 20.
       Each candidate is polished: the linear system of its active set
       {i : z_i > w_i}, M_SS z_S = -q_S, z_i = 0 elsewhere, solved again
       (LU, base/dense.c: the same bits whatever the BLAS threads), which
       removes the pivoting's rounding drift.
       (Siconos 4.4's enumeration leaks 32 bytes a call: tests/valgrind.supp.
       Its other pivoting methods are no fallback: the plain one prints on
       stdout, the one with LU updates aborts on an assertion on some of
       these problems.) */
    /* start > 0 (n <= 20): first the enumeration from index set start mod
       2^n, which finds the solution first met from there: a different one,
       where there are several, for different starts */
    static const int solvers[] = { SICONOS_LCP_ENUM, SICONOS_LCP_LEMKE, SICONOS_LCP_LEMKE,
                                   SICONOS_LCP_ENUM };
    double *qp = malloc(sizeof(double) * (3 * (size_t)n + (size_t)n * n));
    int *act = malloc(sizeof(int) * (size_t)n);
    if (!qp || !act) {
        free(qp);
        free(act);
        NM_free(A);
        return hes__say(msg, len, HES_ENOMEM, "out of memory for the LCP");
    }
    double *zs = qp + n, *ws = zs + n, *Ms = ws + n;
    double qn = 0;
    for (int i = 0; i < n; i++)
        qn = fmax(qn, fabs(q[i]));
    int rc = -1, pivots = 0, used = -1;
    double r = INFINITY;
    for (int k = start && n <= 20 ? 0 : 1; k < 4 && !(r <= tol); k++) {
        if (solvers[k] == SICONOS_LCP_ENUM && n > 20)
            break;
        for (int i = 0; i < n; i++)
            qp[i] = q[i] + (k == 2 ? 1e-10 * (qn > 0 ? qn : 1) * (i + 1) / n : 0);
        p.q = qp;
        SolverOptions *o = solver_options_create(solvers[k]);
        if (!o) {
            r = INFINITY;
            break;
        }
        memset(zs, 0, (size_t)n * sizeof *zs);
        memset(ws, 0, (size_t)n * sizeof *ws);
        if (solvers[k] != SICONOS_LCP_ENUM)
            o->iparam[SICONOS_IPARAM_MAX_ITER] = 100 * (n + 10);
        if (k == 0)
            o->iparam[SICONOS_LCP_IPARAM_ENUM_SEED] = (int)(start % (1ul << n));
        rc = linearComplementarity_driver(&p, zs, ws, o);
        pivots += o->iparam[SICONOS_IPARAM_ITER_DONE];
        solver_options_delete(o);   /* frees the members (Siconos 4.4), not the struct */
        free(o);
        if (!hes__all_finite(zs, n))
            continue;
        double rk = hes__lcp_residual(n, M, q, zs, ws);
        int m = 0;
        for (int i = 0; i < n; i++)
            if (zs[i] > ws[i])
                act[m++] = i;
        if (rk > 1e-3 * tol && m > 0) {
            /* polish on the active set (qp is free again) */
            for (int a = 0; a < m; a++) {
                qp[a] = -q[act[a]];
                for (int c = 0; c < m; c++)
                    Ms[a + (size_t)c * m] = M[act[a] + (size_t)act[c] * n];
            }
            if (hes__lu_solve(m, Ms, qp) == 0) {
                double *zp = Ms;     /* the factors are no longer needed */
                memset(zp, 0, (size_t)n * sizeof *zp);
                for (int a = 0; a < m; a++)
                    zp[act[a]] = qp[a];
                double *wp = zp + n;
                double rp = hes__all_finite(zp, n) ? hes__lcp_residual(n, M, q, zp, wp) : INFINITY;
                if (rp < rk) {
                    memcpy(zs, zp, (size_t)n * sizeof *zs);
                    memcpy(ws, wp, (size_t)n * sizeof *ws);
                    rk = rp;
                }
            }
        }
        if (rk < r) {
            r = rk;
            used = k == 0 ? 3 : k - 1;
            memcpy(z, zs, (size_t)n * sizeof *z);
            memcpy(w, ws, (size_t)n * sizeof *w);
        }
    }
    free(qp);
    free(act);
    NM_free(A);
    if (info) {
        info->pivots = pivots;
        info->residual = r;
        info->solver = used;
    }
    if (!(r <= tol))
        return hes__say(msg, len, HES_ELCP, "the LCP of size %d has no solution that Lemke's "
                        "method%s finds (last Siconos info %d, %d pivots, residual %.3g > %.3g): "
                        "none exists, as for an infeasible problem, or the solvers miss it", n,
                        n > 20 ? "" : " or enumeration", rc, pivots, r, tol);
    return HES_OK;
#else
    (void)start;
    return hes__say(msg, len, HES_ESOLVER, "hes was built without Siconos numerics, which solves "
                    "complementarity problems: install the Debian package libsiconos-numerics-dev "
                    "and run configure again");
#endif
}
