/*
 * stability.c - Floquet multipliers of a periodic orbit: eigenvalues of the
 * monodromy (non-autonomous) or of the return-map Jacobian on the Poincare
 * section (autonomous), by LAPACK dgeev with left and right eigenvectors, and
 * the stability measure psi = max |lambda| over the nontrivial multipliers
 * (paper Sec. II-C).  The projected matrix has a trivial eigenvalue 0 whose
 * left eigenvector is the section normal; it is identified by that
 * eigenvector, never by its value.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>

#include "hybrid/hybrid.h"

void hes_stability_free(hes_stability *st)
{
    if (!st)
        return;
    free(st->re);
    free(st->im);
    free(st->abs);
    free(st->vr);
    free(st->vl);
    free(st->all_re);
    free(st->all_im);
    free(st->order);
    free(st->work);
    memset(st, 0, sizeof *st);
}

void hes__eigvec(const double *V, int n, const double *wi, int j, double *re, double *im)
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

double hes__eig_condition(const double *vl, const double *vr, const double *wi, int n,
                          int j, double *buf)
{
    double *wr_ = buf, *wim = buf + n, *vre = buf + 2 * n, *vim = buf + 3 * n;
    hes__eigvec(vl, n, wi, j, wr_, wim);
    hes__eigvec(vr, n, wi, j, vre, vim);
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

/* Orthonormal basis Q (n x (n-1)) of the plane normal to the unit vector nh:
 * columns 2..n of the Householder reflector that maps nh to -+e_1. */
static void section_basis(const double *nh, int n, double *Q, double *u)
{
    double s = nh[0] >= 0 ? 1.0 : -1.0, uu = 0;
    for (int i = 0; i < n; i++)
        u[i] = nh[i];
    u[0] += s;
    for (int i = 0; i < n; i++)
        uu += u[i] * u[i];
    for (int j = 1; j < n; j++)
        for (int i = 0; i < n; i++)
            Q[i + (size_t)(j - 1) * n] = (i == j) - 2.0 * u[i] * u[j] / uu;
}

/*
 * Autonomous case.  The return-map Jacobian maps into the section:
 * normal^T P = 0.  In the orthonormal basis [Q, nh] (nh the unit normal)
 *     P = [[M, b], [0, 0]],   M = Q^T P Q,  b = Q^T P nh,
 * so its eigenvalues are eig(M) and the trivial 0, exactly, whatever the
 * nontrivial multipliers are (one may be 0 as well, e.g. after a plastic
 * impact).  Eigenvectors of P for an eigenvalue lambda of M: right Q v,
 * left Q w + nh d with conj(d) = w^H b / lambda (0 when lambda = 0).
 * The trivial eigenvalue is stored last (index n - 1): left eigenvector nh,
 * right eigenvector Q y + nh with M y = -b (zero if M is singular).
 */
static hes_status deflate_section(const double *P, const double *normal, int n,
                                  hes_stability *st)
{
    int m = n - 1;
    size_t nn = (size_t)n * n;
    double *mem = st->work + nn + 4 * (size_t)n; /* after compute's a and buf */
    double *Q = mem, *M = Q + nn, *VL = M + nn, *VR = VL + nn, *nh = VR + nn,
           *b = nh + n, *u = b + n, *t = u + n, *Mc = t + n;
    hes_status status = HES_OK;
    double nn2 = 0, pf = 0, res = 0;
    for (int i = 0; i < n; i++)
        nn2 += normal[i] * normal[i];
    for (size_t i = 0; i < nn; i++)
        pf += P[i] * P[i];
    if (!(nn2 > 0)) {
        status = HES_EDEFECTIVE;
        goto out;
    }
    for (int i = 0; i < n; i++)
        nh[i] = normal[i] / sqrt(nn2);
    for (int j = 0; j < n; j++) { /* |P^T nh| */
        double d = 0;
        for (int i = 0; i < n; i++)
            d += nh[i] * P[i + (size_t)j * n];
        res += d * d;
    }
    st->trivial_abs = sqrt(res) / fmax(1.0, sqrt(pf));
    if (!(st->trivial_abs <= 1e-8)) { /* P does not map into the section */
        status = HES_EDEFECTIVE;
        goto out;
    }
    section_basis(nh, n, Q, u);
    /* t = P nh, b = Q^T t; M = Q^T P Q (PQ in VR as scratch) */
    hes__matmul(n, n, 1, P, nh, t);
    for (int j = 0; j < m; j++) {
        double s = 0;
        for (int i = 0; i < n; i++)
            s += Q[i + (size_t)j * n] * t[i];
        b[j] = s;
    }
    hes__matmul(n, n, m, P, Q, VR);
    for (int j = 0; j < m; j++)
        for (int i = 0; i < m; i++) {
            double s = 0;
            for (int l = 0; l < n; l++)
                s += Q[l + (size_t)i * n] * VR[l + (size_t)j * n];
            M[i + (size_t)j * m] = s;
        }
    memcpy(Mc, M, sizeof(double) * (size_t)m * m); /* dgeev overwrites M */
    st->trivial = m;
    st->all_re[m] = st->all_im[m] = 0.0;
    if (m > 0 && LAPACKE_dgeev_work(LAPACK_COL_MAJOR, 'V', 'V', m, M, m, st->all_re, st->all_im,
                                    VL, m, VR, m, st->work + st->lwork_at, st->lwork) != 0) {
        status = HES_ESOLVER;
        goto out;
    }
    for (int j = 0; j < m; j++) {
        /* right: Q v (real and imaginary columns alike) */
        hes__matmul(n, m, 1, Q, VR + (size_t)j * m, st->vr + (size_t)j * n);
        hes__matmul(n, m, 1, Q, VL + (size_t)j * m, st->vl + (size_t)j * n);
    }
    for (int j = 0; j < m; j++) {
        double lr = st->all_re[j], li = st->all_im[j];
        if (li < 0)
            continue; /* handled with its conjugate */
        const double *a = VL + (size_t)j * m, *c = li > 0 ? VL + (size_t)(j + 1) * m : NULL;
        double sr = 0, si = 0; /* s = w^H b */
        for (int i = 0; i < m; i++) {
            sr += a[i] * b[i];
            if (c)
                si -= c[i] * b[i];
        }
        double den = lr * lr + li * li, dr = 0, di = 0;
        if (den > 0) { /* d = conj(s / lambda) */
            dr = (sr * lr + si * li) / den;
            di = -(si * lr - sr * li) / den;
        }
        for (int i = 0; i < n; i++) {
            st->vl[i + (size_t)j * n] += nh[i] * dr;
            if (c)
                st->vl[i + (size_t)(j + 1) * n] += nh[i] * di;
        }
    }
    /* trivial eigenvector pair */
    for (int i = 0; i < n; i++)
        st->vl[i + (size_t)m * n] = nh[i];
    memset(st->vr + (size_t)m * n, 0, sizeof(double) * (size_t)n);
    if (m > 0) {
        int *ipiv = (int *)u; /* n doubles hold m ints */
        for (int i = 0; i < m; i++)
            t[i] = -b[i];
        if (LAPACKE_dgesv(LAPACK_COL_MAJOR, m, 1, Mc, m, ipiv, t, m) == 0) {
            hes__matmul(n, m, 1, Q, t, st->vr + (size_t)m * n);
            for (int i = 0; i < n; i++)
                st->vr[i + (size_t)m * n] += nh[i];
        }
    } else {
        st->vr[0] = 1.0;
    }
out:
    return status;
}

int hes__eig_repeated(const hes_stability *st, int j, double *buf)
{
    double lr = st->all_re[j], li = st->all_im[j], scale = fmax(1.0, hypot(lr, li));
    int partner = li > 0 ? j + 1 : li < 0 ? j - 1 : -1;
    for (int l = 0; l < st->n; l++)
        if (l != j && l != partner &&
            hypot(st->all_re[l] - lr, st->all_im[l] - li) < HES_EIG_GAP_MIN * scale)
            return 1;
    return hes__eig_condition(st->vl, st->vr, st->all_im, st->n, j, buf) > HES_EIG_COND_MAX;
}

double hes__measure(const double *abs, int n, hes_measure measure, double *weights)
{
    double psi = n > 0 ? abs[0] : 0.0;
    for (int k = 0; weights && k < n; k++)
        weights[k] = 0.0;
    if (measure == HES_MEASURE_PSI || !(psi > 0)) {
        if (weights && n > 0)
            weights[0] = 1.0;
        return psi;
    }
    double sum = 0;
    for (int k = 0; k < n; k++)
        sum += pow(abs[k] / psi, HES_SMOOTH_P);
    double scale = pow(sum, 1.0 / HES_SMOOTH_P - 1.0);
    for (int k = 0; weights && k < n; k++) {
        double w = scale * pow(abs[k] / psi, HES_SMOOTH_P - 1);
        weights[k] = w > 1e-10 ? w : 0.0;
    }
    return psi * pow(sum, 1.0 / HES_SMOOTH_P);
}

hes_verdict hes_verdict_of(double psi, double tol)
{
    if (psi < 1.0 - tol)
        return HES_STABLE;
    if (psi > 1.0 + tol)
        return HES_UNSTABLE;
    return HES_MARGINAL;
}

const char *hes_verdict_name(hes_verdict verdict)
{
    switch (verdict) {
    case HES_STABLE:
        return "stable";
    case HES_UNSTABLE:
        return "unstable";
    default:
        return "marginal";
    }
}

/*
 * How well psi is known.  The analysed matrix M carries an error of about
 * delta = accuracy max(1, |M|_F) (accuracy: the relative accuracy of the
 * integration and the orbit, hes_monodromy.accuracy).  A simple eigenvalue
 * moves by about cond delta to first order (cond = 1 / |w^H v|, Wilkinson)
 * while that is small against its distance to the others; m eigenvalues
 * that an error of size delta can merge (up to an m x m Jordan block) move
 * by up to delta^(1/m) (Lidskii; Moro, Burke & Overton, SIAM J. Matrix
 * Anal. Appl. 18, 1997).  Such a cluster is taken to be there when m of the
 * eigenvalues (the trivial 0 of an autonomous orbit left out) lie within
 * 2 delta^(1/m) of the maximising one (the largest such m); psi_tol is then
 * min(cond delta, delta^(1/m)), and for an isolated eigenvalue
 * min(cond delta, delta^(1/k)) with k the number of multipliers, no
 * eigenvalue moving by more to leading order.  psi-optimal orbits tend to
 * such clusters (several multipliers of one modulus), where the former
 * min(cond delta, delta^(1/2)) understated a triple one's error by a factor
 * 30 (test_stability).  At least 4 eps: rounding in dgeev itself.
 */
/* re, im: the nm multipliers, the maximising one first */
static double psi_accuracy(const double *M, int n, double accuracy, double cond,
                           const double *re, const double *im, int nm)
{
    double f = 0;
    for (int i = 0; i < n * n; i++)
        f += M[i] * M[i];
    double delta = fmax(accuracy, 0.0) * fmax(1.0, sqrt(f));
    int m = 1;
    for (int k = nm; k >= 2 && m == 1; k--) { /* multiplier 0 is the maximising one */
        double r = 2.0 * pow(delta, 1.0 / k);
        int near = 0;
        for (int j = 0; j < nm; j++)
            near += hypot(re[j] - re[0], im[j] - im[0]) <= r;
        if (near >= k)
            m = k;
    }
    double holder = pow(delta, 1.0 / (m > 1 ? m : nm > 0 ? nm : 1));
    double tol = isfinite(cond) ? fmin(cond * delta, holder) : holder;
    return fmax(tol, 4.0 * 2.220446049250313e-16);
}

/* dgeev's workspace length for order n matrices (a query, which allocates
 * nothing), at least its minimum 4n. */
static int dgeev_lwork(int n)
{
    double q = 0, d = 0;
    if (n < 1 || LAPACKE_dgeev_work(LAPACK_COL_MAJOR, 'V', 'V', n, &d, n, &d, &d, &d, n, &d, n,
                                    &q, -1) != 0)
        q = 0;
    return (int)fmax(q, 4.0 * (n > 0 ? n : 1));
}

/* The arrays of st for an n x n matrix, and its workspace: a (n^2) and buf
 * (4n) of the computation, deflate_section's 5 n^2 + 4 n, then dgeev's,
 * then the symmetric quotient's (symmetry.c). */
hes_status hes__stability_alloc(hes_stability *st, int n)
{
    size_t nn = (size_t)n * n;
    int lw = dgeev_lwork(n), lw1 = dgeev_lwork(n - 1);
    st->n = n;
    st->lwork = lw > lw1 ? lw : lw1;
    st->lwork_at = 6 * nn + 8 * (size_t)n;
    st->all_re = malloc(sizeof(double) * (size_t)n);
    st->all_im = malloc(sizeof(double) * (size_t)n);
    st->vr = calloc(nn, sizeof(double));
    st->vl = calloc(nn, sizeof(double));
    st->re = malloc(sizeof(double) * (size_t)n);
    st->im = malloc(sizeof(double) * (size_t)n);
    st->abs = malloc(sizeof(double) * (size_t)n);
    st->order = malloc(sizeof(int) * (size_t)n);
    st->work = malloc(sizeof(double) * (st->lwork_at + (size_t)st->lwork +
                                        hes__symmetry_work(n, n - 1)));
    if (!st->all_re || !st->all_im || !st->vr || !st->vl || !st->re || !st->im || !st->abs ||
        !st->order || !st->work)
        return HES_ENOMEM;
    return HES_OK;
}

static hes_status stability_run(const hes_monodromy *mono, hes_stability *st);

hes_status hes_stability_compute(const hes_monodromy *mono, hes_stability *st)
{
    if (!mono || !st) {
        if (st)
            memset(st, 0, sizeof *st);
        return HES_EINVAL;
    }
    memset(st, 0, sizeof *st);
    hes_status status = hes_stability_update(mono, st);
    if (status != HES_OK) {   /* freed, but the symmetries' residual says why */
        int ns = st->n_symmetric;
        double res = st->symmetry_residual;
        hes_stability_free(st);
        st->n_symmetric = ns;
        st->symmetry_residual = res;
    }
    return status;
}

hes_status hes_stability_update(const hes_monodromy *mono, hes_stability *st)
{
    if (!mono || !st)
        return HES_EINVAL;
    const double *M = mono->autonomous ? mono->proj : mono->phi;
    if (!M || mono->n < 1 || (mono->autonomous && !mono->normal))
        return HES_EINVAL;
    if (st->n != mono->n || !st->work) {
        hes_stability_free(st);
        hes_status status = hes__stability_alloc(st, mono->n);
        if (status != HES_OK) {
            hes_stability_free(st);
            return status;
        }
    }
    return stability_run(mono, st);
}

/* The analysis of M (n x n; normal: its section normal, or NULL) into st's
 * arrays, whose columns it lays out n apart: no allocation. */
static hes_status analyse(const double *M, const double *normal, int n, double accuracy,
                          hes_stability *st)
{
    double *a = st->work, *buf = a + (size_t)n * n;
    hes_status status = HES_OK;
    st->trivial_abs = 0;
    st->trivial = -1;
    int deflate = 0;
    for (int i = 0; normal && i < n; i++)
        deflate |= normal[i] != 0.0;
    if (deflate) {
        if ((status = deflate_section(M, normal, n, st)) != HES_OK)
            return status;
    } else {
        memcpy(a, M, sizeof(double) * (size_t)n * n);
        if (LAPACKE_dgeev_work(LAPACK_COL_MAJOR, 'V', 'V', n, a, n, st->all_re, st->all_im,
                               st->vl, n, st->vr, n, st->work + st->lwork_at, st->lwork) != 0)
            return HES_ESOLVER;
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
        st->abs[i] = hypot(st->re[i], st->im[i]);
    }
    /* every eigenvalue is a multiplier but the trivial one, in descending modulus */
    assert(k == n - (st->trivial >= 0));
    for (int i = 1; i < k; i++)
        assert(st->abs[i] <= st->abs[i - 1]);
    st->psi = k > 0 ? st->abs[0] : 0.0;
    st->cond = k > 0 ? hes__eig_condition(st->vl, st->vr, st->all_im, n, st->order[0], buf) : 1.0;
    st->psi_tol = psi_accuracy(M, n, accuracy, st->cond, st->re, st->im, k);
    st->verdict = hes_verdict_of(st->psi, st->psi_tol);
    st->stable = st->verdict == HES_STABLE;
    return HES_OK;
}

/* The columns of V (m apart, m of them) as W V (n apart, n x m): in place,
 * the last column first (column j's new place starts at or after its old
 * one's end only for the columns after it); t holds n doubles. */
static void lift(double *V, const double *W, int n, int m, double *t)
{
    for (int j = m - 1; j >= 0; j--) {
        hes__matmul(n, m, 1, W, V + (size_t)j * m, t);
        memcpy(V + (size_t)j * n, t, sizeof(double) * (size_t)n);
    }
}

/* The analysis of M (mono->proj or mono->phi), of its quotient by the
 * symmetric directions when there are any, into st's arrays, which are
 * allocated for n = mono->n: no allocation. */
static hes_status stability_run(const hes_monodromy *mono, hes_stability *st)
{
    const double *M = mono->autonomous ? mono->proj : mono->phi;
    const double *normal = mono->autonomous ? mono->normal : NULL;
    int n = mono->n, s = mono->symmetric ? mono->n_symmetric : 0;
    assert(st->n == n && st->work);
    st->n_symmetric = 0;
    st->symmetry_residual = 0;
    if (!hes__all_finite(M, n * n) || (normal && !hes__all_finite(normal, n)) ||
        (s > 0 && !hes__all_finite(mono->symmetric, n * s)))
        return HES_ENONFINITE;
    if (s < 1)
        return analyse(M, normal, n, mono->accuracy, st);
    if (s >= n)
        return HES_EINVAL;
    hes_symmetry_quotient q;
    double *sw = st->work + st->lwork_at + st->lwork;
    st->n_symmetric = s;   /* set first: dependent generators are the symmetries' fault */
    st->symmetry_residual = NAN;
    hes_status status = hes__symmetry_quotient(M, normal, n, mono->symmetric, s, sw, &q);
    if (status != HES_OK)
        return status;
    st->symmetry_residual = q.residual;
    if (!(q.residual <= fmax(1e-6, 100.0 * mono->accuracy)))
        return HES_EDEFECTIVE;
    if ((status = analyse(q.D, q.normal, q.n, mono->accuracy, st)) != HES_OK)
        return status;
    lift(st->vr, q.W, n, q.n, st->work);
    lift(st->vl, q.W, n, q.n, st->work);
    /* the symmetric multipliers, eigenvalues of A, and U as their vectors */
    double *A = st->work;
    memcpy(A, q.A, sizeof(double) * (size_t)s * s);
    double dummy = 0;
    if (LAPACKE_dgeev_work(LAPACK_COL_MAJOR, 'N', 'N', s, A, s, st->all_re + q.n,
                           st->all_im + q.n, &dummy, 1, &dummy, 1, st->work + st->lwork_at,
                           st->lwork) != 0)
        return HES_ESOLVER;
    memcpy(st->vr + (size_t)q.n * n, q.U, sizeof(double) * (size_t)n * s);
    memcpy(st->vl + (size_t)q.n * n, q.U, sizeof(double) * (size_t)n * s);
    return HES_OK;
}
