/*
 * shaping/shaping.h - the shaping layer's internals: the eigenvalue
 * perturbation gradient over a product of factors (eigsens.c), shared by
 * hybrid event shaping and collocation, and a gait's inputs (gait.c).
 */
#ifndef HES_SHAPING_H
#define HES_SHAPING_H

#include "hybrid/hybrid.h"

/* hes_colloc_guess from a simulation of one period from the section state
 * start (its free states; the others the model's guess), or the model's
 * guess with start NULL (colloc_guess.c). */
hes_status hes__colloc_guess_from(hes_colloc *c, const double *start, double *z);

/* Derivative of eigenvalue j of st, the eigenvalues of the product
 * M = G[nf-1] ... G[0] (st->n x st->n), by eigenvalue perturbation over the
 * factors (eigsens.c): init computes w^H v and the sweeps b_k, a_k into
 * storage (4 nf nm doubles, nm >= every factor's row count); term adds
 * a_k dG_k b_k (dG_k rows x cols, column-major) into (nr, ni); modulus turns
 * that sum into d|lambda| = Re(conj(lambda) (nr + i ni) / (w^H v)) / |lambda|.
 * For a real eigenvalue (real w, v) the imaginary sweeps are 0: only b_0's
 * and a_nf-1's are set (to 0), the others neither computed nor read, and
 * the derivative is the general formula's up to the sign of an exact 0. */
typedef struct {
    int nf, nm;
    int real;                /* li == 0: bi, ai are not computed (they would be 0) */
    double lr, li;           /* the eigenvalue */
    double mod;              /* |lambda| */
    double den_r, den_i;     /* w^H v */
    double *br, *bi, *ar, *ai;
} hes__eig_sens;
void hes__eig_sens_init(hes__eig_sens *s, const hes_stability *st, int j, int nf,
                        const hes_factor *G, int nm, double *storage);
void hes__eig_sens_term(const hes__eig_sens *s, int k, int rows, int cols, const double *dG,
                        double *nr, double *ni);
double hes__eig_sens_modulus(const hes__eig_sens *s, double nr, double ni);
/* weight d|lambda| as sum_j p_j^T dG_k r_j (p_j rows, r_j cols, at p + j
 * ldp and r + j ldr): returns the number of pairs, 1 (real lambda) or 2. */
int hes__eig_sens_rank1(const hes__eig_sens *s, int k, int rows, int cols, double weight,
                        double *p, int ldp, double *r, int ldr);

/* Input r of a gait's phase at time t since the phase started: linear
 * between the nodes (the last segment continued past the end) or constant
 * (gait.c; the derived model and the collocation's resampling share it). */
double hes__gait_input(const hes_gait *g, int phase, int r, double t);

/* The solver of an NLP of the collocation with this objective and nv
 * variables: the one asked for, or the default (nlp_solver.c). */
hes_nlp_solver hes__nlp_solver_for(hes_nlp_solver asked, hes_colloc_objective objective, int nv);
/* Up to this many variables dense SLSQP is cheap: the default for psi
 * objectives, and where a stalled IPOPT round hands over (colloc_solve.c). */
#define HES__DENSE_MAX_VARS 400

#endif
