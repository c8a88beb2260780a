/*
 * shaping/colloc_internal.h - the internals of the direct collocation
 * (lib/shaping/colloc*.c; not installed): the layout of a hes_colloc, its
 * workspaces, and what its files share.  The files, each using only those
 * listed before it:
 *
 *   colloc_team.c      the workspaces of psi's factors, and threads (each
 *                      with its workspace) for psi's gradient
 *   collocation.c      the object: options, the layout of the decision
 *                      vector z, the workspaces, the helpers every file uses
 *   colloc_defects.c   Hermite-Simpson defects and their Jacobian blocks
 *   colloc_events.c    event, reset (periodicity) and anchor constraints;
 *                      the assembly of all equality constraints
 *   colloc_path.c      the inequalities: path constraints, crossing rates,
 *                      the order of virtual events
 *   colloc_cost.c      the input costs: energy and roughness
 *   colloc_guess.c     initial guesses (a simulation, a gait) and the gait
 *                      of a solution
 *   colloc_psi.c       the monodromy of the collocated orbit from its
 *                      Hermite-Simpson steps; psi and its gradient
 *   colloc_ipopt.c     the NLP by IPOPT (sparse)
 *   colloc_reduced.c   the NLP in the reduced space: SLSQP on the free
 *                      variables, Newton's method for the others
 *   colloc_solve.c     the NLP: SLSQP (NLopt) solve and minimise
 *
 * The test suites include this header ("shaping/colloc_internal.h") for the
 * functions below that are exported under hes_colloc_ names but are not
 * part of the public interface (lib/hes.h).
 */
#ifndef HES_COLLOC_INTERNAL_H
#define HES_COLLOC_INTERNAL_H

#include <nlopt.h>

#include "shaping/shaping.h"

/* Factor f of the monodromy of the collocated orbit (colloc_psi.c): the
 * intervals of phase 0, its event, the intervals of phase 1, ...; the event
 * factor of the last phase of an autonomous orbit is the section matrix S. */
typedef struct {
    int phase, interval;     /* interval -1: the event */
    int rows, cols;
} hes__colloc_factor;

/* The vector field and its Jacobian at the last HES__COLLOC_MEMO points
 * (hes__colloc_field): keys mode, t, x and the system's parameters,
 * compared exactly. */
#define HES__COLLOC_MEMO 8
typedef struct {
    int mode, has_f, has_J;
    double t, *x, *p, *f, *J;
} hes__colloc_memo;

/* What evaluating a factor of psi's monodromy writes (colloc_psi.c): a
 * system (its parameters take the inputs of each node), scratch, a copy of
 * z to perturb, and the memo of field evaluations.  One per thread. */
typedef struct {
    hes_system *sys;
    double *work, *ework;        /* of hes_colloc's work_len, ework_len */
    double *zz;                  /* nv_max */
    double *dG;                  /* 10 nm^2 + 2 nm: a factor's gradient terms (colloc_psi.c:
                                    blocks or the factor at z + h and z - h, the pairs) */
    hes__colloc_memo memo[HES__COLLOC_MEMO];
    int memo_next;
    double *memo_buf;            /* per entry x, p, f, J */
    /* psi at a perturbed z from the factors that move (the gradient's
     * fallback): their values, which factor takes which (NULL: the
     * nominal one), the product, the section normal, the multipliers */
    double *gpert;               /* nfac nm^2 */
    double **sub;                /* nfac */
    double *chain;               /* 2 nm^2 + nm */
    hes_stability stab;
} hes__colloc_ws;

struct hes_colloc {
    hes_system *sys;
    int n_phases, n_phys;
    /* per phase */
    int *mode, *tr, *virt, *dim, *nn, *xoff, *toff, *uoff, *voff, *urows, *clock_start,
        *phys, *vdir;            /* vdir: crossing direction a virtual event keeps (HES_UP/DOWN) */
    int phase_clock;             /* inputs or virtual events: clock-local saltation */
    int n_in, *in_idx;           /* inputs */
    double *in_lo, *in_hi;
    double *x0_lo, *x0_hi, dmin, dmax, smooth;
    hes_measure measure;
    int fix_inputs;
    double psi_floor, floor_smoothing;  /* the floor, its first smoothing (relative) */
    double psi_smoothing;        /* psi's own kinks: the first smoothing (relative) */
    /* While the cost evaluates psi: its kinks smoothed with this half-width
     * (hes_colloc_minimize's rounds; 0 otherwise), and whether the last
     * evaluation met the smoothing (two moduli within psi_mu). */
    double psi_mu;
    int psi_band;
    int n_fp, *pidx, poff;       /* solved parameters, then design parameters */
    int n_solved;
    double *plo, *phi;           /* bounds of the parameters in z */
    int n_anchor, *anchor;       /* anchored components of X_0,0 */
    double *anchor_value;
    const hes_trajopt_spec *spec; /* path constraints when set */
    int nv, nc, ni, max_nodes;
    int nv_max;                  /* nv with HES_COLLOC_MAX_DESIGN design parameters */
    double last_violation;       /* of the last constraint evaluation in the NLP */
    double last_cost;            /* of the last cost evaluation (same point: SLSQP
                                    evaluates the cost, then the constraints) */
    double *cand, cand_cost;     /* the cheapest nearly feasible iterate of the NLP */
    int cand_valid, track;       /* track: record cand (the rounds of hes_colloc_minimize) */
    double *ret_map;             /* when set, the psi evaluation copies the return map there */
    void (*progress)(void *, int, double, double, double);
    void *progress_ctx;

    /* Workspaces, allocated once by hes_colloc_new, so that no
     * evaluation inside the NLP (constraints, path constraints, cost, psi
     * and its gradient) allocates. */
    double *work;                /* scratch of one evaluation: constraints, path,
                                    a step matrix, a crossing rate, a guess */
    size_t work_len;
    double *ework;               /* an event factor: saltation or section matrix */
    size_t ework_len;
    int nfac;                    /* factors of the monodromy (sum of the node counts) */
    hes__colloc_factor *fac;     /* their list */
    double *G;                   /* nfac nm^2: the factors, stride nm^2 */
    double *Dlu;                 /* nfac nm^2: each step's LU of D1 (psi's gradient) */
    int *Dpiv;                   /* nfac nm: its pivots */
    hes_factor *GF;              /* nfac views of G for the eigenvalue sensitivities */
    double *chain;               /* 2 nm^2 + nm: running product (two), normal */
    double *sens;                /* 4 nfac nm max(1, n0): the sweeps of hes__eig_sens */
    hes_stability stab;          /* multipliers, storage for n0 x n0 */
    double *gtmp;                /* nv_max: a cost term's gradient */
    double *cvtmp;               /* max(nc, ni) + 1: constraint values */
    double *btmp;                /* 2 nv_max: the bounds (bound violation) */
    hes_nlp_solver solver;       /* as asked (hes__nlp_solver_for resolves DEFAULT) */
    /* The workspace of psi's factors on the calling thread (on sys, with
     * scratch of its own), and the team of threads that shares the
     * gradient's factors (colloc_team.c; NULL: serial). */
    hes__colloc_ws ws;
    struct hes__colloc_team *team;
    int *gvars, *gnvar, *goff;   /* the variables of every factor, their count, offset */
    int *vfac, *vfac_off;        /* the factors of every variable (nv_max + 1 offsets) */
    int step_states;             /* psi's gradient in a step's states: 0 the cheaper way,
                                    1 by directions, 2 per state (colloc_psi.c) */
    double *gcon;                /* each factor's contribution to psi's gradient, per
                                    variable (summed in factor order: the gradient does
                                    not depend on the number of threads) */
};
/* --- collocation.c: the layout */

/* Model time at the start of phase i: the durations since the last
 * clock-resetting event. */
double hes__colloc_phase_t0(const hes_colloc *c, const double *z, int i);
/* The solved and design parameters of z into the system's parameters. */
void hes__colloc_put_params(hes_colloc *c, const double *z);
/* The inputs of phase i at node k (mid: the midpoint of interval k) into
 * the system's parameters. */
void hes__colloc_set_inputs(hes_colloc *c, const double *z, int i, int k, int mid);
/* hes__colloc_put_params and hes__colloc_set_inputs on another system */
void hes__colloc_put_params_sys(const hes_colloc *c, hes_system *sys, const double *z);
void hes__colloc_set_inputs_sys(const hes_colloc *c, hes_system *sys, const double *z, int i,
                                int k, int mid);
/* Whether sub-phase i keeps its guard (plus offset) on one side until its
 * end event: after a virtual event of the same physical phase. */
int hes__colloc_order_checked(const hes_colloc *c, int i);
/* Which path constraints apply at node k of phase i: 0 none (the first
 * node), 1 those flagged at_end (the node of a physical event), 2 all. */
int hes__colloc_node_kind(const hes_colloc *c, int i, int k);
/* The number of path-constraint values at a node of that kind in mode. */
int hes__colloc_path_count(const hes_colloc *c, int mode, int kind);

/* --- colloc_defects.c: Hermite-Simpson */

/* A model callback fn(sys, index, t, x, out) of n_out values. */
typedef hes_status (*hes__colloc_model_fn)(hes_system *, int, double, const double *, double *);
/* out = d fn / d p_pj by central differences (tmp: n_out scratch). */
hes_status hes__colloc_param_derivative(hes_system *sys, hes__colloc_model_fn fn, int index,
                                        int pj, double t, const double *x, int n_out,
                                        double *out, double *tmp);
/* The state blocks D0 = dd/dX_k, D1 = dd/dX_k+1 of a defect (n x n; Mx, E
 * scratch). */
void hes__colloc_defect_blocks(int n, double h, const double *Jk, const double *Jk1,
                               const double *Jm, double *Mx, double *E, double *D0, double *D1);
/* The defect rows of phase i from `row` on (values into cv, the Jacobian,
 * column-major nc x nv, into jac unless NULL); returns the next row. */
hes_status hes__colloc_defects(hes_colloc *c, const double *z, int i, int row, double *cv,
                               double *jac, int *next);

/* --- exported for the test suites, not in hes.h */

/* The equality constraints (defects, events, resets with periodicity,
 * anchors) and, if jac != NULL, their exact Jacobian (ncons x nvars,
 * column-major) (colloc_events.c). */
hes_status hes__colloc_constraints(hes_colloc *c, const double *z, double *cv, double *jac);
/* Where the model refuses a trial point of the NLP (an invalid impact, a
 * failed callback) the cost and constraints say so with this value. */
#define HES__COLLOC_FAILED_POINT 1e6
/* The cost of the NLP, NLopt's form: grad (n) may be NULL. */
typedef double (*hes__colloc_cost_fn)(unsigned n, const double *x, double *grad, void *ctx);
/* The NLP by IPOPT (colloc_ipopt.c): z the start and the result, lo and hi
 * its bounds, tol the constraint tolerance, ftol the relative cost
 * tolerance (0: IPOPT's 1e-8), maxeval the budget of cost evaluations;
 * why says how it stopped ("" when it converged); HES_ESOLVER without
 * IPOPT. */
hes_status hes__colloc_ipopt(hes_colloc *c, double *z, const double *lo, const double *hi,
                             double tol, double ftol, int maxeval, hes__colloc_cost_fn cost,
                             void *cost_ctx, char *why, size_t len);
/* The NLP in the reduced space of the free variables (colloc_reduced.c),
 * arguments as hes__colloc_ipopt's; HES_EINVAL (why says so) when the
 * equality constraints do not determine the other variables. */
hes_status hes__colloc_reduced(hes_colloc *c, double *z, const double *lo, const double *hi,
                               double tol, double ftol, int maxeval, hes__colloc_cost_fn cost,
                               void *cost_ctx, char *why, size_t len);
/* How psi's gradient differentiates the Hermite-Simpson steps in the
 * states of their nodes (colloc_psi.c, step_gradient): 0 the cheaper of
 * the two ways (the default), 1 along the directions of the rank-one pairs,
 * 2 state by state: the test suites compare the two. */
void hes__colloc_set_step_states(hes_colloc *c, int how);
/* SLSQP's stopping rules for the collocation's programs (nlp_solver.c). */
void hes__colloc_slsqp_stops(nlopt_opt opt, double ftol, int maxeval);
/* Nonzero when the reduced space applies to c's program: something is
 * free, and the equalities are as many as the other variables. */
int hes__colloc_reduced_applies(const hes_colloc *c);
/* Marks the free variables of z (the inputs, the virtual events' offsets,
 * the design parameters) in free_var (nv, zeroed); returns their number
 * (colloc_reduced.c). */
int hes__colloc_mark_free(const hes_colloc *c, char *free_var);
/* Start `start` > 0 of several (hes_trajopt_options.starts): every free
 * variable of z moved by spread max(|z_j|, 0.1) u_j, u_j uniform in [-1, 1)
 * from the generator seeded by seed and start, then held within z's bounds
 * (colloc_guess.c). */
hes_status hes__colloc_perturb(hes_colloc *c, double *z, double spread, unsigned long seed,
                               int start);
/* The equalities solved for the node states, durations and solved
 * parameters by Newton's method from z, the free variables held
 * (colloc_reduced.c; the reduced space's first step, and its feasibility
 * solve); HES_ENOORBIT when it does not converge. */
hes_status hes__colloc_newton(hes_colloc *c, double *z, double tol, char *why, size_t len);
/* The bounds of z (lower into lo, upper into hi; nv each; fixed inputs
 * and virtual offsets at their values in z) (collocation.c). */
void hes__colloc_bounds(const hes_colloc *c, const double *z, double *lo, double *hi);
/* How far z lies outside those bounds (0 inside; collocation.c): the
 * reduced space keeps the bounds of the determined variables as
 * inequalities, met only to the tolerance. */
double hes__colloc_bound_violation(hes_colloc *c, const double *z);
/* Record the equality constraints' violation at x (last_violation) and,
 * with their Jacobian (an iterate rather than a trial point), offer x as
 * a candidate (colloc_ipopt.c). */
void hes__colloc_track(hes_colloc *c, const double *x, const double *ceq, int with_jacobian);
/* x, an iterate of violation v whose cost was the last evaluated, becomes
 * the round's cheapest nearly feasible iterate (cand) when it is one
 * (colloc_ipopt.c; the reduced space offers its iterates with the
 * violation of their inequalities). */
void hes__colloc_offer(hes_colloc *c, const double *x, double v);
/* The inequality constraints (nineq values, >= 0 when satisfied: path
 * constraints, crossing rates, order of virtual events) and their Jacobian
 * (nineq x nvars, column-major) if jac != NULL (colloc_path.c). */
hes_status hes__colloc_path(hes_colloc *c, const double *z, double *cv, double *jac);
/* Integral of the squared inputs over the period (exact for the
 * interpolation used) and its gradient (nvars) if grad != NULL
 * (colloc_cost.c). */
double hes__colloc_energy(const hes_colloc *c, const double *z, double *grad);
/* The terms of the collocation's cost besides max(measure, floor) at z:
 * the input-rate regularisation and the (weighted) energy, as the
 * minimisation counts them (colloc_solve.c). */
double hes__colloc_input_cost(hes_colloc *c, hes_colloc_objective objective, double weight,
                              const double *z);
/* max(a_1..a_m) smoothed with half-width mu > 0 (mu <= 0: the maximum),
 * and its gradient in a into w (m; colloc_cost.c); m <= HES_COLLOC_SMAX_MAX. */
#define HES_COLLOC_SMAX_MAX 64
double hes__colloc_smax(const double *a, int m, double mu, double *w);
/* The psi floor's term max(psi, floor), smoothed over |psi - floor| < mu
 * when mu > 0 (hes__colloc_smax), and its derivative in psi (*slope). */
double hes__colloc_floor(double psi, double floor, double mu, double *slope);
/* Integral of the squared input rates (see smooth_weight) and its gradient
 * (colloc_cost.c). */
double hes__colloc_roughness(const hes_colloc *c, const double *z, double *grad);
/* hes_colloc_psi for either stability measure (HES_MEASURE_PSI or
 * HES_MEASURE_SMOOTH) (colloc_psi.c). */
hes_status hes__colloc_measure(hes_colloc *c, const double *z, hes_measure measure, double *value,
                              double *grad, int *fallback);


/* --- colloc_team.c: workspaces and threads for psi's gradient */

/* A workspace for psi's factors on system sys (the hes_colloc's own, or a
 * copy for another thread; sized by c's work_len, ework_len, nv_max), and
 * its release. */
hes_status hes__colloc_ws_init(const hes_colloc *c, hes_system *sys, hes__colloc_ws *w);
void hes__colloc_ws_free(hes__colloc_ws *w);
/* The vector field f and/or its Jacobian J (either may be NULL) of mode at
 * (t, x) under the current parameters of w's system, from w's memo when the
 * same point (bit for bit) was evaluated lately: a perturbed node of a
 * Hermite-Simpson step leaves the other node's Jacobian unchanged, and
 * neighbouring intervals share their node.  hes__colloc_field: on the
 * hes_colloc's own workspace. */
hes_status hes__colloc_field_ws(hes__colloc_ws *w, int mode, double t, const double *x,
                                double *f, double *J);
hes_status hes__colloc_field(hes_colloc *c, int mode, double t, const double *x, double *f,
                             double *J);
/* Forgets the memo's points: at the start of every evaluation the NLP asks
 * for (constraints, psi), since the model's own data may have changed
 * between calls without its parameters. */
void hes__colloc_memo_clear(hes__colloc_ws *w);

/* Starts jobs - 1 threads (jobs <= 1: none; at most HES_COLLOC_MAX_JOBS),
 * each with its workspace on a copy of the hes_colloc's system. */
hes_status hes__colloc_team_start(hes_colloc *c, int jobs);
void hes__colloc_team_stop(hes_colloc *c);
/* The number of members (threads, the caller's included): 1 without a
 * team. */
int hes__colloc_team_size(const hes_colloc *c);
/* The system of member m (0: the hes_colloc's own). */
hes_system *hes__colloc_team_sys(const hes_colloc *c, int member);
/* fn(c, w, member, members, arg) on every member at once, the caller as
 * member 0 with c->ws, the others each with its own workspace, whose system
 * first gets the caller's parameters and settings and whose memo is
 * cleared; returns when all are done.  Nothing is allocated. */
typedef void (*hes__colloc_team_fn)(hes_colloc *c, hes__colloc_ws *w, int member, int members,
                                    void *arg);
void hes__colloc_team_run(hes_colloc *c, hes__colloc_team_fn fn, void *arg);
#endif
