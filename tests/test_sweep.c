/*
 * test_sweep.c - batch analysis (hes_sweep_run): the verdict and psi of
 * every point, one row per point whatever the number of threads, skipped
 * points, a callback that stops the sweep, a point that fails, the options
 * it refuses; and Latin hypercube samples (hes_latin_hypercube).
 *
 * Independent computations: the paddle juggler's closed form (paper Sec.
 * IV-A): Phi = A Xi A with A = [[1, T/2], [0, 1]] and Xi of eq. 9, psi its
 * spectral radius from the quadratic formula, stable exactly on
 * -2 g (1 + alpha^2) / (1 + alpha)^2 < paddle_accel < 0 (eq. 10; -10.9 < a
 * < 0 at the defaults alpha = 0.5, g = 9.81, T = 0.5); the same sweep on one
 * thread (the rows of a point do not depend on the thread that computed
 * it); and the definition of a Latin hypercube (each coordinate takes each
 * of the n strata [lo + i w, lo + (i + 1) w) exactly once).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

enum { J_ALPHA, J_G, J_T, J_ACC, J_NPARAMS };

static const hes_model *juggler(void)
{
    const hes_model *m = hes_problem_find("paddle-juggler");
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(m->n_params, J_NPARAMS);
    ck_assert_int_eq(hes_model_param_index(m, "paddle_accel"), J_ACC);
    ck_assert_int_eq(hes_model_param_index(m, "alpha"), J_ALPHA);
    return m;
}

/* psi of the closed form Phi = A Xi A at the defaults and paddle_accel a. */
static double closed_form_psi(double a)
{
    const double alpha = 0.5, g = 9.81, T = 0.5;
    double vP = g * T * (1 - alpha) / (2 * (1 + alpha)), vB = -g * T / 2;
    double c = (1 + alpha) * (a + g) / (vP - vB), s = T / 2;
    /* A Xi A with Xi = [[-alpha, 0], [c, -alpha]], A = [[1, s], [0, 1]] */
    double m00 = -alpha + s * c, m01 = -alpha * s + s * (c * s - alpha);
    double m10 = c, m11 = c * s - alpha;
    double tr = m00 + m11, det = m00 * m11 - m01 * m10, disc = tr * tr - 4 * det;
    if (disc < 0)
        return sqrt(det);
    return fmax(fabs(tr + sqrt(disc)), fabs(tr - sqrt(disc))) / 2;
}

/* Rows collected by index (the callback runs serialised). */
typedef struct {
    int n, calls, stop_after;
    int count[64];
    hes_sweep_row rows[64];
} collect;

static int collect_row(void *ctx, const hes_sweep_row *row)
{
    collect *c = ctx;
    c->calls++;
    ck_assert_int_ge(row->index, 0);
    ck_assert_int_lt(row->index, c->n);
    c->count[row->index]++;
    c->rows[row->index] = *row;
    return c->stop_after > 0 && c->calls >= c->stop_after;
}

static hes_sweep_options juggler_opts(const int *param, int n, const double *values, collect *c)
{
    hes_sweep_options o;
    memset(&o, 0, sizeof o);
    o.n_params = 1;
    o.params = param;
    o.n_points = n;
    o.values = values;
    o.jobs = 1;
    o.row = collect_row;
    o.ctx = c;
    memset(c, 0, sizeof *c);
    c->n = n;
    return o;
}

START_TEST(test_juggler_sweep_verdicts_follow_the_closed_form_stable_interval)
{
    const hes_model *m = juggler();
    const int param[1] = { J_ACC };
    /* either side of both ends -10.9 and 0, and inside */
    const double a[8] = { -14.0, -11.5, -10.3, -7.0, -5.45, -2.0, -0.5, 1.0 };
    const int stable[8] = { 0, 0, 1, 1, 1, 1, 1, 0 };
    collect c;
    hes_sweep_options o = juggler_opts(param, 8, a, &c);
    ck_assert_int_eq(hes_sweep_run(m, NULL, &o, NULL), HES_OK);
    for (int i = 0; i < 8; i++) {
        const hes_sweep_row *r = &c.rows[i];
        ck_assert_msg(r->status == HES_OK, "a = %g: %s", a[i], r->message);
        ck_assert_msg(r->stable == stable[i], "a = %g: stable %d, closed form %d", a[i],
                      r->stable, stable[i]);
        ck_assert_int_eq(r->verdict, stable[i] ? HES_STABLE : HES_UNSTABLE);
        /* psi of a 2 x 2 product of closed-form factors; the pipeline's
         * matrix is accurate to ~1e-10 (integration at 1e-12, Newton at
         * 1e-10), its spectral radius as well away from a double root */
        ck_assert_msg(fabs(r->psi - closed_form_psi(a[i])) < 1e-8, "a = %g: psi %.15g, closed form %.15g",
                      a[i], r->psi, closed_form_psi(a[i]));
        ck_assert_double_eq_tol(r->period, 0.5, 1e-12);
        ck_assert_int_eq(r->n_mult, 2); /* non-autonomous: both multipliers */
        ck_assert_double_eq_tol(hypot(r->re[0], r->im[0]), r->psi, 1e-12);
        ck_assert_int_eq(r->n_values, J_NPARAMS);
        ck_assert_double_eq(r->values[J_ACC], a[i]);
        ck_assert_double_eq(r->values[J_ALPHA], 0.5); /* the base: the defaults */
    }
}
END_TEST

/* The base parameter vector replaces the defaults: at alpha = 0.2 the
 * stable interval is (-2 g 1.04 / 1.44, 0) = (-14.17, 0). */
START_TEST(test_base_parameters_move_the_stable_interval)
{
    const hes_model *m = juggler();
    const int param[1] = { J_ACC };
    const double a[2] = { -13.5, -14.8 };
    double base[J_NPARAMS] = { 0.2, 9.81, 0.5, -5.45 };
    collect c;
    hes_sweep_options o = juggler_opts(param, 2, a, &c);
    ck_assert_int_eq(hes_sweep_run(m, base, &o, NULL), HES_OK);
    ck_assert_int_eq(c.rows[0].status, HES_OK);
    ck_assert_int_eq(c.rows[1].status, HES_OK);
    ck_assert_int_eq(c.rows[0].stable, 1); /* unstable at alpha = 0.5 */
    ck_assert_int_eq(c.rows[1].stable, 0);
    ck_assert_double_eq(c.rows[0].values[J_ALPHA], 0.2);
}
END_TEST

#define NP 22

static void grid(double *a)
{
    for (int i = 0; i < NP; i++)
        a[i] = -13.0 + 14.0 * i / (NP - 1);
}

START_TEST(test_three_threads_give_every_point_one_row_bitwise_as_one_thread)
{
    const hes_model *m = juggler();
    const int param[1] = { J_ACC };
    double a[NP];
    grid(a);
    static collect one, three;
    hes_sweep_options o = juggler_opts(param, NP, a, &one);
    ck_assert_int_eq(hes_sweep_run(m, NULL, &o, NULL), HES_OK);
    o = juggler_opts(param, NP, a, &three);
    o.jobs = 3;
    ck_assert_int_eq(hes_sweep_run(m, NULL, &o, NULL), HES_OK);
    ck_assert_int_eq(one.calls, NP);
    ck_assert_int_eq(three.calls, NP);
    for (int i = 0; i < NP; i++) {
        ck_assert_int_eq(one.count[i], 1);
        ck_assert_int_eq(three.count[i], 1);
        const hes_sweep_row *x = &one.rows[i], *y = &three.rows[i];
        ck_assert_int_eq(x->status, HES_OK);
        ck_assert_int_eq(y->status, HES_OK);
        /* each point starts from the same warm start (its block's previous
         * point, blocks of consecutive indices): the same arithmetic */
        ck_assert_msg(memcmp(&x->psi, &y->psi, sizeof x->psi) == 0 &&
                          memcmp(x->re, y->re, sizeof x->re) == 0 &&
                          memcmp(x->im, y->im, sizeof x->im) == 0 &&
                          memcmp(&x->period, &y->period, sizeof x->period) == 0,
                      "point %d: psi %.17g on one thread, %.17g on three", i, x->psi, y->psi);
        ck_assert_int_eq(x->verdict, y->verdict);
    }
}
END_TEST

START_TEST(test_skipped_points_get_no_row)
{
    const hes_model *m = juggler();
    const int param[1] = { J_ACC };
    double a[NP];
    grid(a);
    unsigned char skip[NP] = { 0 };
    int kept = 0;
    for (int i = 0; i < NP; i++) {
        skip[i] = i % 3 == 1;
        kept += !skip[i];
    }
    static collect c;
    hes_sweep_options o = juggler_opts(param, NP, a, &c);
    o.skip = skip;
    o.jobs = 2;
    ck_assert_int_eq(hes_sweep_run(m, NULL, &o, NULL), HES_OK);
    ck_assert_int_eq(c.calls, kept);
    for (int i = 0; i < NP; i++)
        ck_assert_int_eq(c.count[i], skip[i] ? 0 : 1);
}
END_TEST

START_TEST(test_row_callback_returning_nonzero_stops_the_sweep)
{
    const hes_model *m = juggler();
    const int param[1] = { J_ACC };
    double a[NP];
    grid(a);
    static collect c;
    hes_sweep_options o = juggler_opts(param, NP, a, &c);
    c.stop_after = 3;
    ck_assert_int_eq(hes_sweep_run(m, NULL, &o, NULL), HES_EINVAL);
    ck_assert_int_eq(c.calls, 3); /* one thread: not one point more */
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(c.count[i], 1);
}
END_TEST

/* A point whose value the model refuses (alpha = 2 > 1) and one without a
 * period-1 orbit (paddle_accel = 60: the paddle rises through the ball's
 * flight) fail with their status and a message; the others go on. */
START_TEST(test_failing_points_report_status_and_message_and_the_sweep_goes_on)
{
    const hes_model *m = juggler();
    const int param[2] = { J_ALPHA, J_ACC };
    const double v[3 * 2] = { 0.5, -5.45, 2.0, -5.45, 0.5, 60.0 };
    collect c;
    hes_sweep_options o = juggler_opts(param, 3, v, &c);
    o.n_params = 2;
    ck_assert_int_eq(hes_sweep_run(m, NULL, &o, NULL), HES_OK);
    ck_assert_int_eq(c.calls, 3);
    ck_assert_int_eq(c.rows[0].status, HES_OK);
    ck_assert_str_eq(c.rows[0].message, "");
    ck_assert_int_eq(c.rows[1].status, HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(c.rows[1].message, "alpha"));
    ck_assert(isnan(c.rows[1].psi));
    ck_assert_int_eq(c.rows[1].stable, 0);
    ck_assert_int_eq(c.rows[2].status, HES_ENOORBIT);
    ck_assert_ptr_nonnull(strstr(c.rows[2].message, hes_strerror(HES_ENOORBIT)));
    ck_assert(isnan(c.rows[2].psi));
}
END_TEST

START_TEST(test_bad_sweep_options_are_refused)
{
    const hes_model *m = juggler();
    const int param[1] = { J_ACC }, bad_low[1] = { -1 }, bad_high[1] = { J_NPARAMS };
    const double a[2] = { -5.0, -6.0 };
    collect c;
    hes_sweep_options good = juggler_opts(param, 2, a, &c), o;
    o = good; o.n_points = -1;
    ck_assert_int_eq(hes_sweep_run(m, NULL, &o, NULL), HES_EINVAL);
    o = good; o.n_params = -1;
    ck_assert_int_eq(hes_sweep_run(m, NULL, &o, NULL), HES_EINVAL);
    o = good; o.jobs = 0;
    ck_assert_int_eq(hes_sweep_run(m, NULL, &o, NULL), HES_EINVAL);
    o = good; o.jobs = 1025;
    ck_assert_int_eq(hes_sweep_run(m, NULL, &o, NULL), HES_EINVAL);
    o = good; o.values = NULL;
    ck_assert_int_eq(hes_sweep_run(m, NULL, &o, NULL), HES_EINVAL);
    o = good; o.params = bad_low;
    ck_assert_int_eq(hes_sweep_run(m, NULL, &o, NULL), HES_EINVAL);
    o = good; o.params = bad_high;
    ck_assert_int_eq(hes_sweep_run(m, NULL, &o, NULL), HES_EINVAL);
    o = good; o.params = NULL;
    ck_assert_int_eq(hes_sweep_run(m, NULL, &o, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_sweep_run(m, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_sweep_run(NULL, NULL, &good, NULL), HES_EINVAL);
    ck_assert_int_eq(c.calls, 0); /* nothing ran */
    /* control: the same options are accepted */
    ck_assert_int_eq(hes_sweep_run(m, NULL, &good, NULL), HES_OK);
    ck_assert_int_eq(c.calls, 2);
}
END_TEST

/* --------------------------------------------------- Latin hypercube */

START_TEST(test_latin_hypercube_puts_one_point_in_each_stratum_of_each_coordinate)
{
    enum { N = 50, D = 3 };
    const double lo[D] = { -1.0, 0.0, 10.0 }, hi[D] = { 1.0, 1e-3, 30.0 };
    double x[N * D];
    ck_assert_int_eq(hes_latin_hypercube(N, D, lo, hi, 12345, x), HES_OK);
    for (int j = 0; j < D; j++) {
        int seen[N] = { 0 };
        double w = (hi[j] - lo[j]) / N;
        for (int i = 0; i < N; i++) {
            double v = x[i * D + j];
            ck_assert(v >= lo[j] && v <= hi[j]);
            int s = (int)floor((v - lo[j]) / w);
            if (s == N)
                s = N - 1;
            seen[s]++;
        }
        for (int s = 0; s < N; s++)
            ck_assert_msg(seen[s] == 1, "coordinate %d stratum %d has %d points", j, s, seen[s]);
    }
}
END_TEST

START_TEST(test_latin_hypercube_is_determined_by_its_seed)
{
    enum { N = 20, D = 2 };
    const double lo[D] = { 0, 0 }, hi[D] = { 1, 1 };
    double a[N * D], b[N * D], c[N * D];
    ck_assert_int_eq(hes_latin_hypercube(N, D, lo, hi, 7, a), HES_OK);
    ck_assert_int_eq(hes_latin_hypercube(N, D, lo, hi, 7, b), HES_OK);
    ck_assert_int_eq(hes_latin_hypercube(N, D, lo, hi, 8, c), HES_OK);
    ck_assert_int_eq(memcmp(a, b, sizeof a), 0);
    ck_assert_int_ne(memcmp(a, c, sizeof a), 0);
}
END_TEST

START_TEST(test_latin_hypercube_refuses_bad_arguments)
{
    const double lo[1] = { 0 }, hi[1] = { 1 };
    double x[4];
    ck_assert_int_eq(hes_latin_hypercube(0, 1, lo, hi, 1, x), HES_EINVAL);
    ck_assert_int_eq(hes_latin_hypercube(4, 0, lo, hi, 1, x), HES_EINVAL);
    ck_assert_int_eq(hes_latin_hypercube(4, 1, NULL, hi, 1, x), HES_EINVAL);
    ck_assert_int_eq(hes_latin_hypercube(4, 1, lo, NULL, 1, x), HES_EINVAL);
    ck_assert_int_eq(hes_latin_hypercube(4, 1, lo, hi, 1, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_latin_hypercube(4, 1, lo, hi, 1, x), HES_OK);
}
END_TEST

/* The value of parameter j at step k of a three-point line around its
 * default (a relative step of 2e-3, inside its range). */
static double line_value(const hes_param *q, int k)
{
    double h = 2e-3 * fmax(fabs(q->value), 1e-2), v = q->value + (k - 1) * h;
    if (q->value + h > q->max)
        v = q->value - (2 - k) * h; /* the line ends at the top of the range */
    if (q->value - h < q->min)
        v = q->value + k * h;
    return v;
}

/* A sweep over each parameter of each built-in problem that has an orbit,
 * three points a line (warm-started from each other, on two threads), gives
 * at every point what a fresh system analysing that point alone gives: the
 * warm start seeds only what Newton solves, never what the point's
 * parameters define (an apex height, a speed). */
START_TEST(test_sweep_over_each_parameter_of_each_problem_equals_each_point_analysed_alone)
{
    int compared = 0;
    for (int pi = 0; pi < hes_problem_count(); pi++) {
        const hes_model *m = hes_problem_get(pi);
        if (!m->orbit.guess)
            continue;
        for (int j = 0; j < m->n_params; j++) {
            const hes_param *q = &m->params[j];
            if (q->flags & HES_PARAM_SOLVED) /* found, not set */
                continue;
            double v[3];
            for (int k = 0; k < 3; k++)
                v[k] = line_value(q, k);
            static collect c;
            hes_sweep_options o = juggler_opts(&j, 3, v, &c);
            o.jobs = 2;
            ck_assert_int_eq(hes_sweep_run(m, NULL, &o, NULL), HES_OK);
            for (int k = 0; k < 3; k++) {
                hes_system *sys = test_system_of(m);
                hes_analysis an;
                ck_assert_ptr_nonnull(sys);
                ck_assert_int_eq(hes_system_set_param(sys, q->name, v[k]), HES_OK);
                hes_status st = hes_analyze(sys, 0, &an);
                const hes_sweep_row *row = &c.rows[k];
                ck_assert_msg(row->status == st, "%s, %s = %.17g: the sweep's status %s, "
                              "alone %s", m->name, q->name, v[k], hes_strerror(row->status),
                              hes_strerror(st));
                if (st == HES_OK) {
                    ck_assert_msg(fabs(row->psi - an.stab.psi) <= 1e-9 * fmax(1, an.stab.psi) &&
                                      fabs(row->period - an.orbit.period) <= 1e-9 * an.orbit.period,
                                  "%s, %s = %.17g: psi %.17g period %.17g in the sweep, "
                                  "%.17g and %.17g alone", m->name, q->name, v[k], row->psi,
                                  row->period, an.stab.psi, an.orbit.period);
                    for (int i = 0; i < an.orbit.n && i < HES_SWEEP_MAX_STATE; i++)
                        ck_assert_msg(fabs(row->x0[i] - an.orbit.x0[i]) <=
                                          1e-7 * fmax(1, fabs(an.orbit.x0[i])),
                                      "%s, %s = %.17g: x0[%d] %.17g in the sweep, %.17g alone",
                                      m->name, q->name, v[k], i, row->x0[i], an.orbit.x0[i]);
                    hes_analysis_free(&an);
                    compared++;
                }
                hes_system_destroy(sys);
            }
        }
    }
    ck_assert_int_ge(compared, 60); /* juggler 4, SLIP 9, twin 6, biped: every point */
}
END_TEST

/* With --optimize, each point's shape optimum is the one the point gives
 * alone: the warm start never carries the neighbour's apex height into the
 * shape check ("'K' is not a shape parameter: it sets the section state"). */
START_TEST(test_optimizing_sweep_over_the_apex_height_equals_each_point_optimised_alone)
{
    const hes_model *m = hes_problem_find("slip-hopper");
    ck_assert_ptr_nonnull(m);
    int j = hes_model_param_index(m, "apex_height");
    double v[3] = { 2.4, 2.5, 2.6 };
    static collect c;
    hes_sweep_options o = juggler_opts(&j, 3, v, &c);
    o.optimize = 1;
    ck_assert_int_eq(hes_sweep_run(m, NULL, &o, NULL), HES_OK);
    for (int k = 0; k < 3; k++) {
        hes_system *sys = test_system_of(m);
        ck_assert_int_eq(hes_system_set_param(sys, "apex_height", v[k]), HES_OK);
        hes_shape_options so;
        hes_shape_options_init(&so);
        hes_shape_result sr;
        ck_assert_msg(hes_shape_optimize(sys, &so, &sr) == HES_OK, "%s", hes_system_errmsg(sys));
        ck_assert_msg(c.rows[k].status == HES_OK, "point %d: %s", k, c.rows[k].message);
        ck_assert_msg(fabs(c.rows[k].psi - sr.psi) <= 1e-9 * sr.psi,
                      "apex_height %g: psi %.17g optimised in the sweep, %.17g alone", v[k],
                      c.rows[k].psi, sr.psi);
        hes_shape_result_free(&sr);
        hes_system_destroy(sys);
    }
}
END_TEST

/* Rows come in the order of their points on any number of threads. */
static int in_order_row(void *ctx, const hes_sweep_row *row)
{
    collect *c = ctx;
    ck_assert_int_eq(row->index, c->calls);
    return collect_row(ctx, row);
}

START_TEST(test_rows_come_in_index_order_on_three_threads)
{
    const hes_model *m = juggler();
    const int param[1] = { J_ACC };
    double a[NP];
    grid(a);
    static collect c;
    hes_sweep_options o = juggler_opts(param, NP, a, &c);
    o.jobs = 3;
    o.row = in_order_row;
    ck_assert_int_eq(hes_sweep_run(m, NULL, &o, NULL), HES_OK);
    ck_assert_int_eq(c.calls, NP);
}
END_TEST

/* The branch-jump rule on hand-made rows: a step three times the one
 * before is a jump, a smooth line and the point after the jump are not,
 * unequal spacing is never judged. */
START_TEST(test_branch_jump_flags_the_step_the_spacing_does_not_explain)
{
    hes_sweep_row a, b, c;
    memset(&a, 0, sizeof a);
    a.n_x0 = 2;
    b = c = a;
    double pa = 0.0150, pb = 0.0151, pc = 0.0152, pd = 0.0155;
    a.period = 3.9120; b.period = 3.9125; c.period = 3.9130;
    ck_assert_int_eq(hes_sweep_branch_jump(1, &pa, &pb, &pc, &a, &b, &c), 0);
    c.period = 3.07; /* another orbit */
    ck_assert_int_eq(hes_sweep_branch_jump(1, &pa, &pb, &pc, &a, &b, &c), 1);
    ck_assert_int_eq(hes_sweep_branch_jump(1, &pa, &pb, &pd, &a, &b, &c), 0);
    hes_sweep_row d = c; /* after the jump: a small step */
    d.period = 3.0705;
    double pe = 0.0153;
    ck_assert_int_eq(hes_sweep_branch_jump(1, &pb, &pc, &pe, &b, &c, &d), 0);
    c.period = 3.9130;
    c.x0[1] = 0.5; /* the section state jumps, the period does not */
    ck_assert_int_eq(hes_sweep_branch_jump(1, &pa, &pb, &pc, &a, &b, &c), 1);
    c.x0[1] = 0;
    c.status = HES_ENOORBIT;
    ck_assert_int_eq(hes_sweep_branch_jump(1, &pa, &pb, &pc, &a, &b, &c), 0);
}
END_TEST

static Suite *sweep_suite(void)
{
    Suite *s = suite_create("sweep");
    TCase *jug = tcase_create("juggler");
    tcase_set_timeout(jug, 120);
    tcase_add_test(jug, test_juggler_sweep_verdicts_follow_the_closed_form_stable_interval);
    tcase_add_test(jug, test_base_parameters_move_the_stable_interval);
    tcase_add_test(jug, test_three_threads_give_every_point_one_row_bitwise_as_one_thread);
    tcase_add_test(jug, test_skipped_points_get_no_row);
    tcase_add_test(jug, test_row_callback_returning_nonzero_stops_the_sweep);
    tcase_add_test(jug, test_failing_points_report_status_and_message_and_the_sweep_goes_on);
    tcase_add_test(jug, test_bad_sweep_options_are_refused);
    tcase_add_test(jug, test_rows_come_in_index_order_on_three_threads);
    tcase_add_test(jug, test_optimizing_sweep_over_the_apex_height_equals_each_point_optimised_alone);
    tcase_add_test(jug, test_branch_jump_flags_the_step_the_spacing_does_not_explain);
    tcase_add_test(jug, test_sweep_over_each_parameter_of_each_problem_equals_each_point_analysed_alone);
    suite_add_tcase(s, jug);
    TCase *lhs = tcase_create("latin hypercube");
    tcase_add_test(lhs, test_latin_hypercube_puts_one_point_in_each_stratum_of_each_coordinate);
    tcase_add_test(lhs, test_latin_hypercube_is_determined_by_its_seed);
    tcase_add_test(lhs, test_latin_hypercube_refuses_bad_arguments);
    suite_add_tcase(s, lhs);
    return s;
}

int main(void)
{
    return test_run_suite(sweep_suite());
}
