/*
 * ess_accuracy.c - how far the band eps moves an ESS run's end state
 * (hes_ess_run_error): the same run again at eps / 2, eps / 4 and eps / 8.
 * The method's error is C eps^2 + o(eps^2) (ESS paper, Sec. 4), so with
 * d_k = |x(eps / 2^(k-1)) - x(eps / 2^k)| (max norms) the observed order is
 * log2(d1 / d2) and the error at eps is about (4 / 3) d1 (Richardson) --
 * when eps is in the asymptotic range.  It may not be: where eps spans
 * several guards' levels at once (a bed of contacts closer than eps), the
 * end state sits on a plateau that halving eps barely moves, and d1, d2
 * can show order 2 by chance while the error is orders of magnitude
 * larger.  The third difference tells: the order is accepted only when
 * log2(d2 / d3) agrees with log2(d1 / d2) to 0.5; otherwise the finer
 * order is reported (far from 2: the estimate is not to be trusted) and
 * the error estimate is at least the whole change |x(eps) - x(eps / 8)|.
 * hes analyze of an ESS orbit checks psi the same way (hybrid/ess_orbit.c);
 * this is the check of a plain simulation.
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
        hes_ess_options_init(&o);
    o.jacobian = 0;
    o.record = 0;
    o.n_out = 0;
    o.t_out = NULL;
    int n = res->n;
    double d[3] = { 0, 0, 0 }, *prev = malloc(sizeof(double) * (size_t)n * 2), *first = prev + n;
    if (!prev)
        return HES_ENOMEM;
    memcpy(prev, res->x_end, sizeof(double) * (size_t)n);
    memcpy(first, res->x_end, sizeof(double) * (size_t)n);
    double whole = 0;
    hes_status st = HES_OK;
    for (int q = 1; q <= 3 && st == HES_OK; q++) {
        hes_ess_result r;
        o.eps = (opts ? opts->eps : o.eps) / (1 << q);
        st = hes_ess_run(ess, &o, t0, x0, t_end, &r);
        if (st == HES_OK) {
            for (int i = 0; i < n; i++) {
                d[q - 1] = fmax(d[q - 1], fabs(r.x_end[i] - prev[i]));
                if (q == 3)
                    whole = fmax(whole, fabs(r.x_end[i] - first[i]));
            }
            memcpy(prev, r.x_end, sizeof(double) * (size_t)n);
        }
        hes_ess_result_free(&r);
    }
    free(prev);
    if (st != HES_OK)
        return st;
    double p1 = d[1] > 0 ? log2(d[0] / d[1]) : NAN, p2 = d[2] > 0 ? log2(d[1] / d[2]) : NAN;
    res->eps_error = 4.0 / 3.0 * d[0];
    res->eps_order = p1;
    if (isfinite(p1) && isfinite(p2) && fabs(p1 - p2) > 0.5) {
        res->eps_order = p2;                  /* not yet asymptotic */
        res->eps_error = fmax(res->eps_error, whole);
    }
    return HES_OK;
}
