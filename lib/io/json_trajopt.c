/*
 * json_trajopt.c - hes_trajopt_json: the document of `hes trajopt --json`
 * (a hes_trajopt_result with the system it was computed on).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdlib.h>

#include "io/io.h"

char *hes_trajopt_json(const hes_system *sys, const hes_trajopt_result *r)
{
    if (!sys || !r || !r->gait.params)
        return NULL;
    const hes_model *m = hes_system_model(sys);
    const hes_gait *g = &r->gait;
    const char *objective = hes_colloc_objective_name(r->objective);
    json_t *doc = json_object(), *params = json_object(), *des = json_object(),
           *phases = json_array();
    double v;

    for (int i = 0; i < m->n_params; i++)
        json_object_set_new(params, m->params[i].name, json_real(g->params[i]));
    for (int j = 0; j < r->n_design; j++) {
        const char *name = m->params[r->design[j]].name;
        hes_system_get_param(sys, name, &v);
        json_object_set_new(des, name, json_real(v));
    }
    for (int i = 0; i < g->n_phases; i++) {
        const hes_gait_phase *ph = &g->phases[i];
        json_t *pj = json_pack("{s:s, s:f, s:s, s:b}", "mode", m->modes[ph->mode].name,
                               "duration", ph->duration, "ends_with",
                               m->transitions[ph->transition].name, "virtual", ph->is_virtual);
        if (ph->is_virtual)
            json_object_set_new(pj, "offset", json_real(ph->offset));
        json_array_append_new(phases, pj);
    }
    json_object_set_new(doc, "problem", json_string(m->name));
    json_object_set_new(doc, "params", params);
    json_object_set_new(doc, "objective", objective ? json_string(objective) : json_null());
    if (r->objective == HES_COLLOC_WEIGHTED)
        json_object_set_new(doc, "weight", json_real(r->weight));
    json_object_set_new(doc, "nodes", json_integer(r->nodes));
    json_object_set_new(doc, "variables", json_integer(r->variables));
    json_object_set_new(doc, "constraints", json_integer(r->constraints));
    json_object_set_new(doc, "path_constraints", json_integer(r->path_constraints));
    json_object_set_new(doc, "design", des);
    json_object_set_new(doc, "phases", phases);
    json_object_set_new(doc, "period", json_real(r->period));
    json_object_set_new(doc, "energy", isfinite(r->energy) ? json_real(r->energy) : json_null());
    json_object_set_new(doc, "psi_collocation", json_real(r->psi_collocation));
    json_object_set_new(doc, "psi_shooting",
                        r->have_shooting ? json_real(r->psi_shooting) : json_null());
    json_object_set_new(doc, "verdict", r->have_shooting ? json_string(hes_verdict_name(r->verdict))
                                                         : json_null());
    json_object_set_new(doc, "refined_nodes", json_integer(r->refined_nodes));
    json_object_set_new(doc, "grid_resolved",
                        r->have_shooting ? json_boolean(!r->unresolved) : json_null());
    json_object_set_new(doc, "return_map_difference",
                        r->have_shooting && isfinite(r->return_map_difference)
                            ? json_real(r->return_map_difference) : json_null());
    json_object_set_new(doc, "psi_refined",
                        r->refined_nodes ? json_real(r->psi_refined) : json_null());
    json_object_set_new(doc, "constraint_violation", json_real(r->violation));
    json_t *grids = json_array();
    for (int k = 0; k < r->n_grids; k++) {
        const hes_trajopt_grid *gr = &r->grids[k];
        json_array_append_new(grids, json_pack("{s:i, s:i, s:s, s:i, s:f, s:o, s:f}", "nodes",
                                               gr->nodes, "variables", gr->variables, "solver",
                                               hes_nlp_solver_name(gr->solver), "evaluations",
                                               gr->evaluations, "psi_collocation", gr->psi,
                                               "energy", isfinite(gr->energy)
                                                   ? json_real(gr->energy) : json_null(),
                                               "seconds", gr->seconds));
    }
    json_object_set_new(doc, "grids", grids);
    json_object_set_new(doc, "cost", isfinite(r->cost) ? json_real(r->cost) : json_null());
    json_object_set_new(doc, "cost_shooting",
                        isfinite(r->cost_shooting) ? json_real(r->cost_shooting) : json_null());
    json_t *starts = r->n_starts > 1 ? json_array() : NULL;
    for (int s = 0; starts && s < r->n_starts; s++) {
        const hes_trajopt_start *e = &r->starts[s];
        json_t *ej = json_pack("{s:s}", "status",
                               e->status == HES_OK ? "ok" : hes_strerror(e->status));
        const char *keys[] = { "cost", "cost_shooting", "psi_shooting", "energy", "seconds" };
        double vals[] = { e->cost, e->cost_shooting, e->psi_shooting, e->energy, e->seconds };
        for (int k = 0; k < 5; k++)
            json_object_set_new(ej, keys[k], isfinite(vals[k]) ? json_real(vals[k]) : json_null());
        json_object_set_new(ej, "evaluations", json_integer(e->evaluations));
        if (e->status != HES_OK)
            json_object_set_new(ej, "message", json_string(e->message));
        json_array_append_new(starts, ej);
    }
    if (starts) {
        json_object_set_new(doc, "starts", starts);
        json_object_set_new(doc, "best_start", json_integer(r->best_start));
    }
    json_object_set_new(doc, "evaluations", json_integer(r->evaluations));
    json_object_set_new(doc, "fallbacks", json_integer(r->fallbacks));
    json_object_set_new(doc, "seconds", json_real(r->seconds));
    char *text = doc ? json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) : NULL;
    json_decref(doc);
    return text;
}
