# c_continuation.pxd - what continuation.pxi calls of libhes: following a
# periodic orbit in a parameter (hes/continuation.h), its branches read
# back from a document (hes/io.h) and the orbit's returns and start
# (hes/hybrid.h).

from c_hes cimport *

cdef extern from "hes.h" nogil:
    ctypedef enum hes_crossing:
        HES_CROSS_NONE
        HES_CROSS_PLUS_ONE
        HES_CROSS_MINUS_ONE
        HES_CROSS_COMPLEX
    const char *hes_crossing_name(hes_crossing c)

    ctypedef enum hes_label:
        HES_LABEL_NONE
        HES_LABEL_EP
        HES_LABEL_SN
        HES_LABEL_BP
        HES_LABEL_PD
        HES_LABEL_NS
        HES_LABEL_GR
        HES_LABEL_SEQ
        HES_LABEL_SIM
    const char *hes_label_name(hes_label l)

    ctypedef enum hes_continuation_method:
        HES_CONT_AUTO
        HES_CONT_NATURAL
        HES_CONT_ARCLENGTH

    ctypedef enum hes_continuation_corrector:
        HES_CORRECT_SHOOTING
        HES_CORRECT_COLLOCATION

    ctypedef struct hes_continuation_point:
        double value
        double value2
        double period
        double psi
        double psi_tol
        hes_verdict verdict
        hes_crossing crossing
        hes_label label
        char detail[65]
        double s
        double *margins
        int full
        int n_mult
        double *re
        double *im
        double *x0
        double *xr
        int n_events
        double tangency
        int tangency_event
        double *event_t
        int *event_tr

    ctypedef struct hes_continuation:
        char param[65]
        char param2[65]
        int n
        int n_guards
        int returns
        hes_continuation_method method
        int n_points
        hes_continuation_point *points
        int reached
        char why[512]

    ctypedef struct hes_continuation_options:
        double step
        double min_step
        double max_step
        double tol
        double max_jump
        int max_points
        hes_continuation_method method
        int (*progress)(void *ctx, const hes_continuation *branch)
        void *progress_ctx
        hes_continuation_corrector corrector
        int colloc_nodes

    void hes_continuation_options_init(hes_continuation_options *o)
    hes_status hes_continue(hes_system *sys, const char *param, double from_, double to,
                            const hes_continuation_options *o, hes_continuation *out,
                            hes_error *err)
    hes_status hes_continue_both(hes_system *sys, const char *param, double lo, double at,
                                 double hi, const hes_continuation_options *o, int threads,
                                 hes_continuation *down, hes_continuation *up, hes_error *err)
    hes_status hes_continue_resume(hes_system *sys, const hes_continuation *partial, double to,
                                   const hes_continuation_options *o, hes_continuation *out,
                                   hes_error *err)
    hes_status hes_continue_doubled(hes_system *sys, const hes_continuation *branch, int at,
                                    double to, const hes_continuation_options *o,
                                    hes_continuation *out, hes_error *err)
    hes_status hes_continue_curve(hes_system *sys, const hes_continuation *branch, int at,
                                  const char *param2, double to2,
                                  const hes_continuation_options *o, hes_continuation *out,
                                  hes_error *err)
    void hes_continuation_point_free(hes_continuation_point *pt)
    void hes_continuation_free(hes_continuation *c)

    hes_status hes_continuation_from_json(const char *text, size_t size, const hes_system *sys,
                                          hes_continuation *out, double *from_,
                                          double *to, hes_error *err)
    hes_status hes_continuation_read(const char *path, const hes_system *sys,
                                     hes_continuation *out, double *from_, double *to,
                                     hes_error *err)

    hes_status hes_system_set_orbit_returns(hes_system *sys, int k)
    int hes_system_orbit_returns(const hes_system *sys)
