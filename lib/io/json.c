/*
 * json.c - the JSON documents of lib/README.md, section 5 (hes_analysis_json,
 * hes_trials_json, hes_analysis_gradient_json, hes_shape_json), built with
 * Jansson.
 *
 * The keys are a contract that other tools read; do not change their meaning.
 * Numbers are written with 17 significant digits so that they read back as
 * the same doubles.  JSON has no NaN or infinity: such values become null.
 * Matrices, column-major in memory, are written row-major as a list of rows.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "io/io.h"

/* Every builder below returns a new reference, or NULL on allocation
 * failure; the json_*_set_new/append_new calls take ownership of their value
 * even when they fail, and fail on a NULL value, so a NULL propagates up. */

json_t *hes__json_number(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

json_t *hes__json_vector(const double *v, int n)
{
    json_t *a = json_array();
    int i;

    if (!a)
        return NULL;
    for (i = 0; i < n; i++) {
        if (json_array_append_new(a, hes__json_number(v[i])) != 0) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

/* Rows of the n x n column-major matrix m. */
json_t *hes__json_matrix_rows(const double *m, int n)
{
    json_t *rows = json_array();
    int i, j;

    if (!rows)
        return NULL;
    for (i = 0; i < n; i++) {
        json_t *row = json_array();

        for (j = 0; row && j < n; j++) {
            if (json_array_append_new(row, hes__json_number(m[i + (size_t)j * n])) != 0) {
                json_decref(row);
                row = NULL;
            }
        }
        if (json_array_append_new(rows, row) != 0) {
            json_decref(rows);
            return NULL;
        }
    }
    return rows;
}

/* Sets obj[key] = val (taking val); returns nonzero on failure. */
int hes__json_put(json_t *obj, const char *key, json_t *val)
{
    return json_object_set_new(obj, key, val) != 0;
}

/* {"NAME": value, ...} for every parameter, current values. */
static json_t *params_json(const hes_system *sys)
{
    const hes_model *model = hes_system_model(sys);
    const double *p = hes_system_params(sys);
    json_t *obj = json_object();
    int i, err = 0;

    if (!obj)
        return NULL;
    for (i = 0; i < model->n_params; i++)
        err |= hes__json_put(obj, model->params[i].name, hes__json_number(p[i]));
    if (err) {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

static const char *mode_name(const hes_model *model, int mode)
{
    assert(mode >= 0 && mode < model->n_modes);
    return model->modes[mode].name;
}

static json_t *event_json(const hes_model *model, const hes_event *ev)
{
    const hes_transition *tr;
    json_t *obj;
    int err = 0;

    assert(ev->transition >= 0 && ev->transition < model->n_transitions);
    tr = &model->transitions[ev->transition];
    obj = json_object();
    if (!obj)
        return NULL;
    err |= hes__json_put(obj, "transition", json_string(tr->name));
    err |= hes__json_put(obj, "t", hes__json_number(ev->t));
    err |= hes__json_put(obj, "x_minus", hes__json_vector(ev->x_minus, model->modes[tr->from].dim));
    err |= hes__json_put(obj, "x_plus", hes__json_vector(ev->x_plus, model->modes[tr->to].dim));
    if (err) {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

/* {"period", "x0", "mode0"} and, with_events, "events" of one period. */
static json_t *orbit_json(const hes_model *model, const hes_orbit *orbit,
                          int with_events)
{
    json_t *obj = json_object();
    int err = 0, k;

    if (!obj)
        return NULL;
    err |= hes__json_put(obj, "period", hes__json_number(orbit->period));
    err |= hes__json_put(obj, "x0", hes__json_vector(orbit->x0, orbit->n));
    err |= hes__json_put(obj, "mode0", json_string(mode_name(model, orbit->mode)));
    if (with_events) {
        json_t *events = json_array();

        for (k = 0; events && k < orbit->traj.n_events; k++) {
            if (json_array_append_new(events,
                                      event_json(model, &orbit->traj.events[k])) != 0) {
                json_decref(events);
                events = NULL;
            }
        }
        err |= hes__json_put(obj, "events", events);
    }
    if (err) {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

json_t *hes__json_multipliers(const hes_stability *st)
{
    json_t *a = json_array();
    int k;

    if (!a)
        return NULL;
    for (k = 0; k < st->n_mult; k++) {
        json_t *m = json_object();
        int err = 0;

        if (m) {
            err |= hes__json_put(m, "re", hes__json_number(st->re[k]));
            err |= hes__json_put(m, "im", hes__json_number(st->im[k]));
            err |= hes__json_put(m, "abs", hes__json_number(st->abs[k]));
            if (err) {
                json_decref(m);
                m = NULL;
            }
        }
        if (json_array_append_new(a, m) != 0) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

static json_t *check_json(double max_abs_diff, const hes_deriv_report *jac)
{
    json_t *obj = json_object(), *j = json_object();
    int err = !j;

    if (!obj) {
        json_decref(j);
        return NULL;
    }
    err |= hes__json_put(obj, "method", json_string("finite-differences"));
    err |= hes__json_put(obj, "max_abs_diff", hes__json_number(max_abs_diff));
    if (j) { /* the model's Jacobians against central differences */
        err |= hes__json_put(j, "checked", json_integer(jac->n_checked));
        err |= hes__json_put(j, "max_rel_err", hes__json_number(jac->max_rel_err));
        err |= hes__json_put(j, "where", json_string(jac->where));
        err |= hes__json_put(j, "disagree", json_boolean(jac->disagree));
        err |= hes__json_put(obj, "jacobians", j);
    }
    if (err) {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

/* Serialises and releases doc; NULL if doc is NULL or on failure. */
/* One pair of simultaneous events (hes_simultaneous). */
json_t *hes__json_simultaneous(const hes_model *model, const hes_simultaneous *s)
{
    json_t *o = json_object();
    int err = !o;
    if (err)
        return NULL;
    err |= hes__json_put(o, "first", json_string(model->transitions[s->first].name));
    err |= hes__json_put(o, "second", json_string(model->transitions[s->second].name));
    err |= hes__json_put(o, "dt", hes__json_number(s->dt));
    err |= hes__json_put(o, "other_order", s->alt_first >= 0
                   ? json_pack("[ss]", model->transitions[s->alt_second].name,
                               model->transitions[s->alt_first].name)
                   : json_null());
    err |= hes__json_put(o, "coupling", hes__json_number(s->coupling));
    err |= hes__json_put(o, "outcome_gap", hes__json_number(s->outcome_gap));
    err |= hes__json_put(o, "piece_gap", hes__json_number(s->piece_gap));
    err |= hes__json_put(o, "continuous", json_boolean(s->continuous));
    err |= hes__json_put(o, "differentiable", json_boolean(s->differentiable));
    err |= hes__json_put(o, "psi_taken", hes__json_number(s->psi_taken));
    err |= hes__json_put(o, "psi_other", hes__json_number(s->psi_other));
    if (err) {
        json_decref(o);
        return NULL;
    }
    return o;
}

char *hes__json_dump(json_t *doc)
{
    char *text;

    if (!doc)
        return NULL;
    text = json_dumps(doc, DUMP_FLAGS);
    json_decref(doc);
    return text;
}

json_t *hes__json_tangent_name(const hes_model *m, int mode, int i)
{
    const hes_mode *md = &m->modes[mode];
    int nt = md->tdim > 0 ? md->tdim : md->dim;
    char buf[32];

    if (md->tangent_names)
        return json_string(md->tangent_names[i]);
    if (nt == md->dim && md->state_names)
        return json_string(md->state_names[i]);
    snprintf(buf, sizeof buf, "d[%d]", i);
    return json_string(buf);
}

/* The names of a mode's tangent coordinates (hes__json_tangent_name). */
static json_t *tangent_names_json(const hes_model *model, int mode)
{
    const hes_mode *md = &model->modes[mode];
    int nt = md->tdim > 0 ? md->tdim : md->dim;
    json_t *list = json_array();
    for (int i = 0; list && i < nt; i++)
        if (json_array_append_new(list, hes__json_tangent_name(model, mode, i)) != 0) {
            json_decref(list);
            list = NULL;
        }
    return list;
}

/* The orbit's symmetries: their names, the symmetric multipliers (the
 * eigenvalues of U^T M U, in the order LAPACK gives them) and how far the
 * map is from leaving them invariant. */
static json_t *symmetries_json(const hes_model *model, const hes_stability *st)
{
    json_t *o = json_object(), *names = json_array(), *mult = json_array();
    int err = !o || !names || !mult, s = st->n_symmetric;
    for (int i = 0; !err && i < s; i++) {
        const char *name = model->orbit.symmetry_names ? model->orbit.symmetry_names[i] : NULL;
        err |= json_array_append_new(names, name ? json_string(name) : json_integer(i)) != 0;
        json_t *m = json_object();
        int j = st->n - s + i;
        err |= !m || hes__json_put(m, "re", hes__json_number(st->all_re[j])) ||
               hes__json_put(m, "im", hes__json_number(st->all_im[j])) ||
               hes__json_put(m, "abs", hes__json_number(hypot(st->all_re[j], st->all_im[j])));
        err |= json_array_append_new(mult, m) != 0;
    }
    if (!err) {
        err |= hes__json_put(o, "names", names);
        err |= hes__json_put(o, "multipliers", mult);
        err |= hes__json_put(o, "residual", hes__json_number(st->symmetry_residual));
        names = mult = NULL;
    }
    json_decref(names);
    json_decref(mult);
    if (err) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* The document of hes_analysis_json, or NULL on allocation failure. */
json_t *hes__json_analysis_doc(const hes_system *sys, const hes_analysis *res)
{
    const hes_model *model = hes_system_model(sys);
    json_t *doc = json_object();
    int err = 0;

    if (!doc)
        return NULL;
    /* x0 in the mode's state coordinates, the monodromy in its tangent ones */
    const hes_mode *md = &model->modes[res->orbit.mode];
    assert(res->mono.n == (md->tdim > 0 ? md->tdim : md->dim));
    err |= hes__json_put(doc, "problem", json_string(model->name));
    err |= hes__json_put(doc, "params", params_json(sys));
    err |= hes__json_put(doc, "orbit", orbit_json(model, &res->orbit, 1));
    err |= hes__json_put(doc, "monodromy", hes__json_matrix_rows(res->mono.phi, res->mono.n));
    if (md->retract)
        err |= hes__json_put(doc, "tangent_names", tangent_names_json(model, res->orbit.mode));
    if (res->mono.autonomous && res->mono.proj)
        err |= hes__json_put(doc, "return_map", hes__json_matrix_rows(res->mono.proj, res->mono.n));
    err |= hes__json_put(doc, "multipliers", hes__json_multipliers(&res->stab));
    if (res->stab.n_symmetric > 0)
        err |= hes__json_put(doc, "symmetries", symmetries_json(model, &res->stab));
    err |= hes__json_put(doc, "psi", hes__json_number(res->stab.psi));
    err |= hes__json_put(doc, "stable", json_boolean(res->stab.stable));
    err |= hes__json_put(doc, "verdict", json_string(hes_verdict_name(res->stab.verdict)));
    err |= hes__json_put(doc, "psi_tolerance", hes__json_number(res->stab.psi_tol));
    if (res->have_check)
        err |= hes__json_put(doc, "check", check_json(res->check_max_abs_diff, &res->jacobians));
    if (res->n_simultaneous > 0) {
        json_t *list = json_array();
        for (int k = 0; list && k < res->n_simultaneous; k++)
            if (json_array_append_new(list, hes__json_simultaneous(model, &res->simultaneous[k])) != 0) {
                json_decref(list);
                list = NULL;
            }
        err |= hes__json_put(doc, "simultaneous", list);
    }
    if (err) {
        json_decref(doc);
        return NULL;
    }
    return doc;
}

/* {"NAME": dpsi/dNAME} over the shape parameters of sh (null where the
 * evaluation has no gradient). */
static json_t *gradient_json(const hes_model *model, const hes_shape *sh,
                             const hes_shape_eval_result *ev)
{
    json_t *obj = json_object();
    int j, err = 0;

    if (!obj)
        return NULL;
    for (j = 0; j < hes_shape_count(sh); j++) {
        int i = hes_shape_param(sh, j);

        assert(i >= 0 && i < model->n_params);
        err |= hes__json_put(obj, model->params[i].name,
                   ev->dpsi ? hes__json_number(ev->dpsi[j]) : json_null());
    }
    if (err) {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

char *hes_analysis_gradient_json(const hes_system *sys, const hes_analysis *res,
                                 const hes_shape *sh, const hes_shape_eval_result *ev)
{
    if (!sys || !res)
        return NULL;
    const hes_model *model = hes_system_model(sys);
    json_t *doc = hes__json_analysis_doc(sys, res);
    int err = 0;

    if (!doc)
        return NULL;
    err |= hes__json_put(doc, "psi_gradient", gradient_json(model, sh, ev));
    err |= hes__json_put(doc, "psi_gradient_method",
               json_string(ev->fallback ? "finite-differences" : "analytic"));
    err |= hes__json_put(doc, "psi_gradient_nonsmooth", json_boolean(ev->nonsmooth));
    if (err) {
        json_decref(doc);
        return NULL;
    }
    return hes__json_dump(doc);
}

/* null when the trial completed, else "<status name>: <detail>". */
static json_t *failure_json(const hes_trial *trial)
{
    if (trial->failure == HES_OK)
        return json_null();
    if (trial->failure_msg[0] == '\0')
        return json_string(hes_strerror(trial->failure));
    return json_sprintf("%s: %s", hes_strerror(trial->failure), trial->failure_msg);
}

static json_t *trial_json(const hes_trial *trial, int n)
{
    json_t *obj = json_object();
    int err = 0;

    if (!obj)
        return NULL;
    err |= hes__json_put(obj, "x0", hes__json_vector(trial->x0, n));
    err |= hes__json_put(obj, "steps_completed", json_integer(trial->steps_completed));
    err |= hes__json_put(obj, "failure", failure_json(trial));
    err |= hes__json_put(obj, "error", hes__json_vector(trial->error, trial->steps_completed));
    if (err) {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

char *hes_trials_json(const hes_system *sys, const hes_orbit *orbit,
                      const hes_trials *trials)
{
    if (!sys || !orbit || !trials)
        return NULL;
    const hes_model *model = hes_system_model(sys);
    json_t *doc = json_object(), *list;
    int err = 0, k;

    if (!doc)
        return NULL;
    list = json_array();
    for (k = 0; list && k < trials->n_trials; k++) {
        if (json_array_append_new(list, trial_json(&trials->trials[k], trials->n)) != 0) {
            json_decref(list);
            list = NULL;
        }
    }
    err |= hes__json_put(doc, "problem", json_string(model->name));
    err |= hes__json_put(doc, "params", params_json(sys));
    err |= hes__json_put(doc, "orbit", orbit_json(model, orbit, 0));
    err |= hes__json_put(doc, "trials", list);
    err |= hes__json_put(doc, "converged", json_integer(trials->converged));
    err |= hes__json_put(doc, "tol", hes__json_number(trials->tol));
    err |= hes__json_put(doc, "radius", hes__json_number(trials->radius));
    err |= hes__json_put(doc, "region", json_string(trials->box ? "box" : "ball"));
    err |= hes__json_put(doc, "seed", json_integer((json_int_t)trials->seed));
    if (err) {
        json_decref(doc);
        return NULL;
    }
    return hes__json_dump(doc);
}

/* "verify" of hes_shape_json: the perturbation trials at the optimum. */
static json_t *verify_json(const hes_trials *trials, hes_verdict verdict)
{
    const char *why = hes_trials_contradiction(verdict, trials);
    json_t *obj = json_object();
    int err = 0;

    if (!obj)
        return NULL;
    err |= hes__json_put(obj, "trials", json_integer(trials->n_trials));
    err |= hes__json_put(obj, "converged", json_integer(trials->converged));
    err |= hes__json_put(obj, "radius", hes__json_number(trials->radius));
    err |= hes__json_put(obj, "steps", json_integer(trials->steps));
    err |= hes__json_put(obj, "tol", hes__json_number(trials->tol));
    err |= hes__json_put(obj, "contradiction", why ? json_string(why) : json_null());
    if (err) {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

static const char *gradient_word(int gradient)
{
    if (gradient == 1)
        return "analytic";
    if (gradient == 0)
        return "finite-differences";
    return "none";
}

char *hes_shape_json(const hes_system *sys, const hes_shape_result *res,
                     hes_measure measure, const hes_trials *trials)
{
    if (!sys || !res)
        return NULL;
    const hes_model *model = hes_system_model(sys);
    json_t *doc = json_object(), *shape, *bounds;
    int err = 0, j;

    if (!doc)
        return NULL;
    shape = json_object();
    bounds = json_object();
    for (j = 0; j < res->n; j++) {
        const double range[2] = {res->lo[j], res->hi[j]};
        const char *name;

        assert(res->param[j] >= 0 && res->param[j] < model->n_params);
        name = model->params[res->param[j]].name;
        if (shape && hes__json_put(shape, name, hes__json_number(res->h[j])) != 0) {
            json_decref(shape);
            shape = NULL;
        }
        if (bounds && hes__json_put(bounds, name, hes__json_vector(range, 2)) != 0) {
            json_decref(bounds);
            bounds = NULL;
        }
    }
    err |= hes__json_put(doc, "problem", json_string(model->name));
    err |= hes__json_put(doc, "params", params_json(sys));
    err |= hes__json_put(doc, "psi_initial", hes__json_number(res->psi_initial));
    err |= hes__json_put(doc, "psi", hes__json_number(res->psi));
    err |= hes__json_put(doc, "stable", json_boolean(res->analysis.stab.stable));
    err |= hes__json_put(doc, "verdict", json_string(hes_verdict_name(res->analysis.stab.verdict)));
    err |= hes__json_put(doc, "psi_tolerance", hes__json_number(res->analysis.stab.psi_tol));
    err |= hes__json_put(doc, "shape", shape);
    err |= hes__json_put(doc, "bounds", bounds);
    err |= hes__json_put(doc, "evaluations", json_integer(res->evaluations));
    err |= hes__json_put(doc, "gradient", json_string(gradient_word(res->gradient)));
    err |= hes__json_put(doc, "fallbacks", json_integer(res->fallbacks));
    err |= hes__json_put(doc, "algorithm", json_string(res->algorithm));
    err |= hes__json_put(doc, "measure",
               json_string(hes_measure_name(measure == HES_MEASURE_SMOOTH ? measure
                                                                          : HES_MEASURE_PSI)));
    err |= hes__json_put(doc, "multipliers", hes__json_multipliers(&res->analysis.stab));
    err |= hes__json_put(doc, "orbit", orbit_json(model, &res->analysis.orbit, 1));
    err |= hes__json_put(doc, "moves_orbit", json_boolean(res->moves_orbit));
    err |= hes__json_put(doc, "lost", json_integer(res->lost));
    if (res->lost_at) {      /* the lost evaluation nearest the optimum, and why */
        json_t *at = json_object();
        for (j = 0; at && j < res->n; j++)
            if (hes__json_put(at, model->params[res->param[j]].name,
                              hes__json_number(res->lost_at[j])) != 0) {
                json_decref(at);
                at = NULL;
            }
        err |= hes__json_put(doc, "lost_at", at);
        err |= hes__json_put(doc, "lost_why", json_string(res->lost_why));
    } else {
        err |= hes__json_put(doc, "lost_at", json_null());
        err |= hes__json_put(doc, "lost_why", json_null());
    }
    if (trials)
        err |= hes__json_put(doc, "verify", verify_json(trials, res->analysis.stab.verdict));
    if (err) {
        json_decref(doc);
        return NULL;
    }
    return hes__json_dump(doc);
}

int hes__reader_fail(char *msg, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (msg && len)
        vsnprintf(msg, len, fmt, ap);
    va_end(ap);
    return -1;
}

int hes__reader_oom(char *msg, size_t len)
{
    hes__reader_fail(msg, len, "out of memory");
    return -2;
}

hes_status hes__reader_status(int rc)
{
    return rc == 0 ? HES_OK : rc == -2 ? HES_ENOMEM : HES_EINVAL;
}
