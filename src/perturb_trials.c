/*
 * perturb_trials.c - the perturbation trials of `hes simulate PROBLEM` (the
 * paper's Fig. 3 experiment): finds the periodic orbit (hes_orbit_find),
 * runs the trials from perturbed section states (hes_trials_run, or
 * hes_trials_run_box with --box) and reports them: a table of the trials
 * with the final error and failure of each, how many converged and the
 * verdict; CSV rows trial,step,error (both counted from 1); or
 * hes_trials_json().
 */
#include <stdio.h>

#include "cmd_simulate.h"

#define CMD "hes simulate"

/* The verdict line: every start returned, every one is returning but some
 * too slowly for the tolerance, or how many did not return (failed, or
 * completed with the error still shrinking below the first period's). */
static void print_verdict(const hes_trials *t)
{
    int failed = 0, shrinking = 0;

    for (int k = 0; k < t->n_trials; k++) {
        const hes_trial *tr = &t->trials[k];
        if (tr->failure != HES_OK)
            failed++;
        else if (tr->steps_completed == t->steps && tr->error[t->steps - 1] >= t->tol &&
                 tr->error[t->steps - 1] < tr->error[0])
            shrinking++;
    }
    if (t->converged == t->n_trials)
        printf("verdict: every perturbed start returned to the orbit; "
               "it attracts the %s %g\n", t->box ? "box of half-width" : "ball of radius",
               t->radius);
    else if (failed == 0 && shrinking == t->n_trials - t->converged)
        printf("verdict: every perturbed start is returning to the orbit, but %d have not yet "
               "reached the tolerance in %d periods (try more --steps)\n", shrinking, t->steps);
    else
        printf("verdict: %d of %d perturbed starts did not return to the orbit within %d "
               "periods (%d failed, %d still shrinking)\n", t->n_trials - t->converged,
               t->n_trials, t->steps, failed, shrinking);
}

/* The table of the trials, how many converged and the verdict. */
static void print_text(const hes_system *sys, const hes_orbit *orbit, const hes_trials *t)
{
    const hes_model *m = hes_system_model(sys);

    printf("problem: %s\n", m->name);
    printf("orbit: period %.12g, section state ", orbit->period);
    cli_print_vector(stdout, orbit->x0, orbit->n, "%.10g");
    printf(" in mode %s\n", m->modes[orbit->mode].name);
    printf("trials: %d starts uniform in the %s %g around the section "
           "state, %d periods each, seed %lu\n",
           t->n_trials, t->box ? "box, every component within +-" : "ball of radius",
           t->radius, t->steps, t->seed);
    if (m->orbit.symmetries && m->orbit.n_symmetries > 0) {
        /* the error is the library's, in the quotient (hes_trials_run) */
        printf("error: the distance from the section state up to the orbit's symmetries (");
        for (int k = 0; k < m->orbit.n_symmetries; k++)
            printf("%s%s", k ? ", " : "",
                   m->orbit.symmetry_names ? m->orbit.symmetry_names[k] : "unnamed");
        printf(")%s\n", m->orbit.symmetry_act ? ": from the nearest moved copy"
                                               : ", to first order in them");
    }
    printf("\n");

    printf("  %5s  %6s  %12s  %s\n", "trial", "steps", "final error", "failure");
    for (int k = 0; k < t->n_trials; k++) {
        const hes_trial *tr = &t->trials[k];

        printf("  %5d  %6d  ", k + 1, tr->steps_completed);
        if (tr->steps_completed > 0)
            printf("%12.4e  ", tr->error[tr->steps_completed - 1]);
        else
            printf("%12s  ", "-");
        if (tr->failure == HES_OK)
            printf("-\n");
        else if (tr->failure_msg[0])
            printf("%s: %s\n", hes_strerror(tr->failure), tr->failure_msg);
        else
            printf("%s\n", hes_strerror(tr->failure));
    }
    printf("\nconverged: %d of %d (final error < %g)\n", t->converged, t->n_trials, t->tol);
    print_verdict(t);
}

/* Rows trial,step,error, both counted from 1. */
static void print_csv(const hes_trials *t)
{
    printf("trial,step,error\n");
    for (int k = 0; k < t->n_trials; k++)
        for (int s = 0; s < t->trials[k].steps_completed; s++)
            printf("%d,%d,%.17g\n", k + 1, s + 1, t->trials[k].error[s]);
}

int perturb_trials(hes_system *sys, const cli_trial_opts *t, int box, simulate_output output)
{
    cli_progress progress;
    char what[96];
    hes_orbit orbit;
    hes_trials trials;
    hes_status st;
    int rc = CLI_EXIT_OK;

    if (!hes_system_model(sys)->orbit.guess) {
        fprintf(stderr, "hes simulate: problem '%s' declares no periodic orbit to perturb; "
                "sweep initial states instead (--sweep NAME=LO:HI:N --x0 ... --time T)\n",
                hes_system_model(sys)->name);
        return CLI_EXIT_USAGE;
    }
    cli_progress_init(&progress, CMD);
    cli_progress_say(&progress, "finding the periodic orbit ...");
    st = hes_orbit_find(sys, &orbit);
    cli_progress_clear(&progress);
    if (st != HES_OK)
        return cli_report_status(st, sys);

    snprintf(what, sizeof what, "running %d trials of %d periods ...", t->trials, t->steps);
    cli_progress_say(&progress, what);
    st = (box ? hes_trials_run_box : hes_trials_run)(sys, &orbit, t->trials, t->perturb,
                                                        t->steps, t->seed, t->tol, &trials);
    cli_progress_clear(&progress);
    if (st != HES_OK) {
        rc = cli_report_status(st, sys);
        hes_orbit_free(&orbit);
        return rc;
    }
    if (output == OUT_JSON)
        rc = cli_print_document(CMD, hes_trials_json(sys, &orbit, &trials));
    else if (output == OUT_CSV)
        print_csv(&trials);
    else
        print_text(sys, &orbit, &trials);
    hes_trials_free(&trials);
    hes_orbit_free(&orbit);
    return rc;
}
