/*
 * impact_orbit.c - the stability of a periodic orbit over the outcome set
 * of its simultaneous impact (issue 13: shared/papers/set-valued-
 * simultaneous-impacts.txt applied to a hybrid orbit; no peer tool reports
 * this).
 *
 * At the nominal orbit's pre-impact state (q, q'-) of a mechanical
 * activation, the frictional contacts are the activation's `after`
 * constraints with friction and its `separate` ones.  Their outcome set is
 * sampled (impact_set.c).  A sample's caps p define a reset map
 *     R_p(x) = the impulse-stepping outcome (eqs. 72-75) with caps p,
 * applied to whatever pre-impact state the orbit presents (Lipschitz in it
 * under the paper's Assumption 6), through hes_mech_transition.impact; the
 * mechanical layer keeps its checks (the target mode's constraints hold,
 * the trailing contacts separate, no energy is gained).  For each sample
 * whose modes are the transition's (after contacts stick, separate ones
 * lift off) the orbit with R_p is found again by Newton shooting from the
 * nominal one, and its psi computed as for any orbit (the saltation
 * matrix's DxR by central differences of R_p, which is piecewise linear
 * in q'-).  The worst psi is a stability margin over the impact's
 * uncertainty.
 *
 * Each orbit has its own model copy and system, so the samples run on
 * threads with nothing shared but read-only data.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid/hybrid.h"

typedef struct {
    const hes_mech *mech;
    int k;
    const int *contacts;
    const double *caps;
    hes_routh_options ro;
} law_ctx;

/* hes_mech_transition.impact: the impulse-stepping outcome with fixed caps */
static int routh_law(const double *q, const double *qdm, const double *p, double *qdp,
                     void *ctx)
{
    const law_ctx *c = ctx;
    int d = c->mech->d, k = c->k;
    double M[HES_MECH_MAX * HES_MECH_MAX], Jn[HES_MECH_MAX * HES_MECH_MAX],
        Jt[HES_MECH_MAX * HES_MECH_MAX], mu[HES_MECH_MAX];
    if (hes_mech_contacts(c->mech, q, p, k, c->contacts, M, Jn, Jt, mu, NULL, 0) != HES_OK)
        return 1;
    hes_contact_set cs = { d, k, M, Jn, Jt, mu };
    hes_status st = hes_impact_routh(&cs, qdm, &c->ro, c->caps, qdp, NULL, NULL, NULL, NULL,
                                     NULL, 0);
    return st != HES_OK;
}

/* The mechanical transition behind model transition i, or NULL. */
static const hes_mech_transition *mech_transition(const hes_model *m, int i)
{
    const hes_transition *t = &m->transitions[i];
    if (!t->data || t->guard != hes_mech_guard)
        return NULL;
    const hes_mech_transition *mt = t->data;
    return mt->kind == HES_MECH_ACTIVATE ? mt : NULL;
}

/* The transition's frictional contacts: after constraints with friction,
 * then separate ones; returns k (0: none that qualifies). */
static int contacts_of(const hes_mech_transition *mt, int *contacts, int *n_after)
{
    const hes_mech *m = mt->mech ? mt->mech : mt->from->mech;
    int k = 0;
    for (int i = 0; i < mt->n_after && k < HES_MECH_MAX; i++) {
        const hes_mech_constraint *c = &m->constraints[mt->after[i]];
        if (c->unilateral && c->mu > 0 && c->Jt)
            contacts[k++] = mt->after[i];
    }
    *n_after = k;
    for (int i = 0; i < mt->n_separate && k < HES_MECH_MAX; i++)
        contacts[k++] = mt->separate[i];
    return *n_after > 0 && k > *n_after ? k : 0;
}

/* psi of the orbit of sys's model with transition r->transition's impact
 * given by (ro, caps), from the nominal orbit's section state x0 */
static hes_status orbit_psi(const hes_system *sys, const hes_impact_orbit *r,
                            const hes_routh_options *ro, const double *caps, const double *x0,
                            int check, double *psi, int *verdict, double *check_diff,
                            char *msg, size_t len)
{
    const hes_model *m = hes_system_model(sys);
    const hes_mech_transition *mt = mech_transition(m, r->transition);
    if (!mt)
        return hes__say(msg, len, HES_EINVAL, "impact orbit: transition %d is not a mechanical "
                        "activation", r->transition);
    hes_transition *trs = malloc(sizeof *trs * (size_t)m->n_transitions);
    if (!trs)
        return hes__say(msg, len, HES_ENOMEM, "out of memory for a model copy");
    memcpy(trs, m->transitions, sizeof *trs * (size_t)m->n_transitions);
    law_ctx ctx = { mt->mech ? mt->mech : mt->from->mech, r->k, r->contacts, caps, *ro };
    hes_mech_transition mt2 = *mt;
    mt2.impact = routh_law;
    mt2.impact_ctx = &ctx;
    trs[r->transition].data = &mt2;
    hes_model copy = *m;
    copy.transitions = trs;
    hes_system *s2 = NULL;
    hes_status st = hes_system_new(&copy, &s2, msg, len);
    const double *p = hes_system_params(sys);
    for (int i = 0; st == HES_OK && i < m->n_params; i++)
        st = hes_system_set_param(s2, m->params[i].name, p[i]);
    hes_settings set = hes_system_get_settings(sys);
    if (st == HES_OK)
        st = hes_system_set_settings(s2, &set);
    if (st == HES_OK)
        st = hes_system_set_orbit_start(s2, x0);
    hes_analysis an;
    if (st == HES_OK) {
        st = hes_analyze(s2, check, &an);
        if (st == HES_OK) {
            *psi = an.stab.psi;
            *verdict = (int)an.stab.verdict;
            if (check_diff)
                *check_diff = an.have_check ? an.check_max_abs_diff : NAN;
            hes_analysis_free(&an);
        } else
            hes__say(msg, len, st, "%s", hes_system_errmsg(s2));
    }
    hes_system_destroy(s2);
    free(trs);
    return st;
}

hes_status hes_impact_orbit_psi(hes_system *sys, const hes_impact_orbit *r,
                                const hes_routh_options *ro, const double *caps, double *psi,
                                char *msg, size_t len)
{
    if (!sys || !r || !ro || !caps || !psi)
        return hes__say(msg, len, HES_EINVAL, "impact orbit psi: needs the system, the "
                        "analysis, options and caps");
    hes_orbit orbit;
    hes_status st = hes_orbit_find(sys, &orbit);
    if (st != HES_OK)
        return hes__say(msg, len, st, "the nominal orbit: %s", hes_system_errmsg(sys));
    int verdict;
    st = orbit_psi(sys, r, ro, caps, orbit.x0, 0, psi, &verdict, NULL, msg, len);
    hes_orbit_free(&orbit);
    return st;
}

typedef struct {
    const hes_system *sys;
    hes_impact_orbit *r;
    const hes_routh_options *ro;
    const double *x0;
    int *verdicts;
    char (*msgs)[256];       /* per sample: why its orbit failed */
    int threads, t;
} job;

static void *worker(void *arg)
{
    job *j = arg;
    hes_impact_orbit *r = j->r;
    for (int i = j->t; i < r->set.samples; i += j->threads) {
        if (!r->consistent[i])
            continue;
        hes_routh_options ro = *j->ro;
        if (ro.select)
            ro.select += (unsigned long)i;   /* as the sample was drawn */
        r->status[i] = orbit_psi(j->sys, r, &ro, r->set.caps + (size_t)i * r->set.dim, j->x0,
                                 0, &r->psi[i], &j->verdicts[i], NULL, j->msgs[i],
                                 sizeof j->msgs[i]);
        if (r->status[i] != HES_OK)
            r->psi[i] = NAN;
    }
    return NULL;
}

void hes_impact_orbit_free(hes_impact_orbit *r)
{
    if (!r)
        return;
    hes_impact_set_free(&r->set);
    free(r->consistent);
    free(r->psi);
    free(r->status);
    memset(r, 0, sizeof *r);
}

hes_status hes_impact_orbit_analyze(hes_system *sys, const hes_analysis *nominal,
                                    const hes_impact_orbit_options *o, hes_impact_orbit *r,
                                    char *msg, size_t len)
{
    if (r)
        memset(r, 0, sizeof *r);
    if (!sys || !o || !r)
        return hes__say(msg, len, HES_EINVAL, "impact orbit: needs a system, options and a "
                        "result");
    double t0 = hes__monotonic_seconds();
    const hes_model *m = hes_system_model(sys);
    /* the nominal analysis: the caller's, or one made here (and freed) */
    hes_analysis own;
    const hes_analysis *an = nominal;
    hes_status st = HES_OK;
    if (!an) {
        st = hes_analyze(sys, 0, &own);
        if (st != HES_OK)
            return hes__say(msg, len, st, "the nominal orbit: %s", hes_system_errmsg(sys));
        an = &own;
    }
    r->psi_nominal = an->stab.psi;
    /* the transition and its event on the orbit */
    const hes_event *ev = NULL;
    int n_after = 0;
    for (int e = 0; e < an->orbit.traj.n_events && !ev; e++) {
        int t = an->orbit.traj.events[e].transition;
        const hes_mech_transition *mt = mech_transition(m, t);
        if ((o->transition < 0 || o->transition == t) && mt &&
            (r->k = contacts_of(mt, r->contacts, &n_after)) > 0) {
            ev = &an->orbit.traj.events[e];
            r->transition = t;
        }
    }
    if (!ev) {
        if (!nominal)
            hes_analysis_free(&own);
        return hes__say(msg, len, HES_EINVAL, "impact orbit: no event of the orbit is a "
                        "mechanical impact with frictional contacts (mu > 0 and a tangent row) "
                        "and contacts that separate%s", o->transition >= 0 ? " at the "
                        "transition asked for" : "");
    }
    const hes_mech_transition *mt = mech_transition(m, r->transition);
    const hes_mech *em = mt->mech ? mt->mech : mt->from->mech;
    const double *p = hes_system_params(sys);
    int d = em->d;
    double M[HES_MECH_MAX * HES_MECH_MAX], Jn[HES_MECH_MAX * HES_MECH_MAX],
        Jt[HES_MECH_MAX * HES_MECH_MAX], mu[HES_MECH_MAX], qdp[HES_MECH_MAX],
        imp[HES_MECH_MAX];
    st = hes_mech_event_state(mt, ev->x_minus, p, r->q, r->qd_minus);
    if (st == HES_OK)
        st = hes_mech_contacts(em, r->q, p, r->k, r->contacts, M, Jn, Jt, mu, msg, len);
    if (st == HES_OK)   /* the impulse scale: the nominal law's impulses */
        st = hes_mech_impact(mt, ev->x_minus, p, r->q, r->qd_minus, qdp, imp);
    double *x0 = malloc(sizeof(double) * (size_t)an->orbit.n);
    if (st != HES_OK || !x0) {
        free(x0);
        if (!nominal)
            hes_analysis_free(&own);
        return st != HES_OK ? hes__say(msg, len, st, "impact orbit: the nominal impact: %s",
                                       msg && msg[0] ? msg : hes_strerror(st))
                            : hes__say(msg, len, HES_ENOMEM, "out of memory");
    }
    memcpy(x0, an->orbit.x0, sizeof(double) * (size_t)an->orbit.n);
    if (!nominal)
        hes_analysis_free(&own);
    double pmax = 0;
    for (int i = 0; i < mt->n_after; i++)
        if (isfinite(imp[i]))
            pmax = fmax(pmax, fabs(imp[i]));
    hes_impact_set_options so = o->set;
    if (!(so.routh.h > 0))
        so.routh.h = pmax > 0 ? pmax / 2 : 1;
    if (so.routh.steps < 1)
        so.routh.steps = 20;
    so.keep_caps = 1;
    hes_contact_set cs = { d, r->k, M, Jn, Jt, mu };
    st = hes_impact_set_sample(&cs, r->qd_minus, &so, &r->set, msg, len);
    if (st != HES_OK) {
        free(x0);
        return st;
    }
    int S = r->set.samples, threads = so.threads > 0 ? so.threads : 1;
    r->consistent = calloc((size_t)S, sizeof *r->consistent);
    r->psi = malloc(sizeof(double) * (size_t)S);
    r->status = calloc((size_t)S, sizeof *r->status);
    int *verdicts = calloc((size_t)S, sizeof *verdicts);
    char (*msgs)[256] = calloc((size_t)S, sizeof *msgs);
    job *jobs = malloc(sizeof *jobs * (size_t)threads);
    if (!r->consistent || !r->psi || !r->status || !verdicts || !msgs || !jobs) {
        free(verdicts);
        free(msgs);
        free(jobs);
        free(x0);
        hes_impact_orbit_free(r);
        return hes__say(msg, len, HES_ENOMEM, "out of memory for %d orbits", S);
    }
    for (int i = 0; i < S; i++) {
        r->psi[i] = NAN;
        int ok = r->set.finished[i];
        for (int c = 0; c < r->k && ok; c++)
            ok = r->set.modes[(size_t)i * r->k + c] ==
                 (c < n_after ? HES_CONTACT_STICK : HES_CONTACT_LIFT);
        r->consistent[i] = ok;
        r->n_consistent += ok;
    }
    for (int t = 0; t < threads; t++)
        jobs[t] = (job){ sys, r, &so.routh, x0, verdicts, msgs, threads, t };
    hes__run_parallel(threads, worker, jobs, sizeof *jobs);
    r->psi_worst = r->psi_best = NAN;
    r->worst = r->best = -1;
    for (int d = 0; d < 2 * r->k; d++)
        r->extreme_min[d] = r->extreme_max[d] = -1;
    for (int i = 0; i < S; i++) {
        if (!r->consistent[i])
            continue;
        if (r->status[i] != HES_OK) {
            if (!r->n_failed++)
                snprintf(r->message, sizeof r->message, "sample %d: %s", i, msgs[i]);
            continue;
        }
        r->n_orbits++;
        r->n_stable += verdicts[i] == HES_STABLE;
        r->n_unstable += verdicts[i] == HES_UNSTABLE;
        r->n_marginal += verdicts[i] == HES_MARGINAL;
        if (r->worst < 0 || r->psi[i] > r->psi_worst) {
            r->psi_worst = r->psi[i];
            r->worst = i;
        }
        if (r->best < 0 || r->psi[i] < r->psi_best) {
            r->psi_best = r->psi[i];
            r->best = i;
        }
        const double *u = r->set.u + (size_t)i * 2 * r->k;
        for (int d = 0; d < 2 * r->k; d++) {
            int *lo = &r->extreme_min[d], *hi = &r->extreme_max[d];
            if (*lo < 0 || u[d] < r->set.u[(size_t)*lo * 2 * r->k + d])
                *lo = i;
            if (*hi < 0 || u[d] > r->set.u[(size_t)*hi * 2 * r->k + d])
                *hi = i;
        }
    }
    /* the worst orbit again, its return map also by central differences
       of the full nonlinear flow (R_p included) */
    r->worst_check = NAN;
    if (r->worst >= 0) {
        hes_routh_options ro = so.routh;
        if (ro.select)
            ro.select += (unsigned long)r->worst;
        double psi;
        int verdict;
        char m2[256];
        if (orbit_psi(sys, r, &ro, r->set.caps + (size_t)r->worst * r->set.dim, x0, 1, &psi,
                      &verdict, &r->worst_check, m2, sizeof m2) != HES_OK)
            r->worst_check = NAN;
    }
    r->step = so.routh.h;
    r->steps = so.routh.steps;
    free(verdicts);
    free(msgs);
    free(jobs);
    free(x0);
    r->seconds = hes__monotonic_seconds() - t0;
    return HES_OK;
}
