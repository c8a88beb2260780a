/*
 * robot_dynamics.c - a robot's dynamics at a state, from MuJoCo's
 * (Debian libmujoco-dev 2.2.2, detected by configure), at a configuration
 * q set in its qpos (robot_mujoco.c):
 *   M(q)            mj_kinematics, mj_comPos, mj_crb, then mj_fullM
 *                   (the joint-space inertia, armature included);
 *   dM/dq           mj_rne's bias at unit velocities, gravity off: the
 *                   Christoffel symbols (hes__robot_mass_dq below);
 *   g(q)            mj_rne with qvel = 0 and no acceleration: the bias
 *                   force at rest, gravity only (turned by a robot model's
 *                   slope, robot_motor.c);
 *   passive forces  mj_passive at (q, q'): the file's joint springs
 *                   (stiffness, springref) and dampers (damping);
 *   inputs          joint motors: force B u (robot_motor.c).
 * The applied force of hes_mech is B u - g(q) + the passive forces; the
 * Coriolis terms the library derives from M as for every hes_mech.  M and
 * dM/dq are kept for the last q.
 *
 * hes_robot_dynamics_at's state for inverse dynamics: M, the bias
 * qfrc_bias - qfrc_passive at the velocities, and every contact's rows
 * (mj_jacSite, mj_jacBody), heights and drift J' v.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "model/model_internal.h"
#include "model/robot_internal.h"

#include <mujoco/mujoco.h>

/* M(q) (hes_mech.mass), kept for the next call at the same q. */
int hes__robot_mass(const double *q, const double *p, double *out, void *data)
{
    (void)p;
    hes_robot *r = hes__robot_grab(HES_ROBOT_OF(data));
    int nv = r->m->nv;
    size_t bq = sizeof(double) * (size_t)r->m->nq, bm = sizeof(double) * (size_t)nv * nv;
    if (r->have_M && memcmp(q, r->cM_q, bq) == 0) {
        memcpy(out, r->cM, bm);
        HES_ROBOT_UNLOCK(r);
        return 0;
    }
    hes__robot_at(r, q);
    mj_crb(r->m, r->d);
    mj_fullM(r->m, out, r->d->qM);
    memcpy(r->cM_q, q, bq);
    memcpy(r->cM, out, bm);
    r->have_M = 1;
    HES_ROBOT_UNLOCK(r);
    return 0;
}

/*
 * dM/dq along the velocities of a robot with quaternions, whose
 * velocities are not the coordinates' rates (a body's angular velocity
 * for a quaternion, hes_mech.quat), so that mj_rne's bias is not made of
 * the Christoffel symbols below: the k-th block is d/ds M(q (+) s) along
 * e_k at s = 0 (hes_mech_integrate), by the mechanical layer's
 * fourth-order central differences (hes__mech_fd4, ~1e-12 relative).
 */
typedef struct {
    hes_robot *r;
    const double *q;
} mass_along_ctx;

static int mass_along(void *ctx, const double *s, double *out)
{
    const mass_along_ctx *c = ctx;
    hes_mech_integrate(&c->r->mech, c->q, s, 1.0, c->r->qs);
    return hes__robot_mass(c->r->qs, NULL, out, c->r);
}

static int mass_dq_differences(hes_robot *r, const double *q, double *D)
{
    int nv = r->m->nv;
    mass_along_ctx c = { r, q };
    return hes__mech_fd4(mass_along, &c, r->ev_zero, nv, nv * nv, D);
}

/*
 * dM/dq from MuJoCo's recursive Newton-Euler bias, exactly rather than by
 * differences (the vector field must be smooth for the variational
 * equations): with gravity off, mj_rne at q' = v gives c(v) = Gamma_ijk v_j
 * v_k, the Christoffel symbols of the first kind, so
 *     Gamma_ijj = c_i(e_j),  Gamma_ijk = (c_i(e_j + e_k) - Gamma_ijj - Gamma_ikk) / 2,
 * and dM_ij/dq_k = Gamma_ijk + Gamma_jik (Gamma_ijk = 1/2 (dM_ij/dq_k +
 * dM_ik/dq_j - dM_jk/dq_i)): d (d + 1) / 2 passes of mj_rne.
 */
int hes__robot_mass_dq(const double *q, const double *p, double *D, void *data)
{
    (void)p;
    hes_robot *base = HES_ROBOT_OF(data);
    int nv = base->m->nv;
    size_t bq = sizeof(double) * (size_t)base->m->nq, bd = sizeof(double) * (size_t)nv * nv * nv;
    hes_robot *r = hes__robot_grab(base);
    if (!r->cD) {            /* no dM/dq cache above HES__MECH_DM_MAX coordinates */
        HES_ROBOT_UNLOCK(r);
        return 1;
    }
    if (r->mech.n_quat > 0) {
        int rc = mass_dq_differences(r, q, D);
        HES_ROBOT_UNLOCK(r);
        return rc;
    }
    /* the symbols in the robot's own array (nv^3), then the cache's */
    double *G = r->cD, *c = r->rne, g[3];
#define GAM(i, j, k) G[(i) + (size_t)nv * ((j) + (size_t)nv * (k))]
    if (r->have_dM && memcmp(q, r->cD_q, bq) == 0) {
        memcpy(D, r->cD, bd);
        HES_ROBOT_UNLOCK(r);
        return 0;
    }
    r->have_dM = 0;
    hes__robot_at(r, q);
    mju_copy3(g, r->m->opt.gravity);
    mju_zero3(r->m->opt.gravity);
    for (int j = 0; j < nv; j++)
        for (int k = j; k < nv; k++) {
            mju_zero(r->d->qvel, nv);
            r->d->qvel[j] += 1;
            r->d->qvel[k] += 1;
            mj_comVel(r->m, r->d);
            mj_rne(r->m, r->d, 0, c);
            for (int i = 0; i < nv; i++)
                GAM(i, j, k) = k == j ? c[i] / 4 : c[i];
        }
    for (int j = 0; j < nv; j++)
        for (int k = j + 1; k < nv; k++)
            for (int i = 0; i < nv; i++) {
                GAM(i, j, k) = (GAM(i, j, k) - GAM(i, j, j) - GAM(i, k, k)) / 2;
                GAM(i, k, j) = GAM(i, j, k);
            }
    mju_copy3(r->m->opt.gravity, g);
    mju_zero(r->d->qvel, nv);
    mj_comVel(r->m, r->d);
    for (int k = 0; k < nv; k++)
        for (int j = 0; j < nv; j++)
            for (int i = 0; i < nv; i++)
                D[(size_t)k * nv * nv + i + (size_t)j * nv] = GAM(i, j, k) + GAM(j, i, k);
    memcpy(r->cD_q, q, bq);
    memcpy(r->cD, D, bd);
    r->have_dM = 1;
    HES_ROBOT_UNLOCK(r);
#undef GAM
    return 0;
}

/* B u - g(q) + the passive forces (hes_mech.force); a robot model's slope
 * s turns gravity about the y axis first (hes__robot_gravity), a slope
 * hes_robot_set_slope refuses leaving it as it was. */
int hes__robot_force(const double *q, const double *qd, const double *u, const double *p,
                     double *out, void *data)
{
    hes_robot *r = hes__robot_grab(HES_ROBOT_OF(data));
    int nv = r->m->nv;
    if (r->slope_param >= 0 && p && hes__robot_slope_ok(p[r->slope_param]))
        hes__robot_gravity(r, p[r->slope_param]);
    hes__robot_at_rest(r, q);
    mj_rne(r->m, r->d, 0, out);     /* qvel = 0: gravity only */
    /* the file's joint springs and dampers and the fluid's forces at (q,
       q'): mj_passive, which reads the bodies' velocities too */
    if (qd)
        hes__robot_at_moving(r, q, qd);
    mj_passive(r->m, r->d);
    mju_zero(r->d->qvel, nv);
    for (int i = 0; i < nv; i++) {
        out[i] = r->d->qfrc_passive[i] - out[i];
        for (int a = 0; u && a < r->nu; a++)
            out[i] += r->B[i + (size_t)a * nv] * u[a];
    }
    HES_ROBOT_UNLOCK(r);
    return 0;
}

/* The contact rows at q into J (rows x nv, column-major): each contact's z
 * row (normal), x row, and with two tangents its y row; heights into phi
 * (may be NULL). */
static void contact_rows(hes_robot *r, const double *q, double *J, double *phi)
{
    int nv = r->m->nv, nc = r->n_contacts, rows = nc * (1 + r->tangents);
    hes__robot_at(r, q);
    for (int c = 0; c < nc; c++) {
        int s = r->site[c], b = -s - 1;
        if (s >= 0)
            mj_jacSite(r->m, r->d, r->jac, NULL, s);
        else
            mj_jacBody(r->m, r->d, r->jac, NULL, b);
        if (phi) {
            double x[3];
            hes__robot_point(r, c, x);
            phi[c] = x[2];
        }
        for (int j = 0; j < nv; j++) {
            J[c + (size_t)j * rows] = r->jac[2 * nv + j];
            J[nc + c + (size_t)j * rows] = r->jac[j];
            if (r->tangents == 2)
                J[2 * nc + c + (size_t)j * rows] = r->jac[nv + j];
        }
    }
}

/* hes_robot_dynamics_at once its arguments are checked (robot.c): M, h,
 * the contact rows, heights and drift at (q, v), in the robot's arrays. */
hes_status hes__robot_dynamics(hes_robot *r, const double *q, const double *v,
                               hes_robot_dynamics *out, char *msg, size_t len)
{
    int nv = r->m->nv, nc = r->n_contacts, rows = nc * (1 + r->tangents);
    if (!hes__all_finite(q, r->m->nq) || !hes__all_finite(v, nv))
        return hes__say(msg, len, HES_EINVAL, "robot dynamics: q or v is not finite");
    HES_ROBOT_LOCK(r);
    /* M, then h = qfrc_bias - qfrc_passive with the velocities */
    hes__robot_mass(q, NULL, r->dM, r);
    hes__robot_passive_less_bias(r, q, v, r->dh);
    for (int i = 0; i < nv; i++)
        r->dh[i] = -r->dh[i];
    /* the rows, and their drift J' v: each contact point's acceleration at
       q'' = 0 without gravity (robot_rne.c), or for joints it does not take
       (J(q (+) e v) - J(q (+) -e v)) v / (2 e), a central difference in time
       along v (hes_mech_integrate: a quaternion turns at the constant
       angular velocity of q'' = 0), of step e = cbrt(eps) / |v|_inf
       (hes__fd_step's rule for a unit time scaled so that q moves by at
       most cbrt(eps)) */
    contact_rows(r, q, r->dJ, r->dphi);
    double vmax = 0;
    for (int i = 0; i < nv; i++)
        vmax = fmax(vmax, fabs(v[i]));
    memset(r->dJdv, 0, sizeof(double) * (size_t)rows);
    if (r->rne_ok) {
        for (int c = 0; c < nc; c++) {
            double a[3];
            hes__robot_point_motion(r, c, v, 0, NULL, 0, NULL, NULL, a, NULL, NULL);
            r->dJdv[c] = a[2];
            r->dJdv[nc + c] = a[0];
            if (r->tangents == 2)
                r->dJdv[2 * nc + c] = a[1];
        }
    } else if (vmax > 0) {
        double e = hes__fd_step(0.0) / vmax;
        hes_mech_integrate(&r->mech, q, v, e, r->qs);
        contact_rows(r, r->qs, r->Jp, NULL);
        hes_mech_integrate(&r->mech, q, v, -e, r->qs);
        contact_rows(r, r->qs, r->Jm, NULL);
        for (int k = 0; k < rows; k++)
            for (int j = 0; j < nv; j++)
                r->dJdv[k] += (r->Jp[k + (size_t)j * rows] - r->Jm[k + (size_t)j * rows]) /
                              (2 * e) * v[j];
        hes__robot_at(r, q);
    }
    HES_ROBOT_UNLOCK(r);
    *out = (hes_robot_dynamics){ nv, r->nu, nc, r->tangents, r->dM, r->dh, r->B, r->dJ,
                                 r->dJdv, r->dphi, r->dmu, r->tau_max };
    return HES_OK;
}
