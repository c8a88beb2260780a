/*
 * analyze_system.c - the system `hes analyze` works on: an event-selected
 * PROBLEM with its ESS options, or a hybrid PROBLEM (or the gait of
 * --orbit) with its parameters and the start of its orbit search (--x0,
 * --mode), each refusing the options that do not apply to its kind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_analyze.h"

static int has_shape_params(const hes_model *m)
{
    int i;

    for (i = 0; i < m->n_params; i++)
        if (m->params[i].flags & HES_PARAM_SHAPE)
            return 1;
    return 0;
}

/* --x0 (and --mode): the section state the orbit search starts from. */
static int apply_x0(hes_system *sys, const char *text, const char *mode_name)
{
    const hes_model *m = hes_system_model(sys);
    int mode = m->orbit.mode, n = m->modes[mode].dim, count;
    double *x0;

    if (!m->orbit.guess) {
        fprintf(stderr, "hes analyze: problem '%s' declares no periodic orbit; --x0 has "
                "nothing to start\n", m->name);
        return CLI_EXIT_USAGE;
    }
    if (mode_name && strcmp(mode_name, m->modes[mode].name) != 0) {
        if (hes_model_mode_index(m, mode_name) < 0)
            fprintf(stderr, "hes analyze: --mode %s: problem '%s' has no such mode\n",
                    mode_name, m->name);
        else
            fprintf(stderr, "hes analyze: --mode %s: the orbit of '%s' starts in mode '%s' "
                    "(its section), so --x0 must be a state of that mode\n", mode_name,
                    m->name, m->modes[mode].name);
        return CLI_EXIT_USAGE;
    }
    int rc = cli_parse_vector(text, &x0, &count);
    if (rc == -2) {
        fprintf(stderr, "hes analyze: out of memory\n");
        return CLI_EXIT_FAILURE;
    }
    if (rc != 0) {
        fprintf(stderr, "hes analyze: --x0 '%s': expected comma-separated finite numbers\n", text);
        return CLI_EXIT_USAGE;
    }
    if (count != n) {
        fprintf(stderr, "hes analyze: --x0 has %d value%s, but mode '%s' of '%s' has %d states",
                count, count == 1 ? "" : "s", m->modes[mode].name, m->name, n);
        for (int i = 0; i < n && cli_state_name(m, mode, i); i++)
            fprintf(stderr, "%s%s", i ? ", " : " (", cli_state_name(m, mode, i));
        fprintf(stderr, "%s\n", cli_state_name(m, mode, 0) ? ")" : "");
        free(x0);
        return CLI_EXIT_USAGE;
    }
    hes_status st = hes_system_set_orbit_start(sys, x0);
    free(x0);
    return st == HES_OK ? CLI_EXIT_OK : cli_report_status(st, sys);
}

/* The system of an event-selected PROBLEM with its options; NULL with *rc. */
hes_system *analyze_ess_problem(const hes_ess_model *m, analyze_opts *o, int *rc)
{
    const char *other = o->gradient ? "--gradient" : o->mode_name ? "--mode"
                      : o->impact_n ? "--impact-set" : NULL;
    if (other) {
        fprintf(stderr, "hes analyze: %s applies to hybrid models; '%s' is an "
                "event-selected system\n", other, m->name);
        *rc = CLI_EXIT_USAGE;
        return NULL;
    }
    o->eo.x0_text = o->x0_text;
    return analyze_ess_system(m, &o->cli.params, &o->eo, rc);
}

/* The system of a hybrid PROBLEM (or of the gait of --orbit) with its
 * parameters and --x0; NULL with *rc. */
hes_system *analyze_hybrid_problem(const analyze_opts *o, cli_orbit *orbit, int *rc)
{
    const char *problem = o->cli.n_args ? o->cli.args[0] : NULL;

    *rc = CLI_EXIT_USAGE;
    if (o->ess_option) {
        fprintf(stderr, "hes analyze: %s applies to event-selected systems (marked [ess] by "
                "'hes list'), not to '%s'\n", o->ess_option,
                problem ? cli_problem_name(problem) : o->orbit_file);
        return NULL;
    }
    const hes_model *model = cli_model_for(problem, o->orbit_file, orbit, rc);
    if (!model)
        return NULL;
    *rc = CLI_EXIT_USAGE;
    if (o->mode_name && !o->x0_text) {
        fprintf(stderr, "hes analyze: --mode names the mode of --x0, which is missing\n");
        return NULL;
    }
    if (o->gradient && !has_shape_params(model)) {
        fprintf(stderr, "hes: problem '%s' has no shape parameters\n", model->name);
        return NULL;
    }
    if (!model->orbit.guess) {
        const char *option = "", *word = model->name;
        if (problem)
            cli_problem_words(problem, &option, &word);
        fprintf(stderr, "hes analyze: problem '%s' declares no periodic orbit to analyse; the "
                "derivative of one run and its simultaneous events (whether the two orders of "
                "a contact give the same one): hes simulate %s%s --x0 V1,V2,... --time T "
                "--jacobian\n", model->name, option, word);
        return NULL;
    }
    hes_system *sys = cli_system_setup(model, &o->cli.params, rc);
    if (sys && o->x0_text && (*rc = apply_x0(sys, o->x0_text, o->mode_name)) != CLI_EXIT_OK) {
        hes_system_destroy(sys);
        return NULL;
    }
    return sys;
}
