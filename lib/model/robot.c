/*
 * robot.c - mechanical systems (hes_mech) from robot description files,
 * MJCF or URDF, through MuJoCo's C API (issue 14; Debian libmujoco-dev
 * 2.2.2, detected by configure).  MuJoCo parses and compiles the file
 * (mj_loadXML) and computes, at a configuration q set in its qpos:
 *   M(q)            mj_kinematics, mj_comPos, mj_crb, then mj_fullM
 *                   (the joint-space inertia, armature included);
 *   g(q)            mj_rne with qvel = 0 and no acceleration: the bias
 *                   force at rest, gravity (and springs) only;
 *   contacts        a named site's (or, as URDF has no sites, a named
 *                   body's) world position and its translational
 *                   Jacobian (mj_jacSite, mj_jacBody) against the ground plane z = 0:
 *                   two constraints each, the normal a = p_z, Da = J_z
 *                   (unilateral, with friction and the tangent row J_x:
 *                   planar robots move in the x-z plane) and the
 *                   tangential a = p_x, Da = J_x (bilateral: no slip);
 *   inputs          joint motors: force gear * gain * u on the joint's dof.
 * The applied force of hes_mech is B u - g(q); the Coriolis terms the
 * library derives from M as for every hes_mech.  Coordinates are qpos:
 * robots with free or ball joints (quaternions, nq != nv) are refused.
 *
 * A robot keeps one mjData, so one robot serves one thread: load it once
 * per thread for parallel work.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_internal.h"

#ifdef HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

struct hes_robot {
    hes_mech mech;
    hes_mech_constraint *cons;
    char **names;             /* the constraints' names (the sites') */
#ifdef HAVE_MUJOCO
    mjModel *m;
    mjData *d;
    int *site;                /* per contact: its site id */
    double *B;                /* nv x nu input matrix, column-major */
    double *tau_max;          /* nu motor limits (0: none) */
    int nu;                   /* the inputs: the file's motors, or hes_robot_set_motors' */
    /* hes_robot_dynamics_at's arrays (rows = nc (1 + tangents)) */
    double *dM, *dh, *dJ, *dJdv, *dphi, *dmu, *jac, *Jp, *Jm, *qs;
    int tangents;
#endif
    int n_contacts;
};

#ifdef HAVE_MUJOCO
/* positions, velocities and the quantities up to the inertia at q */
static void at(hes_robot *r, const double *q)
{
    memcpy(r->d->qpos, q, sizeof(double) * (size_t)r->m->nq);
    mju_zero(r->d->qvel, r->m->nv);
    mj_kinematics(r->m, r->d);
    mj_comPos(r->m, r->d);
}

static int mass(const double *q, const double *p, double *out, void *data)
{
    (void)p;
    hes_robot *r = data;
    at(r, q);
    mj_crb(r->m, r->d);
    mj_fullM(r->m, out, r->d->qM);
    return 0;
}

/* B u - g(q) */
static int force(const double *q, const double *qd, const double *u, const double *p,
                 double *out, void *data)
{
    (void)qd, (void)p;
    hes_robot *r = data;
    int nv = r->m->nv;
    at(r, q);
    mj_rne(r->m, r->d, 0, out);     /* qvel = 0: gravity (and springs) */
    for (int i = 0; i < nv; i++) {
        out[i] = -out[i];
        for (int a = 0; u && a < r->nu; a++)
            out[i] += r->B[i + (size_t)a * nv] * u[a];
    }
    return 0;
}

/* The contact of constraint c's site: a, Da (z row), Jt (x row). */
static int site_contact(hes_robot *r, int c, const double *q, double *a, double *Da,
                        double *Jt)
{
    int nv = r->m->nv, s = r->site[c], b = -s - 1;   /* s < 0: body b's origin */
    at(r, q);
    if (a)
        *a = s >= 0 ? r->d->site_xpos[3 * s + 2] : r->d->xpos[3 * b + 2];
    if (Da || Jt) {
        double *jac = malloc(sizeof(double) * 3 * (size_t)nv);
        if (!jac)
            return 1;
        if (s >= 0)
            mj_jacSite(r->m, r->d, jac, NULL, s);
        else
            mj_jacBody(r->m, r->d, jac, NULL, b);
        for (int j = 0; j < nv; j++) {
            if (Da)
                Da[j] = jac[2 * nv + j];
            if (Jt)
                Jt[j] = jac[j];
        }
        free(jac);
    }
    return 0;
}

/* The x position of contact c's point (its tangential coordinate) */
static int site_x(hes_robot *r, int c, const double *q, double *x)
{
    int s = r->site[c], b = -s - 1;
    at(r, q);
    *x = s >= 0 ? r->d->site_xpos[3 * s] : r->d->xpos[3 * b];
    return 0;
}

/* The constraint callbacks get the robot, not the constraint: the
 * constraint's index is found from its function pointer's slot, so each
 * contact needs its own functions; contacts beyond HES_ROBOT_MAX_CONTACTS
 * are refused.  (The function tables below are generated.) */
#define HES_ROBOT_MAX_CONTACTS 8
#define SITE_FNS(c)                                                                  \
    static int a_##c(const double *q, const double *p, double *out, void *data)     \
    {                                                                                \
        (void)p;                                                                     \
        return site_contact(data, c, q, out, NULL, NULL);                            \
    }                                                                                \
    static int Da_##c(const double *q, const double *p, double *out, void *data)    \
    {                                                                                \
        (void)p;                                                                     \
        return site_contact(data, c, q, NULL, out, NULL);                            \
    }                                                                                \
    static int Jt_##c(const double *q, const double *p, double *out, void *data)    \
    {                                                                                \
        (void)p;                                                                     \
        return site_contact(data, c, q, NULL, NULL, out);                            \
    }                                                                                \
    static int x_##c(const double *q, const double *p, double *out, void *data)     \
    {                                                                                \
        (void)p;                                                                     \
        return site_x(data, c, q, out);                                              \
    }
SITE_FNS(0)
SITE_FNS(1)
SITE_FNS(2)
SITE_FNS(3)
SITE_FNS(4)
SITE_FNS(5)
SITE_FNS(6)
SITE_FNS(7)
static const hes_mech_config_fn a_fns[] = { a_0, a_1, a_2, a_3, a_4, a_5, a_6, a_7 };
static const hes_mech_config_fn Da_fns[] = { Da_0, Da_1, Da_2, Da_3, Da_4, Da_5, Da_6, Da_7 };
static const hes_mech_config_fn Jt_fns[] = { Jt_0, Jt_1, Jt_2, Jt_3, Jt_4, Jt_5, Jt_6, Jt_7 };
static const hes_mech_config_fn x_fns[] = { x_0, x_1, x_2, x_3, x_4, x_5, x_6, x_7 };

/*
 * The chart of a mode that pins contact c at the origin, for a robot whose
 * first two coordinates slide its root body along x and z (checked by
 * hes_robot_pinned_mode): z = q[2..], and the slides put the site at the
 * origin, q[0..1] = -g(z) with g the site's (x, z) at q = (0, 0, z):
 *     Dchart = [-J_g(z); I],   D^2 chart [z', z'] = [-(dJ/dt) q'; 0]
 * (J_g the site Jacobian's x and z rows; the slides' columns are constant,
 * so the drift of the full rows along q' = Dchart z' is that of J_g).
 */
static void pinned_q(const hes_robot *r, const double *z, double *q)
{
    int nv = r->m->nv;
    q[0] = q[1] = 0;
    memcpy(q + 2, z, sizeof(double) * (size_t)(nv - 2));
}

static int pinned_chart(hes_robot *r, int c, const double *z, double *q)
{
    double x, a;
    pinned_q(r, z, q);
    site_x(r, c, q, &x);
    site_contact(r, c, q, &a, NULL, NULL);
    q[0] = -x;
    q[1] = -a;
    return 0;
}

static int pinned_chart_dz(hes_robot *r, int c, const double *z, double *D)
{
    int nv = r->m->nv, k = nv - 2;
    double *q = r->qs, *jz = r->Jp, *jx = r->Jm;
    pinned_q(r, z, q);
    site_contact(r, c, q, NULL, jz, jx);
    memset(D, 0, sizeof(double) * (size_t)nv * (size_t)k);
    for (int j = 0; j < k; j++) {
        D[0 + (size_t)j * nv] = -jx[2 + j];
        D[1 + (size_t)j * nv] = -jz[2 + j];
        D[2 + j + (size_t)j * nv] = 1;
    }
    return 0;
}

/* The site's acceleration at q'' = 0 is (dJ/dt) q': MuJoCo's
 * mj_rnePostConstraint (body accelerations for qacc, here 0, with gravity
 * off) and mj_objectAcceleration (the site's classical acceleration: the
 * velocity product terms included), exact rather than differenced: a
 * chart's acceleration must be smooth to the integrator's tolerance. */
static int pinned_chart_acc(hes_robot *r, int c, const double *z, const double *zd, double *a)
{
    int nv = r->m->nv, k = nv - 2, s = r->site[c], b = -s - 1;
    double *D = malloc(sizeof(double) * (size_t)nv * (size_t)k);
    if (!D)
        return 1;
    pinned_chart(r, c, z, r->qs);
    double q[64];
    memcpy(q, r->qs, sizeof(double) * (size_t)nv);
    pinned_chart_dz(r, c, z, D);
    at(r, q);
    for (int i = 0; i < nv; i++) {
        double v = 0;
        for (int j = 0; j < k; j++)
            v += D[i + (size_t)j * nv] * zd[j];
        r->d->qvel[i] = v;
    }
    free(D);
    mj_comVel(r->m, r->d);
    mju_zero(r->d->qacc, nv);
    double g[3];
    mju_copy3(g, r->m->opt.gravity);
    mju_zero3(r->m->opt.gravity);
    mj_rnePostConstraint(r->m, r->d);
    mju_copy3(r->m->opt.gravity, g);
    double acc[6];
    /* a body contact is its frame's origin (xpos, mj_jacBody): mjOBJ_XBODY */
    mj_objectAcceleration(r->m, r->d, s >= 0 ? mjOBJ_SITE : mjOBJ_XBODY, s >= 0 ? s : b, acc,
                          0);
    memset(a, 0, sizeof(double) * (size_t)nv);
    a[0] = -acc[3];
    a[1] = -acc[5];
    return 0;
}

#define PIN_FNS(c)                                                                    \
    static int pc_##c(const double *z, const double *p, double *out, void *data)     \
    {                                                                                 \
        (void)p;                                                                      \
        return pinned_chart(data, c, z, out);                                         \
    }                                                                                 \
    static int pcd_##c(const double *z, const double *p, double *out, void *data)    \
    {                                                                                 \
        (void)p;                                                                      \
        return pinned_chart_dz(data, c, z, out);                                      \
    }                                                                                 \
    static int pca_##c(const double *z, const double *zd, const double *p, double *out, \
                       void *data)                                                    \
    {                                                                                 \
        (void)p;                                                                      \
        return pinned_chart_acc(data, c, z, zd, out);                                 \
    }
PIN_FNS(0)
PIN_FNS(1)
PIN_FNS(2)
PIN_FNS(3)
PIN_FNS(4)
PIN_FNS(5)
PIN_FNS(6)
PIN_FNS(7)
static const hes_mech_config_fn pc_fns[] = { pc_0, pc_1, pc_2, pc_3, pc_4, pc_5, pc_6, pc_7 };
static const hes_mech_config_fn pcd_fns[] = { pcd_0, pcd_1, pcd_2, pcd_3, pcd_4, pcd_5, pcd_6,
                                              pcd_7 };
static int (*const pca_fns[])(const double *, const double *, const double *, double *,
                              void *) = { pca_0, pca_1, pca_2, pca_3, pca_4, pca_5, pca_6, pca_7 };
/* the held constraints of a pinned contact c: its normal and its no-slip */
static const int pin_active[8][2] = { { 0, 1 }, { 2, 3 }, { 4, 5 }, { 6, 7 },
                                      { 8, 9 }, { 10, 11 }, { 12, 13 }, { 14, 15 } };
#endif

#ifdef HAVE_MUJOCO
/* The contact rows at q into J (rows x nv, column-major): each contact's z
 * row (normal), x row, and with two tangents its y row; heights into phi
 * (may be NULL). */
static void contact_rows(hes_robot *r, const double *q, double *J, double *phi)
{
    int nv = r->m->nv, nc = r->n_contacts, rows = nc * (1 + r->tangents);
    at(r, q);
    for (int c = 0; c < nc; c++) {
        int s = r->site[c], b = -s - 1;
        if (s >= 0)
            mj_jacSite(r->m, r->d, r->jac, NULL, s);
        else
            mj_jacBody(r->m, r->d, r->jac, NULL, b);
        if (phi)
            phi[c] = s >= 0 ? r->d->site_xpos[3 * s + 2] : r->d->xpos[3 * b + 2];
        for (int j = 0; j < nv; j++) {
            J[c + (size_t)j * rows] = r->jac[2 * nv + j];
            J[nc + c + (size_t)j * rows] = r->jac[j];
            if (r->tangents == 2)
                J[2 * nc + c + (size_t)j * rows] = r->jac[nv + j];
        }
    }
}
#endif

hes_status hes_robot_dynamics_at(hes_robot *r, const double *q, const double *v,
                                 hes_robot_dynamics *out, char *msg, size_t len)
{
    if (!r || !q || !v || !out)
        return hes__say(msg, len, HES_EINVAL, "robot dynamics: needs a robot, q, v and out");
#ifndef HAVE_MUJOCO
    return hes__say(msg, len, HES_ESOLVER, "robot files need MuJoCo");
#else
    int nv = r->m->nv, nc = r->n_contacts, rows = nc * (1 + r->tangents);
    if (!hes__all_finite(q, nv) || !hes__all_finite(v, nv))
        return hes__say(msg, len, HES_EINVAL, "robot dynamics: q or v is not finite");
    /* M, then h = qfrc_bias - qfrc_passive with the velocities */
    mass(q, NULL, r->dM, r);
    memcpy(r->d->qvel, v, sizeof(double) * (size_t)nv);
    mj_comVel(r->m, r->d);
    mj_passive(r->m, r->d);
    mj_rne(r->m, r->d, 0, r->dh);
    for (int i = 0; i < nv; i++)
        r->dh[i] -= r->d->qfrc_passive[i];
    /* the rows, and their drift J' v = (J(q + e v) - J(q - e v)) v / (2 e):
       a central difference in time along v, of step e = cbrt(eps) / |v|_inf
       (hes__fd_step's rule for a unit time scaled so that q moves by at most
       cbrt(eps)) */
    contact_rows(r, q, r->dJ, r->dphi);
    double vmax = 0;
    for (int i = 0; i < nv; i++)
        vmax = fmax(vmax, fabs(v[i]));
    memset(r->dJdv, 0, sizeof(double) * (size_t)rows);
    if (vmax > 0) {
        double e = hes__fd_step(0.0) / vmax;
        for (int i = 0; i < nv; i++)
            r->qs[i] = q[i] + e * v[i];
        contact_rows(r, r->qs, r->Jp, NULL);
        for (int i = 0; i < nv; i++)
            r->qs[i] = q[i] - e * v[i];
        contact_rows(r, r->qs, r->Jm, NULL);
        for (int k = 0; k < rows; k++)
            for (int j = 0; j < nv; j++)
                r->dJdv[k] += (r->Jp[k + (size_t)j * rows] - r->Jm[k + (size_t)j * rows]) /
                              (2 * e) * v[j];
        at(r, q);
    }
    *out = (hes_robot_dynamics){ nv, r->nu, nc, r->tangents, r->dM, r->dh, r->B, r->dJ,
                                 r->dJdv, r->dphi, r->dmu, r->tau_max };
    return HES_OK;
#endif
}

hes_status hes_robot_set_motors(hes_robot *r, const char *const *joints, int n, char *msg,
                                size_t len)
{
    if (!r || n < 1 || !joints)
        return hes__say(msg, len, HES_EINVAL, "motors: needs a robot and at least one joint");
#ifndef HAVE_MUJOCO
    return hes__say(msg, len, HES_ESOLVER, "robot files need MuJoCo");
#else
    int nv = r->m->nv;
    if (n > nv)
        return hes__say(msg, len, HES_EINVAL, "motors: %d joints for %d coordinates", n, nv);
    double *B = calloc((size_t)nv * (size_t)n, sizeof(double));
    double *lim = calloc((size_t)n, sizeof(double));
    if (!B || !lim) {
        free(B), free(lim);
        return hes__say(msg, len, HES_ENOMEM, "out of memory");
    }
    for (int a = 0; a < n; a++) {
        int j = joints[a] ? mj_name2id(r->m, mjOBJ_JOINT, joints[a]) : -1;
        int dof = j >= 0 ? r->m->jnt_dofadr[j] : -1;
        for (int b = 0; dof >= 0 && b < a; b++)
            if (B[dof + (size_t)b * nv] != 0)
                dof = -2;
        if (dof < 0) {
            free(B), free(lim);
            return hes__say(msg, len, HES_EINVAL, "motors: '%s' is %s", joints[a] ? joints[a] : "",
                            dof == -2 ? "given twice" : "not a joint of the robot");
        }
        B[dof + (size_t)a * nv] = 1;
    }
    free(r->B), free(r->tau_max);
    r->B = B, r->tau_max = lim, r->nu = n;
    r->mech.m = n;
    return HES_OK;
#endif
}

hes_status hes_robot_pinned_mode(const hes_robot *r, int contact, hes_mech_mode *out, char *msg,
                                 size_t len)
{
    if (!r || !out || contact < 0 || contact >= r->n_contacts)
        return hes__say(msg, len, HES_EINVAL, "pinned mode: needs a robot and one of its "
                        "contacts (0 to %d)", r ? r->n_contacts - 1 : -1);
#ifndef HAVE_MUJOCO
    return hes__say(msg, len, HES_ESOLVER, "robot files need MuJoCo");
#else
    const mjModel *m = r->m;
    int ok = m->njnt >= 3 && m->nv <= 64 && r->tangents == 1;
    for (int j = 0; ok && j < 2; j++) {
        const double *ax = m->jnt_axis + 3 * j;
        ok = m->jnt_type[j] == mjJNT_SLIDE && m->jnt_dofadr[j] == j &&
             m->body_parentid[m->jnt_bodyid[j]] == 0 && m->jnt_bodyid[j] == m->jnt_bodyid[0] &&
             fabs(ax[1]) == 0 && fabs(ax[j ? 0 : 2]) == 0 && ax[j ? 2 : 0] == 1;
    }
    if (!ok)
        return hes__say(msg, len, HES_EINVAL, "pinned mode: the robot must be planar and its "
                        "first two joints slides of its root body along x and z (at most 64 "
                        "coordinates)");
    *out = (hes_mech_mode){ &r->mech, 2, pin_active[contact], m->nv - 2, pc_fns[contact],
                            pcd_fns[contact], pca_fns[contact], NULL };
    return HES_OK;
#endif
}

int hes_robot_contact_count(const hes_robot *r)
{
    return r ? r->n_contacts : 0;
}

const char *hes_robot_contact_name(const hes_robot *r, int i)
{
    return r && i >= 0 && i < r->n_contacts ? r->names[2 * i] : NULL;
}

const void *hes_robot_mujoco_model(const hes_robot *r)
{
#ifdef HAVE_MUJOCO
    return r ? r->m : NULL;
#else
    (void)r;
    return NULL;
#endif
}

void hes_robot_free(hes_robot *r)
{
    if (!r)
        return;
#ifdef HAVE_MUJOCO
    if (r->d)
        mj_deleteData(r->d);
    if (r->m)
        mj_deleteModel(r->m);
    free(r->site);
    free(r->B);
    free(r->tau_max);
    free(r->dM), free(r->dh), free(r->dJ), free(r->dJdv), free(r->dphi), free(r->dmu);
    free(r->jac), free(r->Jp), free(r->Jm), free(r->qs);
#endif
    for (int c = 0; r->names && c < 2 * r->n_contacts; c++)
        free(r->names[c]);
    free(r->names);
    free(r->cons);
    free(r);
}

hes_status hes_robot_load(const char *path, const hes_robot_contact *contacts, int n_contacts,
                          hes_robot **out, char *msg, size_t len)
{
    if (out)
        *out = NULL;
    if (!path || !out || n_contacts < 0 || (n_contacts > 0 && !contacts))
        return hes__say(msg, len, HES_EINVAL, "robot: needs a file, and contacts when "
                        "n_contacts > 0");
#ifndef HAVE_MUJOCO
    return hes__say(msg, len, HES_ESOLVER, "robot files need MuJoCo: hes was built without it "
                    "(install the Debian package libmujoco-dev and run configure again)");
#else
    char err[512] = "";
    mjModel *m = mj_loadXML(path, NULL, err, (int)sizeof err);
    if (!m)
        return hes__say(msg, len, HES_EINVAL, "robot: MuJoCo cannot load %s: %s", path,
                        err[0] ? err : "no reason given");
    if (m->nq != m->nv) {
        int nq = m->nq, nv = m->nv;
        mj_deleteModel(m);
        return hes__say(msg, len, HES_EINVAL, "robot %s: %d coordinates for %d degrees of "
                        "freedom: free and ball joints (quaternions) are not supported; use "
                        "slide and hinge joints", path, nq, nv);
    }
    int nc = n_contacts ? n_contacts : m->nsite;
    if (nc > HES_ROBOT_MAX_CONTACTS) {
        mj_deleteModel(m);
        return hes__say(msg, len, HES_EINVAL, "robot %s: %d contacts (at most %d)", path, nc,
                        HES_ROBOT_MAX_CONTACTS);
    }
    for (int a = 0; a < m->nu; a++)
        if (m->actuator_trntype[a] != mjTRN_JOINT) {
            mj_deleteModel(m);
            return hes__say(msg, len, HES_EINVAL, "robot %s: actuator %d does not act on a "
                            "joint (only joint motors are supported)", path, a);
        }
    hes_robot *r = calloc(1, sizeof *r);
    if (!r) {
        mj_deleteModel(m);
        return hes__say(msg, len, HES_ENOMEM, "out of memory for a robot");
    }
    r->m = m;
    r->d = mj_makeData(m);
    r->n_contacts = nc;
    r->cons = calloc((size_t)(nc > 0 ? 2 * nc : 1), sizeof *r->cons);
    r->names = calloc((size_t)(nc > 0 ? 2 * nc : 1), sizeof *r->names);
    r->site = calloc((size_t)(nc > 0 ? nc : 1), sizeof *r->site);
    r->B = calloc((size_t)m->nv * (size_t)(m->nu > 0 ? m->nu : 1), sizeof *r->B);
    if (!r->d || !r->cons || !r->names || !r->site || !r->B) {
        hes_robot_free(r);
        return hes__say(msg, len, HES_ENOMEM, "out of memory for a robot");
    }
    for (int c = 0; c < nc; c++) {
        const char *name = n_contacts ? contacts[c].site : mj_id2name(m, mjOBJ_SITE, c);
        /* a site, or else a body (URDF has no sites: a foot is a link) */
        int s = n_contacts ? (name ? mj_name2id(m, mjOBJ_SITE, name) : -1) : c, b = -1;
        if (s < 0 && name && (b = mj_name2id(m, mjOBJ_BODY, name)) > 0)
            s = -b - 1;
        double mu = n_contacts ? contacts[c].mu : 1.0;
        if ((s < 0 && b <= 0) || !(mu >= 0) || !isfinite(mu)) {
            hes_status st = hes__say(msg, len, HES_EINVAL, "robot %s: contact %d (%s): %s", path,
                                     c, name ? name : "unnamed",
                                     s < 0 && b <= 0 ? "no site or body of that name in the file"
                                           : "its friction coefficient must be finite and >= 0");
            hes_robot_free(r);
            return st;
        }
        char buf[32];
        if (!name) {
            snprintf(buf, sizeof buf, "site%d", s);
            name = buf;
        }
        r->site[c] = s;
        size_t nl = strlen(name);
        r->names[2 * c] = strdup(name);
        r->names[2 * c + 1] = malloc(nl + 12);
        if (!r->names[2 * c] || !r->names[2 * c + 1]) {
            hes_robot_free(r);
            return hes__say(msg, len, HES_ENOMEM, "out of memory for a robot");
        }
        snprintf(r->names[2 * c + 1], nl + 12, "%s_tangential", name);
        /* the normal (unilateral, with friction) and the no-slip tangential
           (bilateral: a pinned foot, the plastic impact of a landing foot) */
        r->cons[2 * c] = (hes_mech_constraint){ r->names[2 * c], a_fns[c], Da_fns[c], 0, 1, mu,
                                                Jt_fns[c] };
        r->cons[2 * c + 1] = (hes_mech_constraint){ r->names[2 * c + 1], x_fns[c], Jt_fns[c],
                                                    0, 0, 0, NULL };
    }
    int nv = m->nv, rows = 3 * (nc > 0 ? nc : 1);
    r->tau_max = calloc((size_t)(m->nu > 0 ? m->nu : 1), sizeof(double));
    r->dM = malloc(sizeof(double) * (size_t)(nv * nv));
    r->dh = malloc(sizeof(double) * (size_t)nv);
    r->qs = malloc(sizeof(double) * (size_t)nv);
    r->jac = malloc(sizeof(double) * (size_t)(3 * nv));
    r->dJ = malloc(sizeof(double) * (size_t)(rows * nv));
    r->Jp = malloc(sizeof(double) * (size_t)(rows * nv));
    r->Jm = malloc(sizeof(double) * (size_t)(rows * nv));
    r->dJdv = malloc(sizeof(double) * (size_t)rows);
    r->dphi = malloc(sizeof(double) * (size_t)(nc > 0 ? nc : 1));
    r->dmu = malloc(sizeof(double) * (size_t)(nc > 0 ? nc : 1));
    if (!r->tau_max || !r->dM || !r->dh || !r->qs || !r->jac || !r->dJ || !r->Jp || !r->Jm ||
        !r->dJdv || !r->dphi || !r->dmu) {
        hes_robot_free(r);
        return hes__say(msg, len, HES_ENOMEM, "out of memory for a robot");
    }
    for (int a = 0; a < m->nu; a++) {
        int dof = m->jnt_dofadr[m->actuator_trnid[2 * a]];
        double gain = m->actuator_gainprm[a * mjNGAIN], lim = 0;
        r->B[dof + (size_t)a * m->nv] = m->actuator_gear[6 * a] * gain;
        /* the limit of the control u (B u is the joint force) */
        if (m->actuator_ctrllimited[a])
            lim = fmax(fabs(m->actuator_ctrlrange[2 * a]), fabs(m->actuator_ctrlrange[2 * a + 1]));
        if (m->actuator_forcelimited[a] && gain != 0) {
            double fl = fmax(fabs(m->actuator_forcerange[2 * a]),
                             fabs(m->actuator_forcerange[2 * a + 1])) / fabs(gain);
            lim = lim > 0 ? fmin(lim, fl) : fl;
        }
        r->tau_max[a] = lim;
    }
    /* planar (one tangent) when every contact's y row vanishes at qpos0 */
    r->tangents = 1;
    for (int c = 0; c < nc; c++) {
        r->dmu[c] = r->cons[2 * c].mu;
        at(r, m->qpos0);
        int s = r->site[c];
        if (s >= 0)
            mj_jacSite(m, r->d, r->jac, NULL, s);
        else
            mj_jacBody(m, r->d, r->jac, NULL, -s - 1);
        for (int j = 0; j < nv; j++)
            if (fabs(r->jac[nv + j]) > 1e-12)
                r->tangents = 2;
    }
    r->nu = m->nu;
    r->mech = (hes_mech){ "robot", m->nv, mass, NULL, force, m->nu, 2 * nc, r->cons, r };
    *out = r;
    return HES_OK;
#endif
}

const hes_mech *hes_robot_mech(const hes_robot *r)
{
    return r ? &r->mech : NULL;
}

const char *hes_robot_coordinate(const hes_robot *r, int i)
{
#ifdef HAVE_MUJOCO
    if (!r || i < 0 || i >= r->m->nv)
        return NULL;
    for (int j = 0; j < r->m->njnt; j++)
        if (r->m->jnt_dofadr[j] == i)
            return mj_id2name(r->m, mjOBJ_JOINT, j);
#else
    (void)r, (void)i;
#endif
    return NULL;
}

hes_status hes_robot_reference(const hes_robot *r, double *q)
{
#ifdef HAVE_MUJOCO
    if (!r || !q)
        return HES_EINVAL;
    memcpy(q, r->m->qpos0, sizeof(double) * (size_t)r->m->nq);
    return HES_OK;
#else
    (void)r, (void)q;
    return HES_ESOLVER;
#endif
}
