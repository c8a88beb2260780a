/*
 * cmd_continue.h - the parts of `hes continue`: its command line and the
 * branches it follows (cmd_continue.c), and their printing as a table, CSV
 * or one JSON document (continue_print.c).
 */
#ifndef HES_CMD_CONTINUE_H
#define HES_CMD_CONTINUE_H

#include "cli.h"

/* The most branches one run follows (the first and those switched at its
 * period doublings and theirs, --doublings deep), and the most curves of
 * their bifurcations (--param2). */
#define CONT_MAX_BRANCHES 64
#define CONT_MAX_CURVES 128

/* One branch, or one curve of a bifurcation in two parameters, and where
 * it comes from. */
typedef struct {
    hes_continuation c;
    int curve;                   /* 1: a curve (hes_continue_curve), 0: a branch */
    int from_branch, from_point; /* a branch: where it was switched (-1 for the first);
                                    a curve: the branch and its point it starts at */
    int depth;                   /* doublings from the first branch */
    int returns;                 /* the orbit's returns to the section per period */
} cont_branch;

/* A run's branches and what they are of. */
typedef struct {
    const char *problem;         /* the system's name */
    const char *param;           /* the parameter followed */
    double from, to;
    const char *param2;          /* --param2: the curves' second parameter (else NULL) */
    double from2, to2;           /* its value at the branches and where the curves go */
    int n_states;                /* the section state's dimension */
    char **state_names;          /* n_states names (x[i] where the model has none) */
    int n_guards;                /* a hybrid model's transitions (0: an ESS system) */
    char **guard_names;          /* their names, the points' margins' order */
    int n_branches;              /* the branches first, then the curves */
    cont_branch branches[CONT_MAX_BRANCHES + CONT_MAX_CURVES];
} cont_result;

/* The outputs: each prints every branch and curve on standard output and returns the
 * exit status (1 after saying why a write or an allocation failed). */
int continue_print_text(const cont_result *r);
int continue_print_csv(const cont_result *r);
int continue_print_json(const cont_result *r);

#endif
