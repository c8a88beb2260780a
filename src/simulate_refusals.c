/*
 * simulate_refusals.c - the combinations of options `hes simulate` refuses
 * once its command line is parsed (cmd_simulate.c) and the problem is
 * known: an integrator that does not fit the problem, and the options of one
 * kind of run (the trials, --sweep, one run with --jacobian, the ESS
 * integrator's) given to another.  Each says which option does not go with
 * which, exit status 2.
 */
#include <stdio.h>

#include "cmd_simulate.h"

/* The integrator: the one named, or the one the problem has (ess for an
 * event-selected system, whose model is then *ess_model); 0, or the exit
 * status after a message when it does not fit the problem or the options. */
int simulate_choose_integrator(simulate_opts *o, const hes_ess_model **ess_model)
{
    const char *problem = o->cli.n_args ? o->cli.args[0] : NULL;

    *ess_model = o->orbit_file ? NULL : cli_find_ess_problem(problem);
    if (!o->have_integrator)
        o->method = *ess_model ? HES_SIM_ESS : HES_SIM_EVENT;
    if (o->method == HES_SIM_ESS && !*ess_model) {
        if (o->orbit_file)
            fprintf(stderr, "hes simulate: --integrator ess integrates an event-selected "
                    "system, not a gait file (--orbit)\n");
        else if (cli_find_problem(problem)) /* else it said the problem is unknown */
            fprintf(stderr, "hes simulate: problem '%s' is a hybrid model with no ESS form; "
                    "--integrator ess takes the event-selected systems, marked [ess] by "
                    "'hes list'\n", cli_problem_name(problem));
        return CLI_EXIT_USAGE;
    }
    if (o->method == HES_SIM_EVENT && *ess_model) {
        fprintf(stderr, "hes simulate: '%s' is an event-selected system: it takes "
                "--integrator ess only\n", (*ess_model)->name);
        return CLI_EXIT_USAGE;
    }
    if (o->method == HES_SIM_EVENT && o->ess_option) {
        fprintf(stderr, "hes simulate: %s only goes with --integrator ess\n", o->ess_option);
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

/* The refusals of an ESS run: 0, or the exit status after a message. */
int simulate_check_ess(const simulate_opts *o)
{
    const char *other = o->cli.trial_option ? o->cli.trial_option
                      : o->sweep.spec ? "--sweep" : o->sweep.mode ? "--mode" : NULL;
    if (other)
        fprintf(stderr, "hes simulate: %s does not go with --integrator ess\n", other);
    else if (!o->sweep.x0 || !o->sweep.have_time)
        fprintf(stderr, "hes simulate: --integrator ess needs the initial state --x0 and "
                "the time --time\n");
    else if (o->jacobian && o->output == OUT_CSV)
        fprintf(stderr, "hes simulate: --jacobian goes with the text or --json output, not "
                "--csv (one table of samples)\n");
    else
        return CLI_EXIT_OK;
    return CLI_EXIT_USAGE;
}

/* The refusals of a hybrid model's trials, sweep or run: 0, or the exit
 * status after a message. */
int simulate_check_hybrid(const simulate_opts *o)
{
    const simulate_sweep_opts *sw = &o->sweep;
    const char *trial_option = o->cli.trial_option;

    if (o->jacobian && (sw->spec || trial_option || o->output == OUT_CSV || !sw->x0 ||
                        !sw->have_time))
        fprintf(stderr, "hes simulate: --jacobian is one run from --x0 over --time, with the "
                "text or --json output (not with --sweep, trials or --csv)\n");
    else if (!sw->spec && o->sweep_option && !o->jacobian)
        fprintf(stderr, "hes simulate: %s only goes with --sweep\n", o->sweep_option);
    else if (sw->spec && trial_option)
        fprintf(stderr, "hes simulate: %s is an option of the perturbation trials, not of "
                "--sweep\n", trial_option);
    else if (sw->spec && (!sw->x0 || !sw->have_time))
        fprintf(stderr, "hes simulate: --sweep needs the initial state --x0 and the time "
                "--time\n");
    else
        return CLI_EXIT_OK;
    return CLI_EXIT_USAGE;
}
