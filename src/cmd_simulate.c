/*
 * cmd_simulate.c - `hes simulate PROBLEM [-p NAME=VALUE]... [--perturb R]
 * [--trials N] [--steps S] [--seed N] [--tol E] [--json|--csv]`: the paper's
 * Fig. 3 experiment.  Finds the periodic orbit (hes_orbit_find), starts N
 * trials uniformly in the ball of radius R around its section state, follows
 * each for S periods (hes_trials_run) and reports the error to the section
 * state after every period: a table, CSV rows (trial,step,error), or
 * hes_trials_json() (DESIGN.md section 5).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"

#define DEFAULT_PERTURB 0.1
#define DEFAULT_TRIALS  20
#define DEFAULT_STEPS   100
#define DEFAULT_SEED    1UL
#define DEFAULT_TOL     1e-6

typedef enum { OUT_TEXT, OUT_JSON, OUT_CSV } output_kind;

typedef struct {
    double perturb;
    int trials;
    int steps;
    unsigned long seed;
    double tol;
    output_kind output;
} simulate_opts;

void cmd_simulate_usage(FILE *out)
{
    fprintf(out,
            "Usage: hes simulate PROBLEM [-p NAME=VALUE]... [--perturb R] [--trials N]\n"
            "                    [--steps S] [--seed N] [--tol E] [--json|--csv]\n"
            "Find the periodic orbit of PROBLEM, start N trials uniformly in the ball of\n"
            "radius R around its section state, follow each for S periods and report the\n"
            "distance to the section state after every period.\n"
            "\n"
            "  -p, --param NAME=VALUE  set a parameter (repeatable; see 'hes info PROBLEM')\n"
            "      --perturb R         radius of the perturbation ball, R >= 0 (%g)\n"
            "      --trials N          number of trials, N >= 1 (%d)\n"
            "      --steps S           periods per trial, S >= 1 (%d)\n"
            "      --seed N            seed of the random starts (%lu)\n"
            "      --tol E             a trial converged if its final error < E, E > 0 (%g)\n"
            "      --json              print one JSON object instead of text\n"
            "      --csv               print rows trial,step,error (both counted from 1)\n"
            "  -h, --help              show this help\n",
            DEFAULT_PERTURB, DEFAULT_TRIALS, DEFAULT_STEPS, DEFAULT_SEED, DEFAULT_TOL);
}

static int bad_value(const char *option, const char *text, const char *expected)
{
    fprintf(stderr, "hes simulate: %s expects %s, got '%s'\n", option, expected, text);
    return CLI_EXIT_USAGE;
}

enum { OPT_PERTURB = 256, OPT_TRIALS, OPT_STEPS, OPT_SEED, OPT_TOL, OPT_JSON, OPT_CSV };

/* Parses the value of one numeric option into opts; 0 or CLI_EXIT_USAGE. */
static int parse_option_value(int c, const char *text, simulate_opts *opts)
{
    switch (c) {
    case OPT_PERTURB:
        if (cli_parse_double(text, &opts->perturb) != 0 || opts->perturb < 0)
            return bad_value("--perturb", text, "a finite number >= 0");
        return 0;
    case OPT_TRIALS:
        if (cli_parse_int(text, &opts->trials) != 0 || opts->trials < 1)
            return bad_value("--trials", text, "an integer >= 1");
        return 0;
    case OPT_STEPS:
        if (cli_parse_int(text, &opts->steps) != 0 || opts->steps < 1)
            return bad_value("--steps", text, "an integer >= 1");
        return 0;
    case OPT_SEED:
        if (cli_parse_ulong(text, &opts->seed) != 0)
            return bad_value("--seed", text, "a non-negative integer");
        return 0;
    case OPT_TOL:
        if (cli_parse_double(text, &opts->tol) != 0 || !(opts->tol > 0))
            return bad_value("--tol", text, "a finite number > 0");
        return 0;
    default:
        return CLI_EXIT_USAGE;
    }
}

/* A transient status line on stderr, only when it is a terminal. */
static void progress(int tty, const char *what)
{
    if (tty) {
        fprintf(stderr, "\rhes simulate: %-45s", what);
        fflush(stderr);
    }
}

static void progress_done(int tty)
{
    if (tty)
        fprintf(stderr, "\r%60s\r", "");
}

static void print_text(const hes_system *sys, const hes_orbit *orbit,
                       const hes_trials *t, const simulate_opts *opts)
{
    const hes_model *m = hes_system_model(sys);
    int k;

    printf("problem: %s\n", m->name);
    printf("orbit: period %.12g, section state ", orbit->period);
    cli_print_vector(stdout, orbit->x0, orbit->n, "%.10g");
    printf(" in mode %s\n", m->modes[orbit->mode].name);
    printf("trials: %d starts uniform in the ball of radius %g around the section "
           "state, %d periods each, seed %lu\n\n",
           t->n_trials, opts->perturb, t->steps, opts->seed);

    printf("  %5s  %6s  %12s  %s\n", "trial", "steps", "final error", "failure");
    for (k = 0; k < t->n_trials; k++) {
        const hes_trial *tr = &t->trials[k];

        printf("  %5d  %6d  ", k + 1, tr->steps_completed);
        if (tr->steps_completed > 0)
            printf("%12.4e  ", tr->error[tr->steps_completed - 1]);
        else
            printf("%12s  ", "-");
        if (tr->failure == HES_OK)
            printf("-\n");
        else if (tr->failure_msg[0])
            printf("%s: %s\n", hes_strerror(tr->failure), tr->failure_msg);
        else
            printf("%s\n", hes_strerror(tr->failure));
    }

    printf("\nconverged: %d of %d (final error < %g)\n", t->converged, t->n_trials, t->tol);
    if (t->converged == t->n_trials)
        printf("verdict: every perturbed start returned to the orbit; "
               "it attracts the ball of radius %g\n", opts->perturb);
    else if (t->converged == 0)
        printf("verdict: no perturbed start returned to the orbit within %d periods\n",
               t->steps);
    else
        printf("verdict: %d of %d perturbed starts did not return to the orbit "
               "within %d periods\n", t->n_trials - t->converged, t->n_trials, t->steps);
}

static void print_csv(const hes_trials *t)
{
    int k, s;

    printf("trial,step,error\n");
    for (k = 0; k < t->n_trials; k++)
        for (s = 0; s < t->trials[k].steps_completed; s++)
            printf("%d,%d,%.17g\n", k + 1, s + 1, t->trials[k].error[s]);
}

static int print_json(const hes_system *sys, const hes_orbit *orbit,
                      const hes_trials *t)
{
    char *text = hes_trials_json(sys, orbit, t);

    if (!text) {
        fprintf(stderr, "hes simulate: cannot build the JSON document (out of memory)\n");
        return CLI_EXIT_FAILURE;
    }
    printf("%s\n", text);
    free(text);
    return CLI_EXIT_OK;
}

/* Orbit, trials, output; the system is set up. */
static int run(hes_system *sys, const simulate_opts *opts)
{
    int tty = isatty(STDERR_FILENO);
    char what[96];
    hes_orbit orbit;
    hes_trials trials;
    hes_status st;
    int rc = CLI_EXIT_OK;

    progress(tty, "finding the periodic orbit ...");
    st = hes_orbit_find(sys, &orbit);
    progress_done(tty);
    if (st != HES_OK)
        return cli_report_status(st, sys);

    snprintf(what, sizeof what, "running %d trials of %d periods ...",
             opts->trials, opts->steps);
    progress(tty, what);
    st = hes_trials_run(sys, &orbit, opts->trials, opts->perturb, opts->steps,
                        opts->seed, opts->tol, &trials);
    progress_done(tty);
    if (st != HES_OK) {
        rc = cli_report_status(st, sys);
        hes_orbit_free(&orbit);
        return rc;
    }

    switch (opts->output) {
    case OUT_JSON:
        rc = print_json(sys, &orbit, &trials);
        break;
    case OUT_CSV:
        print_csv(&trials);
        break;
    case OUT_TEXT:
        print_text(sys, &orbit, &trials, opts);
        break;
    }
    hes_trials_free(&trials);
    hes_orbit_free(&orbit);
    return rc;
}

int cmd_simulate(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"param", required_argument, NULL, 'p'},
        {"perturb", required_argument, NULL, OPT_PERTURB},
        {"trials", required_argument, NULL, OPT_TRIALS},
        {"steps", required_argument, NULL, OPT_STEPS},
        {"seed", required_argument, NULL, OPT_SEED},
        {"tol", required_argument, NULL, OPT_TOL},
        {"json", no_argument, NULL, OPT_JSON},
        {"csv", no_argument, NULL, OPT_CSV},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}
    };
    simulate_opts opts = {DEFAULT_PERTURB, DEFAULT_TRIALS, DEFAULT_STEPS,
                          DEFAULT_SEED, DEFAULT_TOL, OUT_TEXT};
    cli_assignments params;
    const hes_model *model;
    hes_system *sys;
    int c, rc = CLI_EXIT_OK, json = 0, csv = 0;

    cli_assignments_init(&params);
    optind = 1;
    while (rc == CLI_EXIT_OK &&
           (c = getopt_long(argc, argv, "p:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'p':
            if (cli_assignments_add(&params, optarg) != 0)
                rc = CLI_EXIT_FAILURE;
            break;
        case OPT_PERTURB:
        case OPT_TRIALS:
        case OPT_STEPS:
        case OPT_SEED:
        case OPT_TOL:
            rc = parse_option_value(c, optarg, &opts);
            break;
        case OPT_JSON:
            json = 1;
            break;
        case OPT_CSV:
            csv = 1;
            break;
        case 'h':
            cli_assignments_free(&params);
            cmd_simulate_usage(stdout);
            return CLI_EXIT_OK;
        default:
            cmd_simulate_usage(stderr);
            rc = CLI_EXIT_USAGE;
            break;
        }
    }
    if (rc == CLI_EXIT_OK && json && csv) {
        fprintf(stderr, "hes simulate: --json and --csv exclude each other\n");
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && argc - optind != 1) {
        fprintf(stderr, "hes simulate: expected exactly one PROBLEM\n");
        cmd_simulate_usage(stderr);
        rc = CLI_EXIT_USAGE;
    }
    if (rc != CLI_EXIT_OK) {
        cli_assignments_free(&params);
        return rc;
    }
    opts.output = json ? OUT_JSON : csv ? OUT_CSV : OUT_TEXT;

    model = cli_find_problem(argv[optind]);
    if (!model) {
        cli_assignments_free(&params);
        return CLI_EXIT_USAGE;
    }
    sys = cli_system_setup(model, &params, &rc);
    cli_assignments_free(&params);
    if (!sys)
        return rc;
    rc = run(sys, &opts);
    hes_system_destroy(sys);
    return rc;
}
