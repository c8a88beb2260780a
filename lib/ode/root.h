/*
 * ode/root.h - the one root locator of the explicit integrators (root.c):
 * the earliest crossing, within one accepted step, among the candidate
 * functions that changed sign over it.  The integrator supplies the
 * candidates through three callbacks (their values at the bracket's ends
 * are its own); the locator only chooses where to sample.  Used by the
 * RK7(8) pair (rk78.c, root functions of a hybrid mode) and by DOPRI5 in
 * the ESS integrator (ess/ess_dopri.c, the slots of its guards); CVODES
 * locates its roots itself.
 */
#ifndef HES_ODE_ROOT_H
#define HES_ODE_ROOT_H

typedef struct {
    /* The fraction in (0, 1) of the bracket at which the chord of the
     * candidate that crosses first between the bracket's ends reaches
     * zero (regula falsi, the earliest among them); 1 when none crosses. */
    double (*chord)(void *data);
    /* Samples the candidates at th (in units of the step): 1 when one has
     * crossed since the bracket's low end, 0 when none, negative on a
     * failure (returned as it is by hes__root_narrow). */
    int (*sample)(void *data, double th);
    /* The last sample becomes the bracket's high end (high = 1) or its
     * low end (high = 0). */
    void (*keep)(void *data, int high);
} hes__root_bracket;

/* Whether a root function crosses zero from a to b in direction dir (+1
 * up, -1 down, 0 either): it must leave a nonzero value (a root that sits
 * at zero is inactive until it moves away, as in CVODES). */
static inline int hes__root_crosses(double a, double b, int dir)
{
    return (a > 0 && b <= 0 && dir <= 0) || (a < 0 && b >= 0 && dir >= 0);
}

/* Narrows the bracket [lo, *hi] (units of the step; a candidate crosses
 * in it) until it is at most tol wide, or for 200 samples: each sample at
 * the chord fraction of the earliest crossing, kept within 1 % of the
 * bracket's ends, or at its middle after two samples in a row that moved
 * the same end (the chord stalls when a candidate is curved).  *hi is the
 * far end, where the first candidate has crossed (as CVODES returns its
 * roots).  0, or the sample's failure. */
int hes__root_narrow(const hes__root_bracket *b, void *data, double lo, double *hi, double tol);

#endif
