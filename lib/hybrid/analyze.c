/*
 * analyze.c - hes_analyze(), the one call that does orbit -> monodromy ->
 * multipliers; the model's supplied Jacobians checked at the orbit (by
 * default), and the optional independent check: the analysed matrix
 * recomputed by central differences of the full nonlinear return map.
 * A system of an event-selected model takes the ESS flow's branch
 * (analyze_ess.c).
 */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid/hybrid.h"

void hes_analysis_free(hes_analysis *res)
{
    if (!res)
        return;
    hes_orbit_free(&res->orbit);
    hes_ess_orbit_free(res->ess);
    free(res->ess);
    hes_monodromy_free(&res->mono);
    hes_stability_free(&res->stab);
    memset(res, 0, sizeof *res);
}

/* The model's supplied Jacobians against central differences of its own
 * callbacks at the orbit's states: each mode's state before the event that
 * ends its phase (at_end) or just after the event that starts it.  Not
 * fatal by itself: a reset may refuse a state of its mode off its own event
 * (every transition from a mode is checked at one state of the mode); where
 * says what could not be checked, and the worst error is then NaN, unless
 * one compared before disagrees: where and the error name it. */
static void jacobians_at(hes_system *sys, const hes_orbit *orbit, int at_end,
                         hes_deriv_report *rep)
{
    const hes_model *m = hes_system_model(sys);
    const double **xs = calloc((size_t)m->n_modes, sizeof *xs);
    const hes_traj *tr = &orbit->traj;
    memset(rep, 0, sizeof *rep);
    if (!xs) {
        snprintf(rep->where, sizeof rep->where, "out of memory");
        rep->max_rel_err = NAN;
        return;
    }
    for (int k = 0; k < tr->n_phases; k++)
        if (at_end)
            xs[tr->phases[k].mode] = k < tr->n_events ? tr->events[k].x_minus : tr->phases[k].x1;
        else if (!xs[tr->phases[k].mode])
            xs[tr->phases[k].mode] = tr->phases[k].x0;
    if (hes_model_check_derivatives(m, hes_system_params(sys), orbit->t0, xs, rep) != HES_OK &&
        !rep->disagree)
        rep->max_rel_err = NAN;
    free(xs);
}

/* The supplied Jacobians at two states of each mode of the orbit (the
 * phase's start and its end): res->jacobians holds the worse report.  A
 * Jacobian that disagrees with its own callback's differences (relative
 * error above HES_DERIV_TOL) would give a wrong monodromy and verdict with
 * nothing to show for it: with settings.check_derivatives that is an error
 * naming the entry. */
hes_status hes__analysis_check_jacobians(hes_system *sys, hes_analysis *res)
{
    hes_deriv_report end, start;
    jacobians_at(sys, &res->orbit, 1, &end);
    jacobians_at(sys, &res->orbit, 0, &start);
    int take_start = start.disagree > end.disagree ||
                     (start.disagree == end.disagree && start.max_rel_err > end.max_rel_err);
    res->jacobians = take_start ? start : end;
    res->jacobians.n_checked = end.n_checked > start.n_checked ? end.n_checked : start.n_checked;
    if (res->jacobians.disagree && sys->set.check_derivatives)
        return hes__fail(sys, HES_EMODEL, "the model's %s disagrees with central differences of "
                         "its own callback at the orbit (relative error %.3g, above %g): a wrong "
                         "Jacobian gives a wrong monodromy and verdict; correct it, or remove it "
                         "to have differences used (the check can be turned off: "
                         "settings.check_derivatives, --no-check-derivatives)",
                         res->jacobians.where, res->jacobians.max_rel_err, HES_DERIV_TOL);
    return HES_OK;
}

/* The names of model m's symmetries, comma-separated, into buf. */
static const char *symmetry_list(const hes_model *m, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < m->orbit.n_symmetries && at < len; i++) {
        const char *name = m->orbit.symmetry_names ? m->orbit.symmetry_names[i] : NULL;
        int w = name ? snprintf(buf + at, len - at, "%s%s", i ? ", " : "", name)
                     : snprintf(buf + at, len - at, "%s%d", i ? ", " : "", i);
        at += w > 0 ? (size_t)w : 0;
    }
    return buf;
}

hes_status hes_analyze(hes_system *sys, int check, hes_analysis *res)
{
    return hes__analyze_extra(sys, check, NULL, res);
}

hes_status hes__analyze_extra(hes_system *sys, int check, const hes__orbit_extra *extra,
                              hes_analysis *res)
{
    if (!res)
        return sys ? hes__fail(sys, HES_EINVAL, "analyze: nowhere to put the analysis (NULL)") : HES_EINVAL;
    memset(res, 0, sizeof *res);
    if (!sys)
        return HES_EINVAL;
    char buf[256];
    if (sys->kind == HES_KIND_ESS) { /* the same pipeline on the ESS flow */
        hes_status st = hes__analyze_ess(sys, check, extra, res);
        if (st != HES_OK)
            hes_analysis_free(res);
        return st;
    }
    hes_status st = hes__orbit_find_extra(sys, extra, &res->orbit);
    if (st == HES_OK)
        st = hes_monodromy_compute(sys, &res->orbit.traj, res->orbit.autonomous, &res->mono);
    if (st == HES_OK) {
        st = hes_stability_compute(&res->mono, &res->stab);
        if (st == HES_EDEFECTIVE && res->stab.n_symmetric > 0 &&
            isnan(res->stab.symmetry_residual))
            hes__fail(sys, st, "model %s: its symmetries' generators (%s) are dependent at the "
                      "orbit's start", sys->model->name,
                      symmetry_list(sys->model, buf, sizeof buf));
        else if (st == HES_EDEFECTIVE && res->stab.n_symmetric > 0)
            hes__fail(sys, st, "model %s: the return map does not leave its symmetries (%s) "
                      "invariant: |W^T M U| = %.3g relative (declared symmetries must map "
                      "orbits to orbits, be independent and be tangent to the section)",
                      sys->model->name, symmetry_list(sys->model, buf, sizeof buf),
                      res->stab.symmetry_residual);
        else if (st == HES_EDEFECTIVE)
            hes__fail(sys, st, "no left eigenvector of the return-map Jacobian lies along the "
                      "section normal: the orbit or its linearisation is inconsistent");
        else if (st == HES_ENONFINITE)
            hes__fail(sys, st, "the return-map Jacobian (or the section normal) has a "
                      "non-finite entry");
        else if (st != HES_OK)
            hes__fail(sys, st, "eigenvalue computation (dgeev) failed: %s", hes_strerror(st));
    }
    if (st == HES_OK)
        st = hes_simultaneous_orbit(sys, res, res->simultaneous, 4, &res->n_simultaneous);
    if (st == HES_OK && check) {
        int n = res->mono.n; /* hes_return_map_fd's size too: the tangent dimension */
        const double *M = res->mono.autonomous ? res->mono.proj : res->mono.phi;
        double *fd = malloc(sizeof(double) * (size_t)n * n);
        if (!fd)
            st = hes__fail(sys, HES_ENOMEM, "out of memory");
        else if ((st = hes_return_map_fd(sys, &res->orbit, fd)) == HES_OK) {
            double d = 0;
            for (int i = 0; i < n * n; i++)
                d = fmax(d, fabs(M[i] - fd[i]));
            res->have_check = 1;
            res->check_max_abs_diff = d;
        }
        free(fd);
    }
    if (st == HES_OK && (check || sys->set.check_derivatives))
        st = hes__analysis_check_jacobians(sys, res);
    if (st != HES_OK) /* the message stays: freeing results does not touch the system */
        hes_analysis_free(res);
    return st;
}
