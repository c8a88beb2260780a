/*
 * cmd_trajopt.h - the parts of `hes trajopt`: the command line and the run
 * (cmd_trajopt.c; what it means once parsed: trajopt_line.c), the composite option values it parses (trajopt_values.c:
 * NAME=LO:HI pairs, per-grid lists, virtual-event counts) and its output
 * (trajopt_print.c: the text report, the gait file of -o, progress lines).
 */
#ifndef HES_CMD_TRAJOPT_H
#define HES_CMD_TRAJOPT_H

#include "cli_args.h"

/* NAME=LO:HI pairs of --design or --bound (the names malloc'd), in the
 * form hes_trajopt_options takes them. */
typedef struct {
    int n;
    const char *names[HES_COLLOC_MAX_DESIGN];
    double lo[HES_COLLOC_MAX_DESIGN], hi[HES_COLLOC_MAX_DESIGN];
} trajopt_designs;

void trajopt_designs_free(trajopt_designs *d);
/* Appends NAME=LO:HI of `option` (--design or --bound) to d: 0, or -1
 * after a message (malformed, a name given twice, too many). */
int trajopt_parse_design(const char *option, const char *text, trajopt_designs *d);

/* A value per grid (--nodes, --maxeval): 1 to HES_TRAJOPT_MAX_GRIDS
 * comma-separated integers in [lo, hi], increasing if asked, into out and
 * *n_out: 0, or CLI_EXIT_USAGE after the message, which names the form. */
int trajopt_parse_per_grid(const char *option, const char *text, int lo, int hi,
                           int increasing, const char *form, int *out, int *n_out);

/* --virtual-events 'none', 'default' (the model's) or "A,B,..": one count
 * per event of the model's sequence into counts (zeroed by the caller);
 * 0, or -1 after a message. */
int trajopt_parse_virtual(const char *text, const hes_model *m, int *counts);
/* Nonzero when one of the counts is above 0. */
int trajopt_any_virtual(const hes_model *m, const int *counts);

/* The progress lines of the minimisation on stderr (one every tenth
 * evaluation), unless quiet: hes_trajopt_options.progress with this
 * state as its context. */
typedef struct {
    int quiet, last;
} trajopt_progress;
void trajopt_progress_line(void *ctx, int evaluation, double cost, double violation,
                           double psi);

/* The text report of a run; maxeval holds the evaluations allowed on each
 * of its grids (to say which used all of them). */
void trajopt_print_text(const hes_system *sys, const hes_trajopt_result *r, const int *maxeval);
/* -o FILE: the gait file, every write checked: 0, or -1 after the message
 * (a regular file is then removed rather than left empty or cut). */
int trajopt_write_gait(const char *path, const hes_gait *gait, const hes_model *model);

/* The option keys of hes trajopt's own table (cli_args.seen[] tells which
 * were given). */
enum { TJ_OBJECTIVE = 256, TJ_DESIGN, TJ_NODES, TJ_JSON, TJ_WEIGHT, TJ_VIRTUAL, TJ_INIT,
       TJ_INPUTS, TJ_MAXEVAL, TJ_QUIET, TJ_BOUND, TJ_SMOOTH, TJ_MEASURE, TJ_REFINE,
       TJ_PSI_FLOOR, TJ_PSI_SMOOTHING, TJ_SOLVER, TJ_JOBS, TJ_STARTS, TJ_SEED, TJ_SPREAD };

/* What the command line asks for: the library's options (from its
 * defaults) and what the program makes of the rest. */
typedef struct {
    cli_args cli;
    hes_trajopt_options to;
    trajopt_designs design, bounds;
    int grids[HES_TRAJOPT_MAX_GRIDS], n_grids;     /* --nodes */
    int maxeval[HES_TRAJOPT_MAX_GRIDS], n_maxeval; /* --maxeval */
    const char *virtual_spec, *init, *out_path;
    int json;
    trajopt_progress progress;
} trajopt_opts;

/* After the options: the problem of the command line and its
 * virtual-event counts (*counts, malloc'd), once the refusals of option
 * combinations are passed (trajopt_line.c).  0, or the exit status after
 * a message. */
int trajopt_check_line(trajopt_opts *o, const hes_model **model, int **counts);
/* The system of the model with -p, and the gait of --init FILE in *start
 * (-p over its parameters); NULL with *rc after a message. */
hes_system *trajopt_setup(const trajopt_opts *o, const hes_model *model, hes_gait *start,
                          int *rc);

#endif
