/*
 * bench_trajopt.c - collocation with psi in the cost on the SLIP hopper
 * (run by `make bench`): wall time, evaluations of psi and the psi reached,
 * from the unstable zero-shape orbit, at several node counts, with the
 * machine's core count (the computation itself is serial).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "hes.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(void)
{
    const int nodes[] = { 11, 21, 41 };
    const char *names[] = { "K", "thetadot" };
    const double lo[] = { -0.2, -3.0 }, hi[] = { 0.6, 1.0 };
    printf("SLIP hopper trajopt, psi in the cost, from K = thetadot = 0 (psi 2.006);\n"
           "%ld cores online (the computation is serial)\n\n", sysconf(_SC_NPROCESSORS_ONLN));
    printf("%6s %9s %9s %8s %14s %14s\n", "nodes", "variables", "seconds", "evals", "psi", "psi shooting");
    for (int i = 0; i < 3; i++) {
        hes_system *sys = hes_system_create(hes_problem_find("slip-hopper"));
        hes_colloc *c;
        double t0 = now(), psi = NAN, viol, psi_s = NAN;
        int evals = 0;
        if (hes_colloc_create(sys, nodes[i], &c) != HES_OK ||
            hes_colloc_set_design(c, 2, names, lo, hi) != HES_OK)
            return 1;
        double *z = malloc(sizeof(double) * (size_t)hes_colloc_nvars(c));
        if (!z || hes_colloc_guess(c, z) != HES_OK || hes_colloc_solve(c, z, 1e-10, &viol) != HES_OK ||
            hes_colloc_optimize(c, z, 1e-10, &psi, &viol, &evals) != HES_OK) {
            fprintf(stderr, "bench: %s\n", hes_system_errmsg(sys));
            return 1;
        }
        double t = now() - t0;
        hes_analysis res;
        if (hes_analyze(sys, 0, &res) == HES_OK) {
            psi_s = res.stab.psi;
            hes_analysis_free(&res);
        }
        printf("%6d %9d %9.3f %8d %14.9f %14.9f\n", nodes[i], hes_colloc_nvars(c), t, evals, psi, psi_s);
        free(z);
        hes_colloc_destroy(c);
        hes_system_destroy(sys);
    }
    return 0;
}
