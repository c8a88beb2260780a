/*
 * robot.c - mechanical systems (hes_mech) from robot description files,
 * MJCF or URDF, through MuJoCo's C API (Debian libmujoco-dev
 * 2.2.2, detected by configure).  MuJoCo parses and compiles the file
 * (mj_loadXML) and computes, at a configuration q set in its qpos:
 *   M(q)            mj_kinematics, mj_comPos, mj_crb, then mj_fullM
 *                   (the joint-space inertia, armature included);
 *   dM/dq           mj_rne's bias at unit velocities, gravity off: the
 *                   Christoffel symbols (mass_dq below);
 *   g(q)            mj_rne with qvel = 0 and no acceleration: the bias
 *                   force at rest, gravity only;
 *   passive forces  mj_passive at (q, q'): the file's joint springs
 *                   (stiffness, springref) and dampers (damping);
 *   contacts        a named site's (or, as URDF has no sites, a named
 *                   body's) world position and its translational
 *                   Jacobian (mj_jacSite, mj_jacBody) against the ground plane z = 0:
 *                   two constraints each, the normal a = p_z, Da = J_z
 *                   (unilateral, with friction and the tangent row J_x:
 *                   planar robots move in the x-z plane) and the
 *                   tangential a = p_x, Da = J_x (bilateral: no slip);
 *   inputs          joint motors: force gear * gain * u on the joint's dof.
 * The applied force of hes_mech is B u - g(q) + the passive forces; the
 * Coriolis terms the library derives from M as for every hes_mech.  Coordinates are qpos:
 * robots with free or ball joints (quaternions, nq != nv) are refused.
 *
 * A robot keeps one mjData, so one robot serves one thread: load it once
 * per thread for parallel work.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <pthread.h>

#include "model/model_internal.h"
#include "model/robot_internal.h"

#ifdef HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

struct hes_robot {
    hes_robot *self;          /* first, as in a view: every callback's data starts with
                                 the robot (ROBOT(data)) */
    hes_mech mech;
    hes_mech_constraint *cons;
    char **names;             /* the constraints' names (the sites', the limits') */
    int n_names;
    /* joint limits (robots of at most HES_MECH_MAX coordinates): constraint
       2 nc + l is a = sign (q[dof] - val) >= 0 */
    int n_limits, lim_dof[HES_ROBOT_MAX_LIMITS];
    double lim_val[HES_ROBOT_MAX_LIMITS], lim_sign[HES_ROBOT_MAX_LIMITS];
    /* parameters of a robot model (hes__robot_bind_params; -1: none) */
    int slope_param, *motor_param;
    double g0;                /* |gravity| of the file */
    hes__robot_view *pins;    /* hes_robot_pinned_mode's views, one per contact */
    char *path;               /* the file, for hes_robot_copy */
    hes_robot **pool;         /* robot models on threads: [0] this robot, then copies */
    int n_pool;
    pthread_mutex_t lock;     /* recursive: models share a robot between threads */
    /* the last q of mass and mass_dq and their results: a vector field's
       Jacobian by differences perturbs the velocities at the same q */
    int have_M, have_dM;
    double *cM_q, *cM;        /* nv, nv x nv */
    double *cD_q, *cD;        /* nv, nv^3: robots that give dM/dq (mass_dq) */
    double *vq, *vD;          /* a chart's acceleration: q (nv), Dchart (nv x nv) */
    double *rne;              /* nv: mass_dq's bias forces */
#ifdef HAVE_MUJOCO
    mjModel *m;
    mjData *d;
    int *site;                /* per contact: its site id */
    double *B;                /* nv x nu input matrix, column-major */
    double *tau_max;          /* nu motor limits (0: none) */
    /* hes_robot_dynamics_at's arrays (rows = nc (1 + tangents)) */
    double *dM, *dh, *dJ, *dJdv, *dphi, *dmu, *jac, *Jp, *Jm, *qs;
    int tangents;
#endif
    int nu;                   /* the inputs: the file's motors, or hes_robot_set_motors' */
    int motors_set;           /* nonzero: hes_robot_set_motors replaced the file's motors */
    int n_contacts;
};

#define HES_ROBOT_MAX_CONTACTS 8

/* The robot of a callback's data: the robot itself or a view of it. */
#define ROBOT(data) (*(hes_robot *const *)(data))
#define LOCK(r) pthread_mutex_lock(&(r)->lock)
#define UNLOCK(r) pthread_mutex_unlock(&(r)->lock)

/* The instance of a robot a callback computes with, locked (UNLOCK it):
 * the robot itself, or with a pool (hes__robot_pool: systems of one robot
 * model on several threads) the first instance no other thread holds, so
 * that threads compute side by side; every call sets the state it reads,
 * so any instance gives the same numbers. */
#ifdef HAVE_MUJOCO
static hes_robot *grab(hes_robot *base)
{
    for (int i = 0; i < base->n_pool; i++)
        if (pthread_mutex_trylock(&base->pool[i]->lock) == 0)
            return base->pool[i];
    LOCK(base);
    return base;
}
#endif

#ifdef HAVE_MUJOCO
/* positions, zero velocities and the quantities up to the inertia at q */
static void at(hes_robot *r, const double *q)
{
    memcpy(r->d->qpos, q, sizeof(double) * (size_t)r->m->nq);
    mju_zero(r->d->qvel, r->m->nv);
    mj_kinematics(r->m, r->d);
    mj_comPos(r->m, r->d);
    /* zero velocities: mj_rne's bias uses cvel and cdof_dot, which a
       previous call (a chart's acceleration) may have left at q' != 0 */
    mj_comVel(r->m, r->d);
}

static int mass(const double *q, const double *p, double *out, void *data)
{
    (void)p;
    hes_robot *r = grab(ROBOT(data));
    int nv = r->m->nv;
    size_t bq = sizeof(double) * (size_t)nv, bm = bq * (size_t)nv;
    if (r->have_M && memcmp(q, r->cM_q, bq) == 0) {
        memcpy(out, r->cM, bm);
        UNLOCK(r);
        return 0;
    }
    at(r, q);
    mj_crb(r->m, r->d);
    mj_fullM(r->m, out, r->d->qM);
    memcpy(r->cM_q, q, bq);
    memcpy(r->cM, out, bm);
    r->have_M = 1;
    UNLOCK(r);
    return 0;
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
static int mass_dq(const double *q, const double *p, double *D, void *data)
{
    (void)p;
    hes_robot *base = ROBOT(data);
    int nv = base->m->nv;
    size_t bq = sizeof(double) * (size_t)nv, bd = bq * (size_t)nv * (size_t)nv;
    hes_robot *r = grab(base);
    if (!r->cD) {            /* robots too large for the mechanical layer */
        UNLOCK(r);
        return 1;
    }
    /* the symbols in the robot's own array (nv^3), then the cache's */
    double *G = r->cD, *c = r->rne, g[3];
#define GAM(i, j, k) G[(i) + (size_t)nv * ((j) + (size_t)nv * (k))]
    if (r->have_dM && memcmp(q, r->cD_q, bq) == 0) {
        memcpy(D, r->cD, bd);
        UNLOCK(r);
        return 0;
    }
    r->have_dM = 0;
    at(r, q);
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
    UNLOCK(r);
#undef GAM
    return 0;
}

/* B u - g(q); a robot model's slope s turns gravity about the y axis:
 * g = |g| (sin s, 0, -cos s), level ground z = 0 then being the slope
 * (downhill towards +x). */
static int force(const double *q, const double *qd, const double *u, const double *p,
                 double *out, void *data)
{
    hes_robot *r = grab(ROBOT(data));
    int nv = r->m->nv;
    if (r->slope_param >= 0 && p)
        hes_robot_set_slope(r, p[r->slope_param]);
    at(r, q);
    mj_rne(r->m, r->d, 0, out);     /* qvel = 0: gravity only */
    /* the file's joint springs and dampers at (q, q'): mj_passive */
    if (qd)
        memcpy(r->d->qvel, qd, sizeof(double) * (size_t)nv);
    mj_passive(r->m, r->d);
    mju_zero(r->d->qvel, nv);
    for (int i = 0; i < nv; i++) {
        out[i] = r->d->qfrc_passive[i] - out[i];
        for (int a = 0; u && a < r->nu; a++)
            out[i] += r->B[i + (size_t)a * nv] * u[a];
    }
    UNLOCK(r);
    return 0;
}

/* The contact of constraint c's site: a, Da (z row), Jt (x row). */
static int site_contact(hes_robot *r, int c, const double *q, double *a, double *Da,
                        double *Jt)
{
    int nv = r->m->nv, s = r->site[c], b = -s - 1;   /* s < 0: body b's origin */
    LOCK(r);
    at(r, q);
    if (a)
        *a = s >= 0 ? r->d->site_xpos[3 * s + 2] : r->d->xpos[3 * b + 2];
    if (Da || Jt) {
        if (s >= 0)
            mj_jacSite(r->m, r->d, r->jac, NULL, s);
        else
            mj_jacBody(r->m, r->d, r->jac, NULL, b);
        for (int j = 0; j < nv; j++) {
            if (Da)
                Da[j] = r->jac[2 * nv + j];
            if (Jt)
                Jt[j] = r->jac[j];
        }
    }
    UNLOCK(r);
    return 0;
}

/* The x position of contact c's point (its tangential coordinate) */
static int site_x(hes_robot *r, int c, const double *q, double *x)
{
    int s = r->site[c], b = -s - 1;
    LOCK(r);
    at(r, q);
    *x = s >= 0 ? r->d->site_xpos[3 * s] : r->d->xpos[3 * b];
    UNLOCK(r);
    return 0;
}

/* The constraint callbacks get the robot, not the constraint: the
 * constraint's index is found from its function pointer's slot, so each
 * contact needs its own functions; contacts beyond HES_ROBOT_MAX_CONTACTS
 * are refused.  (The function tables below are generated.) */
#define SITE_FNS(c)                                                                  \
    static int a_##c(const double *q, const double *p, double *out, void *data)      \
    {                                                                                \
        (void)p;                                                                     \
        hes_robot *r_ = grab(ROBOT(data));                                           \
        int rc_ = site_contact(r_, c, q, out, NULL, NULL);                           \
        UNLOCK(r_);                                                                  \
        return rc_;                                                                  \
    }                                                                                \
    static int Da_##c(const double *q, const double *p, double *out, void *data)     \
    {                                                                                \
        (void)p;                                                                     \
        hes_robot *r_ = grab(ROBOT(data));                                           \
        int rc_ = site_contact(r_, c, q, NULL, out, NULL);                           \
        UNLOCK(r_);                                                                  \
        return rc_;                                                                  \
    }                                                                                \
    static int Jt_##c(const double *q, const double *p, double *out, void *data)     \
    {                                                                                \
        (void)p;                                                                     \
        hes_robot *r_ = grab(ROBOT(data));                                           \
        int rc_ = site_contact(r_, c, q, NULL, NULL, out);                           \
        UNLOCK(r_);                                                                  \
        return rc_;                                                                  \
    }                                                                                \
    static int x_##c(const double *q, const double *p, double *out, void *data)      \
    {                                                                                \
        (void)p;                                                                     \
        hes_robot *r_ = grab(ROBOT(data));                                           \
        int rc_ = site_x(r_, c, q, out);                                             \
        UNLOCK(r_);                                                                  \
        return rc_;                                                                  \
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
 * Joint limits: for a joint of range [lo, hi] (limited="true"), the
 * constraints "NAME_lower" a = q - lo >= 0 and "NAME_upper" a = hi - q >= 0,
 * Da = +-e_dof (unilateral, plastic, frictionless): a knee stop, or, held
 * by a mode (hes__robot_mode_view), a joint locked at its limit.
 */
static int limit_a(hes_robot *r, int l, const double *q, double *out)
{
    out[0] = r->lim_sign[l] * (q[r->lim_dof[l]] - r->lim_val[l]);
    return 0;
}

static int limit_Da(hes_robot *r, int l, double *out)
{
    memset(out, 0, sizeof(double) * (size_t)r->m->nv);
    out[r->lim_dof[l]] = r->lim_sign[l];
    return 0;
}

#define LIM_FNS(l)                                                                    \
    static int la_##l(const double *q, const double *p, double *out, void *data)     \
    {                                                                                 \
        (void)p;                                                                      \
        return limit_a(ROBOT(data), l, q, out);                                       \
    }                                                                                 \
    static int lDa_##l(const double *q, const double *p, double *out, void *data)    \
    {                                                                                 \
        (void)p, (void)q;                                                             \
        return limit_Da(ROBOT(data), l, out);                                         \
    }
#define X32(F) F(0) F(1) F(2) F(3) F(4) F(5) F(6) F(7) F(8) F(9) F(10) F(11) F(12) F(13) \
    F(14) F(15) F(16) F(17) F(18) F(19) F(20) F(21) F(22) F(23) F(24) F(25) F(26) F(27)  \
    F(28) F(29) F(30) F(31)
X32(LIM_FNS)
#define LA_ENTRY(l) la_##l,
#define LDA_ENTRY(l) lDa_##l,
static const hes_mech_config_fn la_fns[HES_ROBOT_MAX_LIMITS] = { X32(LA_ENTRY) };
static const hes_mech_config_fn lDa_fns[HES_ROBOT_MAX_LIMITS] = { X32(LDA_ENTRY) };

/*
 * A mode view's chart.  The free coordinates are z, the locked ones their
 * limits; a pinned contact c needs a planar robot whose first two
 * coordinates slide its root along x and z (hes__robot_mode_view
 * checks), and those slides put c at the origin: q[0..1] = -g(q~) with g
 * the site's (x, z) at q~ = q with zero slides, so that
 *     Dchart = [-J_g(q~) S; S],   D^2 chart [z', z'] = [-(dJ_g/dt) q'; 0]
 * (S selects the free coordinates, J_g the site Jacobian's x and z rows;
 * the slides' columns are constant, so the drift of the full rows along
 * q' = Dchart z' is that of J_g).
 */
static void view_q(const hes__robot_view *v, const double *z, double *q)
{
    memset(q, 0, sizeof(double) * (size_t)v->mech.d);
    for (int i = 0; i < v->k; i++)
        q[v->free[i]] = z[i];
    for (int j = 0; j < v->n_locked; j++)
        q[v->locked_dof[j]] = v->locked_val[j];
}

static int view_chart(const double *z, const double *p, double *q, void *data)
{
    (void)p;
    const hes__robot_view *v = data;
    hes_robot *r = v->robot;
    view_q(v, z, q);
    if (v->pinned >= 0) {
        double x, a;
        r = grab(r);
        site_x(r, v->pinned, q, &x);
        site_contact(r, v->pinned, q, &a, NULL, NULL);
        UNLOCK(r);
        q[0] = -x;
        q[1] = -a;
    }
    return 0;
}

static int view_chart_dz(const double *z, const double *p, double *D, void *data)
{
    (void)p;
    const hes__robot_view *v = data;
    hes_robot *r = v->robot;
    int nv = v->mech.d, k = v->k;
    memset(D, 0, sizeof(double) * (size_t)nv * (size_t)k);
    for (int i = 0; i < k; i++)
        D[v->free[i] + (size_t)i * nv] = 1;
    if (v->pinned < 0)
        return 0;
    r = grab(r);
    view_q(v, z, r->qs);
    site_contact(r, v->pinned, r->qs, NULL, r->Jp, r->Jm);   /* z row, x row */
    for (int i = 0; i < k; i++) {
        D[0 + (size_t)i * nv] = -r->Jm[v->free[i]];
        D[1 + (size_t)i * nv] = -r->Jp[v->free[i]];
    }
    UNLOCK(r);
    return 0;
}

/* The site's acceleration at q'' = 0 is (dJ/dt) q': MuJoCo's
 * mj_rnePostConstraint (body accelerations for qacc, here 0, with gravity
 * off) and mj_objectAcceleration (the site's classical acceleration: the
 * velocity product terms included), exact rather than differenced: a
 * chart's acceleration must be smooth to the integrator's tolerance. */
static int view_chart_acc(const double *z, const double *zd, const double *p, double *a,
                          void *data)
{
    const hes__robot_view *v = data;
    hes_robot *r = v->robot;
    int nv = v->mech.d, k = v->k, s = v->pinned >= 0 ? r->site[v->pinned] : 0, b = -s - 1;
    memset(a, 0, sizeof(double) * (size_t)nv);
    if (v->pinned < 0)
        return 0;
    r = grab(r);
    double *q = r->vq, *D = r->vD;
    view_chart(z, p, q, data);
    view_chart_dz(z, p, D, data);
    at(r, q);
    for (int i = 0; i < nv; i++) {
        double w = 0;
        for (int j = 0; j < k; j++)
            w += D[i + (size_t)j * nv] * zd[j];
        r->d->qvel[i] = w;
    }
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
    UNLOCK(r);
    a[0] = -acc[3];
    a[1] = -acc[5];
    return 0;
}

/* A transition view: the lift is the source mode's chart; the target's
 * coordinates are A q + c, or q[to->free]. */
static int view_lift(const double *z, const double *p, double *q, void *data)
{
    return view_chart(z, p, q, (void *)((const hes__robot_view *)data)->from);
}

static int view_lift_dz(const double *z, const double *p, double *D, void *data)
{
    return view_chart_dz(z, p, D, (void *)((const hes__robot_view *)data)->from);
}

static int view_to_chart(const double *q, const double *p, double *z, void *data)
{
    (void)p;
    const hes__robot_view *v = data;
    int d = v->mech.d, k = v->to->k;
    for (int i = 0; i < k; i++) {
        if (!v->A) {
            z[i] = q[v->to->free[i]];
            continue;
        }
        double s = v->c ? v->c[i] : 0;
        for (int j = 0; j < d; j++)
            s += v->A[(size_t)i * d + j] * q[j];
        z[i] = s;
    }
    return 0;
}

static int view_to_chart_dq(const double *q, const double *p, double *D, void *data)
{
    (void)p, (void)q;
    const hes__robot_view *v = data;
    int d = v->mech.d, k = v->to->k;
    memset(D, 0, sizeof(double) * (size_t)d * (size_t)k);
    for (int i = 0; i < k; i++)
        for (int j = 0; j < d; j++)
            D[i + (size_t)j * k] = v->A ? v->A[(size_t)i * d + j] : (j == v->to->free[i]);
    return 0;
}
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
    LOCK(r);
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
    UNLOCK(r);
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
    r->motors_set = 1;
    r->mech.m = n;
    return HES_OK;
#endif
}

hes_status hes__robot_mode_view(hes_robot *r, int pinned, int n_locked, const int *locked,
                                hes__robot_view *v, char *msg, size_t len)
{
#ifndef HAVE_MUJOCO
    (void)r, (void)pinned, (void)n_locked, (void)locked, (void)v;
    return hes__say(msg, len, HES_ESOLVER, "robot files need MuJoCo");
#else
    const mjModel *m = r->m;
    int nv = m->nv, nc = r->n_contacts, fixed[HES_MECH_MAX] = { 0 };
    if (pinned >= nc || n_locked < 0 || n_locked > nv)
        return hes__say(msg, len, HES_EINVAL, "mode: contact %d or %d locked joints out of range",
                        pinned, n_locked);
    memset(v, 0, sizeof *v);
    v->robot = r;
    v->mech = r->mech;
    v->mech.data = v;
    v->pinned = pinned;
    if (pinned >= 0) {
        /* the x slide on a body of the world, the z slide on the same body or
           its child (as a URDF writes them: one joint per link); the axes
           are in the bodies' frames, which must not be turned */
        int b0 = m->njnt >= 2 ? m->jnt_bodyid[0] : 0, b1 = m->njnt >= 2 ? m->jnt_bodyid[1] : 0;
        int ok = m->njnt >= 3 && r->tangents == 1 && m->body_parentid[b0] == 0 &&
                 (b1 == b0 || m->body_parentid[b1] == b0);
        for (int j = 0; ok && j < 2; j++) {
            const double *ax = m->jnt_axis + 3 * j, *bq = m->body_quat + 4 * m->jnt_bodyid[j];
            ok = m->jnt_type[j] == mjJNT_SLIDE && m->jnt_dofadr[j] == j && bq[0] == 1 &&
                 bq[1] == 0 && bq[2] == 0 && bq[3] == 0 && fabs(ax[1]) == 0 &&
                 fabs(ax[j ? 0 : 2]) == 0 && ax[j ? 2 : 0] == 1;
        }
        if (!ok)
            return hes__say(msg, len, HES_EINVAL, "a contact can be pinned only on a planar "
                            "robot whose first two joints slide its root along x and z");
    }
    if (nv > HES_MECH_MAX)
        return hes__say(msg, len, HES_EINVAL, "a robot of %d coordinates (hybrid models take at "
                        "most %d)", nv, HES_MECH_MAX);
    if (pinned >= 0) {
        fixed[0] = fixed[1] = 1;
        v->active[v->n_active++] = 2 * pinned;
        v->active[v->n_active++] = 2 * pinned + 1;
    }
    for (int j = 0; j < n_locked; j++) {
        int l = locked[j] - 2 * nc;
        if (l < 0 || l >= r->n_limits)
            return hes__say(msg, len, HES_EINVAL, "mode: constraint %d (%s) is not a joint limit: "
                            "only joint limits can be locked", locked[j],
                            locked[j] >= 0 && locked[j] < r->mech.n_constraints
                            ? r->names[locked[j]] : "out of range");
        if (fixed[r->lim_dof[l]] || v->n_active >= HES_MECH_MAX)
            return hes__say(msg, len, HES_EINVAL, "mode: %s locks a coordinate already fixed "
                            "(pinned root or another limit)", r->names[locked[j]]);
        fixed[r->lim_dof[l]] = 1;
        v->locked_dof[v->n_locked] = r->lim_dof[l];
        v->locked_val[v->n_locked++] = r->lim_val[l];
        v->active[v->n_active++] = locked[j];
    }
    for (int i = 0; i < nv; i++)
        if (!fixed[i])
            v->free[v->k++] = i;
    if (v->k < 1)
        return hes__say(msg, len, HES_EINVAL, "mode: no coordinate left free");
    return HES_OK;
#endif
}

void hes__robot_view_mode(const hes__robot_view *v, hes_mech_mode *out)
{
#ifdef HAVE_MUJOCO
    int chart = v->k < v->mech.d;
    *out = (hes_mech_mode){ &v->mech, v->n_active, v->active, v->k,
                            chart ? view_chart : NULL, chart ? view_chart_dz : NULL,
                            chart ? view_chart_acc : NULL, hes__robot_input };
#else   /* no view without MuJoCo: hes__robot_mode_view refuses */
    *out = (hes_mech_mode){ &v->mech, 0, NULL, v->k, NULL, NULL, NULL, NULL };
#endif
}

void hes__robot_transition_view(hes_robot *r, const hes__robot_view *from,
                                const hes__robot_view *to, const double *A, const double *c,
                                hes__robot_view *v, hes_mech_transition *tr)
{
    memset(v, 0, sizeof *v);
    v->robot = r;
    v->mech = r->mech;
    v->mech.data = v;
    v->pinned = -1;
    v->from = from;
    v->to = to;
    v->A = A;
    v->c = c;
    tr->mech = &v->mech;
#ifdef HAVE_MUJOCO
    tr->lift = view_lift;
    tr->lift_dz = view_lift_dz;
    tr->to_chart = view_to_chart;
    tr->to_chart_dq = view_to_chart_dq;
#endif
}

void hes__robot_bind_params(hes_robot *r, int slope_param, int *motor_param)
{
    r->slope_param = slope_param;
    r->motor_param = motor_param;
}

int hes__robot_input(double t, const double *x, const double *p, double *u, void *data)
{
    (void)t, (void)x;
    const hes_robot *r = ROBOT(data);
    for (int a = 0; a < r->nu; a++)
        u[a] = r->motor_param && r->motor_param[a] >= 0 && p ? p[r->motor_param[a]] : 0;
    return 0;
}

int hes_robot_motor_count(const hes_robot *r)
{
#ifdef HAVE_MUJOCO
    return r ? r->nu : 0;
#else
    (void)r;
    return 0;
#endif
}

const char *hes__robot_motor_name(const hes_robot *r, int a)
{
#ifdef HAVE_MUJOCO
    return a >= 0 && a < r->nu && !r->motors_set ? mj_id2name(r->m, mjOBJ_ACTUATOR, a) : NULL;
#else
    (void)r, (void)a;
    return NULL;
#endif
}

const char *hes_robot_motor_joint(const hes_robot *r, int a)
{
#ifdef HAVE_MUJOCO
    if (!r || a < 0 || a >= r->nu)
        return NULL;
    for (int i = 0; i < r->m->nv; i++)
        if (r->B[i + (size_t)a * r->m->nv] != 0)
            return hes_robot_coordinate(r, i);
#else
    (void)r, (void)a;
#endif
    return NULL;
}

hes_status hes__robot_pool(hes_robot *r, int n, char *msg, size_t len)
{
#ifdef HAVE_MUJOCO
    if (r->motors_set)
        n = 1;                 /* motors replaced (hes_robot_set_motors): no copies */
#endif
    if (r->n_pool > 0 || n <= 1)
        return HES_OK;
    hes_robot **pool = calloc((size_t)n, sizeof *pool);
    if (!pool)
        return hes__say(msg, len, HES_ENOMEM, "out of memory");
    pool[0] = r;
    for (int i = 1; i < n; i++) {
        hes_status st = hes_robot_copy(r, &pool[i], msg, len);
        if (st != HES_OK) {
            for (int j = 1; j < i; j++)
                hes_robot_free(pool[j]);
            free(pool);
            return st;
        }
        pool[i]->slope_param = r->slope_param;
        pool[i]->motor_param = r->motor_param;
        pool[i]->g0 = r->g0;
    }
    r->pool = pool;
    r->n_pool = n;
    return HES_OK;
}

hes_status hes_robot_copy(const hes_robot *r, hes_robot **out, char *msg, size_t len)
{
    if (out)
        *out = NULL;
    if (!r || !out)
        return hes__say(msg, len, HES_EINVAL, "robot copy: needs a robot");
    int nc = r->n_contacts;
    hes_robot_contact c[HES_ROBOT_MAX_CONTACTS];
    for (int i = 0; i < nc; i++)
        c[i] = (hes_robot_contact){ r->names[2 * i], r->cons[2 * i].mu };
    return hes_robot_load(r->path, c, nc, out, msg, len);
}

hes_status hes_robot_set_friction(hes_robot *r, int contact, double mu)
{
    if (!r || contact < -1 || contact >= r->n_contacts || !(mu >= 0) || !isfinite(mu))
        return HES_EINVAL;
    for (int c = 0; c < r->n_contacts; c++)
        if (contact < 0 || c == contact) {
            r->cons[2 * c].mu = mu;
#ifdef HAVE_MUJOCO
            r->dmu[c] = mu;
#endif
        }
    return HES_OK;
}

hes_status hes_robot_set_slope(hes_robot *r, double slope)
{
    if (!r || !isfinite(slope) || fabs(slope) >= 1.5)
        return HES_EINVAL;
#ifdef HAVE_MUJOCO
    LOCK(r);
    r->m->opt.gravity[0] = r->g0 * sin(slope);
    r->m->opt.gravity[1] = 0;
    r->m->opt.gravity[2] = -r->g0 * cos(slope);
    UNLOCK(r);
    return HES_OK;
#else
    return HES_ESOLVER;
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
    hes__robot_view *v = &r->pins[contact];
    char why[256];
    hes_status st = hes__robot_mode_view(r->self, contact, 0, NULL, v, why, sizeof why);
    if (st != HES_OK)
        return hes__say(msg, len, st, "pinned mode: %s", why);
    hes__robot_view_mode(v, out);
    out->input = NULL;
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
    free(r->cM_q), free(r->cM), free(r->cD_q), free(r->cD), free(r->vq), free(r->vD);
    free(r->rne);
#endif
    for (int c = 0; r->names && c < r->n_names; c++)
        free(r->names[c]);
    free(r->names);
    free(r->cons);
    for (int i = 1; i < r->n_pool; i++)
        hes_robot_free(r->pool[i]);
    free(r->pool);
    free(r->pins);
    free(r->path);
    pthread_mutex_destroy(&r->lock);
    free(r);
}

#ifdef HAVE_MUJOCO
/* Every number of the model a robot's dynamics reads: finite and at most
 * MuJoCo's mjMAXVAL (1e10) in magnitude (masses, inertias, lengths,
 * gains, gravity); masses and inertias >= 0.  1 after the refusal. */
static int check_values(const char *path, const char *what, const mjtNum *v, long n, int nonneg,
                        hes_status *st, char *msg, size_t len)
{
    for (long i = 0; i < n; i++)
        if (!isfinite(v[i]) || fabs(v[i]) > mjMAXVAL || (nonneg && v[i] < 0)) {
            *st = hes__say(msg, len, HES_EINVAL, "robot %s: %s[%ld] = %g: %s", path, what, i,
                           v[i], !isfinite(v[i]) ? "not a finite number"
                                 : nonneg && v[i] < 0 ? "negative"
                                 : "larger in magnitude than MuJoCo's 1e10 (mjMAXVAL)");
            return 1;
        }
    return 0;
}

static hes_status check_model(const char *path, const mjModel *m, char *msg, size_t len)
{
    hes_status st = HES_OK;
    const struct {
        const char *what;
        const mjtNum *v;
        long n;
        int nonneg;
    } arrays[] = {
        { "body mass", m->body_mass, m->nbody, 1 },
        { "body inertia", m->body_inertia, 3L * m->nbody, 1 },
        { "body position", m->body_pos, 3L * m->nbody, 0 },
        { "body orientation", m->body_quat, 4L * m->nbody, 0 },
        { "body centre of mass", m->body_ipos, 3L * m->nbody, 0 },
        { "body inertia frame", m->body_iquat, 4L * m->nbody, 0 },
        { "joint position", m->jnt_pos, 3L * m->njnt, 0 },
        { "joint axis", m->jnt_axis, 3L * m->njnt, 0 },
        { "joint stiffness", m->jnt_stiffness, m->njnt, 0 },
        { "joint range", m->jnt_range, 2L * m->njnt, 0 },
        { "reference configuration", m->qpos0, m->nq, 0 },
        { "spring reference", m->qpos_spring, m->nq, 0 },
        { "armature", m->dof_armature, m->nv, 1 },
        { "damping", m->dof_damping, m->nv, 0 },
        { "site position", m->site_pos, 3L * m->nsite, 0 },
        { "site orientation", m->site_quat, 4L * m->nsite, 0 },
        { "geom size", m->geom_size, 3L * m->ngeom, 0 },
        { "geom position", m->geom_pos, 3L * m->ngeom, 0 },
        { "actuator gear", m->actuator_gear, 6L * m->nu, 0 },
        { "actuator gain", m->actuator_gainprm, (long)mjNGAIN * m->nu, 0 },
        { "actuator control range", m->actuator_ctrlrange, 2L * m->nu, 0 },
        { "actuator force range", m->actuator_forcerange, 2L * m->nu, 0 },
        { "gravity", m->opt.gravity, 3, 0 },
    };
    for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++)
        if (check_values(path, arrays[a].what, arrays[a].v, arrays[a].n, arrays[a].nonneg, &st,
                         msg, len))
            return st;
    if (m->nv < 1)
        return hes__say(msg, len, HES_EINVAL, "robot %s: no joint that moves (no degree of "
                        "freedom)", path);
    return HES_OK;
}

/* path read as any input (bounded, regular files only), checked
 * (robot_xml.c), and compiled by MuJoCo from that text (a virtual file
 * system of one file: MuJoCo does not open it again), its warnings and
 * errors caught (mujoco_msg.c): a warning about the file refuses it. */
static hes_status load_model(const char *path, mjModel **out, char *msg, size_t len)
{
    *out = NULL;
    char *text;
    size_t n;
    char why[512];
    hes_status st = hes_input_read(path, 0, &text, &n, why, sizeof why);
    if (st != HES_OK)
        return hes__say(msg, len, st == HES_ENOTFOUND || st == HES_EIO ? HES_EINVAL : st,
                        "robot: %s", why);
    if ((st = hes__robot_xml_check(path, text, n, msg, len)) != HES_OK) {
        free(text);
        return st;
    }
    if (n > (size_t)INT_MAX - 1) {
        free(text);
        return hes__say(msg, len, HES_EINVAL, "robot %s: too large", path);
    }
    mjVFS *vfs = malloc(sizeof *vfs);
    if (!vfs) {
        free(text);
        return hes__say(msg, len, HES_ENOMEM, "out of memory");
    }
    mj_defaultVFS(vfs);
    if (mj_makeEmptyFileVFS(vfs, path, (int)n) != 0 || vfs->nfile != 1) {
        free(text);
        mj_deleteVFS(vfs);
        free(vfs);
        return hes__say(msg, len, HES_EINVAL, "robot %s: MuJoCo cannot take the file's name",
                        path);
    }
    memcpy(vfs->filedata[0], text, n);
    free(text);
    char err[512] = "";
    mjModel *volatile m = NULL;
    hes__mj_scope sc;
    hes__mj_enter(&sc);
    if (setjmp(sc.jump) == 0)
        m = mj_loadXML(path, vfs, err, (int)sizeof err);
    hes__mj_leave(&sc);
    mj_deleteVFS(vfs);
    free(vfs);
    if (sc.error[0]) {
        if (m)
            mj_deleteModel(m);
        return hes__say(msg, len, HES_EINVAL, "robot: MuJoCo cannot load %s: %s", path,
                        sc.error);
    }
    if (!m)
        return hes__say(msg, len, HES_EINVAL, "robot: MuJoCo cannot load %s: %s", path,
                        err[0] ? err : sc.warnings ? sc.warning : "no reason given");
    if (sc.warnings) {
        mj_deleteModel(m);
        return hes__say(msg, len, HES_EINVAL, "robot %s: MuJoCo warns: %s%s", path, sc.warning,
                        sc.warnings > 1 ? " (and more warnings)" : "");
    }
    if ((st = check_model(path, m, msg, len)) != HES_OK) {
        mj_deleteModel(m);
        return st;
    }
    *out = m;
    return HES_OK;
}
#endif

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
    mjModel *m;
    hes_status lst = load_model(path, &m, msg, len);
    if (lst != HES_OK)
        return lst;
    if (m->nq != m->nv) {
        int nq = m->nq, nv = m->nv;
        mj_deleteModel(m);
        return hes__say(msg, len, HES_EINVAL, "robot %s: %d coordinates for %d degrees of "
                        "freedom: free and ball joints (quaternions) are not supported; use "
                        "slide and hinge joints", path, nq, nv);
    }
    for (int c = 0; c < n_contacts; c++)
        for (int e = 0; e < c; e++)
            if (contacts[c].site && contacts[e].site &&
                strcmp(contacts[c].site, contacts[e].site) == 0) {
                mj_deleteModel(m);
                return hes__say(msg, len, HES_EINVAL, "robot %s: contact '%s' given twice (as "
                                "contacts %d and %d): give each contact once", path,
                                contacts[c].site, e, c);
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
    pthread_mutexattr_t attr;
    int have_attr = pthread_mutexattr_init(&attr) == 0;
    int locked = have_attr && pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE) == 0 &&
                 pthread_mutex_init(&r->lock, &attr) == 0;
    if (have_attr)
        pthread_mutexattr_destroy(&attr);
    if (!locked) {
        free(r);
        mj_deleteModel(m);
        return hes__say(msg, len, HES_ENOMEM, "could not make a robot's lock");
    }
    r->self = r;
    r->path = strdup(path);
    r->slope_param = -1;
    r->g0 = mju_norm3(m->opt.gravity);
    r->m = m;
    hes__mj_scope sc;
    hes__mj_enter(&sc);
    if (setjmp(sc.jump) == 0)
        r->d = mj_makeData(m);
    hes__mj_leave(&sc);
    r->n_contacts = nc;
    /* joint limits become constraints where the robot can be a hybrid model */
    for (int j = 0; m->nv <= HES_MECH_MAX && j < m->njnt; j++)
        if (m->jnt_limited[j] && (m->jnt_type[j] == mjJNT_HINGE || m->jnt_type[j] == mjJNT_SLIDE))
            for (int side = 0; side < 2; side++) {
                int l = r->n_limits++;
                r->lim_dof[l] = m->jnt_dofadr[j];
                r->lim_val[l] = m->jnt_range[2 * j + side];
                r->lim_sign[l] = side ? -1 : 1;
            }
    int ncons = 2 * nc + r->n_limits;
    r->cons = calloc((size_t)(ncons > 0 ? ncons : 1), sizeof *r->cons);
    r->names = calloc((size_t)(ncons > 0 ? ncons : 1), sizeof *r->names);
    r->n_names = ncons;
    r->pins = calloc((size_t)(nc > 0 ? nc : 1), sizeof *r->pins);
    r->site = calloc((size_t)(nc > 0 ? nc : 1), sizeof *r->site);
    r->B = calloc((size_t)m->nv * (size_t)(m->nu > 0 ? m->nu : 1), sizeof *r->B);
    if (!r->d || !r->cons || !r->names || !r->site || !r->B || !r->pins || !r->path) {
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
    for (int l = 0, j = 0; l < r->n_limits; l++) {
        while (!(m->jnt_limited[j] && m->jnt_dofadr[j] == r->lim_dof[l]))
            j++;
        const char *jn = mj_id2name(m, mjOBJ_JOINT, j);
        char buf[32];
        if (!jn) {
            snprintf(buf, sizeof buf, "joint%d", j);
            jn = buf;
        }
        size_t nl = strlen(jn) + 8;
        char *name = r->names[2 * nc + l] = malloc(nl);
        if (!name) {
            hes_robot_free(r);
            return hes__say(msg, len, HES_ENOMEM, "out of memory for a robot");
        }
        snprintf(name, nl, "%s_%s", jn, r->lim_sign[l] > 0 ? "lower" : "upper");
        r->cons[2 * nc + l] = (hes_mech_constraint){ name, la_fns[l], lDa_fns[l], 0, 1, 0,
                                                     NULL };
    }
    /* the constraints' names are labels of tables and plots (fn:NAME) */
    for (int c = 0; c < ncons; c++) {
        char field[96], why[512];
        if (c < 2 * nc)
            snprintf(field, sizeof field, "contact %d's %sname (its site's or body's)", c / 2,
                     c % 2 ? "tangential constraint's " : "");
        else
            snprintf(field, sizeof field, "joint limit %d's name (its joint's, with _lower or "
                     "_upper)", c - 2 * nc);
        if (hes_name_check(field, r->names[c], why, sizeof why) != HES_OK) {
            hes_robot_free(r);
            return hes__say(msg, len, HES_EINVAL, "robot %s: %s", path, why);
        }
    }
    int nv = m->nv, rows = 3 * (nc > 0 ? nc : 1);
    r->tau_max = calloc((size_t)(m->nu > 0 ? m->nu : 1), sizeof(double));
    r->dM = malloc(sizeof(double) * (size_t)nv * (size_t)nv);
    r->dh = malloc(sizeof(double) * (size_t)nv);
    r->qs = malloc(sizeof(double) * (size_t)nv);
    r->jac = malloc(sizeof(double) * (size_t)(3 * nv));
    r->dJ = malloc(sizeof(double) * (size_t)rows * (size_t)nv);
    r->Jp = malloc(sizeof(double) * (size_t)rows * (size_t)nv);
    r->Jm = malloc(sizeof(double) * (size_t)rows * (size_t)nv);
    r->dJdv = malloc(sizeof(double) * (size_t)rows);
    r->dphi = malloc(sizeof(double) * (size_t)(nc > 0 ? nc : 1));
    r->dmu = malloc(sizeof(double) * (size_t)(nc > 0 ? nc : 1));
    size_t bq = sizeof(double) * (size_t)nv, bm = bq * (size_t)nv;
    r->cM_q = malloc(bq);
    r->cM = malloc(bm);
    r->vq = malloc(bq);
    r->vD = malloc(bm);
    r->rne = malloc(bq);
    /* dM/dq (nv^3 values) for robots the mechanical layer takes */
    if (nv <= HES_MECH_MAX) {
        r->cD_q = malloc(bq);
        r->cD = malloc(bm * (size_t)nv);
    }
    if (!r->tau_max || !r->dM || !r->dh || !r->qs || !r->jac || !r->dJ || !r->Jp || !r->Jm ||
        !r->dJdv || !r->dphi || !r->dmu || !r->cM_q || !r->cM || !r->vq || !r->vD || !r->rne ||
        (nv <= HES_MECH_MAX && (!r->cD_q || !r->cD))) {
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
    r->mech = (hes_mech){ "robot", m->nv, mass, m->nv <= HES_MECH_MAX ? mass_dq : NULL, force,
                          m->nu, ncons, r->cons, r, NULL };
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
