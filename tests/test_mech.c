/*
 * test_mech.c - the mechanical layer against independent computations: a
 * pendulum held by a chart (equation of motion and rod tension in closed
 * form), a double pendulum whose Coriolis terms the library derives from
 * M(q) (against the hand-derived equations, and energy conservation along a
 * simulation), the Jacobian of a mode's field (closed form through a chart;
 * through a two-angle chart with state-feedback inputs and drag against
 * central differences), the impact law (restitution, plastic contacts, energy), and
 * the physical-validity checks of an impact; a system of 24 coordinates and
 * 20 inputs and constraints (beyond the layer's stack arrays), and the
 * bound of systems without net_force.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"
#include "testutil.h"

enum { P_M1, P_M2, P_L1, P_L2, P_G, P_E };
static const double P[] = { 1.3, 0.7, 0.9, 0.6, 9.81, 0.6 };

/* ---------------------------------------------- a point mass in the plane */

static int point_mass(const double *q, const double *p, double *M, void *d)
{
    (void)q; (void)d;
    M[0] = p[P_M1]; M[1] = 0; M[2] = 0; M[3] = p[P_M1];
    return 0;
}

static int weight(const double *q, const double *qd, const double *u, const double *p,
                  double *f, void *d)
{
    (void)q; (void)qd; (void)u; (void)d;
    f[0] = 0;
    f[1] = -p[P_M1] * p[P_G];
    return 0;
}

static int rod(const double *q, const double *p, double *a, void *d)
{
    (void)d;
    a[0] = hypot(q[0], q[1]) - p[P_L1];
    return 0;
}

static int floor_height(const double *q, const double *p, double *a, void *d)
{
    (void)p; (void)d;
    a[0] = q[1];
    return 0;
}

static int wall(const double *q, const double *p, double *a, void *d)
{
    (void)p; (void)d;
    a[0] = 1.0 - q[0]; /* a wall at x = 1 */
    return 0;
}

static int slide(const double *q, const double *p, double *a, void *d)
{
    (void)p; (void)d;
    a[0] = q[0]; /* tangential position (bilateral when held) */
    return 0;
}

static int hang(const double *z, const double *p, double *q, void *d)
{
    (void)d;
    q[0] = p[P_L1] * sin(z[0]);
    q[1] = -p[P_L1] * cos(z[0]);
    return 0;
}

static int hang_dz(const double *z, const double *p, double *J, void *d)
{
    (void)d;
    J[0] = p[P_L1] * cos(z[0]);
    J[1] = p[P_L1] * sin(z[0]);
    return 0;
}

static int hang_acc(const double *z, const double *zd, const double *p, double *a, void *d)
{
    (void)d;
    a[0] = -p[P_L1] * sin(z[0]) * zd[0] * zd[0];
    a[1] = p[P_L1] * cos(z[0]) * zd[0] * zd[0];
    return 0;
}

static const hes_mech_constraint plane_constraints[] = {
    { "rod", rod, NULL, 0.0, 0, 0, NULL, NULL, NULL, 0, 0, NULL },
    { "floor", floor_height, NULL, 0.6, 1, 0, NULL, NULL, NULL, 0, 0, NULL },
    { "wall", wall, NULL, 0.0, 1, 0, NULL, NULL, NULL, 0, 0, NULL },
    { "slide", slide, NULL, 0.0, 0, 0, NULL, NULL, NULL, 0, 0, NULL },
};
static const hes_mech plane = { "point mass", 2, point_mass, NULL, weight, 0, 4, plane_constraints, NULL,
                                NULL, NULL, NULL, 0, NULL };
static const int rod_held[] = { 0 };
static const hes_mech_mode pendulum = { &plane, 1, rod_held, 1, hang, hang_dz, hang_acc, NULL,
                                        NULL, NULL, 0, 0, NULL, 0, NULL, NULL };
static const hes_mech_mode free_flight = { &plane, 0, NULL, 2, NULL, NULL, NULL, NULL, NULL, NULL, 0,
                                           0, NULL, 0, NULL, NULL };

START_TEST(test_pendulum_chart_gives_pendulum_dynamics_and_rod_tension)
{
    double p[6];
    memcpy(p, P, sizeof p);
    const double states[][2] = { { 0.3, 0.0 }, { -1.1, 2.5 }, { 2.0, -0.7 } };
    for (int i = 0; i < 3; i++) {
        double f[2], q[2], qd[2], lambda[1], ke;
        ck_assert_int_eq(hes_mech_field(0.0, states[i], p, f, (void *)&pendulum), 0);
        double th = states[i][0], w = states[i][1];
        ck_assert_double_eq_tol(f[0], w, 1e-15);
        ck_assert_double_eq_tol(f[1], -p[P_G] / p[P_L1] * sin(th), 1e-12);
        ck_assert_int_eq(hes_mech_mode_state(&pendulum, 0.0, states[i], p, q, qd, lambda, &ke),
                         HES_OK);
        /* a = |q| - l, so the rod force is lambda q/|q|: the tension pulls in */
        ck_assert_double_eq_tol(lambda[0], -p[P_M1] * (p[P_L1] * w * w + p[P_G] * cos(th)), 1e-10);
        ck_assert_double_eq_tol(ke, 0.5 * p[P_M1] * p[P_L1] * p[P_L1] * w * w, 1e-12);
    }
}
END_TEST

/* ------------------------------------------------------ a double pendulum */

static int dp_mass(const double *q, const double *p, double *M, void *d)
{
    (void)d;
    double c = cos(q[0] - q[1]);
    M[0] = (p[P_M1] + p[P_M2]) * p[P_L1] * p[P_L1];
    M[1] = M[2] = p[P_M2] * p[P_L1] * p[P_L2] * c;
    M[3] = p[P_M2] * p[P_L2] * p[P_L2];
    return 0;
}

static int dp_gravity(const double *q, const double *qd, const double *u, const double *p,
                      double *f, void *d)
{
    (void)qd; (void)u; (void)d;
    f[0] = -(p[P_M1] + p[P_M2]) * p[P_G] * p[P_L1] * sin(q[0]);
    f[1] = -p[P_M2] * p[P_G] * p[P_L2] * sin(q[1]);
    return 0;
}

static const hes_mech double_pendulum = { "double pendulum", 2, dp_mass, NULL, dp_gravity, 0, 0, NULL,
                                          NULL, NULL, NULL, NULL, 0, NULL };
static const hes_mech_mode dp_mode = { &double_pendulum, 0, NULL, 2, NULL, NULL, NULL, NULL,
                                       NULL, NULL, 0, 0, NULL, 0, NULL, NULL };

/* The textbook equations: M th'' + c = f with
 * c = m2 l1 l2 sin(th1 - th2) (th2'^2, -th1'^2). */
static void dp_reference(const double *x, double *acc)
{
    const double *p = P;
    double M[4], f[2], s = sin(x[0] - x[1]);
    dp_mass(x, p, M, NULL);
    dp_gravity(x, NULL, NULL, p, f, NULL);
    double r0 = f[0] - p[P_M2] * p[P_L1] * p[P_L2] * s * x[3] * x[3];
    double r1 = f[1] + p[P_M2] * p[P_L1] * p[P_L2] * s * x[2] * x[2];
    double det = M[0] * M[3] - M[1] * M[2];
    acc[0] = (M[3] * r0 - M[2] * r1) / det;
    acc[1] = (-M[1] * r0 + M[0] * r1) / det;
}

START_TEST(test_coriolis_terms_derived_from_mass_matrix_match_textbook)
{
    const double states[][4] = { { 0.4, -0.9, 1.7, -2.2 }, { 2.5, 0.1, -3.0, 0.4 } };
    for (int i = 0; i < 2; i++) {
        double f[4], ref[2];
        ck_assert_int_eq(hes_mech_field(0.0, states[i], P, f, (void *)&dp_mode), 0);
        dp_reference(states[i], ref);
        ck_assert_double_eq_tol(f[2], ref[0], 1e-10 * fmax(1, fabs(ref[0])));
        ck_assert_double_eq_tol(f[3], ref[1], 1e-10 * fmax(1, fabs(ref[1])));
    }
}
END_TEST

static double dp_energy(const double *x)
{
    double M[4], ke, pe;
    dp_mass(x, P, M, NULL);
    ke = 0.5 * (M[0] * x[2] * x[2] + 2 * M[1] * x[2] * x[3] + M[3] * x[3] * x[3]);
    pe = -(P[P_M1] + P[P_M2]) * P[P_G] * P[P_L1] * cos(x[0]) - P[P_M2] * P[P_G] * P[P_L2] * cos(x[1]);
    return ke + pe;
}

static const char *const dp_names[] = { "th1", "th2", "w1", "w2" };
static const hes_mode dp_modes[] = { { .name = "swing", .dim = 4,
                                       .state_names = dp_names, .field = hes_mech_field,
                                       .data = (void *)&dp_mode } };
static const hes_param dp_params[] = {
    { "m1", 1.3, "kg", "", HES_PARAM_POSITIVE, 0, HUGE_VAL, 0, 0 },
    { "m2", 0.7, "kg", "", HES_PARAM_POSITIVE, 0, HUGE_VAL, 0, 0 },
    { "l1", 0.9, "m", "", HES_PARAM_POSITIVE, 0, HUGE_VAL, 0, 0 },
    { "l2", 0.6, "m", "", HES_PARAM_POSITIVE, 0, HUGE_VAL, 0, 0 },
    { "g", 9.81, "m/s^2", "", HES_PARAM_POSITIVE, 0, HUGE_VAL, 0, 0 },
    { "e", 0.6, "1", "", 0, 0, 1, 0, 0 },
};
static const hes_model dp_model = {
    .abi = HES_MODEL_ABI, .name = "double-pendulum", .description = "",
    .n_modes = 1, .modes = dp_modes, .n_params = 6, .params = dp_params,
    .integrator = HES_ADAMS, .describe_error = hes_mech_describe_error,
};

START_TEST(test_double_pendulum_conserves_energy)
{
    hes_system *sys = test_system_of(&dp_model);
    ck_assert_ptr_nonnull(sys);
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.t_end = 5.0;
    const double x0[4] = { 1.2, -0.4, 0.0, 1.5 };
    hes_traj tr;
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, &o, &tr), HES_OK);
    double e0 = dp_energy(x0), e1 = dp_energy(tr.phases[tr.n_phases - 1].x1);
    ck_assert_msg(fabs(e1 - e0) < 1e-8 * fabs(e0), "energy %.15g -> %.15g", e0, e1);
    hes_traj_free(&tr);
    hes_system_destroy(sys);
}
END_TEST

/* ------------------------------------------- the Jacobian of a mode's field */

/* The pendulum's field is (w, -g/l sin th): its Jacobian in closed form,
 * through the chart (the chart's second derivatives and the rod's force r). */
START_TEST(test_field_jacobian_of_chart_pendulum_is_closed_form)
{
    const double states[][2] = { { 0.3, 0.0 }, { -1.1, 2.5 }, { 2.0, -0.7 } };
    for (int i = 0; i < 3; i++) {
        double J[4];
        ck_assert_int_eq(hes_mech_field_dx(0.0, states[i], P, J, (void *)&pendulum), 0);
        double exact[4] = { 0, -P[P_G] / P[P_L1] * cos(states[i][0]), 1, 0 };
        for (int e = 0; e < 4; e++)
            ck_assert_msg(fabs(J[e] - exact[e]) < 1e-11, "entry %d: %.15g vs %.15g", e, J[e],
                          exact[e]);
    }
}
END_TEST

/* The double pendulum as two point masses in the plane (d = 4) held by
 * a two-angle chart, with a horizontal input force on the lower mass
 * u = -k1 th1 - k2 th2' (state feedback) and a cubic drag on it,
 * -cd |v|^2 v; no mass_dq (its differences).  Without input and drag the
 * reduced field is the textbook double pendulum (an independent check of
 * the chart path); its Jacobian is checked against central differences
 * of the field at random states. */
static int cart_mass(const double *q, const double *p, double *M, void *d)
{
    (void)q; (void)d;
    memset(M, 0, 16 * sizeof *M);
    M[0] = M[5] = p[P_M1];
    M[10] = M[15] = p[P_M2];
    return 0;
}

static int cart_force(const double *q, const double *qd, const double *u, const double *p,
                      double *f, void *d)
{
    const double *cd = d;
    double v2 = qd[2] * qd[2] + qd[3] * qd[3];
    (void)q;
    f[0] = 0;
    f[1] = -p[P_M1] * p[P_G];
    f[2] = u[0] - *cd * v2 * qd[2];
    f[3] = -p[P_M2] * p[P_G] - *cd * v2 * qd[3];
    return 0;
}

static int two_angles(const double *z, const double *p, double *q, void *d)
{
    (void)d;
    q[0] = p[P_L1] * sin(z[0]);
    q[1] = -p[P_L1] * cos(z[0]);
    q[2] = q[0] + p[P_L2] * sin(z[1]);
    q[3] = q[1] - p[P_L2] * cos(z[1]);
    return 0;
}

static int two_angles_dz(const double *z, const double *p, double *J, void *d)
{
    (void)d;
    double c1 = p[P_L1] * cos(z[0]), s1 = p[P_L1] * sin(z[0]);
    double c2 = p[P_L2] * cos(z[1]), s2 = p[P_L2] * sin(z[1]);
    const double col0[4] = { c1, s1, c1, s1 }, col1[4] = { 0, 0, c2, s2 };
    memcpy(J, col0, sizeof col0);
    memcpy(J + 4, col1, sizeof col1);
    return 0;
}

static int two_angles_acc(const double *z, const double *zd, const double *p, double *a,
                          void *d)
{
    (void)d;
    double w1 = zd[0] * zd[0], w2 = zd[1] * zd[1];
    a[0] = -p[P_L1] * sin(z[0]) * w1;
    a[1] = p[P_L1] * cos(z[0]) * w1;
    a[2] = a[0] - p[P_L2] * sin(z[1]) * w2;
    a[3] = a[1] + p[P_L2] * cos(z[1]) * w2;
    return 0;
}

static int feedback(double t, const double *x, const double *p, double *u, void *d)
{
    (void)t; (void)p; (void)d;
    u[0] = -3.0 * x[0] - 0.8 * x[3];
    return 0;
}

static double drag_none = 0.0, drag_cubic = 0.35;
static const hes_mech cart_plain = { "two masses", 4, cart_mass, NULL, cart_force, 1, 0, NULL,
                                     &drag_none, NULL, NULL, NULL, 0, NULL };
static const hes_mech cart_dragged = { "two masses", 4, cart_mass, NULL, cart_force, 1, 0, NULL,
                                       &drag_cubic, NULL, NULL, NULL, 0, NULL };
static const hes_mech_mode cart_passive = { &cart_plain, 0, NULL, 2, two_angles, two_angles_dz,
                                            two_angles_acc, NULL, NULL, NULL, 0,
        0, NULL, 0, NULL, NULL };
static const hes_mech_mode cart_driven = { &cart_dragged, 0, NULL, 2, two_angles,
                                           two_angles_dz, two_angles_acc, feedback, NULL, NULL, 0,
        0, NULL, 0, NULL, NULL };
static const hes_mode cart_modes[] = {
    { .name = "swing", .dim = 4,
      .state_names = dp_names, .field = hes_mech_field,
      .field_dx = hes_mech_field_dx, .data = (void *)&cart_driven },
};
static const hes_model cart_model = {
    .abi = HES_MODEL_ABI, .name = "double-pendulum-cartesian", .description = "",
    .n_modes = 1, .modes = cart_modes, .n_params = 6, .params = dp_params,
    .integrator = HES_ADAMS, .describe_error = hes_mech_describe_error,
};

START_TEST(test_field_jacobian_through_chart_inputs_and_drag_matches_differences)
{
    unsigned seed = 7;
    for (int i = 0; i < 20; i++) {
        double x[4], f[4], ref[2];
        for (int j = 0; j < 4; j++)
            x[j] = (j < 2 ? 3.0 : 6.0) * (2.0 * rand_r(&seed) / RAND_MAX - 1.0);
        /* the chart path: the textbook double pendulum */
        ck_assert_int_eq(hes_mech_field(0.0, x, P, f, (void *)&cart_passive), 0);
        dp_reference(x, ref);
        ck_assert_msg(fabs(f[2] - ref[0]) < 1e-10 * fmax(1, fabs(ref[0])) &&
                      fabs(f[3] - ref[1]) < 1e-10 * fmax(1, fabs(ref[1])),
                      "chart dynamics %g %g vs %g %g", f[2], f[3], ref[0], ref[1]);
        /* the Jacobian with inputs and drag against central differences */
        const double *xs[1] = { x };
        hes_deriv_report rep;
        ck_assert_int_eq(hes_model_check_derivatives(&cart_model, P, 0.1, xs, &rep), HES_OK);
        ck_assert_int_eq(rep.n_checked, 1);
        ck_assert_msg(rep.max_rel_err < 1e-7, "relative error %.3g at %s", rep.max_rel_err,
                      rep.where);
        /* and without a chart (z = q: the double pendulum's angles) */
        double J[16], Jp[16];
        ck_assert_int_eq(hes_mech_field_dx(0.0, x, P, J, (void *)&dp_mode), 0);
        for (int j = 0; j < 4; j++) {
            double h = 1e-5, xp[4], xm[4], fp[4], fm[4];
            memcpy(xp, x, sizeof xp);
            memcpy(xm, x, sizeof xm);
            xp[j] += h;
            xm[j] -= h;
            hes_mech_field(0.0, xp, P, fp, (void *)&dp_mode);
            hes_mech_field(0.0, xm, P, fm, (void *)&dp_mode);
            for (int r = 0; r < 4; r++)
                Jp[r + 4 * j] = (fp[r] - fm[r]) / (2 * h);
        }
        double scale = 1; /* the differences' noise is relative to the largest entry */
        for (int e = 0; e < 16; e++)
            scale = fmax(scale, fabs(Jp[e]));
        for (int e = 0; e < 16; e++)
            ck_assert_msg(fabs(J[e] - Jp[e]) < 1e-7 * scale,
                          "double pendulum dF/dx entry %d: %.12g vs %.12g", e, J[e], Jp[e]);
    }
    /* hes_mech_field_dx belongs with hes_mech_field */
    hes_mode wrong = cart_modes[0];
    wrong.field = hes_mech_field_dx;
    hes_model bad = cart_model;
    bad.modes = &wrong;
    hes_error msg;
    ck_assert_int_eq(hes_model_validate(&bad, &msg), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg.message, "hes_mech_field_dx"));
}
END_TEST

/* cart_force's Jacobians in closed form (hes_mech.force_dx): nothing in q,
 * the drag -cd |v|^2 v in q', the input on the lower mass; `wrong` drops
 * the drag's cross terms (a plausible slip: the diagonal only). */
static int cart_force_jacobians(const double *qd, const double *cd, int wrong, double *fq,
                                double *fqd, double *fu)
{
    /* wrong 2: the input's column with the wrong sign */
    double v2 = qd[2] * qd[2] + qd[3] * qd[3];
    memset(fq, 0, 16 * sizeof *fq);
    memset(fqd, 0, 16 * sizeof *fqd);
    fqd[2 + 4 * 2] = -*cd * (v2 + 2 * qd[2] * qd[2]);
    fqd[3 + 4 * 3] = -*cd * (v2 + 2 * qd[3] * qd[3]);
    fqd[2 + 4 * 3] = fqd[3 + 4 * 2] = wrong == 1 ? 0.0 : -*cd * 2 * qd[2] * qd[3];
    const double col[4] = { 0, 0, wrong == 2 ? -1 : 1, 0 };
    memcpy(fu, col, sizeof col);
    return 0;
}

static int cart_force_dx(const double *q, const double *qd, const double *u, const double *p,
                         double *fq, double *fqd, double *fu, void *d)
{
    (void)q; (void)u; (void)p;
    return cart_force_jacobians(qd, d, 0, fq, fqd, fu);
}

static int cart_force_dx_wrong(const double *q, const double *qd, const double *u,
                               const double *p, double *fq, double *fqd, double *fu, void *d)
{
    (void)q; (void)u; (void)p;
    return cart_force_jacobians(qd, d, 1, fq, fqd, fu);
}

static int cart_force_dx_wrong_u(const double *q, const double *qd, const double *u,
                                 const double *p, double *fq, double *fqd, double *fu, void *d)
{
    (void)q; (void)u; (void)p;
    return cart_force_jacobians(qd, d, 2, fq, fqd, fu);
}

static int held_input(double t, const double *x, const double *p, double *u, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    u[0] = 0.7;
    return 0;
}

static const hes_mech cart_dragged_dx = { "two masses", 4, cart_mass, NULL, cart_force, 1, 0,
                                          NULL, &drag_cubic, cart_force_dx, NULL, NULL, 0, NULL };
static const hes_mech cart_dragged_wrong = { "two masses", 4, cart_mass, NULL, cart_force, 1, 0,
                                             NULL, &drag_cubic, cart_force_dx_wrong, NULL, NULL, 0, NULL };
static const hes_mech cart_wrong_u = { "two masses", 4, cart_mass, NULL, cart_force, 1, 0, NULL,
                                       &drag_cubic, cart_force_dx_wrong_u, NULL, NULL, 0, NULL };
/* an input that does not depend on the state: df/du never enters dF/dx */
static const hes_mech_mode cart_held_wrong_u = { &cart_wrong_u, 0, NULL, 2, two_angles,
                                                 two_angles_dz, two_angles_acc, held_input, NULL, NULL, 0,
        0, NULL, 0, NULL, NULL };
static const hes_mech_mode cart_driven_dx = { &cart_dragged_dx, 0, NULL, 2, two_angles,
                                              two_angles_dz, two_angles_acc, feedback, NULL, NULL, 0,
        0, NULL, 0, NULL, NULL };
static const hes_mech_mode cart_driven_wrong = { &cart_dragged_wrong, 0, NULL, 2, two_angles,
                                                 two_angles_dz, two_angles_acc, feedback, NULL, NULL, 0,
        0, NULL, 0, NULL, NULL };

/* A model's force Jacobians (force_dx) give the field Jacobian that
 * differences of its force give (through the chart, the feedback input and
 * the drag), and hes_model_check_derivatives finds a wrong one. */
START_TEST(test_model_force_jacobians_give_the_same_field_jacobian)
{
    unsigned seed = 11;
    hes_mode wrong_modes[1] = { cart_modes[0] };
    wrong_modes[0].data = (void *)&cart_driven_wrong;
    hes_model wrong = cart_model;
    wrong.modes = wrong_modes;
    double worst_wrong = 0, worst_field = 0;
    for (int i = 0; i < 20; i++) {
        double x[4], J[16], Jdx[16], scale = 1;
        for (int j = 0; j < 4; j++)
            x[j] = (j < 2 ? 3.0 : 6.0) * (2.0 * rand_r(&seed) / RAND_MAX - 1.0);
        double Jw[16];
        ck_assert_int_eq(hes_mech_field_dx(0.0, x, P, J, (void *)&cart_driven), 0);
        ck_assert_int_eq(hes_mech_field_dx(0.0, x, P, Jdx, (void *)&cart_driven_dx), 0);
        ck_assert_int_eq(hes_mech_field_dx(0.0, x, P, Jw, (void *)&cart_driven_wrong), 0);
        for (int e = 0; e < 16; e++) /* the field Jacobian does use force_dx */
            worst_field = fmax(worst_field, fabs(Jw[e] - J[e]));
        for (int e = 0; e < 16; e++)
            scale = fmax(scale, fabs(J[e]));
        for (int e = 0; e < 16; e++)
            ck_assert_msg(fabs(Jdx[e] - J[e]) < 1e-9 * scale, "entry %d: %.15g with force_dx, "
                          "%.15g from differences of force", e, Jdx[e], J[e]);
        const double *xs[1] = { x };
        hes_deriv_report rep;
        ck_assert_int_eq(hes_model_check_derivatives(&wrong, P, 0.1, xs, &rep), HES_OK);
        worst_wrong = fmax(worst_wrong, rep.max_rel_err);
    }
    ck_assert_msg(worst_wrong > 1e-2 && worst_field > 1e-2,
                  "a wrong force_dx passed the check (%g) or did not change dF/dx (%g)",
                  worst_wrong, worst_field);
    /* a wrong df/du under an input held constant: the field's Jacobian is
       right (the input is no function of the state), force_dx is checked
       itself */
    hes_mode held_modes[1] = { cart_modes[0] };
    held_modes[0].data = (void *)&cart_held_wrong_u;
    hes_model held = cart_model;
    held.modes = held_modes;
    double x[4] = { 0.3, -0.2, 1.1, 0.4 };
    const double *xs[1] = { x };
    hes_deriv_report rep;
    ck_assert_int_eq(hes_model_check_derivatives(&held, P, 0.1, xs, &rep), HES_OK);
    ck_assert_msg(rep.max_rel_err > 0.5 && strstr(rep.where, "df/du[2,0]") && rep.n_checked == 4,
                  "%g at %s (%d checked)", rep.max_rel_err, rep.where, rep.n_checked);
}
END_TEST

/* ----------------------------------------------------------------- impacts */

static const int floor_only[] = { 1 }, floor_and_slide[] = { 1, 3 }, wall_only[] = { 2 };
static const hes_mech_transition bounce = {
    &free_flight, &free_flight, HES_MECH_ACTIVATE, 1, NULL, NULL, NULL, 1, floor_only, 0, NULL, NULL, NULL, NULL, NULL,
};
static const hes_mech_transition stick = {
    &free_flight, &free_flight, HES_MECH_ACTIVATE, 1, NULL, NULL, NULL, 2, floor_and_slide, 0, NULL, NULL, NULL, NULL, NULL,
};
static const hes_mech_transition bounce_but_wall_must_separate = {
    &free_flight, &free_flight, HES_MECH_ACTIVATE, 1, NULL, NULL, NULL, 1, floor_only, 1, wall_only, NULL, NULL, NULL, NULL,
};

START_TEST(test_impact_law_restitution_and_plastic_contacts)
{
    double p[6], x[4] = { 0.3, 0.0, 1.2, -2.0 }, q[2], vm[2], vp[2], imp[2];
    memcpy(p, P, sizeof p);
    /* restitution 0.6 on the floor, frictionless: v_y -> -0.6 v_y */
    ck_assert_int_eq(hes_mech_impact(&bounce, x, p, q, vm, vp, imp), HES_OK);
    ck_assert_double_eq_tol(vp[0], 1.2, 1e-14);
    ck_assert_double_eq_tol(vp[1], 1.2, 1e-14); /* -0.6 * -2 */
    ck_assert_double_eq_tol(imp[0], p[P_M1] * 1.6 * 2.0, 1e-12); /* m (1 + e) |v_y| */
    /* floor and a plastic tangential contact: the mass stops; the reset
     * function itself returns the post-impact state */
    double out[4];
    ck_assert_int_eq(hes_mech_reset(0.0, x, p, out, (void *)&stick), 0);
    ck_assert_double_eq_tol(out[2], 0.0, 1e-14);
    ck_assert_double_eq_tol(out[3], 1.2, 1e-14); /* the floor keeps its restitution */
    ck_assert_double_eq(out[0], 0.3); /* the configuration does not jump */
}
END_TEST

START_TEST(test_unphysical_impacts_are_reported)
{
    double p[6], out[4], q[2];
    memcpy(p, P, sizeof p);
    /* moving away from the floor: the impulse would have to pull */
    double away[4] = { 0.3, 0.0, 0.0, 1.0 };
    int rc = hes_mech_reset(0.0, away, p, out, (void *)&bounce);
    ck_assert_int_ne(rc, 0);
    ck_assert_ptr_nonnull(strstr(hes_mech_describe_error(rc, NULL), "pull"));
    /* a contact that must separate but keeps approaching (moving into the wall) */
    double into_wall[4] = { 0.3, 0.0, 2.0, -1.0 };
    rc = hes_mech_reset(0.0, into_wall, p, out, (void *)&bounce_but_wall_must_separate);
    ck_assert_int_ne(rc, 0);
    ck_assert_ptr_nonnull(strstr(hes_mech_describe_error(rc, NULL), "separate"));
    ck_assert_int_eq(hes_mech_impact(&bounce_but_wall_must_separate, into_wall, p, q, NULL, NULL, NULL),
                     HES_EMODEL);
    /* moving away from the wall: fine */
    double from_wall[4] = { 0.3, 0.0, -2.0, -1.0 };
    ck_assert_int_eq(hes_mech_reset(0.0, from_wall, p, out, (void *)&bounce_but_wall_must_separate), 0);
}
END_TEST

/* ------------------------------------- a system larger than the stack buffers */
/* 24 coordinates (the layer's work arrays go to the heap above 16 of
 * each): M(q) tridiagonal, 2 + cos q_i on the diagonal and 0.1 beside it;
 * springs and dampers f = -q - 0.1 q' and inputs u_i on the first 20
 * coordinates; 20 bilateral constraints a_j = q_j + 1 (restitution 0.5 on
 * the even ones, 0 on the odd ones).  No net_force: the Coriolis terms
 * come from dM/dq (24^3 values, by differences of M). */
enum { BIG_D = 24, BIG_C = 20 };

static int big_mass(const double *q, const double *p, double *M, void *d)
{
    (void)p, (void)d;
    for (int j = 0; j < BIG_D; j++)
        for (int i = 0; i < BIG_D; i++)
            M[i + j * BIG_D] = i == j ? 2 + cos(q[i]) : abs(i - j) == 1 ? 0.1 : 0;
    return 0;
}

static int big_force(const double *q, const double *qd, const double *u, const double *p,
                     double *f, void *d)
{
    (void)p, (void)d;
    for (int i = 0; i < BIG_D; i++)
        f[i] = -q[i] - 0.1 * qd[i] + (i < BIG_C ? u[i] : 0);
    return 0;
}

static int big_constraint(const double *q, const double *p, double *a, void *d)
{
    (void)p;
    a[0] = q[*(const int *)d] + 1;
    return 0;
}

static int big_input(double t, const double *x, const double *p, double *u, void *d)
{
    (void)p, (void)d;
    for (int i = 0; i < BIG_C; i++)
        u[i] = 0.2 * sin(t + x[i] * x[BIG_D + i]);   /* state feedback */
    return 0;
}

static const int big_index[BIG_C] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                      16, 17, 18, 19 };

/* The system with its constraints filled in (big_index for their data). */
static void big_system(hes_mech *m, hes_mech_constraint *c)
{
    static const char *const names[BIG_C] = { "c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7",
                                              "c8", "c9", "c10", "c11", "c12", "c13", "c14",
                                              "c15", "c16", "c17", "c18", "c19" };
    for (int j = 0; j < BIG_C; j++)
        c[j] = (hes_mech_constraint){ names[j], big_constraint, NULL, j % 2 ? 0 : 0.5, 0, 0,
                                      NULL, (void *)&big_index[j], NULL, 0, 0, NULL };
    *m = (hes_mech){ .name = "big", .d = BIG_D, .mass = big_mass, .force = big_force,
                     .m = BIG_C, .n_constraints = BIG_C, .constraints = c };
}

/* The field's Jacobian against differences, the held constraints' forces
 * and the impact of all 20 constraints at once, in a system of 24
 * coordinates and 20 inputs and constraints: what stack arrays of 16 did
 * not hold. */
START_TEST(test_system_of_24_coordinates_and_20_constraints)
{
    hes_mech m;
    hes_mech_constraint c[BIG_C];
    big_system(&m, c);
    hes_mech_mode free_mode = { &m, 0, NULL, BIG_D, NULL, NULL, NULL, big_input, NULL, NULL, 0,
                                0, NULL, 0, NULL, NULL };
    static const char *state_names[2 * BIG_D];
    static char buf[2 * BIG_D][8];
    for (int i = 0; i < 2 * BIG_D; i++) {
        snprintf(buf[i], sizeof buf[i], "%s%d", i < BIG_D ? "q" : "v", i % BIG_D);
        state_names[i] = buf[i];
    }
    hes_mode modes[1] = { { .name = "free", .dim = 2 * BIG_D, .state_names = state_names,
                            .field = hes_mech_field, .field_dx = hes_mech_field_dx,
                            .data = &free_mode } };
    hes_model model = { .abi = HES_MODEL_ABI, .name = "big", .description = "24 coordinates",
                        .n_modes = 1, .modes = modes, .integrator = HES_ADAMS,
                        .describe_error = hes_mech_describe_error };
    hes_error err;
    ck_assert_msg(hes_model_validate(&model, &err) == HES_OK, "%s", err.message);
    double x[2 * BIG_D];
    unsigned seed = 5;
    for (int i = 0; i < 2 * BIG_D; i++)
        x[i] = 2.0 * rand_r(&seed) / RAND_MAX - 1.0;
    const double *xs[1] = { x };
    hes_deriv_report rep;
    ck_assert_int_eq(hes_model_check_derivatives(&model, P, 0.3, xs, &rep), HES_OK);
    ck_assert_msg(!rep.disagree && rep.max_rel_err < 1e-7, "%s: %g", rep.where,
                  rep.max_rel_err);
    /* 18 constraints held through the identity chart: their forces make M
       q'' = f - c + Da^T lambda hold with q'' the unconstrained one, so
       they vanish (to rounding); the heap path of the forces' solve */
    hes_mech_mode held = { &m, 18, big_index, BIG_D, NULL, NULL, NULL, big_input, NULL, NULL, 0,
                           0, NULL, 0, NULL, NULL };
    double lambda[18], kinetic;
    ck_assert_int_eq(hes_mech_mode_state(&held, 0.3, x, P, NULL, NULL, lambda, &kinetic),
                     HES_OK);
    for (int j = 0; j < 18; j++)
        ck_assert_msg(fabs(lambda[j]) < 1e-12, "lambda[%d] = %g", j, lambda[j]);
    ck_assert(kinetic > 0);
    /* the impact of all 20 constraints: D q'+ = -Gamma D q'- (D = the first
       20 rows of the identity), and M (q'+ - q'-) in the span of D^T: its
       last 4 components vanish */
    hes_mech_transition all = { &free_mode, &free_mode, HES_MECH_ACTIVATE, 0, NULL, NULL, NULL,
                                BIG_C, big_index, 0, NULL, NULL, NULL, NULL, NULL };
    double q[BIG_D], vm[BIG_D], vp[BIG_D], imp[BIG_C], M[BIG_D * BIG_D];
    ck_assert_int_eq(hes_mech_impact(&all, x, P, q, vm, vp, imp), HES_OK);
    for (int j = 0; j < BIG_C; j++)
        ck_assert_double_eq_tol(vp[j], -(j % 2 ? 0 : 0.5) * vm[j], 1e-12);
    big_mass(q, P, M, NULL);
    for (int i = BIG_C; i < BIG_D; i++) {
        double s = 0;
        for (int j = 0; j < BIG_D; j++)
            s += M[i + j * BIG_D] * (vp[j] - vm[j]);
        ck_assert_msg(fabs(s) < 1e-12, "M dq' component %d: %g", i, s);
    }
    double out[2 * BIG_D];
    ck_assert_int_eq(hes_mech_reset(0.3, x, P, out, &all), 0);
    for (int i = 0; i < BIG_D; i++)
        ck_assert(out[i] == x[i] && out[BIG_D + i] == vp[i]);
}
END_TEST

/* A system without net_force takes at most 64 coordinates (dM/dq has d^3
 * values); with net_force (no dM/dq) it takes more. */
START_TEST(test_dm_bound_only_without_net_force)
{
    hes_mech m = { .name = "wide", .d = 65, .mass = big_mass, .force = big_force };
    hes_mech_mode md = { &m, 0, NULL, 65, NULL, NULL, NULL, NULL, NULL, NULL, 0,
                         0, NULL, 0, NULL, NULL };
    hes_mode modes[1] = { { .name = "free", .dim = 130, .field = hes_mech_field,
                            .data = &md } };
    hes_model model = { .abi = HES_MODEL_ABI, .name = "wide", .description = "65 coordinates",
                        .n_modes = 1, .modes = modes, .integrator = HES_ADAMS };
    hes_error err;
    ck_assert_int_eq(hes_model_validate(&model, &err), HES_EINVAL);
    ck_assert_msg(strstr(err.message, "mech.d = 65: a system without net_force takes at most "
                         "64 coordinates"), "%s", err.message);
    m.net_force = big_force;
    ck_assert_msg(hes_model_validate(&model, &err) == HES_OK, "%s", err.message);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mech");
    TCase *tc = tcase_create("mech");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_pendulum_chart_gives_pendulum_dynamics_and_rod_tension);
    tcase_add_test(tc, test_coriolis_terms_derived_from_mass_matrix_match_textbook);
    tcase_add_test(tc, test_double_pendulum_conserves_energy);
    tcase_add_test(tc, test_field_jacobian_of_chart_pendulum_is_closed_form);
    tcase_add_test(tc, test_field_jacobian_through_chart_inputs_and_drag_matches_differences);
    tcase_add_test(tc, test_model_force_jacobians_give_the_same_field_jacobian);
    tcase_add_test(tc, test_impact_law_restitution_and_plastic_contacts);
    tcase_add_test(tc, test_unphysical_impacts_are_reported);
    tcase_add_test(tc, test_system_of_24_coordinates_and_20_constraints);
    tcase_add_test(tc, test_dm_bound_only_without_net_force);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
