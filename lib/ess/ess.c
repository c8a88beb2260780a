/*
 * ess.c - the event-selected-system (ESS) integrator's run: the loop of
 * integration and projection steps with the Jacobian of the discrete flow
 * (the event-selected integrator paper, Sec. 2.2 and 3.1; the object and
 * its CVODES callbacks are ess_object.c, the projection step is
 * ess_project.c).
 *
 * Integration step.  CVODES (Adams: the fields between events are smooth
 * and non-stiff, and variable order up to 12 takes few right-hand sides at
 * tight tolerances; ode/cvodes.c also gives error-controlled forward
 * sensitivities and directional root finding) integrates f(x, s) with s
 * fixed.  Root slots, 2m of them (inactive ones are the constant 1):
 *   slot i      h_i + eps, rising: band entry of candidate i (a projection
 *               follows), or, with the pool empty, of a guard with s_i = -1
 *               (the guard reset rule refills the pool: by default, the
 *               paper's, every guard with h_i < 0 is a candidate again);
 *   slot m + i  h_i, either way, for guards not in the pool: a sign change
 *               outside a projection (the hopper's h_2 = -h_1 at touchdown);
 *               s_i follows the direction of the crossing.
 * Signs.  Before every step, projection or integration, s_i = sign(h_i)
 * (h_i >= 0: +1) for guards not in the pool, and -1 for candidates; a guard
 * at its zero takes the sign of its rate Dh_i f(x, s) with s_i = +1, the
 * side the flow is going to.  At its zero means to rounding
 * (|h_i| <= 1e3 DBL_EPSILON (1 + |Dh_i|_1 |x|_inf)) or, after projections,
 * within twice the largest |h_j| at which a projection of the chain landed
 * (the projection is exact to first order only; at most eps / 2): so the
 * guard just projected across keeps +1, and a guard with the same surface
 * (a leg's liftoff guard h_{N+i} = -h_i) takes its new sign at once, also
 * between the projections of a chain (a leg touched down pushes during the
 * rest of the chain).
 *
 * Self-check.  After every step and at the end of the run the sign pattern
 * must be that of h up to the band: s_i = sign(h_i), or |h_i| <= eps.
 * Otherwise a crossing was not seen and the run stops with HES_ESOLVER
 * (never a wrong trajectory with status OK).
 *
 Watched candidates (late[i]).  A candidate in its band is left out of
 * the projection and watched when
 *   - the projection's second-order test refuses it (ess_project.c: the
 *     approach is so slow against its change that the constant field G
 *     would carry the state far, or across a guard the flow turns away
 *     from, as a plate's leg met at a very flat angle), or
 *   - with options.near_miss (the default), it is not live: the field
 *     does not cross it, Dh_i f <= live_tol |Dh_i| |f|.
 * The paper's requirement 4 (liveness: Dh_i f > 0 on the whole band) fails
 * on its own examples: the liftoff guard of a leg, h_{N+i} = -pen_i, lies
 * in its band during the first eps of every compression, while the leg
 * still compresses (Dh f = -pen' < 0), and the reset rule makes it a
 * candidate whenever the pool is refilled then; a plate rocking on its
 * legs also comes within eps of legs it turns away from.  Neither is a
 * crossing to project: watching such a guard locates its crossing, if the
 * flow does come to it, exactly (a sign change), and drops it from the
 * watch when it leaves its band downward, so the run is as accurate as
 * with a live band (more: no projection error on that guard).  With
 * near_miss = 0 (strict) both are refused instead, HES_EGRAZING naming the
 * guard: "liveness violated" for one found not live in its band, "near
 * miss" for a watched guard that leaves its band downward without
 * crossing; a check that a model satisfies requirement 4 on the states it
 * visits.
 * While it stays in its band its band slot is off and its sign-change slot
 * on, so that if it does reach h_i = 0 the step stops there exactly and the
 * crossing is a sign change (s_i = +1, out of the pool): an exact, event-
 * driven crossing; once a step ends with h_i < -eps it is an ordinary
 * candidate again.
 *
 * Jacobian of the discrete flow.  Along with (t, x) the loop carries
 * J = dx/dx0 and the row w = dt/dx0 (the current time depends on x0 once an
 * event has ended a step).  Over an integration step from (t, x) with
 * sensitivities A = d phi / dx (CVODES, from the identity; the sensitivity
 * right-hand side is (df/dx) S):
 *   ended by the root g(y) = 0 of a slot (g = h_i + eps or h_i, F = f(y, s)):
 *     dtau = w - Dg A J / (Dg F),   J <- (I - F Dg / (Dg F)) A J,   w <- dtau;
 *   ended at the fixed t_end:  J <- A J - f(x_end, s) w,   w <- 0.
 * A field that jumps at a sign change needs no term of its own: the next
 * step's end formula brings in the new field, and the composition is the
 * saltation matrix I + (F+ - F-) Dg / (Dg F-) (Aizerman and Gantmacher).
 * At a band entry the field is the same on both sides (s does not change),
 * so that saltation term is zero; the entry time still matters because the
 * projection that follows starts there, which w carries.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ess/ess.h"

static hes_status add_sample(hes_ess *e, hes_ess_result *r, int *cap, double t, const double *x)
{
    int n = e->n;
    if (r->n_samples == *cap) {
        int nc = *cap ? 2 * *cap : 64;
        double *tt = realloc(r->t, (size_t)nc * sizeof *tt);
        if (!tt)
            return hes__ess_fail(e, HES_ENOMEM, "out of memory recording the trajectory");
        r->t = tt;
        double *xx = realloc(r->x, (size_t)nc * (size_t)n * sizeof *xx);
        if (!xx)
            return hes__ess_fail(e, HES_ENOMEM, "out of memory recording the trajectory");
        r->x = xx;
        *cap = nc;
    }
    r->t[r->n_samples] = t;
    memcpy(r->x + (size_t)r->n_samples * n, x, (size_t)n * sizeof *x);
    r->n_samples++;
    return HES_OK;
}

static hes_status check_args(hes_ess *e, const hes_ess_options *o, double t0, const double *x0,
                             double t_end, hes_ess_result *res)
{
    if (!res)
        return hes__ess_fail(e, HES_EINVAL, "hes_ess_run: res is NULL");
    if (!x0)
        return hes__ess_fail(e, HES_EINVAL, "hes_ess_run: x0 is NULL");
    if (!hes__all_finite(x0, e->n))
        return hes__ess_fail(e, HES_EINVAL, "hes_ess_run: x0 is not finite");
    if (!isfinite(t0) || !isfinite(t_end) || !(t_end > t0))
        return hes__ess_fail(e, HES_EINVAL, "hes_ess_run: t_end = %g must be finite and "
                             "after t0 = %g", t_end, t0);
    if (!(o->eps > 0) || !isfinite(o->eps))
        return hes__ess_fail(e, HES_EINVAL, "hes_ess_run: eps = %g must be finite and > 0",
                             o->eps);
    if (!(o->rtol > 0) || !(o->atol > 0) || !(o->rtol < 1))
        return hes__ess_fail(e, HES_EINVAL, "hes_ess_run: rtol = %g and atol = %g must be > 0 "
                             "(rtol < 1)", o->rtol, o->atol);
    if (!(o->live_tol >= 0) || !(o->max_loops > 0) || !(o->max_wall_time > 0))
        return hes__ess_fail(e, HES_EINVAL, "hes_ess_run: live_tol = %g must be >= 0, "
                             "max_loops = %ld and max_wall_time = %g > 0", o->live_tol,
                             o->max_loops, o->max_wall_time);
    if (o->method != HES_ESS_CVODES && o->method != HES_ESS_DOPRI5)
        return hes__ess_fail(e, HES_EINVAL, "hes_ess_run: method = %d is not HES_ESS_CVODES "
                             "or HES_ESS_DOPRI5", (int)o->method);
    if (o->n_out < 0 || (o->n_out > 0 && !o->t_out))
        return hes__ess_fail(e, HES_EINVAL, "hes_ess_run: n_out = %d with t_out %s", o->n_out,
                             o->t_out ? "given" : "NULL");
    for (int k = 0; k < o->n_out; k++)
        if (!(o->t_out[k] >= t0 && o->t_out[k] <= t_end) ||
            (k > 0 && !(o->t_out[k] >= o->t_out[k - 1])))
            return hes__ess_fail(e, HES_EINVAL, "hes_ess_run: t_out[%d] = %g is not within "
                                 "[t0, t_end] = [%g, %g] or not in increasing order", k,
                                 o->t_out[k], t0, t_end);
    return HES_OK;
}

/* A guard i at its zero whose rate a = Dh_i f(x, s) vanishes there (to
 * rounding): the flow is tangent to its surface, as for a hopper let go at
 * rest with its leg just touching the ground (y = l0, v = 0: h = l0 - y and
 * its rate -v are both 0).  The side the flow goes to is then the sign of
 * the rate's own rate, d/dt (Dh_i f) = Dh_i Df f + f^T D^2h_i f, taken as
 * the rate a little along the flow, at x + delta f with delta = sqrt(eps)
 * (1 + |x|_inf) / |f|: there a = delta d/dt (Dh_i f) + O(delta^2).  Both
 * zero (a state at rest on the surface) leaves a as it is.  e->Fp holds f
 * at x with s_i = +1; e->Dh is left at x. */
static hes_status rate_ahead(hes_ess *e, int i, double xinf, double fnorm, double *a)
{
    int n = e->n, m = e->m;
    double delta = sqrt(DBL_EPSILON) * (1 + xinf) / fnorm;
    hes_status st;
    for (int k = 0; k < n; k++)
        e->row[k] = e->x[k] + delta * e->Fp[k];
    if ((st = hes__ess_Dh_at(e, e->row)) != HES_OK ||
        (st = hes__ess_f(e, e->row, e->s, e->tmpn)) != HES_OK)
        return st;
    double ahead = 0;
    for (int k = 0; k < n; k++)
        ahead += e->Dh[i + (size_t)k * m] * e->tmpn[k];
    if (ahead != 0)
        *a = ahead;
    return hes__ess_Dh_at(e, e->x);
}

/* The sign pattern at the current state (e->h = h(x)), before every
 * projection and integration step: candidates -1; every other guard the
 * sign of h_i, or, at its zero (hes__ess_at_zero: to rounding, or to the
 * accuracy a projection of this chain landed on a guard), the sign of its
 * rate Dh_i f(x, s) with s_i = +1, the side the flow is going to (where
 * that rate vanishes too, its own rate: rate_ahead).  So the
 * guard just projected across is +1 although the projection, exact only
 * to first order, may land it a little short of its zero, and a guard with
 * the same surface (a leg's liftoff guard h_{N+i} = -h_i) takes its sign
 * at once, also within a chain of projections. */
static hes_status resolve_signs(hes_ess *e)
{
    int n = e->n, m = e->m, need = 0;
    double xinf = 0;
    hes_status st;
    for (int k = 0; k < n; k++)
        xinf = fmax(xinf, fabs(e->x[k]));
    for (int q = 0; q < e->n_act; q++) {   /* an inactive guard keeps its sign */
        int i = e->act[q];
        if ((st = hes__ess_set_sign(e, i, e->pool[i] || e->h[i] < 0 ? -1 : 1)) != HES_OK)
            return st;
        if (!e->pool[i] && fabs(e->h[i]) < e->eps)
            need = 1;
    }
    if (!need)
        return HES_OK;
    if ((st = hes__ess_Dh_at(e, e->x)) != HES_OK)
        return st;
    for (int q = 0; q < e->n_act; q++) {
        int i = e->act[q];
        if (e->pool[i] || !hes__ess_at_zero(e, i, xinf))
            continue;
        if ((st = hes__ess_set_sign(e, i, 1)) != HES_OK ||
            (st = hes__ess_f(e, e->x, e->s, e->Fp)) != HES_OK)
            return st;
        double a = 0, dn = 0, fn = 0;
        for (int k = 0; k < n; k++) {
            a += e->Dh[i + (size_t)k * m] * e->Fp[k];
            dn += e->Dh[i + (size_t)k * m] * e->Dh[i + (size_t)k * m];
            fn += e->Fp[k] * e->Fp[k];
        }
        if (!(fabs(a) > 1e3 * DBL_EPSILON * sqrt(dn * fn)) && fn > 0 &&
            (st = rate_ahead(e, i, xinf, sqrt(fn), &a)) != HES_OK)
            return st;
        if ((st = hes__ess_set_sign(e, i, a > 0 ? 1 : -1)) != HES_OK)
            return st;
    }
    return HES_OK;
}

/* J <- (I - F Dg / (Dg F)) A J and w <- w - Dg A J / (Dg F) at the root of
 * slot r (Dg = Dh_i), or J <- A J - F w, w <- 0 at the fixed end time
 * (r < 0).  F = f(x, s) at the step's end. */
static hes_status step_jacobian(hes_ess *e, int r, double t, int dopri)
{
    int n = e->n, m = e->m;
    hes_status st;
    if (!dopri && hes__ode_get_sens(&e->ode, e->A) != 0)   /* DOPRI5 has set A */
        return hes__ess_fail(e, HES_ESOLVER, "CVODES could not return the sensitivities: %s",
                             e->cvode_msg);
    if ((st = hes__ess_f(e, e->x, e->s, e->Fp)) != HES_OK)
        return st;
    hes__matmul(n, n, n, e->A, e->J, e->Jtmp);           /* A J */
    if (r < 0) {
        for (int k = 0; k < n; k++)
            for (int i = 0; i < n; i++)
                e->J[i + (size_t)k * n] = e->Jtmp[i + (size_t)k * n] - e->Fp[i] * e->w[k];
        memset(e->w, 0, (size_t)n * sizeof *e->w);
        return HES_OK;
    }
    int i = r % m;
    if ((st = hes__ess_Dh_at(e, e->x)) != HES_OK)
        return st;
    double a = 0, dn = 0, fn = 0;
    for (int k = 0; k < n; k++) {
        a += e->Dh[i + (size_t)k * m] * e->Fp[k];
        dn += e->Dh[i + (size_t)k * m] * e->Dh[i + (size_t)k * m];
        fn += e->Fp[k] * e->Fp[k];
    }
    if (!(fabs(a) > 1e-12 * sqrt(dn * fn))) {
        char buf[32];
        return hes__ess_fail(e, HES_EGRAZING, "the flow reaches %s of guard '%s' (event %d) "
                             "tangentially at t = %.10g (Dh f = %.3g): its time is not a "
                             "differentiable function of x0", r < m ? "the band" : "the zero",
                             hes__ess_event_name(e, i, buf, sizeof buf), i, t, a);
    }
    for (int k = 0; k < n; k++) {
        double dgaj = 0;                                /* (Dg A J)_k / (Dg F) */
        for (int l = 0; l < n; l++)
            dgaj += e->Dh[i + (size_t)l * m] * e->Jtmp[l + (size_t)k * n];
        dgaj /= a;
        e->w[k] -= dgaj;
        for (int l = 0; l < n; l++)
            e->J[l + (size_t)k * n] = e->Jtmp[l + (size_t)k * n] - e->Fp[l] * dgaj;
    }
    return HES_OK;
}

/* One integration step from (t, x): to the first root or t_end.  *ended:
 * the root slot, or -1 at t_end. */
static hes_status integrate(hes_ess *e, const hes_ess_options *o, double *t, double t_end,
                            hes_ess_result *res, int *k_out, int *ended)
{
    int n = e->n, m = e->m, empty = e->n_pool == 0;
    for (int q = 0; q < e->n_act; q++) {   /* inactive guards are not watched */
        int i = e->act[q];
        hes__ess_set_watch(e, i, empty);
        e->hit[i] = 0;
    }
    if (o->method == HES_ESS_DOPRI5)
        return hes__ess_dopri(e, o, t, t_end, res, k_out, ended);
    e->cb_status = HES_OK;
    e->cvode_msg[0] = '\0';
    int rc = hes__ode_start(&e->ode, *t, e->x, o->rtol, o->atol, o->jacobian, NULL, e->tmpn);
    if (rc != 0)
        return hes__ess_fail(e, e->cb_status != HES_OK ? e->cb_status : HES_ESOLVER,
                             "CVODES could not start at t = %.10g: %s", *t, e->cvode_msg);
    *ended = -1;
    for (;;) {
        double tout = t_end;
        int is_out = *k_out < o->n_out && o->t_out[*k_out] < t_end;
        if (is_out)
            tout = o->t_out[*k_out];
        sunrealtype tret;
        int flag = CVode(e->ode.cvode, tout, e->ode.y, &tret, CV_NORMAL);
        if (flag < 0) {
            if (e->cb_status != HES_OK)
                return e->cb_status;
            return hes__ess_fail(e, HES_ESOLVER, "CVODES failed at t = %.10g (flag %d): %s",
                                 (double)tret, flag, e->cvode_msg);
        }
        *t = tret;
        memcpy(e->x, NV_DATA_S(e->ode.y), (size_t)n * sizeof(double));
        if (flag == CV_ROOT_RETURN) {
            if (CVodeGetRootInfo(e->ode.cvode, e->roots) != CV_SUCCESS)
                return hes__ess_fail(e, HES_ESOLVER, "CVODES gave no root information");
            for (int r = 0; r < 2 * m && *ended < 0; r++)
                if (e->roots[r] != 0)
                    *ended = r;
            break;
        }
        if (is_out && tret >= tout) {
            memcpy(res->x_out + (size_t)(*k_out) * n, e->x, (size_t)n * sizeof(double));
            ++*k_out;
            continue;
        }
        break; /* t_end */
    }
    return HES_OK;
}

/* The guard reset rule after a band entry with the pool empty (every
 * guard evaluated at x; the active set made anew after it). */
static hes_status rearm(hes_ess *e, int trigger)
{
    hes_status st;
    if (e->sparse && (st = hes__ess_h_all(e, e->x, e->h)) != HES_OK)
        return st;
    if (e->model->rearm)
        e->model->rearm(e->x, e->h, e->s, e->pool, e->model->data);
    else
        for (int i = 0; i < e->m; i++)
            e->pool[i] = e->h[i] < 0;
    e->n_pool = 0;
    for (int i = 0; i < e->m; i++) {
        e->pool[i] = e->pool[i] != 0;
        e->n_pool += e->pool[i];
        e->late[i] = 0;
        e->hit[i] = 0;
    }
    if (trigger >= 0 && e->pool[trigger])
        e->hit[trigger] = 1;  /* at -eps to the root's accuracy: in the band */
    return e->sparse ? hes__ess_start_active(e) : HES_OK;
}

/* Strict (options.near_miss = 0): a watched guard (e->h current) found
 * below its band was a near miss: HES_EGRAZING. */
static hes_status near_misses(hes_ess *e, double t)
{
    if (e->near_miss)
        return HES_OK;
    for (int q = 0; q < e->n_act; q++) {   /* watched guards are active */
        int i = e->act[q];
        if (!e->late[i] || !(e->h[i] < -e->eps))
            continue;
        char buf[32];
        return hes__ess_fail(e, HES_EGRAZING, "near miss by t = %.10g: guard '%s' (event %d) "
                             "came into its band (h >= -eps = %.6g), too slowly to be "
                             "projected across, and turned away without crossing (now h = "
                             "%.6g): the ESS requirement Dh_i f > 0 on the band fails "
                             "(refused under strict liveness, options.near_miss = 0; by default such a "
                             "guard is watched)", t,
                             hes__ess_event_name(e, i, buf, sizeof buf), i, -e->eps, e->h[i]);
    }
    return HES_OK;
}

/* The self-check after every step and at the end of the run (e->h =
 * h(x)): the sign pattern is that of the event functions.  A candidate
 * (s_i = -1) is below its zero, and every other guard has s_i = sign(h_i),
 * each up to the band eps (a projection lands on its guard to O(eps^2); a
 * candidate may be carried up to its band past its zero by a projection
 * across a guard with the same surface, and is projected back).  Anything
 * else means a crossing was not seen (or a projection carried a guard
 * across its zero): the trajectory is wrong, and the run stops.  all:
 * every guard (e->h holds them all), else the active ones. */
static hes_status check_signs(hes_ess *e, double t, int all)
{
    for (int q = 0; q < (all ? e->m : e->n_act); q++) {
        int i = all ? q : e->act[q];
        double h = e->h[i];
        int want = h >= 0 ? 1 : -1;
        if (e->s[i] == want || fabs(h) <= e->eps)
            continue;
        char buf[32];
        return hes__ess_fail(e, HES_ESOLVER, "internal: at t = %.10g guard '%s' (event %d) "
                             "has h = %.6g but the sign pattern says %+d (%s): the integrator "
                             "did not see it cross, and the trajectory is not to be trusted",
                             t, hes__ess_event_name(e, i, buf, sizeof buf), i, h, e->s[i],
                             e->pool[i] ? "a candidate past its zero by more than the band"
                                        : "beyond the band eps");
    }
    return HES_OK;
}

/* The guards at the top of a step: the active ones at x, checked, and
 * those far from their levels dropped (ess_active.c). */
static hes_status guards_at_step(hes_ess *e, double t)
{
    hes_status st;
    if ((st = hes__ess_h(e, e->x, e->h)) != HES_OK || (st = check_signs(e, t, 0)) != HES_OK)
        return st;
    hes__ess_shrink(e);
    return HES_OK;
}

static hes_status run(hes_ess *e, const hes_ess_options *o, double t0, const double *x0,
                      double t_end, hes_ess_result *res)
{
    int n = e->n, m = e->m, cap = 0, k_out = 0, landed = -1;
    hes_status st;
    double t = t0, deadline = hes__monotonic_seconds() + o->max_wall_time;
    e->deadline = deadline;
    memcpy(e->x, x0, (size_t)n * sizeof *x0);
    memset(e->J, 0, (size_t)n * (size_t)n * sizeof *e->J);
    for (int k = 0; k < n; k++)
        e->J[k + (size_t)k * n] = 1;
    memset(e->w, 0, (size_t)n * sizeof *e->w);
    if ((st = hes__ess_h_all(e, e->x, e->h)) != HES_OK)
        return st;
    e->n_pool = 0;
    for (int i = 0; i < m; i++) {
        e->pool[i] = e->h[i] < 0;
        e->n_pool += e->pool[i];
        e->s[i] = e->h[i] >= 0 ? 1 : -1;
        e->hit[i] = 0;
        e->late[i] = 0;
        e->watch[i] = e->watch[m + i] = 0;
    }
    if ((st = hes__ess_sums_init(e)) != HES_OK)
        return st;
    hes__ess_all_active(e);
    if (hes__ess_sparse(e, o) && (st = hes__ess_start_active(e)) != HES_OK)
        return st;
    e->en_on = hes__ess_energy_on(e, o);
    if (e->en_on && (st = hes__ess_energy_start(e, e->x)) != HES_OK)
        return st;
    if (o->record && (st = add_sample(e, res, &cap, t, e->x)) != HES_OK)
        return st;
    while (k_out < o->n_out && o->t_out[k_out] <= t0)
        memcpy(res->x_out + (size_t)(k_out++) * n, x0, (size_t)n * sizeof *x0);
    for (long loop = 0; t < t_end; loop++) {
        if (loop >= o->max_loops)
            return hes__ess_fail(e, HES_ESOLVER, "the ESS integrator took %ld steps "
                                 "(max_loops) and reached t = %.10g of t_end = %.10g", loop, t,
                                 t_end);
        if ((loop & 63) == 0 && hes__monotonic_seconds() > deadline)
            return hes__ess_fail(e, HES_ESOLVER, "the ESS integrator exceeded its wall-time "
                                 "budget of %g s at t = %.10g", o->max_wall_time, t);
        if ((st = guards_at_step(e, t)) != HES_OK || (st = near_misses(e, t)) != HES_OK ||
            (e->en_on && (st = hes__ess_energy_check(e, e->x, t, o->rtol)) != HES_OK))
            return st;
        if (landed >= 0)   /* how close the last projection came to its guard */
            e->zero_tol = fmin(fmax(e->zero_tol, 2 * fabs(e->h[landed])), 0.5 * e->eps);
        landed = -1;
        int any = 0;
        for (int q = 0; q < e->n_act; q++) {
            int i = e->act[q];
            if (e->late[i] && (e->h[i] < -o->eps || e->h[i] >= 0))
                e->late[i] = 0;    /* a watched guard that has left its band, or that a
                                      projection across another guard carried past its
                                      zero: a candidate again (projected back onto it) */
            e->hit[i] = e->pool[i] && !e->late[i] && (e->h[i] >= -o->eps || e->hit[i]);
            any |= e->hit[i];
        }
        if ((st = resolve_signs(e)) != HES_OK)
            return st;
        if (any) { /* projection step */
            double tp = t, dt;
            int j;
            memcpy(e->xs, e->x, (size_t)n * sizeof *e->xs);  /* x before, for outputs */
            if ((st = hes__ess_project(e, &t, e->x, e->s, e->hit, o->live_tol, t_end,
                                       o->jacobian ? e->J : NULL, e->w, &j, &dt)) != HES_OK)
                return st;
            for (; k_out < o->n_out && o->t_out[k_out] <= t; k_out++)
                for (int k = 0; k < n; k++)   /* along the constant field G */
                    res->x_out[k + (size_t)k_out * n] = e->xs[k] + e->G[k] * (o->t_out[k_out] - tp);
            if (j >= 0)
                landed = j % m;
            if (j >= m)            /* a sign change met along G */
                res->n_sign_changes++;
            else if (j >= 0) {
                e->n_pool -= e->pool[j];
                e->pool[j] = 0;
                e->hit[j] = 0;
                e->late[j] = 0;
                res->n_projections++;
            }
            if (j == -2) {         /* only watched guards in the band */
                for (int q = 0; q < e->n_act; q++)
                    e->hit[e->act[q]] = 0;
                any = 0;
            }
        }
        if (!any) {  /* integration step */
            int ended;
            if ((st = integrate(e, o, &t, t_end, res, &k_out, &ended)) != HES_OK)
                return st;
            res->n_integrations++;
            e->zero_tol = 0;    /* crossings located to rounding from here */
            if (o->jacobian && (st = step_jacobian(e, ended, t, o->method == HES_ESS_DOPRI5)) != HES_OK)
                return st;
            if (ended >= 0) {
                int empty = e->n_pool == 0, trigger = -1;
                if ((st = hes__ess_h(e, e->x, e->h)) != HES_OK)
                    return st;
                for (int q = 0; q < e->n_act; q++) {
                    int i = e->act[q];
                    if (e->roots[m + i]) {   /* sign change: s follows the crossing */
                        if ((st = hes__ess_set_sign(e, i, e->roots[m + i] > 0 ? 1 : -1)) !=
                            HES_OK)
                            return st;
                        res->n_sign_changes++;
                        if (e->late[i] && e->roots[m + i] > 0) { /* a watched guard crossed */
                            e->n_pool -= e->pool[i];
                            e->pool[i] = e->late[i] = 0;
                        }
                    }
                    if (!e->roots[i])
                        continue;
                    if (e->pool[i])        /* band entry of a candidate */
                        e->hit[i] = 1;
                    else if (empty && (trigger < 0 || i < trigger))
                        trigger = i;       /* band entry with the pool empty */
                }
                if (trigger >= 0) {
                    if ((st = rearm(e, trigger)) != HES_OK)
                        return st;
                    res->n_rearms++;
                }
            }
        }
        if (o->record && (st = add_sample(e, res, &cap, t, e->x)) != HES_OK)
            return st;
    }
    if ((st = hes__ess_h_all(e, e->x, e->h)) != HES_OK || (st = near_misses(e, t)) != HES_OK ||
        (st = check_signs(e, t, 1)) != HES_OK ||
        (e->en_on && (st = hes__ess_energy_check(e, e->x, t, o->rtol)) != HES_OK))
        return st;
    for (; k_out < o->n_out; k_out++)   /* output times at t_end */
        memcpy(res->x_out + (size_t)k_out * n, e->x, (size_t)n * sizeof *e->x);
    return HES_OK;
}

hes_status hes_ess_run(hes_ess *e, const hes_ess_options *opts, double t0, const double *x0,
                       double t_end, hes_ess_result *res)
{
    if (!e)
        return HES_EINVAL;
    e->msg[0] = '\0';
    e->n_rhs = 0;
    hes_ess_options def;
    if (!opts) {
        hes_ess_options_init(&def);
        opts = &def;
    }
    if (res) {
        memset(res, 0, sizeof *res);
        res->eps_error = res->eps_order = NAN; /* until hes_ess_run_error */
    }
    hes_status st = check_args(e, opts, t0, x0, t_end, res);
    if (st != HES_OK)
        return st;
    int n = e->n, m = e->m;
    res->n = n;
    res->m = m;
    res->x_end = calloc((size_t)n, sizeof *res->x_end);
    res->s_end = calloc((size_t)m, sizeof *res->s_end);
    res->jac = opts->jacobian ? calloc((size_t)n * (size_t)n, sizeof *res->jac) : NULL;
    res->x_out = opts->n_out > 0 ? calloc((size_t)n * (size_t)opts->n_out, sizeof *res->x_out)
                                 : NULL;
    if (!res->x_end || !res->s_end || (opts->jacobian && !res->jac) ||
        (opts->n_out > 0 && !res->x_out)) {
        hes_ess_result_free(res);
        return hes__ess_fail(e, HES_ENOMEM, "out of memory for the ESS result");
    }
    e->eps = opts->eps;
    e->dp_step = 0;
    e->near_miss = opts->near_miss != 0;
    e->n_refused = 0;
    e->dh2_valid = 0;
    e->dh_valid = 0;
    e->zero_tol = 0;
    st = run(e, opts, t0, x0, t_end, res);
    res->n_refused = e->n_refused;
    res->t_end = st == HES_OK ? t_end : (res->n_samples ? res->t[res->n_samples - 1] : t0);
    memcpy(res->x_end, e->x, (size_t)n * sizeof *e->x);
    memcpy(res->s_end, e->s, (size_t)m * sizeof *e->s);
    if (res->jac)
        memcpy(res->jac, e->J, (size_t)n * (size_t)n * sizeof *e->J);
    return st;
}
