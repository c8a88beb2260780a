/*
 * bad_plugin.c - a deliberately malformed user model for the tests of model
 * validation through the program (tests/refusals.sh, tests/bad_input.sh):
 * a plugin (hes --model) whose model is the rimless wheel of
 * share/examples/rimless_wheel.c with a small trajopt spec, broken in the
 * one field the environment variable HES_TEST_BAD_MODEL names ("none" or
 * unset: the valid model).  hes must refuse every broken variant with a
 * message naming the field, before any callback runs, and never crash.
 *
 * Test code only: the model is assembled in static storage when hes calls
 * hes_plugin_model().
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <hes.h>

enum { P_G, P_L, P_A, P_GAMMA, P_TAU };

static int field(double t, const double *x, const double *p, double *f, void *data)
{
    (void)t; (void)data;
    f[0] = x[1];
    f[1] = p[P_G] / p[P_L] * sin(x[0]) + p[P_TAU];
    return 0;
}

static int guard(double t, const double *x, const double *p, double *g, void *data)
{
    (void)t; (void)data;
    g[0] = x[0] - (p[P_GAMMA] + p[P_A]);
    return 0;
}

static int reset(double t, const double *x, const double *p, double *r, void *data)
{
    (void)t; (void)data;
    r[0] = x[0] - 2.0 * p[P_A];
    r[1] = cos(2.0 * p[P_A]) * x[1];
    return 0;
}

static int guess(double *p, double *x0, void *data)
{
    (void)data;
    x0[0] = p[P_GAMMA] - p[P_A];
    x0[1] = 1.0;
    return 0;
}

static int path_fn(double t, const double *x, const double *p, double *out, void *data)
{
    (void)t; (void)p; (void)data;
    out[0] = 1.0 - x[0] * x[0];
    return 0;
}

static const char *const names[] = { "theta", "omega" };
static const int free_states[] = { 1 }, residual[] = { 1 }, sequence[] = { 0 };
static const int bad_index[] = { 7 }, twice[] = { 1, 1 }, both[] = { 0, 1 };
static const char *const names_null[] = { "theta", NULL };
static const char *const names_twice[] = { "theta", "theta" };
static const double x0_lo[] = { 0.0, 1.0 }, x0_hi[] = { 0.0, 0.0 };
static const char *const inputs[] = { "tau" }, *const unknown[] = { "nosuch" };
static const double lo[] = { -1.0 }, hi[] = { 1.0 }, nan_bound[] = { NAN };
static const int virtual_counts[] = { 1 }, bad_counts[] = { -1 };
static const char *const path_names[] = { "spoke_in_range" };
static const char *const names_comma[] = { "theta", "omega,dot" };
static const char *const path_names_bad[] = { "spoke\rin range" };

static hes_mode modes[1];
static hes_transition transitions[1];
static hes_param params[5];
static hes_path_constraint paths[1];
static hes_trajopt_spec trajopt;
static hes_model model;

/* The valid model. */
static void build(void)
{
    modes[0] = (hes_mode){ .name = "stance", .dim = 2, .state_names = names, .field = field };
    transitions[0] = (hes_transition){ .name = "heelstrike", .from = 0, .to = 0,
                                       .direction = HES_UP, .guard = guard, .reset = reset };
    params[0] = (hes_param){ "g", 9.81, "m/s^2", "gravity", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 };
    params[1] = (hes_param){ "l", 1.0, "m", "spoke length", HES_PARAM_POSITIVE, 0.0, HUGE_VAL, 0, 0 };
    params[2] = (hes_param){ "a", 0.3, "rad", "half the angle between spokes", HES_PARAM_POSITIVE,
                             0.0, 0.7, 0, 0 };
    params[3] = (hes_param){ "gamma", 0.08, "rad", "slope angle", HES_PARAM_POSITIVE, 0.0, 0.5, 0, 0 };
    params[4] = (hes_param){ "tau", 0.0, "1/s^2", "hip torque per inertia", 0, -1.0, 1.0, 0, 0 };
    paths[0] = (hes_path_constraint){ 0, 1, path_names, path_fn, 0 };
    trajopt = (hes_trajopt_spec){ .n_inputs = 1, .inputs = inputs, .input_lo = lo,
                                  .input_hi = hi, .n_path = 1, .path = paths,
                                  .virtual_events = virtual_counts, .min_crossing_rate = 0.01 };
    model = (hes_model){
        .abi = HES_MODEL_ABI,
        .name = "bad-wheel",
        .description = "rimless wheel with one broken field (HES_TEST_BAD_MODEL)",
        .n_modes = 1, .modes = modes,
        .n_transitions = 1, .transitions = transitions,
        .n_params = 5, .params = params,
        .orbit = { .mode = 0, .section = 0, .n_sequence = 1, .sequence = sequence,
                   .n_free_states = 1, .free_states = free_states,
                   .n_residual = 1, .residual = residual, .guess = guess },
        .integrator = HES_ADAMS,
        .trajopt = &trajopt,
    };
}

/* One defect per name; 0 when the name is unknown. */
static int apply(const char *what)
{
    hes_orbit_spec *o = &model.orbit;
#define IS(s) (strcmp(what, s) == 0)
    if (IS("none"));
    else if (IS("abi")) model.abi = HES_MODEL_ABI + 1;
    else if (IS("name")) model.name = "";
    /* names a command line, a CSV header or a gnuplot script could mistake
     * for their own syntax: a name is a printable one-line label */
    else if (IS("name_injection")) model.name = "w';system('touch pwned');#";
    else if (IS("name_help")) model.name = "--help";
    else if (IS("name_option")) model.name = "-p";
    else if (IS("name_newline")) model.name = "bad\nwheel";
    else if (IS("name_comma")) model.name = "bad,wheel";
    else if (IS("name_quote")) model.name = "bad\"wheel";
    else if (IS("name_tab")) model.name = "bad\twheel";
    else if (IS("name_space")) model.name = " bad-wheel";
    else if (IS("name_8bit")) model.name = "bad\377wheel";
    else if (IS("name_long")) model.name = "a-model-name-that-goes-on-and-on-well-past-any-column-or-label-width";
    else if (IS("mode_name")) modes[0].name = "-stance";
    else if (IS("state_name_comma")) modes[0].state_names = names_comma;
    else if (IS("transition_name")) transitions[0].name = "heel\nstrike";
    else if (IS("param_name_bad")) params[4].name = "tau=1";
    else if (IS("path_name")) paths[0].names = path_names_bad;
    else if (IS("n_modes")) model.n_modes = -1;
    else if (IS("modes")) model.modes = NULL;
    else if (IS("dim")) modes[0].dim = 0;
    else if (IS("dim_huge")) modes[0].dim = 2000000000;
    else if (IS("field")) modes[0].field = NULL;
    else if (IS("state_name")) modes[0].state_names = names_null;
    else if (IS("state_name_twice")) modes[0].state_names = names_twice;
    else if (IS("n_transitions")) model.n_transitions = -3;
    else if (IS("transitions")) model.transitions = NULL;
    else if (IS("from")) transitions[0].from = 4;
    else if (IS("direction")) transitions[0].direction = 5;
    else if (IS("guard")) transitions[0].guard = NULL;
    else if (IS("n_params")) model.n_params = -2;
    else if (IS("params")) model.params = NULL;
    else if (IS("param_name")) params[1].name = NULL;
    else if (IS("param_twice")) params[1].name = "g";
    else if (IS("param_range")) params[2].min = 1.0;
    else if (IS("param_default")) params[2].value = 2.0;
    else if (IS("param_default_nan")) params[2].value = NAN;
    else if (IS("param_search")) { params[2].search_lo = 1.0; params[2].search_hi = 0.5; }
    else if (IS("param_flags")) params[2].flags = 64;
    else if (IS("integrator")) model.integrator = (hes_integrator)9;
    else if (IS("max_phase_time")) model.max_phase_time = -1.0;
    else if (IS("max_phase_time_nan")) model.max_phase_time = NAN;
    else if (IS("max_phase_time_inf")) model.max_phase_time = INFINITY;
    else if (IS("orbit_mode")) o->mode = 3;
    else if (IS("section")) o->section = 7;
    else if (IS("n_sequence")) o->n_sequence = -1;
    else if (IS("n_sequence_big")) o->n_sequence = 1000000;
    else if (IS("sequence")) o->sequence = NULL;
    else if (IS("sequence_entry")) o->sequence = bad_index;
    else if (IS("nothing_to_solve")) { o->n_free_states = 0; o->n_residual = 0; }
    else if (IS("n_free_states")) o->n_free_states = -1;
    else if (IS("free_states")) o->free_states = bad_index;
    else if (IS("free_states_null")) o->free_states = NULL;
    else if (IS("free_states_twice")) { o->n_free_states = 2; o->free_states = twice; o->n_residual = 2; o->residual = twice; }
    else if (IS("n_residual")) o->n_residual = 2;
    else if (IS("residual")) o->residual = bad_index;
    else if (IS("n_free_params")) o->n_free_params = -1;
    else if (IS("free_params")) { o->n_free_params = 1; o->free_params = unknown; o->n_residual = 2; o->residual = both; }
    else if (IS("period_param")) o->period_param = "nosuch";
    else if (IS("trajopt_n_inputs")) trajopt.n_inputs = -1;
    else if (IS("trajopt_inputs")) trajopt.inputs = unknown;
    else if (IS("trajopt_inputs_null")) trajopt.inputs = NULL;
    else if (IS("trajopt_input_bounds")) { trajopt.input_lo = hi; trajopt.input_hi = lo; }
    else if (IS("trajopt_input_nan")) trajopt.input_lo = nan_bound;
    else if (IS("trajopt_x0_bounds")) { trajopt.x0_lo = x0_lo; trajopt.x0_hi = x0_hi; }
    else if (IS("trajopt_n_path")) trajopt.n_path = -1;
    else if (IS("trajopt_path_mode")) paths[0].mode = 2;
    else if (IS("trajopt_path_fn")) paths[0].fn = NULL;
    else if (IS("trajopt_durations")) { trajopt.min_duration = 2.0; trajopt.max_duration = 1.0; }
    else if (IS("trajopt_duration_nan")) trajopt.min_duration = NAN;
    else if (IS("trajopt_virtual_events")) trajopt.virtual_events = bad_counts;
    else if (IS("trajopt_crossing_rate")) trajopt.min_crossing_rate = -1.0;
    else if (IS("trajopt_crossing_rate_nan")) trajopt.min_crossing_rate = NAN;
    else if (IS("mech_no_data")) modes[0].field = hes_mech_field;
    else if (IS("mech_guard_no_data")) transitions[0].guard = hes_mech_guard;
    else return 0;
    return 1;
#undef IS
}

const hes_model *hes_plugin_model(void);
const hes_model *hes_plugin_model(void)
{
    const char *what = getenv("HES_TEST_BAD_MODEL");
    build();
    return apply(what && *what ? what : "none") ? &model : NULL;
}
