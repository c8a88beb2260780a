/*
 * cmd_trajopt.c - `hes trajopt`: the orbit itself as the unknown of a
 * multi-phase direct collocation (lib/shaping/collocation.c) with the model's inputs
 * at the nodes, virtual events, and psi and/or the input energy in the cost
 * (core paper problem (8)); the gait is written as a gait file (-o) and
 * re-analysed independently by shooting through its derived model
 * (lib/shaping/gait.c), and both psi are printed.  The pipeline is
 * hes_trajopt_run (lib/shaping/trajopt.c); this file parses and prints.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

enum { OPT_OBJECTIVE = 256, OPT_DESIGN, OPT_NODES, OPT_JSON, OPT_WEIGHT, OPT_VIRTUAL,
       OPT_INIT, OPT_INPUTS, OPT_MAXEVAL, OPT_QUIET, OPT_BOUND, OPT_SMOOTH, OPT_MEASURE,
       OPT_REFINE, OPT_PSI_FLOOR, OPT_PSI_SMOOTHING, OPT_SOLVER, OPT_JOBS, OPT_STARTS, OPT_SEED,
       OPT_SPREAD };

void cmd_trajopt_usage(FILE *out)
{
    fputs("Usage: hes trajopt PROBLEM [-p NAME=VALUE]... [--objective OBJ] [--weight W]\n"
          "                   [--virtual-events SPEC] [--inputs linear|constant]\n"
          "                   [--design NAME=LO:HI]... [--nodes N] [--init FILE|default]\n"
          "                   [--maxeval N[,N2,...]] [--starts N [--seed N] [--spread S]]\n"
          "                   [--jobs N] [--quiet] [--json] [-o FILE]\n"
          "Collocate a periodic orbit of PROBLEM (Hermite-Simpson over its event sequence,\n"
          "free phase durations, the model's inputs at the nodes, optional virtual events)\n"
          "minimising the objective, then re-analyse the gait by shooting.\n\n"
          "  -p, --param NAME=VALUE  set a parameter (repeatable)\n"
          "      --objective OBJ     stability: psi (default); energy: integral of the\n"
          "                          squared inputs; weighted: psi + W * energy;\n"
          "                          feasible: no cost\n"
          "      --weight W          the energy weight of 'weighted', W >= 0 (1)\n"
          "      --measure M         the stability term optimised: psi (default), or smooth:\n"
          "                          the 16-norm of the multiplier moduli, which does not\n"
          "                          stall where the largest multipliers meet\n"
          "      --psi-floor F       psi counts in the cost only down to F (0): below it\n"
          "                          the other terms are optimised instead of driving the\n"
          "                          multipliers together towards 0\n"
          "      --psi-smoothing S   the first rounds smooth psi where multipliers meet in\n"
          "                          modulus, over moduli within S times psi at the start\n"
          "                          (0: none, the default, as is S below 0.01; try 0.05\n"
          "                          where SLSQP or the reduced space stall at the cap)\n"
          "      --smooth S          weight of the input-rate regularisation added to psi\n"
          "                          (integral of |du/dt|^2), S >= 0 (0.001)\n"
          "      --virtual-events SPEC  virtual events per phase of the sequence: 'none'\n"
          "                          (default), 'default' (the model's), or counts 'A,B,..'\n"
          "      --inputs KIND       linear (default): per node, linear in between;\n"
          "                          constant: one value per (sub-)phase\n"
          "      --bound STATE=LO:HI bounds on a component of the first state (just after\n"
          "                          the section event; repeatable; replaces the model's)\n"
          "      --design NAME=LO:HI a parameter to optimise within bounds (repeatable;\n"
          "                          default without inputs: every shape parameter, its\n"
          "                          search bounds)\n"
          "      --nodes N[,N2,...]  nodes per phase, N >= 3 (21); virtual sub-phases\n"
          "                          share them; with N2,... the gait is optimised again\n"
          "                          on each finer grid in turn from the one before (mesh\n"
          "                          continuation: the optimiser's psi then resolved)\n"
          "      --init FILE|default start from a gait file (resampled; -p overrides its\n"
          "                          parameters) or from a simulation of the model's\n"
          "                          orbit guess (default)\n"
          "      --maxeval N[,N2,...] evaluations of the cost per grid, 1 <= N <= "
          STR(CLI_MAX_EVALS) "\n"
          "                          (1000): one value for every grid of --nodes, or one\n"
          "                          per grid\n"
          "      --refine K          with inputs or virtual events the result is\n"
          "                          re-collocated with K times as many intervals and its\n"
          "                          inputs held (the gait written and its psi); K = 1\n"
          "                          skips that (2)\n"
          "      --solver S          the NLP solver: ipopt (sparse interior point; the\n"
          "                          default when built in, except psi objectives on\n"
          "                          at most 400 variables), slsqp (dense SQP),\n"
          "                          reduced (SQP on the free variables, every iterate\n"
          "                          an orbit: for refining a gait, e.g. adding virtual\n"
          "                          events), or hybrid (the first tenth of --maxeval\n"
          "                          by slsqp, the rest reduced: from a far start)\n"
          "      --starts N          optimise from N starts (1): the first as given, the\n"
          "                          others with the free variables (inputs, virtual\n"
          "                          offsets, design) moved by up to --spread (relative,\n"
          "                          0.01) at random (--seed, 1); the result is the start\n"
          "                          of least cost with psi by shooting\n"
          "      --jobs N            threads for psi's gradient (1), or with --starts for\n"
          "                          the starts; the result does not depend on N\n"
          "      --quiet             no progress lines on stderr\n"
          "      --json              print one JSON object instead of text\n"
          "  -o, --output FILE       write the gait (JSON) for 'hes analyze --orbit FILE'\n"
          "                          and 'hes simulate --orbit FILE'\n"
          CLI_NO_CHECK_DERIVATIVES_HELP
          "  -h, --help              show this help\n", out);
}

#define MAX_DESIGN HES_COLLOC_MAX_DESIGN

/* NAME=LO:HI pairs of --design or --bound (the names malloc'd). */
typedef struct {
    int n;
    const char *names[MAX_DESIGN];
    double lo[MAX_DESIGN], hi[MAX_DESIGN];
} designs;

static void designs_free(designs *d)
{
    for (int j = 0; j < d->n; j++)
        free((char *)d->names[j]);
    d->n = 0;
}

/* NAME=LO:HI of `option` (--design or --bound) into d. */
static int parse_design(const char *option, const char *text, designs *d)
{
    const char *eq = strchr(text, '='), *colon = eq ? strchr(eq + 1, ':') : NULL;
    char *name, *lo;
    if (d->n >= MAX_DESIGN) {
        fprintf(stderr, "hes trajopt: %s: at most %d of them\n", option, MAX_DESIGN);
        return -1;
    }
    if (!eq || !colon || eq == text) {
        fprintf(stderr, "hes trajopt: %s needs NAME=LO:HI, got '%s'\n", option, text);
        return -1;
    }
    if (!(name = strndup(text, (size_t)(eq - text)))) {
        fprintf(stderr, "hes trajopt: out of memory\n");
        return -1;
    }
    for (int j = 0; j < d->n; j++)
        if (strcmp(d->names[j], name) == 0) {
            fprintf(stderr, "hes trajopt: %s %s given twice (one pair of bounds each)\n", option,
                    name);
            free(name);
            return -1;
        }
    if (!(lo = strndup(eq + 1, (size_t)(colon - eq - 1)))) {
        fprintf(stderr, "hes trajopt: out of memory\n");
        free(name);
        return -1;
    }
    int bad = cli_parse_double(lo, &d->lo[d->n]) || cli_parse_double(colon + 1, &d->hi[d->n]) ||
              !(d->lo[d->n] <= d->hi[d->n]);
    free(lo);
    if (bad) {
        fprintf(stderr, "hes trajopt: %s %s: bounds must be finite numbers with LO <= HI\n",
                option, text);
        free(name);
        return -1;
    }
    d->names[d->n++] = name;
    return 0;
}

typedef struct {
    int quiet, last;
} progress_state;

static void progress(void *ctx, int evaluation, double cost, double violation, double psi)
{
    progress_state *p = ctx;
    if (p->quiet || (evaluation - p->last < 10 && p->last > 0))
        return;
    p->last = evaluation;
    fprintf(stderr, "trajopt: evaluation %5d  cost %.8g  violation %.2e  psi %.6g\n", evaluation,
            cost, violation, psi);
}

/* --virtual-events: counts (n_sequence of them) of 'none', 'default' or
 * "A,B,..". */
static int parse_virtual(const char *text, const hes_model *m, int *counts)
{
    const hes_orbit_spec *o = &m->orbit;
    if (strcmp(text, "none") == 0)
        return 0;
    if (strcmp(text, "default") == 0) {
        if (!m->trajopt || !m->trajopt->virtual_events) {
            fprintf(stderr, "hes trajopt: problem '%s' has no default virtual events\n", m->name);
            return -1;
        }
        memcpy(counts, m->trajopt->virtual_events, sizeof(int) * (size_t)o->n_sequence);
        return 0;
    }
    const char *p = text;
    for (int i = 0; i < o->n_sequence; i++) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || v > 64 || (i + 1 < o->n_sequence ? *end != ',' : *end != '\0')) {
            fprintf(stderr, "hes trajopt: --virtual-events needs 'none', 'default' or %d counts "
                    "0..64 separated by commas (one per event of the sequence), got '%s'\n",
                    o->n_sequence, text);
            return -1;
        }
        counts[i] = (int)v;
        p = end + 1;
    }
    return 0;
}

/* A value per grid (--nodes, --maxeval): 1 to HES_TRAJOPT_MAX_GRIDS
 * comma-separated integers in [lo, hi], increasing if asked; nonzero
 * (after the message, which names the form) when they are not. */
static int parse_per_grid(const char *option, const char *text, int lo, int hi, int increasing,
                          const char *form, int *out, int *n_out)
{
    double *v = NULL;
    int n = 0, bad = cli_parse_vector(text, &v, &n) != 0 || n > HES_TRAJOPT_MAX_GRIDS;
    for (int k = 0; !bad && k < n; k++) {
        bad = !(v[k] >= lo && v[k] <= hi && v[k] == (int)v[k]) ||
              (increasing && k > 0 && !(v[k] > v[k - 1]));
        out[k] = bad ? 0 : (int)v[k];
    }
    free(v);
    if (bad)
        return cli_bad_value("hes trajopt", option, text, form);
    *n_out = n;
    return 0;
}

static int any_virtual(const hes_model *m, const int *counts)
{
    for (int i = 0; i < m->orbit.n_sequence; i++)
        if (counts[i] > 0)
            return 1;
    return 0;
}

static void print_text(const hes_system *sys, const hes_trajopt_result *r, const int *maxeval)
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
    if (r->n_starts > 1) {
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
    if (r->n_grids > 1) {
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

/* -o FILE: the gait file, every write checked.  On failure the reason is
 * printed and a regular file is removed rather than left empty or cut. */
static int write_gait(const char *path, const hes_gait *gait, const hes_model *model)
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

int cmd_trajopt(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"param", required_argument, NULL, 'p'},
        CLI_NO_CHECK_DERIVATIVES_OPTION,
        {"objective", required_argument, NULL, OPT_OBJECTIVE},
        {"weight", required_argument, NULL, OPT_WEIGHT},
        {"smooth", required_argument, NULL, OPT_SMOOTH},
        {"measure", required_argument, NULL, OPT_MEASURE},
        {"refine", required_argument, NULL, OPT_REFINE},
        {"solver", required_argument, NULL, OPT_SOLVER},
        {"jobs", required_argument, NULL, OPT_JOBS},
        {"starts", required_argument, NULL, OPT_STARTS},
        {"seed", required_argument, NULL, OPT_SEED},
        {"spread", required_argument, NULL, OPT_SPREAD},
        {"psi-floor", required_argument, NULL, OPT_PSI_FLOOR},
        {"psi-smoothing", required_argument, NULL, OPT_PSI_SMOOTHING},
        {"virtual-events", required_argument, NULL, OPT_VIRTUAL},
        {"inputs", required_argument, NULL, OPT_INPUTS},
        {"design", required_argument, NULL, OPT_DESIGN},
        {"bound", required_argument, NULL, OPT_BOUND},
        {"nodes", required_argument, NULL, OPT_NODES},
        {"init", required_argument, NULL, OPT_INIT},
        {"maxeval", required_argument, NULL, OPT_MAXEVAL},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"json", no_argument, NULL, OPT_JSON},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    cli_assignments params;
    designs d, bounds;
    progress_state prog = { 0, 0 };
    const char *virtual_spec = "none", *init = "default", *out_path = NULL;
    int c, json = 0, grids[HES_TRAJOPT_MAX_GRIDS] = {21}, n_grids = 1, constant = 0;
    int maxeval[HES_TRAJOPT_MAX_GRIDS] = {1000}, n_maxeval = 1, refine = 2, rc = CLI_EXIT_OK;
    unsigned char seen[CLI_OPTION_CODES] = {0};
    hes_colloc_objective obj = HES_COLLOC_STABILITY;
    double weight = 1.0, smooth = 1e-3, psi_floor = 0.0, psi_smoothing = 0.0;
    hes_measure measure = HES_MEASURE_PSI;
    int starts = 1;
    unsigned long seed = 1;
    double spread = 0.01;
    hes_nlp_solver solver = HES_NLP_DEFAULT;
    int jobs = 1;
    memset(&d, 0, sizeof d);
    memset(&bounds, 0, sizeof bounds);
    cli_assignments_init(&params);
    optind = 1;
    while (rc == CLI_EXIT_OK && (c = getopt_long(argc, argv, "p:o:h", longopts, NULL)) != -1) {
        if (c != 'p' && c != 'h' && c != '?' && c != OPT_DESIGN && c != OPT_BOUND &&
            c != OPT_QUIET && c != OPT_JSON && (rc = cli_once(argv[0], longopts, c, seen)) != 0)
            break;
        switch (c) {
        case CLI_OPT_NO_CHECK_DERIVATIVES:
            params.no_check_derivatives = 1;
            break;
        case 'p':
            if (cli_assignments_add(&params, optarg))
                rc = CLI_EXIT_FAILURE;
            break;
        case OPT_OBJECTIVE:
            if (hes_colloc_objective_from_name(optarg, &obj) != HES_OK) {
                fprintf(stderr, "hes trajopt: --objective is energy, stability, weighted or "
                        "feasible, got '%s'\n", optarg);
                rc = CLI_EXIT_USAGE;
            }
            break;
        case OPT_WEIGHT:
            if (cli_parse_double(optarg, &weight) || !(weight >= 0)) {
                fprintf(stderr, "hes trajopt: --weight must be a number >= 0, got '%s'\n", optarg);
                rc = CLI_EXIT_USAGE;
            }
            break;
        case OPT_SMOOTH:
            if (cli_parse_double(optarg, &smooth) || !(smooth >= 0)) {
                fprintf(stderr, "hes trajopt: --smooth must be a number >= 0, got '%s'\n", optarg);
                rc = CLI_EXIT_USAGE;
            }
            break;
        case OPT_MEASURE:
            if (hes_measure_from_name(optarg, &measure) != HES_OK) {
                fprintf(stderr, "hes trajopt: --measure is psi or smooth, got '%s'\n", optarg);
                rc = CLI_EXIT_USAGE;
            }
            break;
        case OPT_VIRTUAL:
            virtual_spec = optarg;
            break;
        case OPT_INPUTS:
            if (strcmp(optarg, "linear") == 0 || strcmp(optarg, "constant") == 0) {
                constant = optarg[0] == 'c';
            } else {
                fprintf(stderr, "hes trajopt: --inputs is linear or constant, got '%s'\n", optarg);
                rc = CLI_EXIT_USAGE;
            }
            break;
        case OPT_DESIGN:
            if (parse_design("--design", optarg, &d))
                rc = CLI_EXIT_USAGE;
            break;
        case OPT_BOUND:
            if (parse_design("--bound", optarg, &bounds))
                rc = CLI_EXIT_USAGE;
            break;
        case OPT_NODES:
            if (parse_per_grid("--nodes", optarg, 3, 1000, 1, "1 to " STR(HES_TRAJOPT_MAX_GRIDS)
                               " node counts from 3 to 1000, comma-separated and increasing",
                               grids, &n_grids))
                rc = CLI_EXIT_USAGE;
            break;
        case OPT_INIT:
            init = optarg;
            break;
        case OPT_MAXEVAL:
            if (parse_per_grid("--maxeval", optarg, 1, CLI_MAX_EVALS, 0, "1 to "
                               STR(HES_TRAJOPT_MAX_GRIDS) " integers from 1 to "
                               STR(CLI_MAX_EVALS) ", comma-separated: one for every grid, or "
                               "one per grid of --nodes", maxeval, &n_maxeval))
                rc = CLI_EXIT_USAGE;
            break;
        case OPT_STARTS:
            if (cli_int_option("hes trajopt", "--starts", optarg, 1, HES_TRAJOPT_MAX_STARTS,
                               &starts))
                rc = CLI_EXIT_USAGE;
            break;
        case OPT_SEED:
            if (cli_parse_ulong(optarg, &seed)) {
                fprintf(stderr, "hes trajopt: --seed must be an integer >= 0, got '%s'\n",
                        optarg);
                rc = CLI_EXIT_USAGE;
            }
            break;
        case OPT_SPREAD:
            if (cli_parse_double(optarg, &spread) || !(spread > 0 && spread <= 1)) {
                fprintf(stderr, "hes trajopt: --spread must be a number in (0, 1], got '%s'\n",
                        optarg);
                rc = CLI_EXIT_USAGE;
            }
            break;
        case OPT_JOBS:
            if (cli_int_option("hes trajopt", "--jobs", optarg, 1, HES_COLLOC_MAX_JOBS, &jobs))
                rc = CLI_EXIT_USAGE;
            break;
        case OPT_QUIET:
            prog.quiet = 1;
            break;
        case OPT_SOLVER:
            if (hes_nlp_solver_from_name(optarg, &solver) != HES_OK || solver == HES_NLP_DEFAULT) {
                fprintf(stderr, "hes trajopt: --solver expects ipopt, slsqp, reduced or hybrid, "
                        "got '%s'\n", optarg);
                rc = CLI_EXIT_USAGE;
            } else if (!hes_nlp_solver_available(solver)) {
                fprintf(stderr, "hes trajopt: --solver %s: hes was built without it (install "
                        "the Debian package coinor-libipopt-dev and run configure again)\n",
                        optarg);
                rc = CLI_EXIT_FAILURE;
            }
            break;
        case OPT_REFINE:
            if (cli_int_option("hes trajopt", "--refine", optarg, 1, 16, &refine))
                rc = CLI_EXIT_USAGE;
            break;
        case OPT_PSI_FLOOR:
            if (cli_parse_double(optarg, &psi_floor) || !(psi_floor >= 0)) {
                fprintf(stderr, "hes trajopt: --psi-floor must be a number >= 0, got '%s'\n", optarg);
                rc = CLI_EXIT_USAGE;
            }
            break;
        case OPT_PSI_SMOOTHING:
            if (cli_parse_double(optarg, &psi_smoothing) || !(psi_smoothing >= 0) ||
                !isfinite(psi_smoothing)) {
                fprintf(stderr, "hes trajopt: --psi-smoothing must be a finite number >= 0, got "
                        "'%s'\n", optarg);
                rc = CLI_EXIT_USAGE;
            }
            break;
        case OPT_JSON:
            json = 1;
            break;
        case 'o':
            out_path = optarg;
            break;
        case 'h':
            cmd_trajopt_usage(stdout);
            cli_assignments_free(&params);
            designs_free(&d);
            designs_free(&bounds);
            return CLI_EXIT_OK;
        default:
            cmd_trajopt_usage(stderr);
            cli_assignments_free(&params);
            designs_free(&d);
            designs_free(&bounds);
            return CLI_EXIT_USAGE;
        }
    }
    if (rc == CLI_EXIT_OK && n_maxeval > 1 && n_maxeval != n_grids) {
        fprintf(stderr, "hes trajopt: --maxeval gives %d values for the %d grid%s of --nodes: "
                "give one for every grid, or one per grid\n", n_maxeval, n_grids,
                n_grids > 1 ? "s" : "");
        rc = CLI_EXIT_USAGE;
    }
    for (int k = n_maxeval; k < n_grids; k++) /* one value: every grid's */
        maxeval[k] = maxeval[0];
    if (rc == CLI_EXIT_OK && argc - optind != 1) {
        fprintf(stderr, "hes trajopt: expected exactly one PROBLEM\n");
        cmd_trajopt_usage(stderr);
        rc = CLI_EXIT_USAGE;
    }
    const hes_model *model = rc == CLI_EXIT_OK ? cli_find_problem(argv[optind]) : NULL;
    if (rc == CLI_EXIT_OK && !model)
        rc = CLI_EXIT_USAGE;
    int *counts = NULL;
    if (rc == CLI_EXIT_OK &&
        !(counts = calloc((size_t)model->orbit.n_sequence + 1, sizeof *counts))) {
        fprintf(stderr, "hes trajopt: out of memory\n");
        rc = CLI_EXIT_FAILURE;
    }
    if (rc == CLI_EXIT_OK && parse_virtual(virtual_spec, model, counts))
        rc = CLI_EXIT_USAGE;
    const hes_trajopt_spec *spec = model ? model->trajopt : NULL;
    /* options that would be ignored */
    int psi_objective = obj == HES_COLLOC_STABILITY || obj == HES_COLLOC_WEIGHTED;
    const char *ignored = NULL;
    if (seen[OPT_WEIGHT] && obj != HES_COLLOC_WEIGHTED)
        ignored = "--weight";
    else if (seen[OPT_MEASURE] && !psi_objective)
        ignored = "--measure";
    else if (seen[OPT_PSI_FLOOR] && !psi_objective)
        ignored = "--psi-floor";
    else if (seen[OPT_PSI_SMOOTHING] && !psi_objective)
        ignored = "--psi-smoothing";
    else if (seen[OPT_SMOOTH] && !psi_objective)
        ignored = "--smooth";
    if (rc == CLI_EXIT_OK && (seen[OPT_SEED] || seen[OPT_SPREAD]) && starts < 2) {
        fprintf(stderr, "hes trajopt: %s applies only with --starts N above 1\n",
                seen[OPT_SEED] ? "--seed" : "--spread");
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && starts > 1 && obj == HES_COLLOC_FEASIBLE) {
        fprintf(stderr, "hes trajopt: --starts needs a cost to compare the starts by (not "
                "--objective feasible)\n");
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && ignored) {
        fprintf(stderr, "hes trajopt: %s does not apply to --objective %s (only to %s)\n", ignored,
                hes_colloc_objective_name(obj), strcmp(ignored, "--weight") == 0
                    ? "weighted" : "stability and weighted");
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && psi_smoothing > 0 && measure == HES_MEASURE_SMOOTH) {
        fprintf(stderr, "hes trajopt: --psi-smoothing smooths psi's kinks; --measure smooth has "
                "none\n");
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && seen[OPT_INPUTS] && (!spec || spec->n_inputs == 0)) {
        fprintf(stderr, "hes trajopt: --inputs: problem '%s' has no inputs\n", model->name);
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && seen[OPT_REFINE] && refine > 1 && !(spec && spec->n_inputs > 0) &&
        !any_virtual(model, counts)) {
        fprintf(stderr, "hes trajopt: --refine applies only with inputs or virtual events: "
                "problem '%s' has no inputs and --virtual-events gives none\n", model->name);
        rc = CLI_EXIT_USAGE;
    }
    hes_system *sys = rc == CLI_EXIT_OK ? cli_system_setup(model, &params, &rc) : NULL;
    hes_gait start;
    memset(&start, 0, sizeof start);
    char msg[512];
    int have_start = sys && strcmp(init, "default") != 0;
    if (have_start && hes_gait_read(init, model, &start, msg, sizeof msg) != HES_OK) {
        fprintf(stderr, "hes trajopt: --init %s: %s\n", init, msg);
        rc = CLI_EXIT_USAGE;
        hes_system_destroy(sys);
        sys = NULL;
    }
    /* -p over the gait's parameters: the gait is the start, the command
       line the model (a gait continued to another slope, say) */
    for (int i = 0; sys && have_start && i < params.n; i++) {
        int k = cli_assignment_param(model, params.items[i]);
        if (k >= 0 && k < start.n_params)
            start.params[k] = hes_system_params(sys)[k];
    }
    cli_assignments_free(&params);
    if (!sys) {
        free(counts);
        designs_free(&d);
        designs_free(&bounds);
        return rc;
    }
    hes_trajopt_options to;
    hes_trajopt_options_init(&to);
    to.objective = obj;
    to.weight = weight;
    to.measure = measure;
    to.smooth_weight = smooth;
    to.psi_floor = psi_floor;
    to.psi_smoothing = psi_smoothing;
    to.nodes = grids[0];
    to.n_finer = n_grids - 1;
    to.finer_nodes = grids + 1;
    to.maxeval = maxeval[0];
    to.finer_maxeval = maxeval + 1;
    to.virtual_events = counts;
    to.constant_inputs = constant;
    to.n_design = d.n;
    to.design = d.names;
    to.design_lo = d.lo;
    to.design_hi = d.hi;
    to.n_bounds = bounds.n;
    to.bound_states = bounds.names;
    to.bound_lo = bounds.lo;
    to.bound_hi = bounds.hi;
    to.init = have_start ? &start : NULL;
    to.refine = refine;
    to.progress = progress;
    to.progress_ctx = &prog;
    to.solver = solver;
    to.jobs = jobs;
    to.starts = starts;
    to.seed = seed;
    to.start_spread = spread;
    hes_trajopt_result r;
    hes_status st = hes_trajopt_run(sys, &to, &r);
    if (st != HES_OK) {
        rc = cli_report_status(st, sys);
    } else {
        if (out_path && write_gait(out_path, &r.gait, model) != 0)
            rc = CLI_EXIT_FAILURE;
        if (json) {
            int jrc = cli_print_document("hes trajopt", hes_trajopt_json(sys, &r));
            if (rc == CLI_EXIT_OK)
                rc = jrc;
        } else {
            print_text(sys, &r, maxeval);
        }
        if (r.have_shooting && r.unresolved)
            fprintf(stderr, "hes trajopt: warning: psi of the collocation (%.6g) and by shooting "
                    "(%.6g) differ by %.2g relative: the grid does not resolve this gait, and the "
                    "optimiser may have used its discretisation error; use more --nodes%s\n",
                    r.gait.psi, r.psi_shooting, r.psi_difference,
                    r.refined_nodes ? " or a finer --refine" : "");
    }
    hes_trajopt_result_free(&r);
    hes_gait_free(&start);
    free(counts);
    designs_free(&d);
    designs_free(&bounds);
    hes_system_destroy(sys);
    return rc;
}
