/*
 * cmd_simulate_sweep.c - `hes simulate PROBLEM --sweep NAME=LO:HI:N --x0
 * V1,V2,... [--mode MODE] --time T`: trajectory outcomes as one initial
 * state component varies (decoupled-limbs paper Fig. 1), for any model, with
 * or without a periodic orbit (hes_state_sweep_run).  Reported per value:
 * the events (transition names in order) and the final mode and state, as
 * text, as hes_state_sweep_json() (--json) or as CSV (--csv), one row per
 * final state component:
 *   value,n_events,transitions,mode,state,x,failure
 * A simulation that fails (grazing, Zeno, a model error) is a result: its
 * row says why and gives the state where it stopped.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_simulate.h"

#define CMD "hes simulate"


int simulate_sweep_parse(const char *text, simulate_sweep_opts *sw)
{
    const char *eq = strchr(text, '=');
    char buf[256], *lo, *hi, *n;
    size_t len;

    sw->spec = text;
    if (!eq || eq == text || (size_t)(eq - text) >= sizeof sw->name ||
        strlen(eq + 1) >= sizeof buf)
        return cli_bad_value(CMD, "--sweep", text, "NAME=LO:HI:N");
    len = (size_t)(eq - text);
    memcpy(sw->name, text, len);
    sw->name[len] = '\0';
    strcpy(buf, eq + 1);
    lo = buf;
    hi = strchr(lo, ':');
    n = hi ? strchr(hi + 1, ':') : NULL;
    if (!hi || !n || strchr(n + 1, ':'))
        return cli_bad_value(CMD, "--sweep", text, "NAME=LO:HI:N");
    *hi++ = '\0';
    *n++ = '\0';
    if (cli_parse_double(lo, &sw->lo) != 0 || cli_parse_double(hi, &sw->hi) != 0)
        return cli_bad_value(CMD, "--sweep", text, "NAME=LO:HI:N with finite numbers LO and HI");
    if (!(sw->lo <= sw->hi) || !isfinite(sw->hi - sw->lo))
        return cli_bad_value(CMD, "--sweep", text, "NAME=LO:HI:N with LO <= HI");
    if (cli_parse_int(n, &sw->n) != 0 || sw->n < 1 || sw->n > CLI_MAX_VALUES)
        return cli_bad_value(CMD, "--sweep", text, "NAME=LO:HI:N with an integer N from 1 to "
                         STR(CLI_MAX_VALUES));
    return 0;
}

int simulate_sweep_x0(const char *text, simulate_sweep_opts *sw)
{
    free(sw->x0);
    int rc = cli_parse_vector(text, &sw->x0, &sw->n_x0);
    if (rc == -2) {
        fprintf(stderr, "hes simulate: out of memory\n");
        return CLI_EXIT_FAILURE;
    }
    return rc == 0 ? 0 : cli_bad_value(CMD, "--x0", text, "comma-separated finite numbers");
}

/* Index of state `name` of mode `mode`: its state name, or "x[i]" when the
 * mode has no names (as `hes info` shows them); -1 if none. */
static int state_index(const hes_model *m, int mode, const char *name)
{
    char buf[32];

    for (int i = 0; i < m->modes[mode].dim; i++) {
        const char *s = cli_state_name(m, mode, i);

        if (!s) {
            snprintf(buf, sizeof buf, "x[%d]", i);
            s = buf;
        }
        if (strcmp(s, name) == 0)
            return i;
    }
    return -1;
}

static void print_state_names(FILE *out, const hes_model *m, int mode)
{
    for (int i = 0; i < m->modes[mode].dim; i++) {
        const char *s = cli_state_name(m, mode, i);

        if (s)
            fprintf(out, "%s %s", i ? "," : "", s);
        else
            fprintf(out, "%s x[%d]", i ? "," : "", i);
    }
}

static void print_mode_names(FILE *out, const hes_model *m)
{
    for (int i = 0; i < m->n_modes; i++)
        fprintf(out, "%s %s", i ? "," : "", m->modes[i].name);
}

/* Resolves --mode, --x0 and NAME against the model; 0 or CLI_EXIT_USAGE
 * after printing. */
int simulate_resolve_start(const hes_model *m, const simulate_sweep_opts *sw, int *mode)
{
    *mode = 0;
    if (sw->mode) {
        *mode = hes_model_mode_index(m, sw->mode);
        if (*mode < 0) {
            fprintf(stderr, "hes simulate: --mode: problem '%s' has no mode '%s'; modes:",
                    m->name, sw->mode);
            print_mode_names(stderr, m);
            fputc('\n', stderr);
            return CLI_EXIT_USAGE;
        }
    }
    if (sw->n_x0 != m->modes[*mode].dim) {
        fprintf(stderr, "hes simulate: --x0 has %d value%s, the state of mode '%s' has %d:",
                sw->n_x0, sw->n_x0 == 1 ? "" : "s", m->modes[*mode].name,
                m->modes[*mode].dim);
        print_state_names(stderr, m, *mode);
        fputc('\n', stderr);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

static int resolve_sweep(const hes_model *m, const simulate_sweep_opts *sw, int *mode, int *index)
{
    int rc = simulate_resolve_start(m, sw, mode);
    if (rc != 0)
        return rc;
    *index = state_index(m, *mode, sw->name);
    if (*index < 0) {
        fprintf(stderr, "hes simulate: --sweep: mode '%s' of '%s' has no state '%s'; states:",
                m->modes[*mode].name, m->name, sw->name);
        print_state_names(stderr, m, *mode);
        fputc('\n', stderr);
        return CLI_EXIT_USAGE;
    }
    return 0;
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

static void print_sweep_text(const hes_system *sys, const simulate_sweep_opts *sw, int mode,
                             const hes_state_sweep_point *res)
{
    const hes_model *m = hes_system_model(sys);
    char **vec = calloc((size_t)sw->n, sizeof *vec);
    int *used = calloc((size_t)m->n_modes, sizeof *used);
    int width = (int)strlen("final state"), k, i;

    printf("problem: %s\n", m->name);
    printf("sweep: %s over [%.10g, %.10g], %d value%s, from x0 = ", sw->name, sw->lo,
           sw->hi, sw->n, sw->n == 1 ? "" : "s");
    cli_print_vector(stdout, sw->x0, sw->n_x0, "%.10g");
    printf(" in mode %s, simulated to t = %.10g\n\n", m->modes[mode].name, sw->time);

    /* the final states as text first, to align the columns */
    for (k = 0; vec && k < sw->n; k++) {
        const hes_phase *ph = final_phase(&res[k]);
        int n = ph ? m->modes[ph->mode].dim : 0;
        size_t cap = 32 * (size_t)n + 4, len;

        vec[k] = malloc(cap);
        if (!vec[k])
            continue;
        strcpy(vec[k], ph ? "[" : "-");
        for (i = 0; i < n; i++) {
            len = strlen(vec[k]);
            snprintf(vec[k] + len, cap - len, "%s%.6g", i ? ", " : "", ph->x1[i]);
        }
        if (ph)
            strcat(vec[k], "]");
        if ((int)strlen(vec[k]) > width)
            width = (int)strlen(vec[k]);
        if (ph && used)
            used[ph->mode] = 1;
    }

    printf("  %-13s %6s  %-10s  %-*s  %s\n", sw->name, "events", "mode", width,
           "final state", "transitions");
    for (k = 0; k < sw->n; k++) {
        const hes_state_sweep_point *r = &res[k];
        const hes_phase *ph = final_phase(r);

        printf("  %-13.6g %6d  %-10s  %-*s  ", r->value, r->traj.n_events,
               ph ? m->modes[ph->mode].name : "-", width, vec && vec[k] ? vec[k] : "?");
        for (i = 0; i < r->traj.n_events; i++)
            printf("%s%s", i ? ", " : "", m->transitions[r->traj.events[i].transition].name);
        printf("%s\n", r->traj.n_events ? "" : "-");
        if (r->status != HES_OK) {
            char why[640];

            failure_text(r, why, sizeof why);
            printf("      failed at t = %.10g: %s\n", ph ? ph->t1 : 0.0, why);
        }
    }
    printf("\n");
    for (i = 0; used && i < m->n_modes; i++)
        if (used[i]) {
            printf("states of mode %s:", m->modes[i].name);
            print_state_names(stdout, m, i);
            printf("\n");
        }
    for (k = 0; vec && k < sw->n; k++)
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

static void print_sweep_csv(const hes_system *sys, const simulate_sweep_opts *sw,
                            const hes_state_sweep_point *res)
{
    const hes_model *m = hes_system_model(sys);

    printf("value,n_events,transitions,mode,state,x,failure\n");
    for (int k = 0; k < sw->n; k++) {
        const hes_state_sweep_point *r = &res[k];
        const hes_phase *ph = final_phase(r);
        size_t len = 1;
        char *events, why[640] = "";

        for (int e = 0; e < r->traj.n_events; e++)
            len += strlen(m->transitions[r->traj.events[e].transition].name) + 1;
        events = malloc(len);
        if (!events)
            continue;
        events[0] = '\0';
        for (int e = 0; e < r->traj.n_events; e++) {
            if (e)
                strcat(events, ";");
            strcat(events, m->transitions[r->traj.events[e].transition].name);
        }
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

typedef struct {
    const char *name;
    cli_progress *progress;
} sweep_run;

static void sweep_progress(void *ctx, int k, int n, double value)
{
    const sweep_run *r = ctx;
    char what[160];

    snprintf(what, sizeof what, "simulating %s = %.6g (%d of %d) ...", r->name, value, k + 1, n);
    cli_progress_say(r->progress, what);
}

int simulate_sweep(hes_system *sys, const simulate_sweep_opts *sw, simulate_output output)
{
    const hes_model *m = hes_system_model(sys);
    hes_state_sweep_options so = { 0 };
    hes_state_sweep res;
    cli_progress progress;
    sweep_run ctx = { sw->name, &progress };
    int rc = resolve_sweep(m, sw, &so.mode, &so.state);
    hes_status st;

    if (rc != 0)
        return rc;
    so.dim = sw->n_x0;
    so.x0 = sw->x0;
    so.lo = sw->lo;
    so.hi = sw->hi;
    so.n = sw->n;
    so.time = sw->time;
    so.progress = sweep_progress;
    so.progress_ctx = &ctx;
    cli_progress_init(&progress, "hes simulate");
    st = hes_state_sweep_run(sys, &so, &res);
    cli_progress_clear(&progress);
    if (st != HES_OK)
        return cli_report_status(st, sys);
    switch (output) {
    case OUT_JSON:
        rc = cli_print_document(CMD, hes_state_sweep_json(sys, &res));
        break;
    case OUT_CSV:
        print_sweep_csv(sys, sw, res.points);
        break;
    case OUT_TEXT:
        print_sweep_text(sys, sw, so.mode, res.points);
        break;
    }
    hes_state_sweep_free(&res);
    return rc;
}
