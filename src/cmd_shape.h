/*
 * cmd_shape.h - the parts of `hes shape`: its command line and run
 * (cmd_shape.c), the start values and bounds of the shape parameters that
 * --start and --bounds give (shape_arrays.c), and its text report and
 * progress line (shape_print.c).
 */
#ifndef HES_CMD_SHAPE_H
#define HES_CMD_SHAPE_H

#include "cli.h"

/* Start values and bounds over the shape parameters, in model order, then
 * the other parameters --start or --bounds named (they move the orbit), in
 * the order named: what hes_shape_options takes.  A NaN entry is the
 * library's default (the system's value, the model's search bound). */
typedef struct {
    int n;
    int moving;              /* of them, the parameters that move the orbit (the last) */
    int *param;              /* parameter index of optimised parameter j */
    const char **names;      /* its name */
    double *start, *lo, *hi;
} shape_arrays;

/* Every shape parameter of the system, every entry NaN, with room for
 * every parameter.  0, or CLI_EXIT_FAILURE after printing (out of memory). */
int shape_arrays_init(shape_arrays *a, const hes_system *sys);
/* Applies the --start NAME=VALUE and --bounds NAME=LO:HI items of the
 * command line (hes_shape_optimize checks that every start lies within its
 * bounds).  0, or the exit status after printing why. */
int shape_arrays_apply(shape_arrays *a, const hes_model *m, const cli_assignments *starts,
                       const cli_assignments *bounds);
void shape_arrays_free(shape_arrays *a);

/* The progress line of the optimisation on a terminal: so.progress with
 * this state as its data. */
typedef struct {
    cli_progress line;       /* the terminal's progress line */
    int last;                /* evaluations at the last redraw */
    int every;               /* redrawn every this many evaluations */
} shape_progress_state;
/* The redraw interval of fast evaluations (shape parameters). */
#define SHAPE_PROGRESS_EVERY 50
void shape_progress(int evaluations, double best, void *data);

/* The text report of an optimisation with the options it ran with, and of
 * its --verify trials (NULL without). */
void shape_print_text(const hes_system *sys, const hes_shape_result *res,
                      const hes_shape_options *so, const hes_trials *trials);

#endif
