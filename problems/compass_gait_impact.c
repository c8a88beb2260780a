/*
 * compass_gait_impact.c - the paper's compass gait taking a wide step
 * (Halm & Posa, set-valued simultaneous impacts, Fig. 4, Sec. 5.4.2,
 * Table 5; the authors' Results.m, CompassGait): legs of length 1 hinged
 * at a massless hip, a point mass 1 at the middle of each leg, friction 5,
 * the legs at -78 and +78 degrees from the vertical with both feet on the
 * ground, the stance (trailing) foot at rest and the leading foot landing.
 *
 * q = (x, y, theta_L, theta_T): the hip and the legs' angles from the
 * downward vertical (foot_i = (x + l sin theta_i, y - l cos theta_i)).
 * The masses at (x + l/2 sin theta_i, y - l/2 cos theta_i) give
 *     M = sum_i m J_i^T J_i,  J_i = [1 0 (l/2) cos theta_i; 0 1 (l/2) sin theta_i]
 * (theta_i's column).  Contacts: A, the leading foot; B, the trailing one,
 * both on the floor: a_i = y - l cos theta_i, J_t,i = (1, 0, l cos theta_i).
 * Pre-impact: every angle turns at theta' = 1/4 rad/s, the hip moving so
 * that B is at rest, so A lands at 2 l sin(78 deg) / 4 = 0.489 m/s.
 * Anitescu-Potra has A stick; the set has B slide, stick and lift off
 * (Fig. 11).  The authors' outcome-set parameters: h = theta' = 0.25,
 * N = 5 (their set: 2^20 samples).
 */
#include <math.h>

#include "problems.h"

#define L 1.0
#define MASS 1.0
#define MU 5.0
#define PHI (78 * M_PI / 180)
#define DPHI 0.25

static int mass(const double *q, const double *p, double *out, void *data)
{
    (void)p, (void)data;
    for (int i = 0; i < 16; i++)
        out[i] = 0;
    out[0] = out[5] = 2 * MASS;
    for (int i = 0; i < 2; i++) {
        int c = 2 + i;
        double cx = MASS * L / 2 * cos(q[c]), sy = MASS * L / 2 * sin(q[c]);
        out[0 + 4 * c] = out[c + 0] = cx;
        out[1 + 4 * c] = out[c + 4] = sy;
        out[c + 4 * c] = MASS * L * L / 4;
    }
    return 0;
}

static int foot(const double *q, int i, double *a, double *Da, double *Jt)
{
    int c = 2 + i;
    if (a)
        *a = q[1] - L * cos(q[c]);
    for (int j = 0; j < 4 && Da; j++)
        Da[j] = j == 1 ? 1 : j == c ? L * sin(q[c]) : 0;
    for (int j = 0; j < 4 && Jt; j++)
        Jt[j] = j == 0 ? 1 : j == c ? L * cos(q[c]) : 0;
    return 0;
}

static int a_A(const double *q, const double *p, double *out, void *data)
{
    (void)p, (void)data;
    return foot(q, 0, out, NULL, NULL);
}
static int Da_A(const double *q, const double *p, double *out, void *data)
{
    (void)p, (void)data;
    return foot(q, 0, NULL, out, NULL);
}
static int Jt_A(const double *q, const double *p, double *out, void *data)
{
    (void)p, (void)data;
    return foot(q, 0, NULL, NULL, out);
}
static int a_B(const double *q, const double *p, double *out, void *data)
{
    (void)p, (void)data;
    return foot(q, 1, out, NULL, NULL);
}
static int Da_B(const double *q, const double *p, double *out, void *data)
{
    (void)p, (void)data;
    return foot(q, 1, NULL, out, NULL);
}
static int Jt_B(const double *q, const double *p, double *out, void *data)
{
    (void)p, (void)data;
    return foot(q, 1, NULL, NULL, out);
}

static const hes_mech_constraint constraints[] = {
    { "A", a_A, Da_A, 0, 1, MU, Jt_A, NULL, NULL, 0, 0, NULL },
    { "B", a_B, Da_B, 0, 1, MU, Jt_B, NULL, NULL, 0, 0, NULL },
};

static const hes_mech mech = {
    .name = "compass-gait-impact", .d = 4, .mass = mass, .n_constraints = 2, .constraints = constraints,
};

static int pre_impact(double *q, double *v, void *data)
{
    (void)data;
    q[0] = -L * sin(PHI);
    q[1] = L * cos(PHI);
    q[2] = -PHI;
    q[3] = PHI;
    v[0] = -L * cos(PHI) * DPHI;
    v[1] = -L * sin(PHI) * DPHI;
    v[2] = v[3] = DPHI;
    return 0;
}

static const int contacts[] = { 0, 1 };

const hes_impact_problem hes__impact_problem_compass_gait = {
    "compass-gait-impact",
    "a compass gait (legs 1, point masses 1 at mid-leg, friction 5) landing its leading foot "
    "with a wide step while the trailing foot is down (Halm & Posa Sec. 5.4.2)",
    &mech, 2, contacts, pre_impact, DPHI, 5, 4096,
};
