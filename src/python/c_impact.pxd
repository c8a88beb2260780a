# c_impact.pxd - what impact.pxi calls of libhes: the impact problems and
# their setup (hes/problems.h), the impact laws and post-impact sets
# (hes/contact.h), a robot file's mechanical system and contacts
# (hes/robot.h, hes/mech.h), stability over an orbit's impact outcomes
# (hes/orbit.h) and the documents (hes/io.h).

from c_hes cimport *

cdef extern from "hes.h" nogil:
    ctypedef struct hes_mech_constraint:
        const char *name
        double mu
    ctypedef struct hes_mech:
        const char *name
        int d
        int n_constraints
        const hes_mech_constraint *constraints

    ctypedef struct hes_impact_problem:
        const char *name
        const char *description
        const hes_mech *mech
        int k
        const int *contacts
        int (*pre_impact)(double *q, double *v, void *data)
        double h
        int steps
        int samples
    int hes_impact_problem_count()
    const hes_impact_problem *hes_impact_problem_get(int i)
    const hes_impact_problem *hes_impact_problem_find(const char *name)

    ctypedef struct hes_contact_set:
        int n
        int k
        const double *M
        const double *Jn
        const double *Jt
        const double *mu

    ctypedef struct hes_impact_setup:
        int d
        int k
        double *q
        double *v
        double *mu
        hes_contact_set contacts
    hes_status hes_impact_problem_setup(const hes_impact_problem *pb, hes_impact_setup *out,
                                        hes_error *err)
    hes_status hes_impact_setup_state(const hes_mech *mech, int k, const int *contacts,
                                      const double *q, const double *v, hes_impact_setup *out,
                                      hes_error *err)
    void hes_impact_setup_free(hes_impact_setup *s)

    ctypedef struct hes_routh_options:
        double h
        int steps
        double tol
        unsigned long select

    ctypedef enum hes_contact_mode:
        HES_CONTACT_STICK
        HES_CONTACT_SLIDE
        HES_CONTACT_LIFT
    const char *hes_contact_mode_name(hes_contact_mode mode)

    ctypedef struct hes_impact_set_options:
        int samples
        hes_routh_options routh
        unsigned long seed
        int threads
        int keep_caps
        double max_wall_time
    void hes_impact_set_options_init(hes_impact_set_options *o)

    ctypedef struct hes_impact_set:
        int n
        int k
        int samples
        double *v
        double *u
        hes_contact_mode *modes
        int *lcps
        int *finished
        double *dissipated
        double *residual
        int n_finished
        double mean_lcps
        double max_residual
        double max_energy_gain
        double seconds
        long pivots
        const char *sequence
        int dim
        double *caps
        double u_scale
    hes_status hes_impact_set_sample(const hes_contact_set *contacts, const double *v_minus,
                                     const hes_impact_set_options *o, hes_impact_set *set,
                                     hes_error *err)
    void hes_impact_set_free(hes_impact_set *set)

    ctypedef enum hes_impact_law:
        HES_LAW_ANITESCU_POTRA
        HES_LAW_SEQUENTIAL
    ctypedef struct hes_impact_outcome:
        hes_impact_law law
        int *order
        double *v
        double *u
        hes_contact_mode *modes
        int lcps
        double energy_before
        double energy_after
        double relative
        int nearest
        int inside_normals
        hes_status status
    hes_status hes_impact_outcome_init(hes_impact_outcome *out, hes_impact_law law, int n, int k)
    void hes_impact_outcome_free(hes_impact_outcome *out)
    hes_status hes_impact_outcome_compute(const hes_contact_set *contacts, const double *v_minus,
                                          const hes_impact_set *set, hes_impact_outcome *out,
                                          hes_error *err)
    hes_status hes_impact_default_step(const hes_contact_set *contacts, const double *v_minus,
                                       double *h, hes_error *err)
    void hes_contact_velocities(const hes_contact_set *contacts, const double *v, double *u)

    char *hes_impact_json(const hes_impact_problem *pb, const hes_impact_setup *setup,
                          const hes_impact_set_options *o, const hes_impact_set *set,
                          const hes_impact_outcome *outcomes, int n_outcomes, int samples)

    # a robot file (MuJoCo)
    ctypedef struct hes_robot:
        pass
    ctypedef struct hes_robot_contact:
        const char *site
        double mu
    hes_status hes_robot_read(const char *path, const hes_robot_contact *contacts,
                              int n_contacts, hes_robot **out, hes_error *err)
    void hes_robot_destroy(hes_robot *robot)
    const hes_mech *hes_robot_mech(const hes_robot *robot)
    const char *hes_robot_coordinate(const hes_robot *robot, int i)
    const char *hes_robot_velocity_name(const hes_robot *robot, int i)
    hes_status hes_robot_dims(const hes_robot *robot, int *nq, int *nv)
    int hes_mech_nq(const hes_mech *m)
    ctypedef struct hes_robot_dynamics:
        int nv
        int nu
        int nc
        int tangents
        const double *phi
    hes_status hes_robot_dynamics_at(hes_robot *robot, const double *q, const double *v,
                                     hes_robot_dynamics *out, hes_error *err)
    int hes_robot_contact_count(const hes_robot *robot)
    const char *hes_robot_contact_name(const hes_robot *robot, int i)
    hes_status hes_robot_set_friction(hes_robot *robot, int contact, double mu)
    hes_status hes_robot_set_motors(hes_robot *robot, const char *const *joints, int n,
                                    hes_error *err)
    int hes_robot_motor_count(const hes_robot *robot)
    const char *hes_robot_motor_joint(const hes_robot *robot, int a)

    # stability over an orbit's impact outcomes
    ctypedef struct hes_impact_orbit_options:
        int transition
        hes_impact_set_options set
    void hes_impact_orbit_options_init(hes_impact_orbit_options *o)
    ctypedef struct hes_impact_orbit:
        double psi_nominal
        int transition
        int k
        hes_impact_set set
        int *consistent
        double *psi
        hes_status *status
        int n_consistent
        int n_orbits
        int n_failed
        int n_stable
        int n_unstable
        int n_marginal
        double psi_worst
        double psi_best
        int worst
        int best
        double worst_check
        double step
        int steps
        double seconds
        char message[256]
    hes_status hes_impact_orbit_analyze(hes_system *sys, const hes_analysis *nominal,
                                        const hes_impact_orbit_options *o, hes_impact_orbit *r,
                                        hes_error *err)
    void hes_impact_orbit_free(hes_impact_orbit *r)
    char *hes_analysis_impact_json(const hes_system *sys, const hes_analysis *res,
                                   const hes_impact_orbit *r)
