/*
 * juggler_closed.c - the paddle juggler's clearance in closed form
 * (juggler_closed.h).
 */
#include <math.h>

#include "juggler_closed.h"

/* ------------------------------------------------- the juggler's closed form */

juggler juggler_at(double acc)
{
    juggler j = { 0.5, 9.81, 0.5, acc }; /* the model's defaults */
    return j;
}

/* The gap x_B - x_P at s after the impact. */
static double gap(const juggler *j, double s)
{
    double w = 2.0 * M_PI / j->T, vstar = j->g * j->T * (1.0 - j->alpha) / (2.0 * (1.0 + j->alpha));
    double S = -j->acc / (w * w), C = vstar / w;
    double xP = -S + S * cos(w * s) + C * sin(w * s);
    return j->g * j->T / 2.0 * s - j->g * s * s / 2.0 - xP;
}

/* The minimum of the gap in [a, b] by golden sections. */
static double golden_min(const juggler *j, double a, double b, double *s_min)
{
    const double r = (sqrt(5.0) - 1.0) / 2.0;
    double c = b - r * (b - a), d = a + r * (b - a), fc = gap(j, c), fd = gap(j, d);
    while (b - a > 1e-13) {
        if (fc < fd) {
            b = d; d = c; fd = fc;
            c = b - r * (b - a); fc = gap(j, c);
        } else {
            a = c; c = d; fc = fd;
            d = a + r * (b - a); fd = gap(j, d);
        }
    }
    *s_min = 0.5 * (a + b);
    return gap(j, *s_min);
}

/* The smallest interior local minimum of the gap over the open flight
 * (+INFINITY when there is none) and its s. */
double closed_form_margin(const juggler *j, double *s_min)
{
    enum { N = 20000 };
    double best = INFINITY, h = j->T / N;
    *s_min = NAN;
    for (int i = 1; i < N; i++) {
        double s = i * h, d = gap(j, s);
        if (d < gap(j, s - h) && d < gap(j, s + h)) {
            double sm, v = golden_min(j, s - h, s + h, &sm);
            if (v < best) {
                best = v;
                *s_min = sm;
            }
        }
    }
    return best;
}

/* The paddle_accel where the closed form's margin crosses zero, by bisection
 * in [lo, hi] (margin > 0 or none at lo, < 0 at hi). */
double grazing_accel(double lo, double hi)
{
    return grazing_accel_at(0.5, lo, hi);
}

double grazing_accel_at(double alpha, double lo, double hi)
{
    double s;
    while (hi - lo > 1e-11) {
        double mid = 0.5 * (lo + hi);
        juggler j = juggler_at(mid);
        j.alpha = alpha;
        if (closed_form_margin(&j, &s) > 0)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

