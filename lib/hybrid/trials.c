/*
 * trials.c - the perturbation experiment of the paper's Fig. 3: initial
 * states drawn uniformly in a ball around the orbit's section state, each
 * simulated for a number of periods with every guard armed, recording the
 * 2-norm error to the section state after every period (at each section
 * event for autonomous orbits, at t0 + tau + kT for non-autonomous ones
 * against the orbit's state there: tau = 0 for an orbit in one mode, else
 * half its first phase).
 * The random generator state lives on the stack: no global state.
 * When the orbit's mode has a chart (a state on a manifold, tangent.c) the
 * ball or box is in its tangent coordinates, the start retract(x*, d), and
 * the error after a period |local(x, x*)|.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid/hybrid.h"


/* Uniform in the n-ball of radius r: gaussian direction, radius r U^(1/n). */
static void ball_point(unsigned long long *s, int n, double r, double *d)
{
    double nn = 0;
    for (int i = 0; i < n; i++) {
        d[i] = hes__rng_gaussian(s);
        nn += d[i] * d[i];
    }
    double scale = nn > 0 ? r * pow(hes__rng_uniform(s), 1.0 / n) / sqrt(nn) : 0.0;
    for (int i = 0; i < n; i++)
        d[i] *= scale;
}

/* r = x - x*, or local(x, x*) with a chart (tdim values); nonzero when
 * local fails. */
static int difference(hes_system *sys, int mode, const double *x, const double *xs, int n,
                      double *r)
{
    if (hes__mode_has_chart(sys->model, mode))
        return hes__local(sys, mode, x, xs, r) != HES_OK;
    for (int i = 0; i < n; i++)
        r[i] = x[i] - xs[i];
    return 0;
}

static double dot(int n, const double *a, const double *b)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

/* Work for error_of: enough for an orbit with s symmetries in a mode of
 * dim n, tangent dim nt. */
static size_t error_work(int n, int nt, int s)
{
    return (size_t)nt * (size_t)(s + 2) + (size_t)n + (size_t)s * (size_t)(s + 3);
}

/* |r(theta)|^2, r(theta) = difference(act(x, theta), x*), into r; NaN on
 * failure. */
static double moved(hes_system *sys, int mode, const double *x, const double *xs, int n,
                    const double *theta, double *y, double *r, int nt)
{
    const hes_orbit_spec *o = &sys->model->orbit;
    if (o->symmetry_act(x, theta, sys->p, y, hes__mode_data(sys->model, mode)) != 0 ||
        !hes__all_finite(y, n) || difference(sys, mode, y, xs, n, r))
        return NAN;
    return dot(nt, r, r);
}

/* The error of x from the orbit's x*: |x - x*|, or |local(x, x*)| with a
 * chart.  An orbit that repeats up to symmetries (hes_orbit_spec.
 * symmetries) is judged in their quotient: with their action
 * (symmetry_act), the distance from the nearest of x's moved copies, by
 * Gauss-Newton on the symmetries' parameters theta (the Jacobian by
 * central differences in theta, a step halved until it lowers the
 * distance); without it, the difference less its components along the
 * generators at x* (exact for translations, first order for a turn).
 * NaN when a callback fails. */
static double error_of(hes_system *sys, int mode, const double *x, const double *xs, int n,
                       double *work)
{
    const hes_orbit_spec *o = &sys->model->orbit;
    int nt = hes__mode_has_chart(sys->model, mode) ? hes__mode_tdim(sys->model, mode) : n;
    int s = o->symmetries ? o->n_symmetries : 0;
    double *r = work;
    if (s == 0 || !o->symmetry_act) {
        if (difference(sys, mode, x, xs, n, r) ||
            (s > 0 && hes__symmetry_remove(sys, xs, r, r + nt, nt) != HES_OK))
            return NAN;
        return sqrt(dot(nt, r, r));
    }
    double *J = r + nt, *rp = J + (size_t)nt * s, *y = rp + nt, *theta = y + n,
           *trial = theta + s, *g = trial + s, *A = g + s;
    memset(theta, 0, sizeof(double) * (size_t)s);
    double f = moved(sys, mode, x, xs, n, theta, y, r, nt);
    for (int it = 0; it < 50 && f > 0; it++) {
        /* J = dr/dtheta by central differences, then A = J^T J, g = J^T r */
        for (int k = 0; k < s; k++) {
            double h = 1e-6 * (1 + fabs(theta[k]));
            memcpy(trial, theta, sizeof(double) * (size_t)s);
            trial[k] = theta[k] + h;
            if (isnan(moved(sys, mode, x, xs, n, trial, y, rp, nt)))
                return NAN;
            double *Jk = J + (size_t)k * nt;
            memcpy(Jk, rp, sizeof(double) * (size_t)nt);
            trial[k] = theta[k] - h;
            if (isnan(moved(sys, mode, x, xs, n, trial, y, rp, nt)))
                return NAN;
            for (int i = 0; i < nt; i++)
                Jk[i] = (Jk[i] - rp[i]) / (2 * h);
        }
        for (int k = 0; k < s; k++) {
            g[k] = dot(nt, J + (size_t)k * nt, r);
            for (int l = 0; l < s; l++)
                A[k + l * s] = dot(nt, J + (size_t)k * nt, J + (size_t)l * nt);
        }
        if (hes__chol(A, s) != 0)
            break;   /* the moved copies do not move the difference */
        hes__chol_solve(A, s, g, 1);
        double step = 1, fn = NAN;
        for (int half = 0; half < 30; half++, step *= 0.5) {
            for (int k = 0; k < s; k++)
                trial[k] = theta[k] - step * g[k];
            fn = moved(sys, mode, x, xs, n, trial, y, rp, nt);
            if (fn < f)
                break;
        }
        if (!(fn < f))
            break;   /* no lower: theta is the nearest copy to rounding */
        double moved_by = 0;
        for (int k = 0; k < s; k++) {
            moved_by = fmax(moved_by, fabs(trial[k] - theta[k]) / (1 + fabs(theta[k])));
            theta[k] = trial[k];
        }
        f = fn;
        memcpy(r, rp, sizeof(double) * (size_t)nt);
        if (moved_by < 1e-13)
            break;
    }
    return sqrt(f);
}

void hes_trials_free(hes_trials *t)
{
    if (!t)
        return;
    for (int i = 0; t->trials && i < t->n_trials; i++) {
        free(t->trials[i].x0);
        free(t->trials[i].error);
    }
    free(t->trials);
    free(t->mean_error);
    memset(t, 0, sizeof *t);
}

/* The mean error after each period over the trials that completed every
 * period: mean_k = (1/m) sum_i error_i[k]; NaN when m = 0. */
static void mean_error(hes_trials *t)
{
    t->n_complete = 0;
    for (int k = 0; k < t->steps; k++)
        t->mean_error[k] = 0.0;
    for (int i = 0; i < t->n_trials; i++)
        if (t->trials[i].steps_completed == t->steps) {
            t->n_complete++;
            for (int k = 0; k < t->steps; k++)
                t->mean_error[k] += t->trials[i].error[k];
        }
    for (int k = 0; k < t->steps; k++)
        t->mean_error[k] = t->n_complete ? t->mean_error[k] / t->n_complete : NAN;
}

/* A trajectory that strays this far has left the orbit for good. */
static double divergence_bound(const double *x, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return 1e3 * (1.0 + sqrt(s));
}

static void run_trial(hes_system *sys, const hes_orbit *orbit, int steps, hes_trial *tr)
{
    const hes_orbit_spec *o = &sys->model->orbit;
    int n = orbit->n;
    double bound = divergence_bound(orbit->x0, n);
    hes_traj traj;
    hes_sim_options opts;
    hes_sim_options_init(&opts);
    opts.after_transition = o->section;
    tr->failure = HES_OK;
    int nt = hes__mode_has_chart(sys->model, orbit->mode) ? hes__mode_tdim(sys->model,
                                                                          orbit->mode) : n;
    double *work = malloc(sizeof(double) * error_work(n, nt, o->symmetries ? o->n_symmetries
                                                                           : 0));
    if (!work) {
        tr->failure = HES_ENOMEM;
        return;
    }
    if (orbit->autonomous) {
        opts.section = o->section;
        opts.n_section = steps;
        hes_status st = hes_simulate(sys, orbit->mode, 0.0, 0.0, tr->x0, &opts, &traj);
        for (int k = 0; k < traj.n_events && tr->steps_completed < steps; k++) {
            const hes_event *ev = &traj.events[k];
            if (ev->transition != o->section)
                continue;
            double e = error_of(sys, orbit->mode, ev->x_plus, orbit->x0, n, work);
            tr->error[tr->steps_completed++] = e;
            if (!(e <= bound)) {
                st = HES_EDIVERGED;
                break;
            }
        }
        if (st != HES_OK) {
            tr->failure = st;
            snprintf(tr->failure_msg, sizeof tr->failure_msg, "%s",
                     st == HES_EDIVERGED ? "error exceeded the divergence bound" : sys->errmsg);
        }
        hes_traj_free(&traj);
        free(work);
        return;
    }
    /* non-autonomous: sample the stroboscopic map at t0 + tau + kT against
       the orbit's own state there (xr).  At t0 + kT itself the section event
       is due and the run may end on either side of it, in another mode:
       an orbit through several modes is sampled half its first phase
       later (tau), one that stays in its mode at t0 + kT (tau = 0) */
    int mode = orbit->mode, one_mode = 1;
    for (int k = 0; k < orbit->traj.n_phases; k++)
        one_mode &= orbit->traj.phases[k].mode == mode;
    double tau = one_mode ? 0 : 0.5 * (orbit->traj.phases[0].t1 - orbit->traj.phases[0].t0);
    double t = orbit->t0, *x = malloc(sizeof(double) * 2 * (size_t)sys->nmax),
           *xr = x + sys->nmax;
    if (!x) {
        tr->failure = HES_ENOMEM;
        free(work);
        return;
    }
    hes_status st = HES_OK;
    memcpy(xr, orbit->x0, sizeof(double) * (size_t)n);
    if (tau > 0) {
        opts.t_end = orbit->t0 + tau;
        st = hes_simulate(sys, mode, t, t, orbit->x0, &opts, &traj);
        if (st == HES_OK && traj.phases[traj.n_phases - 1].mode == mode)
            memcpy(xr, traj.phases[traj.n_phases - 1].x1, sizeof(double) * (size_t)n);
        else if (st == HES_OK)
            st = hes__fail(sys, HES_EMODEL, "the orbit left its first mode within half of "
                           "its first phase");
        hes_traj_free(&traj);
    }
    memcpy(x, tr->x0, sizeof(double) * (size_t)n);
    for (int k = 1; st == HES_OK && k <= steps; k++) {
        opts.t_end = orbit->t0 + tau + k * orbit->period;
        st = hes_simulate(sys, mode, t, t, x, &opts, &traj);
        opts.after_transition = -1;
        if (st == HES_OK) {
            const hes_phase *ph = &traj.phases[traj.n_phases - 1];
            mode = ph->mode;
            t = opts.t_end;
            memcpy(x, ph->x1, sizeof(double) * (size_t)sys->model->modes[mode].dim);
            if (mode != orbit->mode) {
                st = hes__fail(sys, HES_EDIVERGED, "in mode '%s' at t0 + %d T + %.3g",
                               sys->model->modes[mode].name, k, tau);
            } else {
                double e = error_of(sys, mode, x, xr, n, work);
                tr->error[tr->steps_completed++] = e;
                if (!(e <= bound))
                    st = HES_EDIVERGED;
            }
        }
        hes_traj_free(&traj);
    }
    if (st != HES_OK) {
        tr->failure = st;
        snprintf(tr->failure_msg, sizeof tr->failure_msg, "%s",
                 st == HES_EDIVERGED && tr->steps_completed > 0 &&
                 tr->error[tr->steps_completed - 1] > bound
                     ? "error exceeded the divergence bound" : sys->errmsg);
    }
    free(x);
    free(work);
}

static hes_status trials_run(hes_system *sys, const hes_orbit *orbit, int n_trials,
                             double radius, int steps, unsigned long seed, double tol,
                             int box, hes_trials *out);

hes_status hes_trials_run(hes_system *sys, const hes_orbit *orbit, int n_trials,
                          double radius, int steps, unsigned long seed, double tol,
                          hes_trials *out)
{
    return trials_run(sys, orbit, n_trials, radius, steps, seed, tol, 0, out);
}

hes_status hes_trials_run_box(hes_system *sys, const hes_orbit *orbit, int n_trials,
                              double half_width, int steps, unsigned long seed, double tol,
                              hes_trials *out)
{
    return trials_run(sys, orbit, n_trials, half_width, steps, seed, tol, 1, out);
}

static hes_status trials_run(hes_system *sys, const hes_orbit *orbit, int n_trials,
                             double radius, int steps, unsigned long seed, double tol,
                             int box, hes_trials *out)
{
    if (!out)
        return sys ? hes__fail(sys, HES_EINVAL, "trials: nowhere to put them (NULL)") : HES_EINVAL;
    if (sys && sys->kind != HES_KIND_HYBRID) {
        memset(out, 0, sizeof *out);
        return hes__need_hybrid(sys, "hes_trials_run");
    }
    memset(out, 0, sizeof *out);
    if (!sys || !orbit || !orbit->x0 || n_trials < 1 || steps < 1 || !(radius >= 0) ||
        !isfinite(radius) || !(tol > 0))
        return sys ? hes__fail(sys, HES_EINVAL, "trials: need trials >= 1, steps >= 1, "
                               "radius >= 0 and tol > 0") : HES_EINVAL;
    int n = orbit->n, chart = hes__mode_has_chart(sys->model, orbit->mode);
    int nt = chart ? hes__mode_tdim(sys->model, orbit->mode) : n; /* the ball's dimension */
    /* a start beyond the divergence bound would count as diverged before
     * its first period: refused instead of simulated (a hopeless start
     * may take the whole step budget of every trial) */
    double bound = divergence_bound(orbit->x0, n), reach = box ? radius * sqrt((double)nt) : radius;
    if (reach > bound)
        return hes__fail(sys, HES_EINVAL, "trials: starts %s %g reach %g from the orbit, beyond "
                         "the divergence bound %g (1e3 (1 + |x*|)) past which a trial counts as "
                         "diverged", box ? "in the box of half-width" : "in the ball of radius",
                         radius, reach, bound);
    unsigned long long s = seed;
    out->n_trials = n_trials;
    out->steps = steps;
    out->n = n;
    out->tol = tol;
    out->radius = radius;
    out->box = box;
    out->seed = seed;
    out->trials = calloc((size_t)n_trials, sizeof *out->trials);
    out->mean_error = malloc(sizeof(double) * (size_t)steps);
    if (!out->trials || !out->mean_error) {
        hes_trials_free(out);
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    }
    double *d = malloc(sizeof(double) * (size_t)nt);
    if (!d) {
        hes_trials_free(out);
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    }
    for (int i = 0; i < n_trials; i++) {
        hes_trial *tr = &out->trials[i];
        tr->x0 = malloc(sizeof(double) * (size_t)n);
        tr->error = malloc(sizeof(double) * (size_t)steps);
        if (!tr->x0 || !tr->error) {
            free(d);
            hes_trials_free(out);
            return hes__fail(sys, HES_ENOMEM, "out of memory");
        }
        if (box)
            for (int j = 0; j < nt; j++)
                d[j] = radius * (2.0 * hes__rng_uniform(&s) - 1.0);
        else
            ball_point(&s, nt, radius, d);
        if (chart) {
            hes_status st = hes__retract(sys, orbit->mode, orbit->x0, d, tr->x0);
            if (st != HES_OK) {
                free(d);
                hes_trials_free(out);
                return st;
            }
        } else {
            for (int j = 0; j < n; j++)
                tr->x0[j] = d[j] + orbit->x0[j];
        }
        run_trial(sys, orbit, steps, tr);
        if (tr->failure == HES_OK && tr->steps_completed == steps &&
            tr->error[steps - 1] < tol)
            out->converged++;
    }
    free(d);
    mean_error(out);
    return HES_OK;
}

/* An unstable orbit attracts almost no perturbed start, so most trials
 * converging contradicts the verdict (a wrong linearisation, or too few
 * periods for psi barely above 1 to show); a stable orbit whose trials all
 * fail to converge has a basin smaller than the ball, or a wrong verdict. */
const char *hes_trials_contradiction(hes_verdict verdict, const hes_trials *t)
{
    if (!t || t->n_trials < 1)
        return NULL;
    if (verdict == HES_UNSTABLE && 2 * t->converged >= t->n_trials)
        return "the verdict is unstable but most perturbed trials converged to the orbit: "
               "the linearisation (a supplied Jacobian?) or the number of periods is in doubt";
    if (verdict == HES_STABLE && t->converged == 0)
        return "the verdict is stable but no perturbed trial converged: the ball is larger "
               "than the basin of attraction, or the verdict is in doubt";
    return NULL;
}
