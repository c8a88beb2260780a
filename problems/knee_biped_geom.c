/*
 * knee_biped_geom.c - the knee biped's lengths and mass coefficients from
 * its parameters (knee_biped.h), shared by its mechanics and its
 * trajectory-optimisation problem.
 */
#include "knee_biped.h"

geometry hes__knee_biped_geom(const double *p)
{
    geometry G;
    double mh = p[P_MH], mt = p[P_MT], ms = p[P_MS];
    G.ls = p[P_A1] + p[P_B1];
    G.lt = p[P_A2] + p[P_B2];
    G.L = G.ls + G.lt;
    G.m11 = ms * p[P_A1] * p[P_A1] + mt * (G.ls + p[P_A2]) * (G.ls + p[P_A2])
            + (mh + mt + ms) * G.L * G.L;
    G.grav1 = ms * p[P_A1] + mt * (G.ls + p[P_A2]) + (mh + mt + ms) * G.L;
    G.kA = mt * p[P_B2] + ms * G.lt;
    G.kC = mt * p[P_B2] + ms * (G.lt + p[P_B1]);
    G.IC = mt * p[P_B2] * p[P_B2] + ms * (G.lt + p[P_B1]) * (G.lt + p[P_B1]);
    G.mT = mh + 2.0 * mt + 2.0 * ms;
    return G;
}
