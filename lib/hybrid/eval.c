/*
 * eval.c - evaluation of a model's callbacks inside a computation on a
 * system: each call checks the callback's return value (a nonzero code is
 * HES_EMODEL with the model's own description of it; HES_ENOMEM for the
 * mechanical layer's out of memory) and the finiteness of
 * what it wrote (HES_ENONFINITE); a Jacobian the model does not supply is
 * replaced by central differences of its function (base/fd.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hybrid/hybrid.h"

static hes_status finish(hes_system *sys, int rc, const double *out, int n,
                         const char *what, const char *name, double t)
{
    if (rc != 0) {
        const hes_model *m = sys->model;
        const char *why = m->describe_error ? m->describe_error(rc, m->data) : NULL;
        return hes__fail(sys, hes__callback_status(why),
                         "%s of '%s' failed at model time %.17g: %s (code %d)",
                         what, name, t, why ? why : "no description", rc);
    }
    if (!hes__all_finite(out, n))
        return hes__fail(sys, HES_ENONFINITE, "%s of '%s' is not finite at t = %.17g",
                         what, name, t);
    return HES_OK;
}

static hes__bound_fn bind(const hes_system *sys, hes_fn fn, int n_out, void *data)
{
    hes__bound_fn b = { fn, sys->p, data, n_out, fn == NULL };
    return b;
}

hes_status hes__field(hes_system *sys, int mode, double t, const double *x, double *out)
{
    const hes_mode *md = &sys->model->modes[mode];
    int rc = md->field(t, x, sys->p, out, hes__mode_data(sys->model, mode));
    return finish(sys, rc, out, md->dim, "vector field", md->name, t);
}

hes_status hes__admissible(hes_system *sys, int mode, double t, const double *x)
{
    const hes_mode *md = &sys->model->modes[mode];
    if (!md->admissible)
        return HES_OK;
    double unused = 0;
    int rc = md->admissible(t, x, sys->p, &unused, hes__mode_data(sys->model, mode));
    return finish(sys, rc, &unused, 1, "start state", md->name, t);
}

hes_status hes__consistent(hes_system *sys, int mode, double t, const double *x, double *out)
{
    const hes_mode *md = &sys->model->modes[mode];
    int n = md->dim;
    if (!md->consistent) {
        memset(out, 0, sizeof(double) * (size_t)n * (size_t)n);
        for (int i = 0; i < n; i++)
            out[i * (n + 1)] = 1;
        return HES_OK;
    }
    int rc = md->consistent(t, x, sys->p, out, hes__mode_data(sys->model, mode));
    return finish(sys, rc, out, n * n, "projector onto the consistent perturbations", md->name, t);
}

hes_status hes__field_dx(hes_system *sys, int mode, double t, const double *x, double *out)
{
    const hes_mode *md = &sys->model->modes[mode];
    int n = md->dim, rc;
    if (md->field_dx) {
        rc = md->field_dx(t, x, sys->p, out, hes__mode_data(sys->model, mode));
    } else {
        hes__bound_fn b = bind(sys, md->field, n, hes__mode_data(sys->model, mode));
        rc = hes__fd_dx(hes__bound_call, &b, t, x, n, n, out, sys->work);
    }
    return finish(sys, rc, out, n * n, "Jacobian of the vector field", md->name, t);
}

hes_status hes__guard(hes_system *sys, int tr, double t, const double *x, double *g)
{
    const hes_transition *T = &sys->model->transitions[tr];
    int rc = T->guard(t, x, sys->p, g, hes__tr_data(sys->model, tr));
    return finish(sys, rc, g, 1, "guard", T->name, t);
}

hes_status hes__guard_dx(hes_system *sys, int tr, double t, const double *x, double *out)
{
    const hes_transition *T = &sys->model->transitions[tr];
    int n = sys->model->modes[T->from].dim, rc;
    if (T->guard_dx) {
        rc = T->guard_dx(t, x, sys->p, out, hes__tr_data(sys->model, tr));
    } else {
        hes__bound_fn b = bind(sys, T->guard, 1, hes__tr_data(sys->model, tr));
        rc = hes__fd_dx(hes__bound_call, &b, t, x, n, 1, out, sys->work);
    }
    return finish(sys, rc, out, n, "guard gradient Dxg", T->name, t);
}

hes_status hes__guard_dt(hes_system *sys, int tr, double t, const double *x, double *out)
{
    const hes_transition *T = &sys->model->transitions[tr];
    int n = sys->model->modes[T->from].dim, rc;
    if (T->guard_dt) {
        rc = T->guard_dt(t, x, sys->p, out, hes__tr_data(sys->model, tr));
    } else {
        hes__bound_fn b = bind(sys, T->guard, 1, hes__tr_data(sys->model, tr));
        rc = hes__fd_dt(hes__bound_call, &b, t, x, n, 1, out, sys->work);
    }
    return finish(sys, rc, out, 1, "guard time derivative Dtg", T->name, t);
}

hes_status hes__reset(hes_system *sys, int tr, double t, const double *x, double *out)
{
    const hes_transition *T = &sys->model->transitions[tr];
    int nj = sys->model->modes[T->to].dim;
    hes__bound_fn b = bind(sys, T->reset, nj, hes__tr_data(sys->model, tr));
    int rc = hes__bound_call(&b, t, x, out);
    hes_status st = finish(sys, rc, out, nj, "reset map", T->name, t);
    /* the post-event state back onto the target mode's manifold */
    return st == HES_OK ? hes__normalize(sys, T->to, out) : st;
}

hes_status hes__reset_dx(hes_system *sys, int tr, double t, const double *x, double *out)
{
    const hes_transition *T = &sys->model->transitions[tr];
    int ni = sys->model->modes[T->from].dim, nj = sys->model->modes[T->to].dim, rc = 0;
    if (!T->reset) {
        memset(out, 0, (size_t)ni * nj * sizeof *out);
        for (int i = 0; i < ni; i++)
            out[i + (size_t)i * nj] = 1.0;
    } else if (T->reset_dx) {
        rc = T->reset_dx(t, x, sys->p, out, hes__tr_data(sys->model, tr));
    } else {
        hes__bound_fn b = bind(sys, T->reset, nj, hes__tr_data(sys->model, tr));
        rc = hes__fd_dx(hes__bound_call, &b, t, x, ni, nj, out, sys->work);
    }
    return finish(sys, rc, out, ni * nj, "reset Jacobian DxR", T->name, t);
}

hes_status hes__reset_dt(hes_system *sys, int tr, double t, const double *x, double *out)
{
    const hes_transition *T = &sys->model->transitions[tr];
    int ni = sys->model->modes[T->from].dim, nj = sys->model->modes[T->to].dim, rc = 0;
    if (!T->reset) {
        memset(out, 0, (size_t)nj * sizeof *out);
    } else if (T->reset_dt) {
        rc = T->reset_dt(t, x, sys->p, out, hes__tr_data(sys->model, tr));
    } else {
        hes__bound_fn b = bind(sys, T->reset, nj, hes__tr_data(sys->model, tr));
        rc = hes__fd_dt(hes__bound_call, &b, t, x, ni, nj, out, sys->work);
    }
    return finish(sys, rc, out, nj, "reset time derivative DtR", T->name, t);
}
