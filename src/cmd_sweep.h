/*
 * cmd_sweep.h - the parts of `hes sweep`: its command line, the system and
 * MPI (cmd_sweep.c), its points from --grid, --random and --bounds or --list
 * (sweep_points.c), and the run with its rows, progress and summary
 * (sweep_run.c).
 */
#ifndef HES_CMD_SWEEP_H
#define HES_CMD_SWEEP_H

#include "cli_args.h"
#include "point_list.h"

#define SWEEP_MAX_SWEPT POINT_LIST_MAX_NAMES

/* Swept parameters: NAME=LO:HI (--bounds) or NAME=LO:HI:N (--grid), or the
 * names of a --list file. */
typedef struct {
    int n;
    char names[SWEEP_MAX_SWEPT][POINT_LIST_NAME_MAX];
    double lo[SWEEP_MAX_SWEPT], hi[SWEEP_MAX_SWEPT];
    int count[SWEEP_MAX_SWEPT];
} sweep_ranges;

/* What the command line asks for. */
typedef struct {
    cli_args cli;
    sweep_ranges grid, bounds;   /* --grid ...; --bounds ... of --random */
    const char *list_path;       /* --list */
    int n_random;                /* --random N (0: none) */
    unsigned long seed;          /* --seed of --random */
    int json;
    hes_sweep_options so;           /* --optimize, --jobs; the points filled by sweep_run */
    hes_sweep_file_options fo;   /* -o (path), --resume; the rest filled by sweep_run */
} sweep_cli;

/* One NAME=LO:HI (with_count: NAME=LO:HI:N) of option opt into r, each name
 * once: 0, or -1 after printing why. */
int sweep_parse_range(const char *opt, const char *text, int with_count, sweep_ranges *r);

/* The points of the sweep. */
typedef struct {
    const sweep_ranges *r;       /* the swept names: the grid's, the bounds' or list's */
    sweep_ranges list;           /* the names of --list */
    int pidx[SWEEP_MAX_SWEPT];   /* their parameter indices in the system */
    int n_points;
    double *values;              /* n_points x r->n, point after point */
    char *text;                  /* the file's "# points:" text; NULL for a list */
} sweep_points;

/* The points the options give, their names checked against the system's
 * parameters.  0, or the exit status after printing why; sweep_points_free
 * in every case. */
int sweep_points_make(const sweep_cli *o, const hes_system *sys, sweep_points *p);
void sweep_points_free(sweep_points *p);

/* Runs the sweep of sys over the points on this rank of size ranks (rank
 * 0 writes), and says how it went.  The exit status. */
int sweep_run(const hes_system *sys, const sweep_cli *o, const sweep_points *p, int rank,
              int size);

#endif
