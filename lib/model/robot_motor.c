/*
 * robot_motor.c - a robot's inputs and slope, through MuJoCo's model:
 *   motors          the file's joint motors (actuators on a joint): the
 *                   force gear * gain * u on the joint's dof, u limited by
 *                   the control range and the force range over the gain;
 *                   or, replacing them (hes_robot_set_motors), unit torques
 *                   or forces on named joints, without limits; motors
 *                   drive hinges and slides (one on a ball or free joint
 *                   is refused, naming it);
 *   inputs          a robot model's motor torques: u[a] = p[motor_param[a]]
 *                   (zero for a motor without a parameter), plus its joint
 *                   feedback about a periodic reference (hes_robot_control):
 *                   kp (r(t) - q) + kd (r'(t) - q') with the reference
 *                   r(t) = a0 + sum_k a_k cos(k w t) + b_k sin(k w t),
 *                   w = 2 pi / T, on the state [q, v] of a mode of every
 *                   coordinate;
 *   slope           gravity turned about the y axis by s: g = |g| (sin s,
 *                   0, -cos s), level ground z = 0 then being the slope
 *                   (downhill towards +x).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdlib.h>

#include "model/model_internal.h"
#include "model/robot_internal.h"

#include <mujoco/mujoco.h>

/* B (nv x nu, column-major) and the motors' limits of the file's
 * actuators, which act on joints (robot_load.c refuses others). */
void hes__robot_file_motors(hes_robot *r)
{
    const mjModel *m = r->m;
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
    r->nu = m->nu;
}

/* hes_robot_set_motors once its arguments are checked (robot.c): a unit
 * column of B per named joint, no limits. */
hes_status hes__robot_motors(hes_robot *r, const char *const *joints, int n, char *msg,
                             size_t len)
{
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
        if (j >= 0 && (r->m->jnt_type[j] == mjJNT_FREE || r->m->jnt_type[j] == mjJNT_BALL)) {
            free(B), free(lim);
            return hes__say(msg, len, HES_EINVAL, "motors: '%s' is a %s joint: motors drive "
                            "hinge and slide joints", joints[a],
                            r->m->jnt_type[j] == mjJNT_FREE ? "free" : "ball");
        }
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
    r->nf_valid = 0;   /* the net force's B u */
    r->mech.m = n;
    return HES_OK;
}

/* The joint motor a drives: the joint of its column of B (a hinge's or
 * slide's, whose velocity is named after it). */
const char *hes_robot_motor_joint(const hes_robot *r, int a)
{
    if (!r || a < 0 || a >= r->nu)
        return NULL;
    for (int i = 0; i < r->m->nv; i++)
        if (r->B[i + (size_t)a * r->m->nv] != 0)
            return hes_robot_velocity_name(r, i);
    return NULL;
}

/* The file's name of actuator a (NULL without one, or once
 * hes_robot_set_motors replaced the file's motors). */
const char *hes__robot_motor_name(const hes_robot *r, int a)
{
    return a >= 0 && a < r->nu && !r->motors_set ? mj_id2name(r->m, mjOBJ_ACTUATOR, a) : NULL;
}

/* A mode's inputs (hes_mech_mode.input): the motor parameters bound by
 * hes__robot_bind_params. */
int hes__robot_input(double t, const double *x, const double *p, double *u, void *data)
{
    const hes_robot *r = HES_ROBOT_OF(data);
    for (int a = 0; a < r->nu; a++)
        u[a] = r->motor_param && r->motor_param[a] >= 0 && p ? p[r->motor_param[a]] : 0;
    const hes__robot_control *c = r->ctl;
    if (!c || !p)
        return 0;
    double T = p[c->period_param], kp = p[c->kp_param], kd = p[c->kd_param];
    double w = 2 * 3.14159265358979323846 / T;
    const double *v = x + r->m->nq;
    for (int a = 0; a < r->nu; a++) {
        if (!c->tracked[a])
            continue;
        const double *co = c->coef + (size_t)a * (2 * c->K + 1);
        double ref = co[0], dref = 0;
        for (int k = 1; k <= c->K; k++) {
            double ck = cos(k * w * t), sk = sin(k * w * t);
            ref += co[2 * k - 1] * ck + co[2 * k] * sk;
            dref += k * w * (co[2 * k] * ck - co[2 * k - 1] * sk);
        }
        u[a] += kp * (ref - x[c->qpos[a]]) + kd * (dref - v[c->dof[a]]);
    }
    return 0;
}

/* Gravity of the file's magnitude turned by the slope (checked by the
 * caller: hes__robot_slope_ok). */
hes_status hes__robot_gravity(hes_robot *r, double slope)
{
    HES_ROBOT_LOCK(r);
    r->m->opt.gravity[0] = r->g0 * sin(slope);
    r->m->opt.gravity[1] = 0;
    r->m->opt.gravity[2] = -r->g0 * cos(slope);
    HES_ROBOT_UNLOCK(r);
    return HES_OK;
}
