/*
 * analyze_ess.c - hes_analyze for a system of an event-selected model: the
 * orbit pipeline's ESS flow.  The orbit is hes_ess_orbit_find's (the one
 * shooting solver on the section x_c = v, base/newton.h) from the model's
 * guess or the system's orbit start and period, with the system's orbit
 * options; its monodromy Phi = d x(T) / d x0 is the integrator's exact
 * derivative of its discrete flow, and the multipliers are those of the
 * return map P = (I - F e_c^T / F_c) Phi (hes_stability_compute, as for the
 * hybrid flow).
 *
 * The independent check (check != 0): Phi against central differences of
 * full ESS runs over the same time T, column k from x0 +- h_k e_k with
 * h_k = rtol^(1/3) max(1, |x0_k|).  The runs' adaptive steps differ with the
 * start, so each carries an error of about rtol: the difference quotient's
 * error is O(h^2) + O(rtol / h), balanced by that step at about rtol^(2/3).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ess/ess.h"
#include "hybrid/hybrid.h"

/* The end state of a run of length T from x (no Jacobian). */
static hes_status end_state(hes_ess *e, const hes_ess_options *o, const double *x, double T,
                            double *out)
{
    hes_ess_result r;
    hes_status st = hes_ess_run(e, o, 0, x, T, &r);
    if (st == HES_OK)
        memcpy(out, r.x_end, (size_t)e->n * sizeof *out);
    hes_ess_result_free(&r);
    return st;
}

/* max |Phi - Phi_fd| over the entries (the check of hes_analyze). */
static hes_status check_monodromy(hes_system *sys, const hes_analysis *res, double *diff)
{
    hes_ess *e = sys->ess;
    int n = res->orbit.n;
    hes_ess_options o = sys->eopt.ess;
    o.jacobian = 0;
    o.record = 0;
    o.n_out = 0;
    o.t_out = NULL;
    double *x = malloc(3 * (size_t)n * sizeof *x), *xp = x ? x + n : NULL, *xm = xp ? xp + n : NULL;
    if (!x)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    hes_status st = HES_OK;
    double d = 0, c = cbrt(o.rtol);
    for (int k = 0; k < n && st == HES_OK; k++) {
        double h = c * fmax(1.0, fabs(res->orbit.x0[k]));
        memcpy(x, res->orbit.x0, (size_t)n * sizeof *x);
        x[k] += h;
        if ((st = end_state(e, &o, x, res->orbit.period, xp)) != HES_OK)
            break;
        x[k] -= 2 * h;
        if ((st = end_state(e, &o, x, res->orbit.period, xm)) != HES_OK)
            break;
        for (int i = 0; i < n; i++)
            d = fmax(d, fabs(res->mono.phi[i + (size_t)k * n] - (xp[i] - xm[i]) / (2 * h)));
    }
    free(x);
    if (st != HES_OK)
        return hes__fail(sys, st, "the check of the monodromy by central differences: a "
                         "perturbed run failed (%s)", hes_ess_errmsg(e));
    *diff = d;
    return HES_OK;
}

hes_status hes__analyze_ess(hes_system *sys, int check, const hes__orbit_extra *extra,
                            hes_analysis *res)
{
    const hes_ess_model *m = sys->ess_model;
    const double *xg = sys->orbit_start ? sys->orbit_start : m->orbit_x0;
    double Tg = isnan(sys->orbit_period) ? m->orbit_period : sys->orbit_period;
    if (!xg)
        return hes__fail(sys, HES_EINVAL, "'%s' declares no periodic orbit guess: give a state "
                         "on the section, the period and the section component "
                         "(hes_system_set_orbit_start, hes_system_set_orbit_period, "
                         "hes_system_set_ess_options)", m->name);
    hes_status st = hes_system_check_params(sys);
    if (st != HES_OK)
        return st;
    hes_ess *ess = hes_system_ess(sys);   /* with the system's parameters */
    hes_ess_orbit *r = calloc(1, sizeof *r);
    int n = m->n, c = sys->eopt.section;
    double *w = extra ? malloc((size_t)(n + 1) * sizeof *w) : NULL;
    if (!r || (extra && !w)) {
        free(r);
        free(w);
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    }
    /* the extra equation over (the n states, p) in the orbit search's
       unknowns (the states but x_c, T, p): x_c is fixed at the guess's */
    hes__ess_extra ee = { extra ? extra->param : -1, w, extra ? extra->c : 0 };
    for (int k = 0, q = 0; extra && k < n; k++) {
        if (k == c)
            ee.c -= extra->w[k] * xg[k];
        else
            w[q++] = extra->w[k];
    }
    if (extra) {
        w[n - 1] = 0;            /* the period */
        w[n] = extra->w[n];      /* the parameter */
    }
    st = hes__ess_orbit_find_extra(ess, &sys->eopt, extra ? &ee : NULL, xg, Tg, r);
    free(w);
    if (st == HES_OK && extra)   /* the parameter as solved */
        sys->p[extra->param] = hes_ess_params(ess)[extra->param];
    if (st != HES_OK) {
        hes__fail(sys, st, "%s", hes_ess_errmsg(ess));
        hes_ess_orbit_free(r);
        free(r);
        return st;
    }
    n = r->n;
    hes_orbit *o = &res->orbit;
    o->mode = 0;
    o->period = r->period;
    o->n = n;
    o->iterations = r->iterations;
    o->residual = r->residual;
    o->autonomous = 1;
    o->x0 = malloc((size_t)n * sizeof *o->x0);
    o->flow = malloc((size_t)n * sizeof *o->flow);
    res->ess = r;
    res->mono = r->mono; /* moved: the analysis owns them */
    res->stab = r->stab;
    memset(&r->mono, 0, sizeof r->mono);
    memset(&r->stab, 0, sizeof r->stab);
    if (!o->x0 || !o->flow)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    memcpy(o->x0, r->x0, (size_t)n * sizeof *o->x0);
    memcpy(o->flow, r->flow, (size_t)n * sizeof *o->flow);
    if (check && (st = check_monodromy(sys, res, &res->check_max_abs_diff)) != HES_OK)
        return st;
    res->have_check = check != 0;
    return HES_OK;
}
