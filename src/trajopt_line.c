/*
 * trajopt_line.c - what the command line of `hes trajopt` means once its
 * options are parsed (cmd_trajopt.c): the refusals of options that go
 * together with others or would be ignored, the problem and its virtual
 * events, the system with -p and the start of --init FILE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_trajopt.h"

/* --solver S of a solver this build lacks: exit 1, as the run would fail
 * for want of it.  0, or the exit status after a message. */
static int check_solver(const hes_trajopt_options *to)
{
    if (hes_nlp_solver_available(to->solver))
        return CLI_EXIT_OK;
    fprintf(stderr, "hes trajopt: --solver %s: hes was built without it (install the Debian "
            "package coinor-libipopt-dev and run configure again)\n",
            hes_nlp_solver_name(to->solver));
    return CLI_EXIT_FAILURE;
}

/* The option that would be ignored with the objective asked for, or NULL. */
static const char *ignored_option(const trajopt_opts *o)
{
    hes_colloc_objective obj = o->to.objective;
    int psi_objective = obj == HES_COLLOC_STABILITY || obj == HES_COLLOC_WEIGHTED;
    const unsigned char *seen = o->cli.seen;

    if (seen[TJ_WEIGHT] && obj != HES_COLLOC_WEIGHTED)
        return "--weight";
    if (psi_objective)
        return NULL;
    return seen[TJ_MEASURE] ? "--measure" : seen[TJ_PSI_FLOOR] ? "--psi-floor"
         : seen[TJ_PSI_SMOOTHING] ? "--psi-smoothing" : seen[TJ_SMOOTH] ? "--smooth" : NULL;
}

/* Refusals of option combinations once the model is known (counts: its
 * virtual events): 0, or the exit status after a message. */
static int check_combinations(const trajopt_opts *o, const hes_model *model, const int *counts)
{
    const hes_trajopt_options *to = &o->to;
    const hes_trajopt_spec *spec = model->trajopt;
    const unsigned char *seen = o->cli.seen;
    const char *ignored = ignored_option(o);

    if ((seen[TJ_SEED] || seen[TJ_SPREAD]) && to->starts < 2)
        fprintf(stderr, "hes trajopt: %s applies only with --starts N above 1\n",
                seen[TJ_SEED] ? "--seed" : "--spread");
    else if (to->starts > 1 && to->objective == HES_COLLOC_FEASIBLE)
        fprintf(stderr, "hes trajopt: --starts needs a cost to compare the starts by (not "
                "--objective feasible)\n");
    else if (ignored)
        fprintf(stderr, "hes trajopt: %s does not apply to --objective %s (only to %s)\n",
                ignored, hes_colloc_objective_name(to->objective),
                strcmp(ignored, "--weight") == 0 ? "weighted" : "stability and weighted");
    else if (to->psi_smoothing > 0 && to->measure == HES_MEASURE_SMOOTH)
        fprintf(stderr, "hes trajopt: --psi-smoothing smooths psi's kinks; --measure smooth has "
                "none\n");
    else if (seen[TJ_INPUTS] && (!spec || spec->n_inputs == 0))
        fprintf(stderr, "hes trajopt: --inputs: problem '%s' has no inputs\n", model->name);
    else if (seen[TJ_REFINE] && to->refine > 1 && !(spec && spec->n_inputs > 0) &&
             !trajopt_any_virtual(model, counts))
        fprintf(stderr, "hes trajopt: --refine applies only with inputs or virtual events: "
                "problem '%s' has no inputs and --virtual-events gives none\n", model->name);
    else
        return CLI_EXIT_OK;
    return CLI_EXIT_USAGE;
}

/* The problem of the command line and its virtual-event counts (*counts,
 * malloc'd) after the checks that need them: 0, or the exit status after a
 * message. */
int trajopt_check_line(trajopt_opts *o, const hes_model **model, int **counts)
{
    int rc = check_solver(&o->to);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (o->n_maxeval > 1 && o->n_maxeval != o->n_grids) {
        fprintf(stderr, "hes trajopt: --maxeval gives %d values for the %d grid%s of --nodes: "
                "give one for every grid, or one per grid\n", o->n_maxeval, o->n_grids,
                o->n_grids > 1 ? "s" : "");
        return CLI_EXIT_USAGE;
    }
    for (int k = o->n_maxeval; k < o->n_grids; k++) /* one value: every grid's */
        o->maxeval[k] = o->maxeval[0];
    if (o->cli.n_args != 1)
        return cli_usage_error(&o->cli, "expected exactly one PROBLEM");
    if (!(*model = cli_find_problem(o->cli.args[0])))
        return CLI_EXIT_USAGE;
    if (!(*counts = calloc((size_t)(*model)->orbit.n_sequence + 1, sizeof **counts))) {
        fprintf(stderr, "hes trajopt: out of memory\n");
        return CLI_EXIT_FAILURE;
    }
    if (trajopt_parse_virtual(o->virtual_spec, *model, *counts))
        return CLI_EXIT_USAGE;
    return check_combinations(o, *model, *counts);
}

/* The system of the model with -p, and the gait of --init FILE in *start
 * (with -p over its parameters); NULL with *rc after a message. */
hes_system *trajopt_setup(const trajopt_opts *o, const hes_model *model, hes_gait *start,
                          int *rc)
{
    hes_error msg;
    hes_system *sys = cli_system_setup(model, &o->cli.params, rc);

    if (!sys || strcmp(o->init, "default") == 0)
        return sys;
    if (hes_gait_read(o->init, model, start, &msg) != HES_OK) {
        fprintf(stderr, "hes trajopt: --init %s: %s\n", o->init, msg.message);
        *rc = CLI_EXIT_USAGE;
        hes_system_destroy(sys);
        return NULL;
    }
    /* -p over the gait's parameters: the gait is the start, the command
       line the model (a gait continued to another slope, say) */
    for (int i = 0; i < o->cli.params.n; i++) {
        int k = cli_assignment_param(model, o->cli.params.items[i]);
        if (k >= 0 && k < start->n_params)
            start->params[k] = hes_system_params(sys)[k];
    }
    return sys;
}
