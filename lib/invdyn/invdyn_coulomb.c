/*
 * invdyn_coulomb.c - inverse dynamics with Coulomb friction (Zapolsky &
 * Drumwright, Sec. 5): the copositive LCP of eq. 64 over the friction
 * pyramid, warm-started from the previous solve's active set, else Lemke.
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

/* -------------------------------------------- (c) Coulomb: Sec. 5 */

hes_status hes__invdyn_coulomb(hes_invdyn *id, const hes_invdyn_problem *pb,
                          const hes_invdyn_options *o, hes_invdyn_result *res, char *msg,
                          size_t len)
{
    int nc = id->nc, t = id->t, k = 2 * t;
    double *bu = id->gq;
    int nr = hes__invdyn_pyramid_rows(id, pb, bu);
    double *ua = id->tmp2;
    hes__invdyn_project(id, nr, id->U, id->WB, id->a0B, ua);
    /* eq. 64 with the lambda block where eq. 59 has it:
       z = (f_N, f_F, lambda);  w_N = N a + b_N,  w_F = F a + b_F + E lambda,
       w_lambda = mu f_N - E^T f_F */
    int n = nr + nc;
    assert(nr == nc * (1 + 2 * t) && n <= id->u_max + nc);
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
        hes_error e;
        st = hes__err_pass(hes_lcp_solve(n, Ql, ql, o->tol, zl, wl, &info, &e), &e, msg, len);
        res->lcps++;
        res->pivots += info.pivots;
    }
    if (st == HES_OK) {
        hes__invdyn_pyramid_net(id, zl);
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
