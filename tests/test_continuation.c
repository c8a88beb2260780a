/*
 * test_continuation.c - hes_continue follows an orbit along a parameter and
 * finds where its stability changes, checked against closed forms and a
 * published number: the paddle juggler's stable interval of the HES paper's
 * eq. 10, -2 g (1 + alpha^2) / (1 + alpha)^2 < aP < 0, with a multiplier -1
 * at its lower end and +1 at its upper end (its orbit does not depend on
 * aP, so the +1 is an exchange of stability, not a fold); the simplest
 * walker's period doubling between gamma = 0.01505 and 0.0151 (Garcia et
 * al. 1998, Fig. 4), followed along its long-period gait from gamma =
 * 0.009; an event-selected system's branch on the same path; a branch that
 * reaches the edge of its parameter's range ends with
 * the reason; bad requests are refused and the system is left as it was.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testmodels.h"
#include "testutil.h"

static hes_system *create(const hes_model *m)
{
    hes_system *sys = test_system_of(m);
    ck_assert_ptr_nonnull(sys);
    return sys;
}

/* The crossings of a branch: how many, the last one's index in *at. */
static int crossings(const hes_continuation *c, int *at)
{
    int n = 0;
    for (int i = 0; i < c->n_points; i++)
        if (c->points[i].crossing != HES_CROSS_NONE)
            n++, *at = i;
    return n;
}

/* Every point agrees with a fresh analysis at its value started from its
 * own state: the branch's points are orbits of the pipeline, not
 * extrapolations.  (Started from the model's guess instead, the walker's
 * analysis at 0.0152 falls onto the short-period gait: psi 4.82, period
 * 3.07; the branch stays on the gait it follows.) */
static void check_points(hes_system *sys, const hes_continuation *c, int stride)
{
    /* the path is strictly monotone: a crossing at a bracket's end labels
       that point rather than repeating it */
    for (int i = 2; i < c->n_points; i++)
        ck_assert_msg((c->points[i].value - c->points[i - 1].value) *
                      (c->points[1].value - c->points[0].value) > 0,
                      "points %d and %d at %.17g and %.17g", i - 1, i, c->points[i - 1].value,
                      c->points[i].value);
    for (int i = 0; i < c->n_points; i += stride) {
        const hes_continuation_point *pt = &c->points[i];
        ck_assert_int_eq(hes_system_set_param(sys, c->param, pt->value), HES_OK);
        ck_assert_int_eq(hes_system_set_orbit_start(sys, pt->x0), HES_OK);
        if (hes_system_kind(sys) == HES_KIND_ESS)
            ck_assert_int_eq(hes_system_set_orbit_period(sys, pt->period), HES_OK);
        hes_analysis a;
        ck_assert_msg(hes_analyze(sys, 0, &a) == HES_OK, "%s", hes_system_errmsg(sys));
        ck_assert_msg(fabs(a.stab.psi - pt->psi) < 1e-8 && fabs(a.orbit.period - pt->period) < 1e-8,
                      "%s = %g: psi %.12g, period %.12g by a fresh analysis, %.12g and %.12g on "
                      "the branch", c->param, pt->value, a.stab.psi, a.orbit.period, pt->psi,
                      pt->period);
        hes_analysis_free(&a);
    }
}

START_TEST(test_juggler_stable_interval_ends_where_eq_10_says_with_their_multipliers)
{
    const hes_model *m = hes_problem_find("paddle-juggler");
    ck_assert_ptr_nonnull(m);
    hes_system *sys = create(m);
    double g = 9.81, alpha = 0.5, lower = -2 * g * (1 + alpha * alpha) / ((1 + alpha) * (1 + alpha));
    hes_continuation up, down;
    hes_error err;
    ck_assert_msg(hes_continue(sys, "paddle_accel", -5.45, 2, NULL, &up, &err) == HES_OK, "%s",
                  err.message);
    ck_assert_msg(hes_continue(sys, "paddle_accel", -5.45, -12, NULL, &down, &err) == HES_OK,
                  "%s", err.message);
    /* the system as it was */
    double v;
    ck_assert_int_eq(hes_system_get_param(sys, "paddle_accel", &v), HES_OK);
    ck_assert_double_eq(v, m->params[3].value);
    int iu = -1, id = -1;
    ck_assert_int_eq(up.reached, 1);
    ck_assert_int_eq(down.reached, 1);
    ck_assert_int_eq(crossings(&up, &iu), 1);
    ck_assert_int_eq(crossings(&down, &id), 1);
    const hes_continuation_point *u = &up.points[iu], *d = &down.points[id];
    ck_assert_msg(fabs(u->value) < 1e-6, "upper end at %.12g, not 0", u->value);
    ck_assert_msg(fabs(d->value - lower) < 1e-6, "lower end at %.12g, not %.12g", d->value, lower);
    ck_assert_int_eq(u->crossing, HES_CROSS_PLUS_ONE);
    ck_assert_int_eq(d->crossing, HES_CROSS_MINUS_ONE);
    ck_assert_msg(fabs(u->psi - 1) < 1e-6 && fabs(d->psi - 1) < 1e-6, "psi %.12g and %.12g at "
                  "the crossings", u->psi, d->psi);
    /* the path is monotone and ends at `to`; the verdicts change only there */
    for (int i = 1; i < up.n_points; i++)
        ck_assert_double_gt(up.points[i].value, up.points[i - 1].value);
    ck_assert_double_eq(up.points[up.n_points - 1].value, 2);
    ck_assert_int_eq(up.points[0].verdict, HES_STABLE);
    ck_assert_int_eq(up.points[up.n_points - 1].verdict, HES_UNSTABLE);
    check_points(sys, &up, 3);
    hes_continuation_free(&up);
    hes_continuation_free(&down);
    hes_continuation_free(&up);   /* a second free does nothing */
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_walker_long_gait_period_doubles_where_garcia_reports)
{
    hes_system *sys = create(&simplest_walker_heelstrike);
    hes_continuation c;
    hes_error err;
    ck_assert_msg(hes_continue(sys, "gamma", 0.009, 0.0152, NULL, &c, &err) == HES_OK, "%s",
                  err.message);
    int at = -1;
    ck_assert_msg(c.reached == 1, "%s", c.why);
    ck_assert_int_eq(crossings(&c, &at), 1);
    const hes_continuation_point *pd = &c.points[at];
    ck_assert_msg(pd->value > 0.01505 && pd->value < 0.0151, "period doubling at %.10g",
                  pd->value);
    ck_assert_int_eq(pd->crossing, HES_CROSS_MINUS_ONE);
    /* every point on the long gait (period near 3.9), none on the short one */
    for (int i = 0; i < c.n_points; i++)
        ck_assert_msg(c.points[i].period > 3.8, "gamma %g: period %g", c.points[i].value,
                      c.points[i].period);
    check_points(sys, &c, 4);
    hes_continuation_free(&c);
    hes_system_destroy(sys);
}
END_TEST

/* An event-selected system on the same path: the pumped hopper over its
 * leg stiffness, whose period shrinks from 0.78 to 0.45 (the branch
 * predicts the period too); every point is an orbit of the pipeline, and
 * the last is the orbit an analysis from the model's guess finds there. */
START_TEST(test_ess_hopper_branch_is_the_pipelines_orbit_at_every_point)
{
    hes_system *sys = NULL;
    hes_error err;
    ck_assert_msg(hes_system_new_ess(hes_ess_problem_find("hopper-pumped"), &sys, &err) == HES_OK,
                  "%s", err.message);
    hes_continuation c;
    ck_assert_msg(hes_continue(sys, "k", 1000, 3000, NULL, &c, &err) == HES_OK, "%s",
                  err.message);
    ck_assert_msg(c.reached == 1, "%s", c.why);
    int at;
    ck_assert_int_eq(crossings(&c, &at), 0);
    check_points(sys, &c, 3);
    ck_assert_int_eq(hes_system_set_param(sys, "k", 3000), HES_OK);
    ck_assert_int_eq(hes_system_set_orbit_start(sys, NULL), HES_OK);
    ck_assert_int_eq(hes_system_set_orbit_period(sys, NAN), HES_OK);
    hes_analysis a;
    ck_assert_msg(hes_analyze(sys, 0, &a) == HES_OK, "%s", hes_system_errmsg(sys));
    const hes_continuation_point *end = &c.points[c.n_points - 1];
    ck_assert_msg(fabs(a.stab.psi - end->psi) < 1e-8 && fabs(a.orbit.period - end->period) < 1e-8,
                  "k = 3000: psi %.10g period %.10g from the guess, %.10g and %.10g on the branch",
                  a.stab.psi, a.orbit.period, end->psi, end->period);
    ck_assert_double_lt(end->period, 0.5);
    hes_analysis_free(&a);
    hes_continuation_free(&c);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_branch_at_the_edge_of_the_range_ends_with_the_reason)
{
    hes_system *sys = create(hes_problem_find("paddle-juggler"));
    hes_continuation c;
    hes_error err;
    /* alpha's range is [0, 1]: the branch cannot go past 1 */
    ck_assert_msg(hes_continue(sys, "alpha", 0.5, 1.5, NULL, &c, &err) == HES_OK, "%s",
                  err.message);
    ck_assert_int_eq(c.reached, 0);
    ck_assert_ptr_nonnull(strstr(c.why, "alpha"));
    ck_assert_double_le(c.points[c.n_points - 1].value, 1.0);
    ck_assert_double_gt(c.points[c.n_points - 1].value, 0.99);
    hes_continuation_free(&c);
    hes_system_destroy(sys);
}
END_TEST

/* The SLIP hopper in its leg-angle gain K: stable between a +1 and a -1
 * crossing (its orbit does not depend on K, a shape parameter), each
 * located where a fresh analysis changes verdict across it. */
START_TEST(test_slip_gain_interval_is_bracketed_by_its_crossings)
{
    hes_system *sys = create(hes_problem_find("slip-hopper"));
    hes_continuation c;
    hes_error err;
    ck_assert_msg(hes_continue(sys, "K", 0, 0.6, NULL, &c, &err) == HES_OK, "%s", err.message);
    ck_assert_msg(c.reached == 1, "%s", c.why);
    int n = 0, at[2];
    for (int i = 0; i < c.n_points; i++)
        if (c.points[i].crossing != HES_CROSS_NONE && n < 2)
            at[n++] = i;
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(c.points[at[0]].crossing, HES_CROSS_PLUS_ONE);
    ck_assert_int_eq(c.points[at[1]].crossing, HES_CROSS_MINUS_ONE);
    /* independently: the verdict on either side of each crossing, 1e-6 away */
    for (int j = 0; j < 2; j++)
        for (int side = -1; side <= 1; side += 2) {
            double v = c.points[at[j]].value + side * 1e-6;
            ck_assert_int_eq(hes_system_set_param(sys, "K", v), HES_OK);
            hes_analysis a;
            ck_assert_msg(hes_analyze(sys, 0, &a) == HES_OK, "%s", hes_system_errmsg(sys));
            int inside = (j == 0) == (side > 0);   /* between the two crossings */
            ck_assert_msg(a.stab.verdict == (inside ? HES_STABLE : HES_UNSTABLE),
                          "K = %.10g: %s", v, hes_verdict_name(a.stab.verdict));
            hes_analysis_free(&a);
        }
    check_points(sys, &c, 2);
    hes_continuation_free(&c);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_bad_requests_are_refused)
{
    hes_system *sys = create(hes_problem_find("slip-hopper"));
    hes_continuation c;
    hes_error err;
    hes_continuation_options o;
    ck_assert_int_eq(hes_continue(sys, "nosuch", 0, 1, NULL, &c, &err), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.message, "nosuch"));
    ck_assert_int_eq(hes_continue(sys, "K", 0.1, 0.1, NULL, &c, &err), HES_EINVAL);
    ck_assert_int_eq(hes_continue(sys, "K", 0.1, NAN, NULL, &c, &err), HES_EINVAL);
    ck_assert_int_eq(hes_continue(sys, "l_td", 0.9, 1.0, NULL, &c, &err), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.message, "solved"));
    hes_continuation_options_init(&o);
    o.step = -1;
    ck_assert_int_eq(hes_continue(sys, "K", 0, 0.2, &o, &c, &err), HES_EINVAL);
    hes_continuation_options_init(&o);
    o.max_points = 1;
    ck_assert_int_eq(hes_continue(sys, "K", 0, 0.2, &o, &c, &err), HES_EINVAL);
    ck_assert_int_eq(c.n_points, 0);
    ck_assert_ptr_null(c.points);
    ck_assert_int_eq(hes_continue(NULL, "K", 0, 1, NULL, &c, NULL), HES_EINVAL);
    ck_assert_str_eq(hes_crossing_name(HES_CROSS_MINUS_ONE), "-1");
    ck_assert_str_eq(hes_crossing_name((hes_crossing)42), "?");
    hes_system_destroy(sys);
}
END_TEST

static Suite *continuation_suite(void)
{
    Suite *s = suite_create("continuation");
    TCase *tc = tcase_create("branches");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_juggler_stable_interval_ends_where_eq_10_says_with_their_multipliers);
    tcase_add_test(tc, test_walker_long_gait_period_doubles_where_garcia_reports);
    tcase_add_test(tc, test_ess_hopper_branch_is_the_pipelines_orbit_at_every_point);
    tcase_add_test(tc, test_slip_gain_interval_is_bracketed_by_its_crossings);
    tcase_add_test(tc, test_branch_at_the_edge_of_the_range_ends_with_the_reason);
    tcase_add_test(tc, test_bad_requests_are_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(continuation_suite());
}
