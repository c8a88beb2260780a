/**
 * \file
 * hes/ess.h - event-selected (ESS) models and their integrator (part of
 * <hes.h>, which includes every area's header).
 */
#ifndef HES_H_ESS
#define HES_H_ESS

#include <hes/robot.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- problems */

/** The built-in problems (problems/): NULL-terminated lookup by name, their
 * count, and problem i (NULL out of range). @{ */
const hes_model *hes_problem_find(const char *name);
int hes_problem_count(void);
const hes_model *hes_problem_get(int i);
/** @} */

/* =========== contact: event-selected systems (ESS) and their integrator */

/* ------------------------------------------------------------ ESS model */
/**
 * \file
 *
 * An event-selected system (Burden, Sastry, Koditschek and Revzen 2016;
 * the event-selected integrator of its paper, Sec.\ 2):
 * a state x of dimension n, m event functions h(x) and a vector field
 * f(x, s) that depends on the state also through the sign pattern s of h:
 *
 *     s_i = +1 when h_i(x) >= 0 (guard i crossed, its positive side)
 *     s_i = -1 when h_i(x) <  0
 *
 * A guard is crossed from negative to positive h_i; the paper's liveness
 * condition (its requirement 4) asks Dh_i f(x, s) > 0 on the band
 * -eps < h_i of each guard the state is about to cross, which the integrator
 * checks at every projection.  Model callbacks return 0, or nonzero to
 * report failure (HES_EMODEL).
 */
/** The vector field at x with the sign pattern s, out[n] = f(x, s), or its
 * Jacobian at fixed s, out (n x n, column-major) = df/dx (hes_ess_model.f, .f_dx). */
typedef int (*hes_ess_field_fn)(const double *x, const int *s, const double *p,
                                double *out, void *data);
/** Every event function at x, out[m] = h(x), or their Jacobian, out (m x n,
 * column-major) = dh/dx (hes_ess_model.h, .Dh). */
typedef int (*hes_ess_event_fn)(const double *x, const double *p, double *out, void *data);
/** The guard reset rule: which guards become candidates again (pool[i] = 1)
 * when the pool of candidates is empty and an integration step has ended
 * at the band entry of a guard with h_i < 0.  h: the m event values there.
 * Default (NULL): the paper's rule, pool[i] = (h_i < 0). */
typedef void (*hes_ess_rearm_fn)(const double *x, const double *h, const int *s,
                                 int *pool, void *data);

/** Optional, for a cost linear in the number of contacts (below): the event
 * functions idx[0], ..., idx[k-1] only, out[q] = h_idx[q](x) (events), or
 * their rows of Dh, out (k x n, column-major: out[q + k c] = d h_idx[q] /
 * d x_c). */
typedef int (*hes_ess_event_some_fn)(const double *x, int k, const int *idx, const double *p,
                                     double *out, void *data);
/** Optional: the guards that may come within [h_lo, h_hi] in a box of
 * states (hes_ess_model.h_near). */
typedef int (*hes_ess_near_fn)(const double *lo, const double *hi, double h_lo, double h_hi,
                               int *idx, const double *p, void *data);
/** Optional: the sums through which the field depends on s (a contact
 * model's field is a sum over the contacts in stance), n_sums values:
 * sums_init computes them from the whole pattern s, sums_flip updates them
 * after s_i alone has changed sign (s holds the new sign, -s[i] the old),
 * and f_sums / f_dx_sums give f and df/dx from the state and the sums. @{ */
typedef int (*hes_ess_sums_init_fn)(const int *s, const double *p, double *sums, void *data);
typedef int (*hes_ess_sums_flip_fn)(int i, const int *s, const double *p, double *sums,
                                    void *data);
typedef int (*hes_ess_sums_field_fn)(const double *x, const double *sums, const double *p,
                                     double *out, void *data);
/** @} */

/** Optional: energy bookkeeping.  out[0] = E(x) with the pattern s, out[1]
 * = P = dE/dt along f(x, s) (the power the model's sources and losses
 * exchange with it); E continuous where a guard is crossed.  The _sums
 * form gives the same from the sums (hes_ess_model.n_sums). @{ */
typedef int (*hes_ess_energy_fn)(const double *x, const int *s, const double *p, double *out,
                                 void *data);
typedef int (*hes_ess_energy_sums_fn)(const double *x, const double *sums, const double *p,
                                      double *out, void *data);
/** @} */

/** The layout version of hes_ess_model and what it points to, for ESS
 * plugins (hes_plugin_open_ess); 1: with the orbit guess fields; 2: with
 * the optional per-guard and sums callbacks; 3: with release.  A plugin
 * of ABI 1 or 2 is loaded with the later fields absent. */
#define HES_ESS_MODEL_ABI 3

/** An event-selected system (the header's description) as plain data and callbacks: what a built-in
 * ESS problem or an ESS plugin defines. */
typedef struct {
    const char *name;             /**< the model's name (hes_name_check) */
    const char *description;      /**< one line */
    int n;                        /**< state dimension, 1 to 10000 */
    int m;                        /**< number of event functions, 1 to 10000 */
    const char *const *state_names; /**< n names, may be NULL */
    const char *const *event_names; /**< m names, may be NULL (messages then say "h[i]") */
    int n_params;                 /**< the number of parameters (the length of p) */
    const hes_param *params;      /**< as a hes_model's (flags other than
                                       HES_PARAM_POSITIVE are ignored) */
    hes_ess_field_fn f;           /**< out[n] = f(x, s) */
    hes_ess_field_fn f_dx;        /**< out[n * n] = df/dx at fixed s; NULL: central differences */
    hes_ess_event_fn h;           /**< out[m] = h(x) */
    hes_ess_event_fn Dh;          /**< out[m * n] = dh/dx (m x n, column-major) */
    hes_ess_rearm_fn rearm;       /**< NULL: the paper's rule (above) */
    void *data;                   /**< passed to every callback */
    /** Optional: a periodic orbit's guess for hes_ess_orbit_find (`hes
     * analyze`): a state on the section x[orbit_section] = orbit_x0[orbit_section]
     * and the period.  orbit_x0 NULL: none. @{ */
    const double *orbit_x0;       /**< n values */
    double orbit_period;
    int orbit_section;
    /** @} */
    /** Optional (ABI 2), for a cost linear in the number of contacts.
     *
     * Per-guard evaluation and a broad phase: h_some, Dh_some and h_near,
     * all three or none.  h_near(lo, hi, h_lo, h_hi, idx, p, data) writes
     * to idx (room for m) every guard i for which some state x in the box
     * lo <= x <= hi (componentwise, n values each) has h_lo <= h_i(x) <=
     * h_hi, and returns how many (a superset is allowed, a guard left out
     * is a wrong trajectory; negative: failure).  With them the DOPRI5
     * integration step and the projection step evaluate only the active
     * guards: those near a level at the last step, and those h_near
     * returns for the box of the next step's path with the levels [-eps,
     * 0] (ess_active.c).  The end of every run checks every guard.
     *
     * Sums: n_sums > 0 with sums_init, sums_flip and f_sums (f_dx_sums
     * optional: central differences of f_sums).  The integrator then keeps
     * the sums along with the sign pattern and evaluates the field from
     * them, in time independent of the number of contacts, instead of
     * calling f and f_dx (which remain required, for everything else).
     *
     * These must agree with f, h and Dh; the built-in models' tests check
     * theirs against them, the integrator does not at run time. @{ */
    hes_ess_event_some_fn h_some;
    hes_ess_event_some_fn Dh_some;
    hes_ess_near_fn h_near;
    int n_sums;                   /**< 0 to 10000 */
    hes_ess_sums_init_fn sums_init;
    hes_ess_sums_flip_fn sums_flip;
    hes_ess_sums_field_fn f_sums;
    hes_ess_sums_field_fn f_dx_sums;
    /** @} */
    /** Energy bookkeeping (with DOPRI5): energy, and energy_sums with the
     * sums (optional).  The integrator keeps W = the integral of P over
     * the run (Simpson's rule on every integration step, the trapezoid on
     * every projection) and checks E(x) - E(x0) = W, to its own error
     * estimate, after every step and at the end; a difference beyond it is
     * HES_ESOLVER (lib/ess/ess_energy.c). @{ */
    hes_ess_energy_fn energy;
    hes_ess_energy_sums_fn energy_sums;
    /** @} */
    /** How hes_ess_model_destroy releases a model the library made
     * (hes_plate_springs_model, hes_plate_vertical_model); NULL for the
     * caller's own, a plugin's and the registry's models, which
     * hes_ess_model_destroy leaves alone.  Set by the library. */
    void (*release)(void *model);
} hes_ess_model;

/** Frees an ESS model the library made, whatever made it; does nothing for
 * NULL and for a model of the caller's, a plugin's or the registry's. */
void hes_ess_model_destroy(hes_ess_model *model);

/** Structural checks before any callback runs: n and m from 1 to 10000,
 * callbacks f, h and Dh present, names present where an array is given and
 * parameter names unique, parameter defaults finite and within their ranges.
 * HES_EINVAL with the reason in err (may be NULL), naming the field. */
hes_status hes_ess_validate(const hes_ess_model *model, hes_error *err);

/* ----------------------------------------------------------- ESS integrator */
/**
 * \file
 *
 * The integrator (lib/ess/ess.c) alternates two steps, with a pool of
 * candidate guards (those with h_i < 0 at the start, not crossed since):
 *
 * - integration step: CVODES (Adams, dense Newton; or, with options.method
 *   HES_ESS_DOPRI5, explicit Dormand-Prince 5(4)) on f(x, s) with s fixed,
 *   stopped by root finding where a candidate enters its band
 *   (h_i + eps = 0, rising), where a crossed guard changes sign outside a
 *   projection (h_i = 0: s_i follows; the field may jump), and, with the pool
 *   empty, where a guard with h_i < 0 enters its band (then the rearm rule
 *   refills the pool), or at t_end;
 * - projection step, whenever a candidate lies in its band h_i >= -eps:
 *   G = f(x, s), dt_i = -h_i / (Dh_i G) for the candidates in the band, j the
 *   argmin, x += G dt_j, t += dt_j, s_j = +1, j leaves the pool.  Every
 *   candidate in the band that is not live, Dh_i G <= live_tol |Dh_i| |G|,
 *   is watched (options.near_miss, the default; under strict liveness it is
 *   HES_EGRAZING naming the guard).  The projection is taken only if it passes a second-order
 *   test: the approach rate a = Dh_j f at x + G dt_j is within a / 2 of its
 *   value at x (for a decelerating approach, exactly the condition that the
 *   quadratic model of h_j along the flow reaches zero), h_j at the
 *   projected point is within a quarter of h_j's distance crossed, and no
 *   other guard within reach of a level moves further than eps / 4 from its
 *   linear model (along the straight path and along the flow).  A candidate that fails it is
 *   watched: its crossing of h_j = 0, if it comes, is located exactly by the
 *   integration step (n_refused counts these).
 *
 * Before every step the guards not in the pool take the signs of their h
 * (a guard at its zero, as the one just projected and one with the same
 * surface, the sign of its rate).  After every step and at the end the sign
 * pattern must be that of h up to the band eps; otherwise a crossing was
 * missed and the run fails with HES_ESOLVER rather than return a wrong
 * trajectory.
 *
 * With `jacobian` set it also returns J = d x(t_end) / d x0, the exact
 * derivative of this discrete flow (variational equations over the
 * integration steps, the event times' dependence on x0, and the exact
 * Jacobian of each projection), up to the integration tolerances.
 */
/** The integration step's method (hes_ess_options.method). */
typedef enum {
    HES_ESS_CVODES = 0, /**< CVODES, Adams (the default) */
    HES_ESS_DOPRI5 = 1  /**< explicit Dormand-Prince 5(4) with error control; band entries
                             and sign changes located on its continuous extension, each
                             step short enough that no guard crosses and crosses back
                             unseen (lib/ess/ess_dopri.c).  Restarts after a projection in
                             one step, where CVODES restarts at order 1: faster with many
                             contacts.  With jacobian it integrates the variational
                             equations alongside (the n x n sensitivities in its state).
                             With a model's h_near it evaluates only the guards near a
                             level (lib/ess/ess_active.c): the method for many
                             contacts; CVODES's root finding sees every guard */
} hes_ess_method;
/** "cvodes" and "dopri5" (`--ess-method`); NULL / HES_EINVAL if unknown. @{ */
const char *hes_ess_method_name(hes_ess_method method);
hes_status hes_ess_method_from_name(const char *name, hes_ess_method *method);
/** @} */

/** The options of a run (hes_ess_run); hes_ess_options_init sets the defaults. */
typedef struct {
    double eps;         /**< band width (> 0): the accuracy knob, error O(eps^2) */
    /** @{ */
    double rtol, atol;  /**< integration tolerances (> 0) */
    /** @} */
    int jacobian;       /**< nonzero: compute J */
    int record;         /**< nonzero: keep (t, x) at each step boundary */
    /** @{ */
    int n_out;          /**< optional output times (increasing, within [t0, t_end]) */
    const double *t_out;
    /** @} */
    double live_tol;    /**< liveness threshold (>= 0) */
    long max_loops;     /**< budget of integration plus projection steps (> 0) */
    double max_wall_time; /**< seconds (> 0) */
    int near_miss;      /**< nonzero (default): a candidate in its band that is not
                             live (a contact the state comes within eps of but turns
                             away from: a near miss; a leg's liftoff guard during the
                             first eps of its compression) is left out of the
                             projection and watched by root finding on h_i = 0
                             (crossing it is then a sign change: exact, not projected)
                             until an integration step ends with it below its band
                             (h_i < -eps).  0 (strict liveness, the paper's
                             requirement 4 on the band): such a candidate, or a
                             watched guard that leaves its band without crossing, is
                             HES_EGRAZING naming the guard */
    hes_ess_method method; /**< HES_ESS_CVODES (default) or HES_ESS_DOPRI5 */
} hes_ess_options;

/** eps 1e-3, rtol 1e-8, atol 1e-10, no Jacobian, no record, no output
 * times, live_tol 1e-9, max_loops 10^7, max_wall_time 60, near_miss 1,
 * method HES_ESS_CVODES. */
void hes_ess_options_init(hes_ess_options *opts);

/** The outcome of a run (hes_ess_run), also of a failed one up to where it
 * stopped; hes_ess_result_free releases its arrays. */
typedef struct {
    /** the state dimension and the number of events @{ */
    int n, m;
    /** @} */
    double t_end;       /**< the time reached: t_end, or where a failed run stopped */
    double *x_end;      /**< n */
    int *s_end;         /**< m: the sign pattern at t_end */
    double *jac;        /**< n x n, d x(t_end) / d x0 (jacobian set), else NULL */
    int n_samples;      /**< with record: step boundaries, in loop order */
    double *t;          /**< n_samples */
    double *x;          /**< n x n_samples (column k: the state at t[k]) */
    double *x_out;      /**< n x n_out: the state at the output times (NULL without) */
    /** the run's integration steps, projections, sign changes and rearms @{ */
    long n_integrations, n_projections, n_sign_changes, n_rearms;
    /** @} */
    long n_refused;     /**< projections refused by the second-order test (those
                             guards were watched: crossed exactly, or missed) */
    /** @{ */
    double eps_error;   /**< hes_ess_run_error's estimate of x_end's error from the
                             band, and its observed order; NaN until estimated */
    double eps_order;
    /** @} */
} hes_ess_result;

/** The ESS integrator of one model, with its parameter values and workspaces. */
typedef struct hes_ess hes_ess;

/** An integrator of a model (validated: HES_EINVAL with the reason in err)
 * with the model's default parameter values; its CVODES integrator and
 * workspaces are made here.  One object serves one thread at a time. */
hes_status hes_ess_new(const hes_ess_model *model, hes_ess **out, hes_error *err);
/** Frees the integrator (NULL: nothing). */
void hes_ess_destroy(hes_ess *ess);
/** The integrator's model. */
const hes_ess_model *hes_ess_get_model(const hes_ess *ess);
/** The message of the last failure ("" after success). */
const char *hes_ess_errmsg(const hes_ess *ess);
/** Sets a parameter by name: HES_ENOTFOUND, or HES_EINVAL outside its range. */
hes_status hes_ess_set_param(hes_ess *ess, const char *name, double value);
/** The parameter values (the model's n_params). */
const double *hes_ess_params(const hes_ess *ess);

/** Integrates from (t0, x0) to t_end > t0 (opts NULL: the defaults).  res is
 * filled (release with hes_ess_result_free) also on failure, up to where
 * the run stopped.  HES_EINVAL for bad arguments, HES_EGRAZING for a
 * liveness violation, HES_EMODEL for a failing callback, HES_ENONFINITE,
 * HES_ESOLVER (CVODES, budgets, a sign pattern found inconsistent with h),
 * HES_ENOMEM. */
hes_status hes_ess_run(hes_ess *ess, const hes_ess_options *opts, double t0,
                       const double *x0, double t_end, hes_ess_result *res);
/** Frees a result's arrays and clears it (NULL: nothing). */
void hes_ess_result_free(hes_ess_result *res);
/** The error of a run's end state from the band eps (lib/ess/ess_accuracy.c):
 * the run of res (from opts, t0, x0 to t_end) again at eps / 2, eps / 4 and
 * eps / 8; with d_k the max-norm change from one to the next,
 * res->eps_error = (4/3) d1 (Richardson for the method's order 2) and
 * res->eps_order = log2(d1 / d2) (NaN when d2 = 0) -- when log2(d2 / d3)
 * agrees with it to 0.5.  Otherwise eps is not in the asymptotic range (a
 * bed of guards closer than eps): eps_order is log2(d2 / d3) and eps_error
 * at least |x(eps) - x(eps / 8)|.  An order far from 2 says the estimate is
 * not to be trusted (an event near t_end, eps too large).  Returns the
 * status of the extra runs (the message in hes_ess_errmsg). */
hes_status hes_ess_run_error(hes_ess *ess, const hes_ess_options *opts, double t0,
                             const double *x0, double t_end, hes_ess_result *res);

#ifdef __cplusplus
}
#endif

#endif /* HES_H_ESS */
