/*
 * test_robot_wheel3d.c - the 3-D rimless wheel of share/robots/
 * rimless_wheel_3d.{xml,json} (Coleman, Chatterjee and Ruina, Dynamics and
 * Stability of Systems 12, 1997): a free-jointed wheel of N = 8 spokes
 * rolling down a slope, each spoke's stance a mode held by its contact
 * forces, the orbit one revolution solved in the quotient by the ground's
 * translations x and y.  Checked against:
 *  - the planar closed form: steady rolling keeps the wheel upright, so
 *    the post-impact rate is that of the planar wheel, w+^2 = c^2 K / (1 -
 *    c^2) with c = (I + m l^2 cos 2a) / (I + m l^2) (the impact keeps the
 *    angular momentum about the landing tip) and K = 4 m g l sin a sin
 *    gamma / (I + m l^2) (the energy a step gains), a = pi / N; the planar
 *    multiplier of a revolution is c^(2N);
 *  - an independent integration: the wheel as a rigid body turning about
 *    its fixed tip (Euler's equations about the pivot, R' = R [w]x, by
 *    classical Runge-Kutta with the landings located by bisection, the
 *    impact keeping the angular momentum about the new tip), its
 *    revolution map differentiated by central differences in (R, w): the
 *    same multipliers as the saltation pipeline's (eigenvalues do not
 *    depend on coordinates; its map has the section's 0 besides);
 *  - the paper's qualitative result: a family of steady rollings (one
 *    multiplier 1, the heading), stable at a large enough slope (0.2) and
 *    unstable at a small one (0.1), where the wheel falls over sideways;
 *  - the analysis's own central differences of the full flow;
 *  - continued in the slope (the quaternion on its sphere, the orbit in
 *    the quotient: natural steps), every point's multipliers against the
 *    rigid body's at its slope, and the stability lost on the way down:
 *    the +1 crossing beside the heading's 1, located on the branch, at the
 *    slope where the rigid body's multiplier reaches 1 (by bisection).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>

#include "hes.h"
#include "testutil.h"

#define N_SPOKES 8
#define SLOPE 0.2
#define I_AXLE 0.5
#define I_DIAM 0.25
#define GRAV 9.81

static hes_model *model;

static void load(void)
{
    char buf[1024];
    hes_error err;
    hes_status st = hes_robot_model_read(test_robot_file(buf, sizeof buf,
                                                         "rimless_wheel_3d.json"),
                                         &model, &err);
    ck_assert_msg(st == HES_OK, "%s", err.message);
}

/* A system of the model without wall-time budgets (under valgrind a
 * simulation takes fifty times as long; the suite's timeout bounds it). */
static hes_system *wheel_system(void)
{
    hes_system *sys;
    hes_error err;
    ck_assert_int_eq(hes_system_new(model, &sys, &err), HES_OK);
    hes_settings set = hes_system_get_settings(sys);
    set.max_wall_time = set.max_search_time = HUGE_VAL;
    ck_assert_int_eq(hes_system_set_settings(sys, &set), HES_OK);
    return sys;
}

static void unload(void)
{
    hes_model_destroy(model);
    model = NULL;
}

/* ---------------------------------------- the independent rigid body */
typedef struct {
    double R[9], w[3];       /* attitude (row-major, body to world), body rate */
} body;

static void spoke(int j, double *s)
{
    double th = 2 * M_PI * j / N_SPOKES;
    s[0] = sin(th), s[1] = 0, s[2] = -cos(th);
}

static void cross(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* I_P = I_c + m (|r|^2 E - r r^T), r the pivot-to-centre vector (m = 1) */
static void pivot_inertia(const double *r, double *Ip)
{
    const double Ic[3] = { I_DIAM, I_AXLE, I_DIAM };
    double rr = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            Ip[3 * i + j] = (i == j) * (Ic[i] + rr) - r[i] * r[j];
}

/* the rate of (R, w) pivoting on spoke i: I_P w' = (I_P w) x w + r x R^T g */
static void rate(int i, const body *b, body *d, double gamma)
{
    double r[3], Ip[9], Iw[3], gb[3], f[3], t[3];
    const double g[3] = { GRAV * sin(gamma), 0, -GRAV * cos(gamma) };
    spoke(i, r);
    for (int k = 0; k < 3; k++)
        r[k] = -r[k];
    pivot_inertia(r, Ip);
    for (int k = 0; k < 3; k++) {
        Iw[k] = Ip[3 * k] * b->w[0] + Ip[3 * k + 1] * b->w[1] + Ip[3 * k + 2] * b->w[2];
        gb[k] = b->R[k] * g[0] + b->R[3 + k] * g[1] + b->R[6 + k] * g[2];
    }
    cross(Iw, b->w, f);
    cross(r, gb, t);
    for (int k = 0; k < 3; k++)
        f[k] += t[k];
    ck_assert_int_eq(test_solve(3, Ip, f), 1);
    memcpy(d->w, f, sizeof f);
    /* R' = R [w]x */
    for (int row = 0; row < 3; row++) {
        const double *Rr = b->R + 3 * row;
        double out[3];
        cross(Rr, b->w, out);         /* (R [w]x)_row = R_row x w */
        memcpy(d->R + 3 * row, out, sizeof out);
    }
}

static void rk4(int i, const body *b, double h, body *out, double gamma)
{
    body k1, k2, k3, k4, y;
    double *yv = (double *)&y;
    const double *bv = (const double *)b;
    rate(i, b, &k1, gamma);
    for (int k = 0; k < 12; k++)
        yv[k] = bv[k] + 0.5 * h * ((double *)&k1)[k];
    rate(i, &y, &k2, gamma);
    for (int k = 0; k < 12; k++)
        yv[k] = bv[k] + 0.5 * h * ((double *)&k2)[k];
    rate(i, &y, &k3, gamma);
    for (int k = 0; k < 12; k++)
        yv[k] = bv[k] + h * ((double *)&k3)[k];
    rate(i, &y, &k4, gamma);
    double *ov = (double *)out;
    for (int k = 0; k < 12; k++)
        ov[k] = bv[k] + h / 6 * (((double *)&k1)[k] + 2 * ((double *)&k2)[k] +
                                 2 * ((double *)&k3)[k] + ((double *)&k4)[k]);
}

/* the height of spoke j's tip above the ground, pivoting on spoke i's */
static double height(int i, int j, const body *b)
{
    double si[3], sj[3];
    spoke(i, si);
    spoke(j, sj);
    return b->R[6] * (sj[0] - si[0]) + b->R[7] * (sj[1] - si[1]) + b->R[8] * (sj[2] - si[2]);
}

/* one revolution from just after the landing of spoke 0 */
static void revolution(body *b, double gamma)
{
    const double h = 1e-3;
    for (int step = 0; step < N_SPOKES; step++) {
        int i = step, j = (step + 1) % N_SPOKES;
        for (int n = 0;; n++) {
            ck_assert_int_lt(n, 100000);
            body next;
            rk4(i, b, h, &next, gamma);
            if (height(i, j, &next) > 0) {   /* not yet landed */
                *b = next;
                continue;
            }
            double lo = 0, hi = h;   /* the landing inside this step */
            for (int k = 0; k < 60; k++) {
                double mid = 0.5 * (lo + hi);
                rk4(i, b, mid, &next, gamma);
                if (height(i, j, &next) > 0)
                    lo = mid;
                else
                    hi = mid;
            }
            rk4(i, b, 0.5 * (lo + hi), &next, gamma);
            *b = next;
            break;
        }
        /* the impact: H about the new tip kept, the new tip sticking */
        double r[3], rn[3], vc[3], H[3], t[3], Ip[9];
        spoke(i, r);
        spoke(j, rn);
        for (int k = 0; k < 3; k++)
            r[k] = -r[k], rn[k] = -rn[k];
        cross(b->w, r, vc);
        cross(rn, vc, t);
        H[0] = I_DIAM * b->w[0] + t[0];
        H[1] = I_AXLE * b->w[1] + t[1];
        H[2] = I_DIAM * b->w[2] + t[2];
        pivot_inertia(rn, Ip);
        ck_assert_int_eq(test_solve(3, Ip, H), 1);
        memcpy(b->w, H, sizeof H);
    }
}

/* R exp([d]x) and log(R0^T R) (Rodrigues) */
static void expo(const double *d, double *E)
{
    double th = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    double a = th > 1e-12 ? sin(th) / th : 1, c = th > 1e-12 ? (1 - cos(th)) / (th * th) : 0.5;
    double K[9] = { 0, -d[2], d[1], d[2], 0, -d[0], -d[1], d[0], 0 };
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double kk = 0;
            for (int l = 0; l < 3; l++)
                kk += K[3 * i + l] * K[3 * l + j];
            E[3 * i + j] = (i == j) + a * K[3 * i + j] + c * kk;
        }
}

static void logm(const double *R0, const double *R, double *d)
{
    double A[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            A[3 * i + j] = R0[i] * R[j] + R0[3 + i] * R[3 + j] + R0[6 + i] * R[6 + j];
    double c = fmax(-1.0, fmin(1.0, 0.5 * (A[0] + A[4] + A[8] - 1)));
    double th = acos(c), f = th > 1e-12 ? th / (2 * sin(th)) : 0.5;
    d[0] = f * (A[7] - A[5]);
    d[1] = f * (A[2] - A[6]);
    d[2] = f * (A[3] - A[1]);
}

static void matmul3(const double *A, const double *B, double *C)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}

/* the steady rolling's post-impact rate in closed form */
static double steady_rate(double gamma)
{
    double a = M_PI / N_SPOKES, J = I_AXLE + 1;
    double c = (I_AXLE + cos(2 * a)) / J, K = 4 * GRAV * sin(a) * sin(gamma) / J;
    return sqrt(c * c * K / (1 - c * c));
}

/* the revolution map's multipliers by central differences, by modulus */
static void independent_multipliers(double gamma, double *mod)
{
    double a = M_PI / N_SPOKES;
    body b0 = { { cos(a), 0, -sin(a), 0, 1, 0, sin(a), 0, cos(a) },
                { 0, steady_rate(gamma), 0 } };   /* turned by -a about y */
    body b = b0;
    revolution(&b, gamma);
    double back[3];
    logm(b0.R, b.R, back);
    for (int k = 0; k < 3; k++) {
        ck_assert_msg(fabs(back[k]) < 1e-9, "the orbit returns to %g", back[k]);
        ck_assert_msg(fabs(b.w[k] - b0.w[k]) < 1e-9, "the rate returns to %g", b.w[k] - b0.w[k]);
    }
    double J[36], wr[6], wi[6];
    const double eps = 1e-7;
    for (int col = 0; col < 6; col++) {
        double out[2][6];
        for (int side = 0; side < 2; side++) {
            double dl[3] = { 0, 0, 0 }, E[9];
            b = b0;
            if (col < 3)
                dl[col] = side ? -eps : eps;
            else
                b.w[col - 3] += side ? -eps : eps;
            expo(dl, E);
            matmul3(b0.R, E, b.R);
            revolution(&b, gamma);
            logm(b0.R, b.R, out[side]);
            memcpy(out[side] + 3, b.w, sizeof b.w);
        }
        for (int row = 0; row < 6; row++)
            J[row + 6 * col] = (out[0][row] - out[1][row]) / (2 * eps);
    }
    ck_assert_int_eq(LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'N', 6, J, 6, wr, wi, NULL, 1, NULL, 1),
                     0);
    for (int k = 0; k < 6; k++)
        mod[k] = hypot(wr[k], wi[k]);
    for (int i = 0; i < 6; i++)     /* descending */
        for (int j = i + 1; j < 6; j++)
            if (mod[j] > mod[i]) {
                double t = mod[i];
                mod[i] = mod[j], mod[j] = t;
            }
}

START_TEST(test_steady_rolling_against_closed_form_and_rigid_body)
{
    hes_system *sys = wheel_system();
    hes_analysis a;
    ck_assert_msg(hes_analyze(sys, 1, &a) == HES_OK, "%s", hes_system_errmsg(sys));
    /* the state: upright on the landed spoke, rolling at the planar rate */
    double a2 = M_PI / N_SPOKES, w = steady_rate(SLOPE);
    const double want[13] = { -sin(a2), 0, cos(a2), cos(a2 / 2), 0, -sin(a2 / 2), 0,
                              w * cos(a2), 0, w * sin(a2), 0, w, 0 };
    for (int i = 0; i < 13; i++)
        ck_assert_msg(fabs(a.orbit.x0[i] - want[i]) < 1e-9, "x0[%d] = %.12g, closed form %.12g",
                      i, a.orbit.x0[i], want[i]);
    /* the multipliers: of the quotient by x and y, then 5 nontrivial */
    ck_assert_int_eq(a.stab.n_symmetric, 2);
    ck_assert_int_eq(a.stab.n_mult, 5);
    double c = (I_AXLE + cos(2 * a2)) / (I_AXLE + 1), planar = pow(c, 2 * N_SPOKES);
    double mod[6];
    independent_multipliers(SLOPE, mod);
    int found_planar = 0;
    double worst = 0;
    for (int k = 0; k < 5; k++) {
        double m = hypot(a.stab.re[k], a.stab.im[k]);
        worst = fmax(worst, fabs(m - mod[k]));
        ck_assert_msg(fabs(m - mod[k]) < 1e-6, "multiplier %d: |.| %.12g, rigid body %.12g", k,
                      m, mod[k]);
        found_planar |= fabs(m - planar) < 1e-9;
    }
    printf("wheel3d: |lambda| %.10f %.10f %.10f %.10f %.10f; rigid body within %.2g; "
           "planar %.12g\n", hypot(a.stab.re[0], a.stab.im[0]), hypot(a.stab.re[1], a.stab.im[1]),
           hypot(a.stab.re[2], a.stab.im[2]), hypot(a.stab.re[3], a.stab.im[3]),
           hypot(a.stab.re[4], a.stab.im[4]), worst, planar);
    ck_assert_msg(mod[5] < 1e-6, "the rigid body's section multiplier %g", mod[5]);
    ck_assert_msg(found_planar, "no multiplier is the planar %.12g", planar);
    /* a family of steady rollings (the heading): one multiplier 1, the
     * others inside the unit circle; so psi is 1 and the verdict marginal */
    double m0 = hypot(a.stab.re[0], a.stab.im[0]), m1 = hypot(a.stab.re[1], a.stab.im[1]);
    ck_assert_msg(fabs(m0 - 1) < 1e-7 && m1 < 0.6, "|lambda| %.12g, %.12g", m0, m1);
    ck_assert_int_eq(a.stab.verdict, HES_MARGINAL);
    ck_assert_msg(a.have_check && a.check_max_abs_diff < 1e-5, "check %g",
                  a.check_max_abs_diff);
    hes_analysis_free(&a);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_too_small_a_slope_falls_over)
{
    hes_system *sys = wheel_system();
    ck_assert_int_eq(hes_system_set_param(sys, "slope", 0.1), HES_OK);
    /* from the planar steady rolling there, its rate 2 % off */
    double a2 = M_PI / N_SPOKES, w = 1.02 * steady_rate(0.1);
    const double start[13] = { -sin(a2), 0, cos(a2), cos(a2 / 2), 0, -sin(a2 / 2), 0,
                               w * cos(a2), 0, w * sin(a2), 0, w, 0 };
    ck_assert_int_eq(hes_system_set_orbit_start(sys, start), HES_OK);
    hes_analysis a;
    ck_assert_msg(hes_analyze(sys, 0, &a) == HES_OK, "%s", hes_system_errmsg(sys));
    double mod[6];
    independent_multipliers(0.1, mod);
    ck_assert_msg(a.stab.verdict == HES_UNSTABLE && a.stab.psi > 1e3, "psi %g", a.stab.psi);
    ck_assert_msg(fabs(a.stab.psi / mod[0] - 1) < 1e-4, "psi %.12g, rigid body %.12g", a.stab.psi,
                  mod[0]);
    hes_analysis_free(&a);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_continued_in_slope_against_the_rigid_body)
{
    hes_system *sys = wheel_system();
    hes_continuation_options o;
    hes_continuation_options_init(&o);
    o.step = o.max_step = 0.01;
    hes_continuation c;
    hes_error err;
    hes_status st = hes_continue(sys, "slope", 0.2, 0.17, &o, &c, &err);
    ck_assert_msg(st == HES_OK, "%s", err.message);
    ck_assert_int_eq(c.method, HES_CONT_NATURAL);
    ck_assert_msg(c.reached && c.n_points >= 4, "%d points: %s", c.n_points, c.why);
    int stable = 0, unstable = 0;
    for (int i = 0; i < c.n_points; i++) {
        const hes_continuation_point *pt = &c.points[i];
        if (pt->label == HES_LABEL_BP)
            continue;        /* at the crossing: its multipliers meet 1 there */
        const double *q = pt->x0 + 3;
        double norm = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        ck_assert_msg(fabs(norm - 1) < 1e-12, "point %d: |q| - 1 = %g", i, norm - 1);
        double mod[6];
        independent_multipliers(pt->value, mod);
        ck_assert_int_eq(pt->n_mult, 5);
        double want[5], got[5];
        for (int k = 0; k < 5; k++)
            want[k] = mod[k], got[k] = hypot(pt->re[k], pt->im[k]);
        for (int k = 0; k < 5; k++)
            for (int j = k + 1; j < 5; j++)
                if (got[j] > got[k]) {
                    double t = got[k];
                    got[k] = got[j], got[j] = t;
                }
        for (int k = 0; k < 5; k++)
            ck_assert_msg(fabs(got[k] - want[k]) < 1e-6 * fmax(1, want[k]), "slope %.10g: "
                          "|lambda_%d| %.12g, rigid body %.12g", pt->value, k, got[k], want[k]);
        /* beside the heading's 1: the largest other modulus */
        double other = fabs(want[0] - 1) < 1e-6 ? want[1] : want[0];
        stable += other < 1;
        unstable += other > 1;
        printf("wheel3d continued: slope %.4f psi %.9f, largest other |lambda| %.6f (rigid "
               "body %.6f)\n", pt->value, pt->psi, fabs(got[0] - 1) < 1e-6 ? got[1] : got[0],
               other);
    }
    /* stable (beside the heading) at 0.2, unstable by 0.17 */
    ck_assert_msg(stable > 0 && unstable > 0, "%d stable, %d unstable points", stable, unstable);
    /* where: the rigid body's largest multiplier beside the heading's
       reaches 1, by bisection; the branch labels it a +1 crossing (a
       branch point: the family's 1 is not taken for it) */
    double lo = 0.18, hi = 0.19;
    for (int it = 0; it < 40; it++) {
        double mid = 0.5 * (lo + hi), mod[6];
        independent_multipliers(mid, mod);
        double beside = fabs(mod[0] - 1) < fabs(mod[1] - 1) ? mod[1] : mod[0];
        if (beside > 1)
            lo = mid;
        else
            hi = mid;
    }
    int found = -1;
    for (int i = 0; i < c.n_points; i++)
        if (c.points[i].label == HES_LABEL_BP || c.points[i].label == HES_LABEL_SN)
            found = found < 0 ? i : -2;
    ck_assert_msg(found >= 0, "one +1 crossing expected (found %d)", found);
    const hes_continuation_point *bp = &c.points[found];
    printf("wheel3d continued: the +1 crossing at slope %.10f (%s), the rigid body's %.10f\n",
           bp->value, hes_label_name(bp->label), 0.5 * (lo + hi));
    ck_assert_int_eq(bp->label, HES_LABEL_BP);
    ck_assert_int_eq(bp->crossing, HES_CROSS_PLUS_ONE);
    ck_assert_msg(fabs(bp->value - 0.5 * (lo + hi)) < 1e-6, "crossing at %.10g, rigid body %.10g",
                  bp->value, 0.5 * (lo + hi));
    hes_continuation_free(&c);
    /* pseudo-arclength steps are refused, saying why */
    o.method = HES_CONT_ARCLENGTH;
    st = hes_continue(sys, "slope", 0.2, 0.19, &o, &c, &err);
    ck_assert_int_eq(st, HES_EINVAL);
    ck_assert_msg(strstr(err.message, "natural steps") && strstr(err.message, "on0"), "%s",
                  err.message);
    hes_system_destroy(sys);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("robot_wheel3d");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, load, unload);
    tcase_set_timeout(tc, 1200);
    tcase_add_test(tc, test_steady_rolling_against_closed_form_and_rigid_body);
    tcase_add_test(tc, test_too_small_a_slope_falls_over);
    tcase_add_test(tc, test_continued_in_slope_against_the_rigid_body);
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
