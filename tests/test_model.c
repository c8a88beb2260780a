/*
 * test_model.c - Check suite for the model description (lib/model.c,
 * problems/registry.c, parameter handling in lib/system.c):
 * hes_model_validate rejects each kind of broken model with a message and
 * accepts the built-ins; lookups by name; hes_model_check_derivatives agrees
 * with every Jacobian of the built-in models and catches a wrong one;
 * hes_system_set_param refuses unknown names and invalid values.
 */
#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"
#include "testutil.h"
#include "testmodels.h"

/* ---------------------------------------------------------------- helpers */

/* Nonzero when `word` occurs in s delimited by characters that cannot be
 * part of an identifier (so "k" matches "parameter k = -5" but not "back"). */
static int has_word(const char *s, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(s, word); p; p = strstr(p + 1, word)) {
        int before = p == s || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        int after = !(isalnum((unsigned char)p[n]) || p[n] == '_');
        if (before && after)
            return 1;
    }
    return 0;
}

static int contains_ci(const char *s, const char *sub)
{
    size_t n = strlen(sub);
    for (; *s; s++) {
        size_t i = 0;
        while (i < n && s[i] && tolower((unsigned char)s[i]) == tolower((unsigned char)sub[i]))
            i++;
        if (i == n)
            return 1;
    }
    return 0;
}

/* The default parameter vector of a model (caller frees). */
static double *default_params(const hes_model *m)
{
    double *p = malloc(sizeof(double) * (size_t)m->n_params);
    ck_assert_ptr_nonnull(p);
    for (int i = 0; i < m->n_params; i++)
        p[i] = m->params[i].value;
    return p;
}

static void set_by_name(const hes_model *m, double *p, const char *name, double v)
{
    int i = hes_model_param_index(m, name);
    ck_assert_msg(i >= 0, "model '%s' has no parameter '%s'", m->name, name);
    p[i] = v;
}

static const hes_model *slip(void)
{
    const hes_model *m = hes_problem_find("slip-hopper");
    ck_assert_ptr_nonnull(m);
    return m;
}

static const hes_model *juggler(void)
{
    const hes_model *m = hes_problem_find("paddle-juggler");
    ck_assert_ptr_nonnull(m);
    return m;
}

/* ------------------------------------------------------------- validation */

START_TEST(test_validate_accepts_every_builtin_model)
{
    ck_assert_int_ge(hes_problem_count(), 2);
    for (int i = 0; i < hes_problem_count(); i++) {
        char msg[256] = "";
        const hes_model *m = hes_problem_get(i);
        ck_assert_ptr_nonnull(m);
        ck_assert_msg(hes_model_validate(m, msg, sizeof msg) == HES_OK,
                      "built-in '%s' rejected: %s", m->name, msg);
    }
}
END_TEST

START_TEST(test_validate_accepts_simulation_only_model_without_orbit)
{
    char msg[256] = "";
    ck_assert(test_bouncing_ball.orbit.guess == NULL);
    ck_assert_msg(hes_model_validate(&test_bouncing_ball, msg, sizeof msg) == HES_OK,
                  "bouncing ball rejected: %s", msg);
    ck_assert_int_eq(hes_model_validate(&test_bouncing_ball_up, msg, sizeof msg), HES_OK);
}
END_TEST

START_TEST(test_validate_rejects_wrong_abi_with_message)
{
    char msg[256] = "";
    hes_model m = test_bouncing_ball;
    m.abi = HES_MODEL_ABI + 1;
    ck_assert_int_eq(hes_model_validate(&m, msg, sizeof msg), HES_EINVAL);
    ck_assert_msg(contains_ci(msg, "abi"), "message does not mention the ABI: '%s'", msg);
    /* a NULL message buffer is allowed */
    ck_assert_int_eq(hes_model_validate(&m, NULL, 0), HES_EINVAL);
}
END_TEST

START_TEST(test_validate_rejects_transition_to_nonexistent_mode)
{
    char msg[256] = "";
    hes_transition tr[1];
    hes_model m = test_bouncing_ball;
    tr[0] = test_bouncing_ball.transitions[0];
    tr[0].to = 1; /* the ball has one mode */
    m.transitions = tr;
    ck_assert_int_eq(hes_model_validate(&m, msg, sizeof msg), HES_EINVAL);
    ck_assert_msg(has_word(msg, "bounce"), "message does not name the transition: '%s'", msg);

    tr[0] = test_bouncing_ball.transitions[0];
    tr[0].from = -1;
    msg[0] = '\0';
    ck_assert_int_eq(hes_model_validate(&m, msg, sizeof msg), HES_EINVAL);
    ck_assert_msg(has_word(msg, "bounce"), "message does not name the transition: '%s'", msg);
}
END_TEST

START_TEST(test_validate_rejects_dimension_change_without_reset)
{
    char msg[256] = "";
    hes_mode modes[2];
    hes_transition tr[1];
    hes_model m = test_bouncing_ball;
    modes[0] = test_bouncing_ball.modes[0];
    modes[1] = test_bouncing_ball.modes[0];
    modes[1].name = "air3";
    modes[1].dim = 3;
    modes[1].state_names = NULL;
    tr[0] = test_bouncing_ball.transitions[0];
    tr[0].to = 1;
    tr[0].reset = NULL;
    tr[0].reset_dx = NULL;
    tr[0].reset_dt = NULL;
    m.n_modes = 2;
    m.modes = modes;
    m.transitions = tr;
    ck_assert_int_eq(hes_model_validate(&m, msg, sizeof msg), HES_EINVAL);
    ck_assert_msg(has_word(msg, "bounce"), "message does not name the transition: '%s'", msg);

    /* the same structure with a reset map is valid: the reset was the problem */
    tr[0].reset = test_bouncing_ball.transitions[0].reset;
    ck_assert_int_eq(hes_model_validate(&m, msg, sizeof msg), HES_OK);
}
END_TEST

START_TEST(test_validate_rejects_duplicate_parameter_names)
{
    char msg[256] = "";
    hes_param params[3];
    hes_model m = test_bouncing_ball;
    params[0] = test_bouncing_ball.params[0];
    params[1] = test_bouncing_ball.params[1];
    params[2] = test_bouncing_ball.params[0];
    params[2].description = "a second alpha";
    m.n_params = 3;
    m.params = params;
    ck_assert_int_eq(hes_model_validate(&m, msg, sizeof msg), HES_EINVAL);
    ck_assert_msg(has_word(msg, "alpha"), "message does not name the parameter: '%s'", msg);

    params[2].name = "beta";
    ck_assert_int_eq(hes_model_validate(&m, msg, sizeof msg), HES_OK);
}
END_TEST

START_TEST(test_validate_rejects_empty_parameter_range)
{
    char msg[256] = "";
    hes_param params[2];
    hes_model m = test_bouncing_ball;
    params[0] = test_bouncing_ball.params[0];
    params[1] = test_bouncing_ball.params[1];
    params[0].min = 1.0;
    params[0].max = 0.0;
    m.params = params;
    ck_assert_int_eq(hes_model_validate(&m, msg, sizeof msg), HES_EINVAL);
    ck_assert_msg(has_word(msg, "alpha"), "message does not name the parameter: '%s'", msg);

    params[0].max = NAN; /* not a range either */
    msg[0] = '\0';
    ck_assert_int_eq(hes_model_validate(&m, msg, sizeof msg), HES_EINVAL);
    ck_assert_msg(has_word(msg, "alpha"), "message does not name the parameter: '%s'", msg);

    /* a single point is a valid closed range (with the default on it: a
     * default outside the range is refused) */
    params[0].min = params[0].max = params[0].value = 0.25;
    ck_assert_int_eq(hes_model_validate(&m, msg, sizeof msg), HES_OK);
}
END_TEST

/* ---------------------------------------------------------------- lookups */

START_TEST(test_problem_find_returns_builtins_by_name)
{
    const hes_model *j = hes_problem_find("paddle-juggler");
    const hes_model *s = hes_problem_find("slip-hopper");
    ck_assert_ptr_nonnull(j);
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(j->name, "paddle-juggler");
    ck_assert_str_eq(s->name, "slip-hopper");
    ck_assert_ptr_ne(j, s);
}
END_TEST

START_TEST(test_problem_find_returns_null_for_unknown_name)
{
    ck_assert_ptr_null(hes_problem_find("no-such-problem"));
    ck_assert_ptr_null(hes_problem_find("paddle-juggler "));
    ck_assert_ptr_null(hes_problem_find(""));
    ck_assert_ptr_null(hes_problem_find(NULL));
    ck_assert_ptr_null(hes_problem_get(-1));
    ck_assert_ptr_null(hes_problem_get(hes_problem_count()));
}
END_TEST

START_TEST(test_problem_get_lists_each_builtin_once)
{
    int n = hes_problem_count(), seen_j = 0, seen_s = 0;
    for (int i = 0; i < n; i++) {
        const hes_model *m = hes_problem_get(i);
        ck_assert_ptr_eq(hes_problem_find(m->name), m);
        seen_j += strcmp(m->name, "paddle-juggler") == 0;
        seen_s += strcmp(m->name, "slip-hopper") == 0;
    }
    ck_assert_int_eq(seen_j, 1);
    ck_assert_int_eq(seen_s, 1);
}
END_TEST

START_TEST(test_index_lookups_follow_slip_model_tables)
{
    const hes_model *m = slip();
    /* positions documented in problems/slip_hopper.c */
    ck_assert_int_eq(hes_model_mode_index(m, "descent"), 0);
    ck_assert_int_eq(hes_model_mode_index(m, "ascent"), 1);
    ck_assert_int_eq(hes_model_mode_index(m, "stance"), 2);
    ck_assert_int_eq(hes_model_transition_index(m, "touchdown"), 0);
    ck_assert_int_eq(hes_model_transition_index(m, "liftoff"), 1);
    ck_assert_int_eq(hes_model_transition_index(m, "apex"), 2);
    const char *names[] = { "m", "g", "l0", "k", "b", "apex_height", "apex_speed", "K",
                            "thetadot", "l_td", "theta_td" };
    ck_assert_int_eq(m->n_params, (int)(sizeof names / sizeof names[0]));
    for (int i = 0; i < m->n_params; i++)
        ck_assert_int_eq(hes_model_param_index(m, names[i]), i);
    /* case matters: "K" (gain) and "k" (stiffness) are different parameters */
    ck_assert_int_ne(hes_model_param_index(m, "K"), hes_model_param_index(m, "k"));
}
END_TEST

START_TEST(test_index_lookups_return_minus_one_for_unknown_names)
{
    const hes_model *m = juggler();
    ck_assert_int_eq(hes_model_mode_index(m, "flight"), 0);
    ck_assert_int_eq(hes_model_transition_index(m, "impact"), 0);
    ck_assert_int_eq(hes_model_transition_index(m, "apex"), 1);
    ck_assert_int_eq(hes_model_param_index(m, "paddle_accel"), 3);
    ck_assert_int_eq(hes_model_mode_index(m, "stance"), -1);
    ck_assert_int_eq(hes_model_transition_index(m, "touchdown"), -1);
    ck_assert_int_eq(hes_model_param_index(m, "paddle"), -1);
    ck_assert_int_eq(hes_model_param_index(m, ""), -1);
    ck_assert_int_eq(hes_model_param_index(m, NULL), -1);
    ck_assert_int_eq(hes_model_mode_index(m, NULL), -1);
    ck_assert_int_eq(hes_model_transition_index(m, NULL), -1);
}
END_TEST

/* ------------------------------------------------------ derivative checks */

/* The SLIP model supplies field_dx for its 3 modes and all four Jacobians
 * of touchdown, liftoff and apex: 15. */
enum { SLIP_SUPPLIED = 15, JUGGLER_SUPPLIED = 7, BALL_SUPPLIED = 5 };

static int check_slip_at(const double *p, double t, const double *flight,
                         const double *stance)
{
    const double *xs[3] = { flight, flight, stance };
    hes_deriv_report rep;
    ck_assert_int_eq(hes_model_check_derivatives(slip(), p, t, xs, &rep), HES_OK);
    ck_assert_int_eq(rep.n_checked, SLIP_SUPPLIED);
    ck_assert_msg(rep.max_rel_err < 1e-6, "SLIP: relative error %.3g at %s (t = %g)",
                  rep.max_rel_err, rep.where, t);
    return rep.n_checked;
}

START_TEST(test_slip_jacobians_match_central_differences)
{
    const hes_model *m = slip();
    double *p = default_params(m);
    set_by_name(m, p, "l_td", 0.9097);
    set_by_name(m, p, "theta_td", 0.1131);
    /* states where the resets are defined: the SLIP refuses a liftoff while
     * moving down and an apex below the touchdown height (the hopper fell) */
    const double flight[][3] = { { 2.0, 1.2, -3.0 }, { 2.0, 2.5, 0.0 }, { -0.5, 1.1, 1.7 } };
    const double stance[][4] = { { -0.1, 2.0, 0.9, 4.0 }, { 0.12, 1.5, 0.85, 2.5 },
                                 { 0.0, 2.0, 0.95, 0.5 } };
    const double ts[] = { 0.0, 0.3, 0.55 };
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(check_slip_at(p, ts[i], flight[i], stance[i]), SLIP_SUPPLIED);
    free(p);
}
END_TEST

START_TEST(test_slip_jacobians_match_with_touchdown_law_gains)
{
    const hes_model *m = slip();
    double *p = default_params(m);
    set_by_name(m, p, "l_td", 0.9097);
    set_by_name(m, p, "theta_td", 0.1131);
    set_by_name(m, p, "K", 0.15);
    set_by_name(m, p, "thetadot", -3.0);
    set_by_name(m, p, "b", 5.0);
    set_by_name(m, p, "k", 800.0);
    const double flight[][3] = { { 2.0, 1.2, -3.0 }, { 2.4, 0.95, -4.1 } };
    const double stance[][4] = { { -0.1, 2.0, 0.9, 4.0 }, { 0.2, 2.2, 0.8, 3.0 } };
    const double ts[] = { 0.3, 0.61 };
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(check_slip_at(p, ts[i], flight[i], stance[i]), SLIP_SUPPLIED);
    free(p);
}
END_TEST

START_TEST(test_juggler_jacobians_match_central_differences)
{
    const hes_model *m = juggler();
    double *p = default_params(m);
    const double x[][2] = { { 0.3, 0.0 }, { 0.05, -2.4 }, { -0.02, 1.1 } };
    const double ts[] = { 0.0, 0.25, 0.37 };
    for (int v = 0; v < 2; v++) {
        if (v == 1) { /* another paddle */
            set_by_name(m, p, "alpha", 0.7);
            set_by_name(m, p, "paddle_accel", -8.0);
            set_by_name(m, p, "period", 0.6);
        }
        for (int i = 0; i < 3; i++) {
            const double *xs[1] = { x[i] };
            hes_deriv_report rep;
            ck_assert_int_eq(hes_model_check_derivatives(m, p, ts[i], xs, &rep), HES_OK);
            ck_assert_int_eq(rep.n_checked, JUGGLER_SUPPLIED);
            ck_assert_msg(rep.max_rel_err < 1e-6, "juggler: relative error %.3g at %s",
                          rep.max_rel_err, rep.where);
        }
    }
    free(p);
}
END_TEST

START_TEST(test_ball_jacobians_match_central_differences)
{
    const double p[TEST_BALL_NPARAMS] = { 0.5, 9.81 };
    const double x[2] = { 0.4, -1.3 };
    const double *xs[1] = { x };
    hes_deriv_report rep;
    ck_assert_int_eq(hes_model_check_derivatives(&test_bouncing_ball, p, 0.2, xs, &rep), HES_OK);
    ck_assert_int_eq(rep.n_checked, BALL_SUPPLIED);
    ck_assert_msg(rep.max_rel_err < 1e-9, "ball: relative error %.3g at %s",
                  rep.max_rel_err, rep.where);
}
END_TEST

START_TEST(test_wrong_field_jacobian_is_caught_and_located)
{
    const double p[TEST_BALL_NPARAMS] = { 0.5, 9.81 };
    const double x[2] = { 0.4, -1.3 };
    const double *xs[1] = { x };
    hes_deriv_report rep;
    ck_assert_int_eq(hes_model_check_derivatives(&test_bouncing_ball_bad_field_dx, p, 0.2, xs,
                                                 &rep), HES_OK);
    ck_assert_int_eq(rep.n_checked, BALL_SUPPLIED);
    /* supplied 2, true 1: |2 - 1| / max(1, 1) = 1 */
    ck_assert_double_eq_tol(rep.max_rel_err, 1.0, 1e-6);
    ck_assert_msg(has_word(rep.where, "air") && strstr(rep.where, "[0,1]"),
                  "where = '%s' does not name mode air, entry [0,1]", rep.where);
}
END_TEST

START_TEST(test_wrong_reset_jacobian_is_caught_and_located)
{
    const double p[TEST_BALL_NPARAMS] = { 0.8, 9.81 };
    const double x[2] = { 0.0, -3.0 };
    const double *xs[1] = { x };
    hes_deriv_report rep;
    ck_assert_int_eq(hes_model_check_derivatives(&test_bouncing_ball_bad_reset_dx, p, 0.0, xs,
                                                 &rep), HES_OK);
    /* supplied +alpha, true -alpha: 2 alpha / max(1, alpha) = 1.6 */
    ck_assert_double_eq_tol(rep.max_rel_err, 1.6, 1e-6);
    ck_assert_msg(has_word(rep.where, "bounce") && strstr(rep.where, "DxR") &&
                  strstr(rep.where, "[1,1]"),
                  "where = '%s' does not name bounce's DxR[1,1]", rep.where);
}
END_TEST

START_TEST(test_check_derivatives_rejects_invalid_model)
{
    const double p[TEST_BALL_NPARAMS] = { 0.5, 9.81 };
    const double x[2] = { 0.4, -1.3 };
    const double *xs[1] = { x };
    hes_deriv_report rep;
    hes_model m = test_bouncing_ball;
    m.abi = HES_MODEL_ABI + 1;
    ck_assert_int_eq(hes_model_check_derivatives(&m, p, 0.0, xs, &rep), HES_EINVAL);
    ck_assert_int_eq(hes_model_check_derivatives(&test_bouncing_ball, p, 0.0, NULL, &rep),
                     HES_EINVAL);
}
END_TEST

/* ------------------------------------------------------------- parameters */

START_TEST(test_new_system_starts_from_default_parameters)
{
    const hes_model *m = slip();
    hes_system *sys = hes_system_create(m);
    ck_assert_ptr_nonnull(sys);
    ck_assert_ptr_eq(hes_system_model(sys), m);
    ck_assert_str_eq(hes_system_errmsg(sys), "");
    for (int i = 0; i < m->n_params; i++) {
        double v = NAN;
        ck_assert_int_eq(hes_system_get_param(sys, m->params[i].name, &v), HES_OK);
        ck_assert_double_eq(v, m->params[i].value);
        ck_assert_double_eq(hes_system_params(sys)[i], m->params[i].value);
    }
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_system_create_refuses_invalid_model)
{
    hes_model m = test_bouncing_ball;
    m.abi = HES_MODEL_ABI + 1;
    ck_assert_ptr_null(hes_system_create(&m));
    ck_assert_ptr_null(hes_system_create(NULL));
}
END_TEST

START_TEST(test_set_param_unknown_name_is_not_found)
{
    hes_system *sys = hes_system_create(slip());
    double v;
    ck_assert_int_eq(hes_system_set_param(sys, "stiffness", 1.0), HES_ENOTFOUND);
    ck_assert_msg(has_word(hes_system_errmsg(sys), "stiffness"),
                  "message does not name the parameter: '%s'", hes_system_errmsg(sys));
    ck_assert_int_eq(hes_system_set_param(sys, NULL, 1.0), HES_ENOTFOUND);
    ck_assert_int_eq(hes_system_get_param(sys, "stiffness", &v), HES_ENOTFOUND);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_set_param_rejects_non_finite_values)
{
    hes_system *sys = hes_system_create(slip());
    const double bad[] = { NAN, INFINITY, -INFINITY };
    for (int i = 0; i < 3; i++) {
        double v;
        ck_assert_int_eq(hes_system_set_param(sys, "apex_speed", bad[i]), HES_EINVAL);
        ck_assert_msg(has_word(hes_system_errmsg(sys), "apex_speed"),
                      "message does not name the parameter: '%s'", hes_system_errmsg(sys));
        ck_assert_int_eq(hes_system_get_param(sys, "apex_speed", &v), HES_OK);
        ck_assert_double_eq(v, 2.0); /* unchanged */
    }
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_set_param_rejects_negative_stiffness_naming_k)
{
    hes_system *sys = hes_system_create(slip());
    double v;
    ck_assert_int_eq(hes_system_set_param(sys, "k", -5.0), HES_EINVAL);
    ck_assert_msg(has_word(hes_system_errmsg(sys), "k"),
                  "message does not name k: '%s'", hes_system_errmsg(sys));
    ck_assert_int_eq(hes_system_set_param(sys, "k", 0.0), HES_EINVAL); /* positive, not >= 0 */
    ck_assert_int_eq(hes_system_get_param(sys, "k", &v), HES_OK);
    ck_assert_double_eq(v, 500.0);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_set_param_rejects_values_outside_range)
{
    hes_system *sys = hes_system_create(slip());
    ck_assert_int_eq(hes_system_set_param(sys, "theta_td", 1.6), HES_EINVAL); /* > pi/2 */
    ck_assert_msg(has_word(hes_system_errmsg(sys), "theta_td"),
                  "message does not name theta_td: '%s'", hes_system_errmsg(sys));
    ck_assert_int_eq(hes_system_set_param(sys, "b", -0.1), HES_EINVAL); /* range [0, inf) */
    ck_assert_int_eq(hes_system_set_param(sys, "b", 0.0), HES_OK);     /* closed range */
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_set_param_stores_valid_value)
{
    const hes_model *m = slip();
    hes_system *sys = hes_system_create(m);
    double v = 0;
    ck_assert_int_eq(hes_system_set_param(sys, "k", 750.0), HES_OK);
    ck_assert_int_eq(hes_system_get_param(sys, "k", &v), HES_OK);
    ck_assert_double_eq(v, 750.0);
    ck_assert_double_eq(hes_system_params(sys)[hes_model_param_index(m, "k")], 750.0);
    /* "K" is a different parameter and kept its default */
    ck_assert_int_eq(hes_system_get_param(sys, "K", &v), HES_OK);
    ck_assert_double_eq(v, 0.0);
    ck_assert_int_eq(hes_system_set_param(sys, "K", -0.2), HES_OK); /* unbounded, may be negative */
    ck_assert_int_eq(hes_system_get_param(sys, "K", &v), HES_OK);
    ck_assert_double_eq(v, -0.2);
    hes_system_destroy(sys);
}
END_TEST

/* ------------------------------------------------------------------ suite */

static Suite *model_suite(void)
{
    Suite *s = suite_create("model");
    TCase *tc;

    tc = tcase_create("validate");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_validate_accepts_every_builtin_model);
    tcase_add_test(tc, test_validate_accepts_simulation_only_model_without_orbit);
    tcase_add_test(tc, test_validate_rejects_wrong_abi_with_message);
    tcase_add_test(tc, test_validate_rejects_transition_to_nonexistent_mode);
    tcase_add_test(tc, test_validate_rejects_dimension_change_without_reset);
    tcase_add_test(tc, test_validate_rejects_duplicate_parameter_names);
    tcase_add_test(tc, test_validate_rejects_empty_parameter_range);
    suite_add_tcase(s, tc);

    tc = tcase_create("lookup");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_problem_find_returns_builtins_by_name);
    tcase_add_test(tc, test_problem_find_returns_null_for_unknown_name);
    tcase_add_test(tc, test_problem_get_lists_each_builtin_once);
    tcase_add_test(tc, test_index_lookups_follow_slip_model_tables);
    tcase_add_test(tc, test_index_lookups_return_minus_one_for_unknown_names);
    suite_add_tcase(s, tc);

    tc = tcase_create("derivatives");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_slip_jacobians_match_central_differences);
    tcase_add_test(tc, test_slip_jacobians_match_with_touchdown_law_gains);
    tcase_add_test(tc, test_juggler_jacobians_match_central_differences);
    tcase_add_test(tc, test_ball_jacobians_match_central_differences);
    tcase_add_test(tc, test_wrong_field_jacobian_is_caught_and_located);
    tcase_add_test(tc, test_wrong_reset_jacobian_is_caught_and_located);
    tcase_add_test(tc, test_check_derivatives_rejects_invalid_model);
    suite_add_tcase(s, tc);

    tc = tcase_create("parameters");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_new_system_starts_from_default_parameters);
    tcase_add_test(tc, test_system_create_refuses_invalid_model);
    tcase_add_test(tc, test_set_param_unknown_name_is_not_found);
    tcase_add_test(tc, test_set_param_rejects_non_finite_values);
    tcase_add_test(tc, test_set_param_rejects_negative_stiffness_naming_k);
    tcase_add_test(tc, test_set_param_rejects_values_outside_range);
    tcase_add_test(tc, test_set_param_stores_valid_value);
    suite_add_tcase(s, tc);

    return s;
}

int main(void)
{
    return test_run_suite(model_suite());
}
