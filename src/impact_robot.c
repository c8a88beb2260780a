/*
 * impact_robot.c - the impact of `hes impact --robot FILE`: a robot file
 * (MJCF or URDF, loaded by MuJoCo) at the pre-impact state of --q and --v,
 * its contacts (--contacts NAME:MU,..., or every site) those touching the
 * ground within --gap-tol, as an impact problem.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_impact.h"

#define CMD "hes impact"

void impact_robot_free(robot_impact *r)
{
    hes_robot_destroy(r->robot);
    free(r->idx), free(r->q), free(r->v);
}

int impact_robot_problem(const char *file, const char *q_text, const char *v_text,
                         const char *contacts_text, double gap_tol, robot_impact *r)
{
    hes_robot_contact *c = NULL;
    char *buf = NULL;
    hes_error msg;
    int n = 0;
    if (contacts_text && (n = cli_parse_contacts(CMD, contacts_text, &c, &buf)) < 1)
        return n == -2 ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
    hes_status st = hes_robot_read(file, n ? c : NULL, n, &r->robot, &msg);
    free(c), free(buf);
    if (st != HES_OK) {
        fprintf(stderr, "%s: %s\n", CMD, msg.message);
        return st == HES_ESOLVER ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
    }
    const hes_mech *m = hes_robot_mech(r->robot);
    if (hes_robot_contact_count(r->robot) < 1) {
        fprintf(stderr, "%s: %s has no sites: name its contacts with --contacts NAME:MU,...\n",
                CMD, file);
        return CLI_EXIT_USAGE;
    }
    double *q = NULL, *v = NULL;
    int nq = 0, nv = 0, dq, dv;              /* given, and the robot's */
    hes_robot_dims(r->robot, &dq, &dv);
    if (cli_parse_vector(q_text, &q, &nq) || cli_parse_vector(v_text, &v, &nv) || nq != dq ||
        nv != dv) {
        if (dq == dv)
            fprintf(stderr, "%s: --q and --v need %d numbers each (the robot's coordinates",
                    CMD, dv);
        else
            fprintf(stderr, "%s: --q and --v need %d and %d numbers (the robot's positions "
                    "and velocities; coordinates", CMD, dq, dv);
        for (int i = 0; i < dq; i++)
            fprintf(stderr, "%s%s", i ? ", " : ": ", hes_robot_coordinate(r->robot, i));
        for (int i = 0; dq != dv && i < dv; i++)
            fprintf(stderr, "%s%s", i ? ", " : "; velocities: ",
                    hes_robot_velocity_name(r->robot, i));
        fprintf(stderr, ")\n");
        free(q);
        free(v);
        return CLI_EXIT_USAGE;
    }
    r->q = q;
    r->v = v;
    if (!(r->idx = malloc(sizeof *r->idx * (size_t)hes_robot_contact_count(r->robot)))) {
        fprintf(stderr, "%s: out of memory\n", CMD);
        return CLI_EXIT_FAILURE;
    }
    /* An impact is at contact: every contact named with --contacts must
       touch the ground (its height within gap_tol); of the default ones
       (every site) those that do not are left out with a note. */
    hes_robot_dynamics d;
    if ((st = hes_robot_dynamics_at(r->robot, r->q, r->v, &d, &msg)) != HES_OK) {
        fprintf(stderr, "%s: %s\n", CMD, msg.message);
        return hes_status_exit_code(st);
    }
    int k = 0;                                   /* each: normal 2 i, no-slip 2 i + 1 */
    for (int i = 0; i < hes_robot_contact_count(r->robot); i++) {
        const char *name = hes_robot_contact_name(r->robot, i);
        if (fabs(d.phi[i]) <= gap_tol) {
            r->idx[k++] = 2 * i;
            continue;
        }
        if (contacts_text) {
            fprintf(stderr, "%s: contact %s is %.6g m %s the ground at the given q (more than "
                    "--gap-tol %g): an impact needs its contacts touching\n", CMD, name,
                    fabs(d.phi[i]), d.phi[i] > 0 ? "above" : "into", gap_tol);
            return CLI_EXIT_USAGE;
        }
        fprintf(stderr, "%s: note: site %s is %.6g m %s the ground (more than --gap-tol %g): "
                "left out of the impact\n", CMD, name, fabs(d.phi[i]),
                d.phi[i] > 0 ? "above" : "into", gap_tol);
    }
    if (k == 0) {
        fprintf(stderr, "%s: no contact of %s touches the ground at the given q (within "
                "--gap-tol %g): there is no impact\n", CMD, file, gap_tol);
        return CLI_EXIT_USAGE;
    }
    snprintf(r->name, sizeof r->name, "%s", file);
    snprintf(r->description, sizeof r->description, "the robot of %s at the given q, v", file);
    r->pb = (hes_impact_problem){ r->name, r->description, m, k, r->idx, NULL, 0, 20, 4096 };
    return 0;
}
