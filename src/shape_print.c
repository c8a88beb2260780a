/*
 * shape_print.c - what `hes shape` shows besides its JSON (cmd_shape.h):
 * the progress line of the optimisation on a terminal, and the text report
 * of the optimum (the shape parameters' start and optimum, psi at both, the
 * verdict, how the search went, the multipliers and the --verify trials).
 */
#include <stdio.h>
#include <string.h>

#include "cmd_shape.h"

/* Called after every evaluation with a gradient or value; the count may
 * advance by more than 1 between calls. */
void shape_progress(int evaluations, double best, void *data)
{
    shape_progress_state *ps = data;
    char line[96];

    if (evaluations - ps->last < ps->every)
        return;
    ps->last = evaluations;
    snprintf(line, sizeof line, "  evaluation %d, best %.9g", evaluations, best);
    fprintf(stderr, "\r%-56s", line);
    fflush(stderr);
    ps->line.shown = 1;
}

static const char *gradient_words(int gradient)
{
    if (gradient == 1)
        return "analytic gradients (eigenvalue perturbation)";
    if (gradient == 0)
        return "finite-difference gradients (central differences of the measure)";
    return "no gradients (derivative-free algorithm)";
}

/* The table of the shape parameters: name, start, optimum, bounds, unit. */
static void print_params(const hes_model *m, const hes_shape_result *res)
{
    char range[64];
    int j, w = 4;

    for (j = 0; j < res->n; j++)
        if ((int)strlen(m->params[res->param[j]].name) > w)
            w = (int)strlen(m->params[res->param[j]].name);
    printf(res->moves_orbit ? "\nparameters (they move the orbit: each evaluation "
           "re-analysed it):\n" : "\nshape parameters:\n");
    printf("  %-*s %16s %20s  %s\n", w, "name", "start", "optimum", "bounds");
    for (j = 0; j < res->n; j++) {
        const hes_param *hp = &m->params[res->param[j]];

        snprintf(range, sizeof range, "[%g, %g]", res->lo[j], res->hi[j]);
        printf("  %-*s %16.10g %20.14g  %s", w, hp->name, res->start[j], res->h[j], range);
        if (hp->unit && hp->unit[0] && strcmp(hp->unit, "1") != 0)
            printf(" %s", hp->unit);
        printf("\n");
    }
}

/* How the search went: algorithm, starts, evaluations, gradients. */
static void print_search(const hes_shape_result *res, const hes_shape_options *so)
{
    printf("\nsearch: %s from %d start%s (seed %lu), at most %d evaluations each",
           res->algorithm, res->starts, res->starts == 1 ? "" : "s", so->seed, so->maxeval);
    if (res->polish[0])
        printf(", then %s polish", res->polish);
    printf("\n");
    printf("  %d evaluations of %s, %s\n", res->evaluations,
           so->measure == HES_MEASURE_SMOOTH ? "the smooth measure" : "psi",
           gradient_words(res->gradient));
    if (res->gradient == 1)
        printf("  %d of the gradients fell back to finite differences (a repeated or "
               "defective multiplier)\n", res->fallbacks);
}

/* Where the orbit was lost: the count, and the lost evaluation nearest the
 * optimum with why (what an optimum at that edge cannot cross). */
static void print_lost(const hes_model *m, const hes_shape_result *res)
{
    if (!res->moves_orbit)
        return;
    printf("  %d of them lost the orbit", res->lost);
    if (!res->lost_at) {
        printf("\n");
        return;
    }
    printf("; the nearest to the optimum at");
    for (int j = 0; j < res->n; j++)
        printf("%s %s = %.10g", j ? "," : "", m->params[res->param[j]].name, res->lost_at[j]);
    printf(":\n    %s\n", res->lost_why);
}

void shape_print_text(const hes_system *sys, const hes_shape_result *res,
                      const hes_shape_options *so, const hes_trials *trials)
{
    const hes_model *m = hes_system_model(sys);
    const hes_stability *st = &res->analysis.stab;
    int k;

    printf("problem: %s\n", m->name);
    print_params(m, res);

    printf("\npsi at the start:   %.12g\n", res->psi_initial);
    printf("psi at the optimum: %.12g (full re-analysis of the orbit)\n", res->psi);
    if (so->measure == HES_MEASURE_SMOOTH)
        printf("smooth measure at the optimum: %.12g (%d-norm of the multiplier moduli)\n",
               res->measure, HES_SMOOTH_P);
    cli_print_verdict(st);
    if (st->verdict != HES_STABLE)
        printf("(at the optimum: these bounds do not stabilise the orbit)\n");

    print_search(res, so);
    print_lost(m, res);

    printf("\nmultipliers at the optimum (nontrivial, by modulus):\n");
    printf("  %20s %20s %20s\n", "re", "im", "|.|");
    for (k = 0; k < st->n_mult; k++)
        printf("  % 20.12e % 20.12e % 20.12e\n", st->re[k], st->im[k], st->abs[k]);

    if (trials) {
        printf("\nverify: %d of %d perturbed trials converged (radius %g, %d periods)\n",
               trials->converged, trials->n_trials, trials->radius, trials->steps);
        if (trials->converged < trials->n_trials)
            printf("  (final error below %g counts as converged)\n", trials->tol);
        const char *why = hes_trials_contradiction(st->verdict, trials);
        if (why)
            printf("  note: %s\n", why);
    }
}
