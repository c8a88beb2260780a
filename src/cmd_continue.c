/*
 * cmd_continue.c - `hes continue`: the periodic orbit of a problem followed
 * as one parameter moves (hes_continue), its stability along the way and
 * the labelled points where it changes, with --doublings N the branches
 * of doubled returns born at its period doublings (hes_continue_doubled),
 * N deep, and with --param2 NAME2=TO2 the curve of each bifurcation of
 * those branches in the plane of the two parameters (hes_continue_curve):
 *
 *   hes continue PROBLEM [-p NAME=VALUE]... --param NAME=FROM:TO
 *                [--step H] [--min-step H] [--max-step H] [--tol T]
 *                [--max-points N] [--max-jump R] [--method M] [--returns K]
 *                [--start X1,X2,...] [--start-at V [--jobs N]] [--doublings N]
 *                [--param2 NAME2=TO2 [--step2 H] [--min-step2 H] [--max-step2 H]]
 *                [--json | --csv] [-q]
 *   hes continue PROBLEM [-p NAME=VALUE]... --resume FILE.json [--param NAME=FROM:TO] ...
 *
 * --start-at V follows the orbit at V both ways (hes_continue_both) and
 * joins the two into one branch from FROM to TO; --resume continues the
 * first branch of an earlier --json document (hes_continuation_read,
 * hes_continue_resume).  SIGINT stops the branch being followed at its
 * last point (through the progress callback); what was found is printed
 * and the exit status is 130.
 * --param with a colon in its value names the parameter followed; without
 * one it sets a parameter, as -p does everywhere.  This file reads the
 * command line, makes the system and follows the branches; they are
 * printed by continue_print.c.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cmd_continue.h"

#define CMD "hes continue"

enum { OPT_STEP = 256, OPT_MIN_STEP, OPT_MAX_STEP, OPT_TOL, OPT_MAX_POINTS, OPT_MAX_JUMP,
       OPT_METHOD, OPT_RETURNS, OPT_START, OPT_DOUBLINGS, OPT_PARAM2, OPT_STEP2,
       OPT_MIN_STEP2, OPT_MAX_STEP2, OPT_JSON, OPT_CSV, OPT_START_AT, OPT_JOBS, OPT_RESUME,
       OPT_CORRECTOR, OPT_NODES };

/* The exit status after SIGINT stopped the branches (128 + SIGINT, as a
 * shell reports a process killed by it). */
#define EXIT_INTERRUPTED 130

static const struct argp_option options[] = {
    {NULL, 0, NULL, 0, "The parameter followed: -p/--param NAME=FROM:TO (exactly one; a value "
     "without a colon sets a parameter as elsewhere).", 1},
    {"step", OPT_STEP, "H", 0, "the first step in the parameter, H > 0 (default (TO - FROM) / "
     "50)", 1},
    {"min-step", OPT_MIN_STEP, "H", 0, "the smallest step before the branch is given up, H > 0 "
     "(default 1e-6 |TO - FROM|)", 1},
    {"max-step", OPT_MAX_STEP, "H", 0, "the largest step, H >= the first step (default (TO - "
     "FROM) / 10)", 1},
    {"tol", OPT_TOL, "T", 0, "a labelled point is located to T in the parameter, T > 0 "
     "(default 1e-8 max(1, |FROM|, |TO|))", 1},
    {"max-points", OPT_MAX_POINTS, "N", 0, "the most points of a branch, 2 to 100000 (default "
     "1000)", 1},
    {"max-jump", OPT_MAX_JUMP, "R", 0, "a point is kept when its state and period lie within R "
     "of the predictor's, relative to the step (else the step halves), R > 0 (default 0.5)", 1},
    {"method", OPT_METHOD, "M", 0, "auto (the default: arclength, or natural where the "
     "orbit's state has a quaternion or is solved modulo symmetries), natural (the parameter "
     "itself: the branch ends at a fold) or arclength (pseudo-arclength: around folds)", 1},
    {"corrector", OPT_CORRECTOR, "C", 0, "shooting (the default) or collocation: each orbit by "
     "direct collocation from the last one's, then shooting from it for the multipliers (long "
     "or very unstable orbits; an autonomous orbit of one return, natural steps)", 1},
    {"nodes", OPT_NODES, "N", 0, "the collocation corrector's nodes per phase, 3 to 1001 "
     "(default 21)", 1},
    {"returns", OPT_RETURNS, "K", 0, "follow an orbit of K returns to the section per period, "
     "1 to 64 (default 1)", 1},
    {"start", OPT_START, "X1,X2,...", 0, "start the first orbit search from this section state "
     "(every component of the orbit's mode, see 'hes info') instead of the model's guess", 1},
    {"start-at", OPT_START_AT, "V", 0, "follow the orbit at V (between FROM and TO) both ways, "
     "the two directions on two threads, printed as one branch from FROM to TO", 1},
    {"jobs", OPT_JOBS, "N", 0, "with --start-at: 2 (the default) follows the two directions on "
     "two threads, 1 one after the other (the same points)", 1},
    {"resume", OPT_RESUME, "FILE.json", 0, "continue the first branch of a document of 'hes "
     "continue --json' (e.g. one stopped by Ctrl-C or --max-points) from its last two points "
     "towards TO (without --param: the document's); give PROBLEM and -p as for that run", 1},
    {"doublings", OPT_DOUBLINGS, "N", 0, "also follow the branch of doubled returns born at "
     "each period doubling (PD), and theirs, N deep, 0 to 6 (default 0)", 1},
    {"param2", OPT_PARAM2, "NAME2=TO2", 0, "also follow each bifurcation (SN, BP, PD, NS) and "
     "grazing (GR) of the branches as the parameter NAME2 goes from its value towards TO2: "
     "its curve in the plane of NAME and NAME2", 1},
    {"step2", OPT_STEP2, "H", 0, "a curve's first step in NAME2, H > 0 (default (TO2 - "
     "NAME2's value) / 50; --step is the branches' only)", 1},
    {"min-step2", OPT_MIN_STEP2, "H", 0, "a curve's smallest step in NAME2 before it ends, "
     "H > 0 (default 1e-6 of its range)", 1},
    {"max-step2", OPT_MAX_STEP2, "H", 0, "a curve's largest step in NAME2 (default a tenth of "
     "its range)", 1},
    {NULL, 0, NULL, 0, "Output (default: a table per branch and per curve):", 2},
    {"json", OPT_JSON, NULL, 0, "print one JSON document instead", 2},
    {"csv", OPT_CSV, NULL, 0, "print CSV instead: a header and a row per point", 2},
    {"quiet", 'q', NULL, 0, "no progress line and no notes on stderr", 2},
    {NULL, 0, NULL, 0, NULL, 0}
};

typedef struct {
    cli_args cli;
    hes_continuation_options co;
    int returns, doublings, json, csv, quiet;
    const char *start_text;
    const char *start_at_text;   /* --start-at V */
    double start_at;
    int jobs;                    /* --jobs: 1 or 2 (0: not given) */
    const char *resume_path;     /* --resume FILE.json */
    const char *param2_text;     /* --param2 NAME2=TO2 */
    double step2, min_step2, max_step2; /* 0: the library's defaults */
} continue_cli;

/* A value of an option that must be a finite number > 0 into *v. */
static int positive_option(const char *option, const char *text, double *v)
{
    if (cli_parse_double(text, v) == 0 && *v > 0 && isfinite(*v))
        return 0;
    cli_bad_value(CMD, option, text, "a finite number > 0");
    return CLI_ARG_REFUSED;
}

static error_t parse_option(int key, char *arg, struct argp_state *state)
{
    continue_cli *o = state->input;

    if (cli_arg_once(state, key))
        return CLI_ARG_REFUSED;
    switch (key) {
    case OPT_STEP:     return positive_option("--step", arg, &o->co.step);
    case OPT_MIN_STEP: return positive_option("--min-step", arg, &o->co.min_step);
    case OPT_MAX_STEP: return positive_option("--max-step", arg, &o->co.max_step);
    case OPT_TOL:      return positive_option("--tol", arg, &o->co.tol);
    case OPT_MAX_JUMP: return positive_option("--max-jump", arg, &o->co.max_jump);
    case OPT_MAX_POINTS:
        return cli_int_option(CMD, "--max-points", arg, 2, 100000, &o->co.max_points)
               ? CLI_ARG_REFUSED : 0;
    case OPT_CORRECTOR:
        if (strcmp(arg, "shooting") == 0)
            o->co.corrector = HES_CORRECT_SHOOTING;
        else if (strcmp(arg, "collocation") == 0)
            o->co.corrector = HES_CORRECT_COLLOCATION;
        else {
            cli_bad_value(CMD, "--corrector", arg, "shooting or collocation");
            return CLI_ARG_REFUSED;
        }
        return 0;
    case OPT_NODES:
        return cli_int_option(CMD, "--nodes", arg, 3, 1001, &o->co.colloc_nodes)
               ? CLI_ARG_REFUSED : 0;
    case OPT_RETURNS:
        return cli_int_option(CMD, "--returns", arg, 1, 64, &o->returns) ? CLI_ARG_REFUSED : 0;
    case OPT_DOUBLINGS:
        return cli_int_option(CMD, "--doublings", arg, 0, 6, &o->doublings)
               ? CLI_ARG_REFUSED : 0;
    case OPT_METHOD:
        if (strcmp(arg, "auto") == 0)
            o->co.method = HES_CONT_AUTO;
        else if (strcmp(arg, "natural") == 0)
            o->co.method = HES_CONT_NATURAL;
        else if (strcmp(arg, "arclength") == 0)
            o->co.method = HES_CONT_ARCLENGTH;
        else {
            cli_bad_value(CMD, "--method", arg, "auto, natural or arclength");
            return CLI_ARG_REFUSED;
        }
        return 0;
    case OPT_STEP2:     return positive_option("--step2", arg, &o->step2);
    case OPT_MIN_STEP2: return positive_option("--min-step2", arg, &o->min_step2);
    case OPT_MAX_STEP2: return positive_option("--max-step2", arg, &o->max_step2);
    case OPT_START_AT:
        if (cli_parse_double(arg, &o->start_at) != 0) {
            cli_bad_value(CMD, "--start-at", arg, "a finite number");
            return CLI_ARG_REFUSED;
        }
        o->start_at_text = arg;
        return 0;
    case OPT_JOBS:
        return cli_int_option(CMD, "--jobs", arg, 1, 2, &o->jobs) ? CLI_ARG_REFUSED : 0;
    case OPT_RESUME:   o->resume_path = arg; return 0;
    case OPT_PARAM2:   o->param2_text = arg; return 0;
    case OPT_START:    o->start_text = arg; return 0;
    case OPT_JSON:     o->json = 1; return 0;
    case OPT_CSV:      o->csv = 1; return 0;
    case 'q':          o->quiet = 1; return 0;
    default:
        return ARGP_ERR_UNKNOWN;
    }
}

static const struct argp continue_argp = {
    options, parse_option,
    "PROBLEM --param NAME=FROM:TO",
    "Follow the periodic orbit of PROBLEM as the parameter NAME goes from FROM to TO: a point "
    "per orbit with its period, psi and verdict, and labelled points where the stability "
    "changes (SN, BP, PD, NS), where a guard is grazed (GR), where the event sequence changes "
    "(SEQ), where two events coincide (SIM) and at the ends (EP).  --model PATH.so and --robot DESC.json stand for PROBLEM.",
    NULL, NULL, NULL
};

/* The followed parameter "NAME=FROM:TO" among the -p items (the one with a
 * colon), taken out of the list so that the rest are set as usual: 0 with
 * *name (malloc'd), *from and *to, or CLI_EXIT_USAGE after a message.
 * optional (--resume): without one, 0 and *name NULL. */
static int take_followed(cli_assignments *params, int optional, char **name, double *from,
                         double *to)
{
    const char *spec = NULL;
    int kept = 0;

    for (int i = 0; i < params->n; i++) {
        const char *eq = strchr(params->items[i], '=');
        if (!eq || !strchr(eq, ':')) {
            params->items[kept++] = params->items[i];
            continue;
        }
        if (spec) {
            fprintf(stderr, CMD ": --param %s and --param %s: one parameter is followed (give "
                    "the others as NAME=VALUE)\n", spec, params->items[i]);
            return CLI_EXIT_USAGE;
        }
        spec = params->items[i];
    }
    params->n = kept;
    if (!spec && optional)
        return CLI_EXIT_OK;      /* --resume: the document's */
    if (!spec) {
        fprintf(stderr, CMD ": which parameter? give --param NAME=FROM:TO (see 'hes info "
                "PROBLEM' for the parameters)\n");
        return CLI_EXIT_USAGE;
    }
    const char *eq = strchr(spec, '='), *colon = strchr(eq, ':');
    char *text = strdup(spec);
    if (!text) {
        fprintf(stderr, CMD ": out of memory\n");
        return CLI_EXIT_FAILURE;
    }
    text[eq - spec] = '\0';
    text[colon - spec] = '\0';
    const char *a = text + (eq - spec) + 1, *b = text + (colon - spec) + 1;
    if (eq == spec || cli_parse_double(a, from) != 0 || cli_parse_double(b, to) != 0) {
        fprintf(stderr, CMD ": --param %s: expected NAME=FROM:TO with two finite numbers\n",
                spec);
        free(text);
        return CLI_EXIT_USAGE;
    }
    if (*from == *to) {
        fprintf(stderr, CMD ": --param %s: FROM and TO are the same value; nothing to follow\n",
                spec);
        free(text);
        return CLI_EXIT_USAGE;
    }
    *name = text; /* NAME: the text up to its '=' */
    return CLI_EXIT_OK;
}

/* The followed parameter is one of the system's, and not also set by -p:
 * 0, or CLI_EXIT_USAGE after a message listing the parameters. */
static int check_param(const hes_system *sys, const char *name, const cli_assignments *params)
{
    int np = hes_system_n_params(sys), found = 0;
    for (int i = 0; i < np; i++)
        found |= strcmp(hes_system_param_info(sys, i)->name, name) == 0;
    if (!found) {
        fprintf(stderr, CMD ": --param %s: problem '%s' has no parameter '%s'; its parameters:",
                name, hes_system_name(sys), name);
        for (int i = 0; i < np; i++)
            fprintf(stderr, "%s %s", i ? "," : "", hes_system_param_info(sys, i)->name);
        fputc('\n', stderr);
        return CLI_EXIT_USAGE;
    }
    size_t len = strlen(name);
    for (int j = 0; j < params->n; j++)
        if (strncmp(params->items[j], name, len) == 0 && params->items[j][len] == '=') {
            fprintf(stderr, CMD ": -p %s: %s is the parameter followed\n", params->items[j],
                    name);
            return CLI_EXIT_USAGE;
        }
    return CLI_EXIT_OK;
}

/* --param2 NAME2=TO2: a parameter of sys other than the followed one, not
 * solved by the orbit search, with a finite TO2 other than its value; its
 * name (malloc'd) into *name, TO2 and its value into r.  0, or
 * CLI_EXIT_USAGE after a message. */
static int take_param2(const hes_system *sys, const continue_cli *o, cont_result *r,
                       char **name)
{
    const char *text = o->param2_text, *eq = strchr(text, '=');
    int np = hes_system_n_params(sys), k = -1;

    if (!eq || eq == text || cli_parse_double(eq + 1, &r->to2) != 0) {
        fprintf(stderr, CMD ": --param2 %s: expected NAME2=TO2 with a finite number\n", text);
        return CLI_EXIT_USAGE;
    }
    for (int i = 0; i < np; i++)
        if (strncmp(hes_system_param_info(sys, i)->name, text, (size_t)(eq - text)) == 0 &&
            hes_system_param_info(sys, i)->name[eq - text] == '\0')
            k = i;
    if (k < 0) {
        fprintf(stderr, CMD ": --param2 %s: problem '%s' has no parameter '%.*s'; its "
                "parameters:", text, hes_system_name(sys), (int)(eq - text), text);
        for (int i = 0; i < np; i++)
            fprintf(stderr, "%s %s", i ? "," : "", hes_system_param_info(sys, i)->name);
        fputc('\n', stderr);
        return CLI_EXIT_USAGE;
    }
    const char *pname = hes_system_param_info(sys, k)->name;
    if (strcmp(pname, r->param) == 0) {
        fprintf(stderr, CMD ": --param2 %s: %s is the parameter of the branches; the curves "
                "need a second one\n", text, pname);
        return CLI_EXIT_USAGE;
    }
    if (hes_system_param_info(sys, k)->flags & HES_PARAM_SOLVED) {
        fprintf(stderr, CMD ": --param2 %s: %s is solved by the orbit search\n", text, pname);
        return CLI_EXIT_USAGE;
    }
    hes_system_get_param(sys, pname, &r->from2);
    if (r->to2 == r->from2) {
        fprintf(stderr, CMD ": --param2 %s: %s is %.10g already; nothing to follow\n", text,
                pname, r->from2);
        return CLI_EXIT_USAGE;
    }
    if (!(*name = strdup(pname))) {
        fprintf(stderr, CMD ": out of memory\n");
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

/* --step2, --min-step2, --max-step2: with --param2 only, and in order. */
static int check_steps2(const continue_cli *o)
{
    if (!o->param2_text && (o->step2 > 0 || o->min_step2 > 0 || o->max_step2 > 0)) {
        fprintf(stderr, CMD ": --step2, --min-step2 and --max-step2 are the curves' steps; "
                "give --param2 NAME2=TO2 too\n");
        return CLI_EXIT_USAGE;
    }
    if ((o->step2 > 0 && o->max_step2 > 0 && o->max_step2 < o->step2) ||
        (o->step2 > 0 && o->min_step2 > o->step2) ||
        (o->max_step2 > 0 && o->min_step2 > o->max_step2)) {
        fprintf(stderr, CMD ": need --min-step2 <= --step2 <= --max-step2\n");
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

/* The section state's dimension and state names of sys (x[i] where the
 * model names none), and a hybrid model's transition names, into r: 0, or
 * the exit status after a message. */
static int state_names(const hes_system *sys, cont_result *r)
{
    const hes_model *m = hes_system_model(sys);
    const hes_ess_model *em = hes_system_ess_model(sys);
    int n = m ? m->modes[m->orbit.mode].dim : em->n;

    r->state_names = calloc((size_t)n, sizeof *r->state_names);
    if (!r->state_names) {
        fprintf(stderr, CMD ": out of memory\n");
        return CLI_EXIT_FAILURE;
    }
    r->n_states = n;
    for (int i = 0; i < n; i++) {
        const char *name = m ? cli_state_name(m, m->orbit.mode, i)
                             : em->state_names ? em->state_names[i] : NULL;
        char buf[32];
        if (!name) {
            snprintf(buf, sizeof buf, "x[%d]", i);
            name = buf;
        }
        if (!(r->state_names[i] = strdup(name))) {
            fprintf(stderr, CMD ": out of memory\n");
            return CLI_EXIT_FAILURE;
        }
    }
    if (!m || m->n_transitions <= 0)
        return CLI_EXIT_OK;
    if (!(r->guard_names = calloc((size_t)m->n_transitions, sizeof *r->guard_names))) {
        fprintf(stderr, CMD ": out of memory\n");
        return CLI_EXIT_FAILURE;
    }
    r->n_guards = m->n_transitions;
    for (int k = 0; k < m->n_transitions; k++)
        if (!(r->guard_names[k] = strdup(m->transitions[k].name))) {
            fprintf(stderr, CMD ": out of memory\n");
            return CLI_EXIT_FAILURE;
        }
    return CLI_EXIT_OK;
}

/* --start X1,X2,...: the section state the first orbit search starts from. */
static int apply_start(hes_system *sys, const char *text, int n)
{
    double *x0;
    int count, rc = cli_parse_vector(text, &x0, &count);
    if (rc == -2) {
        fprintf(stderr, CMD ": out of memory\n");
        return CLI_EXIT_FAILURE;
    }
    if (rc != 0) {
        fprintf(stderr, CMD ": --start '%s': expected comma-separated finite numbers\n", text);
        return CLI_EXIT_USAGE;
    }
    if (count != n) {
        fprintf(stderr, CMD ": --start has %d value%s, but the section state of '%s' has %d\n",
                count, count == 1 ? "" : "s", hes_system_name(sys), n);
        free(x0);
        return CLI_EXIT_USAGE;
    }
    hes_status st = hes_system_set_orbit_start(sys, x0);
    free(x0);
    return st == HES_OK ? CLI_EXIT_OK : cli_report_status(st, sys);
}

/* The system of PROBLEM with the fixed parameters, --returns and --start;
 * NULL with *rc after saying why.  param NULL (--resume without --param):
 * checked once the document is read. */
static hes_system *continue_system(const continue_cli *o, const char *param, cont_result *r,
                                   int *rc)
{
    const char *problem = o->cli.args[0];
    const hes_ess_model *em = cli_find_ess_problem(problem);
    const hes_model *m = em ? NULL : cli_find_problem(problem);

    *rc = CLI_EXIT_USAGE;
    if (!m && !em)
        return NULL;
    if ((m && !m->orbit.guess) || (em && !em->orbit_x0)) {
        fprintf(stderr, CMD ": problem '%s' has no periodic orbit to follow\n",
                m ? m->name : em->name);
        return NULL;
    }
    hes_system *sys = m ? cli_system_setup(m, &o->cli.params, rc)
                        : cli_system_setup_ess(em, &o->cli.params, rc);
    if (!sys)
        return NULL;
    if ((!param || (*rc = check_param(sys, param, &o->cli.params)) == CLI_EXIT_OK) &&
        (*rc = state_names(sys, r)) == CLI_EXIT_OK) {
        hes_status st = o->returns > 1 ? hes_system_set_orbit_returns(sys, o->returns) : HES_OK;
        if (st != HES_OK)
            fprintf(stderr, CMD ": --returns %d: %s\n", o->returns, hes_system_errmsg(sys));
        *rc = hes_status_exit_code(st);
        if (*rc == CLI_EXIT_OK && o->start_text)
            *rc = apply_start(sys, o->start_text, r->n_states);
    }
    if (*rc == CLI_EXIT_OK)
        return sys;
    hes_system_destroy(sys);
    return NULL;
}

/* ------------------------------------------------------------ stopping */

/* Set by SIGINT; the progress callbacks return it, which stops the branch
 * being followed at its last point (the library's "stopped by the
 * caller"). */
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* SIGINT stops the branches (SA_RESETHAND: a second one ends the program
 * as usual); left alone when it was ignored on entry (a background job of
 * a shell without job control).  The previous action into *old: 1, or 0
 * when it could not be read (nothing changed). */
static int catch_sigint(struct sigaction *old)
{
    struct sigaction sa;
    if (sigaction(SIGINT, NULL, old) != 0)
        return 0;
    if (old->sa_handler == SIG_IGN)
        return 1;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, NULL);
    return 1;
}

/* ------------------------------------------------------------ following */

/* The progress line: after every point kept. */
typedef struct {
    cli_progress line;
    int branch;                  /* the branch's or curve's number */
    int curve;                   /* 1: a curve */
} progress_ctx;

static int progress(void *ctx, const hes_continuation *c)
{
    progress_ctx *p = ctx;
    const hes_continuation_point *pt = &c->points[c->n_points - 1];
    char what[160];
    if (p->curve)
        snprintf(what, sizeof what, "curve %d: %d points, %.24s = %.6g, %.24s = %.6g",
                 p->branch, c->n_points, c->param2, pt->value2, c->param, pt->value);
    else
        snprintf(what, sizeof what, "branch %d: %d points, %.24s = %.6g, psi %.4g", p->branch,
                 c->n_points, c->param, pt->value, pt->psi);
    cli_progress_say(&p->line, what);
    return interrupted;
}

/* --start-at: the two directions may run on two threads at once, so no
 * progress line; only SIGINT is looked at. */
static int progress_both(void *ctx, const hes_continuation *c)
{
    (void)ctx;
    (void)c;
    return interrupted;
}

/* The status of a failed hes_continue or hes_continue_doubled: 2 for a
 * request refused, else the status's. */
static int failed(hes_status st, const char *what, const hes_error *err)
{
    fprintf(stderr, CMD ": %s%s\n", what, err->message);
    return hes_status_exit_code(st);
}

/* --start-at: the branch towards FROM (*f) and the one towards TO (*t),
 * both from V, as one branch from FROM to TO: f's points in reverse, then
 * t's after its first (V again, which f has); V is no longer an end.  The
 * arclength runs from f's far end (each half measured in its own run's
 * scale).  Reached when both were; why says which ended and why.  The
 * points move into *out; f and t are left empty.  0, or 1 out of memory. */
static int join_directions(const cont_result *r, hes_continuation *f, hes_continuation *t,
                           hes_continuation *out)
{
    int nf = f->n_points, nt = t->n_points;
    *out = *t;
    out->points = malloc(sizeof *out->points * (size_t)(nf + nt - 1));
    if (!out->points) {
        memset(out, 0, sizeof *out);
        hes_continuation_free(f);
        hes_continuation_free(t);
        fprintf(stderr, CMD ": out of memory\n");
        return CLI_EXIT_FAILURE;
    }
    double sf = f->points[nf - 1].s;
    for (int i = 0; i < nf; i++) {
        out->points[i] = f->points[nf - 1 - i];
        out->points[i].s = sf - f->points[nf - 1 - i].s;
    }
    if (out->points[nf - 1].label == HES_LABEL_EP)
        out->points[nf - 1].label = HES_LABEL_NONE;
    hes_continuation_point_free(&t->points[0]);
    for (int i = 1; i < nt; i++) {
        out->points[nf - 1 + i] = t->points[i];
        out->points[nf - 1 + i].s = sf + t->points[i].s;
    }
    out->n_points = nf + nt - 1;
    out->reached = f->reached && t->reached;
    if (!f->reached && !t->reached)
        snprintf(out->why, sizeof out->why, "towards %.32s = %.10g: %.150s; towards %.32s = "
                 "%.10g: %.150s", r->param, r->from, f->why, r->param, r->to, t->why);
    else if (!f->reached)
        snprintf(out->why, sizeof out->why, "towards %.32s = %.10g: %.300s", r->param, r->from,
                 f->why);
    else
        snprintf(out->why, sizeof out->why, "%s", t->why);
    free(f->points);
    free(t->points);
    memset(f, 0, sizeof *f);
    memset(t, 0, sizeof *t);
    return CLI_EXIT_OK;
}

/* With --param2, the curve of every bifurcation (SN, BP, PD, NS) and grazing (GR) of the
 * branches, after them in r->branches, in the order of the branches and
 * their points; the steps in the second parameter are --step2's, the
 * rest of the options the branches'.  A curve that fails is reported and
 * skipped.  The system is as it was for the branches: hes_continue and
 * hes_continue_doubled restore its parameters, and hes_continue_curve
 * starts from the point's parameter and state. */
static void follow_curves(hes_system *sys, const continue_cli *o, cont_result *r,
                          progress_ctx *pc)
{
    hes_continuation_options co = o->co;
    hes_error err;
    int n_plain = r->n_branches, k = 0;

    co.step = o->step2;
    co.min_step = o->min_step2;
    co.max_step = o->max_step2;
    co.progress = progress;
    co.progress_ctx = pc;
    pc->curve = 1;
    for (int b = 0; b < n_plain && !interrupted; b++) {
        const hes_continuation *c = &r->branches[b].c;
        for (int i = 0; i < c->n_points; i++) {
            hes_label l = c->points[i].label;
            if (l != HES_LABEL_SN && l != HES_LABEL_BP && l != HES_LABEL_PD &&
                l != HES_LABEL_NS && l != HES_LABEL_GR)
                continue;
            if (k == CONT_MAX_CURVES) {
                fprintf(stderr, CMD ": warning: more than %d curves; the %s at point %d of "
                        "branch %d is not followed\n", CONT_MAX_CURVES, hes_label_name(l), i, b);
                continue;
            }
            cont_branch *nc = &r->branches[r->n_branches];
            pc->branch = k;
            hes_status st = hes_continue_curve(sys, c, i, r->param2, r->to2, &co, &nc->c, &err);
            cli_progress_clear(&pc->line);
            if (st != HES_OK) {
                fprintf(stderr, CMD ": warning: no curve of the %s at point %d of branch %d in "
                        "(%s, %s): %s\n", hes_label_name(l), i, b, r->param, r->param2,
                        err.message);
                continue;
            }
            nc->curve = 1;
            nc->from_branch = b;
            nc->from_point = i;
            nc->depth = r->branches[b].depth;
            nc->returns = nc->c.returns > 0 ? nc->c.returns : r->branches[b].returns;
            r->n_branches++;
            k++;
        }
    }
}

/* The first branch (from FROM; with --start-at the two directions from V
 * joined; with --resume the document's branch continued: `resumed`), then
 * (--doublings) the branches switched at the period doublings of each
 * branch less than o->doublings deep, in the order found.  A switch that
 * fails is reported and skipped.  After SIGINT no further branch or curve
 * is started. */
static int follow(hes_system *sys, const continue_cli *o, cont_result *r,
                  const hes_continuation *resumed)
{
    hes_continuation_options co = o->co;
    progress_ctx pc = { .branch = 0 };
    hes_error err;

    cli_progress_init(&pc.line, CMD);
    if (o->quiet)
        pc.line.tty = 0;
    co.progress = progress;
    co.progress_ctx = &pc;
    cont_branch *b0 = &r->branches[0];
    b0->from_branch = b0->from_point = -1;
    hes_status st;
    if (resumed) {
        st = hes_continue_resume(sys, resumed, r->to, &co, &b0->c, &err);
    } else if (o->start_at_text) {
        hes_continuation down, up;
        co.progress = progress_both;
        st = hes_continue_both(sys, r->param, fmin(r->from, r->to), o->start_at,
                               fmax(r->from, r->to), &co, o->jobs ? o->jobs : 2, &down, &up,
                               &err);
        co.progress = progress;
        if (st == HES_OK) {
            int rc = join_directions(r, r->from < r->to ? &down : &up,
                                     r->from < r->to ? &up : &down, &b0->c);
            if (rc != CLI_EXIT_OK)
                return rc;
        }
    } else {
        st = hes_continue(sys, r->param, r->from, r->to, &co, &b0->c, &err);
    }
    cli_progress_clear(&pc.line);
    if (st != HES_OK)
        return failed(st, resumed ? "--resume: " : "", &err);
    b0->returns = b0->c.returns > 0 ? b0->c.returns : o->returns;
    r->n_branches = 1;
    for (int b = 0; b < r->n_branches && !interrupted; b++) {
        if (r->branches[b].depth >= o->doublings)
            continue;
        for (int i = b ? 1 : 0; i < r->branches[b].c.n_points; i++) {
            if (r->branches[b].c.points[i].label != HES_LABEL_PD)
                continue;
            if (r->n_branches == CONT_MAX_BRANCHES) {
                fprintf(stderr, CMD ": warning: more than %d branches; the period doubling at "
                        "point %d of branch %d is not followed\n", CONT_MAX_BRANCHES, i, b);
                continue;
            }
            cont_branch *nb = &r->branches[r->n_branches];
            pc.branch = r->n_branches;
            st = hes_continue_doubled(sys, &r->branches[b].c, i, r->to, &co, &nb->c, &err);
            cli_progress_clear(&pc.line);
            if (st != HES_OK) {
                fprintf(stderr, CMD ": warning: no branch switched at the period doubling at "
                        "point %d of branch %d: %s\n", i, b, err.message);
                continue;
            }
            nb->from_branch = b;
            nb->from_point = i;
            nb->depth = r->branches[b].depth + 1;
            nb->returns = nb->c.returns > 0 ? nb->c.returns : 2 * r->branches[b].returns;
            r->n_branches++;
        }
    }
    if (r->param2 && !interrupted)
        follow_curves(sys, o, r, &pc);
    return CLI_EXIT_OK;
}

/* How each branch and curve ended, on stderr (the table says it on
 * stdout). */
static void notes(const cont_result *r)
{
    for (int b = 0, k = 0; b < r->n_branches; b++) {
        const cont_branch *br = &r->branches[b];
        if (br->curve && !br->c.reached)
            fprintf(stderr, CMD ": curve %d (branch %d of the document) ended before %s = "
                    "%.10g: %s\n", k, b, r->param2, r->to2, br->c.why);
        else if (!br->curve && !br->c.reached)
            fprintf(stderr, CMD ": branch %d ended before %s = %.10g: %s\n", b, r->param, r->to,
                    br->c.why);
        k += br->curve;
    }
}

static void result_free(cont_result *r)
{
    for (int b = 0; b < r->n_branches; b++)
        hes_continuation_free(&r->branches[b].c);
    for (int i = 0; r->state_names && i < r->n_states; i++)
        free(r->state_names[i]);
    free(r->state_names);
    for (int k = 0; r->guard_names && k < r->n_guards; k++)
        free(r->guard_names[k]);
    free(r->guard_names);
}

/* --start-at V: with --param, strictly between FROM and TO, and not with
 * --resume; --jobs with --start-at only; --resume without --returns and
 * --start (the document has its branch's).  0, or CLI_EXIT_USAGE after a
 * message. */
static int check_modes(const continue_cli *o)
{
    if (o->jobs && !o->start_at_text) {
        fprintf(stderr, CMD ": --jobs is for --start-at's two directions\n");
        return CLI_EXIT_USAGE;
    }
    if (o->resume_path && (o->start_at_text || o->start_text || o->returns != 1)) {
        fprintf(stderr, CMD ": --resume continues the document's branch from its last points; "
                "--start-at, --start and --returns do not apply\n");
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

static int check_start_at(const continue_cli *o, const cont_result *r)
{
    if (o->start_at_text && !(fmin(r->from, r->to) < o->start_at &&
                              o->start_at < fmax(r->from, r->to))) {
        fprintf(stderr, CMD ": --start-at %s: V must lie strictly between FROM %.10g and TO "
                "%.10g\n", o->start_at_text, r->from, r->to);
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

/* --resume FILE.json: its first branch into *c, read against sys; the
 * parameter, FROM and TO from the document where --param did not give
 * them (*param set, malloc'd), else the same parameter and FROM as the
 * document's; the system's returns the branch's.  0, or the exit status
 * after a message (2 for a file refused). */
static int read_resumed(hes_system *sys, const continue_cli *o, char **param, cont_result *r,
                        hes_continuation *c)
{
    hes_error err;
    double from, to;
    hes_status st = hes_continuation_read(o->resume_path, sys, c, &from, &to, &err);
    if (st != HES_OK) {
        fprintf(stderr, CMD ": --resume: %s\n", err.message);
        return st == HES_ENOMEM ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
    }
    if (c->n_points < 2) {
        fprintf(stderr, CMD ": --resume %s: its branch has %d point; two are needed\n",
                o->resume_path, c->n_points);
        return CLI_EXIT_USAGE;
    }
    if (!*param) {
        if (!(*param = strdup(c->param))) {
            fprintf(stderr, CMD ": out of memory\n");
            return CLI_EXIT_FAILURE;
        }
        r->from = from;
        r->to = to;
        int rc = check_param(sys, *param, &o->cli.params);
        if (rc != CLI_EXIT_OK)
            return rc;
    } else if (strcmp(*param, c->param) != 0) {
        fprintf(stderr, CMD ": --resume %s follows %s, not %s (--param)\n", o->resume_path,
                c->param, *param);
        return CLI_EXIT_USAGE;
    } else if (r->from != from) {
        fprintf(stderr, CMD ": --resume %s: its branch is from %s = %.17g, not %.17g (--param's "
                "FROM)\n", o->resume_path, c->param, from, r->from);
        return CLI_EXIT_USAGE;
    }
    double last = c->points[c->n_points - 1].value;
    if (!((r->to - last) * (r->to - r->from) > 0)) {
        fprintf(stderr, CMD ": --resume %s: its branch ends at %s = %.10g, %s TO = %.10g\n",
                o->resume_path, c->param, last, last == r->to ? "already" : "past", r->to);
        return CLI_EXIT_USAGE;
    }
    st = hes_system_set_orbit_returns(sys, c->returns);
    if (st != HES_OK) {
        fprintf(stderr, CMD ": --resume %s: returns %d: %s\n", o->resume_path, c->returns,
                hes_system_errmsg(sys));
        return hes_status_exit_code(st);
    }
    return CLI_EXIT_OK;
}

/* After SIGINT: a branch the library stopped says so in words of the
 * program. */
static void say_stopped(cont_result *r)
{
    for (int b = 0; b < r->n_branches; b++) {
        hes_continuation *c = &r->branches[b].c;
        if (!c->reached && strstr(c->why, "stopped by the caller"))
            snprintf(c->why, sizeof c->why, "stopped: interrupted (SIGINT)");
    }
}

int cmd_continue(int argc, char **argv)
{
    continue_cli o = { .returns = 1 };
    cont_result r;
    char *param = NULL, *param2 = NULL;
    hes_system *sys = NULL;
    hes_continuation resumed;
    struct sigaction old_int;
    int caught = 0;

    memset(&r, 0, sizeof r);
    memset(&resumed, 0, sizeof resumed);
    hes_continuation_options_init(&o.co);
    int rc = cli_parse(&continue_argp, CLI_GROUP_PARAMS, argc, argv, &o.cli);
    if (rc != CLI_EXIT_OK || o.cli.done)
        goto done;
    if (o.json && o.csv) {
        fprintf(stderr, CMD ": --json and --csv exclude each other\n");
        rc = CLI_EXIT_USAGE;
        goto done;
    }
    if (o.cli.n_args != 1) {
        rc = cli_usage_error(&o.cli, "expected exactly one PROBLEM (or --model PATH.so, "
                             "--robot DESC.json)");
        goto done;
    }
    if ((rc = check_steps2(&o)) != CLI_EXIT_OK || (rc = check_modes(&o)) != CLI_EXIT_OK ||
        (rc = take_followed(&o.cli.params, o.resume_path != NULL, &param, &r.from, &r.to)) !=
        CLI_EXIT_OK || (rc = check_start_at(&o, &r)) != CLI_EXIT_OK)
        goto done;
    if (!(sys = continue_system(&o, param, &r, &rc)))
        goto done;
    if (o.resume_path && (rc = read_resumed(sys, &o, &param, &r, &resumed)) != CLI_EXIT_OK)
        goto done;
    r.param = param;
    if (o.param2_text && (rc = take_param2(sys, &o, &r, &param2)) != CLI_EXIT_OK)
        goto done;
    r.param2 = param2;
    r.problem = hes_system_name(sys);
    caught = catch_sigint(&old_int);
    rc = follow(sys, &o, &r, o.resume_path ? &resumed : NULL);
    if (rc != CLI_EXIT_OK)
        goto done;
    if (interrupted)
        say_stopped(&r);
    rc = o.json ? continue_print_json(&r) : o.csv ? continue_print_csv(&r)
                                                  : continue_print_text(&r);
    if (rc == CLI_EXIT_OK && (o.json || o.csv) && !o.quiet)
        notes(&r);
    if (rc == CLI_EXIT_OK && interrupted)
        rc = EXIT_INTERRUPTED;
done:
    if (caught)
        sigaction(SIGINT, &old_int, NULL);
    hes_continuation_free(&resumed);
    result_free(&r);
    hes_system_destroy(sys);
    free(param);
    free(param2);
    cli_args_free(&o.cli);
    return rc;
}
