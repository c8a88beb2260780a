/*
 * cmd_analyze_ess.c - `hes analyze PROBLEM` for an event-selected system
 *: its periodic orbit simulated by the ESS integrator
 * (hes_ess_orbit_find), the monodromy, the nontrivial multipliers, psi and
 * the verdict.  The guess is the model's (orbit_x0, orbit_period,
 * orbit_section) unless --x0, --period and --section give one; --eps sets
 * the band, --strict-liveness refuses guards in their band that are not
 * live (options.near_miss = 0) instead of watching them.  Text, or hes_ess_orbit_json() with --json.  cmd_analyze.c
 * parses the command line.
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

static void print_text(const hes_ess *ess, const hes_ess_orbit_options *o, const hes_ess_orbit *r)
{
    const hes_ess_model *m = hes_ess_get_model(ess);
    const double *p = hes_ess_params(ess);
    char buf[32];

    printf("problem: %s (event-selected system), integrator ess, eps %g\n", m->name, o->ess.eps);
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
    cli_print_matrix(stdout, r->mono.phi, r->n);
    printf("return map on the section (I - f e_c^T / f_c) d x(T) / d x0:\n");
    cli_print_matrix(stdout, r->mono.proj, r->n);
    printf("\nnontrivial multipliers (%d):\n", r->stab.n_mult);
    for (int k = 0; k < r->stab.n_mult; k++)
        printf("  %+.12f %+.12fi   |lambda| = %.12f\n", r->stab.re[k], r->stab.im[k],
               r->stab.abs[k]);
    if (o->check_eps && isnan(r->eps_order))
        printf("\nerror of psi from the band: %.2g (from the orbit at eps / 2; the changes "
               "are at the integration's noise, no order observed)", r->eps_error);
    else if (o->check_eps)
        printf("\nerror of psi from the band: %.2g (from the orbits at eps / 2 and eps / 4; "
               "observed order %.3g)", r->eps_error, r->eps_order);
    printf("\npsi = %.12f (+- %.2g): %s\n", r->stab.psi, r->stab.psi_tol,
           hes_verdict_name(r->stab.verdict));
}

int analyze_ess(const hes_ess_model *model, const cli_assignments *params,
                const analyze_ess_opts *ao)
{
    char msg[512];
    hes_ess *ess;
    hes_ess_orbit_options o;
    hes_ess_orbit orb;
    double *x0 = NULL, T;
    int rc = CLI_EXIT_OK, n_x0 = 0;

    hes_ess_orbit_options_default(&o);
    if (ao->have_eps)
        o.ess.eps = ao->eps;
    o.ess.near_miss = !ao->strict_liveness;
    o.ess.method = ao->method;
    o.section = model->orbit_section;
    T = model->orbit_period;
    if (ao->section && (o.section = section_index(model, ao->section)) < 0)
        return CLI_EXIT_USAGE;
    if (ao->have_period)
        T = ao->period;
    if (ao->x0_text) {
        if ((rc = cli_parse_vector(ao->x0_text, &x0, &n_x0)) != CLI_EXIT_OK)
            return rc;
        if (n_x0 != model->n) {
            fprintf(stderr, "%s: --x0 has %d values; the state of '%s' has %d\n", CMD, n_x0,
                    model->name, model->n);
            free(x0);
            return CLI_EXIT_USAGE;
        }
    }
    if (!model->orbit_x0 && (!x0 || !ao->section)) {
        fprintf(stderr, "%s: '%s' has no periodic orbit guess: give --x0 V1,V2,... (a state on "
                "the section), --period T and --section NAME\n", CMD, model->name);
        free(x0);
        return CLI_EXIT_USAGE;
    }
    if (!(T > 0)) {
        fprintf(stderr, "%s: give --period T (> 0), the period's guess\n", CMD);
        free(x0);
        return CLI_EXIT_USAGE;
    }
    hes_status st = hes_ess_new(model, &ess, msg, sizeof msg);
    if (st != HES_OK) {
        fprintf(stderr, "hes: %s: %s\n", hes_strerror(st), msg);
        free(x0);
        return hes_status_exit_code(st);
    }
    rc = cli_apply_ess_params(ess, params);
    if (rc == CLI_EXIT_OK) {
        st = hes_ess_orbit_find(ess, &o, x0 ? x0 : model->orbit_x0, T, &orb);
        if (st != HES_OK) {
            fprintf(stderr, "hes: %s: %s\n", hes_strerror(st), hes_ess_errmsg(ess));
            rc = hes_status_exit_code(st);
        } else if (ao->json)
            rc = cli_print_document(CMD, hes_ess_orbit_json(ess, &o, &orb));
        else
            print_text(ess, &o, &orb);
        hes_ess_orbit_free(&orb);
    }
    hes_ess_destroy(ess);
    free(x0);
    return rc;
}
