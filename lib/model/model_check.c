/*
 * model_check.c - hes_model_check_derivatives: the Jacobians a model
 * supplies (field, guard, reset; a mechanical mode's force_dx) against
 * central differences of its own callbacks (base/fd.c), the worst entry
 * named.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_internal.h"

/* ---------------------------------------------------- derivative checks */

/* The worst entry of a supplied Jacobian a against central differences d
 * (len entries; n_out rows, or a derivative in t when wrt_t), by
 * |a - d| / max(1, |d|), into rep where it is worse than rep's; rep's
 * disagree where it exceeds HES_DERIV_TOL. */
static void worst_entry(const double *a, const double *d, int len, int n_out, int wrt_t,
                        const char *label, hes_deriv_report *rep)
{
    rep->n_checked++;
    for (int k = 0; k < len; k++) {
        double e = fabs(a[k] - d[k]) / fmax(1.0, fabs(d[k]));
        if (!(e <= rep->max_rel_err)) { /* also catches NaN */
            rep->max_rel_err = isnan(e) ? INFINITY : e;
            rep->disagree |= rep->max_rel_err > HES_DERIV_TOL; /* kept if a later one fails */
            if (wrt_t)
                snprintf(rep->where, sizeof rep->where, "%s[%d]", label, k);
            else
                snprintf(rep->where, sizeof rep->where, "%s[%d,%d]", label, k % n_out,
                         k / n_out);
        }
    }
}

/* A comparison that could not be made: why, into rep's where, unless a
 * Jacobian compared before disagrees (where then keeps naming it: the
 * wrong entry is what the caller must see first). */
static void cannot_compare(hes_deriv_report *rep, const char *fmt, ...)
{
    if (rep->disagree)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rep->where, sizeof rep->where, fmt, ap);
    va_end(ap);
}

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
    hes__bound_fn b = { fn, p, data, n_out, 0 };
    int rc = jac_fn(t, x, p, a, data);
    if (rc != 0) {
        cannot_compare(rep, "%s: the Jacobian callback failed (code %d)", label, rc);
    } else {
        rc = wrt_t ? hes__fd_dt(hes__bound_call, &b, t, x, n_in, n_out, d, work)
                   : hes__fd_dx(hes__bound_call, &b, t, x, n_in, n_out, d, work);
        if (rc != 0)
            cannot_compare(rep, "%s: the function failed near the state (code %d)", label, rc);
    }
    if (rc == 0)
        worst_entry(a, d, len, n_out, wrt_t, label, rep);
    free(a);
    return rc;
}

/* A mechanical mode's force_dx (hes_mech.force_dx, if the model gives one)
 * against central differences of its force in q, q' and u, the other two
 * held, at the configuration, velocities and inputs of the state x. */
typedef struct {
    const hes_mech *m;
    const double *p, *q, *qd, *u;
    int which;                   /* the variable: 0 q, 1 q', 2 u */
} force_arg;

static int force_of(void *ctx, double t, const double *v, double *out)
{
    const force_arg *a = ctx;
    (void)t;
    return a->m->force(a->which == 0 ? v : a->q, a->which == 1 ? v : a->qd,
                       a->which == 2 ? v : a->u, a->p, out, a->m->data) ? E_CALLBACK : 0;
}

/* The force's Jacobians df/dq, df/dq', df/du at the evaluated state ev
 * against central differences, in W: J (three blocks of d x max(d, m)),
 * D (d x max(d, m)) and the differences' work (3 max(d, m)). */
static int compare_force_dx(const hes_mech *m, double t, const double *p,
                            const hes__mech_eval *ev, const char *mode, hes_deriv_report *rep,
                            hes__mech_work *W)
{
    int d = m->d, rc;
    size_t big = (size_t)d * (size_t)(d > m->m ? d : m->m);
    double *J[3] = { hes__mech_work_take(W, big), hes__mech_work_take(W, big),
                     hes__mech_work_take(W, big) };
    double *D = hes__mech_work_take(W, big), *work = hes__mech_work_take(W, 3 * big / d);
    if (m->force_dx(ev->q, ev->qd, ev->u, p, J[0], J[1], J[2], m->data)) {
        cannot_compare(rep, "mode %s: force_dx failed", mode);
        return E_CALLBACK;
    }
    static const char *const wrt[] = { "q", "q'", "u" };
    for (int which = 0; which < 3; which++) {
        int n_in = which == 2 ? m->m : d;
        if (n_in == 0)
            continue;
        force_arg a = { m, p, ev->q, ev->qd, ev->u, which };
        const double *v = which == 0 ? ev->q : which == 1 ? ev->qd : ev->u;
        char label[96];
        snprintf(label, sizeof label, "mode %s: force_dx df/d%s", mode, wrt[which]);
        if ((rc = hes__fd_dx(force_of, &a, t, v, n_in, d, D, work))) {
            cannot_compare(rep, "mode %s: the force failed near the state", mode);
            return rc;
        }
        worst_entry(J[which], D, n_in * d, d, 0, label, rep);
    }
    return 0;
}

static int check_force_dx(const hes_mech_mode *md, double t, const double *x, const double *p,
                          const char *mode, hes_deriv_report *rep)
{
    const hes_mech *m = md->mech;
    int d = m->d, rc;
    hes__mech_eval ev;
    /* force_dx differentiates in coordinates that are their own velocities:
       a system with quaternions uses net_force instead (model.c) */
    if (!m->force_dx || hes_mech_nq(m) != m->d)
        return 0;
    size_t big = (size_t)d * (size_t)(d > m->m ? d : m->m);
    hes__mech_work w = { 0 };
    if ((rc = hes__mech_mode_eval(md, t, x, p, &ev)))
        cannot_compare(rep, "mode %s: its dynamics failed at the state (code %d)", mode, rc);
    else if ((rc = hes__mech_work_open(&w, NULL, 0, 4 * big + 3 * big / d)))
        cannot_compare(rep, "mode %s: out of memory for its force's Jacobians", mode);
    else
        rc = compare_force_dx(m, t, p, &ev, mode, rep, &w);
    hes__mech_work_close(&w);
    hes__mech_eval_close(&ev);
    return rc;
}

/* Whether mode i's state x is one where a slide starts from rest (its
 * consistent projector is not the identity), said in rep: there the field
 * and the guards turn with the sliding direction over speeds of
 * HES_MECH_STICK_SPEED, finer than any difference step that rounding
 * allows, and nothing is compared (the derivative of such a slide is
 * tested against differences of the whole flow, tests/test_robot_liftoff.c). */
static int fine_state(const hes_model *m, int i, double t, const double *x, const double *p,
                      hes_deriv_report *rep)
{
    const hes_mode *md = &m->modes[i];
    if (!md->consistent)
        return 0;
    size_t n = (size_t)md->dim;
    double *P = malloc(sizeof(double) * n * n);
    int fine = P && !md->consistent(t, x, p, P, hes__mode_data(m, i)) &&
               !hes__is_identity(P, md->dim);
    free(P);
    if (fine)
        cannot_compare(rep, "mode %s: not compared where a slide starts from rest", md->name);
    return fine;
}

/* Whether a mechanical transition's derivative jac is the mechanical
 * layer's own differences of its map (mech.c), where there is nothing of
 * the model's to compare and differences of differences only measure the
 * map's roughness at the step: a reset's (of the map without the event's
 * consistency checks, which refuse the differences' states near the
 * event), and a release's or a slip's guard (its force), whose gradient
 * and time derivative are differences; an activation's and a stick's are
 * exact and compared. */
static int by_differences(hes_fn jac, const void *data)
{
    if (jac == hes_mech_reset_dx || jac == hes_mech_reset_dt)
        return 1;
    if (jac != hes_mech_guard_dx && jac != hes_mech_guard_dt)
        return 0;
    const hes_mech_transition *tr = data;
    return tr->kind != HES_MECH_ACTIVATE && tr->kind != HES_MECH_STICK;
}

hes_status hes_model_check_derivatives(const hes_model *m, const double *p,
                                       double t, const double *const *xs,
                                       hes_deriv_report *rep)
{
    if (!rep)
        return HES_EINVAL;
    char label[96];
    memset(rep, 0, sizeof *rep);
    if (!p || !xs) {
        snprintf(rep->where, sizeof rep->where, "no %s given", !p ? "parameters" : "states");
        return HES_EINVAL;
    }
    hes_error e;
    if (hes__err_pass(hes_model_validate(m, &e), &e, rep->where, sizeof rep->where) != HES_OK)
        return HES_EINVAL;
    for (int i = 0; i < m->n_modes; i++) {
        const hes_mode *md = &m->modes[i];
        if (!md->field_dx || !xs[i])
            continue;
        snprintf(label, sizeof label, "mode %s: dF/dx", md->name);
        if (fine_state(m, i, t, xs[i], p, rep))
            continue;
        if (compare(md->field_dx, md->field, md->dim, md->dim, 0, t, xs[i], p,
                    hes__mode_data(m, i), label, rep))
            return HES_EMODEL;
    }
    /* a mechanical mode's force Jacobians themselves: df/du enters dF/dx
       only through inputs that depend on the state */
    for (int i = 0; i < m->n_modes; i++) {
        const hes_mode *md = &m->modes[i];
        if (md->field == hes_mech_field && xs[i] &&
            check_force_dx(hes__mode_data(m, i), t, xs[i], p, md->name, rep))
            return HES_EMODEL;
    }
    for (int k = 0; k < m->n_transitions; k++) {
        const hes_transition *T = &m->transitions[k];
        int ni = m->modes[T->from].dim, nj = m->modes[T->to].dim;
        const double *x = xs[T->from];
        if (!x || fine_state(m, T->from, t, x, p, rep))
            continue;
        struct { hes_fn jac, fn; int n_out, wrt_t; const char *what; } c[] = {
            { T->guard_dx, T->guard, 1, 0, "Dxg" },
            { T->guard_dt, T->guard, 1, 1, "Dtg" },
            { T->reset_dx, T->reset, nj, 0, "DxR" },
            { T->reset_dt, T->reset, nj, 1, "DtR" },
        };
        for (size_t j = 0; j < sizeof c / sizeof c[0]; j++) {
            if (!c[j].jac || !c[j].fn || by_differences(c[j].jac, hes__tr_data(m, k)))
                continue;
            snprintf(label, sizeof label, "transition %s: %s", T->name, c[j].what);
            if (compare(c[j].jac, c[j].fn, ni, c[j].n_out, c[j].wrt_t, t, x, p,
                        hes__tr_data(m, k), label, rep))
                return HES_EMODEL;
        }
    }
    return HES_OK;
}
