/*
 * colloc_reduced.c - the collocation's nonlinear program (colloc_solve.c)
 * in the space of its free variables: a generalised reduced
 * gradient method (Abadie & Carpentier 1969; Lasdon, Waren, Jain & Ratner,
 * ACM TOMS 4, 1978) whose outer steps are SLSQP's.
 *
 * The decision vector splits as z = (z_I, z_D): z_I the inputs, the
 * virtual events' offsets and the design parameters (what a gait is free to
 * choose), z_D the node states, the durations and the solved parameters,
 * which the equality constraints c(z) = 0 (defects, events, resets,
 * anchors) determine: there are as many of them as components of z_D.  For
 * given z_I, Newton's method on c(z_I, z_D) = 0, from the linear predictor
 * z_D0 + S0 (z_I - z_I0) of the last point, gives z_D(z_I), and the
 * implicit function theorem its derivative
 *
 *     S = dz_D/dz_I = -A^-1 B,   A = dc/dz_D,  B = dc/dz_I,
 *
 * so that any function h(z) of the collocation has the reduced gradient
 *
 *     dh/dz_I = h_I + S^T h_D.
 *
 * SLSQP then minimises J(z_I, z_D(z_I)) over z_I within its bounds,
 * subject to the path constraints and the finite bounds of z_D (durations,
 * the first state, solved parameters) as inequalities.  Every iterate is
 * an orbit of the collocation (to Newton's tolerance), so no round ends
 * infeasible, and SLSQP's dense steps have nI columns instead of nv.
 *
 * Why: a gait has few degrees of freedom.  The knee biped's HES gait has
 * 158 variables and 152 equalities: 6 torques are free.  SLSQP in the full
 * space spends most of its time in the Householder eliminations of its
 * least-squares step (rows: equalities, inequalities, and two per
 * variable for the bounds, O(nc nv (nc + ni + 2 nv)) per iteration) and
 * its iterates wander off the constraints along psi's kinks; here a step
 * costs one LU factorisation of A (nc x nc) per Newton iteration.  When
 * the equalities do not determine z_D (their count differs) the program
 * is refused (hes__colloc_reduced_applies says so beforehand); where A is
 * singular at the start, Newton's method fails there (HES_ENOORBIT).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>
#include <nlopt.h>

#include "base/base.h"
#include "shaping/colloc_internal.h"

/* Newton's method on c(z_I, z_D) = 0: stop when max |c| <= NEWTON_TOL, or
 * at the caller's constraint tolerance once an iteration gains less than a
 * factor 4 (rounding); give up after NEWTON_MAX iterations or when the
 * residual grows after the third. */
#define NEWTON_MAX 15
#define NEWTON_TOL 1e-12

typedef struct {
    hes_colloc *c;
    hes__colloc_cost_fn cost;
    void *cost_ctx;
    double tol;
    int nI, nD, nb;              /* free, determined, bounded determined variables */
    int *iv, *dv;                /* their indices in z */
    int *bpos;                   /* per bound: the position in dv */
    double *bval, *bsign;        /* bound b: bsign (z_D[bpos] - bval) >= 0 */
    double *z;                   /* the point of the last evaluation */
    double *xI;                  /* its z_I: the key of the cache */
    int have, ok, have_S;
    double *cv, *jac;            /* nc, nc x nv (column-major) */
    double *A, *S, *rhs;         /* LU of A (nD x nD), S (nD x nI), nD */
    int *ipiv;
    double *pv, *pjac;           /* path constraints: ni, ni x nv */
    double *gfull;               /* nv */
    double residual;             /* max |c| at the point */
    int lu_valid;                /* A holds an LU factorisation */
    /* The orbits found lately, each z_I, z and (has_S) S.  Newton starts
     * from the nearest one, by its linear predictor when it has S: the
     * equalities can have other solutions for the same z_I (another gait),
     * and the nearest orbit keeps to the branch SLSQP is on.  Where NLopt's
     * answer is one of them, Newton need not find it again. */
    double *ring;                /* RING x (nI + nv + nD nI) */
    int *has_S, ring_next, ring_len, cur;   /* cur: the entry of the point, or -1 */
} red_ctx;
#define RING 8

int hes__colloc_mark_free(const hes_colloc *c, char *free_var)
{
    int n = 0;
    for (int i = 0; i < c->n_phases; i++) {
        for (int k = 0; k < c->urows[i] * c->n_in; k++, n++)
            free_var[c->uoff[i] + k] = 1;
        if (c->virt[i])
            free_var[c->voff[i]] = 1, n++;
    }
    for (int j = c->n_solved; j < c->n_fp; j++, n++) /* design parameters */
        free_var[c->poff + j] = 1;
    return n;
}

int hes__colloc_reduced_applies(const hes_colloc *c)
{
    char *free_var = calloc((size_t)c->nv, 1);
    int n = free_var ? hes__colloc_mark_free(c, free_var) : 0;
    free(free_var);
    return n > 0 && c->nv - n == c->nc;
}

/* The partition of z, with the finite bounds of z_D (lo, hi; NULL: none,
 * for Newton's method alone) as the inequalities' lists: returns 0 when
 * the equalities are not as many as the determined variables. */
static int partition(red_ctx *r, const double *lo, const double *hi)
{
    hes_colloc *c = r->c;
    int nv = c->nv;
    char *free_var = calloc((size_t)nv, 1);
    if (!free_var)
        return -1;
    hes__colloc_mark_free(c, free_var);
    r->nI = r->nD = r->nb = 0;
    for (int j = 0; j < nv; j++) {
        if (free_var[j]) {
            r->iv[r->nI++] = j;
            continue;
        }
        for (int side = 0; lo && side < 2; side++) {
            double b = side ? hi[j] : lo[j];
            if (isinf(b))
                continue;
            r->bpos[r->nb] = r->nD;
            r->bval[r->nb] = b;
            r->bsign[r->nb++] = side ? -1.0 : 1.0;
        }
        r->dv[r->nD++] = j;
    }
    free(free_var);
    return r->nD == c->nc;
}

/* A = dc/dz_D from the Jacobian, factorised; 0 when singular. */
static int factor(red_ctx *r)
{
    int nc = r->c->nc, nD = r->nD;
    for (int d = 0; d < nD; d++)
        memcpy(r->A + (size_t)d * nD, r->jac + (size_t)r->dv[d] * nc, sizeof(double) * nc);
    return LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, nD, nD, r->A, nD, r->ipiv) == 0;
}

/* The exact Jacobian at r->z, and A factorised there (the chord's
 * matrix from now on); 0 when the model refuses z or A is singular. */
static int refresh(red_ctx *r)
{
    if (hes__colloc_constraints(r->c, r->z, r->cv, r->jac) != HES_OK || !factor(r))
        return r->lu_valid = 0;
    return r->lu_valid = 1;
}

/* Newton's method for z_D at the current z_I (in r->z, z_D its start), as
 * a chord method: the steps solve with the last factorised A (another
 * point's, usually the last iterate's whose gradient SLSQP took), which
 * is refreshed at the current point when there is none or when an
 * iteration gains less than a factor 4; the solution is exact to the
 * tolerance whatever the matrix. */
static int newton(red_ctx *r)
{
    hes_colloc *c = r->c;
    int nc = c->nc;
    double prev = HUGE_VAL;
    for (int it = 0;; it++) {
        if (hes__colloc_constraints(c, r->z, r->cv, NULL) != HES_OK)
            return 0;
        double res = 0;
        for (int i = 0; i < nc; i++)
            res = fmax(res, fabs(r->cv[i]));
        r->residual = res;
        if (!(res < HUGE_VAL))
            return 0;
        if (res <= NEWTON_TOL || (res <= r->tol && res > 0.25 * prev))
            return 1;
        if (it == NEWTON_MAX || (it >= 3 && res > prev))
            return 0;
        if (!r->lu_valid || res > 0.25 * prev) {
            if (!refresh(r))
                return 0;
        }
        memcpy(r->rhs, r->cv, sizeof(double) * nc);
        LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', r->nD, 1, r->A, r->nD, r->ipiv, r->rhs, r->nD);
        for (int d = 0; d < r->nD; d++)
            r->z[r->dv[d]] -= r->rhs[d];
        prev = res;
    }
}

static double *entry(const red_ctx *r, int e)
{
    return r->ring + (size_t)e * (r->nI + r->c->nv + (size_t)r->nD * r->nI);
}

/* The orbit of the ring nearest to z_I = x (scaled by max(1, |x_i|)). */
static int nearest(const red_ctx *r, const double *x)
{
    int best = -1;
    double dbest = HUGE_VAL;
    for (int e = 0; e < r->ring_len; e++) {
        const double *re = entry(r, e);
        double d = 0;
        for (int i = 0; i < r->nI; i++) {
            double t = (x[i] - re[i]) / fmax(1.0, fabs(re[i]));
            d += t * t;
        }
        if (d < dbest || (d == dbest && r->has_S[e] && !r->has_S[best])) {
            dbest = d;
            best = e;
        }
    }
    return best;
}

/* S = -A^-1 B at the point (A factorised by newton). */
static int sensitivity(red_ctx *r)
{
    int nc = r->c->nc, nD = r->nD;
    if (!refresh(r))
        return 0;
    for (int i = 0; i < r->nI; i++)
        for (int d = 0; d < nD; d++)
            r->S[d + (size_t)i * nD] = -r->jac[d + (size_t)r->iv[i] * nc];
    LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', nD, r->nI, r->A, nD, r->ipiv, r->S, nD);
    r->have_S = 1;
    if (r->cur >= 0) {
        memcpy(entry(r, r->cur) + r->nI + r->c->nv, r->S, sizeof(double) * (size_t)nD * r->nI);
        r->has_S[r->cur] = 1;
    }
    return 1;
}

/* The orbit of the collocation at z_I = x (cached: SLSQP asks for the cost
 * and then the constraints at the same point), with S when need_S. */
static int point(red_ctx *r, const double *x, int need_S)
{
    int nI = r->nI, nD = r->nD;
    size_t nv = (size_t)r->c->nv;
    if (r->have && memcmp(x, r->xI, sizeof(double) * nI) == 0) {
        if (r->ok && need_S && !r->have_S)
            r->ok = sensitivity(r);
        return r->ok;
    }
    r->have = 1;
    r->have_S = 0;
    r->cur = -1;
    memcpy(r->xI, x, sizeof(double) * nI);
    int near = nearest(r, x);
    for (int attempt = 0; attempt < 2; attempt++) {
        /* from the nearest orbit by its predictor, then without it */
        if (near < 0) {
            for (int i = 0; i < nI; i++)
                r->z[r->iv[i]] = x[i];
            r->ok = newton(r);
            break;
        }
        const double *re = entry(r, near);
        memcpy(r->z, re + nI, sizeof(double) * nv);
        for (int i = 0; i < nI; i++)
            r->z[r->iv[i]] = x[i];
        const double *S = re + nI + nv;
        for (int d = 0; attempt == 0 && r->has_S[near] && d < nD; d++) {
            double s = 0;
            for (int i = 0; i < nI; i++)
                s += S[d + (size_t)i * nD] * (x[i] - re[i]);
            r->z[r->dv[d]] += s;
        }
        if ((r->ok = newton(r)) || !r->has_S[near])
            break;
    }
    r->c->last_violation = r->ok ? r->residual : NAN;
    if (r->ok) {
        r->cur = r->ring_next;
        double *e = entry(r, r->cur);
        memcpy(e, x, sizeof(double) * nI);
        memcpy(e + nI, r->z, sizeof(double) * nv);
        r->has_S[r->cur] = 0;
        r->ring_next = (r->ring_next + 1) % RING;
        r->ring_len += r->ring_len < RING;
    }
    if (r->ok && need_S)
        r->ok = sensitivity(r);
    return r->ok;
}

/* dh/dz_I = h_I + S^T h_D of a gradient g (nv) into out (nI, stride os). */
static void reduce(const red_ctx *r, const double *g, size_t gs, double *out, size_t os)
{
    for (int i = 0; i < r->nI; i++) {
        double s = g[(size_t)r->iv[i] * gs];
        const double *Si = r->S + (size_t)i * r->nD;
        for (int d = 0; d < r->nD; d++)
            s += Si[d] * g[(size_t)r->dv[d] * gs];
        out[(size_t)i * os] = s;
    }
}

static double red_cost(unsigned n, const double *x, double *grad, void *data)
{
    red_ctx *r = data;
    if (!point(r, x, grad != NULL)) {
        if (grad)
            memset(grad, 0, sizeof(double) * n);
        return HES__COLLOC_FAILED_POINT;
    }
    double f = r->cost((unsigned)r->c->nv, r->z, grad ? r->gfull : NULL, r->cost_ctx);
    if (grad)
        reduce(r, r->gfull, 1, grad, 1);
    return f;
}

/* path(z) >= 0 and the bounds of z_D, as NLopt's result <= 0 (row-major
 * gradient, m x n) */
static void red_ineq(unsigned m, double *result, unsigned n, const double *x, double *grad,
                     void *data)
{
    red_ctx *r = data;
    hes_colloc *c = r->c;
    int ni = c->ni;
    if (!point(r, x, grad != NULL) ||
        (ni > 0 && hes__colloc_path(c, r->z, r->pv, grad ? r->pjac : NULL) != HES_OK)) {
        for (unsigned i = 0; i < m; i++)
            result[i] = HES__COLLOC_FAILED_POINT;
        if (grad)
            memset(grad, 0, sizeof(double) * (size_t)m * n);
        return;
    }
    for (int i = 0; i < ni; i++) {
        result[i] = -r->pv[i];
        if (grad) {
            reduce(r, r->pjac + i, (size_t)ni, grad + (size_t)i * n, 1);
            for (unsigned j = 0; j < n; j++)
                grad[(size_t)i * n + j] = -grad[(size_t)i * n + j];
        }
    }
    for (int b = 0; b < r->nb; b++) {
        int d = r->bpos[b];
        result[ni + b] = -r->bsign[b] * (r->z[r->dv[d]] - r->bval[b]);
        for (int i = 0; grad && i < r->nI; i++)
            grad[(size_t)(ni + b) * n + i] = -r->bsign[b] * r->S[d + (size_t)i * r->nD];
    }
    /* an iterate (SLSQP asks for gradients there) whose inequalities are
       nearly met: the cheapest is the round's candidate, made feasible
       after it (the cost was evaluated just before, at this point) */
    double v = 0;
    for (unsigned i = 0; i < m; i++)
        v = fmax(v, result[i]);
    if (grad)
        hes__colloc_offer(c, r->z, v);
}

static void red_free(red_ctx *r)
{
    free(r->iv);
    free(r->bval);
    free(r->z);
    free(r->ipiv);
}

/* The context of c's program with bounds lo, hi (allocated here; HES_EINVAL
 * when the equalities do not determine z_D), Newton's start z. */
static hes_status red_init(red_ctx *r, hes_colloc *c, const double *z, const double *lo,
                           const double *hi, double tol, char *why, size_t len)
{
    size_t nv = (size_t)c->nv, nc = (size_t)c->nc, ni = (size_t)c->ni;
    memset(r, 0, sizeof *r);
    r->c = c;
    r->tol = tol;
    /* integers: iv, dv, bpos (2 nv), ipiv, has_S; doubles: bval, bsign
       (2 nv each); the partition; then the arrays of the point and the
       ring, S sized by the free variables (nD = nc of them: a few) */
    r->iv = malloc(sizeof(int) * 4 * nv);
    r->bval = malloc(sizeof(double) * 4 * nv);
    r->ipiv = malloc(sizeof(int) * (nc + 1 + RING));
    int part = r->iv && r->bval && r->ipiv ? 1 : -1;
    if (part > 0) {
        r->dv = r->iv + nv;
        r->bpos = r->dv + nv;
        r->has_S = r->ipiv + nc + 1;
        r->bsign = r->bval + 2 * nv;
        part = partition(r, lo, hi);
    }
    if (part < 0) {
        snprintf(why, len, "out of memory");
        return HES_ENOMEM;
    }
    if (part == 0) {
        snprintf(why, len, "the reduced space needs the %d equality constraints to determine "
                 "the %d node states, durations and solved parameters", c->nc, c->nv - r->nI);
        return HES_EINVAL;
    }
    size_t nI = (size_t)r->nI, nd = 3 * nv + nc * nv + nc * nI + nc * nc + 2 * nc + ni +
                                    ni * nv + RING * (nI + nv + nc * nI);
    if (!(r->z = malloc(sizeof(double) * nd))) {
        snprintf(why, len, "out of memory");
        return HES_ENOMEM;
    }
    r->xI = r->z + nv;
    r->cv = r->xI + nv;
    r->jac = r->cv + nc;
    r->A = r->jac + nc * nv;
    r->S = r->A + nc * nc;
    r->rhs = r->S + nc * nI;
    r->pv = r->rhs + nc;
    r->pjac = r->pv + ni;
    r->gfull = r->pjac + ni * nv;
    r->ring = r->gfull + nv;
    memcpy(r->z, z, sizeof(double) * nv); /* Newton's start while the ring is empty */
    return HES_OK;
}

hes_status hes__colloc_newton(hes_colloc *c, double *z, double tol, char *why, size_t len)
{
    size_t nv = (size_t)c->nv;
    red_ctx r = { .c = c };
    why[0] = 0;
    hes_status st = red_init(&r, c, z, NULL, NULL, tol, why, len); /* no bounds: no SLSQP */
    double *x = st == HES_OK ? malloc(sizeof(double) * (size_t)(r.nI + 1)) : NULL;
    if (st == HES_OK && !x)
        st = HES_ENOMEM;
    if (st == HES_OK) {
        for (int i = 0; i < r.nI; i++)
            x[i] = z[r.iv[i]];
        if (point(&r, x, 0))
            memcpy(z, r.z, sizeof(double) * nv);
        else
            st = hes__say(why, len, HES_ENOORBIT, "Newton's method found no orbit of the "
                          "collocation (residual %.3g)", r.residual);
    }
    if (st == HES_ENOMEM)
        snprintf(why, len, "out of memory");
    free(x);
    red_free(&r);
    return st;
}

hes_status hes__colloc_reduced(hes_colloc *c, double *z, const double *lo, const double *hi,
                               double tol, double ftol, int maxeval, hes__colloc_cost_fn cost,
                               void *cost_ctx, char *why, size_t len)
{
    size_t nv = (size_t)c->nv;
    red_ctx r = { .c = c };
    nlopt_opt opt = NULL;
    why[0] = 0;
    hes_status st = red_init(&r, c, z, lo, hi, tol, why, len);
    r.cost = cost;
    r.cost_ctx = cost_ctx;
    if (st == HES_OK && r.nI == 0) {
        snprintf(why, len, "the reduced space has no free variables (inputs, virtual events "
                 "or design parameters) to optimise");
        st = HES_EINVAL;
    }
    if (st != HES_OK)
        goto out;
    double *x = malloc(sizeof(double) * 3 * (size_t)r.nI);
    if (!x) {
        st = HES_ENOMEM;
        goto out;
    }
    double *xl = x + r.nI, *xu = xl + r.nI;
    for (int i = 0; i < r.nI; i++) {
        x[i] = z[r.iv[i]];
        xl[i] = lo[r.iv[i]];
        xu[i] = hi[r.iv[i]];
    }
    if (!point(&r, x, 1)) {
        snprintf(why, len, "Newton's method found no orbit of the collocation at the start "
                 "(residual %.3g)", r.residual);
        st = HES_ENOORBIT;
        free(x);
        goto out;
    }
    int m = c->ni + r.nb;
    opt = nlopt_create(NLOPT_LD_SLSQP, (unsigned)r.nI);
    double *ctol = malloc(sizeof(double) * (size_t)(m + 1));
    if (!opt || !ctol) {
        st = HES_ENOMEM;
        free(x);
        free(ctol);
        goto out;
    }
    for (int i = 0; i < m; i++)
        ctol[i] = tol;
    nlopt_set_lower_bounds(opt, xl);
    nlopt_set_upper_bounds(opt, xu);
    nlopt_set_min_objective(opt, red_cost, &r);
    if (m > 0)
        nlopt_add_inequality_mconstraint(opt, (unsigned)m, red_ineq, &r, ctol);
    hes__colloc_slsqp_stops(opt, ftol, maxeval);
    double f;
    nlopt_result res = nlopt_optimize(opt, x, &f);
    int found = 0;
    for (int e = 0; e < r.ring_len && !found; e++) {
        const double *re = entry(&r, e);
        if ((found = memcmp(re, x, sizeof(double) * r.nI) == 0))
            memcpy(z, re + r.nI, sizeof(double) * nv);
    }
    if (found || point(&r, x, 0)) {
        if (!found)
            memcpy(z, r.z, sizeof(double) * nv);
    } else {
        snprintf(why, len, "NLopt: %s, at a point without an orbit", nlopt_result_to_string(res));
        st = HES_ENOORBIT;
    }
    free(x);
    free(ctol);
out:
    if (st == HES_ENOMEM)
        snprintf(why, len, "out of memory");
    if (opt)
        nlopt_destroy(opt);
    red_free(&r);
    return st;
}
