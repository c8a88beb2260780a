/*
 * plate_legs.c - what the two plates on N legs share (plate-springs,
 * plate-vertical): their model data (hes__plate_data: the number of legs
 * and, in an allocated model, its event names) and the allocation of a
 * model for any N from a built-in one, with a touchdown and a liftoff
 * event per leg; and the field Jacobian of a plate pushed by spring-damper
 * legs, the same formula for both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problems.h"

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
            hes__plate_legs_model_free(md, base);
            return NULL;
        }
    }
    return md;
}

void hes__plate_legs_model_free(hes_ess_model *md, const hes_ess_model *base)
{
    if (!md || md == base)
        return;
    hes__plate_data *pd = md->data;
    if (pd) {
        for (int i = 0; pd->names && i < 2 * pd->N; i++)
            free(pd->names[i]);
        free(pd->names);
        free(pd);
    }
    free(md);
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
