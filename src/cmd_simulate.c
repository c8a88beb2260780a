/*
 * cmd_simulate.c - `hes simulate PROBLEM [-p NAME=VALUE]... [--perturb R]
 * [--trials N] [--steps S] [--seed N] [--tol E] [--json|--csv]`: the paper's
 * Fig. 3 experiment.  Finds the periodic orbit (hes_orbit_find), starts N
 * trials uniformly in the ball of radius R around its section state, follows
 * each for S periods (hes_trials_run) and reports the error to the section
 * state after every period: a table, CSV rows (trial,step,error), or
 * hes_trials_json() (DESIGN.md section 5).
 *
 * `hes simulate PROBLEM --sweep NAME=LO:HI:N --x0 V1,V2,... [--mode MODE]
 * --time T`: trajectory outcomes as one initial state component varies
 * (decoupled-limbs paper Fig. 1), for any model, with or without a periodic
 * orbit.  The state x0 of MODE (default: the model's first mode) with its
 * component NAME set to each of N values evenly spaced in [LO, HI] is
 * simulated with every guard armed over [0, T] (hes_simulate, t_end = T);
 * reported per value: the events (transition names in order) and the final
 * mode and state.  --json gives
 *   {"problem", "params", "sweep": {"name", "values", "mode", "x0", "time"},
 *    "results": [{"value", "events": [names], "event_times": [...], "mode",
 *                 "t", "x": [...], "failure": null|"..."}]}
 * and --csv one row per final state component:
 *   value,n_events,transitions,mode,state,x,failure
 * A simulation that fails (grazing, Zeno, a model error) is a result: its
 * row says why and gives the state where it stopped.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"

#define DEFAULT_PERTURB 0.1
#define DEFAULT_TRIALS  20
#define DEFAULT_STEPS   100
#define DEFAULT_SEED    1UL
#define DEFAULT_TOL     1e-6

typedef enum { OUT_TEXT, OUT_JSON, OUT_CSV } output_kind;

typedef struct {
    double perturb;
    int trials;
    int steps;
    unsigned long seed;
    double tol;
    output_kind output;
    int box;                 /* --box: per-component uniform perturbation */
} simulate_opts;

/* --sweep NAME=LO:HI:N with its --x0, --mode and --time. */
typedef struct {
    const char *spec;        /* the --sweep argument (NULL: no sweep) */
    char name[64];           /* NAME of the swept state */
    double lo, hi;
    int n;
    double *x0;              /* --x0 values (malloc'd), n_x0 of them */
    int n_x0;
    const char *mode;        /* --mode, NULL: the model's first mode */
    double time;             /* --time, > 0 when given */
    int have_time;
} sweep_opts;

void cmd_simulate_usage(FILE *out)
{
    fprintf(out,
            "Usage: hes simulate PROBLEM [-p NAME=VALUE]... [--perturb R] [--trials N]\n"
            "                    [--steps S] [--seed N] [--tol E] [--json|--csv]\n"
            "       hes simulate --orbit FILE [-p NAME=VALUE]... [trial options]\n"
            "       hes simulate PROBLEM [-p NAME=VALUE]... --sweep NAME=LO:HI:N\n"
            "                    --x0 V1,V2,... [--mode MODE] --time T [--json|--csv]\n"
            "Find the periodic orbit of PROBLEM, start N trials uniformly in the ball of\n"
            "radius R around its section state, follow each for S periods and report the\n"
            "distance to the section state after every period.\n"
            "With --sweep: simulate from the state x0 of MODE with its component NAME set\n"
            "to each of N values evenly spaced in [LO, HI], every guard armed, up to time\n"
            "T, and report the events and the final mode and state of each.\n"
            "\n"
            "  -p, --param NAME=VALUE  set a parameter (repeatable; see 'hes info PROBLEM')\n"
            "      --perturb R         radius of the perturbation ball, R >= 0 (%g)\n"
            "      --box H             perturb every state component uniformly in (-H, H)\n"
            "                          instead (the paper's Fig. 5 protocol; not with\n"
            "                          --perturb)\n"
            "      --trials N          number of trials, 1 <= N <= %d (%d)\n"
            "      --steps S           periods per trial, 1 <= S <= %d (%d); N x S at most\n"
            "                          %d\n"
            "      --seed N            seed of the random starts (%lu)\n"
            "      --tol E             a trial converged if its final error < E, E > 0 (%g)\n"
            "      --sweep NAME=LO:HI:N  sweep state NAME of MODE over N values in [LO, HI],\n"
            "                          1 <= N <= %d (N = 1: LO only)\n"
            "      --x0 V1,V2,...      the full initial state of MODE (with --sweep)\n"
            "      --mode MODE         the mode of --x0 (default: the model's first mode)\n"
            "      --time T            simulated time of each sweep value, T > 0\n"
            "      --json              print one JSON object instead of text\n"
            "      --csv               print rows trial,step,error (both counted from 1);\n"
            "                          with --sweep value,n_events,transitions,mode,state,x,\n"
            "                          failure (one row per final state component)\n"
            "  -h, --help              show this help\n"
            "Each simulation has a budget of integrator steps per phase and of wall-clock\n"
            "time (10 s); a trial or sweep value that exceeds it fails with a message.\n",
            DEFAULT_PERTURB, CLI_MAX_TRIALS, DEFAULT_TRIALS, CLI_MAX_STEPS, DEFAULT_STEPS,
            CLI_MAX_TRIAL_STEPS, DEFAULT_SEED, DEFAULT_TOL, CLI_MAX_VALUES);
}

static int bad_value(const char *option, const char *text, const char *expected)
{
    fprintf(stderr, "hes simulate: %s expects %s, got '%s'\n", option, expected, text);
    return CLI_EXIT_USAGE;
}

enum { OPT_BOX = 200, OPT_PERTURB = 256, OPT_TRIALS, OPT_STEPS, OPT_SEED, OPT_TOL, OPT_JSON, OPT_CSV, OPT_ORBIT,
       OPT_SWEEP, OPT_X0, OPT_MODE, OPT_TIME };

/* Parses the value of one numeric option into opts; 0 or CLI_EXIT_USAGE. */
static int parse_option_value(int c, const char *text, simulate_opts *opts)
{
    switch (c) {
    case OPT_PERTURB:
        if (cli_parse_double(text, &opts->perturb) != 0 || opts->perturb < 0)
            return bad_value("--perturb", text, "a finite number >= 0");
        return 0;
    case OPT_TRIALS:
        if (cli_parse_int(text, &opts->trials) != 0 || opts->trials < 1 ||
            opts->trials > CLI_MAX_TRIALS)
            return bad_value("--trials", text, "an integer from 1 to " STR(CLI_MAX_TRIALS));
        return 0;
    case OPT_STEPS:
        if (cli_parse_int(text, &opts->steps) != 0 || opts->steps < 1 ||
            opts->steps > CLI_MAX_STEPS)
            return bad_value("--steps", text, "an integer from 1 to " STR(CLI_MAX_STEPS));
        return 0;
    case OPT_SEED:
        if (cli_parse_ulong(text, &opts->seed) != 0)
            return bad_value("--seed", text, "a non-negative integer");
        return 0;
    case OPT_TOL:
        if (cli_parse_double(text, &opts->tol) != 0 || !(opts->tol > 0))
            return bad_value("--tol", text, "a finite number > 0");
        return 0;
    default:
        return CLI_EXIT_USAGE;
    }
}

static const char *trial_option_name(int c)
{
    switch (c) {
    case OPT_PERTURB: return "--perturb";
    case OPT_TRIALS: return "--trials";
    case OPT_STEPS: return "--steps";
    case OPT_SEED: return "--seed";
    case OPT_TOL: return "--tol";
    }
    return "?";
}

/* A transient status line on stderr, only when it is a terminal. */
static void progress(int tty, const char *what)
{
    if (tty) {
        fprintf(stderr, "\rhes simulate: %-45s", what);
        fflush(stderr);
    }
}

static void progress_done(int tty)
{
    if (tty)
        fprintf(stderr, "\r%60s\r", "");
}

static void print_text(const hes_system *sys, const hes_orbit *orbit,
                       const hes_trials *t, const simulate_opts *opts)
{
    const hes_model *m = hes_system_model(sys);
    int k;

    printf("problem: %s\n", m->name);
    printf("orbit: period %.12g, section state ", orbit->period);
    cli_print_vector(stdout, orbit->x0, orbit->n, "%.10g");
    printf(" in mode %s\n", m->modes[orbit->mode].name);
    printf("trials: %d starts uniform in the %s %g around the section "
           "state, %d periods each, seed %lu\n\n",
           t->n_trials, opts->box ? "box, every component within +-" : "ball of radius",
           opts->perturb, t->steps, opts->seed);

    printf("  %5s  %6s  %12s  %s\n", "trial", "steps", "final error", "failure");
    for (k = 0; k < t->n_trials; k++) {
        const hes_trial *tr = &t->trials[k];

        printf("  %5d  %6d  ", k + 1, tr->steps_completed);
        if (tr->steps_completed > 0)
            printf("%12.4e  ", tr->error[tr->steps_completed - 1]);
        else
            printf("%12s  ", "-");
        if (tr->failure == HES_OK)
            printf("-\n");
        else if (tr->failure_msg[0])
            printf("%s: %s\n", hes_strerror(tr->failure), tr->failure_msg);
        else
            printf("%s\n", hes_strerror(tr->failure));
    }

    printf("\nconverged: %d of %d (final error < %g)\n", t->converged, t->n_trials, t->tol);
    /* the others: failed (fell, diverged, solver), or completed with the
     * error still shrinking (below the first period's) or not */
    int failed = 0, shrinking = 0;
    for (k = 0; k < t->n_trials; k++) {
        const hes_trial *tr = &t->trials[k];
        if (tr->failure != HES_OK)
            failed++;
        else if (tr->steps_completed == t->steps && tr->error[t->steps - 1] >= t->tol &&
                 tr->error[t->steps - 1] < tr->error[0])
            shrinking++;
    }
    if (t->converged == t->n_trials)
        printf("verdict: every perturbed start returned to the orbit; "
               "it attracts the %s %g\n", opts->box ? "box of half-width" : "ball of radius",
               opts->perturb);
    else if (failed == 0 && shrinking == t->n_trials - t->converged)
        printf("verdict: every perturbed start is returning to the orbit, but %d have not yet "
               "reached the tolerance in %d periods (try more --steps)\n", shrinking, t->steps);
    else
        printf("verdict: %d of %d perturbed starts did not return to the orbit within %d "
               "periods (%d failed, %d still shrinking)\n", t->n_trials - t->converged,
               t->n_trials, t->steps, failed, shrinking);
}

static void print_csv(const hes_trials *t)
{
    int k, s;

    printf("trial,step,error\n");
    for (k = 0; k < t->n_trials; k++)
        for (s = 0; s < t->trials[k].steps_completed; s++)
            printf("%d,%d,%.17g\n", k + 1, s + 1, t->trials[k].error[s]);
}

static int print_json(const hes_system *sys, const hes_orbit *orbit,
                      const hes_trials *t)
{
    char *text = hes_trials_json(sys, orbit, t);

    if (!text) {
        fprintf(stderr, "hes simulate: cannot build the JSON document (out of memory)\n");
        return CLI_EXIT_FAILURE;
    }
    printf("%s\n", text);
    free(text);
    return CLI_EXIT_OK;
}

/* Orbit, trials, output; the system is set up. */
static int run(hes_system *sys, const simulate_opts *opts)
{
    int tty = isatty(STDERR_FILENO);
    char what[96];
    hes_orbit orbit;
    hes_trials trials;
    hes_status st;
    int rc = CLI_EXIT_OK;

    if (!hes_system_model(sys)->orbit.guess) {
        fprintf(stderr, "hes simulate: problem '%s' declares no periodic orbit to perturb; "
                "sweep initial states instead (--sweep NAME=LO:HI:N --x0 ... --time T)\n",
                hes_system_model(sys)->name);
        return CLI_EXIT_USAGE;
    }
    progress(tty, "finding the periodic orbit ...");
    st = hes_orbit_find(sys, &orbit);
    progress_done(tty);
    if (st != HES_OK)
        return cli_report_status(st, sys);

    snprintf(what, sizeof what, "running %d trials of %d periods ...",
             opts->trials, opts->steps);
    progress(tty, what);
    st = (opts->box ? hes_trials_run_box : hes_trials_run)(sys, &orbit, opts->trials,
                                                           opts->perturb, opts->steps,
                                                           opts->seed, opts->tol, &trials);
    progress_done(tty);
    if (st != HES_OK) {
        rc = cli_report_status(st, sys);
        hes_orbit_free(&orbit);
        return rc;
    }

    switch (opts->output) {
    case OUT_JSON:
        rc = print_json(sys, &orbit, &trials);
        break;
    case OUT_CSV:
        print_csv(&trials);
        break;
    case OUT_TEXT:
        print_text(sys, &orbit, &trials, opts);
        break;
    }
    hes_trials_free(&trials);
    hes_orbit_free(&orbit);
    return rc;
}

/* ------------------------------------------------------------------ sweep */

/* Parses "NAME=LO:HI:N" into sw; 0 or CLI_EXIT_USAGE after printing. */
static int parse_sweep(const char *text, sweep_opts *sw)
{
    const char *eq = strchr(text, '=');
    char buf[256], *lo, *hi, *n;
    size_t len;

    sw->spec = text;
    if (!eq || eq == text || (size_t)(eq - text) >= sizeof sw->name ||
        strlen(eq + 1) >= sizeof buf)
        return bad_value("--sweep", text, "NAME=LO:HI:N");
    len = (size_t)(eq - text);
    memcpy(sw->name, text, len);
    sw->name[len] = '\0';
    strcpy(buf, eq + 1);
    lo = buf;
    hi = strchr(lo, ':');
    n = hi ? strchr(hi + 1, ':') : NULL;
    if (!hi || !n || strchr(n + 1, ':'))
        return bad_value("--sweep", text, "NAME=LO:HI:N");
    *hi++ = '\0';
    *n++ = '\0';
    if (cli_parse_double(lo, &sw->lo) != 0 || cli_parse_double(hi, &sw->hi) != 0)
        return bad_value("--sweep", text, "NAME=LO:HI:N with finite numbers LO and HI");
    if (!(sw->lo <= sw->hi) || !isfinite(sw->hi - sw->lo))
        return bad_value("--sweep", text, "NAME=LO:HI:N with LO <= HI");
    if (cli_parse_int(n, &sw->n) != 0 || sw->n < 1 || sw->n > CLI_MAX_VALUES)
        return bad_value("--sweep", text, "NAME=LO:HI:N with an integer N from 1 to "
                         STR(CLI_MAX_VALUES));
    return 0;
}

/* Parses "V1,V2,..." into a malloc'd array; 0 or an exit status. */
static int parse_x0(const char *text, sweep_opts *sw)
{
    free(sw->x0);
    int rc = cli_parse_vector(text, &sw->x0, &sw->n_x0);
    if (rc == -2) {
        fprintf(stderr, "hes simulate: out of memory\n");
        return CLI_EXIT_FAILURE;
    }
    return rc == 0 ? 0 : bad_value("--x0", text, "comma-separated finite numbers");
}

/* Value k of n evenly spaced in [lo, hi], stepped from the nearer end: the
 * end points are exact, and a sweep symmetric about 0 gives exact negatives
 * and, with n odd, 0 exactly in the middle. */
static double sweep_value(const sweep_opts *sw, int k)
{
    int last = sw->n - 1;
    double span = sw->hi - sw->lo;

    if (last == 0)
        return sw->lo;
    if (2 * k == last)
        return 0.5 * (sw->lo + sw->hi);
    if (2 * k < last)
        return sw->lo + span * ((double)k / last);
    return sw->hi - span * ((double)(last - k) / last);
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
static int resolve_sweep(const hes_model *m, const sweep_opts *sw, int *mode, int *index)
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

/* One simulation of the sweep. */
typedef struct {
    double value;
    hes_traj traj;
    hes_status status;
    char msg[512];           /* hes_system_errmsg at the failure */
} sweep_result;

/* The final phase of a result, or NULL when the simulation made none. */
static const hes_phase *final_phase(const sweep_result *r)
{
    return r->traj.n_phases > 0 ? &r->traj.phases[r->traj.n_phases - 1] : NULL;
}

/* "status: detail" of a failed simulation. */
static void failure_text(const sweep_result *r, char *buf, size_t len)
{
    if (r->msg[0])
        snprintf(buf, len, "%s: %s", hes_strerror(r->status), r->msg);
    else
        snprintf(buf, len, "%s", hes_strerror(r->status));
}

static void print_sweep_text(const hes_system *sys, const sweep_opts *sw, int mode,
                             const sweep_result *res)
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
        const sweep_result *r = &res[k];
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

static void print_sweep_csv(const hes_system *sys, const sweep_opts *sw,
                            const sweep_result *res)
{
    const hes_model *m = hes_system_model(sys);

    printf("value,n_events,transitions,mode,state,x,failure\n");
    for (int k = 0; k < sw->n; k++) {
        const sweep_result *r = &res[k];
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

static json_t *real_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *vector_json(const double *v, int n)
{
    json_t *a = json_array();

    for (int i = 0; a && i < n; i++)
        json_array_append_new(a, real_or_null(v[i]));
    return a;
}

static json_t *result_json(const hes_model *m, const sweep_result *r)
{
    const hes_phase *ph = final_phase(r);
    json_t *events = json_array(), *times = json_array();
    char why[640];

    for (int e = 0; events && times && e < r->traj.n_events; e++) {
        json_array_append_new(events,
                              json_string(m->transitions[r->traj.events[e].transition].name));
        json_array_append_new(times, real_or_null(r->traj.events[e].t));
    }
    if (r->status != HES_OK)
        failure_text(r, why, sizeof why);
    return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
                     "value", real_or_null(r->value),
                     "events", events ? events : json_null(),
                     "event_times", times ? times : json_null(),
                     "mode", ph ? json_string(m->modes[ph->mode].name) : json_null(),
                     "t", ph ? real_or_null(ph->t1) : json_null(),
                     "x", ph ? vector_json(ph->x1, m->modes[ph->mode].dim) : json_null(),
                     "failure", r->status == HES_OK ? json_null() : json_string(why));
}

static int print_sweep_json(const hes_system *sys, const sweep_opts *sw, int mode,
                            const sweep_result *res)
{
    const hes_model *m = hes_system_model(sys);
    const double *p = hes_system_params(sys);
    json_t *params = json_object(), *values = json_array(), *results = json_array();
    json_t *doc;
    char *text;
    int k;

    for (k = 0; params && k < m->n_params; k++)
        json_object_set_new(params, m->params[k].name, real_or_null(p[k]));
    for (k = 0; values && results && k < sw->n; k++) {
        json_array_append_new(values, real_or_null(res[k].value));
        json_array_append_new(results, result_json(m, &res[k]));
    }
    doc = json_pack("{s:s, s:o, s:{s:s, s:o, s:s, s:o, s:o}, s:o}",
                    "problem", m->name,
                    "params", params ? params : json_null(),
                    "sweep",
                    "name", sw->name,
                    "values", values ? values : json_null(),
                    "mode", m->modes[mode].name,
                    "x0", vector_json(sw->x0, sw->n_x0),
                    "time", real_or_null(sw->time),
                    "results", results ? results : json_null());
    text = doc ? json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                            JSON_REAL_PRECISION(17)) : NULL;
    json_decref(doc);
    if (!text) {
        fprintf(stderr, "hes simulate: cannot build the JSON document (out of memory)\n");
        return CLI_EXIT_FAILURE;
    }
    printf("%s\n", text);
    free(text);
    return CLI_EXIT_OK;
}

/* The sweep: one simulation per value, then the output. */
static int run_sweep(hes_system *sys, const sweep_opts *sw, output_kind output)
{
    const hes_model *m = hes_system_model(sys);
    int tty = isatty(STDERR_FILENO), mode, index, k, rc;
    hes_sim_opts so = hes_sim_opts_default();
    sweep_result *res;
    double *x;
    char what[160];

    rc = resolve_sweep(m, sw, &mode, &index);
    if (rc != 0)
        return rc;
    res = calloc((size_t)sw->n, sizeof *res);
    x = malloc(sizeof(double) * (size_t)sw->n_x0);
    if (!res || !x) {
        free(res);
        free(x);
        fprintf(stderr, "hes simulate: out of memory\n");
        return CLI_EXIT_FAILURE;
    }
    so.t_end = sw->time;
    for (k = 0; k < sw->n; k++) {
        sweep_result *r = &res[k];

        snprintf(what, sizeof what, "simulating %s = %.6g (%d of %d) ...", sw->name,
                 sweep_value(sw, k), k + 1, sw->n);
        progress(tty, what);
        memcpy(x, sw->x0, sizeof(double) * (size_t)sw->n_x0);
        r->value = x[index] = sweep_value(sw, k);
        r->status = hes_simulate(sys, mode, 0.0, 0.0, x, &so, &r->traj);
        if (r->status != HES_OK)
            snprintf(r->msg, sizeof r->msg, "%s", hes_system_errmsg(sys));
    }
    progress_done(tty);

    rc = CLI_EXIT_OK;
    switch (output) {
    case OUT_JSON:
        rc = print_sweep_json(sys, sw, mode, res);
        break;
    case OUT_CSV:
        print_sweep_csv(sys, sw, res);
        break;
    case OUT_TEXT:
        print_sweep_text(sys, sw, mode, res);
        break;
    }
    for (k = 0; k < sw->n; k++)
        hes_traj_free(&res[k].traj);
    free(res);
    free(x);
    return rc;
}

int cmd_simulate(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"param", required_argument, NULL, 'p'},
        {"perturb", required_argument, NULL, OPT_PERTURB},
        {"box", required_argument, NULL, OPT_BOX},
        {"trials", required_argument, NULL, OPT_TRIALS},
        {"steps", required_argument, NULL, OPT_STEPS},
        {"seed", required_argument, NULL, OPT_SEED},
        {"tol", required_argument, NULL, OPT_TOL},
        {"sweep", required_argument, NULL, OPT_SWEEP},
        {"x0", required_argument, NULL, OPT_X0},
        {"mode", required_argument, NULL, OPT_MODE},
        {"time", required_argument, NULL, OPT_TIME},
        {"json", no_argument, NULL, OPT_JSON},
        {"csv", no_argument, NULL, OPT_CSV},
        {"orbit", required_argument, NULL, OPT_ORBIT},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}
    };
    simulate_opts opts = {DEFAULT_PERTURB, DEFAULT_TRIALS, DEFAULT_STEPS,
                          DEFAULT_SEED, DEFAULT_TOL, OUT_TEXT, 0};
    sweep_opts sweep;
    cli_assignments params;
    const hes_model *model;
    hes_system *sys;
    const char *trial_option = NULL, *sweep_option = NULL, *orbit_file = NULL;
    cli_orbit orbit;
    int c, rc = CLI_EXIT_OK, json = 0, csv = 0, perturb_given = 0;
    unsigned char seen[CLI_OPTION_CODES] = {0};

    memset(&sweep, 0, sizeof sweep);
    cli_assignments_init(&params);
    optind = 1;
    while (rc == CLI_EXIT_OK &&
           (c = getopt_long(argc, argv, "p:h", longopts, NULL)) != -1) {
        if (c != 'p' && c != 'h' && c != '?' && c != OPT_JSON && c != OPT_CSV &&
            (rc = cli_once(argv[0], longopts, c, seen)) != CLI_EXIT_OK)
            break;
        switch (c) {
        case 'p':
            if (cli_assignments_add(&params, optarg) != 0)
                rc = CLI_EXIT_FAILURE;
            break;
        case OPT_BOX:
            if (perturb_given) {
                fprintf(stderr, "hes simulate: --box and --perturb exclude each other (a box "
                        "or a ball of starts)\n");
                rc = CLI_EXIT_USAGE;
                break;
            }
            opts.box = 1;
            trial_option = "--box";
            rc = parse_option_value(OPT_PERTURB, optarg, &opts);
            break;
        case OPT_PERTURB:
            if (opts.box) {
                fprintf(stderr, "hes simulate: --box and --perturb exclude each other (a box "
                        "or a ball of starts)\n");
                rc = CLI_EXIT_USAGE;
                break;
            }
            perturb_given = 1;
            /* fall through */
        case OPT_TRIALS:
        case OPT_STEPS:
        case OPT_SEED:
        case OPT_TOL:
            trial_option = trial_option_name(c);
            rc = parse_option_value(c, optarg, &opts);
            break;
        case OPT_SWEEP:
            rc = parse_sweep(optarg, &sweep);
            break;
        case OPT_X0:
            sweep_option = "--x0";
            rc = parse_x0(optarg, &sweep);
            break;
        case OPT_MODE:
            sweep_option = "--mode";
            sweep.mode = optarg;
            break;
        case OPT_TIME:
            sweep_option = "--time";
            if (cli_parse_double(optarg, &sweep.time) != 0 || !(sweep.time > 0))
                rc = bad_value("--time", optarg, "a finite number > 0");
            sweep.have_time = 1;
            break;
        case OPT_JSON:
            json = 1;
            break;
        case OPT_CSV:
            csv = 1;
            break;
        case OPT_ORBIT:
            orbit_file = optarg;
            break;
        case 'h':
            cli_assignments_free(&params);
            free(sweep.x0);
            cmd_simulate_usage(stdout);
            return CLI_EXIT_OK;
        default:
            cmd_simulate_usage(stderr);
            rc = CLI_EXIT_USAGE;
            break;
        }
    }
    if (rc == CLI_EXIT_OK && (long)opts.trials * opts.steps > CLI_MAX_TRIAL_STEPS) {
        fprintf(stderr, "hes simulate: --trials %d x --steps %d is more than %d periods in all\n",
                opts.trials, opts.steps, CLI_MAX_TRIAL_STEPS);
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && json && csv) {
        fprintf(stderr, "hes simulate: --json and --csv exclude each other\n");
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && !sweep.spec && sweep_option) {
        fprintf(stderr, "hes simulate: %s only goes with --sweep\n", sweep_option);
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && sweep.spec && trial_option) {
        fprintf(stderr, "hes simulate: %s is an option of the perturbation trials, "
                "not of --sweep\n", trial_option);
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && sweep.spec && (!sweep.x0 || !sweep.have_time)) {
        fprintf(stderr, "hes simulate: --sweep needs the initial state --x0 and the "
                "time --time\n");
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && argc - optind != 1 && !(orbit_file && argc == optind)) {
        fprintf(stderr, "hes simulate: expected exactly one PROBLEM (or --orbit FILE)\n");
        cmd_simulate_usage(stderr);
        rc = CLI_EXIT_USAGE;
    }
    if (rc != CLI_EXIT_OK) {
        cli_assignments_free(&params);
        free(sweep.x0);
        return rc;
    }
    opts.output = json ? OUT_JSON : csv ? OUT_CSV : OUT_TEXT;

    model = cli_model_for(optind < argc ? argv[optind] : NULL, orbit_file, &orbit, &rc);
    if (!model) {
        cli_assignments_free(&params);
        free(sweep.x0);
        return CLI_EXIT_USAGE;
    }
    sys = cli_system_setup(model, &params, &rc);
    cli_assignments_free(&params);
    if (sys)
        rc = sweep.spec ? run_sweep(sys, &sweep, opts.output) : run(sys, &opts);
    hes_system_destroy(sys);
    cli_orbit_free(&orbit);
    free(sweep.x0);
    return rc;
}
