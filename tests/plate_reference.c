/*
 * plate_reference.c - tight reference trajectories of the two plates
 * (plate_reference.h), independent of the ESS integrator and of the models'
 * code: the fields are written here again from the statements
 * (problems/plate_vertical.c's and plate_springs.c's headers), and the
 * trajectory is integrated event by event.
 *
 * plate-vertical: leg i pushes with F_i = k pen_i + b pen_i' while
 * pen_i = -(z + (x_i - x) tan theta) > 0, the generalised force
 * F_i (-tan theta, 1, (x_i - x) sec^2 theta).  plate-springs: with
 * p_i = rho - (z - l0 + rho) cos theta - (x_i - x) sin theta, leg i pushes
 * with F_i = k p_i + c p_i' while p_i > 0 and F_i > 0, the generalised force
 * -F_i grad p_i, grad p_i = (sin theta, -cos theta,
 * (z - l0 + rho) sin theta - (x_i - x) cos theta).  k = K/N, c = C/N.
 *
 * Between events the stance set is fixed and the field smooth: CVODES
 * (Adams, rtol 1e-12, atol 1e-14, steps of at most 10 ms) integrates it
 * with 3N root functions, each either way,
 *   g_i      = pen_i (p_i): a make or break, located to CVODES's root
 *              tolerance 100 u (|t| + |step|), ~1e-14 s;
 *   g_{N+i}  = F_i / k (plate-springs; 1 for plate-vertical): a break or
 *              make of a penetrating leg by its force's sign;
 *   g_{2N+i} = pen_i' (legs not in stance): the extrema of pen_i, so that a
 *              leg that touches and leaves within one step (pen_i negative
 *              at both ends) still shows a sign change and the root search
 *              brackets its make first.
 * At a root the stance of the legs concerned is that of the signs the roots
 * go to, and CVODES restarts there.
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

const plate_ref_params plate_ref_default = { PLATE_REF_VERTICAL, 9.81, 1.0, 0.1875, 2000.0,
                                             10.0, 0.5, 0, 0 };
const plate_ref_params plate_ref_springs_default = { PLATE_REF_SPRINGS, 9.81, 1.0, 3.0, 1000.0,
                                                     30.0, 1.0, 0.5, 0.25 };

static double leg_x(const plate_ref_params *p, int N, int i)
{
    return N > 1 ? -p->a + 2 * p->a * i / (N - 1) : 0;
}

/* The penetration of leg i, its gradient in (x, z, theta) and its rate */
static double penetration(const plate_ref_params *p, int N, int i, const double *x,
                          double grad[3], double *rate)
{
    double d = leg_x(p, N, i) - x[0], pen;
    if (p->kind == PLATE_REF_VERTICAL) {
        double t = tan(x[2]);
        pen = -(x[1] + d * t);
        grad[0] = t;
        grad[1] = -1;
        grad[2] = -d * (1 + t * t);
    } else {
        double c = cos(x[2]), s = sin(x[2]), u = x[1] - p->l0 + p->rho;
        pen = p->rho - u * c - d * s;
        grad[0] = s;
        grad[1] = -c;
        grad[2] = u * s - d * c;
    }
    *rate = grad[0] * x[3] + grad[1] * x[4] + grad[2] * x[5];
    return pen;
}

double plate_ref_pen(const plate_ref_params *p, int N, int i, const double *x)
{
    double g[3], r;
    return penetration(p, N, i, x, g, &r);
}

void plate_ref_field(const plate_ref_params *p, int N, const int *stance, const double *x,
                     double *out)
{
    double Q[3] = { 0, 0, 0 };
    for (int i = 0; i < N; i++) {
        if (!stance[i])
            continue;
        double g[3], rate, pen = penetration(p, N, i, x, g, &rate);
        double F = p->K / N * pen + p->C / N * rate;
        for (int k = 0; k < 3; k++)
            Q[k] -= F * g[k];
    }
    out[0] = x[3];
    out[1] = x[4];
    out[2] = x[5];
    out[3] = Q[0] / p->mass;
    out[4] = Q[1] / p->mass - p->g;
    out[5] = Q[2] / p->inertia;
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
    int N = c->N;
    (void)t;
    for (int i = 0; i < N; i++) {
        double gr[3], rate, pen = penetration(c->p, N, i, x, gr, &rate);
        g[i] = pen;
        g[N + i] = c->p->kind == PLATE_REF_SPRINGS ? pen + c->p->C / c->p->K * rate : 1.0;
        g[2 * N + i] = c->stance[i] ? 1.0 : rate;
    }
    return 0;
}

/* Leg i in stance at x, the sign of a value whose root was just located
 * being the one it goes to (dir: +1 rising, -1 falling, 0 none). */
static int in_stance(const plate_ref_params *p, int N, int i, const double *x, int dir_pen,
                     int dir_force)
{
    double gr[3], rate, pen = penetration(p, N, i, x, gr, &rate);
    int pos = dir_pen ? dir_pen > 0 : pen > 0;
    if (p->kind == PLATE_REF_VERTICAL)
        return pos;
    return pos && (dir_force ? dir_force > 0 : pen + p->C / p->K * rate > 0);
}

int plate_ref_run(const plate_ref_params *p, int N, const double *x0, int n_out,
                  const double *t_out, double *x_out, long *events, char *msg, size_t len)
{
    SUNContext ctx = NULL;
    void *cv = NULL;
    N_Vector y = NULL;
    SUNMatrix A = NULL;
    SUNLinearSolver LS = NULL;
    int *rf = malloc(3 * (size_t)N * sizeof *rf), rc = -1;
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
        c.stance[i] = in_stance(p, N, i, x0, 0, 0);
    double t = 0;
    if (CVodeInit(cv, rhs, 0.0, y) || CVodeSStolerances(cv, 1e-12, 1e-14) ||
        CVodeSetUserData(cv, &c) || CVodeSetLinearSolver(cv, LS, A) ||
        CVodeSetMaxNumSteps(cv, 10000000) || CVodeSetMaxStep(cv, 1e-2) ||
        CVodeRootInit(cv, 3 * N, roots)) {
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
            for (int i = 0; i < N; i++) {
                if (rf[i] == 0 && rf[N + i] == 0)
                    continue;
                int st = in_stance(p, N, i, NV_DATA_S(y), rf[i], rf[N + i]);
                if (st != c.stance[i]) {
                    c.stance[i] = st;
                    changed = 1;
                    nev++;
                }
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
