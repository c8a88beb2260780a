/*
 * json_trajopt.c - hes_trajopt_json: the document of `hes trajopt --json`
 * (a hes_trajopt_result with the system it was computed on).  A value that is
 * not finite is null, as in every document of lib/io (io.h).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

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
        json_object_set_new(params, m->params[i].name, hes__json_number(g->params[i]));
    for (int j = 0; j < r->n_design; j++) {
        const char *name = m->params[r->design[j]].name;
        hes_system_get_param(sys, name, &v);
        json_object_set_new(des, name, hes__json_number(v));
    }
    for (int i = 0; i < g->n_phases; i++) {
        const hes_gait_phase *ph = &g->phases[i];
        json_t *pj = json_pack("{s:s, s:o, s:s, s:b}", "mode", m->modes[ph->mode].name,
                               "duration", hes__json_number(ph->duration), "ends_with",
                               m->transitions[ph->transition].name, "virtual", ph->is_virtual);
        if (ph->is_virtual)
            json_object_set_new(pj, "offset", hes__json_number(ph->offset));
        json_array_append_new(phases, pj);
    }
    json_object_set_new(doc, "problem", json_string(m->name));
    json_object_set_new(doc, "params", params);
    json_object_set_new(doc, "objective", objective ? json_string(objective) : json_null());
    if (r->objective == HES_COLLOC_WEIGHTED)
        json_object_set_new(doc, "weight", hes__json_number(r->weight));
    json_object_set_new(doc, "nodes", json_integer(r->nodes));
    json_object_set_new(doc, "variables", json_integer(r->variables));
    json_object_set_new(doc, "constraints", json_integer(r->constraints));
    json_object_set_new(doc, "path_constraints", json_integer(r->path_constraints));
    json_object_set_new(doc, "design", des);
    json_object_set_new(doc, "phases", phases);
    json_object_set_new(doc, "period", hes__json_number(r->period));
    json_object_set_new(doc, "energy", hes__json_number(r->energy));
    json_object_set_new(doc, "psi_collocation", hes__json_number(r->psi_collocation));
    json_object_set_new(doc, "psi_shooting",
                        r->have_shooting ? hes__json_number(r->psi_shooting) : json_null());
    json_object_set_new(doc, "verdict", r->have_shooting ? json_string(hes_verdict_name(r->verdict))
                                                         : json_null());
    json_object_set_new(doc, "refined_nodes", json_integer(r->refined_nodes));
    json_object_set_new(doc, "grid_resolved",
                        r->have_shooting ? json_boolean(!r->unresolved) : json_null());
    json_object_set_new(doc, "return_map_difference",
                        r->have_shooting ? hes__json_number(r->return_map_difference)
                                         : json_null());
    json_object_set_new(doc, "psi_refined",
                        r->refined_nodes ? hes__json_number(r->psi_refined) : json_null());
    json_object_set_new(doc, "constraint_violation", hes__json_number(r->violation));
    json_t *grids = json_array();
    for (int k = 0; k < r->n_grids; k++) {
        const hes_trajopt_grid *gr = &r->grids[k];
        json_array_append_new(grids, json_pack("{s:i, s:i, s:s, s:i, s:o, s:o, s:o}", "nodes",
                                               gr->nodes, "variables", gr->variables, "solver",
                                               hes_nlp_solver_name(gr->solver), "evaluations",
                                               gr->evaluations, "psi_collocation",
                                               hes__json_number(gr->psi), "energy",
                                               hes__json_number(gr->energy), "seconds",
                                               hes__json_number(gr->seconds)));
    }
    json_object_set_new(doc, "grids", grids);
    json_object_set_new(doc, "cost", hes__json_number(r->cost));
    json_object_set_new(doc, "cost_shooting", hes__json_number(r->cost_shooting));
    json_t *starts = r->n_starts > 1 ? json_array() : NULL;
    for (int s = 0; starts && s < r->n_starts; s++) {
        const hes_trajopt_start *e = &r->starts[s];
        json_t *ej = json_pack("{s:s}", "status",
                               e->status == HES_OK ? "ok" : hes_strerror(e->status));
        const char *keys[] = { "cost", "cost_shooting", "psi_shooting", "energy", "seconds" };
        double vals[] = { e->cost, e->cost_shooting, e->psi_shooting, e->energy, e->seconds };
        for (int k = 0; k < 5; k++)
            json_object_set_new(ej, keys[k], hes__json_number(vals[k]));
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
    json_object_set_new(doc, "seconds", hes__json_number(r->seconds));
    return hes__json_dump(doc);
}
