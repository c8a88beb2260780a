/*
 * shape_arrays.c - the start values and search bounds `hes shape` passes to
 * hes_shape_optimize over every shape parameter in model order, then every
 * other parameter that --start NAME=VALUE or --bounds NAME=LO:HI names (one
 * that moves the orbit, such as a gain) (cmd_shape.h): NaN, the library's
 * default, unless an option gives the parameter's own; each parameter takes
 * one start value and one pair of bounds at most.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_shape.h"

/* "hes: shape parameters of 'M': A, B", after a refused name. */
static void print_shape_params(FILE *out, const hes_model *m)
{
    int i, k = 0;

    fprintf(out, "hes: shape parameters of '%s':", m->name);
    for (i = 0; i < m->n_params; i++)
        if (m->params[i].flags & HES_PARAM_SHAPE)
            fprintf(out, "%s %s", k++ ? "," : "", m->params[i].name);
    fputc('\n', out);
}

void shape_arrays_free(shape_arrays *a)
{
    free(a->param);
    free(a->names);
    free(a->start);
    free(a->lo);
    free(a->hi);
    memset(a, 0, sizeof *a);
}

int shape_arrays_init(shape_arrays *a, const hes_system *sys)
{
    int i, np = hes_system_n_params(sys);

    memset(a, 0, sizeof *a);
    a->param = malloc(sizeof *a->param * (size_t)(np + 1));
    a->names = malloc(sizeof *a->names * (size_t)(np + 1));
    a->start = malloc(sizeof *a->start * (size_t)(np + 1));
    a->lo = malloc(sizeof *a->lo * (size_t)(np + 1));
    a->hi = malloc(sizeof *a->hi * (size_t)(np + 1));
    if (!a->param || !a->names || !a->start || !a->lo || !a->hi) {
        shape_arrays_free(a);
        fprintf(stderr, "hes: out of memory\n");
        return CLI_EXIT_FAILURE;
    }
    for (i = 0; i < np; i++) {
        if (hes_system_param_info(sys, i)->flags & HES_PARAM_SHAPE) {
            a->param[a->n] = i;
            a->names[a->n] = hes_system_param_info(sys, i)->name;
            a->start[a->n] = a->lo[a->n] = a->hi[a->n] = NAN;
            a->n++;
        }
    }
    return 0;
}

/* Splits "NAME=REST" of `option` and finds NAME among the optimised
 * parameters, adding a parameter that is neither a shape nor a solved one
 * (it moves the orbit): returns j (its index in a) and *rest, or -1 after
 * printing why. */
static int find_shape_param(const hes_model *m, shape_arrays *a,
                            const char *option, const char *item, const char **rest)
{
    const char *eq = strchr(item, '=');
    size_t len;
    int i, j;

    if (!eq || eq == item) {
        fprintf(stderr, "hes shape: %s expects NAME=%s, got '%s'\n", option,
                strcmp(option, "--bounds") == 0 ? "LO:HI" : "VALUE", item);
        return -1;
    }
    len = (size_t)(eq - item);
    for (j = 0; j < a->n; j++) {
        const char *name = m->params[a->param[j]].name;

        if (strlen(name) == len && strncmp(name, item, len) == 0) {
            *rest = eq + 1;
            return j;
        }
    }
    for (i = 0; i < m->n_params; i++)
        if (strlen(m->params[i].name) == len && strncmp(m->params[i].name, item, len) == 0)
            break;
    if (i < m->n_params && !(m->params[i].flags & HES_PARAM_SOLVED)) {
        a->param[a->n] = i;
        a->names[a->n] = m->params[i].name;
        a->start[a->n] = a->lo[a->n] = a->hi[a->n] = NAN;
        a->moving++;
        *rest = eq + 1;
        return a->n++;
    }
    if (i < m->n_params)
        fprintf(stderr, "hes shape: %s: '%.*s' is solved by the orbit search of '%s', not a "
                "parameter to optimise\n", option, (int)len, item, m->name);
    else
        fprintf(stderr, "hes shape: %s: unknown parameter '%.*s' for problem '%s'\n",
                option, (int)len, item, m->name);
    print_shape_params(stderr, m);
    return -1;
}

/* The --start items into a->start, each parameter once (given[] marks the
 * parameters done).  0 or CLI_EXIT_USAGE after printing. */
static int apply_starts(shape_arrays *a, const hes_model *m, const cli_assignments *starts,
                        unsigned char *given)
{
    const char *rest;
    double v;
    int i, j, parsed;

    for (i = 0; i < starts->n; i++) {
        if ((j = find_shape_param(m, a, "--start", starts->items[i], &rest)) < 0)
            return CLI_EXIT_USAGE;
        if (given[j]) {
            fprintf(stderr, "hes shape: --start %s given twice (one start value each)\n",
                    m->params[a->param[j]].name);
            return CLI_EXIT_USAGE;
        }
        if ((parsed = cli_parse_double(rest, &v)) != 0) {
            fprintf(stderr, "hes shape: --start %s: '%s' is not a %snumber\n",
                    starts->items[i], rest, parsed == -2 ? "finite " : "");
            return CLI_EXIT_USAGE;
        }
        a->start[j] = v;
        given[j] = 1;
    }
    return 0;
}

/* The --bounds items into a->lo and a->hi, each parameter once (given[]
 * marks the parameters done).  0 or CLI_EXIT_USAGE after printing. */
static int apply_bounds(shape_arrays *a, const hes_model *m, const cli_assignments *bounds,
                        unsigned char *given)
{
    const char *rest, *colon;
    char lo_text[64];
    double lo, hi;
    int i, j;

    for (i = 0; i < bounds->n; i++) {
        if ((j = find_shape_param(m, a, "--bounds", bounds->items[i], &rest)) < 0)
            return CLI_EXIT_USAGE;
        if (given[j]) {
            fprintf(stderr, "hes shape: --bounds %s given twice (one pair of bounds each)\n",
                    m->params[a->param[j]].name);
            return CLI_EXIT_USAGE;
        }
        colon = strchr(rest, ':');
        if (!colon || (size_t)(colon - rest) >= sizeof lo_text) {
            fprintf(stderr, "hes shape: --bounds %s: expected LO:HI\n", bounds->items[i]);
            return CLI_EXIT_USAGE;
        }
        memcpy(lo_text, rest, (size_t)(colon - rest));
        lo_text[colon - rest] = '\0';
        if (cli_parse_double(lo_text, &lo) != 0 || cli_parse_double(colon + 1, &hi) != 0) {
            fprintf(stderr, "hes shape: --bounds %s: LO and HI must be finite numbers\n",
                    bounds->items[i]);
            return CLI_EXIT_USAGE;
        }
        a->lo[j] = lo;
        a->hi[j] = hi;
        given[j] = 1;
    }
    return 0;
}

int shape_arrays_apply(shape_arrays *a, const hes_model *m, const cli_assignments *starts,
                       const cli_assignments *bounds)
{
    size_t room = (size_t)m->n_params + 1;
    unsigned char *started = calloc(room, 1), *bounded = calloc(room, 1);
    int rc;

    if (!started || !bounded) {
        free(started);
        free(bounded);
        fprintf(stderr, "hes: out of memory\n");
        return CLI_EXIT_FAILURE;
    }
    rc = apply_starts(a, m, starts, started);
    if (rc == 0)
        rc = apply_bounds(a, m, bounds, bounded);
    free(started);
    free(bounded);
    return rc;
}
