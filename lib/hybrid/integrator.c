/*
 * integrator.c - the integrator of each mode of a system, created on the
 * mode's first integration with the callbacks below, which evaluate the
 * model through eval.c, and restarted at each phase: CVODES (Adams or BDF,
 * base/ode.c) or, for models that choose HES_RK8, the explicit Runge-Kutta
 * integrator of base/rk.c; and the budgets of an integration: steps per
 * phase and wall-clock time per simulation call.  simulate.c and
 * variational.c see one interface, hes__phase_*.
 *
 * The sensitivity right-hand side is ours, s_j' = (dF/dx)(t, x(t)) s_j,
 * s_j(t0) = e_j (the model's Jacobian, or central differences of F), since
 * CVODES's difference-quotient option perturbs problem parameters, not
 * initial states.  With HES_RK8 the s_j are the tail of the integrated
 * state, x then A = (s_1 ... s_n) column by column, under the same error
 * control as x (as CVODES's errconS).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/rk.h"
#include "hybrid/hybrid.h"

/* ------------------------------------------------------ CVODES callbacks */

/* The first failure inside a callback is kept on the system; CVODES sees -1. */
static int record(hes_system *sys, hes_status st)
{
    if (sys->cb_status == HES_OK)
        sys->cb_status = st;
    return -1;
}

/* The mode's field and its Jacobian, for base/ode.c's callbacks. */
static int field(void *d, double t, const double *x, double *out)
{
    hes_mode_ws *ws = d;
    hes_status st = hes__field(ws->sys, ws->mode, t, x, out);
    return st == HES_OK ? 0 : record(ws->sys, st);
}

static int field_dx(void *d, double t, const double *x, double *out)
{
    hes_mode_ws *ws = d;
    hes_status st = hes__field_dx(ws->sys, ws->mode, t, x, out);
    return st == HES_OK ? 0 : record(ws->sys, st);
}

/* Disarmed guards return a constant, so the root finder never sees them. */
static int rk_root(double t, const double *y, double *g, void *ud);

static int roots(void *d, double t, const double *x, double *g)
{
    return rk_root(t, x, g, d);
}

/* The explicit integrator's right-hand side: F, and with m > n also the
 * variational tail A' = (dF/dx) A. */
static int rk_rhs(double t, const double *y, double *ydot, int m, void *ud)
{
    hes_mode_ws *ws = ud;
    int n = ws->n;
    hes_status st = hes__field(ws->sys, ws->mode, t, y, ydot);
    if (st == HES_OK && m > n &&
        (st = hes__field_dx(ws->sys, ws->mode, t, y, ws->jac)) == HES_OK)
        hes__matmul(n, n, n, ws->jac, y + n, ydot + n);
    return st == HES_OK ? 0 : record(ws->sys, st);
}

static int rk_root(double t, const double *y, double *g, void *ud)
{
    hes_mode_ws *ws = ud;
    for (int r = 0; r < ws->n_roots; r++) {
        int k = ws->root_tr[r];
        g[r] = 1.0;
        if (ws->sys->armed[k]) {
            hes_status st = hes__guard(ws->sys, k, t, y, &g[r]);
            if (st != HES_OK)
                return record(ws->sys, st);
        }
    }
    return 0;
}

/* CVODES reports errors through this handler instead of printing them. */
static void cv_error_handler(int code, const char *module, const char *function,
                             char *msg, void *data)
{
    hes_system *sys = data;
    (void)module;
    if (code < 0) /* keep errors; ignore warnings */
        snprintf(sys->cvode_msg, sizeof sys->cvode_msg, "%s: %s", function, msg);
}

/* ----------------------------------------------------------- integrators */

static int uses_rk(const hes_system *sys)
{
    return sys->model->integrator == HES_RK8;
}

/* The integrator of a mode, created on first use. */
static hes_status ensure_ode(hes_system *sys, hes_mode_ws *ws)
{
    if (uses_rk(sys) ? ws->rk.k != NULL : ws->ode.cvode != NULL)
        return HES_OK;
    const hes_model *m = sys->model;
    int *dirs = malloc(sizeof(int) * (size_t)(ws->n_roots > 0 ? ws->n_roots : 1));
    if (!dirs)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    for (int r = 0; r < ws->n_roots; r++)
        dirs[r] = m->transitions[ws->root_tr[r]].direction;
    int rc;
    if (uses_rk(sys)) {
        rc = hes__rk_create(&ws->rk, ws->n * (ws->n + 1), ws->n, ws->n_roots, dirs, rk_rhs,
                            rk_root, ws);
        if (rc != 0)
            hes__rk_free(&ws->rk);
    } else {
        hes__ode_spec spec = { m->integrator == HES_BDF, field, field_dx, ws->jac, ws->n_roots,
                               roots, dirs, ws, cv_error_handler, sys, HES__STEP_CHUNK };
        rc = hes__ode_create(&ws->ode, sys->ctx, ws->n, &spec);
        if (rc != 0)
            hes__ode_free(&ws->ode);
    }
    free(dirs);
    if (rc != 0)
        return hes__fail(sys, HES_ENOMEM, "cannot set up the integrator (%s) of mode '%s' "
                         "(dimension %d): out of memory%s%s", uses_rk(sys) ? "rk8" : "CVODES",
                         m->modes[ws->mode].name, ws->n, sys->cvode_msg[0] ? " or " : "",
                         sys->cvode_msg);
    return HES_OK;
}

hes_status hes__phase_start(hes_system *sys, int mode, double tm, const double *x, int sens)
{
    hes_mode_ws *ws = &sys->ws[mode];
    sys->cb_status = HES_OK;
    sys->cvode_msg[0] = '\0';
    hes_status st = ensure_ode(sys, ws);
    if (st != HES_OK)
        return st;
    if (uses_rk(sys)) {
        int n = ws->n;
        double *y0 = ws->rk.y1; /* scratch until the first step */
        memcpy(y0, x, sizeof(double) * (size_t)n);
        if (sens) {
            memset(y0 + n, 0, sizeof(double) * (size_t)n * n);
            for (int i = 0; i < n; i++)
                y0[n + i * (n + 1)] = 1.0;
        }
        if (hes__rk_start(&ws->rk, tm, y0, sys->set.rtol, sys->set.atol, sens) != 0)
            return sys->cb_status != HES_OK ? sys->cb_status
                   : hes__fail(sys, HES_ESOLVER, "the guards of mode '%s' failed at its start",
                               sys->model->modes[mode].name);
        return HES_OK;
    }
    int rc = hes__ode_start(&ws->ode, tm, x, sys->set.rtol, sys->set.atol, sens, sys->work);
    if (rc == -1)
        return hes__fail(sys, HES_ESOLVER, "CVODES could not start mode '%s': %s",
                         sys->model->modes[mode].name, sys->cvode_msg);
    if (rc == -2)
        return hes__fail(sys, HES_ESOLVER, "CVODES could not start sensitivities: %s",
                         sys->cvode_msg);
    return HES_OK;
}

const double *hes__phase_state(const hes_system *sys, int mode)
{
    const hes_mode_ws *ws = &sys->ws[mode];
    return uses_rk(sys) ? ws->rk.y : NV_DATA_S(ws->ode.y);
}

hes_status hes__phase_sens(hes_system *sys, int mode, double *A)
{
    hes_mode_ws *ws = &sys->ws[mode];
    if (uses_rk(sys)) {
        memcpy(A, ws->rk.y + ws->n, sizeof(double) * (size_t)ws->n * ws->n);
        return HES_OK;
    }
    if (hes__ode_get_sens(&ws->ode, A) != 0)
        return hes__fail(sys, HES_ESOLVER, "CVODES could not return sensitivities: %s",
                         sys->cvode_msg);
    return HES_OK;
}

void hes__budget_start(hes_system *sys)
{
    sys->deadline = hes__monotonic_seconds() + sys->set.max_wall_time;
}

/* HES_OK to go on, or HES_ESOLVER with a message when the phase of `mode`
 * has taken settings.max_steps steps or the call has run out of wall time. */
static hes_status budget(hes_system *sys, int mode, double t)
{
    hes_mode_ws *ws = &sys->ws[mode];
    long steps = 0;
    double h = 0;
    if (uses_rk(sys)) {
        steps = ws->rk.steps;
        h = ws->rk.h;
    } else {
        sunrealtype hl = 0;
        CVodeGetNumSteps(ws->ode.cvode, &steps);
        CVodeGetLastStep(ws->ode.cvode, &hl);
        h = hl;
    }
    if (steps >= sys->set.max_steps)
        return hes__fail(sys, HES_ESOLVER, "the integrator took %ld steps in mode '%s' up to "
                         "model time %.10g (last step %.3g) without reaching an event: the "
                         "motion is too fast or the state too large for the tolerances%s "
                         "(hes_settings.max_steps = %d)", steps, sys->model->modes[mode].name,
                         t, h, uses_rk(sys) ? ", or the phase is stiff (rk8 is explicit: "
                         "a stiff model needs HES_BDF)" : "", sys->set.max_steps);
    if (hes__monotonic_seconds() > sys->deadline)
        return hes__fail(sys, HES_ESOLVER, "the simulation exceeded its wall-time budget of "
                         "%g s (hes_settings.max_wall_time) in mode '%s' at model time %.10g",
                         sys->set.max_wall_time, sys->model->modes[mode].name, t);
    return HES_OK;
}

/* The explicit integrator's run to tstop or a root (ws->rootsfound). */
static hes_status rk_run(hes_system *sys, hes_mode_ws *ws, double tstop, double *tret,
                         int *root)
{
    for (;;) {
        int rc = hes__rk_advance(&ws->rk, tstop, HES__STEP_CHUNK);
        *tret = ws->rk.t;
        if (rc == HES__RK_CHUNK) {
            hes_status st = budget(sys, ws->mode, *tret);
            if (st != HES_OK)
                return st;
            continue;
        }
        if (rc == HES__RK_ROOT) {
            for (int r = 0; r < ws->n_roots; r++)
                ws->rootsfound[r] = ws->rk.found[r];
            *root = 1;
            return HES_OK;
        }
        if (rc == HES__RK_TSTOP) {
            *root = 0;
            return HES_OK;
        }
        if (sys->cb_status != HES_OK)
            return sys->cb_status;
        return hes__fail(sys, HES_ESOLVER, "the rk8 integrator failed in mode '%s' at model "
                         "time %.17g: %s", sys->model->modes[ws->mode].name, *tret,
                         rc == HES__RK_ESTEP ? "the step size fell to rounding level (a "
                         "singularity, or a stiff phase: choose adams or bdf)" : "error");
    }
}

hes_status hes__phase_run(hes_system *sys, int mode, double tstop, double *tret, int *root)
{
    hes_mode_ws *ws = &sys->ws[mode];
    hes_status st = budget(sys, mode, *tret);
    if (st != HES_OK)
        return st;
    if (uses_rk(sys))
        return rk_run(sys, ws, tstop, tret, root);
    CVodeSetStopTime(ws->ode.cvode, tstop);
    for (;;) {
        sunrealtype tr = *tret;
        int flag = CVode(ws->ode.cvode, tstop, ws->ode.y, &tr, CV_NORMAL);
        *tret = tr;
        /* a chunk of steps done (HES__STEP_CHUNK): go on within the budgets */
        if (flag == CV_TOO_MUCH_WORK && sys->cb_status == HES_OK) {
            if ((st = budget(sys, mode, *tret)) != HES_OK)
                return st;
            continue;
        }
        if (flag == CV_ROOT_RETURN) {
            CVodeGetRootInfo(ws->ode.cvode, ws->rootsfound);
            *root = 1;
            return HES_OK;
        }
        if (flag == CV_TSTOP_RETURN || flag == CV_SUCCESS) {
            *root = 0;
            return HES_OK;
        }
        if (sys->cb_status != HES_OK)
            return sys->cb_status;
        return hes__fail(sys, HES_ESOLVER, "CVODES failed in mode '%s' at model time %.17g "
                         "(flag %d): %s", sys->model->modes[mode].name, *tret, flag,
                         sys->cvode_msg);
    }
}
