/*
 * robot_model.c - a hybrid model (hes_model) from a robot file and a
 * description of its modes and transitions: what a walker
 * written by hand in problems/ spells out in C, here from data.
 *
 * Modes.  A mode holds a set of the robot's constraints (hes_robot_mech:
 * contact normals 2 i, their no-slip rows 2 i + 1, then the joint limits):
 * a pinned contact (normal and no-slip: a stance foot) and joint limits
 * (a locked knee).  Its coordinates z are the robot's coordinates less the
 * ones these fix: the chart q(z) sets a locked joint to its limit and
 * slides the root so that the pinned contact is at the origin
 * (lib/model/robot.c).  Its state is [z, z'] with the joints' names, the
 * rates "NAMEdot".  Its inputs are the model's motor parameters.
 *
 * Transitions.  An activation (a contact's normal or a joint limit
 * reaching zero, direction down) applies the plastic impact law of
 * lib/model/mech.c with the constraints `after`, in the robot's full
 * coordinates reached through the source mode's chart.  A constraint the
 * source holds and the impact keeps is a pin through the impact (its
 * impulse may pull, as in a hand-written model whose pinned minimal
 * coordinates have no such constraint: the knee biped's stance foot at
 * its kneestrike); a contact leaves the ground by a release.  A release (a held
 * constraint's force reaching zero) has no impulse.  The target's
 * coordinates are then its own (q at its free indices: the pinned contact
 * of the target is moved to the origin by its chart) or a linear relabel
 * z = R [q; 1] (legs swapping roles, spokes renumbered).  Defaults: `after`
 * = the target's held constraints and the activated one; `separate` = the
 * source's pinned normal when the impact does not hold it (a foot that
 * lifts off must leave the ground).
 *
 * Parameters: "slope" (rad, when the description has one: gravity turned
 * about the y axis, so that level ground z = 0 is a slope going down
 * towards +x), and one per motor (its actuator's name, or "JOINT_torque"):
 * a constant torque in every mode.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model_internal.h"
#include "model/robot_internal.h"

typedef struct {
    hes_model model;          /* first: the model is the block */
    hes_robot *robot;
    void **keep;              /* every allocation, freed with the model */
    int n_keep, cap_keep;
    hes__robot_view *mviews, *tviews;
    int n_mviews;             /* mode views made (hes__robot_view_free) */
    hes_mech_mode *mmodes;
    hes_mech_transition *mtrans;
    double *guess;            /* 2 k of the orbit's mode */
    int n_guess;
    const char **slip_msg;    /* per constraint: the slip message naming it (a normal's) */
    int n_slip_msg;
    const char **pull_msg;    /* per constraint: the message of its pulling on entry */
    const char **impulse_msg; /* per constraint: the message of its impulse pulling */
    const char **pressed_msg; /* per constraint: the message of its being pressed back */
    const char **sticks_msg;  /* per contact normal: its sticking where the mode slides it */
    int n_pull_msg;
} robot_model;

static void *keep(robot_model *rm, size_t n)
{
    if (rm->n_keep == rm->cap_keep) {
        int cap = rm->cap_keep ? 2 * rm->cap_keep : 32;
        void **k = realloc(rm->keep, sizeof *k * (size_t)cap);
        if (!k)
            return NULL;
        rm->keep = k;
        rm->cap_keep = cap;
    }
    void *p = calloc(1, n ? n : 1);
    if (p)
        rm->keep[rm->n_keep++] = p;
    return p;
}

static char *keep_str(robot_model *rm, const char *a, const char *b)
{
    size_t n = strlen(a) + (b ? strlen(b) : 0) + 1;
    char *s = keep(rm, n);
    if (s)
        snprintf(s, n, "%s%s", a, b ? b : "");
    return s;
}

static int guess(double *p, double *x0, void *data)
{
    (void)p;
    const robot_model *rm = data;
    memcpy(x0, rm->guess, sizeof(double) * (size_t)rm->n_guess);
    return 0;
}

/* The release of a robot model (hes_model_destroy). */
static void robot_model_release(void *model)
{
    if (!model)
        return;
    robot_model *rm = model;
    for (int i = 0; rm->mviews && i < rm->n_mviews; i++)
        hes__robot_view_free(&rm->mviews[i]);
    for (int i = 0; i < rm->n_keep; i++)
        free(rm->keep[i]);
    free(rm->keep);
    hes_robot_destroy(rm->robot);
    free(rm);
}

/* A robot model's hold and unhold (hes_model.hold): a copy of its robot
 * locked for the calling thread, whose callbacks then find it again
 * (hes__robot_grab) without another lock's atomic operations. */
static void *robot_model_hold(void *data)
{
    return hes__robot_grab(((robot_model *)data)->robot);
}

static void robot_model_unhold(void *held)
{
    HES_ROBOT_UNLOCK((hes_robot *)held);
}

static int contains(const int *a, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (a[i] == x)
            return 1;
    return 0;
}

#define FAIL(...)                                                                     \
    do {                                                                              \
        st = hes__say(msg, len, HES_EINVAL, __VA_ARGS__);                             \
        goto fail;                                                                    \
    } while (0)
#define NOMEM()                                                                       \
    do {                                                                              \
        st = hes__say(msg, len, HES_ENOMEM, "out of memory for a robot model");       \
        goto fail;                                                                    \
    } while (0)

/* A mode of a robot with free or ball joints, or one that holds contacts
 * by their forces: the state [q (nq), v (nv)] on its manifold
 * (hes_mech_retract ...), named by the coordinates and the velocities.
 * Its tangent coordinates: without held contacts, named by the velocities
 * (a joint's turn NAME_rx..rz, its rate NAME_wx..wz; a hinge's J and
 * Jdot); with them, the null spaces' coordinates dq1.., dv1.. */
static hes_status manifold_mode(robot_model *rm, hes_mech_mode *mm, const char *mname,
                                hes_mode *out)
{
    const hes_robot *r = rm->robot;
    int nq, nv;
    hes_robot_dims(r, &nq, &nv);
    const char **names = keep(rm, sizeof *names * (size_t)(nq + nv)),
               **tnames = keep(rm, sizeof *tnames * (size_t)(2 * nv));
    if (!names || !tnames)
        return HES_ENOMEM;
    for (int i = 0; i < nq; i++)
        if (!(names[i] = keep_str(rm, hes_robot_coordinate(r, i), NULL)))
            return HES_ENOMEM;
    for (int j = 0; j < nv; j++) {
        const char *vn = hes_robot_velocity_name(r, j);
        /* a hinge's or slide's velocity bears its coordinate's name */
        int same = 0;
        for (int i = 0; i < nq && !same; i++)
            same = strcmp(names[i], vn) == 0;
        names[nq + j] = keep_str(rm, vn, same ? "dot" : NULL);
        tnames[nv + j] = names[nq + j];
        /* the turn of a rate NAME_wx is NAME_rx; a translation's NAME_vx is NAME_x */
        size_t l = strlen(vn);
        if (!same && l > 3 && vn[l - 3] == '_' && (vn[l - 2] == 'w' || vn[l - 2] == 'v')) {
            char buf[256];
            snprintf(buf, sizeof buf, "%.*s%s%c", (int)(l - 2), vn, vn[l - 2] == 'w' ? "r" : "",
                     vn[l - 1]);
            tnames[j] = keep_str(rm, buf, NULL);
        } else {
            tnames[j] = keep_str(rm, vn, NULL);
        }
        if (!names[nq + j] || !tnames[j])
            return HES_ENOMEM;
    }
    int tdim = hes_mech_mode_tdim(mm);
    if (mm->held && mm->n_active > 0) {
        int rh = tdim - (nv - mm->n_active);
        for (int j = 0; j < tdim; j++) {
            char buf[32];
            snprintf(buf, sizeof buf, "%s%d", j < rh ? "dq" : "dv", j < rh ? j + 1 : j - rh + 1);
            if (!(tnames[j] = keep_str(rm, buf, NULL)))
                return HES_ENOMEM;
        }
    }
    *out = (hes_mode){ .name = mname, .dim = nq + nv, .state_names = names,
                       .field = hes_mech_field, .field_dx = hes_mech_field_dx, .data = mm,
                       .tdim = tdim, .retract = hes_mech_retract, .local = hes_mech_local,
                       .tangent = hes_mech_tangent, .cotangent = hes_mech_cotangent,
                       .normalize = hes_mech_normalize_state, .tangent_names = tnames,
                       .admissible = hes_mech_admissible, .consistent = hes_mech_consistent };
    return HES_OK;
}

static hes_status build_modes(robot_model *rm, const hes_robot_model_spec *sp, char *msg,
                              size_t len)
{
    hes_status st = HES_OK;
    int nm = sp->n_modes;
    hes_mode *modes = keep(rm, sizeof *modes * (size_t)nm);
    rm->mviews = keep(rm, sizeof *rm->mviews * (size_t)nm);
    rm->mmodes = keep(rm, sizeof *rm->mmodes * (size_t)nm);
    if (!modes || !rm->mviews || !rm->mmodes)
        NOMEM();
    for (int i = 0; i < nm; i++) {
        const hes_robot_mode_spec *ms = &sp->modes[i];
        char why[256];
        if (!ms->name || !ms->name[0])
            FAIL("robot model '%s': mode %d has no name", sp->name, i);
        if (ms->n_locked < 0 || (ms->n_locked > 0 && !ms->locked))
            FAIL("robot model '%s': mode '%s': n_locked = %d without its array", sp->name,
                 ms->name, ms->n_locked);
        st = hes__robot_mode_view(rm->robot, ms->pinned, ms->n_locked, ms->locked,
                                  &rm->mviews[i], why, sizeof why);
        rm->n_mviews = i + 1;
        if (st == HES_OK && (ms->n_holds < 0 || (ms->n_holds > 0 && !ms->holds)))
            FAIL("robot model '%s': mode '%s': n_holds = %d without its array", sp->name,
                 ms->name, ms->n_holds);
        if (st == HES_OK)
            st = ms->n_slides < 0 || (ms->n_slides > 0 && !ms->slides)
                     ? hes__say(why, sizeof why, HES_EINVAL, "n_slides = %d without its array",
                                ms->n_slides)
                     : hes__robot_view_hold(&rm->mviews[i], ms->n_holds, ms->holds,
                                            ms->n_slides, ms->slides, why, sizeof why);
        if (st != HES_OK)
            FAIL("robot model '%s': mode '%s': %s", sp->name, ms->name, why);
        hes__robot_view_mode(&rm->mviews[i], &rm->mmodes[i]);
        int k = rm->mviews[i].k;
        const char *mname = keep_str(rm, ms->name, NULL);
        if (!mname)
            NOMEM();
        rm->mviews[i].mech.name = mname;   /* what hes info lists */
        if (sp->control && k < rm->mviews[i].mech.d)
            FAIL("robot model '%s': mode '%s' pins a contact or locks a joint: a robot model "
                 "with a control needs modes of every coordinate", sp->name, ms->name);
        if (rm->robot->mech.n_quat > 0 || ms->n_holds > 0) {   /* [q, v] on a manifold */
            if (k < rm->mviews[i].mech.d)
                FAIL("robot model '%s': mode '%s' pins a contact or locks a joint of a robot "
                     "with free or ball joints: such a robot's modes keep every coordinate",
                     sp->name, ms->name);
            if ((st = manifold_mode(rm, &rm->mmodes[i], mname, &modes[i])) != HES_OK)
                NOMEM();
            continue;
        }
        const char **names = keep(rm, sizeof *names * (size_t)(2 * k));
        if (!names)
            NOMEM();
        for (int j = 0; j < k; j++) {
            const char *jn = hes_robot_coordinate(rm->robot, rm->mviews[i].free[j]);
            char buf[32];
            if (!jn) {
                snprintf(buf, sizeof buf, "q%d", rm->mviews[i].free[j]);
                jn = buf;
            }
            names[j] = keep_str(rm, jn, NULL);
            names[k + j] = keep_str(rm, jn, "dot");
            if (!names[j] || !names[k + j])
                NOMEM();
        }
        modes[i] = (hes_mode){ .name = mname, .dim = 2 * k, .state_names = names,
                               .field = hes_mech_field, .field_dx = hes_mech_field_dx,
                               .data = &rm->mmodes[i] };
    }
    rm->model.modes = modes;
    rm->model.n_modes = nm;
fail:
    return st;
}

static hes_status build_transitions(robot_model *rm, const hes_robot_model_spec *sp, char *msg,
                                    size_t len)
{
    hes_status st = HES_OK;
    int nt = sp->n_transitions, d = hes_robot_mech(rm->robot)->d;
    const hes_mech *mech = hes_robot_mech(rm->robot);
    hes_transition *trs = keep(rm, sizeof *trs * (size_t)nt);
    rm->tviews = keep(rm, sizeof *rm->tviews * (size_t)nt);
    rm->mtrans = keep(rm, sizeof *rm->mtrans * (size_t)nt);
    if (!trs || !rm->tviews || !rm->mtrans)
        NOMEM();
    for (int t = 0; t < nt; t++) {
        const hes_robot_transition_spec *ts = &sp->transitions[t];
        const char *nm = ts->name ? ts->name : "";
        if (!nm[0])
            FAIL("robot model '%s': transition %d has no name", sp->name, t);
        if (ts->from < 0 || ts->from >= sp->n_modes || ts->to < 0 || ts->to >= sp->n_modes)
            FAIL("robot model '%s': transition '%s': from %d / to %d are not modes (0 to %d)",
                 sp->name, nm, ts->from, ts->to, sp->n_modes - 1);
        if (ts->constraint < 0 || ts->constraint >= mech->n_constraints)
            FAIL("robot model '%s': transition '%s': constraint %d is not one of the robot's "
                 "(0 to %d)", sp->name, nm, ts->constraint, mech->n_constraints - 1);
        const hes__robot_view *from = &rm->mviews[ts->from], *to = &rm->mviews[ts->to];
        const char *cname = mech->constraints[ts->constraint].name;
        int held = contains(from->active, from->n_active, ts->constraint);
        if (ts->kind == HES_MECH_RELEASE && !held)
            FAIL("robot model '%s': transition '%s' releases %s, which mode '%s' does not hold",
                 sp->name, nm, cname, sp->modes[ts->from].name);
        if (ts->kind == HES_MECH_ACTIVATE &&
            (held || !mech->constraints[ts->constraint].unilateral))
            FAIL("robot model '%s': transition '%s' activates %s, which %s", sp->name, nm, cname,
                 held ? "the source mode already holds" : "is not unilateral (a contact's "
                 "normal or a joint limit can be activated)");
        if (ts->kind != HES_MECH_ACTIVATE && ts->kind != HES_MECH_RELEASE &&
            ts->kind != HES_MECH_SLIP && ts->kind != HES_MECH_STICK)
            FAIL("robot model '%s': transition '%s': kind %d", sp->name, nm, (int)ts->kind);
        if (ts->kind == HES_MECH_STICK &&
            (!contains(from->sliding, from->n_sliding, ts->constraint) ||
             !contains(to->active, to->n_active, ts->constraint) ||
             contains(to->sliding, to->n_sliding, ts->constraint)))
            FAIL("robot model '%s': transition '%s': a stick of %s goes from a mode that holds "
                 "it sliding ('%s' does%s) to one that holds it sticking ('%s' does%s)",
                 sp->name, nm, cname, sp->modes[ts->from].name,
                 contains(from->sliding, from->n_sliding, ts->constraint) ? "" : " not",
                 sp->modes[ts->to].name,
                 contains(to->active, to->n_active, ts->constraint) &&
                 !contains(to->sliding, to->n_sliding, ts->constraint) ? "" : " not");
        if (ts->kind == HES_MECH_SLIP &&
            (!held || contains(from->sliding, from->n_sliding, ts->constraint) ||
             !contains(to->sliding, to->n_sliding, ts->constraint)))
            FAIL("robot model '%s': transition '%s': a slip of %s goes from a mode that holds "
                 "it sticking ('%s' does%s) to one that holds it sliding ('%s' does%s)",
                 sp->name, nm, cname, sp->modes[ts->from].name,
                 held && !contains(from->sliding, from->n_sliding, ts->constraint) ? "" : " not",
                 sp->modes[ts->to].name,
                 contains(to->sliding, to->n_sliding, ts->constraint) ? "" : " not");
        if (ts->n_after < 0 || (ts->n_after > 0 && !ts->after) ||
            ts->n_after > mech->n_constraints || (ts->n_separate > 0 && !ts->separate) ||
            ts->n_separate > mech->n_constraints)
            FAIL("robot model '%s': transition '%s': after or separate without its array (at "
                 "most %d each: the robot's constraints)", sp->name, nm, mech->n_constraints);
        for (int j = 0; j < ts->n_after + (ts->n_separate > 0 ? ts->n_separate : 0); j++) {
            int c = j < ts->n_after ? ts->after[j] : ts->separate[j - ts->n_after];
            if (c < 0 || c >= mech->n_constraints)
                FAIL("robot model '%s': transition '%s': constraint %d of after/separate is "
                     "not one of the robot's (0 to %d)", sp->name, nm, c, mech->n_constraints - 1);
        }
        /* the impact's constraints */
        /* after: the given ones, or the target's held ones and the
           activated one; separate: the given ones, or the pinned normal */
        int *after = keep(rm, sizeof(int) * (size_t)(ts->n_after + to->n_active + 1)), na = 0;
        int *sep = keep(rm, sizeof(int) * (size_t)(ts->n_separate > 0 ? ts->n_separate : 1));
        int ns = 0;
        if (!after || !sep)
            NOMEM();
        if (ts->kind == HES_MECH_ACTIVATE && to->n_sliding > 0)
            FAIL("robot model '%s': transition '%s': an impact into mode '%s', which slides a "
                 "contact, is not modelled (its friction impulse): land in a mode whose "
                 "contacts stick", sp->name, nm, sp->modes[ts->to].name);
        if (ts->kind == HES_MECH_ACTIVATE) {
            if (ts->n_after > 0) {
                memcpy(after, ts->after, sizeof(int) * (size_t)ts->n_after);
                na = ts->n_after;
            } else {
                if (ts->relabel)
                    FAIL("robot model '%s': transition '%s' relabels the coordinates: give the "
                         "constraints its impact enforces (after)", sp->name, nm);
                for (int j = 0; j < to->n_active; j++)
                    after[na++] = to->active[j];
                if (!contains(after, na, ts->constraint))
                    after[na++] = ts->constraint;
            }
            if (!contains(after, na, ts->constraint))
                FAIL("robot model '%s': transition '%s': its impact must hold the constraint it "
                     "activates (%s)", sp->name, nm, cname);
            if (ts->n_separate >= 0) {
                if (ts->n_separate > 0)
                    memcpy(sep, ts->separate, sizeof(int) * (size_t)ts->n_separate);
                ns = ts->n_separate;
            } else if (from->pinned >= 0 && !contains(after, na, 2 * from->pinned)) {
                sep[ns++] = 2 * from->pinned;
            }
        } else if (ts->kind == HES_MECH_STICK) {
            /* the rest of the sliding velocity, of the size of
               HES_MECH_STICK_SPEED, taken by the target's held rows */
            for (int j = 0; j < to->n_active; j++)
                after[na++] = to->active[j];
        }
        double *A = NULL, *c = NULL;
        if (ts->relabel) {
            int k = to->k;
            A = keep(rm, sizeof(double) * (size_t)(k * d));
            c = keep(rm, sizeof(double) * (size_t)k);
            if (!A || !c)
                NOMEM();
            for (int i = 0; i < k; i++) {
                for (int j = 0; j < d; j++)
                    A[(size_t)i * d + j] = ts->relabel[(size_t)i * (d + 1) + j];
                c[i] = ts->relabel[(size_t)i * (d + 1) + d];
            }
            if (!hes__all_finite(A, k * d) || !hes__all_finite(c, k))
                FAIL("robot model '%s': transition '%s': the relabel is not finite", sp->name, nm);
        }
        hes_mech_transition *mt = &rm->mtrans[t];
        *mt = (hes_mech_transition){ .from = &rm->mmodes[ts->from], .to = &rm->mmodes[ts->to],
                                     .kind = ts->kind, .constraint = ts->constraint,
                                     .n_after = na, .after = after, .n_separate = ns,
                                     .separate = sep };
        hes__robot_transition_view(rm->robot, from, to, A, c, &rm->tviews[t], mt);
        if (mech->n_quat > 0) {   /* modes of every coordinate: the event's q is the state's */
            if (ts->relabel)
                FAIL("robot model '%s': transition '%s' relabels the coordinates of a robot "
                     "with free or ball joints (a quaternion is not relabelled linearly)",
                     sp->name, nm);
            mt->lift = mt->lift_dz = NULL;
            mt->to_chart = mt->to_chart_dq = NULL;
        }
        /* what the source holds and the impact keeps is a pin through it */
        hes_mech_constraint *cons = keep(rm, sizeof *cons * (size_t)mech->n_constraints);
        if (!cons)
            NOMEM();
        memcpy(cons, mech->constraints, sizeof *cons * (size_t)mech->n_constraints);
        for (int j = 0; j < na; j++)
            if (contains(from->active, from->n_active, after[j]))
                cons[after[j]].unilateral = 0;
        rm->tviews[t].mech.constraints = cons;
        const char *tname = keep_str(rm, nm, NULL);
        if (!tname)
            NOMEM();
        rm->tviews[t].mech.name = keep_str(rm, tname, " (its impact)");
        if (!rm->tviews[t].mech.name)
            NOMEM();
        trs[t] = (hes_transition){ .name = tname, .from = ts->from, .to = ts->to,
                                   .direction = HES_DOWN, .guard = hes_mech_guard,
                                   .reset = hes_mech_reset, .reset_dx = hes_mech_reset_dx,
                                   .reset_dt = hes_mech_reset_dt, .guard_dx = hes_mech_guard_dx,
                                   .guard_dt = hes_mech_guard_dt, .data = mt };
    }
    rm->model.transitions = trs;
    rm->model.n_transitions = nt;
    /* the cones its slips watch: the field of their source leaves them */
    for (int i = 0; i < sp->n_modes; i++) {
        int *w = keep(rm, sizeof(int) * (size_t)(nt > 0 ? nt : 1)), n = 0;
        if (!w)
            NOMEM();
        for (int t = 0; t < nt; t++)
            if (sp->transitions[t].kind == HES_MECH_SLIP && sp->transitions[t].from == i &&
                !contains(w, n, sp->transitions[t].constraint))
                w[n++] = sp->transitions[t].constraint;
        rm->mmodes[i].n_slip_watched = n;
        rm->mmodes[i].slip_watched = w;
    }
fail:
    return st;
}

/* The joint feedback's copy, bound to the robot, its parameters from
 * params[n] on (period, kp, kd); the new count into *n. */
static hes_status build_control(robot_model *rm, const hes_robot_model_spec *sp,
                                hes_param *params, int *n, char *msg, size_t len)
{
    hes_status st = HES_OK;
    const hes_robot_control *c = sp->control;
    int nu = hes_robot_motor_count(rm->robot), K = c->n_harmonics;
    if (!(c->period > 0 && isfinite(c->period)) || !isfinite(c->kp) || !isfinite(c->kd) ||
        K < 0 || K > 64 || (nu > 0 && !c->reference))
        FAIL("robot model '%s': the control needs a period > 0, finite gains, 0 to 64 "
             "harmonics and the motors' reference coefficients", sp->name);
    if (nu < 1)
        FAIL("robot model '%s': the control needs motors (the robot has none)", sp->name);
    hes__robot_control *ctl = keep(rm, sizeof *ctl);
    int *ints = keep(rm, sizeof(int) * 3 * (size_t)nu);
    double *coef = keep(rm, sizeof(double) * (size_t)nu * (2 * K + 1));
    if (!ctl || !ints || !coef)
        NOMEM();
    memcpy(coef, c->reference, sizeof(double) * (size_t)nu * (2 * K + 1));
    if (!hes__all_finite(coef, nu * (2 * K + 1)))
        FAIL("robot model '%s': the control's reference coefficients must be finite", sp->name);
    *ctl = (hes__robot_control){ .K = K, .qpos = ints, .dof = ints + nu,
                                 .tracked = ints + 2 * nu, .coef = coef };
    const hes_mech *mech = hes_robot_mech(rm->robot);
    int nv = mech->d;
    for (int a = 0; a < nu; a++) {
        ctl->tracked[a] = c->tracked ? c->tracked[a] != 0 : 1;
        ctl->dof[a] = -1;
        for (int j = 0; j < nv; j++)
            if (rm->robot->B[j + (size_t)a * nv] != 0)
                ctl->dof[a] = j;
        ctl->qpos[a] = hes__robot_dof_qpos(rm->robot, ctl->dof[a]);
        if (ctl->tracked[a] && ctl->qpos[a] < 0)
            FAIL("robot model '%s': motor %d acts on no joint the control can track",
                 sp->name, a);
    }
    ctl->period_param = (*n)++;
    ctl->kp_param = (*n)++;
    ctl->kd_param = (*n)++;
    params[ctl->period_param] = (hes_param){ "period", c->period, "s", "the period of the "
                                             "control's reference", 0, 1e-3, 1e3, 0, 0 };
    params[ctl->kp_param] = (hes_param){ "kp", c->kp, "N m/rad", "the control's position "
                                         "gain", 0, -HUGE_VAL, HUGE_VAL, 0, 0 };
    params[ctl->kd_param] = (hes_param){ "kd", c->kd, "N m s/rad", "the control's velocity "
                                         "gain", 0, -HUGE_VAL, HUGE_VAL, 0, 0 };
    hes__robot_bind_control(rm->robot, ctl);
fail:
    return st;
}

static hes_status build_params(robot_model *rm, const hes_robot_model_spec *sp, char *msg,
                               size_t len)
{
    hes_status st = HES_OK;
    int nu = hes_robot_motor_count(rm->robot),
        np = nu + (sp->slope != 0) + 3 * (sp->control != NULL);
    hes_param *params = keep(rm, sizeof *params * (size_t)(np > 0 ? np : 1));
    int *motor = keep(rm, sizeof(int) * (size_t)(nu > 0 ? nu : 1));
    if (!params || !motor)
        NOMEM();
    int n = 0;
    if (sp->slope) {
        if (!isfinite(sp->slope_value) || fabs(sp->slope_value) >= 1.5)
            FAIL("robot model '%s': slope %g must be finite and below 1.5 rad", sp->name,
                 sp->slope_value);
        params[n++] = (hes_param){ "slope", sp->slope_value, "rad",
                                   "ground slope: gravity turned about y (positive: downhill "
                                   "towards +x)", 0, -1.5, 1.5, 0, 0 };
    }
    for (int a = 0; a < nu; a++) {
        const char *an = hes__robot_motor_name(rm->robot, a);
        const char *jn = hes_robot_motor_joint(rm->robot, a);
        char *name = an ? keep_str(rm, an, NULL) : keep_str(rm, jn ? jn : "motor", "_torque");
        char *desc = keep_str(rm, "constant motor torque (force) on joint ", jn ? jn : "?");
        if (!name || !desc)
            NOMEM();
        for (int b = 0; b < n; b++)
            if (strcmp(params[b].name, name) == 0)
                FAIL("robot model '%s': two parameters named '%s' (name the actuators)",
                     sp->name, name);
        motor[a] = n;
        params[n++] = (hes_param){ name, 0, "N m", desc, 0, -HUGE_VAL, HUGE_VAL, 0, 0 };
    }
    hes__robot_bind_params(rm->robot, sp->slope ? 0 : -1, motor);
    if (sp->control && (st = build_control(rm, sp, params, &n, msg, len)) != HES_OK)
        goto fail;
    rm->model.params = params;
    rm->model.n_params = n;
fail:
    return st;
}

/* The symmetries of a floating robot on the ground z = 0 (the orbit's
 * symmetry names): "x" and "y" translate every floating base (a free
 * joint of a body on the world) along the world's axis, "yaw" turns it
 * about the world's z through the origin, which with gravity along -z
 * maps motions to motions.  The turn's generator at [q, v]: a base's
 * position (-y, x, 0), its quaternion d/de [exp(e k / 2) (x) q] =
 * (-qz, -qy, qx, qw) / 2 (a world turn multiplies on the left), its
 * world-frame velocity (-vy, vx, 0), its body-frame angular velocity and
 * the joints' coordinates 0.  In the mode's tangent coordinates: P xi,
 * P the cotangent basis at x (the symmetries keep the constraints, so
 * xi is tangent to the manifold). */
enum { SYM_X, SYM_Y, SYM_YAW };
static const char *const sym_kinds[] = { "x", "y", "yaw" };

static const char **sym_kinds_of(robot_model *rm, const hes__robot_view *v)
{
    const char **names = keep(rm, sizeof *names * 3);
    for (int k = 0; names && k < v->n_sym; k++)
        names[k] = sym_kinds[v->sym[k]];
    return names;
}

static int robot_symmetries(const double *x, const double *p, double *out, void *data)
{
    hes_mech_mode *mm = data;
    const hes__robot_view *v = mm->mech->data;
    int nq, nv;
    hes_robot_dims(v->robot, &nq, &nv);
    int dim = nq + nv, tdim = hes_mech_mode_tdim(mm);
    double *P = malloc(sizeof(double) * ((size_t)tdim * dim + (size_t)dim));
    if (!P)
        return 1;
    double *xi = P + (size_t)tdim * dim;
    int rc = hes_mech_cotangent(x, p, P, mm);
    for (int k = 0; !rc && k < v->n_sym; k++) {
        memset(xi, 0, sizeof(double) * (size_t)dim);
        for (int b = 0; b < v->n_root; b++) {
            int a = v->root_q[b], w = nq + v->root_v[b];
            const double *q = x + a + 3;
            if (v->sym[k] != SYM_YAW) {
                xi[a + (v->sym[k] == SYM_Y)] = 1;
                continue;
            }
            xi[a] = -x[a + 1], xi[a + 1] = x[a];
            xi[a + 3] = -0.5 * q[3], xi[a + 4] = -0.5 * q[2];
            xi[a + 5] = 0.5 * q[1], xi[a + 6] = 0.5 * q[0];
            xi[w] = -x[w + 1], xi[w + 1] = x[w];
        }
        for (int i = 0; i < tdim; i++) {
            double s = 0;
            for (int j = 0; j < dim; j++)
                s += P[i + (size_t)j * tdim] * xi[j];
            out[i + (size_t)k * tdim] = s;
        }
    }
    free(P);
    return rc ? 1 : 0;
}

/* The symmetries' finite action (hes_orbit_spec.symmetry_act): the turn
 * by theta_yaw about the world's z through the origin first, then the
 * translations.  A base's position (x, y) and world-frame velocity turn
 * by R(theta) = [c -s; s c], its quaternion is multiplied on the left by
 * (cos theta/2, 0, 0, sin theta/2), its body-frame angular velocity and
 * the joints stay: the derivative at theta = 0 is robot_symmetries'
 * generator. */
static int robot_symmetry_act(const double *x, const double *theta, const double *p,
                              double *out, void *data)
{
    (void)p;
    hes_mech_mode *mm = data;
    const hes__robot_view *v = mm->mech->data;
    int nq, nv;
    hes_robot_dims(v->robot, &nq, &nv);
    memcpy(out, x, sizeof(double) * (size_t)(nq + nv));
    for (int k = 0; k < v->n_sym; k++) {
        if (v->sym[k] != SYM_YAW)
            continue;
        double c = cos(theta[k]), s = sin(theta[k]), ch = cos(0.5 * theta[k]),
               sh = sin(0.5 * theta[k]);
        for (int b = 0; b < v->n_root; b++) {
            double *a = out + v->root_q[b], *w = out + nq + v->root_v[b], *q = a + 3;
            double px = a[0], py = a[1], vx = w[0], vy = w[1];
            double q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];
            a[0] = c * px - s * py, a[1] = s * px + c * py;
            w[0] = c * vx - s * vy, w[1] = s * vx + c * vy;
            /* (ch, 0, 0, sh) (x) (q0, q1, q2, q3) */
            q[0] = ch * q0 - sh * q3, q[1] = ch * q1 - sh * q2;
            q[2] = ch * q2 + sh * q1, q[3] = ch * q3 + sh * q0;
        }
    }
    for (int k = 0; k < v->n_sym; k++)
        for (int b = 0; v->sym[k] != SYM_YAW && b < v->n_root; b++)
            out[v->root_q[b] + (v->sym[k] == SYM_Y)] += theta[k];
    return 0;
}

/* The orbit spec's symmetry names as kinds, in the orbit mode's view. */
static hes_status build_symmetries(robot_model *rm, const hes_robot_model_spec *sp,
                                   hes_orbit_spec *o, char *msg, size_t len)
{
    hes_status st = HES_OK;
    hes__robot_view *v = &rm->mviews[o->mode];
    if (o->n_symmetries == 0)
        return HES_OK;
    if (o->n_symmetries < 0 || o->n_symmetries > 3 || !o->symmetry_names)
        FAIL("robot model '%s': the orbit's symmetries are 0 to 3 of x, y and yaw (%d given)",
             sp->name, o->n_symmetries);
    if (!rm->model.modes[o->mode].retract)
        FAIL("robot model '%s': the orbit's mode '%s' keeps only some coordinates (a pinned "
             "contact, a locked joint): symmetries need a mode of every coordinate, a "
             "floating base held by its contacts' forces", sp->name, sp->modes[o->mode].name);
    v->n_root = hes__robot_root_frees(rm->robot, v->root_q, v->root_v, HES__ROBOT_MAX_ROOTS);
    if (v->n_root < 1 || v->n_root > HES__ROBOT_MAX_ROOTS)
        FAIL("robot model '%s': symmetries move floating bases (free joints of bodies on the "
             "world): the robot has %d (1 to %d)", sp->name, v->n_root, HES__ROBOT_MAX_ROOTS);
    for (int k = 0; k < o->n_symmetries; k++) {
        const char *name = o->symmetry_names[k];
        int kind = -1;
        for (int j = 0; j < 3 && name; j++)
            if (strcmp(name, sym_kinds[j]) == 0)
                kind = j;
        for (int j = 0; j < k; j++)
            if (v->sym[j] == kind)
                kind = -2;
        if (kind < 0)
            FAIL("robot model '%s': orbit symmetry '%s' is %s (x, y and yaw, each once)",
                 sp->name, name ? name : "(null)", kind == -2 ? "given twice" : "not one of");
        if (kind == SYM_YAW && sp->slope)
            FAIL("robot model '%s': a turn about the vertical (yaw) is no symmetry on a slope",
                 sp->name);
        v->sym[k] = kind;
    }
    v->n_sym = o->n_symmetries;
    o->symmetries = robot_symmetries;
    o->symmetry_act = robot_symmetry_act;
    o->symmetry_names = sym_kinds_of(rm, v);
    if (!o->symmetry_names)
        NOMEM();
fail:
    return st;
}

/* The mechanical layer's messages, a slip's or a pull's naming its
 * constraint (built with the model, read-only after: threads share them). */
static const char *describe_error(int code, void *data)
{
    const robot_model *rm = data;
    int c = code - HES__MECH_STICKS_AT;
    if (rm && c >= 0 && c < rm->n_slip_msg && rm->sticks_msg[c])
        return rm->sticks_msg[c];
    c = code - HES__MECH_PRESSED_AT;
    if (rm && c >= 0 && c < rm->n_pull_msg && rm->pressed_msg[c])
        return rm->pressed_msg[c];
    c = code - HES__MECH_IMPULSE_AT;
    if (rm && c >= 0 && c < rm->n_pull_msg && rm->impulse_msg[c])
        return rm->impulse_msg[c];
    c = code - HES__MECH_PULL_AT;
    if (rm && c >= 0 && c < rm->n_pull_msg && rm->pull_msg[c])
        return rm->pull_msg[c];
    c = code - HES__MECH_SLIP_AT;
    if (rm && c >= 0 && c < rm->n_slip_msg && rm->slip_msg[c])
        return rm->slip_msg[c];
    return hes_mech_describe_error(code, NULL);
}

/* The slip messages of the robot's contacts (their normals) and the pull
 * messages of its unilateral constraints (contacts and joint limits). */
static hes_status build_messages(robot_model *rm, char *msg, size_t len)
{
    hes_status st = HES_OK;
    const hes_mech *m = hes_robot_mech(rm->robot);
    int nc = hes_robot_contact_count(rm->robot), n = m->n_constraints;
    rm->slip_msg = keep(rm, sizeof *rm->slip_msg * (size_t)(2 * nc + 1));
    rm->pull_msg = keep(rm, sizeof *rm->pull_msg * (size_t)(n + 1));
    rm->impulse_msg = keep(rm, sizeof *rm->impulse_msg * (size_t)(n + 1));
    rm->pressed_msg = keep(rm, sizeof *rm->pressed_msg * (size_t)(n + 1));
    rm->sticks_msg = keep(rm, sizeof *rm->sticks_msg * (size_t)(2 * nc + 1));
    if (!rm->slip_msg || !rm->pull_msg || !rm->impulse_msg || !rm->pressed_msg ||
        !rm->sticks_msg)
        NOMEM();
    rm->n_slip_msg = 2 * nc;
    rm->n_pull_msg = n;
    for (int c = 0; c < n; c++) {
        char buf[400];
        rm->pull_msg[c] = rm->impulse_msg[c] = rm->pressed_msg[c] = NULL;
        if (c < 2 * nc)
            rm->slip_msg[c] = rm->sticks_msg[c] = NULL;
        if (!m->constraints[c].unilateral)
            continue;
        snprintf(buf, sizeof buf, "'%s', which the mode holds, would pull (its force is "
                 "negative): it leaves at once, so holding it is not physically valid (entering "
                 "the mode by a transition: release it there)", m->constraints[c].name);
        if (!(rm->pull_msg[c] = keep_str(rm, buf, NULL)))
            NOMEM();
        snprintf(buf, sizeof buf, "the impact's impulse on '%s' would pull: it separates during "
                 "the impact, so the chosen reset is not physically valid (leave it out of the "
                 "transition's \"after\" and list it in \"separate\")", m->constraints[c].name);
        if (!(rm->impulse_msg[c] = keep_str(rm, buf, NULL)))
            NOMEM();
        snprintf(buf, sizeof buf, "'%s', let go at rest by the event, would be pressed back at "
                 "once (its acceleration points into it): neither holding it nor letting it go "
                 "is consistent (a foot whose tangential force does not vanish with its normal "
                 "one slides before it can lift off; a no-slip foot cannot)",
                 m->constraints[c].name);
        if (!(rm->pressed_msg[c] = keep_str(rm, buf, NULL)))
            NOMEM();
        if (c >= 2 * nc || c % 2)
            continue;
        snprintf(buf, sizeof buf, "the tangential force of the held contact '%s' exceeds mu "
                 "times its normal one: the foot would slip, so the impact or the mode that "
                 "holds it is not physically valid", m->constraints[c].name);
        if (!(rm->slip_msg[c] = keep_str(rm, buf, NULL)))
            NOMEM();
        snprintf(buf, sizeof buf, "'%s', which the mode slides, is at rest with its friction "
                 "force inside the cone: it sticks, so sliding it is not physically valid (start "
                 "in a mode that holds it sticking, with a transition \"slip\" to this one)",
                 m->constraints[c].name);
        if (!(rm->sticks_msg[c] = keep_str(rm, buf, NULL)))
            NOMEM();
    }
fail:
    return st;
}

static hes_status build_orbit(robot_model *rm, const hes_robot_model_spec *sp, char *msg,
                              size_t len)
{
    hes_status st = HES_OK;
    hes_orbit_spec o = sp->orbit;
    if (!sp->guess && o.n_sequence == 0) {
        rm->model.orbit = (hes_orbit_spec){ 0 };
        return HES_OK;        /* simulation only */
    }
    if (o.mode < 0 || o.mode >= sp->n_modes)
        FAIL("robot model '%s': the orbit's mode %d is not a mode", sp->name, o.mode);
    int dim = rm->model.modes[o.mode].dim;
    if (!sp->guess || sp->n_guess != dim || !hes__all_finite(sp->guess, dim))
        FAIL("robot model '%s': the orbit needs a finite guess of %d values (the state of mode "
             "'%s'), got %d", sp->name, dim, sp->modes[o.mode].name, sp->guess ? sp->n_guess : 0);
    rm->guess = keep(rm, sizeof(double) * (size_t)dim);
    int *seq = keep(rm, sizeof(int) * (size_t)(o.n_sequence > 0 ? o.n_sequence : 1));
    int *all = keep(rm, sizeof(int) * (size_t)dim);
    int *fr = keep(rm, sizeof(int) * (size_t)dim), *res = keep(rm, sizeof(int) * (size_t)dim);
    if (!rm->guess || !seq || !all || !fr || !res)
        NOMEM();
    memcpy(rm->guess, sp->guess, sizeof(double) * (size_t)dim);
    rm->n_guess = dim;
    if (o.n_sequence < 1 || o.n_sequence > 1000 || !o.sequence)
        FAIL("robot model '%s': the orbit needs its sequence of transitions", sp->name);
    memcpy(seq, o.sequence, sizeof(int) * (size_t)o.n_sequence);
    for (int i = 0; i < dim; i++)
        all[i] = i;
    if ((st = build_symmetries(rm, sp, &o, msg, len)) != HES_OK)
        goto fail;
    /* free states and residual: all by default, or (a mode on a manifold,
       or with symmetries) every direction of the quotient */
    if (o.n_free_states < 0 || o.n_free_states > dim || o.n_residual < 0 || o.n_residual > dim)
        FAIL("robot model '%s': the orbit's free states and residual must be 0 to %d",
             sp->name, dim);
    if (!o.n_free_states && !o.n_residual &&
        (rm->model.modes[o.mode].retract || o.n_symmetries > 0))
        o.free_quotient = 1;
    if (o.n_free_states)
        memcpy(fr, o.free_states, sizeof(int) * (size_t)o.n_free_states);
    if (o.n_residual)
        memcpy(res, o.residual, sizeof(int) * (size_t)o.n_residual);
    o.sequence = seq;
    o.free_states = o.n_free_states ? fr : all;
    o.residual = o.n_residual ? res : all;
    o.n_free_states = o.n_free_states || o.free_quotient ? o.n_free_states : dim;
    o.n_residual = o.n_residual || o.free_quotient ? o.n_residual : dim;
    o.any_order = NULL;
    o.period_param = sp->control ? "period" : NULL;
    o.n_free_params = 0;
    o.free_params = NULL;
    o.guess = guess;
    rm->model.orbit = o;
fail:
    return st;
}

/* Path constraints: the values a(q(z)) of the mode view's list `which`. */
static int path_values(int which, const double *x, const double *p, double *out, void *data)
{
    const hes_mech_mode *mm = data;
    const hes__robot_view *v = mm->mech->data;
    /* q in the buffer of the robot instance held (the callbacks below
       grab instances of their own, and none uses that buffer) */
    hes_robot *r = hes__robot_grab(v->robot);
    double *q = r->path_q;
    int rc = 0, n = v->n_path[which], d = v->mech.d;
    if (mm->chart)
        rc = mm->chart(x, p, q, mm->mech->data);
    else
        memcpy(q, x, sizeof(double) * (size_t)d);
    for (int i = 0; !rc && i < n; i++) {
        const hes_mech_constraint *c = &v->mech.constraints[v->path[which][i]];
        rc = c->a(q, p, out + i, hes_mech_constraint_data(&v->mech, c));
    }
    for (int l = 0; !rc && l < v->n_lin[which]; l++) {
        const double *c = v->lin[which][l];
        double s = c[d];
        for (int j = 0; j < d; j++)
            s += c[j] * q[j];
        out[n + l] = s;
    }
    HES_ROBOT_UNLOCK(r);
    return rc ? 1 : 0;
}

static int path_guards(double t, const double *x, const double *p, double *out, void *data)
{
    (void)t;
    return path_values(0, x, p, out, data);
}

static int path_others(double t, const double *x, const double *p, double *out, void *data)
{
    (void)t;
    return path_values(1, x, p, out, data);
}

/* The trajopt spec, copied; generated path constraints (see hes.h). */
static hes_status build_trajopt(robot_model *rm, const hes_robot_model_spec *sp, char *msg,
                                size_t len)
{
    hes_status st = HES_OK;
    const hes_trajopt_spec *ts = sp->trajopt;
    if (!ts)
        return HES_OK;
    hes_trajopt_spec *t = keep(rm, sizeof *t);
    if (!t)
        NOMEM();
    *t = *ts;
    int ni = ts->n_inputs, dim = rm->model.orbit.guess ? rm->model.modes[rm->model.orbit.mode].dim
                                                       : 0;
    if (ni < 0 || ni > 1000 || (ni > 0 && (!ts->inputs || !ts->input_lo || !ts->input_hi)))
        FAIL("robot model '%s': trajopt: n_inputs = %d without its names and bounds", sp->name,
             ni);
    const char **names = keep(rm, sizeof *names * (size_t)(ni > 0 ? ni : 1));
    double *lo = keep(rm, sizeof(double) * (size_t)(ni > 0 ? ni : 1));
    double *hi = keep(rm, sizeof(double) * (size_t)(ni > 0 ? ni : 1));
    if (!names || !lo || !hi)
        NOMEM();
    for (int i = 0; i < ni; i++) {
        if (!ts->inputs[i] || !(names[i] = keep_str(rm, ts->inputs[i], NULL)))
            FAIL("robot model '%s': trajopt: input %d has no name", sp->name, i);
        lo[i] = ts->input_lo[i];
        hi[i] = ts->input_hi[i];
    }
    t->inputs = names, t->input_lo = lo, t->input_hi = hi;
    if ((ts->x0_lo || ts->x0_hi) && dim < 1)
        FAIL("robot model '%s': trajopt: bounds on the first state need an orbit", sp->name);
    if (dim > 0 && (ts->x0_lo || ts->x0_hi)) {
        double *xl = keep(rm, sizeof(double) * (size_t)dim);
        double *xh = keep(rm, sizeof(double) * (size_t)dim);
        if (!xl || !xh)
            NOMEM();
        for (int i = 0; i < dim; i++) {
            xl[i] = ts->x0_lo ? ts->x0_lo[i] : -HUGE_VAL;
            xh[i] = ts->x0_hi ? ts->x0_hi[i] : HUGE_VAL;
        }
        t->x0_lo = xl, t->x0_hi = xh;
    }
    if (ts->virtual_events) {
        int n = rm->model.orbit.n_sequence;
        int *ve = keep(rm, sizeof(int) * (size_t)(n > 0 ? n : 1));
        if (!ve)
            NOMEM();
        memcpy(ve, ts->virtual_events, sizeof(int) * (size_t)n);
        t->virtual_events = ve;
    }
    if (sp->n_linear_paths < 0 || (sp->n_linear_paths > 0 && (!sp->linear_paths ||
                                                               ts->n_path != 0)))
        FAIL("robot model '%s': trajopt: %d linear path constraints (with generated path "
             "constraints only, and their array)", sp->name, sp->n_linear_paths);
    if (ts->n_path == 0) {
        const hes_mech *mech = hes_robot_mech(rm->robot);
        int d = mech->d;
        for (int l = 0; l < sp->n_linear_paths; l++) {
            const hes_robot_linear_path *lp = &sp->linear_paths[l];
            if (!lp->name || !lp->name[0] || lp->mode < 0 || lp->mode >= rm->model.n_modes ||
                !lp->c || !hes__all_finite(lp->c, d + 1))
                FAIL("robot model '%s': trajopt: linear path constraint %d needs a name, a "
                     "mode and %d finite coefficients", sp->name, l, d + 1);
        }
        /* each mode's lists: its unilateral constraints and linear ones */
        for (int i = 0; i < rm->model.n_modes; i++) {
            hes__robot_view *v = &rm->mviews[i];
            for (int w = 0; w < 2; w++) {
                int nl = 0;
                for (int l = 0; l < sp->n_linear_paths; l++)
                    nl += sp->linear_paths[l].mode == i &&
                          (sp->linear_paths[l].at_end != 0) == w;
                v->path[w] = keep(rm, sizeof(int) * (size_t)mech->n_constraints);
                v->lin[w] = keep(rm, sizeof(double *) * (size_t)nl);
                if (!v->path[w] || !v->lin[w])
                    NOMEM();
            }
        }
        for (int l = 0; l < sp->n_linear_paths; l++) {
            const hes_robot_linear_path *lp = &sp->linear_paths[l];
            hes__robot_view *v = &rm->mviews[lp->mode];
            int w = lp->at_end != 0;
            double *c = keep(rm, sizeof(double) * (size_t)(d + 1));
            if (!c)
                NOMEM();
            memcpy(c, lp->c, sizeof(double) * (size_t)(d + 1));
            v->lin[w][v->n_lin[w]++] = c;
        }
        hes_path_constraint *pc = keep(rm, sizeof *pc * (size_t)(2 * rm->model.n_modes));
        if (!pc)
            NOMEM();
        int np = 0;
        for (int i = 0; i < rm->model.n_modes; i++) {
            hes__robot_view *v = &rm->mviews[i];
            v->n_path[0] = v->n_path[1] = 0;
            for (int c = 0; c < mech->n_constraints; c++) {
                if (!mech->constraints[c].unilateral || contains(v->active, v->n_active, c))
                    continue;
                int guard = 0;
                for (int k = 0; k < rm->model.n_transitions; k++)
                    guard |= rm->model.transitions[k].from == i &&
                             rm->mtrans[k].kind == HES_MECH_ACTIVATE &&
                             rm->mtrans[k].constraint == c;
                v->path[!guard][v->n_path[!guard]++] = c;
            }
            for (int w = 0; w < 2; w++) {
                int n = v->n_path[w] + v->n_lin[w];
                if (!n)
                    continue;
                const char **pn = keep(rm, sizeof *pn * (size_t)n);
                if (!pn)
                    NOMEM();
                for (int j = 0; j < v->n_path[w]; j++)
                    pn[j] = mech->constraints[v->path[w][j]].name;
                for (int l = 0, j = v->n_path[w]; l < sp->n_linear_paths; l++)
                    if (sp->linear_paths[l].mode == i && (sp->linear_paths[l].at_end != 0) == w)
                        if (!(pn[j++] = keep_str(rm, sp->linear_paths[l].name, NULL)))
                            NOMEM();
                pc[np++] = (hes_path_constraint){ i, n, pn, w ? path_others : path_guards, w };
            }
        }
        t->n_path = np;
        t->path = pc;
    }
    rm->model.trajopt = t;
fail:
    return st;
}

hes_status hes_robot_model_new(hes_robot *robot, const hes_robot_model_spec *sp,
                               hes_model **out, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    hes_status st = HES_OK;
    if (out)
        *out = NULL;
    if (!robot || !sp || !out || !sp->name || !sp->name[0] || sp->n_modes < 1 ||
        sp->n_modes > 1000 || !sp->modes || sp->n_transitions < 0 || sp->n_transitions > 1000 ||
        (sp->n_transitions > 0 && !sp->transitions)) {
        hes_robot_destroy(robot);
        return hes__say(msg, len, HES_EINVAL, "robot model: needs a robot, a name, 1 to 1000 "
                        "modes and their transitions");
    }
    robot_model *rm = calloc(1, sizeof *rm);
    if (!rm) {
        hes_robot_destroy(robot);
        return hes__say(msg, len, HES_ENOMEM, "out of memory for a robot model");
    }
    rm->robot = robot;
    rm->model.data = rm;
    rm->model.abi = HES_MODEL_ABI;
    rm->model.release = robot_model_release;
    rm->model.hold = robot_model_hold;
    rm->model.unhold = robot_model_unhold;
    rm->model.name = keep_str(rm, sp->name, NULL);
    rm->model.description = keep_str(rm, sp->description ? sp->description
                                     : "a robot file's hybrid model", NULL);
    if (!rm->model.name || !rm->model.description) {
        st = hes__say(msg, len, HES_ENOMEM, "out of memory for a robot model");
        goto fail;
    }
    rm->model.integrator = HES_ADAMS;
    rm->model.max_phase_time = sp->max_phase_time > 0 ? sp->max_phase_time : 10.0;
    rm->model.describe_error = describe_error;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if ((st = build_messages(rm, msg, len)) != HES_OK ||
        (st = build_params(rm, sp, msg, len)) != HES_OK ||
        (st = hes__robot_pool(robot, cpus < 1 ? 1 : cpus > 8 ? 8 : (int)cpus, msg, len)) !=
        HES_OK ||
        (st = build_modes(rm, sp, msg, len)) != HES_OK ||
        (st = build_transitions(rm, sp, msg, len)) != HES_OK ||
        (st = build_orbit(rm, sp, msg, len)) != HES_OK ||
        (st = build_trajopt(rm, sp, msg, len)) != HES_OK ||
        (st = hes_model_validate(&rm->model, err)) != HES_OK)
        goto fail;
    *out = &rm->model;
    return HES_OK;
fail:
    robot_model_release(rm);
    return st;
}

static const robot_model *as_robot_model(const hes_model *m)
{
    return m && m->data == (const void *)m ? (const robot_model *)m : NULL;
}

hes_robot *hes_robot_model_robot(const hes_model *model)
{
    const robot_model *rm = as_robot_model(model);
    return rm ? rm->robot : NULL;
}

/* The motion of a robot model's mode at state x (hes__mech_mode_motion;
 * the motor parameters of p are the torques) and what the mode holds (its
 * pinned contact, its locked coordinates). */
hes_status hes_robot_model_motion(const hes_model *model, int mode, double t, const double *x,
                                  const double *p, hes_robot_mode_motion *out, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    const robot_model *rm = as_robot_model(model);
    if (!rm || mode < 0 || mode >= model->n_modes || !x || !p || !out || !out->q || !out->v ||
        !out->a || !out->locked)
        return hes__say(msg, len, HES_EINVAL, "robot model motion: needs a robot model, one of "
                        "its modes, a state, parameters and out with its arrays q, v, a and "
                        "locked");
    const hes_mech_mode *mm = &rm->mmodes[mode];
    const hes__robot_view *v = &rm->mviews[mode];
    int d = v->mech.d;
    out->d = 0;
    out->pinned = -1;
    out->n_locked = 0;
    int rc = hes__mech_mode_motion(mm, t, x, p, out->q, out->v, out->a);
    if (rc)
        return hes__say(msg, len, HES_EMODEL, "robot model motion: mode '%s': %s",
                        model->modes[mode].name, describe_error(rc, (void *)rm));
    out->d = d;
    out->pinned = v->pinned;
    out->n_locked = v->n_locked;
    memcpy(out->locked, v->locked_dof, sizeof(int) * (size_t)v->n_locked);
    return HES_OK;
}
