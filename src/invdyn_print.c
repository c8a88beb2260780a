/*
 * invdyn_print.c - the output of `hes invdyn`: per node the status,
 * torques, contact forces, friction ratios and the smallest friction
 * coefficient that holds the motion, then the trajectory's; as text or
 * as one CSV row per node (--csv, the table 'hes plot' reads).
 */
#include <math.h>
#include <stdio.h>

#include "cmd_invdyn.h"

#define CMD "hes invdyn"

/* The header names every torque, contact force, ratio and stance column. */
static void print_csv(const hes_invdyn_run *r, const invdyn_input *in,
                      const hes_invdyn_options *o)
{
    printf("t,method,status");
    for (int k = 0; k < r->nu; k++)
        printf(",tau%d", k);
    const char *dir[3] = { "fn", "fx", "fy" };
    for (int d = 0; d <= r->tangents; d++)
        for (int c = 0; c < r->nc; c++)
            printf(",%s:%s", dir[d], hes_robot_contact_name(in->robot, c));
    for (int c = 0; c < r->nc; c++)
        printf(",ratio:%s", hes_robot_contact_name(in->robot, c));
    for (int c = 0; c < r->nc; c++)
        printf(",stance:%s", hes_robot_contact_name(in->robot, c));
    printf(",mu_min,slip\n");
    int rows = r->nc * (1 + r->tangents);
    for (int n = 0; n < r->nodes; n++) {
        printf("%.10g,%s,%s", r->t[n], hes_invdyn_method_name(o->method),
               r->status[n] == HES_OK ? "ok" : hes_strerror(r->status[n]));
        for (int k = 0; k < r->nu; k++)
            printf(",%.10g", r->tau[(size_t)n * r->nu + k]);
        for (int k = 0; k < rows; k++)
            printf(",%.10g", r->f[(size_t)n * rows + k]);
        for (int c = 0; c < r->nc; c++)
            printf(",%.10g", r->ratio[(size_t)n * r->nc + c]);
        for (int c = 0; c < r->nc; c++)
            printf(",%d", r->stance[(size_t)n * r->nc + c]);
        printf(",%.10g,%.10g\n", r->mu_min[n], r->slip[n]);
    }
}

/* The robot, method and period, then a table: per node the status, the
 * largest torque, each stance contact's normal force and friction ratio,
 * the smallest friction; then the trajectory's smallest friction. */
static void print_text(const hes_invdyn_run *r, const invdyn_input *in, const char *file,
                       const hes_invdyn_options *o, double dt)
{
    int rows = r->nc * (1 + r->tangents);
    printf("robot: %s, %d node%s, method %s, dt %g\n", file, r->nodes, r->nodes > 1 ? "s" : "",
           hes_invdyn_method_name(o->method), dt);
    if (o->method == HES_INVDYN_NONE)
        printf("contacts ignored (the baseline): no contact forces, and the equation of motion "
               "is not checked: 'ok' means only that the torques are within the motors' "
               "limits\n");
    else
        printf("friction model: the pyramid |f_x| + |f_y| <= mu f_n (ratios, checks and the "
               "smallest friction)\n");
    printf("torques:");
    for (int k = 0; k < r->nu; k++)
        printf(" tau%d %s%s", k, hes_robot_motor_joint(in->robot, k) ?
               hes_robot_motor_joint(in->robot, k) : "?", k + 1 < r->nu ? "," : "\n");
    printf("%12s  %-10s %10s", "t", "status", "max|tau|");
    for (int c = 0; c < r->nc; c++)
        printf("  %14s", hes_robot_contact_name(in->robot, c));
    printf("  %9s\n", "mu_min");
    printf("%12s  %-10s %10s", "", "", "");
    for (int c = 0; c < r->nc; c++)
        printf("  %14s", "f_n / ratio");
    printf("\n");
    for (int n = 0; n < r->nodes; n++) {
        double tm = 0;
        for (int k = 0; k < r->nu; k++)
            tm = fmax(tm, fabs(r->tau[(size_t)n * r->nu + k]));
        const char *sw = r->status[n] == HES_OK ? "ok"
                         : r->status[n] == HES_EINFEASIBLE ? "infeasible" : "failed";
        printf("%12.6g  %-10s %10.4g", r->t[n], sw, tm);
        for (int c = 0; c < r->nc; c++) {
            if (!r->stance[(size_t)n * r->nc + c])
                printf("  %14s", "-");
            else
                printf("  %7.3f/%6.4f", r->f[(size_t)n * rows + c],
                       r->ratio[(size_t)n * r->nc + c]);
        }
        if (r->mu_min[n] >= 0)
            printf("  %9.6f", r->mu_min[n]);
        printf("\n");
        if (r->status[n] != HES_OK)
            printf("%12s  %s\n", "", r->message[n]);
    }
    /* the friction a motion needs is no-slip's (the bisection of mu_min); the
       other methods' forces only have a largest ratio, within their cones */
    int needs = o->method == HES_INVDYN_NO_SLIP && o->min_friction;
    const char *what = needs ? "smallest friction coefficient that holds the motion"
                             : "largest friction ratio |f_t|/f_n of the forces";
    if (r->worst >= 0 && r->counted == r->nodes)
        printf("%s: %.6f (at t = %g)\n", what, r->mu_required, r->t[r->worst]);
    else if (r->worst >= 0)
        printf("%s at the %d of %d nodes where the motion holds otherwise: %.6f (at t = %g)\n",
               what, r->counted, r->nodes, r->mu_required, r->t[r->worst]);
    printf("nodes infeasible or failed: %d of %d\n", r->failed, r->nodes);
}

int invdyn_report(hes_invdyn_run *run, const invdyn_input *in, const char *what,
                  const hes_invdyn_run_options *ro, int csv)
{
    if (csv)
        print_csv(run, in, &ro->solve);
    else
        print_text(run, in, what, &ro->solve, ro->dt);
    int rc = run->failed ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
    if (run->failed)
        fprintf(stderr, "%s: %d of %d nodes infeasible or failed\n", CMD, run->failed,
                run->nodes);
    hes_invdyn_run_free(run);
    return rc;
}
