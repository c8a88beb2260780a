/*
 * robot_rne.c - the derivatives of a robot's inverse dynamics, which
 * MuJoCo 2.2.2 does not give (its only derivative, mjd_transitionFD,
 * differences a discrete step): the recursive Newton-Euler algorithm
 * (Featherstone, "Rigid Body Dynamics Algorithms", 2008, Sec. 5.3) on
 * MuJoCo's position stage, differentiated in forward mode along
 * directions of q and of q' (as Carpentier and Mansard, "Analytical
 * derivatives of rigid body dynamics algorithms", RSS 2018, do in
 * reverse), for robots of hinge and slide joints.
 *
 * Spatial vectors are MuJoCo's: [angular; linear] about a fixed point o
 * per kinematic tree, the centre of mass of its root's subtree
 * (subtree_com), with cdof_j the motion of dof j at unit rate (mj_comPos).
 * Motion cross product (w, v) x (w2, v2) = (w x w2, w x v2 + v x w2), its
 * dual on forces (w, v) x* (n, f) = (w x n + v x f, w x f).  Body b of
 * parent p, dofs j in order within it:
 *     V_b = V_p + sum_j cdof_j q'_j,    cdot_j = V_(before j) x cdof_j,
 *     A_b = A_p + sum_j (cdot_j q'_j + cdof_j q''_j),  A_world = (0, -g),
 *     f_b = I_b A_b + V_b x* (I_b V_b),  F_b = f_b + sum_children F_c,
 *     ID_j = cdof_j . F_(body of j)                 (= M q'' + c + g),
 * with I_b the body's spatial inertia about o: I (w, v) = (Ic w + c x
 * m (v + w x c), m (v + w x c)), c = com - o, Ic = R diag(inertia) R^T.
 * Along a direction dq everything moves rigidly with the body's
 * displacement rate D_b = D_p + sum_j cdof_j dq_j (accumulated as V):
 *     d cdof_j = D_(before j) x cdof_j,
 *     d(I_b x) = D_b x* (I_b x) - I_b (D_b x x)    (x held fixed),
 * and the recursions above are differentiated term by term (the frame o
 * is held fixed: ID does not depend on it).  Along a direction dq' of the
 * velocities, d V_b = sum cdof_j dq'_j and d cdot_j = d V_(before j) x
 * cdof_j, the rest as above with D = 0.  One pass per direction, no
 * kinematics pass: where fourth-order differences of mj_rne took four
 * position stages.
 *
 * A ball joint's three rotational dofs (and a free joint's) turn together,
 * not in order: their velocity is the angular velocity in the body's frame
 * (q' = 1/2 q (x) (0, w)), so each of their axes is the body's own frame
 * axis after the whole rotation, and along a direction of q (the body-
 * frame rotation vector delta of q (x) exp(delta / 2)) every axis turns
 * with the whole joint's displacement: d(R e_k) = (R delta) x (R e_k).  So
 * the rules above hold with "before j" read as "through the end of j's
 * group", a group being a hinge or a slide (one dof: the two readings
 * agree, cdof_j x cdof_j = 0), a ball's three dofs, or a free joint's three
 * translations (world axes, fixed: a free joint's parent is the world)
 * and then its three rotations; this is mj_comVel's cdof_dot.  Joint
 * springs of ball and free joints (a quaternion difference) are left to
 * MuJoCo (hes__robot_rne_ok).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

/* The passes below write 6-vectors a component at a time (cross products)
 * and read them back at once; GCC's straight-line vectoriser turns the
 * reads into 16-byte loads that straddle two 8-byte stores, which the
 * processor cannot forward: with them the rimless wheel's whole analysis
 * (tests/bench/bench_robot.c) took 3 % longer. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-tree-slp-vectorize")
#endif

#include "model/robot_internal.h"

#include <mujoco/mujoco.h>

/* a x b (3-vectors) added to out with factor s */
static inline void cross_add(double *restrict out, const double *restrict a,
                             const double *restrict b, double s)
{
    out[0] += s * (a[1] * b[2] - a[2] * b[1]);
    out[1] += s * (a[2] * b[0] - a[0] * b[2]);
    out[2] += s * (a[0] * b[1] - a[1] * b[0]);
}

/* out = a x b (motion), spatial: (w x w2, w x v2 + v x w2) */
static inline void cross_motion(double *restrict out, const double *a, const double *b)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
    out[3] = a[1] * b[5] - a[2] * b[4] + a[4] * b[2] - a[5] * b[1];
    out[4] = a[2] * b[3] - a[0] * b[5] + a[5] * b[0] - a[3] * b[2];
    out[5] = a[0] * b[4] - a[1] * b[3] + a[3] * b[1] - a[4] * b[0];
}

/* out += a x* f (force), spatial */
static inline void cross_force_add(double *restrict out, const double *a, const double *f)
{
    cross_add(out, a, f, 1);         /* w x n */
    cross_add(out, a + 3, f + 3, 1); /* v x f */
    cross_add(out + 3, a, f + 3, 1); /* w x f */
}

static inline void axpy6(double *restrict y, const double *restrict x, double s)
{
    for (int i = 0; i < 6; i++)
        y[i] += s * x[i];
}

static double dot6(const double *a, const double *b)
{
    double s = 0;
    for (int i = 0; i < 6; i++)
        s += a[i] * b[i];
    return s;
}

/* The end (one past the last dof) of dof j's group: j + 1 for a hinge or a
 * slide, the ball's three dofs, a free joint's translations or rotations. */
static int group_end(const mjModel *m, int j)
{
    int jn = m->dof_jntid[j], a = m->jnt_dofadr[jn];
    switch (m->jnt_type[jn]) {
    case mjJNT_BALL:
        return a + 3;
    case mjJNT_FREE:
        return j < a + 3 ? a + 3 : a + 6;
    default:
        return j + 1;
    }
}

/* The directions a forward pass differentiates along: n_dq of q (dq, nv x
 * n_dq) then n_dqd of q' (dqd, nv x n_dqd; NULL: the unit ones e_0, e_1,
 * ...), their per-direction vectors dV, dA, D `stride` doubles apart. */
typedef struct {
    int nv, n_dq, n_dqd;
    const double *dq, *dqd;
    size_t stride;
} directions;

/* component j of velocity direction k (k >= n_dq) */
static double qd_dir(const directions *s, int j, int k)
{
    int c = k - s->n_dq;
    return s->dqd ? s->dqd[j + (size_t)c * s->nv] : (double)(j == c);
}

/*
 * The dofs g0 .. g1 - 1 of one group (group_end) carry a body's velocity
 * V and acceleration A (q'' = qdd; NULL: 0) onward, with their
 * derivatives dV, dA and the displacement rate D per direction:
 *     V_g = V + sum_j cdof_j q'_j,  cdot_j = V_g x cdof_j,
 *     A  += sum_j (cdot_j q'_j + cdof_j q''_j),
 *     D_g = D + sum_j cdof_j dq_j,  d cdof_j = D_g x cdof_j,
 *     dV_g = dV + sum_j (d cdof_j q'_j + cdof_j dq'_j),
 *     d cdot_j = dV_g x cdof_j + V_g x d cdof_j.
 */
/* group_step for a group of one dof j (a hinge or a slide): the unit
 * velocity directions other than e_j add nothing at j. */
static void step_one(const double *cd, int j, const double *qd, const double *qdd,
                     const directions *s, double *V, double *A, double *dV, double *dA,
                     double *D)
{
    int ndir = s->n_dq + s->n_dqd;
    double w = qd[j], cdot[6], Vg[6];
    memcpy(Vg, V, sizeof Vg);
    axpy6(Vg, cd, w);
    cross_motion(cdot, Vg, cd);
    for (int k = 0; k < ndir; k++) {
        double *dVk = dV + k * s->stride, *dAk = dA + k * s->stride, dcdot[6];
        if (k < s->n_dq) {
            double *Dk = D + k * s->stride, dcd[6], t[6];
            axpy6(Dk, cd, s->dq[j + (size_t)k * s->nv]);
            cross_motion(dcd, Dk, cd);
            axpy6(dVk, dcd, w);
            cross_motion(dcdot, dVk, cd);
            cross_motion(t, Vg, dcd);
            axpy6(dcdot, t, 1);
            if (qdd)
                axpy6(dAk, dcd, qdd[j]);
        } else {
            double e = qd_dir(s, j, k);
            if (e != 0) {
                axpy6(dVk, cd, e);
                axpy6(dAk, cdot, e);
            }
            cross_motion(dcdot, dVk, cd);
        }
        axpy6(dAk, dcdot, w);
    }
    axpy6(A, cdot, w);
    if (qdd)
        axpy6(A, cd, qdd[j]);
    memcpy(V, Vg, sizeof Vg);
}

static void group_step(const double *cdof, int g0, int g1, const double *qd, const double *qdd,
                       const directions *s, double *V, double *A, double *dV, double *dA,
                       double *D)
{
    int n = g1 - g0, ndir = s->n_dq + s->n_dqd;
    if (n == 1) {
        step_one(cdof + 6 * g0, g0, qd, qdd, s, V, A, dV, dA, D);
        return;
    }
    const double *cd = cdof + 6 * g0;
    double Vg[6], cdot[3][6];
    memcpy(Vg, V, sizeof Vg);
    for (int j = 0; j < n; j++)
        axpy6(Vg, cd + 6 * j, qd[g0 + j]);
    for (int j = 0; j < n; j++)
        cross_motion(cdot[j], Vg, cd + 6 * j);
    for (int k = 0; k < ndir; k++) {
        double *dVk = dV + k * s->stride, *dAk = dA + k * s->stride, *Dk = D + k * s->stride;
        double dcd[3][6], t[6];
        if (k < s->n_dq) {
            const double *dqk = s->dq + (size_t)k * s->nv;
            for (int j = 0; j < n; j++)
                axpy6(Dk, cd + 6 * j, dqk[g0 + j]);
            for (int j = 0; j < n; j++) {
                cross_motion(dcd[j], Dk, cd + 6 * j);
                axpy6(dVk, dcd[j], qd[g0 + j]);
            }
        } else {
            for (int j = 0; j < n; j++)
                axpy6(dVk, cd + 6 * j, qd_dir(s, g0 + j, k));
        }
        for (int j = 0; j < n; j++) {
            double dcdot[6];
            cross_motion(dcdot, dVk, cd + 6 * j);
            if (k < s->n_dq) {
                cross_motion(t, Vg, dcd[j]);
                axpy6(dcdot, t, 1);
                if (qdd)
                    axpy6(dAk, dcd[j], qdd[g0 + j]);
            } else {
                axpy6(dAk, cdot[j], qd_dir(s, g0 + j, k));
            }
            axpy6(dAk, dcdot, qd[g0 + j]);
        }
    }
    for (int j = 0; j < n; j++) {
        axpy6(A, cdot[j], qd[g0 + j]);
        if (qdd)
            axpy6(A, cd + 6 * j, qdd[g0 + j]);
    }
    memcpy(V, Vg, sizeof Vg);
}

/* A body's spatial inertia about o: mass, c = com - o, Ic (3 x 3). */
typedef struct {
    double m, c[3], Ic[9];
} inertia;

static void inertia_of(const mjModel *m, const mjData *d, int b, inertia *I)
{
    const double *o = d->subtree_com + 3 * m->body_rootid[b], *R = d->ximat + 9 * b,
                 *in = m->body_inertia + 3 * b;
    I->m = m->body_mass[b];
    for (int i = 0; i < 3; i++)
        I->c[i] = d->xipos[3 * b + i] - o[i];
    for (int i = 0; i < 3; i++)   /* R diag(in) R^T, R row-major */
        for (int j = 0; j < 3; j++)
            I->Ic[3 * i + j] = R[3 * i] * in[0] * R[3 * j] + R[3 * i + 1] * in[1] * R[3 * j + 1] +
                               R[3 * i + 2] * in[2] * R[3 * j + 2];
}

/* out = I x: (Ic w + c x p, p), p = m (v + w x c) */
static void inertia_mul(const inertia *I, const double *x, double *out)
{
    double p[3] = { x[3], x[4], x[5] };
    cross_add(p, x, I->c, 1);
    for (int i = 0; i < 3; i++)
        p[i] *= I->m;
    for (int i = 0; i < 3; i++)
        out[i] = I->Ic[3 * i] * x[0] + I->Ic[3 * i + 1] * x[1] + I->Ic[3 * i + 2] * x[2];
    cross_add(out, I->c, p, 1);
    memcpy(out + 3, p, sizeof p);
}

/* out = d(I x) along the body's displacement rate D, x fixed:
 * D x* (I x) - I (D x x), given Ix = I x */
static void inertia_dmul(const inertia *I, const double *D, const double *x, const double *Ix,
                         double *out)
{
    double Dx[6], IDx[6];
    cross_motion(Dx, D, x);
    inertia_mul(I, Dx, IDx);
    for (int i = 0; i < 6; i++)
        out[i] = -IDx[i];
    cross_force_add(out, D, Ix);
}

int hes__robot_rne_ok(const struct mjModel_ *m)
{
    /* a ball's or free joint's spring pulls along a quaternion difference */
    for (int j = 0; j < m->njnt; j++)
        if ((m->jnt_type[j] == mjJNT_BALL || m->jnt_type[j] == mjJNT_FREE) &&
            m->jnt_stiffness[j] != 0)
            return 0;
    /* mj_passive's fluid forces and tendons' springs are not differentiated */
    if (m->opt.density != 0 || m->opt.viscosity != 0)
        return 0;
    for (int t = 0; t < m->ntendon; t++)
        if (m->tendon_stiffness[t] != 0 || m->tendon_damping[t] != 0)
            return 0;
    return 1;
}

/*
 * Inverse dynamics ID(q, q', q'') (out, nv; may be NULL) and its
 * derivatives along n_dq directions of q (dq: nv x n_dq, column-major;
 * out_dq: nv x n_dq) and along the unit directions of q' (out_dqd: nv x nv,
 * may be NULL), at the position stage MuJoCo's data holds (hes__robot_at).
 * Work arrays: r->rne_work (hes__robot_rne_alloc).
 */
void hes__robot_rne(hes_robot *r, const double *qd, const double *qdd, int n_dq,
                    const double *dq, double *out, double *out_dq, double *out_dqd)
{
    const mjModel *m = r->m;
    const mjData *d = r->d;
    int nb = m->nbody, nv = m->nv, ndir = n_dq + (out_dqd ? nv : 0);
    /* per body: V, A, F (6 each); per direction and body: dV, dA, dF, D */
    double *V = r->rne_work, *A = V + 6 * nb, *F = A + 6 * nb, *dV = F + 6 * nb,
           *dA = dV + 6 * (size_t)nb * ndir, *dF = dA + 6 * (size_t)nb * ndir,
           *D = dF + 6 * (size_t)nb * ndir;
    inertia *In = (inertia *)(D + 6 * (size_t)nb * ndir);
    memset(V, 0, sizeof(double) * 6 * (size_t)nb * (3 + 4 * (size_t)ndir));
    directions dirs = { nv, n_dq, ndir - n_dq, dq, NULL, 6 * (size_t)nb };
    /* the world: at rest, accelerating against gravity */
    if (!(m->opt.disableflags & mjDSBL_GRAVITY))
        for (int i = 0; i < 3; i++)
            A[3 + i] = -m->opt.gravity[i];
    for (int b = 1; b < nb; b++) {
        int p = m->body_parentid[b];
        double *Vb = V + 6 * b, *Ab = A + 6 * b;
        memcpy(Vb, V + 6 * p, 6 * sizeof(double));
        memcpy(Ab, A + 6 * p, 6 * sizeof(double));
        for (int k = 0; k < ndir; k++) {
            size_t bk = 6 * ((size_t)k * nb + b), pk = 6 * ((size_t)k * nb + p);
            memcpy(dV + bk, dV + pk, 6 * sizeof(double));
            memcpy(dA + bk, dA + pk, 6 * sizeof(double));
            memcpy(D + bk, D + pk, 6 * sizeof(double));
        }
        for (int j = m->body_dofadr[b], e; j < m->body_dofadr[b] + m->body_dofnum[b]; j = e) {
            e = group_end(m, j);
            group_step(d->cdof, j, e, qd, qdd, &dirs, Vb, Ab, dV + 6 * b, dA + 6 * b, D + 6 * b);
        }
        /* f_b = I A + V x* (I V) and its derivatives */
        inertia *I = &In[b];
        inertia_of(m, d, b, I);
        double IV[6], IA[6], *Fb = F + 6 * b;
        inertia_mul(I, Ab, IA);
        inertia_mul(I, Vb, IV);
        memcpy(Fb, IA, sizeof IA);
        cross_force_add(Fb, Vb, IV);
        for (int k = 0; k < ndir; k++) {
            size_t bk = 6 * ((size_t)k * nb + b);
            double t[6], s[6], *dFb = dF + bk;
            const double *Db = D + bk;
            inertia_mul(I, dA + bk, dFb);
            cross_force_add(dFb, dV + bk, IV);
            /* V x* (dI V + I dV) */
            inertia_mul(I, dV + bk, s);
            if (k < n_dq) {
                inertia_dmul(I, Db, Ab, IA, t);
                axpy6(dFb, t, 1);
                inertia_dmul(I, Db, Vb, IV, t);
                axpy6(s, t, 1);
            }
            cross_force_add(dFb, Vb, s);
        }
    }
    /* forces to the parents, then onto the dofs */
    for (int b = nb - 1; b > 0; b--) {
        int p = m->body_parentid[b];
        if (p > 0) {
            axpy6(F + 6 * p, F + 6 * b, 1);
            for (int k = 0; k < ndir; k++)
                axpy6(dF + 6 * ((size_t)k * nb + p), dF + 6 * ((size_t)k * nb + b), 1);
        }
    }
    for (int j = 0; j < nv; j++) {
        int b = m->dof_bodyid[j];
        const double *cd = d->cdof + 6 * j;
        if (out)
            out[j] = dot6(cd, F + 6 * b);
        for (int k = 0; k < ndir; k++) {
            size_t bk = 6 * ((size_t)k * nb + b);
            /* d cdof_j along dq: D through j's group, i.e. the parent's
               plus this body's dofs up to the group's end */
            double Dj[6] = { 0 }, dcd[6] = { 0 };
            if (k < n_dq) {
                memcpy(Dj, D + 6 * ((size_t)k * nb + m->body_parentid[b]), sizeof Dj);
                for (int i = m->body_dofadr[b], e = group_end(m, j); i < e; i++)
                    axpy6(Dj, d->cdof + 6 * i, dq[i + (size_t)k * nv]);
                cross_motion(dcd, Dj, cd);
            }
            double v = dot6(cd, dF + bk) + dot6(dcd, F + 6 * b);
            if (k < n_dq)
                out_dq[j + (size_t)k * nv] = v;
            else
                out_dqd[j + (size_t)(k - n_dq) * nv] = v;
        }
    }
}

/*
 * The motion of contact c's point (a site, or a body's origin) at q'' = 0
 * without gravity: its velocity v = V_lin + w x r and classical
 * acceleration a = A_lin + alpha x r + w x v (r = point - o; V = (w,
 * V_lin), A = (alpha, A_lin) its body's, from the recursions above with
 * q'' = 0 and A_world = 0: a = J' q'), and their derivatives along n_dq
 * directions of q at fixed q' (dq: nv x n_dq; the point moves with its
 * body, dr = D_lin + D_ang x r) and then n_dqd directions of q' at fixed q
 * (dqd: nv x n_dqd) into dv and da (3 x (n_dq + n_dqd) each).  Only the
 * bodies from the point's up to its tree's root are visited.  At the
 * position stage MuJoCo's data holds; v, a, dv, da may be NULL.
 */
void hes__robot_point_motion(hes_robot *r, int c, const double *qd, int n_dq, const double *dq,
                             int n_dqd, const double *dqd, double *v, double *a, double *dv,
                             double *da)
{
    const mjModel *m = r->m;
    const mjData *d = r->d;
    int s = r->site[c], body = s >= 0 ? m->site_bodyid[s] : -s - 1, nv = m->nv;
    int ndir = n_dq + n_dqd, chain[64], depth = 0, *path = chain;
    /* the chain of bodies from the root down to the point's (heap beyond 64) */
    for (int b = body; b > 0; b = m->body_parentid[b])
        depth++;
    if (depth > 64)
        path = (int *)r->rne_work;   /* rne_work holds far more than depth ints */
    for (int b = body, i = depth - 1; b > 0; b = m->body_parentid[b], i--)
        path[i] = b;
    double V[6] = { 0 }, A[6] = { 0 }, *dV = r->rne_work + (depth > 64 ? depth : 0),
           *dA = dV + 6 * (size_t)ndir, *D = dA + 6 * (size_t)ndir;
    memset(dV, 0, sizeof(double) * 18 * (size_t)ndir);
    directions dirs = { nv, n_dq, n_dqd, dq, dqd, 6 };
    for (int i = 0; i < depth; i++) {
        int b = path[i];
        for (int j = m->body_dofadr[b], e; j < m->body_dofadr[b] + m->body_dofnum[b]; j = e) {
            e = group_end(m, j);
            group_step(d->cdof, j, e, qd, NULL, &dirs, V, A, dV, dA, D);
        }
    }
    const double *o = d->subtree_com + 3 * m->body_rootid[body],
                 *x = s >= 0 ? d->site_xpos + 3 * s : d->xpos + 3 * body;
    double rr[3] = { x[0] - o[0], x[1] - o[1], x[2] - o[2] }, vs[3], as[3];
    memcpy(vs, V + 3, sizeof vs);
    cross_add(vs, V, rr, 1);
    memcpy(as, A + 3, sizeof as);
    cross_add(as, A, rr, 1);
    cross_add(as, V, vs, 1);
    if (v)
        memcpy(v, vs, sizeof vs);
    if (a)
        memcpy(a, as, sizeof as);
    for (int k = 0; k < ndir; k++) {
        const double *dVk = dV + 6 * k, *dAk = dA + 6 * k;
        double dr[3] = { 0 }, dvs[3], das[3];
        if (k < n_dq) {
            memcpy(dr, D + 6 * k + 3, sizeof dr);
            cross_add(dr, D + 6 * k, rr, 1);
        }
        /* dv = dV_lin + dw x r + w x dr */
        memcpy(dvs, dVk + 3, sizeof dvs);
        cross_add(dvs, dVk, rr, 1);
        cross_add(dvs, V, dr, 1);
        /* da = dA_lin + dalpha x r + alpha x dr + dw x v + w x dv */
        memcpy(das, dAk + 3, sizeof das);
        cross_add(das, dAk, rr, 1);
        cross_add(das, A, dr, 1);
        cross_add(das, dVk, vs, 1);
        cross_add(das, V, dvs, 1);
        if (dv)
            memcpy(dv + 3 * k, dvs, sizeof dvs);
        if (da)
            memcpy(da + 3 * k, das, sizeof das);
    }
}

size_t hes__robot_rne_size(const struct mjModel_ *m, int max_dirs)
{
    size_t nb = (size_t)m->nbody;
    return sizeof(double) * 6 * nb * (3 + 4 * (size_t)max_dirs) + sizeof(inertia) * nb;
}
