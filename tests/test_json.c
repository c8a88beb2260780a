/*
 * test_json.c - the JSON documents (hes_analysis_json, hes_trials_json,
 * hes_shape_json, hes_analysis_gradient_json): each parses, carries the keys
 * hes.h lists, and its numbers are the C structs' numbers bit for bit;
 * matrices (column-major in memory) are written as lists of rows; NaN and
 * infinity, which JSON lacks, are written as null (lib/io/json.c).
 *
 * Independent computation: Jansson's own parser (json_loads, strict: a
 * NaN or a trailing comma would not parse) reading the text back, compared
 * with the structs the documents were made from, entry by entry with the
 * row-major index computed here; a non-symmetric monodromy (the juggler's
 * A Xi A) and return map (SLIP) so that a transposed matrix cannot pass.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "testutil.h"

static hes_system *create(const char *problem)
{
    const hes_model *m = hes_problem_find(problem);
    ck_assert_ptr_nonnull(m);
    hes_system *sys = test_system_of(m);
    ck_assert_ptr_nonnull(sys);
    return sys;
}

static json_t *parse(char *text)
{
    ck_assert_ptr_nonnull(text);
    json_error_t err;
    json_t *doc = json_loads(text, JSON_REJECT_DUPLICATES, &err);
    ck_assert_msg(doc != NULL, "line %d: %s", err.line, err.text);
    ck_assert(json_is_object(doc));
    free(text);
    return doc;
}

static json_t *get(const json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    ck_assert_msg(v != NULL, "no key \"%s\"", key);
    return v;
}

/* The number at obj[key] equals v bit for bit. */
#define ck_assert_json_bits(jv, v)                                                     \
    do {                                                                               \
        const json_t *jv_ = (jv);                                                      \
        double want_ = (v);                                                            \
        ck_assert_msg(json_is_number(jv_), "not a number where %.17g was expected", want_); \
        double got_ = json_number_value(jv_);                                          \
        ck_assert_msg(memcmp(&got_, &want_, sizeof got_) == 0, "%.17g != %.17g", got_, want_); \
    } while (0)

static void check_vector(const json_t *a, const double *v, int n)
{
    ck_assert(json_is_array(a));
    ck_assert_int_eq((int)json_array_size(a), n);
    for (int i = 0; i < n; i++)
        ck_assert_json_bits(json_array_get(a, i), v[i]);
}

/* rows[i][j] == m[i + j n] (m column-major). */
static void check_rows(const json_t *rows, const double *m, int n)
{
    ck_assert(json_is_array(rows));
    ck_assert_int_eq((int)json_array_size(rows), n);
    for (int i = 0; i < n; i++) {
        const json_t *row = json_array_get(rows, i);
        ck_assert_int_eq((int)json_array_size(row), n);
        for (int j = 0; j < n; j++)
            ck_assert_json_bits(json_array_get(row, j), m[i + (size_t)j * n]);
    }
}

static void check_params(const json_t *params, const hes_system *sys)
{
    const hes_model *m = hes_system_model(sys);
    const double *p = hes_system_params(sys);
    ck_assert_int_eq((int)json_object_size(params), m->n_params);
    for (int i = 0; i < m->n_params; i++)
        ck_assert_json_bits(get(params, m->params[i].name), p[i]);
}

static void check_multipliers(const json_t *a, const hes_stability *st)
{
    ck_assert_int_eq((int)json_array_size(a), st->n_mult);
    for (int k = 0; k < st->n_mult; k++) {
        const json_t *mu = json_array_get(a, k);
        ck_assert_json_bits(get(mu, "re"), st->re[k]);
        ck_assert_json_bits(get(mu, "im"), st->im[k]);
        ck_assert_json_bits(get(mu, "abs"), st->abs[k]);
    }
}

static void check_orbit(const json_t *o, const hes_system *sys, const hes_orbit *orbit, int events)
{
    const hes_model *m = hes_system_model(sys);
    ck_assert_json_bits(get(o, "period"), orbit->period);
    check_vector(get(o, "x0"), orbit->x0, orbit->n);
    ck_assert_str_eq(json_string_value(get(o, "mode0")), m->modes[orbit->mode].name);
    if (!events) {
        ck_assert_ptr_null(json_object_get(o, "events"));
        return;
    }
    const json_t *ev = get(o, "events");
    ck_assert_int_eq((int)json_array_size(ev), orbit->traj.n_events);
    for (int k = 0; k < orbit->traj.n_events; k++) {
        const hes_event *e = &orbit->traj.events[k];
        const hes_transition *T = &m->transitions[e->transition];
        const json_t *je = json_array_get(ev, k);
        ck_assert_str_eq(json_string_value(get(je, "transition")), T->name);
        ck_assert_json_bits(get(je, "t"), e->t);
        check_vector(get(je, "x_minus"), e->x_minus, m->modes[T->from].dim);
        check_vector(get(je, "x_plus"), e->x_plus, m->modes[T->to].dim);
    }
}

START_TEST(test_analysis_json_carries_the_analysis_bit_for_bit)
{
    hes_system *sys = create("paddle-juggler");
    hes_analysis res;
    ck_assert_int_eq(hes_analyze(sys, 1, &res), HES_OK);
    int n = res.mono.n;
    /* A Xi A is not symmetric: a transposed matrix would be caught */
    ck_assert(fabs(res.mono.phi[1] - res.mono.phi[2]) > 0.1);
    json_t *doc = parse(hes_analysis_json(sys, &res));
    ck_assert_str_eq(json_string_value(get(doc, "problem")), "paddle-juggler");
    check_params(get(doc, "params"), sys);
    check_orbit(get(doc, "orbit"), sys, &res.orbit, 1);
    check_rows(get(doc, "monodromy"), res.mono.phi, n);
    ck_assert_ptr_null(json_object_get(doc, "return_map")); /* non-autonomous */
    check_multipliers(get(doc, "multipliers"), &res.stab);
    ck_assert_json_bits(get(doc, "psi"), res.stab.psi);
    ck_assert_json_bits(get(doc, "psi_tolerance"), res.stab.psi_tol);
    ck_assert(json_is_boolean(get(doc, "stable")));
    ck_assert_int_eq(json_is_true(get(doc, "stable")), res.stab.stable);
    ck_assert_str_eq(json_string_value(get(doc, "verdict")), hes_verdict_name(res.stab.verdict));
    ck_assert_str_eq(json_string_value(get(doc, "verdict")), "stable"); /* a = -5.45 */
    const json_t *check = get(doc, "check");
    ck_assert_str_eq(json_string_value(get(check, "method")), "finite-differences");
    ck_assert_json_bits(get(check, "max_abs_diff"), res.check_max_abs_diff);
    const json_t *jac = get(check, "jacobians");
    ck_assert_int_eq(json_integer_value(get(jac, "checked")), res.jacobians.n_checked);
    ck_assert_int_gt(res.jacobians.n_checked, 0);
    ck_assert_json_bits(get(jac, "max_rel_err"), res.jacobians.max_rel_err);
    ck_assert_str_eq(json_string_value(get(jac, "where")), res.jacobians.where);
    ck_assert_ptr_null(json_object_get(doc, "simultaneous"));
    json_decref(doc);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_autonomous_analysis_json_has_the_return_map_as_rows)
{
    hes_system *sys = create("slip-hopper");
    hes_analysis res;
    ck_assert_msg(hes_analyze(sys, 0, &res) == HES_OK, "%s", hes_system_errmsg(sys));
    int n = res.mono.n, asym = 0;
    ck_assert_ptr_nonnull(res.mono.proj);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            asym |= res.mono.proj[i + j * n] != res.mono.proj[j + i * n];
    ck_assert(asym);
    json_t *doc = parse(hes_analysis_json(sys, &res));
    check_rows(get(doc, "return_map"), res.mono.proj, n);
    check_rows(get(doc, "monodromy"), res.mono.phi, n);
    check_multipliers(get(doc, "multipliers"), &res.stab);
    ck_assert_int_eq((int)json_array_size(get(doc, "multipliers")), n - 1);
    ck_assert_ptr_null(json_object_get(doc, "check")); /* not asked for */
    check_params(get(doc, "params"), sys); /* the solved parameters included */
    json_decref(doc);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

/* JSON has no NaN or infinity: they are written as null, and the document
 * still parses. */
START_TEST(test_non_finite_numbers_are_written_as_null)
{
    hes_system *sys = create("paddle-juggler");
    hes_analysis res;
    ck_assert_int_eq(hes_analyze(sys, 1, &res), HES_OK);
    res.stab.psi = NAN;
    res.stab.psi_tol = INFINITY;
    res.check_max_abs_diff = -INFINITY;
    res.mono.phi[2] = NAN; /* row 0, column 1 */
    res.stab.im[1] = -NAN;
    json_t *doc = parse(hes_analysis_json(sys, &res));
    ck_assert(json_is_null(get(doc, "psi")));
    ck_assert(json_is_null(get(doc, "psi_tolerance")));
    ck_assert(json_is_null(get(get(doc, "check"), "max_abs_diff")));
    const json_t *rows = get(doc, "monodromy");
    ck_assert(json_is_null(json_array_get(json_array_get(rows, 0), 1)));
    ck_assert_json_bits(json_array_get(json_array_get(rows, 1), 0), res.mono.phi[1]);
    ck_assert(json_is_null(get(json_array_get(get(doc, "multipliers"), 1), "im")));
    json_decref(doc);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_trials_json_carries_every_trial_bit_for_bit)
{
    hes_system *sys = create("paddle-juggler");
    hes_orbit orbit;
    ck_assert_int_eq(hes_orbit_find(sys, &orbit), HES_OK);
    for (int box = 0; box < 2; box++) {
        hes_trials t;
        hes_status st = box ? hes_trials_run_box(sys, &orbit, 3, 1e-3, 4, 99, 1e-6, &t)
                            : hes_trials_run(sys, &orbit, 3, 1e-3, 4, 99, 1e-6, &t);
        ck_assert_int_eq(st, HES_OK);
        json_t *doc = parse(hes_trials_json(sys, &orbit, &t));
        ck_assert_str_eq(json_string_value(get(doc, "problem")), "paddle-juggler");
        check_params(get(doc, "params"), sys);
        check_orbit(get(doc, "orbit"), sys, &orbit, 0);
        const json_t *list = get(doc, "trials");
        ck_assert_int_eq((int)json_array_size(list), 3);
        for (int k = 0; k < 3; k++) {
            const hes_trial *tr = &t.trials[k];
            const json_t *jt = json_array_get(list, k);
            check_vector(get(jt, "x0"), tr->x0, t.n);
            ck_assert_int_eq((int)json_integer_value(get(jt, "steps_completed")), tr->steps_completed);
            check_vector(get(jt, "error"), tr->error, tr->steps_completed);
            if (tr->failure == HES_OK)
                ck_assert(json_is_null(get(jt, "failure")));
            else
                ck_assert(json_is_string(get(jt, "failure")));
        }
        ck_assert_int_eq((int)json_integer_value(get(doc, "converged")), t.converged);
        ck_assert_json_bits(get(doc, "tol"), 1e-6);
        ck_assert_json_bits(get(doc, "radius"), 1e-3);
        ck_assert_str_eq(json_string_value(get(doc, "region")), box ? "box" : "ball");
        ck_assert_int_eq((int)json_integer_value(get(doc, "seed")), 99);
        json_decref(doc);
        hes_trials_free(&t);
    }
    hes_orbit_free(&orbit);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_shape_json_has_the_documented_keys_and_values)
{
    hes_system *sys = create("paddle-juggler");
    hes_shape_options o;
    hes_shape_options_init(&o);
    hes_shape_result r;
    ck_assert_msg(hes_shape_optimize(sys, &o, &r) == HES_OK, "%s", hes_system_errmsg(sys));
    ck_assert_int_eq(r.n, 1);
    hes_trials t;
    ck_assert_int_eq(hes_trials_run(sys, &r.analysis.orbit, 2, 1e-3, 3, 5, 1e-6, &t), HES_OK);
    for (int with = 0; with < 2; with++) {
        json_t *doc = parse(hes_shape_json(sys, &r, HES_MEASURE_PSI, with ? &t : NULL));
        static const char *const keys[] = { "problem", "params", "psi_initial", "psi", "stable",
                                            "shape", "bounds", "evaluations", "gradient",
                                            "fallbacks", "algorithm", "measure", "multipliers",
                                            "orbit" };
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            get(doc, keys[k]);
        ck_assert_json_bits(get(doc, "psi_initial"), r.psi_initial);
        ck_assert_json_bits(get(doc, "psi"), r.psi);
        ck_assert_json_bits(get(get(doc, "shape"), "paddle_accel"), r.h[0]);
        const double range[2] = { r.lo[0], r.hi[0] };
        check_vector(get(get(doc, "bounds"), "paddle_accel"), range, 2);
        ck_assert_int_eq((int)json_integer_value(get(doc, "evaluations")), r.evaluations);
        ck_assert_str_eq(json_string_value(get(doc, "gradient")), "analytic"); /* default */
        ck_assert_str_eq(json_string_value(get(doc, "algorithm")), r.algorithm);
        ck_assert_str_eq(json_string_value(get(doc, "measure")), "psi");
        check_multipliers(get(doc, "multipliers"), &r.analysis.stab);
        check_orbit(get(doc, "orbit"), sys, &r.analysis.orbit, 1);
        ck_assert_int_eq(json_is_true(get(doc, "stable")), r.analysis.stab.stable);
        if (with) {
            const json_t *v = get(doc, "verify");
            ck_assert_int_eq((int)json_integer_value(get(v, "trials")), 2);
            ck_assert_int_eq((int)json_integer_value(get(v, "converged")), t.converged);
            ck_assert_int_eq((int)json_integer_value(get(v, "steps")), 3);
            ck_assert_json_bits(get(v, "radius"), 1e-3);
            ck_assert_json_bits(get(v, "tol"), 1e-6);
        } else {
            ck_assert_ptr_null(json_object_get(doc, "verify"));
        }
        json_decref(doc);
    }
    json_t *doc = parse(hes_shape_json(sys, &r, HES_MEASURE_SMOOTH, NULL));
    ck_assert_str_eq(json_string_value(get(doc, "measure")), "smooth");
    json_decref(doc);
    hes_trials_free(&t);
    hes_shape_result_free(&r);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_gradient_json_adds_the_gradient_to_the_analysis)
{
    hes_system *sys = create("paddle-juggler");
    hes_analysis res;
    ck_assert_int_eq(hes_analyze(sys, 0, &res), HES_OK);
    hes_shape *sh;
    ck_assert_int_eq(hes_shape_new(sys, &res, 0, NULL, &sh), HES_OK);
    hes_shape_eval_result ev;
    ck_assert_int_eq(hes_shape_eval(sh, NULL, 1, &ev), HES_OK);
    json_t *doc = parse(hes_analysis_gradient_json(sys, &res, sh, &ev));
    /* everything of the analysis document ... */
    check_rows(get(doc, "monodromy"), res.mono.phi, res.mono.n);
    ck_assert_json_bits(get(doc, "psi"), res.stab.psi);
    /* ... plus the gradient */
    const json_t *g = get(doc, "psi_gradient");
    ck_assert_int_eq((int)json_object_size(g), 1);
    ck_assert_json_bits(get(g, "paddle_accel"), ev.dpsi[0]);
    ck_assert_str_eq(json_string_value(get(doc, "psi_gradient_method")),
                     ev.fallback ? "finite-differences" : "analytic");
    ck_assert_int_eq(json_is_true(get(doc, "psi_gradient_nonsmooth")), ev.nonsmooth);
    json_decref(doc);
    hes_shape_destroy(sh);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_model_json_describes_the_model)
{
    const hes_model *m = hes_problem_find("slip-hopper");
    json_t *doc = parse(hes_model_json(m));
    ck_assert_str_eq(json_string_value(get(doc, "name")), m->name);
    const json_t *modes = get(doc, "modes"), *params = get(doc, "params");
    ck_assert_int_eq((int)json_array_size(modes), m->n_modes);
    ck_assert_int_eq((int)json_array_size(get(doc, "transitions")), m->n_transitions);
    ck_assert_int_eq((int)json_array_size(params), m->n_params);
    for (int i = 0; i < m->n_params; i++) {
        const json_t *p = json_array_get(params, (size_t)i);
        ck_assert_str_eq(json_string_value(get(p, "name")), m->params[i].name);
        ck_assert_json_bits(get(p, "default"), m->params[i].value);
    }
    const json_t *orbit = get(doc, "orbit");
    ck_assert_int_eq((int)json_array_size(get(orbit, "sequence")), m->orbit.n_sequence);
    json_decref(doc);
    ck_assert_ptr_null(hes_model_json(NULL));
}
END_TEST

START_TEST(test_state_sweep_json_carries_every_run)
{
    hes_system *sys = create("trot-rigid");
    const double x0[4] = { 0.6, 0, 0, 0 };
    hes_state_sweep_options o = { 0, 4, x0, 1, -0.01, 0.01, 3, 0.4, NULL, NULL };
    hes_state_sweep sw;
    ck_assert_int_eq(hes_state_sweep_run(sys, &o, &sw), HES_OK);
    json_t *doc = parse(hes_state_sweep_json(sys, &sw));
    const json_t *sweep = get(doc, "sweep"), *results = get(doc, "results");
    ck_assert_str_eq(json_string_value(get(sweep, "name")), "theta");
    ck_assert_int_eq((int)json_array_size(results), 3);
    for (int k = 0; k < 3; k++) {
        const json_t *r = json_array_get(results, (size_t)k);
        const hes_traj *t = &sw.points[k].traj;
        ck_assert_json_bits(get(r, "value"), sw.points[k].value);
        ck_assert_json_bits(json_array_get(get(sweep, "values"), (size_t)k), sw.points[k].value);
        ck_assert_int_eq((int)json_array_size(get(r, "events")), t->n_events);
        check_vector(get(r, "x"), t->phases[t->n_phases - 1].x1, 4);
        ck_assert(json_is_null(get(r, "failure")) == (sw.points[k].status == HES_OK));
    }
    json_decref(doc);
    hes_state_sweep_free(&sw);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_trajopt_json_carries_the_result)
{
    hes_system *sys = create("knee-biped");
    hes_trajopt_options o;
    hes_trajopt_options_init(&o);
    o.objective = HES_COLLOC_WEIGHTED;
    o.weight = 0.5;
    o.nodes = 9;
    o.maxeval = 5;
    o.refine = 1;
    hes_trajopt_result r;
    ck_assert_int_eq(hes_trajopt_run(sys, &o, &r), HES_OK);
    json_t *doc = parse(hes_trajopt_json(sys, &r));
    ck_assert_str_eq(json_string_value(get(doc, "objective")), "weighted");
    ck_assert_json_bits(get(doc, "weight"), 0.5);
    ck_assert_json_bits(get(doc, "psi_collocation"), r.psi_collocation);
    if (r.have_shooting)
        ck_assert_json_bits(get(doc, "psi_shooting"), r.psi_shooting);
    ck_assert_json_bits(get(doc, "period"), r.period);
    ck_assert_json_bits(get(doc, "energy"), r.energy);
    ck_assert(json_is_null(get(doc, "psi_refined")));
    ck_assert_int_eq((int)json_array_size(get(doc, "phases")), r.gait.n_phases);
    ck_assert_int_eq((int)json_integer_value(get(doc, "variables")), r.variables);
    json_decref(doc);
    ck_assert_ptr_null(hes_trajopt_json(sys, NULL));
    hes_trajopt_result_free(&r);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_sweep_row_json_is_one_line_of_json)
{
    const hes_model *m = hes_problem_find("paddle-juggler");
    hes_system *sys = test_system_of(m);
    ck_assert_ptr_nonnull(sys);
    int swept[1] = { hes_model_param_index(m, "paddle_accel") };
    double point[1] = { -5.5 };
    hes_sweep_row row;
    memset(&row, 0, sizeof row);
    row.index = 3;
    row.psi = 0.25;
    row.period = 0.5;
    row.verdict = HES_STABLE;
    row.stable = 1;
    row.n_mult = 1;
    row.re[0] = 0.25;
    row.im[0] = -0.125;
    row.branch_jump = 1;
    char *text = hes_sweep_row_json(sys, 1, swept, point, &row);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_null(strchr(text, '\n'));
    ck_assert_str_eq(text, "{\"index\": 3, \"params\": {\"paddle_accel\": -5.5}, \"status\": "
                     "\"ok\", \"psi\": 0.25, \"stable\": true, \"verdict\": \"stable\", "
                     "\"period\": 0.5, \"multipliers\": [[0.25, -0.125]], \"branch_jump\": true}");
    free(text);
    row.status = HES_ENOORBIT;
    snprintf(row.message, sizeof row.message, "no \"orbit\"\nhere");
    json_t *doc = parse(hes_sweep_row_json(sys, 1, swept, point, &row));
    ck_assert_str_eq(json_string_value(get(doc, "status")), hes_strerror(HES_ENOORBIT));
    ck_assert_str_eq(json_string_value(get(doc, "message")), "no 'orbit' here");
    json_decref(doc);
    /* other control characters are blanks too, and JSON has no NaN or
       infinity: such a number is null */
    snprintf(row.message, sizeof row.message, "a\ttab\r");
    doc = parse(hes_sweep_row_json(sys, 1, swept, point, &row));
    ck_assert_str_eq(json_string_value(get(doc, "message")), "a tab ");
    json_decref(doc);
    row.status = HES_OK;
    row.psi = NAN;
    row.im[0] = INFINITY;
    doc = parse(hes_sweep_row_json(sys, 1, swept, point, &row));
    ck_assert(json_is_null(get(doc, "psi")));
    ck_assert(json_is_null(json_array_get(json_array_get(get(doc, "multipliers"), 0), 1)));
    ck_assert_json_bits(json_array_get(json_array_get(get(doc, "multipliers"), 0), 0), 0.25);
    json_decref(doc);
    swept[0] = m->n_params;
    ck_assert_ptr_null(hes_sweep_row_json(sys, 1, swept, point, &row));
    ck_assert_ptr_null(hes_sweep_row_json(NULL, 1, swept, point, &row));
    hes_system_destroy(sys);
}
END_TEST

/* The document of `hes continue paddle-juggler --param paddle_accel=-20:-15
 * --max-points 2 --json` (compact). */
static const char juggler_doc[] =
    "{\"problem\":\"paddle-juggler\",\"param\":\"paddle_accel\",\"from\":-20.0,\"to\":-15.0,\"para"
    "m2\":null,\"from2\":null,\"to2\":null,\"state_names\":[\"xB\",\"vB\"],\"branches\":[{\"kind\":\""
    "branch\",\"param2\":null,\"returns\":1,\"method\":\"arclength\",\"from_branch\":null,\"from_"
    "point\":null,\"reached\":false,\"why\":\"the branch has max_points points\",\"points\":[{"
    "\"index\":0,\"label\":\"EP\",\"detail\":null,\"value\":-20.0,\"value2\":null,\"s\":0.0,\"period"
    "\":0.5,\"psi\":3.2604801397162957,\"psi_tol\":8.624989758298739e-10,\"verdict\":\"unstab"
    "le\",\"crossing\":null,\"margins\":[{\"transition\":\"impact\",\"margin\":null},{\"transitio"
    "n\":\"apex\",\"margin\":null}],\"full\":true,\"multipliers\":[{\"re\":-3.2604801397162957,\""
    "im\":0.0},{\"re\":-0.07667582358644642,\"im\":0.0}],\"x0\":[0.3065625,0.0]},{\"index\":1,"
    "\"label\":\"EP\",\"detail\":null,\"value\":-19.9,\"value2\":null,\"s\":0.10000000000000142,\""
    "period\":0.5,\"psi\":3.2369878896005235,\"psi_tol\":8.530453708182649e-10,\"verdict\":\""
    "unstable\",\"crossing\":null,\"margins\":[{\"transition\":\"impact\",\"margin\":null},{\"tra"
    "nsition\":\"apex\",\"margin\":null}],\"full\":true,\"multipliers\":[{\"re\":-3.236987889600"
    "5235,\"im\":0.0},{\"re\":-0.07723229388752895,\"im\":0.0}],\"x0\":[0.3065625,0.0]}]}]}";

/* juggler_doc with its first `from` replaced by `to` (malloc'd). */
static char *edited(const char *from, const char *to)
{
    const char *at = strstr(juggler_doc, from);
    ck_assert_ptr_nonnull(at);
    size_t head = (size_t)(at - juggler_doc), n = strlen(juggler_doc) + strlen(to) + 1;
    char *s = malloc(n);
    ck_assert_ptr_nonnull(s);
    snprintf(s, n, "%.*s%s%s", (int)head, juggler_doc, to, at + strlen(from));
    return s;
}

/* A refused edit: HES_EINVAL, an empty branch, and a message with `says`. */
static void refused(hes_system *sys, const char *from, const char *to, const char *says)
{
    char *text = edited(from, to);
    hes_continuation c;
    hes_error err;
    ck_assert_int_eq(hes_continuation_from_json(text, strlen(text), sys, &c, NULL, NULL, &err),
                     HES_EINVAL);
    ck_assert_int_eq(c.n_points, 0);
    ck_assert_ptr_null(c.points);
    ck_assert_msg(strstr(err.message, says), "'%s' does not say '%s'", err.message, says);
    free(text);
}

/* A branch read back from the document of `hes continue --json` has its
 * points as written, resumes, and anything malformed is refused. */
START_TEST(test_continuation_reads_back_and_resumes)
{
    hes_system *sys = create("paddle-juggler");
    hes_continuation c, out;
    hes_error err;
    double from, to;
    ck_assert_msg(hes_continuation_from_json(juggler_doc, strlen(juggler_doc), sys, &c, &from,
                                             &to, &err) == HES_OK, "%s", err.message);
    ck_assert_str_eq(c.param, "paddle_accel");
    ck_assert_double_eq(from, -20);
    ck_assert_double_eq(to, -15);
    ck_assert_int_eq(c.n_points, 2);
    ck_assert_int_eq(c.n, 2);
    ck_assert_int_eq(c.n_guards, 2);
    ck_assert_int_eq(c.returns, 1);
    ck_assert_int_eq(c.method, HES_CONT_ARCLENGTH);
    ck_assert_int_eq(c.reached, 0);
    ck_assert_str_eq(c.why, "the branch has max_points points");
    ck_assert_int_eq(c.points[0].label, HES_LABEL_EP);
    ck_assert_double_eq(c.points[0].value, -20);
    ck_assert(isnan(c.points[0].value2));
    ck_assert_int_eq(c.points[0].verdict, HES_UNSTABLE);
    ck_assert_int_eq(c.points[0].n_mult, 2);
    ck_assert(isinf(c.points[0].margins[1]));  /* null: no interior minimum */
    ck_assert_msg(hes_continue_resume(sys, &c, -15, NULL, &out, &err) == HES_OK, "%s",
                  err.message);
    ck_assert_msg(out.reached, "%s", out.why);
    ck_assert_int_gt(out.n_points, 2);
    ck_assert_double_eq(out.points[1].value, c.points[1].value);
    ck_assert_double_eq(out.points[out.n_points - 1].value, -15);
    hes_continuation_free(&out);
    hes_continuation_free(&c);
    /* without a system: the document's own consistency only */
    char *other = edited("\"paddle-juggler\"", "\"slip-hopper\"");
    ck_assert_int_eq(hes_continuation_from_json(other, strlen(other), NULL, &c, NULL, NULL,
                                                &err), HES_OK);
    hes_continuation_free(&c);
    free(other);

    refused(sys, "\"paddle-juggler\"", "\"slip-hopper\"", "problem 'slip-hopper'");
    refused(sys, "\"param\":\"paddle_accel\"", "\"param\":\"nope\"", "'nope'");
    refused(sys, "\"xB\"", "\"y\"", "state 0 of the document is 'y'");
    refused(sys, "\"x0\":[", "\"x0\":[1,", "\"x0\" is not a list of 2");
    refused(sys, "\"period\":", "\"period\":null,\"p\":", "\"period\" is not a finite");
    refused(sys, "\"psi\":", "\"psi\":\"0.5\",\"p\":", "\"psi\" is not a finite");
    refused(sys, "\"to\":", "\"to\":1,\"to\":", "not JSON");
    refused(sys, "\"kind\":\"branch\"", "\"kind\":\"curve\"", "kind \"branch\"");
    refused(sys, "\"label\":\"EP\"", "\"label\":\"XX\"", "\"label\"");
    refused(sys, "\"transition\":\"apex\"", "\"transition\":\"impact\"", "transition");
    refused(sys, "\"index\":1", "\"index\":7", "\"index\" is not 1");
    refused(sys, "{\"problem\"", "[{\"problem\"", "not JSON");
    ck_assert_int_eq(hes_continuation_from_json(juggler_doc, 100, sys, &c, NULL, NULL, &err),
                     HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.message, "not JSON"));
    ck_assert_int_eq(hes_continuation_read("/nonexistent/x.json", sys, &c, NULL, NULL, &err),
                     HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.message, "/nonexistent/x.json"));
    ck_assert_int_eq(hes_continuation_from_json(NULL, 0, sys, &c, NULL, NULL, &err), HES_EINVAL);
    hes_system_destroy(sys);
}
END_TEST

static Suite *json_suite(void)
{
    Suite *s = suite_create("json");
    TCase *tc = tcase_create("documents");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_analysis_json_carries_the_analysis_bit_for_bit);
    tcase_add_test(tc, test_autonomous_analysis_json_has_the_return_map_as_rows);
    tcase_add_test(tc, test_non_finite_numbers_are_written_as_null);
    tcase_add_test(tc, test_trials_json_carries_every_trial_bit_for_bit);
    tcase_add_test(tc, test_shape_json_has_the_documented_keys_and_values);
    tcase_add_test(tc, test_gradient_json_adds_the_gradient_to_the_analysis);
    tcase_add_test(tc, test_model_json_describes_the_model);
    tcase_add_test(tc, test_state_sweep_json_carries_every_run);
    tcase_add_test(tc, test_trajopt_json_carries_the_result);
    tcase_add_test(tc, test_sweep_row_json_is_one_line_of_json);
    tcase_add_test(tc, test_continuation_reads_back_and_resumes);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(json_suite());
}
