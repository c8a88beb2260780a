/*
 * colloc_solve.c - the nonlinear program of the collocation (core paper
 * Sec. III-E, problem (8)), solved by SLSQP (Kraft, DFVLR-FB 88-28, 1988;
 * NLopt's NLOPT_LD_SLSQP):
 *
 *   minimise   J(z) = [psi or smooth measure](z)       (stability objectives,
 *                     + s R(z)                          flat below psi_floor
 *                                                       (its kink smoothed in
 *                                                       the first rounds);
 *                     + w E(z)                          R, E: colloc_cost.c)
 *   subject to c_eq(z) = 0   (defects, events, resets, anchors)
 *              c_in(z) >= 0  (path, crossing and order constraints)
 *              bounds: durations in [min, max], inputs, parameters, the
 *              first state,
 *
 * with the exact constraint Jacobians (colloc_defects.c, colloc_events.c,
 * colloc_path.c) and the gradient of psi by eigenvalue perturbation
 * (colloc_psi.c).  hes_colloc_solve finds a feasible point (no cost);
 * hes_colloc_minimize runs SLSQP in rounds, each from the best feasible
 * point so far with a fresh quasi-Newton matrix, until a round brings
 * nothing.  The evaluations inside NLopt run in the hes_colloc's
 * workspaces (no allocation); each run allocates its constraint buffers
 * once.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <nlopt.h>

#include "shaping/colloc_internal.h"

typedef struct {
    hes_colloc *c;
    double *cv, *jac;
    hes_status err;
} solve_ctx;

/* Where the model refuses a trial point of the NLP (an invalid impact, a
 * failed callback) the constraints are reported as badly violated, so that
 * SLSQP's line search steps back; the final point is checked separately. */
#define FAILED_POINT HES__COLLOC_FAILED_POINT
static void fail_point(unsigned m, unsigned n, double *result, double *grad)
{
    for (unsigned i = 0; i < m; i++)
        result[i] = FAILED_POINT;
    if (grad)
        memset(grad, 0, sizeof(double) * (size_t)m * n);
}

static void equality(unsigned m, double *result, unsigned n, const double *x, double *grad,
                     void *data)
{
    solve_ctx *s = data;
    hes_status st = hes__colloc_constraints(s->c, x, result, grad ? s->jac : NULL);
    if (st != HES_OK) { /* e.g. an impact law refusing the state: a step too far */
        fail_point(m, n, result, grad);
        return;
    }
    hes__colloc_track(s->c, x, result, grad != NULL);
    if (grad) /* NLopt wants row-major m x n */
        for (unsigned i = 0; i < m; i++)
            for (unsigned j = 0; j < n; j++)
                grad[(size_t)i * n + j] = s->jac[i + (size_t)j * m];
}

/* path constraints c >= 0 as NLopt's -c <= 0 */
static void inequality(unsigned m, double *result, unsigned n, const double *x, double *grad,
                       void *data)
{
    solve_ctx *s = data;
    hes_status st = hes__colloc_path(s->c, x, result, grad ? s->jac : NULL);
    if (st != HES_OK) {
        fail_point(m, n, result, grad);
        return;
    }
    for (unsigned i = 0; i < m; i++)
        result[i] = -result[i];
    if (grad)
        for (unsigned i = 0; i < m; i++)
            for (unsigned j = 0; j < n; j++)
                grad[(size_t)i * n + j] = -s->jac[i + (size_t)j * m];
}
/* ------------------------------------------- the cost (problem 8) */

typedef struct {
    hes_colloc *c;
    hes_colloc_objective objective;
    double weight;
    int evaluations, fallbacks;
    double last_psi;
    hes_status err;
    double *last_x;              /* the last iterate (cost with gradient), or NULL */
    int have_last;
    const double *start;         /* feasibility by IPOPT: the least change from here */
    double mu;                   /* the psi floor's smoothing (0: none, the true cost) */
    int in_band;                 /* an evaluation met the smoothing (|psi - floor| < mu) */
    double psi_mu;               /* psi's own smoothing (0: none) */
    int psi_in_band;             /* an evaluation met it (two moduli within psi_mu) */
} cost_ctx;

/* IPOPT's feasibility problem: with no cost its barrier would take the
 * centre of the feasible set (a family of orbits, e.g. a conservative
 * system's energies) rather than the point near the start that SLSQP's
 * least-squares steps find; the cost 1/2 sum ((z_j - s_j) / max(1, |s_j|))^2
 * asks for the nearest one. */
static double least_change(unsigned n, const double *x, double *grad, const double *s)
{
    double f = 0;
    for (unsigned j = 0; j < n; j++) {
        double w = 1.0 / fmax(1.0, fabs(s[j])), d = (x[j] - s[j]) * w;
        f += 0.5 * d * d;
        if (grad)
            grad[j] = d * w;
    }
    return f;
}

/* The cost's terms besides the stability term: s R (the input-rate
 * regularisation, psi objectives with inputs) and w E (the energy
 * objective: w = 1), their gradients added to grad (nv) when not NULL. */
static double input_terms(hes_colloc *c, hes_colloc_objective objective, double weight,
                          const double *x, double *grad)
{
    double cost = 0;
    size_t n = (size_t)c->nv;
    int psi = objective == HES_COLLOC_STABILITY || objective == HES_COLLOC_WEIGHTED;
    if (psi && c->smooth > 0 && c->n_in > 0) { /* input-rate regularisation */
        double *gr = grad ? c->gtmp : NULL;
        cost += c->smooth * hes__colloc_roughness(c, x, gr);
        for (size_t j = 0; gr && j < n; j++)
            grad[j] += c->smooth * gr[j];
    }
    if (objective == HES_COLLOC_ENERGY || objective == HES_COLLOC_WEIGHTED) {
        double *ge = grad ? c->gtmp : NULL;
        double w = objective == HES_COLLOC_ENERGY ? 1.0 : weight;
        cost += w * hes__colloc_energy(c, x, ge);
        for (size_t j = 0; ge && j < n; j++)
            grad[j] += w * ge[j];
    }
    return cost;
}

double hes__colloc_input_cost(hes_colloc *c, hes_colloc_objective objective, double weight,
                              const double *z)
{
    return input_terms(c, objective, weight, z, NULL);
}

static double cost_function(unsigned n, const double *x, double *grad, void *data)
{
    cost_ctx *p = data;
    hes_colloc *c = p->c;
    double cost = 0, psi = NAN, shown = NAN;
    int fb = 0;
    assert((int)n == c->nv && c->nv <= c->nv_max);
    p->evaluations++;
    if (grad)
        memset(grad, 0, sizeof(double) * n);
    if (p->objective == HES_COLLOC_FEASIBLE && p->start)
        return c->last_cost = least_change(n, x, grad, p->start);
    if (p->objective == HES_COLLOC_STABILITY || p->objective == HES_COLLOC_WEIGHTED) {
        c->psi_mu = p->psi_mu; /* psi's kinks smoothed while the rounds smooth them */
        c->psi_band = 0;
        hes_status st = hes__colloc_measure(c, x, c->measure, &psi, grad, &fb);
        c->psi_mu = 0;
        p->psi_in_band |= c->psi_band;
        if (st != HES_OK) { /* see fail_point */
            if (grad)
                memset(grad, 0, sizeof(double) * n);
            return FAILED_POINT;
        }
        p->fallbacks += fb;
        /* psi itself (progress), not the smoothed value the cost takes */
        shown = p->last_psi = p->psi_mu > 0 ? c->stab.psi : psi;
        /* max(psi, floor): flat below the floor, its kink smoothed by mu */
        double slope;
        cost = hes__colloc_floor(psi, c->psi_floor, p->mu, &slope);
        p->in_band |= slope > 0 && slope < 1;
        if (grad && slope == 0)
            memset(grad, 0, sizeof(double) * n);
        for (unsigned j = 0; grad && slope != 0 && slope != 1 && j < n; j++)
            grad[j] *= slope;
    }
    cost += input_terms(c, p->objective, p->weight, x, grad);
    c->last_cost = cost;
    if (grad && p->last_x) {
        memcpy(p->last_x, x, sizeof(double) * n);
        p->have_last = 1;
    }
    if (grad && c->progress)
        c->progress(c->progress_ctx, p->evaluations, cost, c->last_violation, shown);
    return cost;
}

/* The NLP of the collocation: SLSQP on the cost subject to the equality
 * constraints, the path constraints and the bounds (durations >= 0 or as
 * given, parameters, inputs, first state); the final constraint violation
 * (equalities and path) into *violation.  ftol (relative) 0 for a zero
 * objective, whose "relative change" is always 0. */
static hes_status run_nlp(hes_colloc *c, double *z, double tol, cost_ctx *cc, double ftol,
                          int maxeval, double *violation, const char *what,
                          hes_nlp_solver solver, int *stalled)
{
    *stalled = 0;
    hes_system *sys = c->sys;
    int nv = c->nv, nc = c->nc, ni = c->ni, nr = nc > ni ? nc : ni;
    solve_ctx s = { c, malloc(sizeof(double) * (size_t)nr), malloc(sizeof(double) * (size_t)nr * nv),
                    HES_OK };
    double *ctol = malloc(sizeof(double) * (size_t)nr);
    double *b = malloc(sizeof(double) * 2 * (size_t)nv);    /* lower, then upper bounds */
    nlopt_opt opt = nlopt_create(NLOPT_LD_SLSQP, (unsigned)nv);
    hes_status st = HES_OK;
    if (!s.cv || !s.jac || !ctol || !b || !opt) {
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
        goto out;
    }
    for (int i = 0; i < nr; i++)
        ctol[i] = tol;
    hes__colloc_bounds(c, z, b, b + nv);
    for (int j = 0; j < nv; j++) { /* a start outside the bounds is moved in */
        if (z[j] < b[j])
            z[j] = b[j];
        if (z[j] > b[nv + j])
            z[j] = b[nv + j];
    }
    nlopt_set_lower_bounds(opt, b);
    nlopt_set_upper_bounds(opt, b + nv);
    char stop[160];
    c->last_violation = NAN;
    if (solver == HES_NLP_IPOPT) {
        double *start = NULL;
        if (cc->objective == HES_COLLOC_FEASIBLE &&
            (start = malloc(sizeof(double) * (size_t)nv)))
            memcpy(start, z, sizeof(double) * (size_t)nv);
        cc->start = start;
        st = hes__colloc_ipopt(c, z, b, b + nv, tol, ftol, maxeval, cost_function, cc, stop,
                               sizeof stop);
        cc->start = NULL;
        free(start);
        *stalled = stop[0] != 0;
        if (st != HES_OK) {
            st = hes__fail(sys, st, "%s: %s", what, stop);
            goto out;
        }
    } else if (solver == HES_NLP_REDUCED) {
        st = hes__colloc_reduced(c, z, b, b + nv, tol, ftol, maxeval, cost_function, cc, stop,
                                 sizeof stop);
        if (st != HES_OK) {
            st = hes__fail(sys, st, "%s: %s", what, stop);
            goto out;
        }
    } else {
        nlopt_set_min_objective(opt, cost_function, cc);
        nlopt_add_equality_mconstraint(opt, (unsigned)nc, equality, &s, ctol);
        if (ni > 0)
            nlopt_add_inequality_mconstraint(opt, (unsigned)ni, inequality, &s, ctol);
        hes__colloc_slsqp_stops(opt, ftol, maxeval);
        double f;
        nlopt_result nr_ = nlopt_optimize(opt, z, &f);
        snprintf(stop, sizeof stop, "NLopt: %s", nlopt_result_to_string(nr_));
    }
    if (s.err != HES_OK || cc->err != HES_OK) {
        st = s.err != HES_OK ? s.err : cc->err;
        goto out;
    }
    if ((st = hes__colloc_constraints(c, z, s.cv, NULL)) != HES_OK)
        goto out;
    double v = 0;
    for (int i = 0; i < nc; i++)
        v = fmax(v, fabs(s.cv[i]));
    if (ni > 0 && (st = hes__colloc_path(c, z, s.cv, NULL)) != HES_OK)
        goto out;
    for (int i = 0; i < ni; i++)
        v = fmax(v, -s.cv[i]);
    *violation = v;
    if (!(v <= 10 * tol))
        st = hes__fail(sys, HES_ENOORBIT, "%s did not converge: constraint violation %.3g "
                       "(%s)", what, v, stop[0] ? stop : "IPOPT");
out:
    if (opt)
        nlopt_destroy(opt);
    free(s.cv);
    free(s.jac);
    free(ctol);
    free(b);
    hes__colloc_put_params(c, z);
    return st;
}


/* The largest violation of the equality and path constraints and of the
 * bounds of z (which the reduced space keeps as inequalities) at z, or
 * HUGE_VAL where the model refuses z. */
static double max_violation(hes_colloc *c, const double *z)
{
    double *cv = c->cvtmp, v = hes__colloc_bound_violation(c, z);
    if (hes__colloc_constraints(c, z, cv, NULL) != HES_OK)
        return HUGE_VAL;
    for (int i = 0; i < c->nc; i++)
        v = fmax(v, fabs(cv[i]));
    if (c->ni > 0 && hes__colloc_path(c, z, cv, NULL) != HES_OK)
        v = HUGE_VAL;
    for (int i = 0; i < c->ni && v < HUGE_VAL; i++)
        v = fmax(v, -cv[i]);
    return v;
}

/* A feasible point near z.  With the reduced space (and the hybrid), Newton's method on the
 * equalities with the free variables held, when its orbit meets the path
 * constraints and bounds too (a gait with virtual events added: 0.03 s
 * where SLSQP's feasibility took 6.5 s); else, and from Newton's orbit when
 * there is one, SLSQP or IPOPT. */
hes_status hes_colloc_solve(hes_colloc *c, double *z, double tol, double *violation)
{
    if (!c)
        return HES_EINVAL;
    if (!z)
        return hes__fail(c->sys, HES_EINVAL, "collocation: no z (NULL)");
    cost_ctx cc = { .c = c, .objective = HES_COLLOC_FEASIBLE, .last_psi = NAN };
    int stalled;
    char why[160];
    if (c->solver == HES_NLP_REDUCED || c->solver == HES_NLP_HYBRID) {
        /* z changes only where Newton converges */
        hes_status st = hes__colloc_newton(c, z, tol, why, sizeof why);
        if (st == HES_ENOMEM)
            return hes__fail(c->sys, st, "%s", why);
        if (st == HES_OK && (*violation = max_violation(c, z)) <= 10 * tol) {
            hes__colloc_put_params(c, z);
            return HES_OK;
        }
    }
    return run_nlp(c, z, tol, &cc, 0.0, 500, violation, "collocation",
                   hes__nlp_solver_for(c->solver, HES_COLLOC_FEASIBLE, c->nv), &stalled);
}

/* The smoothings of the psi floor and of psi's own kinks
 * (hes_colloc_minimize): the least half-width, relative to the floor or to
 * psi at the best point, and the gain of a round (relative to the cost)
 * below which the next round smooths less. */
#define SMOOTH_END 0.01
#define SMOOTH_GAIN 1e-3

/* Takes cand as the new best when it is feasible and cheaper (by the true
 * cost: the probe does not smooth); its psi into *psi_best (psi
 * objectives). */
static int consider(hes_colloc *c, const double *cand, hes_colloc_objective objective,
                    double weight, double tol, double *f_best, double *z_best, double *psi_best)
{
    cost_ctx probe = { .c = c, .objective = objective, .weight = weight, .last_psi = NAN };
    if (!(max_violation(c, cand) <= 10 * tol))
        return 0;
    double f = cost_function((unsigned)c->nv, cand, NULL, &probe);
    if (!(f < FAILED_POINT) || (*f_best < HUGE_VAL && !(f < *f_best - 1e-9 * fabs(*f_best))))
        return 0;
    *f_best = f;
    *psi_best = probe.last_psi;
    memcpy(z_best, cand, sizeof(double) * (size_t)c->nv);
    return 1;
}

/* What each objective's runs are called in messages. */
static const char *const objective_what[] = {
    "collocation", "collocation with the energy cost", "collocation with psi in the cost",
    "collocation with psi and energy in the cost"
};

/* The smoothings of the first round (cc->mu, cc->psi_mu), from z and the
 * true psi at the best point so far (psi_best: NAN when there is none). */
static void start_smoothing(hes_colloc *c, const double *z, hes_colloc_objective objective,
                            double psi_best, cost_ctx *cc)
{
    /* A psi floor: max(psi, floor) has a kink where psi meets the floor,
     * along which the quasi-Newton steps crawl (the knee biped's floor gait
     * on 15 nodes: true cost 0.305 when its rounds stopped, after 1422
     * evaluations, each round's fresh matrix gaining a little).  The rounds
     * smooth the kink over |psi - floor| < mu, mu = floor_smoothing floor,
     * a quarter of it after a round that gains less than SMOOTH_GAIN, then
     * none (below SMOOTH_END floor).  The smoothed cost lies above
     * the true one, which decides the best point (with 1400 evaluations:
     * 0.220).  A budget can end while the rounds still smooth (their gains
     * in the true cost are larger than an unsmoothed round's crawl: ending
     * the knee biped's floor gait with an unsmoothed round of a quarter of
     * its budget gave median true cost 0.2340 over 8 perturbed runs,
     * against 0.2288). */
    if (c->psi_floor > 0 && objective != HES_COLLOC_FEASIBLE && objective != HES_COLLOC_ENERGY &&
        c->floor_smoothing >= SMOOTH_END)
        cc->mu = c->floor_smoothing * c->psi_floor;
    /* psi's own kinks (hes_colloc_options.psi_smoothing): where two
     * multipliers have one modulus psi is not differentiable, and psi's
     * optima lie there (the SLIP's on 11 nodes from K = thetadot = 0:
     * SLSQP's rounds crawled to 0.662866 in 1000 evaluations; smoothed,
     * they reach the optimum 0.662370 and end in 522).  The rounds
     * minimise psi smoothed by hes__colloc_smax of the moduli, mu =
     * psi_smoothing times psi at the start, with the floor's schedule
     * (none below SMOOTH_END psi at the best point, where the polishing
     * rounds below follow). */
    if (c->psi_smoothing >= SMOOTH_END && c->measure == HES_MEASURE_PSI &&
        (objective == HES_COLLOC_STABILITY || objective == HES_COLLOC_WEIGHTED)) {
        double psi0 = psi_best;
        if (!(psi0 > 0) && hes_colloc_psi(c, z, &psi0, NULL, NULL) != HES_OK)
            psi0 = NAN;
        cc->psi_mu = psi0 > 0 && isfinite(psi0) ? c->psi_smoothing * psi0 : 0.0;
    }
}

/* One round: the NLP from zr with a fresh quasi-Newton matrix and at most
 * budget evaluations by the solver use, the round's records reset first
 * (the last iterate, whether the smoothings were met, the cheapest nearly
 * feasible iterate, tracked for the objectives with a cost). */
static hes_status run_round(hes_colloc *c, double *zr, double tol, cost_ctx *cc, int budget,
                            hes_nlp_solver use, int *stalled)
{
    hes_colloc_objective objective = cc->objective;
    double viol;
    cc->have_last = 0;
    cc->in_band = cc->psi_in_band = 0;
    c->cand_valid = 0;
    c->cand_cost = HUGE_VAL;
    c->last_cost = HUGE_VAL;
    c->track = objective != HES_COLLOC_FEASIBLE;
    hes_status st = run_nlp(c, zr, tol, cc, objective == HES_COLLOC_FEASIBLE ? 0.0 : 1e-10,
                            budget, &viol, objective_what[objective], use, stalled);
    c->track = 0;
    return st;
}

/* The round's other offers (objectives with a cost): its cheapest nearly
 * feasible iterate (c->cand), then its last iterate (zl), each made
 * feasible in zr and taken by consider; 1 when one became the best. */
static int offer_iterates(hes_colloc *c, double *zr, const double *zl, const cost_ctx *cc,
                          hes_nlp_solver use, double weight, double tol, double *f_best,
                          double *zbest, double *psi_best)
{
    hes_colloc_objective objective = cc->objective;
    size_t nv = (size_t)c->nv;
    double viol;
    int improved = 0, stalled;
    for (int which = 0; which < 2; which++) {
        if (which == 0 ? !c->cand_valid : !cc->have_last)
            continue;
        memcpy(zr, which == 0 ? c->cand : zl, sizeof(double) * nv);
        /* the reduced space's iterates are orbits already: its own
           feasibility run (no cost) mends their path constraints */
        if (use == HES_NLP_REDUCED) {
            cost_ctx feas = { .c = c, .objective = HES_COLLOC_FEASIBLE, .last_psi = NAN };
            if (run_nlp(c, zr, tol, &feas, 0.0, 100, &viol, objective_what[HES_COLLOC_FEASIBLE],
                        HES_NLP_REDUCED, &stalled) == HES_OK)
                improved |= consider(c, zr, objective, weight, tol, f_best, zbest, psi_best);
        } else if (hes_colloc_solve(c, zr, tol, &viol) == HES_OK) {
            improved |= consider(c, zr, objective, weight, tol, f_best, zbest, psi_best);
        }
    }
    return improved;
}

/* After a round that took the best cost from f_round to f_best: the
 * smoothings of the next (a quarter as much after a round that gains less
 * than SMOOTH_GAIN of the cost, none below SMOOTH_END), and whether the
 * rounds go on (1).  *polished counts the unsmoothed rounds after psi's
 * smoothing is over (psi_smooths: it was on). */
static int next_round(const hes_colloc *c, cost_ctx *cc, double f_round, double f_best,
                      double psi_best, int improved, int switched, int psi_smooths,
                      int *polished)
{
    /* a round that met the smoothing goes on to one that smooths less,
       or not */
    int floor_band = cc->mu > 0 && cc->in_band;
    int smoothed = floor_band || (cc->psi_mu > 0 && cc->psi_in_band);
    int gained = f_round - f_best > SMOOTH_GAIN * fabs(f_best);
    if (!gained) {
        cc->mu = cc->mu / 4 >= SMOOTH_END * c->psi_floor ? cc->mu / 4 : 0.0;
        if (isfinite(psi_best)) /* (no feasible point yet: as it is) */
            cc->psi_mu = cc->psi_mu / 4 >= SMOOTH_END * psi_best ? cc->psi_mu / 4 : 0.0;
    }
    /* psi's smoothing over, one unsmoothed round polishes, and the
       rounds go on only where they gain: at the kink the smoothed
       rounds have reached, unsmoothed ones would crawl */
    int go_on = improved || switched || smoothed;
    if (psi_smooths && cc->psi_mu == 0)
        go_on = switched || floor_band || gained || (*polished)++ == 0;
    return go_on;
}

/* The result at the point z found (st: HES_OK): its constraint violation,
 * and with it its energy, psi, roughness and true cost; the parameters
 * left at z's. */
static hes_status report(hes_colloc *c, double *z, hes_colloc_objective objective,
                         double weight, hes_status st, hes_colloc_result *res)
{
    hes__colloc_put_params(c, z);
    res->violation = max_violation(c, z);
    if (st == HES_OK) {
        res->energy = hes__colloc_energy(c, z, NULL);
        st = hes_colloc_psi(c, z, &res->psi, NULL, NULL);
        hes__colloc_put_params(c, z);
        res->roughness = hes__colloc_roughness(c, z, NULL);
        cost_ctx probe = { .c = c, .objective = objective, .weight = weight, .last_psi = NAN };
        res->cost = cost_function((unsigned)c->nv, z, NULL, &probe);
    }
    return st;
}

hes_status hes_colloc_minimize(hes_colloc *c, double *z, hes_colloc_objective objective,
                               double weight, double tol, int maxeval, hes_colloc_result *res)
{
    if (!c)
        return HES_EINVAL;
    if (!z || !res)
        return hes__fail(c->sys, HES_EINVAL, "collocation: needs z and somewhere to put the result");
    cost_ctx cc = { .c = c, .objective = objective, .weight = weight, .last_psi = NAN };
    memset(res, 0, sizeof *res);
    res->psi = res->energy = res->cost = res->violation = NAN;
    if ((int)objective < 0 || objective > HES_COLLOC_WEIGHTED)
        return hes__fail(c->sys, HES_EINVAL, "unknown collocation objective %d", (int)objective);
    size_t nv = (size_t)c->nv;
    double *zl = malloc(sizeof(double) * 3 * nv);
    if (!zl)
        return hes__fail(c->sys, HES_ENOMEM, "out of memory");
    double *zr = zl + nv, *zbest = zr + nv, f_best = HUGE_VAL, psi_best = NAN;
    hes_status st = HES_OK;
    cc.last_x = zl;
    if (!c->cand && !(c->cand = malloc(sizeof(double) * (size_t)c->nv_max))) {
        free(zl);
        return hes__fail(c->sys, HES_ENOMEM, "out of memory");
    }
    /* SLSQP in rounds, each from the best feasible point so far with a fresh
     * quasi-Newton matrix (psi is not smooth where multipliers cross, and a
     * stale BFGS model stalls there), until a round brings nothing.  NLopt
     * returns the best point meeting the constraint tolerances; a round whose
     * iterates stay slightly infeasible also offers its last iterate and its
     * cheapest nearly feasible one (violation < 1e-2), each made feasible by a
     * feasibility solve. */
    consider(c, z, objective, weight, tol, &f_best, zbest, &psi_best);
    hes_nlp_solver solver = hes__nlp_solver_for(c->solver, objective, c->nv);
    int round_max = objective == HES_COLLOC_FEASIBLE ? maxeval : (maxeval / 4 > 200 ? maxeval / 4 : 200);
    /* The hybrid: a first round of a tenth of the budget in the full space,
     * whose iterates may leave the orbits (the knee biped's HES gait from
     * its minimum-energy gait: the reduced space alone descends into a
     * local optimum at cost 1.28, the full space to 0.48), then the reduced
     * space from its best point (every iterate an orbit), or the full space
     * where the reduced space does not apply. */
    int explore = solver == HES_NLP_HYBRID;
    if (explore)
        solver = hes__colloc_reduced_applies(c) ? HES_NLP_REDUCED : HES_NLP_SLSQP;
    start_smoothing(c, z, objective, psi_best, &cc);
    int psi_smooths = cc.psi_mu > 0, polished = 0;
    while (cc.evaluations < maxeval) {
        int left = maxeval - cc.evaluations;
        /* IPOPT's quasi-Newton model does not go stale as SLSQP's: its round
           may use the whole budget left, unless it smooths */
        int smoothing = cc.mu > 0 || cc.psi_mu > 0;
        int budget = (solver == HES_NLP_IPOPT && !smoothing) || left < round_max ? left : round_max;
        if (explore) /* round_max >= maxeval / 4 */
            budget = maxeval / 10 > 0 ? maxeval / 10 : 1;
        int before = cc.evaluations, improved = 0;
        double f_round = f_best;
        memcpy(zr, f_best < HUGE_VAL ? zbest : z, sizeof(double) * nv);
        int stalled;
        hes_nlp_solver use = explore ? HES_NLP_SLSQP : solver;
        st = run_round(c, zr, tol, &cc, budget, use, &stalled);
        /* IPOPT's line search can stall where psi is not smooth (two
           multipliers of equal modulus: restoration fails); SLSQP's
           least-squares steps polish from there in the next rounds */
        int switched = use == HES_NLP_IPOPT && stalled && c->nv <= HES__DENSE_MAX_VARS;
        if (switched)
            solver = HES_NLP_SLSQP;
        switched |= explore; /* the hybrid's first round: its own rounds follow */
        explore = 0;
        /* a program the solver cannot take (the reduced space with nothing
           free), or no memory: the caller's error, not a round's failure */
        if (st == HES_EINVAL || st == HES_ENOMEM || st == HES_ESOLVER)
            break;
        if (st == HES_OK || st == HES_ENOORBIT)
            improved |= consider(c, zr, objective, weight, tol, &f_best, zbest, &psi_best);
        if (objective != HES_COLLOC_FEASIBLE)
            improved |= offer_iterates(c, zr, zl, &cc, use, weight, tol, &f_best, zbest,
                                       &psi_best);
        int go_on = next_round(c, &cc, f_round, f_best, psi_best, improved, switched,
                               psi_smooths, &polished);
        if (objective == HES_COLLOC_FEASIBLE || !go_on || cc.evaluations == before)
            break;
    }
    res->evaluations = cc.evaluations;
    res->fallbacks = cc.fallbacks;
    if (st == HES_EINVAL || st == HES_ENOMEM || st == HES_ESOLVER) {
        free(zl);
        return st;
    } else if (f_best < HUGE_VAL) {
        memcpy(z, zbest, sizeof(double) * nv);
        st = HES_OK;
    } else if (st == HES_OK) {
        st = hes__fail(c->sys, HES_ENOORBIT, "%s found no feasible point",
                       objective_what[objective]);
    }
    free(zl);
    return report(c, z, objective, weight, st, res);
}

hes_status hes_colloc_optimize(hes_colloc *c, double *z, double tol, double *psi,
                               double *violation, int *evaluations)
{
    if (!c || !z || !psi || !violation || !evaluations)
        return c ? hes__fail(c->sys, HES_EINVAL, "collocation: needs z, psi, violation and evaluations") : HES_EINVAL;
    hes_colloc_result r;
    hes_status st = hes_colloc_minimize(c, z, HES_COLLOC_STABILITY, 0.0, tol, 1000, &r);
    *psi = r.psi;
    *violation = r.violation;
    if (evaluations)
        *evaluations = r.evaluations;
    return st;
}
