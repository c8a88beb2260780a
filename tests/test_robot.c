/*
 * test_robot.c - mechanical systems from robot files through MuJoCo
 * (lib/model/robot.c) against the models written by hand:
 *   - share/robots/compass_gait.xml (MJCF) against the built-in
 *     compass-gait-impact (problems/compass_gait_impact.c): M(q), the feet's
 *     heights, normal and tangent rows at the pre-impact state and at random
 *     configurations, and the impact outcomes computed from either;
 *   - share/robots/compass_gait.urdf (URDF, feet as links) against the MJCF;
 *   - gravity against its closed form Q = -dV/dq, V = m g sum z_i;
 *   - a joint motor's input column, and files refused with a reason.
 * Skipped with a message without MuJoCo.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hes.h"
#include "testutil.h"

static hes_robot *load(const char *name, int with_contacts)
{
    hes_robot_contact c[2] = { { "A", 5 }, { "B", 5 } };
    hes_robot *r = NULL;
    hes_error msg;
    char buf[4096];
    hes_status st = hes_robot_read(test_robot_file(buf, sizeof buf, name),
                                   with_contacts ? c : NULL,
                                   with_contacts ? 2 : 0, &r, &msg);
    if (st == HES_ESOLVER) {
        printf("test_robot: %s: skipped\n", msg.message);
        return NULL;
    }
    ck_assert_msg(st == HES_OK, "%s", msg.message);
    return r;
}

static unsigned long long rng = 14;
static double uniform(double lo, double hi)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

/* the largest difference of M, a, J_n, J_t between two mechs at q: a a
 * robot's (normals at constraints 0 and 2), b the built-in (at 0 and 1) */
static double mech_difference(const hes_mech *a, const hes_mech *b, const double *q)
{
    int d = a->d, idx[2] = { 0, 2 }, idb[2] = { 0, 1 };
    double Ma[16], Mb[16], Na[8], Nb[8], Ta[8], Tb[8], mua[2], mub[2], e = 0;
    hes_error msg;
    ck_assert_int_eq(d, b->d);
    ck_assert_msg(hes_mech_contacts(a, q, NULL, 2, idx, Ma, Na, Ta, mua, &msg) ==
                  HES_OK, "%s", msg.message);
    ck_assert_msg(hes_mech_contacts(b, q, NULL, 2, b->n_constraints == 4 ? idx : idb, Mb, Nb,
                                    Tb, mub, &msg) == HES_OK, "%s", msg.message);
    for (int i = 0; i < d * d; i++)
        e = fmax(e, fabs(Ma[i] - Mb[i]));
    for (int i = 0; i < 2 * d; i++)
        e = fmax(e, fmax(fabs(Na[i] - Nb[i]), fabs(Ta[i] - Tb[i])));
    for (int c = 0; c < 2; c++) {
        double ha, hb;
        const hes_mech_constraint *ca = &a->constraints[2 * c];
        const hes_mech_constraint *cb = &b->constraints[b->n_constraints == 4 ? 2 * c : c];
        ck_assert(ca->a(q, NULL, &ha, hes_mech_constraint_data(a, ca)) == 0);
        ck_assert(cb->a(q, NULL, &hb, hes_mech_constraint_data(b, cb)) == 0);
        e = fmax(e, fabs(ha - hb));
        ck_assert(mua[c] == mub[c]);
    }
    return e;
}

START_TEST(test_compass_gait_mjcf_is_the_builtin)
{
    hes_robot *r = load("compass_gait.xml", 1);
    if (!r)
        return;
    const hes_impact_problem *pb = hes_impact_problem_find("compass-gait-impact");
    hes_impact_setup s;
    hes_error msg;
    ck_assert_int_eq(hes_impact_problem_setup(pb, &s, &msg), HES_OK);
    const hes_mech *m = hes_robot_mech(r);
    ck_assert_int_eq(m->d, 4);
    ck_assert_str_eq(hes_robot_coordinate(r, 2), "theta_L");
    /* M to 1e-11: MuJoCo needs positive masses and inertias, 1e-12 each */
    double worst = mech_difference(m, pb->mech, s.q);
    for (int rep = 0; rep < 20; rep++) {
        double q[4] = { uniform(-1, 1), uniform(-1, 1), uniform(-1.5, 1.5), uniform(-1.5, 1.5) };
        worst = fmax(worst, mech_difference(m, pb->mech, q));
    }
    ck_assert_msg(worst < 1e-11, "MJCF vs built-in: %g", worst);
    /* the impact outcomes from the robot's contact set */
    double M[16], Jn[8], Jt[8], mu[2], vp[2][4];
    int idx[2] = { 0, 1 }, ridx[2] = { 0, 2 };
    ck_assert(hes_mech_contacts(m, s.q, NULL, 2, ridx, M, Jn, Jt, mu, &msg) == HES_OK);
    hes_contact_set rc = { 4, 2, M, Jn, Jt, mu };
    const hes_contact_set *sets[2] = { &rc, &s.contacts };
    for (int law = 0; law < 2; law++) {
        for (int w = 0; w < 2; w++) {
            hes_status st = law == 0
                ? hes_impact_anitescu_potra(sets[w], s.v, vp[w], NULL, NULL, NULL, &msg)
                : hes_impact_sequential(sets[w], idx, 2, 50, s.v, vp[w], NULL, NULL, NULL, &msg);
            ck_assert_msg(st == HES_OK, "%s", msg.message);
        }
        for (int j = 0; j < 4; j++)
            ck_assert_double_eq_tol(vp[0][j], vp[1][j], 1e-9);
    }
    hes_impact_setup_free(&s);
    hes_robot_destroy(r);
}
END_TEST

START_TEST(test_urdf_is_the_mjcf)
{
    hes_robot *x = load("compass_gait.xml", 1);
    if (!x)
        return;
    hes_robot *u = load("compass_gait.urdf", 1);
    double worst = 0;
    for (int rep = 0; rep < 10; rep++) {
        double q[4] = { uniform(-1, 1), uniform(-1, 1), uniform(-1.5, 1.5), uniform(-1.5, 1.5) };
        worst = fmax(worst, mech_difference(hes_robot_mech(u), hes_robot_mech(x), q));
    }
    ck_assert_msg(worst < 1e-11, "URDF vs MJCF: %g", worst);
    /* the URDF puts its x and z slides on two links (slider, hip), the MJCF
       on one body: both pin foot A with the same chart and its derivatives */
    hes_mech_mode mu, mx;
    hes_error msg;
    ck_assert_msg(hes_robot_pinned_mode(u, 0, &mu, &msg) == HES_OK, "%s", msg.message);
    ck_assert_msg(hes_robot_pinned_mode(x, 0, &mx, &msg) == HES_OK, "%s", msg.message);
    ck_assert_int_eq(mu.k, 2);
    double dc = 0;
    for (int rep = 0; rep < 5; rep++) {
        double z[2] = { uniform(-1, 1), uniform(-1, 1) }, zd[2] = { uniform(-2, 2),
                                                                     uniform(-2, 2) };
        double qu[4], qx[4], Du[8], Dx[8], au[4], ax[4];
        mu.chart(z, NULL, qu, mu.mech->data);
        mx.chart(z, NULL, qx, mx.mech->data);
        mu.chart_dz(z, NULL, Du, mu.mech->data);
        mx.chart_dz(z, NULL, Dx, mx.mech->data);
        mu.chart_acc(z, zd, NULL, au, mu.mech->data);
        mx.chart_acc(z, zd, NULL, ax, mx.mech->data);
        for (int i = 0; i < 4; i++)
            dc = fmax(dc, fmax(fabs(qu[i] - qx[i]), fabs(au[i] - ax[i])));
        for (int i = 0; i < 8; i++)
            dc = fmax(dc, fabs(Du[i] - Dx[i]));
        /* and foot A is at the origin: x + sin theta_L = 0, z - cos theta_L = 0 */
        ck_assert_double_eq_tol(qu[0] + sin(qu[2]), 0, 1e-12);
        ck_assert_double_eq_tol(qu[1] - cos(qu[2]), 0, 1e-12);
    }
    ck_assert_msg(dc < 1e-12, "pinned charts, URDF vs MJCF: %g", dc);
    hes_robot_destroy(u);
    hes_robot_destroy(x);
}
END_TEST

/* gravity: V = m g (2 z - (l/2)(cos theta_L + cos theta_T)), Q = -dV/dq */
START_TEST(test_gravity_is_the_closed_form)
{
    hes_robot *r = load("compass_gait.xml", 1);
    if (!r)
        return;
    const hes_mech *m = hes_robot_mech(r);
    const double g = 9.81;
    for (int rep = 0; rep < 10; rep++) {
        double q[4] = { uniform(-1, 1), uniform(-1, 1), uniform(-1.5, 1.5), uniform(-1.5, 1.5) };
        double qd[4] = { uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1) }, f[4];
        ck_assert(m->force(q, qd, NULL, NULL, f, m->data) == 0);
        ck_assert_double_eq_tol(f[0], 0, 1e-12);
        ck_assert_double_eq_tol(f[1], -2 * g, 1e-9);
        ck_assert_double_eq_tol(f[2], -g * 0.5 * sin(q[2]), 1e-9);
        ck_assert_double_eq_tol(f[3], -g * 0.5 * sin(q[3]), 1e-9);
    }
    hes_robot_destroy(r);
}
END_TEST

/* The knee biped's floating walker (system E of problems/knee_biped.c,
 * the heelstrike's) as MJCF: M(q) and the applied forces at its default
 * parameters, and the feet's height and normal row on level ground. */
START_TEST(test_knee_biped_mjcf_is_the_builtin)
{
    hes_robot_contact c[2] = { { "stance_foot", 1 }, { "swing_foot", 1 } };
    hes_robot *r = NULL;
    hes_error msg;
    char buf[4096];
    hes_status st = hes_robot_read(test_robot_file(buf, sizeof buf, "knee_biped_floating.xml"), c,
                                   2, &r, &msg);
    if (st == HES_ESOLVER)
        return;
    ck_assert_msg(st == HES_OK, "%s", msg.message);
    const hes_model *kb = hes_problem_find("knee-biped");
    const hes_mech_transition *heel = NULL;
    for (int t = 0; t < kb->n_transitions; t++)
        if (strcmp(kb->transitions[t].name, "heelstrike") == 0)
            heel = kb->transitions[t].data;
    ck_assert(heel && heel->mech);
    const hes_mech *E = heel->mech, *R = hes_robot_mech(r);
    double p[32];
    ck_assert(kb->n_params <= 32);
    for (int i = 0; i < kb->n_params; i++)
        p[i] = kb->params[i].value;
    double worst = 0, worst_f = 0;
    for (int rep = 0; rep < 20; rep++) {
        double q[4] = { uniform(-1, 1), uniform(0.5, 1.5), uniform(-0.6, 0.6), uniform(-0.6, 0.6) };
        double qd[4] = { 0, 0, 0, 0 }, Me[16], Mr[16], fe[4], fr[4];
        ck_assert(E->mass(q, p, Me, E->data) == 0);
        ck_assert(R->mass(q, NULL, Mr, R->data) == 0);
        ck_assert(E->force(q, qd, NULL, p, fe, E->data) == 0);
        ck_assert(R->force(q, qd, NULL, NULL, fr, R->data) == 0);
        for (int i = 0; i < 16; i++)
            worst = fmax(worst, fabs(Me[i] - Mr[i]));
        for (int i = 0; i < 4; i++)
            worst_f = fmax(worst_f, fabs(fe[i] - fr[i]));
        /* the feet: height yh - cos th_i, normal row (0, 1, sin th_i) on level ground */
        for (int f = 0; f < 2; f++) {
            double a, Da[4], x, Dx[4];
            const hes_mech_constraint *cn = &R->constraints[2 * f], *ct = cn + 1;
            ck_assert(cn->a(q, NULL, &a, hes_mech_constraint_data(R, cn)) == 0);
            ck_assert(cn->Da(q, NULL, Da, hes_mech_constraint_data(R, cn)) == 0);
            /* and the no-slip row: x = xh + sin th_i, (1, 0, cos th_i) */
            ck_assert(ct->a(q, NULL, &x, hes_mech_constraint_data(R, ct)) == 0);
            ck_assert(ct->Da(q, NULL, Dx, hes_mech_constraint_data(R, ct)) == 0);
            ck_assert(!R->constraints[2 * f + 1].unilateral);
            ck_assert_double_eq_tol(x, q[0] + sin(q[2 + f]), 1e-14);
            ck_assert_double_eq_tol(Dx[2 + f], cos(q[2 + f]), 1e-14);
            ck_assert_double_eq_tol(a, q[1] - cos(q[2 + f]), 1e-14);
            ck_assert_double_eq_tol(Da[1], 1, 1e-14);
            ck_assert_double_eq_tol(Da[2 + f], sin(q[2 + f]), 1e-14);
        }
    }
    ck_assert_msg(worst < 1e-11, "M: MJCF vs knee biped's E: %g", worst);
    ck_assert_msg(worst_f < 1e-9, "forces: MJCF vs knee biped's E: %g", worst_f);
    hes_robot_destroy(r);
}
END_TEST

/* ------------------------------------------ an orbit from a robot file */
/* share/robots/rimless_wheel.xml with the modes written here: stance with
 * the foot s0 pinned at the origin (chart phi -> q = (-l sin phi,
 * l cos phi, phi), holding s0's normal and no-slip constraints), the
 * heelstrike activating s1 (plastic, normal and no-slip), s0 lifting off,
 * then the spokes relabelled (phi -> phi + 2a). */
#define WA 0.3
#define WL 1.0

static int w_chart(const double *z, const double *p, double *q, void *data)
{
    (void)p, (void)data;
    q[0] = -WL * sin(z[0]);
    q[1] = WL * cos(z[0]);
    q[2] = z[0];
    return 0;
}
static int w_chart_dz(const double *z, const double *p, double *J, void *data)
{
    (void)p, (void)data;
    J[0] = -WL * cos(z[0]);
    J[1] = -WL * sin(z[0]);
    J[2] = 1;
    return 0;
}
static int w_chart_acc(const double *z, const double *zd, const double *p, double *a,
                       void *data)
{
    (void)p, (void)data;
    a[0] = WL * sin(z[0]) * zd[0] * zd[0];
    a[1] = -WL * cos(z[0]) * zd[0] * zd[0];
    a[2] = 0;
    return 0;
}
static int w_relabel(const double *q, const double *p, double *z, void *data)
{
    (void)p, (void)data;
    z[0] = q[2] + 2 * WA;
    return 0;
}
static int w_relabel_dq(const double *q, const double *p, double *J, void *data)
{
    (void)q, (void)p, (void)data;
    J[0] = J[1] = 0;
    J[2] = 1;
    return 0;
}
static int w_guess(double *p, double *x0, void *data)
{
    (void)p, (void)data;
    x0[0] = WA;       /* just after a heelstrike */
    x0[1] = -1.0;
    return 0;
}

/* The wheel's model on a stance mode (s0 held; the heelstrike lands s1,
 * plastic, lifts s0 and relabels the spokes), its orbit and multipliers:
 * psi against the closed form, the return map against differences of the
 * full flow. */
static void wheel_orbit(hes_mech_mode *stance, const char *chart)
{
    static const int after[] = { 2, 3 }, separate[] = { 0 };
    hes_mech_transition heel = { stance, stance, HES_MECH_ACTIVATE, 2, NULL, NULL, NULL,
                                 2, after, 1, separate, w_relabel, w_relabel_dq, NULL, NULL };
    static const char *const names[] = { "phi", "omega" };
    hes_mode modes[1] = { { .name = "stance", .dim = 2, .state_names = names,
                            .field = hes_mech_field, .data = stance } };
    hes_transition trs[1] = { { .name = "heelstrike", .from = 0, .to = 0,
                                .direction = HES_DOWN, .guard = hes_mech_guard,
                                .reset = hes_mech_reset, .data = &heel } };
    static const int omega[] = { 1 }, sequence[] = { 0 };
    hes_model model = {
        .abi = HES_MODEL_ABI, .name = "rimless-wheel-mjcf",
        .description = "the rimless wheel of share/robots/rimless_wheel.xml",
        .n_modes = 1, .modes = modes, .n_transitions = 1, .transitions = trs,
        .orbit = { .mode = 0, .section = 0, .n_sequence = 1, .sequence = sequence,
                   .n_free_states = 1, .free_states = omega, .n_residual = 1,
                   .residual = omega, .guess = w_guess },
        .integrator = HES_ADAMS, .describe_error = hes_mech_describe_error,
    };
    hes_system *sys;
    hes_error msg;
    ck_assert_msg(hes_system_new(&model, &sys, &msg) == HES_OK, "%s", msg.message);
    hes_analysis res;
    hes_status st = hes_analyze(sys, 1, &res);
    ck_assert_msg(st == HES_OK, "%s: %s", chart, hes_system_errmsg(sys));
    const double I = 0.1, ml2 = 1, c = (I + ml2 * cos(2 * WA)) / (I + ml2);
    ck_assert_msg(fabs(res.stab.psi - c * c) < 1e-7, "%s: psi %.12f, closed form %.12f", chart,
                  res.stab.psi, c * c);
    ck_assert_msg(res.check_max_abs_diff < 1e-6, "%s: return map vs differences %g", chart,
                  res.check_max_abs_diff);
    printf("test_robot: rimless wheel from MJCF, %s: psi %.12f, closed form %.12f, period "
           "%.6f s\n", chart, res.stab.psi, c * c, res.orbit.period);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}

START_TEST(test_rimless_wheel_orbit_from_mjcf)
{
    hes_robot *r = load("rimless_wheel.xml", 0);
    if (!r)
        return;
    const hes_mech *m = hes_robot_mech(r);
    ck_assert_int_eq(m->n_constraints, 4);   /* s0, s0 no-slip, s1, s1 no-slip */
    static const int held[] = { 0, 1 };
    hes_mech_mode stance = { m, 2, held, 1, w_chart, w_chart_dz, w_chart_acc, NULL, NULL, NULL, 0,
                             0, NULL, 0, NULL, NULL };
    wheel_orbit(&stance, "hand-written chart");
    hes_robot_destroy(r);
}
END_TEST

/* The library's pinned chart (hes_robot_pinned_mode) against the chart
 * written by hand above, and the same orbit built on it. */
START_TEST(test_pinned_mode_is_the_hand_chart)
{
    hes_robot *r = load("rimless_wheel.xml", 0);
    if (!r)
        return;
    hes_mech_mode stance;
    hes_error msg;
    ck_assert_msg(hes_robot_pinned_mode(r, 0, &stance, &msg) == HES_OK, "%s", msg.message);
    ck_assert_int_eq(stance.k, 1);
    const hes_mech *m = hes_robot_mech(r);
    for (int trial = 0; trial < 5; trial++) {
        double z = uniform(-0.5, 0.5), zd = uniform(-2, 2), q[3], qh[3], D[3], Dh[3], a[3],
               ah[3];
        ck_assert_ptr_ne(stance.mech->data, m->data);   /* the mode's own view */
        ck_assert_int_eq(stance.chart(&z, NULL, q, stance.mech->data), 0);
        ck_assert_int_eq(stance.chart_dz(&z, NULL, D, stance.mech->data), 0);
        ck_assert_int_eq(stance.chart_acc(&z, &zd, NULL, a, stance.mech->data), 0);
        w_chart(&z, NULL, qh, NULL);
        w_chart_dz(&z, NULL, Dh, NULL);
        w_chart_acc(&z, &zd, NULL, ah, NULL);
        for (int i = 0; i < 3; i++) {
            ck_assert_double_le(fabs(q[i] - qh[i]), 1e-12);
            ck_assert_double_le(fabs(D[i] - Dh[i]), 1e-12);
            ck_assert_msg(fabs(a[i] - ah[i]) <= 1e-12 * (1 + zd * zd), "chart_acc[%d] %.12g, "
                          "by hand %.12g", i, a[i], ah[i]);
        }
    }
    wheel_orbit(&stance, "pinned mode");
    /* not for robots whose first joints are not the x and z slides */
    hes_robot *q3 = load("quadruped_3d.xml", 0);
    ck_assert_int_eq(hes_robot_pinned_mode(q3, 0, &stance, &msg), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg.message, "planar"));
    hes_robot_destroy(q3);
    hes_robot_destroy(r);
}
END_TEST

/* ---------------------------------- the knee biped as a robot model */
/* share/robots/knee_biped.xml, q = (xh, zh, th1, knee1, hip, knee2), with
 * the built-in's modes: "unlocked" (foot1 pinned, knee1 locked straight),
 * "locked" (and knee2), the kneestrike (knee2's stop) and the heelstrike
 * (foot2 lands with both knees locked, foot1 lifts off, the legs swap).
 * Constraints: foot1 0, foot1_tangential 1, foot2 2, foot2_tangential 3,
 * knee1_lower 4, knee1_upper 5, knee2_lower 6, knee2_upper 7. */
static hes_model *knee_biped_model(double slope)
{
    hes_robot_contact c[2] = { { "foot1", 1 }, { "foot2", 1 } };
    hes_robot *r = NULL;
    char buf[4096];
    hes_error msg;
    hes_status st = hes_robot_read(test_robot_file(buf, sizeof buf, "knee_biped.xml"), c, 2, &r,
                                   &msg);
    if (st == HES_ESOLVER)
        return NULL;
    ck_assert_msg(st == HES_OK, "%s", msg.message);
    ck_assert_int_eq(hes_robot_mech(r)->n_constraints, 8);
    ck_assert_str_eq(hes_robot_mech(r)->constraints[7].name, "knee2_upper");
    static const int lock1[] = { 5 }, lock2[] = { 5, 7 }, after[] = { 2, 3, 5, 7 };
    static const hes_robot_mode_spec modes[] = { { "unlocked", 0, 1, lock1, 0, NULL, 0, NULL },
                                                 { "locked", 0, 2, lock2, 0, NULL, 0, NULL } };
    /* the heelstrike's swap: th1' = th1 + hip, hip' = -hip, knee2' = knee1 */
    static const double swap[3 * 7] = { 0, 0, 1, 0, 1, 0, 0,
                                        0, 0, 0, 0, -1, 0, 0,
                                        0, 0, 0, 1, 0, 0, 0 };
    static const hes_robot_transition_spec trs[] = {
        { "kneestrike", 0, 1, HES_MECH_ACTIVATE, 7, 0, NULL, -1, NULL, NULL },
        { "heelstrike", 1, 0, HES_MECH_ACTIVATE, 2, 4, after, -1, NULL, swap },
    };
    static const int seq[] = { 0, 1 };
    /* the built-in's guess in these angles: th1 + s, hip = th2 - th1 = -2 (th1 + s),
       knee2 = 0 */
    double th = 0.18818546025412 + slope, w1 = -1.10958733117997, w2 = -0.05714810632348;
    double guess[6] = { th, -2 * th, 0, w1, w2 - w1, 0 };
    hes_robot_model_spec sp = {
        .name = "knee-biped-mjcf", .description = "share/robots/knee_biped.xml",
        .n_modes = 2, .modes = modes, .n_transitions = 2, .transitions = trs,
        .slope = 1, .slope_value = slope,
        .orbit = { .mode = 0, .section = 1, .n_sequence = 2, .sequence = seq },
        .n_guess = 6, .guess = guess,
    };
    hes_model *model = NULL;
    st = hes_robot_model_new(r, &sp, &model, &msg);
    ck_assert_msg(st == HES_OK, "%s", msg.message);
    return model;
}

/* A system of a robot model without the wall-time budget: MuJoCo under
 * valgrind is 30 times slower, and the budget is not what is tested. */
static hes_system *robot_system(const hes_model *m)
{
    hes_system *sys;
    hes_error msg;
    ck_assert_msg(hes_system_new(m, &sys, &msg) == HES_OK, "%s", msg.message);
    hes_settings st = hes_system_get_settings(sys);
    st.max_wall_time = HUGE_VAL;
    ck_assert_int_eq(hes_system_set_settings(sys, &st), HES_OK);
    return sys;
}

/* The built-in's angles (th1, th2, th3) and rates against the robot's
 * z = T th + (s, 0, 0), z' = T th', T = [1 0 0; -1 1 0; 0 -1 1]. */
static void to_robot(const double *x, double s, double *z)
{
    z[0] = x[0] + s, z[1] = x[1] - x[0], z[2] = x[2] - x[1];
    z[3] = x[3], z[4] = x[4] - x[3], z[5] = x[5] - x[4];
}

/* The unlocked mode's vector field, with random torques and slope, is the
 * built-in's in these coordinates (its reduced mass matrix T^-T M_A T^-1:
 * the same kinetic energy); then the orbit on the default slope: its
 * state, period and multipliers. */
START_TEST(test_knee_biped_model_is_the_builtin)
{
    hes_model *rm = knee_biped_model(0.0504);
    if (!rm)
        return;
    const hes_model *kb = hes_problem_find("knee-biped");
    double pk[32], pr[8];
    for (int i = 0; i < kb->n_params; i++)
        pk[i] = kb->params[i].value;
    ck_assert_int_eq(rm->n_params, 4);   /* slope, ankle, hip, knee */
    double worst = 0, worst_m = 0, worst_j = 0;
    for (int rep = 0; rep < 20; rep++) {
        double s = uniform(-0.1, 0.1), u[3] = { uniform(-1, 1), uniform(-1, 1), uniform(-1, 1) };
        pk[hes_model_param_index(kb, "slope")] = s;
        pk[hes_model_param_index(kb, "ankle_torque")] = u[0];
        pk[hes_model_param_index(kb, "hip_torque")] = u[1];
        pk[hes_model_param_index(kb, "knee_torque")] = u[2];
        pr[hes_model_param_index(rm, "slope")] = s;
        pr[hes_model_param_index(rm, "ankle_torque")] = u[0];
        pr[hes_model_param_index(rm, "hip_torque")] = u[1];
        pr[hes_model_param_index(rm, "knee_torque")] = u[2];
        double x[6] = { uniform(-0.4, 0.4), uniform(-0.6, 0.2), uniform(-0.8, 0.2),
                        uniform(-2, 2), uniform(-2, 2), uniform(-2, 2) }, z[6], fk[6], fz[6],
               fr[6];
        to_robot(x, s, z);
        /* M_A(th) = T^T D^T M(q(z)) D T, D = Dchart(z) */
        const hes_mech_mode *ma = kb->modes[0].data, *mr = rm->modes[0].data;
        double MA[9], q[6], D[18], M[36], DT[18], Mrt[9];
        static const double T[9] = { 1, -1, 0, 0, 1, -1, 0, 0, 1 };   /* column-major */
        ck_assert_int_eq(ma->mech->mass(x, pk, MA, ma->mech->data), 0);
        ck_assert_int_eq(mr->chart(z, pr, q, mr->mech->data), 0);
        ck_assert_int_eq(mr->chart_dz(z, pr, D, mr->mech->data), 0);
        ck_assert_int_eq(mr->mech->mass(q, pr, M, mr->mech->data), 0);
        for (int i = 0; i < 6; i++)
            for (int j = 0; j < 3; j++) {
                DT[i + 6 * j] = 0;
                for (int l = 0; l < 3; l++)
                    DT[i + 6 * j] += D[i + 6 * l] * T[l + 3 * j];
            }
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                Mrt[i + 3 * j] = 0;
                for (int a = 0; a < 6; a++)
                    for (int b = 0; b < 6; b++)
                        Mrt[i + 3 * j] += DT[a + 6 * i] * M[a + 6 * b] * DT[b + 6 * j];
                worst_m = fmax(worst_m, fabs(Mrt[i + 3 * j] - MA[i + 3 * j]));
            }
        ck_assert_int_eq(kb->modes[0].field(0, x, pk, fk, kb->modes[0].data), 0);
        ck_assert_int_eq(rm->modes[0].field(0, z, pr, fr, rm->modes[0].data), 0);
        to_robot(fk, 0, fz);   /* the derivative of z = T th + c is T th' */
        double big = 1;
        for (int i = 0; i < 6; i++)
            big = fmax(big, fabs(fz[i]));
        for (int i = 0; i < 6; i++)
            worst = fmax(worst, fabs(fz[i] - fr[i]) / big);
        /* the field's Jacobian through the MJCF chart (hes_mech_field_dx)
         * against central differences of the field */
        double J[36], Jd[36], zp[6], fp[6], fm[6], jbig = 1;
        ck_assert_ptr_eq((void *)rm->modes[0].field_dx, (void *)hes_mech_field_dx);
        ck_assert_int_eq(rm->modes[0].field_dx(0, z, pr, J, rm->modes[0].data), 0);
        for (int j = 0; j < 6; j++) {
            memcpy(zp, z, sizeof zp);
            zp[j] = z[j] + 1e-5;
            ck_assert_int_eq(rm->modes[0].field(0, zp, pr, fp, rm->modes[0].data), 0);
            zp[j] = z[j] - 1e-5;
            ck_assert_int_eq(rm->modes[0].field(0, zp, pr, fm, rm->modes[0].data), 0);
            for (int i = 0; i < 6; i++)
                jbig = fmax(jbig, fabs(Jd[i + 6 * j] = (fp[i] - fm[i]) / 2e-5));
        }
        for (int e = 0; e < 36; e++)
            worst_j = fmax(worst_j, fabs(J[e] - Jd[e]) / jbig);
    }
    ck_assert_msg(worst_j < 1e-7, "field Jacobian vs differences (MJCF chart): %g", worst_j);
    ck_assert_msg(worst_m < 1e-9, "M: MJCF vs built-in %g", worst_m);
    ck_assert_msg(worst < 1e-10, "vector field: MJCF vs built-in %g", worst);
    printf("test_robot: knee biped from MJCF: M within %.1e, vector field within %.1e of the "
           "largest component, its Jacobian within %.1e of differences\n", worst_m, worst,
           worst_j);

    hes_system *sk, *sr;
    hes_error msg;
    ck_assert_msg(hes_system_new(kb, &sk, &msg) == HES_OK, "%s", msg.message);
    sr = robot_system(rm);
    hes_analysis ak, ar;
    ck_assert_msg(hes_analyze(sk, 0, &ak) == HES_OK, "%s", hes_system_errmsg(sk));
    ck_assert_msg(hes_analyze(sr, 0, &ar) == HES_OK, "%s", hes_system_errmsg(sr));
    double zk[6], dx = 0;
    to_robot(ak.orbit.x0, 0.0504, zk);
    for (int i = 0; i < 6; i++)
        dx = fmax(dx, fabs(zk[i] - ar.orbit.x0[i]));
    ck_assert_msg(dx < 1e-7, "orbit state: MJCF vs built-in %g", dx);
    ck_assert_double_le(fabs(ak.orbit.period - ar.orbit.period), 1e-7);
    ck_assert_int_eq(ak.stab.n_mult, ar.stab.n_mult);
    double dm = 0;
    for (int k = 0; k < ak.stab.n_mult; k++)
        dm = fmax(dm, hypot(ak.stab.re[k] - ar.stab.re[k], fabs(ak.stab.im[k]) -
                            fabs(ar.stab.im[k])));
    ck_assert_msg(dm < 1e-7, "multipliers: MJCF vs built-in %g", dm);
    printf("test_robot: knee biped from MJCF: psi %.10f (built-in %.10f), period %.10f "
           "(%.10f), orbit state within %.1e, multipliers within %.1e\n", ar.stab.psi,
           ak.stab.psi, ar.orbit.period, ak.orbit.period, dx, dm);
    hes_analysis_free(&ak);
    hes_analysis_free(&ar);
    hes_system_destroy(sk);
    hes_system_destroy(sr);
    hes_model_destroy(rm);
}
END_TEST

/* Inverse dynamics along a gait of the knee biped's robot model
 * (hes_invdyn_gait) against the model's own constraint forces: states near
 * the orbit in both modes, random torques; a pinned point foot leaves as
 * many unknowns as equations, so the motors' torques are the inputs (plus
 * -lambda of knee2_upper where knee2 is locked), the knee stop's torque is
 * -lambda of knee1_upper (a = -knee1), and the
 * contact's normal and tangential forces are lambda of foot1 and
 * foot1_tangential (hes_mech_mode_state: the reduced dynamics' Lagrange
 * multipliers, an independent computation). */
START_TEST(test_invdyn_along_a_robot_gait)
{
    hes_model *rm = knee_biped_model(0.0504);
    if (!rm)
        return;
    hes_system *sys = robot_system(rm);
    hes_error msg;
    hes_analysis an;
    ck_assert_msg(hes_analyze(sys, 0, &an) == HES_OK, "%s", hes_system_errmsg(sys));
    enum { NODES = 6 };
    int inputs[3] = { hes_model_param_index(rm, "ankle_torque"),
                      hes_model_param_index(rm, "hip_torque"),
                      hes_model_param_index(rm, "knee_torque") };
    double params[4], x0[NODES * 6], x1[NODES * 4], u0[NODES * 3], u1[NODES * 3];
    for (int i = 0; i < rm->n_params; i++)
        params[i] = rm->params[i].value;
    const double *start[2] = { an.orbit.x0, an.orbit.traj.events[0].x_plus };
    for (int n = 0; n < NODES; n++) {
        for (int i = 0; i < 6; i++)
            x0[n * 6 + i] = start[0][i] + (i == 2 ? 0 : uniform(-0.02, 0.02));
        for (int i = 0; i < 4; i++)
            x1[n * 4 + i] = start[1][i] + uniform(-0.02, 0.02);
        for (int k = 0; k < 3; k++)
            u0[n * 3 + k] = uniform(-0.3, 0.3), u1[n * 3 + k] = uniform(-0.3, 0.3);
    }
    x0[2] = x0[5] = 0;   /* knee2 straight at the first node, as after a heelstrike */
    hes_gait_phase ph[2] = {
        { .mode = 0, .transition = 0, .direction = HES_DOWN, .duration = 0.3, .nodes = NODES,
          .x = x0, .u_rows = NODES, .u = u0 },
        { .mode = 1, .transition = 1, .direction = HES_DOWN, .duration = 0.2, .nodes = NODES,
          .x = x1, .u_rows = NODES, .u = u1 },
    };
    hes_gait g = { .problem = (char *)rm->name, .params = params, .n_params = rm->n_params,
                   .n_inputs = 3, .inputs = inputs, .n_phases = 2, .phases = ph };
    hes_invdyn_run_options o = { .solve = { .method = HES_INVDYN_NO_SLIP, .min_friction = 1 } };
    hes_invdyn_run run;
    hes_robot *robot = NULL;
    hes_status st = hes_invdyn_gait(rm, &g, &o, &robot, &run, &msg);
    ck_assert_msg(st == HES_OK, "%s", msg.message);
    ck_assert_int_eq(run.nu, 4);
    ck_assert_str_eq(hes_robot_motor_joint(robot, 0), "th1");     /* ankle_torque */
    ck_assert_str_eq(hes_robot_motor_joint(robot, 3), "knee1");   /* the stance knee's stop */
    double dtau = 0, dstop = 0, df = 0, dmu = 0;
    for (int n = 0; n < 2 * NODES; n++) {
        int phase = n / NODES, j = n % NODES;
        const hes_mech_mode *mm = rm->modes[phase].data;
        const double *x = phase ? x1 + j * 4 : x0 + j * 6, *u = phase ? u1 + j * 3 : u0 + j * 3;
        double p[4], lam[4];
        memcpy(p, params, sizeof p);
        for (int k = 0; k < 3; k++)
            p[inputs[k]] = u[k];
        ck_assert_int_eq(hes_mech_mode_state(mm, 0, x, p, NULL, NULL, lam, NULL), HES_OK);
        ck_assert_msg(run.status[n] == HES_OK, "node %d: %s", n, run.message[n]);
        ck_assert(run.stance[n * 2] == 1 && run.stance[n * 2 + 1] == 0);
        /* a locked joint with a motor (knee2 in the locked mode): motor and stop */
        for (int k = 0; k < 3; k++)
            dtau = fmax(dtau, fabs(run.tau[n * 4 + k] - u[k] + (phase && k == 2 ? lam[3] : 0)));
        /* held: foot1 (0), foot1_tangential (1), knee1_upper (5) [, knee2_upper (7)] */
        dstop = fmax(dstop, fabs(run.tau[n * 4 + 3] + lam[2]));
        double fn = run.f[n * 4 + 0], ft = run.f[n * 4 + 2];
        df = fmax(df, fmax(fabs(fn - lam[0]), fabs(ft - lam[1])));
        dmu = fmax(dmu, fabs(run.mu_min[n] - fabs(lam[1]) / lam[0]));
        ck_assert(lam[0] > 0);
    }
    printf("test_robot: inverse dynamics along a knee-biped gait: torques = inputs to %.1e, "
           "knee stop = -lambda to %.1e, contact forces = lambda to %.1e, mu_min = |f_t|/f_n "
           "to %.1e\n", dtau, dstop, df, dmu);
    ck_assert_msg(dtau < 1e-8 && dstop < 1e-8 && df < 1e-8 && dmu < 1e-8,
                  "torques %g, stop %g, forces %g, mu %g", dtau, dstop, df, dmu);
    /* not a robot model */
    hes_robot *none;
    hes_invdyn_run run2;
    ck_assert_int_eq(hes_invdyn_gait(hes_problem_find("knee-biped"), &g, &o, &none, &run2, &msg), HES_EINVAL);
    ck_assert_ptr_null(none);
    ck_assert_ptr_nonnull(strstr(msg.message, "not a robot model"));
    hes_invdyn_run_free(&run);
    hes_robot_destroy(robot);
    hes_analysis_free(&an);
    hes_system_destroy(sys);
    hes_model_destroy(rm);
}
END_TEST

/* A release: the rimless wheel rolling over its stance spoke fast enough
 * that the foot's normal force falls to zero, then flying (no contact).
 * At the event the stance mode's normal multiplier is zero (the guard),
 * and the flight starts from the same configuration and velocities (no
 * impulse).  (The no-slip force is not zero there: the pinned model
 * ignores that a real foot would slide before it lifts off.) */
START_TEST(test_release_lifts_the_foot_off)
{
    hes_robot *r = load("rimless_wheel.xml", 0);
    if (!r)
        return;
    static const hes_robot_mode_spec modes[] = { { "stance", 0, 0, NULL, 0, NULL, 0, NULL },
                                                 { "flight", -1, 0, NULL, 0, NULL, 0, NULL } };
    static const hes_robot_transition_spec trs[] = {
        { "liftoff", 0, 1, HES_MECH_RELEASE, 0, 0, NULL, 0, NULL, NULL },
    };
    hes_robot_model_spec sp = { .name = "wheel-liftoff", .n_modes = 2, .modes = modes,
                                .n_transitions = 1, .transitions = trs };
    hes_model *m;
    hes_error msg;
    ck_assert_msg(hes_robot_model_new(r, &sp, &m, &msg) == HES_OK, "%s", msg.message);
    ck_assert_int_eq(m->modes[0].dim, 2);
    ck_assert_int_eq(m->modes[1].dim, 6);
    hes_system *sys = robot_system(m);
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.t_end = 1.0;
    double x0[2] = { 0.2, -2.6 };   /* leaning forward, rolling fast (phi decreasing) */
    hes_traj tr;
    ck_assert_msg(hes_simulate(sys, 0, 0, 0, x0, &o, &tr) == HES_OK, "%s",
                  hes_system_errmsg(sys));
    ck_assert_int_ge(tr.n_events, 1);
    ck_assert_int_eq(tr.events[0].transition, 0);
    double lam[2], q[3], qd[3], qf[3], qdf[3];
    const hes_mech_mode *st = m->modes[0].data, *fl = m->modes[1].data;
    ck_assert_int_eq(hes_mech_mode_state(st, tr.events[0].t, tr.events[0].x_minus, NULL, q, qd,
                                         lam, NULL), HES_OK);
    ck_assert_msg(fabs(lam[0]) < 1e-8, "normal force at lift-off %g", lam[0]);
    ck_assert_int_eq(hes_mech_mode_state(fl, tr.events[0].t, tr.events[0].x_plus, NULL, qf,
                                         qdf, NULL, NULL), HES_OK);
    for (int i = 0; i < 3; i++) {   /* the same state: no impulse, no jump */
        ck_assert_double_eq_tol(qf[i], q[i], 1e-12);
        ck_assert_double_eq_tol(qdf[i], qd[i], 1e-12);
    }
    printf("test_robot: lift-off at t = %.6f s (phi %.4f), normal force there %.1e\n",
           tr.events[0].t, tr.events[0].x_minus[0], lam[0]);
    hes_traj_free(&tr);
    hes_system_destroy(sys);
    hes_model_destroy(m);
}
END_TEST

/* a file of our own: a pendulum with a motor (gear 2) on its hinge; and
 * files refused */
static const char *write_tmp(const char *text, char *name, size_t len)
{
    /* mkstemps replaces the six template characters before ".xml" */
    const char *dir = getenv("TMPDIR");
    snprintf(name, len, "%s/hes-test-robot-%s.xml", dir && *dir ? dir : "/tmp", "XXXXXX");
    int fd = mkstemps(name, 4);
    ck_assert(fd >= 0);
    ck_assert(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    return name;
}

START_TEST(test_inputs_and_refusals)
{
    char name[4096];
    hes_error msg;
    hes_robot *r;
    const char *pend =
        "<mujoco><worldbody><body><joint name='h' type='hinge' axis='0 -1 0'/>"
        "<inertial pos='0 0 -1' mass='2' diaginertia='0.1 0.1 0.1'/>"
        "<site name='tip' pos='0 0 -1'/></body></worldbody>"
        "<actuator><motor joint='h' gear='2'/></actuator></mujoco>";
    hes_status st = hes_robot_read(write_tmp(pend, name, sizeof name), NULL, 0, &r, &msg);
    unlink(name);
    if (st == HES_ESOLVER)
        return;
    ck_assert_msg(st == HES_OK, "%s", msg.message);
    const hes_mech *m = hes_robot_mech(r);
    ck_assert_int_eq(m->m, 1);
    ck_assert_int_eq(m->n_constraints, 2);
    ck_assert_str_eq(m->constraints[0].name, "tip");
    ck_assert_str_eq(m->constraints[1].name, "tip_tangential");
    double q = 0.3, qd = 0, u = 1.5, f0, f1, M;
    ck_assert(m->force(&q, &qd, NULL, NULL, &f0, m->data) == 0);
    ck_assert(m->force(&q, &qd, &u, NULL, &f1, m->data) == 0);
    ck_assert_double_eq_tol(f1 - f0, 2 * 1.5, 1e-12);
    ck_assert_double_eq_tol(f0, -2 * 9.81 * sin(0.3), 1e-9);   /* m g l sin */
    ck_assert(m->mass(&q, NULL, &M, m->data) == 0);
    ck_assert_double_eq_tol(M, 2 * 1 + 0.1, 1e-12);             /* m l^2 + I */
    hes_robot_destroy(r);
    /* the file's spring (stiffness 3 about springref 0.1) and damper (0.5)
       act in the applied force: - m g l sin q - k (q - q_ref) - b q' */
    const char *spring =
        "<mujoco><compiler angle='radian'/><worldbody><body><joint name='h' type='hinge' "
        "axis='0 -1 0' stiffness='3' "
        "springref='0.1' damping='0.5'/>"
        "<inertial pos='0 0 -1' mass='2' diaginertia='0.1 0.1 0.1'/>"
        "<site name='tip' pos='0 0 -1'/></body></worldbody></mujoco>";
    st = hes_robot_read(write_tmp(spring, name, sizeof name), NULL, 0, &r, &msg);
    unlink(name);
    ck_assert_msg(st == HES_OK, "%s", msg.message);
    m = hes_robot_mech(r);
    qd = -0.7;
    ck_assert(m->force(&q, &qd, NULL, NULL, &f0, m->data) == 0);
    ck_assert_double_eq_tol(f0, -2 * 9.81 * sin(0.3) - 3 * (0.3 - 0.1) - 0.5 * (-0.7), 1e-9);
    hes_robot_destroy(r);

    ck_assert_int_eq(hes_robot_read("/nonexistent/robot.xml", NULL, 0, &r, &msg),
                     HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "/nonexistent/robot.xml: No such file"), "%s", msg.message);
    hes_robot_contact bad = { "no-such-site", 1 };
    char buf[4096];
    ck_assert_int_eq(hes_robot_read(test_robot_file(buf, sizeof buf, "compass_gait.xml"), &bad,
                                    1, &r, &msg), HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "no site or body"), "%s", msg.message);
    /* free and ball joints load (quaternion coordinates: nq != nv); their
       motors and hybrid models are refused, each naming what it refuses */
    const char *freej = "<mujoco><worldbody><body><freejoint/>"
                        "<geom type='sphere' size='0.1'/></body></worldbody></mujoco>";
    st = hes_robot_read(write_tmp(freej, name, sizeof name), NULL, 0, &r, &msg);
    ck_assert_msg(st == HES_OK, "%s", msg.message);
    int nq, nv;
    ck_assert_int_eq(hes_robot_dims(r, &nq, &nv), HES_OK);
    ck_assert_int_eq(nq, 7);
    ck_assert_int_eq(nv, 6);
    ck_assert_int_eq(hes_robot_mech(r)->n_quat, 1);
    ck_assert_int_eq(hes_robot_mech(r)->quat[0], 3);
    ck_assert_str_eq(hes_robot_coordinate(r, 3), "joint0_qw");   /* a joint without a name */
    ck_assert_str_eq(hes_robot_velocity_name(r, 5), "joint0_wz");
    ck_assert_ptr_null(hes_robot_velocity_name(r, 6));
    /* a robot model of it: the state [q, v] (13 values) on a manifold of 12 */
    hes_robot_mode_spec free_mode = { "m", -1, 0, NULL, 0, NULL, 0, NULL };
    hes_robot_model_spec free_spec = { .name = "free", .n_modes = 1, .modes = &free_mode };
    hes_model *free_model;
    ck_assert_msg(hes_robot_model_new(r, &free_spec, &free_model, &msg) == HES_OK, "%s",
                  msg.message);
    ck_assert_int_eq(free_model->modes[0].dim, 13);
    ck_assert_int_eq(free_model->modes[0].tdim, 12);
    ck_assert_str_eq(free_model->modes[0].state_names[3], "joint0_qw");
    ck_assert_str_eq(free_model->modes[0].state_names[12], "joint0_wz");
    ck_assert_str_eq(free_model->modes[0].tangent_names[3], "joint0_rx");
    ck_assert_str_eq(free_model->modes[0].tangent_names[0], "joint0_x");
    hes_model_destroy(free_model);
    unlink(name);   /* the model read it again for its pool */
    const char *ballj = "<mujoco><compiler angle='radian'/><worldbody><body pos='0 0 1'>"
                        "<joint name='b' type='ball' limited='true' range='0 1'/>"
                        "<geom type='capsule' fromto='0 0 0 0 0 -1' size='0.05'/>"
                        "<site name='tip' pos='0 0 -1'/></body></worldbody>"
                        "<actuator><motor joint='b'/></actuator></mujoco>";
    st = hes_robot_read(write_tmp(ballj, name, sizeof name), NULL, 0, &r, &msg);
    ck_assert_int_eq(st, HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "drives the ball joint b"), "%s", msg.message);
    char *motor = strstr(ballj, "<actuator>");
    char noact[512];
    snprintf(noact, sizeof noact, "%.*s</mujoco>", (int)(motor - ballj), ballj);
    unlink(name);
    st = hes_robot_read(write_tmp(noact, name, sizeof name), NULL, 0, &r, &msg);
    unlink(name);
    ck_assert_msg(st == HES_OK, "%s", msg.message);
    ck_assert_int_eq(hes_robot_dims(r, &nq, &nv), HES_OK);
    ck_assert_int_eq(nq, 4);
    ck_assert_int_eq(nv, 3);
    ck_assert_str_eq(hes_robot_coordinate(r, 0), "b_qw");
    ck_assert_str_eq(hes_robot_velocity_name(r, 2), "b_wz");
    const char *const b[] = { "b" };
    ck_assert_int_eq(hes_robot_set_motors(r, b, 1, &msg), HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "'b' is a ball joint"), "%s", msg.message);
    /* the limited ball's cone: a = 1 - angle, Da = -axis in its velocities */
    const hes_mech *bm = hes_robot_mech(r);
    ck_assert_int_eq(bm->n_constraints, 4);   /* tip, tip_tangential, b_cone, tip_tangential_y */
    ck_assert_str_eq(bm->constraints[2].name, "b_cone");
    ck_assert_str_eq(bm->constraints[3].name, "tip_tangential_y");
    const double qb[4] = { cos(0.3), sin(0.3) * 0.6, 0, sin(0.3) * 0.8 };
    double a, Da[3];
    const hes_mech_constraint *cone = &bm->constraints[2];
    ck_assert_int_eq(cone->a(qb, NULL, &a, hes_mech_constraint_data(bm, cone)), 0);
    ck_assert_int_eq(cone->Da(qb, NULL, Da, hes_mech_constraint_data(bm, cone)), 0);
    ck_assert_double_eq_tol(a, 1 - 0.6, 1e-15);
    ck_assert_double_eq_tol(Da[0], -0.6, 1e-15);
    ck_assert_double_eq_tol(Da[1], 0, 1e-15);
    ck_assert_double_eq_tol(Da[2], -0.8, 1e-15);
    hes_robot_destroy(r);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("robot");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_compass_gait_mjcf_is_the_builtin);
    tcase_add_test(tc, test_urdf_is_the_mjcf);
    tcase_add_test(tc, test_gravity_is_the_closed_form);
    tcase_add_test(tc, test_knee_biped_mjcf_is_the_builtin);
    tcase_add_test(tc, test_rimless_wheel_orbit_from_mjcf);
    tcase_add_test(tc, test_pinned_mode_is_the_hand_chart);
    tcase_add_test(tc, test_knee_biped_model_is_the_builtin);
    tcase_add_test(tc, test_invdyn_along_a_robot_gait);
    tcase_add_test(tc, test_release_lifts_the_foot_off);
    tcase_add_test(tc, test_inputs_and_refusals);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(suite());
}
