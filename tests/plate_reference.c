/*
 * plate_reference.c - a tight reference trajectory of the ESS paper's plate
 * (plate_reference.h), independent of the ESS integrator and of the
 * model's code: the field is written here again from the statement
 * (problems/plate_vertical.c's header), and the trajectory is integrated
 * event by event.
 *
 * Between events the stance set (legs with pen_i > 0) is fixed and the
 * field smooth: CVODES (Adams, rtol 1e-12, atol 1e-14, steps of at most
 * 10 ms) integrates it with 2N root functions,
 *   g_i     = pen_i    (every leg, either way): a make or break, located to
 *                      CVODES's root tolerance 100 u (|t| + |step|), ~1e-14 s;
 *   g_{N+i} = pen_i'   (legs not in stance): the extrema of pen_i, so that a
 *                      leg that touches and leaves within one step (pen_i
 *                      negative at both ends) still shows a sign change of
 *                      g_{N+i} and the root search brackets its make first.
 * At a make or break the stance set changes and CVODES restarts there.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cvodes/cvodes.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "plate_reference.h"

const plate_ref_params plate_ref_default = { 9.81, 1.0, 0.1875, 2000.0, 10.0, 0.5 };

static double leg_x(const plate_ref_params *p, int N, int i)
{
    return N > 1 ? -p->a + 2 * p->a * i / (N - 1) : 0;
}

double plate_ref_pen(const plate_ref_params *p, int N, int i, const double *x)
{
    return -(x[1] + (leg_x(p, N, i) - x[0]) * tan(x[2]));
}

/* pen_i' = tan(theta) vx - vz - (x_i - x) sec^2(theta) omega */
static double pen_rate(const plate_ref_params *p, int N, int i, const double *x)
{
    double t = tan(x[2]);
    return t * x[3] - x[4] - (leg_x(p, N, i) - x[0]) * (1 + t * t) * x[5];
}

void plate_ref_field(const plate_ref_params *p, int N, const int *stance, const double *x,
                     double *out)
{
    double t = tan(x[2]), sec2 = 1 + t * t, Fx = 0, Fz = 0, Mth = 0;
    for (int i = 0; i < N; i++) {
        if (!stance[i])
            continue;
        double F = p->K / N * plate_ref_pen(p, N, i, x) + p->C / N * pen_rate(p, N, i, x);
        Fx += -F * t;
        Fz += F;
        Mth += F * (leg_x(p, N, i) - x[0]) * sec2;
    }
    out[0] = x[3];
    out[1] = x[4];
    out[2] = x[5];
    out[3] = Fx / p->mass;
    out[4] = Fz / p->mass - p->g;
    out[5] = Mth / p->inertia;
}

typedef struct {
    const plate_ref_params *p;
    int N;
    int *stance;
} ref_ctx;

static int rhs(sunrealtype t, N_Vector y, N_Vector yd, void *ud)
{
    ref_ctx *c = ud;
    (void)t;
    plate_ref_field(c->p, c->N, c->stance, NV_DATA_S(y), NV_DATA_S(yd));
    return 0;
}

static int roots(sunrealtype t, N_Vector y, sunrealtype *g, void *ud)
{
    ref_ctx *c = ud;
    const double *x = NV_DATA_S(y);
    (void)t;
    for (int i = 0; i < c->N; i++) {
        g[i] = plate_ref_pen(c->p, c->N, i, x);
        g[c->N + i] = c->stance[i] ? 1.0 : pen_rate(c->p, c->N, i, x);
    }
    return 0;
}

int plate_ref_run(const plate_ref_params *p, int N, const double *x0, int n_out,
                  const double *t_out, double *x_out, long *events, char *msg, size_t len)
{
    SUNContext ctx = NULL;
    void *cv = NULL;
    N_Vector y = NULL;
    SUNMatrix A = NULL;
    SUNLinearSolver LS = NULL;
    int *rf = malloc(2 * (size_t)N * sizeof *rf), rc = -1;
    ref_ctx c = { p, N, calloc((size_t)N, sizeof(int)) };
    long nev = 0;
    if (!rf || !c.stance || SUNContext_Create(NULL, &ctx) != 0) {
        snprintf(msg, len, "reference: out of memory");
        goto done;
    }
    y = N_VNew_Serial(6, ctx);
    cv = CVodeCreate(CV_ADAMS, ctx);
    A = SUNDenseMatrix(6, 6, ctx);
    if (!y || !cv || !A || !(LS = SUNLinSol_Dense(y, A, ctx))) {
        snprintf(msg, len, "reference: cannot set up CVODES");
        goto done;
    }
    memcpy(NV_DATA_S(y), x0, 6 * sizeof *x0);
    for (int i = 0; i < N; i++)
        c.stance[i] = plate_ref_pen(p, N, i, x0) > 0;
    double t = 0;
    if (CVodeInit(cv, rhs, 0.0, y) || CVodeSStolerances(cv, 1e-12, 1e-14) ||
        CVodeSetUserData(cv, &c) || CVodeSetLinearSolver(cv, LS, A) ||
        CVodeSetMaxNumSteps(cv, 10000000) || CVodeSetMaxStep(cv, 1e-2) ||
        CVodeRootInit(cv, 2 * N, roots)) {
        snprintf(msg, len, "reference: cannot set up CVODES");
        goto done;
    }
    CVodeSetNoInactiveRootWarn(cv);
    for (int k = 0; k < n_out; k++) {
        while (t < t_out[k]) {
            sunrealtype tret;
            int flag = CVode(cv, t_out[k], y, &tret, CV_NORMAL);
            if (flag < 0) {
                snprintf(msg, len, "reference: CVODES failed at t = %.10g (flag %d)", t, flag);
                goto done;
            }
            t = tret;
            if (flag != CV_ROOT_RETURN)
                continue;
            if (CVodeGetRootInfo(cv, rf) != CV_SUCCESS) {
                snprintf(msg, len, "reference: no root information");
                goto done;
            }
            int changed = 0;
            for (int i = 0; i < N; i++)
                if (rf[i] != 0 && c.stance[i] != (rf[i] > 0)) {
                    c.stance[i] = rf[i] > 0;
                    changed = 1;
                    nev++;
                }
            if (changed && CVodeReInit(cv, t, y) != CV_SUCCESS) {
                snprintf(msg, len, "reference: cannot restart at t = %.10g", t);
                goto done;
            }
        }
        memcpy(x_out + 6 * (size_t)k, NV_DATA_S(y), 6 * sizeof(double));
    }
    if (events)
        *events = nev;
    rc = 0;
done:
    CVodeFree(&cv);
    if (LS)
        SUNLinSolFree(LS);
    if (A)
        SUNMatDestroy(A);
    if (y)
        N_VDestroy(y);
    if (ctx)
        SUNContext_Free(&ctx);
    free(rf);
    free(c.stance);
    return rc;
}

double plate_ref_rms(int n_out, const double *a, const double *b, double rms3[3])
{
    double s[3] = { 0, 0, 0 };
    for (int k = 0; k < n_out; k++)
        for (int j = 0; j < 3; j++) {
            double d = a[j + 6 * (size_t)k] - b[j + 6 * (size_t)k];
            s[j] += d * d;
        }
    if (rms3)
        for (int j = 0; j < 3; j++)
            rms3[j] = sqrt(s[j] / n_out);
    return sqrt((s[0] + s[1] + s[2]) / n_out);
}
