/*
 * cmd_simulate_flow.c - `hes simulate PROBLEM --x0 ... --time T --jacobian`
 * of a hybrid model: one run with the derivative of its flow
 * (hes_flow_jacobian) and the report of its simultaneous events: where a
 * change of contact order leaves the flow differentiable (decoupled limbs)
 * and where it does not.  cmd_simulate.c parses the command line.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <stdlib.h>

#include "cmd_simulate.h"

int simulate_flow(hes_system *sys, const simulate_sweep_opts *sw, simulate_output output)
{
    const hes_model *m = hes_system_model(sys);
    int mode, rc = simulate_resolve_start(m, sw, &mode);
    if (rc != 0)
        return rc;
    hes_flow f;
    hes_status st = hes_flow_jacobian(sys, mode, sw->x0, sw->run.time, &f);
    if (st != HES_OK) {
        hes_flow_free(&f);
        return cli_report_status(st, sys);
    }
    if (output == OUT_JSON) {
        rc = cli_print_document("hes simulate", hes_flow_json(sys, mode, sw->x0, sw->run.time, &f));
    } else {
        const hes_phase *end = &f.traj.phases[f.traj.n_phases - 1];
        printf("problem: %s\nfrom mode %s at x0 = ", m->name, m->modes[mode].name);
        cli_print_vector(stdout, sw->x0, m->modes[mode].dim, "%.12g");
        printf(" over t = %.12g\n\nevents:\n", sw->run.time);
        for (int e = 0; e < f.traj.n_events; e++)
            printf("  %-28s t = %.12g\n", m->transitions[f.traj.events[e].transition].name,
                   f.traj.events[e].t);
        printf("\nfinal state in mode %s: ", m->modes[end->mode].name);
        cli_print_vector(stdout, end->x1, m->modes[end->mode].dim, "%.12g");
        printf("\n\njacobian d x(T) / d x0 (saltation matrices at the events)");
        if (f.n < m->modes[mode].dim) {   /* a state on a manifold: its tangent coordinates */
            char buf[64];
            printf(", in the tangent coordinates");
            for (int i = 0; i < f.n; i++)
                printf("%s%s", i ? ", " : " ", cli_tangent_name(m, mode, i, buf, sizeof buf));
        }
        printf(":\n");
        cli_print_matrix(stdout, f.jac, f.n);
        cli_print_simultaneous(m, f.simultaneous, f.n_simultaneous);
    }
    hes_flow_free(&f);
    return rc;
}
