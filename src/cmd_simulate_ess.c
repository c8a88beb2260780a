/*
 * cmd_simulate_ess.c - `hes simulate PROBLEM --integrator ess --time T
 * --x0 V1,V2,... [--eps E] [--samples N] [--jacobian] [--strict-liveness]
 * [--json|--csv]`:
 * one run of the ESS integrator (hes_ess_run) of an event-selected
 * system from x0 at time 0 to T, printed as the trajectory at the step
 * boundaries (or at N evenly spaced times from 0 to T), the counts of
 * integration and projection steps, the final state and sign pattern, and
 * with --jacobian the derivative d x(T) / d x0.  Text, CSV rows t,STATES...
 * or hes_ess_result_json().  cmd_simulate.c parses the command line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd_simulate.h"

#define CMD "hes simulate"

/* The samples as a table: text columns or CSV (header t,STATES...). */
static void print_samples(const hes_ess *ess, const hes_ess_options *o, const hes_ess_result *r,
                          int csv)
{
    const hes_ess_model *m = hes_ess_get_model(ess);
    int n = m->n, count = o->n_out > 0 ? o->n_out : r->n_samples;
    const char *sep = csv ? "," : "  ", *num = csv ? "%.17g" : "%14.8g";

    char name[32];

    printf(csv ? "t" : "  %14s", "t");
    for (int i = 0; i < n; i++) {
        if (m->state_names)
            snprintf(name, sizeof name, "%s", m->state_names[i]);
        else
            snprintf(name, sizeof name, "x[%d]", i);
        printf(csv ? ",%s" : "  %14s", name);
    }
    printf("\n");
    for (int k = 0; k < count; k++) {
        const double *x = o->n_out > 0 ? &r->x_out[(size_t)k * n] : &r->x[(size_t)k * n];
        printf("%s", csv ? "" : "  ");
        printf(num, o->n_out > 0 ? o->t_out[k] : r->t[k]);
        for (int i = 0; i < n; i++) {
            printf("%s", sep);
            printf(num, x[i]);
        }
        printf("\n");
    }
}

static void print_text(const hes_ess *ess, const hes_ess_options *o, const hes_ess_result *r)
{
    const hes_ess_model *m = hes_ess_get_model(ess);
    int n = m->n;

    printf("problem: %s (event-selected system), integrator ess, eps %g\n", m->name, o->eps);
    printf("steps: %ld integration, %ld projection (guard crossings), %ld sign changes, "
           "%ld re-armings, %ld projections refused (crossed exactly)\n\n", r->n_integrations,
           r->n_projections, r->n_sign_changes, r->n_rearms, r->n_refused);
    print_samples(ess, o, r, 0);
    printf("\nfinal state at t = %.12g: ", r->t_end);
    cli_print_vector(stdout, r->x_end, n, "%.12g");
    printf("\nsigns of the event functions there: [");
    for (int i = 0; i < r->m; i++)
        printf("%s%+d", i ? ", " : "", r->s_end[i]);
    printf("]\n");
    printf("error from the band (the runs at eps/2, eps/4 and eps/8): %.3g, order %.2f\n",
           r->eps_error, r->eps_order);
    if (r->jac) {
        printf("\njacobian d x(T) / d x0:\n");
        cli_print_matrix(stdout, r->jac, n);
    }
}

/* On stderr when the band's error estimate of the end state is above 1e-3
 * of its size (or cannot be trusted): the end state is then only as good as
 * that, and a smaller --eps is the remedy (the error falls as eps^2). */
static void accuracy_note(const hes_ess_options *o, const hes_ess_result *r)
{
    double size = 1.0;
    for (int i = 0; i < r->n; i++)
        size = fmax(size, fabs(r->x_end[i]));
    int trusted = isfinite(r->eps_order) && r->eps_order > 1.5 && r->eps_order < 2.5;
    if (r->eps_error > 1e-3 * size || (!trusted && r->eps_error > 1e-6 * size))
        fprintf(stderr, "%s: note: the end state's error from the band eps = %g is about %.3g "
                "(max norm; the runs at eps/2, eps/4 and eps/8 give order %.2f%s); try a smaller "
                "--eps\n", CMD, o->eps, r->eps_error, r->eps_order,
                trusted ? "" : ", not the method's 2: the estimate itself is rough");
}

int simulate_ess(const hes_ess_model *model, const cli_assignments *params,
                 const simulate_sweep_opts *sw, const simulate_ess_opts *eo,
                 simulate_output output)
{
    hes_ess_options o;
    hes_ess_result r;
    double *t_out = NULL;
    int rc;

    if (sw->run.dim != model->n) {
        fprintf(stderr, "%s: --x0 has %d values; the state of '%s' has %d\n", CMD, sw->run.dim,
                model->name, model->n);
        return CLI_EXIT_USAGE;
    }
    /* the system of the model and the -p values, as every command sets one up */
    hes_system *sys = cli_system_setup_ess(model, params, &rc);
    if (!sys)
        return rc;
    hes_ess *ess = hes_system_ess(sys);
    o = eo->run;
    if (eo->samples > 0) {
        t_out = malloc((size_t)eo->samples * sizeof *t_out);
        if (!t_out || hes_grid_linspace(0.0, sw->run.time, eo->samples, t_out) != HES_OK) {
            fprintf(stderr, "%s: out of memory\n", CMD);
            free(t_out);
            hes_system_destroy(sys);
            return CLI_EXIT_FAILURE;
        }
        o.n_out = eo->samples;
        o.t_out = t_out;
    } else
        o.record = 1;

    hes_status st = hes_ess_run(ess, &o, 0.0, sw->x0, sw->run.time, &r);
    if (st == HES_OK) /* the band's error of the end state: every run says how accurate it is */
        st = hes_ess_run_error(ess, &o, 0.0, sw->x0, sw->run.time, &r);
    if (st == HES_OK)
        accuracy_note(&o, &r);
    if (st != HES_OK) {
        fprintf(stderr, "hes: %s: %s\n", hes_strerror(st), hes_ess_errmsg(ess));
        rc = hes_status_exit_code(st);
    } else if (output == OUT_JSON)
        rc = cli_print_document(CMD, hes_ess_result_json(ess, &o, 0.0, sw->x0, &r));
    else if (output == OUT_CSV)
        print_samples(ess, &o, &r, 1);
    else
        print_text(ess, &o, &r);
    hes_ess_result_free(&r);
    free(t_out);
    hes_system_destroy(sys);
    return rc;
}
