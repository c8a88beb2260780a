/*
 * cli_args.c - parsing a command line with the command's argp table
 * (cli_args.h): the wrapper that adds --help and --usage, hands every
 * group the command's options struct and collects the positional
 * arguments; the shared groups -p/--no-check-derivatives and the trial
 * options; the refusal of an option given twice.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli_args.h"

cli_args *cli_args_of(const struct argp_state *state)
{
    return state->input; /* the options struct, whose first member is the cli_args */
}

/* The option of argp (or of its children) with this key, or NULL. */
static const struct argp_option *find_option(const struct argp *argp, int key)
{
    const struct argp_option *o;
    const struct argp_child *c;

    for (o = argp->options; o && (o->name || o->key || o->doc); o++)
        if (o->key == key && !(o->flags & OPTION_DOC))
            return o;
    for (c = argp->children; c && c->argp; c++)
        if ((o = find_option(c->argp, key)))
            return o;
    return NULL;
}

int cli_arg_once(const struct argp_state *state, int key)
{
    cli_args *a = cli_args_of(state);

    if (key <= 0 || key >= CLI_OPTION_CODES) /* ARGP_KEY_*: not an option */
        return 0;
    if (!a->seen[key]) {
        a->seen[key] = 1;
        return 0;
    }
    const struct argp_option *o = find_option(state->root_argp, key);
    const char *why = o && o->arg ? " (one value only)" : "";
    if (o && o->name)
        fprintf(stderr, "%s: --%s given twice%s\n", a->cmd, o->name, why);
    else
        fprintf(stderr, "%s: -%c given twice%s\n", a->cmd, key, why);
    return CLI_ARG_REFUSED;
}

int cli_usage_error(const cli_args *a, const char *msg)
{
    fprintf(stderr, "%s: %s\n", a->cmd, msg);
    argp_help(a->argp, stderr, ARGP_HELP_SHORT_USAGE | ARGP_HELP_SEE, (char *)a->cmd);
    return CLI_EXIT_USAGE;
}

/* ------------------------------------------------------------ --help, --usage */

static const struct argp_option help_options[] = {
    {"help", 'h', NULL, 0, "show this help", -1},
    {"usage", CLI_KEY_USAGE, NULL, 0, "show the short usage message", -1},
    {NULL, 0, NULL, 0, NULL, 0}
};

static error_t help_parser(int key, char *arg, struct argp_state *state)
{
    (void)arg;
    if (key != 'h' && key != CLI_KEY_USAGE)
        return ARGP_ERR_UNKNOWN;
    /* ARGP_NO_EXIT: argp_state_help prints and returns; parsing stops here */
    argp_state_help(state, stdout, key == 'h' ? ARGP_HELP_STD_HELP : ARGP_HELP_USAGE);
    cli_args_of(state)->done = 1;
    return EINTR;
}

static const struct argp help_argp = { help_options, help_parser, NULL, NULL, NULL, NULL, NULL };

/* ------------------------------------------------------------ -p and checks */

static const struct argp_option param_options[] = {
    {"param", 'p', "NAME=VALUE", 0,
     "set a parameter (repeatable; see 'hes info PROBLEM'); for a solved parameter it is the "
     "initial guess", 0},
    {"no-check-derivatives", CLI_OPT_NO_CHECK_DERIVATIVES, NULL, 0,
     "do not check the model's supplied Jacobians against differences of its callbacks at "
     "the orbit (a wrong one is an error by default)", 0},
    {"max-wall-time", CLI_OPT_MAX_WALL_TIME, "S", 0,
     "seconds of wall-clock time each simulation may take, 0 < S <= 1e6 (default 10; an "
     "orbit search gets 12 times as long, at least 120 s): for large robots whose sliding "
     "contacts make a period slow", 0},
    {NULL, 0, NULL, 0, NULL, 0}
};

static error_t param_parser(int key, char *arg, struct argp_state *state)
{
    cli_args *a = cli_args_of(state);

    switch (key) {
    case 'p':
        return cli_assignments_add(&a->params, arg) == 0 ? 0 : ENOMEM;
    case CLI_OPT_NO_CHECK_DERIVATIVES:
        if (cli_arg_once(state, key))
            return CLI_ARG_REFUSED;
        a->params.no_check_derivatives = 1;
        return 0;
    case CLI_OPT_MAX_WALL_TIME:
        if (cli_arg_once(state, key))
            return CLI_ARG_REFUSED;
        if (cli_parse_double(arg, &a->params.max_wall_time) != 0 ||
            !(a->params.max_wall_time > 0) || !(a->params.max_wall_time <= CLI_MAX_WALL_TIME)) {
            fprintf(stderr, "%s: --max-wall-time: '%s' is not a number of seconds in (0, 1e6]\n",
                    a->cmd, arg);
            return CLI_ARG_REFUSED;
        }
        return 0;
    default:
        return ARGP_ERR_UNKNOWN;
    }
}

static const struct argp param_argp = { param_options, param_parser, NULL, NULL, NULL, NULL, NULL };

/* ------------------------------------------------------------ trial options */

static const struct argp_option trial_options[] = {
    {"perturb", CLI_KEY_PERTURB, "R", 0,
     "size of the random perturbations of the orbit's state, R >= 0 (default 0.1)", 0},
    {"trials", CLI_KEY_TRIALS, "N", 0,
     "number of perturbed runs, 1 to " STR(CLI_MAX_TRIALS) " (default 20)", 0},
    {"steps", CLI_KEY_STEPS, "S", 0,
     "periods each run lasts, 1 to " STR(CLI_MAX_STEPS) " (default 100)", 0},
    {"seed", CLI_KEY_SEED, "N", 0, "seed of the random perturbations (default 1)", 0},
    {"tol", CLI_KEY_TOL, "E", 0,
     "a run has converged when its error is below E > 0 (default 1e-6)", 0},
    {NULL, 0, NULL, 0, NULL, 0}
};

static const char *const trial_names[] = { "--perturb", "--trials", "--steps", "--seed",
                                           "--tol" };

static error_t trial_parser(int key, char *arg, struct argp_state *state)
{
    cli_args *a = cli_args_of(state);

    if (key < CLI_KEY_PERTURB || key > CLI_KEY_TOL)
        return ARGP_ERR_UNKNOWN;
    if (cli_arg_once(state, key))
        return CLI_ARG_REFUSED;
    a->trial_option = trial_names[key - CLI_KEY_PERTURB];
    return cli_parse_trial_option(a->cmd, a->trial_option, arg, &a->trials) ? CLI_ARG_REFUSED
                                                                            : 0;
}

static const struct argp trial_argp = { trial_options, trial_parser, NULL, NULL, NULL, NULL, NULL };

/* ------------------------------------------------------------ the wrapper */

/* Hands every child the command's options struct and collects the
 * positional arguments. */
static error_t top_parser(int key, char *arg, struct argp_state *state)
{
    cli_args *a = cli_args_of(state);

    switch (key) {
    case ARGP_KEY_INIT:
        for (int i = 0; state->root_argp->children[i].argp; i++)
            state->child_inputs[i] = state->input;
        return 0;
    case ARGP_KEY_ARG:
        if (a->n_args == CLI_MAX_ARGS) {
            fprintf(stderr, "%s: too many arguments (from '%s' on)\n", a->cmd, arg);
            return CLI_ARG_REFUSED;
        }
        a->args[a->n_args++] = arg;
        return 0;
    default:
        return ARGP_ERR_UNKNOWN;
    }
}

int cli_parse(const struct argp *argp, unsigned groups, int argc, char **argv, cli_args *opts)
{
    struct argp_child children[5];
    int n = 0;
    static const cli_trial_opts trial_defaults = CLI_TRIAL_DEFAULTS;

    memset(opts, 0, sizeof *opts);
    cli_assignments_init(&opts->params);
    opts->trials = trial_defaults;
    opts->cmd = argv[0];
    opts->argp = argp;
    children[n++] = (struct argp_child){ argp, 0, NULL, 0 };
    if (groups & CLI_GROUP_PARAMS)
        children[n++] = (struct argp_child){ &param_argp, 0, NULL, 0 };
    if (groups & CLI_GROUP_TRIALS)
        children[n++] = (struct argp_child){ &trial_argp, 0, NULL, 0 };
    children[n++] = (struct argp_child){ &help_argp, 0, NULL, 0 };
    children[n] = (struct argp_child){ NULL, 0, NULL, 0 };

    struct argp top = { NULL, top_parser, NULL, NULL, children, NULL, NULL };
    error_t err = argp_parse(&top, argc, argv, ARGP_NO_EXIT | ARGP_NO_HELP, NULL, opts);
    if (opts->done)
        return CLI_EXIT_OK;
    if (err == ENOMEM) {
        fprintf(stderr, "%s: out of memory\n", opts->cmd);
        return CLI_EXIT_FAILURE;
    }
    return err ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}

void cli_args_free(cli_args *a)
{
    cli_assignments_free(&a->params);
}
