/**
 * \file
 * hes/orbit.h - stability over an impact's outcomes, ESS orbits, a flow's
 * derivative, perturbation trials (part of <hes.h>, which includes every
 * area's header).
 */
#ifndef HES_H_ORBIT
#define HES_H_ORBIT

#include <hes/hybrid.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------- stability over an impact's outcomes */
/**
 * A periodic orbit whose impact is simultaneous (a heelstrike while the
 * trailing foot is still down) has a set of possible impact outcomes
 * (Halm & Posa): each sample of the set, applied as the reset map (the
 * same caps on whatever pre-impact state: hes_mech_transition.impact), has
 * its own periodic orbit and psi (lib/hybrid/impact_orbit.c).  The
 * transition is a mechanical activation (hes_mech_transition); its
 * contacts are its `after` constraints that have friction (mu > 0, J_t)
 * and its `separate` ones; its other `after` constraints hold (bilateral)
 * through the impact.  The samples whose outcome is the transition's
 * (the after contacts stick, the separate ones lift off) are the ones the
 * orbit's mode sequence can continue from; psi is computed for each of
 * them: the worst is a robust stability measure over the impact's
 * uncertainty.
 */
typedef struct {
    int transition;          /**< -1: the first event on the orbit that qualifies */
    /** samples, seed, selection, threads (for the set and the orbits); routh.h
     * 0: half the nominal impact's largest normal impulse; routh.steps 0: 20 */
    hes_impact_set_options set;
} hes_impact_orbit_options;

/** The first qualifying event; set as hes_impact_set_options_init with the
 * step and the step limit of the nominal impact (h 0, steps 0). */
void hes_impact_orbit_options_init(hes_impact_orbit_options *o);

/** Stability over an impact's outcomes (hes_impact_orbit_analyze); free it with
 * hes_impact_orbit_free. */
typedef struct {
    double psi_nominal;      /**< the model's own impact law */
    /** the transition analysed and its number of contacts @{ */
    int transition, k;
    /** @} */
    int *contacts;           /**< k constraint indices in the event's mech */
    /** @{ */
    double *q, *qd_minus;    /**< the nominal pre-impact state (the event's mech's nq and d
                                  values) */
    /** @} */
    hes_impact_set set;      /**< the outcomes there */
    int *consistent;         /**< per sample: 1 if its modes are the transition's */
    double *psi;             /**< per sample: psi of its orbit (NaN: not consistent, or failed) */
    hes_status *status;      /**< per sample: the orbit's status (HES_OK for the inconsistent) */
    /** the numbers of consistent samples, of their orbits found and failed, and of
     * those orbits stable, unstable and marginal @{ */
    int n_consistent, n_orbits, n_failed, n_stable, n_unstable, n_marginal;
    /** @} */
    /** @{ */
    double psi_worst, psi_best; /**< over the orbits found (NaN if none) */
    /** @} */
    /** @{ */
    int worst, best;         /**< their samples (-1) */
    /** @} */
    /** the extreme outcomes among the consistent samples whose orbits were
     * found: for contact-velocity coordinate d (normals, then tangents)
     * the samples with the smallest and largest value (-1: none); their
     * psi is psi[extreme_min[d]] and psi[extreme_max[d]] (2 k each) @{ */
    int *extreme_min, *extreme_max;
    /** @} */
    double worst_check;      /**< the worst orbit's return map against central
                                  differences of the full flow (hes_analyze's check) */
    /** @{ */
    double step;             /**< the impulse step h and step limit N used */
    int steps;
    /** @} */
    double seconds;          /**< wall-clock time of the whole analysis */
    char message[256];       /**< why the first failed orbit failed ("" if none did) */
} hes_impact_orbit;


/** nominal: sys's analysis if the caller has it (hes_analyze), NULL to
 * make one here.  The transition's other `after` constraints (joint limits
 * it locks; not a contact's own no-slip row) hold through the impact: the
 * law acts in the velocities that keep them.  HES_EINVAL (err) when no
 * transition qualifies; the nominal analysis's status when it fails;
 * HES_ENOORBIT (err; r freed) when no sampled outcome gives an orbit (none
 * continues the mode sequence, or every such orbit failed: no psi to
 * report); HES_ESOLVER without Siconos numerics or GSL.  On failure r
 * holds nothing (as after hes_impact_orbit_free). */
hes_status hes_impact_orbit_analyze(hes_system *sys, const hes_analysis *nominal,
                                    const hes_impact_orbit_options *o, hes_impact_orbit *r,
                                    hes_error *err);
/** psi of the orbit with the impact of one caps sequence (r from
 * hes_impact_orbit_analyze supplies the transition and contacts; caps:
 * r->set.dim values). */
hes_status hes_impact_orbit_psi(hes_system *sys, const hes_impact_orbit *r,
                                const hes_routh_options *ro, const double *caps, double *psi,
                                hes_error *err);
/** Frees the arrays of r and clears it (NULL: nothing). */
void hes_impact_orbit_free(hes_impact_orbit *r);

/* ------------------------------------ an analysis without its layout */
/**
 * The same analysis as an object read through accessors
 * (lib/hybrid/analysis_access.c), for programs and bindings that must not
 * depend on the layout of hes_analysis: hes_analysis_new runs hes_analyze
 * into *out (NULL on failure, the message in hes_system_errmsg), and
 * hes_analysis_destroy releases it.  The arrays are copied out: x0 (dim
 * values), the nontrivial multipliers (re, im; by modulus, descending) and
 * the monodromy (which = 0: Phi; which = 1: the return map's Jacobian P of
 * an autonomous orbit, else Phi), column-major, tdim x tdim (tdim =
 * hes_analysis_tangent_dim: dim unless the orbit's mode has a tangent-space
 * chart, hes_mode.retract).  Each copies at
 * most max values and returns how many there are (-1 for a NULL analysis
 * or a bad `which`), so a first call with max 0 sizes the buffer.
 * hes_analysis_check: the largest difference from central differences of
 * the full flow (check != 0), else NaN.
 */
hes_status hes_analysis_new(hes_system *sys, int check, hes_analysis **out);
/** Frees an analysis made by hes_analysis_new (NULL: nothing). */
void hes_analysis_destroy(hes_analysis *a);
/** psi, the largest modulus of the nontrivial multipliers (NaN for NULL). */
double hes_analysis_psi(const hes_analysis *a);
/** psi's accuracy, hes_stability.psi_tol (NaN for NULL). */
double hes_analysis_psi_tol(const hes_analysis *a);
/** The verdict on psi (HES_MARGINAL for NULL). */
hes_verdict hes_analysis_verdict(const hes_analysis *a);
/** The orbit's period (NaN for NULL). */
double hes_analysis_period(const hes_analysis *a);
/** dim: the dimension of the orbit's section state x0 (0 for NULL). */
int hes_analysis_dim(const hes_analysis *a);
/** tdim: the dimension of the tangent coordinates the monodromy is in, the
 * orbit's mode's hes_mode.tdim (dim for a mode without a chart; 0 for
 * NULL). */
int hes_analysis_tangent_dim(const hes_analysis *a);
/** The number of nontrivial multipliers (0 for NULL). */
int hes_analysis_n_multipliers(const hes_analysis *a);
/** The check against central differences of the full flow (hes_analysis_new). */
double hes_analysis_check(const hes_analysis *a);
/** Copies x0 (as hes_analysis_new says). */
int hes_analysis_x0(const hes_analysis *a, double *x0, int max);
/** Copies the nontrivial multipliers into re and im (either may be NULL; as
 * hes_analysis_new says). */
int hes_analysis_multipliers(const hes_analysis *a, double *re, double *im, int max);
/** Copies the monodromy Phi (which = 0) or P (which = 1) (as hes_analysis_new
 * says). */
int hes_analysis_monodromy(const hes_analysis *a, int which, double *out, int max);

/* ------------------------------------------------------- ESS periodic orbit */
/**
 * A periodic orbit of an ESS model simulated by the ESS integrator
 * (lib/hybrid/ess_orbit.c), and its stability.  The section is the
 * hyperplane x_c = v (c = section, v the guess's x_c); the unknowns are the
 * other n - 1 components of x0 and the period T; Newton's method (least
 * squares by SVD, so that a family of orbits, as the undamped hopper's,
 * gives the nearest member) on r = x(T; x0) - x0, with the Jacobian
 *
 *     [ (J - I) without column c | f(x(T), s(T)) ],   J = d x(T) / d x0,
 *
 * J from the integrator (its exact derivative of the discrete flow).  At the
 * orbit the monodromy is Phi = J and the return map's Jacobian is
 *
 *     P = (I - F e_c^T / F_c) J,   F = f(x(T), s(T)),
 *
 * whose eigenvalues are the nontrivial multipliers and a 0 (normal e_c):
 * hes_stability_compute analyses it as it does the hybrid pipeline's.  The
 * multipliers are those of the discrete flow, within O(eps^2) of the true
 * flow's (tests/test_ess_orbit.c).
 */
typedef struct {
    hes_ess_options ess;  /**< the integrator's options (jacobian is set by the solver) */
    int section;          /**< c: the section x_c = x_guess[c], 0 <= c < n */
    double tol;           /**< Newton: max |x(T) - x0| (> 0; 1e-9), or as small as the
                               integration's accuracy allows (10 (rtol (1 + |x0|) + atol)) */
    int max_iter;         /**< Newton iterations (> 0; 40) */
    int check_eps;        /**< nonzero (the default): solve again at eps / 2, eps / 4 and
                               eps / 8 (warm started) to estimate psi's error from the band and
                               to refuse an orbit that does not converge as the band
                               shrinks (an artifact of a coarse eps): see eps_error */
    double max_wall_time; /**< seconds for the whole search, eps check included (> 0; 60):
                               then HES_ESOLVER saying so */
} hes_ess_orbit_options;

/** The defaults: ess as hes_ess_options_init, section 0, tol 1e-9, max_iter 40,
 * check_eps 1, max_wall_time 60. */
void hes_ess_orbit_options_init(hes_ess_orbit_options *opts);

/** A periodic orbit of an ESS model and its stability (hes_ess_orbit_find); free
 * it with hes_ess_orbit_free. */
typedef struct hes_ess_orbit {
    /** the state dimension and the section's component c @{ */
    int n, section;
    /** @} */
    double *x0;           /**< n: the orbit's state on the section */
    double period;        /**< the period T */
    int iterations;       /**< Newton iterations taken */
    double residual;      /**< max |x(T) - x0| at the end */
    double *flow;         /**< n: f(x0) (with the signs at the period's end) */
    /** @{ */
    long n_projections, n_refused, n_sign_changes;  /**< of the last period */
    /** @} */
    hes_monodromy mono;   /**< phi = J, proj = P, normal = e_c, autonomous */
    hes_stability stab;   /**< multipliers, psi and the verdict (with check_eps, psi_tol
                               includes eps_error and the verdict is taken with it) */
    double eps_error;     /**< check_eps: (4/3) |psi(eps) - psi(eps / 2)|, the estimated
                               error of psi from the band (Richardson); else NaN */
    double eps_order;     /**< check_eps: log2 of the ratio of the successive changes of
                               psi (about 2); NaN when they are below the noise */
} hes_ess_orbit;

/** From (x_guess, T_guess): HES_OK with res filled (release with
 * hes_ess_orbit_free, also after a failure), HES_ENOORBIT when Newton does
 * not reach tol in max_iter iterations, reaches an equilibrium, or (with
 * check_eps) finds an orbit that does not persist or converge at order 2
 * as eps shrinks, HES_EGRAZING when the flow is
 * (nearly) tangent to the section at the orbit, HES_EINVAL for bad
 * arguments, and the integrator's failures.  The message is the ESS
 * object's (hes_ess_errmsg). */
hes_status hes_ess_orbit_find(hes_ess *ess, const hes_ess_orbit_options *opts,
                              const double *x_guess, double T_guess, hes_ess_orbit *res);
/** Frees an ESS orbit's arrays and clears it (NULL: nothing). */
void hes_ess_orbit_free(hes_ess_orbit *res);

/** An ESS system's orbit options (hes_system_new_ess; hes_analyze uses
 * them): at creation hes_ess_orbit_options_init with the model's
 * orbit_section.  The settings' budget names (hes_system_set_settings)
 * write the same fields: max_search_time is max_wall_time, newton_maxiter
 * max_iter, newton_tol tol (absolute: max |x(T) - x0|), rtol and atol the
 * integrator's, max_wall_time ess.max_wall_time.  HES_EINVAL for a hybrid
 * system or invalid options (the message says which).  get: the system's
 * options into *opts (HES_EINVAL for a hybrid system). @{ */
hes_status hes_system_set_ess_options(hes_system *sys, const hes_ess_orbit_options *opts);
hes_status hes_system_get_ess_options(const hes_system *sys, hes_ess_orbit_options *opts);
/** @} */
/** An ESS system's integrator with the system's parameter values, for the
 * functions of hes/ess.h (a run, its error, its JSON); it stays the
 * system's.  NULL for a hybrid system. */
hes_ess *hes_system_ess(hes_system *sys);

/** Jacobian of the return map by central differences of full re-simulations
 * (independent of the saltation pipeline); out is n x n with n the
 * dimension of the monodromy (hes_monodromy.n): the orbit mode's dim, or its
 * tdim when it has a chart, whose differences are then local(R(retract(x0,
 * +-h e_j)), x0) / 2h in tangent coordinates.  The step is settings.fd_step;
 * settings.fd_order 4 takes the fourth-order stencil (8 D(h) - D(2h)) / 12h
 * on h and 2h, at twice the simulations. */
hes_status hes_return_map_fd(hes_system *sys, const hes_orbit *orbit, double *out);

/** Finds the pairs of events closer than tol in traj and analyses them; at
 * most max entries into out, their number into *n. */
hes_status hes_simultaneous_find(hes_system *sys, const hes_traj *traj, double tol,
                                 hes_simultaneous *out, int max, int *n);
/** The same for the orbit of an analysis (tol = 1e-8 of the period), with psi
 * of the monodromy built with each piece. */
hes_status hes_simultaneous_orbit(hes_system *sys, const hes_analysis *res,
                                  hes_simultaneous *out, int max, int *n);

/* --------------------------------------------- the derivative of a flow */
/**
 * The derivative of the hybrid flow from (mode, x0) at time 0 over `time`
 * (lib/hybrid/flow.c): jac = d x(time) / d x0 = Xi_N A_N ... Xi_1 A_1, the
 * factors of a monodromy along a trajectory that need not be periodic (it
 * must end in a mode of the start's dimension), and its pairs of events
 * closer than 1e-8 of `time` analysed as hes_simultaneous_find does: the
 * other order's outcome and derivative, and the limbs' coupling.  Through a
 * change of contact order the flow is continuously differentiable exactly
 * when the limbs are decoupled (decoupled-limbs paper, Thm. 1): trot-soft
 * dropped level gives "linearisations agree", trot-rigid "differ".
 * Release with hes_flow_free (also after a failure).
 */
typedef struct {
    hes_traj traj;           /**< the run, with its variational matrices */
    int n;                   /**< dimension of x0 and of x(time): their tangent dimension
                                  (hes_mode.tdim) when the mode has a chart */
    double *jac;             /**< n x n, column-major (in the mode's tangent coordinates
                                  when it has a chart) */
    int n_simultaneous;      /**< pairs of simultaneous events (at most 4) */
    hes_simultaneous simultaneous[4]; /**< n_simultaneous of them */
} hes_flow;

/** The derivative of the flow from (mode, x0) over `time` into *out (hes_flow
 * describes it); HES_EINVAL (the message in the system's) for an ESS system, a
 * mode out of range, a time that is not finite and positive or an x0 that is not
 * finite, else the simulation's status. */
hes_status hes_flow_jacobian(hes_system *sys, int mode, const double *x0, double time,
                             hes_flow *out);
/** Frees a flow's trajectory and Jacobian and clears it (NULL: nothing). */
void hes_flow_free(hes_flow *f);

/* --------------------------------------------------- perturbation trials */

/** One perturbation trial: its initial state and its error after every period. */
typedef struct {
    double *x0;              /**< n */
    int steps_completed;     /**< the periods simulated before the end or a failure */
    hes_status failure;      /**< HES_OK if all steps completed */
    char failure_msg[512];   /**< why it failed ("" if it did not) */
    double *error;           /**< steps_completed values: |x_k - x*|_2 after period k
                                  (|local(x_k, x*)| with a chart; for an orbit with
                                  symmetries, from the nearest copy of x_k that they move,
                                  hes_orbit_spec.symmetry_act, or to first order in them;
                                  a non-autonomous orbit through several modes sampled
                                  at t0 + k T + tau, tau half its first phase, against
                                  its own state there) */
} hes_trial;

/** Perturbation trials around an orbit (hes_trials_run); free them with
 * hes_trials_free. */
typedef struct {
    /** the numbers of trials, of periods per trial and of state components @{ */
    int n_trials, steps, n;
    /** @} */
    hes_trial *trials;       /**< n_trials of them */
    int converged;           /**< trials completing all steps with final error < tol */
    int n_complete;          /**< trials completing all steps */
    double *mean_error;      /**< steps values: the mean error after period k over the
                                  n_complete trials (NaN when there are none) */
    double tol;              /**< the final error below which a trial converged */
    double radius;           /**< of the ball the initial states were drawn from */
    int box;                 /**< 1: from the box |dx_i| < radius instead (hes_trials_run_box) */
    unsigned long seed;      /**< the random generator's seed */
} hes_trials;

/** The paper's Fig.\ 3 experiment: n_trials initial states uniform in the ball
 * of radius `radius` around the orbit's section state, `steps` periods each,
 * the 2-norm error to the section state after every period.  Deterministic for
 * a given seed.  When the orbit's mode has a tangent-space chart the ball is
 * in its tangent coordinates (start retract(x*, d)) and the error is
 * |local(x, x*)|. */
hes_status hes_trials_run(hes_system *sys, const hes_orbit *orbit, int n_trials,
                          double radius, int steps, unsigned long seed,
                          double tol, hes_trials *out);
/** The same with every state component (tangent coordinate, with a chart)
 * perturbed independently, uniformly in (-half_width, half_width) (the
 * paper's Fig.\ 5 experiment). */
hes_status hes_trials_run_box(hes_system *sys, const hes_orbit *orbit, int n_trials,
                              double half_width, int steps, unsigned long seed,
                              double tol, hes_trials *out);
/** Frees the trials' arrays and clears them (NULL: nothing). */
void hes_trials_free(hes_trials *t);
/** The trials against the verdict of the same orbit: a sentence saying how
 * they contradict it (an unstable verdict with at least half the trials
 * converged; a stable one with none), or NULL when they do not. */
const char *hes_trials_contradiction(hes_verdict verdict, const hes_trials *t);

#ifdef __cplusplus
}
#endif

#endif /* HES_H_ORBIT */
