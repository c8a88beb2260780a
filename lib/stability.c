/*
 * stability.c - Floquet multipliers of a periodic orbit: eigenvalues of the
 * monodromy (non-autonomous) or of the return-map Jacobian on the Poincare
 * section (autonomous), by LAPACK dgeev with left and right eigenvectors, and
 * the stability measure psi = max |lambda| over the nontrivial multipliers
 * (paper Sec. II-C).  The projected matrix has a trivial eigenvalue 0 whose
 * left eigenvector is the section normal; it is identified by that
 * eigenvector, never by its value.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>

#include "hes_internal.h"

void hes_stability_free(hes_stability *st)
{
    if (!st)
        return;
    free(st->re);
    free(st->im);
    free(st->vr);
    free(st->vl);
    free(st->all_re);
    free(st->all_im);
    free(st->order);
    memset(st, 0, sizeof *st);
}

/* Column j of a dgeev eigenvector matrix as a complex vector (re, im). */
static void eigvec(const double *V, int n, const double *wi, int j, double *re, double *im)
{
    for (int i = 0; i < n; i++) {
        if (wi[j] == 0.0) {
            re[i] = V[i + (size_t)j * n];
            im[i] = 0.0;
        } else if (wi[j] > 0.0) {
            re[i] = V[i + (size_t)j * n];
            im[i] = V[i + (size_t)(j + 1) * n];
        } else {
            re[i] = V[i + (size_t)(j - 1) * n];
            im[i] = -V[i + (size_t)j * n];
        }
    }
}

/* 1 / |w^H v| with unit w, v: the condition number of eigenvalue j. */
static double eig_condition(const double *vl, const double *vr, const double *wi, int n,
                            int j, double *buf)
{
    double *wr_ = buf, *wim = buf + n, *vre = buf + 2 * n, *vim = buf + 3 * n;
    eigvec(vl, n, wi, j, wr_, wim);
    eigvec(vr, n, wi, j, vre, vim);
    double sr = 0, si = 0, nw = 0, nv = 0;
    for (int i = 0; i < n; i++) {
        sr += wr_[i] * vre[i] + wim[i] * vim[i];  /* conj(w) . v */
        si += wr_[i] * vim[i] - wim[i] * vre[i];
        nw += wr_[i] * wr_[i] + wim[i] * wim[i];
        nv += vre[i] * vre[i] + vim[i] * vim[i];
    }
    double s = hypot(sr, si) / sqrt(nw * nv);
    return s > 0 ? 1.0 / s : INFINITY;
}

hes_status hes_stability_compute(const hes_monodromy *mono, hes_stability *st)
{
    memset(st, 0, sizeof *st);
    const double *M = mono->autonomous ? mono->proj : mono->phi;
    int n = mono->n;
    const double *normal = mono->normal;
    if (!M || n < 1 || (mono->autonomous && !normal))
        return HES_EINVAL;
    double *a = malloc(sizeof(double) * (size_t)n * n);
    double *buf = malloc(sizeof(double) * 4 * (size_t)n);
    st->n = n;
    st->all_re = malloc(sizeof(double) * (size_t)n);
    st->all_im = malloc(sizeof(double) * (size_t)n);
    st->vr = malloc(sizeof(double) * (size_t)n * n);
    st->vl = malloc(sizeof(double) * (size_t)n * n);
    st->re = malloc(sizeof(double) * (size_t)n);
    st->im = malloc(sizeof(double) * (size_t)n);
    st->order = malloc(sizeof(int) * (size_t)n);
    hes_status status = HES_OK;
    if (!a || !buf || !st->all_re || !st->all_im || !st->vr || !st->vl || !st->re ||
        !st->im || !st->order) {
        status = HES_ENOMEM;
        goto out;
    }
    if (!hes__all_finite(M, n * n)) {
        status = HES_ENONFINITE;
        goto out;
    }
    memcpy(a, M, sizeof(double) * (size_t)n * n);
    if (LAPACKE_dgeev(LAPACK_COL_MAJOR, 'V', 'V', n, a, n, st->all_re, st->all_im,
                      st->vl, n, st->vr, n) != 0) {
        status = HES_ESOLVER;
        goto out;
    }
    st->trivial = -1;
    if (mono->autonomous) {
        double fn = 0, best = -1;
        for (int i = 0; i < n; i++)
            fn += normal[i] * normal[i];
        for (int j = 0; j < n; j++) {
            if (st->all_im[j] != 0.0)
                continue;
            double d = 0, vn = 0;
            for (int i = 0; i < n; i++) {
                d += st->vl[i + (size_t)j * n] * normal[i];
                vn += st->vl[i + (size_t)j * n] * st->vl[i + (size_t)j * n];
            }
            double c = fabs(d) / sqrt(fn * vn);
            if (c > best) {
                best = c;
                st->trivial = j;
            }
        }
        if (st->trivial < 0 || best < 0.99) {
            status = HES_EDEFECTIVE; /* no left eigenvector along the section normal */
            goto out;
        }
        st->trivial_abs = fabs(st->all_re[st->trivial]);
    }
    int k = 0;
    for (int j = 0; j < n; j++)
        if (j != st->trivial)
            st->order[k++] = j;
    st->n_mult = k;
    /* insertion sort by modulus, descending (n is small) */
    for (int i = 1; i < k; i++) {
        int v = st->order[i], j = i;
        double mv = hypot(st->all_re[v], st->all_im[v]);
        while (j > 0 && hypot(st->all_re[st->order[j - 1]], st->all_im[st->order[j - 1]]) < mv) {
            st->order[j] = st->order[j - 1];
            j--;
        }
        st->order[j] = v;
    }
    for (int i = 0; i < k; i++) {
        st->re[i] = st->all_re[st->order[i]];
        st->im[i] = st->all_im[st->order[i]];
    }
    st->psi = k > 0 ? hypot(st->re[0], st->im[0]) : 0.0;
    st->cond = k > 0 ? eig_condition(st->vl, st->vr, st->all_im, n, st->order[0], buf) : 1.0;
    st->stable = st->psi < 1.0;
out:
    free(a);
    free(buf);
    if (status != HES_OK)
        hes_stability_free(st);
    return status;
}
