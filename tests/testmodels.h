/*
 * testmodels.h - models that exist only for the test suites (compiled once
 * into tests/libtestmodels.la and linked by every suite).
 *
 * All are a ball on a fixed floor at height 0 (tests/testmodels.c states the
 * model): simple enough that every quantity a test compares with has a
 * closed form, and each variant breaks exactly one thing.  None declares a
 * periodic orbit (orbit.guess == NULL: simulation only).
 */
#ifndef HES_TESTMODELS_H
#define HES_TESTMODELS_H

#include "hes.h"

/* Mode "air" [y, v]; transition "bounce" air -> air, guard y crossed
 * downward, reset [y, -alpha v]; parameters alpha (0.5, [0, 1]) and g
 * (9.81, positive).  Every Jacobian is supplied and correct. */
extern const hes_model test_bouncing_ball;

/* The same ball, but the bounce guard fires only when y crosses zero
 * upward: a ball falling from above the floor never takes an event. */
extern const hes_model test_bouncing_ball_up;

/* The same ball with one wrong Jacobian each, for
 * hes_model_check_derivatives to catch:
 *   ..._bad_field_dx:  dF/dx[0,1] = dy'/dv is 2 instead of 1;
 *   ..._bad_reset_dx:  DxR[1,1] = dv+/dv- is +alpha instead of -alpha. */
extern const hes_model test_bouncing_ball_bad_field_dx;
extern const hes_model test_bouncing_ball_bad_reset_dx;

/* A synthetic problem with many shape parameters (tests/hopf_kicks.c):
 * the Hopf oscillator split by TEST_HOPF_EVENTS virtual events, each with a
 * radial-kick shape parameter h_k (parameters mu, omega, h0..h19); closed
 * form psi = exp(-4 pi mu / omega) prod |1 + h_k|. */
#define TEST_HOPF_EVENTS 20
extern const hes_model test_hopf_kicks;

/* The built-in twin jugglers with the two impacts listed in the other order
 * (problems/twin_jugglers.c; exported by the library, not registered). */
extern const hes_model hes__problem_twin_jugglers_swapped;

/* The simplest walking model of Garcia et al. (1998) with its section just
 * after the plastic heelstrike (rank-2 reset Jacobian) or at midstance
 * (share/examples/simplest_walker.c, compiled into this library). */
extern const hes_model simplest_walker_heelstrike;
extern const hes_model simplest_walker_midstance;
/* The bouncing ball on a vibrating table, its amplitude the parameter
 * (share/examples/bouncing_ball.c, compiled into this library). */
extern const hes_model bouncing_ball;

/* Models with a periodic orbit (tests/orbit_models.c, which states them):
 * a bouncing ball whose apex height is the unknown (a Zeno rest point for
 * e < 1, a neutral family for e = 1); a model whose orbit residual misses a
 * state that its reset changes. */
extern const hes_model test_zeno_ball;
extern const hes_model test_drifting_counter;

/* Indices into the parameter vector of every ball above. */
enum { TEST_BALL_ALPHA = 0, TEST_BALL_G = 1, TEST_BALL_NPARAMS = 2 };

/* Models of tests/test_statuses.c (tests/status_models.c, which states
 * them): a kicked bouncing ball with an orbit (psi = e), shape parameters
 * h_bounce and h_apex and a bit mask "fault" of broken callbacks; a fast
 * oscillator; a mechanical mode of a point mass whose mass is p[0]. */
enum {
    STATUS_FAULT_RESET_DX_FAILS = 1, /* the bounce's reset_dx returns 5 */
    STATUS_FAULT_RESET_DX_NAN = 2,   /* ... or writes NaN */
    STATUS_FAULT_GUESS_FAILS = 4,    /* the orbit guess returns 1 */
    STATUS_FAULT_GUESS_PICKY = 8,    /* ... unless h_bounce is 0 */
    STATUS_FAULT_GUESS_OFF = 16,     /* the guessed apex height is 10% off */
    STATUS_FAULT_FIELD_NAN = 32,     /* the field is NaN below y = -0.25 */
    STATUS_FAULT_FLOOR = 64          /* the field refuses y < -1000 (code 3) */
};
extern const hes_model test_status_probe;
extern const hes_model test_status_spin;
extern const hes_mech_mode test_status_mech_mode;

#endif
