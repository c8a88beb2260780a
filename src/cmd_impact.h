/*
 * cmd_impact.h - the parts of `hes impact`: the command line and the run
 * (cmd_impact.c), the impact of a robot file at a given state
 * (impact_robot.c), the single-valued laws (impact_laws.c) and the output
 * in text and CSV (impact_print.c).
 */
#ifndef HES_CMD_IMPACT_H
#define HES_CMD_IMPACT_H

#include "cli.h"

/* The name of contact i of an impact problem. */
const char *impact_contact_name(const hes_impact_problem *pb, int i);

/* An impact of a robot file (--robot FILE --q ... --v ... [--contacts
 * NAME:MU,...]): the robot and the problem made of it. */
typedef struct {
    hes_robot *robot;
    hes_impact_problem pb;
    int *idx;                /* k contacts' normals */
    double *q, *v;           /* d each */
    char name[256], description[512];
} robot_impact;

/* The robot of `file` at the state of q_text and v_text, its contacts
 * those of contacts_text (NULL: every site, those farther than gap_tol
 * from the ground left out with a note) into r: 0, or the exit status
 * after a message.  impact_robot_free(r) in every case. */
int impact_robot_problem(const char *file, const char *q_text, const char *v_text,
                         const char *contacts_text, double gap_tol, robot_impact *r);
void impact_robot_free(robot_impact *r);

/* --law LAW for pb: *single 0 for the set (routh), else 1 with the one law
 * in *one (sequential: the contacts' order; its arrays the caller's to
 * free with hes_impact_outcome_free, also on failure).  0, or the exit
 * status after a message (impact_laws.c). */
int impact_choose_law(const hes_impact_problem *pb, const char *law, hes_impact_outcome *one,
                      int *single);
/* The single-valued outcomes of the impact s into outs (room for 3), *n_outs
 * of them: with the sampled set S, Anitescu-Potra and the contacts' order
 * and its reverse, located in the set (a sequence that does not end is an
 * answer then); without it (NULL), the one law of *one.  Their arrays are
 * the caller's to free (hes_impact_outcome_free, the *n_outs made, also on
 * failure).  0, or the exit status after a message. */
int impact_outcomes(const hes_impact_setup *s, const hes_impact_set *S,
                    const hes_impact_outcome *one, hes_impact_outcome *outs, int *n_outs);

/* One row per sample of the set (--csv). */
void impact_print_csv(const hes_impact_problem *pb, const hes_impact_set *S);
/* The text report: the contacts before the impact, the single-valued
 * outcomes (n_outs of them) and, when S is not NULL, the sampled set
 * (o: its options), its summary and extremes.  The exit status. */
int impact_print_text(const hes_impact_problem *pb, const hes_impact_setup *s,
                      const hes_impact_outcome *outs, int n_outs, const hes_impact_set *S,
                      const hes_impact_set_options *o);

#endif
