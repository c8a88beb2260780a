/*
 * random.c - splitmix64, a small seedable generator whose whole state is one
 * integer the caller keeps (no global state), and the two distributions the
 * library needs: uniform on [0, 1) and standard normal (Box-Muller).
 */
#include <math.h>

#include "base/base.h"

unsigned long long hes__rng_next(unsigned long long *s)
{
    unsigned long long z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

double hes__rng_uniform(unsigned long long *s)
{
    return (double)(hes__rng_next(s) >> 11) * 0x1.0p-53;
}

double hes__rng_gaussian(unsigned long long *s)
{
    const double two_pi = 6.283185307179586;
    double u = hes__rng_uniform(s), v = hes__rng_uniform(s);
    return sqrt(-2.0 * log(1.0 - u)) * cos(two_pi * v);
}
