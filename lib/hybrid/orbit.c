/*
 * orbit.c - periodic orbits by damped Newton shooting.
 *
 * One period runs from just after an event of the section transition to the
 * next one (autonomous), or is the stroboscopic map over the period T
 * (non-autonomous: the run to the next section event is extended by the
 * flow of the start mode to exactly t0 + T).  Unknowns are components of the
 * section state and parameters flagged HES_PARAM_SOLVED; the Jacobian
 * columns of state unknowns come from the monodromy (return-map Jacobian),
 * those of parameter unknowns from central differences of the return map.
 * While shooting only the next guard of the expected event sequence is armed;
 * the converged orbit is then re-simulated with every guard armed and must
 * reproduce the same events, or it is not an orbit of the full system.
 *
 * Acceptance is relative: component i of the residual is measured against
 * the scale s_i = max(|x0_i|, |x_return_i|, T |F_i(x0)|) of that state over
 * the period (T the period: the model's own time scale), so an "orbit" that
 * shrinks to a point is never accepted because its absolute residual is
 * small.  Then the whole state, every component and not just the residual's,
 * must return (to 1e-7 of its scale), and the period must not be so short
 * that repeating it would be a Zeno execution by the simulator's own rule
 * (settings.zeno_events events within settings.zeno_window): otherwise
 * HES_ENOORBIT or HES_EZENO with the reason.
 *
 * When the orbit's mode has a chart (a state on a manifold, tangent.c) the
 * state unknowns are tangent increments: x0 = retract(x0_base, delta) with
 * delta zero but at the free components, the residual is
 * local(x_return, x0)[residual], and x0_base moves to each accepted iterate
 * (delta back to 0), so the Jacobian Phi_tan - I of the tangent monodromy
 * is that of the residual at every iterate.  A tangent component's scale
 * is that of the ambient components through the cotangent map,
 * s_i = sum_j |P_ij(x0)| s_j.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>

#include "base/newton.h"
#include "hybrid/hybrid.h"

void hes_orbit_free(hes_orbit *orbit)
{
    if (!orbit)
        return;
    free(orbit->x0);
    free(orbit->flow);
    hes_traj_free(&orbit->traj);
    memset(orbit, 0, sizeof *orbit);
}

/* The stroboscopic period of an orbit of the system's returns: that many
 * times the model's period (NaN for an autonomous orbit). */
static double period_of(const hes_system *sys)
{
    const hes_orbit_spec *o = &sys->model->orbit;
    return o->period_param ? sys->orbit_returns *
                             sys->p[hes_model_param_index(sys->model, o->period_param)] : NAN;
}

hes_status hes__shoot(hes_system *sys, const double *x0, int sens, hes_traj *traj,
                      double *x_ret)
{
    const hes_model *m = sys->model;
    const hes_orbit_spec *o = &m->orbit;
    int n = m->modes[o->mode].dim;
    hes_sim_options opts;
    hes_sim_options_init(&opts);
    opts.section = o->section;
    opts.n_section = sys->orbit_returns;
    opts.sequence_only = o->n_sequence > 0;
    opts.after_transition = o->section;
    opts.sensitivities = sens;
    hes_status st = hes_simulate(sys, o->mode, 0.0, 0.0, x0, &opts, traj);
    if (st != HES_OK)
        return st;
    const hes_event *ev = &traj->events[traj->n_events - 1];
    if (!o->period_param) {
        memcpy(x_ret, ev->x_plus, sizeof(double) * (size_t)n);
        return HES_OK;
    }
    /* stroboscopic map: continue (or go back) with the start mode's flow */
    double T = period_of(sys), dt = T - ev->t, tm = hes__time_after(m, o->section, ev->tm);
    double *A = sens ? malloc(sizeof(double) * (size_t)n * n) : NULL;
    if (sens && !A)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    st = hes_variational(sys, o->mode, tm, dt, ev->x_plus, x_ret, A);
    if (st == HES_OK && sens &&
        hes__traj_append_phase(traj, o->mode, n, ev->t, T, tm, ev->x_plus, x_ret, A) != HES_OK)
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
    free(A);
    return st;
}

hes_status hes_orbit_return_map(hes_system *sys, const double *x0, double *x_ret)
{
    if (!sys)
        return HES_EINVAL;
    if (sys->kind != HES_KIND_HYBRID)
        return hes__need_hybrid(sys, "hes_orbit_return_map");
    if (!x0 || !x_ret)
        return hes__fail(sys, HES_EINVAL, "return map: needs x0 and x_ret");
    if (!sys->model->orbit.guess)
        return hes__fail(sys, HES_EINVAL, "model '%s' declares no periodic orbit", sys->model->name);
    hes_traj traj;
    hes_status st = hes__shoot(sys, x0, 0, &traj, x_ret);
    hes_traj_free(&traj);
    return st;
}

/* Newton state: unknowns u = (x0[free_states], p[free_params]), and with
 * an extra equation (hes__orbit_extra) the parameter extra->param last. */
typedef struct {
    hes_system *sys;
    int n, nu;
    int *pidx;               /* parameter index of each free parameter */
    double *x0, *xr;
    const hes__orbit_extra *extra; /* NULL: the orbit spec's equations only */
    /* a mode with a chart: tangent dimension, base point, increment, local() */
    int chart, nt;
    double *base, *delta, *dr;
    /* solved in the quotient (hes_orbit_spec.free_quotient): the unknowns
     * are W u, W (ntan x nw) orthonormal, ntan the tangent dimension (the
     * state's without a chart); the base point moves to each iterate */
    int quot, ntan, nw;
    double *W;
} shooter;

/* With a quotient: W at the base point. */
static hes_status quotient_basis(shooter *s)
{
    int nw;
    hes_status st = hes__symmetry_complement(s->sys, s->base, s->ntan, s->W, &nw);
    if (st == HES_OK && nw != s->nw)
        st = hes__fail(s->sys, HES_EMODEL, "the orbit's quotient has %d dimensions, then %d",
                       s->nw, nw);
    return st;
}

/* x0 and the parameters from the unknowns u: the free states themselves,
 * or with a chart x0 = retract(base, delta), delta[free] = u. */
static hes_status put_unknowns(shooter *s, const double *u)
{
    const hes_orbit_spec *o = &s->sys->model->orbit;
    hes_status st = HES_OK;
    if (s->quot) {
        for (int i = 0; i < s->ntan; i++) {
            double v = 0;
            for (int j = 0; j < s->nw; j++)
                v += s->W[i + (size_t)j * s->ntan] * u[j];
            s->delta[i] = v;
        }
        if (s->chart)
            return hes__retract(s->sys, o->mode, s->base, s->delta, s->x0);
        for (int i = 0; i < s->n; i++)
            s->x0[i] = s->base[i] + s->delta[i];
        return HES_OK;
    }
    if (s->chart) {
        memset(s->delta, 0, sizeof(double) * (size_t)s->nt);
        for (int i = 0; i < o->n_free_states; i++)
            s->delta[o->free_states[i]] = u[i];
        st = hes__retract(s->sys, o->mode, s->base, s->delta, s->x0);
    } else {
        for (int i = 0; i < o->n_free_states; i++)
            s->x0[o->free_states[i]] = u[i];
    }
    for (int i = 0; i < o->n_free_params; i++)
        s->sys->p[s->pidx[i]] = u[o->n_free_states + i];
    if (s->extra)
        s->sys->p[s->extra->param] = u[s->nu - 1];
    return st;
}

/* r(u) = (x_return - x0)[residual], and with an extra equation its value
 * w . u - c last; with traj != NULL keeps the run (with sensitivities). */
static hes_status residual(shooter *s, const double *u, double *r, hes_traj *traj)
{
    const hes_orbit_spec *o = &s->sys->model->orbit;
    hes_traj run = { 0 };
    hes_status st = put_unknowns(s, u);
    if (st == HES_OK)
        st = hes_system_check_params(s->sys);
    if (st == HES_OK)
        st = hes__shoot(s->sys, s->x0, traj != NULL, traj ? traj : &run, s->xr);
    if (!traj)
        hes_traj_free(&run);
    if (st == HES_OK && s->chart)
        st = hes__local(s->sys, o->mode, s->xr, s->x0, s->dr);
    if (st != HES_OK)
        return st;
    if (s->quot) {               /* r = W^T (x_return - x0) */
        for (int i = 0; !s->chart && i < s->n; i++)
            s->dr[i] = s->xr[i] - s->x0[i];
        for (int j = 0; j < s->nw; j++) {
            double v = 0;
            for (int i = 0; i < s->ntan; i++)
                v += s->W[i + (size_t)j * s->ntan] * s->dr[i];
            r[j] = v;
        }
        return HES_OK;
    }
    for (int i = 0; i < o->n_residual; i++)
        r[i] = s->chart ? s->dr[o->residual[i]] : s->xr[o->residual[i]] - s->x0[o->residual[i]];
    if (s->extra) {
        double v = -s->extra->c;
        for (int j = 0; j < s->nu; j++)
            v += s->extra->w[j] * u[j];
        r[s->nu - 1] = v;
    }
    return HES_OK;
}

/* Tolerance on the components that the residual does not cover, relative to
 * their scale: they return only as well as the integration and the event
 * location allow. */
#define FULL_STATE_RTOL 1e-7

/* Period of a shooting run: the stroboscopic period, or the time of the
 * section event. */
static double run_period(const hes_system *sys, const hes_traj *traj)
{
    return sys->model->orbit.period_param ? period_of(sys)
                                          : traj->events[traj->n_events - 1].t;
}

/* Scales s_i = max(|x0_i|, |xr_i|, T |F_i(x0)|) (see the top of the file);
 * a component whose scale is zero (constant zero over the period) is
 * measured against the largest scale times 1e-6.  Returns the largest. */
static hes_status state_scales(hes_system *sys, const double *x0, const double *xr, double T,
                               double *scale, double *F, double *largest)
{
    const hes_orbit_spec *o = &sys->model->orbit;
    int n = sys->model->modes[o->mode].dim;
    hes_status st = hes__field(sys, o->mode, 0.0, x0, F);
    if (st != HES_OK)
        return st;
    double big = 0;
    for (int i = 0; i < n; i++) {
        scale[i] = fmax(fmax(fabs(x0[i]), fabs(xr[i])), fabs(T * F[i]));
        big = fmax(big, scale[i]);
    }
    for (int i = 0; i < n; i++)
        scale[i] = fmax(scale[i], 1e-6 * big);
    *largest = big;
    return HES_OK;
}

/* With a chart: the tangent scales t_i = sum_j |P_ij(x0)| s_j of the
 * ambient ones s (P the cotangent map, tdim x dim), into tscale. */
static hes_status tangent_scales(hes_system *sys, const double *x0, const double *scale,
                                 double *tscale)
{
    const hes_model *m = sys->model;
    int mode = m->orbit.mode, n = m->modes[mode].dim, nt = hes__mode_tdim(m, mode);
    double *P = malloc(sizeof(double) * (size_t)nt * n);
    if (!P)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    hes_status st = hes__cotangent_basis(sys, mode, x0, P);
    for (int i = 0; st == HES_OK && i < nt; i++) {
        double t = 0;
        for (int j = 0; j < n; j++)
            t += fabs(P[i + (size_t)j * nt]) * scale[j];
        tscale[i] = t;
    }
    free(P);
    return st;
}

/* The shortest period that is not Zeno: k events per period repeated
 * ceil(zeno_events / k) times must take longer than zeno_window. */
static double zeno_period(const hes_system *sys, int events_per_period)
{
    int k = events_per_period > 0 ? events_per_period : 1;
    int periods = (sys->set.zeno_events + k - 1) / k;
    return sys->set.zeno_window / periods;
}

/* After convergence: the whole state returns (to FULL_STATE_RTOL of its
 * scale, or to the noise of the shooting: the integration's tolerances as
 * the return map amplifies them), and the period is not Zeno. */
static hes_status accept_orbit(hes_system *sys, const shooter *s, const hes_traj *traj,
                               double period, const double *scale, double largest,
                               double noise)
{
    const hes_model *m = sys->model;
    const hes_orbit_spec *o = &m->orbit;
    hes_status st;
    if (!(largest > 0))
        return hes__fail(sys, HES_ENOORBIT, "the solution is a rest point (the state and the "
                         "vector field vanish at the section): not a periodic orbit");
    double tz = zeno_period(sys, traj->n_events);
    if (!(period > tz))
        return hes__fail(sys, HES_EZENO, "the solution's period %.3g s is shorter than %.3g s "
                         "(%d events per period; %d events within %g s is Zeno): the orbit "
                         "collapses to a Zeno point (section state at scale %.3g)",
                         period, tz, traj->n_events, sys->set.zeno_events,
                         sys->set.zeno_window, largest);
    /* with a chart, in tangent coordinates: local(xr, x0) against the tangent scales */
    int nt = s->chart ? s->nt : s->n;
    double *diff = malloc(sizeof(double) * (size_t)nt * (1 + (size_t)o->n_symmetries));
    if (!diff)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    if (s->chart && (st = hes__local(sys, o->mode, s->xr, s->x0, diff)) != HES_OK) {
        free(diff);
        return st;
    }
    for (int i = 0; !s->chart && i < nt; i++)
        diff[i] = s->xr[i] - s->x0[i];
    /* an orbit repeats up to its symmetries: what it moves along them is no fault */
    if ((st = hes__symmetry_remove(sys, s->x0, diff, diff + nt, nt)) != HES_OK) {
        free(diff);
        return st;
    }
    const char *const *names = s->chart ? m->modes[o->mode].tangent_names
                                        : m->modes[o->mode].state_names;
    for (int i = 0; i < nt; i++) {
        double d = fabs(diff[i]);
        if (!(d <= FULL_STATE_RTOL * scale[i] || d <= noise)) {
            const char *name = names ? names[i] : NULL;
            char label[64];
            if (name)
                snprintf(label, sizeof label, "'%s'", name);
            else
                snprintf(label, sizeof label, "%d", i);
            free(diff);
            if (s->chart)
                return hes__fail(sys, HES_ENOORBIT,
                                 "the trajectory is not periodic: tangent component %s moves by "
                                 "%.3g over the period (the orbit spec's residual does not cover "
                                 "it; that exceeds %.0e of its scale %.3g)",
                                 label, d, FULL_STATE_RTOL, scale[i]);
            return hes__fail(sys, HES_ENOORBIT,
                             "the trajectory is not periodic: state component %s goes from %.10g "
                             "to %.10g over the period (the orbit spec's residual does not cover "
                             "it; its difference %.3g exceeds %.0e of its scale %.3g)",
                             label, s->x0[i], s->xr[i], d, FULL_STATE_RTOL, scale[i]);
        }
    }
    free(diff);
    return HES_OK;
}

/* Jacobian dr/du at u (where r = r(u)): state columns from the return-map
 * Jacobian M (n x n), parameter columns by central differences, one-sided
 * where a step leaves the parameter's valid range. */
static hes_status jacobian(shooter *s, const double *u, const double *r, const double *M,
                           double *J, double *work)
{
    const hes_orbit_spec *o = &s->sys->model->orbit;
    int nu = s->nu, n = s->chart ? s->nt : s->n; /* M is in tangent coordinates */
    if (s->quot) {               /* W^T (M - I) W */
        double *MW = malloc(sizeof(double) * (size_t)n * s->nw);
        if (!MW)
            return hes__fail(s->sys, HES_ENOMEM, "out of memory");
        hes__matmul(n, n, s->nw, M, s->W, MW);
        for (int j = 0; j < s->nw; j++)
            for (int i = 0; i < s->nw; i++) {
                double v = 0;
                for (int l = 0; l < n; l++)
                    v += s->W[l + (size_t)i * n] * MW[l + (size_t)j * n];
                J[i + (size_t)j * nu] = v - (i == j);
            }
        free(MW);
        (void)u;
        (void)r;
        (void)work;
        return HES_OK;
    }
    for (int j = 0; j < o->n_free_states; j++) {
        for (int i = 0; i < o->n_residual; i++) {
            int ri = o->residual[i], cj = o->free_states[j];
            J[i + (size_t)j * nu] = M[ri + (size_t)cj * n] - (ri == cj);
        }
        if (s->extra)            /* the extra equation is linear: its row is w */
            J[nu - 1 + (size_t)j * nu] = s->extra->w[j];
    }
    double *up = work, *rp = work + nu, *rm = work + 2 * nu;
    hes_status st = HES_OK;
    for (int j = o->n_free_states; j < nu && st == HES_OK; j++) {
        double h = s->sys->set.fd_step * fmax(1.0, fabs(u[j]));
        memcpy(up, u, sizeof(double) * (size_t)nu);
        up[j] = u[j] + h;
        int okp = residual(s, up, rp, NULL) == HES_OK;
        up[j] = u[j] - h;
        int okm = residual(s, up, rm, NULL) == HES_OK;
        if (!okp && !okm) {
            st = HES_ENOORBIT;
            break;
        }
        double *a = okp ? rp : (double *)r, *b = okm ? rm : (double *)r;
        double span = (okp ? h : 0.0) + (okm ? h : 0.0);
        for (int i = 0; i < nu; i++)
            J[i + (size_t)j * nu] = (a[i] - b[i]) / span;
    }
    hes_status pu = put_unknowns(s, u);
    return st != HES_OK ? st : pu;
}

/* No guard of the orbit's modes is crossed in its direction inside a
 * phase: a brief excursion through a guard between two of the integrator's
 * steps (a paddle rising through the ball's flight past grazing) is not
 * seen by its root finding, and the orbit would pass through the guard
 * (hes_orbit_guard_margins says where). */
static hes_status no_crossing_stepped_over(hes_system *sys, const hes_traj *nominal,
                                           double period)
{
    const hes_model *m = sys->model;
    hes_guard_margin *gm = malloc(sizeof *gm * (size_t)m->n_transitions);
    if (!gm)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    hes_orbit view = { 0 };
    view.traj = *nominal;
    view.period = period;
    hes_status st = hes_orbit_guard_margins(sys, &view, gm);
    for (int k = 0; st == HES_OK && k < m->n_transitions; k++)
        if (gm[k].crossed && isfinite(gm[k].margin))
            st = hes__fail(sys, HES_ENOORBIT, "the period-%d orbit does not exist: it passes "
                           "through the guard of '%s' inside a phase (its clearance is %.3g "
                           "at t = %.10g; the orbit has grazed the guard and now crosses it "
                           "without the event)", sys->orbit_returns, m->transitions[k].name,
                           gm[k].margin, gm[k].t);
        else if (gm[k].crossed)
            st = hes__fail(sys, HES_ENOORBIT, "the period-%d orbit does not exist: it crosses "
                           "the guard of '%s' inside a phase without the event",
                           sys->orbit_returns, m->transitions[k].name);
    free(gm);
    return st;
}

/* The orbit with every guard armed must take the same events at the same
 * times as the sequence-constrained shooting, and cross no guard unseen. */
static hes_status verify_full_system(hes_system *sys, const double *x0, const hes_traj *nominal,
                                     double period)
{
    const hes_model *m = sys->model;
    const hes_orbit_spec *o = &m->orbit;
    hes_sim_options opts;
    hes_sim_options_init(&opts);
    hes_traj full;
    opts.section = o->section;
    opts.n_section = sys->orbit_returns;
    opts.after_transition = o->section;
    hes_status st = hes_simulate(sys, o->mode, 0.0, 0.0, x0, &opts, &full);
    double ttol = 1e-7 * (1.0 + fabs(period));
    if (st == HES_OK) {
        for (int k = 0; k < nominal->n_events; k++) {
            const hes_event *a = &nominal->events[k];
            if (k >= full.n_events || full.events[k].transition != a->transition ||
                fabs(full.events[k].t - a->t) > ttol) {
                const hes_event *b = k < full.n_events ? &full.events[k] : NULL;
                if (b)
                    st = hes__fail(sys, HES_ENOORBIT,
                                   "the period-%d orbit does not exist: with every guard armed, event %d "
                                   "is '%s' at t = %.10g instead of '%s' at t = %.10g",
                                   sys->orbit_returns, k + 1, m->transitions[b->transition].name, b->t,
                                   m->transitions[a->transition].name, a->t);
                else
                    st = hes__fail(sys, HES_ENOORBIT,
                                   "the period-%d orbit does not exist: with every guard armed the "
                                   "period has %d events, expected %d", sys->orbit_returns, full.n_events, nominal->n_events);
                break;
            }
        }
    } else {
        char msg[sizeof sys->errmsg];
        snprintf(msg, sizeof msg, "%s", sys->errmsg);
        st = hes__fail(sys, HES_ENOORBIT,
                       "the period-%d orbit does not exist: with every guard armed the simulation fails (%s: %s)",
                       sys->orbit_returns, hes_strerror(st), msg);
    }
    hes_traj_free(&full);
    if (st == HES_OK)
        st = no_crossing_stepped_over(sys, nominal, period);
    return st;
}

hes_status hes__orbit_verify(hes_system *sys, const hes_orbit *orbit)
{
    return verify_full_system(sys, orbit->x0, &orbit->traj, orbit->period);
}

/* After a failed search: the model's supplied Jacobians against central
 * differences at its start x0 (the start mode only); one that disagrees
 * (relative error above HES_DERIV_TOL) is the likely cause, and the message says
 * so.  A wrong hand-written dF/dx made the search fail with "line search
 * failed" and nothing more. */
static void hint_jacobians(hes_system *sys, const double *x0)
{
    const hes_model *m = sys->model;
    const double **xs = calloc((size_t)m->n_modes, sizeof *xs);
    hes_deriv_report rep;
    if (!xs)
        return;
    xs[m->orbit.mode] = x0;
    hes_model_check_derivatives(m, sys->p, 0.0, xs, &rep); /* disagree: before any failure */
    if (rep.disagree) {
        size_t used = strlen(sys->errmsg);
        if (used + 1 < sizeof sys->errmsg)
            snprintf(sys->errmsg + used, sizeof sys->errmsg - used, " (note: at the orbit's "
                     "start the model's %s disagrees with central differences, relative "
                     "error %.3g)", rep.where, rep.max_rel_err);
    }
    free(xs);
}

/* The hybrid flow's shooting problem for the one solver (base/newton.h). */
typedef struct {
    shooter s;
    hes_traj traj;           /* the kept iterate's run, with sensitivities */
    double *scale, *Fs, largest, rel, *work;
    double *tscale;          /* with a chart: the tangent components' scales */
    double amp;              /* max |M_ij| of the last return-map Jacobian */
} hybrid_shooting;

static hes_status hs_residual(void *ctx, const double *u, double *r, int keep)
{
    hybrid_shooting *h = ctx;
    if (!keep)
        return residual(&h->s, u, r, NULL);
    hes_traj_free(&h->traj);
    return residual(&h->s, u, r, &h->traj);
}

static hes_status hs_converged(void *ctx, int it, const double *u, const double *r, double rn,
                               int *done)
{
    (void)u;
    (void)rn;
    hybrid_shooting *h = ctx;
    hes_system *sys = h->s.sys;
    const hes_orbit_spec *o = &sys->model->orbit;
    double T = run_period(sys, &h->traj);
    hes_status st = state_scales(sys, h->s.x0, h->s.xr, T, h->scale, h->Fs, &h->largest);
    if (st == HES_OK && h->s.chart)
        st = tangent_scales(sys, h->s.x0, h->scale, h->tscale);
    if (st != HES_OK)
        return st;
    const double *sc = h->s.chart ? h->tscale : h->scale;
    h->rel = 0;
    for (int i = 0; i < o->n_residual; i++)
        h->rel = fmax(h->rel, fabs(r[i]) / sc[o->residual[i]]);
    for (int i = 0; h->s.quot && i < h->s.ntan; i++) { /* the residual W r, per component */
        double v = 0;
        for (int j = 0; j < h->s.nw; j++)
            v += h->s.W[i + (size_t)j * h->s.ntan] * r[j];
        h->rel = fmax(h->rel, fabs(v) / sc[i]);
    }
    *done = h->rel < sys->set.newton_tol || h->largest == 0;
    if (h->s.extra)              /* and the extra equation holds to rounding */
        *done = *done && fabs(r[h->s.nu - 1]) <= 1e-10 * (1 + fabs(h->s.extra->c));
    if (!*done && T <= zeno_period(sys, h->traj.n_events))
        return hes__fail(sys, HES_EZENO, "Newton's iterates collapse to a Zeno point: after "
                         "%d iterations the period is %.3g s with %d events (relative "
                         "residual %.3g at state scale %.3g)", it, T, h->traj.n_events, h->rel,
                         h->largest);
    return HES_OK;
}

static hes_status hs_jacobian(void *ctx, const double *u, const double *r, double *J)
{
    hybrid_shooting *h = ctx;
    hes_system *sys = h->s.sys;
    const hes_orbit_spec *o = &sys->model->orbit;
    hes_monodromy mono;
    hes_status st = hes_monodromy_compute(sys, &h->traj, !o->period_param, &mono);
    if (st != HES_OK) /* the model's failure, as it said it */
        return st;
    const double *M = o->period_param ? mono.phi : mono.proj;
    int nm = h->s.chart ? h->s.nt : h->s.n;
    h->amp = 0;
    for (size_t i = 0; i < (size_t)nm * nm; i++)
        h->amp = fmax(h->amp, fabs(M[i]));
    st = jacobian(&h->s, u, r, M, J, h->work);
    hes_monodromy_free(&mono);
    if (st != HES_OK) {
        char msg[sizeof sys->errmsg];
        snprintf(msg, sizeof msg, "%s", sys->errmsg);
        double rn = 0;
        for (int i = 0; i < o->n_residual; i++)
            rn = fmax(rn, fabs(r[i]));
        st = hes__fail(sys, HES_ENOORBIT, "shooting Jacobian failed at residual %.3g (%s: %s)",
                       rn, hes_strerror(st), msg);
    }
    return st;
}

/* No step decreases the residual: converged when it is at the noise of the
 * integration (its tolerances at the state's scale) as the return map
 * amplifies it, an unstable orbit's by its large multipliers, though the
 * relative test may not pass (a component whose orbit value is 0, as a
 * wheel's lean, has a scale of 1e-6 of the largest). */
static double shooting_noise(const hybrid_shooting *h)
{
    const hes_settings *set = &h->s.sys->set;
    return 10 * (set->rtol * h->largest + set->atol) * (1 + h->amp);
}

static int hs_stalled(void *ctx, const double *u, double rn)
{
    (void)u;
    return rn <= shooting_noise(ctx);
}

static void hs_describe(void *ctx, char *buf, size_t len)
{
    snprintf(buf, len, ", relative %.3g", ((hybrid_shooting *)ctx)->rel);
}

static const char *hs_errmsg(void *ctx)
{
    return ((hybrid_shooting *)ctx)->s.sys->errmsg;
}

static void hs_say(void *ctx, const char *msg)
{
    hes__fail(((hybrid_shooting *)ctx)->s.sys, HES_OK, "%s", msg);
}

/* With a chart: the accepted iterate becomes the base point, its increments
 * 0 (retract(x, 0) = x: the same x0, the same residual).  A failure of the
 * retraction leaves u as it was. */
static void hs_rebase(void *ctx, double *u)
{
    shooter *s = &((hybrid_shooting *)ctx)->s;
    const hes_orbit_spec *o = &s->sys->model->orbit;
    if (put_unknowns(s, u) != HES_OK)
        return;
    memcpy(s->base, s->x0, sizeof(double) * (size_t)s->n);
    for (int i = 0; i < o->n_free_states; i++)
        u[i] = 0.0;
    for (int i = 0; s->quot && i < s->nw; i++)
        u[i] = 0.0;
    /* the symmetries' directions at the new base (on failure the old W: a
     * basis of the same quotient, no longer exactly orthogonal to them) */
    if (s->quot)
        (void)quotient_basis(s);
}

hes_status hes_orbit_find(hes_system *sys, hes_orbit *orbit)
{
    return hes__orbit_find_extra(sys, NULL, orbit);
}

hes_status hes__orbit_find_extra(hes_system *sys, const hes__orbit_extra *extra,
                                 hes_orbit *orbit)
{
    if (!sys || !orbit) {
        if (orbit)
            memset(orbit, 0, sizeof *orbit);
        return sys ? hes__fail(sys, HES_EINVAL, "orbit: nowhere to put it (NULL)") : HES_EINVAL;
    }
    memset(orbit, 0, sizeof *orbit);
    if (sys->kind != HES_KIND_HYBRID)
        return hes__need_hybrid(sys, "hes_orbit_find");
    const hes_model *m = sys->model;
    const hes_orbit_spec *o = &m->orbit;
    if (!o->guess)
        return hes__fail(sys, HES_EINVAL, "model '%s' declares no periodic orbit", m->name);
    hes_status st = hes_system_check_params(sys);
    if (st != HES_OK)
        return st;
    if (extra && !(extra->param >= 0 && extra->param < sys->n_params && extra->w))
        return hes__fail(sys, HES_EINVAL, "orbit: a bad extra equation");
    int chart = hes__mode_has_chart(m, o->mode);
    /* the extra equation is linear in absolute unknowns, which a chart's
     * re-based increments are not */
    if (extra && (chart || o->free_quotient))
        return hes__fail(sys, HES_EINVAL, "an orbit search with an extra equation (a "
                         "continuation) does not support %s of mode '%s'", chart ?
                         "the chart (a state on a manifold)" : "an orbit solved in the quotient",
                         m->modes[o->mode].name);
    int n = m->modes[o->mode].dim, nt = hes__mode_tdim(m, o->mode), ntan = chart ? nt : n;
    int quot = o->free_quotient, nsym = o->symmetries ? o->n_symmetries : 0;
    hybrid_shooting h = { .s = { .sys = sys, .n = n,
                                 .nu = quot ? ntan - nsym
                                            : o->n_free_states + o->n_free_params + (extra != NULL),
                                 .extra = extra, .chart = chart, .nt = nt, .quot = quot,
                                 .ntan = ntan, .nw = ntan - nsym },
                          .largest = 0, .rel = INFINITY };
    shooter *s = &h.s;
    int nu = s->nu, nmax = n > nt ? n : nt;
    if (nu < 1)
        return hes__fail(sys, HES_EINVAL, "model '%s': nothing to solve for in the orbit's "
                         "quotient", m->name);
    double *mem = calloc((size_t)(6 * n + 4 * nu + nt + 2 * nmax + 2) +
                         (quot ? (size_t)ntan * s->nw : 0), sizeof(double));
    s->pidx = calloc((size_t)o->n_free_params + 1, sizeof(int));
    if (!mem || !s->pidx) {
        free(mem);
        free(s->pidx);
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    }
    s->x0 = mem;
    s->xr = s->x0 + n;
    h.scale = s->xr + n;
    h.Fs = h.scale + n;
    double *start = h.Fs + n, *u = start + n;
    h.work = u + nu;
    s->base = h.work + 3 * nu + 2;
    s->delta = s->base + n;
    s->dr = s->delta + nmax;
    h.tscale = s->dr + nmax;
    s->W = quot ? h.tscale + nt : NULL;
    for (int i = 0; i < o->n_free_params; i++)
        s->pidx[i] = hes_model_param_index(m, o->free_params[i]);
    if (o->guess(sys->p, s->x0, m->data) != 0) {
        st = hes__fail(sys, HES_EINVAL, "model '%s' could not make an initial guess for its orbit", m->name);
        start = NULL;
        goto out;
    }
    /* A warm start (a neighbouring point's orbit) seeds only what Newton
     * solves: the free states.  The other components of the section state are
     * defined by the parameters through the model's guess (an apex height, a
     * speed), and a neighbour's values there would be another point's orbit. */
    if (sys->orbit_start && quot)   /* in the quotient every component is solved */
        memcpy(s->x0, sys->orbit_start, sizeof(double) * (size_t)n);
    else if (sys->orbit_start && !chart)
        for (int i = 0; i < o->n_free_states; i++)
            s->x0[o->free_states[i]] = sys->orbit_start[o->free_states[i]];
    /* with a chart: retract(guess, local(start, guess) on the free components only) */
    if (chart && (st = hes__normalize(sys, o->mode, s->x0)) == HES_OK && sys->orbit_start &&
        !quot && (st = hes__local(sys, o->mode, sys->orbit_start, s->x0, s->dr)) == HES_OK) {
        memset(s->delta, 0, sizeof(double) * (size_t)nt);
        for (int i = 0; i < o->n_free_states; i++)
            s->delta[o->free_states[i]] = s->dr[o->free_states[i]];
        memcpy(s->base, s->x0, sizeof(double) * (size_t)n);
        st = hes__retract(sys, o->mode, s->base, s->delta, s->x0);
    }
    if (st != HES_OK) {
        start = NULL;
        goto out;
    }
    memcpy(start, s->x0, sizeof(double) * (size_t)n); /* for hint_jacobians */
    if (chart || quot)
        memcpy(s->base, s->x0, sizeof(double) * (size_t)n);
    if (quot && (st = quotient_basis(s)) != HES_OK)
        goto out;
    for (int i = 0; i < o->n_free_states; i++)
        u[i] = chart ? 0.0 : s->x0[o->free_states[i]];
    for (int i = 0; i < o->n_free_params; i++)
        u[o->n_free_states + i] = sys->p[s->pidx[i]];
    if (extra)
        u[nu - 1] = sys->p[extra->param];

    hes__newton_problem prob = { nu, &h, hs_residual, hs_converged, hs_jacobian, NULL,
                                 hs_stalled, hs_describe, hs_errmsg, hs_say,
                                 chart || quot ? hs_rebase : NULL };
    hes__newton_options nopt = { sys->set.newton_maxiter, quot, 1e-4, 30,
                                 hes__monotonic_seconds() + sys->set.max_search_time,
                                 sys->set.max_search_time, "hes_settings.max_search_time",
                                 HES_ENOORBIT };
    int it;
    double rn;
    st = hes__newton(&prob, &nopt, u, &it, &rn);
    hes_status pu = put_unknowns(s, u);
    if (st == HES_OK)
        st = pu;
    if (st != HES_OK) {
        hes_traj_free(&h.traj);
        goto out;
    }
    double period = run_period(sys, &h.traj);
    if ((st = accept_orbit(sys, s, &h.traj, period, chart ? h.tscale : h.scale,
                           h.largest, shooting_noise(&h))) != HES_OK ||
        (!(extra && extra->no_full_check) &&
         (st = verify_full_system(sys, s->x0, &h.traj, period)) != HES_OK)) {
        hes_traj_free(&h.traj);
        goto out;
    }
    orbit->mode = o->mode;
    orbit->t0 = 0.0;
    orbit->period = period;
    orbit->n = n;
    orbit->x0 = malloc(sizeof(double) * (size_t)n);
    orbit->flow = malloc(sizeof(double) * (size_t)n);
    orbit->traj = h.traj;
    orbit->iterations = it;
    orbit->residual = rn;
    orbit->autonomous = !o->period_param;
    if (!orbit->x0 || !orbit->flow) {
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
    } else {
        memcpy(orbit->x0, s->x0, sizeof(double) * (size_t)n);
        st = hes__field(sys, o->mode, 0.0, s->x0, orbit->flow);
    }
    if (st != HES_OK)
        hes_orbit_free(orbit);
out:
    if (st == HES_ENOORBIT && start)
        hint_jacobians(sys, start);
    free(mem);
    free(s->pidx);
    return st;
}
