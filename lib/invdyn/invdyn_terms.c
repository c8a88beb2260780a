/*
 * invdyn_terms.c - terms the inverse-dynamics formulations share
 * (invdyn.c's LCPs and invdyn_convex.c's least squares): the convex
 * objective's momentum term and the torques without contact force.
 *
 *   g = M v / dt - h            (Stage I: 1/2 |v+|_M^2 / dt^2 = 1/2 f^T U W U^T f
 *                                + f^T U W g + const, eq. 75)
 *   tau_h = G_B^-1 (B^T a_des + (M^-1 B)^T h),  G_B = B^T M^-1 B
 *                               (tau = tau_h - G_B^-1 (M^-1 B)^T J^T f)
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "contact/contact.h"
#include "invdyn/invdyn_ws.h"

void hes__invdyn_momentum_rate(const hes_invdyn_problem *pb, double *g)
{
    int nv = pb->nv;
    for (int i = 0; i < nv; i++) {
        double s = 0;
        for (int j = 0; j < nv; j++)
            s += pb->M[i + (size_t)j * nv] * pb->v[j];
        g[i] = s / pb->dt - pb->h[i];
    }
}

void hes__invdyn_tau_h(const hes_invdyn *id, const hes_invdyn_problem *pb, double *tauh)
{
    int nv = id->nv, nu = id->nu;
    for (int a = 0; a < nu; a++) {
        double s = 0;
        for (int i = 0; i < nv; i++)
            s += pb->B[i + (size_t)a * nv] * pb->a_des[i] + id->MiB[i + (size_t)a * nv] * pb->h[i];
        tauh[a] = s;
    }
    hes__chol_solve(id->G, nu, tauh, 1);
}

