/*
 * contact/contact.h - the contact layer's internals: the Anitescu-Potra
 * LCP's builder, the impact laws' shared checks, the LCP residual and
 * convex QPs as LCPs.  Includes the base layer's header; nothing here
 * knows hybrid systems.
 */
#ifndef HES_CONTACT_H
#define HES_CONTACT_H

#include "base/base.h"

/* The LCP of Anitescu and Potra for k contacts with t = 1 or 2 tangents
 * (ap_lcp.c): the matrix into A (leading dimension lda; (2 + 2t) k rows and
 * columns: c, the 2t edges' beta, lambda), WG = M^-1 [J_n; J_t]^T (n x
 * (1 + t) k) and L (n x n: M's Cholesky factor; HES_EINVAL if M is not
 * positive definite); the constant q at velocity v; the velocity change
 * dv of a solution z.  Jt is t k x n, row d k + i. */
hes_status hes__ap_matrix(int n, int k, int t, const double *M, const double *Jn,
                          const double *Jt, const double *mu, double *A, int lda, double *WG,
                          double *L);
void hes__ap_q(int n, int k, int t, const double *Jn, const double *Jt, const double *v,
               double *q);
void hes__ap_dv(int n, int k, int t, const double *WG, const double *z, double *dv);

/* Impact laws (impact.c), shared by impact_routh.c and impact_set.c:
 * argument checks (HES_EINVAL with the reason), v^T M v / 2, the matrix
 * and constant of Anitescu and Potra's LCP (eq. 31) and the velocity
 * change of its solution z. */
hes_status hes__impact_check(const hes_contact_set *c, const double *v, char *msg, size_t len);
double hes__impact_kinetic(int n, const double *M, const double *v);
hes_status hes__impact_ap_matrix(const hes_contact_set *c, double *A, int lda, double *WG,
                                 double *L);
void hes__impact_ap_q(const hes_contact_set *c, const double *v, double *q);
void hes__impact_dv(int n, int k, const double *WG, const double *z, double *dv);
/* Whether the friction cone of c is pointed to within double precision
 * (the paper's Assumption 2), WG = M^-1 [J_n; J_t]^T as
 * hes__impact_ap_matrix writes it: HES_EINVAL with the reason if not. */
hes_status hes__impact_pointed(const hes_contact_set *c, const double *WG, char *msg, size_t len);
/* An outcome checked physically: with normals, no contact approaching
 * (J_n v+ >= -tol); no kinetic energy gained beyond 1e-8 relative.
 * HES_ESOLVER with the reason otherwise. */
hes_status hes__impact_verify(const hes_contact_set *c, const double *v_minus,
                              const double *v_plus, int normals, char *msg, size_t len);
/* The termination tolerance of the impact laws: a contact approaches while
 * J_n v < -tol max(1, |J_n v-|, |J_t v-|) (tol 0: 1e-8, the paper's code) */
double hes__impact_tolerance(const hes_contact_set *c, const double *v_minus, double tol);
/* *info = *total with the kinetic energies before and after (info may be
 * NULL) */
void hes__impact_finish(const hes_contact_set *c, const double *v_minus, const double *v_plus,
                        const hes_impact_info *total, hes_impact_info *info);

/* A convex QP (H PSD): minimise 1/2 x^T H x + c^T x subject to x_i >= 0
 * where nonneg[i] and G x + g >= 0 (G m x n, column-major), as the LCP of
 * its KKT conditions by hes_lcp_solve (qp_lcp.c), reg added to the
 * Hessian's diagonal (0: none; see qp_lcp.c), then refine proximal-point
 * steps that remove its bias (0: none).  Adds the pivots to
 * *pivots (may be NULL).  Statuses as hes_lcp_solve's. */
/* The complementarity residual of hes_lcp_solve's check, relative to the
 * data and the solution (zs = |z|_inf, S = |q|_inf, s_i = sum_k |M_ik z_k|
 * + |q_i|): max_i max(-z_i / zs, -w_i / S, min(z_i / zs, w_i / S)) +
 * eps max_i s_i / S, with w = M z + q written (lcp.c). */
double hes__lcp_residual(int n, const double *M, const double *q, const double *z, double *w);

#define HES__QP_REG 1e-8     /* the regularisation relative to the Hessian's scale */
hes_status hes__qp_lcp(int n, const double *H, const double *c, const int *nonneg, int m,
                       const double *G, const double *g, double reg, double tol, int refine,
                       double *x, int *pivots, char *msg, size_t len);

#endif
