/*
 * model/model_internal.h - the model layer's internals: a model function bound
 * to its parameter values as a function of (t, x) (for central differences),
 * the data pointer each callback receives, the clock after an event
 * (model.c), and the coupling of two mechanical activations (mech.c).
 */
#ifndef HES_MODEL_INTERNAL_H
#define HES_MODEL_INTERNAL_H

#include "base/base.h"

/* A model function bound to its parameters, as a function of (t, x):
 * hes__bound_call has the hes__vec_fn signature, ctx a hes__bound_fn. */
typedef struct {
    hes_fn fn;
    const double *p;
    void *data;
    int n_out;
    int identity;          /* reset == NULL: R(t, x) = x */
} hes__bound_fn;
int hes__bound_call(void *ctx, double t, const double *x, double *out);

/* The data pointer a mode's or transition's callbacks receive: its own, or
 * else the model's. */
void *hes__mode_data(const hes_model *m, int mode);
void *hes__tr_data(const hes_model *m, int tr);

/* A mode's tangent dimension (tdim, or dim when tdim is 0) and whether it
 * has a chart (retract, local and tangent: hes_mode's tangent spaces). */
int hes__mode_tdim(const hes_model *m, int mode);
int hes__mode_has_chart(const hes_model *m, int mode);

/* Model time after an event of transition tr that happened at model time tm. */
double hes__time_after(const hes_model *m, int tr, double tm);

/* eq. 6 of the decoupled-limbs paper for two mechanical activations at state
 * x of their common source mode: the cosine of Da_a and Da_b in the M^-1
 * metric; 1 = error or not both mechanical in one system (mech.c). */
int hes__mech_coupling(const hes_transition *a, const hes_transition *b, const double *x,
                       const double *p, double *cosine);

/* A mechanical mode's motion at its state x: q, q', q'' (d each; mech.c);
 * nonzero: a mechanical-layer error code (hes_mech_describe_error). */
int hes__mech_mode_motion(const hes_mech_mode *md, double t, const double *x, const double *p,
                          double *q, double *qd, double *qdd);

/* ------------------------------------------- mechanical layer (mech.c) */
/* The mechanical layer's failure codes (hes_mech_describe_error). */
enum {
    E_CALLBACK = 901,  /* a mechanical callback failed */
    E_MASS,            /* mass matrix not positive definite */
    E_DEPENDENT,       /* constraint Jacobians dependent */
    E_IMPACT,          /* post-impact velocity violates the impact law */
    E_PULL,            /* an impulse would pull on a unilateral constraint */
    E_NOSEPARATE,      /* a trailing contact does not separate */
    E_ENERGY,          /* a plastic impact increases the kinetic energy */
    E_DIM,             /* dimension above HES_MECH_MAX */
    E_NOTHELD,         /* the released constraint is not held in the mode */
    E_CHART,           /* a chart without its derivatives */
    E_AFTER,           /* the impact does not enforce a constraint the target mode holds */
    E_LAW              /* the transition's own impact law failed */
};


/* A vector function with its context, for hes__mech_fd4. */
typedef int (*hes__mech_vec_fn)(void *ctx, const double *x, double *out);

/* Fourth-order central-difference Jacobian (n_out x n_in, column-major;
 * n_in <= 2 HES_MECH_MAX, n_out <= HES_MECH_MAX^2). */
int hes__mech_fd4(hes__mech_vec_fn fn, void *ctx, const double *x, int n_in, int n_out,
                  double *jac);

/* dM/dq at q: the k-th d x d block is dM/dq_k (analytic, or fd4 of M). */
int hes__mech_mass_derivative(const hes_mech *m, const double *q, const double *p, double *dM);

/* c(q, q') from dM/dq (the Coriolis/centrifugal term of hes.h). */
void hes__mech_coriolis_of(int d, const double *dM, const double *qd, double *c);

/* Cholesky factor (lower, in place; E_MASS if not positive definite) and
 * its solve with nrhs columns. */
int hes__mech_chol(double *A, int n);
void hes__mech_chol_solve(const double *L, int n, double *B, int nrhs);

/* A mechanical mode's equations at its state x = [z, z'] (mech.c): the
 * configuration and velocity, Phi = Dchart, acc = D^2 chart[z', z'], the
 * inputs, M, dM/dq, the force, the Coriolis term (with the system's
 * net_force: f holds f - c, c is zero and dM is not computed), the
 * Cholesky factor L
 * of Mz = Phi^T M Phi, z'' and q'' = Phi z'' + acc.  The one evaluation
 * behind the field (hes_mech_field) and its Jacobian (mech_dx.c). */
typedef struct {
    double q[HES_MECH_MAX], qd[HES_MECH_MAX], Phi[HES_MECH_MAX * HES_MECH_MAX];
    double acc[HES_MECH_MAX], u[HES_MECH_MAX], M[HES_MECH_MAX * HES_MECH_MAX];
    double dM[HES_MECH_MAX * HES_MECH_MAX * HES_MECH_MAX];
    double f[HES_MECH_MAX], c[HES_MECH_MAX], L[HES_MECH_MAX * HES_MECH_MAX];
    double zdd[HES_MECH_MAX], qdd[HES_MECH_MAX];
} hes__mech_eval;
int hes__mech_mode_eval(const hes_mech_mode *md, double t, const double *x, const double *p,
                        hes__mech_eval *e);

/* A mode's chart at [z, z']: q, Phi = Dchart (optional), q' = Phi z' and
 * acc = D^2 chart[z', z'] (optional); the identity without a chart. */
int hes__mech_chart_state(const hes_mech_mode *md, const double *z, const double *zd,
                          const double *p, double *q, double *Phi, double *qd, double *acc);

#endif
