/*
 * optimize.c - shape-parameter optimisation with NLopt (paper Sec. III-D,
 * problem (7)): minimise psi(h), or its smooth surrogate, over box bounds.
 *
 * Every evaluation is a fast re-evaluation over the nominal orbit's factors
 * (shape.c): shape parameters do not move the orbit.  A gradient-based
 * algorithm runs from several starts (max |lambda| is non-smooth where
 * multipliers coalesce and can have several local minima), a
 * derivative-free polish runs from the best point, and the optimum is then
 * re-analysed from scratch (orbit, full-system verification, monodromy).
 *
 * Parameters that move the orbit (a controller's gains) go beyond the
 * paper's problem: each evaluation is then a full analysis, the orbit found
 * again by shooting from the best evaluation's section state (a warm start
 * along the search).  The orbit exists, with its event sequence, only in a
 * region of the parameters; an evaluation outside it is lost and counts as
 * +infinity, so the default is Nelder-Mead (NLopt's LN_NELDERMEAD), which
 * only compares values, from one start.  The lost evaluation nearest the
 * optimum says what bounds it (its message: the event that changed, the
 * search that failed).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nlopt.h>

#include "shaping/shaping.h"

void hes_shape_options_init(hes_shape_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->starts = 8;
    o->seed = 1;
    o->measure = HES_MEASURE_PSI;
    o->gradient = 1;
    o->polish = 1;
    o->maxeval = 400;
    o->ftol_rel = 1e-12;
    o->stopval = -HUGE_VAL;
}

void hes_shape_result_free(hes_shape_result *res)
{
    if (!res)
        return;
    free(res->param);
    free(res->h);
    free(res->lo);
    free(res->hi);
    free(res->start);
    free(res->params);
    free(res->lost_at);
    hes_analysis_free(&res->analysis);
    memset(res, 0, sizeof *res);
}

typedef struct {
    hes_shape *sh;           /* NULL: parameters that move the orbit */
    const hes_shape_options *o;
    hes_shape_result *res;
    double best;
    double *best_h, *xt;
    hes_status err;
    int use_gradient;        /* analytic gradients requested by the algorithm */
    nlopt_opt opt;           /* the run under way */
    /* parameters that move the orbit: */
    hes_system *sys;
    double *warm;            /* the best evaluation's section state (orbit dimension) */
    double *warm_p;          /* and its parameters (the solved ones as its orbit solved them) */
    int have_warm;
    double *lost_x;          /* the lost evaluations' points, n each */
    char (*lost_msg)[HES_ERROR_LEN];
    int lost_cap;
} objective_ctx;

/* The measure from an evaluation (hes__measure). */
static double measure_of(const hes_shape_eval_result *ev, hes_measure m)
{
    return hes__measure(ev->abs, ev->n_mult, m, NULL);
}

/* Gradient of the smooth measure by the chain rule over the moduli,
 * sum_k (d measure / d |lambda_k|) d|lambda_k|/dh_j; 0 if a modulus that
 * counts has no derivative (a repeated or defective multiplier). */
static int smooth_gradient(const hes_shape_eval_result *ev, double *grad)
{
    int n = ev->n_shape, m = ev->n_mult;
    double w[64];
    if (m > 64)
        return 0;
    hes__measure(ev->abs, m, HES_MEASURE_SMOOTH, w);
    for (int j = 0; j < n; j++) {
        double g = 0;
        for (int k = 0; k < m; k++) {
            double d = ev->dabs[k + (size_t)m * j];
            if (w[k] == 0.0)
                continue;
            if (isnan(d))
                return 0;
            g += w[k] * d;
        }
        grad[j] = g;
    }
    return 1;
}

static int value_at(objective_ctx *c, const double *x, double *f)
{
    hes_shape_eval_result ev;
    hes_status st = hes_shape_eval(c->sh, x, 0, &ev);
    c->res->evaluations++;
    if (st != HES_OK) {
        if (c->err == HES_OK)
            c->err = st;
        return -1;
    }
    *f = measure_of(&ev, c->o->measure);
    return 0;
}

/* Central differences of the measure (each a fast re-evaluation). */
static int differences(objective_ctx *c, const double *x, double *grad)
{
    int n = c->res->n;
    memcpy(c->xt, x, sizeof(double) * (size_t)n);
    for (int j = 0; j < n; j++) {
        double h = 1e-6 * fmax(1.0, fabs(x[j])), fp, fm;
        c->xt[j] = x[j] + h;
        if (value_at(c, c->xt, &fp))
            return -1;
        c->xt[j] = x[j] - h;
        if (value_at(c, c->xt, &fm))
            return -1;
        c->xt[j] = x[j];
        grad[j] = (fp - fm) / (2 * h);
    }
    return 0;
}

static double objective(unsigned n, const double *x, double *grad, void *data)
{
    objective_ctx *c = data;
    hes_shape_eval_result ev;
    int analytic = grad && c->o->gradient;
    /* psi's gradient needs the largest multiplier's derivative only */
    hes_status st = hes_shape_eval(c->sh, x, !analytic ? 0 : c->o->measure == HES_MEASURE_PSI
                                                               ? HES_SHAPE_GRAD_PSI : 1, &ev);
    double f;
    c->res->evaluations++;
    if (st != HES_OK) {
        if (c->err == HES_OK)
            c->err = st;
        if (grad)
            memset(grad, 0, sizeof(double) * n);
        return HUGE_VAL;
    }
    f = measure_of(&ev, c->o->measure);
    if (grad) {
        c->res->gradients++;
        if (analytic && c->o->measure == HES_MEASURE_PSI) {
            memcpy(grad, ev.dpsi, sizeof(double) * n);
            c->res->fallbacks += ev.fallback;
        } else if (!(analytic && smooth_gradient(&ev, grad))) {
            c->res->fallbacks += analytic;
            if (differences(c, x, grad))
                memset(grad, 0, sizeof(double) * n);
        }
    }
    if (f < c->best) {
        c->best = f;
        memcpy(c->best_h, x, sizeof(double) * n);
    }
    if (c->o->progress)
        c->o->progress(c->res->evaluations, c->best, c->o->progress_data);
    return f;
}

/* A lost evaluation at x, with the system's message, kept for the report;
 * 0, or -1 out of memory. */
static int lose(objective_ctx *c, const double *x)
{
    int n = c->res->n;
    if (c->res->lost == c->lost_cap) {
        int cap = c->lost_cap ? 2 * c->lost_cap : 16;
        double *lx = realloc(c->lost_x, sizeof(double) * (size_t)cap * (size_t)n);
        if (lx)
            c->lost_x = lx;
        char (*lm)[HES_ERROR_LEN] = realloc(c->lost_msg, sizeof *lm * (size_t)cap);
        if (lm)
            c->lost_msg = lm;
        if (!lx || !lm)
            return -1;
        c->lost_cap = cap;
    }
    memcpy(c->lost_x + (size_t)c->res->lost * n, x, sizeof(double) * (size_t)n);
    snprintf(c->lost_msg[c->res->lost], HES_ERROR_LEN, "%s", c->sys->errmsg);
    c->res->lost++;
    return 0;
}

/* The measure at x by a full analysis (parameters that move the orbit),
 * warm-started from the best evaluation's orbit; HUGE_VAL where the orbit
 * is lost. */
static double reanalysed(objective_ctx *c, const double *x)
{
    hes_system *sys = c->sys;
    hes_shape_result *r = c->res;
    hes_status st = HES_OK;
    /* the solved parameters start from the best orbit's (a failed search
       leaves them at its last iterate) */
    memcpy(sys->p, c->warm_p, sizeof(double) * (size_t)sys->n_params);
    for (int j = 0; j < r->n && st == HES_OK; j++)   /* the model's own checks too */
        st = hes_system_set_param(sys, sys->params[r->param[j]].name, x[j]);
    if (st == HES_OK && c->have_warm)
        st = hes_system_set_orbit_start(sys, c->warm);
    hes_analysis a;
    if (st == HES_OK)
        st = hes_analyze(sys, 0, &a);
    r->evaluations++;
    if (st != HES_OK) {
        if (st == HES_ENOMEM || lose(c, x) != 0)
            c->err = HES_ENOMEM;
        return HUGE_VAL;
    }
    double f = hes__measure(a.stab.abs, a.stab.n_mult, c->o->measure, NULL);
    if (f < c->best) {       /* the best point and its orbit, always together */
        c->best = f;
        memcpy(c->best_h, x, sizeof(double) * (size_t)r->n);
        memcpy(c->warm, a.orbit.x0, sizeof(double) * (size_t)a.orbit.n);
        memcpy(c->warm_p, sys->p, sizeof(double) * (size_t)sys->n_params);
        c->have_warm = 1;
    }
    hes_analysis_free(&a);
    return f;
}

static double orbit_objective(unsigned n, const double *x, double *grad, void *data)
{
    objective_ctx *c = data;
    double f = reanalysed(c, x);
    if (grad) {              /* central differences of re-analyses */
        c->res->gradients++;
        memcpy(c->xt, x, sizeof(double) * n);
        for (unsigned j = 0; j < n; j++) {
            double h = c->sys->set.fd_step * fmax(1.0, fabs(x[j]));
            c->xt[j] = x[j] + h;
            double fp = reanalysed(c, c->xt);
            c->xt[j] = x[j] - h;
            double fm = reanalysed(c, c->xt);
            c->xt[j] = x[j];
            grad[j] = isfinite(fp) && isfinite(fm) ? (fp - fm) / (2 * h) : 0.0;
        }
    }
    if (c->o->progress)
        c->o->progress(c->res->evaluations, c->best, c->o->progress_data);
    if (c->err == HES_ENOMEM)
        nlopt_force_stop(c->opt);
    return f;
}

/* Runs one NLopt minimisation from x (updated in place). */
static hes_status run(objective_ctx *c, nlopt_algorithm alg, double *x, int maxeval)
{
    hes_shape_result *r = c->res;
    nlopt_opt opt = nlopt_create(alg, (unsigned)r->n), local = NULL;
    if (!opt)
        return HES_ENOMEM;
    const char *name = nlopt_algorithm_to_string(alg);
    if (name && (strstr(name, "AUGLAG") || strstr(name, "MLSL"))) {
        local = nlopt_create(c->o->gradient ? NLOPT_LD_MMA : NLOPT_LN_BOBYQA, (unsigned)r->n);
        if (local) {
            nlopt_set_ftol_rel(local, c->o->ftol_rel);
            nlopt_set_local_optimizer(opt, local);
        }
    }
    nlopt_set_lower_bounds(opt, r->lo);
    nlopt_set_upper_bounds(opt, r->hi);
    nlopt_set_min_objective(opt, c->sh ? objective : orbit_objective, c);
    /* a re-analysed psi is as accurate as the orbit search (newton_tol):
       below 1e-9 relative its steps would chase the search's noise */
    nlopt_set_ftol_rel(opt, c->sh ? c->o->ftol_rel : fmax(c->o->ftol_rel, 1e-9));
    nlopt_set_xtol_rel(opt, c->sh ? 1e-12 : 1e-6);
    if (!c->sh) {            /* first steps of a twentieth of the bounds: the orbit is
                                followed from the start's, not sought across the box */
        for (int j = 0; j < r->n; j++)
            c->xt[j] = 0.05 * (r->hi[j] - r->lo[j]);
        nlopt_set_initial_step(opt, c->xt);
    }
    c->opt = opt;
    nlopt_set_maxeval(opt, maxeval);
    nlopt_set_stopval(opt, c->o->stopval);
    double f;
    nlopt_result nr = nlopt_optimize(opt, x, &f);
    nlopt_destroy(opt);
    if (local)
        nlopt_destroy(local);
    return nr == NLOPT_OUT_OF_MEMORY ? HES_ENOMEM : HES_OK;
}

static int is_gradient_based(nlopt_algorithm alg)
{
    const char *s = nlopt_algorithm_to_string(alg);
    return s && (strncmp(s, "LD_", 3) == 0 || strncmp(s, "GD_", 3) == 0 ||
                 strcmp(s, "AUGLAG") == 0 || strcmp(s, "AUGLAG_EQ") == 0 ||
                 strcmp(s, "G_MLSL") == 0 || strcmp(s, "G_MLSL_LDS") == 0);
}

/* Bounds and start value of optimised parameter j (parameter index `param`):
 * the options' (a NaN entry: the default), else the model's search bounds
 * and the system's value; checked. */
static hes_status bounds_of(hes_system *sys, const hes_shape_options *o, int j, int param,
                            double *lo, double *hi, double *x0)
{
    const hes_param *pp = &sys->model->params[param];
    int lo_given = o->lo && !isnan(o->lo[j]), hi_given = o->hi && !isnan(o->hi[j]);
    *lo = lo_given ? o->lo[j] : pp->search_lo;
    *hi = hi_given ? o->hi[j] : pp->search_hi;
    if ((!lo_given || !hi_given) && pp->search_lo == 0 && pp->search_hi == 0)
        return hes__fail(sys, HES_EINVAL, "parameter '%s' has no default search bounds: "
                         "both bounds must be given", pp->name);
    if (!(isfinite(*lo) && isfinite(*hi) && *lo < *hi))
        return hes__fail(sys, HES_EINVAL, "bounds %s=%g:%g: LO must be less than HI, both finite",
                         pp->name, *lo, *hi);
    *x0 = o->start && !isnan(o->start[j]) ? o->start[j] : sys->p[param];
    if (!isfinite(*x0) || *x0 < *lo || *x0 > *hi)
        return hes__fail(sys, HES_EINVAL, "the start value %s = %g lies outside its bounds "
                         "[%g, %g]", pp->name, *x0, *lo, *hi);
    return HES_OK;
}

/* The bounds and starts checked before any computation, so that bad ones
 * are refused at once (the names themselves are hes_shape_new's). */
static hes_status precheck(hes_system *sys, const hes_shape_options *o)
{
    const hes_model *m = sys->model;
    double lo, hi, x0;
    int j = 0;
    hes_status st = HES_OK;
    if (o->n > 0) {
        for (; j < o->n && st == HES_OK; j++) {
            int i = o->names && o->names[j] ? hes_model_param_index(m, o->names[j]) : -1;
            if (i >= 0 && !(m->params[i].flags & HES_PARAM_SOLVED))
                st = bounds_of(sys, o, j, i, &lo, &hi, &x0);
        }
        return st;
    }
    for (int i = 0; i < m->n_params && st == HES_OK; i++)
        if (m->params[i].flags & HES_PARAM_SHAPE)
            st = bounds_of(sys, o, j++, i, &lo, &hi, &x0);
    if (st == HES_OK && j == 0)
        st = hes__fail(sys, HES_EINVAL, "model '%s' has no shape parameters", m->name);
    return st;
}

static hes_status optimize(hes_system *sys, const hes_shape_options *opts_in,
                           hes_shape_result *r);

/* The search and the re-analysis at the optimum run on a copy of the
 * caller's system, whose parameters are never written (the optimum is
 * r->h; hes_shape_result_apply writes it); failures are said on the
 * caller's system. */
hes_status hes_shape_optimize(hes_system *sys, const hes_shape_options *opts_in,
                              hes_shape_result *r)
{
    if (!sys || !r || sys->kind != HES_KIND_HYBRID)
        return optimize(sys, opts_in, r);
    hes_system *work = hes__system_copy(sys);
    if (!work) {
        memset(r, 0, sizeof *r);
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    }
    hes_status st = optimize(work, opts_in, r);
    if (st != HES_OK)
        hes__fail(sys, st, "%s", work->errmsg);
    hes_system_destroy(work);
    return st;
}

hes_status hes_shape_result_apply(hes_system *sys, const hes_shape_result *r)
{
    if (!sys)
        return HES_EINVAL;
    if (!r || !r->params)
        return hes__fail(sys, HES_EINVAL, "shape result: none given (NULL, or a failed one)");
    if (r->n_params != sys->n_params)
        return hes__fail(sys, HES_EINVAL, "shape result: %d parameters, the system's model "
                         "'%s' has %d (a result of another model?)", r->n_params, sys->name,
                         sys->n_params);
    for (int i = 0; i < r->n_params; i++) {
        hes_status st = hes_system_set_param(sys, sys->params[i].name, r->params[i]);
        if (st != HES_OK)
            return st;
    }
    return HES_OK;
}

/* Whether a parameter named in o (every shape parameter when o->n is 0)
 * moves the orbit, into *moves; HES_OK, or the failure said on sys: a
 * missing name (HES_EINVAL), an unknown one (HES_ENOTFOUND), a solved one
 * (HES_EINVAL). */
static hes_status moves_orbit(hes_system *sys, const hes_shape_options *o, int *moves)
{
    const hes_model *m = sys->model;
    *moves = 0;
    for (int j = 0; j < o->n; j++) {
        if (!o->names || !o->names[j])
            return hes__fail(sys, HES_EINVAL, "shape optimisation: parameter name %d is "
                             "missing (NULL)", j);
        int i = hes_model_param_index(m, o->names[j]);
        if (i < 0)
            return hes__fail(sys, HES_ENOTFOUND, "shape optimisation: no parameter '%s' in "
                             "model '%s'", o->names[j], m->name);
        if (m->params[i].flags & HES_PARAM_SOLVED)
            return hes__fail(sys, HES_EINVAL, "shape optimisation: '%s' is solved by the "
                             "orbit search, not a parameter to optimise", m->params[i].name);
        *moves |= !(m->params[i].flags & HES_PARAM_SHAPE);
    }
    return HES_OK;
}

/* The lost evaluation nearest the optimum c->best_h, in units of the
 * bounds, into r->lost_at and r->lost_why. */
static hes_status nearest_lost(objective_ctx *c, hes_system *sys)
{
    hes_shape_result *r = c->res;
    int n = r->n, best = -1;
    double dbest = HUGE_VAL;
    for (int k = 0; k < r->lost; k++) {
        double d = 0;
        for (int j = 0; j < n; j++) {
            double u = (c->lost_x[(size_t)k * n + j] - c->best_h[j]) / (r->hi[j] - r->lo[j]);
            d += u * u;
        }
        if (d < dbest)
            dbest = d, best = k;
    }
    if (best < 0)
        return HES_OK;
    if (!(r->lost_at = malloc(sizeof(double) * (size_t)n)))
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    memcpy(r->lost_at, c->lost_x + (size_t)best * n, sizeof(double) * (size_t)n);
    snprintf(r->lost_why, sizeof r->lost_why, "%s", c->lost_msg[best]);
    return HES_OK;
}

static hes_status optimize(hes_system *sys, const hes_shape_options *opts_in, hes_shape_result *r)
{
    if (!sys || !r) {
        if (r)
            memset(r, 0, sizeof *r);
        return sys ? hes__fail(sys, HES_EINVAL, "shape optimisation: nowhere to put the result (NULL)") : HES_EINVAL;
    }
    memset(r, 0, sizeof *r);
    if (sys->kind != HES_KIND_HYBRID)
        return hes__need_hybrid(sys, "shape optimisation (parameters that enter the "
                                "saltation matrices and not the orbit)");
    hes_shape_options o;
    if (opts_in)
        o = *opts_in;
    else
        hes_shape_options_init(&o);
    if (o.starts < 1 || o.maxeval < 1 || !(o.ftol_rel >= 0) || o.n < 0 ||
        (o.measure != HES_MEASURE_PSI && o.measure != HES_MEASURE_SMOOTH))
        return hes__fail(sys, HES_EINVAL, "shape optimisation: need starts >= 1, maxeval >= 1 and a known measure");
    int moves;
    hes_status st = moves_orbit(sys, &o, &moves);
    if (st != HES_OK)
        return st;
    nlopt_algorithm alg = o.algorithm ? nlopt_algorithm_from_string(o.algorithm)
                        : moves ? NLOPT_LN_NELDERMEAD : NLOPT_LD_SLSQP;
    if ((int)alg < 0)
        return hes__fail(sys, HES_EINVAL, "unknown NLopt algorithm '%s' (names as in NLopt, e.g. "
                         "LD_MMA, LD_SLSQP, LN_BOBYQA, GN_DIRECT_L)", o.algorithm);
    snprintf(r->algorithm, sizeof r->algorithm, "%s", nlopt_algorithm_to_string(alg));
    st = precheck(sys, &o);
    if (st != HES_OK)
        return st;

    hes_analysis nominal;
    st = hes_analyze(sys, 0, &nominal);
    if (st != HES_OK)
        return st;
    hes_shape *sh = NULL;
    if (!moves && (st = hes_shape_new(sys, &nominal, o.n, o.names, &sh)) != HES_OK) {
        hes_analysis_free(&nominal);
        return st;
    }
    int n = r->n = moves ? o.n : hes_shape_count(sh);
    r->moves_orbit = moves;
    r->param = malloc(sizeof(int) * (size_t)n);
    r->h = malloc(sizeof(double) * (size_t)n);
    r->lo = malloc(sizeof(double) * (size_t)n);
    r->hi = malloc(sizeof(double) * (size_t)n);
    r->start = malloc(sizeof(double) * (size_t)n);
    double *work = malloc(sizeof(double) * (3 * (size_t)n + (size_t)nominal.orbit.n +
                                            (size_t)sys->n_params + 1));
    objective_ctx c = { .sh = sh, .o = &o, .res = r, .best = HUGE_VAL, .best_h = work,
                        .xt = work ? work + n : NULL, .err = HES_OK, .sys = sys,
                        .warm = work ? work + 3 * n : NULL,
                        .warm_p = work ? work + 3 * n + nominal.orbit.n : NULL };
    double *x = work ? work + 2 * n : NULL;
    if (!r->param || !r->h || !r->lo || !r->hi || !r->start || !work) {
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
        goto out;
    }
    for (int j = 0; j < n; j++) {
        r->param[j] = moves ? hes_model_param_index(sys->model, o.names[j])
                            : hes_shape_param(sh, j);
        if ((st = bounds_of(sys, &o, j, r->param[j], &r->lo[j], &r->hi[j], &x[j])) != HES_OK)
            goto out;
        r->start[j] = x[j];
    }
    if (moves) {
        /* the search starts from the system's orbit; one start, no polish */
        memcpy(c.warm, nominal.orbit.x0, sizeof(double) * (size_t)nominal.orbit.n);
        memcpy(c.warm_p, sys->p, sizeof(double) * (size_t)sys->n_params);
        c.have_warm = 1;
        r->psi_initial = reanalysed(&c, x);
        if (!isfinite(r->psi_initial)) {
            st = hes__fail(sys, c.err != HES_OK ? c.err : HES_ENOORBIT, "shape optimisation: "
                           "no orbit at the start values: %s", r->lost ? c.lost_msg[0] : "");
            goto out;
        }
        o.starts = 1;
        o.polish = 0;
    } else {
        hes_shape_eval_result ev;
        if ((st = hes_shape_eval(sh, x, 0, &ev)) != HES_OK)
            goto out;
        r->psi_initial = ev.psi;
    }
    r->gradient = is_gradient_based(alg) ? o.gradient != 0 : -1;
    if (moves && r->gradient == 1)
        r->gradient = 0;     /* differences of re-analyses: no analytic gradient */

    /* a global algorithm covers the box itself: one run, no restarts */
    const char *an = nlopt_algorithm_to_string(alg);
    if (an && an[0] == 'G')
        o.starts = 1;
    snprintf(r->polish, sizeof r->polish, "%s",
             o.polish ? (n >= 2 ? "LN_BOBYQA" : "LN_NELDERMEAD") : "");
    r->starts = o.starts;
    unsigned long long rng = o.seed;
    double *start = malloc(sizeof(double) * (size_t)n);
    if (!start) {
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
        goto out;
    }
    memcpy(start, x, sizeof(double) * (size_t)n);
    for (int s = 0; s < o.starts && st == HES_OK && !(c.best <= o.stopval); s++) {
        for (int j = 0; j < n; j++)
            x[j] = s == 0 ? start[j] : r->lo[j] + (r->hi[j] - r->lo[j]) * hes__rng_uniform(&rng);
        st = run(&c, alg, x, o.maxeval);
    }
    if (st == HES_OK && o.polish && isfinite(c.best) && !(c.best <= o.stopval)) {
        memcpy(x, c.best_h, sizeof(double) * (size_t)n);
        st = run(&c, nlopt_algorithm_from_string(r->polish), x, o.maxeval);
    }
    free(start);
    if (st == HES_OK && c.err == HES_ENOMEM)
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
    if (st != HES_OK)
        goto out;
    if (!isfinite(c.best)) {
        st = hes__fail(sys, c.err != HES_OK ? c.err : HES_ESOLVER,
                       "shape optimisation found no point where psi could be evaluated");
        goto out;
    }
    memcpy(r->h, c.best_h, sizeof(double) * (size_t)n);
    r->measure = c.best;
    if (moves)
        memcpy(sys->p, c.warm_p, sizeof(double) * (size_t)sys->n_params);
    for (int j = 0; j < n; j++)
        sys->p[r->param[j]] = r->h[j];
    if (moves && ((st = nearest_lost(&c, sys)) != HES_OK ||
                  (st = hes_system_set_orbit_start(sys, c.warm)) != HES_OK))
        goto out;
    /* the optimum from scratch: orbit, full-system verification, monodromy */
    hes_shape_destroy(sh);
    sh = NULL;
    hes_analysis_free(&nominal);
    if ((st = hes_analyze(sys, 0, &r->analysis)) != HES_OK)
        goto out;
    r->psi = r->analysis.stab.psi;
    if (!(r->params = malloc(sizeof(double) * (size_t)(sys->n_params + 1)))) {
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
        goto out;
    }
    r->n_params = sys->n_params;
    memcpy(r->params, sys->p, sizeof(double) * (size_t)sys->n_params);
out:
    hes_shape_destroy(sh);
    hes_analysis_free(&nominal);
    free(work);
    free(c.lost_x);
    free(c.lost_msg);
    if (st != HES_OK) /* the message stays: freeing results does not touch the system */
        hes_shape_result_free(r);
    return st;
}

static const char *const measure_names[] = { "psi", "smooth" };

const char *hes_measure_name(hes_measure measure)
{
    return measure == HES_MEASURE_PSI || measure == HES_MEASURE_SMOOTH ? measure_names[measure]
                                                                      : NULL;
}

hes_status hes_measure_from_name(const char *name, hes_measure *measure)
{
    int i = hes__name_index(measure_names, 2, name);
    if (i < 0 || !measure)
        return HES_EINVAL;
    *measure = (hes_measure)i;
    return HES_OK;
}
