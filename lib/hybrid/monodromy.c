/*
 * monodromy.c - the monodromy matrix of a periodic hybrid orbit (paper eq. 4)
 *
 *   Phi = Xi_N A_N ... Xi_2 A_2 Xi_1 A_1
 *
 * composed from the variational matrix A_i of every phase and the saltation
 * matrix Xi_i of every event, all kept as factors (gradients of the
 * stability measure differentiate through them).  For autonomous orbits the
 * return-map Jacobian on the Poincare section at the orbit's start event is
 * formed as well (lib/README.md, section 4).
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <lapacke.h>

#include "hybrid/hybrid.h"

void hes_monodromy_free(hes_monodromy *mono)
{
    if (!mono)
        return;
    for (int k = 0; k < mono->n_factors; k++)
        free(mono->factors[k].m);
    free(mono->factors);
    free(mono->phi);
    free(mono->proj);
    free(mono->normal);
    free(mono->symmetric);
    memset(mono, 0, sizeof *mono);
}

/* M <- F M where F is r x c and M is c x n0; *rows tracks M's row count. */
static int apply(const hes_factor *f, double **M, int *rows, int n0)
{
    if (f->cols != *rows)
        return -1;
    double *out = malloc(sizeof(double) * (size_t)f->rows * n0);
    if (!out)
        return -1;
    hes__matmul(f->rows, f->cols, n0, f->m, *M, out);
    free(*M);
    *M = out;
    *rows = f->rows;
    return 0;
}

/*
 * The normal of the Poincare section on the post-event side: a unit vector n
 * with n^T S = 0, so that n^T P = n^T S Q = 0 for the return-map Jacobian
 * P = S Q whatever the factors Q before the section event.  With the section
 * matrix S = DxR (I - F_I Dxg / (Dxg F_I)) of rank r:
 *  - r < n_J (always when n_J >= n_I, since (I - F Dxg / (Dxg F)) has rank
 *    n_I - 1): n is a left singular vector of S for a zero singular value.
 *    When DxR has full rank this is DxR^-T Dxg^T normalised, the image of the
 *    guard's normal; when the reset is rank deficient (a plastic impact: the
 *    post-impact velocities depend on fewer coordinates, the standard
 *    section just after heelstrike of a walking model) DxR^T y = Dxg^T has no
 *    solution and the left null space of S has dimension > 1.  Any unit
 *    vector of it serves: in the basis [Q', n], P = [[M, b], [0, 0]] and
 *    eig(P) = eig(M) + {0} exactly, so dropping "the" trivial 0 drops one of
 *    the structural zeros of P, and the nontrivial multipliers (with the
 *    zeros that the impact puts there) equal those of any other section of
 *    the same orbit whose mode has the same dimension.
 *  - r = n_J < n_I (a reset that drops dimensions at a section where the
 *    guard's normal is not in the range of DxR^T): the post-event states
 *    near the orbit fill a neighbourhood, the return map has no trivial
 *    multiplier and n is the zero vector (hes_stability_compute then keeps
 *    all n_J eigenvalues).
 * Rank is judged by sigma_min <= 1e-8 sigma_max (structural zeros are at
 * rounding level, ~1e-16, or ~1e-10 with finite-difference Jacobians).
 */
static hes_status section_normal(hes_system *sys, const double *S, int nj, int ni,
                                 double *normal)
{
    int ns = nj < ni ? nj : ni;
    assert(ni <= sys->nmax && nj <= sys->nmax);
    double *a = sys->svd_ws, *U = a + (size_t)nj * ni, *sv = U + (size_t)nj * nj,
           *work = sv + ns + 1;
    hes_status st = HES_OK;
    memcpy(a, S, sizeof(double) * (size_t)nj * ni);
    if (LAPACKE_dgesvd_work(LAPACK_COL_MAJOR, 'A', 'N', nj, ni, a, nj, sv, U, nj, NULL, 1,
                            work, sys->svd_lwork) != 0) {
        st = hes__fail(sys, HES_ESOLVER, "singular value decomposition of the section matrix failed");
    } else if (nj > ns || sv[nj - 1] <= 1e-8 * sv[0]) {
        memcpy(normal, U + (size_t)(nj - 1) * nj, sizeof(double) * (size_t)nj);
#ifndef NDEBUG
        double nn = 0, res = 0; /* a unit vector of the left null space of S */
        for (int i = 0; i < nj; i++)
            nn += normal[i] * normal[i];
        for (int j = 0; j < ni; j++) {
            double d = 0;
            for (int i = 0; i < nj; i++)
                d += normal[i] * S[i + (size_t)j * nj];
            res = fmax(res, fabs(d));
        }
        assert(fabs(nn - 1.0) < 1e-12 && res <= 1e-7 * fmax(1.0, sv[0]));
#endif
    } else {
        memset(normal, 0, sizeof(double) * (size_t)nj);
    }
    return st;
}

static hes_status section_ambient(hes_system *sys, int tr, double tm, const double *x_minus,
                                  double *S);

/* The section matrix in the tangent coordinates of the modes' charts
 * (tangent.c): S_tan = P_J(R(x)) S E_I(x), tdim_J x tdim_I.  With
 * F_I = E_I f (the field is tangent) and the guard's tangent gradient
 * Dxg E_I, S E_I = DxR E_I (I - f (Dxg E_I) / ((Dxg E_I) f)): the section
 * matrix of the event seen in tangent coordinates, whose left null vector
 * is the section normal there. */
hes_status hes__section_matrix(hes_system *sys, int tr, double tm, const double *x_minus,
                               double *S, double *normal)
{
    const hes_model *m = sys->model;
    const hes_transition *T = &m->transitions[tr];
    int mi = T->from, mj = T->to;
    if (!hes__mode_has_chart(m, mi) && !hes__mode_has_chart(m, mj)) {
        hes_status st = section_ambient(sys, tr, tm, x_minus, S);
        return st == HES_OK && normal ? section_normal(sys, S, m->modes[mj].dim,
                                                       m->modes[mi].dim, normal) : st;
    }
    int ni = m->modes[mi].dim, nj = m->modes[mj].dim;
    double *Sa = malloc(sizeof(double) * ((size_t)nj * ni + (size_t)nj));
    if (!Sa)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    double *xp = Sa + (size_t)nj * ni;
    hes_status st;
    if ((st = section_ambient(sys, tr, tm, x_minus, Sa)) == HES_OK &&
        (st = hes__reset(sys, tr, tm, x_minus, xp)) == HES_OK &&
        (st = hes__to_tangent(sys, mj, xp, mi, x_minus, Sa, S)) == HES_OK && normal)
        st = section_normal(sys, S, hes__mode_tdim(m, mj), hes__mode_tdim(m, mi), normal);
    free(Sa);
    return st;
}

/* The section matrix S = DxR (I - F_I Dxg / (Dxg F_I)) in the ambient
 * coordinates (n_J x n_I). */
static hes_status section_ambient(hes_system *sys, int tr, double tm, const double *x_minus,
                                  double *S)
{
    const hes_transition *T = &sys->model->transitions[tr];
    int ni = sys->model->modes[T->from].dim, nj = sys->model->modes[T->to].dim;
    assert(ni <= sys->nmax && nj <= sys->nmax);
    double *F = sys->sec_ws, *g = F + ni, *proj = g + ni, *DxR = proj + ni * ni;
    hes_status st;
    if ((st = hes__field(sys, T->from, tm, x_minus, F)) != HES_OK ||
        (st = hes__guard_dx(sys, tr, tm, x_minus, g)) != HES_OK ||
        (st = hes__reset_dx(sys, tr, tm, x_minus, DxR)) != HES_OK)
        return st;
    double gF = 0.0, gg = 0.0, FF = 0.0;
    for (int i = 0; i < ni; i++) {
        gF += g[i] * F[i];
        gg += g[i] * g[i];
        FF += F[i] * F[i];
    }
    /* the projection along F onto the section divides by Dxg F: a flow
     * (nearly) tangent to the section has none (e.g. after a shape
     * parameter turned the guard's gradient) */
    if (hes__grazing(sys, gF, sqrt(gg * FF)))
        return hes__fail(sys, HES_EGRAZING,
                         "the flow is tangent to the section of transition '%s' at model time "
                         "%.17g: |Dxg F| = %.3g, sine of the angle %.3g <= %.3g (section matrix "
                         "undefined)", T->name, tm, fabs(gF),
                         gg * FF > 0 ? fabs(gF) / sqrt(gg * FF) : 0.0, sys->set.graze_tol);
    hes__flow_projector(ni, F, g, gF, proj);
    hes__matmul(nj, ni, ni, DxR, proj, S);
    return HES_OK;
}

/* The return-map Jacobian P = S Q from the product Q (ni x n0) of every
 * factor before the section event. */
static hes_status section_projection(hes_system *sys, int tr, double tm,
                                     const double *x_minus, const double *Q, int n0,
                                     double *P, double *normal)
{
    const hes_transition *T = &sys->model->transitions[tr];
    int ni = hes__mode_tdim(sys->model, T->from), nj = hes__mode_tdim(sys->model, T->to);
    double *S = malloc(sizeof(double) * (size_t)nj * ni);
    if (!S)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    hes_status st = hes__section_matrix(sys, tr, tm, x_minus, S, normal);
    if (st == HES_OK)
        hes__matmul(nj, ni, n0, S, Q, P);
    free(S);
    return st;
}

/* Relative accuracy of the monodromy's entries: the integrator's local
 * tolerances accumulate over the steps of a period (a factor 100 covers the
 * errors seen against closed forms: 2e-12 for the juggler's psi at rtol =
 * atol = 1e-12), and the orbit itself is known to the Newton tolerance. */
static double monodromy_accuracy(const hes_settings *s)
{
    return fmax(100.0 * fmax(s->rtol, s->atol), s->newton_tol);
}

/* The orbit's symmetric directions at the period's start x0
 * (hes_orbit_spec.symmetries), when the period starts in the orbit's mode. */
static hes_status symmetric_directions(hes_system *sys, const hes_traj *traj,
                                       hes_monodromy *mono)
{
    const hes_model *m = sys->model;
    const hes_orbit_spec *o = &m->orbit;
    if (o->n_symmetries < 1 || !o->symmetries || traj->phases[0].mode != o->mode)
        return HES_OK;
    int n = mono->n, s = o->n_symmetries;
    if (s >= n)
        return hes__fail(sys, HES_EMODEL, "model %s: %d symmetries for a state of %d "
                         "(tangent) dimensions", m->name, s, n);
    if (!(mono->symmetric = malloc(sizeof(double) * (size_t)n * s)))
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    if (o->symmetries(traj->phases[0].x0, sys->p, mono->symmetric,
                      hes__mode_data(m, o->mode)) != 0 ||
        !hes__all_finite(mono->symmetric, n * s))
        return hes__fail(sys, HES_EMODEL, "model %s: its symmetries' generators at the "
                         "orbit's start failed or are not finite", m->name);
    mono->n_symmetric = s;
    return HES_OK;
}

hes_status hes_monodromy_compute(hes_system *sys, const hes_traj *traj, int autonomous,
                                 hes_monodromy *mono)
{
    if (!mono)
        return sys ? hes__fail(sys, HES_EINVAL, "monodromy: nowhere to put it (NULL)") : HES_EINVAL;
    if (!sys) {
        memset(mono, 0, sizeof *mono);
        return HES_EINVAL;
    }
    memset(mono, 0, sizeof *mono);
    if (sys->kind != HES_KIND_HYBRID)
        return hes__need_hybrid(sys, "hes_monodromy_compute");
    if (!traj || traj->n_phases < 1 || !traj->phases[0].A)
        return hes__fail(sys, HES_EINVAL, "monodromy needs a trajectory with sensitivities");
    const hes_model *m = sys->model;
    int n0 = hes__mode_tdim(m, traj->phases[0].mode);
    int nf = traj->n_phases + traj->n_events;
    mono->n = n0;
    mono->autonomous = autonomous;
    mono->accuracy = monodromy_accuracy(&sys->set);
    mono->factors = calloc((size_t)nf, sizeof *mono->factors);
    if (!mono->factors)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    hes_status st = HES_OK;
    for (int k = 0; k < traj->n_phases && st == HES_OK; k++) {
        /* each factor in the tangent coordinates of its modes' charts at its
         * own ends (tangent.c): P(x1) A E(x0), P_J(x+) Xi E_I(x-) */
        const hes_phase *ph = &traj->phases[k];
        hes_factor *f = &mono->factors[mono->n_factors++];
        f->kind = HES_FACTOR_PHASE;
        f->index = ph->mode;
        f->rows = f->cols = hes__mode_tdim(m, ph->mode);
        f->t = ph->t1;
        if (!ph->A || !(f->m = malloc(sizeof(double) * (size_t)f->rows * f->cols))) {
            st = hes__fail(sys, ph->A ? HES_ENOMEM : HES_EINVAL, "phase %d has no variational matrix", k);
            break;
        }
        if ((st = hes__to_tangent(sys, ph->mode, ph->x1, ph->mode, ph->x0, ph->A, f->m)) != HES_OK)
            break;
        if (k >= traj->n_events)
            continue;
        const hes_event *ev = &traj->events[k];
        const hes_transition *T = &m->transitions[ev->transition];
        int ni = m->modes[T->from].dim, nj = m->modes[T->to].dim;
        int chart = hes__mode_has_chart(m, T->from) || hes__mode_has_chart(m, T->to);
        f = &mono->factors[mono->n_factors++];
        f->kind = HES_FACTOR_EVENT;
        f->index = ev->transition;
        f->rows = hes__mode_tdim(m, T->to);
        f->cols = hes__mode_tdim(m, T->from);
        f->t = ev->t;
        double *xi = NULL;
        if (!(f->m = malloc(sizeof(double) * (size_t)f->rows * f->cols)) ||
            !(xi = chart ? malloc(sizeof(double) * (size_t)nj * ni) : f->m)) {
            st = hes__fail(sys, HES_ENOMEM, "out of memory");
            break;
        }
        st = autonomous && T->clock_reset && k + 1 < traj->n_events
                 ? hes__saltation_clock(sys, ev->transition, ev->tm, ev->x_minus, xi)
                 : hes_saltation(sys, ev->transition, ev->tm, ev->x_minus, xi);
        if (st == HES_OK && chart)
            st = hes__to_tangent(sys, T->to, ev->x_plus, T->from, ev->x_minus, xi, f->m);
        if (chart)
            free(xi);
    }
    if (st != HES_OK) {
        hes_monodromy_free(mono);
        return st;
    }
    /* Phi, and for autonomous orbits the product Q up to the section event. */
    int rows = n0, last = mono->n_factors - 1;
    double *M = calloc((size_t)n0 * n0, sizeof *M);
    if (!M) {
        hes_monodromy_free(mono);
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    }
    for (int i = 0; i < n0; i++)
        M[i + (size_t)i * n0] = 1.0;
    for (int k = 0; k < mono->n_factors; k++) {
        if (autonomous && k == last) {
            const hes_event *ev = &traj->events[traj->n_events - 1];
            if (mono->factors[k].kind != HES_FACTOR_EVENT ||
                !(mono->proj = malloc(sizeof(double) * (size_t)n0 * n0)) ||
                !(mono->normal = malloc(sizeof(double) * (size_t)n0))) {
                st = hes__fail(sys, HES_EINVAL, "autonomous period must end with its section event");
                break;
            }
            if ((st = section_projection(sys, ev->transition, ev->tm, ev->x_minus, M, n0,
                                         mono->proj, mono->normal)) != HES_OK)
                break;
        }
        if (apply(&mono->factors[k], &M, &rows, n0) != 0) {
            st = hes__fail(sys, HES_EINVAL, "factor %d has mismatched dimensions", k);
            break;
        }
    }
    if (st == HES_OK && rows != n0)
        st = hes__fail(sys, HES_EINVAL, "period ends in a state of dimension %d, starts in %d", rows, n0);
    if (st != HES_OK) {
        free(M);
        hes_monodromy_free(mono);
        return st;
    }
    /* one factor per phase and per event, alternating, chained in dimension */
    assert(mono->n_factors == traj->n_phases + traj->n_events);
    for (int k = 1; k < mono->n_factors; k++)
        assert(mono->factors[k].cols == mono->factors[k - 1].rows);
    mono->phi = M;
    if ((st = symmetric_directions(sys, traj, mono)) != HES_OK)
        hes_monodromy_free(mono);
    return st;
}
