/*
 * simulate.c - execution of a hybrid system: integration of the current
 * mode (integrator.c: CVODES or the explicit rk8) with rootfinding on the guards of that mode, event location,
 * reset maps, and the event log (hes_traj).  A run stops with a clear status
 * on Zeno behaviour (too many events in too short a time), grazing events,
 * no event before the time limit, non-finite states or model failures.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid/hybrid.h"

void hes_sim_options_init(hes_sim_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->section = -1;
    o->t_end = INFINITY;
    o->after_transition = -1;
}

/* ------------------------------------------------------------ trajectory */

void hes_traj_free(hes_traj *traj)
{
    if (!traj)
        return;
    for (int k = 0; k < traj->n_phases; k++) {
        free(traj->phases[k].x0);
        free(traj->phases[k].x1);
        free(traj->phases[k].A);
    }
    for (int k = 0; k < traj->n_events; k++) {
        free(traj->events[k].x_minus);
        free(traj->events[k].x_plus);
    }
    free(traj->phases);
    free(traj->events);
    memset(traj, 0, sizeof *traj);
}

static double *dup(const double *v, int n)
{
    double *c = malloc(sizeof(double) * (size_t)n);
    if (c)
        memcpy(c, v, sizeof(double) * (size_t)n);
    return c;
}

static hes_phase *push_phase(hes_traj *tr, int *cap, int mode, double t0, double tm0,
                             const double *x0, int n, int sens)
{
    if (tr->n_phases == *cap) {
        int c = *cap ? 2 * *cap : 8;
        hes_phase *p = realloc(tr->phases, sizeof *p * (size_t)c);
        if (!p)
            return NULL;
        tr->phases = p;
        *cap = c;
    }
    hes_phase *ph = &tr->phases[tr->n_phases];
    memset(ph, 0, sizeof *ph);
    ph->mode = mode;
    ph->t0 = ph->t1 = t0;
    ph->tm0 = tm0;
    ph->x0 = dup(x0, n);
    ph->x1 = dup(x0, n);
    ph->A = sens ? calloc((size_t)n * n, sizeof(double)) : NULL;
    tr->n_phases++; /* counted now so hes_traj_free releases it */
    if (!ph->x0 || !ph->x1 || (sens && !ph->A))
        return NULL;
    for (int i = 0; sens && i < n; i++)
        ph->A[i + (size_t)i * n] = 1.0;
    return ph;
}

static hes_event *push_event(hes_traj *tr, int *cap)
{
    if (tr->n_events == *cap) {
        int c = *cap ? 2 * *cap : 8;
        hes_event *e = realloc(tr->events, sizeof *e * (size_t)c);
        if (!e)
            return NULL;
        tr->events = e;
        *cap = c;
    }
    hes_event *ev = &tr->events[tr->n_events++];
    memset(ev, 0, sizeof *ev);
    return ev;
}

/* Position in the model's orbit sequence: the next event, or the first of
 * an any-order pair whose second event came first (pending). */
typedef struct {
    int pos;
    int pending;
} seq_state;

static int any_order_at(const hes_orbit_spec *o, int pos)
{
    return o->any_order && o->any_order[pos % o->n_sequence];
}

/* Arms the guards of mode `mode`: all of them, or only the next event(s) of
 * the model's orbit sequence. */
static void arm(hes_system *sys, int mode, int sequence_only, const seq_state *q)
{
    const hes_model *m = sys->model;
    const hes_orbit_spec *o = &m->orbit;
    for (int k = 0; k < m->n_transitions; k++)
        sys->armed[k] = m->transitions[k].from == mode;
    if (sequence_only && o->n_sequence > 0) {
        int n = o->n_sequence, want = q->pending >= 0 ? q->pending : o->sequence[q->pos % n];
        int also = q->pending < 0 && any_order_at(o, q->pos) ? o->sequence[(q->pos + 1) % n] : -1;
        for (int k = 0; k < m->n_transitions; k++)
            sys->armed[k] = k == want || k == also;
    }
}

static void advance(const hes_orbit_spec *o, seq_state *q, int taken)
{
    if (o->n_sequence == 0)
        return;
    int n = o->n_sequence;
    if (q->pending >= 0) {
        q->pending = -1;
        q->pos += 2;
    } else if (any_order_at(o, q->pos) && taken == o->sequence[(q->pos + 1) % n] &&
               taken != o->sequence[q->pos % n]) {
        q->pending = o->sequence[q->pos % n]; /* the pair came in the other order */
    } else {
        q->pos++;
    }
}

/* Whether a guard with `direction` is crossed when g moves with sign s. */
static int crosses(int direction, double s)
{
    return (direction == HES_DOWN && s < 0) || (direction == HES_UP && s > 0) ||
           (direction == HES_ANY && s != 0);
}

/*
 * Guards that sit at zero at the start of a phase (CVODES never reports a
 * root at its initial point, it waits for a sign change away from zero):
 *  - crossed in their direction at a transversal rate: the event happens now,
 *    without integrating (the second of two simultaneous events, or a start
 *    state given exactly on a guard);
 *  - tangential (rate ~ 0) with the second derivative of g along the flow,
 *        d/dt (Dtg + Dxg F) ~ [rate(t + h, x + h F) - rate(t, x)] / h,
 *    pointing across: the flow enters the guard's far side at once, where
 *    the model is not defined (sustained contact: a ball resting on a paddle
 *    after a plastic impact, a body standing on rigid feet).  The event
 *    cannot be taken (it grazes) and integrating would pass through the
 *    guard unseen: HES_EGRAZING.  Tangential starts that curve back into the
 *    domain (a foot just released, a knee just straight) are left to the
 *    root finder, which sees a later crossing if there is one.
 * The guard of the event just taken is checked for the tangential case only,
 * with a rate at rounding level (see below).
 */
static hes_status immediate_event(hes_system *sys, int mode, double tm, const double *x,
                                  int just, int *fired)
{
    const hes_model *m = sys->model;
    int n = m->modes[mode].dim;
    double xs = 0, *F = sys->ws[mode].jac; /* 4n scratch values */
    double *dxg = F + n, *y = dxg + n, *F2 = y + n;
    *fired = -1;
    for (int i = 0; i < n; i++)
        xs = fmax(xs, fabs(x[i]));
    for (int k = 0; k < m->n_transitions; k++) {
        const hes_transition *T = &m->transitions[k];
        if (!sys->armed[k] || T->from != mode)
            continue;
        double g, rate, scale;
        hes_status st;
        if ((st = hes__guard(sys, k, tm, x, &g)) != HES_OK)
            return st;
        if (!(fabs(g) <= HES__AT_ZERO * (1.0 + xs)))
            continue;
        if ((st = hes__guard_rate(sys, k, tm, x, F, dxg, &rate, &scale)) != HES_OK)
            return st;
        /* the guard of the event just taken is tangential only when the reset
         * left its rate at rounding level (a plastic impact: sustained
         * contact); a small but resolved rebound is left to the root finder
         * and the Zeno rule */
        double tangential = (k == just ? 1e-12 : sys->set.graze_tol) * scale;
        if (fabs(rate) > tangential) {
            if (k != just && crosses(T->direction, rate)) {
                *fired = k;
                return HES_OK;
            }
            continue;
        }
        /* tangential: where does the flow go? */
        double fn = 0, rate2, scale2;
        for (int i = 0; i < n; i++)
            fn += F[i] * F[i];
        double h = sys->set.fd_step * (1.0 + fabs(tm)) * fmax(1.0, (1.0 + xs) / fmax(sqrt(fn), 1e-300));
        h = fmin(h, 1e-3 * (1.0 + fabs(tm)));
        for (int i = 0; i < n; i++)
            y[i] = x[i] + h * F[i];
        if ((st = hes__guard_rate(sys, k, tm + h, y, F2, dxg, &rate2, &scale2)) != HES_OK)
            return st;
        double acc = (rate2 - rate) / h;
        /* curving back into the domain, or at rest on the guard to this
           order (a foot just released: its force, hence its acceleration,
           reached 0, and it leaves at third order): the guard is watched
           once it has left zero (HES__ARMED_AT_ZERO) */
        if (!crosses(T->direction, acc) || !(fabs(acc) * h > sys->set.graze_tol * scale))
            sys->armed[k] = HES__ARMED_AT_ZERO;
        if (crosses(T->direction, acc) && fabs(acc) * h > sys->set.graze_tol * scale)
            return hes__fail(sys, HES_EGRAZING,
                             "in mode '%s' at model time %.10g the state lies on the guard of '%s' "
                             "(g = %.3g) with zero crossing rate (%.3g) and the flow crosses it at "
                             "once (d/dt rate = %.3g): a grazing event, which cannot be taken and "
                             "which integration would pass unseen (at a contact: sustained "
                             "contact, which an impact model does not describe)",
                             m->modes[mode].name, tm, T->name, g, rate, acc);
    }
    return HES_OK;
}

/* Integrates the current phase until an armed guard fires (returns its
 * transition in *fired) or the stop time is reached (*fired = -1). */
static hes_status integrate_phase(hes_system *sys, int mode, double tm_start,
                                  double tstop, int end_by_time, int ignore_tr,
                                  double *tret_out, int *fired)
{
    const hes_model *m = sys->model;
    hes_mode_ws *ws = &sys->ws[mode];
    double dwell = 1e-9 * (1.0 + fabs(tm_start));
    *tret_out = tm_start;
    for (;;) {
        int root;
        hes_status st = hes__phase_run(sys, mode, tstop, tret_out, &root);
        if (st != HES_OK)
            return st;
        if (root) {
            /* Several guards at once: the lowest transition index goes first;
             * the others fire at the start of the next phase if their guard
             * is still at zero and approaching (see immediate_event). */
            int k = -1;
            for (int r = ws->n_roots - 1; r >= 0; r--)
                if (ws->rootsfound[r] && sys->armed[ws->root_tr[r]] &&
                    !(ws->root_tr[r] == ignore_tr && *tret_out - tm_start <= dwell))
                    k = ws->root_tr[r];
            /* The guard of the event that started this phase may still sit
             * at zero within rounding: not a new event. */
            if (k < 0)
                continue;
            *fired = k;
            return HES_OK;
        }
        *fired = -1;
        if (end_by_time)
            return HES_OK;
        return hes__fail(sys, HES_ENOEVENT,
                         "no event within %g time units in mode '%s' (phase started at model time %.17g)",
                         tstop - tm_start, m->modes[mode].name, tm_start);
    }
}

hes_status hes_simulate(hes_system *sys, int mode, double t0, double tm0,
                        const double *x0, const hes_sim_options *opts_in, hes_traj *traj)
{
    if (!traj)
        return HES_EINVAL;
    memset(traj, 0, sizeof *traj);
    if (!sys)
        return traj->status = HES_EINVAL;
    if (sys->kind != HES_KIND_HYBRID)
        return traj->status = hes__need_hybrid(sys, "hes_simulate");
    const hes_model *m = sys->model;
    hes_sim_options opts;
    if (opts_in)
        opts = *opts_in;
    else
        hes_sim_options_init(&opts);
    if (mode < 0 || mode >= m->n_modes || !x0 || !isfinite(t0) || !isfinite(tm0) ||
        isnan(opts.t_end) || opts.section >= m->n_transitions)
        return traj->status = hes__fail(sys, HES_EINVAL, "hes_simulate: invalid arguments");
    if (!hes__all_finite(x0, m->modes[mode].dim))
        return traj->status = hes__fail(sys, HES_ENONFINITE, "initial state is not finite");

    int pcap = 0, ecap = 0, n_sec = 0, cur = mode, just = opts.after_transition;
    seq_state seq = { 0, -1 };
    int nz = sys->set.zeno_events;
    double t_abs = t0, tm = tm0;
    double *x = malloc(sizeof(double) * (size_t)sys->nmax);
    hes_status st = HES_OK;
    if (!x) {
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
        goto done;
    }
    memcpy(x, x0, sizeof(double) * (size_t)m->modes[mode].dim);
    if ((st = hes__normalize(sys, mode, x)) != HES_OK || /* the start onto the mode's manifold */
        (st = hes__admissible(sys, mode, tm0, x)) != HES_OK)
        goto done;
    hes__budget_start(sys);
    for (;;) {
        int n = m->modes[cur].dim;
        hes_phase *ph = push_phase(traj, &pcap, cur, t_abs, tm, x, n, opts.sensitivities);
        if (!ph) {
            st = hes__fail(sys, HES_ENOMEM, "out of memory");
            break;
        }
        arm(sys, cur, opts.sequence_only, &seq);
        double tstop = tm + sys->set.max_phase_time;
        int end_by_time = 0;
        if (isfinite(opts.t_end) && tm + (opts.t_end - t_abs) <= tstop) {
            tstop = tm + (opts.t_end - t_abs);
            end_by_time = 1;
            if (tstop - tm <= 1e-14 * (1.0 + fabs(tm)))
                break; /* already at t_end: empty final phase */
        }
        double tret = tm;
        int k;
        if ((st = immediate_event(sys, cur, tm, x, just, &k)) != HES_OK)
            break;
        if (k < 0) {
            if ((st = hes__phase_start(sys, cur, tm, x, opts.sensitivities)) != HES_OK)
                break;
            if ((st = integrate_phase(sys, cur, tm, tstop, end_by_time, just, &tret, &k)) != HES_OK)
                break;
            /* close the phase at tret */
            memcpy(ph->x1, hes__phase_state(sys, cur), sizeof(double) * (size_t)n);
            /* onto the manifold: the integrator's interpolation leaves it by its tolerance */
            if ((st = hes__normalize(sys, cur, ph->x1)) != HES_OK)
                break;
            ph->t1 = t_abs + (tret - tm);
            if (opts.sensitivities && (st = hes__phase_sens(sys, cur, ph->A)) != HES_OK)
                break;
        } /* else: a zero-length phase (x1 = x0, A = I) before the second of simultaneous events */
        if (!hes__all_finite(ph->x1, n)) {
            st = hes__fail(sys, HES_ENONFINITE, "state not finite in mode '%s'", m->modes[cur].name);
            break;
        }
        if (k < 0)
            break; /* reached t_end */

        /* the event: Zeno is judged first (the events of a Zeno execution
         * also become tangential as they accumulate), then transversality */
        const hes_transition *T = &m->transitions[k];
        int nj = m->modes[T->to].dim, ne = traj->n_events + 1;
        int zeno = (ne >= nz && ph->t1 - traj->events[ne - nz].t <= sys->set.zeno_window) ||
                   ne > sys->set.max_events;
        if (!zeno && (st = hes__event_transversal(sys, k, tret, ph->x1)) != HES_OK)
            break;
        hes_event *ev = push_event(traj, &ecap);
        if (!ev || !(ev->x_minus = dup(ph->x1, n)) || !(ev->x_plus = malloc(sizeof(double) * (size_t)nj))) {
            st = hes__fail(sys, HES_ENOMEM, "out of memory");
            break;
        }
        ev->transition = k;
        ev->t = ph->t1;
        ev->tm = tret;
        if ((st = hes__reset(sys, k, tret, ph->x1, ev->x_plus)) != HES_OK) {
            /* no post-event state: the event does not enter the log */
            free(ev->x_minus);
            free(ev->x_plus);
            traj->n_events--;
            break;
        }
        if (zeno) { /* the event is logged, the execution stops */
            if (ne > sys->set.max_events)
                st = hes__fail(sys, HES_EZENO, "more than %d events in one simulation",
                               sys->set.max_events);
            else
                st = hes__fail(sys, HES_EZENO,
                               "%d events within %.3g time units (last '%s' at t = %.17g)",
                               nz, ev->t - traj->events[ne - nz].t, T->name, ev->t);
            break;
        }
        advance(&m->orbit, &seq, k);
        cur = T->to;
        tm = hes__time_after(m, k, tret);
        t_abs = ev->t;
        memcpy(x, ev->x_plus, sizeof(double) * (size_t)nj);
        just = k;
        if (k == opts.section && opts.n_section > 0 && ++n_sec >= opts.n_section)
            break;
    }
done:
    free(x);
    traj->status = st;
    return st;
}

hes_status hes__traj_append_phase(hes_traj *traj, int mode, int n, double t0, double t1,
                                  double tm0, const double *x0, const double *x1,
                                  const double *A)
{
    hes_phase *p = realloc(traj->phases, sizeof *p * (size_t)(traj->n_phases + 1));
    if (!p)
        return HES_ENOMEM;
    traj->phases = p;
    hes_phase *ph = &p[traj->n_phases];
    memset(ph, 0, sizeof *ph);
    traj->n_phases++;
    ph->mode = mode;
    ph->t0 = t0;
    ph->t1 = t1;
    ph->tm0 = tm0;
    ph->x0 = dup(x0, n);
    ph->x1 = dup(x1, n);
    ph->A = A ? dup(A, n * n) : NULL;
    return ph->x0 && ph->x1 && (!A || ph->A) ? HES_OK : HES_ENOMEM;
}
