# c_invdyn.pxd - what invdyn.pxi calls of libhes: inverse dynamics with
# rigid contact along a robot's trajectory (hes/invdyn.h) or along a gait
# of a robot model (hes/trajopt.h, hes/io.h); the robot's own calls are
# c_impact.pxd's.

from c_hes cimport *
from c_impact cimport *

cdef extern from "hes.h" nogil:
    ctypedef enum hes_invdyn_method:
        HES_INVDYN_NONE
        HES_INVDYN_NO_SLIP
        HES_INVDYN_COULOMB
        HES_INVDYN_CONVEX
        HES_INVDYN_CONVEX_NO_SLIP
    const char *hes_invdyn_method_name(hes_invdyn_method m)
    hes_status hes_invdyn_method_from_name(const char *name, hes_invdyn_method *m)

    ctypedef struct hes_invdyn_options:
        hes_invdyn_method method
        double tol
        double tol_slip
        int stage2
        int cold
        int min_friction
        double tol_eom
        int qp_lcp

    ctypedef struct hes_invdyn_run_options:
        hes_invdyn_options solve
        double dt
        int no_drift
        double stance_tol
    void hes_invdyn_run_options_init(hes_invdyn_run_options *o)

    ctypedef struct hes_invdyn_run:
        int nodes
        int nv
        int nu
        int nc
        int tangents
        double *t
        hes_status *status
        void *message            # char (*)[160]: node i's message at 160 i
        int *stance
        double *tau
        double *f
        double *ratio
        double *mu_min
        double *slip
        double mu_required
        int worst
        int counted
        int failed
    hes_status hes_invdyn_trajectory(hes_robot *robot, int nodes, const double *t,
                                     const double *q, const double *v, const double *a,
                                     const int *stance, const hes_invdyn_run_options *opts,
                                     hes_invdyn_run *out, hes_error *err)
    void hes_invdyn_run_free(hes_invdyn_run *run)

    ctypedef struct hes_gait:
        char *problem
    hes_status hes_gait_read(const char *path, const hes_model *base, hes_gait *g,
                             hes_error *err)
    void hes_gait_free(hes_gait *g)
    hes_status hes_invdyn_gait(const hes_model *model, const hes_gait *gait,
                               const hes_invdyn_run_options *opts, hes_robot **robot,
                               hes_invdyn_run *out, hes_error *err)
    hes_robot *hes_robot_model_robot(const hes_model *model)
