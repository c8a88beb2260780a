/*
 * root.c - the earliest crossing within a step (ode/root.h): regula falsi
 * on the candidate whose chord reaches zero first, safeguarded by
 * bisection (as Brent's and Dekker's methods guard the secant: a sample
 * that moves the same end of the bracket twice in a row is followed by a
 * bisection, and every sample keeps 1 % of the bracket from its ends, so
 * that the bracket shrinks by at least that much each time).  The
 * tolerance is the caller's: CVODES's 100 u (|t| + |h|) in time, over |h|.
 */
#include "ode/root.h"

#include <assert.h>
#include <math.h>

int hes__root_narrow(const hes__root_bracket *b, void *data, double lo, double *hi, double tol)
{
    double top = *hi;
    int side = 0, same = 0;
    assert(lo < top);
    for (int it = 0; it < 200 && top - lo > tol; it++) {
        double frac = same >= 2 ? 0.5 : b->chord(data);
        frac = fmin(0.99, fmax(0.01, frac));
        double th = lo + frac * (top - lo);
        int c = b->sample(data, th);
        if (c < 0)
            return c;
        int sd = c ? 1 : -1;
        same = sd == side ? same + 1 : 0;
        side = sd;
        if (c)
            top = th;
        else
            lo = th;
        b->keep(data, c);
        if (same >= 3)
            same = 0;
    }
    *hi = top;
    return 0;
}
