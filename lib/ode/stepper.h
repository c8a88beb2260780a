/*
 * ode/stepper.h - one interface over the integrators of an ODE with root
 * functions and variational equations, chosen by a step type (as GSL's
 * gsl_odeiv2 step types): CVODES with Adams or BDF (cvodes.c), the
 * explicit Runge-Kutta 7(8) pair (rk78.c), or the Dormand-Prince 5(4)
 * pair with its continuous extension (dopri5.c, step_dopri5.c).  The hybrid layer's phases
 * (hybrid/integrator.c) integrate through it without knowing which; the
 * ESS integrator drives CVODES and the DOPRI5 pair (dopri5.c) itself,
 * because its steps end at the band of the next guard.
 *
 * A stepper integrates x' = f(t, x) from a start, stops at tstop, at the
 * first crossing of a root function in its direction, or after a chunk of
 * steps; with the sensitivities on it also gives A = d x(t) / d x(t0)
 * (CVODES's forward sensitivities, or the variational equation
 * A' = (df/dx) A integrated with x under the same error control).
 */
#ifndef HES_ODE_STEPPER_H
#define HES_ODE_STEPPER_H

#include "ode/cvodes.h"
#include "ode/dopri5.h"
#include "ode/rk78.h"

/* What a stepper is made of: its dimension n, the field f, its Jacobian
 * f_dx (n x n, column-major, into jac: n x n scratch of the caller's), the
 * n_roots root functions g with their directions (+1, -1 or 0 each), the
 * data every function receives, the CVODES context and error handler, and
 * the steps per advance (chunk). */
typedef struct {
    int n;
    hes__ode_fn f, f_dx, g;
    double *jac;
    int n_roots;
    const int *dirs;
    void *data;
    SUNContext ctx;
    CVErrHandlerFn err;
    void *err_data;
    long chunk;
} hes__stepper_spec;

typedef struct hes__stepper hes__stepper;

/* Results of hes__stepper_advance. */
enum { HES__ADV_TSTOP = 0, HES__ADV_ROOT = 1, HES__ADV_CHUNK = 2, HES__ADV_FAIL = -1 };

typedef struct {
    const char *name;       /* "CVODES (Adams)", "CVODES (BDF)", "rk8" */
    const char *stiff_hint; /* what to say when a phase takes too many steps */
    int (*create)(hes__stepper *s, const hes__stepper_spec *spec);
    void (*free)(hes__stepper *s);
    /* starts at (t0, x), with sens the sensitivities from S0 (n x n,
       column-major; NULL: the identity; ode/cvodes.h says what a given S0
       changes); 0, or nonzero: -1 the state, -2 the sensitivities could not
       start */
    int (*start)(hes__stepper *s, double t0, const double *x, double rtol, double atol,
                 int sens, const double *S0, double *scratch);
    int (*advance)(hes__stepper *s, double tstop, double *t);
    const double *(*state)(const hes__stepper *s);
    int (*sens)(hes__stepper *s, double *A);
    int (*roots)(const hes__stepper *s, int *found);
    void (*stats)(const hes__stepper *s, long *steps, double *h);
    /* Why the last advance failed, in words (CVODES's handler keeps its own
     * message: the caller adds it). */
    void (*why)(const hes__stepper *s, char *buf, size_t len);
} hes__stepper_type;

extern const hes__stepper_type hes__step_adams, hes__step_bdf, hes__step_rk78,
    hes__step_dopri5;

/* The DOPRI5 step type's state (step_dopri5.c). */
typedef struct {
    int N, dim;              /* n (n + 1) with the variational matrix; integrated */
    double *work;            /* the step's vectors (15 N) */
    hes__dopri5 s;           /* s.t, s.y: the current time and state */
    double *g0, *g1, *gt, *glo, *ghi; /* roots: start, end, trial, bracket */
    int *found, *dirs;       /* per root: crossed at the last root return; direction */
    double h;                /* the next step (0: estimate it) */
    long steps;
    int have_k1;             /* s.k1 is the field at (s.t, s.y) */
} hes__dp5;

struct hes__stepper {
    const hes__stepper_type *type;   /* NULL until created */
    hes__stepper_spec spec;
    hes__ode ode;                    /* the CVODES types */
    hes__rk rk;                      /* rk78 */
    hes__dp5 dp;                     /* dopri5 */
    int last;                        /* the last advance's code (a CVODES flag, HES__RK_*) */
};

/* What the explicit step types share: the field of spec with, when
 * with_a, the variational tail A' = (df/dx) A after x (0, or -1 when a
 * callback failed); A = S0 (n x n; NULL: the identity) after the n
 * components of x in y; why an explicit step failed (its last code,
 * HES__RK_*). */
int hes__stepper_field(const hes__stepper_spec *p, double t, const double *y, double *ydot,
                       int with_a);
void hes__stepper_seed_after(double *y, int n, const double *S0);
void hes__stepper_explicit_why(const hes__stepper *s, char *buf, size_t len);

/* The stepper of type t for spec: 0, or -1 (out of memory, or a CVODES
 * error reported through spec->err); s must then still be freed. */
int hes__stepper_create(hes__stepper *s, const hes__stepper_type *t,
                        const hes__stepper_spec *spec);
/* Frees what hes__stepper_create built; s may be partly built or empty. */
void hes__stepper_free(hes__stepper *s);

#endif
