/*
 * invdyn_friction.c - the smallest friction coefficient that holds a
 * no-slip solution's motion, by bisection over the distributions of its
 * forces (beyond the paper).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "invdyn/invdyn_ws.h"

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
hes_status hes__invdyn_min_friction(hes_invdyn *id, const hes_invdyn_problem *pb, double tol,
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
    hes__invdyn_project(id, rows, pb->J, id->WB, id->a0B, NULL);
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
        hes__invdyn_finish(id, pb);
    }
    free(G), free(g), free(Hw), free(cw), free(wv), free(fr), free(wbest);
    return HES_OK;
}
