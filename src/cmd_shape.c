/*
 * cmd_shape.c - `hes shape PROBLEM [-p NAME=VALUE]... [--start NAME=VALUE]...
 * [--bounds NAME=LO:HI]... [--algorithm NAME] [--starts N] [--seed N]
 * [--measure psi|smooth] [--fd-gradient] [--no-polish] [--maxeval N]
 * [--verify] [--trials N] [--perturb R] [--steps S] [--tol E] [--json]`:
 * hybrid event shaping.  Minimises psi (or its smooth surrogate) over every
 * shape parameter of the problem within box bounds with
 * hes_shape_optimize() (NLopt from several starts, a derivative-free polish,
 * a full re-analysis at the optimum) and reports the start and optimum of
 * each shape parameter, psi at both, how the search went and the
 * multipliers at the optimum.  --verify then runs the perturbation trials of
 * `hes simulate` (hes_trials_run) around the optimised orbit.  --json prints
 * exactly hes_shape_json() (lib/README.md, section 5) on stdout.
 *
 * The options of the search fill the library's hes_shape_options, which starts
 * from its defaults (hes_shape_options_init); the start values and bounds
 * are full arrays over the shape parameters in model order (shape_arrays.c).
 */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli_args.h"
#include "cmd_shape.h"

#define CMD "hes shape"

enum {
    OPT_START = 256, OPT_BOUNDS, OPT_ALGORITHM, OPT_STARTS, OPT_SEED, OPT_MEASURE,
    OPT_FD_GRADIENT, OPT_NO_POLISH, OPT_MAXEVAL, OPT_VERIFY, OPT_TRIALS,
    OPT_PERTURB, OPT_STEPS, OPT_TOL, OPT_JSON
};

/* The defaults are added to the doc strings by help_filter, from where
 * they are defined. */
static const struct argp_option options[] = {
    {"start", OPT_START, "NAME=VALUE", 0, "start value of a parameter (repeatable; "
     "default: its current value)", 0},
    {"bounds", OPT_BOUNDS, "NAME=LO:HI", 0, "search bounds of a parameter, LO < HI "
     "(repeatable; default: the model's, see 'hes info'; required for one that moves the "
     "orbit)", 0},
    {"algorithm", OPT_ALGORITHM, "NAME", 0, "NLopt algorithm, e.g. LD_SLSQP, LD_MMA, "
     "LN_BOBYQA, GN_DIRECT_L (default LD_SLSQP)", 0},
    {"starts", OPT_STARTS, "N", 0, "starts, the first from the start values, the rest "
     "uniform in the bounds, 1 <= N <= " STR(CLI_MAX_STARTS), 0},
    {"seed", OPT_SEED, "N", 0, "seed of the random starts and of --verify", 0},
    {"measure", OPT_MEASURE, "psi|smooth", 0, "minimise psi, or the 16-norm of the "
     "multiplier moduli", 0},
    {"fd-gradient", OPT_FD_GRADIENT, NULL, 0, "central differences of the measure instead of "
     "the eigenvalue-perturbation gradient (LD_ algorithms)", 0},
    {"no-polish", OPT_NO_POLISH, NULL, 0, "skip the derivative-free polish from the best "
     "point (LN_BOBYQA; LN_NELDERMEAD for one parameter)", 0},
    {"maxeval", OPT_MAXEVAL, "N", 0, "evaluation limit of each start and of the polish, "
     "1 <= N <= " STR(CLI_MAX_EVALS), 0},
    {"json", OPT_JSON, NULL, 0, "print one JSON object instead of text", 0},
    {NULL, 0, NULL, 0, "Perturbation trials around the optimum (each of --trials, --perturb, "
     "--steps and --tol implies --verify):", 1},
    {"verify", OPT_VERIFY, NULL, 0, "then run perturbation trials around the optimum", 1},
    {"trials", OPT_TRIALS, "N", 0, "number of trials, 1 <= N <= " STR(CLI_MAX_TRIALS), 1},
    {"perturb", OPT_PERTURB, "R", 0, "radius of the perturbation ball, R >= 0", 1},
    {"steps", OPT_STEPS, "S", 0, "periods per trial, 1 <= S <= " STR(CLI_MAX_STEPS) "; N x S "
     "at most " STR(CLI_MAX_TRIAL_STEPS), 1},
    {"tol", OPT_TOL, "E", 0, "a trial converged if its final error < E, E > 0", 1},
    {NULL, 0, NULL, 0, NULL, 0}
};

/* What the command line asks for. */
typedef struct {
    cli_args cli;
    hes_shape_options so;           /* the search (its seed also --verify's) */
    cli_trial_opts t;            /* --verify's trials; t.seed unused */
    int verify, json;
    cli_assignments starts, bounds;  /* --start, --bounds items, applied to the system */
} shape_cli;

/* The doc string of an option with its default appended: " (8)". */
static char *help_filter(int key, const char *text, void *input)
{
    static const cli_trial_opts t = CLI_TRIAL_DEFAULTS;
    hes_shape_options d;
    char *s = NULL;
    int n;

    hes_shape_options_init(&d);
    (void)input;
    switch (key) {
    case OPT_STARTS:  n = asprintf(&s, "%s (%d)", text, d.starts); break;
    case OPT_SEED:    n = asprintf(&s, "%s (%lu)", text, d.seed); break;
    case OPT_MEASURE: n = asprintf(&s, "%s (%s)", text, hes_measure_name(d.measure)); break;
    case OPT_MAXEVAL: n = asprintf(&s, "%s (%d)", text, d.maxeval); break;
    case OPT_TRIALS:  n = asprintf(&s, "%s (%d)", text, t.trials); break;
    case OPT_PERTURB: n = asprintf(&s, "%s (%g)", text, t.perturb); break;
    case OPT_STEPS:   n = asprintf(&s, "%s (%d)", text, t.steps); break;
    case OPT_TOL:     n = asprintf(&s, "%s (%g)", text, t.tol); break;
    default:          return (char *)text;
    }
    return n < 0 ? (char *)text : s;
}

/* The name of a trial option, for cli_parse_trial_option. */
static const char *trial_name(int key)
{
    return key == OPT_TRIALS ? "--trials" : key == OPT_PERTURB ? "--perturb"
         : key == OPT_STEPS ? "--steps" : "--tol";
}

static error_t parse_option(int key, char *arg, struct argp_state *state)
{
    shape_cli *o = state->input;
    const char *cmd = o->cli.cmd;

    if (key != OPT_START && key != OPT_BOUNDS && cli_arg_once(state, key))
        return CLI_ARG_REFUSED;
    switch (key) {
    case OPT_START:
        return cli_assignments_add(&o->starts, arg) == 0 ? 0 : ENOMEM;
    case OPT_BOUNDS:
        return cli_assignments_add(&o->bounds, arg) == 0 ? 0 : ENOMEM;
    case OPT_ALGORITHM:       /* checked by the library (HES_EINVAL for an unknown name) */
        o->so.algorithm = arg;
        return 0;
    case OPT_STARTS:
        return cli_int_option(cmd, "--starts", arg, 1, CLI_MAX_STARTS, &o->so.starts)
               ? CLI_ARG_REFUSED : 0;
    case OPT_SEED:
        if (cli_parse_ulong(arg, &o->so.seed) == 0)
            return 0;
        cli_bad_value(cmd, "--seed", arg, "a non-negative integer");
        return CLI_ARG_REFUSED;
    case OPT_MEASURE:
        if (hes_measure_from_name(arg, &o->so.measure) == HES_OK)
            return 0;
        cli_bad_value(cmd, "--measure", arg, "'psi' or 'smooth'");
        return CLI_ARG_REFUSED;
    case OPT_MAXEVAL:
        return cli_int_option(cmd, "--maxeval", arg, 1, CLI_MAX_EVALS, &o->so.maxeval)
               ? CLI_ARG_REFUSED : 0;
    case OPT_FD_GRADIENT:     o->so.gradient = 0; return 0;
    case OPT_NO_POLISH:       o->so.polish = 0; return 0;
    case OPT_VERIFY:          o->verify = 1; return 0;
    case OPT_JSON:            o->json = 1; return 0;
    case OPT_TRIALS:
    case OPT_PERTURB:
    case OPT_STEPS:
    case OPT_TOL:
        o->verify = 1;
        return cli_parse_trial_option(cmd, trial_name(key), arg, &o->t) ? CLI_ARG_REFUSED : 0;
    default:
        return ARGP_ERR_UNKNOWN;
    }
}

static const struct argp shape_argp = {
    options, parse_option, "PROBLEM",
    "Hybrid event shaping: minimise psi, the largest modulus of the nontrivial multipliers, "
    "over every shape parameter of PROBLEM within bounds.  Shape parameters change only the "
    "saltation matrices at the orbit's events, so each evaluation reuses the orbit; the "
    "optimum is re-analysed from scratch.  Another parameter named by --bounds (or --start), "
    "such as a gain, moves the orbit: each evaluation then finds the orbit again (Nelder-Mead "
    "from one start by default), and one whose orbit is lost counts as infinite.",
    NULL, help_filter, NULL
};

/* Refusals of option combinations once the options are known: 0, or the
 * exit status after a message. */
static int check_combinations(const shape_cli *o)
{
    const char *alg = o->so.algorithm;

    if (!o->so.gradient && alg && strlen(alg) > 2 && alg[1] == 'N' && alg[2] == '_') {
        fprintf(stderr, "hes shape: --fd-gradient: --algorithm %s uses no gradient\n", alg);
        return CLI_EXIT_USAGE;
    }
    if (o->cli.seen[OPT_STARTS] && o->so.starts > 1 && alg && alg[0] == 'G') {
        fprintf(stderr, "hes shape: --starts: the global algorithm %s searches the bounds once "
                "(no starts)\n", alg);
        return CLI_EXIT_USAGE;
    }
    if (cli_check_trial_total(CMD, &o->t))
        return CLI_EXIT_USAGE;
    if (o->cli.n_args != 1)
        return cli_usage_error(&o->cli, "expected exactly one PROBLEM");
    return CLI_EXIT_OK;
}

/* --verify: the trials around the optimum (the system is at it). */
static int verify(hes_system *sys, const hes_shape_result *res, const shape_cli *o,
                  cli_progress *line, hes_trials *trials)
{
    char what[96];

    snprintf(what, sizeof what, "verifying: %d trials of %d periods ...", o->t.trials,
             o->t.steps);
    cli_progress_say(line, what);
    hes_status st = hes_trials_run(sys, &res->analysis.orbit, o->t.trials, o->t.perturb,
                                   o->t.steps, o->so.seed, o->t.tol, trials);
    cli_progress_clear(line);
    return st == HES_OK ? CLI_EXIT_OK : cli_report_status(st, sys);
}

/* Optimisation, verification, output; the system and arrays are set up. */
static int run(hes_system *sys, const shape_arrays *a, const shape_cli *o)
{
    /* a re-analysis per evaluation is slow: each one redraws the line */
    shape_progress_state ps = {{NULL, 0, 0}, 0, a->moving ? 1 : SHAPE_PROGRESS_EVERY};
    hes_shape_options so = o->so;
    hes_shape_result res;
    hes_trials trials;
    int rc;

    /* every shape parameter in model order (n = 0), or with parameters
       that move the orbit the list of them all */
    so.n = a->moving ? a->n : 0;
    so.names = a->moving ? a->names : NULL;
    so.start = a->start;
    so.lo = a->lo;
    so.hi = a->hi;
    cli_progress_init(&ps.line, CMD);
    if (ps.line.tty) {
        so.progress = shape_progress;
        so.progress_data = &ps;
    }
    cli_progress_say(&ps.line, a->moving ? "optimising (each evaluation re-analyses the "
                     "orbit) ..." : "optimising the shape parameters ...");
    hes_status st = hes_shape_optimize(sys, &so, &res);
    cli_progress_clear(&ps.line);
    if (st == HES_OK && (st = hes_shape_result_apply(sys, &res)) != HES_OK)
        hes_shape_result_free(&res); /* the trials and the output are at the optimum */
    if (st != HES_OK)
        return cli_report_status(st, sys);

    if (o->verify && (rc = verify(sys, &res, o, &ps.line, &trials)) != CLI_EXIT_OK) {
        hes_shape_result_free(&res);
        return rc;
    }
    if (o->json) {
        rc = cli_print_document(CMD, hes_shape_json(sys, &res, so.measure,
                                                    o->verify ? &trials : NULL));
    } else {
        shape_print_text(sys, &res, &so, o->verify ? &trials : NULL);
        rc = CLI_EXIT_OK;
    }
    if (o->verify)
        hes_trials_free(&trials);
    hes_shape_result_free(&res);
    return rc;
}

int cmd_shape(int argc, char **argv)
{
    shape_cli o = { .t = CLI_TRIAL_DEFAULTS };
    shape_arrays arrays = { .n = 0 };
    hes_system *sys = NULL;
    int rc;

    hes_shape_options_init(&o.so);
    cli_assignments_init(&o.starts);
    cli_assignments_init(&o.bounds);
    rc = cli_parse(&shape_argp, CLI_GROUP_PARAMS, argc, argv, &o.cli);
    /* a system of either kind: hes_shape_optimize says what it needs */
    if (rc == CLI_EXIT_OK && !o.cli.done && (rc = check_combinations(&o)) == CLI_EXIT_OK)
        sys = cli_system_for(o.cli.args[0], &o.cli.params, &rc);
    const hes_model *model = hes_system_model(sys);
    if (sys && (rc = shape_arrays_init(&arrays, sys)) == CLI_EXIT_OK && model)
        rc = shape_arrays_apply(&arrays, model, &o.starts, &o.bounds);
    if (sys && rc == CLI_EXIT_OK)
        rc = run(sys, &arrays, &o);
    shape_arrays_free(&arrays);
    hes_system_destroy(sys);
    cli_assignments_free(&o.starts);
    cli_assignments_free(&o.bounds);
    cli_args_free(&o.cli);
    return rc;
}
