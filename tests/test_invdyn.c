/*
 * test_invdyn.c - inverse dynamics with rigid contact and friction
 * (lib/invdyn/invdyn.c; Zapolsky & Drumwright) on the quadrupeds of
 * share/robots, each result checked by computations of its own:
 *   - forward dynamics by MuJoCo (mj_forward with the torques as controls
 *     and J^T f as applied forces, MuJoCo's own contacts off) reproduces
 *     the predicted acceleration and the desired joint accelerations to
 *     1e-8, for every formulation at random states;
 *   - normal forces are nonnegative and complementary to the normal
 *     contact accelerations (no-slip, Coulomb); Coulomb forces lie in the
 *     linearised cone;
 *   - at rest the normal forces sum to the robot's weight (m g from
 *     MuJoCo's body masses), with every formulation, planar and 3-D;
 *   - on a determinate stance (two diagonal feet, ample friction) the
 *     no-slip, Coulomb and convex formulations, three different
 *     problems, give the same forces;
 *   - on the statically indeterminate four-feet stance the warm-started
 *     no-slip solution keeps the previous active set (Sec. 4.6) and its
 *     forces move smoothly from node to node;
 *   - friction 0.01 on a trotting stance is reported infeasible by every
 *     formulation, torque limits are enforced, bad input refused;
 *   - no-slip's status agrees with its smallest friction (the pyramid);
 *   - with no foot on the ground the equation of motion misses by the
 *     weight: infeasible (free fall predicted);
 *   - 100 random feasible four-feet states: every convex solve succeeds,
 *     with the same bits under 1 and 2 BLAS threads;
 *   - a sway over four fixed feet (closed form) sampled at 400 Hz loads
 *     every foot at every node, feasibly and smoothly, with the normal
 *     forces summing to m (g + zc'') (Newton, MuJoCo's centre of mass).
 * Skipped with a message without MuJoCo or Siconos numerics.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lapacke.h>

#include "hes.h"
#include "testutil.h"

#ifdef HAVE_MUJOCO
#include <mujoco/mujoco.h>

static hes_robot *load(const char *name, double mu)
{
    const char *feet[4] = { "lf_foot", "rf_foot", "lh_foot", "rh_foot" };
    hes_robot_contact c[4];
    for (int i = 0; i < 4; i++)
        c[i] = (hes_robot_contact){ feet[i], mu };
    hes_robot *r = NULL;
    hes_error msg;
    char buf[4096];
    ck_assert_msg(hes_robot_read(test_robot_file(buf, sizeof buf, name), c, 4, &r, &msg) == HES_OK, "%s",
                  msg.message);
    return r;
}

static unsigned long long rng = 7;
static double uniform(double lo, double hi)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

/* The standing pose: legs bent (hip 0.5, knee -1.0; the planar ankle
 * +0.5 keeps the foot link vertical), the base lowered until the feet
 * touch (the site heights are then 0 by symmetry). */
static int coord(hes_robot *r, const char *name)
{
    const mjModel *m = hes_robot_mujoco_model(r);
    int j = mj_name2id(m, mjOBJ_JOINT, name);
    return j < 0 ? -1 : m->jnt_dofadr[j];
}

static void stand(hes_robot *r, double *q)
{
    const mjModel *m = hes_robot_mujoco_model(r);
    memset(q, 0, sizeof(double) * (size_t)m->nq);
    const char *legs[4] = { "lf", "rf", "lh", "rh" };
    char name[32];
    for (int l = 0; l < 4; l++) {
        snprintf(name, sizeof name, "%s_hip", legs[l]);
        q[coord(r, name)] = 0.5;
        snprintf(name, sizeof name, "%s_knee", legs[l]);
        q[coord(r, name)] = -1.0;
        snprintf(name, sizeof name, "%s_ankle", legs[l]);
        if (coord(r, name) >= 0)
            q[coord(r, name)] = 0.5;
    }
    /* lower the base onto the feet */
    double v0[32] = { 0 };
    hes_robot_dynamics d;
    hes_error msg;
    ck_assert_int_eq(hes_robot_dynamics_at(r, q, v0, &d, &msg), HES_OK);
    q[coord(r, "z")] -= d.phi[0];
    ck_assert_int_eq(hes_robot_dynamics_at(r, q, v0, &d, &msg), HES_OK);
    for (int c = 0; c < 4; c++)
        ck_assert_double_le(fabs(d.phi[c]), 1e-12);
}

static double total_mass(hes_robot *r)
{
    const mjModel *m = hes_robot_mujoco_model(r);
    double s = 0;
    for (int b = 0; b < m->nbody; b++)
        s += m->body_mass[b];
    return s;
}

/* MuJoCo's forward dynamics with tau as the controls and J^T f applied,
 * its own contacts and control clamping off: qacc. */
static void forward(hes_robot *r, const double *q, const double *v, const hes_invdyn_problem *pb,
                    const hes_invdyn_result *res, double *qacc)
{
    mjModel *m = mj_copyModel(NULL, hes_robot_mujoco_model(r));
    m->opt.disableflags |= mjDSBL_CONTACT | mjDSBL_CLAMPCTRL;
    mjData *d = mj_makeData(m);
    int nv = m->nv, rows = pb->nc * (1 + pb->tangents);
    memcpy(d->qpos, q, sizeof(double) * (size_t)nv);
    memcpy(d->qvel, v, sizeof(double) * (size_t)nv);
    memcpy(d->ctrl, res->tau, sizeof(double) * (size_t)m->nu);
    for (int j = 0; j < nv; j++) {
        double s = 0;
        for (int k = 0; k < rows; k++)
            s += pb->J[k + (size_t)j * rows] * res->f[k];
        d->qfrc_applied[j] = s;
    }
    mj_forward(m, d);
    memcpy(qacc, d->qacc, sizeof(double) * (size_t)nv);
    mj_deleteData(d);
    mj_deleteModel(m);
}

typedef struct {
    hes_robot *r;
    hes_robot_dynamics d;
    double q[32], v[32], a_des[32], J[32 * 12], b[32], mu[4];
    hes_invdyn_problem pb;
    hes_invdyn *id;
} setup;

static void setup_at(setup *s, const int *active, double dt)
{
    hes_error msg;
    ck_assert_int_eq(hes_robot_dynamics_at(s->r, s->q, s->v, &s->d, &msg), HES_OK);
    hes_invdyn_problem_robot(&s->d, active, s->v, s->a_des, dt, 1, s->J, s->b, s->mu, &s->pb);
    if (!s->id)
        hes_invdyn_new(s->pb.nv, s->pb.nu, s->pb.nc, s->pb.tangents, &s->id, NULL);
    ck_assert_ptr_nonnull(s->id);
}

/* Make a_des consistent with the stance contacts (active) staying put:
 * each stance leg's joint accelerations solve J_foot a + b = 0 for the
 * rest of a_des (least squares, minimum norm for the planar legs). */
static void consistent(setup *s, const int *active)
{
    const char *legs[4] = { "lf", "rf", "lh", "rh" }, *joints[4] = { "abduction", "hip", "knee",
                                                                     "ankle" };
    int nv = s->pb.nv, rows = s->pb.nc * (1 + s->pb.tangents), r0 = 0;
    for (int l = 0; l < 4; l++) {
        if (!active[l])
            continue;
        int dof[3], nd = 0;
        char name[32];
        for (int j = 0; j < 4; j++) {
            snprintf(name, sizeof name, "%s_%s", legs[l], joints[j]);
            if (coord(s->r, name) >= 0)
                dof[nd++] = coord(s->r, name);
        }
        int k = 1 + s->pb.tangents;
        double A[9] = { 0 }, rhs[3] = { 0 };
        for (int d = 0; d < k; d++) {
            int r = d * s->pb.nc + r0;
            rhs[d] = -s->pb.b[r];
            for (int i = 0; i < nv; i++) {
                int leg = 0;
                for (int j = 0; j < nd; j++)
                    leg |= dof[j] == i;
                if (!leg)
                    rhs[d] -= s->pb.J[r + (size_t)i * rows] * s->a_des[i];
            }
            for (int j = 0; j < nd; j++)
                A[d + 3 * j] = s->pb.J[r + (size_t)dof[j] * rows];
        }
        ck_assert_int_eq(LAPACKE_dgels(LAPACK_COL_MAJOR, 'N', k, nd, 1, A, 3, rhs, 3), 0);
        for (int j = 0; j < nd; j++)
            s->a_des[dof[j]] = rhs[j];
        r0++;
    }
}

/* The kinetic energy after the period, 1/2 v+^T M v+, v+ = v + dt a */
static double kinetic_after(const setup *s, const double *a)
{
    int nv = s->pb.nv;
    double vp[32], e = 0;
    for (int i = 0; i < nv; i++)
        vp[i] = s->v[i] + s->pb.dt * a[i];
    for (int i = 0; i < nv; i++)
        for (int j = 0; j < nv; j++)
            e += 0.5 * vp[i] * s->pb.M[i + (size_t)j * nv] * vp[j];
    return e;
}

/* The checks every result must pass: forward dynamics, complementarity,
 * the cone.  Returns the largest forward-dynamics error. */
static double check_result(setup *s, hes_invdyn_method method, const hes_invdyn_result *res)
{
    int nv = s->pb.nv, nc = s->pb.nc, t = s->pb.tangents;
    double qacc[32], scale = 1, err = 0;
    forward(s->r, s->q, s->v, &s->pb, res, qacc);
    for (int i = 0; i < nv; i++)
        scale = fmax(scale, fabs(res->a[i]));
    for (int i = 0; i < nv; i++)
        err = fmax(err, fabs(qacc[i] - res->a[i]) / scale);
    ck_assert_msg(err <= 1e-8, "%s: MuJoCo's forward dynamics differs by %.3g",
                  hes_invdyn_method_name(method), err);
    ck_assert_double_le(res->tracking, 1e-8 * scale);
    /* the desired joint accelerations, from MuJoCo's qacc */
    for (int k = 0; k < s->pb.nu; k++) {
        double bq = 0, bd = 0;
        for (int i = 0; i < nv; i++) {
            bq += s->pb.B[i + (size_t)k * nv] * qacc[i];
            bd += s->pb.B[i + (size_t)k * nv] * s->a_des[i];
        }
        ck_assert_msg(fabs(bq - bd) <= 1e-8 * scale, "%s: joint %d accelerates %.12g, not %.12g",
                      hes_invdyn_method_name(method), k, bq, bd);
    }
    double fscale = 1;
    for (int k = 0; k < nc * (1 + t); k++)
        fscale = fmax(fscale, fabs(res->f[k]));
    double wscale = 1;
    for (int k = 0; k < nc * (1 + t); k++)
        wscale = fmax(wscale, fabs(s->pb.b[k]));
    for (int c = 0; c < nc; c++) {
        ck_assert_double_ge(res->f[c], 0);
        if (method == HES_INVDYN_NO_SLIP || method == HES_INVDYN_COULOMB) {
            ck_assert_msg(res->w[c] >= -1e-7 * wscale, "contact %d penetrates: %g", c, res->w[c]);
            ck_assert_msg(fabs(res->f[c] * res->w[c]) <= 1e-7 * fscale * wscale,
                          "contact %d: f_N %g and w_N %g are not complementary", c, res->f[c],
                          res->w[c]);
        }
        if (method == HES_INVDYN_COULOMB || method == HES_INVDYN_CONVEX) {
            double ft = fabs(res->f[nc + c]) + (t == 2 ? fabs(res->f[2 * nc + c]) : 0);
            ck_assert_msg(ft <= s->pb.mu[c] * res->f[c] * (1 + 1e-9) + 1e-9 * fscale,
                          "contact %d outside the pyramid: %g > %g %g", c, ft, s->pb.mu[c],
                          res->f[c]);
        }
    }
    return err;
}

static void free_setup(setup *s)
{
    hes_invdyn_destroy(s->id);
    hes_robot_destroy(s->r);
}

static const hes_invdyn_method contact_methods[] = { HES_INVDYN_NO_SLIP, HES_INVDYN_COULOMB,
                                                     HES_INVDYN_CONVEX,
                                                     HES_INVDYN_CONVEX_NO_SLIP };

/* ------------------------------------------------------------- tests */

START_TEST(test_weight_at_rest)
{
    if (!test_have_lcp("test_invdyn"))
        return;
    const char *files[2] = { "quadruped_3d.xml", "quadruped_planar.xml" };
    for (int fi = 0; fi < 2; fi++) {
        setup s = { 0 };
        s.r = load(files[fi], 1.0);
        stand(s.r, s.q);
        setup_at(&s, NULL, 1e-3);
        double weight = total_mass(s.r) * 9.81;
        for (int k = 0; k < 4; k++) {
            hes_invdyn_options o = { .method = contact_methods[k], .stage2 = 1 };
            hes_invdyn_result res;
            hes_error msg;
            hes_status st = hes_invdyn_solve(s.id, &s.pb, &o, &res, &msg);
            ck_assert_msg(st == HES_OK, "%s %s: %s", files[fi],
                          hes_invdyn_method_name(o.method), msg.message);
            check_result(&s, o.method, &res);
            double sum = 0, tx = 0;
            for (int c = 0; c < 4; c++)
                sum += res.f[c], tx += res.f[4 + c];
            ck_assert_msg(fabs(sum - weight) <= 1e-9 * weight, "%s %s: normal forces %.12g, "
                          "weight %.12g", files[fi], hes_invdyn_method_name(o.method), sum,
                          weight);
            double tol = 1e-9;      /* rounding */
            ck_assert_msg(fabs(tx) <= tol * weight, "%s: net tangential force %g",
                          hes_invdyn_method_name(o.method), tx);
            ck_assert_double_le(res.unactuated, tol * 100);  /* it stays at rest (m/s^2) */
        }
        /* without contact the robot falls: the baseline */
        hes_invdyn_options o = { .method = HES_INVDYN_NONE, .stage2 = 1 };
        hes_invdyn_result res;
        ck_assert_int_eq(hes_invdyn_solve(s.id, &s.pb, &o, &res, NULL), HES_OK);
        check_result(&s, o.method, &res);
        ck_assert_double_gt(res.unactuated, 1.0);
        free_setup(&s);
    }
}
END_TEST

START_TEST(test_forward_dynamics_random)
{
    if (!test_have_lcp("test_invdyn"))
        return;
    const char *files[2] = { "quadruped_3d.xml", "quadruped_planar.xml" };
    int solved = 0, tried = 0;
    for (int fi = 0; fi < 2; fi++)
        for (int trial = 0; trial < 12; trial++) {
            setup s = { 0 };
            s.r = load(files[fi], trial % 3 ? 1.0 : 0.3);
            stand(s.r, s.q);
            int nv = hes_robot_dynamics_at(s.r, s.q, s.v, &s.d, NULL) == HES_OK ? s.d.nv : 0;
            for (int i = 0; i < nv; i++) {
                s.v[i] = uniform(-0.3, 0.3);
                s.a_des[i] = uniform(-3, 3);
            }
            /* a trot's stance (diagonal pair) or all four feet */
            int active[4] = { 1, trial % 2 == 0, trial % 2 == 0, 1 };
            setup_at(&s, active, trial % 4 == 0 ? 1e-2 : 1e-3);
            for (int k = 0; k < 4; k++) {
                hes_invdyn_options o = { .method = contact_methods[k], .stage2 = 1, .tol_eom = -1 };
                hes_invdyn_result res;
                hes_error msg;
                hes_status st = hes_invdyn_solve(s.id, &s.pb, &o, &res, &msg);
                tried++;
                ck_assert_msg(st == HES_OK || st == HES_EINFEASIBLE || st == HES_ELCP,
                              "%s: %s", hes_invdyn_method_name(o.method), msg.message);
                if (st == HES_ELCP)
                    continue;
                solved++;
                check_result(&s, o.method, &res);
            }
            free_setup(&s);
        }
    ck_assert_msg(solved >= tried * 3 / 4, "only %d of %d solved", solved, tried);
}
END_TEST

START_TEST(test_determinate_formulations_agree)
{
    if (!test_have_lcp("test_invdyn"))
        return;
    setup s = { 0 };
    s.r = load("quadruped_3d.xml", 5.0);
    stand(s.r, s.q);
    /* two diagonal feet: their normal forces and net tangential force are
       determined (6 contact rows against 6 base freedoms; the internal
       force along the diagonal is free, and the body's roll about the
       diagonal is the dynamics', not the plan's) */
    int active[4] = { 1, 0, 0, 1 };
    for (int i = 0; i < 18; i++)
        s.a_des[i] = 0.5 * sin(1.0 + i);
    setup_at(&s, active, 1e-3);
    consistent(&s, active);
    /* the free internal force moves the torques as Lemke's method chooses
       it (Coulomb's LCP has no objective among its solutions): the motors'
       limits are not this test's subject */
    s.pb.tau_max = NULL;
    double f[4][6], ke[4];
    for (int k = 0; k < 4; k++) {
        hes_invdyn_options o = { .method = contact_methods[k], .stage2 = 1, .tol_eom = -1 };
        hes_invdyn_result res;
        hes_error msg;
        ck_assert_msg(hes_invdyn_solve(s.id, &s.pb, &o, &res, &msg) == HES_OK, "%s",
                      msg.message);
        check_result(&s, o.method, &res);
        memcpy(f[k], res.f, sizeof f[k]);
        ke[k] = kinetic_after(&s, res.a);
        ck_assert_double_gt(res.f[0], 1.0);
        ck_assert_double_gt(res.f[1], 1.0);
        if (k <= 1)              /* the complementarity models stick */
            ck_assert_double_le(res.slip, 0);
    }
    /* Coulomb (ample friction) gives no-slip's determined forces */
    for (int j = 0; j < 2; j++)
        ck_assert_msg(fabs(f[1][j] - f[0][j]) <= 1e-8 * f[0][j], "normal %d: Coulomb %.12g, "
                      "no-slip %.12g", j, f[1][j], f[0][j]);
    for (int d = 1; d <= 2; d++)
        ck_assert_double_le(fabs(f[1][2 * d] + f[1][2 * d + 1] - f[0][2 * d] - f[0][2 * d + 1]),
                            1e-8 * f[0][0]);
    /* the convex models minimise the kinetic energy after the period over
       a set that contains the sticking forces (inside the cone at mu 5),
       and infinite friction over a larger set still */
    ck_assert_msg(ke[2] <= ke[0] * (1 + 1e-9), "convex %.15g > no-slip %.15g", ke[2], ke[0]);
    ck_assert_msg(ke[3] <= ke[2] * (1 + 1e-9), "convex-no-slip %.15g > convex %.15g", ke[3],
                  ke[2]);
    free_setup(&s);
}
END_TEST

START_TEST(test_indeterminate_warm_start)
{
    if (!test_have_lcp("test_invdyn"))
        return;
    setup s = { 0 };
    s.r = load("quadruped_3d.xml", 1.0);
    stand(s.r, s.q);
    setup_at(&s, NULL, 1e-3);
    double prev[4] = { 0 }, jump = 0, da = 0, cold_prev[4] = { 0 }, cold_jump = 0;
    int cold_infeasible = 0;
    int prev_active[4] = { 0 };
    hes_invdyn *cold = NULL;
    ck_assert_int_eq(hes_invdyn_new(18, 12, 4, 2, &cold, NULL), HES_OK);
    for (int node = 0; node < 50; node++) {
        /* the robot stands and sways its body on fixed feet */
        double ph = 2 * M_PI * node / 50.0, a_old[32];
        int all[4] = { 1, 1, 1, 1 };
        memcpy(a_old, s.a_des, sizeof a_old);
        for (int i = 0; i < 6; i++)
            s.a_des[i] = 0.4 * sin(ph + i);
        setup_at(&s, NULL, 1e-3);
        consistent(&s, all);
        for (int i = 0; i < 18; i++)
            da = fmax(da, node ? fabs(s.a_des[i] - a_old[i]) : 0);
        hes_invdyn_options o = { .method = HES_INVDYN_NO_SLIP, .stage2 = 1 };
        hes_invdyn_result res;
        hes_error msg;
        ck_assert_msg(hes_invdyn_solve(s.id, &s.pb, &o, &res, &msg) == HES_OK, "%s",
                      msg.message);
        check_result(&s, o.method, &res);
        ck_assert_int_lt(res.tangential_rows, 8);      /* Algorithm 1 dropped some */
        if (node > 0) {
            ck_assert_msg(res.warm_used, "node %d: the warm start's set did not hold", node);
            for (int c = 0; c < 4; c++) {
                ck_assert_int_eq(res.active[c], prev_active[c]);
                jump = fmax(jump, fabs(res.f[c] - prev[c]));
            }
        }
        for (int c = 0; c < 4; c++)
            prev[c] = res.f[c], prev_active[c] = res.active[c];
        /* the paper's cold start (the most violated contact alone) on a
           second workspace, for the record */
        hes_invdyn_options oc = { .method = HES_INVDYN_NO_SLIP, .stage2 = 1, .cold = 1 };
        hes_invdyn_result rc;
        hes_status stc = hes_invdyn_solve(cold, &s.pb, &oc, &rc, &msg);
        ck_assert(stc == HES_OK || stc == HES_EINFEASIBLE);
        cold_infeasible += stc != HES_OK;
        for (int c = 0; node > 0 && c < 4; c++)
            cold_jump = fmax(cold_jump, fabs(rc.f[c] - cold_prev[c]));
        memcpy(cold_prev, rc.f, sizeof cold_prev);
        if (node == 25)
            printf("test_invdyn: four feet, node 25: warm %.4f %.4f %.4f %.4f N, "
                   "cold %.4f %.4f %.4f %.4f N\n", res.f[0], res.f[1], res.f[2], res.f[3],
                   rc.f[0], rc.f[1], rc.f[2], rc.f[3]);
    }
    printf("test_invdyn: largest change of a normal force between nodes: warm-started %.3g N, "
           "the paper's cold start %.3g N (%d of 50 nodes then need friction above 1)\n", jump,
           cold_jump, cold_infeasible);
    hes_invdyn_destroy(cold);
    /* smooth: each node moves the normal forces by about what the change
       of the desired accelerations (0.05 rad/s^2 a node) can, a small
       fraction of the 20 N weight */
    double weight = total_mass(s.r) * 9.81;
    ck_assert_msg(jump <= 0.01 * weight, "the normal forces jump by %g between nodes (da %g)",
                  jump, da);
    free_setup(&s);
}
END_TEST

START_TEST(test_low_friction_infeasible)
{
    if (!test_have_lcp("test_invdyn"))
        return;
    for (int pass = 0; pass < 2; pass++) {
        double mu = pass ? 1.0 : 0.01;
        setup s = { 0 };
        s.r = load("quadruped_3d.xml", mu);
        stand(s.r, s.q);
        /* a trot's stance: LF and RH down, swinging their hips back to
           drive the body forward (the swing legs fold) */
        int active[4] = { 1, 0, 0, 1 };
        s.a_des[6 + 1] = -4, s.a_des[15 + 1] = -4;       /* lf_hip, rh_hip */
        s.a_des[6 + 2] = 4, s.a_des[15 + 2] = 4;         /* their knees */
        s.a_des[9 + 2] = -6, s.a_des[12 + 2] = -6;       /* rf, lh knees */
        setup_at(&s, active, 1e-3);
        consistent(&s, active);
        for (int k = 0; k < 4; k++) {
            hes_invdyn_options o = { .method = contact_methods[k], .stage2 = 1, .tol_eom = -1 };
            hes_invdyn_result res;
            hes_error msg = {""};
            hes_status st = hes_invdyn_solve(s.id, &s.pb, &o, &res, &msg);
            if (o.method == HES_INVDYN_CONVEX_NO_SLIP) {    /* infinite friction */
                ck_assert_msg(st == HES_OK, "%s", msg.message);
                ck_assert_double_gt(res.mu_needed, 0.01);
                continue;
            }
            if (pass == 0) {
                ck_assert_msg(st == HES_EINFEASIBLE && strstr(msg.message, "friction"),
                              "%s with friction 0.01: status %d (%s)",
                              hes_invdyn_method_name(o.method), (int)st, msg.message);
                /* the refusal's contact is the one its message names */
                char named[32];
                snprintf(named, sizeof named, "contact %d ", res.contact);
                ck_assert_msg(res.contact >= 0 && res.contact < s.pb.nc &&
                              strstr(msg.message, named), "%s: contact %d, message %s",
                              hes_invdyn_method_name(o.method), res.contact, msg.message);
            }
            else
                ck_assert_msg(st == HES_OK, "%s with friction 1: %s",
                              hes_invdyn_method_name(o.method), msg.message);
            check_result(&s, o.method, &res);
        }
        free_setup(&s);
    }
}
END_TEST

START_TEST(test_min_friction)
{
    if (!test_have_lcp("test_invdyn"))
        return;
    /* the trot's stance (determinate up to the diagonal's internal force)
       and the four-feet sway; the smallest friction is checked against
       the Coulomb LCP, a different problem: just above it the stance
       sticks, just below it a foot slides at the edge of its pyramid */
    for (int pass = 0; pass < 3; pass++) {
        setup s = { 0 };
        s.r = load(pass == 2 ? "quadruped_planar.xml" : "quadruped_3d.xml", 1.0);
        stand(s.r, s.q);
        int two[4] = { 1, 0, 0, 1 }, all[4] = { 1, 1, 1, 1 };
        const int *active = pass == 1 ? all : two;
        int nv = pass == 2 ? 15 : 18;
        for (int i = 0; i < nv; i++)
            s.a_des[i] = 0.8 * sin(2.0 + 3 * i);
        setup_at(&s, active, 1e-3);
        consistent(&s, active);
        /* the paper's no-slip forces first, then the smallest friction and
           the distribution that attains it */
        hes_invdyn_options o = { .method = HES_INVDYN_NO_SLIP, .stage2 = 1, .tol_eom = -1 };
        hes_invdyn_result res;
        hes_error msg;
        ck_assert_msg(hes_invdyn_solve(s.id, &s.pb, &o, &res, &msg) == HES_OK, "%s",
                      msg.message);
        double ratio = 0, a_paper[18];
        memcpy(a_paper, res.a, sizeof(double) * (size_t)s.pb.nv);
        for (int c = 0; c < s.pb.nc; c++) {
            double sum = fabs(res.f[s.pb.nc + c]) +
                         (s.pb.tangents == 2 ? fabs(res.f[2 * s.pb.nc + c]) : 0);
            ratio = fmax(ratio, sum / res.f[c]);
        }
        o.min_friction = 1;
        ck_assert_msg(hes_invdyn_solve(s.id, &s.pb, &o, &res, &msg) == HES_OK, "%s",
                      msg.message);
        check_result(&s, o.method, &res);
        double mu_min = res.mu_min, got = 0;
        for (int c = 0; c < s.pb.nc; c++) {
            double sum = fabs(res.f[s.pb.nc + c]) +
                         (s.pb.tangents == 2 ? fabs(res.f[2 * s.pb.nc + c]) : 0);
            got = fmax(got, res.f[c] > 0 ? sum / res.f[c] : 0);
        }
        /* the redistributed forces produce the same motion at mu_min */
        ck_assert_double_le(got, mu_min * (1 + 1e-6) + 1e-9);
        for (int i = 0; i < s.pb.nv; i++)
            ck_assert_double_le(fabs(res.a[i] - a_paper[i]), 1e-6 * (1 + fabs(a_paper[i])));
        ck_assert_double_gt(mu_min, 1e-3);
        ck_assert_double_le(mu_min, ratio * (1 + 1e-12));
        printf("test_invdyn: stance %d: smallest friction %.6f (the no-slip forces' %.6f)\n",
               pass, mu_min, ratio);
        for (int side = 0; side < 2; side++) {
            double mu = mu_min * (side ? 1.02 : 0.98);
            for (int c = 0; c < s.pb.nc; c++)
                s.mu[c] = mu;
            hes_invdyn_options oc = { .method = HES_INVDYN_COULOMB, .stage2 = 1, .tol_eom = -1 };
            hes_status st = hes_invdyn_solve(s.id, &s.pb, &oc, &res, &msg);
            ck_assert_msg(side ? st == HES_OK && res.slip == 0 : st == HES_EINFEASIBLE,
                          "stance %d, Coulomb at mu %.6f: status %d slip %g (%s)", pass, mu,
                          (int)st, res.slip, msg.message);
            /* no-slip's own status agrees with its smallest friction: one
               friction model (the pyramid) for both */
            hes_invdyn_options on = { .method = HES_INVDYN_NO_SLIP, .stage2 = 1, .min_friction = 1, .tol_eom = -1 };
            hes_invdyn_reset(s.id);
            st = hes_invdyn_solve(s.id, &s.pb, &on, &res, &msg);
            ck_assert_msg(side ? st == HES_OK : st == HES_EINFEASIBLE,
                          "stance %d, no-slip at mu %.6f (smallest %.6f): status %d (%s)", pass,
                          mu, res.mu_min, (int)st, msg.message);
        }
        free_setup(&s);
    }
}
END_TEST

START_TEST(test_no_foot_on_the_ground_is_infeasible)
{
    if (!test_have_lcp("test_invdyn"))
        return;
    /* the standing pose lifted by 1 m, at rest, asked to stay: no contact
     * is near the ground, so nothing holds the unmotored base up.  The
     * equation of motion then misses on z by the whole weight, and that
     * row's only term is the weight: a relative residual of exactly 1,
     * with the predicted motion free fall (a_z = -g m / (m + the z joint's
     * armature) up to the other armatures' coupling, MuJoCo's g = 9.81;
     * exactly MuJoCo's forward dynamics) */
    setup s = { 0 };
    s.r = load("quadruped_3d.xml", 1.0);
    stand(s.r, s.q);
    s.q[coord(s.r, "z")] += 1.0;
    int none[4] = { 0, 0, 0, 0 };
    setup_at(&s, none, 1e-3);
    ck_assert_int_eq(s.pb.nc, 0);
    for (int k = 0; k < 2; k++) {
        hes_invdyn_options o = { .method = contact_methods[k], .stage2 = 1 };
        hes_invdyn_result res;
        hes_error msg;
        hes_status st = hes_invdyn_solve(s.id, &s.pb, &o, &res, &msg);
        ck_assert_msg(st == HES_EINFEASIBLE && strstr(msg.message, "equation of motion"), "%s: %d %s",
                      hes_invdyn_method_name(o.method), (int)st, msg.message);
        ck_assert_double_eq_tol(res.eom, 1, 1e-12);
        /* free fall of the whole body: m g over m and the z joint's armature
           (to the coupling of the other joints' armatures) */
        const mjModel *mm = hes_robot_mujoco_model(s.r);
        double arm = mm->dof_armature[coord(s.r, "z")],
               mass = total_mass(s.r);
        ck_assert_double_eq_tol(res.a[coord(s.r, "z")], -9.81 * mass / (mass + arm), 1e-4);
        /* exactly: MuJoCo's forward dynamics with the torques and no contact */
        double qacc[32];
        forward(s.r, s.q, s.v, &s.pb, &res, qacc);
        for (int i = 0; i < 18; i++)
            ck_assert_double_eq_tol(res.a[i], qacc[i], 1e-9);
        /* the paper's setting asks for the joints alone: feasible */
        o.tol_eom = -1;
        ck_assert_int_eq(hes_invdyn_solve(s.id, &s.pb, &o, &res, &msg), HES_OK);
    }
    /* along a trajectory (stance by height): every node infeasible */
    double t[3] = { 0, 0.01, 0.02 }, q[3 * 18], v[3 * 18] = { 0 }, a[3 * 18] = { 0 };
    for (int n = 0; n < 3; n++)
        memcpy(q + 18 * n, s.q, sizeof(double) * 18);
    hes_invdyn_run run;
    hes_error msg;
    ck_assert_int_eq(hes_invdyn_trajectory(s.r, 3, t, q, v, a, NULL, NULL, &run, &msg), HES_OK);
    ck_assert_int_eq(run.failed, 3);
    ck_assert_int_eq(run.worst, -1);    /* no node holds: no friction is the motion's */
    ck_assert_int_eq(run.status[1], HES_EINFEASIBLE);
    hes_invdyn_run_free(&run);
    free_setup(&s);
}
END_TEST

/* The standing quadruped swaying over its four fixed feet, in closed
 * form: the base at x = A sin(2 pi t), z = z0 + B sin(4 pi t), no
 * rotation, each leg's hip and knee by the two-link inverse kinematics
 * that keeps its foot where it stood (links 0.08 m; a hinge about y turns
 * the downward link to (-sin, 0, -cos)). */
static void sway_pose(hes_robot *r, const double *q_stand, double t, double *q)
{
    const double A = 0.02, B = 0.01, l = 0.08, PI = 3.14159265358979323846;
    const char *legs[4] = { "lf", "rf", "lh", "rh" };
    memcpy(q, q_stand, sizeof(double) * 18);
    q[coord(r, "x")] = A * sin(2 * PI * t);
    q[coord(r, "z")] = q_stand[coord(r, "z")] + B * sin(4 * PI * t);
    double px = -q[coord(r, "x")], pz = -(0.16 + q[coord(r, "z")]);
    double dd = px * px + pz * pz, k2 = -acos((dd - 2 * l * l) / (2 * l * l));
    double phi = atan2(-px, -pz);
    for (int g = 0; g < 4; g++) {
        char name[32];
        snprintf(name, sizeof name, "%s_hip", legs[g]);
        q[coord(r, name)] = phi - k2 / 2;
        snprintf(name, sizeof name, "%s_knee", legs[g]);
        q[coord(r, name)] = k2;
    }
}

START_TEST(test_sampled_sway_is_consistent)
{
    if (!test_have_lcp("test_invdyn"))
        return;
    /* the sway sampled at 400 Hz, its velocities and accelerations from
     * the samples alone: a consistent motion on four feet.  It must load
     * every foot at every node, be feasible throughout, move the forces
     * smoothly, and carry the weight plus the mass times the centre of
     * mass's vertical acceleration (Newton, from MuJoCo's centre of mass
     * at the nodes by second differences: independent of the solve) */
    hes_robot *r = load("quadruped_3d.xml", 1.0);
    double q0[18];
    stand(r, q0);
    enum { N = 401 };
    double *t = malloc(sizeof(double) * N), *q = malloc(sizeof(double) * N * 18);
    double *zc = malloc(sizeof(double) * N);
    ck_assert(t && q && zc);
    mjModel *m = mj_copyModel(NULL, hes_robot_mujoco_model(r));
    mjData *md = mj_makeData(m);
    int torso = mj_name2id(m, mjOBJ_BODY, "torso");
    for (int n = 0; n < N; n++) {
        t[n] = n / 400.0;
        sway_pose(r, q0, t[n], q + (size_t)18 * n);
        memcpy(md->qpos, q + (size_t)18 * n, sizeof(double) * 18);
        mj_kinematics(m, md);
        mj_comPos(m, md);
        zc[n] = md->subtree_com[3 * torso + 2];
    }
    double mass = total_mass(r);
    hes_invdyn_run run;
    hes_error msg;
    ck_assert_int_eq(hes_invdyn_trajectory(r, N, t, q, NULL, NULL, NULL, NULL, &run, &msg), HES_OK);
    int rows = run.nc * (1 + run.tangents), loaded_min = 4;
    double jump = 0, fmin = INFINITY, newton = 0;
    for (int n = 0; n < N; n++) {
        ck_assert_msg(run.status[n] == HES_OK, "node %d (t = %g): %s", n, t[n], run.message[n]);
        int loaded = 0;
        double sum = 0;
        for (int c = 0; c < 4; c++) {
            double fn = run.f[(size_t)n * rows + c];
            loaded += fn > 1.0;
            fmin = fmin < fn ? fmin : fn;
            sum += fn;
            if (n > 0)
                jump = fmax(jump, fabs(fn - run.f[(size_t)(n - 1) * rows + c]));
        }
        loaded_min = loaded < loaded_min ? loaded : loaded_min;
        if (n > 0 && n < N - 1) {
            double azc = (zc[n + 1] - 2 * zc[n] + zc[n - 1]) * 400.0 * 400.0;
            newton = fmax(newton, fabs(sum - mass * (9.81 + azc)) / (mass * 9.81));
        }
    }
    printf("test_invdyn: sampled sway, 401 nodes: every node feasible, least normal force "
           "%.3f N, largest change between nodes %.4f N, |sum f_n - m (g + zc'')| <= %.2e "
           "of the weight\n", fmin, jump, newton);
    ck_assert_int_eq(run.failed, 0);
    ck_assert_int_eq(loaded_min, 4);
    ck_assert_msg(jump < 0.5, "a normal force jumps by %g N between nodes", jump);
    ck_assert_msg(newton < 1e-3, "Newton's law misses by %g of the weight", newton);
    hes_invdyn_run_free(&run);
    mj_deleteData(md);
    mj_deleteModel(m);
    free(t), free(q), free(zc);
    hes_robot_destroy(r);
}
END_TEST

/* 100 random feasible states of the 3-D quadruped standing on four feet
 * (friction 1): the base turned and shifted, the legs' joints bent, the
 * base's acceleration random and each stance leg's joint accelerations
 * those that keep its foot in place (consistent), at rest.  Every convex
 * solve (both formulations) must succeed; returns an FNV-1a hash of the
 * bits of every torque and force. */
static unsigned long long convex_states_hash(int *solved, int *tried, char *why, size_t len)
{
    unsigned long long h = 1469598103934665603ULL;
    rng = 99;
    *solved = *tried = 0;
    for (int n = 0; n < 100; n++) {
        setup s = { 0 };
        s.r = load("quadruped_3d.xml", 1.0);
        stand(s.r, s.q);
        s.q[coord(s.r, "x")] = uniform(-0.5, 0.5);
        s.q[coord(s.r, "y")] = uniform(-0.5, 0.5);
        s.q[coord(s.r, "yaw")] = uniform(-1, 1);
        for (int i = 0; i < 6; i++)
            s.a_des[i] = uniform(-0.5, 0.5) * (i < 3 ? 1 : 2);
        int active[4] = { 1, 1, 1, 1 };
        setup_at(&s, active, 1e-3);
        consistent(&s, active);
        s.pb.tau_max = NULL;
        for (int k = 2; k < 4; k++) {
            /* the paper's setting: the joints' accelerations asked, the
               base's the complementarity-free model's own prediction */
            hes_invdyn_options o = { .method = contact_methods[k], .stage2 = 1, .tol_eom = -1 };
            hes_invdyn_result res;
            hes_error msg;
            hes_status st = hes_invdyn_solve(s.id, &s.pb, &o, &res, &msg);
            ++*tried;
            if (st != HES_OK) {
                if (why[0] == '\0')
                    snprintf(why, len, "state %d, %s: %.400s", n, hes_invdyn_method_name(o.method),
                             msg.message);
                continue;
            }
            ++*solved;
            const double *parts[2] = { res.tau, res.f };
            int sizes[2] = { s.pb.nu, s.pb.nc * (1 + s.pb.tangents) };
            for (int p = 0; p < 2; p++)
                for (int i = 0; i < sizes[p]; i++) {
                    unsigned long long u;
                    memcpy(&u, &parts[p][i], sizeof u);
                    h = (h ^ u) * 1099511628211ULL;
                }
        }
        free_setup(&s);
    }
    return h;
}

/* The child of the thread-count test (the whole suite, with
 * HES_TEST_CONVEX_HASH set): the hash */
START_TEST(test_convex_hash_child)
{
    if (!getenv("HES_TEST_CONVEX_HASH"))
        return;
    int solved, tried;
    char why[512] = "";
    printf("convex-hash %016llx\n", convex_states_hash(&solved, &tried, why, sizeof why));
    fflush(stdout);
}
END_TEST

START_TEST(test_convex_random_states_solve_the_same_with_any_thread_count)
{
    if (!test_have_lcp("test_invdyn"))
        return;
    int solved, tried;
    char why[512] = "";
    unsigned long long h = convex_states_hash(&solved, &tried, why, sizeof why);
    ck_assert_msg(solved == tried, "%d of %d convex solves failed; the first: %s",
                  tried - solved, tried, why);
    /* the same run in this program again, under OpenBLAS with 1 and with 2
       threads (read when the library loads: a process each) */
    unsigned long long hs[2];
    for (int t = 0; t < 2; t++) {
        char cmd[4200], line[128] = "";
        char self[4096];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        ck_assert_int_gt(n, 0);
        self[n] = '\0';
        snprintf(cmd, sizeof cmd, "OPENBLAS_NUM_THREADS=%d HES_TEST_CONVEX_HASH=1 '%s'", t + 1,
                 self);
        FILE *f = popen(cmd, "r");
        ck_assert_ptr_nonnull(f);
        int got = 0;
        while (fgets(line, sizeof line, f))
            got += sscanf(line, "convex-hash %llx", &hs[t]) == 1;
        ck_assert_int_eq(pclose(f), 0);
        ck_assert_int_eq(got, 1);
    }
    printf("test_invdyn: 100 random four-feet states, %d convex solves: all solved; results "
           "%016llx with 1 thread, %016llx with 2, %016llx here\n", tried, hs[0], hs[1], h);
    ck_assert_msg(hs[0] == hs[1], "1 and 2 BLAS threads give different bits");
}
END_TEST

/* The convex formulations in the contact forces (least squares with
 * bounds, the default) against the KKT LCPs of the pyramid's face
 * variables (Lemke, options.qp_lcp), a second method: 100 random states of
 * the 3-D quadruped on four feet, two diagonal ones or three, moving
 * (random velocity: Stage I's energy then weighs the forces), random base
 * and consistent joint accelerations, friction 0.2, 1 and 5.  Where the
 * LCPs solve, the default must too, without falling back to them, and
 * hold every result's checks (MuJoCo's forward dynamics, the pyramid);
 * where they find the motion infeasible, so must the default; where
 * Lemke's method fails, the default's answer must hold the checks.
 * Stage I's kinetic energy is unique: equal to 1e-8 relative.  Stage II's
 * torques are unique for a given motion: equal to 1e-8 relative, except
 * where (a) the same motion (accelerations within 1e-10) carries smaller
 * torques than the LCPs' "optimum", a feasible point that proves the LCP
 * path missed Stage II's minimum; or (b) the LCP path's motion differs
 * (Lemke's tolerance and the regularisation leave Stage I's optimum on its
 * face to about 1e-8) and the torques differ by at most 100 times as much.
 * Each case is counted and printed. */
START_TEST(test_convex_in_the_forces_equals_the_lcps)
{
    if (!test_have_lcp("test_invdyn"))
        return;
    rng = 2024;
    int compared = 0, ref_failed = 0, lemke_missed = 0, equal = 0, ref_missed = 0, ref_moved = 0;
    double worst_e = 0, worst_tau = 0, worst_moved = 0;
    const double mus[3] = { 0.2, 1.0, 5.0 };
    for (int n = 0; n < 100; n++) {
        setup s = { 0 };
        s.r = load("quadruped_3d.xml", mus[n % 3]);
        stand(s.r, s.q);
        s.q[coord(s.r, "x")] = uniform(-0.5, 0.5);
        s.q[coord(s.r, "yaw")] = uniform(-1, 1);
        int active[4] = { 1, 1, 1, 1 };
        if (n % 4 == 1)
            active[1] = active[2] = 0;
        else if (n % 4 == 2)
            active[3] = 0;
        for (int i = 0; i < 6; i++) {
            s.a_des[i] = uniform(-1, 1) * (i < 3 ? 1 : 2);
            s.v[i] = uniform(-0.2, 0.2);
        }
        setup_at(&s, active, 1e-3);
        consistent(&s, active);
        s.pb.tau_max = NULL;
        int nv = s.pb.nv, nu = s.pb.nu;
        for (int k = 2; k < 4; k++) {
            const char *name = hes_invdyn_method_name(contact_methods[k]);
            hes_invdyn_options o = { .method = contact_methods[k], .stage2 = 1, .tol_eom = -1,
                                     .cold = 1, .qp_lcp = 1 };
            hes_invdyn_result res;
            hes_error msg;
            hes_status st_ref = hes_invdyn_solve(s.id, &s.pb, &o, &res, &msg);
            if (st_ref != HES_OK) {
                o.qp_lcp = 0;
                hes_status st = hes_invdyn_solve(s.id, &s.pb, &o, &res, &msg);
                if (st_ref == HES_ELCP && st == HES_OK) {   /* Lemke missed a solution */
                    check_result(&s, o.method, &res);
                    lemke_missed++;
                    continue;
                }
                ref_failed++;           /* else the same verdict (Lemke's failure is
                                           how an infeasible program shows) */
                ck_assert_msg(st == st_ref || (st_ref == HES_ELCP && st == HES_EINFEASIBLE), "state %d, %s: the LCPs say %s, the forces' least "
                              "squares %s (%s)", n, name, hes_strerror(st_ref),
                              hes_strerror(st), msg.message);
                continue;
            }
            double tau_ref[32], a_ref[32], e_ref = kinetic_after(&s, res.a);
            memcpy(tau_ref, res.tau, sizeof(double) * (size_t)nu);
            memcpy(a_ref, res.a, sizeof(double) * (size_t)nv);
            o.qp_lcp = 0;
            hes_status st = hes_invdyn_solve(s.id, &s.pb, &o, &res, &msg);
            ck_assert_msg(st == HES_OK, "state %d, %s: the LCPs solve, the forces' least "
                          "squares: %s", n, name, msg.message);
            ck_assert_msg(res.lcps == 0, "state %d, %s: fell back to the LCPs", n, name);
            check_result(&s, o.method, &res);
            double e = kinetic_after(&s, res.a), de = fabs(e - e_ref) / e_ref;
            ck_assert_msg(de <= 1e-8, "state %d, %s: kinetic energy %.15g, the LCPs' %.15g", n,
                          name, e, e_ref);
            double ts = 0, dt = 0, as = 0, da = 0, n2 = 0, n2_ref = 0;
            for (int j = 0; j < nu; j++) {
                ts = fmax(ts, fabs(tau_ref[j]));
                n2 += res.tau[j] * res.tau[j], n2_ref += tau_ref[j] * tau_ref[j];
            }
            for (int j = 0; j < nu; j++)
                dt = fmax(dt, fabs(res.tau[j] - tau_ref[j]) / ts);
            for (int i = 0; i < nv; i++)
                as = fmax(as, fabs(a_ref[i]));
            for (int i = 0; i < nv; i++)
                da = fmax(da, fabs(res.a[i] - a_ref[i]) / as);
            if (dt <= 1e-8) {
                equal++;
            } else if (da <= 1e-10 && n2 < n2_ref) {
                ref_missed++;
            } else {
                ck_assert_msg(da > 1e-10 && dt <= 100 * da, "state %d, %s: torques differ by "
                              "%.3g of the largest (|tau|^2 %.15g, the LCPs' %.15g), the "
                              "motions by %.3g", n, name, dt, n2, n2_ref, da);
                ref_moved++;
                worst_moved = fmax(worst_moved, da);
            }
            worst_e = fmax(worst_e, de);
            if (dt <= 1e-8)
                worst_tau = fmax(worst_tau, dt);
            compared++;
        }
        free_setup(&s);
    }
    printf("test_invdyn: convex in the forces vs the KKT LCPs: %d solves compared (%d "
           "infeasible to both; %d solved where Lemke's method failed); kinetic energy within %.2g; torques equal within %.2g in %d, "
           "smaller for the same motion in %d (the LCPs missed Stage II's optimum), apart as "
           "the LCPs' motion moved (by up to %.2g) in %d\n", compared, ref_failed, lemke_missed,
           worst_e,
           worst_tau, equal, ref_missed, worst_moved, ref_moved);
    ck_assert_int_ge(compared, 150);
    ck_assert_int_ge(equal, compared * 8 / 10);
}
END_TEST

START_TEST(test_torque_limit_and_bad_input)
{
    setup s = { 0 };
    s.r = load("quadruped_3d.xml", 1.0);
    stand(s.r, s.q);
    s.a_des[8] = 1e6;             /* lf_knee far beyond its 5 N m motor */
    setup_at(&s, NULL, 1e-3);
    hes_invdyn_options o = { .method = HES_INVDYN_NONE, .stage2 = 1 };
    hes_invdyn_result res;
    hes_error msg;
    ck_assert_int_eq(hes_invdyn_solve(s.id, &s.pb, &o, &res, &msg), HES_EINFEASIBLE);
    ck_assert_ptr_nonnull(strstr(msg.message, "limit"));
    ck_assert_int_eq(res.contact, -1);   /* a motor's refusal names no contact */
    /* bad input */
    hes_invdyn_problem bad = s.pb;
    bad.dt = 0;
    ck_assert_int_eq(hes_invdyn_solve(s.id, &bad, &o, &res, &msg), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg.message, "dt"));
    bad = s.pb;
    bad.nc = 2;
    ck_assert_int_eq(hes_invdyn_solve(s.id, &bad, &o, &res, &msg), HES_EINVAL);
    double M[18 * 18];
    memcpy(M, s.pb.M, sizeof M);
    M[0] = -1;
    bad = s.pb;
    bad.M = M;
    ck_assert_int_eq(hes_invdyn_solve(s.id, &bad, &o, &res, &msg), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg.message, "positive definite"));
    /* friction beyond what the pyramid resolves: refused by the pyramid
       formulations, accepted by no-slip (its friction is only checked) */
    double mu_big[4];
    for (int c = 0; c < 4; c++)
        mu_big[c] = s.pb.mu[c];
    mu_big[1] = 1e7;
    bad = s.pb;
    bad.mu = mu_big;
    const hes_invdyn_method pyr[2] = { HES_INVDYN_COULOMB, HES_INVDYN_CONVEX };
    for (int k = 0; k < 2; k++) {
        hes_invdyn_options ob = { .method = pyr[k], .stage2 = 1, .tol_eom = -1 };
        ck_assert_int_eq(hes_invdyn_solve(s.id, &bad, &ob, &res, &msg), HES_EINVAL);
        ck_assert_ptr_nonnull(strstr(msg.message, "contact 1's friction coefficient 1e+07"));
    }
    hes_invdyn_options ons = { .method = HES_INVDYN_NO_SLIP, .stage2 = 1, .tol_eom = -1 };
    ck_assert_int_ne(hes_invdyn_solve(s.id, &bad, &ons, &res, &msg), HES_EINVAL);
    hes_invdyn *none = (hes_invdyn *)&none;
    ck_assert_int_eq(hes_invdyn_new(3, 4, 1, 2, &none, &msg), HES_EINVAL);
    ck_assert_ptr_null(none);
    ck_assert_msg(strstr(msg.message, "1 <= nu <= nv"), "%s", msg.message);
    ck_assert_int_eq(hes_invdyn_new(3, 1, 1, 3, &none, NULL), HES_EINVAL);
    /* a failed solve leaves its reason in the workspace as well, with or
       without a hes_error of the caller's */
    ck_assert_int_eq(hes_invdyn_solve(s.id, NULL, &ons, &res, NULL), HES_EINVAL);
    ck_assert_msg(strstr(hes_invdyn_errmsg(s.id), "needs a workspace"), "%s",
                  hes_invdyn_errmsg(s.id));
    bad = s.pb;
    bad.dt = 0;
    ck_assert_int_eq(hes_invdyn_solve(s.id, &bad, &ons, &res, &msg), HES_EINVAL);
    ck_assert_str_eq(hes_invdyn_errmsg(s.id), msg.message);
    ck_assert_ptr_null(hes_invdyn_errmsg(NULL));
    hes_invdyn_method m;
    ck_assert_int_eq(hes_invdyn_method_from_name("coulomb", &m), HES_OK);
    ck_assert_int_eq(m, HES_INVDYN_COULOMB);
    ck_assert_int_eq(hes_invdyn_method_from_name("magic", &m), HES_EINVAL);
    free_setup(&s);
}
END_TEST
#endif

static Suite *suite(void)
{
    Suite *s = suite_create("invdyn");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
#ifdef HAVE_MUJOCO
    if (getenv("HES_TEST_CONVEX_HASH")) {   /* the thread-count test's child: that alone */
        tcase_add_test(tc, test_convex_hash_child);
        suite_add_tcase(s, tc);
        return s;
    }
    tcase_add_test(tc, test_weight_at_rest);
    tcase_add_test(tc, test_forward_dynamics_random);
    tcase_add_test(tc, test_determinate_formulations_agree);
    tcase_add_test(tc, test_indeterminate_warm_start);
    tcase_add_test(tc, test_low_friction_infeasible);
    tcase_add_test(tc, test_min_friction);
    tcase_add_test(tc, test_no_foot_on_the_ground_is_infeasible);
    tcase_add_test(tc, test_sampled_sway_is_consistent);
    tcase_add_test(tc, test_convex_random_states_solve_the_same_with_any_thread_count);
    tcase_add_test(tc, test_convex_in_the_forces_equals_the_lcps);
    tcase_add_test(tc, test_torque_limit_and_bad_input);
#else
    printf("test_invdyn: hes was built without MuJoCo: skipped\n");
#endif
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
