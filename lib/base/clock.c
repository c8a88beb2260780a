/*
 * clock.c - the monotonic clock (seconds) that wall-time budgets and
 * timings read.
 */
#include <time.h>

#include "base/base.h"

double hes__monotonic_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
