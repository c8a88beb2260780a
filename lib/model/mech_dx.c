/*
 * mech_dx.c - the Jacobian of a mechanical mode's vector field
 * (hes_mech_field_dx), from the structure of its equations rather than
 * from differences of the whole field: one Cholesky factorisation of the
 * reduced mass matrix instead of the 2k of central differences.
 *
 * With x = [z, z'], q = chart(z), Phi = Dchart, q' = Phi z',
 * acc = D^2 chart[z', z'], the field is z'' = Mz^-1 rz with
 *     Mz = Phi^T M Phi,   rz = Phi^T (f - c - M acc)        (mech.c).
 * Let q'' = Phi z'' + acc and r = f - c - M q'' (the held constraints'
 * forces, Da^T lambda).  Differentiating Mz z'' = rz along any state
 * variable s (d denotes d/ds):
 *     Mz dz'' = dPhi^T r + Phi^T (dh - dM q'' - M dacc - M dPhi z''),
 *     dh = (f - c)_q dq + (f - c)_q' dq' + f_u du,
 * where
 *     s = z_j:  dq = Phi e_j, dq' = D^2 chart[e_j, z'], dPhi = D^2 chart[e_j, .],
 *               dM = sum_l dM/dq_l dq_l, dacc = d acc / dz_j;
 *     s = z'_j: dq = 0, dq' = Phi e_j, dPhi = 0, dM = 0,
 *               dacc = 2 D^2 chart[e_j, z'].
 * Exact: M, dM/dq (the model's or fourth-order differences of M, as the
 * field itself uses), c_q' (c is quadratic in q': from dM/dq), the chart's
 * second derivatives D^2 chart[e_i, e_j] by polarisation of chart_acc,
 * which is quadratic in z': (acc(e_i + e_j) - acc(e_i) - acc(e_j)) / 2.
 * By fourth-order central differences (error ~1e-12 relative) of cheap
 * callbacks, no solve: (f - c)_q (second derivatives of M; ~1e-10 when M
 * has no mass_dq, a difference of differences), f_q', f_u, the inputs'
 * du/dx and d acc/dz (third derivatives of the chart).  c_q' takes each
 * dM/dq_k symmetric, as M is.  A model that gives force_dx (f_q, f_q',
 * f_u in closed form) replaces the differences of f, and c_q is
 * differenced alone (c_of_q): the knee biped's Jacobian then takes 1.4 to
 * 1.6 times less time (tests/bench/bench_field.c).
 * A system with net_force (a robot: f - c from one recursive Newton-Euler
 * pass) needs no dM/dq: dh - dM q'' along z_j is then d r/dq Phi e_j with
 * r = f - c - M q'' at fixed q', q'', its own net_force_dx or fourth-order
 * differences of r along Phi's columns (r_along_phi), and dh along q' is
 * (f - c)_q' directly.
 * The arrays are sized by the mode (hes__mech_work): on the stack for
 * small systems, one heap block per call for large ones.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_internal.h"

#define S HES__MECH_SMALL
/* the stack buffer `small` of a work area */
#define OPEN(w, small, n) hes__mech_work_open(w, small, sizeof small / sizeof *small, n)
#define TAKE hes__mech_work_take

/* The mode's pieces at a state, and what the differenced callbacks hold
 * fixed. */
typedef struct {
    const hes_mech_mode *md;
    const double *p;
    double t;
    const double *q, *qd, *u, *zd, *qdd, *Phi;
    const double *xs;   /* the state (u_of_delta) */
    double *xd;         /* work (u_of_delta) */
} pieces;

/* r(q (+) Phi s) = (f - c) - M q'' there at the fixed q', q'', u, as a
 * function of s in R^k (systems with net_force) */
static int r_along_phi(void *ctx, const double *sv, double *out)
{
    const pieces *P = ctx;
    const hes_mech *m = P->md->mech;
    size_t d = (size_t)m->d, nq = (size_t)hes_mech_nq(m);
    double small[S * S + 4 * S];
    hes__mech_work w;
    if (OPEN(&w, small, d * d + 2 * d + nq))
        return E_NOMEM;
    double *M = TAKE(&w, d * d), *Mqdd = TAKE(&w, d), *dq = TAKE(&w, d), *q = TAKE(&w, nq);
    /* q (+) Phi s: q + Phi s, on the manifold with quaternions (Phi = I) */
    hes__matmul(m->d, P->md->k, 1, P->Phi, sv, dq);
    hes_mech_integrate(m, P->q, dq, 1, q);
    int rc = m->net_force(q, P->qd, P->u, P->p, out, m->data) || m->mass(q, P->p, M, m->data)
             ? E_CALLBACK : 0;
    if (!rc) {
        hes__matmul(m->d, m->d, 1, M, P->qdd, Mqdd);
        for (int i = 0; i < m->d; i++)
            out[i] -= Mqdd[i];
    }
    hes__mech_work_close(&w);
    return rc;
}

/* (f - c)(q') at the fixed q, u */
static int net_of_qd(void *ctx, const double *qd, double *out)
{
    const pieces *P = ctx;
    const hes_mech *m = P->md->mech;
    return m->net_force(P->q, qd, P->u, P->p, out, m->data) ? E_CALLBACK : 0;
}

/* (f - c)(u) at the fixed q, q' */
static int net_of_u(void *ctx, const double *u, double *out)
{
    const pieces *P = ctx;
    const hes_mech *m = P->md->mech;
    return m->net_force(P->q, P->qd, u, P->p, out, m->data) ? E_CALLBACK : 0;
}

/* (f - c)(q) at the fixed q', u */
static int h_of_q(void *ctx, const double *q, double *out)
{
    const pieces *P = ctx;
    const hes_mech *m = P->md->mech;
    size_t d = (size_t)m->d;
    double small[S * S * S + S];
    hes__mech_work w;
    if (OPEN(&w, small, d * d * d + d))
        return E_NOMEM;
    double *dM = TAKE(&w, d * d * d), *c = TAKE(&w, d);
    int rc = hes__mech_mass_derivative(m, q, P->p, dM);
    if (!rc && m->force(q, P->qd, P->u, P->p, out, m->data))
        rc = E_CALLBACK;
    if (!rc) {
        hes__mech_coriolis_of(m->d, dM, P->qd, c);
        for (int i = 0; i < m->d; i++)
            out[i] -= c[i];
    }
    hes__mech_work_close(&w);
    return rc;
}

/* c(q) at the fixed q' (the Coriolis terms: with the model's force_dx) */
static int c_of_q(void *ctx, const double *q, double *out)
{
    const pieces *P = ctx;
    const hes_mech *m = P->md->mech;
    size_t d = (size_t)m->d;
    double small[S * S * S];
    hes__mech_work w;
    if (OPEN(&w, small, d * d * d))
        return E_NOMEM;
    double *dM = TAKE(&w, d * d * d);
    int rc = hes__mech_mass_derivative(m, q, P->p, dM);
    if (!rc)
        hes__mech_coriolis_of(m->d, dM, P->qd, out);
    hes__mech_work_close(&w);
    return rc;
}

/* f(q') at the fixed q, u */
static int f_of_qd(void *ctx, const double *qd, double *out)
{
    const pieces *P = ctx;
    const hes_mech *m = P->md->mech;
    return m->force(P->q, qd, P->u, P->p, out, m->data) ? E_CALLBACK : 0;
}

/* f(u) at the fixed q, q' */
static int f_of_u(void *ctx, const double *u, double *out)
{
    const pieces *P = ctx;
    const hes_mech *m = P->md->mech;
    return m->force(P->q, P->qd, u, P->p, out, m->data) ? E_CALLBACK : 0;
}

/* u(x) at the fixed t */
static int u_of_x(void *ctx, const double *x, double *out)
{
    const pieces *P = ctx;
    const hes_mech_mode *md = P->md;
    return md->input(P->t, x, P->p, out, md->mech->data) ? E_CALLBACK : 0;
}

/* u at the state [q (+) dq, v + dv] (delta = [dq, dv], 2d values), for a
 * mode whose coordinates include quaternions (x at P->xs, nq + d values of
 * work at P->xd) */
static int u_of_delta(void *ctx, const double *delta, double *out)
{
    const pieces *P = ctx;
    const hes_mech_mode *md = P->md;
    const hes_mech *m = md->mech;
    int d = m->d, nq = hes_mech_nq(m);
    hes_mech_integrate(m, P->xs, delta, 1, P->xd);
    for (int i = 0; i < d; i++)
        P->xd[nq + i] = P->xs[nq + i] + delta[d + i];
    return md->input(P->t, P->xd, P->p, out, m->data) ? E_CALLBACK : 0;
}

/* acc(z) = D^2 chart(z)[z', z'] at the fixed z' */
static int acc_of_z(void *ctx, const double *z, double *out)
{
    const pieces *P = ctx;
    const hes_mech_mode *md = P->md;
    return md->chart_acc(z, P->zd, P->p, out, md->mech->data) ? E_CALLBACK : 0;
}

/* dc/dq'_l = sum_j (dM_ij/dq_l) q'_j + sum_k (dM_il/dq_k) q'_k
 *            - sum_j (dM_lj/dq_i) q'_j                       (M symmetric) */
static void coriolis_dqd(int d, const double *dM, const double *qd, double *C)
{
    for (int i = 0; i < d; i++)
        for (int l = 0; l < d; l++) {
            double s = 0;
            for (int j = 0; j < d; j++)
                s += dM[(size_t)l * d * d + i + (size_t)j * d] * qd[j] +
                     dM[(size_t)j * d * d + i + (size_t)l * d] * qd[j] -
                     dM[(size_t)i * d * d + l + (size_t)j * d] * qd[j];
            C[i + (size_t)l * d] = s;
        }
}

/* Sec[(i k + j) d + .] = D^2 chart[e_i, e_j], by polarisation of
 * chart_acc: e (k), diag (k x d) and a (d) the caller's work. */
static int chart_second(const hes_mech_mode *md, const double *z, const double *p,
                        double *Sec, double *e, double *diag, double *a)
{
    int d = md->mech->d, k = md->k;
    memset(e, 0, sizeof(double) * (size_t)k);
    for (int i = 0; i < k; i++) {
        e[i] = 1;
        if (md->chart_acc(z, e, p, diag + (size_t)i * d, md->mech->data))
            return E_CALLBACK;
        e[i] = 0;
    }
    for (int i = 0; i < k; i++)
        for (int j = i; j < k; j++) {
            double *sij = Sec + ((size_t)i * k + j) * d, *sji = Sec + ((size_t)j * k + i) * d;
            const double *di = diag + (size_t)i * d, *dj = diag + (size_t)j * d;
            if (i == j) {
                memcpy(sij, di, sizeof(double) * (size_t)d);
                continue;
            }
            e[i] = e[j] = 1;
            if (md->chart_acc(z, e, p, a, md->mech->data))
                return E_CALLBACK;
            e[i] = e[j] = 0;
            for (int l = 0; l < d; l++)
                sij[l] = sji[l] = 0.5 * (a[l] - di[l] - dj[l]);
        }
    return 0;
}

/* hes_mech_field_dx's arrays beside the evaluation: d-vectors, d x d
 * matrices, d x k (HqPhi, Az), d x nu (Fu), nu x 2k (Ux), k x 2k (B), the
 * chart's second derivatives (d k k) and chart_second's work. */
#define DX_NEED(d, k, nu) \
    (10 * (d) + 4 * (d) * (d) + 3 * (d) * (k) + (d) * (nu) + 2 * (k) * (nu) + 2 * (k) + \
     (d) * (k) * (k) + 2 * (k) * (k) + (nu))

/* The field's Jacobian in the coordinates x = [q, v] (N = nq + d) of a
 * system with quaternions, from v' = F(q, v)'s derivatives B (d x 2d, along
 * the tangent directions [dq, dv]): q' = G(q) v gives the blocks
 * d(G v)/dq and G; v' is a function of q / |q| (the callbacks see unit
 * quaternions), so its derivative in q is B's first d columns times P =
 * d(y (-) q)/dy (mech_config.c). */
static int ambient(const hes_mech *m, const double *x, const double *B, hes__mech_work *W,
                   double *out)
{
    int d = m->d, nq = hes_mech_nq(m), N = nq + d;
    size_t D = (size_t)d, NQ = (size_t)nq;
    double *Gq = TAKE(W, NQ * NQ), *G = TAKE(W, NQ * D), *P = TAKE(W, D * NQ);
    hes_mech_qdot_dq(m, x + nq, Gq);
    hes_mech_qdot_dv(m, x, G);
    hes_mech_difference_dq(m, x, P);
    for (int c = 0; c < N; c++)
        for (int i = 0; i < N; i++) {
            double v;
            if (i < nq)
                v = c < nq ? Gq[i + (size_t)c * nq] : G[i + (size_t)(c - nq) * nq];
            else if (c >= nq)
                v = B[(i - nq) + (size_t)(d + c - nq) * d];
            else {
                v = 0;
                for (int j = 0; j < d; j++)
                    v += B[(i - nq) + (size_t)j * d] * P[j + (size_t)c * d];
            }
            out[i + (size_t)c * N] = v;
        }
    hes__mech_quat_pull(m, x, Gq, out, N);   /* Gq: scratch for its value */
    return 0;
}

/* The Jacobian from the evaluation ev, in the work area w (DX_NEED). */
static int field_dx_in(const hes_mech_mode *md, double t, const double *x, const double *p,
                       const hes__mech_eval *ev, hes__mech_work *W, double *out)
{
    const hes_mech *m = md->mech;
    int d = m->d, k = md->k, nu = m->m, n = 2 * k, rc;
    size_t D = (size_t)d, K = (size_t)k, NU = (size_t)nu;
    const double *z = x, *zd = x + hes__mech_kq(md);
    int quat = hes__mech_kq(md) != k;   /* quaternions: x = [q (nq), v (d)], tangent 2d */
    const double *q = ev->q, *qd = ev->qd, *Phi = ev->Phi, *u = ev->u, *M = ev->M,
                 *dM = ev->dM, *zdd = ev->zdd, *qdd = ev->qdd, *Mz = ev->L;
    double *r = TAKE(W, D), *Mv = TAKE(W, D), *Hq = TAKE(W, D * D), *HqPhi = TAKE(W, D * K),
           *Hqd = TAKE(W, D * D), *Cqd = TAKE(W, D * D), *Fu = TAKE(W, D * NU),
           *Ux = TAKE(W, NU * 2 * K), *s0 = TAKE(W, K), *Cq = TAKE(W, D * D),
           *Sec = TAKE(W, D * K * K), *Az = TAKE(W, D * K), *B = TAKE(W, K * 2 * K),
           *dq = TAKE(W, D), *dqd = TAKE(W, D), *dacc = TAKE(W, D), *dPz = TAKE(W, D),
           *v = TAKE(W, D), *w = TAKE(W, D), *Szd = TAKE(W, D), *du = TAKE(W, NU),
           *e2 = TAKE(W, K), *diag = TAKE(W, K * D), *a2 = TAKE(W, D);
    /* r = f - c - M q'' (the held constraints' forces) */
    hes__matmul(d, d, 1, M, ev->qdd, Mv);
    for (int i = 0; i < d; i++)
        r[i] = ev->f[i] - ev->c[i] - Mv[i];
    /* the pieces' derivatives */
    pieces P = { md, p, t, q, qd, u, zd, qdd, Phi, x, NULL };
    /* HqPhi = (dh/dq) Phi: the derivatives along the chart's columns */
    int inputs = md->input && nu > 0, net = m->net_force != NULL;
    if (net) {
        /* the system's f - c: HqPhi is then (dr/dq) Phi with r = f - c -
           M q'', the dM/dq q'' term included */
        memset(s0, 0, sizeof(double) * K);
        if (m->net_force_dx) {
            if (m->net_force_dx(q, qd, qdd, u, p, k, Phi, HqPhi, Hqd, Fu, m->data))
                return E_CALLBACK;
        } else if ((rc = hes__mech_fd4(r_along_phi, &P, s0, k, d, HqPhi)) ||
                   (rc = hes__mech_fd4(net_of_qd, &P, qd, d, d, Hqd)) ||
                   (inputs && (rc = hes__mech_fd4(net_of_u, &P, u, nu, d, Fu)))) {
            return rc;
        }
    } else if (m->force_dx) { /* the model's f_q, f_q', f_u; c_q by differences */
        if (m->force_dx(q, qd, u, p, Hq, Hqd, Fu, m->data))
            return E_CALLBACK;
        if ((rc = hes__mech_fd4(c_of_q, &P, q, d, d, Cq)))
            return rc;
        for (int i = 0; i < d * d; i++)
            Hq[i] -= Cq[i];
    } else if ((rc = hes__mech_fd4(h_of_q, &P, q, d, d, Hq)) ||
               (rc = hes__mech_fd4(f_of_qd, &P, qd, d, d, Hqd)) ||
               (inputs && (rc = hes__mech_fd4(f_of_u, &P, u, nu, d, Fu)))) {
        return rc;
    }
    if (!net) {
        coriolis_dqd(d, dM, qd, Cqd);
        for (int i = 0; i < d * d; i++)
            Hqd[i] -= Cqd[i];
        hes__matmul(d, d, k, Hq, Phi, HqPhi);
    }
    if (inputs && quat) {   /* along the tangent directions [q (+) dq, v + dv] */
        P.xd = TAKE(W, (size_t)hes_mech_nq(m) + D);
        double *delta = TAKE(W, 2 * K);
        memset(delta, 0, sizeof(double) * 2 * K);
        if ((rc = hes__mech_fd4(u_of_delta, &P, delta, n, nu, Ux)))
            return rc;
    } else if (inputs && (rc = hes__mech_fd4(u_of_x, &P, x, n, nu, Ux))) {
        return rc;
    }
    if (md->chart) {   /* the chart's own second derivatives, or ours */
        if (md->chart_second) {
            if (md->chart_second(z, p, Sec, m->data))
                return E_CALLBACK;
        } else if ((rc = chart_second(md, z, p, Sec, e2, diag, a2))) {
            return rc;
        }
        if (md->chart_acc_dz) {
            if (md->chart_acc_dz(z, zd, p, Az, m->data))
                return E_CALLBACK;
        } else if ((rc = hes__mech_fd4(acc_of_z, &P, z, k, d, Az))) {
            return rc;
        }
    }
    /* right-hand sides, one per state variable */
    for (int s = 0; s < n; s++) {
        int j = s < k ? s : s - k, pos = s < k;
        memset(dq, 0, sizeof(double) * D);
        memset(dqd, 0, sizeof(double) * D);
        memset(dacc, 0, sizeof(double) * D);
        memset(dPz, 0, sizeof(double) * D);
        for (int l = 0; l < d; l++) {
            if (pos)
                dq[l] = Phi[l + (size_t)j * d];
            else
                dqd[l] = Phi[l + (size_t)j * d];
        }
        if (md->chart) {
            /* D^2 chart[e_j, z'], and along z_j: D^2 chart[e_j, z''] */
            memset(Szd, 0, sizeof(double) * D);
            for (int i = 0; i < k; i++)
                for (int l = 0; l < d; l++) {
                    double sji = Sec[((size_t)j * k + i) * d + l];
                    Szd[l] += sji * zd[i];
                    dPz[l] += pos ? sji * zdd[i] : 0.0;
                }
            for (int l = 0; l < d; l++) {
                if (pos) {
                    dqd[l] = Szd[l];
                    dacc[l] = Az[l + (size_t)j * d];
                } else {
                    dacc[l] = 2 * Szd[l];
                }
            }
        }
        /* v = dh - dM q'' - M (dacc + dPhi z''), dh's q part (dh/dq) Phi e_j */
        hes__matmul(d, d, 1, Hqd, dqd, v);
        for (int l = 0; pos && l < d; l++)
            v[l] += HqPhi[l + (size_t)j * d];
        if (inputs) {
            for (int a = 0; a < nu; a++)
                du[a] = Ux[a + (size_t)s * nu];
            hes__matmul(d, nu, 1, Fu, du, w);
            for (int l = 0; l < d; l++)
                v[l] += w[l];
        }
        for (int a = 0; pos && !net && a < d; a++) {
            if (dq[a] == 0.0)
                continue;
            hes__matmul(d, d, 1, dM + (size_t)a * d * d, qdd, w);
            for (int l = 0; l < d; l++)
                v[l] -= dq[a] * w[l];
        }
        for (int l = 0; l < d; l++)
            w[l] = dacc[l] + dPz[l];
        hes__matmul(d, d, 1, M, w, Mv);
        for (int l = 0; l < d; l++)
            v[l] -= Mv[l];
        /* b_s = Phi^T v + dPhi^T r */
        for (int i = 0; i < k; i++) {
            double b = 0;
            for (int l = 0; l < d; l++) {
                b += Phi[l + (size_t)i * d] * v[l];
                if (pos && md->chart)
                    b += Sec[((size_t)j * k + i) * d + l] * r[l];
            }
            B[i + (size_t)s * k] = b;
        }
    }
    hes__mech_chol_solve(Mz, k, B, n);
    if (quat)
        return ambient(m, x, B, W, out);
    for (int s = 0; s < n; s++)
        for (int i = 0; i < k; i++) {
            out[i + (size_t)s * n] = s == k + i;
            out[k + i + (size_t)s * n] = B[i + (size_t)s * k];
        }
    return 0;
}

/* the field as a function of x alone (a held mode's Jacobian) */
typedef struct {
    const hes_mech_mode *md;
    double t;
    const double *p;
} field_ctx;

static int field_of_x(void *ctx, const double *x, double *out)
{
    const field_ctx *f = ctx;
    return hes_mech_field(f->t, x, f->p, out, (void *)f->md);
}

/* A field with sliding contacts: each slides against s = w / |w|,
 * w = v_t + eps s0 (mech.c: hes__mech_blend_speed), which turns at a rate
 * 1 / |w| that no difference step resolves while the slide is slow.  The
 * Jacobian is that of the field with the directions frozen (fourth-order
 * differences: smooth), plus the chain through them in closed form:
 *     dF/dx += (dF/ds) (I - s s^T) / |w| dw/dx,
 *     dw/dx = d(v_t)/dx + eps ds0/dx + s0 d(eps)/dx,   v_t = Da_t(q) v,
 * dF/ds by central differences in s, d(v_t)/dv = Da_t, d(v_t)/dq by
 * central differences of the rows along q, ds0/dx by central differences
 * of the directions from rest (smooth: the sticking forces'), left out
 * where eps / |w| < 1e-12 (their term below rounding).  md: without its
 * cones; n = nq + d. */
static int sliding_field_dx(const hes_mech_mode *md, double t, const double *x,
                            const double *p, int n, double *out)
{
    const hes_mech *m = md->mech;
    int ns = md->n_sliding, rc, nq = hes_mech_nq(m), d = m->d;
    size_t MF = HES__MECH_MAX_FRICTION, NS = (size_t)ns * MF;
    double *dirs = malloc(sizeof(double) * (5 * NS + 3 * (size_t)ns + 3 * (size_t)n +
                                            2 * MF * (size_t)n));
    if (!dirs)
        return E_NOMEM;
    double *speed = dirs + NS, *s0 = speed + ns, *sp = s0 + NS, *s0p = sp + NS, *s0m = s0p + NS,
           *spd = s0m + NS, *fp = spd + 2 * (size_t)ns, *fmn = fp + n, *xs = fmn + n,
           *G = xs + n, *dsdx = G + (size_t)n * MF;
    hes_mech_mode fr = *md;
    fr.sliding_s = dirs;
    field_ctx f = { &fr, t, p };
    if ((rc = hes__mech_sliding_directions(md, t, x, p, dirs, speed, s0)) ||
        (rc = hes__mech_fd4(field_of_x, &f, x, n, n, out))) {
        free(dirs);
        return rc;
    }
    double eps = hes__mech_blend_speed(x + nq, d), vs = 0;
    for (int l = 0; l < d; l++)
        vs += x[nq + l] * x[nq + l];
    vs = sqrt(vs);
    for (int j = 0; j < ns && !rc; j++) {
        const hes_mech_constraint *c = &m->constraints[md->sliding[j]];
        int nf = c->n_friction_rows;
        double *sj = dirs + (size_t)j * MF, *s0j = s0 + (size_t)j * MF;
        if (!(speed[j] > 0))
            continue;
        /* G = dF/ds_j (n x nf) */
        for (int r = 0; r < nf && !rc; r++) {
            const double h = 1e-6, sv0 = sj[r];
            sj[r] = sv0 + h;
            rc = hes_mech_field(t, x, p, fp, &fr);
            sj[r] = sv0 - h;
            if (!rc)
                rc = hes_mech_field(t, x, p, fmn, &fr);
            sj[r] = sv0;
            for (int i = 0; i < n && !rc; i++)
                G[i + (size_t)r * n] = (fp[i] - fmn[i]) / (2 * h);
        }
        /* dw/dx (nf x n): d(v_t)/dx, then eps ds0/dx + s0 d(eps)/dx */
        double vt[HES__MECH_MAX_FRICTION];
        if (!rc)
            rc = hes__mech_sliding_rate(m, c, x, p, vt, dsdx);
        for (int i = 0; i < n && !rc; i++) {
            double *col = dsdx + (size_t)i * MF;
            if (i >= nq && vs > 0)
                for (int r = 0; r < nf; r++)
                    col[r] += s0j[r] * HES__MECH_BLEND * HES_MECH_STICK_SPEED * x[i] / vs;
            if (!(eps / speed[j] >= 1e-12))
                continue;
            const double h = 1e-6 * fmax(1.0, fabs(x[i]));
            memcpy(xs, x, sizeof(double) * (size_t)n);
            xs[i] = x[i] + h;
            rc = hes__mech_sliding_directions(md, t, xs, p, sp, spd, s0p);
            xs[i] = x[i] - h;
            if (!rc)
                rc = hes__mech_sliding_directions(md, t, xs, p, sp, spd, s0m);
            for (int r = 0; r < nf && !rc; r++)
                col[r] += eps * (s0p[(size_t)j * MF + r] - s0m[(size_t)j * MF + r]) / (2 * h);
        }
        /* ds/dx = (I - s s^T) / |w| dw/dx, then F_x += G ds/dx */
        for (int i = 0; i < n && !rc; i++) {
            double col[HES__MECH_MAX_FRICTION], sv = 0;
            for (int r = 0; r < nf; r++)
                sv += sj[r] * dsdx[r + (size_t)i * MF];
            for (int r = 0; r < nf; r++)
                col[r] = (dsdx[r + (size_t)i * MF] - sj[r] * sv) / speed[j];
            for (int l = 0; l < n; l++) {
                double add = 0;
                for (int r = 0; r < nf; r++)
                    add += G[l + (size_t)r * n] * col[r];
                out[l + (size_t)i * n] += add;
            }
        }
    }
    free(dirs);
    return rc;
}

int hes_mech_field_dx(double t, const double *x, const double *p, double *out, void *data)
{
    if (!data || !x || !out)
        return E_CALLBACK;
    const hes_mech_mode *md = data;
    if (md->held && md->n_active > 0) {
        /* the constrained dynamics' Jacobian by fourth-order differences
           (the held forces' derivatives would need the rows' second ones),
           without the friction cones: the differences' states are not the
           motion's, and a state near a cone's edge still has a Jacobian */
        hes__mech_uncone u;
        if (hes__mech_without_cones(md, &u))
            return E_NOMEM;
        field_ctx f = { &u.mode, t, p };
        int n = hes__mech_kq(md) + md->k;
        int rc = md->n_sliding > 0 && !md->sliding_s ? sliding_field_dx(&u.mode, t, x, p, n, out)
                                                      : hes__mech_fd4(field_of_x, &f, x, n, n, out);
        free(u.cons);
        return rc;
    }
    const hes_mech *m = md->mech;
    size_t d = (size_t)m->d, k = (size_t)md->k, nu = (size_t)(m->m > 0 ? m->m : 0);
    hes__mech_eval ev;
    int rc = hes__mech_mode_eval(md, t, x, p, &ev);
    if (!rc) {
        double small[DX_NEED(S, S, S)];
        hes__mech_work w;
        size_t nq = (size_t)hes_mech_nq(m), quat = nq > d && !md->chart;
        rc = OPEN(&w, small, DX_NEED(d, k, nu) +
                                 (quat ? nq * nq + 2 * nq * d + nq + d + 2 * k : 0));
        if (!rc)
            rc = field_dx_in(md, t, x, p, &ev, &w, out);
        hes__mech_work_close(&w);
    }
    hes__mech_eval_close(&ev);
    return rc;
}
