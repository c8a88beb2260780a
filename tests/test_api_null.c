/*
 * test_api_null.c - the caller's contract of lib/hes.h for NULL pointers
 * (the paragraph "NULL pointers" at the top of hes.h): a required pointer
 * given as NULL is HES_EINVAL (with the reason in the system's or the
 * msg buffer where there is one), never a crash; every _free and
 * _destroy of NULL does nothing; accessors of a NULL object give NULL, 0
 * or -1.  Each call runs in Check's forked test, so a crash fails it.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"
#include "testutil.h"

START_TEST(test_every_free_and_destroy_of_null_does_nothing)
{
    hes_robot_destroy(NULL);
    hes_model_destroy(NULL);
    hes_ess_destroy(NULL);
    hes_ess_result_free(NULL);
    hes_impact_set_free(NULL);
    hes_invdyn_destroy(NULL);
    hes_invdyn_run_free(NULL);
    hes_ess_model_destroy(NULL);
    hes_ess_model_destroy(NULL);
    hes_flow_free(NULL);
    hes_system_destroy(NULL);
    hes_analysis_destroy(NULL);
    ck_assert_int_eq(hes_sweep_file_close(NULL, NULL), HES_OK);
    hes_traj_free(NULL);
    hes_monodromy_free(NULL);
    hes_stability_free(NULL);
    hes_orbit_free(NULL);
    hes_analysis_free(NULL);
    hes_impact_orbit_free(NULL);
    hes_ess_orbit_free(NULL);
    hes_trials_free(NULL);
    hes_shape_destroy(NULL);
    hes_shape_result_free(NULL);
    hes_colloc_destroy(NULL);
    hes_gait_free(NULL);
    hes_trajopt_result_free(NULL);
    hes_plugin_destroy(NULL);
    hes_state_sweep_free(NULL);
}
END_TEST

/* Every function that returns a status and takes pointers, with every
 * pointer NULL (and zero for the numbers). */
START_TEST(test_every_status_function_with_null_pointers_returns_einval)
{
    ck_assert_int_eq(hes_input_open(NULL, 0, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_input_read(NULL, 0, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_integrator_from_name(NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_model_validate(NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_model_check_derivatives(NULL, NULL, 0.0, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_mech_event_state(NULL, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_robot_read(NULL, NULL, 0, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_robot_reference(NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_robot_dims(NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_robot_dynamics_at(NULL, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_robot_set_motors(NULL, NULL, 0, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_robot_pinned_mode(NULL, 0, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_robot_copy(NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_robot_set_slope(NULL, 0.0), HES_EINVAL);
    ck_assert_int_eq(hes_robot_set_friction(NULL, 0, 0.0), HES_EINVAL);
    ck_assert_int_eq(hes_robot_model_new(NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_robot_model_read(NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_robot_model_motion(NULL, 0, 0.0, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_mech_mode_state(NULL, 0.0, NULL, NULL, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_mech_impact(NULL, NULL, NULL, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_ess_validate(NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_ess_new(NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_ess_set_param(NULL, NULL, 0.0), HES_EINVAL);
    ck_assert_int_eq(hes_ess_run(NULL, NULL, 0.0, NULL, 0.0, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_lcp_solve_from(0, NULL, NULL, 0.0, 0, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_lcp_solve(0, NULL, NULL, 0.0, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_impact_anitescu_potra(NULL, NULL, NULL, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_impact_sequential(NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_impact_routh(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_impact_set_sample(NULL, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_impact_set_locate(NULL, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_impact_outcome_compute(NULL, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_impact_outcome_init(NULL, HES_LAW_SEQUENTIAL, 1, 1), HES_EINVAL);
    hes_impact_outcome_free(NULL);
    ck_assert_int_eq(hes_impact_default_step(NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_invdyn_method_from_name(NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_invdyn_solve(NULL, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_invdyn_trajectory(NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_sampled_derivatives(0, 0, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_mech_contacts(NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_impact_problem_setup(NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_impact_setup_state(NULL, 0, NULL, NULL, NULL, NULL, NULL), HES_EINVAL);
    hes_impact_setup_free(NULL);
    ck_assert_int_eq(hes_sim_method_from_name(NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_hopper_1d_exact(NULL, 0.0, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_system_new(NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_system_new_ess(NULL, NULL, NULL), HES_EINVAL);
    {
        hes_system *none = (hes_system *)1;
        ck_assert_int_eq(hes_system_new_ess(NULL, &none, NULL), HES_EINVAL);
        ck_assert_ptr_null(none);
    }
    ck_assert_int_eq(hes_system_set_ess_options(NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_system_get_ess_options(NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_system_set_orbit_period(NULL, 1.0), HES_EINVAL);
    ck_assert_int_eq(hes_sweep_run_system(NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_sweep_run_file(NULL, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_sweep_run_mpi(NULL, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_sweep_file_open(NULL, NULL, NULL, NULL, NULL, NULL, NULL),
                     HES_EINVAL);
    ck_assert_int_eq(hes_sweep_file_put(NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_shape_result_apply(NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_system_open(NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_analysis_new(NULL, 0, NULL), HES_EINVAL);
    ck_assert(isnan(hes_analysis_psi(NULL)));
    ck_assert_int_eq(hes_analysis_monodromy(NULL, 0, NULL, 0), -1);
    ck_assert_ptr_null(hes_system_name(NULL));
    ck_assert_ptr_null(hes_system_ess(NULL));
    ck_assert_ptr_null(hes_colloc_errmsg(NULL));
    ck_assert_ptr_null(hes_invdyn_errmsg(NULL));
    ck_assert_ptr_null(hes_system_ess_model(NULL));
    ck_assert_ptr_null(hes_system_param_info(NULL, 0));
    ck_assert_int_eq(hes_system_n_params(NULL), 0);
    ck_assert_ptr_null(hes_kind_name((hes_kind)7));
    ck_assert_int_eq(hes_system_set_settings(NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_system_set_param(NULL, NULL, 0.0), HES_EINVAL);
    ck_assert_int_eq(hes_system_get_param(NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_system_check_params(NULL), HES_EINVAL);
    ck_assert_int_eq(hes_simulate(NULL, 0, 0.0, 0.0, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_variational(NULL, 0, 0.0, 0.0, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_saltation(NULL, 0, 0.0, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_monodromy_compute(NULL, NULL, 0, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_stability_compute(NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_stability_update(NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_orbit_find(NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_system_set_orbit_start(NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_orbit_return_map(NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_analyze(NULL, 0, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_impact_orbit_analyze(NULL, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_impact_orbit_psi(NULL, NULL, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_ess_orbit_find(NULL, NULL, NULL, 0.0, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_return_map_fd(NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_simultaneous_find(NULL, NULL, 0.0, NULL, 0, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_simultaneous_orbit(NULL, NULL, NULL, 0, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_trials_run(NULL, NULL, 0, 0.0, 0, 0, 0.0, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_trials_run_box(NULL, NULL, 0, 0.0, 0, 0, 0.0, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_shape_new(NULL, NULL, 0, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_shape_eval(NULL, NULL, 0, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_measure_from_name(NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_shape_optimize(NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_nlp_solver_from_name(NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_colloc_new(NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_colloc_new(NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_colloc_set_design(NULL, 0, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_colloc_guess(NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_colloc_solve(NULL, NULL, 0.0, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_colloc_psi(NULL, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_colloc_return_map(NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_colloc_objective_from_name(NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_colloc_minimize(NULL, NULL, 0, 0.0, 0.0, 0, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_colloc_optimize(NULL, NULL, 0.0, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_colloc_gait(NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_colloc_from_gait(NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_gait_model(NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_invdyn_gait(NULL, NULL, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_trajopt_run(NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_plugin_open(NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_plugin_open_ess(NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_plugin_open_any(NULL, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_sweep_run(NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_latin_hypercube(0, 0, NULL, NULL, 0, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_grid_linspace(0.0, 0.0, 0, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_grid_tensor_size(0, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_grid_tensor(0, NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_state_sweep_run(NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_gait_write(NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_gait_read(NULL, NULL, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_gait_problem(NULL, NULL, 0, NULL), HES_EINVAL);
}
END_TEST

START_TEST(test_accessors_of_null_objects_give_null_or_zero)
{
    ck_assert_ptr_null(hes_system_model(NULL));
    ck_assert_ptr_null(hes_system_params(NULL));
    ck_assert_ptr_nonnull(hes_system_errmsg(NULL));
    hes_settings s = hes_system_get_settings(NULL);
    ck_assert(s.rtol > 0 && s.max_phase_time > 0);
    ck_assert_int_eq(hes_shape_count(NULL), 0);
    ck_assert_int_eq(hes_shape_param(NULL, 0), -1);
    ck_assert_int_eq(hes_colloc_nvars(NULL), 0);
    ck_assert_int_eq(hes_colloc_ncons(NULL), 0);
    ck_assert_int_eq(hes_colloc_nineq(NULL), 0);
    ck_assert_int_eq(hes_colloc_phases(NULL), 0);
    ck_assert(hes_colloc_duration(NULL, NULL, 0) != hes_colloc_duration(NULL, NULL, 0));
    ck_assert_ptr_null(hes_colloc_state(NULL, NULL, 0, 0));
    ck_assert_ptr_null(hes_robot_mech(NULL));
    ck_assert_ptr_null(hes_robot_coordinate(NULL, 0));
    ck_assert_ptr_null(hes_robot_velocity_name(NULL, 0));
    ck_assert_int_eq(hes_robot_motor_count(NULL), 0);
    ck_assert_ptr_null(hes_robot_motor_joint(NULL, 0));
    ck_assert_int_eq(hes_robot_contact_count(NULL), 0);
    ck_assert_ptr_null(hes_robot_contact_name(NULL, 0));
    ck_assert_ptr_null(hes_robot_model_robot(NULL));
    ck_assert_ptr_null(hes_analysis_json(NULL, NULL));
    ck_assert_ptr_null(hes_trials_json(NULL, NULL, NULL));
    ck_assert_ptr_null(hes_analysis_gradient_json(NULL, NULL, NULL, NULL));
    ck_assert_ptr_null(hes_shape_json(NULL, NULL, HES_MEASURE_PSI, NULL));
    double out[4] = { 0 };
    ck_assert_int_ne(hes_mech_field(0, NULL, NULL, out, NULL), 0);
    ck_assert_int_ne(hes_mech_field_dx(0, NULL, NULL, out, NULL), 0);
    ck_assert_int_ne(hes_mech_guard(0, NULL, NULL, out, NULL), 0);
    ck_assert_int_ne(hes_mech_reset(0, NULL, NULL, out, NULL), 0);
    /* void functions with nowhere to write: nothing happens */
    hes_ess_options_init(NULL);
    hes_contact_modes(NULL, NULL, 0, NULL);
    hes_contact_velocities(NULL, NULL, NULL);
    hes_impact_set_extremes(NULL, NULL, NULL, NULL);
    hes_invdyn_problem_robot(NULL, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL);
}
END_TEST

/* With a real system, a NULL name, settings or output is HES_EINVAL and
 * the system's message says what is missing; the system stays usable. */
START_TEST(test_null_arguments_to_a_valid_system_are_einval_with_a_reason)
{
    hes_system *sys = test_system_of(hes_problem_find("slip-hopper"));
    ck_assert_ptr_nonnull(sys);
    ck_assert_int_eq(hes_system_set_param(sys, NULL, 1.0), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "no name"));
    ck_assert_int_eq(hes_system_set_settings(sys, NULL), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "none given"));
    ck_assert_int_eq(hes_analyze(sys, 0, NULL), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "nowhere to put"));
    ck_assert_int_eq(hes_orbit_find(sys, NULL), HES_EINVAL);
    double v;
    ck_assert_int_eq(hes_system_get_param(sys, NULL, &v), HES_EINVAL);
    ck_assert_int_eq(hes_system_get_param(sys, hes_system_model(sys)->params[0].name, NULL),
                     HES_EINVAL);
    ck_assert_int_eq(hes_monodromy_compute(sys, NULL, 1, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_simultaneous_orbit(sys, NULL, NULL, 1, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_return_map_fd(sys, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_orbit_return_map(sys, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_shape_optimize(sys, NULL, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_colloc_new(sys, NULL, NULL), HES_EINVAL);
    hes_shape *sh = (hes_shape *)&sh;
    ck_assert_int_eq(hes_shape_new(sys, NULL, 1, NULL, &sh), HES_EINVAL);
    ck_assert_ptr_null(sh);
    /* and the system still analyses */
    hes_analysis res;
    ck_assert_int_eq(hes_analyze(sys, 0, &res), HES_OK);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_null_plugin_arguments_are_einval)
{
    hes_error msg;
    hes_plugin *p = (hes_plugin *)&p;
    const hes_model *m;
    const hes_ess_model *e;
    ck_assert_int_eq(hes_plugin_open_any(NULL, &p, &m, &e, &msg), HES_EINVAL);
    ck_assert_ptr_null(p);
    ck_assert_int_eq(hes_plugin_open_any("./x.so", NULL, &m, &e, &msg), HES_EINVAL);
    ck_assert_int_eq(hes_plugin_open_any("./x.so", &p, NULL, &e, &msg), HES_EINVAL);
    ck_assert_int_eq(hes_plugin_open("./x.so", &p, NULL, NULL), HES_EINVAL);
}
END_TEST

/* Every options struct has its _init: NULL is ignored, and no field is left
 * as the memory held before (two structs filled with different bytes come
 * out byte-identical, padding aside: both are zeroed first by each init or
 * every field is set). */
#define FILLED_ALIKE(type, init, ok)                                           \
    do {                                                                       \
        type a_, b_;                                                           \
        init(NULL);                                                            \
        memset(&a_, 0x5a, sizeof a_);                                          \
        memset(&b_, 0xa5, sizeof b_);                                          \
        init(&a_);                                                             \
        init(&b_);                                                             \
        (ok) = memcmp(&a_, &b_, sizeof a_) == 0;                               \
    } while (0)

START_TEST(test_every_options_init_sets_every_field_and_ignores_null)
{
    int ok[14];
    const char *name[14] = { "sim", "shape", "colloc", "trajopt", "ess", "ess_orbit", "sweep",
                             "sweep_file", "state_sweep", "routh", "impact_set", "impact_orbit",
                             "invdyn", "invdyn_run" };
    FILLED_ALIKE(hes_sim_options, hes_sim_options_init, ok[0]);
    FILLED_ALIKE(hes_shape_options, hes_shape_options_init, ok[1]);
    FILLED_ALIKE(hes_colloc_options, hes_colloc_options_init, ok[2]);
    FILLED_ALIKE(hes_trajopt_options, hes_trajopt_options_init, ok[3]);
    FILLED_ALIKE(hes_ess_options, hes_ess_options_init, ok[4]);
    FILLED_ALIKE(hes_ess_orbit_options, hes_ess_orbit_options_init, ok[5]);
    FILLED_ALIKE(hes_sweep_options, hes_sweep_options_init, ok[6]);
    FILLED_ALIKE(hes_sweep_file_options, hes_sweep_file_options_init, ok[7]);
    FILLED_ALIKE(hes_state_sweep_options, hes_state_sweep_options_init, ok[8]);
    FILLED_ALIKE(hes_routh_options, hes_routh_options_init, ok[9]);
    FILLED_ALIKE(hes_impact_set_options, hes_impact_set_options_init, ok[10]);
    FILLED_ALIKE(hes_impact_orbit_options, hes_impact_orbit_options_init, ok[11]);
    FILLED_ALIKE(hes_invdyn_options, hes_invdyn_options_init, ok[12]);
    FILLED_ALIKE(hes_invdyn_run_options, hes_invdyn_run_options_init, ok[13]);
    for (int i = 0; i < 14; i++)
        ck_assert_msg(ok[i], "hes_%s_options_init leaves a field as the memory held", name[i]);
}
END_TEST

static Suite *api_null_suite(void)
{
    Suite *s = suite_create("api_null");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_every_free_and_destroy_of_null_does_nothing);
    tcase_add_test(tc, test_every_status_function_with_null_pointers_returns_einval);
    tcase_add_test(tc, test_accessors_of_null_objects_give_null_or_zero);
    tcase_add_test(tc, test_null_arguments_to_a_valid_system_are_einval_with_a_reason);
    tcase_add_test(tc, test_null_plugin_arguments_are_einval);
    tcase_add_test(tc, test_every_options_init_sets_every_field_and_ignores_null);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(api_null_suite());
}
