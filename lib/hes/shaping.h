/**
 * \file
 * hes/shaping.h - hybrid event shaping and direct collocation (part of
 * <hes.h>, which includes every area's header).
 */
#ifndef HES_H_SHAPING
#define HES_H_SHAPING

#include <hes/orbit.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ================================ shaping: choosing parameters and orbits */

/* ------------------------------------------------- hybrid event shaping */

/**
 * A shape context: the nominal orbit of an analysis, with its stored
 * variational matrices, and the shape parameters h to vary.  Shape
 * parameters enter only the saltation matrices at the nominal events (paper
 * Sec. III-A), so psi(h) is re-evaluated by recomputing those saltation
 * matrices (and, for autonomous orbits, the section matrix S of the
 * return-map Jacobian P = S Q) and their product, without re-simulating.
 *
 * Gradient (paper eq. 5-6): for a simple multiplier lambda with right and
 * left eigenvectors v, w of the analysed matrix M (Phi, or P),
 *
 *     dlambda/dh = w^H (dM/dh) v / (w^H v),
 *     d|lambda|/dh = Re(conj(lambda) dlambda/dh) / |lambda|,
 *
 * with dM/dh = sum over events k of G_L ... G_{k+1} (dG_k/dh) G_{k-1} ... G_1
 * by the product rule over the stored factors G, where dG_k/dh are central
 * differences in h of the saltation (or section) formula evaluated with the
 * model's Jacobian callbacks at the nominal event: no re-simulation.  Only
 * the (event, parameter) pairs found to depend on each other are summed.
 */
typedef struct hes_shape hes_shape;

/** Creates a context for the named parameters (all parameters flagged
 * HES_PARAM_SHAPE when n == 0).  It first verifies the shape property: a
 * parameter that changes a guard value, a reset or a vector field at a
 * nominal event of res->orbit is refused (HES_EINVAL, naming the parameter,
 * the event and what moved).  The context keeps pointers into res and sys,
 * which must outlive it. */
hes_status hes_shape_new(hes_system *sys, const hes_analysis *res, int n,
                            const char *const *names, hes_shape **out);
/** Frees a shape context (NULL: nothing). */
void hes_shape_destroy(hes_shape *sh);
/** The context's last failure ("" if none). */
const char *hes_shape_errmsg(const hes_shape *sh);
/** The number of shape parameters of the context. */
int hes_shape_count(const hes_shape *sh);
/** Parameter index (into the model's parameters) of shape parameter j. */
int hes_shape_param(const hes_shape *sh, int j);

/** The stability measure and its derivatives at shape values h.  Arrays
 * point into the context and stay valid until the next evaluation. */
typedef struct {
    /** the numbers of shape parameters and of nontrivial multipliers @{ */
    int n_shape, n_mult;
    /** @} */
    double psi;              /**< the stability measure at h */
    const double *abs;       /**< n_mult multiplier moduli, descending */
    /** @{ */
    const double *re, *im;   /**< the multipliers */
    /** @} */
    const double *dpsi;      /**< n_shape: dpsi/dh (NULL if not requested) */
    const double *dabs;      /**< n_mult x n_shape column-major: d|lambda_k|/dh_j;
                                  NaN where multiplier k is repeated or defective
                                  (NULL if not requested or with HES_SHAPE_GRAD_PSI) */
    int fallback;            /**< the maximising multiplier is repeated or defective
                                  (condition number > 1e5 or relative gap < 1e-5):
                                  dpsi came from one-sided differences of psi with
                                  relative step 1e-4 (a defective multiplier is only
                                  accurate to ~sqrt(eps)); where they agree, their mean */
    int nonsmooth;           /**< (with fallback) the one-sided differences disagree:
                                  dpsi_j is the element of least magnitude of the
                                  interval between them (0 if they differ in sign),
                                  i.e.\ of the generalized gradient along h_j, to
                                  within the accuracy of the defective multiplier */
    double cond;             /**< condition number of the maximising multiplier */
} hes_shape_eval_result;

/** Evaluates at h (n_shape values; NULL: the system's values when the
 * context was created).  The context evaluates on its own copy of the
 * system: the caller's parameters are never written; a failure's message
 * is also the caller's system's (hes_system_errmsg) and the context's
 * (hes_shape_errmsg).  With grad != 0 also fills
 * dpsi and dabs; with grad == HES_SHAPE_GRAD_PSI only dpsi (dabs NULL: one
 * eigenvalue derivative instead of one per multiplier). @{ */
#define HES_SHAPE_GRAD_PSI 2
hes_status hes_shape_eval(hes_shape *sh, const double *h, int grad,
                          hes_shape_eval_result *out);
/** @} */

/** The stability measure an optimisation minimises. */
typedef enum {
    HES_MEASURE_PSI = 0,     /**< psi, the largest multiplier modulus */
    HES_MEASURE_SMOOTH = 1   /**< the smooth surrogate of psi (HES_SMOOTH_P) */
} hes_measure;
/** "psi" or "smooth" (NULL out of range), and the measure of a name: HES_OK,
 * or HES_EINVAL for NULL or an unknown name (*measure left as it was). @{ */
const char *hes_measure_name(hes_measure measure);
hes_status hes_measure_from_name(const char *name, hes_measure *measure);
/** @} */

/** The smooth surrogate of psi: the p-norm of the multiplier moduli,
 * (sum |lambda_k|^p)^(1/p) with p = HES_SMOOTH_P, an upper bound of psi
 * within a factor n_mult^(1/p); differentiable wherever every multiplier is
 * simple. */
#define HES_SMOOTH_P 16

/** The options of hes_shape_optimize (hes_shape_options_init: 8 starts, seed 1,
 * psi, analytic gradients, the polish, 400 evaluations, ftol_rel 1e-12, no
 * stopval). */
typedef struct {
    int n;                   /**< parameters to optimise; 0: every shape parameter */
    /** their n names: shape parameters, or parameters that move the orbit
     * (neither shape nor solved ones, such as a controller's gains): with
     * one of those every evaluation is a full re-analysis, the orbit found
     * again by shooting from the best evaluation's section state; an
     * evaluation whose orbit is lost (no orbit, another event sequence, a
     * grazing) counts as +infinity.  Their bounds must be given (lo, hi)
     * unless the model has search bounds for them; the default algorithm
     * is then LN_NELDERMEAD from one start (random starts in the box would
     * mostly lose the orbit), its first steps a twentieth of the bounds,
     * without a polish; an LD_ algorithm gets central differences of
     * re-analyses (settings.fd_step). */
    const char *const *names;
    const double *start;     /**< n start values; NULL or a NaN entry: the system's value */
    /** @{ */
    const double *lo, *hi;   /**< n bounds; NULL or a NaN entry: the model's search bound */
    /** @} */
    const char *algorithm;   /**< NLopt name, e.g.\ "LD_MMA"; NULL: LD_SLSQP */
    int starts;              /**< the first from `start`, the rest uniform in the bounds */
    unsigned long seed;      /**< of the random starts */
    hes_measure measure;     /**< the measure minimised */
    int gradient;            /**< 1: analytic (default); 0: central differences of the
                                  measure (each a fast re-evaluation), for comparison */
    int polish;              /**< derivative-free polish from the best point (LN_BOBYQA) */
    int maxeval;             /**< per start and for the polish */
    double ftol_rel;         /**< NLopt's relative tolerance on the measure */
    double stopval;          /**< stop once the measure is <= stopval (-HUGE_VAL: never) */
    /** Called after every evaluation (may be NULL). */
    void (*progress)(int evaluations, double best, void *data);
    void *progress_data;     /**< data of progress */
} hes_shape_options;

/** Every field to its default (the values above; no progress callback). */
void hes_shape_options_init(hes_shape_options *o);

/** The outcome of hes_shape_optimize; free it with hes_shape_result_free. */
typedef struct {
    int n;                   /**< the number of optimised shape parameters */
    int *param;              /**< parameter index of each optimised shape parameter */
    double *h;               /**< the optimum (hes_shape_result_apply writes it into a
                                  system; the system optimised is not changed) */
    /** @{ */
    double *lo, *hi;         /**< the bounds used */
    /** @} */
    double *start;           /**< the (first) start values used */
    double psi_initial;      /**< psi at the start values */
    double psi;              /**< psi at the optimum from a full re-analysis */
    double measure;          /**< the optimised measure at the optimum */
    int evaluations;         /**< of the measure */
    int gradients;           /**< evaluations with a gradient */
    int fallbacks;           /**< gradients that fell back to differences of psi */
    int gradient;            /**< 1 analytic, 0 finite differences, -1 none */
    char algorithm[48];      /**< NLopt name of the main algorithm */
    char polish[48];         /**< NLopt name of the polish ("" if none): LN_BOBYQA, or
                                  LN_NELDERMEAD for a single parameter */
    int starts;              /**< starts run (1 for a global algorithm) */
    hes_analysis analysis;   /**< the full re-analysis at the optimum */
    /** every parameter's value at the optimum (the shape parameters', and the
     * solved ones its orbit solved): n_params of them @{ */
    int n_params;
    double *params;
    /** @} */
    int moves_orbit;         /**< 1: parameters that move the orbit were optimised, each
                                  evaluation a full re-analysis */
    int lost;                /**< of those evaluations, the ones whose orbit was lost */
    /** the lost evaluation nearest the optimum (in units of the bounds): its n
     * parameter values (NULL: none lost) and why its orbit was lost, the edge
     * that an optimum on it cannot cross @{ */
    double *lost_at;
    char lost_why[HES_ERROR_LEN];
    /** @} */
} hes_shape_result;

/** Minimises psi (or the smooth surrogate) over the shape parameters within
 * bounds: a gradient-based NLopt algorithm (default LD_SLSQP) from several
 * starts, then a derivative-free polish (LN_BOBYQA) from the best point, then
 * a full re-analysis (re-simulation and full-system verification) at the
 * optimum, whose psi is reported.  The system's parameters must give an
 * orbit; the orbit is found first.  The search runs on a copy of the
 * system: its parameters are not changed (apply the optimum with
 * hes_shape_result_apply); a failure's message is the system's. */
hes_status hes_shape_optimize(hes_system *sys, const hes_shape_options *opts,
                              hes_shape_result *res);
/** Gives sys the parameters of the optimum, res->params: the shape
 * parameters' optimum res->h and the solved parameters of its orbit (each
 * checked as hes_system_set_param checks it); HES_EINVAL for a result of
 * another model. */
hes_status hes_shape_result_apply(hes_system *sys, const hes_shape_result *res);
/** Frees a result's arrays and analysis and clears it (NULL: nothing). */
void hes_shape_result_free(hes_shape_result *res);

/* ------------------------------------------------------ direct collocation */

/**
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
#define HES_COLLOC_MAX_DESIGN 16 /**< the most design parameters (hes_colloc_set_design) */

/** The solver of the collocation's nonlinear program: SLSQP (NLopt, dense;
 * always built), IPOPT (sparse interior point, lib/shaping/colloc_ipopt.c;
 * when configure found coinor-libipopt-dev), REDUCED (SLSQP on the free
 * variables, the equalities solved by Newton's method at every point,
 * lib/shaping/colloc_reduced.c; always built; its feasibility solves are
 * Newton's method on the equalities, then SLSQP where that orbit misses
 * the bounds or path constraints, and a program whose equalities do not
 * determine the other variables is refused) or HYBRID (the first tenth of the budget by SLSQP
 * in the full space, whose iterates may leave the orbits to reach another
 * basin, the rest in the reduced space, or in the full space where the
 * reduced space does not apply; for a start far from the optimum, e.g.\ a
 * psi objective from a minimum-energy gait).  HES_NLP_DEFAULT: IPOPT when
 * built, except for the psi objectives (stability, weighted) on programs of
 * at most 400 variables, where dense SLSQP is cheap and polishes psi's kinks
 * better; SLSQP when IPOPT is not built. */
typedef enum {
    HES_NLP_DEFAULT = 0,     /**< IPOPT or SLSQP, by hes_nlp_solver's rule */
    HES_NLP_SLSQP = 1,       /**< NLopt's SLSQP in the full space */
    HES_NLP_IPOPT = 2,       /**< IPOPT */
    HES_NLP_REDUCED = 3,     /**< SLSQP in the reduced space */
    HES_NLP_HYBRID = 4       /**< SLSQP in the full space, then the reduced space */
} hes_nlp_solver;
/** Nonzero when this build has the solver (HES_NLP_DEFAULT: always). */
int hes_nlp_solver_available(hes_nlp_solver solver);
/** "default", "slsqp", "ipopt", "reduced", "hybrid" (NULL out of range), and the solver of a
 * name (HES_EINVAL for an unknown one). @{ */
const char *hes_nlp_solver_name(hes_nlp_solver solver);
hes_status hes_nlp_solver_from_name(const char *name, hes_nlp_solver *solver);
/** @} */

/** hes_colloc_options.psi_floor_smoothing's default */
#define HES_COLLOC_FLOOR_SMOOTHING 0.2
/** The most threads of hes_colloc_options.jobs */
#define HES_COLLOC_MAX_JOBS 64

/** The options of a collocation (hes_colloc_new); hes_colloc_options_init sets
 * the defaults. */
typedef struct {
    int nodes;                   /**< per phase, >= 2; with v virtual events in a phase
                                      its first sub-phase (up to the guard's turn) gets
                                      (nodes - 1) / 2 + 1, the others (nodes - 1) / (2 v)
                                      + 1 each (at least 3) */
    int refine;                  /**< refine > 1: every sub-phase gets refine times as many
                                      intervals (a finer copy of the same grid) */
    int n_inputs;                /**< parameters used as inputs at the nodes */
    const char *const *inputs;   /**< their n_inputs names */
    /** @{ */
    const double *input_lo, *input_hi; /**< n_inputs bounds, or NULL: unbounded */
    /** @} */
    int constant_inputs;         /**< nonzero: one input value per (sub-)phase */
    const int *virtual_events;   /**< n_sequence counts, or NULL: none */
    /** @{ */
    const double *x0_lo, *x0_hi; /**< bounds on the first state (dim of the orbit mode), or NULL */
    /** @} */
    /** @{ */
    double min_duration, max_duration; /**< per (sub-)phase; 0, 0: [0, inf) */
    /** @} */
    int path;                    /**< nonzero: the model's path constraints (hes_trajopt_spec) */
    /** Weight of the input-rate regularisation added to the psi objectives
     * when there are inputs: sum over intervals of |u_k+1 - u_k|^2 / h, the
     * integral of |du/dt|^2 (0: none).  Without it psi rewards inputs that
     * alternate from node to node, which the discretisation cannot resolve
     * (the collocated psi then drifts from the re-simulated one). */
    double smooth_weight;
    /** The stability term of the psi objectives: HES_MEASURE_PSI (default) or
     * HES_MEASURE_SMOOTH, the p-norm of the multiplier moduli, which does not
     * stall where the largest multipliers meet (the result's psi is psi). */
    hes_measure measure;
    /** Nonzero: the inputs and virtual offsets keep the values z starts with
     * (bounds equal to them); only states, durations and parameters move.
     * With a gait from hes_colloc_from_gait this re-collocates that gait on
     * this grid (e.g. a finer one, to check or refine its psi).  They then
     * determine the orbit, so x0_lo/x0_hi, min/max_duration and path are
     * ignored (they would over-determine it). */
    int fix_inputs;
    /** psi_floor > 0: in the psi objectives the stability term counts only down to this
     * value (max(psi, psi_floor)); below it the optimiser spends its effort
     * on the other terms instead of driving the multipliers together towards
     * 0, where psi becomes hypersensitive and the basin small. */
    double psi_floor;
    /** The kink of max(psi, psi_floor), along which quasi-Newton steps
     * crawl, is smoothed in the first rounds of the optimisation over
     * |psi - psi_floor| < mu, mu = this times psi_floor (default
     * HES_COLLOC_FLOOR_SMOOTHING), a quarter of it after each round that
     * lowers the true cost by less than 1e-3 of it, none once below 1 % of
     * the floor (and none from the start below that); 0: none.  The best
     * point is the one of least true cost; a budget can end while the
     * rounds still smooth. */
    double psi_floor_smoothing;
    /** psi's own kinks: where two multipliers have one modulus psi is not
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
    /** Progress report after every evaluation of the cost with its gradient
     * (NULL: none): evaluation count, the cost minimised (with a psi floor
     * smoothed while the rounds smooth it), the last constraint violation,
     * psi (NaN when the cost does not compute it). */
    void (*progress)(void *ctx, int evaluation, double cost, double violation, double psi);
    void *progress_ctx;          /**< ctx of progress */
    hes_nlp_solver solver;       /**< HES_NLP_DEFAULT: see hes_nlp_solver */
    /** Threads that share psi's gradient (its factors), the caller's
     * included; <= 1: none; at most HES_COLLOC_MAX_JOBS.  The gradient is
     * the same bit for bit on any number (each factor's terms are summed in
     * one order); the model's callbacks must be thread-safe (as for
     * hes_sweep's jobs). */
    int jobs;
} hes_colloc_options;

/** Defaults: nodes 21, no inputs, no virtual events, no bounds, no path. */
void hes_colloc_options_init(hes_colloc_options *o);

/** A collocation of sys's orbit with the options (NULL: the defaults). */
hes_status hes_colloc_new(hes_system *sys, const hes_colloc_options *opts, hes_colloc **out);
/** Adds parameters (e.g.\ shape parameters) as decision variables within
 * bounds, after the solved ones; call before hes_colloc_guess. */
hes_status hes_colloc_set_design(hes_colloc *c, int n, const char *const *names,
                                 const double *lo, const double *hi);
/** Frees a collocation (NULL: nothing). */
void hes_colloc_destroy(hes_colloc *c);
/** The collocation's last failure: its system's message (hes_system_errmsg
 * of the system it was made on, which its calls report to); NULL for NULL. */
const char *hes_colloc_errmsg(const hes_colloc *c);
/** The number of decision variables, the length of z. */
int hes_colloc_nvars(const hes_colloc *c);
int hes_colloc_ncons(const hes_colloc *c);   /**< equality constraints */
/** Inequalities: path constraints c(x) >= 0 at nodes, then (with the
 * model's hes_trajopt_spec) the crossing rate of every event in its
 * direction, minus min_crossing_rate. */
int hes_colloc_nineq(const hes_colloc *c);
/** z from a simulation of one period from the orbit spec's initial guess
 * (inputs at their current parameter values; virtual events split the
 * simulated phases into equal times, offsets from the guard there). */
hes_status hes_colloc_guess(hes_colloc *c, double *z);
/** Solves the constraints (defects, events, resets with periodicity,
 * anchors; path constraints) with NLopt LD_SLSQP to tolerance tol (max
 * norm); the solved parameters end in the system. */
hes_status hes_colloc_solve(hes_colloc *c, double *z, double tol, double *violation);
/** psi of the orbit z describes: the monodromy from the Hermite-Simpson step
 * matrices (implicit-function Jacobians of each step, consistent with the
 * discretisation) and the saltation matrices at the phase ends, projected on
 * the section; with grad (nvars) its gradient by eigenvalue perturbation
 * over the factors, each factor differentiated (central differences) in the
 * few variables it depends on; *fallback = 1 when the maximising multiplier
 * is repeated or defective and the gradient came from differences of psi. */
hes_status hes_colloc_psi(hes_colloc *c, const double *z, double *psi, double *grad,
                          int *fallback);

/** The return-map Jacobian P (n x n, n the dimension of the first phase,
 * column-major) whose nontrivial eigenvalues hes_colloc_psi takes: compare
 * it with hes_monodromy.proj of a shooting analysis of the same orbit (the
 * multipliers can be far more sensitive than P where they nearly coincide). */
hes_status hes_colloc_return_map(hes_colloc *c, const double *z, double *P);

/** What hes_colloc_minimize minimises. */
typedef enum {
    HES_COLLOC_FEASIBLE,         /**< no cost: a feasible orbit */
    HES_COLLOC_ENERGY,           /**< integral of the squared inputs */
    HES_COLLOC_STABILITY,        /**< psi (paper problem (8)) + smooth_weight * roughness
                                      (psi: or the measure of the options) */
    HES_COLLOC_WEIGHTED          /**< psi + weight * energy + smooth_weight * roughness */
} hes_colloc_objective;
/** "feasible", "energy", "stability" or "weighted" (NULL out of range), and
 * the objective of a name: HES_OK, or HES_EINVAL for NULL or an unknown name
 * (*objective left as it was). @{ */
const char *hes_colloc_objective_name(hes_colloc_objective objective);
hes_status hes_colloc_objective_from_name(const char *name, hes_colloc_objective *objective);
/** @} */

/** The outcome of hes_colloc_minimize. */
typedef struct {
    /** the objective, psi, the energy (integral of the squared inputs) and the
     * constraint violation at the result @{ */
    double cost, psi, energy, violation;
    /** @} */
    double roughness;            /**< integral of |du/dt|^2 (smooth_weight) at the result */
    int evaluations;             /**< of the cost (with or without gradient) */
    int fallbacks;               /**< psi gradients from differences (repeated multiplier) */
} hes_colloc_result;

/** Minimises the objective over z subject to the collocation constraints,
 * the bounds and the path constraints, from z, by the options' solver
 * (hes_nlp_solver), in rounds.  maxeval is the budget of cost evaluations:
 * SLSQP's and the reduced space's rounds stop at it, IPOPT checks it
 * between its iterations and can exceed it by one iteration's line search
 * (1016 of 1000 on the SLIP with psi_smoothing). */
hes_status hes_colloc_minimize(hes_colloc *c, double *z, hes_colloc_objective objective,
                               double weight, double tol, int maxeval, hes_colloc_result *res);
/** hes_colloc_minimize with HES_COLLOC_STABILITY and 1000 evaluations. */
hes_status hes_colloc_optimize(hes_colloc *c, double *z, double tol, double *psi,
                               double *violation, int *evaluations);

/** The number of (sub-)phases of the collocation (0 for NULL). */
int hes_colloc_phases(const hes_colloc *c);
/** The duration of a phase in z (NaN out of range). */
double hes_colloc_duration(const hes_colloc *c, const double *z, int phase);
/** The state at a node of a phase in z, pointing into z (NULL out of range). */
const double *hes_colloc_state(const hes_colloc *c, const double *z, int phase, int node);

#ifdef __cplusplus
}
#endif

#endif /* HES_H_SHAPING */
