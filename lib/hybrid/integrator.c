/*
 * integrator.c - the CVODES integrator of each mode of a system: created on
 * the mode's first integration (base/ode.c) with the callbacks below, which
 * evaluate the model through eval.c, and restarted at each phase; and the
 * budgets of an integration: steps per phase and wall-clock time per
 * simulation call.
 *
 * The sensitivity right-hand side is ours, s_j' = (dF/dx)(t, x(t)) s_j,
 * s_j(t0) = e_j (the model's Jacobian, or central differences of F), since
 * CVODES's difference-quotient option perturbs problem parameters, not
 * initial states.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hybrid/hybrid.h"

/* ------------------------------------------------------ CVODES callbacks */

/* The first failure inside a callback is kept on the system; CVODES sees -1. */
static int record(hes_system *sys, hes_status st)
{
    if (sys->cb_status == HES_OK)
        sys->cb_status = st;
    return -1;
}

static int cv_rhs(sunrealtype t, N_Vector y, N_Vector ydot, void *ud)
{
    hes_mode_ws *ws = ud;
    hes_status st = hes__field(ws->sys, ws->mode, t, NV_DATA_S(y), NV_DATA_S(ydot));
    return st == HES_OK ? 0 : record(ws->sys, st);
}

/* Disarmed guards return a constant, so the root finder never sees them. */
static int cv_root(sunrealtype t, N_Vector y, sunrealtype *gout, void *ud)
{
    hes_mode_ws *ws = ud;
    for (int r = 0; r < ws->n_roots; r++) {
        int k = ws->root_tr[r];
        gout[r] = 1.0;
        if (ws->sys->armed[k]) {
            hes_status st = hes__guard(ws->sys, k, t, NV_DATA_S(y), &gout[r]);
            if (st != HES_OK)
                return record(ws->sys, st);
        }
    }
    return 0;
}

static int cv_jac(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *ud,
                  N_Vector t1, N_Vector t2, N_Vector t3)
{
    hes_mode_ws *ws = ud;
    (void)fy; (void)t1; (void)t2; (void)t3;
    hes_status st = hes__field_dx(ws->sys, ws->mode, t, NV_DATA_S(y), ws->jac);
    if (st != HES_OK)
        return record(ws->sys, st);
    for (int j = 0; j < ws->n; j++)
        memcpy(SM_COLUMN_D(J, j), ws->jac + (size_t)j * ws->n, (size_t)ws->n * sizeof(double));
    return 0;
}

static int cv_sens(int Ns, sunrealtype t, N_Vector y, N_Vector ydot, N_Vector *yS,
                   N_Vector *ySdot, void *ud, N_Vector t1, N_Vector t2)
{
    hes_mode_ws *ws = ud;
    int n = ws->n;
    (void)ydot; (void)t1; (void)t2;
    hes_status st = hes__field_dx(ws->sys, ws->mode, t, NV_DATA_S(y), ws->jac);
    if (st != HES_OK)
        return record(ws->sys, st);
    for (int j = 0; j < Ns; j++)
        hes__matmul(n, n, 1, ws->jac, NV_DATA_S(yS[j]), NV_DATA_S(ySdot[j]));
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

/* The integrator of a mode, created on first use. */
static hes_status ensure_ode(hes_system *sys, hes_mode_ws *ws)
{
    if (ws->ode.cvode)
        return HES_OK;
    const hes_model *m = sys->model;
    int *dirs = malloc(sizeof(int) * (size_t)(ws->n_roots > 0 ? ws->n_roots : 1));
    if (!dirs)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    for (int r = 0; r < ws->n_roots; r++)
        dirs[r] = m->transitions[ws->root_tr[r]].direction;
    hes__ode_spec spec = { m->integrator == HES_BDF, cv_rhs, cv_jac, ws->n_roots, cv_root,
                           dirs, cv_sens, ws, cv_error_handler, sys, HES__STEP_CHUNK };
    int rc = hes__ode_create(&ws->ode, sys->ctx, ws->n, &spec);
    free(dirs);
    if (rc != 0) {
        hes__ode_free(&ws->ode);
        return hes__fail(sys, HES_ENOMEM, "cannot set up the integrator (CVODES) of mode '%s' "
                         "(dimension %d): out of memory%s%s", m->modes[ws->mode].name, ws->n,
                         sys->cvode_msg[0] ? " or " : "", sys->cvode_msg);
    }
    return HES_OK;
}

hes_status hes__cv_start(hes_system *sys, int mode, double tm, const double *x, int sens)
{
    hes_mode_ws *ws = &sys->ws[mode];
    sys->cb_status = HES_OK;
    sys->cvode_msg[0] = '\0';
    hes_status st = ensure_ode(sys, ws);
    if (st != HES_OK)
        return st;
    int rc = hes__ode_start(&ws->ode, tm, x, sys->set.rtol, sys->set.atol, sens, sys->work);
    if (rc == -1)
        return hes__fail(sys, HES_ESOLVER, "CVODES could not start mode '%s': %s",
                         sys->model->modes[mode].name, sys->cvode_msg);
    if (rc == -2)
        return hes__fail(sys, HES_ESOLVER, "CVODES could not start sensitivities: %s",
                         sys->cvode_msg);
    return HES_OK;
}

hes_status hes__cv_get_sens(hes_system *sys, int mode, double *A)
{
    if (hes__ode_get_sens(&sys->ws[mode].ode, A) != 0)
        return hes__fail(sys, HES_ESOLVER, "CVODES could not return sensitivities: %s",
                         sys->cvode_msg);
    return HES_OK;
}

void hes__budget_start(hes_system *sys)
{
    sys->deadline = hes__monotonic_seconds() + sys->set.max_wall_time;
}

hes_status hes__cv_budget(hes_system *sys, int mode, double t)
{
    hes_mode_ws *ws = &sys->ws[mode];
    long steps = 0;
    sunrealtype h = 0;
    CVodeGetNumSteps(ws->ode.cvode, &steps);
    CVodeGetLastStep(ws->ode.cvode, &h);
    if (steps >= sys->set.max_steps)
        return hes__fail(sys, HES_ESOLVER, "the integrator took %ld steps in mode '%s' up to "
                         "model time %.10g (last step %.3g) without reaching an event: the "
                         "motion is too fast or the state too large for the tolerances "
                         "(hes_settings.max_steps = %d)", steps, sys->model->modes[mode].name,
                         t, (double)h, sys->set.max_steps);
    if (hes__monotonic_seconds() > sys->deadline)
        return hes__fail(sys, HES_ESOLVER, "the simulation exceeded its wall-time budget of "
                         "%g s (hes_settings.max_wall_time) in mode '%s' at model time %.10g",
                         sys->set.max_wall_time, sys->model->modes[mode].name, t);
    return HES_OK;
}
