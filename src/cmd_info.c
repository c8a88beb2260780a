/*
 * cmd_info.c - `hes info PROBLEM [--json]`: what a built-in problem is made
 * of: its modes (dimension, state names), transitions (from -> to, guard
 * crossing direction, clock reset), parameters (default, unit, flags, valid
 * range, default search bounds of shape parameters for `hes shape`,
 * description) and the orbit spec the orbit solver uses (section,
 * sequence, autonomous or period parameter, unknowns and residual).
 *
 * --json prints the same as one JSON object, hes_model_json():
 *   {"name", "description",
 *    "modes": [{"name", "dim", "states": [...]}],
 *    "transitions": [{"name", "from", "to", "direction": "down"|"up"|"any",
 *                     "clock_reset": bool}],
 *    "params": [{"name", "default", "unit", "description", "shape", "solved",
 *                "positive", "min", "max",           (null: unbounded)
 *                "search": [lo, hi]}],               (null: none given)
 *    "orbit": {"mode", "section", "sequence": [...], "autonomous": bool,
 *              "period_param": name|null, "free_states": [...],
 *              "free_params": [...], "residual": [...]}}
 *
 * An event-selected system (`hes list` marks them [ess]) is described by
 * its states, event functions and parameters; --json prints
 * hes_ess_model_json().  --robot FILE.xml describes a robot file instead.
 * This file parses the command line; the text is model_print.c's and
 * mech_print.c's.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli_args.h"
#include "cmd_info.h"

/* hes info --robot FILE: the robot's coordinates at its reference
 * configuration, contacts, joint limits, inputs, and M(q0) and the applied
 * force there. */
static int robot_info(const char *file)
{
    hes_robot *r;
    hes_error msg;
    hes_status st = hes_robot_read(file, NULL, 0, &r, &msg);
    if (st != HES_OK) {
        fprintf(stderr, "hes info: %s\n", msg.message);
        return st == HES_ESOLVER ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
    }
    const hes_mech *m = hes_robot_mech(r);
    int nq, nv;
    hes_robot_dims(r, &nq, &nv);
    /* q has the reference's nq values, velocities and forces nv */
    size_t d = (size_t)nv;
    double *q = calloc((size_t)nq, sizeof *q), *qd = calloc(d, sizeof *qd),
           *M = calloc(d * d, sizeof *M), *f = calloc(d, sizeof *f);
    if (!q || !qd || !M || !f) {
        free(q), free(qd), free(M), free(f);
        hes_robot_destroy(r);
        fprintf(stderr, "hes info: out of memory for a robot of %zu coordinates\n", d);
        return CLI_EXIT_FAILURE;
    }
    hes_robot_reference(r, q);
    printf("robot: %s (loaded by MuJoCo)\n", file);
    printf("coordinates (%d), at the reference configuration:\n", nq);
    for (int i = 0; i < nq; i++)
        printf("  %-16s %12.6g\n", hes_robot_coordinate(r, i), q[i]);
    if (nq != nv) {   /* quaternions: the velocities are named apart */
        printf("velocities (%d):", nv);
        for (int i = 0; i < nv; i++)
            printf("%s %s", i ? "," : "", hes_robot_velocity_name(r, i));
        printf("\n");
    }
    int nc = hes_robot_contact_count(r), nl = hes_robot_limit_count(r), y0 = 2 * nc + nl;
    int three = m->n_constraints > y0;   /* a 3-D robot: a second no-slip row each */
    printf("contacts against the ground z = 0 (%d; constraints: normal, no-slip%s):\n", nc,
           three ? " x and y" : "");
    for (int c = 0; c < nc; c++) {
        printf("  %-16s constraints %d%s%d", m->constraints[2 * c].name, 2 * c,
               three ? ", " : " and ", 2 * c + 1);
        if (three)
            printf(" and %d", y0 + c);
        printf(", friction %g\n", m->constraints[2 * c].mu);
    }
    if (nl > 0)
        printf("joint limits (unilateral constraints, for robot models):\n");
    for (int c = 2 * nc; c < y0; c++)
        printf("  %-16s constraint %d\n", m->constraints[c].name, c);
    printf("inputs (joint motors): %d\n", m->m);
    if (m->mass(q, NULL, M, m->data) == 0 && m->force(q, qd, NULL, NULL, f, m->data) == 0) {
        printf("\nmass matrix M(q0):\n");
        cli_print_matrix(stdout, M, m->d);
        printf("applied force at q0, at rest (gravity): ");
        cli_print_vector(stdout, f, m->d, "%.6g");
        printf("\n");
    }
    free(q), free(qd), free(M), free(f);
    hes_robot_destroy(r);
    return CLI_EXIT_OK;
}

enum { OPT_JSON = 256, OPT_ROBOT };

static const struct argp_option options[] = {
    {"json", OPT_JSON, NULL, 0, "print one JSON object instead of text", 0},
    {"robot", OPT_ROBOT, "FILE", 0, "describe a robot file loaded by MuJoCo instead: its "
     "coordinates, contacts (every site, friction 1), inputs, and M(q) and the applied force "
     "at its reference configuration", 0},
    {NULL, 0, NULL, 0, NULL, 0}
};

/* What the command line asks for. */
typedef struct {
    cli_args cli;
    int json;
    const char *robot;       /* --robot FILE.xml|FILE.urdf */
} info_opts;

/* The options, each taken once. */
static error_t parse_option(int key, char *arg, struct argp_state *state)
{
    info_opts *o = state->input;

    if (cli_arg_once(state, key))
        return CLI_ARG_REFUSED;
    switch (key) {
    case OPT_JSON:  o->json = 1; return 0;
    case OPT_ROBOT: o->robot = arg; return 0;
    default:        return ARGP_ERR_UNKNOWN;
    }
}

static const struct argp info_argp = {
    options, parse_option,
    "PROBLEM\n--robot FILE.xml|FILE.urdf",
    "Describe a built-in problem: modes, transitions, parameters and the periodic orbit the "
    "solver looks for; for an event-selected system (marked [ess] by 'hes list'): states, "
    "event functions and parameters.",
    NULL, NULL, NULL
};

/* The description of the PROBLEM argument, of either kind. */
static int describe(const char *arg, int json)
{
    const hes_ess_model *ess = cli_find_ess_problem(arg);
    if (ess) {
        if (json)
            return cli_print_document("hes info", hes_ess_model_json(ess));
        ess_model_print_text(ess, arg);
        return CLI_EXIT_OK;
    }
    const hes_model *model = cli_find_problem(arg);
    if (!model)
        return CLI_EXIT_USAGE;
    if (json)
        return cli_print_document("hes info", hes_model_json(model));
    model_print_text(model);
    return CLI_EXIT_OK;
}

/* What the options ask for, once parsed; the exit status. */
static int run(const info_opts *o)
{
    if (o->robot && (o->cli.n_args || o->json)) {
        fprintf(stderr, "hes info: --robot FILE takes no PROBLEM and no --json\n");
        return CLI_EXIT_USAGE;
    }
    if (o->robot)
        return robot_info(o->robot);
    if (o->cli.n_args != 1)
        return cli_usage_error(&o->cli, "expected exactly one PROBLEM");
    return describe(o->cli.args[0], o->json);
}

int cmd_info(int argc, char **argv)
{
    info_opts o = { .json = 0 };
    int rc = cli_parse(&info_argp, 0, argc, argv, &o.cli);

    if (rc == CLI_EXIT_OK && !o.cli.done)
        rc = run(&o);
    cli_args_free(&o.cli);
    return rc;
}
