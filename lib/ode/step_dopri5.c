/*
 * step_dopri5.c - the DOPRI5 step type of ode/stepper.h: the Dormand-Prince
 * 5(4) pair (dopri5.c) with error control, its continuous extension for
 * the roots, and the variational matrix in its state.
 *
 * Error control (Hairer, Norsett & Wanner, Solving ODEs I, II.4): a step is
 * accepted when the weighted RMS norm of its error estimate is at most 1
 * (weights rtol max(|y|, |y1|) + atol over the whole state, the variational
 * matrix included, as CVODES's errconS); the next step is
 * h min(5, max(0.2, 0.9 err^(-1/5))), a rejected one is retried with
 * h max(0.1, min(0.9, 0.9 err^(-1/5))).  The first step is Hairer's
 * estimate (ibid., II.4).  The last stage is the field at the step's end
 * (first same as last): an accepted step costs six evaluations.
 *
 * Roots: after each accepted step the root functions are evaluated at its
 * end; when one crossed in its direction, the earliest crossing is located
 * by the one root locator (root.c) on the continuous extension of the
 * state's first n components (4th order, no extra stage), to CVODES's time
 * tolerance 100 u (|t| + |h|), and the whole state, the variational matrix
 * included, is taken there from the extension.
 */
#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "ode/root.h"
#include "ode/stepper.h"

/* The field, and with the variational matrix A after x also A' = (df/dx) A. */
static int field(void *data, double t, const double *y, double *ydot)
{
    const hes__stepper *st = data;
    return hes__stepper_field(&st->spec, t, y, ydot, st->dp.dim > st->spec.n) != 0
           ? HES__RK_EFN : 0;
}

static int roots_at(const hes__stepper *st, double t, const double *y, double *g)
{
    return st->spec.n_roots > 0 && st->spec.g(st->spec.data, t, y, g) != 0 ? HES__RK_EFN : 0;
}

static int dp_create(hes__stepper *st, const hes__stepper_spec *p)
{
    hes__dp5 *d = &st->dp;
    int n = p->n, nr = p->n_roots > 0 ? p->n_roots : 1;
    size_t N = (size_t)n * (size_t)(n + 1);
    d->N = (int)N;
    d->work = malloc(15 * N * sizeof *d->work);
    d->g0 = malloc(5 * (size_t)nr * sizeof *d->g0);
    d->found = calloc(2 * (size_t)nr, sizeof *d->found);
    if (!d->work || !d->g0 || !d->found)
        return -1;
    d->dirs = d->found + nr;
    for (int i = 0; i < p->n_roots; i++)
        d->dirs[i] = p->dirs ? p->dirs[i] : 0;
    d->g1 = d->g0 + nr, d->gt = d->g1 + nr, d->glo = d->gt + nr, d->ghi = d->glo + nr;
    double *w = d->work;
    hes__dopri5 *s = &d->s;
    s->N = N;
    s->k1 = w, s->k2 = w + N, s->k3 = w + 2 * N, s->k4 = w + 3 * N, s->k5 = w + 4 * N;
    s->k6 = w + 5 * N, s->k7 = w + 6 * N, s->y = w + 7 * N, s->y1 = w + 8 * N;
    s->yt = w + 9 * N, s->rc = w + 10 * N;   /* 5 N */
    s->f = field;
    s->data = st;
    return 0;
}

static void dp_free(hes__stepper *st)
{
    free(st->dp.work);
    free(st->dp.g0);
    free(st->dp.found);
}

static int dp_start(hes__stepper *st, double t0, const double *x, double rtol, double atol,
                    int sens, const double *S0, double *scratch)
{
    hes__dp5 *d = &st->dp;
    int n = st->spec.n;
    (void)scratch;
    assert(d->work && (size_t)n * (size_t)(n + 1) == (size_t)d->N);
    d->dim = sens ? d->N : n;
    d->s.n = d->dim;
    d->s.t = t0;
    d->s.rtol = rtol;
    d->s.atol = atol;
    d->h = 0;   /* estimated on the first advance, which knows tstop */
    d->steps = 0;
    d->have_k1 = 0;
    memcpy(d->s.y, x, sizeof(double) * (size_t)n);
    if (sens)
        hes__stepper_seed_after(d->s.y, n, S0);
    return roots_at(st, t0, d->s.y, d->g0) != 0 ? -1 : 0;
}

/* Hairer's starting step (Solving ODEs I, II.4), at most span. */
static int first_step(hes__stepper *st, double span)
{
    hes__dp5 *d = &st->dp;
    hes__dopri5 *s = &d->s;
    int n = d->dim;
    if (field(st, s->t, s->y, s->k1) != 0)
        return HES__RK_EFN;
    d->have_k1 = 1;
    double d0 = hes__dopri5_norm(n, s->y, s->y, NULL, s->rtol, s->atol);
    double d1 = hes__dopri5_norm(n, s->k1, s->y, NULL, s->rtol, s->atol);
    double h0 = fmin((d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1, span);
    for (int i = 0; i < n; i++)
        s->yt[i] = s->y[i] + h0 * s->k1[i];
    if (field(st, s->t + h0, s->yt, s->k2) != 0)
        return HES__RK_EFN;
    for (int i = 0; i < n; i++)
        s->k3[i] = (s->k2[i] - s->k1[i]) / h0;
    double d2 = hes__dopri5_norm(n, s->k3, s->y, NULL, s->rtol, s->atol), dm = fmax(d1, d2);
    double h1 = dm <= 1e-15 ? fmax(1e-6, 1e-3 * h0) : pow(0.01 / dm, 1.0 / 5);
    d->h = fmin(100 * h0, h1);
    if (!(d->h > 0) || !isfinite(d->h))
        d->h = h0 > 0 ? h0 : 1e-6;
    return 0;
}

/* The root locator's view of the roots within the accepted step of size h:
 * their values at the bracket's ends glo and ghi, at a trial gt, each trial
 * state from the continuous extension. */
typedef struct {
    hes__stepper *st;
    double h;
    int rc;
} dp_bracket;

static double dp_chord(void *data)
{
    const hes__dp5 *d = &((dp_bracket *)data)->st->dp;
    const int *dirs = ((dp_bracket *)data)->st->dp.dirs;
    double frac = 1;
    for (int i = 0; i < ((dp_bracket *)data)->st->spec.n_roots; i++)
        if (hes__root_crosses(d->glo[i], d->ghi[i], dirs[i]))
            frac = fmin(frac, d->glo[i] / (d->glo[i] - d->ghi[i]));
    return frac;
}

static int dp_sample(void *data, double th)
{
    dp_bracket *b = data;
    hes__dp5 *d = &b->st->dp;
    hes__dopri5_dense(b->st->spec.n, d->s.N, d->s.rc, th, d->s.yt);
    if ((b->rc = roots_at(b->st, d->s.t + th * b->h, d->s.yt, d->gt)) != 0)
        return -1;
    for (int i = 0; i < b->st->spec.n_roots; i++)
        if (hes__root_crosses(d->glo[i], d->gt[i], b->st->dp.dirs[i]))
            return 1;
    return 0;
}

static void dp_keep(void *data, int high)
{
    const hes__stepper *st = ((dp_bracket *)data)->st;
    memcpy(high ? st->dp.ghi : st->dp.glo, st->dp.gt, sizeof(double) * (size_t)st->spec.n_roots);
}

/* The first crossing within the accepted step of size h: the whole state
 * moved there on the extension, the roots crossed flagged. */
static int take_root(hes__stepper *st, double h)
{
    static const hes__root_bracket roots = { dp_chord, dp_sample, dp_keep };
    hes__dp5 *d = &st->dp;
    hes__dopri5 *s = &d->s;
    int nr = st->spec.n_roots;
    double stol = 100 * DBL_EPSILON * (fabs(s->t) + fabs(h)) / fabs(h), best = 1;
    dp_bracket b = { st, h, 0 };
    memcpy(d->glo, d->g0, sizeof(double) * (size_t)nr);
    memcpy(d->ghi, d->g1, sizeof(double) * (size_t)nr);
    if (hes__root_narrow(&roots, &b, 0, &best, stol) != 0)
        return b.rc;
    assert(best > 0 && best <= 1);   /* the locator's bracket stays in the step */
    if (best < 1)
        hes__dopri5_dense(d->dim, s->N, s->rc, best, s->y);
    else
        memcpy(s->y, s->y1, sizeof(double) * (size_t)d->dim);
    s->t += best * h;
    d->have_k1 = 0;
    if (roots_at(st, s->t, s->y, d->gt) != 0)
        return HES__RK_EFN;
    for (int i = 0; i < nr; i++) {
        /* crossed since the step's start, or within the final bracket */
        d->found[i] = hes__root_crosses(d->g0[i], d->gt[i], st->dp.dirs[i]) ||
                      hes__root_crosses(d->glo[i], d->ghi[i], st->dp.dirs[i]);
        d->g0[i] = d->gt[i];
    }
    return HES__RK_ROOT;
}

/* One attempt at a step of size h (the last one to tstop when last): 0 and
 * *done = 1 when accepted (the state advanced, or a root taken: *rc), 0 and
 * *done = 0 when rejected (h shrunk), or a failure. */
static int attempt(hes__stepper *st, double tstop, int *done, int *rc)
{
    hes__dp5 *d = &st->dp;
    hes__dopri5 *s = &d->s;
    double span = tstop - s->t;
    int last = fabs(d->h) >= fabs(span) * (1 - 1e-12);
    double h = last ? span : d->h, err;
    if (!d->have_k1 && field(st, s->t, s->y, s->k1) != 0)
        return HES__RK_EFN;
    d->have_k1 = 1;
    if (hes__dopri5_step(s, h, &err) != 0)
        return HES__RK_EFN;
    double fac = err > 0 ? 0.9 * pow(err, -1.0 / 5) : 5.0;
    *done = err <= 1.0;
    if (!*done) {
        d->h = h * (isfinite(fac) ? fmax(0.1, fmin(0.9, fac)) : 0.25);
        return fabs(d->h) < 16 * DBL_EPSILON * fmax(fabs(s->t), 1e-300) ? HES__RK_ESTEP : 0;
    }
    d->steps++;
    double hnext = h * fmin(5.0, fmax(0.2, fac));
    if (!last || fabs(hnext) < fabs(d->h))
        d->h = hnext;
    if (roots_at(st, last ? tstop : s->t + h, s->y1, d->g1) != 0)
        return HES__RK_EFN;
    int any = 0;
    for (int i = 0; i < st->spec.n_roots; i++)
        any |= hes__root_crosses(d->g0[i], d->g1[i], st->dp.dirs[i]);
    if (any) {
        hes__dopri5_extension(s, h);
        *rc = take_root(st, h);
        return *rc < 0 ? *rc : 0;
    }
    s->t = last ? tstop : s->t + h;
    memcpy(s->y, s->y1, sizeof(double) * (size_t)d->dim);
    memcpy(s->k1, s->k7, sizeof(double) * (size_t)d->dim);   /* first same as last */
    memcpy(d->g0, d->g1, sizeof(double) * (size_t)st->spec.n_roots);
    *rc = last ? HES__RK_TSTOP : HES__RK_CHUNK;
    return 0;
}

static int dp_advance(hes__stepper *st, double tstop, double *t)
{
    hes__dp5 *d = &st->dp;
    double span = tstop - d->s.t;
    int rc = 0;
    *t = d->s.t;
    if (!(fabs(span) > 4 * DBL_EPSILON * fabs(tstop)))
        return HES__ADV_TSTOP;
    if (d->h == 0 || (d->h > 0) != (span > 0)) {   /* a start, or a turn */
        if ((st->last = first_step(st, fabs(span))) != 0)
            return HES__ADV_FAIL;
        d->h = copysign(d->h, span);
    }
    for (long taken = 0; taken < st->spec.chunk;) {
        int done = 0;
        if ((st->last = attempt(st, tstop, &done, &rc)) != 0) {
            *t = d->s.t;
            return HES__ADV_FAIL;
        }
        *t = d->s.t;
        if (!done)
            continue;
        taken++;
        if (rc == HES__RK_ROOT)
            return HES__ADV_ROOT;
        if (rc == HES__RK_TSTOP)
            return HES__ADV_TSTOP;
    }
    return HES__ADV_CHUNK;
}

static const double *dp_state(const hes__stepper *st)
{
    return st->dp.s.y;
}

static int dp_sens(hes__stepper *st, double *A)
{
    int n = st->spec.n;
    memcpy(A, st->dp.s.y + n, sizeof(double) * (size_t)n * n);
    return 0;
}

static int dp_roots(const hes__stepper *st, int *found)
{
    memcpy(found, st->dp.found, sizeof(int) * (size_t)st->spec.n_roots);
    return 0;
}

static void dp_stats(const hes__stepper *st, long *steps, double *h)
{
    *steps = st->dp.steps;
    *h = st->dp.h;
}

const hes__stepper_type hes__step_dopri5 = {
    "dopri5", ", or the phase is stiff (dopri5 is explicit: a stiff model needs HES_BDF)",
    dp_create, dp_free, dp_start, dp_advance, dp_state, dp_sens, dp_roots, dp_stats,
    hes__stepper_explicit_why
};
