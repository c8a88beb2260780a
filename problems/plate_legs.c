/*
 * plate_legs.c - what the two plates on N legs share (plate-springs,
 * plate-vertical): their model data (hes__plate_data: the number of legs
 * and, in an allocated model, its event names) and the allocation of a
 * model for any N from a built-in one, with a touchdown and a liftoff
 * event per leg.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problems.h"

hes_ess_model *hes__plate_legs_model(const hes_ess_model *base, int N, int paired,
                                     const char *description)
{
    hes_ess_model *md = malloc(sizeof *md);
    hes__plate_data *pd = malloc(sizeof *pd);
    char **names = calloc((size_t)(2 * N), sizeof *names);
    if (!md || !pd || !names) {
        free(md);
        free(pd);
        free(names);
        return NULL;
    }
    *md = *base;
    md->m = 2 * N;
    md->description = description;
    pd->N = N;
    pd->names = names;
    md->data = pd;
    md->event_names = (const char *const *)names;
    for (int i = 0; i < N; i++) {
        char buf[32];
        int td = paired ? 2 * i : i, lo = paired ? 2 * i + 1 : N + i;
        snprintf(buf, sizeof buf, "touchdown %d", i);
        names[td] = strdup(buf);
        snprintf(buf, sizeof buf, "liftoff %d", i);
        names[lo] = strdup(buf);
        if (!names[td] || !names[lo]) {
            hes__plate_legs_model_free(md, base);
            return NULL;
        }
    }
    return md;
}

void hes__plate_legs_model_free(hes_ess_model *md, const hes_ess_model *base)
{
    if (!md || md == base)
        return;
    hes__plate_data *pd = md->data;
    if (pd) {
        for (int i = 0; pd->names && i < 2 * pd->N; i++)
            free(pd->names[i]);
        free(pd->names);
        free(pd);
    }
    free(md);
}
