/*
 * system.c - hes_system: a model together with parameter values, solver
 * settings and the workspaces every computation reuses (one CVODES
 * integrator per mode, scratch arrays).  All mutable state of the library
 * lives here, so independent systems can run in separate threads.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid/hybrid.h"

hes_status hes__fail(hes_system *sys, hes_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sys->errmsg, sizeof sys->errmsg, fmt, ap);
    va_end(ap);
    return status;
}

static hes_settings default_settings(const hes_model *m)
{
    hes_settings s;
    s.rtol = 1e-12;
    s.atol = 1e-12;
    s.graze_tol = 1e-6;
    s.zeno_events = 10;
    s.zeno_window = 1e-3;
    s.max_events = 100000;
    s.max_phase_time = m && m->max_phase_time > 0 ? m->max_phase_time : 100.0;
    s.newton_tol = 1e-10;
    s.newton_maxiter = 50;
    s.fd_step = 1e-5;
    s.max_steps = 100000;
    s.max_wall_time = 10.0;
    s.max_search_time = 120.0;
    s.check_derivatives = 1;
    return s;
}

/* The part of a mode's workspace that needs no integrator: the transitions
 * whose guards its root functions are, and scratch.  The CVODES integrator is
 * created on the mode's first integration (integrator.c). */
static int ws_init(hes_system *sys, hes_mode_ws *ws, int mode)
{
    const hes_model *m = sys->model;
    int n = m->modes[mode].dim;
    ws->sys = sys;
    ws->mode = mode;
    ws->n = n;
    for (int k = 0; k < m->n_transitions; k++)
        if (m->transitions[k].from == mode)
            ws->n_roots++;
    if (ws->n_roots > 0) {
        ws->root_tr = malloc(sizeof(int) * (size_t)ws->n_roots);
        ws->rootsfound = malloc(sizeof(int) * (size_t)ws->n_roots);
        if (!ws->root_tr || !ws->rootsfound)
            return -1;
        for (int k = 0, r = 0; k < m->n_transitions; k++)
            if (m->transitions[k].from == mode)
                ws->root_tr[r++] = k;
    }
    ws->jac = malloc(sizeof(double) * (size_t)(n * n > 4 * n ? n * n : 4 * n)); /* also 4n scratch */
    return ws->jac ? 0 : -1;
}

static void ws_free(hes_mode_ws *ws)
{
    hes__ode_free(&ws->ode);
    hes__rk_free(&ws->rk);
    free(ws->root_tr);
    free(ws->rootsfound);
    free(ws->jac);
}

hes_status hes_system_new(const hes_model *model, hes_system **out, char *msg, size_t len)
{
    char why[512];
    if (msg && len)
        msg[0] = '\0';
    if (!out) {
        if (msg && len)
            snprintf(msg, len, "hes_system_new: no place for the system (out is NULL)");
        return HES_EINVAL;
    }
    *out = NULL;
    if (hes_model_validate(model, why, sizeof why) != HES_OK) {
        if (msg && len)
            snprintf(msg, len, "invalid model: %s", why);
        return HES_EINVAL;
    }
    hes_system *sys = calloc(1, sizeof *sys);
    if (!sys) {
        if (msg && len)
            snprintf(msg, len, "out of memory");
        return HES_ENOMEM;
    }
    sys->model = model;
    sys->set = default_settings(model);
    sys->p = malloc(sizeof(double) * (size_t)(model->n_params > 0 ? model->n_params : 1));
    sys->armed = calloc((size_t)model->n_transitions + 1, 1);
    sys->ws = calloc((size_t)model->n_modes, sizeof *sys->ws);
    for (int i = 0; i < model->n_modes; i++)
        if (model->modes[i].dim > sys->nmax)
            sys->nmax = model->modes[i].dim;
    sys->work_len = (size_t)(3 * sys->nmax + 4);
    sys->work = malloc(sizeof(double) * sys->work_len);
    size_t nm = (size_t)sys->nmax;
    sys->svd_lwork = hes__svd_lwork(sys->nmax);
    sys->salt_ws = malloc(sizeof(double) * (5 * nm + nm * nm));
    sys->sec_ws = malloc(sizeof(double) * (2 * nm + 2 * nm * nm));
    sys->svd_ws = malloc(sizeof(double) * (2 * nm * nm + 2 * nm + 1 + (size_t)sys->svd_lwork));
    if (!sys->p || !sys->armed || !sys->ws || !sys->work || !sys->salt_ws || !sys->sec_ws ||
        !sys->svd_ws ||
        SUNContext_Create(NULL, &sys->ctx) != 0) {
        hes_system_destroy(sys);
        if (msg && len)
            snprintf(msg, len, "out of memory (or SUNDIALS could not create its context)");
        return HES_ENOMEM;
    }
    for (int i = 0; i < model->n_params; i++)
        sys->p[i] = model->params[i].value;
    for (int i = 0; i < model->n_modes; i++)
        if (ws_init(sys, &sys->ws[i], i) != 0) {
            if (msg && len)
                snprintf(msg, len, "out of memory for the workspace of mode '%s' "
                         "(dimension %d)", model->modes[i].name, model->modes[i].dim);
            hes_system_destroy(sys);
            return HES_ENOMEM;
        }
    *out = sys;
    return HES_OK;
}

hes_system *hes_system_create(const hes_model *model)
{
    hes_system *sys;
    return hes_system_new(model, &sys, NULL, 0) == HES_OK ? sys : NULL;
}

hes_system *hes__system_copy(const hes_system *src)
{
    hes_system *sys = hes_system_create(src->model);
    if (!sys)
        return NULL;
    memcpy(sys->p, src->p, sizeof(double) * (size_t)src->model->n_params);
    sys->set = src->set;
    if (src->orbit_start && hes_system_set_orbit_start(sys, src->orbit_start) != HES_OK) {
        hes_system_destroy(sys);
        return NULL;
    }
    return sys;
}

void hes_system_destroy(hes_system *sys)
{
    if (!sys)
        return;
    if (sys->ws)
        for (int i = 0; i < sys->model->n_modes; i++)
            ws_free(&sys->ws[i]);
    free(sys->ws);
    if (sys->ctx)
        SUNContext_Free(&sys->ctx);
    free(sys->p);
    free(sys->armed);
    free(sys->work);
    free(sys->salt_ws);
    free(sys->sec_ws);
    free(sys->svd_ws);
    free(sys->orbit_start);
    free(sys);
}

const hes_model *hes_system_model(const hes_system *sys) { return sys ? sys->model : NULL; }
const char *hes_system_errmsg(const hes_system *sys)
{
    return sys ? sys->errmsg : "no system (NULL)";
}
hes_settings hes_system_get_settings(const hes_system *sys)
{
    return sys ? sys->set : default_settings(NULL);
}
const double *hes_system_params(const hes_system *sys) { return sys ? sys->p : NULL; }

hes_status hes_system_set_settings(hes_system *sys, const hes_settings *s)
{
    if (!sys)
        return HES_EINVAL;
    if (!s)
        return hes__fail(sys, HES_EINVAL, "invalid solver settings: none given (NULL)");
    /* every rule, so that the message names the first setting broken */
    const struct { int ok; const char *rule; double value; } rules[] = {
        { s->rtol > 0, "rtol > 0", s->rtol },
        { s->atol > 0, "atol > 0", s->atol },
        { s->graze_tol >= 0, "graze_tol >= 0", s->graze_tol },
        { s->zeno_events >= 2, "zeno_events >= 2", s->zeno_events },
        { s->zeno_window >= 0, "zeno_window >= 0", s->zeno_window },
        { s->max_events > 0, "max_events > 0", s->max_events },
        { s->max_phase_time > 0, "max_phase_time > 0", s->max_phase_time },
        { s->newton_tol > 0, "newton_tol > 0", s->newton_tol },
        { s->newton_maxiter > 0, "newton_maxiter > 0", s->newton_maxiter },
        { s->fd_step > 0 && s->fd_step < 1, "fd_step in (0, 1)", s->fd_step },
        { s->max_steps > 0, "max_steps > 0", s->max_steps },
        { s->max_wall_time > 0, "max_wall_time > 0", s->max_wall_time },
        { s->max_search_time > 0, "max_search_time > 0", s->max_search_time },
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (!rules[i].ok)
            return hes__fail(sys, HES_EINVAL, "invalid solver settings: %s is required, got %g",
                             rules[i].rule, rules[i].value);
    sys->set = *s;
    return HES_OK;
}

static hes_status check_value(hes_system *sys, int i, double v)
{
    const hes_param *pp = &sys->model->params[i];
    if (!isfinite(v))
        return hes__fail(sys, HES_EINVAL, "parameter %s = %g is not a finite number", pp->name, v);
    if ((pp->flags & HES_PARAM_POSITIVE) && !(v > 0))
        return hes__fail(sys, HES_EINVAL, "parameter %s = %g must be positive", pp->name, v);
    if (v < pp->min || v > pp->max)
        return hes__fail(sys, HES_EINVAL, "parameter %s = %g is outside its valid range [%g, %g]",
                         pp->name, v, pp->min, pp->max);
    return HES_OK;
}

hes_status hes_system_set_param(hes_system *sys, const char *name, double value)
{
    if (!sys)
        return HES_EINVAL;
    if (!name)
        return hes__fail(sys, HES_EINVAL, "set parameter: no name (NULL)");
    int i = hes_model_param_index(sys->model, name);
    if (i < 0)
        return hes__fail(sys, HES_ENOTFOUND, "model '%s' has no parameter '%s'",
                         sys->model->name, name ? name : "(null)");
    hes_status st = check_value(sys, i, value);
    if (st == HES_OK)
        sys->p[i] = value;
    return st;
}

hes_status hes_system_get_param(const hes_system *sys, const char *name, double *value)
{
    if (!sys || !name || !value)
        return HES_EINVAL;
    int i = hes_model_param_index(sys->model, name);
    if (i < 0)
        return HES_ENOTFOUND;
    *value = sys->p[i];
    return HES_OK;
}

hes_status hes_system_check_params(hes_system *sys)
{
    if (!sys)
        return HES_EINVAL;
    for (int i = 0; i < sys->model->n_params; i++) {
        hes_status st = check_value(sys, i, sys->p[i]);
        if (st != HES_OK)
            return st;
    }
    if (sys->model->validate) {
        char msg[256] = "";
        if (sys->model->validate(sys->p, msg, sizeof msg, sys->model->data) != 0)
            return hes__fail(sys, HES_EINVAL, "%s", msg[0] ? msg : "invalid parameters");
    }
    return HES_OK;
}

hes_status hes_system_set_orbit_start(hes_system *sys, const double *x0)
{
    if (!sys)
        return HES_EINVAL;
    const hes_model *m = sys->model;
    free(sys->orbit_start);
    sys->orbit_start = NULL;
    if (!x0)
        return HES_OK;
    if (!m->orbit.guess)
        return hes__fail(sys, HES_EINVAL, "model '%s' declares no periodic orbit", m->name);
    int n = m->modes[m->orbit.mode].dim;
    if (!hes__all_finite(x0, n))
        return hes__fail(sys, HES_EINVAL, "the orbit start must be finite");
    if (!(sys->orbit_start = malloc(sizeof(double) * (size_t)n)))
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    memcpy(sys->orbit_start, x0, sizeof(double) * (size_t)n);
    return HES_OK;
}
