/*
 * robot_none.c - robots in a build without MuJoCo (configure found no
 * libmujoco-dev, or was told --without-mujoco): the MuJoCo adapter of
 * robot_internal.h and the calls that read MuJoCo's model, each refusing.
 * No robot file loads (hes__robot_open: HES_ESOLVER, saying how to get
 * MuJoCo), so no robot is ever made: the calls that take one answer as a
 * robot file's call does without MuJoCo, HES_ESOLVER "robot files need
 * MuJoCo", NULL or nothing.  Their argument checks are robot.c's, shared
 * with the MuJoCo build.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "model/model_internal.h"
#include "model/robot_internal.h"

/* The refusal of a call that needs a robot's MuJoCo model. */
static hes_status no_mujoco(char *msg, size_t len)
{
    return hes__say(msg, len, HES_ESOLVER, "robot files need MuJoCo");
}

hes_status hes__robot_open(const char *path, const hes_robot_contact *contacts, int n_contacts,
                           hes_robot **out, char *msg, size_t len)
{
    (void)path, (void)contacts, (void)n_contacts, (void)out;
    return hes__say(msg, len, HES_ESOLVER, "robot files need MuJoCo: hes was built without it "
                    "(install the Debian package libmujoco-dev and run configure again)");
}

/* No robot is made here, so there is nothing to free. */
void hes__robot_destroy(hes_robot *r)
{
    (void)r;
}

hes_status hes__robot_dynamics(hes_robot *r, const double *q, const double *v,
                               hes_robot_dynamics *out, char *msg, size_t len)
{
    (void)r, (void)q, (void)v, (void)out;
    return no_mujoco(msg, len);
}

hes_status hes__robot_motors(hes_robot *r, const char *const *joints, int n, char *msg,
                             size_t len)
{
    (void)r, (void)joints, (void)n;
    return no_mujoco(msg, len);
}

hes_status hes__robot_gravity(hes_robot *r, double slope)
{
    (void)r, (void)slope;
    return HES_ESOLVER;
}

hes_status hes__robot_pinned(const hes_robot *r, int contact, hes_mech_mode *out, char *msg,
                             size_t len)
{
    (void)r, (void)contact, (void)out;
    return no_mujoco(msg, len);
}

hes_status hes__robot_mode_view(hes_robot *r, int pinned, int n_locked, const int *locked,
                                hes__robot_view *v, char *msg, size_t len)
{
    (void)r, (void)pinned, (void)n_locked, (void)locked, (void)v;
    return no_mujoco(msg, len);
}

hes_status hes__robot_view_hold(hes__robot_view *v, int n, const int *held, int n_slide,
                                const int *slide, char *msg, size_t len)
{
    (void)v, (void)n_slide, (void)slide, (void)n, (void)held;
    return no_mujoco(msg, len);
}

/* no view without MuJoCo holds anything: zeroed */
void hes__robot_view_free(hes__robot_view *v)
{
    memset(v, 0, sizeof *v);
}

/* no view without MuJoCo: hes__robot_mode_view refuses */
void hes__robot_view_mode(const hes__robot_view *v, hes_mech_mode *out)
{
    *out = (hes_mech_mode){ .mech = &v->mech, .k = v->k };
}

/* no pool without MuJoCo (no robot is made): the robot itself */
hes_robot *hes__robot_grab(hes_robot *base)
{
    HES_ROBOT_LOCK(base);
    return base;
}

/* A transition view keeps no callbacks. */
void hes__robot_transition_fns(hes_mech_transition *tr)
{
    (void)tr;
}

const char *hes__robot_motor_name(const hes_robot *r, int a)
{
    (void)r, (void)a;
    return NULL;
}

const char *hes_robot_motor_joint(const hes_robot *r, int a)
{
    (void)r, (void)a;
    return NULL;
}

const char *hes_robot_coordinate(const hes_robot *r, int i)
{
    (void)r, (void)i;
    return NULL;
}

const char *hes_robot_velocity_name(const hes_robot *r, int i)
{
    (void)r, (void)i;
    return NULL;
}

hes_status hes_robot_reference(const hes_robot *r, double *q)
{
    (void)r, (void)q;
    return HES_ESOLVER;
}

const void *hes_robot_mujoco_model(const hes_robot *r)
{
    (void)r;
    return NULL;
}

int hes__robot_root_frees(const hes_robot *r, int *qpos, int *dof, int max)
{
    (void)r, (void)qpos, (void)dof, (void)max;
    return 0;
}

int hes__robot_dof_qpos(const hes_robot *r, int dof)
{
    (void)r, (void)dof;
    return -1;
}
