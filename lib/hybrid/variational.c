/*
 * variational.c - variational matrices A = d phi / d x0 of one continuous
 * phase, from CVODES forward sensitivities with respect to the initial state.
 * The sensitivity equations are s_j' = (dF/dx)(t, x(t)) s_j, s_j(t0) = e_j;
 * we supply their right-hand side ourselves (the model's Jacobian, or central
 * differences of F), since CVODES's difference-quotient option perturbs
 * problem parameters, not initial states (DESIGN.md section 4).
 * Also the integrator's start (hes__cv_start) and its budgets: steps per
 * phase and wall-clock time per simulation call (hes__cv_budget).
 */
#include <math.h>
#include <string.h>
#include <time.h>

#include "hybrid/hybrid.h"

int hes__cv_sens(int Ns, sunrealtype t, N_Vector y, N_Vector ydot, N_Vector *yS,
                 N_Vector *ySdot, void *ud, N_Vector t1, N_Vector t2)
{
    hes_mode_ws *ws = ud;
    hes_system *sys = ws->sys;
    int n = ws->n;
    (void)ydot; (void)t1; (void)t2;
    hes_status st = hes__field_dx(sys, ws->mode, t, NV_DATA_S(y), ws->jac);
    if (st != HES_OK) {
        if (sys->cb_status == HES_OK)
            sys->cb_status = st;
        return -1;
    }
    for (int j = 0; j < Ns; j++)
        hes__matmul(n, n, 1, ws->jac, NV_DATA_S(yS[j]), NV_DATA_S(ySdot[j]));
    return 0;
}

static double monotonic_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void hes__budget_start(hes_system *sys)
{
    sys->deadline = monotonic_seconds() + sys->set.max_wall_time;
}

hes_status hes__cv_budget(hes_system *sys, int mode, double t)
{
    hes_mode_ws *ws = &sys->ws[mode];
    long steps = 0;
    sunrealtype h = 0;
    CVodeGetNumSteps(ws->cvode, &steps);
    CVodeGetLastStep(ws->cvode, &h);
    if (steps >= sys->set.max_steps)
        return hes__fail(sys, HES_ESOLVER, "the integrator took %ld steps in mode '%s' up to "
                         "model time %.10g (last step %.3g) without reaching an event: the "
                         "motion is too fast or the state too large for the tolerances "
                         "(hes_settings.max_steps = %d)", steps, sys->model->modes[mode].name,
                         t, (double)h, sys->set.max_steps);
    if (monotonic_seconds() > sys->deadline)
        return hes__fail(sys, HES_ESOLVER, "the simulation exceeded its wall-time budget of "
                         "%g s (hes_settings.max_wall_time) in mode '%s' at model time %.10g",
                         sys->set.max_wall_time, sys->model->modes[mode].name, t);
    return HES_OK;
}

hes_status hes__cv_start(hes_system *sys, int mode, double tm, const double *x, int sens)
{
    hes_mode_ws *ws = &sys->ws[mode];
    int n = ws->n;
    memcpy(NV_DATA_S(ws->y), x, (size_t)n * sizeof(double));
    sys->cb_status = HES_OK;
    sys->cvode_msg[0] = '\0';
    if (CVodeReInit(ws->cvode, tm, ws->y) != CV_SUCCESS ||
        CVodeSStolerances(ws->cvode, sys->set.rtol, sys->set.atol) != CV_SUCCESS)
        return hes__fail(sys, HES_ESOLVER, "CVODES could not start mode '%s': %s",
                         sys->model->modes[mode].name, sys->cvode_msg);
    if (sens) {
        for (int j = 0; j < n; j++) {
            N_VConst(0.0, ws->yS[j]);
            NV_Ith_S(ws->yS[j], j) = 1.0;
        }
        double *atolS = sys->work;
        for (int j = 0; j < n; j++)
            atolS[j] = sys->set.atol;
        if (CVodeSensReInit(ws->cvode, CV_SIMULTANEOUS, ws->yS) != CV_SUCCESS ||
            CVodeSensSStolerances(ws->cvode, sys->set.rtol, atolS) != CV_SUCCESS)
            return hes__fail(sys, HES_ESOLVER, "CVODES could not start sensitivities: %s",
                             sys->cvode_msg);
    } else if (CVodeSensToggleOff(ws->cvode) != CV_SUCCESS) {
        return hes__fail(sys, HES_ESOLVER, "CVODES: %s", sys->cvode_msg);
    }
    return HES_OK;
}

hes_status hes__cv_get_sens(hes_system *sys, int mode, double *A)
{
    hes_mode_ws *ws = &sys->ws[mode];
    sunrealtype t;
    if (CVodeGetSens(ws->cvode, &t, ws->yS) != CV_SUCCESS)
        return hes__fail(sys, HES_ESOLVER, "CVODES could not return sensitivities: %s",
                         sys->cvode_msg);
    for (int j = 0; j < ws->n; j++)
        memcpy(A + (size_t)j * ws->n, NV_DATA_S(ws->yS[j]), (size_t)ws->n * sizeof(double));
    return HES_OK;
}

hes_status hes_variational(hes_system *sys, int mode, double tm0, double duration,
                           const double *x0, double *x1, double *A)
{
    if (!sys || mode < 0 || mode >= sys->model->n_modes || !x0 || !isfinite(tm0) ||
        !isfinite(duration))
        return sys ? hes__fail(sys, HES_EINVAL, "hes_variational: invalid arguments") : HES_EINVAL;
    hes_mode_ws *ws = &sys->ws[mode];
    int n = ws->n;
    if (fabs(duration) <= 1e-14 * (1.0 + fabs(tm0))) {
        /* Too short for the integrator: first order in the duration. */
        if (A) {
            memset(A, 0, (size_t)n * n * sizeof *A);
            for (int i = 0; i < n; i++)
                A[i + (size_t)i * n] = 1.0;
        }
        if (x1) {
            hes_status st = hes__field(sys, mode, tm0, x0, x1);
            if (st != HES_OK)
                return st;
            for (int i = 0; i < n; i++)
                x1[i] = x0[i] + duration * x1[i];
        }
        return HES_OK;
    }
    memset(sys->armed, 0, (size_t)sys->model->n_transitions);
    hes_status st = hes__cv_start(sys, mode, tm0, x0, A != NULL);
    if (st != HES_OK)
        return st;
    double tout = tm0 + duration;
    sunrealtype tret;
    CVodeSetStopTime(ws->cvode, tout);
    hes__budget_start(sys);
    int flag;
    while ((flag = CVode(ws->cvode, tout, ws->y, &tret, CV_NORMAL)) == CV_TOO_MUCH_WORK &&
           sys->cb_status == HES_OK)
        if ((st = hes__cv_budget(sys, mode, tret)) != HES_OK)
            return st;
    if (flag < 0) {
        if (sys->cb_status != HES_OK)
            return sys->cb_status;
        return hes__fail(sys, HES_ESOLVER, "CVODES failed in mode '%s' at t = %.17g: %s",
                         sys->model->modes[mode].name, (double)tret, sys->cvode_msg);
    }
    if (x1)
        memcpy(x1, NV_DATA_S(ws->y), (size_t)n * sizeof *x1);
    if (!hes__all_finite(NV_DATA_S(ws->y), n))
        return hes__fail(sys, HES_ENONFINITE, "state of mode '%s' not finite at t = %.17g",
                         sys->model->modes[mode].name, (double)tret);
    return A ? hes__cv_get_sens(sys, mode, A) : HES_OK;
}
