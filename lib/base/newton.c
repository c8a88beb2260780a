/*
 * newton.c - the one shooting solver (base/newton.h): damped Newton's
 * method with a backtracking line search on the max norm of the residual.
 *
 * At the iterate u with residual r (max norm rn) and Jacobian J the step
 * solves J du = -r: by LU, or as the least-squares solution of minimum norm
 * (where J is singular along a family of solutions, as for a conservative
 * system's orbits, this gives the nearest member instead of failing).  The
 * step is u + lambda du with lambda = 1, 1/2, 1/4, ... for the first lambda
 * with max |r(u + lambda du)| < (1 - c lambda) rn (Armijo's condition on
 * the max norm, Dennis & Schnabel, "Numerical Methods for Unconstrained
 * Optimization and Nonlinear Equations", Sec. 6.3; c = 0 asks only for a
 * decrease).  The iteration ends when the problem's test says converged,
 * after max_iter iterations, when no step decreases the residual, or at
 * the deadline.
 */
#include <assert.h>
#include <lapacke.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "base/newton.h"

static double max_abs(const double *v, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++)
        m = fmax(m, fabs(v[i]));
    return m;
}

static hes_status fail(const hes__newton_problem *p, hes_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static hes_status fail(const hes__newton_problem *p, hes_status st, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    p->say(p->ctx, msg);
    return st;
}

static const char *detail(const hes__newton_problem *p, char *buf, size_t len)
{
    buf[0] = '\0';
    if (p->describe)
        p->describe(p->ctx, buf, len);
    return buf;
}

static hes_status out_of_time(const hes__newton_problem *p, const hes__newton_options *o,
                              const char *where, int it, double rn)
{
    char d[160];
    return fail(p, o->budget_status, "the orbit search used its budget of %g s (%s)%s after "
                "%d iterations (last residual %.3g%s)", o->budget, o->budget_name, where, it,
                rn, detail(p, d, sizeof d));
}

/* du <- the Newton step for J du = -r (J overwritten). */
static hes_status step(const hes__newton_problem *p, const hes__newton_options *o, double *J,
                       const double *r, double rn, double *du, double *sv, int *ipiv)
{
    int nu = p->nu;
    for (int i = 0; i < nu; i++)
        du[i] = -r[i];
    if (!o->least_squares) {
        if (LAPACKE_dgesv(LAPACK_COL_MAJOR, nu, 1, J, nu, ipiv, du, nu) != 0)
            return fail(p, HES_ENOORBIT, "singular shooting Jacobian (residual %.3g)", rn);
        return HES_OK;
    }
    lapack_int rank;
    if (LAPACKE_dgelsd(LAPACK_COL_MAJOR, nu, nu, 1, J, nu, du, nu, sv, 1e-12, &rank) != 0)
        return fail(p, HES_ESOLVER, "the least-squares Newton step failed (LAPACK dgelsd)");
    return HES_OK;
}

hes_status hes__newton(const hes__newton_problem *p, const hes__newton_options *o, double *u,
                       int *iters, double *rn_out)
{
    assert(p && o && u && p->nu > 0 && o->max_iter > 0);
    int nu = p->nu;
    size_t n = (size_t)nu;
    double *mem = malloc((6 * n + n * n) * sizeof *mem);
    int *ipiv = malloc(n * sizeof *ipiv);
    if (!mem || !ipiv) {
        free(mem);
        free(ipiv);
        return fail(p, HES_ENOMEM, "out of memory for Newton's method");
    }
    double *r = mem, *du = r + n, *ut = du + n, *rt = ut + n, *sv = rt + n, *J = sv + n;
    char d[160];
    hes_status st = HES_OK;
    double rn = INFINITY;
    int it, have = 0; /* have: r is the kept run's at u (an adopted trial) */
    for (it = 0;; it++) {
        if (!have && (st = p->residual(p->ctx, u, r, 1)) != HES_OK) {
            if (!(hes__monotonic_seconds() < o->deadline)) {
                st = out_of_time(p, o, "", it, rn);
                break;
            }
            char inner[512];
            snprintf(inner, sizeof inner, "%s", p->errmsg(p->ctx));
            st = fail(p, HES_ENOORBIT, "shooting from the %s failed (%s: %s)",
                      it ? "current iterate" : "initial guess", hes_strerror(st), inner);
            break;
        }
        have = 0;
        rn = max_abs(r, nu);
        int done = 0;
        if ((st = p->converged(p->ctx, it, u, r, rn, &done)) != HES_OK || done)
            break;
        if (!(hes__monotonic_seconds() < o->deadline)) {
            st = out_of_time(p, o, "", it, rn);
            break;
        }
        if (it >= o->max_iter) {
            st = fail(p, HES_ENOORBIT, "Newton did not converge in %d iterations (last "
                      "residual %.3g%s)", it, rn, detail(p, d, sizeof d));
            break;
        }
        if ((st = p->jacobian(p->ctx, u, r, J)) != HES_OK)
            break; /* the problem has said why */
        if ((st = step(p, o, J, r, rn, du, sv, ipiv)) != HES_OK)
            break;
        double lambda = 1.0;
        int accepted = 0;
        for (int h = 0; h < o->max_halvings && !accepted &&
                        hes__monotonic_seconds() < o->deadline; h++, lambda *= 0.5) {
            for (int i = 0; i < nu; i++)
                ut[i] = u[i] + lambda * du[i];
            if (p->residual(p->ctx, ut, rt, 0) == HES_OK &&
                max_abs(rt, nu) < (1.0 - o->decrease * lambda) * rn)
                accepted = 1;
        }
        if (!accepted && !(hes__monotonic_seconds() < o->deadline)) {
            st = out_of_time(p, o, " in a line search", it, rn);
            break;
        }
        if (!accepted) {
            if (p->stalled && p->stalled(p->ctx, u, rn))
                break; /* converged to the simulation's noise */
            st = fail(p, HES_ENOORBIT, "line search failed: no step along the Newton direction "
                      "decreases the residual %.3g (iteration %d%s)", rn, it + 1,
                      detail(p, d, sizeof d));
            break;
        }
        memcpy(u, ut, n * sizeof *u);
        if (p->rebase)
            p->rebase(p->ctx, u);
        if (p->adopt) {
            p->adopt(p->ctx);
            memcpy(r, rt, n * sizeof *r);
            have = 1;
        }
    }
    *iters = it;
    *rn_out = rn;
    free(mem);
    free(ipiv);
    return st;
}
