/*
 * json_impact.c - the document of `hes impact --json` (hes_impact_json,
 * described in hes.h): a simultaneous impact's outcome set (Halm & Posa,
 * Algorithm 2) with its summary, extremes and the outcomes of the
 * single-valued laws located in it.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>

#include "io/io.h"

static json_t *modes_json(const hes_contact_mode *m, int k)
{
    json_t *a = json_array();
    for (int i = 0; a && i < k; i++)
        json_array_append_new(a, json_string(hes_contact_mode_name(m[i])));
    return a;
}

/* one outcome: velocity, contact velocities, modes */
static json_t *outcome_core(const double *v, int n, const double *u, int k,
                            const hes_contact_mode *m)
{
    return json_pack("{s:o, s:o, s:o, s:o}", "v", hes__json_vector(v, n), "u_normal",
                     hes__json_vector(u, k), "u_tangent", hes__json_vector(u + k, k), "modes",
                     modes_json(m, k));
}

char *hes_impact_json(const hes_impact_problem *pb, const hes_impact_setup *s,
                      const hes_impact_set_options *o, const hes_impact_set *S,
                      const hes_impact_outcome *outs, int n_outs, int samples)
{
    if (!pb || !s || !o || !S)
        return NULL;
    int n = s->d, k = s->k;
    double *um = malloc(sizeof *um * 2 * (size_t)k);   /* the contact velocities before */
    if (!um)
        return NULL;
    hes_contact_velocities(&s->contacts, s->v, um);
    json_t *contacts = json_array();
    for (int i = 0; contacts && i < k; i++)
        json_array_append_new(contacts, json_pack(
            "{s:s, s:o, s:o, s:o}", "name", pb->mech->constraints[pb->contacts[i]].name, "mu",
            hes__json_number(s->mu[i]), "u_normal", hes__json_number(um[i]), "u_tangent",
            hes__json_number(um[k + i])));
    free(um);
    long lcps = 0;
    for (int i = 0; i < S->samples; i++)
        lcps += S->lcps[i];
    json_t *summary = json_pack(
        "{s:i, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:s, s:I}", "samples", S->samples, "finished",
        S->n_finished, "mean_lcps", hes__json_number(S->mean_lcps), "max_residual",
        hes__json_number(S->max_residual), "max_energy_gain",
        hes__json_number(S->max_energy_gain), "seconds", hes__json_number(S->seconds),
        "seconds_per_sample", hes__json_number(S->seconds / S->samples), "seconds_per_lcp",
        hes__json_number(lcps > 0 ? S->seconds / (double)lcps : 0), "sequence", S->sequence,
        "pivots", (json_int_t)S->pivots);
    int *argmin = malloc(sizeof(int) * 2 * (size_t)k), *argmax = malloc(sizeof(int) * 2 * (size_t)k),
        *counts = malloc(sizeof(int) * 3 * (size_t)k);
    json_t *modes = json_array(), *extremes = json_array();
    if (argmin && argmax && counts) {
        hes_impact_set_extremes(S, argmin, argmax, counts);
        for (int i = 0; modes && i < k; i++)
            json_array_append_new(modes, json_pack("{s:i, s:i, s:i}", "stick", counts[3 * i],
                                                   "slide", counts[3 * i + 1], "lift",
                                                   counts[3 * i + 2]));
        for (int d = 0; extremes && d < 2 * k; d++)
            for (int e = 0; e < 2; e++) {
                int i = e ? argmax[d] : argmin[d];
                if (i < 0)
                    continue;
                json_t *x = outcome_core(S->v + (size_t)i * n, n, S->u + (size_t)i * 2 * k, k,
                                         S->modes + (size_t)i * k);
                hes__json_put(x, "extreme", json_pack("{s:s, s:s, s:i}", "of",
                                                      d < k ? "u_normal" : "u_tangent",
                                                      "contact",
                                                      pb->mech->constraints[pb->contacts[d % k]].name,
                                                      "sample", i));
                hes__json_put(x, "which", json_string(e ? "max" : "min"));
                json_array_append_new(extremes, x);
            }
    }
    free(argmin);
    free(argmax);
    free(counts);
    /* the planar hulls of the normal and of the tangential velocities of
       the first two contacts: their vertices, counter-clockwise */
    json_t *hulls = json_object();
    int *idx = k >= 2 ? malloc(sizeof(int) * (size_t)(S->samples > 0 ? S->samples : 1)) : NULL;
    for (int h = 0; idx && hulls && h < 2; h++) {
        int a = h ? k : 0, nv = hes_impact_set_hull(S, a, a + 1, idx);
        json_t *poly = json_array();
        for (int v = 0; poly && v < nv; v++)
            json_array_append_new(poly, json_pack(
                "{s:i, s:o, s:o}", "sample", idx[v], "x",
                hes__json_number(S->u[(size_t)idx[v] * 2 * k + a]), "y",
                hes__json_number(S->u[(size_t)idx[v] * 2 * k + a + 1])));
        hes__json_put(hulls, h ? "tangents" : "normals", poly);
    }
    free(idx);
    json_t *laws = json_array();
    for (int j = 0; laws && j < n_outs; j++) {
        const hes_impact_outcome *r = &outs[j];
        json_t *x = r->status == HES_OK ? outcome_core(r->v, n, r->u, k, r->modes)
                                        : json_object();
        hes__json_put(x, "status", json_string(r->status == HES_OK ? "ok" : hes_strerror(r->status)));
        hes__json_put(x, "law", json_string(r->law == HES_LAW_ANITESCU_POTRA ? "anitescu-potra"
                                                                            : "sequential"));
        if (r->law == HES_LAW_SEQUENTIAL) {
            json_t *ord = json_array();
            for (int i = 0; ord && i < k; i++)
                json_array_append_new(ord, json_string(
                    pb->mech->constraints[pb->contacts[r->order[i]]].name));
            hes__json_put(x, "order", ord);
        }
        hes__json_put(x, "lcps", json_integer(r->lcps));
        hes__json_put(x, "energy_before", hes__json_number(r->energy_before));
        hes__json_put(x, "energy_after", hes__json_number(r->energy_after));
        hes__json_put(x, "relative_distance", r->relative >= 0 ? hes__json_number(r->relative)
                                                                : json_null());
        hes__json_put(x, "inside_normal_hull", json_boolean(r->inside_normals));
        json_array_append_new(laws, x);
    }
    json_t *doc = json_pack("{s:s, s:o, s:o, s:o, s:{s:o, s:i, s:i, s:I, s:b, s:i}, s:o, s:o, "
                            "s:o, s:o, s:o}",
                            "problem", pb->name, "q", hes__json_vector(s->q, hes_mech_nq(pb->mech)), "v_minus",
                            hes__json_vector(s->v, n), "contacts", contacts, "options", "step",
                            hes__json_number(o->routh.h), "steps", o->routh.steps, "samples",
                            o->samples, "seed", (json_int_t)o->seed, "select_random",
                            o->routh.select != 0, "threads", o->threads > 0 ? o->threads : 1,
                            "summary", summary, "mode_counts", modes, "extremes", extremes,
                            "laws", laws, "hulls", k >= 2 && hulls ? hulls : json_null());
    if (doc && samples) {
        json_t *a = json_array();
        for (int i = 0; a && i < S->samples; i++) {
            json_t *x = outcome_core(S->v + (size_t)i * n, n, S->u + (size_t)i * 2 * k, k,
                                     S->modes + (size_t)i * k);
            hes__json_put(x, "finished", json_boolean(S->finished[i]));
            hes__json_put(x, "lcps", json_integer(S->lcps[i]));
            hes__json_put(x, "dissipated", hes__json_number(S->dissipated[i]));
            hes__json_put(x, "residual", hes__json_number(S->residual[i]));
            json_array_append_new(a, x);
        }
        hes__json_put(doc, "samples", a);
    }
    return hes__json_dump(doc);
}

/* one sample's outcome of an impact orbit analysis */
static json_t *orbit_outcome(const hes_impact_orbit *r, int i)
{
    if (i < 0)
        return json_null();
    int k = r->k, n = r->set.n;
    json_t *x = outcome_core(r->set.v + (size_t)i * n, n, r->set.u + (size_t)i * 2 * k, k,
                             r->set.modes + (size_t)i * k);
    hes__json_put(x, "sample", json_integer(i));
    hes__json_put(x, "psi", hes__json_number(r->psi[i]));
    return x;
}

char *hes_analysis_impact_json(const hes_system *sys, const hes_analysis *res,
                               const hes_impact_orbit *r)
{
    if (!sys || !res || !r)
        return NULL;
    const hes_model *m = hes_system_model(sys);
    json_t *doc = hes__json_analysis_doc(sys, res);
    if (!doc)
        return NULL;
    const hes_mech_transition *mt = m->transitions[r->transition].data;
    const hes_mech *em = mt->mech ? mt->mech : mt->from->mech;
    json_t *contacts = json_array(), *psi = json_array();
    for (int i = 0; contacts && i < r->k; i++)
        json_array_append_new(contacts, json_string(em->constraints[r->contacts[i]].name));
    for (int i = 0; psi && i < r->set.samples; i++)
        if (r->consistent[i])
            json_array_append_new(psi, hes__json_number(r->psi[i]));
    json_t *ext = json_array();
    for (int d = 0; ext && d < 2 * r->k; d++)
        for (int e = 0; e < 2; e++) {
            int i = e ? r->extreme_max[d] : r->extreme_min[d];
            if (i < 0)
                continue;
            json_t *x = orbit_outcome(r, i);
            hes__json_put(x, "of", json_string(d < r->k ? "u_normal" : "u_tangent"));
            hes__json_put(x, "contact", json_string(em->constraints[r->contacts[d % r->k]].name));
            hes__json_put(x, "which", json_string(e ? "max" : "min"));
            json_array_append_new(ext, x);
        }
    json_t *o = json_pack(
        "{s:s, s:o, s:o, s:i, s:i, s:i, s:o, s:i, s:i, s:i, s:i, s:i, s:i, s:o, s:o, s:o, "
        "s:i, s:i, s:o, s:o, s:o, s:o, s:o, s:o}",
        "transition", m->transitions[r->transition].name, "contacts", contacts, "step",
        hes__json_number(r->step), "steps", r->steps, "samples", r->set.samples, "finished",
        r->set.n_finished, "mean_lcps", hes__json_number(r->set.mean_lcps), "consistent",
        r->n_consistent, "orbits", r->n_orbits, "failed", r->n_failed, "stable", r->n_stable,
        "unstable", r->n_unstable, "marginal", r->n_marginal, "psi_nominal",
        hes__json_number(r->psi_nominal), "psi_worst", hes__json_number(r->psi_worst),
        "psi_best", hes__json_number(r->psi_best), "worst_sample", r->worst, "best_sample",
        r->best, "worst_check", hes__json_number(r->worst_check), "worst_outcome",
        orbit_outcome(r, r->worst), "best_outcome", orbit_outcome(r, r->best), "extremes", ext,
        "psi", psi,
        "seconds", hes__json_number(r->seconds));
    if (hes__json_put(doc, "impact_set", o)) {
        json_decref(doc);
        return NULL;
    }
    return hes__json_dump(doc);
}
