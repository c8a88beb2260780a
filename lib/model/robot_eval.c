/*
 * robot_eval.c - a robot's equations of motion as the mechanical layer's
 * fast path (hes_mech.net_force, hes_mech.net_force_dx), from MuJoCo's
 * recursive Newton-Euler pass (mj_rne) on the position stage computed
 * once per configuration (hes__robot_at):
 *   net force   f - c = B u + passive(q, q') - bias(q, q'), bias =
 *               qfrc_bias = c(q, q') + g(q) (mj_rne, no acceleration):
 *               one pass, where deriving c from dM/dq costs d (d + 1) / 2;
 *   dr/dq V     r = f - c - M q'' = B u + passive - ID(q, q', q''), ID =
 *               mj_rne with the acceleration (M q'' + bias, without the
 *               armature's constant diagonal, whose q-derivative is
 *               zero), along the directions V (a chart's columns):
 *               fourth-order central differences (error ~1e-12 relative,
 *               as the rest of the layer), one position and velocity
 *               stage and one pass per point;
 *   dr/dq'      exact: c is a quadratic form in q' and the passive forces
 *               (joint dampers) are linear in it, so the central
 *               difference (r(q' + s e_j) - r(q' - s e_j)) / 2s has no
 *               truncation error for any s; s = 1 + |q'|_inf keeps the
 *               rounding at eps |q'|;
 *   dr/du       B, the motors' input matrix.
 * MuJoCo 2.2.2 has no analytic derivative of mj_rne in q (its only
 * derivative, mjd_transitionFD, differences a discrete step with soft
 * contacts), hence the differences.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_internal.h"
#include "model/robot_internal.h"

#include <mujoco/mujoco.h>

hes_status hes__robot_eval_alloc(hes_robot *r, char *msg, size_t len)
{
    size_t nq = (size_t)r->m->nq, nv = (size_t)r->m->nv;
    r->at_q = malloc(sizeof(double) * nq);
    r->ev_q = malloc(sizeof(double) * nq);
    r->ev_v = malloc(sizeof(double) * nv);
    r->ev_acc = malloc(sizeof(double) * nv);
    r->rne_ok = hes__robot_rne_ok(r->m);
    r->rne_work = malloc(hes__robot_rne_size(r->m, 2 * (int)nv));
    r->ev_eye = calloc(nv * nv, sizeof(double));
    r->ev_m = malloc(sizeof(double) * (6 * nv + nv * nv));
    r->ev_w = malloc(sizeof(double) * nv * nv);
    r->ch_z = malloc(sizeof(double) * nv);
    r->ev_zero = calloc(nv, sizeof(double));
    int ok = r->at_q && r->ev_q && r->ev_v && r->ev_acc && r->rne_work && r->ev_eye && r->ev_m &&
             r->ev_w && r->ch_z && r->ev_zero;
    for (size_t i = 0; ok && i < nv; i++)
        r->ev_eye[i * (nv + 1)] = 1;
    for (int s = 0; s < 4; s++)
        ok &= (r->ev_f[s] = malloc(sizeof(double) * nv)) != NULL;
    return ok ? HES_OK : hes__say(msg, len, HES_ENOMEM, "out of memory for a robot");
}

/* Gravity turned by the model's slope parameter, when it has one. */
static void slope(hes_robot *r, const double *p)
{
    if (r->slope_param >= 0 && p && hes__robot_slope_ok(p[r->slope_param]))
        hes__robot_gravity(r, p[r->slope_param]);
}

/* passive(q, v) - bias(q, v), or with qdd passive - ID(q, v, qdd), into
 * out (nv); the velocity stage at v. */
static void residual(hes_robot *r, const double *q, const double *v, const double *qdd,
                     double *out)
{
    int nv = r->m->nv;
    hes__robot_at_moving(r, q, v);
    mj_passive(r->m, r->d);
    if (qdd)
        memcpy(r->d->qacc, qdd, sizeof(double) * (size_t)nv);
    mj_rne(r->m, r->d, qdd != NULL, out);
    for (int i = 0; i < nv; i++)
        out[i] = r->d->qfrc_passive[i] - out[i];
}

/* The joints' springs and dampers, -stiffness (q - springref) - damping
 * q' (mj_passive's for hinges and slides), added to out. */
static void add_passive(const hes_robot *r, const double *q, const double *qd, double *out)
{
    const mjModel *m = r->m;
    if (m->opt.disableflags & mjDSBL_PASSIVE)
        return;
    for (int j = 0; j < m->nv; j++) {
        int jn = m->dof_jntid[j], a = m->jnt_qposadr[jn];
        out[j] -= m->jnt_stiffness[jn] * (q[a] - m->qpos_spring[a]) + m->dof_damping[j] * qd[j];
    }
}

int hes__robot_net_force(const double *q, const double *qd, const double *u, const double *p,
                         double *out, void *data)
{
    hes_robot *r = hes__robot_grab(HES_ROBOT_OF(data));
    int nv = r->m->nv;
    slope(r, p);
    if (r->rne_ok) {   /* our own pass, whose derivatives net_force_dx gives */
        hes__robot_at(r, q);
        hes__robot_rne(r, qd, r->ev_zero, 0, NULL, out, NULL, NULL);
        for (int i = 0; i < nv; i++)
            out[i] = -out[i];
        add_passive(r, q, qd, out);
    } else {
        residual(r, q, qd, NULL, out);
    }
    for (int i = 0; i < nv; i++)
        for (int a = 0; u && a < r->nu; a++)
            out[i] += r->B[i + (size_t)a * nv] * u[a];
    HES_ROBOT_UNLOCK(r);
    return 0;
}

/* dr/dq V and dr/dq' from the derivatives of inverse dynamics
 * (robot_rne.c) and of the joints' springs and dampers (-stiffness and
 * -damping on the diagonal: mj_passive's for hinges and slides). */
static void analytic(hes_robot *r, const double *q, const double *qd, const double *qdd,
                     int n_dir, const double *V, double *rq, double *rqd)
{
    const mjModel *m = r->m;
    int nv = m->nv, passive = !(m->opt.disableflags & mjDSBL_PASSIVE);
    hes__robot_at(r, q);   /* the pass computes its own velocities */
    hes__robot_rne(r, qd, qdd, n_dir, V, NULL, rq, rqd);
    for (int i = 0; i < nv * n_dir; i++)
        rq[i] = -rq[i];
    for (int i = 0; i < nv * nv; i++)
        rqd[i] = -rqd[i];
    if (!passive)
        return;
    for (int j = 0; j < nv; j++) {
        double k = m->jnt_stiffness[m->dof_jntid[j]];
        for (int c = 0; c < n_dir; c++)
            rq[j + (size_t)c * nv] -= k * V[j + (size_t)c * nv];
        rqd[j + (size_t)j * nv] -= m->dof_damping[j];
    }
}

int hes__robot_net_force_dx(const double *q, const double *qd, const double *qdd,
                            const double *u, const double *p, int n_dir, const double *V,
                            double *rq, double *rqd, double *ru, void *data)
{
    (void)u;
    hes_robot *r = hes__robot_grab(HES_ROBOT_OF(data));
    int nv = r->m->nv, nq = r->m->nq;
    double **f = r->ev_f;
    slope(r, p);
    if (r->rne_ok) {
        analytic(r, q, qd, qdd, n_dir, V ? V : r->ev_eye, rq, rqd);
        if (ru)
            memcpy(ru, r->B, sizeof(double) * (size_t)nv * (size_t)r->nu);
        HES_ROBOT_UNLOCK(r);
        return 0;
    }
    /* dr/dq' by exact central differences of the quadratic c and linear
       passive forces */
    double s = 1;
    for (int i = 0; i < nv; i++)
        s = fmax(s, 1 + fabs(qd[i]));
    memcpy(r->ev_v, qd, sizeof(double) * (size_t)nv);
    for (int j = 0; j < nv; j++) {
        r->ev_v[j] = qd[j] + s;
        residual(r, q, r->ev_v, NULL, f[0]);
        r->ev_v[j] = qd[j] - s;
        residual(r, q, r->ev_v, NULL, f[1]);
        r->ev_v[j] = qd[j];
        for (int i = 0; i < nv; i++)
            rqd[i + (size_t)j * nv] = (f[0][i] - f[1][i]) / (2 * s);
    }
    /* (dr/dq) V by fourth-order differences along each direction, step
       eps^(1/5) max(1, |q|_inf) / |V_j|_inf (hes__mech_fd4's rule, for the
       largest coordinate the direction moves) */
    for (int j = 0; j < n_dir; j++) {
        const double *vj = V ? V + (size_t)j * nv : NULL;
        double vmax = vj ? 0 : 1, qmax = 1;
        for (int i = 0; i < nv; i++) {
            if (vj)
                vmax = fmax(vmax, fabs(vj[i]));
            if (vj ? vj[i] != 0 : i == j)
                qmax = fmax(qmax, fabs(q[i]));
        }
        if (vmax == 0) {
            memset(rq + (size_t)j * nv, 0, sizeof(double) * (size_t)nv);
            continue;
        }
        double h = pow(DBL_EPSILON, 0.2) * qmax / vmax;
        const double off[4] = { h, -h, 2 * h, -2 * h };
        for (int k = 0; k < 4; k++) {
            memcpy(r->ev_q, q, sizeof(double) * (size_t)nq);
            for (int i = 0; i < nv; i++)
                r->ev_q[i] += off[k] * (vj ? vj[i] : i == j);
            residual(r, r->ev_q, qd, qdd, f[k]);
        }
        for (int i = 0; i < nv; i++)
            rq[i + (size_t)j * nv] =
                (8.0 * (f[0][i] - f[1][i]) - (f[2][i] - f[3][i])) / (12.0 * h);
    }
    if (ru)
        memcpy(ru, r->B, sizeof(double) * (size_t)nv * (size_t)r->nu);
    HES_ROBOT_UNLOCK(r);
    return 0;
}
