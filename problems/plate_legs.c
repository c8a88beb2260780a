/*
 * plate_legs.c - what the two plates on N legs share (plate-springs,
 * plate-vertical): their model data (hes__plate_data: the number of legs
 * and, in an allocated model, its event names) and the allocation of a
 * model for any N from a built-in one, with a touchdown and a liftoff
 * event per leg; and the field Jacobian of a plate pushed by spring-damper
 * legs, the same formula for both.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problems.h"

/* The release of a model made here (hes_ess_model_destroy). */
static void plate_legs_release(void *model)
{
    hes_ess_model *md = model;
    hes__plate_data *pd = md->data;
    if (pd) {
        for (int i = 0; pd->names && i < 2 * pd->N; i++)
            free(pd->names[i]);
        free(pd->names);
        free(pd);
    }
    free(md);
}

hes_ess_model *hes__plate_legs_model(const hes_ess_model *base, int N, int paired,
                                     const char *description)
{
    hes_ess_model *md = malloc(sizeof *md);
    hes__plate_data *pd = malloc(sizeof *pd);
    char **names = calloc((size_t)(2 * N), sizeof *names);
    if (!md || !pd || !names) {
        free(md);
        free(pd);
        free(names);
        return NULL;
    }
    *md = *base;
    md->release = plate_legs_release;
    md->m = 2 * N;
    md->description = description;
    pd->N = N;
    pd->names = names;
    md->data = pd;
    md->event_names = (const char *const *)names;
    for (int i = 0; i < N; i++) {
        char buf[32];
        int td = paired ? 2 * i : i, lo = paired ? 2 * i + 1 : N + i;
        snprintf(buf, sizeof buf, "touchdown %d", i);
        names[td] = strdup(buf);
        snprintf(buf, sizeof buf, "liftoff %d", i);
        names[lo] = strdup(buf);
        if (!names[td] || !names[lo]) {
            plate_legs_release(md);
            return NULL;
        }
    }
    return md;
}

/*
 * A leg in stance pushes with F = k p + c p', p its penetration, along the
 * gradient g = dp/dq (q = (x, z, theta)); the generalised force is F g, so
 * with v = q' and p' = g.v:
 *     d(F g)/dq = g (k g + c dr)^T + F H,   dr = H v  (d p'/dq),
 *     d(F g)/dv = c g g^T,
 * H = d^2 p / dq^2.  The leg's terms are added to Dq and Dv (3 x 3,
 * row-major).
 */
void hes__plate_leg_dx(double k, double c, double pen, double rate, const double *g,
                       const double *H, const double *v, double *Dq, double *Dv)
{
    double F = k * pen + c * rate, dr[3];
    for (int a = 0; a < 3; a++)
        dr[a] = H[3 * a] * v[0] + H[3 * a + 1] * v[1] + H[3 * a + 2] * v[2];
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            Dq[3 * a + b] += g[a] * (k * g[b] + c * dr[b]) + F * H[3 * a + b];
            Dv[3 * a + b] += c * g[a] * g[b];
        }
}

/* The 6 x 6 Jacobian (column-major) of x' = (v, M^-1 (f0 - sum F g)),
 * M = diag(m, m, I), from the legs' Dq and Dv: [[0, I], [-M^-1 Dq, -M^-1 Dv]]. */
void hes__plate_field_dx(double mass, double inertia, const double *Dq, const double *Dv,
                         double *out)
{
    double inv[3] = { 1 / mass, 1 / mass, 1 / inertia };
    memset(out, 0, 36 * sizeof *out);
    for (int a = 0; a < 3; a++)
        out[a + 6 * (3 + a)] = 1;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            out[(3 + a) + 6 * b] = -inv[a] * Dq[3 * a + b];
            out[(3 + a) + 6 * (3 + b)] = -inv[a] * Dv[3 * a + b];
        }
}

/*
 * The field in time independent of N.  On both plates every stance leg's
 * term (its part of the generalised force and of the field Jacobian) is a
 * polynomial of degree 2 in its offset d_j = x_j - x from the plate's
 * centre (the penetration, its gradient, its rate and its Hessian are
 * affine in d_j), so the sum over the stance legs is
 *     sum_j T(d_j) = S0 T0 + S1 T1 + S2 T2,   S_r = sum over stance of d_j^r,
 * with T0 = T(0), T1 = (T(1) - T(-1)) / 2, T2 = (T(1) + T(-1)) / 2 - T(0):
 * the model's own leg term at three offsets.  The S_r follow from the sums
 * of the stance legs' indices j^r (exact integers: nothing accumulates
 * however many legs touch down and lift off) through x_j = -a + delta j,
 * delta = 2a / (N - 1) (hes__plate_leg_grid):  d_j = (-a - x) + delta j.
 */
const char *const hes__plate_state_names[6] = { "x", "z", "theta", "vx", "vz", "omega" };

void hes__plate_leg_grid(int N, double a, double *x0, double *delta)
{
    *x0 = N > 1 ? -a : 0;
    *delta = N > 1 ? 2 * a / (N - 1) : 0;
}

double hes__plate_leg_x(int j, int N, double a)
{
    assert(N >= 1 && j >= 0 && j < N); /* leg j of the plate's N */
    double x0, delta;
    hes__plate_leg_grid(N, a, &x0, &delta);
    return x0 + delta * j;
}

void hes__plate_sums_add(double *sums, int j, double w)
{
    assert(j >= 0);
    sums[0] += w;
    sums[1] += w * j;
    sums[2] += w * (double)j * j;
}

void hes__plate_sum_terms(hes__plate_leg_terms term, const double *x, const void *pose,
                          const double *p, int N, double a, const double *sums, double gen[3],
                          double *Dq, double *Dv)
{
    double x0, delta;
    hes__plate_leg_grid(N, a, &x0, &delta);
    double u = x0 - x[0];
    double S[3] = { sums[0], u * sums[0] + delta * sums[1],
                    u * u * sums[0] + 2 * u * delta * sums[1] + delta * delta * sums[2] };
    double T[3][21] = { { 0 } };   /* gen (3), Dq (9), Dv (9) at d = 0, 1, -1 */
    for (int r = 0; r < 3; r++)
        term(x, pose, r == 0 ? 0.0 : r == 1 ? 1.0 : -1.0, p, N, T[r], Dq ? T[r] + 3 : NULL,
             T[r] + 12);
    for (int k = 0; k < (Dq ? 21 : 3); k++) {
        double t0 = T[0][k], tp = T[1][k], tm = T[2][k];
        double v = S[0] * t0 + S[1] * 0.5 * (tp - tm) + S[2] * (0.5 * (tp + tm) - t0);
        if (k < 3)
            gen[k] += v;
        else if (k < 12)
            Dq[k - 3] += v;
        else
            Dv[k - 12] += v;
    }
}

/* Interval arithmetic (not rounded outward: the broad phase adds a leg on
 * each side of what it finds) */
hes__iv hes__iv_add(hes__iv a, hes__iv b) { return (hes__iv){ a.lo + b.lo, a.hi + b.hi }; }

hes__iv hes__iv_scale(double c, hes__iv a)
{
    return c >= 0 ? (hes__iv){ c * a.lo, c * a.hi } : (hes__iv){ c * a.hi, c * a.lo };
}

hes__iv hes__iv_mul(hes__iv a, hes__iv b)
{
    double p[4] = { a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi };
    hes__iv r = { p[0], p[0] };
    for (int k = 1; k < 4; k++) {
        r.lo = fmin(r.lo, p[k]);
        r.hi = fmax(r.hi, p[k]);
    }
    return r;
}

/* over an interval within (-pi/2, pi/2): sin and tan increase, cos peaks at 0 */
hes__iv hes__iv_sin(hes__iv a) { return (hes__iv){ sin(a.lo), sin(a.hi) }; }
hes__iv hes__iv_tan(hes__iv a) { return (hes__iv){ tan(a.lo), tan(a.hi) }; }

hes__iv hes__iv_cos(hes__iv a)
{
    double cl = cos(a.lo), ch = cos(a.hi);
    return (hes__iv){ fmin(cl, ch), a.lo <= 0 && a.hi >= 0 ? 1.0 : fmax(cl, ch) };
}

/*
 * The broad phase of a guard affine in the leg's position X:
 * h(X) = alpha + beta X, alpha in A and beta in B over a box of states.
 * Its range at X is [A.lo + min(B.lo X, B.hi X), A.hi + max(B.lo X, B.hi X)],
 * which meets [lo, hi] iff its lower end is <= hi and its upper end >= lo;
 * each side changes truth only where one of its two lines meets its
 * threshold, so on the at most five intervals of X between those four
 * points the answer is constant: tested at each interval's middle and at
 * each point, and the legs in a true interval (one more on each side, for
 * rounding) written as guards first + stride j.  Time independent of N
 * but for the legs written.
 */
static int meets(hes__iv A, hes__iv B, double lo, double hi, double X)
{
    return A.lo + fmin(B.lo * X, B.hi * X) <= hi && A.hi + fmax(B.lo * X, B.hi * X) >= lo;
}

int hes__plate_legs_near(hes__iv A, hes__iv B, double lo, double hi, int N, double a, int first,
                         int stride, int *idx)
{
    double bp[4], x0, delta;
    hes__plate_leg_grid(N, a, &x0, &delta);
    if (!(delta > 0))
        delta = 1;      /* one leg, at 0: any spacing */
    int nb = 0, k = 0, done = -1;
    double Bs[2] = { B.lo, B.hi };
    for (int c = 0; c < 2; c++)
        if (Bs[c] != 0) {
            bp[nb++] = (hi - A.lo) / Bs[c];
            bp[nb++] = (lo - A.hi) / Bs[c];
        }
    for (int q = 1; q < nb; q++)   /* sorted */
        for (int r = q; r > 0 && bp[r] < bp[r - 1]; r--) {
            double u = bp[r];
            bp[r] = bp[r - 1];
            bp[r - 1] = u;
        }
    /* in increasing X: the interval before bp[q], then the point bp[q] */
    for (int q = 0; q <= nb; q++)
        for (int point = 0; point < (q < nb ? 2 : 1); point++) {
            double L = q == 0 ? -HUGE_VAL : bp[q - 1], R = q == nb ? HUGE_VAL : bp[q], X;
            if (point)
                X = L = R = bp[q];
            else
                X = q == 0 ? (nb ? R - 1 : 0) : q == nb ? L + 1 : 0.5 * (L + R);
            if (!meets(A, B, lo, hi, X))
                continue;
            /* within [0, N - 1] before any conversion to int */
            double jl = L == -HUGE_VAL ? 0 : fmin(N, fmax(0, floor((L - x0) / delta) - 1));
            double jh = R == HUGE_VAL ? N - 1 : fmax(-1, fmin(N - 1, ceil((R - x0) / delta) + 1));
            for (int j = (int)fmax(jl, done + 1); j <= (int)jh; j++)
                idx[k++] = first + stride * j;
            if (jh > done)
                done = (int)jh;
        }
    return k;
}

int hes__plate_near_all(const double *lo, const double *hi, int N, int *idx)
{
    if (lo[2] > -1.5 && hi[2] < 1.5)
        return -1;
    for (int i = 0; i < 2 * N; i++)
        idx[i] = i;
    return 2 * N;
}
