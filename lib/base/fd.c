/*
 * fd.c - central finite differences: the one step rule of the library and the
 * differences of a vector function in x and in t, the fallback for
 * Jacobians a model does not supply and the independent path that every
 * analytic derivative is checked against (hes_model_check_derivatives).
 *
 * Step h_j = cbrt(eps) * max(1, |x_j|) balances the O(h^2) truncation error
 * against the O(eps/h) rounding error of central differences; the forward
 * step sqrt(eps) * max(1, |x_j|) balances the O(h) truncation error of a
 * one-sided difference against its O(eps/h) rounding error (both errors
 * about sqrt(eps) relative: Nocedal & Wright, Numerical Optimization, 8.1).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

double hes__fd_step(double v)
{
    return cbrt(DBL_EPSILON) * fmax(1.0, fabs(v));
}

double hes__fd_step_forward(double v)
{
    return sqrt(DBL_EPSILON) * fmax(1.0, fabs(v));
}

int hes__fd_dx(hes__vec_fn f, void *ctx, double t, const double *x, int n_in,
               int n_out, double *jac, double *work)
{
    double *fp = work, *fm = work + n_out, *xx = work + 2 * n_out;
    memcpy(xx, x, (size_t)n_in * sizeof *xx);
    for (int j = 0; j < n_in; j++) {
        double h = hes__fd_step(x[j]);
        volatile double xp = x[j] + h, xm = x[j] - h; /* exact representable step */
        int rc;
        xx[j] = xp;
        if ((rc = f(ctx, t, xx, fp)) != 0)
            return rc;
        xx[j] = xm;
        if ((rc = f(ctx, t, xx, fm)) != 0)
            return rc;
        xx[j] = x[j];
        for (int i = 0; i < n_out; i++)
            jac[i + (size_t)j * n_out] = (fp[i] - fm[i]) / (xp - xm);
    }
    return 0;
}

int hes__fd_dt(hes__vec_fn f, void *ctx, double t, const double *x, int n_in,
               int n_out, double *out, double *work)
{
    double *fp = work, *fm = work + n_out;
    double h = hes__fd_step(t);
    volatile double tp = t + h, tm = t - h;
    int rc;
    (void)n_in;
    if ((rc = f(ctx, tp, x, fp)) != 0)
        return rc;
    if ((rc = f(ctx, tm, x, fm)) != 0)
        return rc;
    for (int i = 0; i < n_out; i++)
        out[i] = (fp[i] - fm[i]) / (tp - tm);
    return 0;
}
