/*
 * analyze.c - hes_analyze(), the one call that does orbit -> monodromy ->
 * multipliers, with the optional independent check: the analysed matrix
 * recomputed by central differences of the full nonlinear return map.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid/hybrid.h"

void hes_analysis_free(hes_analysis *res)
{
    if (!res)
        return;
    hes_orbit_free(&res->orbit);
    hes_monodromy_free(&res->mono);
    hes_stability_free(&res->stab);
    memset(res, 0, sizeof *res);
}

hes_status hes_analyze(hes_system *sys, int check, hes_analysis *res)
{
    if (!res)
        return sys ? hes__fail(sys, HES_EINVAL, "analyze: nowhere to put the analysis (NULL)") : HES_EINVAL;
    memset(res, 0, sizeof *res);
    if (!sys)
        return HES_EINVAL;
    hes_status st = hes_orbit_find(sys, &res->orbit);
    if (st == HES_OK)
        st = hes_monodromy_compute(sys, &res->orbit.traj, res->orbit.autonomous, &res->mono);
    if (st == HES_OK) {
        st = hes_stability_compute(&res->mono, &res->stab);
        if (st == HES_EDEFECTIVE)
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
        int n = res->mono.n;
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
    if (st == HES_OK && check) { /* the supplied Jacobians at the orbit's states */
        const hes_model *m = hes_system_model(sys);
        const double **xs = calloc((size_t)m->n_modes, sizeof *xs);
        const hes_traj *tr = &res->orbit.traj;
        if (!xs)
            st = hes__fail(sys, HES_ENOMEM, "out of memory");
        for (int k = 0; xs && k < tr->n_phases; k++) /* before the event that ends it */
            xs[tr->phases[k].mode] = k < tr->n_events ? tr->events[k].x_minus
                                                      : tr->phases[k].x1;
        /* not fatal: a reset may refuse a state of its mode off its own
           event (every transition from a mode is checked at the state
           before the mode's event); where says what could not be checked,
           and the worst error is then NaN, unless one compared before
           disagrees: where and the error name it */
        if (xs && hes_model_check_derivatives(m, hes_system_params(sys), res->orbit.t0, xs,
                                              &res->jacobians) != HES_OK &&
            !res->jacobians.disagree)
            res->jacobians.max_rel_err = NAN;
        free(xs);
    }
    if (st != HES_OK) /* the message stays: freeing results does not touch the system */
        hes_analysis_free(res);
    return st;
}
