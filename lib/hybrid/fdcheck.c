/*
 * fdcheck.c - the independent check of the monodromy: the Jacobian of the
 * return map by central differences of the full nonlinear flow (re-simulated
 * from perturbed starts), with the user-set relative step settings.fd_step:
 *     P[:, j] = (R(x0 + h e_j) - R(x0 - h e_j)) / 2h,  h = fd_step max(1, |x0_j|).
 * When the orbit's mode has a chart (tangent.c) the differences are taken in
 * its tangent coordinates, as the monodromy is (tdim x tdim):
 *     P[:, j] = (local(R(retract(x0, h e_j)), x0) - local(R(retract(x0, -h e_j)), x0)) / 2h,
 * with h = fd_step (a tangent coordinate has no value of its own to scale by).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid/hybrid.h"

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
    double *buf = malloc(sizeof(double) * (3 * (size_t)n + 3 * (size_t)nt));
    if (!buf)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    double *x = buf, *rp = buf + n, *rm = buf + 2 * n, *d = rm + n, *lp = d + nt, *lm = lp + nt;
    hes_status st = HES_OK;
    for (int j = 0; j < nt && st == HES_OK; j++) {
        if (chart) {
            double h = sys->set.fd_step;
            memset(d, 0, sizeof(double) * (size_t)nt);
            d[j] = h;
            if ((st = hes__retract(sys, orbit->mode, orbit->x0, d, x)) != HES_OK ||
                (st = hes_orbit_return_map(sys, x, rp)) != HES_OK ||
                (st = hes__local(sys, orbit->mode, rp, orbit->x0, lp)) != HES_OK)
                break;
            d[j] = -h;
            if ((st = hes__retract(sys, orbit->mode, orbit->x0, d, x)) != HES_OK ||
                (st = hes_orbit_return_map(sys, x, rm)) != HES_OK ||
                (st = hes__local(sys, orbit->mode, rm, orbit->x0, lm)) != HES_OK)
                break;
            for (int i = 0; i < nt; i++)
                out[i + (size_t)j * nt] = (lp[i] - lm[i]) / (2 * h);
            continue;
        }
        double h = sys->set.fd_step * fmax(1.0, fabs(orbit->x0[j]));
        memcpy(x, orbit->x0, sizeof(double) * (size_t)n);
        x[j] = orbit->x0[j] + h;
        if ((st = hes_orbit_return_map(sys, x, rp)) != HES_OK)
            break;
        x[j] = orbit->x0[j] - h;
        if ((st = hes_orbit_return_map(sys, x, rm)) != HES_OK)
            break;
        for (int i = 0; i < n; i++)
            out[i + (size_t)j * n] = (rp[i] - rm[i]) / (2 * h);
    }
    free(buf);
    return st;
}
