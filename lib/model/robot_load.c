/*
 * robot_load.c - a robot's lifetime: its file (MJCF or URDF) loaded and
 * compiled by MuJoCo's C API (Debian libmujoco-dev 2.2.2, detected by
 * configure), the compiled model checked and refused where hes cannot
 * use it, the robot made from it (its constraints, robot_contact.c; its
 * motors, robot_motor.c; its mechanical system, robot_dynamics.c; buffers
 * by its size, none fixed) and freed.
 *
 * The file is read as any input (hes_input_read), checked before MuJoCo
 * sees it (robot_xml.c) and compiled from that text through a virtual
 * file system of one file; a load on which MuJoCo warns is refused
 * (mujoco_msg.c).  Every mass, inertia, length, gain and the gravity of
 * the compiled model must be finite and within MuJoCo's mjMAXVAL, masses
 * and inertias >= 0; actuators that do not drive a joint are refused.
 * Coordinates are qpos (nq values) and velocities qvel (nv): a ball
 * joint's orientation is a unit quaternion among the coordinates and its
 * velocity the body's angular velocity, a free joint's the same after its
 * position (hes_mech.quat, set here).  A robot has any number of
 * coordinates, contacts and joint limits.
 *
 * A robot keeps one mjData, so one robot serves one thread: load it once
 * per thread for parallel work (or let a robot model's pool do it,
 * hes__robot_pool).
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

#include <mujoco/mujoco.h>

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

/* The compiled model's numbers (check_values), and a joint that moves. */
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
    hes_error why;
    hes_status st = hes_input_read(path, 0, &text, &n, &why);
    if (st != HES_OK)
        return hes__say(msg, len, st == HES_ENOTFOUND || st == HES_EIO ? HES_EINVAL : st,
                        "robot: %s", why.message);
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

/* The compiled model's refusals before a robot is made: a contact given
 * twice, an actuator that does not act on a joint. */
static hes_status refuse_model(const char *path, const mjModel *m,
                               const hes_robot_contact *contacts, int n_contacts, char *msg,
                               size_t len)
{
    for (int c = 0; c < n_contacts; c++)
        for (int e = 0; e < c; e++)
            if (contacts[c].site && contacts[e].site &&
                strcmp(contacts[c].site, contacts[e].site) == 0)
                return hes__say(msg, len, HES_EINVAL, "robot %s: contact '%s' given twice (as "
                                "contacts %d and %d): give each contact once", path,
                                contacts[c].site, e, c);
    for (int a = 0; a < m->nu; a++) {
        if (m->actuator_trntype[a] != mjTRN_JOINT)
            return hes__say(msg, len, HES_EINVAL, "robot %s: actuator %d does not act on a "
                            "joint (only joint motors are supported)", path, a);
        int j = m->actuator_trnid[2 * a];
        if (m->jnt_type[j] == mjJNT_FREE || m->jnt_type[j] == mjJNT_BALL) {
            const char *an = mj_id2name(m, mjOBJ_ACTUATOR, a), *jn = mj_id2name(m, mjOBJ_JOINT, j);
            return hes__say(msg, len, HES_EINVAL, "robot %s: actuator %d (%s) drives the %s "
                            "joint %s: motors drive hinge and slide joints", path, a,
                            an ? an : "unnamed", m->jnt_type[j] == mjJNT_FREE ? "free" : "ball",
                            jn ? jn : "without a name");
        }
    }
    return HES_OK;
}

/* A robot of model m (which it takes, freed on failure too) and nc
 * contacts: its lock, MuJoCo's data, its views of pinned modes and B. */
static hes_status new_robot(const char *path, mjModel *m, int nc, hes_robot **out, char *msg,
                            size_t len)
{
    *out = NULL;
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
    r->nq = m->nq;
    r->nv = m->nv;
    hes__mj_scope sc;
    hes__mj_enter(&sc);
    if (setjmp(sc.jump) == 0)
        r->d = mj_makeData(m);
    hes__mj_leave(&sc);
    r->n_contacts = nc;
    r->pins = calloc((size_t)(nc > 0 ? nc : 1), sizeof *r->pins);
    r->B = calloc((size_t)m->nv * (size_t)(m->nu > 0 ? m->nu : 1), sizeof *r->B);
    if (!r->d || !r->B || !r->pins || !r->path) {
        hes__robot_destroy(r);
        return hes__say(msg, len, HES_ENOMEM, "out of memory for a robot");
    }
    *out = r;
    return HES_OK;
}

/* The arrays of the callbacks and of hes_robot_dynamics_at, by the robot's
 * size; dM/dq's (nv^3 values) for robots the mechanical layer takes. */
static hes_status alloc_buffers(hes_robot *r, char *msg, size_t len)
{
    const mjModel *m = r->m;
    int nv = m->nv, nc = r->n_contacts, rows = 3 * (nc > 0 ? nc : 1);
    r->tau_max = calloc((size_t)(m->nu > 0 ? m->nu : 1), sizeof(double));
    r->dM = malloc(sizeof(double) * (size_t)nv * (size_t)nv);
    r->dh = malloc(sizeof(double) * (size_t)nv);
    r->qs = malloc(sizeof(double) * (size_t)m->nq);
    r->jac = malloc(sizeof(double) * (size_t)(3 * nv));
    r->dJ = malloc(sizeof(double) * (size_t)rows * (size_t)nv);
    r->Jp = malloc(sizeof(double) * (size_t)rows * (size_t)nv);
    r->Jm = malloc(sizeof(double) * (size_t)rows * (size_t)nv);
    r->dJdv = malloc(sizeof(double) * (size_t)rows);
    r->dphi = malloc(sizeof(double) * (size_t)(nc > 0 ? nc : 1));
    r->dmu = malloc(sizeof(double) * (size_t)(nc > 0 ? nc : 1));
    size_t bq = sizeof(double) * (size_t)m->nq, bv = sizeof(double) * (size_t)nv,
           bm = bv * (size_t)nv;
    r->cM_q = malloc(bq);
    r->cM = malloc(bm);
    r->vq = malloc(bq);
    r->vD = malloc(bm);
    r->rne = malloc(bv);
    r->path_q = malloc(bq);
    if (nv <= HES__MECH_DM_MAX) {   /* dM/dq's cube (mass_dq) */
        r->cD_q = malloc(bq);
        r->cD = malloc(bm * (size_t)nv);
    }
    if (!r->tau_max || !r->dM || !r->dh || !r->qs || !r->jac || !r->dJ || !r->Jp || !r->Jm ||
        !r->dJdv || !r->dphi || !r->dmu || !r->cM_q || !r->cM || !r->vq || !r->vD || !r->rne ||
        !r->path_q ||
        (nv <= HES__MECH_DM_MAX && (!r->cD_q || !r->cD)))
        return hes__say(msg, len, HES_ENOMEM, "out of memory for a robot");
    return hes__robot_eval_alloc(r, msg, len);
}

/* hes_robot_read once its arguments are checked (robot.c). */
hes_status hes__robot_open(const char *path, const hes_robot_contact *contacts, int n_contacts,
                           hes_robot **out, char *msg, size_t len)
{
    mjModel *m;
    hes_status st = load_model(path, &m, msg, len);
    if (st != HES_OK)
        return st;
    int nc = n_contacts ? n_contacts : m->nsite;
    if ((st = refuse_model(path, m, contacts, n_contacts, msg, len)) != HES_OK) {
        mj_deleteModel(m);
        return st;
    }
    hes_robot *r;
    if ((st = new_robot(path, m, nc, &r, msg, len)) != HES_OK)
        return st;
    if ((st = hes__robot_coordinates(r, path, msg, len)) != HES_OK ||
        (st = hes__robot_constraints(r, path, contacts, n_contacts, msg, len)) != HES_OK ||
        (st = alloc_buffers(r, msg, len)) != HES_OK) {
        hes__robot_destroy(r);
        return st;
    }
    r->root_slides = hes__robot_root_slides(m);
    r->at_valid = 0;   /* a position stage kept from before was at the slides */
    hes__robot_carry(r);
    hes__robot_file_motors(r);
    for (int c = 0; c < nc; c++)
        r->dmu[c] = r->cons[2 * c].mu;
    hes__robot_tangents(r);
    if ((st = hes__robot_constraints_y(r, path, msg, len)) != HES_OK) {
        hes__robot_destroy(r);
        return st;
    }
    r->mech = (hes_mech){ .name = "robot", .d = m->nv, .mass = hes__robot_mass,
                          .mass_dq = m->nv <= HES__MECH_DM_MAX ? hes__robot_mass_dq : NULL,
                          .force = hes__robot_force, .m = m->nu, .n_constraints = r->n_names,
                          .constraints = r->cons, .data = r,
                          .net_force = hes__robot_net_force,
                          .net_force_dx = r->rne_ok ? hes__robot_net_force_dx : NULL,
                          .n_quat = r->mech.n_quat, .quat = r->mech.quat };
    *out = r;
    return HES_OK;
}

/* MuJoCo's model and data, the robot's arrays and names, its lock. */
void hes__robot_destroy(hes_robot *r)
{
    if (r->d)
        mj_deleteData(r->d);
    if (r->m)
        mj_deleteModel(r->m);
    free(r->site);
    free(r->fric);
    free(r->B);
    free(r->tau_max);
    free(r->dM), free(r->dh), free(r->dJ), free(r->dJdv), free(r->dphi), free(r->dmu);
    free(r->jac), free(r->Jp), free(r->Jm), free(r->qs);
    free(r->cM_q), free(r->cM), free(r->cD_q), free(r->cD), free(r->vq), free(r->vD);
    free(r->rne), free(r->path_q);
    free(r->at_q), free(r->ev_v), free(r->ev_acc), free(r->rne_work);
    free(r->ev_eye), free(r->ev_m), free(r->ev_w), free(r->ch_z), free(r->ch_zd), free(r->ch_S),
        free(r->ev_zero);
    free(r->ev_q), free(r->ev_dq), free(r->nf_key), free(r->nf_out);
    free(r->carry);
    for (int c = 0; r->names && c < r->n_names; c++)
        free(r->names[c]);
    free(r->names);
    free(r->cons);
    free(r->con_data);
    free(r->lim_dof), free(r->lim_qpos), free(r->lim_val), free(r->lim_sign);
    free(r->quat);
    for (int i = 0; r->coord_names && i < r->nq; i++)
        free(r->coord_names[i]);
    for (int i = 0; r->vel_names && i < r->nv; i++)
        free(r->vel_names[i]);
    free(r->coord_names), free(r->vel_names);
    for (int c = 0; r->pins && c < r->n_contacts; c++)
        hes__robot_view_free(&r->pins[c]);
    free(r->pins);
    free(r->path);
    pthread_mutex_destroy(&r->lock);
    free(r);
}
