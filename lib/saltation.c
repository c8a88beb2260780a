/*
 * saltation.c - the saltation matrix of a hybrid event (paper eq. 2):
 *
 *   Xi = DxR + (F_J - DxR F_I - DtR) Dxg / (Dtg + Dxg F_I)
 *
 * mapping state perturbations just before an event of transition I -> J to
 * perturbations just after it (compared at equal times).  Xi is n_J x n_I:
 * rectangular when the reset changes the state dimension.  The denominator
 * is the rate at which the guard is crossed; when it is tiny relative to its
 * terms the event is grazing and Xi does not exist (HES_EGRAZING).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hes_internal.h"

/* Dtg + Dxg F_I at (t, x), with F_I and Dxg returned for reuse, and the
 * grazing test: in (t, x) space the flow (1, F_I) meets the guard surface,
 * normal (Dtg, Dxg), at an angle whose sine is
 *   |Dtg + Dxg F_I| / (|(Dtg, Dxg)| |(1, F_I)|);
 * below graze_tol the crossing is tangential. */
static hes_status saltation_denominator(hes_system *sys, int tr, double t,
                                        const double *x, double *F_I,
                                        double *Dxg, double *den)
{
    const hes_transition *T = &sys->model->transitions[tr];
    int ni = sys->model->modes[T->from].dim;
    double Dtg;
    hes_status st;
    if ((st = hes__field(sys, T->from, t, x, F_I)) != HES_OK ||
        (st = hes__guard_dx(sys, tr, t, x, Dxg)) != HES_OK ||
        (st = hes__guard_dt(sys, tr, t, x, &Dtg)) != HES_OK)
        return st;
    double d = Dtg, ng = Dtg * Dtg, nf = 1.0;
    for (int i = 0; i < ni; i++) {
        d += Dxg[i] * F_I[i];
        ng += Dxg[i] * Dxg[i];
        nf += F_I[i] * F_I[i];
    }
    double scale = sqrt(ng * nf);
    *den = d;
    if (!(fabs(d) > sys->set.graze_tol * scale) || scale == 0.0)
        return hes__fail(sys, HES_EGRAZING,
                         "transition '%s' reached tangentially at model time t = %.17g: "
                         "|Dtg + Dxg F| = %.3g, sine of the crossing angle %.3g <= %.3g "
                         "(saltation matrix undefined)",
                         T->name, t, fabs(d), scale > 0 ? fabs(d) / scale : 0.0, sys->set.graze_tol);
    return HES_OK;
}

hes_status hes__event_transversal(hes_system *sys, int tr, double t, const double *x)
{
    double *buf = malloc(sizeof(double) * 2 * (size_t)sys->nmax), den;
    if (!buf)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    hes_status st = saltation_denominator(sys, tr, t, x, buf, buf + sys->nmax, &den);
    free(buf);
    return st;
}

static hes_status saltation(hes_system *sys, int tr, double t, const double *x, double *xi,
                            int clock_local);

hes_status hes_saltation(hes_system *sys, int tr, double t, const double *x, double *xi)
{
    return saltation(sys, tr, t, x, xi, 0);
}

/* The saltation matrix of a clock-resetting event seen from the next phase's
 * own clock: the next phase starts at model time 0 whenever the event
 * happens, so an event-time shift is not a shift along F_J:
 *   DxR - (DxR F_I + DtR) Dxg / (Dtg + Dxg F_I).
 * In a monodromy product it differs from hes_saltation only by a term along
 * F_J, which the rest of the period maps along the flow (and the section
 * removes) when the later phases are autonomous; when they depend on the
 * time since the event (inputs on a phase clock) only this one is right. */
hes_status hes__saltation_clock(hes_system *sys, int tr, double t, const double *x, double *xi)
{
    return saltation(sys, tr, t, x, xi, 1);
}

static hes_status saltation(hes_system *sys, int tr, double t, const double *x, double *xi,
                            int clock_local)
{
    if (!sys || tr < 0 || tr >= sys->model->n_transitions || !x || !xi)
        return sys ? hes__fail(sys, HES_EINVAL, "hes_saltation: invalid arguments") : HES_EINVAL;
    const hes_transition *T = &sys->model->transitions[tr];
    int ni = sys->model->modes[T->from].dim, nj = sys->model->modes[T->to].dim;
    double *buf = malloc(sizeof(double) * (size_t)(2 * ni + 4 * nj));
    if (!buf)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    double *F_I = buf, *Dxg = F_I + ni, *R = Dxg + ni, *F_J = R + nj, *DtR = F_J + nj,
           *v = DtR + nj, den;
    hes_status st;
    if ((st = saltation_denominator(sys, tr, t, x, F_I, Dxg, &den)) != HES_OK ||
        (st = hes__reset(sys, tr, t, x, R)) != HES_OK ||
        (st = hes__field(sys, T->to, hes__time_after(sys->model, tr, t), R, F_J)) != HES_OK ||
        (st = hes__reset_dx(sys, tr, t, x, xi)) != HES_OK ||
        (st = hes__reset_dt(sys, tr, t, x, DtR)) != HES_OK)
        goto out;
    /* v = F_J - DxR F_I - DtR;  Xi = DxR + v Dxg / den */
    hes__matmul(nj, ni, 1, xi, F_I, v);
    for (int i = 0; i < nj; i++)
        v[i] = (clock_local ? 0.0 : F_J[i]) - v[i] - DtR[i];
    for (int j = 0; j < ni; j++)
        for (int i = 0; i < nj; i++)
            xi[i + (size_t)j * nj] += v[i] * Dxg[j] / den;
out:
    free(buf);
    return st;
}
