/*
 * colloc_ipopt.c - the collocation's nonlinear program (colloc_solve.c)
 * solved by IPOPT (Waechter & Biegler, Math. Program. 106, 2006; Debian
 * coinor-libipopt-dev, its C interface IpStdCInterface.h) instead of
 * SLSQP: an interior-point method whose linear algebra is
 * sparse (MUMPS), so that its cost grows with the nonzeros of the
 * constraint Jacobian, not with the cube of the number of variables.
 *
 *   minimise   J(z)   subject to   c_eq(z) = 0,  c_path(z) >= 0,  lo <= z <= hi
 *
 * The constraint Jacobian is the collocation's exact one
 * (hes__colloc_constraints, hes__colloc_path), whose block structure (a
 * defect involves its two nodes, its phase's duration, inputs and
 * parameters; an event its phase's last node and the next phase's first)
 * is read once as the union of the nonzeros at the start and at three
 * points perturbed around it (relative 1e-3): a structural nonzero that
 * vanishes at all four is not credible.  The objective's gradient is
 * dense (psi depends on every node).  The Hessian is IPOPT's
 * limited-memory quasi-Newton approximation: psi, a spectral radius, has
 * no second derivatives worth computing (it is not even smooth where
 * multipliers cross), and the constraints' second derivatives would need
 * those of the model's vector fields, which models do not supply.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaping/colloc_internal.h"

/* (used by the solvers' constraint callbacks) */
void hes__colloc_offer(hes_colloc *c, const double *x, double v)
{
    if (c->track && v < 1e-2 && c->last_cost < c->cand_cost) {
        memcpy(c->cand, x, sizeof(double) * (size_t)c->nv);
        c->cand_cost = c->last_cost;
        c->cand_valid = 1;
    }
}

void hes__colloc_track(hes_colloc *c, const double *x, const double *ceq, int with_jacobian)
{
    double v = 0;
    for (int i = 0; i < c->nc; i++)
        v = fmax(v, fabs(ceq[i]));
    c->last_violation = v;
    if (with_jacobian)
        hes__colloc_offer(c, x, v);
}

#ifdef HAVE_IPOPT
#include <pthread.h>
#include <IpStdCInterface.h>

/* The library's one global: IPOPT's linear solver in Debian, sequential
 * MUMPS, keeps its state in Fortran module variables and a serial MPI, so
 * two IPOPT runs at once in one process crash in it (hes trajopt --starts
 * 3 --jobs 2, 1 run in 6).  Every IPOPT run holds this lock; the
 * collocation's own state stays in its objects. */
static pthread_mutex_t ipopt_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct {
    hes_colloc *c;
    hes__colloc_cost_fn cost;
    void *cost_ctx;
    int nnz, *row, *col;         /* the Jacobian's structure, (row, col) */
    double *cv, *jac, *jp;       /* constraint values, dense Jacobians (equalities, path) */
    int evaluations;             /* of the cost, with or without its gradient */
    int budget;                  /* stop after this many */
    double tol;                  /* the constraint tolerance */
    double ref_obj;              /* the best feasible objective so far */
    int ref_eval, stalled;       /* the evaluation count when it last fell */
} ipopt_ctx;

/* IPOPT crawls along psi's kinks (two multipliers of equal modulus), with
 * up to 30 line-search trials per iteration: a run whose best feasible
 * objective has not fallen by STALL_DECREASE (relative) for
 * STALL_EVALUATIONS evaluations of the cost is stopped as stalled, and the
 * caller goes on from its best point (SLSQP's rounds, or IPOPT afresh).  On
 * the SLIP from K = 0.05, thetadot = -0.3 at 21 nodes IPOPT otherwise spent
 * 450 of its 1000 evaluations at psi 0.676423 (the optimum is 0.662362); a
 * window of 100 evaluations stopped it at 0.883135, 17 evaluations before
 * it would have found its way out; 250 lets every SLIP run of
 * bench_trajopt reach the optimum to 2e-6. */
#define STALL_EVALUATIONS 250
#define STALL_DECREASE 1e-6

/* Both constraint blocks at x, with their dense Jacobians when asked. */
static int constraints(ipopt_ctx *s, const double *x, double *g, int with_jac)
{
    hes_colloc *c = s->c;
    if (hes__colloc_constraints(c, x, g, with_jac ? s->jac : NULL) != HES_OK)
        return 0;
    hes__colloc_track(c, x, g, with_jac);
    if (c->ni > 0 && hes__colloc_path(c, x, g + c->nc, with_jac ? s->jp : NULL) != HES_OK)
        return 0;
    return 1;
}

static double jac_entry(const ipopt_ctx *s, int r, int j)
{
    const hes_colloc *c = s->c;
    return r < c->nc ? s->jac[r + (size_t)j * c->nc] : s->jp[r - c->nc + (size_t)j * c->ni];
}

static Bool eval_f(Index n, Number *x, Bool new_x, Number *f, UserDataPtr data)
{
    (void)new_x;
    ipopt_ctx *s = data;
    s->evaluations++;
    *f = s->cost((unsigned)n, x, NULL, s->cost_ctx);
    return *f < HES__COLLOC_FAILED_POINT;
}

static Bool eval_grad_f(Index n, Number *x, Bool new_x, Number *grad, UserDataPtr data)
{
    (void)new_x;
    ipopt_ctx *s = data;
    s->evaluations++;
    return s->cost((unsigned)n, x, grad, s->cost_ctx) < HES__COLLOC_FAILED_POINT;
}

/* The budget of cost evaluations is the caller's (maxeval), not
 * IPOPT's iterations: a line search or the restoration phase evaluates
 * the cost several times per iteration. */
static Bool intermediate(Index alg_mod, Index iter_count, Number obj_value, Number inf_pr,
                         Number inf_du, Number mu, Number d_norm, Number regularization_size,
                         Number alpha_du, Number alpha_pr, Index ls_trials, UserDataPtr data)
{
    (void)alg_mod, (void)inf_du, (void)mu;
    (void)d_norm, (void)regularization_size, (void)alpha_du, (void)alpha_pr, (void)ls_trials;
    ipopt_ctx *s = data;
    (void)iter_count;
    if (inf_pr <= s->tol && obj_value < s->ref_obj - STALL_DECREASE * fabs(s->ref_obj)) {
        s->ref_obj = obj_value;
        s->ref_eval = s->evaluations;
    } else if (s->evaluations - s->ref_eval >= STALL_EVALUATIONS) {
        s->stalled = 1;
        return FALSE;
    }
    return s->evaluations < s->budget;
}

static Bool eval_g(Index n, Number *x, Bool new_x, Index m, Number *g, UserDataPtr data)
{
    (void)n, (void)new_x, (void)m;
    return constraints(data, x, g, 0);
}

static Bool eval_jac_g(Index n, Number *x, Bool new_x, Index m, Index nele, Index *irow,
                       Index *jcol, Number *values, UserDataPtr data)
{
    (void)n, (void)new_x, (void)m, (void)nele;
    ipopt_ctx *s = data;
    if (!values) {
        for (int k = 0; k < s->nnz; k++)
            irow[k] = s->row[k], jcol[k] = s->col[k];
        return TRUE;
    }
    if (!constraints(s, x, s->cv, 1))
        return FALSE;
    for (int k = 0; k < s->nnz; k++)
        values[k] = jac_entry(s, s->row[k], s->col[k]);
    return TRUE;
}

static Bool eval_h(Index n, Number *x, Bool new_x, Number obj_factor, Index m, Number *lambda,
                   Bool new_lambda, Index nele, Index *irow, Index *jcol, Number *values,
                   UserDataPtr data)
{
    (void)n, (void)x, (void)new_x, (void)obj_factor, (void)m, (void)lambda, (void)new_lambda;
    (void)nele, (void)irow, (void)jcol, (void)values, (void)data;
    return FALSE;                /* limited-memory: never called */
}

/* The structure: nonzeros at z and at three perturbations of it. */
static hes_status structure(ipopt_ctx *s, const double *z, const double *lo, const double *hi)
{
    hes_colloc *c = s->c;
    int nv = c->nv, m = c->nc + c->ni;
    unsigned char *nz = calloc((size_t)m * (size_t)nv, 1);
    double *zp = malloc(sizeof(double) * (size_t)nv);
    hes_status st = HES_OK;
    if (!nz || !zp) {
        free(nz), free(zp);
        return HES_ENOMEM;
    }
    unsigned long long r = 88172645463325252ULL;
    int ok = 0;
    for (int trial = 0; trial < 4; trial++) {
        for (int j = 0; j < nv; j++) {
            double u = 0;
            if (trial > 0) {
                r ^= r << 13, r ^= r >> 7, r ^= r << 17;
                u = ((double)(r >> 11) / 9007199254740992.0 - 0.5) * 2e-3;
            }
            zp[j] = z[j] + u * fmax(1.0, fabs(z[j]));
            zp[j] = fmin(fmax(zp[j], lo[j]), hi[j]);
        }
        if (!constraints(s, zp, s->cv, 1))
            continue;                /* the model refuses this one */
        ok++;
        for (int j = 0; j < nv; j++)
            for (int i = 0; i < m; i++)
                nz[i + (size_t)j * m] |= jac_entry(s, i, j) != 0;
    }
    if (!ok) {
        st = HES_EMODEL;
        goto out;
    }
    s->nnz = 0;
    for (size_t k = 0; k < (size_t)m * (size_t)nv; k++)
        s->nnz += nz[k];
    s->row = malloc(sizeof(int) * (size_t)(s->nnz > 0 ? s->nnz : 1));
    s->col = malloc(sizeof(int) * (size_t)(s->nnz > 0 ? s->nnz : 1));
    if (!s->row || !s->col) {
        st = HES_ENOMEM;
        goto out;
    }
    for (int j = 0, k = 0; j < nv; j++)
        for (int i = 0; i < m; i++)
            if (nz[i + (size_t)j * m])
                s->row[k] = i, s->col[k] = j, k++;
out:
    free(nz), free(zp);
    return st;
}

hes_status hes__colloc_ipopt(hes_colloc *c, double *z, const double *lo, const double *hi,
                             double tol, double ftol, int maxeval, hes__colloc_cost_fn cost,
                             void *cost_ctx, char *why, size_t len)
{
    int nv = c->nv, nc = c->nc, ni = c->ni, m = nc + ni;
    ipopt_ctx s = { c, cost, cost_ctx, 0, NULL, NULL, NULL, NULL, NULL, 0, maxeval, tol,
                    HUGE_VAL, 0, 0 };
    s.cv = malloc(sizeof(double) * (size_t)(m > 0 ? m : 1));
    s.jac = malloc(sizeof(double) * (size_t)(nc > 0 ? nc : 1) * (size_t)nv);
    s.jp = malloc(sizeof(double) * (size_t)(ni > 0 ? ni : 1) * (size_t)nv);
    double *gl = malloc(sizeof(double) * (size_t)(m > 0 ? m : 1));
    double *gu = malloc(sizeof(double) * (size_t)(m > 0 ? m : 1));
    double *xl = malloc(sizeof(double) * (size_t)nv), *xu = malloc(sizeof(double) * (size_t)nv);
    IpoptProblem nlp = NULL;
    hes_status st = HES_OK;
    int locked = 0;
    snprintf(why, len, "%s", "");
    if (!s.cv || !s.jac || !s.jp || !gl || !gu || !xl || !xu) {
        st = HES_ENOMEM;
        goto out;
    }
    if ((st = structure(&s, z, lo, hi)) != HES_OK) {
        snprintf(why, len, "%s", st == HES_EMODEL ? "the model refuses the start and points "
                 "near it" : "out of memory");
        goto out;
    }
    for (int i = 0; i < m; i++)
        gl[i] = 0, gu[i] = i < nc ? 0 : 2e19;
    for (int j = 0; j < nv; j++)   /* IPOPT's infinity: 1e19 */
        xl[j] = isfinite(lo[j]) ? lo[j] : -2e19, xu[j] = isfinite(hi[j]) ? hi[j] : 2e19;
    pthread_mutex_lock(&ipopt_lock);
    locked = 1;
    nlp = CreateIpoptProblem(nv, xl, xu, m, gl, gu, s.nnz, 0, 0, eval_f, eval_g, eval_grad_f,
                             eval_jac_g, eval_h);
    if (!nlp) {
        st = HES_ENOMEM;
        goto out;
    }
    AddIpoptIntOption(nlp, "print_level", 0);
    AddIpoptStrOption(nlp, "sb", "yes");
    AddIpoptStrOption(nlp, "hessian_approximation", "limited-memory");
    AddIpoptNumOption(nlp, "constr_viol_tol", tol);
    AddIpoptNumOption(nlp, "tol", ftol > 0 ? fmax(ftol, 1e-12) * 100 : 1e-8);
    AddIpoptNumOption(nlp, "acceptable_constr_viol_tol", tol);
    AddIpoptIntOption(nlp, "max_iter", maxeval);
    SetIntermediateCallback(nlp, intermediate);
    AddIpoptStrOption(nlp, "mu_strategy", "adaptive");
    double f = 0;
    enum ApplicationReturnStatus rs = IpoptSolve(nlp, z, NULL, &f, NULL, NULL, NULL, &s);
    if (rs != Solve_Succeeded && rs != Solved_To_Acceptable_Level)
        snprintf(why, len, "IPOPT status %d (%s)", (int)rs,
                 rs == Maximum_Iterations_Exceeded ? "iteration limit"
                 : rs == Infeasible_Problem_Detected ? "locally infeasible"
                 : rs == Restoration_Failed ? "restoration failed"
                 : rs == User_Requested_Stop ? (s.stalled ? "stalled" : "evaluation budget")
                 : "stopped");
out:
    if (nlp)
        FreeIpoptProblem(nlp);
    if (locked)
        pthread_mutex_unlock(&ipopt_lock);
    free(s.cv), free(s.jac), free(s.jp), free(s.row), free(s.col);
    free(gl), free(gu), free(xl), free(xu);
    return st;
}

#else

hes_status hes__colloc_ipopt(hes_colloc *c, double *z, const double *lo, const double *hi,
                             double tol, double ftol, int maxeval, hes__colloc_cost_fn cost,
                             void *cost_ctx, char *why, size_t len)
{
    (void)c, (void)z, (void)lo, (void)hi, (void)tol, (void)ftol, (void)maxeval, (void)cost;
    (void)cost_ctx;
    snprintf(why, len, "hes was built without IPOPT (install the Debian package "
             "coinor-libipopt-dev and run configure again)");
    return HES_ESOLVER;
}

#endif

