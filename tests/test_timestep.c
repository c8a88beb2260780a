/*
 * test_timestep.c - one step of rigid time stepping (hes_timestep_ap)
 * against closed forms:
 *   - in flight (no contact, or contacts too far to close their gap) the
 *     step is v + dt M^-1 force exactly: momentum changes by the force's
 *     impulse alone;
 *   - a block sliding on the ground slows by mu g dt a step, with normal
 *     impulse m g dt and friction -mu m g dt, until it sticks;
 *   - with friction 1e3 (the experiments' "infinite") it sticks at once;
 *   - a point at rest inside the ground by d leaves at d / dt;
 *   - a planar box dropped tilted onto the ground with its two corners as
 *     contacts: in flight its vertical speed falls by g dt a step and its
 *     horizontal speed and spin do not change; no corner ever ends a step
 *     deeper than the position update's own error (the corner moves on an
 *     arc, the update is a straight line: at most dt^2 w^2 r, w the spin, r
 *     the corner's distance from the centre); it comes to rest on both
 *     corners, level, with the normal impulses carrying its weight;
 *   - the 3-D quadruped of share/robots (MuJoCo's M, h, B and the feet's
 *     rows, as the closed-loop experiment steps it): thrown into the air,
 *     its linear momentum changes by -m g dt a step and its momentum about
 *     the vertical (yaw, a cyclic coordinate) not at all, to the scheme's
 *     first order: the drift over 0.25 s halves with the step; dropped
 *     tilted and held by joint PD torques for 1 s, no foot ends a step
 *     deeper than the straight position update's own error plus 1e-8 dt,
 *     and the velocity-level constraint J_n v+ + gap / dt >= 0 holds to
 *     1e-8; it settles on its four feet (speeds below 0.05);
 *   - bad input is refused with a message naming it.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"
#include "testutil.h"

#define G 9.81

START_TEST(test_flight_is_the_free_step)
{
    /* a rigid body in 3-D: M = diag(m, m, m, Ix, Iy, Iz) */
    double M[36] = { 0 }, v[6] = { 0.3, -0.2, 1.1, 2.0, -1.0, 0.5 }, f[6] = { 1, 2, -19.62, 0.1,
                                                                               0, -0.3 };
    double diag[6] = { 2, 2, 2, 0.1, 0.2, 0.3 }, vp[6], p[12];
    for (int i = 0; i < 6; i++)
        M[i + 6 * i] = diag[i];
    /* four contacts 1 m below, moving down at 1.1 m/s at most: none closes */
    double Jn[4 * 6] = { 0 }, Jt[8 * 6] = { 0 }, mu[4] = { 0.5, 0.5, 0.5, 0.5 },
           gap[4] = { 1, 1, 1, 1 };
    for (int i = 0; i < 4; i++) {
        Jn[i + 4 * 2] = 1;
        Jt[i + 8 * 0] = 1;
        Jt[4 + i + 8 * 1] = 1;
    }
    for (int k = 0; k <= 4; k += 4) {
        hes_timestep_problem pb = { 6, k, 2, M, Jn, Jt, mu, gap, v, f, 1e-3 };
        hes_error msg;
        ck_assert_msg(hes_timestep_ap(&pb, vp, p, NULL, &msg) == HES_OK, "%s", msg.message);
        for (int j = 0; j < 6; j++)
            ck_assert_msg(fabs(vp[j] - (v[j] + 1e-3 * f[j] / diag[j])) <= 1e-15 * (1 + fabs(v[j])),
                          "k = %d: v+[%d] = %.17g, the free step %.17g", k, j, vp[j],
                          v[j] + 1e-3 * f[j] / diag[j]);
        for (int i = 0; i < 3 * k; i++)   /* (a tangential impulse is a difference) */
            ck_assert_msg(fabs(p[i]) <= 1e-15, "impulse %d = %g in flight", i, p[i]);
    }
}
END_TEST

/* a point mass m on the ground (n = 3: x, y, z; one contact, two tangents) */
static hes_status point_step(double m, double mu, double gap, const double *v, double dt,
                             double *vp, double *p)
{
    static const double Jn[3] = { 0, 0, 1 }, Jt[6] = { 1, 0, 0, 1, 0, 0 };
    double M[9] = { m, 0, 0, 0, m, 0, 0, 0, m }, f[3] = { 0, 0, -m * G };
    hes_timestep_problem pb = { 3, 1, 2, M, Jn, Jt, &mu, &gap, v, f, dt };
    hes_error msg;
    hes_status st = hes_timestep_ap(&pb, vp, p, NULL, &msg);
    ck_assert_msg(st == HES_OK, "%s", msg.message);
    return st;
}

START_TEST(test_sliding_block_slows_by_mu_g_dt)
{
    double m = 2, mu = 0.3, dt = 1e-3, v[3] = { 1.0, 0, 0 }, vp[3], p[3];
    int steps = 0;
    while (v[0] > 1e-12 && steps < 10000) {
        point_step(m, mu, 0, v, dt, vp, p);
        double want = fmax(v[0] - mu * G * dt, 0);
        ck_assert_msg(fabs(vp[0] - want) <= 1e-12, "step %d: speed %.15g, closed form %.15g",
                      steps, vp[0], want);
        ck_assert_msg(fabs(vp[2]) <= 1e-12 && fabs(vp[1]) <= 1e-12, "step %d: v+ = (%g, %g, %g)",
                      steps, vp[0], vp[1], vp[2]);
        ck_assert_msg(fabs(p[0] - m * G * dt) <= 1e-12, "normal impulse %.15g, m g dt %.15g",
                      p[0], m * G * dt);
        if (want > 0)
            ck_assert_msg(fabs(p[1] + mu * m * G * dt) <= 1e-12, "friction %.15g", p[1]);
        memcpy(v, vp, sizeof v);
        steps++;
    }
    /* u0 / (mu g dt) = 339.8: it sticks at the 340th step, and stays */
    ck_assert_int_eq(steps, 340);
    point_step(m, mu, 0, v, dt, vp, p);
    ck_assert_double_eq_tol(vp[0], 0, 1e-12);
}
END_TEST

START_TEST(test_large_friction_sticks_at_once)
{
    double v[3] = { 1.0, -0.5, 0 }, vp[3], p[3];
    point_step(2, 1e3, 0, v, 1e-3, vp, p);
    ck_assert_double_eq_tol(vp[0], 0, 1e-9);
    ck_assert_double_eq_tol(vp[1], 0, 1e-9);
}
END_TEST

START_TEST(test_penetration_is_left_at_depth_over_dt)
{
    double v[3] = { 0, 0, 0 }, vp[3], p[3];
    point_step(2, 0.5, -1e-3, v, 1e-3, vp, p);
    ck_assert_msg(fabs(vp[2] - 1.0) <= 1e-12, "leaves at %.15g m/s, not d / dt = 1", vp[2]);
}
END_TEST

/* the planar box: half width a, half height b, state (x, z, theta); its
 * corners c = (+-a, -b) in the body, at height z + c_x sin th + c_y cos th */
static void box_contacts(double a, double b, const double *q, double *Jn, double *Jt,
                         double *gap)
{
    for (int i = 0; i < 2; i++) {
        double cx = i ? a : -a, cy = -b, s = sin(q[2]), c = cos(q[2]);
        gap[i] = q[1] + cx * s + cy * c;
        Jn[i + 2 * 0] = 0;
        Jn[i + 2 * 1] = 1;
        Jn[i + 2 * 2] = cx * c - cy * s;
        Jt[i + 2 * 0] = 1;
        Jt[i + 2 * 1] = 0;
        Jt[i + 2 * 2] = -cx * s - cy * c;
    }
}

START_TEST(test_box_lands_without_penetrating_and_rests)
{
    double m = 1.5, a = 0.2, b = 0.1, I = m * (4 * a * a + 4 * b * b) / 12, dt = 1e-3;
    double M[9] = { m, 0, 0, 0, m, 0, 0, 0, I }, f[3] = { 0, -m * G, 0 }, mu[2] = { 0.5, 0.5 };
    double q[3] = { 0, 0.35, 0.3 }, v[3] = { 0.4, 0, 1.5 }, vp[3], p[4], Jn[6], Jt[6], gap[2];
    double r = sqrt(a * a + b * b), deepest = 0, worst = 0;
    int landed = 0;
    hes_error msg;
    for (int step = 0; step < 3000; step++) {
        box_contacts(a, b, q, Jn, Jt, gap);
        hes_timestep_problem pb = { 3, 2, 1, M, Jn, Jt, mu, gap, v, f, dt };
        ck_assert_msg(hes_timestep_ap(&pb, vp, p, NULL, &msg) == HES_OK,
                      "step %d: %s", step, msg.message);
        if (p[0] == 0 && p[1] == 0 && !landed) {   /* flight: gravity alone */
            ck_assert_msg(fabs(vp[1] - (v[1] - G * dt)) <= 1e-12 && fabs(vp[0] - v[0]) <= 1e-12 &&
                          fabs(vp[2] - v[2]) <= 1e-12, "step %d: in flight v+ = (%g, %g, %g)",
                          step, vp[0], vp[1], vp[2]);
        } else
            landed = 1;
        for (int j = 0; j < 3; j++)
            q[j] += dt * vp[j];
        /* the corners' heights at the step's end, against the update's error */
        box_contacts(a, b, q, Jn, Jt, gap);
        double bound = dt * dt * (fmax(v[2] * v[2], vp[2] * vp[2])) * r + 1e-12;
        for (int i = 0; i < 2; i++) {
            deepest = fmin(deepest, gap[i]);
            worst = fmax(worst, -gap[i] / bound);
            ck_assert_msg(gap[i] >= -bound, "step %d: corner %d at %.3g, deeper than the "
                          "update's error %.3g", step, i, gap[i], bound);
        }
        memcpy(v, vp, sizeof v);
    }
    ck_assert(landed);
    /* at rest, level, on both corners, the impulses carrying the weight */
    ck_assert_msg(fabs(v[0]) < 1e-9 && fabs(v[1]) < 1e-9 && fabs(v[2]) < 1e-9,
                  "not at rest: v = (%g, %g, %g)", v[0], v[1], v[2]);
    ck_assert_msg(fabs(q[2]) < 1e-9 && fabs(q[1] - b) < 1e-6, "rests at z %.9g, theta %.3g",
                  q[1], q[2]);
    ck_assert_msg(fabs(p[0] + p[1] - m * G * dt) <= 1e-12, "normal impulses %.15g, m g dt %.15g",
                  p[0] + p[1], m * G * dt);
    if (getenv("HES_TEST_VERBOSE"))
        printf("deepest corner %.3g m, %.2f of the bound\n", deepest, worst);
}
END_TEST

START_TEST(test_bad_input_is_refused)
{
    double M[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, v[3] = { 0 }, f[3] = { 0 }, vp[3];
    double Jn[3] = { 0, 0, 1 }, Jt[6] = { 1, 0, 0, 1, 0, 0 }, mu = 0.5, gap = 0;
    hes_error msg;
    hes_timestep_problem pb = { 3, 1, 2, M, Jn, Jt, &mu, &gap, v, f, 1e-3 };
    hes_timestep_problem bad = pb;
    bad.tangents = 3;
    ck_assert_int_eq(hes_timestep_ap(&bad, vp, NULL, NULL, &msg), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg.message, "tangents"));
    bad = pb;
    bad.dt = 0;
    ck_assert_int_eq(hes_timestep_ap(&bad, vp, NULL, NULL, &msg), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg.message, "dt"));
    double neg = -1, huge = 2 * HES_IMPACT_MU_MAX;
    bad = pb;
    bad.mu = &neg;
    ck_assert_int_eq(hes_timestep_ap(&bad, vp, NULL, NULL, &msg), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg.message, "friction"));
    bad.mu = &huge;
    ck_assert_int_eq(hes_timestep_ap(&bad, vp, NULL, NULL, &msg), HES_EINVAL);
    double Mbad[9] = { 1, 0, 0, 0, -1, 0, 0, 0, 1 }, nan = NAN;
    bad = pb;
    bad.M = Mbad;
    ck_assert_int_eq(hes_timestep_ap(&bad, vp, NULL, NULL, &msg), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg.message, "positive definite"));
    bad = pb;
    bad.gap = &nan;
    ck_assert_int_eq(hes_timestep_ap(&bad, vp, NULL, NULL, &msg), HES_EINVAL);
    ck_assert_int_eq(hes_timestep_ap(NULL, vp, NULL, NULL, &msg), HES_EINVAL);
    ck_assert_int_eq(hes_timestep_ap(&pb, NULL, NULL, NULL, &msg), HES_EINVAL);
}
END_TEST

/* ------------------------------------------------- the 3-D quadruped */

static hes_robot *quadruped(double mu)
{
    const char *feet[4] = { "lf_foot", "rf_foot", "lh_foot", "rh_foot" };
    hes_robot_contact c[4];
    for (int i = 0; i < 4; i++)
        c[i] = (hes_robot_contact){ feet[i], mu };
    hes_robot *r = NULL;
    char buf[4096];
    hes_error msg;
    hes_status st = hes_robot_read(test_robot_file(buf, sizeof buf, "quadruped_3d.xml"), c, 4,
                                   &r, &msg);
    if (st == HES_ESOLVER) {
        printf("test_timestep: %s: the quadruped's tests skipped\n", msg.message);
        return NULL;
    }
    ck_assert_msg(st == HES_OK, "%s", msg.message);
    return r;
}

/* One step of the rigid ground (as share/examples/quadruped_trot.c):
 * v+ by hes_timestep_ap with tau held, q += dt v+; the dynamics at the
 * start of the step into *d */
static void robot_step(hes_robot *r, double *q, double *v, const double *tau, double dt,
                       hes_robot_dynamics *d, double *vp)
{
    hes_error msg;
    ck_assert_int_eq(hes_robot_dynamics_at(r, q, v, d, &msg), HES_OK);
    int nv = d->nv, nu = d->nu;
    double force[32], Jn[4 * 32], Jt[8 * 32];
    for (int i = 0; i < nv; i++) {
        double s = -d->h[i];
        for (int j = 0; j < nu; j++)
            s += d->B[i + (size_t)j * nv] * (tau ? tau[j] : 0);
        force[i] = s;
        for (int k = 0; k < 4; k++)
            Jn[k + 4 * i] = d->J[k + (size_t)i * 12];
        for (int k = 0; k < 8; k++)
            Jt[k + 8 * i] = d->J[4 + k + (size_t)i * 12];
    }
    hes_timestep_problem pb = { nv, 4, 2, d->M, Jn, Jt, d->mu, d->phi, v, force, dt };
    ck_assert_msg(hes_timestep_ap(&pb, vp, NULL, NULL, &msg) == HES_OK, "%s", msg.message);
    for (int i = 0; i < nv; i++)
        q[i] += dt * vp[i];
}

/* The drift of the linear momentum (p_x, p_y, p_z + m g t: the slides'
 * rows of M v) and of the angular momentum about the world's vertical
 * axis (p_yaw + x p_y - y p_x: the yaw hinge turns about the moving base)
 * over 0.25 s of flight; weight: m g, the z row of h at rest */
static double flight_drift(hes_robot *r, double dt, double weight)
{
    double q[32] = { 0 }, v[32] = { 0 }, vp[32], p0[4] = { 0 }, drift = 0;
    q[2] = 1.0;                                /* a metre up */
    for (int l = 0; l < 4; l++)
        q[7 + 3 * l] = 0.5, q[8 + 3 * l] = -1.0;
    const double v0[18] = { 0.8, -0.4, 1.5, 2.0, 0.7, -1.1, 1, -2, 3, -1, 2, 1, 0.5, 1, -2, 2,
                            -1, 1 };
    memcpy(v, v0, sizeof v0);
    hes_robot_dynamics d;
    int steps = (int)(0.25 / dt + 0.5);
    for (int k = 0; k <= steps; k++) {
        hes_error msg;
        ck_assert_int_eq(hes_robot_dynamics_at(r, q, v, &d, &msg), HES_OK);
        double pm[4];
        for (int a = 0; a < 4; a++) {
            pm[a] = 0;
            for (int j = 0; j < d.nv; j++)
                pm[a] += d.M[a + (size_t)j * d.nv] * v[j];
        }
        pm[2] += weight * k * dt;              /* gravity's impulse */
        pm[3] += q[0] * pm[1] - q[1] * pm[0];  /* about the world's vertical axis */
        for (int l = 0; l < 4; l++)
            ck_assert_double_gt(d.phi[l], 0.2);     /* in flight all along */
        if (k == 0)
            memcpy(p0, pm, sizeof p0);
        for (int a = 0; a < 4; a++)
            drift = fmax(drift, fabs(pm[a] - p0[a]));
        if (k < steps) {
            robot_step(r, q, v, NULL, dt, &d, vp);
            memcpy(v, vp, sizeof(double) * (size_t)d.nv);
        }
    }
    return drift;
}

START_TEST(test_quadruped_flight_keeps_its_momentum)
{
    hes_robot *r = quadruped(1.0);
    if (!r)
        return;
    /* the weight: the z slide's row of h at rest */
    double q[32] = { 0 }, v[32] = { 0 };
    q[2] = 1;
    hes_robot_dynamics d;
    hes_error msg;
    ck_assert_int_eq(hes_robot_dynamics_at(r, q, v, &d, &msg), HES_OK);
    double weight = d.h[2];
    ck_assert_double_gt(weight, 10);
    double e1 = flight_drift(r, 1e-3, weight), e2 = flight_drift(r, 5e-4, weight);
    printf("test_timestep: the quadruped in flight for 0.25 s: momentum drift %.3g at dt "
           "1 ms, %.3g at 0.5 ms (N s, N m s; its linear momentum %.3g N s)\n", e1, e2,
           weight / G * 1.5);
    ck_assert_msg(e1 <= 1e-3 * weight, "drift %g at dt 1 ms", e1);
    ck_assert_msg(e2 <= 0.6 * e1, "the drift does not fall with the step: %g, then %g", e1, e2);
    hes_robot_destroy(r);
}
END_TEST

START_TEST(test_quadruped_lands_without_penetrating)
{
    hes_robot *r = quadruped(1.0);
    if (!r)
        return;
    double q[32] = { 0 }, v[32] = { 0 }, vp[32], q0[32], dt = 1e-3;
    for (int l = 0; l < 4; l++)
        q[7 + 3 * l] = 0.5, q[8 + 3 * l] = -1.0;
    q[2] = 2 * 0.08 * cos(0.5) - 0.16 + 0.03;   /* 3 cm up */
    q[4] = 0.1, q[5] = -0.08;                   /* pitched and rolled */
    v[0] = 0.3, v[2] = -0.5;
    memcpy(q0, q, sizeof q);
    hes_robot_dynamics d;
    double worst = 0, worst_v = 0, fn_end = 0;
    int nv = 0;
    for (int k = 0; k < 1000; k++) {
        /* joint PD holding the stance (the experiment's PD gains) */
        double tau[12];
        for (int j = 0; j < 12; j++)
            tau[j] = 20 * (q0[6 + j] - q[6 + j]) - 0.4 * v[6 + j];
        double phi0[4];
        robot_step(r, q, v, tau, dt, &d, vp);
        nv = d.nv;
        double Jnv[4];
        for (int l = 0; l < 4; l++) {
            phi0[l] = d.phi[l];
            Jnv[l] = 0;
            for (int i = 0; i < nv; i++)
                Jnv[l] += d.J[l + (size_t)i * 12] * vp[i];
        }
        memcpy(v, vp, sizeof(double) * (size_t)nv);
        hes_error msg;
        hes_robot_dynamics d1;
        ck_assert_int_eq(hes_robot_dynamics_at(r, q, v, &d1, &msg), HES_OK);
        for (int l = 0; l < 4; l++) {
            /* the velocity-level constraint, and the position update's error */
            double lin = phi0[l] + dt * Jnv[l], err = fabs(d1.phi[l] - lin);
            worst_v = fmin(worst_v, lin / dt);
            ck_assert_msg(lin >= -1e-8 * dt * fmax(1, fabs(Jnv[l])), "step %d, foot %d: "
                          "J_n v+ + gap / dt = %g", k, l, lin / dt);
            ck_assert_msg(d1.phi[l] >= -(err + 1e-8 * dt), "step %d, foot %d %g deep, the "
                          "update's error %g", k, l, -d1.phi[l], err);
            worst = fmin(worst, d1.phi[l]);
        }
        if (k == 999)
            for (int l = 0; l < 4; l++)
                fn_end += d1.phi[l] <= 1e-6;
    }
    double speed = 0;
    for (int i = 0; i < nv; i++)
        speed = fmax(speed, fabs(v[i]));
    printf("test_timestep: the quadruped dropped 3 cm, tilted, for 1 s: deepest foot %.3g m, "
           "J_n v+ + gap / dt >= %.3g m/s, settled to %.3g on %g feet\n", fmax(0, -worst), worst_v,
           speed, fn_end);
    ck_assert_double_le(speed, 0.05);         /* settled (the PD damps slowly) */
    ck_assert_double_eq(fn_end, 4);
    hes_robot_destroy(r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("timestep");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_flight_is_the_free_step);
    tcase_add_test(tc, test_sliding_block_slows_by_mu_g_dt);
    tcase_add_test(tc, test_large_friction_sticks_at_once);
    tcase_add_test(tc, test_penetration_is_left_at_depth_over_dt);
    tcase_add_test(tc, test_box_lands_without_penetrating_and_rests);
    tcase_add_test(tc, test_bad_input_is_refused);
    tcase_add_test(tc, test_quadruped_flight_keeps_its_momentum);
    tcase_add_test(tc, test_quadruped_lands_without_penetrating);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
