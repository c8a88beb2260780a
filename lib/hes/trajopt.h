/**
 * \file
 * hes/trajopt.h - gaits and trajectory optimisation (part of <hes.h>, which
 * includes every area's header).
 */
#ifndef HES_H_TRAJOPT
#define HES_H_TRAJOPT

#include <hes/shaping.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ gaits */

/**
 * A gait: one period of a periodic orbit given as (sub-)phases with their
 * durations, states at equally spaced nodes, inputs (parameters of the base
 * model, linear in the time since the phase start between the nodes, or
 * constant), and virtual events (lib/shaping/gait.c).  Written by `hes trajopt -o`
 * as JSON and re-analysed and re-simulated through a derived model whose
 * modes are the phases (hes_gait_model).
 */
typedef struct {
    int mode;                    /**< base mode */
    int transition;              /**< base transition whose guard ends the phase */
    int is_virtual;              /**< ends at guard + offset = 0 with an identity reset */
    int direction;               /**< crossing direction of the end event (HES_DOWN, ...) */
    double offset;               /**< the virtual event's offset (unused for a physical one) */
    double duration;             /**< the phase's duration */
    int nodes;                   /**< the number of nodes, equally spaced in time */
    double *x;                   /**< nodes x dim of the mode, node after node */
    int u_rows;                  /**< nodes (linear) or 1 (constant) */
    double *u;                   /**< u_rows x n_inputs */
} hes_gait_phase;

/** A gait (as hes_gait_phase says): its base model's parameters, its inputs and
 * its phases; free it with hes_gait_free. */
typedef struct {
    char *problem;               /**< the base model's name */
    double *params;              /**< the base model's parameters, n_params of it */
    int n_params;                /**< the number of parameters */
    int n_inputs;                /**< the number of inputs */
    int *inputs;                 /**< base parameter indices */
    int n_phases;                /**< the number of (sub-)phases */
    hes_gait_phase *phases;      /**< n_phases of them, in the order of the period */
    char *objective;             /**< how it was made (informative) */
    /** @{ */
    double psi, energy;          /**< from the collocation (informative) */
    /** @} */
} hes_gait;

/** The gait z describes (parameters from the system).  Free with hes_gait_free. */
hes_status hes_colloc_gait(hes_colloc *c, const double *z, hes_gait *g);
/** z from a gait of the same model (--init FILE): per physical phase, states
 * and inputs resampled in time; virtual offsets from the guard at the
 * sub-phase ends.  Parameters of the gait go into the system. */
hes_status hes_colloc_from_gait(hes_colloc *c, const hes_gait *g, double *z);
/** Frees a gait's arrays and clears it (NULL: nothing). */
void hes_gait_free(hes_gait *g);
/** The derived model of a gait: mode i = phase i of the gait (the base mode
 * with the inputs set from the gait's schedule at the time since the phase
 * start), transition i ends phase i (the base guard, plus the offset for a
 * virtual event; the base reset or the identity), every transition restarts
 * the clock; its orbit spec starts at the gait's first state and keeps the
 * base spec's free states, residual and solved parameters.  Parameters are
 * the base model's.  The gait must outlive the model. */
hes_status hes_gait_model(const hes_gait *g, const hes_model *base, hes_model **out,
                          hes_error *err);
/** Inverse dynamics along a gait of a robot model (lib/shaping/
 * gait_invdyn.c; hes_robot_model_read): at every node the exact motion of
 * its mode (hes_robot_model_motion, the gait's inputs as the motor
 * parameters), the mode's pinned contact in stance.  The motors are the
 * robot's, on their joints, then one per joint a mode locks at its limit
 * (the stop's torque); *robot is the robot used (its motors name the
 * torques: hes_robot_motor_joint; free it).  HES_EINVAL for a model that
 * is not a robot model or a gait that is not one of its. */
hes_status hes_invdyn_gait(const hes_model *model, const hes_gait *gait,
                           const hes_invdyn_run_options *opts, hes_robot **robot,
                           hes_invdyn_run *out, hes_error *err);

/* ------------------------------------------------- trajectory optimisation */

/**
 * The pipeline of `hes trajopt` (lib/shaping/trajopt.c, core paper problem
 * (8)): collocate the model's periodic orbit (hes_colloc with the model's
 * hes_trajopt_spec: inputs, bounds, path constraints), solve for a feasible
 * start, minimise the objective, re-collocate the result on a finer grid
 * with its inputs held (with inputs or virtual events), and re-analyse the
 * gait independently by shooting through its derived model
 * (hes_gait_model, hes_analyze), comparing the two return maps.
 */
typedef struct {
    hes_colloc_objective objective; /**< HES_COLLOC_STABILITY */
    double weight;               /**< of the energy in HES_COLLOC_WEIGHTED, >= 0 (1) */
    hes_measure measure;         /**< the stability term (HES_MEASURE_PSI) */
    double smooth_weight;        /**< hes_colloc_options.smooth_weight (1e-3) */
    double psi_floor;            /**< hes_colloc_options.psi_floor (0) */
    /** hes_colloc_options.psi_floor_smoothing on the first grid
     * (HES_COLLOC_FLOOR_SMOOTHING); the further grids, which start at the
     * coarser grid's optimum, a tenth of it */
    double psi_floor_smoothing;
    /** hes_colloc_options.psi_smoothing on the first grid (0), the further
     * grids a tenth of it (none below 0.1: under 1 %) */
    double psi_smoothing;
    int nodes;                   /**< per phase, >= 3 (21) */
    const int *virtual_events;   /**< n_sequence counts, or NULL: none */
    int constant_inputs;         /**< one input value per (sub-)phase (0: linear) */
    /** Parameters optimised within bounds (at most HES_COLLOC_MAX_DESIGN);
     * 0: for the psi objectives of a model without inputs every shape
     * parameter with search bounds, else none. @{ */
    int n_design;
    const char *const *design;
    const double *design_lo, *design_hi;
    /** @} */
    /** Bounds on components of the first state (by state name), replacing
     * the model's for those components. @{ */
    int n_bounds;
    const char *const *bound_states;
    const double *bound_lo, *bound_hi;
    /** @} */
    const hes_gait *init;        /**< the start (resampled); NULL: a simulation
                                      of the model's orbit guess */
    int maxeval;                 /**< evaluations of the cost, >= 1, per grid (1000) */
    /** Further grids (mesh continuation): the gait optimised on
     * `nodes` is re-optimised on each of these in turn (nodes per phase,
     * each more than the one before, at most HES_TRAJOPT_MAX_GRIDS - 1),
     * from the previous grid's gait, so that the optimiser's psi is the
     * psi of a grid that resolves it instead of the coarse grid's (which it
     * can exploit: the knee biped's HES gait on 15 nodes has psi 0.264
     * there against 0.273 by shooting).  The solver on them: the one asked
     * for, except that for the hybrid and the default the reduced space
     * refines the previous optimum where it applies (IPOPT would move the
     * start off its active bounds).  0, NULL: none. @{ */
    int n_finer;
    const int *finer_nodes;
    /** @} */
    /** The evaluations of the cost on each further grid (n_finer of them,
     * each >= 1); NULL: maxeval on each.  A finer grid starts near its
     * optimum and each evaluation costs more, so it often needs fewer. */
    const int *finer_maxeval;
    int refine;                  /**< the check grid's factor over the last grid; 1: no
                                      re-collocation (2) */
    /** hes_colloc_options.progress of the minimisation (may be NULL); with
     * several starts only start 0 reports, on the calling thread. */
    void (*progress)(void *ctx, int evaluation, double cost, double violation, double psi);
    void *progress_ctx;          /**< ctx of progress */
    hes_nlp_solver solver;       /**< hes_colloc_options.solver */
    int jobs;                    /**< hes_colloc_options.jobs (1); with starts > 1 the
                                      threads that run the starts instead */
    /** Several starts (1 to HES_TRAJOPT_MAX_STARTS; 1): the first from the
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
    unsigned long seed;          /**< (1) */
    double start_spread;         /**< in (0, 1] (0.01) */
} hes_trajopt_options;

/** Every field to its default (the values in parentheses above). */
void hes_trajopt_options_init(hes_trajopt_options *o);

/** The relative difference of psi between the collocation and shooting
 * above which hes_trajopt_result.unresolved is set (Hermite-Simpson's
 * error on a resolved gait: 1e-3 at 11 SLIP nodes, 5e-8 to 3e-5 on the
 * refined knee-biped gaits). */
#define HES_TRAJOPT_GRID_TOL 1e-2

/** Grids of one run: the first and hes_trajopt_options.finer_nodes. */
#define HES_TRAJOPT_MAX_GRIDS 8
/** hes_trajopt_options.starts at most */
#define HES_TRAJOPT_MAX_STARTS 64

/** One start's outcome in hes_trajopt_result (hes_trajopt_options.starts). */
typedef struct {
    hes_status status;           /**< of its optimisation (HES_OK: the rest is set) */
    char message[160];           /**< why it failed ("" when it did not) */
    int have_shooting;           /**< its re-analysis by shooting succeeded */
    /** @{ */
    double cost, cost_shooting;  /**< as hes_trajopt_result's */
    /** @} */
    /** its psi by shooting and its energy: NaN where there is none @{ */
    double psi_shooting, energy; /**< NaN where there is none */
    /** @} */
    int evaluations;             /**< of the cost, over its grids */
    double seconds;              /**< its wall-clock time */
} hes_trajopt_start;

/** One grid's optimisation in hes_trajopt_result. */
typedef struct {
    /** its nodes per phase and its program's variables @{ */
    int nodes, variables;        /**< per phase; of its program */
    /** @} */
    hes_nlp_solver solver;       /**< the solver used there */
    int evaluations;             /**< of the cost there */
    /** @{ */
    double psi, energy;          /**< of its collocation at its end (energy NaN without inputs) */
    /** @} */
    double seconds;              /**< wall-clock time of its feasible start and optimisation */
} hes_trajopt_grid;

/** The outcome of hes_trajopt_run; free it with hes_trajopt_result_free. */
typedef struct {
    hes_gait gait;               /**< the result (the refined one when refined_nodes > 0),
                                      its objective and psi set */
    int nodes;                   /**< per phase of the last grid's collocation */
    /** the variables, equality constraints and path constraints of the last grid's
     * collocation @{ */
    int variables, constraints, path_constraints; /**< of the last grid's collocation */
    /** @} */
    int n_grids;                 /**< the grids optimised on, in order (1 + n_finer) */
    hes_trajopt_grid grids[HES_TRAJOPT_MAX_GRIDS]; /**< n_grids of them */
    /** @{ */
    int n_design;                /**< the design parameters used (parameter indices) */
    int *design;
    /** @} */
    /** their bounds (n_design each) @{ */
    double *design_lo, *design_hi;
    /** @} */
    double psi_collocation;      /**< psi of the optimised collocation (the last grid) */
    int refined_nodes;           /**< nodes per phase of the refinement; 0: none */
    double psi_refined;          /**< psi re-collocated on the finer grid (NaN: none) */
    double energy;               /**< integral of the squared inputs (NaN without inputs) */
    double violation;            /**< of the constraints at the end */
    double period;               /**< sum of the phase durations */
    /** @{ */
    int evaluations, fallbacks;  /**< of the minimisations, all grids (hes_colloc_result);
                                      with several starts the kept start's */
    /** @} */
    double seconds;              /**< wall-clock time of collocation and refinement; with
                                      several starts of all of them, shooting included */
    int n;                       /**< dimension of the first state */
    double *return_map;          /**< n x n, of the last collocation (hes_colloc_return_map) */
    /** The shooting re-analysis: its status (HES_OK: have_shooting) and
     * message, psi, verdict and psi's accuracy, max |P - P_shooting| /
     * max |P_shooting| (NaN where the maps do not compare), and
     * |psi_shooting - gait.psi| / psi_shooting. @{ */
    int have_shooting;
    hes_status shooting_status;
    char shooting_message[512];
    double psi_shooting;
    hes_verdict verdict;
    double psi_tol;
    double return_map_difference;
    double psi_difference;
    /** @} */
    /** psi_difference above HES_TRAJOPT_GRID_TOL: the grid does not resolve
     * the gait's psi, and the optimiser may have used its discretisation
     * error (the rimless wheel with its angle as design, 15 nodes: psi 0.064
     * collocated, 0.461 by shooting); more nodes or a refinement resolve it */
    int unresolved;
    hes_colloc_objective objective; /**< of the options, for the report */
    double weight;               /**< of the options, for the report */
    hes_nlp_solver solver;       /**< the NLP solver of the last grid (never HES_NLP_DEFAULT) */
    /** The objective's value at the end of the last grid's optimisation
     * (hes_colloc_result.cost: the true cost, a psi floor's unsmoothed),
     * and the objective of the gait written (the refined one, when refined)
     * with its stability measure by shooting (NaN without shooting), by
     * which several starts are compared. @{ */
    double cost, cost_shooting;
    /** @} */
    /** Several starts (hes_trajopt_options.starts): each one's outcome, and
     * the one this result is (with one start: starts[0], its own, and 0). @{ */
    int n_starts, best_start;
    hes_trajopt_start starts[HES_TRAJOPT_MAX_STARTS];
    /** @} */
} hes_trajopt_result;

/** Runs the pipeline on the system's model and parameters (the solved and
 * design parameters end in the system).  HES_OK also when the shooting
 * re-analysis failed (have_shooting 0: its status and message say why);
 * otherwise the status of the failed step with the message in the system
 * (HES_EINVAL: a model without an orbit to collocate, an energy objective
 * without inputs, an unknown bounded state, options out of range;
 * HES_ENOTFOUND: an unknown design parameter).
 * Free the result with hes_trajopt_result_free (also after a failure). */
hes_status hes_trajopt_run(hes_system *sys, const hes_trajopt_options *opts,
                           hes_trajopt_result *res);
/** Frees a result's arrays and gait and clears it (NULL: nothing). */
void hes_trajopt_result_free(hes_trajopt_result *res);

#ifdef __cplusplus
}
#endif

#endif /* HES_H_TRAJOPT */
