/*
 * cmd_analyze_ess.c - what `hes analyze PROBLEM` does differently for an
 * event-selected system: its system (hes_system_new_ess) with the ESS
 * options of the command line, and the text of its analysis.  The analysis
 * itself is hes_analyze's, the one pipeline cmd_analyze.c runs for every
 * kind of model.  The guess is the model's (orbit_x0, orbit_period,
 * orbit_section) unless --x0, --period and --section give one; --eps sets
 * the band, --strict-liveness refuses guards in their band that are not
 * live (options.near_miss = 0) instead of watching them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_analyze.h"

#define CMD "hes analyze"

static const char *state_label(const hes_ess_model *m, int i, char *buf, size_t len)
{
    if (m->state_names)
        return m->state_names[i];
    snprintf(buf, len, "x[%d]", i);
    return buf;
}

/* --section NAME (a state name, or x[i], or an index); -1 after a message. */
static int section_index(const hes_ess_model *m, const char *text)
{
    char buf[32];
    for (int i = 0; i < m->n; i++)
        if (strcmp(text, state_label(m, i, buf, sizeof buf)) == 0)
            return i;
    int i;
    if (cli_parse_int(text, &i) == 0 && i >= 0 && i < m->n)
        return i;
    fprintf(stderr, "%s: --section '%s' is not a state of '%s' (", CMD, text, m->name);
    for (int k = 0; k < m->n; k++)
        fprintf(stderr, "%s%s", k ? ", " : "", state_label(m, k, buf, sizeof buf));
    fprintf(stderr, ", or an index 0 to %d)\n", m->n - 1);
    return -1;
}

void analyze_ess_print(const hes_system *sys, const hes_analysis *res)
{
    const hes_ess_model *m = hes_system_ess_model(sys);
    const double *p = hes_system_params(sys);
    const hes_ess_orbit *r = res->ess;
    hes_ess_orbit_options o;
    char buf[32];

    hes_system_get_ess_options(sys, &o);
    printf("problem: %s (event-selected system), integrator ess, eps %g\n", m->name, o.ess.eps);
    printf("parameters:");
    for (int k = 0; k < m->n_params; k++)
        printf("%s %s = %.10g", k ? "," : "", m->params[k].name, p[k]);
    printf("\n\nperiodic orbit (section %s = %.10g): period %.12g s, %d Newton iterations, "
           "residual %.3g\n", state_label(m, r->section, buf, sizeof buf), r->x0[r->section],
           r->period, r->iterations, r->residual);
    for (int i = 0; i < m->n; i++)
        printf("  %-12s %20.12g\n", state_label(m, i, buf, sizeof buf), r->x0[i]);
    printf("per period: %ld projections (guard crossings), %ld sign changes, %ld projections "
           "refused (crossed exactly)\n\n", r->n_projections, r->n_sign_changes, r->n_refused);
    printf("monodromy d x(T) / d x0 (the ESS integrator's derivative):\n");
    cli_print_matrix(stdout, res->mono.phi, r->n);
    printf("return map on the section (I - f e_c^T / f_c) d x(T) / d x0:\n");
    cli_print_matrix(stdout, res->mono.proj, r->n);
    printf("\nnontrivial multipliers (%d):\n", res->stab.n_mult);
    for (int k = 0; k < res->stab.n_mult; k++)
        printf("  %+.12f %+.12fi   |lambda| = %.12f\n", res->stab.re[k], res->stab.im[k],
               res->stab.abs[k]);
    if (res->have_check)
        printf("\ncheck: the monodromy against central differences of full ESS runs: max "
               "|difference| %.3g\n", res->check_max_abs_diff);
    if (o.check_eps && isnan(r->eps_order))
        printf("\nerror of psi from the band: %.2g (from the orbit at eps / 2; the changes "
               "are at the integration's noise, no order observed)", r->eps_error);
    else if (o.check_eps)
        printf("\nerror of psi from the band: %.2g (from the orbits at eps / 2, eps / 4 and eps / 8; "
               "observed order %.3g)", r->eps_error, r->eps_order);
    printf("\npsi = %.12f (+- %.2g): %s\n", res->stab.psi, res->stab.psi_tol,
           hes_verdict_name(res->stab.verdict));
}

hes_system *analyze_ess_system(const hes_ess_model *model, const cli_assignments *params,
                               const analyze_ess_opts *ao, int *exit_code)
{
    hes_ess_orbit_options o;
    double *x0 = NULL;
    int n_x0 = 0, section = model->orbit_section;

    *exit_code = CLI_EXIT_USAGE;
    if (ao->section && (section = section_index(model, ao->section)) < 0)
        return NULL;
    if (ao->x0_text) {
        int rc = cli_parse_vector(ao->x0_text, &x0, &n_x0);
        if (rc != 0) {
            fprintf(stderr, "%s: --x0 '%s': expected comma-separated finite numbers\n", CMD,
                    ao->x0_text);
            *exit_code = rc == -2 ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
            return NULL;
        }
        if (n_x0 != model->n) {
            fprintf(stderr, "%s: --x0 has %d values; the state of '%s' has %d\n", CMD, n_x0,
                    model->name, model->n);
            free(x0);
            return NULL;
        }
    }
    if (!model->orbit_x0 && (!x0 || !ao->section)) {
        fprintf(stderr, "%s: '%s' has no periodic orbit guess: give --x0 V1,V2,... (a state on "
                "the section), --period T and --section NAME\n", CMD, model->name);
        free(x0);
        return NULL;
    }
    if (!((ao->have_period ? ao->period : model->orbit_period) > 0)) {
        fprintf(stderr, "%s: give --period T (> 0), the period's guess\n", CMD);
        free(x0);
        return NULL;
    }
    hes_system *sys = cli_system_setup_ess(model, params, exit_code);
    if (!sys) {
        free(x0);
        return NULL;
    }
    hes_system_get_ess_options(sys, &o);
    if (ao->have_eps)
        o.ess.eps = ao->eps;
    o.ess.near_miss = !ao->strict_liveness;
    o.ess.method = ao->method;
    o.section = section;
    hes_status st = hes_system_set_ess_options(sys, &o);
    if (st == HES_OK && x0)
        st = hes_system_set_orbit_start(sys, x0);
    if (st == HES_OK && ao->have_period)
        st = hes_system_set_orbit_period(sys, ao->period);
    free(x0);
    if (st != HES_OK) {
        *exit_code = cli_report_status(st, sys);
        hes_system_destroy(sys);
        return NULL;
    }
    *exit_code = CLI_EXIT_OK;
    return sys;
}
