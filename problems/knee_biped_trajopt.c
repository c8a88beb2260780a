/*
 * knee_biped_trajopt.c - the knee biped's trajectory-optimisation problem
 * (hes trajopt knee-biped): the motors' torques as inputs with their
 * bounds, the state after heelstrike, the period's range, virtual events,
 * and the path constraints below.
 */
#include <math.h>

#include "knee_biped.h"

/* Path constraints (>= 0): the swing foot's height above the ground line,
 * n.r with n.e(th) = cos(th + slope); in the unlocked phase the knee angle
 * th2 - th3 (no hyperextension); in the locked phase the swing leg ahead of
 * the stance leg, th2 - th1: a straight swing leg cannot pass the stance
 * leg without its foot going through the ground (the height
 * 2 L sin((th1+th2)/2 + s) sin((th2-th1)/2) changes sign there), which node
 * checks of the height alone can step over. */
static int foot_unlocked(double t, const double *x, const double *p, double *out, void *d)
{
    geometry G = hes__knee_biped_geom(p);
    double s = p[P_SLOPE];
    (void)t; (void)d;
    out[0] = G.L * cos(x[0] + s) - G.lt * cos(x[1] + s) - G.ls * cos(x[2] + s);
    return 0;
}

static int knee_unlocked(double t, const double *x, const double *p, double *out, void *d)
{
    (void)t; (void)p; (void)d;
    out[0] = x[1] - x[2];
    return 0;
}

static int foot_locked(double t, const double *x, const double *p, double *out, void *d)
{
    geometry G = hes__knee_biped_geom(p);
    double s = p[P_SLOPE];
    (void)t; (void)d;
    out[0] = G.L * (cos(x[0] + s) - cos(x[1] + s));
    return 0;
}

static int ahead_locked(double t, const double *x, const double *p, double *out, void *d)
{
    (void)t; (void)p; (void)d;
    out[0] = x[1] - x[0];
    return 0;
}

static const char *const foot_name[] = { "swing_foot_height" };
static const char *const knee_name[] = { "knee_angle" };
static const char *const ahead_name[] = { "swing_leg_ahead" };
/* at kneestrike the foot height and at heelstrike the leg order are checked
 * too; the knee angle at kneestrike and the height at heelstrike are the
 * events' own guards */
static const hes_path_constraint paths[] = {
    { M_UNLOCKED, 1, foot_name, foot_unlocked, 1 },
    { M_UNLOCKED, 1, knee_name, knee_unlocked, 0 },
    { M_LOCKED, 1, foot_name, foot_locked, 0 },
    { M_LOCKED, 1, ahead_name, ahead_locked, 1 },
};
static const char *const inputs[] = { "hip_torque", "knee_torque", "ankle_torque" };
static const double input_lo[] = { -10, -10, -10 }, input_hi[] = { 10, 10, 10 };
/* The state just after heelstrike: the stance leg 0.2 rad ahead of the
 * vertical (a step of 2 L sin 0.2 = 0.397 m) turning at -1.1 rad/s, so
 * that gaits made with different costs walk the same step at the same
 * speed and their energies compare; the other states bounded loosely.
 * (Left free, the minimum-energy gait takes the shortest, slowest step
 * the bounds allow.) */
static const double x0_lo[] = { 0.2, -0.6, -0.6, -1.1, -3.0, -3.0 };
static const double x0_hi[] = { 0.2, 0.0, 0.0, -1.1, 3.0, 3.0 };
static const int virtual_default[] = { 5, 2 };   /* unlocked (before kneestrike), locked */

const hes_trajopt_spec hes__knee_biped_trajopt = {
    .n_inputs = 3,
    .inputs = inputs,
    .input_lo = input_lo,
    .input_hi = input_hi,
    .x0_lo = x0_lo,
    .x0_hi = x0_hi,
    .min_duration = 0.005,
    .max_duration = 2.0,
    .n_path = 4,
    .path = paths,
    .virtual_events = virtual_default,
    .min_crossing_rate = 0.05,     /* rad/s at kneestrike, m/s at heelstrike */
};
