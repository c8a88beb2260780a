/*
 * test_public_api.c - a C program as a binding is one: it includes only
 * <hes.h>, holds every object by pointer and reads every result through
 * accessors, never through a struct's layout (no hes_ struct is declared
 * or dereferenced here).  It checks the ABI it was built with, analyses a
 * hybrid model (slip-hopper) and an event-selected one (hopper-pumped)
 * through the one pipeline, and checks what it reads against independent
 * computations from the same accessors: psi is the largest multiplier's
 * modulus; the verdict is psi's against its tolerance; the return map's
 * trace is the sum of the nontrivial multipliers (its trivial one is 0);
 * the monodromy agrees with central differences of the full flow.
 * Exit status 0 on success, 1 with a message otherwise.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <hes.h>

static int failures;

static void expect(int ok, const char *what, const char *name)
{
    if (!ok) {
        fprintf(stderr, "test_public_api: %s: %s\n", name, what);
        failures++;
    }
}

static void analyse(hes_system *sys, double check_tol)
{
    const char *name = hes_system_name(sys);
    hes_analysis *a = NULL;
    if (hes_analysis_new(sys, 1, &a) != HES_OK) {
        fprintf(stderr, "test_public_api: %s: %s\n", name, hes_system_errmsg(sys));
        failures++;
        return;
    }
    int dim = hes_analysis_dim(a), nm = hes_analysis_n_multipliers(a);
    double *re = malloc(sizeof(double) * (size_t)nm), *im = malloc(sizeof(double) * (size_t)nm);
    int nn = hes_analysis_monodromy(a, 1, NULL, 0);
    double *P = malloc(sizeof(double) * (size_t)nn), *x0 = malloc(sizeof(double) * (size_t)dim);
    expect(re && im && P && x0, "out of memory", name);
    if (re && im && P && x0) {
        expect(hes_analysis_multipliers(a, re, im, nm) == nm, "multipliers' count", name);
        expect(nn == dim * dim && hes_analysis_monodromy(a, 1, P, nn) == nn, "monodromy size",
               name);
        /* no mode with a tangent-space chart here: the monodromy has x0's size */
        expect(hes_analysis_tangent_dim(a) == dim, "tangent dimension", name);
        expect(hes_analysis_x0(a, x0, dim) == dim, "x0's size", name);
        /* a negative room copies nothing and still gives the size */
        double canary = 42.0;
        expect(hes_analysis_x0(a, &canary, -1) == dim && canary == 42.0 &&
               hes_analysis_monodromy(a, 0, &canary, -5) == nn && canary == 42.0 &&
               hes_analysis_multipliers(a, &canary, &canary, -1) == nm && canary == 42.0,
               "a negative room wrote to the buffer", name);
        double big = 0, sum = 0, trace = 0, tol = hes_analysis_psi_tol(a);
        for (int k = 0; k < nm; k++) {
            big = fmax(big, hypot(re[k], im[k]));
            sum += re[k];
        }
        for (int i = 0; i < dim; i++)
            trace += P[i + (size_t)i * dim];
        expect(fabs(big - hes_analysis_psi(a)) <= 1e-12 * big, "psi is not the largest "
               "multiplier's modulus", name);
        expect(fabs(trace - sum) <= 1e-9 * fmax(1, fabs(trace)), "the return map's trace is "
               "not the sum of the multipliers", name);
        hes_verdict v = hes_analysis_psi(a) < 1 - tol ? HES_STABLE
                      : hes_analysis_psi(a) > 1 + tol ? HES_UNSTABLE : HES_MARGINAL;
        expect(hes_analysis_verdict(a) == v, "the verdict is not psi's", name);
        expect(hes_analysis_check(a) < check_tol, "the monodromy differs from central "
               "differences of the full flow", name);
        expect(hes_analysis_period(a) > 0, "the period", name);
        printf("%s (%s): psi %.12g +- %.2g, %s; period %.9g; %d multipliers; check %.2g\n",
               name, hes_kind_name(hes_system_kind(sys)), hes_analysis_psi(a), tol,
               hes_verdict_name(hes_analysis_verdict(a)), hes_analysis_period(a), nm,
               hes_analysis_check(a));
    }
    free(re);
    free(im);
    free(P);
    free(x0);
    hes_analysis_destroy(a);
}

int main(void)
{
    hes_error msg;
    if (hes_abi_check(HES_ABI_VERSION, &msg) != HES_OK) {
        fprintf(stderr, "test_public_api: %s\n", hes_error_message(&msg));
        return 1;
    }
    hes_system *h = NULL, *e = NULL;
    if (hes_system_new(hes_problem_find("slip-hopper"), &h, &msg) != HES_OK ||
        hes_system_new_ess(hes_ess_problem_find("hopper-pumped"), &e, &msg) != HES_OK) {
        fprintf(stderr, "test_public_api: %s\n", hes_error_message(&msg));
        return 1;
    }
    /* the Raibert gain of the touchdown law, a shape parameter */
    expect(hes_system_set_param(h, "K", 0.3) == HES_OK, "set K", "slip-hopper");
    analyse(h, 1e-5);
    expect(hes_system_set_param(e, "pump", 2.5) == HES_OK, "set pump", "hopper-pumped");
    analyse(e, 1e-3);
    hes_analysis *none = NULL;
    expect(hes_system_set_param(e, "pump", -1) != HES_OK || hes_analysis_new(e, 0, &none) != HES_OK,
           "a bad parameter is refused", "hopper-pumped");
    expect(none == NULL && isnan(hes_analysis_psi(none)) && hes_analysis_dim(none) == 0 &&
           hes_analysis_tangent_dim(none) == 0,
           "a failed analysis is NULL and reads as nothing", "hopper-pumped");
    hes_system_destroy(h);
    hes_system_destroy(e);
    return failures ? 1 : 0;
}
