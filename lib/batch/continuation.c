/*
 * continuation.c - hes_continue: a periodic orbit followed as one parameter
 * moves, by natural-parameter continuation over the one orbit pipeline
 * (hes_analyze), with its changes of stability located and classified.
 *
 * Predictor: the secant through the last two points, x0(p + h) ~ x0(p) +
 * h (x0(p) - x0(p_prev)) / (p - p_prev) (the point itself for the second).
 * Corrector: the system's shooting from that start.  Step control: a point
 * whose correction moves the section state or the period by more than
 * max_jump times the predictor's own step in them (for the second point,
 * which has no secant, their size; plus 1e-8 of the state's size), or that
 * fails, is refused and the step halves; after two easy points in a
 * row the step grows by 1.5, up to max_step.  Below min_step the branch
 * ends (a fold, where the branch turns back and no orbit lies ahead; a
 * grazing event; the parameter's range).
 *
 * Stability changes: where the verdicts of two neighbouring points differ
 * (stable on one side, unstable on the other; a marginal point is itself
 * the crossing), psi - 1 changes sign in between; bisection in the
 * parameter, each orbit warm-started from the interpolated section state,
 * narrows it to tol, and the point found is the one of the two ends whose
 * psi lies nearer 1.  Its crossing multiplier is the nontrivial multiplier
 * of largest modulus, classified by its angle: |im| <= 1e-6 |lambda| real,
 * +1 or -1 by its sign, else a complex pair (Kuznetsov, "Elements of
 * Applied Bifurcation Theory", Sec. 7.3, for the three codimension-one
 * bifurcations of a fixed point of a map, here the Poincare map).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid/hybrid.h"

const char *hes_crossing_name(hes_crossing c)
{
    switch (c) {
    case HES_CROSS_NONE: return "none";
    case HES_CROSS_PLUS_ONE: return "+1";
    case HES_CROSS_MINUS_ONE: return "-1";
    case HES_CROSS_COMPLEX: return "complex";
    }
    return "?";
}

const char *hes_label_name(hes_label l)
{
    switch (l) {
    case HES_LABEL_NONE: return "";
    case HES_LABEL_EP: return "EP";
    case HES_LABEL_SN: return "SN";
    case HES_LABEL_BP: return "BP";
    case HES_LABEL_PD: return "PD";
    case HES_LABEL_NS: return "NS";
    case HES_LABEL_GR: return "GR";
    case HES_LABEL_SEQ: return "SEQ";
    }
    return "?";
}

void hes_continuation_options_init(hes_continuation_options *o)
{
    if (o)
        memset(o, 0, sizeof *o);
}

static void point_free(hes_continuation_point *pt)
{
    free(pt->re);
    free(pt->im);
    free(pt->x0);
    memset(pt, 0, sizeof *pt);
}

void hes_continuation_free(hes_continuation *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->n_points; i++)
        point_free(&c->points[i]);
    free(c->points);
    memset(c, 0, sizeof *c);
}

/* The work of one call. */
typedef struct {
    hes_system *sys;
    int k;                   /* the parameter's index */
    int n;                   /* section state dimension */
    hes_continuation *out;
    int cap;
    int max_points;
} run;

/* Arrays of their own for a point's n_mult multipliers and section state
 * (replacing whatever pointers it held); HES_ENOMEM with nothing held. */
static hes_status point_arrays(run *r, hes_continuation_point *pt)
{
    int m = pt->n_mult > 0 ? pt->n_mult : 1;
    pt->re = malloc(sizeof(double) * (size_t)m);
    pt->im = malloc(sizeof(double) * (size_t)m);
    pt->x0 = malloc(sizeof(double) * (size_t)r->n);
    if (pt->re && pt->im && pt->x0)
        return HES_OK;
    point_free(pt);
    return hes__fail(r->sys, HES_ENOMEM, "out of memory for a branch point");
}

/* The orbit at value v from the start x and the period T (NULL and NaN:
 * the model's guess; a hybrid system ignores T) into *pt; the system's
 * status. */
static hes_status orbit_at(run *r, double v, const double *x, double T,
                           hes_continuation_point *pt)
{
    const hes_param *pi = hes_system_param_info(r->sys, r->k);
    hes_status st = hes_system_set_param(r->sys, pi->name, v);
    if (st == HES_OK)
        st = hes_system_set_orbit_start(r->sys, x);
    if (st == HES_OK && hes_system_kind(r->sys) == HES_KIND_ESS)
        st = hes_system_set_orbit_period(r->sys, isfinite(T) && T > 0 ? T : NAN);
    hes_analysis a;
    if (st == HES_OK)
        st = hes_analyze(r->sys, 0, &a);
    if (st != HES_OK)
        return st;
    if (r->n == 0)              /* the first point fixes the section's dimension */
        r->n = a.orbit.n;
    if (a.orbit.n != r->n) {   /* another section: not this branch's orbit */
        hes_analysis_free(&a);
        return hes__fail(r->sys, HES_ENOORBIT, "the orbit at %s = %.17g has a section "
                         "state of dimension %d, not %d", pi->name, v, a.orbit.n, r->n);
    }
    memset(pt, 0, sizeof *pt);
    pt->value = v;
    pt->period = a.orbit.period;
    pt->psi = a.stab.psi;
    pt->psi_tol = a.stab.psi_tol;
    pt->verdict = a.stab.verdict;
    pt->n_mult = a.stab.n_mult;
    if (point_arrays(r, pt) != HES_OK) {
        hes_analysis_free(&a);
        return HES_ENOMEM;
    }
    for (int i = 0; i < a.stab.n_mult; i++)
        pt->re[i] = a.stab.re[i], pt->im[i] = a.stab.im[i];
    memcpy(pt->x0, a.orbit.x0, sizeof(double) * (size_t)r->n);
    hes_analysis_free(&a);
    return HES_OK;
}

/* A copy of a point with arrays of its own into *to; HES_ENOMEM. */
static hes_status point_copy(run *r, const hes_continuation_point *from,
                             hes_continuation_point *to)
{
    *to = *from;
    if (point_arrays(r, to) != HES_OK)
        return HES_ENOMEM;
    memcpy(to->re, from->re, sizeof(double) * (size_t)from->n_mult);
    memcpy(to->im, from->im, sizeof(double) * (size_t)from->n_mult);
    memcpy(to->x0, from->x0, sizeof(double) * (size_t)r->n);
    return HES_OK;
}

/* Appends *pt (moved) to the branch; HES_ENOMEM, or 1 when it is full. */
static int keep(run *r, hes_continuation_point *pt)
{
    hes_continuation *c = r->out;
    if (c->n_points >= r->max_points)
        return 1;
    if (c->n_points == r->cap) {
        int cap = r->cap ? 2 * r->cap : 64;
        hes_continuation_point *p = realloc(c->points, sizeof *p * (size_t)cap);
        if (!p)
            return HES_ENOMEM;
        c->points = p;
        r->cap = cap;
    }
    c->points[c->n_points++] = *pt;
    memset(pt, 0, sizeof *pt);
    return 0;
}

/* Keeps *pt, or frees it and ends the branch (full: the reason in why;
 * out of memory: *st): 0 when kept. */
static int keep_or_end(run *r, hes_continuation_point *pt, hes_status *st)
{
    int full = keep(r, pt);
    if (!full)
        return 0;
    point_free(pt);
    if (full == HES_ENOMEM)
        *st = hes__fail(r->sys, HES_ENOMEM, "out of memory for the branch");
    else
        snprintf(r->out->why, sizeof r->out->why, "the branch has max_points points");
    return 1;
}

/* The crossing multiplier's kind at a point where psi is near 1. */
static hes_crossing classify(const hes_continuation_point *pt)
{
    if (pt->n_mult < 1)
        return HES_CROSS_NONE;
    double re = pt->re[0], im = pt->im[0], mod = hypot(re, im);
    if (fabs(im) > 1e-6 * mod)
        return HES_CROSS_COMPLEX;
    return re > 0 ? HES_CROSS_PLUS_ONE : HES_CROSS_MINUS_ONE;
}

/* psi - 1 has opposite signs at a and b (by their verdicts). */
static int stability_changes(const hes_continuation_point *a, const hes_continuation_point *b)
{
    return (a->verdict == HES_STABLE && b->verdict == HES_UNSTABLE) ||
           (a->verdict == HES_UNSTABLE && b->verdict == HES_STABLE);
}

/* Bisection between a and b (a change of stability between them) to tol;
 * the located point into *at: a point found marginal on the way, else the
 * end of the last bracket whose psi lies nearer 1.  HES_OK, or the orbit
 * search's status. */
static hes_status locate(run *r, const hes_continuation_point *a,
                         const hes_continuation_point *b, double tol,
                         hes_continuation_point *at)
{
    hes_continuation_point lo = { 0 }, hi = { 0 }, mid = { 0 };
    double *x = malloc(sizeof(double) * (size_t)r->n);
    if (!x)
        return hes__fail(r->sys, HES_ENOMEM, "out of memory for a crossing");
    /* the bracket's ends as copies, which the bisection replaces */
    hes_status st = point_copy(r, a, &lo);
    if (st == HES_OK)
        st = point_copy(r, b, &hi);
    int found = 0;
    while (st == HES_OK && !found && fabs(hi.value - lo.value) > tol) {
        double v = 0.5 * (lo.value + hi.value);
        for (int i = 0; i < r->n; i++)
            x[i] = 0.5 * (lo.x0[i] + hi.x0[i]);
        st = orbit_at(r, v, x, 0.5 * (lo.period + hi.period), &mid);
        if (st != HES_OK)
            break;
        if (mid.verdict == HES_MARGINAL) {   /* psi is 1 as far as it can be told */
            found = 1;
        } else if (stability_changes(&lo, &mid)) {
            point_free(&hi);
            hi = mid;
            memset(&mid, 0, sizeof mid);
        } else {
            point_free(&lo);
            lo = mid;
            memset(&mid, 0, sizeof mid);
        }
    }
    free(x);
    if (st == HES_OK) {
        if (found) {
            *at = mid;
        } else if (fabs(hi.psi - 1) < fabs(lo.psi - 1)) {
            *at = hi;
            memset(&hi, 0, sizeof hi);
        } else {
            *at = lo;
            memset(&lo, 0, sizeof lo);
        }
        at->crossing = classify(at);
    } else {
        point_free(&mid);
    }
    point_free(&lo);
    point_free(&hi);
    return st;
}

/* The secant predictor at value v from the last two points (one: itself):
 * the section state into x, and the period. */
static double predict(const run *r, double v, double *x)
{
    const hes_continuation *c = r->out;
    const hes_continuation_point *p1 = &c->points[c->n_points - 1];
    const hes_continuation_point *p0 = c->n_points > 1 ? &c->points[c->n_points - 2] : NULL;
    for (int i = 0; i < r->n; i++) {
        double slope = p0 && p1->value != p0->value
                       ? (p1->x0[i] - p0->x0[i]) / (p1->value - p0->value) : 0;
        x[i] = p1->x0[i] + slope * (v - p1->value);
    }
    double slope = p0 && p1->value != p0->value
                   ? (p1->period - p0->period) / (p1->value - p0->value) : 0;
    return p1->period + slope * (v - p1->value);
}

/* |x - y| (max norm) and the size max |y| of n values. */
static double distance(int n, const double *x, const double *y, double *size)
{
    double d = 0, s = 0;
    for (int i = 0; i < n; i++) {
        d = fmax(d, fabs(x[i] - y[i]));
        s = fmax(s, fabs(y[i]));
    }
    *size = s;
    return d;
}

/* Resolves the options' zeros; HES_EINVAL with the reason in err. */
static hes_status options_of(const hes_continuation_options *in, double from, double to,
                             hes_continuation_options *o, hes_error *err)
{
    double span = fabs(to - from);
    *o = *in;
    if (o->step == 0)
        o->step = span / 50;
    if (o->max_step == 0)
        o->max_step = fmax(span / 10, o->step);
    if (o->min_step == 0)
        o->min_step = 1e-6 * span;
    if (o->tol == 0)
        o->tol = 1e-8 * fmax(1, fmax(fabs(from), fabs(to)));
    if (o->max_jump == 0)
        o->max_jump = 0.5;
    if (o->max_points == 0)
        o->max_points = 1000;
    if (!(o->step > 0) || !(o->min_step > 0) || !(o->max_step >= o->step) ||
        !(o->min_step <= o->step) || !(o->tol > 0) || !(o->max_jump > 0) ||
        !isfinite(o->max_step) || o->max_points < 2 || o->max_points > 100000)
        return hes__say(hes__errbuf(err), hes__errlen(err), HES_EINVAL, "continuation "
                        "options: need 0 < min_step <= step <= max_step (finite), tol > 0, "
                        "max_jump > 0 and 2 <= max_points <= 100000");
    return HES_OK;
}

/* The branch from `from` to `to`; the run's status (the end's reason in
 * out->why). */
static hes_status follow(run *r, double from, double to, const hes_continuation_options *o)
{
    hes_continuation *c = r->out;
    hes_continuation_point pt = { 0 }, cross = { 0 };
    double dir = to > from ? 1 : -1, h = o->step;
    int easy = 0;
    double *x = malloc(sizeof(double) * (size_t)r->n);
    if (!x)
        return hes__fail(r->sys, HES_ENOMEM, "out of memory for the predictor");
    hes_status st = HES_OK;
    while (st == HES_OK) {
        const hes_continuation_point *last = &c->points[c->n_points - 1];
        if (last->value == to) {
            c->reached = 1;
            break;
        }
        double v = last->value + dir * h;
        if ((to - v) * dir < 0)
            v = to;
        double T = predict(r, v, x);
        hes_status got = orbit_at(r, v, x, T, &pt);
        /* the correction and the predictor's own step, in the section state
           and the period (before a secant exists, at the second point, the
           state's size stands in for the step) */
        double size, ignored, step_x = distance(r->n, x, last->x0, &size);
        double jump = got == HES_OK ? fmax(distance(r->n, pt.x0, x, &ignored),
                                           fabs(pt.period - T)) : HUGE_VAL;
        double moved = c->n_points > 1 ? fmax(step_x, fabs(T - last->period))
                                       : fmax(size, last->period);
        if (got == HES_ENOMEM) {
            st = got;
            break;
        }
        if (got != HES_OK || jump > o->max_jump * moved + 1e-8 * fmax(1, size)) {
            if (got == HES_OK)
                point_free(&pt);
            h /= 2;
            easy = 0;
            if (h < o->min_step) {
                snprintf(c->why, sizeof c->why, "the orbit was lost past %s = %.10g (no "
                         "orbit of this branch within %.3g of it: a fold of the branch, "
                         "where a multiplier reaches +1, a grazing event or the edge of the "
                         "parameter's range): %s", c->param, last->value, o->min_step,
                         got != HES_OK ? hes_system_errmsg(r->sys)
                                       : "the orbit found lies on another branch");
                break;
            }
            continue;
        }
        /* a change of stability between last and pt: locate it first */
        if (stability_changes(last, &pt)) {
            st = locate(r, last, &pt, o->tol, &cross);
            if (st != HES_OK) {
                point_free(&pt);
                break;
            }
            /* a crossing located at an end of the bracket labels that end */
            if (cross.value == pt.value || cross.value == last->value) {
                hes_continuation_point *end = cross.value == pt.value
                                              ? &pt : &c->points[c->n_points - 1];
                end->crossing = cross.crossing;
                point_free(&cross);
            } else if (keep_or_end(r, &cross, &st)) {
                point_free(&pt);
                break;
            }
        } else if (pt.verdict == HES_MARGINAL && last->verdict != HES_MARGINAL) {
            pt.crossing = classify(&pt);
        }
        if (keep_or_end(r, &pt, &st))
            break;
        if (++easy >= 2 && h < o->max_step) {
            h = fmin(1.5 * h, o->max_step);
            easy = 0;
        }
    }
    free(x);
    return st;
}

hes_status hes_continue(hes_system *sys, const char *param, double from, double to,
                        const hes_continuation_options *opts, hes_continuation *out,
                        hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (out)
        memset(out, 0, sizeof *out);
    if (!sys || !param || !out)
        return hes__say(msg, len, HES_EINVAL, "hes_continue: NULL argument");
    if (!isfinite(from) || !isfinite(to) || from == to)
        return hes__say(msg, len, HES_EINVAL, "continuation: need finite from != to");
    int k = -1;
    for (int i = 0; i < hes_system_n_params(sys); i++)
        if (strcmp(hes_system_param_info(sys, i)->name, param) == 0)
            k = i;
    if (k < 0)
        return hes__say(msg, len, HES_EINVAL, "continuation: unknown parameter '%s'", param);
    const hes_param *pi = hes_system_param_info(sys, k);
    if (pi->flags & HES_PARAM_SOLVED)
        return hes__say(msg, len, HES_EINVAL, "continuation: '%s' is solved by the orbit "
                        "search, not a parameter to follow", param);
    hes_continuation_options o, in;
    hes_continuation_options_init(&in);
    hes_status st = options_of(opts ? opts : &in, from, to, &o, err);
    if (st != HES_OK)
        return st;

    double saved = hes_system_params(sys)[k];
    run r = { sys, k, 0, out, 0, o.max_points };
    snprintf(out->param, sizeof out->param, "%s", param);
    /* the first point from the model's guess, which fixes the section */
    hes_continuation_point pt;
    st = orbit_at(&r, from, NULL, NAN, &pt);
    if (st == HES_OK)
        keep_or_end(&r, &pt, &st);   /* max_points >= 2: only memory can fail */
    out->n = r.n;
    if (st == HES_OK)
        st = follow(&r, from, to, &o);
    if (st != HES_OK) {
        if (msg)
            snprintf(msg, len, "continuation of %s from %.10g: %s", param, from,
                     hes_system_errmsg(sys));
        hes_continuation_free(out);
    }
    /* the caller's system as it was */
    hes_system_set_param(sys, param, saved);
    hes_system_set_orbit_start(sys, NULL);
    if (hes_system_kind(sys) == HES_KIND_ESS)
        hes_system_set_orbit_period(sys, NAN);
    assert(st != HES_OK || out->n_points >= 1);
    return st;
}
