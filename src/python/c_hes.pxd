# c_hes.pxd - what the module calls of libhes's public interface (hes.h):
# the system, its model and parameters, simulation, the analysis and the
# documents.  Cython writes C that names each field, so the module follows
# the headers it is compiled against; hes_abi_check at import refuses a
# library of another ABI.  Areas wrapped by one file of the module declare
# their own calls beside it (c_*.pxd).

from libc.stdio cimport FILE

cdef extern from "hes.h" nogil:
    # ---------------------------------------------------------------- base
    ctypedef enum hes_status:
        HES_OK
        HES_EINVAL
        HES_ENOMEM
        HES_ESOLVER
        HES_EGRAZING
        HES_EZENO
        HES_ENOEVENT
        HES_ENONFINITE
        HES_EMODEL
        HES_ENOORBIT
        HES_EMAXITER
        HES_EDEFECTIVE
        HES_ENOTFOUND
        HES_EDIVERGED
        HES_EIO
        HES_ELCP
        HES_EINFEASIBLE
    const char *hes_strerror(hes_status status)
    int hes_status_exit_code(hes_status status)
    enum: HES_ERROR_LEN
    ctypedef struct hes_error:
        char message[512]
    enum: HES_ABI_VERSION
    int hes_abi_version()
    hes_status hes_abi_check(int built_with, hes_error *err)
    const char *hes_features()
    size_t HES_INPUT_MAX
    hes_status hes_input_read(const char *path, size_t max, char **data, size_t *size,
                              hes_error *err)

    # --------------------------------------------------------------- model
    enum: HES_MODEL_ABI
    enum: HES_NAME_MAX
    ctypedef int (*hes_fn)(double t, const double *x, const double *p, double *out, void *data)
    ctypedef enum hes_integrator:
        HES_ADAMS
        HES_BDF
        HES_RK8
        HES_DOPRI5
    const char *hes_integrator_name(hes_integrator integrator)
    hes_status hes_integrator_from_name(const char *name, hes_integrator *integrator)
    enum: HES_DOWN
    enum: HES_UP
    enum: HES_ANY
    enum: HES_PARAM_SHAPE
    enum: HES_PARAM_SOLVED
    enum: HES_PARAM_POSITIVE
    ctypedef struct hes_mode:
        const char *name
        int dim
        const char *const *state_names
        hes_fn field
        hes_fn field_dx
        void *data
        int tdim
    ctypedef struct hes_transition:
        const char *name
        int to
        int from_ "from"
        int direction
        hes_fn guard
        hes_fn reset
        hes_fn guard_dx
        hes_fn guard_dt
        hes_fn reset_dx
        hes_fn reset_dt
        int clock_reset
        void *data
    ctypedef struct hes_param:
        const char *name
        double value
        const char *unit
        const char *description
        unsigned flags
        double min
        double max
        double search_lo
        double search_hi
    ctypedef struct hes_orbit_spec:
        int mode
        int section
        int n_sequence
        const int *sequence
        const int *any_order
        const char *period_param
        int n_free_states
        const int *free_states
        int n_free_params
        const char *const *free_params
        int n_residual
        const int *residual
        int (*guess)(double *p, double *x0, void *data)
    ctypedef struct hes_trajopt_spec:
        pass
    ctypedef struct hes_model:
        int abi
        const char *name
        const char *description
        int n_modes
        const hes_mode *modes
        int n_transitions
        const hes_transition *transitions
        int n_params
        const hes_param *params
        hes_orbit_spec orbit
        hes_integrator integrator
        double max_phase_time
        int (*validate)(const double *p, char *msg, size_t msglen, void *data)
        void *data
        const char *(*describe_error)(int code, void *data)
        const hes_trajopt_spec *trajopt
        void (*release)(void *model)
    void hes_model_destroy(hes_model *model)
    hes_status hes_model_validate(const hes_model *model, hes_error *err)
    int hes_model_param_index(const hes_model *model, const char *name)
    int hes_model_mode_index(const hes_model *model, const char *name)
    int hes_model_transition_index(const hes_model *model, const char *name)

    ctypedef struct hes_ess_model:
        const char *name
        int n
        int m
        const char *const *state_names
        const char *const *event_names
        const double *orbit_x0
        double orbit_period
        int orbit_section

    # -------------------------------------------------------------- system
    ctypedef struct hes_system:
        pass
    ctypedef enum hes_kind:
        HES_KIND_HYBRID
        HES_KIND_ESS
    const char *hes_kind_name(hes_kind kind)
    ctypedef struct hes_settings:
        double rtol
        double atol
        double graze_tol
        int zeno_events
        double zeno_window
        int max_events
        double max_phase_time
        double newton_tol
        int newton_maxiter
        double fd_step
        int fd_order
        int max_steps
        double max_wall_time
        double max_search_time
        int check_derivatives
    hes_status hes_system_new(const hes_model *model, hes_system **out, hes_error *err)
    hes_status hes_system_new_ess(const hes_ess_model *model, hes_system **out, hes_error *err)
    void hes_system_destroy(hes_system *sys)
    hes_kind hes_system_kind(const hes_system *sys)
    const hes_model *hes_system_model(const hes_system *sys)
    const hes_ess_model *hes_system_ess_model(const hes_system *sys)
    const char *hes_system_name(const hes_system *sys)
    int hes_system_n_params(const hes_system *sys)
    const hes_param *hes_system_param_info(const hes_system *sys, int i)
    const char *hes_system_errmsg(const hes_system *sys)
    hes_settings hes_system_get_settings(const hes_system *sys)
    hes_status hes_system_set_settings(hes_system *sys, const hes_settings *s)
    hes_status hes_system_set_param(hes_system *sys, const char *name, double value)
    hes_status hes_system_get_param(const hes_system *sys, const char *name, double *value)
    const double *hes_system_params(const hes_system *sys)
    hes_status hes_system_check_params(hes_system *sys)
    hes_status hes_system_set_orbit_start(hes_system *sys, const double *x0)

    # ---------------------------------------------------------- simulation
    ctypedef struct hes_event:
        int transition
        double t
        double tm
        double *x_minus
        double *x_plus
    ctypedef struct hes_phase:
        int mode
        double t0
        double t1
        double tm0
        double *x0
        double *x1
        double *A
    ctypedef struct hes_traj:
        int n_phases
        int n_events
        hes_phase *phases
        hes_event *events
        hes_status status
    void hes_traj_free(hes_traj *traj)
    ctypedef struct hes_sim_options:
        int section
        int n_section
        double t_end
        int sequence_only
        int after_transition
        int sensitivities
    void hes_sim_options_init(hes_sim_options *o)
    hes_status hes_simulate(hes_system *sys, int mode, double t0, double tm0,
                            const double *x0, const hes_sim_options *opts, hes_traj *traj)
    hes_status hes_saltation(hes_system *sys, int transition, double t, const double *x,
                             double *xi)

    # ------------------------------------------------------------ analysis
    ctypedef enum hes_verdict:
        HES_UNSTABLE
        HES_STABLE
        HES_MARGINAL
    const char *hes_verdict_name(hes_verdict verdict)
    ctypedef struct hes_orbit:
        int mode
        double t0
        double period
        int n
        double *x0
        double *flow
        hes_traj traj
        int iterations
        double residual
        int autonomous
    ctypedef struct hes_analysis:
        hes_orbit orbit
        int have_check
        double check_max_abs_diff
    hes_status hes_analysis_new(hes_system *sys, int check, hes_analysis **out)
    void hes_analysis_destroy(hes_analysis *a)
    double hes_analysis_psi(const hes_analysis *a)
    double hes_analysis_psi_tol(const hes_analysis *a)
    hes_verdict hes_analysis_verdict(const hes_analysis *a)
    double hes_analysis_period(const hes_analysis *a)
    int hes_analysis_dim(const hes_analysis *a)
    int hes_analysis_tangent_dim(const hes_analysis *a)
    int hes_analysis_n_multipliers(const hes_analysis *a)
    double hes_analysis_check(const hes_analysis *a)
    int hes_analysis_x0(const hes_analysis *a, double *x0, int max)
    int hes_analysis_multipliers(const hes_analysis *a, double *re, double *im, int max)
    int hes_analysis_monodromy(const hes_analysis *a, int which, double *out, int max)

    # ------------------------------------------------ plugins and catalogs
    ctypedef struct hes_plugin:
        pass
    hes_status hes_plugin_open_any(const char *path, hes_plugin **plugin, const hes_model **model,
                                   const hes_ess_model **ess, hes_error *err)
    void hes_plugin_destroy(hes_plugin *plugin)
    hes_status hes_system_open(const char *name, hes_system **out, hes_plugin **plugin,
                               hes_error *err)
    int hes_catalog_count()
    hes_status hes_catalog_entry(int i, const char **name, const char **kind,
                                 const char **description)
    const hes_model *hes_problem_find(const char *name)
    const hes_ess_model *hes_ess_problem_find(const char *name)
    hes_status hes_robot_model_read(const char *path, hes_model **out, hes_error *err)

    # ----------------------------------------------------------- documents
    char *hes_analysis_json(const hes_system *sys, const hes_analysis *res)
    char *hes_model_json(const hes_model *model)
    char *hes_ess_model_json(const hes_ess_model *model)
