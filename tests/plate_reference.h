/*
 * plate_reference.h - a tight reference trajectory of the ESS paper's plate
 * (the model `plate-vertical`, its statement in problems/plate_vertical.c),
 * computed independently of the ESS integrator: an event-driven
 * integration (CVODES at rtol 1e-12 with every make and break of a leg
 * located by root finding), and the RMS distance of a run from it.
 */
#ifndef HES_PLATE_REFERENCE_H
#define HES_PLATE_REFERENCE_H

/* The plate's constants (the model's default parameters). */
typedef struct {
    double g, mass, inertia, K, C, a;
} plate_ref_params;

extern const plate_ref_params plate_ref_default;

/* The field of the plate with N legs, legs with stance[i] != 0 pushing:
 * out[6] = f(x).  Written from the model's statement, not from its code. */
void plate_ref_field(const plate_ref_params *p, int N, const int *stance, const double *x,
                     double *out);
/* pen_i of leg i. */
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
