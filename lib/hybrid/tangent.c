/*
 * tangent.c - a mode's tangent space: the chart of a state manifold
 * (hes_mode.retract, local, tangent, cotangent, normalize) as the hybrid
 * layer uses it, with the identity of R^dim for a mode without one.
 *
 * The integrator stays in the ambient coordinates x in R^dim; every
 * linearisation is taken in tangent coordinates delta in R^tdim:
 *
 *     E(x) = d retract(x, delta) / d delta |_{delta = 0}      dim x tdim
 *     P(x) = d local(y, x) / d y |_{y = x}                    tdim x dim
 *
 * so that a matrix M of the ambient flow from x0 (mode I) to x1 (mode J)
 * becomes  M_tan = P_J(x1) M E_I(x0)  (a phase's A, an event's saltation
 * matrix, the section matrix).  A matrix that maps tangent vectors to
 * tangent vectors (the flow and the resets of a model whose field and resets
 * keep the manifold) gives the same M_tan for every left inverse P of E,
 * since P v is the same for all of them on a tangent vector v.  So when the
 * model gives no cotangent, P is the least-squares left inverse
 *
 *     P = (E^T E)^-1 E^T       (Cholesky of the Gram matrix E^T E)
 *
 * a deterministic and continuous function of x (no SVD null space, whose
 * basis could rotate under rounding), which also annihilates the normal
 * directions orthogonal to the tangent space (the radial one of a unit
 * quaternion).
 */
#include <stdlib.h>
#include <string.h>

#include "hybrid/hybrid.h"

/* HES_EMODEL naming the mode and the callback for a nonzero return code,
 * HES_ENONFINITE for a non-finite output. */
static hes_status check(hes_system *sys, int rc, const double *out, size_t n, const char *what,
                        int mode)
{
    const hes_model *m = sys->model;
    if (rc != 0) {
        const char *why = m->describe_error ? m->describe_error(rc, m->data) : NULL;
        return hes__fail(sys, hes__callback_status(why), "%s of mode '%s' failed: %s (code %d)",
                         what, m->modes[mode].name, why ? why : "no description", rc);
    }
    if (out && !hes__all_finite(out, (int)n))
        return hes__fail(sys, HES_ENONFINITE, "%s of mode '%s' is not finite", what,
                         m->modes[mode].name);
    return HES_OK;
}

hes_status hes__retract(hes_system *sys, int mode, const double *x, const double *delta,
                        double *out)
{
    const hes_mode *md = &sys->model->modes[mode];
    if (!md->retract) {
        for (int i = 0; i < md->dim; i++)
            out[i] = x[i] + delta[i];
        return HES_OK;
    }
    int rc = md->retract(x, delta, sys->p, out, hes__mode_data(sys->model, mode));
    return check(sys, rc, out, (size_t)md->dim, "retract", mode);
}

hes_status hes__local(hes_system *sys, int mode, const double *x1, const double *x0,
                      double *out)
{
    const hes_mode *md = &sys->model->modes[mode];
    if (!md->local) {
        for (int i = 0; i < md->dim; i++)
            out[i] = x1[i] - x0[i];
        return HES_OK;
    }
    int rc = md->local(x1, x0, sys->p, out, hes__mode_data(sys->model, mode));
    return check(sys, rc, out, (size_t)hes__mode_tdim(sys->model, mode), "local", mode);
}

hes_status hes__normalize(hes_system *sys, int mode, double *x)
{
    const hes_mode *md = &sys->model->modes[mode];
    if (!md->normalize)
        return HES_OK;
    int rc = md->normalize(x, sys->p, hes__mode_data(sys->model, mode));
    return check(sys, rc, x, (size_t)md->dim, "normalize", mode);
}

hes_status hes__tangent_basis(hes_system *sys, int mode, const double *x, double *E)
{
    const hes_mode *md = &sys->model->modes[mode];
    int n = md->dim, nt = hes__mode_tdim(sys->model, mode);
    if (!md->tangent) {
        memset(E, 0, sizeof(double) * (size_t)n * n);
        for (int i = 0; i < n; i++)
            E[i + (size_t)i * n] = 1.0;
        return HES_OK;
    }
    int rc = md->tangent(x, sys->p, E, hes__mode_data(sys->model, mode));
    return check(sys, rc, E, (size_t)n * nt, "tangent", mode);
}

hes_status hes__cotangent_basis(hes_system *sys, int mode, const double *x, double *P)
{
    const hes_mode *md = &sys->model->modes[mode];
    int n = md->dim, nt = hes__mode_tdim(sys->model, mode);
    if (md->cotangent) {
        int rc = md->cotangent(x, sys->p, P, hes__mode_data(sys->model, mode));
        return check(sys, rc, P, (size_t)nt * n, "cotangent", mode);
    }
    if (!md->tangent) {
        memset(P, 0, sizeof(double) * (size_t)n * n);
        for (int i = 0; i < n; i++)
            P[i + (size_t)i * n] = 1.0;
        return HES_OK;
    }
    /* P = (E^T E)^-1 E^T: G = E^T E by Cholesky, then G P = E^T */
    double *E = malloc(sizeof(double) * ((size_t)n * nt + (size_t)nt * nt));
    if (!E)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    double *G = E + (size_t)n * nt;
    hes_status st = hes__tangent_basis(sys, mode, x, E);
    if (st == HES_OK) {
        for (int j = 0; j < nt; j++)
            for (int i = 0; i < nt; i++) {
                double s = 0;
                for (int l = 0; l < n; l++)
                    s += E[l + (size_t)i * n] * E[l + (size_t)j * n];
                G[i + (size_t)j * nt] = s;
            }
        for (int j = 0; j < n; j++)
            for (int i = 0; i < nt; i++)
                P[i + (size_t)j * nt] = E[j + (size_t)i * n];
        if (hes__chol(G, nt) != 0)
            st = hes__fail(sys, HES_EMODEL, "the tangent basis E of mode '%s' does not have "
                           "full column rank (E^T E is not positive definite)",
                           sys->model->modes[mode].name);
        else
            hes__chol_solve(G, nt, P, n);
    }
    free(E);
    return st;
}

hes_status hes__to_tangent(hes_system *sys, int mode_out, const double *x_out, int mode_in,
                           const double *x_in, const double *M, double *out)
{
    const hes_model *m = sys->model;
    int no = m->modes[mode_out].dim, ni = m->modes[mode_in].dim;
    int to = hes__mode_tdim(m, mode_out), ti = hes__mode_tdim(m, mode_in);
    int co = hes__mode_has_chart(m, mode_out), ci = hes__mode_has_chart(m, mode_in);
    if (!co && !ci) { /* the identity maps: the ambient matrix itself, to the bit */
        memcpy(out, M, sizeof(double) * (size_t)no * ni);
        return HES_OK;
    }
    /* P (to x no), E (ni x ti), ME (no x ti) */
    double *P = malloc(sizeof(double) * ((size_t)to * no + (size_t)ni * ti + (size_t)no * ti));
    if (!P)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    double *E = P + (size_t)to * no, *ME = E + (size_t)ni * ti;
    hes_status st = HES_OK;
    if (ci) {
        if ((st = hes__tangent_basis(sys, mode_in, x_in, E)) == HES_OK)
            hes__matmul(no, ni, ti, M, E, ME);
    } else {
        memcpy(ME, M, sizeof(double) * (size_t)no * ni);
    }
    if (st == HES_OK) {
        if (co) {
            if ((st = hes__cotangent_basis(sys, mode_out, x_out, P)) == HES_OK)
                hes__matmul(to, no, ti, P, ME, out);
        } else {
            memcpy(out, ME, sizeof(double) * (size_t)no * ti);
        }
    }
    free(P);
    return st;
}

int hes__model_has_chart(const hes_model *m)
{
    for (int i = 0; i < m->n_modes; i++)
        if (hes__mode_has_chart(m, i))
            return 1;
    return 0;
}

hes_status hes__refuse_charts(hes_system *sys, const char *what)
{
    const hes_model *m = sys->model;
    for (int i = 0; i < m->n_modes; i++)
        if (hes__mode_has_chart(m, i))
            return hes__fail(sys, HES_EINVAL, "%s does not support modes with a tangent-space "
                             "chart (mode '%s': state of dimension %d on a manifold of "
                             "dimension %d)", what, m->modes[i].name, m->modes[i].dim,
                             hes__mode_tdim(m, i));
    return HES_OK;
}
