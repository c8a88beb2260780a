/*
 * invdyn_convex_lcp.c - the convex inverse dynamics (Zapolsky & Drumwright,
 * Sec. 6, Stages I and II) as the LCPs of their KKT conditions in the
 * pyramid's face variables, as the paper solves them (Lemke, regularised,
 * its bias removed by proximal steps): options.qp_lcp, the reference and
 * the fallback of invdyn_convex.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "invdyn/invdyn_ws.h"

/* -------------------------------- (d), (e) convex: Sec. 6, Stages I, II */

/* Stage II (eq. 104): x = x0 + Z w over the null space Z of H with c^T Z w
 * = 0 (Stage I's objective kept; a does not move: W U^T Z = 0), minimising
 * |tau|^2, tau = tau_h - R x, R = G^-1 B^T M^-1 U^T; x (id->x, nr rows) in
 * place. */
static hes_status stage2(hes_invdyn *id, const hes_invdyn_problem *pb,
                         const hes_invdyn_options *o, hes_invdyn_result *res, int nr,
                         int cone, char *msg, size_t len)
{
    int nv = id->nv, nu = id->nu, nc = id->nc, t = id->t;
    hes_status st = HES_OK;
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
    return st;
}

hes_status hes__invdyn_convex_lcp(hes_invdyn *id, const hes_invdyn_problem *pb,
                         const hes_invdyn_options *o, hes_invdyn_result *res, char *msg,
                         size_t len)
{
    if (!o->qp_lcp && hes__invdyn_convex_forces(id, pb, o, res, NULL, 0) == HES_OK)
        return HES_OK;
    int nv = id->nv, nc = id->nc, t = id->t, rows = id->rows;
    int cone = o->method == HES_INVDYN_CONVEX, nr;
    double *bu = id->tmp + nv;      /* offsets of the force rows */
    if (cone) {
        nr = hes__invdyn_pyramid_rows(id, pb, bu);
    } else {                          /* f_N >= 0, f_S, f_T free */
        nr = rows;
        memcpy(id->U, pb->J, sizeof(double) * (size_t)rows * (size_t)nv);
        memcpy(bu, pb->b, sizeof(double) * (size_t)rows);
    }
    double *ua = id->tmp2;
    hes__invdyn_project(id, nr, id->U, id->WB, id->a0B, ua);
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
    /* Stage II (stage2 above) */
    if (o->stage2 && nr > 0) {
        st = stage2(id, pb, o, res, nr, cone, msg, len);
        if (st != HES_OK)
            return st;
    }
    if (cone)
        hes__invdyn_pyramid_net(id, id->x);
    else
        for (int k = 0; k < rows; k++)
            id->f[k] = k < nc ? fmax(id->x[k], 0) : id->x[k];
    return HES_OK;
}
