/*
 * invdyn_convex.c - the convex inverse dynamics (Zapolsky & Drumwright,
 * Sec. 6: Stage I, least kinetic energy; Stage II, least torque among the
 * Stage I optima) posed in the contact forces, whose Hessians are of low
 * rank.
 *
 * With W = W_B (the elimination of the actuated directions, invdyn.c),
 * factored W = Q Q^T, Q nv x r (r = nv - nu for a floating base: its six
 * unactuated directions), the accelerations are a = a0 + Q y with
 *
 *   y = Q^T J^T f   (r numbers: all the forces' effect on the motion).
 *
 * Stage I's objective, eq. 75 (invdyn.c: 1/2 f^T U W U^T f + f^T U W
 * (M v / dt - h)), is 1/2 |y + d|^2 - 1/2 |d|^2 with d = Q^T (M v / dt - h),
 * and non-penetration N a + b_N >= 0 is P y + q >= 0 with P = N Q, q =
 * N a0 + b_N: both depend on the forces through y alone.  In the
 * friction pyramid's edge variables lambda >= 0 (f = sum over a contact's
 * edges n + mu (+-s or +-t) of lambda; for the infinite-friction form the
 * normal and the tangents split into nonnegative parts), y = G lambda with
 * G's columns Q^T (the edge's force row)^T, so that
 *
 *   Stage I:   min 1/2 |G lambda + d|^2  s.t.  lambda >= 0, s >= 0,
 *              P G lambda - s = -q                  (s: the slacks),
 *   Stage II:  min 1/2 |T lambda - tau_h|^2  s.t.  lambda >= 0,
 *              G lambda = y*                        (Stage I's y),
 *
 * with tau = tau_h - T lambda (T's columns G_B^-1 (M^-1 B)^T (the edge's
 * row)^T, tau_h = G_B^-1 (B^T a_des + (M^-1 B)^T h), invdyn.c's finish).
 * Both are least squares with r (Stage I) or nu (Stage II) rows, bounds
 * and a few equalities: hes__nnls_eq (base/nnls.c), warm-started from the
 * previous solve's passive sets.  No eigendecomposition of the forces'
 * Hessian, no LCP: an iteration costs O(rows x variables).  The kinetic
 * energy (through y) and the torques (Stage II's objective is strictly
 * convex in tau) are unique; the forces need not be, and are the least
 * squares' basic solution.  Identical non-penetration rows (copies of a
 * contact) are one constraint.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "invdyn/invdyn_ws.h"

int hes__invdyn_convex_alloc(hes_invdyn *id)
{
    int nv = id->nv, nu = id->nu, nc = id->nc, rows = id->rows > 0 ? id->rows : 1;
    int nmax = id->u_max + nc > 0 ? id->u_max + nc : 1;
    int pmax = nv + nc > nu + nv ? nv + nc : nu + nv;
    size_t V = (size_t)nv, N = (size_t)nmax;
    id->ls = hes__nnls_alloc(pmax, nmax);
    id->Qw = malloc(sizeof(double) * V * V);
    id->QJ = malloc(sizeof(double) * V * (size_t)rows);
    id->RJ = malloc(sizeof(double) * (size_t)nu * (size_t)rows);
    id->A1 = malloc(sizeof(double) * V * N);
    id->C1 = malloc(sizeof(double) * (size_t)(nc > 0 ? nc : 1) * N);
    id->A2 = malloc(sizeof(double) * (size_t)nu * N);
    id->lam = malloc(sizeof(double) * N);
    id->y = malloc(sizeof(double) * (2 * V + 1));
    id->rep = malloc(sizeof(int) * (size_t)(nc > 0 ? nc : 1));
    id->pas1 = calloc(N, sizeof(int));
    id->pas2 = calloc(2 * N, sizeof(int));
    return id->ls && id->Qw && id->QJ && id->RJ && id->A1 && id->C1 && id->A2 && id->lam &&
           id->y && id->rep && id->pas1 && id->pas2;
}

void hes__invdyn_convex_free(hes_invdyn *id)
{
    hes__nnls_free(id->ls);
    free(id->Qw), free(id->QJ), free(id->RJ), free(id->A1), free(id->C1), free(id->A2);
    free(id->lam), free(id->y), free(id->rep), free(id->pas1), free(id->pas2);
}

/* Variable j's force: an (the normal row) + at (tangent row td, 0-based
 * among the tangents): the pyramid's edges (cone) or the split normal and
 * tangents (infinite friction). */
static void variable(int j, int cone, int t, const double *mu, int *c, double *an, int *td,
                     double *at)
{
    int per = cone ? 2 * t : 1 + 2 * t, e = j % per;
    *c = j / per;
    if (cone) {
        *an = 1, *td = e / 2, *at = (e % 2 ? -1 : 1) * mu[*c];
    } else if (e == 0) {
        *an = 1, *td = -1, *at = 0;
    } else {
        *an = 0, *td = (e - 1) / 2, *at = (e - 1) % 2 ? -1 : 1;
    }
}

/* W = Q Q^T (Q into id->Qw, r columns: W's eigenvectors scaled by the
 * roots of its eigenvalues above rounding, 1e-10 of M^-1's largest
 * diagonal: W is a difference of M^-1 terms), and per J row k: Q^T J_k^T
 * (id->QJ, r x rows) and G_B^-1 (M^-1 B)^T J_k^T (id->RJ, nu x rows).
 * Returns r, or -1 (msg) when W's eigenvalues fail or vanish. */
static int factor(hes_invdyn *id, const hes_invdyn_problem *pb, char *msg, size_t len)
{
    int nv = id->nv, nu = id->nu, rows = id->rows;
    double *Q = id->Qw, *ev = id->ev;
    memcpy(Q, id->WB, sizeof(double) * (size_t)nv * (size_t)nv);
    if (hes__sym_eig(nv, Q, ev) != 0) {
        hes__say(msg, len, HES_ESOLVER, "convex: the eigenvalues of W failed");
        return -1;
    }
    double mscale = 0;
    for (int i = 0; i < nv; i++)
        mscale = fmax(mscale, id->Minv[i + (size_t)i * nv]);
    int r = 0;
    for (int k = 0; k < nv; k++)
        if (ev[k] > 1e-10 * mscale) {
            double s = sqrt(ev[k]);
            for (int i = 0; i < nv; i++)
                Q[i + (size_t)r * nv] = s * Q[i + (size_t)k * nv];
            r++;
        }
    if (r == 0) {
        hes__say(msg, len, HES_ESOLVER, "convex: the forces do not move the robot (every "
                 "direction actuated)");
        return -1;
    }
    double *QJ = id->QJ, *RJ = id->RJ;
    for (int k = 0; k < rows; k++) {
        for (int a = 0; a < r; a++) {
            double s = 0;
            for (int i = 0; i < nv; i++)
                s += Q[i + (size_t)a * nv] * pb->J[k + (size_t)i * rows];
            QJ[a + (size_t)k * r] = s;
        }
        for (int b = 0; b < nu; b++) {
            double s = 0;
            for (int i = 0; i < nv; i++)
                s += id->MiB[i + (size_t)b * nv] * pb->J[k + (size_t)i * rows];
            RJ[b + (size_t)k * nu] = s;
        }
    }
    hes__chol_solve(id->G, nu, RJ, rows);
    return r;
}

/* Variable j's columns: G (r, into g) and T (nu, into tc) */
static void columns(const hes_invdyn *id, int r, int j, int cone, const double *mu, double *g,
                    double *tc)
{
    int c, td, nc = id->nc, nu = id->nu;
    double an, at;
    variable(j, cone, id->t, mu, &c, &an, &td, &at);
    int kt = td >= 0 ? (1 + td) * nc + c : c;
    for (int a = 0; a < r; a++)
        g[a] = an * id->QJ[a + (size_t)c * r] + at * id->QJ[a + (size_t)kt * r];
    for (int b = 0; b < nu; b++)
        tc[b] = an * id->RJ[b + (size_t)c * nu] + at * id->RJ[b + (size_t)kt * nu];
}

/* Net forces from the variables lam (only those with use[j], NULL: all) */
static void net_forces(hes_invdyn *id, const hes_invdyn_problem *pb, int m, int cone,
                       const double *lam, const int *use, double *f)
{
    int nc = id->nc;
    memset(f, 0, sizeof(double) * (size_t)id->rows);
    for (int j = 0; j < m; j++) {
        if (use && !use[j])
            continue;
        int c, td;
        double an, at;
        variable(j, cone, id->t, pb->mu, &c, &an, &td, &at);
        f[c] += an * lam[j];
        if (td >= 0)
            f[(1 + td) * nc + c] += at * lam[j];
    }
}

hes_status hes__invdyn_convex_forces(hes_invdyn *id, const hes_invdyn_problem *pb,
                                     const hes_invdyn_options *o, hes_invdyn_result *res,
                                     char *msg, size_t len)
{
    int nv = id->nv, nu = id->nu, nc = id->nc, rows = id->rows;
    int cone = o->method == HES_INVDYN_CONVEX;
    int m = cone ? nc * 2 * id->t : nc * (1 + 2 * id->t);
    int r = factor(id, pb, msg, len);
    if (r < 0)
        return HES_ESOLVER;
    assert(r <= nv && m <= id->u_max && id->rows == nc * (1 + id->t));
    double *Q = id->Qw, *QJ = id->QJ;
    /* Stage I's target -d = -Q^T (M v / dt - h); tau_h */
    double *d = id->y + r, *g = id->tmp;
    hes__invdyn_momentum_rate(pb, g);
    for (int a = 0; a < r; a++) {
        double s = 0;
        for (int i = 0; i < nv; i++)
            s += Q[i + (size_t)a * nv] * g[i];
        d[a] = -s;
    }
    double *th = id->tmp2;
    hes__invdyn_tau_h(id, pb, th);
    /* the edge columns: G (A1's first m columns), T (A2) */
    int n1 = 0;
    double *A1 = id->A1, *A2 = id->A2;
    for (int j = 0; j < m; j++)
        columns(id, r, j, cone, pb->mu, A1 + (size_t)j * r, A2 + (size_t)j * nu);
    /* non-penetration rows P_c = N_c Q (QJ's column c), q_c = N_c a0 + b_c;
       identical rows are one constraint */
    double *q = id->x0, pscale = 0, qscale = 0;
    for (int c = 0; c < nc; c++) {
        double s = pb->b[c];
        for (int i = 0; i < nv; i++)
            s += pb->J[c + (size_t)i * rows] * id->a0B[i];
        q[c] = s;
        qscale = fmax(qscale, fabs(s));
        for (int a = 0; a < r; a++)
            pscale = fmax(pscale, fabs(QJ[a + (size_t)c * r]));
    }
    int nk = 0;
    for (int c = 0; c < nc; c++) {
        int same = -1;
        for (int i = 0; i < nk && same < 0; i++) {
            int c2 = id->rep[i], eq = fabs(q[c] - q[c2]) <= 1e-13 * qscale;
            for (int a = 0; a < r && eq; a++)
                eq = fabs(QJ[a + (size_t)c * r] - QJ[a + (size_t)c2 * r]) <= 1e-13 * pscale;
            if (eq)
                same = i;
        }
        if (same < 0)
            id->rep[nk++] = c;
    }
    n1 = m + nk;
    assert(nk <= nc && n1 <= id->u_max + nc);
    double *C1 = id->C1, *e1 = id->x0 + nc;
    for (int i = 0; i < nk; i++) {
        const double *P = QJ + (size_t)id->rep[i] * r;
        for (int j = 0; j < m; j++) {
            double s = 0;
            for (int a = 0; a < r; a++)
                s += P[a] * A1[a + (size_t)j * r];
            C1[i + (size_t)j * nk] = s;
        }
        for (int i2 = 0; i2 < nk; i2++)
            C1[i + (size_t)(m + i2) * nk] = i == i2 ? -1 : 0;
        e1[i] = -q[id->rep[i]];
    }
    for (int j = m; j < n1; j++)
        for (int a = 0; a < r; a++)
            A1[a + (size_t)j * r] = 0;
    /* Stage I, warm from the previous solve's passive set (slacks kept
       per representative contact) */
    int warm = id->have_cvx && !o->cold, *pas = id->pas2 + id->u_max + nc;
    for (int j = 0; j < m; j++)
        pas[j] = warm && id->pas1[j];
    for (int i = 0; i < nk; i++)
        pas[m + i] = warm && id->pas1[m + id->rep[i]];
    int iters = 0;
    if (hes__nnls_eq(id->ls, r, nk, n1, A1, r, d, C1, nk, e1, id->lam, pas, warm, &iters) != 0)
        return hes__say(msg, len, HES_ESOLVER, "convex: Stage I's least squares did not "
                        "converge");
    for (int j = 0; j < m; j++)
        id->pas1[j] = pas[j];
    for (int c = 0; c < nc; c++)
        id->pas1[m + c] = 0;
    for (int i = 0; i < nk; i++)
        id->pas1[m + id->rep[i]] = pas[m + i];
    /* Stage II: least torque among the forces with Stage I's y */
    double *ys = id->y;
    for (int a = 0; a < r; a++) {
        double s = 0;
        for (int j = 0; j < m; j++)
            s += A1[a + (size_t)j * r] * id->lam[j];
        ys[a] = s;
    }
    if (o->stage2) {
        for (int j = 0; j < m; j++)
            pas[j] = warm ? id->pas2[j] : id->lam[j] > 0;
        if (hes__nnls_eq(id->ls, nu, r, m, A2, nu, th, A1, r, ys, id->lam, pas, 1, &iters) !=
            0)
            return hes__say(msg, len, HES_ESOLVER, "convex: Stage II's least squares did not "
                            "converge");
        memcpy(id->pas2, pas, sizeof(int) * (size_t)m);
    }
    id->have_cvx = 1;
    res->pivots += iters;
    res->null_dim = m - r;
    net_forces(id, pb, m, cone, id->lam, NULL, id->f);
    return HES_OK;
}
