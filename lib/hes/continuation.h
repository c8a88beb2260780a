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

/** How to follow the branch (hes_continuation_options_init sets every field). */
typedef struct {
    double step;             /**< first step in the parameter, > 0 (0: (to - from) / 50) */
    double min_step;         /**< the smallest step before the branch is given up, > 0 (0:
                                  1e-6 of |to - from|) */
    double max_step;         /**< the largest step, >= step (0: (to - from) / 10) */
    double tol;              /**< where psi crosses 1, the parameter is located to this,
                                  > 0 (0: 1e-8 of max(1, |from|, |to|)) */
    double max_jump;         /**< a point is accepted when its section state and period
                                  lie within max_jump of the secant predictor's,
                                  relative to the predictor's step in them (the step
                                  halves else: a jump to another branch is refused);
                                  > 0 (0: 0.5) */
    int max_points;          /**< the most points kept, 2 to 100000 (0: 1000) */
} hes_continuation_options;

/** The defaults: every field 0, which each field's description resolves. */
void hes_continuation_options_init(hes_continuation_options *o);

/** One point of a branch: an orbit at one value of the parameter. */
typedef struct {
    double value;            /**< the parameter */
    double period;           /**< the orbit's period */
    double psi;              /**< the largest modulus of its nontrivial multipliers */
    double psi_tol;          /**< psi's accuracy (hes_stability.psi_tol) */
    hes_verdict verdict;     /**< stable, unstable or marginal */
    /** At a point located where psi crosses 1: which multiplier crosses
     * (else HES_CROSS_NONE) */
    hes_crossing crossing;
    int n_mult;              /**< its nontrivial multipliers */
    /** n_mult multipliers by modulus, descending (real and imaginary parts) @{ */
    double *re, *im;
    /** @} */
    double *x0;              /**< the section state (hes_continuation.n values) */
} hes_continuation_point;

/** A branch (hes_continue); free it with hes_continuation_free. */
typedef struct {
    char param[HES_NAME_MAX + 1]; /**< the parameter followed */
    int n;                   /**< the section state's dimension */
    int n_points;            /**< points, in the order of the parameter's path */
    hes_continuation_point *points; /**< n_points of them */
    int reached;             /**< 1: the branch was followed to `to`; 0: it ended before */
    char why[HES_ERROR_LEN]; /**< where it ended before `to`, why (else "") */
} hes_continuation;

/**
 * Follows the periodic orbit of sys as the parameter `param` goes from
 * `from` to `to` (either direction), by natural-parameter continuation: the
 * orbit at each value is the system's orbit search (the one shooting
 * pipeline, hes_analyze: hybrid or ESS) started from the secant predictor
 * of the two points before it, with steps that grow on easy points and
 * halve on a failed or far correction.  Where psi crosses 1 between two
 * points, the crossing is located by bisection in the parameter to
 * o->tol and added as a point with its hes_crossing.  The branch ends
 * before `to` (reached 0, the reason in why, HES_OK still) when the orbit is
 * lost with the smallest step: a fold of the branch (a multiplier near +1,
 * which natural-parameter continuation cannot pass), a grazing event, or the
 * edge of the parameter's range.
 * The system's parameter is restored on return, and its orbit start (and
 * an ESS system's period guess, which the branch predicts too) is the
 * model's guess again.
 * HES_EINVAL for an unknown parameter, a solved or non-finite one, from ==
 * to, or options out of range; the status of the orbit search at `from`
 * when there is no orbit there; HES_ENOMEM.  The reason is in err (may be
 * NULL); on failure *out is left empty.
 */
hes_status hes_continue(hes_system *sys, const char *param, double from, double to,
                        const hes_continuation_options *o, hes_continuation *out,
                        hes_error *err);

/** Frees a branch's points and clears it (NULL: nothing). */
void hes_continuation_free(hes_continuation *c);

#ifdef __cplusplus
}
#endif

#endif /* HES_H_CONTINUATION */
