/*
 * ode/cvodes.h - the CVODES glue: one integrator of an n-dimensional ODE with
 * a dense direct linear solver, optional root functions and optional forward
 * sensitivities (cvodes.c).  It knows nothing of models: the hybrid layer
 * (hybrid/integrator.c) and the ESS integrator (ess/ess_object.c) pass in
 * their field, its Jacobian and their root functions; the CVODES callbacks
 * are here, once.
 */
#ifndef HES_ODE_CVODES_H
#define HES_ODE_CVODES_H

#include <cvodes/cvodes.h>
#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunlinsol/sunlinsol_dense.h>

/* A dense ODE x' = f(t, x) as plain functions of its data: 0, or -1 after
 * the caller has recorded why (CVODES then stops). */
typedef int (*hes__ode_fn)(void *data, double t, const double *x, double *out);

typedef struct {
    int n;
    void *cvode;           /* NULL until hes__ode_create succeeds */
    N_Vector y;
    N_Vector *yS;          /* n sensitivity vectors, s_j(t0) = e_j */
    SUNMatrix J;
    SUNLinearSolver LS;
    hes__ode_fn f, f_dx, g; /* the spec's, called by the CVODES callbacks of cvodes.c */
    void *data;
    double *jac;
    /* the state jac was last evaluated at (jac_y: n values; jac_ok: whether
       jac still holds it), so the sensitivities' right-hand side, called at
       one state by every iteration of their corrector, evaluates it once */
    double jac_t, *jac_y;
    int jac_ok;
} hes__ode;

/* What an integrator is made of: the method (BDF or Adams), the field f,
 * its Jacobian f_dx (n x n, column-major, into jac: n x n scratch of the
 * caller's), n_roots root functions g with their crossing directions
 * (dirs: +1, -1 or 0 each), the data every function receives, the error
 * handler, and the number of steps CVODE takes per call (its mxstep).  The
 * CVODES callbacks are cvodes.c's, once for every integrator: the dense
 * Jacobian copied into CVODES's matrix, the sensitivities' right-hand side
 * (df/dx) s_j. */
typedef struct {
    int bdf;
    hes__ode_fn f;
    hes__ode_fn f_dx;
    double *jac;
    int n_roots;
    hes__ode_fn g;
    const int *dirs;
    void *data;
    CVErrHandlerFn err;
    void *err_data;
    long mxstep;
} hes__ode_spec;

/* Creates the integrator of an n-dimensional ODE (sensitivities set up and
 * toggled off).  0, or -1 on failure (out of memory or a CVODES error,
 * reported through spec->err); o is then partly built and must be freed. */
int hes__ode_create(hes__ode *o, SUNContext ctx, int n, const hes__ode_spec *spec);
/* Frees what hes__ode_create built; o may be partly built or empty. */
void hes__ode_free(hes__ode *o);
/* Restarts at (t0, x) with tolerances rtol, atol; with sens != 0 also the
 * sensitivities from S0 (n x n, column-major; NULL: the identity; atolS: n
 * values of scratch), else sensitivities off.  Sensitivities from the
 * identity are in the error test; from a projector S0 onto a mode's
 * consistent perturbations (hes_mode.consistent) they are not: they are
 * smooth along those, but the Jacobian that drives them is stiff there
 * and taken by differences (a slide that starts from rest), and an error
 * test on them would shrink the steps to the differences' rounding; they
 * follow the state's steps, which resolve the phase.  0, -1 when the state
 * could not be restarted, -2 when the sensitivities could not. */
int hes__ode_start(hes__ode *o, double t0, const double *x, double rtol, double atol,
                   int sens, const double *S0, double *atolS);
/* The sensitivities at the last returned time as the n x n column-major
 * matrix A = d x(t) / d x(t0).  0 or -1. */
int hes__ode_get_sens(hes__ode *o, double *A);

#endif
