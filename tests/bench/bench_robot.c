/*
 * bench_robot.c - a robot model's analysis against its hand-written
 * equivalent (run by `make bench` when configure found MuJoCo): the knee
 * biped (share/robots/knee_biped.json against the built-in knee-biped)
 * and the rimless wheel (share/robots/rimless_wheel.json against the
 * hand-written model below, the same wheel), and alone the 3-D rimless
 * wheel on its free joint (share/robots/rimless_wheel_3d.json).  Each pair is timed
 * interleaved, one hes_analyze of each in turn, for about a second each;
 * prints the medians, their ratio and psi of both, which must agree (the
 * same orbit: 1e-8, or the benchmark fails).  The goal is a ratio of at
 * most 2; the benchmark fails above it.
 *
 * The hand-written wheel is rimless_wheel.xml's: hub mass m = 1, inertia
 * I = 0.1 about the axle, spokes l = 1, 2a = 0.6 apart, slope gamma =
 * 0.08, g = 9.81.  With theta the stance spoke's angle from the slope's
 * normal (downhill positive),
 *     (I + m l^2) theta'' = m g l sin(theta + gamma),
 * the next spoke lands at theta = a and the wheel restarts at theta = -a
 * with omega+ = rho omega-, rho = (I + m l^2 cos 2a) / (I + m l^2) (the
 * angular momentum about the landing foot is kept).  Every Jacobian in
 * closed form.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "hes.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ------------------------------------------------ the hand-written wheel */
#define W_M 1.0
#define W_I 0.1
#define W_L 1.0
#define W_A 0.3
#define W_GAMMA 0.08
#define W_G 9.81

static int wheel_field(double t, const double *x, const double *p, double *out, void *data)
{
    (void)t, (void)p, (void)data;
    out[0] = x[1];
    out[1] = W_M * W_G * W_L * sin(x[0] + W_GAMMA) / (W_I + W_M * W_L * W_L);
    return 0;
}

static int wheel_field_dx(double t, const double *x, const double *p, double *out, void *data)
{
    (void)t, (void)p, (void)data;
    out[0] = 0;
    out[1] = W_M * W_G * W_L * cos(x[0] + W_GAMMA) / (W_I + W_M * W_L * W_L);
    out[2] = 1;
    out[3] = 0;
    return 0;
}

static int wheel_guard(double t, const double *x, const double *p, double *out, void *data)
{
    (void)t, (void)p, (void)data;
    out[0] = x[0] - W_A;
    return 0;
}

static int wheel_guard_dx(double t, const double *x, const double *p, double *out, void *data)
{
    (void)t, (void)x, (void)p, (void)data;
    out[0] = 1;
    out[1] = 0;
    return 0;
}

static int zero(double t, const double *x, const double *p, double *out, void *data)
{
    (void)t, (void)x, (void)p, (void)data;
    out[0] = 0;
    out[1] = 0;
    return 0;
}

static double wheel_rho(void)
{
    return (W_I + W_M * W_L * W_L * cos(2 * W_A)) / (W_I + W_M * W_L * W_L);
}

static int wheel_reset(double t, const double *x, const double *p, double *out, void *data)
{
    (void)t, (void)p, (void)data;
    out[0] = -W_A;
    out[1] = wheel_rho() * x[1];
    return 0;
}

static int wheel_reset_dx(double t, const double *x, const double *p, double *out, void *data)
{
    (void)t, (void)x, (void)p, (void)data;
    out[0] = 0;
    out[1] = 0;
    out[2] = 0;
    out[3] = wheel_rho();
    return 0;
}

static int wheel_guess(double *p, double *x0, void *data)
{
    (void)p, (void)data;
    x0[0] = -W_A;
    x0[1] = 1.0;
    return 0;
}

static const char *const wheel_names[] = { "theta", "omega" };
static const hes_mode wheel_modes[] = {
    { .name = "stance", .dim = 2, .state_names = wheel_names, .field = wheel_field,
      .field_dx = wheel_field_dx },
};
static const hes_transition wheel_transitions[] = {
    { .name = "heelstrike", .from = 0, .to = 0, .direction = HES_UP, .guard = wheel_guard,
      .reset = wheel_reset, .guard_dx = wheel_guard_dx, .guard_dt = zero,
      .reset_dx = wheel_reset_dx, .reset_dt = zero },
};
static const int wheel_omega[] = { 1 }, wheel_sequence[] = { 0 };
static const hes_model wheel = {
    .abi = HES_MODEL_ABI,
    .name = "rimless-wheel-by-hand",
    .description = "rimless_wheel.xml's wheel, written by hand",
    .n_modes = 1, .modes = wheel_modes,
    .n_transitions = 1, .transitions = wheel_transitions,
    .orbit = { .mode = 0, .section = 0, .n_sequence = 1, .sequence = wheel_sequence,
               .n_free_states = 1, .free_states = wheel_omega, .n_residual = 1,
               .residual = wheel_omega, .guess = wheel_guess },
};

/* ------------------------------------------------------------ the timing */

/* One analysis; its psi in *psi.  Nonzero on failure. */
static int analyse(hes_system *sys, double *psi, const char *what)
{
    hes_analysis res;
    hes_status st = hes_analyze(sys, 0, &res);
    if (st != HES_OK) {
        fprintf(stderr, "bench_robot: %s: %s: %s\n", what, hes_strerror(st),
                hes_system_errmsg(sys));
        return 1;
    }
    *psi = res.stab.psi;
    hes_analysis_free(&res);
    return 0;
}

#define MAX_REPS 2000

/* The two systems' analyses, interleaved, for about `budget` seconds;
 * prints a row and returns 0 when psi agrees and the ratio meets the goal,
 * 1 when it does not, 2 on failure. */
static int pair(const char *name, hes_system *robot, hes_system *hand, double budget)
{
    static double tr[MAX_REPS], th[MAX_REPS];
    double psi_r = 0, psi_h = 0, start = now();
    int n = 0;
    /* one of each first: warm caches, pools and the orbit guesses */
    if (analyse(robot, &psi_r, name) || analyse(hand, &psi_h, name))
        return 2;
    while (n < MAX_REPS && (n < 5 || now() - start < budget)) {
        double t0 = now();
        if (analyse(robot, &psi_r, name))
            return 2;
        double t1 = now();
        if (analyse(hand, &psi_h, name))
            return 2;
        tr[n] = t1 - t0;
        th[n] = now() - t1;
        n++;
    }
    double mr = bench_median(tr, n), mh = bench_median(th, n), ratio = mr / mh;
    int same = fabs(psi_r - psi_h) < 1e-8;
    printf("%-12s %6d %14.3f %14.3f %8.2f %16.12f %16.12f%s\n", name, n, mr * 1e3, mh * 1e3,
           ratio, psi_r, psi_h, same ? "" : "  (psi differs)");
    return !same ? 2 : ratio > 2.0;
}

/* A 3-D floating-base analysis without a hand-written twin: the 3-D
 * rimless wheel (free joint, eight held modes, the quotient by x and y),
 * its median time for about `budget` seconds, psi and the smallest
 * multiplier against the planar closed form ((I + l^2 cos 2a) / (I +
 * l^2))^16 (I = 0.5, 2a = pi / 4).  Nonzero on failure. */
static int alone(const char *name, hes_system *sys, double budget)
{
    static double t[MAX_REPS];
    double start = now(), psi = 0;
    int n = 0;
    if (analyse(sys, &psi, name))
        return 2;
    while (n < MAX_REPS && (n < 5 || now() - start < budget)) {
        double t0 = now();
        if (analyse(sys, &psi, name))
            return 2;
        t[n++] = now() - t0;
    }
    hes_analysis res;
    if (hes_analyze(sys, 0, &res) != HES_OK)
        return 2;
    double low = INFINITY, c = (0.5 + cos(M_PI / 4)) / 1.5;
    for (int k = 0; k < res.stab.n_mult; k++)
        low = fmin(low, hypot(res.stab.re[k], res.stab.im[k]));
    hes_analysis_free(&res);
    printf("%-12s %6d %14.3f %14s %8s %16.12f   smallest |lambda| %.12f, closed form %.12f\n",
           name, n, bench_median(t, n) * 1e3, "-", "-", psi, low, pow(c, 16));
    return 0;
}

/* The quadruped's trot (81 modes, 12 events a period, slips and
 * lift-offs): one analysis from its description's guess, its time and psi
 * (each simulation's wall-time budget raised to 600 s: one period with
 * sensitivities takes tens of seconds).  Nonzero on failure. */
static int trot(hes_system *sys)
{
    hes_settings s = hes_system_get_settings(sys);
    s.max_wall_time = 600;
    s.max_search_time = 3600;
    double psi = 0, t0 = now();
    if (hes_system_set_settings(sys, &s) != HES_OK || analyse(sys, &psi, "trot"))
        return 2;
    printf("%-12s %6d %14.3f %14s %8s %16.12f   one analysis, from the description's guess\n",
           "trot", 1, (now() - t0) * 1e3, "-", "-", psi);
    return 0;
}

static hes_system *robot_system(const char *srcdir, const char *file, hes_model **model)
{
    char path[4096];
    hes_error err;
    hes_system *sys = NULL;
    snprintf(path, sizeof path, "%s/share/robots/%s", srcdir, file);
    if (hes_robot_model_read(path, model, &err) != HES_OK) {
        fprintf(stderr, "bench_robot: %s: %s\n", path, err.message);
        return NULL;
    }
    if (hes_system_new(*model, &sys, &err) != HES_OK) {
        fprintf(stderr, "bench_robot: %s: %s\n", path, err.message);
        return NULL;
    }
    return sys;
}

int main(void)
{
    const char *srcdir = getenv("srcdir") ? getenv("srcdir") : ".";
    double budget = getenv("BENCH_SECONDS") ? atof(getenv("BENCH_SECONDS")) : 1.0;
    hes_model *kb_model = NULL, *rw_model = NULL;
    hes_system *kb_robot = robot_system(srcdir, "knee_biped.json", &kb_model);
    hes_system *rw_robot = robot_system(srcdir, "rimless_wheel.json", &rw_model);
    hes_system *kb_hand = NULL, *rw_hand = NULL;
    const hes_model *kb = hes_problem_find("knee-biped");
    if (!kb_robot || !rw_robot || !kb || hes_system_new(kb, &kb_hand, NULL) != HES_OK ||
        hes_system_new(&wheel, &rw_hand, NULL) != HES_OK)
        return 2;
    printf("robot models against hand-written ones: one analysis (hes_analyze, no check), "
           "%ld cores, medians of interleaved runs\n", sysconf(_SC_NPROCESSORS_ONLN));
    printf("%-12s %6s %14s %14s %8s %16s %16s\n", "model", "runs", "robot ms", "by hand ms",
           "ratio", "psi robot", "psi by hand");
    int rc = pair("knee biped", kb_robot, kb_hand, budget);
    int rc2 = pair("rimless wheel", rw_robot, rw_hand, budget);
    hes_model *w3_model = NULL;
    hes_system *w3 = robot_system(srcdir, "rimless_wheel_3d.json", &w3_model);
    int rc3 = w3 ? alone("3-D wheel", w3, budget) : 2;
    hes_system_destroy(w3);
    hes_model_destroy(w3_model);
    hes_model *tr_model = NULL;
    hes_system *tr = robot_system(srcdir, "quadruped_trot.json", &tr_model);
    int rc4 = tr ? trot(tr) : 2;
    hes_system_destroy(tr);
    hes_model_destroy(tr_model);
    printf("goal: a ratio of at most 2 (closed form of the wheel's psi: %.12f)\n",
           wheel_rho() * wheel_rho());
    hes_system_destroy(kb_robot);
    hes_system_destroy(rw_robot);
    hes_system_destroy(kb_hand);
    hes_system_destroy(rw_hand);
    hes_model_destroy(kb_model);
    hes_model_destroy(rw_model);
    if (rc == 2 || rc2 == 2 || rc3 == 2 || rc4 == 2)
        return 2;
    if (rc || rc2)
        fprintf(stderr, "bench_robot: a robot model's analysis takes more than twice its "
                        "hand-written equivalent's\n");
    return rc || rc2;
}
