/*
 * analysis_access.c - an analysis as an object a program reads without
 * knowing its layout (the binding's way, and any C program's that wants
 * to survive a change of hes_analysis): hes_analysis_new runs hes_analyze
 * into a heap object, and accessors copy out what it holds, for a system
 * of either kind.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid/hybrid.h"

hes_status hes_analysis_new(hes_system *sys, int check, hes_analysis **out)
{
    if (!out)
        return sys ? hes__fail(sys, HES_EINVAL, "analysis: nowhere to put it (NULL)")
                   : HES_EINVAL;
    *out = NULL;
    if (!sys)
        return HES_EINVAL;
    hes_analysis *a = malloc(sizeof *a);
    if (!a)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    hes_status st = hes_analyze(sys, check, a);
    if (st != HES_OK) {
        free(a);
        return st;
    }
    *out = a;
    return HES_OK;
}

void hes_analysis_destroy(hes_analysis *a)
{
    if (!a)
        return;
    hes_analysis_free(a);
    free(a);
}

double hes_analysis_psi(const hes_analysis *a) { return a ? a->stab.psi : NAN; }
double hes_analysis_psi_tol(const hes_analysis *a) { return a ? a->stab.psi_tol : NAN; }
hes_verdict hes_analysis_verdict(const hes_analysis *a)
{
    return a ? a->stab.verdict : HES_MARGINAL;
}
double hes_analysis_period(const hes_analysis *a) { return a ? a->orbit.period : NAN; }
int hes_analysis_dim(const hes_analysis *a) { return a ? a->orbit.n : 0; }
int hes_analysis_tangent_dim(const hes_analysis *a) { return a ? a->mono.n : 0; }
int hes_analysis_n_multipliers(const hes_analysis *a) { return a ? a->stab.n_mult : 0; }
double hes_analysis_check(const hes_analysis *a)
{
    return a && a->have_check ? a->check_max_abs_diff : NAN;
}

/* Copies the first min(n, max) values of src to dst (none for max <= 0 or
 * a NULL dst or src). */
static void copy_at_most(double *dst, const double *src, int n, int max)
{
    int k = n < max ? n : max;
    if (dst && src && k > 0)
        memcpy(dst, src, sizeof(double) * (size_t)k);
}

int hes_analysis_x0(const hes_analysis *a, double *x0, int max)
{
    if (!a)
        return -1;
    copy_at_most(x0, a->orbit.x0, a->orbit.n, max);
    return a->orbit.n;
}

int hes_analysis_multipliers(const hes_analysis *a, double *re, double *im, int max)
{
    if (!a)
        return -1;
    int n = a->stab.n_mult < max ? a->stab.n_mult : max;
    for (int k = 0; k < n; k++) {
        if (re)
            re[k] = a->stab.re[k];
        if (im)
            im[k] = a->stab.im[k];
    }
    return a->stab.n_mult;
}

int hes_analysis_monodromy(const hes_analysis *a, int which, double *out, int max)
{
    if (!a || (which != 0 && which != 1))
        return -1;
    const double *m = which == 1 && a->mono.proj ? a->mono.proj : a->mono.phi;
    int nn = a->mono.n * a->mono.n;
    copy_at_most(out, m, nn, max);
    return nn;
}
