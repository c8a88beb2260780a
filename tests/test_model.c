/*
 * test_model.c - Check suite for the model description (lib/model/model.c,
 * problems/registry.c, parameter handling in lib/hybrid/system.c):
 * hes_model_validate rejects each kind of broken model with a message naming
 * the field (counts, indices, enums, times, parameters, the orbit and
 * trajopt specs, the mechanical structures) and accepts the built-ins;
 * hes_system_new says why it refuses a model; lookups by name; hes_model_check_derivatives agrees
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
        hes_error msg = {""};
        const hes_model *m = hes_problem_get(i);
        ck_assert_ptr_nonnull(m);
        ck_assert_msg(hes_model_validate(m, &msg) == HES_OK,
                      "built-in '%s' rejected: %s", m->name, msg.message);
    }
}
END_TEST

START_TEST(test_validate_accepts_simulation_only_model_without_orbit)
{
    hes_error msg = {""};
    ck_assert(test_bouncing_ball.orbit.guess == NULL);
    ck_assert_msg(hes_model_validate(&test_bouncing_ball, &msg) == HES_OK,
                  "bouncing ball rejected: %s", msg.message);
    ck_assert_int_eq(hes_model_validate(&test_bouncing_ball_up, &msg), HES_OK);
}
END_TEST

START_TEST(test_validate_rejects_wrong_abi_with_message)
{
    hes_error msg = {""};
    hes_model m = test_bouncing_ball;
    m.abi = HES_MODEL_ABI + 1;
    ck_assert_int_eq(hes_model_validate(&m, &msg), HES_EINVAL);
    ck_assert_msg(contains_ci(msg.message, "abi"), "message does not mention the ABI: '%s'", msg.message);
    /* a NULL message buffer is allowed */
    ck_assert_int_eq(hes_model_validate(&m, NULL), HES_EINVAL);
}
END_TEST

START_TEST(test_validate_rejects_transition_to_nonexistent_mode)
{
    hes_error msg = {""};
    hes_transition tr[1];
    hes_model m = test_bouncing_ball;
    tr[0] = test_bouncing_ball.transitions[0];
    tr[0].to = 1; /* the ball has one mode */
    m.transitions = tr;
    ck_assert_int_eq(hes_model_validate(&m, &msg), HES_EINVAL);
    ck_assert_msg(has_word(msg.message, "bounce"), "message does not name the transition: '%s'", msg.message);

    tr[0] = test_bouncing_ball.transitions[0];
    tr[0].from = -1;
    msg.message[0] = '\0';
    ck_assert_int_eq(hes_model_validate(&m, &msg), HES_EINVAL);
    ck_assert_msg(has_word(msg.message, "bounce"), "message does not name the transition: '%s'", msg.message);
}
END_TEST

START_TEST(test_validate_rejects_dimension_change_without_reset)
{
    hes_error msg = {""};
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
    ck_assert_int_eq(hes_model_validate(&m, &msg), HES_EINVAL);
    ck_assert_msg(has_word(msg.message, "bounce"), "message does not name the transition: '%s'", msg.message);

    /* the same structure with a reset map is valid: the reset was the problem */
    tr[0].reset = test_bouncing_ball.transitions[0].reset;
    ck_assert_int_eq(hes_model_validate(&m, &msg), HES_OK);
}
END_TEST

START_TEST(test_validate_rejects_duplicate_parameter_names)
{
    hes_error msg = {""};
    hes_param params[3];
    hes_model m = test_bouncing_ball;
    params[0] = test_bouncing_ball.params[0];
    params[1] = test_bouncing_ball.params[1];
    params[2] = test_bouncing_ball.params[0];
    params[2].description = "a second alpha";
    m.n_params = 3;
    m.params = params;
    ck_assert_int_eq(hes_model_validate(&m, &msg), HES_EINVAL);
    ck_assert_msg(has_word(msg.message, "alpha"), "message does not name the parameter: '%s'", msg.message);

    params[2].name = "beta";
    ck_assert_int_eq(hes_model_validate(&m, &msg), HES_OK);
}
END_TEST

START_TEST(test_validate_rejects_empty_parameter_range)
{
    hes_error msg = {""};
    hes_param params[2];
    hes_model m = test_bouncing_ball;
    params[0] = test_bouncing_ball.params[0];
    params[1] = test_bouncing_ball.params[1];
    params[0].min = 1.0;
    params[0].max = 0.0;
    m.params = params;
    ck_assert_int_eq(hes_model_validate(&m, &msg), HES_EINVAL);
    ck_assert_msg(has_word(msg.message, "alpha"), "message does not name the parameter: '%s'", msg.message);

    params[0].max = NAN; /* not a range either */
    msg.message[0] = '\0';
    ck_assert_int_eq(hes_model_validate(&m, &msg), HES_EINVAL);
    ck_assert_msg(has_word(msg.message, "alpha"), "message does not name the parameter: '%s'", msg.message);

    /* a single point is a valid closed range (with the default on it: a
     * default outside the range is refused) */
    params[0].min = params[0].max = params[0].value = 0.25;
    ck_assert_int_eq(hes_model_validate(&m, &msg), HES_OK);
}
END_TEST

/* A built-in model with its tables copied, to break one field at a time. */
typedef struct {
    hes_model m;
    hes_mode modes[8];
    hes_transition tr[8];
    hes_param params[32];
    int sequence[8], free_states[16], residual[16];
    const char *free_params[8];
    const char *state_names[16];
    hes_trajopt_spec spec;
    hes_path_constraint path[8];
    const char *inputs[8];
    double input_lo[8], input_hi[8], x0_lo[16], x0_hi[16];
    int virtual_events[8];
    hes_mech_mode mech_mode;
    hes_mech_transition mech_tr;
} model_copy;

static void copy_model(model_copy *c, const char *problem)
{
    const hes_model *src = hes_problem_find(problem);
    ck_assert_ptr_nonnull(src);
    memset(c, 0, sizeof *c);
    c->m = *src;
    const hes_orbit_spec *o = &src->orbit;
    ck_assert(src->n_modes <= 8 && src->n_transitions <= 8 && src->n_params <= 32 &&
              o->n_sequence <= 8 && o->n_free_states <= 16 && o->n_free_params <= 8);
    memcpy(c->modes, src->modes, sizeof *c->modes * (size_t)src->n_modes);
    memcpy(c->tr, src->transitions, sizeof *c->tr * (size_t)src->n_transitions);
    memcpy(c->params, src->params, sizeof *c->params * (size_t)src->n_params);
    if (o->n_sequence > 0) /* the arrays of empty lists may be NULL */
        memcpy(c->sequence, o->sequence, sizeof(int) * (size_t)o->n_sequence);
    if (o->n_free_states > 0)
        memcpy(c->free_states, o->free_states, sizeof(int) * (size_t)o->n_free_states);
    if (o->n_residual > 0)
        memcpy(c->residual, o->residual, sizeof(int) * (size_t)o->n_residual);
    for (int i = 0; i < o->n_free_params; i++)
        c->free_params[i] = o->free_params[i];
    c->m.modes = c->modes;
    c->m.transitions = c->tr;
    c->m.params = c->params;
    c->m.orbit.sequence = c->sequence;
    c->m.orbit.free_states = c->free_states;
    c->m.orbit.residual = c->residual;
    c->m.orbit.free_params = c->free_params;
    if (src->trajopt) {
        const hes_trajopt_spec *t = src->trajopt;
        int n0 = src->modes[o->mode].dim;
        ck_assert(t->n_inputs <= 8 && t->n_path <= 8 && n0 <= 16);
        c->spec = *t;
        memcpy(c->path, t->path, sizeof *c->path * (size_t)t->n_path);
        for (int q = 0; q < t->n_inputs; q++) {
            c->inputs[q] = t->inputs[q];
            c->input_lo[q] = t->input_lo ? t->input_lo[q] : -HUGE_VAL;
            c->input_hi[q] = t->input_hi ? t->input_hi[q] : HUGE_VAL;
        }
        for (int r = 0; r < n0; r++) {
            c->x0_lo[r] = t->x0_lo ? t->x0_lo[r] : -HUGE_VAL;
            c->x0_hi[r] = t->x0_hi ? t->x0_hi[r] : HUGE_VAL;
        }
        for (int j = 0; j < o->n_sequence; j++)
            c->virtual_events[j] = t->virtual_events ? t->virtual_events[j] : 0;
        c->spec.path = c->path;
        c->spec.inputs = c->inputs;
        c->spec.input_lo = c->input_lo;
        c->spec.input_hi = c->input_hi;
        c->spec.x0_lo = c->x0_lo;
        c->spec.x0_hi = c->x0_hi;
        c->spec.virtual_events = c->virtual_events;
        c->m.trajopt = &c->spec;
    }
    hes_error msg = {""};
    ck_assert_msg(hes_model_validate(&c->m, &msg) == HES_OK,
                  "the copy of '%s' is invalid: %s", problem, msg.message);
}

/* The copy is refused, and the message names `word`. */
#define ck_assert_refused_naming(c, word)                                              \
    do {                                                                               \
        hes_error msg_ = {""};                                                         \
        ck_assert_msg(hes_model_validate(&(c)->m, &msg_) == HES_EINVAL,                \
                      "a model with a bad %s is accepted", (word));                    \
        ck_assert_msg(has_word(msg_.message, (word)), "message does not name '%s': '%s'", \
                      (word), msg_.message);                                           \
    } while (0)

START_TEST(test_validate_names_each_bad_orbit_field)
{
    model_copy c;
    /* (n_sequence = -1 passed validation and crashed hes trajopt) */
    copy_model(&c, "knee-biped");
    c.m.orbit.n_sequence = -1;
    ck_assert_refused_naming(&c, "n_sequence");
    copy_model(&c, "knee-biped");
    c.m.orbit.sequence = NULL;
    ck_assert_refused_naming(&c, "n_sequence");
    copy_model(&c, "knee-biped");
    c.sequence[0] = 7;
    ck_assert_refused_naming(&c, "sequence");
    copy_model(&c, "knee-biped");
    c.m.orbit.section = 9;
    ck_assert_refused_naming(&c, "section");
    copy_model(&c, "knee-biped");
    c.m.orbit.mode = -1;
    ck_assert_refused_naming(&c, "mode");
    copy_model(&c, "knee-biped");
    c.m.orbit.n_free_states = -1;
    ck_assert_refused_naming(&c, "n_free_states");
    copy_model(&c, "knee-biped");
    c.free_states[0] = 6; /* the mode has 6 states */
    ck_assert_refused_naming(&c, "free_states");
    copy_model(&c, "knee-biped");
    c.free_states[1] = c.free_states[0];
    ck_assert_refused_naming(&c, "free_states");
    copy_model(&c, "knee-biped");
    c.residual[2] = -1;
    ck_assert_refused_naming(&c, "residual");
    copy_model(&c, "knee-biped");
    c.m.orbit.n_residual = 5;
    ck_assert_refused_naming(&c, "n_residual");
    copy_model(&c, "knee-biped");
    c.m.orbit.n_free_params = -2;
    ck_assert_refused_naming(&c, "n_free_params");
    copy_model(&c, "slip-hopper");
    c.free_params[1] = "nosuch";
    ck_assert_refused_naming(&c, "free_params");
    copy_model(&c, "slip-hopper");
    for (int i = 0; i < c.m.n_params; i++)
        c.params[i].flags &= ~HES_PARAM_SOLVED;
    ck_assert_refused_naming(&c, "HES_PARAM_SOLVED");
    copy_model(&c, "paddle-juggler");
    c.m.orbit.period_param = "nosuch";
    ck_assert_refused_naming(&c, "period_param");
}
END_TEST

START_TEST(test_validate_says_an_orbit_spec_without_unknowns_has_nothing_to_solve)
{
    model_copy c;
    hes_error msg = {""};
    copy_model(&c, "knee-biped");
    c.m.orbit.n_free_states = 0;
    c.m.orbit.n_residual = 0;
    ck_assert_int_eq(hes_model_validate(&c.m, &msg), HES_EINVAL);
    /* not "0 unknowns but 0 residual components" */
    ck_assert_msg(strstr(msg.message, "nothing to solve"), "message: '%s'", msg.message);
    ck_assert_msg(has_word(msg.message, "n_free_states") && has_word(msg.message, "n_free_params"),
                  "message does not name the fields: '%s'", msg.message);
}
END_TEST

START_TEST(test_validate_names_each_bad_model_field)
{
    model_copy c;
    copy_model(&c, "knee-biped");
    c.m.integrator = (hes_integrator)9;
    ck_assert_refused_naming(&c, "integrator");
    copy_model(&c, "knee-biped");
    c.m.max_phase_time = -1.0;
    ck_assert_refused_naming(&c, "max_phase_time");
    c.m.max_phase_time = NAN;
    ck_assert_refused_naming(&c, "max_phase_time");
    c.m.max_phase_time = HUGE_VAL;
    ck_assert_refused_naming(&c, "max_phase_time");
    copy_model(&c, "knee-biped");
    c.tr[1].direction = 5;
    ck_assert_refused_naming(&c, "direction");
    copy_model(&c, "knee-biped");
    c.m.n_params = -1;
    ck_assert_refused_naming(&c, "n_params");
    copy_model(&c, "knee-biped");
    c.m.n_transitions = -3;
    ck_assert_refused_naming(&c, "n_transitions");
    copy_model(&c, "knee-biped");
    c.m.n_transitions = 2;
    c.m.transitions = NULL;
    ck_assert_refused_naming(&c, "n_transitions");
    copy_model(&c, "knee-biped");
    c.modes[1].dim = 0;
    ck_assert_refused_naming(&c, "dim");
    copy_model(&c, "knee-biped");
    c.modes[1].dim = 2000000000;
    ck_assert_refused_naming(&c, "dim");
    copy_model(&c, "knee-biped");
    for (int i = 0; i < 6; i++)
        c.state_names[i] = c.modes[0].state_names[i];
    c.state_names[3] = NULL;
    c.modes[0].state_names = c.state_names;
    ck_assert_refused_naming(&c, "state_names");
    copy_model(&c, "knee-biped");
    c.modes[1].name = c.modes[0].name;
    ck_assert_refused_naming(&c, "unlocked");
    /* a default outside its range, or not positive where it must be */
    copy_model(&c, "knee-biped");
    c.params[0].value = -0.5;
    ck_assert_refused_naming(&c, "mh");
    copy_model(&c, "knee-biped");
    c.params[8].value = 0.9; /* slope in [-0.5, 0.5] */
    ck_assert_refused_naming(&c, "slope");
    c.params[8].value = NAN;
    ck_assert_refused_naming(&c, "slope");
    copy_model(&c, "slip-hopper");
    int k = hes_model_param_index(&c.m, "K");
    c.params[k].search_lo = 1.0;
    c.params[k].search_hi = -1.0;
    ck_assert_refused_naming(&c, "K");
}
END_TEST

START_TEST(test_validate_names_each_bad_trajopt_field)
{
    model_copy c;
    copy_model(&c, "knee-biped");
    c.spec.n_inputs = -1;
    ck_assert_refused_naming(&c, "n_inputs");
    copy_model(&c, "knee-biped");
    c.inputs[1] = "nosuch";
    ck_assert_refused_naming(&c, "inputs");
    copy_model(&c, "knee-biped");
    c.input_lo[0] = 5.0;
    c.input_hi[0] = -5.0;
    ck_assert_refused_naming(&c, "input_lo");
    copy_model(&c, "knee-biped");
    c.input_hi[2] = NAN;
    ck_assert_refused_naming(&c, "input_lo");
    copy_model(&c, "knee-biped");
    c.x0_lo[1] = 1.0;
    ck_assert_refused_naming(&c, "x0_lo");
    copy_model(&c, "knee-biped");
    c.spec.min_duration = 3.0; /* above max_duration 2 */
    ck_assert_refused_naming(&c, "min_duration");
    c.spec.min_duration = NAN;
    ck_assert_refused_naming(&c, "min_duration");
    copy_model(&c, "knee-biped");
    c.spec.n_path = -1;
    ck_assert_refused_naming(&c, "n_path");
    copy_model(&c, "knee-biped");
    c.path[2].mode = 5;
    ck_assert_refused_naming(&c, "mode");
    copy_model(&c, "knee-biped");
    c.path[0].fn = NULL;
    ck_assert_refused_naming(&c, "fn");
    copy_model(&c, "knee-biped");
    c.virtual_events[1] = -1;
    ck_assert_refused_naming(&c, "virtual_events");
    c.virtual_events[1] = 65;
    ck_assert_refused_naming(&c, "virtual_events");
    copy_model(&c, "knee-biped");
    c.spec.min_crossing_rate = NAN;
    ck_assert_refused_naming(&c, "min_crossing_rate");
    c.spec.min_crossing_rate = -1.0;
    ck_assert_refused_naming(&c, "min_crossing_rate");
}
END_TEST

START_TEST(test_validate_checks_the_mechanical_structures)
{
    model_copy c;
    /* hes_mech_field without its hes_mech_mode (the model has no data either) */
    copy_model(&c, "knee-biped");
    c.modes[1].data = NULL;
    ck_assert_refused_naming(&c, "locked");
    /* a hes_mech_mode whose k does not match the mode's dimension */
    copy_model(&c, "knee-biped");
    c.mech_mode = *(const hes_mech_mode *)c.modes[0].data;
    c.mech_mode.k = 2; /* the mode has 6 states: k = 3 */
    c.modes[0].data = &c.mech_mode;
    ck_assert_refused_naming(&c, "k");
    /* an active constraint that the mechanical system does not have */
    copy_model(&c, "knee-biped");
    c.mech_mode = *(const hes_mech_mode *)c.modes[0].data;
    c.mech_mode.n_active = 1;
    c.mech_mode.active = (const int[]){ 5 };
    c.modes[0].data = &c.mech_mode;
    ck_assert_refused_naming(&c, "n_active");
    /* hes_mech_guard without its hes_mech_transition */
    copy_model(&c, "knee-biped");
    c.tr[0].data = NULL;
    ck_assert_refused_naming(&c, "kneestrike");
    /* an impact enforcing a constraint that does not exist */
    copy_model(&c, "knee-biped");
    c.mech_tr = *(const hes_mech_transition *)c.tr[0].data;
    c.mech_tr.constraint = 9;
    c.tr[0].data = &c.mech_tr;
    ck_assert_refused_naming(&c, "constraint");
    copy_model(&c, "knee-biped");
    c.mech_tr = *(const hes_mech_transition *)c.tr[1].data;
    c.mech_tr.kind = (hes_mech_event)7;
    c.tr[1].data = &c.mech_tr;
    ck_assert_refused_naming(&c, "kind");
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
    ck_assert_int_eq(rep.disagree, 0);
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
    ck_assert_int_eq(rep.disagree, 1);
    ck_assert_msg(has_word(rep.where, "air") && strstr(rep.where, "[0,1]"),
                  "where = '%s' does not name mode air, entry [0,1]", rep.where);
}
END_TEST

static int failing_reset_dx(double t, const double *x, const double *p, double *R, void *d)
{
    (void)t; (void)x; (void)p; (void)R; (void)d;
    return 7;
}

/* A wrong dF/dx, then a transition whose Jacobian callback fails: the
 * check fails (HES_EMODEL), but the wrong entry found before stays named
 * (disagree, where), since it is what the modeller must mend first. */
START_TEST(test_wrong_jacobian_stays_named_when_a_later_check_fails)
{
    const double p[TEST_BALL_NPARAMS] = { 0.5, 9.81 };
    const double x[2] = { 0.4, -1.3 };
    const double *xs[1] = { x };
    hes_transition t = test_bouncing_ball_bad_field_dx.transitions[0];
    t.reset_dx = failing_reset_dx;
    hes_model m = test_bouncing_ball_bad_field_dx;
    m.transitions = &t;
    hes_deriv_report rep;
    ck_assert_int_eq(hes_model_check_derivatives(&m, p, 0.2, xs, &rep), HES_EMODEL);
    ck_assert_int_eq(rep.disagree, 1);
    ck_assert_double_eq_tol(rep.max_rel_err, 1.0, 1e-6);
    ck_assert_msg(has_word(rep.where, "air") && strstr(rep.where, "[0,1]"),
                  "where = '%s' does not name mode air, entry [0,1]", rep.where);
    /* with the field right the failure itself is named */
    hes_model ok = test_bouncing_ball;
    hes_transition t2 = test_bouncing_ball.transitions[0];
    t2.reset_dx = failing_reset_dx;
    ok.transitions = &t2;
    ck_assert_int_eq(hes_model_check_derivatives(&ok, p, 0.2, xs, &rep), HES_EMODEL);
    ck_assert_int_eq(rep.disagree, 0);
    ck_assert_ptr_nonnull(strstr(rep.where, "callback failed"));
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
    ck_assert_int_eq(rep.disagree, 1);
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
    hes_system *sys = test_system_of(m);
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
    ck_assert_ptr_null(test_system_of(&m));
    ck_assert_ptr_null(test_system_of(NULL));
}
END_TEST

START_TEST(test_system_new_says_why_a_model_is_refused)
{
    model_copy c;
    hes_system *sys = (hes_system *)&c; /* must be set to NULL on failure */
    hes_error msg = {""};
    copy_model(&c, "knee-biped");
    c.m.orbit.n_sequence = -1;
    ck_assert_int_eq(hes_system_new(&c.m, &sys, &msg), HES_EINVAL);
    ck_assert_ptr_null(sys);
    ck_assert_msg(has_word(msg.message, "n_sequence"), "message does not say why: '%s'", msg.message);
    ck_assert_ptr_null(test_system_of(&c.m));
    /* a NULL message buffer is allowed */
    ck_assert_int_eq(hes_system_new(&c.m, &sys, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_system_new(NULL, &sys, &msg), HES_EINVAL);
    ck_assert_msg(msg.message[0] != '\0', "no message for a NULL model");
    /* and a valid model gives a system and an empty message */
    ck_assert_int_eq(hes_system_new(hes_problem_find("knee-biped"), &sys, &msg),
                     HES_OK);
    ck_assert_ptr_nonnull(sys);
    ck_assert_str_eq(msg.message, "");
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_set_param_unknown_name_is_not_found)
{
    hes_system *sys = test_system_of(slip());
    double v;
    ck_assert_int_eq(hes_system_set_param(sys, "stiffness", 1.0), HES_ENOTFOUND);
    ck_assert_msg(has_word(hes_system_errmsg(sys), "stiffness"),
                  "message does not name the parameter: '%s'", hes_system_errmsg(sys));
    ck_assert_int_eq(hes_system_set_param(sys, NULL, 1.0), HES_EINVAL);
    ck_assert_int_eq(hes_system_get_param(sys, "stiffness", &v), HES_ENOTFOUND);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_set_param_rejects_non_finite_values)
{
    hes_system *sys = test_system_of(slip());
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
    hes_system *sys = test_system_of(slip());
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
    hes_system *sys = test_system_of(slip());
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
    hes_system *sys = test_system_of(m);
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
    tcase_add_test(tc, test_validate_names_each_bad_orbit_field);
    tcase_add_test(tc, test_validate_says_an_orbit_spec_without_unknowns_has_nothing_to_solve);
    tcase_add_test(tc, test_validate_names_each_bad_model_field);
    tcase_add_test(tc, test_validate_names_each_bad_trajopt_field);
    tcase_add_test(tc, test_validate_checks_the_mechanical_structures);
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
    tcase_add_test(tc, test_wrong_jacobian_stays_named_when_a_later_check_fails);
    tcase_add_test(tc, test_check_derivatives_rejects_invalid_model);
    suite_add_tcase(s, tc);

    tc = tcase_create("parameters");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_new_system_starts_from_default_parameters);
    tcase_add_test(tc, test_system_create_refuses_invalid_model);
    tcase_add_test(tc, test_system_new_says_why_a_model_is_refused);
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
