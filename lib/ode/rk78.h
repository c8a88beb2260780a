/*
 * ode/rk78.h - an explicit embedded Runge-Kutta integrator for small ODEs
 * (rk78.c), with root functions like CVODES's and an optional tail of the
 * state (the variational equations) that the root functions do not see.
 * It knows nothing of models: the hybrid layer passes its callbacks in.
 */
#ifndef HES_ODE_RK78_H
#define HES_ODE_RK78_H

/* y' = f(t, y), computing the first m components of ydot only (m is the
 * integrator's `lead` or its full dimension).  0, or nonzero on failure. */
typedef int (*hes__rk_fn)(double t, const double *y, double *ydot, int m, void *data);
/* The n_roots root functions at (t, y); they read the lead part of y only.
 * 0, or nonzero on failure. */
typedef int (*hes__rk_root_fn)(double t, const double *y, double *g, void *data);

typedef struct {
    int N, lead, n_roots;  /* full dimension, the part roots depend on, roots */
    int dim;               /* dimension being integrated (lead or N) */
    int stages, order;
    double *A, *b, *e, *c; /* the tableau: A row-major stages x stages, e = b - d */
    hes__rk_fn f;
    hes__rk_root_fn g;
    void *data;
    int *dirs;             /* per root: +1 up, -1 down, 0 both */
    double *k, *y, *y1, *yt, *err;
    double *g0, *g1, *gt;  /* roots at the step's start, end, and a trial */
    double *glo, *ghi;     /* roots at the ends of the bracket being narrowed */
    int *found;            /* per root: reported at the last root return */
    double t, h, rtol, atol;
    long steps;            /* steps since the last start */
} hes__rk;

enum { HES__RK_TSTOP = 0, HES__RK_ROOT = 1, HES__RK_CHUNK = 2,
       HES__RK_EFN = -1,    /* f or g failed */
       HES__RK_ESTEP = -2,  /* the step size fell to rounding level */
       HES__RK_EMEM = -3 };

/* An integrator of an N-dimensional ODE whose first `lead` components
 * evolve on their own, with n_roots root functions crossing in dirs.  It
 * uses the Fehlberg 7(8) tableau of SUNDIALS's ARKODE.  0, or -1 (out of
 * memory); r must then still be freed. */
int hes__rk_create(hes__rk *r, int N, int lead, int n_roots, const int *dirs,
                   hes__rk_fn f, hes__rk_root_fn g, void *data);
void hes__rk_free(hes__rk *r);
/* Restarts at (t0, y0) with tolerances rtol, atol, integrating the lead part
 * (full = 0) or all N components (full = 1: y0 has N values).  0, or
 * HES__RK_EFN when the root functions fail at the start. */
int hes__rk_start(hes__rk *r, double t0, const double *y0, double rtol, double atol, int full);
/* Steps towards tstop (backwards when tstop < r->t), at most max_steps
 * steps.  Returns
 * HES__RK_TSTOP at tstop, HES__RK_ROOT at the first crossing of a root
 * function in its direction (r->found flags every root crossed at that
 * time; the state is just past the crossing, to rounding level in t),
 * HES__RK_CHUNK after max_steps steps, or a negative failure.  The current
 * time and state are r->t and r->y. */
int hes__rk_advance(hes__rk *r, double tstop, long max_steps);

#endif
