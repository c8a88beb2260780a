/*
 * test_robot_eval.c - a robot's equations of motion through MuJoCo's
 * recursive Newton-Euler pass (hes_mech.net_force and net_force_dx,
 * lib/model/robot_eval.c) against independent computations at random
 * states:
 *   - f - c against the applied force less the Coriolis term the library
 *     derives from dM/dq (the Christoffel symbols: another formula, other
 *     MuJoCo passes), and M q'' + c + g - passive against MuJoCo's own
 *     inverse dynamics (mj_inverse's qfrc_inverse);
 *   - (dr/dq) V, dr/dq' and dr/du against central differences of r = f -
 *     c - M q'' in the directions V;
 *   - a mode's field Jacobian (hes_mech_field_dx) through the fast path
 *     against the same mode without it (dM/dq, the library's Coriolis
 *     terms and differences of the force), pinned and unpinned;
 *   - the position stage shared across a planar root's slides: a foot's
 *     height and normal row at random slides against MuJoCo's own pass at
 *     that configuration, slides included.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mujoco/mujoco.h>

#include "hes.h"
#include "testutil.h"

static unsigned long long rng = 29;
static double uniform(double lo, double hi)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

static hes_robot *load(const char *name, int n, const char *const *sites)
{
    char buf[4096];
    if (name[0] != '/')
        name = test_robot_file(buf, sizeof buf, name);
    hes_robot_contact c[4];
    for (int i = 0; i < n; i++)
        c[i] = (hes_robot_contact){ sites[i], 1.0 };
    hes_robot *r = NULL;
    hes_error err;
    hes_status st = hes_robot_read(name, c, n, &r, &err);
    if (st == HES_ESOLVER)
        return NULL;   /* built without MuJoCo */
    ck_assert_msg(st == HES_OK, "%s", err.message);
    return r;
}

#define D_MAX 16

/* r(q, q', q'', u) = f - c - M q'' through net_force */
static void residual(const hes_mech *m, const double *q, const double *qd, const double *qdd,
                     const double *u, double *r)
{
    double M[D_MAX * D_MAX];
    int d = m->d;
    ck_assert_int_eq(m->net_force(q, qd, u, NULL, r, m->data), 0);
    ck_assert_int_eq(m->mass(q, NULL, M, m->data), 0);
    for (int i = 0; i < d; i++)
        for (int j = 0; j < d; j++)
            r[i] -= M[i + j * d] * qdd[j];
}

static double rel(double a, double b, double scale)
{
    return fabs(a - b) / fmax(1.0, scale);
}

/* A random state of MuJoCo model mm: q (nq; its balls' and free joints'
 * quaternions unit), q' and q'' (nv). */
static void random_state(const mjModel *mm, double *q, double *qd, double *qdd)
{
    for (int i = 0; i < mm->nq; i++)
        q[i] = uniform(-1, 1);
    for (int j = 0; j < mm->njnt; j++)
        if (mm->jnt_type[j] == mjJNT_BALL || mm->jnt_type[j] == mjJNT_FREE)
            mju_normalize4(q + mm->jnt_qposadr[j] + (mm->jnt_type[j] == mjJNT_FREE ? 3 : 0));
    for (int i = 0; i < mm->nv; i++) {
        qd[i] = uniform(-3, 3);
        qdd[i] = uniform(-5, 5);
    }
}

/* f - c (net_force) against force - c(dM/dq) (robots whose coordinates are
 * their velocities), and against mj_inverse */
static void check_net_force(const char *file, int n, const char *const *sites)
{
    hes_robot *r = load(file, n, sites);
    if (!r)
        return;
    const hes_mech *m = hes_robot_mech(r);
    /* MuJoCo's inverse dynamics without its constraints (joint limits,
       contacts): qfrc_inverse = M q'' + c + g - passive */
    mjModel *mm = mj_copyModel(NULL, hes_robot_mujoco_model(r));
    mm->opt.disableflags |= mjDSBL_CONSTRAINT;
    mjData *dd = mj_makeData(mm);
    int d = m->d, nu = hes_robot_motor_count(r), nq = mm->nq;
    ck_assert(d <= D_MAX && nq <= D_MAX);
    double worst = 0, worst_inv = 0;
    for (int rep = 0; rep < 50; rep++) {
        double q[D_MAX], qd[D_MAX], qdd[D_MAX], u[D_MAX] = { 0 }, f[D_MAX], net[D_MAX],
               dM[D_MAX * D_MAX * D_MAX], M[D_MAX * D_MAX];
        random_state(mm, q, qd, qdd);
        for (int a = 0; a < nu; a++)
            u[a] = uniform(-2, 2);
        ck_assert_int_eq(m->net_force(q, qd, u, NULL, net, m->data), 0);
        ck_assert_int_eq(m->force(q, qd, u, NULL, f, m->data), 0);
        ck_assert_int_eq(m->mass(q, NULL, M, m->data), 0);
        /* c_i = sum_kj (dM_ij/dq_k) q'_k q'_j - 1/2 sum_kj q'_k (dM_kj/dq_i) q'_j,
           in coordinates that are their own velocities */
        if (nq == d)
            ck_assert_int_eq(m->mass_dq(q, NULL, dM, m->data), 0);
        for (int i = 0; nq == d && i < d; i++) {
            double c = 0, scale = fabs(f[i]);
            for (int k = 0; k < d; k++)
                for (int j = 0; j < d; j++) {
                    c += dM[k * d * d + i + j * d] * qd[k] * qd[j];
                    c -= 0.5 * qd[k] * dM[i * d * d + k + j * d] * qd[j];
                }
            worst = fmax(worst, rel(net[i], f[i] - c, scale + fabs(c)));
        }
        /* MuJoCo's inverse dynamics: qfrc_inverse = M q'' + c + g - passive
           (armature included in M), so f - c - M q'' = B u - qfrc_inverse */
        memcpy(dd->qpos, q, sizeof(double) * (size_t)nq);
        memcpy(dd->qvel, qd, sizeof(double) * (size_t)d);
        memcpy(dd->qacc, qdd, sizeof(double) * (size_t)d);
        mj_inverse(mm, dd);
        double res[D_MAX];
        residual(m, q, qd, qdd, u, res);
        for (int i = 0; i < d; i++) {
            double Bu = 0;
            for (int a = 0; a < nu; a++) {
                double fa[D_MAX], f0[D_MAX], ua[D_MAX] = { 0 };
                ua[a] = 1;
                ck_assert_int_eq(m->force(q, qd, ua, NULL, fa, m->data), 0);
                ck_assert_int_eq(m->force(q, qd, NULL, NULL, f0, m->data), 0);
                Bu += (fa[i] - f0[i]) * u[a];
            }
            worst_inv = fmax(worst_inv, rel(res[i], Bu - dd->qfrc_inverse[i],
                                            fabs(dd->qfrc_inverse[i])));
        }
    }
    mj_deleteData(dd);
    mj_deleteModel(mm);
    hes_robot_destroy(r);
    ck_assert_msg(worst < 1e-11, "%s: net_force against force - c(dM/dq): %g", file, worst);
    ck_assert_msg(worst_inv < 1e-11, "%s: f - c - M q'' against mj_inverse: %g", file, worst_inv);
}

START_TEST(test_net_force_knee_biped)
{
    static const char *const feet[] = { "foot1", "foot2" };
    check_net_force("knee_biped.xml", 2, feet);
}
END_TEST

START_TEST(test_net_force_quadruped)
{
    static const char *const feet[] = { "lf_foot", "rh_foot" };
    check_net_force("quadruped_planar.xml", 2, feet);
}
END_TEST

/* A robot with what the files above lack: joint springs (stiffness,
 * springref), dampers, armature and a geared motor. */
static const char springy_xml[] =
    "<mujoco model=\"springy\">\n"
    "  <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n"
    "  <worldbody><body name=\"base\">\n"
    "    <joint name=\"x\" type=\"slide\" axis=\"1 0 0\"/>\n"
    "    <joint name=\"z\" type=\"slide\" axis=\"0 0 1\"/>\n"
    "    <inertial pos=\"0 0 0\" mass=\"2\" diaginertia=\"0.1 0.1 0.1\"/>\n"
    "    <body name=\"thigh\" pos=\"0.1 0 0\">\n"
    "      <joint name=\"hip\" type=\"hinge\" axis=\"0 -1 0\" stiffness=\"3\"\n"
    "             springref=\"0.2\" damping=\"0.7\" armature=\"0.05\"/>\n"
    "      <inertial pos=\"0 0 -0.2\" mass=\"0.8\" diaginertia=\"0.02 0.03 0.01\"/>\n"
    "      <body name=\"shank\" pos=\"0 0 -0.4\">\n"
    "        <joint name=\"knee\" type=\"hinge\" axis=\"0 -1 0\" damping=\"0.3\"/>\n"
    "        <inertial pos=\"0.02 0 -0.2\" mass=\"0.4\" diaginertia=\"0.01 0.02 0.015\"/>\n"
    "        <site name=\"foot\" pos=\"0 0 -0.4\"/>\n"
    "      </body></body></body></worldbody>\n"
    "  <actuator><motor name=\"knee_motor\" joint=\"knee\" gear=\"2\"/></actuator>\n"
    "</mujoco>\n";

/* text into a new file at path, a mkstemps template ending in ".xml" */
static void write_text(char *path, const char *text)
{
    int fd = mkstemps(path, 4);
    ck_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    ck_assert(f && fputs(text, f) >= 0 && fclose(f) == 0);
}

START_TEST(test_net_force_springs_dampers_motor)
{
    static const char *const foot[] = { "foot" };
    char path[] = "/tmp/hes_springy_XXXXXX.xml";
    write_text(path, springy_xml);
    check_net_force(path, 1, foot);
    unlink(path);
}
END_TEST

/* net_force_dx against central differences of r along random directions */
static void check_net_force_dx(const char *file, int n_feet, const char *const *feet)
{
    hes_robot *r = load(file, n_feet, feet);
    if (!r)
        return;
    const hes_mech *m = hes_robot_mech(r);
    const mjModel *mm = hes_robot_mujoco_model(r);
    int d = m->d, nu = hes_robot_motor_count(r), nq = mm->nq;
    double worst = 0;
    for (int rep = 0; rep < 20; rep++) {
        double q[D_MAX], qd[D_MAX], qdd[D_MAX], u[D_MAX] = { 0 }, V[D_MAX * 3],
               rq[D_MAX * 3], rqd[D_MAX * D_MAX], ru[D_MAX * D_MAX];
        random_state(mm, q, qd, qdd);
        for (int i = 0; i < 3 * d; i++)
            V[i] = uniform(-1, 1);
        for (int a = 0; a < nu; a++)
            u[a] = uniform(-2, 2);
        ck_assert_int_eq(m->net_force_dx(q, qd, qdd, u, NULL, 3, V, rq, rqd, ru, m->data), 0);
        /* central differences, step 1e-5: error ~1e-10; q moves along the
           velocity direction V_j by MuJoCo's own map */
        double h = 1e-5, qp[D_MAX], qm[D_MAX], rp[D_MAX], rm[D_MAX];
        for (int j = 0; j < 3; j++) {
            memcpy(qp, q, sizeof(double) * (size_t)nq);
            memcpy(qm, q, sizeof(double) * (size_t)nq);
            mj_integratePos(mm, qp, V + j * d, h);
            mj_integratePos(mm, qm, V + j * d, -h);
            residual(m, qp, qd, qdd, u, rp);
            residual(m, qm, qd, qdd, u, rm);
            for (int i = 0; i < d; i++)
                worst = fmax(worst, rel(rq[i + j * d], (rp[i] - rm[i]) / (2 * h),
                                        fabs(rp[i])));
        }
        for (int j = 0; j < d; j++) {
            memcpy(qp, qd, sizeof qp);
            memcpy(qm, qd, sizeof qm);
            qp[j] += h;
            qm[j] -= h;
            residual(m, q, qp, qdd, u, rp);
            residual(m, q, qm, qdd, u, rm);
            for (int i = 0; i < d; i++)
                worst = fmax(worst, rel(rqd[i + j * d], (rp[i] - rm[i]) / (2 * h),
                                        fabs(rp[i])));
        }
        for (int a = 0; a < nu; a++) {
            double up[D_MAX], um[D_MAX];
            memcpy(up, u, sizeof up);
            memcpy(um, u, sizeof um);
            up[a] += h;
            um[a] -= h;
            residual(m, q, qd, qdd, up, rp);
            residual(m, q, qd, qdd, um, rm);
            for (int i = 0; i < d; i++)
                worst = fmax(worst, rel(ru[i + a * d], (rp[i] - rm[i]) / (2 * h), 1));
        }
    }
    hes_robot_destroy(r);
    ck_assert_msg(worst < 1e-8, "%s: net_force_dx against central differences: %g", file,
                  worst);
}

START_TEST(test_net_force_dx)
{
    static const char *const feet[] = { "foot1", "foot2" }, *const foot[] = { "foot" };
    check_net_force_dx("knee_biped.xml", 2, feet);
    char path[] = "/tmp/hes_springy_XXXXXX.xml";
    write_text(path, springy_xml);
    check_net_force_dx(path, 1, foot);
    unlink(path);
}
END_TEST

/* A mode's field and its Jacobian through the fast path against the same
 * mode through dM/dq (net_force and net_force_dx removed). */
static void check_mode(const hes_mech_mode *fast, int pinned)
{
    hes_mech slow_mech = *fast->mech;
    slow_mech.net_force = NULL;
    slow_mech.net_force_dx = NULL;
    hes_mech_mode slow = *fast;   /* and the chart's derivatives by differences */
    slow.mech = &slow_mech;
    slow.chart_second = NULL;
    slow.chart_acc_dz = NULL;
    int k = fast->k, n = 2 * k;
    double worst_f = 0, worst_j = 0;
    for (int rep = 0; rep < 20; rep++) {
        double x[2 * D_MAX], ff[2 * D_MAX], fs[2 * D_MAX], Jf[4 * D_MAX * D_MAX],
               Js[4 * D_MAX * D_MAX];
        for (int i = 0; i < k; i++) {
            x[i] = uniform(-0.5, 0.5);
            x[k + i] = uniform(-2, 2);
        }
        ck_assert_int_eq(hes_mech_field(0, x, NULL, ff, (void *)fast), 0);
        ck_assert_int_eq(hes_mech_field(0, x, NULL, fs, (void *)&slow), 0);
        ck_assert_int_eq(hes_mech_field_dx(0, x, NULL, Jf, (void *)fast), 0);
        ck_assert_int_eq(hes_mech_field_dx(0, x, NULL, Js, (void *)&slow), 0);
        for (int i = 0; i < n; i++)
            worst_f = fmax(worst_f, rel(ff[i], fs[i], fabs(fs[i])));
        for (int i = 0; i < n * n; i++)
            worst_j = fmax(worst_j, rel(Jf[i], Js[i], fabs(Js[i])));
    }
    ck_assert_msg(worst_f < 1e-11, "field (pinned %d): fast against dM/dq: %g", pinned, worst_f);
    ck_assert_msg(worst_j < 1e-8, "field Jacobian (pinned %d): fast against dM/dq: %g", pinned,
                  worst_j);
}

START_TEST(test_field_through_the_fast_path)
{
    static const char *const feet[] = { "foot1", "foot2" };
    hes_robot *r = load("knee_biped.xml", 2, feet);
    if (!r)
        return;
    hes_mech_mode pinned, flight;
    hes_error err;
    ck_assert_int_eq(hes_robot_pinned_mode(r, 0, &pinned, &err), HES_OK);
    flight = (hes_mech_mode){ .mech = hes_robot_mech(r), .k = hes_robot_mech(r)->d };
    check_mode(&pinned, 1);
    check_mode(&flight, 0);
    hes_robot_destroy(r);
}
END_TEST

/* The net force at state s of robot r (its gravity set by slope), after
 * one at an unrelated state when `fresh`, so that it is computed anew. */
typedef struct {
    double q[D_MAX], qd[D_MAX], u[D_MAX], slope;
} force_case;

static void net_at(hes_robot *r, const force_case *c, int fresh, double *out)
{
    const hes_mech *m = hes_robot_mech(r);
    double other[D_MAX];
    ck_assert_int_eq(hes_robot_set_slope(r, c->slope), HES_OK);
    if (fresh) {
        force_case o = *c;
        o.q[2] += 0.3, o.qd[1] -= 1.0;
        ck_assert_int_eq(m->net_force(o.q, o.qd, o.u, NULL, other, m->data), 0);
    }
    ck_assert_int_eq(m->net_force(c->q, c->qd, c->u, NULL, out, m->data), 0);
}

/* A pinned chart's state at (z, z') through chart_state on robot a, and
 * through chart, chart_dz and chart_acc on robot b after a call at another
 * z; the acceleration's derivative from chart_second's kept values on a,
 * computed anew on b. */
static void chart_cases(const hes_mech_mode *a, const hes_mech_mode *b, const double *z,
                        const double *zd)
{
    int d = a->mech->d, k = a->k;
    double q1[D_MAX], D1[D_MAX * D_MAX], qd1[D_MAX], acc1[D_MAX], q2[D_MAX], D2[D_MAX * D_MAX],
           qd2[D_MAX], acc2[D_MAX], zo[D_MAX];
    ck_assert_int_eq(a->chart_state(z, zd, NULL, q1, D1, qd1, acc1, a->mech->data), 0);
    for (int i = 0; i < k; i++)
        zo[i] = z[i] + 0.2;
    ck_assert_int_eq(b->chart(zo, NULL, q2, b->mech->data), 0);
    ck_assert_int_eq(b->chart(z, NULL, q2, b->mech->data), 0);
    ck_assert_int_eq(b->chart_dz(z, NULL, D2, b->mech->data), 0);
    ck_assert_int_eq(b->chart_acc(z, zd, NULL, acc2, b->mech->data), 0);
    for (int i = 0; i < d; i++) {
        double v = 0;
        for (int j = 0; j < k; j++)
            v += D2[i + j * d] * zd[j];
        qd2[i] = v;
    }
    ck_assert(memcmp(q1, q2, sizeof(double) * (size_t)d) == 0);
    ck_assert(memcmp(D1, D2, sizeof(double) * (size_t)(d * k)) == 0);
    ck_assert(memcmp(acc1, acc2, sizeof(double) * (size_t)d) == 0);
    for (int i = 0; i < d; i++)
        ck_assert_msg(fabs(qd1[i] - qd2[i]) <= 1e-15 * (1 + fabs(qd2[i])), "q'[%d]", i);
    /* d chart_acc / dz after chart_second (from its kept values) and alone */
    double S[D_MAX * D_MAX * D_MAX], Az1[D_MAX * D_MAX], Az2[D_MAX * D_MAX];
    ck_assert_int_eq(a->chart_second(z, NULL, S, a->mech->data), 0);
    ck_assert_int_eq(a->chart_acc_dz(z, zd, NULL, Az1, a->mech->data), 0);
    ck_assert_int_eq(b->chart(zo, NULL, q2, b->mech->data), 0);
    ck_assert_int_eq(b->chart_acc_dz(z, zd, NULL, Az2, b->mech->data), 0);
    for (int i = 0; i < d * k; i++)
        ck_assert_msg(fabs(Az1[i] - Az2[i]) <= 1e-12 * (1 + fabs(Az2[i])), "dacc/dz %d", i);
    /* D^2 chart[z', z'] against central differences of Dchart(z + t z') z' */
    double h = 1e-5, Dp[D_MAX * D_MAX], Dm[D_MAX * D_MAX], zp[D_MAX], zm[D_MAX], worst = 0;
    for (int j = 0; j < k; j++)
        zp[j] = z[j] + h * zd[j], zm[j] = z[j] - h * zd[j];
    ck_assert_int_eq(b->chart_dz(zp, NULL, Dp, b->mech->data), 0);
    ck_assert_int_eq(b->chart_dz(zm, NULL, Dm, b->mech->data), 0);
    for (int i = 0; i < d; i++) {
        double v = 0;
        for (int j = 0; j < k; j++)
            v += (Dp[i + j * d] - Dm[i + j * d]) * zd[j] / (2 * h);
        worst = fmax(worst, rel(acc1[i], v, fabs(v)));
    }
    ck_assert_msg(worst < 1e-7, "chart acceleration against differences: %g", worst);
}

/* What a robot keeps for the next call at the same inputs (its net force;
 * a chart's state and acceleration) follows each input: one input changed
 * at a time, in turn and back, against a second robot of the file that
 * computes every case anew, and the chart's acceleration against central
 * differences of its velocity. */
START_TEST(test_kept_results_follow_their_inputs)
{
    static const char *const feet[] = { "foot1", "foot2" };
    hes_robot *r = load("knee_biped.xml", 2, feet), *s = load("knee_biped.xml", 2, feet);
    if (!r)
        return;
    const hes_mech *m = hes_robot_mech(r);
    mjModel *mm = mj_copyModel(NULL, hes_robot_mujoco_model(r));
    int d = m->d, nu = hes_robot_motor_count(r);
    ck_assert(d <= D_MAX && nu >= 1);
    force_case base, c;
    double qdd[D_MAX], f1[D_MAX], f2[D_MAX], again[D_MAX];
    random_state(mm, base.q, base.qd, qdd);
    for (int a = 0; a < nu; a++)
        base.u[a] = uniform(-2, 2);
    base.slope = 0;
    for (int n = 0; n < 6; n++) {
        c = base;
        if (n == 1)
            c.q[3] += 0.1;
        else if (n == 2)
            c.qd[0] += 0.5;
        else if (n == 3)
            c.u[nu - 1] += 1;
        else if (n == 4)
            c.slope = 0.05;
        net_at(r, &c, 0, f1);
        net_at(r, &c, 0, again);
        net_at(s, &c, 1, f2);
        ck_assert_msg(memcmp(f1, f2, sizeof(double) * (size_t)d) == 0, "net force, case %d", n);
        ck_assert_msg(memcmp(f1, again, sizeof(double) * (size_t)d) == 0, "kept, case %d", n);
        if (n > 0 && n < 5) {   /* the case moved the force */
            net_at(s, &base, 1, f2);
            ck_assert_msg(memcmp(f1, f2, sizeof(double) * (size_t)d) != 0, "case %d", n);
        }
    }
    hes_mech_mode pa, pb;
    hes_error err;
    ck_assert_int_eq(hes_robot_pinned_mode(r, 0, &pa, &err), HES_OK);
    ck_assert_int_eq(hes_robot_pinned_mode(s, 0, &pb, &err), HES_OK);
    ck_assert(pa.chart_state != NULL && pa.k <= D_MAX);
    double z[D_MAX], zd[D_MAX], zd2[D_MAX], z2[D_MAX];
    for (int i = 0; i < pa.k; i++) {
        z[i] = uniform(-0.4, 0.4), z2[i] = z[i] + 0.05;
        zd[i] = uniform(-2, 2), zd2[i] = uniform(-2, 2);
    }
    chart_cases(&pa, &pb, z, zd);
    chart_cases(&pa, &pb, z, zd2);
    chart_cases(&pa, &pb, z2, zd2);
    chart_cases(&pa, &pb, z, zd);
    mj_deleteModel(mm);
    hes_robot_destroy(r);
    hes_robot_destroy(s);
}
END_TEST

/* The position stage at zero slides: a foot's height, x position and
 * normal row after a step that moves only the root's slides (the shared
 * pass) against MuJoCo's own pass at that configuration, slides
 * included. */
START_TEST(test_root_slides_share_the_position_stage)
{
    static const char *const feet[] = { "foot1", "foot2" };
    hes_robot *r = load("knee_biped.xml", 2, feet);
    if (!r)
        return;
    const hes_mech *m = hes_robot_mech(r);
    const mjModel *mm = hes_robot_mujoco_model(r);
    mjData *dd = mj_makeData(mm);
    int d = m->d, site = mj_name2id(mm, mjOBJ_SITE, "foot2");
    double worst = 0;
    void *cn = hes_mech_constraint_data(m, &m->constraints[2]),
         *ct = hes_mech_constraint_data(m, &m->constraints[3]);
    for (int rep = 0; rep < 20; rep++) {
        double q[D_MAX], a, x, Da[D_MAX], jac[3 * D_MAX];
        for (int i = 0; i < d; i++)
            q[i] = uniform(-1, 1);
        ck_assert_int_eq(m->constraints[2].a(q, NULL, &a, cn), 0);
        q[0] += uniform(-1, 1);   /* the slides alone: the same pass */
        q[1] += uniform(-1, 1);
        /* constraint 2 is foot2's normal (its height and row), 3 its
           tangential (its x position) */
        ck_assert_int_eq(m->constraints[2].a(q, NULL, &a, cn), 0);
        ck_assert_int_eq(m->constraints[2].Da(q, NULL, Da, cn), 0);
        ck_assert_int_eq(m->constraints[3].a(q, NULL, &x, ct), 0);
        memcpy(dd->qpos, q, sizeof(double) * (size_t)d);
        mj_kinematics(mm, dd);
        mj_comPos(mm, dd);
        mj_jacSite(mm, dd, jac, NULL, site);
        worst = fmax(worst, fabs(a - dd->site_xpos[3 * site + 2]));
        worst = fmax(worst, fabs(x - dd->site_xpos[3 * site]));
        for (int j = 0; j < d; j++)
            worst = fmax(worst, fabs(Da[j] - jac[2 * d + j]));
    }
    mj_deleteData(dd);
    hes_robot_destroy(r);
    ck_assert_msg(worst < 1e-14, "foot height, x and row at zero slides, moved: %g", worst);
}
END_TEST

/* springy_xml with air (MuJoCo's fluid forces, which our Newton-Euler pass
 * does not differentiate): the robot keeps net_force, through mj_rne and
 * mj_passive, and the mechanical layer differences it. */
static void write_springy_in_air(char *path)
{
    const char *at = strstr(springy_xml, "<worldbody>");
    char text[sizeof springy_xml + 64];
    ck_assert(at);
    snprintf(text, sizeof text, "%.*s  <option density=\"1.2\" viscosity=\"0.1\"/>\n%s",
             (int)(at - springy_xml), springy_xml, at);
    write_text(path, text);
}

/* springy_xml with a fixed tendon coupling hip and knee, with a spring
 * and a damper: mj_passive's tendon forces need the tendon's length,
 * Jacobian and velocity, which the position and velocity stages compute;
 * no shared slides and no derivatives of ours (the layer differences). */
static void write_springy_tendon(char *path)
{
    const char *at = strstr(springy_xml, "  <actuator>");
    char text[sizeof springy_xml + 256];
    ck_assert(at);
    snprintf(text, sizeof text,
             "%.*s  <tendon><fixed name=\"coupling\" stiffness=\"4\" damping=\"0.5\" "
             "springlength=\"0.1\"><joint joint=\"hip\" coef=\"1\"/>"
             "<joint joint=\"knee\" coef=\"-0.5\"/></fixed></tendon>\n%s",
             (int)(at - springy_xml), springy_xml, at);
    write_text(path, text);
}

START_TEST(test_net_force_with_a_tendon)
{
    static const char *const foot[] = { "foot" };
    char path[] = "/tmp/hes_springy_tendon_XXXXXX.xml";
    write_springy_tendon(path);
    check_net_force(path, 1, foot);
    hes_robot *r = load(path, 1, foot);
    ck_assert(r && !hes_robot_mech(r)->net_force_dx);
    hes_mech_mode flight = { .mech = hes_robot_mech(r), .k = hes_robot_mech(r)->d };
    check_mode(&flight, 0);
    hes_robot_destroy(r);
    unlink(path);
}
END_TEST

START_TEST(test_net_force_in_air)
{
    static const char *const foot[] = { "foot" };
    char path[] = "/tmp/hes_springy_air_XXXXXX.xml";
    write_springy_in_air(path);
    check_net_force(path, 1, foot);
    hes_robot *r = load(path, 1, foot);
    ck_assert(r && hes_robot_mech(r)->net_force && !hes_robot_mech(r)->net_force_dx);
    hes_mech_mode flight = { .mech = hes_robot_mech(r), .k = hes_robot_mech(r)->d };
    check_mode(&flight, 0);
    hes_robot_destroy(r);
    unlink(path);
}
END_TEST

/* hes_robot_dynamics_at's drift J' v of the 3-D quadruped's feet (normal,
 * x and y rows) against MuJoCo's own accelerations of the sites at q'' = 0
 * without gravity (mj_rnePostConstraint, mj_objectAcceleration). */
START_TEST(test_contact_drift)
{
    static const char *const feet[] = { "lf_foot", "rf_foot", "lh_foot", "rh_foot" };
    hes_robot *r = load("quadruped_3d.xml", 4, feet);
    if (!r)
        return;
    mjModel *mm = mj_copyModel(NULL, hes_robot_mujoco_model(r));
    mjData *dd = mj_makeData(mm);
    int nv = mm->nv;
    mju_zero3(mm->opt.gravity);
    double worst = 0;
    for (int rep = 0; rep < 20; rep++) {
        double q[D_MAX * 2], v[D_MAX * 2];
        ck_assert(nv <= 2 * D_MAX && mm->nq == nv);
        for (int i = 0; i < nv; i++) {
            q[i] = uniform(-0.5, 0.5);
            v[i] = uniform(-3, 3);
        }
        hes_robot_dynamics dyn;
        hes_error err;
        ck_assert_int_eq(hes_robot_dynamics_at(r, q, v, &dyn, &err), HES_OK);
        ck_assert_int_eq(dyn.tangents, 2);
        memcpy(dd->qpos, q, sizeof(double) * (size_t)nv);
        memcpy(dd->qvel, v, sizeof(double) * (size_t)nv);
        mju_zero(dd->qacc, nv);
        mj_kinematics(mm, dd);
        mj_comPos(mm, dd);
        mj_comVel(mm, dd);
        mj_rnePostConstraint(mm, dd);
        for (int c = 0; c < 4; c++) {
            double acc[6];
            mj_objectAcceleration(mm, dd, mjOBJ_SITE, mj_name2id(mm, mjOBJ_SITE, feet[c]), acc, 0);
            worst = fmax(worst, fabs(dyn.Jdv[c] - acc[5]));
            worst = fmax(worst, fabs(dyn.Jdv[4 + c] - acc[3]));
            worst = fmax(worst, fabs(dyn.Jdv[8 + c] - acc[4]));
        }
    }
    mj_deleteData(dd);
    mj_deleteModel(mm);
    hes_robot_destroy(r);
    ck_assert_msg(worst < 1e-12, "J' v against MuJoCo's site accelerations: %g", worst);
}
END_TEST

/* A 3-D robot of hinges and slides only: three slides, then three
 * non-parallel hinges on one body and a child on a fourth, anisotropic
 * inertias off the joint axes; a site on the world too (no slide moves
 * it). */
static const char spinner_xml[] =
    "<mujoco model=\"spinner\">\n"
    "  <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n"
    "  <option gravity=\"0.3 -0.2 -9.81\"/>\n"
    "  <worldbody>\n"
    "    <site name=\"anchor\" pos=\"0.3 0.1 0.05\"/>\n"
    "    <body name=\"base\" pos=\"0 0 1\">\n"
    "      <joint name=\"x\" type=\"slide\" axis=\"1 0 0\"/>\n"
    "      <joint name=\"z\" type=\"slide\" axis=\"0 0 1\"/>\n"
    "      <joint name=\"y\" type=\"slide\" axis=\"0 1 0\"/>\n"
    "      <inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"0.1 0.1 0.1\"/>\n"
    "      <body name=\"gimbal\" pos=\"0.05 0 0\">\n"
    "        <joint name=\"roll\" type=\"hinge\" axis=\"1 0 0\" damping=\"0.2\"/>\n"
    "        <joint name=\"pitch\" type=\"hinge\" axis=\"0 1 0\" pos=\"0 0.02 0\"/>\n"
    "        <joint name=\"yaw\" type=\"hinge\" axis=\"0.3 0.2 1\" stiffness=\"2\"/>\n"
    "        <inertial pos=\"0.03 -0.02 -0.1\" quat=\"0.9 0.1 0.3 0.2\" mass=\"0.7\"\n"
    "                  diaginertia=\"0.02 0.03 0.04\"/>\n"
    "        <body name=\"arm\" pos=\"0 0 -0.3\">\n"
    "          <joint name=\"elbow\" type=\"hinge\" axis=\"0 1 0.4\"/>\n"
    "          <inertial pos=\"0.1 0.02 -0.1\" quat=\"0.8 -0.2 0.1 0.4\" mass=\"0.4\"\n"
    "                    diaginertia=\"0.01 0.015 0.02\"/>\n"
    "          <site name=\"tip\" pos=\"0.1 0.05 -0.3\"/>\n"
    "        </body></body></body></worldbody>\n"
    "</mujoco>\n";

START_TEST(test_spatial_robot)
{
    static const char *const sites[] = { "tip", "anchor" };
    char path[] = "/tmp/hes_spinner_XXXXXX.xml";
    write_text(path, spinner_xml);
    check_net_force(path, 2, sites);
    check_net_force_dx(path, 2, sites);
    hes_robot *r = load(path, 2, sites);
    ck_assert(r && hes_robot_mech(r)->net_force_dx);
    hes_mech_mode flight = { .mech = hes_robot_mech(r), .k = hes_robot_mech(r)->d };
    check_mode(&flight, 0);
    /* the anchor stays where the file puts it, whatever the slides */
    const hes_mech *m = hes_robot_mech(r);
    /* the anchor's normal is constraint 2 (contact c: 2 c, 2 c + 1) */
    void *cd = hes_mech_constraint_data(m, &m->constraints[2]);
    double worst = 0;
    for (int rep = 0; rep < 10; rep++) {
        double q[D_MAX], a;
        for (int i = 0; i < m->d; i++)
            q[i] = uniform(-1, 1);
        ck_assert_int_eq(m->constraints[2].a(q, NULL, &a, cd), 0);
        worst = fmax(worst, fabs(a - 0.05));
    }
    hes_robot_destroy(r);
    unlink(path);
    ck_assert_msg(worst < 1e-15, "a site on the world moved with the root: %g", worst);
}
END_TEST

/* A floating robot: a free base, a ball shoulder (damped, with armature,
 * its anchor off the body's origin) and a springy hinge elbow, anisotropic
 * inertias turned off the joint axes, gravity tilted; a site on the world. */
static const char floating_xml[] =
    "<mujoco model=\"floating\">\n"
    "  <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n"
    "  <option gravity=\"0.3 -0.2 -9.81\"/>\n"
    "  <worldbody>\n"
    "    <site name=\"anchor\" pos=\"0.3 0.1 0.05\"/>\n"
    "    <body name=\"base\" pos=\"0 0 1\" quat=\"0.9 0.1 -0.2 0.3\">\n"
    "      <joint name=\"root\" type=\"free\" damping=\"0.05\"/>\n"
    "      <inertial pos=\"0.02 -0.01 0.03\" quat=\"0.8 0.3 0.1 -0.2\" mass=\"1.5\"\n"
    "                diaginertia=\"0.1 0.14 0.2\"/>\n"
    "      <body name=\"arm\" pos=\"0.1 0.05 -0.1\" quat=\"0.7 0 0.7 0.1\">\n"
    "        <joint name=\"shoulder\" type=\"ball\" pos=\"0 0.01 0.02\" damping=\"0.2\"\n"
    "               armature=\"0.01\"/>\n"
    "        <inertial pos=\"0.1 0.02 -0.1\" quat=\"0.8 -0.2 0.1 0.4\" mass=\"0.4\"\n"
    "                  diaginertia=\"0.01 0.015 0.02\"/>\n"
    "        <body name=\"fore\" pos=\"0.2 0 -0.1\">\n"
    "          <joint name=\"elbow\" type=\"hinge\" axis=\"0 1 0.4\" stiffness=\"2\"\n"
    "                 damping=\"0.1\"/>\n"
    "          <inertial pos=\"0.05 0.01 -0.1\" quat=\"0.6 0.2 -0.3 0.1\" mass=\"0.3\"\n"
    "                    diaginertia=\"0.005 0.008 0.01\"/>\n"
    "          <site name=\"tip\" pos=\"0.1 0.05 -0.3\"/>\n"
    "        </body></body></body></worldbody>\n"
    "</mujoco>\n";

/* Ball and free joints: the Newton-Euler pass's groups (a ball's three
 * dofs turn together) against mj_inverse, and its derivatives along
 * directions of q (by mj_integratePos) and of q' against central
 * differences. */
START_TEST(test_free_and_ball_joints)
{
    static const char *const sites[] = { "tip", "anchor" };
    char path[] = "/tmp/hes_floating_XXXXXX.xml";
    write_text(path, floating_xml);
    hes_robot *r = load(path, 2, sites);
    if (r) {
        ck_assert_msg(hes_robot_mech(r)->net_force_dx != NULL,
                      "a robot of free, ball and hinge joints has no analytic derivatives");
        hes_robot_destroy(r);
        check_net_force(path, 2, sites);
        check_net_force_dx(path, 2, sites);
    }
    unlink(path);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("robot_eval");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_net_force_knee_biped);
    tcase_add_test(tc, test_net_force_quadruped);
    tcase_add_test(tc, test_net_force_springs_dampers_motor);
    tcase_add_test(tc, test_net_force_dx);
    tcase_add_test(tc, test_field_through_the_fast_path);
    tcase_add_test(tc, test_net_force_in_air);
    tcase_add_test(tc, test_net_force_with_a_tendon);
    tcase_add_test(tc, test_contact_drift);
    tcase_add_test(tc, test_spatial_robot);
    tcase_add_test(tc, test_free_and_ball_joints);
    tcase_add_test(tc, test_root_slides_share_the_position_stage);
    tcase_add_test(tc, test_kept_results_follow_their_inputs);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(suite());
}
