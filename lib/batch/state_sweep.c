/*
 * state_sweep.c - hes_state_sweep_run: trajectory outcomes as one component
 * of an initial state varies (`hes simulate --sweep`; decoupled-limbs paper
 * Fig. 1).  The state x0 with component `state` set to each of n values of
 * hes_grid_linspace(lo, hi, n) is simulated with every guard armed over
 * [0, time]; a simulation that fails (grazing, Zeno, a model error) is a
 * result too, with its status, message and the trajectory up to where it
 * stopped.  The component is ambient: a mode that normalizes its state
 * (hes_mode.normalize) has each start projected onto its manifold by
 * hes_simulate.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid/hybrid.h"

void hes_state_sweep_options_init(hes_state_sweep_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->n = 1;
}

hes_status hes_state_sweep_run(hes_system *sys, const hes_state_sweep_options *o,
                               hes_state_sweep *out)
{
    if (!out)
        return sys ? hes__fail(sys, HES_EINVAL, "hes_state_sweep_run: no result to fill")
                   : HES_EINVAL;
    memset(out, 0, sizeof *out);
    if (!sys)
        return HES_EINVAL;
    if (sys->kind != HES_KIND_HYBRID)
        return hes__need_hybrid(sys, "hes_state_sweep_run");
    if (!o)
        return hes__fail(sys, HES_EINVAL, "hes_state_sweep_run: no options");
    const hes_model *m = sys->model;
    if (o->mode < 0 || o->mode >= m->n_modes)
        return hes__fail(sys, HES_EINVAL, "state sweep: mode %d out of range (the model has %d)",
                         o->mode, m->n_modes);
    int dim = m->modes[o->mode].dim;
    if (o->dim != dim || !o->x0)
        return hes__fail(sys, HES_EINVAL, "state sweep: x0 has %d values, the state of mode "
                         "'%s' has %d", o->x0 ? o->dim : 0, m->modes[o->mode].name, dim);
    if (o->state < 0 || o->state >= dim)
        return hes__fail(sys, HES_EINVAL, "state sweep: state %d out of range (mode '%s' has "
                         "%d)", o->state, m->modes[o->mode].name, dim);
    if (!hes__all_finite(o->x0, dim))
        return hes__fail(sys, HES_EINVAL, "state sweep: x0 is not finite");
    if (!(o->time > 0) || !isfinite(o->time))
        return hes__fail(sys, HES_EINVAL, "state sweep: the time must be a finite number > 0, "
                         "got %g", o->time);
    if (o->n < 1 || !isfinite(o->lo) || !isfinite(o->hi) || !(o->lo <= o->hi) ||
        !isfinite(o->hi - o->lo))
        return hes__fail(sys, HES_EINVAL, "state sweep: need n >= 1 values in [lo, hi] with "
                         "finite lo <= hi (got %d in [%g, %g])", o->n, o->lo, o->hi);

    double *x = malloc(sizeof(double) * (size_t)dim);
    double *values = malloc(sizeof(double) * (size_t)o->n);
    out->x0 = malloc(sizeof(double) * (size_t)dim);
    out->points = calloc((size_t)o->n, sizeof *out->points);
    if (!x || !values || !out->x0 || !out->points) {
        free(x);
        free(values);
        hes_state_sweep_free(out);
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    }
    hes_grid_linspace(o->lo, o->hi, o->n, values);
    memcpy(out->x0, o->x0, sizeof(double) * (size_t)dim);
    out->mode = o->mode;
    out->state = o->state;
    out->dim = dim;
    out->lo = o->lo;
    out->hi = o->hi;
    out->time = o->time;
    out->n = o->n;

    hes_sim_options so;

    hes_sim_options_init(&so);
    so.t_end = o->time;
    for (int k = 0; k < o->n; k++) {
        hes_state_sweep_point *pt = &out->points[k];

        if (o->progress)
            o->progress(o->progress_ctx, k, o->n, values[k]);
        memcpy(x, o->x0, sizeof(double) * (size_t)dim);
        pt->value = x[o->state] = values[k];
        pt->status = hes_simulate(sys, o->mode, 0.0, 0.0, x, &so, &pt->traj);
        if (pt->status != HES_OK)
            snprintf(pt->message, sizeof pt->message, "%s", hes_system_errmsg(sys));
    }
    free(x);
    free(values);
    return HES_OK;
}

void hes_state_sweep_free(hes_state_sweep *s)
{
    if (!s)
        return;
    for (int k = 0; s->points && k < s->n; k++)
        hes_traj_free(&s->points[k].traj);
    free(s->points);
    free(s->x0);
    memset(s, 0, sizeof *s);
}
