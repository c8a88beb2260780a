/*
 * variational.c - variational matrices A = d phi / d x0 of one continuous
 * phase, from forward sensitivities with respect to the initial state
 * (CVODES's, or the explicit integrator's variational tail).
 * The sensitivity equations are s_j' = (dF/dx)(t, x(t)) s_j, s_j(t0) = e_j;
 * we supply their right-hand side ourselves (the model's Jacobian, or central
 * differences of F), since CVODES's difference-quotient option perturbs
 * problem parameters, not initial states (lib/README.md, section 4); that
 * right-hand side and the integrator's start are in integrator.c.
 */
#include <math.h>
#include <string.h>

#include "hybrid/hybrid.h"

hes_status hes_variational(hes_system *sys, int mode, double tm0, double duration,
                           const double *x0, double *x1, double *A)
{
    if (sys && sys->kind != HES_KIND_HYBRID)
        return hes__need_hybrid(sys, "hes_variational");
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
    hes_status st = hes__phase_start(sys, mode, tm0, x0, A != NULL);
    if (st != HES_OK)
        return st;
    double tret = tm0;
    int root;
    hes__budget_start(sys);
    if ((st = hes__phase_run(sys, mode, tm0 + duration, &tret, &root)) != HES_OK)
        return st;
    const double *y = hes__phase_state(sys, mode);
    if (!hes__all_finite(y, n))
        return hes__fail(sys, HES_ENONFINITE, "state of mode '%s' not finite at t = %.17g",
                         sys->model->modes[mode].name, tret);
    if (x1)
        memcpy(x1, y, (size_t)n * sizeof *x1);
    return A ? hes__phase_sens(sys, mode, A) : HES_OK;
}
