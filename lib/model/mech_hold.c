/*
 * mech_hold.c - the modes of a mechanical system that have no chart: their
 * state x = [q, v] (nq + d values) and the manifold it lives on; that of a
 * mode that holds its constraints by their forces (hes_mech_mode.held)
 * comes from its dynamics (mech.c, hes__mech_held_dynamics):
 *
 * Held constraints J (rows Da_J, m of them; h of them "hold position",
 * those that do not stick) give the constrained equations of motion
 *     M q'' - Da^T lambda = f - c,
 *     Da q'' = -drift - 2 s (Da v) - s^2 a_h(q)       (s = HES_MECH_HOLD_RATE),
 * solved as q'' = a0 + M^-1 Da^T lambda, a0 = M^-1 (f - c), with
 * (Da M^-1 Da^T) lambda = rhs - Da a0 (two Cholesky factorisations): the
 * acceleration-level form of the index-3 problem, its drift damped as
 * Baumgarte does (Baumgarte, Comput. Methods Appl. Mech. Eng. 1, 1972;
 * critically damped at rate s).  The terms in s vanish where the
 * constraints hold, so on the manifold
 *     a_h(q) = 0,  Da v = 0
 * the flow is the constrained one, and their first-order change along the
 * manifold's tangent space is zero: the linearisation in tangent
 * coordinates is that of the constrained system.
 *
 * The manifold's tangent space at x (tdim = (d - h) + (d - m)): N_h and N
 * orthonormal bases of the null spaces of the holding rows Da_h and of all
 * rows Da (Householder QR of their transposes: a deterministic basis,
 * smooth where the rows are), K = d(Da v)/dq along velocities (central
 * differences of the rows along q (+) e_j), Da^+ = Da^T (Da Da^T)^-1:
 *     E = [G N_h, 0; -Da^+ K N_h, N]        (columns [dq; dv]),
 *     P = [N_h^T P_q, 0; 0, N^T],           P E = I (N^T Da^T = 0),
 * with G and P_q the quaternions' maps (mech_config.c).  retract moves
 * along E's columns (q (+) N_h dq, v + N dv - Da^+ K N_h dq) and projects
 * back: Newton on a_h (q (+) -Da_h^+ a_h) and v onto Da's null space;
 * local is P applied to (q1 (-) q0, v1 - v0).  Without held constraints
 * the manifold is that of the quaternions alone, [q (+) dq, v + dv].
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>

#include "model/model_internal.h"

/* the held constraints of md that hold position (do not stick), into hold
 * (indices into md->active); their number */
static int holding(const hes_mech_mode *md, int *hold)
{
    int h = 0;
    for (int i = 0; i < md->n_active; i++)
        if (!md->mech->constraints[md->active[i]].sticks)
            hold[h++] = i;
    return h;
}

static int held(const hes_mech_mode *md)
{
    return md->held && md->n_active > 0;
}

int hes_mech_mode_tdim(const hes_mech_mode *md)
{
    const hes_mech *m = md->mech;
    if (md->chart)
        return 2 * md->k;
    if (!held(md))
        return 2 * m->d;
    int h = 0;
    for (int i = 0; i < md->n_active; i++)
        h += !m->constraints[md->active[i]].sticks;
    return (m->d - h) + (m->d - md->n_active);
}

/* ------------------------------------------------------------------------
 * The manifold's maps.  A work block of the held mode's pieces at q.
 */
typedef struct {
    int d, nq, na, h, r, rh;   /* r = d - na, rh = d - h */
    double *J, *Jh;            /* all rows (na x d), the holding ones (h x d) */
    double *N, *Nh;            /* d x r, d x rh: orthonormal null-space bases */
    double *K;                 /* na x d: d(Da v)/dq along velocities */
    double *G, *Pq;            /* nq x d, d x nq */
    double *mem;
} pieces;

static void pieces_free(pieces *P)
{
    free(P->mem);
    memset(P, 0, sizeof *P);
}

/* an orthonormal basis of the null space of A (n x d, column-major, rank
 * n) into N (d x (d - n)): the last d - n columns of the Q of A^T's
 * Householder QR; work: d x d + d + 64 d */
static int null_space(const double *A, int n, int d, double *N, double *work)
{
    if (n == 0) {
        memset(N, 0, sizeof(double) * (size_t)d * d);
        for (int i = 0; i < d; i++)
            N[i + (size_t)i * d] = 1;
        return 0;
    }
    double *Q = work, *tau = Q + (size_t)d * d, *lw = tau + d;
    memset(Q, 0, sizeof(double) * (size_t)d * d);
    for (int j = 0; j < n; j++)   /* A^T: column j is row j of A */
        for (int i = 0; i < d; i++)
            Q[i + (size_t)j * d] = A[j + (size_t)i * n];
    if (LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, d, n, Q, d, tau, lw, 64 * d) != 0)
        return E_DEPENDENT;
    double scale = 0;
    for (int j = 0; j < n; j++)
        scale = fmax(scale, fabs(Q[j + (size_t)j * d]));
    for (int j = 0; j < n; j++)
        if (!(fabs(Q[j + (size_t)j * d]) > 1e-10 * scale))
            return E_DEPENDENT;
    if (LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, d, d, n, Q, d, tau, lw, 64 * d) != 0)
        return E_DEPENDENT;
    memcpy(N, Q + (size_t)n * d, sizeof(double) * (size_t)d * (size_t)(d - n));
    return 0;
}

/* y = Da^+ b = Da^T (Da Da^T)^-1 b for rows J (n x d) and b (n); work n^2 */
static int pinv_apply(const double *J, int n, int d, const double *b, double *y, double *work)
{
    double *S = work, *t = S + (size_t)n * n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int l = 0; l < d; l++)
                s += J[i + (size_t)l * n] * J[j + (size_t)l * n];
            S[i + (size_t)j * n] = s;
        }
    if (hes__mech_chol(S, n))
        return E_DEPENDENT;
    memcpy(t, b, sizeof(double) * (size_t)n);
    hes__mech_chol_solve(S, n, t, 1);
    for (int l = 0; l < d; l++) {
        double s = 0;
        for (int i = 0; i < n; i++)
            s += J[i + (size_t)l * n] * t[i];
        y[l] = s;
    }
    return 0;
}

/* the held mode's pieces at x (with_K: also K, which differences the rows) */
static int pieces_at(const hes_mech_mode *md, const double *x, const double *p, int with_K,
                     pieces *P)
{
    const hes_mech *m = md->mech;
    int d = m->d, nq = hes_mech_nq(m), na = md->n_active;
    int *hold = malloc(sizeof(int) * (size_t)(na + 1));
    if (!hold)
        return E_NOMEM;
    int h = holding(md, hold), rc;
    size_t D = (size_t)d, NQ = (size_t)nq, A = (size_t)na, H = (size_t)h;
    *P = (pieces){ .d = d, .nq = nq, .na = na, .h = h, .r = d - na, .rh = d - h };
    P->mem = malloc(sizeof(double) *
                    (4 * A * D + H * D + 3 * D * D + 2 * NQ * D + 66 * D + NQ));
    if (!P->mem) {
        free(hold);
        return E_NOMEM;
    }
    P->J = P->mem, P->Jh = P->J + A * D, P->N = P->Jh + H * D, P->Nh = P->N + D * D;
    P->K = P->Nh + D * D, P->G = P->K + A * D, P->Pq = P->G + NQ * D;
    double *work = P->Pq + D * NQ, *qs = work + D * D + 65 * D, *ej = qs + NQ,
           *Jp = ej + D, *Jm = Jp + A * D;
    const double *q = x, *v = x + nq;
    hes_mech_qdot_dv(m, q, P->G);
    hes_mech_difference_dq(m, q, P->Pq);
    rc = hes__mech_rows(m, q, p, na, md->active, P->J);
    for (int i = 0; !rc && i < h; i++)
        for (int l = 0; l < d; l++)
            P->Jh[i + (size_t)l * H] = P->J[hold[i] + (size_t)l * A];
    if (!rc)
        rc = null_space(P->J, na, d, P->N, work);
    if (!rc)
        rc = null_space(P->Jh, h, d, P->Nh, work);
    /* K[:, j] = (Da(q (+) t e_j) v - Da(q (+) -t e_j) v) / 2t */
    for (int j = 0; !rc && with_K && j < d; j++) {
        const double t = 1e-6;
        memset(ej, 0, sizeof(double) * D);
        ej[j] = 1;
        hes_mech_integrate(m, q, ej, t, qs);
        if ((rc = hes__mech_rows(m, qs, p, na, md->active, Jp)))
            break;
        hes_mech_integrate(m, q, ej, -t, qs);
        if ((rc = hes__mech_rows(m, qs, p, na, md->active, Jm)))
            break;
        for (int i = 0; i < na; i++) {
            double s = 0;
            for (int l = 0; l < d; l++)
                s += (Jp[i + (size_t)l * A] - Jm[i + (size_t)l * A]) * v[l];
            P->K[i + (size_t)j * A] = s / (2 * t);
        }
    }
    free(hold);
    if (rc)
        pieces_free(P);
    return rc;
}

/* q and v of a held mode onto its manifold: the quaternions unit, Newton
 * on the holding constraints' positions (q (+) -Da_h^+ a_h), then v onto
 * the null space of every held row */
static int project(const hes_mech_mode *md, const double *p, double *q, double *v)
{
    const hes_mech *m = md->mech;
    int d = m->d, nq = hes_mech_nq(m), na = md->n_active, rc = 0;
    size_t D = (size_t)d, A = (size_t)na;
    int *hold = malloc(sizeof(int) * (A + 1));
    double *w = malloc(sizeof(double) * (2 * A * D + 2 * A * A + 4 * A + 2 * D + (size_t)nq));
    if (!hold || !w) {
        free(hold), free(w);
        return E_NOMEM;
    }
    int h = holding(md, hold);
    double *J = w, *Jh = J + A * D, *work = Jh + A * D, *ah = work + A * A + A, *y = ah + A,
           *qs = y + D, *jv = qs + nq;
    hes_mech_normalize(m, q);
    double scale = 1;
    for (int i = 0; i < nq; i++)
        scale = fmax(scale, fabs(q[i]));
    for (int it = 0; h > 0 && it < 30 && !rc; it++) {
        double worst = 0, row_unused;
        (void)row_unused;
        if ((rc = hes__mech_rows(m, q, p, na, md->active, J)))
            break;
        for (int i = 0; i < h && !rc; i++) {
            const hes_mech_constraint *c = &m->constraints[md->active[hold[i]]];
            rc = c->a(q, p, &ah[i], hes_mech_constraint_data(m, c)) ? E_CALLBACK : 0;
            worst = fmax(worst, fabs(ah[i]));
            for (int l = 0; l < d; l++)
                Jh[i + (size_t)l * h] = J[hold[i] + (size_t)l * A];
        }
        if (rc || worst <= 1e-14 * scale)
            break;
        if ((rc = pinv_apply(Jh, h, d, ah, y, work)))
            break;
        hes_mech_integrate(m, q, y, -1, qs);
        memcpy(q, qs, sizeof(double) * (size_t)nq);
    }
    if (!rc && !(rc = hes__mech_rows(m, q, p, na, md->active, J))) {
        hes__matmul(na, d, 1, J, v, jv);
        if (!(rc = pinv_apply(J, na, d, jv, y, work)))
            for (int l = 0; l < d; l++)
                v[l] -= y[l];
    }
    free(hold), free(w);
    return rc;
}

/* ------------------------------------------------------------------------
 * hes_mode's hooks.  Without held constraints: the quaternions' chart
 * [q (+) dq, v + dv].
 */

int hes_mech_retract(const double *x, const double *delta, const double *p, double *out,
                     void *data)
{
    const hes_mech_mode *md = data;
    const hes_mech *m = md->mech;
    int d = m->d, nq = hes_mech_nq(m);
    if (!held(md)) {
        hes_mech_integrate(m, x, delta, 1, out);
        for (int i = 0; i < d; i++)
            out[nq + i] = x[nq + i] + delta[d + i];
        return 0;
    }
    pieces P;
    int rc = pieces_at(md, x, p, 1, &P);
    if (rc)
        return rc;
    double *dq = malloc(sizeof(double) * (3 * (size_t)d + 2 * (size_t)P.na * P.na + P.na));
    if (!dq) {
        pieces_free(&P);
        return E_NOMEM;
    }
    double *kdq = dq + d, *y = kdq + d, *work = y + d;
    hes__matmul(d, P.rh, 1, P.Nh, delta, dq);
    hes_mech_integrate(m, x, dq, 1, out);
    /* v + N dv - Da^+ K dq */
    hes__matmul(P.na, d, 1, P.K, dq, kdq);
    rc = pinv_apply(P.J, P.na, d, kdq, y, work);
    hes__matmul(d, P.r, 1, P.N, delta + P.rh, out + nq);
    for (int i = 0; i < d; i++)
        out[nq + i] += x[nq + i] - y[i];
    if (!rc)
        rc = project(md, p, out, out + nq);
    free(dq);
    pieces_free(&P);
    return rc;
}

int hes_mech_local(const double *x1, const double *x0, const double *p, double *out,
                   void *data)
{
    const hes_mech_mode *md = data;
    const hes_mech *m = md->mech;
    int d = m->d, nq = hes_mech_nq(m);
    if (!held(md)) {
        hes_mech_difference(m, x1, x0, out);
        for (int i = 0; i < d; i++)
            out[d + i] = x1[nq + i] - x0[nq + i];
        return 0;
    }
    pieces P;
    int rc = pieces_at(md, x0, p, 0, &P);
    if (rc)
        return rc;
    double *dq = malloc(sizeof(double) * 2 * (size_t)d);
    if (!dq) {
        pieces_free(&P);
        return E_NOMEM;
    }
    double *dv = dq + d;
    hes_mech_difference(m, x1, x0, dq);
    for (int i = 0; i < d; i++)
        dv[i] = x1[nq + i] - x0[nq + i];
    for (int j = 0; j < P.rh; j++) {   /* N_h^T dq, N^T dv */
        double s = 0;
        for (int i = 0; i < d; i++)
            s += P.Nh[i + (size_t)j * d] * dq[i];
        out[j] = s;
    }
    for (int j = 0; j < P.r; j++) {
        double s = 0;
        for (int i = 0; i < d; i++)
            s += P.N[i + (size_t)j * d] * dv[i];
        out[P.rh + j] = s;
    }
    free(dq);
    pieces_free(&P);
    return 0;
}

int hes_mech_tangent(const double *x, const double *p, double *E, void *data)
{
    const hes_mech_mode *md = data;
    const hes_mech *m = md->mech;
    int d = m->d, nq = hes_mech_nq(m);
    size_t n = (size_t)(nq + d);
    if (!held(md)) {
        /* [G(q) 0; 0 I] (n x 2d): G (nq x d) first, packed, then each column
           moved to its place, the last first (n >= nq: none is overwritten) */
        hes_mech_qdot_dv(m, x, E);
        for (int j = d - 1; j >= 0; j--) {
            memmove(E + (size_t)j * n, E + (size_t)j * nq, sizeof(double) * (size_t)nq);
            memset(E + (size_t)j * n + nq, 0, sizeof(double) * (size_t)d);
        }
        for (int j = 0; j < d; j++) {
            double *col = E + (size_t)(d + j) * n;
            memset(col, 0, sizeof(double) * n);
            col[nq + j] = 1;
        }
        return 0;
    }
    pieces P;
    int rc = pieces_at(md, x, p, 1, &P);
    if (rc)
        return rc;
    double *t = malloc(sizeof(double) * (2 * (size_t)d + 2 * (size_t)P.na * P.na + P.na));
    if (!t) {
        pieces_free(&P);
        return E_NOMEM;
    }
    double *kn = t + d, *work = kn + P.na;
    memset(E, 0, sizeof(double) * n * (size_t)(P.rh + P.r));
    for (int j = 0; j < P.rh && !rc; j++) {   /* [G N_h e_j; -Da^+ K N_h e_j] */
        const double *nj = P.Nh + (size_t)j * d;
        double *col = E + (size_t)j * n;
        hes__matmul(nq, d, 1, P.G, nj, col);
        hes__matmul(P.na, d, 1, P.K, nj, kn);
        if (!(rc = pinv_apply(P.J, P.na, d, kn, t, work)))
            for (int i = 0; i < d; i++)
                col[nq + i] = -t[i];
    }
    for (int j = 0; j < P.r; j++)   /* [0; N e_j] */
        memcpy(E + (size_t)(P.rh + j) * n + nq, P.N + (size_t)j * d, sizeof(double) * d);
    free(t);
    pieces_free(&P);
    return rc;
}

int hes_mech_cotangent(const double *x, const double *p, double *Pm, void *data)
{
    const hes_mech_mode *md = data;
    const hes_mech *m = md->mech;
    int d = m->d, nq = hes_mech_nq(m);
    if (!held(md)) {
        size_t t = (size_t)(2 * d);
        /* [P(q) 0; 0 I] (2d x n): P (d x nq) packed first, its columns moved
           to their place (rows 2d apart), the last first */
        hes_mech_difference_dq(m, x, Pm);
        for (int c = nq - 1; c >= 0; c--) {
            memmove(Pm + (size_t)c * t, Pm + (size_t)c * d, sizeof(double) * (size_t)d);
            memset(Pm + (size_t)c * t + d, 0, sizeof(double) * (size_t)d);
        }
        for (int c = 0; c < d; c++) {
            double *col = Pm + (size_t)(nq + c) * t;
            memset(col, 0, sizeof(double) * t);
            col[d + c] = 1;
        }
        return 0;
    }
    pieces P;
    int rc = pieces_at(md, x, p, 0, &P);
    if (rc)
        return rc;
    size_t T = (size_t)(P.rh + P.r), n = (size_t)(nq + d);
    memset(Pm, 0, sizeof(double) * T * n);
    for (int c = 0; c < nq; c++)   /* N_h^T P_q */
        for (int i = 0; i < P.rh; i++) {
            double s = 0;
            for (int l = 0; l < d; l++)
                s += P.Nh[l + (size_t)i * d] * P.Pq[l + (size_t)c * d];
            Pm[i + (size_t)c * T] = s;
        }
    for (int c = 0; c < d; c++)   /* N^T */
        for (int i = 0; i < P.r; i++)
            Pm[P.rh + i + (size_t)(nq + c) * T] = P.N[c + (size_t)i * d];
    pieces_free(&P);
    return 0;
}

int hes_mech_normalize_state(double *x, const double *p, void *data)
{
    const hes_mech_mode *md = data;
    if (!held(md)) {
        hes_mech_normalize(md->mech, x);
        return 0;
    }
    return project(md, p, x, x + hes_mech_nq(md->mech));
}
