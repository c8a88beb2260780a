/*
 * problems.h - the built-in models (one file each in problems/), listed by
 * registry.c.  Each is the same plain data + callbacks a user plugin provides.
 */
#ifndef HES_PROBLEMS_H
#define HES_PROBLEMS_H

#include "hes.h"

extern const hes_model hes__problem_paddle_juggler;
extern const hes_model hes__problem_slip_hopper;
extern const hes_model hes__problem_twin_jugglers;
extern const hes_model hes__problem_twin_jugglers_swapped;
extern const hes_model hes__problem_trot_rigid;
extern const hes_model hes__problem_trot_soft;
extern const hes_model hes__problem_knee_biped;

/* Event-selected systems (lib/contact's integrator). */
extern const hes_ess_model hes__ess_problem_hopper_1d;
extern const hes_ess_model hes__ess_problem_hopper_pumped;
/* hopper-1d's state and event names, stance pattern (s = (+1, -1)), event
 * functions touchdown l0 - y and liftoff y - l0 and their Jacobian
 * (hopper_1d.c), which hopper-pumped shares (l0 is parameter 3) */
extern const char *const hes__hopper_state_names[2];
extern const char *const hes__hopper_event_names[2];
int hes__hopper_stance(const int *s);
int hes__hopper_events(const double *x, const double *p, double *out, void *data);
int hes__hopper_events_dx(const double *x, const double *p, double *out, void *data);
extern const hes_ess_model hes__ess_problem_plate_springs;
/* The data of a plate on N legs (plate_legs.c): N, and an allocated
 * model's 2N event names (NULL in the built-in ones). */
typedef struct {
    int N;
    char **names;
} hes__plate_data;
/* A model for N legs from the built-in base: a touchdown and a liftoff
 * event per leg, at 2i and 2i + 1 (paired) or at i and N + i; NULL
 * without memory.  Its release field frees it (hes_ess_model_destroy). */
hes_ess_model *hes__plate_legs_model(const hes_ess_model *base, int N, int paired,
                                     const char *description);
/* One stance leg's terms of the plate's field Jacobian (F = k pen + c rate
 * along g = dpen/dq, H its Hessian, v = q'), added to Dq and Dv (3 x 3,
 * row-major); and the 6 x 6 Jacobian from them (plate_legs.c). */
void hes__plate_leg_dx(double k, double c, double pen, double rate, const double *g,
                       const double *H, const double *v, double *Dq, double *Dv);
void hes__plate_field_dx(double mass, double inertia, const double *Dq, const double *Dv,
                         double *out);
/* The field of a plate from sums over its stance legs (plate_legs.c):
 * the sums of 1, j and j^2 over the stance legs j (HES__PLATE_SUMS values;
 * hes__plate_sums_add adds leg j with weight w), and from them the sum of
 * a leg term quadratic in the leg's offset d from the plate's centre
 * (term adds its gen (3) and, Dq not NULL, its Dq and Dv, 3 x 3 row-major,
 * at offset d; legs at -a + 2a j / (N - 1)), added to gen, Dq and Dv. */
/* The plates' states (x, z, theta, vx, vz, omega) and legs: leg j of N
 * at x0 + delta j, evenly over [-a, a] (x0 = 0, delta = 0 for N = 1). */
extern const char *const hes__plate_state_names[6];
void hes__plate_leg_grid(int N, double a, double *x0, double *delta);
double hes__plate_leg_x(int j, int N, double a);
#define HES__PLATE_SUMS 3
typedef void (*hes__plate_leg_terms)(const double *x, const void *pose, double d,
                                     const double *p, int N, double gen[3], double *Dq,
                                     double *Dv);
void hes__plate_sums_add(double *sums, int j, double w);
void hes__plate_sum_terms(hes__plate_leg_terms term, const double *x, const void *pose,
                          const double *p, int N, double a, const double *sums, double gen[3],
                          double *Dq, double *Dv);
/* Intervals and the broad phase of a plate's guards affine in the leg's
 * position X, h = alpha + beta X with alpha in A and beta in B over a box
 * of states: the legs j (at -a + 2a j / (N - 1)) whose guard may lie in
 * [lo, hi], written to idx as first + stride j; returns how many
 * (plate_legs.c).  The interval functions of angles need the interval
 * within (-pi/2, pi/2). */
typedef struct {
    double lo, hi;
} hes__iv;
hes__iv hes__iv_add(hes__iv a, hes__iv b);
hes__iv hes__iv_scale(double c, hes__iv a);
hes__iv hes__iv_mul(hes__iv a, hes__iv b);
hes__iv hes__iv_sin(hes__iv a);
hes__iv hes__iv_cos(hes__iv a);
hes__iv hes__iv_tan(hes__iv a);
int hes__plate_legs_near(hes__iv A, hes__iv B, double lo, double hi, int N, double a, int first,
                         int stride, int *idx);
/* Every guard of a plate on N legs (idx = 0 .. 2N - 1, returns 2N) when
 * the box's angle interval leaves (-1.5, 1.5), where the interval
 * functions hold; else -1 */
int hes__plate_near_all(const double *lo, const double *hi, int N, int *idx);
extern const hes_ess_model hes__ess_problem_plate_vertical;

/* Simultaneous impacts (lib/contact's impact laws and outcome sets). */
extern const hes_impact_problem hes__impact_problem_rocking_block;
extern const hes_impact_problem hes__impact_problem_compass_gait;
extern const hes_impact_problem hes__impact_problem_box_wall;
extern const hes_impact_problem hes__impact_problem_disk_stack;

/* A point (cx, cy) of a planar rigid body whose (x, y, theta) are columns
 * col..col+2 of q (planar_body.c): position p (2) and the rows of its
 * velocity Jacobian jx, jy (only the body's three columns are written);
 * any output may be NULL.  Its contact with the floor (normal +y) or a
 * wall at x = 0 (normal -x): a, Da and Jt (d each, zeros elsewhere). */
void hes__planar_point(const double *q, int col, double cx, double cy, double *p, double *jx,
                       double *jy);
int hes__floor_contact(const double *q, int d, int col, double cx, double cy, double *a,
                       double *Da, double *Jt);
int hes__wall_contact(const double *q, int d, int col, double cx, double cy, double *a,
                      double *Da, double *Jt);

/* The constraint callbacks a_NAME, Da_NAME and Jt_NAME of the point
 * (CX, CY) of a planar body with q = (x, y, theta), against the floor
 * (FN = hes__floor_contact) or the wall (hes__wall_contact). */
#define HES__BODY_CONTACT(NAME, FN, CX, CY)                                        \
    static int a_##NAME(const double *q, const double *p, double *out, void *data) \
    {                                                                              \
        (void)p, (void)data;                                                       \
        return FN(q, 3, 0, CX, CY, out, NULL, NULL);                               \
    }                                                                              \
    static int Da_##NAME(const double *q, const double *p, double *out, void *data) \
    {                                                                              \
        (void)p, (void)data;                                                       \
        return FN(q, 3, 0, CX, CY, NULL, out, NULL);                               \
    }                                                                              \
    static int Jt_##NAME(const double *q, const double *p, double *out, void *data) \
    {                                                                              \
        (void)p, (void)data;                                                       \
        return FN(q, 3, 0, CX, CY, NULL, NULL, out);                               \
    }

#endif
