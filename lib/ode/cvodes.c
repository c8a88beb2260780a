/*
 * cvodes.c - the CVODES glue (ode/cvodes.h): creation, restart and teardown of
 * one integrator and the read-out of its forward sensitivities, and the
 * CVODES callbacks of every integrator over the dense field, Jacobian and
 * root functions its owner passes in.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "ode/cvodes.h"

/* The CVODES callbacks of every integrator: user_data is the hes__ode. */
static int ode_rhs(sunrealtype t, N_Vector y, N_Vector ydot, void *ud)
{
    hes__ode *o = ud;
    return o->f(o->data, t, NV_DATA_S(y), NV_DATA_S(ydot));
}

/* o->jac = f_dx at (t, y), unless it holds that already. */
static int jac_at(hes__ode *o, sunrealtype t, N_Vector y)
{
    const double *yv = NV_DATA_S(y);
    size_t bytes = (size_t)o->n * sizeof(double);
    if (o->jac_ok && t == o->jac_t && !memcmp(yv, o->jac_y, bytes))
        return 0;
    o->jac_ok = 0;
    if (o->f_dx(o->data, t, yv, o->jac) != 0)
        return -1;
    o->jac_t = t;
    memcpy(o->jac_y, yv, bytes);
    o->jac_ok = 1;
    return 0;
}

static int ode_jac(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *ud, N_Vector t1,
                   N_Vector t2, N_Vector t3)
{
    hes__ode *o = ud;
    (void)fy; (void)t1; (void)t2; (void)t3;
    if (jac_at(o, t, y))
        return -1;
    for (int j = 0; j < o->n; j++)
        memcpy(SM_COLUMN_D(J, j), o->jac + (size_t)j * o->n, (size_t)o->n * sizeof(double));
    return 0;
}

/* s_j' = (df/dx) s_j */
static int ode_sens(int Ns, sunrealtype t, N_Vector y, N_Vector ydot, N_Vector *yS,
                    N_Vector *ySdot, void *ud, N_Vector t1, N_Vector t2)
{
    hes__ode *o = ud;
    (void)ydot; (void)t1; (void)t2;
    if (jac_at(o, t, y))
        return -1;
    for (int j = 0; j < Ns; j++)
        hes__matmul(o->n, o->n, 1, o->jac, NV_DATA_S(yS[j]), NV_DATA_S(ySdot[j]));
    return 0;
}

static int ode_root(sunrealtype t, N_Vector y, sunrealtype *g, void *ud)
{
    hes__ode *o = ud;
    return o->g(o->data, t, NV_DATA_S(y), g);
}

int hes__ode_create(hes__ode *o, SUNContext ctx, int n, const hes__ode_spec *s)
{
    assert(n > 0 && s->f && s->f_dx && s->jac && s->mxstep > 0);
    memset(o, 0, sizeof *o);
    o->n = n;
    o->f = s->f;
    o->f_dx = s->f_dx;
    o->g = s->g;
    o->data = s->data;
    o->jac = s->jac;
    if (!(o->jac_y = malloc(sizeof(double) * (size_t)n)) || !(o->y = N_VNew_Serial(n, ctx)))
        return -1;
    N_VConst(0.0, o->y);
    if (!(o->cvode = CVodeCreate(s->bdf ? CV_BDF : CV_ADAMS, ctx)))
        return -1;
    if (CVodeSetErrHandlerFn(o->cvode, s->err, s->err_data) != CV_SUCCESS ||
        CVodeInit(o->cvode, ode_rhs, 0.0, o->y) != CV_SUCCESS ||
        CVodeSetUserData(o->cvode, o) != CV_SUCCESS ||
        CVodeSetMaxNumSteps(o->cvode, s->mxstep) != CV_SUCCESS)
        return -1;
    o->J = SUNDenseMatrix(n, n, ctx);
    o->LS = o->J ? SUNLinSol_Dense(o->y, o->J, ctx) : NULL;
    if (!o->LS || CVodeSetLinearSolver(o->cvode, o->LS, o->J) != CV_SUCCESS ||
        CVodeSetJacFn(o->cvode, ode_jac) != CV_SUCCESS)
        return -1;
    if (s->n_roots > 0 &&
        (CVodeRootInit(o->cvode, s->n_roots, ode_root) != CV_SUCCESS ||
         CVodeSetRootDirection(o->cvode, (int *)s->dirs) != CV_SUCCESS ||
         CVodeSetNoInactiveRootWarn(o->cvode) != CV_SUCCESS))
        return -1;
    if (!(o->yS = N_VCloneVectorArray(n, o->y)))
        return -1;
    for (int j = 0; j < n; j++) {
        N_VConst(0.0, o->yS[j]);
        NV_Ith_S(o->yS[j], j) = 1.0;
    }
    if (CVodeSensInit(o->cvode, n, CV_SIMULTANEOUS, ode_sens, o->yS) != CV_SUCCESS ||
        CVodeSetSensErrCon(o->cvode, SUNTRUE) != CV_SUCCESS ||
        CVodeSensToggleOff(o->cvode) != CV_SUCCESS)
        return -1;
    return 0;
}

void hes__ode_free(hes__ode *o)
{
    if (o->cvode)
        CVodeFree(&o->cvode);
    if (o->yS)
        N_VDestroyVectorArray(o->yS, o->n);
    if (o->LS)
        SUNLinSolFree(o->LS);
    if (o->J)
        SUNMatDestroy(o->J);
    if (o->y)
        N_VDestroy(o->y);
    free(o->jac_y);
    memset(o, 0, sizeof *o);
}

int hes__ode_start(hes__ode *o, double t0, const double *x, double rtol, double atol,
                   int sens, const double *S0, double *atolS)
{
    int n = o->n;
    o->jac_ok = 0;
    memcpy(NV_DATA_S(o->y), x, (size_t)n * sizeof(double));
    if (CVodeReInit(o->cvode, t0, o->y) != CV_SUCCESS ||
        CVodeSStolerances(o->cvode, rtol, atol) != CV_SUCCESS)
        return -1;
    if (!sens)
        return CVodeSensToggleOff(o->cvode) == CV_SUCCESS ? 0 : -1;
    for (int j = 0; j < n; j++) {
        if (S0) {
            memcpy(NV_DATA_S(o->yS[j]), S0 + (size_t)j * n, (size_t)n * sizeof(double));
        } else {
            N_VConst(0.0, o->yS[j]);
            NV_Ith_S(o->yS[j], j) = 1.0;
        }
        atolS[j] = atol;
    }
    /* from a projector (S0), out of the error test: see cvodes.h */
    if (CVodeSensReInit(o->cvode, CV_SIMULTANEOUS, o->yS) != CV_SUCCESS ||
        CVodeSensSStolerances(o->cvode, rtol, atolS) != CV_SUCCESS ||
        CVodeSetSensErrCon(o->cvode, S0 ? SUNFALSE : SUNTRUE) != CV_SUCCESS)
        return -2;
    return 0;
}

int hes__ode_get_sens(hes__ode *o, double *A)
{
    sunrealtype t;
    if (CVodeGetSens(o->cvode, &t, o->yS) != CV_SUCCESS)
        return -1;
    for (int j = 0; j < o->n; j++)
        memcpy(A + (size_t)j * o->n, NV_DATA_S(o->yS[j]), (size_t)o->n * sizeof(double));
    return 0;
}
