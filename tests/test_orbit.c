/*
 * test_orbit.c - what an orbit analysis accepts and what it refuses: the
 * Poincare section at any event whatever the rank of its reset, the
 * acceptance of an orbit (relative residual, every state component
 * returning, no Zeno collapse), the three verdicts, and a start state that
 * lies on a guard.
 *
 * Independent computations: the same orbit analysed at two sections (the
 * multipliers of a return map do not depend on where the section is), the
 * simplest walking model's fixed point from Garcia et al. (1998), the ends
 * of the paddle juggler's stable interval, where its closed form (paper
 * eq. 9, checked by test_juggler) has psi = 1 exactly, and the elastic
 * juggler and ball, whose return maps preserve area (|det| = 1).
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

/* The nonzero multipliers (|lambda| > 1e-8) of an analysis, sorted by
 * modulus then imaginary part; returns their number. */
static int nonzero_multipliers(const hes_stability *st, double *re, double *im)
{
    int k = 0;
    for (int i = 0; i < st->n_mult; i++)
        if (st->abs[i] > 1e-8) {
            re[k] = st->re[i];
            im[k] = st->im[i];
            k++;
        }
    for (int i = 1; i < k; i++) /* by (|lambda|, im), descending */
        for (int j = i; j > 0; j--) {
            double a = hypot(re[j - 1], im[j - 1]), b = hypot(re[j], im[j]);
            if (a > b + 1e-12 || (fabs(a - b) <= 1e-12 && im[j - 1] >= im[j]))
                break;
            double t = re[j]; re[j] = re[j - 1]; re[j - 1] = t;
            t = im[j]; im[j] = im[j - 1]; im[j - 1] = t;
        }
    return k;
}

START_TEST(test_walker_heelstrike_section_gives_the_multipliers_of_midstance)
{
    hes_system *heel = create(&simplest_walker_heelstrike),
               *mid = create(&simplest_walker_midstance);
    hes_analysis a, b;
    ck_assert_msg(hes_analyze(heel, 1, &a) == HES_OK, "%s", hes_system_errmsg(heel));
    ck_assert_msg(hes_analyze(mid, 1, &b) == HES_OK, "%s", hes_system_errmsg(mid));
    /* Garcia et al. 1998: theta* = 0.20031, theta'* = -0.19983 at gamma = 0.009 */
    ck_assert_double_eq_tol(a.orbit.x0[0], 0.20031, 1e-5);
    ck_assert_double_eq_tol(a.orbit.x0[2], -0.19983, 1e-5);
    ck_assert_double_eq_tol(a.orbit.period, b.orbit.period, 1e-9);
    /* both sections: 3 multipliers (a 4-state mode), one of them the exact
     * zero of the plastic impact */
    ck_assert_int_eq(a.stab.n_mult, 3);
    ck_assert_int_eq(b.stab.n_mult, 3);
    double ra[4], ia[4], rb[4], ib[4];
    int na = nonzero_multipliers(&a.stab, ra, ia), nb = nonzero_multipliers(&b.stab, rb, ib);
    ck_assert_int_eq(na, 2);
    ck_assert_int_eq(nb, 2);
    for (int i = 0; i < na; i++) {
        ck_assert_msg(fabs(ra[i] - rb[i]) < 1e-9 && fabs(ia[i] - ib[i]) < 1e-9,
                      "multiplier %d: %.15g%+.15gi at heelstrike, %.15g%+.15gi at midstance",
                      i, ra[i], ia[i], rb[i], ib[i]);
    }
    ck_assert_double_lt(a.stab.abs[2], 1e-12);
    ck_assert_double_lt(b.stab.abs[2], 1e-12);
    /* and the independent check: central differences of the return map */
    ck_assert_double_lt(a.check_max_abs_diff, 1e-4);
    ck_assert_double_lt(b.check_max_abs_diff, 1e-5);
    ck_assert_int_eq(a.stab.verdict, HES_STABLE);
    hes_analysis_free(&a);
    hes_analysis_free(&b);
    hes_system_destroy(heel);
    hes_system_destroy(mid);
}
END_TEST

/* Garcia et al. (1998) report the period-doubling bifurcation of the long
 * gait at gamma ~ 0.0151: a multiplier crosses -1 there. */
START_TEST(test_walker_period_doubles_where_garcia_reports)
{
    double gammas[2] = { 0.01505, 0.0151 }, psi[2], re[2];
    for (int i = 0; i < 2; i++) {
        hes_system *sys = create(&simplest_walker_heelstrike);
        ck_assert_int_eq(hes_system_set_param(sys, "gamma", gammas[i]), HES_OK);
        hes_analysis a;
        ck_assert_msg(hes_analyze(sys, 0, &a) == HES_OK, "%s", hes_system_errmsg(sys));
        ck_assert_double_gt(a.orbit.period, 3.8); /* the long gait, not the short one */
        psi[i] = a.stab.psi;
        re[i] = a.stab.re[0];
        ck_assert_double_eq(a.stab.im[0], 0.0);
        hes_analysis_free(&a);
        hes_system_destroy(sys);
    }
    ck_assert_msg(psi[0] < 1.0 && psi[1] > 1.0, "psi %.6f at %g, %.6f at %g", psi[0], gammas[0],
                  psi[1], gammas[1]);
    ck_assert_double_lt(re[0], -0.99);
    ck_assert_double_lt(re[1], -1.0);
}
END_TEST

/* The knee biped analysed at its kneestrike (6 -> 4 states): the section
 * matrix has full row rank, so the post-event states near the orbit fill a
 * neighbourhood and the return map has no trivial multiplier: 4 multipliers,
 * whose nonzero ones are those of the heelstrike section. */
START_TEST(test_section_at_a_dimension_dropping_event_keeps_every_multiplier)
{
    const hes_model *biped = hes_problem_find("knee-biped");
    ck_assert_ptr_nonnull(biped);
    hes_system *sys = create(biped);
    hes_analysis a;
    ck_assert_msg(hes_analyze(sys, 0, &a) == HES_OK, "%s", hes_system_errmsg(sys));
    int knee = hes_model_transition_index(biped, "kneestrike");
    int heel = hes_model_transition_index(biped, "heelstrike");
    const hes_event *ev = NULL;
    for (int k = 0; k < a.orbit.traj.n_events; k++)
        if (a.orbit.traj.events[k].transition == knee)
            ev = &a.orbit.traj.events[k];
    ck_assert_ptr_nonnull(ev);

    hes_model at_knee = *biped;
    int seq[2] = { heel, knee };
    static const int all[4] = { 0, 1, 2, 3 };
    at_knee.orbit.mode = biped->transitions[knee].to;
    at_knee.orbit.section = knee;
    at_knee.orbit.sequence = seq;
    at_knee.orbit.any_order = NULL;
    at_knee.orbit.n_free_states = at_knee.orbit.n_residual = 4;
    at_knee.orbit.free_states = at_knee.orbit.residual = all;
    at_knee.trajopt = NULL;
    ck_assert_int_eq(biped->modes[at_knee.orbit.mode].dim, 4);
    hes_system *ks = create(&at_knee);
    ck_assert_int_eq(hes_system_set_orbit_start(ks, ev->x_plus), HES_OK);
    hes_analysis b;
    ck_assert_msg(hes_analyze(ks, 0, &b) == HES_OK, "%s", hes_system_errmsg(ks));
    ck_assert_int_eq(b.stab.n_mult, 4);
    ck_assert_int_eq(b.stab.trivial, -1);
    double ra[8], ia[8], rb[8], ib[8];
    int na = nonzero_multipliers(&a.stab, ra, ia), nb = nonzero_multipliers(&b.stab, rb, ib);
    ck_assert_int_eq(na, 3);
    ck_assert_int_eq(nb, 3);
    for (int i = 0; i < na; i++)
        ck_assert_msg(fabs(ra[i] - rb[i]) < 1e-8 && fabs(ia[i] - ib[i]) < 1e-8,
                      "multiplier %d: %.15g%+.15gi at heelstrike, %.15g%+.15gi at kneestrike",
                      i, ra[i], ia[i], rb[i], ib[i]);
    hes_analysis_free(&a);
    hes_analysis_free(&b);
    hes_system_destroy(sys);
    hes_system_destroy(ks);
}
END_TEST

START_TEST(test_zeno_rest_point_is_not_an_orbit)
{
    hes_system *sys = create(&test_zeno_ball); /* e = 0.7 */
    hes_analysis a;
    hes_status st = hes_analyze(sys, 0, &a);
    ck_assert_msg(st == HES_EZENO, "status %s: %s", hes_strerror(st), hes_system_errmsg(sys));
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "Zeno"));
    hes_system_destroy(sys);
}
END_TEST

/* A converged orbit whose period is Zeno by the simulator's own rule is
 * refused even when Newton starts on it. */
START_TEST(test_orbit_with_a_zeno_period_is_refused)
{
    hes_system *sys = create(&test_zeno_ball);
    ck_assert_int_eq(hes_system_set_param(sys, "e", 1.0), HES_OK);
    const double x0[2] = { 1e-8, 0.0 }; /* period 2 sqrt(2e-8 / g) = 9.0e-5 s */
    ck_assert_int_eq(hes_system_set_orbit_start(sys, x0), HES_OK);
    hes_analysis a;
    hes_status st = hes_analyze(sys, 0, &a);
    ck_assert_msg(st == HES_EZENO, "status %s: %s", hes_strerror(st), hes_system_errmsg(sys));
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_neutral_family_is_marginal)
{
    hes_system *sys = create(&test_zeno_ball);
    ck_assert_int_eq(hes_system_set_param(sys, "e", 1.0), HES_OK);
    hes_analysis a;
    ck_assert_msg(hes_analyze(sys, 0, &a) == HES_OK, "%s", hes_system_errmsg(sys));
    /* an elastic ball: every apex height is an orbit, the multiplier is 1 */
    ck_assert_double_eq_tol(a.stab.psi, 1.0, 1e-9);
    ck_assert_int_eq(a.stab.verdict, HES_MARGINAL);
    ck_assert_int_eq(a.stab.stable, 0);
    ck_assert_double_le(fabs(a.stab.psi - 1.0), a.stab.psi_tol);
    ck_assert_str_eq(hes_verdict_name(a.stab.verdict), "marginal");
    hes_analysis_free(&a);
    hes_system_destroy(sys);
}
END_TEST

/* psi of the paddle juggler on and off the ends of its stable interval
 * (closed form: psi = 1 exactly at paddle_accel = 0 and -10.9 for alpha =
 * 0.5, g = 9.81, and for every paddle_accel at alpha = 1, where the return
 * map preserves area and its multipliers lie on the unit circle). */
START_TEST(test_juggler_verdicts_on_the_boundary_are_marginal)
{
    const hes_model *jug = hes_problem_find("paddle-juggler");
    struct { const char *name; double value; hes_verdict want; } cases[] = {
        { "paddle_accel", 0.0, HES_MARGINAL },
        { "paddle_accel", -10.9, HES_MARGINAL },
        { "alpha", 1.0, HES_MARGINAL },
        { "paddle_accel", -5.45, HES_STABLE },
        { "paddle_accel", -1e-6, HES_STABLE },   /* psi = 1 - 2.3e-7 */
        { "paddle_accel", 1e-6, HES_UNSTABLE },
        { "paddle_accel", -10.9 - 1e-6, HES_UNSTABLE },
        { "paddle_accel", 2.0, HES_UNSTABLE },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hes_system *sys = create(jug);
        ck_assert_int_eq(hes_system_set_param(sys, cases[i].name, cases[i].value), HES_OK);
        hes_analysis a;
        ck_assert_msg(hes_analyze(sys, 0, &a) == HES_OK, "%s", hes_system_errmsg(sys));
        ck_assert_msg(a.stab.verdict == cases[i].want, "%s = %g: psi = %.17g, tol %.3g: %s, expected %s",
                      cases[i].name, cases[i].value, a.stab.psi, a.stab.psi_tol,
                      hes_verdict_name(a.stab.verdict), hes_verdict_name(cases[i].want));
        ck_assert_int_eq(a.stab.stable, cases[i].want == HES_STABLE);
        /* the accuracy claimed is small enough to decide 1e-6 away from the boundary */
        ck_assert_double_lt(a.stab.psi_tol, 1e-8);
        hes_analysis_free(&a);
        hes_system_destroy(sys);
    }
}
END_TEST

START_TEST(test_verdict_of_is_three_valued)
{
    ck_assert_int_eq(hes_verdict_of(0.5, 1e-9), HES_STABLE);
    ck_assert_int_eq(hes_verdict_of(1.0 - 2e-9, 1e-9), HES_STABLE);
    ck_assert_int_eq(hes_verdict_of(1.0 - 5e-10, 1e-9), HES_MARGINAL);
    ck_assert_int_eq(hes_verdict_of(1.0, 0.0), HES_MARGINAL);
    ck_assert_int_eq(hes_verdict_of(1.0 + 5e-10, 1e-9), HES_MARGINAL);
    ck_assert_int_eq(hes_verdict_of(1.0 + 2e-9, 1e-9), HES_UNSTABLE);
    ck_assert_str_eq(hes_verdict_name(HES_STABLE), "stable");
    ck_assert_str_eq(hes_verdict_name(HES_UNSTABLE), "unstable");
}
END_TEST

START_TEST(test_state_the_residual_misses_must_return)
{
    hes_system *sys = create(&test_drifting_counter);
    hes_analysis a;
    hes_status st = hes_analyze(sys, 0, &a);
    ck_assert_msg(st == HES_ENOORBIT, "status %s: %s", hes_strerror(st), hes_system_errmsg(sys));
    ck_assert_msg(strstr(hes_system_errmsg(sys), "not periodic") &&
                  strstr(hes_system_errmsg(sys), "component 1"), "%s", hes_system_errmsg(sys));
    hes_system_destroy(sys);
}
END_TEST

/* The counter's field is (1, 0): a dF/dx of its own that is not zero */
static int counter_wrong_dx(double t, const double *x, const double *p, double *J, void *d)
{
    (void)t; (void)x; (void)p; (void)d;
    J[0] = 0.0; J[1] = 0.0; J[2] = 0.0; J[3] = 0.0;
    J[1] = 2.0; /* dF2/dx1: wrong */
    return 0;
}

/* Where the orbit search fails, a supplied Jacobian that disagrees with
 * central differences at the search's start is named in the message (the
 * likeliest cause when a model's own orbit is not found); a model without
 * one gets no such note. */
START_TEST(test_failed_orbit_search_names_a_wrong_jacobian)
{
    hes_mode modes[1] = { test_drifting_counter.modes[0] };
    hes_model wrong = test_drifting_counter;
    modes[0].field_dx = counter_wrong_dx;
    wrong.modes = modes;
    for (int k = 0; k < 2; k++) {
        hes_system *sys = create(k ? &wrong : &test_drifting_counter);
        hes_analysis a;
        ck_assert_int_eq(hes_analyze(sys, 0, &a), HES_ENOORBIT);
        const char *msg = hes_system_errmsg(sys), *note = strstr(msg, "disagrees with central");
        ck_assert_msg(strstr(msg, "not periodic") && (k ? note && strstr(msg, "dF/dx[1,0]")
                                                        : !note), "%s", msg);
        hes_system_destroy(sys);
    }
}
END_TEST

/* An orbit search has an overall budget: out of it, HES_ENOORBIT saying so
 * (the SLIP needs 5 Newton iterations from its guess; a budget that ends
 * after the first stops it there); a budget of 0 or NaN is refused. */
START_TEST(test_orbit_search_stops_at_its_overall_budget)
{
    hes_system *sys = test_system("slip-hopper");
    hes_settings set = hes_system_get_settings(sys);
    ck_assert_double_eq(set.max_search_time, 120);
    set.max_search_time = 1e-9;
    ck_assert_int_eq(hes_system_set_settings(sys, &set), HES_OK);
    hes_orbit o;
    ck_assert_int_eq(hes_orbit_find(sys, &o), HES_ENOORBIT);
    ck_assert_msg(strstr(hes_system_errmsg(sys), "used its budget of 1e-09 s"), "%s",
                  hes_system_errmsg(sys));
    set.max_search_time = 0;
    ck_assert_int_eq(hes_system_set_settings(sys, &set), HES_EINVAL);
    set.max_search_time = NAN;
    ck_assert_int_eq(hes_system_set_settings(sys, &set), HES_EINVAL);
    set.max_search_time = HUGE_VAL; /* none */
    ck_assert_int_eq(hes_system_set_settings(sys, &set), HES_OK);
    ck_assert_int_eq(hes_orbit_find(sys, &o), HES_OK);
    hes_orbit_free(&o);
    hes_system_destroy(sys);
}
END_TEST

/* A start state on a guard whose flow enters the far side at zero crossing
 * rate (a body standing on rigid feet; a ball resting on the paddle after a
 * plastic impact) is refused, not integrated through the guard. */
START_TEST(test_start_on_a_guard_entering_its_far_side_is_refused)
{
    hes_system *sys = create(hes_problem_find("trot-rigid"));
    const double x0[4] = { 0.3, 0.0, 0.0, 0.0 }; /* feet exactly on the ground, at rest */
    hes_sim_options opts;
    hes_sim_options_init(&opts);
    opts.t_end = 1.0;
    hes_traj traj;
    hes_status st = hes_simulate(sys, 0, 0.0, 0.0, x0, &opts, &traj);
    ck_assert_msg(st == HES_EGRAZING, "status %s: %s", hes_strerror(st), hes_system_errmsg(sys));
    ck_assert_int_eq(traj.n_phases, 1);
    ck_assert_double_ge(traj.phases[0].x1[0], 0.3); /* never below the ground */
    hes_traj_free(&traj);
    hes_system_destroy(sys);

    sys = create(hes_problem_find("paddle-juggler"));
    ck_assert_int_eq(hes_system_set_param(sys, "alpha", 0.0), HES_OK);
    const double ball[2] = { 1.0, 0.0 };
    st = hes_simulate(sys, 0, 0.0, 0.0, ball, &opts, &traj);
    ck_assert_msg(st == HES_EGRAZING, "status %s: %s", hes_strerror(st), hes_system_errmsg(sys));
    /* the ball never went through the paddle (|x_P| <= 1 m here) */
    for (int k = 0; k < traj.n_phases; k++)
        ck_assert_double_gt(traj.phases[k].x1[0], -1.0);
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

/* A start state exactly on a guard, crossing it transversally: the event
 * happens at the start time. */
START_TEST(test_start_on_a_guard_crossing_it_fires_at_once)
{
    hes_system *sys = create(&test_bouncing_ball); /* alpha = 0.5 */
    const double x0[2] = { 0.0, -2.0 };
    hes_sim_options opts;
    hes_sim_options_init(&opts);
    opts.t_end = 0.1;
    hes_traj traj;
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, &opts, &traj), HES_OK);
    ck_assert_int_ge(traj.n_events, 1);
    ck_assert_double_eq(traj.events[0].t, 0.0);
    ck_assert_double_eq_tol(traj.events[0].x_plus[1], 1.0, 1e-15);
    ck_assert_double_ge(traj.phases[traj.n_phases - 1].x1[0], 0.0);
    hes_traj_free(&traj);
    hes_system_destroy(sys);
}
END_TEST

static Suite *orbit_suite(void)
{
    Suite *s = suite_create("orbit");
    TCase *sec = tcase_create("section");
    tcase_set_timeout(sec, 120);
    tcase_add_test(sec, test_walker_heelstrike_section_gives_the_multipliers_of_midstance);
    tcase_add_test(sec, test_walker_period_doubles_where_garcia_reports);
    tcase_add_test(sec, test_section_at_a_dimension_dropping_event_keeps_every_multiplier);
    suite_add_tcase(s, sec);
    TCase *acc = tcase_create("acceptance");
    tcase_set_timeout(acc, 60);
    tcase_add_test(acc, test_zeno_rest_point_is_not_an_orbit);
    tcase_add_test(acc, test_orbit_with_a_zeno_period_is_refused);
    tcase_add_test(acc, test_state_the_residual_misses_must_return);
    tcase_add_test(acc, test_failed_orbit_search_names_a_wrong_jacobian);
    tcase_add_test(acc, test_orbit_search_stops_at_its_overall_budget);
    suite_add_tcase(s, acc);
    TCase *ver = tcase_create("verdict");
    tcase_set_timeout(ver, 60);
    tcase_add_test(ver, test_verdict_of_is_three_valued);
    tcase_add_test(ver, test_neutral_family_is_marginal);
    tcase_add_test(ver, test_juggler_verdicts_on_the_boundary_are_marginal);
    suite_add_tcase(s, ver);
    TCase *start = tcase_create("start on a guard");
    tcase_add_test(start, test_start_on_a_guard_entering_its_far_side_is_refused);
    tcase_add_test(start, test_start_on_a_guard_crossing_it_fires_at_once);
    suite_add_tcase(s, start);
    return s;
}

int main(void)
{
    return test_run_suite(orbit_suite());
}
