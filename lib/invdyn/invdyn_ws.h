/*
 * invdyn_ws.h - the inverse-dynamics workspace, shared by the formulations
 * of invdyn.c and the convex formulation in the contact forces of
 * invdyn_convex.c.
 */
#ifndef HES_INVDYN_WS_H
#define HES_INVDYN_WS_H

#include "hes.h"
#include "base/base.h"

struct hes_invdyn {
    int nv, nu, nc, t, rows, ne_max, u_max;
    /* results */
    double *tau, *a, *f, *w, *ratio;
    int *active;
    int *prev, have_prev;          /* the last no-slip active set */
    /* workspace */
    double *Minv, *MiB, *G, *WB, *a0B;
    double *X, *MiX, *Ge, *We, *a0e, *re, *Y;
    double *U, *WUt, *H, *c, *x, *x0, *Gq, *gq, *Z, *R, *ev, *tmp, *tmp2;
    int *sel, *nonneg, *nb;
    int *pidx;                     /* ppm's nonbasic indices (nc) */
    int *cprev, have_cprev;        /* Coulomb's last active set (its LCP's size) */
    hes__nnls_ws *cls;             /* Coulomb's warm start */
    double *cA, *cz;
    int *cix;
    /* the convex formulation in the contact forces (invdyn_convex.c) */
    hes__nnls_ws *ls;
    double *Qw, *QJ, *RJ, *A1, *C1, *A2, *lam, *y;
    int *rep, *pas1, *pas2, have_cvx;
};

/* The convex formulations (Stage I, Stage II) in the pyramid's edge
 * forces by least squares with bounds (invdyn_convex.c): id->f on
 * HES_OK; any other status leaves the problem to the KKT-LCP path (msg
 * says why).  Needs id's M^-1, W_B, a0_B, G and MiB of this problem. */
hes_status hes__invdyn_convex_forces(hes_invdyn *id, const hes_invdyn_problem *pb,
                                     const hes_invdyn_options *o, hes_invdyn_result *res,
                                     char *msg, size_t len);
int hes__invdyn_convex_alloc(hes_invdyn *id);
/* M v / dt - h (nv): the convex objective's momentum term (invdyn_terms.c) */
void hes__invdyn_momentum_rate(const hes_invdyn_problem *pb, double *g);
/* tau_h = G_B^-1 (B^T a_des + (M^-1 B)^T h) (nu): the torques with no
 * contact force, tau = tau_h - G_B^-1 (M^-1 B)^T J^T f (invdyn_terms.c) */
void hes__invdyn_tau_h(const hes_invdyn *id, const hes_invdyn_problem *pb, double *tauh);
void hes__invdyn_convex_free(hes_invdyn *id);

#endif
