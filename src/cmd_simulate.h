/*
 * cmd_simulate.h - the three parts of `hes simulate`: the perturbation
 * trials (cmd_simulate.c, which also parses the command line), the
 * sweep of an initial state component (cmd_simulate_sweep.c) and one run
 * of the ESS integrator (cmd_simulate_ess.c).
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
/* The start mode (--mode, or the model's first) and the check that --x0 has
 * its dimension; 0 or CLI_EXIT_USAGE after printing. */
int simulate_resolve_start(const hes_model *m, const simulate_sweep_opts *sw, int *mode);
/* One run of a hybrid model from --x0 over --time with the derivative of
 * its flow (--jacobian) and the report of its simultaneous events. */
int simulate_flow(hes_system *sys, const simulate_sweep_opts *sw, simulate_output output);
/* The sweep on the set-up system, then the output; the exit status. */
int simulate_sweep(hes_system *sys, const simulate_sweep_opts *sw, simulate_output output);

/* --integrator ess: the options of its own (with --x0 and --time of sw). */
typedef struct {
    double eps;              /* --eps */
    int have_eps;
    int samples;             /* --samples N, 0: the step boundaries */
    int jacobian;            /* --jacobian */
    int strict_liveness;     /* --strict-liveness: options.near_miss = 0 */
    hes_ess_method method;   /* --ess-method */
} simulate_ess_opts;

/* One ESS run of an event-selected system from sw->x0 at time 0 to
 * sw->time with the -p assignments, then the output; the exit status
 * (cmd_simulate_ess.c). */
int simulate_ess(const hes_ess_model *model, const cli_assignments *params,
                 const simulate_sweep_opts *sw, const simulate_ess_opts *eo,
                 simulate_output output);

#endif
