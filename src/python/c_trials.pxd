# c_trials.pxd - what trials.pxi calls of libhes (lib/hes/hybrid.h,
# orbit.h, io.h): the periodic orbit, perturbation trials around it, the
# derivative of a flow, and their documents.

from c_hes cimport *

cdef extern from "hes.h" nogil:
    hes_status hes_orbit_find(hes_system *sys, hes_orbit *orbit)
    void hes_orbit_free(hes_orbit *orbit)

    ctypedef struct hes_trial:
        double *x0
        int steps_completed
        hes_status failure
        char failure_msg[512]
        double *error
    ctypedef struct hes_trials:
        int n_trials
        int steps
        int n
        hes_trial *trials
        int converged
        int n_complete
        double *mean_error
        double tol
        double radius
        int box
        unsigned long seed
    hes_status hes_trials_run(hes_system *sys, const hes_orbit *orbit, int n_trials,
                              double radius, int steps, unsigned long seed, double tol,
                              hes_trials *out)
    hes_status hes_trials_run_box(hes_system *sys, const hes_orbit *orbit, int n_trials,
                                  double half_width, int steps, unsigned long seed, double tol,
                                  hes_trials *out)
    void hes_trials_free(hes_trials *t)
    const char *hes_trials_contradiction(hes_verdict verdict, const hes_trials *t)
    char *hes_trials_json(const hes_system *sys, const hes_orbit *orbit, const hes_trials *trials)

    ctypedef struct hes_simultaneous:
        int event
        int first
        int second
        int alt_first
        int alt_second
        double dt
        double coupling
        double outcome_gap
        double piece_gap
        int continuous
        int differentiable
        double psi_taken
        double psi_other
        int decoupled
    ctypedef struct hes_flow:
        hes_traj traj
        int n
        double *jac
        int n_simultaneous
        hes_simultaneous simultaneous[4]
    hes_status hes_flow_jacobian(hes_system *sys, int mode, const double *x0, double time,
                                 hes_flow *out)
    void hes_flow_free(hes_flow *f)
    char *hes_flow_json(const hes_system *sys, int mode, const double *x0, double time,
                        const hes_flow *f)
