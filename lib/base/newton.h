/*
 * base/newton.h - the one shooting solver: damped Newton's method on a
 * square system r(u) = 0 whose residual is a simulation (newton.c).  Every
 * periodic-orbit search of libhes (the event-driven hybrid flow's, the ESS
 * flow's) is an instance: the flow supplies the residual, its Jacobian and
 * its test of convergence; the iteration, the linear algebra, the line
 * search, the budget and the messages are here.
 */
#ifndef HES_NEWTON_H
#define HES_NEWTON_H

#include "hes/base.h"

/* A shooting problem: nu unknowns and nu equations. */
typedef struct {
    int nu;
    void *ctx;
    /* r(u) into r.  keep = 1: u is the iterate, and its run (with what the
     * Jacobian needs) is kept; keep = 0: a trial step, whose failure only
     * rejects the step. */
    hes_status (*residual)(void *ctx, const double *u, double *r, int keep);
    /* At the kept iterate (iteration iter, rn = max |r|): *done = 1 when it
     * has converged; a status other than HES_OK fails the search (the
     * problem has recorded its message). */
    hes_status (*converged)(void *ctx, int iter, const double *u, const double *r, double rn,
                            int *done);
    /* J = dr/du (nu x nu, column-major) at the kept iterate u; a failure
     * ends the search with the status and message the problem records. */
    hes_status (*jacobian)(void *ctx, const double *u, const double *r, double *J);
    /* Optional: the last accepted trial's run becomes the kept one (then
     * residual is not called again with keep = 1 at that u). */
    void (*adopt)(void *ctx);
    /* Optional: no step along the Newton direction decreases max |r| = rn;
     * nonzero accepts u as converged (its residual is at the noise of the
     * simulation). */
    int (*stalled)(void *ctx, const double *u, double rn);
    /* Appends what the messages should add about the iterate (", relative
     * 3e-4", ", T = 1.2"); may be NULL. */
    void (*describe)(void *ctx, char *buf, size_t len);
    /* The problem's last message (after a failed run or Jacobian). */
    const char *(*errmsg)(void *ctx);
    /* Records the search's failure message on the problem. */
    void (*say)(void *ctx, const char *msg);
    /* Optional: after a step is accepted, the problem may re-express the
     * iterate u in place, r(u) unchanged (unknowns that are increments in a
     * manifold's tangent space, re-based at the accepted point). */
    void (*rebase)(void *ctx, double *u);
} hes__newton_problem;

typedef struct {
    int max_iter;            /* iterations (> 0) */
    int least_squares;       /* 0: LU (dgesv); 1: least squares of minimum norm
                                (dgelsd, singular values below 1e-12 of the
                                largest dropped: a family of solutions gives the
                                nearest member) */
    double decrease;         /* a step u + lambda du is taken when
                                max |r(u + lambda du)| < (1 - decrease lambda) max |r(u)| */
    int max_halvings;        /* lambda = 1, 1/2, ... this many times */
    double deadline;         /* monotonic clock time at which the search stops */
    double budget;           /* its length in seconds, and the option's name, for */
    const char *budget_name; /* the message */
    hes_status budget_status;/* the status of a search out of time */
} hes__newton_options;

/* Solves from u (nu values, updated in place).  *iters: the iterations
 * taken; *rn: max |r| at the end.  HES_OK when converged() says so (or
 * stalled() accepts); otherwise a failure with the message given to say():
 * HES_ENOORBIT (no convergence in max_iter iterations, a singular Jacobian,
 * no decreasing step, a failed run at the iterate), budget_status (out of
 * time), or the status of converged(). */
hes_status hes__newton(const hes__newton_problem *p, const hes__newton_options *o, double *u,
                       int *iters, double *rn);

#endif /* HES_NEWTON_H */
