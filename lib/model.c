/*
 * model.c - the model description: structural validation, lookup by name, and
 * evaluation of the model's callbacks.  Every evaluation checks the callback's
 * return value and the finiteness of what it wrote; a Jacobian the model does
 * not supply is replaced by central differences (fd.c), and
 * hes_model_check_derivatives() compares the supplied ones with them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hes_internal.h"

hes_status hes_model_validate(const hes_model *m, char *msg, size_t len)
{
#define BAD(...) do { if (msg) snprintf(msg, len, __VA_ARGS__); return HES_EINVAL; } while (0)
    if (!m)
        BAD("model is NULL");
    if (m->abi != HES_MODEL_ABI)
        BAD("model '%s' was built for model ABI %d, this library has %d",
            m->name ? m->name : "?", m->abi, HES_MODEL_ABI);
    if (!m->name || !*m->name)
        BAD("model has no name");
    if (m->n_modes < 1 || !m->modes)
        BAD("model '%s' has no modes", m->name);
    for (int i = 0; i < m->n_modes; i++) {
        const hes_mode *md = &m->modes[i];
        if (!md->name || md->dim < 1 || !md->field)
            BAD("mode %d of '%s' needs a name, a dimension >= 1 and a vector field", i, m->name);
    }
    if (m->n_transitions < 0 || (m->n_transitions > 0 && !m->transitions))
        BAD("model '%s': bad transition table", m->name);
    for (int k = 0; k < m->n_transitions; k++) {
        const hes_transition *tr = &m->transitions[k];
        if (!tr->name || !tr->guard)
            BAD("transition %d of '%s' needs a name and a guard", k, m->name);
        if (tr->from < 0 || tr->from >= m->n_modes || tr->to < 0 || tr->to >= m->n_modes)
            BAD("transition '%s' refers to a mode that does not exist", tr->name);
        if (!tr->reset && m->modes[tr->from].dim != m->modes[tr->to].dim)
            BAD("transition '%s' changes dimension %d -> %d but has no reset map",
                tr->name, m->modes[tr->from].dim, m->modes[tr->to].dim);
        if (tr->direction < -1 || tr->direction > 1)
            BAD("transition '%s': direction must be HES_DOWN, HES_UP or HES_ANY", tr->name);
    }
    if (m->n_params < 0 || (m->n_params > 0 && !m->params))
        BAD("model '%s': bad parameter table", m->name);
    for (int i = 0; i < m->n_params; i++) {
        const hes_param *pp = &m->params[i];
        if (!pp->name || !*pp->name)
            BAD("parameter %d of '%s' has no name", i, m->name);
        for (int j = 0; j < i; j++)
            if (strcmp(pp->name, m->params[j].name) == 0)
                BAD("parameter name '%s' appears twice", pp->name);
        if (!(pp->min <= pp->max))
            BAD("parameter '%s': empty valid range", pp->name);
    }
    const hes_orbit_spec *o = &m->orbit;
    if (!o->guess)
        return HES_OK; /* no periodic orbit declared: simulation only */
    if (o->mode < 0 || o->mode >= m->n_modes)
        BAD("orbit spec of '%s': no such mode %d", m->name, o->mode);
    if (o->section < 0 || o->section >= m->n_transitions)
        BAD("orbit spec of '%s': no such section transition %d", m->name, o->section);
    if (m->transitions[o->section].to != o->mode)
        BAD("orbit spec of '%s': the section transition '%s' must lead into the orbit's mode",
            m->name, m->transitions[o->section].name);
    if (o->n_sequence > 0) {
        if (!o->sequence || o->sequence[o->n_sequence - 1] != o->section)
            BAD("orbit spec of '%s': the event sequence must end with the section", m->name);
        int mode = o->mode;
        for (int k = 0; k < o->n_sequence; k++) {
            int t = o->sequence[k];
            if (t < 0 || t >= m->n_transitions || m->transitions[t].from != mode)
                BAD("orbit spec of '%s': event %d of the sequence does not leave mode '%s'",
                    m->name, k, m->modes[mode].name);
            mode = m->transitions[t].to;
        }
    }
    if (o->period_param) {
        if (hes_model_param_index(m, o->period_param) < 0)
            BAD("orbit spec of '%s': no period parameter '%s'", m->name, o->period_param);
        for (int k = 0; k < o->n_sequence; k++)
            if (m->transitions[o->sequence[k]].clock_reset)
                BAD("orbit spec of '%s': a non-autonomous orbit cannot reset the clock", m->name);
    } else {
        /* The model clock is part of the state of a period: shooting starts
         * every period at model time 0, so when an event within the period
         * resets the clock the section event must reset it too (the
         * monodromy then uses the clock-local saltation matrix at the
         * intermediate resets, monodromy.c). */
        for (int k = 0; k + 1 < o->n_sequence; k++)
            if (m->transitions[o->sequence[k]].clock_reset &&
                !m->transitions[o->section].clock_reset)
                BAD("orbit spec of '%s': transition '%s' resets the clock within the period, "
                    "so the section event '%s' must reset it too", m->name,
                    m->transitions[o->sequence[k]].name, m->transitions[o->section].name);
    }
    int n0 = m->modes[o->mode].dim;
    int nu = o->n_free_states + o->n_free_params;
    if (o->n_residual != nu || nu < 1)
        BAD("orbit spec of '%s': %d unknowns but %d residual components", m->name, nu, o->n_residual);
    for (int i = 0; i < o->n_free_states; i++)
        if (o->free_states[i] < 0 || o->free_states[i] >= n0)
            BAD("orbit spec of '%s': free state index out of range", m->name);
    for (int i = 0; i < o->n_residual; i++)
        if (o->residual[i] < 0 || o->residual[i] >= n0)
            BAD("orbit spec of '%s': residual index out of range", m->name);
    for (int i = 0; i < o->n_free_params; i++)
        if (hes_model_param_index(m, o->free_params[i]) < 0)
            BAD("orbit spec of '%s': no parameter '%s' to solve for", m->name, o->free_params[i]);
    return HES_OK;
#undef BAD
}

int hes_model_param_index(const hes_model *m, const char *name)
{
    for (int i = 0; name && i < m->n_params; i++)
        if (strcmp(m->params[i].name, name) == 0)
            return i;
    return -1;
}

int hes_model_mode_index(const hes_model *m, const char *name)
{
    for (int i = 0; name && i < m->n_modes; i++)
        if (strcmp(m->modes[i].name, name) == 0)
            return i;
    return -1;
}

int hes_model_transition_index(const hes_model *m, const char *name)
{
    for (int i = 0; name && i < m->n_transitions; i++)
        if (strcmp(m->transitions[i].name, name) == 0)
            return i;
    return -1;
}

double hes__time_after(const hes_model *m, int tr, double tm)
{
    return m->transitions[tr].clock_reset ? 0.0 : tm;
}

/* ---------------------------------------------------------- evaluations */

/* A model function bound to its parameters, as a function of (t, x). */
typedef struct {
    hes_fn fn;
    const double *p;
    void *data;
    int n_out;
    int identity;          /* reset == NULL: R(t, x) = x */
} bound_fn;

static int bound_call(void *ctx, double t, const double *x, double *out)
{
    const bound_fn *b = ctx;
    if (b->identity) {
        memcpy(out, x, (size_t)b->n_out * sizeof *out);
        return 0;
    }
    return b->fn(t, x, b->p, out, b->data);
}

static hes_status finish(hes_system *sys, int rc, const double *out, int n,
                         const char *what, const char *name, double t)
{
    if (rc != 0) {
        const hes_model *m = sys->model;
        const char *why = m->describe_error ? m->describe_error(rc, m->data) : NULL;
        return hes__fail(sys, HES_EMODEL, "%s of '%s' failed at model time %.17g: %s (code %d)",
                         what, name, t, why ? why : "no description", rc);
    }
    if (!hes__all_finite(out, n))
        return hes__fail(sys, HES_ENONFINITE, "%s of '%s' is not finite at t = %.17g",
                         what, name, t);
    return HES_OK;
}

/* The data pointer a mode's or transition's callbacks receive. */
static void *mode_data(const hes_model *m, int mode)
{
    return m->modes[mode].data ? m->modes[mode].data : m->data;
}

static void *tr_data(const hes_model *m, int tr)
{
    return m->transitions[tr].data ? m->transitions[tr].data : m->data;
}

static bound_fn bind(const hes_system *sys, hes_fn fn, int n_out, void *data)
{
    bound_fn b = { fn, sys->p, data, n_out, fn == NULL };
    return b;
}

hes_status hes__field(hes_system *sys, int mode, double t, const double *x, double *out)
{
    const hes_mode *md = &sys->model->modes[mode];
    int rc = md->field(t, x, sys->p, out, mode_data(sys->model, mode));
    return finish(sys, rc, out, md->dim, "vector field", md->name, t);
}

hes_status hes__field_dx(hes_system *sys, int mode, double t, const double *x, double *out)
{
    const hes_mode *md = &sys->model->modes[mode];
    int n = md->dim, rc;
    if (md->field_dx) {
        rc = md->field_dx(t, x, sys->p, out, mode_data(sys->model, mode));
    } else {
        bound_fn b = bind(sys, md->field, n, mode_data(sys->model, mode));
        rc = hes__fd_dx(bound_call, &b, t, x, n, n, out, sys->work);
    }
    return finish(sys, rc, out, n * n, "Jacobian of the vector field", md->name, t);
}

hes_status hes__guard(hes_system *sys, int tr, double t, const double *x, double *g)
{
    const hes_transition *T = &sys->model->transitions[tr];
    int rc = T->guard(t, x, sys->p, g, tr_data(sys->model, tr));
    return finish(sys, rc, g, 1, "guard", T->name, t);
}

hes_status hes__guard_dx(hes_system *sys, int tr, double t, const double *x, double *out)
{
    const hes_transition *T = &sys->model->transitions[tr];
    int n = sys->model->modes[T->from].dim, rc;
    if (T->guard_dx) {
        rc = T->guard_dx(t, x, sys->p, out, tr_data(sys->model, tr));
    } else {
        bound_fn b = bind(sys, T->guard, 1, tr_data(sys->model, tr));
        rc = hes__fd_dx(bound_call, &b, t, x, n, 1, out, sys->work);
    }
    return finish(sys, rc, out, n, "guard gradient Dxg", T->name, t);
}

hes_status hes__guard_dt(hes_system *sys, int tr, double t, const double *x, double *out)
{
    const hes_transition *T = &sys->model->transitions[tr];
    int n = sys->model->modes[T->from].dim, rc;
    if (T->guard_dt) {
        rc = T->guard_dt(t, x, sys->p, out, tr_data(sys->model, tr));
    } else {
        bound_fn b = bind(sys, T->guard, 1, tr_data(sys->model, tr));
        rc = hes__fd_dt(bound_call, &b, t, x, n, 1, out, sys->work);
    }
    return finish(sys, rc, out, 1, "guard time derivative Dtg", T->name, t);
}

hes_status hes__reset(hes_system *sys, int tr, double t, const double *x, double *out)
{
    const hes_transition *T = &sys->model->transitions[tr];
    int nj = sys->model->modes[T->to].dim;
    bound_fn b = bind(sys, T->reset, nj, tr_data(sys->model, tr));
    int rc = bound_call(&b, t, x, out);
    return finish(sys, rc, out, nj, "reset map", T->name, t);
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
        rc = T->reset_dx(t, x, sys->p, out, tr_data(sys->model, tr));
    } else {
        bound_fn b = bind(sys, T->reset, nj, tr_data(sys->model, tr));
        rc = hes__fd_dx(bound_call, &b, t, x, ni, nj, out, sys->work);
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
        rc = T->reset_dt(t, x, sys->p, out, tr_data(sys->model, tr));
    } else {
        bound_fn b = bind(sys, T->reset, nj, tr_data(sys->model, tr));
        rc = hes__fd_dt(bound_call, &b, t, x, ni, nj, out, sys->work);
    }
    return finish(sys, rc, out, nj, "reset time derivative DtR", T->name, t);
}

/* ---------------------------------------------------- derivative checks */

/* Compares a supplied Jacobian with central differences of fn. */
static int compare(hes_fn jac_fn, hes_fn fn, int n_in, int n_out, int wrt_t,
                   double t, const double *x, const double *p, void *data,
                   const char *label, hes_deriv_report *rep)
{
    int len = wrt_t ? n_out : n_in * n_out;
    double *a = malloc(sizeof(double) * (size_t)(2 * len + 2 * n_out + n_in));
    if (!a)
        return -1;
    double *d = a + len, *work = d + len;
    bound_fn b = { fn, p, data, n_out, 0 };
    int rc = jac_fn(t, x, p, a, data);
    if (rc == 0)
        rc = wrt_t ? hes__fd_dt(bound_call, &b, t, x, n_in, n_out, d, work)
                   : hes__fd_dx(bound_call, &b, t, x, n_in, n_out, d, work);
    if (rc == 0) {
        rep->n_checked++;
        for (int k = 0; k < len; k++) {
            double e = fabs(a[k] - d[k]) / fmax(1.0, fabs(d[k]));
            if (!(e <= rep->max_rel_err)) { /* also catches NaN */
                rep->max_rel_err = isnan(e) ? INFINITY : e;
                if (wrt_t)
                    snprintf(rep->where, sizeof rep->where, "%s[%d]", label, k);
                else
                    snprintf(rep->where, sizeof rep->where, "%s[%d,%d]", label,
                             k % n_out, k / n_out);
            }
        }
    }
    free(a);
    return rc;
}

hes_status hes_model_check_derivatives(const hes_model *m, const double *p,
                                       double t, const double *const *xs,
                                       hes_deriv_report *rep)
{
    char label[96];
    memset(rep, 0, sizeof *rep);
    if (hes_model_validate(m, NULL, 0) != HES_OK || !p || !xs)
        return HES_EINVAL;
    for (int i = 0; i < m->n_modes; i++) {
        const hes_mode *md = &m->modes[i];
        if (!md->field_dx)
            continue;
        snprintf(label, sizeof label, "mode %s: dF/dx", md->name);
        if (compare(md->field_dx, md->field, md->dim, md->dim, 0, t, xs[i], p,
                    mode_data(m, i), label, rep))
            return HES_EMODEL;
    }
    for (int k = 0; k < m->n_transitions; k++) {
        const hes_transition *T = &m->transitions[k];
        int ni = m->modes[T->from].dim, nj = m->modes[T->to].dim;
        const double *x = xs[T->from];
        struct { hes_fn jac, fn; int n_out, wrt_t; const char *what; } c[] = {
            { T->guard_dx, T->guard, 1, 0, "Dxg" },
            { T->guard_dt, T->guard, 1, 1, "Dtg" },
            { T->reset_dx, T->reset, nj, 0, "DxR" },
            { T->reset_dt, T->reset, nj, 1, "DtR" },
        };
        for (size_t j = 0; j < sizeof c / sizeof c[0]; j++) {
            if (!c[j].jac || !c[j].fn)
                continue;
            snprintf(label, sizeof label, "transition %s: %s", T->name, c[j].what);
            if (compare(c[j].jac, c[j].fn, ni, c[j].n_out, c[j].wrt_t, t, x, p,
                        tr_data(m, k), label, rep))
                return HES_EMODEL;
        }
    }
    return HES_OK;
}
