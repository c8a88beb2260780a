/*
 * variational.c - variational matrices A = d phi / d x0 of one continuous
 * phase, from CVODES forward sensitivities with respect to the initial state.
 * The sensitivity equations are s_j' = (dF/dx)(t, x(t)) s_j, s_j(t0) = e_j;
 * we supply their right-hand side ourselves (the model's Jacobian, or central
 * differences of F), since CVODES's difference-quotient option perturbs
 * problem parameters, not initial states (DESIGN.md section 4); that
 * right-hand side and the integrator's start are in integrator.c.
 */
#include <math.h>
#include <string.h>

#include "hybrid/hybrid.h"

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
    CVodeSetStopTime(ws->ode.cvode, tout);
    hes__budget_start(sys);
    int flag;
    while ((flag = CVode(ws->ode.cvode, tout, ws->ode.y, &tret, CV_NORMAL)) == CV_TOO_MUCH_WORK &&
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
        memcpy(x1, NV_DATA_S(ws->ode.y), (size_t)n * sizeof *x1);
    if (!hes__all_finite(NV_DATA_S(ws->ode.y), n))
        return hes__fail(sys, HES_ENONFINITE, "state of mode '%s' not finite at t = %.17g",
                         sys->model->modes[mode].name, (double)tret);
    return A ? hes__cv_get_sens(sys, mode, A) : HES_OK;
}
