/*
 * trajopt_print.c - the output of `hes trajopt`: the text report of a run
 * (the collocation, its phases, psi by collocation and by shooting, the
 * starts and grids, the verdict), the gait file of -o and the progress
 * lines of the minimisation on stderr.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd_trajopt.h"

void trajopt_progress_line(void *ctx, int evaluation, double cost, double violation, double psi)
{
    trajopt_progress *p = ctx;
    if (p->quiet || (evaluation - p->last < 10 && p->last > 0))
        return;
    p->last = evaluation;
    fprintf(stderr, "trajopt: evaluation %5d  cost %.8g  violation %.2e  psi %.6g\n", evaluation,
            cost, violation, psi);
}

/* The starts of --starts N: each one's cost, psi and energy by shooting,
 * the chosen one starred. */
static void print_starts(const hes_trajopt_result *r)
{
    if (r->n_starts <= 1)
        return;
    printf("starts (the result is start %d: least cost %s):\n", r->best_start,
           r->starts[r->best_start].have_shooting ? "by shooting"
                                                  : "of the collocation, none by shooting");
    for (int s = 0; s < r->n_starts; s++) {
        const hes_trajopt_start *e = &r->starts[s];
        if (e->status != HES_OK) {
            printf("  %3d failed (%s): %s\n", s, hes_strerror(e->status), e->message);
            continue;
        }
        printf("  %3d cost %.10g, by shooting %.10g: psi %.10g", s, e->cost,
               e->cost_shooting, e->psi_shooting);
        if (isfinite(e->energy))
            printf(", energy %.10g", e->energy);
        printf(", %d evaluations, %.3f s%s\n", e->evaluations, e->seconds,
               s == r->best_start ? " *" : "");
    }
}

/* The grids of the mesh continuation (--nodes N,N2,...), saying which
 * used all of their --maxeval. */
static void print_grids(const hes_trajopt_result *r, const int *maxeval)
{
    if (r->n_grids <= 1)
        return;
    printf("grids (mesh continuation, each from the one before):\n");
    for (int k = 0; k < r->n_grids; k++) {
        const hes_trajopt_grid *gr = &r->grids[k];
        printf("  %4d nodes per phase, %5d variables, solver %-7s %6d evaluations%s, "
               "%.3f s: psi %.10g", gr->nodes, gr->variables, hes_nlp_solver_name(gr->solver),
               gr->evaluations, gr->evaluations >= maxeval[k] ? " (all of --maxeval)" : "",
               gr->seconds, gr->psi);
        if (isfinite(gr->energy))
            printf(", energy %.10g", gr->energy);
        printf("\n");
    }
}

/* The text report: the collocation and its phases, the solved and design
 * parameters, psi by collocation and by shooting, the starts and grids,
 * the evaluations and the verdict. */
void trajopt_print_text(const hes_system *sys, const hes_trajopt_result *r, const int *maxeval)
{
    const hes_model *m = hes_system_model(sys);
    const hes_orbit_spec *o = &m->orbit;
    const hes_gait *g = &r->gait;
    double v;
    printf("problem: %s\n", m->name);
    printf("collocation: Hermite-Simpson, %d nodes per phase, %d variables, %d equality and "
           "%d path constraints, violation %.2e; solver %s\n", r->nodes, r->variables,
           r->constraints, r->path_constraints, r->violation, hes_nlp_solver_name(r->solver));
    printf("objective: %s", hes_colloc_objective_name(r->objective));
    if (r->objective == HES_COLLOC_WEIGHTED)
        printf(" (psi + %g * energy)", r->weight);
    printf("\nphases:\n");
    for (int i = 0; i < g->n_phases; i++) {
        const hes_gait_phase *ph = &g->phases[i];
        printf("  %-12s %.10f s, ends with %s", m->modes[ph->mode].name, ph->duration,
               m->transitions[ph->transition].name);
        if (ph->is_virtual)
            printf(" guard %+.6f (virtual event)", ph->offset);
        printf("\n");
    }
    printf("period: %.10f s\n", r->period);
    for (int i = 0; i < o->n_free_params; i++) {
        hes_system_get_param(sys, o->free_params[i], &v);
        printf("solved  %-10s = %.12g\n", o->free_params[i], v);
    }
    for (int j = 0; j < r->n_design; j++) {
        const char *name = m->params[r->design[j]].name;
        hes_system_get_param(sys, name, &v);
        printf("design  %-10s = %.12g  in [%g, %g]\n", name, v, r->design_lo[j],
               r->design_hi[j]);
    }
    if (g->n_inputs > 0)
        printf("energy (integral of the squared inputs): %.10g\n", r->energy);
    printf("psi of the collocated orbit: %.12g%s\n", r->psi_collocation,
           r->objective == HES_COLLOC_FEASIBLE ? " (not optimised: --objective feasible)" : "");
    if (r->refined_nodes)
        printf("psi re-collocated on %d nodes per phase with the inputs held: %.12g\n",
               r->refined_nodes, r->psi_refined);
    if (r->have_shooting)
        printf("psi by shooting (re-analysis of the gait): %.12g, relative difference %.2e\n",
               r->psi_shooting, r->psi_difference);
    else
        printf("re-analysis by shooting failed: %s\n", r->shooting_message);
    if (r->have_shooting)
        printf("return map: collocation vs shooting, max |difference| %.2e of its largest entry\n",
               r->return_map_difference);
    print_starts(r);
    print_grids(r, maxeval);
    int capped = 0;
    for (int k = 0; k < r->n_grids; k++)
        capped |= r->grids[k].evaluations >= maxeval[k];
    printf("%d evaluations of the cost%s, %.3f s\n", r->evaluations,
           !capped ? "" : r->n_grids > 1 ? " (a grid used all of --maxeval: it stopped there)"
                                          : " (all of --maxeval: it stopped there)", r->seconds);
    if (r->have_shooting) {
        hes_stability st = { .psi = r->psi_shooting, .psi_tol = r->psi_tol, .verdict = r->verdict };
        cli_print_verdict(&st);
    } else {
        double psi = g->psi;
        printf("%s: psi = %.6g %s 1 (collocation only: the shooting re-analysis failed)\n",
               psi < 1 ? "stable" : "unstable", psi, psi < 1 ? "<" : ">=");
    }
}

/* -o FILE: every write checked; on failure the reason is printed and a
 * regular file is removed rather than left empty or cut. */
int trajopt_write_gait(const char *path, const hes_gait *gait, const hes_model *model)
{
    struct stat st;
    int err = 0, regular = 0;
    FILE *f = fopen(path, "w");
    if (!f) {
        err = errno;
    } else {
        regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
        errno = 0;
        if (hes_gait_write(gait, model, f) != HES_OK || fflush(f) != 0)
            err = errno ? errno : EIO;
        errno = 0;
        if (fclose(f) != 0 && !err)
            err = errno ? errno : EIO;
    }
    if (!err)
        return 0;
    int removed = regular && remove(path) == 0;
    fprintf(stderr, "hes trajopt: cannot write %s: %s%s\n", path, strerror(err),
            removed ? " (the incomplete file is removed)" : "");
    return -1;
}
