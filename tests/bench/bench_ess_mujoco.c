/*
 * bench_ess_mujoco.c - the head-to-head (make bench): the ESS
 * integrator of hes against MuJoCo on the two models of the ESS paper
 * (the event-selected integrator paper, Sec. 5).  Built only when
 * configure found MuJoCo (Debian's libmujoco-dev); the hes side plugs in at
 * the HAVE_ESS hooks below (the table prints "-" for it until then).
 *
 * Both models are generated here as MJCF strings and loaded with mj_loadXML
 * from MuJoCo's virtual file system (no temporary file).  MuJoCo runs with
 * its defaults (time step 0.002 s, semi-implicit Euler, Newton solver).
 * hes runs its ESS integrator (lib/contact; integration steps by DOPRI5,
 * or by CVODES with the second argument "cvodes") on the built-in models
 * hopper-1d, plate-springs (hes_plate_springs_model(N), MuJoCo's contact
 * law: problems/plate_springs.c) and plate-vertical (the paper's plate,
 * hes_plate_vertical_model(N)) with the parameters below.
 *
 * How a MuJoCo contact becomes a linear spring-damper.  Every contact geom
 * has solimp = (d, d, 0.001) with d = 1e-4 (MuJoCo's smallest impedance,
 * constant in the penetration) and a "direct" solref = (-S, -B).  For such a
 * contact the solver returns the normal force
 *     f = (aref - a0) / (A + R),  aref = -(B v + S r) / d,  R = (1-d)/d Ahat,
 * (r the signed distance, negative in penetration, v its rate, a0 the
 * unconstrained acceleration, A the contact's inverse inertia, Ahat MuJoCo's
 * diagonal approximation of A, m->body_invweight0), so that as d -> 0
 *     f -> -(S r + B v) / Ahat,
 * independently of the other contacts (R dominates A).  The bench reads Ahat
 * from the compiled model and sets S = k Ahat, B = c Ahat, so the contact is
 * a spring of stiffness k and damper c on the penetration, up to O(d)
 * relative errors, and unilateral (MuJoCo keeps f >= 0).  Exactly, MuJoCo's
 * force is f = ((-(S r + B v)) - d a1) / ((1-d) Ahat) with a1 the contact's
 * actual acceleration: the O(d) rest is an added mass d/Ahat per active
 * contact along its normal.  The hopper's RMS error at time steps dt, dt/10,
 * dt/100 shows what is left of the difference when the time step goes to 0
 * (that floor is this O(d) term: it grows tenfold with d = 1e-3).
 *
 * a. 1-D hopper (Sec. 5.1, undamped): a body of mass m on a vertical slide
 *    joint (qpos = height y of the body), carrying a sphere "foot" of radius
 *    0.005 whose bottom is l0 below the body, over a ground plane at 0; the
 *    foot-ground contact is a spring k as above, so in stance
 *    y'' = -g + (k/m)(l0 - y) and in flight y'' = -g.  From rest at y0 over
 *    [0, T] at MuJoCo's time step: RMS of y - y_exact over every step, with
 *    y_exact the library's closed form hes_hopper_1d_exact() (ballistic
 *    flight, harmonic stance about l0 - m g/k, exact touchdown and liftoff
 *    times).  hes: the same RMS over the same times (MuJoCo's step grid, as
 *    output times of the ESS run); its accuracy knob eps is bisected (in
 *    log eps) until its RMS error equals MuJoCo's at MuJoCo's default step,
 *    with CVODES tolerances (HES_RTOL, HES_ATOL) small enough that the
 *    error is the projections' (the table shows hes's RMS at the calibrated
 *    eps and at eps / 10 and eps / 100, as MuJoCo's at dt / 10 and dt / 100).
 * b. Plate in SE(2) (Sec. 5.2): a plate of mass M, length L, inertia I (a
 *    box 1 m thick, so that no leg tunnels through it, whose bottom face
 *    passes through the centre of mass; joints: slide x, slide z, hinge theta
 *    about -y, so that the bottom face is at height z + (xi - x) tan(theta)
 *    above xi) falls onto N legs at xi evenly spaced over [-a, a].  Leg i is
 *    a roller: a sphere of radius rho = ROLLER fixed with its top at the rest
 *    length l0, frictionless (condim 1), so that the force is along the
 *    plate's normal; its spring-damper is k = K/N, c = C/N (the bed's total
 *    stiffness and damping do not change with N, so the motion, and MuJoCo's
 *    accuracy at its fixed step, stay comparable across N).  The law MuJoCo
 *    integrates (up to the O(d) terms above), for the ESS side to match:
 *    with q = (x, z, theta) and the penetration of leg i
 *        p_i(q) = rho - (z - l0 + rho) cos(theta) - (xi - x) sin(theta),
 *        diag(M, M, I) q'' = (0, -M g, 0)
 *                            - sum over p_i > 0 of max(0, k p_i + c p_i') grad p_i
 *    (-grad p_i is the plate's normal at the contact, in generalised
 *    coordinates); as rho -> 0, p_i tends to the vertical compression
 *    l0 - (z + (xi - x) tan theta) times cos(theta).  A roller's centre must
 *    stay outside the plate, hence rho larger than any compression: the bench
 *    checks it, and that the plate, which slides on the frictionless rollers,
 *    stays over every leg.
 * c. The ESS paper's plate (hes's plate-vertical, problems/plate_vertical.c:
 *    vertical legs at linspace(-0.5, 0.5, N) with point tips at height 0,
 *    M 1, I 0.1875, k = 2000/N, b = 10/N, not clamped) against MuJoCo's own
 *    soft contact at its default step (spheres of radius PV_TIP with their
 *    tops at 0, spring-dampers as above; one-sided, along the plate's
 *    normal: the table's models' gap says how far the two converged models
 *    are apart).
 * d. Each plate, N = 2 to 1000 (bench_plate): RUNS starts from rest,
 *    centred (x = 0), z - l0 and theta uniform in the plate's ranges, from a
 *    fixed seed, each simulated for T.  Per N: each engine's RMS z at NSAMP
 *    times against its own converged run (MuJoCo at dt / FINE_DT; hes at
 *    eps / FINE_EPS with rtol 1e-10, atol 1e-12, by CVODES whatever the
 *    method under test), median over the first ACC_RUNS starts; hes at its
 *    fastest eps among 2^k times the hopper's (k = -8 .. 6) whose median
 *    RMS is at most MuJoCo's; then ROUNDS rounds over all starts, MuJoCo and
 *    hes alternating start by start (interleaved), each timed on its
 *    simulation loop only (MuJoCo: reset, initial state, T/dt calls of
 *    mj_step; hes: one hes_ess_run with no samples, output times or
 *    Jacobian; models compiled and integrators made once per N); the
 *    median wall time per run, per contact, the least-squares slope of the
 *    time in N and the fitted exponent of the time in N; the median number
 *    of contacts at the end.
 * e. Printed: cores online, mj_version(), the hopper calibration (time step,
 *    RMS error), and per plate its table.
 *
 * Usage: bench_ess_mujoco [runs] [dopri5 | cvodes]   (runs: starts per N, 120)
 * Environment: BENCH_N=2,20,200 the numbers of legs (default 2 to 1000),
 * BENCH_PLATES=springs, vertical or both (default both), BENCH_ROUNDS the
 * interleaved rounds (default 5).  A quick run:
 *   BENCH_N=2,20,200 BENCH_ROUNDS=2 tests/bench/bench_ess_mujoco 10
 * With BENCH_CSV=DIR/NAME.csv it also writes each plate's table as
 * DIR/NAME-plate-vertical.csv and DIR/NAME-plate-springs.csv (N, both
 * median times, their ratio, both contact counts, eps, the RMS columns; '#'
 * lines with the slopes) for `hes plot ess-bench FILE -o OUT.png`.
 */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mujoco/mujoco.h>

/* The ESS integrator is part of libhes (lib/contact), which this program
   links: the hes engine below is always built. */
#define HAVE_ESS 1
#include "hes.h"

#include "bench_util.h"

/* ------------------------------------------------------------ the models */

typedef struct {
    double m, k, l0, g; /* mass (kg), leg stiffness (N/m), rest length (m), gravity */
    double y0, T;       /* initial height at rest (m), simulated time (s) */
} hopper_params;

static const hopper_params HOPPER = { 1.0, 1000.0, 1.0, 9.81, 1.5, 4.0 };

typedef struct {
    double M, L, I;     /* plate mass (kg), length (m), inertia about y (kg m^2) */
    double K, C;        /* total stiffness (N/m) and damping (N s/m) of the bed */
    double l0, a, g;    /* leg rest length, half width of the bed (m), gravity */
    double T;           /* simulated time (s) */
    double dz_lo, dz_hi, th_max; /* initial z - l0 in [dz_lo, dz_hi], |theta| <= th_max */
    double rho;         /* radius of MuJoCo's leg spheres, their tops at l0 (m) */
    double box;         /* half length of MuJoCo's plate geom (m; the inertia is L's) */
    int vertical;       /* hes's model: 0 plate-springs (rollers), 1 plate-vertical (the paper's) */
    const char *name;
    const char *about;  /* one line for the table's header */
} plate_params;

/* hes's own plate (plate-springs): rollers of radius 0.25, more than any
   compression, so that no roller's centre enters the plate (MuJoCo's
   sphere-box distance is then no longer the penetration) */
static const plate_params PLATE = {
    1.0, 6.0, 1.0 * 6.0 * 6.0 / 12.0, 1000.0, 30.0, 0.5, 1.0, 9.81, 2.0, 0.25, 0.5, 0.2,
    0.25, 3.0, 0, "plate-springs",
    "hes's own plate: M 1 kg, L 6 m, I 3 kg m^2, K 1000 N/m, C 30 N s/m (k = K/N, c = C/N per "
    "leg), legs over [-1, 1] m with rollers of radius 0.25 m whose tops are at l0 0.5 m; MuJoCo's "
    "legs the same rollers"
};

/* The ESS paper's plate (plate-vertical, Sec. 5.2): M 1, L 1.5, I 0.1875,
   K 2000, C 10, tips at height 0 over [-0.5, 0.5], z0 in [0.2, 0.5], 2 s.
   MuJoCo's legs are spheres of radius PV_TIP with their tops at 0: its
   contact is along the plate's normal, of depth pen_i cos(theta) - PV_TIP
   (1 - cos theta) + O(PV_TIP theta^2) instead of hes's vertical pen_i, and
   one-sided; the accuracy table's "models' gap" measures the difference.
   hes's plate is a line without ends on which the frictionless tips slide
   (by up to 0.4 m at N = 2), so MuJoCo's plate geom is 10 m long (its
   inertia is the 1.5 m rod's, from <inertial>). */
#define PV_TIP 0.1
static const plate_params PLATE_V = {
    1.0, 1.5, 0.1875, 2000.0, 10.0, 0.0, 0.5, 9.81, 2.0, 0.2, 0.5, 0.2,
    PV_TIP, 5.0, 1, "plate-vertical",
    "the ESS paper's plate (Sec. 5.2): M 1 kg, I 0.1875 kg m^2, K 2000 N/m, C 10 N s/m (k = K/N, "
    "b = C/N per leg), vertical legs over [-0.5, 0.5] m with point tips at l0 0 m; MuJoCo's legs "
    "spheres of radius 0.1 m with their tops at 0"
};

typedef struct {
    double x, z, theta; /* from rest */
} plate_ic;

/* the N of the plate being measured (BENCH_N=2,20,200 in the environment
   chooses them for both plates) */
#define MAXNN 32
static const int NS_SPRINGS[] = { 2, 5, 10, 20, 50, 100, 200, 500, 1000 };
static const int NS_VERTICAL[] = { 2, 5, 10, 20, 50, 100, 200, 500, 1000 };
static int NS[MAXNN], NN;
#define RUNS 120
#define SEED 20240612u

#define IMPEDANCE 1e-4   /* MuJoCo's smallest d (mjMINIMP) */
#define FOOT 0.005       /* radius of the hopper's foot (on a plane: any radius) */

/* --------------------------------------------- the hopper's closed form */

/* Height and velocity of the undamped 1-D hopper at time t from rest at
   p->y0 (hes_hopper_1d_exact: ballistic flight, harmonic stance about
   l0 - m g/k, exact touchdown and liftoff times). */
static void hopper_exact(const hopper_params *p, double t, double *y, double *v)
{
    double par[4] = { p->g, p->k, p->m, p->l0 }, x0[2] = { p->y0, 0 }, out[2];
    if (hes_hopper_1d_exact(par, t, x0, out) != HES_OK) {
        fprintf(stderr, "bench_ess_mujoco: hes_hopper_1d_exact refused t = %g\n", t);
        exit(1);
    }
    *y = out[0];
    *v = out[1];
}

/* ---------------------------------------------------------------- helpers */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* splitmix64: the initial conditions are the same on every machine */
static uint64_t rng_state = SEED;
static double uniform(double lo, double hi)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return lo + (hi - lo) * (double)(z >> 11) * 0x1.0p-53;
}


/* least-squares slope of y against x */
static double slope(const double *x, const double *y, int n)
{
    double mx = 0, my = 0, sxy = 0, sxx = 0;
    for (int i = 0; i < n; i++) {
        mx += x[i] / n;
        my += y[i] / n;
    }
    for (int i = 0; i < n; i++) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
    }
    return sxy / sxx;
}

/* a growing string for the MJCF text */
typedef struct {
    char *s;
    size_t len, cap;
} strbuf;

static void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(strbuf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            fprintf(stderr, "bench_ess_mujoco: vsnprintf failed\n");
            exit(1);
        }
        if (b->s && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = 2 * (b->cap + (size_t)n + 256);
        char *s = realloc(b->s, cap);
        if (!s) {
            fprintf(stderr, "bench_ess_mujoco: out of memory\n");
            exit(1);
        }
        b->s = s;
        b->cap = cap;
    }
}

/* ------------------------------------------------------------- the engines */

/* One integrator under test; a NULL function prints "-" in its column.
   Every function returns 0 on success. */
typedef struct {
    const char *name;
    /* 1-D hopper from rest at time step (or initial step) dt: RMS of y - y_exact
       over the engine's own samples in [0, T], and the wall time. */
    int (*hopper)(const hopper_params *p, double dt, double *rms, double *secs);
    /* match a target RMS error on the hopper (hes: bisection on eps at time
       step dt); the accuracy the plate runs use afterwards. */
    int (*calibrate)(const hopper_params *p, double dt, double target_rms, double *rms);
    /* the plate on N legs: build, run one initial condition (wall time of the
       simulation only, contacts at the end), free */
    void *(*plate_new)(const plate_params *p, int N);
    int (*plate_run)(void *model, const plate_params *p, const plate_ic *ic, double *secs, int *ncon);
    void (*plate_free)(void *model);
    /* the plate's (z, theta) at NSAMP evenly spaced times T / NSAMP, ..., T (zt: 2 NSAMP),
       at the bench's accuracy (fine 0) or at the engine's converged reference (fine 1:
       MuJoCo at dt / FINE_DT, hes at eps / FINE_EPS with tolerances 1e-10, 1e-12) */
    int (*plate_traj)(void *model, const plate_params *p, const plate_ic *ic, int fine, double *zt);
} bench_engine;

#define NSAMP 200        /* samples of the accuracy pass */
#define ACC_RUNS 10      /* starts per N of the accuracy pass (the first of the 120) */
#define FINE_DT 32
#define FINE_EPS 256

/* ---- MuJoCo */

static mjModel *mj_load_string(const char *name, const strbuf *xml)
{
    char err[1000] = "";
    mjVFS *vfs = malloc(sizeof *vfs); /* about 2 MB in MuJoCo 2.2: not on the stack */
    if (!vfs)
        return NULL;
    mj_defaultVFS(vfs);
    mjModel *m = NULL;
    if (mj_makeEmptyFileVFS(vfs, name, (int)xml->len) == 0) {
        int i = mj_findFileVFS(vfs, name);
        memcpy(vfs->filedata[i], xml->s, xml->len);
        m = mj_loadXML(name, vfs, err, (int)sizeof err);
        if (!m)
            fprintf(stderr, "bench_ess_mujoco: %s: %s\n", name, err);
    }
    mj_deleteVFS(vfs);
    free(vfs);
    return m;
}

/* Make every contact of geoms attached to body b a spring k, damper c (see the
   comment at the top): MuJoCo's force is -(S r + B v) / Ahat with Ahat the
   translational invweight0 of the moving body (the world's is 0). */
static void mj_spring_contacts(mjModel *m, int b, double k, double c)
{
    double Ahat = m->body_invweight0[2 * b];
    for (int g = 0; g < m->ngeom; g++) {
        m->geom_solref[2 * g] = -k * Ahat;
        m->geom_solref[2 * g + 1] = -c * Ahat;
    }
}

static mjModel *mj_hopper_model(const hopper_params *p)
{
    strbuf x = { 0 };
    sb_printf(&x,
              "<mujoco model=\"hopper-1d\">\n"
              "  <option gravity=\"0 0 %.17g\"/>\n"
              "  <default><geom condim=\"1\" solimp=\"%g %g 0.001\"/></default>\n"
              "  <worldbody>\n"
              "    <geom name=\"ground\" type=\"plane\" size=\"10 10 0.1\"/>\n"
              "    <body name=\"hopper\">\n"
              "      <joint name=\"y\" type=\"slide\" axis=\"0 0 1\"/>\n"
              "      <inertial pos=\"0 0 0\" mass=\"%.17g\" diaginertia=\"1 1 1\"/>\n"
              "      <geom name=\"foot\" type=\"sphere\" size=\"%g\" pos=\"0 0 %.17g\"/>\n"
              "    </body>\n"
              "  </worldbody>\n"
              "</mujoco>\n",
              -p->g, IMPEDANCE, IMPEDANCE, p->m, FOOT, -(p->l0 - FOOT));
    mjModel *m = mj_load_string("hopper.xml", &x);
    free(x.s);
    if (m)
        mj_spring_contacts(m, mj_name2id(m, mjOBJ_BODY, "hopper"), p->k, 0.0);
    return m;
}

static int mj_hopper(const hopper_params *p, double dt, double *rms, double *secs)
{
    mjModel *m = mj_hopper_model(p);
    if (!m)
        return -1;
    if (dt > 0)
        m->opt.timestep = dt;
    mjData *d = mj_makeData(m);
    long n = lround(p->T / m->opt.timestep);
    double sum = 0, t0 = now();
    d->qpos[0] = p->y0;
    d->qvel[0] = 0;
    for (long i = 0; i < n; i++) {
        double y, v;
        mj_step(m, d);
        hopper_exact(p, d->time, &y, &v);
        sum += (d->qpos[0] - y) * (d->qpos[0] - y);
    }
    *secs = now() - t0;
    *rms = sqrt(sum / (double)n);
    mj_deleteData(d);
    mj_deleteModel(m);
    return 0;
}

typedef struct {
    mjModel *m;
    mjData *d;
    int N;
    double maxpen;   /* deepest penetration seen (m) */
    double maxdrift; /* largest |x| seen (m) */
} mj_plate;

static void *mj_plate_new(const plate_params *p, int N)
{
    strbuf x = { 0 };
    sb_printf(&x,
              "<mujoco model=\"%s-%d\">\n"
              "  <option gravity=\"0 0 %.17g\"/>\n"
              "  <size njmax=\"%d\" nconmax=\"%d\"/>\n"
              "  <default><geom condim=\"1\" solimp=\"%g %g 0.001\"/></default>\n"
              "  <worldbody>\n",
              p->name, N, -p->g, N + 8, N + 8, IMPEDANCE, IMPEDANCE);
    for (int i = 0; i < N; i++)
        sb_printf(&x, "    <geom name=\"leg%d\" type=\"sphere\" size=\"%g\" pos=\"%.17g 0 %.17g\"/>\n", i,
                  p->rho, -p->a + 2.0 * p->a * i / (N - 1), p->l0 - p->rho);
    sb_printf(&x,
              "    <body name=\"plate\">\n"
              "      <joint name=\"x\" type=\"slide\" axis=\"1 0 0\"/>\n"
              "      <joint name=\"z\" type=\"slide\" axis=\"0 0 1\"/>\n"
              "      <joint name=\"theta\" type=\"hinge\" axis=\"0 -1 0\"/>\n"
              "      <inertial pos=\"0 0 0\" mass=\"%.17g\" diaginertia=\"%.17g %.17g %.17g\"/>\n"
              "      <geom name=\"plate\" type=\"box\" size=\"%.17g 0.1 0.5\" pos=\"0 0 0.5\"/>\n"
              "    </body>\n"
              "  </worldbody>\n"
              "</mujoco>\n",
              p->M, p->I, p->I, p->I, p->box);
    mj_plate *mp = calloc(1, sizeof *mp);
    mp->m = mj_load_string("plate.xml", &x);
    free(x.s);
    if (!mp->m) {
        free(mp);
        return NULL;
    }
    mj_spring_contacts(mp->m, mj_name2id(mp->m, mjOBJ_BODY, "plate"), p->K / N, p->C / N);
    mp->d = mj_makeData(mp->m);
    mp->N = N;
    return mp;
}

static int mj_plate_run(void *model, const plate_params *p, const plate_ic *ic, double *secs, int *ncon)
{
    mj_plate *mp = model;
    mjModel *m = mp->m;
    mjData *d = mp->d;
    long n = lround(p->T / m->opt.timestep);
    double t0 = now();
    mj_resetData(m, d);
    d->qpos[0] = ic->x;
    d->qpos[1] = ic->z;
    d->qpos[2] = ic->theta;
    for (long i = 0; i < n; i++)
        mj_step(m, d);
    *secs = now() - t0;
    *ncon = d->ncon;
    /* the same run again, untimed, checking that no roller's centre entered
       the plate (penetration < ROLLER) and that the plate stays over every leg */
    mj_resetData(m, d);
    d->qpos[0] = ic->x;
    d->qpos[1] = ic->z;
    d->qpos[2] = ic->theta;
    for (long i = 0; i < n; i++) {
        mj_step(m, d);
        for (int j = 0; j < d->nefc; j++)
            if (-d->efc_pos[j] > mp->maxpen)
                mp->maxpen = -d->efc_pos[j];
        if (fabs(d->qpos[0]) > mp->maxdrift)
            mp->maxdrift = fabs(d->qpos[0]);
    }
    if (mp->maxdrift + p->a + p->rho >= p->box * cos(p->th_max)) {
        fprintf(stderr, "bench_ess_mujoco: N = %d: the plate slid %g m: no longer over every leg\n", mp->N,
                mp->maxdrift);
        return -1;
    }
    if (mp->maxpen >= p->rho) {
        fprintf(stderr, "bench_ess_mujoco: N = %d: penetration %g m, more than the legs' radius\n", mp->N,
                mp->maxpen);
        return -1;
    }
    for (int w = 0; w < mjNWARNING; w++)
        if (d->warning[w].number) {
            fprintf(stderr, "bench_ess_mujoco: N = %d: MuJoCo warning %d (%d times)\n", mp->N, w,
                    d->warning[w].number);
            return -1;
        }
    return 0;
}

static int mj_plate_traj(void *model, const plate_params *p, const plate_ic *ic, int fine, double *zt)
{
    mj_plate *mp = model;
    mjModel *m = mp->m;
    mjData *d = mp->d;
    double dt0 = m->opt.timestep;
    m->opt.timestep = fine ? dt0 / FINE_DT : dt0;
    long n = lround(p->T / m->opt.timestep), every = n / NSAMP;
    int ok = n % NSAMP == 0;
    mj_resetData(m, d);
    d->qpos[0] = ic->x;
    d->qpos[1] = ic->z;
    d->qpos[2] = ic->theta;
    for (long i = 1; ok && i <= n; i++) {
        mj_step(m, d);
        if (i % every == 0) {
            zt[2 * (i / every - 1)] = d->qpos[1];
            zt[2 * (i / every - 1) + 1] = d->qpos[2];
        }
    }
    m->opt.timestep = dt0;
    return ok ? 0 : -1;
}

static void mj_plate_free(void *model)
{
    mj_plate *mp = model;
    mj_deleteData(mp->d);
    mj_deleteModel(mp->m);
    free(mp);
}

static const bench_engine mujoco_engine = {
    "MuJoCo", mj_hopper, NULL, mj_plate_new, mj_plate_run, mj_plate_free, mj_plate_traj,
};

/* ---- hes (the ESS integrator) */
#ifdef HAVE_ESS
/* tolerances of the ESS integration steps (either method): tight enough that the
   hopper's error at the calibrated eps is the projections' (the RMS at
   eps / 10 and eps / 100 shows it shrink as eps^2). */
#define HES_RTOL 1e-6
#define HES_ATOL 1e-8

static double hes_eps = 1e-3;   /* set by hes_calibrate */
/* the integration method (second argument: cvodes or dopri5, default dopri5) */
static hes_ess_method hes_method = HES_ESS_DOPRI5;

static void hes_opts(hes_ess_options *o)
{
    hes_ess_options_init(o);
    o->eps = hes_eps;
    o->rtol = HES_RTOL;
    o->atol = HES_ATOL;
    o->record = 0;
    o->jacobian = 0;
    o->near_miss = 1;   /* a leg the rocking plate nearly touches: root finding */
    o->method = hes_method;
}

/* RMS of y - y_exact at MuJoCo's step times dt, 2 dt, ... T (output times
   of one run), and the wall time of that run */
static int hes_hopper_eps(const hopper_params *p, double dt, double eps, double *rms, double *secs)
{
    hes_ess *e;
    if (hes_ess_new(hes_ess_problem_find("hopper-1d"), &e, NULL) != HES_OK)
        return -1;
    if (hes_ess_set_param(e, "g", p->g) || hes_ess_set_param(e, "k", p->k) ||
        hes_ess_set_param(e, "mass", p->m) || hes_ess_set_param(e, "l0", p->l0)) {
        hes_ess_destroy(e);
        return -1;
    }
    long n = lround(p->T / dt);
    double *tout = malloc(sizeof *tout * (size_t)n), x0[2] = { p->y0, 0 };
    for (long i = 0; i < n; i++)
        tout[i] = fmin((double)(i + 1) * dt, p->T);
    hes_ess_options o;
    double save = hes_eps;
    hes_eps = eps;
    hes_opts(&o);
    hes_eps = save;
    o.n_out = (int)n;
    o.t_out = tout;
    hes_ess_result r;
    double t0 = now();
    hes_status st = hes_ess_run(e, &o, 0, x0, p->T, &r);
    *secs = now() - t0;
    if (st != HES_OK)
        fprintf(stderr, "bench_ess_mujoco: hes hopper: %s\n", hes_ess_errmsg(e));
    double sum = 0;
    for (long i = 0; st == HES_OK && i < n; i++) {
        double y, v;
        hopper_exact(p, tout[i], &y, &v);
        sum += (r.x_out[2 * i] - y) * (r.x_out[2 * i] - y);
    }
    *rms = sqrt(sum / (double)n);
    hes_ess_result_free(&r);
    free(tout);
    hes_ess_destroy(e);
    return st == HES_OK ? 0 : -1;
}

static int hes_hopper(const hopper_params *p, double dt, double *rms, double *secs)
{
    return hes_hopper_eps(p, dt, hes_eps, rms, secs);
}

/* bisection on log eps: the RMS error grows with eps (as eps^2) */
static int hes_calibrate(const hopper_params *p, double dt, double target, double *rms)
{
    double lo = log(1e-7), hi = log(0.2), secs, r;
    if (hes_hopper_eps(p, dt, exp(hi), &r, &secs) || !(r > target)) {
        fprintf(stderr, "bench_ess_mujoco: hes's RMS error %g at eps %g is below the target %g\n", r,
                exp(hi), target);
        return -1;
    }
    if (hes_hopper_eps(p, dt, exp(lo), &r, &secs) || !(r < target)) {
        fprintf(stderr, "bench_ess_mujoco: hes's RMS error %g at eps %g is above the target %g\n", r,
                exp(lo), target);
        return -1;
    }
    for (int it = 0; it < 50 && hi - lo > 1e-4; it++) {
        double mid = 0.5 * (lo + hi);
        if (hes_hopper_eps(p, dt, exp(mid), &r, &secs))
            return -1;
        if (r > target)
            hi = mid;
        else
            lo = mid;
    }
    hes_eps = exp(lo);
    return hes_hopper_eps(p, dt, hes_eps, rms, &secs);
}

typedef struct {
    hes_ess_model *md;
    hes_ess *e;
    int N, vertical;
} hes_plate;

static void hes_plate_free(void *model)
{
    hes_plate *hp = model;
    hes_ess_destroy(hp->e);
    if (hp->vertical)
        hes_ess_model_destroy(hp->md);
    else
        hes_ess_model_destroy(hp->md);
    free(hp);
}

static void *hes_plate_new(const plate_params *p, int N)
{
    hes_plate *hp = calloc(1, sizeof *hp);
    if (!hp)
        return NULL;
    hp->N = N;
    hp->vertical = p->vertical;
    hp->md = p->vertical ? hes_plate_vertical_model(N) : hes_plate_springs_model(N);
    hes_error msg = {"out of memory"};
    if (!hp->md || hes_ess_new(hp->md, &hp->e, &msg) != HES_OK) {
        fprintf(stderr, "bench_ess_mujoco: hes plate N = %d: %s\n", N, msg.message);
        hes_plate_free(hp);
        return NULL;
    }
    const char *names[] = { "g", "mass", "inertia", "K", "C", "a", "l0", "rho" };
    double vals[] = { p->g, p->M, p->I, p->K, p->C, p->a, p->l0, p->rho };
    for (int k = 0; k < (p->vertical ? 6 : 8); k++)   /* the paper's plate: point tips at 0 */
        if (hes_ess_set_param(hp->e, names[k], vals[k]) != HES_OK) {
            fprintf(stderr, "bench_ess_mujoco: hes plate: %s\n", hes_ess_errmsg(hp->e));
            hes_plate_free(hp);
            return NULL;
        }
    return hp;
}

static int hes_plate_run(void *model, const plate_params *p, const plate_ic *ic, double *secs, int *ncon)
{
    hes_plate *hp = model;
    double x0[6] = { ic->x, ic->z, ic->theta, 0, 0, 0 };
    hes_ess_options o;
    hes_opts(&o);
    hes_ess_result r;
    double t0 = now();
    hes_status st = hes_ess_run(hp->e, &o, 0, x0, p->T, &r);
    *secs = now() - t0;
    *ncon = 0;
    for (int i = 0; st == HES_OK && i < hp->N; i++)
        *ncon += r.s_end[hp->vertical ? i : 2 * i] > 0; /* p_i > 0, as MuJoCo's ncon (its force may be 0) */
    if (st != HES_OK)
        fprintf(stderr, "bench_ess_mujoco: hes plate N = %d, z %g, theta %g: %s\n", hp->N, ic->z, ic->theta,
                hes_ess_errmsg(hp->e));
    hes_ess_result_free(&r);
    return st == HES_OK ? 0 : -1;
}

static int hes_plate_traj(void *model, const plate_params *p, const plate_ic *ic, int fine, double *zt)
{
    hes_plate *hp = model;
    double x0[6] = { ic->x, ic->z, ic->theta, 0, 0, 0 }, tout[NSAMP];
    for (int k = 0; k < NSAMP; k++)
        tout[k] = p->T * (k + 1) / NSAMP;
    hes_ess_options o;
    hes_opts(&o);
    if (fine) {
        o.eps /= FINE_EPS;
        o.rtol = 1e-10;
        o.atol = 1e-12;
        /* on the paper's plate the reference is CVODES's whatever the method
           under test, so that a skipped event of DOPRI5 cannot hide in it */
        if (hp->vertical)
            o.method = HES_ESS_CVODES;
    }
    o.n_out = NSAMP;
    o.t_out = tout;
    hes_ess_result r;
    hes_status st = hes_ess_run(hp->e, &o, 0, x0, p->T, &r);
    for (int k = 0; st == HES_OK && k < NSAMP; k++) {
        zt[2 * k] = r.x_out[6 * k + 1];
        zt[2 * k + 1] = r.x_out[6 * k + 2];
    }
    if (st != HES_OK)
        fprintf(stderr, "bench_ess_mujoco: hes plate N = %d (accuracy pass): %s\n", hp->N,
                hes_ess_errmsg(hp->e));
    hes_ess_result_free(&r);
    return st == HES_OK ? 0 : -1;
}

/* median over the accuracy starts of hes's RMS z against the references at eps */
static double hes_plate_rms(void *model, const plate_params *p, const plate_ic *ics, int acc_runs,
                            double refs[][2 * NSAMP], double eps)
{
    double e[ACC_RUNS], zt[2 * NSAMP], save = hes_eps;
    hes_eps = eps;
    for (int i = 0; i < acc_runs; i++) {
        double sum = 0;
        if (hes_plate_traj(model, p, &ics[i], 0, zt)) {
            hes_eps = save;
            return NAN;
        }
        for (int k = 0; k < NSAMP; k++)
            sum += (zt[2 * k] - refs[i][2 * k]) * (zt[2 * k] - refs[i][2 * k]);
        e[i] = sqrt(sum / NSAMP);
    }
    hes_eps = save;
    return bench_median(e, acc_runs);
}

/* hes's fastest eps at MuJoCo's plate accuracy: over eps = 2^k times the
   hopper's, k = -8 .. 6, those whose median RMS over the accuracy starts is
   at most `target`, the one whose median time over those starts is least
   (the ESS integrator is not fastest at its largest eps: a wide band holds
   many guards at once, and on the plate its error stops growing with eps
   long before MuJoCo's is reached).  0 with *eps_out and *rms_out, or -1
   when none reaches the target or a run fails. */
static int hes_plate_fastest(void *model, const plate_params *p, const plate_ic *ics,
                             int acc_runs, double refs[][2 * NSAMP], double target,
                             double *eps_out, double *rms_out)
{
    double save = hes_eps, best = HUGE_VAL, t[ACC_RUNS];
    int found = -1, nc;
    for (int k = -8; k <= 6; k++) {
        double eps = ldexp(save, k), r = hes_plate_rms(model, p, ics, acc_runs, refs, eps);
        if (!(r <= target))
            continue;
        hes_eps = eps;
        int i;
        for (i = 0; i < acc_runs; i++)
            if (hes_plate_run(model, p, &ics[i], &t[i], &nc))
                break;
        hes_eps = save;
        if (i < acc_runs)
            return -1;
        double tm = bench_median(t, acc_runs);
        if (tm < best) {
            best = tm;
            *eps_out = eps;
            *rms_out = r;
            found = 0;
        }
    }
    return found;
}

static const bench_engine hes_engine = {
    "hes", hes_hopper, hes_calibrate, hes_plate_new, hes_plate_run, hes_plate_free, hes_plate_traj,
};
#endif

/* -------------------------------------------------------------------- main */

static void cell(double x, const char *fmt)
{
    if (isnan(x))
        printf("%12s", "-");
    else
        printf(fmt, x);
}

/* The N list: BENCH_N (comma-separated, each from 2 to 5000, at most MAXNN)
   or the plate's default; 0 on success, -1 (with a message) on a bad list */
static int set_ns(const int *def, int n)
{
    const char *env = getenv("BENCH_N");
    NN = 0;
    if (!env || !*env) {
        for (NN = 0; NN < n; NN++)
            NS[NN] = def[NN];
        return 0;
    }
    for (const char *c = env; *c;) {
        char *end;
        long v = strtol(c, &end, 10);
        if (end == c || v < 2 || v > HES_PLATE_VERTICAL_MAX_N || NN == MAXNN ||
            (*end && *end != ',')) {
            fprintf(stderr, "bench_ess_mujoco: BENCH_N is a comma-separated list of at most %d "
                    "numbers of legs from 2 to %d\n", MAXNN, HES_PLATE_VERTICAL_MAX_N);
            return -1;
        }
        NS[NN++] = (int)v;
        c = *end ? end + 1 : end;
    }
    return 0;
}

#define ROUNDS 5   /* interleaved timing rounds (BENCH_ROUNDS) */

/* b. A plate against MuJoCo (either plate: P).  Per N: each engine's z
   against its own converged run (MuJoCo at dt / FINE_DT, hes at eps /
   FINE_EPS, rtol 1e-10, atol 1e-12, by CVODES whatever the method under
   test) over the first acc_runs starts, median RMS; hes at its fastest eps
   among 2^k times the hopper's (k = -8 .. 6) whose median RMS is at most
   MuJoCo's (hes_plate_fastest); then `rounds` rounds over all starts, each
   start run by MuJoCo then by hes (interleaved, so that a change in the
   machine's load falls on both), median wall time per run.  Also the time
   per contact (median / N), the least-squares slope of the time against N
   and the fitted exponent of the time in N (log-log least squares).  With
   csv, the table is written there too. */
static int bench_plate(const plate_params *P, const int *ns, int nns, int runs, int rounds,
                       const char *csv)
{
    if (set_ns(ns, nns))
        return -1;
    plate_ic *ics = malloc(sizeof *ics * (size_t)runs);
    double *th = malloc(sizeof *th * (size_t)(runs * rounds)),
           *tm = malloc(sizeof *tm * (size_t)(runs * rounds));
    FILE *f = csv ? fopen(csv, "w") : NULL;
    if (!ics || !th || !tm || (csv && !f)) {
        if (csv && !f)
            fprintf(stderr, "bench_ess_mujoco: could not write %s\n", csv);
        free(ics), free(th), free(tm);
        if (f)
            fclose(f);
        return -1;
    }
    rng_state = SEED;
    for (int i = 0; i < runs; i++) {
        ics[i].x = 0;
        ics[i].z = P->l0 + uniform(P->dz_lo, P->dz_hi);
        ics[i].theta = uniform(-P->th_max, P->th_max);
    }
    int acc_runs = runs < ACC_RUNS ? runs : ACC_RUNS;
    static double refs[ACC_RUNS][2 * NSAMP];
    printf("\n%s: %s;\nMuJoCo: its own soft contact at its default step; %d starts from rest, "
           "x 0, z - l0 in [%g, %g] m, theta in [%g, %g] rad (seed %u), %g s simulated; "
           "accuracy: RMS z (m) over %d samples against each engine's own converged run "
           "(MuJoCo dt / %d; hes eps / %d, rtol 1e-10), median over the first %d starts; hes at "
           "its fastest eps (2^k times the hopper's, k = -8 .. 6) with an RMS at most MuJoCo's; "
           "times: median wall seconds per run over %d interleaved rounds of all starts\n",
           P->name, P->about, runs, P->dz_lo, P->dz_hi, -P->th_max, P->th_max, SEED, P->T,
           NSAMP, FINE_DT, FINE_EPS, acc_runs, rounds);
    printf("%6s %11s %11s %11s %11s %11s %11s %10s %10s %11s %18s\n", "N", "eps", "hes RMS z",
           "MuJoCo RMS", "models' gap", "hes s", "MuJoCo s", "hes/MuJoCo", "hes us/N", "MuJoCo us/N",
           "contacts at the end");
    if (f)
        fprintf(f, "# ESS integrator (hes, %s) against MuJoCo %d: %s, %d starts, %d rounds, "
                "median wall seconds per run; %ld cores online\n"
                "N,hes_s,mujoco_s,ratio,hes_contacts,mujoco_contacts,eps,hes_rms_z,mujoco_rms_z,"
                "models_gap_z\n", hes_method == HES_ESS_DOPRI5 ? "DOPRI5" : "CVODES",
                mj_version(), P->name, runs, rounds, sysconf(_SC_NPROCESSORS_ONLN));
    double xn[MAXNN], yh[MAXNN], ym[MAXNN], lxn[MAXNN], lyh[MAXNN];
    int nh = 0;
    for (int j = 0; j < NN; j++) {
        int N = NS[j];
        double eps = NAN, rms_h = NAN, rms_m = NAN, gap = NAN, sh = NAN, sm = NAN;
        double ncon_h = NAN, ncon_m = NAN, *ch = malloc(sizeof *ch * (size_t)runs),
               *cm = malloc(sizeof *cm * (size_t)runs);
        void *mm = mujoco_engine.plate_new(P, N), *hm = hes_engine.plate_new(P, N);
        double em[ACC_RUNS], eg[ACC_RUNS];
        int ok = mm && hm && ch && cm;
        for (int i = 0; ok && i < acc_runs; i++) {
            double a[2 * NSAMP], b[2 * NSAMP], sa = 0, sg = 0;
            ok = !mujoco_engine.plate_traj(mm, P, &ics[i], 0, a) &&
                 !mujoco_engine.plate_traj(mm, P, &ics[i], 1, b) &&
                 !hes_engine.plate_traj(hm, P, &ics[i], 1, refs[i]);
            for (int k = 0; ok && k < NSAMP; k++) {
                sa += (a[2 * k] - b[2 * k]) * (a[2 * k] - b[2 * k]);
                sg += (b[2 * k] - refs[i][2 * k]) * (b[2 * k] - refs[i][2 * k]);
            }
            em[i] = sqrt(sa / NSAMP);
            eg[i] = sqrt(sg / NSAMP);
        }
        if (ok) {
            rms_m = bench_median(em, acc_runs);
            gap = bench_median(eg, acc_runs);
            if (hes_plate_fastest(hm, P, ics, acc_runs, refs, rms_m, &eps, &rms_h) < 0)
                eps = rms_h = NAN;
        }
        if (ok) {   /* interleaved timing; hes only at its chosen eps */
            double save = hes_eps;
            int nt = 0, okh = !isnan(eps), c;
            for (int r = 0; ok && r < rounds; r++)
                for (int i = 0; ok && i < runs; i++) {
                    ok = !mujoco_engine.plate_run(mm, P, &ics[i], &tm[nt], &c);
                    cm[i] = c;
                    if (okh) {
                        hes_eps = eps;
                        okh = !hes_engine.plate_run(hm, P, &ics[i], &th[nt], &c);
                        hes_eps = save;
                        ch[i] = c;
                    }
                    nt++;
                }
            if (ok)
                sm = bench_median(tm, nt), ncon_m = bench_median(cm, runs);
            if (ok && okh)
                sh = bench_median(th, nt), ncon_h = bench_median(ch, runs);
        }
        if (mm)
            mujoco_engine.plate_free(mm);
        if (hm)
            hes_engine.plate_free(hm);
        printf("%6d ", N);
        cell(eps, "%11.4e");
        printf(" ");
        cell(rms_h, "%11.3e");
        printf(" ");
        cell(rms_m, "%11.3e");
        printf(" ");
        cell(gap, "%11.3e");
        printf(" ");
        cell(sh, "%11.6f");
        printf(" ");
        cell(sm, "%11.6f");
        printf(" ");
        cell(sh / sm, "%10.3f");
        printf(" ");
        cell(sh / N * 1e6, "%10.2f");
        printf(" ");
        cell(sm / N * 1e6, "%11.2f");
        printf(" ");
        cell(ncon_h, "%5.0f");
        printf(" /");
        cell(ncon_m, "%5.0f");
        printf("\n");
        fflush(stdout);
        if (f)
            fprintf(f, "%d,%.9g,%.9g,%.6g,%.0f,%.0f,%.6g,%.6g,%.6g,%.6g\n", N, sh, sm, sh / sm,
                    ncon_h, ncon_m, eps, rms_h, rms_m, gap);
        free(ch);
        free(cm);
        if (!isnan(sh) && !isnan(sm)) {
            xn[nh] = N, yh[nh] = sh, ym[nh] = sm;
            lxn[nh] = log(N), lyh[nh] = log(sh);
            nh++;
        }
    }
    if (nh >= 2) {
        double lym[MAXNN];
        for (int j = 0; j < nh; j++)
            lym[j] = log(ym[j]);
        printf("marginal cost per contact (least-squares slope of the median time against N, the "
               "N where both ran): hes %.3f us/contact, MuJoCo %.3f us/contact; fitted exponent "
               "of the time in N: hes %.2f, MuJoCo %.2f\n",
               slope(xn, yh, nh) * 1e6, slope(xn, ym, nh) * 1e6, slope(lxn, lyh, nh),
               slope(lxn, lym, nh));
        if (f)
            fprintf(f, "# slope_us_per_contact hes %.6g mujoco %.6g exponent hes %.4g mujoco %.4g\n",
                    slope(xn, yh, nh) * 1e6, slope(xn, ym, nh) * 1e6, slope(lxn, lyh, nh),
                    slope(lxn, lym, nh));
    }
    int bad = f && (ferror(f) | (fclose(f) != 0));
    if (bad)
        fprintf(stderr, "bench_ess_mujoco: could not write %s\n", csv);
    else if (f)
        printf("table written to %s (hes plot ess-bench %s -o OUT.png)\n", csv, csv);
    free(ics);
    free(th);
    free(tm);
    return bad ? -1 : 0;
}

/* BENCH_CSV=DIR/NAME.csv: the table of plate `name` in DIR/NAME-name.csv
   (in buf); NULL without BENCH_CSV */
static const char *csv_name(const char *name, char *buf, size_t len)
{
    const char *csv = getenv("BENCH_CSV");
    if (!csv || !*csv)
        return NULL;
    size_t n = strlen(csv);
    if (n > 4 && strcmp(csv + n - 4, ".csv") == 0)
        n -= 4;
    snprintf(buf, len, "%.*s-%s.csv", (int)n, csv, name);
    return buf;
}

int main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : RUNS;
    if (runs < 1) {
        fprintf(stderr, "usage: %s [runs per N, default %d] [cvodes | dopri5 (default)]\n",
                argv[0], RUNS);
        return 2;
    }
#ifdef HAVE_ESS
    if (argc > 2) {
        if (strcmp(argv[2], "cvodes") == 0)
            hes_method = HES_ESS_CVODES;
        else if (strcmp(argv[2], "dopri5") != 0) {
            fprintf(stderr, "%s: the method is cvodes or dopri5, not '%s'\n", argv[0], argv[2]);
            return 2;
        }
    }
#endif
    const bench_engine *hes = NULL;
#ifdef HAVE_ESS
    hes = &hes_engine;
#endif

    printf("ESS integrator (hes) against MuJoCo %d (header %d): %ld cores online (both run serially)\n\n",
           mj_version(), mjVERSION_HEADER, sysconf(_SC_NPROCESSORS_ONLN));

    /* a. calibration */
    const hopper_params *hp = &HOPPER;
    printf("1-D hopper, undamped: m %g kg, k %g N/m, l0 %g m, g %g, from rest at y0 %g m over %g s\n", hp->m,
           hp->k, hp->l0, hp->g, hp->y0, hp->T);
    double rms, secs, dt = 0;
    {
        mjModel *m = mj_hopper_model(hp);
        if (!m)
            return 1;
        dt = m->opt.timestep;
        mj_deleteModel(m);
    }
    printf("%-10s %12s %14s %12s\n", "", "time step", "RMS error (m)", "seconds");
    for (int i = 0; i < 3; i++) {
        double h = dt / pow(10.0, i);
        if (mujoco_engine.hopper(hp, h, &rms, &secs))
            return 1;
        printf("%-10s %12g %14.6e %12.6f%s\n", "MuJoCo", h, rms, secs, i ? "" : "   (its default step)");
    }
    double target;
    if (mujoco_engine.hopper(hp, dt, &target, &secs))
        return 1;
    int calibrated = 0;
#ifdef HAVE_ESS
    if (hes && hes->calibrate(hp, dt, target, &rms) == 0 && hes->hopper(hp, dt, &rms, &secs) == 0) {
        calibrated = 1;
        printf("hes integration method: %s\n", hes_method == HES_ESS_DOPRI5 ? "DOPRI5" : "CVODES");
        printf("%-10s %12s %14s %12s %12s\n", "", "eps", "RMS error (m)", "seconds", "rtol, atol");
        printf("%-10s %12.6g %14.6e %12.6f %5g, %g   (calibrated: MuJoCo's RMS error at its default step)\n",
               "hes", hes_eps, rms, secs, HES_RTOL, HES_ATOL);
        for (int i = 1; i < 3; i++) {
            double e = hes_eps / pow(10.0, i);
            if (hes_hopper_eps(hp, dt, e, &rms, &secs) == 0)
                printf("%-10s %12.6g %14.6e %12.6f\n", "hes", e, rms, secs);
        }
    }
#endif
    if (!calibrated)
        printf("%-10s %12g %14s %12s   (hes's ESS integrator not built in: HAVE_ESS)\n", "hes", dt, "-", "-");

    const char *plates = getenv("BENCH_PLATES");
    int do_springs = !plates || !*plates || strstr(plates, "springs"),
        do_vertical = !plates || !*plates || strstr(plates, "vertical");
    const char *rs = getenv("BENCH_ROUNDS");
    int rounds = rs && *rs ? atoi(rs) : ROUNDS;
    if (rounds < 1 || (!do_springs && !do_vertical)) {
        fprintf(stderr, "%s: BENCH_ROUNDS is a positive number; BENCH_PLATES names springs, "
                "vertical or both\n", argv[0]);
        return 2;
    }
    char buf[4096];
    if (!calibrated)
        return 1;
    if (do_vertical && bench_plate(&PLATE_V, NS_VERTICAL, (int)(sizeof NS_VERTICAL /
                                   sizeof *NS_VERTICAL), runs, rounds,
                                   csv_name(PLATE_V.name, buf, sizeof buf)))
        return 1;
    if (do_springs && bench_plate(&PLATE, NS_SPRINGS, (int)(sizeof NS_SPRINGS /
                                  sizeof *NS_SPRINGS), runs, rounds,
                                  csv_name(PLATE.name, buf, sizeof buf)))
        return 1;
    return 0;
}
