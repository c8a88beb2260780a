/*
 * guard_margin.c - a guard's clearance along a periodic orbit
 * (hes_orbit_guard_margins): how close each transition's guard comes to
 * being crossed away from its own events, the test function of grazing.
 *
 * For transition tr (I -> J, crossed in direction d) the signed guard along
 * a phase of the orbit in mode I is
 *
 *     h(t) = s g(tm, x(t)),   s = +1 (HES_DOWN, HES_ANY), -1 (HES_UP),
 *
 * positive on the side the guard is crossed from, with tm the model time
 * (tm0 + t - t0 in a phase that starts at absolute time t0 and model time
 * tm0: the time the guard receives during simulation).  Its rate along the
 * flow is
 *
 *     h'(t) = s (Dtg + Dxg F_I)(tm, x(t)).
 *
 * An interior local minimum is a time strictly inside a phase where h'
 * changes sign from negative to positive; the phase's ends are not
 * candidates (the transition's own event makes g zero there by
 * construction, and after a reset a guard may start at zero and move
 * away), nor is a negative minimum of a phase that started on that far
 * side (h0 < 0, at least a thousandth of the minimum) before h was ever
 * positive: the guard was never on the side it is crossed from (a slide
 * that starts from rest, below the speed at which it would stick).  The margin is the smallest h at such a minimum over the orbit's
 * phases in mode I, +INFINITY when there is none (a guard that decreases
 * monotonically to its event has none).  Where the orbit passes an event of
 * another transition that leaves h continuous (an apex with an identity
 * reset; the period's end, which is its start), the two phases are one
 * stretch of h: a minimum there, h below its neighbouring samples on both
 * sides, counts as interior (a ceiling's clearance is smallest exactly at
 * the apex).  For HES_ANY it is g at the local
 * minimum of |g| with the smallest |g|: h' = g' changing sign from - to +
 * where g >= 0, or from + to - where g <= 0.  Grazing is a margin reaching
 * zero: the guard touches zero tangentially inside a phase.
 *
 * Each phase is re-integrated from its start state (a trajectory keeps only
 * its phases' ends) and h' sampled at N + 1 equally spaced times,
 *
 *     N = max(64, ceil(256 (t1 - t0) / T_orbit)),
 *
 * T_orbit the span of the orbit's trajectory: 64 sub-steps resolve a
 * phase's own shape, and the second term keeps the spacing at most
 * T_orbit / 256 where one phase covers most of the period, so that an
 * extremum pair missed inside one cell would mean the guard oscillates on a
 * time scale 256 times faster than the orbit's own.  A sign change of h'
 * between two samples brackets the minimum; Brent's method locates the zero
 * of h' there, each trial re-integrating from the bracket's left sample, to
 * 1e-10 of the phase (h is flat there, so its value is then exact to the
 * integrator's accuracy).  Brent's method is written out below: GSL, whose
 * gsl_root_fsolver_brent would do it, is an optional dependency (configure's
 * --with-gsl), and this must work without it.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid/hybrid.h"

/* Sub-steps of a phase (see the top of the file), and their cap. */
#define MARGIN_SUBSTEPS 64
#define MARGIN_PER_ORBIT 256
#define MARGIN_SUBSTEPS_MAX 16384

/* A root of h' this close to a phase's end (relative to the phase's
 * duration) is that end: a guard that starts at zero after a reset with a
 * rate at rounding level. */
#define MARGIN_END_GAP 1e-8

/* One transition's guard along one phase. */
typedef struct {
    hes_system *sys;
    int tr, mode, n;
    double sign;             /* s: +1 or -1 */
    double *F, *Dxg, *x;     /* n values each: scratch, the state at a trial time */
    double tm_left;          /* the bracket's left sample: model time and state */
    const double *x_left;
    double h_sign;           /* the sign of h last seen clearly in the phase (0: none) */
    double h_start;          /* h at the phase's start */
    double h_scale;          /* the largest |h| seen in the phase */
} guard_path;

/* h and h' at model time tm and state x. */
static hes_status signed_guard(guard_path *p, double tm, const double *x, double *h,
                               double *dh)
{
    double g, rate, scale;
    hes_status st = hes__guard(p->sys, p->tr, tm, x, &g);
    if (st == HES_OK)
        st = hes__guard_rate(p->sys, p->tr, tm, x, p->F, p->Dxg, &rate, &scale);
    if (st != HES_OK)
        return st;
    *h = p->sign * g;
    *dh = p->sign * rate;
    return HES_OK;
}

/* The flow of the phase's mode from the bracket's left sample to model time
 * tm (no guard armed), into p->x. */
static hes_status state_at(guard_path *p, double tm)
{
    if (tm == p->tm_left) {
        memcpy(p->x, p->x_left, sizeof(double) * (size_t)p->n);
        return HES_OK;
    }
    memset(p->sys->armed, 0, (size_t)p->sys->model->n_transitions);
    hes_status st = hes__phase_start(p->sys, p->mode, p->tm_left, p->x_left, 0);
    double t = p->tm_left;
    int root;
    if (st == HES_OK)
        st = hes__phase_run(p->sys, p->mode, tm, &t, &root);
    if (st != HES_OK)
        return st;
    memcpy(p->x, hes__phase_state(p->sys, p->mode), sizeof(double) * (size_t)p->n);
    return HES_OK;
}

/* h' at model time tm, integrating from the bracket's left sample. */
static hes_status rate_at(guard_path *p, double tm, double *h, double *dh)
{
    hes_status st = state_at(p, tm);
    return st != HES_OK ? st : signed_guard(p, tm, p->x, h, dh);
}

/*
 * Brent's method (R. P. Brent, Algorithms for Minimization without
 * Derivatives, 1973, ch. 4, procedure zero): the zero of h' in [a, b] with
 * fa, fb of opposite signs, to tol + 4 eps |b|.  Inverse quadratic or
 * secant steps where they stay inside the bracket and shrink it fast
 * enough, bisection otherwise, so that the bracket always holds the zero.
 */
static hes_status brent_zero(guard_path *p, double a, double fa, double b, double fb,
                             double tol, double *root)
{
    double c = b, fc = fb, d = b - a, e = d, h;
    for (int it = 0; it < 200; it++) {
        if ((fb > 0 && fc > 0) || (fb < 0 && fc < 0)) {
            c = a;
            fc = fa;
            d = e = b - a;
        }
        if (fabs(fc) < fabs(fb)) {
            a = b; b = c; c = a;
            fa = fb; fb = fc; fc = fa;
        }
        double tol1 = 2.0 * DBL_EPSILON * fabs(b) + 0.5 * tol, xm = 0.5 * (c - b);
        if (fabs(xm) <= tol1 || fb == 0.0)
            break;
        if (fabs(e) >= tol1 && fabs(fa) > fabs(fb)) {
            double s = fb / fa, pp, q;
            if (a == c) {
                pp = 2.0 * xm * s;
                q = 1.0 - s;
            } else {
                double qa = fa / fc, r = fb / fc;
                pp = s * (2.0 * xm * qa * (qa - r) - (b - a) * (r - 1.0));
                q = (qa - 1.0) * (r - 1.0) * (s - 1.0);
            }
            if (pp > 0)
                q = -q;
            else
                pp = -pp;
            if (2.0 * pp < fmin(3.0 * xm * q - fabs(tol1 * q), fabs(e * q))) {
                e = d;
                d = pp / q;
            } else {
                d = xm;
                e = d;
            }
        } else {
            d = xm;
            e = d;
        }
        a = b;
        fa = fb;
        b += fabs(d) > tol1 ? d : copysign(tol1, xm);
        hes_status st = rate_at(p, b, &h, &fb);
        if (st != HES_OK)
            return st;
    }
    *root = b;
    return HES_OK;
}

/* The best candidate so far of one transition. */
typedef struct {
    double size;             /* what is minimised: h, or |g| for HES_ANY */
    hes_guard_margin m;
} best_margin;

/* The extremum of h in [tl, tr] (model times, h' = fl there and fr at tr,
 * of opposite signs or fr = 0), offered as a candidate when it is the kind
 * the direction asks for. */
static hes_status refine(guard_path *p, const hes_phase *ph, int phase, double dur,
                         double tl, double fl, double tr, double fr, int any,
                         best_margin *best)
{
    double tm, h, dh;
    hes_status st;
    if (fr == 0.0)
        tm = tr;
    else if ((st = brent_zero(p, tl, fl, tr, fr, 1e-10 * dur, &tm)) != HES_OK)
        return st;
    if (tm - ph->tm0 <= MARGIN_END_GAP * dur || ph->tm0 + dur - tm <= MARGIN_END_GAP * dur)
        return HES_OK; /* an end of the phase */
    if ((st = rate_at(p, tm, &h, &dh)) != HES_OK)
        return st;
    int minimum = fl < 0; /* h' from - to +: a minimum of h */
    double size = h;
    if (any) { /* a minimum of |g|: a minimum of g >= 0 or a maximum of g <= 0 */
        if ((minimum && h < 0) || (!minimum && h > 0))
            return HES_OK;
        size = fabs(h);
    } else if (!minimum) {
        return HES_OK;
    } else if (h < 0 && p->h_sign <= 0 && p->h_start < 0 && p->h_start <= 1e-3 * h) {
        return HES_OK;   /* still on the far side the phase started on */
    }
    if (!any && minimum && h < -1e-9 * p->h_scale && p->h_sign > 0)
        best->m.crossed = 1;  /* a dip through the guard between two samples */
    if (size < best->size) {
        best->size = size;
        best->m.margin = h;
        best->m.t = ph->t0 + (tm - ph->tm0);
        best->m.phase = phase;
    }
    return HES_OK;
}

/* Whether h' changes sign from f0 to f1 in the way the direction asks for
 * (a zero at f1 counts; one at f0 was the previous cell's). */
static int bracketed(double f0, double f1, int any)
{
    return (f0 < 0 && f1 >= 0) || (any && f0 > 0 && f1 <= 0);
}

/* h at a phase's ends and at the samples next to them (for junctions). */
typedef struct {
    double h0, h_first, h_last, h1;
} phase_ends;

/* One phase: samples of h' and every bracketed extremum refined. */
static hes_status scan_phase(guard_path *p, const hes_phase *ph, int phase, double span,
                             double *x_prev, int any, int own_end, best_margin *best,
                             phase_ends *ends)
{
    hes_system *sys = p->sys;
    double dur = ph->t1 - ph->t0;
    double want = ceil(MARGIN_PER_ORBIT * dur / span);
    int N = (int)fmin(fmax(MARGIN_SUBSTEPS, want), MARGIN_SUBSTEPS_MAX);
    double h, f_prev, f;
    hes_status st = signed_guard(p, ph->tm0, ph->x0, &h, &f_prev);
    if (st != HES_OK)
        return st;
    ends->h0 = h;
    p->h_start = h;
    p->h_sign = 0;           /* no sign seen yet after the start */
    p->h_scale = fabs(h);
    memcpy(x_prev, ph->x0, sizeof(double) * (size_t)p->n);
    memset(sys->armed, 0, (size_t)sys->model->n_transitions);
    if ((st = hes__phase_start(sys, p->mode, ph->tm0, ph->x0, 0)) != HES_OK)
        return st;
    double t = ph->tm0, t_prev = ph->tm0;
    for (int k = 1; k <= N; k++) {
        double tk = k == N ? ph->tm0 + dur : ph->tm0 + dur * k / N;
        int root;
        if ((st = hes__phase_run(sys, p->mode, tk, &t, &root)) != HES_OK)
            return st;
        memcpy(p->x, hes__phase_state(sys, p->mode), sizeof(double) * (size_t)p->n);
        if ((st = signed_guard(p, tk, p->x, &h, &f)) != HES_OK)
            return st;
        /* a crossing in the guard's direction inside the phase: positive at
           a sample after the start, then clearly negative; not at the last
           sample when the phase ends with the transition's own event, where h
           is zero only to the event location's accuracy) */
        if (k >= 1 && !(k == N && own_end) && (any ? h != 0 && p->h_sign != 0 && (h < 0) != (p->h_sign < 0) &&
                             fabs(h) > 1e-9 * p->h_scale
                           : p->h_sign > 0 && h < -1e-9 * p->h_scale))
            best->m.crossed = 1;
        p->h_scale = fmax(p->h_scale, fabs(h));
        if (k == 1)
            ends->h_first = h;
        if (k == N - 1)
            ends->h_last = h;
        ends->h1 = h;
        if (bracketed(f_prev, f, any) && !(f == 0.0 && k == N)) {
            double *x_k = x_prev + p->n; /* keep the sample: refining uses p->x */
            memcpy(x_k, p->x, sizeof(double) * (size_t)p->n);
            p->tm_left = t_prev;
            p->x_left = x_prev;
            if ((st = refine(p, ph, phase, dur, t_prev, f_prev, tk, f, any, best)) != HES_OK)
                return st;
            /* go on from the sample, the integrator having been restarted */
            memcpy(p->x, x_k, sizeof(double) * (size_t)p->n);
            memset(sys->armed, 0, (size_t)sys->model->n_transitions);
            if (k < N && (st = hes__phase_start(sys, p->mode, tk, p->x, 0)) != HES_OK)
                return st;
            t = tk;
        }
        /* the sign at this sample, after the extremum before it was judged */
        if (h != 0 && fabs(h) > 1e-9 * p->h_scale)
            p->h_sign = h > 0 ? (any ? 1 : fmax(p->h_sign, 1)) : (any ? -1 : p->h_sign);
        memcpy(x_prev, p->x, sizeof(double) * (size_t)p->n);
        t_prev = tk;
        f_prev = f;
    }
    return HES_OK;
}

/* Whether a phase is too short to hold anything (the zero-length phase
 * between simultaneous events; a stroboscopic period's end that steps back
 * over its last event or forward by rounding). */
static int empty_phase(const hes_phase *ph, double span)
{
    return !(ph->t1 - ph->t0 > 1e-9 * span);
}

/* The junction of phase a's end with phase b's start (b = 0 after the last
 * phase: the period's end is its start), both in the guard's mode: a
 * minimum of h there when every phase between is empty, no event between
 * is the transition's own, h is continuous through them and below the
 * samples next to the junction on both sides. */
static void junction(const hes_traj *tj, int tr, int a, int b,
                     const phase_ends *ea, const phase_ends *eb, double span, int any,
                     best_margin *best)
{
    int last = b > a ? b : tj->n_phases;
    for (int i = a; i < last; i++) {
        if (i > a && !empty_phase(&tj->phases[i], span))
            return;
        if (i < tj->n_events && tj->events[i].transition == tr)
            return;
    }
    double h = ea->h1, size = any ? fabs(h) : h;
    if (!(fabs(eb->h0 - h) <= 1e-9 * (1.0 + fabs(h))))
        return;
    double before = any ? fabs(ea->h_last) : ea->h_last, after = any ? fabs(eb->h_first)
                                                                      : eb->h_first;
    double start = any ? fabs(eb->h0) : eb->h0;
    if (size < before && start < after && size < best->size) {
        best->size = size;
        best->m.margin = h;
        best->m.t = tj->phases[a].t1;
        best->m.phase = a;
    }
}

hes_status hes_orbit_guard_margins(hes_system *sys, const hes_orbit *orbit,
                                   hes_guard_margin *out)
{
    if (!sys)
        return HES_EINVAL;
    hes_status st = hes__need_hybrid(sys, "hes_orbit_guard_margins");
    if (st != HES_OK)
        return st;
    if (!orbit || !out)
        return hes__fail(sys, HES_EINVAL, "hes_orbit_guard_margins: %s is NULL",
                         !orbit ? "the orbit" : "out");
    const hes_model *m = sys->model;
    const hes_traj *tj = &orbit->traj;
    for (int k = 0; k < m->n_transitions; k++) {
        out[k].margin = INFINITY;
        out[k].t = NAN;
        out[k].phase = -1;
        out[k].crossed = 0;
    }
    if (tj->n_phases < 1 || !tj->phases)
        return hes__fail(sys, HES_EINVAL, "hes_orbit_guard_margins: the orbit has no "
                         "trajectory (hes_orbit_find gives one)");
    for (int i = 0; i < tj->n_phases; i++)
        if (tj->phases[i].mode < 0 || tj->phases[i].mode >= m->n_modes || !tj->phases[i].x0)
            return hes__fail(sys, HES_EINVAL, "hes_orbit_guard_margins: phase %d of the orbit "
                             "is not one of model '%s'", i, m->name);
    double span = tj->phases[tj->n_phases - 1].t1 - tj->phases[0].t0;
    if (!(span > 0) || !isfinite(span))
        return hes__fail(sys, HES_EINVAL, "hes_orbit_guard_margins: the orbit's trajectory "
                         "spans no time (%g)", span);
    size_t nmax = (size_t)sys->nmax;
    double *buf = malloc(sizeof(double) * 5 * nmax);
    phase_ends *ends = malloc(sizeof *ends * (size_t)tj->n_phases);
    if (!buf || !ends) {
        free(buf);
        free(ends);
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    }
    hes__budget_start(sys);
    for (int k = 0; k < m->n_transitions && st == HES_OK; k++) {
        const hes_transition *T = &m->transitions[k];
        int any = T->direction == HES_ANY;
        guard_path p = { sys, k, T->from, m->modes[T->from].dim,
                         T->direction == HES_UP ? -1.0 : 1.0, buf, buf + nmax,
                         buf + 2 * nmax, 0.0, NULL, 0.0, 0.0, 0.0 };
        best_margin best = { INFINITY, { INFINITY, NAN, -1, 0 } };
        int first = -1, prev = -1;
        for (int i = 0; i < tj->n_phases && st == HES_OK; i++) {
            const hes_phase *ph = &tj->phases[i];
            if (ph->mode != T->from || empty_phase(ph, span))
                continue;
            int own_end = i < tj->n_events && tj->events[i].transition == k;
            st = scan_phase(&p, ph, i, span, buf + 3 * nmax, any, own_end, &best, &ends[i]);
            if (st == HES_OK && prev >= 0)
                junction(tj, k, prev, i, &ends[prev], &ends[i], span, any, &best);
            if (first < 0)
                first = i;
            prev = i;
        }
        if (st == HES_OK && first == 0 && prev > 0) /* the period's end is its start */
            junction(tj, k, prev, 0, &ends[prev], &ends[0], span, any, &best);
        if (st == HES_OK)
            out[k] = best.m;
    }
    free(buf);
    free(ends);
    return st;
}
