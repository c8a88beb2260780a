/*
 * model/model_internal.h - the model layer's internals: a model function bound
 * to its parameter values as a function of (t, x) (for central differences),
 * the data pointer each callback receives, the clock after an event
 * (model.c), and the coupling of two mechanical activations (mech.c).
 */
#ifndef HES_MODEL_INTERNAL_H
#define HES_MODEL_INTERNAL_H

#include <assert.h>
#include <stdlib.h>

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
    E_DIM,             /* dimensions that do not fit together (a chart's k, a lift's d) */
    E_NOTHELD,         /* the released constraint is not held in the mode */
    E_CHART,           /* a chart without its derivatives */
    E_AFTER,           /* the impact does not enforce a constraint the target mode holds */
    E_LAW,             /* the transition's own impact law failed */
    E_NOMEM,           /* a work area could not be allocated */
    E_SLIP,            /* a held contact's tangential force leaves its friction cone */
    E_PULLS,           /* a constraint the target mode holds pulls right after the event */
    E_PRESSED,         /* a constraint let go at rest would be pressed back at once */
    E_STICKS           /* a sliding contact at rest bears a force inside its cone */
};
/* E_SLIP of constraint c (the contact's normal): HES__MECH_SLIP_AT + c,
 * so that a model's describe_error can name the contact (robot_model.c);
 * hes_mech_describe_error says E_SLIP's text for all of them. */
#define HES__MECH_SLIP_AT 100000
/* E_PULLS of constraint c: HES__MECH_PULL_AT + c, and E_PULL (an
 * impulse) of c: HES__MECH_IMPULSE_AT + c, the same way. */
#define HES__MECH_PULL_AT 200000
#define HES__MECH_IMPULSE_AT 300000
/* E_PRESSED of constraint c: HES__MECH_PRESSED_AT + c; E_STICKS:
 * HES__MECH_STICKS_AT + c. */
#define HES__MECH_PRESSED_AT 400000
#define HES__MECH_STICKS_AT 500000

/* Whether the forces (or impulses) lambda[n] of the constraints idx[n],
 * held together, keep every contact among them in its friction cone
 * (hes_mech_constraint.friction_rows): 0, or HES__MECH_SLIP_AT + the
 * first slipping contact's normal (mech.c). */
int hes__mech_friction_ok(const hes_mech *m, int n, const int *idx, const double *lambda,
                          int n_skip, const int *skip);
/* A copy of a mode that checks no friction cone (each held contact's
 * counted as watched: hes_mech_mode.slip_watched): for a held mode's
 * Jacobian by differences and the guards of releases and slips.  Free
 * u->cons after use (NULL now).  0 or E_NOMEM (mech.c). */
typedef struct {
    hes_mech_constraint *cons;
    hes_mech mech;
    hes_mech_mode mode;
} hes__mech_uncone;
int hes__mech_without_cones(const hes_mech_mode *md, hes__mech_uncone *u);

/* The mechanical layer's work areas.  Its callbacks run inside the
 * integrators, millions of times, and allocate nothing for small systems:
 * each function sizes its arrays by the system's dimensions (d, k, inputs,
 * constraints held) and takes them from a buffer on its own stack, sized
 * for HES__MECH_SMALL of each; a larger system gets one heap block per
 * call instead (E_NOMEM when it cannot), freed before the call returns.
 * Nothing is kept between calls: no shared state, the same arithmetic in
 * the same order either way.
 *
 *     double small[NEED(S, S)];          S = HES__MECH_SMALL
 *     hes__mech_work w;
 *     if (hes__mech_work_open(&w, small, sizeof small / sizeof *small, NEED(d, k)))
 *         return E_NOMEM;
 *     double *a = hes__mech_work_take(&w, d), *b = hes__mech_work_take(&w, d * k);
 *     ...
 *     hes__mech_work_close(&w);                                              */
#define HES__MECH_SMALL 16
typedef struct {
    double *block, *next, *end;
    int heap;
} hes__mech_work;

static inline int hes__mech_work_open(hes__mech_work *w, double *stack, size_t n_stack, size_t n)
{
    w->heap = n > n_stack;
    w->block = w->heap ? malloc(sizeof(double) * n) : stack;
    w->next = w->block;
    w->end = w->block ? w->block + n : NULL;
    return w->block ? 0 : E_NOMEM;
}

/* The next n doubles of the area (uninitialised). */
static inline double *hes__mech_work_take(hes__mech_work *w, size_t n)
{
    double *a = w->next;
    assert(n <= (size_t)(w->end - w->next));
    w->next += n;
    return a;
}

static inline void hes__mech_work_close(hes__mech_work *w)
{
    if (w->heap)
        free(w->block);
    w->block = w->next = w->end = NULL;
    w->heap = 0;
}

/* The status of a model callback's failure that the model's
 * describe_error gave as `why`: HES_ENOMEM for the mechanical layer's
 * E_NOMEM (its description is one string, also through a model's wrapper
 * of hes_mech_describe_error), else HES_EMODEL (mech.c). */
hes_status hes__callback_status(const char *why);

/* A system without net_force has its Coriolis terms from dM/dq, d^3
 * values (hes_mech.mass_dq), at every evaluation of its field: it takes at
 * most this many coordinates (hes_model_validate); a robot gives mass_dq
 * up to this size.  Systems with net_force have no bound. */
#define HES__MECH_DM_MAX 64


/* A vector function with its context, for hes__mech_fd4. */
typedef int (*hes__mech_vec_fn)(void *ctx, const double *x, double *out);

/* Fourth-order central-difference Jacobian (n_out x n_in, column-major). */
int hes__mech_fd4(hes__mech_vec_fn fn, void *ctx, const double *x, int n_in, int n_out,
                  double *jac);

/* dM/dq at q: the k-th d x d block is dM/dq_k (analytic, or fd4 of M). */
int hes__mech_mass_derivative(const hes_mech *m, const double *q, const double *p, double *dM);

/* c(q, q') from dM/dq (the Coriolis/centrifugal term of hes.h). */
void hes__mech_coriolis_of(int d, const double *dM, const double *qd, double *c);

/* Cholesky factor (lower, in place; E_MASS if not positive definite) and
 * its solve with nrhs columns. */
int hes__mech_chol(double *A, int n);
/* The friction rows a sliding contact may have (hes_mech_mode.sliding). */
#define HES__MECH_MAX_FRICTION HES_MECH_MAX_FRICTION
/* The unit sliding directions s (HES__MECH_MAX_FRICTION per sliding
 * contact) the field of a held mode uses at x, s = w / |w| with
 * w = v_t + eps s0 (mech.c: hes__mech_blend_speed), |w| in speed (one per
 * sliding contact) and, s0 not NULL, the directions s0 from rest. */
int hes__mech_sliding_directions(const hes_mech_mode *md, double t, const double *x,
                                 const double *p, double *s, double *speed, double *s0);
/* The speed eps below which a sliding direction blends into the one from
 * rest: HES__MECH_BLEND HES_MECH_STICK_SPEED (1 + |q'|) (mech.c), so
 * d(eps)/dq' = HES__MECH_BLEND HES_MECH_STICK_SPEED q' / |q'|. */
#define HES__MECH_BLEND 0.1
double hes__mech_blend_speed(const double *qd, int d);
/* A contact's sliding rates v_t = Da_t(q) v at a chartless state x = [q,
 * v] (its friction rows) and, dvt not NULL, their derivatives along x
 * (HES__MECH_MAX_FRICTION x (nq + d), column-major; along q by central
 * differences of the rows; mech.c). */
int hes__mech_sliding_rate(const hes_mech *m, const hes_mech_constraint *c, const double *x,
                           const double *p, double *vt, double *dvt);
void hes__mech_chol_solve(const double *L, int n, double *B, int nrhs);

/* A mechanical mode's equations at its state x = [z, z'] (mech.c): the
 * configuration and velocity, Phi = Dchart (d x k), acc = D^2 chart[z',
 * z'], the inputs, M, dM/dq, the force, the Coriolis term (with the
 * system's net_force: f holds f - c, c is zero and dM is not computed:
 * NULL), the Cholesky factor L of Mz = Phi^T M Phi, z'' and q'' = Phi z''
 * + acc.  The one evaluation behind the field (hes_mech_field) and its
 * Jacobian (mech_dx.c).  Its arrays are in its own work area (small: in
 * the struct, on the caller's stack); hes__mech_eval_close frees it, also
 * after a failed hes__mech_mode_eval. */
#define HES__MECH_EVAL_NEED(d, k, nu, dm) \
    (7 * (d) + (nu) + (k) + 2 * (d) * (k) + (k) * (k) + (d) * (d) + (dm))
typedef struct {
    double *q, *qd, *Phi, *acc, *u, *M, *dM, *f, *c, *L, *zdd, *qdd;
    double *MPhi, *Ma;  /* M Phi, M acc */
    hes__mech_work w;
    double small[HES__MECH_EVAL_NEED(HES__MECH_SMALL, HES__MECH_SMALL, HES__MECH_SMALL,
                                     HES__MECH_SMALL * HES__MECH_SMALL * HES__MECH_SMALL)];
} hes__mech_eval;
int hes__mech_mode_eval(const hes_mech_mode *md, double t, const double *x, const double *p,
                        hes__mech_eval *e);
void hes__mech_eval_close(hes__mech_eval *e);

/* The number of position values of a mechanical mode's state [z, z']:
 * k with a chart, else the system's coordinates nq (d + its quaternions;
 * z' has k = d values). */
static inline int hes__mech_kq(const hes_mech_mode *md)
{
    return md->chart ? md->k : hes_mech_nq(md->mech);
}

/* Constraint c's value a(q) and row Da (d values): its own Da, or
 * fourth-order differences along velocities (hes_mech_integrate); the rows
 * of the n constraints idx into D (n x d, column-major) (mech.c). */
int hes__mech_row(const hes_mech *m, const hes_mech_constraint *c, const double *q,
                  const double *p, double *a, double *row);
int hes__mech_rows(const hes_mech *m, const double *q, const double *p, int n, const int *idx,
                   double *D);

/* A held mode's dynamics at (q, q') with M and net = f - c there: q''
 * from the constrained equations of motion (hes_mech_mode.held;
 * mech_hold.c), and the held constraints' forces into lambda (NULL: not
 * wanted). */
int hes__mech_held_dynamics(const hes_mech_mode *md, const double *p, double *q, double *qd,
                            double *M, const double *net, double *qdd, double *lambda);

/* A mechanical mode's field moves each quaternion of its state as
 *     q' = 1/2 q (x) (0, w) + k (1 - |q|^2) q,   k = HES__QUAT_PULL per second:
 * on the unit sphere the second term vanishes and the first keeps |q| = 1
 * exactly, but an integrator's errors do not; the second pulls them back
 * (|q|^2 - 1 decays as exp(-2 k t)), so the norm stays at the level of one
 * step's error instead of drifting with the number of steps.  It changes
 * nothing in tangent coordinates (its derivative there is 0).
 * hes__mech_quat_pull adds it to qd (nq values) and, when J is given, its
 * derivative in q to the nq x nq block of J at (0, 0), leading dimension
 * ld (mech_config.c). */
#define HES__QUAT_PULL 10.0
void hes__mech_quat_pull(const hes_mech *m, const double *q, double *qd, double *J, int ld);

/* A mode's chart at [z, z']: q, Phi = Dchart (optional), q' = Phi z' and
 * acc = D^2 chart[z', z'] (optional); the identity without a chart. */
int hes__mech_chart_state(const hes_mech_mode *md, const double *z, const double *zd,
                          const double *p, double *q, double *Phi, double *qd, double *acc);

#endif
