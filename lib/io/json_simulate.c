/*
 * json_simulate.c - hes_state_sweep_json: the document of `hes simulate
 * --sweep --json` (the trajectory outcomes of a state sweep).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdio.h>

#include "io/io.h"

static json_t *result_json(const hes_model *m, const hes_state_sweep_point *r)
{
    const hes_phase *ph = r->traj.n_phases > 0 ? &r->traj.phases[r->traj.n_phases - 1] : NULL;
    json_t *events = json_array(), *times = json_array();
    char why[640];

    for (int e = 0; events && times && e < r->traj.n_events; e++) {
        json_array_append_new(events,
                              json_string(m->transitions[r->traj.events[e].transition].name));
        json_array_append_new(times, hes__json_number(r->traj.events[e].t));
    }
    if (r->message[0])
        snprintf(why, sizeof why, "%s: %s", hes_strerror(r->status), r->message);
    else
        snprintf(why, sizeof why, "%s", hes_strerror(r->status));
    return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
                     "value", hes__json_number(r->value),
                     "events", events ? events : json_null(),
                     "event_times", times ? times : json_null(),
                     "mode", ph ? json_string(m->modes[ph->mode].name) : json_null(),
                     "t", ph ? hes__json_number(ph->t1) : json_null(),
                     "x", ph ? hes__json_vector(ph->x1, m->modes[ph->mode].dim) : json_null(),
                     "failure", r->status == HES_OK ? json_null() : json_string(why));
}

char *hes_state_sweep_json(const hes_system *sys, const hes_state_sweep *sw)
{
    if (!sys || !sw)
        return NULL;
    const hes_model *m = hes_system_model(sys);
    const double *p = hes_system_params(sys);
    json_t *params = json_object(), *values = json_array(), *results = json_array();
    char name[32];
    const char *state = m->modes[sw->mode].state_names ? m->modes[sw->mode].state_names[sw->state]
                                                       : NULL;

    if (!state) {
        snprintf(name, sizeof name, "x[%d]", sw->state);
        state = name;
    }
    for (int k = 0; params && k < m->n_params; k++)
        json_object_set_new(params, m->params[k].name, hes__json_number(p[k]));
    for (int k = 0; values && results && k < sw->n; k++) {
        json_array_append_new(values, hes__json_number(sw->points[k].value));
        json_array_append_new(results, result_json(m, &sw->points[k]));
    }
    return hes__json_dump(json_pack("{s:s, s:o, s:{s:s, s:o, s:s, s:o, s:o}, s:o}",
                                    "problem", m->name,
                                    "params", params ? params : json_null(),
                                    "sweep",
                                    "name", state,
                                    "values", values ? values : json_null(),
                                    "mode", m->modes[sw->mode].name,
                                    "x0", hes__json_vector(sw->x0, sw->dim),
                                    "time", hes__json_number(sw->time),
                                    "results", results ? results : json_null()));
}

char *hes_flow_json(const hes_system *sys, int mode, const double *x0, double time,
                    const hes_flow *f)
{
    if (!sys || !x0 || !f || !f->jac || f->traj.n_phases < 1)
        return NULL;
    const hes_model *m = hes_system_model(sys);
    const double *p = hes_system_params(sys);
    const hes_phase *end = &f->traj.phases[f->traj.n_phases - 1];
    json_t *params = json_object(), *events = json_array(), *sim = json_array();
    for (int k = 0; params && k < m->n_params; k++)
        json_object_set_new(params, m->params[k].name, hes__json_number(p[k]));
    for (int e = 0; events && e < f->traj.n_events; e++)
        json_array_append_new(events, json_pack("{s:s, s:o}", "transition",
                                                m->transitions[f->traj.events[e].transition].name,
                                                "t", hes__json_number(f->traj.events[e].t)));
    for (int k = 0; sim && k < f->n_simultaneous; k++)
        json_array_append_new(sim, hes__json_simultaneous(m, &f->simultaneous[k]));
    return hes__json_dump(json_pack("{s:s, s:o, s:s, s:o, s:o, s:o, s:s, s:o, s:o, s:o}",
                                    "problem", m->name,
                                    "params", params ? params : json_null(),
                                    "mode", m->modes[mode].name,
                                    "x0", hes__json_vector(x0, m->modes[mode].dim),
                                    "time", hes__json_number(time),
                                    "events", events ? events : json_null(),
                                    "mode_end", m->modes[end->mode].name,
                                    "x_end", hes__json_vector(end->x1,
                                                              m->modes[end->mode].dim),
                                    "jacobian", hes__json_matrix_rows(f->jac, f->n),
                                    "simultaneous", sim ? sim : json_null()));
}
