/*
 * test_mech_config.c - the configuration maps of a mechanical system with
 * unit quaternions among its coordinates (hes_mech.quat), on a system laid
 * out as a free joint (three translations, a quaternion), a hinge and a
 * ball (a quaternion): nq = 12, d = 10.  Each map is checked against an
 * independent computation: the exponential chart against a fine Runge-Kutta
 * integration of q' = 1/2 q (x) (0, w); G, P and d(G v)/dq against central
 * differences of the maps they differentiate; the chart's inverse.  A
 * hybrid model's transitions of such a system are validated: no lift or
 * to_chart (maps of d coordinates), and a target whose positions are the
 * event's nq coordinates.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hes.h"

enum { NQ = 12, D = 10 };
static const int quats[] = { 3, 8 };
static const hes_mech sys = { .name = "free, hinge, ball", .d = D, .n_quat = 2, .quat = quats };

static unsigned long long rng = 7;
static double uniform(double lo, double hi)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

/* a random configuration with unit quaternions, and a random velocity */
static void random_point(double *q, double *v, double scale)
{
    for (int i = 0; i < NQ; i++)
        q[i] = uniform(-1, 1);
    hes_mech_normalize(&sys, q);
    for (int i = 0; v && i < D; i++)
        v[i] = uniform(-scale, scale);
}

/* q' = 1/2 q (x) (0, w) for one quaternion, written out independently of
 * the library (w constant) */
static void quat_rate(const double *q, const double *w, double *out)
{
    out[0] = -0.5 * (q[1] * w[0] + q[2] * w[1] + q[3] * w[2]);
    out[1] = 0.5 * (q[0] * w[0] + q[2] * w[2] - q[3] * w[1]);
    out[2] = 0.5 * (q[0] * w[1] + q[3] * w[0] - q[1] * w[2]);
    out[3] = 0.5 * (q[0] * w[2] + q[1] * w[1] - q[2] * w[0]);
}

START_TEST(test_integrate_is_the_flow)
{
    double worst = 0, worst_norm = 0;
    for (int rep = 0; rep < 10; rep++) {
        double q[NQ], v[D], out[NQ], h = uniform(0.1, 2);
        random_point(q, v, 3);
        hes_mech_integrate(&sys, q, v, h, out);
        /* the translations and the hinge move by h v */
        const int plain_q[] = { 0, 1, 2, 7 }, plain_v[] = { 0, 1, 2, 6 };
        for (int i = 0; i < 4; i++)
            worst = fmax(worst, fabs(out[plain_q[i]] - (q[plain_q[i]] + h * v[plain_v[i]])));
        /* each quaternion as the flow of its constant body rate, RK4 in 4000 steps */
        const int qa[] = { 3, 8 }, va[] = { 3, 7 };
        for (int b = 0; b < 2; b++) {
            double y[4], k1[4], k2[4], k3[4], k4[4], t[4];
            const double *w = v + va[b];
            memcpy(y, q + qa[b], sizeof y);
            int n = 4000;
            double dt = h / n;
            for (int s = 0; s < n; s++) {
                quat_rate(y, w, k1);
                for (int i = 0; i < 4; i++)
                    t[i] = y[i] + 0.5 * dt * k1[i];
                quat_rate(t, w, k2);
                for (int i = 0; i < 4; i++)
                    t[i] = y[i] + 0.5 * dt * k2[i];
                quat_rate(t, w, k3);
                for (int i = 0; i < 4; i++)
                    t[i] = y[i] + dt * k3[i];
                quat_rate(t, w, k4);
                for (int i = 0; i < 4; i++)
                    y[i] += dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
            }
            double n2 = 0;
            for (int i = 0; i < 4; i++) {
                worst = fmax(worst, fabs(out[qa[b] + i] - y[i]));
                n2 += out[qa[b] + i] * out[qa[b] + i];
            }
            worst_norm = fmax(worst_norm, fabs(sqrt(n2) - 1));
        }
    }
    ck_assert_msg(worst < 1e-12, "q (+) h v against the flow: %g", worst);
    ck_assert_msg(worst_norm < 1e-15, "a quaternion left the unit sphere: %g", worst_norm);
}
END_TEST

START_TEST(test_difference_inverts_integrate)
{
    double worst = 0;
    for (int rep = 0; rep < 50; rep++) {
        double q[NQ], v[D], q1[NQ], back[D];
        random_point(q, v, 1);   /* rotations below pi: the shorter way is v itself */
        hes_mech_integrate(&sys, q, v, 1, q1);
        hes_mech_difference(&sys, q1, q, back);
        for (int i = 0; i < D; i++)
            worst = fmax(worst, fabs(back[i] - v[i]));
    }
    ck_assert_msg(worst < 1e-14, "(q (+) v) (-) q against v: %g", worst);
    /* -q is the same orientation: no difference */
    double q[NQ], qm[NQ], dv[D];
    random_point(q, NULL, 1);
    memcpy(qm, q, sizeof q);
    for (int i = 0; i < 4; i++)
        qm[3 + i] = -q[3 + i], qm[8 + i] = -q[8 + i];
    hes_mech_difference(&sys, qm, q, dv);
    for (int i = 0; i < D; i++)
        ck_assert_msg(fabs(dv[i]) < 1e-15, "q and -q differ by %g", dv[i]);
}
END_TEST

START_TEST(test_derivatives_against_differences)
{
    double worst_G = 0, worst_P = 0, worst_PG = 0, worst_dq = 0, worst_qdot = 0,
           worst_radial = 0;
    for (int rep = 0; rep < 20; rep++) {
        double q[NQ], v[D], G[NQ * D], P[D * NQ], Gq[NQ * NQ], qd[NQ];
        random_point(q, v, 2);
        hes_mech_qdot_dv(&sys, q, G);
        hes_mech_difference_dq(&sys, q, P);
        hes_mech_qdot_dq(&sys, v, Gq);
        hes_mech_qdot(&sys, q, v, qd);
        double h = 1e-6;
        /* G e_j = d(q (+) t e_j)/dt at 0 */
        for (int j = 0; j < D; j++) {
            double e[D] = { 0 }, qp[NQ], qm[NQ];
            e[j] = 1;
            hes_mech_integrate(&sys, q, e, h, qp);
            hes_mech_integrate(&sys, q, e, -h, qm);
            for (int i = 0; i < NQ; i++)
                worst_G = fmax(worst_G, fabs(G[i + j * NQ] - (qp[i] - qm[i]) / (2 * h)));
        }
        /* P e_c = d((q + t e_c) (-) q)/dt at 0 */
        for (int c = 0; c < NQ; c++) {
            double qp[NQ], qm[NQ], dp[D], dm[D];
            memcpy(qp, q, sizeof qp);
            memcpy(qm, q, sizeof qm);
            qp[c] += h, qm[c] -= h;
            hes_mech_difference(&sys, qp, q, dp);
            hes_mech_difference(&sys, qm, q, dm);
            for (int i = 0; i < D; i++)
                worst_P = fmax(worst_P, fabs(P[i + c * D] - (dp[i] - dm[i]) / (2 * h)));
        }
        /* P G = I */
        for (int i = 0; i < D; i++)
            for (int j = 0; j < D; j++) {
                double s = 0;
                for (int l = 0; l < NQ; l++)
                    s += P[i + l * D] * G[l + j * NQ];
                worst_PG = fmax(worst_PG, fabs(s - (i == j)));
            }
        /* P annihilates each quaternion's radial direction */
        for (int i = 0; i < D; i++) {
            double s3 = 0, s8 = 0;
            for (int l = 0; l < 4; l++)
                s3 += P[i + (3 + l) * D] * q[3 + l], s8 += P[i + (8 + l) * D] * q[8 + l];
            worst_radial = fmax(worst_radial, fmax(fabs(s3), fabs(s8)));
        }
        /* q' = G v, and d(G(q) v)/dq by differences of qdot in q */
        for (int i = 0; i < NQ; i++) {
            double s = 0;
            for (int j = 0; j < D; j++)
                s += G[i + j * NQ] * v[j];
            worst_qdot = fmax(worst_qdot, fabs(s - qd[i]));
        }
        for (int c = 0; c < NQ; c++) {
            double qp[NQ], qm[NQ], fp[NQ], fm[NQ];
            memcpy(qp, q, sizeof qp);
            memcpy(qm, q, sizeof qm);
            qp[c] += h, qm[c] -= h;
            hes_mech_qdot(&sys, qp, v, fp);
            hes_mech_qdot(&sys, qm, v, fm);
            for (int i = 0; i < NQ; i++)
                worst_dq = fmax(worst_dq, fabs(Gq[i + c * NQ] - (fp[i] - fm[i]) / (2 * h)));
        }
    }
    ck_assert_msg(worst_G < 1e-9, "G against differences of q (+) v: %g", worst_G);
    ck_assert_msg(worst_P < 1e-9, "P against differences of y (-) q: %g", worst_P);
    ck_assert_msg(worst_PG < 1e-14, "P G - I: %g", worst_PG);
    ck_assert_msg(worst_radial < 1e-15, "P q (radial): %g", worst_radial);
    ck_assert_msg(worst_qdot < 1e-15, "G v against qdot: %g", worst_qdot);
    ck_assert_msg(worst_dq < 1e-9, "d(G v)/dq against differences: %g", worst_dq);
}
END_TEST

START_TEST(test_flat_system)
{
    /* no quaternions: every map is the flat one */
    const hes_mech flat = { .name = "flat", .d = 3 };
    double q[3] = { 0.1, -2, 3 }, v[3] = { 1, 2, -1 }, out[3], G[9], P[9];
    ck_assert_int_eq(hes_mech_nq(&flat), 3);
    hes_mech_integrate(&flat, q, v, 0.5, out);
    for (int i = 0; i < 3; i++)
        ck_assert(out[i] == q[i] + 0.5 * v[i]);
    hes_mech_qdot_dv(&flat, q, G);
    hes_mech_difference_dq(&flat, q, P);
    for (int i = 0; i < 9; i++)
        ck_assert(G[i] == (i % 4 == 0) && P[i] == (i % 4 == 0));
    ck_assert_int_eq(hes_mech_nq(&sys), NQ);
}
END_TEST

/* A body free to turn (d = 3, one quaternion) and a flat system of the
 * same d, for the validation of transitions between their modes. */
static int unit_mass(const double *q, const double *p, double *M, void *data)
{
    (void)q, (void)p, (void)data;
    for (int i = 0; i < 9; i++)
        M[i] = i % 4 == 0;
    return 0;
}

static int no_force(const double *q, const double *qd, const double *u, const double *p,
                    double *out, void *data)
{
    (void)q, (void)qd, (void)u, (void)p, (void)data;
    out[0] = out[1] = out[2] = 0;
    return 0;
}

static int height(const double *q, const double *p, double *out, void *data)
{
    (void)p, (void)data;
    out[0] = q[1];
    return 0;
}

static int identity_map(const double *q, const double *p, double *out, void *data)
{
    (void)p, (void)data;
    memcpy(out, q, sizeof(double) * 3);
    return 0;
}

START_TEST(test_transitions_of_quaternion_systems_are_validated)
{
    static const int q0[] = { 0 };
    static const hes_mech_constraint wall = { .name = "wall", .a = height, .unilateral = 1 };
    static const hes_mech ball = { .name = "ball", .d = 3, .mass = unit_mass,
                                   .force = no_force, .net_force = no_force,
                                   .n_constraints = 1, .constraints = &wall, .n_quat = 1,
                                   .quat = q0 };
    static const hes_mech flat = { .name = "flat", .d = 3, .mass = unit_mass,
                                   .force = no_force, .n_constraints = 1,
                                   .constraints = &wall };
    static const hes_mech_mode turning = { .mech = &ball, .k = 3 },
                               sliding = { .mech = &flat, .k = 3 };
    static const char *const qnames[] = { "qw", "qx", "qy", "qz", "wx", "wy", "wz" },
                             *const fnames[] = { "a", "b", "c", "ad", "bd", "cd" };
    const hes_mode modes[] = {
        { .name = "turning", .dim = 7, .state_names = qnames, .field = hes_mech_field,
          .data = (void *)&turning, .tdim = 6, .retract = hes_mech_retract,
          .local = hes_mech_local, .tangent = hes_mech_tangent,
          .cotangent = hes_mech_cotangent, .normalize = hes_mech_normalize_state },
        { .name = "sliding", .dim = 6, .state_names = fnames, .field = hes_mech_field,
          .data = (void *)&sliding },
    };
    /* the same body hits the wall; with a lift or a to_chart; into the flat mode */
    const hes_mech_transition plain = { .from = &turning, .to = &turning, .constraint = 0 },
                              lifted = { .from = &turning, .to = &turning, .constraint = 0,
                                         .lift = identity_map },
                              charted = { .from = &turning, .to = &turning, .constraint = 0,
                                          .to_chart = identity_map },
                              across = { .from = &turning, .to = &sliding, .constraint = 0 };
    const struct {
        const hes_mech_transition *tr;
        int to;
        const char *why;
    } cases[] = {
        { &plain, 0, NULL },
        { &lifted, 0, "takes no lift and no to_chart" },
        { &charted, 0, "takes no lift and no to_chart" },
        { &across, 1, "target mode's 3 position values must be the event's nq = 4" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const hes_transition tr = { .name = "hit", .from = 0, .to = cases[i].to,
                                    .direction = HES_DOWN, .guard = hes_mech_guard,
                                    .reset = hes_mech_reset, .data = (void *)cases[i].tr };
        const hes_model m = { .abi = HES_MODEL_ABI, .name = "turning_body", .n_modes = 2,
                              .modes = modes, .n_transitions = 1, .transitions = &tr,
                              .describe_error = hes_mech_describe_error,
                              .integrator = HES_ADAMS, .max_phase_time = 10.0 };
        hes_error err;
        hes_status st = hes_model_validate(&m, &err);
        if (!cases[i].why)
            ck_assert_msg(st == HES_OK, "case %zu: %s", i, err.message);
        else
            ck_assert_msg(st == HES_EINVAL && strstr(err.message, cases[i].why),
                          "case %zu: %s", i, st == HES_OK ? "accepted" : err.message);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("mech_config");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_integrate_is_the_flow);
    tcase_add_test(tc, test_difference_inverts_integrate);
    tcase_add_test(tc, test_derivatives_against_differences);
    tcase_add_test(tc, test_flat_system);
    tcase_add_test(tc, test_transitions_of_quaternion_systems_are_validated);
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
