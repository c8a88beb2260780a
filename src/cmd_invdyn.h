/*
 * cmd_invdyn.h - the parts of `hes invdyn`: the command line and the runs
 * (cmd_invdyn.c), the motion of --trajectory or --q --v --a
 * (invdyn_motion.c) and the output of a run in text and CSV
 * (invdyn_print.c).
 */
#ifndef HES_CMD_INVDYN_H
#define HES_CMD_INVDYN_H

#include "cli.h"

/* The most nodes of a trajectory file. */
#define INVDYN_MAX_NODES 1000000

/* The robot and the motion inverse dynamics runs along. */
typedef struct {
    hes_robot *robot;
    int nodes, nq, nv, nc;  /* q has nq values per node, v and a nv */
    double *t, *q;
    int *stance;            /* nodes x nc, or NULL */
    double *v, *a;          /* one state only */
} invdyn_input;

void invdyn_input_free(invdyn_input *in);

/* The trajectory file (a header naming t and every coordinate of
 * in->robot, optionally stance:SITE columns; one row per node) into in's
 * nodes, t, q and stance (NULL without stance columns): 0, or the exit
 * status after a message naming the file, line and field. */
int invdyn_read_trajectory(const char *file, invdyn_input *in);
/* The state of --q, --v and --a (in->nq, in->nv and in->nv numbers) as a motion
 * of one node: 0, or the exit status after a message naming the robot's
 * coordinates. */
int invdyn_read_state(const char *qt, const char *vt, const char *at, invdyn_input *in);

/* Prints a run (text, or one row per node with csv; what: the robot or
 * gait for the text's first line) and frees it; the exit status, 1 when a
 * node is infeasible or failed. */
int invdyn_report(hes_invdyn_run *run, const invdyn_input *in, const char *what,
                  const hes_invdyn_run_options *ro, int csv);

#endif
