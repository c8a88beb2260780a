/*
 * json_ess.c - the documents of event-selected systems: hes_ess_model_json
 * (`hes info --json` of an ESS problem) and hes_ess_result_json (`hes
 * simulate --integrator ess --json`), described in hes.h.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>

#include "io/io.h"

/* names[i], or "<prefix>[i]" for a model without names. */
static json_t *name_list(const char *const *names, int n, const char *prefix)
{
    json_t *a = json_array();
    char buf[32];

    for (int i = 0; a && i < n; i++) {
        if (names)
            json_array_append_new(a, json_string(names[i]));
        else {
            snprintf(buf, sizeof buf, "%s[%d]", prefix, i);
            json_array_append_new(a, json_string(buf));
        }
    }
    return a;
}

char *hes_ess_model_json(const hes_ess_model *m)
{
    if (!m || !m->name)
        return NULL;
    json_t *guess = m->orbit_x0 ? json_pack("{s:o, s:o, s:i}", "x0",
                                            hes__json_vector(m->orbit_x0, m->n), "period",
                                            hes__json_number(m->orbit_period), "section",
                                            m->orbit_section)
                                : json_null();
    return hes__json_dump(json_pack("{s:s, s:o, s:s, s:o, s:o, s:o, s:o}",
                                    "name", m->name,
                                    "description", m->description ? json_string(m->description)
                                                                  : json_null(),
                                    "integrator", "ess",
                                    "states", name_list(m->state_names, m->n, "x"),
                                    "events", name_list(m->event_names, m->m, "h"),
                                    "params", hes__json_param_list(m->params, m->n_params),
                                    "orbit_guess", guess ? guess : json_null()));
}

static json_t *samples_json(const hes_ess_options *opts, const hes_ess_result *r)
{
    json_t *a = json_array();
    int out = opts && opts->n_out > 0 && r->x_out;
    int count = out ? opts->n_out : r->n_samples;

    for (int k = 0; a && k < count; k++) {
        double t = out ? opts->t_out[k] : r->t[k];
        const double *x = out ? &r->x_out[(size_t)k * r->n] : &r->x[(size_t)k * r->n];
        json_array_append_new(a, json_pack("{s:o, s:o}", "t", hes__json_number(t),
                                           "x", hes__json_vector(x, r->n)));
    }
    return a;
}

char *hes_ess_result_json(const hes_ess *ess, const hes_ess_options *opts, double t0,
                          const double *x0, const hes_ess_result *r)
{
    if (!ess || !x0 || !r || !r->x_end)
        return NULL;
    const hes_ess_model *m = hes_ess_get_model(ess);
    const double *p = hes_ess_params(ess);
    hes_ess_options defaults;
    json_t *params = json_object(), *signs = json_array();

    if (!opts) {
        hes_ess_options_init(&defaults);
        opts = &defaults;
    }
    for (int k = 0; params && k < m->n_params; k++)
        json_object_set_new(params, m->params[k].name, hes__json_number(p[k]));
    for (int i = 0; signs && r->s_end && i < r->m; i++)
        json_array_append_new(signs, json_integer(r->s_end[i]));
    return hes__json_dump(json_pack(
        "{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
        "s:{s:I, s:I, s:I, s:I, s:I}, s:o, s:o, s:o}",
        "problem", m->name,
        "integrator", "ess",
        "eps", hes__json_number(opts->eps),
        "params", params ? params : json_null(),
        "states", name_list(m->state_names, m->n, "x"),
        "t0", hes__json_number(t0),
        "x0", hes__json_vector(x0, m->n),
        "t_end", hes__json_number(r->t_end),
        "samples", samples_json(opts, r),
        "x_end", hes__json_vector(r->x_end, r->n),
        "signs_end", signs ? signs : json_null(),
        "counts",
        "integration_steps", (json_int_t)r->n_integrations,
        "projections", (json_int_t)r->n_projections,
        "sign_changes", (json_int_t)r->n_sign_changes,
        "rearms", (json_int_t)r->n_rearms,
        "refused", (json_int_t)r->n_refused,
        "jacobian", r->jac ? hes__json_matrix_rows(r->jac, r->n) : json_null(),
        "eps_error", hes__json_number(r->eps_error),
        "eps_order", hes__json_number(r->eps_order)));
}

json_t *hes__ess_orbit_doc(const hes_ess *ess, const hes_ess_orbit_options *opts,
                           const hes_ess_orbit *o)
{
    if (!ess || !opts || !o || !o->x0 || !o->mono.phi || !o->stab.abs)
        return NULL;
    const hes_ess_model *m = hes_ess_get_model(ess);
    const double *p = hes_ess_params(ess);
    json_t *params = json_object();
    for (int k = 0; params && k < m->n_params; k++)
        json_object_set_new(params, m->params[k].name, hes__json_number(p[k]));
    char buf[32];
    snprintf(buf, sizeof buf, "x[%d]", o->section);
    return json_pack(
        "{s:s, s:s, s:o, s:o, s:o, s:s, "
        "s:{s:o, s:o, s:o, s:i, s:o, s:{s:I, s:I, s:I}}, "
        "s:o, s:o, s:o, s:o, s:b, s:s, s:o, s:o, s:o}",
        "problem", m->name,
        "integrator", "ess",
        "eps", hes__json_number(opts->ess.eps),
        "params", params ? params : json_null(),
        "states", name_list(m->state_names, m->n, "x"),
        "section", m->state_names ? m->state_names[o->section] : buf,
        "orbit",
        "x0", hes__json_vector(o->x0, o->n),
        "period", hes__json_number(o->period),
        "flow", hes__json_vector(o->flow, o->n),
        "iterations", o->iterations,
        "residual", hes__json_number(o->residual),
        "counts",
        "projections", (json_int_t)o->n_projections,
        "refused", (json_int_t)o->n_refused,
        "sign_changes", (json_int_t)o->n_sign_changes,
        "monodromy", hes__json_matrix_rows(o->mono.phi, o->n),
        "return_map", hes__json_matrix_rows(o->mono.proj, o->n),
        "multipliers", hes__json_multipliers(&o->stab),
        "psi", hes__json_number(o->stab.psi),
        "stable", o->stab.stable,
        "verdict", hes_verdict_name(o->stab.verdict),
        "psi_tolerance", hes__json_number(o->stab.psi_tol),
        "eps_error", hes__json_number(o->eps_error),
        "eps_order", hes__json_number(o->eps_order));
}

char *hes_ess_orbit_json(const hes_ess *ess, const hes_ess_orbit_options *opts,
                         const hes_ess_orbit *o)
{
    json_t *doc = hes__ess_orbit_doc(ess, opts, o);
    return doc ? hes__json_dump(doc) : NULL;
}
