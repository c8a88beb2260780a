# c_sweep.pxd - what sweep.pxi calls of libhes (lib/hes/batch.h, io.h):
# parameter sweeps over points on threads, their resumable CSV file, the
# points of a grid or a Latin hypercube, and a row's JSON line.

from c_hes cimport *

cdef extern from "hes.h" nogil:
    enum: HES_SWEEP_MAX_MULT
    enum: HES_SWEEP_MAX_PARAMS
    enum: HES_SWEEP_MAX_STATE

    ctypedef struct hes_sweep_row:
        int index
        hes_status status
        char message[320]
        double psi
        double period
        int stable
        hes_verdict verdict
        int n_mult
        double re[16]
        double im[16]
        int n_values
        double values[64]
        int n_x0
        double x0[32]
        int branch_jump

    ctypedef struct hes_sweep_options:
        int n_params
        const int *params
        int n_points
        const double *values
        int optimize
        int jobs
        const unsigned char *skip
        int (*row)(void *ctx, const hes_sweep_row *row)
        void *ctx
        int (*next_block)(void *ctx, int block)
        int n_strides
        const int *strides
        const hes_settings *settings
    void hes_sweep_options_init(hes_sweep_options *o)
    hes_status hes_sweep_run_system(const hes_system *proto, const hes_sweep_options *o,
                                    hes_error *err)

    ctypedef struct hes_sweep_file_options:
        const char *path
        FILE *stream
        const char *stream_name
        int resume
        const char *points
        const char *version
    void hes_sweep_file_options_init(hes_sweep_file_options *o)
    ctypedef struct hes_sweep_file_report:
        int kept
        int corrupted
        int duplicates
        int cut
        char warning[512]
    hes_status hes_sweep_run_file(const hes_system *proto, const hes_sweep_options *o,
                                  const hes_sweep_file_options *fo, hes_sweep_file_report *rep,
                                  hes_error *err)

    void hes_format_double(char *buf, size_t len, double v)
    hes_status hes_latin_hypercube(int n, int dim, const double *lo, const double *hi,
                                   unsigned long seed, double *out)
    hes_status hes_grid_linspace(double lo, double hi, int n, double *out)
    char *hes_sweep_row_json(const hes_system *sys, int n_swept, const int *swept,
                             const double *point, const hes_sweep_row *row)

    # the fields of an event-selected model that say whether a sweep can
    # start its orbit search (the module's hes_ess_model declares its name only)
    ctypedef struct _ess_model_orbit "hes_ess_model":
        int n
        const double *orbit_x0
