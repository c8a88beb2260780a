/*
 * cli_args.h - the command line of every hes command, from one option table
 * per command (glibc's argp, which generates --help, --usage and the
 * messages about unknown options and missing values from the table).
 *
 * A command declares its options as a `struct argp_option` table with the
 * doc string of each; its parser converts and checks each value as it comes
 * (the message names the option and what it expects) and stores it in the
 * command's options struct, whose first member is a cli_args.  The groups
 * several commands share are added by cli_parse when the command asks:
 *   CLI_GROUP_PARAMS  -p/--param NAME=VALUE (repeatable), --no-check-derivatives
 *   CLI_GROUP_TRIALS  --perturb, --trials, --steps, --seed, --tol
 * and --help and --usage to every command.
 *
 * argp never exits here (ARGP_NO_EXIT; ARGP_NO_HELP, as --help and --usage
 * are ours, so that they too return here): cli_parse returns the exit status,
 * so the program's one exit path (main.c) still flushes standard output and
 * reports a failed write.
 */
#ifndef HES_CLI_ARGS_H
#define HES_CLI_ARGS_H

#include <argp.h>

#include "cli.h"

/* The positional arguments a command line may carry at most. */
#define CLI_MAX_ARGS 8

/* Option keys of the shared groups (the commands' own long-only keys are
 * from 256 to 479). */
enum {
    CLI_KEY_USAGE = 490,
    CLI_KEY_PERTURB,
    CLI_KEY_TRIALS,
    CLI_KEY_STEPS,
    CLI_KEY_SEED,
    CLI_KEY_TOL
};

/* The part of a command's options every command has: the first member of
 * its options struct. */
typedef struct {
    const char *cmd;                /* "hes analyze", for messages */
    const struct argp *argp;        /* the command's table, for its usage line */
    unsigned char seen[CLI_OPTION_CODES]; /* options given so far (cli_arg_once) */
    int done;                       /* --help or --usage printed: exit 0 */
    int n_args;                     /* positional arguments, in order */
    char *args[CLI_MAX_ARGS];
    cli_assignments params;         /* -p NAME=VALUE (CLI_GROUP_PARAMS) */
    cli_trial_opts trials;          /* CLI_GROUP_TRIALS; CLI_TRIAL_DEFAULTS */
    const char *trial_option;       /* the last trial option given, or NULL */
} cli_args;

/* The shared option groups a command asks cli_parse for. */
#define CLI_GROUP_PARAMS 1u
#define CLI_GROUP_TRIALS 2u

/* Parses argv (argv[0] "hes CMD") with the command's argp and the shared
 * groups it asks for into opts (the first member of the command's options
 * struct, which every parser receives as its input; cli_args_of).  The
 * command sets its own defaults first; cli_parse sets opts.  Returns CLI_EXIT_OK with opts->done set when --help or
 * --usage was printed (the command then returns CLI_EXIT_OK), CLI_EXIT_OK
 * to go on, or the exit status after a message (2 bad usage, 1 out of
 * memory).  cli_args_free(&opts->cli) in every case. */
int cli_parse(const struct argp *argp, unsigned groups, int argc, char **argv, cli_args *opts);
void cli_args_free(cli_args *a);

/* The command's cli_args, from a parser's state (its input, or the input
 * its children were given). */
cli_args *cli_args_of(const struct argp_state *state);

/* In a parser, first of all: refuses the second occurrence of an option
 * ("hes CMD: --NAME given twice (one value only)") with EINVAL, 0 the first
 * time (and for the ARGP_KEY_* calls).  Every option is taken once but the
 * repeatable ones (-p; shape's --start and --bounds, sweep's --grid and
 * --bounds: one parameter each time), whose parsers do not call it. */
int cli_arg_once(const struct argp_state *state, int key);

/* A parser's return for a refused value whose message was printed. */
#define CLI_ARG_REFUSED EINVAL

/* "CMD: MSG" and the short usage line with the pointer to --help, on
 * stderr; returns CLI_EXIT_USAGE.  msg is printed as text, never as a
 * format. */
int cli_usage_error(const cli_args *a, const char *msg);

#endif /* HES_CLI_ARGS_H */
