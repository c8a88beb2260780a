/*
 * ess_energy.c - the ESS integrator's energy bookkeeping, for a model that
 * gives its energy E(x, s) and power P(x, s) = dE/dt along f(x, s)
 * (hes_ess_model.energy, or energy_sums with the sums), with DOPRI5.
 *
 * A self-check beside the sign pattern's: the energy the state holds must
 * equal the energy it started with plus the work of the model's sources
 * and losses, W = integral of P dt, which the integrator accumulates
 * alongside the run:
 *   - an integration step of length dt from y0 to y1 (the piece of DOPRI5's
 *     step that is taken, its middle ym on the continuous extension):
 *     Simpson's rule dt (P0 + 4 Pm + P1) / 6, and as its error estimate the
 *     difference from the trapezoid rule, |dt (P0 - 2 Pm + P1)| / 3;
 *   - a projection x -> x+ = x + G dt along the constant field G = f(x, s)
 *     (s before the crossing): the trapezoid dt (P(x) + P(x+)) / 2, with
 *     twice the projection's own departure from the flow as its error: the
 *     state it reaches differs from the flow's by (f(x+) - G) dt / 2 to
 *     second order (the term the projection drops), so its energy by
 *     DE(x+) (f(x+) - G) dt / 2, the derivative of E along f(x+) - G by a
 *     central difference (the whole error of a projection in the
 *     bookkeeping: from rest in free flight, M g^2 dt^2 / 2 exactly).
 * The check, after every step and at the end of the run:
 *   |E(x) - E(x0) - W| <= slack + 10 rtol S (n_steps + 1),
 * slack the sum of those error estimates, S the energy scale: the largest
 * of |E| and of the work |P| dt summed over the run (rtol, the integration
 * step's relative tolerance, bounds each step's error relative to the
 * state).  E must be continuous where a guard is crossed (a spring that
 * starts at zero compression, a damper switched on or off changes P only).
 * What it catches: energy gained or lost that the model's power does not
 * account for, as when a contact pushes through a crossing the integrator
 * did not see, or a step is taken far beyond its accuracy.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ess/ess.h"

int hes__ess_energy_on(const hes_ess *e, const hes_ess_options *o)
{
    return e->model->energy && o->method == HES_ESS_DOPRI5;
}

/* E and P at x with the current sign pattern (sums when kept) */
static hes_status energy_at(hes_ess *e, const double *x, double out[2])
{
    int rc;
    const char *what;
    if (e->sums_on && e->model->energy_sums) {
        rc = e->model->energy_sums(x, e->sums, e->p, out, e->model->data);
        what = "energy_sums";
    } else {
        rc = e->model->energy(x, e->s, e->p, out, e->model->data);
        what = "energy";
    }
    if (rc != 0)
        return hes__ess_fail(e, HES_EMODEL, "ESS model '%s': %s returned %d", e->model->name,
                             what, rc);
    if (!isfinite(out[0]) || !isfinite(out[1]))
        return hes__ess_fail(e, HES_ENONFINITE, "ESS model '%s': %s gave a non-finite value",
                             e->model->name, what);
    return HES_OK;
}

hes_status hes__ess_energy_start(hes_ess *e, const double *x)
{
    double ep[2];
    hes_status st = energy_at(e, x, ep);
    if (st != HES_OK)
        return st;
    e->en_E0 = ep[0];
    e->en_W = e->en_slack = e->en_work = 0;
    e->en_scale = fabs(ep[0]);
    e->en_steps = 0;
    return HES_OK;
}

hes_status hes__ess_energy_step(hes_ess *e, const double *y0, const double *ym,
                                const double *y1, double dt)
{
    double a[2], m[2], b[2];
    hes_status st;
    if ((st = energy_at(e, y0, a)) != HES_OK || (ym && (st = energy_at(e, ym, m)) != HES_OK) ||
        (st = energy_at(e, y1, b)) != HES_OK)
        return st;
    if (ym) {   /* Simpson, against the trapezoid */
        e->en_W += dt * (a[1] + 4 * m[1] + b[1]) / 6;
        e->en_slack += fabs(dt * (a[1] - 2 * m[1] + b[1])) / 3;
        e->en_work += fabs(dt) * (fabs(a[1]) + 4 * fabs(m[1]) + fabs(b[1])) / 6;
    } else {    /* a projection: the trapezoid, and its departure from the flow */
        int n = e->n;
        double *df = e->en_f, *xd = e->en_d, xinf = 0, dinf = 0, ep[2], em[2];
        if ((st = hes__ess_f(e, y1, e->s, df)) != HES_OK)
            return st;
        for (int k = 0; k < n; k++) {
            df[k] -= e->G[k];              /* f(x+) - G */
            xinf = fmax(xinf, fabs(y1[k]));
            dinf = fmax(dinf, fabs(df[k]));
        }
        double dE = 0;                     /* DE(x+) (f(x+) - G) */
        if (dinf > 0) {
            double delta = hes__fd_step(xinf) / dinf;
            for (int k = 0; k < n; k++)
                xd[k] = y1[k] + delta * df[k];
            if ((st = energy_at(e, xd, ep)) != HES_OK)
                return st;
            for (int k = 0; k < n; k++)
                xd[k] = y1[k] - delta * df[k];
            if ((st = energy_at(e, xd, em)) != HES_OK)
                return st;
            dE = (ep[0] - em[0]) / (2 * delta);
        }
        e->en_W += dt * (a[1] + b[1]) / 2;
        e->en_slack += fabs(dE * dt);
        e->en_work += fabs(dt) * (fabs(a[1]) + fabs(b[1])) / 2;
    }
    e->en_scale = fmax(e->en_scale, fmax(fabs(b[0]), e->en_work));
    e->en_steps++;
    return HES_OK;
}

hes_status hes__ess_energy_check(hes_ess *e, const double *x, double t, double rtol)
{
    double ep[2];
    hes_status st = energy_at(e, x, ep);
    if (st != HES_OK)
        return st;
    e->en_scale = fmax(e->en_scale, fabs(ep[0]));
    double off = ep[0] - e->en_E0 - e->en_W;
    double tol = e->en_slack + 10 * rtol * e->en_scale * (double)(e->en_steps + 1);
    if (fabs(off) <= tol)
        return HES_OK;
    return hes__ess_fail(e, HES_ESOLVER, "energy bookkeeping at t = %.10g: E - E(x0) = %.6g "
                         "but the work of the model's sources and losses is %.6g, %.3g apart "
                         "(more than the run's error estimate %.3g): a crossing unseen or a "
                         "step beyond its accuracy, and the trajectory is not to be trusted",
                         t, ep[0] - e->en_E0, e->en_W, off, tol);
}
