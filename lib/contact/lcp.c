/*
 * lcp.c - linear complementarity problems by Lemke's method (issue 13: the
 * impact laws of shared/papers/set-valued-simultaneous-impacts.txt, eqs. 31
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
 * as M z + q, and the residual
 *     r = max_i max(|min(z_i, w_i)|, -z_i, -w_i) / (1 + |q|_inf)
 * (zero exactly at a solution: each pair has one member zero and neither is
 * negative) must be at most tol.
 *
 * Siconos numerics keeps its error-handling state thread-local; the Lemke
 * driver allocates its workspace per call from the options made here, so
 * concurrent calls on separate problems share nothing.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

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

/* w = M z + q and the complementarity residual of (z, w) */
static double residual(int n, const double *M, const double *q, const double *z, double *w)
{
    double r = 0, qn = 0;
    for (int i = 0; i < n; i++) {
        double s = q[i];
        for (int k = 0; k < n; k++)
            s += M[i + (size_t)k * n] * z[k];
        w[i] = s;
        qn = fmax(qn, fabs(q[i]));
    }
    for (int i = 0; i < n; i++)
        r = fmax(r, fmax(fabs(fmin(z[i], w[i])), fmax(-z[i], -w[i])));
    return r / (1 + qn);
}

hes_status hes_lcp_solve(int n, const double *M, const double *q, double tol, double *z,
                         double *w, hes_lcp_info *info, char *msg, size_t len)
{
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
    /* Lemke first; where it ends on a ray (degenerate problems, as a
       separating contact's free sliding speed, can make it) enumeration of
       the complementary index sets for n <= 20.  (Siconos 4.4's enumeration
       leaks 32 bytes a call: tests/valgrind.supp.  Its other pivoting
       methods are no fallback: the plain one prints on stdout, the one
       with LU updates aborts on an assertion on some of these problems.) */
    static const int solvers[] = { SICONOS_LCP_LEMKE, SICONOS_LCP_ENUM };
    int rc = -1, pivots = 0, used = -1;
    double r = INFINITY;
    for (int k = 0; k < 2 && !(r <= tol); k++) {
        if (solvers[k] == SICONOS_LCP_ENUM && n > 20)
            break;
        SolverOptions *o = solver_options_create(solvers[k]);
        if (!o) {
            NM_free(A);
            return hes__say(msg, len, HES_ENOMEM, "out of memory for the LCP");
        }
        memset(z, 0, (size_t)n * sizeof *z);
        memset(w, 0, (size_t)n * sizeof *w);
        if (solvers[k] != SICONOS_LCP_ENUM)
            o->iparam[SICONOS_IPARAM_MAX_ITER] = 100 * (n + 10);
        rc = linearComplementarity_driver(&p, z, w, o);
        pivots += o->iparam[SICONOS_IPARAM_ITER_DONE];
        solver_options_delete(o);   /* frees the members (Siconos 4.4), not the struct */
        free(o);
        r = hes__all_finite(z, n) ? residual(n, M, q, z, w) : INFINITY;
        used = k;
    }
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
    (void)residual;
    return hes__say(msg, len, HES_ESOLVER, "hes was built without Siconos numerics, which solves "
                    "complementarity problems: install the Debian package libsiconos-numerics-dev "
                    "and run configure again");
#endif
}
