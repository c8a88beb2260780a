/*
 * bench_trajopt.c - collocation with psi in the cost on the SLIP hopper
 * (run by `make bench`): wall time, evaluations of the cost and the psi
 * reached, from the unstable zero-shape orbit, at 11, 21, 41 and 81 nodes
 * per phase with IPOPT (sparse), up to 41 with SLSQP (dense) and in the
 * reduced space, each also with psi's kinks smoothed
 * (hes_colloc_options.psi_smoothing 0.05), the exponent of time against
 * nodes fitted by least squares, and the machine's core count (the
 * computation itself is serial).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "hes.h"

/* A system of model m, or NULL (an invalid model, no memory). */
static hes_system *test_system_of(const hes_model *m)
{
    hes_system *sys;
    return hes_system_new(m, &sys, NULL) == HES_OK ? sys : NULL;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct {
    double seconds, psi, psi_shooting;
    int evaluations, variables;
} run_result;

/* One SLIP psi program at `nodes` per phase with `solver`; 0 or 1. */
static int run(int nodes, hes_nlp_solver solver, double smoothing, run_result *r)
{
    const char *names[] = { "K", "thetadot" };
    const double lo[] = { -0.2, -3.0 }, hi[] = { 0.6, 1.0 };
    hes_system *sys = test_system_of(hes_problem_find("slip-hopper"));
    hes_colloc_options o;
    hes_colloc_options_init(&o);
    o.nodes = nodes;
    o.solver = solver;
    o.psi_smoothing = smoothing;
    hes_colloc *c;
    double t0 = now(), viol;
    r->psi = r->psi_shooting = NAN;
    r->evaluations = 0;
    if (!sys || hes_colloc_new(sys, &o, &c) != HES_OK ||
        hes_colloc_set_design(c, 2, names, lo, hi) != HES_OK)
        return 1;
    double *z = malloc(sizeof(double) * (size_t)hes_colloc_nvars(c));
    if (!z || hes_colloc_guess(c, z) != HES_OK || hes_colloc_solve(c, z, 1e-10, &viol) != HES_OK ||
        hes_colloc_optimize(c, z, 1e-10, &r->psi, &viol, &r->evaluations) != HES_OK) {
        fprintf(stderr, "bench: %s\n", hes_system_errmsg(sys));
        return 1;
    }
    r->seconds = now() - t0;
    r->variables = hes_colloc_nvars(c);
    hes_analysis res;
    if (hes_analyze(sys, 0, &res) == HES_OK) {
        r->psi_shooting = res.stab.psi;
        hes_analysis_free(&res);
    }
    free(z);
    hes_colloc_destroy(c);
    hes_system_destroy(sys);
    return 0;
}

int main(void)
{
    const int nodes[] = { 11, 21, 41, 81 };
    const hes_nlp_solver solvers[] = { HES_NLP_IPOPT, HES_NLP_IPOPT, HES_NLP_SLSQP, HES_NLP_SLSQP,
                                       HES_NLP_REDUCED, HES_NLP_REDUCED };
    const double smoothing[] = { 0, 0.05, 0, 0.05, 0, 0.05 };
    printf("SLIP hopper trajopt, psi in the cost, from K = thetadot = 0 (psi 2.006), budget 1000\n"
           "evaluations of the cost; %ld cores online (the computation is serial).  SLSQP\n"
           "(dense) stops at 41 nodes: its steps cost O(variables^3).  smooth: psi's kinks\n"
           "smoothed in the first rounds (--psi-smoothing).\n\n",
           sysconf(_SC_NPROCESSORS_ONLN));
    printf("%-7s %6s %6s %9s %9s %8s %14s %14s\n", "solver", "smooth", "nodes", "variables",
           "seconds", "evals", "psi", "psi shooting");
    for (int s = 0; s < 6; s++) {
        if (!hes_nlp_solver_available(solvers[s])) {
            printf("%-7s skipped: this build has no %s (install coinor-libipopt-dev and "
                   "re-run configure)\n", hes_nlp_solver_name(solvers[s]),
                   hes_nlp_solver_name(solvers[s]));
            continue;
        }
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        int k = 0;
        for (int i = 0; i < 4; i++) {
            if (solvers[s] != HES_NLP_IPOPT && nodes[i] > 41)
                break;
            run_result r;
            if (run(nodes[i], solvers[s], smoothing[s], &r) != 0)
                return 1;
            printf("%-7s %6g %6d %9d %9.3f %8d %14.9f %14.9f\n", hes_nlp_solver_name(solvers[s]),
                   smoothing[s], nodes[i], r.variables, r.seconds, r.evaluations, r.psi,
                   r.psi_shooting);
            double x = log(nodes[i]), y = log(r.seconds);
            sx += x, sy += y, sxx += x * x, sxy += x * y, k++;
        }
        /* least squares of log(seconds) on log(nodes) */
        printf("%-7s %6g time ~ nodes^%.2f (least squares over %d node counts)\n\n",
               hes_nlp_solver_name(solvers[s]), smoothing[s],
               (k * sxy - sx * sy) / (k * sxx - sx * sx), k);
    }
    return 0;
}
