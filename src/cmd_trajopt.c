/*
 * cmd_trajopt.c - `hes trajopt`: the orbit itself as the unknown of a
 * multi-phase direct collocation (lib/shaping/collocation.c) with the model's inputs
 * at the nodes, virtual events, and psi and/or the input energy in the cost
 * (core paper problem (8)); the gait is written as a gait file (-o) and
 * re-analysed independently by shooting through its derived model
 * (lib/shaping/gait.c), and both psi are printed.  The pipeline is
 * hes_trajopt_run (lib/shaping/trajopt.c); this file reads the command line
 * (one argp table, whose --help prints the library's defaults) into the
 * library's hes_trajopt_options, starting from its defaults, and runs it; what the options mean together is in
 * trajopt_line.c, the output in trajopt_print.c.
 */
#define _GNU_SOURCE /* asprintf */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cmd_trajopt.h"

static const struct argp_option options[] = {
    {"objective", TJ_OBJECTIVE, "OBJ", 0, "stability: psi (default); energy: integral of the "
     "squared inputs; weighted: psi + W * energy; feasible: no cost", 0},
    {"weight", TJ_WEIGHT, "W", 0, "the energy weight of 'weighted', W >= 0", 0},
    {"measure", TJ_MEASURE, "M", 0, "the stability term optimised: psi (default), or smooth: "
     "the 16-norm of the multiplier moduli, which does not stall where the largest multipliers "
     "meet", 0},
    {"psi-floor", TJ_PSI_FLOOR, "F", 0, "psi counts in the cost only down to F: below it "
     "the other terms are optimised instead of driving the multipliers together towards 0", 0},
    {"psi-smoothing", TJ_PSI_SMOOTHING, "S", 0, "the first rounds smooth psi where multipliers "
     "meet in modulus, over moduli within S times psi at the start (0: none, the default, as "
     "is S below 0.01; try 0.05 where SLSQP or the reduced space stall at the cap)", 0},
    {"smooth", TJ_SMOOTH, "S", 0, "weight of the input-rate regularisation added to psi "
     "(integral of |du/dt|^2), S >= 0", 0},
    {"json", TJ_JSON, NULL, 0, "print one JSON object instead of text", 0},
    {"quiet", TJ_QUIET, NULL, 0, "no progress lines on stderr", 0},
    {"output", 'o', "FILE", 0, "write the gait (JSON) for 'hes analyze --orbit FILE' and "
     "'hes simulate --orbit FILE'", 0},
    {NULL, 0, NULL, 0, "The collocation:", 1},
    {"virtual-events", TJ_VIRTUAL, "SPEC", 0, "virtual events per phase of the sequence: "
     "'none' (default), 'default' (the model's), or counts 'A,B,..'", 1},
    {"inputs", TJ_INPUTS, "KIND", 0, "linear (default): per node, linear in between; "
     "constant: one value per (sub-)phase", 1},
    {"bound", TJ_BOUND, "STATE=LO:HI", 0, "bounds on a component of the first state (just "
     "after the section event; repeatable; replaces the model's)", 1},
    {"design", TJ_DESIGN, "NAME=LO:HI", 0, "a parameter to optimise within bounds "
     "(repeatable; default without inputs: every shape parameter, its search bounds)", 1},
    {"nodes", TJ_NODES, "N[,N2,...]", 0, "nodes per phase, N >= 3; virtual sub-phases "
     "share them; with N2,... the gait is optimised again on each finer grid in turn from the "
     "one before (mesh continuation: the optimiser's psi then resolved)", 1},
    {"init", TJ_INIT, "FILE|default", 0, "start from a gait file (resampled; -p overrides its "
     "parameters) or from a simulation of the model's orbit guess (default)", 1},
    {"refine", TJ_REFINE, "K", 0, "with inputs or virtual events the result is re-collocated "
     "with K times as many intervals and its inputs held (the gait written and its psi); "
     "K = 1 skips that", 1},
    {NULL, 0, NULL, 0, "The optimiser:", 2},
    {"maxeval", TJ_MAXEVAL, "N[,N2,...]", 0, "evaluations of the cost per grid, 1 <= N <= "
     STR(CLI_MAX_EVALS) ": one value for every grid of --nodes, or one per grid", 2},
    {"solver", TJ_SOLVER, "S", 0, "the NLP solver: ipopt (sparse interior point; the default "
     "when built in, except psi objectives on at most 400 variables), slsqp (dense SQP), "
     "reduced (SQP on the free variables, every iterate an orbit: for refining a gait, e.g. "
     "adding virtual events), or hybrid (the first tenth of --maxeval by slsqp, the rest "
     "reduced: from a far start)", 2},
    {"starts", TJ_STARTS, "N", 0, "optimise from N starts: the first as given, the others "
     "with the free variables (inputs, virtual offsets, design) moved by up to --spread at "
     "random (--seed); the result is the start of least cost with psi by shooting", 2},
    {"seed", TJ_SEED, "N", 0, "with --starts: the seed of the random moves, N >= 0", 2},
    {"spread", TJ_SPREAD, "S", 0, "with --starts: the largest move of a free variable, "
     "relative, in (0, 1]", 2},
    {"jobs", TJ_JOBS, "N", 0, "threads for psi's gradient, or with --starts for the "
     "starts; the result does not depend on N", 2},
    {NULL, 0, NULL, 0, NULL, 0}
};

/* The doc string of an option with the library's default appended. */
static char *help_filter(int key, const char *text, void *input)
{
    hes_trajopt_options d;
    char *s = NULL;
    int n;

    hes_trajopt_options_init(&d);
    (void)input;
    switch (key) {
    case TJ_WEIGHT:    n = asprintf(&s, "%s (%g)", text, d.weight); break;
    case TJ_PSI_FLOOR: n = asprintf(&s, "%s (%g)", text, d.psi_floor); break;
    case TJ_SMOOTH:    n = asprintf(&s, "%s (%g)", text, d.smooth_weight); break;
    case TJ_NODES:     n = asprintf(&s, "%s (%d)", text, d.nodes); break;
    case TJ_REFINE:    n = asprintf(&s, "%s (%d)", text, d.refine); break;
    case TJ_MAXEVAL:   n = asprintf(&s, "%s (%d)", text, d.maxeval); break;
    case TJ_STARTS:    n = asprintf(&s, "%s (%d)", text, d.starts); break;
    case TJ_SEED:      n = asprintf(&s, "%s (%lu)", text, d.seed); break;
    case TJ_SPREAD:    n = asprintf(&s, "%s (%g)", text, d.start_spread); break;
    case TJ_JOBS:      n = asprintf(&s, "%s (%d)", text, d.jobs); break;
    default:           return (char *)text;
    }
    return n < 0 ? (char *)text : s;
}

/* "hes trajopt: OPTION must be MUST, got 'ARG'": a refused value. */
static error_t refuse(const char *option, const char *must, const char *arg)
{
    fprintf(stderr, "hes trajopt: %s must be %s, got '%s'\n", option, must, arg);
    return CLI_ARG_REFUSED;
}

/* A number option that must be >= 0 (and finite, which cli_parse_double
 * already asks). */
static error_t nonnegative(const char *option, const char *arg, double *v)
{
    return cli_parse_double(arg, v) || !(*v >= 0) ? refuse(option, "a number >= 0", arg) : 0;
}

static error_t parse_option(int key, char *arg, struct argp_state *state)
{
    trajopt_opts *o = state->input;
    hes_trajopt_options *to = &o->to;

    /* --design and --bound are repeatable (one per name) */
    if (key != TJ_DESIGN && key != TJ_BOUND && cli_arg_once(state, key))
        return CLI_ARG_REFUSED;
    switch (key) {
    case TJ_OBJECTIVE:
        if (hes_colloc_objective_from_name(arg, &to->objective) == HES_OK)
            return 0;
        fprintf(stderr, "hes trajopt: --objective is energy, stability, weighted or feasible, "
                "got '%s'\n", arg);
        return CLI_ARG_REFUSED;
    case TJ_WEIGHT:        return nonnegative("--weight", arg, &to->weight);
    case TJ_SMOOTH:        return nonnegative("--smooth", arg, &to->smooth_weight);
    case TJ_PSI_FLOOR:     return nonnegative("--psi-floor", arg, &to->psi_floor);
    case TJ_PSI_SMOOTHING:
        if (cli_parse_double(arg, &to->psi_smoothing) || !(to->psi_smoothing >= 0))
            return refuse("--psi-smoothing", "a finite number >= 0", arg);
        return 0;
    case TJ_MEASURE:
        if (hes_measure_from_name(arg, &to->measure) == HES_OK)
            return 0;
        fprintf(stderr, "hes trajopt: --measure is psi or smooth, got '%s'\n", arg);
        return CLI_ARG_REFUSED;
    case TJ_VIRTUAL:       o->virtual_spec = arg; return 0;
    case TJ_INIT:          o->init = arg; return 0;
    case TJ_JSON:          o->json = 1; return 0;
    case TJ_QUIET:         o->progress.quiet = 1; return 0;
    case 'o':               o->out_path = arg; return 0;
    case TJ_INPUTS:
        if (strcmp(arg, "linear") == 0 || strcmp(arg, "constant") == 0) {
            to->constant_inputs = arg[0] == 'c';
            return 0;
        }
        fprintf(stderr, "hes trajopt: --inputs is linear or constant, got '%s'\n", arg);
        return CLI_ARG_REFUSED;
    case TJ_DESIGN:
        if (trajopt_parse_design("--design", arg, &o->design))
            return CLI_ARG_REFUSED;
        to->n_design = o->design.n;
        return 0;
    case TJ_BOUND:
        if (trajopt_parse_design("--bound", arg, &o->bounds))
            return CLI_ARG_REFUSED;
        to->n_bounds = o->bounds.n;
        return 0;
    case TJ_NODES:
        if (trajopt_parse_per_grid("--nodes", arg, 3, 1000, 1, "1 to " STR(HES_TRAJOPT_MAX_GRIDS)
                                   " node counts from 3 to 1000, comma-separated and increasing",
                                   o->grids, &o->n_grids))
            return CLI_ARG_REFUSED;
        to->nodes = o->grids[0];
        to->n_finer = o->n_grids - 1;
        return 0;
    case TJ_MAXEVAL:
        if (trajopt_parse_per_grid("--maxeval", arg, 1, CLI_MAX_EVALS, 0, "1 to "
                                   STR(HES_TRAJOPT_MAX_GRIDS) " integers from 1 to "
                                   STR(CLI_MAX_EVALS) ", comma-separated: one for every grid, "
                                   "or one per grid of --nodes", o->maxeval, &o->n_maxeval))
            return CLI_ARG_REFUSED;
        to->maxeval = o->maxeval[0];
        return 0;
    case TJ_STARTS:
        return cli_int_option(o->cli.cmd, "--starts", arg, 1, HES_TRAJOPT_MAX_STARTS,
                              &to->starts) ? CLI_ARG_REFUSED : 0;
    case TJ_SEED:
        return cli_parse_ulong(arg, &to->seed) ? refuse("--seed", "an integer >= 0", arg) : 0;
    case TJ_SPREAD:
        if (cli_parse_double(arg, &to->start_spread) ||
            !(to->start_spread > 0 && to->start_spread <= 1))
            return refuse("--spread", "a number in (0, 1]", arg);
        return 0;
    case TJ_JOBS:
        return cli_int_option(o->cli.cmd, "--jobs", arg, 1, HES_COLLOC_MAX_JOBS, &to->jobs)
               ? CLI_ARG_REFUSED : 0;
    case TJ_REFINE:
        return cli_int_option(o->cli.cmd, "--refine", arg, 1, 16, &to->refine)
               ? CLI_ARG_REFUSED : 0;
    case TJ_SOLVER:
        if (hes_nlp_solver_from_name(arg, &to->solver) == HES_OK &&
            to->solver != HES_NLP_DEFAULT)
            return 0;   /* whether this build has it: check_solver */
        fprintf(stderr, "hes trajopt: --solver expects ipopt, slsqp, reduced or hybrid, got "
                "'%s'\n", arg);
        return CLI_ARG_REFUSED;
    default:
        return ARGP_ERR_UNKNOWN;
    }
}

static const struct argp trajopt_argp = {
    options, parse_option, "PROBLEM",
    "Collocate a periodic orbit of PROBLEM (Hermite-Simpson over its event sequence, free "
    "phase durations, the model's inputs at the nodes, optional virtual events) minimising "
    "the objective, then re-analyse the gait by shooting.",
    NULL, help_filter, NULL
};

/* Runs the optimisation and prints it as asked; the exit status. */
static int run(hes_system *sys, const hes_model *model, trajopt_opts *o)
{
    hes_trajopt_result r;
    int rc = CLI_EXIT_OK;
    hes_status st = hes_trajopt_run(sys, &o->to, &r);

    if (st != HES_OK) {
        rc = cli_report_status(st, sys);
    } else {
        if (o->out_path && trajopt_write_gait(o->out_path, &r.gait, model) != 0)
            rc = CLI_EXIT_FAILURE;
        if (o->json) {
            int jrc = cli_print_document("hes trajopt", hes_trajopt_json(sys, &r));
            if (rc == CLI_EXIT_OK)
                rc = jrc;
        } else {
            trajopt_print_text(sys, &r, o->maxeval);
        }
        if (r.have_shooting && r.unresolved)
            fprintf(stderr, "hes trajopt: warning: psi of the collocation (%.6g) and by shooting "
                    "(%.6g) differ by %.2g relative: the grid does not resolve this gait, and the "
                    "optimiser may have used its discretisation error; use more --nodes%s\n",
                    r.gait.psi, r.psi_shooting, r.psi_difference,
                    r.refined_nodes ? " or a finer --refine" : "");
    }
    hes_trajopt_result_free(&r);
    return rc;
}

int cmd_trajopt(int argc, char **argv)
{
    trajopt_opts o;
    const hes_model *model = NULL;
    int *counts = NULL;
    hes_system *sys = NULL;
    hes_gait start;

    memset(&o, 0, sizeof o);
    memset(&start, 0, sizeof start);
    /* the library's defaults; the parser sets each option given in o.to
       itself, and the lists the library reads point into o */
    hes_trajopt_options_init(&o.to);
    o.grids[0] = o.to.nodes;
    o.n_grids = 1;
    o.maxeval[0] = o.to.maxeval;
    o.n_maxeval = 1;
    o.to.finer_nodes = o.grids + 1;
    o.to.finer_maxeval = o.maxeval + 1;
    o.to.design = o.design.names;
    o.to.design_lo = o.design.lo;
    o.to.design_hi = o.design.hi;
    o.to.bound_states = o.bounds.names;
    o.to.bound_lo = o.bounds.lo;
    o.to.bound_hi = o.bounds.hi;
    o.to.progress = trajopt_progress_line;
    o.to.progress_ctx = &o.progress;
    o.virtual_spec = "none";
    o.init = "default";
    int rc = cli_parse(&trajopt_argp, CLI_GROUP_PARAMS, argc, argv, &o.cli);
    if (rc == CLI_EXIT_OK && !o.cli.done &&
        (rc = trajopt_check_line(&o, &model, &counts)) == CLI_EXIT_OK)
        sys = trajopt_setup(&o, model, &start, &rc);
    if (sys) {
        o.to.virtual_events = counts;
        o.to.init = strcmp(o.init, "default") != 0 ? &start : NULL;
        rc = run(sys, model, &o);
    }
    hes_gait_free(&start);
    hes_system_destroy(sys);
    free(counts);
    trajopt_designs_free(&o.design);
    trajopt_designs_free(&o.bounds);
    cli_args_free(&o.cli);
    return rc;
}
