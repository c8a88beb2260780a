/*
 * sampled.c - derivatives of sampled data: the quadratic through three
 * samples (t0, y0), (t1, y1), (t2, y2) (Lagrange form) has
 *   y'(t)  = y0 (2t - t1 - t2) / ((t0 - t1)(t0 - t2))
 *          + y1 (2t - t0 - t2) / ((t1 - t0)(t1 - t2))
 *          + y2 (2t - t0 - t1) / ((t2 - t0)(t2 - t1)),
 *   y''    = 2 [y0 / ((t0 - t1)(t0 - t2)) + y1 / ((t1 - t0)(t1 - t2))
 *               + y2 / ((t2 - t0)(t2 - t1))],
 * evaluated at the middle sample inside (the central difference for equal
 * spacing, second order) and at the end samples with the end triples.
 */
#include <math.h>

#include "base/base.h"

hes_status hes_sampled_derivatives(int n, int dim, const double *t, const double *y,
                                   double *dy, double *ddy)
{
    if (n < 3 || dim < 1 || !t || !y)
        return HES_EINVAL;
    for (int i = 1; i < n; i++)
        if (!(t[i] > t[i - 1]) || !isfinite(t[i]))
            return HES_EINVAL;
    for (int i = 0; i < n; i++) {
        int m = i == 0 ? 1 : i == n - 1 ? n - 2 : i;     /* the triple's middle */
        double t0 = t[m - 1], t1 = t[m], t2 = t[m + 1], ti = t[i];
        double d0 = (t0 - t1) * (t0 - t2), d1 = (t1 - t0) * (t1 - t2), d2 = (t2 - t0) * (t2 - t1);
        for (int k = 0; k < dim; k++) {
            double y0 = y[(size_t)(m - 1) * dim + k], y1 = y[(size_t)m * dim + k],
                   y2 = y[(size_t)(m + 1) * dim + k];
            if (dy)
                dy[(size_t)i * dim + k] = y0 * (2 * ti - t1 - t2) / d0 +
                                          y1 * (2 * ti - t0 - t2) / d1 +
                                          y2 * (2 * ti - t0 - t1) / d2;
            if (ddy)
                ddy[(size_t)i * dim + k] = 2 * (y0 / d0 + y1 / d1 + y2 / d2);
        }
    }
    return HES_OK;
}
