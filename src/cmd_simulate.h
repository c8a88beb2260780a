/*
 * cmd_simulate.h - the two halves of `hes simulate`: the perturbation
 * trials (cmd_simulate.c, which also parses the command line) and the
 * sweep of an initial state component (cmd_simulate_sweep.c).
 */
#ifndef HES_CMD_SIMULATE_H
#define HES_CMD_SIMULATE_H

#include "cli.h"

typedef enum { OUT_TEXT, OUT_JSON, OUT_CSV } simulate_output;

/* --sweep NAME=LO:HI:N with its --x0, --mode and --time. */
typedef struct {
    const char *spec;        /* the --sweep argument (NULL: no sweep) */
    char name[64];           /* NAME of the swept state */
    double lo, hi;
    int n;
    double *x0;              /* --x0 values (malloc'd), n_x0 of them */
    int n_x0;
    const char *mode;        /* --mode, NULL: the model's first mode */
    double time;             /* --time, > 0 when given */
    int have_time;
} simulate_sweep_opts;

/* Parses "NAME=LO:HI:N" into sw; 0 or CLI_EXIT_USAGE after printing. */
int simulate_sweep_parse(const char *text, simulate_sweep_opts *sw);
/* Parses --x0 "V1,V2,..." into sw->x0 (malloc'd); 0 or an exit status. */
int simulate_sweep_x0(const char *text, simulate_sweep_opts *sw);
/* The sweep on the set-up system, then the output; the exit status. */
int simulate_sweep(hes_system *sys, const simulate_sweep_opts *sw, simulate_output output);

#endif
