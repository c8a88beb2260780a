/*
 * ball_walls.c - how to write an event-selected system (ESS) for hes, as a
 * complete program and as a plugin: a ball bouncing between two soft walls,
 * pumped while in contact and slowed by drag in between.  Its bouncing orbit
 * is stable, and its multiplier has a closed form that the program checks
 * against hes_ess_orbit_find().
 *
 * Model: state (x, v) of a ball of mass m between walls at -w and +w; a wall
 * is a spring k with a pump c (a force c v along the motion: energy in),
 * and between the walls a cubic drag -d v^3 (energy out):
 *   free:        m v' = -d v^3
 *   left wall:   m v' =  k (-w - x) + c v     (while x < -w)
 *   right wall:  m v' = -k (x - w)   + c v    (while x > w)
 * Event functions, each crossed from negative to positive (ESS):
 *   h0 = -w - x  "left in",   h1 = x + w  "left out",
 *   h2 = x - w   "right in",  h3 = w - x  "right out";
 * in contact with the left wall when s0 = +1 and s1 = -1, the right one
 * when s2 = +1 and s3 = -1.  The field depends on the state through s only:
 * an event-selected system.
 *
 * Closed form.  In contact the penetration p obeys p'' = -(k/m) p + (c/m) p',
 * an oscillator with negative damping: a contact lasts t_c = pi / w_d,
 * w_d = sqrt(k/m - (c/2m)^2), and multiplies the speed by G = exp(c t_c / 2m).
 * Across the gap dv/dx = -(d/m) v^2, so 1/v grows by beta = 2 w d / m: a
 * ball that leaves a wall at speed u arrives at the other at u / (1 + beta u).
 * The speed at arrival obeys a -> G a / (1 + beta G a): a stable fixed point
 * a* = (G - 1) / (beta G) with slope 1 / G per half period, so the bouncing
 * orbit's nontrivial multiplier is 1 / G^2, and its period
 * T = 2 t_c + 2 (2 w / u + 2 (d/m) w^2) with u = G a*.
 *
 * Build and run against the installed library:
 *     cc ball_walls.c $(pkg-config --cflags --libs hes) -lm -o ball_walls
 *     ./ball_walls            (exit status 0 when hes matches the closed form)
 * Or as a plugin for the hes program:
 *     cc -shared -fPIC -DHES_PLUGIN ball_walls.c $(pkg-config --cflags hes) \
 *        -o ball_walls.so
 *     hes analyze --model ./ball_walls.so
 *     hes simulate --model ./ball_walls.so --x0 0,4 --time 2
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <hes.h>

enum { P_M, P_K, P_W, P_PUMP, P_DRAG };

static const hes_param params[] = {
    /* name, default, unit, description, flags, min, max, search range */
    { "m", 1.0, "kg", "ball mass", HES_PARAM_POSITIVE, 0, 1e6, 0, 0 },
    { "k", 1000.0, "N/m", "wall stiffness", HES_PARAM_POSITIVE, 0, 1e9, 0, 0 },
    { "w", 0.5, "m", "half the distance between the walls", HES_PARAM_POSITIVE, 0, 1e3, 0, 0 },
    { "pump", 10.0, "N s/m", "wall pump: force pump * v in contact", 0, 0, 1e6, 0, 0 },
    { "drag", 0.1, "N s^3/m^3", "cubic drag between the walls: force -drag * v^3", 0, 0, 1e6,
      0, 0 },
};
static const char *const states[] = { "x", "v" };
static const char *const events[] = { "left in", "left out", "right in", "right out" };

/* f(x, s): the field of the contact pattern s */
static int field(const double *x, const int *s, const double *p, double *out, void *data)
{
    (void)data;
    double F;
    if (s[0] > 0 && s[1] < 0)
        F = p[P_K] * (-p[P_W] - x[0]) + p[P_PUMP] * x[1];
    else if (s[2] > 0 && s[3] < 0)
        F = -p[P_K] * (x[0] - p[P_W]) + p[P_PUMP] * x[1];
    else
        F = -p[P_DRAG] * x[1] * x[1] * x[1];
    out[0] = x[1];
    out[1] = F / p[P_M];
    return 0;
}

static int guards(const double *x, const double *p, double *out, void *data)
{
    (void)data;
    out[0] = -p[P_W] - x[0];
    out[1] = x[0] + p[P_W];
    out[2] = x[0] - p[P_W];
    out[3] = p[P_W] - x[0];
    return 0;
}

/* Dh: m x n (4 x 2), column-major.  (f_dx is optional: left NULL, hes
 * differentiates f by central differences.) */
static int guards_dx(const double *x, const double *p, double *out, void *data)
{
    (void)x; (void)p; (void)data;
    out[0] = -1; out[1] = 1; out[2] = 1; out[3] = -1;   /* d/dx */
    out[4] = 0;  out[5] = 0; out[6] = 0; out[7] = 0;    /* d/dv */
    return 0;
}

/* the orbit's guess: the centre (section x = 0) moving right at 4.93 m/s,
 * period 0.607 s (the closed form above at the default parameters) */
static const double orbit_x0[] = { 0.0, 4.93 };

static const hes_ess_model ball_walls = {
    .name = "ball-walls",
    .description = "a ball between two soft pumping walls with cubic drag (ESS example)",
    .n = 2, .m = 4, .state_names = states, .event_names = events,
    .n_params = 5, .params = params,
    .f = field, .f_dx = NULL, .h = guards, .Dh = guards_dx,
    .orbit_x0 = orbit_x0, .orbit_period = 0.607, .orbit_section = 0,
};

#ifdef HES_PLUGIN
/* Built as a plugin (-DHES_PLUGIN, a shared module): the entry point the
 * hes program looks for, which also says which ESS model ABI this file
 * was compiled with. */
const hes_ess_model *hes_plugin_ess_model(int *abi);
const hes_ess_model *hes_plugin_ess_model(int *abi)
{
#ifdef BALL_ABI
    *abi = BALL_ABI;   /* the test suite's builds for other ABIs */
#else
    *abi = HES_ESS_MODEL_ABI;
#endif
    return &ball_walls;
}
#else
int main(void)
{
    const double *p0 = NULL;
    hes_ess *ess;
    hes_error msg;
    if (hes_ess_new(&ball_walls, &ess, &msg) != HES_OK) {
        fprintf(stderr, "ball_walls: %s\n", msg.message);
        return 1;
    }
    p0 = hes_ess_params(ess);
    double m = p0[P_M], k = p0[P_K], w = p0[P_W], c = p0[P_PUMP], d = p0[P_DRAG];
    double tc = M_PI / sqrt(k / m - (c / (2 * m)) * (c / (2 * m)));
    double G = exp(c * tc / (2 * m)), beta = 2 * w * d / m, a = (G - 1) / (beta * G);
    double u = G * a, T = 2 * tc + 2 * (2 * w / u + 2 * d / m * w * w), lambda = 1 / (G * G);

    hes_ess_orbit_options o;
    hes_ess_orbit_options_init(&o);
    o.ess.eps = 1e-4;
    o.ess.rtol = 1e-10;
    o.ess.atol = 1e-12;
    o.section = ball_walls.orbit_section;
    hes_ess_orbit orb;
    hes_status st = hes_ess_orbit_find(ess, &o, ball_walls.orbit_x0, ball_walls.orbit_period,
                                       &orb);
    if (st != HES_OK) {
        fprintf(stderr, "ball_walls: %s: %s\n", hes_strerror(st), hes_ess_errmsg(ess));
        hes_ess_orbit_free(&orb);
        hes_ess_destroy(ess);
        return 1;
    }
    printf("closed form: period %.10f, multiplier %.10f\n", T, lambda);
    printf("hes (ESS, eps 1e-4): period %.10f, psi %.10f (+- %.2g, %s)\n", orb.period,
           orb.stab.psi, orb.stab.psi_tol, hes_verdict_name(orb.stab.verdict));
    int ok = fabs(orb.period - T) < 1e-5 && fabs(orb.stab.psi - lambda) < 1e-5 &&
             orb.stab.verdict == HES_STABLE;
    printf("%s\n", ok ? "agree" : "DISAGREE");
    hes_ess_orbit_free(&orb);
    hes_ess_destroy(ess);
    return ok ? 0 : 1;
}
#endif
