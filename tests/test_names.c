/*
 * test_names.c - names in models are labels (lib/base/name.c): every name a
 * built-in model has passes hes_name_check; names that a command line, a
 * CSV header, JSON or a plot would read as their own syntax are refused,
 * by hes_name_check itself and wherever a model is created (hes_model_
 * validate for every kind of name in a hybrid model, hes_ess_validate for
 * an ESS model's, the robot readers for a robot file's constraint names and
 * a description's names), each with a message naming the field.  The robot
 * checks are skipped with a message without MuJoCo.
 */
#define _DEFAULT_SOURCE /* realpath, mkdtemp */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hes.h"
#include "testutil.h"

/* Names a label must not be, each with the word of the reason. */
static const struct {
    const char *name, *why;
} bad_names[] = {
    { "", "empty" },
    { "--help", "leading '-'" },
    { "-p", "leading '-'" },
    { "-", "leading '-'" },
    { "a\nb", "newline" },
    { "a\rb", "control character" },
    { "a\tb", "control character" },
    { "a\033[2Jb", "control character" },
    { "a\177b", "control character" },
    { "caf\303\251", "outside ASCII" },
    { "a,b", "','" },
    { "a\"b", "'\"'" },
    { "a\\b", "'\\'" },
    { "k=1", "'='" },
    { " a", "blank" },
    { "a ", "blank" },
};

START_TEST(test_bad_names_are_refused_with_the_field_and_the_reason)
{
    hes_error msg;
    for (size_t i = 0; i < sizeof bad_names / sizeof *bad_names; i++) {
        msg.message[0] = '\0';
        ck_assert_int_eq(hes_name_check("modes[3].name", bad_names[i].name, &msg),
                         HES_EINVAL);
        ck_assert_msg(strncmp(msg.message, "modes[3].name: ", 15) == 0, "%s", msg.message);
        ck_assert_msg(strstr(msg.message, bad_names[i].why), "'%s': %s", bad_names[i].name, msg.message);
        /* the message itself is one printable line */
        for (const char *c = msg.message; *c; c++)
            ck_assert_msg(*c >= 0x20 && *c < 0x7f, "unprintable byte in: %s", msg.message);
    }
    ck_assert_int_eq(hes_name_check("name", NULL, &msg), HES_EINVAL);
    ck_assert_int_eq(hes_name_check("name", "-x", NULL), HES_EINVAL);
}
END_TEST

START_TEST(test_name_length_is_bounded_at_name_max)
{
    char name[HES_NAME_MAX + 2];
    hes_error msg;
    memset(name, 'a', sizeof name);
    name[HES_NAME_MAX] = '\0';
    ck_assert_int_eq(hes_name_check("name", name, &msg), HES_OK);
    name[HES_NAME_MAX] = 'a';
    name[HES_NAME_MAX + 1] = '\0';
    ck_assert_int_eq(hes_name_check("name", name, &msg), HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "more than 64 characters"), "%s", msg.message);
}
END_TEST

START_TEST(test_labels_with_blanks_quotes_and_brackets_are_names)
{
    static const char *const good[] = { "front liftoff (rear stance)", "theta'", "x[0]",
                                        "apex_height", "l_td", "a", "fn:lf_foot", "1/s^2",
                                        "w';system('id');#", "a-b" };
    hes_error msg;
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        ck_assert_msg(hes_name_check("name", good[i], &msg) == HES_OK, "%s", msg.message);
}
END_TEST

/* Every name of every built-in model is a name. */
START_TEST(test_every_built_in_name_passes)
{
    hes_error msg;
    for (int i = 0; i < hes_problem_count(); i++) {
        const hes_model *m = hes_problem_get(i);
        ck_assert_msg(hes_model_validate(m, &msg) == HES_OK, "%s", msg.message);
        ck_assert_int_eq(hes_name_check("name", m->name, &msg), HES_OK);
        for (int k = 0; k < m->n_modes; k++)
            for (int j = 0; m->modes[k].state_names && j < m->modes[k].dim; j++)
                ck_assert_int_eq(hes_name_check("state", m->modes[k].state_names[j], &msg), HES_OK);
    }
    for (int i = 0; i < hes_ess_problem_count(); i++)
        ck_assert_msg(hes_ess_validate(hes_ess_problem_get(i), &msg) == HES_OK,
                      "%s", msg.message);
}
END_TEST

/* The slip-hopper with one name replaced (which: 0 the model's, 1 a
 * mode's, 2 a state's, 3 a transition's, 4 a parameter's): refused by
 * hes_model_validate, the message naming field. */
static void assert_model_refuses(int which, const char *bad, const char *field)
{
    const hes_model *base = hes_problem_find("slip-hopper");
    ck_assert_ptr_nonnull(base);
    hes_model m = *base;
    hes_mode modes[8];
    hes_transition trs[8];
    hes_param params[32];
    const char *states[64];
    ck_assert(m.n_modes <= 8 && m.n_transitions <= 8 && m.n_params <= 32 &&
              m.modes[0].dim <= 64);
    memcpy(modes, m.modes, sizeof *modes * (size_t)m.n_modes);
    memcpy(trs, m.transitions, sizeof *trs * (size_t)m.n_transitions);
    memcpy(params, m.params, sizeof *params * (size_t)m.n_params);
    m.modes = modes;
    m.transitions = trs;
    m.params = params;
    switch (which) {
    case 0: m.name = bad; break;
    case 1: modes[1].name = bad; break;
    case 2:
        ck_assert_ptr_nonnull(modes[0].state_names);
        memcpy(states, modes[0].state_names, sizeof *states * (size_t)modes[0].dim);
        states[1] = bad;
        modes[0].state_names = states;
        break;
    case 3: trs[0].name = bad; break;
    default: params[2].name = bad; break;
    }
    hes_error msg;
    ck_assert_int_eq(hes_model_validate(&m, &msg), HES_EINVAL);
    ck_assert_msg(strstr(msg.message, field), "want '%s' in: %s", field, msg.message);
    ck_assert_msg(strstr(msg.message, "the name '"), "%s", msg.message);
}

START_TEST(test_model_validate_refuses_bad_names_naming_the_field)
{
    assert_model_refuses(0, "--help", "model name: ");
    assert_model_refuses(0, "hop\nper", "model name: ");
    assert_model_refuses(1, "-stance", "modes[1].name: ");
    assert_model_refuses(2, "y,dot", "state_names[1]: ");
    assert_model_refuses(3, "touch\ndown", "transitions[0].name: ");
    assert_model_refuses(4, "k=2", "params[2].name: ");
}
END_TEST

START_TEST(test_ess_validate_refuses_bad_names_naming_the_field)
{
    const hes_ess_model *base = hes_ess_problem_find("hopper-1d");
    ck_assert_ptr_nonnull(base);
    hes_error msg;
    hes_ess_model m = *base;
    m.name = "-p";
    ck_assert_int_eq(hes_ess_validate(&m, &msg), HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "ESS model name: "), "%s", msg.message);

    const char *states[64], *events[64];
    hes_param params[32];
    ck_assert(base->n <= 64 && base->m <= 64 && base->n_params <= 32);
    m = *base;
    for (int i = 0; i < m.n; i++)
        states[i] = base->state_names ? base->state_names[i] : "x";
    states[m.n - 1] = "v\n";
    m.state_names = states;
    ck_assert_int_eq(hes_ess_validate(&m, &msg), HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "state_names["), "%s", msg.message);

    m = *base;
    for (int i = 0; i < m.m; i++)
        events[i] = "touchdown";
    events[0] = "a,b";
    m.event_names = events;
    ck_assert_int_eq(hes_ess_validate(&m, &msg), HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "event_names[0]"), "%s", msg.message);

    m = *base;
    memcpy(params, base->params, sizeof *params * (size_t)base->n_params);
    params[0].name = "--k";
    m.params = params;
    ck_assert_int_eq(hes_ess_validate(&m, &msg), HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "params[0].name"), "%s", msg.message);
}
END_TEST

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

/* A robot file's site or joint name that is not a name, and a robot
 * description whose name is not one. */
START_TEST(test_robot_readers_refuse_bad_names_naming_the_field)
{
    char dir[] = "/tmp/hes-test-names-XXXXXX", path[256], json[256], buf[4096];
    hes_error msg;
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/comma.xml", dir);
    write_file(path, "<mujoco><worldbody><body name=\"b\"><joint name=\"x\" type=\"slide\" "
                     "axis=\"1 0 0\"/><joint name=\"z\" type=\"slide\" axis=\"0 0 1\"/>"
                     "<inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 1\"/>"
                     "<site name=\"foot,left\" pos=\"0 0 -1\"/></body></worldbody></mujoco>\n");
    hes_robot *r = NULL;
    hes_status st = hes_robot_read(path, NULL, 0, &r, &msg);
    if (st == HES_ESOLVER) {
        printf("test_names: %s: the robot checks are skipped\n", msg.message);
    } else {
        ck_assert_int_eq(st, HES_EINVAL);
        ck_assert_msg(strstr(msg.message, "contact 0's name") && strstr(msg.message, "','"), "%s", msg.message);
        ck_assert_ptr_null(r);

        snprintf(path, sizeof path, "%s/limit.xml", dir);
        write_file(path, "<mujoco><worldbody><body name=\"b\"><joint name=\"-x\" type=\"slide\" "
                         "axis=\"1 0 0\" limited=\"true\" range=\"-1 1\"/>"
                         "<inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 1\"/>"
                         "<site name=\"s\" pos=\"0 0 -1\"/></body></worldbody></mujoco>\n");
        /* a joint's name is its coordinate's, checked before its limits' */
        ck_assert_int_eq(hes_robot_read(path, NULL, 0, &r, &msg), HES_EINVAL);
        ck_assert_msg(strstr(msg.message, "coordinate 0's name") && strstr(msg.message, "'-x'"),
                      "%s", msg.message);

        /* the description names its robot file by an absolute path */
        char *xml = realpath(test_robot_file(buf, sizeof buf, "rimless_wheel.xml"), NULL);
        ck_assert_ptr_nonnull(xml);
        static const char *const names[] = { "--help", "-p", "wheel\\nname", "a,b" };
        for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
            snprintf(json, sizeof json, "%s/desc.json", dir);
            char text[2048];
            snprintf(text, sizeof text,
                     "{\"name\": \"%s\", \"robot\": \"%s\", \"contacts\": {\"s0\": 1.0, "
                     "\"s1\": 1.0}, \"modes\": [{\"name\": \"stance\", \"pinned\": \"s0\"}], "
                     "\"transitions\": [{\"name\": \"heelstrike\", \"from\": \"stance\", "
                     "\"to\": \"stance\", \"activate\": \"s1\", \"after\": [\"s1\", "
                     "\"s1_tangential\"], \"relabel\": {\"phi\": {\"phi\": 1, \"const\": 0.6}}}]}\n",
                     names[i], xml);
            write_file(json, text);
            hes_model *m = NULL;
            ck_assert_int_eq(hes_robot_model_read(json, &m, &msg), HES_EINVAL);
            ck_assert_msg(strstr(msg.message, "name: the name '"), "%s: %s", names[i], msg.message);
            ck_assert_ptr_null(m);
        }
        free(xml);
    }
    snprintf(buf, sizeof buf, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(buf), 0);
}
END_TEST

static Suite *names_suite(void)
{
    Suite *s = suite_create("names");
    TCase *tc = tcase_create("names");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_bad_names_are_refused_with_the_field_and_the_reason);
    tcase_add_test(tc, test_name_length_is_bounded_at_name_max);
    tcase_add_test(tc, test_labels_with_blanks_quotes_and_brackets_are_names);
    tcase_add_test(tc, test_every_built_in_name_passes);
    tcase_add_test(tc, test_model_validate_refuses_bad_names_naming_the_field);
    tcase_add_test(tc, test_ess_validate_refuses_bad_names_naming_the_field);
    tcase_add_test(tc, test_robot_readers_refuse_bad_names_naming_the_field);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(names_suite());
}
