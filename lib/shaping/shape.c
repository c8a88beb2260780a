/*
 * shape.c - hybrid event shaping (paper Sec. III): the shape-parameter
 * property, fast re-evaluation of psi at new shape values over the stored
 * factors of a nominal orbit, and the gradient of psi and of every
 * multiplier modulus by eigenvalue perturbation (paper eq. 5-6).
 *
 * The analysed matrix is the product M = G_L ... G_1 of the factors of one
 * period: the variational matrices of the phases (fixed: shape parameters do
 * not move the orbit), the saltation matrices of the events and, for
 * autonomous orbits, the section matrix S in place of the last saltation
 * matrix (M = P, the return-map Jacobian).  Event factors are recomputed at
 * the nominal events from the model's callbacks when h changes.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shaping/shape_internal.h"

/* Relative step of the fallback differences: a defective multiplier is
 * computed only to ~sqrt(eps) (a Jordan block of size 2), so the step must
 * be large enough for psi to change by much more than that. */
#define SHAPE_FALLBACK_STEP 1e-4


int hes_shape_count(const hes_shape *sh) { return sh ? sh->n : 0; }
int hes_shape_param(const hes_shape *sh, int j)
{
    return sh && j >= 0 && j < sh->n ? sh->pidx[j] : -1;
}

void hes_shape_destroy(hes_shape *sh)
{
    if (!sh)
        return;
    for (int k = 0; sh->G && k < sh->nf; k++)
        free(sh->G[k].m);
    for (int i = 0; sh->dG && i < sh->nf * sh->n; i++)
        free(sh->dG[i]);
    free(sh->G);
    free(sh->dG);
    free(sh->event);
    free(sh->dep);
    free(sh->fields);
    free(sh->dep_first);
    free(sh->dep_k);
    free(sh->moves);
    free(sh->pieces);
    for (int i = 0; sh->slope && i < sh->nf * sh->n; i++)
        free(sh->slope[i]);
    free(sh->slope);
    free(sh->pidx);
    free(sh->M);
    free(sh->normal);
    free(sh->tmp);
    free(sh->dpsi);
    free(sh->dabs);
    free(sh->sens);
    free(sh->h);
    free(sh->fd);
    free(sh->eigbuf);
    hes_stability_free(&sh->st);
    hes_system_destroy(sh->sys);
    free(sh);
}

const char *hes_shape_errmsg(const hes_shape *sh)
{
    return sh ? sh->sys->errmsg : "no shape context (NULL)";
}

hes_status hes_shape_new(hes_system *sys, const hes_analysis *res, int n,
                            const char *const *names, hes_shape **out)
{
    if (out)
        *out = NULL;
    if (!sys)
        return HES_EINVAL;
    if (sys->kind != HES_KIND_HYBRID)
        return hes__need_hybrid(sys, "hes_shape_new");
    /* the event factors are recomputed from ambient pieces */
    if (hes__refuse_charts(sys, "hybrid event shaping") != HES_OK)
        return HES_EINVAL;
    if (!out || (n > 0 && !names))
        return hes__fail(sys, HES_EINVAL, "shape: needs names for n > 0 and somewhere to put the context");
    *out = NULL;
    const hes_model *m = sys->model;
    if (!res || !res->mono.phi || res->mono.n_factors < 1)
        return hes__fail(sys, HES_EINVAL, "shape: needs a completed analysis");
    if (n == 0)
        for (int i = 0; i < m->n_params; i++)
            n += (m->params[i].flags & HES_PARAM_SHAPE) != 0;
    if (n == 0)
        return hes__fail(sys, HES_EINVAL, "model '%s' has no shape parameters", m->name);
    /* the context evaluates on a system of its own: the caller's keeps its
       parameter values, and only hears of failures */
    hes_shape *sh = calloc(1, sizeof *sh);
    hes_system *caller = sys, *own = sh ? hes__system_copy(sys) : NULL;
    if (!own) {
        free(sh);
        return hes__fail(caller, HES_ENOMEM, "out of memory");
    }
    sys = own;
    sh->sys = own;
    sh->caller = caller;
    sh->res = res;
    sh->n = n;
    sh->n0 = res->mono.n;
    sh->autonomous = res->mono.autonomous;
    sh->nf = res->mono.n_factors;
    int nf = sh->nf, nm = sys->nmax, n0 = sh->n0;
    sh->pidx = malloc(sizeof(int) * (size_t)n);
    sh->G = calloc((size_t)nf, sizeof *sh->G);
    sh->event = malloc(sizeof(int) * (size_t)nf);
    sh->dep = calloc((size_t)nf * n, 1);
    sh->fields = malloc(sizeof(double) * 2 * (size_t)nf * nm);
    sh->plen = hes__saltation_pieces_len(nm, nm);
    sh->pieces = malloc(sizeof(double) * (size_t)nf * sh->plen);
    sh->slope = calloc((size_t)nf * n, sizeof *sh->slope);
    sh->dG = calloc((size_t)nf * n, sizeof *sh->dG);
    sh->M = malloc(sizeof(double) * (size_t)nm * n0); /* running products can be nm x n0 */
    sh->normal = malloc(sizeof(double) * (size_t)n0);
    sh->tmp = malloc(sizeof(double) * (size_t)nm * n0);
    sh->dpsi = malloc(sizeof(double) * (size_t)n);
    sh->dabs = malloc(sizeof(double) * (size_t)n * n0);
    sh->h = malloc(sizeof(double) * (size_t)n);
    sh->sens = malloc(sizeof(double) * (size_t)4 * nf * nm);
    sh->fd = malloc(sizeof(double) * (2 * (size_t)nm * nm + (size_t)sh->plen));
    sh->eigbuf = malloc(sizeof(double) * 4 * (size_t)n0);
    if (!sh->pidx || !sh->G || !sh->event || !sh->dep || !sh->fields || !sh->pieces ||
        !sh->slope || !sh->dG || !sh->M || !sh->normal ||
        !sh->tmp || !sh->dpsi || !sh->dabs || !sh->h || !sh->sens || !sh->fd ||
        !sh->eigbuf || hes__stability_alloc(&sh->st, n0) != HES_OK) {
        hes_shape_destroy(sh);
        return hes__fail(caller, HES_ENOMEM, "out of memory");
    }
    for (int j = 0, i = 0; j < n; i++) {
        if (names) {
            sh->pidx[j] = hes_model_param_index(m, names[j]);
            if (sh->pidx[j] < 0) {
                hes_shape_destroy(sh);
                return hes__fail(caller, HES_ENOTFOUND, "model '%s' has no parameter '%s'",
                                 m->name, names[j]);
            }
            j++;
        } else if (m->params[i].flags & HES_PARAM_SHAPE) {
            sh->pidx[j++] = i;
        }
    }
    /* factors: copies of the phases, event factors recomputed below */
    for (int k = 0, e = 0; k < nf; k++)
        sh->event[k] = res->mono.factors[k].kind == HES_FACTOR_EVENT ? e++ : -1;
    hes_status st = hes__shape_event_fields(sh);
    for (int k = 0; k < nf && st == HES_OK; k++) {
        const hes_factor *f = &res->mono.factors[k];
        hes_factor *g = &sh->G[k];
        *g = *f;
        if (sh->autonomous && k == nf - 1) { /* S: n_J x n_I like the saltation matrix */
            const hes_transition *T = &m->transitions[f->index];
            g->rows = m->modes[T->to].dim;
            g->cols = m->modes[T->from].dim;
        }
        g->m = malloc(sizeof(double) * (size_t)g->rows * g->cols);
        if (!g->m) {
            st = hes__fail(sys, HES_ENOMEM, "out of memory");
            break;
        }
        if (sh->event[k] < 0)
            memcpy(g->m, f->m, sizeof(double) * (size_t)g->rows * g->cols);
        else if ((st = hes__shape_event_factor(sh, k, g->m, sh->autonomous && k == nf - 1 ? sh->normal : NULL,
                                    1)) != HES_OK)
            break;
    }
    for (int j = 0; j < n && st == HES_OK; j++)
        st = hes__shape_verify_property(sh, j);
    if (st == HES_OK)
        st = hes__shape_find_dependencies(sh);
    for (int j = 0; j < n; j++)
        sh->h[j] = sys->p[sh->pidx[j]];
    if (st == HES_OK)
        st = hes__shape_find_slopes(sh);
    for (int k = 0; k < nf && st == HES_OK; k++)
        for (int j = 0; j < n; j++)
            if (sh->dep[k + nf * j] &&
                !(sh->dG[k + nf * j] = malloc(sizeof(double) * (size_t)sh->G[k].rows * sh->G[k].cols)))
                st = hes__fail(sys, HES_ENOMEM, "out of memory");
    if (st == HES_OK && (st = hes__shape_dependency_lists(sh)) != HES_OK)
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
    if (st != HES_OK) {
        hes__fail(caller, st, "%s", own->errmsg);
        hes_shape_destroy(sh);
        return st;
    }
    *out = sh;
    return HES_OK;
}

/* M = G_nf ... G_1 */
static void compose(hes_shape *sh)
{
    int n0 = sh->n0, rows = n0;
    double *cur = sh->M, *nxt = sh->tmp;
    memset(cur, 0, sizeof(double) * (size_t)n0 * n0);
    for (int i = 0; i < n0; i++)
        cur[i + (size_t)i * n0] = 1.0;
    for (int k = 0; k < sh->nf; k++) {
        hes__matmul(sh->G[k].rows, rows, n0, sh->G[k].m, cur, nxt);
        rows = sh->G[k].rows;
        double *t = cur;
        cur = nxt;
        nxt = t;
    }
    if (cur != sh->M)
        memcpy(sh->M, cur, sizeof(double) * (size_t)n0 * n0);
}

/* Factors and multipliers at the current parameters. */
static hes_status refresh(hes_shape *sh)
{
    hes_status st = HES_OK;
    for (int k = 0; k < sh->nf && st == HES_OK; k++) {
        if (sh->moves[k])
            st = hes__shape_event_factor(sh, k, sh->G[k].m,
                              sh->autonomous && k == sh->nf - 1 ? sh->normal : NULL, 1);
    }
    if (st != HES_OK)
        return st;
    compose(sh);
    hes_monodromy view;
    memset(&view, 0, sizeof view);
    view.n = sh->n0;
    view.autonomous = sh->autonomous;
    view.phi = sh->M;
    view.proj = sh->autonomous ? sh->M : NULL;
    view.normal = sh->autonomous ? sh->normal : NULL;
    view.accuracy = sh->res->mono.accuracy;
    st = hes_stability_update(&view, &sh->st);
    if (st != HES_OK)
        return hes__fail(sh->sys, st, "multipliers at the new shape values: %s", hes_strerror(st));
    return HES_OK;
}

/* dG_k/dh_j: the saltation formula's derivative along the pieces' slope
 * where they are affine in h (find_slopes: no model callback), else
 * forward differences of the event formula in h_j from the factors at h
 * (refresh() has just computed them): one event evaluation per
 * (parameter, dependent event).  Both keep the gradient near 1.3 psi
 * evaluations; the differences' error, about sqrt(eps) relative
 * (hes__fd_step_forward), is far below what the optimiser and the tests
 * resolve (test_shape: the closed-form gradient of the Hopf chain to
 * 1e-6). */
static hes_status factor_derivatives(hes_shape *sh)
{
    hes_system *sys = sh->sys;
    const hes_model *m = sys->model;
    double *a = sh->fd;
    hes_status st = HES_OK;
    for (int j = 0; j < sh->n && st == HES_OK; j++) {
        int pi = sh->pidx[j];
        double h = sys->p[pi];
        volatile double hp = h + hes__fd_step_forward(h); /* an exact step */
        for (int q = sh->dep_first[j]; q < sh->dep_first[j + 1] && st == HES_OK; q++) {
            int k = sh->dep_k[q];
            double *D = sh->dG[k + sh->nf * j];
            const double *c = sh->slope[k + sh->nf * j];
            if (c) {
                const hes_transition *T =
                    &m->transitions[sh->res->orbit.traj.events[sh->event[k]].transition];
                const double *F = sh->fields + (size_t)2 * sys->nmax * k;
                hes__saltation_derivative(m->modes[T->from].dim, m->modes[T->to].dim,
                                          sh->pieces + (size_t)sh->plen * k, c, F,
                                          F + sys->nmax, D);
                continue;
            }
            int len = sh->G[k].rows * sh->G[k].cols;
            sys->p[pi] = hp;
            st = hes__shape_event_factor(sh, k, a, NULL, 0);
            sys->p[pi] = h;
            for (int i = 0; i < len && st == HES_OK; i++)
                D[i] = (a[i] - sh->G[k].m[i]) / (hp - h);
        }
    }
    return st;
}

/* d|lambda_j|/dh for every shape parameter into out[n] (eigenvalue j), by
 * eigenvalue perturbation over the stored factors (eigsens.c). */
static void modulus_gradient(hes_shape *sh, int j, double *out)
{
    hes__eig_sens es;
    hes__eig_sens_init(&es, &sh->st, j, sh->nf, sh->G, sh->sys->nmax, sh->sens);
    for (int p = 0; p < sh->n; p++) {
        double nr = 0, ni = 0; /* sum_k a_k dG_k b_k */
        for (int q = sh->dep_first[p]; q < sh->dep_first[p + 1]; q++) {
            int k = sh->dep_k[q];
            hes__eig_sens_term(&es, k, sh->G[k].rows, sh->G[k].cols, sh->dG[k + sh->nf * p],
                               &nr, &ni);
        }
        out[p] = hes__eig_sens_modulus(&es, nr, ni);
    }
}

/* One-sided differences of psi in each h_j (the fallback). */
static hes_status psi_differences(hes_shape *sh, int *nonsmooth)
{
    hes_system *sys = sh->sys;
    double psi0 = sh->st.psi;
    hes_status st = HES_OK;
    *nonsmooth = 0;
    for (int j = 0; j < sh->n && st == HES_OK; j++) {
        int pi = sh->pidx[j];
        double h = sys->p[pi], d = SHAPE_FALLBACK_STEP * fmax(1.0, fabs(h)), psi[2];
        for (int s = 0; s < 2 && st == HES_OK; s++) {
            sys->p[pi] = s ? h - d : h + d;
            if ((st = refresh(sh)) == HES_OK)
                psi[s] = sh->st.psi;
        }
        sys->p[pi] = h;
        if (st != HES_OK)
            break;
        double up = (psi[0] - psi0) / d, down = (psi0 - psi[1]) / d;
        if (fabs(up - down) <= 1e-3 * fmax(1.0, fabs(up) + fabs(down))) {
            sh->dpsi[j] = 0.5 * (up + down);
        } else {
            *nonsmooth = 1;
            sh->dpsi[j] = up * down <= 0 ? 0.0 : fabs(up) < fabs(down) ? up : down;
        }
    }
    if (st == HES_OK)
        st = refresh(sh); /* back to h */
    return st;
}

static hes_status eval(hes_shape *sh, const double *h, int grad, hes_shape_eval_result *out);

hes_status hes_shape_eval(hes_shape *sh, const double *h, int grad, hes_shape_eval_result *out)
{
    hes_status st = eval(sh, h, grad, out);
    if (st != HES_OK && sh) /* the caller's system hears why */
        hes__fail(sh->caller, st, "%s", sh->sys->errmsg);
    return st;
}

static hes_status eval(hes_shape *sh, const double *h, int grad, hes_shape_eval_result *out)
{
    if (!sh || !out) {
        if (out)
            memset(out, 0, sizeof *out);
        return sh ? hes__fail(sh->sys, HES_EINVAL, "shape: nowhere to put the result (NULL)") : HES_EINVAL;
    }
    hes_system *sys = sh->sys;
    memset(out, 0, sizeof *out);
    for (int j = 0; h && j < sh->n; j++) {
        if (!isfinite(h[j]))
            return hes__fail(sys, HES_EINVAL, "shape value %s = %g is not finite",
                             sys->model->params[sh->pidx[j]].name, h[j]);
        sys->p[sh->pidx[j]] = h[j];
    }
    hes_status st = refresh(sh);
    if (st != HES_OK)
        return st;
    const hes_stability *S = &sh->st;
    out->n_shape = sh->n;
    out->n_mult = S->n_mult;
    out->psi = S->psi;
    out->abs = S->abs;
    out->re = S->re;
    out->im = S->im;
    out->cond = S->cond;
    if (!grad)
        return HES_OK;
    if ((st = factor_derivatives(sh)) != HES_OK)
        return st;
    double *b = sh->eigbuf;
    int max_repeated = 0, moduli = grad == HES_SHAPE_GRAD_PSI && S->n_mult > 0 ? 1 : S->n_mult;
    for (int k = 0; k < moduli; k++) {
        double *col = sh->dabs + k; /* row k of the n_mult x n matrix, stride n_mult */
        int j = S->order[k];
        if (hes__eig_repeated(S, j, b)) {
            for (int p = 0; p < sh->n; p++)
                col[(size_t)p * S->n_mult] = NAN;
            max_repeated |= k == 0;
            continue;
        }
        modulus_gradient(sh, j, sh->dpsi);
        for (int p = 0; p < sh->n; p++)
            col[(size_t)p * S->n_mult] = sh->dpsi[p];
    }
    if (S->n_mult == 0) {
        memset(sh->dpsi, 0, sizeof(double) * (size_t)sh->n);
    } else if (max_repeated) {
        out->fallback = 1;
        if ((st = psi_differences(sh, &out->nonsmooth)) != HES_OK)
            return st;
        S = &sh->st; /* refreshed */
        out->abs = S->abs;
        out->re = S->re;
        out->im = S->im;
    } else {
        for (int p = 0; p < sh->n; p++)
            sh->dpsi[p] = sh->dabs[(size_t)p * S->n_mult];
    }
    out->dpsi = sh->dpsi;
    out->dabs = grad == HES_SHAPE_GRAD_PSI ? NULL : sh->dabs;
    return HES_OK;
}
