/*
 * test_robot_floating.c - hybrid models of robots with free and ball
 * joints: the state [q, v] with unit quaternions, integrated as
 * q' = G(q) v.  Each check is against an independent computation:
 *   - a box thrown spinning about a principal axis of inertia, in closed
 *     form (its centre a parabola, its attitude q0 (x) exp(w t / 2) at a
 *     constant body rate);
 *   - a body tumbling about no principal axis: its energy and its angular
 *     momentum in the world, conserved (Euler's equations, which the
 *     robot's Newton-Euler pass never writes down);
 *   - the unit norm of the quaternions along both;
 *   - the field's Jacobian of the quadruped on a free joint against
 *     central differences of its field (hes_model_check_derivatives);
 *   - inverse dynamics along a gait of that quadruped in flight
 *     (hes_invdyn_gait): at nodes of one state, one set of torques.
 * Skipped without MuJoCo.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hes.h"
#include "testutil.h"

/* a box of mass 2 and principal moments 0.05, 0.08, 0.11 (its geometry
 * none: an inertial element), its centre at the body's origin */
static const char box_xml[] =
    "<mujoco model='box'><compiler angle='radian'/>"
    "<option gravity='0 0 -9.81'/><worldbody>"
    "<body name='box' pos='0 0 1'><freejoint name='root'/>"
    "<inertial pos='0 0 0' mass='2' diaginertia='0.05 0.08 0.11'/>"
    "</body></worldbody></mujoco>";

/* A robot model of one flight mode from robot file path (NULL: skipped
 * without MuJoCo). */
static hes_model *flight_model_of(const char *path)
{
    hes_robot *r = NULL;
    hes_error err;
    hes_status st = hes_robot_read(path, NULL, 0, &r, &err);
    if (st == HES_ESOLVER)
        return NULL;   /* built without MuJoCo */
    ck_assert_msg(st == HES_OK, "%s", err.message);
    static const hes_robot_mode_spec flight = { "flight", -1, 0, NULL, 0, NULL, 0, NULL };
    hes_robot_model_spec sp = { .name = "floating", .n_modes = 1, .modes = &flight };
    hes_model *m = NULL;
    ck_assert_msg(hes_robot_model_new(r, &sp, &m, &err) == HES_OK, "%s", err.message);
    return m;
}

/* the same of a robot given as text, written to name (a mkstemps template
 * ending in .xml; the caller unlinks it after the model is gone: the model
 * reads it again for its pool) */
static hes_model *flight_model(const char *xml, char *name)
{
    int fd = mkstemps(name, 4);
    ck_assert(fd >= 0);
    ck_assert(write(fd, xml, strlen(xml)) == (ssize_t)strlen(xml));
    close(fd);
    return flight_model_of(name);
}

/* the model's default parameters (at most 16) */
static void defaults(const hes_model *m, double *p)
{
    ck_assert(m->n_params <= 16);
    for (int i = 0; i < m->n_params; i++)
        p[i] = m->params[i].value;
}

/* simulate model m from mode `mode`, x0, to t_end: its status, message, number of
 * events and (x1 not NULL, on success) final state (n values) */
static hes_status attempt(hes_model *m, int mode, const double *x0, double t_end, char *msg,
                          int *n_events, double *x1, int n)
{
    hes_system *sys = NULL;
    hes_error err;
    ck_assert_msg(hes_system_new(m, &sys, &err) == HES_OK, "%s", err.message);
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.t_end = t_end;
    hes_traj tr;
    hes_status st = hes_simulate(sys, mode, 0, 0, x0, &o, &tr);
    snprintf(msg, 512, "%s", hes_system_errmsg(sys));
    *n_events = tr.n_events;
    if (x1 && st == HES_OK)
        memcpy(x1, tr.phases[tr.n_phases - 1].x1, sizeof(double) * (size_t)n);
    hes_traj_free(&tr);
    hes_system_destroy(sys);
    return st;
}

/* the same from mode 0, which must succeed without an event: its final
 * state (n values) */
static void run(hes_model *m, const double *x0, double t_end, double *x1, int n)
{
    char msg[512];
    int ne;
    ck_assert_msg(attempt(m, 0, x0, t_end, msg, &ne, x1, n) == HES_OK, "%s", msg);
    ck_assert_int_eq(ne, 0);
}

/* out = a (x) b */
static void qmul(const double *a, const double *b, double *out)
{
    out[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    out[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    out[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    out[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

START_TEST(test_box_thrown_spinning_about_a_principal_axis)
{
    char name[] = "/tmp/hes_floating_XXXXXX.xml";
    hes_model *m = flight_model(box_xml, name);
    if (!m) {
        unlink(name);
        return;
    }
    ck_assert_int_eq(m->modes[0].dim, 13);
    ck_assert_int_eq(m->modes[0].tdim, 12);
    double n = sqrt(0.9 * 0.9 + 0.1 * 0.1 + 0.3 * 0.3 + 0.2 * 0.2);
    double x0[13] = { 0.1, -0.2, 1.0, 0.9 / n, 0.1 / n, 0.3 / n, 0.2 / n,
                      1.5, -0.5, 4.0,          /* the centre's velocity (world) */
                      0, 7.0, 0 },             /* about the body's y axis */
           x1[13], T = 1.3;
    run(m, x0, T, x1, 13);
    double worst_p = 0, worst_q = 0, worst_v = 0;
    const double g[3] = { 0, 0, -9.81 };
    for (int i = 0; i < 3; i++) {
        worst_p = fmax(worst_p, fabs(x1[i] - (x0[i] + x0[7 + i] * T + 0.5 * g[i] * T * T)));
        worst_v = fmax(worst_v, fabs(x1[7 + i] - (x0[7 + i] + g[i] * T)));
        worst_v = fmax(worst_v, fabs(x1[10 + i] - x0[10 + i]));
    }
    /* q0 (x) exp(w T / 2), w = (0, 7, 0) */
    double e[4] = { cos(3.5 * T), 0, sin(3.5 * T), 0 }, qT[4], nrm = 0;
    qmul(x0 + 3, e, qT);
    for (int i = 0; i < 4; i++) {
        worst_q = fmax(worst_q, fabs(x1[3 + i] - qT[i]));
        nrm += x1[3 + i] * x1[3 + i];
    }
    printf("test_robot_floating: thrown box after %.1f s: centre %.1e, attitude %.1e, "
           "velocities %.1e from the closed form; |q| - 1 = %.1e\n",
           T, worst_p, worst_q, worst_v, sqrt(nrm) - 1);
    ck_assert_msg(worst_p < 1e-8 && worst_q < 1e-8 && worst_v < 1e-8,
                  "centre %g, attitude %g, velocities %g", worst_p, worst_q, worst_v);
    ck_assert_msg(fabs(sqrt(nrm) - 1) < 1e-12, "|q| - 1 = %g", sqrt(nrm) - 1);
    hes_model_destroy(m);
    unlink(name);
}
END_TEST

/* R(q) (row-major) of a unit quaternion */
static void rotation(const double *q, double *R)
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    R[0] = 1 - 2 * (y * y + z * z), R[1] = 2 * (x * y - w * z), R[2] = 2 * (x * z + w * y);
    R[3] = 2 * (x * y + w * z), R[4] = 1 - 2 * (x * x + z * z), R[5] = 2 * (y * z - w * x);
    R[6] = 2 * (x * z - w * y), R[7] = 2 * (y * z + w * x), R[8] = 1 - 2 * (x * x + y * y);
}

/* energy and world angular momentum of the box at x */
static void invariants(const double *x, double *energy, double *L)
{
    const double I[3] = { 0.05, 0.08, 0.11 }, *w = x + 10, *v = x + 7;
    double R[9], Iw[3];
    rotation(x + 3, R);
    *energy = 0.5 * 2 * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + 2 * 9.81 * x[2];
    for (int i = 0; i < 3; i++) {
        Iw[i] = I[i] * w[i];
        *energy += 0.5 * I[i] * w[i] * w[i];
    }
    for (int i = 0; i < 3; i++)
        L[i] = R[3 * i] * Iw[0] + R[3 * i + 1] * Iw[1] + R[3 * i + 2] * Iw[2];
}

START_TEST(test_tumbling_body_keeps_energy_and_momentum)
{
    char name[] = "/tmp/hes_floating_XXXXXX.xml";
    hes_model *m = flight_model(box_xml, name);
    if (!m) {
        unlink(name);
        return;
    }
    double x0[13] = { 0, 0, 1, 1, 0, 0, 0, 0.3, 0.2, 5.0, 2.0, 3.0, -4.0 }, x1[13];
    run(m, x0, 2.0, x1, 13);
    double e0, e1, L0[3], L1[3], nrm = 0, dL = 0;
    invariants(x0, &e0, L0);
    invariants(x1, &e1, L1);
    for (int i = 0; i < 3; i++)
        dL = fmax(dL, fabs(L1[i] - L0[i]));
    for (int i = 0; i < 4; i++)
        nrm += x1[3 + i] * x1[3 + i];
    printf("test_robot_floating: tumbling body after 2 s: energy %.1e, momentum %.1e, "
           "|q| - 1 = %.1e\n", fabs(e1 - e0) / e0, dL, sqrt(nrm) - 1);
    ck_assert_msg(fabs(e1 - e0) < 1e-8 * e0, "energy %g -> %g", e0, e1);
    ck_assert_msg(dL < 1e-8, "angular momentum moved by %g", dL);
    ck_assert_msg(fabs(sqrt(nrm) - 1) < 1e-12, "|q| - 1 = %g", sqrt(nrm) - 1);
    hes_model_destroy(m);
    unlink(name);
}
END_TEST

START_TEST(test_quadruped_field_jacobian)
{
    char path[4096];
    hes_model *m = flight_model_of(test_robot_file(path, sizeof path, "quadruped_free.xml"));
    if (!m)
        return;
    double p[16];
    defaults(m, p);
    hes_status st;
    int n = m->modes[0].dim;
    ck_assert_int_eq(n, 19 + 18);
    double x[37];
    unsigned long long s = 11;
    for (int rep = 0; rep < 3; rep++) {
        for (int i = 0; i < n; i++) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            x[i] = ((double)(s >> 11) / 9007199254740992.0 - 0.5) * (i >= 19 ? 4 : 1);
        }
        double qn = sqrt(x[3] * x[3] + x[4] * x[4] + x[5] * x[5] + x[6] * x[6]);
        for (int i = 3; i < 7; i++)
            x[i] /= qn;
        const double *xs[1] = { x };
        hes_deriv_report rep_;
        st = hes_model_check_derivatives(m, p, 0, xs, &rep_);
        ck_assert_msg(st == HES_OK && !rep_.disagree, "%s: %g at %s", hes_strerror(st),
                      rep_.max_rel_err, rep_.where);
        ck_assert_msg(rep_.max_rel_err < 1e-6, "field Jacobian %g at %s", rep_.max_rel_err,
                      rep_.where);
    }
    hes_model_destroy(m);
}
END_TEST

/* A model of one mode of robot file path (its contacts: every site, or
 * the one site `site` with friction 1e3): pinned on contact `pinned`, or
 * holding the constraints `holds` by their forces (n_holds of them). */
static hes_model *one_mode(const char *path, const char *site, int pinned, int n_holds,
                           const int *holds)
{
    hes_robot *r = NULL;
    hes_error err;
    hes_robot_contact c = { site, 1e3 };
    hes_status st = hes_robot_read(path, site ? &c : NULL, site ? 1 : 0, &r, &err);
    if (st == HES_ESOLVER)
        return NULL;
    ck_assert_msg(st == HES_OK, "%s", err.message);
    hes_robot_mode_spec mode = { "stance", pinned, 0, NULL, n_holds, holds, 0, NULL };
    hes_robot_model_spec sp = { .name = "one-mode", .n_modes = 1, .modes = &mode };
    hes_model *m = NULL;
    ck_assert_msg(hes_robot_model_new(r, &sp, &m, &err) == HES_OK, "%s", err.message);
    return m;
}

/* The rimless wheel rolling on a spoke two ways: pinned (the chart puts
 * the spoke's foot at the origin, state [phi, phi']) and held by the
 * foot's normal and no-slip forces (state [x, z, phi, x', z', phi'] on the
 * constraints' manifold): the same motion and the same contact force. */
START_TEST(test_held_stance_equals_the_pinned_one)
{
    char path[4096];
    test_robot_file(path, sizeof path, "rimless_wheel.xml");
    const int foot[] = { 0 };
    hes_model *pin = one_mode(path, NULL, 0, 0, NULL), *hold = one_mode(path, NULL, -1, 1, foot);
    if (!pin)
        return;
    ck_assert_int_eq(pin->modes[0].dim, 2);
    ck_assert_int_eq(hold->modes[0].dim, 6);
    ck_assert_int_eq(hold->modes[0].tdim, 3);   /* x and phi, then phi' */
    double p[16];
    defaults(pin, p);
    const hes_mech_mode *mp = pin->modes[0].data, *mh = hold->modes[0].data;
    double z0[2] = { 0.1, -1.2 }, q[3], qd[3], lp[2], lh[2], x0[6], x1[6], z1[2];
    ck_assert_int_eq(hes_mech_mode_state(mp, 0, z0, p, q, qd, lp, NULL), HES_OK);
    memcpy(x0, q, sizeof q);
    memcpy(x0 + 3, qd, sizeof qd);
    ck_assert_int_eq(hes_mech_mode_state(mh, 0, x0, p, NULL, NULL, lh, NULL), HES_OK);
    double worst_l = fmax(fabs(lh[0] - lp[0]), fabs(lh[1] - lp[1]));
    run(pin, z0, 0.25, z1, 2);
    run(hold, x0, 0.25, x1, 6);
    ck_assert_int_eq(hes_mech_mode_state(mp, 0, z1, p, q, qd, lp, NULL), HES_OK);
    ck_assert_int_eq(hes_mech_mode_state(mh, 0, x1, p, NULL, NULL, lh, NULL), HES_OK);
    worst_l = fmax(worst_l, fmax(fabs(lh[0] - lp[0]), fabs(lh[1] - lp[1])));
    double worst = 0;
    for (int i = 0; i < 3; i++)
        worst = fmax(worst, fmax(fabs(x1[i] - q[i]), fabs(x1[3 + i] - qd[i])));
    printf("test_robot_floating: the wheel held against pinned after 0.25 s: state %.1e, "
           "forces %.1e (normal %.4f N)\n", worst, worst_l, lp[0]);
    ck_assert_msg(worst < 1e-8, "held and pinned stances differ by %g", worst);
    ck_assert_msg(worst_l < 1e-8 * (1 + fabs(lp[0])), "forces differ by %g", worst_l);
    hes_model_destroy(pin);
    hes_model_destroy(hold);
}
END_TEST

/* A heavy top two ways: a box on a free joint whose tip is held on the
 * ground by its normal and two no-slip forces, and the same box on a ball
 * joint at the tip (MuJoCo's joint, our quaternions): the same attitude
 * and spin after a second, the held tip where it started. */
static const char top_free_xml[] =
    "<mujoco model='top-free'><option gravity='0 0 -9.81'/><worldbody>"
    "<body name='top' pos='0 0 0.3'><freejoint name='root'/>"
    "<inertial pos='0 0 0' mass='1.5' diaginertia='0.02 0.03 0.01'/>"
    "<site name='tip' pos='0.02 -0.01 -0.3'/></body></worldbody></mujoco>";
static const char top_ball_xml[] =
    "<mujoco model='top-ball'><option gravity='0 0 -9.81'/><worldbody>"
    "<body name='top' pos='0 0 0'><joint name='pivot' type='ball'/>"
    "<inertial pos='-0.02 0.01 0.3' mass='1.5' diaginertia='0.02 0.03 0.01'/>"
    "</body></worldbody></mujoco>";

START_TEST(test_held_tip_is_a_ball_joint)
{
    char fname[] = "/tmp/hes_top_free_XXXXXX.xml", bname[] = "/tmp/hes_top_ball_XXXXXX.xml";
    const int tip[] = { 0 };
    int fd = mkstemps(fname, 4);
    ck_assert(fd >= 0 && write(fd, top_free_xml, strlen(top_free_xml)) > 0);
    close(fd);
    hes_model *held = one_mode(fname, "tip", -1, 1, tip);   /* friction enough */
    if (!held) {
        unlink(fname);
        return;
    }
    hes_model *ball = flight_model(top_ball_xml, bname);
    ck_assert_int_eq(held->modes[0].dim, 13);
    ck_assert_int_eq(held->modes[0].tdim, 8);   /* attitude and stick point, then spin */
    ck_assert_int_eq(ball->modes[0].dim, 7);
    /* tilted, spinning fast about the body's axis and precessing */
    double n = sqrt(0.95 * 0.95 + 0.2 * 0.2 + 0.1 * 0.1);
    double qb[4] = { 0.95 / n, 0.2 / n, -0.1 / n, 0 }, w[3] = { 0.5, -0.3, 25.0 };
    double R[9], r_tip[3] = { 0.02, -0.01, -0.3 }, wr[3], xb[7], xh[13];
    rotation(qb, R);
    memcpy(xb, qb, sizeof qb);
    memcpy(xb + 4, w, sizeof w);
    /* the free body: centre at -R r_tip, velocity R (w x (-r_tip)) */
    double wx[3] = { -(w[1] * r_tip[2] - w[2] * r_tip[1]), -(w[2] * r_tip[0] - w[0] * r_tip[2]),
                     -(w[0] * r_tip[1] - w[1] * r_tip[0]) };
    for (int i = 0; i < 3; i++) {
        xh[i] = -(R[3 * i] * r_tip[0] + R[3 * i + 1] * r_tip[1] + R[3 * i + 2] * r_tip[2]);
        wr[i] = R[3 * i] * wx[0] + R[3 * i + 1] * wx[1] + R[3 * i + 2] * wx[2];
    }
    memcpy(xh + 3, qb, sizeof qb);
    memcpy(xh + 7, wr, sizeof wr);
    memcpy(xh + 10, w, sizeof w);
    double yb[7], yh[13], T = 1.0;
    run(ball, xb, T, yb, 7);
    run(held, xh, T, yh, 13);
    double worst = 0, tipmove = 0;
    for (int i = 0; i < 4; i++)
        worst = fmax(worst, fabs(yh[3 + i] - yb[i]));
    for (int i = 0; i < 3; i++)
        worst = fmax(worst, fabs(yh[10 + i] - yb[4 + i]));
    rotation(yh + 3, R);
    for (int i = 0; i < 3; i++)
        tipmove = fmax(tipmove, fabs(yh[i] + R[3 * i] * r_tip[0] + R[3 * i + 1] * r_tip[1] +
                                     R[3 * i + 2] * r_tip[2]));
    printf("test_robot_floating: the held tip against a ball joint after %.0f s: attitude and "
           "spin %.1e, the tip moved %.1e\n", T, worst, tipmove);
    ck_assert_msg(worst < 1e-7, "held tip and ball joint differ by %g", worst);
    ck_assert_msg(tipmove < 1e-9, "the held tip moved by %g", tipmove);
    hes_model_destroy(held);
    hes_model_destroy(ball);
    unlink(fname);
    unlink(bname);
}
END_TEST

START_TEST(test_invdyn_along_a_flight_gait)
{
    char path[4096];
    hes_model *m = flight_model_of(test_robot_file(path, sizeof path, "quadruped_free.xml"));
    if (!m)
        return;
    enum { NODES = 3, DIM = 37 };
    ck_assert_int_eq(m->modes[0].dim, DIM);
    double p[16], x[NODES * DIM], u[16];
    defaults(m, p);
    /* the reference configuration, turned and moving; inputs on four motors */
    hes_robot *base = hes_robot_model_robot(m);
    ck_assert_int_eq(hes_robot_reference(base, x), HES_OK);
    const double h = sqrt(0.5);
    x[3] = h, x[4] = 0, x[5] = 0, x[6] = h;
    for (int i = 19; i < DIM; i++)
        x[i] = 0.1 * (i % 5) - 0.2;
    for (int n = 1; n < NODES; n++)
        memcpy(x + n * DIM, x, sizeof(double) * DIM);
    int inputs[4], n_in = 4;   /* the first four motors' controls */
    ck_assert_int_ge(m->n_params, n_in);
    for (int k = 0; k < n_in; k++)
        inputs[k] = k, u[k] = 0.5 * (k + 1);
    hes_gait_phase ph = { .mode = 0, .transition = -1, .duration = 0.1, .nodes = NODES,
                          .x = x, .u_rows = 1, .u = u };
    hes_gait g = { .problem = (char *)m->name, .params = p, .n_params = m->n_params,
                   .n_inputs = n_in, .inputs = inputs, .n_phases = 1, .phases = &ph };
    hes_invdyn_run run;
    hes_robot *robot = NULL;
    hes_error err;
    ck_assert_msg(hes_invdyn_gait(m, &g, NULL, &robot, &run, &err) == HES_OK, "%s",
                  err.message);
    double spread = 0;
    for (int n = 0; n < NODES; n++) {
        ck_assert_msg(run.status[n] == HES_OK, "node %d: %s", n, run.message[n]);
        for (int a = 0; a < run.nu; a++)
            spread = fmax(spread, fabs(run.tau[n * run.nu + a] - run.tau[a]));
    }
    ck_assert_msg(spread < 1e-9, "the same state's torques differ by %g from node to node",
                  spread);
    double largest = 0;
    for (int a = 0; a < run.nu; a++)
        largest = fmax(largest, fabs(run.tau[a]));
    ck_assert_msg(largest > 0.1, "torques of at most %g for inputs of 0.5 to 2", largest);
    hes_invdyn_run_free(&run);
    hes_robot_destroy(robot);
    hes_model_destroy(m);
}
END_TEST

/* The box whose tip lands or stands on the ground with friction mu: a
 * flight mode and a stance that holds the tip, the landing between them. */
static hes_model *landing_model(const char *path, double mu)
{
    hes_robot_contact tip = { "tip", mu };
    hes_robot *r = NULL;
    hes_error err;
    hes_status st = hes_robot_read(path, &tip, 1, &r, &err);
    if (st == HES_ESOLVER)
        return NULL;
    ck_assert_msg(st == HES_OK, "%s", err.message);
    static const int held[] = { 0 };
    static const hes_robot_mode_spec modes[] = { { "flight", -1, 0, NULL, 0, NULL, 0, NULL },
                                                 { "stance", -1, 0, NULL, 1, held, 0, NULL } };
    static const hes_robot_transition_spec land[] = {
        { "touchdown", 0, 1, HES_MECH_ACTIVATE, 0, 0, NULL, -1, NULL, NULL },
    };
    hes_robot_model_spec sp = { .name = "landing", .n_modes = 2, .modes = modes,
                                .n_transitions = 1, .transitions = land };
    hes_model *m = NULL;
    ck_assert_msg(hes_robot_model_new(r, &sp, &m, &err) == HES_OK, "%s", err.message);
    return m;
}

/* Friction at the held tip, at the landing (the impact's impulses) and in
 * the stance (the held forces): within mu the motion goes on, beyond it the
 * foot would slip and the simulation is refused, saying so. */
START_TEST(test_friction_cone_at_landing_and_in_stance)
{
    char name[] = "/tmp/hes_top_slip_XXXXXX.xml";
    int fd = mkstemps(name, 4);
    ck_assert(fd >= 0 && write(fd, top_free_xml, strlen(top_free_xml)) > 0);
    close(fd);
    hes_model *sticky = landing_model(name, 10), *slippery = landing_model(name, 0.05);
    if (!sticky) {
        unlink(name);
        return;
    }
    /* upright, the tip 1 cm above the ground, falling at 1 m/s while moving
       sideways at 2 m/s: the landing's tangential impulse is about twice the
       normal one */
    double x0[13] = { 0, 0, 0.31, 1, 0, 0, 0, 2.0, 0, -1.0, 0, 0, 0 };
    char msg[512];
    int ne;
    ck_assert_msg(attempt(sticky, 0, x0, 0.05, msg, &ne, NULL, 0) == HES_OK, "%s", msg);
    ck_assert_int_eq(ne, 1);
    ck_assert_int_ne(attempt(slippery, 0, x0, 0.05, msg, &ne, NULL, 0), HES_OK);
    ck_assert_msg(strstr(msg, "slip") && strstr(msg, "contact 'tip'"), "%s", msg);
    /* standing on the tip, tilted and spinning: the stance needs a sideways
       force to turn the centre of mass */
    double n = sqrt(0.95 * 0.95 + 0.3 * 0.3);
    double qb[4] = { 0.95 / n, 0.3 / n, 0, 0 }, R[9], r_tip[3] = { 0.02, -0.01, -0.3 },
           xs[13] = { 0 };
    rotation(qb, R);
    for (int i = 0; i < 3; i++)
        xs[i] = -(R[3 * i] * r_tip[0] + R[3 * i + 1] * r_tip[1] + R[3 * i + 2] * r_tip[2]);
    memcpy(xs + 3, qb, sizeof qb);
    ck_assert_msg(attempt(sticky, 1, xs, 0.2, msg, &ne, NULL, 0) == HES_OK, "%s", msg);
    hes_model *icy = landing_model(name, 1e-4);
    ck_assert_int_ne(attempt(icy, 1, xs, 0.2, msg, &ne, NULL, 0), HES_OK);
    ck_assert_msg(strstr(msg, "slip") && strstr(msg, "contact 'tip'"), "%s", msg);
    /* the field refuses the state, its Jacobian (the differences' states are
       not the motion's) does not */
    double p[16], f[13], J[13 * 13];
    defaults(icy, p);
    ck_assert_int_ne(hes_mech_field(0, xs, p, f, icy->modes[1].data), 0);
    ck_assert_int_eq(hes_mech_field_dx(0, xs, p, J, icy->modes[1].data), 0);
    hes_model_destroy(sticky);
    hes_model_destroy(slippery);
    hes_model_destroy(icy);
    unlink(name);
}
END_TEST

/* The trot's symmetries (level ground: x, y and the turn about the
 * vertical) as a finite action (hes_orbit_spec.symmetry_act), against
 * what it must be: its derivative at 0 the generators (central
 * differences through the mode's chart), turns that add, and motions
 * mapped to motions: the flow from the turned and moved start is the
 * flow from the start, turned and moved (gravity along -z, the joints'
 * feedback on the joints alone). */
START_TEST(test_trot_moved_and_turned_is_a_motion)
{
    char buf[1024];
    hes_model *m = NULL;
    hes_error err;
    ck_assert_msg(hes_robot_model_read(test_robot_file(buf, sizeof buf, "quadruped_trot.json"),
                                       &m, &err) == HES_OK, "%s", err.message);
    const hes_orbit_spec *o = &m->orbit;
    const hes_mode *md = &m->modes[o->mode];
    ck_assert(o->n_symmetries == 3 && o->symmetries && o->symmetry_act && md->local);
    hes_system *sys = NULL;
    ck_assert_int_eq(hes_system_new(m, &sys, &err), HES_OK);
    hes_settings set = hes_system_get_settings(sys);
    set.max_wall_time = set.max_search_time = HUGE_VAL;
    ck_assert_int_eq(hes_system_set_settings(sys, &set), HES_OK);
    int n = md->dim, nt = md->tdim;
    double *p = malloc(sizeof(double) * (size_t)m->n_params);
    double *x = malloc(sizeof(double) * 8 * (size_t)n), *y = x + n, *z = y + n, *w = z + n,
           *Y = w + n, *d = Y + 3 * (size_t)n;
    memcpy(p, hes_system_params(sys), sizeof(double) * (size_t)m->n_params);
    ck_assert_int_eq(o->guess(p, x, m->data), 0);
    /* the generators against differences of the action */
    ck_assert_int_eq(o->symmetries(x, p, Y, md->data), 0);
    double worst = 0, h = 1e-6;
    for (int k = 0; k < 3; k++) {
        double th[3] = { 0, 0, 0 }, dp[64], dm[64];
        ck_assert(nt <= 64);
        th[k] = h;
        ck_assert_int_eq(o->symmetry_act(x, th, p, y, md->data), 0);
        ck_assert_int_eq(md->local(y, x, p, dp, md->data), 0);
        th[k] = -h;
        ck_assert_int_eq(o->symmetry_act(x, th, p, y, md->data), 0);
        ck_assert_int_eq(md->local(y, x, p, dm, md->data), 0);
        for (int i = 0; i < nt; i++)
            worst = fmax(worst, fabs((dp[i] - dm[i]) / (2 * h) - Y[i + (size_t)k * nt]));
    }
    ck_assert_msg(worst < 1e-8, "the action's derivative against the generators: %g", worst);
    /* turns add: by 0.4, then by 0.9, is by 1.3 */
    const double a[3] = { 0, 0, 0.4 }, b[3] = { 0, 0, 0.9 }, ab[3] = { 0, 0, 1.3 };
    ck_assert_int_eq(o->symmetry_act(x, a, p, y, md->data), 0);
    ck_assert_int_eq(o->symmetry_act(y, b, p, z, md->data), 0);
    ck_assert_int_eq(o->symmetry_act(x, ab, p, w, md->data), 0);
    for (int i = 0; i < n; i++)
        ck_assert_msg(fabs(z[i] - w[i]) < 1e-14 * (1 + fabs(w[i])), "turns add: [%d]", i);
    /* the flow commutes with the action over 30 ms */
    const double th[3] = { 0.3, -0.2, 0.7 };
    hes_sim_options opts;
    hes_sim_options_init(&opts);
    opts.t_end = 0.03;
    hes_traj t1, t2;
    ck_assert_int_eq(o->symmetry_act(x, th, p, y, md->data), 0);
    ck_assert_msg(hes_simulate(sys, o->mode, 0, 0, x, &opts, &t1) == HES_OK, "%s",
                  hes_system_errmsg(sys));
    ck_assert_msg(hes_simulate(sys, o->mode, 0, 0, y, &opts, &t2) == HES_OK, "%s",
                  hes_system_errmsg(sys));
    const hes_phase *e1 = &t1.phases[t1.n_phases - 1], *e2 = &t2.phases[t2.n_phases - 1];
    ck_assert_int_eq(e1->mode, o->mode);
    ck_assert_int_eq(e2->mode, o->mode);
    ck_assert_int_eq(o->symmetry_act(e1->x1, th, p, z, md->data), 0);
    ck_assert_int_eq(md->local(e2->x1, z, p, d, md->data), 0);
    double far = 0, moved = 0;
    for (int i = 0; i < nt; i++)
        far = fmax(far, fabs(d[i]));
    ck_assert_int_eq(md->local(e1->x1, x, p, d, md->data), 0);
    for (int i = 0; i < nt; i++)
        moved = fmax(moved, fabs(d[i]));
    printf("test_robot_floating: the trot moved and turned: the action's derivative %.1e from "
           "the generators, the flows %.1e apart after 30 ms (the motion moved %.3g)\n", worst,
           far, moved);
    ck_assert_msg(far < 1e-8 && moved > 1e-3, "flow then action against action then flow: "
                  "%g (the motion moved %g)", far, moved);
    hes_traj_free(&t1);
    hes_traj_free(&t2);
    free(x);
    free(p);
    hes_system_destroy(sys);
    hes_model_destroy(m);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("robot_floating");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_box_thrown_spinning_about_a_principal_axis);
    tcase_add_test(tc, test_tumbling_body_keeps_energy_and_momentum);
    tcase_add_test(tc, test_quadruped_field_jacobian);
    tcase_add_test(tc, test_held_stance_equals_the_pinned_one);
    tcase_add_test(tc, test_held_tip_is_a_ball_joint);
    tcase_add_test(tc, test_invdyn_along_a_flight_gait);
    tcase_add_test(tc, test_friction_cone_at_landing_and_in_stance);
    tcase_add_test(tc, test_trot_moved_and_turned_is_a_motion);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
