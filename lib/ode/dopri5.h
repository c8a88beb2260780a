/*
 * ode/dopri5.h - the explicit Runge-Kutta pair of Dormand and Prince 5(4)
 * for an ODE y' = f(t, y) (dopri5.c): one step with its error estimate and
 * its continuous extension.  It knows nothing of models or events: the ESS
 * integrator (ess/ess_dopri.c) drives it with its own step-size control
 * around guards, and the DOPRI5 step type of the stepper interface
 * (step_dopri5.c) with the one root locator.
 */
#ifndef HES_ODE_DOPRI5_H
#define HES_ODE_DOPRI5_H

#include <stddef.h>

/* y' = f(t, y) into ydot: 0, or a nonzero code the step returns as it is. */
typedef int (*hes__dopri5_fn)(void *data, double t, const double *y, double *ydot);

/* A step's vectors, of n components each (the caller's storage): the
 * stages k1 .. k7, the state y at the step's start, y1 at its end, the
 * scratch yt (the error estimate after a step) and the coefficients of the
 * continuous extension rc (5 blocks of stride N >= n). */
typedef struct {
    int n;
    size_t N;
    double t;         /* the step's start */
    double rtol, atol;
    double *k1, *k2, *k3, *k4, *k5, *k6, *k7, *y, *y1, *yt, *rc;
    hes__dopri5_fn f;
    void *data;
} hes__dopri5;

/* The stages k2 .. k7 of a step of size h from (t, y) (k1 = f(t, y) given), the
 * 5th-order solution y1 (k7 = f(y1)), and in *err the weighted RMS norm
 * of its difference from the embedded 4th-order solution (weights
 * atol + rtol max(|y|, |y1|)).  0, or f's code. */
int hes__dopri5_step(hes__dopri5 *w, double h, double *err);

/* The weighted RMS norm of the n components of v, with weights
 * atol + rtol max(|y0|, |y1|) (y1 NULL: |y0| alone). */
double hes__dopri5_norm(int n, const double *v, const double *y0, const double *y1, double rtol,
                        double atol);

/* The coefficients rc of the continuous extension of the accepted step of
 * size h from y to y1. */
void hes__dopri5_extension(hes__dopri5 *w, double h);

/* The first n components of the state at the fraction theta of the step,
 * from the coefficients rc (stride N). */
void hes__dopri5_dense(int n, size_t N, const double *rc, double theta, double *x);

#endif
