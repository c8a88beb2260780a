/*
 * robot_contact.c - a robot's constraints (its hes_mech's), from the
 * file's sites, bodies and joint ranges through MuJoCo:
 *   contacts        a named site's (or, as URDF has no sites, a named
 *                   body's) world position and its translational Jacobian
 *                   (mj_jacSite, mj_jacBody) against the ground plane z =
 *                   0: two constraints each, the normal a = p_z, Da = J_z
 *                   (unilateral, with friction and the tangent row J_x:
 *                   planar robots move in the x-z plane) and the
 *                   tangential "NAME_tangential" a = p_x, Da = J_x
 *                   (bilateral: no slip);
 *   joint limits    "NAME_lower" a = q - lo >= 0 and "NAME_upper" a = hi -
 *                   q >= 0 for a limited hinge or slide of range [lo, hi];
 *                   "NAME_cone" a = range - angle >= 0 for a limited ball
 *                   joint (MuJoCo's cone: its range's second value bounds
 *                   the rotation angle of its quaternion; a free joint has
 *                   no limit).
 * Their names are checked as every name of tables and plots, and a robot
 * is planar (one tangent) when every contact's y row vanishes at the
 * reference configuration.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_internal.h"
#include "model/robot_internal.h"

#include <mujoco/mujoco.h>

/* The contact of constraint c's site: a, Da (z row), Jt (x row). */
int hes__robot_site_contact(hes_robot *r, int c, const double *q, double *a, double *Da,
                            double *Jt)
{
    int nv = r->m->nv, s = r->site[c], b = -s - 1;   /* s < 0: body b's origin */
    HES_ROBOT_LOCK(r);
    hes__robot_at(r, q);
    if (a) {
        double x[3];
        hes__robot_point(r, c, x);
        *a = x[2];
    }
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
    HES_ROBOT_UNLOCK(r);
    return 0;
}

/* The x position of contact c's point (its tangential coordinate) */
int hes__robot_site_x(hes_robot *r, int c, const double *q, double *x)
{
    double p[3];
    HES_ROBOT_LOCK(r);
    hes__robot_at(r, q);
    hes__robot_point(r, c, p);
    *x = p[0];
    HES_ROBOT_UNLOCK(r);
    return 0;
}

/* The constraint callbacks: one function per quantity, for every contact
 * and every joint limit.  Each constraint's data (hes__robot_con) names
 * its robot and its index; a contact's callbacks compute on the instance
 * of that robot they grab (hes__robot_grab: the robot or a free copy of
 * its pool), so that systems on several threads compute side by side.
 * Each one is contact c's height a, normal row Da, tangent row Jt or,
 * with x, its x position. */
static int site_fn(void *data, const double *q, double *a, double *Da, double *Jt, double *x)
{
    const hes__robot_con *k = data;
    hes_robot *r = hes__robot_grab(k->robot);
    int c = k->index;
    int rc = x ? hes__robot_site_x(r, c, q, x) : hes__robot_site_contact(r, c, q, a, Da, Jt);
    HES_ROBOT_UNLOCK(r);
    return rc;
}

static int site_a(const double *q, const double *p, double *out, void *data)
{
    (void)p;
    return site_fn(data, q, out, NULL, NULL, NULL);
}

static int site_Da(const double *q, const double *p, double *out, void *data)
{
    (void)p;
    return site_fn(data, q, NULL, out, NULL, NULL);
}

static int site_Jt(const double *q, const double *p, double *out, void *data)
{
    (void)p;
    return site_fn(data, q, NULL, NULL, out, NULL);
}

static int site_xpos(const double *q, const double *p, double *out, void *data)
{
    (void)p;
    return site_fn(data, q, NULL, NULL, NULL, out);
}

/* Contact c's y position and its y row (a 3-D robot's second tangent) */
static int site_y_fn(void *data, const double *q, double *y, double *row)
{
    const hes__robot_con *k = data;
    hes_robot *r = hes__robot_grab(k->robot);
    int c = k->index, nv = r->m->nv, s = r->site[c];
    hes__robot_at(r, q);
    if (y) {
        double pt[3];
        hes__robot_point(r, c, pt);
        *y = pt[1];
    }
    if (row) {
        if (s >= 0)
            mj_jacSite(r->m, r->d, r->jac, NULL, s);
        else
            mj_jacBody(r->m, r->d, r->jac, NULL, -s - 1);
        memcpy(row, r->jac + nv, sizeof(double) * (size_t)nv);
    }
    HES_ROBOT_UNLOCK(r);
    return 0;
}

static int site_ypos(const double *q, const double *p, double *out, void *data)
{
    (void)p;
    return site_y_fn(data, q, out, NULL);
}

static int site_Jy(const double *q, const double *p, double *out, void *data)
{
    (void)p;
    return site_y_fn(data, q, NULL, out);
}

/* Component i of contact c's point acceleration at q'' = 0, J' q' (its
 * rows' drift: robot_rne.c) */
static int site_drift_of(void *data, const double *q, const double *qd, int i, double *out)
{
    const hes__robot_con *k = data;
    hes_robot *r = hes__robot_grab(k->robot);
    double acc[3];
    hes__robot_at(r, q);
    hes__robot_point_motion(r, k->index, qd, 0, NULL, 0, NULL, NULL, acc, NULL, NULL);
    *out = acc[i];
    HES_ROBOT_UNLOCK(r);
    return 0;
}

static int site_drift(const double *q, const double *qd, const double *p, double *out,
                      void *data)
{
    (void)p;
    return site_drift_of(data, q, qd, 2, out);
}

static int site_drift_x(const double *q, const double *qd, const double *p, double *out,
                        void *data)
{
    (void)p;
    return site_drift_of(data, q, qd, 0, out);
}

static int site_drift_y(const double *q, const double *qd, const double *p, double *out,
                        void *data)
{
    (void)p;
    return site_drift_of(data, q, qd, 1, out);
}

/*
 * Joint limits: for a joint of range [lo, hi] (limited="true"), the
 * constraints "NAME_lower" a = q - lo >= 0 and "NAME_upper" a = hi - q >= 0,
 * Da = +-e_dof (unilateral, plastic, frictionless): a knee stop, or, held
 * by a mode (hes__robot_mode_view), a joint locked at its limit.  A ball
 * joint's cone (as MuJoCo's limit of a ball): a = range - theta >= 0,
 * theta = |w| the angle of its rotation vector w = quat (-) 1
 * (hes_mech_difference, the shorter way round), and in its angular
 * velocity's coordinates Da = -w / |w| (theta' = n . omega for the unit
 * axis n: the rotation's axis is the same in the body's frame and the
 * world's); at theta = 0, where the cone has its apex and no gradient,
 * Da = 0.  They read only what the robot keeps from its load, so any
 * instance serves.
 */
/* The rotation vector of the ball of limit l from the identity. */
static void cone_rotation(const hes_robot *r, int l, const double *q, double *w)
{
    static const int at0 = 0;
    static const double one[4] = { 1, 0, 0, 0 };
    const hes_mech ball = { .d = 3, .n_quat = 1, .quat = &at0 };
    hes_mech_difference(&ball, q + r->lim_qpos[l], one, w);
}

static int limit_a(const double *q, const double *p, double *out, void *data)
{
    (void)p;
    const hes__robot_con *k = data;
    const hes_robot *r = k->robot;
    int l = k->index;
    if (r->lim_sign[l] == 0) {
        double w[3];
        cone_rotation(r, l, q, w);
        out[0] = r->lim_val[l] - sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    } else {
        out[0] = r->lim_sign[l] * (q[r->lim_qpos[l]] - r->lim_val[l]);
    }
    return 0;
}

static int limit_Da(const double *q, const double *p, double *out, void *data)
{
    (void)p;
    const hes__robot_con *k = data;
    const hes_robot *r = k->robot;
    int l = k->index;
    memset(out, 0, sizeof(double) * (size_t)r->m->nv);
    if (r->lim_sign[l] == 0) {
        double w[3];
        cone_rotation(r, l, q, w);
        double th = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
        for (int i = 0; th > 0 && i < 3; i++)
            out[r->lim_dof[l] + i] = -w[i] / th;
    } else {
        out[r->lim_dof[l]] = r->lim_sign[l];
    }
    return 0;
}

/* The limited joints' constraints: two per hinge or slide, one per ball. */
static int limit_count(const mjModel *m, int j)
{
    if (!m->jnt_limited[j])
        return 0;
    return m->jnt_type[j] == mjJNT_HINGE || m->jnt_type[j] == mjJNT_SLIDE ? 2
           : m->jnt_type[j] == mjJNT_BALL ? 1 : 0;
}

/* The joint limits become constraints, two per limited hinge or slide and
 * one per limited ball, at any size of robot. */
static hes_status collect_limits(hes_robot *r, char *msg, size_t len)
{
    const mjModel *m = r->m;
    int n = 0;
    for (int j = 0; j < m->njnt; j++)
        n += limit_count(m, j);
    r->lim_dof = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    r->lim_qpos = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    r->lim_val = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    r->lim_sign = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    if (!r->lim_dof || !r->lim_qpos || !r->lim_val || !r->lim_sign)
        return hes__say(msg, len, HES_ENOMEM, "out of memory for a robot");
    for (int j = 0; j < m->njnt; j++)
        for (int side = 0, nl = limit_count(m, j); side < nl; side++) {
            int l = r->n_limits++;
            r->lim_dof[l] = m->jnt_dofadr[j];
            r->lim_qpos[l] = m->jnt_qposadr[j];
            /* a ball's cone: the range's second value (MuJoCo's) */
            r->lim_val[l] = m->jnt_range[2 * j + (nl == 1 ? 1 : side)];
            r->lim_sign[l] = nl == 1 ? 0 : side ? -1 : 1;
        }
    return HES_OK;
}

/* Contact c's two constraints: the contacts given (n_contacts > 0) or
 * else the file's site c, friction 1. */
static hes_status contact_constraints(hes_robot *r, int c, const char *path,
                                      const hes_robot_contact *contacts, int n_contacts,
                                      char *msg, size_t len)
{
    const mjModel *m = r->m;
    const char *name = n_contacts ? contacts[c].site : mj_id2name(m, mjOBJ_SITE, c);
    /* a site, or else a body (URDF has no sites: a foot is a link) */
    int s = n_contacts ? (name ? mj_name2id(m, mjOBJ_SITE, name) : -1) : c, b = -1;
    if (s < 0 && name && (b = mj_name2id(m, mjOBJ_BODY, name)) > 0)
        s = -b - 1;
    double mu = n_contacts ? contacts[c].mu : 1.0;
    /* mu = infinity: the contact never slips (sticking assumed whatever
       its tangential force, as in the no-slip models of gait studies) */
    if ((s < 0 && b <= 0) || !(mu >= 0))
        return hes__say(msg, len, HES_EINVAL, "robot %s: contact %d (%s): %s", path, c,
                        name ? name : "unnamed",
                        s < 0 && b <= 0 ? "no site or body of that name in the file"
                              : "its friction coefficient must be >= 0 (or infinite: "
                                "no slip)");
    char buf[32];
    if (!name) {
        snprintf(buf, sizeof buf, "site%d", s);
        name = buf;
    }
    r->site[c] = s;
    size_t nl = strlen(name);
    r->names[2 * c] = strdup(name);
    r->names[2 * c + 1] = malloc(nl + 12);
    if (!r->names[2 * c] || !r->names[2 * c + 1])
        return hes__say(msg, len, HES_ENOMEM, "out of memory for a robot");
    snprintf(r->names[2 * c + 1], nl + 12, "%s_tangential", name);
    /* the normal (unilateral, with friction) and the no-slip tangential
       (bilateral: a pinned foot, the plastic impact of a landing foot) */
    for (int i = 0; i < 2; i++)
        r->con_data[2 * c + i] = (hes__robot_con){ r, c };
    r->fric[2 * c] = 2 * c + 1;
    r->cons[2 * c] = (hes_mech_constraint){ .name = r->names[2 * c], .a = site_a,
                                            .Da = site_Da, .unilateral = 1, .mu = mu,
                                            .Jt = site_Jt, .data = &r->con_data[2 * c],
                                            .drift = site_drift, .n_friction_rows = 1,
                                            .friction_rows = &r->fric[2 * c] };
    r->cons[2 * c + 1] = (hes_mech_constraint){ .name = r->names[2 * c + 1], .a = site_xpos,
                                                .Da = site_Jt, .data = &r->con_data[2 * c + 1],
                                                .drift = site_drift_x, .sticks = 1 };
    return HES_OK;
}

/* The joint limits' constraints, after the contacts', each named after its
 * joint (NAME_lower, NAME_upper; jointJ for a joint without a name). */
static hes_status limit_constraints(hes_robot *r, char *msg, size_t len)
{
    const mjModel *m = r->m;
    int nc = r->n_contacts;
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
        if (!name)
            return hes__say(msg, len, HES_ENOMEM, "out of memory for a robot");
        snprintf(name, nl, "%s_%s", jn, r->lim_sign[l] > 0 ? "lower"
                                        : r->lim_sign[l] < 0 ? "upper" : "cone");
        r->con_data[2 * nc + l] = (hes__robot_con){ r, l };
        r->cons[2 * nc + l] = (hes_mech_constraint){ .name = name, .a = limit_a,
                                                     .Da = limit_Da, .unilateral = 1,
                                                     .data = &r->con_data[2 * nc + l] };
    }
    return HES_OK;
}

/* The constraints' names are labels of tables and plots (fn:NAME). */
static hes_status check_names(const hes_robot *r, const char *path, char *msg, size_t len)
{
    int nc = r->n_contacts;
    for (int c = 0; c < r->n_names; c++) {
        char field[96];
        hes_error why;
        if (c < 2 * nc)
            snprintf(field, sizeof field, "contact %d's %sname (its site's or body's)", c / 2,
                     c % 2 ? "tangential constraint's " : "");
        else
            snprintf(field, sizeof field, "joint limit %d's name (its joint's, with _lower, "
                     "_upper or _cone)", c - 2 * nc);
        if (hes_name_check(field, r->names[c], &why) != HES_OK)
            return hes__say(msg, len, HES_EINVAL, "robot %s: %s", path, why.message);
    }
    return HES_OK;
}

/* The contacts' constraints (2 per contact), then the joint limits'. */
hes_status hes__robot_constraints(hes_robot *r, const char *path,
                                  const hes_robot_contact *contacts, int n_contacts, char *msg,
                                  size_t len)
{
    int nc = r->n_contacts;
    hes_status st = collect_limits(r, msg, len);
    if (st != HES_OK)
        return st;
    int ncons = 2 * nc + r->n_limits, room = ncons + nc;   /* room for the y rows */
    r->cons = calloc((size_t)(room > 0 ? room : 1), sizeof *r->cons);
    r->con_data = calloc((size_t)(room > 0 ? room : 1), sizeof *r->con_data);
    r->names = calloc((size_t)(room > 0 ? room : 1), sizeof *r->names);
    r->n_names = ncons;
    r->site = calloc((size_t)(nc > 0 ? nc : 1), sizeof *r->site);
    r->fric = calloc(2 * (size_t)(nc > 0 ? nc : 1), sizeof *r->fric);
    if (!r->cons || !r->con_data || !r->names || !r->site || !r->fric)
        return hes__say(msg, len, HES_ENOMEM, "out of memory for a robot");
    for (int c = 0; c < nc; c++)
        if ((st = contact_constraints(r, c, path, contacts, n_contacts, msg, len)) != HES_OK)
            return st;
    if ((st = limit_constraints(r, msg, len)) != HES_OK)
        return st;
    return check_names(r, path, msg, len);
}

/* A 3-D robot's (two tangents') second no-slip constraint per contact,
 * "NAME_tangential_y" a = p_y, Da = J_y (bilateral, it sticks), after the
 * joint limits: 2 nc + n_limits + c. */
hes_status hes__robot_constraints_y(hes_robot *r, const char *path, char *msg, size_t len)
{
    int nc = r->n_contacts, base = 2 * nc + r->n_limits;
    if (r->tangents != 2)
        return HES_OK;
    for (int c = 0; c < nc; c++) {
        size_t nl = strlen(r->names[2 * c]) + 16;
        char *name = r->names[base + c] = malloc(nl);
        if (!name)
            return hes__say(msg, len, HES_ENOMEM, "out of memory for a robot");
        snprintf(name, nl, "%s_tangential_y", r->names[2 * c]);
        hes_error why;
        if (hes_name_check("contact's y tangential constraint's name", name, &why) != HES_OK)
            return hes__say(msg, len, HES_EINVAL, "robot %s: %s", path, why.message);
        r->con_data[base + c] = (hes__robot_con){ r, c };
        r->cons[base + c] = (hes_mech_constraint){ .name = name, .a = site_ypos, .Da = site_Jy,
                                                   .data = &r->con_data[base + c],
                                                   .drift = site_drift_y, .sticks = 1 };
        r->fric[2 * c + 1] = base + c;   /* the normal's cone bears both rows */
        r->cons[2 * c].n_friction_rows = 2;
        r->n_names++;
    }
    return HES_OK;
}

/* planar (one tangent) when every contact's y row vanishes at qpos0 */
void hes__robot_tangents(hes_robot *r)
{
    const mjModel *m = r->m;
    int nv = m->nv;
    r->tangents = 1;
    for (int c = 0; c < r->n_contacts; c++) {
        hes__robot_at(r, m->qpos0);
        int s = r->site[c];
        if (s >= 0)
            mj_jacSite(m, r->d, r->jac, NULL, s);
        else
            mj_jacBody(m, r->d, r->jac, NULL, -s - 1);
        for (int j = 0; j < nv; j++)
            if (fabs(r->jac[nv + j]) > 1e-12)
                r->tangents = 2;
    }
}
