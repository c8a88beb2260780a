/*
 * knee_biped.c - planar point-foot walker with knees walking down a slope
 * (HES paper Sec. IV-C, after V. H. Chen, "Passive dynamic walking with
 * knees: a point foot model", MIT master's thesis, 2007), written with the
 * mechanical layer: the file gives mass matrices, applied forces and
 * constraint functions; vector fields, guards, impacts and saltation
 * matrices are derived by the library (lib/model/mech.c).
 *
 * Geometry.  Each leg: shank of length ls = a1 + b1 (foot -> shank mass a1,
 * shank mass -> knee b1) and thigh of length lt = a2 + b2 (knee -> thigh
 * mass a2, thigh mass -> hip b2); L = ls + lt.  Point masses mh (hip), mt
 * (each thigh), ms (each shank).  Angles are measured from the vertical,
 * counterclockwise positive, walking towards +x; e(th) = (-sin th, cos th)
 * points from a segment's lower end to its upper end.  The ground is the
 * line y = -x tan(slope) through the stance foot (downhill for slope > 0),
 * with unit normal n = (sin s, cos s) and downhill tangent t = (cos s, -sin s).
 *
 * Mechanical system A ("unlocked" pinned walker), q = (th1, th2, th3):
 * stance leg th1 straight, swing thigh th2, swing shank th3, stance foot at
 * the origin.  Positions:
 *     stance shank  a1 e1            stance thigh (ls + a2) e1
 *     hip           L e1             swing thigh  L e1 - b2 e2
 *     swing shank   L e1 - lt e2 - b1 e3     (swing foot L e1 - lt e2 - ls e3)
 * A point r = sum_i c_i e(th_i) has r' = sum_i c_i th_i' e'(th_i) with
 * e'(a).e'(b) = cos(a - b), so T = 1/2 q'^T M q' with
 *     M11 = ms a1^2 + mt (ls + a2)^2 + (mh + mt + ms) L^2
 *     M12 = -L (mt b2 + ms lt) cos(th1 - th2)
 *     M13 = -L ms b1 cos(th1 - th3)
 *     M22 = mt b2^2 + ms lt^2,  M23 = ms lt b1 cos(th2 - th3),  M33 = ms b1^2
 * and V = g sum m y gives f = -dV/dq:
 *     f1 = g sin th1 (ms a1 + mt (ls + a2) + (mh + mt + ms) L)
 *     f2 = -g sin th2 (mt b2 + ms lt),   f3 = -g sin th3 ms b1.
 * Constraint "knee_stop": a = th2 - th3 >= 0 (no hyperextension), plastic.
 *
 * Mechanical system C ("locked" pinned walker), q = (th1, th2): as A with
 * th3 = th2, the swing shank mass at L e1 - (lt + b1) e2:
 *     M11 as above,  M12 = -L (mt b2 + ms (lt + b1)) cos(th1 - th2),
 *     M22 = mt b2^2 + ms (lt + b1)^2,
 *     f1 as above,   f2 = -g sin th2 (mt b2 + ms (lt + b1)).
 *
 * Mechanical system E (floating straight-legged walker, for the heelstrike),
 * q = (xh, yh, th1, th2), hip at (xh, yh); each leg's thigh mass at
 * hip - b2 e(th), its shank mass at hip - (lt + b1) e(th), its foot at
 * hip - L e(th).  With mT = mh + 2 mt + 2 ms, k = mt b2 + ms (lt + b1) and
 * I = mt b2^2 + ms (lt + b1)^2:
 *     M = [ mT  0   k cos th1  k cos th2 ]
 *         [ 0   mT  k sin th1  k sin th2 ]
 *         [ .   .   I          0         ]
 *         [ .   .   0          I         ]
 *     f = (0, -mT g, -k g sin th1, -k g sin th2).
 * Constraints (all plastic): "stance_normal" n.foot1 >= 0 and "swing_normal"
 * n.foot2 >= 0 (unilateral: heights above the slope), "stance_tangential"
 * t.foot1 and "swing_tangential" t.foot2 (bilateral: no slip).
 *
 * E serves only the heelstrike impact; its forces are never used (no inputs).
 *
 * Inputs (constant torques, the modes' input callbacks): ankle_torque between
 * ground and stance leg, hip_torque between stance leg and swing thigh,
 * knee_torque between swing thigh and shank (unlocked mode only), each
 * acting on the distal segment, counterclockwise positive.  By virtual work
 * (power = sum torque x relative joint rate) they add the generalized forces
 * (ankle - hip, hip - knee, knee) in A and (ankle - hip, hip) in C.
 *
 * Modes: "unlocked" (A, state [th1, th2, th3, th1', th2', th3']) and
 * "locked" (C, state [th1, th2, th1', th2']).
 * Transitions:
 *   "kneestrike" unlocked -> locked: knee_stop reached (th2 - th3 crosses 0
 *       downward), plastic knee impact in A, then (th1, th2, th3) -> (th1, th2).
 *       The knee stays locked until heelstrike (as in Chen's model).  Each
 *       step starts on this guard's zero set with zero rate (the new swing
 *       leg is straight, th2' = th3'); the knee then flexes because
 *       th2'' - th3'' > 0 (45 rad/s^2 in the gait below).
 *   "heelstrike" locked -> unlocked: swing_normal reached, evaluated in E
 *       through the lift (th1, th2) -> (L e(th1), th1, th2) (stance foot at
 *       the origin); plastic impact making swing_normal and
 *       swing_tangential hold, the trailing foot (stance_normal) must lift
 *       off; then the legs swap: (th1, th2, th3) = (th2, th1, th1).  On level
 *       ground the guard vanishes at th1 + th2 = 0, the paper's g(2,1).
 *   Through the lift the swing-foot height is
 *       L (cos(th1 + s) - cos(th2 + s)) = 2 L sin((th1+th2)/2 + s) sin((th2-th1)/2),
 *   zero at heelstrike (th1 + th2 = -2 s, swing foot ahead) and with the
 *   legs parallel (th1 = th2, both feet at the origin), and both zeros can
 *   be crossed downward: no sign convention separates them.  In the gait
 *   the locked phase starts at kneestrike with the swing leg ahead (th2 >
 *   th1, foot 48 mm above the slope) and the first zero is the heelstrike,
 *   0.47 m ahead.  A parallel-leg zero in the locked phase means the
 *   straight swing leg swept through the stance leg, i.e. the swing foot
 *   scuffed the slope (a stumble, e.g. after a premature kneestrike); the
 *   heelstrike reset refuses it (error "... swing foot not ahead of the
 *   stance foot ...") instead of taking it for a step of length zero.  The generic impact checks do not
 *   catch it: there the plastic impact at the coincident feet is otherwise
 *   valid.  Foot scuffing in the unlocked phase is not modelled (as in
 *   Chen's model); the swing foot of the gait below clears the slope by
 *   at least 5 mm.
 *
 * Orbit: the step from just after a heelstrike to the next, autonomous, all
 * six states free and in the residual (so the fixed point lies on the
 * post-heelstrike set).  On the default slope, 0.0504 rad, this model has a
 * stable passive gait (all torques zero; see guess()).  The dynamics are
 * not stiff: Adams (BDF gives the same orbit to 1e-11 in the same time).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "knee_biped.h"

static const char *describe_error(int code, void *d)
{
    if (code == E_SCUFF)
        return "heelstrike with the swing foot not ahead of the stance foot: the straight "
               "swing leg swept through the stance leg (the swing foot scuffed the slope)";
    return hes_mech_describe_error(code, d);
}

static void zero(double *a, int n)
{
    for (int i = 0; i < n; i++)
        a[i] = 0.0;
}

/* ------------------------------------------------- A: unlocked, pinned */

static int mass_A(const double *q, const double *p, double *M, void *d)
{
    geometry G = hes__knee_biped_geom(p);
    double ms = p[P_MS], b1 = p[P_B1];
    (void)d;
    M[0 + 3 * 0] = G.m11;
    M[1 + 3 * 1] = p[P_MT] * p[P_B2] * p[P_B2] + ms * G.lt * G.lt;
    M[2 + 3 * 2] = ms * b1 * b1;
    M[0 + 3 * 1] = M[1 + 3 * 0] = -G.L * G.kA * cos(q[0] - q[1]);
    M[0 + 3 * 2] = M[2 + 3 * 0] = -G.L * ms * b1 * cos(q[0] - q[2]);
    M[1 + 3 * 2] = M[2 + 3 * 1] = ms * G.lt * b1 * cos(q[1] - q[2]);
    return 0;
}

static int mass_dq_A(const double *q, const double *p, double *D, void *d)
{
    geometry G = hes__knee_biped_geom(p);
    double c12 = G.L * G.kA, c13 = G.L * p[P_MS] * p[P_B1], c23 = p[P_MS] * G.lt * p[P_B1];
    double s12 = sin(q[0] - q[1]), s13 = sin(q[0] - q[2]), s23 = sin(q[1] - q[2]);
    (void)d;
    zero(D, 27);
    /* block k holds dM/dq_k */
    D[9 * 0 + 0 + 3 * 1] = D[9 * 0 + 1 + 3 * 0] = c12 * s12;
    D[9 * 1 + 0 + 3 * 1] = D[9 * 1 + 1 + 3 * 0] = -c12 * s12;
    D[9 * 0 + 0 + 3 * 2] = D[9 * 0 + 2 + 3 * 0] = c13 * s13;
    D[9 * 2 + 0 + 3 * 2] = D[9 * 2 + 2 + 3 * 0] = -c13 * s13;
    D[9 * 1 + 1 + 3 * 2] = D[9 * 1 + 2 + 3 * 1] = -c23 * s23;
    D[9 * 2 + 1 + 3 * 2] = D[9 * 2 + 2 + 3 * 1] = c23 * s23;
    return 0;
}

/* u = (ankle, hip, knee) */
static int force_A(const double *q, const double *qd, const double *u, const double *p,
                   double *f, void *d)
{
    geometry G = hes__knee_biped_geom(p);
    double g = p[P_G];
    (void)qd; (void)d;
    f[0] = g * sin(q[0]) * G.grav1 + u[0] - u[1];
    f[1] = -g * sin(q[1]) * G.kA + u[1] - u[2];
    f[2] = -g * sin(q[2]) * p[P_MS] * p[P_B1] + u[2];
    return 0;
}

/* force_A's Jacobians: gravity in q, the torques in u, nothing in q' */
static int force_dx_A(const double *q, const double *qd, const double *u, const double *p,
                      double *fq, double *fqd, double *fu, void *d)
{
    geometry G = hes__knee_biped_geom(p);
    double g = p[P_G];
    static const double B[9] = { 1, 0, 0, -1, 1, 0, 0, -1, 1 }; /* column-major */
    (void)qd; (void)u; (void)d;
    zero(fq, 9);
    zero(fqd, 9);
    fq[0] = g * cos(q[0]) * G.grav1;
    fq[4] = -g * cos(q[1]) * G.kA;
    fq[8] = -g * cos(q[2]) * p[P_MS] * p[P_B1];
    memcpy(fu, B, sizeof B);
    return 0;
}

static int knee_stop(const double *q, const double *p, double *a, void *d)
{
    (void)p; (void)d;
    a[0] = q[1] - q[2];
    return 0;
}

static int knee_stop_dq(const double *q, const double *p, double *a, void *d)
{
    (void)q; (void)p; (void)d;
    a[0] = 0.0;
    a[1] = 1.0;
    a[2] = -1.0;
    return 0;
}

static const hes_mech_constraint constraints_A[] = {
    [C_KNEE_STOP] = { "knee_stop", knee_stop, knee_stop_dq, 0.0, 1, 0, NULL, NULL },
};

static const hes_mech mech_A = {
    .name = "unlocked",
    .d = 3,
    .mass = mass_A,
    .mass_dq = mass_dq_A,
    .force = force_A,
    .force_dx = force_dx_A,
    .m = 3,
    .n_constraints = 1,
    .constraints = constraints_A,
    .data = NULL,
};

/* --------------------------------------------------- C: locked, pinned */

static int mass_C(const double *q, const double *p, double *M, void *d)
{
    geometry G = hes__knee_biped_geom(p);
    (void)d;
    M[0] = G.m11;
    M[1] = M[2] = -G.L * G.kC * cos(q[0] - q[1]);
    M[3] = G.IC;
    return 0;
}

static int mass_dq_C(const double *q, const double *p, double *D, void *d)
{
    geometry G = hes__knee_biped_geom(p);
    double s = G.L * G.kC * sin(q[0] - q[1]);
    (void)d;
    D[0] = 0.0; D[1] = s;  D[2] = s;  D[3] = 0.0;   /* dM/dth1 */
    D[4] = 0.0; D[5] = -s; D[6] = -s; D[7] = 0.0;   /* dM/dth2 */
    return 0;
}

/* u = (ankle, hip) */
static int force_C(const double *q, const double *qd, const double *u, const double *p,
                   double *f, void *d)
{
    geometry G = hes__knee_biped_geom(p);
    double g = p[P_G];
    (void)qd; (void)d;
    f[0] = g * sin(q[0]) * G.grav1 + u[0] - u[1];
    f[1] = -g * sin(q[1]) * G.kC + u[1];
    return 0;
}

/* force_C's Jacobians */
static int force_dx_C(const double *q, const double *qd, const double *u, const double *p,
                      double *fq, double *fqd, double *fu, void *d)
{
    geometry G = hes__knee_biped_geom(p);
    double g = p[P_G];
    static const double B[4] = { 1, 0, -1, 1 }; /* column-major */
    (void)qd; (void)u; (void)d;
    zero(fq, 4);
    zero(fqd, 4);
    fq[0] = g * cos(q[0]) * G.grav1;
    fq[3] = -g * cos(q[1]) * G.kC;
    memcpy(fu, B, sizeof B);
    return 0;
}

static const hes_mech mech_C = {
    .name = "locked",
    .d = 2,
    .mass = mass_C,
    .mass_dq = mass_dq_C,
    .force = force_C,
    .force_dx = force_dx_C,
    .m = 2,
    .n_constraints = 0,
    .constraints = NULL,
    .data = NULL,
};

/* ------------------------------------------- E: floating, straight legs */

static int mass_E(const double *q, const double *p, double *M, void *d)
{
    geometry G = hes__knee_biped_geom(p);
    (void)d;
    zero(M, 16);
    M[0 + 4 * 0] = M[1 + 4 * 1] = G.mT;
    M[2 + 4 * 2] = M[3 + 4 * 3] = G.IC;
    M[0 + 4 * 2] = M[2 + 4 * 0] = G.kC * cos(q[2]);
    M[1 + 4 * 2] = M[2 + 4 * 1] = G.kC * sin(q[2]);
    M[0 + 4 * 3] = M[3 + 4 * 0] = G.kC * cos(q[3]);
    M[1 + 4 * 3] = M[3 + 4 * 1] = G.kC * sin(q[3]);
    return 0;
}

static int mass_dq_E(const double *q, const double *p, double *D, void *d)
{
    geometry G = hes__knee_biped_geom(p);
    (void)d;
    zero(D, 64);
    for (int leg = 0; leg < 2; leg++) {
        int j = 2 + leg;
        double *B = D + 16 * j;
        B[0 + 4 * j] = B[j + 4 * 0] = -G.kC * sin(q[j]);
        B[1 + 4 * j] = B[j + 4 * 1] = G.kC * cos(q[j]);
    }
    return 0;
}

static int force_E(const double *q, const double *qd, const double *u, const double *p,
                   double *f, void *d)
{
    geometry G = hes__knee_biped_geom(p);
    double g = p[P_G];
    (void)qd; (void)u; (void)d;
    f[0] = 0.0;
    f[1] = -G.mT * g;
    f[2] = -G.kC * g * sin(q[2]);
    f[3] = -G.kC * g * sin(q[3]);
    return 0;
}

/* Foot of the leg with angle q[j]: (xh + L sin th, yh - L cos th); its
 * component along n (normal) or t (tangential) and the gradient. */
static void foot(const double *q, const double *p, int j, int normal,
                 double *a, double *Da)
{
    double L = p[P_A1] + p[P_B1] + p[P_A2] + p[P_B2];
    double s = p[P_SLOPE];
    double ux = normal ? sin(s) : cos(s), uy = normal ? cos(s) : -sin(s);
    double fx = q[0] + L * sin(q[j]), fy = q[1] - L * cos(q[j]);
    if (a)
        a[0] = ux * fx + uy * fy;
    if (Da) {
        zero(Da, 4);
        Da[0] = ux;
        Da[1] = uy;
        Da[j] = L * (ux * cos(q[j]) + uy * sin(q[j]));
    }
}

static int stance_n(const double *q, const double *p, double *a, void *d)
{ (void)d; foot(q, p, 2, 1, a, NULL); return 0; }
static int stance_n_dq(const double *q, const double *p, double *Da, void *d)
{ (void)d; foot(q, p, 2, 1, NULL, Da); return 0; }
static int stance_t(const double *q, const double *p, double *a, void *d)
{ (void)d; foot(q, p, 2, 0, a, NULL); return 0; }
static int stance_t_dq(const double *q, const double *p, double *Da, void *d)
{ (void)d; foot(q, p, 2, 0, NULL, Da); return 0; }
static int swing_n(const double *q, const double *p, double *a, void *d)
{ (void)d; foot(q, p, 3, 1, a, NULL); return 0; }
static int swing_n_dq(const double *q, const double *p, double *Da, void *d)
{ (void)d; foot(q, p, 3, 1, NULL, Da); return 0; }
static int swing_t(const double *q, const double *p, double *a, void *d)
{ (void)d; foot(q, p, 3, 0, a, NULL); return 0; }
static int swing_t_dq(const double *q, const double *p, double *Da, void *d)
{ (void)d; foot(q, p, 3, 0, NULL, Da); return 0; }

/* The feet's Coulomb friction on the slope, with the tangential rows as
 * their sliding velocities: used only where the heelstrike is resolved as
 * a frictional simultaneous impact (hes analyze --impact-set); the gait
 * itself holds the stance foot by the no-slip constraints. */
#define FOOT_MU 1.0

static const hes_mech_constraint constraints_E[] = {
    [C_STANCE_N] = { "stance_normal", stance_n, stance_n_dq, 0.0, 1, FOOT_MU, stance_t_dq, NULL },
    [C_STANCE_T] = { "stance_tangential", stance_t, stance_t_dq, 0.0, 0, 0, NULL, NULL },
    [C_SWING_N] = { "swing_normal", swing_n, swing_n_dq, 0.0, 1, FOOT_MU, swing_t_dq, NULL },
    [C_SWING_T] = { "swing_tangential", swing_t, swing_t_dq, 0.0, 0, 0, NULL, NULL },
};

static const hes_mech mech_E = {
    .name = "floating",
    .d = 4,
    .mass = mass_E,
    .mass_dq = mass_dq_E,
    .force = force_E,
    .m = 0,
    .n_constraints = 4,
    .constraints = constraints_E,
    .data = NULL,
};

/* ---------------------------------------------------------------- modes */

static int input_unlocked(double t, const double *x, const double *p, double *u, void *d)
{
    (void)t; (void)x; (void)d;
    u[0] = p[P_ANKLE];
    u[1] = p[P_HIP];
    u[2] = p[P_KNEE];
    return 0;
}

static int input_locked(double t, const double *x, const double *p, double *u, void *d)
{
    (void)t; (void)x; (void)d;
    u[0] = p[P_ANKLE];
    u[1] = p[P_HIP];
    return 0;
}

static const hes_mech_mode mode_unlocked = {
    .mech = &mech_A,
    .n_active = 0,
    .active = NULL,
    .k = 3,
    .chart = NULL,
    .chart_dz = NULL,
    .chart_acc = NULL,
    .input = input_unlocked,
};

static const hes_mech_mode mode_locked = {
    .mech = &mech_C,
    .n_active = 0,
    .active = NULL,
    .k = 2,
    .chart = NULL,
    .chart_dz = NULL,
    .chart_acc = NULL,
    .input = input_locked,
};

/* ---------------------------------------------------------- kneestrike */

/* (th1, th2, th3) -> (th1, th2): the shank is locked to the thigh. */
static int drop_shank(const double *q, const double *p, double *z, void *d)
{
    (void)p; (void)d;
    z[0] = q[0];
    z[1] = q[1];
    return 0;
}

static int drop_shank_dq(const double *q, const double *p, double *D, void *d)
{
    (void)q; (void)p; (void)d;
    zero(D, 6);
    D[0 + 2 * 0] = 1.0;
    D[1 + 2 * 1] = 1.0;
    return 0;
}

/* Gradient of the kneestrike guard th2 - th3 in the state [z, z'], exact.
 * Every step starts on this guard's zero set with th2' = th3' (the new swing
 * leg is straight), where the simulator tests the sign of Dxg F = th2' - th3'
 * for an immediate event: it must be exactly 0, not differencing noise. */
static int kneestrike_guard_dx(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    zero(g, 6);
    g[1] = 1.0;
    g[2] = -1.0;
    return 0;
}

static const int after_knee[] = { C_KNEE_STOP };

static const hes_mech_transition kneestrike = {
    .from = &mode_unlocked,
    .to = &mode_locked,
    .kind = HES_MECH_ACTIVATE,
    .constraint = C_KNEE_STOP,
    .mech = NULL,
    .lift = NULL,
    .lift_dz = NULL,
    .n_after = 1,
    .after = after_knee,
    .n_separate = 0,
    .separate = NULL,
    .to_chart = drop_shank,
    .to_chart_dq = drop_shank_dq,
};

/* ---------------------------------------------------------- heelstrike */

/* (th1, th2) -> (xh, yh, th1, th2) with the stance foot at the origin. */
static int lift_floating(const double *z, const double *p, double *q, void *d)
{
    double L = p[P_A1] + p[P_B1] + p[P_A2] + p[P_B2];
    (void)d;
    q[0] = -L * sin(z[0]);
    q[1] = L * cos(z[0]);
    q[2] = z[0];
    q[3] = z[1];
    return 0;
}

static int lift_floating_dz(const double *z, const double *p, double *D, void *d)
{
    double L = p[P_A1] + p[P_B1] + p[P_A2] + p[P_B2];
    (void)d;
    zero(D, 8);
    D[0 + 4 * 0] = -L * cos(z[0]);
    D[1 + 4 * 0] = -L * sin(z[0]);
    D[2 + 4 * 0] = 1.0;
    D[3 + 4 * 1] = 1.0;
    return 0;
}

/* Legs swap: the new stance leg is the old swing leg, the new swing leg the
 * old (straight) stance leg: (th1, th2, th3) = (q[3], q[2], q[2]). */
static int swap_legs(const double *q, const double *p, double *z, void *d)
{
    (void)p; (void)d;
    z[0] = q[3];
    z[1] = q[2];
    z[2] = q[2];
    return 0;
}

static int swap_legs_dq(const double *q, const double *p, double *D, void *d)
{
    (void)q; (void)p; (void)d;
    zero(D, 12);
    D[0 + 3 * 3] = 1.0;
    D[1 + 3 * 2] = 1.0;
    D[2 + 3 * 2] = 1.0;
    return 0;
}

/* The generic impact reset, refused unless the swing foot lands ahead of the
 * stance foot: their distance along the slope, L (sin(th2 + s) - sin(th1 + s)),
 * must exceed 1e-6 L (it is zero with the legs parallel). */
static int heelstrike_reset(double t, const double *x, const double *p, double *out, void *d)
{
    double s = p[P_SLOPE];
    if (!(sin(x[1] + s) - sin(x[0] + s) > 1e-6))
        return E_SCUFF;
    return hes_mech_reset(t, x, p, out, d);
}

static const int after_heel[] = { C_SWING_N, C_SWING_T };
static const int separate_heel[] = { C_STANCE_N };

static const hes_mech_transition heelstrike = {
    .from = &mode_locked,
    .to = &mode_unlocked,
    .kind = HES_MECH_ACTIVATE,
    .constraint = C_SWING_N,
    .mech = &mech_E,
    .lift = lift_floating,
    .lift_dz = lift_floating_dz,
    .n_after = 2,
    .after = after_heel,
    .n_separate = 1,
    .separate = separate_heel,
    .to_chart = swap_legs,
    .to_chart_dq = swap_legs_dq,
};

/* --------------------------------------------------------------- model */

/* The passive gait (all torques zero) on the default slope 0.0504 rad, just
 * after heelstrike: period 0.56433 s (kneestrike at 0.34861 s), step
 * 0.4727 m along the slope, multipliers 0.3526 +- 0.5522i (|.| 0.6552) and
 * 0.1438: stable.  Placed on the post-heelstrike set th2 = th3 =
 * -th1 - 2 slope of any slope; from it the orbit is found for slopes from
 * about 0.035 to 0.07 rad. */
static int guess(double *p, double *x0, void *d)
{
    (void)d;
    x0[0] = 0.18818546025412;
    x0[1] = x0[2] = -x0[0] - 2.0 * p[P_SLOPE];
    x0[3] = -1.10958733117997;
    x0[4] = x0[5] = -0.05714810632348;
    return 0;
}

static const char *const unlocked_names[] = {
    "th1", "th2", "th3", "th1dot", "th2dot", "th3dot"
};
static const char *const locked_names[] = { "th1", "th2", "th1dot", "th2dot" };

static const hes_mode modes[] = {
    [M_UNLOCKED] = { "unlocked", 6, unlocked_names, hes_mech_field, hes_mech_field_dx,
                     (void *)&mode_unlocked },
    [M_LOCKED] = { "locked", 4, locked_names, hes_mech_field, hes_mech_field_dx,
                   (void *)&mode_locked },
};

static const hes_transition transitions[] = {
    [T_KNEESTRIKE] = { "kneestrike", M_UNLOCKED, M_LOCKED, HES_DOWN, hes_mech_guard,
                       hes_mech_reset, kneestrike_guard_dx, NULL, NULL, NULL, 0,
                       (void *)&kneestrike },
    [T_HEELSTRIKE] = { "heelstrike", M_LOCKED, M_UNLOCKED, HES_DOWN, hes_mech_guard,
                       heelstrike_reset, NULL, NULL, NULL, NULL, 0, (void *)&heelstrike },
};

static const hes_param params[P_N] = {
    [P_MH] = { "mh", 0.5, "kg", "hip mass", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    [P_MT] = { "mt", 0.5, "kg", "thigh mass (each leg)", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    [P_MS] = { "ms", 0.05, "kg", "shank mass (each leg)", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    [P_A1] = { "a1", 0.375, "m", "foot to shank mass", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    [P_B1] = { "b1", 0.125, "m", "shank mass to knee", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    [P_A2] = { "a2", 0.175, "m", "knee to thigh mass", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    [P_B2] = { "b2", 0.325, "m", "thigh mass to hip", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    [P_G] = { "g", 9.81, "m/s^2", "gravitational acceleration", HES_PARAM_POSITIVE, 0.0,
              HUGE_VAL, 0, 0 },
    [P_SLOPE] = { "slope", 0.0504, "rad", "ground slope (positive: walking downhill)", 0,
                  -0.5, 0.5, 0, 0 },
    [P_HIP] = { "hip_torque", 0.0, "N m", "hip torque on the swing thigh (counterclockwise)",
                0, -HUGE_VAL, HUGE_VAL, 0, 0 },
    [P_KNEE] = { "knee_torque", 0.0, "N m",
                 "swing knee torque on the shank, unlocked knee only (counterclockwise)",
                 0, -HUGE_VAL, HUGE_VAL, 0, 0 },
    [P_ANKLE] = { "ankle_torque", 0.0, "N m",
                  "stance ankle torque on the stance leg (counterclockwise)",
                  0, -HUGE_VAL, HUGE_VAL, 0, 0 },
};

static int validate(const double *p, char *msg, size_t len, void *d)
{
    static const int positive[] = { P_MH, P_MT, P_MS, P_A1, P_B1, P_A2, P_B2, P_G };
    (void)d;
    for (size_t i = 0; i < sizeof positive / sizeof positive[0]; i++)
        if (!(p[positive[i]] > 0.0)) {
            snprintf(msg, len, "%s = %g: masses, lengths and g must be positive",
                     params[positive[i]].name, p[positive[i]]);
            return 1;
        }
    return 0;
}

static const int sequence[] = { T_KNEESTRIKE, T_HEELSTRIKE };
static const int all_states[] = { 0, 1, 2, 3, 4, 5 };

const hes_model hes__problem_knee_biped = {
    .abi = HES_MODEL_ABI,
    .name = "knee-biped",
    .description = "point-foot walker with knees on a slope (Chen 2007; HES paper Sec. IV-C)",
    .n_modes = 2,
    .modes = modes,
    .n_transitions = 2,
    .transitions = transitions,
    .n_params = P_N,
    .params = params,
    .orbit = {
        .mode = M_UNLOCKED,
        .section = T_HEELSTRIKE,
        .n_sequence = 2,
        .sequence = sequence,
        .period_param = NULL,
        .n_free_states = 6,
        .free_states = all_states,
        .n_free_params = 0,
        .free_params = NULL,
        .n_residual = 6,
        .residual = all_states,
        .guess = guess,
    },
    .integrator = HES_ADAMS,
    .max_phase_time = 10.0,
    .validate = validate,
    .data = NULL,
    .describe_error = describe_error,
    .trajopt = &hes__knee_biped_trajopt,
};
