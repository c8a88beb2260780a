/*
 * state_sweep_print.c - the output of `hes simulate PROBLEM --sweep
 * NAME=LO:HI:N` (hes_state_sweep_run): per swept value the events
 * (transition names in order) and the final mode and state, as an aligned
 * table or as CSV rows, one per final state component:
 *   value,n_events,transitions,mode,state,x,failure
 * A simulation that failed is a result: its row says why and gives the
 * state where it stopped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_simulate.h"

void simulate_print_state_names(FILE *out, const hes_model *m, int mode)
{
    for (int i = 0; i < m->modes[mode].dim; i++) {
        const char *s = cli_state_name(m, mode, i);

        if (s)
            fprintf(out, "%s %s", i ? "," : "", s);
        else
            fprintf(out, "%s x[%d]", i ? "," : "", i);
    }
}

/* The final phase of a result, or NULL when the simulation made none. */
static const hes_phase *final_phase(const hes_state_sweep_point *r)
{
    return r->traj.n_phases > 0 ? &r->traj.phases[r->traj.n_phases - 1] : NULL;
}

/* "status: detail" of a failed simulation. */
static void failure_text(const hes_state_sweep_point *r, char *buf, size_t len)
{
    if (r->message[0])
        snprintf(buf, len, "%s: %s", hes_strerror(r->status), r->message);
    else
        snprintf(buf, len, "%s", hes_strerror(r->status));
}

/* The final state of a result as "[a, b, ...]" ("-" when the simulation
 * made no phase), malloc'd; NULL when out of memory. */
static char *final_state_text(const hes_model *m, const hes_state_sweep_point *r)
{
    const hes_phase *ph = final_phase(r);
    int n = ph ? m->modes[ph->mode].dim : 0;
    size_t cap = 32 * (size_t)n + 4, len;
    char *s = malloc(cap);

    if (!s)
        return NULL;
    strcpy(s, ph ? "[" : "-");
    for (int i = 0; i < n; i++) {
        len = strlen(s);
        snprintf(s + len, cap - len, "%s%.6g", i ? ", " : "", ph->x1[i]);
    }
    if (ph)
        strcat(s, "]");
    return s;
}

/* One row of the table per value: the value, the events, the final mode and
 * state (vec[k], in a column `width` wide) and the transitions; a failed
 * simulation's reason on a line of its own. */
static void print_rows(const hes_model *m, const hes_state_sweep *res, char **vec, int width)
{
    for (int k = 0; k < res->n; k++) {
        const hes_state_sweep_point *r = &res->points[k];
        const hes_phase *ph = final_phase(r);

        printf("  %-13.6g %6d  %-10s  %-*s  ", r->value, r->traj.n_events,
               ph ? m->modes[ph->mode].name : "-", width, vec && vec[k] ? vec[k] : "?");
        for (int i = 0; i < r->traj.n_events; i++)
            printf("%s%s", i ? ", " : "", m->transitions[r->traj.events[i].transition].name);
        printf("%s\n", r->traj.n_events ? "" : "-");
        if (r->status != HES_OK) {
            char why[640];

            failure_text(r, why, sizeof why);
            printf("      failed at t = %.10g: %s\n", ph ? ph->t1 : 0.0, why);
        }
    }
}

void state_sweep_print_text(const hes_system *sys, const char *name, const hes_state_sweep *res)
{
    const hes_model *m = hes_system_model(sys);
    char **vec = calloc((size_t)res->n, sizeof *vec);
    int *used = calloc((size_t)m->n_modes, sizeof *used);
    int width = (int)strlen("final state"), k, i;

    printf("problem: %s\n", m->name);
    printf("sweep: %s over [%.10g, %.10g], %d value%s, from x0 = ", name, res->lo,
           res->hi, res->n, res->n == 1 ? "" : "s");
    cli_print_vector(stdout, res->x0, res->dim, "%.10g");
    printf(" in mode %s, simulated to t = %.10g\n\n", m->modes[res->mode].name, res->time);

    /* the final states as text first, to align the columns */
    for (k = 0; vec && k < res->n; k++) {
        const hes_phase *ph = final_phase(&res->points[k]);

        vec[k] = final_state_text(m, &res->points[k]);
        if (vec[k] && (int)strlen(vec[k]) > width)
            width = (int)strlen(vec[k]);
        if (ph && used)
            used[ph->mode] = 1;
    }
    printf("  %-13s %6s  %-10s  %-*s  %s\n", name, "events", "mode", width,
           "final state", "transitions");
    print_rows(m, res, vec, width);
    printf("\n");
    for (i = 0; used && i < m->n_modes; i++)
        if (used[i]) {
            printf("states of mode %s:", m->modes[i].name);
            simulate_print_state_names(stdout, m, i);
            printf("\n");
        }
    for (k = 0; vec && k < res->n; k++)
        free(vec[k]);
    free(vec);
    free(used);
}

/* A CSV field, quoted when it holds a comma, a quote or a line break. */
static void csv_field(const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, stdout);
        return;
    }
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

/* The transitions of a result joined by ';', malloc'd; NULL when out of
 * memory. */
static char *event_list(const hes_model *m, const hes_state_sweep_point *r)
{
    size_t len = 1;
    char *events;

    for (int e = 0; e < r->traj.n_events; e++)
        len += strlen(m->transitions[r->traj.events[e].transition].name) + 1;
    events = malloc(len);
    if (!events)
        return NULL;
    events[0] = '\0';
    for (int e = 0; e < r->traj.n_events; e++) {
        if (e)
            strcat(events, ";");
        strcat(events, m->transitions[r->traj.events[e].transition].name);
    }
    return events;
}

void state_sweep_print_csv(const hes_system *sys, const hes_state_sweep *res)
{
    const hes_model *m = hes_system_model(sys);

    printf("value,n_events,transitions,mode,state,x,failure\n");
    for (int k = 0; k < res->n; k++) {
        const hes_state_sweep_point *r = &res->points[k];
        const hes_phase *ph = final_phase(r);
        char *events = event_list(m, r), why[640] = "";

        if (!events)
            continue;
        if (r->status != HES_OK)
            failure_text(r, why, sizeof why);
        for (int i = 0; ph && i < m->modes[ph->mode].dim; i++) {
            char name[32];
            const char *s = cli_state_name(m, ph->mode, i);

            if (!s) {
                snprintf(name, sizeof name, "x[%d]", i);
                s = name;
            }
            printf("%.17g,%d,", r->value, r->traj.n_events);
            csv_field(events);
            putchar(',');
            csv_field(m->modes[ph->mode].name);
            putchar(',');
            csv_field(s);
            printf(",%.17g,", ph->x1[i]);
            csv_field(why);
            putchar('\n');
        }
        free(events);
    }
}
