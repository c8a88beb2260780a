/*
 * grid.c - evenly spaced values (hes_grid_linspace) and the tensor grid of
 * a parameter sweep (hes_grid_tensor), the one formula of both `hes sweep
 * --grid` and `hes simulate --sweep`.
 *
 * Value k of n in [lo, hi] is x_k = lo + k (hi - lo) / (n - 1), computed
 * from the nearer end: lo + span (k / (n - 1)) in the first half, hi - span
 * ((n - 1 - k) / (n - 1)) in the second, and (lo + hi) / 2 in the middle.
 * So x_0 = lo and x_{n-1} = hi exactly, the values are symmetric (a range
 * symmetric about 0 gives exact negatives, and 0 itself in the middle for
 * n odd), and each is within an ulp or two of the exact value.
 */
#include <limits.h>
#include <math.h>

#include "hes.h"

static double linspace_value(double lo, double hi, int n, int k)
{
    int last = n - 1;
    double span = hi - lo;

    if (last == 0)
        return lo;
    if (2 * k == last)
        return 0.5 * (lo + hi);
    if (2 * k < last)
        return lo + span * ((double)k / last);
    return hi - span * ((double)(last - k) / last);
}

static int range_ok(double lo, double hi, int n)
{
    return n >= 1 && isfinite(lo) && isfinite(hi) && lo <= hi && isfinite(hi - lo);
}

hes_status hes_grid_linspace(double lo, double hi, int n, double *out)
{
    if (!out || !range_ok(lo, hi, n))
        return HES_EINVAL;
    for (int k = 0; k < n; k++)
        out[k] = linspace_value(lo, hi, n, k);
    return HES_OK;
}

hes_status hes_grid_tensor_size(int dim, const int *count, long *n_points)
{
    long total = 1;

    if (dim < 1 || !count || !n_points)
        return HES_EINVAL;
    for (int j = 0; j < dim; j++) {
        if (count[j] < 1 || total > INT_MAX / count[j])
            return HES_EINVAL;
        total *= count[j];
    }
    *n_points = total;
    return HES_OK;
}

hes_status hes_grid_tensor(int dim, const double *lo, const double *hi, const int *count,
                           double *out)
{
    long total;

    if (!lo || !hi || !out || hes_grid_tensor_size(dim, count, &total) != HES_OK)
        return HES_EINVAL;
    for (int j = 0; j < dim; j++)
        if (!range_ok(lo[j], hi[j], count[j]))
            return HES_EINVAL;
    for (long i = 0; i < total; i++) {
        long rem = i;
        for (int j = dim - 1; j >= 0; j--) { /* the last varies fastest */
            int k = (int)(rem % count[j]);
            rem /= count[j];
            out[i * dim + j] = linspace_value(lo[j], hi[j], count[j], k);
        }
    }
    return HES_OK;
}
