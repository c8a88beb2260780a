/**
 * \file
 * hes/robot.h - robots from MJCF and URDF files (MuJoCo) (part of <hes.h>,
 * which includes every area's header).
 */
#ifndef HES_H_ROBOT
#define HES_H_ROBOT

#include <hes/mech.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------ robots from MJCF/URDF */
/**
 * A mechanical system loaded from a robot description, MJCF or URDF,
 * through MuJoCo (lib/model/robot.c): M(q), gravity, the
 * joints' springs and dampers, joint motors as the inputs (B u), and unilateral contacts at
 * named sites
 * against the ground plane z = 0 (a = the site's height, J_n its vertical
 * Jacobian row, J_t its x row: planar robots move in the x-z plane).
 * Coordinates are MuJoCo's qpos (nq values) and velocities its qvel (nv,
 * hes_mech.d): a ball joint's orientation is a unit quaternion, a free
 * joint's position and orientation are 3 coordinates and a quaternion,
 * and their velocities are the angular velocity in the body's frame
 * (hes_mech.quat; hes_mech_integrate moves q along a velocity).  A limited
 * ball joint gives a cone constraint "NAME_cone": a = range - angle >= 0.
 * Robots with free or ball joints give their dynamics, constraints,
 * inverse dynamics and hybrid robot models whose modes keep every
 * coordinate (hes_robot_model_new).  contacts:
 * the sites and their friction; NULL (n_contacts 0): every site of the
 * file, friction 1 (any number).  HES_ESOLVER when hes was built without
 * MuJoCo; HES_EINVAL (err) for a file MuJoCo cannot load, an unknown
 * site, a contact given twice, actuators that do not drive a hinge or
 * slide joint, a coordinate's name that hes_name_check refuses.  The file is read as any input (hes_input_read: a FIFO or
 * device is refused) and checked before MuJoCo sees it: URDF joint types
 * other than URDF's six, negative or non-finite masses and inertias, and
 * files it names that are not regular files are refused; a load on which
 * MuJoCo warns is refused with the warning (MuJoCo's messages never reach
 * standard output or MUJOCO_LOG.TXT); every mass, inertia, length, gain and
 * the gravity of the compiled model must be finite and at most 1e10
 * (MuJoCo's mjMAXVAL) in magnitude.  A robot holds MuJoCo's work data: use
 * one per thread.
 */
typedef struct hes_robot hes_robot;
/** A contact of a robot with the ground (hes_robot_read). */
typedef struct {
    const char *site;        /**< a site of the file, or a body (URDF: a link) */
    double mu;               /**< friction against the ground */
} hes_robot_contact;

/** Reads the robot of the MJCF or URDF file at path with n_contacts contacts
 * (as hes_robot says): HES_OK with *out, to free with hes_robot_destroy. */
hes_status hes_robot_read(const char *path, const hes_robot_contact *contacts, int n_contacts,
                          hes_robot **out, hes_error *err);
/** Frees a robot (NULL: nothing). */
void hes_robot_destroy(hes_robot *robot);
/** The mechanical system (valid while the robot lives).  Contact i gives
 * two constraints: 2 i, its normal (unilateral, the contact's friction
 * and tangent row: use these indices for hes_mech_contacts), and 2 i + 1,
 * its tangential position "NAME_tangential" (bilateral: no slip, for a
 * pinned foot and a landing foot that sticks).  Then the joint limits.
 * Each constraint's callbacks take its own data (hes_mech_constraint.data:
 * call them with hes_mech_constraint_data). */
const hes_mech *hes_robot_mech(const hes_robot *robot);
/** The robot's numbers of positions q (nq: what hes_robot_reference
 * writes) and of velocities (nv: hes_robot_mech's d); either may be NULL.
 * HES_EINVAL without a robot. */
hes_status hes_robot_dims(const hes_robot *robot, int *nq, int *nv);
/** The name of coordinate i (0 <= i < nq) and of velocity i (0 <= i <
 * nv), or NULL out of range: a hinge's or slide's coordinate and velocity
 * are named after its joint J; a ball joint's coordinates, its unit
 * quaternion (w, x, y, z), are J_qw, J_qx, J_qy, J_qz and its velocities,
 * the body's angular velocity in its own frame, J_wx, J_wy, J_wz; a free
 * joint's are its position J_x, J_y, J_z and then a ball's, its
 * velocities J_vx, J_vy, J_vz (the position's rate, world frame) and then
 * a ball's.  A joint without a name is "jointJ", J its index in the file.
 * hes_mech.quat says where the quaternions are. @{ */
const char *hes_robot_coordinate(const hes_robot *robot, int i);
const char *hes_robot_velocity_name(const hes_robot *robot, int i);
/** @} */
/** The file's reference configuration (qpos0: nq values, hes_robot_dims). */
hes_status hes_robot_reference(const hes_robot *robot, double *q);

/** A robot's dynamics at a state (q, v), for inverse dynamics (lib/model/
 * robot.c): the equation of motion
 *
 *     M(q) a + h(q, v) = B tau + J_c^T f
 *
 * with M (nv x nv, mj_fullM), h (nv: MuJoCo's qfrc_bias, Coriolis,
 * centrifugal and gravity forces, minus the passive forces of springs and
 * dampers), B (nv x nu: joint motors, gear * gain) and the contacts'
 * rows J (rows x nv, rows = nc (1 + tangents), column-major): the normals
 * (the sites' z rows) first, then the x rows, then (3-D robots) the y rows.
 * phi (nc): the sites' heights; Jdv (rows): the rows' drift dJ/dt v, by
 * central differences of J along v; mu (nc).  tangents is 1 for a planar
 * robot (every contact's y row vanishes at the reference configuration:
 * the robot moves in the x-z plane), else 2.  The arrays belong to the
 * robot and are overwritten by the next call.  Robots of any size load
 * (any number of coordinates, contacts and joint limits) and give a
 * hes_mech that hybrid models accept (a robot has net_force: no dM/dq
 * bound; its mass_dq is given up to 64 coordinates, NULL above). */
typedef struct {
    /** the numbers of velocities, motors, contacts, and tangents per contact @{ */
    int nv, nu, nc, tangents;
    /** @} */
    /** M (nv x nv), h (nv), B (nv x nu), J (rows x nv), Jdv (rows), phi (nc) and
     * mu (nc), as above @{ */
    const double *M, *h, *B, *J, *Jdv, *phi, *mu;
    /** @} */
    const double *tau_max;   /**< nu: the limits of the motors' controls u (B u is the
                                  joint force): the smaller of |ctrlrange| and
                                  |forcerange| / |gain|; 0 = none */
} hes_robot_dynamics;
/** The dynamics at (q, v) into *out; HES_EINVAL (err) for a q or v that is
 * not finite. */
hes_status hes_robot_dynamics_at(hes_robot *robot, const double *q, const double *v,
                                 hes_robot_dynamics *out, hes_error *err);
/** Replace the file's motors by unit torques (or forces) on the named joints,
 * without limits: for files without actuators (a URDF's transmissions are
 * not read by MuJoCo).  HES_EINVAL (err) for a name that is not a joint or
 * is given twice, or a free or ball joint (motors drive hinges and
 * slides). */
hes_status hes_robot_set_motors(hes_robot *robot, const char *const *joints, int n, hes_error *err);
/** A mechanical mode of a planar robot standing on contact `contact`: the
 * contact's normal and no-slip constraints held, in the coordinates z =
 * q[2..] of a chart that slides the root (the robot's first two joints,
 * along x and z, on one unturned body or, as a URDF writes them, on a
 * body and its child) so that the contact is at the origin.  For
 * walkers built from robot files: add transitions (hes_mech_transition)
 * and a hes_model as for any mechanical model.  Valid while the robot
 * lives.  HES_EINVAL (err) for a robot that is not planar or whose first
 * joints are not those slides. */
hes_status hes_robot_pinned_mode(const hes_robot *robot, int contact, hes_mech_mode *out,
                                 hes_error *err);
/** Another robot of the same file and contacts (its own MuJoCo data: for
 * another thread, or to change its motors). */
hes_status hes_robot_copy(const hes_robot *robot, hes_robot **out, hes_error *err);
/** Turn gravity about the y axis by `slope` (rad, |slope| < 1.5): g = |g|
 * (sin s, 0, -cos s), so that the ground z = 0 is a slope going down towards
 * +x (a robot model's "slope" parameter).  HES_EINVAL out of range. */
hes_status hes_robot_set_slope(hes_robot *robot, double slope);
/** The number of motors, and the joint motor a drives (NULL out of range). @{ */
int hes_robot_motor_count(const hes_robot *robot);
const char *hes_robot_motor_joint(const hes_robot *robot, int a);
/** @} */
/** Set contact i's friction coefficient (i = -1: every contact's); INFINITY:
 * the contact never slips.  HES_EINVAL for a contact out of range or mu not
 * >= 0. */
hes_status hes_robot_set_friction(hes_robot *robot, int contact, double mu);
/** The number of joint-limit constraints (after the contacts' 2 per
 * contact in hes_robot_mech's numbering). */
int hes_robot_limit_count(const hes_robot *robot);
/** The number of contacts, and contact i's name (NULL out of range). @{ */
int hes_robot_contact_count(const hes_robot *robot);
const char *hes_robot_contact_name(const hes_robot *robot, int i);
/** @} */
/** MuJoCo's model of the robot (an mjModel *; NULL without MuJoCo): for
 * programs that simulate the robot in MuJoCo themselves, e.g.\ the
 * closed-loop experiment in share/examples. */
const void *hes_robot_mujoco_model(const hes_robot *robot);

/** A hybrid model of a robot (lib/model/robot_model.c): modes that hold
 * some of hes_robot_mech's constraints, transitions between them, and an
 * orbit, as data rather than C.  The constraints are numbered as in
 * hes_robot_mech: contact i's normal 2 i and no-slip 2 i + 1, then the
 * joint limits, "JOINT_lower" and "JOINT_upper" for every limited joint
 * (a = q - lo >= 0, a = hi - q >= 0: plastic and frictionless), then for a
 * 3-D robot (two tangents) each contact's second no-slip constraint. */
typedef struct {
    const char *name;        /**< the mode's name */
    int pinned;              /**< contact held at the origin (normal and no-slip; a planar
                                  robot whose first joints slide its root along x and z),
                                  -1: none */
    int n_locked;            /**< the number of joint limits held */
    const int *locked;       /**< joint limits held: those joints stay at their limits */
    /** Constraints held by their forces, with no chart (any robot, 3-D
     * ones and floating bases too): a contact (its normal's index 2 i)
     * holds its normal and no-slip constraints (a 3-D robot's second,
     * "NAME_tangential_y", too), a joint limit itself, with Lagrange
     * multipliers (hes_mech_mode.held); the state [q, v] of every
     * coordinate on the constraints' manifold.  Not with pinned or
     * locked. @{ */
    int n_holds;
    const int *holds;
    /** @} */
    /** Of the held contacts, those that slide (their normals' indices):
     * Coulomb's friction acts against their sliding velocity
     * (hes_mech_mode.sliding), their normal alone is held. @{ */
    int n_slides;
    const int *slides;
    /** @} */
} hes_robot_mode_spec;

/** A transition of a robot's hybrid model (hes_robot_model_spec.transitions),
 * as a hes_mech_transition in the constraints' numbering above. */
typedef struct {
    const char *name;        /**< the transition's name */
    /** @{ */
    int from, to;            /**< mode indices */
    /** @} */
    hes_mech_event kind;     /**< activation (an impact) or release */
    int constraint;          /**< activated (unilateral, not held by `from`) or released
                                  (held by `from`: its force reaches zero) */
    int n_after;             /**< activation: the constraints the plastic impact enforces;
                                  0: those `to` holds and the activated one */
    const int *after;        /**< n_after constraints */
    int n_separate;          /**< that must separate; -1: `from`'s pinned normal unless the
                                  impact holds it */
    const int *separate;     /**< n_separate constraints */
    /** NULL: the target's coordinates are the robot's at its free indices;
     * else a relabel, k_to rows of d + 1 (row-major): z_i = sum_j R_ij q_j
     * + R_i,d (legs swapping roles, spokes renumbered); needs `after` */
    const double *relabel;
} hes_robot_transition_spec;

/** A path constraint of trajectory optimisation in mode `mode`: sum_j c_j q_j
 * + c_d >= 0 over the robot's coordinates q (d + 1 coefficients, copied);
 * at_end: also at the phase's last node. */
typedef struct {
    const char *name;        /**< the constraint's name */
    int mode;                /**< the mode it applies in */
    const double *c;         /**< d + 1 coefficients */
    int at_end;              /**< nonzero: also at the phase's last node */
} hes_robot_linear_path;

/** A joint feedback about a periodic reference (hes_robot_model_spec.control):
 * each tracked motor a adds kp (r_a(t) - q_j) + kd (r_a'(t) - q_j') to its
 * torque, q_j its joint's coordinate, with the reference the Fourier series
 * r_a(t) = a0 + sum_k (a_k cos(k w t) + b_k sin(k w t)), w = 2 pi / T, in
 * the model's time.  The period T and the gains are the model's
 * parameters "period" (s), "kp" and "kd"; the model's orbit is then the
 * stroboscopic map over the period (non-autonomous).  Every mode must keep
 * every coordinate (no pinned contact or locked joint: their states are
 * not the joints'). */
typedef struct {
    double period;           /**< T > 0 */
    /** the gains' defaults @{ */
    double kp, kd;
    /** @} */
    int n_harmonics;         /**< K >= 0 */
    const double *reference; /**< per motor 2K + 1 coefficients, row a: a0, a1, b1, .., aK, bK */
    const int *tracked;      /**< per motor: nonzero to track its reference (NULL: all) */
} hes_robot_control;

/** A robot's hybrid model as data (hes_robot_model_new): its modes,
 * transitions, orbit and optional trajectory optimisation. */
typedef struct {
    /** the model's name and one-line description @{ */
    const char *name, *description;
    /** @} */
    int n_modes;             /**< the number of modes */
    const hes_robot_mode_spec *modes; /**< n_modes of them */
    int n_transitions;       /**< the number of transitions */
    const hes_robot_transition_spec *transitions; /**< n_transitions of them */
    int slope;               /**< nonzero: a parameter "slope" (rad, default slope_value)
                                  turns gravity about y: ground z = 0 goes down towards +x */
    double slope_value;      /**< the slope's default (rad) */
    /** the orbit as in hes_model (guess, any_order, period_param and free
     * parameters ignored; n_free_states and n_residual 0: every state),
     * with its initial state; n_sequence 0 and guess NULL: no orbit */
    hes_orbit_spec orbit;
    int n_guess;             /**< the number of values of guess: the dim of orbit.mode */
    const double *guess;     /**< the orbit's initial state (NULL: no orbit) */
    double max_phase_time;   /**< 0: 10 s */
    /** Optional (NULL): trajectory optimisation (hes trajopt), copied; with
     * n_path 0 the path constraints are generated: in every mode, each
     * contact normal and joint limit the mode does not hold stays >= 0
     * (checked at the phase's end too unless it is the guard of one of the
     * mode's transitions) */
    const hes_trajopt_spec *trajopt;
    /** with a generated trajopt: more path constraints, linear in the robot's
     * coordinates (e.g.\ a swing leg ahead of the stance leg) */
    int n_linear_paths;
    const hes_robot_linear_path *linear_paths; /**< n_linear_paths of them */
    /** Optional (NULL): joint feedback about a periodic reference, copied */
    const hes_robot_control *control;
} hes_robot_model_spec;

/** The model; it takes the robot (freed with the model, and on failure).
 * The model's parameters are "slope" (if asked) and one constant torque per
 * motor, named after its actuator (else "JOINT_torque").  HES_EINVAL (err)
 * for a spec that does not fit the robot, naming the field.  A robot with
 * free or ball joints (quaternion coordinates) has modes of every
 * coordinate only (no pinned contact or locked joint) and transitions
 * without relabels: a mode's state is [q, v] (nq + nv values) on its
 * manifold, tdim = 2 nv (hes_mech_retract ...), named by the coordinates
 * and velocities, its tangent coordinates a free joint's NAME_x..z and its
 * turn NAME_rx..rz, then the velocities.  Systems on
 * several threads may share the model: it keeps a copy of the robot per
 * online CPU (at most 8), and each callback computes on the first copy no
 * other thread holds. */
hes_status hes_robot_model_new(hes_robot *robot, const hes_robot_model_spec *spec,
                               hes_model **out, hes_error *err);
/** A robot model's robot (valid while the model lives), or NULL for any
 * other model. */
hes_robot *hes_robot_model_robot(const hes_model *model);
/** The motion of the robot in mode `mode` at state x with parameters p: q,
 * v and the acceleration a of the mode's vector field, and what the mode
 * holds: its pinned contact (-1: none) and locked coordinates (their
 * indices).  The caller points q at an array of hes_robot_dims' nq values
 * (quaternions included), v, a and locked at arrays of its nv values each
 * (d). */
typedef struct {
    int d;                   /**< the number of velocities */
    /** q (nq values), v and a (d values each), the caller's arrays @{ */
    double *q, *v, *a;
    /** @} */
    /** the pinned contact (-1: none), and the n_locked locked coordinates
     * (locked: the caller's array of d values) @{ */
    int pinned, n_locked, *locked;
    /** @} */
} hes_robot_mode_motion;
/** The motion of mode `mode` of a robot model at (t, x, p) into *out (its
 * arrays set by the caller): HES_EINVAL (err) for a model that is not a
 * robot model, a mode out of range or an array missing, HES_EMODEL when
 * the mode's dynamics fail. */
hes_status hes_robot_model_motion(const hes_model *model, int mode, double t, const double *x,
                                  const double *p, hes_robot_mode_motion *out, hes_error *err);

/** Quantities of a mechanical mode at state x = [z, z']: the configuration
 * q (nq: hes_mech_nq), velocity q' (d), the held constraints' forces lambda (n_active),
 * the kinetic energy.  Any output may be NULL. */
hes_status hes_mech_mode_state(const hes_mech_mode *mode, double t, const double *x,
                               const double *p, double *q, double *qd, double *lambda,
                               double *kinetic);

/** The impact of transition tr at source state x: pre/post velocities in the
 * event's coordinates (q: nq values, hes_mech_nq; qd_minus, qd_plus: d each) and the impulses
 * (n_after).  Any output may be NULL. */
hes_status hes_mech_impact(const hes_mech_transition *tr, const double *x, const double *p,
                           double *q, double *qd_minus, double *qd_plus, double *impulse);

#ifdef __cplusplus
}
#endif

#endif /* HES_H_ROBOT */
