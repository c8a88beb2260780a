/*
 * cmd_trajopt.c - `hes trajopt`: the orbit itself as the unknown of a
 * multi-phase direct collocation (lib/shaping/collocation.c) with the model's inputs
 * at the nodes, virtual events, and psi and/or the input energy in the cost
 * (core paper problem (8)); the gait is written as a gait file (-o) and
 * re-analysed independently by shooting through its derived model
 * (lib/shaping/gait.c), and both psi are printed.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"

enum { OPT_OBJECTIVE = 256, OPT_DESIGN, OPT_NODES, OPT_JSON, OPT_WEIGHT, OPT_VIRTUAL,
       OPT_INIT, OPT_INPUTS, OPT_MAXEVAL, OPT_QUIET, OPT_BOUND, OPT_SMOOTH, OPT_MEASURE,
       OPT_REFINE, OPT_PSI_FLOOR };

void cmd_trajopt_usage(FILE *out)
{
    fputs("Usage: hes trajopt PROBLEM [-p NAME=VALUE]... [--objective OBJ] [--weight W]\n"
          "                   [--virtual-events SPEC] [--inputs linear|constant]\n"
          "                   [--design NAME=LO:HI]... [--nodes N] [--init FILE|default]\n"
          "                   [--maxeval N] [--quiet] [--json] [-o FILE]\n"
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
          "      --nodes N           nodes per phase, N >= 3 (21); virtual sub-phases\n"
          "                          share them\n"
          "      --init FILE|default start from a gait file (resampled) or from a\n"
          "                          simulation of the model's orbit guess (default)\n"
          "      --maxeval N         evaluations of the cost, 1 <= N <= " STR(CLI_MAX_EVALS) " (1000)\n"
          "      --refine K          with inputs or virtual events the result is\n"
          "                          re-collocated with K times as many intervals and its\n"
          "                          inputs held (the gait written and its psi); K = 1\n"
          "                          skips that (2)\n"
          "      --quiet             no progress lines on stderr\n"
          "      --json              print one JSON object instead of text\n"
          "  -o, --output FILE       write the gait (JSON) for 'hes analyze --orbit FILE'\n"
          "                          and 'hes simulate --orbit FILE'\n"
          "  -h, --help              show this help\n", out);
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#define MAX_DESIGN HES_COLLOC_MAX_DESIGN

typedef struct {
    int n;
    const char *names[MAX_DESIGN];
    char store[MAX_DESIGN][64];
    double lo[MAX_DESIGN], hi[MAX_DESIGN];
} designs;

/* NAME=LO:HI of `option` (--design or --bound) into d. */
static int parse_design(const char *option, const char *text, designs *d)
{
    const char *eq = strchr(text, '='), *colon = eq ? strchr(eq + 1, ':') : NULL;
    char lo[64], hi[64];
    if (d->n >= MAX_DESIGN) {
        fprintf(stderr, "hes trajopt: %s: at most %d of them\n", option, MAX_DESIGN);
        return -1;
    }
    if (!eq || !colon || eq == text || (size_t)(eq - text) >= sizeof d->store[0] ||
        (size_t)(colon - eq - 1) >= sizeof lo || strlen(colon + 1) >= sizeof hi) {
        fprintf(stderr, "hes trajopt: %s needs NAME=LO:HI, got '%s'\n", option, text);
        return -1;
    }
    memcpy(d->store[d->n], text, (size_t)(eq - text));
    d->store[d->n][eq - text] = '\0';
    for (int j = 0; j < d->n; j++)
        if (strcmp(d->store[j], d->store[d->n]) == 0) {
            fprintf(stderr, "hes trajopt: %s %s given twice (one pair of bounds each)\n", option,
                    d->store[j]);
            return -1;
        }
    memcpy(lo, eq + 1, (size_t)(colon - eq - 1));
    lo[colon - eq - 1] = '\0';
    strcpy(hi, colon + 1);
    if (cli_parse_double(lo, &d->lo[d->n]) || cli_parse_double(hi, &d->hi[d->n]) ||
        !(d->lo[d->n] <= d->hi[d->n])) {
        fprintf(stderr, "hes trajopt: %s %s: bounds must be finite numbers with LO <= HI\n",
                option, text);
        return -1;
    }
    d->names[d->n] = d->store[d->n];
    d->n++;
    return 0;
}

static const char *const objective_names[] = { "feasible", "energy", "stability", "weighted" };

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

static int parse_virtual(const char *text, const hes_model *m, int *counts)
{
    const hes_orbit_spec *o = &m->orbit;
    if (strcmp(text, "none") == 0) {
        memset(counts, 0, sizeof(int) * (size_t)o->n_sequence);
        return 0;
    }
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

typedef struct {
    double psi_c, psi_s, energy, viol, secs, period;
    hes_verdict verdict;         /* of the shooting analysis (have_shoot) */
    double psi_tol;
    double psi_fine;             /* psi of the refined collocation (refined_nodes > 0) */
    double P[64 * 64];           /* the collocation's return map (final grid), n x n */
    int n;
    double map_diff;             /* max |P - P_shooting| / max |P_shooting| */
    int refined_nodes;
    int evals, fallbacks, have_shoot;
    hes_status shoot_status;
    char shoot_msg[512];
} outcome;

/* The independent check: the gait as a model of its own, its orbit found
 * again by shooting and its multipliers from CVODES sensitivities. */
static void reanalyse(const hes_gait *g, const hes_model *base, outcome *r)
{
    hes_model *dm = NULL;
    hes_system *sys = NULL;
    hes_analysis res;
    r->have_shoot = 0;
    r->shoot_status = hes_gait_model(g, base, &dm, r->shoot_msg, sizeof r->shoot_msg);
    if (r->shoot_status == HES_OK)
        r->shoot_status = hes_system_new(dm, &sys, r->shoot_msg, sizeof r->shoot_msg);
    if (r->shoot_status == HES_OK) {
        r->shoot_status = hes_analyze(sys, 0, &res);
        if (r->shoot_status == HES_OK) {
            r->psi_s = res.stab.psi;
            r->verdict = res.stab.verdict;
            r->psi_tol = res.stab.psi_tol;
            r->have_shoot = 1;
            double num = 0, den = 0;
            for (int k = 0; res.mono.proj && k < r->n * r->n; k++) {
                num = fmax(num, fabs(r->P[k] - res.mono.proj[k]));
                den = fmax(den, fabs(res.mono.proj[k]));
            }
            r->map_diff = den > 0 && res.mono.n == r->n ? num / den : NAN;
            hes_analysis_free(&res);
        } else {
            snprintf(r->shoot_msg, sizeof r->shoot_msg, "%s", hes_system_errmsg(sys));
        }
    }
    hes_system_destroy(sys);
    hes_gait_model_free(dm);
}

static void print_result(const hes_system *sys, const hes_gait *g, const designs *d,
                         hes_colloc_objective obj, double weight, int nodes, const hes_colloc *c,
                         const outcome *r, int json)
{
    const hes_model *m = hes_system_model(sys);
    const hes_orbit_spec *o = &m->orbit;
    double v;
    if (json) {
        json_t *doc = json_object(), *params = json_object(), *des = json_object(),
               *phases = json_array();
        for (int i = 0; i < m->n_params; i++)
            json_object_set_new(params, m->params[i].name, json_real(g->params[i]));
        for (int j = 0; j < d->n; j++) {
            hes_system_get_param(sys, d->names[j], &v);
            json_object_set_new(des, d->names[j], json_real(v));
        }
        for (int i = 0; i < g->n_phases; i++) {
            const hes_gait_phase *ph = &g->phases[i];
            json_t *pj = json_pack("{s:s, s:f, s:s, s:b}", "mode", m->modes[ph->mode].name,
                                   "duration", ph->duration, "ends_with",
                                   m->transitions[ph->transition].name, "virtual", ph->is_virtual);
            if (ph->is_virtual)
                json_object_set_new(pj, "offset", json_real(ph->offset));
            json_array_append_new(phases, pj);
        }
        json_object_set_new(doc, "problem", json_string(m->name));
        json_object_set_new(doc, "params", params);
        json_object_set_new(doc, "objective", json_string(objective_names[obj]));
        if (obj == HES_COLLOC_WEIGHTED)
            json_object_set_new(doc, "weight", json_real(weight));
        json_object_set_new(doc, "nodes", json_integer(nodes));
        json_object_set_new(doc, "variables", json_integer(hes_colloc_nvars(c)));
        json_object_set_new(doc, "constraints", json_integer(hes_colloc_ncons(c)));
        json_object_set_new(doc, "path_constraints", json_integer(hes_colloc_nineq(c)));
        json_object_set_new(doc, "design", des);
        json_object_set_new(doc, "phases", phases);
        json_object_set_new(doc, "period", json_real(r->period));
        json_object_set_new(doc, "energy", isfinite(r->energy) ? json_real(r->energy) : json_null());
        json_object_set_new(doc, "psi_collocation", json_real(r->psi_c));
        json_object_set_new(doc, "psi_shooting", r->have_shoot ? json_real(r->psi_s) : json_null());
        json_object_set_new(doc, "verdict", r->have_shoot ? json_string(hes_verdict_name(r->verdict))
                                                          : json_null());
        json_object_set_new(doc, "refined_nodes", json_integer(r->refined_nodes));
        json_object_set_new(doc, "return_map_difference",
                            r->have_shoot && isfinite(r->map_diff) ? json_real(r->map_diff) : json_null());
        json_object_set_new(doc, "psi_refined", r->refined_nodes ? json_real(r->psi_fine) : json_null());
        json_object_set_new(doc, "constraint_violation", json_real(r->viol));
        json_object_set_new(doc, "evaluations", json_integer(r->evals));
        json_object_set_new(doc, "seconds", json_real(r->secs));
        char *text = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
        if (text)
            puts(text);
        free(text);
        json_decref(doc);
        return;
    }
    printf("problem: %s\n", m->name);
    printf("collocation: Hermite-Simpson, %d nodes per phase, %d variables, %d equality and "
           "%d path constraints, violation %.2e\n", nodes, hes_colloc_nvars(c),
           hes_colloc_ncons(c), hes_colloc_nineq(c), r->viol);
    printf("objective: %s", objective_names[obj]);
    if (obj == HES_COLLOC_WEIGHTED)
        printf(" (psi + %g * energy)", weight);
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
    for (int j = 0; j < d->n; j++) {
        hes_system_get_param(sys, d->names[j], &v);
        printf("design  %-10s = %.12g  in [%g, %g]\n", d->names[j], v, d->lo[j], d->hi[j]);
    }
    if (g->n_inputs > 0)
        printf("energy (integral of the squared inputs): %.10g\n", r->energy);
    printf("psi of the collocated orbit: %.12g%s\n", r->psi_c,
           obj == HES_COLLOC_FEASIBLE ? " (not optimised: --objective feasible)" : "");
    if (r->refined_nodes)
        printf("psi re-collocated on %d nodes per phase with the inputs held: %.12g\n",
               r->refined_nodes, r->psi_fine);
    if (r->have_shoot)
        printf("psi by shooting (re-analysis of the gait): %.12g, relative difference %.2e\n",
               r->psi_s, fabs(r->psi_s - (r->refined_nodes ? r->psi_fine : r->psi_c)) / r->psi_s);
    else
        printf("re-analysis by shooting failed: %s\n", r->shoot_msg);
    if (r->have_shoot)
        printf("return map: collocation vs shooting, max |difference| %.2e of its largest entry\n",
               r->map_diff);
    printf("%d evaluations of the cost, %.3f s\n", r->evals, r->secs);
    double psi = r->have_shoot ? r->psi_s : r->refined_nodes ? r->psi_fine : r->psi_c;
    if (r->have_shoot) {
        hes_stability v = { .psi = psi, .psi_tol = r->psi_tol, .verdict = r->verdict };
        cli_print_verdict(&v);
    } else {
        printf("%s: psi = %.6g %s 1 (collocation only: the shooting re-analysis failed)\n",
               psi < 1 ? "stable" : "unstable", psi, psi < 1 ? "<" : ">=");
    }
}

static int has_virtual(const hes_model *m, const int *counts)
{
    for (int i = 0; i < m->orbit.n_sequence; i++)
        if (counts[i] > 0)
            return 1;
    return 0;
}

/* The optimised gait re-collocated on a grid `factor` times as fine with its
 * inputs and virtual offsets held: the same gait, its states and psi more
 * accurate (the optimiser may have used the coarse grid's discretisation
 * error: the fine psi is the honest one).  Replaces the gait. */
static hes_status refine_gait(hes_system *sys, const hes_colloc_options *co, const designs *d,
                              int factor, hes_gait *gait, outcome *r)
{
    hes_colloc_options fine = *co;
    hes_colloc *c = NULL;
    double *z = NULL, viol;
    hes_gait g;
    fine.refine = factor;
    fine.fix_inputs = 1;
    fine.progress = NULL;
    /* held inputs determine the orbit: the bounds on its first state and the
     * path constraints would over-determine it */
    fine.x0_lo = fine.x0_hi = NULL;
    fine.path = 0;
    hes_status st = hes_colloc_create_opts(sys, &fine, &c);
    if (st == HES_OK)
        st = hes_colloc_set_design(c, d->n, d->names, d->lo, d->hi);
    if (st == HES_OK && !(z = malloc(sizeof(double) * (size_t)hes_colloc_nvars(c))))
        st = HES_ENOMEM;
    if (st == HES_OK)
        st = hes_colloc_from_gait(c, gait, z);
    if (st == HES_OK)
        st = hes_colloc_solve(c, z, 1e-10, &viol);
    if (st == HES_OK)
        st = hes_colloc_psi(c, z, &r->psi_fine, NULL, NULL);
    if (st == HES_OK)
        st = hes_colloc_return_map(c, z, r->P);
    if (st == HES_OK)
        st = hes_colloc_gait(c, z, &g);
    if (st == HES_OK) {
        r->refined_nodes = factor * (co->nodes - 1) + 1;
        r->energy = g.energy;
        r->viol = viol;
        hes_gait_free(gait);
        *gait = g;
    }
    free(z);
    hes_colloc_destroy(c);
    return st;
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
        if (hes_gait_write(gait, model, f) != 0 || fflush(f) != 0)
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
        {"objective", required_argument, NULL, OPT_OBJECTIVE},
        {"weight", required_argument, NULL, OPT_WEIGHT},
        {"smooth", required_argument, NULL, OPT_SMOOTH},
        {"measure", required_argument, NULL, OPT_MEASURE},
        {"refine", required_argument, NULL, OPT_REFINE},
        {"psi-floor", required_argument, NULL, OPT_PSI_FLOOR},
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
    int c, json = 0, nodes = 21, constant = 0, maxeval = 1000, refine = 2, rc = CLI_EXIT_OK;
    unsigned char seen[CLI_OPTION_CODES] = {0};
    hes_colloc_objective obj = HES_COLLOC_STABILITY;
    double weight = 1.0, smooth = 1e-3, psi_floor = 0.0;
    hes_measure measure = HES_MEASURE_PSI;
    memset(&d, 0, sizeof d);
    memset(&bounds, 0, sizeof bounds);
    cli_assignments_init(&params);
    optind = 1;
    while (rc == CLI_EXIT_OK && (c = getopt_long(argc, argv, "p:o:h", longopts, NULL)) != -1) {
        if (c != 'p' && c != 'h' && c != '?' && c != OPT_DESIGN && c != OPT_BOUND &&
            c != OPT_QUIET && c != OPT_JSON && (rc = cli_once(argv[0], longopts, c, seen)) != 0)
            break;
        switch (c) {
        case 'p':
            if (cli_assignments_add(&params, optarg))
                rc = CLI_EXIT_FAILURE;
            break;
        case OPT_OBJECTIVE: {
            int found = 0;
            for (int k = 0; k < 4; k++)
                if (strcmp(optarg, objective_names[k]) == 0) {
                    obj = (hes_colloc_objective)k;
                    found = 1;
                }
            if (!found) {
                fprintf(stderr, "hes trajopt: --objective is energy, stability, weighted or "
                        "feasible, got '%s'\n", optarg);
                rc = CLI_EXIT_USAGE;
            }
            break;
        }
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
            if (strcmp(optarg, "psi") == 0 || strcmp(optarg, "smooth") == 0) {
                measure = optarg[0] == 'p' ? HES_MEASURE_PSI : HES_MEASURE_SMOOTH;
            } else {
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
            if (cli_parse_int(optarg, &nodes) || nodes < 3 || nodes > 1000) {
                fprintf(stderr, "hes trajopt: --nodes must be an integer from 3 to 1000, got '%s'\n",
                        optarg);
                rc = CLI_EXIT_USAGE;
            }
            break;
        case OPT_INIT:
            init = optarg;
            break;
        case OPT_MAXEVAL:
            if (cli_parse_int(optarg, &maxeval) || maxeval < 1 || maxeval > CLI_MAX_EVALS) {
                fprintf(stderr, "hes trajopt: --maxeval must be an integer from 1 to %d, got '%s'\n",
                        CLI_MAX_EVALS, optarg);
                rc = CLI_EXIT_USAGE;
            }
            break;
        case OPT_QUIET:
            prog.quiet = 1;
            break;
        case OPT_REFINE:
            if (cli_parse_int(optarg, &refine) || refine < 1 || refine > 16) {
                fprintf(stderr, "hes trajopt: --refine must be an integer from 1 to 16, got '%s'\n",
                        optarg);
                rc = CLI_EXIT_USAGE;
            }
            break;
        case OPT_PSI_FLOOR:
            if (cli_parse_double(optarg, &psi_floor) || !(psi_floor >= 0)) {
                fprintf(stderr, "hes trajopt: --psi-floor must be a number >= 0, got '%s'\n", optarg);
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
            return CLI_EXIT_OK;
        default:
            cmd_trajopt_usage(stderr);
            cli_assignments_free(&params);
            return CLI_EXIT_USAGE;
        }
    }
    if (rc == CLI_EXIT_OK && argc - optind != 1) {
        fprintf(stderr, "hes trajopt: expected exactly one PROBLEM\n");
        cmd_trajopt_usage(stderr);
        rc = CLI_EXIT_USAGE;
    }
    const hes_model *model = rc == CLI_EXIT_OK ? cli_find_problem(argv[optind]) : NULL;
    if (rc == CLI_EXIT_OK && !model)
        rc = CLI_EXIT_USAGE;
    int counts[64] = { 0 };
    if (rc == CLI_EXIT_OK && (model->orbit.n_sequence > 64 || !model->orbit.guess)) {
        fprintf(stderr, "hes trajopt: problem '%s' has no orbit to collocate\n", model->name);
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && model->modes[model->orbit.mode].dim > 64) {
        fprintf(stderr, "hes trajopt: the orbit of '%s' starts in a mode of %d states; "
                "trajopt handles at most 64\n", model->name, model->modes[model->orbit.mode].dim);
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && parse_virtual(virtual_spec, model, counts))
        rc = CLI_EXIT_USAGE;
    const hes_trajopt_spec *spec = model ? model->trajopt : NULL;
    if (rc == CLI_EXIT_OK && (obj == HES_COLLOC_ENERGY || obj == HES_COLLOC_WEIGHTED) &&
        (!spec || spec->n_inputs == 0)) {
        fprintf(stderr, "hes trajopt: problem '%s' has no inputs, so no energy cost\n", model->name);
        rc = CLI_EXIT_USAGE;
    }
    /* options that would be ignored */
    int psi_objective = obj == HES_COLLOC_STABILITY || obj == HES_COLLOC_WEIGHTED;
    const char *ignored = NULL;
    if (seen[OPT_WEIGHT] && obj != HES_COLLOC_WEIGHTED)
        ignored = "--weight";
    else if (seen[OPT_MEASURE] && !psi_objective)
        ignored = "--measure";
    else if (seen[OPT_PSI_FLOOR] && !psi_objective)
        ignored = "--psi-floor";
    else if (seen[OPT_SMOOTH] && !psi_objective)
        ignored = "--smooth";
    if (rc == CLI_EXIT_OK && ignored) {
        fprintf(stderr, "hes trajopt: %s does not apply to --objective %s (only to %s)\n", ignored,
                objective_names[obj], strcmp(ignored, "--weight") == 0 ? "weighted"
                                                                      : "stability and weighted");
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && seen[OPT_INPUTS] && (!spec || spec->n_inputs == 0)) {
        fprintf(stderr, "hes trajopt: --inputs: problem '%s' has no inputs\n", model->name);
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && seen[OPT_REFINE] && refine > 1 && !(spec && spec->n_inputs > 0) &&
        !has_virtual(model, counts)) {
        fprintf(stderr, "hes trajopt: --refine applies only with inputs or virtual events: "
                "problem '%s' has no inputs and --virtual-events gives none\n", model->name);
        rc = CLI_EXIT_USAGE;
    }
    hes_system *sys = rc == CLI_EXIT_OK ? cli_system_setup(model, &params, &rc) : NULL;
    cli_assignments_free(&params);
    if (!sys)
        return rc;
    int uses_psi = obj == HES_COLLOC_STABILITY || obj == HES_COLLOC_WEIGHTED;
    if (d.n == 0 && uses_psi && !(spec && spec->n_inputs > 0))
        for (int i = 0; i < model->n_params && d.n < MAX_DESIGN; i++) {
            const hes_param *pp = &model->params[i];
            if ((pp->flags & HES_PARAM_SHAPE) && (pp->search_lo != 0 || pp->search_hi != 0)) {
                d.names[d.n] = pp->name;
                d.lo[d.n] = pp->search_lo;
                d.hi[d.n] = pp->search_hi;
                d.n++;
            }
        }
    hes_colloc_options co = hes_colloc_options_default();
    co.nodes = nodes;
    co.virtual_events = counts;
    co.constant_inputs = constant;
    co.smooth_weight = smooth;
    co.psi_floor = psi_floor;
    co.measure = measure;
    co.progress = progress;
    co.progress_ctx = &prog;
    if (spec) {
        co.n_inputs = spec->n_inputs;
        co.inputs = spec->inputs;
        co.input_lo = spec->input_lo;
        co.input_hi = spec->input_hi;
        co.x0_lo = spec->x0_lo;
        co.x0_hi = spec->x0_hi;
        co.min_duration = spec->min_duration;
        co.max_duration = spec->max_duration;
        co.path = 1;
    }
    double x0_lo[64], x0_hi[64];
    const hes_mode *m0 = &model->modes[model->orbit.mode];
    if (bounds.n > 0) {
        if (m0->dim > 64 || !m0->state_names) {
            fprintf(stderr, "hes trajopt: --bound needs named states (at most 64)\n");
            hes_system_destroy(sys);
            return CLI_EXIT_USAGE;
        }
        for (int r = 0; r < m0->dim; r++) {
            x0_lo[r] = co.x0_lo ? co.x0_lo[r] : -HUGE_VAL;
            x0_hi[r] = co.x0_hi ? co.x0_hi[r] : HUGE_VAL;
        }
        for (int j = 0; j < bounds.n; j++) {
            int r = 0;
            while (r < m0->dim && strcmp(m0->state_names[r], bounds.names[j]) != 0)
                r++;
            if (r == m0->dim) {
                fprintf(stderr, "hes trajopt: --bound: mode '%s' has no state '%s'\n", m0->name,
                        bounds.names[j]);
                hes_system_destroy(sys);
                return CLI_EXIT_USAGE;
            }
            x0_lo[r] = bounds.lo[j];
            x0_hi[r] = bounds.hi[j];
        }
        co.x0_lo = x0_lo;
        co.x0_hi = x0_hi;
    }
    hes_colloc *col = NULL;
    hes_gait gait, start;
    memset(&gait, 0, sizeof gait);
    memset(&start, 0, sizeof start);
    double *z = NULL, t0 = seconds_now();
    outcome r;
    memset(&r, 0, sizeof r);
    r.psi_s = NAN;
    char msg[512];
    hes_colloc_result res;
    hes_status st = hes_colloc_create_opts(sys, &co, &col);
    if (st == HES_OK)
        st = hes_colloc_set_design(col, d.n, d.names, d.lo, d.hi);
    if (st == HES_OK && !(z = malloc(sizeof(double) * (size_t)hes_colloc_nvars(col))))
        st = HES_ENOMEM;
    if (st == HES_OK && strcmp(init, "default") != 0) {
        if (hes_gait_read(init, model, &start, msg, sizeof msg) != 0) {
            fprintf(stderr, "hes trajopt: --init %s: %s\n", init, msg);
            rc = CLI_EXIT_USAGE;
            goto done;
        }
        st = hes_colloc_from_gait(col, &start, z);
    } else if (st == HES_OK) {
        st = hes_colloc_guess(col, z);
    }
    if (st == HES_OK) /* a feasible start first */
        st = hes_colloc_solve(col, z, 1e-9, &r.viol);
    if (st == HES_OK)
        st = hes_colloc_minimize(col, z, obj, weight, 1e-9, maxeval, &res);
    if (st == HES_OK) {
        r.psi_c = res.psi;
        r.energy = res.energy;
        r.viol = res.violation;
        r.evals = res.evaluations;
        r.fallbacks = res.fallbacks;
        st = hes_colloc_gait(col, z, &gait);
    }
    if (st == HES_OK) {
        r.n = model->modes[model->orbit.mode].dim;
        if (r.n > 64)
            st = HES_EINVAL;
        else
            st = hes_colloc_return_map(col, z, r.P);
    }
    if (st == HES_OK && refine > 1 && (co.n_inputs > 0 || has_virtual(model, counts)))
        st = refine_gait(sys, &co, &d, refine, &gait, &r);
    r.secs = seconds_now() - t0;
    if (st != HES_OK) {
        rc = cli_report_status(st, sys);
        goto done;
    }
    gait.objective = strdup(objective_names[obj]);
    gait.psi = r.refined_nodes ? r.psi_fine : r.psi_c;
    for (int i = 0; i < gait.n_phases; i++)
        r.period += gait.phases[i].duration;
    if (!spec || spec->n_inputs == 0)
        r.energy = NAN;
    reanalyse(&gait, model, &r);
    if (out_path && write_gait(out_path, &gait, model) != 0)
        rc = CLI_EXIT_FAILURE;
    print_result(sys, &gait, &d, obj, weight, nodes, col, &r, json);
done:
    hes_gait_free(&gait);
    hes_gait_free(&start);
    free(z);
    hes_colloc_destroy(col);
    hes_system_destroy(sys);
    return rc;
}
