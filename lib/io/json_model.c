/*
 * json_model.c - hes_model_json: what a model is made of as one JSON
 * document (`hes info PROBLEM --json`):
 *   {"name", "description",
 *    "modes": [{"name", "dim", "states": [...], and with a chart "tdim",
 *               "tangent": [...]}],
 *    "transitions": [{"name", "from", "to", "direction": "down"|"up"|"any",
 *                     "clock_reset": bool}],
 *    "params": [{"name", "default", "unit", "description", "shape", "solved",
 *                "positive", "min", "max",           (null: unbounded)
 *                "search": [lo, hi]}],               (null: none given)
 *    "orbit": {"mode", "section", "sequence": [...], "autonomous": bool,
 *              "period_param": name|null, "free_states": [...],
 *              "free_params": [...], "residual": [...]}
 *             (null: the model declares no orbit, as hes info says)}
 * States without names are "x[i]".
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>

#include "io/io.h"

static const char *mode_name(const hes_model *m, int i)
{
    return i >= 0 && i < m->n_modes ? m->modes[i].name : "?";
}

static const char *transition_name(const hes_model *m, int i)
{
    return i >= 0 && i < m->n_transitions ? m->transitions[i].name : "?";
}

static json_t *string_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

/* State i of mode `mode`: its name, or "x[i]". */
static json_t *state_json(const hes_model *m, int mode, int i)
{
    const hes_mode *md = mode >= 0 && mode < m->n_modes ? &m->modes[mode] : NULL;
    char buf[32];

    if (md && md->state_names && i >= 0 && i < md->dim)
        return json_string(md->state_names[i]);
    snprintf(buf, sizeof buf, "x[%d]", i);
    return json_string(buf);
}

/* Names of the components idx[0..n) of mode `mode`: of its state, or of its
 * tangent coordinates when it has a chart (the orbit spec's free states and
 * residual then index those). */
static json_t *state_names_json(const hes_model *m, int mode, const int *idx, int n)
{
    json_t *a = json_array();
    int chart = mode >= 0 && mode < m->n_modes && m->modes[mode].retract;

    for (int i = 0; a && i < n; i++)
        json_array_append_new(a, chart ? hes__json_tangent_name(m, mode, idx[i])
                                       : state_json(m, mode, idx[i]));
    return a;
}

static json_t *modes_json(const hes_model *m)
{
    json_t *a = json_array();

    for (int i = 0; a && i < m->n_modes; i++) {
        const hes_mode *md = &m->modes[i];
        json_t *states = json_array();

        for (int j = 0; states && j < md->dim; j++)
            json_array_append_new(states, state_json(m, i, j));
        json_t *mode = json_pack("{s:s, s:i, s:o}", "name", md->name, "dim", md->dim,
                                 "states", states);
        if (mode && md->retract) { /* a state on a manifold: its tangent coordinates */
            int nt = md->tdim > 0 ? md->tdim : md->dim;
            json_t *tangent = json_array();
            for (int j = 0; tangent && j < nt; j++)
                json_array_append_new(tangent, hes__json_tangent_name(m, i, j));
            json_object_set_new(mode, "tdim", json_integer(nt));
            json_object_set_new(mode, "tangent", tangent ? tangent : json_null());
        }
        json_array_append_new(a, mode);
    }
    return a;
}

static json_t *transitions_json(const hes_model *m)
{
    json_t *a = json_array();

    for (int i = 0; a && i < m->n_transitions; i++) {
        const hes_transition *t = &m->transitions[i];

        json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s, s:b}",
                                           "name", t->name,
                                           "from", mode_name(m, t->from),
                                           "to", mode_name(m, t->to),
                                           "direction", hes_direction_name(t->direction),
                                           "clock_reset", t->clock_reset != 0));
    }
    return a;
}

/* The default search bounds of a shape parameter; both 0: none given. */
static json_t *search_json(const hes_param *p)
{
    if (!(p->flags & HES_PARAM_SHAPE) || (p->search_lo == 0 && p->search_hi == 0))
        return json_null();
    return json_pack("[o, o]", hes__json_number(p->search_lo), hes__json_number(p->search_hi));
}

json_t *hes__json_param_list(const hes_param *params, int n)
{
    json_t *a = json_array();

    for (int i = 0; a && i < n; i++) {
        const hes_param *p = &params[i];

        json_array_append_new(a, json_pack("{s:s, s:o, s:o, s:o, s:b, s:b, s:b, s:o, s:o, s:o}",
                                           "name", p->name,
                                           "default", hes__json_number(p->value),
                                           "unit", string_or_null(p->unit),
                                           "description", string_or_null(p->description),
                                           "shape", (p->flags & HES_PARAM_SHAPE) != 0,
                                           "solved", (p->flags & HES_PARAM_SOLVED) != 0,
                                           "positive", (p->flags & HES_PARAM_POSITIVE) != 0,
                                           "min", hes__json_number(p->min),
                                           "max", hes__json_number(p->max),
                                           "search", search_json(p)));
    }
    return a;
}

static json_t *orbit_json(const hes_model *m)
{
    const hes_orbit_spec *o = &m->orbit;
    if (!o->guess)
        return json_null();   /* simulation only: no orbit to look for */
    json_t *seq = json_array(), *free_params = json_array();

    for (int i = 0; seq && i < o->n_sequence; i++)
        json_array_append_new(seq, json_string(transition_name(m, o->sequence[i])));
    for (int i = 0; free_params && i < o->n_free_params; i++)
        json_array_append_new(free_params, json_string(o->free_params[i]));
    return json_pack("{s:s, s:s, s:o, s:b, s:o, s:o, s:o, s:o}",
                     "mode", mode_name(m, o->mode),
                     "section", transition_name(m, o->section),
                     "sequence", seq,
                     "autonomous", o->period_param == NULL,
                     "period_param", string_or_null(o->period_param),
                     "free_states", state_names_json(m, o->mode, o->free_states,
                                                     o->n_free_states),
                     "free_params", free_params,
                     "residual", state_names_json(m, o->mode, o->residual,
                                                  o->n_residual));
}

char *hes_model_json(const hes_model *m)
{
    if (!m)
        return NULL;
    return hes__json_dump(json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}",
                                    "name", m->name,
                                    "description", string_or_null(m->description),
                                    "modes", modes_json(m),
                                    "transitions", transitions_json(m),
                                    "params", hes__json_param_list(m->params, m->n_params),
                                    "orbit", orbit_json(m)));
}
