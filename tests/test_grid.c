/*
 * test_grid.c - evenly spaced values and tensor grids (hes_grid_linspace,
 * hes_grid_tensor, hes_grid_tensor_size), the state sweep built on them
 * (hes_state_sweep_run), and the from-name lookups of the enums
 * (integrator, measure, collocation objective).
 *
 * Independent checks: the end points are lo and hi exactly, the count is n,
 * every value is within 2 ulp of lo + k (hi - lo) / (n - 1) evaluated in long
 * double, a range symmetric about 0 gives exact negatives and 0 in the
 * middle; the tensor grid's point i is (v0[i / n1], v1[i % n1]); a state
 * sweep of a dropped trotter gives the trajectory hes_simulate gives from
 * the same state.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

START_TEST(test_linspace_end_points_are_exact_and_the_count_right)
{
    static const double ranges[][2] = { {-12.2, 1.3}, {-0.2, 0.6}, {0.1, 0.3}, {-3, 1},
                                        {0, 0.4}, {1e-300, 3e-300}, {-1e6, 7.3} };
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++)
        for (int n = 1; n <= 40; n++) {
            double lo = ranges[r][0], hi = ranges[r][1], v[41];
            v[n] = 12345.0; /* the guard after the last */
            ck_assert_int_eq(hes_grid_linspace(lo, hi, n, v), HES_OK);
            ck_assert(v[0] == lo);
            if (n > 1)
                ck_assert(v[n - 1] == hi);
            ck_assert(v[n] == 12345.0);
            for (int k = 0; k < n; k++) {
                long double exact = n == 1 ? lo : lo + k * ((long double)hi - lo) / (n - 1);
                double scale = fmax(fabs(lo), fabs(hi));
                ck_assert_msg(fabsl(v[k] - exact) <= 2 * DBL_EPSILON * scale,
                              "value %d of %d in [%g, %g]", k, n, lo, hi);
                if (k > 0)
                    ck_assert(v[k] >= v[k - 1]);
            }
        }
}
END_TEST

START_TEST(test_linspace_symmetric_range_is_symmetric)
{
    double v[11];
    ck_assert_int_eq(hes_grid_linspace(-0.3, 0.3, 11, v), HES_OK);
    for (int k = 0; k < 11; k++)
        ck_assert(v[k] == -v[10 - k]);
    ck_assert(v[5] == 0.0);
}
END_TEST

START_TEST(test_linspace_refuses_bad_input)
{
    double v[4];
    ck_assert_int_eq(hes_grid_linspace(0, 1, 0, v), HES_EINVAL);
    ck_assert_int_eq(hes_grid_linspace(0, 1, -3, v), HES_EINVAL);
    ck_assert_int_eq(hes_grid_linspace(1, 0, 3, v), HES_EINVAL);
    ck_assert_int_eq(hes_grid_linspace(NAN, 1, 3, v), HES_EINVAL);
    ck_assert_int_eq(hes_grid_linspace(0, INFINITY, 3, v), HES_EINVAL);
    ck_assert_int_eq(hes_grid_linspace(-DBL_MAX, DBL_MAX, 3, v), HES_EINVAL); /* width overflows */
    ck_assert_int_eq(hes_grid_linspace(0, 1, 3, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_grid_linspace(2, 2, 3, v), HES_OK);
    ck_assert(v[0] == 2 && v[1] == 2 && v[2] == 2);
}
END_TEST

START_TEST(test_tensor_grid_last_dimension_fastest)
{
    const double lo[2] = { -0.2, -3 }, hi[2] = { 0.6, 1 };
    const int count[2] = { 4, 5 };
    double v0[4], v1[5], out[40];
    long n;
    ck_assert_int_eq(hes_grid_tensor_size(2, count, &n), HES_OK);
    ck_assert_int_eq(n, 20);
    ck_assert_int_eq(hes_grid_tensor(2, lo, hi, count, out), HES_OK);
    hes_grid_linspace(lo[0], hi[0], 4, v0);
    hes_grid_linspace(lo[1], hi[1], 5, v1);
    for (int i = 0; i < 20; i++) {
        ck_assert(out[2 * i] == v0[i / 5]);
        ck_assert(out[2 * i + 1] == v1[i % 5]);
    }
}
END_TEST

START_TEST(test_tensor_grid_refuses_bad_input)
{
    const double lo[2] = { 0, 0 }, hi[2] = { 1, 1 }, bad_hi[2] = { 1, -1 };
    const int count[2] = { 2, 3 }, zero[2] = { 2, 0 }, huge[2] = { INT_MAX, 2 };
    double out[6];
    long n = -1;
    ck_assert_int_eq(hes_grid_tensor_size(0, count, &n), HES_EINVAL);
    ck_assert_int_eq(hes_grid_tensor_size(2, zero, &n), HES_EINVAL);
    ck_assert_int_eq(hes_grid_tensor_size(2, huge, &n), HES_EINVAL);
    ck_assert_int_eq(hes_grid_tensor_size(2, NULL, &n), HES_EINVAL);
    ck_assert_int_eq(hes_grid_tensor_size(2, count, NULL), HES_EINVAL);
    ck_assert_int_eq(n, -1);
    ck_assert_int_eq(hes_grid_tensor(2, lo, bad_hi, count, out), HES_EINVAL);
    ck_assert_int_eq(hes_grid_tensor(2, lo, hi, zero, out), HES_EINVAL);
    ck_assert_int_eq(hes_grid_tensor(2, NULL, hi, count, out), HES_EINVAL);
    ck_assert_int_eq(hes_grid_tensor(2, lo, hi, count, NULL), HES_EINVAL);
}
END_TEST

/* The rigid trotter dropped from rest (cli.sh's sweep): each value's run is
 * the run hes_simulate makes from the same state. */
START_TEST(test_state_sweep_runs_are_the_simulations)
{
    const hes_model *m = hes_problem_find("trot-rigid");
    ck_assert_ptr_nonnull(m);
    hes_system *sys = test_system_of(m);
    ck_assert_ptr_nonnull(sys);
    const double x0[4] = { 0.6, 0, 0, 0 };
    hes_state_sweep_options o = { 0 };
    o.mode = 0;
    o.dim = 4;
    o.x0 = x0;
    o.state = 1;
    o.lo = -0.01;
    o.hi = 0.01;
    o.n = 5;
    o.time = 0.4;
    hes_state_sweep sw;
    ck_assert_int_eq(hes_state_sweep_run(sys, &o, &sw), HES_OK);
    ck_assert_int_eq(sw.n, 5);
    ck_assert(sw.points[0].value == -0.01 && sw.points[4].value == 0.01);
    ck_assert(sw.points[2].value == 0.0);
    hes_sim_options so;
    hes_sim_options_init(&so);
    so.t_end = 0.4;
    for (int k = 0; k < 5; k++) {
        double x[4];
        hes_traj t;
        memcpy(x, x0, sizeof x);
        x[1] = sw.points[k].value;
        ck_assert_int_eq(hes_simulate(sys, 0, 0, 0, x, &so, &t), sw.points[k].status);
        ck_assert_int_eq(t.n_events, sw.points[k].traj.n_events);
        ck_assert_int_eq(t.n_phases, sw.points[k].traj.n_phases);
        const hes_phase *a = &t.phases[t.n_phases - 1],
                        *b = &sw.points[k].traj.phases[t.n_phases - 1];
        ck_assert_int_eq(a->mode, b->mode);
        for (int i = 0; i < m->modes[a->mode].dim; i++)
            ck_assert(a->x1[i] == b->x1[i]);
        hes_traj_free(&t);
    }
    hes_state_sweep_free(&sw);
    hes_state_sweep_free(&sw); /* freeing twice is harmless */
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_state_sweep_refuses_bad_options_with_a_message)
{
    const hes_model *m = hes_problem_find("trot-rigid");
    hes_system *sys = test_system_of(m);
    const double x0[4] = { 0.6, 0, 0, 0 }, bad_x0[4] = { 0.6, NAN, 0, 0 };
    hes_state_sweep sw;
    hes_state_sweep_options good = { 0, 4, x0, 1, -0.01, 0.01, 3, 0.4, NULL, NULL }, o;
    o = good; o.mode = m->n_modes;
    ck_assert_int_eq(hes_state_sweep_run(sys, &o, &sw), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "mode"));
    o = good; o.dim = 3;
    ck_assert_int_eq(hes_state_sweep_run(sys, &o, &sw), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "x0 has 3 values"));
    o = good; o.state = 4;
    ck_assert_int_eq(hes_state_sweep_run(sys, &o, &sw), HES_EINVAL);
    o = good; o.x0 = bad_x0;
    ck_assert_int_eq(hes_state_sweep_run(sys, &o, &sw), HES_EINVAL);
    o = good; o.time = 0;
    ck_assert_int_eq(hes_state_sweep_run(sys, &o, &sw), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "time"));
    o = good; o.n = 0;
    ck_assert_int_eq(hes_state_sweep_run(sys, &o, &sw), HES_EINVAL);
    o = good; o.lo = 1;
    ck_assert_int_eq(hes_state_sweep_run(sys, &o, &sw), HES_EINVAL);
    ck_assert_int_eq(hes_state_sweep_run(sys, NULL, &sw), HES_EINVAL);
    ck_assert_int_eq(hes_state_sweep_run(sys, &good, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_state_sweep_run(NULL, &good, &sw), HES_EINVAL);
    ck_assert_int_eq(sw.n, 0);
    ck_assert_ptr_null(sw.points);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_lookups_round_trip_and_refuse_unknown_names)
{
    for (int i = 0; i < 2; i++) {
        hes_integrator g = (hes_integrator)(1 - i);
        ck_assert_int_eq(hes_integrator_from_name(hes_integrator_name((hes_integrator)i), &g),
                         HES_OK);
        ck_assert_int_eq(g, i);
        hes_measure me = (hes_measure)(1 - i);
        ck_assert_int_eq(hes_measure_from_name(hes_measure_name((hes_measure)i), &me), HES_OK);
        ck_assert_int_eq(me, i);
    }
    for (int i = 0; i < 4; i++) {
        hes_colloc_objective ob = (hes_colloc_objective)((i + 1) % 4);
        ck_assert_int_eq(hes_colloc_objective_from_name(
                             hes_colloc_objective_name((hes_colloc_objective)i), &ob), HES_OK);
        ck_assert_int_eq(ob, i);
    }
    ck_assert_str_eq(hes_integrator_name(HES_BDF), "bdf");
    hes_integrator rk = HES_ADAMS;
    ck_assert_int_eq(hes_integrator_from_name("rk8", &rk), HES_OK);
    ck_assert_int_eq(rk, HES_RK8);
    ck_assert_str_eq(hes_integrator_name(HES_RK8), "rk8");
    ck_assert_int_eq(hes_integrator_from_name("dopri5", &rk), HES_OK);
    ck_assert_int_eq(rk, HES_DOPRI5);
    ck_assert_str_eq(hes_measure_name(HES_MEASURE_SMOOTH), "smooth");
    ck_assert_str_eq(hes_colloc_objective_name(HES_COLLOC_STABILITY), "stability");
    ck_assert_ptr_null(hes_integrator_name((hes_integrator)4));
    ck_assert_ptr_null(hes_integrator_name((hes_integrator)-1));
    ck_assert_ptr_null(hes_measure_name((hes_measure)-1));
    ck_assert_ptr_null(hes_colloc_objective_name((hes_colloc_objective)4));
    hes_integrator g = HES_BDF;
    hes_measure me = HES_MEASURE_SMOOTH;
    hes_colloc_objective ob = HES_COLLOC_ENERGY;
    ck_assert_int_eq(hes_integrator_from_name("rk4", &g), HES_EINVAL);
    ck_assert_int_eq(hes_integrator_from_name(NULL, &g), HES_EINVAL);
    ck_assert_int_eq(hes_integrator_from_name("adams", NULL), HES_EINVAL);
    ck_assert_int_eq(hes_measure_from_name("PSI", &me), HES_EINVAL);
    ck_assert_int_eq(hes_measure_from_name("", &me), HES_EINVAL);
    ck_assert_int_eq(hes_colloc_objective_from_name("stab", &ob), HES_EINVAL);
    ck_assert_int_eq(hes_colloc_objective_from_name("stability ", &ob), HES_EINVAL);
    ck_assert_int_eq(g, HES_BDF); /* untouched */
    ck_assert_int_eq(me, HES_MEASURE_SMOOTH);
    ck_assert_int_eq(ob, HES_COLLOC_ENERGY);
}
END_TEST

static Suite *grid_suite(void)
{
    Suite *s = suite_create("grid");
    TCase *tc = tcase_create("grid");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_linspace_end_points_are_exact_and_the_count_right);
    tcase_add_test(tc, test_linspace_symmetric_range_is_symmetric);
    tcase_add_test(tc, test_linspace_refuses_bad_input);
    tcase_add_test(tc, test_tensor_grid_last_dimension_fastest);
    tcase_add_test(tc, test_tensor_grid_refuses_bad_input);
    tcase_add_test(tc, test_state_sweep_runs_are_the_simulations);
    tcase_add_test(tc, test_state_sweep_refuses_bad_options_with_a_message);
    tcase_add_test(tc, test_lookups_round_trip_and_refuse_unknown_names);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(grid_suite());
}
