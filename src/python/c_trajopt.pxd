# c_trajopt.pxd - what trajopt.pxi calls of libhes (lib/hes/shaping.h,
# trajopt.h, io.h): the pipeline of `hes trajopt` (hes_trajopt_run), its
# gaits, their files and its document.

from libc.stdio cimport FILE
from c_hes cimport *
from c_shape cimport hes_measure

cdef extern from "hes.h" nogil:
    enum: HES_COLLOC_MAX_DESIGN
    enum: HES_COLLOC_MAX_JOBS
    enum: HES_TRAJOPT_MAX_GRIDS
    enum: HES_TRAJOPT_MAX_STARTS

    ctypedef enum hes_nlp_solver:
        HES_NLP_DEFAULT
        HES_NLP_SLSQP
        HES_NLP_IPOPT
        HES_NLP_REDUCED
        HES_NLP_HYBRID
    int hes_nlp_solver_available(hes_nlp_solver solver)
    const char *hes_nlp_solver_name(hes_nlp_solver solver)
    hes_status hes_nlp_solver_from_name(const char *name, hes_nlp_solver *solver)

    ctypedef enum hes_colloc_objective:
        HES_COLLOC_FEASIBLE
        HES_COLLOC_ENERGY
        HES_COLLOC_STABILITY
        HES_COLLOC_WEIGHTED
    const char *hes_colloc_objective_name(hes_colloc_objective objective)
    hes_status hes_colloc_objective_from_name(const char *name, hes_colloc_objective *objective)

    ctypedef struct hes_gait_phase:
        int mode
        int transition
        int is_virtual
        int direction
        double offset
        double duration
        int nodes
        double *x
        int u_rows
        double *u
    ctypedef struct hes_gait:
        char *problem
        double *params
        int n_params
        int n_inputs
        int *inputs
        int n_phases
        hes_gait_phase *phases
        char *objective
        double psi
        double energy
    void hes_gait_free(hes_gait *g)
    hes_status hes_gait_write(const hes_gait *g, const hes_model *base, FILE *out)
    hes_status hes_gait_read(const char *path, const hes_model *base, hes_gait *g,
                             hes_error *err)

    ctypedef struct hes_trajopt_options:
        hes_colloc_objective objective
        double weight
        hes_measure measure
        double smooth_weight
        double psi_floor
        double psi_floor_smoothing
        double psi_smoothing
        int nodes
        const int *virtual_events
        int constant_inputs
        int n_design
        const char *const *design
        const double *design_lo
        const double *design_hi
        int n_bounds
        const char *const *bound_states
        const double *bound_lo
        const double *bound_hi
        const hes_gait *init
        int maxeval
        int n_finer
        const int *finer_nodes
        const int *finer_maxeval
        int refine
        void (*progress)(void *ctx, int evaluation, double cost, double violation, double psi)
        void *progress_ctx
        hes_nlp_solver solver
        int jobs
        int starts
        unsigned long seed
        double start_spread
    void hes_trajopt_options_init(hes_trajopt_options *o)

    ctypedef struct hes_trajopt_start:
        hes_status status
        char message[160]
        int have_shooting
        double cost
        double cost_shooting
        double psi_shooting
        double energy
        int evaluations
        double seconds
    ctypedef struct hes_trajopt_grid:
        int nodes
        int variables
        hes_nlp_solver solver
        int evaluations
        double psi
        double energy
        double seconds
    ctypedef struct hes_trajopt_result:
        hes_gait gait
        int nodes
        int variables
        int constraints
        int path_constraints
        int n_grids
        hes_trajopt_grid grids[8]
        int n_design
        int *design
        double *design_lo
        double *design_hi
        double psi_collocation
        int refined_nodes
        double psi_refined
        double energy
        double violation
        double period
        int evaluations
        int fallbacks
        double seconds
        int n
        double *return_map
        int have_shooting
        hes_status shooting_status
        char shooting_message[512]
        double psi_shooting
        hes_verdict verdict
        double psi_tol
        double return_map_difference
        double psi_difference
        int unresolved
        hes_colloc_objective objective
        double weight
        hes_nlp_solver solver
        double cost
        double cost_shooting
        int n_starts
        int best_start
        hes_trajopt_start starts[64]
    hes_status hes_trajopt_run(hes_system *sys, const hes_trajopt_options *opts,
                               hes_trajopt_result *res)
    void hes_trajopt_result_free(hes_trajopt_result *res)
    char *hes_trajopt_json(const hes_system *sys, const hes_trajopt_result *res)

    # the fields of a model's trajectory-optimisation description that the
    # options are checked against (the module's hes_trajopt_spec is opaque)
    ctypedef struct _trajopt_spec_view "hes_trajopt_spec":
        int n_inputs
        const char *const *inputs
        const int *virtual_events
