/*
 * registry.c - the tables of built-in problems and their lookup by name:
 * hybrid models (hes_model) and event-selected systems (hes_ess_model), in
 * two tables because the two descriptions are different structs.
 */
#include <string.h>

#include "problems.h"

static const hes_model *const problems[] = {
    &hes_problem_paddle_juggler,
    &hes_problem_slip_hopper,
    &hes_problem_twin_jugglers,
    &hes_problem_trot_rigid,
    &hes_problem_trot_soft,
    &hes_problem_knee_biped,
};

int hes_problem_count(void)
{
    return (int)(sizeof problems / sizeof problems[0]);
}

const hes_model *hes_problem_get(int i)
{
    return i >= 0 && i < hes_problem_count() ? problems[i] : NULL;
}

const hes_model *hes_problem_find(const char *name)
{
    for (int i = 0; name && i < hes_problem_count(); i++)
        if (strcmp(problems[i]->name, name) == 0)
            return problems[i];
    return NULL;
}

static const hes_ess_model *const ess_problems[] = {
    &hes_ess_problem_hopper_1d,
    &hes_ess_problem_hopper_pumped,
    &hes_ess_problem_plate_springs,
};

int hes_ess_problem_count(void)
{
    return (int)(sizeof ess_problems / sizeof ess_problems[0]);
}

const hes_ess_model *hes_ess_problem_get(int i)
{
    return i >= 0 && i < hes_ess_problem_count() ? ess_problems[i] : NULL;
}

const hes_ess_model *hes_ess_problem_find(const char *name)
{
    for (int i = 0; name && i < hes_ess_problem_count(); i++)
        if (strcmp(ess_problems[i]->name, name) == 0)
            return ess_problems[i];
    return NULL;
}
