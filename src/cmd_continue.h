/*
 * cmd_continue.h - the parts of `hes continue`: its command line and the
 * branches it follows (cmd_continue.c), and their printing as a table, CSV
 * or one JSON document (continue_print.c).
 */
#ifndef HES_CMD_CONTINUE_H
#define HES_CMD_CONTINUE_H

#include "cli.h"

/* The most branches one run follows (the first and those switched at its
 * period doublings and theirs, --doublings deep). */
#define CONT_MAX_BRANCHES 64

/* One branch and where it was switched from. */
typedef struct {
    hes_continuation c;
    int from_branch, from_point; /* -1 for the first branch */
    int depth;                   /* doublings from the first branch */
    int returns;                 /* the orbit's returns to the section per period */
} cont_branch;

/* A run's branches and what they are of. */
typedef struct {
    const char *problem;         /* the system's name */
    const char *param;           /* the parameter followed */
    double from, to;
    int n_states;                /* the section state's dimension */
    char **state_names;          /* n_states names (x[i] where the model has none) */
    int n_branches;
    cont_branch branches[CONT_MAX_BRANCHES];
} cont_result;

/* The outputs: each prints every branch on standard output and returns the
 * exit status (1 after saying why a write or an allocation failed). */
int continue_print_text(const cont_result *r);
int continue_print_csv(const cont_result *r);
int continue_print_json(const cont_result *r);

#endif
