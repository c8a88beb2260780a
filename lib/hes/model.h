/**
 * \file
 * hes/model.h - the model description: modes, transitions, parameters,
 * callbacks, validation (part of <hes.h>, which includes every area's
 * header).
 */
#ifndef HES_H_MODEL
#define HES_H_MODEL

#include <hes/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ========================================= model: what a hybrid system is */

/* ------------------------------------------------------------------- model */

/** The version of hes_model a model was written against (plugins carry it):
 * 2 since hes_model has the trajopt field, 3 since hes_mech has force_dx,
 * 4 since hes_model has release, 5 since hes_mode has tangent spaces (tdim,
 * retract, local, tangent, cotangent, normalize, tangent_names), hes_mech
 * net_force, hes_mech_mode the chart's second derivatives and
 * hes_mech_constraint its data, 6 since hes_mech has quaternion
 * coordinates (n_quat, quat), hes_orbit_spec symmetries and their action
 * (symmetry_act), hes_model hold and unhold, and hes_mech_mode
 * chart_state. */
#define HES_MODEL_ABI 6

/**
 * Every model function has NLopt's calling habit:
 *
 *     f(t, x, p, out, data)  ->  0 on success, nonzero to report failure
 *
 * t is the model time (see hes_transition.clock_reset), x the state of the
 * mode the function belongs to, p the full parameter vector, data the model's
 * data pointer.  Output sizes are given where each callback is declared.
 */
typedef int (*hes_fn)(double t, const double *x, const double *p,
                      double *out, void *data);

/** How a model's phases are integrated: CVODES's variable-order Adams
 * (non-stiff) or BDF (stiff) methods, or an explicit embedded Runge-Kutta
 * method of order 8 (Fehlberg 7(8), SUNDIALS's ARKODE tableau; hes's own
 * stepping, lib/ode/rk78.c) for small non-stiff systems, where it is several
 * times faster than CVODES at tight tolerances (CVODES's per-step
 * work dominates on 3- and 4-dimensional states; its error estimate is
 * blind to a phase forced by time alone, so it is for phases driven by
 * their state), or the explicit Dormand-Prince 5(4) pair (HES_DOPRI5,
 * lib/ode/step_dopri5.c: order 5, its events located on its continuous
 * extension) for non-stiff systems at moderate tolerances.  All four
 * locate events to rounding level in time and give the variational
 * matrices under the same error control as the state. */
typedef enum {
    HES_ADAMS = 0,  /**< CVODES's variable-order Adams method (non-stiff) */
    HES_BDF = 1,    /**< CVODES's variable-order BDF method (stiff) */
    HES_RK8 = 2,    /**< the explicit Runge-Kutta-Fehlberg 7(8) pair (lib/ode/rk78.c) */
    HES_DOPRI5 = 3  /**< the explicit Dormand-Prince 5(4) pair (lib/ode/step_dopri5.c) */
} hes_integrator;
/** The integrator's name, "adams", "bdf", "rk8" or "dopri5" (NULL for a value out of range),
 * and the integrator of a name (as NLopt's nlopt_algorithm_from_string):
 * HES_OK, or HES_EINVAL for NULL or an unknown name (*integrator is then
 * left as it was). @{ */
const char *hes_integrator_name(hes_integrator integrator);
hes_status hes_integrator_from_name(const char *name, hes_integrator *integrator);
/** @} */

/** Names.  Every name in a model (the model's, its modes', states',
 * transitions', parameters', path constraints' and mechanical
 * constraints'; an ESS model's, its states', events' and parameters'; a
 * robot's contacts' and joint limits') is a label that tables, JSON, plots
 * and command lines use as it is: 1 to HES_NAME_MAX bytes of printable
 * ASCII (0x20 to 0x7e), no blank at either end, not starting with '-', and
 * none of , " \\ =.  hes_model_validate, hes_ess_validate and the robot
 * readers refuse any other with hes_name_check's message. */
#define HES_NAME_MAX 64
/** HES_OK when name is such a name; else HES_EINVAL with the reason in err
 * (may be NULL), which starts with field (e.g.\ "modes[1].name") and shows
 * the name with its unprintable bytes as \\xNN. */
hes_status hes_name_check(const char *field, const char *name, hes_error *err);

/** A mode's chart maps (hes_mode.retract and hes_mode.local): a point of
 * the mode's state manifold from a point and a tangent increment, or the
 * increment between two points.  a and b are states (dim values) or, for
 * retract, b is the increment (tdim values); out receives dim values
 * (retract) or tdim values (local); p is the full parameter vector, data the
 * mode's data (hes_mode.data, else the model's).  0 on success, nonzero to
 * report failure (as hes_fn). */
typedef int (*hes_chart_fn)(const double *a, const double *b, const double *p,
                            double *out, void *data);
/** A mode's tangent-space matrix at a state x (hes_mode.tangent,
 * hes_mode.cotangent): out receives a column-major matrix whose size the
 * field states.  0 on success, nonzero to report failure. */
typedef int (*hes_frame_fn)(const double *x, const double *p, double *out, void *data);
/** A mode's projection onto its state manifold (hes_mode.normalize): x
 * (dim values) is replaced by the nearest point of the manifold (e.g.\ a
 * quaternion divided by its norm).  0 on success, nonzero to report
 * failure. */
typedef int (*hes_normalize_fn)(double *x, const double *p, void *data);

/**
 * A mode I of a hybrid model: its state and its vector field F_I.
 *
 * The state may live on a manifold of dimension tdim < dim embedded in
 * R^dim (a unit quaternion: 4 values, 3 degrees of freedom).  The
 * integrator works in the ambient coordinates x (F_I is evaluated there and
 * must leave the manifold invariant), and every linearisation (variational
 * and saltation matrices, the monodromy and its multipliers, the finite-
 * difference check, the orbit's Newton unknowns and residual) is expressed
 * in tangent coordinates delta in R^tdim through the mode's chart:
 *
 *     retract(x, delta) = x (+) delta     on the manifold, retract(x, 0) = x
 *     local(x1, x0)     = x1 (-) x0       in R^tdim, local(retract(x0, d), x0) = d
 *     E(x) = d retract(x, delta) / d delta at delta = 0     (dim x tdim)
 *     P(x) = d local(y, x) / d y at y = x                   (tdim x dim), P E = I
 *
 * and a matrix M of the ambient flow from x0 to x1 becomes P(x1) M E(x0).
 * All of retract, local, tangent, cotangent, normalize and tangent_names
 * NULL and tdim 0 is a mode whose state is R^dim (retract(x, d) = x + d,
 * local = x1 - x0, E = P = I): every result as without them.
 */
typedef struct {
    const char *name;        /**< the mode's name (hes_name_check) */
    int dim;                 /**< state dimension n_I of this mode (1 to 10000) */
    const char *const *state_names; /**< dim names, may be NULL */
    hes_fn field;            /**< out[n_I] = F_I(t, x, p) */
    hes_fn field_dx;         /**< out[n_I * n_I] = dF_I/dx (column-major); NULL: central
                                  differences */
    void *data;              /**< passed to this mode's callbacks instead of the model's
                                  data when not NULL (generic callbacks such as the
                                  mechanical layer's use it) */
    int tdim;                /**< dimension of the state manifold's tangent space, 1 to dim;
                                  0: dim (the state is R^dim).  Below dim it needs retract,
                                  local and tangent */
    hes_chart_fn retract;    /**< retract(x, delta, p, out, data): out[dim] = x (+) delta
                                  for delta in R^tdim, a point of the manifold, with
                                  retract(x, 0) = x; NULL: x + delta (tdim = dim) */
    hes_chart_fn local;      /**< local(x1, x0, p, out, data): out[tdim] = x1 (-) x0, the
                                  inverse of retract near x0: local(retract(x0, d), x0) = d;
                                  NULL: x1 - x0.  Given with retract and tangent */
    hes_frame_fn tangent;    /**< tangent(x, p, E, data): E[dim * tdim] = d retract(x, delta)
                                  / d delta at delta = 0 (column-major, full column rank);
                                  NULL: the identity.  Given with retract and local */
    hes_frame_fn cotangent;  /**< optional: cotangent(x, p, P, data): P[tdim * dim] =
                                  d local(y, x) / d y at y = x (column-major), P E = I;
                                  NULL: the least-squares left inverse (E^T E)^-1 E^T, which
                                  gives the same P v for every tangent vector v */
    hes_normalize_fn normalize; /**< optional: normalize(x, p, data) projects x onto the
                                  manifold in place; run on the state every reset gives,
                                  on every start state of a simulation and on every
                                  phase's final state.  NULL: none */
    const char *const *tangent_names; /**< tdim names of the tangent coordinates (e.g.\
                                  "root_wx"), may be NULL (then the state names when
                                  tdim = dim, else "d[0]", "d[1]", ...) */
    hes_fn admissible;       /**< optional: admissible(t, x, p, out, data) returns 0 when
                                  x at model time t is a state the mode can start from
                                  (out unused), else a failure code (describe_error): run
                                  on the start state of every simulation, after
                                  normalize (a mechanical mode held by its contacts'
                                  forces: none of them pulls or slips).  NULL: every
                                  state */
    hes_fn consistent;       /**< optional: consistent(t, x, p, out, data): out[dim * dim]
                                  (column-major) a projector onto the perturbations of a
                                  phase's start state x along which the mode's flow is
                                  differentiable, those the event that starts the phase
                                  can produce.  A phase's variational matrix A is then the
                                  flow's derivative times it, integrated from it instead
                                  of the identity.  (A mechanical mode whose sliding
                                  contact starts from rest: that contact's tangential
                                  velocity stays unperturbed; along it the sliding
                                  direction would turn at an unbounded rate.)  NULL: the
                                  identity */
} hes_mode;

/** \name Crossing directions of a guard g (the event is g = 0)
 * @{ */
#define HES_DOWN (-1) /**< g crosses zero while decreasing */
#define HES_UP     1  /**< g crosses zero while increasing */
#define HES_ANY    0  /**< g crosses zero either way */
/** @} */
/** "down", "up" or "any" (any other value) for a crossing direction. */
const char *hes_direction_name(int direction);

/** A transition I -> J of a hybrid model: its guard g and its reset R. */
typedef struct {
    const char *name;        /**< the transition's name (hes_name_check) */
    /** @{ */
    int from, to;            /**< mode indices I -> J */
    /** @} */
    int direction;           /**< HES_DOWN, HES_UP or HES_ANY */
    hes_fn guard;            /**< out[0] = g(t, x, p), x in mode I */
    hes_fn reset;            /**< out[n_J] = R(t, x, p); NULL: identity (requires n_I == n_J) */
    hes_fn guard_dx;         /**< out[n_I] = Dxg;  NULL: central differences */
    hes_fn guard_dt;         /**< out[0] = Dtg;    NULL: central differences */
    hes_fn reset_dx;         /**< out[n_J * n_I] = DxR; NULL: central differences */
    hes_fn reset_dt;         /**< out[n_J] = DtR;  NULL: central differences */
    int clock_reset;         /**< nonzero: model time restarts at 0 after this event
                                  (e.g.\ "time since the most recent apex") */
    void *data;              /**< passed to this transition's callbacks instead of the
                                  model's data when not NULL */
} hes_transition;

/** \name Parameter flags (hes_param.flags)
 * @{ */
#define HES_PARAM_SHAPE    1u /**< appears only in derivatives of guards/resets at the nominal
                                   events */
#define HES_PARAM_SOLVED   2u /**< an unknown of the orbit solver; the value given is the
                                   initial guess */
#define HES_PARAM_POSITIVE 4u /**< must be > 0 */
/** @} */

/** A parameter of a model: its default value, range and flags. */
typedef struct {
    const char *name;        /**< the parameter's name (hes_name_check) */
    double value;            /**< default */
    const char *unit;        /**< its unit, e.g.\ "m" (may be NULL) */
    const char *description; /**< one line (may be NULL) */
    unsigned flags;          /**< HES_PARAM_SHAPE, HES_PARAM_SOLVED, HES_PARAM_POSITIVE, or'ed */
    /** @{ */
    double min, max;         /**< valid closed range (use -HUGE_VAL/HUGE_VAL for none) */
    /** @} */
    /** @{ */
    double search_lo, search_hi; /**< default bounds of shape optimisation (shape
                                      parameters; both 0: none given) */
    /** @} */
} hes_param;

/**
 * How to find the model's periodic orbit.  A period starts just after an
 * event of transition `section` in mode `mode` and ends at the next event of
 * `section` (autonomous), or at time t0 + period (non-autonomous: the
 * stroboscopic map; the section event then only fixes the phase).
 * `sequence` lists the transitions of one period in order, ending with
 * `section`; while shooting only the expected guard is armed, and the converged
 * orbit is then re-simulated with every guard armed, which must reproduce the
 * same events.  The unknowns are the state components `free_states` of x0 and
 * the parameters `free_params` (flagged HES_PARAM_SOLVED); the residual is
 * (x_return - x0) restricted to the components `residual`, as many as unknowns.
 * When the orbit's mode has a chart (hes_mode.retract), both index tangent
 * coordinates (0 to tdim - 1): the unknowns are the increments delta[free]
 * of x0 = retract(x0_base, delta) and the residual is
 * local(x_return, x0)[residual], x0_base moving to each new iterate.
 */
typedef struct {
    int mode;                  /**< the mode of x0, the target of `section` */
    int section;               /**< the section transition */
    int n_sequence;            /**< the number of events of one period */
    const int *sequence;       /**< their transitions, in order, ending with `section` */
    /** Optional, n_sequence flags: any_order[i] != 0 lets events i and i + 1
     * of the sequence happen in either order (simultaneous on the orbit, such
     * as two feet landing together): both guards are armed. */
    const int *any_order;
    const char *period_param;  /**< name of the period parameter; NULL: autonomous */
    int n_free_states;         /**< the number of state components solved for */
    const int *free_states;    /**< their indices in x0 (in its tangent coordinates when the
                                    mode has a chart) */
    int n_free_params;         /**< the number of parameters solved for */
    const char *const *free_params; /**< their names (flagged HES_PARAM_SOLVED) */
    int n_residual;            /**< the number of residual components, as many as unknowns */
    const int *residual;       /**< their indices in the state of `mode` (in its tangent
                                    coordinates when the mode has a chart) */
    /** Initial guess: fills x0[dim of mode] and may refine the guesses of the
     * solved parameters in p.  Returns 0 or nonzero on failure.  A model
     * without a periodic orbit (simulation only) leaves guess NULL. */
    int (*guess)(double *p, double *x0, void *data);
    /** Optional: symmetries of the model that the orbit repeats up to (a
     * floating robot's translations on level ground and its turn about the
     * vertical: leave their components out of free_states and residual).
     * symmetries(x0, p, out, data): out[tdim * n_symmetries] = their
     * generators at x0 (column-major, in tangent coordinates when the mode
     * has a chart), independent and tangent to the section.  Their
     * multipliers (1) are not the gait's: the stability is that of the
     * quotient (hes_stability.n_symmetric), and a return map that does not
     * leave them invariant is an error naming them.  0 and NULL: none. @{ */
    int n_symmetries;
    hes_frame_fn symmetries;
    const char *const *symmetry_names; /**< n_symmetries names (hes_name_check) */
    /** Optional: the symmetries' finite action.  symmetry_act(x, theta, p,
     * out, data): out = x moved by the symmetries with parameters theta
     * (n_symmetries values in the order of the generators: theta = 0 leaves
     * x, and d out / d theta at 0 is the generators).  How far a state is
     * from the orbit up to its symmetries (hes_trials_run) is then exact:
     * the distance from the nearest of its moved copies; NULL: to first
     * order, the difference less its components along the generators. */
    int (*symmetry_act)(const double *x, const double *theta, const double *p, double *out,
                        void *data);
    /** @} */
    /** Nonzero: the unknowns are every tangent direction of x0 but the
     * symmetries' (free_states, free_params and residual then empty): x0 =
     * retract(x0_base, W u) (x0_base + W u without a chart) with W an
     * orthonormal basis of the complement of the generators at x0_base,
     * and the residual W^T local(x_return, x0), solved by least squares of
     * minimum norm (a family of orbits gives its nearest member).  For
     * modes whose tangent basis is not aligned with coordinates (held
     * constraints, quaternions), where index lists cannot say "everything
     * but the translations". */
    int free_quotient;
} hes_orbit_spec;

/** A path constraint of trajectory optimisation (hes_trajopt_spec.path). */
typedef struct {
    int mode;                      /**< constraints on the states of this mode */
    int n;                         /**< number of values */
    const char *const *names;      /**< n names (e.g.\ "swing_foot_height") */
    hes_fn fn;                     /**< out[n] = c(t, x, p), >= 0 where satisfied; checked
                                        at every node but the first of a physical phase
                                        (the reset's image) ... */
    int at_end;                    /**< ... and at its last node (the event) only if set
                                        (leave it 0 where the event fixes the value) */
} hes_path_constraint;

/**
 * Optional description of the model's trajectory-optimisation problem
 * (`hes trajopt`, lib/shaping/collocation.c): which parameters are inputs and their
 * bounds, bounds on the state at the start of the orbit and on the phase
 * durations, path constraints, and the default virtual events.
 */
typedef struct {
    int n_inputs;                  /**< the number of inputs */
    const char *const *inputs;     /**< parameter names */
    /** @{ */
    const double *input_lo, *input_hi; /**< n_inputs bounds each; NULL: unbounded */
    /** @} */
    /** @{ */
    const double *x0_lo, *x0_hi;   /**< dim of the orbit mode; NULL: unbounded */
    /** @} */
    /** @{ */
    double min_duration, max_duration; /**< per (sub-)phase; 0, 0: [0, inf) */
    /** @} */
    int n_path;                    /**< the number of path constraints */
    const hes_path_constraint *path; /**< n_path of them */
    const int *virtual_events;     /**< default counts per sequence event (--virtual-events
                                        default) */
    /** Every event, physical or virtual, must be crossed in the physical
     * transition's direction at a guard rate |Dtg + Dxg F| of at least this
     * (> 0; 0: 1e-3): no grazing impacts, and virtual events on the approach
     * to their physical event, where a perturbed step crosses them as surely
     * as the event itself. */
    double min_crossing_rate;
} hes_trajopt_spec;

/** A hybrid model: modes, transitions, parameters and the orbit to find, as plain
 * data and callbacks (what a built-in problem or a plugin defines). */
typedef struct {
    int abi;                       /**< HES_MODEL_ABI */
    const char *name;              /**< the model's name (hes_name_check) */
    const char *description;       /**< one line */
    int n_modes;                   /**< the number of modes */
    const hes_mode *modes;         /**< n_modes of them */
    int n_transitions;             /**< the number of transitions */
    const hes_transition *transitions; /**< n_transitions of them */
    int n_params;                  /**< the number of parameters (the length of p) */
    const hes_param *params;       /**< n_params of them */
    hes_orbit_spec orbit;          /**< how to find the periodic orbit */
    hes_integrator integrator;     /**< how the phases are integrated */
    double max_phase_time;         /**< no-event time limit per phase, finite; 0: default 100 */
    /** Optional consistency check of a parameter vector beyond the ranges in
     * hes_param; writes a message and returns nonzero when invalid. */
    int (*validate)(const double *p, char *msg, size_t msglen, void *data);
    void *data;                    /**< passed to every callback (a mode's or transition's
                                        own data, when set, instead) */
    /** Optional: what a nonzero return code of the model's callbacks means
     * (e.g.\ "the body reached the ground"); used in error messages. */
    const char *(*describe_error)(int code, void *data);
    const hes_trajopt_spec *trajopt; /**< optional (NULL) */
    /** How hes_model_destroy releases a model the library made (a robot
     * model, a gait's derived model); NULL for the caller's own and a
     * plugin's models, which hes_model_destroy leaves alone.  Set by the
     * library only. */
    void (*release)(void *model);
    /** Optional, for a model whose callbacks share scratch state between
     * threads behind a lock (a robot model's MuJoCo data, from a pool of
     * copies): hold(data) keeps one copy for the calling thread across a
     * run of callbacks (an integration phase), so that each callback does
     * not take and give back a lock; it returns what unhold is given after
     * the run, on the same thread.  Runs may nest.  NULL: the callbacks
     * are called without it. */
    void *(*hold)(void *data);
    void (*unhold)(void *held);     /**< gives back what hold returned */
} hes_model;

/** Frees a model the library made (hes_robot_model_new,
 * hes_robot_model_read, hes_gait_model), whatever made it; does nothing
 * for NULL and for a model of the caller's or a plugin's. */
void hes_model_destroy(hes_model *model);

/** Checks every field of a model before any callback runs: counts within
 * range and consistent with each other (at most 100000 of anything, mode
 * dimensions 1 to 10000), arrays present where a count is positive, indices
 * in range and distinct, names present and mode and parameter names unique,
 * the direction and integrator enums, max_phase_time finite and >= 0,
 * parameter ranges, defaults and search bounds, the orbit spec (at least one
 * unknown, as many residual components), the trajopt spec, and the
 * mechanical structures behind hes_mech_field / hes_mech_guard /
 * hes_mech_reset.  On failure (HES_EINVAL) writes the reason to err (may be
 * NULL), naming the field, e.g. "model 'x': orbit.n_sequence = -1 must be
 * from 0 to 100000". */
hes_status hes_model_validate(const hes_model *model, hes_error *err);

/** Index of a parameter, mode or transition by name, or -1. @{ */
int hes_model_param_index(const hes_model *model, const char *name);
int hes_model_mode_index(const hes_model *model, const char *name);
int hes_model_transition_index(const hes_model *model, const char *name);
/** @} */

/** Report of hes_model_check_derivatives(): the worst relative discrepancy
 * between a supplied Jacobian and central differences, and where. */
typedef struct {
    double max_rel_err;      /**< the worst relative error |a - d| / max(1, |d|) */
    char where[128];         /**< e.g.\ "transition touchdown: DxR[1,0]"; on failure
                                  (HES_EMODEL, HES_EINVAL) what failed and why,
                                  unless disagree: then still the wrong entry */
    int n_checked;           /**< number of supplied Jacobians compared */
    int disagree;            /**< an error above HES_DERIV_TOL: a wrong Jacobian
                                  (also when a later comparison failed) */
} hes_deriv_report;

/** The relative error above which a supplied Jacobian is taken for wrong:
 * central differences of a correct one agree to 1e-11 to 1e-7 (their
 * truncation and rounding; the knee biped's nine: 2.7e-10), and a wrong
 * entry is off by its own size. */
#define HES_DERIV_TOL 1e-4

/** Compares every supplied Jacobian (field_dx, guard_dx, guard_dt, reset_dx,
 * reset_dt, and a mechanical mode's hes_mech.force_dx in q, q' and u at the
 * state's configuration, velocities and inputs) with central differences at
 * the state x (of the mode the callback
 * belongs to) and time t given per mode: xs[I] is a state of mode I (NULL:
 * mode I and the transitions from it are not checked), which
 * must lie where the callbacks are defined (a reset may refuse states off its
 * physical domain; that is reported as HES_EMODEL).  The mechanical
 * layer's own differences are not compared (hes_mech_reset_dx and _dt, and
 * hes_mech_guard_dx and _dt of a release or a slip): nothing of the
 * model's is in them.
 * Relative error: |a - d| / max(1, |d|). */
hes_status hes_model_check_derivatives(const hes_model *model, const double *p,
                                       double t, const double *const *xs,
                                       hes_deriv_report *report);

#ifdef __cplusplus
}
#endif

#endif /* HES_H_MODEL */
