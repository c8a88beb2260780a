/*
 * system.c - hes_system: a model of either kind (event-driven hybrid, or
 * event-selected and integrated by ESS) together with parameter values,
 * solver settings and the workspaces every computation reuses (one CVODES
 * integrator per mode, scratch arrays).  All mutable state of the library
 * lives here, so independent systems can run in separate threads.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ess/ess.h"
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
    s.fd_order = 2;
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
    hes__stepper_free(&ws->step);
    free(ws->root_tr);
    free(ws->rootsfound);
    free(ws->jac);
}

/* A system of either kind with what both kinds have: the name, the
 * parameter table and its default values, no period guess; NULL without
 * memory. */
static hes_system *system_alloc(hes_kind kind, const char *name, int n_params,
                                const hes_param *params)
{
    hes_system *sys = calloc(1, sizeof *sys);
    if (!sys)
        return NULL;
    sys->kind = kind;
    sys->name = name;
    sys->n_params = n_params;
    sys->params = params;
    sys->orbit_period = NAN;
    sys->orbit_returns = 1;
    if (!(sys->p = malloc(sizeof(double) * (size_t)(n_params > 0 ? n_params : 1)))) {
        free(sys);
        return NULL;
    }
    for (int i = 0; i < n_params; i++)
        sys->p[i] = params[i].value;
    return sys;
}

hes_status hes_system_new(const hes_model *model, hes_system **out, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    hes_error why;
    if (msg && len)
        msg[0] = '\0';
    if (!out) {
        if (msg && len)
            snprintf(msg, len, "hes_system_new: no place for the system (out is NULL)");
        return HES_EINVAL;
    }
    *out = NULL;
    if (hes_model_validate(model, &why) != HES_OK) {
        if (msg && len)
            snprintf(msg, len, "invalid model: %.480s", why.message);
        return HES_EINVAL;
    }
    hes_system *sys = system_alloc(HES_KIND_HYBRID, model->name, model->n_params,
                                   model->params);
    if (!sys) {
        if (msg && len)
            snprintf(msg, len, "out of memory");
        return HES_ENOMEM;
    }
    sys->model = model;
    sys->set = default_settings(model);
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
    if (!sys->armed || !sys->ws || !sys->work || !sys->salt_ws || !sys->sec_ws ||
        !sys->svd_ws ||
        SUNContext_Create(NULL, &sys->ctx) != 0) {
        hes_system_destroy(sys);
        if (msg && len)
            snprintf(msg, len, "out of memory (or SUNDIALS could not create its context)");
        return HES_ENOMEM;
    }
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

hes_system *hes__system_copy(const hes_system *src)
{
    hes_system *sys = NULL;
    if (src->kind == HES_KIND_ESS) {
        if (hes_system_new_ess(src->ess_model, &sys, NULL) != HES_OK)
            return NULL;
        sys->eopt = src->eopt;
        sys->orbit_period = src->orbit_period;
    } else if (hes_system_new(src->model, &sys, NULL) != HES_OK)
        return NULL;
    memcpy(sys->p, src->p, sizeof(double) * (size_t)src->n_params);
    sys->set = src->set;
    sys->orbit_returns = src->orbit_returns;
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
    hes_ess_destroy(sys->ess);
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
        { s->fd_order == 2 || s->fd_order == 4, "fd_order 2 or 4", s->fd_order },
        { s->max_steps > 0, "max_steps > 0", s->max_steps },
        { s->max_wall_time > 0, "max_wall_time > 0", s->max_wall_time },
        { s->max_search_time > 0, "max_search_time > 0", s->max_search_time },
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (!rules[i].ok)
            return hes__fail(sys, HES_EINVAL, "invalid solver settings: %s is required, got %g",
                             rules[i].rule, rules[i].value);
    sys->set = *s;
    if (sys->kind == HES_KIND_ESS)
        hes__ess_of_settings(&sys->eopt, s);
    return HES_OK;
}

static hes_status check_value(hes_system *sys, int i, double v)
{
    const hes_param *pp = &sys->params[i];
    if (!isfinite(v))
        return hes__fail(sys, HES_EINVAL, "parameter %s = %g is not a finite number", pp->name, v);
    if ((pp->flags & HES_PARAM_POSITIVE) && !(v > 0))
        return hes__fail(sys, HES_EINVAL, "parameter %s = %g must be positive", pp->name, v);
    if (v < pp->min || v > pp->max) {
        /* a positive parameter's range is open at a lower end <= 0 (as hes info shows it) */
        int open_lo = (pp->flags & HES_PARAM_POSITIVE) && !(pp->min > 0);
        return hes__fail(sys, HES_EINVAL, "parameter %s = %g is outside its valid range %s%g, %g]",
                         pp->name, v, open_lo ? "(" : "[", open_lo ? 0.0 : pp->min, pp->max);
    }
    return HES_OK;
}

/* The index of parameter `name` in the system's table, or -1. */
static int param_index(const hes_system *sys, const char *name)
{
    for (int i = 0; i < sys->n_params; i++)
        if (strcmp(sys->params[i].name, name) == 0)
            return i;
    return -1;
}

hes_status hes_system_set_param(hes_system *sys, const char *name, double value)
{
    if (!sys)
        return HES_EINVAL;
    if (!name)
        return hes__fail(sys, HES_EINVAL, "set parameter: no name (NULL)");
    int i = param_index(sys, name);
    if (i < 0)
        return hes__fail(sys, HES_ENOTFOUND, "model '%s' has no parameter '%s'",
                         sys->name, name ? name : "(null)");
    hes_status st = check_value(sys, i, value);
    if (st == HES_OK)
        sys->p[i] = value;
    return st;
}

hes_status hes_system_get_param(const hes_system *sys, const char *name, double *value)
{
    if (!sys || !name || !value)
        return HES_EINVAL;
    int i = param_index(sys, name);
    if (i < 0)
        return HES_ENOTFOUND;
    *value = sys->p[i];
    return HES_OK;
}

hes_status hes_system_check_params(hes_system *sys)
{
    if (!sys)
        return HES_EINVAL;
    for (int i = 0; i < sys->n_params; i++) {
        hes_status st = check_value(sys, i, sys->p[i]);
        if (st != HES_OK)
            return st;
    }
    if (sys->model && sys->model->validate) {
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
    if (m && !m->orbit.guess)
        return hes__fail(sys, HES_EINVAL, "model '%s' declares no periodic orbit", m->name);
    int n = m ? m->modes[m->orbit.mode].dim : sys->ess_model->n;
    if (!hes__all_finite(x0, n))
        return hes__fail(sys, HES_EINVAL, "the orbit start must be finite");
    if (!(sys->orbit_start = malloc(sizeof(double) * (size_t)n)))
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    memcpy(sys->orbit_start, x0, sizeof(double) * (size_t)n);
    return HES_OK;
}

/* ------------------------------------------------------------------------
 * A system of the other kind: an event-selected model integrated by the
 * ESS integrator (hes_system_new_ess), and what every system answers
 * whatever its kind.  The orbit pipeline above (hes_analyze, sweeps) takes
 * either kind; the hybrid layer's own functions (modes, guards, saltation
 * matrices) refuse an ESS system through hes__need_hybrid.
 */

const char *hes_kind_name(hes_kind kind)
{
    switch (kind) {
    case HES_KIND_HYBRID: return "hybrid";
    case HES_KIND_ESS: return "ess";
    }
    return NULL;
}

hes_status hes__need_hybrid(hes_system *sys, const char *what)
{
    if (sys->kind == HES_KIND_HYBRID)
        return HES_OK;
    return hes__fail(sys, HES_EINVAL, "%s needs an event-driven hybrid model (modes, guards "
                     "and saltation matrices); '%s' is an event-selected system, integrated "
                     "by the ESS integrator", what, sys->name);
}

/* The ESS orbit options' share of the settings: the budget names that mean
 * the same for both kinds (hes_system_set_ess_options). */
static void settings_of_ess(hes_settings *s, const hes_ess_orbit_options *o)
{
    s->rtol = o->ess.rtol;
    s->atol = o->ess.atol;
    s->newton_tol = o->tol;
    s->newton_maxiter = o->max_iter;
    s->max_search_time = o->max_wall_time;
    s->max_wall_time = o->ess.max_wall_time;
}

void hes__ess_of_settings(hes_ess_orbit_options *o, const hes_settings *s)
{
    o->ess.rtol = s->rtol;
    o->ess.atol = s->atol;
    o->tol = s->newton_tol;
    o->max_iter = s->newton_maxiter;
    o->max_wall_time = s->max_search_time;
    o->ess.max_wall_time = s->max_wall_time;
}

hes_status hes_system_new_ess(const hes_ess_model *model, hes_system **out, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (msg && len)
        msg[0] = '\0';
    if (!out)
        return hes__say(msg, len, HES_EINVAL, "hes_system_new_ess: no place for the system "
                        "(out is NULL)");
    *out = NULL;
    hes_ess *ess;
    hes_status st = hes_ess_new(model, &ess, err);
    if (st != HES_OK)
        return st;
    hes_system *sys = system_alloc(HES_KIND_ESS, model->name, model->n_params, model->params);
    if (!sys) {
        hes_ess_destroy(ess);
        return hes__say(msg, len, HES_ENOMEM, "out of memory");
    }
    sys->ess = ess;
    sys->ess_model = model;
    hes_ess_orbit_options_init(&sys->eopt);
    sys->eopt.section = model->orbit_x0 ? model->orbit_section : 0;
    sys->set = hes_system_get_settings(NULL);
    settings_of_ess(&sys->set, &sys->eopt);
    *out = sys;
    return HES_OK;
}

const hes_ess *hes__system_ess(const hes_system *sys)
{
    return sys ? sys->ess : NULL;
}

hes_ess *hes_system_ess(hes_system *sys)
{
    if (!sys || !sys->ess)
        return NULL;
    /* the values hes_system_set_param checked, for a run of the caller's */
    memcpy(sys->ess->p, sys->p, (size_t)sys->n_params * sizeof *sys->p);
    return sys->ess;
}

hes_kind hes_system_kind(const hes_system *sys)
{
    return sys ? sys->kind : HES_KIND_HYBRID;
}

const hes_ess_model *hes_system_ess_model(const hes_system *sys)
{
    return sys ? sys->ess_model : NULL;
}

const char *hes_system_name(const hes_system *sys)
{
    return sys ? sys->name : NULL;
}

int hes_system_n_params(const hes_system *sys)
{
    return sys ? sys->n_params : 0;
}

const hes_param *hes_system_param_info(const hes_system *sys, int i)
{
    return sys && i >= 0 && i < sys->n_params ? &sys->params[i] : NULL;
}

hes_status hes_system_set_ess_options(hes_system *sys, const hes_ess_orbit_options *o)
{
    if (!sys)
        return HES_EINVAL;
    if (sys->kind != HES_KIND_ESS)
        return hes__fail(sys, HES_EINVAL, "ESS orbit options: '%s' is not an event-selected "
                         "system", sys->name);
    if (!o)
        return hes__fail(sys, HES_EINVAL, "ESS orbit options: none given (NULL)");
    if (o->section < 0 || o->section >= sys->ess_model->n)
        return hes__fail(sys, HES_EINVAL, "ESS orbit options: section = %d is not a state "
                         "index (0 to %d)", o->section, sys->ess_model->n - 1);
    if (!(o->tol > 0) || !(o->max_iter > 0) || !(o->max_wall_time > 0) ||
        !(o->ess.rtol > 0) || !(o->ess.atol > 0) || !(o->ess.max_wall_time > 0))
        return hes__fail(sys, HES_EINVAL, "ESS orbit options: tol, max_iter, max_wall_time "
                         "and the integrator's rtol, atol and max_wall_time must be > 0");
    sys->eopt = *o;
    settings_of_ess(&sys->set, &sys->eopt);
    return HES_OK;
}

hes_status hes_system_get_ess_options(const hes_system *sys, hes_ess_orbit_options *o)
{
    if (!sys || !o || sys->kind != HES_KIND_ESS)
        return HES_EINVAL;
    *o = sys->eopt;
    return HES_OK;
}

hes_status hes_system_set_orbit_period(hes_system *sys, double period)
{
    if (!sys)
        return HES_EINVAL;
    if (!isnan(period) && !(period > 0 && isfinite(period)))
        return hes__fail(sys, HES_EINVAL, "the orbit's period guess %g is not finite and > 0",
                         period);
    sys->orbit_period = period;
    return HES_OK;
}

hes_status hes_system_set_orbit_returns(hes_system *sys, int k)
{
    if (!sys)
        return HES_EINVAL;
    if (k < 1 || k > 64)
        return hes__fail(sys, HES_EINVAL, "an orbit's returns to its section per period "
                         "must lie in 1 to 64, not %d", k);
    if (k > 1 && sys->kind != HES_KIND_HYBRID)
        return hes__fail(sys, HES_EINVAL, "orbits of %d returns per period: the %s system's "
                         "orbit search finds orbits of one return only", k,
                         hes_kind_name(sys->kind));
    sys->orbit_returns = k;
    return HES_OK;
}

int hes_system_orbit_returns(const hes_system *sys)
{
    return sys ? sys->orbit_returns : 1;
}
