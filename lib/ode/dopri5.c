/*
 * dopri5.c - the Dormand-Prince 5(4) pair (ode/dopri5.h): Hairer, Norsett
 * and Wanner, Solving ODEs I, Sec. II.4-5, their DOPRI5: the same tableau,
 * error estimate and 4th-order continuous extension (II.6, the dense
 * output of DOPRI5).  The step goes on with the 5th-order solution (local
 * extrapolation); the last stage is the field at the step's end (FSAL), the
 * next step's first.
 */
#include <assert.h>
#include <math.h>

#include "ode/dopri5.h"

#define C2 (1.0 / 5)
#define C3 (3.0 / 10)
#define C4 (4.0 / 5)
#define C5 (8.0 / 9)
#define A21 (1.0 / 5)
#define A31 (3.0 / 40)
#define A32 (9.0 / 40)
#define A41 (44.0 / 45)
#define A42 (-56.0 / 15)
#define A43 (32.0 / 9)
#define A51 (19372.0 / 6561)
#define A52 (-25360.0 / 2187)
#define A53 (64448.0 / 6561)
#define A54 (-212.0 / 729)
#define A61 (9017.0 / 3168)
#define A62 (-355.0 / 33)
#define A63 (46732.0 / 5247)
#define A64 (49.0 / 176)
#define A65 (-5103.0 / 18656)
#define A71 (35.0 / 384)
#define A73 (500.0 / 1113)
#define A74 (125.0 / 192)
#define A75 (-2187.0 / 6784)
#define A76 (11.0 / 84)
#define E1 (71.0 / 57600)
#define E3 (-71.0 / 16695)
#define E4 (71.0 / 1920)
#define E5 (-17253.0 / 339200)
#define E6 (22.0 / 525)
#define E7 (-1.0 / 40)
#define D1 (-12715105075.0 / 11282082432.0)
#define D3 (87487479700.0 / 32700410799.0)
#define D4 (-10690763975.0 / 1880347072.0)
#define D5 (701980252875.0 / 199316789632.0)
#define D6 (-1453857185.0 / 822651844.0)
#define D7 (69997945.0 / 29380423.0)


double hes__dopri5_norm(int n, const double *v, const double *y0, const double *y1, double rtol,
                   double atol)
{
    double s = 0;
    for (int k = 0; k < n; k++) {
        double sc = atol + rtol * fmax(fabs(y0[k]), y1 ? fabs(y1[k]) : 0);
        s += (v[k] / sc) * (v[k] / sc);
    }
    return sqrt(s / n);
}

int hes__dopri5_step(hes__dopri5 *w, double h, double *err)
{
    int n = w->n, st;
    double t = w->t;
    assert(n > 0 && (size_t)n <= w->N);
    const double *y = w->y, *k1 = w->k1;
    double *k2 = w->k2, *k3 = w->k3, *k4 = w->k4, *k5 = w->k5, *k6 = w->k6, *k7 = w->k7;
    double *y1 = w->y1, *yt = w->yt;
    for (int k = 0; k < n; k++) yt[k] = y[k] + h * A21 * k1[k];
    if ((st = w->f(w->data, t + C2 * h, yt, k2)) != 0) return st;
    for (int k = 0; k < n; k++) yt[k] = y[k] + h * (A31 * k1[k] + A32 * k2[k]);
    if ((st = w->f(w->data, t + C3 * h, yt, k3)) != 0) return st;
    for (int k = 0; k < n; k++) yt[k] = y[k] + h * (A41 * k1[k] + A42 * k2[k] + A43 * k3[k]);
    if ((st = w->f(w->data, t + C4 * h, yt, k4)) != 0) return st;
    for (int k = 0; k < n; k++)
        yt[k] = y[k] + h * (A51 * k1[k] + A52 * k2[k] + A53 * k3[k] + A54 * k4[k]);
    if ((st = w->f(w->data, t + C5 * h, yt, k5)) != 0) return st;
    for (int k = 0; k < n; k++)
        yt[k] = y[k] + h * (A61 * k1[k] + A62 * k2[k] + A63 * k3[k] + A64 * k4[k] +
                            A65 * k5[k]);
    if ((st = w->f(w->data, t + h, yt, k6)) != 0) return st;
    for (int k = 0; k < n; k++)
        y1[k] = y[k] + h * (A71 * k1[k] + A73 * k3[k] + A74 * k4[k] + A75 * k5[k] +
                            A76 * k6[k]);
    if ((st = w->f(w->data, t + h, y1, k7)) != 0) return st;
    for (int k = 0; k < n; k++)
        yt[k] = h * (E1 * k1[k] + E3 * k3[k] + E4 * k4[k] + E5 * k5[k] + E6 * k6[k] +
                     E7 * k7[k]);
    *err = hes__dopri5_norm(n, yt, y, y1, w->rtol, w->atol);
    return 0;
}

void hes__dopri5_extension(hes__dopri5 *w, double h)
{
    size_t N = w->N;
    const double *y = w->y, *y1 = w->y1, *k1 = w->k1, *k3 = w->k3, *k4 = w->k4, *k5 = w->k5,
                 *k6 = w->k6, *k7 = w->k7;
    double *rc = w->rc;
    for (int k = 0; k < w->n; k++) {
        double yd = y1[k] - y[k], bs = h * k1[k] - yd;
        rc[k] = y[k];
        rc[N + k] = yd;
        rc[2 * N + k] = bs;
        rc[3 * N + k] = yd - h * k7[k] - bs;
        rc[4 * N + k] = h * (D1 * k1[k] + D3 * k3[k] + D4 * k4[k] + D5 * k5[k] +
                             D6 * k6[k] + D7 * k7[k]);
    }
}

void hes__dopri5_dense(int n, size_t N, const double *rc, double theta, double *x)
{
    double th1 = 1 - theta;
    const double *r1 = rc, *r2 = rc + N, *r3 = rc + 2 * N, *r4 = rc + 3 * N, *r5 = rc + 4 * N;
    for (int k = 0; k < n; k++)
        x[k] = r1[k] + theta * (r2[k] + th1 * (r3[k] + theta * (r4[k] + th1 * r5[k])));
}
