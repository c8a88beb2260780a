# c_shape.pxd - what shape.pxi calls of libhes (lib/hes/shaping.h, io.h):
# hybrid event shaping (hes_shape_optimize), the gradient of psi over the
# shape parameters (hes_shape_new, hes_shape_eval), and their documents.

from c_hes cimport *
from c_trials cimport *

cdef extern from "hes.h" nogil:
    ctypedef struct hes_shape:
        pass
    hes_status hes_shape_new(hes_system *sys, const hes_analysis *res, int n,
                             const char *const *names, hes_shape **out)
    void hes_shape_destroy(hes_shape *sh)
    const char *hes_shape_errmsg(const hes_shape *sh)
    int hes_shape_count(const hes_shape *sh)
    int hes_shape_param(const hes_shape *sh, int j)
    ctypedef struct hes_shape_eval_result:
        int n_shape
        int n_mult
        double psi
        const double *abs
        const double *re
        const double *im
        const double *dpsi
        const double *dabs
        int fallback
        int nonsmooth
        double cond
    hes_status hes_shape_eval(hes_shape *sh, const double *h, int grad,
                              hes_shape_eval_result *out)

    ctypedef enum hes_measure:
        HES_MEASURE_PSI
        HES_MEASURE_SMOOTH
    const char *hes_measure_name(hes_measure measure)
    hes_status hes_measure_from_name(const char *name, hes_measure *measure)

    ctypedef struct hes_shape_options:
        int n
        const char *const *names
        const double *start
        const double *lo
        const double *hi
        const char *algorithm
        int starts
        unsigned long seed
        hes_measure measure
        int gradient
        int polish
        int maxeval
        double ftol_rel
        double stopval
        void (*progress)(int evaluations, double best, void *data)
        void *progress_data
    void hes_shape_options_init(hes_shape_options *o)

    ctypedef struct hes_shape_result:
        int n
        int *param
        double *h
        double *lo
        double *hi
        double *start
        double psi_initial
        double psi
        double measure
        int evaluations
        int gradients
        int fallbacks
        int gradient
        char algorithm[48]
        char polish[48]
        int starts
        hes_analysis analysis
        int n_params
        double *params
        int moves_orbit
        int lost
        double *lost_at
        char lost_why[512]
    hes_status hes_shape_optimize(hes_system *sys, const hes_shape_options *opts,
                                  hes_shape_result *res)
    hes_status hes_shape_result_apply(hes_system *sys, const hes_shape_result *res)
    void hes_shape_result_free(hes_shape_result *res)

    char *hes_shape_json(const hes_system *sys, const hes_shape_result *res,
                         hes_measure measure, const hes_trials *trials)
    char *hes_analysis_gradient_json(const hes_system *sys, const hes_analysis *res,
                                     const hes_shape *sh, const hes_shape_eval_result *ev)
