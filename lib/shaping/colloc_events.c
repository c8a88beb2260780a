/*
 * colloc_events.c - the event, reset and anchor constraints of the
 * collocation, and the assembly of every equality constraint (the defects
 * are colloc_defects.c).  At the end of phase i (last node X_i,N-1, model
 * time t_end = t0_i + T_i, transition tr_i):
 *
 *   event   g_i(t_end, X_i,N-1) + p_i = 0      (p_i the offset of a virtual
 *                                               event, 0 for a physical one)
 *   reset   X_i+1,0 - R_i(t_end, X_i,N-1) = 0  (R the identity for a virtual
 *                                               event; i+1 wraps to 0: the
 *                                               periodicity of the orbit)
 *   anchor  X_0,0[j] - x*_j = 0                (every residual component j of
 *                                               the orbit spec that is not a
 *                                               free state, x* its guess)
 *
 * with the Jacobian by the chain rule: dg/dX = Dxg, dg/dT_j = Dtg for the
 * durations on the clock of phase i (t_end depends on them), dR/dX = DxR,
 * dR/dT_j = DtR, and the parameter columns by central differences of the
 * guard and reset callbacks (hes__fd_step).  Row order: for each phase its
 * defects, its event, its reset; then the anchors (core paper Sec. III-E,
 * problem (8)).
 */
#include <assert.h>
#include <string.h>

#include "shaping/colloc_internal.h"

static hes_status guard_eval(hes_system *sys, int tr, double t, const double *x, double *out)
{
    return hes__guard(sys, tr, t, x, out);
}

/* J[row, col] in a column-major nc x nv matrix */
#define JAC(r, col) jac[(size_t)(r) + (size_t)(col) * (size_t)nc]

/* The event row and the reset rows at the end of phase i from `row` on;
 * returns the next row in *next. */
static hes_status event_rows(hes_colloc *c, const double *z, int i, int row, double *cv,
                             double *jac, int *next)
{
    hes_system *sys = c->sys;
    int P = c->n_phases, nc = c->nc, nm = sys->nmax;
    int n = c->dim[i], tr = c->tr[i], N = c->nn[i];
    double T = z[c->toff[i]], t0 = hes__colloc_phase_t0(c, z, i);
    const double *X = z + c->xoff[i];
    double *tmp = c->work, *a = tmp + nm, *b = a + nm, *R = b + nm, *gx = R + nm, *DR = gx + nm;
    hes_status st = HES_OK;
    assert((size_t)(DR + (size_t)nm * nm - c->work) <= c->work_len);
    assert(row >= 0 && row + 1 + c->dim[(i + 1) % P] <= nc);
    assert(!jac || (c->xoff[i] + N * n <= c->toff[i] && c->poff + c->n_fp <= c->nv));
    /* event: g(t_end, X_N-1) (+ p) = 0 */
    const double *xe = X + (size_t)(N - 1) * n;
    double te = t0 + T, g;
    hes__colloc_set_inputs(c, z, i, N - 1, 0);
    if ((st = hes__guard(sys, tr, te, xe, &g)) != HES_OK)
        return st;
    cv[row] = g + (c->virt[i] ? z[c->voff[i]] : 0.0);
    if (jac) {
        double gt;
        if ((st = hes__guard_dx(sys, tr, te, xe, gx)) != HES_OK ||
            (st = hes__guard_dt(sys, tr, te, xe, &gt)) != HES_OK)
            return st;
        for (int r = 0; r < n; r++)
            JAC(row, c->xoff[i] + (N - 1) * n + r) = gx[r];
        for (int j = c->clock_start[i]; j <= i; j++)
            JAC(row, c->toff[j]) += gt;
        for (int q = 0; q < c->n_fp && st == HES_OK; q++)
            st = hes__colloc_param_derivative(sys, guard_eval, tr, c->pidx[q], te, xe, 1, &JAC(row, c->poff + q), tmp);
        if (c->virt[i])
            JAC(row, c->voff[i]) = 1.0;
    }
    row++;
    /* reset: X_next,0 - R(t_end, X_N-1) = 0 */
    int in = (i + 1) % P, nn = c->dim[in];
    const double *xn = z + c->xoff[in];
    if (c->virt[i]) {
        for (int r = 0; r < nn; r++) {
            cv[row + r] = xn[r] - xe[r];
            if (jac) {
                JAC(row + r, c->xoff[in] + r) += 1.0;
                JAC(row + r, c->xoff[i] + (N - 1) * n + r) -= 1.0;
            }
        }
        *next = row + nn;
        return HES_OK;
    }
    if ((st = hes__reset(sys, tr, te, xe, R)) != HES_OK)
        return st;
    for (int r = 0; r < nn; r++)
        cv[row + r] = xn[r] - R[r];
    if (jac) {
        if ((st = hes__reset_dx(sys, tr, te, xe, DR)) != HES_OK ||
            (st = hes__reset_dt(sys, tr, te, xe, a)) != HES_OK)
            return st;
        for (int r = 0; r < nn; r++) {
            JAC(row + r, c->xoff[in] + r) += 1.0;
            for (int cc = 0; cc < n; cc++)
                JAC(row + r, c->xoff[i] + (N - 1) * n + cc) -= DR[r + (size_t)cc * nn];
            for (int j = c->clock_start[i]; j <= i; j++)
                JAC(row + r, c->toff[j]) -= a[r];
        }
        for (int q = 0; q < c->n_fp && st == HES_OK; q++) {
            st = hes__colloc_param_derivative(sys, hes__reset, tr, c->pidx[q], te, xe, nn, b, tmp);
            for (int r = 0; st == HES_OK && r < nn; r++)
                JAC(row + r, c->poff + q) = -b[r];
        }
    }
    row += nn;
    *next = row;
    return st;
}

hes_status hes__colloc_constraints(hes_colloc *c, const double *z, double *cv, double *jac)
{
    hes__colloc_memo_clear(&c->ws);
    int P = c->n_phases, nc = c->nc, row = 0;
    hes_status st = HES_OK;
    hes__colloc_put_params(c, z);
    if (jac)
        memset(jac, 0, sizeof(double) * (size_t)nc * (size_t)c->nv);
    for (int i = 0; i < P && st == HES_OK; i++) {
        if ((st = hes__colloc_defects(c, z, i, row, cv, jac, &row)) == HES_OK)
            st = event_rows(c, z, i, row, cv, jac, &row);
    }
    assert(st != HES_OK || row == nc - c->n_anchor);
    for (int a_i = 0; st == HES_OK && a_i < c->n_anchor; a_i++, row++) {
        int j = c->anchor[a_i];
        assert(j >= 0 && j < c->dim[0]);
        cv[row] = z[c->xoff[0] + j] - c->anchor_value[j];
        if (jac)
            JAC(row, c->xoff[0] + j) = 1.0;
    }
    assert(st != HES_OK || row == nc);
    return st;
}
#undef JAC
