/*
 * robot_mujoco.c - a robot's MuJoCo model and data, as the other files of
 * the MuJoCo adapter (robot_internal.h) and programs that call MuJoCo see
 * them: the instance of a robot a callback computes on (the robot itself
 * or a free copy of its pool), MuJoCo's data set at a configuration q
 * (qpos, zero velocities), the names of the coordinates and velocities
 * from the file's joints, its reference configuration and the compiled
 * model itself.
 *
 * Coordinates are qpos (nq values), velocities qvel (nv): a ball joint's
 * coordinates are a unit quaternion and its velocity the body's angular
 * velocity in its own frame; a free joint's are its position, then a
 * quaternion, and its velocities the position's rate (world frame), then
 * the angular velocity (hes_mech.quat: where each quaternion starts).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pthread.h>

#include "model/model_internal.h"
#include "model/robot_internal.h"

#include <mujoco/mujoco.h>

/* The instance of a robot a callback computes with, locked (unlock it
 * with HES_ROBOT_UNLOCK): the robot itself, or with a pool
 * (hes__robot_pool: systems of one robot model on several threads) the
 * first instance no other thread holds, so that threads compute side by
 * side; every call sets the state it reads, so any instance gives the same
 * numbers. */
hes_robot *hes__robot_grab(hes_robot *base)
{
    for (int i = 0; i < base->n_pool; i++)
        if (pthread_mutex_trylock(&base->pool[i]->lock) == 0)
            return base->pool[i];
    HES_ROBOT_LOCK(base);
    return base;
}

/* Whether the robot's first two joints slide its root body, a child of
 * the world with the world's orientation, along x and z, without springs.
 * Those slides translate every body rigidly, which changes world
 * positions only: M, the forces (gravity is uniform), every Jacobian and
 * every quantity MuJoCo keeps about the centres of mass are the same at
 * any slides, and a point's world position at slides s is its position at
 * slides 0 plus (s_x, 0, s_z). */
int hes__robot_root_slides(const struct mjModel_ *m)
{
    /* a tendon's length may run to a site on the world */
    if (m->njnt < 3 || m->ntendon > 0)
        return 0;
    int b0 = m->jnt_bodyid[0], b1 = m->jnt_bodyid[1];
    if (m->body_parentid[b0] != 0 || !(b1 == b0 || m->body_parentid[b1] == b0))
        return 0;
    for (int j = 0; j < 2; j++) {
        const double *ax = m->jnt_axis + 3 * j, *bq = m->body_quat + 4 * m->jnt_bodyid[j];
        if (m->jnt_type[j] != mjJNT_SLIDE || m->jnt_dofadr[j] != j || m->jnt_qposadr[j] != j ||
            bq[0] != 1 || bq[1] != 0 || bq[2] != 0 || bq[3] != 0 || ax[1] != 0 ||
            ax[j ? 0 : 2] != 0 || ax[j ? 2 : 0] != 1 || m->jnt_stiffness[j] != 0)
            return 0;
    }
    return 1;
}

int hes__robot_dof_qpos(const hes_robot *r, int dof)
{
    const mjModel *m = r->m;
    if (dof < 0 || dof >= m->nv)
        return -1;
    int j = m->dof_jntid[dof];
    return m->jnt_qposadr[j] + (dof - m->jnt_dofadr[j]);
}

int hes__robot_root_frees(const hes_robot *r, int *qpos, int *dof, int max)
{
    const mjModel *m = r->m;
    int n = 0;
    for (int j = 0; j < m->njnt; j++)
        if (m->jnt_type[j] == mjJNT_FREE && m->body_parentid[m->jnt_bodyid[j]] == 0) {
            if (n < max) {
                qpos[n] = m->jnt_qposadr[j];
                dof[n] = m->jnt_dofadr[j];
            }
            n++;
        }
    return n;
}

/* MuJoCo's position stage at q (mj_kinematics, mj_comPos), once per q:
 * the last q is kept (at_q), and a call at the same q computes nothing.
 * A robot with root slides (hes__robot_root_slides) computes it with the
 * slides at zero, so that configurations that differ only in them (a
 * pinned chart's q and the q~ it starts from) share one pass;
 * hes__robot_point adds them back. */
static void positions(hes_robot *r, const double *q)
{
    int nq = r->m->nq;
    size_t bq = sizeof(double) * (size_t)nq;
    r->at_shift[0] = r->root_slides ? q[0] : 0;
    r->at_shift[2] = r->root_slides ? q[1] : 0;
    if (r->at_valid && memcmp(q + 2 * r->root_slides, r->at_q + 2 * r->root_slides,
                              bq - sizeof(double) * (size_t)(2 * r->root_slides)) == 0)
        return;
    memcpy(r->at_q, q, bq);
    memcpy(r->d->qpos, q, bq);
    if (r->root_slides)
        r->d->qpos[0] = r->d->qpos[1] = 0;
    mj_kinematics(r->m, r->d);
    mj_comPos(r->m, r->d);
    if (r->m->ntendon > 0)   /* their lengths and Jacobians: mj_passive's springs */
        mj_tendon(r->m, r->d);
    r->at_valid = 1;
    r->at_moving = 1;   /* cvel and cdof_dot are of another q */
}

/* Whether body b is body a or below it. */
static int below(const struct mjModel_ *m, int b, int a)
{
    for (; b > 0; b = m->body_parentid[b])
        if (b == a)
            return 1;
    return 0;
}

/* Which root slides carry each contact's point (r->carry: 1 the x slide,
 * 2 the z slide): a point on the world, on another tree or on the x
 * slide's body above a z slide on its child moves with fewer. */
void hes__robot_carry(hes_robot *r)
{
    const mjModel *m = r->m;
    for (int c = 0; c < r->n_contacts; c++) {
        int s = r->site[c], b = s >= 0 ? m->site_bodyid[s] : -s - 1;
        r->carry[c] = r->root_slides ? below(m, b, m->jnt_bodyid[0]) |
                                           2 * below(m, b, m->jnt_bodyid[1])
                                     : 0;
    }
}

/* The world position of contact c's point (a site, or a body's origin)
 * at the configuration of the last hes__robot_at. */
void hes__robot_point(const hes_robot *r, int c, double *x)
{
    int s = r->site[c], b = -s - 1;   /* s < 0: body b's origin */
    const double *p = s >= 0 ? r->d->site_xpos + 3 * s : r->d->xpos + 3 * b;
    memcpy(x, p, 3 * sizeof(double));
    if (r->carry[c] & 1)
        x[0] += r->at_shift[0];
    if (r->carry[c] & 2)
        x[2] += r->at_shift[2];
}

/* The tendons' velocities ten_J q' (mj_fwdVelocity's, which the velocity
 * stage here does not run): mj_passive's tendon dampers read them. */
static void tendon_velocities(hes_robot *r)
{
    const mjModel *m = r->m;
    mjData *d = r->d;
    for (int t = 0; t < m->ntendon; t++) {
        double v = 0;
        if (mj_isSparse(m))
            for (int i = d->ten_J_rowadr[t]; i < d->ten_J_rowadr[t] + d->ten_J_rownnz[t]; i++)
                v += d->ten_J[i] * d->qvel[d->ten_J_colind[i]];
        else
            for (int j = 0; j < m->nv; j++)
                v += d->ten_J[(size_t)t * m->nv + j] * d->qvel[j];
        d->ten_velocity[t] = v;
    }
}

/* positions and the quantities up to the inertia at q */
void hes__robot_at(hes_robot *r, const double *q)
{
    positions(r, q);
}

/* positions and zero velocities at q */
void hes__robot_at_rest(hes_robot *r, const double *q)
{
    positions(r, q);
    /* mj_rne's bias uses cvel and cdof_dot, which a previous call may have
       left at q' != 0 */
    if (r->at_moving) {
        mju_zero(r->d->qvel, r->m->nv);
        mj_comVel(r->m, r->d);
        tendon_velocities(r);
        r->at_moving = 0;
    }
}

/* positions q and velocities v (nv): the velocity stage (mj_comVel) too */
void hes__robot_at_moving(hes_robot *r, const double *q, const double *v)
{
    positions(r, q);
    memcpy(r->d->qvel, v, sizeof(double) * (size_t)r->m->nv);
    mj_comVel(r->m, r->d);
    tendon_velocities(r);
    r->at_moving = 1;
}

/* Joint j's coordinates' and velocities' name suffixes: a free joint's
 * position and quaternion, a ball's quaternion, and their velocities; a
 * hinge or slide is named after its joint alone. */
static const char *const free_q[] = { "_x", "_y", "_z", "_qw", "_qx", "_qy", "_qz" };
static const char *const free_v[] = { "_vx", "_vy", "_vz", "_wx", "_wy", "_wz" };

/* name + suffix, a new string (NULL when out of memory) */
static char *joined(const char *name, const char *suffix)
{
    size_t n = strlen(name) + strlen(suffix) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s", name, suffix);
    return s;
}

/* The quaternions' starts (r->quat, r->mech's d, n_quat and quat) and the
 * names of every coordinate and velocity, each checked as a name of
 * tables and plots (hes_name_check): joint J's (jointJ without a name)
 * plus the suffix of its type. */
hes_status hes__robot_coordinates(hes_robot *r, const char *path, char *msg, size_t len)
{
    const mjModel *m = r->m;
    int nq = m->nq, nv = m->nv, nquat = 0;
    r->quat = malloc(sizeof(int) * (size_t)(nq > 0 ? nq : 1));
    r->coord_names = calloc((size_t)nq, sizeof(char *));
    r->vel_names = calloc((size_t)nv, sizeof(char *));
    if (!r->quat || !r->coord_names || !r->vel_names)
        return hes__say(msg, len, HES_ENOMEM, "out of memory for a robot");
    for (int j = 0; j < m->njnt; j++) {
        int t = m->jnt_type[j], qa = m->jnt_qposadr[j], va = m->jnt_dofadr[j];
        /* the suffixes from the free joint's: a ball's are its last ones */
        int nqj = t == mjJNT_FREE ? 7 : t == mjJNT_BALL ? 4 : 1, nvj = nqj - (nqj > 1);
        if (nqj > 1)
            r->quat[nquat++] = qa + nqj - 4;
        char buf[32];
        const char *jn = mj_id2name(m, mjOBJ_JOINT, j);
        if (!jn) {
            snprintf(buf, sizeof buf, "joint%d", j);
            jn = buf;
        }
        for (int i = 0; i < nqj; i++)
            if (!(r->coord_names[qa + i] = joined(jn, nqj > 1 ? free_q[7 - nqj + i] : "")))
                return hes__say(msg, len, HES_ENOMEM, "out of memory for a robot");
        for (int i = 0; i < nvj; i++)
            if (!(r->vel_names[va + i] = joined(jn, nvj > 1 ? free_v[6 - nvj + i] : "")))
                return hes__say(msg, len, HES_ENOMEM, "out of memory for a robot");
    }
    for (int i = 0; i < nq + nv; i++) {
        const char *name = i < nq ? r->coord_names[i] : r->vel_names[i - nq];
        char field[64];
        snprintf(field, sizeof field, "%s %d's name (its joint's)",
                 i < nq ? "coordinate" : "velocity", i < nq ? i : i - nq);
        hes_error why;
        if (!name || hes_name_check(field, name, &why) != HES_OK)
            return hes__say(msg, len, HES_EINVAL, "robot %s: %s", path,
                            name ? why.message : "a coordinate without a joint");
    }
    r->mech.d = nv;
    r->mech.n_quat = nquat;
    r->mech.quat = nquat ? r->quat : NULL;
    return HES_OK;
}

/* The name of coordinate i (of nq) and of velocity i (of nv). */
const char *hes_robot_coordinate(const hes_robot *r, int i)
{
    return r && i >= 0 && i < r->nq ? r->coord_names[i] : NULL;
}

const char *hes_robot_velocity_name(const hes_robot *r, int i)
{
    return r && i >= 0 && i < r->nv ? r->vel_names[i] : NULL;
}

/* The file's reference configuration: MuJoCo's qpos0. */
hes_status hes_robot_reference(const hes_robot *r, double *q)
{
    if (!r || !q)
        return HES_EINVAL;
    memcpy(q, r->m->qpos0, sizeof(double) * (size_t)r->m->nq);
    return HES_OK;
}

/* The compiled model, for programs that call MuJoCo themselves. */
const void *hes_robot_mujoco_model(const hes_robot *r)
{
    return r ? r->m : NULL;
}
