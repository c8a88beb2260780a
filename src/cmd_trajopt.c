/*
 * cmd_trajopt.c - `hes trajopt`: the orbit itself as the unknown of a
 * multi-phase direct collocation (lib/collocation.c), with psi in the cost
 * (core paper problem (8)) over design parameters, or only the feasible orbit.
 *
 *   hes trajopt PROBLEM [-p NAME=VALUE]... [--objective stability|feasible]
 *               [--design NAME=LO:HI]... [--nodes N] [--json]
 *
 * This version handles autonomous orbits without inputs (the SLIP hopper);
 * inputs at the nodes, virtual events and the biped gaits come next.  The
 * result is re-analysed by shooting (hes_analyze) and both psi are printed.
 */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

enum { OPT_OBJECTIVE = 256, OPT_DESIGN, OPT_NODES, OPT_JSON };

void cmd_trajopt_usage(FILE *out)
{
    fputs("Usage: hes trajopt PROBLEM [-p NAME=VALUE]... [--objective stability|feasible]\n"
          "                   [--design NAME=LO:HI]... [--nodes N] [--json]\n"
          "Collocate the periodic orbit of PROBLEM (Hermite-Simpson over its event\n"
          "sequence, free phase durations) and minimise psi of the collocated orbit over\n"
          "the design parameters, then re-analyse the result by shooting.\n\n"
          "  -p, --param NAME=VALUE  set a parameter (repeatable)\n"
          "      --objective OBJ     stability (default: minimise psi) or feasible\n"
          "      --design NAME=LO:HI a parameter to optimise within bounds (repeatable;\n"
          "                          default: every shape parameter, its search bounds)\n"
          "      --nodes N           nodes per phase, N >= 3 (21)\n"
          "      --json              print one JSON object instead of text\n"
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

static int parse_design(const char *text, designs *d)
{
    const char *eq = strchr(text, '='), *colon = eq ? strchr(eq + 1, ':') : NULL;
    char lo[64], hi[64];
    if (!eq || !colon || eq == text || (size_t)(eq - text) >= sizeof d->store[0] ||
        (size_t)(colon - eq - 1) >= sizeof lo || strlen(colon + 1) >= sizeof hi || d->n >= MAX_DESIGN) {
        fprintf(stderr, "hes trajopt: --design needs NAME=LO:HI, got '%s'\n", text);
        return -1;
    }
    memcpy(d->store[d->n], text, (size_t)(eq - text));
    d->store[d->n][eq - text] = '\0';
    memcpy(lo, eq + 1, (size_t)(colon - eq - 1));
    lo[colon - eq - 1] = '\0';
    strcpy(hi, colon + 1);
    if (cli_parse_double(lo, &d->lo[d->n]) || cli_parse_double(hi, &d->hi[d->n]) ||
        !(d->lo[d->n] < d->hi[d->n])) {
        fprintf(stderr, "hes trajopt: --design %s: bounds must be numbers with LO < HI\n", text);
        return -1;
    }
    d->names[d->n] = d->store[d->n];
    d->n++;
    return 0;
}

static void print_result(const hes_system *sys, const hes_colloc *c, const double *z, int nodes,
                         int stability,
                         const designs *d, double psi_c, double psi_s, double viol, int evals,
                         double secs, int json)
{
    const hes_model *m = hes_system_model(sys);
    const hes_orbit_spec *o = &m->orbit;
    double v;
    if (json) {
        json_t *doc = json_object(), *params = json_object(), *des = json_object(),
               *phases = json_array();
        for (int i = 0; i < m->n_params; i++)
            json_object_set_new(params, m->params[i].name, json_real(hes_system_params(sys)[i]));
        for (int j = 0; j < d->n; j++) {
            hes_system_get_param(sys, d->names[j], &v);
            json_object_set_new(des, d->names[j], json_real(v));
        }
        for (int i = 0; i < o->n_sequence; i++) {
            const hes_transition *t = &m->transitions[o->sequence[i]];
            json_array_append_new(phases, json_pack("{s:s, s:f, s:s}", "mode", m->modes[t->from].name,
                                                    "duration", hes_colloc_duration(c, z, i),
                                                    "ends_with", t->name));
        }
        json_object_set_new(doc, "problem", json_string(m->name));
        json_object_set_new(doc, "params", params);
        json_object_set_new(doc, "objective", json_string(stability ? "stability" : "feasible"));
        json_object_set_new(doc, "nodes", json_integer(nodes));
        json_object_set_new(doc, "design", des);
        json_object_set_new(doc, "phases", phases);
        json_object_set_new(doc, "psi_collocation", json_real(psi_c));
        json_object_set_new(doc, "psi_shooting", isfinite(psi_s) ? json_real(psi_s) : json_null());
        json_object_set_new(doc, "constraint_violation", json_real(viol));
        json_object_set_new(doc, "evaluations", json_integer(evals));
        json_object_set_new(doc, "seconds", json_real(secs));
        char *text = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
        if (text)
            puts(text);
        free(text);
        json_decref(doc);
        return;
    }
    printf("problem: %s\n", m->name);
    printf("collocation: Hermite-Simpson, %d nodes per phase, %d variables, %d constraints, "
           "violation %.2e\n", nodes, hes_colloc_nvars(c), hes_colloc_ncons(c), viol);
    printf("phases:\n");
    for (int i = 0; i < o->n_sequence; i++) {
        const hes_transition *t = &m->transitions[o->sequence[i]];
        printf("  %-12s %.10f s, ends with %s\n", m->modes[t->from].name,
               hes_colloc_duration(c, z, i), t->name);
    }
    for (int i = 0; i < o->n_free_params; i++) {
        hes_system_get_param(sys, o->free_params[i], &v);
        printf("solved  %-10s = %.12g\n", o->free_params[i], v);
    }
    for (int j = 0; j < d->n; j++) {
        hes_system_get_param(sys, d->names[j], &v);
        printf("design  %-10s = %.12g  in [%g, %g]\n", d->names[j], v, d->lo[j], d->hi[j]);
    }
    printf("psi of the collocated orbit: %.12g%s\n", psi_c,
           stability ? "" : " (not optimised: --objective feasible)");
    if (isfinite(psi_s))
        printf("psi by shooting (re-analysis): %.12g, relative difference %.2e\n", psi_s,
               fabs(psi_s - psi_c) / psi_s);
    if (stability)
        printf("%d evaluations of psi, %.3f s\n", evals, secs);
    printf("%s: psi = %.6g %s 1\n", psi_c < 1 ? "stable" : "unstable", psi_c, psi_c < 1 ? "<" : ">=");
}

int cmd_trajopt(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"param", required_argument, NULL, 'p'},
        {"objective", required_argument, NULL, OPT_OBJECTIVE},
        {"design", required_argument, NULL, OPT_DESIGN},
        {"nodes", required_argument, NULL, OPT_NODES},
        {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    cli_assignments params;
    designs d;
    int c, json = 0, nodes = 21, stability = 1, rc = CLI_EXIT_OK;
    memset(&d, 0, sizeof d);
    cli_assignments_init(&params);
    while ((c = getopt_long(argc, argv, "p:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'p':
            if (cli_assignments_add(&params, optarg))
                rc = CLI_EXIT_FAILURE;
            break;
        case OPT_OBJECTIVE:
            if (strcmp(optarg, "stability") == 0)
                stability = 1;
            else if (strcmp(optarg, "feasible") == 0)
                stability = 0;
            else {
                fprintf(stderr, "hes trajopt: --objective is stability or feasible (energy and "
                        "weighted need inputs, not supported yet), got '%s'\n", optarg);
                rc = CLI_EXIT_USAGE;
            }
            break;
        case OPT_DESIGN:
            if (parse_design(optarg, &d))
                rc = CLI_EXIT_USAGE;
            break;
        case OPT_NODES:
            if (cli_parse_int(optarg, &nodes) || nodes < 3) {
                fprintf(stderr, "hes trajopt: --nodes must be an integer >= 3, got '%s'\n", optarg);
                rc = CLI_EXIT_USAGE;
            }
            break;
        case OPT_JSON:
            json = 1;
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
    hes_system *sys = rc == CLI_EXIT_OK ? cli_system_setup(model, &params, &rc) : NULL;
    cli_assignments_free(&params);
    if (!sys)
        return rc;
    if (d.n == 0 && stability) /* default: the shape parameters within their search bounds */
        for (int i = 0; i < model->n_params && d.n < MAX_DESIGN; i++) {
            const hes_param *pp = &model->params[i];
            if ((pp->flags & HES_PARAM_SHAPE) && (pp->search_lo != 0 || pp->search_hi != 0)) {
                d.names[d.n] = pp->name;
                d.lo[d.n] = pp->search_lo;
                d.hi[d.n] = pp->search_hi;
                d.n++;
            }
        }
    hes_colloc *col = NULL;
    double *z = NULL, viol = NAN, psi_c = NAN, psi_s = NAN, t0 = seconds_now(), secs;
    int evals = 0;
    hes_status st = hes_colloc_create(sys, nodes, &col);
    if (st == HES_OK)
        st = hes_colloc_set_design(col, d.n, d.names, d.lo, d.hi);
    if (st == HES_OK && !(z = malloc(sizeof(double) * (size_t)hes_colloc_nvars(col))))
        st = HES_ENOMEM;
    if (st == HES_OK)
        st = hes_colloc_guess(col, z);
    if (st == HES_OK)
        st = hes_colloc_solve(col, z, 1e-10, &viol);
    if (st == HES_OK && stability)
        st = hes_colloc_optimize(col, z, 1e-10, &psi_c, &viol, &evals);
    else if (st == HES_OK)
        st = hes_colloc_psi(col, z, &psi_c, NULL, NULL);
    secs = seconds_now() - t0;
    if (st != HES_OK) {
        rc = cli_report_status(st, sys);
    } else {
        hes_analysis res;
        if (hes_analyze(sys, 0, &res) == HES_OK) {
            psi_s = res.stab.psi;
            hes_analysis_free(&res);
        }
        print_result(sys, col, z, nodes, stability, &d, psi_c, psi_s, viol, evals, secs, json);
    }
    free(z);
    hes_colloc_destroy(col);
    hes_system_destroy(sys);
    return rc;
}
