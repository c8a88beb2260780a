/*
 * cmd_shape.h - the parts of `hes shape`: its command line and run
 * (cmd_shape.c), the start values and bounds of the shape parameters that
 * --start and --bounds give (shape_arrays.c), and its text report and
 * progress line (shape_print.c).
 */
#ifndef HES_CMD_SHAPE_H
#define HES_CMD_SHAPE_H

#include "cli.h"

/* Start values and bounds over the shape parameters, in model order: what
 * hes_shape_options takes with n = 0.  A NaN entry is the library's default
 * (the system's value, the model's search bound). */
typedef struct {
    int n;
    int *param;              /* parameter index of shape parameter j */
    double *start, *lo, *hi;
} shape_arrays;

/* Every shape parameter of the system, every entry NaN.  0, or
 * CLI_EXIT_FAILURE after printing (out of memory). */
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
} shape_progress_state;
void shape_progress(int evaluations, double best, void *data);

/* The text report of an optimisation with the options it ran with, and of
 * its --verify trials (NULL without). */
void shape_print_text(const hes_system *sys, const hes_shape_result *res,
                      const hes_shape_options *so, const hes_trials *trials);

#endif
