/*
 * robot_eval.c - a robot's equations of motion as the mechanical layer's
 * fast path (hes_mech.net_force, hes_mech.net_force_dx) on MuJoCo's
 * position stage, computed once per configuration (hes__robot_at):
 *   net force   f - c = B u + passive(q, q') - ID(q, q', 0), ID the
 *               inverse dynamics (c(q, q') + g(q)): one recursive
 *               Newton-Euler pass, where deriving c from dM/dq costs
 *               d (d + 1) / 2; ours (robot_rne.c) for the robots it takes,
 *               whose derivatives are then those of the same function,
 *               else MuJoCo's (mj_rne, mj_passive);
 *   its Jacobians (robots robot_rne.c takes) dr/dq V and dr/dq' of r =
 *               f - c - M q'' from the inverse dynamics' derivatives and
 *               the joints' springs and dampers, dr/du = B; for the others
 *               net_force_dx is NULL and the mechanical layer differences
 *               net_force (lib/model/mech_dx.c).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

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
    r->ev_v = malloc(sizeof(double) * nv);
    r->ev_acc = malloc(sizeof(double) * nv);
    r->rne_ok = hes__robot_rne_ok(r->m);
    r->rne_work = malloc(hes__robot_rne_size(r->m, 2 * (int)nv));
    r->ev_eye = calloc(nv * nv, sizeof(double));
    r->ev_m = malloc(sizeof(double) * (6 * nv + nv * nv));
    r->ev_w = malloc(sizeof(double) * nv * nv);
    r->ch_z = malloc(sizeof(double) * nv);
    r->ch_zd = malloc(sizeof(double) * nv);
    r->ch_S = malloc(sizeof(double) * 2 * nv * nv);
    r->ev_zero = calloc(nv, sizeof(double));
    r->ev_q = malloc(sizeof(double) * nq);
    r->ev_dq = malloc(sizeof(double) * nv);
    r->carry = calloc((size_t)(r->n_contacts > 0 ? r->n_contacts : 1), sizeof(int));
    r->nf_key = malloc(sizeof(double) * (nq + nv + ((size_t)r->m->nu > nv ? (size_t)r->m->nu : nv) + 3));
    r->nf_out = malloc(sizeof(double) * nv);
    r->nf_valid = 0;
    int ok = r->nf_key && r->nf_out && r->ch_zd && r->ch_S && r->at_q && r->ev_v && r->ev_acc && r->rne_work && r->ev_eye && r->ev_m &&
             r->ev_w && r->ch_z && r->ev_zero && r->carry && r->ev_q && r->ev_dq;
    for (size_t i = 0; ok && i < nv; i++)
        r->ev_eye[i * (nv + 1)] = 1;
    return ok ? HES_OK : hes__say(msg, len, HES_ENOMEM, "out of memory for a robot");
}

/* Gravity turned by the model's slope parameter, when it has one. */
static void slope(hes_robot *r, const double *p)
{
    if (r->slope_param >= 0 && p && hes__robot_slope_ok(p[r->slope_param]))
        hes__robot_gravity(r, p[r->slope_param]);
}

/* passive(q, v) - bias(q, v) into out (nv), MuJoCo's: mj_passive, mj_rne
 * at the velocity stage at v (robot_internal.h). */
void hes__robot_passive_less_bias(hes_robot *r, const double *q, const double *v, double *out)
{
    int nv = r->m->nv;
    hes__robot_at_moving(r, q, v);
    mj_passive(r->m, r->d);
    mj_rne(r->m, r->d, 0, out);
    for (int i = 0; i < nv; i++)
        out[i] = r->d->qfrc_passive[i] - out[i];
}

/* The joints' springs and dampers, -stiffness (q (-) springref) - damping
 * q' (mj_passive's: a ball's spring turns it back by the rotation
 * vector of q relative to springref, hes_mech_difference), added to
 * out. */
static void add_passive(hes_robot *r, const double *q, const double *qd, double *out)
{
    const mjModel *m = r->m;
    if (m->opt.disableflags & mjDSBL_PASSIVE)
        return;
    hes_mech_difference(&r->mech, q, m->qpos_spring, r->ev_dq);
    for (int j = 0; j < m->nv; j++)
        out[j] -= m->jnt_stiffness[m->dof_jntid[j]] * r->ev_dq[j] + m->dof_damping[j] * qd[j];
}

/* (q (+) t V) (-) springref: the springs' stretch along direction V */
typedef struct {
    hes_robot *r;
    const double *q, *V;
} stretch_ctx;

static int stretch_along(void *ctx, const double *t, double *out)
{
    const stretch_ctx *c = ctx;
    hes_mech_integrate(&c->r->mech, c->q, c->V, t[0], c->r->ev_q);
    hes_mech_difference(&c->r->mech, c->r->ev_q, c->r->m->qpos_spring, out);
    return 0;
}

/* The springs' -stiffness (q (-) springref) along the n_dir directions V
 * (nv each), added to rq: -stiffness V for hinges and slides, and for a
 * robot with quaternions fourth-order differences of the stretch along
 * hes_mech_integrate (hes__mech_fd4), whose derivative is V only at
 * springref. */
static void add_spring_dq(hes_robot *r, const double *q, int n_dir, const double *V, double *rq)
{
    const mjModel *m = r->m;
    int nv = m->nv;
    for (int c = 0; c < n_dir; c++) {
        const double *Vc = V + (size_t)c * nv, *dstretch = Vc;
        if (r->mech.n_quat > 0) {
            stretch_ctx ctx = { r, q, Vc };
            hes__mech_fd4(stretch_along, &ctx, r->ev_zero, 1, nv, r->ev_dq);
            dstretch = r->ev_dq;
        }
        for (int j = 0; j < nv; j++)
            rq[j + (size_t)c * nv] -= m->jnt_stiffness[m->dof_jntid[j]] * dstretch[j];
    }
}

int hes__robot_net_force(const double *q, const double *qd, const double *u, const double *p,
                         double *out, void *data)
{
    hes_robot *r = hes__robot_grab(HES_ROBOT_OF(data));
    int nv = r->m->nv, nq = r->m->nq, nu = u ? r->nu : 0;
    slope(r, p);
    double *key = r->nf_key;
    size_t bq = sizeof(double) * (size_t)nq, bv = sizeof(double) * (size_t)nv,
           bu = sizeof(double) * (size_t)nu;
    if (r->nf_valid == 1 + (u != NULL) && !memcmp(key, q, bq) && !memcmp(key + nq, qd, bv) &&
        !memcmp(key + nq + nv, u ? u : key, bu) &&
        !memcmp(key + nq + nv + nu, r->m->opt.gravity, 3 * sizeof(double))) {
        memcpy(out, r->nf_out, bv);
        HES_ROBOT_UNLOCK(r);
        return 0;
    }
    if (r->rne_ok) {   /* our own pass, whose derivatives net_force_dx gives */
        hes__robot_at(r, q);
        hes__robot_rne(r, qd, r->ev_zero, 0, NULL, out, NULL, NULL);
        for (int i = 0; i < nv; i++)
            out[i] = -out[i];
        add_passive(r, q, qd, out);
    } else {
        hes__robot_passive_less_bias(r, q, qd, out);
    }
    for (int i = 0; i < nv; i++)
        for (int a = 0; u && a < r->nu; a++)
            out[i] += r->B[i + (size_t)a * nv] * u[a];
    memcpy(key, q, bq);
    memcpy(key + nq, qd, bv);
    if (nu)
        memcpy(key + nq + nv, u, bu);
    memcpy(key + nq + nv + nu, r->m->opt.gravity, 3 * sizeof(double));
    memcpy(r->nf_out, out, bv);
    r->nf_valid = 1 + (u != NULL);
    HES_ROBOT_UNLOCK(r);
    return 0;
}

/* dr/dq V and dr/dq' from the derivatives of inverse dynamics
 * (robot_rne.c) and of the joints' springs and dampers (add_spring_dq,
 * and -damping on the diagonal: mj_passive's). */
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
    add_spring_dq(r, q, n_dir, V, rq);
    for (int j = 0; j < nv; j++)
        rqd[j + (size_t)j * nv] -= m->dof_damping[j];
}

int hes__robot_net_force_dx(const double *q, const double *qd, const double *qdd,
                            const double *u, const double *p, int n_dir, const double *V,
                            double *rq, double *rqd, double *ru, void *data)
{
    (void)u;
    hes_robot *r = hes__robot_grab(HES_ROBOT_OF(data));
    int nv = r->m->nv;
    if (n_dir < 0 || n_dir > nv || (!V && n_dir != nv)) {   /* the work is sized for nv */
        HES_ROBOT_UNLOCK(r);
        return 1;
    }
    slope(r, p);
    analytic(r, q, qd, qdd, n_dir, V ? V : r->ev_eye, rq, rqd);
    if (ru)
        memcpy(ru, r->B, sizeof(double) * (size_t)nv * (size_t)r->nu);
    HES_ROBOT_UNLOCK(r);
    return 0;
}
