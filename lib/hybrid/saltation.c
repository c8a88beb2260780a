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
#include <assert.h>
#include <math.h>
#include <string.h>

#include "hybrid/hybrid.h"

/* rate = Dtg + Dxg F_I and scale = |(Dtg, Dxg)| |(1, F_I)| of given terms. */
static void rate_of(int ni, const double *Dxg, double Dtg, const double *F_I, double *rate,
                    double *scale)
{
    double d = Dtg, ng = Dtg * Dtg, nf = 1.0;
    for (int i = 0; i < ni; i++) {
        d += Dxg[i] * F_I[i];
        ng += Dxg[i] * Dxg[i];
        nf += F_I[i] * F_I[i];
    }
    *rate = d;
    *scale = sqrt(ng * nf);
}

hes_status hes__guard_rate(hes_system *sys, int tr, double t, const double *x, double *F_I,
                           double *Dxg, double *rate, double *scale)
{
    const hes_transition *T = &sys->model->transitions[tr];
    double Dtg;
    hes_status st;
    if ((st = hes__field(sys, T->from, t, x, F_I)) != HES_OK ||
        (st = hes__guard_dx(sys, tr, t, x, Dxg)) != HES_OK ||
        (st = hes__guard_dt(sys, tr, t, x, &Dtg)) != HES_OK)
        return st;
    rate_of(sys->model->modes[T->from].dim, Dxg, Dtg, F_I, rate, scale);
    return HES_OK;
}

int hes__grazing(const hes_system *sys, double rate, double scale)
{
    return !(fabs(rate) > sys->set.graze_tol * scale) || scale == 0.0;
}

void hes__saltation_formula(int ni, int nj, const double *DxR, const double *DtR,
                            const double *F_I, const double *Dxg, double den,
                            const double *F_J, double *xi)
{
    assert(ni > 0 && nj > 0 && den != 0.0);
    for (int i = 0; i < nj; i++) { /* v = F_J - DxR F_I - DtR, row by row */
        double v = (F_J ? F_J[i] : 0.0) - DtR[i];
        for (int j = 0; j < ni; j++)
            v -= DxR[i + (size_t)j * nj] * F_I[j];
        for (int j = 0; j < ni; j++)
            xi[i + (size_t)j * nj] = DxR[i + (size_t)j * nj] + v * Dxg[j] / den;
    }
}

/* HES_EGRAZING with its message when the event is grazing, else HES_OK. */
static hes_status grazing_check(hes_system *sys, int tr, double t, double den, double scale)
{
    if (!hes__grazing(sys, den, scale))
        return HES_OK;
    return hes__fail(sys, HES_EGRAZING,
                     "transition '%s' reached tangentially at model time t = %.17g: "
                     "|Dtg + Dxg F| = %.3g, sine of the crossing angle %.3g <= %.3g "
                     "(saltation matrix undefined)",
                     sys->model->transitions[tr].name, t, fabs(den),
                     scale > 0 ? fabs(den) / scale : 0.0, sys->set.graze_tol);
}

/* The denominator Dtg + Dxg F_I with the grazing test (hes__guard_rate). */
static hes_status saltation_denominator(hes_system *sys, int tr, double t,
                                        const double *x, double *F_I,
                                        double *Dxg, double *den)
{
    double scale;
    hes_status st = hes__guard_rate(sys, tr, t, x, F_I, Dxg, den, &scale);
    return st != HES_OK ? st : grazing_check(sys, tr, t, *den, scale);
}

hes_status hes__event_transversal(hes_system *sys, int tr, double t, const double *x)
{
    double *buf = sys->salt_ws, den; /* F_I, Dxg */
    return saltation_denominator(sys, tr, t, x, buf, buf + sys->nmax, &den);
}

static hes_status saltation(hes_system *sys, int tr, double t, const double *x, double *xi,
                            int clock_local);

hes_status hes_saltation(hes_system *sys, int tr, double t, const double *x, double *xi)
{
    if (sys && sys->kind != HES_KIND_HYBRID)
        return hes__need_hybrid(sys, "hes_saltation");
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
    assert(ni <= sys->nmax && nj <= sys->nmax);
    double *buf = sys->salt_ws; /* 2 ni + 3 nj + nj ni <= 5 nmax + nmax^2 */
    double *F_I = buf, *Dxg = F_I + ni, *R = Dxg + ni, *F_J = R + nj, *DtR = F_J + nj,
           *DxR = DtR + nj, den;
    hes_status st;
    if ((st = saltation_denominator(sys, tr, t, x, F_I, Dxg, &den)) != HES_OK ||
        (st = hes__reset(sys, tr, t, x, R)) != HES_OK ||
        (st = hes__field(sys, T->to, hes__time_after(sys->model, tr, t), R, F_J)) != HES_OK ||
        (st = hes__reset_dx(sys, tr, t, x, DxR)) != HES_OK ||
        (st = hes__reset_dt(sys, tr, t, x, DtR)) != HES_OK)
        return st;
    hes__saltation_formula(ni, nj, DxR, DtR, F_I, Dxg, den, clock_local ? NULL : F_J, xi);
    return HES_OK;
}

/*
 * The saltation matrix by its pieces, for shape contexts (shape.c), where
 * the event's state, time and vector fields stay and only the guard's and
 * the reset's derivatives move: P = (Dxg [n_I], Dtg, DxR [n_J x n_I], DtR
 * [n_J]).  The derivative of the formula along dP (F_I, F_J fixed):
 *     dXi = dDxR + (dv Dxg + v dDxg) / den - v Dxg dden / den^2,
 *     v = F_J - DxR F_I - DtR,   dv = -dDxR F_I - dDtR,
 *     den = Dtg + Dxg F_I,       dden = dDtg + dDxg F_I.
 */
int hes__saltation_pieces_len(int ni, int nj)
{
    return ni + 1 + nj * ni + nj;
}

hes_status hes__saltation_pieces(hes_system *sys, int tr, double t, const double *x, double *P)
{
    const hes_transition *T = &sys->model->transitions[tr];
    int ni = sys->model->modes[T->from].dim, nj = sys->model->modes[T->to].dim;
    hes_status st;
    if ((st = hes__guard_dx(sys, tr, t, x, P)) != HES_OK ||
        (st = hes__guard_dt(sys, tr, t, x, P + ni)) != HES_OK ||
        (st = hes__reset_dx(sys, tr, t, x, P + ni + 1)) != HES_OK)
        return st;
    return hes__reset_dt(sys, tr, t, x, P + ni + 1 + (size_t)nj * ni);
}

hes_status hes__saltation_of_pieces(hes_system *sys, int tr, double t, const double *P,
                                    const double *F_I, const double *F_J, double *xi)
{
    const hes_transition *T = &sys->model->transitions[tr];
    int ni = sys->model->modes[T->from].dim, nj = sys->model->modes[T->to].dim;
    const double *Dxg = P, *DxR = P + ni + 1, *DtR = DxR + (size_t)nj * ni;
    double den, scale;
    rate_of(ni, Dxg, P[ni], F_I, &den, &scale);
    hes_status st = grazing_check(sys, tr, t, den, scale);
    if (st != HES_OK)
        return st;
    hes__saltation_formula(ni, nj, DxR, DtR, F_I, Dxg, den, F_J, xi);
    return HES_OK;
}

void hes__saltation_derivative(int ni, int nj, const double *P, const double *dP,
                               const double *F_I, const double *F_J, double *dxi)
{
    const double *Dxg = P, *DxR = P + ni + 1, *DtR = DxR + (size_t)nj * ni;
    const double *dDxg = dP, *dDxR = dP + ni + 1, *dDtR = dDxR + (size_t)nj * ni;
    double den = P[ni], dden = dP[ni];
    for (int j = 0; j < ni; j++) {
        den += Dxg[j] * F_I[j];
        dden += dDxg[j] * F_I[j];
    }
    double rden = 1.0 / den, q = dden * rden * rden; /* one division, not 2 ni nj */
    for (int i = 0; i < nj; i++) {
        double v = F_J[i] - DtR[i], dv = -dDtR[i];
        for (int j = 0; j < ni; j++) {
            v -= DxR[i + (size_t)j * nj] * F_I[j];
            dv -= dDxR[i + (size_t)j * nj] * F_I[j];
        }
        for (int j = 0; j < ni; j++)
            dxi[i + (size_t)j * nj] = dDxR[i + (size_t)j * nj] +
                                      (dv * Dxg[j] + v * dDxg[j]) * rden - v * Dxg[j] * q;
    }
}

