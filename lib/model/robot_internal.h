/*
 * model/robot_internal.h - what the files of a robot share.
 *
 * A robot (struct hes_robot, below) is made and computed on by the MuJoCo
 * adapter, whose files configure chooses: with MuJoCo robot_load.c (the
 * file loaded and compiled, the robot allocated and freed),
 * robot_mujoco.c (the instance a callback computes on, MuJoCo's data at a
 * configuration, the file's joint names), robot_dynamics.c (M, dM/dq, the
 * applied force, a state's dynamics), robot_contact.c (the constraints:
 * contacts and joint limits), robot_motor.c (motors, inputs, the slope),
 * robot_view.c (charts of modes and transitions) and mujoco_msg.c
 * (MuJoCo's messages); without MuJoCo robot_none.c, which refuses.
 * robot.c, in both builds, checks the public calls' arguments and hands
 * them to the adapter, and keeps what needs no MuJoCo.
 *
 * A robot model (robot_model.c) uses views, i.e. the robot's mechanical
 * system seen from one mode (a chart that pins a contact at the origin
 * and locks joints at their limits) or one transition (the lift through
 * the source mode's chart, the target's coordinates or a linear relabel),
 * and the model's parameters bound to the robot (slope, motor torques).
 */
#ifndef HES_ROBOT_INTERNAL_H
#define HES_ROBOT_INTERNAL_H

#include <math.h>
#include <setjmp.h>
#include <stddef.h>

#include <pthread.h>

#include "hes.h"

typedef struct hes__robot_view hes__robot_view;

/* A constraint's data (hes_mech_constraint.data): its robot first (so that
 * HES_ROBOT_OF finds it, as in every callback's data), and the index of
 * its contact or joint limit. */
typedef struct {
    hes_robot *robot;
    int index;
} hes__robot_con;

/* MuJoCo's model and data (mujoco/mujoco.h: mjModel, mjData), named here
 * without MuJoCo's header so that the files of both builds share the
 * robot */
struct mjModel_;
struct mjData_;

/* A robot model's joint feedback (robot_model.c builds it, robot_motor.c
 * applies it): per motor a, u_a += kp (r_a(t) - q[qpos[a]]) + kd (r_a'(t) -
 * v[dof[a]]) where tracked[a], r_a the Fourier series of coef[a (2K + 1)
 * ..] = a0, a1, b1, .., aK, bK over the period; kp, kd and the period are
 * parameters (their indices). */
typedef struct {
    int K, *qpos, *dof, *tracked;
    double *coef;
    int period_param, kp_param, kd_param;
} hes__robot_control;

struct hes_robot {
    hes_robot *self;          /* first, as in a view: every callback's data starts with
                                 the robot (HES_ROBOT_OF(data)) */
    hes_mech mech;
    hes_mech_constraint *cons;
    hes__robot_con *con_data; /* each constraint's data (its cons[].data) */
    char **names;             /* the constraints' names (the sites', the limits') */
    int n_names;
    /* joint limits (n_limits of them, two per limited hinge or slide, one
       per limited ball): constraint 2 nc + l is a = sign (q[qpos] - val)
       >= 0 for a hinge or slide (its dof lim_dof, its coordinate
       lim_qpos), or with sign 0 a ball's cone a = val - angle(q) >= 0 (its
       quaternion at lim_qpos, its first dof lim_dof) */
    int n_limits, *lim_dof, *lim_qpos;
    int *fric;                /* contact c's no-slip rows, 2 c and 2 c + 1: its normal's
                                 friction_rows */
    double *lim_val, *lim_sign;
    /* parameters of a robot model (hes__robot_bind_params; -1: none) */
    int slope_param, *motor_param;
    const hes__robot_control *ctl; /* a robot model's joint feedback (NULL: none) */
    double g0;                /* |gravity| of the file */
    hes__robot_view *pins;    /* hes_robot_pinned_mode's views, one per contact */
    char *path;               /* the file, for hes_robot_copy */
    hes_robot **pool;         /* robot models on threads: [0] this robot, then copies */
    int n_pool;
    pthread_mutex_t lock;     /* recursive: models share a robot between threads */
    /* the last q of mass and mass_dq and their results: a vector field's
       Jacobian by differences perturbs the velocities at the same q */
    int have_M, have_dM;
    double *cM_q, *cM;        /* nq, nv x nv */
    double *cD_q, *cD;        /* nq, nv^3: robots that give dM/dq (mass_dq) */
    double *vq, *vD;          /* a chart's acceleration: q (nq), Dchart (nv x nv) */
    double *rne;              /* nv: mass_dq's bias forces */
    double *path_q;           /* nq: a robot model's path constraints' q (robot_model.c) */
    /* the quaternions' starts in q (hes_mech.quat: a ball's, a free joint's
       after its 3 positions), and the names of the nq coordinates and of
       the nv velocities (hes_robot_coordinate, hes_robot_velocity_name) */
    int *quat;
    char **coord_names, **vel_names;
    struct mjModel_ *m;
    struct mjData_ *d;
    int *site;                /* per contact: its site id (< 0: body -site - 1) */
    double *B;                /* nv x nu input matrix, column-major */
    double *tau_max;          /* nu motor limits (0: none) */
    /* hes_robot_dynamics_at's arrays (rows = nc (1 + tangents)) */
    double *dM, *dh, *dJ, *dJdv, *dphi, *dmu, *jac, *Jp, *Jm, *qs;   /* qs: nq */
    int tangents;
    int nu;                   /* the inputs: the file's motors, or hes_robot_set_motors' */
    int motors_set;           /* nonzero: hes_robot_set_motors replaced the file's motors */
    int n_contacts;
    /* MuJoCo's data holds the position stage at at_q (nq) when at_valid,
       and the velocity stage at zero velocities unless at_moving
       (hes__robot_at); robot_eval.c's work arrays */
    int at_valid, at_moving;
    int root_slides;          /* hes__robot_root_slides: the position stage at zero slides */
    int *carry;               /* per contact, the root slides that carry it (hes__robot_carry) */
    double at_shift[3];       /* the slides of the last hes__robot_at, as a translation */
    double *at_q, *ev_v, *ev_acc;
    int rne_ok;               /* hes__robot_rne_ok: analytic derivatives of inverse dynamics */
    double *rne_work, *ev_eye; /* hes__robot_rne's work; the identity (nv x nv) */
    double *ev_m, *ev_w;      /* robot_view.c's: 6 nv + nv^2, nv x nv */
    double *ev_zero;          /* nv zeros */
    double *ev_q, *ev_dq;     /* robot_eval.c's springs: q (nq), their stretch (nv) */
    /* the last net force (robot_eval.c): its inputs q, q', u and gravity
       (nf_key: nq + nv + nu + 3) and its value (nv), when nf_valid */
    double *nf_key, *nf_out;
    int nf_valid;
    const void *ch_view;      /* the view whose chart at ch_z (k) is in vq and, when */
    double *ch_z;             /* ch_D, vD (robot_view.c); when ch_acc, its */
    int ch_D, ch_acc;         /* acceleration (x, z) ch_a at rates ch_zd (k); when */
    double *ch_zd, ch_a[2];   /* ch_sec, D^2 chart[e_i, e_j]'s (x, z) in ch_S (2 k k) */
    int ch_sec;
    double *ch_S;
    int nq, nv;               /* MuJoCo's numbers of positions and velocities */
};

/* The robot of a callback's data: the robot itself or a view of it. */
#define HES_ROBOT_OF(data) (*(hes_robot *const *)(data))
#define HES_ROBOT_LOCK(r) pthread_mutex_lock(&(r)->lock)
#define HES_ROBOT_UNLOCK(r) pthread_mutex_unlock(&(r)->lock)

/* The floating bases a robot model's symmetries move at most (free
 * joints of bodies on the world). */
#define HES__ROBOT_MAX_ROOTS 8

struct hes__robot_view {
    hes_robot *robot;         /* first: callbacks find the robot in their data */
    hes_mech mech;            /* the robot's, with data = this view */
    /* a mode's chart q = chart(z): q[free[i]] = z[i], q[locked dof] = the
       limit, and with a pinned contact the root's x and z slides put it at
       the origin (arrays of a mode view by the robot's size, d each and
       active d + 2; hes__robot_view_free) */
    int pinned;               /* contact index, or -1 */
    int k, *free;
    int n_locked, *locked_dof;
    double *locked_val;
    int n_active, *active;    /* held: the pinned normal and no-slip, the limits, or the
                                 contacts and limits held by their forces (room for 3 per
                                 contact and every limit) */
    int held;                 /* the contacts are held by their forces (no chart) */
    int n_sliding, *sliding;  /* of them, the normals of contacts that slide (room for
                                 every contact; robot_view.c) */
    /* a robot model's path constraints in this mode (robot_model.c, which
       allocates them): the unilateral constraints it does not hold, a >= 0;
       [0] those that are its transitions' guards (not checked at the
       event), [1] the others */
    int n_path[2], *path[2];
    /* and the description's linear ones, c . [q; 1] >= 0, after them */
    int n_lin[2];
    const double **lin[2];
    /* a transition's: lift = from's chart; to_chart = A q + c (A: k_to x d,
       row-major, c: k_to) or, without A, z = q[to->free] */
    const hes__robot_view *from, *to;
    const double *A, *c;
    /* the orbit's mode's symmetries (robot_model.c): their kinds, and the
       floating bases they move (first coordinate and velocity of each) */
    int n_sym, sym[3], n_root, root_q[HES__ROBOT_MAX_ROOTS], root_v[HES__ROBOT_MAX_ROOTS];
};

/* A mode view of robot r: contact `pinned` (-1: none) held at the origin
 * and the joint-limit constraints `locked` held at their limits.
 * HES_EINVAL (msg) when the robot cannot be pinned (not planar, no root
 * slides along x and z), a locked constraint is not a joint limit, or a
 * coordinate is locked twice.  Free it with hes__robot_view_free (on
 * failure it holds nothing). */
hes_status hes__robot_mode_view(hes_robot *r, int pinned, int n_locked, const int *locked,
                                hes__robot_view *v, char *msg, size_t len);
/* A mode view (of no pinned contact or locked limit) that holds n
 * constraints by their forces: a contact's (its normal's index 2 c) normal
 * and no-slip constraints (and a 3-D robot's y no-slip), a joint limit's
 * own; the mode hes_mech_mode.held.  Of the contacts, the n_slide normals
 * `slide` slide (hes_mech_mode.sliding: their normal alone is held).
 * HES_EINVAL (msg) for a constraint that is neither, one given twice, a
 * sliding contact not held, or a sticking one without friction. */
hes_status hes__robot_view_hold(hes__robot_view *v, int n, const int *held, int n_slide,
                                const int *slide, char *msg, size_t len);
/* What a mode view holds (hes__robot_mode_view's arrays; robot_view.c);
 * a transition view or a zeroed one holds nothing.  The view is zeroed. */
void hes__robot_view_free(hes__robot_view *v);
/* The hes_mech_mode of a mode view (chart NULL when z = q). */
void hes__robot_view_mode(const hes__robot_view *v, hes_mech_mode *out);
/* A transition view from mode view `from` to `to` (A, c: NULL or a
 * relabel, kept by the caller); fills the lift and to_chart callbacks of
 * *tr (hes__robot_transition_fns; its other fields are the caller's). */
void hes__robot_transition_view(hes_robot *r, const hes__robot_view *from,
                                const hes__robot_view *to, const double *A, const double *c,
                                hes__robot_view *v, hes_mech_transition *tr);
/* Bind a model's parameters: the slope's index (-1: gravity as in the
 * file) and each motor's parameter index (nu values, -1: zero torque;
 * kept by the caller). */
void hes__robot_bind_params(hes_robot *r, int slope_param, int *motor_param);
/* Bind a model's joint feedback (kept by the caller; NULL: none). */
void hes__robot_bind_control(hes_robot *r, const hes__robot_control *ctl);
/* The coordinate (qpos) of the joint of velocity dof (robot_mujoco.c; -1
 * without MuJoCo). */
int hes__robot_dof_qpos(const hes_robot *r, int dof);
/* n - 1 copies of the robot (its file, contacts and bound parameters), so
 * that the systems of one robot model on n threads compute side by side
 * (each callback takes the first instance free); freed with the robot. */
hes_status hes__robot_pool(hes_robot *r, int n, char *msg, size_t len);
/* The motors: their number and actuator a's name (NULL without one). */
const char *hes__robot_motor_name(const hes_robot *r, int a);

/* A slope that hes_robot_set_slope takes: finite, |slope| < 1.5. */
static inline int hes__robot_slope_ok(double slope)
{
    return isfinite(slope) && fabs(slope) < 1.5;
}

/*
 * The MuJoCo adapter: what robot.c hands on once a call's arguments are
 * checked.  Without MuJoCo (robot_none.c) each refuses as a robot file's
 * call does: HES_ESOLVER, "robot files need MuJoCo".
 */
/* hes_robot_read: the robot of the file at path and its contacts
 * (robot_load.c). */
hes_status hes__robot_open(const char *path, const hes_robot_contact *contacts, int n_contacts,
                           hes_robot **out, char *msg, size_t len);
/* Free all that hes__robot_open allocated but the pool (robot_load.c). */
void hes__robot_destroy(hes_robot *r);
/* hes_robot_dynamics_at (robot_dynamics.c). */
hes_status hes__robot_dynamics(hes_robot *r, const double *q, const double *v,
                               hes_robot_dynamics *out, char *msg, size_t len);
/* hes_robot_set_motors (robot_motor.c). */
hes_status hes__robot_motors(hes_robot *r, const char *const *joints, int n, char *msg,
                             size_t len);
/* Gravity turned by a slope that hes__robot_slope_ok takes (robot_motor.c). */
hes_status hes__robot_gravity(hes_robot *r, double slope);
/* hes_robot_pinned_mode, for one of the robot's contacts (robot_view.c). */
hes_status hes__robot_pinned(const hes_robot *r, int contact, hes_mech_mode *out, char *msg,
                             size_t len);
/* The lift and to_chart callbacks of a transition view (robot_view.c). */
void hes__robot_transition_fns(hes_mech_transition *tr);

/* The instance of a robot a callback computes on, locked (robot_mujoco.c;
 * robot_none.c: the robot itself). */
hes_robot *hes__robot_grab(hes_robot *base);
/* MuJoCo's data at positions q: the position stage, computed once per q
 * (the last q is kept); hes__robot_at_rest also the velocity stage at
 * zero velocities (robot_mujoco.c).  Code that sets qvel and calls
 * mj_comVel itself sets r->at_moving. */

/* Between the files of the MuJoCo adapter. */
/* MuJoCo's data at positions q, zero velocities (robot_mujoco.c). */
void hes__robot_at(hes_robot *r, const double *q);
void hes__robot_at_rest(hes_robot *r, const double *q);
/* Whether the root slides along x and z (robot_mujoco.c, where it is
 * explained). */
int hes__robot_root_slides(const struct mjModel_ *m);
/* The free joints of bodies on the world (a floating base): their first
 * coordinate (qpos) and velocity (dof), at most max of them; returns how
 * many there are (robot_mujoco.c; 0 without MuJoCo). */
int hes__robot_root_frees(const hes_robot *r, int *qpos, int *dof, int max);
/* The quaternions among the coordinates (r->quat, r->mech's d, n_quat,
 * quat) and the names of the coordinates and velocities (robot_mujoco.c):
 * HES_EINVAL (msg) for a name hes_name_check refuses. */
hes_status hes__robot_coordinates(hes_robot *r, const char *path, char *msg, size_t len);
/* r->carry from the contacts' bodies (robot_mujoco.c). */
void hes__robot_carry(hes_robot *r);
/* The world position x[3] of contact c's point at the last hes__robot_at
 * (robot_mujoco.c). */
void hes__robot_point(const hes_robot *r, int c, double *x);
/* MuJoCo's data at positions q and velocities v (robot_mujoco.c). */
void hes__robot_at_moving(hes_robot *r, const double *q, const double *v);
/* The hes_mech callbacks net_force and net_force_dx: f - c and the
 * residual's Jacobians from MuJoCo's recursive Newton-Euler pass
 * (robot_eval.c). */
int hes__robot_net_force(const double *q, const double *qd, const double *u, const double *p,
                         double *out, void *data);
int hes__robot_net_force_dx(const double *q, const double *qd, const double *qdd,
                            const double *u, const double *p, int n_dir, const double *V,
                            double *rq, double *rqd, double *ru, void *data);
/* Inverse dynamics and its derivatives along n_dq directions dq of q and
 * the unit directions of q' (out_dqd, may be NULL) at the position stage
 * MuJoCo's data holds, for robots hes__robot_rne_ok takes (robot_rne.c);
 * hes__robot_rne_size: the bytes of work it needs (r->rne_work). */
int hes__robot_rne_ok(const struct mjModel_ *m);
void hes__robot_rne(hes_robot *r, const double *qd, const double *qdd, int n_dq,
                    const double *dq, double *out, double *out_dq, double *out_dqd);
size_t hes__robot_rne_size(const struct mjModel_ *m, int max_dirs);
/* Contact c's point velocity v and acceleration a = J' q' (gravity off,
 * q'' = 0) and their derivatives along n_dq directions of q and n_dqd of
 * q' (robot_rne.c; at most the sizes hes__robot_rne_size was given). */
void hes__robot_point_motion(hes_robot *r, int c, const double *qd, int n_dq, const double *dq,
                             int n_dqd, const double *dqd, double *v, double *a, double *dv,
                             double *da);
/* passive(q, v) - qfrc_bias(q, v) (nv) through MuJoCo (robot_eval.c). */
void hes__robot_passive_less_bias(hes_robot *r, const double *q, const double *v, double *out);
/* The arrays of robot_eval.c, by the robot's size: HES_ENOMEM (msg) when
 * out of memory. */
hes_status hes__robot_eval_alloc(hes_robot *r, char *msg, size_t len);
/* The hes_mech callbacks M, dM/dq and the applied force (robot_dynamics.c). */
int hes__robot_mass(const double *q, const double *p, double *out, void *data);
int hes__robot_mass_dq(const double *q, const double *p, double *D, void *data);
int hes__robot_force(const double *q, const double *qd, const double *u, const double *p,
                     double *out, void *data);
/* Contact c's height a, its normal row Da and tangent row Jt at q, and its
 * x position (robot_contact.c; pointers may be NULL). */
int hes__robot_site_contact(hes_robot *r, int c, const double *q, double *a, double *Da,
                            double *Jt);
int hes__robot_site_x(hes_robot *r, int c, const double *q, double *x);
/* The constraints of a robot of r->n_contacts contacts (robot_contact.c):
 * HES_EINVAL (msg) for an unknown site, a bad friction or a bad name. */
hes_status hes__robot_constraints(hes_robot *r, const char *path,
                                  const hes_robot_contact *contacts, int n_contacts, char *msg,
                                  size_t len);
/* r->tangents: 1 for a planar robot, else 2 (robot_contact.c). */
/* A 3-D robot's y no-slip constraints, after its tangents are known
 * (robot_contact.c). */
hes_status hes__robot_constraints_y(hes_robot *r, const char *path, char *msg, size_t len);
void hes__robot_tangents(hes_robot *r);
/* B and the motors' limits from the file's actuators (robot_motor.c). */
void hes__robot_file_motors(hes_robot *r);
/* A mode's inputs: u[a] = p[motor_param[a]] (hes_mech_mode.input;
 * robot_motor.c). */
int hes__robot_input(double t, const double *x, const double *p, double *u, void *data);

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
