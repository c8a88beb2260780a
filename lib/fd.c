/*
 * fd.c - central finite differences: the fallback for Jacobians a model does
 * not supply, and the independent path that every analytic derivative is
 * checked against (hes_model_check_derivatives, hes_return_map_fd).
 *
 * Step h_j = cbrt(eps) * max(1, |x_j|) balances the O(h^2) truncation error
 * against the O(eps/h) rounding error of central differences.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hes_internal.h"

double hes__fd_step(double v)
{
    return cbrt(DBL_EPSILON) * fmax(1.0, fabs(v));
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

void hes__matmul(int m, int k, int n, const double *a, const double *b, double *c)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double s = 0.0;
            for (int l = 0; l < k; l++)
                s += a[i + (size_t)l * m] * b[l + (size_t)j * k];
            c[i + (size_t)j * m] = s;
        }
}

int hes__all_finite(const double *v, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

hes_status hes_return_map_fd(hes_system *sys, const hes_orbit *orbit, double *out)
{
    int n = orbit->n;
    double *buf = malloc(sizeof(double) * 3 * (size_t)n);
    if (!buf)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    double *x = buf, *rp = buf + n, *rm = buf + 2 * n;
    hes_status st = HES_OK;
    for (int j = 0; j < n && st == HES_OK; j++) {
        double h = sys->set.fd_step * fmax(1.0, fabs(orbit->x0[j]));
        memcpy(x, orbit->x0, sizeof(double) * (size_t)n);
        x[j] = orbit->x0[j] + h;
        if ((st = hes_orbit_return_map(sys, x, rp)) != HES_OK)
            break;
        x[j] = orbit->x0[j] - h;
        if ((st = hes_orbit_return_map(sys, x, rm)) != HES_OK)
            break;
        for (int i = 0; i < n; i++)
            out[i + (size_t)j * n] = (rp[i] - rm[i]) / (2 * h);
    }
    free(buf);
    return st;
}
