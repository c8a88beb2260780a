/*
 * cmd_analyze.c - `hes analyze PROBLEM [-p NAME=VALUE]... [--gradient]
 * [--check [--check-step H] [--check-order 2|4]] [--json]`: finds the
 * problem's periodic orbit and its stability with hes_analyze() (orbit -> monodromy -> multipliers -> psi) and reports
 * them: the parameter values (solved ones as the solver left them), the
 * orbit, its events, the monodromy, the multipliers and the verdict.
 * --check also prints the discrepancy to the finite-difference return map.
 * --gradient also prints dpsi/dh for every shape parameter h, from a shape
 * context over the analysed orbit (hes_shape_new, hes_shape_eval).
 * --json prints exactly hes_analysis_json() (lib/README.md, section 5) on stdout,
 * or hes_analysis_gradient_json() with --gradient.
 * --x0 V1,V2,... starts the orbit search from that section state (of the
 * orbit's mode, which --mode may name) instead of the model's guess: the way
 * to select one of several orbits, e.g. a walker's unstable short-step gait.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cmd_analyze.h"


enum { OPT_JSON = 256, OPT_CHECK, OPT_GRADIENT, OPT_ORBIT, OPT_X0, OPT_MODE, OPT_EPS,
       OPT_PERIOD, OPT_SECTION, OPT_IMPACT_SET, OPT_SELECT, OPT_THREADS,
       OPT_STRICT_LIVENESS, OPT_ESS_METHOD, OPT_CHECK_STEP, OPT_CHECK_ORDER };

static const struct argp_option options[] = {
    {"x0", OPT_X0, "V1,V2,...", 0, "start the orbit search from this section state (all "
     "components of the orbit's mode, see 'hes info') instead of the model's guess: selects "
     "among orbits", 0},
    {"mode", OPT_MODE, "MODE", 0, "the mode of --x0; must be the mode the orbit starts in", 0},
    {"gradient", OPT_GRADIENT, NULL, 0, "also print dpsi/dNAME for every shape parameter "
     "(eigenvalue perturbation; one-sided differences of psi where the maximising multiplier "
     "is repeated or defective)", 0},
    {"orbit", OPT_ORBIT, "FILE", 0, "analyse the gait in FILE (written by 'hes trajopt -o'): "
     "its phases as modes, its inputs as functions of the time since each phase started, "
     "found again by shooting", 0},
    {"check", OPT_CHECK, NULL, 0, "also differentiate the full nonlinear return map by "
     "finite differences and print the discrepancy, and compare the model's Jacobians with "
     "central differences at the orbit's states (exit status 1 when one disagrees above "
     "1e-4)", 0},
    {"check-step", OPT_CHECK_STEP, "H", 0, "--check with this relative step of the "
     "differences, 0 < H < 1 (default 1e-5)", 0},
    {"check-order", OPT_CHECK_ORDER, "N", 0, "--check with differences of order 2 (the "
     "default) or 4 (Richardson's stencil on H and 2H, twice the simulations: with a step "
     "of about 1e-4 it reaches below the flow's rounding)", 0},
    {"impact-set", OPT_IMPACT_SET, "N", 0, "psi over N sampled outcomes of the orbit's "
     "simultaneous frictional impact (1 to 100000): each outcome's own orbit and psi, the "
     "worst (robust) psi", 0},
    {"select", OPT_SELECT, "MODE", 0, "with --impact-set: random (default) or lemke, the "
     "solution of a step's LCP when it has several", 0},
    {"threads", OPT_THREADS, "T", 0, "with --impact-set: threads for the orbits (default 1)", 0},
    {"json", OPT_JSON, NULL, 0, "print one JSON object instead of text", 0},
    {NULL, 0, NULL, 0, "Event-selected systems (marked [ess] by 'hes list'):", 1},
    {"eps", OPT_EPS, "E", 0, "the integrator's band width (error O(E^2)), E > 0 (1e-3)", 1},
    {"period", OPT_PERIOD, "T", 0, "the period's guess, T > 0 (with --x0)", 1},
    {"section", OPT_SECTION, "NAME", 0, "the state component fixed on the section", 1},
    {"strict-liveness", OPT_STRICT_LIVENESS, NULL, 0, "refuse an orbit on which a guard in "
     "its band is not crossed by the field (the paper's liveness); by default such a guard "
     "is watched and crossed exactly if it comes", 1},
    {"ess-method", OPT_ESS_METHOD, "M", 0, "the integration step, cvodes (the default) or "
     "dopri5 (the method for many contacts)", 1},
    {NULL, 0, NULL, 0, NULL, 0}
};


static error_t parse_option(int key, char *arg, struct argp_state *state)
{
    analyze_opts *o = state->input;
    double v;

    if (cli_arg_once(state, key))
        return CLI_ARG_REFUSED;
    switch (key) {
    case OPT_JSON:            o->json = 1; return 0;
    case OPT_CHECK:           o->check = 1; return 0;
    case OPT_CHECK_STEP:
        o->check = 1;
        if (cli_parse_double(arg, &o->check_step) != 0 || !(o->check_step > 0) ||
            !(o->check_step < 1)) {
            cli_bad_value(o->cli.cmd, "--check-step", arg, "a number in (0, 1)");
            return CLI_ARG_REFUSED;
        }
        return 0;
    case OPT_CHECK_ORDER:
        o->check = 1;
        if (strcmp(arg, "2") == 0 || strcmp(arg, "4") == 0) {
            o->check_order = arg[0] - '0';
            return 0;
        }
        cli_bad_value(o->cli.cmd, "--check-order", arg, "2 or 4");
        return CLI_ARG_REFUSED;
    case OPT_GRADIENT:        o->gradient = 1; return 0;
    case OPT_ORBIT:           o->orbit_file = arg; return 0;
    case OPT_X0:              o->x0_text = arg; return 0;
    case OPT_MODE:            o->mode_name = arg; return 0;
    case OPT_EPS:
    case OPT_PERIOD:
        o->ess_option = key == OPT_EPS ? "--eps" : "--period";
        if (cli_parse_double(arg, &v) != 0 || !(v > 0) || !isfinite(v)) {
            cli_bad_value(o->cli.cmd, o->ess_option, arg, "a finite number > 0");
            return CLI_ARG_REFUSED;
        }
        if (key == OPT_EPS)
            o->eo.eps = v, o->eo.have_eps = 1;
        else
            o->eo.period = v, o->eo.have_period = 1;
        return 0;
    case OPT_SECTION:
        o->ess_option = "--section";
        o->eo.section = arg;
        return 0;
    case OPT_STRICT_LIVENESS:
        o->ess_option = "--strict-liveness";
        o->eo.strict_liveness = 1;
        return 0;
    case OPT_ESS_METHOD:
        o->ess_option = "--ess-method";
        if (hes_ess_method_from_name(arg, &o->eo.method) == HES_OK)
            return 0;
        cli_bad_value(o->cli.cmd, "--ess-method", arg, "cvodes or dopri5");
        return CLI_ARG_REFUSED;
    case OPT_IMPACT_SET:
        return cli_int_option(o->cli.cmd, "--impact-set", arg, 1, 100000, &o->impact_n)
               ? CLI_ARG_REFUSED : 0;
    case OPT_SELECT:
        o->impact_option = "--select";
        if (strcmp(arg, "random") == 0 || strcmp(arg, "lemke") == 0) {
            o->select = arg[0] == 'r';
            return 0;
        }
        cli_bad_value(o->cli.cmd, "--select", arg, "random or lemke");
        return CLI_ARG_REFUSED;
    case OPT_THREADS:
        o->impact_option = "--threads";
        return cli_int_option(o->cli.cmd, "--threads", arg, 1, 256, &o->threads)
               ? CLI_ARG_REFUSED : 0;
    default:
        return ARGP_ERR_UNKNOWN;
    }
}

static const struct argp analyze_argp = {
    options, parse_option,
    "PROBLEM\n--orbit FILE\nESS-PROBLEM",
    "Find the periodic orbit of PROBLEM and its stability: the monodromy matrix (saltation "
    "matrices across the events), its nontrivial multipliers and psi, the largest of their "
    "moduli (stable if psi < 1).",
    NULL, NULL, NULL
};

/* --impact-set N: psi over the outcomes of the orbit's simultaneous impact;
 * the analysis is printed first in text, once the outcomes are known (a
 * refusal prints nothing on standard output) */
static int analyze_impact_set(hes_system *sys, const hes_analysis *res, const analyze_opts *o)
{
    hes_impact_orbit_options io;
    hes_impact_orbit r;
    hes_error msg;
    hes_impact_orbit_options_init(&io);
    io.set.samples = o->impact_n;
    io.set.routh.select = o->select;
    io.set.threads = o->threads;
    hes_status st = hes_impact_orbit_analyze(sys, res, &io, &r, &msg);
    if (st != HES_OK) {
        fprintf(stderr, "hes analyze: --impact-set: %s\n", msg.message);
        return st == HES_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
    }
    int rc = CLI_EXIT_OK;
    if (o->json)
        rc = cli_print_document("hes analyze", hes_analysis_impact_json(sys, res, &r));
    else {
        analyze_print_text(sys, res);
        analyze_print_impact_set(sys, &r, o->select);
    }
    hes_impact_orbit_free(&r);
    return rc;
}

/* Refusals of option combinations once the options are known: 0, or the
 * exit status after a message. */
static int check_combinations(const analyze_opts *o)
{
    if (o->cli.n_args != 1 && !(o->orbit_file && o->cli.n_args == 0))
        return cli_usage_error(&o->cli, "expected exactly one PROBLEM (or --orbit FILE)");
    if (o->impact_option && !o->impact_n) {
        fprintf(stderr, "hes analyze: %s goes with --impact-set\n", o->impact_option);
        return CLI_EXIT_USAGE;
    }
    if (o->impact_n && o->gradient) {
        fprintf(stderr, "hes analyze: --impact-set and --gradient exclude each other\n");
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

/* Prints the analysis as the options ask; the exit status. */
static int report(hes_system *sys, const hes_analysis *res, const analyze_opts *o)
{
    hes_shape *sh = NULL;
    hes_shape_eval_result ev;
    int rc = CLI_EXIT_OK;

    if (o->gradient) {
        /* every shape parameter, at the values just analysed */
        hes_status st = hes_shape_new(sys, res, 0, NULL, &sh);
        if (st == HES_OK)
            st = hes_shape_eval(sh, NULL, 1, &ev);
        if (st != HES_OK) {
            rc = cli_report_status(st, sys);
            hes_shape_destroy(sh);
            return rc;
        }
    }
    if (o->impact_n) {
        rc = analyze_impact_set(sys, res, o);
    } else if (o->json) {
        rc = cli_print_document("hes analyze", sh ? hes_analysis_gradient_json(sys, res, sh, &ev)
                                                   : hes_analysis_json(sys, res));
    } else if (hes_system_kind(sys) == HES_KIND_ESS) {
        analyze_ess_print(sys, res);
    } else {
        analyze_print_text(sys, res);
        if (sh)
            analyze_print_gradient(sys, sh, &ev);
    }
    hes_shape_destroy(sh);
    if (rc == CLI_EXIT_OK && res->have_check && res->jacobians.disagree) {
        /* the analysis printed stands on the model's Jacobians: a wrong one
           is a failure, as a failed computation is */
        fprintf(stderr, "hes analyze: the model's %s disagrees with central differences: "
                "relative error %.3g, above %g\n", res->jacobians.where,
                res->jacobians.max_rel_err, HES_DERIV_TOL);
        rc = CLI_EXIT_FAILURE;
    }
    return rc;
}

int cmd_analyze(int argc, char **argv)
{
    analyze_opts o = { .threads = 1, .select = 1, .eo = { .method = HES_ESS_CVODES } };
    cli_orbit orbit;
    hes_system *sys = NULL;
    hes_analysis res;
    int rc = cli_parse(&analyze_argp, CLI_GROUP_PARAMS, argc, argv, &o.cli);

    memset(&orbit, 0, sizeof orbit);
    if (rc == CLI_EXIT_OK && !o.cli.done && (rc = check_combinations(&o)) == CLI_EXIT_OK) {
        const hes_ess_model *ess_model =
            !o.orbit_file && o.cli.n_args ? cli_find_ess_problem(o.cli.args[0]) : NULL;
        sys = ess_model ? analyze_ess_problem(ess_model, &o, &rc)
                        : analyze_hybrid_problem(&o, &orbit, &rc);
    }
    if (sys && (o.check_step > 0 || o.check_order > 0)) {
        hes_settings set = hes_system_get_settings(sys);
        if (o.check_step > 0)
            set.fd_step = o.check_step;
        if (o.check_order > 0)
            set.fd_order = o.check_order;
        if (hes_system_set_settings(sys, &set) != HES_OK) {
            rc = cli_report_status(HES_EINVAL, sys);
            hes_system_destroy(sys);
            sys = NULL;
        }
    }
    if (sys) {
        /* the one pipeline, for a system of either kind */
        hes_status st = hes_analyze(sys, o.check, &res);
        if (st != HES_OK)
            rc = cli_report_status(st, sys);
        else {
            rc = report(sys, &res, &o);
            hes_analysis_free(&res);
        }
    }
    hes_system_destroy(sys);
    cli_orbit_free(&orbit);
    cli_args_free(&o.cli);
    return rc;
}
