/*
 * hes.h - public interface of libhes: stability of periodic hybrid orbits and
 * hybrid event shaping.
 *
 * The declarations follow the pipeline and the library's layers (lib/README.md):
 * base, model, hybrid, shaping, batch, io.  The pipeline:
 *   model (plain data + callbacks)  ->  hes_system (model + parameter values
 *   + settings + workspaces)  ->  simulate across events (hes_traj)  ->
 *   periodic orbit by Newton shooting (hes_orbit)  ->  variational matrices
 *   A_i and saltation matrices Xi_i  ->  monodromy Phi = Xi_N A_N ... Xi_1 A_1
 *   ->  multipliers, psi = max |lambda| over the nontrivial multipliers.
 *
 * Conventions: matrices are double arrays in column-major order (LAPACK's)
 * with explicit dimensions; a saltation matrix of a transition I -> J is
 * n_J x n_I.  Every fallible call returns hes_status; hes_strerror() names the
 * status and hes_system_errmsg() gives the detail of the last failure.  The
 * library keeps no global mutable state: use one hes_system per thread.
 *
 * NULL pointers (the caller's contract; tests/test_api_null.c): a pointer
 * argument may be NULL only where its declaration says so (an optional
 * output, "may be NULL").  A required pointer given as NULL is HES_EINVAL,
 * with the reason in the system's message (hes_system_errmsg) when the
 * system itself is given, or in msg when the function takes one; nothing
 * crashes and outputs that can be are cleared first.  A msg buffer may
 * always be NULL (then len is ignored).  Every _free and _destroy of NULL
 * does nothing.  Accessors of a NULL object give NULL, 0 or -1 (a count 0,
 * an index -1, a NaN for a number); void functions given NULL for what they
 * read or write do nothing; a model callback of the mechanical layer with
 * NULL data, state or output reports failure.  Beyond NULL, pointers must
 * point to arrays of the documented sizes: the library cannot check that.
 */
#ifndef HES_H
#define HES_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* =========================================================== base: status */

/* ------------------------------------------------------------------ status */

typedef enum {
    HES_OK = 0,
    HES_EINVAL,     /* invalid argument, model or parameter value */
    HES_ENOMEM,     /* allocation failed */
    HES_ESOLVER,    /* the integrator (CVODES) or LAPACK failed */
    HES_EGRAZING,   /* guard reached tangentially: |Dtg + Dxg F_I| tiny */
    HES_EZENO,      /* too many events in too short a time */
    HES_ENOEVENT,   /* no event before the time limit */
    HES_ENONFINITE, /* the state or a model output became NaN or infinite */
    HES_EMODEL,     /* a model callback reported failure */
    HES_ENOORBIT,   /* no periodic orbit found (or it is not an orbit of the full system) */
    HES_EMAXITER,   /* iteration limit reached */
    HES_EDEFECTIVE, /* eigen-decomposition unusable (defective or repeated eigenvalue) */
    HES_ENOTFOUND,  /* unknown problem, parameter, mode or transition name */
    HES_EDIVERGED,  /* a perturbed trajectory left every neighbourhood of the orbit */
    HES_EIO,        /* a file or stream could not be written */
    HES_ELCP,       /* a complementarity problem has no solution the solver finds, or its
                       solution fails the complementarity check */
    HES_EINFEASIBLE /* a requested motion cannot be produced within the constraints
                       (friction cone, torque limits, unilateral contact) */
} hes_status;

/* Short, stable name of a status, e.g. "grazing event". */
const char *hes_strerror(hes_status status);

/* Exit status the program uses for a library status: 0 OK, 2 bad input
 * (HES_EINVAL, HES_ENOTFOUND), 1 any numerical failure. */
int hes_status_exit_code(hes_status status);

/* ---------------------------------------------------------------- features */

/* What this libhes was built with, as words separated by single spaces:
 * "base", then "mujoco" (robot files, lib/model/robot.c), "siconos" and
 * "gsl" (impact laws and post-impact sets), "ipopt" (collocation's
 * default solver) for each that configure found.  `hes --version` prints
 * it on its second line, "features: ...". */
const char *hes_features(void);

/* ------------------------------------------------------------- input files */

/* Every file the library or the program reads (robot files, descriptions,
 * gait files, CSV tables, plugins) is opened by hes_input_open
 * (lib/base/input.c): without blocking (O_NONBLOCK, so that a FIFO does not
 * hang open(2)), checked by fstat(2) to be a regular file (a directory,
 * FIFO, device or socket is refused: /dev/zero would never end), at most
 * `max` bytes (0: HES_INPUT_MAX), then put back into blocking mode.  *fd
 * (and *size, may be NULL) on success; HES_ENOTFOUND for a missing file,
 * HES_EINVAL (msg naming the path and why) for any other refusal, HES_EIO
 * for a failed fstat.  hes_input_read reads the whole file into *data
 * (NUL-terminated, free() it; *size bytes, may be NULL), never more than
 * max bytes even if the file grows while it is read. */
#define HES_INPUT_MAX ((size_t)256 << 20)
hes_status hes_input_open(const char *path, size_t max, int *fd, size_t *size, char *msg,
                          size_t len);
hes_status hes_input_read(const char *path, size_t max, char **data, size_t *size, char *msg,
                          size_t len);

/* ========================================= model: what a hybrid system is */

/* ------------------------------------------------------------------- model */

/* The version of hes_model a model was written against (plugins carry it):
 * 2 since hes_model has the trajopt field, 3 since hes_mech has force_dx. */
#define HES_MODEL_ABI 3

/*
 * Every model function has NLopt's calling habit:
 *   f(t, x, p, out, data)  ->  0 on success, nonzero to report failure
 * t is the model time (see hes_transition.clock_reset), x the state of the
 * mode the function belongs to, p the full parameter vector, data the model's
 * data pointer.  Output sizes are given where each callback is declared.
 */
typedef int (*hes_fn)(double t, const double *x, const double *p,
                      double *out, void *data);

/* How a model's phases are integrated: CVODES's variable-order Adams
 * (non-stiff) or BDF (stiff) methods, or an explicit embedded Runge-Kutta
 * method of order 8 (Fehlberg 7(8), SUNDIALS's ARKODE tableau; hes's own
 * stepping, lib/base/rk.c) for small non-stiff systems, where it is several
 * times faster than CVODES at tight tolerances (CVODES's per-step
 * work dominates on 3- and 4-dimensional states; its error estimate is
 * blind to a phase forced by time alone, so it is for phases driven by
 * their state).  All three locate events
 * to rounding level in time and give the variational matrices under the
 * same error control as the state. */
typedef enum { HES_ADAMS = 0, HES_BDF = 1, HES_RK8 = 2 } hes_integrator;
/* The integrator's name, "adams", "bdf" or "rk8" (NULL for a value out of range),
 * and the integrator of a name (as NLopt's nlopt_algorithm_from_string):
 * HES_OK, or HES_EINVAL for NULL or an unknown name (*integrator is then
 * left as it was). */
const char *hes_integrator_name(hes_integrator integrator);
hes_status hes_integrator_from_name(const char *name, hes_integrator *integrator);

/* Names.  Every name in a model (the model's, its modes', states',
 * transitions', parameters', path constraints' and mechanical
 * constraints'; an ESS model's, its states', events' and parameters'; a
 * robot's contacts' and joint limits') is a label that tables, JSON, plots
 * and command lines use as it is: 1 to HES_NAME_MAX bytes of printable
 * ASCII (0x20 to 0x7e), no blank at either end, not starting with '-', and
 * none of , " \ =.  hes_model_validate, hes_ess_validate and the robot
 * readers refuse any other with hes_name_check's message. */
#define HES_NAME_MAX 64
/* HES_OK when name is such a name; else HES_EINVAL with the reason in msg
 * (may be NULL), which starts with field (e.g. "modes[1].name") and shows
 * the name with its unprintable bytes as \xNN. */
hes_status hes_name_check(const char *field, const char *name, char *msg, size_t len);

typedef struct {
    const char *name;
    int dim;                 /* state dimension n_I of this mode (1 to 10000) */
    const char *const *state_names; /* dim names, may be NULL */
    hes_fn field;            /* out[n_I] = F_I(t, x, p) */
    hes_fn field_dx;         /* out[n_I * n_I] = dF_I/dx (column-major); NULL: central differences */
    void *data;              /* passed to this mode's callbacks instead of the model's
                                data when not NULL (generic callbacks such as the
                                mechanical layer's use it) */
} hes_mode;

/* Crossing directions of a guard g (the event is g = 0). */
#define HES_DOWN (-1) /* g crosses zero while decreasing */
#define HES_UP     1  /* g crosses zero while increasing */
#define HES_ANY    0
/* "down", "up" or "any" (any other value) for a crossing direction. */
const char *hes_direction_name(int direction);

typedef struct {
    const char *name;
    int from, to;            /* mode indices I -> J */
    int direction;           /* HES_DOWN, HES_UP or HES_ANY */
    hes_fn guard;            /* out[0] = g(t, x, p), x in mode I */
    hes_fn reset;            /* out[n_J] = R(t, x, p); NULL: identity (requires n_I == n_J) */
    hes_fn guard_dx;         /* out[n_I] = Dxg;  NULL: central differences */
    hes_fn guard_dt;         /* out[0] = Dtg;    NULL: central differences */
    hes_fn reset_dx;         /* out[n_J * n_I] = DxR; NULL: central differences */
    hes_fn reset_dt;         /* out[n_J] = DtR;  NULL: central differences */
    int clock_reset;         /* nonzero: model time restarts at 0 after this event
                                (e.g. "time since the most recent apex") */
    void *data;              /* passed to this transition's callbacks instead of the
                                model's data when not NULL */
} hes_transition;

/* Parameter flags. */
#define HES_PARAM_SHAPE    1u /* appears only in derivatives of guards/resets at the nominal events */
#define HES_PARAM_SOLVED   2u /* an unknown of the orbit solver; the value given is the initial guess */
#define HES_PARAM_POSITIVE 4u /* must be > 0 */

typedef struct {
    const char *name;
    double value;            /* default */
    const char *unit;
    const char *description;
    unsigned flags;
    double min, max;         /* valid closed range (use -HUGE_VAL/HUGE_VAL for none) */
    double search_lo, search_hi; /* default bounds of shape optimisation (shape
                                    parameters; both 0: none given) */
} hes_param;

/*
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
 */
typedef struct {
    int mode;
    int section;
    int n_sequence;
    const int *sequence;
    /* Optional, n_sequence flags: any_order[i] != 0 lets events i and i + 1
     * of the sequence happen in either order (simultaneous on the orbit, such
     * as two feet landing together): both guards are armed. */
    const int *any_order;
    const char *period_param;  /* name of the period parameter; NULL: autonomous */
    int n_free_states;
    const int *free_states;
    int n_free_params;
    const char *const *free_params;
    int n_residual;
    const int *residual;
    /* Initial guess: fills x0[dim of mode] and may refine the guesses of the
     * solved parameters in p.  Returns 0 or nonzero on failure.  A model
     * without a periodic orbit (simulation only) leaves guess NULL. */
    int (*guess)(double *p, double *x0, void *data);
} hes_orbit_spec;

/*
 * Optional description of the model's trajectory-optimisation problem
 * (`hes trajopt`, lib/shaping/collocation.c): which parameters are inputs and their
 * bounds, bounds on the state at the start of the orbit and on the phase
 * durations, path constraints, and the default virtual events.
 */
typedef struct {
    int mode;                      /* constraints on the states of this mode */
    int n;                         /* number of values */
    const char *const *names;      /* n names (e.g. "swing_foot_height") */
    hes_fn fn;                     /* out[n] = c(t, x, p), >= 0 where satisfied; checked
                                      at every node but the first of a physical phase
                                      (the reset's image) ... */
    int at_end;                    /* ... and at its last node (the event) only if set
                                      (leave it 0 where the event fixes the value) */
} hes_path_constraint;

typedef struct {
    int n_inputs;
    const char *const *inputs;     /* parameter names */
    const double *input_lo, *input_hi;
    const double *x0_lo, *x0_hi;   /* dim of the orbit mode; NULL: unbounded */
    double min_duration, max_duration; /* per (sub-)phase; 0, 0: [0, inf) */
    int n_path;
    const hes_path_constraint *path;
    const int *virtual_events;     /* default counts per sequence event (--virtual-events default) */
    /* Every event, physical or virtual, must be crossed in the physical
     * transition's direction at a guard rate |Dtg + Dxg F| of at least this
     * (> 0; 0: 1e-3): no grazing impacts, and virtual events on the approach
     * to their physical event, where a perturbed step crosses them as surely
     * as the event itself. */
    double min_crossing_rate;
} hes_trajopt_spec;

typedef struct {
    int abi;                       /* HES_MODEL_ABI */
    const char *name;
    const char *description;       /* one line */
    int n_modes;
    const hes_mode *modes;
    int n_transitions;
    const hes_transition *transitions;
    int n_params;
    const hes_param *params;
    hes_orbit_spec orbit;
    hes_integrator integrator;
    double max_phase_time;         /* no-event time limit per phase, finite; 0: default 100 */
    /* Optional consistency check of a parameter vector beyond the ranges in
     * hes_param; writes a message and returns nonzero when invalid. */
    int (*validate)(const double *p, char *msg, size_t msglen, void *data);
    void *data;
    /* Optional: what a nonzero return code of the model's callbacks means
     * (e.g. "the body reached the ground"); used in error messages. */
    const char *(*describe_error)(int code, void *data);
    const hes_trajopt_spec *trajopt; /* optional (NULL) */
} hes_model;

/* Checks every field of a model before any callback runs: counts within
 * range and consistent with each other (at most 100000 of anything, mode
 * dimensions 1 to 10000), arrays present where a count is positive, indices
 * in range and distinct, names present and mode and parameter names unique,
 * the direction and integrator enums, max_phase_time finite and >= 0,
 * parameter ranges, defaults and search bounds, the orbit spec (at least one
 * unknown, as many residual components), the trajopt spec, and the
 * mechanical structures behind hes_mech_field / hes_mech_guard /
 * hes_mech_reset.  On failure (HES_EINVAL) writes the reason to msg (may be
 * NULL), naming the field, e.g. "model 'x': orbit.n_sequence = -1 must be
 * from 0 to 100000". */
hes_status hes_model_validate(const hes_model *model, char *msg, size_t msglen);

/* Index of a parameter, mode or transition by name, or -1. */
int hes_model_param_index(const hes_model *model, const char *name);
int hes_model_mode_index(const hes_model *model, const char *name);
int hes_model_transition_index(const hes_model *model, const char *name);

/* Report of hes_model_check_derivatives(): the worst relative discrepancy
 * between a supplied Jacobian and central differences, and where. */
typedef struct {
    double max_rel_err;
    char where[128];         /* e.g. "transition touchdown: DxR[1,0]"; on failure
                                (HES_EMODEL, HES_EINVAL) what failed and why,
                                unless disagree: then still the wrong entry */
    int n_checked;           /* number of supplied Jacobians compared */
    int disagree;            /* an error above HES_DERIV_TOL: a wrong Jacobian
                                (also when a later comparison failed) */
} hes_deriv_report;

/* The relative error above which a supplied Jacobian is taken for wrong:
 * central differences of a correct one agree to 1e-11 to 1e-7 (their
 * truncation and rounding; the knee biped's nine: 2.7e-10), and a wrong
 * entry is off by its own size. */
#define HES_DERIV_TOL 1e-4

/* Compares every supplied Jacobian (field_dx, guard_dx, guard_dt, reset_dx,
 * reset_dt, and a mechanical mode's hes_mech.force_dx in q, q' and u at the
 * state's configuration, velocities and inputs) with central differences at
 * the state x (of the mode the callback
 * belongs to) and time t given per mode: xs[I] is a state of mode I (NULL:
 * mode I and the transitions from it are not checked), which
 * must lie where the callbacks are defined (a reset may refuse states off its
 * physical domain; that is reported as HES_EMODEL).
 * Relative error: |a - d| / max(1, |d|). */
hes_status hes_model_check_derivatives(const hes_model *model, const double *p,
                                       double t, const double *const *xs,
                                       hes_deriv_report *report);

/* ------------------------------------------------------ mechanical systems */

/*
 * Mechanical systems with unilateral constraints (decoupled-limbs paper,
 * Sec. 2).  Configuration q in R^d, mass matrix M(q), applied forces f, and
 * constraints a_j(q) >= 0.  While the constraints J are active,
 *     M(q) q'' = f(q, q', u) - C(q, q') q' + Da_J(q)^T lambda_J          (eq. 1)
 * where the Coriolis/centrifugal term is derived by the library from M:
 *     [C q']_i = sum_k (dM_ik/dq_l) q'_l q'_k - 1/2 q'^T (dM/dq_i) q'.
 * An impact that makes the constraints J hold enforces, with Gamma the
 * diagonal of the constraints' restitution coefficients (eq. 3-4),
 *     q'+ = q'- - M^-1 Da_J^T (Da_J M^-1 Da_J^T)^-1 (I + Gamma) Da_J q'-,
 * so that Da_J q'+ = -Gamma Da_J q'-.  Every solve uses Cholesky
 * factorisations (of at most HES_MECH_MAX rows), never an explicit inverse.
 *
 * A model is still a hes_model: its modes and transitions use the generic
 * callbacks hes_mech_field, hes_mech_guard and hes_mech_reset with a
 * hes_mech_mode / hes_mech_transition as their data (hes_mode.data,
 * hes_transition.data), so guards, resets, vector fields and from them the
 * saltation matrices are derived, not written by hand.  Dimensions are at
 * most HES_MECH_MAX.
 */
#define HES_MECH_MAX 16

/* f(q, p, out, data): a function of the configuration. */
typedef int (*hes_mech_config_fn)(const double *q, const double *p, double *out, void *data);

typedef struct {
    const char *name;
    hes_mech_config_fn a;    /* out[0] = a_j(q), admissible where >= 0 */
    hes_mech_config_fn Da;   /* out[d] = Da_j(q); NULL: central differences */
    double restitution;      /* gamma_j >= 0 (0: plastic) */
    int unilateral;          /* 1: can only push (impulse >= 0); 0: bilateral (e.g. no slip) */
    /* Friction (0 and NULL: frictionless, as before): the Coulomb
     * coefficient and the tangent row, out[d] = J_t,j(q), so that J_t,j q'
     * is the contact's sliding velocity along its tangent (planar: one
     * tangent, both signs; a row rather than a function's gradient because
     * rolling bodies' sliding velocities are not one).  Required when
     * mu > 0. */
    double mu;
    hes_mech_config_fn Jt;
} hes_mech_constraint;

typedef struct {
    const char *name;
    int d;                   /* configuration dimension */
    hes_mech_config_fn mass; /* out[d*d] = M(q), symmetric positive definite */
    hes_mech_config_fn mass_dq; /* out[d*d*d] = dM/dq_k (k-th d x d block); NULL: fourth-
                                   order central differences (error ~1e-12 relative) */
    /* out[d] = applied generalized forces (gravity, springs, dampers, B(q) u);
     * Coriolis/centrifugal terms are added by the library */
    int (*force)(const double *q, const double *qd, const double *u, const double *p,
                 double *out, void *data);
    int m;                   /* number of inputs u */
    int n_constraints;
    const hes_mech_constraint *constraints;
    void *data;              /* passed to every callback above */
    /* Optional: the Jacobians of force at (q, q', u), column-major:
     * fq[d*d] = df/dq, fqd[d*d] = df/dq', fu[d*m] = df/du (m > 0).  Used by
     * hes_mech_field_dx; NULL: fourth-order central differences of force.
     * hes_model_check_derivatives checks them directly, in q, q' and u. */
    int (*force_dx)(const double *q, const double *qd, const double *u, const double *p,
                    double *fq, double *fqd, double *fu, void *data);
} hes_mech;

/* A mode: the mechanical system with the constraints `active` held, in
 * coordinates z of dimension k with q = chart(z) (NULL: z = q).  The mode's
 * state is [z, z'] (2k values); its vector field is the reduced one,
 *     (Phi^T M Phi) z'' = Phi^T (f - C q' - M Phi' z'),  Phi = Dchart(z),
 * in which the forces of the held constraints do no work. */
typedef struct {
    const hes_mech *mech;
    int n_active;
    const int *active;       /* constraints held (their forces are lambda_J) */
    int k;
    hes_mech_config_fn chart;    /* out[d] = q(z); NULL: identity (k == d) */
    /* With a chart both derivatives are required: the vector field must be
     * smooth to the integrator's tolerance, which differences are not. */
    hes_mech_config_fn chart_dz; /* out[d*k] = Dchart(z) */
    /* out[d] = D^2 chart(z)[z', z'], the acceleration of q at z'' = 0 */
    int (*chart_acc)(const double *z, const double *zd, const double *p, double *out,
                     void *data);
    /* out[m] = the inputs in this mode as a function of time and state; NULL: zero */
    int (*input)(double t, const double *x, const double *p, double *u, void *data);
} hes_mech_mode;

typedef enum { HES_MECH_ACTIVATE = 0, HES_MECH_RELEASE = 1 } hes_mech_event;

/* A transition between mechanical modes.  Activation: guard a_c(q) crossed
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
    const hes_mech_mode *from, *to;
    hes_mech_event kind;
    int constraint;          /* the constraint activated (index in the event's mech)
                                or released (index in the source mode's mech) */
    const hes_mech *mech;
    hes_mech_config_fn lift;     /* out[d] = q(z) in the event's mech */
    hes_mech_config_fn lift_dz;  /* out[d*k] = Dlift; NULL: central differences */
    int n_after;
    const int *after;        /* constraints enforced by the impact (event mech indices);
                                must include every constraint the target mode holds
                                (checked when there is no to_chart) */
    int n_separate;
    const int *separate;     /* constraints that must separate (event mech indices) */
    hes_mech_config_fn to_chart;    /* out[k_to] = z(q); NULL: identity */
    hes_mech_config_fn to_chart_dq; /* out[k_to*d] = Dto_chart; NULL: central differences */
    /* Optional: another impact law in place of the one above,
     * e.g. one outcome of a frictional impact's set (hes_impact_orbit
     * builds these): impact(q, q'-, p, q'+, ctx) in the event's mech.  The
     * checks still apply, with Da_J q'+ = -Gamma Da_J q'- to 1e-6 of the
     * velocities (the other law's termination tolerance). */
    int (*impact)(const double *q, const double *qd_minus, const double *p, double *qd_plus,
                  void *ctx);
    void *impact_ctx;
} hes_mech_transition;

/* The configuration q and velocity q' (d each) of transition tr's event
 * mechanical system at source state x (through its lift, or the source
 * chart). */
hes_status hes_mech_event_state(const hes_mech_transition *tr, const double *x,
                                const double *p, double *q, double *qd);

/* Generic callbacks; data is the hes_mech_mode (field) or hes_mech_transition
 * (guard, reset).  Failure codes are described by hes_mech_describe_error
 * (use it as the model's describe_error). */
int hes_mech_field(double t, const double *x, const double *p, double *out, void *data);
/* The Jacobian of hes_mech_field (out[2k * 2k], column-major), for
 * hes_mode.field_dx: from the structure of the equations, with one
 * Cholesky factorisation (lib/model/mech_dx.c); exact in M, dM/dq and the
 * chart's first and second derivatives, fourth-order differences (~1e-12
 * relative) of the force, the inputs, dM/dq and the chart's acceleration. */
int hes_mech_field_dx(double t, const double *x, const double *p, double *out, void *data);
int hes_mech_guard(double t, const double *x, const double *p, double *out, void *data);
int hes_mech_reset(double t, const double *x, const double *p, double *out, void *data);
const char *hes_mech_describe_error(int code, void *data);

/* ------------------------------------------------ robots from MJCF/URDF */
/*
 * A mechanical system loaded from a robot description, MJCF or URDF,
 * through MuJoCo (lib/model/robot.c): M(q), gravity, the
 * joints' springs and dampers, joint motors as the inputs (B u), and unilateral contacts at
 * named sites
 * against the ground plane z = 0 (a = the site's height, J_n its vertical
 * Jacobian row, J_t its x row: planar robots move in the x-z plane).
 * Coordinates are MuJoCo's qpos (slide and hinge joints only).  contacts:
 * the sites and their friction; NULL (n_contacts 0): every site of the
 * file, friction 1, at most 8.  HES_ESOLVER when hes was built without
 * MuJoCo; HES_EINVAL (msg) for a file MuJoCo cannot load, free or ball
 * joints, an unknown site, a contact given twice, actuators that do not
 * drive a joint.  The file is read as any input (hes_input_read: a FIFO or
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
typedef struct {
    const char *site;        /* a site of the file, or a body (URDF: a link) */
    double mu;               /* friction against the ground */
} hes_robot_contact;

hes_status hes_robot_load(const char *path, const hes_robot_contact *contacts, int n_contacts,
                          hes_robot **out, char *msg, size_t len);
void hes_robot_free(hes_robot *robot);
/* The mechanical system (valid while the robot lives).  Contact i gives
 * two constraints: 2 i, its normal (unilateral, the contact's friction
 * and tangent row: use these indices for hes_mech_contacts), and 2 i + 1,
 * its tangential position "NAME_tangential" (bilateral: no slip, for a
 * pinned foot and a landing foot that sticks). */
const hes_mech *hes_robot_mech(const hes_robot *robot);
/* The joint name of coordinate i, or NULL. */
const char *hes_robot_coordinate(const hes_robot *robot, int i);
/* The file's reference configuration (qpos0). */
hes_status hes_robot_reference(const hes_robot *robot, double *q);

/* A robot's dynamics at a state (q, v), for inverse dynamics (lib/model/
 * robot.c): the equation of motion
 *     M(q) a + h(q, v) = B tau + J_c^T f
 * with M (nv x nv, mj_fullM), h (nv: MuJoCo's qfrc_bias, Coriolis,
 * centrifugal and gravity forces, minus the passive forces of springs and
 * dampers), B (nv x nu: joint motors, gear * gain) and the contacts'
 * rows J (rows x nv, rows = nc (1 + tangents), column-major): the normals
 * (the sites' z rows) first, then the x rows, then (3-D robots) the y rows.
 * phi (nc): the sites' heights; Jdv (rows): the rows' drift dJ/dt v, by
 * central differences of J along v; mu (nc).  tangents is 1 for a planar
 * robot (every contact's y row vanishes at the reference configuration:
 * the robot moves in the x-z plane), else 2.  The arrays belong to the
 * robot and are overwritten by the next call.  Robots of any size load,
 * but only those of at most HES_MECH_MAX coordinates give a hes_mech that
 * hybrid models accept. */
typedef struct {
    int nv, nu, nc, tangents;
    const double *M, *h, *B, *J, *Jdv, *phi, *mu;
    const double *tau_max;   /* nu: the limits of the motors' controls u (B u is the
                                joint force): the smaller of |ctrlrange| and
                                |forcerange| / |gain|; 0 = none */
} hes_robot_dynamics;
hes_status hes_robot_dynamics_at(hes_robot *robot, const double *q, const double *v,
                                 hes_robot_dynamics *out, char *msg, size_t len);
/* Replace the file's motors by unit torques (or forces) on the named joints,
 * without limits: for files without actuators (a URDF's transmissions are
 * not read by MuJoCo).  HES_EINVAL (msg) for a name that is not a joint or
 * is given twice. */
hes_status hes_robot_set_motors(hes_robot *robot, const char *const *joints, int n, char *msg,
                                size_t len);
/* A mechanical mode of a planar robot standing on contact `contact`: the
 * contact's normal and no-slip constraints held, in the coordinates z =
 * q[2..] of a chart that slides the root (the robot's first two joints,
 * along x and z, on one unturned body or, as a URDF writes them, on a
 * body and its child) so that the contact is at the origin.  For
 * walkers built from robot files: add transitions (hes_mech_transition)
 * and a hes_model as for any mechanical model.  Valid while the robot
 * lives.  HES_EINVAL (msg) for a robot that is not planar or whose first
 * joints are not those slides. */
hes_status hes_robot_pinned_mode(const hes_robot *robot, int contact, hes_mech_mode *out,
                                 char *msg, size_t len);
/* Another robot of the same file and contacts (its own MuJoCo data: for
 * another thread, or to change its motors). */
hes_status hes_robot_copy(const hes_robot *robot, hes_robot **out, char *msg, size_t len);
/* Turn gravity about the y axis by `slope` (rad, |slope| < 1.5): g = |g|
 * (sin s, 0, -cos s), so that the ground z = 0 is a slope going down towards
 * +x (a robot model's "slope" parameter).  HES_EINVAL out of range. */
hes_status hes_robot_set_slope(hes_robot *robot, double slope);
/* The number of motors, and the joint motor a drives (NULL out of range). */
int hes_robot_motor_count(const hes_robot *robot);
const char *hes_robot_motor_joint(const hes_robot *robot, int a);
/* Set contact i's friction coefficient (i = -1: every contact's);
 * HES_EINVAL for a contact out of range or mu not finite and >= 0. */
hes_status hes_robot_set_friction(hes_robot *robot, int contact, double mu);
/* The number of contacts, and contact i's name (NULL out of range). */
int hes_robot_contact_count(const hes_robot *robot);
const char *hes_robot_contact_name(const hes_robot *robot, int i);
/* MuJoCo's model of the robot (an mjModel *; NULL without MuJoCo): for
 * programs that simulate the robot in MuJoCo themselves, e.g. the
 * closed-loop experiment in share/examples. */
const void *hes_robot_mujoco_model(const hes_robot *robot);

/* A hybrid model of a robot (lib/model/robot_model.c): modes that hold
 * some of hes_robot_mech's constraints, transitions between them, and an
 * orbit, as data rather than C.  The constraints are numbered as in
 * hes_robot_mech: contact i's normal 2 i and no-slip 2 i + 1, then the
 * joint limits, "JOINT_lower" and "JOINT_upper" for every limited joint
 * (a = q - lo >= 0, a = hi - q >= 0: plastic and frictionless). */
typedef struct {
    const char *name;
    int pinned;              /* contact held at the origin (normal and no-slip; a planar
                                robot whose first joints slide its root along x and z),
                                -1: none */
    int n_locked;
    const int *locked;       /* joint limits held: those joints stay at their limits */
} hes_robot_mode_spec;

typedef struct {
    const char *name;
    int from, to;            /* mode indices */
    hes_mech_event kind;
    int constraint;          /* activated (unilateral, not held by `from`) or released
                                (held by `from`: its force reaches zero) */
    int n_after;             /* activation: the constraints the plastic impact enforces;
                                0: those `to` holds and the activated one */
    const int *after;
    int n_separate;          /* that must separate; -1: `from`'s pinned normal unless the
                                impact holds it */
    const int *separate;
    /* NULL: the target's coordinates are the robot's at its free indices;
     * else a relabel, k_to rows of d + 1 (row-major): z_i = sum_j R_ij q_j
     * + R_i,d (legs swapping roles, spokes renumbered); needs `after` */
    const double *relabel;
} hes_robot_transition_spec;

/* A path constraint of trajectory optimisation in mode `mode`: sum_j c_j q_j
 * + c_d >= 0 over the robot's coordinates q (d + 1 coefficients, copied);
 * at_end: also at the phase's last node. */
typedef struct {
    const char *name;
    int mode;
    const double *c;
    int at_end;
} hes_robot_linear_path;

typedef struct {
    const char *name, *description;
    int n_modes;
    const hes_robot_mode_spec *modes;
    int n_transitions;
    const hes_robot_transition_spec *transitions;
    int slope;               /* nonzero: a parameter "slope" (rad, default slope_value)
                                turns gravity about y: ground z = 0 goes down towards +x */
    double slope_value;
    /* the orbit as in hes_model (guess, any_order, period_param and free
     * parameters ignored; n_free_states and n_residual 0: every state),
     * with its initial state; n_sequence 0 and guess NULL: no orbit */
    hes_orbit_spec orbit;
    int n_guess;
    const double *guess;
    double max_phase_time;   /* 0: 10 s */
    /* Optional (NULL): trajectory optimisation (hes trajopt), copied; with
     * n_path 0 the path constraints are generated: in every mode, each
     * contact normal and joint limit the mode does not hold stays >= 0
     * (checked at the phase's end too unless it is the guard of one of the
     * mode's transitions) */
    const hes_trajopt_spec *trajopt;
    /* with a generated trajopt: more path constraints, linear in the robot's
     * coordinates (e.g. a swing leg ahead of the stance leg) */
    int n_linear_paths;
    const hes_robot_linear_path *linear_paths;
} hes_robot_model_spec;

/* The model; it takes the robot (freed with the model, and on failure).
 * The model's parameters are "slope" (if asked) and one constant torque per
 * motor, named after its actuator (else "JOINT_torque").  HES_EINVAL (msg)
 * for a spec that does not fit the robot, naming the field.  Systems on
 * several threads may share the model: it keeps a copy of the robot per
 * online CPU (at most 8), and each callback computes on the first copy no
 * other thread holds. */
hes_status hes_robot_model_new(hes_robot *robot, const hes_robot_model_spec *spec,
                               hes_model **out, char *msg, size_t len);
void hes_robot_model_free(hes_model *model);
/* A robot model from its JSON description (lib/io/json_robot.c; the
 * format is in hes(1) and share/robots/knee_biped.json): the robot file
 * (relative to the description's folder), its contacts, and the modes,
 * transitions and orbit, every constraint, coordinate and state by name.
 * HES_EINVAL (msg naming the file and the key) for anything malformed,
 * unknown keys included; HES_ESOLVER without MuJoCo. */
hes_status hes_robot_model_load(const char *path, hes_model **out, char *msg, size_t len);
/* A robot model's robot (valid while the model lives), or NULL for any
 * other model. */
hes_robot *hes_robot_model_robot(const hes_model *model);
/* The motion of the robot in mode `mode` at state x with parameters p: q,
 * v and the acceleration a of the mode's vector field (d values each), and
 * what the mode holds: its pinned contact (-1: none) and locked
 * coordinates (their indices). */
typedef struct {
    int d;
    double q[HES_MECH_MAX], v[HES_MECH_MAX], a[HES_MECH_MAX];
    int pinned, n_locked, locked[HES_MECH_MAX];
} hes_robot_mode_motion;
hes_status hes_robot_model_motion(const hes_model *model, int mode, double t, const double *x,
                                  const double *p, hes_robot_mode_motion *out, char *msg,
                                  size_t len);

/* Quantities of a mechanical mode at state x = [z, z']: the configuration
 * q (d), velocity q' (d), the held constraints' forces lambda (n_active),
 * the kinetic energy.  Any output may be NULL. */
hes_status hes_mech_mode_state(const hes_mech_mode *mode, double t, const double *x,
                               const double *p, double *q, double *qd, double *lambda,
                               double *kinetic);

/* The impact of transition tr at source state x: pre/post velocities in the
 * event's coordinates (q, qd_minus, qd_plus: d each) and the impulses
 * (n_after).  Any output may be NULL. */
hes_status hes_mech_impact(const hes_mech_transition *tr, const double *x, const double *p,
                           double *q, double *qd_minus, double *qd_plus, double *impulse);

/* ---------------------------------------------------------------- problems */

/* The built-in problems (problems/): NULL-terminated lookup by name. */
const hes_model *hes_problem_find(const char *name);
int hes_problem_count(void);
const hes_model *hes_problem_get(int i);

/* =========== contact: event-selected systems (ESS) and their integrator */

/* ------------------------------------------------------------ ESS model */
/*
 * An event-selected system (Burden, Sastry, Koditschek and Revzen 2016;
 * the event-selected integrator of its paper, Sec. 2):
 * a state x of dimension n, m event functions h(x) and a vector field
 * f(x, s) that depends on the state also through the sign pattern s of h:
 *
 *   s_i = +1 when h_i(x) >= 0 (guard i crossed, its positive side)
 *   s_i = -1 when h_i(x) <  0
 *
 * A guard is crossed from negative to positive h_i; the paper's liveness
 * condition (its requirement 4) asks Dh_i f(x, s) > 0 on the band
 * -eps < h_i of each guard the state is about to cross, which the integrator
 * checks at every projection.  Model callbacks return 0, or nonzero to
 * report failure (HES_EMODEL).
 */
typedef int (*hes_ess_field_fn)(const double *x, const int *s, const double *p,
                                double *out, void *data);
typedef int (*hes_ess_event_fn)(const double *x, const double *p, double *out, void *data);
/* The guard reset rule: which guards become candidates again (pool[i] = 1)
 * when the pool of candidates is empty and an integration step has ended
 * at the band entry of a guard with h_i < 0.  h: the m event values there.
 * Default (NULL): the paper's rule, pool[i] = (h_i < 0). */
typedef void (*hes_ess_rearm_fn)(const double *x, const double *h, const int *s,
                                 int *pool, void *data);

/* Optional, for a cost linear in the number of contacts (below): the event
 * functions idx[0], ..., idx[k-1] only, out[q] = h_idx[q](x) (events), or
 * their rows of Dh, out (k x n, column-major: out[q + k c] = d h_idx[q] /
 * d x_c). */
typedef int (*hes_ess_event_some_fn)(const double *x, int k, const int *idx, const double *p,
                                     double *out, void *data);
/* Optional: the guards that may come within [h_lo, h_hi] in a box of
 * states (hes_ess_model.h_near). */
typedef int (*hes_ess_near_fn)(const double *lo, const double *hi, double h_lo, double h_hi,
                               int *idx, const double *p, void *data);
/* Optional: the sums through which the field depends on s (a contact
 * model's field is a sum over the contacts in stance), n_sums values:
 * sums_init computes them from the whole pattern s, sums_flip updates them
 * after s_i alone has changed sign (s holds the new sign, -s[i] the old),
 * and f_sums / f_dx_sums give f and df/dx from the state and the sums. */
typedef int (*hes_ess_sums_init_fn)(const int *s, const double *p, double *sums, void *data);
typedef int (*hes_ess_sums_flip_fn)(int i, const int *s, const double *p, double *sums,
                                    void *data);
typedef int (*hes_ess_sums_field_fn)(const double *x, const double *sums, const double *p,
                                     double *out, void *data);

/* Optional: energy bookkeeping.  out[0] = E(x) with the pattern s, out[1]
 * = P = dE/dt along f(x, s) (the power the model's sources and losses
 * exchange with it); E continuous where a guard is crossed.  The _sums
 * form gives the same from the sums (hes_ess_model.n_sums). */
typedef int (*hes_ess_energy_fn)(const double *x, const int *s, const double *p, double *out,
                                 void *data);
typedef int (*hes_ess_energy_sums_fn)(const double *x, const double *sums, const double *p,
                                      double *out, void *data);

/* The layout version of hes_ess_model and what it points to, for ESS
 * plugins (hes_plugin_load_ess); 1: with the orbit guess fields; 2: with
 * the optional per-guard and sums callbacks (an ABI-1 plugin is loaded
 * with them absent). */
#define HES_ESS_MODEL_ABI 2

typedef struct {
    const char *name;
    const char *description;      /* one line */
    int n;                        /* state dimension, 1 to 10000 */
    int m;                        /* number of event functions, 1 to 10000 */
    const char *const *state_names; /* n names, may be NULL */
    const char *const *event_names; /* m names, may be NULL (messages then say "h[i]") */
    int n_params;
    const hes_param *params;      /* as a hes_model's (flags other than
                                     HES_PARAM_POSITIVE are ignored) */
    hes_ess_field_fn f;           /* out[n] = f(x, s) */
    hes_ess_field_fn f_dx;        /* out[n * n] = df/dx at fixed s; NULL: central differences */
    hes_ess_event_fn h;           /* out[m] = h(x) */
    hes_ess_event_fn Dh;          /* out[m * n] = dh/dx (m x n, column-major) */
    hes_ess_rearm_fn rearm;       /* NULL: the paper's rule (above) */
    void *data;
    /* Optional: a periodic orbit's guess for hes_ess_orbit_find (`hes
     * analyze`): a state on the section x[orbit_section] = orbit_x0[orbit_section]
     * and the period.  orbit_x0 NULL: none. */
    const double *orbit_x0;       /* n values */
    double orbit_period;
    int orbit_section;
    /* Optional (ABI 2), for a cost linear in the number of contacts.
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
     * theirs against them, the integrator does not at run time. */
    hes_ess_event_some_fn h_some;
    hes_ess_event_some_fn Dh_some;
    hes_ess_near_fn h_near;
    int n_sums;                   /* 0 to 10000 */
    hes_ess_sums_init_fn sums_init;
    hes_ess_sums_flip_fn sums_flip;
    hes_ess_sums_field_fn f_sums;
    hes_ess_sums_field_fn f_dx_sums;
    /* Energy bookkeeping (with DOPRI5): energy, and energy_sums with the
     * sums (optional).  The integrator keeps W = the integral of P over
     * the run (Simpson's rule on every integration step, the trapezoid on
     * every projection) and checks E(x) - E(x0) = W, to its own error
     * estimate, after every step and at the end; a difference beyond it is
     * HES_ESOLVER (lib/ess/ess_energy.c). */
    hes_ess_energy_fn energy;
    hes_ess_energy_sums_fn energy_sums;
} hes_ess_model;

/* Structural checks before any callback runs: n and m from 1 to 10000,
 * callbacks f, h and Dh present, names present where an array is given and
 * parameter names unique, parameter defaults finite and within their ranges.
 * HES_EINVAL with the reason in msg (may be NULL), naming the field. */
hes_status hes_ess_validate(const hes_ess_model *model, char *msg, size_t len);

/* ----------------------------------------------------------- ESS integrator */
/*
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
/* The integration step's method (hes_ess_options.method). */
typedef enum {
    HES_ESS_CVODES = 0, /* CVODES, Adams (the default) */
    HES_ESS_DOPRI5 = 1  /* explicit Dormand-Prince 5(4) with error control; band entries
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
/* "cvodes" and "dopri5" (`--ess-method`); NULL / HES_EINVAL if unknown. */
const char *hes_ess_method_name(hes_ess_method method);
hes_status hes_ess_method_from_name(const char *name, hes_ess_method *method);

typedef struct {
    double eps;         /* band width (> 0): the accuracy knob, error O(eps^2) */
    double rtol, atol;  /* integration tolerances (> 0) */
    int jacobian;       /* nonzero: compute J */
    int record;         /* nonzero: keep (t, x) at each step boundary */
    int n_out;          /* optional output times (increasing, within [t0, t_end]) */
    const double *t_out;
    double live_tol;    /* liveness threshold (>= 0) */
    long max_loops;     /* budget of integration plus projection steps (> 0) */
    double max_wall_time; /* seconds (> 0) */
    int near_miss;      /* nonzero (default): a candidate in its band that is not
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
    hes_ess_method method; /* HES_ESS_CVODES (default) or HES_ESS_DOPRI5 */
} hes_ess_options;

/* eps 1e-3, rtol 1e-8, atol 1e-10, no Jacobian, no record, no output
 * times, live_tol 1e-9, max_loops 10^7, max_wall_time 60, near_miss 1,
 * method HES_ESS_CVODES. */
void hes_ess_options_default(hes_ess_options *opts);

typedef struct {
    int n, m;
    double t_end;
    double *x_end;      /* n */
    int *s_end;         /* m: the sign pattern at t_end */
    double *jac;        /* n x n, d x(t_end) / d x0 (jacobian set), else NULL */
    int n_samples;      /* with record: step boundaries, in loop order */
    double *t;          /* n_samples */
    double *x;          /* n x n_samples (column k: the state at t[k]) */
    double *x_out;      /* n x n_out: the state at the output times (NULL without) */
    long n_integrations, n_projections, n_sign_changes, n_rearms;
    long n_refused;     /* projections refused by the second-order test (those
                           guards were watched: crossed exactly, or missed) */
    double eps_error;   /* hes_ess_run_error's estimate of x_end's error from the
                           band, and its observed order; NaN until estimated */
    double eps_order;
} hes_ess_result;

typedef struct hes_ess hes_ess;

/* An integrator of a model (validated: HES_EINVAL with the reason in msg)
 * with the model's default parameter values; its CVODES integrator and
 * workspaces are made here.  One object serves one thread at a time. */
hes_status hes_ess_new(const hes_ess_model *model, hes_ess **out, char *msg, size_t len);
void hes_ess_destroy(hes_ess *ess);
const hes_ess_model *hes_ess_get_model(const hes_ess *ess);
/* The message of the last failure ("" after success). */
const char *hes_ess_errmsg(const hes_ess *ess);
/* Sets a parameter by name: HES_ENOTFOUND, or HES_EINVAL outside its range. */
hes_status hes_ess_set_param(hes_ess *ess, const char *name, double value);
const double *hes_ess_params(const hes_ess *ess);

/* Integrates from (t0, x0) to t_end > t0 (opts NULL: the defaults).  res is
 * filled (release with hes_ess_result_free) also on failure, up to where
 * the run stopped.  HES_EINVAL for bad arguments, HES_EGRAZING for a
 * liveness violation, HES_EMODEL for a failing callback, HES_ENONFINITE,
 * HES_ESOLVER (CVODES, budgets, a sign pattern found inconsistent with h),
 * HES_ENOMEM. */
hes_status hes_ess_run(hes_ess *ess, const hes_ess_options *opts, double t0,
                       const double *x0, double t_end, hes_ess_result *res);
void hes_ess_result_free(hes_ess_result *res);
/* The error of a run's end state from the band eps (lib/ess/ess_accuracy.c):
 * the run of res (from opts, t0, x0 to t_end) again at eps / 2 and eps / 4;
 * with d1 = |x(eps) - x(eps / 2)| and d2 = |x(eps / 2) - x(eps / 4)| (max
 * norms), res->eps_error = (4/3) d1 (Richardson for the method's order 2)
 * and res->eps_order = log2(d1 / d2) (NaN when d2 = 0).  An order far from 2
 * says the estimate is not to be trusted (an event near t_end, eps too
 * large).  Returns the status of the extra runs (the message in
 * hes_ess_errmsg). */
hes_status hes_ess_run_error(hes_ess *ess, const hes_ess_options *opts, double t0,
                             const double *x0, double t_end, hes_ess_result *res);

/* ---------------------------------------------- linear complementarity */
/*
 * The linear complementarity problem (LCP) of impacts with friction (issue
 * 13; lib/contact/lcp.c): find z with
 *     w = M z + q,  z >= 0,  w >= 0,  z_i w_i = 0,
 * M n x n column-major, by Lemke's method (Siconos numerics,
 * SICONOS_LCP_LEMKE, which configure detects).  The solution is checked
 * here, independently of the solver: w is recomputed as M z + q and the
 * residual, relative to the size of the data and of the solution,
 *     max_i max(-z_i / zs, -w_i / S, min(z_i / zs, w_i / S)) + eps max_i s_i / S,
 *     zs = |z|_inf,  S = |q|_inf,  s_i = sum_k |M_ik z_k| + |q_i|
 * (the second term is the rounding error of w = M z + q: a solution too
 * large for the arithmetic to resolve its w, as impulses that cancel each
 * other, fails however small w comes out),
 * must be at most tol (> 0; e.g. 1e-9).  Lemke's method is tried
 * first; where it ends on a ray (which for a degenerate problem need not
 * mean that none exists) Lemke's method on q perturbed by 1e-10, then
 * Siconos's enumeration for n <= 20; each candidate is polished by solving
 * the linear system of its active set again.  HES_ELCP when none passes
 * the check (none exists, as for an infeasible problem, or the solvers
 * miss it), with the reason in msg; HES_ESOLVER when hes was built without
 * Siconos numerics; HES_EINVAL for bad arguments.
 */
typedef struct {
    int pivots;           /* pivots (or iterations) of the solvers tried */
    double residual;      /* the complementarity residual above */
    int solver;           /* which solved it: 0 Lemke, 1 Lemke on the perturbed
                             problem, 2 enumeration (n <= 20), 3 enumeration
                             from a start (hes_lcp_solve_from) */
} hes_lcp_info;

/* The same, choosing among several solutions: with start > 0 and n <= 20
 * Siconos's enumeration of the complementary index sets begins at set
 * start mod 2^n and returns the first solution it meets, so that different
 * starts can return different solutions of an LCP that has several (then
 * the chain above).  start = 0 is hes_lcp_solve. */
hes_status hes_lcp_solve_from(int n, const double *M, const double *q, double tol,
                              unsigned long start, double *z, double *w, hes_lcp_info *info,
                              char *msg, size_t len);

hes_status hes_lcp_solve(int n, const double *M, const double *q, double tol, double *z,
                         double *w, hes_lcp_info *info, char *msg, size_t len);

/* ----------------------------------------------------------- impact laws */
/*
 * Impacts of a set of planar frictional contacts (lib/contact/
 * impact.c): at the impact configuration, the mass matrix M (n x n,
 * symmetric positive definite, column-major), the contacts' normal and
 * tangent Jacobians J_n, J_t (k x n, column-major: row i maps the
 * generalised velocity to contact i's normal and tangential velocity) and
 * their friction coefficients mu (k, >= 0).
 */
typedef struct {
    int n, k;
    const double *M;
    const double *Jn, *Jt;
    const double *mu;
} hes_contact_set;

/* The largest friction coefficient the impact laws take: their LCPs hold
 * the tangential impulse as the difference of two one-sided impulses of up
 * to mu times the normal one, resolved only to eps mu of it (2.2e-10 at
 * 1e6, below the LCPs' tolerance 1e-9).  Larger mu is refused
 * (HES_EINVAL); a contact that must not slip needs no more. */
#define HES_IMPACT_MU_MAX 1e6
/* The simultaneous law needs the contacts' friction cone pointed (Halm &
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

typedef struct {
    int lcps;               /* complementarity problems solved */
    int pivots;             /* Lemke pivots, over all of them */
    double residual;        /* the largest complementarity residual (hes_lcp_solve) */
    double energy_before, energy_after; /* v^T M v / 2 before and after */
    int solver;             /* the last LCP's solver (hes_lcp_info.solver) */
} hes_impact_info;

/* Anitescu and Potra's simultaneous inelastic impact (the paper's eq. 31,
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
                                     hes_impact_info *info, char *msg, size_t len);
/* Sequential impacts: the contacts order[0..n_order-1] in turn, each that
 * approaches (J_n,i v < 0) resolved alone by Anitescu-Potra's law, in passes
 * over the order until none approaches; pn, pt accumulate each contact's
 * impulses.  HES_EMAXITER after max_passes passes with a contact still
 * approaching; otherwise as hes_impact_anitescu_potra. */
hes_status hes_impact_sequential(const hes_contact_set *contacts, const int *order, int n_order,
                                 int max_passes, const double *v_minus, double *v_plus,
                                 double *pn, double *pt, hes_impact_info *info, char *msg,
                                 size_t len);

/* ------------------------------------------------- rigid time stepping */
/*
 * One step of a velocity-level time-stepping simulation with rigid
 * contacts (Anitescu and Potra 1997; Stewart and Trinkle 1996; the
 * simulator of Zapolsky and Drumwright's experiments; lib/contact/
 * timestep.c): over the step dt, with the generalised force `force`
 * (B tau - h: motors, gravity, Coriolis) held and contact impulses p,
 *
 *   M (v+ - v) = dt force + J_n^T p_n + J_t^T p_t,
 *   0 <= p_n  complementary to  J_n v+ + gap / dt >= 0,
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
    int n, k;                   /* generalised velocities, contacts (k >= 0) */
    int tangents;               /* 1 (planar) or 2 (spatial) per contact */
    const double *M;            /* n x n, symmetric positive definite */
    const double *Jn;           /* k x n: contacts' normal velocity rows */
    const double *Jt;           /* tangents k x n: row d k + i, contact i's d-th
                                   tangent (orthogonal to its normal) */
    const double *mu;           /* k: friction, 0 to HES_IMPACT_MU_MAX */
    const double *gap;          /* k: signed distance (< 0 penetrating) */
    const double *v;            /* n: velocity at the step's start */
    const double *force;        /* n: generalised force over the step */
    double dt;                  /* > 0 */
} hes_timestep_problem;

/* v_plus (n), and p (may be NULL; (1 + tangents) k: normal impulses, then
 * the net tangential impulse along each tangent, row d k + i).  HES_EINVAL
 * for bad input (naming it), HES_ELCP / HES_ESOLVER as hes_lcp_solve; the
 * outcome is checked: J_n v+ + gap / dt >= -1e-8 max(1, |J v|) for every
 * contact. */
hes_status hes_timestep_ap(const hes_timestep_problem *pb, double *v_plus, double *p,
                           hes_impact_info *info, char *msg, size_t len);

/* The paper's impulse-stepping model of Routh's method for many contacts
 * (Sec. 5.1, eqs. 72-75, Algorithm 1; lib/contact/impact_routh.c): steps
 * s = 1, 2, ... each solve one LCP in which contact i's normal impulse
 * increment is capped by h p_si (p_si in [0, 1], caps[s k + i]), friction
 * acts at the incremented velocity, and each contact either takes its full
 * cap or stops approaching; the impact ends when no contact approaches
 * (J_n v >= -tol).  Any sequence of caps gives a physically valid outcome
 * (Theorem 7: no step gains kinetic energy); the set of outcomes over all
 * sequences is the post-impact set. */
typedef struct {
    double h;               /* impulse step size (> 0) */
    int steps;              /* the step limit N (>= 1); caps holds steps * k values */
    double tol;             /* termination: J_n v >= -tol max(1, |J_n v-|, |J_t v-|);
                               0: 1e-8 (the paper's code) */
    /* Which solution of a step's LCP when it has several (the paper's
     * Assumption 6 fails, as for its compass gait): 0, Lemke's method's
     * (as the paper's code takes PATH's); s > 0, at each step at random
     * (a generator seeded with s) either Lemke's or, for 5k <= 20,
     * enumeration's from a random start (hes_lcp_solve_from). */
    unsigned long select;
} hes_routh_options;

/* v_plus (n) and the accumulated impulses pn, pt (k; may be NULL); path
 * (may be NULL): n (steps + 1) values, the velocity before each step and
 * after the last (info->lcps steps are taken).  HES_EMAXITER when a contact
 * still approaches after o->steps steps (v_plus then holds the last
 * velocity); otherwise as hes_impact_anitescu_potra. */
hes_status hes_impact_routh(const hes_contact_set *contacts, const double *v_minus,
                            const hes_routh_options *o, const double *caps, double *v_plus,
                            double *pn, double *pt, double *path, hes_impact_info *info,
                            char *msg, size_t len);

/* The contact mode after an impact, from the contact velocities u_n = J_n v,
 * u_t = J_t v: lift-off when u_n > tol, else sliding when |u_t| > tol, else
 * sticking. */
typedef enum { HES_CONTACT_STICK = 0, HES_CONTACT_SLIDE = 1, HES_CONTACT_LIFT = 2 } hes_contact_mode;
const char *hes_contact_mode_name(hes_contact_mode mode);
/* modes (k) of velocity v; tol: 0 means 1e-6 max(1, |J v|_inf) */
void hes_contact_modes(const hes_contact_set *contacts, const double *v, double tol,
                       hes_contact_mode *modes);

/* ------------------------------------------------------ post-impact sets */
/*
 * The outcome set of an impact (the paper's Algorithm 2, Sec. 5.3;
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
    int samples;            /* >= 1 */
    hes_routh_options routh; /* routh.select != 0: sample i selects with
                                 routh.select + i (a different stream each) */
    unsigned long seed;     /* 0: the sequence itself */
    int threads;
    int keep_caps;          /* 1: keep every sample's caps in set->caps */
    double max_wall_time;   /* seconds for the whole set (0: 600; HUGE_VAL: none): past
                               it no further sample starts and the call fails with
                               HES_ESOLVER saying how many were done */
} hes_impact_set_options;

typedef struct {
    int n, k, samples;
    double *v;              /* samples x n post-impact velocities (row i at v + i n) */
    double *u;              /* samples x 2k contact velocities: J_n v (k), then J_t v (k) */
    hes_contact_mode *modes; /* samples x k */
    int *lcps;              /* LCPs per sample */
    int *finished;          /* 1: terminated within N steps; 0: HES_EMAXITER */
    double *dissipated;     /* kinetic energy lost, per sample (>= 0 by Theorem 7) */
    double *residual;       /* the largest LCP complementarity residual, per sample */
    int n_finished;
    double mean_lcps;       /* over all samples */
    double max_residual;
    double max_energy_gain; /* max over samples of (E+ - E-) / E- (<= ~1e-15) */
    double seconds;         /* wall time of the sampling */
    long pivots;            /* Lemke pivots over all samples */
    const char *sequence;   /* "sobol" or "reverse-halton" */
    int dim;                /* caps per sample, k N */
    double *caps;           /* with keep_caps: samples x dim, the caps of each sample */
    double u_scale;         /* max(1, |J_n v-|, |J_t v-|): the velocities' scale */
} hes_impact_set;

/* HES_ESOLVER without GSL or Siconos numerics (the message names the
 * Debian package); the first failing sample's status otherwise (its
 * message in msg), except HES_EMAXITER, which only flags the sample. */
hes_status hes_impact_set_sample(const hes_contact_set *contacts, const double *v_minus,
                                 const hes_impact_set_options *o, hes_impact_set *set,
                                 char *msg, size_t len);
void hes_impact_set_free(hes_impact_set *set);

/* The convex hull of the finished samples projected on contact-velocity
 * coordinates a and b (0..2k-1: normals, then tangents): its vertices'
 * sample indices, counter-clockwise, in idx (room for set->samples);
 * returns their number (0 if no sample finished). */
int hes_impact_set_hull(const hes_impact_set *set, int a, int b, int *idx);
/* Where an outcome with contact velocities u (2k) lies relative to the set:
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

/* For each contact-velocity coordinate d (0..2k-1), the finished samples
 * with the smallest and largest value (argmin[d], argmax[d]; -1 if none
 * finished): the set's extreme outcomes.  counts (3k): how many finished
 * samples leave contact i sticking, sliding, lifting (counts[3 i + mode]).
 * Either output may be NULL. */
void hes_impact_set_extremes(const hes_impact_set *set, int *argmin, int *argmax, int *counts);

/* One outcome of a single-valued law, and where it lies relative to a set. */
typedef enum { HES_LAW_ANITESCU_POTRA = 0, HES_LAW_SEQUENTIAL = 1 } hes_impact_law;
typedef struct {
    hes_impact_law law;
    int order[HES_MECH_MAX];        /* the sequential order (k entries) */
    double v[HES_MECH_MAX];         /* post-impact velocity */
    double u[2 * HES_MECH_MAX];     /* its contact velocities */
    hes_contact_mode modes[HES_MECH_MAX];
    int lcps;
    double energy_before, energy_after;
    /* relative to the set (hes_impact_set_locate); -1 / 0 without one */
    double relative;
    int nearest, inside_normals;
    hes_status status;              /* the law's (HES_EMAXITER: a sequence that
                                       does not end; then only v is set) */
} hes_impact_outcome;

/* The outcome of `law` (for HES_LAW_SEQUENTIAL: out->order set by the
 * caller, k contacts, passes up to 100) located in set (may be NULL).
 * Statuses as the laws'. */
hes_status hes_impact_outcome_compute(const hes_contact_set *contacts, const double *v_minus,
                                      const hes_impact_set *set, hes_impact_outcome *out,
                                      char *msg, size_t len);

/* A step size h for an impact without one: half the largest normal impulse
 * of the Anitescu-Potra outcome (a sample then takes a few steps; a larger
 * h reaches the set's edges with fewer samples), 1 if that impulse is 0. */
hes_status hes_impact_default_step(const hes_contact_set *contacts, const double *v_minus,
                                   double *h, char *msg, size_t len);

/* Contact velocities (2k) of a velocity v: J_n v, then J_t v. */
void hes_contact_velocities(const hes_contact_set *contacts, const double *v, double *u);

/* ----------------------------------------- inverse dynamics with contact */
/*
 * Joint torques and contact forces together, for a desired motion
 * (Zapolsky & Drumwright, "Inverse dynamics with rigid contact and
 * friction"; lib/invdyn/invdyn.c).  The paper's discretisation
 * over a control period dt, M (v+ - v) = dt (B tau + J^T f - h), is
 * written here per unit time, a = (v+ - v) / dt: forces, not impulses,
 * so every formulation's forces are comparable across dt:
 *     M a + h = B tau + J^T f,        B^T a = B^T a_des  (eq. 38-39),
 * the contacts' accelerations J a + b, with b the problem's offsets: the
 * paper's velocity-level constraint N v+ >= -phi / dt (eq. 36) is
 * N a + (N v + phi / dt) / dt >= 0, and the rows' drift J' v may be added
 * (hes_invdyn_offsets), which the paper drops (it holds N constant over
 * the period).  With G = B^T M^-1 B and the projector
 *     W = M^-1 - M^-1 B G^-1 B^T M^-1        (the unactuated compliance),
 * a = a0 + W J^T f, a0 = W (-h) + M^-1 B G^-1 B^T a_des, and
 * tau = G^-1 (B^T a_des - B^T M^-1 (J^T f - h)); the contact problems
 * are in f alone:
 *  NONE       (a) f = 0: the baseline.
 *  NO_SLIP    (b) Sec. 4: tangential rows are equalities (S a + b = 0),
 *             chosen by Algorithm 1 so that [B S_sel^T T_sel^T] keeps
 *             full rank (the rest are implied); the normals an LCP with
 *             the symmetric PSD matrix N W' N^T (eq. 44-45), solved by the
 *             paper's modified principal pivoting (Algorithm 2) warm-
 *             started at the previous active set (Sec. 4.6, options.warm),
 *             with Lemke (hes_lcp_solve) as the fallback.
 *  COULOMB    (c) Sec. 5: the linearised cone (a pyramid of 2 tangents
 *             per direction), the copositive LCP of eq. 64 in
 *             (f_N, f_F, lambda), by Lemke.
 *  CONVEX     (d) Sec. 6: Stage I, the complementarity-free model:
 *             minimise the kinetic energy 1/2 v+^T M v+ (v+ = v + dt a)
 *             over f_N >= 0, the pyramid f_F >= 0, mu f_N >= 1^T f_F and
 *             N a + b >= 0 (eq. 69-74); Stage II (options.stage2) moves f
 *             in the null space of Stage I's Hessian, keeping its
 *             objective (eq. 104), to minimise |tau|^2 (eq. 102-111).
 *             Both QPs are solved as the LCP of their KKT conditions
 *             (PSD) by Lemke.
 *  CONVEX_NO_SLIP (e) the same with infinite friction (f_S, f_T free).
 * HES_EINFEASIBLE (and the result filled, with the reason in msg) when the
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
 * (msg) for bad arguments or a B without full column rank.
 */
typedef enum {
    HES_INVDYN_NONE = 0,
    HES_INVDYN_NO_SLIP,
    HES_INVDYN_COULOMB,
    HES_INVDYN_CONVEX,
    HES_INVDYN_CONVEX_NO_SLIP
} hes_invdyn_method;
#define HES_INVDYN_N_METHODS 5
/* "none", "no-slip", "coulomb", "convex", "convex-no-slip" */
const char *hes_invdyn_method_name(hes_invdyn_method m);
hes_status hes_invdyn_method_from_name(const char *name, hes_invdyn_method *m);

/* The largest friction coefficient the pyramid formulations (Coulomb,
 * convex) take: their edges n +- mu t resolve the normal force only to
 * about eps mu of the tangential one, and on the 3-D quadruped the convex
 * least squares fell back to its LCPs at 8 of 50 nodes at 1e5, 44 at 1e6,
 * where the LCPs failed at 2 (42 at 1e8).  For friction without limit use
 * no-slip or convex-no-slip. */
#define HES_INVDYN_MU_MAX 1e5

typedef struct {
    int nv, nu, nc, tangents;   /* tangents per contact: 1 (planar) or 2 */
    const double *M;            /* nv x nv, symmetric positive definite */
    const double *h;            /* nv: M a + h = B tau + J^T f */
    const double *B;            /* nv x nu, full column rank */
    const double *J;            /* nc (1 + tangents) x nv: normals, then first
                                   tangents, then second tangents */
    const double *b;            /* the rows' offsets: contact acceleration J a + b */
    const double *mu;           /* nc friction coefficients (Coulomb and convex: at
                                   most HES_INVDYN_MU_MAX; more is refused) */
    const double *v;            /* nv: the velocity (the convex objective) */
    double dt;                  /* the control period (> 0) */
    const double *a_des;        /* nv: the desired acceleration (only B^T a_des
                                   is imposed; the rest is compared) */
    const double *tau_max;      /* nu limits (0 = none), or NULL */
} hes_invdyn_problem;

typedef struct {
    hes_invdyn_method method;
    double tol;                 /* the LCPs' tolerance (default 1e-9 when 0) */
    double tol_slip;            /* sliding above this contact acceleration, relative
                                   to max(1, |b|, |J a_des|) (default 1e-6 when 0;
                                   sampled trajectories need more: their finite
                                   differences are consistent only to O(h^2)) */
    int stage2;                 /* convex: Stage II (1) or Stage I only (0) */
    int cold;                   /* no-slip: 1 ignores the warm start and starts as the
                                   paper's Algorithm 2 does, from the most violated
                                   contact alone; 0 starts from the previous solve's
                                   active set, else from every contact that would
                                   penetrate without force (the load of an
                                   indeterminate stance spread over its feet) */
    int min_friction;           /* no-slip: also the smallest friction coefficient
                                   that holds the motion (res->mu_min), and the
                                   forces become a distribution at that friction
                                   (of those that produce the same motion; the
                                   torques follow), which the cone check uses */
    double tol_eom;             /* the whole equation of motion with the desired
                                   acceleration, unactuated rows included, must
                                   hold to this (res->eom; default 1e-6 when 0;
                                   sampled trajectories need more); negative: not
                                   checked, only B^T a_des is asked (the paper's
                                   setting, where the base's acceleration is the
                                   model's prediction) */
    int qp_lcp;                 /* convex: 1 solves Stage I and II as the LCPs of their
                                   KKT conditions in the pyramid's face variables
                                   (Lemke, regularised by 1e-8 of the Hessian's
                                   scale; the reference), 0 (default) as least
                                   squares with bounds in its edge forces, warm-
                                   started (the LCPs only if that fails) */
} hes_invdyn_options;

/* A workspace and its results, for problems of these sizes. */
typedef struct hes_invdyn hes_invdyn;
hes_invdyn *hes_invdyn_create(int nv, int nu, int nc, int tangents);
void hes_invdyn_destroy(hes_invdyn *id);

typedef struct {
    const double *tau;          /* nu */
    const double *a;            /* nv: the predicted acceleration */
    const double *f;            /* nc (1 + tangents): net normal, then tangential forces */
    const double *w;            /* nc (1 + tangents): contact accelerations J a + b */
    const double *ratio;        /* nc: (|f_s| + |f_t|) / f_n, the friction pyramid's
                                   ratio (0 where there is no force; forces below
                                   1e-8 of the largest are none): the one friction
                                   model of every check and of mu_min (for a
                                   planar robot the exact cone) */
    const int *active;          /* nc: 1 where f_n > 0 */
    double mu_needed;           /* the largest ratio over the contacts */
    double tracking;            /* |B^T (a - a_des)|_inf: 0 up to rounding */
    double unactuated;          /* |a - a_des|_inf: how far the prediction is from
                                   the whole desired acceleration */
    double eom;                 /* the equation of motion with the desired a,
                                   |M a_des + h - B tau - J^T f|_inf over the
                                   largest row's sum of its terms' magnitudes:
                                   above options.tol_eom the motion is
                                   infeasible (options.tol_eom; HES_EINFEASIBLE;
                                   not checked for the baseline NONE) */
    int lcps, pivots;           /* complementarity problems solved, their pivots
                                   (convex: the least squares' active-set changes) */
    int warm_used;              /* no-slip: the warm start's active set held */
    int tangential_rows;        /* no-slip: the tangential equalities kept (Alg. 1) */
    int null_dim;               /* convex: the dimension Stage II searched */
    double slip;                /* the largest tangential acceleration of a contact
                                   that stays (above options.tol_slip; else 0) */
    double mu_min;              /* options.min_friction: the smallest mu for which
                                   some distribution of the forces that produce the
                                   same motion lies in every stance contact's
                                   friction pyramid (|f_s| + |f_t| <= mu f_n; for a
                                   planar robot the exact cone); -1 if not asked */
} hes_invdyn_result;

/* Solve; the result points into id (valid until the next solve).  The
 * no-slip warm start is the active set of id's previous solve with the
 * same contacts (hes_invdyn_reset forgets it). */
hes_status hes_invdyn_solve(hes_invdyn *id, const hes_invdyn_problem *pb,
                            const hes_invdyn_options *opts, hes_invdyn_result *res,
                            char *msg, size_t len);
void hes_invdyn_reset(hes_invdyn *id);

/* A problem from a robot's dynamics (hes_robot_dynamics_at at q, v) for
 * the contacts with active[i] (NULL: all; nc counts them), at velocity v
 * with desired acceleration a_des over the period dt: the active rows
 * into J, their offsets (hes_invdyn_offsets; drift: add J' v) into b and
 * their friction into mu, buffers of the caller sized for all of the
 * robot's contacts (rows x nv, rows, nc).  pb's pointers then point into
 * d, v, a_des and these buffers. */
void hes_invdyn_problem_robot(const hes_robot_dynamics *d, const int *active, const double *v,
                              const double *a_des, double dt, int drift, double *J, double *b,
                              double *mu, hes_invdyn_problem *pb);

/* Inverse dynamics along a robot's trajectory (lib/invdyn/invdyn_run.c):
 * at each of `nodes` samples (times t, increasing; configurations q, nodes
 * x nv, node after node) the robot's dynamics, its stance contacts (those
 * with stance[node * nc + c], or with NULL those whose height is at most
 * stance_tol), and the problem of hes_invdyn_problem_robot with the
 * desired acceleration.  Velocities and accelerations (v, a: NULL) are the
 * derivatives of the quadratic through each node and its neighbours
 * (hes_sampled_derivatives).  One workspace per stance set keeps the
 * no-slip warm start from node to node.  A node that fails keeps its
 * status and message; the run goes on. */
typedef struct {
    hes_invdyn_options solve;    /* method, tolerances, stage2, cold, min_friction */
    double dt;                   /* control period (default 1e-3 when 0) */
    int no_drift;                /* 1: drop J' v, as the paper */
    double stance_tol;           /* stance by height (default 1e-4 when 0) */
} hes_invdyn_run_options;

typedef struct {
    int nodes, nv, nu, nc, tangents;
    double *t;                   /* nodes */
    hes_status *status;          /* nodes */
    char (*message)[160];        /* nodes: why a node failed ("" if it did not) */
    int *stance;                 /* nodes x nc */
    double *tau;                 /* nodes x nu */
    double *f;                   /* nodes x nc (1 + tangents): per contact (all of
                                    the robot's, 0 off stance) normals, then
                                    tangents as in hes_invdyn_result.f */
    double *ratio;               /* nodes x nc */
    double *mu_min;              /* nodes (-1 unless solve.min_friction) */
    double *slip;                /* nodes */
    double mu_required;          /* the largest mu_min (or ratio) over the nodes
                                    whose stance contacts do not slide */
    int worst;                   /* its node */
    int failed;                  /* nodes whose status is not HES_OK */
} hes_invdyn_run;

hes_status hes_invdyn_trajectory(hes_robot *robot, int nodes, const double *t, const double *q,
                                 const double *v, const double *a, const int *stance,
                                 const hes_invdyn_run_options *opts, hes_invdyn_run *out,
                                 char *msg, size_t len);
void hes_invdyn_run_free(hes_invdyn_run *run);

/* Derivatives of sampled data (lib/base/sampled.c): y (n x dim, sample
 * after sample) at increasing times t; dy, ddy (either may be NULL) are
 * those of the quadratic through each sample and its two neighbours (the
 * first three, the last three at the ends): inside, the first
 * derivatives are second-order accurate, the second ones too for equal
 * spacing (first-order otherwise); both are first-order at the ends.
 * HES_EINVAL for n < 3 or times that do not increase. */
hes_status hes_sampled_derivatives(int n, int dim, const double *t, const double *y,
                                   double *dy, double *ddy);

/* The offsets b (rows) of contacts that are to stay in contact over dt:
 * b = (J v + phi_rows / dt) / dt (+ Jdv with drift = 1), phi_rows being
 * phi for the normals and 0 for the tangents: the paper's constraints
 * N v+ >= -phi / dt and S v+ = T v+ = 0 (eq. 36, 40-41) per unit time. */
void hes_invdyn_offsets(int nv, int nc, int tangents, const double *J, const double *v,
                        const double *phi, const double *Jdv, double dt, int drift,
                        double *b);

/* ---------------------------------------------- built-in impact problems */
/*
 * A simultaneous impact to resolve: a mechanical system, its active
 * contacts (constraint indices; each with mu and J_t), the pre-impact
 * configuration and velocity, and the paper's parameters for its outcome
 * set (Appendix A, Tables 4-8, and the authors' Results.m).  Built-ins:
 * rocking-block, compass-gait-impact, box-wall, disk-stack.
 */
typedef struct {
    const char *name;
    const char *description;
    const hes_mech *mech;
    int k;
    const int *contacts;
    /* q, v (mech->d each) just before the impact */
    int (*pre_impact)(double *q, double *v, void *data);
    double h;               /* the paper's step size */
    int steps;              /* the paper's trajectory length N */
    int samples;            /* the default number of samples */
} hes_impact_problem;

int hes_impact_problem_count(void);
const hes_impact_problem *hes_impact_problem_get(int i);
const hes_impact_problem *hes_impact_problem_find(const char *name);

/* The contact set of a mechanical system at configuration q: M(q) (d x d),
 * J_n (k x d, from the constraints' Da, or fourth-order differences of a),
 * J_t (k x d, the constraints' Jt rows; zero for frictionless ones) and mu
 * (k), all column-major, for the constraints idx[0..k-1].  HES_EINVAL
 * (reason in msg) for a bad index, a frictional constraint without Jt, a
 * failing callback or d or k above HES_MECH_MAX. */
hes_status hes_mech_contacts(const hes_mech *mech, const double *q, const double *p, int k,
                             const int *idx, double *M, double *Jn, double *Jt, double *mu,
                             char *msg, size_t len);

/* An impact problem set up: its pre-impact state and its contact set,
 * whose pointers point into this struct (use it in place; do not copy). */
typedef struct {
    int d, k;
    double q[HES_MECH_MAX], v[HES_MECH_MAX];
    double M[HES_MECH_MAX * HES_MECH_MAX], Jn[HES_MECH_MAX * HES_MECH_MAX],
        Jt[HES_MECH_MAX * HES_MECH_MAX], mu[HES_MECH_MAX];
    hes_contact_set contacts;
} hes_impact_setup;
hes_status hes_impact_problem_setup(const hes_impact_problem *pb, hes_impact_setup *out,
                                    char *msg, size_t len);
/* The same for any mechanical system, its contacts (constraint indices)
 * and a pre-impact state (q, v: d each), e.g. a robot's
 * (hes_robot_mech). */
hes_status hes_impact_setup_state(const hes_mech *mech, int k, const int *contacts,
                                  const double *q, const double *v, hes_impact_setup *out,
                                  char *msg, size_t len);

/* The document of `hes impact --json` (lib/io/json_impact.c): problem,
 * contacts (name, mu, pre-impact u), options, summary (samples, finished,
 * mean_lcps, max_residual, max_energy_gain, seconds, seconds_per_sample,
 * seconds_per_lcp, sequence), mode counts, the extreme outcomes, the
 * planar hulls of the first two contacts' normal and tangential
 * velocities, the outcomes of other laws, and with samples != 0 every
 * sample.  Caller
 * frees; NULL on allocation failure. */
char *hes_impact_json(const hes_impact_problem *pb, const hes_impact_setup *setup,
                      const hes_impact_set_options *o, const hes_impact_set *set,
                      const hes_impact_outcome *outcomes, int n_outcomes, int samples);

/* ------------------------------------------------- choosing the integrator */

/* How a trajectory is integrated (`hes simulate --integrator NAME`): the
 * event-driven hybrid pipeline of lib/hybrid ("event": modes, guards,
 * resets, saltation) or the ESS integrator above ("ess").  A problem is
 * one or the other: built-in hes_model problems take "event", built-in
 * ESS problems (hes_ess_problem_find) take "ess". */
typedef enum { HES_SIM_EVENT = 0, HES_SIM_ESS = 1 } hes_sim_method;
const char *hes_sim_method_name(hes_sim_method method);  /* NULL if unknown */
/* HES_EINVAL for an unknown name (or a NULL argument). */
hes_status hes_sim_method_from_name(const char *name, hes_sim_method *method);

/* ------------------------------------------------------------ ESS problems */

/* The built-in ESS models (problems/): lookup by name, count, index.
 * "hopper-1d": the paper's undamped 1-D hopper, state (y, v), parameters
 * g, k, mass, l0; flight y'' = -g, stance y'' = -g + (k / mass)(l0 - y);
 * h_1 = l0 - y (touchdown, live while v < 0), h_2 = y - l0 (liftoff, live
 * while v > 0); stance when s_1 = +1 and s_2 = -1, flight otherwise (the
 * fields agree at y = l0). */
const hes_ess_model *hes_ess_problem_find(const char *name);
int hes_ess_problem_count(void);
const hes_ess_model *hes_ess_problem_get(int i);

/* "plate-springs": the plate of the ESS paper's Sec. 5.2 (problems/
 * plate_springs.c): a plate in SE(2), state (x, z, theta, vx, vz, omega),
 * falling under gravity onto N legs evenly spaced over [-a, a], each a
 * spring K/N and damper C/N under a frictionless roller of radius rho with
 * its top at l0 (parameters g, mass, inertia, K, C, l0, a, rho).  With
 * p_i = rho - (z - l0 + rho) cos theta - (xi - x) sin theta the roller's
 * penetration along the plate's normal, leg i pushes with
 * F_i = (K p_i + C p_i') / N along the normal while p_i > 0 and F_i > 0
 * (the law the MuJoCo benchmark integrates); events 2i (touchdown,
 * h = p_i) and 2i + 1 (liftoff, h = -(p_i + (C/K) p_i')).  m = 2N depends
 * on N: the registry's "plate-springs" has N = 10;
 * hes_plate_springs_model(N) allocates the model for N from 1 to
 * HES_PLATE_SPRINGS_MAX_N (NULL outside or without memory), and
 * hes_plate_springs_model_free releases it (the registry's static model
 * and NULL are ignored).  The model must outlive its integrators. */
#define HES_PLATE_SPRINGS_MAX_N 5000
hes_ess_model *hes_plate_springs_model(int N);
void hes_plate_springs_model_free(hes_ess_model *model);

/* "plate-vertical": the plate exactly as the ESS paper's Sec. 5.2 states it
 * (problems/plate_vertical.c): state (x, z, theta, vx, vz, omega), mass 1,
 * inertia 0.1875, g 9.81 (parameters g, mass, inertia, K = 2000, C = 10,
 * a = 0.5); N vertical legs at x_i = linspace(-a, a, N), tips at height 0;
 * pen_i = -(z + (x_i - x) tan theta); while pen_i > 0 the leg pushes with
 * F_i = k pen_i + b pen_i' (k = K/N, b = C/N, not clamped), generalised force
 * sum F_i (-tan theta, 1, (x_i - x) sec^2 theta).  Events i (touchdown i,
 * h = pen_i) and N + i (liftoff i, h = -pen_i); stance iff s_i = +1 and
 * s_{N+i} = -1.  The registry's "plate-vertical" has N = 10;
 * hes_plate_vertical_model(N) and hes_plate_vertical_model_free as
 * plate-springs' above. */
#define HES_PLATE_VERTICAL_MAX_N 5000
hes_ess_model *hes_plate_vertical_model(int N);
void hes_plate_vertical_model_free(hes_ess_model *model);

/* The hopper's closed form: the state out[2] at time t from x0 = (y, v) at
 * time 0 (p: g, k, mass, l0; NULL: the defaults): ballistic parabolas above
 * l0, harmonic oscillations about l0 - mass g / k below, joined at y = l0.
 * HES_EINVAL for t < 0, non-finite input or non-positive parameters. */
hes_status hes_hopper_1d_exact(const double *p, double t, const double *x0, double *out);

/* ======================================== hybrid: computing on one system */

/* ------------------------------------------------------------------ system */

typedef struct hes_system hes_system;

typedef struct {
    double rtol, atol;       /* integrator tolerances (default 1e-12, 1e-12) */
    double graze_tol;        /* grazing if |Dtg + Dxg F_I| <= graze_tol * |(Dtg, Dxg)| |(1, F_I)|,
                                i.e. the flow is within that angle of the guard surface (1e-6) */
    int zeno_events;         /* Zeno: this many events ... (10) */
    double zeno_window;      /* ... within this much time (1e-3) */
    int max_events;          /* per simulation call (100000) */
    double max_phase_time;   /* per phase; from the model or 100 */
    double newton_tol;       /* orbit residual, max norm relative to each component's
                                scale (hes_orbit_find) (1e-10) */
    int newton_maxiter;      /* (50) */
    double fd_step;          /* relative step of central differences (1e-5) */
    /* Budgets that make a hopeless simulation fail fast with a message
     * instead of running for minutes (HES_ESOLVER): */
    int max_steps;           /* integrator steps per phase (100000; a phase of the
                                built-in models takes at most a few thousand) */
    double max_wall_time;    /* seconds of wall-clock time per simulation call
                                (hes_simulate, hes_variational) (10); HUGE_VAL: none */
    double max_search_time;  /* seconds of wall-clock time for one orbit search
                                (hes_orbit_find: every Newton iteration and line-search
                                trial) (120); HUGE_VAL: none */
    int check_derivatives;   /* nonzero (default): hes_analyze checks the model's
                                supplied Jacobians at the orbit and fails with
                                HES_EMODEL, naming the entry, when one disagrees
                                with differences of its own callback */
} hes_settings;

/* Creates a system for a model with default parameter values and settings.
 * Returns HES_OK and the system in *out, or HES_EINVAL for an invalid model
 * (msg, if not NULL, says what is wrong: hes_model_validate's message) or
 * HES_ENOMEM with *out NULL. */
hes_status hes_system_new(const hes_model *model, hes_system **out, char *msg, size_t len);
/* hes_system_new without the reason: NULL on an invalid model or
 * allocation failure. */
hes_system *hes_system_create(const hes_model *model);
void hes_system_destroy(hes_system *sys);

const hes_model *hes_system_model(const hes_system *sys);
/* Detail of the last failure ("" if none). */
const char *hes_system_errmsg(const hes_system *sys);

hes_settings hes_system_get_settings(const hes_system *sys);
hes_status hes_system_set_settings(hes_system *sys, const hes_settings *s);

/* Parameter values.  set_param validates (finite, range, positivity). */
hes_status hes_system_set_param(hes_system *sys, const char *name, double value);
hes_status hes_system_get_param(const hes_system *sys, const char *name, double *value);
const double *hes_system_params(const hes_system *sys);
/* Runs the range checks and the model's validate() on the current values. */
hes_status hes_system_check_params(hes_system *sys);

/* -------------------------------------------------------------- simulation */

typedef struct {
    int transition;          /* index into model->transitions */
    double t;                /* absolute time of the event */
    double tm;               /* model time of the event (before any clock reset) */
    double *x_minus;         /* n_I */
    double *x_plus;          /* n_J */
} hes_event;

typedef struct {
    int mode;
    double t0, t1;           /* absolute start and end time */
    double tm0;              /* model time at the start */
    double *x0, *x1;         /* state at start and end (dim of mode) */
    double *A;               /* variational matrix dim x dim, or NULL */
} hes_phase;

typedef struct {
    int n_phases, n_events;
    hes_phase *phases;       /* phase k ends with event k (if k < n_events) */
    hes_event *events;
    hes_status status;       /* why the simulation ended: HES_OK when its stop rule was met */
} hes_traj;

void hes_traj_free(hes_traj *traj);

/* How a simulation stops.  A run stops at the first of: `n_section` events of
 * transition `section` (if n_section > 0), absolute time t_end (if finite),
 * a failure. */
typedef struct {
    int section;
    int n_section;
    double t_end;
    int sequence_only;       /* arm only the next transition of the model's orbit sequence */
    int after_transition;    /* the start state lies just after an event of this
                                transition (-1: none); its own root right at the
                                start is ignored */
    int sensitivities;       /* compute A for every phase */
} hes_sim_opts;

hes_sim_opts hes_sim_opts_default(void);

/* Simulates from state x0 (mode `mode`) at absolute time t0 and model time
 * tm0.  The trajectory is returned even on failure (traj->status says why);
 * the return value is traj->status. */
hes_status hes_simulate(hes_system *sys, int mode, double t0, double tm0,
                        const double *x0, const hes_sim_opts *opts,
                        hes_traj *traj);

/* ------------------------------------------------- variational (one phase) */

/* Variational matrix A = d phi(t1; t0, x0) / d x0 of mode `mode` over model
 * time [tm0, tm0 + duration], from CVODES forward sensitivities; no guard is
 * armed.  x1 (may be NULL) receives the final state. */
hes_status hes_variational(hes_system *sys, int mode, double tm0, double duration,
                           const double *x0, double *x1, double *A);

/* ------------------------------------------------------ saltation matrices */

/*
 * Saltation matrix of transition I -> J at time t (model time) and pre-event
 * state x (paper eq. 2):
 *   Xi = DxR + (F_J - DxR F_I - DtR) Dxg / (Dtg + Dxg F_I)
 * with F_J evaluated at R(t, x).  xi receives n_J x n_I values.  Fails with
 * HES_EGRAZING when the denominator is tiny relative to its terms.
 */
hes_status hes_saltation(hes_system *sys, int transition, double t,
                         const double *x, double *xi);

/* --------------------------------------------------------------- monodromy */

typedef enum { HES_FACTOR_PHASE, HES_FACTOR_EVENT } hes_factor_kind;

typedef struct {
    hes_factor_kind kind;
    int index;               /* mode (phase) or transition (event) */
    int rows, cols;
    double *m;               /* rows x cols, column-major */
    double t;                /* absolute time of the event or the end of the phase */
} hes_factor;

/* Phi = F_k ... F_2 F_1 in the order of `factors` (factors[0] applied first). */
typedef struct {
    int n;                   /* dimension of the state at the section */
    int n_factors;
    hes_factor *factors;
    double *phi;             /* n x n monodromy */
    double *proj;            /* n x n return-map Jacobian (autonomous), else NULL */
    double accuracy;         /* estimated error of the analysed matrix's entries relative
                                to its norm: 100 max(rtol, atol) of the integration or
                                the orbit's Newton tolerance, whichever is larger (0 in
                                matrices assembled by hand: rounding only) */
    double *normal;          /* n: unit left null vector of proj (normal^T proj = 0); the zero
                                vector when the return map has no trivial multiplier; else NULL */
    int autonomous;
} hes_monodromy;

/* Builds the monodromy from a periodic trajectory computed with
 * sensitivities: one factor per phase (A_i) and per event (Xi_i).  For an
 * autonomous orbit also the return-map Jacobian (projection onto the Poincare
 * section at the section event, lib/README.md, section 4):
 *   P = DxR_s (I - F_I Dxg_s / (Dxg_s F_I)) A_N Xi_{N-1} ... A_1
 * which equals (I - F g^T / (g^T F)) Phi when the section reset is the
 * identity.  Its range lies in the section, so normal^T P = 0 with normal a
 * unit left null vector of DxR_s (I - F_I Dxg_s / (Dxg_s F_I)), which is
 * DxR_s^{-T} Dxg_s^T normalised when DxR_s is invertible and exists whatever
 * its rank (a plastic impact at the section: see monodromy.c): its
 * eigenvalues are the nontrivial multipliers plus a 0 whose left eigenvector is
 * the section normal.  (The right eigenvector of that 0 is the flow direction
 * F only when nothing in the model depends on the time since the section
 * event; with a clock reset at the section, as in the SLIP touchdown law,
 * a shift along the flow also shifts the clock and is not trivial.) */
hes_status hes_monodromy_compute(hes_system *sys, const hes_traj *period,
                                 int autonomous, hes_monodromy *mono);
void hes_monodromy_free(hes_monodromy *mono);

/* --------------------------------------------------------------- stability */

/* The verdict on a stability measure psi known to within tol: stable when
 * psi < 1 - tol, unstable when psi > 1 + tol, and marginal (neither: psi = 1
 * within the accuracy of the computation, e.g. a neutral family of orbits or
 * a parameter exactly on the boundary of the stable region) otherwise. */
typedef enum { HES_UNSTABLE = 0, HES_STABLE = 1, HES_MARGINAL = 2 } hes_verdict;
hes_verdict hes_verdict_of(double psi, double tol);
/* "stable", "unstable" or "marginal". */
const char *hes_verdict_name(hes_verdict verdict);

typedef struct {
    int n;                   /* dimension of the analysed matrix */
    int n_mult;              /* nontrivial multipliers (n, or n - 1 autonomous) */
    double *re, *im;         /* n_mult multipliers sorted by modulus, descending */
    double *abs;             /* their moduli */
    double *vr, *vl;         /* n x n right/left eigenvectors of the analysed
                                matrix in LAPACK dgeev layout (column j, or the
                                pair j, j+1 as real and imaginary parts) */
    double *all_re, *all_im; /* all n eigenvalues of the analysed matrix */
    int *order;              /* order[k]: index in all_* of multiplier k */
    int trivial;             /* index of the trivial eigenvalue 0 (autonomous: n - 1), or -1 */
    double trivial_abs;      /* |normal^T P| / max(1, |P|_F): how far P is from mapping
                                into the section (~1e-16; above 1e-8 is an error) */
    double psi;              /* max |lambda| of the nontrivial multipliers */
    double cond;             /* condition number 1/|w^H v| (unit eigenvectors) of the
                                maximising multiplier; huge when it is repeated or
                                defective and psi is then accurate only to ~sqrt(eps) */
    double psi_tol;          /* accuracy of psi: min(cond delta, delta^(1/m)) with delta =
                                mono->accuracy max(1, |M|_F) the error of the matrix and
                                m the size of the maximising multiplier's cluster (m
                                eigenvalues within 2 delta^(1/m) of it: an error delta can
                                merge them, and they move with its m-th root; m =
                                n_mult when alone), at least 4 eps */
    hes_verdict verdict;     /* hes_verdict_of(psi, psi_tol) */
    int stable;              /* verdict == HES_STABLE: psi < 1 - psi_tol */
    double *work;            /* private: the workspace hes_stability_update reuses */
    size_t lwork_at;
    int lwork;
} hes_stability;

/* Multipliers of a monodromy (dgeev with left and right eigenvectors).
 * Non-autonomous: the eigenvalues of mono->phi.  Autonomous: mono->proj maps
 * into the section (normal^T P = 0), so in an orthonormal basis [Q, normal]
 * it is block triangular [[Q^T P Q, *], [0, 0]]: the nontrivial multipliers
 * are exactly the eigenvalues of Q^T P Q, the trivial one is the 0 of the
 * normal direction (never "the eigenvalue nearest 1" or nearest 0).
 * HES_EDEFECTIVE if P does not map into the section. */
hes_status hes_stability_compute(const hes_monodromy *mono, hes_stability *st);
/* The same into an st that a previous hes_stability_compute or
 * hes_stability_update filled (or a zeroed one), reusing its arrays and
 * workspace when the dimension is unchanged: no allocation then, for loops
 * that evaluate psi many times.  On failure st keeps its storage (free it
 * with hes_stability_free) and its values are undefined. */
hes_status hes_stability_update(const hes_monodromy *mono, hes_stability *st);
void hes_stability_free(hes_stability *st);

/* ------------------------------------------------------------------- orbit */

typedef struct {
    int mode;                /* mode of x0 */
    double t0;               /* absolute start time (0) */
    double period;
    int n;                   /* dim of x0 */
    double *x0;              /* section state */
    double *flow;            /* F(x0) in mode `mode` */
    hes_traj traj;           /* one period with sensitivities */
    int iterations;
    double residual;         /* final residual (max norm) */
    int autonomous;
} hes_orbit;

/* Finds the periodic orbit of the model's orbit spec by damped Newton
 * shooting, converging to settings.newton_tol relative to the scale of each
 * residual component, max(|x0_i|, |x_return_i|, T |F_i(x0)|) with T the
 * period (an "orbit" shrinking to a point is never accepted for its small
 * absolute residual), and writes the solved parameters into the system.  It
 * then requires every state component to return (also those the residual
 * does not cover, to 1e-7 of its scale), a period that is not Zeno by the
 * simulator's rule (zeno_events events within zeno_window), and the same
 * events in a simulation with every guard armed.  HES_ENOORBIT (with the
 * last residual or the failed test in the message), HES_EZENO when the
 * iterates or the solution collapse to a Zeno point. */
hes_status hes_orbit_find(hes_system *sys, hes_orbit *orbit);
/* Where hes_orbit_find (and hes_analyze) start shooting: the free states of
 * x0 (the section state, dimension of the orbit's mode) instead of the
 * model's guess, e.g. the orbit of a neighbouring parameter point (a warm
 * start).  Only what Newton solves is seeded: the components that are not
 * free states always come from the model's guess at the system's parameters
 * (they are what the parameters define), and the solved parameters start
 * from the system's values.  NULL: the model's guess. */
hes_status hes_system_set_orbit_start(hes_system *sys, const double *x0);
void hes_orbit_free(hes_orbit *orbit);

/* Return map of the orbit spec from a section state x0 (no Newton): the state
 * after one period (x_ret, dim n).  Used by the finite-difference checks. */
hes_status hes_orbit_return_map(hes_system *sys, const double *x0, double *x_ret);

/* -------------------------------------------------- simultaneous events */

/*
 * Two events of a trajectory within `tol` of each other (e.g. two feet
 * landing together) have two activation orders.  Each order gives an outcome
 * and a linearisation L = Xi_second Xi_first (the pieces of the piecewise-
 * linear B-derivative of the flow, decoupled-limbs paper Sec. 4); the orders
 * are evaluated at the first event's state, with the other order's
 * transitions found in the model (for mechanical transitions: the same
 * constraint of the same mechanical system; otherwise: the same names).  For
 * mechanical transitions in one system also the decoupling measure of eq. 6,
 * Da_a M^-1 Da_b^T normalised to a cosine in the M^-1 metric: 0 when the
 * limbs are inertially decoupled.
 */
typedef struct {
    int event;               /* index of the first event of the pair */
    int first, second;       /* transitions in the order taken */
    int alt_first, alt_second; /* the other order, which applies alt_second first
                                (the counterpart of `second`) and then alt_first
                                (that of `first`); -1: the model has none */
    double dt;               /* time between the two events */
    double coupling;         /* eq. 6 cosine for two mechanical activations (impacts)
                                in one system; NaN otherwise (e.g. releases) */
    double outcome_gap;      /* max |x(first, second) - x(other order)|; NaN if incomparable */
    double piece_gap;        /* max |L_taken - L_other| / max(1, |L_taken|) */
    int continuous;          /* outcomes agree (1e-9) */
    int differentiable;      /* pieces agree (1e-6): the ordinary monodromy is valid */
    double psi_taken, psi_other; /* (orbits) psi with each piece; NaN otherwise */
    int decoupled;           /* |coupling| < HES_DECOUPLED_TOL: the limbs are inertially
                                decoupled (0 when coupling is NaN) */
} hes_simultaneous;
#define HES_DECOUPLED_TOL 1e-9

/* ----------------------------------------------------------------- analyze */

typedef struct {
    hes_orbit orbit;
    hes_monodromy mono;
    hes_stability stab;
    int have_check;
    double check_max_abs_diff; /* |M - M_fd| max over entries, M = proj or phi */
    /* With the check also: the model's supplied Jacobians against central
     * differences (hes_model_check_derivatives) at the orbit's states, each
     * mode at the end of its last phase (n_checked 0: none supplied) */
    hes_deriv_report jacobians;
    int n_simultaneous;      /* pairs of simultaneous events on the orbit (at most 4) */
    hes_simultaneous simultaneous[4];
} hes_analysis;

/* orbit -> monodromy -> multipliers (and the report of simultaneous events,
 * hes_simultaneous_orbit).  With settings.check_derivatives (the default)
 * or check != 0 it compares the model's supplied Jacobians (field, guard,
 * reset) with central differences of its own callbacks at two states of
 * each mode the orbit visits, the start and the end of its phase
 * (res->jacobians: the worse); with settings.check_derivatives a
 * disagreement (above HES_DERIV_TOL) is HES_EMODEL, the message naming the
 * entry.  With check != 0 it also recomputes the analysed matrix by
 * central differences of the full nonlinear return map.
 * On failure *res is left empty (nothing to free); on success release it with
 * hes_analysis_free(). */
hes_status hes_analyze(hes_system *sys, int check, hes_analysis *res);
void hes_analysis_free(hes_analysis *res);

/* ------------------------------------- stability over an impact's outcomes */
/*
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
    int transition;          /* -1: the first event on the orbit that qualifies */
    /* samples, seed, selection, threads (for the set and the orbits); routh.h
     * 0: half the nominal impact's largest normal impulse; routh.steps 0: 20 */
    hes_impact_set_options set;
} hes_impact_orbit_options;

typedef struct {
    double psi_nominal;      /* the model's own impact law */
    int transition, k;
    int contacts[HES_MECH_MAX]; /* constraint indices in the event's mech */
    double q[HES_MECH_MAX], qd_minus[HES_MECH_MAX]; /* the nominal pre-impact state */
    hes_impact_set set;      /* the outcomes there */
    int *consistent;         /* per sample: 1 if its modes are the transition's */
    double *psi;             /* per sample: psi of its orbit (NaN: not consistent, or failed) */
    hes_status *status;      /* per sample: the orbit's status (HES_OK for the inconsistent) */
    int n_consistent, n_orbits, n_failed, n_stable, n_unstable, n_marginal;
    double psi_worst, psi_best; /* over the orbits found (NaN if none) */
    int worst, best;         /* their samples (-1) */
    /* the extreme outcomes among the consistent samples whose orbits were
     * found: for contact-velocity coordinate d (normals, then tangents)
     * the samples with the smallest and largest value (-1: none); their
     * psi is psi[extreme_min[d]] and psi[extreme_max[d]] */
    int extreme_min[2 * HES_MECH_MAX], extreme_max[2 * HES_MECH_MAX];
    double worst_check;      /* the worst orbit's return map against central
                                differences of the full flow (hes_analyze's check) */
    double step;             /* the impulse step h and step limit N used */
    int steps;
    double seconds;
    char message[256];       /* why the first failed orbit failed ("" if none did) */
} hes_impact_orbit;

/* hes_analysis_json plus "impact_set" (lib/io/json_impact.c): "transition",
 * "contacts", "step", "steps", "samples", "finished", "mean_lcps",
 * "consistent", "orbits", "failed", "stable", "unstable", "marginal",
 * "psi_nominal", "psi_worst", "psi_best", "worst_sample", "best_sample",
 * "worst_check", "worst_outcome" and "best_outcome" (contact velocities,
 * modes), "extremes" (per contact-velocity coordinate the min and max
 * outcome with its psi), "psi" (per consistent sample, null where its
 * orbit failed) and "seconds". */
char *hes_analysis_impact_json(const hes_system *sys, const hes_analysis *res,
                               const hes_impact_orbit *r);

/* nominal: sys's analysis if the caller has it (hes_analyze), NULL to
 * make one here.  The transition's other `after` constraints (joint limits
 * it locks; not a contact's own no-slip row) hold through the impact: the
 * law acts in the velocities that keep them.  HES_EINVAL (msg) when no
 * transition qualifies; the nominal analysis's status when it fails;
 * HES_ENOORBIT (msg; r freed) when no sampled outcome gives an orbit (none
 * continues the mode sequence, or every such orbit failed: no psi to
 * report); HES_ESOLVER without Siconos numerics or GSL. */
hes_status hes_impact_orbit_analyze(hes_system *sys, const hes_analysis *nominal,
                                    const hes_impact_orbit_options *o, hes_impact_orbit *r,
                                    char *msg, size_t len);
/* psi of the orbit with the impact of one caps sequence (r from
 * hes_impact_orbit_analyze supplies the transition and contacts; caps:
 * r->set.dim values). */
hes_status hes_impact_orbit_psi(hes_system *sys, const hes_impact_orbit *r,
                                const hes_routh_options *ro, const double *caps, double *psi,
                                char *msg, size_t len);
void hes_impact_orbit_free(hes_impact_orbit *r);

/* ------------------------------------------------------- ESS periodic orbit */
/*
 * A periodic orbit of an ESS model simulated by the ESS integrator
 * (lib/hybrid/ess_orbit.c), and its stability.  The section is the
 * hyperplane x_c = v (c = section, v the guess's x_c); the unknowns are the
 * other n - 1 components of x0 and the period T; Newton's method (least
 * squares by SVD, so that a family of orbits, as the undamped hopper's,
 * gives the nearest member) on r = x(T; x0) - x0, with the Jacobian
 *   [ (J - I) without column c | f(x(T), s(T)) ],   J = d x(T) / d x0,
 * J from the integrator (its exact derivative of the discrete flow).  At the
 * orbit the monodromy is Phi = J and the return map's Jacobian is
 *   P = (I - F e_c^T / F_c) J,   F = f(x(T), s(T)),
 * whose eigenvalues are the nontrivial multipliers and a 0 (normal e_c):
 * hes_stability_compute analyses it as it does the hybrid pipeline's.  The
 * multipliers are those of the discrete flow, within O(eps^2) of the true
 * flow's (tests/test_ess_orbit.c).
 */
typedef struct {
    hes_ess_options ess;  /* the integrator's options (jacobian is set by the solver) */
    int section;          /* c: the section x_c = x_guess[c], 0 <= c < n */
    double tol;           /* Newton: max |x(T) - x0| (> 0; 1e-9), or as small as the
                             integration's accuracy allows (10 (rtol (1 + |x0|) + atol)) */
    int max_iter;         /* Newton iterations (> 0; 40) */
    int check_eps;        /* nonzero (the default): solve again at eps / 2 and eps / 4
                             (warm started) to estimate psi's error from the band and
                             to refuse an orbit that does not converge as the band
                             shrinks (an artifact of a coarse eps): see eps_error */
    double max_wall_time; /* seconds for the whole search, eps check included (> 0; 60):
                             then HES_ESOLVER saying so */
} hes_ess_orbit_options;

void hes_ess_orbit_options_default(hes_ess_orbit_options *opts);

typedef struct {
    int n, section;
    double *x0;           /* n: the orbit's state on the section */
    double period;
    int iterations;
    double residual;      /* max |x(T) - x0| at the end */
    double *flow;         /* n: f(x0) (with the signs at the period's end) */
    long n_projections, n_refused, n_sign_changes;  /* of the last period */
    hes_monodromy mono;   /* phi = J, proj = P, normal = e_c, autonomous */
    hes_stability stab;   /* multipliers, psi and the verdict (with check_eps, psi_tol
                             includes eps_error and the verdict is taken with it) */
    double eps_error;     /* check_eps: (4/3) |psi(eps) - psi(eps / 2)|, the estimated
                             error of psi from the band (Richardson); else NaN */
    double eps_order;     /* check_eps: log2 of the ratio of the successive changes of
                             psi (about 2); NaN when they are below the noise */
} hes_ess_orbit;

/* From (x_guess, T_guess): HES_OK with res filled (release with
 * hes_ess_orbit_free, also after a failure), HES_ENOORBIT when Newton does
 * not reach tol in max_iter iterations, reaches an equilibrium, or (with
 * check_eps) finds an orbit that does not persist or converge at order 2
 * as eps shrinks, HES_EGRAZING when the flow is
 * (nearly) tangent to the section at the orbit, HES_EINVAL for bad
 * arguments, and the integrator's failures.  The message is the ESS
 * object's (hes_ess_errmsg). */
hes_status hes_ess_orbit_find(hes_ess *ess, const hes_ess_orbit_options *opts,
                              const double *x_guess, double T_guess, hes_ess_orbit *res);
void hes_ess_orbit_free(hes_ess_orbit *res);

/* Jacobian of the return map by central differences of full re-simulations
 * (independent of the saltation pipeline); out is n x n. */
hes_status hes_return_map_fd(hes_system *sys, const hes_orbit *orbit, double *out);

/* Finds the pairs of events closer than tol in traj and analyses them; at
 * most max entries into out, their number into *n. */
hes_status hes_simultaneous_find(hes_system *sys, const hes_traj *traj, double tol,
                                 hes_simultaneous *out, int max, int *n);
/* The same for the orbit of an analysis (tol = 1e-8 of the period), with psi
 * of the monodromy built with each piece. */
hes_status hes_simultaneous_orbit(hes_system *sys, const hes_analysis *res,
                                  hes_simultaneous *out, int max, int *n);

/* --------------------------------------------- the derivative of a flow */
/*
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
    hes_traj traj;           /* the run, with its variational matrices */
    int n;                   /* dimension of x0 and of x(time) */
    double *jac;             /* n x n, column-major */
    int n_simultaneous;      /* pairs of simultaneous events (at most 4) */
    hes_simultaneous simultaneous[4];
} hes_flow;

hes_status hes_flow_jacobian(hes_system *sys, int mode, const double *x0, double time,
                             hes_flow *out);
void hes_flow_free(hes_flow *f);
/* Its document (`hes simulate --jacobian --json` of a hybrid model):
 * "problem", "params", "mode", "x0", "time", "events" (each "transition",
 * "t"), "mode_end", "x_end", "jacobian" (rows), "simultaneous" (as in
 * hes analyze's). */
char *hes_flow_json(const hes_system *sys, int mode, const double *x0, double time,
                    const hes_flow *f);

/* --------------------------------------------------- perturbation trials */

typedef struct {
    double *x0;              /* n */
    int steps_completed;
    hes_status failure;      /* HES_OK if all steps completed */
    char failure_msg[512];
    double *error;           /* steps_completed values: |x_k - x*|_2 after period k */
} hes_trial;

typedef struct {
    int n_trials, steps, n;
    hes_trial *trials;
    int converged;           /* trials completing all steps with final error < tol */
    int n_complete;          /* trials completing all steps */
    double *mean_error;      /* steps values: the mean error after period k over the
                                n_complete trials (NaN when there are none) */
    double tol;
    double radius;           /* of the ball the initial states were drawn from */
    int box;                 /* 1: from the box |dx_i| < radius instead (hes_trials_run_box) */
    unsigned long seed;
} hes_trials;

/* The paper's Fig. 3 experiment: n_trials initial states uniform in the ball
 * of radius `radius` around the orbit's section state, `steps` periods each,
 * the 2-norm error to the section state after every period.  Deterministic for
 * a given seed. */
hes_status hes_trials_run(hes_system *sys, const hes_orbit *orbit, int n_trials,
                          double radius, int steps, unsigned long seed,
                          double tol, hes_trials *out);
/* The same with every state component perturbed independently, uniformly in
 * (-half_width, half_width) (the paper's Fig. 5 experiment). */
hes_status hes_trials_run_box(hes_system *sys, const hes_orbit *orbit, int n_trials,
                              double half_width, int steps, unsigned long seed,
                              double tol, hes_trials *out);
void hes_trials_free(hes_trials *t);
/* The trials against the verdict of the same orbit: a sentence saying how
 * they contradict it (an unstable verdict with at least half the trials
 * converged; a stable one with none), or NULL when they do not. */
const char *hes_trials_contradiction(hes_verdict verdict, const hes_trials *t);

/* ================================ shaping: choosing parameters and orbits */

/* ------------------------------------------------- hybrid event shaping */

/*
 * A shape context: the nominal orbit of an analysis, with its stored
 * variational matrices, and the shape parameters h to vary.  Shape
 * parameters enter only the saltation matrices at the nominal events (paper
 * Sec. III-A), so psi(h) is re-evaluated by recomputing those saltation
 * matrices (and, for autonomous orbits, the section matrix S of the
 * return-map Jacobian P = S Q) and their product, without re-simulating.
 *
 * Gradient (paper eq. 5-6): for a simple multiplier lambda with right and
 * left eigenvectors v, w of the analysed matrix M (Phi, or P),
 *   dlambda/dh = w^H (dM/dh) v / (w^H v),
 *   d|lambda|/dh = Re(conj(lambda) dlambda/dh) / |lambda|,
 * with dM/dh = sum over events k of G_L ... G_{k+1} (dG_k/dh) G_{k-1} ... G_1
 * by the product rule over the stored factors G, where dG_k/dh are central
 * differences in h of the saltation (or section) formula evaluated with the
 * model's Jacobian callbacks at the nominal event: no re-simulation.  Only
 * the (event, parameter) pairs found to depend on each other are summed.
 */
typedef struct hes_shape hes_shape;

/* Creates a context for the named parameters (all parameters flagged
 * HES_PARAM_SHAPE when n == 0).  It first verifies the shape property: a
 * parameter that changes a guard value, a reset or a vector field at a
 * nominal event of res->orbit is refused (HES_EINVAL, naming the parameter,
 * the event and what moved).  The context keeps pointers into res and sys,
 * which must outlive it. */
hes_status hes_shape_create(hes_system *sys, const hes_analysis *res, int n,
                            const char *const *names, hes_shape **out);
void hes_shape_destroy(hes_shape *sh);
int hes_shape_count(const hes_shape *sh);
/* Parameter index (into the model's parameters) of shape parameter j. */
int hes_shape_param(const hes_shape *sh, int j);

/* The stability measure and its derivatives at shape values h.  Arrays
 * point into the context and stay valid until the next evaluation. */
typedef struct {
    int n_shape, n_mult;
    double psi;
    const double *abs;       /* n_mult multiplier moduli, descending */
    const double *re, *im;   /* the multipliers */
    const double *dpsi;      /* n_shape: dpsi/dh (NULL if not requested) */
    const double *dabs;      /* n_mult x n_shape column-major: d|lambda_k|/dh_j;
                                NaN where multiplier k is repeated or defective
                                (NULL if not requested or with HES_SHAPE_GRAD_PSI) */
    int fallback;            /* the maximising multiplier is repeated or defective
                                (condition number > 1e5 or relative gap < 1e-5):
                                dpsi came from one-sided differences of psi with
                                relative step 1e-4 (a defective multiplier is only
                                accurate to ~sqrt(eps)); where they agree, their mean */
    int nonsmooth;           /* (with fallback) the one-sided differences disagree:
                                dpsi_j is the element of least magnitude of the
                                interval between them (0 if they differ in sign),
                                i.e. of the generalized gradient along h_j, to
                                within the accuracy of the defective multiplier */
    double cond;             /* condition number of the maximising multiplier */
} hes_shape_eval_result;

/* Evaluates at h (n_shape values; NULL: the system's current values), which
 * are written into the system's parameters.  With grad != 0 also fills
 * dpsi and dabs; with grad == HES_SHAPE_GRAD_PSI only dpsi (dabs NULL: one
 * eigenvalue derivative instead of one per multiplier). */
#define HES_SHAPE_GRAD_PSI 2
hes_status hes_shape_eval(hes_shape *sh, const double *h, int grad,
                          hes_shape_eval_result *out);

typedef enum { HES_MEASURE_PSI = 0, HES_MEASURE_SMOOTH = 1 } hes_measure;
/* "psi" or "smooth" (NULL out of range), and the measure of a name: HES_OK,
 * or HES_EINVAL for NULL or an unknown name (*measure left as it was). */
const char *hes_measure_name(hes_measure measure);
hes_status hes_measure_from_name(const char *name, hes_measure *measure);

/* The smooth surrogate of psi: the p-norm of the multiplier moduli,
 * (sum |lambda_k|^p)^(1/p) with p = HES_SMOOTH_P, an upper bound of psi
 * within a factor n_mult^(1/p); differentiable wherever every multiplier is
 * simple. */
#define HES_SMOOTH_P 16

typedef struct {
    int n;                   /* shape parameters to optimise; 0: every shape parameter */
    const char *const *names;
    const double *start;     /* n start values; NULL or a NaN entry: the system's value */
    const double *lo, *hi;   /* n bounds; NULL or a NaN entry: the model's search bound */
    const char *algorithm;   /* NLopt name, e.g. "LD_MMA"; NULL: LD_SLSQP */
    int starts;              /* the first from `start`, the rest uniform in the bounds */
    unsigned long seed;
    hes_measure measure;
    int gradient;            /* 1: analytic (default); 0: central differences of the
                                measure (each a fast re-evaluation), for comparison */
    int polish;              /* derivative-free polish from the best point (LN_BOBYQA) */
    int maxeval;             /* per start and for the polish */
    double ftol_rel;
    double stopval;          /* stop once the measure is <= stopval (-HUGE_VAL: never) */
    /* Called after every evaluation (may be NULL). */
    void (*progress)(int evaluations, double best, void *data);
    void *progress_data;
} hes_shape_opts;

hes_shape_opts hes_shape_opts_default(void);

typedef struct {
    int n;
    int *param;              /* parameter index of each optimised shape parameter */
    double *h;               /* the optimum (also written into the system) */
    double *lo, *hi;         /* the bounds used */
    double *start;           /* the (first) start values used */
    double psi_initial;      /* psi at the start values */
    double psi;              /* psi at the optimum from a full re-analysis */
    double measure;          /* the optimised measure at the optimum */
    int evaluations;         /* of the measure */
    int gradients;           /* evaluations with a gradient */
    int fallbacks;           /* gradients that fell back to differences of psi */
    int gradient;            /* 1 analytic, 0 finite differences, -1 none */
    char algorithm[48];      /* NLopt name of the main algorithm */
    char polish[48];         /* NLopt name of the polish ("" if none): LN_BOBYQA, or
                                LN_NELDERMEAD for a single parameter */
    int starts;              /* starts run (1 for a global algorithm) */
    hes_analysis analysis;   /* the full re-analysis at the optimum */
} hes_shape_result;

/* Minimises psi (or the smooth surrogate) over the shape parameters within
 * bounds: a gradient-based NLopt algorithm (default LD_SLSQP) from several
 * starts, then a derivative-free polish (LN_BOBYQA) from the best point, then
 * a full re-analysis (re-simulation and full-system verification) at the
 * optimum, whose psi is reported.  The system's parameters must give an
 * orbit; the orbit is found first. */
hes_status hes_shape_optimize(hes_system *sys, const hes_shape_opts *opts,
                              hes_shape_result *res);
void hes_shape_result_free(hes_shape_result *res);

/* ------------------------------------------------------ direct collocation */

/*
 * Multi-phase direct collocation of the model's periodic orbit
 * (lib/shaping/collocation.c and colloc_*.c: Hermite-Simpson in compressed form over the orbit
 * spec's event sequence, optionally split by virtual events, with free phase
 * durations, inputs at the nodes and the solved parameters as decision
 * variables; autonomous orbit specs).
 *
 * Inputs are model parameters (e.g. hip_torque) that become per-node
 * decision variables: between the nodes of a phase an input is the linear
 * interpolation in the time since the start of the phase (or one constant
 * value per phase), which is how gait files are re-simulated (lib/shaping/gait.c).
 * Virtual events (core paper Sec. III-B) split the phase before event i of
 * the sequence into sub-phases ending at g_i(t, x) + p = 0 (the physical
 * guard plus an offset p that is a decision variable) with an identity
 * reset; inputs may jump there.  With inputs or virtual events every phase
 * boundary restarts the inputs' clock, and the monodromy uses the clock-local
 * saltation matrix DxR - (DxR F_I + DtR) Dxg / (Dtg + Dxg F_I) at every event.
 */
typedef struct hes_colloc hes_colloc;
#define HES_COLLOC_MAX_DESIGN 16

/* The solver of the collocation's nonlinear program: SLSQP (NLopt, dense;
 * always built), IPOPT (sparse interior point, lib/shaping/colloc_ipopt.c;
 * when configure found coinor-libipopt-dev), REDUCED (SLSQP on the free
 * variables, the equalities solved by Newton's method at every point,
 * lib/shaping/colloc_reduced.c; always built; its feasibility solves are
 * Newton's method on the equalities, then SLSQP where that orbit misses
 * the bounds or path constraints, and a program whose equalities do not
 * determine the other variables is refused) or HYBRID (the first tenth of the budget by SLSQP
 * in the full space, whose iterates may leave the orbits to reach another
 * basin, the rest in the reduced space, or in the full space where the
 * reduced space does not apply; for a start far from the optimum, e.g. a
 * psi objective from a minimum-energy gait).  HES_NLP_DEFAULT: IPOPT when
 * built, except for the psi objectives (stability, weighted) on programs of
 * at most 400 variables, where dense SLSQP is cheap and polishes psi's kinks
 * better; SLSQP when IPOPT is not built. */
typedef enum {
    HES_NLP_DEFAULT = 0, HES_NLP_SLSQP = 1, HES_NLP_IPOPT = 2, HES_NLP_REDUCED = 3,
    HES_NLP_HYBRID = 4
} hes_nlp_solver;
/* Nonzero when this build has the solver (HES_NLP_DEFAULT: always). */
int hes_nlp_solver_available(hes_nlp_solver solver);
/* "default", "slsqp", "ipopt", "reduced", "hybrid" (NULL out of range), and the solver of a
 * name (HES_EINVAL for an unknown one). */
const char *hes_nlp_solver_name(hes_nlp_solver solver);
hes_status hes_nlp_solver_from_name(const char *name, hes_nlp_solver *solver);

/* hes_colloc_options.psi_floor_smoothing's default */
#define HES_COLLOC_FLOOR_SMOOTHING 0.2
/* The most threads of hes_colloc_options.jobs */
#define HES_COLLOC_MAX_JOBS 64

typedef struct {
    int nodes;                   /* per phase, >= 2; with v virtual events in a phase
                                    its first sub-phase (up to the guard's turn) gets
                                    (nodes - 1) / 2 + 1, the others (nodes - 1) / (2 v)
                                    + 1 each (at least 3) */
    int refine;                  /* > 1: every sub-phase gets refine times as many
                                    intervals (a finer copy of the same grid) */
    int n_inputs;                /* parameters used as inputs at the nodes */
    const char *const *inputs;
    const double *input_lo, *input_hi; /* n_inputs bounds, or NULL: unbounded */
    int constant_inputs;         /* nonzero: one input value per (sub-)phase */
    const int *virtual_events;   /* n_sequence counts, or NULL: none */
    const double *x0_lo, *x0_hi; /* bounds on the first state (dim of the orbit mode), or NULL */
    double min_duration, max_duration; /* per (sub-)phase; 0, 0: [0, inf) */
    int path;                    /* nonzero: the model's path constraints (hes_trajopt_spec) */
    /* Weight of the input-rate regularisation added to the psi objectives
     * when there are inputs: sum over intervals of |u_k+1 - u_k|^2 / h, the
     * integral of |du/dt|^2 (0: none).  Without it psi rewards inputs that
     * alternate from node to node, which the discretisation cannot resolve
     * (the collocated psi then drifts from the re-simulated one). */
    double smooth_weight;
    /* The stability term of the psi objectives: HES_MEASURE_PSI (default) or
     * HES_MEASURE_SMOOTH, the p-norm of the multiplier moduli, which does not
     * stall where the largest multipliers meet (the result's psi is psi). */
    hes_measure measure;
    /* Nonzero: the inputs and virtual offsets keep the values z starts with
     * (bounds equal to them); only states, durations and parameters move.
     * With a gait from hes_colloc_from_gait this re-collocates that gait on
     * this grid (e.g. a finer one, to check or refine its psi).  They then
     * determine the orbit, so x0_lo/x0_hi, min/max_duration and path are
     * ignored (they would over-determine it). */
    int fix_inputs;
    /* > 0: in the psi objectives the stability term counts only down to this
     * value (max(psi, psi_floor)); below it the optimiser spends its effort
     * on the other terms instead of driving the multipliers together towards
     * 0, where psi becomes hypersensitive and the basin small. */
    double psi_floor;
    /* The kink of max(psi, psi_floor), along which quasi-Newton steps
     * crawl, is smoothed in the first rounds of the optimisation over
     * |psi - psi_floor| < mu, mu = this times psi_floor (default
     * HES_COLLOC_FLOOR_SMOOTHING), a quarter of it after each round that
     * lowers the true cost by less than 1e-3 of it, none once below 1 % of
     * the floor (and none from the start below that); 0: none.  The best
     * point is the one of least true cost; a budget can end while the
     * rounds still smooth. */
    double psi_floor_smoothing;
    /* psi's own kinks: where two multipliers have one modulus psi is not
     * differentiable, and its optima lie there; quasi-Newton steps crawl
     * along them as along the floor's.  > 0: the first rounds minimise psi
     * smoothed over moduli within mu of each other (the smoothed maximum
     * of the moduli, a complex pair counted twice: mu/2 + max over the
     * simplex of w.a - mu/2 |w|^2, equal to psi where the largest modulus
     * leads the others by mu, above it by at most mu/2), mu = this times
     * psi at the start, with psi_floor_smoothing's schedule; below 1 % of
     * psi at the best point one unsmoothed round follows, then rounds only
     * while they gain 1e-3 of the cost.  0: none (the default).  Only with
     * HES_MEASURE_PSI in the psi objectives.  The SLIP on 11 nodes by
     * SLSQP from K within 3e-7 of 0, 8 runs: with 0.05 all reach the
     * optimum 0.662370167, without 5 stop at the cap up to 3.5e-3 above. */
    double psi_smoothing;
    /* Progress report after every evaluation of the cost with its gradient
     * (NULL: none): evaluation count, the cost minimised (with a psi floor
     * smoothed while the rounds smooth it), the last constraint violation,
     * psi (NaN when the cost does not compute it). */
    void (*progress)(void *ctx, int evaluation, double cost, double violation, double psi);
    void *progress_ctx;
    hes_nlp_solver solver;       /* HES_NLP_DEFAULT: see hes_nlp_solver */
    /* Threads that share psi's gradient (its factors), the caller's
     * included; <= 1: none; at most HES_COLLOC_MAX_JOBS.  The gradient is
     * the same bit for bit on any number (each factor's terms are summed in
     * one order); the model's callbacks must be thread-safe (as for
     * hes_sweep's jobs). */
    int jobs;
} hes_colloc_options;

/* Defaults: nodes 21, no inputs, no virtual events, no bounds, no path. */
hes_colloc_options hes_colloc_options_default(void);

hes_status hes_colloc_create(hes_system *sys, int nodes, hes_colloc **out);
hes_status hes_colloc_create_opts(hes_system *sys, const hes_colloc_options *opts,
                                  hes_colloc **out);
/* Adds parameters (e.g. shape parameters) as decision variables within
 * bounds, after the solved ones; call before hes_colloc_guess. */
hes_status hes_colloc_set_design(hes_colloc *c, int n, const char *const *names,
                                 const double *lo, const double *hi);
void hes_colloc_destroy(hes_colloc *c);
int hes_colloc_nvars(const hes_colloc *c);
int hes_colloc_ncons(const hes_colloc *c);   /* equality constraints */
/* Inequalities: path constraints c(x) >= 0 at nodes, then (with the
 * model's hes_trajopt_spec) the crossing rate of every event in its
 * direction, minus min_crossing_rate. */
int hes_colloc_nineq(const hes_colloc *c);
/* z from a simulation of one period from the orbit spec's initial guess
 * (inputs at their current parameter values; virtual events split the
 * simulated phases into equal times, offsets from the guard there). */
hes_status hes_colloc_guess(hes_colloc *c, double *z);
/* Solves the constraints (defects, events, resets with periodicity,
 * anchors; path constraints) with NLopt LD_SLSQP to tolerance tol (max
 * norm); the solved parameters end in the system. */
hes_status hes_colloc_solve(hes_colloc *c, double *z, double tol, double *violation);
/* psi of the orbit z describes: the monodromy from the Hermite-Simpson step
 * matrices (implicit-function Jacobians of each step, consistent with the
 * discretisation) and the saltation matrices at the phase ends, projected on
 * the section; with grad (nvars) its gradient by eigenvalue perturbation
 * over the factors, each factor differentiated (central differences) in the
 * few variables it depends on; *fallback = 1 when the maximising multiplier
 * is repeated or defective and the gradient came from differences of psi. */
hes_status hes_colloc_psi(hes_colloc *c, const double *z, double *psi, double *grad,
                          int *fallback);

/* The return-map Jacobian P (n x n, n the dimension of the first phase,
 * column-major) whose nontrivial eigenvalues hes_colloc_psi takes: compare
 * it with hes_monodromy.proj of a shooting analysis of the same orbit (the
 * multipliers can be far more sensitive than P where they nearly coincide). */
hes_status hes_colloc_return_map(hes_colloc *c, const double *z, double *P);

typedef enum {
    HES_COLLOC_FEASIBLE,         /* no cost: a feasible orbit */
    HES_COLLOC_ENERGY,           /* integral of the squared inputs */
    HES_COLLOC_STABILITY,        /* psi (paper problem (8)) + smooth_weight * roughness
                                    (psi: or the measure of the options) */
    HES_COLLOC_WEIGHTED          /* psi + weight * energy + smooth_weight * roughness */
} hes_colloc_objective;
/* "feasible", "energy", "stability" or "weighted" (NULL out of range), and
 * the objective of a name: HES_OK, or HES_EINVAL for NULL or an unknown name
 * (*objective left as it was). */
const char *hes_colloc_objective_name(hes_colloc_objective objective);
hes_status hes_colloc_objective_from_name(const char *name, hes_colloc_objective *objective);

typedef struct {
    double cost, psi, energy, violation;
    double roughness;            /* integral of |du/dt|^2 (smooth_weight) at the result */
    int evaluations;             /* of the cost (with or without gradient) */
    int fallbacks;               /* psi gradients from differences (repeated multiplier) */
} hes_colloc_result;

/* Minimises the objective over z subject to the collocation constraints,
 * the bounds and the path constraints, from z, by the options' solver
 * (hes_nlp_solver), in rounds.  maxeval is the budget of cost evaluations:
 * SLSQP's and the reduced space's rounds stop at it, IPOPT checks it
 * between its iterations and can exceed it by one iteration's line search
 * (1016 of 1000 on the SLIP with psi_smoothing). */
hes_status hes_colloc_minimize(hes_colloc *c, double *z, hes_colloc_objective objective,
                               double weight, double tol, int maxeval, hes_colloc_result *res);
/* hes_colloc_minimize with HES_COLLOC_STABILITY and 1000 evaluations. */
hes_status hes_colloc_optimize(hes_colloc *c, double *z, double tol, double *psi,
                               double *violation, int *evaluations);

int hes_colloc_phases(const hes_colloc *c);
double hes_colloc_duration(const hes_colloc *c, const double *z, int phase);
const double *hes_colloc_state(const hes_colloc *c, const double *z, int phase, int node);

/* ------------------------------------------------------------------ gaits */

/*
 * A gait: one period of a periodic orbit given as (sub-)phases with their
 * durations, states at equally spaced nodes, inputs (parameters of the base
 * model, linear in the time since the phase start between the nodes, or
 * constant), and virtual events (lib/shaping/gait.c).  Written by `hes trajopt -o`
 * as JSON and re-analysed and re-simulated through a derived model whose
 * modes are the phases (hes_gait_model).
 */
typedef struct {
    int mode;                    /* base mode */
    int transition;              /* base transition whose guard ends the phase */
    int is_virtual;              /* ends at guard + offset = 0 with an identity reset */
    int direction;               /* crossing direction of the end event (HES_DOWN, ...) */
    double offset;
    double duration;
    int nodes;
    double *x;                   /* nodes x dim of the mode, node after node */
    int u_rows;                  /* nodes (linear) or 1 (constant) */
    double *u;                   /* u_rows x n_inputs */
} hes_gait_phase;

typedef struct {
    char *problem;
    double *params;              /* the base model's parameters, n_params of it */
    int n_params;
    int n_inputs;
    int *inputs;                 /* base parameter indices */
    int n_phases;
    hes_gait_phase *phases;
    char *objective;             /* how it was made (informative) */
    double psi, energy;          /* from the collocation (informative) */
} hes_gait;

/* The gait z describes (parameters from the system).  Free with hes_gait_free. */
hes_status hes_colloc_gait(hes_colloc *c, const double *z, hes_gait *g);
/* z from a gait of the same model (--init FILE): per physical phase, states
 * and inputs resampled in time; virtual offsets from the guard at the
 * sub-phase ends.  Parameters of the gait go into the system. */
hes_status hes_colloc_from_gait(hes_colloc *c, const hes_gait *g, double *z);
void hes_gait_free(hes_gait *g);
/* The derived model of a gait: mode i = phase i of the gait (the base mode
 * with the inputs set from the gait's schedule at the time since the phase
 * start), transition i ends phase i (the base guard, plus the offset for a
 * virtual event; the base reset or the identity), every transition restarts
 * the clock; its orbit spec starts at the gait's first state and keeps the
 * base spec's free states, residual and solved parameters.  Parameters are
 * the base model's.  The gait must outlive the model. */
hes_status hes_gait_model(const hes_gait *g, const hes_model *base, hes_model **out,
                          char *msg, size_t len);
void hes_gait_model_destroy(hes_model *m);
/* Inverse dynamics along a gait of a robot model (lib/shaping/
 * gait_invdyn.c; hes_robot_model_load): at every node the exact motion of
 * its mode (hes_robot_model_motion, the gait's inputs as the motor
 * parameters), the mode's pinned contact in stance.  The motors are the
 * robot's, on their joints, then one per joint a mode locks at its limit
 * (the stop's torque); *robot is the robot used (its motors name the
 * torques: hes_robot_motor_joint; free it).  HES_EINVAL for a model that
 * is not a robot model or a gait that is not one of its. */
hes_status hes_invdyn_gait(const hes_model *model, const hes_gait *gait,
                           const hes_invdyn_run_options *opts, hes_robot **robot,
                           hes_invdyn_run *out, char *msg, size_t len);

/* ------------------------------------------------- trajectory optimisation */

/*
 * The pipeline of `hes trajopt` (lib/shaping/trajopt.c, core paper problem
 * (8)): collocate the model's periodic orbit (hes_colloc with the model's
 * hes_trajopt_spec: inputs, bounds, path constraints), solve for a feasible
 * start, minimise the objective, re-collocate the result on a finer grid
 * with its inputs held (with inputs or virtual events), and re-analyse the
 * gait independently by shooting through its derived model
 * (hes_gait_model, hes_analyze), comparing the two return maps.
 */
typedef struct {
    hes_colloc_objective objective; /* HES_COLLOC_STABILITY */
    double weight;               /* of the energy in HES_COLLOC_WEIGHTED, >= 0 (1) */
    hes_measure measure;         /* the stability term (HES_MEASURE_PSI) */
    double smooth_weight;        /* hes_colloc_options.smooth_weight (1e-3) */
    double psi_floor;            /* hes_colloc_options.psi_floor (0) */
    /* hes_colloc_options.psi_floor_smoothing on the first grid
     * (HES_COLLOC_FLOOR_SMOOTHING); the further grids, which start at the
     * coarser grid's optimum, a tenth of it */
    double psi_floor_smoothing;
    /* hes_colloc_options.psi_smoothing on the first grid (0), the further
     * grids a tenth of it (none below 0.1: under 1 %) */
    double psi_smoothing;
    int nodes;                   /* per phase, >= 3 (21) */
    const int *virtual_events;   /* n_sequence counts, or NULL: none */
    int constant_inputs;         /* one input value per (sub-)phase (0: linear) */
    /* Parameters optimised within bounds (at most HES_COLLOC_MAX_DESIGN);
     * 0: for the psi objectives of a model without inputs every shape
     * parameter with search bounds, else none. */
    int n_design;
    const char *const *design;
    const double *design_lo, *design_hi;
    /* Bounds on components of the first state (by state name), replacing
     * the model's for those components. */
    int n_bounds;
    const char *const *bound_states;
    const double *bound_lo, *bound_hi;
    const hes_gait *init;        /* the start (resampled); NULL: a simulation
                                    of the model's orbit guess */
    int maxeval;                 /* evaluations of the cost, >= 1, per grid (1000) */
    /* Further grids (mesh continuation): the gait optimised on
     * `nodes` is re-optimised on each of these in turn (nodes per phase,
     * each more than the one before, at most HES_TRAJOPT_MAX_GRIDS - 1),
     * from the previous grid's gait, so that the optimiser's psi is the
     * psi of a grid that resolves it instead of the coarse grid's (which it
     * can exploit: the knee biped's HES gait on 15 nodes has psi 0.264
     * there against 0.273 by shooting).  The solver on them: the one asked
     * for, except that for the hybrid and the default the reduced space
     * refines the previous optimum where it applies (IPOPT would move the
     * start off its active bounds).  0, NULL: none. */
    int n_finer;
    const int *finer_nodes;
    /* The evaluations of the cost on each further grid (n_finer of them,
     * each >= 1); NULL: maxeval on each.  A finer grid starts near its
     * optimum and each evaluation costs more, so it often needs fewer. */
    const int *finer_maxeval;
    int refine;                  /* the check grid's factor over the last grid; 1: no
                                    re-collocation (2) */
    /* hes_colloc_options.progress of the minimisation (may be NULL); with
     * several starts only start 0 reports, on the calling thread. */
    void (*progress)(void *ctx, int evaluation, double cost, double violation, double psi);
    void *progress_ctx;
    hes_nlp_solver solver;       /* hes_colloc_options.solver */
    int jobs;                    /* hes_colloc_options.jobs (1); with starts > 1 the
                                    threads that run the starts instead */
    /* Several starts (1 to HES_TRAJOPT_MAX_STARTS; 1): the first from the
     * start as given, start s > 0 from it with every free variable of the
     * first grid (inputs, virtual offsets, design parameters) moved by
     * start_spread (relative, 0.01) times max(|value|, 0.1) times a number
     * uniform in [-1, 1) drawn from seed and s, so that the runs differ
     * only in their path; each is optimised on every grid and re-analysed
     * by shooting, and the result is the start of least cost by shooting
     * (hes_trajopt_result.cost_shooting).  The optima of these programs
     * depend on the path (the knee biped's gaits move by 0.3 to 10 % in
     * their cost between runs that differ in the rounding); on `jobs`
     * threads several starts cost about the time of one (IPOPT's runs
     * take turns: its linear solver is not thread-safe).  Not for the feasible
     * objective (nothing to compare). */
    int starts;
    unsigned long seed;          /* (1) */
    double start_spread;         /* in (0, 1] (0.01) */
} hes_trajopt_options;

hes_trajopt_options hes_trajopt_options_default(void);

/* The relative difference of psi between the collocation and shooting
 * above which hes_trajopt_result.unresolved is set (Hermite-Simpson's
 * error on a resolved gait: 1e-3 at 11 SLIP nodes, 5e-8 to 3e-5 on the
 * refined knee-biped gaits). */
#define HES_TRAJOPT_GRID_TOL 1e-2

/* Grids of one run: the first and hes_trajopt_options.finer_nodes. */
#define HES_TRAJOPT_MAX_GRIDS 8
/* hes_trajopt_options.starts at most */
#define HES_TRAJOPT_MAX_STARTS 64

/* One start's outcome in hes_trajopt_result (hes_trajopt_options.starts). */
typedef struct {
    hes_status status;           /* of its optimisation (HES_OK: the rest is set) */
    char message[160];           /* why it failed ("" when it did not) */
    int have_shooting;           /* its re-analysis by shooting succeeded */
    double cost, cost_shooting;  /* as hes_trajopt_result's */
    double psi_shooting, energy; /* NaN where there is none */
    int evaluations;
    double seconds;
} hes_trajopt_start;

/* One grid's optimisation in hes_trajopt_result. */
typedef struct {
    int nodes, variables;        /* per phase; of its program */
    hes_nlp_solver solver;       /* the solver used there */
    int evaluations;             /* of the cost there */
    double psi, energy;          /* of its collocation at its end (energy NaN without inputs) */
    double seconds;              /* wall-clock time of its feasible start and optimisation */
} hes_trajopt_grid;

typedef struct {
    hes_gait gait;               /* the result (the refined one when refined_nodes > 0),
                                    its objective and psi set */
    int nodes;                   /* per phase of the last grid's collocation */
    int variables, constraints, path_constraints; /* of the last grid's collocation */
    int n_grids;                 /* the grids optimised on, in order (1 + n_finer) */
    hes_trajopt_grid grids[HES_TRAJOPT_MAX_GRIDS];
    int n_design;                /* the design parameters used (parameter indices) */
    int *design;
    double *design_lo, *design_hi;
    double psi_collocation;      /* psi of the optimised collocation (the last grid) */
    int refined_nodes;           /* nodes per phase of the refinement; 0: none */
    double psi_refined;          /* psi re-collocated on the finer grid (NaN: none) */
    double energy;               /* integral of the squared inputs (NaN without inputs) */
    double violation;            /* of the constraints at the end */
    double period;               /* sum of the phase durations */
    int evaluations, fallbacks;  /* of the minimisations, all grids (hes_colloc_result);
                                    with several starts the kept start's */
    double seconds;              /* wall-clock time of collocation and refinement; with
                                    several starts of all of them, shooting included */
    int n;                       /* dimension of the first state */
    double *return_map;          /* n x n, of the last collocation (hes_colloc_return_map) */
    /* The shooting re-analysis: its status (HES_OK: have_shooting) and
     * message, psi, verdict and psi's accuracy, max |P - P_shooting| /
     * max |P_shooting| (NaN where the maps do not compare), and
     * |psi_shooting - gait.psi| / psi_shooting. */
    int have_shooting;
    hes_status shooting_status;
    char shooting_message[512];
    double psi_shooting;
    hes_verdict verdict;
    double psi_tol;
    double return_map_difference;
    double psi_difference;
    /* psi_difference above HES_TRAJOPT_GRID_TOL: the grid does not resolve
     * the gait's psi, and the optimiser may have used its discretisation
     * error (the rimless wheel with its angle as design, 15 nodes: psi 0.064
     * collocated, 0.461 by shooting); more nodes or a refinement resolve it */
    int unresolved;
    hes_colloc_objective objective; /* of the options, for the report */
    double weight;
    hes_nlp_solver solver;       /* the NLP solver of the last grid (never HES_NLP_DEFAULT) */
    /* The objective's value at the end of the last grid's optimisation
     * (hes_colloc_result.cost: the true cost, a psi floor's unsmoothed),
     * and the objective of the gait written (the refined one, when refined)
     * with its stability measure by shooting (NaN without shooting), by
     * which several starts are compared. */
    double cost, cost_shooting;
    /* Several starts (hes_trajopt_options.starts): each one's outcome, and
     * the one this result is (with one start: starts[0], its own, and 0). */
    int n_starts, best_start;
    hes_trajopt_start starts[HES_TRAJOPT_MAX_STARTS];
} hes_trajopt_result;

/* Runs the pipeline on the system's model and parameters (the solved and
 * design parameters end in the system).  HES_OK also when the shooting
 * re-analysis failed (have_shooting 0: its status and message say why);
 * otherwise the status of the failed step with the message in the system
 * (HES_EINVAL: a model without an orbit to collocate, an energy objective
 * without inputs, an unknown bounded state, options out of range;
 * HES_ENOTFOUND: an unknown design parameter).
 * Free the result with hes_trajopt_result_free (also after a failure). */
hes_status hes_trajopt_run(hes_system *sys, const hes_trajopt_options *opts,
                           hes_trajopt_result *res);
void hes_trajopt_result_free(hes_trajopt_result *res);

/* ==================================================== batch: many systems */

/* ----------------------------------------------------------------- plugins */

/*
 * A user model compiled as a shared module (lib/batch/plugin.c, libltdl) exports
 *     const hes_model *hes_plugin_model(void);
 * returning its description, whose abi field is HES_MODEL_ABI of the hes.h
 * it was compiled with (share/examples/rimless_wheel.c builds as one with
 * -DHES_PLUGIN; share/examples/Makefile shows the pkg-config build).
 * hes_plugin_load refuses a module without that function, with another ABI
 * or with an invalid model, with a message in msg.  path is a file: a name
 * without '/' is the file of that name in the current directory (never a
 * library of the loader's search path).  Load and destroy plugins
 * from one thread (libltdl's own state); the model then serves any number
 * of systems on any threads.
 */
#define HES_PLUGIN_ENTRY "hes_plugin_model"
typedef struct hes_plugin hes_plugin;
hes_status hes_plugin_load(const char *path, hes_plugin **plugin, const hes_model **model,
                           char *msg, size_t len);
/* An event-selected system as a plugin exports instead
 *     const hes_ess_model *hes_plugin_ess_model(int *abi);
 * which sets *abi = HES_ESS_MODEL_ABI (share/examples/ball_walls.c); the
 * loader refuses another ABI or a model hes_ess_validate refuses. */
#define HES_PLUGIN_ESS_ENTRY "hes_plugin_ess_model"
hes_status hes_plugin_load_ess(const char *path, hes_plugin **plugin,
                               const hes_ess_model **model, char *msg, size_t len);
/* Either kind: exactly one of *model and *ess is set on success (`hes
 * --model PATH.so`). */
hes_status hes_plugin_load_any(const char *path, hes_plugin **plugin, const hes_model **model,
                               const hes_ess_model **ess, char *msg, size_t len);
/* Unloads the module: its model must not be used afterwards. */
void hes_plugin_destroy(hes_plugin *plugin);

/* ------------------------------------------------------------------ sweeps */

/*
 * Batch stability analysis (lib/batch/sweep.c): the orbit, multipliers and psi at
 * every point of a list of parameter values, on `jobs` threads, each with
 * its own system.  Consecutive points warm-start from each other's orbit;
 * a point that fails is reported with its status and message.
 */
#define HES_SWEEP_MAX_MULT 16
#define HES_SWEEP_MAX_PARAMS 64
#define HES_SWEEP_MAX_STATE 32

typedef struct {
    int index;                   /* of the point */
    hes_status status;           /* HES_OK, or why the point failed */
    char message[320];           /* when it failed */
    double psi, period;
    int stable;                  /* verdict == HES_STABLE */
    hes_verdict verdict;
    int n_mult;                  /* nontrivial multipliers, by modulus (at most 16) */
    double re[HES_SWEEP_MAX_MULT], im[HES_SWEEP_MAX_MULT];
    int n_values;                /* every parameter after the analysis (solved ones */
    double values[HES_SWEEP_MAX_PARAMS]; /* solved, optimised ones optimised) */
    int n_x0;                    /* the orbit's section state (its first 32 components) */
    double x0[HES_SWEEP_MAX_STATE];
    /* Nonzero when the orbit left the branch of its neighbours: see
     * hes_sweep_branch_jump (0 when the point has no two computed
     * predecessors on a line). */
    int branch_jump;
} hes_sweep_row;

typedef struct {
    int n_params;                /* swept parameters (indices into the model's) */
    const int *params;
    int n_points;
    const double *values;        /* n_points x n_params, point after point */
    int optimize;                /* nonzero: hes_shape_optimize at each point (defaults) */
    int jobs;                    /* threads, >= 1 */
    const unsigned char *skip;   /* n_points flags (e.g. done before a resume), or NULL */
    /* Called once per point, serialised, in the order of the points' indices
     * (skipped points have no row), whatever the number of threads; nonzero
     * stops the sweep (points already running finish).  With next_block the
     * rows come in completion order and without branch_jump: the caller that
     * collects them orders them with a hes_sweep_order. */
    int (*row)(void *ctx, const hes_sweep_row *row);
    void *ctx;
    /* Optional, for sweeps shared by several processes (hes sweep under
     * mpirun): returns the first index of the next block of `block`
     * consecutive points to compute (>= n_points: none left); called
     * serialised.  NULL: a counter within this process. */
    int (*next_block)(void *ctx, int block);
    /* The index strides of the lines along which neighbours are compared
     * (hes_sweep_branch_jump): for a tensor grid the product of the counts of
     * the axes after each axis; NULL (or 0 strides): stride 1 only. */
    int n_strides;
    const int *strides;
    const hes_settings *settings; /* every point's solver settings (NULL: defaults) */
} hes_sweep_opts;

/*
 * Branch jumps.  Three points a, b, c equally spaced on a line of parameter
 * space (p_c - p_b = p_b - p_a != 0, to 1e-9 of the values) whose orbits lie
 * on one smooth branch change each orbit quantity q (the period, each
 * section-state component) by nearly equal steps: q_c - q_b = (q_b - q_a) +
 * O(h^2).  The step from b to c is more than the spacing explains when
 * |q_c - q_b| > 3 |q_b - q_a| + 1e-6 max(1, |q_a|, |q_b|, |q_c|): the orbit at
 * c is then likely another orbit than the continuation of b's (a neighbouring
 * branch, a period-doubled orbit), or the branch turns in a fold between
 * them; follow a branch by continuation instead.  The point after a jump
 * is not flagged (its step is small beside the jump).  Returns 1 for a jump
 * at c, 0 otherwise (also when the points are not equally spaced or any
 * failed).  point_a, point_b, point_c: the n_params swept values.
 */
int hes_sweep_branch_jump(int n_params, const double *point_a, const double *point_b,
                          const double *point_c, const hes_sweep_row *a, const hes_sweep_row *b,
                          const hes_sweep_row *c);

/*
 * Delivery of sweep rows in index order (lib/batch/sweep_order.c): rows put
 * in any order are passed to emit in the order of their indices, skipped
 * points passed over, each with branch_jump set from its predecessors along
 * the strides (hes_sweep_branch_jump).  Rows that arrive early are held until
 * those before them arrive.  values: n_points x n_params, as in
 * hes_sweep_opts, kept by the caller while the object lives; skip may be
 * NULL.  put returns emit's nonzero value (the row was not taken), -1 for
 * an index out of range or delivered before, or out of memory.
 */
typedef struct hes_sweep_order hes_sweep_order;
hes_sweep_order *hes_sweep_order_new(int n_points, int n_params, const double *values,
                                     const unsigned char *skip, int n_strides, const int *strides);
int hes_sweep_order_put(hes_sweep_order *order, const hes_sweep_row *row,
                        int (*emit)(void *ctx, const hes_sweep_row *row), void *ctx);
void hes_sweep_order_destroy(hes_sweep_order *order);

/* params: the base parameter vector (NULL: the model's defaults).  Returns
 * HES_OK, or HES_EINVAL for an invalid model, bad options or when the
 * callback stopped it (HES_ENOMEM), with msg (may be NULL) saying why; each
 * point's own failure is in its row. */
hes_status hes_sweep_run(const hes_model *model, const double *params, const hes_sweep_opts *o,
                         char *msg, size_t len);

/* n Latin hypercube samples in the box [lo, hi] (dim dimensions): every
 * coordinate takes each of n equal strata once.  out: n x dim. */
hes_status hes_latin_hypercube(int n, int dim, const double *lo, const double *hi,
                               unsigned long seed, double *out);

/* n evenly spaced values in [lo, hi] (lib/batch/grid.c): out[k] = lo + k (hi -
 * lo) / (n - 1), computed from the nearer end so that out[0] = lo and
 * out[n-1] = hi exactly and a range symmetric about 0 gives symmetric values
 * (0 itself in the middle for n odd); n = 1 gives lo.  HES_EINVAL unless
 * n >= 1, lo <= hi, both and hi - lo finite, and out != NULL. */
hes_status hes_grid_linspace(double lo, double hi, int n, double *out);
/* The number of points of a tensor grid with count[j] values in dimension j
 * (dim >= 1): HES_EINVAL for a count < 1 or a product above INT_MAX. */
hes_status hes_grid_tensor_size(int dim, const int *count, long *n_points);
/* The tensor grid itself, point after point (out: n_points x dim), the first
 * dimension varying slowest and the last fastest; dimension j takes the
 * hes_grid_linspace values of [lo[j], hi[j]].  HES_EINVAL as those two. */
hes_status hes_grid_tensor(int dim, const double *lo, const double *hi, const int *count,
                           double *out);

/* A sweep of one component of an initial state (lib/batch/state_sweep.c;
 * `hes simulate --sweep`, decoupled-limbs paper Fig. 1): x0 (of `mode`) with
 * component `state` set to each of the n values hes_grid_linspace(lo, hi, n)
 * gives, simulated with every guard armed over [0, time] (hes_simulate with
 * t_end = time), one trajectory.  Works for any model, with or without a
 * periodic orbit. */
typedef struct {
    int mode;                    /* the mode of x0 */
    int dim;                     /* the number of values of x0: that mode's dim */
    const double *x0;
    int state;                   /* the swept component, 0 <= state < dim */
    double lo, hi;               /* finite, lo <= hi */
    int n;                       /* values, >= 1 (1: lo) */
    double time;                 /* > 0 */
    /* Called before simulation k of n, of value `value` (may be NULL). */
    void (*progress)(void *ctx, int k, int n, double value);
    void *progress_ctx;
} hes_state_sweep_opts;

typedef struct {
    double value;                /* of the swept component */
    hes_traj traj;               /* the run, also up to where a failed one stopped */
    hes_status status;           /* HES_OK, or why the run failed (a result too) */
    char message[512];           /* hes_system_errmsg at the failure */
} hes_state_sweep_point;

typedef struct {
    int mode, state, dim;
    double *x0;                  /* dim values, as given */
    double lo, hi, time;
    int n;
    hes_state_sweep_point *points; /* n of them */
} hes_state_sweep;

/* HES_OK when every value was simulated (some may have failed: see their
 * status); HES_EINVAL for bad options, HES_ENOMEM, with the message in the
 * system's.  Free the result with hes_state_sweep_free. */
hes_status hes_state_sweep_run(hes_system *sys, const hes_state_sweep_opts *opts,
                               hes_state_sweep *out);
void hes_state_sweep_free(hes_state_sweep *sweep);

/* ========================================================== io: documents */

/* -------------------------------------------------------------------- JSON */

/* JSON documents of lib/README.md, section 5 (Jansson), as malloc'd strings the
 * caller frees; NULL on allocation failure.  hes_analysis_json gives
 * "problem", "params", "orbit", "monodromy", "multipliers", "psi", "stable",
 * for autonomous orbits "return_map" (the projected matrix the multipliers
 * come from), when res->have_check "check", and when the orbit has
 * simultaneous events "simultaneous": [{"first", "second", "dt",
 * "other_order", "coupling", "outcome_gap", "piece_gap", "continuous",
 * "differentiable", "psi_taken", "psi_other"}]. */
char *hes_analysis_json(const hes_system *sys, const hes_analysis *res);
/* "problem", "params", "orbit" (section state), "trials", "converged", "tol",
 * "radius", "region" ("ball" or "box"), "seed". */
char *hes_trials_json(const hes_system *sys, const hes_orbit *orbit,
                      const hes_trials *trials);
/* hes_analysis_json plus "psi_gradient": {NAME: dpsi/dNAME} for every shape
 * parameter, "psi_gradient_method": "analytic"|"finite-differences" and
 * "psi_gradient_nonsmooth": bool. */
char *hes_analysis_gradient_json(const hes_system *sys, const hes_analysis *res,
                                 const hes_shape *sh, const hes_shape_eval_result *ev);
/* "problem", "params", "psi_initial", "psi", "stable", "shape" {NAME: value},
 * "bounds" {NAME: [lo, hi]}, "evaluations", "gradient"
 * ("analytic"|"finite-differences"|"none"), "fallbacks", "algorithm",
 * "measure", "multipliers", "orbit"; and "verify" (trials, converged,
 * radius, steps, tol) when trials != NULL. */
char *hes_shape_json(const hes_system *sys, const hes_shape_result *res,
                     hes_measure measure, const hes_trials *trials);
/* What a model is made of (lib/io/json_model.c; `hes info --json`):
 * "name", "description", "modes" [{"name", "dim", "states"}], "transitions"
 * [{"name", "from", "to", "direction", "clock_reset"}], "params" [{"name",
 * "default", "unit", "description", "shape", "solved", "positive", "min",
 * "max", "search"}], "orbit" {"mode", "section", "sequence", "autonomous",
 * "period_param", "free_states", "free_params", "residual"}; NULL also for
 * a NULL model. */
char *hes_model_json(const hes_model *model);
/* What an ESS model is made of (lib/io/json_ess.c; `hes info --json` of an
 * ESS problem): {"name", "description", "integrator": "ess", "states":
 * [...], "events": [...], "params": [as hes_model_json's, "shape" and
 * "solved" false, "search" null], "orbit_guess": {"x0", "period",
 * "section" (index)} or null}.  Unnamed states and events are "x[i]" and
 * "h[i]". */
char *hes_ess_model_json(const hes_ess_model *model);
/* An ESS run (`hes simulate --integrator ess --json`): {"problem",
 * "integrator": "ess", "eps", "params": {NAME: value}, "states": [...],
 * "t0", "x0", "t_end", "samples": [{"t", "x": [...]}] (the output times
 * of opts, or else the recorded step boundaries), "x_end", "signs_end",
 * "counts": {"integration_steps", "projections", "sign_changes",
 * "rearms", "refused"}, "jacobian": rows of d x(t_end)/d x0, or null}. */
char *hes_ess_result_json(const hes_ess *ess, const hes_ess_options *opts, double t0,
                          const double *x0, const hes_ess_result *res);
/* An ESS periodic orbit (`hes analyze PROBLEM --json` of an ESS problem):
 * {"problem", "integrator": "ess", "eps", "params", "states", "section" (the
 * fixed component's name), "orbit": {"x0", "period", "flow", "iterations",
 * "residual", "counts": {"projections", "refused", "sign_changes"}},
 * "monodromy", "return_map" (rows), "multipliers": [{"re", "im", "abs"}],
 * "psi", "stable", "verdict", "psi_tolerance", "eps_error", "eps_order"
 * (null without check_eps)}; NULL on a bad argument or out of memory. */
char *hes_ess_orbit_json(const hes_ess *ess, const hes_ess_orbit_options *opts,
                         const hes_ess_orbit *orbit);
/* A state sweep (`hes simulate --sweep --json`): "problem", "params",
 * "sweep" {"name" (of the state; "x[i]" without names), "values", "mode",
 * "x0", "time"}, "results" [{"value", "events" [transition names],
 * "event_times", "mode", "t", "x" (the final state), "failure": null or
 * "status: message"}]. */
char *hes_state_sweep_json(const hes_system *sys, const hes_state_sweep *sweep);
/* A trajopt result (`hes trajopt --json`): "problem", "params" (the gait's),
 * "objective", "weight" (weighted only), "nodes", "variables",
 * "constraints", "path_constraints", "design" {NAME: value}, "phases"
 * [{"mode", "duration", "ends_with", "virtual", "offset" (virtual only)}],
 * "period", "energy", "psi_collocation", "psi_shooting", "verdict",
 * "refined_nodes", "return_map_difference", "psi_refined",
 * "constraint_violation", "evaluations", "seconds" (null where there is no
 * value). */
char *hes_trajopt_json(const hes_system *sys, const hes_trajopt_result *res);
/* One row of a parameter sweep as one line of JSON (`hes sweep --json`;
 * lib/io/json_sweep.c), without a newline: {"index", "params": {NAME: value}
 * for the n_swept parameters swept (indices into the model's) at `point`,
 * "status": "ok" or hes_strerror, then "psi", "stable", "verdict", "period",
 * "multipliers": [[re, im], ...] or, for a failed row, "message" (its quotes
 * and backslashes as ', its line breaks as blanks)}; numbers as %.17g. */
char *hes_sweep_row_json(const hes_model *model, int n_swept, const int *swept,
                         const double *point, const hes_sweep_row *row);

/* ------------------------------------------------------------- gait files */

/* Gait files: JSON, format "hes-gait" version 1 (lib/io/gait_json.c).
 * hes_gait_write: HES_OK, HES_EINVAL (NULL argument) or HES_EIO (the stream
 * failed).  hes_gait_read: HES_OK, HES_EINVAL (unreadable or malformed file,
 * or not a gait of base) or HES_ENOMEM, with msg saying why; on failure *g is
 * left empty.  hes_gait_problem: the problem name a gait file is for (to find
 * its base model), with the same statuses as hes_gait_read. */
hes_status hes_gait_write(const hes_gait *g, const hes_model *base, FILE *out);
hes_status hes_gait_read(const char *path, const hes_model *base, hes_gait *g, char *msg,
                         size_t len);
hes_status hes_gait_problem(const char *path, char *name, size_t name_len, char *msg,
                            size_t len);

#ifdef __cplusplus
}
#endif

#endif /* HES_H */
