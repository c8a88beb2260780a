/*
 * cmd_impact.c - `hes impact PROBLEM`: a simultaneous impact with friction
 * resolved by every outcome the paper's impulse-stepping model allows (its
 * sampled set, Halm & Posa Algorithm 2), by Anitescu and Potra's
 * simultaneous LCP, and by sequential impacts, with the set's summary,
 * extremes and where the single-valued outcomes lie in it.  --law picks one
 * law alone.  Text, --json (hes_impact_json) or --csv (one row per sample).
 * This file reads the command line (one argp table) and runs the laws; a
 * robot file's impact is made in impact_robot.c, the output in
 * impact_print.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cmd_impact.h"

#define CMD "hes impact"
#define MAX_SAMPLES 4194304   /* 2^22: the paper's sets are 2^14 to 2^20 */

enum { O_SAMPLES = 256, O_STEP, O_STEPS, O_SEED, O_SELECT, O_THREADS, O_LAW, O_JSON,
       O_CSV, O_SAMPLES_OUT, O_ROBOT, O_Q, O_V, O_CONTACTS, O_GAP_TOL };

static const struct argp_option options[] = {
    {"samples", O_SAMPLES, "N", 0, "samples of the set (1 to " STR(MAX_SAMPLES) "; default: "
     "the problem's)", 0},
    {"step", O_STEP, "H", 0, "impulse step size h (default: the paper's; for a robot, half "
     "the largest Anitescu-Potra normal impulse)", 0},
    {"steps", O_STEPS, "N", 0, "step limit per sample, 1 to 10000 (default: the paper's)", 0},
    {"seed", O_SEED, "S", 0, "randomise the low-discrepancy caps (0: the sequence itself)", 0},
    {"select", O_SELECT, "MODE", 0, "the solution of a step's LCP when it has several: random "
     "(default: Lemke's or enumeration's from a random start, per step) or lemke (Lemke's "
     "method's always)", 0},
    {"threads", O_THREADS, "T", 0, "threads for the samples (default 1)", 0},
    {"law", O_LAW, "LAW", 0, "routh (the set, default), anitescu-potra, or sequential:A,B,... "
     "(contact names in order)", 0},
    {"json", O_JSON, NULL, 0, "the document of hes_impact_json (--samples-out adds every "
     "sample)", 0},
    {"samples-out", O_SAMPLES_OUT, NULL, 0, "with --json: every sample", 0},
    {"csv", O_CSV, NULL, 0, "one row per sample", 0},
    {NULL, 0, NULL, 0, "A robot file instead of PROBLEM:", 1},
    {"robot", O_ROBOT, "FILE", 0, "an MJCF or URDF file (needs MuJoCo)", 1},
    {"q", O_Q, "Q1,...", 0, "its coordinates before the impact", 1},
    {"v", O_V, "V1,...", 0, "its velocities before the impact", 1},
    {"contacts", O_CONTACTS, "L", 0, "its contacts: sites or links with their friction, "
     "NAME:MU,... (each must touch the ground; of the default, every site, those that do not "
     "are left out)", 1},
    {"gap-tol", O_GAP_TOL, "H", 0, "a contact touches when its height is within H m (default "
     "1e-6)", 1},
    {NULL, 0, NULL, 0, NULL, 0}
};

/* What the command line asks for. */
typedef struct {
    cli_args cli;
    int samples, steps, threads;     /* 0: the problem's */
    double step, gap_tol;            /* step 0: the problem's */
    unsigned long seed, select;      /* select: 1 random, 0 lemke */
    int json, csv, samples_out;
    const char *law, *robot_file, *q_text, *v_text, *contacts_text;
} impact_opts;

static error_t parse_option(int key, char *arg, struct argp_state *state)
{
    impact_opts *o = state->input;

    if (cli_arg_once(state, key))
        return CLI_ARG_REFUSED;
    switch (key) {
    case O_SAMPLES:
        return cli_int_option(CMD, "--samples", arg, 1, MAX_SAMPLES, &o->samples)
               ? CLI_ARG_REFUSED : 0;
    case O_STEP:
        if (cli_parse_double(arg, &o->step) == 0 && o->step > 0)
            return 0;
        cli_bad_value(CMD, "--step", arg, "a positive number");
        return CLI_ARG_REFUSED;
    case O_STEPS:
        return cli_int_option(CMD, "--steps", arg, 1, 10000, &o->steps) ? CLI_ARG_REFUSED : 0;
    case O_SEED:
        if (cli_parse_ulong(arg, &o->seed) == 0)
            return 0;
        cli_bad_value(CMD, "--seed", arg, "a non-negative integer");
        return CLI_ARG_REFUSED;
    case O_SELECT:
        if (strcmp(arg, "random") == 0 || strcmp(arg, "lemke") == 0) {
            o->select = arg[0] == 'r';
            return 0;
        }
        cli_bad_value(CMD, "--select", arg, "random or lemke");
        return CLI_ARG_REFUSED;
    case O_THREADS:
        return cli_int_option(CMD, "--threads", arg, 1, 256, &o->threads) ? CLI_ARG_REFUSED : 0;
    case O_GAP_TOL:
        if (cli_parse_double(arg, &o->gap_tol) == 0 && o->gap_tol > 0 && o->gap_tol < 1)
            return 0;
        cli_bad_value(CMD, "--gap-tol", arg, "a height in (0, 1) m");
        return CLI_ARG_REFUSED;
    case O_LAW:         o->law = arg; return 0;
    case O_ROBOT:       o->robot_file = arg; return 0;
    case O_Q:           o->q_text = arg; return 0;
    case O_V:           o->v_text = arg; return 0;
    case O_CONTACTS:    o->contacts_text = arg; return 0;
    case O_JSON:        o->json = 1; return 0;
    case O_SAMPLES_OUT: o->samples_out = 1; return 0;
    case O_CSV:         o->csv = 1; return 0;
    default:
        return ARGP_ERR_UNKNOWN;
    }
}

static const struct argp impact_argp = {
    options, parse_option,
    "PROBLEM\n--robot FILE.xml|FILE.urdf --q Q1,... --v V1,...",
    "Resolve a simultaneous impact with friction: the set of post-impact velocities of the "
    "impulse-stepping model (Halm & Posa, Algorithm 2), the Anitescu-Potra outcome and the "
    "sequential ones, located in the set.\v"
    "PROBLEM: rocking-block, compass-gait-impact, box-wall, disk-stack; or a robot file "
    "(MuJoCo) at a pre-impact state, its contacts at sites or links against the ground z = 0 "
    "(default: every site, friction 1).",
    NULL, NULL, NULL
};

/* Refusals of option combinations once the options are known: 0, or the
 * exit status after a message. */
static int check_combinations(const impact_opts *o)
{
    if (o->robot_file ? o->cli.n_args != 0 : o->cli.n_args != 1)
        return cli_usage_error(&o->cli, "expected one PROBLEM, or --robot FILE without one");
    if (!o->robot_file && (o->q_text || o->v_text || o->contacts_text || o->cli.seen[O_GAP_TOL]))
        fprintf(stderr, "%s: --q, --v, --contacts and --gap-tol go with --robot\n", CMD);
    else if (o->robot_file && (!o->q_text || !o->v_text))
        fprintf(stderr, "%s: --robot needs the pre-impact state: --q and --v\n", CMD);
    else if (o->json && o->csv)
        fprintf(stderr, "%s: --json and --csv exclude each other\n", CMD);
    else if (o->samples_out && !o->json)
        fprintf(stderr, "%s: --samples-out goes with --json\n", CMD);
    else
        return CLI_EXIT_OK;
    return CLI_EXIT_USAGE;
}

/* The impact of pb set up in *s, and the set's options in *so: the step,
 * steps and samples given or the problem's (the step of a problem without
 * one: half the largest Anitescu-Potra normal impulse, the impact's own
 * scale).  0, or the exit status after a message. */
static int setup_impact(const hes_impact_problem *pb, const impact_opts *o, const robot_impact *rob,
                        int single, hes_impact_setup *s, hes_impact_set_options *so)
{
    hes_error msg;
    double h = o->step > 0 ? o->step : pb->h, h_ap = 0;
    hes_status st = o->robot_file
        ? hes_impact_setup_state(pb->mech, pb->k, pb->contacts, rob->q, rob->v, s, &msg)
        : hes_impact_problem_setup(pb, s, &msg);

    if (st == HES_OK && (!(h > 0) || (!single && o->step > 0)))
        st = hes_impact_default_step(&s->contacts, s->v, &h_ap, &msg);
    if (st != HES_OK) {         /* bad input (friction, a cone not pointed): 2 */
        fprintf(stderr, "%s: %s\n", CMD, msg.message);
        return hes_status_exit_code(st);
    }
    if (!(h > 0))
        h = h_ap;
    int n_steps = o->steps ? o->steps : pb->steps;
    /* N steps of h carry at most N h of normal impulse per contact: far
       below the impulse the impact needs, no sample can end */
    if (!single && o->step > 0 && n_steps * o->step < 1e-3 * 2 * h_ap) {
        fprintf(stderr, "%s: --step %g: %d steps of it carry at most %g of normal impulse, "
                "below 1e-3 of the %g the impact needs (Anitescu-Potra's largest): no sample "
                "could end; the default step is %g\n", CMD, o->step, n_steps, n_steps * o->step,
                2 * h_ap, h_ap);
        return CLI_EXIT_USAGE;
    }
    *so = (hes_impact_set_options){ o->samples ? o->samples : pb->samples,
                                    { h, n_steps, 0, o->select ? (o->seed ? o->seed : 1) : 0 },
                                    o->seed, o->threads, 0, 0 };
    return 0;
}

/* The sampled post-impact set into *S: 0, or the exit status after a
 * message (also when no sample ended). */
static int sample_set(const hes_impact_setup *s, const hes_impact_set_options *so,
                      hes_impact_set *S)
{
    hes_error msg;
    hes_status st = hes_impact_set_sample(&s->contacts, s->v, so, S, &msg);

    if (st != HES_OK) {
        fprintf(stderr, "%s: %s\n", CMD, msg.message);
        return hes_status_exit_code(st);
    }
    if (S->n_finished == 0) {
        fprintf(stderr, "%s: none of the %d samples ended within %d steps of h = %g (contacts "
                "still approach): there is no post-impact set to show; raise --step or "
                "--steps\n", CMD, S->samples, so->routh.steps, so->routh.h);
        return CLI_EXIT_FAILURE;
    }
    return 0;
}

/* Prints the outcomes (and the set S, NULL for one law) as the options ask;
 * the exit status. */
static int report(const hes_impact_problem *pb, const hes_impact_setup *s,
                  hes_impact_set_options *so, const hes_impact_set *S,
                  const hes_impact_outcome *outs, int n_outs, const impact_opts *o)
{
    if (o->json && !S) {
        /* the one outcome in the set's document, with an empty set */
        hes_impact_set empty;
        memset(&empty, 0, sizeof empty);
        empty.n = s->d;
        empty.k = s->k;
        empty.sequence = "none";
        so->samples = 0;
        return cli_print_document(CMD, hes_impact_json(pb, s, so, &empty, outs, n_outs, 0));
    }
    if (o->json)
        return cli_print_document(CMD, hes_impact_json(pb, s, so, S, outs, n_outs,
                                                       o->samples_out));
    if (o->csv) {
        impact_print_csv(pb, S);
        return CLI_EXIT_OK;
    }
    return impact_print_text(pb, s, outs, n_outs, S, so);
}

/* The impact of the command line, resolved and printed: the exit status;
 * s, one and outs (zeroed by the caller) freed by the caller. */
static int resolve(const impact_opts *o, robot_impact *rob, hes_impact_setup *s,
                   hes_impact_outcome *one, hes_impact_outcome *outs, int *n_outs)
{
    int rc, single;
    hes_impact_set_options so;
    hes_impact_set S;

    if (o->robot_file && (rc = impact_robot_problem(o->robot_file, o->q_text, o->v_text,
                                                    o->contacts_text, o->gap_tol, rob)))
        return rc;
    const hes_impact_problem *pb = o->robot_file ? &rob->pb
                                                 : hes_impact_problem_find(o->cli.args[0]);
    if (!pb) {
        fprintf(stderr, "%s: unknown impact problem '%s' (", CMD, o->cli.args[0]);
        for (int i = 0; i < hes_impact_problem_count(); i++)
            fprintf(stderr, "%s%s", i ? ", " : "", hes_impact_problem_get(i)->name);
        fprintf(stderr, ")\n");
        return CLI_EXIT_USAGE;
    }
    if ((rc = impact_choose_law(pb, o->law, one, &single)))
        return rc;
    if (single && (o->csv || o->samples_out)) {
        fprintf(stderr, "%s: --csv and --samples-out need the set (--law routh)\n", CMD);
        return CLI_EXIT_USAGE;
    }
    if ((rc = setup_impact(pb, o, rob, single, s, &so)))
        return rc;
    memset(&S, 0, sizeof S);
    if ((single || (rc = sample_set(s, &so, &S)) == 0) &&
        (rc = impact_outcomes(s, single ? NULL : &S, one, outs, n_outs)) == 0)
        rc = report(pb, s, &so, single ? NULL : &S, outs, *n_outs, o);
    hes_impact_set_free(&S);
    return rc;
}

/* resolve() with what it makes freed after it */
static int run(const impact_opts *o, robot_impact *rob)
{
    hes_impact_setup s;
    hes_impact_outcome one, outs[3];
    int n_outs = 0;

    memset(&s, 0, sizeof s);
    memset(&one, 0, sizeof one);
    memset(outs, 0, sizeof outs);
    int rc = resolve(o, rob, &s, &one, outs, &n_outs);
    hes_impact_setup_free(&s);
    hes_impact_outcome_free(&one);
    for (int j = 0; j < 3; j++)
        hes_impact_outcome_free(&outs[j]);
    return rc;
}

int cmd_impact(int argc, char **argv)
{
    /* one thread, random LCP selection, the set (routh); samples, step and
       steps 0: the problem's (setup_impact) */
    impact_opts o = { .threads = 1, .select = 1, .gap_tol = 1e-6, .law = "routh" };
    robot_impact rob;

    memset(&rob, 0, sizeof rob);
    int rc = cli_parse(&impact_argp, 0, argc, argv, &o.cli);
    if (rc == CLI_EXIT_OK && !o.cli.done && (rc = check_combinations(&o)) == CLI_EXIT_OK)
        rc = run(&o, &rob);
    impact_robot_free(&rob);
    cli_args_free(&o.cli);
    return rc;
}
