/**
 * \file
 * hes/invdyn.h - inverse dynamics with rigid contact and friction (part of
 * <hes.h>, which includes every area's header).
 */
#ifndef HES_H_INVDYN
#define HES_H_INVDYN

#include <hes/contact.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------- inverse dynamics with contact */
/**
 * Joint torques and contact forces together, for a desired motion
 * (Zapolsky & Drumwright, "Inverse dynamics with rigid contact and
 * friction"; lib/invdyn/invdyn.c).  The paper's discretisation
 * over a control period dt, M (v+ - v) = dt (B tau + J^T f - h), is
 * written here per unit time, a = (v+ - v) / dt: forces, not impulses,
 * so every formulation's forces are comparable across dt:
 *
 *     M a + h = B tau + J^T f,        B^T a = B^T a_des  (eq. 38-39),
 *
 * the contacts' accelerations J a + b, with b the problem's offsets: the
 * paper's velocity-level constraint N v+ >= -phi / dt (eq. 36) is
 * N a + (N v + phi / dt) / dt >= 0, and the rows' drift J' v may be added
 * (hes_invdyn_offsets), which the paper drops (it holds N constant over
 * the period).  With G = B^T M^-1 B and the projector
 *
 *     W = M^-1 - M^-1 B G^-1 B^T M^-1        (the unactuated compliance),
 *
 * a = a0 + W J^T f, a0 = W (-h) + M^-1 B G^-1 B^T a_des, and
 * tau = G^-1 (B^T a_des - B^T M^-1 (J^T f - h)); the contact problems
 * are in f alone:
 *
 *     NONE       (a) f = 0: the baseline.
 *     NO_SLIP    (b) Sec. 4: tangential rows are equalities (S a + b = 0),
 *                chosen by Algorithm 1 so that [B S_sel^T T_sel^T] keeps
 *                full rank (the rest are implied); the normals an LCP with
 *                the symmetric PSD matrix N W' N^T (eq. 44-45), solved by the
 *                paper's modified principal pivoting (Algorithm 2) warm-
 *                started at the previous active set (Sec. 4.6, options.warm),
 *                with Lemke (hes_lcp_solve) as the fallback.
 *     COULOMB    (c) Sec. 5: the linearised cone (a pyramid of 2 tangents
 *                per direction), the copositive LCP of eq. 64 in
 *                (f_N, f_F, lambda), by Lemke.
 *     CONVEX     (d) Sec. 6: Stage I, the complementarity-free model:
 *                minimise the kinetic energy 1/2 v+^T M v+ (v+ = v + dt a)
 *                over f_N >= 0, the pyramid f_F >= 0, mu f_N >= 1^T f_F and
 *                N a + b >= 0 (eq. 69-74); Stage II (options.stage2) moves f
 *                in the null space of Stage I's Hessian, keeping its
 *                objective (eq. 104), to minimise |tau|^2 (eq. 102-111).
 *                Both QPs are solved as the LCP of their KKT conditions
 *                (PSD) by Lemke.
 *     CONVEX_NO_SLIP (e) the same with infinite friction (f_S, f_T free).
 *
 * HES_EINFEASIBLE (and the result filled, with the reason in err) when the
 * motion cannot be produced as asked: a contact that stays slides at the
 * edge of its friction cone (Coulomb, convex: the friction is what is
 * missing); the no-slip forces need more friction than mu, or the desired
 * accelerations move a stance contact (inconsistent with no-slip, Sec.
 * 4.5); a torque exceeds tau_max; the equation of motion fails with the
 * desired acceleration (options.tol_eom: the unmotored coordinates do not
 * follow it).  (The complementarity-free model may also let a contact
 * slide inside its cone: it maximises dissipation, which with the
 * actuators' constraint need not stop the contact; res->slip reports it,
 * and then the body does not follow the desired motion: infeasible unless
 * tol_eom < 0.)  HES_ELCP
 * (result not filled) when no compressive normal forces hold the motion
 * (no-slip) or Lemke's method fails on a Coulomb or convex problem; HES_EINVAL
 * (err) for bad arguments or a B without full column rank.
 */
typedef enum {
    HES_INVDYN_NONE = 0,        /**< (a) no contact forces: the baseline */
    HES_INVDYN_NO_SLIP,         /**< (b) the stance contacts do not slip */
    HES_INVDYN_COULOMB,         /**< (c) Coulomb friction in the linearised cone */
    HES_INVDYN_CONVEX,          /**< (d) the complementarity-free convex model */
    HES_INVDYN_CONVEX_NO_SLIP   /**< (e) the convex model with infinite friction */
} hes_invdyn_method;
#define HES_INVDYN_N_METHODS 5 /**< the number of methods */
/** "none", "no-slip", "coulomb", "convex", "convex-no-slip", and the method of a
 * name (HES_EINVAL for an unknown one). @{ */
const char *hes_invdyn_method_name(hes_invdyn_method m);
hes_status hes_invdyn_method_from_name(const char *name, hes_invdyn_method *m);
/** @} */

/** The largest friction coefficient the pyramid formulations (Coulomb,
 * convex) take: their edges n +- mu t resolve the normal force only to
 * about eps mu of the tangential one, and on the 3-D quadruped the convex
 * least squares fell back to its LCPs at 8 of 50 nodes at 1e5, 44 at 1e6,
 * where the LCPs failed at 2 (42 at 1e8).  For friction without limit use
 * no-slip or convex-no-slip. */
#define HES_INVDYN_MU_MAX 1e5

/** An inverse dynamics problem (the header's description) at one instant
 * (hes_invdyn_solve). */
typedef struct {
    /** the numbers of velocities, inputs and contacts @{ */
    int nv, nu, nc, tangents;   /**< tangents per contact: 1 (planar) or 2 */
    /** @} */
    const double *M;            /**< nv x nv, symmetric positive definite */
    const double *h;            /**< nv: M a + h = B tau + J^T f */
    const double *B;            /**< nv x nu, full column rank */
    const double *J;            /**< nc (1 + tangents) x nv: normals, then first
                                     tangents, then second tangents */
    const double *b;            /**< the rows' offsets: contact acceleration J a + b */
    const double *mu;           /**< nc friction coefficients (Coulomb and convex: at
                                     most HES_INVDYN_MU_MAX; more is refused) */
    const double *v;            /**< nv: the velocity (the convex objective) */
    double dt;                  /**< the control period (> 0) */
    const double *a_des;        /**< nv: the desired acceleration (only B^T a_des
                                     is imposed; the rest is compared) */
    const double *tau_max;      /**< nu limits (0 = none), or NULL */
} hes_invdyn_problem;

/** How hes_invdyn_solve solves (hes_invdyn_options_init sets the defaults). */
typedef struct {
    hes_invdyn_method method;   /**< the formulation */
    double tol;                 /**< the LCPs' tolerance (default 1e-9 when 0) */
    double tol_slip;            /**< sliding above this contact acceleration, relative
                                     to max(1, |b|, |J a_des|) (default 1e-6 when 0;
                                     sampled trajectories need more: their finite
                                     differences are consistent only to O(h^2)) */
    int stage2;                 /**< convex: Stage II (1) or Stage I only (0) */
    int cold;                   /**< no-slip: 1 ignores the warm start and starts as the
                                     paper's Algorithm 2 does, from the most violated
                                     contact alone; 0 starts from the previous solve's
                                     active set, else from every contact that would
                                     penetrate without force (the load of an
                                     indeterminate stance spread over its feet) */
    int min_friction;           /**< no-slip: also the smallest friction coefficient
                                     that holds the motion (res->mu_min), and the
                                     forces become a distribution at that friction
                                     (of those that produce the same motion; the
                                     torques follow), which the cone check uses */
    double tol_eom;             /**< the whole equation of motion with the desired
                                     acceleration, unactuated rows included, must
                                     hold to this (res->eom; default 1e-6 when 0;
                                     sampled trajectories need more); negative: not
                                     checked, only B^T a_des is asked (the paper's
                                     setting, where the base's acceleration is the
                                     model's prediction) */
    int qp_lcp;                 /**< convex: 1 solves Stage I and II as the LCPs of their
                                     KKT conditions in the pyramid's face variables
                                     (Lemke, regularised by 1e-8 of the Hessian's
                                     scale; the reference), 0 (default) as least
                                     squares with bounds in its edge forces, warm-
                                     started (the LCPs only if that fails) */
} hes_invdyn_options;

/** Every field to its default: no-slip with the smallest friction that holds
 * the motion, Stage II, warm starts, the default tolerances. */
void hes_invdyn_options_init(hes_invdyn_options *o);

/** A workspace and its results, for problems of these sizes. */
typedef struct hes_invdyn hes_invdyn;
/** A workspace for nv velocities, nu inputs (1 <= nu <= nv), nc contacts and
 * 1 or 2 tangents each: HES_OK with *out, HES_EINVAL (err) for sizes out
 * of range, HES_ENOMEM. */
hes_status hes_invdyn_new(int nv, int nu, int nc, int tangents, hes_invdyn **out,
                          hes_error *err);
/** Frees the workspace (NULL: nothing). */
void hes_invdyn_destroy(hes_invdyn *id);
/** The workspace's last failure ("" after a success); NULL for NULL. */
const char *hes_invdyn_errmsg(const hes_invdyn *id);

/** The solution of hes_invdyn_solve; its arrays point into the workspace. */
typedef struct {
    const double *tau;          /**< nu */
    const double *a;            /**< nv: the predicted acceleration */
    const double *f;            /**< nc (1 + tangents): net normal, then tangential forces */
    const double *w;            /**< nc (1 + tangents): contact accelerations J a + b */
    const double *ratio;        /**< nc: (|f_s| + |f_t|) / f_n, the friction pyramid's
                                     ratio (0 where there is no force; forces below
                                     1e-8 of the largest are none): the one friction
                                     model of every check and of mu_min (for a
                                     planar robot the exact cone) */
    const int *active;          /**< nc: 1 where f_n > 0 */
    double mu_needed;           /**< the largest ratio over the contacts */
    double tracking;            /**< |B^T (a - a_des)|_inf: 0 up to rounding */
    double unactuated;          /**< |a - a_des|_inf: how far the prediction is from
                                     the whole desired acceleration */
    double eom;                 /**< the equation of motion with the desired a,
                                     |M a_des + h - B tau - J^T f|_inf over the
                                     largest row's sum of its terms' magnitudes:
                                     above options.tol_eom the motion is
                                     infeasible (options.tol_eom; HES_EINFEASIBLE;
                                     not checked for the baseline NONE) */
    /** @{ */
    int lcps, pivots;           /**< complementarity problems solved, their pivots
                                     (convex: the least squares' active-set changes) */
    /** @} */
    int warm_used;              /**< no-slip: the warm start's active set held */
    int tangential_rows;        /**< no-slip: the tangential equalities kept (Alg.\ 1) */
    int null_dim;               /**< convex: the dimension Stage II searched */
    double slip;                /**< the largest tangential acceleration of a contact
                                     that stays (above options.tol_slip; else 0) */
    int contact;                /**< the contact (0 to nc - 1, in the problem's order)
                                     an HES_EINFEASIBLE verdict names: one that slides
                                     or needs more friction; -1 for none */
    double mu_min;              /**< options.min_friction: the smallest mu for which
                                     some distribution of the forces that produce the
                                     same motion lies in every stance contact's
                                     friction pyramid (|f_s| + |f_t| <= mu f_n; for a
                                     planar robot the exact cone); -1 if not asked */
} hes_invdyn_result;

/** Solve; the result points into id (valid until the next solve).  The
 * no-slip warm start is the active set of id's previous solve with the
 * same contacts (hes_invdyn_reset forgets it). */
hes_status hes_invdyn_solve(hes_invdyn *id, const hes_invdyn_problem *pb,
                            const hes_invdyn_options *opts, hes_invdyn_result *res,
                            hes_error *err);
/** Forgets the workspace's warm start (NULL: nothing). */
void hes_invdyn_reset(hes_invdyn *id);

/** A problem from a robot's dynamics (hes_robot_dynamics_at at q, v) for
 * the contacts with active[i] (NULL: all; nc counts them), at velocity v
 * with desired acceleration a_des over the period dt: the active rows
 * into J, their offsets (hes_invdyn_offsets; drift: add J' v) into b and
 * their friction into mu, buffers of the caller sized for all of the
 * robot's contacts (rows x nv, rows, nc).  pb's pointers then point into
 * d, v, a_des and these buffers. */
void hes_invdyn_problem_robot(const hes_robot_dynamics *d, const int *active, const double *v,
                              const double *a_des, double dt, int drift, double *J, double *b,
                              double *mu, hes_invdyn_problem *pb);

/** Inverse dynamics along a robot's trajectory (lib/invdyn/invdyn_run.c):
 * at each of `nodes` samples (times t, increasing; configurations q, nodes
 * x nq, node after node; velocities and accelerations nodes x nv:
 * hes_robot_dims) the robot's dynamics, its stance contacts (those
 * with stance[node * nc + c], or with NULL those whose height is at most
 * stance_tol), and the problem of hes_invdyn_problem_robot with the
 * desired acceleration.  Velocities and accelerations (v, a: NULL) are the
 * derivatives of the quadratic through each node and its neighbours
 * (hes_sampled_derivatives) in the node's chart y = q (-) q_node
 * (hes_mech_difference: a quaternion's in its rotation from the node's,
 * which gives the body's angular velocity and its rate).  One workspace per stance set keeps the
 * no-slip warm start from node to node.  A node that fails keeps its
 * status and message; the run goes on. */
typedef struct {
    hes_invdyn_options solve;    /**< method, tolerances, stage2, cold, min_friction */
    double dt;                   /**< control period (default 1e-3 when 0) */
    int no_drift;                /**< 1: drop J' v, as the paper */
    double stance_tol;           /**< stance by height (default 1e-4 when 0) */
} hes_invdyn_run_options;

/** solve as hes_invdyn_options_init, dt 1e-3, drift kept, stance_tol 1e-4. */
void hes_invdyn_run_options_init(hes_invdyn_run_options *o);

/** The inverse dynamics of a trajectory (hes_invdyn_trajectory), node after node;
 * hes_invdyn_run_free releases its arrays. */
typedef struct {
    /** the numbers of nodes, velocities, motors, contacts, and tangents per contact @{ */
    int nodes, nv, nu, nc, tangents;
    /** @} */
    double *t;                   /**< nodes */
    hes_status *status;          /**< nodes */
    char (*message)[160];        /**< nodes: why a node failed ("" if it did not) */
    int *stance;                 /**< nodes x nc */
    double *tau;                 /**< nodes x nu */
    double *f;                   /**< nodes x nc (1 + tangents): per contact (all of
                                      the robot's, 0 off stance) normals, then
                                      tangents as in hes_invdyn_result.f */
    double *ratio;               /**< nodes x nc */
    double *mu_min;              /**< nodes (-1 unless solve.min_friction) */
    double *slip;                /**< nodes */
    double mu_required;          /**< the largest mu_min (or ratio) over the nodes
                                      whose stance contacts do not slide and whose
                                      equation of motion holds (within tol_eom) */
    int worst;                   /**< its node */
    int counted;                 /**< the number of those nodes (mu_required holds the
                                      motion there only; fewer than nodes: not at the
                                      others) */
    int failed;                  /**< nodes whose status is not HES_OK */
} hes_invdyn_run;

/** Runs the inverse dynamics along the trajectory (hes_invdyn_run_options describes
 * it) into *out (opts NULL:
 * no-slip with Stage II, dt 1e-3, stance_tol 1e-4): HES_OK also when some nodes
 * failed (out->failed); HES_EINVAL (err) for bad arguments, a robot without
 * motors or with more motors than coordinates, more than 16 contacts, or
 * times that do not increase; HES_ENOMEM. */
hes_status hes_invdyn_trajectory(hes_robot *robot, int nodes, const double *t, const double *q,
                                 const double *v, const double *a, const int *stance,
                                 const hes_invdyn_run_options *opts, hes_invdyn_run *out,
                                 hes_error *err);
/** Frees a run's arrays and clears it (NULL: nothing). */
void hes_invdyn_run_free(hes_invdyn_run *run);

/** Derivatives of sampled data (lib/base/sampled.c): y (n x dim, sample
 * after sample) at increasing times t; dy, ddy (either may be NULL) are
 * those of the quadratic through each sample and its two neighbours (the
 * first three, the last three at the ends): inside, the first
 * derivatives are second-order accurate, the second ones too for equal
 * spacing (first-order otherwise); both are first-order at the ends.
 * HES_EINVAL for n < 3 or times that do not increase. */
hes_status hes_sampled_derivatives(int n, int dim, const double *t, const double *y,
                                   double *dy, double *ddy);

/** The offsets b (rows) of contacts that are to stay in contact over dt:
 * b = (J v + phi_rows / dt) / dt (+ Jdv with drift = 1), phi_rows being
 * phi for the normals and 0 for the tangents: the paper's constraints
 * N v+ >= -phi / dt and S v+ = T v+ = 0 (eq.\ 36, 40-41) per unit time. */
void hes_invdyn_offsets(int nv, int nc, int tangents, const double *J, const double *v,
                        const double *phi, const double *Jdv, double dt, int drift,
                        double *b);

#ifdef __cplusplus
}
#endif

#endif /* HES_H_INVDYN */
