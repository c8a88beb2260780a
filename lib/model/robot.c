/*
 * robot.c - robots (hes_robot): mechanical systems (hes_mech) from robot
 * description files, MJCF or URDF, in every build.  Here are the public
 * calls' argument checks, after which each call is the MuJoCo adapter's
 * (robot_internal.h: robot_load.c, robot_dynamics.c, robot_motor.c,
 * robot_view.c, ...) or, in a build without MuJoCo, robot_none.c's
 * refusal; and what needs no MuJoCo: copies of a robot and a robot
 * model's pool of them, freeing, the contacts' names and friction, the
 * motors' count, the model's parameters bound to the robot and the
 * fields of a transition's view.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_internal.h"
#include "model/robot_internal.h"

/* The robot of the file at path, with the given contacts (NULL, 0: every
 * site of the file). */
hes_status hes_robot_read(const char *path, const hes_robot_contact *contacts, int n_contacts,
                          hes_robot **out, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (out)
        *out = NULL;
    if (!path || !out || n_contacts < 0 || (n_contacts > 0 && !contacts))
        return hes__say(msg, len, HES_EINVAL, "robot: needs a file, and contacts when "
                        "n_contacts > 0");
    return hes__robot_open(path, contacts, n_contacts, out, msg, len);
}

/* The robot, its pool's copies, and all they hold. */
void hes_robot_destroy(hes_robot *r)
{
    if (!r)
        return;
    for (int i = 1; i < r->n_pool; i++)
        hes_robot_destroy(r->pool[i]);
    free(r->pool);
    hes__robot_destroy(r);
}

/* Another robot of the same file and contacts (with their friction). */
hes_status hes_robot_copy(const hes_robot *r, hes_robot **out, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (out)
        *out = NULL;
    if (!r || !out)
        return hes__say(msg, len, HES_EINVAL, "robot copy: needs a robot");
    int nc = r->n_contacts;
    hes_robot_contact *c = malloc(sizeof *c * (size_t)(nc > 0 ? nc : 1));
    if (!c)
        return hes__say(msg, len, HES_ENOMEM, "robot copy: out of memory");
    for (int i = 0; i < nc; i++)
        c[i] = (hes_robot_contact){ r->names[2 * i], r->cons[2 * i].mu };
    hes_status st = hes_robot_read(r->path, c, nc, out, err);
    free(c);
    return st;
}

/* n - 1 copies of the robot with its bound parameters (robot_internal.h). */
hes_status hes__robot_pool(hes_robot *r, int n, char *msg, size_t len)
{
    if (r->motors_set)
        n = 1;                 /* motors replaced (hes_robot_set_motors): no copies */
    if (r->n_pool > 0 || n <= 1)
        return HES_OK;
    hes_robot **pool = calloc((size_t)n, sizeof *pool);
    if (!pool)
        return hes__say(msg, len, HES_ENOMEM, "out of memory");
    pool[0] = r;
    for (int i = 1; i < n; i++) {
        hes_error e;
        hes_status st = hes__err_pass(hes_robot_copy(r, &pool[i], &e), &e, msg, len);
        if (st != HES_OK) {
            for (int j = 1; j < i; j++)
                hes_robot_destroy(pool[j]);
            free(pool);
            return st;
        }
        pool[i]->slope_param = r->slope_param;
        pool[i]->motor_param = r->motor_param;
        pool[i]->ctl = r->ctl;
        pool[i]->g0 = r->g0;
    }
    r->pool = pool;
    r->n_pool = n;
    return HES_OK;
}

/* M, h, B, the contact rows, heights and drift at (q, v). */
hes_status hes_robot_dynamics_at(hes_robot *r, const double *q, const double *v,
                                 hes_robot_dynamics *out, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (!r || !q || !v || !out)
        return hes__say(msg, len, HES_EINVAL, "robot dynamics: needs a robot, q, v and out");
    return hes__robot_dynamics(r, q, v, out, msg, len);
}

/* Unit motors on the named joints in place of the file's. */
hes_status hes_robot_set_motors(hes_robot *r, const char *const *joints, int n, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (!r || n < 1 || !joints)
        return hes__say(msg, len, HES_EINVAL, "motors: needs a robot and at least one joint");
    return hes__robot_motors(r, joints, n, msg, len);
}

/* Gravity turned about the y axis by the slope. */
hes_status hes_robot_set_slope(hes_robot *r, double slope)
{
    if (!r || !hes__robot_slope_ok(slope))
        return HES_EINVAL;
    return hes__robot_gravity(r, slope);
}

/* The mode that pins one of the robot's contacts. */
hes_status hes_robot_pinned_mode(const hes_robot *r, int contact, hes_mech_mode *out, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (!r || !out || contact < 0 || contact >= r->n_contacts)
        return hes__say(msg, len, HES_EINVAL, "pinned mode: needs a robot and one of its "
                        "contacts (0 to %d)", r ? r->n_contacts - 1 : -1);
    return hes__robot_pinned(r, contact, out, msg, len);
}

/* One contact's friction coefficient, or every contact's (contact -1). */
hes_status hes_robot_set_friction(hes_robot *r, int contact, double mu)
{
    if (!r || contact < -1 || contact >= r->n_contacts || !(mu >= 0))
        return HES_EINVAL;
    for (int c = 0; c < r->n_contacts; c++)
        if (contact < 0 || c == contact) {
            r->cons[2 * c].mu = mu;
            r->dmu[c] = mu;
        }
    return HES_OK;
}

/* A transition view from mode view `from` to `to` (robot_internal.h); its
 * callbacks are the views' (hes__robot_transition_fns). */
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
    hes__robot_transition_fns(tr);
}

/* A robot model's parameters: the slope's index, the motors' indices. */
void hes__robot_bind_params(hes_robot *r, int slope_param, int *motor_param)
{
    r->slope_param = slope_param;
    r->motor_param = motor_param;
}

void hes__robot_bind_control(hes_robot *r, const hes__robot_control *ctl)
{
    r->ctl = ctl;
    for (int i = 1; i < r->n_pool; i++)
        r->pool[i]->ctl = ctl;
}

/* The robot's counts and names (hes/robot.h), 0 or NULL without a robot. */
int hes_robot_motor_count(const hes_robot *r)
{
    return r ? r->nu : 0;
}

int hes_robot_contact_count(const hes_robot *r)
{
    return r ? r->n_contacts : 0;
}

int hes_robot_limit_count(const hes_robot *r)
{
    return r ? r->n_limits : 0;
}

const char *hes_robot_contact_name(const hes_robot *r, int i)
{
    return r && i >= 0 && i < r->n_contacts ? r->names[2 * i] : NULL;
}

hes_status hes_robot_dims(const hes_robot *r, int *nq, int *nv)
{
    if (!r)
        return HES_EINVAL;
    if (nq)
        *nq = r->nq;
    if (nv)
        *nv = r->nv;
    return HES_OK;
}

const hes_mech *hes_robot_mech(const hes_robot *r)
{
    return r ? &r->mech : NULL;
}
