/*
 * bench_colloc_grad.c - the cost of psi's gradient in the collocation
 * (run by `make bench`): the knee biped's program of the README's gaits
 * with virtual events (15 nodes per sub-phase, constant inputs), psi alone
 * against psi with its gradient, serial, as a ratio measured in the same
 * run; the Hermite-Simpson steps differentiated in their states along the
 * multipliers' rank-one pairs (the default for psi) and state by state
 * (colloc_psi.c, step_gradient), and the two gradients' largest difference.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "hes.h"
#include "shaping/colloc_internal.h"

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

/* seconds per evaluation of psi (grad NULL) or psi and its gradient */
static double per_eval(hes_colloc *c, const double *z, double *grad, int reps)
{
    double psi, t0 = now();
    int fb;
    for (int r = 0; r < reps; r++)
        if (hes_colloc_psi(c, z, &psi, grad, &fb) != HES_OK) {
            fprintf(stderr, "bench_colloc_grad: psi failed\n");
            exit(1);
        }
    return (now() - t0) / reps;
}

int main(void)
{
    static const char *inputs[] = { "hip_torque", "knee_torque", "ankle_torque" };
    int counts[2] = { 1, 1 };
    hes_system *sys = test_system_of(hes_problem_find("knee-biped"));
    hes_colloc_options o;
    hes_colloc_options_init(&o);
    o.nodes = 15;
    o.n_inputs = 3;
    o.inputs = inputs;
    o.constant_inputs = 1;
    o.virtual_events = counts;
    hes_colloc *c;
    if (!sys || hes_system_set_param(sys, "slope", 0.0) != HES_OK ||
        hes_colloc_new(sys, &o, &c) != HES_OK) {
        fprintf(stderr, "bench_colloc_grad: %s\n", sys ? hes_system_errmsg(sys) : "no system");
        return 1;
    }
    int nv = hes_colloc_nvars(c);
    double *z = malloc(sizeof(double) * (size_t)nv), *g1 = malloc(sizeof(double) * (size_t)nv),
           *g2 = malloc(sizeof(double) * (size_t)nv), viol;
    if (!z || !g1 || !g2 || hes_colloc_guess(c, z) != HES_OK ||
        hes_colloc_solve(c, z, 1e-10, &viol) != HES_OK) {
        fprintf(stderr, "bench_colloc_grad: no orbit: %s\n", hes_system_errmsg(sys));
        return 1;
    }
    int reps = 200;
    double t_psi = per_eval(c, z, NULL, reps);
    hes__colloc_set_step_states(c, 1);
    double t_along = per_eval(c, z, g1, reps);
    hes__colloc_set_step_states(c, 2);
    double t_each = per_eval(c, z, g2, reps);
    double diff = 0, gmax = 0;
    for (int j = 0; j < nv; j++) {
        diff = fmax(diff, fabs(g1[j] - g2[j]));
        gmax = fmax(gmax, fabs(g2[j]));
    }
    printf("knee-biped collocation psi gradient (15 nodes, virtual events, %d variables, "
           "serial)\n", nv);
    printf("%-34s %12s %18s\n", "evaluation", "ms", "psi evaluations");
    printf("%-34s %12.3f %18.2f\n", "psi", 1e3 * t_psi, 1.0);
    printf("%-34s %12.3f %18.2f\n", "psi + gradient, states along pairs", 1e3 * t_along,
           t_along / t_psi);
    printf("%-34s %12.3f %18.2f\n", "psi + gradient, state by state", 1e3 * t_each, t_each / t_psi);
    printf("along / state by state: %.2f; largest difference %.2g of %.3g\n", t_along / t_each,
           diff, gmax);
    free(z);
    free(g1);
    free(g2);
    hes_colloc_destroy(c);
    hes_system_destroy(sys);
    return 0;
}
