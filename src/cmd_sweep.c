/*
 * cmd_sweep.c - `hes sweep`: batch stability analysis over a tensor grid,
 * a list of points or a Latin hypercube sample of parameters, for a model
 * of either kind (hes_sweep_run_system), its rows written as they come to
 * a resumable CSV file or standard output (hes_sweep_file_open, _put,
 * _close: the library's file, with its lock, checksums and resume scan),
 * on N threads and, under mpirun, on every rank.
 *
 *   hes sweep PROBLEM [-p NAME=VALUE]... (--grid NAME=LO:HI:N)...
 *             | --list FILE.csv | --random N [--seed S] --bounds NAME=LO:HI...
 *             [--optimize] [--jobs N] [-o FILE.csv [--resume]] [--json]
 *
 * Rows come in index order (hes_sweep_order), each with its point index and
 * its branch-jump flag.  Under MPI the points are handed out in blocks by a
 * counter on rank 0 and every rank's rows come to rank 0, which writes
 * them.  This file reads the command line and makes the system; the points
 * are sweep_points.c's, the run sweep_run.c's.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_sweep.h"

#ifdef HAVE_MPI
#include <mpi.h>
#endif

enum { OPT_GRID = 256, OPT_LIST, OPT_RANDOM, OPT_SEED, OPT_BOUNDS, OPT_OPTIMIZE, OPT_JOBS,
       OPT_RESUME, OPT_JSON };

static const struct argp_option options[] = {
    {NULL, 0, NULL, 0, "POINTS, exactly one kind (at most " STR(CLI_MAX_POINTS) " points: N, or "
     "the product of the grid's; each parameter is swept once):", 1},
    {"grid", OPT_GRID, "NAME=LO:HI:N", 0, "tensor grid, one axis per option (repeatable; the "
     "first varies slowest)", 1},
    {"list", OPT_LIST, "FILE.csv", 0, "a header of parameter names, a row per point", 1},
    {"random", OPT_RANDOM, "N", 0, "a Latin hypercube sample of N points within the bounds", 1},
    {"bounds", OPT_BOUNDS, "NAME=LO:HI", 0, "with --random: the range of a parameter "
     "(repeatable)", 1},
    {"seed", OPT_SEED, "S", 0, "with --random: the seed of the sample (1)", 1},
    {NULL, 0, NULL, 0, "The run and its rows:", 2},
    {"optimize", OPT_OPTIMIZE, NULL, 0, "optimise the shape parameters at every point first", 2},
    {"jobs", OPT_JOBS, "N", 0, "threads, 1 to 1024 (1)", 2},
    {"output", 'o', "FILE.csv", 0, "write the rows there, flushed one by one (default: "
     "standard output)", 2},
    {"resume", OPT_RESUME, NULL, 0, "keep the valid rows of FILE.csv (the same sweep, killed "
     "at any moment) and compute only the missing points", 2},
    {"json", OPT_JSON, NULL, 0, "also print each row as one JSON object per line on standard "
     "output (instead of CSV without -o)", 2},
    {NULL, 0, NULL, 0, NULL, 0}
};

static error_t parse_option(int key, char *arg, struct argp_state *state)
{
    sweep_cli *o = state->input;
    const char *cmd = o->cli.cmd;

    if (key != OPT_GRID && key != OPT_BOUNDS && cli_arg_once(state, key))
        return CLI_ARG_REFUSED;
    switch (key) {
    case OPT_GRID:
        return sweep_parse_range("--grid", arg, 1, &o->grid) ? CLI_ARG_REFUSED : 0;
    case OPT_BOUNDS:
        return sweep_parse_range("--bounds", arg, 0, &o->bounds) ? CLI_ARG_REFUSED : 0;
    case OPT_LIST:      o->list_path = arg; return 0;
    case OPT_RANDOM:
        return cli_int_option(cmd, "--random", arg, 1, CLI_MAX_POINTS, &o->n_random)
               ? CLI_ARG_REFUSED : 0;
    case OPT_SEED:
        if (cli_parse_ulong(arg, &o->seed) == 0)
            return 0;
        fprintf(stderr, "hes sweep: --seed needs a non-negative integer, got '%s'\n", arg);
        return CLI_ARG_REFUSED;
    case OPT_OPTIMIZE:  o->so.optimize = 1; return 0;
    case OPT_JOBS:
        return cli_int_option(cmd, "--jobs", arg, 1, 1024, &o->so.jobs) ? CLI_ARG_REFUSED : 0;
    case 'o':           o->fo.path = arg; return 0;
    case OPT_RESUME:    o->fo.resume = 1; return 0;
    case OPT_JSON:      o->json = 1; return 0;
    default:
        return ARGP_ERR_UNKNOWN;
    }
}

static const struct argp sweep_argp = {
    options, parse_option,
    "PROBLEM (--grid NAME=LO:HI:N)...\nPROBLEM --list FILE.csv\n"
    "PROBLEM --random N (--bounds NAME=LO:HI)...",
    "Analyse the periodic orbit of PROBLEM at every point: psi, verdict, period, multipliers "
    "and every parameter (p.NAME: solved ones solved); a point that fails gets its status and "
    "message.  -p sets a parameter for every point.",
    NULL, NULL, NULL
};

/* Refusals of option combinations once the options are known: 0, or the
 * exit status after a message. */
static int check_combinations(const sweep_cli *o)
{
    const cli_assignments *params = &o->cli.params;
    const sweep_ranges *sw = o->grid.n ? &o->grid : &o->bounds;

    if ((o->grid.n > 0) + (o->list_path != NULL) + (o->n_random > 0) != 1) {
        fprintf(stderr, "hes sweep: give exactly one of --grid, --list and --random\n");
        return CLI_EXIT_USAGE;
    }
    if ((o->n_random > 0) != (o->bounds.n > 0)) {
        fprintf(stderr, "hes sweep: --random and --bounds go together\n");
        return CLI_EXIT_USAGE;
    }
    for (int j = 0; j < params->n; j++) /* -p NAME of a swept NAME */
        for (int k = 0; k < sw->n; k++)
            if (strncmp(params->items[j], sw->names[k], strlen(sw->names[k])) == 0 &&
                params->items[j][strlen(sw->names[k])] == '=') {
                fprintf(stderr, "hes sweep: -p %s: %s is swept (--%s)\n", params->items[j],
                        sw->names[k], o->grid.n ? "grid" : "bounds");
                return CLI_EXIT_USAGE;
            }
    if (o->cli.seen[OPT_SEED] && !o->n_random) {
        fprintf(stderr, "hes sweep: --seed only goes with --random\n");
        return CLI_EXIT_USAGE;
    }
    if (o->fo.resume && !o->fo.path) {
        fprintf(stderr, "hes sweep: --resume needs -o FILE.csv\n");
        return CLI_EXIT_USAGE;
    }
    if (o->cli.n_args != 1)
        return cli_usage_error(&o->cli, "expected exactly one PROBLEM");
    return CLI_EXIT_OK;
}

/* The system of PROBLEM, of either kind: one sweep for every model with an
 * orbit.  NULL with *rc after saying why. */
static hes_system *sweep_system(const sweep_cli *o, int *rc)
{
    const char *problem = o->cli.args[0];
    const hes_ess_model *ess_model = cli_find_ess_problem(problem);
    const hes_model *model = !ess_model ? cli_find_problem(problem) : NULL;

    *rc = CLI_EXIT_USAGE;
    if (!model && !ess_model)
        return NULL;
    if (model && !model->orbit.guess) {
        fprintf(stderr, "hes sweep: problem '%s' has no periodic orbit to analyse\n", model->name);
        return NULL;
    }
    if (ess_model && !ess_model->orbit_x0) {
        fprintf(stderr, "hes sweep: '%s' has no periodic orbit guess to start each point's "
                "search from\n", ess_model->name);
        return NULL;
    }
    hes_system *sys = model ? cli_system_setup(model, &o->cli.params, rc)
                            : cli_system_setup_ess(ess_model, &o->cli.params, rc);
    if (!sys)
        return NULL;
    int n_shape = 0, np = hes_system_n_params(sys);
    for (int i = 0; i < np; i++)
        n_shape += (hes_system_param_info(sys, i)->flags & HES_PARAM_SHAPE) != 0;
    *rc = CLI_EXIT_USAGE;
    if (np > HES_SWEEP_MAX_PARAMS) {
        fprintf(stderr, "hes sweep: problem '%s' has %d parameters; a sweep handles at most %d\n",
                hes_system_name(sys), np, HES_SWEEP_MAX_PARAMS);
    } else if (o->so.optimize && (n_shape == 0 || ess_model)) {
        fprintf(stderr, "hes sweep: --optimize: problem '%s' has no shape parameters%s\n",
                hes_system_name(sys), ess_model ? " (an event-selected system has no saltation "
                "matrices for them to enter)" : "");
    } else {
        *rc = CLI_EXIT_OK;
        return sys;
    }
    hes_system_destroy(sys);
    return NULL;
}

/* The command on this rank of size ranks. */
static int sweep(int argc, char **argv, int rank, int size)
{
    sweep_cli o;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    o.so.jobs = 1;
    hes_system *sys = NULL;
    int rc = cli_parse(&sweep_argp, CLI_GROUP_PARAMS, argc, argv, &o.cli);
    if (rc == CLI_EXIT_OK && !o.cli.done && (rc = check_combinations(&o)) == CLI_EXIT_OK)
        sys = sweep_system(&o, &rc);
    cli_args_free(&o.cli);
    if (!sys)
        return rc;
    sweep_points p;
    if ((rc = sweep_points_make(&o, sys, &p)) == CLI_EXIT_OK)
        rc = sweep_run(sys, &o, &p, rank, size);
    sweep_points_free(&p);
    hes_system_destroy(sys);
    return rc;
}

#ifdef HAVE_MPI
/* Under mpirun (OpenMPI or PMIx in the environment) the sweep is shared. */
static int under_mpirun(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_SIZE");
}
#endif

int cmd_sweep(int argc, char **argv)
{
#ifdef HAVE_MPI
    if (under_mpirun()) { /* hes sweep under mpirun -np N: one sweep over all ranks */
        int provided, rank, size, rc;
        if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
            fprintf(stderr, "hes sweep: MPI_Init_thread failed\n");
            return CLI_EXIT_FAILURE;
        }
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        if (provided < MPI_THREAD_SERIALIZED && size > 1)
            fprintf(stderr, "hes sweep: this MPI does not support threads; use --jobs 1\n");
        rc = sweep(argc, argv, rank, size);
        MPI_Finalize();
        return rc;
    }
#endif
    return sweep(argc, argv, 0, 1);
}
