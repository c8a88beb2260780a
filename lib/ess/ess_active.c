/*
 * ess_active.c - the guards the ESS integrator evaluates: all of them, or,
 * when the model gives a broad phase (h_near, with h_some and Dh_some) and
 * the integration step is DOPRI5, only the active ones.
 *
 * Why.  Events are proportional to the number of contacts N, and an
 * evaluation of every guard costs O(N): O(N^2) per run.  A guard that
 * cannot reach a level (its zero, or its band's edge -eps) during a step
 * needs no looking at in that step, and which guards can is a question of
 * geometry the model answers in time independent of N (for a plate on
 * legs sorted along it, an interval of legs), as the broad phase of a
 * collision detector does.
 *
 * The active set A.  Invariant: a guard not in A has met no level since it
 * left A, so its sign s_i (and its place in the pool) are still right.
 *   - Before the samples of a DOPRI5 step are scanned, the box of the
 *     step's path (per component: the interval of its two ends, widened by
 *     twice the middle's deviation from the chord, the step being resolved
 *     to that accuracy by the error control and the slot test of
 *     ess_dopri.c) is passed to h_near with the levels [-eps - t, t] (t =
 *     1e-9 eps: rounding); before a projection, the box of the straight
 *     segment it may take.  A guard returned that is not in A joins it,
 *     evaluated at the start of the step or segment, where it must be on
 *     the side of every level that s_i and the pool say (it has met none):
 *     otherwise h_near left it out before, and the run stops with
 *     HES_ESOLVER.
 *   - At the top of every step a guard of A that is not watched or hit and
 *     lies more than eps beyond its levels (h > eps or h < -2 eps) leaves
 *     A: h_near brings it back when it comes near.
 *   - At the start of a run and at every rearm every guard is evaluated
 *     (O(N)) and A is the guards within eps of a level; the end of the run
 *     checks the sign pattern against every guard (ess.c).
 */
#include <float.h>
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ess/ess.h"

int hes__ess_sparse(const hes_ess *e, const hes_ess_options *o)
{
    return e->model->h_near && o->method == HES_ESS_DOPRI5;
}

void hes__ess_all_active(hes_ess *e)
{
    e->n_act = e->m;
    for (int i = 0; i < e->m; i++) {
        e->act[i] = i;
        e->is_act[i] = 1;
    }
    e->sparse = 0;
}

void hes__ess_set_watch(hes_ess *e, int i, int empty)
{
    e->watch[i] = (e->pool[i] && !e->late[i]) || (empty && e->s[i] < 0);
    e->watch[e->m + i] = !e->pool[i] || e->late[i];
}

/* Guard i (value h) may leave A: not watched or hit, and more than eps
 * beyond its levels */
static int far(const hes_ess *e, int i, double h)
{
    return !e->late[i] && !e->hit[i] && (h > e->eps || h < -2 * e->eps);
}

void hes__ess_shrink(hes_ess *e)
{
    if (!e->sparse)
        return;
    int k = 0;
    for (int q = 0; q < e->n_act; q++) {
        int i = e->act[q];
        if (far(e, i, e->h[i])) {
            e->is_act[i] = 0;
            e->watch[i] = e->watch[e->m + i] = 0;
        } else
            e->act[k++] = i;
    }
    e->n_act = k;
}

hes_status hes__ess_start_active(hes_ess *e)
{
    hes__ess_all_active(e);
    e->sparse = 1;
    for (int i = 0; i < e->m; i++)
        e->watch[i] = e->watch[e->m + i] = 0;
    hes__ess_shrink(e);   /* e->h: every guard at x */
    return HES_OK;
}

hes_status hes__ess_activate(hes_ess *e, const double *lo, const double *hi, const double *x,
                             double *hout, double *Dout, int *n_new)
{
    int n = e->n, m = e->m, first = e->n_act, empty = e->n_pool == 0;
    *n_new = 0;
    if (!e->sparse)
        return HES_OK;
    double tiny = 1e-9 * e->eps;
    int k = e->model->h_near(lo, hi, -e->eps - tiny, tiny, e->near, e->p, e->model->data);
    if (k < 0 || k > m)
        return hes__ess_fail(e, HES_EMODEL, "ESS model '%s': h_near returned %d (not from 0 "
                             "to m = %d)", e->model->name, k, m);
    for (int q = 0; q < k; q++) {
        int i = e->near[q];
        if (i < 0 || i >= m)
            return hes__ess_fail(e, HES_EMODEL, "ESS model '%s': h_near returned guard %d "
                                 "(not from 0 to m - 1 = %d)", e->model->name, i, m - 1);
        if (e->is_act[i])
            continue;
        e->is_act[i] = 1;
        e->act[e->n_act++] = i;
        assert(e->n_act <= m);
        hes__ess_set_watch(e, i, empty);
    }
    int kn = e->n_act - first;
    if (kn == 0)
        return HES_OK;
    *n_new = kn;
    e->dh2_valid = 0;
    const int *idx = e->act + first;
    hes_status st = hes__ess_h_some(e, x, kn, idx, e->tmpm);
    if (st != HES_OK)
        return st;
    for (int q = 0; q < kn; q++) {
        int i = idx[q];
        double h = e->tmpm[q];
        /* it has met no level: a candidate below its band, another guard
           on the side of its sign */
        if (e->pool[i] ? !(h < -e->eps) : (h >= 0) != (e->s[i] > 0)) {
            char buf[32];
            return hes__ess_fail(e, HES_ESOLVER, "ESS model '%s': guard '%s' (event %d) "
                                 "has h = %.6g where the sign pattern says %+d%s: the "
                                 "model's h_near left it out of a box in which it met a "
                                 "level, and the run cannot vouch for its crossings",
                                 e->model->name, hes__ess_event_name(e, i, buf, sizeof buf),
                                 i, h, e->s[i], e->pool[i] ? " (a candidate below its band)"
                                                           : "");
        }
        hout[i] = h;
    }
    if (Dout) {
        if ((st = hes__ess_Dh_some(e, x, kn, idx, e->tmpmn)) != HES_OK)
            return st;
        for (int c = 0; c < n; c++)
            for (int q = 0; q < kn; q++)
                Dout[idx[q] + (size_t)c * m] = e->tmpmn[q + (size_t)c * kn];
    }
    return HES_OK;
}

hes_status hes__ess_h(hes_ess *e, const double *x, double *out)
{
    if (!e->sparse)
        return hes__ess_h_all(e, x, out);
    hes_status st = hes__ess_h_some(e, x, e->n_act, e->act, e->tmpm);
    if (st != HES_OK)
        return st;
    for (int q = 0; q < e->n_act; q++)
        out[e->act[q]] = e->tmpm[q];
    return HES_OK;
}

hes_status hes__ess_Dh(hes_ess *e, const double *x, double *out)
{
    if (!e->sparse)
        return hes__ess_Dh_all(e, x, out);
    int k = e->n_act, m = e->m;
    hes_status st = hes__ess_Dh_some(e, x, k, e->act, e->tmpmn);
    if (st != HES_OK)
        return st;
    for (int c = 0; c < e->n; c++)
        for (int q = 0; q < k; q++)
            out[e->act[q] + (size_t)c * m] = e->tmpmn[q + (size_t)c * k];
    return HES_OK;
}

hes_status hes__ess_Dh_at(hes_ess *e, const double *x)
{
    size_t nb = (size_t)e->n * sizeof *x;
    if (e->dh_valid && memcmp(e->xdh, x, nb) == 0)
        return HES_OK;
    if (e->dh2_valid && memcmp(e->xp, x, nb) == 0) {
        double *tmp = e->Dh;
        e->Dh = e->Dh2;
        e->Dh2 = tmp;
        e->dh2_valid = 0;
    } else {
        e->dh_valid = 0;
        hes_status st = hes__ess_Dh(e, x, e->Dh);
        if (st != HES_OK)
            return st;
    }
    memcpy(e->xdh, x, nb);
    e->dh_valid = 1;
    return HES_OK;
}

void hes__ess_copy_active(const hes_ess *e, double *dst, const double *src)
{
    if (!e->sparse) {
        memcpy(dst, src, (size_t)e->m * sizeof *dst);
        return;
    }
    for (int q = 0; q < e->n_act; q++)
        dst[e->act[q]] = src[e->act[q]];
}
