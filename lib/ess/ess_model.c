/*
 * ess_model.c - event-selected system models: structural validation
 * (hes_ess_validate) and the checked evaluation of their callbacks (a
 * nonzero return is HES_EMODEL, a non-finite value HES_ENONFINITE, each
 * with a message naming the callback), with central differences of f
 * (base/fd.c) when f_dx is absent; the sums of a contact model's field,
 * kept with the sign pattern (hes__ess_set_sign); the integrator's failure
 * message (hes__ess_fail).
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ess/ess.h"

#define ESS_MAX_DIM 10000

/* a refusal with its reason in the caller's msg */
#define BAD(...) return hes__say(msg, len, HES_EINVAL, __VA_ARGS__)

/* A name of the model (hes_name_check) at field; 0 or -1 with msg. */
static int bad_name(const char *model, const char *field, int i, const char *name, char *msg,
                    size_t len)
{
    char where[64];
    hes_error why;
    if (i >= 0)
        snprintf(where, sizeof where, "%s[%d]", field, i);
    else
        snprintf(where, sizeof where, "%s", field);
    if (hes_name_check(where, name, &why) == HES_OK)
        return 0;
    if (model)
        hes__say(msg, len, HES_EINVAL, "ESS model '%s': %s", model, why.message);
    else
        hes__say(msg, len, HES_EINVAL, "ESS model %s", why.message);
    return -1;
}

hes_status hes_ess_validate(const hes_ess_model *md, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (msg && len > 0)
        msg[0] = '\0';
    if (!md)
        BAD("ESS model is NULL");
    const char *nm = md->name ? md->name : "(unnamed)";
    if (!md->name || !md->name[0])
        BAD("ESS model: name is missing");
    if (bad_name(NULL, "name", -1, md->name, msg, len))
        return HES_EINVAL;
    if (md->n < 1 || md->n > ESS_MAX_DIM)
        BAD("ESS model '%s': n = %d must be from 1 to %d", nm, md->n, ESS_MAX_DIM);
    if (md->m < 1 || md->m > ESS_MAX_DIM)
        BAD("ESS model '%s': m = %d must be from 1 to %d (at least one "
            "event function)", nm, md->m, ESS_MAX_DIM);
    if (!md->f)
        BAD("ESS model '%s': the vector field f is NULL", nm);
    if (!md->h)
        BAD("ESS model '%s': the event functions h are NULL", nm);
    if (!md->Dh)
        BAD("ESS model '%s': the event Jacobian Dh is NULL", nm);
    for (int i = 0; md->state_names && i < md->n; i++)
        if (!md->state_names[i])
            BAD("ESS model '%s': state_names[%d] is NULL", nm, i);
        else if (bad_name(nm, "state_names", i, md->state_names[i], msg, len))
            return HES_EINVAL;
    for (int i = 0; md->event_names && i < md->m; i++)
        if (!md->event_names[i])
            BAD("ESS model '%s': event_names[%d] is NULL", nm, i);
        else if (bad_name(nm, "event_names", i, md->event_names[i], msg, len))
            return HES_EINVAL;
    const char *dup;
    int d;
    if ((d = hes__duplicate_name(md->state_names, md->n, &dup)) != 0) {
        if (d < 0)
            return hes__say(msg, len, HES_ENOMEM, "out of memory");
        BAD("ESS model '%s': state name '%s' appears twice", nm, dup);
    }
    if ((d = hes__duplicate_name(md->event_names, md->m, &dup)) != 0) {
        if (d < 0)
            return hes__say(msg, len, HES_ENOMEM, "out of memory");
        BAD("ESS model '%s': event name '%s' appears twice", nm, dup);
    }
    if (md->n_params < 0 || md->n_params > ESS_MAX_DIM)
        BAD("ESS model '%s': n_params = %d must be from 0 to %d", nm,
            md->n_params, ESS_MAX_DIM);
    if (md->n_params > 0 && !md->params)
        BAD("ESS model '%s': params is NULL but n_params = %d", nm,
            md->n_params);
    for (int k = 0; k < md->n_params; k++) {
        const hes_param *q = &md->params[k];
        if (!q->name || !q->name[0])
            BAD("ESS model '%s': params[%d].name is missing", nm, k);
        char field[32];
        snprintf(field, sizeof field, "params[%d].name", k);
        if (bad_name(nm, field, -1, q->name, msg, len))
            return HES_EINVAL;
        for (int l = 0; l < k; l++)
            if (strcmp(md->params[l].name, q->name) == 0)
                BAD("ESS model '%s': parameter name '%s' appears twice", nm,
                    q->name);
        if (!isfinite(q->value) || isnan(q->min) || isnan(q->max) || q->min > q->max ||
            q->value < q->min || q->value > q->max)
            BAD("ESS model '%s': parameter '%s' = %g is not finite or not "
                "within [%g, %g]", nm, q->name, q->value, q->min, q->max);
        if ((q->flags & HES_PARAM_POSITIVE) && !(q->value > 0))
            BAD("ESS model '%s': parameter '%s' = %g must be > 0", nm,
                q->name, q->value);
    }
    if (!md->h_some != !md->Dh_some || !md->h_some != !md->h_near)
        BAD("ESS model '%s': h_some, Dh_some and h_near go together (give all three or "
            "none)", nm);
    if (md->n_sums < 0 || md->n_sums > ESS_MAX_DIM)
        BAD("ESS model '%s': n_sums = %d must be from 0 to %d", nm, md->n_sums, ESS_MAX_DIM);
    if (md->n_sums > 0 && (!md->sums_init || !md->sums_flip || !md->f_sums))
        BAD("ESS model '%s': n_sums = %d needs sums_init, sums_flip and f_sums", nm,
            md->n_sums);
    if (md->energy_sums && (!md->energy || md->n_sums == 0))
        BAD("ESS model '%s': energy_sums needs energy and the sums (n_sums > 0)", nm);
    if (md->n_sums == 0 && (md->sums_init || md->sums_flip || md->f_sums || md->f_dx_sums))
        BAD("ESS model '%s': sums callbacks given with n_sums = 0", nm);
    if (md->orbit_x0 && (!hes__all_finite(md->orbit_x0, md->n) || !(md->orbit_period > 0) ||
                         !isfinite(md->orbit_period) || md->orbit_section < 0 ||
                         md->orbit_section >= md->n))
        BAD("ESS model '%s': the orbit guess needs n finite values, a finite "
            "orbit_period > 0 (got %g) and 0 <= orbit_section < n (got %d)", nm,
            md->orbit_period, md->orbit_section);
    return HES_OK;
}

hes_status hes__ess_fail(hes_ess *e, hes_status status, const char *fmt, ...)
{
    if (e->msg[0] == '\0') { /* the first failure is the cause */
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
    }
    return status;
}

const char *hes__ess_event_name(const hes_ess *e, int i, char *buf, size_t len)
{
    if (e->model->event_names)
        return e->model->event_names[i];
    snprintf(buf, len, "h[%d]", i);
    return buf;
}

static hes_status checked(hes_ess *e, int rc, const double *out, int k, const char *what)
{
    if (rc != 0)
        return hes__ess_fail(e, HES_EMODEL, "ESS model '%s': %s returned %d", e->model->name,
                             what, rc);
    if (!hes__all_finite(out, k))
        return hes__ess_fail(e, HES_ENONFINITE, "ESS model '%s': %s gave a non-finite value",
                             e->model->name, what);
    return HES_OK;
}

hes_status hes__ess_f(hes_ess *e, const double *x, const int *s, double *out)
{
    e->n_rhs++;
    if (e->sums_on)   /* the sums follow e->s (hes__ess_set_sign) */
        return checked(e, e->model->f_sums(x, e->sums, e->p, out, e->model->data), out, e->n,
                       "f_sums");
    return checked(e, e->model->f(x, s, e->p, out, e->model->data), out, e->n, "f");
}

struct fd_ctx { hes_ess *e; const int *s; };

static int f_vec(void *ctx, double t, const double *x, double *out)
{
    struct fd_ctx *c = ctx;
    (void)t;
    return hes__ess_f(c->e, x, c->s, out) == HES_OK ? 0 : 1;
}

hes_status hes__ess_f_dx(hes_ess *e, const double *x, const int *s, double *out)
{
    if (e->sums_on && e->model->f_dx_sums)
        return checked(e, e->model->f_dx_sums(x, e->sums, e->p, out, e->model->data), out,
                       e->n * e->n, "f_dx_sums");
    if (!e->sums_on && e->model->f_dx)
        return checked(e, e->model->f_dx(x, s, e->p, out, e->model->data), out,
                       e->n * e->n, "f_dx");
    struct fd_ctx c = { e, s };
    if (hes__fd_dx(f_vec, &c, 0.0, x, e->n, e->n, out, e->fdwork) != 0)
        return HES_EMODEL; /* hes__ess_f has failed with its message */
    return HES_OK;
}

hes_status hes__ess_sums_init(hes_ess *e)
{
    if (!e->sums_on)
        return HES_OK;
    return checked(e, e->model->sums_init(e->s, e->p, e->sums, e->model->data), e->sums,
                   e->model->n_sums, "sums_init");
}

hes_status hes__ess_set_sign(hes_ess *e, int i, int v)
{
    if (e->s[i] == v)
        return HES_OK;
    e->s[i] = v;
    if (!e->sums_on)
        return HES_OK;
    return checked(e, e->model->sums_flip(i, e->s, e->p, e->sums, e->model->data), e->sums,
                   e->model->n_sums, "sums_flip");
}

hes_status hes__ess_h_all(hes_ess *e, const double *x, double *out)
{
    return checked(e, e->model->h(x, e->p, out, e->model->data), out, e->m, "h");
}

hes_status hes__ess_Dh_all(hes_ess *e, const double *x, double *out)
{
    return checked(e, e->model->Dh(x, e->p, out, e->model->data), out, e->m * e->n, "Dh");
}

hes_status hes__ess_h_some(hes_ess *e, const double *x, int k, const int *idx, double *out)
{
    return checked(e, e->model->h_some(x, k, idx, e->p, out, e->model->data), out, k,
                   "h_some");
}

hes_status hes__ess_Dh_some(hes_ess *e, const double *x, int k, const int *idx, double *out)
{
    return checked(e, e->model->Dh_some(x, k, idx, e->p, out, e->model->data), out,
                   k * e->n, "Dh_some");
}

double hes__ess_rounding(const hes_ess *e, const double *D, int i, double xinf)
{
    double d1 = 0;
    for (int k = 0; k < e->n; k++)
        d1 += fabs(D[i + (size_t)k * e->m]);
    return 1e3 * DBL_EPSILON * (1 + d1 * xinf);
}

int hes__ess_at_zero(const hes_ess *e, int i, double xinf)
{
    return fabs(e->h[i]) <= fmax(hes__ess_rounding(e, e->Dh, i, xinf), e->zero_tol);
}

void hes_ess_model_destroy(hes_ess_model *model)
{
    if (model && model->release)
        model->release(model);
}
