/*
 * nnls.c - least squares over nonnegative variables, alone and with linear
 * equalities:
 *
 *   min 1/2 |A x - b|^2  s.t.  x >= 0                  (hes__nnls)
 *   min 1/2 |A x - b|^2  s.t.  x >= 0,  C x = e        (hes__nnls_eq)
 *
 * with A (p x n) and C (k x n) of few rows and many columns: the contact
 * problems of inverse dynamics posed in the contact forces, whose rows are
 * a floating base's six coordinates, a robot's joints and its distinct
 * contacts, and whose columns are friction-pyramid edges.
 *
 * hes__nnls is Lawson and Hanson's active-set method (Solving Least Squares
 * Problems, 1974, ch. 23, Algorithm NNLS).  The passive set P holds the
 * variables free to move; the others are 0.  At the start of an iteration
 * x is the least-squares solution on P and positive there; the variable
 * outside P with the largest gradient w_j = A_j^T (b - A x) > 0 joins P;
 * the least squares on P (Householder QR) gives z; where z leaves the
 * orthant, x moves toward z to the first bound and the variables there
 * leave P.  The objective falls at every change of x, and the passive
 * columns stay independent, at most p of them; an iteration costs O(p n)
 * for the gradient and O(p |P|^2) for the QR.
 * Beyond the book: a warm start from a given P (the previous solve's: the
 * least squares on P from x = 0, the variables that come out nonpositive
 * dropped until none does); a column that rounding makes dependent on P's
 * (its QR diagonal below 1e-11 of its norm) or leaves without a positive z
 * is barred until x next moves; a gradient counts as positive above
 * 1e-12 of its column's norm times the scale of b and A x.
 *
 * hes__nnls_eq is the method of multipliers (Hestenes 1969, Powell 1969;
 * Nocedal & Wright, Numerical Optimization, 2nd ed., Sec. 17.3) on the
 * equalities: each subproblem is hes__nnls with the stacked matrix
 * [A; s C] and target [b; s g], s = 30 |A|/|C| (the largest column norms),
 * started from g = e and moved by g <- g - (C x - e) (the multiplier
 * update pi <- pi + s^2 (C x - e) written on the target), warm-started
 * from the last subproblem's P, until |C x - e| is below 1e-13 of the
 * scale of e and C x's terms.  Where |C x - e| falls by less than ten
 * times in a round, s grows ten times (the multipliers kept), to at most
 * 3e4 |A|/|C|: a heavier weight converges faster and costs accuracy, the
 * gradient's rounding growing as s^2.  At the fixed point x is optimal
 * for the equality-constrained problem (the subproblem's optimality
 * conditions are its KKT conditions with multipliers s^2 (e - g)).
 *
 * Why not a packaged solver: Debian 12 has no NNLS or bounded least
 * squares in C (GSL has none; Siconos numerics' LCP and convex-QP solvers
 * and IPOPT were measured on the inverse-dynamics problems at 4 to 48
 * contacts and are 10 to 1000 times slower, or fail: README.md, "Solve time
 * against contacts").
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

struct hes__nnls_ws {
    int pmax, nmax;
    double *R;         /* pmax x pmax: the passive columns' QR */
    double *z, *rhs, *r, *cn, *S, *t, *gv;
    int *plist, *inP, *barred;
};

void hes__nnls_free(hes__nnls_ws *ws)
{
    if (!ws)
        return;
    free(ws->R), free(ws->z), free(ws->rhs), free(ws->r), free(ws->cn);
    free(ws->S), free(ws->t), free(ws->gv), free(ws->plist), free(ws->inP), free(ws->barred);
    free(ws);
}

hes__nnls_ws *hes__nnls_alloc(int pmax, int nmax)
{
    if (pmax < 1 || nmax < 1)
        return NULL;
    hes__nnls_ws *ws = calloc(1, sizeof *ws);
    if (!ws)
        return NULL;
    size_t P = (size_t)pmax, N = (size_t)nmax;
    ws->pmax = pmax, ws->nmax = nmax;
    ws->R = malloc(sizeof(double) * P * P);
    ws->z = malloc(sizeof(double) * N);
    ws->rhs = malloc(sizeof(double) * P);
    ws->r = malloc(sizeof(double) * P);
    ws->cn = malloc(sizeof(double) * N);
    ws->S = malloc(sizeof(double) * P * N);
    ws->t = malloc(sizeof(double) * P);
    ws->gv = malloc(sizeof(double) * P);
    ws->plist = malloc(sizeof(int) * N);
    ws->inP = malloc(sizeof(int) * N);
    ws->barred = malloc(sizeof(int) * N);
    if (!ws->R || !ws->z || !ws->rhs || !ws->r || !ws->cn || !ws->S || !ws->t || !ws->gv ||
        !ws->plist || !ws->inP || !ws->barred) {
        hes__nnls_free(ws);
        return NULL;
    }
    return ws;
}

/* The least squares min |A_P z - b| on the passive list (k columns) by
 * Householder QR, into ws->z (indexed by list position).  Returns -1 when
 * the last column is dependent on the others (its diagonal below 1e-11 of
 * its norm), -2 when an earlier one is (rounding), else 0. */
static int passive_ls(hes__nnls_ws *ws, int p, const double *A, int lda, const double *b,
                      int k)
{
    double *R = ws->R, *y = ws->rhs;
    assert(p <= ws->pmax && lda >= p);
    if (k > p)
        return -1;
    for (int a = 0; a < k; a++)
        memcpy(R + (size_t)a * p, A + (size_t)ws->plist[a] * lda, sizeof(double) * (size_t)p);
    memcpy(y, b, sizeof(double) * (size_t)p);
    for (int a = 0; a < k; a++) {
        double *col = R + (size_t)a * p, nrm = 0;
        for (int i = a; i < p; i++)
            nrm += col[i] * col[i];
        nrm = sqrt(nrm);
        double full = ws->cn[ws->plist[a]];
        if (!(nrm > 1e-11 * full))
            return a == k - 1 ? -1 : -2;
        /* v = col[a..] + sign nrm e_a; H = I - 2 v v^T / v^T v */
        double alpha = col[a] >= 0 ? -nrm : nrm;
        double v0 = col[a] - alpha, vv = v0 * v0;
        for (int i = a + 1; i < p; i++)
            vv += col[i] * col[i];
        col[a] = v0;
        for (int c = a + 1; c < k; c++) {
            double *o = R + (size_t)c * p, s = 0;
            for (int i = a; i < p; i++)
                s += col[i] * o[i];
            s = 2 * s / vv;
            for (int i = a; i < p; i++)
                o[i] -= s * col[i];
        }
        double s = 0;
        for (int i = a; i < p; i++)
            s += col[i] * y[i];
        s = 2 * s / vv;
        for (int i = a; i < p; i++)
            y[i] -= s * col[i];
        col[a] = alpha;           /* R's diagonal; the reflector is not needed again */
    }
    for (int a = k - 1; a >= 0; a--) {
        double s = y[a];
        for (int c = a + 1; c < k; c++)
            s -= R[a + (size_t)c * p] * ws->z[c];
        ws->z[a] = s / R[a + (size_t)a * p];
    }
    return 0;
}

static void drop(hes__nnls_ws *ws, int *k, int pos)
{
    ws->inP[ws->plist[pos]] = 0;
    memmove(ws->plist + pos, ws->plist + pos + 1, sizeof(int) * (size_t)(*k - pos - 1));
    memmove(ws->z + pos, ws->z + pos + 1, sizeof(double) * (size_t)(*k - pos - 1));
    (*k)--;
}

int hes__nnls(hes__nnls_ws *ws, int p, int n, const double *A, int lda, const double *b,
              double *x, int *passive, int warm)
{
    if (!ws || p < 1 || n < 1 || p > ws->pmax || n > ws->nmax || lda < p)
        return -1;
    double bn = 0;
    for (int i = 0; i < p; i++)
        bn += b[i] * b[i];
    bn = sqrt(bn);
    int k = 0;
    for (int j = 0; j < n; j++) {
        double s = 0;
        for (int i = 0; i < p; i++)
            s += A[i + (size_t)j * lda] * A[i + (size_t)j * lda];
        ws->cn[j] = sqrt(s);
        ws->inP[j] = warm && passive[j] && ws->cn[j] > 0 && k < p;
        ws->barred[j] = ws->cn[j] == 0;
        if (ws->inP[j])
            ws->plist[k++] = j;
        x[j] = 0;
    }
    /* the warm start: from x = 0, the least squares on P, dropping what
       comes out nonpositive */
    while (k > 0) {
        int st = passive_ls(ws, p, A, lda, b, k);
        if (st != 0) {
            drop(ws, &k, k - 1);
            continue;
        }
        int any = 0;
        for (int a = k - 1; a >= 0; a--)
            if (!(ws->z[a] > 0))
                drop(ws, &k, a), any = 1;
        if (!any) {
            for (int a = 0; a < k; a++)
                x[ws->plist[a]] = ws->z[a];
            break;
        }
    }
    int it, maxit = 3 * n + 30;
    for (it = 0; it < maxit; it++) {
        /* r = b - A x, w = A^T r, and the scale of the residual's terms */
        double *r = ws->r, ax = 0;
        memcpy(r, b, sizeof(double) * (size_t)p);
        for (int a = 0; a < k; a++) {
            int j = ws->plist[a];
            for (int i = 0; i < p; i++)
                r[i] -= A[i + (size_t)j * lda] * x[j];
            ax += ws->cn[j] * x[j];
        }
        double scale = fmax(bn, ax), best = 0;
        int jb = -1;
        for (int j = 0; j < n; j++) {
            if (ws->inP[j] || ws->barred[j])
                continue;
            double s = 0;
            for (int i = 0; i < p; i++)
                s += A[i + (size_t)j * lda] * r[i];
            if (s > 1e-12 * ws->cn[j] * scale && s / ws->cn[j] > best)
                best = s / ws->cn[j], jb = j;
        }
        if (jb < 0)
            break;
        ws->inP[jb] = 1;
        ws->plist[k++] = jb;
        assert(k <= n && k <= ws->nmax);
        for (int first = 1;; first = 0) {
            int st = passive_ls(ws, p, A, lda, b, k);
            if (st == -2 || (st == -1 && !first))
                return -1;
            if (first && (st == -1 || !(ws->z[k - 1] > 0))) {
                drop(ws, &k, k - 1);
                ws->barred[jb] = 1;
                break;
            }
            double alpha = 1;
            int amin = -1;
            for (int a = 0; a < k; a++)
                if (!(ws->z[a] > 0)) {
                    double xj = x[ws->plist[a]], al = xj / (xj - ws->z[a]);
                    if (amin < 0 || al < alpha)
                        alpha = al, amin = a;
                }
            if (amin < 0) {
                for (int a = 0; a < k; a++)
                    x[ws->plist[a]] = ws->z[a];
                for (int j = 0; j < n; j++)
                    ws->barred[j] = ws->cn[j] == 0;
                break;
            }
            for (int a = 0; a < k; a++) {
                int j = ws->plist[a];
                x[j] += alpha * (ws->z[a] - x[j]);
            }
            /* the blocking variable is 0 (rounding aside), and so is any other
               that reached its bound */
            x[ws->plist[amin]] = 0;
            for (int a = k - 1; a >= 0; a--)
                if (x[ws->plist[a]] <= 0)
                    x[ws->plist[a]] = 0, drop(ws, &k, a);
            if (k == 0)
                break;
        }
    }
    for (int j = 0; j < n; j++)
        passive[j] = ws->inP[j];
    return it < maxit ? it : -1;
}

int hes__nnls_eq(hes__nnls_ws *ws, int p, int k, int n, const double *A, int lda,
                 const double *b, const double *C, int ldc, const double *e, double *x,
                 int *passive, int warm, int *iterations)
{
    int q = p + k;
    if (!ws || q > ws->pmax || n > ws->nmax)
        return -1;
    if (k == 0) {
        int it = hes__nnls(ws, p, n, A, lda, b, x, passive, warm);
        if (iterations && it > 0)
            *iterations += it;
        return it < 0 ? -1 : 0;
    }
    double an = 0, cnm = 0;
    for (int j = 0; j < n; j++) {
        double sa = 0, sc = 0;
        for (int i = 0; i < p; i++)
            sa += A[i + (size_t)j * lda] * A[i + (size_t)j * lda];
        for (int i = 0; i < k; i++)
            sc += C[i + (size_t)j * ldc] * C[i + (size_t)j * ldc];
        an = fmax(an, sa), cnm = fmax(cnm, sc);
    }
    double s0 = cnm > 0 ? (an > 0 ? sqrt(an / cnm) : 1) : 1, s = 30 * s0, last = INFINITY;
    double *S = ws->S, *t = ws->t, *g = t + p, *gv = ws->gv;
    assert(q <= ws->pmax && n <= ws->nmax && ldc >= k && lda >= p);
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < p; i++)
            S[i + (size_t)j * q] = A[i + (size_t)j * lda];
        for (int i = 0; i < k; i++)
            S[p + i + (size_t)j * q] = s * C[i + (size_t)j * ldc];
    }
    memcpy(t, b, sizeof(double) * (size_t)p);
    memcpy(gv, e, sizeof(double) * (size_t)k);
    int ok = -1;
    for (int round = 0; round < 100; round++) {
        for (int i = 0; i < k; i++)
            g[i] = s * gv[i];
        int it = hes__nnls(ws, q, n, S, q, t, x, passive, warm || round > 0);
        if (it < 0)
            break;
        if (iterations)
            *iterations += it;
        double res = 0, sc = 0;
        for (int i = 0; i < k; i++) {
            double cx = 0, ca = 0;
            for (int j = 0; j < n; j++) {
                cx += C[i + (size_t)j * ldc] * x[j];
                ca += fabs(C[i + (size_t)j * ldc] * x[j]);
            }
            res = fmax(res, fabs(cx - e[i]));
            sc = fmax(sc, fmax(ca, fabs(e[i])));
            gv[i] -= cx - e[i];
        }
        if (res <= 1e-13 * sc) {
            ok = 0;
            break;
        }
        /* slow progress: a ten times heavier weight (the multipliers
           s^2 (e - g) kept), up to 3e4 times the columns' ratio */
        if (res > 0.1 * last && s < 3e4 * s0) {
            double f = 10, f2 = f * f;
            for (int i = 0; i < k; i++)
                gv[i] = e[i] - (e[i] - gv[i]) / f2;
            s *= f;
            for (int j = 0; j < n; j++)
                for (int i = 0; i < k; i++)
                    S[p + i + (size_t)j * q] *= f;
        }
        last = res;
    }
    return ok;
}
