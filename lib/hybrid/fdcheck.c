/*
 * fdcheck.c - the independent check of the monodromy: the Jacobian of the
 * return map by central differences of the full nonlinear flow (re-simulated
 * from perturbed starts), with the user-set relative step settings.fd_step,
 * h = fd_step max(1, |x0_j|), and order settings.fd_order:
 *     2:  P[:, j] = D(h) = (R(x0 + h e_j) - R(x0 - h e_j)) / 2h,
 *     4:  P[:, j] = (4 D(h) - D(2h)) / 3
 *                 = (8 (R(x0 + h e_j) - R(x0 - h e_j)) - (R(x0 + 2h e_j) - R(x0 - 2h e_j))) / 12h,
 * Richardson's extrapolation of the central difference, whose error is even
 * in h (Fornberg, "Generation of finite difference formulas on arbitrarily
 * spaced grids", Math. Comp. 51, 1988: the five-point first derivative).
 * Its truncation error is O(h^4) against O(h^2), so it tolerates a step
 * large enough that the flow's rounding (the integrator's tolerance, the
 * events' location) no longer dominates.
 * When the orbit's mode has a chart (tangent.c) the differences are taken in
 * its tangent coordinates, as the monodromy is (tdim x tdim):
 *     R(x0 +- h e_j) stands for local(R(retract(x0, +-h e_j)), x0),
 * with h = fd_step (a tangent coordinate has no value of its own to scale by).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid/hybrid.h"

/* The return map at x0 moved by s along component j, as nt values in out
 * (with a chart: in the tangent coordinates at x0); x: n values of scratch. */
static hes_status moved_return(hes_system *sys, const hes_orbit *orbit, int chart, int nt, int j,
                               double s, double *x, double *d, double *r, double *out)
{
    hes_status st;
    int n = orbit->n;
    if (chart) {
        memset(d, 0, sizeof(double) * (size_t)nt);
        d[j] = s;
        if ((st = hes__retract(sys, orbit->mode, orbit->x0, d, x)) != HES_OK ||
            (st = hes_orbit_return_map(sys, x, r)) != HES_OK)
            return st;
        return hes__local(sys, orbit->mode, r, orbit->x0, out);
    }
    memcpy(x, orbit->x0, sizeof(double) * (size_t)n);
    x[j] = orbit->x0[j] + s;
    return hes_orbit_return_map(sys, x, out);
}

hes_status hes_return_map_fd(hes_system *sys, const hes_orbit *orbit, double *out)
{
    if (!sys)
        return HES_EINVAL;
    if (sys->kind != HES_KIND_HYBRID)
        return hes__need_hybrid(sys, "hes_return_map_fd");
    if (!orbit || !out)
        return hes__fail(sys, HES_EINVAL, "return map by differences: needs the orbit and out");
    int n = orbit->n, chart = hes__mode_has_chart(sys->model, orbit->mode);
    int nt = chart ? hes__mode_tdim(sys->model, orbit->mode) : n;
    int fourth = sys->set.fd_order == 4;
    double *buf = malloc(sizeof(double) * (2 * (size_t)n + 5 * (size_t)nt));
    if (!buf)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    double *x = buf, *r = buf + n, *d = r + n, *p1 = d + nt, *m1 = p1 + nt, *p2 = m1 + nt,
           *m2 = p2 + nt;
    hes_status st = HES_OK;
    for (int j = 0; j < nt && st == HES_OK; j++) {
        double h = sys->set.fd_step * (chart ? 1.0 : fmax(1.0, fabs(orbit->x0[j])));
        if ((st = moved_return(sys, orbit, chart, nt, j, h, x, d, r, p1)) != HES_OK ||
            (st = moved_return(sys, orbit, chart, nt, j, -h, x, d, r, m1)) != HES_OK)
            break;
        if (fourth &&
            ((st = moved_return(sys, orbit, chart, nt, j, 2 * h, x, d, r, p2)) != HES_OK ||
             (st = moved_return(sys, orbit, chart, nt, j, -2 * h, x, d, r, m2)) != HES_OK))
            break;
        for (int i = 0; i < nt; i++)
            out[i + (size_t)j * nt] = fourth
                ? (8 * (p1[i] - m1[i]) - (p2[i] - m2[i])) / (12 * h)
                : (p1[i] - m1[i]) / (2 * h);
    }
    free(buf);
    return st;
}
