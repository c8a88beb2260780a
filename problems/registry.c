/*
 * registry.c - the tables of built-in problems and their lookup by name:
 * hybrid models (hes_model) and event-selected systems (hes_ess_model), in
 * two tables because the two descriptions are different structs.
 */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "problems.h"

static const hes_model *const problems[] = {
    &hes__problem_paddle_juggler,
    &hes__problem_slip_hopper,
    &hes__problem_twin_jugglers,
    &hes__problem_trot_rigid,
    &hes__problem_trot_soft,
    &hes__problem_knee_biped,
};

int hes_problem_count(void)
{
    return (int)(sizeof problems / sizeof problems[0]);
}

const hes_model *hes_problem_get(int i)
{
    return i >= 0 && i < hes_problem_count() ? problems[i] : NULL;
}

const hes_model *hes_problem_find(const char *name)
{
    for (int i = 0; name && i < hes_problem_count(); i++)
        if (strcmp(problems[i]->name, name) == 0)
            return problems[i];
    return NULL;
}

static const hes_ess_model *const ess_problems[] = {
    &hes__ess_problem_hopper_1d,
    &hes__ess_problem_hopper_pumped,
    &hes__ess_problem_plate_springs,
    &hes__ess_problem_plate_vertical,
};

int hes_ess_problem_count(void)
{
    return (int)(sizeof ess_problems / sizeof ess_problems[0]);
}

const hes_ess_model *hes_ess_problem_get(int i)
{
    return i >= 0 && i < hes_ess_problem_count() ? ess_problems[i] : NULL;
}

const hes_ess_model *hes_ess_problem_find(const char *name)
{
    for (int i = 0; name && i < hes_ess_problem_count(); i++)
        if (strcmp(ess_problems[i]->name, name) == 0)
            return ess_problems[i];
    return NULL;
}

static const hes_impact_problem *const impact_problems[] = {
    &hes__impact_problem_rocking_block,
    &hes__impact_problem_compass_gait,
    &hes__impact_problem_box_wall,
    &hes__impact_problem_disk_stack,
};

int hes_impact_problem_count(void)
{
    return (int)(sizeof impact_problems / sizeof impact_problems[0]);
}

const hes_impact_problem *hes_impact_problem_get(int i)
{
    return i >= 0 && i < hes_impact_problem_count() ? impact_problems[i] : NULL;
}

const hes_impact_problem *hes_impact_problem_find(const char *name)
{
    for (int i = 0; name && i < hes_impact_problem_count(); i++)
        if (strcmp(impact_problems[i]->name, name) == 0)
            return impact_problems[i];
    return NULL;
}

hes_status hes_impact_setup_state(const hes_mech *m, int k, const int *contacts,
                                  const double *q, const double *v, hes_impact_setup *s,
                                  hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (!m || !contacts || !q || !v || !s)
        return hes__say(msg, len, HES_EINVAL, "impact setup: needs a mechanical system, its "
                        "contacts and the pre-impact state");
    memset(s, 0, sizeof *s);
    if (m->d < 1 || k < 1)
        return hes__say(msg, len, HES_EINVAL, "impact setup: %d coordinates and %d contacts "
                        "(at least 1 each)", m->d, k);
    size_t d = (size_t)m->d, kk = (size_t)k, nq = (size_t)hes_mech_nq(m);
    s->d = m->d;
    s->k = k;
    /* q and v may be the caller's copies of a setup's: copied first (q has
       nq values: quaternions among the coordinates, hes_mech.quat) */
    double *qv = malloc(sizeof(double) * (nq + d));
    s->M = malloc(sizeof(double) * d * d);
    s->Jn = malloc(sizeof(double) * kk * d);
    s->Jt = malloc(sizeof(double) * kk * d);
    s->mu = malloc(sizeof(double) * kk);
    if (!qv || !s->M || !s->Jn || !s->Jt || !s->mu) {
        free(qv);
        hes_impact_setup_free(s);
        return hes__say(msg, len, HES_ENOMEM, "impact setup: out of memory");
    }
    s->q = qv;
    s->v = qv + nq;
    memcpy(s->q, q, sizeof(double) * nq);
    memcpy(s->v, v, sizeof(double) * d);
    hes_status st = hes_mech_contacts(m, s->q, NULL, k, contacts, s->M, s->Jn, s->Jt, s->mu,
                                      err);
    if (st != HES_OK) {
        hes_impact_setup_free(s);
        return st;
    }
    hes_contact_set cs = { s->d, s->k, s->M, s->Jn, s->Jt, s->mu };
    s->contacts = cs;
    return HES_OK;
}

void hes_impact_setup_free(hes_impact_setup *s)
{
    if (!s)
        return;
    free(s->q);            /* q and v: one block */
    free(s->M), free(s->Jn), free(s->Jt), free(s->mu);
    memset(s, 0, sizeof *s);
}

hes_status hes_impact_problem_setup(const hes_impact_problem *pb, hes_impact_setup *s,
                                    hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (!pb || !s || !pb->mech || !pb->pre_impact)
        return hes__say(msg, len, HES_EINVAL, "impact problem: needs a problem with a mechanical "
                        "system and a pre-impact state");
    const hes_mech *m = pb->mech;
    memset(s, 0, sizeof *s);
    if (m->d < 1)
        return hes__say(msg, len, HES_EINVAL, "impact problem %s: %d coordinates", pb->name,
                        m->d);
    double *qv = malloc(sizeof(double) * 2 * (size_t)m->d);
    if (!qv)
        return hes__say(msg, len, HES_ENOMEM, "impact problem %s: out of memory", pb->name);
    hes_status st = pb->pre_impact(qv, qv + m->d, m->data)
        ? hes__say(msg, len, HES_EINVAL, "impact problem %s: its pre-impact state failed",
                   pb->name)
        : hes_impact_setup_state(m, pb->k, pb->contacts, qv, qv + m->d, s, err);
    free(qv);
    return st;
}
