/**
 * \file
 * hes/continuation.h - following a periodic orbit as one parameter moves:
 * the branch of orbits from one value to another, its stability along the
 * way, and where the stability changes, located and classified by the
 * multiplier that crosses the unit circle.
 *
 * Part of <hes.h>; include that.
 */
#ifndef HES_H_CONTINUATION
#define HES_H_CONTINUATION

#include <hes/batch.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ continuation */
/**
 * How a branch's stability changes between two of its points: which
 * nontrivial multiplier leaves or enters the unit circle where psi crosses
 * 1.  A real multiplier through +1 is a fold of the branch where the orbit
 * depends on the parameter and the branch turns (a saddle-node), and an
 * exchange of stability where it does not (as for a shape parameter, which
 * leaves the orbit alone); through -1 a period doubling; a complex pair a
 * Neimark-Sacker (torus) bifurcation.
 */
typedef enum {
    HES_CROSS_NONE = 0,      /**< no change of stability */
    HES_CROSS_PLUS_ONE,      /**< a real multiplier through +1 */
    HES_CROSS_MINUS_ONE,     /**< a real multiplier through -1: period doubling */
    HES_CROSS_COMPLEX        /**< a complex pair through the unit circle: Neimark-Sacker */
} hes_crossing;

/** "none", "+1", "-1" or "complex" (any other value: "?"). */
const char *hes_crossing_name(hes_crossing c);

/**
 * What a labelled point of a branch is.  The bifurcations are located
 * where a test function of the nontrivial multipliers lambda_i changes
 * sign between two points (Kuznetsov, "Elements of Applied Bifurcation
 * Theory", Sec. 10.3 for maps): prod (lambda_i - 1) for a multiplier
 * through +1, prod (lambda_i + 1) for one through -1, prod_{i<j} (lambda_i
 * lambda_j - 1) for a complex pair through the unit circle; grazing where
 * a guard's smallest value between its own events along the orbit reaches
 * zero; a simultaneous event where the time from one event of the orbit
 * to the next (of another transition), taken around the period into
 * (-T/2, T/2], changes sign.
 */
typedef enum {
    HES_LABEL_NONE = 0,      /**< an ordinary point */
    HES_LABEL_EP,            /**< an end of the branch (its first or last point) */
    HES_LABEL_SN,            /**< a fold (saddle-node): a multiplier +1 where the branch
                                  turns back in the parameter */
    HES_LABEL_BP,            /**< a multiplier +1 where the branch does not turn (an
                                  exchange of stability, or a shape parameter's +1) */
    HES_LABEL_PD,            /**< a period doubling: a multiplier -1 */
    HES_LABEL_NS,            /**< Neimark-Sacker: a complex pair on the unit circle */
    HES_LABEL_GR,            /**< grazing: a guard touched tangentially along the orbit
                                  (the guard's name in hes_continuation_point.detail) */
    HES_LABEL_SEQ,           /**< the orbit's event sequence changes (the branch ends) */
    HES_LABEL_SIM            /**< two events of the orbit at the same instant (their names,
                                  "A+B", in hes_continuation_point.detail): where their
                                  order, measured around the period, changes */
} hes_label;

/** "", "EP", "SN", "BP", "PD", "NS", "GR", "SEQ" or "SIM" (any other value: "?"). */
const char *hes_label_name(hes_label l);

/** How the branch is parameterised (hes_continuation_options.method). */
typedef enum {
    HES_CONT_AUTO = 0,       /**< pseudo-arclength; natural where the orbit's mode has a
                                  chart (a state on a manifold, such as a free joint's
                                  quaternion) or is solved in a quotient by symmetries,
                                  whose orbit search takes no extra equation (there
                                  HES_CONT_ARCLENGTH is refused, as are branch switching
                                  and curves of two parameters) */
    HES_CONT_NATURAL,        /**< the parameter itself: stops at a fold */
    HES_CONT_ARCLENGTH       /**< pseudo-arclength (Keller): follows the branch around
                                  folds */
} hes_continuation_method;

struct hes_continuation;

/** What finds each orbit of a branch (hes_continuation_options.corrector). */
typedef enum {
    HES_CORRECT_SHOOTING = 0, /**< the orbit pipeline's shooting from the predictor */
    HES_CORRECT_COLLOCATION   /**< direct collocation (hes_colloc_solve), warm-started from
                                   the last orbit's, then the pipeline's shooting from the
                                   collocated section state for the multipliers: for long
                                   or very unstable orbits, where shooting from a predictor
                                   fails; an autonomous hybrid orbit of one return, natural
                                   steps in the parameter, hes_continue and
                                   hes_continue_both only */
} hes_continuation_corrector;

/** How to follow the branch (hes_continuation_options_init sets every field). */
typedef struct {
    double step;             /**< first step in the parameter, > 0 (0: (to - from) / 50) */
    double min_step;         /**< the smallest step before the branch is given up, > 0 (0:
                                  1e-6 of |to - from|) */
    double max_step;         /**< the largest step, >= step (0: (to - from) / 10) */
    double tol;              /**< where a test function changes sign, the point is located
                                  to this in the parameter (for a fold, in the branch's
                                  arclength scaled as the parameter), > 0 (0: 1e-8 of
                                  max(1, |from|, |to|)) */
    double max_jump;         /**< a point is accepted when its section state and period
                                  lie within max_jump of the predictor's, relative to the
                                  predictor's step in them (the step halves else: a jump
                                  to another branch is refused); > 0 (0: 0.5) */
    int max_points;          /**< the most points kept, 2 to 100000 (0: 1000) */
    hes_continuation_method method; /**< (0: HES_CONT_AUTO) */
    /** Called after each point is kept (NULL: nothing), with the branch so
     * far (its last point the new one); a nonzero return stops the branch
     * there (reached 0, why "stopped by the caller"). */
    int (*progress)(void *ctx, const struct hes_continuation *branch);
    void *progress_ctx;      /**< progress's first argument */
    hes_continuation_corrector corrector; /**< (0: HES_CORRECT_SHOOTING) */
    int colloc_nodes;        /**< the collocation corrector's nodes per phase, 3 to 1001
                                  (0: 21) */
} hes_continuation_options;

/** The defaults: every field 0, which each field's description resolves. */
void hes_continuation_options_init(hes_continuation_options *o);

/** One point of a branch: an orbit at one value of the parameter. */
typedef struct {
    double value;            /**< the parameter */
    double value2;           /**< on a curve of two parameters (hes_continue_curve), the
                                  second; NaN on a branch */
    double period;           /**< the orbit's period */
    double psi;              /**< the largest modulus of its nontrivial multipliers */
    double psi_tol;          /**< psi's accuracy (hes_stability.psi_tol) */
    hes_verdict verdict;     /**< stable, unstable or marginal */
    /** At a point located where psi crosses 1: which multiplier crosses
     * (else HES_CROSS_NONE) */
    hes_crossing crossing;
    hes_label label;         /**< what the point is (HES_LABEL_NONE: an ordinary one) */
    char detail[HES_NAME_MAX + 1]; /**< for HES_LABEL_GR the guard's transition name,
                                        for HES_LABEL_SEQ the event that changed; else "" */
    double s;                /**< the branch's arclength at this point, in the scaled
                                  norm of the parameter and the section state */
    /** A hybrid system's guard clearances along the orbit
     * (hes_orbit_guard_margins): margins[k] for transition k
     * (hes_continuation.n_guards values; +INFINITY: no interior minimum), NULL
     * for an ESS system */
    double *margins;
    int full;                /**< 1: an orbit of the full system (the same events with every
                                  guard armed, none crossed unseen), as every point a branch
                                  keeps is */
    int n_mult;              /**< its nontrivial multipliers */
    /** n_mult multipliers by modulus, descending (real and imaginary parts) @{ */
    double *re, *im;
    /** @} */
    double *x0;              /**< the section state (hes_continuation.n values) */
    /** The state just after each of the orbit's section events, in the
     * order of the orbit (hes_continuation.returns times n values): a
     * period-2 orbit's two states, the two prongs of a bifurcation diagram.
     * For an autonomous orbit these are its returns (the last is x0 again);
     * for a stroboscopic one its section events' states (the juggler's
     * apexes), not the states at multiples of its period.  NULL for an ESS
     * system. */
    double *xr;
    int n_events;            /**< a hybrid system's orbit's events per period (0: ESS) */
    /** The smallest sine of the angle at which the orbit's events cross
     * their guards in (t, x) space, |Dtg + Dxg F| / (|(Dtg, Dxg)| |(1, F)|),
     * before each event and, for a transition back into its own mode with a
     * reset, after it too (0: an event that only touches its guard, or a
     * bounce that leaves it at zero speed: a grazing event; NaN for an ESS
     * system), and that event's index in the orbit (-1: none) @{ */
    double tangency;
    int tangency_event;
    /** @} */
    /** Their times from the orbit's start and their transitions, in the
     * order of the orbit (n_events each; NULL for an ESS system) @{ */
    double *event_t;
    int *event_tr;
    /** @} */
} hes_continuation_point;

/** A branch (hes_continue); free it with hes_continuation_free. */
typedef struct hes_continuation {
    char param[HES_NAME_MAX + 1]; /**< the parameter followed */
    char param2[HES_NAME_MAX + 1]; /**< a curve's second parameter (else "") */
    int n;                   /**< the section state's dimension */
    int n_guards;            /**< the model's transitions: the points' margins (0: an ESS
                                  system's branch, no margins) */
    int returns;             /**< the orbit's returns to the section per period: 1, or 2
                                  on a branch switched at a period doubling */
    hes_continuation_method method; /**< the parameterisation used */
    int n_points;            /**< points, in the order of the branch */
    hes_continuation_point *points; /**< n_points of them */
    int reached;             /**< 1: the branch was followed to `to`; 0: it ended before */
    char why[HES_ERROR_LEN]; /**< where it ended before `to`, why (else "") */
} hes_continuation;

/**
 * Follows the periodic orbit of sys as the parameter `param` goes from
 * `from` towards `to` (either direction).  The first point is the system's
 * orbit search at `from`, started from its orbit start
 * (hes_system_set_orbit_start) or the model's guess; with
 * hes_system_set_orbit_returns it is an orbit of that many returns.
 *
 * Pseudo-arclength (o->method): the unknowns are the section state's free
 * states (an ESS system: its state and period) and the parameter, the
 * equations the shooting residual and Keller's hyperplane through the
 * secant predictor orthogonal to the secant, in coordinates scaled by each
 * unknown's size, so the branch is followed around folds.  Natural (on
 * request): the system's orbit search at each value of the parameter,
 * started from the secant predictor; it stops at a fold.  Steps grow on
 * easy points and halve on a failed or far correction.
 *
 * Along the way every sign change of a test function (hes_label) between
 * two points is located by the secant method with bisection on the
 * branch, to o->tol, and added as a labelled point; so is a change of
 * stability (psi through 1: hes_continuation_point.crossing).  The first
 * and last points are HES_LABEL_EP.  The branch ends (reached 0, the reason
 * in why, HES_OK still) when the parameter leaves the interval between
 * `from` and `to` on the `from` side (after a fold), when the orbit is lost
 * with the smallest step (a fold under natural parameterisation, a grazing
 * event or a change of the event sequence, the edge of the parameter's
 * range), or when max_points are kept.
 * The system's parameter is restored on return, and its orbit start (and
 * an ESS system's period guess, which the branch predicts too) is the
 * model's guess again.
 * HES_EINVAL for an unknown parameter, a solved or non-finite one, from ==
 * to or options out of range; the
 * status of the orbit search at `from` when there is no orbit there;
 * HES_ENOMEM.  The reason is in err (may be NULL); on failure *out is left
 * empty.
 */
hes_status hes_continue(hes_system *sys, const char *param, double from, double to,
                        const hes_continuation_options *o, hes_continuation *out,
                        hes_error *err);

/**
 * Both directions from one start: the branch from `at` down to `lo` into
 * *down and up to `hi` into *up (lo < at < hi), each as hes_continue
 * follows it, with `threads` 2 on two threads (each on its own copy of the
 * system; 1: one after the other).  The results do not depend on threads.
 * The options' progress callback is called by one direction at a time
 * (under a lock), with that direction's branch.
 * On failure of either both are left empty and err has the first failure.
 */
hes_status hes_continue_both(hes_system *sys, const char *param, double lo, double at,
                             double hi, const hes_continuation_options *o, int threads,
                             hes_continuation *down, hes_continuation *up, hes_error *err);

/**
 * Resumes a branch: `partial` (a branch of sys's parameter that ended
 * before its end, e.g. stopped by a progress callback or by max_points, or
 * read back from a file) is continued from its last two points towards
 * `to`, in the same parameterisation and returns; *out holds partial's
 * points followed by the new ones.  The continuation's state is its points
 * (the step starts from o->step again).  HES_EINVAL for a partial branch
 * of fewer than two points, of another parameter or section dimension,
 * or with points of no section state.
 */
hes_status hes_continue_resume(hes_system *sys, const hes_continuation *partial, double to,
                               const hes_continuation_options *o, hes_continuation *out,
                               hes_error *err);

/**
 * Branch switching at a period doubling: from point `at` of `branch` (a
 * point labelled HES_LABEL_PD, of a branch of sys and its parameter), the
 * orbit of twice the returns born there: the orbit of the doubled returns
 * whose free states lie eps along the unit eigenvector v of the point's
 * multiplier -1 (v . (u - u_PD) = eps, the parameter solved), for eps a
 * small fraction of the state's size (tried from 1e-3 down to 1e-6 and
 * 1e-2) that gives an orbit that is not the branch's own; the branch's
 * first two points are those at eps and 2 eps, and it is followed from
 * them towards `to` as hes_continue follows a branch, within the interval
 * from the PD's parameter to `to` and as far on its other side (where a
 * subcritical branch lies).  out->returns is twice branch->returns.
 * HES_EINVAL for a point that is not a PD or an ESS system; HES_ENOORBIT
 * when no orbit of the doubled returns is found near it.
 */
hes_status hes_continue_doubled(hes_system *sys, const hes_continuation *branch, int at,
                                double to, const hes_continuation_options *o,
                                hes_continuation *out, hes_error *err);

/**
 * Two-parameter continuation: the curve in the plane of the branch's
 * parameter p and a second parameter q along which the bifurcation of
 * point `at` of `branch` (labelled SN, BP, PD or NS), or its grazing (GR,
 * the guard's margin's zero), persists: a stability or existence boundary
 * drawn as a curve, not a grid.  The curve starts at that point,
 * with q at the system's value (the one the branch was computed at), and
 * follows q towards `to2`: at each value of q the label is located again on
 * the branch through the predicted point (two orbits on either side of it
 * along the branch, by pseudo-arclength on a hybrid system, then the
 * located zero of the label's test function, to o->tol), with steps in q
 * (o->step, min_step, max_step in q's units) that halve where the location
 * fails.  Each point of the curve is a located point with its label, value
 * (p), value2 (q), orbit and multipliers; out->param2 names q.  The curve
 * ends before `to2` (reached 0, the reason in why) where the label is
 * lost: the bifurcation ends (a codimension-two point), the orbit ends, or
 * the steps fall below min_step.
 * HES_EINVAL for a point of another label, an unknown or solved q, q the
 * branch's parameter, or bad options; the status of the orbit search when
 * the label cannot be located at the first step.
 */
hes_status hes_continue_curve(hes_system *sys, const hes_continuation *branch, int at,
                              const char *param2, double to2,
                              const hes_continuation_options *o, hes_continuation *out,
                              hes_error *err);

/** Frees one point's arrays and clears it (NULL: nothing): for a point
 * moved out of a branch, which hes_continuation_free no longer reaches. */
void hes_continuation_point_free(hes_continuation_point *pt);

/** Frees a branch's points and clears it (NULL: nothing). */
void hes_continuation_free(hes_continuation *c);

#ifdef __cplusplus
}
#endif

#endif /* HES_H_CONTINUATION */
