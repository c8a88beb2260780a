/*
 * cmd_analyze.h - the two parts of `hes analyze`: hybrid models by the
 * saltation pipeline (cmd_analyze.c, which also parses the command line;
 * its text in analyze_print.c) and event-selected systems by the ESS
 * integrator (cmd_analyze_ess.c).
 */
#ifndef HES_CMD_ANALYZE_H
#define HES_CMD_ANALYZE_H

#include "cli_args.h"

/* The options of an ESS analysis. */
typedef struct {
    const char *x0_text;     /* --x0 (NULL: the model's guess) */
    double period;           /* --period */
    int have_period;
    const char *section;     /* --section NAME (NULL: the model's) */
    double eps;              /* --eps */
    int have_eps;
    int strict_liveness;     /* --strict-liveness: options.ess.near_miss = 0 */
    hes_ess_method method;   /* --ess-method */
} analyze_ess_opts;

/* What the command line asks for. */
typedef struct {
    cli_args cli;
    int json, check, gradient, impact_n, threads;
    double check_step;                   /* --check-step (0: the settings' fd_step) */
    int check_order;                     /* --check-order (0: the settings' fd_order) */
    unsigned long select;                /* 1 random, 0 lemke */
    const char *impact_option;           /* --select or --threads, which need --impact-set */
    const char *orbit_file, *x0_text, *mode_name;
    const char *ess_option;              /* the last ESS-only option given */
    analyze_ess_opts eo;
} analyze_opts;

/* The system of an event-selected PROBLEM with its options (analyze_system.c),
 * of a hybrid PROBLEM or the gait of --orbit (orbit: the gait read, to
 * free); NULL with *rc after a message. */
hes_system *analyze_ess_problem(const hes_ess_model *m, analyze_opts *o, int *rc);
hes_system *analyze_hybrid_problem(const analyze_opts *o, cli_orbit *orbit, int *rc);

/* The system of an ESS model with the -p assignments and the ESS options
 * of the command line; NULL with *exit_code after a message. */
hes_system *analyze_ess_system(const hes_ess_model *model, const cli_assignments *params,
                               const analyze_ess_opts *opts, int *exit_code);
/* The text of a hybrid model's analysis (analyze_print.c), of its gradient
 * of psi (--gradient) and of its impact set (--impact-set). */
void analyze_print_text(const hes_system *sys, const hes_analysis *res);
void analyze_print_gradient(const hes_system *sys, const hes_shape *sh,
                            const hes_shape_eval_result *ev);
void analyze_print_impact_set(const hes_system *sys, const hes_impact_orbit *r,
                              unsigned long select);
/* The text of an ESS system's analysis. */
void analyze_ess_print(const hes_system *sys, const hes_analysis *res);

#endif
