/*
 * test_robot_free.c - robots with free and ball joints (quaternion
 * coordinates: nq != nv) against MuJoCo's own computations at random
 * states of share/robots/quadruped_free.xml (a free base and twelve
 * hinges: nq = 19, nv = 18):
 *   - hes_robot_dynamics_at's M, bias h and contact rows against
 *     mj_forward's qM (mj_fullM), qfrc_bias - qfrc_passive and mj_jacSite,
 *     and its drift J' v (central differences along hes_mech_integrate)
 *     against the sites' accelerations at q'' = 0 by mj_rnePostConstraint
 *     and mj_objectAcceleration (another computation: MuJoCo's
 *     acceleration pass);
 *   - the mechanical system's callbacks: mass, net_force (f - c = B u -
 *     qfrc_inverse at q'' = 0, mj_inverse), and the contacts' a and Da;
 *   - hes_mech_integrate and hes_mech_difference on the robot's system
 *     against mj_integratePos and mj_differentiatePos;
 *   - the names of a free joint's coordinates and velocities;
 *   - a ball joint's dM/dq (mass_dq) against central differences of M
 *     along mj_integratePos;
 *   - hes_invdyn_trajectory along a sampled motion with a turning base
 *     (the quadruped falling freely and spinning about its vertical axis
 *     of symmetry, legs straight): its torques against mj_inverse at the
 *     motion's closed form.
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

#define NQ 19
#define NV 18
#define NC_MAX 8        /* the files' sites: the quadruped's knees and feet (8), the
                           biped's feet, heels and toes (6) */

static unsigned long long rng = 41;
static double uniform(double lo, double hi)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

/* The robot of share/robots/NAME with every site as a contact, or NULL
 * in a build without MuJoCo. */
static hes_robot *load(const char *name)
{
    char buf[4096];
    hes_robot *r = NULL;
    hes_error err;
    hes_status st = hes_robot_read(test_robot_file(buf, sizeof buf, name), NULL, 0, &r, &err);
    if (st == HES_ESOLVER)
        return NULL;
    ck_assert_msg(st == HES_OK, "%s", err.message);
    return r;
}

/* A random state of the free quadruped: base anywhere above the ground,
 * a random unit quaternion, joints and velocities at random. */
static void random_state(double *q, double *v)
{
    q[0] = uniform(-1, 1), q[1] = uniform(-1, 1), q[2] = uniform(0.1, 0.5);
    double n = 0;
    for (int i = 3; i < 7; i++) {
        q[i] = uniform(-1, 1);
        n += q[i] * q[i];
    }
    for (int i = 3; i < 7; i++)
        q[i] /= sqrt(n);
    for (int i = 7; i < NQ; i++)
        q[i] = uniform(-1.5, 1.5);
    for (int i = 0; i < NV; i++)
        v[i] = uniform(-3, 3);
}

static double rel(double a, double b, double scale)
{
    return fabs(a - b) / fmax(1.0, scale);
}

/* MuJoCo's own: a copy of the robot's model without constraints (no
 * limits, no contacts) and its data. */
typedef struct {
    mjModel *m;
    mjData *d;
} reference;

static reference reference_of(const hes_robot *r)
{
    reference ref;
    ref.m = mj_copyModel(NULL, hes_robot_mujoco_model(r));
    ref.m->opt.disableflags |= mjDSBL_CONSTRAINT;
    ref.d = mj_makeData(ref.m);
    ck_assert(ref.m->nq == NQ && ref.m->nv == NV &&
              ref.m->nsite == hes_robot_contact_count(r));
    return ref;
}

static void reference_free(reference *ref)
{
    mj_deleteData(ref->d);
    mj_deleteModel(ref->m);
}

/* mj_forward at (q, v) */
static void forward(reference *ref, const double *q, const double *v)
{
    memcpy(ref->d->qpos, q, sizeof(double) * NQ);
    memcpy(ref->d->qvel, v, sizeof(double) * NV);
    mj_forward(ref->m, ref->d);
}

/* Site s's acceleration at q'' = 0 without gravity (J' v): MuJoCo's
 * acceleration pass after mj_forward at (q, v), the classical linear
 * acceleration of mj_objectAcceleration. */
static void site_drift(reference *ref, const double *q, const double *v, int s, double *acc)
{
    double g[3];
    mju_copy3(g, ref->m->opt.gravity);
    mju_zero3(ref->m->opt.gravity);
    forward(ref, q, v);
    mju_zero(ref->d->qacc, NV);
    mj_rnePostConstraint(ref->m, ref->d);
    double res[6];
    mj_objectAcceleration(ref->m, ref->d, mjOBJ_SITE, s, res, 0);
    memcpy(acc, res + 3, 3 * sizeof(double));
    mju_copy3(ref->m->opt.gravity, g);
}

/* hes_robot_dynamics_at against MuJoCo at 20 random states of robot
 * file `name` (19 coordinates, 18 velocities) */
static void dynamics_at_is_mujocos(const char *name)
{
    hes_robot *r = load(name);
    if (!r)
        return;
    int NC = hes_robot_contact_count(r), ROWS = 3 * NC;
    ck_assert_int_le(NC, NC_MAX);
    reference ref = reference_of(r);
    double worst_M = 0, worst_h = 0, worst_J = 0, worst_Jdv = 0, M[NV * NV], jac[3 * NV];
    for (int rep = 0; rep < 20; rep++) {
        double q[NQ], v[NV];
        random_state(q, v);
        hes_robot_dynamics d;
        hes_error err;
        ck_assert_int_eq(hes_robot_dynamics_at(r, q, v, &d, &err), HES_OK);
        ck_assert_int_eq(d.nv, NV);
        ck_assert_int_eq(d.nc, NC);
        ck_assert_int_eq(d.tangents, 2);
        forward(&ref, q, v);
        mj_fullM(ref.m, M, ref.d->qM);
        double mmax = 0, hmax = 0;
        for (int i = 0; i < NV * NV; i++)
            mmax = fmax(mmax, fabs(M[i]));
        for (int i = 0; i < NV; i++)
            hmax = fmax(hmax, fabs(ref.d->qfrc_bias[i] - ref.d->qfrc_passive[i]));
        for (int i = 0; i < NV * NV; i++)
            worst_M = fmax(worst_M, fabs(d.M[i] - M[i]) / mmax);
        for (int i = 0; i < NV; i++)
            worst_h = fmax(worst_h, fabs(d.h[i] - (ref.d->qfrc_bias[i] - ref.d->qfrc_passive[i]))
                                    / hmax);
        for (int c = 0; c < NC; c++) {
            mj_jacSite(ref.m, ref.d, jac, NULL, c);
            /* the rows: normals (z), then x, then y */
            const int axis[3] = { 2, 0, 1 };
            for (int k = 0; k < 3; k++)
                for (int j = 0; j < NV; j++)
                    worst_J = fmax(worst_J, rel(d.J[k * NC + c + (size_t)j * ROWS],
                                                jac[axis[k] * NV + j], 1.0));
        }
        double Jdv[3 * NC_MAX];
        memcpy(Jdv, d.Jdv, sizeof(double) * (size_t)ROWS);
        for (int c = 0; c < NC; c++) {
            double acc[3];
            site_drift(&ref, q, v, c, acc);
            const int axis[3] = { 2, 0, 1 };
            for (int k = 0; k < 3; k++)
                worst_Jdv = fmax(worst_Jdv, rel(Jdv[k * NC + c], acc[axis[k]], fabs(acc[axis[k]])));
        }
    }
    reference_free(&ref);
    hes_robot_destroy(r);
    printf("%s, hes_robot_dynamics_at against MuJoCo at 20 states: M %.2g, h %.2g, "
           "J %.2g, J'v %.2g\n", name, worst_M, worst_h, worst_J, worst_Jdv);
    ck_assert_msg(worst_M < 1e-12, "M: %g", worst_M);
    ck_assert_msg(worst_h < 1e-12, "h: %g", worst_h);
    ck_assert_msg(worst_J < 1e-12, "J: %g", worst_J);
    ck_assert_msg(worst_Jdv < 1e-8, "J'v: %g", worst_Jdv);
}

START_TEST(test_dynamics_at_is_mujocos)
{
    dynamics_at_is_mujocos("quadruped_free.xml");
    dynamics_at_is_mujocos("biped_3d.xml");
}
END_TEST

/* the mechanical system's callbacks of robot file `name` against MuJoCo */
static void mech_callbacks_are_mujocos(const char *name)
{
    hes_robot *r = load(name);
    if (!r)
        return;
    int NC = hes_robot_contact_count(r);
    const hes_mech *m = hes_robot_mech(r);
    ck_assert_int_eq(m->d, NV);
    ck_assert_int_eq(hes_mech_nq(m), NQ);
    ck_assert_int_eq(m->n_quat, 1);
    ck_assert_int_eq(m->quat[0], 3);
    /* normal, x and y no-slip (3-D), and the joint limits */
    ck_assert_int_eq(m->n_constraints, 3 * NC + hes_robot_limit_count(r));
    int nu = hes_robot_motor_count(r);
    ck_assert_int_eq(nu, 12);
    reference ref = reference_of(r);
    double worst_M = 0, worst_net = 0, worst_a = 0, worst_Da = 0;
    static double M[NV * NV], Mref[NV * NV], jac[3 * NV];
    for (int rep = 0; rep < 20; rep++) {
        double q[NQ], v[NV], u[12], net[NV], B[NV * 12];
        random_state(q, v);
        for (int a = 0; a < nu; a++)
            u[a] = uniform(-2, 2);
        hes_robot_dynamics d;
        ck_assert_int_eq(hes_robot_dynamics_at(r, q, v, &d, NULL), HES_OK);
        memcpy(B, d.B, sizeof B);
        ck_assert_int_eq(m->mass(q, NULL, M, m->data), 0);
        ck_assert_int_eq(m->net_force(q, v, u, NULL, net, m->data), 0);
        /* mj_inverse at q'' = 0: qfrc_inverse = c + g - passive, so that
           f - c = B u - qfrc_inverse */
        memcpy(ref.d->qpos, q, sizeof q);
        memcpy(ref.d->qvel, v, sizeof v);
        mju_zero(ref.d->qacc, NV);
        mj_inverse(ref.m, ref.d);
        mj_fullM(ref.m, Mref, ref.d->qM);
        for (int i = 0; i < NV * NV; i++)
            worst_M = fmax(worst_M, rel(M[i], Mref[i], fabs(Mref[i])));
        for (int i = 0; i < NV; i++) {
            double want = -ref.d->qfrc_inverse[i], scale = fabs(want);
            for (int a = 0; a < nu; a++) {
                want += B[i + a * NV] * u[a];
                scale += fabs(B[i + a * NV] * u[a]);
            }
            worst_net = fmax(worst_net, rel(net[i], want, scale));
        }
        /* contact c: its normal a = z, Da = J_z; its tangential a = x, Da = J_x;
           its second tangential (after the constraints of the contacts and the
           limits: the last NC) a = y, Da = J_y */
        for (int c = 0; c < NC; c++) {
            mj_jacSite(ref.m, ref.d, jac, NULL, c);
            for (int k = 0; k < 3; k++) {
                int idx = k < 2 ? 2 * c + k : m->n_constraints - NC + c;
                const hes_mech_constraint *con = &m->constraints[idx];
                double a, Da[NV];
                ck_assert_int_eq(con->a(q, NULL, &a, hes_mech_constraint_data(m, con)), 0);
                ck_assert_int_eq(con->Da(q, NULL, Da, hes_mech_constraint_data(m, con)), 0);
                int axis = k == 0 ? 2 : k == 1 ? 0 : 1;
                worst_a = fmax(worst_a, rel(a, ref.d->site_xpos[3 * c + axis], 1.0));
                for (int j = 0; j < NV; j++)
                    worst_Da = fmax(worst_Da, rel(Da[j], jac[axis * NV + j], 1.0));
            }
        }
    }
    reference_free(&ref);
    hes_robot_destroy(r);
    printf("%s, the mechanical system's callbacks against MuJoCo: M %.2g, f - c "
           "%.2g, a %.2g, Da %.2g\n", name, worst_M, worst_net, worst_a, worst_Da);
    ck_assert_msg(worst_M < 1e-12, "mass: %g", worst_M);
    ck_assert_msg(worst_net < 1e-12, "net_force against mj_inverse: %g", worst_net);
    ck_assert_msg(worst_a < 1e-12, "a: %g", worst_a);
    ck_assert_msg(worst_Da < 1e-12, "Da: %g", worst_Da);
}

START_TEST(test_mech_callbacks_are_mujocos)
{
    mech_callbacks_are_mujocos("quadruped_free.xml");
    mech_callbacks_are_mujocos("biped_3d.xml");
}
END_TEST

START_TEST(test_integrate_and_difference_are_mujocos)
{
    hes_robot *r = load("quadruped_free.xml");
    if (!r)
        return;
    const hes_mech *m = hes_robot_mech(r);
    const mjModel *mm = hes_robot_mujoco_model(r);
    double worst_int = 0, worst_dif = 0;
    for (int rep = 0; rep < 50; rep++) {
        double q[NQ], v[NV], q1[NQ], mjq[NQ], w[NV], mjw[NV];
        random_state(q, v);
        double h = uniform(-0.7, 0.7);
        hes_mech_integrate(m, q, v, h, q1);
        memcpy(mjq, q, sizeof q);
        mj_integratePos(mm, mjq, v, h);
        for (int i = 0; i < NQ; i++)
            worst_int = fmax(worst_int, rel(q1[i], mjq[i], fabs(mjq[i])));
        /* between two unrelated states: any rotation up to half a turn */
        double p[NQ], pv[NV];
        random_state(p, pv);
        hes_mech_difference(m, p, q, w);
        mj_differentiatePos(mm, mjw, 1.0, q, p);
        for (int i = 0; i < NV; i++)
            worst_dif = fmax(worst_dif, rel(w[i], mjw[i], fabs(mjw[i])));
    }
    hes_robot_destroy(r);
    printf("free quadruped: hes_mech_integrate against mj_integratePos %.2g, "
           "hes_mech_difference against mj_differentiatePos %.2g\n", worst_int, worst_dif);
    ck_assert_msg(worst_int < 1e-14, "integrate: %g", worst_int);
    ck_assert_msg(worst_dif < 1e-14, "difference: %g", worst_dif);
}
END_TEST

START_TEST(test_free_joint_names)
{
    hes_robot *r = load("quadruped_free.xml");
    if (!r)
        return;
    static const char *const q[] = { "base_x", "base_y", "base_z", "base_qw", "base_qx",
                                     "base_qy", "base_qz", "lf_abduction" };
    static const char *const v[] = { "base_vx", "base_vy", "base_vz", "base_wx", "base_wy",
                                     "base_wz", "lf_abduction" };
    for (int i = 0; i < 8; i++)
        ck_assert_str_eq(hes_robot_coordinate(r, i), q[i]);
    for (int i = 0; i < 7; i++)
        ck_assert_str_eq(hes_robot_velocity_name(r, i), v[i]);
    ck_assert_str_eq(hes_robot_coordinate(r, NQ - 1), "rh_knee");
    ck_assert_str_eq(hes_robot_velocity_name(r, NV - 1), "rh_knee");
    ck_assert_ptr_null(hes_robot_coordinate(r, NQ));
    ck_assert_ptr_null(hes_robot_velocity_name(r, NV));
    ck_assert_str_eq(hes_robot_motor_joint(r, 0), "lf_abduction");
    hes_robot_destroy(r);
}
END_TEST

/* A ball joint and a hinge below it, in a file of its own. */
static const char ball_xml[] =
    "<mujoco><compiler angle='radian'/><worldbody><body name='upper' pos='0 0 2'>\n"
    "  <joint name='shoulder' type='ball'/>\n"
    "  <geom type='capsule' fromto='0 0 0 0.1 0 -0.5' size='0.05' mass='1'/>\n"
    "  <body name='lower' pos='0.1 0 -0.5'><joint name='elbow' type='hinge' axis='0 1 0'/>\n"
    "    <geom type='capsule' fromto='0 0 0 0 0.1 -0.4' size='0.04' mass='0.7'/>\n"
    "    <site name='tip' pos='0 0.1 -0.4'/></body></body></worldbody></mujoco>\n";

START_TEST(test_ball_mass_dq_is_along_velocities)
{
    char path[] = "/tmp/hes_ball_XXXXXX.xml";
    int fd = mkstemps(path, 4);
    ck_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    ck_assert(f && fputs(ball_xml, f) >= 0 && fclose(f) == 0);
    hes_robot *r = NULL;
    hes_error err;
    hes_status st = hes_robot_read(path, NULL, 0, &r, &err);
    unlink(path);
    if (st == HES_ESOLVER)
        return;
    ck_assert_msg(st == HES_OK, "%s", err.message);
    const hes_mech *m = hes_robot_mech(r);
    const mjModel *mm = hes_robot_mujoco_model(r);
    ck_assert_int_eq(m->d, 4);
    ck_assert_int_eq(hes_mech_nq(m), 5);
    ck_assert_ptr_nonnull(m->mass_dq);
    double worst = 0;
    for (int rep = 0; rep < 10; rep++) {
        double q[5], n = 0, D[64], Mp[16], Mm[16], qs[5], e[4];
        for (int i = 0; i < 4; i++) {
            q[i] = uniform(-1, 1);
            n += q[i] * q[i];
        }
        for (int i = 0; i < 4; i++)
            q[i] /= sqrt(n);
        q[4] = uniform(-2, 2);
        ck_assert_int_eq(m->mass_dq(q, NULL, D, m->data), 0);
        /* d/ds M(q (+) s e_k) by central differences along mj_integratePos */
        const double h = 1e-5;
        for (int k = 0; k < 4; k++) {
            memset(e, 0, sizeof e);
            e[k] = 1;
            memcpy(qs, q, sizeof q);
            mj_integratePos(mm, qs, e, h);
            ck_assert_int_eq(m->mass(qs, NULL, Mp, m->data), 0);
            memcpy(qs, q, sizeof q);
            mj_integratePos(mm, qs, e, -h);
            ck_assert_int_eq(m->mass(qs, NULL, Mm, m->data), 0);
            for (int i = 0; i < 16; i++)
                worst = fmax(worst, fabs(D[16 * k + i] - (Mp[i] - Mm[i]) / (2 * h)));
        }
    }
    hes_robot_destroy(r);
    printf("ball joint: dM/dq along the velocities against differences along mj_integratePos: "
           "%.2g\n", worst);
    ck_assert_msg(worst < 1e-8, "mass_dq: %g", worst);
}
END_TEST

/*
 * Inverse dynamics along a sampled motion with a turning base: the
 * quadruped, legs straight, falls freely while spinning at a constant
 * rate w about its vertical axis, a principal axis through its centre of
 * mass (the legs are symmetric in x and in y):
 *     p(t) = p0 + v0 t + g t^2 / 2,   quat(t) = (cos(w t / 2), 0, 0, sin(w t / 2)),
 * a motion of the equations with no contact and no force on the base, so
 * that every node is feasible.  Sampled at 11 nodes the manifold's
 * differences give its velocities and accelerations exactly; the torques
 * (the hips holding the legs against their centripetal acceleration) are
 * compared with mj_inverse at the closed form, whose base rows vanish.
 */
START_TEST(test_invdyn_along_a_turning_base)
{
    hes_robot *r = load("quadruped_free.xml");
    if (!r)
        return;
    enum { N = 11 };
    const double w = 5, dt = 0.01, p0[3] = { 0.1, -0.2, 1.0 }, v0[3] = { 0.3, 0.1, 0.5 };
    const double g = -9.81;
    double t[N], q[N * NQ], qa[N * NQ];
    memset(q, 0, sizeof q);
    for (int n = 0; n < N; n++) {
        t[n] = n * dt;
        double *qn = q + n * NQ;
        for (int i = 0; i < 3; i++)
            qn[i] = p0[i] + v0[i] * t[n] + (i == 2 ? 0.5 * g * t[n] * t[n] : 0);
        qn[3] = cos(0.5 * w * t[n]);
        qn[6] = sin(0.5 * w * t[n]);
    }
    memcpy(qa, q, sizeof q);
    hes_invdyn_run run;
    hes_error err;
    ck_assert_int_eq(hes_invdyn_trajectory(r, N, t, q, NULL, NULL, NULL, NULL, &run, &err),
                     HES_OK);
    ck_assert_int_eq(run.failed, 0);
    ck_assert_int_eq(run.nu, 12);
    reference ref = reference_of(r);
    double worst = 0, worst_base = 0, tmax = 0;
    for (int n = 0; n < N; n++) {
        double v[NV] = { v0[0], v0[1], v0[2] + g * t[n], 0, 0, w }, a[NV] = { 0, 0, g };
        memcpy(ref.d->qpos, qa + n * NQ, sizeof(double) * NQ);
        memcpy(ref.d->qvel, v, sizeof v);
        memcpy(ref.d->qacc, a, sizeof a);
        mj_inverse(ref.m, ref.d);
        for (int i = 0; i < 6; i++)
            worst_base = fmax(worst_base, fabs(ref.d->qfrc_inverse[i]));
        /* motor k drives the joint of dof 6 + k, gear and gain 1 */
        for (int k = 0; k < 12; k++) {
            worst = fmax(worst, fabs(run.tau[n * 12 + k] - ref.d->qfrc_inverse[6 + k]));
            tmax = fmax(tmax, fabs(ref.d->qfrc_inverse[6 + k]));
        }
    }
    hes_invdyn_run_free(&run);
    reference_free(&ref);
    hes_robot_destroy(r);
    printf("free quadruped spinning in free fall: torques against mj_inverse %.2g of %.3g "
           "(the base's rows there %.2g)\n", worst, tmax, worst_base);
    ck_assert_msg(tmax > 1e-3, "the motion needs torques: %g", tmax);
    ck_assert_msg(worst_base < 1e-12, "the motion is not free: %g", worst_base);
    ck_assert_msg(worst < 1e-9 * tmax, "torques: %g of %g", worst, tmax);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("robot_free");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_dynamics_at_is_mujocos);
    tcase_add_test(tc, test_mech_callbacks_are_mujocos);
    tcase_add_test(tc, test_integrate_and_difference_are_mujocos);
    tcase_add_test(tc, test_free_joint_names);
    tcase_add_test(tc, test_ball_mass_dq_is_along_velocities);
    tcase_add_test(tc, test_invdyn_along_a_turning_base);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(suite());
}
