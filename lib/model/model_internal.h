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

#endif
