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
#include "juggler_closed.h"

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
static void check_points_of(hes_system *sys, const hes_continuation *c, int stride,
                            int monotone)
{
    /* the path is strictly monotone: a crossing at a bracket's end labels
       that point rather than repeating it */
    for (int i = 2; monotone && i < c->n_points; i++)
        ck_assert_msg((c->points[i].value - c->points[i - 1].value) *
                      (c->points[1].value - c->points[0].value) > 0,
                      "points %d and %d at %.17g and %.17g", i - 1, i, c->points[i - 1].value,
                      c->points[i].value);
    ck_assert_int_eq(hes_system_set_orbit_returns(sys, c->returns), HES_OK);
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
    ck_assert_int_eq(hes_system_set_orbit_returns(sys, 1), HES_OK);
    ck_assert_int_eq(hes_system_set_orbit_start(sys, NULL), HES_OK);
}

static void check_points(hes_system *sys, const hes_continuation *c, int stride)
{
    check_points_of(sys, c, stride, 1);
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
    /* pseudo-arclength by default (the parameter one more unknown of the
       ESS orbit search), and natural steps on request end at the same orbit */
    ck_assert_int_eq(c.method, HES_CONT_ARCLENGTH);
    hes_continuation_options o;
    hes_continuation_options_init(&o);
    o.method = HES_CONT_NATURAL;
    hes_continuation nat;
    ck_assert_msg(hes_continue(sys, "k", 1000, 3000, &o, &nat, &err) == HES_OK, "%s",
                  err.message);
    ck_assert_int_eq(nat.method, HES_CONT_NATURAL);
    const hes_continuation_point *ne = &nat.points[nat.n_points - 1];
    ck_assert_double_eq(ne->value, 3000);
    ck_assert_msg(fabs(ne->psi - end->psi) < 1e-8 && fabs(ne->period - end->period) < 1e-8,
                  "k = 3000: natural psi %.10g period %.10g, arclength %.10g and %.10g",
                  ne->psi, ne->period, end->psi, end->period);
    hes_continuation_free(&nat);
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

/* The points of a branch with a label: how many, the k-th's index in *at
 * (k from 0; unchanged when there are fewer). */
static int labelled(const hes_continuation *c, hes_label l, int k, int *at)
{
    int n = 0;
    for (int i = 0; i < c->n_points; i++)
        if (c->points[i].label == l && n++ == k)
            *at = i;
    return n;
}

/* Independently of the branch: fresh analyses (orbits of `returns` returns,
 * started from the point's state) at value -+ dv have their real multiplier
 * nearest `target` (+1 or -1) on opposite sides of it; its distance from
 * target at each side is returned in gap[2]. */
static void multiplier_crosses(hes_system *sys, const hes_continuation *c, int at, double dv,
                               double target, double gap[2])
{
    const hes_continuation_point *pt = &c->points[at];
    ck_assert_int_eq(hes_system_set_orbit_returns(sys, c->returns), HES_OK);
    for (int side = 0; side < 2; side++) {
        double v = pt->value + (side ? dv : -dv);
        ck_assert_int_eq(hes_system_set_param(sys, c->param, v), HES_OK);
        ck_assert_int_eq(hes_system_set_orbit_start(sys, pt->x0), HES_OK);
        hes_analysis a;
        ck_assert_msg(hes_analyze(sys, 0, &a) == HES_OK, "%s = %.12g: %s", c->param, v,
                      hes_system_errmsg(sys));
        int best = -1;
        for (int i = 0; i < a.stab.n_mult; i++)
            if (fabs(a.stab.im[i]) < 1e-9 &&
                (best < 0 || fabs(a.stab.re[i] - target) < fabs(a.stab.re[best] - target)))
                best = i;
        ck_assert_int_ge(best, 0);
        gap[side] = a.stab.re[best] - target;
        hes_analysis_free(&a);
    }
    ck_assert_int_eq(hes_system_set_orbit_returns(sys, 1), HES_OK);
    ck_assert_int_eq(hes_system_set_orbit_start(sys, NULL), HES_OK);
    ck_assert_msg(gap[0] * gap[1] < 0, "%s = %.12g: the multiplier nearest %g is %.3g and %.3g "
                  "away on the two sides", c->param, pt->value, target, gap[0], gap[1]);
}

/* The juggler's closed forms (problems/paddle_juggler.c and
 * share/examples/bouncing_ball.c): the period-doubling acceleration, the
 * table speed at impact of a period-1 orbit, the table's frequency. */
static double pd_accel(double alpha, double g)
{
    return -2 * g * (1 + alpha * alpha) / ((1 + alpha) * (1 + alpha));
}

/* The built-in juggler in its shape parameter aP: PD at eq. 10's lower end
 * and a +1 at 0 without a turn (BP), each to 1e-8 relative (absolute at
 * 0); and the PD curve in (alpha, aP) at five restitutions. */
START_TEST(test_juggler_pd_and_bp_to_1e_8_at_five_restitutions)
{
    hes_system *sys = create(hes_problem_find("paddle-juggler"));
    hes_continuation_options o;
    hes_continuation_options_init(&o);
    o.tol = 1e-11;
    static const double alphas[] = { 0.2, 0.35, 0.5, 0.65, 0.8 };
    for (int j = 0; j < 5; j++) {
        ck_assert_int_eq(hes_system_set_param(sys, "alpha", alphas[j]), HES_OK);
        hes_continuation c;
        hes_error err;
        ck_assert_msg(hes_continue(sys, "paddle_accel", -16, 2, &o, &c, &err) == HES_OK, "%s",
                      err.message);
        ck_assert_msg(c.reached, "%s", c.why);
        int pd = -1, bp = -1;
        ck_assert_int_eq(labelled(&c, HES_LABEL_PD, 0, &pd), 1);
        ck_assert_int_eq(labelled(&c, HES_LABEL_BP, 0, &bp), 1);
        ck_assert_int_eq(labelled(&c, HES_LABEL_SN, 0, &bp), 0);
        double want = pd_accel(alphas[j], 9.81);
        ck_assert_msg(fabs(c.points[pd].value - want) < 1e-8 * fabs(want),
                      "alpha %g: PD at %.15g, eq. 10 %.15g", alphas[j], c.points[pd].value, want);
        ck_assert_msg(fabs(c.points[bp].value) < 1e-8, "alpha %g: BP at %.3g", alphas[j],
                      c.points[bp].value);
        ck_assert_int_eq(c.points[pd].crossing, HES_CROSS_MINUS_ONE);
        ck_assert_int_eq(c.points[bp].crossing, HES_CROSS_PLUS_ONE);
        ck_assert_int_eq(c.points[0].label, HES_LABEL_EP);
        ck_assert_int_eq(c.points[c.n_points - 1].label, HES_LABEL_EP);
        hes_continuation_free(&c);
    }
    hes_system_destroy(sys);
}
END_TEST

/* The bouncing ball in the table's amplitude A: the stable orbit followed
 * down meets the saddle in a fold at A = vP* / w (SN, the branch turns and
 * goes on along the saddle), and up it period-doubles where (A w)^2 = vP*^2
 * + (aPD / w)^2; both to 1e-8 relative.  The orbit of two returns born at
 * the PD is followed: every point is an orbit of two returns that is not
 * one of one return, its multipliers' product is alpha^4 (each impact
 * contracts phase-space area by alpha^2, the flight keeps it), and a fresh
 * analysis at its next PD sees a multiplier cross -1. */
START_TEST(test_bouncing_ball_fold_pd_and_period_two_branch)
{
    hes_system *sys = create(&bouncing_ball);
    double g = 9.81, T = 0.5, alpha = 0.5, w = 2 * M_PI / T;
    double vstar = g * T * (1 - alpha) / (2 * (1 + alpha)), apd = pd_accel(alpha, g);
    double fold = vstar / w, pd_at = sqrt(vstar * vstar + apd * apd / (w * w)) / w;
    hes_continuation_options o;
    hes_continuation_options_init(&o);
    o.tol = 1e-12;
    hes_continuation down, up;
    hes_error err;
    ck_assert_msg(hes_continue(sys, "amplitude", 0.08, 0.03, &o, &down, &err) == HES_OK, "%s",
                  err.message);
    int sn = -1;
    ck_assert_int_eq(labelled(&down, HES_LABEL_SN, 0, &sn), 1);
    ck_assert_msg(fabs(down.points[sn].value - fold) < 1e-8 * fold, "fold at %.15g, closed form "
                  "%.15g", down.points[sn].value, fold);
    ck_assert_int_eq(down.points[sn].crossing, HES_CROSS_PLUS_ONE);
    /* past the fold the branch is the saddle: A grows again, psi > 1 */
    ck_assert_int_lt(sn, down.n_points - 2);
    ck_assert_double_gt(down.points[sn + 2].value, down.points[sn].value);
    ck_assert_double_gt(down.points[sn + 2].psi, 1);
    ck_assert_int_eq(down.reached, 0);
    /* a real multiplier below +1 before the fold and above it after */
    ck_assert_double_lt(down.points[sn - 1].psi, 1);
    ck_assert_msg(down.points[sn + 1].im[0] == 0 && down.points[sn + 1].re[0] > 1,
                  "after the fold: %g%+gi", down.points[sn + 1].re[0], down.points[sn + 1].im[0]);
    check_points_of(sys, &down, 1, 0);
    double gap[2];

    ck_assert_msg(hes_continue(sys, "amplitude", 0.08, 0.12, &o, &up, &err) == HES_OK, "%s",
                  err.message);
    int pd = -1;
    ck_assert_int_eq(labelled(&up, HES_LABEL_PD, 0, &pd), 1);
    ck_assert_msg(fabs(up.points[pd].value - pd_at) < 1e-8 * pd_at, "PD at %.15g, closed form "
                  "%.15g", up.points[pd].value, pd_at);
    multiplier_crosses(sys, &up, pd, 1e-7, -1, gap);

    hes_continuation two;
    ck_assert_msg(hes_continue_doubled(sys, &up, pd, 0.12, &o, &two, &err) == HES_OK, "%s",
                  err.message);
    ck_assert_int_eq(two.returns, 2);
    ck_assert_msg(two.reached, "%s", two.why);
    double *half = malloc(sizeof(double) * (size_t)two.n);
    for (int i = 0; i < two.n_points; i++) {
        const hes_continuation_point *pt = &two.points[i];
        double prod_re = 1, prod_im = 0;
        for (int k = 0; k < pt->n_mult; k++) {
            double re = prod_re * pt->re[k] - prod_im * pt->im[k];
            prod_im = prod_re * pt->im[k] + prod_im * pt->re[k];
            prod_re = re;
        }
        ck_assert_msg(fabs(prod_re - pow(alpha, 4)) < 1e-8, "A = %.10g: product %.12g",
                      pt->value, prod_re);
        ck_assert_int_eq(hes_system_set_param(sys, "amplitude", pt->value), HES_OK);
        ck_assert_int_eq(hes_orbit_return_map(sys, pt->x0, half), HES_OK);
        ck_assert_msg(fabs(half[0] - pt->x0[0]) + fabs(half[1] - pt->x0[1]) > 1e-4,
                      "A = %.10g: the orbit returns after one period", pt->value);
    }
    free(half);
    int pd2 = -1;
    ck_assert_int_eq(labelled(&two, HES_LABEL_PD, 0, &pd2), 1);
    ck_assert_double_gt(two.points[pd2].value, pd_at);
    multiplier_crosses(sys, &two, pd2, 1e-7, -1, gap);
    check_points_of(sys, &two, 3, 1);
    hes_continuation_free(&two);
    hes_continuation_free(&up);
    hes_continuation_free(&down);
    hes_system_destroy(sys);
}
END_TEST

/* The simplest walker over slopes 0.001 to 0.02: the long gait
 * period-doubles once near 0.0151 (Garcia et al. 1998), and nothing else
 * happens on either period-1 gait (the short one is unstable throughout);
 * the branches switched onto at the first and second period doublings
 * double again, each PD confirmed by fresh analyses on its two sides. */
START_TEST(test_walker_period_doubling_cascade)
{
    hes_system *sys = create(&simplest_walker_heelstrike);
    hes_continuation_options o;
    hes_continuation_options_init(&o);
    o.tol = 1e-10;
    hes_continuation b1, b2, b4, shortg;
    hes_error err;
    ck_assert_msg(hes_continue(sys, "gamma", 0.001, 0.02, &o, &b1, &err) == HES_OK, "%s",
                  err.message);
    ck_assert_msg(b1.reached, "%s", b1.why);
    int pd = -1, any = -1;
    ck_assert_int_eq(labelled(&b1, HES_LABEL_PD, 0, &pd), 1);
    ck_assert_int_eq(labelled(&b1, HES_LABEL_SN, 0, &any) + labelled(&b1, HES_LABEL_BP, 0, &any) +
                     labelled(&b1, HES_LABEL_NS, 0, &any), 0);
    ck_assert_msg(b1.points[pd].value > 0.01505 && b1.points[pd].value < 0.0151, "PD at %.12g",
                  b1.points[pd].value);
    double gap[2];
    multiplier_crosses(sys, &b1, pd, 1e-8, -1, gap);
    for (int i = 0; i < b1.n_points; i++)
        ck_assert_msg(b1.points[i].period > 3.8, "gamma %g: period %g", b1.points[i].value,
                      b1.points[i].period);
    check_points(sys, &b1, 5);

    ck_assert_msg(hes_continue_doubled(sys, &b1, pd, 0.02, &o, &b2, &err) == HES_OK, "%s",
                  err.message);
    int pd2 = -1;
    ck_assert_int_eq(labelled(&b2, HES_LABEL_PD, 0, &pd2), 1);
    ck_assert_msg(b2.points[pd2].value > 0.0176 && b2.points[pd2].value < 0.0178, "PD at %.12g",
                  b2.points[pd2].value);
    multiplier_crosses(sys, &b2, pd2, 1e-8, -1, gap);
    check_points(sys, &b2, 5);
    /* the two returns' states: the second is x0, the first another state
       (the prongs of the diagram), except at the branch's birth */
    for (int i = 2; i < b2.n_points; i++) {
        const hes_continuation_point *pt = &b2.points[i];
        for (int k = 0; k < b2.n; k++)
            ck_assert_double_eq_tol(pt->xr[b2.n + k], pt->x0[k], 1e-9);
        ck_assert_msg(fabs(pt->xr[0] - pt->x0[0]) > 1e-4, "gamma %g: the two returns' theta "
                      "%g and %g", pt->value, pt->xr[0], pt->x0[0]);
    }
    ck_assert_msg(hes_continue_doubled(sys, &b2, pd2, 0.02, &o, &b4, &err) == HES_OK, "%s",
                  err.message);
    ck_assert_int_eq(b4.returns, 4);
    int pd4 = -1;
    ck_assert_int_eq(labelled(&b4, HES_LABEL_PD, 0, &pd4), 1);
    ck_assert_msg(b4.points[pd4].value > b2.points[pd2].value && b4.points[pd4].value < 0.0185,
                  "PD at %.12g", b4.points[pd4].value);
    multiplier_crosses(sys, &b4, pd4, 1e-8, -1, gap);

    /* the short-period gait, from its state at 0.009, both ways */
    static const double short_gait[] = { 0.1939374, 0.3878747, -0.2038669, -0.0145 };
    for (int dir = 0; dir < 2; dir++) {
        ck_assert_int_eq(hes_system_set_param(sys, "gamma", 0.009), HES_OK);
        ck_assert_int_eq(hes_system_set_orbit_start(sys, short_gait), HES_OK);
        ck_assert_msg(hes_continue(sys, "gamma", 0.009, dir ? 0.02 : 0.001, &o, &shortg, &err) ==
                      HES_OK, "%s", err.message);
        ck_assert_msg(shortg.reached, "%s", shortg.why);
        for (int i = 0; i < shortg.n_points; i++) {
            ck_assert_msg(shortg.points[i].period < 3.2 && shortg.points[i].psi > 1,
                          "gamma %g: period %g psi %g", shortg.points[i].value,
                          shortg.points[i].period, shortg.points[i].psi);
            ck_assert_int_eq(shortg.points[i].label == HES_LABEL_NONE ||
                             shortg.points[i].label == HES_LABEL_EP, 1);
        }
        hes_continuation_free(&shortg);
    }
    hes_continuation_free(&b4);
    hes_continuation_free(&b2);
    hes_continuation_free(&b1);
    hes_system_destroy(sys);
}
END_TEST

/* Two-parameter curves: the juggler's PD curve in (alpha, aP) from alpha =
 * 0.5 both ways, every point against eq. 10 to 1e-8 relative, its BP
 * curve on aP = 0; the bouncing ball's fold curve in (alpha, A) against
 * vP*(alpha) / w. */
START_TEST(test_boundary_curves_follow_their_closed_forms)
{
    hes_system *sys = create(hes_problem_find("paddle-juggler"));
    hes_continuation_options o;
    hes_continuation_options_init(&o);
    o.tol = 1e-11;
    hes_continuation c, curve;
    hes_error err;
    ck_assert_msg(hes_continue(sys, "paddle_accel", -16, 2, &o, &c, &err) == HES_OK, "%s",
                  err.message);
    int pd = -1, bp = -1;
    ck_assert_int_eq(labelled(&c, HES_LABEL_PD, 0, &pd), 1);
    ck_assert_int_eq(labelled(&c, HES_LABEL_BP, 0, &bp), 1);
    static const double ends[] = { 0.95, 0.1 };
    for (int e = 0; e < 2; e++) {
        ck_assert_msg(hes_continue_curve(sys, &c, pd, "alpha", ends[e], &o, &curve, &err) ==
                      HES_OK, "%s", err.message);
        ck_assert_msg(curve.reached, "%s", curve.why);
        ck_assert_str_eq(curve.param2, "alpha");
        ck_assert_int_ge(curve.n_points, 5);
        ck_assert_double_eq(curve.points[curve.n_points - 1].value2, ends[e]);
        for (int i = 0; i < curve.n_points; i++) {
            const hes_continuation_point *pt = &curve.points[i];
            double want = pd_accel(pt->value2, 9.81);
            ck_assert_int_eq(pt->label, HES_LABEL_PD);
            ck_assert_msg(fabs(pt->value - want) < 1e-8 * fabs(want), "alpha %.10g: PD at "
                          "%.15g, eq. 10 %.15g", pt->value2, pt->value, want);
        }
        hes_continuation_free(&curve);
    }
    ck_assert_msg(hes_continue_curve(sys, &c, bp, "alpha", 0.9, &o, &curve, &err) == HES_OK,
                  "%s", err.message);
    for (int i = 0; i < curve.n_points; i++)
        ck_assert_msg(fabs(curve.points[i].value) < 1e-8, "alpha %g: BP at %.3g",
                      curve.points[i].value2, curve.points[i].value);
    hes_continuation_free(&curve);
    /* refusals: not a bifurcation, the same parameter, an unknown one */
    ck_assert_int_eq(hes_continue_curve(sys, &c, 0, "alpha", 0.9, &o, &curve, &err), HES_EINVAL);
    ck_assert_int_eq(hes_continue_curve(sys, &c, pd, "paddle_accel", 0.9, &o, &curve, &err),
                     HES_EINVAL);
    ck_assert_int_eq(hes_continue_curve(sys, &c, pd, "nosuch", 0.9, &o, &curve, &err),
                     HES_EINVAL);
    hes_continuation_free(&c);
    hes_system_destroy(sys);

    sys = create(&bouncing_ball);
    ck_assert_msg(hes_continue(sys, "amplitude", 0.08, 0.03, &o, &c, &err) == HES_OK, "%s",
                  err.message);
    int sn = -1;
    ck_assert_int_eq(labelled(&c, HES_LABEL_SN, 0, &sn), 1);
    ck_assert_msg(hes_continue_curve(sys, &c, sn, "alpha", 0.9, &o, &curve, &err) == HES_OK,
                  "%s", err.message);
    ck_assert_msg(curve.reached, "%s", curve.why);
    for (int i = 0; i < curve.n_points; i++) {
        double al = curve.points[i].value2, w = 2 * M_PI / 0.5;
        double want = 9.81 * 0.5 * (1 - al) / (2 * (1 + al)) / w;
        ck_assert_int_eq(curve.points[i].label, HES_LABEL_SN);
        ck_assert_msg(fabs(curve.points[i].value - want) < 1e-8 * want, "alpha %.10g: fold at "
                      "%.15g, closed form %.15g", al, curve.points[i].value, want);
    }
    hes_continuation_free(&curve);
    hes_continuation_free(&c);
    hes_system_destroy(sys);
}
END_TEST

/* The juggler's paddle rises into the ball's flight as aP grows: the branch
 * ends at a grazing point (GR, the impact guard) where the closed form's
 * smallest interior gap reaches zero, to 1e-6 relative; along the way each
 * point's clearance is the closed form's to 1e-6 of the apex height. */
START_TEST(test_juggler_grazing_where_the_closed_form_gap_vanishes)
{
    hes_system *sys = create(hes_problem_find("paddle-juggler"));
    hes_continuation_options o;
    hes_continuation_options_init(&o);
    o.tol = 1e-10;
    hes_continuation c;
    hes_error err;
    ck_assert_msg(hes_continue(sys, "paddle_accel", 10, 30, &o, &c, &err) == HES_OK, "%s",
                  err.message);
    ck_assert_int_eq(c.reached, 0);
    ck_assert_ptr_nonnull(strstr(c.why, "grazing"));
    ck_assert_int_eq(c.n_guards, 2);
    /* how squarely the events cross their guards, in closed form: the
       impact meets the paddle (guard xB - xP, Dxg = (1, 0), Dtg = -vP*) at
       vB = -gT/2 and leaves at +gT/2; the apex (guard vB) is crossed at
       rate -g; the smallest sine of the angle is the impact's */
    {
        double g = 9.81, T = 0.5, vs = g * T * 0.5 / (2 * 1.5), best = g / sqrt(1 + g * g);
        for (int after = 0; after < 2; after++) {
            double vb = after ? g * T / 2 : -g * T / 2;
            double sn = fabs(vb - vs) / (sqrt(vs * vs + 1) * sqrt(1 + vb * vb + g * g));
            best = fmin(best, sn);
        }
        ck_assert_msg(fabs(c.points[0].tangency - best) < 1e-9 * best, "tangency %.12g, closed "
                      "form %.12g", c.points[0].tangency, best);
        ck_assert_int_eq(c.points[0].event_tr[c.points[0].tangency_event], 0);
    }
    const hes_continuation_point *gr = &c.points[c.n_points - 1];
    ck_assert_int_eq(gr->label, HES_LABEL_GR);
    ck_assert_str_eq(gr->detail, "impact");
    double want = grazing_accel(20, 24);
    ck_assert_msg(fabs(gr->value - want) < 1e-6 * want, "grazing at %.12g, closed form %.12g",
                  gr->value, want);
    double apex = 9.81 * 0.5 * 0.5 / 8;
    for (int i = 0; i < c.n_points; i++) {
        double s_min;
        juggler j = juggler_at(c.points[i].value);
        double m = closed_form_margin(&j, &s_min), got = c.points[i].margins[0];
        ck_assert_msg(isinf(m) ? isinf(got) : fabs(got - m) < 1e-6 * apex, "aP %.10g: margin "
                      "%.12g, closed form %.12g", c.points[i].value, got, m);
        ck_assert(isinf(c.points[i].margins[1]));   /* the apex guard: no interior minimum */
        ck_assert_int_eq(c.points[i].full, 1);
    }
    /* the grazing curve in (aP, alpha): at each alpha the closed form's
       grazing acceleration, to 1e-6 relative */
    hes_continuation curve;
    ck_assert_msg(hes_continue_curve(sys, &c, c.n_points - 1, "alpha", 0.6, &o, &curve, &err) ==
                  HES_OK, "%s", err.message);
    ck_assert_msg(curve.reached, "%s", curve.why);
    ck_assert_int_ge(curve.n_points, 5);
    for (int i = 0; i < curve.n_points; i++) {
        const hes_continuation_point *pt = &curve.points[i];
        double g = grazing_accel_at(pt->value2, pt->value - 1, pt->value + 1);
        ck_assert_int_eq(pt->label, HES_LABEL_GR);
        ck_assert_str_eq(pt->detail, "impact");
        ck_assert_msg(fabs(pt->value - g) < 1e-6 * g, "alpha %.6g: grazing at %.12g, closed "
                      "form %.12g", pt->value2, pt->value, g);
    }
    hes_continuation_free(&curve);
    ck_assert_int_eq(hes_system_set_param(sys, "alpha", 0.5), HES_OK);
    /* just past it the orbit search refuses the orbit: it would pass
       through the paddle */
    ck_assert_int_eq(hes_system_set_param(sys, "paddle_accel", want + 0.01), HES_OK);
    hes_analysis a;
    ck_assert_int_eq(hes_analyze(sys, 0, &a), HES_ENOORBIT);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "impact"));
    hes_continuation_free(&c);
    hes_system_destroy(sys);
}
END_TEST

/* Counts its calls (never stops). */
static int count_calls(void *ctx, const hes_continuation *c)
{
    (void)c;
    ++*(int *)ctx;
    return 0;
}

/* Stops a branch after `*ctx` points. */
static int stop_after(void *ctx, const hes_continuation *c)
{
    return c->n_points >= *(int *)ctx;
}

/* Both directions on two threads give the branches one thread gives, point
 * for point, and those of two separate calls; a branch stopped after 6
 * points and resumed locates the period doubling where the whole branch
 * does, to the tolerance. */
START_TEST(test_both_directions_and_resume)
{
    hes_system *sys = create(&simplest_walker_heelstrike);
    hes_continuation_options o;
    hes_continuation_options_init(&o);
    o.tol = 1e-10;
    hes_continuation d1, u1, d2, u2, whole, part, resumed;
    hes_error err;
    ck_assert_msg(hes_continue_both(sys, "gamma", 0.001, 0.009, 0.02, &o, 2, &d2, &u2, &err) ==
                  HES_OK, "%s", err.message);
    ck_assert_msg(hes_continue_both(sys, "gamma", 0.001, 0.009, 0.02, &o, 1, &d1, &u1, &err) ==
                  HES_OK, "%s", err.message);
    ck_assert_msg(hes_continue(sys, "gamma", 0.009, 0.02, &o, &whole, &err) == HES_OK, "%s",
                  err.message);
    const hes_continuation *pairs[][2] = { { &d1, &d2 }, { &u1, &u2 }, { &u1, &whole } };
    for (int k = 0; k < 3; k++) {
        const hes_continuation *a = pairs[k][0], *b = pairs[k][1];
        ck_assert_int_eq(a->n_points, b->n_points);
        for (int i = 0; i < a->n_points; i++) {
            ck_assert_double_eq(a->points[i].value, b->points[i].value);
            ck_assert_double_eq(a->points[i].psi, b->points[i].psi);
            ck_assert_int_eq(a->points[i].label, b->points[i].label);
            ck_assert_double_eq(a->points[i].x0[0], b->points[i].x0[0]);
        }
    }
    ck_assert_double_eq(d1.points[d1.n_points - 1].value, 0.001);
    hes_continuation none1, none2;
    ck_assert_int_eq(hes_continue_both(sys, "gamma", 0.01, 0.009, 0.02, &o, 2, &none1, &none2,
                                       &err), HES_EINVAL);

    int six = 6;
    o.progress = stop_after;
    o.progress_ctx = &six;
    ck_assert_msg(hes_continue(sys, "gamma", 0.009, 0.02, &o, &part, &err) == HES_OK, "%s",
                  err.message);
    ck_assert_int_eq(part.n_points, 6);
    ck_assert_int_eq(part.reached, 0);
    ck_assert_str_eq(part.why, "stopped by the caller");
    o.progress = NULL;
    ck_assert_msg(hes_continue_resume(sys, &part, 0.02, &o, &resumed, &err) == HES_OK, "%s",
                  err.message);
    ck_assert_msg(resumed.reached, "%s", resumed.why);
    ck_assert_int_gt(resumed.n_points, 6);
    for (int i = 0; i < 6; i++)
        ck_assert_double_eq(resumed.points[i].value, part.points[i].value);
    int pa = -1, pb = -1;
    ck_assert_int_eq(labelled(&whole, HES_LABEL_PD, 0, &pa), 1);
    ck_assert_int_eq(labelled(&resumed, HES_LABEL_PD, 0, &pb), 1);
    ck_assert_msg(fabs(whole.points[pa].value - resumed.points[pb].value) < 1e-9, "PD at %.14g "
                  "whole, %.14g resumed", whole.points[pa].value, resumed.points[pb].value);
    ck_assert_int_eq(hes_continue_resume(sys, &resumed, 0.02, &o, &none1, &err), HES_EINVAL);
    /* a resumed branch keeps the partial one's points: max_points must
       exceed them */
    hes_continuation_options small = o;
    small.max_points = 5;
    ck_assert_int_eq(hes_continue_resume(sys, &part, 0.02, &small, &none1, &err), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.message, "max_points"));
    /* the progress callback under two threads: called once per point of
       either direction, one call at a time */
    int calls = 0;
    o.progress = count_calls;
    o.progress_ctx = &calls;
    ck_assert_int_eq(hes_continue_both(sys, "gamma", 0.001, 0.009, 0.02, &o, 2, &none1, &none2,
                                       &err), HES_OK);
    ck_assert_int_eq(calls, none1.n_points + none2.n_points);
    o.progress = NULL;
    hes_continuation_free(&none1);
    hes_continuation_free(&none2);
    hes_continuation *all[] = { &d1, &u1, &d2, &u2, &whole, &resumed, &part };
    for (int i = 0; i < 7; i++)
        hes_continuation_free(all[i]);
    hes_system_destroy(sys);
}
END_TEST

/* A forced damped oscillator with a clock: x'' = -w^2 x - c x' + A cos(2
 * pi tau / T), tau' = 1, the clock's reset tau -> 0 at tau = T the section.
 * Its nontrivial multipliers are exp(T (-c/2 +- i sqrt(w^2 - c^2/4))), a
 * complex pair of modulus exp(-c T / 2): a Neimark-Sacker point at c = 0
 * for every w. */
enum { O_C, O_W, O_A, O_T };

static int osc_field(double t, const double *x, const double *p, double *f, void *d)
{
    (void)t; (void)d;
    f[0] = x[1];
    f[1] = -p[O_W] * p[O_W] * x[0] - p[O_C] * x[1] + p[O_A] * cos(2 * M_PI * x[2] / p[O_T]);
    f[2] = 1;
    return 0;
}

static int osc_field_dx(double t, const double *x, const double *p, double *J, void *d)
{
    (void)t; (void)d;
    for (int i = 0; i < 9; i++)
        J[i] = 0;
    J[1] = -p[O_W] * p[O_W];
    J[3] = 1;
    J[4] = -p[O_C];
    J[7] = -p[O_A] * 2 * M_PI / p[O_T] * sin(2 * M_PI * x[2] / p[O_T]);
    return 0;
}

static int osc_guard(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)d;
    g[0] = x[2] - p[O_T];
    return 0;
}

static int osc_reset(double t, const double *x, const double *p, double *r, void *d)
{
    (void)t; (void)p; (void)d;
    r[0] = x[0];
    r[1] = x[1];
    r[2] = 0;
    return 0;
}

static int osc_guess(double *p, double *x0, void *d)
{
    (void)d;
    double W = 2 * M_PI / p[O_T];
    x0[0] = p[O_A] / (p[O_W] * p[O_W] - W * W);
    x0[1] = 0;
    x0[2] = 0;
    return 0;
}

static const char *const osc_states[] = { "x", "v", "tau" };
static const hes_mode osc_modes[] = { { .name = "run", .dim = 3,
                                        .state_names = osc_states, .field = osc_field,
                                        .field_dx = osc_field_dx } };
static const hes_transition osc_transitions[] = {
    { "clock", 0, 0, HES_UP, osc_guard, osc_reset, NULL, NULL, NULL, NULL, 0, NULL },
};
static const hes_param osc_params[] = {
    { "c", 0.3, "1/s", "damping", 0, -HUGE_VAL, HUGE_VAL, 0, 0 },
    { "w", 2, "1/s", "natural frequency", HES_PARAM_POSITIVE, 0, HUGE_VAL, 0, 0 },
    { "A", 1, "m/s^2", "forcing", 0, -HUGE_VAL, HUGE_VAL, 0, 0 },
    { "T", 1, "s", "forcing period", HES_PARAM_POSITIVE, 0, HUGE_VAL, 0, 0 },
};
static const int osc_sequence[] = { 0 };
static const int osc_free[] = { 0, 1 };
static const hes_model forced_oscillator = {
    .abi = HES_MODEL_ABI,
    .name = "forced-oscillator",
    .description = "a forced damped oscillator with a clock",
    .n_modes = 1, .modes = osc_modes,
    .n_transitions = 1, .transitions = osc_transitions,
    .n_params = 4, .params = osc_params,
    .orbit = { .mode = 0, .section = 0, .n_sequence = 1, .sequence = osc_sequence,
               .n_free_states = 2, .free_states = osc_free, .n_residual = 2,
               .residual = osc_free, .guess = osc_guess },
    .integrator = HES_ADAMS,
};

/* The oscillator's damping through 0: an NS point at c = 0 (to 1e-8), a
 * complex crossing; psi along the branch exp(-c T / 2); its NS curve in
 * (c, w) stays on c = 0. */
START_TEST(test_oscillator_neimark_sacker_at_zero_damping)
{
    hes_system *sys = create(&forced_oscillator);
    hes_continuation_options o;
    hes_continuation_options_init(&o);
    o.tol = 1e-11;
    hes_continuation c, curve;
    hes_error err;
    ck_assert_msg(hes_continue(sys, "c", 0.3, -0.3, &o, &c, &err) == HES_OK, "%s", err.message);
    ck_assert_msg(c.reached, "%s", c.why);
    int ns = -1, any = -1;
    ck_assert_int_eq(labelled(&c, HES_LABEL_NS, 0, &ns), 1);
    ck_assert_int_eq(labelled(&c, HES_LABEL_PD, 0, &any) + labelled(&c, HES_LABEL_SN, 0, &any) +
                     labelled(&c, HES_LABEL_BP, 0, &any), 0);
    ck_assert_msg(fabs(c.points[ns].value) < 1e-8, "NS at c = %.3g", c.points[ns].value);
    ck_assert_int_eq(c.points[ns].crossing, HES_CROSS_COMPLEX);
    for (int i = 0; i < c.n_points; i++)
        ck_assert_msg(fabs(c.points[i].psi - exp(-c.points[i].value / 2)) < 1e-7, "c = %g: psi "
                      "%.10g, closed form %.10g", c.points[i].value, c.points[i].psi,
                      exp(-c.points[i].value / 2));
    ck_assert_msg(hes_continue_curve(sys, &c, ns, "w", 2.5, &o, &curve, &err) == HES_OK, "%s",
                  err.message);
    ck_assert_msg(curve.reached, "%s", curve.why);
    for (int i = 0; i < curve.n_points; i++) {
        ck_assert_int_eq(curve.points[i].label, HES_LABEL_NS);
        ck_assert_msg(fabs(curve.points[i].value) < 1e-8, "w = %g: NS at c = %.3g",
                      curve.points[i].value2, curve.points[i].value);
    }
    hes_continuation_free(&curve);
    hes_continuation_free(&c);
    hes_system_destroy(sys);
}
END_TEST

/* The oscillator with a marker: an event where x crosses the level h
 * upwards (identity reset), before the clock in the orbit's sequence.  The
 * orbit does not depend on h; the marker's time does, and where h is the
 * orbit's x at the section (x rising there) the marker and the clock
 * coincide and pass each other around the period: a SIM point at h = x0. */
enum { O_H = 4 };

static int marker_guard(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)d;
    g[0] = x[0] - p[O_H];
    return 0;
}

static const hes_transition marked_transitions[] = {
    { "clock", 0, 0, HES_UP, osc_guard, osc_reset, NULL, NULL, NULL, NULL, 0, NULL },
    { "marker", 0, 0, HES_UP, marker_guard, NULL, NULL, NULL, NULL, NULL, 0, NULL },
};
static const hes_param marked_params[] = {
    { "c", 0.3, "1/s", "damping", 0, -HUGE_VAL, HUGE_VAL, 0, 0 },
    { "w", 2, "1/s", "natural frequency", HES_PARAM_POSITIVE, 0, HUGE_VAL, 0, 0 },
    { "A", 100, "m/s^2", "forcing", 0, -HUGE_VAL, HUGE_VAL, 0, 0 },
    { "T", 1, "s", "forcing period", HES_PARAM_POSITIVE, 0, HUGE_VAL, 0, 0 },
    { "h", 0, "m", "the marker's level", 0, -HUGE_VAL, HUGE_VAL, 0, 0 },
};
static const int marked_sequence[] = { 1, 0 };
static const hes_model marked_oscillator = {
    .abi = HES_MODEL_ABI,
    .name = "marked-oscillator",
    .description = "the forced oscillator with a marker event",
    .n_modes = 1, .modes = osc_modes,
    .n_transitions = 2, .transitions = marked_transitions,
    .n_params = 5, .params = marked_params,
    .orbit = { .mode = 0, .section = 0, .n_sequence = 2, .sequence = marked_sequence,
               .n_free_states = 2, .free_states = osc_free, .n_residual = 2,
               .residual = osc_free, .guess = osc_guess },
    .integrator = HES_ADAMS,
};

START_TEST(test_marker_and_clock_simultaneous_where_h_is_the_section_state)
{
    hes_system *sys = create(&marked_oscillator);
    hes_continuation_options o;
    hes_continuation_options_init(&o);
    o.tol = 1e-12;
    hes_continuation c;
    hes_error err;
    ck_assert_msg(hes_continue(sys, "h", -2, -2.813, &o, &c, &err) == HES_OK, "%s",
                  err.message);
    double x0 = c.points[0].x0[0];
    ck_assert_double_gt(c.points[0].x0[1], 0);   /* rising at the section */
    int sim = -1;
    ck_assert_msg(labelled(&c, HES_LABEL_SIM, 0, &sim) >= 1, "no SIM (%s)", c.why);
    ck_assert_msg(fabs(c.points[sim].value - x0) < 1e-8 * fabs(x0), "SIM at h = %.15g, x0 = "
                  "%.15g", c.points[sim].value, x0);
    ck_assert_ptr_nonnull(strstr(c.points[sim].detail, "marker"));
    ck_assert_ptr_nonnull(strstr(c.points[sim].detail, "clock"));
    hes_continuation_free(&c);
    hes_system_destroy(sys);
}
END_TEST

/* The juggler's period-2 orbit born at its PD (aP = -10.9), continued: the
 * switch finds it although the period-1 orbit starts at its apex (one of
 * the two displaced states starts just after an apex, the other just
 * before); every point returns after two periods and not after one, its
 * multipliers' product is alpha^4 (each impact contracts area by alpha^2),
 * and its own PD is confirmed by fresh analyses on either side. */
START_TEST(test_juggler_period_two_branch_from_its_pd)
{
    hes_system *sys = create(hes_problem_find("paddle-juggler"));
    hes_continuation_options o;
    hes_continuation_options_init(&o);
    o.tol = 1e-10;
    hes_continuation c, two;
    hes_error err;
    ck_assert_msg(hes_continue(sys, "paddle_accel", -10, -16, &o, &c, &err) == HES_OK, "%s",
                  err.message);
    int pd = -1;
    ck_assert_int_eq(labelled(&c, HES_LABEL_PD, 0, &pd), 1);
    ck_assert_msg(hes_continue_doubled(sys, &c, pd, -16, &o, &two, &err) == HES_OK, "%s",
                  err.message);
    ck_assert_int_eq(two.returns, 2);
    ck_assert_int_ge(two.n_points, 5);
    double half[2];
    for (int i = 0; i < two.n_points; i++) {
        const hes_continuation_point *pt = &two.points[i];
        double pr = 1, pi = 0;
        for (int k = 0; k < pt->n_mult; k++) {
            double re = pr * pt->re[k] - pi * pt->im[k];
            pi = pr * pt->im[k] + pi * pt->re[k];
            pr = re;
        }
        ck_assert_msg(fabs(pr - 0.0625) < 1e-8, "aP = %.10g: product %.12g", pt->value, pr);
        ck_assert_int_eq(hes_system_set_param(sys, "paddle_accel", pt->value), HES_OK);
        ck_assert_int_eq(hes_orbit_return_map(sys, pt->x0, half), HES_OK);
        ck_assert_msg(fabs(half[0] - pt->x0[0]) + fabs(half[1] - pt->x0[1]) > 1e-5,
                      "aP = %.10g: the orbit returns after one period", pt->value);
    }
    int pd2 = -1;
    ck_assert_int_eq(labelled(&two, HES_LABEL_PD, 0, &pd2), 1);
    double gap[2];
    multiplier_crosses(sys, &two, pd2, 1e-7, -1, gap);
    check_points_of(sys, &two, 3, 1);
    hes_continuation_free(&two);
    hes_continuation_free(&c);
    hes_system_destroy(sys);
}
END_TEST

/* The collocation corrector: each orbit by direct collocation warm-started
 * from the last, then the pipeline's shooting from it.  The walker's long
 * gait gives the shooting branch's PD (to 1e-8), every point a fresh
 * analysis's orbit; its unstable short gait is followed from its state;
 * a stroboscopic orbit and branch switching are refused. */
START_TEST(test_collocation_corrector_follows_both_walker_gaits)
{
    hes_system *sys = create(&simplest_walker_heelstrike);
    hes_continuation_options o;
    hes_continuation_options_init(&o);
    o.tol = 1e-10;
    hes_continuation shoot, col, shortg;
    hes_error err;
    ck_assert_msg(hes_continue(sys, "gamma", 0.009, 0.0152, &o, &shoot, &err) == HES_OK, "%s",
                  err.message);
    o.corrector = HES_CORRECT_COLLOCATION;
    ck_assert_msg(hes_continue(sys, "gamma", 0.009, 0.0152, &o, &col, &err) == HES_OK, "%s",
                  err.message);
    ck_assert_msg(col.reached, "%s", col.why);
    ck_assert_int_eq(col.method, HES_CONT_NATURAL);
    int a = -1, b = -1;
    ck_assert_int_eq(labelled(&shoot, HES_LABEL_PD, 0, &a), 1);
    ck_assert_int_eq(labelled(&col, HES_LABEL_PD, 0, &b), 1);
    ck_assert_msg(fabs(shoot.points[a].value - col.points[b].value) < 1e-8, "PD at %.12g by "
                  "shooting, %.12g by collocation", shoot.points[a].value, col.points[b].value);
    check_points(sys, &col, 3);
    static const double short_gait[] = { 0.1939374, 0.3878747, -0.2038669, -0.0145 };
    ck_assert_int_eq(hes_system_set_param(sys, "gamma", 0.009), HES_OK);
    ck_assert_int_eq(hes_system_set_orbit_start(sys, short_gait), HES_OK);
    ck_assert_msg(hes_continue(sys, "gamma", 0.009, 0.02, &o, &shortg, &err) == HES_OK, "%s",
                  err.message);
    ck_assert_msg(shortg.reached, "%s", shortg.why);
    for (int i = 0; i < shortg.n_points; i++)
        ck_assert_msg(shortg.points[i].period < 3.2 && shortg.points[i].psi > 1,
                      "gamma %g: period %g psi %g", shortg.points[i].value,
                      shortg.points[i].period, shortg.points[i].psi);
    check_points(sys, &shortg, 4);
    hes_continuation two;
    ck_assert_int_eq(hes_continue_doubled(sys, &shoot, a, 0.02, &o, &two, &err), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.message, "collocation"));
    hes_continuation_free(&shortg);
    hes_continuation_free(&col);
    hes_continuation_free(&shoot);
    hes_system_destroy(sys);
    sys = create(hes_problem_find("paddle-juggler"));
    ck_assert_int_eq(hes_continue(sys, "paddle_accel", -5, -3, &o, &col, &err), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.message, "autonomous"));
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
    tcase_add_test(tc, test_juggler_pd_and_bp_to_1e_8_at_five_restitutions);
    tcase_add_test(tc, test_bouncing_ball_fold_pd_and_period_two_branch);
    tcase_add_test(tc, test_walker_period_doubling_cascade);
    tcase_add_test(tc, test_boundary_curves_follow_their_closed_forms);
    tcase_add_test(tc, test_juggler_grazing_where_the_closed_form_gap_vanishes);
    tcase_add_test(tc, test_both_directions_and_resume);
    tcase_add_test(tc, test_oscillator_neimark_sacker_at_zero_damping);
    tcase_add_test(tc, test_marker_and_clock_simultaneous_where_h_is_the_section_state);
    tcase_add_test(tc, test_juggler_period_two_branch_from_its_pd);
    tcase_add_test(tc, test_collocation_corrector_follows_both_walker_gaits);
    tcase_add_test(tc, test_bad_requests_are_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(continuation_suite());
}
