# c_ess.pxd - what ess.pxi calls of libhes: the ESS integrator of an
# event-selected system (hes/ess.h), its system's integrator (hes/orbit.h),
# its document (hes/io.h) and evenly spaced output times (hes/batch.h).

from c_hes cimport *

cdef extern from "hes.h" nogil:
    ctypedef struct hes_ess:
        pass

    ctypedef enum hes_ess_method:
        HES_ESS_CVODES
        HES_ESS_DOPRI5
    const char *hes_ess_method_name(hes_ess_method method)
    hes_status hes_ess_method_from_name(const char *name, hes_ess_method *method)

    ctypedef struct hes_ess_options:
        double eps
        double rtol
        double atol
        int jacobian
        int record
        int n_out
        const double *t_out
        double live_tol
        long max_loops
        double max_wall_time
        int near_miss
        hes_ess_method method
    void hes_ess_options_init(hes_ess_options *opts)

    ctypedef struct hes_ess_result:
        int n
        int m
        double t_end
        double *x_end
        int *s_end
        double *jac
        int n_samples
        double *t
        double *x
        double *x_out
        long n_integrations
        long n_projections
        long n_sign_changes
        long n_rearms
        long n_refused
        double eps_error
        double eps_order

    const hes_ess_model *hes_ess_get_model(const hes_ess *ess)
    const char *hes_ess_errmsg(const hes_ess *ess)
    hes_status hes_ess_run(hes_ess *ess, const hes_ess_options *opts, double t0,
                           const double *x0, double t_end, hes_ess_result *res)
    void hes_ess_result_free(hes_ess_result *res)
    hes_status hes_ess_run_error(hes_ess *ess, const hes_ess_options *opts, double t0,
                                 const double *x0, double t_end, hes_ess_result *res)

    hes_ess *hes_system_ess(hes_system *sys)
    char *hes_ess_result_json(const hes_ess *ess, const hes_ess_options *opts, double t0,
                              const double *x0, const hes_ess_result *res)
    hes_status hes_grid_linspace(double lo, double hi, int n, double *out)
