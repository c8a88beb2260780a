/*
 * continuation.c - hes_continue: a periodic orbit followed as one parameter
 * moves, over the one orbit pipeline, with its bifurcations and changes of
 * stability located and labelled; hes_continue_doubled: the branch of
 * doubled returns born at a period doubling.
 *
 * Unknowns.  A branch point is z = (u, p): u the section state's free states
 * (a hybrid system; all of the section state for an ESS system) and p the
 * parameter.  Distances are taken in the scaled norm
 *     |dz| = sqrt(dp^2 + sigma^2 |du|^2),  sigma = |to - from| / X,
 * X the first point's section state's size (max norm), so that a state that
 * moves by its whole size counts as much as the parameter moving over the
 * whole interval, and steps are in the parameter's units.
 *
 * Pseudo-arclength (Keller 1977; Allgower and Georg, "Numerical
 * Continuation Methods", Sec. 2.2 and 6.1): with the unit secant tau of the
 * last two points (in scaled coordinates), the predictor is z_pred = z +
 * h tau and the corrector solves the shooting equations together with the
 * hyperplane tau . (z - z_pred) = 0 (scaled), the parameter being one more
 * unknown of the orbit search (hes__orbit_find_extra, an ESS system's
 * hes__ess_orbit_find_extra); the branch is followed around folds, where p
 * turns back.  Natural parameterisation (on request): the hyperplane is
 * p = p_pred and the
 * predictor the secant in p.  The second point is a natural step from the
 * first.  A correction farther than max_jump times the predictor's own
 * step from the predictor (the first step: half the state's size) is
 * refused as a jump to another branch, and the step halves; two easy
 * points in a row grow it by 1.5 up to max_step.
 *
 * Test functions of the nontrivial multipliers lambda_i (Kuznetsov,
 * "Elements of Applied Bifurcation Theory", 3rd ed., Sec. 10.3):
 *     SN: prod_i (lambda_i - 1)           zero where a multiplier is +1
 *     PD: prod_i (lambda_i + 1)           zero where a multiplier is -1
 *     NS: prod_{i<j} (lambda_i lambda_j - 1)
 *                                         zero where a complex pair has
 *                                         modulus 1 (or a real pair has
 *                                         product 1: a neutral saddle, which
 *                                         is not labelled)
 * (real: the multipliers come in conjugate pairs).  A sign change between
 * two points is located by the Illinois variant of regula falsi in the
 * secant's fraction theta, each orbit solved on the hyperplane through the
 * interpolated point orthogonal to the secant, until the bracket is within
 * tol (scaled norm).  A +1 where p turns (the secants before and after
 * point in opposite directions of p) is a fold (SN), else BP.  A change of
 * the verdict (psi through 1) between two points marks the located point
 * whose test function changed there (its crossing), or is located itself
 * by bisection on psi - 1 when none did.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <assert.h>
#include <complex.h>
#include <pthread.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid/hybrid.h"
#include "shaping/shaping.h"

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
    case HES_LABEL_SIM: return "SIM";
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
    free(pt->margins);
    free(pt->xr);
    free(pt->event_t);
    free(pt->event_tr);
    memset(pt, 0, sizeof *pt);
}

void hes_continuation_point_free(hes_continuation_point *pt)
{
    if (pt)
        point_free(pt);
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

/* The work of one branch. */
typedef struct {
    hes_system *sys;
    int k;                   /* the parameter's index */
    int n;                   /* section state dimension (0 until the first point) */
    int nu;                  /* unknown states: the free states (hybrid) or all n (ESS) */
    const int *fs;           /* their indices (an ESS system: NULL, 0 .. n-1) */
    int nfp;                 /* the model's own solved parameters (hybrid) */
    int arclength;
    int family;              /* the branch is a family of orbits: a multiplier stays at +1
                                (a rolling wheel's heading), which the tests leave out */
    int manifold;            /* the orbit's state is on a manifold (a chart) or solved in
                                a quotient: the orbit search takes no extra equation, so
                                the branch follows the parameter itself (natural steps),
                                its predictor in ambient coordinates, retracted by the
                                search */
    double sigma;            /* the scaled norm's state weight */
    double sigma_t;          /* the period's weight (the jump test) */
    double lo, hi;           /* the parameter's window */
    double to;
    hes_continuation *out;
    int cap, max_points;
    const hes_continuation_options *o;
    double *x;               /* n: a full section state (the orbit start) */
    double *w;               /* nu + nfp + 1: the extra equation's weights */
    int ng;                  /* guards (transitions) of a hybrid model, else 0 */
    hes_guard_margin *gm;    /* ng: their margins at the last orbit */
    char seq_msg[HES_ERROR_LEN]; /* why the last orbit was not one of the full system */
    int returns;             /* the orbit's returns per period */
    double *p_saved;         /* the caller's parameters, restored at the end (the orbit
                                search leaves its solved ones at its last iterate) */
    double *scratch;         /* 2 nmax: a guard's rate (hybrid) */
    hes_colloc *col;         /* the collocation corrector (NULL: shooting) */
    double *zc, *zwork;      /* its last solution and a trial's */
    int stopped;             /* the progress callback asked to stop */
} run;

static int state_index(const run *r, int j)
{
    return r->fs ? r->fs[j] : j;
}

/* z = (u, p) of a point: nu + 1 values. */
static void z_of(const run *r, const hes_continuation_point *pt, double *z)
{
    for (int j = 0; j < r->nu; j++)
        z[j] = pt->x0[state_index(r, j)];
    z[r->nu] = pt->value;
}

/* The scaled distance |a - b| of two z. */
static double zdist(const run *r, const double *a, const double *b)
{
    double s = 0;
    for (int j = 0; j < r->nu; j++)
        s += (r->sigma * (a[j] - b[j])) * (r->sigma * (a[j] - b[j]));
    return sqrt(s + (a[r->nu] - b[r->nu]) * (a[r->nu] - b[r->nu]));
}

/* The scaled distance of two points. */
static double pdist(const run *r, const hes_continuation_point *a,
                    const hes_continuation_point *b)
{
    double s = 0;
    for (int j = 0; j < r->nu; j++) {
        double dj = r->sigma * (a->x0[state_index(r, j)] - b->x0[state_index(r, j)]);
        s += dj * dj;
    }
    return sqrt(s + (a->value - b->value) * (a->value - b->value));
}

/* Arrays of their own for a point's multipliers and section state
 * (replacing whatever pointers it held); HES_ENOMEM with nothing held. */
static hes_status point_arrays(run *r, hes_continuation_point *pt)
{
    int m = pt->n_mult > 0 ? pt->n_mult : 1;
    pt->event_t = NULL;
    pt->event_tr = NULL;
    pt->n_events = 0;
    pt->re = malloc(sizeof(double) * (size_t)m);
    pt->im = malloc(sizeof(double) * (size_t)m);
    pt->x0 = malloc(sizeof(double) * (size_t)r->n);
    pt->margins = r->ng > 0 ? malloc(sizeof(double) * (size_t)r->ng) : NULL;
    pt->xr = r->ng > 0 ? malloc(sizeof(double) * (size_t)(r->returns * r->n)) : NULL;
    if (pt->re && pt->im && pt->x0 && (r->ng == 0 || (pt->margins && pt->xr)))
        return HES_OK;
    point_free(pt);
    return hes__fail(r->sys, HES_ENOMEM, "out of memory for a branch point");
}

/* Arrays for a point's n events (its arrays freed, HES_ENOMEM, without
 * memory). */
static hes_status point_events(run *r, hes_continuation_point *pt, int n)
{
    pt->event_t = malloc(sizeof(double) * (size_t)n);
    pt->event_tr = malloc(sizeof(int) * (size_t)n);
    if (!pt->event_t || !pt->event_tr) {
        point_free(pt);
        return hes__fail(r->sys, HES_ENOMEM, "out of memory for a branch point");
    }
    pt->n_events = n;
    return HES_OK;
}

static hes_status point_copy(run *r, const hes_continuation_point *from,
                             hes_continuation_point *to)
{
    *to = *from;
    if (point_arrays(r, to) != HES_OK)
        return HES_ENOMEM;
    memcpy(to->re, from->re, sizeof(double) * (size_t)from->n_mult);
    memcpy(to->im, from->im, sizeof(double) * (size_t)from->n_mult);
    memcpy(to->x0, from->x0, sizeof(double) * (size_t)r->n);
    for (int k = 0; k < r->ng; k++)   /* a point read back may have neither */
        to->margins[k] = from->margins ? from->margins[k] : INFINITY;
    for (int j = 0; r->ng > 0 && j < r->returns; j++)
        memcpy(to->xr + (size_t)j * r->n, from->xr ? from->xr + (size_t)j * r->n : from->x0,
               sizeof(double) * (size_t)r->n);
    if (from->n_events > 0 && from->event_t && from->event_tr) {
        if (point_events(r, to, from->n_events) != HES_OK)
            return HES_ENOMEM;
        memcpy(to->event_t, from->event_t, sizeof(double) * (size_t)to->n_events);
        memcpy(to->event_tr, from->event_tr, sizeof(int) * (size_t)to->n_events);
    }
    return HES_OK;
}

/* The point of an analysis (the parameter's value the system's), with its
 * guards' margins. */
static hes_status point_of(run *r, const hes_analysis *a, hes_continuation_point *pt)
{
    memset(pt, 0, sizeof *pt);
    pt->full = 1;
    pt->tangency = NAN;
    pt->tangency_event = -1;
    pt->value = hes_system_params(r->sys)[r->k];
    pt->value2 = NAN;
    pt->period = a->orbit.period;
    pt->psi = a->stab.psi;
    pt->psi_tol = a->stab.psi_tol;
    pt->verdict = a->stab.verdict;
    pt->n_mult = a->stab.n_mult;
    if (point_arrays(r, pt) != HES_OK)
        return HES_ENOMEM;
    for (int i = 0; i < a->stab.n_mult; i++)
        pt->re[i] = a->stab.re[i], pt->im[i] = a->stab.im[i];
    memcpy(pt->x0, a->orbit.x0, sizeof(double) * (size_t)r->n);
    if (r->ng > 0) {
        hes_status st = hes_orbit_guard_margins(r->sys, &a->orbit, r->gm);
        if (st != HES_OK) {
            point_free(pt);
            return st;
        }
        for (int k = 0; k < r->ng; k++)
            pt->margins[k] = r->gm[k].margin;
        /* the state just after each section event (x0 where the orbit has
           fewer) */
        const hes_traj *tj = &a->orbit.traj;
        int sec = r->sys->model->orbit.section, j = 0;
        for (int e = 0; e < tj->n_events && j < r->returns - 1; e++)
            if (tj->events[e].transition == sec)
                memcpy(pt->xr + (size_t)(j++) * r->n, tj->events[e].x_plus,
                       sizeof(double) * (size_t)r->n);
        for (; j < r->returns; j++)
            memcpy(pt->xr + (size_t)j * r->n, pt->x0, sizeof(double) * (size_t)r->n);
        if (tj->n_events > 0) {
            if (point_events(r, pt, tj->n_events) != HES_OK)
                return HES_ENOMEM;
            for (int e = 0; e < tj->n_events; e++) {
                pt->event_t[e] = tj->events[e].t - a->orbit.t0;
                pt->event_tr[e] = tj->events[e].transition;
            }
        }
        /* how squarely each event crosses its guard */
        pt->tangency = INFINITY;
        pt->tangency_event = -1;
        for (int e = 0; e < tj->n_events; e++) {
            const hes_event *ev = &tj->events[e];
            const hes_transition *T = &r->sys->model->transitions[ev->transition];
            /* before the event, and after it where the guard is one of the
               mode it leads to (a bounce: the ball leaving the table at a
               speed that falls to zero is as tangent as one arriving so) */
            for (int after = 0; after < 1 + (T->from == T->to && T->reset); after++) {
                double rate, scale;
                hes_status st = hes__guard_rate(r->sys, ev->transition, ev->tm,
                                                after ? ev->x_plus : ev->x_minus, r->scratch,
                                                r->scratch + r->sys->nmax, &rate, &scale);
                if (st != HES_OK) {
                    point_free(pt);
                    return st;
                }
                if (scale > 0 && fabs(rate) / scale < pt->tangency) {
                    pt->tangency = fabs(rate) / scale;
                    pt->tangency_event = e;
                }
            }
        }
    }
    return HES_OK;
}

/*
 * The orbit near the predictor zp (and the period guess T, NaN: none) on
 * the hyperplane d . (z - zp) = 0 (d in scaled coordinates; NULL: p = p_pred)
 * into *pt, and with a != NULL the analysis kept there (the caller frees
 * it).  ref is a point of the branch whose section state supplies the
 * components that are not unknowns.  The system's status.
 */
static hes_status solve(run *r, const double *zp, const double *d, double T,
                        const hes_continuation_point *ref, hes_continuation_point *pt,
                        hes_analysis *keep)
{
    hes_system *sys = r->sys;
    memcpy(r->x, ref->x0, sizeof(double) * (size_t)r->n);
    for (int j = 0; j < r->nu; j++)
        r->x[state_index(r, j)] = zp[j];
    hes_status st = hes_system_set_param(sys, hes_system_param_info(sys, r->k)->name, zp[r->nu]);
    if (st == HES_OK && r->col) {  /* the orbit by collocation, from the last one's */
        double viol;
        memcpy(r->zwork, r->zc, sizeof(double) * (size_t)hes_colloc_nvars(r->col));
        if ((st = hes_colloc_solve(r->col, r->zwork, 1e-9, &viol)) == HES_OK) {
            memcpy(r->zc, r->zwork, sizeof(double) * (size_t)hes_colloc_nvars(r->col));
            memcpy(r->x, hes_colloc_state(r->col, r->zc, 0, 0), sizeof(double) * (size_t)r->n);
        }
    }
    if (st == HES_OK)
        st = hes_system_set_orbit_start(sys, r->x);
    hes_analysis a;
    if (st == HES_OK && hes_system_kind(sys) == HES_KIND_ESS)
        st = hes_system_set_orbit_period(sys, isfinite(T) && T > 0 ? T : NAN);
    if (st == HES_OK) {
        int m = r->nu + r->nfp + 1;
        memset(r->w, 0, sizeof(double) * (size_t)m);
        if (d) {
            for (int j = 0; j < r->nu; j++)
                r->w[j] = d[j] * r->sigma;
            r->w[m - 1] = d[r->nu];
        } else {
            r->w[m - 1] = 1;
        }
        double c = r->w[m - 1] * zp[r->nu];
        for (int j = 0; j < r->nu; j++)
            c += r->w[j] * zp[j];
        hes__orbit_extra e = { r->k, r->w, c, 1 };   /* checked below */
        st = hes__analyze_extra(sys, 0, r->manifold ? NULL : &e, &a);
    }
    if (st != HES_OK)
        return st;
    if (a.orbit.n != r->n) {   /* another section: not this branch's orbit */
        int n = a.orbit.n;
        hes_analysis_free(&a);
        return hes__fail(sys, HES_ENOORBIT, "the orbit found has a section state of "
                         "dimension %d, not %d", n, r->n);
    }
    st = point_of(r, &a, pt);
    if (st == HES_OK && hes_system_kind(sys) == HES_KIND_HYBRID &&
        hes__orbit_verify(sys, &a.orbit) != HES_OK) {
        pt->full = 0;
        snprintf(r->seq_msg, sizeof r->seq_msg, "%s", hes_system_errmsg(sys));
    }
    if (keep && st == HES_OK)
        *keep = a;
    else
        hes_analysis_free(&a);
    return st;
}

/* Appends *pt (moved) to the branch; HES_ENOMEM, or 1 when it is full. */
static int append(run *r, hes_continuation_point *pt)
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
 * out of memory: *st): 0 when kept.  Calls the progress callback. */
static int keep(run *r, hes_continuation_point *pt, hes_status *st)
{
    int full = append(r, pt);
    if (full) {
        point_free(pt);
        if (full == HES_ENOMEM)
            *st = hes__fail(r->sys, HES_ENOMEM, "out of memory for the branch");
        else
            snprintf(r->out->why, sizeof r->out->why, "the branch has max_points points");
        return 1;
    }
    if (r->o->progress && r->o->progress(r->o->progress_ctx, r->out)) {
        r->stopped = 1;
        snprintf(r->out->why, sizeof r->out->why, "stopped by the caller");
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------ test functions */

/* The test functions: the multipliers' three, then (not tests of the
 * multipliers) psi - 1 at N_TESTS, the full-system check at T_FULL (+1 or
 * -1), the time from event k to the next around the period at T_SIM + k
 * (k < 4096), and transition k's margin at T_GUARD + k. */
enum { T_SN, T_PD, T_NS, N_TESTS, T_FULL, T_SIM, T_GUARD = T_SIM + 4096 };

/* A point whose multipliers include a real one at +1 within its accuracy:
 * at two points of a branch, a family of orbits (a rolling wheel's
 * heading); a crossing of +1 is at one point only. */
static int neutral_point(const hes_continuation_point *pt)
{
    double tol = fmax(pt->psi_tol, 1e-9);
    for (int i = 0; i < pt->n_mult; i++)
        if (pt->im[i] == 0 && fabs(pt->re[i] - 1) <= tol)
            return 1;
    return 0;
}

/* The multiplier a family keeps at +1: on a family branch the real one
 * nearest +1 at each point, left out of the tests (-1: none left out). */
static int family_index(const run *r, const hes_continuation_point *pt)
{
    int k = -1;
    double best = HUGE_VAL;
    for (int i = 0; r->family && i < pt->n_mult; i++)
        if (pt->im[i] == 0 && fabs(pt->re[i] - 1) < best)
            best = fabs(pt->re[i] - 1), k = i;
    return k;
}

static double test_value(const run *r, const hes_continuation_point *pt, int which)
{
    double complex v = 1;
    int skip = family_index(r, pt);
    for (int i = 0; i < pt->n_mult; i++) {
        if (i == skip)
            continue;
        double complex li = pt->re[i] + I * pt->im[i];
        if (which == T_SN)
            v *= li - 1;
        else if (which == T_PD)
            v *= li + 1;
        else
            for (int j = i + 1; j < pt->n_mult; j++)
                if (j != skip)
                    v *= li * (pt->re[j] + I * pt->im[j]) - 1;
    }
    return creal(v);
}

/* The largest modulus of a point's multipliers but the family's (psi
 * itself off a family branch), and its index. */
static double psi_beside(const run *r, const hes_continuation_point *pt, int *at)
{
    int skip = family_index(r, pt), k = -1;
    double m = 0;
    for (int i = 0; i < pt->n_mult; i++)
        if (i != skip && hypot(pt->re[i], pt->im[i]) > m)
            m = hypot(pt->re[i], pt->im[i]), k = i;
    if (at)
        *at = k;
    return skip < 0 ? pt->psi : m;
}

/* The crossing multiplier's kind at a point where psi (beside a family's
 * 1) is near 1. */
static hes_crossing classify(const run *r, const hes_continuation_point *pt)
{
    int k;
    psi_beside(r, pt, &k);
    if (r->family ? k < 0 : pt->n_mult < 1)
        return HES_CROSS_NONE;
    if (!r->family)
        k = 0;
    double re = pt->re[k], im = pt->im[k], mod = hypot(re, im);
    if (fabs(im) > 1e-6 * mod)
        return HES_CROSS_COMPLEX;
    return re > 0 ? HES_CROSS_PLUS_ONE : HES_CROSS_MINUS_ONE;
}

/* A complex pair on the unit circle to within 1e-3 (an NS zero, not a
 * neutral saddle's). */
static int complex_pair_on_circle(const hes_continuation_point *pt)
{
    for (int i = 0; i < pt->n_mult; i++) {
        double mod = hypot(pt->re[i], pt->im[i]);
        if (fabs(pt->im[i]) > 1e-6 * mod && fabs(mod - 1) < 1e-3)
            return 1;
    }
    return 0;
}

/* psi - 1 has opposite signs at a and b (by their verdicts; on a family
 * branch psi beside the family's 1, against each point's accuracy). */
static int stability_changes(const run *r, const hes_continuation_point *a,
                             const hes_continuation_point *b)
{
    if (r->family) {
        double fa = psi_beside(r, a, NULL) - 1, fb = psi_beside(r, b, NULL) - 1;
        return (fa < -a->psi_tol && fb > b->psi_tol) || (fa > a->psi_tol && fb < -b->psi_tol);
    }
    return (a->verdict == HES_STABLE && b->verdict == HES_UNSTABLE) ||
           (a->verdict == HES_UNSTABLE && b->verdict == HES_STABLE);
}

/* The time from event k of the orbit to the next (the first of the next
 * period after the last), taken around the period into (-T/2, T/2]: its
 * sign changes where the two become simultaneous and pass each other.
 * NaN when there is no such event or the two are of one transition. */
static double event_gap(const hes_continuation_point *pt, int k)
{
    int n = pt->n_events;
    if (k < 0 || k >= n || n < 2 || !pt->event_t)
        return NAN;
    int next = (k + 1) % n;
    if (pt->event_tr[k] == pt->event_tr[next])
        return NAN;
    double d = pt->event_t[next] + (next == 0 ? pt->period : 0) - pt->event_t[k];
    d = fmod(d, pt->period);
    if (d > pt->period / 2)
        d -= pt->period;
    else if (d <= -pt->period / 2)
        d += pt->period;
    return d;
}

/* The two points have the same events in the same order. */
static int same_events(const hes_continuation_point *a, const hes_continuation_point *b)
{
    if (a->n_events != b->n_events || !a->event_tr || !b->event_tr)
        return 0;
    for (int e = 0; e < a->n_events; e++)
        if (a->event_tr[e] != b->event_tr[e])
            return 0;
    return 1;
}

/* A test's value at a point: T_SN, T_PD, T_NS, or N_TESTS for psi - 1 (a
 * marginal point 0; on a family branch psi beside the family's 1). */
static double fvalue(const run *r, const hes_continuation_point *pt, int which)
{
    if (which < N_TESTS)
        return test_value(r, pt, which);
    if (which == N_TESTS && r->family)
        return psi_beside(r, pt, NULL) - 1;
    if (which == T_FULL)
        return pt->full ? 1 : -1;
    if (which >= T_GUARD)
        return pt->margins[which - T_GUARD];
    if (which >= T_SIM)
        return event_gap(pt, which - T_SIM);
    return pt->verdict == HES_MARGINAL ? 0 : pt->psi - 1;
}

/*
 * The zero of test `which` between the branch points a and b (opposite
 * signs), by Illinois regula falsi in the secant fraction theta, into *at:
 * the final bracket's end nearer the zero, or for the full-system check and
 * a guard's margin its end on a's side (the last orbit of the full system).
 * HES_OK, or the orbit search's status.
 */
static hes_status locate(run *r, const hes_continuation_point *a,
                         const hes_continuation_point *b, int which,
                         hes_continuation_point *at)
{
    int m = r->nu + 1;
    double *za = malloc(sizeof(double) * (size_t)(4 * m));
    if (!za)
        return hes__fail(r->sys, HES_ENOMEM, "out of memory for a located point");
    double *zb = za + m, *zp = zb + m, *d = zp + m;
    z_of(r, a, za);
    z_of(r, b, zb);
    double len = zdist(r, za, zb);
    for (int j = 0; j < r->nu; j++)
        d[j] = r->sigma * (zb[j] - za[j]) / len;
    d[r->nu] = (zb[r->nu] - za[r->nu]) / len;
    hes_continuation_point lo = { 0 }, hi = { 0 }, mid = { 0 };
    hes_status st = point_copy(r, a, &lo);
    if (st == HES_OK)
        st = point_copy(r, b, &hi);
    double tlo = 0, thi = 1, flo = fvalue(r, a, which), fhi = fvalue(r, b, which);
    int side = 0, found = 0;
    for (int it = 0; st == HES_OK && !found && it < 100; it++) {
        if (pdist(r, &lo, &hi) <= r->o->tol)
            break;
        double t = tlo - flo * (thi - tlo) / (fhi - flo);
        if (!(t > tlo && t < thi) || it % 8 == 7)
            t = 0.5 * (tlo + thi);     /* bisection keeps the bracket shrinking */
        for (int j = 0; j <= r->nu; j++)
            zp[j] = (1 - t) * za[j] + t * zb[j];
        st = solve(r, zp, r->arclength ? d : NULL,
                   (1 - t) * a->period + t * b->period, t < 0.5 ? &lo : &hi, &mid, NULL);
        if (st != HES_OK)
            break;
        double f = fvalue(r, &mid, which);
        if (f == 0) {
            found = 1;
        } else if ((f < 0) == (flo < 0)) {
            point_free(&lo);
            lo = mid, tlo = t, flo = f;
            if (side == -1)
                fhi /= 2;
            side = -1;
        } else {
            point_free(&hi);
            hi = mid, thi = t, fhi = f;
            if (side == 1)
                flo /= 2;
            side = 1;
        }
        if (!found)
            memset(&mid, 0, sizeof mid);
    }
    free(za);
    if (st == HES_OK) {
        if (found) {
            *at = mid;
        } else if (which < T_FULL && fabs(fvalue(r, &hi, which)) < fabs(fvalue(r, &lo, which))) {
            *at = hi;
            memset(&hi, 0, sizeof hi);
        } else {
            *at = lo;
            memset(&lo, 0, sizeof lo);
        }
    } else {
        point_free(&mid);
    }
    point_free(&lo);
    point_free(&hi);
    return st;
}

/* The label of a zero of test `which` located at pt between the branch
 * points b and c. */
static hes_label label_of(const hes_continuation_point *pt, const hes_continuation_point *b,
                          const hes_continuation_point *c, int which)
{
    if (which == T_PD)
        return HES_LABEL_PD;
    if (which == T_NS)
        return HES_LABEL_NS;
    /* a fold: the parameter is extreme there, beyond both neighbours */
    return (pt->value - b->value) * (pt->value - c->value) > 0 ? HES_LABEL_SN : HES_LABEL_BP;
}

/*
 * The bifurcations and the change of stability between the branch's last
 * point b and the new point c (not yet kept): each test function's sign
 * change located, labelled and kept in the order of the branch; a change
 * of the verdict marks the located point nearest psi = 1 (or is located
 * itself).  HES_OK (with *ended when the branch cannot take more points),
 * or the status of a failed location.
 */
static hes_status events_between(run *r, int ib, hes_continuation_point *c, int *ended)
{
    enum { MAX_FOUND = 16 };
    hes_continuation_point found[MAX_FOUND];
    int nf = 0;
    hes_status st = HES_OK;
    for (int which = 0; which < N_TESTS && st == HES_OK; which++) {
        const hes_continuation_point *b = &r->out->points[ib];
        double fb = fvalue(r, b, which), fc = fvalue(r, c, which);
        if (fb == 0 || fc == 0 || (fb < 0) == (fc < 0) || !isfinite(fb) || !isfinite(fc))
            continue;
        hes_continuation_point at;
        if ((st = locate(r, b, c, which, &at)) != HES_OK)
            break;
        if (which == T_NS && !complex_pair_on_circle(&at)) {
            point_free(&at);     /* a neutral saddle: no bifurcation */
            continue;
        }
        at.label = label_of(&at, b, c, which);
        found[nf++] = at;
    }
    /* two events passing each other (their gap around the period changes
       sign while both are near each other: not the wrap at half a period) */
    for (int k = 0; st == HES_OK && k < c->n_events && k < 4096 && nf < MAX_FOUND - 1; k++) {
        const hes_continuation_point *b = &r->out->points[ib];
        if (!same_events(b, c))
            break;
        double fb = event_gap(b, k), fc = event_gap(c, k), T = c->period;
        if (!isfinite(fb) || !isfinite(fc) || fb == 0 || fc == 0 || (fb < 0) == (fc < 0) ||
            fabs(fb) > T / 4 || fabs(fc) > T / 4)
            continue;
        hes_continuation_point at;
        if ((st = locate(r, b, c, T_SIM + k, &at)) != HES_OK)
            break;
        int dup = 0;
        for (int i = 0; i < nf; i++)
            dup = dup || (found[i].label == HES_LABEL_SIM && pdist(r, &found[i], &at) <= r->o->tol);
        if (dup) {
            point_free(&at);
            continue;
        }
        at.label = HES_LABEL_SIM;
        const hes_model *m = r->sys->model;
        snprintf(at.detail, sizeof at.detail, "%.30s+%.30s",
                 m->transitions[c->event_tr[k]].name,
                 m->transitions[c->event_tr[(k + 1) % c->n_events]].name);
        found[nf++] = at;
    }
    const hes_continuation_point *b = &r->out->points[ib];
    if (st == HES_OK && stability_changes(r, b, c)) {
        int best = -1;
        for (int i = 0; i < nf; i++)
            if (best < 0 || fabs(found[i].psi - 1) < fabs(found[best].psi - 1))
                best = i;
        if (best < 0) {
            hes_continuation_point at;
            if ((st = locate(r, b, c, N_TESTS, &at)) == HES_OK)
                found[best = nf++] = at;
        }
        if (best >= 0)
            found[best].crossing = classify(r, &found[best]);
    } else if (st == HES_OK && !r->family && c->verdict == HES_MARGINAL &&
               b->verdict != HES_MARGINAL) {
        c->crossing = classify(r, c);
    }
    /* in the order of the branch: by distance from b */
    for (int i = 1; i < nf; i++)
        for (int j = i; j > 0 && pdist(r, b, &found[j]) < pdist(r, b, &found[j - 1]); j--) {
            hes_continuation_point t = found[j];
            found[j] = found[j - 1];
            found[j - 1] = t;
        }
    int i = 0;
    for (; i < nf && st == HES_OK && !*ended; i++)
        *ended = keep(r, &found[i], &st);
    for (; i < nf; i++)
        point_free(&found[i]);
    return st;
}

/*
 * Where the orbit stops being one of the full system between the branch's
 * point ib and the new point *c: a guard's margin that changes sign
 * (grazing: located, *c replaced by the point, labelled GR with the
 * guard's name) or, failing that, a failed full-system check (a change of
 * the event sequence: located by bisection, *c replaced by the last orbit
 * of the full system, labelled SEQ).  *last is set when the branch ends
 * there, with the reason in why.
 */
static hes_status boundary(run *r, int ib, hes_continuation_point *c, int *last)
{
    hes_continuation *out = r->out;
    hes_continuation_point best = { 0 };
    int graze = -1;
    hes_status st = HES_OK;
    for (int k = 0; k < r->ng && st == HES_OK; k++) {
        const hes_continuation_point *b = &out->points[ib];
        double mb = b->margins[k], mc = c->margins[k];
        if (!(isfinite(mb) && isfinite(mc) && mb > 0 && mc <= 0))
            continue;
        hes_continuation_point at;
        if ((st = locate(r, b, c, T_GUARD + k, &at)) != HES_OK)
            break;
        if (graze < 0 || pdist(r, b, &at) < pdist(r, b, &best)) {
            point_free(&best);
            best = at;
            graze = k;
        } else {
            point_free(&at);
        }
    }
    if (st == HES_OK && graze < 0 && !c->full) {
        if ((st = locate(r, &out->points[ib], c, T_FULL, &best)) == HES_OK && best.full) {
            best.label = HES_LABEL_SEQ;
            snprintf(out->why, sizeof out->why, "the event sequence changes past %s = %.10g: "
                     "%.300s", out->param, best.value, r->seq_msg);
            *last = 1;
        } else if (st == HES_OK) {
            point_free(&best);
            st = hes__fail(r->sys, HES_ENOORBIT, "no orbit of the full system between %s = "
                           "%.10g and %.10g: %s", out->param, out->points[ib].value, c->value,
                           r->seq_msg);
        }
    } else if (st == HES_OK && graze >= 0) {
        best.label = HES_LABEL_GR;
        snprintf(best.detail, sizeof best.detail, "%s",
                 r->sys->model->transitions[graze].name);
        snprintf(out->why, sizeof out->why, "grazing: the orbit touches the guard of '%s' at "
                 "%s = %.10g; past it the orbit crosses the guard", best.detail, out->param,
                 best.value);
        *last = 1;
    }
    if (st == HES_OK && *last) {
        point_free(c);
        *c = best;
    } else {
        point_free(&best);
    }
    return st;
}

/* Follows the branch from its last two points (ia, ib; ia -1: the first
 * step is a natural one) towards r->to; the run's status (the end's reason
 * in out->why). */
static hes_status follow(run *r, int ia, int ib, double from)
{
    hes_continuation *c = r->out;
    const hes_continuation_options *o = r->o;
    int m = r->nu + 1, easy = 0, ended = 0;
    double span = fabs(r->to - from), dir = r->to > from ? 1 : -1, h = o->step;
    double *za = malloc(sizeof(double) * (size_t)(4 * m));
    if (!za)
        return hes__fail(r->sys, HES_ENOMEM, "out of memory for the predictor");
    double *zb = za + m, *zp = zb + m, *d = zp + m;
    hes_status st = HES_OK;
    hes_continuation_point pt = { 0 };
    while (st == HES_OK && !ended) {
        /* a multiplier at +1 at two points: a family (it stays on it), whose
           1 is not a crossing */
        r->family = r->family || (ia >= 0 && neutral_point(&c->points[ia]) &&
                                  neutral_point(&c->points[ib]));
        const hes_continuation_point *b = &c->points[ib], *a = ia >= 0 ? &c->points[ia] : NULL;
        if (b->value == r->to) {
            c->reached = 1;
            break;
        }
        z_of(r, b, zb);
        double T;
        int natural = !r->arclength || !a;
        if (!natural) {          /* along the unit secant, in scaled coordinates */
            z_of(r, a, za);
            double len = zdist(r, za, zb);
            for (int j = 0; j < r->nu; j++) {
                d[j] = r->sigma * (zb[j] - za[j]) / len;
                zp[j] = zb[j] + h * d[j] / r->sigma;
            }
            d[r->nu] = (zb[r->nu] - za[r->nu]) / len;
            zp[r->nu] = zb[r->nu] + h * d[r->nu];
            T = b->period + h * (b->period - a->period) / len;
        } else {                 /* the secant in the parameter */
            double v = b->value + dir * h;
            if ((r->to - v) * dir < 0)
                v = r->to;
            double dp = a ? b->value - a->value : 0;
            if (a)
                z_of(r, a, za);
            for (int j = 0; j < r->nu; j++)
                zp[j] = zb[j] + (dp != 0 ? (v - b->value) * (zb[j] - za[j]) / dp : 0);
            zp[r->nu] = v;
            T = b->period + (dp != 0 ? (v - b->value) * (b->period - a->period) / dp : 0);
        }
        hes_status got = solve(r, zp, natural ? NULL : d, T, b, &pt, NULL);
        if (got == HES_ENOMEM) {
            st = got;
            break;
        }
        double jump = HUGE_VAL, moved = a ? zdist(r, zp, zb) : span;
        if (got == HES_OK) {
            double s = 0;
            for (int j = 0; j < r->nu; j++) {
                double dj = r->sigma * (pt.x0[state_index(r, j)] - zp[j]);
                s += dj * dj;
            }
            double dT = r->sigma_t * (pt.period - T);
            jump = sqrt(s + (pt.value - zp[r->nu]) * (pt.value - zp[r->nu]) + dT * dT);
            double mT = r->sigma_t * (a ? T - b->period : b->period);
            moved = hypot(moved, mT);
        }
        int beyond = got == HES_OK && (pt.value - r->to) * dir > 0;
        if (beyond) {            /* past `to`: the point at `to` instead */
            double t = (r->to - b->value) / (pt.value - b->value);
            z_of(r, &pt, za);
            for (int j = 0; j <= r->nu; j++)
                zp[j] = (1 - t) * zb[j] + t * za[j];
            zp[r->nu] = r->to;
            double Tt = (1 - t) * b->period + t * pt.period;
            point_free(&pt);
            got = solve(r, zp, NULL, Tt, b, &pt, NULL);
        }
        if (got != HES_OK || jump > o->max_jump * moved + 1e-9 * span) {
            if (got == HES_OK)
                point_free(&pt);
            h /= 2;
            easy = 0;
            if (h < o->min_step) {
                snprintf(c->why, sizeof c->why, "the orbit was lost past %s = %.10g (no "
                         "orbit of this branch within a step of %.3g: %s%s): %s", c->param,
                         b->value, o->min_step,
                         r->arclength ? "" : "a fold of the branch, where a multiplier "
                         "reaches +1, ", "a grazing event, a change of the event sequence or "
                         "the edge of the parameter's range",
                         got != HES_OK ? hes_system_errmsg(r->sys)
                                       : "the orbit found lies on another branch");
                break;
            }
            continue;
        }
        if ((pt.value - from) * dir < 0) {   /* turned back out of the interval */
            point_free(&pt);
            snprintf(c->why, sizeof c->why, "the branch turned back and left the interval "
                     "at %s = %.10g", c->param, from);
            break;
        }
        int last = 0;            /* a grazing or a change of the event sequence */
        if ((st = boundary(r, ib, &pt, &last)) == HES_OK)
            st = events_between(r, ib, &pt, &ended);
        if (st != HES_OK || ended) {
            point_free(&pt);
            if (st != HES_OK && st != HES_ENOMEM) {
                /* a location that failed ends the branch; its points stay */
                snprintf(c->why, sizeof c->why, "a bifurcation, grazing or change of the "
                         "event sequence between %s = %.10g and the next point could not "
                         "be located: %.300s", c->param, c->points[c->n_points - 1].value,
                         hes_system_errmsg(r->sys));
                st = HES_OK;
            }
            break;
        }
        if ((ended = keep(r, &pt, &st)) || last)
            break;
        ia = ib;
        ib = c->n_points - 1;
        if (++easy >= 2 && h < o->max_step) {
            h = fmin(1.5 * h, o->max_step);
            easy = 0;
        }
    }
    free(za);
    return st;
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
        !isfinite(o->max_step) || o->max_points < 2 || o->max_points > 100000 ||
        o->method < HES_CONT_AUTO || o->method > HES_CONT_ARCLENGTH ||
        o->corrector < HES_CORRECT_SHOOTING || o->corrector > HES_CORRECT_COLLOCATION ||
        (o->colloc_nodes != 0 && (o->colloc_nodes < 3 || o->colloc_nodes > 1001)))
        return hes__say(hes__errbuf(err), hes__errlen(err), HES_EINVAL, "continuation "
                        "options: need 0 < min_step <= step <= max_step (finite), tol > 0, "
                        "max_jump > 0, 2 <= max_points <= 100000, a known method and "
                        "corrector, and 3 to 1001 collocation nodes");
    return HES_OK;
}

/* A run over sys's parameter `param` with the options resolved into *o;
 * HES_EINVAL with the reason in err. */
static hes_status run_init(run *r, hes_system *sys, const char *param, double from, double to,
                           const hes_continuation_options *opts, hes_continuation_options *o,
                           hes_continuation *out, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    memset(r, 0, sizeof *r);
    if (!isfinite(from) || !isfinite(to) || from == to)
        return hes__say(msg, len, HES_EINVAL, "continuation: need finite from != to");
    int k = -1;
    for (int i = 0; i < hes_system_n_params(sys); i++)
        if (strcmp(hes_system_param_info(sys, i)->name, param) == 0)
            k = i;
    if (k < 0)
        return hes__say(msg, len, HES_EINVAL, "continuation: unknown parameter '%s'", param);
    if (hes_system_param_info(sys, k)->flags & HES_PARAM_SOLVED)
        return hes__say(msg, len, HES_EINVAL, "continuation: '%s' is solved by the orbit "
                        "search, not a parameter to follow", param);
    hes_continuation_options in;
    hes_continuation_options_init(&in);
    hes_status st = options_of(opts ? opts : &in, from, to, o, err);
    if (st != HES_OK)
        return st;
    int hybrid = hes_system_kind(sys) == HES_KIND_HYBRID;
    /* the arclength equation is linear in x0, which a state on a manifold
     * (or one solved in a quotient by symmetries) is not: such a branch
     * follows the parameter itself, each orbit solved at its value */
    const hes_orbit_spec *os = hybrid ? &sys->model->orbit : NULL;
    int manifold = hybrid && (hes__mode_has_chart(sys->model, os->mode) || os->free_quotient);
    if (manifold && o->method == HES_CONT_ARCLENGTH)
        return hes__say(msg, len, HES_EINVAL, "continuation: pseudo-arclength steps need the "
                        "orbit's state in linear coordinates, and mode '%s' %s: follow the "
                        "parameter itself (natural steps)", sys->model->modes[os->mode].name,
                        os->free_quotient ? "is solved in a quotient by its symmetries"
                                          : "has a chart (a state on a manifold)");
    r->p_saved = malloc(sizeof(double) * (size_t)(hes_system_n_params(sys) + 1));
    if (!r->p_saved)
        return hes__say(msg, len, HES_ENOMEM, "out of memory");
    memcpy(r->p_saved, hes_system_params(sys), sizeof(double) * (size_t)hes_system_n_params(sys));
    r->sys = sys;
    r->k = k;
    r->manifold = manifold;
    r->arclength = o->method != HES_CONT_NATURAL && !manifold;
    if (hybrid) {
        r->nu = os->n_free_states;
        r->fs = manifold ? NULL : os->free_states;
        r->nfp = os->n_free_params;
    }
    r->to = to;
    r->out = out;
    r->max_points = o->max_points;
    r->o = o;
    memset(out, 0, sizeof *out);
    snprintf(out->param, sizeof out->param, "%s", param);
    out->method = r->arclength ? HES_CONT_ARCLENGTH : HES_CONT_NATURAL;
    out->returns = hes_system_orbit_returns(sys);
    return HES_OK;
}

/* The run's arrays and scales once the first point's analysis a (at the
 * span |to - from|) fixes the section; HES_ENOMEM. */
static hes_status run_arrays(run *r, const hes_analysis *a, double span)
{
    r->n = a->orbit.n;
    if (hes_system_kind(r->sys) != HES_KIND_HYBRID || r->manifold)
        r->nu = r->n;         /* an ESS system's orbit search starts from all of it, as
                                 the predictor of a state on a manifold does */
    double X = 0;
    for (int i = 0; i < r->n; i++)
        X = fmax(X, fabs(a->orbit.x0[i]));
    r->sigma = span / (X > 0 ? X : 1);
    r->sigma_t = span / (a->orbit.period > 0 ? a->orbit.period : 1);
    r->out->n = r->n;
    if (hes_system_kind(r->sys) == HES_KIND_HYBRID)
        r->ng = r->sys->model->n_transitions;
    r->out->n_guards = r->ng;
    r->returns = hes_system_orbit_returns(r->sys);
    r->x = malloc(sizeof(double) * (size_t)r->n);
    r->w = malloc(sizeof(double) * (size_t)(r->nu + r->nfp + 1));
    r->gm = r->ng > 0 ? malloc(sizeof *r->gm * (size_t)r->ng) : NULL;
    r->scratch = r->ng > 0 ? malloc(sizeof(double) * 2 * (size_t)r->sys->nmax) : NULL;
    if (!r->x || !r->w || (r->ng > 0 && (!r->gm || !r->scratch)))
        return hes__fail(r->sys, HES_ENOMEM, "out of memory for the branch");
    return HES_OK;
}

/* The first and last points are the branch's ends. */
static void label_ends(hes_continuation *c)
{
    if (c->n_points > 0 && c->points[0].label == HES_LABEL_NONE)
        c->points[0].label = HES_LABEL_EP;
    if (c->n_points > 1 && c->points[c->n_points - 1].label == HES_LABEL_NONE)
        c->points[c->n_points - 1].label = HES_LABEL_EP;
}

/* Arclengths of the points along the branch. */
static void arclengths(const run *r, hes_continuation *c)
{
    for (int i = 1; i < c->n_points; i++)
        c->points[i].s = c->points[i - 1].s + pdist(r, &c->points[i - 1], &c->points[i]);
}

/* The end of a call: the branch's ends and arclengths, the error message,
 * the system as it was. */
static hes_status finish(run *r, hes_status st, double saved, int returns, double from,
                         hes_continuation *out, hes_error *err)
{
    hes_system *sys = r->sys;
    if (st == HES_OK) {
        label_ends(out);
        arclengths(r, out);
    } else {
        char *msg = hes__errbuf(err);
        if (msg)
            snprintf(msg, hes__errlen(err), "continuation of %s from %.10g: %s", out->param,
                     from, hes_system_errmsg(sys));
        hes_continuation_free(out);
    }
    free(r->x);
    free(r->w);
    free(r->gm);
    free(r->scratch);
    hes_colloc_destroy(r->col);
    free(r->zc);
    free(r->zwork);
    (void)saved;
    memcpy(sys->p, r->p_saved, sizeof(double) * (size_t)sys->n_params);
    free(r->p_saved);
    hes_system_set_orbit_start(sys, NULL);
    hes_system_set_orbit_returns(sys, returns);
    if (hes_system_kind(sys) == HES_KIND_ESS)
        hes_system_set_orbit_period(sys, NAN);
    return st;
}

/* HES_EINVAL: the collocation corrector follows a branch from its start
 * only (the run's saved parameters freed). */
static hes_status no_collocation(run *r, const char *what, hes_error *err)
{
    free(r->p_saved);
    return hes__say(hes__errbuf(err), hes__errlen(err), HES_EINVAL, "%s: the collocation "
                    "corrector follows a branch from its start only (hes_continue, "
                    "hes_continue_both)", what);
}

/* HES_EINVAL: steps off the branch (branch switching, a curve of two
 * parameters) solve with an extra equation, which an orbit on a manifold
 * or in a quotient does not take (the run's saved parameters freed). */
static hes_status no_manifold(run *r, const char *what, hes_error *err)
{
    free(r->p_saved);
    return hes__say(hes__errbuf(err), hes__errlen(err), HES_EINVAL, "%s: needs the orbit's "
                    "state in linear coordinates (mode '%s' has a chart or is solved in a "
                    "quotient by its symmetries)", what,
                    r->sys->model->modes[r->sys->model->orbit.mode].name);
}

/* The collocation corrector of a run (o->corrector): the collocation of
 * the system's orbit at its current parameters, from a simulation of the
 * orbit start (or the model's guess), solved; the orbit start becomes its
 * section state.  Natural steps.  HES_EINVAL where it does not apply. */
static hes_status colloc_start(run *r)
{
    hes_system *sys = r->sys;
    if (hes_system_kind(sys) != HES_KIND_HYBRID || sys->model->orbit.period_param ||
        hes_system_orbit_returns(sys) != 1)
        return hes__fail(sys, HES_EINVAL, "the collocation corrector needs an autonomous "
                         "orbit of one return of a hybrid system");
    r->arclength = 0;
    r->out->method = HES_CONT_NATURAL;
    hes_colloc_options co;
    hes_colloc_options_init(&co);
    if (r->o->colloc_nodes > 0)
        co.nodes = r->o->colloc_nodes;
    hes_status st = hes_colloc_new(sys, &co, &r->col);
    if (st != HES_OK)
        return st;
    size_t nv = (size_t)hes_colloc_nvars(r->col);
    r->zc = malloc(sizeof(double) * (nv ? nv : 1));
    r->zwork = malloc(sizeof(double) * (nv ? nv : 1));
    if (!r->zc || !r->zwork)
        return hes__fail(sys, HES_ENOMEM, "out of memory for the collocation");
    double viol;
    if ((st = hes__colloc_guess_from(r->col, sys->orbit_start, r->zc)) == HES_OK &&
        (st = hes_colloc_solve(r->col, r->zc, 1e-9, &viol)) == HES_OK)
        st = hes_system_set_orbit_start(sys, hes_colloc_state(r->col, r->zc, 0, 0));
    return st;
}

hes_status hes_continue(hes_system *sys, const char *param, double from, double to,
                        const hes_continuation_options *opts, hes_continuation *out,
                        hes_error *err)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (!sys || !param || !out)
        return hes__say(hes__errbuf(err), hes__errlen(err), HES_EINVAL,
                        "hes_continue: NULL argument");
    run r;
    hes_continuation_options o;
    hes_status st = run_init(&r, sys, param, from, to, opts, &o, out, err);
    if (st != HES_OK)
        return st;
    double saved = hes_system_params(sys)[r.k];
    /* the first point: the system's orbit search at `from`, from its orbit
       start or the model's guess; it fixes the section */
    hes_analysis a;
    st = hes_system_set_param(sys, param, from);
    if (st == HES_OK && o.corrector == HES_CORRECT_COLLOCATION)
        st = colloc_start(&r);
    if (st == HES_OK)
        st = hes_analyze(sys, 0, &a);
    if (st == HES_OK) {
        hes_continuation_point pt;
        if ((st = run_arrays(&r, &a, fabs(to - from))) == HES_OK &&
            (st = point_of(&r, &a, &pt)) == HES_OK)
            keep(&r, &pt, &st);   /* max_points >= 2: only memory can fail */
        hes_analysis_free(&a);
    }
    if (st == HES_OK && !r.stopped)
        st = follow(&r, -1, 0, from);
    return finish(&r, st, saved, out->returns, from, out, err);
}

/* ------------------------------------------------------- both directions */

typedef struct {
    hes_system *sys;         /* a copy of the caller's (NULL: none made) */
    const char *param;
    double from, to;
    hes_continuation_options o;  /* the caller's, with the progress callback below */
    const hes_continuation_options *user;
    pthread_mutex_t *lock;   /* one call of the caller's callback at a time */
    hes_continuation *out;
    hes_error err;
    hes_status st;
} direction_job;

/* The caller's progress callback, called by one direction at a time. */
static int locked_progress(void *ctx, const hes_continuation *branch)
{
    direction_job *j = ctx;
    pthread_mutex_lock(j->lock);
    int stop = j->user->progress(j->user->progress_ctx, branch);
    pthread_mutex_unlock(j->lock);
    return stop;
}

static void *direction_run(void *arg)
{
    direction_job *j = arg;
    j->st = j->sys ? hes_continue(j->sys, j->param, j->from, j->to, &j->o, j->out, &j->err)
                   : HES_ENOMEM;
    if (!j->sys)
        snprintf(j->err.message, sizeof j->err.message, "out of memory for a copy of the system");
    return NULL;
}

hes_status hes_continue_both(hes_system *sys, const char *param, double lo, double at,
                             double hi, const hes_continuation_options *o, int threads,
                             hes_continuation *down, hes_continuation *up, hes_error *err)
{
    if (down)
        memset(down, 0, sizeof *down);
    if (up)
        memset(up, 0, sizeof *up);
    if (!sys || !param || !down || !up)
        return hes__say(hes__errbuf(err), hes__errlen(err), HES_EINVAL,
                        "hes_continue_both: NULL argument");
    if (!(lo < at && at < hi) || (threads != 1 && threads != 2))
        return hes__say(hes__errbuf(err), hes__errlen(err), HES_EINVAL, "continuation in "
                        "both directions: need lo < at < hi and 1 or 2 threads");
    /* each direction on a system of its own: the caller's keeps its state */
    direction_job jobs[2];
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    memset(jobs, 0, sizeof jobs);
    for (int i = 0; i < 2; i++) {
        jobs[i].sys = hes__system_copy(sys);
        jobs[i].param = param;
        jobs[i].from = at;
        jobs[i].to = i ? hi : lo;
        if (o)
            jobs[i].o = *o;
        else
            hes_continuation_options_init(&jobs[i].o);
        if (o && o->progress) {
            jobs[i].user = o;
            jobs[i].lock = &lock;
            jobs[i].o.progress = locked_progress;
            jobs[i].o.progress_ctx = &jobs[i];
        }
        jobs[i].out = i ? up : down;
    }
    if (threads == 2) {
        hes__run_parallel(2, direction_run, jobs, sizeof jobs[0]);
    } else {
        direction_run(&jobs[0]);
        direction_run(&jobs[1]);
    }
    hes_status st = HES_OK;
    for (int i = 0; i < 2; i++) {
        if (jobs[i].st != HES_OK && st == HES_OK) {
            st = jobs[i].st;
            hes__say(hes__errbuf(err), hes__errlen(err), st, "%s", jobs[i].err.message);
        }
        hes_system_destroy(jobs[i].sys);
    }
    if (st != HES_OK) {
        hes_continuation_free(down);
        hes_continuation_free(up);
    }
    return st;
}

/* ---------------------------------------------------------------- resume */

hes_status hes_continue_resume(hes_system *sys, const hes_continuation *partial, double to,
                               const hes_continuation_options *opts, hes_continuation *out,
                               hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (out)
        memset(out, 0, sizeof *out);
    if (!sys || !partial || !out)
        return hes__say(msg, len, HES_EINVAL, "hes_continue_resume: NULL argument");
    if (partial->n_points < 2 || !partial->points || partial->n < 1)
        return hes__say(msg, len, HES_EINVAL, "resume: the branch has %d points; two are "
                        "needed", partial->n_points);
    for (int i = 0; i < partial->n_points; i++)
        if (!partial->points[i].x0)
            return hes__say(msg, len, HES_EINVAL, "resume: point %d has no section state", i);
    const hes_continuation_point *a = &partial->points[partial->n_points - 2];
    const hes_continuation_point *b = &partial->points[partial->n_points - 1];
    double from = partial->points[0].value;
    if (b->value == to)
        return hes__say(msg, len, HES_EINVAL, "resume: the branch already ends at %.10g", to);
    run r;
    hes_continuation_options o;
    hes_status st = run_init(&r, sys, partial->param, from != to ? from : a->value, to, opts,
                             &o, out, err);
    if (st != HES_OK)
        return st;
    if (o.corrector != HES_CORRECT_SHOOTING)
        return no_collocation(&r, "resuming", err);
    for (int i = 0; st == HES_OK && i < partial->n_points; i++)
        if (partial->points[i].n_mult > 0 && (!partial->points[i].re || !partial->points[i].im))
            st = hes__say(msg, len, HES_EINVAL, "resume: point %d has no multipliers", i);
    if (st == HES_OK && partial->n_points >= o.max_points)
        st = hes__say(msg, len, HES_EINVAL, "resume: max_points (%d) must exceed the "
                      "branch's %d points, which the resumed branch keeps", o.max_points,
                      partial->n_points);
    if (st != HES_OK) {
        free(r.p_saved);
        return st;
    }
    double saved = hes_system_params(sys)[r.k];
    int returns = hes_system_orbit_returns(sys);
    if (partial->method == HES_CONT_NATURAL)
        r.arclength = 0;
    out->method = r.arclength ? HES_CONT_ARCLENGTH : HES_CONT_NATURAL;
    out->returns = partial->returns > 0 ? partial->returns : 1;
    /* the section and scales from an analysis at the last point */
    hes_analysis an;
    st = hes_system_set_orbit_returns(sys, out->returns);
    if (st == HES_OK && (st = hes_system_set_param(sys, partial->param, b->value)) == HES_OK &&
        (st = hes_system_set_orbit_start(sys, b->x0)) == HES_OK &&
        (st = hes_analyze(sys, 0, &an)) == HES_OK) {
        if (an.orbit.n != partial->n)
            st = hes__fail(sys, HES_EINVAL, "resume: the branch's section state has %d "
                           "components, the system's orbit %d", partial->n, an.orbit.n);
        else
            st = run_arrays(&r, &an, fabs(to - from) > 0 ? fabs(to - from) : 1);
        hes_analysis_free(&an);
    }
    /* the partial branch's points, copied, with the margins recomputed
       only where the partial branch has none */
    for (int i = 0; st == HES_OK && i < partial->n_points; i++) {
        hes_continuation_point pt = partial->points[i];
        pt.re = pt.im = pt.x0 = pt.margins = pt.xr = NULL;
        pt.n_mult = partial->points[i].n_mult;
        if ((st = point_arrays(&r, &pt)) != HES_OK)
            break;
        memcpy(pt.re, partial->points[i].re, sizeof(double) * (size_t)pt.n_mult);
        memcpy(pt.im, partial->points[i].im, sizeof(double) * (size_t)pt.n_mult);
        memcpy(pt.x0, partial->points[i].x0, sizeof(double) * (size_t)r.n);
        for (int k = 0; k < r.ng; k++)
            pt.margins[k] = partial->points[i].margins && partial->n_guards == r.ng
                            ? partial->points[i].margins[k] : INFINITY;
        for (int j = 0; r.ng > 0 && j < r.returns; j++)
            memcpy(pt.xr + (size_t)j * r.n, partial->points[i].xr && r.ng == partial->n_guards
                   ? partial->points[i].xr + (size_t)j * r.n : pt.x0, sizeof(double) * (size_t)r.n);
        pt.full = 1;
        if (i == partial->n_points - 1 && pt.label == HES_LABEL_EP)
            pt.label = HES_LABEL_NONE;   /* no longer an end */
        if (append(&r, &pt)) {
            point_free(&pt);
            st = hes__fail(sys, HES_ENOMEM, "out of memory for the branch");
        }
    }
    if (st == HES_OK)
        st = follow(&r, out->n_points - 2, out->n_points - 1, from != to ? from : a->value);
    return finish(&r, st, saved, returns, from, out, err);
}

/* A branch passed in (perhaps read back from a file) whose point `at` and
 * its neighbours have what a switch or a curve reads: HES_EINVAL with the
 * reason in err otherwise. */
static hes_status branch_usable(const hes_system *sys, const hes_continuation *b, int at,
                                const char *what, hes_error *err)
{
    if (at < 0 || at >= b->n_points || !b->points || b->n < 1)
        return hes__say(hes__errbuf(err), hes__errlen(err), HES_EINVAL, "%s: no point %d on "
                        "the branch", what, at);
    int n = sys->model ? sys->model->modes[sys->model->orbit.mode].dim : sys->ess_model->n;
    if (b->n != n)
        return hes__say(hes__errbuf(err), hes__errlen(err), HES_EINVAL, "%s: the branch's "
                        "section state has %d components, the system's orbit %d", what, b->n, n);
    for (int i = at > 0 ? at - 1 : at; i <= at + 1 && i < b->n_points; i++) {
        const hes_continuation_point *pt = &b->points[i];
        if (!pt->x0 || (pt->n_mult > 0 && (!pt->re || !pt->im)) || pt->n_mult < 0)
            return hes__say(hes__errbuf(err), hes__errlen(err), HES_EINVAL, "%s: point %d of "
                            "the branch has no section state or multipliers", what, i);
    }
    return HES_OK;
}

/* ------------------------------------------------- period-doubling switch */

/*
 * The orbit of the doubled returns whose section state lies eps along the
 * unit vector v (over the unknown states) from the PD point's, the
 * parameter an unknown: the shooting equations and v . (u - u_pd) = eps,
 * started from u_pd + eps v at the PD's parameter.  It must not be the
 * branch's own orbit: its section state does not return after half its
 * returns (to 1e-6 of the state's size).  Into *pt; the status.
 */
static hes_status doubled_point(run *r, const hes_continuation_point *pd, const double *v,
                                double eps, double X, hes_continuation_point *pt)
{
    hes_system *sys = r->sys;
    int m = r->nu + r->nfp + 1, R = hes_system_orbit_returns(sys) / 2;
    memcpy(r->x, pd->x0, sizeof(double) * (size_t)r->n);
    memset(r->w, 0, sizeof(double) * (size_t)m);
    double c = eps;
    for (int j = 0; j < r->nu; j++) {
        r->w[j] = v[j];
        c += v[j] * pd->x0[state_index(r, j)];
        r->x[state_index(r, j)] += eps * v[j];
    }
    hes_status st = hes_system_set_param(sys, hes_system_param_info(sys, r->k)->name, pd->value);
    if (st == HES_OK)
        st = hes_system_set_orbit_start(sys, r->x);
    hes__orbit_extra e = { r->k, r->w, c, 0 };
    hes_analysis a;
    if (st == HES_OK)
        st = hes__analyze_extra(sys, 0, &e, &a);
    if (st != HES_OK)
        return st;
    double *half = malloc(sizeof(double) * (size_t)r->n);
    if (!half) {
        hes_analysis_free(&a);
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    }
    st = hes_system_set_orbit_returns(sys, R);
    if (st == HES_OK)
        st = hes_orbit_return_map(sys, a.orbit.x0, half);
    hes_system_set_orbit_returns(sys, 2 * R);
    double diff = 0;
    for (int i = 0; st == HES_OK && i < r->n; i++)
        diff = fmax(diff, fabs(half[i] - a.orbit.x0[i]));
    free(half);
    if (st == HES_OK && !(diff > 1e-6 * X))
        st = hes__fail(sys, HES_ENOORBIT, "the orbit found returns after %d returns: the "
                       "branch's own orbit", R);
    if (st == HES_OK)
        st = point_of(r, &a, pt);
    hes_analysis_free(&a);
    return st;
}

/* The unit eigenvector (over the unknown states) of the PD point's
 * multiplier nearest -1 into v; the status. */
static hes_status pd_direction(run *r, const hes_continuation_point *pd, double *v)
{
    hes_system *sys = r->sys;
    hes_status st = hes_system_set_param(sys, hes_system_param_info(sys, r->k)->name, pd->value);
    if (st == HES_OK)
        st = hes_system_set_orbit_start(sys, pd->x0);
    hes_analysis a;
    if (st == HES_OK)
        st = hes_analyze(sys, 0, &a);
    if (st != HES_OK)
        return st;
    int best = -1;
    for (int i = 0; i < a.stab.n_mult; i++)
        if (fabs(a.stab.im[i]) <= 1e-6 * hypot(a.stab.re[i], a.stab.im[i]) &&
            (best < 0 || fabs(a.stab.re[i] + 1) < fabs(a.stab.re[best] + 1)))
            best = i;
    double norm = 0;
    if (best >= 0 && a.stab.re[best] < 0) {
        const double *col = a.stab.vr + (size_t)a.stab.order[best] * a.stab.n;
        for (int j = 0; j < r->nu; j++) {
            v[j] = col[state_index(r, j)];
            norm += v[j] * v[j];
        }
    }
    hes_analysis_free(&a);
    if (!(norm > 0))
        return hes__fail(sys, HES_ENOORBIT, "no real multiplier near -1 at %s = %.10g with an "
                         "eigenvector along the free states", hes_system_param_info(sys, r->k)->name,
                         pd->value);
    for (int j = 0; j < r->nu; j++)
        v[j] /= sqrt(norm);
    return HES_OK;
}

hes_status hes_continue_doubled(hes_system *sys, const hes_continuation *branch, int at,
                                double to, const hes_continuation_options *opts,
                                hes_continuation *out, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (out)
        memset(out, 0, sizeof *out);
    if (!sys || !branch || !out)
        return hes__say(msg, len, HES_EINVAL, "hes_continue_doubled: NULL argument");
    if (!sys || branch_usable(sys, branch, at, "branch switching", err) != HES_OK)
        return HES_EINVAL;
    if (branch->points[at].label != HES_LABEL_PD)
        return hes__say(msg, len, HES_EINVAL, "branch switching: point %d is not a period "
                        "doubling (PD) of the branch", at);
    if (hes_system_kind(sys) != HES_KIND_HYBRID)
        return hes__say(msg, len, HES_EINVAL, "branch switching: needs an event-driven hybrid "
                        "system (orbits of several returns)");
    const hes_continuation_point *pd = &branch->points[at];
    int R = branch->returns > 0 ? branch->returns : 1, returns = hes_system_orbit_returns(sys);
    /* the window: from the PD's parameter to `to`, and as far on its other
       side, where a subcritical branch lies */
    double from = pd->value - (to - pd->value);
    run r;
    hes_continuation_options o;
    hes_status st = run_init(&r, sys, branch->param, from, to, opts, &o, out, err);
    if (st != HES_OK)
        return st;
    if (o.corrector != HES_CORRECT_SHOOTING)
        return no_collocation(&r, "branch switching", err);
    if (r.manifold)
        return no_manifold(&r, "branch switching", err);
    if (r.nu < 1) {
        free(r.p_saved);
        return hes__say(msg, len, HES_EINVAL, "branch switching: no free state to displace");
    }
    double saved = hes_system_params(sys)[r.k];
    r.arclength = 1;
    out->method = HES_CONT_ARCLENGTH;
    st = hes_system_set_orbit_returns(sys, R);
    hes_analysis a;
    if (st == HES_OK && (st = hes_system_set_param(sys, branch->param, pd->value)) == HES_OK &&
        (st = hes_system_set_orbit_start(sys, pd->x0)) == HES_OK &&
        (st = hes_analyze(sys, 0, &a)) == HES_OK) {
        st = run_arrays(&r, &a, fabs(to - pd->value));
        hes_analysis_free(&a);
    }
    double *v = st == HES_OK ? malloc(sizeof(double) * (size_t)r.nu) : NULL;
    if (st == HES_OK && !v)
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
    if (st == HES_OK)
        st = pd_direction(&r, pd, v);
    if (st == HES_OK)
        st = hes_system_set_orbit_returns(sys, 2 * R);
    out->returns = r.returns = 2 * R;
    double X = 0;
    for (int i = 0; i < r.n; i++)
        X = fmax(X, fabs(pd->x0[i]));
    if (!(X > 0))
        X = 1;
    /* two points at amplitudes eps and 2 eps along the eigenvector; their
       secant leads away from the PD */
    /* either sign: the two are the doubled orbit's two section states
       (P(x + eps v) ~ x - eps v), and one may be refused where the other is
       not (a stroboscopic orbit whose start lies at a section event: the
       displacement moves that event to just after the start on one side) */
    static const double amplitudes[] = { 1e-3, 1e-4, 1e-2, 1e-5, 1e-6 };
    hes_status got = HES_ENOORBIT;
    for (int i = 0; st == HES_OK && got != HES_OK && i < 10; i++) {
        hes_continuation_point p1 = { 0 }, p2 = { 0 };
        double eps = (i % 2 ? -1 : 1) * amplitudes[i / 2] * X;
        got = doubled_point(&r, pd, v, eps, X, &p1);
        if (got == HES_OK && (got = doubled_point(&r, pd, v, 2 * eps, X, &p2)) != HES_OK)
            point_free(&p1);
        if (got == HES_ENOMEM)
            st = got;
        if (got == HES_OK) {
            if (keep(&r, &p1, &st))
                point_free(&p2);  /* stopped, or no memory */
            else
                keep(&r, &p2, &st);
        }
    }
    if (st == HES_OK && got != HES_OK) {
        char why[256];
        snprintf(why, sizeof why, "%s", hes_system_errmsg(sys));
        st = hes__fail(sys, HES_ENOORBIT, "no orbit of %d returns near the period doubling "
                       "at %s = %.10g (%s)", 2 * R, branch->param, pd->value, why);
    }
    free(v);
    if (st == HES_OK && !r.stopped && out->n_points == 2)
        st = follow(&r, 0, 1, from);
    return finish(&r, st, saved, returns, pd->value, out, err);
}

/* ------------------------------------------------- two-parameter curves */

/* The test function of a point's label (for GR its guard's margin; -1
 * when the guard is not the model's). */
static int test_of(const hes_system *sys, const hes_continuation_point *pt)
{
    if (pt->label == HES_LABEL_GR) {
        for (int k = 0; sys->model && k < sys->model->n_transitions; k++)
            if (strcmp(sys->model->transitions[k].name, pt->detail) == 0)
                return T_GUARD + k;
        return -1;
    }
    return pt->label == HES_LABEL_PD ? T_PD : pt->label == HES_LABEL_NS ? T_NS : T_SN;
}

/* The unit direction (scaled) from the point a to b into d (nu + 1). */
static void direction(const run *r, const hes_continuation_point *a,
                      const hes_continuation_point *b, double *d)
{
    double len = pdist(r, a, b);
    for (int j = 0; j < r->nu; j++)
        d[j] = r->sigma * (b->x0[state_index(r, j)] - a->x0[state_index(r, j)]) / len;
    d[r->nu] = (b->value - a->value) / len;
}

/*
 * The label of test `which` located again at the system's current q on the
 * branch through zp (in the direction d, scaled): the orbits at zp -+ delta
 * d (delta growing fourfold until the test changes sign between them, at
 * most four times), then the zero between them, into *at, and the
 * direction between the bracket's ends into d.  HES_ENOORBIT when no sign
 * change is found.
 */
static hes_status relocate(run *r, const double *zp, double *d, double delta, int which,
                           const hes_continuation_point *ref, hes_continuation_point *at)
{
    int m = r->nu + 1;
    double *z = malloc(sizeof(double) * (size_t)m);
    if (!z)
        return hes__fail(r->sys, HES_ENOMEM, "out of memory");
    hes_status st = HES_ENOORBIT;
    for (int tries = 0; tries < 5 && st != HES_OK && st != HES_ENOMEM; tries++, delta *= 4) {
        hes_continuation_point a = { 0 }, b = { 0 };
        for (int j = 0; j < m; j++)
            z[j] = zp[j] - delta * d[j] / (j < r->nu ? r->sigma : 1);
        st = solve(r, z, r->arclength ? d : NULL, ref->period, ref, &a, NULL);
        if (st == HES_OK) {
            for (int j = 0; j < m; j++)
                z[j] = zp[j] + delta * d[j] / (j < r->nu ? r->sigma : 1);
            st = solve(r, z, r->arclength ? d : NULL, ref->period, ref, &b, NULL);
        }
        if (st == HES_OK) {
            double fa = fvalue(r, &a, which), fb = fvalue(r, &b, which);
            if (fa != 0 && fb != 0 && (fa < 0) != (fb < 0) && isfinite(fa) && isfinite(fb)) {
                st = locate(r, &a, &b, which, at);
                if (st == HES_OK) {
                    if (which >= T_GUARD) {   /* grazing: the guard's name */
                        at->label = HES_LABEL_GR;
                        snprintf(at->detail, sizeof at->detail, "%s",
                                 r->sys->model->transitions[which - T_GUARD].name);
                    } else {
                        at->label = which == T_PD ? HES_LABEL_PD : which == T_NS ? HES_LABEL_NS
                                    : label_of(at, &a, &b, which);
                    }
                    direction(r, &a, &b, d);
                }
            } else {
                st = hes__fail(r->sys, HES_ENOORBIT, "the test function does not change "
                               "sign within %.3g of the predicted point", delta);
            }
        }
        point_free(&a);
        point_free(&b);
    }
    free(z);
    return st;
}

hes_status hes_continue_curve(hes_system *sys, const hes_continuation *branch, int at,
                              const char *param2, double to2,
                              const hes_continuation_options *opts, hes_continuation *out,
                              hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (out)
        memset(out, 0, sizeof *out);
    if (!sys || !branch || !param2 || !out)
        return hes__say(msg, len, HES_EINVAL, "hes_continue_curve: NULL argument");
    if (branch_usable(sys, branch, at, "curve", err) != HES_OK)
        return HES_EINVAL;
    hes_label label = branch->points[at].label;
    if ((label != HES_LABEL_SN && label != HES_LABEL_BP && label != HES_LABEL_PD &&
         label != HES_LABEL_NS && label != HES_LABEL_GR) ||
        test_of(sys, &branch->points[at]) < 0)
        return hes__say(msg, len, HES_EINVAL, "curve: point %d is not a bifurcation (SN, BP, "
                        "PD or NS) or a grazing (GR) of the branch", at);
    if (strcmp(param2, branch->param) == 0)
        return hes__say(msg, len, HES_EINVAL, "curve: the second parameter must differ from "
                        "the branch's '%s'", branch->param);
    double q0;
    if (hes_system_get_param(sys, param2, &q0) != HES_OK)
        return hes__say(msg, len, HES_EINVAL, "curve: unknown parameter '%s'", param2);
    int kq = -1;
    for (int i = 0; i < hes_system_n_params(sys); i++)
        if (strcmp(hes_system_param_info(sys, i)->name, param2) == 0)
            kq = i;
    if (hes_system_param_info(sys, kq)->flags & HES_PARAM_SOLVED)
        return hes__say(msg, len, HES_EINVAL, "curve: '%s' is solved by the orbit search",
                        param2);
    /* the run in p (its window the branch's), the options in q's units */
    run r;
    hes_continuation_options o, oq;
    const hes_continuation_point *first = &branch->points[0];
    const hes_continuation_point *last = &branch->points[branch->n_points - 1];
    double span = fabs(last->value - first->value);
    hes_status st = run_init(&r, sys, branch->param, first->value,
                             last->value != first->value ? last->value : first->value + 1,
                             opts, &o, out, err);
    hes_continuation_options zero;
    hes_continuation_options_init(&zero);
    if (st != HES_OK)
        return st;
    if (o.corrector != HES_CORRECT_SHOOTING)
        return no_collocation(&r, "a curve", err);
    if (r.manifold)
        return no_manifold(&r, "a curve", err);
    if ((st = options_of(opts ? opts : &zero, q0, to2, &oq, err)) != HES_OK) {
        free(r.p_saved);
        return st;
    }
    hes_continuation_options ol = o;   /* location to the caller's tolerance in p */
    ol.tol = opts && opts->tol > 0 ? opts->tol : o.tol;
    r.o = &ol;
    snprintf(out->param2, sizeof out->param2, "%s", param2);
    out->returns = branch->returns > 0 ? branch->returns : 1;
    double saved = hes_system_params(sys)[r.k];
    int returns = hes_system_orbit_returns(sys), which = test_of(sys, &branch->points[at]);
    hes_analysis a;
    st = hes_system_set_orbit_returns(sys, out->returns);
    if (st == HES_OK && (st = hes_system_set_param(sys, branch->param,
                                                   branch->points[at].value)) == HES_OK &&
        (st = hes_system_set_orbit_start(sys, branch->points[at].x0)) == HES_OK &&
        (st = hes_analyze(sys, 0, &a)) == HES_OK) {
        st = run_arrays(&r, &a, span > 0 ? span : 1);
        hes_analysis_free(&a);
    }
    int m = r.nu + 1;
    double *mem = st == HES_OK ? malloc(sizeof(double) * (size_t)(3 * m)) : NULL;
    if (st == HES_OK && !mem)
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
    double *d = mem, *zp = mem + m, *zq = mem + 2 * m;
    hes_continuation_point pt = { 0 };
    if (st == HES_OK) {
        /* the branch's direction at the point: its neighbours' secant */
        int lo = at > 0 ? at - 1 : at, hi = at + 1 < branch->n_points ? at + 1 : at;
        if (lo == hi)
            st = hes__fail(sys, HES_EINVAL, "curve: the branch has one point");
        else
            direction(&r, &branch->points[lo], &branch->points[hi], d);
    }
    if (st == HES_OK && (st = point_copy(&r, &branch->points[at], &pt)) == HES_OK) {
        pt.value2 = q0;
        keep(&r, &pt, &st);
    }
    double dir = to2 > q0 ? 1 : -1, h = oq.step, delta = fmax(1e-3 * span, 100 * ol.tol);
    int easy = 0, ended = r.stopped;
    while (st == HES_OK && !ended) {
        const hes_continuation_point *b = &out->points[out->n_points - 1];
        const hes_continuation_point *a2 = out->n_points > 1 ? &out->points[out->n_points - 2]
                                                             : NULL;
        if (b->value2 == to2) {
            out->reached = 1;
            break;
        }
        double q = b->value2 + dir * h;
        if ((to2 - q) * dir < 0)
            q = to2;
        /* the secant predictor in q */
        z_of(&r, b, zp);
        if (a2 && a2->value2 != b->value2) {
            z_of(&r, a2, zq);
            for (int j = 0; j < m; j++)
                zp[j] += (q - b->value2) * (zp[j] - zq[j]) / (b->value2 - a2->value2);
        }
        hes_status got = hes_system_set_param(sys, param2, q);
        hes_continuation_point found = { 0 };
        if (got == HES_OK)
            got = relocate(&r, zp, d, delta, which, b, &found);
        if (got == HES_ENOMEM) {
            st = got;
            break;
        }
        if (got == HES_OK && found.label != label) {
            got = hes__fail(sys, HES_ENOORBIT, "the %s became a %s", hes_label_name(label),
                            hes_label_name(found.label));
            point_free(&found);
        }
        if (got != HES_OK) {
            h /= 2;
            easy = 0;
            if (h < oq.min_step) {
                if (out->n_points == 1) {   /* not located at all */
                    st = got;
                    break;
                }
                snprintf(out->why, sizeof out->why, "the %s was lost past %s = %.10g (%s)",
                         hes_label_name(label), param2, b->value2, hes_system_errmsg(sys));
                break;
            }
            continue;
        }
        found.value2 = q;
        if ((ended = keep(&r, &found, &st)))
            break;
        if (++easy >= 2 && h < oq.max_step) {
            h = fmin(1.5 * h, oq.max_step);
            easy = 0;
        }
    }
    free(mem);
    hes_system_set_param(sys, param2, q0);
    st = finish(&r, st, saved, returns, first->value, out, err);
    /* a curve's points all carry the label: no end points */
    for (int i = 0; st == HES_OK && i < out->n_points; i++)
        out->points[i].label = label;
    return st;
}
