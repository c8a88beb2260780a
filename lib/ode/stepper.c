/*
 * stepper.c - the step types of ode/stepper.h: CVODES with Adams or BDF
 * (over cvodes.c) and the explicit RK7(8) pair (over rk78.c, whose state
 * carries the variational matrix after x when the sensitivities are on).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "ode/stepper.h"

int hes__stepper_create(hes__stepper *s, const hes__stepper_type *t,
                        const hes__stepper_spec *spec)
{
    assert(spec->n > 0 && spec->chunk > 0 && spec->n_roots >= 0);
    assert(spec->f && spec->f_dx && spec->jac && (spec->n_roots == 0 || spec->g));
    memset(s, 0, sizeof *s);
    s->spec = *spec;
    s->type = t;
    return t->create(s, spec);
}

void hes__stepper_free(hes__stepper *s)
{
    if (s->type)
        s->type->free(s);
    memset(s, 0, sizeof *s);
}

/* ------------------------------------------------------------ CVODES */

static int cv_create(hes__stepper *s, const hes__stepper_spec *p, int bdf)
{
    hes__ode_spec o = { bdf, p->f, p->f_dx, p->jac, p->n_roots, p->g, p->dirs, p->data,
                        p->err, p->err_data, p->chunk };
    return hes__ode_create(&s->ode, p->ctx, p->n, &o);
}

static int adams_create(hes__stepper *s, const hes__stepper_spec *p)
{
    return cv_create(s, p, 0);
}

static int bdf_create(hes__stepper *s, const hes__stepper_spec *p)
{
    return cv_create(s, p, 1);
}

static void cv_free(hes__stepper *s)
{
    hes__ode_free(&s->ode);
}

static int cv_start(hes__stepper *s, double t0, const double *x, double rtol, double atol,
                    int sens, const double *S0, double *scratch)
{
    return hes__ode_start(&s->ode, t0, x, rtol, atol, sens, S0, scratch);
}

static int cv_advance(hes__stepper *s, double tstop, double *t)
{
    sunrealtype tr = *t;
    s->ode.jac_ok = 0;   /* its owner may have used the scratch since */
    CVodeSetStopTime(s->ode.cvode, tstop);
    int flag = CVode(s->ode.cvode, tstop, s->ode.y, &tr, CV_NORMAL);
    *t = tr;
    s->last = flag;
    if (flag == CV_TOO_MUCH_WORK)   /* a chunk of steps done */
        return HES__ADV_CHUNK;
    if (flag == CV_ROOT_RETURN)
        return HES__ADV_ROOT;
    if (flag == CV_TSTOP_RETURN || flag == CV_SUCCESS)
        return HES__ADV_TSTOP;
    return HES__ADV_FAIL;
}

static const double *cv_state(const hes__stepper *s)
{
    return NV_DATA_S(s->ode.y);
}

static int cv_sens(hes__stepper *s, double *A)
{
    return hes__ode_get_sens(&s->ode, A);
}

static int cv_roots(const hes__stepper *s, int *found)
{
    return CVodeGetRootInfo(s->ode.cvode, found) == CV_SUCCESS ? 0 : -1;
}

static void cv_stats(const hes__stepper *s, long *steps, double *h)
{
    sunrealtype hl = 0;
    *steps = 0;
    CVodeGetNumSteps(s->ode.cvode, steps);
    CVodeGetLastStep(s->ode.cvode, &hl);
    *h = hl;
}

static void cv_why(const hes__stepper *s, char *buf, size_t len)
{
    snprintf(buf, len, "flag %d", s->last);
}

const hes__stepper_type hes__step_adams = {
    "CVODES", "", adams_create, cv_free, cv_start, cv_advance, cv_state, cv_sens, cv_roots,
    cv_stats, cv_why
};

const hes__stepper_type hes__step_bdf = {
    "CVODES", "", bdf_create, cv_free, cv_start, cv_advance, cv_state, cv_sens, cv_roots,
    cv_stats, cv_why
};

/* ------------------------------------------------------------ RK7(8) */

int hes__stepper_field(const hes__stepper_spec *p, double t, const double *y, double *ydot,
                       int with_a)
{
    int n = p->n;
    if (p->f(p->data, t, y, ydot) != 0)
        return -1;
    if (with_a) {
        if (p->f_dx(p->data, t, y, p->jac) != 0)
            return -1;
        hes__matmul(n, n, n, p->jac, y + n, ydot + n);
    }
    return 0;
}

void hes__stepper_seed_after(double *y, int n, const double *S0)
{
    if (S0) {
        memcpy(y + n, S0, sizeof(double) * (size_t)n * n);
        return;
    }
    memset(y + n, 0, sizeof(double) * (size_t)n * n);
    for (int i = 0; i < n; i++)
        y[n + i * (n + 1)] = 1.0;
}

void hes__stepper_explicit_why(const hes__stepper *s, char *buf, size_t len)
{
    snprintf(buf, len, "%s", s->last == HES__RK_ESTEP
             ? "the step size fell to rounding level (a singularity, or a stiff phase: "
               "choose adams or bdf)" : "error");
}

/* The field, and with m > n also the variational tail A' = (df/dx) A. */
static int rk_field(double t, const double *y, double *ydot, int m, void *data)
{
    const hes__stepper_spec *p = &((hes__stepper *)data)->spec;
    return hes__stepper_field(p, t, y, ydot, m > p->n);
}

static int rk_roots_at(double t, const double *y, double *g, void *data)
{
    const hes__stepper_spec *p = &((hes__stepper *)data)->spec;
    return p->g(p->data, t, y, g);
}

static int rk_create(hes__stepper *s, const hes__stepper_spec *p)
{
    return hes__rk_create(&s->rk, p->n * (p->n + 1), p->n, p->n_roots, p->dirs, rk_field,
                          rk_roots_at, s);
}

static void rk_free(hes__stepper *s)
{
    hes__rk_free(&s->rk);
}

static int rk_start(hes__stepper *s, double t0, const double *x, double rtol, double atol,
                    int sens, const double *S0, double *scratch)
{
    int n = s->spec.n;
    double *y0 = s->rk.y1; /* scratch until the first step */
    (void)scratch;
    memcpy(y0, x, sizeof(double) * (size_t)n);
    if (sens)
        hes__stepper_seed_after(y0, n, S0);
    return hes__rk_start(&s->rk, t0, y0, rtol, atol, sens) != 0 ? -1 : 0;
}

static int rk_advance(hes__stepper *s, double tstop, double *t)
{
    int rc = hes__rk_advance(&s->rk, tstop, s->spec.chunk);
    *t = s->rk.t;
    s->last = rc;
    return rc == HES__RK_CHUNK ? HES__ADV_CHUNK : rc == HES__RK_ROOT ? HES__ADV_ROOT
           : rc == HES__RK_TSTOP ? HES__ADV_TSTOP : HES__ADV_FAIL;
}

static const double *rk_state(const hes__stepper *s)
{
    return s->rk.y;
}

static int rk_sens(hes__stepper *s, double *A)
{
    int n = s->spec.n;
    memcpy(A, s->rk.y + n, sizeof(double) * (size_t)n * n);
    return 0;
}

static int rk_roots(const hes__stepper *s, int *found)
{
    memcpy(found, s->rk.found, sizeof(int) * (size_t)s->spec.n_roots);
    return 0;
}

static void rk_stats(const hes__stepper *s, long *steps, double *h)
{
    *steps = s->rk.steps;
    *h = s->rk.h;
}

const hes__stepper_type hes__step_rk78 = {
    "rk8", ", or the phase is stiff (rk8 is explicit: a stiff model needs HES_BDF)",
    rk_create, rk_free, rk_start, rk_advance, rk_state, rk_sens, rk_roots, rk_stats,
    hes__stepper_explicit_why
};
