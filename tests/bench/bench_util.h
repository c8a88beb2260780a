/*
 * bench_util.h - what the benchmarks share: the median of a run's repeated
 * timings.
 */
#ifndef HES_BENCH_UTIL_H
#define HES_BENCH_UTIL_H

#include <stdlib.h>

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of x[0..n-1] (sorted in place), n >= 1. */
static inline double bench_median(double *x, int n)
{
    qsort(x, (size_t)n, sizeof *x, bench_cmp_double);
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

#endif
