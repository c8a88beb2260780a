/*
 * ess_accuracy.c - how far the band eps moves an ESS run's end state
 * (hes_ess_run_error): the same run again at eps / 2 and eps / 4.  The
 * method's error is C eps^2 + o(eps^2) (ESS paper, Sec. 4), so with
 * d1 = |x(eps) - x(eps / 2)| and d2 = |x(eps / 2) - x(eps / 4)| (max norms)
 * the observed order is log2(d1 / d2) and the error at eps is about
 * (4 / 3) d1 (Richardson).  hes analyze of an ESS orbit checks psi the same
 * way (hybrid/ess_orbit.c); this is the check of a plain simulation.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ess/ess.h"

hes_status hes_ess_run_error(hes_ess *ess, const hes_ess_options *opts, double t0,
                             const double *x0, double t_end, hes_ess_result *res)
{
    if (!ess || !x0 || !res || !res->x_end)
        return HES_EINVAL;
    res->eps_error = res->eps_order = NAN;
    hes_ess_options o;
    if (opts)
        o = *opts;
    else
        hes_ess_options_default(&o);
    o.jacobian = 0;
    o.record = 0;
    o.n_out = 0;
    o.t_out = NULL;
    int n = res->n;
    double d[2] = { 0, 0 }, *prev = malloc(sizeof(double) * (size_t)n);
    if (!prev)
        return HES_ENOMEM;
    memcpy(prev, res->x_end, sizeof(double) * (size_t)n);
    hes_status st = HES_OK;
    for (int q = 1; q <= 2 && st == HES_OK; q++) {
        hes_ess_result r;
        o.eps = (opts ? opts->eps : o.eps) / (1 << q);
        st = hes_ess_run(ess, &o, t0, x0, t_end, &r);
        if (st == HES_OK) {
            for (int i = 0; i < n; i++)
                d[q - 1] = fmax(d[q - 1], fabs(r.x_end[i] - prev[i]));
            memcpy(prev, r.x_end, sizeof(double) * (size_t)n);
        }
        hes_ess_result_free(&r);
    }
    free(prev);
    if (st != HES_OK)
        return st;
    res->eps_error = 4.0 / 3.0 * d[0];
    res->eps_order = d[1] > 0 ? log2(d[0] / d[1]) : NAN;
    return HES_OK;
}
