/*
 * gait_invdyn.c - inverse dynamics with contact along a gait of a robot
 * model (`hes invdyn --orbit GAIT.json --robot DESC.json`).
 *
 * At every node of every phase the robot's motion is exact, not sampled:
 * q = chart(z), v = Dchart z', a = Dchart z'' + D^2 chart[z', z'], with z''
 * the mode's vector field at the node's inputs (hes_robot_model_motion).
 * The stance contacts are the mode's pinned contact; gravity is turned by
 * the gait's slope (hes_robot_set_slope).  A joint the mode
 * locks at its limit (a knee stop) is held by that stop, not by a motor;
 * inverse dynamics sees the stop as one more motor on that joint, so that
 * its torque is the stop's force (it must push: the torque's sign is the
 * limit's side); a locked joint that has a motor gets the motor's torque and
 * the stop's together.  The motors are the robot's (unit torques on their
 * joints) and the stops; a pinned point foot then leaves as many unknowns
 * as equations, so the torques are the gait's own inputs and the contact
 * force is the pinned contact's constraint force (tests/test_robot.c
 * checks both).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>

#include "base/base.h"

hes_status hes_invdyn_gait(const hes_model *model, const hes_gait *g,
                           const hes_invdyn_run_options *opts, hes_robot **robot_out,
                           hes_invdyn_run *out, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (robot_out)
        *robot_out = NULL;
    if (!model || !g || !robot_out || !out)
        return hes__say(msg, len, HES_EINVAL, "gait inverse dynamics: needs a model, a gait and "
                        "outputs");
    memset(out, 0, sizeof *out);
    hes_robot *base = hes_robot_model_robot(model);
    if (!base)
        return hes__say(msg, len, HES_EINVAL, "model '%s' is not a robot model: inverse dynamics "
                        "along a gait needs the robot (a gait of a --robot DESC.json model)",
                        model->name);
    if (g->n_params != model->n_params || g->n_phases < 1)
        return hes__say(msg, len, HES_EINVAL, "gait inverse dynamics: the gait is not one of "
                        "model '%s'", model->name);
    const hes_mech *mech = hes_robot_mech(base);
    int d = mech->d, nq = hes_mech_nq(mech), nc = hes_robot_contact_count(base), nodes = 0;
    for (int i = 0; i < g->n_phases; i++) {
        if (g->phases[i].mode < 0 || g->phases[i].mode >= model->n_modes ||
            g->phases[i].nodes < 1)
            return hes__say(msg, len, HES_EINVAL, "gait inverse dynamics: phase %d is not a "
                            "phase of model '%s'", i + 1, model->name);
        nodes += g->phases[i].nodes;
    }
    size_t N = (size_t)nodes;
    /* q: nodes x nq (quaternions), v and a: nodes x d, as hes_invdyn_trajectory reads them */
    double *t = malloc(sizeof(double) * N), *q = malloc(sizeof(double) * N * (size_t)nq);
    double *v = malloc(sizeof(double) * N * (size_t)d), *a = malloc(sizeof(double) * N * (size_t)d);
    double *p = malloc(sizeof(double) * (size_t)(g->n_params > 0 ? g->n_params : 1));
    int *stance = calloc(N * (size_t)(nc > 0 ? nc : 1), sizeof(int));
    hes_status st = HES_OK;
    hes_robot *r = NULL;
    /* per coordinate: locked in some mode, driven by a motor; the motors'
       joints (the robot's, then the stops of locked joints); a mode's
       locked coordinates */
    int *locked = calloc((size_t)d, sizeof *locked), *has = calloc((size_t)d, sizeof *has);
    int *mo_locked = malloc(sizeof *mo_locked * (size_t)d);
    const char **joints = NULL;
    if (!t || !q || !v || !a || !p || !stance || !locked || !has || !mo_locked) {
        st = hes__say(msg, len, HES_ENOMEM, "out of memory");
        goto done;
    }
    double T = 0;
    for (int i = 0, n = 0; i < g->n_phases; i++) {
        const hes_gait_phase *ph = &g->phases[i];
        int dim = model->modes[ph->mode].dim;
        for (int j = 0; j < ph->nodes; j++, n++) {
            memcpy(p, g->params, sizeof(double) * (size_t)g->n_params);
            const double *u = ph->u + (size_t)(ph->u_rows == 1 ? 0 : j) * (size_t)g->n_inputs;
            for (int k = 0; k < g->n_inputs; k++)
                p[g->inputs[k]] = u[k];
            double tj = ph->nodes > 1 ? ph->duration * j / (ph->nodes - 1) : 0;
            hes_robot_mode_motion mo = { .q = q + (size_t)n * nq, .v = v + (size_t)n * d,
                                         .a = a + (size_t)n * d, .locked = mo_locked };
            hes_error why;
            if ((st = hes_robot_model_motion(model, ph->mode, tj, ph->x + (size_t)j * dim, p,
                                             &mo, &why)) != HES_OK) {
                hes__say(msg, len, st, "gait inverse dynamics: phase %d, node %d: %s", i + 1,
                         j + 1, why.message);
                goto done;
            }
            t[n] = T + tj;
            if (mo.pinned >= 0)
                stance[(size_t)n * nc + mo.pinned] = 1;
            for (int l = 0; l < mo.n_locked; l++)
                locked[mo.locked[l]] = 1;
        }
        T += ph->duration;
    }
    /* the motors: the robot's joints, then the stops of locked joints */
    int nm = 0, nu = hes_robot_motor_count(base);
    if (!(joints = malloc(sizeof *joints * (size_t)(nu + d)))) {
        st = hes__say(msg, len, HES_ENOMEM, "out of memory");
        goto done;
    }
    for (int m = 0; m < nu; m++) {
        const char *jn = hes_robot_motor_joint(base, m);
        for (int i = 0; jn && i < d; i++)
            if (hes_robot_coordinate(base, i) && strcmp(hes_robot_coordinate(base, i), jn) == 0)
                has[i] = 1;
        if (jn)
            joints[nm++] = jn;
    }
    for (int i = 0; i < d; i++)
        if (locked[i] && !has[i] && hes_robot_coordinate(base, i))
            joints[nm++] = hes_robot_coordinate(base, i);
    if ((st = hes_robot_copy(base, &r, err)) != HES_OK)
        goto done;
    if (nm > 0 && (st = hes_robot_set_motors(r, joints, nm, err)) != HES_OK)
        goto done;
    int slope = hes_model_param_index(model, "slope");
    if (slope >= 0 && hes_robot_set_slope(r, g->params[slope]) != HES_OK) {
        st = hes__say(msg, len, HES_EINVAL, "gait inverse dynamics: slope %g out of range",
                      g->params[slope]);
        goto done;
    }
    st = hes_invdyn_trajectory(r, nodes, t, q, v, a, stance, opts, out, err);
done:
    free(t), free(q), free(v), free(a), free(p), free(stance);
    free(locked), free(has), free(mo_locked), free(joints);
    if (st != HES_OK && st != HES_EINFEASIBLE) {
        hes_robot_destroy(r);
        r = NULL;
    }
    *robot_out = r;
    return st;
}
