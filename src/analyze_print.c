/*
 * analyze_print.c - the text `hes analyze` prints for a hybrid model: the
 * parameters, the orbit and its events, the monodromy, the multipliers and
 * the verdict, the checks, the gradient of psi and the impact set.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmd_analyze.h"

/* Label of state i of the section mode: its name or x[i]. */
static void print_state_label(const hes_model *m, int mode, int i, int width)
{
    const char *name = cli_state_name(m, mode, i);
    char buf[32];

    if (!name) {
        snprintf(buf, sizeof buf, "x[%d]", i);
        name = buf;
    }
    printf("%-*s", width, name);
}

static void print_params(const hes_system *sys)
{
    const hes_model *m = hes_system_model(sys);
    const double *p = hes_system_params(sys);
    int i, w = 0;

    for (i = 0; i < m->n_params; i++)
        if ((int)strlen(m->params[i].name) > w)
            w = (int)strlen(m->params[i].name);
    printf("parameters:\n");
    for (i = 0; i < m->n_params; i++) {
        const hes_param *hp = &m->params[i];

        printf("  %-*s = %.12g", w, hp->name, p[i]);
        if (hp->unit && hp->unit[0] && strcmp(hp->unit, "1") != 0) /* "1": dimensionless */
            printf(" %s", hp->unit);
        if (hp->flags & HES_PARAM_SOLVED)
            printf("  (solved)");
        printf("\n");
    }
}

static void print_orbit(const hes_model *m, const hes_orbit *o)
{
    int i;

    printf("\norbit: period %.12g, starts in mode %s (%s), "
           "%d Newton iterations, residual %.3g\n",
           o->period, m->modes[o->mode].name,
           o->autonomous ? "autonomous" : "non-autonomous",
           o->iterations, o->residual);
    printf("section state:\n");
    for (i = 0; i < o->n; i++) {
        printf("  ");
        print_state_label(m, o->mode, i, 12);
        printf(" % .12g\n", o->x0[i]);
    }
}

static void print_events(const hes_model *m, const hes_traj *traj)
{
    int k, w = 10;

    for (k = 0; k < traj->n_events; k++) {
        int len = (int)strlen(m->transitions[traj->events[k].transition].name);

        if (len > w)
            w = len;
    }
    printf("\nevents:\n");
    printf("  %-*s %16s  %s -> %s\n", w, "transition", "t", "x_minus", "x_plus");
    for (k = 0; k < traj->n_events; k++) {
        const hes_event *ev = &traj->events[k];
        const hes_transition *tr = &m->transitions[ev->transition];

        printf("  %-*s %16.10g  ", w, tr->name, ev->t);
        cli_print_vector(stdout, ev->x_minus, m->modes[tr->from].dim, "%.8g");
        printf(" -> ");
        cli_print_vector(stdout, ev->x_plus, m->modes[tr->to].dim, "%.8g");
        printf("\n");
    }
}

/* The tangent coordinates of a mode with a chart (hes_mode.retract), which
 * the monodromy is in (cli_tangent_name). */
static void print_tangent_names(const hes_model *m, int mode)
{
    const hes_mode *md = &m->modes[mode];
    int nt = md->tdim > 0 ? md->tdim : md->dim;
    char buf[80];

    printf("in the tangent coordinates of mode %s (%d of its %d states):", md->name, nt,
           md->dim);
    for (int i = 0; i < nt; i++)
        printf(" %s", cli_tangent_name(m, mode, i, buf, sizeof buf));
    printf("\n");
}

static void print_stability(const hes_model *m, const hes_analysis *res)
{
    const hes_stability *st = &res->stab;
    int k;

    printf("\nmonodromy matrix Phi (%d x %d):\n", res->mono.n, res->mono.n);
    if (m->modes[res->orbit.mode].retract)
        print_tangent_names(m, res->orbit.mode);
    cli_print_matrix(stdout, res->mono.phi, res->mono.n);
    if (res->mono.autonomous && res->mono.proj) {
        printf("return-map Jacobian P (Phi projected onto the section):\n");
        cli_print_matrix(stdout, res->mono.proj, res->mono.n);
    }

    printf("\nmultipliers (nontrivial, by modulus):\n");
    printf("  %20s %20s %20s\n", "re", "im", "|.|");
    for (k = 0; k < st->n_mult; k++)
        printf("  % 20.12e % 20.12e % 20.12e\n", st->re[k], st->im[k],
               st->abs[k]);
    if (st->trivial >= 0)
        printf("  (dropped the trivial eigenvalue of P, whose left eigenvector is the "
               "section normal: |.| = %.3g)\n", st->trivial_abs);
    if (st->n_symmetric > 0) {
        printf("  (the quotient map's, by the orbit's symmetries");
        for (k = 0; k < st->n_symmetric; k++) {
            const char *name = m->orbit.symmetry_names ? m->orbit.symmetry_names[k] : NULL;
            if (name)
                printf("%s %s", k ? "," : "", name);
            else   /* unnamed: its index, as the document and the error message give it */
                printf("%s %d", k ? "," : "", k);
        }
        printf(";\n   their own multipliers");
        for (k = 0; k < st->n_symmetric; k++) {
            int j = st->n - st->n_symmetric + k;
            printf("%s %.9g%+.3gi", k ? "," : "", st->all_re[j], st->all_im[j]);
        }
        printf(", invariant to %.3g relative)\n", st->symmetry_residual);
    }
    printf("psi = %.12g\n\n", st->psi);
    cli_print_verdict(st);
}

void analyze_print_text(const hes_system *sys, const hes_analysis *res)
{
    const hes_model *m = hes_system_model(sys);

    printf("problem: %s\n", m->name);
    print_params(sys);
    print_orbit(m, &res->orbit);
    print_events(m, &res->orbit.traj);
    print_stability(m, res);
    if (res->have_check) {
        hes_settings set = hes_system_get_settings(sys);
        printf("check: finite differences of the return map");
        if (set.fd_order != 2 || set.fd_step != 1e-5) /* else the defaults */
            printf(" (order %d, step %g)", set.fd_order, set.fd_step);
        printf(", max |difference| = %.3e\n", res->check_max_abs_diff);
    }
    if (res->have_check && isnan(res->jacobians.max_rel_err))
        printf("check: the model's Jacobians could not all be checked at the orbit's states "
               "(%d compared before): %s\n", res->jacobians.n_checked, res->jacobians.where);
    else if (res->have_check && res->jacobians.n_checked > 0)
        printf("check: the model's %d Jacobian%s at the orbit's states against central "
               "differences, worst relative error %.3e (%s)\n", res->jacobians.n_checked,
               res->jacobians.n_checked == 1 ? "" : "s", res->jacobians.max_rel_err,
               res->jacobians.where);
    else if (res->have_check)
        printf("check: no supplied Jacobian was checked (none for the modes the orbit "
               "visits: the library differentiates them)%s%s\n",
               res->jacobians.where[0] ? "; " : "", res->jacobians.where);
    cli_print_simultaneous(hes_system_model(sys), res->simultaneous, res->n_simultaneous);
}

void analyze_print_gradient(const hes_system *sys, const hes_shape *sh,
                           const hes_shape_eval_result *ev)
{
    const hes_model *m = hes_system_model(sys);
    int j, w = 0;

    for (j = 0; j < hes_shape_count(sh); j++)
        if ((int)strlen(m->params[hes_shape_param(sh, j)].name) > w)
            w = (int)strlen(m->params[hes_shape_param(sh, j)].name);
    if (ev->fallback)
        printf("\ngradient of psi (finite differences: the maximising multiplier is "
               "repeated or defective):\n");
    else
        printf("\ngradient of psi (analytic, eigenvalue perturbation):\n");
    for (j = 0; j < hes_shape_count(sh); j++)
        printf("  dpsi/d%-*s = % .12g\n", w, m->params[hes_shape_param(sh, j)].name,
               ev->dpsi[j]);
    if (ev->fallback)
        printf("  (one-sided differences of psi; condition number of the maximising "
               "multiplier %.3g)\n", ev->cond);
    if (ev->nonsmooth)
        printf("  note: psi is not differentiable here (the one-sided differences "
               "disagree);\n"
               "  each entry is the element of least magnitude between them "
               "(0 if they differ in sign)\n");
}

void analyze_print_impact_set(const hes_system *sys, const hes_impact_orbit *r,
                              unsigned long select)
{
    const hes_model *m = hes_system_model(sys);
    printf("\nimpact set of '%s' (Halm & Posa impulse stepping, h = %.4g, N = %d, %s "
           "selection): %d samples, %d finished, %.2f LCPs per sample\n",
           m->transitions[r->transition].name, r->step, r->steps, select ? "random" : "lemke",
           r->set.samples, r->set.n_finished, r->set.mean_lcps);
    printf("  %d outcomes continue the orbit's mode sequence (the impact's contacts stick, "
           "the trailing ones lift off); their orbits: %d found (%d stable, %d unstable, "
           "%d marginal), %d failed\n", r->n_consistent, r->n_orbits, r->n_stable,
           r->n_unstable, r->n_marginal, r->n_failed);
    if (r->n_failed)
        printf("  the first failure: %s\n", r->message);
    printf("  psi nominal %.9f, worst %.9f (sample %d), best %.9f (sample %d)\n",
           r->psi_nominal, r->psi_worst, r->worst, r->psi_best, r->best);
    const hes_mech_transition *mt = m->transitions[r->transition].data;
    const hes_mech *em = mt->mech ? mt->mech : mt->from->mech;
    for (int d = 0; d < 2 * r->k; d++)
        for (int e = 0; e < 2; e++) {
            int i = e ? r->extreme_max[d] : r->extreme_min[d];
            if (i >= 0)
                printf("  %s u_%s of %-16s (sample %4d): %+.6f, psi %.9f\n",
                       e ? "max" : "min", d < r->k ? "n" : "t",
                       em->constraints[r->contacts[d % r->k]].name, i,
                       r->set.u[(size_t)i * 2 * r->k + d], r->psi[i]);
        }
    if (r->worst >= 0)
        printf("  the worst orbit's return map against central differences of the full "
               "flow: %.3g\n", r->worst_check);
    printf("  robust verdict over the sampled outcomes: %s (%.2f s)\n",
           r->n_orbits == 0 ? "none (no outcome continues the orbit)"
           : r->n_unstable > 0 ? "unstable for some outcomes"
           : r->n_marginal > 0 ? "marginal for some outcomes" : "stable for every outcome",
           r->seconds);
}
