/*
 * flow.c - the derivative of a hybrid flow over a time interval
 * (hes_flow_jacobian): d x(T) / d x0 = Xi_N A_N ... Xi_1 A_1 along the
 * trajectory from (mode, x0), the same factors as an orbit's monodromy
 * (monodromy.c) without the period, and the report of its nearly
 * simultaneous events (simultaneous.c): whether the other order of each pair
 * gives the same outcome and the same derivative.  That is the
 * decoupled-limbs paper's result (Thm. 1): through a change of contact
 * order the flow stays continuously differentiable exactly when the limbs
 * are decoupled (eq. 6), as trot-soft's are and trot-rigid's are not.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid/hybrid.h"

void hes_flow_free(hes_flow *f)
{
    if (!f)
        return;
    hes_traj_free(&f->traj);
    free(f->jac);
    memset(f, 0, sizeof *f);
}

hes_status hes_flow_jacobian(hes_system *sys, int mode, const double *x0, double time,
                             hes_flow *out)
{
    if (!out)
        return sys ? hes__fail(sys, HES_EINVAL, "hes_flow_jacobian: out is NULL") : HES_EINVAL;
    memset(out, 0, sizeof *out);
    if (!sys || !x0)
        return sys ? hes__fail(sys, HES_EINVAL, "hes_flow_jacobian: x0 is NULL") : HES_EINVAL;
    if (sys->kind != HES_KIND_HYBRID)
        return hes__need_hybrid(sys, "hes_flow_jacobian");
    const hes_model *m = sys->model;
    if (mode < 0 || mode >= m->n_modes)
        return hes__fail(sys, HES_EINVAL, "hes_flow_jacobian: mode %d is not one of the "
                         "model's %d", mode, m->n_modes);
    if (!(time > 0) || !isfinite(time))
        return hes__fail(sys, HES_EINVAL, "hes_flow_jacobian: the time must be finite and "
                         "> 0, got %g", time);
    int n = m->modes[mode].dim;
    if (!hes__all_finite(x0, n))
        return hes__fail(sys, HES_EINVAL, "hes_flow_jacobian: x0 is not finite");
    hes_sim_options so;
    hes_sim_options_init(&so);
    so.t_end = time;
    so.sensitivities = 1;
    hes_status st = hes_simulate(sys, mode, 0.0, 0.0, x0, &so, &out->traj);
    if (st != HES_OK) {
        hes_flow_free(out);
        return st;
    }
    const hes_traj *tr = &out->traj;
    int end = tr->phases[tr->n_phases - 1].mode, t0 = hes__mode_tdim(m, mode),
        t1 = hes__mode_tdim(m, end);
    if (m->modes[end].dim != n || t1 != t0) {
        hes_flow_free(out);
        return hes__fail(sys, HES_EINVAL, "the run ends in mode %s of dimension %d (tangent "
                         "%d), not %d (%d) as it began: give a time that ends in a mode of the "
                         "start's dimension", m->modes[end].name, m->modes[end].dim, t1, n, t0);
    }
    hes_monodromy mono;
    if ((st = hes_monodromy_compute(sys, tr, 0, &mono)) != HES_OK) {
        hes_flow_free(out);
        return st;
    }
    n = out->n = mono.n;
    out->jac = malloc(sizeof(double) * (size_t)n * (size_t)n);
    if (!out->jac) {
        hes_monodromy_free(&mono);
        hes_flow_free(out);
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    }
    memcpy(out->jac, mono.phi, sizeof(double) * (size_t)n * (size_t)n);
    hes_monodromy_free(&mono);
    /* events closer than 1e-8 of the run's length are one simultaneous event */
    st = hes_simultaneous_find(sys, tr, 1e-8 * time, out->simultaneous, 4, &out->n_simultaneous);
    if (st != HES_OK)
        hes_flow_free(out);
    return st;
}
