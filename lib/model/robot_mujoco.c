/*
 * robot_mujoco.c - a robot's MuJoCo model and data, as the other files of
 * the MuJoCo adapter (robot_internal.h) and programs that call MuJoCo see
 * them: the instance of a robot a callback computes on (the robot itself
 * or a free copy of its pool), MuJoCo's data set at a configuration q
 * (qpos, zero velocities), the file's joint names of the coordinates, its
 * reference configuration and the compiled model itself.
 *
 * Coordinates are qpos: robots with free or ball joints (quaternions, nq
 * != nv) are refused when loaded (robot_load.c).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <pthread.h>

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

/* positions, zero velocities and the quantities up to the inertia at q */
void hes__robot_at(hes_robot *r, const double *q)
{
    memcpy(r->d->qpos, q, sizeof(double) * (size_t)r->m->nq);
    mju_zero(r->d->qvel, r->m->nv);
    mj_kinematics(r->m, r->d);
    mj_comPos(r->m, r->d);
    /* zero velocities: mj_rne's bias uses cvel and cdof_dot, which a
       previous call (a chart's acceleration) may have left at q' != 0 */
    mj_comVel(r->m, r->d);
}

/* The joint of coordinate i: the joint whose first dof it is. */
const char *hes_robot_coordinate(const hes_robot *r, int i)
{
    if (!r || i < 0 || i >= r->m->nv)
        return NULL;
    for (int j = 0; j < r->m->njnt; j++)
        if (r->m->jnt_dofadr[j] == i)
            return mj_id2name(r->m, mjOBJ_JOINT, j);
    return NULL;
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
