/*
 * hybrid/hybrid.h - the hybrid layer's internals: the layout of hes_system
 * (model, parameter values, settings, per-mode integrator workspaces), the
 * evaluation of model callbacks with finite-difference fallbacks (eval.c),
 * the CVODES callbacks, and the one implementation of each formula the
 * layers above share: saltation, section matrix, eigenvalue tests, the
 * stability measure.
 */
#ifndef HES_HYBRID_H
#define HES_HYBRID_H

#include <stdarg.h>

#include "ode/cvodes.h"
#include "ode/stepper.h"
#include "model/model_internal.h"

/* A mode's workspace: its integrator, CVODES or rk8 (created on first use; state
 * dimensions differ between modes and a CVODES memory block is tied to its
 * vector length), the transitions its root functions watch, and scratch. */
typedef struct {
    struct hes_system *sys;
    int mode;
    int n;
    hes__stepper step;     /* CVODES (HES_ADAMS, HES_BDF) or rk8 (HES_RK8) */
    int n_roots;
    int *root_tr;          /* transition index of each root function */
    int *rootsfound;
    double *jac;           /* n x n scratch for dF/dx in the sensitivity rhs */
} hes_mode_ws;

/* sys->armed[k]: the guard of k started the phase at zero tangentially,
 * curving back into the domain or at rest on it to second order (a foot
 * just released leaves the ground at third order), where rounding would
 * make it cross at once: the root finder sees it only once it has left
 * zero by more than HES__AT_ZERO of the state's scale, and from then on
 * as any armed guard (integrator.c; simulate.c sets it). */
#define HES__ARMED_AT_ZERO 2
#define HES__AT_ZERO 1e-9

struct hes_system {
    /* The kind (hes_system_kind): an event-driven hybrid model (model), or
     * an event-selected system (ess_model, integrated by ess with the orbit
     * options eopt; model is NULL, and the hybrid layer's own functions
     * refuse it through hes__need_hybrid). */
    hes_kind kind;
    const hes_model *model;
    const hes_ess_model *ess_model;
    struct hes_ess *ess;
    hes_ess_orbit_options eopt;
    double orbit_period;   /* ESS: the period's guess (NaN: the model's) */
    /* the model's name and parameter table, whatever its kind */
    const char *name;
    int n_params;
    const hes_param *params;
    double *p;
    hes_settings set;
    char errmsg[512];
    SUNContext ctx;
    hes_mode_ws *ws;
    int nmax;              /* largest mode dimension */
    unsigned char *armed;  /* per transition: guard watched by the root finder (1), or
                              HES__ARMED_AT_ZERO */
    double *work;          /* scratch for callbacks and finite differences */
    size_t work_len;
    /* Scratch of the event linearisations, sized for the largest mode at
     * creation so that they never allocate (hes_system_new): */
    double *salt_ws;       /* saltation(): 5 nmax + nmax^2 */
    double *sec_ws;        /* hes__section_matrix: 2 nmax + 2 nmax^2 */
    double *svd_ws;        /* its SVD: 2 nmax^2 + 2 nmax + 1, then svd_lwork for dgesvd */
    int svd_lwork;
    hes_status cb_status;  /* first failure inside a CVODES callback */
    char cvode_msg[256];   /* last message of the CVODES error handler */
    double *orbit_start;   /* hes_system_set_orbit_start, or NULL: the model's guess */
    int orbit_returns;     /* hes_system_set_orbit_returns: returns to the section per period */
    double deadline;       /* monotonic clock time at which the current simulation call
                              exceeds settings.max_wall_time (hes__budget_start) */
};

/* HES_OK for a hybrid system; for another kind HES_EINVAL with the message
 * that `what` needs an event-driven hybrid model (system.c). */
hes_status hes__need_hybrid(hes_system *sys, const char *what);
/* An ESS system's integrator as the last analysis left it (its parameters
 * those of that analysis), for a document of that analysis; NULL for a
 * hybrid system.  hes_system_ess gives it with the system's values. */
const hes_ess *hes__system_ess(const hes_system *sys);
/* The settings' budget names into an ESS system's orbit options
 * (system.c; hes_system_set_ess_options says which). */
void hes__ess_of_settings(hes_ess_orbit_options *o, const hes_settings *s);
/* One more unknown and one more equation for the orbit search: the
 * parameter `param` joins the unknowns u = (free states, free parameters,
 * p[param]) and the linear equation w . u = c joins the residual (a
 * continuation's arclength or parameter condition).  no_full_check skips
 * the check with every guard armed (a continuation checks that itself, to
 * locate where it fails). */
typedef struct {
    int param;
    const double *w;       /* n_free_states + n_free_params + 1 weights */
    double c;
    int no_full_check;
} hes__orbit_extra;
/* The parameter as one more unknown of the ESS orbit search, with the
 * linear equation w . u = c over its unknowns u = (x0 without x0_c, T, p)
 * (ess_orbit.c). */
typedef struct {
    int param;
    const double *w;       /* n + 1 weights */
    double c;
} hes__ess_extra;
hes_status hes__ess_orbit_find_extra(hes_ess *e, const hes_ess_orbit_options *opts,
                                     const hes__ess_extra *extra, const double *x_guess,
                                     double T_guess, hes_ess_orbit *res);
/* The orbit and stability of an ESS system into res (analyze_ess.c); with
 * extra (NULL: none) the parameter extra->param joins the unknowns with
 * extra->w over (the n section states, the parameter) as in
 * hes__orbit_extra (the section component's weight applies to its fixed
 * value). */
hes_status hes__analyze_ess(hes_system *sys, int check, const hes__orbit_extra *extra,
                            hes_analysis *res);

/* The integrators go in chunks of this many steps (CVODES's mxstep), so that
 * the step and wall-time budgets are checked between them. */
#define HES__STEP_CHUNK 1000

/* A system of src's model with src's parameters, settings and orbit start
 * (another thread's own), or NULL without memory. */
hes_system *hes__system_copy(const hes_system *src);
/* The model's supplied Jacobians at the start and end of each mode's phase
 * of res's orbit (res->jacobians, the worse); with
 * settings.check_derivatives a disagreement is HES_EMODEL naming the entry
 * (analyze.c). */
hes_status hes__analysis_check_jacobians(hes_system *sys, hes_analysis *res);

/* Starts the wall-time budget of a simulation call (sys->deadline). */
void hes__budget_start(hes_system *sys);

/* Records a failure message on the system and returns status. */
hes_status hes__fail(hes_system *sys, hes_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Model evaluations with finite-difference fallbacks (eval.c).  Each checks
 * the callback's return value and the finiteness of its output. */
hes_status hes__field(hes_system *sys, int mode, double t, const double *x, double *out);
/* The mode's admissible check of a start state (hes_mode.admissible). */
hes_status hes__admissible(hes_system *sys, int mode, double t, const double *x);
/* The mode's projector onto the perturbations of x its flow is
 * differentiable along (hes_mode.consistent; the identity without it):
 * out, n x n. */
hes_status hes__consistent(hes_system *sys, int mode, double t, const double *x, double *out);
hes_status hes__field_dx(hes_system *sys, int mode, double t, const double *x, double *out);
hes_status hes__guard(hes_system *sys, int tr, double t, const double *x, double *g);
hes_status hes__guard_dx(hes_system *sys, int tr, double t, const double *x, double *out);
hes_status hes__guard_dt(hes_system *sys, int tr, double t, const double *x, double *out);
hes_status hes__reset(hes_system *sys, int tr, double t, const double *x, double *out);
hes_status hes__reset_dx(hes_system *sys, int tr, double t, const double *x, double *out);
hes_status hes__reset_dt(hes_system *sys, int tr, double t, const double *x, double *out);

/* A mode's tangent space (tangent.c; hes_mode's chart, the identity of
 * R^dim for a mode without one).  hes__retract: out[dim] = retract(x,
 * delta[tdim]); hes__local: out[tdim] = local(x1, x0); hes__normalize: x
 * onto the manifold in place (nothing without normalize);
 * hes__tangent_basis: E (dim x tdim); hes__cotangent_basis: P (tdim x dim),
 * the model's cotangent or (E^T E)^-1 E^T; hes__to_tangent: out (tdim_J x
 * tdim_I) = P_J(x_out) M E_I(x_in) for an ambient M (dim_J x dim_I), M
 * itself when neither mode has a chart. */
hes_status hes__retract(hes_system *sys, int mode, const double *x, const double *delta,
                        double *out);
hes_status hes__local(hes_system *sys, int mode, const double *x1, const double *x0,
                      double *out);
hes_status hes__normalize(hes_system *sys, int mode, double *x);
hes_status hes__tangent_basis(hes_system *sys, int mode, const double *x, double *E);
hes_status hes__cotangent_basis(hes_system *sys, int mode, const double *x, double *P);
hes_status hes__to_tangent(hes_system *sys, int mode_out, const double *x_out, int mode_in,
                           const double *x_in, const double *M, double *out);
/* Whether any mode of m has a chart; HES_EINVAL naming the first such mode
 * for a computation (`what`) that does not support them, else HES_OK. */
int hes__model_has_chart(const hes_model *m);
hes_status hes__refuse_charts(hes_system *sys, const char *what);

/* The integration of one phase (integrator.c: CVODES or the explicit
 * integrator, as the model chooses).  hes__phase_start starts mode `mode` at
 * model time tm from x, with identity initial sensitivities when sens != 0.
 * hes__phase_run integrates from *tret (the current time) towards tstop
 * within the step and wall-time budgets; it returns with *root = 1 at a
 * crossing of an armed guard (ws->rootsfound flags the root functions
 * crossed) or *root = 0 at tstop, *tret the time reached.  The state there
 * is hes__phase_state, its sensitivities hes__phase_sens (n x n into A). */
hes_status hes__phase_start(hes_system *sys, int mode, double tm, const double *x, int sens);
hes_status hes__phase_run(hes_system *sys, int mode, double tstop, double *tret, int *root);
const double *hes__phase_state(const hes_system *sys, int mode);
hes_status hes__phase_sens(hes_system *sys, int mode, double *A);

/* The rate at which the guard of transition tr is crossed at (t, x) of its
 * source mode, rate = Dtg + Dxg F_I, and the scale |(Dtg, Dxg)| |(1, F_I)|:
 * in (t, x) space the flow (1, F_I) meets the guard surface, normal
 * (Dtg, Dxg), at an angle whose sine is |rate| / scale.  F_I and Dxg (n_I
 * values each) are returned for reuse (saltation.c). */
hes_status hes__guard_rate(hes_system *sys, int tr, double t, const double *x, double *F_I,
                           double *Dxg, double *rate, double *scale);
/* The saltation matrix (hes_saltation) by its pieces P = (Dxg, Dtg, DxR,
 * DtR) (hes__saltation_pieces_len values), for events whose F_I and F_J are
 * known (shape contexts, where shape parameters move nothing else):
 * evaluated at (t, x), turned into Xi with the grazing test, and the
 * derivative dXi of the formula along a change dP of the pieces with F_I
 * and F_J fixed (saltation.c). */
int hes__saltation_pieces_len(int ni, int nj);
hes_status hes__saltation_pieces(hes_system *sys, int tr, double t, const double *x, double *P);
hes_status hes__saltation_of_pieces(hes_system *sys, int tr, double t, const double *P,
                                    const double *F_I, const double *F_J, double *xi);
void hes__saltation_derivative(int ni, int nj, const double *P, const double *dP,
                               const double *F_I, const double *F_J, double *dxi);
/* Grazing: the sine of the crossing angle is at most settings.graze_tol. */
int hes__grazing(const hes_system *sys, double rate, double scale);
/* The saltation formula (paper eq. 2), n_J x n_I into xi:
 *     Xi = DxR + (F_J - DxR F_I - DtR) Dxg / den,   den = Dtg + Dxg F_I,
 * or with F_J = NULL the clock-local matrix DxR - (DxR F_I + DtR) Dxg / den
 * (hes__saltation_clock).  xi must not alias DxR. */
void hes__saltation_formula(int ni, int nj, const double *DxR, const double *DtR,
                            const double *F_I, const double *Dxg, double den,
                            const double *F_J, double *xi);

/* HES_EGRAZING unless the event of transition tr at (t, x) is transversal
 * (saltation.c). */
hes_status hes__event_transversal(hes_system *sys, int tr, double t, const double *x);

/* Appends a phase (copies of x0, x1 and, if not NULL, A) to a trajectory
 * (simulate.c). */
hes_status hes__traj_append_phase(hes_traj *traj, int mode, int n, double t0, double t1,
                                  double tm0, const double *x0, const double *x1,
                                  const double *A);

hes_status hes__saltation_clock(hes_system *sys, int tr, double t, const double *x, double *xi);

/* The section matrix S = DxR (I - F_I Dxg / (Dxg F_I)) (n_J x n_I) of the
 * section event of transition tr at (tm, x_minus): the return-map Jacobian is
 * P = S Q with Q the product of every factor before the event.  normal (may
 * be NULL) receives a unit vector with normal^T S = 0, hence normal^T P = 0,
 * whatever the rank of the reset, or the zero vector when S has full row rank
 * and the return map has no trivial multiplier (monodromy.c). */
hes_status hes__section_matrix(hes_system *sys, int tr, double tm, const double *x_minus,
                               double *S, double *normal);

/* Storage of st for n x n matrices (arrays and the workspace that
 * hes_stability_update then reuses without allocating), freed by
 * hes_stability_free (stability.c). */
hes_status hes__stability_alloc(hes_stability *st, int n);

/* The quotient of a return map P (n x n) by s symmetric directions Y (n x s)
 * (symmetry.c): the orthonormal bases U (n x s, span Y) and W (n x (n - s)),
 * D = W^T P W ((n - s) x (n - s)), A = U^T P U (s x s), the quotient's
 * section normal W^T normal (NULL without one), and residual = |W^T P U| /
 * max(1, |P|_F).  All point into work (hes__symmetry_work(n, s) doubles).
 * HES_EDEFECTIVE when the generators are dependent. */
typedef struct {
    int n, s;
    const double *U, *W, *D, *A, *normal;
    double residual;
} hes_symmetry_quotient;
size_t hes__symmetry_work(int n, int s);
/* d (n: a difference of states at x0, in tangent coordinates) less its
 * components along the orbit's symmetric directions at x0 (sys's model's
 * hes_orbit_spec.symmetries; none: unchanged); work holds n s doubles. */
hes_status hes__symmetry_remove(hes_system *sys, const double *x0, double *d, double *work,
                                int n);
hes_status hes__symmetry_quotient(const double *P, const double *normal, int n, const double *Y,
                                  int s, double *work, hes_symmetry_quotient *q);
/* W (n x (n - s), n the orbit mode's tangent dimension): an orthonormal
 * basis of the complement of the orbit's symmetric directions at x0 (the
 * identity without symmetries), *m = n - s; the unknowns of an orbit
 * solved in the quotient (hes_orbit_spec.free_quotient). */
hes_status hes__symmetry_complement(hes_system *sys, const double *x0, int n, double *W,
                                    int *m);

/* Whether eigenvalue j (index into st->all_*) of a stability analysis is
 * repeated or defective, so that eigenvalue perturbation does not give its
 * derivative: another eigenvalue (not its conjugate) within
 * HES_EIG_GAP_MIN max(1, |lambda_j|), or a condition number 1 / |w^H v|
 * above HES_EIG_COND_MAX.  buf holds 4 n doubles (stability.c). */
#define HES_EIG_GAP_MIN 1e-5
#define HES_EIG_COND_MAX 1e5
int hes__eig_repeated(const hes_stability *st, int j, double *buf);

/* The stability measure of the multiplier moduli abs[0..n) (descending,
 * abs[0] = psi): psi itself, or the smooth measure
 *     psi (sum_k (|lambda_k| / psi)^p)^(1/p) = (sum_k |lambda_k|^p)^(1/p),
 * p = HES_SMOOTH_P.  weights (n values, may be NULL) receives
 * d measure / d |lambda_k|: 1 for psi's multiplier (psi), and for the smooth
 * measure (sum_j (|lambda_j| / psi)^p)^(1/p - 1) (|lambda_k| / psi)^(p - 1),
 * set to 0 below 1e-10 (negligible multipliers, such as the exact zeros of
 * plastic impacts, whose derivatives are not needed) (stability.c). */
double hes__measure(const double *abs, int n, hes_measure measure, double *weights);

/* Eigenvector j of a dgeev eigenvector matrix V as a complex vector, and the
 * condition number 1/|w^H v| (unit vectors) of eigenvalue j; buf holds 4n
 * doubles (stability.c). */
void hes__eigvec(const double *V, int n, const double *wi, int j, double *re, double *im);
double hes__eig_condition(const double *vl, const double *vr, const double *wi, int n,
                          int j, double *buf);

/* Periodic-orbit shooting used by orbit.c and the finite-difference check. */
/* hes_orbit_find with an extra equation (NULL: none); the parameter keeps
 * its solved value in sys->p (orbit.c). */
hes_status hes__orbit_find_extra(hes_system *sys, const hes__orbit_extra *extra,
                                 hes_orbit *orbit);
/* The checks of an orbit found with no_full_check: the same events with
 * every guard armed, and no guard crossed unseen (orbit.c); HES_ENOORBIT
 * with the reason. */
hes_status hes__orbit_verify(hes_system *sys, const hes_orbit *orbit);
/* hes_analyze of a hybrid system whose orbit search has an extra equation
 * (analyze.c). */
hes_status hes__analyze_extra(hes_system *sys, int check, const hes__orbit_extra *extra,
                              hes_analysis *res);
hes_status hes__shoot(hes_system *sys, const double *x0, int sensitivities,
                      hes_traj *traj, double *x_ret);

#endif
