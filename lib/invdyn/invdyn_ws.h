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
    char msg[HES_ERROR_LEN];       /* the last failure (hes_invdyn_errmsg) */
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

/* The shared algebra (invdyn_algebra.c): the Cholesky test of Algorithm
 * 1 (0: positive definite, every pivot above 1e-10 of its column's
 * scale); A z = rhs by the pseudo-inverse (A n x n PSD, overwritten); the
 * elimination against equality columns X (nv x ne) with targets re into
 * MiX, W, a0 and id->Ge, id->Y (nonzero: Ge singular); the rows U (nr x
 * nv): id->WUt, id->H = U W U^T, and U a0 into ua (may be NULL); tau, a, w
 * from the net forces id->f; the pyramid's rows N, +-S, +-T into id->U
 * with offsets bu (returns their count) and the net forces from the
 * pyramid's variables x. */
int hes__invdyn_chol(int n, double *A);
int hes__invdyn_pinv_solve(int n, double *A, const double *rhs, double *z, double *ev,
                           double *tmp);
int hes__invdyn_eliminate(hes_invdyn *id, const double *h, int ne, const double *X,
                          const double *re, double *MiX, double *W, double *a0);
void hes__invdyn_project(hes_invdyn *id, int nr, const double *U, const double *W,
                         const double *a0, double *ua);
void hes__invdyn_finish(hes_invdyn *id, const hes_invdyn_problem *pb);
int hes__invdyn_pyramid_rows(hes_invdyn *id, const hes_invdyn_problem *pb, double *bu);
void hes__invdyn_pyramid_net(hes_invdyn *id, const double *x);

/* The formulations, each filling id->f (and res's counters): no-slip
 * (invdyn_noslip.c), Coulomb (invdyn_coulomb.c), the convex ones by their
 * KKT LCPs (invdyn_convex_lcp.c; it tries invdyn_convex.c's least squares
 * first unless o->qp_lcp), and the smallest friction of a no-slip
 * solution (invdyn_friction.c). */
hes_status hes__invdyn_no_slip(hes_invdyn *id, const hes_invdyn_problem *pb,
                               const hes_invdyn_options *o, hes_invdyn_result *res, char *msg,
                               size_t len);
hes_status hes__invdyn_coulomb(hes_invdyn *id, const hes_invdyn_problem *pb,
                               const hes_invdyn_options *o, hes_invdyn_result *res, char *msg,
                               size_t len);
hes_status hes__invdyn_convex_lcp(hes_invdyn *id, const hes_invdyn_problem *pb,
                                  const hes_invdyn_options *o, hes_invdyn_result *res,
                                  char *msg, size_t len);
hes_status hes__invdyn_min_friction(hes_invdyn *id, const hes_invdyn_problem *pb, double tol,
                                    hes_invdyn_result *res, char *msg, size_t len);

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
