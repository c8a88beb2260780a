/*
 * integrator.c - the integrator of each mode of a system, created on the
 * mode's first integration with the callbacks below, which evaluate the
 * model through eval.c, and restarted at each phase: a stepper
 * (ode/stepper.h) of the model's step type, CVODES with Adams or BDF or,
 * for models that choose HES_RK8, the explicit Runge-Kutta 7(8) pair; and
 * the budgets of an integration: steps per phase and wall-clock time per
 * simulation call.  simulate.c and variational.c see one interface,
 * hes__phase_*.
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

#include "hybrid/hybrid.h"

/* ------------------------------------------------------ CVODES callbacks */

/* The first failure inside a callback is kept on the system; CVODES sees -1. */
static int record(hes_system *sys, hes_status st)
{
    if (sys->cb_status == HES_OK)
        sys->cb_status = st;
    return -1;
}

/* The mode's field and its Jacobian, for ode/cvodes.c's callbacks. */
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

/* The mode's root functions: disarmed guards return a constant, so the
 * root finder never sees them. */
static int roots(void *d, double t, const double *y, double *g)
{
    hes_mode_ws *ws = d;
    for (int r = 0; r < ws->n_roots; r++) {
        int k = ws->root_tr[r];
        g[r] = 1.0;
        if (ws->sys->armed[k]) {
            hes_status st = hes__guard(ws->sys, k, t, y, &g[r]);
            if (st != HES_OK)
                return record(ws->sys, st);
            if (ws->sys->armed[k] == HES__ARMED_AT_ZERO) {
                double ys = 0;
                for (int i = 0; i < ws->n; i++)
                    ys = fmax(ys, fabs(y[i]));
                if (g[r] > HES__AT_ZERO * (1.0 + ys))
                    ws->sys->armed[k] = 1;    /* it has left zero: watched from now on */
                else
                    g[r] = 1.0;
            }
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

/* The step type of the model's integrator (ode/stepper.h). */
static const hes__stepper_type *step_type(const hes_system *sys)
{
    switch (sys->model->integrator) {
    case HES_BDF: return &hes__step_bdf;
    case HES_RK8: return &hes__step_rk78;
    case HES_DOPRI5: return &hes__step_dopri5;
    default:      return &hes__step_adams;
    }
}

/* The integrator of a mode, created on first use. */
static hes_status ensure_ode(hes_system *sys, hes_mode_ws *ws)
{
    if (ws->step.type)
        return HES_OK;
    const hes_model *m = sys->model;
    int *dirs = malloc(sizeof(int) * (size_t)(ws->n_roots > 0 ? ws->n_roots : 1));
    if (!dirs)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    for (int r = 0; r < ws->n_roots; r++)
        dirs[r] = m->transitions[ws->root_tr[r]].direction;
    hes__stepper_spec spec = { ws->n, field, field_dx, roots, ws->jac, ws->n_roots, dirs, ws,
                               sys->ctx, cv_error_handler, sys, HES__STEP_CHUNK };
    const hes__stepper_type *type = step_type(sys);
    int rc = hes__stepper_create(&ws->step, type, &spec);
    free(dirs);
    ws->step.spec.dirs = NULL;   /* read at creation only */
    if (rc != 0) {
        hes__stepper_free(&ws->step);
        return hes__fail(sys, HES_ENOMEM, "cannot set up the integrator (%s) of mode '%s' "
                         "(dimension %d): out of memory%s%s", type->name,
                         m->modes[ws->mode].name, ws->n, sys->cvode_msg[0] ? " or " : "",
                         sys->cvode_msg);
    }
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
    /* the sensitivities start from the identity, or the mode's projector onto
       the perturbations its flow is differentiable along */
    double *S0 = NULL;
    if (sens && sys->model->modes[mode].consistent) {
        size_t n = (size_t)ws->n;
        if (!(S0 = malloc(sizeof(double) * n * n)))
            return hes__fail(sys, HES_ENOMEM, "out of memory");
        if ((st = hes__consistent(sys, mode, tm, x, S0)) != HES_OK) {
            free(S0);
            return st;
        }
        if (hes__is_identity(S0, ws->n)) {   /* the usual start */
            free(S0);
            S0 = NULL;
        }
    }
    int rc = ws->step.type->start(&ws->step, tm, x, sys->set.rtol, sys->set.atol, sens, S0,
                                  sys->work);
    free(S0);
    if (rc != 0 && sys->cb_status != HES_OK)
        return sys->cb_status;
    if (rc != 0)
        return hes__fail(sys, HES_ESOLVER, "the %s integrator could not start %s of mode "
                         "'%s'%s%s", ws->step.type->name, rc == -2 ? "the sensitivities"
                         : "the state", sys->model->modes[mode].name,
                         sys->cvode_msg[0] ? ": " : "", sys->cvode_msg);
    return HES_OK;
}

const double *hes__phase_state(const hes_system *sys, int mode)
{
    const hes_mode_ws *ws = &sys->ws[mode];
    return ws->step.type->state(&ws->step);
}

hes_status hes__phase_sens(hes_system *sys, int mode, double *A)
{
    hes_mode_ws *ws = &sys->ws[mode];
    if (ws->step.type->sens(&ws->step, A) != 0)
        return hes__fail(sys, HES_ESOLVER, "the %s integrator could not return the "
                         "sensitivities: %s", ws->step.type->name, sys->cvode_msg);
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
    ws->step.type->stats(&ws->step, &steps, &h);
    if (steps >= sys->set.max_steps)
        return hes__fail(sys, HES_ESOLVER, "the integrator took %ld steps in mode '%s' up to "
                         "model time %.10g (last step %.3g) without reaching an event: the "
                         "motion is too fast or the state too large for the tolerances%s "
                         "(hes_settings.max_steps = %d)", steps, sys->model->modes[mode].name,
                         t, h, ws->step.type->stiff_hint, sys->set.max_steps);
    if (hes__monotonic_seconds() > sys->deadline)
        return hes__fail(sys, HES_ESOLVER, "the simulation exceeded its wall-time budget of "
                         "%g s (hes_settings.max_wall_time) in mode '%s' at model time %.10g",
                         sys->set.max_wall_time, sys->model->modes[mode].name, t);
    return HES_OK;
}

static hes_status phase_run(hes_system *sys, int mode, double tstop, double *tret, int *root)
{
    hes_mode_ws *ws = &sys->ws[mode];
    hes_status st = budget(sys, mode, *tret);
    if (st != HES_OK)
        return st;
    for (;;) {
        int rc = ws->step.type->advance(&ws->step, tstop, tret);
        /* a chunk of steps done (HES__STEP_CHUNK): go on within the budgets */
        if (rc == HES__ADV_CHUNK && sys->cb_status == HES_OK) {
            if ((st = budget(sys, mode, *tret)) != HES_OK)
                return st;
            continue;
        }
        if (rc == HES__ADV_ROOT) {
            ws->step.type->roots(&ws->step, ws->rootsfound);
            *root = 1;
            return HES_OK;
        }
        if (rc == HES__ADV_TSTOP) {
            *root = 0;
            return HES_OK;
        }
        if (sys->cb_status != HES_OK)
            return sys->cb_status;
        char why[160];
        ws->step.type->why(&ws->step, why, sizeof why);
        return hes__fail(sys, HES_ESOLVER, "the %s integrator failed in mode '%s' at model "
                         "time %.17g (%s)%s%s", ws->step.type->name,
                         sys->model->modes[mode].name, *tret, why,
                         sys->cvode_msg[0] ? ": " : "", sys->cvode_msg);
    }
}

/* The phase with the model's scratch state held for its run (hes_model.hold). */
hes_status hes__phase_run(hes_system *sys, int mode, double tstop, double *tret, int *root)
{
    const hes_model *m = sys->model;
    void *held = m->hold && m->unhold ? m->hold(m->data) : NULL;
    hes_status st = phase_run(sys, mode, tstop, tret, root);
    if (m->hold && m->unhold)
        m->unhold(held);
    return st;
}
