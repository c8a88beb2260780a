/*
 * test_guard_margin.c - a guard's clearance along an orbit
 * (hes_orbit_guard_margins) against independent computations.
 *
 * The paddle juggler in closed form (problems/paddle_juggler.c's comment):
 * the ball leaves the paddle at t = T/2 at height 0 with speed g T / 2, so
 * s after the impact it is at x_B(s) = (g T / 2) s - g s^2 / 2, s in
 * (0, T); the paddle is at x_P(s) = -S + S cos(w s) + C sin(w s), w = 2 pi
 * / T, S = -paddle_accel / w^2, C = v* / w, v* = g T (1 - alpha) / (2 (1 +
 * alpha)) (paddle()'s amp sin(w s + th) expanded: position 0, velocity v*
 * and acceleration paddle_accel at s = 0).  The impact guard (crossed
 * downward) is the gap x_B - x_P; its interior minima are found here on a
 * fine grid refined by golden sections.  Since d gap / d paddle_accel =
 * -(1 - cos w s) / w^2 < 0 on (0, T), the gap falls at every s as
 * paddle_accel grows: there is one grazing value, found here by bisection,
 * below which the margin is positive (or infinite) and above which it is
 * negative; no grazing at all for paddle_accel <= 0.
 *
 * The simplest walker (share/examples/simplest_walker.c), whose heelstrike
 * guard phi - 2 theta is crossed upward: margins against samples of the
 * flow by hes_variational, and the same margins from the orbit seen at its
 * other section (midstance).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testmodels.h"
#include "testutil.h"
#include "juggler_closed.h"

enum { IMPACT, APEX };

/* The juggler's orbit at paddle_accel acc and its margins; the status of
 * hes_orbit_find. */
static hes_status juggler_margins(double acc, hes_guard_margin gm[2], hes_orbit *o)
{
    hes_system *sys = test_system("paddle-juggler");
    ck_assert_int_eq(hes_system_set_param(sys, "paddle_accel", acc), HES_OK);
    hes_status st = hes_orbit_find(sys, o);
    if (st == HES_OK)
        ck_assert_msg(hes_orbit_guard_margins(sys, o, gm) == HES_OK, "%s",
                      hes_system_errmsg(sys));
    hes_system_destroy(sys);
    return st;
}

/* The margin of the impact against the closed form: to 1e-6 of the apex
 * height g T^2 / 8, the time to 1e-6 s. */
static void check_juggler(double acc)
{
    juggler j = juggler_at(acc);
    double s, cf = closed_form_margin(&j, &s), apex = j.g * j.T * j.T / 8.0;
    hes_guard_margin gm[2];
    hes_orbit o;
    ck_assert_msg(juggler_margins(acc, gm, &o) == HES_OK, "paddle_accel %g: no orbit", acc);
    ck_assert_msg(isinf(gm[APEX].margin) && gm[APEX].margin > 0 && isnan(gm[APEX].t) &&
                  gm[APEX].phase == -1, "apex margin %g", gm[APEX].margin);
    if (isinf(cf)) {
        ck_assert_msg(isinf(gm[IMPACT].margin) && gm[IMPACT].margin > 0 &&
                      gm[IMPACT].phase == -1 && isnan(gm[IMPACT].t),
                      "paddle_accel %g: margin %.12g where the gap has no interior minimum",
                      acc, gm[IMPACT].margin);
    } else {
        /* the orbit's time of the flight's s: the flight starts at T/2 */
        double t = s < j.T / 2 ? j.T / 2 + s : s - j.T / 2;
        double err = fabs(gm[IMPACT].margin - cf);
        printf("paddle_accel %.10g: margin %.12f, closed form %.12f, |difference| / apex "
               "%.2e, t %.9f (closed form %.9f)\n", acc, gm[IMPACT].margin, cf, err / apex,
               gm[IMPACT].t, t);
        ck_assert_msg(err <= 1e-6 * apex, "paddle_accel %g: margin %.12g, closed form %.12g",
                      acc, gm[IMPACT].margin, cf);
        ck_assert_msg(fabs(gm[IMPACT].t - t) < 1e-6, "time %.12g, closed form %.12g",
                      gm[IMPACT].t, t);
        ck_assert_int_eq(gm[IMPACT].phase, s < j.T / 2 ? 1 : 0);
    }
    hes_orbit_free(&o);
}

START_TEST(test_juggler_margins_match_the_closed_form_gap)
{
    const double accs[] = { -20, -15, -5.45, 0, 5, 10, 16, 18, 20, 22 };
    for (size_t i = 0; i < sizeof accs / sizeof *accs; i++)
        check_juggler(accs[i]);
}
END_TEST

START_TEST(test_juggler_paddle_never_grazes_below_zero_accel)
{
    /* the closed form: no interior minimum of the gap over the model's
       search range below 15 (and none, by monotonicity, below zero) */
    for (double acc = -1000; acc <= 15; acc += acc < -20 ? 100 : 0.5) {
        juggler j = juggler_at(acc);
        double s;
        ck_assert_msg(isinf(closed_form_margin(&j, &s)), "paddle_accel %g: interior minimum "
                      "at s = %g", acc, s);
    }
}
END_TEST

START_TEST(test_juggler_margin_changes_sign_at_the_grazing_accel)
{
    double graze = grazing_accel(16, 30), s;
    juggler j = juggler_at(graze);
    printf("grazing at paddle_accel = %.10f (closed form; interior minimum at s = %.9f)\n",
           graze, (closed_form_margin(&j, &s), s));
    ck_assert(graze > 22.3 && graze < 22.32);
    hes_guard_margin gm[2];
    hes_orbit o;
    for (int k = 0; k < 2; k++) {
        double d = k ? 1e-3 : 1e-4;
        check_juggler(graze - d);
        ck_assert_int_eq(juggler_margins(graze - d, gm, &o), HES_OK);
        ck_assert_msg(gm[IMPACT].margin > 0, "%g before grazing: %g", d, gm[IMPACT].margin);
        hes_orbit_free(&o);
        /* past it the ball passes through the paddle between impacts: the
           orbit search refuses it when its check with every guard armed
           sees the crossing, and otherwise gives it with a negative margin */
        hes_status st = juggler_margins(graze + d, gm, &o);
        printf("paddle_accel %.10g (%g past grazing): %s\n", graze + d, d,
               st == HES_OK ? "an orbit, through the paddle" : hes_strerror(st));
        if (st == HES_OK) {
            check_juggler(graze + d);
            ck_assert_msg(gm[IMPACT].margin < 0, "%g past grazing: %g", d, gm[IMPACT].margin);
        } else {
            ck_assert_int_eq(st, HES_ENOORBIT);
        }
        hes_orbit_free(&o);
    }
}
END_TEST

/* The juggler with a ceiling at height 0.4 m above the paddle's mean,
 * crossed upward, which the ball never reaches: its clearance 0.4 - g T^2 / 8
 * is smallest exactly at the apex, an event of another transition that
 * leaves the guard continuous, where the period also ends and begins. */
#define CEILING 0.4

static int ceiling_guard(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t; (void)p; (void)d;
    g[0] = x[0] - CEILING;
    return 0;
}

START_TEST(test_ceiling_clearance_is_smallest_at_the_apex_event)
{
    const hes_model *base = hes_problem_find("paddle-juggler");
    hes_transition tr[3];
    memcpy(tr, base->transitions, sizeof(hes_transition) * 2);
    hes_transition ceiling = { "ceiling", 0, 0, HES_UP, ceiling_guard, NULL, NULL, NULL, NULL,
                               NULL, 0, NULL };
    tr[2] = ceiling;
    hes_model m = *base;
    m.name = "juggler-with-ceiling";
    m.n_transitions = 3;
    m.transitions = tr;
    hes_system *sys = test_system_of(&m);
    ck_assert_ptr_nonnull(sys);
    hes_orbit o;
    hes_guard_margin gm[3];
    ck_assert_msg(hes_orbit_find(sys, &o) == HES_OK, "%s", hes_system_errmsg(sys));
    ck_assert_msg(hes_orbit_guard_margins(sys, &o, gm) == HES_OK, "%s", hes_system_errmsg(sys));
    juggler j = juggler_at(-5.45);
    double want = CEILING - j.g * j.T * j.T / 8.0;
    printf("ceiling: margin %.12f at t %.9f (closed form %.12f at the apex, t = T)\n",
           gm[2].margin, gm[2].t, want);
    ck_assert_msg(fabs(gm[2].margin - want) < 1e-9, "%.12g vs %.12g", gm[2].margin, want);
    ck_assert(fabs(gm[2].t - j.T) < 1e-9);
    ck_assert(isinf(gm[IMPACT].margin) && isinf(gm[APEX].margin));
    hes_orbit_free(&o);
    hes_system_destroy(sys);
}
END_TEST

/* --------------------------------------------------------- the simplest walker */

/* h = s g of the walker's guards at state x: heelstrike phi - 2 theta (up),
 * midstance theta (down). */
static double walker_h(int tr, const double *x)
{
    return tr == 0 ? -(x[1] - 2.0 * x[0]) : x[0];
}

typedef struct {
    hes_system *sys;
    const hes_phase *ph;
    int tr;
} walker_phase;

/* h at time s after the phase's start, by hes_variational from its start. */
static double walker_h_at(const walker_phase *w, double s)
{
    double x[4];
    ck_assert_int_eq(hes_variational(w->sys, w->ph->mode, w->ph->tm0, s, w->ph->x0, x, NULL),
                     HES_OK);
    return walker_h(w->tr, x);
}

/* The smallest interior local minimum of h over the orbit's phases (sampled
 * at 400 points each, refined by golden sections), +INFINITY when none. */
static double walker_sampled_margin(hes_system *sys, const hes_orbit *o, int tr, double *t)
{
    enum { N = 400 };
    double best = INFINITY;
    *t = NAN;
    for (int i = 0; i < o->traj.n_phases; i++) {
        walker_phase w = { sys, &o->traj.phases[i], tr };
        double dur = w.ph->t1 - w.ph->t0, h = dur / N, v[N + 1];
        if (!(dur > 1e-9))
            continue;
        for (int k = 0; k <= N; k++)
            v[k] = walker_h_at(&w, k * h);
        for (int k = 1; k < N; k++) {
            if (!(v[k] < v[k - 1] && v[k] < v[k + 1]))
                continue;
            const double r = (sqrt(5.0) - 1.0) / 2.0;
            double a = (k - 1) * h, b = (k + 1) * h;
            double c = b - r * (b - a), d = a + r * (b - a);
            double fc = walker_h_at(&w, c), fd = walker_h_at(&w, d);
            while (b - a > 1e-9) {
                if (fc < fd) {
                    b = d; d = c; fd = fc;
                    c = b - r * (b - a); fc = walker_h_at(&w, c);
                } else {
                    a = c; c = d; fc = fd;
                    d = a + r * (b - a); fd = walker_h_at(&w, d);
                }
            }
            double m = walker_h_at(&w, 0.5 * (a + b));
            if (m < best) {
                best = m;
                *t = w.ph->t0 + 0.5 * (a + b);
            }
        }
    }
    return best;
}

static void walker_margins(const hes_model *m, hes_guard_margin gm[2], double sampled[2],
                           double ts[2])
{
    hes_system *sys = test_system_of(m);
    ck_assert_ptr_nonnull(sys);
    hes_orbit o;
    ck_assert_msg(hes_orbit_find(sys, &o) == HES_OK, "%s", hes_system_errmsg(sys));
    ck_assert_msg(hes_orbit_guard_margins(sys, &o, gm) == HES_OK, "%s", hes_system_errmsg(sys));
    for (int tr = 0; tr < 2; tr++)
        sampled[tr] = walker_sampled_margin(sys, &o, tr, &ts[tr]);
    hes_orbit_free(&o);
    hes_system_destroy(sys);
}

START_TEST(test_walker_heelstrike_margin_matches_sampled_flow_at_both_sections)
{
    hes_guard_margin heel[2], mid[2];
    double sh[2], sm[2], th[2], tm[2];
    walker_margins(&simplest_walker_heelstrike, heel, sh, th);
    walker_margins(&simplest_walker_midstance, mid, sm, tm);
    for (int tr = 0; tr < 2; tr++) {
        printf("walker %s: margin %.12g at t %.9f (sampled %.12g at %.9f); from midstance "
               "%.12g (sampled %.12g)\n", tr ? "midstance" : "heelstrike", heel[tr].margin,
               heel[tr].t, sh[tr], th[tr], mid[tr].margin, sm[tr]);
        if (isinf(sh[tr])) {
            ck_assert(isinf(heel[tr].margin) && heel[tr].margin > 0);
        } else {
            ck_assert_msg(fabs(heel[tr].margin - sh[tr]) < 1e-9, "%.12g vs %.12g",
                          heel[tr].margin, sh[tr]);
            ck_assert(fabs(heel[tr].t - th[tr]) < 1e-4);
        }
        if (isinf(sm[tr]))
            ck_assert(isinf(mid[tr].margin) && mid[tr].margin > 0);
        else
            ck_assert_msg(fabs(mid[tr].margin - sm[tr]) < 1e-9, "%.12g vs %.12g",
                          mid[tr].margin, sm[tr]);
    }
    /* heelstrike (crossed upward) has an interior minimum of -(phi - 2 theta):
       the swing foot's scuffing below the slope early in the step, which the
       model ignores (a negative margin); theta falls monotonically through
       midstance: no interior minimum */
    ck_assert(heel[0].margin < 0);
    ck_assert(isinf(heel[1].margin));
    /* one orbit seen at two sections: the same clearance */
    ck_assert_msg(fabs(heel[0].margin - mid[0].margin) < 1e-8, "%.12g vs %.12g",
                  heel[0].margin, mid[0].margin);
    ck_assert(isinf(mid[1].margin));
}
END_TEST

/* ------------------------------------------------------------------ refusals */

START_TEST(test_margins_refuse_null_arguments_and_an_ess_system)
{
    hes_system *sys = test_system("paddle-juggler");
    hes_orbit o, empty;
    hes_guard_margin gm[2];
    memset(&empty, 0, sizeof empty);
    ck_assert_int_eq(hes_orbit_find(sys, &o), HES_OK);
    ck_assert_int_eq(hes_orbit_guard_margins(NULL, &o, gm), HES_EINVAL);
    ck_assert_int_eq(hes_orbit_guard_margins(sys, NULL, gm), HES_EINVAL);
    ck_assert_int_eq(hes_orbit_guard_margins(sys, &o, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_orbit_guard_margins(sys, &empty, gm), HES_EINVAL);
    ck_assert(strstr(hes_system_errmsg(sys), "trajectory") != NULL);
    hes_system *ess;
    ck_assert_int_eq(hes_system_new_ess(hes_ess_problem_find("hopper-1d"), &ess, NULL), HES_OK);
    ck_assert_int_eq(hes_orbit_guard_margins(ess, &o, gm), HES_EINVAL);
    ck_assert(strstr(hes_system_errmsg(ess), "hybrid") != NULL);
    hes_system_destroy(ess);
    hes_orbit_free(&o);
    hes_system_destroy(sys);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("guard_margin");
    TCase *tc = tcase_create("margins");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_juggler_margins_match_the_closed_form_gap);
    tcase_add_test(tc, test_juggler_paddle_never_grazes_below_zero_accel);
    tcase_add_test(tc, test_juggler_margin_changes_sign_at_the_grazing_accel);
    tcase_add_test(tc, test_ceiling_clearance_is_smallest_at_the_apex_event);
    tcase_add_test(tc, test_walker_heelstrike_margin_matches_sampled_flow_at_both_sections);
    tcase_add_test(tc, test_margins_refuse_null_arguments_and_an_ess_system);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
