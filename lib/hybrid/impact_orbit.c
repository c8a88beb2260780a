/*
 * impact_orbit.c - the stability of a periodic orbit over the outcome set
 * of its simultaneous impact (Halm & Posa, set-valued simultaneous impacts applied to a hybrid
 * orbit; no peer tool reports
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

void hes_impact_orbit_options_init(hes_impact_orbit_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    hes_impact_set_options_init(&o->set);
    o->transition = -1;
    o->set.routh.steps = 0; /* the nominal impact's */
}

/*
 * The transition's other `after` constraints (joint limits it locks, say)
 * hold with equality through the impact; the frictional contacts' law
 * acts in the velocities that keep them, the null space of their rows D
 * (N, d x dr: the eigenvectors of D^T D with eigenvalue 0).  With v = N xi:
 *     M_r = N^T M N,  J_r = J N,  xi- = M_r^-1 N^T M v-
 * (M-orthogonal projection of v- onto {D v = 0}: the plastic impact of the
 * locks), and the law on (M_r, J_r, xi-) is the simultaneous impact of the
 * contacts with the locks as bilateral constraints, since N^T D^T = 0
 * makes N^T M (v+ - v-) = N^T J^T lambda, i.e. M_r (xi+ - xi-) = J_r^T
 * lambda.  Left out of D: the contacts' own no-slip rows (a "NAME_
 * tangential" constraint whose row is a contact's tangent row): whether a
 * contact sticks is the law's to decide, and the orbit continues from the
 * outcomes where it does.
 */
typedef struct {
    int d, dr, k;
    double *N, *M, *Jn, *Jt, *mu;   /* d x dr; dr x dr; k x dr (both); k */
    double *Mfull, *Jnf, *Jtf, *work;
} reduced;

static void reduced_free(reduced *r)
{
    free(r->N);
    memset(r, 0, sizeof *r);
}

/* The reduced contact set at q (r allocated for d, k by the first call) */
static hes_status reduce(const hes_mech *m, const double *q, const double *p, int k,
                         const int *contacts, int nl, const int *locks, reduced *r, char *msg,
                         size_t len)
{
    int d = m->d;
    size_t D = (size_t)d, K = (size_t)k, L = (size_t)(nl > 0 ? nl : 1);
    if (!r->N) {
        r->N = malloc(sizeof(double) * (3 * D * D + 6 * K * D + K + 2 * L * D + L + D * D + 8 * D));
        if (!r->N)
            return hes__say(msg, len, HES_ENOMEM, "out of memory for an impact's contacts");
        r->M = r->N + D * D, r->Jn = r->M + D * D, r->Jt = r->Jn + K * D, r->mu = r->Jt + K * D;
        r->Mfull = r->mu + K, r->Jnf = r->Mfull + D * D, r->Jtf = r->Jnf + K * D;
        r->work = r->Jtf + K * D;
    }
    r->d = d, r->k = k;
    hes_error e;
    hes_status st = hes__err_pass(hes_mech_contacts(m, q, p, k, contacts, r->Mfull, r->Jnf,
                                                    r->Jtf, r->mu, &e), &e, msg, len);
    if (st != HES_OK)
        return st;
    double *Dr = r->work, *Dt = Dr + L * D, *mul = Dt + L * D, *Mt = mul + L, *sv = Mt + D * D,
           *VT = r->M;   /* VT (d x d) in M's room, before M is formed */
    int rank = 0;
    if (nl > 0) {
        if ((st = hes__err_pass(hes_mech_contacts(m, q, p, nl, locks, Mt, Dr, Dt, mul, &e), &e,
                                msg, len)) != HES_OK)
            return st;
        /* the eigenvectors of D^T D (base/dense.c: thread-count
           independent), ascending: its null space first; a lock row's
           singular value below 1e-6 of the largest (eigenvalue 1e-12) is
           dependent on the others */
        double *G = VT;
        for (int j = 0; j < d; j++)
            for (int i = 0; i < d; i++) {
                double t = 0;
                for (int l = 0; l < nl; l++)
                    t += Dr[l + L * i] * Dr[l + L * j];
                G[i + D * j] = t;
            }
        if (hes__sym_eig(d, G, sv) != 0)
            return hes__say(msg, len, HES_ESOLVER, "the null space of the locked constraints "
                            "failed");
        for (int i = d - 1; i >= 0 && sv[i] > 1e-12 * sv[d - 1]; i--)
            rank++;
    } else {
        for (int j = 0; j < d; j++)
            for (int i = 0; i < d; i++)
                VT[i + D * j] = i == j;
    }
    int dr = d - rank;
    r->dr = dr;
    /* N: the first dr eigenvectors (columns) */
    memcpy(r->N, VT, sizeof(double) * D * (size_t)dr);
    /* M_r = N^T M N, J_r = J N */
    double *MN = Mt;
    hes__matmul(d, d, dr, r->Mfull, r->N, MN);
    for (int b = 0; b < dr; b++)
        for (int a = 0; a < dr; a++) {
            double t = 0;
            for (int i = 0; i < d; i++)
                t += r->N[i + D * a] * MN[i + D * b];
            r->M[a + (size_t)dr * b] = t;
        }
    hes__matmul(k, d, dr, r->Jnf, r->N, r->Jn);
    hes__matmul(k, d, dr, r->Jtf, r->N, r->Jt);
    return HES_OK;
}

/* xi = M_r^-1 N^T M v (dr) */
static hes_status reduce_velocity(const reduced *r, const double *v, double *xi)
{
    int d = r->d, dr = r->dr;
    double *Mv = r->work, *L = Mv + d;
    hes__matmul(d, d, 1, r->Mfull, v, Mv);
    for (int a = 0; a < dr; a++) {
        double t = 0;
        for (int i = 0; i < d; i++)
            t += r->N[i + (size_t)d * a] * Mv[i];
        xi[a] = t;
    }
    memcpy(L, r->M, sizeof(double) * (size_t)dr * dr);
    if (hes__chol(L, dr) != 0)
        return HES_EINVAL;
    hes__chol_solve(L, dr, xi, 1);
    return HES_OK;
}

typedef struct {
    const hes_mech *mech;
    int k, nl;
    const int *contacts, *locks;
    const double *caps;
    hes_routh_options ro;
} law_ctx;

/* hes_mech_transition.impact: the impulse-stepping outcome with fixed caps,
 * the locks held */
static int routh_law(const double *q, const double *qdm, const double *p, double *qdp,
                     void *ctx)
{
    const law_ctx *c = ctx;
    reduced r = { 0 };
    if (reduce(c->mech, q, p, c->k, c->contacts, c->nl, c->locks, &r, NULL, 0) != HES_OK) {
        reduced_free(&r);
        return 1;
    }
    int d = r.d, dr = r.dr;
    double *xi = malloc(sizeof(double) * 2 * (size_t)(dr > 0 ? dr : 1));
    hes_status st = xi ? reduce_velocity(&r, qdm, xi) : HES_ENOMEM;
    if (st == HES_OK) {
        hes_contact_set cs = { dr, c->k, r.M, r.Jn, r.Jt, r.mu };
        st = hes_impact_routh(&cs, xi, &c->ro, c->caps, xi + dr, NULL, NULL, NULL, NULL, NULL);
    }
    if (st == HES_OK)
        hes__matmul(d, dr, 1, r.N, xi + dr, qdp);
    free(xi);
    reduced_free(&r);
    return st != HES_OK;
}

/* The transition's after constraints the frictional law does not decide
 * (not a contact, not a contact's own no-slip row): into *locks (allocated,
 * room for every after constraint; the caller frees it), their number
 * returned; -1: out of memory. */
static int locks_of(const hes_mech *m, const hes_mech_transition *mt, const double *q,
                    const double *p, int k, const int *contacts, int **locks_out)
{
    int nl = 0, d = m->d;
    double *row = malloc(sizeof(double) * (4 * (size_t)d + (size_t)d * d + 2));
    int *locks = malloc(sizeof *locks * (size_t)(mt->n_after > 0 ? mt->n_after : 1));
    *locks_out = locks;
    if (!row || !locks) {
        free(row);
        return -1;
    }
    double *Jt = row + d, *Mt = Jt + d, *mu = Mt + (size_t)d * d, *dt = mu + 1;
    for (int a = 0; a < mt->n_after; a++) {
        int c = mt->after[a], in = 0;
        for (int i = 0; i < k; i++)
            in |= contacts[i] == c;
        if (in)
            continue;
        /* a contact's no-slip row: parallel to its tangent */
        int twin = 0;
        if (hes_mech_contacts(m, q, p, 1, &c, Mt, row, dt, mu, NULL) == HES_OK)
            for (int i = 0; i < k && !twin; i++) {
                if (hes_mech_contacts(m, q, p, 1, &contacts[i], Mt, dt, Jt, mu, NULL) !=
                    HES_OK)
                    continue;
                double rr = 0, tt = 0, rt = 0;
                for (int j = 0; j < d; j++)
                    rr += row[j] * row[j], tt += Jt[j] * Jt[j], rt += row[j] * Jt[j];
                twin = tt > 0 && rr > 0 && fabs(fabs(rt) - sqrt(rr * tt)) <= 1e-9 * sqrt(rr * tt);
            }
        if (!twin)
            locks[nl++] = c;
    }
    free(row);
    return nl;
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
    for (int i = 0; i < mt->n_after; i++) {
        const hes_mech_constraint *c = &m->constraints[mt->after[i]];
        if (c->unilateral && c->mu > 0 && c->Jt)
            contacts[k++] = mt->after[i];
    }
    *n_after = k;
    for (int i = 0; i < mt->n_separate; i++)
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
    const hes_mech *em = mt->mech ? mt->mech : mt->from->mech;
    int *locks;
    int nl = locks_of(em, mt, r->q, hes_system_params(sys), r->k, r->contacts, &locks);
    if (nl < 0) {
        free(trs);
        free(locks);
        return hes__say(msg, len, HES_ENOMEM, "out of memory");
    }
    law_ctx ctx = { em, r->k, nl, r->contacts, locks, caps, *ro };
    hes_mech_transition mt2 = *mt;
    mt2.impact = routh_law;
    mt2.impact_ctx = &ctx;
    trs[r->transition].data = &mt2;
    hes_model copy = *m;
    copy.transitions = trs;
    hes_system *s2 = NULL;
    hes_error e;
    hes_status st = hes__err_pass(hes_system_new(&copy, &s2, &e), &e, msg, len);
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
    free(locks);
    return st;
}

hes_status hes_impact_orbit_psi(hes_system *sys, const hes_impact_orbit *r,
                                const hes_routh_options *ro, const double *caps, double *psi,
                                hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (!sys || !r || !ro || !caps || !psi)
        return hes__say(msg, len, HES_EINVAL, "impact orbit psi: needs the system, the "
                        "analysis, options and caps");
    if (sys->kind != HES_KIND_HYBRID)
        return hes__need_hybrid(sys, "hes_impact_orbit_psi");
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
    free(r->contacts);
    free(r->q), free(r->qd_minus);
    free(r->extreme_min), free(r->extreme_max);
    memset(r, 0, sizeof *r);
}

/* The first event of the orbit at a mechanical activation with frictional
 * contacts and contacts that separate (at transition, when >= 0): its
 * transition and contacts into r, the number of its after contacts among
 * them into *n_after; NULL when there is none. */
static const hes_event *impact_event(const hes_model *m, const hes_analysis *an, int transition,
                                     hes_impact_orbit *r, int *n_after)
{
    const hes_event *ev = NULL;
    for (int e = 0; e < an->orbit.traj.n_events && !ev; e++) {
        int t = an->orbit.traj.events[e].transition;
        const hes_mech_transition *mt = mech_transition(m, t);
        if ((transition < 0 || transition == t) && mt &&
            (r->k = contacts_of(mt, r->contacts, n_after)) > 0) {
            ev = &an->orbit.traj.events[e];
            r->transition = t;
        }
    }
    return ev;
}

/* The nominal impact at the event ev: the pre-impact state (r->q,
 * r->qd_minus), the contact set reduced to the locks (red) and the reduced
 * velocity xi, and the largest of the nominal law's finite impulses, the
 * scale of the outcome set's steps, into *pmax. */
static hes_status nominal_impact(const hes_system *sys, const hes_mech_transition *mt,
                                 const hes_event *ev, hes_impact_orbit *r, reduced *red,
                                 double *xi, double *pmax, char *msg, size_t len)
{
    const hes_mech *em = mt->mech ? mt->mech : mt->from->mech;
    const double *p = hes_system_params(sys);
    int *locks = NULL, nl = 0;
    /* the nominal law's q'+ (d) and impulses (n_after) */
    double *qdp = malloc(sizeof(double) * ((size_t)em->d + (size_t)mt->n_after)),
           *imp = qdp ? qdp + em->d : NULL;
    hes_status st = qdp ? hes_mech_event_state(mt, ev->x_minus, p, r->q, r->qd_minus)
                        : hes__say(msg, len, HES_ENOMEM, "out of memory");
    if (st == HES_OK && (nl = locks_of(em, mt, r->q, p, r->k, r->contacts, &locks)) < 0)
        st = hes__say(msg, len, HES_ENOMEM, "out of memory");
    if (st == HES_OK)
        st = reduce(em, r->q, p, r->k, r->contacts, nl, locks, red, msg, len);
    if (st == HES_OK && reduce_velocity(red, r->qd_minus, xi) != HES_OK)
        st = hes__say(msg, len, HES_EINVAL, "impact orbit: the mass matrix reduced to the "
                      "locked constraints is not positive definite");
    if (st == HES_OK)   /* the impulse scale: the nominal law's impulses */
        st = hes_mech_impact(mt, ev->x_minus, p, r->q, r->qd_minus, qdp, imp);
    *pmax = 0;
    for (int i = 0; st == HES_OK && i < mt->n_after; i++)
        if (isfinite(imp[i]))
            *pmax = fmax(*pmax, fabs(imp[i]));
    free(qdp);
    free(locks);
    return st;
}

/* The outcome set sampled on the reduced contact set from xi (so: the
 * caller's options, the step pmax / 2 and 20 steps unless given, the caps
 * kept) into r->set, its velocities then in the mech's coordinates,
 * v = N xi. */
static hes_status sample_outcomes(const reduced *red, const double *xi, double pmax,
                                  hes_impact_set_options *so, hes_impact_orbit *r, char *msg,
                                  size_t len)
{
    int d = red->d;
    if (!(so->routh.h > 0))
        so->routh.h = pmax > 0 ? pmax / 2 : 1;
    if (so->routh.steps < 1)
        so->routh.steps = 20;
    so->keep_caps = 1;
    hes_contact_set cs = { red->dr, r->k, red->M, red->Jn, red->Jt, red->mu };
    hes_error e;
    hes_status st = hes__err_pass(hes_impact_set_sample(&cs, xi, so, &r->set, &e), &e, msg, len);
    double *vfull = st == HES_OK ? malloc(sizeof(double) * (size_t)r->set.samples * d) : NULL;
    if (st == HES_OK && !vfull) {
        hes_impact_set_free(&r->set);
        st = hes__say(msg, len, HES_ENOMEM, "out of memory");
    }
    if (st == HES_OK) {
        for (int i = 0; i < r->set.samples; i++)
            hes__matmul(d, red->dr, 1, red->N, r->set.v + (size_t)i * red->dr,
                        vfull + (size_t)i * d);
        free(r->set.v);
        r->set.v = vfull;
        r->set.n = d;
    }
    return st;
}

/* The samples that continue the orbit's mode sequence (r->consistent,
 * counted): finished, with the n_after contacts sticking and the others
 * lifting off; every psi NAN until its orbit is found. */
static void mark_consistent(hes_impact_orbit *r, int n_after)
{
    for (int i = 0; i < r->set.samples; i++) {
        r->psi[i] = NAN;
        int ok = r->set.finished[i];
        for (int c = 0; c < r->k && ok; c++)
            ok = r->set.modes[(size_t)i * r->k + c] ==
                 (c < n_after ? HES_CONTACT_STICK : HES_CONTACT_LIFT);
        r->consistent[i] = ok;
        r->n_consistent += ok;
    }
}

/* The summary of the consistent samples' orbits: the failed ones (the
 * first one's message, msgs[i]), the counts by verdict, the samples of
 * the worst and the best psi, and for each outcome coordinate (u) the
 * samples at its least and its greatest value. */
static void summarize(hes_impact_orbit *r, const int *verdicts, char (*msgs)[256])
{
    r->psi_worst = r->psi_best = NAN;
    r->worst = r->best = -1;
    for (int d = 0; d < 2 * r->k; d++)
        r->extreme_min[d] = r->extreme_max[d] = -1;
    for (int i = 0; i < r->set.samples; i++) {
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
}

/* The orbit of every consistent sample from the nominal section state x0,
 * on threads (each its own model copy and system), summarized into r; on
 * no memory r is freed. */
static hes_status run_samples(const hes_system *sys, hes_impact_orbit *r,
                              const hes_routh_options *routh, const double *x0, int n_after,
                              int threads, char *msg, size_t len)
{
    int S = r->set.samples;
    r->consistent = calloc((size_t)S, sizeof *r->consistent);
    r->psi = malloc(sizeof(double) * (size_t)S);
    r->status = calloc((size_t)S, sizeof *r->status);
    r->extreme_min = malloc(sizeof *r->extreme_min * 2 * (size_t)r->k);
    r->extreme_max = malloc(sizeof *r->extreme_max * 2 * (size_t)r->k);
    int *verdicts = calloc((size_t)S, sizeof *verdicts);
    char (*msgs)[256] = calloc((size_t)S, sizeof *msgs);
    job *jobs = malloc(sizeof *jobs * (size_t)threads);
    if (!r->consistent || !r->psi || !r->status || !r->extreme_min || !r->extreme_max ||
        !verdicts || !msgs || !jobs) {
        free(verdicts);
        free(msgs);
        free(jobs);
        hes_impact_orbit_free(r);
        return hes__say(msg, len, HES_ENOMEM, "out of memory for %d orbits", S);
    }
    mark_consistent(r, n_after);
    for (int t = 0; t < threads; t++)
        jobs[t] = (job){ sys, r, routh, x0, verdicts, msgs, threads, t };
    hes__run_parallel(threads, worker, jobs, sizeof *jobs);
    summarize(r, verdicts, msgs);
    free(verdicts);
    free(msgs);
    free(jobs);
    return HES_OK;
}

/* The worst orbit again, its return map also by central differences of
 * the full nonlinear flow (R_p included): the largest difference into
 * r->worst_check (NAN without a worst orbit, or where it fails). */
static void check_worst(const hes_system *sys, hes_impact_orbit *r,
                        const hes_routh_options *routh, const double *x0)
{
    r->worst_check = NAN;
    if (r->worst < 0)
        return;
    hes_routh_options ro = *routh;
    if (ro.select)
        ro.select += (unsigned long)r->worst;
    double psi;
    int verdict;
    char m2[256];
    if (orbit_psi(sys, r, &ro, r->set.caps + (size_t)r->worst * r->set.dim, x0, 1, &psi,
                  &verdict, &r->worst_check, m2, sizeof m2) != HES_OK)
        r->worst_check = NAN;
}

hes_status hes_impact_orbit_analyze(hes_system *sys, const hes_analysis *nominal,
                                    const hes_impact_orbit_options *o, hes_impact_orbit *r,
                                    hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (r)
        memset(r, 0, sizeof *r);
    if (!sys || !o || !r)
        return hes__say(msg, len, HES_EINVAL, "impact orbit: needs a system, options and a "
                        "result");
    if (sys->kind != HES_KIND_HYBRID)
        return hes__need_hybrid(sys, "hes_impact_orbit_analyze");
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
    /* the transition and its event on the orbit; room for the most
       contacts a mechanical transition of the model can have, and for the
       event's state */
    int n_after = 0, most = 1, dmax = 1, nqmax = 1;
    for (int t = 0; t < m->n_transitions; t++) {
        const hes_mech_transition *tm = mech_transition(m, t);
        const hes_mech *em = tm ? (tm->mech ? tm->mech : tm->from->mech) : NULL;
        if (tm && tm->n_after + tm->n_separate > most)
            most = tm->n_after + tm->n_separate;
        if (em && em->d > dmax)
            dmax = em->d;
        if (em && hes_mech_nq(em) > nqmax)   /* q holds quaternions: nq values */
            nqmax = hes_mech_nq(em);
    }
    r->contacts = malloc(sizeof *r->contacts * (size_t)most);
    r->q = malloc(sizeof *r->q * (size_t)nqmax);
    r->qd_minus = malloc(sizeof *r->qd_minus * (size_t)dmax);
    const hes_event *ev = r->contacts && r->q && r->qd_minus
                          ? impact_event(m, an, o->transition, r, &n_after) : NULL;
    if (!ev) {
        if (!nominal)
            hes_analysis_free(&own);
        int oom = !r->contacts || !r->q || !r->qd_minus;
        hes_impact_orbit_free(r);
        if (oom)
            return hes__say(msg, len, HES_ENOMEM, "out of memory");
        return hes__say(msg, len, HES_EINVAL, "impact orbit: no event of the orbit is a "
                        "mechanical impact with frictional contacts (mu > 0 and a tangent row) "
                        "and contacts that separate%s", o->transition >= 0 ? " at the "
                        "transition asked for" : "");
    }
    const hes_mech_transition *mt = mech_transition(m, r->transition);
    /* the reduced velocity (at most the event mech's d) and the orbit's state */
    double pmax = 0, *x0 = malloc(sizeof(double) * ((size_t)an->orbit.n + (size_t)dmax)),
           *xi = x0 ? x0 + an->orbit.n : NULL;
    reduced red = { 0 };
    st = x0 ? nominal_impact(sys, mt, ev, r, &red, xi, &pmax, msg, len) : HES_OK;
    if (st != HES_OK || !x0) {
        reduced_free(&red);
        free(x0);
        if (!nominal)
            hes_analysis_free(&own);
        hes_impact_orbit_free(r);
        char why[512]; /* the message is formatted into msg: not from msg itself */
        snprintf(why, sizeof why, "%s", msg && msg[0] ? msg : hes_strerror(st));
        return st != HES_OK ? hes__say(msg, len, st, "impact orbit: the nominal impact: %s",
                                       why)
                            : hes__say(msg, len, HES_ENOMEM, "out of memory");
    }
    memcpy(x0, an->orbit.x0, sizeof(double) * (size_t)an->orbit.n);
    if (!nominal)
        hes_analysis_free(&own);
    hes_impact_set_options so = o->set;
    st = sample_outcomes(&red, xi, pmax, &so, r, msg, len);
    reduced_free(&red);
    if (st == HES_OK)
        st = run_samples(sys, r, &so.routh, x0, n_after, so.threads > 0 ? so.threads : 1, msg,
                         len);
    if (st != HES_OK) {
        free(x0);
        hes_impact_orbit_free(r);
        return st;
    }
    check_worst(sys, r, &so.routh, x0);
    r->step = so.routh.h;
    r->steps = so.routh.steps;
    free(x0);
    r->seconds = hes__monotonic_seconds() - t0;
    if (r->n_orbits == 0) {
        /* no psi to report: an error, not a result of NaNs */
        if (r->n_consistent == 0)
            hes__say(msg, len, HES_ENOORBIT, "none of the %d sampled outcomes of '%s' (%d "
                     "finished) continues the orbit's mode sequence (its contacts sticking, "
                     "the trailing ones lifting off): there is no orbit to analyse; sample "
                     "more outcomes", r->set.samples, m->transitions[r->transition].name,
                     r->set.n_finished);
        else
            hes__say(msg, len, HES_ENOORBIT, "the orbits of all %d outcomes that continue the "
                     "mode sequence failed; the first: %s", r->n_consistent, r->message);
        hes_impact_orbit_free(r);
        return HES_ENOORBIT;
    }
    return HES_OK;
}
