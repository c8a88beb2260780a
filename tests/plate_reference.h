/*
 * plate_reference.h - tight reference trajectories of the two plates of the
 * ESS models (`plate-vertical`, the ESS paper's plate, and `plate-springs`,
 * hes's plate with rollers; their statements in problems/plate_vertical.c
 * and problems/plate_springs.c), computed independently of the ESS
 * integrator: an event-driven integration (CVODES at rtol 1e-12 with every
 * make and break of a leg located by root finding), and the RMS distance of
 * a run from it.
 */
#ifndef HES_PLATE_REFERENCE_H
#define HES_PLATE_REFERENCE_H

/* The plate's kind and constants (the models' default parameters; l0 and
 * rho for plate-springs only). */
typedef enum { PLATE_REF_VERTICAL, PLATE_REF_SPRINGS } plate_ref_kind;

typedef struct {
    plate_ref_kind kind;
    double g, mass, inertia, K, C, a, l0, rho;
} plate_ref_params;

extern const plate_ref_params plate_ref_default;          /* plate-vertical */
extern const plate_ref_params plate_ref_springs_default;  /* plate-springs */

/* The field of the plate with N legs, legs with stance[i] != 0 pushing:
 * out[6] = f(x).  Written from the model's statement, not from its code. */
void plate_ref_field(const plate_ref_params *p, int N, const int *stance, const double *x,
                     double *out);
/* The penetration of leg i: pen_i of plate-vertical, p_i of plate-springs. */
double plate_ref_pen(const plate_ref_params *p, int N, int i, const double *x);

/* The state at the n_out times t_out (increasing, >= 0) from x0 at t = 0,
 * in x_out (6 x n_out, column k at t_out[k]).  *events (may be NULL): the
 * makes and breaks located.  0, or -1 with the reason in msg. */
int plate_ref_run(const plate_ref_params *p, int N, const double *x0, int n_out,
                  const double *t_out, double *x_out, long *events, char *msg, size_t len);

/* The RMS over the n_out samples of the Euclidean distance of the
 * positions (x, z, theta) of a (6 x n_out) from b; rms3 (may be NULL): the
 * RMS of each of the three separately. */
double plate_ref_rms(int n_out, const double *a, const double *b, double rms3[3]);

#endif
