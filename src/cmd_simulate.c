/*
 * cmd_simulate.c - the command line of `hes simulate`, from one option
 * table: the perturbation trials around a PROBLEM's periodic orbit (the
 * paper's Fig. 3 experiment, perturb_trials.c), a sweep of an initial state
 * component (--sweep, cmd_simulate_sweep.c), one run of a hybrid model with
 * the derivative of its flow (--jacobian, cmd_simulate_flow.c) or one run
 * of an event-selected system's ESS integrator (--integrator ess,
 * cmd_simulate_ess.c).  The combinations of options that do not go
 * together are refused here and in simulate_refusals.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli_args.h"
#include "cmd_simulate.h"

#define CMD "hes simulate"

enum { OPT_BOX = 256, OPT_JSON, OPT_CSV, OPT_ORBIT, OPT_INTEGRATOR, OPT_SWEEP, OPT_X0,
       OPT_MODE, OPT_TIME, OPT_JACOBIAN, OPT_EPS, OPT_SAMPLES, OPT_STRICT_LIVENESS,
       OPT_ESS_METHOD };

static const struct argp_option options[] = {
    {"box", OPT_BOX, "H", 0, "perturb every state component uniformly in (-H, H) instead of "
     "the ball of --perturb (the paper's Fig. 5 protocol; not with --perturb)", 0},
    {"orbit", OPT_ORBIT, "FILE", 0, "perturb the orbit of the gait in FILE (written by 'hes "
     "trajopt -o') instead of a PROBLEM's", 0},
    {"integrator", OPT_INTEGRATOR, "NAME", 0, "event (the event-driven hybrid pipeline; the "
     "default for hybrid models) or ess (event-selected systems)", 0},
    {"json", OPT_JSON, NULL, 0, "print one JSON object instead of text", 0},
    {"csv", OPT_CSV, NULL, 0, "print rows trial,step,error (both counted from 1); with --sweep "
     "value,n_events,transitions,mode,state,x,failure (one row per final state component); "
     "with --integrator ess t,STATE1,STATE2,... per sample", 0},
    {NULL, 0, NULL, 0, "Runs from a given state (--sweep, --jacobian, --integrator ess):", 1},
    {"sweep", OPT_SWEEP, "NAME=LO:HI:N", 0, "sweep state NAME of MODE over N values in "
     "[LO, HI], 1 <= N <= " STR(CLI_MAX_VALUES) " (N = 1: LO only)", 1},
    {"x0", OPT_X0, "V1,V2,...", 0, "the full initial state of MODE", 1},
    {"mode", OPT_MODE, "MODE", 0, "the mode of --x0 (by default the model's first)", 1},
    {"time", OPT_TIME, "T", 0, "simulated time of each sweep value (or of the one run), "
     "T > 0", 1},
    {"jacobian", OPT_JACOBIAN, NULL, 0, "also the n x n derivative d x(T) / d x0 (a hybrid "
     "model: one run, its saltation matrices, and whether simultaneous events' two orders "
     "give the same one)", 1},
    {NULL, 0, NULL, 0, "Event-selected systems (--integrator ess; marked [ess] by 'hes list'):",
     2},
    {"eps", OPT_EPS, "E", 0, "the band width, the accuracy knob (error O(E^2)), E > 0 (1e-3)", 2},
    {"samples", OPT_SAMPLES, "N", 0, "output at N evenly spaced times in [0, T], 2 <= N <= "
     STR(CLI_MAX_SAMPLES) " (default: the step boundaries)", 2},
    {"strict-liveness", OPT_STRICT_LIVENESS, NULL, 0, "refuse a run (exit status 1, naming "
     "the guard) where a guard in its band is not crossed by the field (the paper's "
     "liveness); by default such a guard is watched and crossed exactly if it comes", 2},
    {"ess-method", OPT_ESS_METHOD, "M", 0, "the integration step, cvodes (the default) or "
     "dopri5 (the method for many contacts: with a model's broad phase only the guards near "
     "a level are evaluated)", 2},
    {NULL, 0, NULL, 0, NULL, 0}
};

/* The refusal of --box with --perturb, in either order. */
static void box_and_perturb(void)
{
    fprintf(stderr, "hes simulate: --box and --perturb exclude each other (a box or a ball "
            "of starts)\n");
}

/* The options of the runs from a given state and of the ESS integrator. */
static error_t parse_run_option(simulate_opts *o, int key, char *arg)
{
    int rc;

    switch (key) {
    case OPT_SWEEP:
        return simulate_sweep_parse(arg, &o->sweep) ? CLI_ARG_REFUSED : 0;
    case OPT_X0:
        o->sweep_option = "--x0";
        rc = simulate_sweep_x0(arg, &o->sweep);
        return rc == 0 ? 0 : rc == CLI_EXIT_FAILURE ? ENOMEM : CLI_ARG_REFUSED;
    case OPT_MODE:
        o->sweep_option = "--mode";
        o->sweep.mode = arg;
        return 0;
    case OPT_TIME:
        o->sweep_option = "--time";
        o->sweep.have_time = 1;
        if (cli_parse_double(arg, &o->sweep.run.time) == 0 && o->sweep.run.time > 0)
            return 0;
        cli_bad_value(CMD, "--time", arg, "a finite number > 0");
        return CLI_ARG_REFUSED;
    case OPT_JACOBIAN:
        o->jacobian = o->ess.run.jacobian = 1;
        return 0;
    case OPT_EPS:
        o->ess_option = "--eps";
        if (cli_parse_double(arg, &o->ess.run.eps) == 0 && o->ess.run.eps > 0)
            return 0;
        cli_bad_value(CMD, "--eps", arg, "a finite number > 0");
        return CLI_ARG_REFUSED;
    case OPT_SAMPLES:
        o->ess_option = "--samples";
        return cli_int_option(CMD, "--samples", arg, 2, CLI_MAX_SAMPLES, &o->ess.samples)
               ? CLI_ARG_REFUSED : 0;
    case OPT_STRICT_LIVENESS:
        o->ess_option = "--strict-liveness";
        o->ess.run.near_miss = 0;
        return 0;
    case OPT_ESS_METHOD:
        o->ess_option = "--ess-method";
        if (hes_ess_method_from_name(arg, &o->ess.run.method) == HES_OK)
            return 0;
        cli_bad_value(CMD, "--ess-method", arg, "cvodes or dopri5");
        return CLI_ARG_REFUSED;
    default:
        return ARGP_ERR_UNKNOWN;
    }
}

/* The command's own options, each value converted and checked as it comes
 * (-p and the trial options are cli_args.c's groups). */
static error_t parse_option(int key, char *arg, struct argp_state *state)
{
    simulate_opts *o = state->input;

    if (cli_arg_once(state, key))
        return CLI_ARG_REFUSED;
    switch (key) {
    case OPT_BOX:
        if (o->cli.seen[CLI_KEY_PERTURB]) {
            box_and_perturb();
            return CLI_ARG_REFUSED;
        }
        o->box = 1;
        o->cli.trial_option = "--box"; /* a trial option too: the last one given */
        if (cli_parse_double(arg, &o->cli.trials.perturb) != 0 || o->cli.trials.perturb < 0) {
            cli_bad_value(CMD, "--box", arg, "a finite number >= 0");
            return CLI_ARG_REFUSED;
        }
        return 0;
    case OPT_JSON:
    case OPT_CSV:
        if (o->output != OUT_TEXT) {
            fprintf(stderr, "hes simulate: --json and --csv exclude each other\n");
            return CLI_ARG_REFUSED;
        }
        o->output = key == OPT_JSON ? OUT_JSON : OUT_CSV;
        return 0;
    case OPT_ORBIT:
        o->orbit_file = arg;
        return 0;
    case OPT_INTEGRATOR:
        o->have_integrator = 1;
        if (hes_sim_method_from_name(arg, &o->method) == HES_OK)
            return 0;
        cli_bad_value(CMD, "--integrator", arg, "event or ess");
        return CLI_ARG_REFUSED;
    default:
        return parse_run_option(o, key, arg);
    }
}

static const struct argp simulate_argp = {
    options, parse_option,
    "PROBLEM\n--orbit FILE\nPROBLEM --sweep NAME=LO:HI:N --x0 ... --time T\n"
    "PROBLEM --x0 V1,V2,... --time T --jacobian\nESS-PROBLEM --x0 V1,V2,... --time T",
    "Find the periodic orbit of PROBLEM, start N trials uniformly in the ball of radius R "
    "around its section state, follow each for S periods and report the distance to the "
    "section state after every period (--trials N x --steps S at most "
    STR(CLI_MAX_TRIAL_STEPS) ").\n"
    "With --sweep: simulate from the state x0 of MODE with its component NAME set to each of "
    "N values evenly spaced in [LO, HI], every guard armed, up to time T, and report the "
    "events and the final mode and state of each.\n"
    "With --integrator ess (the default for the event-selected systems, marked [ess] by "
    "'hes list'): integrate from x0 at time 0 to T by the ESS integrator and print the "
    "trajectory, the step counts and the final state."
    "\vEach simulation has a budget of integrator steps per phase and of wall-clock time "
    "(10 s); a trial or sweep value that exceeds it fails with a message.",
    NULL, NULL, NULL
};

/* The refusals that hold whatever the integrator: 0, or the exit status
 * after a message. */
static int check_common(const simulate_opts *o)
{
    if (o->box && o->cli.seen[CLI_KEY_PERTURB]) {
        box_and_perturb();
        return CLI_EXIT_USAGE;
    }
    int rc = cli_check_trial_total(CMD, &o->cli.trials);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (o->cli.n_args != 1 && !(o->orbit_file && o->cli.n_args == 0))
        return cli_usage_error(&o->cli, "expected exactly one PROBLEM (or --orbit FILE)");
    return CLI_EXIT_OK;
}

/* The trials, the sweep or the one run of a hybrid model (or of the gait
 * of --orbit). */
static int run_hybrid(const simulate_opts *o)
{
    cli_orbit orbit;
    int rc = CLI_EXIT_OK;
    const hes_model *model = cli_model_for(o->cli.n_args ? o->cli.args[0] : NULL,
                                           o->orbit_file, &orbit, &rc);
    if (!model)
        return CLI_EXIT_USAGE;
    hes_system *sys = cli_system_setup(model, &o->cli.params, &rc);
    if (sys)
        rc = o->sweep.spec ? simulate_sweep(sys, &o->sweep, o->output)
           : o->jacobian ? simulate_flow(sys, &o->sweep, o->output)
           : perturb_trials(sys, &o->cli.trials, o->box, o->output);
    hes_system_destroy(sys);
    cli_orbit_free(&orbit);
    return rc;
}

int cmd_simulate(int argc, char **argv)
{
    simulate_opts o = { .output = OUT_TEXT };
    const hes_ess_model *ess_model = NULL;

    hes_ess_options_init(&o.ess.run);
    int rc = cli_parse(&simulate_argp, CLI_GROUP_PARAMS | CLI_GROUP_TRIALS, argc, argv, &o.cli);
    if (rc == CLI_EXIT_OK && !o.cli.done && (rc = check_common(&o)) == CLI_EXIT_OK &&
        (rc = simulate_choose_integrator(&o, &ess_model)) == CLI_EXIT_OK) {
        if (o.method == HES_SIM_ESS) {
            if ((rc = simulate_check_ess(&o)) == CLI_EXIT_OK)
                rc = simulate_ess(ess_model, &o.cli.params, &o.sweep, &o.ess, o.output);
        } else if ((rc = simulate_check_hybrid(&o)) == CLI_EXIT_OK)
            rc = run_hybrid(&o);
    }
    cli_args_free(&o.cli);
    free(o.sweep.x0);
    return rc;
}
