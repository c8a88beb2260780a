/*
 * hopper_pumped.c - a 1-D hopper with a stable hopping height, an event-
 * selected system for `hes analyze` of ESS periodic orbits: the
 * hopper of hopper_1d.c whose leg pumps energy in while in stance and whose
 * body loses it to air drag in flight.
 *
 * State (y, v).  Flight y'' = -g - (drag / mass) v; stance (y < l0)
 * y'' = -g + (k / mass)(l0 - y) + (pump / mass) v: a leg actuator with a
 * force proportional to the leg's extension rate (negative damping).  Event
 * functions as hopper-1d's: h_1 = l0 - y (touchdown), h_2 = y - l0
 * (liftoff); stance for s = (+1, -1).  The field jumps at touchdown and
 * liftoff (by (pump + drag) v / mass), so the saltation matrices are not
 * the identity.
 *
 * Why the orbit is isolated and stable.  Over a stance the pump adds
 * pump * int v^2 dt, which grows like the touchdown energy E (the stance
 * lasts about pi sqrt(mass / k) at any E); over a flight the drag takes
 * drag * int v^2 dt ~ E^(3/2) (the flight lasts ~ sqrt(E)).  The two balance
 * at one hopping height, and above it the loss wins.
 *
 * Liouville's formula gives the nontrivial multiplier in closed form from
 * the orbit's phase durations: the flow is planar, the trivial multiplier is
 * 1, so the other is det Phi = exp(int div f dt) times the saltation
 * determinants, which are g^T F+ / g^T F- = v / v = 1 for the guard
 * y - l0:  lambda = exp((pump t_stance - drag t_flight) / mass)
 * (tests/test_ess_orbit.c checks it).
 *
 * Orbit guess for `hes analyze`: the apex (section v = 0) at y = 1.55 and a
 * period of 0.78 s (a long simulation from y = 1.2 at rest settles there:
 * liftoff at 3.4905 m/s, period 0.7792 s, apex 1.556 m).
 */
#include <stddef.h>

#include "problems.h"

enum { P_G, P_K, P_MASS, P_L0, P_PUMP, P_DRAG };

static const hes_param params[] = {
    { "g", 9.81, "m/s^2", "gravity", HES_PARAM_POSITIVE, 0, 1e3, 0, 0 },
    { "k", 1000.0, "N/m", "leg spring stiffness", HES_PARAM_POSITIVE, 0, 1e9, 0, 0 },
    { "mass", 1.0, "kg", "body mass", HES_PARAM_POSITIVE, 0, 1e6, 0, 0 },
    { "l0", 1.0, "m", "leg rest length", HES_PARAM_POSITIVE, 0, 1e3, 0, 0 },
    { "pump", 2.0, "N s/m", "leg actuator gain: stance force pump * v", 0, -1e6, 1e6, 0, 0 },
    { "drag", 0.5, "N s/m", "air drag in flight: force -drag * v", 0, -1e6, 1e6, 0, 0 },
};


static int field(const double *x, const int *s, const double *p, double *out, void *data)
{
    (void)data;
    out[0] = x[1];
    out[1] = hes__hopper_stance(s)
                 ? -p[P_G] + (p[P_K] * (p[P_L0] - x[0]) + p[P_PUMP] * x[1]) / p[P_MASS]
                 : -p[P_G] - p[P_DRAG] * x[1] / p[P_MASS];
    return 0;
}

static int field_dx(const double *x, const int *s, const double *p, double *out, void *data)
{
    (void)x; (void)data;
    out[0] = 0;
    out[1] = hes__hopper_stance(s) ? -p[P_K] / p[P_MASS] : 0.0;
    out[2] = 1;
    out[3] = (hes__hopper_stance(s) ? p[P_PUMP] : -p[P_DRAG]) / p[P_MASS];
    return 0;
}

static const double orbit_x0[] = { 1.55, 0.0 };

const hes_ess_model hes__ess_problem_hopper_pumped = {
    .name = "hopper-pumped",
    .description = "1-D hopper, stance pump and flight drag: a stable hopping height "
                   "(an ESS periodic orbit)",
    .n = 2, .m = 2,
    .state_names = hes__hopper_state_names, .event_names = hes__hopper_event_names,
    .n_params = 6, .params = params,
    .f = field, .f_dx = field_dx, .h = hes__hopper_events, .Dh = hes__hopper_events_dx,
    .orbit_x0 = orbit_x0, .orbit_period = 0.78, .orbit_section = 1,
};
