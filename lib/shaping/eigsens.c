/*
 * eigsens.c - the derivative of an eigenvalue of a product of factors,
 *     M = G_nf ... G_2 G_1,
 * by eigenvalue perturbation (paper eq. 5-6): for a simple eigenvalue lambda
 * with right and left eigenvectors v, w of M,
 *     dlambda = w^H dM v / (w^H v),
 *     dM = sum_k G_nf ... G_k+1 dG_k G_k-1 ... G_1    (product rule),
 * so with the sweeps b_k = G_k-1 ... G_1 v (the input of G_k) and
 * a_k = w^H G_nf ... G_k+1 (the row that reads its output),
 *     dlambda = sum_k a_k dG_k b_k / (w^H v),
 *     d|lambda| = Re(conj(lambda) dlambda) / |lambda|.
 * The shape gradient (shape.c) and the collocation's psi gradient
 * (colloc_psi.c) both use it; whether lambda is simple enough is
 * hes__eig_repeated's question (stability.c).
 */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "shaping/shaping.h"

void hes__eig_sens_init(hes__eig_sens *s, const hes_stability *st, int j, int nf,
                        const hes_factor *G, int nm, double *storage)
{
    int n0 = st->n;
    assert(nf > 0 && G[0].cols == n0 && G[nf - 1].rows == n0 && nm >= n0);
    s->nf = nf;
    s->nm = nm;
    s->lr = st->all_re[j];
    s->li = st->all_im[j];
    s->real = s->li == 0.0;
    s->mod = hypot(s->lr, s->li);
    s->br = storage;
    s->bi = s->br + (size_t)nf * nm;
    s->ar = s->bi + (size_t)nf * nm;
    s->ai = s->ar + (size_t)nf * nm;
    /* b_0 = v; a_nf-1 = w^H, kept as (re, im) = (wr, -wi) */
    double *ar = s->ar + (size_t)(nf - 1) * nm, *ai = s->ai + (size_t)(nf - 1) * nm;
    hes__eigvec(st->vr, n0, st->all_im, j, s->br, s->bi);
    hes__eigvec(st->vl, n0, st->all_im, j, ar, ai);
    for (int i = 0; i < n0; i++)
        ai[i] = -ai[i];
    s->den_r = s->den_i = 0.0; /* w^H v */
    for (int i = 0; i < n0; i++) {
        s->den_r += ar[i] * s->br[i] - ai[i] * s->bi[i];
        s->den_i += ar[i] * s->bi[i] + ai[i] * s->br[i];
    }
    int rows = n0;
    for (int k = 0; k + 1 < nf; k++) {
        assert(G[k].cols == rows && G[k].rows <= nm);
        hes__matmul(G[k].rows, rows, 1, G[k].m, s->br + (size_t)k * nm, s->br + (size_t)(k + 1) * nm);
        if (!s->real)
            hes__matmul(G[k].rows, rows, 1, G[k].m, s->bi + (size_t)k * nm,
                        s->bi + (size_t)(k + 1) * nm);
        rows = G[k].rows;
    }
    for (int k = nf - 1; k > 0; k--) {
        const hes_factor *g = &G[k];
        const double *pr = s->ar + (size_t)k * nm, *pi = s->ai + (size_t)k * nm;
        double *qr = s->ar + (size_t)(k - 1) * nm, *qi = s->ai + (size_t)(k - 1) * nm;
        for (int c = 0; c < g->cols; c++) {
            double sr = 0, si = 0;
            for (int r = 0; r < g->rows; r++)
                sr += pr[r] * g->m[r + (size_t)c * g->rows];
            for (int r = 0; !s->real && r < g->rows; r++)
                si += pi[r] * g->m[r + (size_t)c * g->rows];
            qr[c] = sr;
            qi[c] = si;
        }
    }
}

void hes__eig_sens_term(const hes__eig_sens *s, int k, int rows, int cols, const double *dG,
                        double *nr, double *ni)
{
    const double *ar = s->ar + (size_t)k * s->nm, *ai = s->ai + (size_t)k * s->nm;
    const double *br = s->br + (size_t)k * s->nm, *bi = s->bi + (size_t)k * s->nm;
    if (s->real) { /* ai = bi = 0 */
        for (int c = 0; c < cols; c++)
            for (int r = 0; r < rows; r++)
                *nr += ar[r] * dG[r + (size_t)c * rows] * br[c];
        return;
    }
    for (int c = 0; c < cols; c++)
        for (int r = 0; r < rows; r++) {
            double d = dG[r + (size_t)c * rows];
            *nr += ar[r] * d * br[c] - ai[r] * d * bi[c];
            *ni += ar[r] * d * bi[c] + ai[r] * d * br[c];
        }
}

double hes__eig_sens_modulus(const hes__eig_sens *s, double nr, double ni)
{
    double dd = s->den_r * s->den_r + s->den_i * s->den_i, mod = s->mod;
    double lamr = (nr * s->den_r + ni * s->den_i) / dd;
    if (s->real) /* li = 0: the imaginary part does not count */
        return mod > 0 ? s->lr * lamr / mod : 0.0;
    double lami = (ni * s->den_r - nr * s->den_i) / dd;
    return mod > 0 ? (s->lr * lamr + s->li * lami) / mod : 0.0;
}

/* The same functional in rank-one form, scaled by weight: with
 * modulus(nr, ni) = alpha nr + beta ni (it is linear) and
 * nr + i ni = (ar + i ai) dG (br + i bi),
 *   weight d|lambda| = ar^T dG (alpha br + beta bi) + ai^T dG (beta br - alpha bi),
 * pairs (p_j, r_j) with weight d|lambda| = sum_j p_j^T dG r_j: one for a
 * real eigenvalue (ai = bi = 0), two for a complex one. */
int hes__eig_sens_rank1(const hes__eig_sens *s, int k, int rows, int cols, double weight,
                        double *p, int ldp, double *r, int ldr)
{
    const double *ar = s->ar + (size_t)k * s->nm, *ai = s->ai + (size_t)k * s->nm;
    const double *br = s->br + (size_t)k * s->nm, *bi = s->bi + (size_t)k * s->nm;
    double alpha = weight * hes__eig_sens_modulus(s, 1.0, 0.0),
           beta = weight * hes__eig_sens_modulus(s, 0.0, 1.0);
    int nt = s->li != 0.0 ? 2 : 1;
    memcpy(p, ar, sizeof(double) * (size_t)rows);
    for (int c = 0; c < cols; c++)
        r[c] = s->real ? alpha * br[c] : alpha * br[c] + beta * bi[c];
    if (nt == 2) {
        memcpy(p + ldp, ai, sizeof(double) * (size_t)rows);
        for (int c = 0; c < cols; c++)
            r[ldr + c] = beta * br[c] - alpha * bi[c];
    }
    return nt;
}
