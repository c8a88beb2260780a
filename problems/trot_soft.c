/*
 * trot_soft.c - soft-leg trotter: the body of trot-rigid with a point-mass
 * foot on a vertical spring-damper leg at each hip, so that the limbs are
 * decoupled through the body (decoupled-limbs paper, Fig. 1 right, adapted
 * from Burden et al. 2015; Assumption 3).  A mechanical model (hes_mech):
 * the library derives vector fields, guards, contact forces and impacts.
 *
 * Configuration q = (y, theta, y1, y2): body height and pitch, heights of the
 * front and rear feet.  M = diag(m, J, mf, mf) (block diagonal: body, front
 * limb, rear limb).  Hips at heights y +- d sin(theta); leg lengths
 * L1 = y + d sin(theta) - y1, L2 = y - d sin(theta) - y2 and leg forces
 * (positive: pushing the hip up and the foot down)
 *     F_i = k (l - L_i) - c L_i',
 * so the applied forces are
 *     f = (-m g + F1 + F2,  d cos(theta) (F1 - F2),  -mf g - F1,  -mf g - F2):
 * each limb's force depends on the body and that limb only, and the body's
 * is a sum over the limbs (Assumption 3.3).
 * Constraints (unilateral, plastic):
 *     "front foot": a_1(q) = y1,  "rear foot": a_2(q) = y2,
 * which depend on the limb coordinates only: Da_1 M^-1 Da_2^T = 0 (eq. 6).
 * Modes by contact set, with charts that drop the held foot coordinates
 * (linear charts: chart_acc = 0); state [z, z']:
 *     "flight" none held  z = (y, theta, y1, y2)
 *     "front"  front held z = (y, theta, y2),  q = (y, theta, 0, y2)
 *     "rear"   rear held  z = (y, theta, y1),  q = (y, theta, y1, 0)
 *     "both"   both held  z = (y, theta),      q = (y, theta, 0, 0)
 * Transitions: touchdowns (guard a_j crossed downward; plastic impact that
 * enforces every constraint held in the target mode, so held feet keep zero
 * velocity) flight -> front, flight -> rear, front -> both, rear -> both;
 * liftoffs (guard: the contact force lambda_j of the held foot, from the full
 * equations, crossed downward; no impulse) front -> flight, rear -> flight,
 * both -> rear (front lifts), both -> front (rear lifts).  In contact,
 * lambda_j = mf g + F_j.
 *
 * Expected behaviour (`hes simulate trot-soft --sweep theta=-0.01:0.01:5
 * --x0 0.6,0,0.3,0.3,0,0,0,0 --time 0.4`): the body falls from rest at
 * y0 = 0.6 m with the feet at hip height minus l, touches down near
 * t = 0.25 s, bounces on the legs (pitch frequency sqrt(2 k d^2 / J) = 71
 * rad/s, heave sqrt(2 k / m) = 63 rad/s) and lifts off before t = 0.4 s.
 * The touchdown order follows the sign of theta0 (front first for theta0 < 0)
 * but, the limbs being decoupled, the final state, e.g. the pitch rate
 * omega, depends continuously and differentiably on theta0 through the
 * change of contact sequence (paper Theorem 1); by symmetry omega = 0 at
 * theta0 = 0, where both feet land together (the simulator takes "front
 * touchdown" first, then "rear touchdown (front stance)" at the same
 * instant).  Representative initial state (body at rest, level, feet
 * hanging at rest length):
 *     --x0 0.6,0,0.3,0.3,0,0,0,0   (mode flight)
 * No periodic orbit is declared (simulation only).
 */
#include <math.h>

#include "problems.h"

enum { P_M, P_J, P_D, P_L, P_MF, P_K, P_C, P_G, P_N };
enum { C_FRONT, C_REAR };
enum { M_FLIGHT, M_FRONT, M_REAR, M_BOTH };

/* ------------------------------------------------------ mechanical system */

static int mass(const double *q, const double *p, double *M, void *data)
{
    (void)q; (void)data;
    for (int i = 0; i < 16; i++)
        M[i] = 0.0;
    M[0] = p[P_M];
    M[5] = p[P_J];
    M[10] = p[P_MF];
    M[15] = p[P_MF];
    return 0;
}

/* M is constant. */
static int mass_dq(const double *q, const double *p, double *dM, void *data)
{
    (void)q; (void)p; (void)data;
    for (int i = 0; i < 64; i++)
        dM[i] = 0.0;
    return 0;
}

/* Force of leg spring-damper between hip height h (rate hd) and foot height
 * yf (rate yfd), positive when it pushes the two apart. */
static double leg_force(double h, double hd, double yf, double yfd, const double *p)
{
    return p[P_K] * (p[P_L] - (h - yf)) - p[P_C] * (hd - yfd);
}

static int forces(const double *q, const double *qd, const double *u, const double *p,
                  double *f, void *data)
{
    (void)u; (void)data;
    double s = p[P_D] * sin(q[1]), dc = p[P_D] * cos(q[1]);
    double F1 = leg_force(q[0] + s, qd[0] + dc * qd[1], q[2], qd[2], p);
    double F2 = leg_force(q[0] - s, qd[0] - dc * qd[1], q[3], qd[3], p);
    f[0] = -p[P_M] * p[P_G] + F1 + F2;
    f[1] = dc * (F1 - F2);
    f[2] = -p[P_MF] * p[P_G] - F1;
    f[3] = -p[P_MF] * p[P_G] - F2;
    return 0;
}

static int front_foot(const double *q, const double *p, double *a, void *data)
{
    (void)p; (void)data;
    a[0] = q[2];
    return 0;
}

static int front_foot_dq(const double *q, const double *p, double *Da, void *data)
{
    (void)q; (void)p; (void)data;
    Da[0] = 0.0; Da[1] = 0.0; Da[2] = 1.0; Da[3] = 0.0;
    return 0;
}

static int rear_foot(const double *q, const double *p, double *a, void *data)
{
    (void)p; (void)data;
    a[0] = q[3];
    return 0;
}

static int rear_foot_dq(const double *q, const double *p, double *Da, void *data)
{
    (void)q; (void)p; (void)data;
    Da[0] = 0.0; Da[1] = 0.0; Da[2] = 0.0; Da[3] = 1.0;
    return 0;
}

static const hes_mech_constraint constraints[] = {
    { "front foot", front_foot, front_foot_dq, 0.0, 1, 0, NULL, NULL, NULL, 0, 0, NULL },
    { "rear foot", rear_foot, rear_foot_dq, 0.0, 1, 0, NULL, NULL, NULL, 0, 0, NULL },
};

static const hes_mech trotter = {
    .name = "soft-leg trotter", .d = 4, .mass = mass, .mass_dq = mass_dq,
    .force = forces, .m = 0, .n_constraints = 2, .constraints = constraints,
    .data = NULL,
};

/* ------------------------------------------------------------------ charts */

/* Column-major d x k selection matrix with column j the unit vector
 * e_keep[j]: the Jacobian of a chart that inserts zeros (held feet), and
 * transposed that of the projection dropping them. */
static void selection(const int *keep, int k, double *S)
{
    for (int i = 0; i < 4 * k; i++)
        S[i] = 0.0;
    for (int j = 0; j < k; j++)
        S[keep[j] + 4 * j] = 1.0;
}

static void selection_t(const int *keep, int k, double *S)
{
    for (int i = 0; i < 4 * k; i++)
        S[i] = 0.0;
    for (int j = 0; j < k; j++)
        S[j + k * keep[j]] = 1.0;
}

static const int keep_front[] = { 0, 1, 3 }; /* front held: z = (y, theta, y2) */
static const int keep_rear[] = { 0, 1, 2 };  /* rear held:  z = (y, theta, y1) */
static const int keep_both[] = { 0, 1 };     /* both held:  z = (y, theta) */

static void insert(const int *keep, int k, const double *z, double *q)
{
    for (int i = 0; i < 4; i++)
        q[i] = 0.0;
    for (int j = 0; j < k; j++)
        q[keep[j]] = z[j];
}

static void drop(const int *keep, int k, const double *q, double *z)
{
    for (int j = 0; j < k; j++)
        z[j] = q[keep[j]];
}

static int front_chart(const double *z, const double *p, double *q, void *data)
{
    (void)p; (void)data;
    insert(keep_front, 3, z, q);
    return 0;
}

static int front_chart_dz(const double *z, const double *p, double *J, void *data)
{
    (void)z; (void)p; (void)data;
    selection(keep_front, 3, J);
    return 0;
}

static int rear_chart(const double *z, const double *p, double *q, void *data)
{
    (void)p; (void)data;
    insert(keep_rear, 3, z, q);
    return 0;
}

static int rear_chart_dz(const double *z, const double *p, double *J, void *data)
{
    (void)z; (void)p; (void)data;
    selection(keep_rear, 3, J);
    return 0;
}

static int both_chart(const double *z, const double *p, double *q, void *data)
{
    (void)p; (void)data;
    insert(keep_both, 2, z, q);
    return 0;
}

static int both_chart_dz(const double *z, const double *p, double *J, void *data)
{
    (void)z; (void)p; (void)data;
    selection(keep_both, 2, J);
    return 0;
}

/* The charts are linear: D^2 chart = 0. */
static int linear_chart_acc(const double *z, const double *zd, const double *p, double *a,
                            void *data)
{
    (void)z; (void)zd; (void)p; (void)data;
    for (int i = 0; i < 4; i++)
        a[i] = 0.0;
    return 0;
}

/* to_chart of the transitions: q -> z of the target mode. */
static int to_front(const double *q, const double *p, double *z, void *data)
{
    (void)p; (void)data;
    drop(keep_front, 3, q, z);
    return 0;
}

static int to_front_dq(const double *q, const double *p, double *J, void *data)
{
    (void)q; (void)p; (void)data;
    selection_t(keep_front, 3, J);
    return 0;
}

static int to_rear(const double *q, const double *p, double *z, void *data)
{
    (void)p; (void)data;
    drop(keep_rear, 3, q, z);
    return 0;
}

static int to_rear_dq(const double *q, const double *p, double *J, void *data)
{
    (void)q; (void)p; (void)data;
    selection_t(keep_rear, 3, J);
    return 0;
}

static int to_both(const double *q, const double *p, double *z, void *data)
{
    (void)p; (void)data;
    drop(keep_both, 2, q, z);
    return 0;
}

static int to_both_dq(const double *q, const double *p, double *J, void *data)
{
    (void)q; (void)p; (void)data;
    selection_t(keep_both, 2, J);
    return 0;
}

/* ------------------------------------------------------------------- modes */

static const int held_front[] = { C_FRONT }, held_rear[] = { C_REAR };
static const int held_both[] = { C_FRONT, C_REAR };

static const hes_mech_mode flight = {
    .mech = &trotter, .n_active = 0, .active = NULL, .k = 4, .chart = NULL,
    .chart_dz = NULL, .chart_acc = NULL, .input = NULL,
};

static const hes_mech_mode front_stance = {
    .mech = &trotter, .n_active = 1, .active = held_front, .k = 3, .chart = front_chart,
    .chart_dz = front_chart_dz, .chart_acc = linear_chart_acc, .input = NULL,
};

static const hes_mech_mode rear_stance = {
    .mech = &trotter, .n_active = 1, .active = held_rear, .k = 3, .chart = rear_chart,
    .chart_dz = rear_chart_dz, .chart_acc = linear_chart_acc, .input = NULL,
};

static const hes_mech_mode both_stance = {
    .mech = &trotter, .n_active = 2, .active = held_both, .k = 2, .chart = both_chart,
    .chart_dz = both_chart_dz, .chart_acc = linear_chart_acc, .input = NULL,
};

/* ------------------------------------------------------------- transitions */

/* A touchdown of constraint c from mode `from` into mode `to`, enforcing the
 * constraints held in `to`. */
#define TOUCHDOWN(from_, to_, c, n, held, chart, chart_dq) {                        \
        .from = (from_), .to = (to_), .kind = HES_MECH_ACTIVATE, .constraint = (c), \
        .mech = NULL, .lift = NULL, .lift_dz = NULL, .n_after = (n),                 \
        .after = (held), .n_separate = 0, .separate = NULL, .to_chart = (chart),     \
        .to_chart_dq = (chart_dq) }

/* A liftoff: the force of held constraint c reaches zero; no impulse. */
#define LIFTOFF(from_, to_, c, chart, chart_dq) {                                   \
        .from = (from_), .to = (to_), .kind = HES_MECH_RELEASE, .constraint = (c),  \
        .mech = NULL, .lift = NULL, .lift_dz = NULL, .n_after = 0, .after = NULL,    \
        .n_separate = 0, .separate = NULL, .to_chart = (chart),                      \
        .to_chart_dq = (chart_dq) }

static const hes_mech_transition front_touchdown =
    TOUCHDOWN(&flight, &front_stance, C_FRONT, 1, held_front, to_front, to_front_dq);
static const hes_mech_transition rear_touchdown =
    TOUCHDOWN(&flight, &rear_stance, C_REAR, 1, held_rear, to_rear, to_rear_dq);
static const hes_mech_transition rear_touchdown_in_front =
    TOUCHDOWN(&front_stance, &both_stance, C_REAR, 2, held_both, to_both, to_both_dq);
static const hes_mech_transition front_touchdown_in_rear =
    TOUCHDOWN(&rear_stance, &both_stance, C_FRONT, 2, held_both, to_both, to_both_dq);
static const hes_mech_transition front_liftoff =
    LIFTOFF(&front_stance, &flight, C_FRONT, NULL, NULL);
static const hes_mech_transition rear_liftoff =
    LIFTOFF(&rear_stance, &flight, C_REAR, NULL, NULL);
static const hes_mech_transition front_liftoff_in_both =
    LIFTOFF(&both_stance, &rear_stance, C_FRONT, to_rear, to_rear_dq);
static const hes_mech_transition rear_liftoff_in_both =
    LIFTOFF(&both_stance, &front_stance, C_REAR, to_front, to_front_dq);

/* --------------------------------------------------------------- the model */

static const char *const flight_names[] = { "y", "theta", "y1", "y2",
                                            "vy", "omega", "vy1", "vy2" };
static const char *const front_names[] = { "y", "theta", "y2", "vy", "omega", "vy2" };
static const char *const rear_names[] = { "y", "theta", "y1", "vy", "omega", "vy1" };
static const char *const both_names[] = { "y", "theta", "vy", "omega" };

static const hes_mode modes[] = {
    { .name = "flight", .dim = 8, .state_names = flight_names,
      .field = hes_mech_field, .field_dx = hes_mech_field_dx, .data = (void *)&flight },
    { .name = "front", .dim = 6, .state_names = front_names,
      .field = hes_mech_field, .field_dx = hes_mech_field_dx, .data = (void *)&front_stance },
    { .name = "rear", .dim = 6, .state_names = rear_names,
      .field = hes_mech_field, .field_dx = hes_mech_field_dx, .data = (void *)&rear_stance },
    { .name = "both", .dim = 4, .state_names = both_names,
      .field = hes_mech_field, .field_dx = hes_mech_field_dx, .data = (void *)&both_stance },
};

#define MECH_TRANSITION(name, from, to, tr) \
    { name, from, to, HES_DOWN, hes_mech_guard, hes_mech_reset, NULL, NULL, NULL, NULL, \
      0, (void *)&tr }

/* Touchdowns from flight come first: when both feet land at the same instant
 * the front one is taken first, then the rear one at once. */
static const hes_transition transitions[] = {
    MECH_TRANSITION("front touchdown", M_FLIGHT, M_FRONT, front_touchdown),
    MECH_TRANSITION("rear touchdown", M_FLIGHT, M_REAR, rear_touchdown),
    MECH_TRANSITION("rear touchdown (front stance)", M_FRONT, M_BOTH,
                    rear_touchdown_in_front),
    MECH_TRANSITION("front touchdown (rear stance)", M_REAR, M_BOTH,
                    front_touchdown_in_rear),
    MECH_TRANSITION("front liftoff", M_FRONT, M_FLIGHT, front_liftoff),
    MECH_TRANSITION("rear liftoff", M_REAR, M_FLIGHT, rear_liftoff),
    MECH_TRANSITION("front liftoff (rear stance)", M_BOTH, M_REAR, front_liftoff_in_both),
    MECH_TRANSITION("rear liftoff (front stance)", M_BOTH, M_FRONT, rear_liftoff_in_both),
};

static const hes_param params[P_N] = {
    { "m", 1.0, "kg", "body mass", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "J", 0.2, "kg m^2", "pitch moment of inertia about the centre of mass",
      HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "d", 0.5, "m", "distance of each hip from the centre of mass along the body",
      HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "l", 0.3, "m", "rest length of the leg springs", HES_PARAM_POSITIVE, 0.0, HUGE_VAL,
      0, 0 },
    { "mf", 0.05, "kg", "mass of each foot", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "k", 2000.0, "N/m", "leg spring stiffness", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 },
    { "c", 2.0, "N s/m", "leg damping", 0, 0.0, HUGE_VAL, 0, 0 },
    { "g", 9.81, "m/s^2", "gravitational acceleration", HES_PARAM_POSITIVE, 0.0, HUGE_VAL,
      0, 0 },
};

const hes_model hes__problem_trot_soft = {
    .abi = HES_MODEL_ABI,
    .name = "trot-soft",
    .description = "soft-leg trotter, limbs decoupled through the body (decoupled-limbs paper Fig. 1 right)",
    .n_modes = 4,
    .modes = modes,
    .n_transitions = 8,
    .transitions = transitions,
    .n_params = P_N,
    .params = params,
    .orbit = {
        .mode = M_FLIGHT,
        .section = 0,
        .n_sequence = 0,
        .sequence = NULL,
        .period_param = NULL,
        .n_free_states = 0,
        .free_states = NULL,
        .n_free_params = 0,
        .free_params = NULL,
        .n_residual = 0,
        .residual = NULL,
        .guess = NULL,
    },
    .integrator = HES_ADAMS,
    .max_phase_time = 100.0,
    .validate = NULL,
    .data = NULL,
    .describe_error = hes_mech_describe_error,
};
