/*
 * hopper_1d.c - the undamped 1-D hopper of the ESS integrator's paper
 * (the event-selected integrator paper, Sec. 5.1), an event-
 * selected system, and its closed-form solution.
 *
 * State (y, v): height and velocity.  Flight y'' = -g; stance (the spring
 * compressed, y < l0) y'' = -g + (k / mass)(l0 - y).  Event functions
 *   h_1 = l0 - y   touchdown, crossed going down: Dh_1 f = -v > 0 when v < 0
 *   h_2 = y - l0   liftoff, crossed going up:     Dh_2 f =  v > 0 when v > 0
 * The two guards are the same surface; the paper keeps both because each
 * is live only for one sign of v.  The field is stance for s = (+1, -1)
 * and flight otherwise ((+1, +1) and (-1, -1) only occur at y = l0, where
 * both fields agree).
 *
 * Closed form: parabolas above l0; below, harmonic oscillation about
 * y_s = l0 - mass g / k with omega = sqrt(k / mass): with u = y - y_s,
 * u(t) = u0 cos(omega t) + (v0 / omega) sin(omega t) = R cos(omega t - phi),
 * leaving stance where u = l0 - y_s rising; touchdown from (y0 >= l0, v0)
 * at t = (v0 + sqrt(v0^2 + 2 g (y0 - l0))) / g.
 */
#include <math.h>
#include <stddef.h>

#include "problems.h"

enum { P_G, P_K, P_MASS, P_L0 };

static const hes_param params[] = {
    { "g", 9.81, "m/s^2", "gravity", HES_PARAM_POSITIVE, 0, 1e3, 0, 0 },
    { "k", 1000.0, "N/m", "leg spring stiffness", HES_PARAM_POSITIVE, 0, 1e9, 0, 0 },
    { "mass", 1.0, "kg", "body mass", HES_PARAM_POSITIVE, 0, 1e6, 0, 0 },
    { "l0", 1.0, "m", "leg rest length", HES_PARAM_POSITIVE, 0, 1e3, 0, 0 },
};

/* states, events and the stance pattern, shared with hopper_pumped.c */
const char *const hes__hopper_state_names[2] = { "y", "v" };
const char *const hes__hopper_event_names[2] = { "touchdown", "liftoff" };

int hes__hopper_stance(const int *s) { return s[0] > 0 && s[1] < 0; }

static int field(const double *x, const int *s, const double *p, double *out, void *data)
{
    (void)data;
    out[0] = x[1];
    out[1] = -p[P_G] + (hes__hopper_stance(s) ? p[P_K] / p[P_MASS] * (p[P_L0] - x[0]) : 0.0);
    return 0;
}

static int field_dx(const double *x, const int *s, const double *p, double *out, void *data)
{
    (void)x; (void)data;
    out[0] = 0; out[1] = hes__hopper_stance(s) ? -p[P_K] / p[P_MASS] : 0.0;
    out[2] = 1; out[3] = 0;
    return 0;
}

/* touchdown and liftoff, shared with hopper_pumped.c (parameter 3 is l0 in
 * both) */
int hes__hopper_events(const double *x, const double *p, double *out, void *data)
{
    (void)data;
    out[0] = p[P_L0] - x[0];
    out[1] = x[0] - p[P_L0];
    return 0;
}

int hes__hopper_events_dx(const double *x, const double *p, double *out, void *data)
{
    (void)x; (void)p; (void)data;
    out[0] = -1; out[1] = 1;   /* column y */
    out[2] = 0;  out[3] = 0;   /* column v */
    return 0;
}

/* Energy bookkeeping: E = mass v^2 / 2 + mass g y, plus k (l0 - y)^2 / 2 in
 * stance (continuous where the leg touches down and lifts off, y = l0);
 * undamped, so P = 0 */
static int energy(const double *x, const int *s, const double *p, double *out, void *data)
{
    (void)data;
    double c = p[P_L0] - x[0];
    out[0] = 0.5 * p[P_MASS] * x[1] * x[1] + p[P_MASS] * p[P_G] * x[0] +
             (hes__hopper_stance(s) ? 0.5 * p[P_K] * c * c : 0.0);
    out[1] = 0;
    return 0;
}

const hes_ess_model hes__ess_problem_hopper_1d = {
    .name = "hopper-1d",
    .description = "undamped 1-D hopper: flight and a linear leg spring (ESS paper, Sec. 5.1)",
    .n = 2, .m = 2,
    .state_names = hes__hopper_state_names, .event_names = hes__hopper_event_names,
    .n_params = 4, .params = params,
    .f = field, .f_dx = field_dx, .h = hes__hopper_events, .Dh = hes__hopper_events_dx,
    .energy = energy,
};

hes_status hes_hopper_1d_exact(const double *p, double t, const double *x0, double *out)
{
    double def[4] = { params[0].value, params[1].value, params[2].value, params[3].value };
    if (!p)
        p = def;
    if (!x0 || !out || !(t >= 0) || !isfinite(t) || !isfinite(x0[0]) || !isfinite(x0[1]))
        return HES_EINVAL;
    for (int k = 0; k < 4; k++)
        if (!(p[k] > 0) || !isfinite(p[k]))
            return HES_EINVAL;
    double g = p[P_G], l0 = p[P_L0], w = sqrt(p[P_K] / p[P_MASS]);
    double ys = l0 - p[P_MASS] * g / p[P_K], c = l0 - ys;
    double y = x0[0], v = x0[1], left = t;
    for (long guard = 0; guard < 100000000L; guard++) {
        if (y > l0 || (y == l0 && v > 0)) {             /* flight */
            double tau = (v + sqrt(v * v + 2 * g * (y - l0))) / g;
            if (tau >= left) {
                out[0] = y + v * left - 0.5 * g * left * left;
                out[1] = v - g * left;
                return HES_OK;
            }
            v = -sqrt(v * v + 2 * g * (y - l0));       /* at touchdown, exactly */
            y = l0;
            left -= tau;
        } else {       /* stance (at y = l0 with v = 0 too: gravity starts compressing) */
            double u = y - ys, b = v / w, R = sqrt(u * u + b * b), phi = atan2(b, u);
            double tau = INFINITY;
            if (R > c) {     /* leaves stance at u = c rising: omega tau - phi = -acos(c / R) */
                double two_pi = 2 * M_PI;
                double th = fmod(phi - acos(c / R), two_pi);
                if (th <= 0)
                    th += two_pi;
                tau = th / w;
            }
            if (tau >= left) {
                out[0] = ys + u * cos(w * left) + b * sin(w * left);
                out[1] = -u * w * sin(w * left) + v * cos(w * left);
                return HES_OK;
            }
            v = w * sqrt(R * R - c * c);               /* at liftoff, exactly */
            y = l0;
            left -= tau;
        }
    }
    out[0] = y;
    out[1] = v;
    return HES_OK;
}
