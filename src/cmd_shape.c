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
 * The start values and bounds are passed to the library as full arrays over
 * the shape parameters in model order (hes_shape_options.n = 0): the start is
 * the system's value (after -p) unless --start gives one, the bounds are the
 * model's search bounds unless --bounds gives them.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define DEFAULT_STARTS   8
#define DEFAULT_MAXEVAL  400
#define CMD "hes shape"

static const cli_trial_opts trial_defaults = CLI_TRIAL_DEFAULTS;
/* The progress line is redrawn every this many evaluations. */
#define PROGRESS_EVERY   50

typedef struct {
    const char *algorithm;   /* NULL: the library's default (LD_SLSQP) */
    int starts;
    hes_measure measure;
    int fd_gradient;
    int polish;
    int maxeval;
    int verify;
    cli_trial_opts t;        /* --trials ... and --seed (also the starts') */
    int json;
} shape_cli_opts;

/* Start values and bounds over the shape parameters, in model order. */
typedef struct {
    int n;
    int *param;              /* parameter index of shape parameter j */
    double *start, *lo, *hi;
} shape_arrays;

void cmd_shape_usage(FILE *out)
{
    fprintf(out,
            "Usage: hes shape PROBLEM [-p NAME=VALUE]... [--start NAME=VALUE]...\n"
            "                 [--bounds NAME=LO:HI]... [--algorithm NAME] [--starts N]\n"
            "                 [--seed N] [--measure psi|smooth] [--fd-gradient] [--no-polish]\n"
            "                 [--maxeval N] [--verify] [--trials N] [--perturb R]\n"
            "                 [--steps S] [--tol E] [--json]\n"
            "Hybrid event shaping: minimise psi, the largest modulus of the nontrivial\n"
            "multipliers, over every shape parameter of PROBLEM within bounds.  Shape\n"
            "parameters change only the saltation matrices at the orbit's events, so each\n"
            "evaluation reuses the orbit; the optimum is re-analysed from scratch.\n"
            "\n"
            "  -p, --param NAME=VALUE   set a parameter (repeatable; see 'hes info PROBLEM')\n"
            "      --start NAME=VALUE   start value of a shape parameter (repeatable;\n"
            "                           default: its current value)\n"
            "      --bounds NAME=LO:HI  search bounds of a shape parameter, LO < HI\n"
            "                           (repeatable; default: the model's, see 'hes info')\n"
            "      --algorithm NAME     NLopt algorithm, e.g. LD_SLSQP, LD_MMA, LN_BOBYQA,\n"
            "                           GN_DIRECT_L (LD_SLSQP)\n"
            "      --starts N           starts, the first from the start values, the rest\n"
            "                           uniform in the bounds, 1 <= N <= %d (%d)\n"
            "      --seed N             seed of the random starts and of --verify (%lu)\n"
            "      --measure psi|smooth minimise psi, or the 16-norm of the multiplier\n"
            "                           moduli (psi)\n"
            "      --fd-gradient        central differences of the measure instead of the\n"
            "                           eigenvalue-perturbation gradient (LD_ algorithms)\n"
            "      --no-polish          skip the derivative-free polish from the best point\n"
            "                           (LN_BOBYQA; LN_NELDERMEAD for one parameter)\n"
            "      --maxeval N          evaluation limit of each start and of the polish,\n"
            "                           1 <= N <= %d (%d)\n"
            "      --verify             then run perturbation trials around the optimum\n"
            "      --trials N           verify: number of trials, 1 <= N <= %d (%d)\n"
            "      --perturb R          verify: radius of the perturbation ball, R >= 0 (%g)\n"
            "      --steps S            verify: periods per trial, 1 <= S <= %d (%d);\n"
            "                           N x S at most %d\n"
            "      --tol E              verify: a trial converged if its final error < E,\n"
            "                           E > 0 (%g)\n"
            "      --json               print one JSON object instead of text\n"
            CLI_NO_CHECK_DERIVATIVES_HELP
            "  -h, --help               show this help\n"
            "--trials, --perturb, --steps and --tol imply --verify.  --start and --bounds\n"
            "take each shape parameter once.\n",
            CLI_MAX_STARTS, DEFAULT_STARTS, trial_defaults.seed, CLI_MAX_EVALS, DEFAULT_MAXEVAL,
            CLI_MAX_TRIALS, trial_defaults.trials, trial_defaults.perturb, CLI_MAX_STEPS,
            trial_defaults.steps, CLI_MAX_TRIAL_STEPS, trial_defaults.tol);
}

enum {
    OPT_START = 256, OPT_BOUNDS, OPT_ALGORITHM, OPT_STARTS, OPT_SEED, OPT_MEASURE,
    OPT_FD_GRADIENT, OPT_NO_POLISH, OPT_MAXEVAL, OPT_VERIFY, OPT_TRIALS,
    OPT_PERTURB, OPT_STEPS, OPT_TOL, OPT_JSON
};

/* Parses the value of one option with an argument into opts; 0 or
 * CLI_EXIT_USAGE. */
static int parse_option_value(int c, const char *text, shape_cli_opts *opts)
{
    switch (c) {
    case OPT_ALGORITHM:
        /* checked by the library (HES_EINVAL for an unknown name) */
        opts->algorithm = text;
        return 0;
    case OPT_STARTS:
        return cli_int_option(CMD, "--starts", text, 1, CLI_MAX_STARTS, &opts->starts);
    case OPT_MEASURE:
        if (hes_measure_from_name(text, &opts->measure) != HES_OK)
            return cli_bad_value(CMD, "--measure", text, "'psi' or 'smooth'");
        return 0;
    case OPT_MAXEVAL:
        return cli_int_option(CMD, "--maxeval", text, 1, CLI_MAX_EVALS, &opts->maxeval);
    case OPT_SEED:
        return cli_parse_trial_option(CMD, "--seed", text, &opts->t);
    case OPT_TRIALS:
    case OPT_PERTURB:
    case OPT_STEPS:
    case OPT_TOL:
        opts->verify = 1;
        return cli_parse_trial_option(CMD, c == OPT_TRIALS ? "--trials" : c == OPT_PERTURB
                                      ? "--perturb" : c == OPT_STEPS ? "--steps" : "--tol",
                                      text, &opts->t);
    default:
        return CLI_EXIT_USAGE;
    }
}

/* ------------------------------------------------- start values and bounds */

static void print_shape_params(FILE *out, const hes_model *m)
{
    int i, k = 0;

    fprintf(out, "hes: shape parameters of '%s':", m->name);
    for (i = 0; i < m->n_params; i++)
        if (m->params[i].flags & HES_PARAM_SHAPE)
            fprintf(out, "%s %s", k++ ? "," : "", m->params[i].name);
    fputc('\n', out);
}

static void shape_arrays_free(shape_arrays *a)
{
    free(a->param);
    free(a->start);
    free(a->lo);
    free(a->hi);
    memset(a, 0, sizeof *a);
}

/* The shape parameters of the model in model order, every start value and
 * bound NaN: the library's default (the system's value, the model's search
 * bounds) unless --start or --bounds gives one.  0, or CLI_EXIT_FAILURE
 * after printing why. */
static int shape_arrays_init(shape_arrays *a, const hes_system *sys)
{
    int i, n = 0, np = hes_system_n_params(sys);

    memset(a, 0, sizeof *a);
    for (i = 0; i < np; i++)
        n += (hes_system_param_info(sys, i)->flags & HES_PARAM_SHAPE) != 0;
    a->param = malloc(sizeof *a->param * (size_t)(n + 1));
    a->start = malloc(sizeof *a->start * (size_t)(n + 1));
    a->lo = malloc(sizeof *a->lo * (size_t)(n + 1));
    a->hi = malloc(sizeof *a->hi * (size_t)(n + 1));
    if (!a->param || !a->start || !a->lo || !a->hi) {
        shape_arrays_free(a);
        fprintf(stderr, "hes: out of memory\n");
        return CLI_EXIT_FAILURE;
    }
    for (i = 0; i < np; i++) {
        if (hes_system_param_info(sys, i)->flags & HES_PARAM_SHAPE) {
            a->param[a->n] = i;
            a->start[a->n] = a->lo[a->n] = a->hi[a->n] = NAN;
            a->n++;
        }
    }
    return 0;
}

/* Splits "NAME=REST" of `option` and finds NAME among the shape parameters:
 * returns j (its index in a) and *rest, or -1 after printing why. */
static int find_shape_param(const hes_model *m, const shape_arrays *a,
                            const char *option, const char *item, const char **rest)
{
    const char *eq = strchr(item, '=');
    size_t len;
    int i, j;

    if (!eq || eq == item) {
        fprintf(stderr, "hes shape: %s expects NAME=%s, got '%s'\n", option,
                strcmp(option, "--bounds") == 0 ? "LO:HI" : "VALUE", item);
        return -1;
    }
    len = (size_t)(eq - item);
    for (j = 0; j < a->n; j++) {
        const char *name = m->params[a->param[j]].name;

        if (strlen(name) == len && strncmp(name, item, len) == 0) {
            *rest = eq + 1;
            return j;
        }
    }
    for (i = 0; i < m->n_params; i++)
        if (strlen(m->params[i].name) == len && strncmp(m->params[i].name, item, len) == 0)
            break;
    if (i < m->n_params)
        fprintf(stderr, "hes shape: %s: '%.*s' is not a shape parameter of '%s'\n",
                option, (int)len, item, m->name);
    else
        fprintf(stderr, "hes shape: %s: unknown parameter '%.*s' for problem '%s'\n",
                option, (int)len, item, m->name);
    print_shape_params(stderr, m);
    return -1;
}

/* Applies the --start and --bounds items (hes_shape_optimize checks that
 * every parameter has bounds and a start inside them).  0 or CLI_EXIT_USAGE
 * after printing. */
static int apply_starts_bounds(shape_arrays *a, const hes_model *m,
                               const cli_assignments *starts,
                               const cli_assignments *bounds)
{
    unsigned char *given = calloc((size_t)a->n, 1), *started = calloc((size_t)a->n, 1);
    const char *rest;
    char lo_text[64];
    const char *colon;
    double v, lo, hi;
    int i, j, parsed, rc = 0;

    if (!given || !started) {
        free(given);
        free(started);
        fprintf(stderr, "hes: out of memory\n");
        return CLI_EXIT_FAILURE;
    }
    for (i = 0; rc == 0 && i < starts->n; i++) {
        if ((j = find_shape_param(m, a, "--start", starts->items[i], &rest)) < 0) {
            rc = CLI_EXIT_USAGE;
        } else if (started[j]) {
            fprintf(stderr, "hes shape: --start %s given twice (one start value each)\n",
                    m->params[a->param[j]].name);
            rc = CLI_EXIT_USAGE;
        } else if ((parsed = cli_parse_double(rest, &v)) != 0) {
            fprintf(stderr, "hes shape: --start %s: '%s' is not a %snumber\n",
                    starts->items[i], rest, parsed == -2 ? "finite " : "");
            rc = CLI_EXIT_USAGE;
        } else {
            a->start[j] = v;
            started[j] = 1;
        }
    }
    for (i = 0; rc == 0 && i < bounds->n; i++) {
        if ((j = find_shape_param(m, a, "--bounds", bounds->items[i], &rest)) < 0) {
            rc = CLI_EXIT_USAGE;
            break;
        }
        if (given[j]) {
            fprintf(stderr, "hes shape: --bounds %s given twice (one pair of bounds each)\n",
                    m->params[a->param[j]].name);
            rc = CLI_EXIT_USAGE;
            break;
        }
        colon = strchr(rest, ':');
        if (!colon || (size_t)(colon - rest) >= sizeof lo_text) {
            fprintf(stderr, "hes shape: --bounds %s: expected LO:HI\n", bounds->items[i]);
            rc = CLI_EXIT_USAGE;
            break;
        }
        memcpy(lo_text, rest, (size_t)(colon - rest));
        lo_text[colon - rest] = '\0';
        if (cli_parse_double(lo_text, &lo) != 0 || cli_parse_double(colon + 1, &hi) != 0) {
            fprintf(stderr, "hes shape: --bounds %s: LO and HI must be finite numbers\n",
                    bounds->items[i]);
            rc = CLI_EXIT_USAGE;
        } else {
            a->lo[j] = lo;
            a->hi[j] = hi;
            given[j] = 1;
        }
    }
    free(given);
    free(started);
    return rc;
}

/* ---------------------------------------------------------------- progress */

typedef struct {
    cli_progress line;       /* the terminal's progress line */
    int last;                /* evaluations at the last redraw */
} progress_state;

/* hes_shape_options.progress: called after every evaluation with a gradient
 * or value; the count may advance by more than 1 between calls. */
static void progress(int evaluations, double best, void *data)
{
    progress_state *ps = data;
    char line[96];

    if (evaluations - ps->last < PROGRESS_EVERY)
        return;
    ps->last = evaluations;
    snprintf(line, sizeof line, "  evaluation %d, best %.9g", evaluations, best);
    fprintf(stderr, "\r%-56s", line);
    fflush(stderr);
    ps->line.shown = 1;
}

/* ------------------------------------------------------------------ output */

static const char *gradient_words(int gradient)
{
    if (gradient == 1)
        return "analytic gradients (eigenvalue perturbation)";
    if (gradient == 0)
        return "finite-difference gradients (central differences of the measure)";
    return "no gradients (derivative-free algorithm)";
}

static void print_text(const hes_system *sys, const hes_shape_result *res,
                       const shape_cli_opts *opts,
                       const hes_trials *trials)
{
    const hes_model *m = hes_system_model(sys);
    const hes_stability *st = &res->analysis.stab;
    char range[64];
    int j, k, w = 4;

    printf("problem: %s\n", m->name);

    for (j = 0; j < res->n; j++)
        if ((int)strlen(m->params[res->param[j]].name) > w)
            w = (int)strlen(m->params[res->param[j]].name);
    printf("\nshape parameters:\n");
    printf("  %-*s %16s %20s  %s\n", w, "name", "start", "optimum", "bounds");
    for (j = 0; j < res->n; j++) {
        const hes_param *hp = &m->params[res->param[j]];

        snprintf(range, sizeof range, "[%g, %g]", res->lo[j], res->hi[j]);
        printf("  %-*s %16.10g %20.14g  %s", w, hp->name, res->start[j], res->h[j], range);
        if (hp->unit && hp->unit[0] && strcmp(hp->unit, "1") != 0)
            printf(" %s", hp->unit);
        printf("\n");
    }

    printf("\npsi at the start:   %.12g\n", res->psi_initial);
    printf("psi at the optimum: %.12g (full re-analysis of the orbit)\n", res->psi);
    if (opts->measure == HES_MEASURE_SMOOTH)
        printf("smooth measure at the optimum: %.12g (%d-norm of the multiplier moduli)\n",
               res->measure, HES_SMOOTH_P);
    cli_print_verdict(&res->analysis.stab);
    if (res->analysis.stab.verdict != HES_STABLE)
        printf("(at the optimum: these bounds do not stabilise the orbit)\n");

    printf("\nsearch: %s from %d start%s (seed %lu), at most %d evaluations each",
           res->algorithm, res->starts, res->starts == 1 ? "" : "s", opts->t.seed,
           opts->maxeval);
    if (res->polish[0])
        printf(", then %s polish", res->polish);
    printf("\n");
    printf("  %d evaluations of %s, %s\n", res->evaluations,
           opts->measure == HES_MEASURE_SMOOTH ? "the smooth measure" : "psi",
           gradient_words(res->gradient));
    if (res->gradient == 1)
        printf("  %d of the gradients fell back to finite differences (a repeated or "
               "defective multiplier)\n", res->fallbacks);

    printf("\nmultipliers at the optimum (nontrivial, by modulus):\n");
    printf("  %20s %20s %20s\n", "re", "im", "|.|");
    for (k = 0; k < st->n_mult; k++)
        printf("  % 20.12e % 20.12e % 20.12e\n", st->re[k], st->im[k], st->abs[k]);

    if (trials) {
        printf("\nverify: %d of %d perturbed trials converged (radius %g, %d periods)\n",
               trials->converged, trials->n_trials, trials->radius, trials->steps);
        if (trials->converged < trials->n_trials)
            printf("  (final error below %g counts as converged)\n", trials->tol);
        const char *why = hes_trials_contradiction(st->verdict, trials);
        if (why)
            printf("  note: %s\n", why);
    }
}

/* Optimisation, verification, output; the system and arrays are set up. */
static int run(hes_system *sys, const shape_arrays *a, const shape_cli_opts *opts)
{
    progress_state ps = {{NULL, 0, 0}, 0};
    hes_shape_options so;
    hes_shape_options_init(&so);
    hes_shape_result res;
    hes_trials trials;
    char what[96];
    hes_status st;
    int rc;

    so.n = 0;                /* every shape parameter, in model order */
    so.names = NULL;
    so.start = a->start;
    so.lo = a->lo;
    so.hi = a->hi;
    so.algorithm = opts->algorithm;
    so.starts = opts->starts;
    so.seed = opts->t.seed;
    so.measure = opts->measure;
    so.gradient = !opts->fd_gradient;
    so.polish = opts->polish;
    so.maxeval = opts->maxeval;
    cli_progress_init(&ps.line, CMD);
    if (ps.line.tty) {
        so.progress = progress;
        so.progress_data = &ps;
    }
    cli_progress_say(&ps.line, "optimising the shape parameters ...");
    st = hes_shape_optimize(sys, &so, &res);
    cli_progress_clear(&ps.line);
    if (st == HES_OK && (st = hes_shape_result_apply(sys, &res)) != HES_OK)
        hes_shape_result_free(&res); /* the trials and the output are at the optimum */
    if (st != HES_OK)
        return cli_report_status(st, sys);

    if (opts->verify) {
        snprintf(what, sizeof what, "verifying: %d trials of %d periods ...",
                 opts->t.trials, opts->t.steps);
        cli_progress_say(&ps.line, what);
        st = hes_trials_run(sys, &res.analysis.orbit, opts->t.trials, opts->t.perturb,
                            opts->t.steps, opts->t.seed, opts->t.tol, &trials);
        cli_progress_clear(&ps.line);
        if (st != HES_OK) {
            rc = cli_report_status(st, sys);
            hes_shape_result_free(&res);
            return rc;
        }
    }

    if (opts->json) {
        rc = cli_print_document(CMD, hes_shape_json(sys, &res, opts->measure,
                                                     opts->verify ? &trials : NULL));
    } else {
        print_text(sys, &res, opts, opts->verify ? &trials : NULL);
        rc = CLI_EXIT_OK;
    }
    if (opts->verify)
        hes_trials_free(&trials);
    hes_shape_result_free(&res);
    return rc;
}

int cmd_shape(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"param", required_argument, NULL, 'p'},
        CLI_NO_CHECK_DERIVATIVES_OPTION,
        {"start", required_argument, NULL, OPT_START},
        {"bounds", required_argument, NULL, OPT_BOUNDS},
        {"algorithm", required_argument, NULL, OPT_ALGORITHM},
        {"starts", required_argument, NULL, OPT_STARTS},
        {"seed", required_argument, NULL, OPT_SEED},
        {"measure", required_argument, NULL, OPT_MEASURE},
        {"fd-gradient", no_argument, NULL, OPT_FD_GRADIENT},
        {"no-polish", no_argument, NULL, OPT_NO_POLISH},
        {"maxeval", required_argument, NULL, OPT_MAXEVAL},
        {"verify", no_argument, NULL, OPT_VERIFY},
        {"trials", required_argument, NULL, OPT_TRIALS},
        {"perturb", required_argument, NULL, OPT_PERTURB},
        {"steps", required_argument, NULL, OPT_STEPS},
        {"tol", required_argument, NULL, OPT_TOL},
        {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}
    };
    shape_cli_opts opts = {NULL, DEFAULT_STARTS, HES_MEASURE_PSI, 0, 1, DEFAULT_MAXEVAL, 0,
                           CLI_TRIAL_DEFAULTS, 0};
    cli_assignments params, starts, bounds;
    const hes_model *model = NULL;
    hes_system *sys = NULL;
    shape_arrays arrays = {0, NULL, NULL, NULL, NULL};
    int c, rc = CLI_EXIT_OK;
    unsigned char seen[CLI_OPTION_CODES] = {0};

    cli_assignments_init(&params);
    cli_assignments_init(&starts);
    cli_assignments_init(&bounds);
    optind = 1;
    while (rc == CLI_EXIT_OK &&
           (c = getopt_long(argc, argv, "p:h", longopts, NULL)) != -1) {
        if ((c == OPT_ALGORITHM || c == OPT_STARTS || c == OPT_SEED || c == OPT_MEASURE ||
             c == OPT_MAXEVAL || c == OPT_TRIALS || c == OPT_PERTURB || c == OPT_STEPS ||
             c == OPT_TOL) && (rc = cli_once(argv[0], longopts, c, seen)) != CLI_EXIT_OK)
            break;
        switch (c) {
        case CLI_OPT_NO_CHECK_DERIVATIVES:
            params.no_check_derivatives = 1;
            break;
        case 'p':
            if (cli_assignments_add(&params, optarg) != 0)
                rc = CLI_EXIT_FAILURE;
            break;
        case OPT_START:
            if (cli_assignments_add(&starts, optarg) != 0)
                rc = CLI_EXIT_FAILURE;
            break;
        case OPT_BOUNDS:
            if (cli_assignments_add(&bounds, optarg) != 0)
                rc = CLI_EXIT_FAILURE;
            break;
        case OPT_ALGORITHM:
        case OPT_STARTS:
        case OPT_SEED:
        case OPT_MEASURE:
        case OPT_MAXEVAL:
        case OPT_TRIALS:
        case OPT_PERTURB:
        case OPT_STEPS:
        case OPT_TOL:
            rc = parse_option_value(c, optarg, &opts);
            break;
        case OPT_FD_GRADIENT:
            opts.fd_gradient = 1;
            break;
        case OPT_NO_POLISH:
            opts.polish = 0;
            break;
        case OPT_VERIFY:
            opts.verify = 1;
            break;
        case OPT_JSON:
            opts.json = 1;
            break;
        case 'h':
            cli_assignments_free(&params);
            cli_assignments_free(&starts);
            cli_assignments_free(&bounds);
            cmd_shape_usage(stdout);
            return CLI_EXIT_OK;
        default:
            cmd_shape_usage(stderr);
            rc = CLI_EXIT_USAGE;
            break;
        }
    }
    if (rc == CLI_EXIT_OK && opts.fd_gradient && opts.algorithm && strlen(opts.algorithm) > 2 &&
        opts.algorithm[1] == 'N' && opts.algorithm[2] == '_') {
        fprintf(stderr, "hes shape: --fd-gradient: --algorithm %s uses no gradient\n",
                opts.algorithm);
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && seen[OPT_STARTS] && opts.starts > 1 && opts.algorithm &&
        opts.algorithm[0] == 'G') {
        fprintf(stderr, "hes shape: --starts: the global algorithm %s searches the bounds once "
                "(no starts)\n", opts.algorithm);
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK)
        rc = cli_check_trial_total(CMD, &opts.t);
    if (rc == CLI_EXIT_OK && argc - optind != 1) {
        fprintf(stderr, "hes shape: expected exactly one PROBLEM\n");
        cmd_shape_usage(stderr);
        rc = CLI_EXIT_USAGE;
    }
    /* a system of either kind: hes_shape_optimize says what it needs */
    if (rc == CLI_EXIT_OK)
        sys = cli_system_for(argv[optind], &params, &rc);
    model = hes_system_model(sys);
    if (sys && (rc = shape_arrays_init(&arrays, sys)) == CLI_EXIT_OK && model)
        rc = apply_starts_bounds(&arrays, model, &starts, &bounds);
    cli_assignments_free(&params);
    cli_assignments_free(&starts);
    cli_assignments_free(&bounds);
    if (rc == CLI_EXIT_OK)
        rc = run(sys, &arrays, &opts);
    shape_arrays_free(&arrays);
    hes_system_destroy(sys);
    return rc;
}
