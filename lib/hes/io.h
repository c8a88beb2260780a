/**
 * \file
 * hes/io.h - JSON documents and gait files (part of <hes.h>, which includes
 * every area's header).
 */
#ifndef HES_H_IO
#define HES_H_IO

#include <hes/continuation.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ========================================================== io: documents */

/* -------------------------------------------------------------------- JSON */

/** JSON documents of lib/README.md, section 5 (Jansson), as malloc'd strings the
 * caller frees; NULL on allocation failure.  hes_analysis_json gives
 * "problem", "params", "orbit", "monodromy", "multipliers", "psi", "stable",
 * for autonomous orbits "return_map" (the projected matrix the multipliers
 * come from), when res->have_check "check", and when the orbit has
 * simultaneous events "simultaneous": [{"first", "second", "dt",
 * "other_order", "coupling", "outcome_gap", "piece_gap", "continuous",
 * "differentiable", "psi_taken", "psi_other"}]. */
char *hes_analysis_json(const hes_system *sys, const hes_analysis *res);
/** "problem", "params", "orbit" (section state), "trials", "converged", "tol",
 * "radius", "region" ("ball" or "box"), "seed". */
char *hes_trials_json(const hes_system *sys, const hes_orbit *orbit,
                      const hes_trials *trials);
/** hes_analysis_json plus "psi_gradient": {NAME: dpsi/dNAME} for every shape
 * parameter, "psi_gradient_method": "analytic"|"finite-differences" and
 * "psi_gradient_nonsmooth": bool. */
char *hes_analysis_gradient_json(const hes_system *sys, const hes_analysis *res,
                                 const hes_shape *sh, const hes_shape_eval_result *ev);
/** "problem", "params", "psi_initial", "psi", "stable", "shape" {NAME: value},
 * "bounds" {NAME: [lo, hi]}, "evaluations", "gradient"
 * ("analytic"|"finite-differences"|"none"), "fallbacks", "algorithm",
 * "measure", "multipliers", "orbit"; and "verify" (trials, converged,
 * radius, steps, tol) when trials != NULL. */
char *hes_shape_json(const hes_system *sys, const hes_shape_result *res,
                     hes_measure measure, const hes_trials *trials);
/** What a model is made of (lib/io/json_model.c; `hes info --json`):
 * "name", "description", "modes" [{"name", "dim", "states"}], "transitions"
 * [{"name", "from", "to", "direction", "clock_reset"}], "params" [{"name",
 * "default", "unit", "description", "shape", "solved", "positive", "min",
 * "max", "search"}], "orbit" {"mode", "section", "sequence", "autonomous",
 * "period_param", "free_states", "free_params", "residual"}; NULL also for
 * a NULL model. */
char *hes_model_json(const hes_model *model);
/** What an ESS model is made of (lib/io/json_ess.c; `hes info --json` of an
 * ESS problem): {"name", "description", "integrator": "ess", "states":
 * [...], "events": [...], "params": [as hes_model_json's, "shape" and
 * "solved" false, "search" null], "orbit_guess": {"x0", "period",
 * "section" (index)} or null}.  Unnamed states and events are "x[i]" and
 * "h[i]". */
char *hes_ess_model_json(const hes_ess_model *model);
/** An ESS run (`hes simulate --integrator ess --json`): {"problem",
 * "integrator": "ess", "eps", "params": {NAME: value}, "states": [...],
 * "t0", "x0", "t_end", "samples": [{"t", "x": [...]}] (the output times
 * of opts, or else the recorded step boundaries), "x_end", "signs_end",
 * "counts": {"integration_steps", "projections", "sign_changes",
 * "rearms", "refused"}, "jacobian": rows of d x(t_end)/d x0, or null}. */
char *hes_ess_result_json(const hes_ess *ess, const hes_ess_options *opts, double t0,
                          const double *x0, const hes_ess_result *res);
/** An ESS periodic orbit (`hes analyze PROBLEM --json` of an ESS problem):
 * {"problem", "integrator": "ess", "eps", "params", "states", "section" (the
 * fixed component's name), "orbit": {"x0", "period", "flow", "iterations",
 * "residual", "counts": {"projections", "refused", "sign_changes"}},
 * "monodromy", "return_map" (rows), "multipliers": [{"re", "im", "abs"}],
 * "psi", "stable", "verdict", "psi_tolerance", "eps_error", "eps_order"
 * (null without check_eps)}; NULL on a bad argument or out of memory. */
char *hes_ess_orbit_json(const hes_ess *ess, const hes_ess_orbit_options *opts,
                         const hes_ess_orbit *orbit);
/** A state sweep (`hes simulate --sweep --json`): "problem", "params",
 * "sweep" {"name" (of the state; "x[i]" without names), "values", "mode",
 * "x0", "time"}, "results" [{"value", "events" [transition names],
 * "event_times", "mode", "t", "x" (the final state), "failure": null or
 * "status: message"}]. */
char *hes_state_sweep_json(const hes_system *sys, const hes_state_sweep *sweep);
/** A trajopt result (`hes trajopt --json`): "problem", "params" (the gait's),
 * "objective", "weight" (weighted only), "nodes", "variables",
 * "constraints", "path_constraints", "design" {NAME: value}, "phases"
 * [{"mode", "duration", "ends_with", "virtual", "offset" (virtual only)}],
 * "period", "energy", "psi_collocation", "psi_shooting", "verdict",
 * "refined_nodes", "return_map_difference", "psi_refined",
 * "constraint_violation", "evaluations", "seconds" (null where there is no
 * value). */
char *hes_trajopt_json(const hes_system *sys, const hes_trajopt_result *res);
/** One row of a parameter sweep as one line of JSON (`hes sweep --json`;
 * lib/io/json_sweep.c), without a newline: {"index", "params": {NAME: value}
 * for the n_swept parameters swept (indices into the system's) at `point`,
 * "status": "ok" or hes_strerror, then "psi", "stable", "verdict", "period",
 * "multipliers": [[re, im], ...], "branch_jump" or, for a failed row,
 * "message" (its quotes and backslashes as ', its line breaks and other
 * control characters as blanks)}; numbers as %.17g, null where not finite. */
char *hes_sweep_row_json(const hes_system *sys, int n_swept, const int *swept,
                         const double *point, const hes_sweep_row *row);

/* ----------------------------------------------------- continuation files */

/**
 * A branch read back from the document of `hes continue --json`
 * (share/doc/schema/continue.schema.json; lib/io/json_continuation.c), to
 * be resumed with hes_continue_resume: the document's first branch (of
 * kind "branch") into *out, with its parameter, section dimension, guard
 * count, returns, method, reached and why, and every point's value,
 * period, psi, psi_tol, verdict, crossing, label, detail, s, full,
 * multipliers, x0 and margins (null: +INFINITY); value2 is NaN.  The
 * document's "from" and "to" into *from and *to (either may be NULL).
 *
 * Refused with HES_EINVAL and the reason in err: text that is not JSON (a
 * key given twice in an object included) or larger than HES_INPUT_MAX
 * bytes; anything missing or of the wrong type; a number that is not
 * finite (null where a number is needed); a point whose x0 is not as long
 * as "state_names" or whose index is not its place; margins of other
 * transitions than the first point's; more than 100000 points or 4096
 * state components.  Given sys (may be NULL: the document's own
 * consistency only), also a document of another problem than
 * hes_system_name(sys), a parameter sys does not have, state names other
 * than those of its orbit's mode (x[i] where the model names none), and
 * margins of other transitions than its model's.  HES_ENOMEM out of
 * memory.  On failure *out is left empty; free it with
 * hes_continuation_free.
 */
hes_status hes_continuation_from_json(const char *text, size_t size, const hes_system *sys,
                                      hes_continuation *out, double *from, double *to,
                                      hes_error *err);
/** hes_continuation_from_json of a file, read by hes_input_read (a regular
 * file, at most HES_INPUT_MAX bytes); the message names the file.  Also
 * HES_EINVAL for a file that cannot be read. */
hes_status hes_continuation_read(const char *path, const hes_system *sys, hes_continuation *out,
                                 double *from, double *to, hes_error *err);

/* ------------------------------------------------------------- gait files */

/** Gait files: JSON, format "hes-gait" version 1 (lib/io/gait_json.c).
 * hes_gait_write: HES_OK, HES_EINVAL (NULL argument) or HES_EIO (the stream
 * failed).  hes_gait_read: HES_OK, HES_EINVAL (unreadable or malformed file,
 * or not a gait of base) or HES_ENOMEM, with err saying why; on failure *g is
 * left empty.  hes_gait_problem: the problem name a gait file is for (to find
 * its base model), with the same statuses as hes_gait_read. @{ */
hes_status hes_gait_write(const hes_gait *g, const hes_model *base, FILE *out);
hes_status hes_gait_read(const char *path, const hes_model *base, hes_gait *g, hes_error *err);
hes_status hes_gait_problem(const char *path, char *name, size_t name_len, hes_error *err);
/** @} */

/* -------------------------------------------- documents of other areas */

/** hes_analysis_json plus "impact_set" (lib/io/json_impact.c): "transition",
 * "contacts", "step", "steps", "samples", "finished", "mean_lcps",
 * "consistent", "orbits", "failed", "stable", "unstable", "marginal",
 * "psi_nominal", "psi_worst", "psi_best", "worst_sample", "best_sample",
 * "worst_check", "worst_outcome" and "best_outcome" (contact velocities,
 * modes), "extremes" (per contact-velocity coordinate the min and max
 * outcome with its psi), "psi" (per consistent sample, null where its
 * orbit failed) and "seconds". */
char *hes_analysis_impact_json(const hes_system *sys, const hes_analysis *res,
                               const hes_impact_orbit *r);

/** Its document (`hes simulate --jacobian --json` of a hybrid model):
 * "problem", "params", "mode", "x0", "time", "events" (each "transition",
 * "t"), "mode_end", "x_end", "jacobian" (rows), "simultaneous" (as in
 * hes analyze's). */
char *hes_flow_json(const hes_system *sys, int mode, const double *x0, double time,
                    const hes_flow *f);

/** A robot model from its JSON description (lib/io/json_robot.c; the
 * format is in hes(1) and share/robots/knee_biped.json): the robot file
 * (relative to the description's folder), its contacts, and the modes,
 * transitions and orbit, every constraint, coordinate and state by name.
 * HES_EINVAL (err naming the file and the key) for anything malformed,
 * unknown keys included; HES_ESOLVER without MuJoCo. */
hes_status hes_robot_model_read(const char *path, hes_model **out, hes_error *err);

/** The document of `hes impact --json` (lib/io/json_impact.c): problem,
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

#ifdef __cplusplus
}
#endif

#endif /* HES_H_IO */
