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
 * row says why and gives the state where it stopped.  The output is
 * state_sweep_print.c's; cmd_simulate.c parses the command line.
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
    if (cli_parse_double(lo, &sw->run.lo) != 0 || cli_parse_double(hi, &sw->run.hi) != 0)
        return cli_bad_value(CMD, "--sweep", text, "NAME=LO:HI:N with finite numbers LO and HI");
    if (!(sw->run.lo <= sw->run.hi) || !isfinite(sw->run.hi - sw->run.lo))
        return cli_bad_value(CMD, "--sweep", text, "NAME=LO:HI:N with LO <= HI");
    if (cli_parse_int(n, &sw->run.n) != 0 || sw->run.n < 1 || sw->run.n > CLI_MAX_VALUES)
        return cli_bad_value(CMD, "--sweep", text, "NAME=LO:HI:N with an integer N from 1 to "
                         STR(CLI_MAX_VALUES));
    return 0;
}

int simulate_sweep_x0(const char *text, simulate_sweep_opts *sw)
{
    free(sw->x0);
    int rc = cli_parse_vector(text, &sw->x0, &sw->run.dim);
    sw->run.x0 = sw->x0;
    if (rc == -2)
        return CLI_EXIT_FAILURE; /* out of memory: the caller says so */
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

/* The model's modes by name, after "modes:" in a refusal. */
static void print_mode_names(FILE *out, const hes_model *m)
{
    for (int i = 0; i < m->n_modes; i++)
        fprintf(out, "%s %s", i ? "," : "", m->modes[i].name);
}

/* Resolves --mode and checks --x0 against the model; 0 or CLI_EXIT_USAGE
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
    if (sw->run.dim != m->modes[*mode].dim) {
        fprintf(stderr, "hes simulate: --x0 has %d value%s, the state of mode '%s' has %d:",
                sw->run.dim, sw->run.dim == 1 ? "" : "s", m->modes[*mode].name,
                m->modes[*mode].dim);
        simulate_print_state_names(stderr, m, *mode);
        fputc('\n', stderr);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

/* The start (simulate_resolve_start) and the index of the swept state
 * NAME in its mode; 0 or CLI_EXIT_USAGE after printing. */
static int resolve_sweep(const hes_model *m, const simulate_sweep_opts *sw, int *mode, int *index)
{
    int rc = simulate_resolve_start(m, sw, mode);
    if (rc != 0)
        return rc;
    *index = state_index(m, *mode, sw->name);
    if (*index < 0) {
        fprintf(stderr, "hes simulate: --sweep: mode '%s' of '%s' has no state '%s'; states:",
                m->modes[*mode].name, m->name, sw->name);
        simulate_print_state_names(stderr, m, *mode);
        fputc('\n', stderr);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

/* The progress line of a sweep: the swept state's name and the line. */
typedef struct {
    const char *name;
    cli_progress *progress;
} sweep_run;

/* hes_state_sweep_options.progress: "simulating NAME = V (k of n) ...". */
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
    hes_state_sweep_options so = sw->run;
    hes_state_sweep res;
    cli_progress progress;
    sweep_run ctx = { sw->name, &progress };
    int rc = resolve_sweep(m, sw, &so.mode, &so.state);
    hes_status st;

    if (rc != 0)
        return rc;
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
        state_sweep_print_csv(sys, &res);
        break;
    case OUT_TEXT:
        state_sweep_print_text(sys, sw->name, &res);
        break;
    }
    hes_state_sweep_free(&res);
    return rc;
}
