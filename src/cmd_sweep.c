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
 * them.  Every write is checked: a failed one stops the sweep with exit
 * status 1 and the reason.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "point_list.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

#ifdef HAVE_MPI
#include <mpi.h>
#endif

#define MAX_SWEPT POINT_LIST_MAX_NAMES

enum { OPT_GRID = 256, OPT_LIST, OPT_RANDOM, OPT_SEED, OPT_BOUNDS, OPT_OPTIMIZE, OPT_JOBS,
       OPT_RESUME, OPT_JSON };

void cmd_sweep_usage(FILE *out)
{
    fputs("Usage: hes sweep PROBLEM [-p NAME=VALUE]... POINTS [--optimize] [--jobs N]\n"
          "                 [-o FILE.csv [--resume]] [--json]\n"
          "POINTS: (--grid NAME=LO:HI:N)...      tensor grid (the first varies slowest)\n"
          "      | --list FILE.csv                a header of parameter names, a row per point\n"
          "      | --random N [--seed S] (--bounds NAME=LO:HI)...  Latin hypercube sample\n"
          "At most " STR(CLI_MAX_POINTS) " points (N, or the product of the grid's);\n"
          "each parameter is swept once.\n"
          "Analyse the periodic orbit of PROBLEM at every point: psi, verdict, period,\n"
          "multipliers and every parameter (p.NAME: solved ones solved); a point that\n"
          "fails gets its status and message.\n\n"
          "  -p, --param NAME=VALUE  set a parameter for every point (repeatable)\n"
          "      --optimize          optimise the shape parameters at every point first\n"
          "      --jobs N            threads (1)\n"
          "  -o, --output FILE.csv   write the rows there, flushed one by one (default:\n"
          "                          standard output)\n"
          "      --resume            keep the valid rows of FILE.csv (the same sweep, killed\n"
          "                          at any moment) and compute only the missing points\n"
          "      --json              also print each row as one JSON object per line on\n"
          "                          standard output (instead of CSV without -o)\n"
          CLI_NO_CHECK_DERIVATIVES_HELP
          "  -h, --help              show this help\n", out);
}

typedef struct {
    int n;
    char names[MAX_SWEPT][POINT_LIST_NAME_MAX];
    double lo[MAX_SWEPT], hi[MAX_SWEPT];
    int count[MAX_SWEPT];
} ranges;

/* NAME=LO:HI or NAME=LO:HI:N */
static int parse_range(const char *opt, const char *text, int with_count, ranges *r)
{
    const char *eq = strchr(text, '=');
    char buf[256];
    if (r->n >= MAX_SWEPT || !eq || eq == text || (size_t)(eq - text) >= sizeof r->names[0] ||
        strlen(eq + 1) >= sizeof buf) {
        fprintf(stderr, "hes sweep: %s needs NAME=LO:HI%s (at most %d), got '%s'\n", opt,
                with_count ? ":N" : "", MAX_SWEPT, text);
        return -1;
    }
    memcpy(r->names[r->n], text, (size_t)(eq - text));
    r->names[r->n][eq - text] = '\0';
    for (int j = 0; j < r->n; j++)
        if (strcmp(r->names[j], r->names[r->n]) == 0) {
            fprintf(stderr, "hes sweep: %s %s given twice\n", opt, r->names[j]);
            return -1;
        }
    strcpy(buf, eq + 1);
    char *a = buf, *b = strchr(a, ':'), *c = b ? strchr(b + 1, ':') : NULL;
    if (b)
        *b++ = '\0';
    if (c)
        *c++ = '\0';
    int n = 1;
    if (!b || (with_count ? !c : c != NULL) || cli_parse_double(a, &r->lo[r->n]) ||
        cli_parse_double(b, &r->hi[r->n]) || (with_count && (cli_parse_int(c, &n) || n < 1 || n > 1000000)) ||
        !(r->lo[r->n] <= r->hi[r->n])) {
        fprintf(stderr, "hes sweep: %s %s: expected NAME=LO:HI%s with numbers LO <= HI%s\n", opt,
                text, with_count ? ":N" : "", with_count ? " and N >= 1" : "");
        return -1;
    }
    r->count[r->n++] = n;
    return 0;
}

/* --list FILE: the points of a CSV file (point_list.h), names into r. */
static int read_list(const char *path, ranges *r, double **values, int *n_points)
{
    point_list pl;
    char msg[512], *data;
    int rc;
    FILE *f = cli_input_open("hes sweep", "--list", path, &data, &rc);
    if (!f)
        return rc;
    int st = point_list_read(f, &pl, msg, sizeof msg);
    cli_input_close(f, data);
    if (st != POINT_LIST_OK) {
        fprintf(stderr, "hes sweep: --list %s: %s\n", path, msg);
        return st == POINT_LIST_BAD ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
    }
    r->n = pl.n_names;
    memcpy(r->names, pl.names, sizeof pl.names);
    *values = pl.values;
    *n_points = pl.n_points;
    return CLI_EXIT_OK;
}

typedef struct {
    const hes_system *sys;       /* the base point's system (either kind) */
    const ranges *r;
    const int *pidx;
    const double *values;
    const hes_sweep_file_report *rep; /* the file's: the points it kept */
    int failed;                  /* a write failed (and was reported) */
    int json, done, n_points, tty;
    double t0;
} writer;

/* The index of parameter `name` of the system, or -1. */
static int param_index(const hes_system *sys, const char *name)
{
    for (int i = 0; i < hes_system_n_params(sys); i++)
        if (strcmp(hes_system_param_info(sys, i)->name, name) == 0)
            return i;
    return -1;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A write to standard output failed: said once; the sweep stops. */
static int write_failed(writer *w)
{
    int e = errno;
    if (!w->failed)
        fprintf(stderr, "hes sweep: write error on standard output: %s\n", strerror(e ? e : EIO));
    w->failed = 1;
    return -1;
}

/* A row in its turn (rank 0, in index order, after the library wrote it to
 * the file): to standard output as JSON, and the progress line. */
static int emit_row(void *ctx, const hes_sweep_row *row)
{
    writer *w = ctx;
    if (w->failed)
        return -1;
    const double *pt = w->values + (size_t)row->index * w->r->n;
    if (w->json) {
        char *line = hes_sweep_row_json(w->sys, w->r->n, w->pidx, pt, row);
        if (!line) {
            fprintf(stderr, "hes sweep: out of memory\n");
            w->failed = 1;
            return -1;
        }
        puts(line);
        free(line);
        if (fflush(stdout) != 0 || ferror(stdout))
            return write_failed(w);
    }
    w->done++;
    int total = w->n_points - w->rep->kept;
    if (w->tty) {
        double el = now() - w->t0, rate = el > 0 ? w->done / el : 0;
        int bar = total ? 30 * w->done / total : 30;
        fprintf(stderr, "\r[%-30.*s] %d/%d  %.1f points/s  ETA %.0f s ", bar,
                "##############################", w->done, total, rate,
                rate > 0 ? (total - w->done) / rate : 0.0);
        if (w->done == total)
            fputc('\n', stderr);
    }
    return 0;
}

/* The text that says which points a grid or a random sample has (the
 * "# points:" line; a list's is the library's, from its names and values). */
static char *points_text(const ranges *grid, const ranges *bounds, int n_random, unsigned long seed)
{
    char *text = NULL, v[3][32];
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return NULL;
    if (grid->n) {
        fputs("grid", f);
        for (int j = 0; j < grid->n; j++) {
            hes_format_double(v[0], sizeof v[0], grid->lo[j]);
            hes_format_double(v[1], sizeof v[1], grid->hi[j]);
            fprintf(f, " %s=%s:%s:%d", grid->names[j], v[0], v[1], grid->count[j]);
        }
    } else if (n_random) {
        fprintf(f, "random %d seed=%lu", n_random, seed);
        for (int j = 0; j < bounds->n; j++) {
            hes_format_double(v[0], sizeof v[0], bounds->lo[j]);
            hes_format_double(v[1], sizeof v[1], bounds->hi[j]);
            fprintf(f, " %s=%s:%s", bounds->names[j], v[0], v[1]);
        }
    }
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

#ifdef HAVE_MPI
/* Under mpirun (OpenMPI or PMIx in the environment) the sweep is shared. */
static int under_mpirun(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_SIZE");
}
#endif

/* What --resume kept and dropped, and a warning of the file's (no locks). */
static void report_resume(const char *path, const hes_sweep_file_report *rep)
{
    if (rep->warning[0])
        fprintf(stderr, "hes sweep: warning: %s: %s\n", path, rep->warning);
    if (!(rep->corrupted + rep->duplicates + rep->cut))
        return;
    fprintf(stderr, "hes sweep: --resume %s: dropped", path);
    if (rep->corrupted)
        fprintf(stderr, " %d corrupted row%s (checksum, index or values wrong)%s", rep->corrupted,
                rep->corrupted == 1 ? "" : "s", rep->duplicates || rep->cut ? "," : "");
    if (rep->duplicates)
        fprintf(stderr, " %d duplicate row%s%s", rep->duplicates, rep->duplicates == 1 ? "" : "s",
                rep->cut ? "," : "");
    if (rep->cut)
        fputs(" a last row cut short", stderr);
    fputs("; the points without a valid row are computed again\n", stderr);
}

static int sweep(int argc, char **argv, int rank, int size)
{
    static const struct option longopts[] = {
        {"param", required_argument, NULL, 'p'},
        CLI_NO_CHECK_DERIVATIVES_OPTION,
        {"grid", required_argument, NULL, OPT_GRID},
        {"list", required_argument, NULL, OPT_LIST},
        {"random", required_argument, NULL, OPT_RANDOM},
        {"seed", required_argument, NULL, OPT_SEED},
        {"bounds", required_argument, NULL, OPT_BOUNDS},
        {"optimize", no_argument, NULL, OPT_OPTIMIZE},
        {"jobs", required_argument, NULL, OPT_JOBS},
        {"output", required_argument, NULL, 'o'},
        {"resume", no_argument, NULL, OPT_RESUME},
        {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    cli_assignments params;
    ranges grid, bounds, list;
    const char *list_path = NULL, *out_path = NULL;
    int c, rc = CLI_EXIT_OK, n_random = 0, optimize = 0, jobs = 1, resume = 0, json = 0;
    int seed_given = 0;
    unsigned long seed = 1;
    memset(&grid, 0, sizeof grid);
    memset(&bounds, 0, sizeof bounds);
    memset(&list, 0, sizeof list);
    cli_assignments_init(&params);
    optind = 1;
    unsigned char seen[CLI_OPTION_CODES] = {0};
    while (rc == CLI_EXIT_OK && (c = getopt_long(argc, argv, "p:o:h", longopts, NULL)) != -1) {
        if ((c == OPT_LIST || c == OPT_RANDOM || c == OPT_SEED || c == OPT_JOBS || c == 'o') &&
            (rc = cli_once(argv[0], longopts, c, seen)) != CLI_EXIT_OK)
            break;
        switch (c) {
        case CLI_OPT_NO_CHECK_DERIVATIVES:
            params.no_check_derivatives = 1;
            break;
        case 'p':
            if (cli_assignments_add(&params, optarg))
                rc = CLI_EXIT_FAILURE;
            break;
        case OPT_GRID:
            if (parse_range("--grid", optarg, 1, &grid))
                rc = CLI_EXIT_USAGE;
            break;
        case OPT_BOUNDS:
            if (parse_range("--bounds", optarg, 0, &bounds))
                rc = CLI_EXIT_USAGE;
            break;
        case OPT_LIST:
            list_path = optarg;
            break;
        case OPT_RANDOM:
            if (cli_int_option("hes sweep", "--random", optarg, 1, CLI_MAX_POINTS, &n_random))
                rc = CLI_EXIT_USAGE;
            break;
        case OPT_SEED:
            seed_given = 1;
            if (cli_parse_ulong(optarg, &seed)) {
                fprintf(stderr, "hes sweep: --seed needs a non-negative integer, got '%s'\n", optarg);
                rc = CLI_EXIT_USAGE;
            }
            break;
        case OPT_OPTIMIZE:
            optimize = 1;
            break;
        case OPT_JOBS:
            if (cli_int_option("hes sweep", "--jobs", optarg, 1, 1024, &jobs))
                rc = CLI_EXIT_USAGE;
            break;
        case 'o':
            out_path = optarg;
            break;
        case OPT_RESUME:
            resume = 1;
            break;
        case OPT_JSON:
            json = 1;
            break;
        case 'h':
            cmd_sweep_usage(stdout);
            cli_assignments_free(&params);
            return CLI_EXIT_OK;
        default:
            cmd_sweep_usage(stderr);
            rc = CLI_EXIT_USAGE;
        }
    }
    int kinds = (grid.n > 0) + (list_path != NULL) + (n_random > 0);
    if (rc == CLI_EXIT_OK && kinds != 1) {
        fprintf(stderr, "hes sweep: give exactly one of --grid, --list and --random\n");
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && ((n_random > 0) != (bounds.n > 0))) {
        fprintf(stderr, "hes sweep: --random and --bounds go together\n");
        rc = CLI_EXIT_USAGE;
    }
    for (int j = 0; rc == CLI_EXIT_OK && j < params.n; j++) { /* -p NAME of a swept NAME */
        const ranges *sw = grid.n ? &grid : &bounds;
        for (int k = 0; k < sw->n; k++)
            if (strncmp(params.items[j], sw->names[k], strlen(sw->names[k])) == 0 &&
                params.items[j][strlen(sw->names[k])] == '=') {
                fprintf(stderr, "hes sweep: -p %s: %s is swept (--%s)\n", params.items[j],
                        sw->names[k], grid.n ? "grid" : "bounds");
                rc = CLI_EXIT_USAGE;
            }
    }
    if (rc == CLI_EXIT_OK && seed_given && !n_random) {
        fprintf(stderr, "hes sweep: --seed only goes with --random\n");
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && resume && !out_path) {
        fprintf(stderr, "hes sweep: --resume needs -o FILE.csv\n");
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && argc - optind != 1) {
        fprintf(stderr, "hes sweep: expected exactly one PROBLEM\n");
        rc = CLI_EXIT_USAGE;
    }
    /* the system of either kind: one sweep for every model with an orbit */
    const hes_ess_model *ess_model = rc == CLI_EXIT_OK ? cli_find_ess_problem(argv[optind]) : NULL;
    const hes_model *model = rc == CLI_EXIT_OK && !ess_model ? cli_find_problem(argv[optind]) : NULL;
    if (rc == CLI_EXIT_OK && !model && !ess_model)
        rc = CLI_EXIT_USAGE;
    if (rc == CLI_EXIT_OK && model && !model->orbit.guess) {
        fprintf(stderr, "hes sweep: problem '%s' has no periodic orbit to analyse\n", model->name);
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && ess_model && !ess_model->orbit_x0) {
        fprintf(stderr, "hes sweep: '%s' has no periodic orbit guess to start each point's "
                "search from\n", ess_model->name);
        rc = CLI_EXIT_USAGE;
    }
    hes_system *sys = rc != CLI_EXIT_OK ? NULL
                      : model ? cli_system_setup(model, &params, &rc)
                              : cli_system_setup_ess(ess_model, &params, &rc);
    cli_assignments_free(&params);
    if (!sys)
        return rc;
    int n_shape = 0, np = hes_system_n_params(sys);
    for (int i = 0; i < np; i++)
        n_shape += (hes_system_param_info(sys, i)->flags & HES_PARAM_SHAPE) != 0;
    if (rc == CLI_EXIT_OK && np > HES_SWEEP_MAX_PARAMS) {
        fprintf(stderr, "hes sweep: problem '%s' has %d parameters; a sweep handles at most %d\n",
                hes_system_name(sys), np, HES_SWEEP_MAX_PARAMS);
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && optimize && (n_shape == 0 || ess_model)) {
        fprintf(stderr, "hes sweep: --optimize: problem '%s' has no shape parameters%s\n",
                hes_system_name(sys), ess_model ? " (an event-selected system has no saltation "
                "matrices for them to enter)" : "");
        rc = CLI_EXIT_USAGE;
    }
    if (rc != CLI_EXIT_OK) {
        hes_system_destroy(sys);
        return rc;
    }
    /* the points */
    const ranges *r = grid.n ? &grid : n_random ? &bounds : &list;
    double *values = NULL;
    int n_points = 0, pidx[MAX_SWEPT];
    if (list_path)
        rc = read_list(list_path, &list, &values, &n_points);
    for (int j = 0; rc == CLI_EXIT_OK && j < r->n; j++)
        if ((pidx[j] = param_index(sys, r->names[j])) < 0) {
            fprintf(stderr, "hes sweep: problem '%s' has no parameter '%s'\n",
                    hes_system_name(sys), r->names[j]);
            rc = CLI_EXIT_USAGE;
        } else if (hes_system_param_info(sys, pidx[j])->flags & HES_PARAM_SOLVED) {
            fprintf(stderr, "hes sweep: '%s' is solved for by the orbit search (its value is "
                    "found, not set): a sweep over it would only move Newton's start; sweep "
                    "the parameters that define the orbit instead\n", r->names[j]);
            rc = CLI_EXIT_USAGE;
        }
    if (rc == CLI_EXIT_OK && grid.n) {
        long total;
        if (hes_grid_tensor_size(grid.n, grid.count, &total) != HES_OK || total > 10000000) {
            fprintf(stderr, "hes sweep: more than 10000000 grid points\n");
            rc = CLI_EXIT_USAGE;
        } else if ((values = malloc(sizeof(double) * (size_t)total * (size_t)grid.n))) {
            n_points = (int)total;
            if (hes_grid_tensor(grid.n, grid.lo, grid.hi, grid.count, values) != HES_OK) {
                fprintf(stderr, "hes sweep: --grid: HI - LO must be a finite number\n");
                rc = CLI_EXIT_USAGE;
            }
        }
    }
    if (rc == CLI_EXIT_OK && n_random &&
        (values = malloc(sizeof(double) * (size_t)n_random * (size_t)bounds.n))) {
        n_points = n_random;
        hes_latin_hypercube(n_random, bounds.n, bounds.lo, bounds.hi, seed, values);
    }
    if (rc == CLI_EXIT_OK && !values) {
        fprintf(stderr, "hes sweep: out of memory\n");
        rc = CLI_EXIT_FAILURE;
    }
    hes_sweep_file_report rep = { 0, 0, 0, 0, "" };
    writer w = { .sys = sys, .r = r, .pidx = pidx, .values = values, .rep = &rep,
                 .json = json && rank == 0, .n_points = n_points,
                 .tty = rank == 0 && isatty(STDERR_FILENO) };
    char *points = rc == CLI_EXIT_OK && !list_path
                   ? points_text(&grid, &bounds, n_random, seed) : NULL;
    if (rc == CLI_EXIT_OK && !list_path && !points) {
        fprintf(stderr, "hes sweep: out of memory\n");
        rc = CLI_EXIT_FAILURE;
    }
    if (rc == CLI_EXIT_OK) {
        /* neighbours along each grid axis: the stride of axis j is the
           product of the counts of the axes after it (the last varies
           fastest) */
        int strides[MAX_SWEPT], n_strides = 0;
        for (int j = grid.n - 1, st = 1; j >= 0; st *= grid.count[j--])
            strides[n_strides++] = st;
        hes_sweep_options so = { r->n, pidx, n_points, values, optimize, jobs, NULL, emit_row, &w,
                              NULL, n_strides, n_strides ? strides : NULL, NULL };
        hes_settings set = hes_system_get_settings(sys);
        so.settings = &set;
        /* the rows' CSV: the file, or standard output (the header and rows only) */
        hes_sweep_file_options fo = { out_path, out_path ? NULL : stdout, "standard output",
                                      resume, points, PACKAGE_VERSION };
        char why[1024];
        w.t0 = now();
        hes_status st = hes_sweep_run_mpi(sys, &so, out_path || !json ? &fo : NULL, &rep, why,
                                          sizeof why);
        if (rank == 0 && out_path)
            report_resume(out_path, &rep);
        if (st != HES_OK && !w.failed && rank == 0) {
            /* the file's failures name it; a resume refused is the option's */
            int of_file = out_path && strncmp(why, out_path, strlen(out_path)) == 0;
            fprintf(stderr, "hes sweep: %s%s\n", of_file && resume ? "--resume "
                            : st == HES_EIO || of_file ? "" : "the sweep could not run: ", why);
        }
        if (st != HES_OK)
            rc = w.failed || st == HES_EIO ? CLI_EXIT_FAILURE : hes_status_exit_code(st);
    }
    free(points);
    /* success only with every row written, flushed and (in a file) synced */
    if (rc == CLI_EXIT_OK && rank == 0 && rep.kept + w.done != n_points) {
        fprintf(stderr, "hes sweep: only %d of %d points have a row%s%s\n", rep.kept + w.done,
                n_points, out_path ? " in " : "", out_path ? out_path : "");
        rc = CLI_EXIT_FAILURE;
    }
    if (rc == CLI_EXIT_OK && rank == 0 && w.json && fflush(stdout) != 0) {
        write_failed(&w);
        rc = CLI_EXIT_FAILURE;
    }
    if (rc == CLI_EXIT_OK && rank == 0) {
        double el = now() - w.t0;
        fprintf(stderr, "hes sweep: %d points in %.3f s (%.1f points/s) on %d rank%s x %d thread%s\n",
                w.done, el, el > 0 ? w.done / el : 0.0, size, size == 1 ? "" : "s", jobs,
                jobs == 1 ? "" : "s");
    }
    free(values);
    hes_system_destroy(sys);
    return rc;
}

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
