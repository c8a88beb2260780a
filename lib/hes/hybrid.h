/**
 * \file
 * hes/hybrid.h - a system: simulation, variational and saltation matrices,
 * monodromy, stability, orbits, analysis (part of <hes.h>, which includes
 * every area's header).
 */
#ifndef HES_H_HYBRID
#define HES_H_HYBRID

#include <hes/problems.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================== hybrid: computing on one system */

/* ------------------------------------------------------------------ system */

/** A model of either kind (hes_kind) with its parameter values, solver settings
 * and workspaces: what every computation on one system takes.  One system
 * serves one thread at a time. */
typedef struct hes_system hes_system;

/** What a system integrates: an event-driven hybrid model (hes_model:
 * modes, guards, resets, saltation matrices) or an event-selected system
 * (hes_ess_model, the ESS integrator).  Every function of this header and
 * the layers above takes either kind where the mathematics allows: the
 * orbit, its monodromy and stability (hes_analyze), sweeps and the
 * parameter functions.  What needs modes and saltation matrices (a
 * simulation's events, shape parameters, collocation, impact sets)
 * refuses an ESS system with HES_EINVAL saying so. */
typedef enum {
    HES_KIND_HYBRID = 0,     /**< an event-driven hybrid model (hes_model) */
    HES_KIND_ESS = 1         /**< an event-selected system (hes_ess_model) */
} hes_kind;
/** "hybrid" or "ess" (NULL for another value). */
const char *hes_kind_name(hes_kind kind);

/** A system's solver settings, with their defaults in parentheses
 * (hes_system_get_settings, hes_system_set_settings). */
typedef struct {
    /** @{ */
    double rtol, atol;       /**< integrator tolerances (default 1e-12, 1e-12) */
    /** @} */
    double graze_tol;        /**< grazing if |Dtg + Dxg F_I| <= graze_tol * |(Dtg, Dxg)| |(1, F_I)|,
                                  i.e.\ the flow is within that angle of the guard surface (1e-6) */
    int zeno_events;         /**< Zeno: this many events ... (10) */
    double zeno_window;      /**< ... within this much time (1e-3) */
    int max_events;          /**< per simulation call (100000) */
    double max_phase_time;   /**< per phase; from the model or 100 */
    double newton_tol;       /**< orbit residual, max norm relative to each component's
                                  scale (hes_orbit_find) (1e-10) */
    int newton_maxiter;      /**< (50) */
    double fd_step;          /**< relative step of central differences (1e-5) */
    int fd_order;            /**< order of the return map's central differences in the
                                  monodromy check (hes_return_map_fd): 2, or 4 for the
                                  Richardson stencil on h and 2h (2) */
    /** Budgets that make a hopeless simulation fail fast with a message
     * instead of running for minutes (HES_ESOLVER): */
    int max_steps;           /**< integrator steps per phase (100000; a phase of the
                                  built-in models takes at most a few thousand) */
    double max_wall_time;    /**< seconds of wall-clock time per simulation call
                                  (hes_simulate, hes_variational) (10); HUGE_VAL: none */
    double max_search_time;  /**< seconds of wall-clock time for one orbit search
                                  (hes_orbit_find: every Newton iteration and line-search
                                  trial) (120); HUGE_VAL: none */
    int check_derivatives;   /**< nonzero (default): hes_analyze checks the model's
                                  supplied Jacobians at the orbit and fails with
                                  HES_EMODEL, naming the entry, when one disagrees
                                  with differences of its own callback */
} hes_settings;

/** Creates a system for a model with default parameter values and settings.
 * Returns HES_OK and the system in *out, or HES_EINVAL for an invalid model
 * (err, if not NULL, says what is wrong: hes_model_validate's message) or
 * HES_ENOMEM with *out NULL. */
hes_status hes_system_new(const hes_model *model, hes_system **out, hes_error *err);
/** Frees a system and its workspaces (NULL: nothing); its model is the caller's. */
void hes_system_destroy(hes_system *sys);

/** A system of an event-selected model (the ESS integrator, kind
 * HES_KIND_ESS), with its parameters' defaults and the orbit options of
 * hes_system_set_ess_options.  HES_EINVAL for a model hes_ess_new refuses
 * (err says why), HES_ENOMEM. */
hes_status hes_system_new_ess(const hes_ess_model *model, hes_system **out, hes_error *err);
/** The system's kind. */
hes_kind hes_system_kind(const hes_system *sys);
/** The system's model: the hybrid one (NULL for an ESS system) and the ESS
 * one (NULL for a hybrid system). @{ */
const hes_model *hes_system_model(const hes_system *sys);
const hes_ess_model *hes_system_ess_model(const hes_system *sys);
/** @} */
/** The model's name, and its parameters (n_params of them; the values are
 * hes_system_params), whatever its kind. @{ */
const char *hes_system_name(const hes_system *sys);
int hes_system_n_params(const hes_system *sys);
/** @} */
/** Parameter i's description (its name, range and flags; NULL outside). */
const hes_param *hes_system_param_info(const hes_system *sys, int i);
/** Detail of the last failure ("" if none). */
const char *hes_system_errmsg(const hes_system *sys);

/** The system's settings (the defaults for NULL). */
hes_settings hes_system_get_settings(const hes_system *sys);
/** Replaces the system's settings: HES_EINVAL, naming the first setting out of
 * range, for a tolerance, count or budget that is not positive (fd_step in
 * (0, 1), fd_order 2 or 4, zeno_events >= 2, graze_tol and zeno_window >= 0).  An ESS system's
 * orbit options take the budget names (hes_system_set_ess_options). */
hes_status hes_system_set_settings(hes_system *sys, const hes_settings *s);

/** Parameter values.  set_param validates (finite, range, positivity).
 * get_param: HES_ENOTFOUND for an unknown name.  hes_system_params: the whole
 * vector (hes_system_n_params values). @{ */
hes_status hes_system_set_param(hes_system *sys, const char *name, double value);
hes_status hes_system_get_param(const hes_system *sys, const char *name, double *value);
const double *hes_system_params(const hes_system *sys);
/** @} */
/** Runs the range checks and the model's validate() on the current values. */
hes_status hes_system_check_params(hes_system *sys);

/* -------------------------------------------------------------- simulation */

/** An event of a trajectory: a transition taken at time t. */
typedef struct {
    int transition;          /**< index into model->transitions */
    double t;                /**< absolute time of the event */
    double tm;               /**< model time of the event (before any clock reset) */
    double *x_minus;         /**< n_I */
    double *x_plus;          /**< n_J */
} hes_event;

/** A phase of a trajectory: the flow of one mode between two events. */
typedef struct {
    int mode;                /**< the phase's mode */
    /** @{ */
    double t0, t1;           /**< absolute start and end time */
    /** @} */
    double tm0;              /**< model time at the start */
    /** @{ */
    double *x0, *x1;         /**< state at start and end (dim of mode) */
    /** @} */
    double *A;               /**< variational matrix dim x dim, or NULL */
} hes_phase;

/** A simulated trajectory: its phases and the events between them; free it with
 * hes_traj_free. */
typedef struct {
    /** the numbers of phases and of events (n_phases or n_phases - 1) @{ */
    int n_phases, n_events;
    /** @} */
    hes_phase *phases;       /**< phase k ends with event k (if k < n_events) */
    hes_event *events;       /**< n_events events */
    hes_status status;       /**< why the simulation ended: HES_OK when its stop rule was met */
} hes_traj;

/** Frees a trajectory's phases and events and clears it (NULL: nothing). */
void hes_traj_free(hes_traj *traj);

/** How a simulation stops.  A run stops at the first of: `n_section` events of
 * transition `section` (if n_section > 0), absolute time t_end (if finite),
 * a failure. */
typedef struct {
    int section;             /**< the transition that counts (with n_section) */
    int n_section;           /**< stop after this many events of `section` (0: no such stop) */
    double t_end;            /**< stop at this absolute time (infinite: no such stop) */
    int sequence_only;       /**< arm only the next transition of the model's orbit sequence */
    int after_transition;    /**< the start state lies just after an event of this
                                  transition (-1: none); its own root right at the
                                  start is ignored */
    int sensitivities;       /**< compute A for every phase */
} hes_sim_options;

/** Every field to its default: no section, no end time, every event. */
void hes_sim_options_init(hes_sim_options *o);

/** Simulates from state x0 (mode `mode`) at absolute time t0 and model time
 * tm0.  The trajectory is returned even on failure (traj->status says why);
 * the return value is traj->status.  A mode with hes_mode.normalize has x0,
 * every reset's output and every phase's final state (which the
 * integrator's interpolation leaves off the manifold by its tolerance)
 * projected onto its manifold. */
hes_status hes_simulate(hes_system *sys, int mode, double t0, double tm0,
                        const double *x0, const hes_sim_options *opts,
                        hes_traj *traj);

/* ------------------------------------------------- variational (one phase) */

/** Variational matrix A = d phi(t1; t0, x0) / d x0 of mode `mode` over model
 * time [tm0, tm0 + duration], from CVODES forward sensitivities; no guard is
 * armed.  x1 (may be NULL) receives the final state. */
hes_status hes_variational(hes_system *sys, int mode, double tm0, double duration,
                           const double *x0, double *x1, double *A);

/* ------------------------------------------------------ saltation matrices */

/**
 * Saltation matrix of transition I -> J at time t (model time) and pre-event
 * state x (paper eq.\ 2):
 *
 *     Xi = DxR + (F_J - DxR F_I - DtR) Dxg / (Dtg + Dxg F_I)
 *
 * with F_J evaluated at R(t, x).  xi receives n_J x n_I values, in the
 * ambient coordinates even where a mode has a tangent-space chart (the
 * monodromy's factor is then P_J Xi E_I).  Fails with HES_EGRAZING when the
 * denominator is tiny relative to its terms.
 */
hes_status hes_saltation(hes_system *sys, int transition, double t,
                         const double *x, double *xi);

/* --------------------------------------------------------------- monodromy */

/** What a factor of a monodromy is. */
typedef enum {
    HES_FACTOR_PHASE,        /**< a phase's variational matrix A_i */
    HES_FACTOR_EVENT         /**< an event's saltation matrix Xi_i (or the section matrix) */
} hes_factor_kind;

/** A factor of a monodromy: one phase's or one event's matrix. */
typedef struct {
    hes_factor_kind kind;    /**< phase or event */
    int index;               /**< mode (phase) or transition (event) */
    /** the matrix's dimensions @{ */
    int rows, cols;
    /** @} */
    double *m;               /**< rows x cols, column-major (in the tangent coordinates of
                                  the modes' charts where they have one: tdim_J x tdim_I) */
    double t;                /**< absolute time of the event or the end of the phase */
} hes_factor;

/** Phi = F_k ... F_2 F_1 in the order of `factors` (factors[0] applied first). */
typedef struct {
    int n;                   /**< dimension of the state at the section (its tangent
                                  dimension tdim when the orbit's mode has a chart) */
    int n_factors;           /**< the number of factors */
    hes_factor *factors;     /**< n_factors of them, factors[0] applied first */
    double *phi;             /**< n x n monodromy */
    double *proj;            /**< n x n return-map Jacobian (autonomous), else NULL */
    double accuracy;         /**< estimated error of the analysed matrix's entries relative
                                  to its norm: 100 max(rtol, atol) of the integration or
                                  the orbit's Newton tolerance, whichever is larger (0 in
                                  matrices assembled by hand: rounding only) */
    double *normal;          /**< n: unit left null vector of proj (normal^T proj = 0); the zero
                                  vector when the return map has no trivial multiplier; else NULL */
    int autonomous;          /**< nonzero: an autonomous orbit (proj and normal are set) */
    /** The orbit's symmetric directions at x0 (hes_orbit_spec.symmetries),
     * n x n_symmetric column-major in the coordinates of the analysed
     * matrix; 0 and NULL: none.  hes_stability_compute analyses the quotient
     * by them. @{ */
    int n_symmetric;
    double *symmetric;
    /** @} */
} hes_monodromy;

/** Builds the monodromy from a periodic trajectory computed with
 * sensitivities: one factor per phase (A_i) and per event (Xi_i).  For an
 * autonomous orbit also the return-map Jacobian (projection onto the Poincare
 * section at the section event, lib/README.md, section 4):
 *
 *     P = DxR_s (I - F_I Dxg_s / (Dxg_s F_I)) A_N Xi_{N-1} ... A_1
 *
 * which equals (I - F g^T / (g^T F)) Phi when the section reset is the
 * identity.  Its range lies in the section, so normal^T P = 0 with normal a
 * unit left null vector of DxR_s (I - F_I Dxg_s / (Dxg_s F_I)), which is
 * DxR_s^{-T} Dxg_s^T normalised when DxR_s is invertible and exists whatever
 * its rank (a plastic impact at the section: see monodromy.c): its
 * eigenvalues are the nontrivial multipliers plus a 0 whose left eigenvector is
 * the section normal.  (The right eigenvector of that 0 is the flow direction
 * F only when nothing in the model depends on the time since the section
 * event; with a clock reset at the section, as in the SLIP touchdown law,
 * a shift along the flow also shifts the clock and is not trivial.)
 * Where a mode has a tangent-space chart (hes_mode.retract) every factor is
 * in its tangent coordinates, at the factor's own ends: a phase's
 * P(x1) A E(x0), an event's P_J(x+) Xi E_I(x-), the section matrix
 * P_J S E_I (lib/hybrid/tangent.c). */
hes_status hes_monodromy_compute(hes_system *sys, const hes_traj *period,
                                 int autonomous, hes_monodromy *mono);
/** Frees a monodromy's factors and matrices and clears it (NULL: nothing). */
void hes_monodromy_free(hes_monodromy *mono);

/* --------------------------------------------------------------- stability */

/** The verdict on a stability measure psi known to within tol: stable when
 * psi < 1 - tol, unstable when psi > 1 + tol, and marginal (neither: psi = 1
 * within the accuracy of the computation, e.g.\ a neutral family of orbits or
 * a parameter exactly on the boundary of the stable region) otherwise. */
typedef enum {
    HES_UNSTABLE = 0,        /**< psi > 1 + tol */
    HES_STABLE = 1,          /**< psi < 1 - tol */
    HES_MARGINAL = 2         /**< psi = 1 within tol */
} hes_verdict;
/** The verdict on psi known to within tol (hes_verdict). */
hes_verdict hes_verdict_of(double psi, double tol);
/** "stable", "unstable" or "marginal". */
const char *hes_verdict_name(hes_verdict verdict);

/** The multipliers of a monodromy and the stability measure psi
 * (hes_stability_compute); free it with hes_stability_free. */
typedef struct {
    int n;                   /**< dimension of the analysed matrix */
    int n_mult;              /**< nontrivial multipliers (n, or n - 1 autonomous) */
    /** @{ */
    double *re, *im;         /**< n_mult multipliers sorted by modulus, descending */
    /** @} */
    double *abs;             /**< their moduli */
    /** @{ */
    double *vr, *vl;         /**< n x n right/left eigenvectors of the analysed
                                  matrix in LAPACK dgeev layout (column j, or the
                                  pair j, j+1 as real and imaginary parts) */
    /** @} */
    /** @{ */
    double *all_re, *all_im; /**< all n eigenvalues of the analysed matrix */
    /** @} */
    int *order;              /**< order[k]: index in all_* of multiplier k */
    int trivial;             /**< index of the trivial eigenvalue 0 (autonomous: n - 1), or -1 */
    double trivial_abs;      /**< |normal^T P| / max(1, |P|_F): how far P is from mapping
                                  into the section (~1e-16; above 1e-8 is an error) */
    double psi;              /**< max |lambda| of the nontrivial multipliers */
    double cond;             /**< condition number 1/|w^H v| (unit eigenvectors) of the
                                  maximising multiplier; huge when it is repeated or
                                  defective and psi is then accurate only to ~sqrt(eps) */
    double psi_tol;          /**< accuracy of psi: min(cond delta, delta^(1/m)) with delta =
                                  mono->accuracy max(1, |M|_F) the error of the matrix and
                                  m the size of the maximising multiplier's cluster (m
                                  eigenvalues within 2 delta^(1/m) of it: an error delta can
                                  merge them, and they move with its m-th root; m =
                                  n_mult when alone), at least 4 eps */
    hes_verdict verdict;     /**< hes_verdict_of(psi, psi_tol) */
    int stable;              /**< verdict == HES_STABLE: psi < 1 - psi_tol */
    /** With symmetric directions (hes_monodromy.symmetric): their number s,
     * and |W^T M U| / max(1, |M|_F), how far the analysed matrix M is from
     * leaving their span invariant.  The multipliers, psi, cond, psi_tol and
     * the trivial eigenvalue are then those of the quotient map W^T M W
     * (lib/hybrid/symmetry.c): n_mult = n - s (- 1 autonomous); the
     * eigenvalues of U^T M U (the symmetric multipliers, 1 up to the
     * integration's accuracy) are all_re, all_im[n - s .. n - 1], with the
     * orthonormal basis U of the directions as their vr and vl columns; the
     * quotient's eigenvectors are lifted by W (its left ones are the
     * matrix's own, its right ones its own up to a component along U). @{ */
    int n_symmetric;
    double symmetry_residual;
    /** @} */
    /** @{ */
    double *work;            /**< private: the workspace hes_stability_update reuses */
    size_t lwork_at;
    int lwork;
    /** @} */
} hes_stability;

/** Multipliers of a monodromy (dgeev with left and right eigenvectors).
 * Non-autonomous: the eigenvalues of mono->phi.  Autonomous: mono->proj maps
 * into the section (normal^T P = 0), so in an orthonormal basis [Q, normal]
 * it is block triangular [[Q^T P Q, *], [0, 0]]: the nontrivial multipliers
 * are exactly the eigenvalues of Q^T P Q, the trivial one is the 0 of the
 * normal direction (never "the eigenvalue nearest 1" or nearest 0).  With
 * symmetric directions (mono->symmetric) the same of the quotient map.
 * HES_EDEFECTIVE if P does not map into the section, or does not leave the
 * symmetric directions' span invariant to max(1e-6, 100 mono->accuracy)
 * (st->symmetry_residual, kept on that failure), or they are dependent. */
hes_status hes_stability_compute(const hes_monodromy *mono, hes_stability *st);
/** The same into an st that a previous hes_stability_compute or
 * hes_stability_update filled (or a zeroed one), reusing its arrays and
 * workspace when the dimension is unchanged: no allocation then, for loops
 * that evaluate psi many times.  On failure st keeps its storage (free it
 * with hes_stability_free) and its values are undefined. */
hes_status hes_stability_update(const hes_monodromy *mono, hes_stability *st);
/** Frees the arrays of a stability analysis and clears it (NULL: nothing). */
void hes_stability_free(hes_stability *st);

/* ------------------------------------------------------------------- orbit */

/** A periodic orbit (hes_orbit_find); free it with hes_orbit_free. */
typedef struct {
    int mode;                /**< mode of x0 */
    double t0;               /**< absolute start time (0) */
    double period;           /**< the period T */
    int n;                   /**< dim of x0 (the ambient state; the monodromy has the
                                  tangent dimension where the mode has a chart) */
    double *x0;              /**< section state */
    double *flow;            /**< F(x0) in mode `mode` */
    hes_traj traj;           /**< one period with sensitivities */
    int iterations;          /**< Newton iterations taken */
    double residual;         /**< final residual (max norm) */
    int autonomous;          /**< nonzero: the period ends at the section event */
} hes_orbit;

/** Finds the periodic orbit of the model's orbit spec by damped Newton
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
/** Where hes_orbit_find (and hes_analyze) start shooting: the free states of
 * x0 (the section state, dimension of the orbit's mode) instead of the
 * model's guess, e.g.\ the orbit of a neighbouring parameter point (a warm
 * start).  Only what Newton solves is seeded: the components that are not
 * free states always come from the model's guess at the system's parameters
 * (they are what the parameters define), and the solved parameters start
 * from the system's values.  When the orbit's mode has a tangent-space
 * chart the seed is retract(guess, d), d = local(x0, guess) kept at the
 * free (tangent) components only.  NULL: the model's guess. */
hes_status hes_system_set_orbit_start(hes_system *sys, const double *x0);
/** The period's guess where the orbit search needs one (an ESS system: its
 * model's orbit_period otherwise); NaN: the model's.  A hybrid orbit's
 * period is its section event's time, and a hybrid system ignores it.
 * HES_EINVAL for a value that is neither NaN nor finite and > 0. */
hes_status hes_system_set_orbit_period(hes_system *sys, double period);
/** The orbit's returns to its section per period: 1 (the default), or k for
 * an orbit of k returns (a period-k orbit of the Poincare map, as born at a
 * period doubling): the shooting runs through the section k times (a
 * stroboscopic orbit over k times the model's period), and the monodromy
 * and multipliers are those of the k-th return map.  HES_EINVAL for k < 1
 * or k > 64, or k > 1 for an ESS system. */
hes_status hes_system_set_orbit_returns(hes_system *sys, int k);
/** The orbit's returns per period (hes_system_set_orbit_returns). */
int hes_system_orbit_returns(const hes_system *sys);
/** Frees an orbit's arrays and trajectory and clears it (NULL: nothing). */
void hes_orbit_free(hes_orbit *orbit);

/** Return map of the orbit spec from a section state x0 (no Newton): the state
 * after one period (x_ret, dim n).  Used by the finite-difference checks. */
hes_status hes_orbit_return_map(hes_system *sys, const double *x0, double *x_ret);

/** A guard's clearance along an orbit (hes_orbit_guard_margins). */
typedef struct {
    double margin;  /**< the smallest interior local minimum, over the orbit's phases in
                         the transition's `from` mode, of the guard's value signed so that
                         it is positive on the side the guard is crossed from (g for
                         HES_DOWN, -g for HES_UP; for HES_ANY g at the local minimum of
                         |g| with the smallest |g|); +INFINITY when the guard has no
                         interior local minimum on the orbit */
    double t;       /**< the absolute time of that minimum (NaN when none) */
    int phase;      /**< the orbit trajectory's phase holding it (-1 when none) */
    int crossed;    /**< 1: the signed guard goes from positive to negative inside a
                         phase (after its start): the guard is crossed in its direction
                         where the orbit takes no event, a crossing the simulation's root
                         finding stepped over (hes_orbit_find refuses such an orbit) */
} hes_guard_margin;

/**
 * How close each transition's guard comes to being crossed along the orbit,
 * away from its own events: the test function of grazing
 * (lib/hybrid/guard_margin.c).  Along a phase of the orbit in the
 * transition's `from` mode I the signed guard is h(t) = s g(tm, x(t)),
 * s = +1 for HES_DOWN and HES_ANY, -1 for HES_UP, tm the model time; an
 * interior local minimum is a time strictly inside a phase where
 *
 *     h'(t) = s (Dtg + Dxg F_I)(tm, x(t))
 *
 * changes sign from negative to positive (for HES_ANY: a local minimum of
 * |g|).  The ends of phases are excluded: the transition's own event makes
 * g zero there, and after a reset a guard may start at zero and move away;
 * a guard that decreases monotonically to its event has no interior
 * minimum.  An event of another transition that leaves h continuous (an
 * identity reset, or the period's end, which is its start) joins the
 * phases on either side: a minimum of h exactly there counts (a ceiling's
 * clearance at an apex section).  Each phase is integrated again from its start (the trajectory
 * keeps only its ends), h' sampled on max(64, 256 (phase duration) /
 * (orbit's span)) sub-steps and each minimum located by Brent's method on
 * h' to the integrator's accuracy.  A margin that reaches zero is a
 * grazing orbit; past it the guard is crossed inside a phase (crossed),
 * and the orbit is not one of the full system (hes_orbit_find refuses it).
 * orbit from hes_orbit_find on sys at the system's current parameters; out
 * receives model->n_transitions entries.  Autonomous and stroboscopic
 * orbits alike.  HES_EINVAL for a NULL argument, an orbit without a
 * trajectory or an ESS system; a model callback's or the integrator's
 * failure as hes_simulate reports it.
 */
hes_status hes_orbit_guard_margins(hes_system *sys, const hes_orbit *orbit,
                                   hes_guard_margin *out);

/* -------------------------------------------------- simultaneous events */

/**
 * Two events of a trajectory within `tol` of each other (e.g.\ two feet
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
    int event;               /**< index of the first event of the pair */
    /** @{ */
    int first, second;       /**< transitions in the order taken */
    /** @} */
    /** @{ */
    int alt_first, alt_second; /**< the other order, which applies alt_second first
                                  (the counterpart of `second`) and then alt_first
                                  (that of `first`); -1: the model has none */
    /** @} */
    double dt;               /**< time between the two events */
    double coupling;         /**< eq.\ 6 cosine for two mechanical activations (impacts)
                                  in one system; NaN otherwise (e.g.\ releases) */
    double outcome_gap;      /**< max |x(first, second) - x(other order)|; NaN if incomparable */
    double piece_gap;        /**< max |L_taken - L_other| / max(1, |L_taken|) */
    int continuous;          /**< outcomes agree (1e-9) */
    int differentiable;      /**< pieces agree (1e-6): the ordinary monodromy is valid */
    /** @{ */
    double psi_taken, psi_other; /**< (orbits) psi with each piece; NaN otherwise */
    /** @} */
    int decoupled;           /**< |coupling| < HES_DECOUPLED_TOL: the limbs are inertially
                                  decoupled (0 when coupling is NaN) */
} hes_simultaneous;
#define HES_DECOUPLED_TOL 1e-9 /**< |coupling| below this: inertially decoupled limbs */

/* ----------------------------------------------------------------- analyze */

/** The analysis of a system's periodic orbit (hes_analyze); free it with
 * hes_analysis_free. */
typedef struct {
    hes_orbit orbit;         /**< the orbit */
    hes_monodromy mono;      /**< its monodromy */
    hes_stability stab;      /**< its multipliers, psi and verdict */
    int have_check;          /**< the check against central differences was run */
    double check_max_abs_diff; /**< |M - M_fd| max over entries, M = proj or phi */
    /** With the check also: the model's supplied Jacobians against central
     * differences (hes_model_check_derivatives) at the orbit's states, each
     * mode at the end of its last phase (n_checked 0: none supplied) */
    hes_deriv_report jacobians;
    int n_simultaneous;      /**< pairs of simultaneous events on the orbit (at most 4) */
    hes_simultaneous simultaneous[4]; /**< n_simultaneous of them */
    /** An ESS system's orbit (else NULL): its section, the band's error of
     * psi and its order, the period's projections (hes_ess_orbit; its mono
     * and stab are the ones above, moved here).  For an ESS system orbit
     * has x0, n, period, flow, iterations, residual and autonomous = 1,
     * and no trajectory; mono has phi = d x(T) / d x0, proj and normal. */
    struct hes_ess_orbit *ess;
} hes_analysis;

/** orbit -> monodromy -> multipliers (and the report of simultaneous events,
 * hes_simultaneous_orbit).  With settings.check_derivatives (the default)
 * or check != 0 it compares the model's supplied Jacobians (field, guard,
 * reset) with central differences of its own callbacks at two states of
 * each mode the orbit visits, the start and the end of its phase
 * (res->jacobians: the worse); with settings.check_derivatives a
 * disagreement (above HES_DERIV_TOL) is HES_EMODEL, the message naming the
 * entry.  With check != 0 it also recomputes the analysed matrix by
 * central differences of the full nonlinear return map.
 * An ESS system (HES_KIND_ESS) takes the same path with its own flow: the
 * orbit by hes_ess_orbit_find from the model's guess (or the orbit start
 * and period set on the system) with the system's orbit options, and with
 * check != 0 the monodromy d x(T) / d x0 against central differences of
 * full ESS runs (check_max_abs_diff).
 * On failure *res is left empty (nothing to free); on success release it with
 * hes_analysis_free(). */
hes_status hes_analyze(hes_system *sys, int check, hes_analysis *res);
/** Frees an analysis's arrays and clears it (NULL: nothing). */
void hes_analysis_free(hes_analysis *res);


#ifdef __cplusplus
}
#endif

#endif /* HES_H_HYBRID */
