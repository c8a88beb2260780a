/*
 * juggler_closed.h - the paddle juggler's clearance in closed form
 * (problems/paddle_juggler.c's comment): the ball leaves the paddle at t =
 * T/2 at height 0 with speed g T / 2, so s after the impact it is at x_B(s)
 * = (g T / 2) s - g s^2 / 2, s in (0, T), and the paddle at x_P(s) = -S +
 * S cos(w s) + C sin(w s), w = 2 pi / T, S = -paddle_accel / w^2, C = v* /
 * w, v* = g T (1 - alpha) / (2 (1 + alpha)).  The impact guard (crossed
 * downward) is the gap x_B - x_P; its interior minima found on a fine grid
 * refined by golden sections.  Shared by the suites that check grazing.
 */
#ifndef HES_JUGGLER_CLOSED_H
#define HES_JUGGLER_CLOSED_H

typedef struct {
    double alpha, g, T, acc;
} juggler;

/* The model's defaults at paddle_accel acc. */
juggler juggler_at(double acc);
/* The smallest interior local minimum of the gap over the open flight
 * (+INFINITY when there is none) and its s. */
double closed_form_margin(const juggler *j, double *s_min);
/* The paddle_accel where the closed form's margin crosses zero, by
 * bisection in [lo, hi] (margin > 0 or none at lo, < 0 at hi) to 1e-11. */
double grazing_accel(double lo, double hi);
/* The same at restitution alpha. */
double grazing_accel_at(double alpha, double lo, double hi);

#endif
