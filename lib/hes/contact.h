/**
 * \file
 * hes/contact.h - linear complementarity problems, impact laws, rigid time
 * stepping, post-impact sets (part of <hes.h>, which includes every area's
 * header).
 */
#ifndef HES_H_CONTACT
#define HES_H_CONTACT

#include <hes/ess.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------- linear complementarity */
/**
 * \file
 *
 * The linear complementarity problem (LCP) of impacts with friction
 * (lib/contact/lcp.c): find z with
 *
 *     w = M z + q,  z >= 0,  w >= 0,  z_i w_i = 0,
 *
 * M n x n column-major, by Lemke's method (Siconos numerics,
 * SICONOS_LCP_LEMKE, which configure detects).  The solution is checked
 * here, independently of the solver: w is recomputed as M z + q and the
 * residual, relative to the size of the data and of the solution,
 *
 *     max_i max(-z_i / zs, -w_i / S, min(z_i / zs, w_i / S)) + eps max_i s_i / S,
 *     zs = |z|_inf,  S = |q|_inf,  s_i = sum_k |M_ik z_k| + |q_i|
 *
 * (the second term is the rounding error of w = M z + q: a solution too
 * large for the arithmetic to resolve its w, as impulses that cancel each
 * other, fails however small w comes out),
 * must be at most tol (> 0; e.g. 1e-9).  Lemke's method is tried
 * first; where it ends on a ray (which for a degenerate problem need not
 * mean that none exists) Lemke's method on q perturbed by 1e-10, then
 * Siconos's enumeration for n <= 20; each candidate is polished by solving
 * the linear system of its active set again.  HES_ELCP when none passes
 * the check (none exists, as for an infeasible problem, or the solvers
 * miss it), with the reason in err; HES_ESOLVER when hes was built without
 * Siconos numerics; HES_EINVAL for bad arguments.
 */
/** How an LCP was solved (hes_lcp_solve). */
typedef struct {
    int pivots;           /**< pivots (or iterations) of the solvers tried */
    double residual;      /**< the complementarity residual above */
    int solver;           /**< which solved it: 0 Lemke, 1 Lemke on the perturbed
                               problem, 2 enumeration (n <= 20), 3 enumeration
                               from a start (hes_lcp_solve_from) */
} hes_lcp_info;

/** The same, choosing among several solutions: with start > 0 and n <= 20
 * Siconos's enumeration of the complementary index sets begins at set
 * start mod 2^n and returns the first solution it meets, so that different
 * starts can return different solutions of an LCP that has several (then
 * the chain above).  start = 0 is hes_lcp_solve. */
hes_status hes_lcp_solve_from(int n, const double *M, const double *q, double tol,
                              unsigned long start, double *z, double *w, hes_lcp_info *info,
                              hes_error *err);

/** Solves the LCP w = M z + q, z >= 0, w >= 0, z_i w_i = 0 of M (n x n,
 * column-major) and q (n) to tolerance tol, as the header's description
 * says: z and w (n each), and how in info (may be NULL). */
hes_status hes_lcp_solve(int n, const double *M, const double *q, double tol, double *z,
                         double *w, hes_lcp_info *info, hes_error *err);

/* ----------------------------------------------------------- impact laws */
/**
 * Impacts of a set of planar frictional contacts (lib/contact/
 * impact.c): at the impact configuration, the mass matrix M (n x n,
 * symmetric positive definite, column-major), the contacts' normal and
 * tangent Jacobians J_n, J_t (k x n, column-major: row i maps the
 * generalised velocity to contact i's normal and tangential velocity) and
 * their friction coefficients mu (k, >= 0).
 */
typedef struct {
    /** the number of generalised velocities and of contacts @{ */
    int n, k;
    /** @} */
    const double *M;        /**< n x n mass matrix */
    /** k x n normal and tangent Jacobians @{ */
    const double *Jn, *Jt;
    /** @} */
    const double *mu;       /**< k friction coefficients */
} hes_contact_set;

/** The largest friction coefficient the impact laws take: their LCPs hold
 * the tangential impulse as the difference of two one-sided impulses of up
 * to mu times the normal one, resolved only to eps mu of it (2.2e-10 at
 * 1e6, below the LCPs' tolerance 1e-9).  Larger mu is refused
 * (HES_EINVAL); a contact that must not slip needs no more. */
#define HES_IMPACT_MU_MAX 1e6
/** The simultaneous law needs the contacts' friction cone pointed (Halm &
 * Posa, Assumption 2): some velocity direction d with d^T g > 0 for every
 * edge g = J_n,i^T +- mu_i J_t,i^T of every contact's cone.  Its margin
 * delta: with the edges normalised to M^-1-length 1 (each alone a unit
 * change of velocity), the least g^T d over the edges for the d found,
 * |d|_M = 1.  Impulses in the cones then cancel to at most 1 / delta of
 * their own velocity change, and the outcome's rounding is eps / delta
 * relative: below HES_IMPACT_POINTED_MIN (2.2e-9 at the bound) the cone is
 * refused (HES_EINVAL): its impulses may cancel (jamming), the LCP's
 * solutions are unbounded, and v+ would be rounding.  delta reflects M's
 * conditioning too: a nearly singular M (the compass gait's point masses:
 * delta 2e-6 at mu = 1) lowers it. */
#define HES_IMPACT_POINTED_MIN 1e-7

/** What an impact law did (hes_impact_anitescu_potra, ...). */
typedef struct {
    int lcps;               /**< complementarity problems solved */
    int pivots;             /**< Lemke pivots, over all of them */
    double residual;        /**< the largest complementarity residual (hes_lcp_solve) */
    /** @{ */
    double energy_before, energy_after; /**< v^T M v / 2 before and after */
    /** @} */
    int solver;             /**< the last LCP's solver (hes_lcp_info.solver) */
} hes_impact_info;

/** Anitescu and Potra's simultaneous inelastic impact (the paper's eq.\ 31,
 * the answer simulators give): one LCP for the normal and friction
 * impulses with J_n v+ complementary to the normal impulses.  v_plus (n)
 * and the impulses pn, pt (k each; may be NULL) are written.  HES_EINVAL
 * for bad input (a mass matrix that is not positive definite, mu negative
 * or above HES_IMPACT_MU_MAX, non-finite values, a friction cone that is
 * not pointed: HES_IMPACT_POINTED_MIN), HES_ELCP / HES_ESOLVER as
 * hes_lcp_solve.  The outcome is checked physically: a contact still
 * approaching (J_n v+ < -tol, the laws' tolerance 1e-8 max(1, |J v-|)) or
 * kinetic energy gained beyond 1e-8 relative is HES_ESOLVER, never
 * HES_OK (the same check ends hes_impact_sequential and, for the energy,
 * hes_impact_routh). */
hes_status hes_impact_anitescu_potra(const hes_contact_set *contacts, const double *v_minus,
                                     double *v_plus, double *pn, double *pt,
                                     hes_impact_info *info, hes_error *err);
/** Sequential impacts: the contacts order[0..n_order-1] in turn, each that
 * approaches (J_n,i v < 0) resolved alone by Anitescu-Potra's law, in passes
 * over the order until none approaches; pn, pt accumulate each contact's
 * impulses.  HES_EMAXITER after max_passes passes with a contact still
 * approaching; otherwise as hes_impact_anitescu_potra. */
hes_status hes_impact_sequential(const hes_contact_set *contacts, const int *order, int n_order,
                                 int max_passes, const double *v_minus, double *v_plus,
                                 double *pn, double *pt, hes_impact_info *info, hes_error *err);

/* ------------------------------------------------- rigid time stepping */
/**
 * One step of a velocity-level time-stepping simulation with rigid
 * contacts (Anitescu and Potra 1997; Stewart and Trinkle 1996; the
 * simulator of Zapolsky and Drumwright's experiments; lib/contact/
 * timestep.c): over the step dt, with the generalised force `force`
 * (B tau - h: motors, gravity, Coriolis) held and contact impulses p,
 *
 *     M (v+ - v) = dt force + J_n^T p_n + J_t^T p_t,
 *     0 <= p_n  complementary to  J_n v+ + gap / dt >= 0,
 *
 * and friction in each contact's pyramid (its edges +-mu along each of
 * its tangents; Coulomb's cone for one tangent) opposing the sliding
 * velocity J_t v+ (maximal dissipation), as the LCP of ap_lcp.c.  A
 * contact with gap > 0 may close it within the step and pushes only
 * if it would pass it; one with gap < 0 (penetrating) is pushed out at
 * -gap / dt.  The positions then follow as q + dt v+ (semi-implicit
 * Euler), which the caller does.  Exact for the step's constant force:
 * a block sliding at speed u with friction mu slows by mu g dt a step.
 */
typedef struct {
    /** @{ */
    int n, k;                   /**< generalised velocities, contacts (k >= 0) */
    /** @} */
    int tangents;               /**< 1 (planar) or 2 (spatial) per contact */
    const double *M;            /**< n x n, symmetric positive definite */
    const double *Jn;           /**< k x n: contacts' normal velocity rows */
    const double *Jt;           /**< tangents k x n: row d k + i, contact i's d-th
                                     tangent (orthogonal to its normal) */
    const double *mu;           /**< k: friction, 0 to HES_IMPACT_MU_MAX */
    const double *gap;          /**< k: signed distance (< 0 penetrating) */
    const double *v;            /**< n: velocity at the step's start */
    const double *force;        /**< n: generalised force over the step */
    double dt;                  /**< the step, > 0 */
} hes_timestep_problem;

/** v_plus (n), and p (may be NULL; (1 + tangents) k: normal impulses, then
 * the net tangential impulse along each tangent, row d k + i).  HES_EINVAL
 * for bad input (naming it), HES_ELCP / HES_ESOLVER as hes_lcp_solve; the
 * outcome is checked: J_n v+ + gap / dt >= -1e-8 max(1, |J v|) for every
 * contact. */
hes_status hes_timestep_ap(const hes_timestep_problem *pb, double *v_plus, double *p,
                           hes_impact_info *info, hes_error *err);

/** The paper's impulse-stepping model of Routh's method for many contacts
 * (Sec.\ 5.1, eqs.\ 72-75, Algorithm 1; lib/contact/impact_routh.c): steps
 * s = 1, 2, ... each solve one LCP in which contact i's normal impulse
 * increment is capped by h p_si (p_si in [0, 1], caps[s k + i]), friction
 * acts at the incremented velocity, and each contact either takes its full
 * cap or stops approaching; the impact ends when no contact approaches
 * (J_n v >= -tol).  Any sequence of caps gives a physically valid outcome
 * (Theorem 7: no step gains kinetic energy); the set of outcomes over all
 * sequences is the post-impact set. */
typedef struct {
    double h;               /**< impulse step size (> 0) */
    int steps;              /**< the step limit N (>= 1); caps holds steps * k values */
    double tol;             /**< termination: J_n v >= -tol max(1, |J_n v-|, |J_t v-|);
                                 0: 1e-8 (the paper's code) */
    /** Which solution of a step's LCP when it has several (the paper's
     * Assumption 6 fails, as for its compass gait): 0, Lemke's method's
     * (as the paper's code takes PATH's); s > 0, at each step at random
     * (a generator seeded with s) either Lemke's or, for 5k <= 20,
     * enumeration's from a random start (hes_lcp_solve_from). */
    unsigned long select;
} hes_routh_options;

/** Steps 20, tolerance 1e-8, Lemke's selection; h (which depends on the
 * impact: hes_impact_default_step) is left 0 for the caller to set. */
void hes_routh_options_init(hes_routh_options *o);

/** v_plus (n) and the accumulated impulses pn, pt (k; may be NULL); path
 * (may be NULL): n (steps + 1) values, the velocity before each step and
 * after the last (info->lcps steps are taken).  HES_EMAXITER when a contact
 * still approaches after o->steps steps (v_plus then holds the last
 * velocity); otherwise as hes_impact_anitescu_potra. */
hes_status hes_impact_routh(const hes_contact_set *contacts, const double *v_minus,
                            const hes_routh_options *o, const double *caps, double *v_plus,
                            double *pn, double *pt, double *path, hes_impact_info *info,
                            hes_error *err);

/** The contact mode after an impact, from the contact velocities u_n = J_n v,
 * u_t = J_t v: lift-off when u_n > tol, else sliding when |u_t| > tol, else
 * sticking. */
typedef enum {
    HES_CONTACT_STICK = 0,  /**< sticking: |u_t| <= tol and u_n <= tol */
    HES_CONTACT_SLIDE = 1,  /**< sliding: |u_t| > tol, u_n <= tol */
    HES_CONTACT_LIFT = 2    /**< lift-off: u_n > tol */
} hes_contact_mode;
/** "stick", "slide" or "lift" ("unknown" for another value). */
const char *hes_contact_mode_name(hes_contact_mode mode);
/** modes (k) of velocity v; tol: 0 means 1e-6 max(1, |J v|_inf) */
void hes_contact_modes(const hes_contact_set *contacts, const double *v, double tol,
                       hes_contact_mode *modes);

/* ------------------------------------------------------ post-impact sets */
/**
 * The outcome set of an impact (the paper's Algorithm 2, Sec.\ 5.3;
 * lib/contact/impact_set.c): `samples` runs of hes_impact_routh whose caps
 * are the points of a low-discrepancy sequence in [0, 1]^(k N) (GSL's
 * Sobol generator up to 40 dimensions, its reverse Halton generator above;
 * seed > 0 shifts the points by a random vector modulo 1, a
 * Cranley-Patterson rotation, so that runs with different seeds are
 * independent randomised samples), on `threads` threads (0: 1).  Samples
 * that do not terminate within N steps are kept and flagged (the paper
 * drops them).
 */
typedef struct {
    int samples;            /**< >= 1 */
    hes_routh_options routh; /**< routh.select != 0: sample i selects with
                                   routh.select + i (a different stream each) */
    unsigned long seed;     /**< 0: the sequence itself */
    int threads;            /**< threads sampling (0: 1) */
    int keep_caps;          /**< 1: keep every sample's caps in set->caps */
    double max_wall_time;   /**< seconds for the whole set (0: 600; HUGE_VAL: none): past
                                 it no further sample starts and the call fails with
                                 HES_ESOLVER saying how many were done */
} hes_impact_set_options;

/** One sample, routh as hes_routh_options_init, seed 0, one thread, no
 * caps kept, the default wall-time budget. */
void hes_impact_set_options_init(hes_impact_set_options *o);

/** The outcomes of an impact (hes_impact_set_sample); hes_impact_set_free
 * releases its arrays. */
typedef struct {
    /** the numbers of generalised velocities, contacts and samples @{ */
    int n, k, samples;
    /** @} */
    double *v;              /**< samples x n post-impact velocities (row i at v + i n) */
    double *u;              /**< samples x 2k contact velocities: J_n v (k), then J_t v (k) */
    hes_contact_mode *modes; /**< samples x k */
    int *lcps;              /**< LCPs per sample */
    int *finished;          /**< 1: terminated within N steps; 0: HES_EMAXITER */
    double *dissipated;     /**< kinetic energy lost, per sample (>= 0 by Theorem 7) */
    double *residual;       /**< the largest LCP complementarity residual, per sample */
    int n_finished;         /**< samples that terminated within N steps */
    double mean_lcps;       /**< over all samples */
    double max_residual;    /**< the largest LCP complementarity residual over the samples */
    double max_energy_gain; /**< max over samples of (E+ - E-) / E- (<= ~1e-15) */
    double seconds;         /**< wall time of the sampling */
    long pivots;            /**< Lemke pivots over all samples */
    const char *sequence;   /**< "sobol" or "reverse-halton" */
    int dim;                /**< caps per sample, k N */
    double *caps;           /**< with keep_caps: samples x dim, the caps of each sample */
    double u_scale;         /**< max(1, |J_n v-|, |J_t v-|): the velocities' scale */
} hes_impact_set;

/** HES_ESOLVER without GSL or Siconos numerics (the message names the
 * Debian package); the first failing sample's status otherwise (its
 * message in err), except HES_EMAXITER, which only flags the sample. */
hes_status hes_impact_set_sample(const hes_contact_set *contacts, const double *v_minus,
                                 const hes_impact_set_options *o, hes_impact_set *set,
                                 hes_error *err);
/** Frees a set's arrays (NULL: nothing). */
void hes_impact_set_free(hes_impact_set *set);

/** The convex hull of the finished samples projected on contact-velocity
 * coordinates a and b (0..2k-1: normals, then tangents): its vertices'
 * sample indices, counter-clockwise, in idx (room for set->samples);
 * returns their number (0 if no sample finished). */
int hes_impact_set_hull(const hes_impact_set *set, int a, int b, int *idx);
/** Where an outcome with contact velocities u (2k) lies relative to the set:
 * the distance to the nearest finished sample in contact-velocity
 * coordinates, relative to the set's extent (the largest spread of any
 * coordinate, at least 1e-6 u_scale: the laws end each contact's approach
 * to 1e-8 u_scale, so a set of one outcome has an extent of rounding),
 * that sample's index, and for k >= 2 whether u lies in the hull of the
 * samples projected on the first two normals (with a margin of 1e-6 of
 * the extent, or the laws' tolerance 1e-8 u_scale if larger).  HES_EINVAL if no
 * sample finished. */
hes_status hes_impact_set_locate(const hes_impact_set *set, const double *u, double *relative,
                                 int *nearest, int *inside_normals);

/** For each contact-velocity coordinate d (0..2k-1), the finished samples
 * with the smallest and largest value (argmin[d], argmax[d]; -1 if none
 * finished): the set's extreme outcomes.  counts (3k): how many finished
 * samples leave contact i sticking, sliding, lifting (counts[3 i + mode]).
 * Either output may be NULL. */
void hes_impact_set_extremes(const hes_impact_set *set, int *argmin, int *argmax, int *counts);

/** The single-valued impact laws (hes_impact_outcome_compute). */
typedef enum {
    HES_LAW_ANITESCU_POTRA = 0, /**< the simultaneous impact (hes_impact_anitescu_potra) */
    HES_LAW_SEQUENTIAL = 1      /**< sequential impacts (hes_impact_sequential) */
} hes_impact_law;
/** One outcome of a single-valued law, and where it lies relative to a set;
 * its arrays sized by the contact set (hes_impact_outcome_init, freed by
 * hes_impact_outcome_free). */
typedef struct {
    hes_impact_law law;             /**< the law */
    int *order;                     /**< the sequential order (k entries) */
    double *v;                      /**< post-impact velocity (n) */
    double *u;                      /**< its contact velocities (2 k) */
    hes_contact_mode *modes;        /**< the contacts' modes (k entries) */
    int lcps;                       /**< complementarity problems solved */
    /** the kinetic energy before and after @{ */
    double energy_before, energy_after;
    /** @} */
    /** relative to the set (hes_impact_set_locate); -1 / 0 without one @{ */
    double relative;
    int nearest, inside_normals;
    /** @} */
    hes_status status;              /**< the law's (HES_EMAXITER: a sequence that
                                         does not end; then only v is set) */
} hes_impact_outcome;

/** An outcome of `law` for n coordinates and k contacts: its arrays
 * allocated, zeroed (out->order to set for HES_LAW_SEQUENTIAL), its other
 * fields cleared; HES_EINVAL for n or k below 1, HES_ENOMEM (out then
 * holds nothing). */
hes_status hes_impact_outcome_init(hes_impact_outcome *out, hes_impact_law law, int n, int k);
/** Frees an outcome's arrays and clears it (NULL: nothing). */
void hes_impact_outcome_free(hes_impact_outcome *out);
/** The outcome of out->law (for HES_LAW_SEQUENTIAL: out->order set by the
 * caller, k contacts, passes up to 100) located in set (may be NULL), into
 * out's arrays (hes_impact_outcome_init for the contact set's n and k).
 * Statuses as the laws'. */
hes_status hes_impact_outcome_compute(const hes_contact_set *contacts, const double *v_minus,
                                      const hes_impact_set *set, hes_impact_outcome *out,
                                      hes_error *err);

/** A step size h for an impact without one: half the largest normal impulse
 * of the Anitescu-Potra outcome (a sample then takes a few steps; a larger
 * h reaches the set's edges with fewer samples), 1 if that impulse is 0. */
hes_status hes_impact_default_step(const hes_contact_set *contacts, const double *v_minus,
                                   double *h, hes_error *err);

/** Contact velocities (2k) of a velocity v: J_n v, then J_t v. */
void hes_contact_velocities(const hes_contact_set *contacts, const double *v, double *u);

#ifdef __cplusplus
}
#endif

#endif /* HES_H_CONTACT */
