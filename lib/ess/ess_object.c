/*
 * ess_object.c - the ESS integrator as an object (hes_ess): its options'
 * defaults, creation (the model validated, the CVODES integrator with its
 * callbacks: the field f(x, s) at the current sign pattern, its Jacobian,
 * the sensitivities' right-hand side (df/dx) S, and the 2m root slots of
 * ess.c's header comment), destruction, parameters and results.  The run
 * itself is ess.c.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ess/ess.h"

/* ------------------------------------------------------ CVODES callbacks */

static int record(hes_ess *e, hes_status st)
{
    if (e->cb_status == HES_OK)
        e->cb_status = st;
    return -1;
}

/* The field f(x, s) at the current sign pattern, its Jacobian, and the 2m
 * root slots (slot i: h_i + eps for a watched band entry, slot m + i: h_i
 * for a watched sign change; 1 when off), for ode/cvodes.c's callbacks. */
static int field(void *d, double t, const double *x, double *out)
{
    hes_ess *e = d;
    (void)t;
    hes_status st = hes__ess_f(e, x, e->s, out);
    return st == HES_OK ? 0 : record(e, st);
}

static int field_dx(void *d, double t, const double *x, double *out)
{
    hes_ess *e = d;
    (void)t;
    hes_status st = hes__ess_f_dx(e, x, e->s, out);
    return st == HES_OK ? 0 : record(e, st);
}

static int roots(void *d, double t, const double *x, double *g)
{
    hes_ess *e = d;
    int m = e->m;
    (void)t;
    hes_status st = hes__ess_h(e, x, e->h);
    if (st != HES_OK)
        return record(e, st);
    for (int i = 0; i < m; i++) {
        g[i] = e->watch[i] ? e->h[i] + e->eps : 1.0;
        g[m + i] = e->watch[m + i] ? e->h[i] : 1.0;
    }
    return 0;
}

static void cv_error_handler(int code, const char *module, const char *function,
                             char *msg, void *data)
{
    hes_ess *e = data;
    (void)module;
    if (code < 0)
        snprintf(e->cvode_msg, sizeof e->cvode_msg, "%s: %s", function, msg);
}

/* --------------------------------------------------------------- object */

void hes_ess_options_init(hes_ess_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->eps = 1e-3;
    o->rtol = 1e-8;
    o->atol = 1e-10;
    o->live_tol = 1e-9;
    o->max_loops = 10000000;
    o->max_wall_time = 60;
    o->near_miss = 1;   /* watched: the paper's own plate needs it (below) */
}

hes_status hes_ess_new(const hes_ess_model *model, hes_ess **out, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (!out)
        return HES_EINVAL;
    *out = NULL;
    hes_status st = hes_ess_validate(model, err);
    if (st != HES_OK)
        return st;
    hes_ess *e = calloc(1, sizeof *e);
    if (!e)
        return HES_ENOMEM;
    int n = model->n, m = model->m;
    size_t N = (size_t)n, M = (size_t)m;
    e->model = model;
    e->sums_on = model->n_sums > 0;
    e->n = n;
    e->m = m;
    e->p = calloc((size_t)(model->n_params > 0 ? model->n_params : 1), sizeof *e->p);
    for (int k = 0; e->p && k < model->n_params; k++)
        e->p[k] = model->params[k].value;
    e->s = calloc(M, sizeof *e->s);
    e->watch = calloc(2 * M, sizeof *e->watch);
    e->pool = calloc(M, sizeof *e->pool);
    e->hit = calloc(M, sizeof *e->hit);
    e->roots = calloc(2 * M, sizeof *e->roots);
    e->late = calloc(M, sizeof *e->late);
    e->h = calloc(M, sizeof(double));
    e->hp = calloc(M, sizeof(double));
    e->Dh = calloc(M * N, sizeof(double));
    e->Dh2 = calloc(M * N, sizeof(double));
    e->G = calloc(N, sizeof(double));
    e->Fp = calloc(N, sizeof(double));
    e->DG = calloc(N * N, sizeof(double));
    e->fdwork = calloc(3 * N, sizeof(double));
    e->xs = calloc(N, sizeof(double));
    e->xp = calloc(N, sizeof(double));
    e->xdh = calloc(N, sizeof(double));
    e->row = calloc(N, sizeof(double));
    e->tmpn = calloc(N, sizeof(double));
    e->Jtmp = calloc(N * N, sizeof(double));
    e->A = calloc(N * N, sizeof(double));
    e->x = calloc(N, sizeof(double));
    e->J = calloc(N * N, sizeof(double));
    e->w = calloc(N, sizeof(double));
    e->act = calloc(M, sizeof *e->act);
    e->is_act = calloc(M, sizeof *e->is_act);
    e->near = calloc(M, sizeof *e->near);
    e->lo = calloc(N, sizeof(double));
    e->hi = calloc(N, sizeof(double));
    e->tmpm = calloc(M, sizeof(double));
    e->tmpmn = model->h_some ? calloc(M * N, sizeof(double)) : NULL;
    e->sums = calloc((size_t)(model->n_sums > 0 ? model->n_sums : 1), sizeof(double));
    e->en_y = calloc(N, sizeof(double));
    e->en_f = calloc(N, sizeof(double));
    e->en_d = calloc(N, sizeof(double));
    if (!e->act || !e->is_act || !e->near || !e->lo || !e->hi || !e->tmpm ||
        (model->h_some && !e->tmpmn) || !e->sums || !e->en_y || !e->en_f || !e->en_d) {
        hes_ess_destroy(e);
        return HES_ENOMEM;
    }
    if (!e->p || !e->s || !e->watch || !e->pool || !e->hit || !e->roots || !e->late || !e->h ||
        !e->hp || !e->Dh || !e->Dh2 || !e->G || !e->Fp || !e->DG || !e->fdwork || !e->xs ||
        !e->xp || !e->xdh || !e->row || !e->tmpn || !e->Jtmp || !e->A || !e->x || !e->J ||
        !e->w) {
        hes_ess_destroy(e);
        return HES_ENOMEM;
    }
    int *dirs = malloc(2 * M * sizeof *dirs);
    if (!dirs || SUNContext_Create(NULL, &e->ctx) != 0) {
        free(dirs);
        hes_ess_destroy(e);
        return HES_ENOMEM;
    }
    for (int i = 0; i < m; i++) {
        dirs[i] = 1;      /* band entry: h_i + eps rising */
        dirs[m + i] = 0;  /* sign change, either way */
    }
    hes__ode_spec spec = { 0, field, field_dx, e->DG, 2 * m, roots, dirs, e, cv_error_handler,
                           e, 500000 };
    int rc = hes__ode_create(&e->ode, e->ctx, n, &spec);
    free(dirs);
    if (rc != 0) {
        if (msg && len > 0)
            snprintf(msg, len, "cannot set up CVODES for ESS model '%s' (n = %d): %s",
                     model->name, n, e->cvode_msg[0] ? e->cvode_msg : "out of memory");
        hes_ess_destroy(e);
        return HES_ENOMEM;
    }
    *out = e;
    return HES_OK;
}

void hes_ess_destroy(hes_ess *e)
{
    if (!e)
        return;
    hes__ode_free(&e->ode);
    if (e->ctx)
        SUNContext_Free(&e->ctx);
    free(e->p); free(e->s); free(e->watch); free(e->pool); free(e->hit); free(e->roots);
    free(e->late);
    free(e->h); free(e->hp); free(e->Dh); free(e->Dh2); free(e->G); free(e->Fp); free(e->DG);
    free(e->fdwork); free(e->xs); free(e->xp); free(e->xdh); free(e->row); free(e->tmpn);
    free(e->Jtmp); free(e->A);
    free(e->dp_k); free(e->dp_h0); free(e->dp_cand); free(e->dp_ev);
    free(e->x); free(e->J); free(e->w);
    free(e->act); free(e->is_act); free(e->near); free(e->lo); free(e->hi);
    free(e->tmpm); free(e->tmpmn); free(e->sums); free(e->en_y);
    free(e->en_f); free(e->en_d);
    free(e);
}

const hes_ess_model *hes_ess_get_model(const hes_ess *e) { return e ? e->model : NULL; }
const char *hes_ess_errmsg(const hes_ess *e) { return e ? e->msg : "no ESS integrator"; }
const double *hes_ess_params(const hes_ess *e) { return e ? e->p : NULL; }

hes_status hes_ess_set_param(hes_ess *e, const char *name, double value)
{
    if (!e || !name)
        return HES_EINVAL;
    e->msg[0] = '\0';
    for (int k = 0; k < e->model->n_params; k++) {
        const hes_param *q = &e->model->params[k];
        if (strcmp(q->name, name) != 0)
            continue;
        if (!isfinite(value) || value < q->min || value > q->max ||
            ((q->flags & HES_PARAM_POSITIVE) && !(value > 0)))
            return hes__ess_fail(e, HES_EINVAL, "parameter '%s' = %g is outside [%g, %g]%s",
                                 name, value, q->min, q->max,
                                 (q->flags & HES_PARAM_POSITIVE) ? " or not > 0" : "");
        e->p[k] = value;
        return HES_OK;
    }
    return hes__ess_fail(e, HES_ENOTFOUND, "ESS model '%s' has no parameter '%s'",
                         e->model->name, name);
}

void hes_ess_result_free(hes_ess_result *r)
{
    if (!r)
        return;
    free(r->x_end); free(r->s_end); free(r->jac); free(r->t); free(r->x); free(r->x_out);
    memset(r, 0, sizeof *r);
}
