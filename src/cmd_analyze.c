/*
 * cmd_analyze.c - `hes analyze PROBLEM [-p NAME=VALUE]... [--gradient]
 * [--check] [--json]`: finds the problem's periodic orbit and its stability
 * with hes_analyze() (orbit -> monodromy -> multipliers -> psi) and reports
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
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_analyze.h"

void cmd_analyze_usage(FILE *out)
{
    fputs("Usage: hes analyze PROBLEM [-p NAME=VALUE]... [--x0 V1,V2,... [--mode MODE]]\n"
          "                   [--gradient] [--check] [--impact-set N [--select MODE]\n"
          "                   [--threads T]] [--json]\n"
          "       hes analyze --orbit FILE [-p NAME=VALUE]... [--check] [--json]\n"
          "       hes analyze ESS-PROBLEM [-p NAME=VALUE]... [--eps E] [--x0 V1,V2,...\n"
          "                   --period T --section NAME] [--strict-liveness]\n"
          "                   [--ess-method M] [--json]\n"
          "Find the periodic orbit of PROBLEM and its stability: the monodromy\n"
          "matrix (saltation matrices across the events), its nontrivial\n"
          "multipliers and psi, the largest of their moduli (stable if psi < 1).\n"
          "\n"
          "  -p, --param NAME=VALUE  set a parameter (repeatable; see 'hes info PROBLEM');\n"
          "                          for a solved parameter it is the initial guess\n"
          "      --x0 V1,V2,...      start the orbit search from this section state (all\n"
          "                          components of the orbit's mode, see 'hes info')\n"
          "                          instead of the model's guess: selects among orbits\n"
          "      --mode MODE         the mode of --x0; must be the mode the orbit starts in\n"
          "      --gradient          also print dpsi/dNAME for every shape parameter\n"
          "                          (eigenvalue perturbation; one-sided differences of\n"
          "                          psi where the maximising multiplier is repeated\n"
          "                          or defective)\n"
          "      --orbit FILE        analyse the gait in FILE (written by 'hes trajopt -o'):\n"
          "                          its phases as modes, its inputs as functions of the\n"
          "                          time since each phase started, found again by shooting\n"
          "      --check             also differentiate the full nonlinear return map\n"
          "                          by finite differences and print the discrepancy,\n"
          "                          and compare the model's Jacobians with central\n"
          "                          differences at the orbit's states (exit status 1\n"
          "                          when one disagrees above 1e-4)\n"
          "      --impact-set N      psi over N sampled outcomes of the orbit's\n"
          "                          simultaneous frictional impact (1 to 100000): each\n"
          "                          outcome's own orbit and psi, the worst (robust) psi\n"
          "      --select MODE       with --impact-set: random (default) or lemke, the\n"
          "                          solution of a step's LCP when it has several\n"
          "      --threads T         with --impact-set: threads for the orbits (default 1)\n"
          "      --eps E             ESS: the integrator's band width (error O(E^2)),\n"
          "                          E > 0 (1e-3)\n"
          "      --period T          ESS: the period's guess, T > 0 (with --x0)\n"
          "      --section NAME      ESS: the state component fixed on the section\n"
          "      --strict-liveness   ESS: refuse an orbit on which a guard in its band\n"
          "                          is not crossed by the field (the paper's\n"
          "                          liveness); by default such a guard is watched and\n"
          "                          crossed exactly if it comes\n"
          "      --ess-method M      ESS: the integration step, cvodes (the default) or\n"
          "                          dopri5 (the method for many contacts)\n"
          "      --json              print one JSON object instead of text\n"
          CLI_NO_CHECK_DERIVATIVES_HELP
          "  -h, --help              show this help\n", out);
}

/* Label of state i of the section mode: its name or x[i]. */
static void print_state_label(const hes_model *m, int mode, int i, int width)
{
    const char *name = cli_state_name(m, mode, i);
    char buf[32];

    if (!name) {
        snprintf(buf, sizeof buf, "x[%d]", i);
        name = buf;
    }
    printf("%-*s", width, name);
}

static void print_params(const hes_system *sys)
{
    const hes_model *m = hes_system_model(sys);
    const double *p = hes_system_params(sys);
    int i, w = 0;

    for (i = 0; i < m->n_params; i++)
        if ((int)strlen(m->params[i].name) > w)
            w = (int)strlen(m->params[i].name);
    printf("parameters:\n");
    for (i = 0; i < m->n_params; i++) {
        const hes_param *hp = &m->params[i];

        printf("  %-*s = %.12g", w, hp->name, p[i]);
        if (hp->unit && hp->unit[0] && strcmp(hp->unit, "1") != 0) /* "1": dimensionless */
            printf(" %s", hp->unit);
        if (hp->flags & HES_PARAM_SOLVED)
            printf("  (solved)");
        printf("\n");
    }
}

static void print_orbit(const hes_model *m, const hes_orbit *o)
{
    int i;

    printf("\norbit: period %.12g, starts in mode %s (%s), "
           "%d Newton iterations, residual %.3g\n",
           o->period, m->modes[o->mode].name,
           o->autonomous ? "autonomous" : "non-autonomous",
           o->iterations, o->residual);
    printf("section state:\n");
    for (i = 0; i < o->n; i++) {
        printf("  ");
        print_state_label(m, o->mode, i, 12);
        printf(" % .12g\n", o->x0[i]);
    }
}

static void print_events(const hes_model *m, const hes_traj *traj)
{
    int k, w = 10;

    for (k = 0; k < traj->n_events; k++) {
        int len = (int)strlen(m->transitions[traj->events[k].transition].name);

        if (len > w)
            w = len;
    }
    printf("\nevents:\n");
    printf("  %-*s %16s  %s -> %s\n", w, "transition", "t", "x_minus", "x_plus");
    for (k = 0; k < traj->n_events; k++) {
        const hes_event *ev = &traj->events[k];
        const hes_transition *tr = &m->transitions[ev->transition];

        printf("  %-*s %16.10g  ", w, tr->name, ev->t);
        cli_print_vector(stdout, ev->x_minus, m->modes[tr->from].dim, "%.8g");
        printf(" -> ");
        cli_print_vector(stdout, ev->x_plus, m->modes[tr->to].dim, "%.8g");
        printf("\n");
    }
}

static void print_stability(const hes_analysis *res)
{
    const hes_stability *st = &res->stab;
    int k;

    printf("\nmonodromy matrix Phi (%d x %d):\n", res->mono.n, res->mono.n);
    cli_print_matrix(stdout, res->mono.phi, res->mono.n);
    if (res->mono.autonomous && res->mono.proj) {
        printf("return-map Jacobian P (Phi projected onto the section):\n");
        cli_print_matrix(stdout, res->mono.proj, res->mono.n);
    }

    printf("\nmultipliers (nontrivial, by modulus):\n");
    printf("  %20s %20s %20s\n", "re", "im", "|.|");
    for (k = 0; k < st->n_mult; k++)
        printf("  % 20.12e % 20.12e % 20.12e\n", st->re[k], st->im[k],
               st->abs[k]);
    if (st->trivial >= 0)
        printf("  (dropped the trivial eigenvalue of P, whose left eigenvector is the "
               "section normal: |.| = %.3g)\n", st->trivial_abs);
    printf("psi = %.12g\n\n", st->psi);
    cli_print_verdict(st);
}

static void print_text(const hes_system *sys, const hes_analysis *res)
{
    const hes_model *m = hes_system_model(sys);

    printf("problem: %s\n", m->name);
    print_params(sys);
    print_orbit(m, &res->orbit);
    print_events(m, &res->orbit.traj);
    print_stability(res);
    if (res->have_check)
        printf("check: finite differences of the return map, "
               "max |difference| = %.3e\n", res->check_max_abs_diff);
    if (res->have_check && isnan(res->jacobians.max_rel_err))
        printf("check: the model's Jacobians could not all be checked at the orbit's states "
               "(%d compared before): %s\n", res->jacobians.n_checked, res->jacobians.where);
    else if (res->have_check && res->jacobians.n_checked > 0)
        printf("check: the model's %d Jacobian%s at the orbit's states against central "
               "differences, worst relative error %.3e (%s)\n", res->jacobians.n_checked,
               res->jacobians.n_checked == 1 ? "" : "s", res->jacobians.max_rel_err,
               res->jacobians.where);
    else if (res->have_check)
        printf("check: no supplied Jacobian was checked (none for the modes the orbit "
               "visits: the library differentiates them)%s%s\n",
               res->jacobians.where[0] ? "; " : "", res->jacobians.where);
    cli_print_simultaneous(hes_system_model(sys), res->simultaneous, res->n_simultaneous);
}

/* The --gradient section: dpsi/dh for every shape parameter of sh. */
static void print_gradient(const hes_system *sys, const hes_shape *sh,
                           const hes_shape_eval_result *ev)
{
    const hes_model *m = hes_system_model(sys);
    int j, w = 0;

    for (j = 0; j < hes_shape_count(sh); j++)
        if ((int)strlen(m->params[hes_shape_param(sh, j)].name) > w)
            w = (int)strlen(m->params[hes_shape_param(sh, j)].name);
    if (ev->fallback)
        printf("\ngradient of psi (finite differences: the maximising multiplier is "
               "repeated or defective):\n");
    else
        printf("\ngradient of psi (analytic, eigenvalue perturbation):\n");
    for (j = 0; j < hes_shape_count(sh); j++)
        printf("  dpsi/d%-*s = % .12g\n", w, m->params[hes_shape_param(sh, j)].name,
               ev->dpsi[j]);
    if (ev->fallback)
        printf("  (one-sided differences of psi; condition number of the maximising "
               "multiplier %.3g)\n", ev->cond);
    if (ev->nonsmooth)
        printf("  note: psi is not differentiable here (the one-sided differences "
               "disagree);\n"
               "  each entry is the element of least magnitude between them "
               "(0 if they differ in sign)\n");
}

static int has_shape_params(const hes_model *m)
{
    int i;

    for (i = 0; i < m->n_params; i++)
        if (m->params[i].flags & HES_PARAM_SHAPE)
            return 1;
    return 0;
}

/* --x0 (and --mode): the section state the orbit search starts from. */
static int apply_x0(hes_system *sys, const char *text, const char *mode_name)
{
    const hes_model *m = hes_system_model(sys);
    int mode = m->orbit.mode, n = m->modes[mode].dim, count;
    double *x0;

    if (!m->orbit.guess) {
        fprintf(stderr, "hes analyze: problem '%s' declares no periodic orbit; --x0 has "
                "nothing to start\n", m->name);
        return CLI_EXIT_USAGE;
    }
    if (mode_name && strcmp(mode_name, m->modes[mode].name) != 0) {
        if (hes_model_mode_index(m, mode_name) < 0)
            fprintf(stderr, "hes analyze: --mode %s: problem '%s' has no such mode\n",
                    mode_name, m->name);
        else
            fprintf(stderr, "hes analyze: --mode %s: the orbit of '%s' starts in mode '%s' "
                    "(its section), so --x0 must be a state of that mode\n", mode_name,
                    m->name, m->modes[mode].name);
        return CLI_EXIT_USAGE;
    }
    int rc = cli_parse_vector(text, &x0, &count);
    if (rc == -2) {
        fprintf(stderr, "hes analyze: out of memory\n");
        return CLI_EXIT_FAILURE;
    }
    if (rc != 0) {
        fprintf(stderr, "hes analyze: --x0 '%s': expected comma-separated finite numbers\n", text);
        return CLI_EXIT_USAGE;
    }
    if (count != n) {
        fprintf(stderr, "hes analyze: --x0 has %d value%s, but mode '%s' of '%s' has %d states",
                count, count == 1 ? "" : "s", m->modes[mode].name, m->name, n);
        for (int i = 0; i < n && cli_state_name(m, mode, i); i++)
            fprintf(stderr, "%s%s", i ? ", " : " (", cli_state_name(m, mode, i));
        fprintf(stderr, "%s\n", cli_state_name(m, mode, 0) ? ")" : "");
        free(x0);
        return CLI_EXIT_USAGE;
    }
    hes_status st = hes_system_set_orbit_start(sys, x0);
    free(x0);
    return st == HES_OK ? CLI_EXIT_OK : cli_report_status(st, sys);
}

/* --impact-set N: psi over the outcomes of the orbit's simultaneous impact,
 * after the analysis (printed first in text) */
static int analyze_impact_set(hes_system *sys, const hes_analysis *res, int n,
                              unsigned long select, int threads, int json)
{
    hes_impact_orbit_options o = { -1, { n, { 0, 0, 0, select }, 0, threads, 0, 0 } };
    hes_impact_orbit r;
    char msg[512];
    if (!json)
        print_text(sys, res);
    hes_status st = hes_impact_orbit_analyze(sys, res, &o, &r, msg, sizeof msg);
    if (st != HES_OK) {
        fprintf(stderr, "hes analyze: --impact-set: %s\n", msg);
        return st == HES_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
    }
    int rc = CLI_EXIT_OK;
    if (json)
        rc = cli_print_document("hes analyze", hes_analysis_impact_json(sys, res, &r));
    else {
        const hes_model *m = hes_system_model(sys);
        printf("\nimpact set of '%s' (Halm & Posa impulse stepping, h = %.4g, N = %d, %s "
               "selection): %d samples, %d finished, %.2f LCPs per sample\n",
               m->transitions[r.transition].name, r.step, r.steps, select ? "random" : "lemke",
               r.set.samples, r.set.n_finished, r.set.mean_lcps);
        printf("  %d outcomes continue the orbit's mode sequence (the impact's contacts stick, "
               "the trailing ones lift off); their orbits: %d found (%d stable, %d unstable, "
               "%d marginal), %d failed\n", r.n_consistent, r.n_orbits, r.n_stable,
               r.n_unstable, r.n_marginal, r.n_failed);
        if (r.n_failed)
            printf("  the first failure: %s\n", r.message);
        printf("  psi nominal %.9f, worst %.9f (sample %d), best %.9f (sample %d)\n",
               r.psi_nominal, r.psi_worst, r.worst, r.psi_best, r.best);
        const hes_mech_transition *mt = m->transitions[r.transition].data;
        const hes_mech *em = mt->mech ? mt->mech : mt->from->mech;
        for (int d = 0; d < 2 * r.k; d++)
            for (int e = 0; e < 2; e++) {
                int i = e ? r.extreme_max[d] : r.extreme_min[d];
                if (i >= 0)
                    printf("  %s u_%s of %-16s (sample %4d): %+.6f, psi %.9f\n",
                           e ? "max" : "min", d < r.k ? "n" : "t",
                           em->constraints[r.contacts[d % r.k]].name, i,
                           r.set.u[(size_t)i * 2 * r.k + d], r.psi[i]);
            }
        if (r.worst >= 0)
            printf("  the worst orbit's return map against central differences of the full "
                   "flow: %.3g\n", r.worst_check);
        printf("  robust verdict over the sampled outcomes: %s (%.2f s)\n",
               r.n_orbits == 0 ? "none (no outcome continues the orbit)"
               : r.n_unstable > 0 ? "unstable for some outcomes"
               : r.n_marginal > 0 ? "marginal for some outcomes" : "stable for every outcome",
               r.seconds);
    }
    hes_impact_orbit_free(&r);
    return rc;
}

int cmd_analyze(int argc, char **argv)
{
    enum { OPT_JSON = 256, OPT_CHECK, OPT_GRADIENT, OPT_ORBIT, OPT_X0, OPT_MODE, OPT_EPS,
           OPT_PERIOD, OPT_SECTION, OPT_IMPACT_SET, OPT_SELECT, OPT_THREADS,
           OPT_STRICT_LIVENESS, OPT_ESS_METHOD };
    static const struct option longopts[] = {
        {"impact-set", required_argument, NULL, OPT_IMPACT_SET},
        {"select", required_argument, NULL, OPT_SELECT},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"eps", required_argument, NULL, OPT_EPS},
        {"period", required_argument, NULL, OPT_PERIOD},
        {"section", required_argument, NULL, OPT_SECTION},
        {"strict-liveness", no_argument, NULL, OPT_STRICT_LIVENESS},
        {"ess-method", required_argument, NULL, OPT_ESS_METHOD},
        {"param", required_argument, NULL, 'p'},
        CLI_NO_CHECK_DERIVATIVES_OPTION,
        {"json", no_argument, NULL, OPT_JSON},
        {"check", no_argument, NULL, OPT_CHECK},
        {"gradient", no_argument, NULL, OPT_GRADIENT},
        {"orbit", required_argument, NULL, OPT_ORBIT},
        {"x0", required_argument, NULL, OPT_X0},
        {"mode", required_argument, NULL, OPT_MODE},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}
    };
    cli_assignments params;
    const hes_model *model;
    hes_system *sys;
    hes_analysis res;
    hes_shape *sh = NULL;
    hes_shape_eval_result ev;
    hes_status st;
    int c, json = 0, check = 0, gradient = 0, rc, impact_n = 0, threads = 1;
    unsigned long select = 1;
    const char *impact_option = NULL;
    unsigned char seen[CLI_OPTION_CODES] = {0};
    const char *orbit_file = NULL, *x0_text = NULL, *mode_name = NULL, *ess_option = NULL;
    analyze_ess_opts eo = { NULL, 0, 0, NULL, 0, 0, 0, HES_ESS_CVODES };
    cli_orbit orbit;

    memset(&orbit, 0, sizeof orbit);
    cli_assignments_init(&params);
    optind = 1;
    while ((c = getopt_long(argc, argv, "p:h", longopts, NULL)) != -1) {
        if ((c == OPT_ORBIT || c == OPT_X0 || c == OPT_MODE || c == OPT_EPS || c == OPT_PERIOD ||
             c == OPT_SECTION || c == OPT_STRICT_LIVENESS || c == OPT_ESS_METHOD ||
             c == OPT_IMPACT_SET || c == OPT_SELECT || c == OPT_THREADS) &&
            cli_once(argv[0], longopts, c, seen) != CLI_EXIT_OK) {
            cli_assignments_free(&params);
            return CLI_EXIT_USAGE;
        }
        switch (c) {
        case CLI_OPT_NO_CHECK_DERIVATIVES:
            params.no_check_derivatives = 1;
            break;
        case 'p':
            if (cli_assignments_add(&params, optarg) != 0) {
                cli_assignments_free(&params);
                return CLI_EXIT_FAILURE;
            }
            break;
        case OPT_JSON:
            json = 1;
            break;
        case OPT_CHECK:
            check = 1;
            break;
        case OPT_GRADIENT:
            gradient = 1;
            break;
        case OPT_ORBIT:
            orbit_file = optarg;
            break;
        case OPT_X0:
            x0_text = optarg;
            break;
        case OPT_MODE:
            mode_name = optarg;
            break;
        case OPT_EPS:
        case OPT_PERIOD: {
            double v;
            const char *name = c == OPT_EPS ? "--eps" : "--period";
            ess_option = name;
            if (cli_parse_double(optarg, &v) != 0 || !(v > 0) || !isfinite(v)) {
                cli_assignments_free(&params);
                return cli_bad_value("hes analyze", name, optarg, "a finite number > 0");
            }
            if (c == OPT_EPS)
                eo.eps = v, eo.have_eps = 1;
            else
                eo.period = v, eo.have_period = 1;
            break;
        }
        case OPT_SECTION:
            ess_option = "--section";
            eo.section = optarg;
            break;
        case OPT_STRICT_LIVENESS:
            ess_option = "--strict-liveness";
            eo.strict_liveness = 1;
            break;
        case OPT_ESS_METHOD:
            ess_option = "--ess-method";
            if (hes_ess_method_from_name(optarg, &eo.method) != HES_OK) {
                cli_assignments_free(&params);
                return cli_bad_value("hes analyze", "--ess-method", optarg, "cvodes or dopri5");
            }
            break;
        case OPT_IMPACT_SET:
            if ((rc = cli_int_option("hes analyze", "--impact-set", optarg, 1, 100000,
                                     &impact_n))) {
                cli_assignments_free(&params);
                return rc;
            }
            break;
        case OPT_SELECT:
            impact_option = "--select";
            if (strcmp(optarg, "random") == 0 || strcmp(optarg, "lemke") == 0)
                select = optarg[0] == 'r';
            else {
                cli_assignments_free(&params);
                return cli_bad_value("hes analyze", "--select", optarg, "random or lemke");
            }
            break;
        case OPT_THREADS:
            impact_option = "--threads";
            if ((rc = cli_int_option("hes analyze", "--threads", optarg, 1, 256, &threads))) {
                cli_assignments_free(&params);
                return rc;
            }
            break;
        case 'h':
            cli_assignments_free(&params);
            cmd_analyze_usage(stdout);
            return CLI_EXIT_OK;
        default:
            cli_assignments_free(&params);
            cmd_analyze_usage(stderr);
            return CLI_EXIT_USAGE;
        }
    }
    if (argc - optind != 1 && !(orbit_file && argc == optind)) {
        fprintf(stderr, "hes analyze: expected exactly one PROBLEM (or --orbit FILE)\n");
        cli_assignments_free(&params);
        cmd_analyze_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (impact_option && !impact_n) {
        fprintf(stderr, "hes analyze: %s goes with --impact-set\n", impact_option);
        cli_assignments_free(&params);
        return CLI_EXIT_USAGE;
    }
    if (impact_n && gradient) {
        fprintf(stderr, "hes analyze: --impact-set and --gradient exclude each other\n");
        cli_assignments_free(&params);
        return CLI_EXIT_USAGE;
    }
    const hes_ess_model *ess_model =
        !orbit_file && optind < argc ? cli_find_ess_problem(argv[optind]) : NULL;
    if (ess_model) {
        const char *other = gradient ? "--gradient" : mode_name ? "--mode"
                          : impact_n ? "--impact-set" : NULL;
        if (other) {
            fprintf(stderr, "hes analyze: %s applies to hybrid models; '%s' is an "
                    "event-selected system\n", other, ess_model->name);
            cli_assignments_free(&params);
            return CLI_EXIT_USAGE;
        }
        eo.x0_text = x0_text;
        sys = analyze_ess_system(ess_model, &params, &eo, &rc);
        cli_assignments_free(&params);
        if (!sys)
            return rc;
        x0_text = NULL; /* the system has it */
        goto analyze;
    }
    if (ess_option) {
        fprintf(stderr, "hes analyze: %s applies to event-selected systems (marked [ess] by "
                "'hes list'), not to '%s'\n", ess_option,
                optind < argc ? cli_problem_name(argv[optind]) : orbit_file);
        cli_assignments_free(&params);
        return CLI_EXIT_USAGE;
    }
    model = cli_model_for(optind < argc ? argv[optind] : NULL, orbit_file, &orbit, &rc);
    if (!model) {
        cli_assignments_free(&params);
        return CLI_EXIT_USAGE;
    }
    if (mode_name && !x0_text) {
        fprintf(stderr, "hes analyze: --mode names the mode of --x0, which is missing\n");
        cli_assignments_free(&params);
        cli_orbit_free(&orbit);
        return CLI_EXIT_USAGE;
    }
    if (gradient && !has_shape_params(model)) {
        fprintf(stderr, "hes: problem '%s' has no shape parameters\n", model->name);
        cli_assignments_free(&params);
        return CLI_EXIT_USAGE;
    }
    if (!model->orbit.guess) {
        fprintf(stderr, "hes analyze: problem '%s' declares no periodic orbit to analyse; the "
                "derivative of one run and its simultaneous events (whether the two orders of "
                "a contact give the same one): hes simulate %s --x0 V1,V2,... --time T "
                "--jacobian\n", model->name, model->name);
        cli_assignments_free(&params);
        cli_orbit_free(&orbit);
        return CLI_EXIT_USAGE;
    }
    sys = cli_system_setup(model, &params, &rc);
    cli_assignments_free(&params);
    if (!sys) {
        cli_orbit_free(&orbit);
        return rc;
    }

    if (x0_text && (rc = apply_x0(sys, x0_text, mode_name)) != CLI_EXIT_OK) {
        hes_system_destroy(sys);
        cli_orbit_free(&orbit);
        return rc;
    }
analyze: /* the one pipeline, for a system of either kind */
    st = hes_analyze(sys, check, &res);
    if (st != HES_OK) {
        rc = cli_report_status(st, sys);
        hes_system_destroy(sys);
        cli_orbit_free(&orbit);
        return rc;
    }
    if (gradient) {
        /* every shape parameter, at the values just analysed */
        st = hes_shape_new(sys, &res, 0, NULL, &sh);
        if (st == HES_OK)
            st = hes_shape_eval(sh, NULL, 1, &ev);
        if (st != HES_OK) {
            rc = cli_report_status(st, sys);
            hes_shape_destroy(sh);
            hes_analysis_free(&res);
            hes_system_destroy(sys);
            cli_orbit_free(&orbit);
            return rc;
        }
    }
    if (impact_n) {
        rc = analyze_impact_set(sys, &res, impact_n, select, threads, json);
    } else if (json) {
        rc = cli_print_document("hes analyze", sh ? hes_analysis_gradient_json(sys, &res, sh, &ev)
                                                   : hes_analysis_json(sys, &res));
    } else if (hes_system_kind(sys) == HES_KIND_ESS) {
        analyze_ess_print(sys, &res);
        rc = CLI_EXIT_OK;
    } else {
        print_text(sys, &res);
        if (sh)
            print_gradient(sys, sh, &ev);
        rc = CLI_EXIT_OK;
    }
    if (rc == CLI_EXIT_OK && res.have_check && res.jacobians.disagree) {
        /* the analysis printed stands on the model's Jacobians: a wrong one
           is a failure, as a failed computation is */
        fprintf(stderr, "hes analyze: the model's %s disagrees with central differences: "
                "relative error %.3g, above %g\n", res.jacobians.where,
                res.jacobians.max_rel_err, HES_DERIV_TOL);
        rc = CLI_EXIT_FAILURE;
    }
    hes_shape_destroy(sh);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
    cli_orbit_free(&orbit);
    return rc;
}
