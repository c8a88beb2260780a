/*
 * cli.h - shared pieces of the hes program: the subcommand entry points that
 * main.c dispatches to, and the helpers every subcommand uses to look up a
 * problem, parse numbers and -p NAME=VALUE assignments, and turn a library
 * status into a message and an exit status (lib/README.md, section 5: 0 success,
 * 1 the computation failed, 2 bad usage or bad input).
 *
 * The program only parses, calls libhes and prints; nothing here computes.
 */
#ifndef HES_CLI_H
#define HES_CLI_H

#include <getopt.h>
#include <stdio.h>

#include "hes.h"

/* Exit statuses of the program. */
#define CLI_EXIT_OK      0
#define CLI_EXIT_FAILURE 1
#define CLI_EXIT_USAGE   2

/* The largest counts the program accepts (each command's --help and man page
 * give them): a count above is refused with exit 2, naming the option and
 * the limit, instead of running for days or exhausting memory. */
#define CLI_MAX_POINTS      10000000 /* sweep points: --grid (their product), --random */
#define CLI_MAX_VALUES      100000   /* simulate --sweep NAME=LO:HI:N values */
#define CLI_MAX_TRIALS      100000   /* --trials */
#define CLI_MAX_STEPS       100000   /* --steps */
#define CLI_MAX_TRIAL_STEPS 10000000 /* --trials x --steps (the table of errors) */
#define CLI_MAX_STARTS      1000     /* shape --starts */
#define CLI_MAX_EVALS       100000   /* --maxeval */
#define CLI_MAX_SAMPLES     1000000  /* simulate --samples */

/* A macro's value as a string literal: "--trials expects 1 to " STR(CLI_MAX_TRIALS). */
#define STR_(x) #x
#define STR(x) STR_(x)

/* Option codes are below this (getopt_long's val: letters, and enums from
 * 200 or 256 on). */
#define CLI_OPTION_CODES 512

/* Refuses the second occurrence of an option that takes one value (which
 * would silently replace the first): seen[] holds CLI_OPTION_CODES flags,
 * zero at the start.  Returns 0, or CLI_EXIT_USAGE after printing
 * "hes CMD: --NAME given twice" (cmd is argv[0], "hes CMD"). */
int cli_once(const char *cmd, const struct option *longopts, int code, unsigned char *seen);

/*
 * Subcommands.  argv[0] is the display name of the command ("hes analyze"),
 * which getopt uses in its own messages; the remaining arguments are the
 * command's.  Each returns the exit status.
 */
int cmd_list(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
int cmd_shape(int argc, char **argv);
int cmd_trajopt(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_continue(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_impact(int argc, char **argv);
int cmd_invdyn(int argc, char **argv);

/* Usage texts, printed by `hes CMD --help` (stdout) and on bad usage (stderr). */
/* The built-in problem called `name` (or the --model plugin's); prints
 * "hes: unknown problem 'X' (try 'hes list')" to stderr and returns NULL when
 * there is none. */
const hes_model *cli_find_problem(const char *name);
/* The event-selected system called `name`: the --model plugin's (which
 * hides a built-in of its name) or a built-in one; NULL, silently, if none. */
const hes_ess_model *cli_find_ess_problem(const char *name);

/* --model PATH (or --model=PATH) anywhere after the command: loads the
 * plugin (hes_plugin_open) and puts in place of the option, as the PROBLEM
 * argument, a placeholder that cli_find_problem and cli_find_ess_problem
 * recognise by its address (cli_is_loaded_model); the model's name never
 * enters the argument list.
 * Returns CLI_EXIT_OK (also without the option; *plugin NULL) or
 * CLI_EXIT_USAGE after printing why the plugin was refused. */
int cli_take_model_option(int *argc, char **argv, hes_plugin **plugin);
/* --robot DESC.json (a robot model's description, hes_robot_model_read) in
 * argv: loads it (*model, to free with hes_model_destroy) and puts the
 * placeholder in the option's place, as --model does.  --robot FILE.xml is left
 * to the commands that take a robot file (info, impact); the others refuse
 * it, saying what a description is. */
int cli_take_robot_option(int *argc, char **argv, hes_model **model);
/* arg is the placeholder of the model of --model or --robot DESC.json. */
int cli_is_loaded_model(const char *arg);
/* How a command line names the PROBLEM argument: *option "--model " or
 * "--robot " and *word its path for the placeholder; else "" and arg. */
void cli_problem_words(const char *arg, const char **option, const char **word);
/* A PROBLEM argument as a name for messages: the loaded model's name for
 * the placeholder, else arg itself. */
const char *cli_problem_name(const char *arg);

/* A gait file given with --orbit FILE (hes_gait_read) and its derived
 * model (hes_gait_model). */
typedef struct {
    hes_gait gait;
    hes_model *model;
} cli_orbit;

/* The model a command works on: the built-in `problem`, or with orbit_file
 * the derived model of that gait file (problem may then be NULL; if given it
 * must be the gait's).  Returns NULL with *exit_code set after printing why. */
const hes_model *cli_model_for(const char *problem, const char *orbit_file, cli_orbit *o,
                               int *exit_code);
void cli_orbit_free(cli_orbit *o);

/* Strict number parsing: the whole of `text` must be a number (no empty
 * string, no surrounding blanks or trailing characters).  Return 0 on
 * success, -1 when `text` is not a number (or out of range for an integer),
 * and cli_parse_double -2 for NaN and infinities.  Nothing is printed. */
int cli_parse_double(const char *text, double *value);
int cli_parse_int(const char *text, int *value);
int cli_parse_ulong(const char *text, unsigned long *value);

/* "V1,V2,...": comma-separated finite numbers into a malloc'd array of *n
 * values.  Returns 0, -1 when text is malformed (nothing printed; *v NULL),
 * -2 on allocation failure. */
int cli_parse_vector(const char *text, double **v, int *n);

/* The -p NAME=VALUE assignments of a command line, in the order given; they
 * point into argv. */
typedef struct {
    int n, cap;
    const char **items;
    int no_check_derivatives;    /* --no-check-derivatives given */
    double max_wall_time;        /* --max-wall-time S (0: the library's default) */
} cli_assignments;

/* --no-check-derivatives, in the option table of every command that analyses
 * an orbit: cli_system_setup then turns off hes_settings.check_derivatives
 * (the model's supplied Jacobians checked at the orbit).  The commands set
 * cli_assignments.no_check_derivatives on its code. */
#define CLI_OPT_NO_CHECK_DERIVATIVES 480
/* --max-wall-time S, beside it: the seconds each simulation call may take
 * (hes_settings.max_wall_time; an orbit search gets 12 of them). */
#define CLI_OPT_MAX_WALL_TIME 481
#define CLI_MAX_WALL_TIME 1e6
#define CLI_NO_CHECK_DERIVATIVES_OPTION \
    { "no-check-derivatives", no_argument, NULL, CLI_OPT_NO_CHECK_DERIVATIVES }
#define CLI_NO_CHECK_DERIVATIVES_HELP \
    "      --no-check-derivatives  do not check the model's supplied Jacobians against\n" \
    "                          differences of its callbacks at the orbit (a wrong\n" \
    "                          one is an error by default)\n"

void cli_assignments_init(cli_assignments *a);
/* Appends one assignment; returns -1 (after printing) on allocation failure. */
int cli_assignments_add(cli_assignments *a, const char *item);
void cli_assignments_free(cli_assignments *a);

/* Applies the assignments to the system in order.  Returns 0, or
 * CLI_EXIT_USAGE after printing why: malformed "NAME=VALUE", unknown name
 * (with the list of valid ones), a name given twice, not a finite number,
 * or a value the library refuses (with hes_system_errmsg). */
int cli_apply_params(hes_system *sys, const cli_assignments *a);

/* The index of the model parameter an assignment "NAME=VALUE" names, or -1. */
int cli_assignment_param(const hes_model *model, const char *item);


/* Prints "hes: <hes_strerror>: <hes_system_errmsg>" to stderr (the detail is
 * left out when the system has none, or sys is NULL) and returns the exit
 * status for the status (hes_status_exit_code). */
int cli_report_status(hes_status status, const hes_system *sys);

/* Creates the system of `model` and applies the assignments.  Returns the
 * system, or NULL with *exit_code set after printing why. */
hes_system *cli_system_setup(const hes_model *model, const cli_assignments *a,
                             int *exit_code);
/* The same for an event-selected model (hes_system_new_ess). */
hes_system *cli_system_setup_ess(const hes_ess_model *model, const cli_assignments *a,
                                 int *exit_code);
/* The system of the PROBLEM argument, of either kind (a built-in or
 * plugin hybrid model or event-selected system), set up as
 * cli_system_setup does. */
hes_system *cli_system_for(const char *arg, const cli_assignments *a, int *exit_code);

/* Prints the verdict line of a stability analysis:
 *   "stable: psi = 0.5 < 1", "unstable: psi = 2 > 1", or
 *   "marginal: psi = 0.999999999998 is within 2.8e-09 (its accuracy) of 1 ...". */
void cli_print_verdict(const hes_stability *st);

/* Prints a vector as "[a, b, c]" with the given printf conversion for doubles. */
void cli_print_vector(FILE *out, const double *v, int n, const char *fmt);
/* An n x n column-major matrix, one row per line (% .10e). */
void cli_print_matrix(FILE *out, const double *a, int n);
/* The report of pairs of simultaneous events (hes_simultaneous_orbit,
 * hes_flow_jacobian): the two orders, the limbs' coupling, whether outcomes
 * and linearisations agree, psi with each order when known. */
void cli_print_simultaneous(const hes_model *m, const hes_simultaneous *list, int n);

/* Name of state `i` of mode `mode`, or NULL when the model gives no names. */
const char *cli_state_name(const hes_model *model, int mode, int i);
/* Tangent coordinate `i` of mode `mode` (one with a chart, hes_mode.retract)
 * for people, into buf: its tangent name, its state name when tdim = dim,
 * else "d[i]"; returns buf. */
const char *cli_tangent_name(const hes_model *model, int mode, int i, char *buf, size_t len);

/* Prints a JSON document the library built (text, malloc'd, freed here) and
 * a newline on stdout; NULL (the library's allocation failure) prints "CMD:
 * cannot build the JSON document (out of memory)" instead.  Returns the
 * exit status. */
int cli_print_document(const char *cmd, char *text);

/* An integer option from lo to hi: 0 and *value set, or CLI_EXIT_USAGE after
 * the message "CMD: OPTION expects an integer from LO to HI, got 'TEXT'". */
int cli_int_option(const char *cmd, const char *option, const char *text, int lo, int hi,
                   int *value);

/* "CMD: OPTION expects EXPECTED, got 'TEXT'" on stderr (cmd is argv[0],
 * "hes CMD"); returns CLI_EXIT_USAGE. */
int cli_bad_value(const char *cmd, const char *option, const char *text, const char *expected);

/* The options of perturbation trials (hes simulate, hes shape --verify):
 * --perturb R, --trials N, --steps S, --seed N, --tol E (src/cli_trials.c). */
typedef struct {
    double perturb;
    int trials, steps;
    unsigned long seed;
    double tol;
} cli_trial_opts;
#define CLI_TRIAL_DEFAULTS { 0.1, 20, 100, 1UL, 1e-6 }

/* Parses the value of trial option `option` ("--perturb", "--trials",
 * "--steps", "--seed" or "--tol") into t: 0, or CLI_EXIT_USAGE after
 * printing (cli_bad_value). */
int cli_parse_trial_option(const char *cmd, const char *option, const char *text,
                           cli_trial_opts *t);
/* 0, or CLI_EXIT_USAGE after printing that trials x steps is too many. */
int cli_check_trial_total(const char *cmd, const cli_trial_opts *t);

/* A transient status line on stderr ("\rCMD: WHAT"), only when stderr is a
 * terminal; cli_progress_clear blanks it once something was shown. */
typedef struct {
    const char *cmd;
    int tty;                 /* stderr is a terminal */
    int shown;               /* a line is on the terminal */
} cli_progress;
void cli_progress_init(cli_progress *p, const char *cmd);
void cli_progress_say(cli_progress *p, const char *what);
void cli_progress_clear(cli_progress *p);

/* "A:5,B:5" into robot contacts (*c, the names pointing into *buf: free
 * both); their number (>= 1), -1 after a message naming cmd (malformed, a
 * name given twice), -2 out of memory. */
int cli_parse_contacts(const char *cmd, const char *text, hes_robot_contact **c, char **buf);

/* An input file as a stream: read whole by hes_input_read (regular files
 * only, never blocking, at most HES_INPUT_MAX bytes) into *data, the
 * stream over those bytes.  NULL after a message "cmd: what: why" with *rc
 * the exit status (2 bad input, 1 out of memory).  cli_input_close(f,
 * *data) when done. */
FILE *cli_input_open(const char *cmd, const char *what, const char *path, char **data, int *rc);
void cli_input_close(FILE *f, char *data);

#endif /* HES_CLI_H */
