/*
 * knee_biped.h - what the files of the knee biped (knee_biped.c: its
 * mechanics, modes, transitions and orbit; knee_biped_trajopt.c: its
 * trajectory-optimisation problem) share: the indices of its parameters,
 * modes, transitions and constraints, and the lengths and mass
 * coefficients derived from the parameters.
 */
#ifndef HES_KNEE_BIPED_H
#define HES_KNEE_BIPED_H

#include "problems.h"

enum { P_MH, P_MT, P_MS, P_A1, P_B1, P_A2, P_B2, P_G, P_SLOPE,
       P_HIP, P_KNEE, P_ANKLE, P_N };
enum { M_UNLOCKED, M_LOCKED };
enum { T_KNEESTRIKE, T_HEELSTRIKE };
/* constraints of A and of E */
enum { C_KNEE_STOP };
enum { C_STANCE_N, C_STANCE_T, C_SWING_N, C_SWING_T };
/* failure code of the heelstrike reset (the mechanical layer's are >= 901) */
enum { E_SCUFF = 1 };

/* Lengths and mass coefficients derived from the parameters. */
typedef struct {
    double ls, lt, L;
    double m11;   /* M11 of A and C */
    double grav1; /* f1 = g sin th1 grav1 */
    double kA;    /* mt b2 + ms lt: swing thigh+shank moment about the hip (A) */
    double kC;    /* mt b2 + ms (lt + b1): straight leg moment about the hip */
    double IC;    /* mt b2^2 + ms (lt + b1)^2 */
    double mT;    /* total mass */
} geometry;
geometry hes__knee_biped_geom(const double *p);

/* The trajectory-optimisation problem (knee_biped_trajopt.c). */
extern const hes_trajopt_spec hes__knee_biped_trajopt;

#endif
