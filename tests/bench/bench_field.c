/*
 * bench_field.c - the cost of a mechanical mode's field Jacobian
 * (hes_mech_field_dx, run by `make bench`) on the knee biped's unlocked
 * and locked modes, three ways in one run: with the model's force
 * Jacobians (hes_mech.force_dx, as the built-in ships), with fourth-order
 * differences of its force instead (force_dx NULL), and by central
 * differences of the whole field (2n field evaluations, the baseline a
 * model without field_dx gets).  Prints microseconds per Jacobian, the
 * ratios, and the largest difference between the first two (they must
 * agree to rounding: 1e-9 relative, or the benchmark fails).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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

#define REPS 20000
/* room for the largest state of the knee biped's modes (12) */
#define STATE_MAX 32

/* Central differences of the field: column j from x +- h e_j. */
static int field_differences(const hes_mode *md, const double *p, double *x, double *J)
{
    int n = md->dim;
    double fp[STATE_MAX], fm[STATE_MAX];
    for (int j = 0; j < n; j++) {
        double xj = x[j], h = 1e-6 * fmax(1.0, fabs(xj));
        x[j] = xj + h;
        int rc = md->field(0.0, x, p, fp, md->data);
        x[j] = xj - h;
        rc |= md->field(0.0, x, p, fm, md->data);
        x[j] = xj;
        if (rc)
            return rc;
        for (int i = 0; i < n; i++)
            J[i + j * n] = (fp[i] - fm[i]) / (2 * h);
    }
    return 0;
}

int main(void)
{
    const hes_model *model = hes_problem_find("knee-biped");
    hes_system *sys = model ? test_system_of(model) : NULL;
    if (!sys || hes_system_set_param(sys, "hip_torque", -0.6) != HES_OK ||
        hes_system_set_param(sys, "knee_torque", 0.35) != HES_OK ||
        hes_system_set_param(sys, "ankle_torque", 0.25) != HES_OK) {
        fprintf(stderr, "bench_field: no knee biped\n");
        return 1;
    }
    const double *p = hes_system_params(sys);
    printf("knee-biped field Jacobian (hes_mech_field_dx), %d calls per mode\n", REPS);
    printf("%-10s %14s %18s %16s %9s %9s %10s\n", "mode", "force_dx us", "force diffs us",
           "field diffs us", "ratio fd", "ratio cd", "max diff");
    int bad = 0;
    for (int mode = 0; mode < model->n_modes; mode++) {
        const hes_mode *md = &model->modes[mode];
        if (md->field_dx != hes_mech_field_dx)
            continue;
        const hes_mech_mode *mm = md->data;
        if (!mm->mech->force_dx)
            continue;
        hes_mech mech = *mm->mech; /* the same model without its force Jacobians */
        mech.force_dx = NULL;
        hes_mech_mode plain = *mm;
        plain.mech = &mech;
        int n = md->dim;
        if (n > STATE_MAX)
            return 1;
        double x[STATE_MAX], J[STATE_MAX * STATE_MAX], Jf[STATE_MAX * STATE_MAX], t[3];
        volatile double sink = 0; /* the results are used */
        for (int i = 0; i < n; i++) /* angles, then rates */
            x[i] = i < n / 2 ? 0.3 - 0.2 * i : -1.1 + 0.7 * (i - n / 2);
        for (int way = 0; way < 3; way++) {
            double t0 = now();
            for (int r = 0; r < REPS; r++) {
                x[0] += 1e-12; /* no call is the same as the last */
                int rc = way == 0   ? hes_mech_field_dx(0.0, x, p, J, (void *)mm)
                         : way == 1 ? hes_mech_field_dx(0.0, x, p, Jf, (void *)&plain)
                                    : field_differences(md, p, x, Jf);
                if (rc) {
                    fprintf(stderr, "bench_field: mode %s failed\n", md->name);
                    return 1;
                }
                sink += way == 0 ? J[n] : Jf[n];
            }
            t[way] = (now() - t0) / REPS * 1e6;
        }
        hes_mech_field_dx(0.0, x, p, J, (void *)mm);
        hes_mech_field_dx(0.0, x, p, Jf, (void *)&plain);
        double diff = 0, scale = 1;
        for (int e = 0; e < n * n; e++)
            scale = fmax(scale, fabs(Jf[e]));
        for (int e = 0; e < n * n; e++)
            diff = fmax(diff, fabs(J[e] - Jf[e]) / scale);
        bad |= !(diff < 1e-9);
        printf("%-10s %14.3f %18.3f %16.3f %9.2f %9.2f %10.1e\n", md->name, t[0], t[1], t[2],
               t[1] / t[0], t[2] / t[0], diff);
    }
    hes_system_destroy(sys);
    if (bad)
        fprintf(stderr, "bench_field: the Jacobians with and without force_dx differ\n");
    return bad;
}
