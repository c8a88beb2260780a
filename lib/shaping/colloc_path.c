/*
 * colloc_path.c - the inequality constraints c(z) >= 0 of the collocation
 * (NLopt takes them as -c <= 0, colloc_solve.c), in row order:
 *
 *   path      the model's path constraints (hes_trajopt_spec.path) at the
 *             nodes of every phase where they apply (hes__colloc_node_kind:
 *             not at the first node of a phase; at the node of a physical
 *             event only those flagged at_end);
 *   crossing  dir (Dtg + Dxg F) - r_min >= 0 at the end of every virtual
 *             sub-phase and every physical phase whose transition has a
 *             direction (dir = -1 for HES_DOWN, r_min the spec's
 *             min_crossing_rate or 1e-3): the event is crossed the right
 *             way, transversally;
 *   order     -dir (g(t_k, X_k) + p) >= 0 at nodes 0 .. N-2 of a sub-phase
 *             after a virtual event of the same physical phase
 *             (hes__colloc_order_checked): the end is the first crossing.
 *
 * Their Jacobian is by central differences of the model callbacks in the
 * states (and the inputs, for the crossing rate) at the point (hes__fd_step),
 * except the order constraints', which is exact (Dxg).
 */
#include <assert.h>
#include <string.h>

#include "shaping/colloc_internal.h"

/* Path constraints of the model at one state, those of a node of the
 * given kind: out[path_count] values. */
static hes_status path_eval(hes_colloc *c, int mode, int kind, double t, const double *x,
                            double *out)
{
    hes_system *sys = c->sys;
    int off = 0;
    for (int q = 0; q < c->spec->n_path; q++) {
        const hes_path_constraint *pc = &c->spec->path[q];
        if (pc->mode != mode || !(kind == 2 || pc->at_end))
            continue;
        int rc = pc->fn(t, x, sys->p, out + off, sys->model->modes[mode].data
                                                      ? sys->model->modes[mode].data
                                                      : sys->model->data);
        if (rc != 0 || !hes__all_finite(out + off, pc->n))
            return hes__fail(sys, HES_EMODEL, "path constraint '%s' failed at t = %g",
                             pc->names && pc->names[0] ? pc->names[0] : "?", t);
        off += pc->n;
    }
    return HES_OK;
}

/* The rate at which the event ending phase i crosses its guard, signed so
 * that it is positive in the transition's direction, at (x, inputs u). */
static hes_status crossing_rate(hes_colloc *c, const double *z, int i, const double *x,
                                double *rate)
{
    hes_system *sys = c->sys;
    int n = c->dim[i], tr = c->tr[i];
    double te = hes__colloc_phase_t0(c, z, i) + z[c->toff[i]], gt, *F = c->work, *gx = F + sys->nmax, d;
    hes_status st;
    if ((st = hes__field(sys, c->mode[i], te, x, F)) != HES_OK ||
        (st = hes__guard_dx(sys, tr, te, x, gx)) != HES_OK ||
        (st = hes__guard_dt(sys, tr, te, x, &gt)) != HES_OK)
        return st;
    d = gt;
    for (int r = 0; r < n; r++)
        d += gx[r] * F[r];
    *rate = c->vdir[i] == HES_DOWN ? -d : d;
    return HES_OK;
}

/* Rows of the crossing-rate constraints from `row` on. */
static hes_status crossing_constraints(hes_colloc *c, const double *z, double *cv, double *jac,
                                       int row)
{
    hes_system *sys = c->sys;
    int ni = c->ni, nm = sys->nmax;
    double min_rate = c->spec->min_crossing_rate > 0 ? c->spec->min_crossing_rate : 1e-3;
    double *x = c->work + 2 * (size_t)nm;
    hes_status st = HES_OK;
    for (int i = 0; i < c->n_phases && st == HES_OK; i++) {
        if (!c->virt[i] && c->vdir[i] == HES_ANY)
            continue;
        int n = c->dim[i], N = c->nn[i], ur = c->urows[i] == 1 ? 0 : N - 1;
        const double *xe = z + c->xoff[i] + (size_t)(N - 1) * n;
        double rate, rp, rm;
        hes__colloc_set_inputs(c, z, i, N - 1, 0);
        if ((st = crossing_rate(c, z, i, xe, &rate)) != HES_OK)
            break;
        cv[row] = rate - min_rate;
        for (int r = 0; jac && r < n && st == HES_OK; r++) { /* states of the last node */
            double h = hes__fd_step(xe[r]);
            memcpy(x, xe, sizeof(double) * (size_t)n);
            x[r] = xe[r] + h;
            st = crossing_rate(c, z, i, x, &rp);
            x[r] = xe[r] - h;
            if (st == HES_OK)
                st = crossing_rate(c, z, i, x, &rm);
            jac[(size_t)row + (size_t)(c->xoff[i] + (N - 1) * n + r) * ni] = (rp - rm) / (2 * h);
        }
        for (int q = 0; jac && q < c->n_in && st == HES_OK; q++) { /* inputs there */
            int col = c->uoff[i] + ur * c->n_in + q, pj = c->in_idx[q];
            double u = sys->p[pj], h = hes__fd_step(u);
            sys->p[pj] = u + h;
            st = crossing_rate(c, z, i, xe, &rp);
            sys->p[pj] = u - h;
            if (st == HES_OK)
                st = crossing_rate(c, z, i, xe, &rm);
            sys->p[pj] = u;
            jac[(size_t)row + (size_t)col * ni] = (rp - rm) / (2 * h);
        }
        row++;
    }
    assert(st != HES_OK || row <= ni);
    return st;
}

static int crossing_count(const hes_colloc *c)
{
    int n = 0;
    for (int i = 0; i < c->n_phases; i++)
        n += c->virt[i] || c->vdir[i] != HES_ANY;
    return n;
}

/* Rows of the order constraints from `row` on: -dir (g(x_k) + p) >= 0 at
 * nodes 0 .. N-2 of the sub-phases order_checked. */
static hes_status order_constraints(hes_colloc *c, const double *z, double *cv, double *jac,
                                    int row)
{
    hes_system *sys = c->sys;
    int ni = c->ni;
    double *gx = c->work;
    hes_status st = HES_OK;
    for (int i = 0; i < c->n_phases && st == HES_OK; i++) {
        if (!hes__colloc_order_checked(c, i))
            continue;
        int n = c->dim[i], N = c->nn[i];
        double sg = c->vdir[i] == HES_DOWN ? 1.0 : -1.0, p = c->virt[i] ? z[c->voff[i]] : 0.0,
               h = z[c->toff[i]] / (N - 1), t0 = hes__colloc_phase_t0(c, z, i), g;
        for (int k = 0; k + 1 < N && st == HES_OK; k++, row++) {
            const double *xk = z + c->xoff[i] + (size_t)k * n;
            hes__colloc_set_inputs(c, z, i, k, 0);
            if ((st = hes__guard(sys, c->tr[i], t0 + k * h, xk, &g)) != HES_OK)
                break;
            cv[row] = sg * (g + p);
            if (!jac)
                continue;
            if ((st = hes__guard_dx(sys, c->tr[i], t0 + k * h, xk, gx)) != HES_OK)
                break;
            for (int r = 0; r < n; r++)
                jac[(size_t)row + (size_t)(c->xoff[i] + k * n + r) * ni] = sg * gx[r];
            if (c->virt[i])
                jac[(size_t)row + (size_t)c->voff[i] * ni] = sg;
        }
    }
    assert(st != HES_OK || row == ni);
    return st;
}

hes_status hes__colloc_path(hes_colloc *c, const double *z, double *cv, double *jac)
{
    int ni = c->ni, row = 0, nm = c->sys->nmax;
    hes_status st = HES_OK;
    if (jac)
        memset(jac, 0, sizeof(double) * (size_t)ni * (size_t)c->nv);
    if (ni == 0)
        return HES_OK;
    hes__colloc_put_params(c, z);
    double *x = c->work, *vp = x + nm, *vm = vp + 64;
    for (int i = 0; i < c->n_phases && st == HES_OK; i++) {
        int n = c->dim[i], N = c->nn[i];
        double h = z[c->toff[i]] / (N - 1), t0 = hes__colloc_phase_t0(c, z, i);
        for (int k = 0; k < N && st == HES_OK; k++) {
            int kind = hes__colloc_node_kind(c, i, k), np = hes__colloc_path_count(c, c->mode[i], kind);
            assert(np <= 64); /* refused by hes_colloc_new */
            if (np == 0)
                continue;
            const double *xk = z + c->xoff[i] + (size_t)k * n;
            assert(row + np <= ni);
            hes__colloc_set_inputs(c, z, i, k, 0);
            if ((st = path_eval(c, c->mode[i], kind, t0 + k * h, xk, cv + row)) != HES_OK)
                break;
            for (int r = 0; jac && r < n && st == HES_OK; r++) {
                double hh = hes__fd_step(xk[r]);
                memcpy(x, xk, sizeof(double) * (size_t)n);
                x[r] = xk[r] + hh;
                st = path_eval(c, c->mode[i], kind, t0 + k * h, x, vp);
                x[r] = xk[r] - hh;
                if (st == HES_OK)
                    st = path_eval(c, c->mode[i], kind, t0 + k * h, x, vm);
                for (int q = 0; st == HES_OK && q < np; q++)
                    jac[(size_t)(row + q) + (size_t)(c->xoff[i] + k * n + r) * ni] =
                        (vp[q] - vm[q]) / (2 * hh);
            }
            row += np;
        }
    }
    if (st == HES_OK && c->spec)
        st = crossing_constraints(c, z, cv, jac, row);
    if (st == HES_OK && c->spec)
        st = order_constraints(c, z, cv, jac, row + crossing_count(c));
    return st;
}

