/*
 * colloc_cost.c - the terms of the collocation's cost besides psi: over the
 * inputs U_i of every phase i (duration T_i, N_i nodes, h = T_i / (N_i - 1)),
 *
 *   energy     E = sum_i int_0^T_i |u(t)|^2 dt, exact for the interpolant:
 *              constant inputs  T_i |U_i|^2;
 *              linear inputs    sum_k h (a^2 + a b + b^2) / 3 per component,
 *                               a = U_i,k, b = U_i,k+1;
 *   roughness  R = sum_i int_0^T_i |du/dt|^2 dt = sum_k |U_i,k+1 - U_i,k|^2 / h
 *              (linear inputs only: the input-rate regularisation of the
 *              psi objectives, weight hes_colloc_options.smooth_weight);
 *
 * with their exact gradients in the inputs and the durations
 * (dE/dT_i = sum_k s_k / (N_i - 1), dR/dT_i = -R_i / T_i);
 *
 *   smax       the kinks of the stability term: the maximum of a_1..a_m
 *              (the multipliers' moduli, psi and a floor) smoothed with
 *              half-width mu > 0 (Nesterov's smoothing with the proximity
 *              term mu/2 |w|^2, Math. Program. 103, 2005),
 *
 *                smax_mu(a) = mu/2 + max over the unit simplex of
 *                                    (w.a - mu/2 |w|^2),
 *
 *              whose maximiser w, the Euclidean projection of a/mu onto the
 *              simplex (sparsemax: Martins & Astudillo, ICML 2016; the
 *              projection by sorting, Held, Wolfe & Crowder, Math. Program.
 *              6, 1974), is its gradient: w_k = max(a_k/mu - tau, 0), tau
 *              such that sum w = 1.  It is C1 (gradient Lipschitz with
 *              constant 1/mu), symmetric, equals max a where the largest
 *              exceeds every other by mu or more (w a unit vector), and
 *              lies above max a by at most mu/2 (1 - 1/m).  For two numbers
 *              it is, over |a_1 - a_2| < mu, the quadratic
 *                a_2 + (a_1 - a_2 + mu)^2 / (4 mu),
 *              Huber's smoothing of the plus function in
 *              max(a_1, a_2) = a_2 + (a_1 - a_2)_+ (Chen & Mangasarian,
 *              Comput. Optim. Appl. 5, 1996), computed so;
 *   floor      the stability term max(psi, floor) of a psi floor, smoothed
 *              as smax_mu(psi, floor): continuous with its derivative at
 *              psi = floor -+ mu, above max(psi, floor) by at most mu/4.
 */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "shaping/colloc_internal.h"

double hes__colloc_smax(const double *a, int m, double mu, double *w)
{
    int top = 0;
    for (int k = 1; k < m; k++)
        if (a[k] > a[top])
            top = k;
    if (m == 2 && mu > 0) { /* the closed form */
        double d = a[0] - a[1] + mu;
        if (d > 0 && d < 2 * mu) {
            w[0] = d / (2 * mu);
            w[1] = 1 - w[0];
            return a[1] + d * d / (4 * mu);
        }
    }
    if (m <= 2 || !(mu > 0)) {
        for (int k = 0; k < m; k++)
            w[k] = k == top ? 1.0 : 0.0;
        return m > 0 ? a[top] : -HUGE_VAL;
    }
    /* relative to the largest (smax(a) = a_top + smax(a - a_top): no
       cancellation in a / mu); tau from the values above it, largest
       first: the threshold of the j largest is (their sum / mu - 1) / j
       while the j-th stays above it */
    double s[HES_COLLOC_SMAX_MAX], sum = 0, tau = 0;
    assert(m <= HES_COLLOC_SMAX_MAX);
    for (int k = 0; k < m; k++) {
        if (isnan(a[k])) {
            for (int j = 0; j < m; j++)
                w[j] = 0.0;
            return NAN;
        }
        s[k] = (a[k] - a[top]) / mu;
    }
    for (int k = 1; k < m; k++) /* insertion sort, descending */
        for (int j = k; j > 0 && s[j] > s[j - 1]; j--) {
            double t = s[j];
            s[j] = s[j - 1];
            s[j - 1] = t;
        }
    int rho = 0;
    for (int j = 0; j < m; j++) {
        sum += s[j];
        double t = (sum - 1) / (j + 1);
        if (!(s[j] > t))
            break;
        tau = t;
        rho = j + 1;
    }
    if (rho <= 1) { /* the largest leads by mu: the maximum itself */
        for (int k = 0; k < m; k++)
            w[k] = k == top ? 1.0 : 0.0;
        return a[top];
    }
    double v = mu / 2;
    for (int k = 0; k < m; k++) {
        w[k] = fmax((a[k] - a[top]) / mu - tau, 0.0);
        if (w[k] > 0)
            v += w[k] * (a[k] - a[top] - mu / 2 * w[k]);
    }
    return a[top] + v;
}

double hes__colloc_floor(double psi, double floor, double mu, double *slope)
{
    double a[2] = { psi, floor }, w[2];
    double v = hes__colloc_smax(a, 2, mu, w);
    *slope = w[0];
    return v;
}

double hes__colloc_energy(const hes_colloc *c, const double *z, double *grad)
{
    double e = 0;
    int m = c->n_in;
    if (grad)
        memset(grad, 0, sizeof(double) * (size_t)c->nv);
    for (int i = 0; i < c->n_phases && m > 0; i++) {
        const double *U = z + c->uoff[i];
        double T = z[c->toff[i]];
        if (c->urows[i] == 1) {
            for (int q = 0; q < m; q++) {
                e += T * U[q] * U[q];
                if (grad) {
                    grad[c->uoff[i] + q] += 2 * T * U[q];
                    grad[c->toff[i]] += U[q] * U[q];
                }
            }
            continue;
        }
        int N = c->nn[i];
        double h = T / (N - 1);
        for (int k = 0; k + 1 < N; k++)
            for (int q = 0; q < m; q++) { /* integral of the squared linear interpolant */
                double a = U[(size_t)k * m + q], b = U[(size_t)(k + 1) * m + q],
                       s = (a * a + a * b + b * b) / 3;
                e += h * s;
                if (grad) {
                    grad[c->uoff[i] + k * m + q] += h / 3 * (2 * a + b);
                    grad[c->uoff[i] + (k + 1) * m + q] += h / 3 * (a + 2 * b);
                    grad[c->toff[i]] += s / (N - 1);
                }
            }
    }
    return e;
}

double hes__colloc_roughness(const hes_colloc *c, const double *z, double *grad)
{
    double r = 0;
    int m = c->n_in;
    if (grad)
        memset(grad, 0, sizeof(double) * (size_t)c->nv);
    for (int i = 0; i < c->n_phases && m > 0; i++) {
        if (c->urows[i] < 2)
            continue;
        const double *U = z + c->uoff[i];
        int N = c->nn[i];
        double T = z[c->toff[i]], h = T / (N - 1), ri = 0;
        for (int k = 0; k + 1 < N; k++)
            for (int q = 0; q < m; q++) {
                double d = U[(size_t)(k + 1) * m + q] - U[(size_t)k * m + q];
                ri += d * d / h;
                if (grad) {
                    grad[c->uoff[i] + (k + 1) * m + q] += 2 * d / h;
                    grad[c->uoff[i] + k * m + q] -= 2 * d / h;
                }
            }
        r += ri;
        if (grad)
            grad[c->toff[i]] += -ri / T;
    }
    return r;
}
