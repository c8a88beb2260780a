/*
 * nlp_solver.c - which solvers of the collocation's nonlinear program this
 * build has (SLSQP and the reduced space always: colloc_reduced.c; IPOPT
 * with coinor-libipopt-dev: colloc_ipopt.c), and their names.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <nlopt.h>

#include "shaping/colloc_internal.h"

int hes_nlp_solver_available(hes_nlp_solver solver)
{
#ifdef HAVE_IPOPT
    return (int)solver >= 0 && solver <= HES_NLP_HYBRID;
#else
    return solver == HES_NLP_DEFAULT || solver == HES_NLP_SLSQP || solver == HES_NLP_REDUCED ||
           solver == HES_NLP_HYBRID;
#endif
}

static const char *const solver_names[] = { "default", "slsqp", "ipopt", "reduced", "hybrid" };

const char *hes_nlp_solver_name(hes_nlp_solver solver)
{
    return (int)solver >= 0 && solver <= HES_NLP_HYBRID ? solver_names[solver] : NULL;
}

hes_status hes_nlp_solver_from_name(const char *name, hes_nlp_solver *solver)
{
    for (int i = 0; name && i <= HES_NLP_HYBRID; i++)
        if (strcmp(name, solver_names[i]) == 0) {
            *solver = (hes_nlp_solver)i;
            return HES_OK;
        }
    return HES_EINVAL;
}

/* IPOPT when built, except for psi objectives on programs of at most
 * HES__DENSE_MAX_VARS variables, which SLSQP solves: there its dense steps
 * are cheap, and its rounds from fresh quasi-Newton matrices polish psi's
 * kinks (two multipliers of equal modulus, where psi's optima lie) better
 * than IPOPT, whose line search crawls there: the knee biped's gait with
 * virtual events (245 variables) reached psi 0.0490 with SLSQP and 0.0620
 * with IPOPT (bench_gaits.sh, 58 s and 49 s).  On larger programs SLSQP's
 * O(nv^3) steps dominate (the SLIP at 41 nodes, 417 variables: 32 s against
 * IPOPT's 0.8 s, the same psi to 2e-6).  The reduced space (and the
 * hybrid) only when asked (it needs a start near a good orbit), and never
 * for the NLP of a feasibility solve, whose start need not be near any
 * orbit: hes_colloc_solve tries Newton's method first with these solvers,
 * and where it fails or its orbit misses the bounds, SLSQP solves the
 * feasibility NLP, in every build alike. */
hes_nlp_solver hes__nlp_solver_for(hes_nlp_solver asked, hes_colloc_objective objective, int nv)
{
    if ((asked == HES_NLP_REDUCED || asked == HES_NLP_HYBRID) && objective == HES_COLLOC_FEASIBLE)
        return HES_NLP_SLSQP;
    if (asked != HES_NLP_DEFAULT)
        return asked;
    if (!hes_nlp_solver_available(HES_NLP_IPOPT) ||
        ((objective == HES_COLLOC_STABILITY || objective == HES_COLLOC_WEIGHTED) &&
         nv <= HES__DENSE_MAX_VARS))
        return HES_NLP_SLSQP;
    return HES_NLP_IPOPT;
}

/* SLSQP's stopping rules for the collocation, in the full space and the
 * reduced one alike: the budget, the relative cost change ftol, and a step
 * of 1e-14 relative (rounding: the rounds decide when to stop). */
void hes__colloc_slsqp_stops(nlopt_opt opt, double ftol, int maxeval)
{
    nlopt_set_xtol_rel(opt, 1e-14);
    nlopt_set_ftol_rel(opt, ftol);
    nlopt_set_maxeval(opt, maxeval);
}
