/*
 * robot_view.c - views of a robot (robot_internal.h): its mechanical
 * system seen from one mode or one transition of a robot model, through
 * MuJoCo's kinematics.
 *   a mode          a chart q = chart(z): the free coordinates are z, the
 *                   joints a mode locks sit at their limits, and a pinned
 *                   contact (a planar robot whose first two joints slide
 *                   its root along x and z) is put at the origin by those
 *                   slides; the chart's acceleration exact from
 *                   mj_rnePostConstraint and mj_objectAcceleration;
 *   a transition    the lift through the source mode's chart, and the
 *                   target's coordinates A q + c (a relabel) or q[free];
 *   a pinned mode   hes_robot_pinned_mode: a mode that pins one contact,
 *                   without inputs.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_internal.h"
#include "model/robot_internal.h"

#include <mujoco/mujoco.h>

/*
 * A mode view's chart.  The free coordinates are z, the locked ones their
 * limits; a pinned contact c needs a planar robot whose first two
 * coordinates slide its root along x and z (hes__robot_mode_view
 * checks), and those slides put c at the origin: q[0..1] = -g(q~) with g
 * the site's (x, z) at q~ = q with zero slides, so that
 *     Dchart = [-J_g(q~) S; S],   D^2 chart [z', z'] = [-(dJ_g/dt) q'; 0]
 * (S selects the free coordinates, J_g the site Jacobian's x and z rows;
 * the slides' columns are constant, so the drift of the full rows along
 * q' = Dchart z' is that of J_g).
 */
static void view_q(const hes__robot_view *v, const double *z, double *q)
{
    memset(q, 0, sizeof(double) * (size_t)v->mech.d);
    for (int i = 0; i < v->k; i++)
        q[v->free[i]] = z[i];
    for (int j = 0; j < v->n_locked; j++)
        q[v->locked_dof[j]] = v->locked_val[j];
}

/* The chart at z on a grabbed instance r, kept for the next call with the
 * same view and z (a field, its chart's derivatives and the guards all
 * start from it): q into r->vq and, when D, Dchart into r->vD; MuJoCo's
 * position stage at q.  The site's row at q is its row at q~ (the root's
 * slides only translate). */
static void chart_here(hes_robot *r, const hes__robot_view *v, const double *z, int D)
{
    int nv = v->mech.d, k = v->k;
    size_t bz = sizeof(double) * (size_t)k;
    if (r->ch_view != v || memcmp(z, r->ch_z, bz) != 0) {
        view_q(v, z, r->vq);
        if (v->pinned >= 0) {
            double pt[3];
            hes__robot_at(r, r->vq);
            hes__robot_point(r, v->pinned, pt);
            r->vq[0] = -pt[0];
            r->vq[1] = -pt[2];
        }
        memcpy(r->ch_z, z, bz);
        r->ch_view = v;
        r->ch_D = 0;
        r->ch_acc = 0;
        r->ch_sec = 0;
    }
    if (D && !r->ch_D) {
        double *Dc = r->vD;
        memset(Dc, 0, sizeof(double) * (size_t)nv * (size_t)k);
        for (int i = 0; i < k; i++)
            Dc[v->free[i] + (size_t)i * nv] = 1;
        if (v->pinned >= 0) {
            hes__robot_site_contact(r, v->pinned, r->vq, NULL, r->Jp, r->Jm); /* z, x rows */
            for (int i = 0; i < k; i++) {
                Dc[0 + (size_t)i * nv] = -r->Jm[v->free[i]];
                Dc[1 + (size_t)i * nv] = -r->Jp[v->free[i]];
            }
        }
        r->ch_D = 1;
    }
    hes__robot_at(r, r->vq);
}

static int view_chart(const double *z, const double *p, double *q, void *data)
{
    (void)p;
    const hes__robot_view *v = data;
    hes_robot *r = hes__robot_grab(v->robot);
    chart_here(r, v, z, 0);
    memcpy(q, r->vq, sizeof(double) * (size_t)v->mech.d);
    HES_ROBOT_UNLOCK(r);
    return 0;
}

static int view_chart_dz(const double *z, const double *p, double *D, void *data)
{
    (void)p;
    const hes__robot_view *v = data;
    hes_robot *r = hes__robot_grab(v->robot);
    chart_here(r, v, z, 1);
    memcpy(D, r->vD, sizeof(double) * (size_t)v->mech.d * (size_t)v->k);
    HES_ROBOT_UNLOCK(r);
    return 0;
}

/* The site's acceleration at q'' = 0 is (dJ/dt) q' (robot_rne.c's
 * hes__robot_point_motion: the body's acceleration from its dofs' motion
 * axes, the velocity product terms included), exact rather than
 * differenced: a chart's acceleration must be smooth to the integrator's
 * tolerance.  On r with the chart at z (chart_here with D), into a (nv),
 * kept for the next call at the same z and z' (a field's Jacobian starts
 * from the field at its state). */
static void chart_acc_here(hes_robot *r, const hes__robot_view *v, const double *zd, double *a)
{
    int nv = v->mech.d;
    size_t bz = sizeof(double) * (size_t)v->k;
    memset(a, 0, sizeof(double) * (size_t)nv);
    if (v->pinned < 0)
        return;
    if (!r->ch_acc || memcmp(zd, r->ch_zd, bz) != 0) {
        double acc[3];
        hes__matmul(nv, v->k, 1, r->vD, zd, r->ev_v);
        hes__robot_point_motion(r, v->pinned, r->ev_v, 0, NULL, 0, NULL, NULL, acc, NULL, NULL);
        memcpy(r->ch_zd, zd, bz);
        r->ch_a[0] = -acc[0];
        r->ch_a[1] = -acc[2];
        r->ch_acc = 1;
    }
    a[0] = r->ch_a[0];
    a[1] = r->ch_a[1];
}

static int view_chart_acc(const double *z, const double *zd, const double *p, double *a,
                          void *data)
{
    (void)p;
    const hes__robot_view *v = data;
    hes_robot *r = hes__robot_grab(v->robot);
    chart_here(r, v, z, 1);
    chart_acc_here(r, v, zd, a);
    HES_ROBOT_UNLOCK(r);
    return 0;
}

/* chart, chart_dz, q' and chart_acc in one call (hes_mech_mode.chart_state) */
static int view_chart_state(const double *z, const double *zd, const double *p, double *q,
                            double *D, double *qd, double *a, void *data)
{
    (void)p;
    const hes__robot_view *v = data;
    int nv = v->mech.d;
    hes_robot *r = hes__robot_grab(v->robot);
    chart_here(r, v, z, 1);
    memcpy(q, r->vq, sizeof(double) * (size_t)nv);
    memcpy(D, r->vD, sizeof(double) * (size_t)nv * (size_t)v->k);
    hes__matmul(nv, v->k, 1, r->vD, zd, qd);
    if (a)
        chart_acc_here(r, v, zd, a);
    HES_ROBOT_UNLOCK(r);
    return 0;
}

/* D^2 chart[e_i, e_j]: only the slides move, by minus the derivative of
 * the site's (x, z) velocity at q' = e_(free j) along Dchart e_i (the
 * slides' columns of the site's Jacobian are constant). */
static int view_chart_second(const double *z, const double *p, double *S, void *data)
{
    (void)p;
    const hes__robot_view *v = data;
    int nv = v->mech.d, k = v->k;
    memset(S, 0, sizeof(double) * (size_t)nv * (size_t)k * (size_t)k);
    if (v->pinned < 0)
        return 0;
    hes_robot *r = hes__robot_grab(v->robot);
    double *u = r->ev_v, *dv = r->ev_m;
    chart_here(r, v, z, 1);
    memset(u, 0, sizeof(double) * (size_t)nv);
    for (int j = 0; j < k; j++) {
        u[v->free[j]] = 1;
        hes__robot_point_motion(r, v->pinned, u, k, r->vD, 0, NULL, NULL, NULL, dv, NULL);
        u[v->free[j]] = 0;
        for (int i = 0; i < k; i++) {
            S[((size_t)i * k + j) * nv + 0] = r->ch_S[2 * ((size_t)i * k + j)] = -dv[3 * i + 0];
            S[((size_t)i * k + j) * nv + 1] = r->ch_S[2 * ((size_t)i * k + j) + 1] = -dv[3 * i + 2];
        }
    }
    r->ch_sec = 1;
    HES_ROBOT_UNLOCK(r);
    return 0;
}

/* d acc/dz_j at fixed z': the site's acceleration a(q, q') with q' =
 * Dchart z' moves along q by Dchart e_j and along q' by D^2 chart[e_j,
 * z'], itself minus the derivative of the site's velocity at q' = S z'
 * (the free coordinates' rates) along Dchart e_j: sum_i z'_i D^2
 * chart[e_j, e_i] (the velocity is linear in q'), from chart_second's
 * values when they are kept for this z. */
static int view_chart_acc_dz(const double *z, const double *zd, const double *p, double *Az,
                             void *data)
{
    (void)p;
    const hes__robot_view *v = data;
    int nv = v->mech.d, k = v->k;
    memset(Az, 0, sizeof(double) * (size_t)nv * (size_t)k);
    if (v->pinned < 0)
        return 0;
    hes_robot *r = hes__robot_grab(v->robot);
    double *u = r->ev_v, *dv = r->ev_m, *W = r->ev_w, *qd = r->ev_acc;
    chart_here(r, v, z, 1);
    memset(W, 0, sizeof(double) * (size_t)nv * (size_t)k);
    if (r->ch_sec) {
        for (int j = 0; j < k; j++)   /* W e_j = D^2 chart[e_j, z'] */
            for (int i = 0; i < k; i++) {
                W[0 + (size_t)j * nv] += r->ch_S[2 * ((size_t)j * k + i)] * zd[i];
                W[1 + (size_t)j * nv] += r->ch_S[2 * ((size_t)j * k + i) + 1] * zd[i];
            }
    } else {
        memset(u, 0, sizeof(double) * (size_t)nv);
        for (int i = 0; i < k; i++)
            u[v->free[i]] = zd[i];
        hes__robot_point_motion(r, v->pinned, u, k, r->vD, 0, NULL, NULL, NULL, dv, NULL);
        for (int j = 0; j < k; j++) {
            W[0 + (size_t)j * nv] = -dv[3 * j + 0];
            W[1 + (size_t)j * nv] = -dv[3 * j + 2];
        }
    }
    hes__matmul(nv, k, 1, r->vD, zd, qd);
    hes__robot_point_motion(r, v->pinned, qd, k, r->vD, k, W, NULL, NULL, NULL, dv);
    for (int j = 0; j < k; j++) {
        Az[0 + (size_t)j * nv] = -(dv[3 * j + 0] + dv[3 * (k + j) + 0]);
        Az[1 + (size_t)j * nv] = -(dv[3 * j + 2] + dv[3 * (k + j) + 2]);
    }
    HES_ROBOT_UNLOCK(r);
    return 0;
}

/* A transition view: the lift is the source mode's chart; the target's
 * coordinates are A q + c, or q[to->free]. */
static int view_lift(const double *z, const double *p, double *q, void *data)
{
    return view_chart(z, p, q, (void *)((const hes__robot_view *)data)->from);
}

static int view_lift_dz(const double *z, const double *p, double *D, void *data)
{
    return view_chart_dz(z, p, D, (void *)((const hes__robot_view *)data)->from);
}

static int view_to_chart(const double *q, const double *p, double *z, void *data)
{
    (void)p;
    const hes__robot_view *v = data;
    int d = v->mech.d, k = v->to->k;
    for (int i = 0; i < k; i++) {
        if (!v->A) {
            z[i] = q[v->to->free[i]];
            continue;
        }
        double s = v->c ? v->c[i] : 0;
        for (int j = 0; j < d; j++)
            s += v->A[(size_t)i * d + j] * q[j];
        z[i] = s;
    }
    return 0;
}

static int view_to_chart_dq(const double *q, const double *p, double *D, void *data)
{
    (void)p, (void)q;
    const hes__robot_view *v = data;
    int d = v->mech.d, k = v->to->k;
    memset(D, 0, sizeof(double) * (size_t)d * (size_t)k);
    for (int i = 0; i < k; i++)
        for (int j = 0; j < d; j++)
            D[i + (size_t)j * k] = v->A ? v->A[(size_t)i * d + j] : (j == v->to->free[i]);
    return 0;
}

/* The coordinates a mode view fixes (the pinned root's slides, the locked
 * limits) and its held constraints, into v's arrays: fixed[i] marks
 * coordinate i.  HES_EINVAL (msg) for a lock that is not a joint limit or
 * fixes a coordinate twice. */
static hes_status fix_coordinates(hes_robot *r, int pinned, int n_locked, const int *locked,
                                  hes__robot_view *v, int *fixed, char *msg, size_t len)
{
    int nc = r->n_contacts;
    if (pinned >= 0) {
        fixed[0] = fixed[1] = 1;
        v->active[v->n_active++] = 2 * pinned;
        v->active[v->n_active++] = 2 * pinned + 1;
    }
    for (int j = 0; j < n_locked; j++) {
        int l = locked[j] - 2 * nc;
        if (l < 0 || l >= r->n_limits)
            return hes__say(msg, len, HES_EINVAL, "mode: constraint %d (%s) is not a joint limit: "
                            "only joint limits can be locked", locked[j],
                            locked[j] >= 0 && locked[j] < r->mech.n_constraints
                            ? r->names[locked[j]] : "out of range");
        if (fixed[r->lim_dof[l]])
            return hes__say(msg, len, HES_EINVAL, "mode: %s locks a coordinate already fixed "
                            "(pinned root or another limit)", r->names[locked[j]]);
        fixed[r->lim_dof[l]] = 1;
        v->locked_dof[v->n_locked] = r->lim_dof[l];
        v->locked_val[v->n_locked++] = r->lim_val[l];
        v->active[v->n_active++] = locked[j];
    }
    return HES_OK;
}

/* A mode view: the pinned contact's normal and no-slip constraints and the
 * locked limits held, the other coordinates free (robot_internal.h). */
hes_status hes__robot_mode_view(hes_robot *r, int pinned, int n_locked, const int *locked,
                                hes__robot_view *v, char *msg, size_t len)
{
    const mjModel *m = r->m;
    int nv = m->nv, nc = r->n_contacts;
    memset(v, 0, sizeof *v);
    r->ch_view = NULL;   /* a view may take the place of one kept */
    if (pinned >= nc || n_locked < 0 || n_locked > nv)
        return hes__say(msg, len, HES_EINVAL, "mode: contact %d or %d locked joints out of range",
                        pinned, n_locked);
    if (pinned >= 0) {
        /* the x slide on a body of the world, the z slide on the same body or
           its child (as a URDF writes them: one joint per link); the axes
           are in the bodies' frames, which must not be turned */
        int b0 = m->njnt >= 2 ? m->jnt_bodyid[0] : 0, b1 = m->njnt >= 2 ? m->jnt_bodyid[1] : 0;
        int ok = m->njnt >= 3 && r->tangents == 1 && m->body_parentid[b0] == 0 &&
                 (b1 == b0 || m->body_parentid[b1] == b0);
        for (int j = 0; ok && j < 2; j++) {
            const double *ax = m->jnt_axis + 3 * j, *bq = m->body_quat + 4 * m->jnt_bodyid[j];
            ok = m->jnt_type[j] == mjJNT_SLIDE && m->jnt_dofadr[j] == j && bq[0] == 1 &&
                 bq[1] == 0 && bq[2] == 0 && bq[3] == 0 && fabs(ax[1]) == 0 &&
                 fabs(ax[j ? 0 : 2]) == 0 && ax[j ? 2 : 0] == 1;
        }
        if (!ok)
            return hes__say(msg, len, HES_EINVAL, "a contact can be pinned only on a planar "
                            "robot whose first two joints slide its root along x and z");
    }
    /* free, locked_dof (nv each) and active (nv + 2) in one block */
    int *ints = calloc(3 * (size_t)nv + 2 + 4 * (size_t)nc + (size_t)r->n_limits, sizeof *ints);
    v->locked_val = calloc((size_t)nv, sizeof *v->locked_val);
    if (!ints || !v->locked_val) {
        free(ints);
        hes__robot_view_free(v);
        return hes__say(msg, len, HES_ENOMEM, "out of memory for a robot's mode");
    }
    v->robot = r;
    v->mech = r->mech;
    v->mech.data = v;
    v->pinned = pinned;
    v->free = ints;
    v->locked_dof = ints + nv;
    v->active = ints + 2 * (size_t)nv;
    v->sliding = ints + 3 * (size_t)nv + 2 + 3 * (size_t)nc + (size_t)r->n_limits;
    /* free[] first marks the fixed coordinates, then lists the others:
       free[k] is written after fixed[i] is read, and k <= i */
    int *fixed = v->free;
    hes_status st = fix_coordinates(r, pinned, n_locked, locked, v, fixed, msg, len);
    if (st != HES_OK) {
        hes__robot_view_free(v);
        return st;
    }
    for (int i = 0; i < nv; i++)
        if (!fixed[i])
            v->free[v->k++] = i;
    if (v->k < 1) {
        hes__robot_view_free(v);
        return hes__say(msg, len, HES_EINVAL, "mode: no coordinate left free");
    }
    return HES_OK;
}

hes_status hes__robot_view_hold(hes__robot_view *v, int n, const int *held, int n_slide,
                                const int *slide, char *msg, size_t len)
{
    hes_robot *r = v->robot;
    int nc = r->n_contacts, y0 = 2 * nc + r->n_limits;
    if (n > 0 && (v->pinned >= 0 || v->n_locked > 0))
        return hes__say(msg, len, HES_EINVAL, "mode: constraints held by their forces go with "
                        "no pinned contact and no locked joint");
    for (int i = 0; i < n; i++) {
        int k = held[i], limit = k >= 2 * nc && k < y0;
        if (k < 0 || k >= y0 || (!limit && k % 2))
            return hes__say(msg, len, HES_EINVAL, "mode: held constraint %d is neither a "
                            "contact (its normal, 2 c) nor a joint limit", k);
        for (int j = 0; j < i; j++)
            if (held[j] == k)
                return hes__say(msg, len, HES_EINVAL, "mode: %s held twice", r->names[k]);
        int sl = 0;
        for (int j = 0; j < n_slide; j++)
            sl |= slide[j] == k;
        if (limit || sl) {   /* a limit, or a sliding contact's normal alone */
            if (sl)
                v->sliding[v->n_sliding++] = k;
            v->active[v->n_active++] = k;
            continue;
        }
        /* a held foot sticks, which its friction must bear: without
           friction it would slide, and holding it would be wrong silently */
        if (!(r->cons[k].mu > 0))
            return hes__say(msg, len, HES_EINVAL, "contact '%s' has no friction "
                            "(mu %g): held by its forces it sticks, which needs mu > 0 (a "
                            "frictionless foot slides)", r->names[k], r->cons[k].mu);
        v->active[v->n_active++] = k;
        v->active[v->n_active++] = k + 1;
        if (r->tangents == 2)
            v->active[v->n_active++] = y0 + k / 2;
    }
    for (int j = 0; j < n_slide; j++) {
        int found = 0;
        for (int i = 0; i < n; i++)
            found |= held[i] == slide[j];
        if (!found || slide[j] < 0 || slide[j] >= 2 * nc || slide[j] % 2)
            return hes__say(msg, len, HES_EINVAL, "mode: a sliding contact must be one of "
                            "the contacts it holds (%d is not)", slide[j]);
        if (isinf(r->cons[slide[j]].mu))
            return hes__say(msg, len, HES_EINVAL, "contact '%s' is declared no-slip: it "
                            "cannot slide", r->names[slide[j]]);
    }
    v->held = n > 0;
    return HES_OK;
}

/* A mode view's arrays (hes__robot_mode_view's); the view zeroed. */
void hes__robot_view_free(hes__robot_view *v)
{
    free(v->free);
    free(v->locked_val);
    memset(v, 0, sizeof *v);
}

/* A mode view's hes_mech_mode: its chart when it fixes a coordinate. */
void hes__robot_view_mode(const hes__robot_view *v, hes_mech_mode *out)
{
    int chart = v->k < v->mech.d;
    *out = (hes_mech_mode){ .mech = &v->mech, .n_active = v->n_active, .active = v->active,
                            .k = v->k, .chart = chart ? view_chart : NULL,
                            .chart_dz = chart ? view_chart_dz : NULL,
                            .chart_acc = chart ? view_chart_acc : NULL,
                            .input = hes__robot_input,
                            .chart_second = chart ? view_chart_second : NULL,
                            .chart_acc_dz = chart ? view_chart_acc_dz : NULL,
                            .chart_state = chart ? view_chart_state : NULL,
                            .held = v->held, .n_sliding = v->n_sliding,
                            .sliding = v->sliding };
}

/* A transition view's callbacks (its fields are hes__robot_transition_view's). */
void hes__robot_transition_fns(hes_mech_transition *tr)
{
    tr->lift = view_lift;
    tr->lift_dz = view_lift_dz;
    tr->to_chart = view_to_chart;
    tr->to_chart_dq = view_to_chart_dq;
}

/* hes_robot_pinned_mode once its arguments are checked (robot.c): the
 * contact's view, kept by the robot, without inputs. */
hes_status hes__robot_pinned(const hes_robot *r, int contact, hes_mech_mode *out, char *msg,
                             size_t len)
{
    hes__robot_view *v = &r->pins[contact];
    char why[256];
    /* made once: a mode given before stays valid */
    hes_status st = v->robot ? HES_OK
                             : hes__robot_mode_view(r->self, contact, 0, NULL, v, why, sizeof why);
    if (st != HES_OK)
        return hes__say(msg, len, st, "pinned mode: %s", why);
    hes__robot_view_mode(v, out);
    out->input = NULL;
    return HES_OK;
}
