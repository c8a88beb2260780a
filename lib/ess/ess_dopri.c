/*
 * ess_dopri.c - the integration step of the ESS integrator with
 * options.method = HES_ESS_DOPRI5: the explicit Runge-Kutta pair of Dormand
 * and Prince 5(4) with error control (Hairer, Norsett and Wanner, Solving
 * ODEs I, Sec. II.4-5, their DOPRI5: the same tableau, error estimate and
 * 4th-order continuous extension) in place of CVODES.
 *
 * A one-step method restarts for free: after a projection or a sign change
 * the next step starts with the last proposed step size (one evaluation of
 * f for the new first stage), where a multistep method restarts at order 1
 * with a small step.  Root slots are those of ess.c (e->watch): slot i is
 * h_i + eps rising, slot m + i is h_i either way.  A guard not in the pool
 * at its zero at the start (to rounding, or on the other side of its zero
 * than the sign ess.c gave it from its rate) starts on the side of its
 * sign, so that it is seen if it turns back (a leg that touches and leaves
 * at once), and does not cap the step: a value of rounding's size moving
 * toward zero would cap it at twice its size over its rate (1e-17 s where
 * a projection landed on a guard to the last bit).
 *
 * No step may cross a slot and cross back unseen, however long the error
 * control lets it be (steps of tenths of a second in ballistic flight,
 * which DOPRI5 integrates exactly, while the guards, through tan(theta) or
 * any other nonlinearity, are not polynomials):
 *   - each attempted step is at most twice the time at which a slot moving
 *     toward its zero would reach it at its present rate (for a slot with
 *     constant second derivative, the longest step in which it cannot cross
 *     and cross back: its vertex lies beyond);
 *   - each step is sampled at its middle too, and for every slot that keeps
 *     its sign at the three points the cubic Hermite interpolant of its
 *     values and rates (Dh f) at the ends must agree with its middle value
 *     to half the distance of that value (and the end value) from zero;
 *     otherwise the step is rejected and halved (the step is too long for
 *     the slot to be resolved);
 *   - a slot whose quartic model (that cubic, through the middle value)
 *     crosses inside the step is evaluated on the continuous extension
 *     where the model first crosses.
 * The bracket is the first of these samples (predicted crossings, the
 * middle, the end) at which a slot has crossed since the sample before;
 * within it the earliest crossing among those slots is located on the
 * continuous extension
 * (secant steps on the slot whose estimated root comes first, bisection
 * when the secant stalls) to (|t| + |step|) 100 DBL_EPSILON, as CVODES's
 * root tolerance, and the step ends at the bracket's upper end, where the
 * slots of the roots (e->roots: +1 rising, -1 falling) have crossed.
 * Output times within the step come from the continuous extension.  An
 * explicit method: on a stiff field its steps become small (the run's
 * max_wall_time then stops it).
 * With options.jacobian the state is augmented with the n x n sensitivity
 * matrix S = d x / d x(start of the integration step) and its variational
 * equation S' = (df/dx) S (the same stages, the error control and the
 * continuous extension over both), so that ess.c's step_jacobian gets
 * A = S at the step's end (e->A) as from CVODES's sensitivities.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ess/ess.h"
#include "ode/dopri5.h"
#include "ode/root.h"

/* The value of root slot r from the event values h. */
static double slot(const hes_ess *e, const double *h, int r)
{
    return r < e->m ? h[r] + e->eps : h[r - e->m];
}

/* The direction in which watched slot r crosses between the event values a
 * and b (+1 rising, -1 falling), or 0. */
static int crossed(const hes_ess *e, const double *a, const double *b, int r)
{
    double ga = slot(e, a, r), gb = slot(e, b, r);
    if (ga < 0 && gb >= 0)
        return 1;
    if (r >= e->m && ga > 0 && gb <= 0)
        return -1;
    return 0;
}

/* The rates d g / dt of the slots' guards at a state with event Jacobian
 * D (m x n) and field f: rate[i] = Dh_i f. */
static void slot_rates(const hes_ess *e, const double *D, const double *f, double *rate)
{
    int m = e->m;
    for (int q = 0; q < e->n_act; q++) {
        int i = e->act[q];
        double a = 0;
        for (int k = 0; k < e->n; k++)
            a += D[i + (size_t)k * m] * f[k];
        rate[i] = a;
    }
}

/* The step allowed by the watched slots' approach: twice the time at which
 * the slot's linear model reaches zero, for each slot moving toward its
 * zero.  For a slot with constant second derivative this is the longest
 * step in which it cannot cross and cross back (its vertex lies beyond).
 * A slot at its zero to rounding (D: the guards' Jacobian at the state,
 * yinf its largest component) crosses at once and is located by the
 * bracket; it does not cap the step (a candidate a projection left at its
 * band's edge to the last bit would cap it at 1e-17 s). */
static double approach_cap(const hes_ess *e, const double *h0, const double *rate,
                           const double *D, double yinf)
{
    double cap = HUGE_VAL;
    for (int q = 0; q < 2 * e->n_act; q++) {
        int r = e->act[q >> 1] + (q & 1) * e->m;
        if (!e->watch[r])
            continue;
        double g = slot(e, h0, r), d = rate[r % e->m];
        if (fabs(g) <= fmax(DBL_MIN, hes__ess_rounding(e, D, r % e->m, yinf)))
            continue;   /* at its zero: it crosses at once, or goes the way s says */
        if ((g < 0 && d > 0) || (r >= e->m && g > 0 && d < 0))
            cap = fmin(cap, -2 * g / d);
    }
    return cap;
}

/* The quartic model of slot r over a step of size hstep (theta in [0, 1]):
 * the cubic Hermite interpolant of its values g0, g1 and rates d0, d1 at
 * the ends plus c theta^2 (1 - theta)^2 through its value gm at theta = 1/2. */
static double quartic(double th, double g0, double g1, double d0, double d1, double hstep,
                      double c)
{
    double t2 = th * th, t3 = t2 * th;
    return (2 * t3 - 3 * t2 + 1) * g0 + (t3 - 2 * t2 + th) * hstep * d0 +
           (-2 * t3 + 3 * t2) * g1 + (t3 - t2) * hstep * d1 + c * t2 * (1 - th) * (1 - th);
}

/* The slots along one accepted step, from their values at its start (h0),
 * middle (hmid) and end (h1) and their guards' rates at the ends (r0, r1).
 * A slot that keeps its sign at the three points must be resolved by the
 * step: the cubic Hermite interpolant of its ends within half its distance
 * from zero of its middle value; otherwise *unresolved (the step is too
 * long to tell whether it crosses and crosses back).  A resolved slot whose
 * quartic model (the cubic through the middle value) crosses inside gives
 * the first theta at which it does in th[] (at most *nth of them). */
static void scan_slots(const hes_ess *e, const double *h0, const double *hmid,
                       const double *h1, const double *r0, const double *r1, double hstep,
                       int *unresolved, double *th, int *nth)
{
    int m = e->m, cap = *nth;
    *unresolved = 0;
    *nth = 0;
    for (int q = 0; q < 2 * e->n_act; q++) {
        int r = e->act[q >> 1] + (q & 1) * m;
        if (!e->watch[r])
            continue;
        double g0 = slot(e, h0, r), gm = slot(e, hmid, r), g1 = slot(e, h1, r);
        double d0 = r0[r % m], d1 = r1[r % m];
        int neg = g0 < 0 && gm < 0 && g1 < 0, pos = r >= m && g0 > 0 && gm > 0 && g1 > 0;
        if (!neg && !pos)
            continue;   /* crossed at the samples (bracketed), or at zero at the start */
        double hm = quartic(0.5, g0, g1, d0, d1, hstep, 0);
        if (fabs(gm - hm) > 0.5 * fmin(fabs(gm), fabs(g1))) {
            *unresolved = 1;
            return;
        }
        /* |H - the chord| <= max(|hstep d0 - dg|, |hstep d1 - dg|) / 4 (dg =
         * g1 - g0) and |c theta^2 (1 - theta)^2| <= |c| / 16: no crossing
         * when even that bound keeps the model on its side */
        double c = 16 * (gm - hm), dg = g1 - g0;
        double bump = 0.25 * fmax(fabs(hstep * d0 - dg), fabs(hstep * d1 - dg)) + fabs(c) / 16;
        if (neg ? fmax(g0, g1) + bump < 0 : fmin(g0, g1) - bump > 0)
            continue;
        for (int k = 1; k < 32; k++) {
            double q = k / 32.0, p = quartic(q, g0, g1, d0, d1, hstep, c);
            if (neg ? p >= 0 : p <= 0) {
                if (*nth < cap)
                    th[(*nth)++] = q;
                break;
            }
        }
    }
}

/* The right-hand side: f(x, s), and with the sensitivities (aug) the
 * variational equation S' = df/dx S on the n x n matrix after x. */
static hes_status rhs(hes_ess *e, const double *y, double *out, int aug)
{
    hes_status st = hes__ess_f(e, y, e->s, out);
    if (st != HES_OK || !aug)
        return st;
    int n = e->n;
    if ((st = hes__ess_f_dx(e, y, e->s, e->DG)) != HES_OK)
        return st;
    hes__matmul(n, n, n, e->DG, y + n, out + n);
    return HES_OK;
}

/* The largest modulus of the n components of v. */
static double inf_norm(int n, const double *v)
{
    double a = 0;
    for (int k = 0; k < n; k++)
        a = fmax(a, fabs(v[k]));
    return a;
}

/* One integration step's views of the workspaces (e->dp_*): the stages
 * k1 .. k7, the state y at the step's start, y1 at its end, a scratch
 * state yt, the continuous extension's coefficients rc (5 N); the slots'
 * event values at the step's start (h0), end (h1) and middle (hmid), at
 * the bracket's ends (hl, hm) and at a sample (hsam); the guards'
 * Jacobian D, the slots' rates at the ends (r0, r1); the sample times
 * ths (up to 8 predicted crossings, then 1/2 and 1). */
typedef struct {
    hes__dopri5 s;    /* the step (ode/dopri5.c): s.n the integrated dimension */
    hes_ess *e;
    int n0, aug;      /* the state's dimension, with S */
    double *h0, *h1, *hm, *hl, *D, *r0, *r1, *hmid, *hsam, *ths;
} dopri_ws;

/* The field for the step (ode/dopri5.c): data is the dopri_ws. */
static int field(void *data, double t, const double *y, double *out)
{
    (void)t;          /* the ESS field is autonomous */
    const dopri_ws *w = data;
    return rhs(w->e, y, out, w->aug);
}

/* The workspaces for an integrated dimension N, grown on first use:
 * 15 N doubles for the stages, the states and the extension; 5 m event
 * values; 2 m candidates; the guards' Jacobian, 4 m values and 16 sample
 * times. */
static hes_status dopri_workspace(hes_ess *e, size_t N)
{
    int n0 = e->n, m = e->m;
    if (e->dp_cap < 15 * N) {
        double *w = realloc(e->dp_k, 15 * N * sizeof *w);
        if (!w)
            return hes__ess_fail(e, HES_ENOMEM, "out of memory for the DOPRI5 workspace");
        e->dp_k = w;
        e->dp_cap = 15 * N;
    }
    if (!e->dp_h0 && !(e->dp_h0 = malloc(5 * (size_t)m * sizeof *e->dp_h0)))
        return hes__ess_fail(e, HES_ENOMEM, "out of memory for the DOPRI5 workspace");
    e->dp_hm = e->dp_h0 + 4 * (size_t)m;
    if (!e->dp_cand && !(e->dp_cand = malloc(2 * (size_t)m * sizeof *e->dp_cand)))
        return hes__ess_fail(e, HES_ENOMEM, "out of memory for the DOPRI5 workspace");
    if (!e->dp_ev && !(e->dp_ev = malloc(((size_t)m * (size_t)n0 + 4 * (size_t)m + 16) *
                                         sizeof *e->dp_ev)))
        return hes__ess_fail(e, HES_ENOMEM, "out of memory for the DOPRI5 workspace");
    e->dp_y = e->dp_k + 14 * N;
    return HES_OK;
}

/* The views of the workspaces for the integrated dimension n (n0, or
 * n0 (n0 + 1) with the sensitivities). */
static dopri_ws dopri_views(hes_ess *e, const hes_ess_options *o, int n)
{
    int m = e->m;
    size_t N = (size_t)n;
    dopri_ws w;
    w.n0 = e->n;
    w.s.n = n;
    w.aug = o->jacobian != 0;
    w.s.N = N;
    w.s.rtol = o->rtol;
    w.s.atol = o->atol;
    w.s.k1 = e->dp_k, w.s.k2 = w.s.k1 + N, w.s.k3 = w.s.k2 + N, w.s.k4 = w.s.k3 + N;
    w.s.k5 = w.s.k4 + N, w.s.k6 = w.s.k5 + N, w.s.k7 = w.s.k6 + N, w.s.y1 = w.s.k7 + N;
    w.s.yt = w.s.y1 + N, w.s.rc = w.s.yt + N;
    w.s.y = e->dp_y;
    w.s.f = field;    /* w.s.data: the caller's, once w is in place */
    w.s.t = 0;        /* the field is autonomous: the step's time is not used */
    w.e = e;
    w.h0 = e->dp_h0, w.h1 = w.h0 + m, w.hm = w.h1 + m, w.hl = w.hm + m;
    w.D = e->dp_ev, w.r0 = w.D + (size_t)m * w.n0, w.r1 = w.r0 + m, w.hmid = w.r1 + m;
    w.hsam = w.hmid + m, w.ths = w.hsam + m;   /* ths: up to 8 predicted crossings */
    return w;
}

/* The start of an integration step: y = x (with the sensitivities S = I
 * after it), the first stage k1, the slots' event values h0, the guards'
 * Jacobian D and their rates r0; *yinf = |x|_inf.  A guard not in the
 * pool at its zero (to rounding) or on the other side of it than its sign
 * starts on the side its sign s says it is going to. */
static hes_status dopri_start(hes_ess *e, dopri_ws *w, double *yinf)
{
    int n0 = w->n0;
    double *y = w->s.y, *h0 = w->h0;
    hes_status st;
    memcpy(y, e->x, (size_t)n0 * sizeof *y);
    if (w->aug) { /* S = I at the start of the integration step */
        memset(y + n0, 0, (size_t)n0 * (size_t)n0 * sizeof *y);
        for (int k = 0; k < n0; k++)
            y[n0 + k + (size_t)k * n0] = 1;
    }
    if ((st = rhs(e, y, w->s.k1, w->aug)) != HES_OK || (st = hes__ess_h(e, y, h0)) != HES_OK ||
        (st = hes__ess_Dh(e, y, w->D)) != HES_OK)
        return st;
    slot_rates(e, w->D, w->s.k1, w->r0);
    *yinf = inf_norm(n0, y);
    for (int q = 0; q < e->n_act; q++) {   /* at its zero: on the side s says it is going to */
        int i = e->act[q];
        if (!e->pool[i] && (fabs(h0[i]) <= hes__ess_rounding(e, w->D, i, *yinf) ||
                            (h0[i] > 0) != (e->s[i] > 0)))
            h0[i] = e->s[i] > 0 ? DBL_MIN : -DBL_MIN;
    }
    return HES_OK;
}

/* With a sparse active set (ess_active.c): the guards the accepted step of
 * size h may bring to a level made active, the step's box being its ends
 * widened by twice the middle's (yt) distance from their mean; the new
 * ones' rates at the start into r0, and *again when their approach caps
 * the step below h (the step is taken again, capped). */
static hes_status activate_for_step(hes_ess *e, dopri_ws *w, double h, double yinf, int *again)
{
    int n0 = w->n0, m = e->m;
    const double *y = w->s.y, *y1 = w->s.y1, *yt = w->s.yt;
    hes_status st;
    *again = 0;
    for (int k = 0; k < n0; k++) {
        double dev = 2 * fabs(yt[k] - 0.5 * (y[k] + y1[k]));
        e->lo[k] = fmin(y[k], y1[k]) - dev;
        e->hi[k] = fmax(y[k], y1[k]) + dev;
    }
    int first = e->n_act, n_new;
    if ((st = hes__ess_activate(e, e->lo, e->hi, y, w->h0, w->D, &n_new)) != HES_OK)
        return st;
    if (n_new > 0) {   /* their rates at the start, and their approach */
        for (int q = first; q < e->n_act; q++) {
            int i = e->act[q];
            double a = 0;
            for (int k = 0; k < n0; k++)
                a += w->D[i + (size_t)k * m] * w->s.k1[k];
            w->r0[i] = a;
        }
        *again = approach_cap(e, w->h0, w->r0, w->D, yinf) < h;
    }
    return HES_OK;
}

/* The bracket: the first of the samples (the predicted crossings ths[0 ..
 * nth-1], 1/2 and 1, in order) at which a watched slot has crossed since
 * the sample before.  [*tlo, *thi] in units of the step, the slots crossed
 * in it into e->dp_cand (*nc of them; 0: none in the step), their values
 * at its ends in hl and hm. */
static hes_status bracket(hes_ess *e, dopri_ws *w, int nth, double *tlo, double *thi, int *nc)
{
    int m = e->m, *cand = e->dp_cand;
    double *ths = w->ths;
    hes_status st;
    ths[nth++] = 0.5;
    ths[nth++] = 1;
    for (int q = 1; q < nth; q++)
        for (int p = q; p > 0 && ths[p] < ths[p - 1]; p--) {
            double tmp = ths[p];
            ths[p] = ths[p - 1];
            ths[p - 1] = tmp;
        }
    *tlo = 0;
    *thi = 1;
    *nc = 0;
    hes__ess_copy_active(e, w->hl, w->h0);
    for (int q = 0; q < nth && *nc == 0; q++) {
        const double *hq = ths[q] == 1 ? w->h1 : ths[q] == 0.5 ? w->hmid : w->hsam;
        if (hq == w->hsam) {
            hes__dopri5_dense(w->n0, w->s.N, w->s.rc, ths[q], w->s.yt);
            if ((st = hes__ess_h(e, w->s.yt, w->hsam)) != HES_OK)
                return st;
        }
        for (int p = 0; p < 2 * e->n_act; p++) {
            int r = e->act[p >> 1] + (p & 1) * m;
            if (e->watch[r] && crossed(e, w->hl, hq, r))
                cand[(*nc)++] = r;
        }
        hes__ess_copy_active(e, *nc ? w->hm : w->hl, hq);
        if (*nc)
            *thi = ths[q];
        else
            *tlo = ths[q];
    }
    return HES_OK;
}

/* The root locator's view of the slots crossed in a bracket (ode/root.h):
 * their values at the bracket's ends hl and hm, at a sample e->dp_hm. */
typedef struct {
    hes_ess *e;
    dopri_ws *w;
    int nc;
    hes_status st;    /* a sample's failure */
} slot_bracket;

static double slot_chord(void *data)
{
    const slot_bracket *b = data;
    const hes_ess *e = b->e;
    double frac = 1;
    for (int q = 0; q < b->nc; q++) {
        int r = e->dp_cand[q];
        if (!crossed(e, b->w->hl, b->w->hm, r))
            continue;
        double ga = slot(e, b->w->hl, r), gb = slot(e, b->w->hm, r);
        double fr = ga / (ga - gb);
        if (fr < frac)
            frac = fr;
    }
    return frac;
}

static int slot_sample(void *data, double th)
{
    slot_bracket *b = data;
    hes_ess *e = b->e;
    dopri_ws *w = b->w;
    hes__dopri5_dense(w->n0, w->s.N, w->s.rc, th, w->s.yt);
    if ((b->st = hes__ess_h(e, w->s.yt, e->dp_hm)) != HES_OK)
        return -1;
    int c = 0;
    for (int q = 0; q < b->nc && !c; q++)
        c = crossed(e, w->hl, e->dp_hm, e->dp_cand[q]) != 0;   /* either direction */
    return c;
}

static void slot_keep(void *data, int high)
{
    slot_bracket *b = data;
    hes__ess_copy_active(b->e, high ? b->w->hm : b->w->hl, b->e->dp_hm);
}

/* The earliest crossing in the bracket [tlo, *thi] of the step of size h
 * from tt, on the continuous extension (ode/root.c), to
 * (|tt| + |h|) 100 DBL_EPSILON.  Then the directions of the slots crossed
 * (e->roots), the first of them (*ended), and the step's end *tstop, y1
 * moved there on the extension when it is inside the step. */
static hes_status locate_root(hes_ess *e, dopri_ws *w, double tt, double h, double tlo,
                              double *thi, int nc, int *ended, double *tstop)
{
    static const hes__root_bracket slots = { slot_chord, slot_sample, slot_keep };
    int m = e->m, *cand = e->dp_cand;
    double *hl = w->hl, *hm = w->hm, hi = *thi;
    double tol = 100 * DBL_EPSILON * (fabs(tt) + fabs(h)) / h;
    slot_bracket b = { e, w, nc, HES_OK };
    if (hes__root_narrow(&slots, &b, tlo, &hi, tol) != 0)
        return b.st;
    for (int q = 0; q < e->n_act; q++)
        e->roots[e->act[q]] = e->roots[m + e->act[q]] = 0;
    for (int q = 0; q < nc; q++)
        e->roots[cand[q]] = crossed(e, hl, hm, cand[q]);
    for (int q = 0; q < nc; q++)   /* the first slot crossed */
        if (e->roots[cand[q]] && (*ended < 0 || cand[q] < *ended))
            *ended = cand[q];
    *tstop = hi >= 1 ? tt + h : tt + hi * h;
    if (hi < 1)
        hes__dopri5_dense(w->s.n, w->s.N, w->s.rc, hi, w->s.y1);
    *thi = hi;
    return HES_OK;
}

/* The piece of the accepted step of size h from tt taken, up to tstop
 * (theta = frac of the step): the energy over it (its middle on the
 * extension), the output times within it from the extension, and y,
 * e->x and e->A = S at its end. */
static hes_status take_step(hes_ess *e, const hes_ess_options *o, dopri_ws *w, double tt,
                            double h, double tstop, double frac, double t_end,
                            hes_ess_result *res, int *k_out)
{
    int n0 = w->n0;
    hes_status st;
    if (e->en_on) {   /* the piece of the step taken, its middle on the extension */
        hes__dopri5_dense(n0, w->s.N, w->s.rc, 0.5 * frac, e->en_y);
        if ((st = hes__ess_energy_step(e, w->s.y, e->en_y, w->s.y1, tstop - tt)) != HES_OK)
            return st;
    }
    for (; *k_out < o->n_out && o->t_out[*k_out] < t_end && o->t_out[*k_out] <= tstop;
         ++*k_out)
        hes__dopri5_dense(n0, w->s.N, w->s.rc, (o->t_out[*k_out] - tt) / h, res->x_out + (size_t)(*k_out) * n0);
    memcpy(w->s.y, w->s.y1, w->s.N * sizeof *w->s.y);
    memcpy(e->x, w->s.y, (size_t)n0 * sizeof *w->s.y);
    if (w->aug)
        memcpy(e->A, w->s.y + n0, (size_t)n0 * (size_t)n0 * sizeof *w->s.y);
    return HES_OK;
}

hes_status hes__ess_dopri(hes_ess *e, const hes_ess_options *o, double *t, double t_end,
                          hes_ess_result *res, int *k_out, int *ended)
{
    int n0 = e->n, aug = o->jacobian != 0;
    int n = aug ? n0 * (n0 + 1) : n0;   /* the integrated dimension */
    double yinf;
    hes_status st;
    if ((st = dopri_workspace(e, (size_t)n)) != HES_OK)
        return st;
    dopri_ws w = dopri_views(e, o, n);
    w.s.data = &w;
    *ended = -1;
    if ((st = dopri_start(e, &w, &yinf)) != HES_OK)
        return st;
    double hs = e->dp_step;
    if (!(hs > 0)) { /* Hairer's first guess: 0.01 |y| / |f| */
        double d0 = hes__dopri5_norm(w.s.n, w.s.y, w.s.y, NULL, w.s.rtol, w.s.atol),
               d1 = hes__dopri5_norm(w.s.n, w.s.k1, w.s.y, NULL, w.s.rtol, w.s.atol);
        hs = d0 < 1e-5 || d1 < 1e-5 ? 1e-6 : 0.01 * d0 / d1;
        hs = fmin(hs, t_end - *t);
    }
    int rejected = 0;
    for (long step = 0;; step++) {
        if ((step & 1023) == 1023 && hes__monotonic_seconds() > e->deadline)
            return hes__ess_fail(e, HES_ESOLVER, "the ESS integrator exceeded its wall-time "
                                 "budget of %g s at t = %.10g (DOPRI5, %ld steps in this "
                                 "integration step: a stiff field?)", o->max_wall_time, *t,
                                 step);
        double tt = *t, h = fmin(hs, approach_cap(e, w.h0, w.r0, w.D, yinf)), hprop = hs;
        double rest = t_end - tt, err;
        int last = 0, again;
        if (h >= rest * (1 - 1e-12)) {
            h = rest;
            last = 1;
        }
        if (!(h > 16 * DBL_EPSILON * fmax(1, fabs(tt))))
            return hes__ess_fail(e, HES_ESOLVER, "DOPRI5: the step size %.3g at t = %.10g is "
                                 "too small for the tolerances", h, tt);
        if ((st = (hes_status)hes__dopri5_step(&w.s, h, &err)) != HES_OK)
            return st;
        double fac = err > 0 ? 0.9 * pow(err, -0.2) : 10;
        fac = fmin(10, fmax(0.2, fac));
        if (!(err <= 1)) { /* rejected */
            hs = h * fmin(1, fac);
            rejected = 1;
            continue;
        }
        hs = rejected ? fmin(h, h * fac) : h * fac;
        if (last)
            hs = fmax(hs, hprop);  /* a step cut at t_end does not shrink the next */
        rejected = 0;
        hes__dopri5_extension(&w.s, h);
        hes__dopri5_dense(w.n0, w.s.N, w.s.rc, 0.5, w.s.yt);
        if (e->sparse) { /* guards the step may bring to a level (ess_active.c) */
            if ((st = activate_for_step(e, &w, h, yinf, &again)) != HES_OK)
                return st;
            if (again) {
                hs = h;    /* the step again, capped */
                rejected = 1;
                continue;
            }
        }
        if ((st = hes__ess_h(e, w.s.y1, w.h1)) != HES_OK ||
            (st = hes__ess_Dh(e, w.s.y1, w.D)) != HES_OK)
            return st;
        slot_rates(e, w.D, w.s.k7, w.r1);
        if ((st = hes__ess_h(e, w.s.yt, w.hmid)) != HES_OK)
            return st;
        int unresolved, nth = 8, nc;
        scan_slots(e, w.h0, w.hmid, w.h1, w.r0, w.r1, h, &unresolved, w.ths, &nth);
        if (unresolved) {   /* too long a step to see every crossing */
            hs = 0.5 * h;
            rejected = 1;
            continue;
        }
        double tlo, thi, tstop = tt + h;
        if ((st = bracket(e, &w, nth, &tlo, &thi, &nc)) != HES_OK)
            return st;
        if (nc > 0 && (st = locate_root(e, &w, tt, h, tlo, &thi, nc, ended, &tstop)) != HES_OK)
            return st;
        if ((st = take_step(e, o, &w, tt, h, tstop, nc > 0 && thi < 1 ? thi : 1.0, t_end, res,
                            k_out)) != HES_OK)
            return st;
        e->dp_step = hs;
        if (*ended >= 0) {
            *t = tstop;
            return HES_OK;
        }
        *t = last ? t_end : tt + h;
        if (last)
            return HES_OK;
        memcpy(w.s.k1, w.s.k7, w.s.N * sizeof *w.s.k1);  /* first same as last */
        hes__ess_copy_active(e, w.h0, w.h1);
        hes__ess_copy_active(e, w.r0, w.r1);
        yinf = inf_norm(w.n0, w.s.y);
    }
}
