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
 *   floor      the stability term max(psi, floor) of a psi floor, and its
 *              smoothing over |psi - floor| < mu (mu > 0) by the quadratic
 *              floor + (psi - floor + mu)^2 / (4 mu): continuous with its
 *              derivative at psi = floor -+ mu, and above max(psi, floor)
 *              (Huber's smoothing of the plus function; Chen & Mangasarian,
 *              Comput. Optim. Appl. 5, 1996).
 */
#include <string.h>

#include "shaping/colloc_internal.h"

double hes_colloc_floor(double psi, double floor, double mu, double *slope)
{
    double d = psi - floor + mu;
    if (mu > 0 && d > 0 && d < 2 * mu) {
        *slope = d / (2 * mu);
        return floor + d * d / (4 * mu);
    }
    *slope = psi < floor ? 0.0 : 1.0;
    return psi < floor ? floor : psi;
}

double hes_colloc_energy(const hes_colloc *c, const double *z, double *grad)
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

double hes_colloc_roughness(const hes_colloc *c, const double *z, double *grad)
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
