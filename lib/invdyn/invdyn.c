/*
 * invdyn.c - inverse dynamics with rigid contact and friction: joint
 * torques and contact forces together for a desired motion (Zapolsky &
 * Drumwright, "Inverse dynamics with rigid contact and friction", Sec.
 * 3-6).  Its factorisations are base/dense.c's, not LAPACK's:
 * the same bits whatever the BLAS's thread count.  The formulations, in force units (hes.h explains the
 * division of the paper's impulses by dt):
 *
 *   M a + h = B tau + J^T f,   B^T a = B^T a_des,   w = J a + b.
 *
 * Eliminating a and tau against equality columns X (B, and for no-slip the
 * tangential rows Algorithm 1 keeps) with targets r (B^T a_des, -b_t):
 *   Ge = X^T M^-1 X,  W = M^-1 - M^-1 X Ge^-1 X^T M^-1,
 *   a  = a0 + W U^T f_U,  a0 = -W h + M^-1 X Ge^-1 r,
 *   y  = Ge^-1 (r - X^T M^-1 (U^T f_U - h))   (tau and the equality forces),
 * so the contact problems are in the remaining forces f_U alone, with the
 * matrix U W U^T (the paper's C^T A^-1 C, eq. 44, and N X^-1 N^T, eq. 64
 * and 75).  W M W = W and B^T W = 0 give the convex objective's linear
 * term (eq. 75): 1/2 |v+|_M^2 / dt^2 = 1/2 f^T U W U^T f
 * + f^T U W (M v / dt - h) + const.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "invdyn/invdyn_ws.h"


static const char *const method_names[] = { "none", "no-slip", "coulomb", "convex",
                                            "convex-no-slip" };

const char *hes_invdyn_method_name(hes_invdyn_method m)
{
    return (int)m >= 0 && (int)m < HES_INVDYN_N_METHODS ? method_names[m] : NULL;
}

hes_status hes_invdyn_method_from_name(const char *name, hes_invdyn_method *m)
{
    int i = hes__name_index(method_names, HES_INVDYN_N_METHODS, name);
    if (i < 0 || !m)
        return HES_EINVAL;
    *m = (hes_invdyn_method)i;
    return HES_OK;
}

void hes_invdyn_destroy(hes_invdyn *id)
{
    if (!id)
        return;
    double *d[] = { id->tau, id->a, id->f, id->w, id->ratio, id->Minv, id->MiB, id->G, id->WB,
                    id->a0B, id->X, id->MiX, id->Ge, id->We, id->a0e, id->re, id->Y, id->U,
                    id->WUt, id->H, id->c, id->x, id->x0, id->Gq, id->gq, id->Z, id->R, id->ev,
                    id->tmp, id->tmp2 };
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        free(d[i]);
    free(id->active), free(id->prev), free(id->sel), free(id->nonneg), free(id->nb);
    free(id->pidx), free(id->cprev), free(id->cA), free(id->cz), free(id->cix);
    hes__nnls_free(id->cls);
    hes__invdyn_convex_free(id);
    free(id);
}

hes_invdyn *hes_invdyn_create(int nv, int nu, int nc, int tangents)
{
    if (nv < 1 || nu < 1 || nu > nv || nc < 0 || (tangents != 1 && tangents != 2))
        return NULL;
    hes_invdyn *id = calloc(1, sizeof *id);
    if (!id)
        return NULL;
    int rows = nc * (1 + tangents), ne = nu + rows, um = nc * (1 + 2 * tangents);
    id->nv = nv, id->nu = nu, id->nc = nc, id->t = tangents, id->rows = rows;
    id->ne_max = ne, id->u_max = um;
    size_t V = (size_t)nv, E = (size_t)ne, Um = (size_t)(um > 0 ? um : 1),
           C = (size_t)(nc > 0 ? nc : 1), Rw = (size_t)(rows > 0 ? rows : 1);
    size_t gm = Um + C;          /* constraint rows of the QPs */
#define A(p, n) ((p) = calloc((n), sizeof *(p)), ok = ok && (p))
    int ok = 1;
    A(id->tau, (size_t)nu), A(id->a, V), A(id->f, Rw), A(id->w, Rw), A(id->ratio, C);
    A(id->active, C), A(id->prev, C), A(id->sel, Rw), A(id->nonneg, Um), A(id->nb, C);
    A(id->pidx, C), A(id->cprev, Um + C), A(id->cA, (Um + C) * (Um + C));
    A(id->cz, 2 * (Um + C)), A(id->cix, 2 * (Um + C));
    if (nc > 0)
        ok = ok && (id->cls = hes__nnls_alloc((int)(Um + C), (int)(Um + C)));
    A(id->Minv, V * V), A(id->MiB, V * nu), A(id->G, (size_t)nu * nu), A(id->WB, V * V);
    A(id->a0B, V), A(id->X, V * E), A(id->MiX, V * E), A(id->Ge, E * E), A(id->We, V * V);
    A(id->a0e, V), A(id->re, E), A(id->Y, E * V), A(id->U, Um * V), A(id->WUt, V * Um);
    A(id->H, Um * Um), A(id->c, Um), A(id->x, Um), A(id->x0, Um), A(id->Gq, gm * Um);
    A(id->gq, gm), A(id->Z, Um * Um), A(id->R, (size_t)nu * Um), A(id->ev, Um + V + E);
    A(id->tmp, V + E + Um + gm), A(id->tmp2, V + E + Um + gm);
#undef A
    if (!ok || !hes__invdyn_convex_alloc(id)) {
        hes_invdyn_destroy(id);
        return NULL;
    }
    return id;
}

void hes_invdyn_reset(hes_invdyn *id)
{
    if (id)
        id->have_prev = 0, id->have_cvx = 0, id->have_cprev = 0;
}

/* A row's offset: N v+ >= -phi / dt (eq. 36; S v+ = 0, eq. 40, with phi
 * = 0) per unit time, N a + (N v + phi / dt) / dt >= 0, plus the drift
 * J' v where it is kept. */
static double offset(double Jv, double phi, double dt, double drift)
{
    return (Jv + phi / dt) / dt + drift;
}

void hes_invdyn_offsets(int nv, int nc, int tangents, const double *J, const double *v,
                        const double *phi, const double *Jdv, double dt, int drift, double *b)
{
    int rows = nc * (1 + tangents);
    for (int r = 0; r < rows; r++) {
        double Jv = 0;
        for (int j = 0; j < nv; j++)
            Jv += J[r + (size_t)j * rows] * v[j];
        b[r] = offset(Jv, r < nc && phi ? phi[r] : 0, dt, drift && Jdv ? Jdv[r] : 0);
    }
}

void hes_invdyn_problem_robot(const hes_robot_dynamics *d, const int *active, const double *v,
                              const double *a_des, double dt, int drift, double *J, double *b,
                              double *mu, hes_invdyn_problem *pb)
{
    if (!d || !J || !b || !mu || !pb || (d->nv > 0 && (!v || !a_des)))
        return;
    int nv = d->nv, nc = 0, all = d->nc * (1 + d->tangents);
    for (int c = 0; c < d->nc; c++)
        nc += !active || active[c];
    int rows = nc * (1 + d->tangents);
    for (int dir = 0, r = 0; dir <= d->tangents; dir++)
        for (int c = 0; c < d->nc; c++) {
            if (active && !active[c])
                continue;
            for (int j = 0; j < nv; j++)
                J[r + (size_t)j * rows] = d->J[dir * d->nc + c + (size_t)j * all];
            r++;
        }
    for (int dir = 0, r = 0; dir <= d->tangents; dir++)
        for (int c = 0; c < d->nc; c++) {
            if (active && !active[c])
                continue;
            double Jv = 0;
            for (int j = 0; j < nv; j++)
                Jv += J[r + (size_t)j * rows] * v[j];
            b[r] = offset(Jv, dir == 0 ? d->phi[c] : 0, dt,
                          drift ? d->Jdv[dir * d->nc + c] : 0);
            if (dir == 0)
                mu[r] = d->mu[c];
            r++;
        }
    *pb = (hes_invdyn_problem){ nv, d->nu, nc, d->tangents, d->M, d->h, d->B, J, b, mu, v, dt,
                                a_des, d->tau_max };
}

/* ------------------------------------------------------------ algebra */

/* Cholesky (lower) of the n x n matrix A in place; 0 when A is positive
 * definite with every pivot L_jj^2 >= 1e-10 A_jj (a column that is not
 * nearly dependent on those before it: the paper's "not singular" test of
 * Algorithm 1, relative to each column's own scale). */
static int chol(int n, double *A)
{
    if (n <= 0)
        return 0;
    double *d = malloc(sizeof(double) * (size_t)n);
    if (!d)
        return -1;
    for (int j = 0; j < n; j++)
        d[j] = A[j + (size_t)j * n];
    int info = hes__chol(A, n);
    for (int j = 0; info == 0 && j < n; j++) {
        double l = A[j + (size_t)j * n];
        if (!(l * l >= 1e-10 * d[j]))
            info = j + 1;
    }
    free(d);
    return info;
}

/* A (n x n PSD) z = rhs by the pseudo-inverse (minimum norm, eigenvalues
 * below 1e-10 of the largest dropped); A is overwritten. */
static int pinv_solve(int n, double *A, const double *rhs, double *z, double *ev, double *tmp)
{
    if (n == 0)
        return 0;
    if (hes__sym_eig(n, A, ev) != 0)
        return -1;
    double thr = 1e-10 * fmax(ev[n - 1], 0);
    for (int k = 0; k < n; k++) {
        tmp[k] = 0;
        if (ev[k] > thr && ev[k] > 0) {
            for (int i = 0; i < n; i++)
                tmp[k] += A[i + (size_t)k * n] * rhs[i];
            tmp[k] /= ev[k];
        }
    }
    for (int i = 0; i < n; i++) {
        z[i] = 0;
        for (int k = 0; k < n; k++)
            z[i] += A[i + (size_t)k * n] * tmp[k];
    }
    return 0;
}

/* The elimination against the equality columns X (nv x ne) and targets
 * re: W (nv x nv), a0 (nv), and Y = Ge^-1 (M^-1 X)^T (ne x nv) with Ge's
 * Cholesky factor in id->Ge.  Nonzero when Ge is singular. */
static int eliminate(hes_invdyn *id, const double *h, int ne, const double *X, const double *re,
                     double *MiX, double *W, double *a0)
{
    int nv = id->nv;
    double *Ge = id->Ge, *Y = id->Y;
    if (ne < 0 || ne > id->ne_max)
        return 1;
    hes__matmul(nv, nv, ne, id->Minv, X, MiX);
    for (int k = 0; k < ne; k++)
        for (int l = 0; l < ne; l++) {
            double s = 0;
            for (int i = 0; i < nv; i++)
                s += X[i + (size_t)k * nv] * MiX[i + (size_t)l * nv];
            Ge[k + (size_t)l * ne] = s;
        }
    if (chol(ne, Ge) != 0)
        return 1;
    for (int i = 0; i < nv; i++)
        for (int k = 0; k < ne; k++)
            Y[k + (size_t)i * ne] = MiX[i + (size_t)k * nv];
    if (ne > 0)
        hes__chol_solve(Ge, ne, Y, nv);
    for (int j = 0; j < nv; j++)
        for (int i = 0; i < nv; i++) {
            double s = id->Minv[i + (size_t)j * nv];
            for (int k = 0; k < ne; k++)
                s -= MiX[i + (size_t)k * nv] * Y[k + (size_t)j * ne];
            W[i + (size_t)j * nv] = s;
        }
    /* a0 = -W h + M^-1 X Ge^-1 re */
    double *gr = id->tmp;
    memcpy(gr, re, sizeof(double) * (size_t)ne);
    if (ne > 0)
        hes__chol_solve(Ge, ne, gr, 1);
    for (int i = 0; i < nv; i++) {
        double s = 0;
        for (int j = 0; j < nv; j++)
            s -= W[i + (size_t)j * nv] * h[j];
        for (int k = 0; k < ne; k++)
            s += MiX[i + (size_t)k * nv] * gr[k];
        a0[i] = s;
    }
    return 0;
}

/* Rows U (nr x nv, column-major) of the force directions: WUt = W U^T,
 * H = U W U^T, and the rows' accelerations U a0 into ua (may be NULL). */
static void project(hes_invdyn *id, int nr, const double *U, const double *W, const double *a0,
                    double *ua)
{
    int nv = id->nv;
    for (int k = 0; k < nr; k++)
        for (int i = 0; i < nv; i++) {
            double s = 0;
            for (int j = 0; j < nv; j++)
                s += W[i + (size_t)j * nv] * U[k + (size_t)j * nr];
            id->WUt[i + (size_t)k * nv] = s;
        }
    for (int l = 0; l < nr; l++)
        for (int k = 0; k < nr; k++) {
            double s = 0;
            for (int i = 0; i < nv; i++)
                s += U[k + (size_t)i * nr] * id->WUt[i + (size_t)l * nv];
            id->H[k + (size_t)l * nr] = s;
        }
    /* W = M^-1 - M^-1 X Ge^-1 X^T M^-1 is a difference: where the equality
       columns span every direction (every coordinate driven), it vanishes
       and what is left is rounding, which the contact problems must not
       invert.  Entries below 1e-12 of U M^-1 U^T's scale are zero. */
    double ref = 0;
    for (int k = 0; k < nr; k++)
        for (int i = 0; i < nv; i++)
            for (int j = 0; j < nv; j++)
                ref = fmax(ref, fabs(U[k + (size_t)i * nr] * id->Minv[i + (size_t)j * nv] *
                                     U[k + (size_t)j * nr]));
    for (size_t e = 0; e < (size_t)nr * (size_t)nr; e++)
        if (fabs(id->H[e]) <= 1e-12 * ref)
            id->H[e] = 0;
    for (int k = 0; ua && k < nr; k++) {
        double s = 0;
        for (int i = 0; i < nv; i++)
            s += U[k + (size_t)i * nr] * a0[i];
        ua[k] = s;
    }
}

/* Net contact forces f (rows) -> tau, a, w: tau = G^-1 (B^T a_des -
 * B^T M^-1 g), a = M^-1 (g + B tau), g = J^T f - h. */
static void finish(hes_invdyn *id, const hes_invdyn_problem *pb)
{
    int nv = id->nv, nu = id->nu, rows = id->rows;
    double *g = id->tmp2;
    for (int j = 0; j < nv; j++) {
        double s = -pb->h[j];
        for (int r = 0; r < rows; r++)
            s += pb->J[r + (size_t)j * rows] * id->f[r];
        g[j] = s;
    }
    for (int k = 0; k < nu; k++) {
        double s = 0;
        for (int i = 0; i < nv; i++)
            s += pb->B[i + (size_t)k * nv] * pb->a_des[i] - id->MiB[i + (size_t)k * nv] * g[i];
        id->tau[k] = s;
    }
    hes__chol_solve(id->G, nu, id->tau, 1);
    for (int i = 0; i < nv; i++) {
        double s = 0;
        for (int j = 0; j < nv; j++)
            s += id->Minv[i + (size_t)j * nv] * g[j];
        for (int k = 0; k < nu; k++)
            s += id->MiB[i + (size_t)k * nv] * id->tau[k];
        id->a[i] = s;
    }
    for (int r = 0; r < rows; r++) {
        double s = pb->b[r];
        for (int j = 0; j < nv; j++)
            s += pb->J[r + (size_t)j * rows] * id->a[j];
        id->w[r] = s;
    }
}

/* ----------------------------------------------- (b) no-slip: Sec. 4 */

/*
 * Algorithm 2 (modified principal pivoting, PPM I), warm-started at the
 * nonbasic (force-carrying) set nb: solve the LCP (q, Q), Q symmetric PSD,
 * on the nonbasic block (z_nb = -Q_nb^+ q_nb, the minimum-norm solution
 * where Q_nb is singular: the indeterminate case), move the most violated
 * basic index in and a negative nonbasic one out, until neither exists.
 * Returns the iterations, or -1 without a solution within 3 n + 10.
 */
static int ppm(hes_invdyn *id, int n, const double *Q, const double *q, int *nb, double tol,
               double *z, double *w)
{
    double qn = 0;
    for (int i = 0; i < n; i++)
        qn = fmax(qn, fabs(q[i]));
    double eps = tol * (1 + qn);
    int *idx = id->pidx, m;   /* n <= nc entries */
    for (int it = 1; it <= 3 * n + 10; it++) {
        m = 0;
        for (int i = 0; i < n; i++)
            if (nb[i])
                idx[m++] = i;
        double *A = id->Z, *rhs = id->tmp, *sol = id->x0;
        for (int a = 0; a < m; a++) {
            rhs[a] = -q[idx[a]];
            for (int b = 0; b < m; b++)
                A[a + (size_t)b * m] = Q[idx[a] + (size_t)idx[b] * n];
        }
        if (pinv_solve(m, A, rhs, sol, id->ev, id->tmp2) != 0)
            return -1;
        for (int i = 0; i < n; i++)
            z[i] = 0;
        for (int a = 0; a < m; a++)
            z[idx[a]] = sol[a];
        int imin = -1, jmin = -1;
        for (int i = 0; i < n; i++) {
            double s = q[i];
            for (int a = 0; a < m; a++)
                s += Q[i + (size_t)idx[a] * n] * sol[a];
            w[i] = s;
            if (!nb[i] && (imin < 0 || s < w[imin]))
                imin = i;
        }
        for (int a = 0; a < m; a++)
            if (jmin < 0 || z[idx[a]] < z[jmin])
                jmin = idx[a];
        if (imin < 0 || w[imin] >= -eps) {
            if (jmin >= 0 && z[jmin] < -eps) {
                nb[jmin] = 0;
                continue;
            }
            for (int a = 0; a < m; a++)
                w[idx[a]] = 0;
            return it;
        }
        nb[imin] = 1;
        if (jmin >= 0 && z[jmin] < -eps)
            nb[jmin] = 0;
    }
    return -1;
}

/* One pass of the no-slip solve with the tangential rows of the contacts
 * with excluded[c] left out of Algorithm 1. */
static hes_status no_slip_pass(hes_invdyn *id, const hes_invdyn_problem *pb,
                               const hes_invdyn_options *o, const int *excluded,
                               hes_invdyn_result *res, char *msg, size_t len)
{
    int nv = id->nv, nu = id->nu, nc = id->nc, t = id->t, rows = id->rows;
    /* Algorithm 1: the tangential rows, in contact order (s_i, then t_i),
       that keep [B S_sel^T T_sel^T]^T M^-1 [...] nonsingular */
    memcpy(id->X, pb->B, sizeof(double) * (size_t)nv * (size_t)nu);
    for (int k = 0; k < nu; k++) {
        double s = 0;
        for (int i = 0; i < nv; i++)
            s += pb->B[i + (size_t)k * nv] * pb->a_des[i];
        id->re[k] = s;
    }
    int ne = nu, ns = 0;
    for (int c = 0; c < nc; c++)
        for (int d = 1; d <= t && !excluded[c]; d++) {
            int r = d * nc + c;
            for (int j = 0; j < nv; j++)
                id->X[j + (size_t)ne * nv] = pb->J[r + (size_t)j * rows];
            id->re[ne] = -pb->b[r];
            if (eliminate(id, pb->h, ne + 1, id->X, id->re, id->MiX, id->We, id->a0e) == 0) {
                id->sel[ns++] = r;
                ne++;
            }
        }
    if (eliminate(id, pb->h, ne, id->X, id->re, id->MiX, id->We, id->a0e) != 0)
        return hes__say(msg, len, HES_ESOLVER, "no-slip: the equality system is singular");
    res->tangential_rows = ns;
    /* the normals' LCP: Q = N W N^T, q = N a0 + b_N (eq. 44-45) */
    for (int c = 0; c < nc; c++)
        for (int j = 0; j < nv; j++)
            id->U[c + (size_t)j * nc] = pb->J[c + (size_t)j * rows];
    double *q = id->c, *z = id->x, *w = id->x0 + nc;
    project(id, nc, id->U, id->We, id->a0e, q);
    for (int c = 0; c < nc; c++)
        q[c] += pb->b[c];
    double tol = o->tol, qn = 0;
    for (int c = 0; c < nc; c++)
        qn = fmax(qn, fabs(q[c]));
    /* the start: the previous solve's loaded contacts (the warm start of
       Sec. 4.6), else every contact that would penetrate without a force
       (the paper starts from the most violated alone; starting from all
       of them spreads the load of an indeterminate stance over its feet,
       the minimum-norm forces, instead of one foot) */
    int warm = id->have_prev && !o->cold, it = -1, any = 0;
    for (int c = 0; c < nc; c++)
        any |= (id->nb[c] = warm ? id->prev[c] : 0);
    if (!any) {
        int imin = 0;
        for (int c = 0; c < nc; c++) {
            id->nb[c] = !o->cold && q[c] < -tol * (1 + qn);
            if (q[c] < q[imin])
                imin = c;
        }
        if (o->cold)
            id->nb[imin] = q[imin] < -tol * (1 + qn);
        warm = 0;
    }
    it = ppm(id, nc, id->H, q, id->nb, tol, z, w);
    double *Q2 = id->Gq;
    memcpy(Q2, id->H, sizeof(double) * (size_t)nc * (size_t)nc);
    if (it < 0 || hes__lcp_residual(nc, Q2, q, z, w) > tol) {
        hes_lcp_info info = { 0 };
        char why[256] = "";
        hes_status st = hes_lcp_solve(nc, Q2, q, tol, z, w, &info, why, sizeof why);
        res->lcps++;
        res->pivots += info.pivots;
        if (st != HES_OK)   /* HES_ELCP: the no-slip problem has no solution */
            return hes__say(msg, len, HES_ELCP, "no-slip: no compressive normal forces hold "
                            "the desired motion (%s)", why);
        it = -1;
    } else {
        res->pivots += it;
    }
    res->lcps++;
    res->warm_used = warm && it == 1;
    /* the forces: normals z, the kept tangential rows from the equality
       multipliers y = Ge^-1 (re - (M^-1 X)^T (N^T z - h)), the rest 0 */
    memset(id->f, 0, sizeof(double) * (size_t)rows);
    for (int c = 0; c < nc; c++)
        id->f[c] = fmax(z[c], 0);
    double *gn = id->tmp, *y = id->tmp2;
    for (int j = 0; j < nv; j++) {
        double s = -pb->h[j];
        for (int c = 0; c < nc; c++)
            s += pb->J[c + (size_t)j * rows] * id->f[c];
        gn[j] = s;
    }
    for (int k = 0; k < ne; k++) {
        double s = id->re[k];
        for (int i = 0; i < nv; i++)
            s -= id->MiX[i + (size_t)k * nv] * gn[i];
        y[k] = s;
    }
    hes__chol_solve(id->Ge, ne, y, 1);
    for (int k = 0; k < ns; k++)
        id->f[id->sel[k]] = y[nu + k];
    return HES_OK;
}

/* No-slip (Sec. 4).  Beyond the paper: Algorithm 1 may give tangential
 * force to a contact the LCP leaves without normal force (friction
 * without load: an infinite friction ratio); such a contact's tangential
 * rows are left out and the problem solved again (at most nc times). */
static hes_status no_slip(hes_invdyn *id, const hes_invdyn_problem *pb,
                          const hes_invdyn_options *o, hes_invdyn_result *res, char *msg,
                          size_t len)
{
    int nc = id->nc, t = id->t;
    int *excluded = calloc((size_t)nc, sizeof(int));
    if (!excluded)
        return hes__say(msg, len, HES_ENOMEM, "out of memory");
    hes_status st = HES_OK;
    for (int pass = 0; pass <= nc; pass++) {
        st = no_slip_pass(id, pb, o, excluded, res, msg, len);
        if (st != HES_OK)
            break;
        double fs = 0;
        for (int k = 0; k < id->rows; k++)
            fs = fmax(fs, fabs(id->f[k]));
        int again = 0;
        for (int c = 0; c < nc; c++)
            for (int d = 1; d <= t; d++)
                if (id->f[c] <= 0 && fabs(id->f[d * nc + c]) > 1e-12 * fs && !excluded[c])
                    excluded[c] = again = 1;
        if (!again)
            break;
    }
    free(excluded);
    if (st != HES_OK)
        return st;
    for (int c = 0; c < nc; c++)
        id->prev[c] = id->f[c] > 0;
    id->have_prev = 1;
    return HES_OK;
}

/* -------------------------------------------- (c) Coulomb: Sec. 5 */

/* The pyramid's force rows U (nc (1 + 2t) x nv): N, then per tangent
 * direction +S, -S (and +T, -T), with their offsets bu. */
static int pyramid_rows(hes_invdyn *id, const hes_invdyn_problem *pb, double *bu)
{
    int nv = id->nv, nc = id->nc, t = id->t, rows = id->rows, nr = nc * (1 + 2 * t);
    for (int c = 0; c < nc; c++) {
        for (int j = 0; j < nv; j++)
            id->U[c + (size_t)j * nr] = pb->J[c + (size_t)j * rows];
        bu[c] = pb->b[c];
        for (int d = 0; d < t; d++)
            for (int sgn = 0; sgn < 2; sgn++) {
                int r = nc + (2 * d + sgn) * nc + c, src = (1 + d) * nc + c;
                double s = sgn ? -1 : 1;
                for (int j = 0; j < nv; j++)
                    id->U[r + (size_t)j * nr] = s * pb->J[src + (size_t)j * rows];
                bu[r] = s * pb->b[src];
            }
    }
    return nr;
}

/* Net forces from the pyramid's x: f_N, then f_S = x(+S) - x(-S), ... */
static void pyramid_net(hes_invdyn *id, const double *x)
{
    int nc = id->nc, t = id->t;
    for (int c = 0; c < nc; c++) {
        id->f[c] = fmax(x[c], 0);
        for (int d = 0; d < t; d++)
            id->f[(1 + d) * nc + c] = x[nc + 2 * d * nc + c] - x[nc + (2 * d + 1) * nc + c];
    }
}

static hes_status coulomb(hes_invdyn *id, const hes_invdyn_problem *pb,
                          const hes_invdyn_options *o, hes_invdyn_result *res, char *msg,
                          size_t len)
{
    int nc = id->nc, t = id->t, k = 2 * t;
    double *bu = id->gq;
    int nr = pyramid_rows(id, pb, bu);
    double *ua = id->tmp2;
    project(id, nr, id->U, id->WB, id->a0B, ua);
    /* eq. 64 with the lambda block where eq. 59 has it:
       z = (f_N, f_F, lambda);  w_N = N a + b_N,  w_F = F a + b_F + E lambda,
       w_lambda = mu f_N - E^T f_F */
    int n = nr + nc;
    double *Ql = malloc(sizeof(double) * (size_t)n * (size_t)n);
    double *ql = malloc(sizeof(double) * (size_t)n), *zl = malloc(sizeof(double) * (size_t)n),
           *wl = malloc(sizeof(double) * (size_t)n);
    if (!Ql || !ql || !zl || !wl) {
        free(Ql), free(ql), free(zl), free(wl);
        return hes__say(msg, len, HES_ENOMEM, "out of memory for the Coulomb LCP");
    }
    memset(Ql, 0, sizeof(double) * (size_t)n * (size_t)n);
    for (int j = 0; j < nr; j++)
        for (int i = 0; i < nr; i++)
            Ql[i + (size_t)j * n] = id->H[i + (size_t)j * nr];
    for (int i = 0; i < nr; i++)
        ql[i] = ua[i] + bu[i];
    for (int c = 0; c < nc; c++) {
        ql[nr + c] = 0;
        Ql[nr + c + (size_t)c * n] = pb->mu[c];
        for (int e = 0; e < k; e++) {
            int r = nc + e * nc + c;
            Ql[r + (size_t)(nr + c) * n] = 1;      /* E lambda */
            Ql[nr + c + (size_t)r * n] = -1;       /* -E^T f_F */
        }
    }
    /* The warm start (as no-slip's, Sec. 4.6): the previous solve's active
       set S = {i : z_i > w_i} taken as this problem's: z_S >= 0 with Q_SS z_S
       = -q_S by least squares with bounds (hes__nnls: an indeterminate
       stance makes Q_SS singular, and its solutions are then a set, of
       which a nonnegative one is wanted), z = 0 elsewhere; the indices
       whose w = Q z + q comes out negative join S, twice at most; the
       candidate is accepted when (z, w) passes hes_lcp_solve's own check;
       else Lemke's method from the start. */
    hes_status st = HES_ESOLVER;
    int *act = id->cprev;
    if (id->have_cprev == n && !o->cold && id->cls) {
        double *As = id->cA, *zs = id->cz;
        int *ix = id->cix;
        for (int round = 0; round < 8 && st != HES_OK; round++) {
            int ms = 0;
            for (int i = 0; i < n; i++)
                if (act[i])
                    ix[ms++] = i;
            if (ms == 0)
                break;
            for (int b = 0; b < ms; b++) {
                for (int a = 0; a < ms; a++)
                    As[a + (size_t)b * ms] = Ql[ix[a] + (size_t)ix[b] * n];
                zs[b] = 0;
            }
            double *rs = zs + n;
            for (int a = 0; a < ms; a++)
                rs[a] = -ql[ix[a]];
            int *pas = ix + n;     /* passive: what was positive */
            for (int a = 0; a < ms; a++)
                pas[a] = round == 0 || zl[ix[a]] > 0;
            if (hes__nnls(id->cls, ms, ms, As, ms, rs, zs, pas, 1) < 0)
                break;
            memset(zl, 0, sizeof(double) * (size_t)n);
            for (int a = 0; a < ms; a++)
                zl[ix[a]] = zs[a];
            if (!hes__all_finite(zl, n))
                break;
            if (hes__lcp_residual(n, Ql, ql, zl, wl) <= o->tol) {
                st = HES_OK;
                res->warm_used = 1;
                break;
            }
            int grew = 0;
            for (int i = 0; i < n; i++)
                if (!act[i] && wl[i] < 0)
                    act[i] = 1, grew = 1;
            if (!grew)
                break;
        }
    }
    if (st != HES_OK) {
        hes_lcp_info info = { 0 };
        st = hes_lcp_solve(n, Ql, ql, o->tol, zl, wl, &info, msg, len);
        res->lcps++;
        res->pivots += info.pivots;
    }
    if (st == HES_OK) {
        pyramid_net(id, zl);
        /* the next start */
        for (int i = 0; i < n; i++)
            act[i] = zl[i] > wl[i];
        id->have_cprev = n;
    } else {
        id->have_cprev = 0;
    }
    free(Ql), free(ql), free(zl), free(wl);
    return st;
}

/* -------------------------------- (d), (e) convex: Sec. 6, Stages I, II */

static hes_status convex(hes_invdyn *id, const hes_invdyn_problem *pb,
                         const hes_invdyn_options *o, hes_invdyn_result *res, char *msg,
                         size_t len)
{
    if (!o->qp_lcp && hes__invdyn_convex_forces(id, pb, o, res, NULL, 0) == HES_OK)
        return HES_OK;
    int nv = id->nv, nu = id->nu, nc = id->nc, t = id->t, rows = id->rows;
    int cone = o->method == HES_INVDYN_CONVEX, nr;
    double *bu = id->tmp + nv;      /* offsets of the force rows */
    if (cone) {
        nr = pyramid_rows(id, pb, bu);
    } else {                          /* f_N >= 0, f_S, f_T free */
        nr = rows;
        memcpy(id->U, pb->J, sizeof(double) * (size_t)rows * (size_t)nv);
        memcpy(bu, pb->b, sizeof(double) * (size_t)rows);
    }
    double *ua = id->tmp2;
    project(id, nr, id->U, id->WB, id->a0B, ua);
    /* Stage I: H = U W U^T, c = U W (M v / dt - h) (eq. 75) */
    double *Mv = id->ev;      /* M v / dt - h */
    hes__invdyn_momentum_rate(pb, Mv);
    for (int k = 0; k < nr; k++) {
        double s = 0;
        for (int i = 0; i < nv; i++)
            s += id->WUt[i + (size_t)k * nv] * Mv[i];
        id->c[k] = s;
    }
    for (int k = 0; k < nr; k++)
        id->nonneg[k] = cone || k < nc;
    /* constraints: N a + b_N >= 0 (rows 0..nc-1 of H), the cone */
    int m = nc + (cone ? nc : 0);
    double *Gq = id->Gq, *gq = id->gq;
    memset(Gq, 0, sizeof(double) * (size_t)m * (size_t)nr);
    for (int c = 0; c < nc; c++) {
        for (int k = 0; k < nr; k++)
            Gq[c + (size_t)k * m] = id->H[c + (size_t)k * nr];
        gq[c] = ua[c] + bu[c];
        if (cone) {
            Gq[nc + c + (size_t)c * m] = pb->mu[c];
            for (int e = 0; e < 2 * t; e++)
                Gq[nc + c + (size_t)(nc + e * nc + c) * m] = -1;
            gq[nc + c] = 0;
        }
    }
    double hs = 0;
    for (int k = 0; k < nr; k++)
        hs = fmax(hs, id->H[k + (size_t)k * nr]);
    hes_status st = hes__qp_lcp(nr, id->H, id->c, id->nonneg, m, Gq, gq, HES__QP_REG * hs, o->tol, 4,
                                id->x, &res->pivots, msg, len);
    res->lcps++;
    if (st != HES_OK)
        return st;
    /* Stage II: x = x0 + Z w over the null space Z of H with c^T Z w = 0
       (Stage I's objective kept, eq. 104; a does not move: W U^T Z = 0),
       minimising |tau|^2, tau = tau0 - R x, R = G^-1 B^T M^-1 U^T */
    if (o->stage2 && nr > 0) {
        double *E = id->Z, *ev = id->ev;
        memcpy(E, id->H, sizeof(double) * (size_t)nr * (size_t)nr);
        if (hes__sym_eig(nr, E, ev) != 0)
            return hes__say(msg, len, HES_ESOLVER, "convex: the eigenvalues of Stage I's "
                            "Hessian failed");
        double thr = 1e-9 * fmax(fabs(ev[nr - 1]), 1e-300);
        int r = 0;
        while (r < nr && ev[r] <= thr)
            r++;
        /* Z = E[:, 0..r-1]; drop the direction of Z^T c */
        double *zc = id->tmp2 + nr, cn = 0;
        for (int a = 0; a < r; a++) {
            double s = 0;
            for (int k = 0; k < nr; k++)
                s += E[k + (size_t)a * nr] * id->c[k];
            zc[a] = s;
            cn += s * s;
        }
        double cscale = 0;
        for (int k = 0; k < nr; k++)
            cscale = fmax(cscale, fabs(id->c[k]));
        if (r > 0 && sqrt(cn) > 1e-12 * (1 + cscale)) {
            /* Householder reflection P = I - 2 u u^T / u^T u mapping zc to a
               multiple of e_0: Z P's columns 1.. span {w : zc^T w = 0} */
            double nz = sqrt(cn), *u = zc;
            u[0] += u[0] >= 0 ? nz : -nz;
            double uu = 0;
            for (int a = 0; a < r; a++)
                uu += u[a] * u[a];
            for (int k = 0; k < nr; k++) {
                double s = 0;
                for (int a = 0; a < r; a++)
                    s += E[k + (size_t)a * nr] * u[a];
                for (int a = 0; a < r; a++)
                    E[k + (size_t)a * nr] -= 2 * s * u[a] / uu;
            }
            E += nr;       /* skip column 0 */
            r--;
        }
        res->null_dim = r;
        if (r > 0) {
            /* R = G^-1 (M^-1 B)^T U^T  (nu x nr) */
            double *R = id->R;
            for (int k = 0; k < nr; k++)
                for (int a = 0; a < nu; a++) {
                    double s = 0;
                    for (int i = 0; i < nv; i++)
                        s += id->MiB[i + (size_t)a * nv] * id->U[k + (size_t)i * nr];
                    R[a + (size_t)k * nu] = s;
                }
            hes__chol_solve(id->G, nu, R, nr);
            /* RZ (nu x r), Hw = RZ^T RZ, gw = RZ^T R x0 (tau0 drops out of
               the gradient: d/dw 1/2 |tau0 - R x0 - RZ w|^2 at w = 0 is
               -RZ^T (tau0 - R x0); tau0 is B's part, kept in res below) */
            double *RZ = malloc(sizeof(double) * (size_t)nu * (size_t)r);
            double *Hw = malloc(sizeof(double) * (size_t)r * (size_t)r);
            double *gw = malloc(sizeof(double) * (size_t)r);
            double *Gw = malloc(sizeof(double) * (size_t)(nr + nc) * (size_t)r);
            double *gg = malloc(sizeof(double) * (size_t)(nr + nc));
            double *wv = malloc(sizeof(double) * (size_t)r);
            int *free_w = calloc((size_t)r, sizeof(int));
            if (!RZ || !Hw || !gw || !Gw || !gg || !wv || !free_w) {
                free(RZ), free(Hw), free(gw), free(Gw), free(gg), free(wv), free(free_w);
                return hes__say(msg, len, HES_ENOMEM, "out of memory for Stage II");
            }
            /* tau(x) = tau_h - R x, tau_h = G^-1 (B^T a_des + (M^-1 B)^T h) */
            double *tauh = id->tau;
            hes__invdyn_tau_h(id, pb, tauh);
            for (int a = 0; a < nu; a++)
                for (int b = 0; b < r; b++) {
                    double s = 0;
                    for (int k = 0; k < nr; k++)
                        s += R[a + (size_t)k * nu] * E[k + (size_t)b * nr];
                    RZ[a + (size_t)b * nu] = s;
                }
            for (int b = 0; b < r; b++) {
                for (int b2 = 0; b2 < r; b2++) {
                    double s = 0;
                    for (int a = 0; a < nu; a++)
                        s += RZ[a + (size_t)b * nu] * RZ[a + (size_t)b2 * nu];
                    Hw[b + (size_t)b2 * r] = s;
                }
                double s = 0;
                for (int a = 0; a < nu; a++) {
                    double t0 = tauh[a];
                    for (int k = 0; k < nr; k++)
                        t0 -= R[a + (size_t)k * nu] * id->x[k];
                    s -= RZ[a + (size_t)b * nu] * t0;
                }
                gw[b] = s;
            }
            /* x0 + Z w >= 0 on the nonnegative rows, the cone */
            int mw = 0;
            for (int k = 0; k < nr; k++) {
                if (!id->nonneg[k])
                    continue;
                for (int b = 0; b < r; b++)
                    Gw[mw + (size_t)b * (nr + nc)] = E[k + (size_t)b * nr];
                gg[mw++] = fmax(id->x[k], 0);   /* Stage I's rounding is not a violation */
            }
            for (int c = 0; cone && c < nc; c++) {
                double g0 = pb->mu[c] * id->x[c];
                for (int e = 0; e < 2 * t; e++)
                    g0 -= id->x[nc + e * nc + c];
                for (int b = 0; b < r; b++) {
                    double s = pb->mu[c] * E[c + (size_t)b * nr];
                    for (int e = 0; e < 2 * t; e++)
                        s -= E[nc + e * nc + c + (size_t)b * nr];
                    Gw[mw + (size_t)b * (nr + nc)] = s;
                }
                gg[mw++] = fmax(g0, 0);
            }
            /* Gw has leading dimension nr + nc: compact it to mw rows */
            for (int b = 0; b < r; b++)
                for (int i = 0; i < mw; i++)
                    Gw[i + (size_t)b * mw] = Gw[i + (size_t)b * (nr + nc)];
            double hw = 0;
            for (int b = 0; b < r; b++)
                hw = fmax(hw, Hw[b + (size_t)b * r]);
            st = hes__qp_lcp(r, Hw, gw, free_w, mw, Gw, gg, HES__QP_REG * hw, o->tol, 4, wv,
                             &res->pivots, msg, len);
            res->lcps++;
            if (st == HES_OK)
                for (int k = 0; k < nr; k++)
                    for (int b = 0; b < r; b++)
                        id->x[k] += E[k + (size_t)b * nr] * wv[b];
            free(RZ), free(Hw), free(gw), free(Gw), free(gg), free(wv), free(free_w);
            if (st != HES_OK)
                return st;
        }
    }
    if (cone)
        pyramid_net(id, id->x);
    else
        for (int k = 0; k < rows; k++)
            id->f[k] = k < nc ? fmax(id->x[k], 0) : id->x[k];
    return HES_OK;
}

/* ------------------------------------------- the smallest friction */

/*
 * The forces that produce the same motion are f + Z w, Z a basis of the
 * null space of W J^T (internal forces: they change the torques only; the
 * null space of J W J^T, which W's semidefiniteness makes the same), with
 * no force at the contacts that lift off.  The smallest mu for which some
 * w puts every stance contact in its pyramid, |f_s| + |f_t| <= mu f_n (the
 * cone itself for one tangent), is found by bisection on mu, each step a
 * feasibility problem solved as the QP min 1/2 |w|^2 over the linear
 * constraints (hes__qp_lcp: Lemke fails exactly when it is infeasible).
 * The no-slip forces themselves give the upper end.
 */
static hes_status min_friction(hes_invdyn *id, const hes_invdyn_problem *pb, double tol,
                               hes_invdyn_result *res, char *msg, size_t len)
{
    int nc = id->nc, t = id->t, rows = id->rows, nsg = t == 2 ? 4 : 2;
    double hi = 0, fs = 0;
    for (int k = 0; k < rows; k++)
        fs = fmax(fs, fabs(id->f[k]));
    for (int c = 0; c < nc; c++) {
        double sum = 0;
        for (int d = 1; d <= t; d++)
            sum += fabs(id->f[d * nc + c]);
        if (id->f[c] > 0)
            hi = fmax(hi, sum / id->f[c]);
        else if (sum > 1e-12 * fs)
            return hes__say(msg, len, HES_ESOLVER, "friction: a contact without load "
                            "carries tangential force");
    }
    res->mu_min = hi;
    if (hi == 0)
        return HES_OK;
    /* Z: the eigenvectors of J W J^T + sum over lifting rows e e^T with
       eigenvalue ~ 0 */
    project(id, rows, pb->J, id->WB, id->a0B, NULL);
    double wscale = 1;
    for (int k = 0; k < rows; k++)
        wscale = fmax(wscale, fabs(pb->b[k]));
    double hmax = 0;
    for (int k = 0; k < rows; k++)
        hmax = fmax(hmax, id->H[k + (size_t)k * rows]);
    for (int c = 0; c < nc; c++)
        if (id->w[c] > 1e-6 * wscale)     /* lifts off: no force */
            for (int d = 0; d <= t; d++)
                id->H[d * nc + c + (size_t)(d * nc + c) * rows] += fmax(hmax, 1);
    double *E = id->Z, *ev = id->ev;
    memcpy(E, id->H, sizeof(double) * (size_t)rows * (size_t)rows);
    if (hes__sym_eig(rows, E, ev) != 0)
        return hes__say(msg, len, HES_ESOLVER, "friction: eigenvalues failed");
    int r = 0;
    while (r < rows && ev[r] <= 1e-9 * fmax(ev[rows - 1], 1e-300))
        r++;
    if (r == 0)
        return HES_OK;      /* determinate: the no-slip forces are the only ones */
    int m = nc * (1 + nsg);
    double *G = malloc(sizeof(double) * (size_t)m * (size_t)r);
    double *g = malloc(sizeof(double) * (size_t)m);
    double *Hw = calloc((size_t)r * (size_t)r, sizeof(double));
    double *cw = calloc((size_t)r, sizeof(double));
    double *wv = malloc(sizeof(double) * (size_t)r), *wbest = calloc((size_t)r, sizeof(double));
    int *fr = calloc((size_t)r, sizeof(int)), found = 0;
    if (!G || !g || !Hw || !cw || !wv || !fr || !wbest) {
        free(G), free(g), free(Hw), free(cw), free(wv), free(fr), free(wbest);
        return hes__say(msg, len, HES_ENOMEM, "out of memory");
    }
    for (int a = 0; a < r; a++)
        Hw[a + (size_t)a * r] = 1;
    double lo = 0;
    for (int it = 0; it < 60 && hi - lo > 1e-9 * hi; it++) {
        double mu = 0.5 * (lo + hi);
        /* rows: f_n >= 0, then mu f_n - (+-f_s +-f_t) >= 0 */
        for (int c = 0; c < nc; c++)
            for (int k = 0; k <= nsg; k++) {
                int row = k == 0 ? c : nc + (k - 1) * nc + c;
                double ss = (k - 1) & 1 ? -1 : 1, st = (k - 1) & 2 ? -1 : 1;
                double g0 = k == 0 ? id->f[c] : mu * id->f[c] - ss * id->f[nc + c] -
                                                      (t == 2 ? st * id->f[2 * nc + c] : 0);
                g[row] = g0;
                for (int a = 0; a < r; a++) {
                    const double *z = E + (size_t)a * rows;
                    G[row + (size_t)a * m] = k == 0 ? z[c] : mu * z[c] - ss * z[nc + c] -
                                                           (t == 2 ? st * z[2 * nc + c] : 0);
                }
            }
        hes_status st = hes__qp_lcp(r, Hw, cw, fr, m, G, g, HES__QP_REG, tol, 0, wv, &res->pivots,
                                    NULL, 0);
        res->lcps++;
        if (st == HES_OK) {
            hi = mu, found = 1;
            memcpy(wbest, wv, sizeof(double) * (size_t)r);
        } else {
            lo = mu;
        }
    }
    res->mu_min = hi;
    /* the forces become that distribution (the same motion, the torques
       follow from them) */
    if (found) {
        for (int k = 0; k < rows; k++)
            for (int a = 0; a < r; a++)
                id->f[k] += E[k + (size_t)a * rows] * wbest[a];
        for (int c = 0; c < nc; c++)
            id->f[c] = fmax(id->f[c], 0);
        finish(id, pb);
    }
    free(G), free(g), free(Hw), free(cw), free(wv), free(fr), free(wbest);
    return HES_OK;
}

/* ------------------------------------------------------------- solve */

static hes_status check_problem(const hes_invdyn *id, const hes_invdyn_problem *pb,
                                hes_invdyn_method method, char *msg, size_t len)
{
    if (pb->nv != id->nv || pb->nu != id->nu || pb->nc != id->nc || pb->tangents != id->t)
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: the problem's sizes (nv %d, "
                        "nu %d, nc %d, tangents %d) are not the workspace's (%d, %d, %d, %d)",
                        pb->nv, pb->nu, pb->nc, pb->tangents, id->nv, id->nu, id->nc, id->t);
    if (!pb->M || !pb->h || !pb->B || !pb->a_des || !pb->v || (id->nc > 0 &&
        (!pb->J || !pb->b || !pb->mu)))
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: M, h, B, v, a_des (and with "
                        "contacts J, b, mu) are required");
    if (!(pb->dt > 0) || !isfinite(pb->dt))
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: dt must be positive and "
                        "finite (got %g)", pb->dt);
    int nv = id->nv;
    if (!hes__all_finite(pb->M, nv * nv) || !hes__all_finite(pb->h, nv) ||
        !hes__all_finite(pb->B, nv * id->nu) || !hes__all_finite(pb->a_des, nv) ||
        !hes__all_finite(pb->v, nv) ||
        (id->nc > 0 && (!hes__all_finite(pb->J, id->rows * nv) ||
                        !hes__all_finite(pb->b, id->rows))))
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: a non-finite input");
    for (int c = 0; c < id->nc; c++)
        if (!(pb->mu[c] >= 0) || !isfinite(pb->mu[c]))
            return hes__say(msg, len, HES_EINVAL, "inverse dynamics: contact %d's friction "
                            "coefficient %g is not finite and >= 0", c, pb->mu[c]);
    /* The pyramid's edges n +- mu t resolve the normal force only to about
       eps mu of the tangential one (HES_INVDYN_MU_MAX, hes.h) */
    for (int c = 0; c < id->nc; c++)
        if (pb->mu[c] > HES_INVDYN_MU_MAX &&
            (method == HES_INVDYN_COULOMB || method == HES_INVDYN_CONVEX))
            return hes__say(msg, len, HES_EINVAL, "inverse dynamics: contact %d's friction "
                            "coefficient %g is beyond %g, the largest whose pyramid double "
                            "precision resolves; for friction without limit use no-slip or "
                            "convex-no-slip", c, pb->mu[c], HES_INVDYN_MU_MAX);
    return HES_OK;
}

hes_status hes_invdyn_solve(hes_invdyn *id, const hes_invdyn_problem *pb,
                            const hes_invdyn_options *opts, hes_invdyn_result *res, char *msg,
                            size_t len)
{
    if (!id || !pb || !res)
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: needs a workspace, a "
                        "problem and a result");
    hes_invdyn_options o = opts ? *opts : (hes_invdyn_options){ .method = HES_INVDYN_NO_SLIP, .stage2 = 1 };
    if ((int)o.method < 0 || (int)o.method >= HES_INVDYN_N_METHODS)
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: unknown method %d",
                        (int)o.method);
    hes_status st = check_problem(id, pb, o.method, msg, len);
    if (st != HES_OK)
        return st;
    if (o.tol <= 0)
        o.tol = 1e-9;
    if (o.tol_slip <= 0)
        o.tol_slip = 1e-6;
    if (o.tol_eom == 0)
        o.tol_eom = 1e-6;
    if (!(o.tol_eom < 0 || o.tol_eom > 0))
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: the equation of motion's "
                        "tolerance is not a number");
    int nv = id->nv, nu = id->nu, nc = id->nc, t = id->t, rows = id->rows;
    memset(res, 0, sizeof *res);
    /* M^-1, then G = B^T M^-1 B (full rank: the paper's X of eq. 63 is
       nonsingular), W_B and a0_B */
    memcpy(id->Minv, pb->M, sizeof(double) * (size_t)nv * (size_t)nv);
    int ci = hes__chol_inverse(id->Minv, nv);
    if (ci < 0)
        return hes__say(msg, len, HES_ENOMEM, "out of memory");
    if (ci != 0)
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: M is not positive definite");
    for (int k = 0; k < nu; k++) {
        double s = 0;
        for (int i = 0; i < nv; i++)
            s += pb->B[i + (size_t)k * nv] * pb->a_des[i];
        id->re[k] = s;
    }
    if (eliminate(id, pb->h, nu, pb->B, id->re, id->MiB, id->WB, id->a0B) != 0)
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: the input matrix B does not "
                        "have full column rank (B^T M^-1 B is singular)");
    memcpy(id->G, id->Ge, sizeof(double) * (size_t)nu * (size_t)nu);
    memset(id->f, 0, sizeof(double) * (size_t)(rows > 0 ? rows : 1));
    switch (nc > 0 ? o.method : HES_INVDYN_NONE) {
    case HES_INVDYN_NONE: st = HES_OK; break;
    case HES_INVDYN_NO_SLIP: st = no_slip(id, pb, &o, res, msg, len); break;
    case HES_INVDYN_COULOMB: st = coulomb(id, pb, &o, res, msg, len); break;
    default: st = convex(id, pb, &o, res, msg, len); break;
    }
    if (st != HES_OK)
        return st;
    finish(id, pb);
    res->mu_min = -1;
    if (o.min_friction && o.method == HES_INVDYN_NO_SLIP && nc > 0) {
        st = min_friction(id, pb, o.tol, res, msg, len);
        if (st != HES_OK)
            return st;
    }
    /* the result and its checks */
    res->tau = id->tau, res->a = id->a, res->f = id->f, res->w = id->w;
    res->ratio = id->ratio, res->active = id->active;
    /* the scale of the contact accelerations: 1, |b|, |J a_des| */
    double bscale = 1;
    for (int r = 0; r < rows; r++) {
        double ja = 0;
        for (int j = 0; j < nv; j++)
            ja += pb->J[r + (size_t)j * rows] * pb->a_des[j];
        bscale = fmax(bscale, fmax(fabs(pb->b[r]), fabs(ja)));
    }
    for (int k = 0; k < nu; k++) {
        double s = 0;
        for (int i = 0; i < nv; i++)
            s += pb->B[i + (size_t)k * nv] * (id->a[i] - pb->a_des[i]);
        res->tracking = fmax(res->tracking, fabs(s));
    }
    for (int i = 0; i < nv; i++)
        res->unactuated = fmax(res->unactuated, fabs(id->a[i] - pb->a_des[i]));
    /* The whole equation of motion with the desired acceleration, the
       unactuated rows too: r = M a_des + h - B tau - J^T f = M (a_des - a)
       (a solves it exactly), against the size of its terms.  Only B^T a is
       imposed; the rest of a follows from the contact forces, and where
       they cannot produce the desired base acceleration (no foot on the
       ground, a stance that cannot push that way) the motion is not
       feasible, whatever the actuated rows say. */
    int eom_row = -1;
    double eom_scale = 0;
    for (int i = 0; i < nv; i++) {
        double s = fabs(pb->h[i]);
        for (int j = 0; j < nv; j++)
            s += fabs(pb->M[i + (size_t)j * nv] * pb->a_des[j]);
        for (int k = 0; k < nu; k++)
            s += fabs(pb->B[i + (size_t)k * nv] * id->tau[k]);
        for (int r = 0; r < rows; r++)
            s += fabs(pb->J[r + (size_t)i * rows] * id->f[r]);
        eom_scale = fmax(eom_scale, s);
    }
    res->eom = 0;
    for (int i = 0; i < nv; i++) {
        double r = 0;
        for (int j = 0; j < nv; j++)
            r += pb->M[i + (size_t)j * nv] * (pb->a_des[j] - id->a[j]);
        r = eom_scale > 0 ? fabs(r) / eom_scale : 0;
        if (r > res->eom)
            res->eom = r, eom_row = i;
    }
    double ascale = 1;
    for (int i = 0; i < nv; i++)
        ascale = fmax(ascale, fabs(pb->a_des[i]));
    if (!(res->tracking <= 1e-6 * ascale))     /* the joints must get what was asked */
        return hes__say(msg, len, HES_ESOLVER, "%s: the solution misses the desired joint "
                        "accelerations by %.3g (ill-conditioned)", method_names[o.method],
                        res->tracking);
    /* per contact: the friction ratio; sliding (a contact that stays, its
       tangential acceleration above tol_slip); a saturated cone (Coulomb,
       convex: the pyramid's sum at mu f_N), and for no-slip a ratio above
       mu.  A slide is infeasible where the cone is saturated (the friction
       is what is missing) and for no-slip (its model forbids it: the
       desired accelerations move a stance contact, Sec. 4.5); the
       complementarity-free model may also slide inside the cone (it
       maximises dissipation, which with the actuators' constraint need
       not stop the contact): then it is reported in res->slip only. */
    int slide = -1, cone = -1, motor = -1;
    double fscale = 0;
    for (int r = 0; r < rows; r++)
        fscale = fmax(fscale, fabs(id->f[r]));
    double slide_w = 0, tslip = o.tol_slip * bscale;
    /* One friction model for every answer: the pyramid |f_s| + |f_t| <=
       mu f_n (the linearised cone of the Coulomb and convex formulations and
       of the smallest friction's search; for a planar robot, t = 1, the
       cone itself), in the ratios, the cone check and mu_min alike. */
    for (int c = 0; c < nc; c++) {
        double fn = id->f[c], wt = 0, sum = 0;
        for (int d = 1; d <= t; d++) {
            sum += fabs(id->f[d * nc + c]);
            wt = fmax(wt, fabs(id->w[d * nc + c]));
        }
        /* forces at the level of the QPs' regularisation (HES__QP_REG of the
           largest force: the smallest friction's distribution of the forces is
           a regularised QP's solution) are no load */
        double noise = HES__QP_REG * fscale;
        id->active[c] = fn > noise;
        id->ratio[c] = fn > noise ? sum / fn : (sum > noise ? INFINITY : 0);
        res->mu_needed = fmax(res->mu_needed, id->ratio[c]);
        int stays = id->w[c] <= tslip, slides = stays && wt > tslip;
        if (slides)
            res->slip = fmax(res->slip, wt);
        /* a contact without load has no cone to saturate (it may slide freely) */
        int saturated = o.method != HES_INVDYN_CONVEX_NO_SLIP && id->active[c] &&
                        sum >= pb->mu[c] * fn * (1 - 1e-6) - 1e-12;
        if (o.method != HES_INVDYN_NONE && slides && slide < 0 &&
            (saturated || o.method == HES_INVDYN_NO_SLIP))
            slide = c, slide_w = wt;
        if (o.method == HES_INVDYN_NO_SLIP && sum > pb->mu[c] * fn * (1 + 1e-9) + noise &&
            cone < 0)
            cone = c;
    }
    for (int k = 0; pb->tau_max && k < nu; k++)
        if (pb->tau_max[k] > 0 && fabs(id->tau[k]) > pb->tau_max[k] && motor < 0)
            motor = k;
    if (o.method != HES_INVDYN_NONE && o.tol_eom >= 0 && res->eom > o.tol_eom && slide < 0 &&
        cone < 0)
        return hes__say(msg, len, HES_EINFEASIBLE, "%s: the equation of motion fails on "
                        "coordinate %d by %.3g of its terms' size (M a + h = B tau + J^T f "
                        "with the desired a): %s", method_names[o.method], eom_row, res->eom,
                        res->slip > 0
                        ? "the model's stance contacts slide inside their cones (it "
                          "dissipates), so the body does not follow the desired motion"
                        : "no contact force and no motor produces the desired acceleration "
                          "there (a coordinate without a motor, e.g. a floating base with "
                          "no foot on the ground)");
    if (slide >= 0 && o.method == HES_INVDYN_NO_SLIP)
        return hes__say(msg, len, HES_EINFEASIBLE, "no-slip: the desired accelerations move "
                        "stance contact %d along the ground (%.3g): they are inconsistent with "
                        "its no-slip constraint", slide, slide_w);
    if (slide >= 0)
        return hes__say(msg, len, HES_EINFEASIBLE, "%s: contact %d slides at the edge of its "
                        "friction cone (tangential acceleration %.3g): the motion needs more "
                        "friction than %g", method_names[o.method], slide, slide_w, pb->mu[slide]);
    if (cone >= 0)
        return hes__say(msg, len, HES_EINFEASIBLE, "no-slip: contact %d needs friction %.4g, "
                        "more than its %g", cone, id->ratio[cone], pb->mu[cone]);
    if (motor >= 0)
        return hes__say(msg, len, HES_EINFEASIBLE, "%s: motor %d needs %.4g, beyond its limit "
                        "%g", method_names[o.method], motor, id->tau[motor], pb->tau_max[motor]);
    return HES_OK;
}
