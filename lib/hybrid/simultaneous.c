/*
 * simultaneous.c - events that happen (nearly) at once, such as two feet
 * landing together (decoupled-limbs paper, Sec. 3-4).  For each such pair
 * the other activation order is evaluated at the first event's state: its
 * outcome, its linearisation Xi_a' Xi_b' (the other piece of the piecewise-
 * linear B-derivative of the flow), and for mechanical activations the
 * decoupling measure of eq. 6.  Pieces that agree mean the ordinary
 * monodromy is valid; pieces that differ mean the return map is only
 * piecewise linear, and for orbits psi is reported for each piece.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid/hybrid.h"

/* Do transitions t1 and t2 stand for the same physical event? */
static int same_event(const hes_model *m, int t1, int t2)
{
    const hes_transition *a = &m->transitions[t1], *b = &m->transitions[t2];
    if (a->guard == hes_mech_guard && b->guard == hes_mech_guard && a->data && b->data) {
        const hes_mech_transition *x = a->data, *y = b->data;
        return x->kind == y->kind && x->constraint == y->constraint &&
               (x->mech ? x->mech : x->from->mech) == (y->mech ? y->mech : y->from->mech);
    }
    return strcmp(a->name, b->name) == 0;
}

static int find_alt(const hes_model *m, int from, int like)
{
    for (int k = 0; k < m->n_transitions; k++)
        if (m->transitions[k].from == from && same_event(m, k, like))
            return k;
    return -1;
}

static double max_abs(const double *a, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s = fmax(s, fabs(a[i]));
    return s;
}

/* Outcome and linearisation of events `first` then `second` from x at model
 * time tm: out (dim of the final mode), L (final dim x dim of x). */
static hes_status two_events(hes_system *sys, int first, int second, double tm, const double *x,
                             double *mid, double *out, double *X1, double *X2, double *L)
{
    const hes_model *m = sys->model;
    int ni = m->modes[m->transitions[first].from].dim, nj = m->modes[m->transitions[first].to].dim;
    int nk = m->modes[m->transitions[second].to].dim;
    double tm1 = hes__time_after(m, first, tm);
    hes_status st;
    if ((st = hes__reset(sys, first, tm, x, mid)) != HES_OK ||
        (st = hes__reset(sys, second, tm1, mid, out)) != HES_OK ||
        (st = hes_saltation(sys, first, tm, x, X1)) != HES_OK ||
        (st = hes_saltation(sys, second, tm1, mid, X2)) != HES_OK)
        return st;
    hes__matmul(nk, nj, ni, X2, X1, L);
    return HES_OK;
}

static hes_status analyse_pair(hes_system *sys, const hes_traj *traj, int k, hes_simultaneous *s,
                               double *L_other)
{
    const hes_model *m = sys->model;
    const hes_event *e0 = &traj->events[k], *e1 = &traj->events[k + 1];
    int a = e0->transition, b = e1->transition, I = m->transitions[a].from;
    int nm = sys->nmax;
    size_t mm = (size_t)nm * nm;
    memset(s, 0, sizeof *s);
    s->event = k;
    s->first = a;
    s->second = b;
    s->dt = e1->t - e0->t;
    s->coupling = s->outcome_gap = s->piece_gap = s->psi_taken = s->psi_other = NAN;
    s->alt_second = find_alt(m, I, b);
    s->alt_first = s->alt_second >= 0 ? find_alt(m, m->transitions[s->alt_second].to, a) : -1;
    if (s->alt_second >= 0) {
        double c;
        if (hes__mech_coupling(&m->transitions[a], &m->transitions[s->alt_second], e0->x_minus,
                               sys->p, &c) == 0)
            s->coupling = c;
        s->decoupled = fabs(s->coupling) < HES_DECOUPLED_TOL;
    }
    if (s->alt_first < 0)
        return HES_OK;
    double *buf = malloc(sizeof(double) * (6 * mm + 4 * (size_t)nm));
    if (!buf)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    double *X1 = buf, *X2 = X1 + mm, *La = X2 + mm, *Lb = La + mm, *mid = Lb + mm,
           *xa = mid + nm, *xb = xa + nm;
    hes_status st = two_events(sys, a, b, e0->tm, e0->x_minus, mid, xa, X1, X2, La);
    if (st == HES_OK)
        st = two_events(sys, s->alt_second, s->alt_first, e0->tm, e0->x_minus, mid, xb, X1, X2, Lb);
    if (st == HES_OK && m->transitions[s->alt_first].to == m->transitions[b].to) {
        int nk = m->modes[m->transitions[b].to].dim, ni = m->modes[I].dim;
        double gap = 0;
        for (int i = 0; i < nk; i++)
            gap = fmax(gap, fabs(xa[i] - xb[i]));
        s->outcome_gap = gap;
        s->continuous = gap <= 1e-9 * (1.0 + max_abs(xa, nk));
        double pg = 0;
        for (int i = 0; i < nk * ni; i++)
            pg = fmax(pg, fabs(La[i] - Lb[i]));
        s->piece_gap = pg / fmax(1.0, max_abs(La, nk * ni));
        s->differentiable = s->continuous && s->piece_gap <= 1e-6;
        if (L_other)
            memcpy(L_other, Lb, sizeof(double) * (size_t)nk * ni);
    }
    free(buf);
    return st;
}

hes_status hes_simultaneous_find(hes_system *sys, const hes_traj *traj, double tol,
                                 hes_simultaneous *out, int max, int *n)
{
    if (n)
        *n = 0;
    if (!sys)
        return HES_EINVAL;
    if (sys->kind != HES_KIND_HYBRID)
        return hes__need_hybrid(sys, "hes_simultaneous_find");
    if (!traj || !n || (max > 0 && !out))
        return hes__fail(sys, HES_EINVAL, "simultaneous events: needs a trajectory, n and out");
    *n = 0;
    for (int k = 0; k + 1 < traj->n_events; k++) {
        if (!(traj->events[k + 1].t - traj->events[k].t <= tol))
            continue;
        if (*n < max) {
            hes_status st = analyse_pair(sys, traj, k, &out[*n], NULL);
            if (st != HES_OK)
                return st;
        }
        (*n)++;
        k++; /* a pair uses both events */
    }
    if (*n > max)
        *n = max;
    return HES_OK;
}

/* psi of the orbit with the factors of events k, k+1 (and the zero-length
 * phase between them) replaced by L. */
static hes_status piece_psi(hes_system *sys, const hes_analysis *res, int k, const double *L,
                            double *psi)
{
    const hes_monodromy *mono = &res->mono;
    const hes_traj *tr = &res->orbit.traj;
    int n0 = mono->n, nm = sys->nmax, nf = mono->n_factors;
    int f_first = 2 * k + 1, f_last = 2 * k + 3, section = mono->autonomous ? nf - 1 : -1;
    if (f_last >= nf || f_last == section)
        return HES_EINVAL; /* the pair includes the section event: not analysed */
    double *buf = malloc(sizeof(double) * (2 * (size_t)nm * n0 + (size_t)nm * nm + 2 * (size_t)n0 * n0 + n0));
    if (!buf)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    double *cur = buf, *nxt = cur + (size_t)nm * n0, *S = nxt + (size_t)nm * n0,
           *M = S + (size_t)nm * nm, *P = M + (size_t)n0 * n0, *normal = P + (size_t)n0 * n0;
    int rows = n0;
    memset(cur, 0, sizeof(double) * (size_t)n0 * n0);
    for (int i = 0; i < n0; i++)
        cur[i + (size_t)i * n0] = 1.0;
    hes_status st = HES_OK;
    for (int f = 0; f < nf; f++) {
        if (f > f_first && f <= f_last)
            continue;
        const double *G = mono->factors[f].m;
        int gr = mono->factors[f].rows, gc = mono->factors[f].cols;
        if (f == f_first) {
            G = L;
            gr = mono->factors[f_last].rows;
        }
        if (f == section) { /* P = S Q */
            const hes_event *ev = &tr->events[tr->n_events - 1];
            if ((st = hes__section_matrix(sys, ev->transition, ev->tm, ev->x_minus, S, normal)) != HES_OK)
                break;
            G = S;
        }
        (void)gc;
        hes__matmul(gr, rows, n0, G, cur, nxt);
        rows = gr;
        double *t = cur;
        cur = nxt;
        nxt = t;
    }
    if (st == HES_OK) {
        hes_monodromy view;
        hes_stability stab;
        memset(&view, 0, sizeof view);
        memcpy(M, cur, sizeof(double) * (size_t)n0 * n0);
        view.n = n0;
        view.autonomous = mono->autonomous;
        view.accuracy = mono->accuracy;
        view.phi = M;
        view.proj = mono->autonomous ? M : NULL;
        view.normal = mono->autonomous ? normal : NULL;
        if ((st = hes_stability_compute(&view, &stab)) == HES_OK) {
            *psi = stab.psi;
            hes_stability_free(&stab);
        }
    }
    free(buf);
    return st;
}

hes_status hes_simultaneous_orbit(hes_system *sys, const hes_analysis *res,
                                  hes_simultaneous *out, int max, int *n)
{
    if (n)
        *n = 0;
    if (!sys)
        return HES_EINVAL;
    if (sys->kind != HES_KIND_HYBRID)
        return hes__need_hybrid(sys, "hes_simultaneous_orbit");
    if (!res || !n || (max > 0 && !out))
        return hes__fail(sys, HES_EINVAL, "simultaneous events: needs the analysis, n and out");
    const hes_traj *tr = &res->orbit.traj;
    double tol = 1e-8 * (1.0 + fabs(res->orbit.period));
    int nm = sys->nmax;
    double *L = malloc(sizeof(double) * (size_t)nm * nm);
    if (!L)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    hes_status st = HES_OK;
    *n = 0;
    for (int k = 0; k + 1 < tr->n_events && st == HES_OK; k++) {
        if (!(tr->events[k + 1].t - tr->events[k].t <= tol))
            continue;
        if (*n < max) {
            hes_simultaneous *s = &out[*n];
            if ((st = analyse_pair(sys, tr, k, s, L)) != HES_OK)
                break;
            s->psi_taken = res->stab.psi;
            /* the other order's piece L is ambient; the monodromy's factors
             * are in tangent coordinates where a mode has a chart: no psi */
            if (!isnan(s->piece_gap) && !hes__model_has_chart(sys->model)) {
                double psi = NAN;
                hes_status ps = piece_psi(sys, res, k, L, &psi);
                if (ps == HES_OK)
                    s->psi_other = psi;
                else if (ps != HES_EINVAL)
                    st = ps;
            }
        }
        (*n)++;
        k++;
    }
    if (*n > max)
        *n = max;
    free(L);
    return st;
}
