/*
 * cmd_simulate.h - the parts of `hes simulate`: the command line
 * (cmd_simulate.c), the perturbation trials (perturb_trials.c), the
 * sweep of an initial state component (cmd_simulate_sweep.c; its text in
 * state_sweep_print.c), one run of a hybrid model with the derivative of
 * its flow (cmd_simulate_flow.c) and one run of the ESS integrator
 * (cmd_simulate_ess.c); the refusals of options that do not go together
 * (simulate_refusals.c).
 */
#ifndef HES_CMD_SIMULATE_H
#define HES_CMD_SIMULATE_H

#include "cli_args.h"

typedef enum { OUT_TEXT, OUT_JSON, OUT_CSV } simulate_output;

/* --sweep NAME=LO:HI:N with its --x0, --mode and --time (--x0 and --time
 * are also the start and the length of the one run of --jacobian and of
 * --integrator ess). */
typedef struct {
    const char *spec;        /* the --sweep argument (NULL: no sweep) */
    char name[64];           /* NAME of the swept state */
    hes_state_sweep_options run; /* the library's options, filled as the options come:
                                lo, hi, n (--sweep), x0, dim (--x0), time (--time);
                                mode and state once the model is known */
    double *x0;              /* the --x0 values (malloc'd; run.x0 points to them) */
    const char *mode;        /* --mode, NULL: the model's first mode */
    int have_time;           /* --time given */
} simulate_sweep_opts;

/* Parses "NAME=LO:HI:N" into sw; 0 or CLI_EXIT_USAGE after printing. */
int simulate_sweep_parse(const char *text, simulate_sweep_opts *sw);
/* Parses --x0 "V1,V2,..." into sw->x0 (malloc'd); 0, CLI_EXIT_USAGE after
 * printing, or CLI_EXIT_FAILURE out of memory (nothing printed). */
int simulate_sweep_x0(const char *text, simulate_sweep_opts *sw);
/* The start mode (--mode, or the model's first) and the check that --x0 has
 * its dimension; 0 or CLI_EXIT_USAGE after printing. */
int simulate_resolve_start(const hes_model *m, const simulate_sweep_opts *sw, int *mode);
/* One run of a hybrid model from --x0 over --time with the derivative of
 * its flow (--jacobian) and the report of its simultaneous events. */
int simulate_flow(hes_system *sys, const simulate_sweep_opts *sw, simulate_output output);
/* The sweep on the set-up system, then the output; the exit status. */
int simulate_sweep(hes_system *sys, const simulate_sweep_opts *sw, simulate_output output);

/* The text of a state sweep (NAME: the swept state's name) and its CSV rows
 * value,n_events,transitions,mode,state,x,failure (state_sweep_print.c). */
void state_sweep_print_text(const hes_system *sys, const char *name, const hes_state_sweep *res);
void state_sweep_print_csv(const hes_system *sys, const hes_state_sweep *res);
/* The names of the states of a mode, each after a blank and the second on
 * after a comma too (" a, b"; "x[i]" where the mode has none). */
void simulate_print_state_names(FILE *out, const hes_model *m, int mode);

/* The perturbation trials of the options t (--box: in the box of half-width
 * t->perturb instead of the ball) around the orbit of the set-up system,
 * then the output; the exit status (perturb_trials.c). */
int perturb_trials(hes_system *sys, const cli_trial_opts *t, int box, simulate_output output);

/* --integrator ess: the options of its own (with --x0 and --time of sw). */
typedef struct {
    hes_ess_options run;     /* hes_ess_options_init, with --eps, --jacobian,
                                --strict-liveness (near_miss 0) and --ess-method */
    int samples;             /* --samples N, 0: the step boundaries */
} simulate_ess_opts;

/* What the command line asks for (cmd_simulate.c parses it). */
typedef struct {
    cli_args cli;                /* -p, the trial options (trial_option may be --box), PROBLEM */
    int box;                     /* --box: per-component uniform perturbation */
    simulate_output output;
    const char *orbit_file;
    int have_integrator;         /* --integrator given: method is the one named */
    hes_sim_method method;
    int jacobian;                /* --jacobian: ESS, or a hybrid model's one run */
    const char *sweep_option;    /* --x0, --mode or --time: the last given */
    const char *ess_option;      /* the last ESS-only option given */
    simulate_sweep_opts sweep;
    simulate_ess_opts ess;
} simulate_opts;

/* The integrator: the one named, or the one the problem has (ess for an
 * event-selected system, whose model is then *ess_model); 0, or the exit
 * status after a message when it does not fit the problem or the options
 * (simulate_refusals.c). */
int simulate_choose_integrator(simulate_opts *o, const hes_ess_model **ess_model);
/* The refusals of an ESS run, and of a hybrid model's trials, sweep or
 * run: 0, or the exit status after a message. */
int simulate_check_ess(const simulate_opts *o);
int simulate_check_hybrid(const simulate_opts *o);

/* One ESS run of an event-selected system from sw->x0 at time 0 to
 * sw->run.time with the -p assignments, then the output; the exit status
 * (cmd_simulate_ess.c). */
int simulate_ess(const hes_ess_model *model, const cli_assignments *params,
                 const simulate_sweep_opts *sw, const simulate_ess_opts *eo,
                 simulate_output output);

#endif
