/*
 * nlp_solver.c - which solvers of the collocation's nonlinear program this
 * build has (SLSQP always, IPOPT with coinor-libipopt-dev: colloc_ipopt.c),
 * and their names (issue 15).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "hes.h"

int hes_nlp_solver_available(hes_nlp_solver solver)
{
#ifdef HAVE_IPOPT
    return solver == HES_NLP_DEFAULT || solver == HES_NLP_SLSQP || solver == HES_NLP_IPOPT;
#else
    return solver == HES_NLP_DEFAULT || solver == HES_NLP_SLSQP;
#endif
}

static const char *const solver_names[] = { "default", "slsqp", "ipopt" };

const char *hes_nlp_solver_name(hes_nlp_solver solver)
{
    return (int)solver >= 0 && solver <= HES_NLP_IPOPT ? solver_names[solver] : NULL;
}

hes_status hes_nlp_solver_from_name(const char *name, hes_nlp_solver *solver)
{
    for (int i = 0; name && i <= HES_NLP_IPOPT; i++)
        if (strcmp(name, solver_names[i]) == 0) {
            *solver = (hes_nlp_solver)i;
            return HES_OK;
        }
    return HES_EINVAL;
}
