/*
 * colloc_defects.c - the Hermite-Simpson defects of the collocation
 * (collocation.c has the layout) and their exact Jacobian.  In compressed
 * form (Betts, Practical Methods for Optimal Control, 2nd ed., 2010,
 * Sec. 4.5; Kelly, SIAM Review 59(4), 2017, Sec. 4), on interval k of a
 * phase with step h = T / (N - 1) and node times t_k = t0 + k h:
 *
 *   d_k = X_k+1 - X_k - h/6 (f_k + 4 f_m + f_k+1),
 *   x_m = (X_k + X_k+1)/2 + h/8 (f_k - f_k+1),   u_m = (u_k + u_k+1)/2,
 *
 * f_k = F(t_k, X_k, u_k), f_m = F(t_k + h/2, x_m, u_m).  The Jacobian is the
 * chain rule through the model's Jacobians: the state blocks
 *
 *   dd/dX_k   = -I - h/6 (J_k + 4 J_m (I/2 + h/8 J_k)),
 *   dd/dX_k+1 =  I - h/6 (J_k+1 + 4 J_m (I/2 - h/8 J_k+1)),
 *
 * the derivative in a parameter or input p entering the field at node k
 * (weight w_k), the midpoint (w_m) and node k+1 (w_k1), field derivatives
 * p_k, p_m, p_k1:
 *
 *   dd/dp = -h/6 (w_k p_k + 4 (J_m h/8 (w_k p_k - w_k1 p_k1) + w_m p_m) + w_k1 p_k1),
 *
 * and in the durations through h and the node times (T_i through h and
 * t_k = t0 + k h, the earlier durations on the same clock through t0).
 * Derivatives of the model in time, parameters and inputs are central
 * differences of its callbacks at the point (hes__fd_step).
 */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "shaping/colloc_internal.h"

/* d/dt and d/dp_j of the vector field by central differences */
static hes_status field_dt(hes_system *sys, int mode, double t, const double *x, double *out,
                           double *tmp)
{
    int n = sys->model->modes[mode].dim;
    double h = hes__fd_step(t);
    hes_status st;
    if ((st = hes__field(sys, mode, t + h, x, out)) != HES_OK ||
        (st = hes__field(sys, mode, t - h, x, tmp)) != HES_OK)
        return st;
    for (int i = 0; i < n; i++)
        out[i] = (out[i] - tmp[i]) / (2 * h);
    return HES_OK;
}

/* Applies fn(sys, index, t, x, out) at p_j + h and p_j - h: out = derivative. */
hes_status hes__colloc_param_derivative(hes_system *sys, hes__colloc_model_fn fn, int index,
                                        int pj, double t, const double *x, int n_out,
                                        double *out, double *tmp)
{
    double p = sys->p[pj], h = hes__fd_step(p);
    hes_status st;
    sys->p[pj] = p + h;
    st = fn(sys, index, t, x, out);
    sys->p[pj] = p - h;
    if (st == HES_OK)
        st = fn(sys, index, t, x, tmp);
    sys->p[pj] = p;
    for (int i = 0; st == HES_OK && i < n_out; i++)
        out[i] = (out[i] - tmp[i]) / (2 * h);
    return st;
}

/* The state blocks of a Hermite-Simpson defect d = X_k+1 - X_k - h/6 (f_k +
 * 4 f_m + f_k+1) with x_m = (X_k + X_k+1)/2 + h/8 (f_k - f_k+1):
 *   D0 = dd/dX_k   = -I - h/6 (J_k + 4 J_m (I/2 + h/8 J_k)),
 *   D1 = dd/dX_k+1 =  I - h/6 (J_k+1 + 4 J_m (I/2 - h/8 J_k+1)),
 * from the field Jacobians at the nodes and the midpoint (all n x n); Mx and
 * E are n x n scratch. */
void hes__colloc_defect_blocks(int n, double h, const double *Jk, const double *Jk1,
                               const double *Jm, double *Mx, double *E, double *D0, double *D1)
{
    for (int side = 0; side < 2; side++) {
        const double *Js = side ? Jk1 : Jk;
        double sg = side ? -1.0 : 1.0, *Dd = side ? D1 : D0;
        for (int cc = 0; cc < n; cc++)
            for (int r = 0; r < n; r++)
                Mx[r + (size_t)cc * n] = 0.5 * (r == cc) + sg * h / 8 * Js[r + (size_t)cc * n];
        hes__matmul(n, n, n, Jm, Mx, E);
        for (int cc = 0; cc < n; cc++)
            for (int r = 0; r < n; r++)
                Dd[r + (size_t)cc * n] = (side ? 1.0 : -1.0) * (r == cc) -
                                         h / 6 * (Js[r + (size_t)cc * n] + 4 * E[r + (size_t)cc * n]);
    }
}

/* The derivative of a defect in a parameter or input p entering the field
 * at node k (weight wk), the midpoint (wm) and node k+1 (wk1), where the
 * field's p-derivatives are pk, pm, pk1:
 *   dd/dp = -h/6 (wk pk + 4 (J_m h/8 (wk pk - wk1 pk1) + wm pm) + wk1 pk1). */
static void defect_param_column(int n, double h, const double *Jm, const double *pk,
                                const double *pm, const double *pk1, double wk, double wm,
                                double wk1, double *a, double *b, double *out)
{
    for (int r = 0; r < n; r++)
        a[r] = h / 8 * (wk * pk[r] - wk1 * pk1[r]);
    hes__matmul(n, n, 1, Jm, a, b);
    for (int r = 0; r < n; r++)
        out[r] = -h / 6 * (wk * pk[r] + 4 * (b[r] + wm * pm[r]) + wk1 * pk1[r]);
}

/* J[row, col] in a column-major nc x nv matrix */
#define JAC(r, col) jac[(size_t)(r) + (size_t)(col) * (size_t)nc]

hes_status hes__colloc_defects(hes_colloc *c, const double *z, int i, int row, double *cv,
                               double *jac, int *next)
{
    hes_system *sys = c->sys;
    int nc = c->nc, nm = sys->nmax;
    int n = c->dim[i], md = c->mode[i], N = c->nn[i];
    hes_status st = HES_OK;
    double *f = c->work;                                   /* nodes x nm field values */
    double *ft = f + (size_t)c->max_nodes * nm;            /* nodes x nm d/dt */
    double *fm = ft + (size_t)c->max_nodes * nm, *xm = fm + nm, *fmt = xm + nm, *tmp = fmt + nm,
           *a = tmp + nm, *b = a + nm, *dv = b + nm, *fp = dv + nm, *fpm = fp + 2 * (size_t)nm;
    double *Jk = fpm + nm, *Jk1 = Jk + (size_t)nm * nm, *Jm = Jk1 + (size_t)nm * nm,
           *Mx = Jm + (size_t)nm * nm, *D = Mx + (size_t)nm * nm, *DR = D + (size_t)nm * nm,
           *E2 = DR + (size_t)nm * nm;
    assert(i >= 0 && i < c->n_phases && N <= c->max_nodes && n <= nm);
    assert((size_t)(E2 + (size_t)nm * nm - c->work) <= c->work_len);
    assert(row >= 0 && row + (N - 1) * n <= nc);
    double T = z[c->toff[i]], h = T / (N - 1), t0 = hes__colloc_phase_t0(c, z, i);
    const double *X = z + c->xoff[i];
    for (int k = 0; k < N && st == HES_OK; k++) {
        hes__colloc_set_inputs(c, z, i, k, 0);
        st = hes__field(sys, md, t0 + k * h, X + (size_t)k * n, f + (size_t)k * nm);
        if (st == HES_OK && jac)
            st = field_dt(sys, md, t0 + k * h, X + (size_t)k * n, ft + (size_t)k * nm, tmp);
    }
    assert(!jac || c->xoff[i] + N * n <= c->toff[i]);
    for (int k = 0; k + 1 < N && st == HES_OK; k++, row += n) {
        const double *xk = X + (size_t)k * n, *xk1 = xk + n, *fk = f + (size_t)k * nm,
                     *fk1 = fk + nm;
        double tm = t0 + (k + 0.5) * h;
        for (int r = 0; r < n; r++)
            xm[r] = 0.5 * (xk[r] + xk1[r]) + h / 8 * (fk[r] - fk1[r]);
        hes__colloc_set_inputs(c, z, i, k, 1);
        if ((st = hes__colloc_field(c, md, tm, xm, fm, NULL)) != HES_OK)
            break;
        for (int r = 0; r < n; r++)
            cv[row + r] = xk1[r] - xk[r] - h / 6 * (fk[r] + 4 * fm[r] + fk1[r]);
        if (!jac)
            continue;
        if ((st = hes__colloc_field(c, md, tm, xm, NULL, Jm)) != HES_OK ||
            (st = field_dt(sys, md, tm, xm, fmt, tmp)) != HES_OK)
            break;
        hes__colloc_set_inputs(c, z, i, k, 0);
        if ((st = hes__colloc_field(c, md, t0 + k * h, xk, NULL, Jk)) != HES_OK)
            break;
        hes__colloc_set_inputs(c, z, i, k + 1, 0);
        if ((st = hes__colloc_field(c, md, t0 + (k + 1) * h, xk1, NULL, Jk1)) != HES_OK)
            break;
        hes__colloc_defect_blocks(n, h, Jk, Jk1, Jm, Mx, D, DR, E2);
        for (int side = 0; side < 2; side++) {
            const double *Dd = side ? E2 : DR;
            int col0 = c->xoff[i] + (k + side) * n;
            for (int cc = 0; cc < n; cc++)
                for (int r = 0; r < n; r++)
                    JAC(row + r, col0 + cc) = Dd[r + (size_t)cc * n];
        }
        /* time: t_k = t0 + k h; d/dT_i through h and t, d/dT_j (j earlier,
         * same clock) through t0 */
        double dh = 1.0 / (N - 1);
        for (int which = 0; which < 2; which++) {
            /* which 0: d/dT_i (dt_k/dT = k dh), 1: d/dt0 (dt/dt0 = 1) */
            double ck = which ? 1.0 : k * dh, ck1 = which ? 1.0 : (k + 1) * dh,
                   cm = which ? 1.0 : (k + 0.5) * dh, dhh = which ? 0.0 : dh;
            for (int r = 0; r < n; r++) { /* dx_m */
                a[r] = dhh / 8 * (fk[r] - fk1[r]) +
                       h / 8 * (ft[(size_t)k * nm + r] * ck - ft[(size_t)(k + 1) * nm + r] * ck1);
            }
            hes__matmul(n, n, 1, Jm, a, b); /* J_m dx_m */
            for (int r = 0; r < n; r++) {
                double dfm = b[r] + fmt[r] * cm;
                dv[r] = -dhh / 6 * (fk[r] + 4 * fm[r] + fk1[r]) -
                        h / 6 * (ft[(size_t)k * nm + r] * ck + 4 * dfm + ft[(size_t)(k + 1) * nm + r] * ck1);
            }
            if (which == 0) {
                for (int r = 0; r < n; r++)
                    JAC(row + r, c->toff[i]) += dv[r];
            } else {
                for (int j = c->clock_start[i]; j < i; j++)
                    for (int r = 0; r < n; r++)
                        JAC(row + r, c->toff[j]) += dv[r];
            }
        }
        /* parameters (solved, design), then inputs: the field's
         * derivatives at node k, the midpoint and node k+1 */
        for (int q = 0; q < c->n_fp + c->n_in && st == HES_OK; q++) {
            int pj = q < c->n_fp ? c->pidx[q] : c->in_idx[q - c->n_fp];
            double *pk = fp, *pk1 = fp + nm;
            hes__colloc_set_inputs(c, z, i, k, 0);
            st = hes__colloc_param_derivative(sys, hes__field, md, pj, t0 + k * h, xk, n, pk, tmp);
            hes__colloc_set_inputs(c, z, i, k + 1, 0);
            if (st == HES_OK)
                st = hes__colloc_param_derivative(sys, hes__field, md, pj, t0 + (k + 1) * h, xk1, n, pk1, tmp);
            hes__colloc_set_inputs(c, z, i, k, 1);
            if (st == HES_OK)
                st = hes__colloc_param_derivative(sys, hes__field, md, pj, tm, xm, n, fpm, tmp);
            if (st != HES_OK)
                break;
            if (q < c->n_fp) {
                defect_param_column(n, h, Jm, pk, fpm, pk1, 1, 1, 1, a, b, dv);
                for (int r = 0; r < n; r++)
                    JAC(row + r, c->poff + q) = dv[r];
                continue;
            }
            int u = q - c->n_fp;
            for (int side = 0; side < 2; side++) {
                int rowu = c->urows[i] == 1 ? 0 : k + side;
                defect_param_column(n, h, Jm, pk, fpm, pk1, side ? 0 : 1, 0.5, side ? 1 : 0,
                                    a, b, dv);
                for (int r = 0; r < n; r++)
                    JAC(row + r, c->uoff[i] + rowu * c->n_in + u) += dv[r];
            }
        }
    }
    *next = row;
    return st;
}
#undef JAC
