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
 *                   q >= 0 for a limited hinge or slide of range [lo, hi].
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

/* The constraint callbacks get the robot, not the constraint: the
 * constraint's index is found from its function pointer's slot, so each
 * contact needs its own functions; contacts beyond HES_ROBOT_MAX_CONTACTS
 * are refused.  (The function tables below are generated.)  Each one is
 * contact c's height a, normal row Da, tangent row Jt or, with x, its x
 * position, on the instance of the robot it grabs (hes__robot_grab). */
static int site_fn(void *data, int c, const double *q, double *a, double *Da, double *Jt,
                   double *x)
{
    hes_robot *r = hes__robot_grab(HES_ROBOT_OF(data));
    int rc = x ? hes__robot_site_x(r, c, q, x) : hes__robot_site_contact(r, c, q, a, Da, Jt);
    HES_ROBOT_UNLOCK(r);
    return rc;
}

#define SITE_FNS(c)                                                                  \
    static int a_##c(const double *q, const double *p, double *out, void *data)      \
    {                                                                                \
        (void)p;                                                                     \
        return site_fn(data, c, q, out, NULL, NULL, NULL);                           \
    }                                                                                \
    static int Da_##c(const double *q, const double *p, double *out, void *data)     \
    {                                                                                \
        (void)p;                                                                     \
        return site_fn(data, c, q, NULL, out, NULL, NULL);                           \
    }                                                                                \
    static int Jt_##c(const double *q, const double *p, double *out, void *data)     \
    {                                                                                \
        (void)p;                                                                     \
        return site_fn(data, c, q, NULL, NULL, out, NULL);                           \
    }                                                                                \
    static int x_##c(const double *q, const double *p, double *out, void *data)      \
    {                                                                                \
        (void)p;                                                                     \
        return site_fn(data, c, q, NULL, NULL, NULL, out);                           \
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
        return limit_a(HES_ROBOT_OF(data), l, q, out);                                \
    }                                                                                 \
    static int lDa_##l(const double *q, const double *p, double *out, void *data)    \
    {                                                                                 \
        (void)p, (void)q;                                                             \
        return limit_Da(HES_ROBOT_OF(data), l, out);                                  \
    }
#define X32(F) F(0) F(1) F(2) F(3) F(4) F(5) F(6) F(7) F(8) F(9) F(10) F(11) F(12) F(13) \
    F(14) F(15) F(16) F(17) F(18) F(19) F(20) F(21) F(22) F(23) F(24) F(25) F(26) F(27)  \
    F(28) F(29) F(30) F(31)
X32(LIM_FNS)
#define LA_ENTRY(l) la_##l,
#define LDA_ENTRY(l) lDa_##l,
static const hes_mech_config_fn la_fns[HES_ROBOT_MAX_LIMITS] = { X32(LA_ENTRY) };
static const hes_mech_config_fn lDa_fns[HES_ROBOT_MAX_LIMITS] = { X32(LDA_ENTRY) };

/* The joint limits become constraints where the robot can be a hybrid
 * model (at most HES_MECH_MAX coordinates): two per limited hinge or
 * slide. */
static void collect_limits(hes_robot *r)
{
    const mjModel *m = r->m;
    for (int j = 0; m->nv <= HES_MECH_MAX && j < m->njnt; j++)
        if (m->jnt_limited[j] && (m->jnt_type[j] == mjJNT_HINGE || m->jnt_type[j] == mjJNT_SLIDE))
            for (int side = 0; side < 2; side++) {
                int l = r->n_limits++;
                r->lim_dof[l] = m->jnt_dofadr[j];
                r->lim_val[l] = m->jnt_range[2 * j + side];
                r->lim_sign[l] = side ? -1 : 1;
            }
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
    if ((s < 0 && b <= 0) || !(mu >= 0) || !isfinite(mu))
        return hes__say(msg, len, HES_EINVAL, "robot %s: contact %d (%s): %s", path, c,
                        name ? name : "unnamed",
                        s < 0 && b <= 0 ? "no site or body of that name in the file"
                              : "its friction coefficient must be finite and >= 0");
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
    r->cons[2 * c] = (hes_mech_constraint){ r->names[2 * c], a_fns[c], Da_fns[c], 0, 1, mu,
                                            Jt_fns[c] };
    r->cons[2 * c + 1] = (hes_mech_constraint){ r->names[2 * c + 1], x_fns[c], Jt_fns[c], 0, 0,
                                                0, NULL };
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
        snprintf(name, nl, "%s_%s", jn, r->lim_sign[l] > 0 ? "lower" : "upper");
        r->cons[2 * nc + l] = (hes_mech_constraint){ name, la_fns[l], lDa_fns[l], 0, 1, 0,
                                                     NULL };
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
            snprintf(field, sizeof field, "joint limit %d's name (its joint's, with _lower or "
                     "_upper)", c - 2 * nc);
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
    collect_limits(r);
    int ncons = 2 * nc + r->n_limits;
    r->cons = calloc((size_t)(ncons > 0 ? ncons : 1), sizeof *r->cons);
    r->names = calloc((size_t)(ncons > 0 ? ncons : 1), sizeof *r->names);
    r->n_names = ncons;
    r->site = calloc((size_t)(nc > 0 ? nc : 1), sizeof *r->site);
    if (!r->cons || !r->names || !r->site)
        return hes__say(msg, len, HES_ENOMEM, "out of memory for a robot");
    hes_status st;
    for (int c = 0; c < nc; c++)
        if ((st = contact_constraints(r, c, path, contacts, n_contacts, msg, len)) != HES_OK)
            return st;
    if ((st = limit_constraints(r, msg, len)) != HES_OK)
        return st;
    return check_names(r, path, msg, len);
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
