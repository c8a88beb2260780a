/*
 * model/robot_internal.h - what a robot model (robot_model.c) uses of a
 * robot (robot.c): views, i.e. the robot's mechanical system seen from one
 * mode (a chart that pins a contact at the origin and locks joints at
 * their limits) or one transition (the lift through the source mode's
 * chart, the target's coordinates or a linear relabel), and the model's
 * parameters bound to the robot (slope, motor torques).
 */
#ifndef HES_ROBOT_INTERNAL_H
#define HES_ROBOT_INTERNAL_H

#include <setjmp.h>
#include <stddef.h>

#include "hes.h"

/* joint-limit constraints: two per limited joint, robots of at most
 * HES_MECH_MAX coordinates */
#define HES_ROBOT_MAX_LIMITS (2 * HES_MECH_MAX)
/* linear path constraints per mode and kind (robot models' trajopt) */
#define HES_ROBOT_MAX_LINEAR 8

typedef struct hes__robot_view hes__robot_view;
struct hes__robot_view {
    hes_robot *robot;         /* first: callbacks find the robot in their data */
    hes_mech mech;            /* the robot's, with data = this view */
    /* a mode's chart q = chart(z): q[free[i]] = z[i], q[locked dof] = the
       limit, and with a pinned contact the root's x and z slides put it at
       the origin */
    int pinned;               /* contact index, or -1 */
    int k, free[HES_MECH_MAX];
    int n_locked, locked_dof[HES_MECH_MAX];
    double locked_val[HES_MECH_MAX];
    int n_active, active[HES_MECH_MAX]; /* held: the pinned normal and no-slip, the limits */
    /* a robot model's path constraints in this mode (robot_model.c): the
       unilateral constraints it does not hold, a >= 0; [0] those that are
       its transitions' guards (not checked at the event), [1] the others */
    int n_path[2], path[2][2 * HES_MECH_MAX + HES_ROBOT_MAX_LIMITS];
    /* and the description's linear ones, c . [q; 1] >= 0, after them */
    int n_lin[2];
    const double *lin[2][HES_ROBOT_MAX_LINEAR];
    /* a transition's: lift = from's chart; to_chart = A q + c (A: k_to x d,
       row-major, c: k_to) or, without A, z = q[to->free] */
    const hes__robot_view *from, *to;
    const double *A, *c;
};

/* A mode view of robot r: contact `pinned` (-1: none) held at the origin
 * and the joint-limit constraints `locked` held at their limits.
 * HES_EINVAL (msg) when the robot cannot be pinned (not planar, no root
 * slides along x and z), a locked constraint is not a joint limit, or a
 * coordinate is locked twice. */
hes_status hes__robot_mode_view(hes_robot *r, int pinned, int n_locked, const int *locked,
                                hes__robot_view *v, char *msg, size_t len);
/* The hes_mech_mode of a mode view (chart NULL when z = q). */
void hes__robot_view_mode(const hes__robot_view *v, hes_mech_mode *out);
/* A transition view from mode view `from` to `to` (A, c: NULL or a
 * relabel, kept by the caller); fills the lift and to_chart callbacks of
 * *tr (its other fields are the caller's). */
void hes__robot_transition_view(hes_robot *r, const hes__robot_view *from,
                                const hes__robot_view *to, const double *A, const double *c,
                                hes__robot_view *v, hes_mech_transition *tr);
/* Bind a model's parameters: the slope's index (-1: gravity as in the
 * file) and each motor's parameter index (nu values, -1: zero torque;
 * kept by the caller). */
void hes__robot_bind_params(hes_robot *r, int slope_param, int *motor_param);
/* n - 1 copies of the robot (its file, contacts and bound parameters), so
 * that the systems of one robot model on n threads compute side by side
 * (each callback takes the first instance free); freed with the robot. */
hes_status hes__robot_pool(hes_robot *r, int n, char *msg, size_t len);
/* A mode's inputs: u[a] = p[motor_param[a]] (hes_mech_mode.input). */
int hes__robot_input(double t, const double *x, const double *p, double *u, void *data);
/* The motors: their number and actuator a's name (NULL without one). */
const char *hes__robot_motor_name(const hes_robot *r, int a);

/* A robot file checked before MuJoCo reads it (robot_xml.c): text (n
 * bytes) is the file at path.  HES_EINVAL (msg) for what MuJoCo 2.2.2
 * would crash on, silently change or block on. */
hes_status hes__robot_xml_check(const char *path, const char *text, size_t n, char *msg,
                                size_t len);

/* The scope of a hes call that calls MuJoCo (mujoco_msg.c): MuJoCo's
 * warnings and errors on this thread land here instead of on standard
 * output and in MUJOCO_LOG.TXT.  Use:
 *     hes__mj_scope sc;
 *     hes__mj_enter(&sc);
 *     if (setjmp(sc.jump) == 0) { ...MuJoCo calls... } else { sc.error says why }
 *     hes__mj_leave(&sc);
 * (locals changed between setjmp and an error must be volatile). */
typedef struct hes__mj_scope hes__mj_scope;
struct hes__mj_scope {
    jmp_buf jump;
    char error[512];          /* mju_error's message ("" without one) */
    char warning[512];        /* the first mju_warning's message */
    int warnings;
    hes__mj_scope *outer;     /* the scope this one runs inside, on this thread */
};
void hes__mj_enter(hes__mj_scope *s);
void hes__mj_leave(hes__mj_scope *s);


#endif
