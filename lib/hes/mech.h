/**
 * \file
 * hes/mech.h - mechanical (Lagrangian) systems (part of <hes.h>, which
 * includes every area's header).
 */
#ifndef HES_H_MECH
#define HES_H_MECH

#include <hes/model.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------ mechanical systems */

/**
 * \file
 *
 * Mechanical systems with unilateral constraints (decoupled-limbs paper,
 * Sec.\ 2).  Configuration q in R^d, mass matrix M(q), applied forces f, and
 * constraints a_j(q) >= 0.  While the constraints J are active,
 *
 *     M(q) q'' = f(q, q', u) - C(q, q') q' + Da_J(q)^T lambda_J          (eq. 1)
 *
 * where the Coriolis/centrifugal term is derived by the library from M:
 *
 *     [C q']_i = sum_k (dM_ik/dq_l) q'_l q'_k - 1/2 q'^T (dM/dq_i) q'.
 *
 * An impact that makes the constraints J hold enforces, with Gamma the
 * diagonal of the constraints' restitution coefficients (eq. 3-4),
 *
 *     q'+ = q'- - M^-1 Da_J^T (Da_J M^-1 Da_J^T)^-1 (I + Gamma) Da_J q'-,
 *
 * so that Da_J q'+ = -Gamma Da_J q'-.  Every solve uses Cholesky
 * factorisations, never an explicit inverse.
 *
 * A model is still a hes_model: its modes and transitions use the generic
 * callbacks hes_mech_field, hes_mech_guard and hes_mech_reset with a
 * hes_mech_mode / hes_mech_transition as their data (hes_mode.data,
 * hes_transition.data), so guards, resets, vector fields and from them the
 * saltation matrices are derived, not written by hand.
 *
 * Sizes: d, k, the inputs and the constraints have no fixed limit.  The
 * callbacks' work arrays are on the stack for systems of up to 16 of each
 * (no allocation inside the integrators), one heap block per call above
 * that (a failed allocation is HES_ENOMEM, never a crash).  A system
 * without net_force takes at most 64 coordinates: its Coriolis terms come
 * from dM/dq, d^3 values at every evaluation of its field
 * (hes_model_validate refuses more); a system with net_force (a robot's)
 * needs no dM/dq and has no bound.
 */

/** f(q, p, out, data): a function of the configuration. */
typedef int (*hes_mech_config_fn)(const double *q, const double *p, double *out, void *data);

/** A constraint a_j(q) >= 0 of a mechanical system: a contact, a joint limit,
 * a no-slip condition. */
typedef struct {
    const char *name;        /**< the constraint's name (hes_name_check) */
    hes_mech_config_fn a;    /**< out[0] = a_j(q), admissible where >= 0 */
    hes_mech_config_fn Da;   /**< out[d] = Da_j(q); NULL: central differences */
    double restitution;      /**< gamma_j >= 0 (0: plastic) */
    int unilateral;          /**< 1: can only push (impulse >= 0); 0: bilateral (e.g.\ no slip) */
    /** Friction (0 and NULL: frictionless): the Coulomb
     * coefficient and the tangent row, out[d] = J_t,j(q), so that J_t,j q'
     * is the contact's sliding velocity along its tangent (planar: one
     * tangent, both signs; a row rather than a function's gradient because
     * rolling bodies' sliding velocities are not one).  Required when
     * mu > 0. @{ */
    double mu;
    hes_mech_config_fn Jt;
    /** @} */
    /** What a, Da, Jt and drift receive as their data; NULL: the system's
     * (hes_mech.data).  One function then serves many constraints, each
     * with its own data (a robot's contacts and joint limits).  Whoever
     * calls these callbacks passes hes_mech_constraint_data(). */
    void *data;
    /** Optional, for modes that hold the constraint by its force
     * (hes_mech_mode.held): drift(q, q', p, out, data), out[0] = (d/dt
     * Da(q)) q', the constraint's acceleration a'' at q'' = 0; NULL:
     * central differences of Da along q'. */
    int (*drift)(const double *q, const double *qd, const double *p, double *out, void *data);
    /** 1: a no-slip condition: a mode that holds it by its force keeps its
     * velocity Da q' = 0 but not its position (the point sticks where it
     * landed, whatever a(q) is there); 0: held at a(q) = 0 too. */
    int sticks;
    /** A contact's Coulomb cone (with mu > 0): the no-slip constraints
     * whose forces its friction bears.  Where this constraint and they
     * are held together by a held mode's forces (hes_mech_mode.held), or
     * by the impulses of an impact into such a mode (a pinned chart's
     * contact is an ideal pin), their tangential force must lie in the cone,
     * |lambda_t| <= mu lambda_n (Euclidean norm over the rows) while it
     * pushes (lambda_n >= 0; a pull is for a release to catch): otherwise
     * the foot would slip, and the impact or the mode is refused (E_SLIP,
     * hes_mech_describe_error).  0 and NULL: no check. @{ */
    int n_friction_rows;
    const int *friction_rows;
    /** @} */
} hes_mech_constraint;

/** A mechanical system: M(q), the applied forces f(q, q', u) and the
 * constraints a_j(q) >= 0 of eq.\ 1 (the header's description). */
typedef struct {
    const char *name;        /**< the system's name */
    int d;                   /**< configuration dimension */
    hes_mech_config_fn mass; /**< out[d*d] = M(q), symmetric positive definite */
    hes_mech_config_fn mass_dq; /**< out[d*d*d] = dM/dq_k (k-th d x d block); NULL: fourth-
                                     order central differences (error ~1e-12 relative) */
    /** out[d] = applied generalized forces (gravity, springs, dampers, B(q) u);
     * Coriolis/centrifugal terms are added by the library */
    int (*force)(const double *q, const double *qd, const double *u, const double *p,
                 double *out, void *data);
    int m;                   /**< number of inputs u */
    int n_constraints;       /**< the number of constraints */
    const hes_mech_constraint *constraints; /**< n_constraints of them */
    void *data;              /**< passed to every callback above */
    /** Optional: the Jacobians of force at (q, q', u), column-major:
     * fq[d*d] = df/dq, fqd[d*d] = df/dq', fu[d*m] = df/du (m > 0).  Used by
     * hes_mech_field_dx; NULL: fourth-order central differences of force.
     * hes_model_check_derivatives checks them directly, in q, q' and u. */
    int (*force_dx)(const double *q, const double *qd, const double *u, const double *p,
                    double *fq, double *fqd, double *fu, void *data);
    /** Optional, for systems that compute the Coriolis terms themselves
     * (a robot's recursive Newton-Euler pass): out[d] = f(q, q', u) -
     * c(q, q'), what M q'' equals with no constraint held.  The library
     * then uses it in place of force and the c it derives from dM/dq, and
     * needs no dM/dq for the vector field. */
    int (*net_force)(const double *q, const double *qd, const double *u, const double *p,
                     double *out, void *data);
    /** Optional with net_force: the Jacobians of the equations' residual
     * r(q, q', q'', u) = f - c - M(q) q'' at (q, q', q'', u), column-major:
     * rq[d*n_dir] = (dr/dq) V, its derivatives along the n_dir <= d
     * directions V[d*n_dir] (V NULL: the identity, n_dir = d; at fixed q',
     * q'': the dM/dq q'' term included; a mode's chart needs only its k
     * columns), rqd[d*d] = d(f - c)/dq', ru[d*m] =
     * df/du (m > 0).  Used by hes_mech_field_dx; NULL: fourth-order
     * central differences of net_force and M. */
    int (*net_force_dx)(const double *q, const double *qd, const double *qdd, const double *u,
                        const double *p, int n_dir, const double *V, double *rq, double *rqd,
                        double *ru, void *data);
    /** Orientations among the coordinates (ball and free joints): q holds
     * nq = d + n_quat values, of which quat[j] (ascending) is where the
     * j-th unit quaternion (w, x, y, z) starts.  Its velocity is the
     * angular velocity omega in the body's frame, v[quat[j] - j ..
     * quat[j] - j + 2], and q' = 1/2 q (x) (0, omega) (MuJoCo's
     * convention); every other coordinate is its own velocity, in order
     * (hes_mech_qdot).  Velocities, M, forces, Da and Jt rows have d
     * values: directions dq are velocities (hes_mech_integrate).  0 and
     * NULL: q has d values, q' = v. @{ */
    int n_quat;
    const int *quat;
    /** @} */
} hes_mech;

/** The configuration manifold of a mechanical system with unit quaternions
 * among its coordinates (hes_mech.quat; lib/model/mech_config.c).  For a
 * system without any every map is the flat one (q + h v, q1 - q0, the
 * identity).  Each quaternion block: q (+) v = q (x) exp(v / 2) with
 * exp(w / 2) = (cos |w|/2, sin(|w|/2) w / |w|), and its inverse
 * q1 (-) q0 = 2 log(q0^* (x) q1) (the shorter way round).  @{ */
/** nq = d + n_quat, the number of coordinates. */
int hes_mech_nq(const hes_mech *m);
/** qd[nq] = dq/dt at velocities v[d]. */
void hes_mech_qdot(const hes_mech *m, const double *q, const double *v, double *qd);
/** out[nq] = q (+) h v, each quaternion unit (out may be q). */
void hes_mech_integrate(const hes_mech *m, const double *q, const double *v, double h,
                        double *out);
/** v[d] = q1 (-) q0: q0 (+) v = q1. */
void hes_mech_difference(const hes_mech *m, const double *q1, const double *q0, double *v);
/** G[nq * d] = d(q (+) v)/dv at v = 0 (column-major), the matrix of
 * q' = G(q) v. */
void hes_mech_qdot_dv(const hes_mech *m, const double *q, double *G);
/** out[nq * nq] = d(G(q) v)/dq at fixed v (column-major). */
void hes_mech_qdot_dq(const hes_mech *m, const double *v, double *out);
/** P[d * nq] = d(y (-) q)/dy at y = q (column-major), for unit
 * quaternions: P G = I, and P annihilates each quaternion's radial
 * direction (so the derivatives of a function of q / |q| in the
 * coordinates are its derivatives along velocities times P). */
void hes_mech_difference_dq(const hes_mech *m, const double *q, double *P);
/** Each quaternion of q divided by its norm. */
void hes_mech_normalize(const hes_mech *m, double *q);
/** @} */

/** The data constraint c of mechanical system m gives its callbacks: its
 * own, else the system's. */
static inline void *hes_mech_constraint_data(const hes_mech *m, const hes_mech_constraint *c)
{
    return c->data ? c->data : m->data;
}

/** A mode: the mechanical system with the constraints `active` held, in
 * coordinates z of dimension k with q = chart(z) (NULL: z = q).  The mode's
 * state is [z, z'] (2k values); its vector field is the reduced one,
 *
 *     (Phi^T M Phi) z'' = Phi^T (f - C q' - M Phi' z'),  Phi = Dchart(z),
 *
 * in which the forces of the held constraints do no work. */
typedef struct {
    const hes_mech *mech;    /**< the mechanical system */
    int n_active;            /**< the number of constraints held */
    const int *active;       /**< constraints held (their forces are lambda_J) */
    int k;                   /**< the dimension of z (the mode's state has 2k values) */
    hes_mech_config_fn chart;    /**< out[d] = q(z); NULL: identity (k == d) */
    /** With a chart both derivatives are required: the vector field must be
     * smooth to the integrator's tolerance, which differences are not. */
    hes_mech_config_fn chart_dz; /**< out[d*k] = Dchart(z) */
    /** out[d] = D^2 chart(z)[z', z'], the acceleration of q at z'' = 0 */
    int (*chart_acc)(const double *z, const double *zd, const double *p, double *out,
                     void *data);
    /** out[m] = the inputs in this mode as a function of time and state; NULL: zero */
    int (*input)(double t, const double *x, const double *p, double *u, void *data);
    /** Optional, for the field's Jacobian (hes_mech_field_dx): out[d*k*k] =
     * D^2 chart(z)[e_i, e_j] (the d values of pair (i, j) from (i k + j) d);
     * NULL: by polarisation of chart_acc. */
    int (*chart_second)(const double *z, const double *p, double *out, void *data);
    /** Optional, for the field's Jacobian: out[d*k] = d chart_acc(z, z')/dz
     * at fixed z' (column-major); NULL: fourth-order central differences. */
    int (*chart_acc_dz)(const double *z, const double *zd, const double *p, double *out,
                        void *data);
    /** 1: the active constraints are held by their forces, with no chart
     * (chart NULL, k = d): the state is [q, v] and its dynamics the
     * constrained equations of motion
     *     M q'' - Da^T lambda = f - c,
     *     Da q'' = -drift - 2 s (Da q') - s^2 a(q)        (s = HES_MECH_HOLD_RATE),
     * whose last two terms vanish where the constraints hold (a = 0, Da q'
     * = 0; no s^2 a term for a constraint that sticks) and pull an
     * integrator's errors back to them.  The state then lives on a
     * manifold of tangent dimension (d - h) + (d - n_active), h the held
     * constraints that do not stick (the held rows independent): its
     * hes_mode takes the hooks hes_mech_retract ... (hes_mech_mode_tdim),
     * which project onto it. */
    int held;
    /** A held mode's sliding contacts: normals among `active` whose friction
     * rows (hes_mech_constraint.friction_rows) are not held: the contact
     * slides, and Coulomb's friction -mu lambda_n s acts along those rows,
     * s = v_t / |v_t| the unit sliding velocity (v_t their rows' rates; at
     * rest, -lambda_t / |lambda_t| of the same mode with the contact
     * sticking: it starts to slide against the friction it bore, which is
     * continuous at the cone).  The normal's force then acts along Da_n -
     * mu s^T Da_t.
     * @{ */
    int n_sliding;
    const int *sliding;
    /** @} */
    /** Held contacts (normals) whose friction cone a transition out of the
     * mode watches (HES_MECH_SLIP): its guard ends the mode where the cone
     * is reached, so the field does not refuse the states just past it
     * (the integrator's, locating the event). @{ */
    int n_slip_watched;
    const int *slip_watched;
    /** @} */
    /** Optional: fixed sliding directions, HES_MECH_MAX_FRICTION values
     * per sliding contact in the order of `sliding`, used instead of
     * the velocities' (NULL: from the velocities).  The field's Jacobian
     * freezes the directions this way and adds their derivative, (I - s
     * s^T) / |v_t| times that of v_t, in closed form. */
    const double *sliding_s;
    /** Optional, with a chart: chart(z) into q, Dchart(z) into Dchart (d*k),
     * q' = Dchart z' into qd and, when acc is not NULL, chart_acc(z, z')
     * into acc, all in one call, for a chart that computes them from one
     * pass (a robot's kinematics); NULL: the three callbacks in turn. */
    int (*chart_state)(const double *z, const double *zd, const double *p, double *q,
                       double *Dchart, double *qd, double *acc, void *data);
} hes_mech_mode;

/** The most friction rows a sliding contact may have. */
#define HES_MECH_MAX_FRICTION 4

/** The rate s of a held mode's pull back onto its constraints (per unit
 * time: the model's, seconds for robots). */
#define HES_MECH_HOLD_RATE 10.0

/** The kind of a mechanical transition (hes_mech_transition.kind). */
typedef enum {
    HES_MECH_ACTIVATE = 0,   /**< a constraint becomes active: an impact */
    HES_MECH_RELEASE = 1,    /**< a held constraint is released: its force reaches zero */
    HES_MECH_SLIP = 2,       /**< a held contact starts to slide: its tangential force
                                  reaches mu times its normal one (the guard mu lambda_n -
                                  |lambda_t| crossed downward; `constraint` its normal, the
                                  target mode sliding it: hes_mech_mode.sliding); no impulse */
    HES_MECH_STICK = 3       /**< a sliding contact comes to rest and sticks: its sliding
                                  speed |v_t| falls to HES_MECH_STICK_SPEED (1 + |q'|) (the
                                  guard |v_t| - that crossed downward; `constraint` its
                                  normal, sliding in the source, sticking in the target),
                                  where a plastic impact on the target's held rows takes the
                                  rest of its tangential velocity, of that size */
} hes_mech_event;

/** The relative sliding speed at which a HES_MECH_STICK transition stops a
 * contact (Coulomb's speed falls to zero at a finite rate, where its
 * direction is undefined: the event is taken just before, and the
 * trajectory is Coulomb's to about this times the velocities).  Below a
 * tenth of it a sliding contact's direction blends into the one it starts
 * to slide in from rest (lib/model/mech.c), which keeps the direction and
 * the field's Jacobian continuous where a slide starts. */
#define HES_MECH_STICK_SPEED 1e-6

/** A transition between mechanical modes.  Activation: guard a_c(q) crossed
 * downward (declare HES_DOWN), then the impact law above with J = `after`,
 * computed in the event's mechanical system `mech` (NULL: the source mode's)
 * reached through `lift`: z -> q (NULL: the source chart), e.g. a floating-
 * base extension that adds the hip position.  Release: guard lambda_c (the
 * force of held constraint c of the source mode) crossed downward; no impulse.
 * Then `to_chart`: q -> z of the target mode (NULL: identity), which may
 * relabel (legs swap) or drop coordinates (a locked joint).  Checked at every
 * event: Da_J q'+ = -Gamma Da_J q'- (to 1e-8), no unilateral impulse pulls,
 * every constraint in `separate` has a separating velocity afterwards, and a
 * plastic impact does not increase the kinetic energy. */
typedef struct {
    /** @{ */
    const hes_mech_mode *from, *to; /**< the source and target modes */
    /** @} */
    hes_mech_event kind;     /**< activation (an impact) or release */
    int constraint;          /**< the constraint activated (index in the event's mech)
                                  or released (index in the source mode's mech) */
    const hes_mech *mech;    /**< the event's mechanical system (NULL: the source mode's) */
    hes_mech_config_fn lift;     /**< out[d] = q(z) in the event's mech */
    hes_mech_config_fn lift_dz;  /**< out[d*k] = Dlift; NULL: central differences */
    int n_after;             /**< the number of constraints the impact enforces */
    const int *after;        /**< constraints enforced by the impact (event mech indices);
                                  must include every constraint the target mode holds
                                  (checked when there is no to_chart) */
    int n_separate;          /**< the number of constraints that must separate */
    const int *separate;     /**< constraints that must separate (event mech indices) */
    hes_mech_config_fn to_chart;    /**< out[k_to] = z(q); NULL: identity */
    hes_mech_config_fn to_chart_dq; /**< out[k_to*d] = Dto_chart; NULL: central differences */
    /** Optional: another impact law in place of the one above,
     * e.g.\ one outcome of a frictional impact's set (hes_impact_orbit
     * builds these): impact(q, q'-, p, q'+, ctx) in the event's mech.  The
     * checks still apply, with Da_J q'+ = -Gamma Da_J q'- to 1e-6 of the
     * velocities (the other law's termination tolerance). */
    int (*impact)(const double *q, const double *qd_minus, const double *p, double *qd_plus,
                  void *ctx);
    void *impact_ctx;        /**< ctx of impact */
} hes_mech_transition;

/** The configuration q (nq values: hes_mech_nq) and velocity q' (d) of
 * transition tr's event mechanical system at source state x (through its
 * lift, or the source chart). */
hes_status hes_mech_event_state(const hes_mech_transition *tr, const double *x,
                                const double *p, double *q, double *qd);

/** Generic callbacks; data is the hes_mech_mode (field) or hes_mech_transition
 * (guard, reset).  Failure codes are described by hes_mech_describe_error
 * (use it as the model's describe_error). @{ */
int hes_mech_field(double t, const double *x, const double *p, double *out, void *data);
/** The Jacobian of hes_mech_field (out[2k * 2k], column-major), for
 * hes_mode.field_dx: from the structure of the equations, with one
 * Cholesky factorisation (lib/model/mech_dx.c); exact in M, dM/dq and the
 * chart's first and second derivatives, fourth-order differences (~1e-12
 * relative) of the force, the inputs, dM/dq and the chart's acceleration. */
int hes_mech_field_dx(double t, const double *x, const double *p, double *out, void *data);
int hes_mech_guard(double t, const double *x, const double *p, double *out, void *data);
/** hes_mode.admissible of a mechanical mode (data: its hes_mech_mode): 0,
 * or the code of a held unilateral constraint whose force is negative or a
 * held contact outside its friction cone; 0 for every mode not held by its
 * forces. */
int hes_mech_admissible(double t, const double *x, const double *p, double *out, void *data);
/** For hes_mode.consistent: the projector (out[n * n]) onto the
 * perturbations a held mode's flow is differentiable along at a phase's
 * start x: those that leave the tangential velocity of every sliding
 * contact at rest unperturbed, P = I - B (C B)^-1 C with C = d(v_t)/dx and
 * B = [0; M^-1 Da_t^T] (the contacts' impulse directions); the identity
 * for every other mode and state. */
int hes_mech_consistent(double t, const double *x, const double *p, double *out, void *data);
/** The gradient of hes_mech_guard (out[2k]), for hes_transition.guard_dx:
 * an activation's (Da_c Dlift, 0) exactly, from the constraint's row and
 * the lift's (or the source chart's) Jacobian; a release's by fourth-order
 * differences. */
int hes_mech_guard_dx(double t, const double *x, const double *p, double *out, void *data);
/** Its time derivative (out[0]), for hes_transition.guard_dt: 0 for an
 * activation (a configuration's constraint), central differences for a
 * release (the force depends on time through the inputs). */
int hes_mech_guard_dt(double t, const double *x, const double *p, double *out, void *data);
int hes_mech_reset(double t, const double *x, const double *p, double *out, void *data);
/** The reset's derivatives DxR (out[n_J * n_I]) and DtR (out[n_J]) by central
 * differences of hes_mech_reset without its checks of the event's
 * consistency (a release that slips, held forces that pull, a released
 * contact pressed back), which belong to the event's own state: at a
 * lift-off the released contact's acceleration is zero, and the
 * differences' states fall on either side of it. */
int hes_mech_reset_dx(double t, const double *x, const double *p, double *out, void *data);
int hes_mech_reset_dt(double t, const double *x, const double *p, double *out, void *data);
/** @} */
/** The meaning of a failure code of hes_mech_field, hes_mech_field_dx,
 * hes_mech_guard and hes_mech_reset, for hes_model.describe_error (data is
 * not used). */
const char *hes_mech_describe_error(int code, void *data);

/** A chartless mode of a system with quaternions (hes_mech.quat), or one
 * that holds its constraints by their forces (hes_mech_mode.held), has the
 * state x = [q (nq values), v (d)] on a manifold: the quaternions unit,
 * and in a held mode a_J(q) = 0, Da_J v = 0.  Its hes_mode takes tdim =
 * hes_mech_mode_tdim() and these as retract, local, tangent, cotangent and
 * normalize (data: the hes_mech_mode; lib/model/mech_hold.c,
 * mech_config.c): without held constraints the chart [q (+) dq, v + dv];
 * with them the tangent space of the constraints' manifold, spanned by
 * [N_h dq; N dv - Da^+ K N_h dq] with N, N_h orthonormal bases of the null
 * spaces of all held rows Da and of those that do not stick (Householder
 * QR of their transposes), K = d(Da v)/dq, retract projecting back onto
 * the manifold (Newton on the positions that do not stick, then v onto
 * Da's null space).
 * Its field (hes_mech_field) is q' = G(q) v with the dynamics, its
 * Jacobian (hes_mech_field_dx) in the coordinates x.  Transitions of a
 * system with quaternions take no lift and no to_chart (maps of d
 * coordinates): the event's q is the source state's, and the target's
 * (hes_model_validate). @{ */
int hes_mech_mode_tdim(const hes_mech_mode *md);
int hes_mech_retract(const double *x, const double *delta, const double *p, double *out,
                     void *data);
int hes_mech_local(const double *x1, const double *x0, const double *p, double *out,
                   void *data);
int hes_mech_tangent(const double *x, const double *p, double *E, void *data);
int hes_mech_cotangent(const double *x, const double *p, double *P, void *data);
int hes_mech_normalize_state(double *x, const double *p, void *data);
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HES_H_MECH */
