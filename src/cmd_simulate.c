/*
 * cmd_simulate.c - `hes simulate PROBLEM [-p NAME=VALUE]... [--perturb R]
 * [--trials N] [--steps S] [--seed N] [--tol E] [--json|--csv]`: the paper's
 * Fig. 3 experiment.  Finds the periodic orbit (hes_orbit_find), starts N
 * trials uniformly in the ball of radius R around its section state, follows
 * each for S periods (hes_trials_run) and reports the error to the section
 * state after every period: a table, CSV rows (trial,step,error), or
 * hes_trials_json() (lib/README.md, section 5).
 *
 * `hes simulate PROBLEM --sweep NAME=LO:HI:N ...` is cmd_simulate_sweep.c,
 * `hes simulate PROBLEM --integrator ess ...` (an event-selected system)
 * cmd_simulate_ess.c; this file parses the command line of all three.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_simulate.h"

#define CMD "hes simulate"

static const cli_trial_opts trial_defaults = CLI_TRIAL_DEFAULTS;

typedef struct {
    cli_trial_opts t;
    simulate_output output;
    int box;                 /* --box: per-component uniform perturbation */
} simulate_opts;

void cmd_simulate_usage(FILE *out)
{
    fprintf(out,
            "Usage: hes simulate PROBLEM [-p NAME=VALUE]... [--perturb R] [--trials N]\n"
            "                    [--steps S] [--seed N] [--tol E] [--json|--csv]\n"
            "       hes simulate --orbit FILE [-p NAME=VALUE]... [trial options]\n"
            "       hes simulate PROBLEM [-p NAME=VALUE]... --sweep NAME=LO:HI:N\n"
            "                    --x0 V1,V2,... [--mode MODE] --time T [--json|--csv]\n"
            "       hes simulate PROBLEM [-p NAME=VALUE]... --x0 V1,V2,... [--mode MODE]\n"
            "                    --time T --jacobian [--json]\n"
            "       hes simulate PROBLEM --integrator ess [-p NAME=VALUE]... --x0 V1,V2,...\n"
            "                    --time T [--eps E] [--samples N] [--jacobian]\n"
            "                    [--strict-liveness] [--ess-method M] [--json|--csv]\n"
            "Find the periodic orbit of PROBLEM, start N trials uniformly in the ball of\n"
            "radius R around its section state, follow each for S periods and report the\n"
            "distance to the section state after every period.\n"
            "With --sweep: simulate from the state x0 of MODE with its component NAME set\n"
            "to each of N values evenly spaced in [LO, HI], every guard armed, up to time\n"
            "T, and report the events and the final mode and state of each.\n"
            "With --integrator ess (the default for the event-selected systems, marked\n"
            "[ess] by 'hes list'): integrate from x0 at time 0 to T by the ESS\n"
            "integrator and print the trajectory, the step counts and the final state.\n"
            "\n"
            "  -p, --param NAME=VALUE  set a parameter (repeatable; see 'hes info PROBLEM')\n"
            "      --perturb R         radius of the perturbation ball, R >= 0 (%g)\n"
            "      --box H             perturb every state component uniformly in (-H, H)\n"
            "                          instead (the paper's Fig. 5 protocol; not with\n"
            "                          --perturb)\n"
            "      --trials N          number of trials, 1 <= N <= %d (%d)\n"
            "      --steps S           periods per trial, 1 <= S <= %d (%d); N x S at most\n"
            "                          %d\n"
            "      --seed N            seed of the random starts (%lu)\n"
            "      --tol E             a trial converged if its final error < E, E > 0 (%g)\n"
            "      --sweep NAME=LO:HI:N  sweep state NAME of MODE over N values in [LO, HI],\n"
            "                          1 <= N <= %d (N = 1: LO only)\n"
            "      --x0 V1,V2,...      the full initial state of MODE (with --sweep)\n"
            "      --mode MODE         the mode of --x0 (default: the model's first mode)\n"
            "      --time T            simulated time of each sweep value (or of the ESS\n"
            "                          run), T > 0\n"
            "      --integrator NAME   event (the event-driven hybrid pipeline; the default\n"
            "                          for hybrid models) or ess (event-selected systems)\n"
            "      --eps E             ESS band width, the accuracy knob (error O(E^2)),\n"
            "                          E > 0 (1e-3)\n"
            "      --samples N         ESS output at N evenly spaced times in [0, T],\n"
            "                          2 <= N <= %d (default: the step boundaries)\n"
            "      --strict-liveness   ESS: refuse a run (exit status 1, naming the guard)\n"
            "                          where a guard in its band is not crossed by the\n"
            "                          field (the paper's liveness); by default such a\n"
            "                          guard is watched and crossed exactly if it comes\n"
            "      --ess-method M      ESS: the integration step, cvodes (the default) or\n"
            "                          dopri5 (the method for many contacts: with a\n"
            "                          model's broad phase only the guards near a level\n"
            "                          are evaluated)\n"
            "      --jacobian          also the n x n derivative d x(T) / d x0 (a hybrid\n"
            "                          model: one run, its saltation matrices, and whether\n"
            "                          simultaneous events' two orders give the same one)\n"
            "      --json              print one JSON object instead of text\n"
            "      --csv               print rows trial,step,error (both counted from 1);\n"
            "                          with --sweep value,n_events,transitions,mode,state,x,\n"
            "                          failure (one row per final state component); with\n"
            "                          --integrator ess t,STATE1,STATE2,... per sample\n"
            CLI_NO_CHECK_DERIVATIVES_HELP
            "  -h, --help              show this help\n"
            "Each simulation has a budget of integrator steps per phase and of wall-clock\n"
            "time (10 s); a trial or sweep value that exceeds it fails with a message.\n",
            trial_defaults.perturb, CLI_MAX_TRIALS, trial_defaults.trials, CLI_MAX_STEPS,
            trial_defaults.steps, CLI_MAX_TRIAL_STEPS, trial_defaults.seed, trial_defaults.tol,
            CLI_MAX_VALUES, CLI_MAX_SAMPLES);
}

enum { OPT_BOX = 200, OPT_PERTURB = 256, OPT_TRIALS, OPT_STEPS, OPT_SEED, OPT_TOL, OPT_JSON, OPT_CSV, OPT_ORBIT,
       OPT_SWEEP, OPT_X0, OPT_MODE, OPT_TIME, OPT_INTEGRATOR, OPT_EPS, OPT_SAMPLES,
       OPT_JACOBIAN, OPT_STRICT_LIVENESS, OPT_ESS_METHOD };

static void print_text(const hes_system *sys, const hes_orbit *orbit,
                       const hes_trials *t, const simulate_opts *opts)
{
    const hes_model *m = hes_system_model(sys);
    int k;

    printf("problem: %s\n", m->name);
    printf("orbit: period %.12g, section state ", orbit->period);
    cli_print_vector(stdout, orbit->x0, orbit->n, "%.10g");
    printf(" in mode %s\n", m->modes[orbit->mode].name);
    printf("trials: %d starts uniform in the %s %g around the section "
           "state, %d periods each, seed %lu\n\n",
           t->n_trials, opts->box ? "box, every component within +-" : "ball of radius",
           opts->t.perturb, t->steps, opts->t.seed);

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
    /* the others: failed (fell, diverged, solver), or completed with the
     * error still shrinking (below the first period's) or not */
    int failed = 0, shrinking = 0;
    for (k = 0; k < t->n_trials; k++) {
        const hes_trial *tr = &t->trials[k];
        if (tr->failure != HES_OK)
            failed++;
        else if (tr->steps_completed == t->steps && tr->error[t->steps - 1] >= t->tol &&
                 tr->error[t->steps - 1] < tr->error[0])
            shrinking++;
    }
    if (t->converged == t->n_trials)
        printf("verdict: every perturbed start returned to the orbit; "
               "it attracts the %s %g\n", opts->box ? "box of half-width" : "ball of radius",
               opts->t.perturb);
    else if (failed == 0 && shrinking == t->n_trials - t->converged)
        printf("verdict: every perturbed start is returning to the orbit, but %d have not yet "
               "reached the tolerance in %d periods (try more --steps)\n", shrinking, t->steps);
    else
        printf("verdict: %d of %d perturbed starts did not return to the orbit within %d "
               "periods (%d failed, %d still shrinking)\n", t->n_trials - t->converged,
               t->n_trials, t->steps, failed, shrinking);
}

static void print_csv(const hes_trials *t)
{
    int k, s;

    printf("trial,step,error\n");
    for (k = 0; k < t->n_trials; k++)
        for (s = 0; s < t->trials[k].steps_completed; s++)
            printf("%d,%d,%.17g\n", k + 1, s + 1, t->trials[k].error[s]);
}

/* Orbit, trials, output; the system is set up. */
static int run(hes_system *sys, const simulate_opts *opts)
{
    cli_progress progress;
    char what[96];
    hes_orbit orbit;
    hes_trials trials;
    hes_status st;
    int rc = CLI_EXIT_OK;

    if (!hes_system_model(sys)->orbit.guess) {
        fprintf(stderr, "hes simulate: problem '%s' declares no periodic orbit to perturb; "
                "sweep initial states instead (--sweep NAME=LO:HI:N --x0 ... --time T)\n",
                hes_system_model(sys)->name);
        return CLI_EXIT_USAGE;
    }
    cli_progress_init(&progress, CMD);
    cli_progress_say(&progress, "finding the periodic orbit ...");
    st = hes_orbit_find(sys, &orbit);
    cli_progress_clear(&progress);
    if (st != HES_OK)
        return cli_report_status(st, sys);

    snprintf(what, sizeof what, "running %d trials of %d periods ...",
             opts->t.trials, opts->t.steps);
    cli_progress_say(&progress, what);
    st = (opts->box ? hes_trials_run_box : hes_trials_run)(sys, &orbit, opts->t.trials,
                                                           opts->t.perturb, opts->t.steps,
                                                           opts->t.seed, opts->t.tol, &trials);
    cli_progress_clear(&progress);
    if (st != HES_OK) {
        rc = cli_report_status(st, sys);
        hes_orbit_free(&orbit);
        return rc;
    }

    switch (opts->output) {
    case OUT_JSON:
        rc = cli_print_document(CMD, hes_trials_json(sys, &orbit, &trials));
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
        CLI_NO_CHECK_DERIVATIVES_OPTION,
        {"perturb", required_argument, NULL, OPT_PERTURB},
        {"box", required_argument, NULL, OPT_BOX},
        {"trials", required_argument, NULL, OPT_TRIALS},
        {"steps", required_argument, NULL, OPT_STEPS},
        {"seed", required_argument, NULL, OPT_SEED},
        {"tol", required_argument, NULL, OPT_TOL},
        {"sweep", required_argument, NULL, OPT_SWEEP},
        {"x0", required_argument, NULL, OPT_X0},
        {"mode", required_argument, NULL, OPT_MODE},
        {"time", required_argument, NULL, OPT_TIME},
        {"integrator", required_argument, NULL, OPT_INTEGRATOR},
        {"eps", required_argument, NULL, OPT_EPS},
        {"samples", required_argument, NULL, OPT_SAMPLES},
        {"jacobian", no_argument, NULL, OPT_JACOBIAN},
        {"strict-liveness", no_argument, NULL, OPT_STRICT_LIVENESS},
        {"ess-method", required_argument, NULL, OPT_ESS_METHOD},
        {"json", no_argument, NULL, OPT_JSON},
        {"csv", no_argument, NULL, OPT_CSV},
        {"orbit", required_argument, NULL, OPT_ORBIT},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}
    };
    simulate_opts opts = {CLI_TRIAL_DEFAULTS, OUT_TEXT, 0};
    simulate_sweep_opts sweep;
    cli_assignments params;
    const hes_model *model;
    hes_system *sys;
    const char *trial_option = NULL, *sweep_option = NULL, *orbit_file = NULL;
    const char *integrator = NULL, *ess_option = NULL;
    simulate_ess_opts ess_opts = { 0, 0, 0, 0, 0, HES_ESS_CVODES };
    cli_orbit orbit;
    int c, rc = CLI_EXIT_OK, json = 0, csv = 0, perturb_given = 0;
    unsigned char seen[CLI_OPTION_CODES] = {0};

    memset(&sweep, 0, sizeof sweep);
    cli_assignments_init(&params);
    optind = 1;
    while (rc == CLI_EXIT_OK &&
           (c = getopt_long(argc, argv, "p:h", longopts, NULL)) != -1) {
        if (c != 'p' && c != 'h' && c != '?' && c != OPT_JSON && c != OPT_CSV &&
            (rc = cli_once(argv[0], longopts, c, seen)) != CLI_EXIT_OK)
            break;
        switch (c) {
        case CLI_OPT_NO_CHECK_DERIVATIVES:
            params.no_check_derivatives = 1;
            break;
        case 'p':
            if (cli_assignments_add(&params, optarg) != 0)
                rc = CLI_EXIT_FAILURE;
            break;
        case OPT_BOX:
            if (perturb_given) {
                fprintf(stderr, "hes simulate: --box and --perturb exclude each other (a box "
                        "or a ball of starts)\n");
                rc = CLI_EXIT_USAGE;
                break;
            }
            opts.box = 1;
            trial_option = "--box";
            rc = cli_parse_trial_option(CMD, "--perturb", optarg, &opts.t);
            break;
        case OPT_PERTURB:
            if (opts.box) {
                fprintf(stderr, "hes simulate: --box and --perturb exclude each other (a box "
                        "or a ball of starts)\n");
                rc = CLI_EXIT_USAGE;
                break;
            }
            perturb_given = 1;
            /* fall through */
        case OPT_TRIALS:
        case OPT_STEPS:
        case OPT_SEED:
        case OPT_TOL:
            trial_option = c == OPT_PERTURB ? "--perturb" : c == OPT_TRIALS ? "--trials"
                         : c == OPT_STEPS ? "--steps" : c == OPT_SEED ? "--seed" : "--tol";
            rc = cli_parse_trial_option(CMD, trial_option, optarg, &opts.t);
            break;
        case OPT_SWEEP:
            rc = simulate_sweep_parse(optarg, &sweep);
            break;
        case OPT_X0:
            sweep_option = "--x0";
            rc = simulate_sweep_x0(optarg, &sweep);
            break;
        case OPT_MODE:
            sweep_option = "--mode";
            sweep.mode = optarg;
            break;
        case OPT_TIME:
            sweep_option = "--time";
            if (cli_parse_double(optarg, &sweep.time) != 0 || !(sweep.time > 0))
                rc = cli_bad_value(CMD, "--time", optarg, "a finite number > 0");
            sweep.have_time = 1;
            break;
        case OPT_INTEGRATOR:
            integrator = optarg;
            break;
        case OPT_EPS:
            ess_option = "--eps";
            if (cli_parse_double(optarg, &ess_opts.eps) != 0 || !(ess_opts.eps > 0))
                rc = cli_bad_value(CMD, "--eps", optarg, "a finite number > 0");
            ess_opts.have_eps = 1;
            break;
        case OPT_SAMPLES:
            ess_option = "--samples";
            rc = cli_int_option(CMD, "--samples", optarg, 2, CLI_MAX_SAMPLES, &ess_opts.samples);
            break;
        case OPT_STRICT_LIVENESS:
            ess_option = "--strict-liveness";
            ess_opts.strict_liveness = 1;
            break;
        case OPT_ESS_METHOD:
            ess_option = "--ess-method";
            if (hes_ess_method_from_name(optarg, &ess_opts.method) != HES_OK)
                rc = cli_bad_value(CMD, "--ess-method", optarg, "cvodes or dopri5");
            break;
        case OPT_JACOBIAN: /* ESS, or a hybrid model's one run */
            ess_opts.jacobian = 1;
            break;
        case OPT_JSON:
            json = 1;
            break;
        case OPT_CSV:
            csv = 1;
            break;
        case OPT_ORBIT:
            orbit_file = optarg;
            break;
        case 'h':
            cli_assignments_free(&params);
            free(sweep.x0);
            cmd_simulate_usage(stdout);
            return CLI_EXIT_OK;
        default:
            cmd_simulate_usage(stderr);
            rc = CLI_EXIT_USAGE;
            break;
        }
    }
    if (rc == CLI_EXIT_OK)
        rc = cli_check_trial_total(CMD, &opts.t);
    if (rc == CLI_EXIT_OK && json && csv) {
        fprintf(stderr, "hes simulate: --json and --csv exclude each other\n");
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && argc - optind != 1 && !(orbit_file && argc == optind)) {
        fprintf(stderr, "hes simulate: expected exactly one PROBLEM (or --orbit FILE)\n");
        cmd_simulate_usage(stderr);
        rc = CLI_EXIT_USAGE;
    }
    /* the integrator: named, or the one the problem has */
    const hes_ess_model *ess_model = NULL;
    hes_sim_method method = HES_SIM_EVENT;
    if (rc == CLI_EXIT_OK && !orbit_file)
        ess_model = cli_find_ess_problem(argv[optind]);
    if (rc == CLI_EXIT_OK && integrator && hes_sim_method_from_name(integrator, &method) != HES_OK)
        rc = cli_bad_value(CMD, "--integrator", integrator, "event or ess");
    else if (rc == CLI_EXIT_OK && !integrator && ess_model)
        method = HES_SIM_ESS;
    if (rc == CLI_EXIT_OK && method == HES_SIM_ESS && !ess_model) {
        if (orbit_file)
            fprintf(stderr, "hes simulate: --integrator ess integrates an event-selected "
                    "system, not a gait file (--orbit)\n");
        else if (cli_find_problem(argv[optind]))
            fprintf(stderr, "hes simulate: problem '%s' is a hybrid model with no ESS form; "
                    "--integrator ess takes the event-selected systems, marked [ess] by "
                    "'hes list'\n", cli_problem_name(argv[optind]));
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && method == HES_SIM_EVENT && ess_model) {
        fprintf(stderr, "hes simulate: '%s' is an event-selected system: it takes "
                "--integrator ess only\n", ess_model->name);
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && method == HES_SIM_EVENT && ess_option) {
        fprintf(stderr, "hes simulate: %s only goes with --integrator ess\n", ess_option);
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && method == HES_SIM_ESS) {
        const char *other = trial_option ? trial_option : sweep.spec ? "--sweep"
                          : sweep.mode ? "--mode" : NULL;
        if (other) {
            fprintf(stderr, "hes simulate: %s does not go with --integrator ess\n", other);
            rc = CLI_EXIT_USAGE;
        } else if (!sweep.x0 || !sweep.have_time) {
            fprintf(stderr, "hes simulate: --integrator ess needs the initial state --x0 "
                    "and the time --time\n");
            rc = CLI_EXIT_USAGE;
        } else if (ess_opts.jacobian && csv) {
            fprintf(stderr, "hes simulate: --jacobian goes with the text or --json output, "
                    "not --csv (one table of samples)\n");
            rc = CLI_EXIT_USAGE;
        }
        if (rc == CLI_EXIT_OK)
            rc = simulate_ess(ess_model, &params, &sweep,
                              &ess_opts, json ? OUT_JSON : csv ? OUT_CSV : OUT_TEXT);
        cli_assignments_free(&params);
        free(sweep.x0);
        return rc;
    }
    if (rc == CLI_EXIT_OK && ess_opts.jacobian && (sweep.spec || trial_option || csv ||
                                                   !sweep.x0 || !sweep.have_time)) {
        fprintf(stderr, "hes simulate: --jacobian is one run from --x0 over --time, with "
                "the text or --json output (not with --sweep, trials or --csv)\n");
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && !sweep.spec && sweep_option && !ess_opts.jacobian) {
        fprintf(stderr, "hes simulate: %s only goes with --sweep\n", sweep_option);
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && sweep.spec && trial_option) {
        fprintf(stderr, "hes simulate: %s is an option of the perturbation trials, "
                "not of --sweep\n", trial_option);
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && sweep.spec && (!sweep.x0 || !sweep.have_time)) {
        fprintf(stderr, "hes simulate: --sweep needs the initial state --x0 and the "
                "time --time\n");
        rc = CLI_EXIT_USAGE;
    }
    if (rc != CLI_EXIT_OK) {
        cli_assignments_free(&params);
        free(sweep.x0);
        return rc;
    }
    opts.output = json ? OUT_JSON : csv ? OUT_CSV : OUT_TEXT;

    model = cli_model_for(optind < argc ? argv[optind] : NULL, orbit_file, &orbit, &rc);
    if (!model) {
        cli_assignments_free(&params);
        free(sweep.x0);
        return CLI_EXIT_USAGE;
    }
    sys = cli_system_setup(model, &params, &rc);
    cli_assignments_free(&params);
    if (sys)
        rc = sweep.spec ? simulate_sweep(sys, &sweep, opts.output)
           : ess_opts.jacobian ? simulate_flow(sys, &sweep, opts.output) : run(sys, &opts);
    hes_system_destroy(sys);
    cli_orbit_free(&orbit);
    free(sweep.x0);
    return rc;
}
