/*
 * invdyn_noslip.c - inverse dynamics without slip (Zapolsky & Drumwright,
 * Sec. 4): Algorithm 1's tangential equalities, the normals' LCP by
 * Algorithm 2 (modified principal pivoting), warm-started.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "invdyn/invdyn_ws.h"

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
        if (hes__invdyn_pinv_solve(m, A, rhs, sol, id->ev, id->tmp2) != 0)
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
            if (hes__invdyn_eliminate(id, pb->h, ne + 1, id->X, id->re, id->MiX, id->We, id->a0e) == 0) {
                id->sel[ns++] = r;
                ne++;
            }
        }
    if (hes__invdyn_eliminate(id, pb->h, ne, id->X, id->re, id->MiX, id->We, id->a0e) != 0)
        return hes__say(msg, len, HES_ESOLVER, "no-slip: the equality system is singular");
    res->tangential_rows = ns;
    /* the normals' LCP: Q = N W N^T, q = N a0 + b_N (eq. 44-45) */
    for (int c = 0; c < nc; c++)
        for (int j = 0; j < nv; j++)
            id->U[c + (size_t)j * nc] = pb->J[c + (size_t)j * rows];
    double *q = id->c, *z = id->x, *w = id->x0 + nc;
    hes__invdyn_project(id, nc, id->U, id->We, id->a0e, q);
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
        hes_error why = {""};
        hes_status st = hes_lcp_solve(nc, Q2, q, tol, z, w, &info, &why);
        res->lcps++;
        res->pivots += info.pivots;
        if (st != HES_OK)   /* HES_ELCP: the no-slip problem has no solution */
            return hes__say(msg, len, HES_ELCP, "no-slip: no compressive normal forces hold "
                            "the desired motion (%s)", why.message);
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
hes_status hes__invdyn_no_slip(hes_invdyn *id, const hes_invdyn_problem *pb,
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
