/*
 * ess_orbit.c - a periodic orbit of an ESS model by the ESS integrator
 * (lib/ess/ess.c), its monodromy and its multipliers ("with
 * it, hes analyze can compute the monodromy and multipliers of a periodic
 * orbit simulated by ESS").
 *
 * Shooting on the section x_c = v.  Unknowns z = (x0 without x0_c, T);
 * residual r(z) = x(T; x0) - x0 (n equations, n unknowns); Jacobian
 *   dr/dx0_k = J e_k - e_k   (k != c),   dr/dT = F = f(x(T), s(T)),
 * J = d x(T) / d x0 the integrator's exact derivative of its discrete flow.
 * The Newton step is the least-squares solution of minimum norm (LAPACK
 * dgelsd, singular values below 1e-12 of the largest dropped): a family of
 * orbits (a conservative system, where J - I is singular along the family)
 * then gives the nearest member instead of a singular solve.  Each step is
 * halved until the residual's max norm decreases (at most 30 times); when
 * none does and the residual is already within ten times the integration's
 * accuracy, rtol (1 + |x0|) + atol, the orbit is taken as converged (tol
 * below that is noise).
 *
 * At the orbit: the monodromy is Phi = J and the return map's Jacobian on
 * the section is P = (I - F e_c^T / F_c) J (hes__flow_projector: the
 * variation of x0 carried to where its flow meets the section again), with
 * e_c^T P = 0; hes_stability_compute finds its nontrivial multipliers as for
 * the hybrid pipeline's monodromy (normal e_c).  F_c = 0 (the flow tangent to
 * the section) is HES_EGRAZING.
 */
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/newton.h"
#include "ess/ess.h"
#include "hybrid/hybrid.h"

void hes_ess_orbit_free(hes_ess_orbit *res)
{
    if (!res)
        return;
    free(res->x0);
    free(res->flow);
    hes_monodromy_free(&res->mono);
    hes_stability_free(&res->stab);
    memset(res, 0, sizeof *res);
}

typedef struct {
    double *r, *J, *F;        /* residual (n), Jacobian (n x n), field at x(T) (n) */
    double res;               /* max |r| */
    long proj, refused, sign_changes;
    double deadline, budget;  /* the search's end (monotonic clock) and its length, s */
} period_eval;

/* One period from (0, x) to T with the Jacobian. */
static hes_status period(hes_ess *e, const hes_ess_options *o, const double *x, double T,
                         period_eval *pe)
{
    int n = e->n;
    hes_ess_result rr;
    double left = pe->deadline - hes__monotonic_seconds();
    if (!(left > 0))
        return hes__ess_fail(e, HES_ESOLVER, "the orbit search used its budget of %g s "
                             "(hes_ess_orbit_options.max_wall_time) without converging",
                             pe->budget);
    hes_ess_options run = *o; /* no run beyond the search's own end */
    run.max_wall_time = fmin(o->max_wall_time, left);
    hes_status st = hes_ess_run(e, &run, 0, x, T, &rr);
    if (st == HES_ESOLVER && !(hes__monotonic_seconds() < pe->deadline)) {
        hes_ess_result_free(&rr);
        e->msg[0] = '\0'; /* the run's budget was the search's: say the search's */
        return hes__ess_fail(e, HES_ESOLVER, "the orbit search used its budget of %g s "
                             "(hes_ess_orbit_options.max_wall_time) without converging",
                             pe->budget);
    }
    if (st == HES_OK) {
        pe->res = 0;
        for (int k = 0; k < n; k++) {
            pe->r[k] = rr.x_end[k] - x[k];
            pe->res = fmax(pe->res, fabs(pe->r[k]));
        }
        memcpy(pe->J, rr.jac, (size_t)n * (size_t)n * sizeof *pe->J);
        pe->proj = rr.n_projections;
        pe->refused = rr.n_refused;
        pe->sign_changes = rr.n_sign_changes;
        st = hes__ess_f(e, rr.x_end, rr.s_end, pe->F);
        if (st == HES_OK && !isfinite(pe->res))
            st = hes__ess_fail(e, HES_ENONFINITE, "the period's end state is not finite");
    }
    hes_ess_result_free(&rr);
    return st;
}

static hes_status check_args(hes_ess *e, const hes_ess_orbit_options *o, const double *xg,
                             double Tg, hes_ess_orbit *res)
{
    if (!res)
        return hes__ess_fail(e, HES_EINVAL, "hes_ess_orbit_find: res is NULL");
    if (!xg || !(Tg > 0) || !isfinite(Tg))
        return hes__ess_fail(e, HES_EINVAL, "hes_ess_orbit_find: the guess needs a state and "
                             "a finite period > 0 (got %s, T = %g)", xg ? "a state" : "NULL",
                             Tg);
    if (!hes__all_finite(xg, e->n))
        return hes__ess_fail(e, HES_EINVAL, "hes_ess_orbit_find: the guessed state is not "
                             "finite");
    if (o->section < 0 || o->section >= e->n)
        return hes__ess_fail(e, HES_EINVAL, "hes_ess_orbit_find: section = %d is not a state "
                             "index (0 to %d)", o->section, e->n - 1);
    if (!(o->max_wall_time > 0))
        return hes__ess_fail(e, HES_EINVAL, "hes_ess_orbit_find: max_wall_time = %g, not > 0",
                             o->max_wall_time);
    if (!(o->tol > 0) || !(o->max_iter > 0))
        return hes__ess_fail(e, HES_EINVAL, "hes_ess_orbit_find: tol = %g and max_iter = %d "
                             "must be > 0", o->tol, o->max_iter);
    return HES_OK;
}

/* The ESS flow's shooting problem for the one solver (base/newton.h):
 * u = (x0 without x0_c, T).  pe is the kept iterate's period, trial a
 * trial step's (adopted when the step is taken). */
typedef struct {
    hes_ess *e;
    const hes_ess_orbit_options *o;
    const hes_ess_options *eo;
    double *x;               /* n: the state of u (x_c fixed) */
    double T;
    period_eval *pe, trial;
    const hes__ess_extra *extra; /* NULL, or the parameter as u[n] with w . u = c */
} ess_shooting;

/* Unknowns: n (x0 without x_c, and T), and the parameter with an extra
 * equation. */
static int unknowns(const ess_shooting *s)
{
    return s->e->n + (s->extra != NULL);
}

static hes_status es_residual(void *ctx, const double *u, double *r, int keep)
{
    ess_shooting *s = ctx;
    int n = s->e->n, c = s->o->section;
    double T = u[n - 1];
    if (!(T > 0))
        return HES_EINVAL; /* a trial step to a period <= 0: rejected */
    for (int k = 0, q = 0; k < n; k++)
        if (k != c)
            s->x[k] = u[q++];
    if (s->extra)
        s->e->p[s->extra->param] = u[n];
    period_eval *pe = keep ? s->pe : &s->trial;
    hes_status st = period(s->e, s->eo, s->x, T, pe);
    if (st == HES_OK) {
        memcpy(r, pe->r, (size_t)n * sizeof *r);
        s->T = T;
        if (s->extra) {          /* the linear equation w . u = c */
            double v = -s->extra->c;
            for (int j = 0; j <= n; j++)
                v += s->extra->w[j] * u[j];
            r[n] = v;
        }
    }
    return st;
}

static hes_status es_converged(void *ctx, int it, const double *u, const double *r, double rn,
                               int *done)
{
    (void)it;
    (void)u;
    (void)r;
    *done = !(rn > ((ess_shooting *)ctx)->o->tol);
    return HES_OK;
}

/* dr/dx0_k = J e_k - e_k (k != c), dr/dT = F; with the extra unknown p:
 * dr/dp by central differences of the period (its step h = fd_step-like
 * 1e-6 max(1, |p|)), and the linear equation's row w. */
static hes_status es_jacobian(void *ctx, const double *u, const double *r, double *A)
{
    (void)r;
    ess_shooting *s = ctx;
    int n = s->e->n, c = s->o->section, N = unknowns(s);
    const period_eval *pe = s->pe;
    for (int k = 0, q = 0; k < n; k++) {
        if (k == c)
            continue;
        for (int i = 0; i < n; i++)
            A[i + (size_t)q * N] = pe->J[i + (size_t)k * n] - (i == k);
        q++;
    }
    for (int i = 0; i < n; i++)
        A[i + (size_t)(n - 1) * N] = pe->F[i];
    if (!s->extra)
        return HES_OK;
    size_t nn = (size_t)n * n;
    double *buf = malloc((2 * (size_t)n + nn + 2 * (size_t)n) * sizeof *buf);
    if (!buf)
        return hes__ess_fail(s->e, HES_ENOMEM, "out of memory");
    period_eval pp = { buf, buf + n, buf + n + nn, 0, 0, 0, 0, pe->deadline, pe->budget };
    double *rp = buf + 2 * (size_t)n + nn, *rm = rp + n;
    int kp = s->extra->param;
    double p = u[n], h = 1e-6 * fmax(1, fabs(p));
    hes_status st = HES_OK;
    for (int side = 0; side < 2 && st == HES_OK; side++) {
        s->e->p[kp] = p + (side ? -h : h);
        st = period(s->e, s->eo, s->x, u[n - 1], &pp);
        if (st == HES_OK)
            memcpy(side ? rm : rp, pp.r, (size_t)n * sizeof *rp);
    }
    s->e->p[kp] = p;
    for (int i = 0; st == HES_OK && i < n; i++)
        A[i + (size_t)n * N] = (rp[i] - rm[i]) / (2 * h);
    for (int j = 0; st == HES_OK && j <= n; j++)
        A[n + (size_t)j * N] = s->extra->w[j];
    free(buf);
    return st;
}

static void es_adopt(void *ctx)
{
    ess_shooting *s = ctx;
    int n = s->e->n;
    period_eval *pe = s->pe, *t = &s->trial;
    memcpy(pe->r, t->r, (size_t)n * sizeof *pe->r);
    memcpy(pe->J, t->J, (size_t)n * (size_t)n * sizeof *pe->J);
    memcpy(pe->F, t->F, (size_t)n * sizeof *pe->F);
    pe->res = t->res;
    pe->proj = t->proj;
    pe->refused = t->refused;
    pe->sign_changes = t->sign_changes;
}

/* below the integration's own accuracy no step can do better */
static int es_stalled(void *ctx, const double *u, double rn)
{
    ess_shooting *s = ctx;
    int n = s->e->n;
    double xinf = fabs(s->x[s->o->section]);
    for (int k = 0; k < n - 1; k++)
        xinf = fmax(xinf, fabs(u[k]));
    return rn <= 10 * (s->eo->rtol * (1 + xinf) + s->eo->atol);
}

static void es_describe(void *ctx, char *buf, size_t len)
{
    ess_shooting *s = ctx;
    snprintf(buf, len, ", tol %.3g, T = %.10g", s->o->tol, s->T);
}

static const char *es_errmsg(void *ctx)
{
    return hes_ess_errmsg(((ess_shooting *)ctx)->e);
}

static void es_say(void *ctx, const char *msg)
{
    hes_ess *e = ((ess_shooting *)ctx)->e;
    e->msg[0] = '\0';
    hes__ess_fail(e, HES_OK, "%s", msg);
}

/* Newton's method from (x, T), both updated in place; pe receives the
 * converged period. */
static hes_status newton(hes_ess *e, const hes_ess_orbit_options *o, const hes_ess_options *eo,
                         const hes__ess_extra *extra, double *x, double *T, period_eval *pe,
                         double *work, int *iters)
{
    int n = e->n, c = o->section;
    size_t nn = (size_t)n * n;   /* work: u (n + 1), the trial's r, J, F, then x */
    double *u = work, *xt = u + n + 1;
    ess_shooting s = { e, o, eo, xt + 2 * n + nn, *T, pe,
                       { xt, xt + n, xt + n + nn, 0, 0, 0, 0, pe->deadline, pe->budget },
                       extra };
    memcpy(s.x, x, (size_t)n * sizeof *x);
    for (int k = 0, q = 0; k < n; k++)
        if (k != c)
            u[q++] = x[k];
    u[n - 1] = *T;
    if (extra)
        u[n] = e->p[extra->param];
    hes__newton_problem prob = { unknowns(&s), &s, es_residual, es_converged, es_jacobian,
                                 es_adopt, es_stalled, es_describe, es_errmsg, es_say, NULL };
    hes__newton_options no = { o->max_iter, 1, 0.0, 30, pe->deadline, pe->budget,
                               "hes_ess_orbit_options.max_wall_time", HES_ESOLVER };
    double rn;
    hes_status st = hes__newton(&prob, &no, u, iters, &rn);
    for (int k = 0, q = 0; k < n; k++)
        if (k != c)
            x[k] = u[q++];
    *T = u[n - 1];
    if (extra)
        e->p[extra->param] = u[n];
    return st;
}

/* The return map (I - F e_c^T / F_c) J of a converged period into mono
 * (its normal, n, and proj; the caller sets phi) and its multipliers into
 * stab.  proj_work: n x n scratch. */
static hes_status return_map(int n, int c, const period_eval *pe, const hes_ess_options *eo,
                             double tol, double *proj_work, hes_monodromy *mono,
                             hes_stability *stab)
{
    memset(mono->normal, 0, (size_t)n * sizeof *mono->normal);
    mono->normal[c] = 1;
    hes__flow_projector(n, pe->F, mono->normal, pe->F[c], proj_work);
    hes__matmul(n, n, n, proj_work, pe->J, mono->proj);
    mono->n = n;
    mono->autonomous = 1;
    mono->accuracy = fmax(100 * fmax(eo->rtol, eo->atol), tol);
    return hes_stability_compute(mono, stab);
}

/* psi of a converged period (work: 2 n^2 + n doubles) */
static hes_status psi_of(hes_ess *e, const hes_ess_orbit_options *o, const hes_ess_options *eo,
                         const period_eval *pe, double *work, double *psi)
{
    int n = e->n;
    size_t nn = (size_t)n * n;
    hes_monodromy mono = { .phi = (double *)pe->J, .proj = work + nn, .normal = work + 2 * nn };
    hes_stability stab;
    hes_status st = return_map(n, o->section, pe, eo, o->tol, work, &mono, &stab);
    *psi = stab.psi;
    hes_stability_free(&stab);
    return st;
}

/* The check of eps (options.check_eps): the orbit again at eps / 2,
 * eps / 4 and eps / 8, warm started.  With d1 = psi(eps) - psi(eps / 2),
 * d2 = psi(eps / 2) - psi(eps / 4) and d3, and the same for the period,
 * the observed order is log2(|d1| / |d2|) (2 for the method, whose error
 * is C eps^2 + ...) when log2(|d2| / |d3|) agrees with it to 0.5 (else the
 * smaller of the two: eps is not in the asymptotic range, as where the
 * band spans guards closer than eps), and the discretization error of psi
 * at eps is about (4 / 3) |d1| (Richardson).  An orbit that is not found
 * again, or whose psi or period changes at an order below 1.5 (where the
 * change is above the integration's noise), is an artifact of the band,
 * not an orbit of the system: HES_ENOORBIT.  The error joins stab.psi_tol,
 * and the verdict is taken again with it. */
static hes_status check_eps(hes_ess *e, const hes_ess_orbit_options *opts, hes_ess_options *eo,
                            hes_ess_orbit *res, period_eval *pe, double *work)
{
    int n = e->n;
    double psi[4] = { res->stab.psi }, T[4] = { res->period };
    double *x = malloc((size_t)n * sizeof *x), Tq = res->period;
    if (!x)
        return hes__ess_fail(e, HES_ENOMEM, "out of memory for the ESS orbit");
    memcpy(x, res->x0, (size_t)n * sizeof *x);
    hes_status st = HES_OK;
    for (int q = 1; q <= 3 && st == HES_OK; q++) {
        int it;
        eo->eps = opts->ess.eps / (1 << q);
        st = newton(e, opts, eo, NULL, x, &Tq, pe, work, &it);
        if (st == HES_OK)
            st = psi_of(e, opts, eo, pe, work, &psi[q]);
        T[q] = Tq;
        if (st != HES_OK) {
            char why[256];
            snprintf(why, sizeof why, "%s", hes_ess_errmsg(e));
            e->msg[0] = '\0';
            st = hes__ess_fail(e, HES_ENOORBIT, "the orbit found at eps = %g is not found "
                               "again at eps = %g (%s): it does not persist as the band "
                               "shrinks, an artifact of too coarse an eps", opts->ess.eps,
                               eo->eps, why);
        }
    }
    eo->eps = opts->ess.eps;
    free(x);
    if (st != HES_OK)
        return st;
    double d1 = psi[0] - psi[1], d2 = psi[1] - psi[2], dT1 = T[0] - T[1], dT2 = T[1] - T[2];
    double noise = fmax(10 * res->stab.psi_tol, 1e-12), noiseT = 100 * eo->rtol * T[0];
    double op = fabs(d1) > noise ? log2(fabs(d1) / fmax(fabs(d2), DBL_MIN)) : NAN;
    double oT = fabs(dT1) > noiseT ? log2(fabs(dT1) / fmax(fabs(dT2), DBL_MIN)) : NAN;
    /* the next pair must agree (eps in the asymptotic range: a band that
       spans guards closer than eps can show order 2 by chance) */
    double d3 = psi[2] - psi[3], dT3 = T[2] - T[3];
    double op2 = fabs(d2) > noise ? log2(fabs(d2) / fmax(fabs(d3), DBL_MIN)) : NAN;
    double oT2 = fabs(dT2) > noiseT ? log2(fabs(dT2) / fmax(fabs(dT3), DBL_MIN)) : NAN;
    if ((isfinite(op) && isfinite(op2) && fabs(op - op2) > 0.5) ||
        (isfinite(oT) && isfinite(oT2) && fabs(oT - oT2) > 0.5))
        op = fmin(op, op2), oT = fmin(oT, oT2);
    res->eps_order = op;
    res->eps_error = 4.0 / 3.0 * fabs(d1);
    if (op < 1.5 || oT < 1.5)
        return hes__ess_fail(e, HES_ENOORBIT, "the orbit does not converge as the band "
                             "shrinks: psi = %.10g, %.10g, %.10g and period %.10g, %.10g, "
                             "%.10g at eps, eps / 2, eps / 4 (eps = %g; and %.10g, %.10g at "
                             "eps / 8) change at order %.2g and %.2g, not 2: an artifact of "
                             "too coarse an eps, or no orbit of the system", psi[0], psi[1],
                             psi[2], T[0], T[1], T[2], opts->ess.eps, psi[3], T[3], op, oT);
    res->stab.psi_tol = fmax(res->stab.psi_tol, res->eps_error);
    res->stab.verdict = hes_verdict_of(res->stab.psi, res->stab.psi_tol);
    res->stab.stable = res->stab.verdict == HES_STABLE;
    return HES_OK;
}

hes_status hes_ess_orbit_find(hes_ess *e, const hes_ess_orbit_options *opts,
                              const double *x_guess, double T_guess, hes_ess_orbit *res)
{
    return hes__ess_orbit_find_extra(e, opts, NULL, x_guess, T_guess, res);
}

hes_status hes__ess_orbit_find_extra(hes_ess *e, const hes_ess_orbit_options *opts,
                                     const hes__ess_extra *extra, const double *x_guess,
                                     double T_guess, hes_ess_orbit *res)
{
    if (!e)
        return HES_EINVAL;
    e->msg[0] = '\0';
    hes_ess_orbit_options def;
    if (!opts) {
        hes_ess_orbit_options_init(&def);
        opts = &def;
    }
    if (res)
        memset(res, 0, sizeof *res);
    hes_status st = check_args(e, opts, x_guess, T_guess, res);
    if (st != HES_OK)
        return st;
    int n = e->n, c = opts->section;
    size_t nn = (size_t)n * n;
    hes_ess_options eo = opts->ess;
    eo.jacobian = 1;
    eo.record = 0;
    eo.n_out = 0;
    eo.t_out = NULL;
    /* newton's work (u, a trial's r, J, F, x: nn + 4 n; then psi_of's 2 nn + n), then the
       accepted period's r, J, F (nn + 2 n) */
    double *work = malloc((3 * nn + 8 * (size_t)n + 1) * sizeof *work);
    res->x0 = malloc((size_t)n * sizeof *res->x0);
    res->flow = malloc((size_t)n * sizeof *res->flow);
    res->mono.phi = malloc(nn * sizeof *res->mono.phi);
    res->mono.proj = malloc(nn * sizeof *res->mono.proj);
    res->mono.normal = calloc((size_t)n, sizeof *res->mono.normal);
    if (!work || !res->x0 || !res->flow || !res->mono.phi || !res->mono.proj ||
        !res->mono.normal) {
        free(work);
        return hes__ess_fail(e, HES_ENOMEM, "out of memory for the ESS orbit");
    }
    res->n = n;
    res->section = c;
    memcpy(res->x0, x_guess, (size_t)n * sizeof *res->x0);
    res->period = T_guess;
    double *base = work + 2 * nn + 6 * (size_t)n + 1;
    period_eval pe = { base, base + n, base + n + nn, 0, 0, 0, 0,
                       hes__monotonic_seconds() + opts->max_wall_time, opts->max_wall_time };
    if (extra && !(extra->param >= 0 && extra->param < e->model->n_params && extra->w))
        st = hes__ess_fail(e, HES_EINVAL, "hes_ess_orbit_find: a bad extra equation");
    if (st == HES_OK)
        st = newton(e, opts, &eo, extra, res->x0, &res->period, &pe, work, &res->iterations);
    res->residual = pe.res;
    if (st == HES_OK) {
        res->n_projections = pe.proj;
        res->n_refused = pe.refused;
        res->n_sign_changes = pe.sign_changes;
        memcpy(res->flow, pe.F, (size_t)n * sizeof *res->flow);
        double Fn = 0, xinf = 0;
        for (int k = 0; k < n; k++) {
            Fn = fmax(Fn, fabs(pe.F[k]));
            xinf = fmax(xinf, fabs(res->x0[k]));
        }
        if (!(Fn * res->period > 1e-8 * (1 + xinf)))
            st = hes__ess_fail(e, HES_ENOORBIT, "Newton's method reached "
                               "an equilibrium (|f| = %.3g at x0), which is periodic with any "
                               "period: start nearer the orbit", Fn);
        else if (!(fabs(pe.F[c]) > 1e-8 * Fn)) {
            char buf[32];
            snprintf(buf, sizeof buf, "x[%d]", c);
            const char *name = e->model->state_names ? e->model->state_names[c] : buf;
            st = hes__ess_fail(e, HES_EGRAZING, "the flow is tangent to the section %s = %.10g "
                               "at the orbit (f_c = %.3g, |f| = %.3g): choose another section "
                               "component", name, res->x0[c], pe.F[c], Fn);
        }
    }
    if (st == HES_OK) {
        memcpy(res->mono.phi, pe.J, nn * sizeof *pe.J);
        st = return_map(n, c, &pe, &eo, opts->tol, work, &res->mono, &res->stab);
        if (st != HES_OK)
            st = hes__ess_fail(e, st, "the multipliers of the ESS orbit: %s", hes_strerror(st));
    }
    res->eps_error = res->eps_order = NAN;
    if (st == HES_OK && opts->check_eps)
        st = check_eps(e, opts, &eo, res, &pe, work);
    free(work);
    return st;
}
